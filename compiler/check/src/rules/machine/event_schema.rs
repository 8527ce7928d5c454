//! A refusal of the Machine front end's lowering (`machine/src/lower.rs`), which builds its lines.

use diagnostics::declare_rule;

declare_rule! {
    /// Warns that a pick's `input` (a zod schema) could not be read as JSON Schema.
    ///
    /// ## Why
    /// A pick's params are its `input` schema's keys: the walk checks that they are read, and a Chart or a door compares them. A schema the analysis cannot convert (`.transform()`, `z.lazy`, a schema built by a function) leaves its keys unknown.
    ///
    /// ## Example
    /// ```ts
    /// input: z.object({ at: z.string().transform((s) => new Date(s)) })
    /// ```
    ///
    /// ## Use instead
    /// ```ts
    /// input: z.object({ at: z.string().describe("an ISO date") })
    /// ```
    pub static EVENT_SCHEMA = { code: "event-schema", rule: None, severity: Warning };
}
