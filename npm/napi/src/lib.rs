//! The Node API of jr2 (napi-rs), the npm package `@jr2/jr2c`: `checkInstance`, `checkFiles`
//! (and their Promise variants `checkInstanceAsync`, `checkFilesAsync`, run on libuv's worker
//! threads), `admitChart`, `chartSchema`, `chartBriefing` and `compat`.
//!
//! No analysis and no format of its own: each function calls the `jr2` command's library
//! (`jr2::cli`) for the reports `jr2 check`, `jr2 chart check` and `jr2 schema compat` print,
//! and returns them as the JSON format's document (`render::json::document`: `diagnostics` and
//! `summary`, exactly `--format json`'s), with what a caller needs beside it (the exit code the
//! command would end with, the door's lines). A usage error (a path that cannot be read, a bad
//! lend manifest, a schema that is no JSON object) is a thrown `Error` with the command's message.
//! The TypeScript declarations (`index.d.ts`) are generated from this file by napi-rs
//! (`npm/build.mjs`), the JSON format's types from `header.d.ts`.

/// The door allocates many small strings and nodes per Chart, as in the `jr2` binary.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

use diagnostics::{FileReport, Summary};
use jr2::cli::{self, input, UsageError};
use kit::LendManifest;
use napi_derive::napi;
use serde_json::{Map, Value};
use std::path::PathBuf;

/// A lend manifest as the API takes it: its JSON text (a string), or the object.
type LendsArg = Value;

/// A JSON Schema as the API takes it: its JSON text (a string), or the object.
type SchemaArg = Value;

fn thrown(e: UsageError) -> napi::Error {
    napi::Error::from_reason(e.0)
}

fn manifest(lends: Option<LendsArg>) -> napi::Result<Option<LendManifest>> {
    let shown = "(the lends argument)";
    match lends {
        None => Ok(None),
        Some(Value::String(text)) => input::lends_from_text(&text, shown).map(Some).map_err(thrown),
        Some(Value::Null) => Ok(None),
        Some(value) => serde_json::from_value(value)
            .map(Some)
            .map_err(|e| napi::Error::from_reason(format!("bad lend manifest {shown}: {e}"))),
    }
}

thread_local! {
    /// The last lend manifest `admitChart` was given as text, parsed: a planner service passes
    /// the same manifest with every Chart, and its parse need not be repeated per call.
    static LAST_LENDS: std::cell::RefCell<Option<(String, std::rc::Rc<LendManifest>)>> =
        const { std::cell::RefCell::new(None) };
}

/// [`manifest`], reusing the last parse of the same text.
fn manifest_reused(lends: Option<LendsArg>) -> napi::Result<Option<std::rc::Rc<LendManifest>>> {
    let Some(Value::String(text)) = lends else {
        return Ok(manifest(lends)?.map(std::rc::Rc::new));
    };
    let last = LAST_LENDS.with_borrow(|last| last.as_ref().filter(|(t, _)| *t == text).map(|(_, m)| m.clone()));
    if let Some(m) = last {
        return Ok(Some(m));
    }
    let m = std::rc::Rc::new(input::lends_from_text(&text, "(the lends argument)").map_err(thrown)?);
    LAST_LENDS.set(Some((text, m.clone())));
    Ok(Some(m))
}

/// The JSON format's document of the reports, with `exitCode` (as the command would exit: 1 on
/// an error, on a warning with `deny_warnings`, or where a bug stopped a check) before it.
fn document(checked: Vec<(FileReport, bool)>, deny_warnings: bool, extra: Map<String, Value>) -> Value {
    let crashed = checked.iter().any(|(_, ok)| !ok);
    let reports: Vec<FileReport> = checked.into_iter().map(|(r, _)| r).collect();
    let exit = cli::check::exit_code(Summary::of(&reports), deny_warnings, crashed);
    let mut out = Map::new();
    out.insert("exitCode".into(), Value::from(exit as u8));
    out.extend(extra);
    if let Value::Object(doc) = render::json::document(&reports) {
        out.extend(doc);
    }
    Value::Object(out)
}

