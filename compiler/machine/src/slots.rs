//! What each setup actor of a Machine runs, as its IR slot's definition ([`ir::Definition`]), and
//! the Machine's `workspace()` options ([`ir::slot::Workspace`]).
//!
//! Read off the same values, with the same helpers, as `jr2 parts` reads them ([`crate::parts`]):
//! each actor as its `customize()` layers leave it ([`Customized`]), an Effect's secrets as
//! [`crate::parts::carried_effect`] finds them, an argv element as the lend manifest writes it, an
//! Open body's lend manifest as `jr2 parts --lends` gives it. Nothing is dropped: an option no
//! typed field reads is kept in the definition's `options`, a value not known statically is a
//! [`Part::Unknown`] with its reason (a boolean option that is no literal, in an Effect's
//! `unread`), and a child Machine that does not lower is a [`Definition::Unknown`] with its first
//! fault's message. A child Machine is lowered whole, with its own children, down to
//! [`MAX_NESTING`] Machines deep.

use crate::lower::{arg, describe, kit_name, machine_parts, ActorClass, MachineParts};
use crate::parts::{argv_part, is_open_sentinel, lend_manifest_of, opt, secrets_in, string_list, Customized};
use crate::value::{Callee, Value, ValueKind};
use ir::slot::{Agent, Argv, ArgvItem, Effect, EffectRun, Open, Options, Part, Workspace};
use ir::{Definition, FxIndexMap, Json, Name};
use kit::lends::ArgvPart;

/// How deep child Machines are lowered into their parents' slots: a child at this depth is a
/// [`Definition::Unknown`] (a Machine nested so deep is no Workflow; the bound keeps a hostile
/// chain of Machines from costing its square).
pub const MAX_NESTING: usize = 32;

/// The definition of the setup actor `name` (of class `class`), as `custom` layers it. `depth` is
/// the Machine's own nesting (0 for a Workflow's root): its child Machines are lowered at
/// `depth + 1`.
pub(crate) fn definition(
    parts: &MachineParts<'_>,
    custom: &Customized<'_, '_>,
    name: &str,
    class: &ActorClass,
    depth: usize,
) -> Definition {
    let Some(actor) = custom.actor(name) else {
        return Definition::Unknown { reason: format!("no actor of the setup is named {name:?}") };
    };
    match class {
        ActorClass::Open => match lend_manifest_of(parts, custom, name) {
            Ok(manifest) => Definition::Open(Open { manifest, input: opt(&actor, 1, "input").map(schema_part) }),
            Err(reason) => Definition::Unknown { reason },
        },
        // A `customize()` layers no child Machine: the setup's own value, as the evaluation holds it.
        ActorClass::Machine => match parts.actor(name) {
            Some(child) => child_machine(child, depth + 1),
            None => Definition::Unknown { reason: format!("no actor of the setup is named {name:?}") },
        },
        _ => of_actor(&actor, class, name),
    }
}

/// The definition of an Agent, an Effect, the Gate or `fail()` (`name` for a message).
fn of_actor(actor: &Value, class: &ActorClass, name: &str) -> Definition {
    match class {
        ActorClass::Agent => agent(actor),
        ActorClass::Effect(_) => Definition::Effect(effect(actor)),
        ActorClass::Gate => Definition::Gate(call_options(actor)),
        ActorClass::Fail => Definition::Fail(call_options(actor)),
        _ => Definition::Unknown { reason: format!("actor {name:?} is {}", describe(actor)) },
    }
}

/// The definition of a name that invokes use and no setup actor declares: the kit's implicit
/// `gate`, an actor written in place of the name (`written`: refused where it is written, and
/// read here as far as it reads), or a name that names nothing.
pub(crate) fn undeclared<'v>(src: &str, written: Option<&'v Value<'v>>, depth: usize) -> Definition {
    match (src, written) {
        (_, Some(actor)) => match crate::lower::classify_actor(actor) {
            ActorClass::Machine => child_machine(actor, depth + 1),
            ActorClass::Open => Definition::Unknown {
                reason: "an Open body written in place of a name: it lends nothing (name it in the setup's `actors`)"
                    .into(),
            },
            class => of_actor(actor, &class, src),
        },
        ("gate", None) => Definition::Gate(Options::default()),
        _ => Definition::Unknown { reason: format!("no actor of the setup is named {src:?}") },
    }
}

