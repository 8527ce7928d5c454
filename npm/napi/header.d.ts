/* The Node API of jr2c. The functions below are generated from npm/napi/src/lib.rs by napi-rs
   (npm/build.mjs); these types describe what they take and return: the JSON format of
   `jr2 check --format json` (docs/reference/contract.md), which `render::json` writes. */

/** A 1-based line and a column counted in characters. */
export interface Position {
  line: number
  column: number
}

/** Where a diagnostic, a label or an edit is: `start` to `end`. */
export interface Range {
  start: Position
  end: Position
}

/** One finding, as `--format json` gives it. */
export interface Diagnostic {
  /** The file, as the command names it. */
  file: string
  severity: 'error' | 'warning'
  /** A stable kebab-case code; `jr2 explain CODE` and `docs/rules/<code>.md` say what it refuses. */
  code: string
  message: string
  range: Range
  /** 0-based, `[start, end)`, in bytes of the file's UTF-8 text. */
  byte_range: [number, number]
  /** The dotted path of the value (Chart diagnostics), as the door's lines name it. */
  path?: string
  /** The door's rule number, where the seed gives one. */
  rule?: number
  help?: string
  notes?: string[]
  secondary?: { message: string; range: Range; byte_range: [number, number] }[]
  /** Places in other files. */
  related?: { file: string; message: string; range: Range; byte_range: [number, number] }[]
  /** A mechanical fix (`jr2 check --fix` applies it). */
  fix?: {
    message: string
    edits: { range: Range; byte_range: [number, number]; replacement: string }[]
    rename_to?: string
  }
}

export interface Summary {
  files: number
  errors: number
  warnings: number
}

/** What `checkInstance`, `checkFiles` and `compat` return: `--format json`'s document, with the
 *  exit code the command would end with. */
export interface Report {
  /** 0: no error (warnings allowed unless `denyWarnings`); 1: refused. */
  exitCode: 0 | 1
  /** Foreign dispatch doors not read (`offline`). */
  foreignSkipped?: number
  diagnostics: Diagnostic[]
  summary: Summary
}

/** What `admitChart` returns: the door's verdict. */
export interface Admission {
  /** No diagnostic is an error. */
  admitted: boolean
  /** The door's lines: each diagnostic's message (`<path>: <text>`), in order. */
  lines: string[]
  diagnostics: Diagnostic[]
  summary: Summary
}

/** A lend manifest: what an Open body lends a Chart (`jr2 parts WORKFLOW.ts --lends SLOT` prints one). */
export interface LendManifest {
  declaration: {
    lends?: {
      agents?: string[]
      effects?: string[]
      machines?: string[]
      guards?: string[]
      actions?: string[]
      delays?: string[]
      gate?: boolean
      fail?: boolean
    }
    allows?: { models?: string[]; workspace?: ('none' | 'read' | 'write')[] }
    ceilings?: { turns?: number; wallClock?: string; transitions?: number; fanOut?: number; size?: number }
  }
  lent?: Record<string, unknown>
  inputKeys?: string[]
  repoSlots?: string[]
}

/** A JSON Schema (Draft 2020-12). */
export type JsonSchema = Record<string, unknown>