/// Options of `checkInstance` and `checkFiles`, as `jr2 check`'s flags.
#[napi(object)]
pub struct CheckOptions {
    /// The lend manifest the Charts outside an Instance are checked against (`--lends`): its
    /// JSON text or the object (`jr2 parts WORKFLOW.ts --lends SLOT` prints one).
    #[napi(ts_type = "string | LendManifest | null")]
    pub lends: Option<LendsArg>,
    /// Read no foreign dispatch target's door (`--offline`). Without it, each foreign door is
    /// read with `GET <url>/workflows/<name>` (a few seconds at most), blocking the call.
    pub offline: Option<bool>,
    /// `exitCode` is 1 on a warning too (`--deny-warnings`).
    pub deny_warnings: Option<bool>,
}

fn check_paths(paths: Vec<PathBuf>, options: Option<CheckOptions>) -> napi::Result<Value> {
    CheckTask::new(paths, options)?.run()
}

/// Checks an Instance folder as `jr2 check DIR` does: every Workflow `workflows/*.ts`, every
/// named Chart `workflows/<wrapper>/*.json` against its wrapper's Open body, every dispatch.
/// Throws where `dir` is no Instance (it has no `workflows/` folder) or cannot be read.
#[napi(catch_unwind, ts_return_type = "Report")]
pub fn check_instance(dir: String, options: Option<CheckOptions>) -> napi::Result<Value> {
    check_paths(vec![instance_root(&dir)?], options)
}

/// Checks files and folders as `jr2 check PATH...` does: a `.json` file is a Chart, a `.ts`
/// file a Machine, an Instance folder is checked as one, another folder is walked.
#[napi(catch_unwind, ts_return_type = "Report")]
pub fn check_files(paths: Vec<String>, options: Option<CheckOptions>) -> napi::Result<Value> {
    check_paths(paths.into_iter().map(PathBuf::from).collect(), options)
}

/// A JSON value handed to JS from a worker thread's result (the JSON format's document):
/// `serde_json::Value` as napi-rs converts it, with the type name an `AsyncTask`'s result needs.
pub struct Document(Value);

impl napi::bindgen_prelude::TypeName for Document {
    fn type_name() -> &'static str {
        "Object"
    }

    fn value_type() -> napi::ValueType {
        napi::ValueType::Object
    }
}

impl napi::bindgen_prelude::ToNapiValue for Document {
    unsafe fn to_napi_value(env: napi::sys::napi_env, val: Self) -> napi::Result<napi::sys::napi_value> {
        // SAFETY: the caller's `env` is the live environment napi-rs resolves the task in.
        unsafe { <Value as napi::bindgen_prelude::ToNapiValue>::to_napi_value(env, val.0) }
    }
}

/// `checkInstance` or `checkFiles` on one of libuv's worker threads: what the synchronous call
/// computes, read and checked off the JS thread, the manifest parsed before (on the JS thread, so
/// that a bad one throws at the call as it does for the synchronous call).
pub struct CheckTask {
    paths: Vec<PathBuf>,
    manifest: Option<LendManifest>,
    offline: bool,
    deny_warnings: bool,
}

impl CheckTask {
    fn new(paths: Vec<PathBuf>, options: Option<CheckOptions>) -> napi::Result<Self> {
        let (lends, offline, deny_warnings) = match options {
            Some(o) => (o.lends, o.offline.unwrap_or(false), o.deny_warnings.unwrap_or(false)),
            None => (None, false, false),
        };
        Ok(CheckTask { paths, manifest: manifest(lends)?, offline, deny_warnings })
    }

    fn run(&self) -> napi::Result<Value> {
        let checked = cli::check::check_paths(&self.paths, self.manifest.as_ref(), self.offline).map_err(thrown)?;
        let mut extra = Map::new();
        extra.insert("foreignSkipped".into(), Value::from(checked.foreign_skipped));
        Ok(document(checked.reports, self.deny_warnings || checked.deny_warnings, extra))
    }
}

impl napi::Task for CheckTask {
    type Output = Value;
    type JsValue = Document;

