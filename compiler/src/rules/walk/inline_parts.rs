use super::Ctx;
use crate::chart::Path;
use crate::declare_rule;
use crate::machine::compile::Located;
use crate::machine::lower::{classify_actor, kit_name, ActorClass};
use crate::machine::parts::is_open_sentinel;
use crate::machine::value::{Callee, Value, ValueKind};

declare_rule! {
    /// Refuses a Part (an Agent, an Effect, a Gate, `fail()`, an Open body or a Machine) written inline in the config or in the setup's implementations, rather than declared in the setup's `actors`.
    ///
    /// ## Why
    /// jr2 knows a Part by its slot in `jr2Setup({ actors })`: what `jr2 up` places and converges
    /// (an Agent's model and servers, an Effect's placement and secrets, a Gate's look), what the
    /// walk judges (the `agent.fault` route, one Agent active twice, the pick params an Effect
    /// reads) and what `jr2 parts` lists all come from there. A Part written anywhere else, such
    /// as `entry: spawnChild(agent({...}))` or an action of the setup that spawns a
    /// `command([...])`, has no slot: no check sees it, and the runtime would start an Agent or an
    /// Effect that the Instance was never converged for.
    ///
    /// The kit names this check `refuseInlineParts` (`parts.ts`) and gives no text. This rule and
    /// its words are jr2c's reading of the name: a Part is declared in the setup's `actors`, and
    /// used by its name there. An inline `invoke.src` is reported by lowering already
    /// (`inline-src`, whatever the actor logic), so this rule judges every other place: the
    /// `createMachine` config (actions, inputs, context) and the setup's `actions`, `guards` and
    /// `delays`. Inside a function's body (`entry: ({ spawn }) => spawn(agent({...}))`), the
    /// analysis records each call of a Part's constructor (`agent`, `command`, `worktree`, `http`,
    /// `push`, `dispatch`, `mcp`, `gate`, `fail`, `open({...})`), and this rule refuses it there
    /// too; a child Machine built in a function's body is not seen.
    ///
    /// ## Example
    /// ```ts
    /// jr2Setup({ actors: {} }).createMachine({
    ///   initial: "working",
    ///   states: {
    ///     working: { entry: spawnChild(agent({ model: "anthropic/claude-haiku-5-5", instructions: "Help." })) },
    ///   },
    /// });
    /// ```
    /// is refused: `an Agent (`agent()`) is written inline in `states.working.entry`, not declared
    /// in the setup's `actors`: jr2 knows a Part only by its slot there, so no check can see this
    /// one and `jr2 up` cannot place it: declare it in `actors` and invoke it by name`.
    ///
    /// ## Use instead
    /// ```ts
    /// jr2Setup({ actors: { helper: agent({ model: "anthropic/claude-haiku-5-5", instructions: "Help." }) } })
    ///   .createMachine({
    ///     initial: "working",
    ///     on: { "agent.fault": ".failed" },
    ///     states: { working: { invoke: { src: "helper", input: { prompt: "Help." } } }, failed: { type: "final" } },
    ///   });
    /// ```
    pub static INLINE_PARTS = { code: "inline-parts", rule: None, severity: Error };
}

pub fn check(cx: &Ctx, out: &mut Vec<Located>) {
    scan(cx.parts.config, &Path::ROOT, Where::Config, false, out);
    if let Some(props) = cx.parts.setup.and_then(Value::props) {
        for p in props.iter().filter(|p| p.key != "actors") {
            scan(&p.value, &Path::ROOT.child(&p.key), Where::Setup, false, out);
        }
    }
}

/// Where a value is written: in the `createMachine` config, or in the setup (out of `actors`).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Where {
    Config,
    Setup,
}

/// Reports every Part in `v`, at `path` (dotted, from the config or the setup). `invoke` is true
/// for an invoke's object, whose `src` is lowering's to judge.
///
/// Most of a config is scalars (strings, numbers) and functions that hold no Part: they are
/// answered here, inlined at each call, without the cost of a call to [`scan_tree`] (this scan
/// visits every value of the config: ~10% of the rule's instructions went to calls on scalars).
#[inline(always)]
fn scan(v: &Value, path: &Path, at: Where, invoke: bool, out: &mut Vec<Located>) {
    if !holds_no_part(v) {
        scan_tree(v, path, at, invoke, out);
    }
}

