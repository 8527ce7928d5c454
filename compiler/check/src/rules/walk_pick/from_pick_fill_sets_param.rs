use super::{from_picks, Picks};
use crate::rules::{Ctx, Sink};
use diagnostics::declare_rule;
use ir::Expr;
use machine::lower::arg;

declare_rule! {
    /// Refuses a `fromPick` whose `fill` sets a key that is also a param of the pick.
    ///
    /// ## Why
    /// `fromPick(def, fill)` makes the input from the params of the pick, then the keys `fill`
    /// adds: the pick is what the Agent gives, `fill` what the Machine adds. A key in both is
    /// ambiguous: the Machine's value wins and the Agent's is dropped, so the Agent is asked for
    /// a value that is never used. `createMachine` refuses it (`pick.ts`, `fromPick`). A `fill`
    /// whose object the analysis cannot read is not checked.
    ///
    /// ## Example
    /// ```ts
    /// const postComment = defineEvent({
    ///   name: "post_comment",
    ///   description: "Post a comment on the ticket.",
    ///   input: z.object({ ticket: z.string(), body: z.string() }),
    /// });
    /// // ...
    /// input: fromPick(postComment, ({ context }) => ({ ticket: context.ticket })),
    /// ```
    /// is refused: ``machine "triage": pick "post_comment" enters state "triage.triaging.posting"
    /// (Effect "comment"): `fill` sets "ticket", which is also a param of the pick — the Machine's
    /// value wins and the Agent's is dropped; rename one, or drop it from the def``.
    ///
    /// ## Use instead
    /// Drop the key from the def (the Machine chooses it), or rename one of them.
    pub static FROM_PICK_FILL_SETS_PARAM = { code: "from-pick-fill-sets-param", rule: None, severity: Error };
}

pub(crate) fn check(cx: &Ctx<Picks<'_>>, sink: &mut Sink) {
    for fp in from_picks(cx) {
        let Some(fill) = arg(fp.call, 1) else { continue };
        // The keys `fill` sets, asked of its lowering in place (no list of them copied).
        let sets: &dyn Fn(&str) -> bool = match fill.as_function().and_then(|f| f.lowered.as_deref()) {
            Some(Expr::Object(fields)) => &|param| fields.iter().any(|(k, _)| k == param),
            Some(Expr::Literal(ir::Json::Object(m))) => &|param| m.contains_key(param),
            _ => continue,
        };
        let inv = &cx.m.state(fp.state).invokes[fp.invoke];
        for (param, _) in &fp.pick.params {
            if !sets(param) {
                continue;
            }
            sink.at_path(
                &FROM_PICK_FILL_SETS_PARAM,
                fill.loc,
                &base::path::join(cx.map.invoke_path(fp.state, fp.invoke), "input"),
                format!(
                    "machine \"{}\": pick \"{}\" enters state \"{}\" (Effect \"{}\"): `fill` sets \"{param}\", which is also a param of the pick — the Machine's value wins and the Agent's is dropped; rename one, or drop it from the def",
                    cx.m.id,
                    fp.pick.name,
                    cx.node_id(fp.state),
                    inv.src
                ),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::from_pick_unknown_key::tests::note;
    use super::super::testing::walk;

    #[test]
    fn a_fill_that_sets_a_param_is_refused() {
        let got =
            walk(&note("text: z.string()", "text: z.string()", r#"fromPick(postNote, () => ({ text: "x" }))"#, ""));
        assert_eq!(
            got,
            [(
                "from-pick-fill-sets-param".to_string(),
                "machine \"note\": pick \"post_note\" enters state \"note.writing.posting\" (Effect \"note\"): `fill` sets \"text\", which is also a param of the pick — the Machine's value wins and the Agent's is dropped; rename one, or drop it from the def".to_string()
            )]
        );
    }

    #[test]
    fn a_fill_of_other_keys_is_admitted() {
        let got = walk(&note(
            "text: z.string()",
            "text: z.string(), to: z.string()",
            r#"fromPick(postNote, () => ({ to: "ops" }))"#,
            "",
        ));
        assert!(got.is_empty(), "{got:?}");
    }
}