    fn compute(&mut self) -> napi::Result<Value> {
        // Each file's check already catches a bug's panic (its report says so); this catches one
        // outside them, which would otherwise abort the Node process from a worker thread.
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| self.run())).unwrap_or_else(|_| {
            Err(napi::Error::from_reason("internal error while checking; this is a bug in jr2, please report it"))
        })
    }

    fn resolve(&mut self, _env: napi::Env, output: Value) -> napi::Result<Document> {
        Ok(Document(output))
    }
}

fn instance_root(dir: &str) -> napi::Result<PathBuf> {
    let root = PathBuf::from(dir);
    if !root.is_dir() || !::check::instance::is_instance(&root) {
        return Err(napi::Error::from_reason(format!(
            "{} is not an Instance folder: it has no workflows/ folder",
            input::display(&root)
        )));
    }
    Ok(root)
}

/// `checkInstance` off the JS thread: the same check on one of libuv's worker threads, the
/// report in a Promise (rejected with the same `Error`s). Throws at the call where `dir` is no
/// Instance or `lends` no lend manifest.
#[napi(catch_unwind, ts_return_type = "Promise<Report>")]
pub fn check_instance_async(
    dir: String,
    options: Option<CheckOptions>,
) -> napi::Result<napi::bindgen_prelude::AsyncTask<CheckTask>> {
    Ok(napi::bindgen_prelude::AsyncTask::new(CheckTask::new(vec![instance_root(&dir)?], options)?))
}

/// `checkFiles` off the JS thread: the same check on one of libuv's worker threads, the report in
/// a Promise. Throws at the call where `lends` is no lend manifest; a path that cannot be read
/// rejects the Promise.
#[napi(catch_unwind, ts_return_type = "Promise<Report>")]
pub fn check_files_async(
    paths: Vec<String>,
    options: Option<CheckOptions>,
) -> napi::Result<napi::bindgen_prelude::AsyncTask<CheckTask>> {
    let task = CheckTask::new(paths.into_iter().map(PathBuf::from).collect(), options)?;
    Ok(napi::bindgen_prelude::AsyncTask::new(task))
}

/// Options of `admitChart`.
#[napi(object)]
pub struct AdmitOptions {
    /// The name the diagnostics give the Chart (`file`); `<chart>` without it.
    pub file: Option<String>,
}

/// The Chart door, for a planner's output: admits `chartText` against the Open body of `lends`
/// or refuses it, as `jr2 chart check` does. Without `lends` the checks that need an Open body
/// are skipped. `admitted` is true when no diagnostic is an error; `lines` are the door's lines
/// (each diagnostic's message, `<path>: <text>`), `diagnostics` and `summary` the JSON format's.
#[napi(
    catch_unwind,
    ts_args_type = "chartText: string, lends?: string | LendManifest | null, options?: AdmitOptions",
    ts_return_type = "Admission"
)]
pub fn admit_chart(
    chart_text: Text,
    lends: Option<LendsArg>,
    options: Option<AdmitOptions>,
) -> napi::Result<AdmissionOut> {
    let manifest = manifest_reused(lends)?;
    let name = options.and_then(|o| o.file).unwrap_or_else(|| "<chart>".to_string());
    let (report, ok) = cli::check::check_chart(name, input::ChartText::Text(chart_text.0), manifest.as_deref());
    if !ok {
        return Err(napi::Error::from_reason(format!(
            "internal error while checking {}; this is a bug in jr2, please report it",
            report.path
        )));
    }
    let mut document = render::json::document(std::slice::from_ref(&report));
    let diagnostics = document.get_mut("diagnostics").map(Value::take).unwrap_or_default();
    let summary = Summary::of(std::slice::from_ref(&report));
    Ok(AdmissionOut {
        admitted: !report.diagnostics.iter().any(diagnostics::Diagnostic::is_error),
        lines: report.diagnostics.into_iter().map(|d| d.message).collect(),
        diagnostics,
        summary: (summary.files as u32, summary.errors as u32, summary.warnings as u32),
    })
}

