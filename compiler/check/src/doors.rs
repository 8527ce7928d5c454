//! Door compatibility in an Instance (ADR-0071): each `dispatch(name, { input, target? })` with an
//! `input` schema, against its callee's door.
//!
//! - **Same Instance** (no `target`): the callee's door is the JSON Schema of the callee
//!   Workflow's `input`, as its setup declares it for xstate: `jr2Setup({ schemas: { input } })`,
//!   read as what it takes (zod's `io: "input"`). For a named Chart, `wrapper/chart`, the run is
//!   the wrapper's, and the Chart comes by its name, never in the body: the door is the wrapper's
//!   with its Chart fields (`chartSchema`, `chartSchemaFor(...)`) left out. The slot's schema is
//!   read as what the driver sends (`io: "output"`). [`crate::compat::compare`] compares them; a
//!   mismatch is refused (`door-mismatch`), a part outside the subset is `door-not-compared`. A
//!   callee with no declared `input` schema is not compared (a warning): its door is not known.
//! - **Foreign** (`target: { url }`): `GET <url>/workflows/<name>` with no token, through a
//!   [`DoorSource`] the caller gives (the compiler knows no network: the CLI implements it over
//!   HTTP), once per distinct url and name. Every outcome other than a compatible door is a
//!   warning, never a refusal: no reach, a miss (404), an answer that is no Workflow detail, a
//!   redirect, a mismatch. A Workflow detail is a JSON object with the Workflow's `name` and its
//!   door as a JSON Schema in `input`.
//!
//! Every diagnostic is placed at the dispatch's `input` (a foreign door's reach at the target's
//! `url`), in the caller's file. A finding in the slot's schema points also at the field it is
//! about; a finding in a same-Instance door carries the door's place as related information (its
//! file and span), which the LSP shows beside the caller's line.

use crate::compat::{compare, Finding, Side};
use crate::rules::compat::{AtDispatch, Foreign, Read, Subject};
use crate::rules::instance::dispatch_target_url;
use crate::rules::{self, Sink};
use base::line_index::LineIndex;
use diagnostics::{Diagnostic, Label};
use machine::lower::{arg, is_call, machine_parts};
use machine::module::SourceFile;
use machine::value::{Arena, Call, Callee, FileId, Loc, Named, Prop, Value, ValueKind, Values};
use machine::zod::{to_json_schema_io, Io};
use rustc_hash::FxHashMap;
use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap};
use syntax::json::{self, Json};

/// Where the doors of foreign Instances are read: `GET <url>/workflows/<name>`, with no token and
/// no redirect followed. The CLI implements it over HTTP; tests give canned answers.
pub trait DoorSource: Sync {
    /// Reads the door of the Workflow `name` at the origin `url` ([`door_url`] gives the address).
    fn fetch(&self, url: &str, name: &str) -> Fetched;
}

/// What a `GET` of a foreign door gave.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fetched {
    /// An answer that is no redirect: its status and its body as text.
    Answer { status: u16, body: String },
    /// A redirect (3xx), not followed.
    Redirect { status: u16, location: Option<String> },
    /// No answer: no connection, a timeout, a TLS failure, an address that does not parse.
    Unreachable { reason: String },
}

/// The address of a foreign door: the origin, then `/workflows/<name>` (each segment of the name
/// percent-encoded outside RFC 3986's unreserved characters; `task/review` keeps its slash).
pub fn door_url(url: &str, name: &str) -> String {
    let mut out = format!("{}/workflows/", url.trim_end_matches('/'));
    for b in name.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~' | b'/') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// A distinct foreign door: the target's origin (without a trailing `/`) and the callee's name.
pub type ForeignKey = (String, String);

/// The foreign door a dispatch names, if its target is a static origin: `(url, name)`.
pub fn foreign_target(call: &Value<'_>) -> Option<ForeignKey> {
    let name = arg(call, 0)?.as_str()?;
    let target = target_of(call)?;
    let url = target.get("url")?.as_str()?;
    if dispatch_target_url::fault(url).is_some() {
        // Refused at build already (`dispatch-target-url`): nothing to fetch.
        return None;
    }
    Some((url.trim_end_matches('/').to_string(), name.to_string()))
}

/// A dispatch's `target`, where it has one and it is not the kit's `open`.
fn target_of<'v>(call: &Value<'v>) -> Option<&'v Value<'v>> {
    arg(call, 1)
        .and_then(|o| o.get("target"))
        .filter(|t| !matches!(t.kind, ValueKind::Undefined))
        .filter(|t| !crate::instance::is_open(t))
}