/// A child Machine's IR, lowered whole (its faults are its own file's, reported where it is
/// checked as a Workflow).
fn child_machine<'v>(value: &'v Value<'v>, depth: usize) -> Definition {
    if depth >= MAX_NESTING {
        return Definition::Unknown { reason: format!("a Machine nested more than {MAX_NESTING} Machines deep") };
    }
    let parts = match machine_parts(value) {
        Ok(parts) => parts,
        Err(fault) => return Definition::Unknown { reason: fault.message },
    };
    let lowered = crate::lower::lower_child(&parts, depth);
    match lowered.machine {
        Some(chart) => Definition::Machine(Box::new(chart)),
        None => Definition::Unknown {
            reason: lowered
                .faults
                .first()
                .map_or_else(|| "the child Machine does not lower".into(), |f| f.message.clone()),
        },
    }
}

/// The `workspace()` options of a Machine that composes a Sandbox, with its `customize()` layers.
pub(crate) fn workspace(parts: &MachineParts<'_>, custom: &Customized<'_, '_>) -> Option<Workspace> {
    if !parts.composes_sandbox() {
        return None;
    }
    let Some(options) = custom.workspace() else { return Some(Workspace::default()) };
    Some(match options.props() {
        Some(_) => Workspace { options: options_of(&options), unread: None },
        None => Workspace {
            options: Options::default(),
            unread: Some(format!("the `workspace()` options are {}, not an object", describe(&options))),
        },
    })
}

/// `agent({...})`: its model, instructions and workspace, and every other field.
fn agent(actor: &Value) -> Definition {
    let Some(def) = arg(actor, 0) else { return Definition::Agent(Agent::default()) };
    if def.props().is_none() {
        return Definition::Unknown { reason: format!("the Agent's definition is {}, not an object", describe(def)) };
    }
    let mut options = options_of(def);
    Definition::Agent(Agent {
        model: options.shift_remove("model"),
        instructions: options.shift_remove("instructions"),
        workspace: options.shift_remove("workspace"),
        options,
    })
}

/// A kit call's options object (its first argument), as parts; empty where it has none.
fn call_options(actor: &Value) -> Options {
    arg(actor, 0).map(options_of).unwrap_or_default()
}

/// An object's entries as parts, in order (`undefined` ones left out, as JSON leaves them).
fn options_of(object: &Value) -> Options {
    let mut out = Options::default();
    for p in object.props().unwrap_or(&[]) {
        if !matches!(p.value.kind, ValueKind::Undefined) {
            out.insert(Name::from(p.key), part(&p.value));
        }
    }
    out
}

