use diagnostics::declare_rule;

declare_rule! {
    /// Refuses a relative import whose file does not exist, or leads out of its Instance or project.
    ///
    /// ## Why
    /// jr2 follows a Workflow's relative imports to read the values the Machine is made of, as
    /// TypeScript's `bundler` resolution finds them: `./x` is `x.ts`, `x.tsx`, a folder's
    /// `index.ts` or `index.tsx`, then the same as `.js` and `.jsx`; `./x.js` is `x.ts`, `x.tsx`,
    /// then `x.js` (`.mjs` is `.mts` first, `.cjs` is `.cts`); `./x.ts`, `.tsx`, `.mts` and `.cts`
    /// are read as written, and `./x.json` as JSON. A file a bundler loads that is no code
    /// (`./style.css`, `./App.vue`) is not read: a `not-static` warning says so at its import.
    /// An import it cannot find would fail when the Workflow loads, and everything read from it
    /// is unknown. Only source files inside the Instance folder (the folder holding `workflows/`)
    /// are read; for a file outside an Instance, inside its project's folder (the nearest folder
    /// above it with a `package.json`, `tsconfig.json` or `.git`: a Machine in `src/machines/`
    /// may import `../utils`), or with none, its own folder and those under it. An import that
    /// leads out of it, by `..` or by a symbolic link, is refused without reading what it names.
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