/// A JS string argument read as UTF-8 in one pass over it. napi-rs's `String` asks V8 for the
/// UTF-8 length first (a scan of the whole string) and then copies it (a second scan); a string's
/// UTF-16 length is known without a scan, and a Chart's UTF-8 is about as long (ASCII but for a
/// few characters), so the buffer is sized from it with room to spare and filled by one copy.
/// `admitChart` takes a Chart of tens of kilobytes per call: the length scan was 2.6% of its
/// time in Node. A string whose UTF-8 outgrows the room is read again as napi-rs reads it.
pub struct Text(String);

impl napi::bindgen_prelude::TypeName for Text {
    fn type_name() -> &'static str {
        "String"
    }

    fn value_type() -> napi::ValueType {
        napi::ValueType::String
    }
}

impl napi::bindgen_prelude::ValidateNapiValue for Text {}

impl napi::bindgen_prelude::FromNapiValue for Text {
    unsafe fn from_napi_value(env: napi::sys::napi_env, value: napi::sys::napi_value) -> napi::Result<Self> {
        let mut units = 0;
        // SAFETY: `env` and `value` are the live call's; a null buffer asks only the length.
        let status = unsafe { napi::sys::napi_get_value_string_utf16(env, value, std::ptr::null_mut(), 0, &mut units) };
        if status != napi::sys::Status::napi_ok {
            // Not a string: napi-rs's own error says what it is.
            // SAFETY: as above.
            return unsafe { String::from_napi_value(env, value) }.map(Text);
        }
        // Room for the UTF-8 bytes and V8's NUL. A UTF-16 unit is one byte of UTF-8 or more, and
        // V8 writes whole characters (four bytes at most) while they fit: a copy that fills to
        // within four bytes of the room may have been cut short.
        let room = units + units / 4 + 16;
        let mut bytes: Vec<u8> = Vec::with_capacity(room + 1);
        let mut written = 0;
        // SAFETY: the buffer holds `room + 1` bytes; V8 writes at most `room` bytes of UTF-8 and
        // a NUL, and says how many it wrote before the NUL.
        let status = unsafe {
            napi::sys::napi_get_value_string_utf8(env, value, bytes.as_mut_ptr().cast(), room + 1, &mut written)
        };
        if status != napi::sys::Status::napi_ok || written + 4 > room {
            // SAFETY: as above.
            return unsafe { String::from_napi_value(env, value) }.map(Text);
        }
        // SAFETY: V8 initialised the first `written` bytes, whole characters of UTF-8 (Node asks
        // for REPLACE_INVALID_UTF8: a lone surrogate is U+FFFD), as napi-rs's `String` trusts.
        unsafe {
            bytes.set_len(written);
            Ok(Text(String::from_utf8_unchecked(bytes)))
        }
    }
}

/// What `admitChart` returns (`Admission` in `header.d.ts`), built as a JS object directly: a
/// `serde_json::Value` of it went through a map of owned keys and one `napi_create_string` per
/// key, 3.3% of `admitChart`'s time in Node.
pub struct AdmissionOut {
    admitted: bool,
    lines: Vec<String>,
    /// The JSON format's diagnostics (an array); empty for a clean Chart.
    diagnostics: Value,
    /// `summary`: files, errors, warnings.
    summary: (u32, u32, u32),
}

impl napi::bindgen_prelude::TypeName for AdmissionOut {
    fn type_name() -> &'static str {
        "Object"
    }

    fn value_type() -> napi::ValueType {
        napi::ValueType::Object
    }
}

/// `Err` unless a napi call returned `napi_ok`.
fn ok(status: napi::sys::napi_status) -> napi::Result<()> {
    if status == napi::sys::Status::napi_ok {
        Ok(())
    } else {
        Err(napi::Error::new(napi::Status::from(status), "a napi call failed while building the result"))
    }
}

