//! A snapshot's stored form: versioned, lossless, and checked against its IR when read.
//!
//! [`Runtime::encode`] writes a [`Snapshot`] as JSON a store can keep; [`Runtime::decode`] reads it
//! back, and the run it gives goes on exactly as the live one would:
//!
//! - `format` is [`FORMAT`]; a reader refuses another.
//! - The context is written losslessly ([`write_value`]): what JSON cannot say is an object tagged
//!   `"$js"` — `{"$js": "undefined"}`, `"NaN"`, `"Infinity"`, `"-Infinity"`, `"-0"` — and an
//!   object of the context that has a `$js` key of its own is written as
//!   `{"$js": "object", "entries": [[key, value], ...]}`. An array or object the context holds in
//!   more than one place (`===` tells it apart from an equal copy) is written once as
//!   `{"$js": "def", "id": N, "value": ...}` and then `{"$js": "ref", "id": N}`.
//! - Each state is written as its id and its key path (`{"id": 3, "path": "review.drafting"}`),
//!   so that a snapshot read against an IR whose states moved is refused, not misread.
//!
//! [`Runtime::validate`] checks that a snapshot fits the IR it is given: every state, history,
//! actor, timer and inline child names what the IR has, and the configuration is one a run can be
//! in. It returns an error, never panics; [`Runtime::decode`] runs it, and a host runs it before
//! [`Runtime::resume`] of a snapshot from elsewhere.

use super::{Actor, Child, Context, Fault, QueuedEvent, Remembered, Runtime, Snapshot, Status, Timer};
use ir::eval::JsValue;
use ir::{StateId, StateKind};
use serde_json::{json, Map, Value};
use std::collections::HashMap;
use std::sync::Arc;

/// The version of the stored form; [`Runtime::decode`] reads this one only.
pub const FORMAT: u64 = 1;

/// Why a stored snapshot cannot be run against this IR.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Invalid(pub String);

impl std::fmt::Display for Invalid {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "the snapshot does not fit its IR: {}", self.0)
    }
}

impl std::error::Error for Invalid {}

fn invalid<T>(why: impl Into<String>) -> Result<T, Invalid> {
    Err(Invalid(why.into()))
}

