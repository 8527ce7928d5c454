//! Builders of [`Value`]s for tests, standing in for the evaluator.
//!
//! Each value gets a fresh, increasing span, so a fault's `loc` tells which value it names. The
//! values live in an arena each test thread leaks ([`arena`]), so a test holds them as
//! `Value<'static>` with no owner to keep.

use crate::value::{Arena, Call, Callee, Facts, FileId, Function, Loc, Prop, Value, ValueKind};
use base::Span;
use ir::Expr;
use std::cell::Cell;

thread_local! {
    static NEXT: Cell<u32> = const { Cell::new(0) };
    static ARENA: &'static Arena = Box::leak(Box::default());
}

/// This test thread's arena (leaked: a test's values live to its end).
pub(crate) fn arena() -> &'static Arena {
    ARENA.with(|a| *a)
}

/// Restart the spans at 0 (call at the start of a test, for stable snapshots).
pub(crate) fn reset() {
    NEXT.with(|n| n.set(0));
}

fn loc() -> Loc {
    let start = NEXT.with(|n| {
        let v = n.get();
        n.set(v + 10);
        v
    });
    Loc { file: FileId(0), span: Span::new(start, start + 10) }
}

fn v(kind: ValueKind<'static>) -> Value<'static> {
    Value::new(kind, loc())
}

pub(crate) fn s(text: &str) -> Value<'static> {
    v(ValueKind::String { value: arena().str(text) })
}

pub(crate) fn n(value: f64) -> Value<'static> {
    v(ValueKind::Number { value })
}

pub(crate) fn b(value: bool) -> Value<'static> {
    v(ValueKind::Bool { value })
}

pub(crate) fn unknown(reason: &str) -> Value<'static> {
    v(ValueKind::Unknown { reason: arena().str(reason) })
}

