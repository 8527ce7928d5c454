use crate::door::Chart;
use crate::rules::{Ctx, Sink};
use base::path::{names, push_segment, Segment};
use diagnostics::declare_rule;
use ir::expr::{placeholders, Root};
use base::small_set::Lookup;
use std::cell::OnceCell;
use syntax::json::{same_key, Json, JsonKind};

declare_rule! {
    /// Refuses a reference that reads nothing: a root or a key that its Chart, input or event lacks.
    ///
    /// That is a root other than `context`, `input` or `event`, or a key the Chart's `context`,
    /// the Open body's input, or the event does not have.
    ///
    /// ## Why
    /// A reference is `{ "$ref": "context.round" }` as a whole value or `{{input.topic}}` inside
    /// a string. Its value is read when the state runs; a key that is not there would be
    /// `undefined` in an Agent's prompt or an Effect's input, silently. The door checks what it
    /// can know: the `context` keys the Chart declares, the Open body's input keys where the
    /// manifest gives `inputKeys`, and, in a transition of `on.<event>`, the fields of that
    /// event's `input` schema (and `type`).
    ///
    /// ## Example
    /// With `"context": { "round": 0 }`:
    /// ```json
    /// { "invoke": { "src": "writer", "input": { "prompt": "Round {{context.rounds}}." } } }
    /// ```
    /// is refused: `states.a.invoke.input.prompt: "context.rounds" is not a key of the Chart's
    /// context; its keys: round`.
    ///
    /// ## Use instead
    /// `"Round {{context.round}}."`
    pub static UNKNOWN_REFERENCE = { code: "unknown-reference", rule: Some(7), severity: Error };
}

/// Calls `f` with each reference text below the template value at `base`, then `head` and `tail`
/// (`states.a.on.done.0`, `actions` and `0`, `params`): its path, the value holding it, and the
/// reference's text (`context.round`). The walk's path is built in `buf` (the rule's one buffer,
/// for every value it walks), made by no `join` of its own.
fn references<'a>(
    buf: &mut String,
    base: &str,
    [head, tail]: [&[&dyn Segment]; 2],
    v: &'a Json<'a>,
    f: &mut dyn FnMut(&str, &'a Json<'a>, &str),
) {
    buf.clear();
    write_path(buf, base, head.iter().chain(tail));
    walk(buf, v, f);
}

/// `base` and then each segment, as a dotted path, onto `buf`.
fn write_path<'s>(buf: &mut String, base: &str, segments: impl Iterator<Item = &'s &'s dyn Segment>) {
    buf.push_str(base);
    for segment in segments {
        push_segment(&mut *buf, segment);
    }
}

/// `base` and `segments` as one dotted path: where a guard inside a guard starts.
fn joined(base: &str, segments: &[&dyn Segment]) -> String {
    let mut path = String::new();
    write_path(&mut path, base, segments.iter());
    path
}

/// One path buffer for the whole walk: a segment is pushed going down and cut coming back.
fn walk<'a>(path: &mut String, v: &'a Json<'a>, f: &mut dyn FnMut(&str, &'a Json<'a>, &str)) {
    if let Some(r) = chart::lower::whole_ref(v) {
        f(path, v, r);
        return;
    }
    let mut down = |path: &mut String, segment: &dyn Segment, item: &'a Json<'a>| {
        let len = push_segment(path, segment);
        walk(path, item, f);
        path.truncate(len);
    };
    match &v.kind {
        JsonKind::String(s) if chart::lower::has_placeholder(s) => {
            for (_, inner) in placeholders(s) {
                f(path, v, inner);
            }
        }
        JsonKind::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                down(path, &i, item);
            }
        }
        JsonKind::Object(_) => {
            for m in v.entries() {
                down(path, &m.key, &m.value);
            }
        }
        _ => {}
    }
}

struct Scope<'a> {
    /// The path of the transition being read, if any: in a transition of `on.<event>`, the
    /// event's declared fields are looked up when an `event.*` reference needs them.
    transition: Option<&'a str>,
    /// That event's index in the Chart's declared events, looked up by the first `event.*`
    /// reference that needs it (a transition may hold several).
    event: OnceCell<Option<usize>>,
}

impl Scope<'_> {
    fn event(&self, events: &[Event]) -> Option<usize> {
        *self.event.get_or_init(|| {
            let name = event_name(self.transition?)?;
            events.iter().position(|(e, _)| same_key(e, name))
        })
    }
}

/// A declared event: its name and its payload's fields (`input.properties`).
type Event<'a> = (&'a str, Vec<&'a str>);

/// The Chart's declared events, read once for the Chart (when a reference first needs them),
/// not once for each transition.
fn declared_events<'a>(chart: &'a Json<'a>) -> Vec<Event<'a>> {
    let fields = |event: &'a Json<'a>| -> Vec<&'a str> {
        let properties = event.get("input").and_then(|i| i.get("properties"));
        properties.map(|p| p.entries().map(|m| m.key).collect()).unwrap_or_default()
    };
    chart.get("events").map(|e| e.entries().map(|m| (m.key, fields(&m.value))).collect()).unwrap_or_default()
}

/// The event of a transition path `….on.<event>…`: the segment after its last `on`.
fn event_name(path: &str) -> Option<&str> {
    let mut after = None;
    for segment in path.rsplit('.') {
        if segment == "on" {
            return after;
        }
        after = Some(segment);
    }
    None
}