/// Reads each distinct foreign door once, in parallel. The results are in the keys' order.
pub fn fetch_all(keys: Vec<ForeignKey>, source: &dyn DoorSource) -> HashMap<ForeignKey, Fetched> {
    let results = crate::instance::parallel(&keys, |(url, name)| {
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| source.fetch(url, name)))
            .unwrap_or_else(|_| Fetched::Unreachable { reason: "the fetch failed (a bug in jr2)".into() })
    });
    keys.into_iter().zip(results).collect()
}

/// What a same-Instance dispatch reads of its callee Workflow: its door as its value declares it.
/// Read once per Workflow, on the worker that compiled it, so that the Workflow's value and IR can
/// be dropped there (`instance.rs`) while its callers are still to be checked: a declared door is
/// a copy of its schema in an arena of its own, apart from the Workflow's values.
#[derive(Debug)]
pub enum Door {
    /// Nothing to compare against: the Workflow has no value, or its value is no Machine (its own
    /// check has said so).
    Unread,
    /// Its setup declares no `schemas.input`: the place of its Machine, where the warning points.
    Undeclared(Loc),
    /// Its setup's `schemas.input` property: the key's place, and the zod schema, copied into
    /// `schema` of its own (its one value, named `input`).
    Declared { key_loc: Loc, schema: Values },
}

/// The name of a declared door's schema in its [`Values`].
const DOOR: &str = "input";

impl Door {
    /// The door of a Workflow with this value (`None`: it has none).
    pub fn of(value: Option<&Value<'_>>) -> Door {
        let Some(value) = value else { return Door::Unread };
        let Ok(parts) = machine_parts(value) else { return Door::Unread };
        let declared = parts.setup.and_then(|s| s.props()).and_then(|ps| ps.iter().rev().find(|p| p.key == "schemas"));
        let door_prop = declared
            .and_then(|s| s.value.props())
            .and_then(|ps| ps.iter().rev().find(|p| p.key == "input"))
            .filter(|p| !matches!(p.value.kind, ValueKind::Undefined));
        match door_prop {
            Some(p) => {
                let (schema, ()) = Values::build(Arena::default(), |arena| {
                    (Named::from_iter([(DOOR.to_string(), p.value.copy_into(arena))]), ())
                });
                Door::Declared { key_loc: p.key_loc, schema }
            }
            None => Door::Undeclared(parts.loc),
        }
    }
}

/// A callee Workflow as door compatibility reads it: its door and the files it read (where the
/// door's places are). A file's text may be empty where the Instance check freed a clean
/// Workflow's texts: a related label into it reads the file from disk (for a file that is really
/// empty, reading it again changes nothing: a span in it is `0..0`).
#[derive(Clone, Copy, Debug)]
pub struct CalleeDoor<'a> {
    pub door: &'a Door,
    pub files: &'a [SourceFile],
}

/// What the Instance knows of doors: each Workflow's door by name, and each foreign door read
/// (none when the check is offline).
pub struct Doors<'a> {
    pub callees: FxHashMap<&'a str, CalleeDoor<'a>>,
    pub foreign: HashMap<ForeignKey, Fetched>,
}

