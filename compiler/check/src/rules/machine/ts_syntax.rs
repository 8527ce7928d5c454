use diagnostics::declare_rule;

declare_rule! {
    /// Refuses a Machine file that is not valid TypeScript.
    ///
    /// ## Why
    /// jr2 reads a Workflow without running it: it parses the file with oxc and evaluates what
    /// the authoring surface says. The parser has no error recovery, so a file with a syntax error
    /// yields nothing to check; the error is the first one the parser found, at its span. Code
    /// nested past the parser's budget, or an expression past the evaluator's 200 levels (a
    /// Machine's states nested 250 deep), is refused the same way: what is below is not read, so
    /// it cannot pass.
    ///
    /// ## Example
    /// ```ts
    /// export const machine = jr2Setup({ actors: { } }).createMachine({ id: "x", ;
    /// ```
    /// is refused: `Expected `}` but found `;``.
    ///
    /// ## Use instead
    /// Fix the syntax; `tsc --noEmit` shows the same place.
    pub static TS_SYNTAX = { code: "ts-syntax", rule: None, severity: Error };
}
