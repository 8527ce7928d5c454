use base::path::Path;
use base::Span;
use chart::grammar::{is_context_path, is_delay, is_name, FAILURE_GUARD, READY_GUARD, SENT_BY};
use diagnostics::declare_rule;
use diagnostics::Diagnostic;
use crate::door::Tree;
use crate::rules::{Ctx, Sink};
use syntax::json::{same_key, Json, JsonKind};

declare_rule! {
    /// Refuses a Chart that is not written in the Chart grammar.
    ///
    /// The grammar is `grammar/chart.schema.json` (`jr2 schema chart`): a Chart object with at
    /// least one state; states, invokes, transitions, guards and actions of the shapes it names;
    /// no key it does not know; names (state keys, event names, Agent names, invoke ids) of
    /// letters, digits, `_` and `-`, starting with a letter or `_`, at most 64 characters. Every
    /// fault is reported, each at its own path, like `states.review.invoke.0.src`.
    ///
    /// ## Why
    /// A Chart is data a planner model writes, and xstate reads it literally: a misspelt key
    /// (`onDon`) is not an error there but a transition that never happens, and a state key with a
    /// `.` is two states to xstate. The door refuses such a Chart before it runs, and the grammar
    /// is the same one the planner's tool gets, so what passes here is what it was asked for.
    ///
    /// ## Example
    /// ```json
    /// { "states": { "a": { "type": "finall", "onDon": "b" }, "b": { "type": "final" } } }
    /// ```
    /// `states.a.type: expected "parallel" or "final", got "finall"` and
    /// `states.a: unknown key "onDon"; did you mean "onDone"?`
    ///
    /// ## Use instead
    /// ```json
    /// { "states": { "a": { "states": { "x": { "type": "final" } }, "onDone": "b" }, "b": { "type": "final" } } }
    /// ```
    pub static CHART_GRAMMAR = { code: "chart-grammar", rule: Some(1), severity: Error };
}

/// Every grammar fault of a parsed Chart. `Error` nodes (the parser's own faults) are skipped.
pub(crate) fn check(cx: &Ctx<Tree>, sink: &mut Sink) {
    Walker { sink }.chart(cx.chart);
}

/// The grammar's faults of a parsed Chart alone (its benchmark and tests).
pub fn faults(chart: &Json) -> Vec<Diagnostic> {
    let mut sink = Sink::default();
    Walker { sink: &mut sink }.chart(chart);
    sink.into_diagnostics()
}

/// The keys an object of the grammar takes: the list (for the lines, in the grammar's order) and
/// a test of one key, a `match` the compiler turns into a switch on the length and compares with
/// constants, where a search of the list compared each key with every name before it (every key
/// of every object of a Chart is tested).
struct KeySet {
    keys: &'static [&'static str],
    has: fn(&str) -> bool,
}

macro_rules! key_set {
    ($name:ident = [$($key:literal),* $(,)?]) => {
        const $name: KeySet = KeySet { keys: &[$($key),*], has: |k| matches!(k, $($key)|*) };
    };
}

key_set!(ROOT_KEYS = [
    "id",
    "description",
    "initial",
    "type",
    "context",
    "events",
    "agents",
    "states",
    "on",
    "after",
    "always",
    "onDone",
    "invoke",
    "entry",
    "exit",
    "output",
]);
key_set!(STATE_KEYS = [
    "type",
    "id",
    "description",
    "initial",
    "states",
    "invoke",
    "on",
    "after",
    "always",
    "entry",
    "exit",
    "onDone",
    "output",
]);
key_set!(EVENT_KEYS = ["description", "input", "audience"]);
key_set!(AGENT_KEYS = ["model", "instructions", "workspace"]);
key_set!(TRANSITION_KEYS = ["target", "guard", "actions", "reenter", "description"]);
key_set!(INVOKE_KEYS = ["src", "id", "input", "onDone", "onError"]);
key_set!(PARAM_GUARD_KEYS = ["type", "params"]);