impl napi::bindgen_prelude::ToNapiValue for AdmissionOut {
    unsafe fn to_napi_value(env: napi::sys::napi_env, val: Self) -> napi::Result<napi::sys::napi_value> {
        use napi::sys;
        // SAFETY (every call below): `env` is the live call's environment, the keys are
        // NUL-terminated literals, and each out-pointer is a local.
        unsafe {
            let mut object = std::ptr::null_mut();
            ok(sys::napi_create_object(env, &mut object))?;
            let set = |key: &std::ffi::CStr, value: sys::napi_value| {
                ok(sys::napi_set_named_property(env, object, key.as_ptr(), value))
            };
            set(c"admitted", bool::to_napi_value(env, val.admitted)?)?;
            let mut lines = std::ptr::null_mut();
            ok(sys::napi_create_array_with_length(env, val.lines.len(), &mut lines))?;
            for (i, line) in val.lines.iter().enumerate() {
                let mut s = std::ptr::null_mut();
                ok(sys::napi_create_string_utf8(env, line.as_ptr().cast(), line.len() as isize, &mut s))?;
                ok(sys::napi_set_element(env, lines, i as u32, s))?;
            }
            set(c"lines", lines)?;
            set(c"diagnostics", Value::to_napi_value(env, val.diagnostics)?)?;
            let mut summary = std::ptr::null_mut();
            ok(sys::napi_create_object(env, &mut summary))?;
            let (files, errors, warnings) = val.summary;
            for (key, n) in [(c"files", files), (c"errors", errors), (c"warnings", warnings)] {
                ok(sys::napi_set_named_property(env, summary, key.as_ptr(), u32::to_napi_value(env, n)?))?;
            }
            set(c"summary", summary)?;
            Ok(object)
        }
    }
}

/// The Chart grammar as JSON Schema (Draft 2020-12), narrowed to one Open body with `lends`: what
/// `jr2 schema chart [--lends L]` prints.
#[napi(catch_unwind, ts_args_type = "lends?: string | LendManifest | null", ts_return_type = "JsonSchema")]
pub fn chart_schema(lends: Option<LendsArg>) -> napi::Result<Value> {
    Ok(match manifest(lends)? {
        Some(m) => chart::schema::chart_schema_for(&m.declaration),
        None => chart::schema::chart_schema(),
    })
}

/// The Chart briefing, the grammar's root description for a planner, narrowed to one Open body
/// with `lends`: what `jr2 schema briefing [--lends L]` prints.
#[napi(catch_unwind, ts_args_type = "lends?: string | LendManifest | null")]
pub fn chart_briefing(lends: Option<LendsArg>) -> napi::Result<String> {
    let manifest = manifest(lends)?;
    Ok(chart::briefing::chart_briefing(manifest.as_ref().map(|m| &m.declaration)))
}

/// Options of `compat`.
#[napi(object)]
pub struct CompatOptions {
    /// The name the slot's diagnostics give its schema (`file`); `<slot>` without it.
    pub slot_file: Option<String>,
    /// The name the door's diagnostics give its schema; `<door>` without it.
    pub door_file: Option<String>,
}

fn schema_text(schema: SchemaArg) -> napi::Result<String> {
    match schema {
        Value::String(text) => Ok(text),
        value => serde_json::to_string_pretty(&value).map_err(|e| napi::Error::from_reason(e.to_string())),
    }
}

/// ADR-0071's door compatibility, as `jr2 schema compat --slot S --door D`: a dispatch slot's
/// `input` JSON Schema (what is sent) against its callee's door (what it takes), each its text or
/// the object (an object's diagnostics are placed in its pretty-printed text). `exitCode` 0:
/// compatible (warnings allowed). Throws where a schema is no JSON object.
#[napi(
    catch_unwind,
    ts_args_type = "slot: string | JsonSchema, door: string | JsonSchema, options?: CompatOptions",
    ts_return_type = "Report"
)]
pub fn compat(slot: SchemaArg, door: SchemaArg, options: Option<CompatOptions>) -> napi::Result<Value> {
    let (slot_file, door_file) = match options {
        Some(o) => (o.slot_file, o.door_file),
        None => (None, None),
    };
    let slot = (slot_file.unwrap_or_else(|| "<slot>".into()), schema_text(slot)?);
    let door = (door_file.unwrap_or_else(|| "<door>".into()), schema_text(door)?);
    let reports = cli::compat::compat_reports(slot, door).map_err(thrown)?;
    Ok(document(reports, false, Map::new()))
}
