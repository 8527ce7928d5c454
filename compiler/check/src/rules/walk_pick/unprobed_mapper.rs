use crate::rules::Sink;
use diagnostics::declare_rule;
use machine::value::Value;

declare_rule! {
    /// Warns that the input mapper of a state a pick enters could not be read: its params are unchecked.
    ///
    /// ## Why
    /// `unread-pick-param` needs to know which params of the pick the input mapper of the Effect
    /// reads. The kit calls the mapper once to see (`pick.ts`, `paramsOf`); this checker reads its
    /// code instead, and some code it cannot follow: a call of a function it cannot inline, a
    /// method call, a loop. Then the params of that pick at that state are not checked, and `jr2
    /// up` would print the same warning.
    ///
    /// ## Example
    /// ```ts
    /// testing: {
    ///   invoke: {
    ///     src: "test",
    ///     input: ({ event }) => ({ file: paramsOf(event, runTest).module.toLowerCase() }),
    ///   },
    /// },
    /// ```
    /// warns: `pick "run_test" enters state "fix-tests.coding.testing" (Effect "test"): could not
    /// probe the input mapper (the analysis cannot follow all of its body); its params are
    /// unchecked`.
    ///
    /// ## Use instead
    /// A mapper made of reads, templates and object literals (move the work into a helper the
    /// analysis inlines: one `const` arrow function with one expression), or `fromPick`.
    pub static UNPROBED_INPUT_MAPPER = { code: "unprobed-input-mapper", rule: None, severity: Warning };
}

/// The warning for the input mapper `mapper` of `state`'s Effect `slot`, entered by `pick`.
pub fn report(sink: &mut Sink, mapper: &Value, path: &str, pick: &str, state: &str, slot: &str) {
    sink.at_path(
        &UNPROBED_INPUT_MAPPER,
        mapper.loc,
        &base::path::join(path, "input"),
        format!(
            "pick \"{pick}\" enters state \"{state}\" (Effect \"{slot}\"): could not probe the input mapper (the analysis cannot follow all of its body); its params are unchecked"
        ),
    );
}

#[cfg(test)]
mod tests {
    use super::super::testing::walk;
    use super::super::unread_pick_param::tests::machine;

    #[test]
    fn an_opaque_mapper_warns() {
        let got = walk(&machine(r#"({ event }) => ({ file: paramsOf(event, runTest).module.toLowerCase() })"#, ""));
        assert_eq!(
            got,
            [(
                "unprobed-input-mapper".to_string(),
                "pick \"run_test\" enters state \"fix.coding.testing\" (Effect \"test\"): could not probe the input mapper (the analysis cannot follow all of its body); its params are unchecked".to_string()
            )]
        );
    }
}