struct Walker<'s> {
    sink: &'s mut Sink,
}

/// What a value is, for "got …": a string's text, else its JSON type.
fn got(v: &Json) -> String {
    match &v.kind {
        JsonKind::String(s) => serde_json::to_string(s).unwrap_or_default(),
        _ => v.type_name().to_string(),
    }
}

/// `"a"`, `"a" or "b"`, `"a", "b" or "c"`.
fn either(options: &[&str]) -> String {
    let quoted: Vec<String> = options.iter().map(|o| format!("\"{o}\"")).collect();
    match quoted.split_last() {
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        None => String::new(),
    }
}

fn is_error(v: &Json) -> bool {
    matches!(v.kind, JsonKind::Error)
}

/// The edit distance of two keys, for "did you mean".
fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let here = row[j + 1];
            row[j + 1] = if ca == *cb { prev } else { 1 + prev.min(row[j]).min(row[j + 1]) };
            prev = here;
        }
    }
    row[b.len()]
}

/// The known key closest to `key`, if it is close enough to be a slip.
fn suggest<'k>(key: &str, known: &[&'k str]) -> Option<&'k str> {
    let lower = key.to_ascii_lowercase();
    known
        .iter()
        .map(|k| (distance(&lower, &k.to_ascii_lowercase()), *k))
        .filter(|(d, k)| *d <= 2.min(k.len().saturating_sub(1)).max(1))
        .min_by_key(|(d, _)| *d)
        .map(|(_, k)| k)
}