/// An Effect: its kind's parts, then `idempotent`, `timeout`, the secrets it names, and the
/// options no field reads.
fn effect(actor: &Value) -> Effect {
    let kit = kit_name(actor).unwrap_or_default();
    // Where the options object is: a command's and a dispatch's second argument, else the first.
    let at = if matches!(kit, "command" | "dispatch") { 1 } else { 0 };
    let mut unread = FxIndexMap::default();
    let flag = |key: &str, unread: &mut FxIndexMap<Name, String>| match opt(actor, at, key) {
        None => false,
        Some(v) => match v.kind {
            ValueKind::Bool { value } => value,
            ValueKind::Undefined => false,
            _ => {
                unread.insert(Name::from(key), format!("`{key}` is {}, not a boolean", describe(v)));
                false
            }
        },
    };
    let get = |key: &str| opt(actor, at, key).filter(|v| !matches!(v.kind, ValueKind::Undefined));
    let (run, read): (EffectRun, &[&str]) = match kit {
        "command" => (
            EffectRun::Command { argv: argv(arg(actor, 0)), pin: flag("pin", &mut unread) },
            &["pin", "secrets", "timeout", "idempotent"],
        ),
        "worktree" => (EffectRun::Worktree { expect: get("expect").map(part) }, &["expect", "timeout", "idempotent"]),
        "http" => (
            EffectRun::Http {
                method: get("method").map_or_else(|| Part::Value(Json::String("GET".into())), part),
                url: get("url").map(part),
                input: get("input").map(schema_part),
                auth: get("auth").map(part),
                request: get("request").map(part),
            },
            &["method", "url", "input", "auth", "request", "timeout", "idempotent"],
        ),
        "push" => (
            EffectRun::Push {
                slot: get("slot").map(part),
                sign: flag("sign", &mut unread),
                squash: flag("squash", &mut unread),
                force: flag("force", &mut unread),
                pin: flag("pin", &mut unread),
            },
            &["slot", "sign", "squash", "force", "pin", "timeout", "idempotent"],
        ),
        "dispatch" => (
            EffectRun::Dispatch {
                workflow: arg(actor, 0).map_or_else(|| Part::Unknown("`dispatch()` names no Workflow".into()), part),
                input: get("input").map(schema_part),
                wait: flag("wait", &mut unread),
                target: get("target").map(part),
            },
            &["input", "wait", "target", "timeout", "idempotent"],
        ),
        _ => (
            EffectRun::Mcp {
                op: get("op").map_or_else(|| Part::Value(Json::String("call".into())), part),
                server: get("server").map(part),
                tool: get("tool").map(part),
                input: get("input").map(schema_part),
            },
            &["op", "server", "tool", "input", "timeout", "idempotent"],
        ),
    };
    let idempotent = flag("idempotent", &mut unread);
    // The secrets, as `jr2 parts` finds them: every `secret("NAME")` among the arguments, then a
    // command's `secrets` list; a `secret(open)` is a secret no name is known of yet.
    let mut names = Vec::new();
    let mut secret_open = false;
    for a in actor.as_call().map(|c| c.args).unwrap_or(&[]) {
        secrets_in(a, &mut names, &mut secret_open);
    }
    if kit == "command" {
        for name in get("secrets").map(string_list).unwrap_or_default() {
            if !names.contains(&name) {
                names.push(name);
            }
        }
    }
    if secret_open {
        unread.insert("secret".into(), "a `secret(open)`: its name is bound later".into());
    }
    let mut options = Options::default();
    match arg(actor, at) {
        Some(o) if o.props().is_some() => {
            for p in o.props().unwrap_or(&[]) {
                if !read.contains(&p.key) && !matches!(p.value.kind, ValueKind::Undefined) {
                    options.insert(Name::from(p.key), part(&p.value));
                }
            }
        }
        Some(o) if !matches!(o.kind, ValueKind::Undefined) => {
            unread.insert("options".into(), format!("the options are {}, not an object", describe(o)));
        }
        _ => {}
    }
    Effect {
        run,
        idempotent,
        timeout: get("timeout").map(part),
        secrets: names.into_iter().map(Name::from).collect(),
        options,
        unread,
    }
}

/// A command's argv: its elements as the lend manifest writes them.
fn argv(v: Option<&Value>) -> Argv {
    let Some(v) = v else { return Argv::Unknown("`command()` has no argv".into()) };
    if is_open_sentinel(v) {
        return Argv::Open;
    }
    match v.as_array() {
        Some(items) => Argv::List(
            items
                .iter()
                .map(|x| match argv_part(x) {
                    Some(ArgvPart::Literal(s)) => ArgvItem::Literal(s),
                    Some(ArgvPart::Arg { arg }) => ArgvItem::Arg { arg: arg.into() },
                    None => ArgvItem::Unknown { unknown: describe(x) },
                })
                .collect(),
        ),
        None => Argv::Unknown(format!("the argv is {}, not a list", describe(v))),
    }
}

/// A zod schema as JSON Schema (the faults' messages where it has none), or any other part.
fn schema_part(v: &Value) -> Part {
    if !crate::zod::is_zod(v) {
        return part(v);
    }
    match crate::zod::to_schema(v) {
        Ok(schema) => Part::Value(schema),
        Err(faults) => Part::Unknown(format!(
            "a zod schema with no JSON Schema reading: {}",
            faults.iter().map(|f| f.message.as_str()).collect::<Vec<_>>().join("; ")
        )),
    }
}

