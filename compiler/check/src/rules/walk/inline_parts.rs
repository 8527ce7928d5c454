use super::Walk;
use crate::rules::{Ctx, Sink};
use base::path::Path;
use diagnostics::declare_rule;
use machine::lower::{classify_actor, kit_name, ActorClass};
use machine::parts::is_open_sentinel;
use machine::value::{Call, Callee, Function, Loc, Prop, Value, ValueKind};

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
    /// too; a child Machine built in a function's body is not seen. A Machine spawned by
    /// xstate's `spawnChild(childMachine)` is not refused: that is valid xstate, and lowering reads
    /// the child Machine into the spawn action (an Agent or an Effect spawned so still is).
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

pub(crate) fn check(cx: &Ctx<Walk>, sink: &mut Sink) {
    // The config's lines were found by `Ctx::new`'s scan (see [`scan_config`]); usually none.
    sink.extend(cx.inline_parts.iter().cloned());
    if let Some(props) = cx.parts.setup.and_then(Value::props) {
        let mut scan = Scan { at: Where::Setup, sink };
        for p in props.iter().filter(|p| p.key != "actors") {
            scan.value(&p.value, &Path::ROOT.child(p.key));
        }
    }
}

/// Scans the `createMachine` config for inline Parts (their lines into `out`). (Each state's value
/// is lowering's to give: `machine::lower::NodeValues`.)
pub(super) fn scan_config<'a>(config: &'a Value<'a>, sink: &mut Sink) {
    Scan { at: Where::Config, sink }.value(config, &Path::ROOT);
}

/// Where a value is written: in the `createMachine` config, or in the setup (out of `actors`).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Where {
    Config,
    Setup,
}

/// What an object is, for the scan: an invoke's object (whose `src` is lowering's to judge,
/// `inline-src`), or another.
#[derive(Clone, Copy)]
struct Role {
    invoke: bool,
}

impl Role {
    const PLAIN: Role = Role { invoke: false };
}

/// One scan of the config or of the setup: where it is and the lines it makes.
///
/// It visits every value of the config (~100 a Workflow), so each value's kind is matched once,
/// in [`Scan::value`], inlined where a value is met: scalars (most of a config: targets, `type`,
/// numbers) and functions whose body builds no Part (guards, mappers) end there with no call;
/// only objects, arrays and calls are walked by a call. The path is a breadcrumb on the stack
/// ([`Path`]), written out only in [`report`].
struct Scan<'o> {
    at: Where,
    sink: &'o mut Sink,
}

impl<'a> Scan<'_> {
    /// Reports every Part in `v`, written at `path` (dotted, from the config or the setup).
    #[inline(always)]
    fn value(&mut self, v: &'a Value<'a>, path: &Path) {
        match v.kind {
            ValueKind::Object { props } => self.object(props, path, Role::PLAIN),
            ValueKind::Array { items } => self.array(items, path),
            ValueKind::Call(call) => self.call(v, call, path),
            ValueKind::Function(f) if !f.facts.parts.is_empty() => self.function(v, f, path),
            ValueKind::Imported { .. } => self.imported(v, path),
            _ => {}
        }
    }

    /// An object's entries; `role` says what the object is.
    fn object(&mut self, props: &'a [Prop<'a>], path: &Path, role: Role) {
        for p in props {
            // An entry that holds no Part (a scalar, a function that builds none) is passed over
            // before its key is compared or its path made.
            if holds_no_part(&p.value) {
                continue;
            }
            match p.value.kind {
                _ if role.invoke && p.key == "src" => continue,
                // Only an object or an array under `invoke` in the config is an invoke (or a list
                // of them), only an object under a state's `states` a list of states: the key is
                // compared for those alone.
                ValueKind::Object { props } => {
                    let deeper = Role { invoke: self.at == Where::Config && p.key == "invoke" };
                    self.object(props, &path.child(p.key), deeper);
                }
                ValueKind::Array { items } if self.at == Where::Config && p.key == "invoke" => {
                    let deeper = path.child(p.key);
                    let invoke = Role { invoke: true };
                    for (i, item) in items.iter().enumerate() {
                        match item.kind {
                            ValueKind::Object { props } => self.object(props, &deeper.child(i), invoke),
                            _ => self.value(item, &deeper.child(i)),
                        }
                    }
                }
                _ => self.value(&p.value, &path.child(p.key)),
            }
        }
    }

    fn array(&mut self, items: &'a [Value<'a>], path: &Path) {
        for (i, item) in items.iter().enumerate() {
            self.value(item, &path.child(i));
        }
    }

    /// A call: a Part itself, or a call whose receiver or arguments may hold one. The receiver is
    /// scanned before the arguments (the order of the lines).
    fn call(&mut self, mut v: &'a Value<'a>, mut call: &'a Call<'a>, path: &Path) {
        loop {
            if let Some(class) = part_call(v, call) {
                report(&describe(v, class), "", v.loc, path, self.at, self.sink);
                return;
            }
            match &call.receiver {
                // Down a chain whose arguments hold no Part (zod's `.min(1).describe("...")`, a
                // third of the calls a Workflow's scan meets), a loop rather than a call a link.
                Some(r @ Value { kind: ValueKind::Call(inner), .. }) if call.args.iter().all(holds_no_part) => {
                    v = r;
                    call = *inner;
                }
                Some(r) => {
                    self.value(r, path);
                    break;
                }
                None => break,
            }
        }
        let spawns_machine = matches!(call.callee, Callee::Xstate("spawnChild"))
            && call.args.first().is_some_and(|a| classify_actor(a) == ActorClass::Machine);
        for (i, a) in call.args.iter().enumerate() {
            // `spawnChild(childMachine)` is valid xstate: the child Machine is the spawned logic,
            // lowered as a Machine into the action (`Action::Spawn`), not a Part with no slot.
            // Its own config is not scanned here either, as an `invoke`'s `src` is not.
            if i == 0 && spawns_machine {
                continue;
            }
            self.value(a, path);
        }
    }

    /// A function whose body builds a Part (see `Facts::parts`): one line at each call.
    #[cold]
    #[inline(never)]
    fn function(&mut self, v: &Value<'_>, f: &Function, path: &Path) {
        for (name, span) in &f.facts.parts {
            let at_call = Loc { file: v.loc.file, span: *span };
            report(&part_named(name), " (in a function's body)", at_call, path, self.at, self.sink);
        }
    }

    /// A kit export used as a value: a Part where it names one (`spawnChild(gate)`).
    #[inline(never)]
    fn imported(&mut self, v: &Value<'_>, path: &Path) {
        if let Some(class) = part(v) {
            report(&describe(v, class), "", v.loc, path, self.at, self.sink);
        }
    }
}

