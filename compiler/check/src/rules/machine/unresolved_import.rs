use diagnostics::declare_rule;

declare_rule! {
    /// Refuses a relative import whose file does not exist, or leads out of the Instance folder.
    ///
    /// ## Why
    /// jr2 follows a Workflow's relative imports (`./x`, `../y/z`, with or without `.ts` or `.js`,
    /// or a folder's `index.ts`) to read the values the Machine is made of. An import it cannot
    /// find would fail when the Workflow loads, and everything read from it is unknown. Only
    /// source files inside the Instance folder are read (the folder holding `workflows/`; for a
    /// lone file, its own folder and those under it): an import that leads out of it, by `..` or
    /// by a symbolic link, is refused without reading what it names.
    ///
    /// ## Example
    /// ```ts
    /// import { writer } from "./agnets.ts";
    /// ```
    /// is refused: `cannot find "./agnets.ts" (tried ./agnets.ts)`.
    ///
    /// ## Use instead
    /// The path of a file that exists, relative to the importing file:
    /// ```ts
    /// import { writer } from "./agents.ts";
    /// ```
    pub static UNRESOLVED_IMPORT = { code: "unresolved-import", rule: None, severity: Error };
}