/// A value as a part of a definition: JSON where it is plain data, else what the kit makes of it.
pub(crate) fn part(v: &Value) -> Part {
    if is_open_sentinel(v) {
        return Part::Open;
    }
    match &v.kind {
        ValueKind::Function(f) => match &f.lowered {
            Some(expr) => Part::Expr((**expr).clone()),
            None => Part::Unknown("a function whose body is not lowered".into()),
        },
        ValueKind::Unknown { reason } => Part::Unknown(reason.to_string()),
        ValueKind::Imported { .. } => Part::Unknown(describe(v)),
        ValueKind::Call(_) if crate::zod::is_zod(v) => schema_part(v),
        ValueKind::Call(c) => match c.callee {
            Callee::Kit("secret") if c.args.first().and_then(Value::as_str).is_some() => {
                Part::Secret(c.args.first().and_then(Value::as_str).unwrap_or_default().into())
            }
            Callee::Kit(name) | Callee::Xstate(name) => {
                Part::Call { name: name.into(), args: c.args.iter().map(part).collect() }
            }
            _ => Part::Unknown(describe(v)),
        },
        ValueKind::Array { items } => {
            let items: Vec<Part> = items.iter().map(part).collect();
            match items.iter().all(|p| matches!(p, Part::Value(_))) {
                true => Part::Value(Json::Array(items.into_iter().map(into_json).collect())),
                false => Part::Array(items),
            }
        }
        ValueKind::Object { props } => {
            let mut entries = Options::default();
            for p in props.iter().filter(|p| !matches!(p.value.kind, ValueKind::Undefined)) {
                entries.insert(Name::from(p.key), part(&p.value));
            }
            match entries.values().all(|p| matches!(p, Part::Value(_))) {
                true => {
                    let mut map = ir::JsonMap::with_capacity(entries.len());
                    for (k, p) in entries {
                        map.push(k, into_json(p));
                    }
                    Part::Value(Json::Object(map))
                }
                false => Part::Object(entries),
            }
        }
        _ => Part::Value(v.to_ir_json().unwrap_or(Json::Null)),
    }
}