pub(crate) fn arr(items: Vec<Value<'static>>) -> Value<'static> {
    v(ValueKind::Array { items: arena().values(&items) })
}

/// An object literal, keys in order.
pub(crate) fn obj(props: Vec<(&str, Value<'static>)>) -> Value<'static> {
    let props: Vec<Prop<'static>> =
        props.into_iter().map(|(key, value)| Prop { key: arena().str(key), key_loc: loc(), value }).collect();
    v(ValueKind::Object { props: arena().props(&props) })
}

fn call(callee: Callee<'static>, receiver: Option<Value<'static>>, args: Vec<Value<'static>>) -> Value<'static> {
    v(ValueKind::Call(arena().call(Call { callee, receiver, args: arena().values(&args) })))
}

/// A call of a kit export: `agent({...})`.
pub(crate) fn kit(name: &str, args: Vec<Value<'static>>) -> Value<'static> {
    call(Callee::Kit(arena().str(name)), None, args)
}

/// A call of an xstate export: `setup({...})`, `and([...])`.
pub(crate) fn xs(name: &str, args: Vec<Value<'static>>) -> Value<'static> {
    call(Callee::Xstate(arena().str(name)), None, args)
}

/// A call of a zod member: `z.object({...})`.
pub(crate) fn zod(name: &str, args: Vec<Value<'static>>) -> Value<'static> {
    call(Callee::Zod(arena().str(name)), None, args)
}

/// A method call: `recv.name(args)`.
pub(crate) fn method(recv: Value<'static>, name: &str, args: Vec<Value<'static>>) -> Value<'static> {
    call(Callee::Method(arena().str(name)), Some(recv), args)
}

/// A function whose body lowered (or not) to `lowered`.
pub(crate) fn func(lowered: Option<Expr>) -> Value<'static> {
    v(ValueKind::Function(arena().function(Function {
        params: smallvec::smallvec!["{ context, event }".into()],
        facts: Facts { complete: lowered.is_some(), ..Facts::default() },
        lowered: lowered.map(std::sync::Arc::new),
        carried: None,
    })))
}

/// `jr2Setup(setup).createMachine(config)`.
pub(crate) fn machine(setup: Value<'static>, config: Value<'static>) -> Value<'static> {
    method(kit("jr2Setup", vec![setup]), "createMachine", vec![config])
}

// ---- Expressions, as the evaluator would lower pure function bodies ----

use ir::expr::{Reference, Root, TemplatePart};

/// A reference `root.a.b`.
pub(crate) fn r(text: &str) -> Expr {
    Expr::Ref(ir::expr::parse_reference(text).expect("a reference"))
}

pub(crate) fn lit(j: serde_json::Value) -> Expr {
    Expr::Literal(j.into())
}

pub(crate) fn eobj(fields: Vec<(&str, Expr)>) -> Expr {
    Expr::Object(fields.into_iter().map(|(k, e)| (k.into(), e)).collect())
}

/// `` `${context.workspace.repos.app}/fix` ``: `fixTree(context)` inlined.
pub(crate) fn fix_tree() -> Expr {
    Expr::Template(vec![
        TemplatePart::Ref(Reference {
            root: Root::Context,
            path: smallvec::smallvec!["workspace".into(), "repos".into(), "app".into()],
        }),
        TemplatePart::Text("/fix".into()),
    ])
}

// ---- Fixtures: the seeds' TSDoc examples, as the evaluator would give them ----

fn fail_state(reason: &str) -> Value<'static> {
    obj(vec![("invoke", obj(vec![("src", s("fail")), ("input", obj(vec![("reason", s(reason))]))]))])
}

/// `defineEvent({ name, description, input: z.object({ k: z.string() }) })`.
pub(crate) fn event(name: &str, description: &str, keys: &[&str]) -> Value<'static> {
    let fields = keys.iter().map(|k| (*k, zod("string", vec![]))).collect();
    kit(
        "defineEvent",
        vec![obj(vec![
            ("name", s(name)),
            ("description", s(description)),
            ("input", zod("object", vec![obj(fields)])),
        ])],
    )
}

/// The `fix-tests` example of `paramsOf` (seed 001/002, @jr2/orchestrator 0.7.0).
pub(crate) fn fix_tests() -> Value<'static> {
    let run_test = event("run_test", "Run the tests of one module.", &["module"]);
    let finished = event("finished", "Say that all the tests pass.", &[]);
    let body = machine(
        obj(vec![
            ("types", obj(vec![])),
            ("events", arr(vec![run_test, finished])),
            (
                "actors",
                obj(vec![
                    (
                        "coder",
                        kit(
                            "agent",
                            vec![obj(vec![
                                ("model", s("anthropic/claude-haiku-5-5")),
                                ("instructions", s("You are a careful engineer.")),
                            ])],
                        ),
                    ),
                    ("cut", kit("worktree", vec![])),
                    ("test", kit("command", vec![arr(vec![s("node"), s("--test"), kit("arg", vec![s("file")])])])),
                    ("fail", kit("fail", vec![])),
                ]),
            ),
        ]),
        obj(vec![
            ("id", s("fix-tests")),
            ("context", func(Some(r("input")))),
            ("on", obj(vec![("workspace.lost", s(".lost")), ("agent.fault", s(".failed"))])),
            ("initial", s("cutting")),
            (
                "states",
                obj(vec![
                    (
                        "cutting",
                        obj(vec![(
                            "invoke",
                            obj(vec![
                                ("src", s("cut")),
                                (
                                    "input",
                                    func(Some(eobj(vec![
                                        ("path", fix_tree()),
                                        ("branch", lit(serde_json::json!("fix-tests"))),
                                    ]))),
                                ),
                                (
                                    "onDone",
                                    arr(vec![
                                        obj(vec![("guard", func(None)), ("target", s("coding"))]),
                                        obj(vec![("target", s("notCut"))]),
                                    ]),
                                ),
                            ]),
                        )]),
                    ),
                    (
                        "coding",
                        obj(vec![
                            (
                                "invoke",
                                obj(vec![
                                    ("src", s("coder")),
                                    (
                                        "input",
                                        func(Some(eobj(vec![
                                            (
                                                "prompt",
                                                lit(serde_json::json!(
                                                    "Make the tests pass. Run the tests of one module at a time."
                                                )),
                                            ),
                                            ("cwd", fix_tree()),
                                        ]))),
                                    ),
                                ]),
                            ),
                            ("on", obj(vec![("finished", s("done"))])),
                            ("initial", s("ready")),
                            (
                                "states",
                                obj(vec![
                                    ("ready", obj(vec![("on", obj(vec![("run_test", s("testing"))]))])),
                                    (
                                        "testing",
                                        obj(vec![(
                                            "invoke",
                                            obj(vec![
                                                ("src", s("test")),
                                                (
                                                    "input",
                                                    func(Some(eobj(vec![
                                                        (
                                                            "file",
                                                            Expr::Template(vec![
                                                                TemplatePart::Text("test/".into()),
                                                                TemplatePart::Ref(Reference {
                                                                    root: Root::Event,
                                                                    path: smallvec::smallvec!["module".into()],
                                                                }),
                                                                TemplatePart::Text(".test.js".into()),
                                                            ]),
                                                        ),
                                                        ("worktree", fix_tree()),
                                                    ]))),
                                                ),
                                                ("onDone", s("ready")),
                                            ]),
                                        )]),
                                    ),
                                ]),
                            ),
                        ]),
                    ),
                    ("done", obj(vec![("type", s("final"))])),
                    ("notCut", fail_state("the Worktree was not cut")),
                    ("failed", fail_state("the Agent's Turn could not go on")),
                    ("lost", fail_state("the Sandbox is gone")),
                ]),
            ),
        ]),
    );
    kit(
        "workspace",
        vec![body, obj(vec![("repos", obj(vec![("app", obj(vec![("url", s("https://github.com/you/app.git"))]))]))])],
    )
}

/// The `notes` example of `sentBy` (seed 002): a Gate by invoke id, `sentBy` routing.
pub(crate) fn notes() -> Value<'static> {
    machine(
        obj(vec![
            ("events", arr(vec![event("done", "Call this when the draft is ready for review.", &[])])),
            (
                "actors",
                obj(vec![
                    (
                        "writer",
                        kit(
                            "agent",
                            vec![obj(vec![
                                ("model", s("anthropic/claude-haiku-5-5")),
                                ("instructions", s("You write release notes.")),
                                ("workspace", s("none")),
                            ])],
                        ),
                    ),
                    ("fail", kit("fail", vec![])),
                ]),
            ),
        ]),
        obj(vec![
            ("id", s("notes")),
            ("on", obj(vec![("agent.fault", s(".failed"))])),
            ("initial", s("drafting")),
            (
                "states",
                obj(vec![
                    (
                        "drafting",
                        obj(vec![
                            (
                                "invoke",
                                arr(vec![
                                    obj(vec![
                                        ("src", s("writer")),
                                        ("input", obj(vec![("prompt", s("Draft the release notes."))])),
                                    ]),
                                    obj(vec![("src", s("gate")), ("id", s("editor"))]),
                                ]),
                            ),
                            (
                                "on",
                                obj(vec![(
                                    "done",
                                    arr(vec![
                                        obj(vec![("guard", kit("sentBy", vec![s("writer")])), ("target", s("review"))]),
                                        obj(vec![("target", s("published"))]),
                                    ]),
                                )]),
                            ),
                        ]),
                    ),
                    (
                        "review",
                        obj(vec![
                            ("invoke", obj(vec![("src", s("gate"))])),
                            ("on", obj(vec![("done", s("published"))])),
                        ]),
                    ),
                    ("published", obj(vec![("type", s("final"))])),
                    ("failed", fail_state("the Agent's Turn could not go on")),
                ]),
            ),
        ]),
    )
}