impl Walker<'_> {
    fn fault(&mut self, span: Span, path: &Path<'_>, what: impl std::fmt::Display) {
        self.sink.line(&CHART_GRAMMAR, span, &path.to_string(), what);
    }

    /// The object's keys against the known ones: unknown keys (with a close known key, if any)
    /// and missing required keys.
    fn keys(&mut self, v: &Json, path: &Path<'_>, what: &str, known: &[&str], required: &[&str]) {
        self.keys_by(v, path, what, known, |k| known.iter().any(|x| same_key(x, k)), required);
    }

    /// [`Walker::keys`] of an object of the grammar, whose keys are a [`KeySet`].
    fn key_set(&mut self, v: &Json, path: &Path<'_>, what: &str, set: &KeySet, required: &[&str]) {
        self.keys_by(v, path, what, set.keys, set.has, required);
    }

    /// [`Walker::keys`], `has` telling a known key.
    fn keys_by(
        &mut self,
        v: &Json,
        path: &Path<'_>,
        what: &str,
        known: &[&str],
        has: impl Fn(&str) -> bool,
        required: &[&str],
    ) {
        for m in v.entries() {
            if has(m.key) {
                continue;
            }
            let hint = match suggest(m.key, known) {
                Some(k) => format!("did you mean \"{k}\"?"),
                None => format!("{what} takes {}", known.join(", ")),
            };
            self.fault(m.key_span, path, format!("unknown key \"{}\"; {hint}", m.key));
        }
        for r in required {
            if v.get(r).is_none() {
                self.fault(v.span, path, format!("missing required key \"{r}\""));
            }
        }
    }

    /// An object, or a fault; `None` for a non-object (and for an `Error` node, silently).
    fn object<'j>(&mut self, v: &'j Json<'j>, path: &Path<'_>, what: &str) -> Option<&'j Json<'j>> {
        match v.kind {
            JsonKind::Object(_) => Some(v),
            JsonKind::Error => None,
            _ => {
                self.fault(v.span, path, format!("expected {what}, got {}", got(v)));
                None
            }
        }
    }

    fn string(&mut self, v: &Json, path: &Path<'_>) {
        if !is_error(v) && v.as_str().is_none() {
            self.fault(v.span, path, format!("expected a string, got {}", got(v)));
        }
    }

    fn boolean(&mut self, v: &Json, path: &Path<'_>) {
        if !is_error(v) && v.as_bool().is_none() {
            self.fault(v.span, path, format!("expected a boolean, got {}", got(v)));
        }
    }

    fn one_of(&mut self, v: &Json, path: &Path<'_>, options: &[&str]) {
        if is_error(v) || v.as_str().is_some_and(|s| options.contains(&s)) {
            return;
        }
        self.fault(v.span, path, format!("expected {}, got {}", either(options), got(v)));
    }

    fn name(&mut self, v: &Json, path: &Path<'_>) {
        match &v.kind {
            JsonKind::Error => {}
            JsonKind::String(s) if is_name(s) => {}
            JsonKind::String(s) => self.not_a_name(v.span, path, s),
            _ => self.fault(v.span, path, format!("expected a name, got {}", got(v))),
        }
    }

    fn not_a_name(&mut self, span: Span, path: &Path<'_>, s: &str) {
        self.fault(
            span,
            path,
            format!(
                "\"{s}\" is not a name: a letter or \"_\", then letters, digits, \"_\" or \"-\", at most 64 characters (no \".\")"
            ),
        );
    }

    /// A map keyed by names; `value` checks each value.
    fn name_map(&mut self, v: &Json, path: &Path<'_>, value: fn(&mut Self, &Json, &Path<'_>)) {
        let Some(v) = self.object(v, path, "an object") else { return };
        for m in v.entries() {
            let at = path.child(m.key);
            if !is_name(m.key) {
                self.not_a_name(m.key_span, &at, m.key);
            }
            value(self, &m.value, &at);
        }
    }

    // --- the Chart and its states ---------------------------------------------------------------

    fn chart(&mut self, v: &Json) {
        let Some(v) = self.object(v, &Path::ROOT, "a Chart object") else { return };
        self.key_set(v, &Path::ROOT, "a Chart", &ROOT_KEYS, &["states"]);
        for m in v.entries() {
            let at = Path::ROOT.child(m.key);
            let x = &m.value;
            match m.key {
                "id" | "initial" => self.name(x, &at),
                "description" => self.string(x, &at),
                "type" => self.one_of(x, &at, &["parallel"]),
                "context" => {
                    self.object(x, &at, "an object");
                }
                "events" => self.name_map(x, &at, Self::event),
                "agents" => self.name_map(x, &at, Self::agent),
                "states" => self.states(x, &at, "a Chart has at least one state"),
                "output" => self.template(x, &at),
                _ => self.common(m.key, x, &at),
            }
        }
    }

    /// The keys a Chart and a state share.
    fn common(&mut self, key: &str, x: &Json, at: &Path<'_>) {
        match key {
            "on" => self.on(x, at),
            "after" => self.after(x, at),
            "always" | "onDone" => self.transitions(x, at),
            "invoke" => self.invokes(x, at),
            "entry" | "exit" => self.actions(x, at),
            _ => {}
        }
    }

    fn states(&mut self, v: &Json, path: &Path<'_>, empty: &str) {
        let Some(obj) = self.object(v, path, "an object of states") else { return };
        if obj.entries().next().is_none() {
            self.fault(obj.span, path, empty);
        }
        self.name_map(obj, path, Self::state);
    }

    fn state(&mut self, v: &Json, path: &Path<'_>) {
        let Some(v) = self.object(v, path, "a state object") else { return };
        self.key_set(v, path, "a state", &STATE_KEYS, &[]);
        for m in v.entries() {
            let at = path.child(m.key);
            let x = &m.value;
            match m.key {
                "type" => self.one_of(x, &at, &["parallel", "final"]),
                "id" | "description" => self.string(x, &at),
                "initial" => self.name(x, &at),
                "states" => self.states(x, &at, "a state with `states` has at least one"),
                "output" => {
                    if v.get("type").and_then(Json::as_str) != Some("final") {
                        self.fault(x.span, &at, "only a state with \"type\": \"final\" has output");
                    }
                    self.template(x, &at);
                }
                _ => self.common(m.key, x, &at),
            }
        }
    }

    fn event(&mut self, v: &Json, path: &Path<'_>) {
        let Some(v) = self.object(v, path, "an event object") else { return };
        self.key_set(v, path, "an event", &EVENT_KEYS, &["input"]);
        for m in v.entries() {
            let at = path.child(m.key);
            match m.key {
                "description" => self.string(&m.value, &at),
                "input" => {
                    self.object(&m.value, &at, "a JSON Schema object");
                }
                "audience" => self.one_of(&m.value, &at, &["agent", "external"]),
                _ => {}
            }
        }
    }

    fn agent(&mut self, v: &Json, path: &Path<'_>) {
        let Some(v) = self.object(v, path, "an Agent object") else { return };
        self.key_set(v, path, "an Agent", &AGENT_KEYS, AGENT_KEYS.keys);
        for m in v.entries() {
            let at = path.child(m.key);
            match m.key {
                "model" | "instructions" => self.string(&m.value, &at),
                "workspace" => self.one_of(&m.value, &at, &["none", "read", "write"]),
                _ => {}
            }
        }
    }

    // --- transitions ----------------------------------------------------------------------------

    fn on(&mut self, v: &Json, path: &Path<'_>) {
        let Some(v) = self.object(v, path, "an object of events to transitions") else { return };
        for m in v.entries() {
            let at = path.child(m.key);
            if m.key.is_empty() {
                self.fault(m.key_span, path, "an event name is not empty");
            }
            self.transitions(&m.value, &at);
        }
    }

    fn after(&mut self, v: &Json, path: &Path<'_>) {
        let Some(v) = self.object(v, path, "an object of delays to transitions") else { return };
        for m in v.entries() {
            let at = path.child(m.key);
            if !is_delay(m.key) {
                self.fault(
                    m.key_span,
                    &at,
                    format!(
                        "\"{}\" is not a delay: a lent delay's name, or a duration like \"500ms\", \"30s\", \"5m\", \"1h\" or \"1000\"",
                        m.key
                    ),
                );
            }
            self.transitions(&m.value, &at);
        }
    }

    fn transitions(&mut self, v: &Json, path: &Path<'_>) {
        match &v.kind {
            JsonKind::Error | JsonKind::String(_) => {}
            JsonKind::Object(_) => self.transition_object(v, path),
            JsonKind::Array(items) => {
                for (i, item) in items.iter().enumerate() {
                    let at = path.child(i);
                    match item.kind {
                        JsonKind::Error | JsonKind::String(_) => {}
                        JsonKind::Object(_) => self.transition_object(item, &at),
                        _ => self.fault(
                            item.span,
                            &at,
                            format!("expected a target string or a transition object, got {}", got(item)),
                        ),
                    }
                }
            }
            _ => self.fault(
                v.span,
                path,
                format!("expected a target string, a transition object or a list of them, got {}", got(v)),
            ),
        }
    }

    fn transition_object(&mut self, v: &Json, path: &Path<'_>) {
        self.key_set(v, path, "a transition", &TRANSITION_KEYS, &[]);
        for m in v.entries() {
            let at = path.child(m.key);
            match m.key {
                "target" | "description" => self.string(&m.value, &at),
                "guard" => self.guard(&m.value, &at),
                "actions" => self.actions(&m.value, &at),
                "reenter" => self.boolean(&m.value, &at),
                _ => {}
            }
        }
    }

    // --- invokes --------------------------------------------------------------------------------

    fn invokes(&mut self, v: &Json, path: &Path<'_>) {
        match &v.kind {
            JsonKind::Error => {}
            JsonKind::Object(_) => self.invoke(v, path),
            JsonKind::Array(items) => {
                for (i, item) in items.iter().enumerate() {
                    let at = path.child(i);
                    if self.object(item, &at, "an invoke object").is_some() {
                        self.invoke(item, &at);
                    }
                }
            }
            _ => self.fault(v.span, path, format!("expected an invoke object or a list of them, got {}", got(v))),
        }
    }

    fn invoke(&mut self, v: &Json, path: &Path<'_>) {
        self.key_set(v, path, "an invoke", &INVOKE_KEYS, &["src"]);
        for m in v.entries() {
            let at = path.child(m.key);
            match m.key {
                "src" => self.string(&m.value, &at),
                "id" => self.name(&m.value, &at),
                "input" => self.template(&m.value, &at),
                "onDone" | "onError" => self.transitions(&m.value, &at),
                _ => {}
            }
        }
    }

    // --- guards ---------------------------------------------------------------------------------

    fn guard(&mut self, v: &Json, path: &Path<'_>) {
        match &v.kind {
            JsonKind::Error => {}
            JsonKind::String(s) if *s == SENT_BY => {
                self.fault(v.span, path, format!("\"{SENT_BY}\" takes params {{ id }}"));
            }
            JsonKind::String(_) => {}
            JsonKind::Object(_) => self.guard_object(v, path),
            _ => self.fault(v.span, path, format!("expected a guard name or a guard object, got {}", got(v))),
        }
    }

    fn guard_object(&mut self, v: &Json, path: &Path<'_>) {
        for combinator in ["not", "and", "or"] {
            let Some(inner) = v.get(combinator) else { continue };
            self.keys(v, path, "this guard", &[combinator], &[]);
            let at = path.child(combinator);
            if combinator == "not" {
                self.guard(inner, &at);
            } else {
                match &inner.kind {
                    JsonKind::Error => {}
                    JsonKind::Array(items) => {
                        for (i, g) in items.iter().enumerate() {
                            self.guard(g, &at.child(i));
                        }
                    }
                    _ => self.fault(inner.span, &at, format!("expected a list of guards, got {}", got(inner))),
                }
            }
            return;
        }
        let Some(kind) = v.get("type") else {
            self.fault(
                v.span,
                path,
                "a guard object has \"type\" (and \"params\" where it takes them), \"not\", \"and\" or \"or\"",
            );
            return;
        };
        self.key_set(v, path, "a guard", &PARAM_GUARD_KEYS, &[]);
        let params = v.member("params");
        match kind.as_str() {
            Some(SENT_BY) => match params {
                // zod 4's union reports the one arm that failed a refinement only: the lent
                // guard's `{ type, params? }`, whose `type` may not be `jr2.sentBy`.
                None => self.fault(kind.span, &path.child("type"), format!("\"{SENT_BY}\" takes params {{ id }}")),
                Some(p) => {
                    let at = path.child("params");
                    if let Some(p) = self.object(&p.value, &at, "params { id }") {
                        self.keys(p, &at, "jr2.sentBy's params", &["id"], &["id"]);
                        if let Some(id) = p.get("id") {
                            self.string(id, &at.child("id"));
                        }
                    }
                }
            },
            Some(FAILURE_GUARD | READY_GUARD) => {
                if let Some(p) = params {
                    self.fault(p.value.span, &path.child("params"), "that guard takes no params");
                }
            }
            Some(_) => {
                if let Some(p) = params {
                    self.template(&p.value, &path.child("params"));
                }
            }
            None => {
                self.string(kind, &path.child("type"));
                if let Some(p) = params {
                    self.template(&p.value, &path.child("params"));
                }
            }
        }
    }

    // --- actions --------------------------------------------------------------------------------

    fn actions(&mut self, v: &Json, path: &Path<'_>) {
        match &v.kind {
            JsonKind::Error | JsonKind::String(_) => {}
            JsonKind::Object(_) => self.action_object(v, path),
            JsonKind::Array(items) => {
                for (i, item) in items.iter().enumerate() {
                    let at = path.child(i);
                    match item.kind {
                        JsonKind::Error | JsonKind::String(_) => {}
                        JsonKind::Object(_) => self.action_object(item, &at),
                        _ => self.fault(
                            item.span,
                            &at,
                            format!("expected an action name or an action object, got {}", got(item)),
                        ),
                    }
                }
            }
            _ => self.fault(
                v.span,
                path,
                format!("expected an action name, an action object or a list of them, got {}", got(v)),
            ),
        }
    }

    fn action_object(&mut self, v: &Json, path: &Path<'_>) {
        if let Some(assign) = v.get("assign") {
            self.keys(v, path, "an assign action", &["assign"], &[]);
            let at = path.child("assign");
            let Some(assign) = self.object(assign, &at, "an object of context paths to values") else { return };
            for m in assign.entries() {
                let key_at = at.child(m.key);
                if !is_context_path(m.key) {
                    self.fault(
                        m.key_span,
                        &key_at,
                        format!(
                            "\"{}\" is not a context path: a path without the \"context.\" root, like \"round\" or \"ticket.notes\"",
                            m.key
                        ),
                    );
                }
                self.template(&m.value, &key_at);
            }
        } else if let Some(kind) = v.get("type") {
            self.key_set(v, path, "an action", &PARAM_GUARD_KEYS, &[]);
            self.string(kind, &path.child("type"));
            if let Some(p) = v.get("params") {
                self.template(p, &path.child("params"));
            }
        } else {
            self.fault(v.span, path, "an action object has \"type\" (and \"params\") or \"assign\"");
        }
    }

    // --- templates ------------------------------------------------------------------------------

    fn template(&mut self, v: &Json, path: &Path<'_>) {
        match &v.kind {
            JsonKind::Array(items) => {
                for (i, item) in items.iter().enumerate() {
                    self.template(item, &path.child(i));
                }
            }
            JsonKind::Object(_) => {
                if let Some(r) = v.get("$ref") {
                    if v.entries().count() > 1 {
                        self.fault(
                            v.span,
                            path,
                            "a reference is exactly { \"$ref\": \"<root>.<path>\" }, with no other key; its root is context, input or event",
                        );
                    }
                    self.string(r, &path.child("$ref"));
                } else {
                    for m in v.entries() {
                        self.template(&m.value, &path.child(m.key));
                    }
                }
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chart::schema::chart_schema;
    use chart::schema::tests_support::{BAD, CONTRACT_EXAMPLE, GOOD};
    use syntax::json::{parse, Arena};

    fn messages(text: &str) -> Vec<String> {
        let arena = Arena::new();
        let parsed = parse(text, &arena);
        assert!(parsed.errors.is_empty(), "{text}");
        faults(&parsed.value).into_iter().map(|d| d.message).collect()
    }

    #[test]
    fn good_charts_have_no_fault() {
        for text in GOOD {
            assert_eq!(messages(text), Vec::<String>::new(), "{text}");
        }
    }

    #[test]
    fn bad_charts_say_what_is_wrong() {
        for (text, want) in BAD {
            let got = messages(text);
            assert!(got.iter().any(|m| m.contains(want)), "{text}\nwant: {want}\ngot: {got:#?}");
        }
    }

    #[test]
    fn every_fault_is_reported_with_its_path() {
        let text = r#"{ "states": { "a": { "type": "finall", "onDon": "b", "invoke": [{ "src": 1 }, { "id": "x" }] } }, "evnts": {} }"#;
        let arena = Arena::new();
        let parsed = parse(text, &arena);
        let ds = faults(&parsed.value);
        let lines: Vec<(String, String)> =
            ds.iter().map(|d| (d.path.clone().unwrap_or_default(), d.message.clone())).collect();
        insta::assert_debug_snapshot!(lines);
        assert!(ds.iter().all(|d| d.code == "chart-grammar" && d.rule == Some(1)));
    }

    /// The rule and the schema agree on every Chart of the lists, and on a few more.
    #[test]
    fn the_rule_accepts_exactly_what_the_schema_accepts() {
        let validator = jsonschema::draft202012::new(&chart_schema()).unwrap();
        let more = [
            r#"{ "states": { "a": { "on": { "go": { "guard": { "type": "jr2.ready" } } } } } }"#,
            r#"{ "states": { "a": { "on": { "go": { "guard": { "type": "green" } } } } } }"#,
            r#"{ "states": { "a": { "on": { "go": { "guard": { "type": "jr2.ready", "x": 1 } } } } } }"#,
            r#"{ "states": { "a": { "on": { "go": { "guard": { "not": "a", "and": [] } } } } } }"#,
            r#"{ "states": { "a": { "on": { "go": { "guard": { "and": "a" } } } } } }"#,
            r#"{ "states": { "a": { "on": { "go": { "guard": { "type": 1 } } } } } }"#,
            r#"{ "states": { "a": { "on": { "go": { "guard": { "type": "jr2.sentBy", "params": { "id": "x", "y": 1 } } } } } } }"#,
            r#"{ "states": { "a": { "on": { "go": { "guard": { "not": { "not": "jr2.sentBy" } } } } } } }"#,
            r#"{ "states": { "a": { "entry": { "assign": {} } } } }"#,
            r#"{ "states": { "a": { "entry": { "assign": { "x": 1 }, "type": "y" } } } }"#,
            r#"{ "states": { "a": { "entry": { "type": "y", "params": { "$ref": "context.x" } } } } }"#,
            r#"{ "states": { "a": { "entry": { "type": 3 } } } }"#,
            r#"{ "states": { "a": { "entry": 3 } } }"#,
            r#"{ "states": { "a": { "invoke": 3 } } }"#,
            r#"{ "states": { "a": { "invoke": [3] } } }"#,
            r#"{ "states": { "a": { "type": "final", "output": { "$ref": "x" } } } }"#,
            r#"{ "states": { "a": { "type": "final", "output": { "x": { "$ref": "y", "z": 1 } } } } }"#,
            r#"{ "states": { "a": { "after": { "0": "a", "07ms": "a" } } } }"#,
            r#"{ "states": { "a": { "after": { "1.5s": "a" } } } }"#,
            r#"{ "states": { "_a-1": {}, "b": { "id": "" } } }"#,
            r#"{ "states": { "x": {} }, "id": "" }"#,
            r#"{ "states": { "x": {} }, "type": "parallel" }"#,
            r#"{ "states": { "x": {} }, "output": 1 }"#,
            r#"{ "states": 1 }"#,
            r#"{ "states": { "x": 1 } }"#,
            r#"{ "states": { "x": {} }, "events": { "a.b": { "input": {} } } }"#,
            r#"{ "states": { "x": {} }, "agents": { "a": 1 } }"#,
            r#"{ "states": { "x": { "description": null } } }"#,
            r#"{ "states": { "a\n": {} } }"#,
            r#"{ "states": { "a": { "after": { "5s\n": "a" } } } }"#,
            r#"{ "states": { "a": { "entry": { "assign": { "x\n": 1 } } } } }"#,
            r#"{ "states": { "é": {} } }"#,
        ];
        let long_name = format!(r#"{{ "states": {{ "{}": {{}} }} }}"#, "a".repeat(65));
        let max_name = format!(r#"{{ "states": {{ "{}": {{}} }} }}"#, "a".repeat(64));
        let texts = GOOD.iter().copied().chain(BAD.iter().map(|(t, _)| *t)).chain(more).chain([
            long_name.as_str(),
            max_name.as_str(),
            CONTRACT_EXAMPLE,
        ]);
        for text in texts {
            let arena = Arena::new();
            let parsed = parse(text, &arena);
            let rule_ok = faults(&parsed.value).is_empty();
            let schema_ok = validator.is_valid(&parsed.value.to_value());
            assert_eq!(rule_ok, schema_ok, "rule and schema disagree on {text}: rule {:?}", messages(text));
        }
    }

    /// Every value of every good Chart replaced by each of a few values, every key removed, an
    /// unknown key added to every object: the rule and the schema agree on each mutant.
    #[test]
    fn the_rule_and_the_schema_agree_on_mutants() {
        use serde_json::{json, Value};
        let validator = jsonschema::draft202012::new(&chart_schema()).unwrap();
        let replacements = [
            json!(null),
            json!(1),
            json!(true),
            json!("x"),
            json!("final"),
            json!("jr2.sentBy"),
            json!("a.b"),
            json!("5d"),
            json!([]),
            json!([1]),
            json!(["x"]),
            json!({}),
            json!({ "$ref": 1 }),
            json!({ "$ref": "context.x" }),
            json!({ "type": "x" }),
            json!({ "type": "jr2.ready", "params": {} }),
            json!({ "not": "x" }),
            json!({ "assign": { "x": 1 } }),
            json!({ "a": {} }),
            json!({ "src": "x" }),
        ];
        fn paths(v: &Value, at: Vec<Value>, out: &mut Vec<Vec<Value>>) {
            out.push(at.clone());
            match v {
                Value::Object(o) => o.iter().for_each(|(k, x)| {
                    let mut p = at.clone();
                    p.push(json!(k));
                    paths(x, p, out)
                }),
                Value::Array(a) => a.iter().enumerate().for_each(|(i, x)| {
                    let mut p = at.clone();
                    p.push(json!(i));
                    paths(x, p, out)
                }),
                _ => {}
            }
        }
        fn at<'v>(v: &'v mut Value, path: &[Value]) -> &'v mut Value {
            path.iter().fold(v, |v, seg| match seg {
                Value::String(k) => &mut v[k.as_str()],
                Value::Number(i) => &mut v[i.as_u64().unwrap() as usize],
                _ => unreachable!(),
            })
        }
        let mut checked = 0;
        let mut agree = |chart: &Value| {
            let text = chart.to_string();
            let arena = Arena::new();
            let parsed = parse(&text, &arena);
            let rule = faults(&parsed.value);
            assert_eq!(
                rule.is_empty(),
                validator.is_valid(chart),
                "rule and schema disagree on {text}: rule {:?}",
                rule.iter().map(|d| &d.message).collect::<Vec<_>>()
            );
            checked += 1;
        };
        for text in GOOD {
            let chart: Value = serde_json::from_str(text).unwrap();
            let mut all = Vec::new();
            paths(&chart, Vec::new(), &mut all);
            for path in &all {
                for r in &replacements {
                    let mut m = chart.clone();
                    *at(&mut m, path) = r.clone();
                    agree(&m);
                }
                let mut m = chart.clone();
                let keys: Option<Vec<String>> = at(&mut m, path).as_object().map(|o| o.keys().cloned().collect());
                match at(&mut m, path) {
                    Value::Object(o) => {
                        o.insert("onDon".into(), json!("x"));
                        agree(&m);
                        for key in keys.unwrap_or_default() {
                            let mut m = chart.clone();
                            at(&mut m, path).as_object_mut().unwrap().shift_remove(&key);
                            agree(&m);
                        }
                    }
                    Value::Array(a) if !a.is_empty() => {
                        a.remove(0);
                        agree(&m);
                    }
                    _ => {}
                }
            }
        }
        assert!(checked > 1000, "{checked}");
    }

    #[test]
    fn suggestions() {
        assert_eq!(suggest("onDon", STATE_KEYS.keys), Some("onDone"));
        assert_eq!(suggest("Initial", STATE_KEYS.keys), Some("initial"));
        assert_eq!(suggest("guards", TRANSITION_KEYS.keys), Some("guard"));
        assert_eq!(suggest("zzz", STATE_KEYS.keys), None);
    }
}
