use super::Subject;
use crate::instance::is_open;
use crate::rules::{Ctx, Sink};
use diagnostics::declare_rule;
use machine::lower::is_call;
use machine::value::{Value, ValueKind};

declare_rule! {
    /// Refuses `secret(open)` inside a `dispatch` target: the whole target is the Open part.
    ///
    /// ## Why
    /// A packaged Machine leaves its dispatch target `target: open`, and the composer binds the
    /// url and the token together, one Open part, with `customize(m, { effects: { task: { target:
    /// { url, token } } } })` (ADR-0071, ADR-0054). A target with a url of its own and an open
    /// token would let a composer send the url's Instance a token of another, so `secret(open)`
    /// inside a target is refused.
    ///
    /// ## Example
    /// ```ts
    /// task: dispatch("review", { target: { url: "https://ops.example.com", token: secret(open) } })
    /// ```
    /// is refused: `secret(open) inside a dispatch target: the whole target is the Open part;
    /// write target: open and bind url and token together with customize()`.
    ///
    /// ## Use instead
    /// ```ts
    /// task: dispatch("review", { target: open })
    /// ```
    pub static SECRET_IN_TARGET = { code: "secret-in-target", rule: None, severity: Error };
}

/// Refuses every `secret(open)` inside a dispatch's written-out target, at the call.
pub(crate) fn check(cx: &Ctx<Subject<'_>>, sink: &mut Sink) {
    let Subject::Dispatch(call) = **cx else { return };
    let Some(target) = call.written_target() else { return };
    let mut secrets = Vec::new();
    open_secrets(target, &mut secrets);
    for s in secrets {
        let d = sink.report(
            &SECRET_IN_TARGET,
            s.loc,
            "secret(open) inside a dispatch target: the whole target is the Open part; write target: open and bind url and token together with customize()",
        );
        d.help = Some(
            "`dispatch(name, { target: open })`, then `customize(m, { effects: { <slot>: { target: { url, token } } } })`"
                .into(),
        );
    }
}

/// Every `secret(open)` inside a value.
fn open_secrets<'a, 'v>(v: &'a Value<'v>, out: &mut Vec<&'a Value<'v>>) {
    match v.kind {
        ValueKind::Call(c) => {
            if is_call(v, "secret") && c.args.first().is_some_and(is_open) {
                out.push(v);
                return;
            }
            c.args.iter().for_each(|a| open_secrets(a, out));
        }
        ValueKind::Array { items } => items.iter().for_each(|x| open_secrets(x, out)),
        ValueKind::Object { props } => props.iter().for_each(|p| open_secrets(&p.value, out)),
        _ => {}
    }
}