impl Doors<'_> {
    /// The door diagnostics of one `dispatch(...)` call of a Workflow whose files (the entry first)
    /// are `caller`, each with the file it is in.
    pub fn check(&self, call: &Value<'_>, caller: &[SourceFile]) -> Vec<(FileId, Diagnostic)> {
        let Some(name) = arg(call, 0).and_then(Value::as_str) else { return Vec::new() };
        let slot = arg(call, 1)
            .and_then(Value::props)
            .and_then(|ps| ps.iter().rev().find(|p| p.key == "input"))
            .filter(|p| !matches!(p.value.kind, ValueKind::Undefined));
        let has_target =
            arg(call, 1).and_then(|o| o.get("target")).is_some_and(|t| !matches!(t.kind, ValueKind::Undefined));
        if has_target {
            match foreign_target(call) {
                Some(key) => self.foreign(call, name, &key, slot, caller),
                None => Vec::new(),
            }
        } else {
            match slot {
                Some(slot) => self.same_instance(name, slot, caller),
                None => Vec::new(),
            }
        }
    }

    /// A same-Instance dispatch with an `input` schema, against its callee's door.
    fn same_instance(&self, name: &str, slot: &Prop<'_>, caller: &[SourceFile]) -> Vec<(FileId, Diagnostic)> {
        let (workflow, chart) = match name.split_once('/') {
            Some((w, c)) => (w, Some(c)),
            None => (name, None),
        };
        // A callee the Assembly lacks is `unknown-callee`'s; one that did not compile has said so.
        let Some(callee) = self.callees.get(workflow) else { return Vec::new() };
        let at = AtDispatch { callee: name, input: Some(slot.key_loc), foreign: None };
        let whose = match chart {
            Some(_) => format!("the wrapper {workflow:?} of the named Chart {name:?}"),
            None => format!("{name:?}"),
        };
        let mut sink = Sink::default();
        let mut door_places = Places::new(callee.files);
        let (key_loc, schema) = match callee.door {
            Door::Unread => return Vec::new(),
            Door::Undeclared(loc) => {
                if let Some(d) = read(&at, Read::Undeclared { whose: &whose }, &mut sink) {
                    door_places.add(d, *loc, &format!("the Workflow {workflow:?}, which declares no input schema"));
                }
                return located(sink);
            }
            Door::Declared { key_loc, schema } => (*key_loc, schema),
        };
        let Some(declared) = schema.get(DOOR) else { return Vec::new() };
        // The stripped door's edited nodes live here, for this check only (made only for a Chart).
        let arena;
        let door_value = match chart {
            Some(_) => {
                arena = Arena::default();
                strip_chart_fields(declared, &arena)
            }
            None => *declared,
        };
        let door = match to_json_schema_io(&door_value, Io::Input) {
            Ok(j) => j,
            Err(faults) => {
                let why = faults.first().map_or_else(String::new, |f| f.message.clone());
                if let Some(d) = read(&at, Read::Unread { what: "the door", why: &why }, &mut sink) {
                    let loc = faults.first().map_or(key_loc, |f| f.loc);
                    door_places.add(d, loc, &format!("the door of {whose}"));
                }
                return located(sink);
            }
        };
        let arena = json::Arena::new();
        let Some(slot_json) = slot_schema(slot, &arena) else {
            unread_slot(&at, slot, &mut sink);
            return located(sink);
        };
        let door_json = spanned(&door, &arena);
        let mut caller_places = Places::new(caller);
        for finding in &compare(&slot_json, &door_json) {
            let Some(d) = worded(Subject::Dispatch { at: &at, finding }, &mut sink) else { continue };
            match finding.side {
                Side::Slot => slot_label(d, &slot.value, finding, &mut caller_places, slot.key_loc.file),
                Side::Door => {
                    let loc = loc_at(&door_value, &finding.path).unwrap_or(key_loc);
                    door_places.add(d, loc, &format!("the door of {whose}"));
                }
            }
        }
        located(sink)
    }

    /// A foreign dispatch: what its door's `GET` gave, and with a slot's schema, the comparison.
    fn foreign(
        &self,
        call: &Value<'_>,
        name: &str,
        key: &ForeignKey,
        slot: Option<&Prop<'_>>,
        caller: &[SourceFile],
    ) -> Vec<(FileId, Diagnostic)> {
        // Offline, or not read: nothing to say here (the CLI says so once).
        let Some(fetched) = self.foreign.get(key) else { return Vec::new() };
        let Some(url_value) = target_of(call).and_then(|t| t.get("url")) else { return Vec::new() };
        let address = door_url(&key.0, name);
        let at = AtDispatch {
            callee: name,
            input: slot.map(|s| s.key_loc),
            foreign: Some(Foreign { address: &address, url: url_value.loc }),
        };
        let mut sink = Sink::default();
        let status_text;
        let body = match fetched {
            Fetched::Unreachable { reason } => Err(Read::Unreachable { reason }),
            Fetched::Redirect { status, location } => {
                Err(Read::Redirect { status: *status, location: location.as_deref() })
            }
            Fetched::Answer { status: 404, .. } => Err(Read::Missing),
            Fetched::Answer { status, .. } if (300..400).contains(status) => {
                Err(Read::Redirect { status: *status, location: None })
            }
            Fetched::Answer { status, .. } if !(200..300).contains(status) => {
                status_text = format!("status {status}");
                Err(Read::NotDetail { what: &status_text })
            }
            Fetched::Answer { body, .. } => Ok(body),
        };
        let body = match body {
            Ok(body) => body,
            Err(what) => {
                read(&at, what, &mut sink);
                return located(sink);
            }
        };
        let arena = json::Arena::new();
        let door = match workflow_detail(body, name, &arena) {
            Ok(door) => door,
            Err(what) => {
                read(&at, Read::NotDetail { what: &what }, &mut sink);
                return located(sink);
            }
        };
        let Some(slot) = slot else { return Vec::new() };
        let Some(slot_json) = slot_schema(slot, &arena) else {
            unread_slot(&at, slot, &mut sink);
            return located(sink);
        };
        let mut caller_places = Places::new(caller);
        for finding in &compare(&slot_json, &door) {
            let Some(d) = worded(Subject::Dispatch { at: &at, finding }, &mut sink) else { continue };
            if finding.side == Side::Slot {
                slot_label(d, &slot.value, finding, &mut caller_places, slot.key_loc.file);
            }
        }
        located(sink)
    }
}