pub(crate) fn check(cx: &Ctx<Chart>, sink: &mut Sink) {
    // Each list as a set for the lookups and its names made once, for the messages: a Chart may
    // have many keys and many references.
    let context_keys: Vec<&str> = cx.chart.get("context").map(|c| c.entries().map(|m| m.key).collect()).unwrap_or_default();
    let is_context_key = Lookup::new(&context_keys);
    let context_names = OnceCell::new();
    let input_keys = cx.manifest.and_then(|m| m.input_keys.as_ref());
    let is_input_key = input_keys.map(|keys| Lookup::new(keys));
    let input_names = OnceCell::new();
    let events = OnceCell::new();
    let mut buf = String::with_capacity(128);
    let mut check_value = |path: &str, segments: [&[&dyn Segment]; 2], v: &Json, scope: &Scope, sink: &mut Sink| {
        references(&mut buf, path, segments, v, &mut |p, at, text| {
            let mut segs = text.split('.');
            let root = segs.next().unwrap_or_default();
            let key = segs.next();
            let fault = match Root::parse(root) {
                None => Some(format!(
                    "\"{text}\" reads \"{root}\"; a reference reads context, input or event (like {{{{input.topic}}}} or {{ \"$ref\": \"context.round\" }})"
                )),
                Some(_) if key.is_some_and(str::is_empty) || text.ends_with('.') => {
                    Some(format!("\"{text}\" is not a reference: a path is dot-separated keys"))
                }
                Some(Root::Context) => key.filter(|k| !is_context_key.contains(k)).map(|k| {
                    let keys = context_names.get_or_init(|| names(&context_keys));
                    format!("\"context.{k}\" is not a key of the Chart's context; its keys: {keys}")
                }),
                Some(Root::Input) => match (key, input_keys, &is_input_key) {
                    (Some(k), Some(keys), Some(is_key)) if !is_key.contains(k) => {
                        let keys = input_names.get_or_init(|| names(keys));
                        Some(format!("\"input.{k}\" is not a key of the Open body's input; its keys: {keys}"))
                    }
                    _ => None,
                },
                Some(Root::Event) => {
                    let events = events.get_or_init(|| declared_events(cx.chart));
                    match (key, scope.event(events).map(|i| &events[i])) {
                        (Some(k), Some((name, fields))) if k != "type" && !fields.contains(&k) => Some(format!(
                            "\"event.{k}\" is not a field of the event \"{name}\"; its fields: {}",
                            names(std::iter::once("type").chain(fields.iter().copied()))
                        )),
                        _ => None,
                    }
                }
                // `Root::parse` reads a Chart's three roots only.
                Some(Root::Params) => None,
            };
            if let Some(text) = fault {
                sink.line(&UNKNOWN_REFERENCE, at.span, p, text);
            }
        });
    };
    let none = Scope { transition: None, event: OnceCell::new() };
    for inv in cx.invokes() {
        if let Some(input) = inv.json.get("input") {
            check_value(inv.path, [&[], &[&"input"]], input, &none, sink);
        }
    }
    for id in cx.machine.ids() {
        let path = cx.map.state_path(id);
        if let Some(out) = cx.state_json(id).get("output") {
            check_value(path, [&[], &[&"output"]], out, &none, sink);
        }
    }
    for (path, a) in cx.entry_exit_actions() {
        check_action(&path, &[], a, &none, sink, &mut check_value);
    }
    for t in cx.transitions() {
        let scope = Scope { transition: Some(t.path), event: OnceCell::new() };
        if let Some(g) = t.json.get("guard") {
            walk_guard(t.path, &[&"guard"], g, &scope, sink, &mut check_value);
        }
        if let Some(actions) = t.json.get("actions") {
            match actions.as_array() {
                Some(list) => {
                    for (i, a) in list.iter().enumerate() {
                        check_action(t.path, &[&"actions", &i], a, &scope, sink, &mut check_value);
                    }
                }
                None => check_action(t.path, &[&"actions"], actions, &scope, sink, &mut check_value),
            }
        }
    }
}

/// The references of a value at a path, a base and its segments in two parts (see [`references`]).
type CheckValue<'c> = dyn FnMut(&str, [&[&dyn Segment]; 2], &Json, &Scope, &mut Sink) + 'c;

/// The references of the action at `base` and then `head`.
fn check_action(base: &str, head: &[&dyn Segment], a: &Json, scope: &Scope, sink: &mut Sink, f: &mut CheckValue) {
    if let Some(params) = a.get("params") {
        f(base, [head, &[&"params"]], params, scope, sink);
    }
    if let Some(assign) = a.get("assign") {
        for m in assign.entries() {
            f(base, [head, &[&"assign", &m.key]], &m.value, scope, sink);
        }
    }
}

/// The references of the guard at `base` and then `head`, and of the guards inside it.
fn walk_guard(base: &str, head: &[&dyn Segment], g: &Json, scope: &Scope, sink: &mut Sink, f: &mut CheckValue) {
    if let Some(inner) = g.get("not") {
        walk_guard(&joined(base, head), &[&"not"], inner, scope, sink, f);
    }
    for key in ["and", "or"] {
        let Some(list) = g.get(key).and_then(Json::as_array) else { continue };
        let here = joined(base, head);
        for (i, inner) in list.iter().enumerate() {
            walk_guard(&here, &[&key, &i], inner, scope, sink, f);
        }
    }
    if g.get("type").and_then(Json::as_str) == Some("jr2.sentBy") {
        return;
    }
    if let Some(params) = g.get("params") {
        f(base, [head, &[&"params"]], params, scope, sink);
    }
}