impl Runtime<'_> {
    /// The snapshot's stored form (see the module's header).
    pub fn encode(&self, snapshot: &Snapshot) -> Value {
        let mut out = self.encode_run(snapshot);
        out.insert("format".into(), json!(FORMAT));
        Value::Object(out)
    }

    fn encode_run(&self, s: &Snapshot) -> Map<String, Value> {
        let state = |id: StateId| self.state_ref(id);
        let mut out = Map::new();
        out.insert("status".into(), json!(s.status));
        out.insert("configuration".into(), s.configuration.iter().map(|&c| state(c)).collect());
        out.insert("context".into(), write_value(&s.context.0));
        out.insert(
            "timers".into(),
            s.timers
                .iter()
                .map(|t| {
                    let mut v = serde_json::to_value(t).unwrap_or(Value::Null);
                    if let Some(st) = t.state {
                        v["state"] = state(st);
                    }
                    v
                })
                .collect(),
        );
        out.insert(
            "actors".into(),
            s.actors
                .iter()
                .map(|a| {
                    let mut v = serde_json::to_value(a).unwrap_or(Value::Null);
                    v["state"] = state(a.state);
                    v
                })
                .collect(),
        );
        out.insert(
            "children".into(),
            s.children
                .iter()
                .map(|c| {
                    let rt = self.inline(c.state, c.invoke);
                    let snapshot = match rt {
                        Some(rt) => Value::Object(rt.encode_run(&c.snapshot)),
                        None => Value::Null,
                    };
                    json!({ "id": c.id, "state": state(c.state), "invoke": c.invoke, "snapshot": snapshot })
                })
                .collect(),
        );
        out.insert(
            "history".into(),
            s.history
                .iter()
                .map(|r| json!({ "history": state(r.history), "states": r.states.iter().map(|&x| state(x)).collect::<Vec<_>>() }))
                .collect(),
        );
        out.insert("output".into(), s.output.clone().unwrap_or(Value::Null));
        out.insert("queue".into(), serde_json::to_value(&s.queue).unwrap_or(Value::Null));
        out.insert("sends".into(), json!(s.sends));
        out.insert("incarnations".into(), json!(s.incarnations));
        out.insert("random".into(), json!(s.random));
        out.insert("chained".into(), json!(s.chained));
        out.insert("session".into(), json!(s.session));
        out.insert("error".into(), serde_json::to_value(&s.error).unwrap_or(Value::Null));
        out
    }

    fn state_ref(&self, id: StateId) -> Value {
        let path = self.paths.get(id.index()).map_or("", String::as_str);
        json!({ "id": id.0, "path": path })
    }

    /// A stored snapshot read back and made live: [`Runtime::decode`], then [`Runtime::resume`].
    pub fn restore(&self, stored: &Value) -> Result<super::Live, Invalid> {
        Ok(self.resume(self.decode(stored)?))
    }

    /// A stored snapshot read back: the same run, or why it is not one this IR can run.
    pub fn decode(&self, stored: &Value) -> Result<Snapshot, Invalid> {
        match stored.get("format").and_then(Value::as_u64) {
            Some(FORMAT) => {}
            Some(other) => return invalid(format!("its format is {other}, and this runtime reads {FORMAT}")),
            None => return invalid("it has no `format`"),
        }
        let snapshot = self.decode_run(stored)?;
        self.validate(&snapshot)?;
        Ok(snapshot)
    }

    fn decode_run(&self, v: &Value) -> Result<Snapshot, Invalid> {
        let field = |k: &str| v.get(k).ok_or_else(|| Invalid(format!("it has no `{k}`")));
        let list = |k: &str| -> Result<&Vec<Value>, Invalid> {
            field(k)?.as_array().ok_or_else(|| Invalid(format!("`{k}` is not a list")))
        };
        let status: Status =
            serde_json::from_value(field("status")?.clone()).map_err(|e| Invalid(format!("`status`: {e}")))?;
        let configuration = list("configuration")?.iter().map(|s| self.read_state(s)).collect::<Result<Vec<_>, _>>()?;
        let context = Context(read_value(field("context")?)?);
        let mut timers = Vec::new();
        for t in list("timers")? {
            let state = t.get("state").filter(|s| !s.is_null()).map(|s| self.read_state(s)).transpose()?;
            let mut plain = t.clone();
            if let Some(m) = plain.as_object_mut() {
                m.remove("state");
            }
            let mut timer: Timer = serde_json::from_value(plain).map_err(|e| Invalid(format!("a timer: {e}")))?;
            timer.state = state;
            timers.push(timer);
        }
        let mut actors = Vec::new();
        for a in list("actors")? {
            let state = self.read_state(a.get("state").unwrap_or(&Value::Null))?;
            let mut plain = a.clone();
            if let Some(m) = plain.as_object_mut() {
                m.insert("state".into(), json!(state.0));
            }
            let actor: Actor = serde_json::from_value(plain).map_err(|e| Invalid(format!("an actor: {e}")))?;
            actors.push(actor);
        }
        let mut children = Vec::new();
        for c in list("children")? {
            let state = self.read_state(c.get("state").unwrap_or(&Value::Null))?;
            let invoke =
                c.get("invoke").and_then(Value::as_u64).ok_or_else(|| Invalid("a child has no `invoke`".into()))?
                    as usize;
            let id =
                c.get("id").and_then(Value::as_str).ok_or_else(|| Invalid("a child has no `id`".into()))?.to_string();
            let Some(rt) = self.inline(state, invoke) else {
                return invalid(format!("the child {id:?} is of no inline invoke of its state"));
            };
            let snapshot = Box::new(rt.decode_run(c.get("snapshot").unwrap_or(&Value::Null))?);
            children.push(Child { id, state, invoke, snapshot });
        }
        let mut history = Vec::new();
        for r in list("history")? {
            let h = self.read_state(r.get("history").unwrap_or(&Value::Null))?;
            let states = r
                .get("states")
                .and_then(Value::as_array)
                .ok_or_else(|| Invalid("a history has no `states`".into()))?
                .iter()
                .map(|s| self.read_state(s))
                .collect::<Result<Vec<_>, _>>()?;
            history.push(Remembered { history: h, states });
        }
        let output = field("output").ok().filter(|o| !o.is_null()).cloned();
        let queue: Vec<QueuedEvent> =
            serde_json::from_value(field("queue")?.clone()).map_err(|e| Invalid(format!("`queue`: {e}")))?;
        let number =
            |k: &str| field(k).ok().and_then(Value::as_u64).ok_or_else(|| Invalid(format!("`{k}` is not a count")));
        let error: Option<Fault> =
            serde_json::from_value(field("error")?.clone()).map_err(|e| Invalid(format!("`error`: {e}")))?;
        Ok(Snapshot {
            status,
            configuration,
            context,
            timers,
            actors,
            children,
            history,
            output,
            queue,
            sends: number("sends")?,
            incarnations: number("incarnations")?,
            // A snapshot written before the generator was kept has none: it starts at 0.
            random: match field("random") {
                Err(_) => 0,
                Ok(v) => v
                    .as_u64()
                    .and_then(|n| u32::try_from(n).ok())
                    .ok_or_else(|| Invalid("`random` is not a generator's state".into()))?,
            },
            session: match field("session") {
                Err(_) => super::DEFAULT_SESSION.to_string(),
                Ok(v) => v.as_str().ok_or_else(|| Invalid("`session` is not a string".into()))?.to_string(),
            },
            chained: match field("chained") {
                Err(_) => 0,
                Ok(v) => v.as_u64().ok_or_else(|| Invalid("`chained` is not a count".into()))?,
            },
            error,
        })
    }

    /// A state as written (`{"id", "path"}`), checked against this IR.
    fn read_state(&self, v: &Value) -> Result<StateId, Invalid> {
        let (Some(id), Some(path)) = (v.get("id").and_then(Value::as_u64), v.get("path").and_then(Value::as_str))
        else {
            return invalid(format!("a state is written as {{\"id\", \"path\"}}, not {v}"));
        };
        match self.paths.get(id as usize) {
            Some(p) if p == path => Ok(StateId(id as u32)),
            Some(p) => invalid(format!("state {id} is {p:?} in this IR, not {path:?}")),
            None => invalid(format!("this IR has no state {id} ({path:?})")),
        }
    }

    /// Does the snapshot fit this IR: every state it names is one of the IR's, the configuration
    /// is one a run can be in (each state's parent active, a compound state's one child, a
    /// parallel state's every region), each history remembers states below its parent, each actor
    /// and timer belongs to an active state, each inline child to an inline invoke of an active
    /// state (and fits its own IR), and the counters are above what they counted.
    pub fn validate(&self, s: &Snapshot) -> Result<(), Invalid> {
        let n = self.machine.states.len();
        let known = |id: StateId, what: &str| -> Result<(), Invalid> {
            if id.index() < n {
                Ok(())
            } else {
                invalid(format!("{what} names state {}, and the IR has {n}", id.0))
            }
        };
        for &c in &s.configuration {
            known(c, "the configuration")?;
        }
        let config: super::set::StateSet = s.configuration.iter().copied().collect();
        if config.iter().count() != s.configuration.len() {
            return invalid("the configuration names a state twice");
        }
        // A run that ended may have ended inside a microstep; only a live one's is checked whole.
        if s.status == Status::Active {
            if !config.contains(&StateId::ROOT) {
                return invalid("the configuration has no root");
            }
            for &c in &s.configuration {
                let st = self.machine.state(c);
                if st.kind == StateKind::History {
                    return invalid(format!("the history state {} is in the configuration", self.paths[c.index()]));
                }
                if let Some(p) = st.parent {
                    if !config.contains(&p) {
                        return invalid(format!("{} is active and its parent is not", self.paths[c.index()]));
                    }
                }
                let active = st.children.iter().filter(|k| config.contains(k)).count();
                let ok = match st.kind {
                    StateKind::Compound => active == 1,
                    StateKind::Parallel => {
                        active
                            == st.children.iter().filter(|&&k| self.machine.state(k).kind != StateKind::History).count()
                    }
                    _ => true,
                };
                if !ok {
                    return invalid(format!(
                        "{} has {active} active children, which its kind cannot have",
                        self.name(c)
                    ));
                }
            }
        }
        for r in &s.history {
            known(r.history, "a history")?;
            if self.machine.state(r.history).kind != StateKind::History {
                return invalid(format!("{} is remembered as a history state, and is none", self.name(r.history)));
            }
            let parent = self.machine.state(r.history).parent.unwrap_or(StateId::ROOT);
            for &x in &r.states {
                known(x, "a history")?;
                if !self.machine.is_ancestor_or_self(parent, x) || x == parent {
                    return invalid(format!(
                        "the history {} remembers a state outside its parent",
                        self.name(r.history)
                    ));
                }
            }
        }
        let live = s.status == Status::Active;
        let mut most = 0;
        for a in &s.actors {
            known(a.state, "an actor")?;
            if live && !config.contains(&a.state) {
                return invalid(format!("the actor {:?} belongs to {}, which is not active", a.id, self.name(a.state)));
            }
            most = most.max(a.incarnation);
        }
        for t in &s.timers {
            if let Some(st) = t.state {
                known(st, "a timer")?;
                if live && !config.contains(&st) {
                    return invalid(format!("the timer {:?} belongs to {}, which is not active", t.id, self.name(st)));
                }
            }
            most = most.max(t.incarnation);
        }
        if most > s.incarnations {
            return invalid(format!("an incarnation ({most}) is past the run's count ({})", s.incarnations));
        }
        for c in &s.children {
            known(c.state, "an inline child")?;
            let Some(rt) = self.inline(c.state, c.invoke) else {
                return invalid(format!("the child {:?} is of no inline invoke of {}", c.id, self.name(c.state)));
            };
            if live && !config.contains(&c.state) {
                return invalid(format!("the child {:?} belongs to {}, which is not active", c.id, self.name(c.state)));
            }
            rt.validate(&c.snapshot).map_err(|e| Invalid(format!("the child {:?}: {}", c.id, e.0)))?;
        }
        if !s.status.is_final() && s.error.is_some() {
            return invalid("an active run has a fault");
        }
        if let Some(why) = self.bounds.check(&s.context.0) {
            return invalid(why);
        }
        Ok(())
    }
}