/// The door rules on one subject: the diagnostic that words it, if one does.
fn worded<'s>(subject: Subject<'_>, sink: &'s mut Sink) -> Option<&'s mut Diagnostic> {
    let before = sink.found().len();
    rules::compat::run(subject, sink);
    if sink.found().len() > before {
        sink.last_mut()
    } else {
        None
    }
}

/// What a dispatch's door gave short of a comparison, worded.
fn read<'s>(at: &AtDispatch<'_>, read: Read<'_>, sink: &'s mut Sink) -> Option<&'s mut Diagnostic> {
    worded(Subject::Read { at, read }, sink)
}

/// The warning for a slot's schema with no JSON Schema reading.
fn unread_slot(at: &AtDispatch<'_>, slot: &Prop<'_>, sink: &mut Sink) {
    let why = match to_json_schema_io(&slot.value, Io::Output) {
        Err(faults) => faults.first().map_or_else(String::new, |f| f.message.clone()),
        Ok(_) => String::new(),
    };
    read(at, Read::Unread { what: "the slot's schema", why: &why }, sink);
}

/// What a sink found, each diagnostic with its file.
fn located(sink: Sink) -> Vec<(FileId, Diagnostic)> {
    sink.into_located().into_iter().map(|l| (l.file, l.diagnostic)).collect()
}

/// The slot's schema as what is sent, spanned; `None` where zod has no JSON Schema reading.
fn slot_schema<'a>(slot: &Prop<'_>, arena: &'a json::Arena) -> Option<Json<'a>> {
    to_json_schema_io(&slot.value, Io::Output).ok().map(|j| spanned(&j, arena))
}

/// A JSON value as a spanned tree (its spans are in its own pretty-printed text; only paths are
/// read from them here); the text and the tree are in `arena`.
fn spanned<'a>(j: &serde_json::Value, arena: &'a json::Arena) -> Json<'a> {
    let text = arena.alloc_str(&serde_json::to_string(j).unwrap_or_else(|_| "{}".to_string()));
    json::parse(text, arena).value
}

/// A slot finding also points at the slot's field it is about: a secondary label in the
/// dispatch's file, or related information where the schema is written in another file.
fn slot_label(d: &mut Diagnostic, slot: &Value<'_>, f: &Finding, caller: &mut Places<'_>, file: FileId) {
    let Some(loc) = loc_at(slot, &f.path) else { return };
    let what = if f.path.is_empty() { "the slot's schema".to_string() } else { format!("the slot's {}", f.path) };
    if loc.file == file {
        d.secondary.push(Label { span: loc.span, message: what });
    } else {
        caller.add(d, loc, &what);
    }
}