/// Reports one inline Part (`what`, as [`describe`] names it) at `loc`, written at `path`.
#[cold]
#[inline(never)]
fn report(what: &str, inside: &str, loc: Loc, path: &Path, at: Where, sink: &mut Sink) {
    // The path is written out only here: a walk that finds nothing allocates none.
    let path = path.to_string();
    let place = match at {
        Where::Config if path.is_empty() => "the config".to_string(),
        Where::Config => format!("`{path}`"),
        Where::Setup => format!("the setup's `{path}`"),
    };
    let d = sink.report(
        &INLINE_PARTS,
        loc,
        format!(
            "{what} is written inline in {place}{inside}, not declared in the setup's `actors`: jr2 knows a Part only by its slot there, so no check can see this one and `jr2 up` cannot place it: declare it in `actors` and invoke it by name"
        ),
    );
    if at == Where::Config && !path.is_empty() {
        d.path = Some(path);
    }
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
fn part(v: &Value<'_>) -> Option<ActorClass> {
    match classify_actor(v) {
        ActorClass::Open if is_open_sentinel(v) || v.as_call().is_none() => None,
        ActorClass::Unknown => None,
        class => Some(class),
    }
}

/// Is this plainly no Part and holds none: a scalar (a string, a number, ...), or a function whose
/// body builds none?
#[inline(always)]
fn holds_no_part(v: &Value<'_>) -> bool {
    match v.kind {
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

/// [`part`] of a call (`call` is `v`'s).
#[inline(always)]
fn part_call(v: &Value<'_>, call: &Call<'_>) -> Option<ActorClass> {
    // A zod call, or a method other than `createMachine` (a zod chain's `.min()`, `.describe()`),
    // is no Part: `classify_actor` says `Unknown` of it. Answered here by its callee's kind, with
    // no name compared: the setup's `events` are mostly such chains (~0.7 K instructions a Workflow).
    match call.callee {
        Callee::Zod(_) => None,
        Callee::Method(m) if m != "createMachine" => None,
        _ => part(v),
    }
}

/// A Part of this class, as a line names it: `an Agent (`agent()`)`.
#[cold]
#[inline(never)]
fn describe(v: &Value<'_>, class: ActorClass) -> String {
    let name = kit_name(v).or(match v.kind {
        ValueKind::Imported { callee: Callee::Kit(n) } => Some(n),
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
    use crate::compile::compile_text;
    use std::path::Path;

    /// The inline-parts lines of a Workflow's text.
    fn lines(text: &str) -> Vec<String> {
        let compiled = compile_text(Path::new("/mem/flow.ts"), text);
        compiled.diagnostics.iter().filter(|d| d.code == "inline-parts").map(|d| d.message.clone()).collect()
    }

    #[test]
    fn a_machine_spawned_by_spawn_child_is_no_part_elsewhere_it_is_and_open_is_none() {
        let found = lines(
            "import { jr2Setup, open, secret } from '@jr2/orchestrator';\n\
             import { spawnChild } from 'xstate';\n\
             const child = jr2Setup({}).createMachine({ id: 'child', initial: 'done', states: { done: { type: 'final' } } });\n\
             export const machine = jr2Setup({}).createMachine({\n\
               id: 'm', initial: 'a', context: { token: secret(open), where: open },\n\
               states: { a: { entry: [spawnChild(child), spawnChild('kid', { input: child })], type: 'final' } },\n\
             });\n",
        );
        // The spawned Machine is not refused; the same Machine as a spawn's input is.
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(found[0].starts_with("a Machine is written inline in `states.a.entry.1.input`"), "{found:?}");
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
    fn a_chain_is_scanned_receiver_first_and_a_state_named_invoke_is_an_invoke() {
        let found = lines(
            "import { agent, fail, gate, jr2Setup } from '@jr2/orchestrator';\n\
             import { z } from 'zod';\n\
             export const machine = jr2Setup({\n\
               events: [z.object({ a: agent({ model: 'm', instructions: 'i' }) }).optional().describe(fail())],\n\
             }).createMachine({\n\
               id: 'm', initial: 'invoke',\n\
               states: { invoke: { src: gate, type: 'final', states: { x: { entry: [gate] } } } },\n\
             });\n",
        );
        let places: Vec<&str> = found.iter().map(|l| l.split(", not declared").next().unwrap()).collect();
        // The config's lines first, then the setup's (an object's key is in the path, a call's
        // arguments are not); the receiver of `.describe(fail())` before its argument; the
        // state named `invoke` is an invoke too, so its `src` is lowering's.
        assert_eq!(
            places,
            [
                "a Gate (`gate()`) is written inline in `states.invoke.states.x.entry.0`",
                "an Agent (`agent()`) is written inline in the setup's `events.0.a`",
                "`fail()` is written inline in the setup's `events.0`",
            ]
        );
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