/// A JavaScript value as lossless JSON (the module's header says how).
pub fn write_value(v: &JsValue) -> Value {
    let mut seen: HashMap<usize, usize> = HashMap::new();
    count(v, &mut seen);
    let mut shared: HashMap<usize, Option<usize>> =
        seen.into_iter().filter(|&(_, n)| n > 1).map(|(k, _)| (k, None)).collect();
    let mut next = 0;
    write(v, &mut shared, &mut next)
}

fn address(v: &JsValue) -> Option<usize> {
    match v {
        JsValue::Array(a) => Some(Arc::as_ptr(a) as *const u8 as usize),
        JsValue::Object(o) => Some(Arc::as_ptr(o) as *const u8 as usize),
        _ => None,
    }
}

/// How often each array and object is met (its contents once).
fn count(v: &JsValue, seen: &mut HashMap<usize, usize>) {
    let Some(at) = address(v) else { return };
    let n = seen.entry(at).or_insert(0);
    *n += 1;
    if *n > 1 {
        return;
    }
    match v {
        JsValue::Array(items) => items.iter().for_each(|x| count(x, seen)),
        JsValue::Object(props) => props.iter().for_each(|(_, x)| count(x, seen)),
        _ => {}
    }
}

fn tag(name: &str) -> Value {
    json!({ "$js": name })
}