/// Related information into a compilation's files: each file's text and line index made once,
/// however many places point into it (a door's findings often share a file).
struct Places<'f> {
    files: &'f [SourceFile],
    indexed: FxHashMap<u32, (Cow<'f, str>, LineIndex)>,
}

impl<'f> Places<'f> {
    fn new(files: &'f [SourceFile]) -> Self {
        Places { files, indexed: FxHashMap::default() }
    }

    /// A place in one of the files: `what` is there.
    fn add(&mut self, d: &mut Diagnostic, loc: Loc, what: &str) {
        let Some(file) = self.files.get(loc.file.0 as usize) else { return };
        let (text, index) = self.indexed.entry(loc.file.0).or_insert_with(|| {
            // A clean Workflow's text may have been freed (`instance.rs`): read from disk again.
            let text = if file.text.is_empty() {
                Cow::Owned(base::read::read_text(&file.path).unwrap_or_default())
            } else {
                Cow::Borrowed(file.text.as_str())
            };
            let index = LineIndex::new(&text);
            (text, index)
        });
        d.add_related(shown(&file.path), text, index, loc.span, what);
    }
}

/// A path as the CLI shows it: `/` separators, no leading `./`.
fn shown(path: &std::path::Path) -> String {
    let text = path.to_string_lossy().replace('\\', "/");
    let mut s = text.as_str();
    while let Some(rest) = s.strip_prefix("./") {
        s = rest;
    }
    s.to_string()
}

/// The door a Workflow detail serves: a JSON object whose `name` (where given) is the Workflow's
/// and whose `input` is its JSON Schema, an object. `Err` says what the body is instead.
fn workflow_detail<'a>(body: &'a str, name: &str, arena: &'a json::Arena) -> Result<Json<'a>, String> {
    let parsed = json::parse(body, arena);
    if !parsed.errors.is_empty() || serde_json::from_str::<serde_json::Value>(body).is_err() {
        let start: String = body.chars().take(40).collect();
        return Err(format!("a body that is not JSON ({start:?})"));
    }
    let doc = parsed.value;
    if !doc.is_object() {
        return Err(format!("a JSON {}, not an object", doc.type_name()));
    }
    match doc.get("name") {
        Some(n) if n.as_str() != Some(name) => {
            let shown = n.as_str().map_or_else(|| format!("a {}", n.type_name()), |s| format!("{s:?}"));
            return Err(format!("the detail of another Workflow ({shown} as its \"name\")"));
        }
        _ => {}
    }
    match doc.member("input") {
        Some(m) if m.value.is_object() => Ok(m.value.clone()),
        Some(m) => Err(format!("an object whose \"input\" is a {}, not a JSON Schema object", m.value.type_name())),
        None => Err("an object with no \"input\" schema".to_string()),
    }
}

/// Is this value a Chart field's schema: the kit's `chartSchema`, or `chartSchemaFor(...)`, with
/// any method around it (`.describe(...)`)?
fn is_chart_field(v: &Value<'_>) -> bool {
    match v.kind {
        ValueKind::Imported { callee: Callee::Kit(n) } => n == "chartSchema",
        ValueKind::Call(c) => match c.callee {
            Callee::Method(_) => c.receiver.as_ref().is_some_and(is_chart_field),
            _ => is_call(v, "chartSchemaFor"),
        },
        _ => false,
    }
}

/// A wrapper's door without its Chart fields: a named Chart comes by its name, never in the body.
/// The calls edited on the way (the schema's, down its receivers) are new ones in `arena`; the
/// rest is shared with `v`, which stays as it is.
fn strip_chart_fields<'a>(v: &Value<'a>, arena: &'a Arena) -> Value<'a> {
    let ValueKind::Call(c) = v.kind else { return *v };
    let shape =
        matches!(c.callee, Callee::Zod("object" | "strictObject" | "looseObject") | Callee::Method("extend" | "merge"));
    let mut args = c.args;
    if shape {
        if let Some((first, rest)) = c.args.split_first() {
            if let ValueKind::Object { props } = first.kind {
                let kept: Vec<Prop<'a>> = props.iter().filter(|p| !is_chart_field(&p.value)).copied().collect();
                let mut edited = Vec::with_capacity(c.args.len());
                edited.push(Value::new(ValueKind::Object { props: arena.props(&kept) }, first.loc));
                edited.extend_from_slice(rest);
                args = arena.values(&edited);
            }
        }
    }
    let receiver = c.receiver.map(|r| strip_chart_fields(&r, arena));
    Value::new(ValueKind::Call(arena.call(Call { callee: c.callee, receiver, args })), v.loc)
}

