//! A refusal of the Machine front end's lowering (`machine/lower.rs`), which builds its lines.

use crate::declare_rule;

declare_rule! {
    /// Refuses a Machine whose config, with every value it shares written out where it is used, has more than 4 194 304 values (`machine::lower::MAX_CONFIG_VALUES`).
    ///
    /// ## Why
    /// A config can name one object in several places: `const s = { type: "parallel", states: { a: t, b: t } }`. Lowering writes a state out in each place it is used, as xstate does, so a chain of such objects names exponentially many states while its text stays a few lines: forty links make 2^40 states, which no memory holds. Past the limit, lowering refuses the Machine instead of running out of memory; no Workflow written by hand comes near it.
    ///
    /// ## Example
    /// ```ts
    /// const s0 = { type: "final" };
    /// const s1 = { type: "parallel", states: { a: s0, b: s0 } };
    /// // ... s2 to s39 the same, each sharing the one before twice
    /// createMachine({ initial: "top", states: { top: s39 } });
    /// ```
    ///
    /// ## Use instead
    /// ```ts
    /// states written out (or built by a script that writes them), as many as the Machine really has
    /// ```
    pub static TOO_LARGE = { code: "too-large", rule: None, severity: Error };
}