fn write(v: &JsValue, shared: &mut HashMap<usize, Option<usize>>, next: &mut usize) -> Value {
    if let Some(at) = address(v) {
        match shared.get(&at) {
            Some(Some(id)) => return json!({ "$js": "ref", "id": id }),
            Some(None) => {
                let id = *next;
                *next += 1;
                shared.insert(at, Some(id));
                let value = write_plain(v, shared, next);
                return json!({ "$js": "def", "id": id, "value": value });
            }
            None => {}
        }
    }
    write_plain(v, shared, next)
}

fn write_plain(v: &JsValue, shared: &mut HashMap<usize, Option<usize>>, next: &mut usize) -> Value {
    match v {
        JsValue::Undefined => tag("undefined"),
        JsValue::Null => Value::Null,
        JsValue::Bool(b) => Value::Bool(*b),
        JsValue::Number(n) if n.is_nan() => tag("NaN"),
        JsValue::Number(n) if *n == f64::INFINITY => tag("Infinity"),
        JsValue::Number(n) if *n == f64::NEG_INFINITY => tag("-Infinity"),
        JsValue::Number(n) if *n == 0.0 && n.is_sign_negative() => tag("-0"),
        JsValue::Number(n) => serde_json::Number::from_f64(*n).map_or(Value::Null, Value::Number),
        JsValue::String(s) => Value::String(s.to_string()),
        JsValue::Array(items) => Value::Array(items.iter().map(|x| write(x, shared, next)).collect()),
        JsValue::Object(props) if props.iter().any(|(k, _)| k == "$js") => {
            let entries: Vec<Value> = props.iter().map(|(k, x)| json!([k, write(x, shared, next)])).collect();
            json!({ "$js": "object", "entries": entries })
        }
        JsValue::Object(props) => {
            Value::Object(props.iter().map(|(k, x)| (k.clone(), write(x, shared, next))).collect())
        }
    }
}