/// The place of the part of a zod schema a finding's path names (`properties.a.items`): the key
/// of the property, or the schema of the items; the nearest place found on the way down.
fn loc_at(schema: &Value<'_>, path: &str) -> Option<Loc> {
    let mut cur = schema;
    let mut found = cur.loc;
    let mut segments = path.split('.').filter(|s| !s.is_empty());
    while let Some(seg) = segments.next() {
        match seg {
            "properties" => {
                let Some(key) = segments.next() else { break };
                let Some(p) = property(cur, key) else { break };
                found = p.key_loc;
                cur = &p.value;
            }
            "items" => {
                let Some(items) = items_of(cur) else { break };
                found = items.loc;
                cur = items;
            }
            _ => break,
        }
    }
    Some(found)
}

/// The property `key` of an object schema: the last one written wins (`.extend` over its
/// receiver), through the methods around it.
fn property<'v>(v: &Value<'v>, key: &str) -> Option<&'v Prop<'v>> {
    let c = v.as_call()?;
    let own = |a: Option<&'v Value<'v>>| a.and_then(Value::props).and_then(|ps| ps.iter().rev().find(|p| p.key == key));
    match c.callee {
        Callee::Zod("object" | "strictObject" | "looseObject") => own(c.args.first()),
        Callee::Method("extend" | "merge") => {
            own(c.args.first()).or_else(|| c.receiver.as_ref().and_then(|r| property(r, key)))
        }
        Callee::Method(_) => c.receiver.as_ref().and_then(|r| property(r, key)),
        _ => None,
    }
}

/// The items' schema of an array schema: `z.array(x)`, `x.array()`, through the methods around it.
fn items_of<'v>(v: &Value<'v>) -> Option<&'v Value<'v>> {
    let c = v.as_call()?;
    match c.callee {
        Callee::Zod("array") => c.args.first(),
        Callee::Method("array") => c.receiver.as_ref(),
        Callee::Method(_) => c.receiver.as_ref().and_then(items_of),
        _ => None,
    }
}

/// The foreign doors of an Instance's `dispatch(...)` calls, each distinct `(url, name)` once,
/// in order.
pub fn foreign_keys<'v>(calls: impl Iterator<Item = Value<'v>>) -> Vec<ForeignKey> {
    let mut keys = BTreeMap::new();
    for call in calls {
        if let Some(key) = foreign_target(&call) {
            keys.insert(key, ());
        }
    }
    keys.into_keys().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn door_urls() {
        assert_eq!(door_url("https://ops.example.com", "review"), "https://ops.example.com/workflows/review");
        assert_eq!(
            door_url("http://127.0.0.1:8080/", "task/review-loop"),
            "http://127.0.0.1:8080/workflows/task/review-loop"
        );
        assert_eq!(door_url("http://h", "a b?"), "http://h/workflows/a%20b%3F");
    }

    #[test]
    fn workflow_details() {
        let arena = json::Arena::new();
        let door = workflow_detail(r#"{ "name": "review", "input": { "type": "object" } }"#, "review", &arena).unwrap();
        assert_eq!(door.get("type").and_then(Json::as_str), Some("object"));
        assert!(workflow_detail(r#"{ "input": { } }"#, "review", &arena).is_ok());
        let no = |body: &str| workflow_detail(body, "review", &json::Arena::new()).unwrap_err();
        assert_eq!(no("<html>hi</html>"), "a body that is not JSON (\"<html>hi</html>\")");
        assert_eq!(no("[1]"), "a JSON array, not an object");
        assert_eq!(
            no(r#"{ "name": "other", "input": {} }"#),
            "the detail of another Workflow (\"other\" as its \"name\")"
        );
        assert_eq!(no(r#"{ "name": "review" }"#), "an object with no \"input\" schema");
        assert_eq!(no(r#"{ "input": true }"#), "an object whose \"input\" is a boolean, not a JSON Schema object");
    }
}