/// The JSON of a [`Part::Value`] (only called on one).
fn into_json(p: Part) -> Json {
    match p {
        Part::Value(j) => j,
        _ => Json::Null,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fault::FaultKind;
    use crate::lower::lower_machine;
    use crate::module::{Evaluated, Sources};
    use ir::slot::EffectRun;
    use std::collections::HashMap;
    use std::path::{Path, PathBuf};

    fn fixture(name: &str) -> PathBuf {
        base::workspace::root().join("compiler/machine/tests/fixtures/slots").join(name)
    }

    /// The IR of an evaluated Workflow's `machine`, with the faults of lowering it.
    fn ir_of(ev: &Evaluated) -> (ir::Machine, Vec<FaultKind>) {
        let low = lower_machine(ev.machine().expect("a machine export"));
        let kinds = ev.faults.iter().chain(&low.faults).map(|f| f.kind).collect();
        (low.machine.expect("a Machine"), kinds)
    }

    fn def<'a>(m: &'a ir::Statechart, slot: &str) -> &'a Definition {
        m.slots[slot].definition.as_ref().unwrap_or_else(|| panic!("{slot} has a definition"))
    }

    fn effect_of<'a>(m: &'a ir::Statechart, slot: &str) -> &'a Effect {
        match def(m, slot) {
            Definition::Effect(e) => e,
            other => panic!("{slot} is {other:?}"),
        }
    }

    /// Every kind of slot, a child Machine imported from another file among them: each holds its
    /// definition, and the IR runs with nothing else.
    #[test]
    fn every_slot_holds_its_definition() {
        let ev = crate::eval::evaluate_file(&fixture("everything.ts"));
        let (m, faults) = ir_of(&ev);
        assert!(faults.is_empty(), "{faults:?}: {:#?}", ev.faults);
        // The child Machine, from `review.ts`: its own IR, its own slots with theirs.
        let Definition::Machine(review) = def(&m, "review") else { panic!("{:?}", def(&m, "review")) };
        assert_eq!(review.id, "review");
        assert!(matches!(def(review, "gate"), Definition::Gate(o) if o.is_empty()));
        assert!(matches!(def(review, "fail"), Definition::Fail(_)));
        // The Effects' parts.
        let tests = effect_of(&m, "tests");
        let EffectRun::Command { argv: Argv::List(argv), .. } = &tests.run else { panic!("{tests:?}") };
        assert_eq!(argv.last(), Some(&ArgvItem::Arg { arg: "file".into() }));
        assert_eq!(tests.secrets, ["npm"]);
        assert_eq!(tests.timeout, Some(Part::Value(Json::from(600_000))));
        let comment = effect_of(&m, "comment");
        assert!(comment.idempotent);
        assert_eq!(comment.secrets, ["jira"], "a secret by its name only");
        let EffectRun::Http { auth: Some(Part::Call { name, args }), .. } = &comment.run else { panic!("{comment:?}") };
        assert_eq!((name.as_str(), args.as_slice()), ("bearer", &[Part::Secret("jira".into())][..]));
        let notify = effect_of(&m, "notify");
        assert!(matches!(&notify.run, EffectRun::Dispatch { wait: true, target: Some(Part::Object(_)), .. }));
        assert_eq!(notify.secrets, ["ops"]);
        assert!(matches!(effect_of(&m, "cut").run, EffectRun::Worktree { expect: Some(_) }));
        assert_eq!(m.slots["cut"].effect.as_deref(), Some("command"), "the slot's effect kind stays");
        // The Open body: its lend manifest, the lent parts' definitions in their own slots.
        let Definition::Open(plan) = def(&m, "plan") else { panic!("{:?}", def(&m, "plan")) };
        assert_eq!(plan.manifest.declaration.lends.effects, ["tests", "comment", "cut"]);
        assert!(plan.manifest.lent.effects.contains_key("comment"));
        // The `workspace()` options.
        let ws = m.workspace.as_ref().expect("a workspace()");
        assert_eq!(ws.options.keys().map(|k| k.as_str()).collect::<Vec<_>>(), ["repos", "resources", "secrets"]);
        insta::assert_json_snapshot!(
            "everything_slots",
            serde_json::json!({ "identity": m.identity(), "slots": m.slots, "workspace": m.workspace })
        );
    }

    /// A part the front end cannot read is kept with its reason, never dropped.
    #[test]
    fn a_part_not_known_statically_keeps_its_reason() {
        let text = r#"
            import { command, http, jr2Setup } from "@jr2/orchestrator";
            let script = "test";
            export const machine = jr2Setup({
              actors: {
                tests: command(["npm", script], { pin: Math.random() > 0.5 }),
                post: http({ url: "https://example.com", request: (input) => { return input; } }),
              },
            }).createMachine({ id: "m", initial: "a", states: { a: {} } });
        "#;
        let ev = crate::eval::evaluate_text(Path::new("/mem/m.ts"), text);
        let (m, _) = ir_of(&ev);
        let tests = effect_of(&m, "tests");
        let EffectRun::Command { argv: Argv::List(argv), .. } = &tests.run else { panic!("{tests:?}") };
        assert_eq!(argv[0], ArgvItem::Literal("npm".into()));
        assert!(
            matches!(&argv[1], ArgvItem::Unknown { unknown } if unknown.contains("not known statically")),
            "{argv:?}"
        );
        assert!(tests.unread.get("pin").is_some_and(|r| r.contains("not a boolean")), "{:?}", tests.unread);
        let post = effect_of(&m, "post");
        let EffectRun::Http { request: Some(request), .. } = &post.run else { panic!("{post:?}") };
        assert!(matches!(request, Part::Unknown(_) | Part::Expr(_)), "{request:?}");
    }

    /// In-memory files, for a Workflow and the child Machine it imports.
    struct Files(HashMap<PathBuf, String>);

    impl Sources for Files {
        fn read(&self, path: &Path) -> Option<String> {
            self.0.get(path).cloned()
        }
        fn is_file(&self, path: &Path) -> bool {
            self.0.contains_key(path)
        }
    }

    const FLOW: &str = r#"import { z } from "zod";
import { command, defineEvent, jr2Setup } from "@jr2/orchestrator";
import { child } from "./child";

const go = defineEvent({ name: "go", description: "Go on.", input: z.object({ n: z.number().describe("How many.") }) });