/// A value [`write_value`] wrote, read back: the same value, its shared parts shared again.
pub fn read_value(v: &Value) -> Result<JsValue, Invalid> {
    let mut defs: HashMap<u64, JsValue> = HashMap::new();
    read(v, &mut defs)
}

fn read(v: &Value, defs: &mut HashMap<u64, JsValue>) -> Result<JsValue, Invalid> {
    Ok(match v {
        Value::Null => JsValue::Null,
        Value::Bool(b) => JsValue::Bool(*b),
        Value::Number(n) => JsValue::Number(n.as_f64().unwrap_or(f64::NAN)),
        Value::String(s) => JsValue::String(s.as_str().into()),
        Value::Array(items) => JsValue::Array(Arc::new(items.iter().map(|x| read(x, defs)).collect::<Result<_, _>>()?)),
        Value::Object(m) => match m.get("$js") {
            None => {
                let mut props = Vec::with_capacity(m.len());
                for (k, x) in m {
                    props.push((k.clone(), read(x, defs)?));
                }
                JsValue::Object(Arc::new(props))
            }
            Some(Value::String(t)) => match t.as_str() {
                "undefined" => JsValue::Undefined,
                "NaN" => JsValue::Number(f64::NAN),
                "Infinity" => JsValue::Number(f64::INFINITY),
                "-Infinity" => JsValue::Number(f64::NEG_INFINITY),
                "-0" => JsValue::Number(-0.0),
                "object" => {
                    let Some(entries) = m.get("entries").and_then(Value::as_array) else {
                        return invalid("a tagged object has no `entries`");
                    };
                    let mut props: Vec<(String, JsValue)> = Vec::with_capacity(entries.len());
                    for e in entries {
                        let (Some(k), Some(x)) = (e.get(0).and_then(Value::as_str), e.get(1)) else {
                            return invalid("an entry of a tagged object is not [key, value]");
                        };
                        props.push((k.to_string(), read(x, defs)?));
                    }
                    JsValue::Object(Arc::new(props))
                }
                "def" => {
                    let (Some(id), Some(value)) = (m.get("id").and_then(Value::as_u64), m.get("value")) else {
                        return invalid("a shared value has no `id` or `value`");
                    };
                    let x = read(value, defs)?;
                    if defs.insert(id, x.clone()).is_some() {
                        return invalid(format!("the shared value {id} is defined twice"));
                    }
                    x
                }
                "ref" => {
                    let id = m.get("id").and_then(Value::as_u64).unwrap_or(u64::MAX);
                    match defs.get(&id) {
                        Some(x) => x.clone(),
                        None => return invalid(format!("a reference to the shared value {id}, not defined before it")),
                    }
                }
                other => return invalid(format!("an unknown tag {other:?}")),
            },
            Some(other) => return invalid(format!("a `$js` tag that is not a string: {other}")),
        },
    })
}