/// Is this plainly no Part and holds none: a scalar (a string, a number, ...), or a function whose
/// body builds none (most of a config's functions: guards, mappers)?
#[inline(always)]
fn holds_no_part(v: &Value) -> bool {
    match &v.kind {
        ValueKind::Undefined
        | ValueKind::Null
        | ValueKind::Bool { .. }
        | ValueKind::Number { .. }
        | ValueKind::String { .. }
        | ValueKind::Unknown { .. } => true,
        ValueKind::Function(f) => f.facts.parts.is_empty(),
        _ => false,
    }
}

/// [`scan`] of a value that may hold a Part (a call, a function, an import, an object, an array):
/// one match on its kind; what a line says is written only in [`report`] (kept out of line, so
/// that this walk over every value stays small).
fn scan_tree(v: &Value, path: &Path, at: Where, invoke: bool, out: &mut Vec<Located>) {
    match &v.kind {
        ValueKind::Call(_) | ValueKind::Imported { .. } => {
            if let Some(class) = part(v) {
                report(&describe(v, class), "", v.loc, path, at, out);
                return;
            }
            if let ValueKind::Call(call) = &v.kind {
                if let Some(r) = &call.receiver {
                    scan(r, path, at, false, out);
                }
                for a in &call.args {
                    scan(a, path, at, false, out);
                }
            }
        }
        ValueKind::Function(f) => {
            for (name, span) in &f.facts.parts {
                let at_call = crate::machine::value::Loc { file: v.loc.file, span: *span };
                report(&part_named(name), " (in a function's body)", at_call, path, at, out);
            }
        }
        ValueKind::Object { props } => {
            for p in props {
                // An entry that holds no Part (most of a config: targets, `src`, `type`, guards,
                // mappers) is passed over before its key is compared or its path made.
                if holds_no_part(&p.value) || (invoke && p.key == "src") {
                    continue;
                }
                let deeper = path.child(&p.key);
                let is_invoke = at == Where::Config && p.key == "invoke";
                match (&p.value.kind, is_invoke) {
                    (ValueKind::Array { items }, true) => {
                        for (i, item) in items.iter().enumerate() {
                            scan(item, &deeper.child(i), at, true, out);
                        }
                    }
                    _ => scan(&p.value, &deeper, at, is_invoke, out),
                }
            }
        }
        ValueKind::Array { items } => {
            for (i, item) in items.iter().enumerate() {
                scan(item, &path.child(i), at, false, out);
            }
        }
        _ => {}
    }
}

/// Reports one inline Part (`what`, as [`describe`] names it) at `loc`, written at `path`.
#[cold]
#[inline(never)]
fn report(what: &str, inside: &str, loc: crate::machine::value::Loc, path: &Path, at: Where, out: &mut Vec<Located>) {
    // The path is written out only here: a walk that finds nothing allocates none.
    let path = path.to_string();
    let place = match at {
        Where::Config if path.is_empty() => "the config".to_string(),
        Where::Config => format!("`{path}`"),
        Where::Setup => format!("the setup's `{path}`"),
    };
    let mut d = INLINE_PARTS.at(
        loc.span,
        format!(
            "{what} is written inline in {place}{inside}, not declared in the setup's `actors`: jr2 knows a Part only by its slot there, so no check can see this one and `jr2 up` cannot place it: declare it in `actors` and invoke it by name"
        ),
    );
    if at == Where::Config && !path.is_empty() {
        d = d.with_path(path);
    }
    out.push(Located { file: loc.file, diagnostic: d });
}

/// A Part built in a function's body, by the kit export that builds it (see `Facts::parts`).
fn part_named(name: &str) -> String {
    match name {
        "agent" => "an Agent (`agent()`)".to_string(),
        "gate" => "a Gate (`gate()`)".to_string(),
        "fail" => "`fail()`".to_string(),
        "open" => "an Open body (`open()`)".to_string(),
        effect => format!("an Effect (`{effect}()`)"),
    }
}

/// What Part a value (a call or a kit import) is; `None` for anything else (the `open` sentinel
/// too). Its name for a line is [`describe`]'s, written only when reporting.
fn part(v: &Value) -> Option<ActorClass> {
    // A zod call, or a method other than `createMachine` (a zod chain's `.min()`, `.describe()`),
    // is no Part: `classify_actor` says `Unknown` of it. Answered here by its callee's kind, with
    // no name compared: the setup's `events` are mostly such chains (~0.7 K instructions a Workflow).
    if let Some(call) = v.as_call() {
        match &call.callee {
            Callee::Zod(_) => return None,
            Callee::Method(m) if m != "createMachine" => return None,
            _ => {}
        }
    }
    match classify_actor(v) {
        ActorClass::Open if is_open_sentinel(v) || v.as_call().is_none() => None,
        ActorClass::Unknown => None,
        class => Some(class),
    }
}