export const machine = jr2Setup({
  events: [go],
  actors: { tests: command(["npm", "test"], { timeout: 60000 }), child },
}).createMachine({
  id: "flow",
  initial: "a",
  states: {
    a: { on: { go: { guard: ({ event }) => event.n > 1, target: "b" } } },
    b: { invoke: { src: "tests", onDone: "c" } },
    c: { invoke: { src: "child", onDone: "d" } },
    d: { type: "final" },
  },
});
"#;

    const CHILD: &str = r#"import { jr2Setup } from "@jr2/orchestrator";
export const child = jr2Setup({}).createMachine({ id: "child", initial: "x", states: { x: { type: "final" } } });
"#;

    fn identity(flow: &str, child: &str) -> ir::Identity {
        let files = Files(HashMap::from([
            (PathBuf::from("/mem/flow.ts"), flow.to_string()),
            (PathBuf::from("/mem/child.ts"), child.to_string()),
        ]));
        let ev = crate::eval::evaluate_with(&files, Path::new("/mem/flow.ts"));
        let (m, faults) = ir_of(&ev);
        assert!(faults.is_empty(), "{faults:?}");
        assert!(matches!(def(&m, "child"), Definition::Machine(_)), "{:?}", def(&m, "child"));
        m.identity()
    }

    #[test]
    fn whitespace_comments_and_descriptions_keep_the_identity() {
        let base = identity(FLOW, CHILD);
        let edits = [
            FLOW.replace("  initial: \"a\",", "  // where it starts\n    initial:   \"a\","),
            FLOW.replace("description: \"Go on.\"", "description: \"Go on, now.\""),
            FLOW.replace(".describe(\"How many.\")", ".describe(\"How many times.\")"),
        ];
        for edit in &edits {
            assert_ne!(edit, FLOW);
            assert_eq!(identity(edit, CHILD), base, "{edit}");
        }
        assert_eq!(identity(FLOW, &format!("// the child\n{CHILD}\n\n")), base);
    }

    #[test]
    fn guards_targets_argv_timeouts_and_child_machines_change_the_identity() {
        let base = identity(FLOW, CHILD);
        let changed = [
            (FLOW.replace("event.n > 1", "event.n > 2"), CHILD.to_string()),
            (FLOW.replace("target: \"b\"", "target: \"c\""), CHILD.to_string()),
            (FLOW.replace("[\"npm\", \"test\"]", "[\"npm\", \"run\", \"test\"]"), CHILD.to_string()),
            (FLOW.replace("timeout: 60000", "timeout: 30000"), CHILD.to_string()),
            (FLOW.to_string(), CHILD.replace("id: \"child\"", "id: \"kid\"")),
        ];
        let mut seen = std::collections::BTreeSet::from([base]);
        for (flow, child) in &changed {
            assert!(flow != FLOW || child != CHILD);
            assert!(seen.insert(identity(flow, child)), "{flow}\n{child}");
        }
    }

    /// A chain of Machines deeper than [`MAX_NESTING`] stops there, with the reason.
    #[test]
    fn child_machines_nest_to_a_bound() {
        let mut text = String::from(
            "import { jr2Setup } from \"@jr2/orchestrator\";\nconst m0 = jr2Setup({}).createMachine({ id: \"m0\" });\n",
        );
        for i in 1..=MAX_NESTING + 2 {
            text.push_str(&format!(
                "const m{i} = jr2Setup({{ actors: {{ c: m{p} }} }}).createMachine({{ id: \"m{i}\" }});\n",
                p = i - 1
            ));
        }
        text.push_str(&format!("export const machine = m{};\n", MAX_NESTING + 2));
        let ev = crate::eval::evaluate_text(Path::new("/mem/deep.ts"), &text);
        let (m, _) = ir_of(&ev);
        let mut chart: &ir::Statechart = &m;
        let mut depth = 0;
        while let Definition::Machine(child) = def(chart, "c") {
            chart = child;
            depth += 1;
        }
        assert_eq!(depth, MAX_NESTING - 1);
        assert!(matches!(def(chart, "c"), Definition::Unknown { reason } if reason.contains("nested more than")));
    }
}
