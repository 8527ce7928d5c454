use diagnostics::declare_rule;

declare_rule! {
    /// Refuses a Machine file that is not valid TypeScript.
    ///
    /// ## Why
    /// jr2 reads a Workflow without running it: it parses the file with oxc and evaluates what
    /// the authoring surface says. The parser has no error recovery, so a file with a syntax error
    /// yields nothing to check; the error is the first one the parser found, at its span.
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