/// A Part of this class, as a line names it: `an Agent (`agent()`)`.
#[cold]
#[inline(never)]
fn describe(v: &Value, class: ActorClass) -> String {
    let name = kit_name(v).or(match &v.kind {
        ValueKind::Imported { callee: Callee::Kit(n) } => Some(n.as_str()),
        _ => None,
    });
    let called = || name.map(|n| format!("`{n}()`")).unwrap_or_default();
    match class {
        ActorClass::Agent => format!("an Agent ({})", called()),
        ActorClass::Effect(_) => format!("an Effect ({})", called()),
        ActorClass::Gate => format!("a Gate ({})", called()),
        ActorClass::Fail => "`fail()`".to_string(),
        ActorClass::Open => format!("an Open body ({})", called()),
        ActorClass::Machine => "a Machine".to_string(),
        ActorClass::Unknown => String::new(), // never: `part` answers `None` for it
    }
}

#[cfg(test)]
mod tests {
    use crate::machine::compile_text;
    use std::path::Path;

    /// The inline-parts lines of a Workflow's text.
    fn lines(text: &str) -> Vec<String> {
        let compiled = compile_text(Path::new("/mem/flow.ts"), text);
        compiled.diagnostics.iter().filter(|d| d.code == "inline-parts").map(|d| d.message.clone()).collect()
    }

    #[test]
    fn a_machine_spawned_inline_is_a_part_and_open_is_none() {
        let found = lines(
            "import { jr2Setup, open, secret } from '@jr2/orchestrator';\n\
             import { spawnChild } from 'xstate';\n\
             const child = jr2Setup({}).createMachine({ id: 'child', initial: 'done', states: { done: { type: 'final' } } });\n\
             export const machine = jr2Setup({}).createMachine({\n\
               id: 'm', initial: 'a', context: { token: secret(open), where: open },\n\
               states: { a: { entry: [spawnChild(child)], type: 'final' } },\n\
             });\n",
        );
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(found[0].starts_with("a Machine is written inline in `states.a.entry.0`"), "{found:?}");
    }

    #[test]
    fn a_part_built_in_a_function_s_body_is_refused_at_its_call() {
        let text = "import { agent, jr2Setup, open } from '@jr2/orchestrator';\n\
             import { assign } from 'xstate';\n\
             export const machine = jr2Setup({\n\
               actions: { hire: assign(({ spawn }) => ({ ref: spawn(agent({ model: 'm', instructions: 'i' })) })) },\n\
             }).createMachine({\n\
               id: 'm', initial: 'a', context: ({ input }) => ({ where: open, body: open({ lends: {} }) }),\n\
               states: { a: { entry: 'hire', type: 'final' } },\n\
             });\n";
        let found = lines(text);
        assert_eq!(found.len(), 2, "{found:?}");
        assert!(
            found[0].starts_with("an Open body (`open()`) is written inline in `context` (in a function's body),"),
            "{found:?}"
        );
        assert!(
            found[1].starts_with(
                "an Agent (`agent()`) is written inline in the setup's `actions.hire` (in a function's body),"
            ),
            "{found:?}"
        );
        // The diagnostic points at the call in the body.
        let compiled = compile_text(Path::new("/mem/flow.ts"), text);
        let d = compiled.diagnostics.iter().find(|d| d.message.starts_with("an Agent")).unwrap();
        assert!(text[d.span.start as usize..].starts_with("agent({ model"), "{:?}", &text[d.span.start as usize..]);
    }

    #[test]
    fn a_child_machine_in_the_actors_is_walked_on_its_own() {
        let found = lines(
            "import { agent, jr2Setup } from '@jr2/orchestrator';\n\
             import { spawnChild } from 'xstate';\n\
             const child = jr2Setup({}).createMachine({ id: 'child', initial: 'a', states: { a: { entry: spawnChild(agent({ model: 'm', instructions: 'i' })) } } });\n\
             export const machine = jr2Setup({ actors: { child } }).createMachine({\n\
               id: 'm', initial: 'a', states: { a: { invoke: { src: 'child' } } },\n\
             });\n",
        );
        assert_eq!(found, ["an Agent (`agent()`) is written inline in `states.a.entry`, not declared in the setup's `actors`: jr2 knows a Part only by its slot there, so no check can see this one and `jr2 up` cannot place it: declare it in `actors` and invoke it by name"]);
    }
}
