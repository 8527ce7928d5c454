use diagnostics::declare_rule;

declare_rule! {
    /// Warns where a Machine's value cannot be known without running the code.
    ///
    /// ## Why
    /// jr2 checks a Workflow statically: it evaluates `const` bindings, literals, imports between
    /// the Instance's files and the calls of the authoring surface (`@jr2/orchestrator`, `xstate`,
    /// `zod`), and nothing else. A value made by other code (a `let`, a call of your own function,
    /// a recursive function, a global such as `Date` or `Math`, an import from another package or
    /// from a file that is no code, `./style.css`, a method of a string) is unknown to the
    /// checker: the rest of the Machine is still checked, but the checks that need this value are
    /// not made.
    ///
    /// ## Example
    /// ```ts
    /// let model = "anthropic/claude-haiku-5-5";
    /// const writer = agent({ model, instructions: "You write release notes." });
    /// ```
    /// warns at `model`: `a \`let\` binding is not static (it may change); use \`const\``.
    ///
    /// ## Use instead
    /// Write the value where the Machine uses it, or as a `const` of literals:
    /// ```ts
    /// const model = "anthropic/claude-haiku-5-5";
    /// ```
    /// Functions (input mappers, guards) stay code and are fine: only the values the Machine's
    /// shape is made of must be static.
    pub static NOT_STATIC = { code: "not-static", rule: None, severity: Warning };
}
