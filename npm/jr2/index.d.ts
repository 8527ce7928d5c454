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

/**
 * Which binding artifact the generated loader actually loaded: `'native'` for
 * a native addon, otherwise the `platformArchABI` of the WASI flavor. Every
 * flavor napi-rs can build is listed, because `NAPI_RS_NATIVE_LIBRARY_PATH`
 * can point the loader at a WASI artifact this package does not build itself.
 */
export declare const __napiBindingTarget: 'native' | 'wasm32-wasi' | 'wasm32-wasip1'

/**
 * The Chart door, for a planner's output: admits `chartText` against the Open body of `lends`
 * or refuses it, as `jr2 chart check` does. Without `lends` the checks that need an Open body
 * are skipped. `admitted` is true when no diagnostic is an error; `lines` are the door's lines
 * (each diagnostic's message, `<path>: <text>`), `diagnostics` and `summary` the JSON format's.
 */
export declare function admitChart(chartText: string, lends?: string | LendManifest | null, options?: AdmitOptions): Admission

/** Options of `admitChart`. */
export interface AdmitOptions {
  /** The name the diagnostics give the Chart (`file`); `<chart>` without it. */
  file?: string
}

/**
 * The Chart briefing, the grammar's root description for a planner, narrowed to one Open body
 * with `lends`: what `jr2 schema briefing [--lends L]` prints.
 */
export declare function chartBriefing(lends?: string | LendManifest | null): string

/**
 * The Chart grammar as JSON Schema (Draft 2020-12), narrowed to one Open body with `lends`: what
 * `jr2 schema chart [--lends L]` prints.
 */
export declare function chartSchema(lends?: string | LendManifest | null): JsonSchema

/**
 * Checks files and folders as `jr2 check PATH...` does: a `.json` file is a Chart, a `.ts`
 * file a Machine, an Instance folder is checked as one, another folder is walked.
 */
export declare function checkFiles(paths: Array<string>, options?: CheckOptions | undefined | null): Report

/**
 * `checkFiles` off the JS thread: the same check on one of libuv's worker threads, the report in
 * a Promise. Throws at the call where `lends` is no lend manifest; a path that cannot be read
 * rejects the Promise.
 */
export declare function checkFilesAsync(paths: Array<string>, options?: CheckOptions | undefined | null): Promise<Report>

/**
 * Checks an Instance folder as `jr2 check DIR` does: every Workflow `workflows/*.ts`, every
 * named Chart `workflows/<wrapper>/*.json` against its wrapper's Open body, every dispatch.
 * Throws where `dir` is no Instance (it has no `workflows/` folder) or cannot be read.
 */
export declare function checkInstance(dir: string, options?: CheckOptions | undefined | null): Report

/**
 * `checkInstance` off the JS thread: the same check on one of libuv's worker threads, the
 * report in a Promise (rejected with the same `Error`s). Throws at the call where `dir` is no
 * Instance or `lends` no lend manifest.
 */
export declare function checkInstanceAsync(dir: string, options?: CheckOptions | undefined | null): Promise<Report>

/** Options of `checkInstance` and `checkFiles`, as `jr2 check`'s flags. */
export interface CheckOptions {
  /**
   * The lend manifest the Charts outside an Instance are checked against (`--lends`): its
   * JSON text or the object (`jr2 parts WORKFLOW.ts --lends SLOT` prints one).
   */
  lends?: string | LendManifest | null
  /**
   * Read no foreign dispatch target's door (`--offline`). Without it, each foreign door is
   * read with `GET <url>/workflows/<name>` (a few seconds at most), blocking the call.
   */
  offline?: boolean
  /** `exitCode` is 1 on a warning too (`--deny-warnings`). */
  denyWarnings?: boolean
}

/**
 * ADR-0071's door compatibility, as `jr2 schema compat --slot S --door D`: a dispatch slot's
 * `input` JSON Schema (what is sent) against its callee's door (what it takes), each its text or
 * the object (an object's diagnostics are placed in its pretty-printed text). `exitCode` 0:
 * compatible (warnings allowed). Throws where a schema is no JSON object.
 */
export declare function compat(slot: string | JsonSchema, door: string | JsonSchema, options?: CompatOptions): Report

/** Options of `compat`. */
export interface CompatOptions {
  /** The name the slot's diagnostics give its schema (`file`); `<slot>` without it. */
  slotFile?: string
  /** The name the door's diagnostics give its schema; `<door>` without it. */
  doorFile?: string
}
