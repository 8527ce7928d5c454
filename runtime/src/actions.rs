//! Executable content: the IR's actions over the run, and expressions over its scope.
//!
//! An action that cannot run (a value of the wrong kind, an unknown send target, an
//! [`Action::Opaque`]) ends the run `error` in a Machine, as a throwing action ends an xstate
//! actor; in an SCXML document it raises `error.execution` (`error.communication` for a target
//! that is not there) and stops the rest of its block, as SCXML says.

use super::{Ev, Kind, Queued, Request, Run, Runtime, Timer};
use ir::eval::{evaluate, JsValue, Scope};
use ir::expr::{Expr, Root};
use ir::{Action, Name, SendTo};
use serde_json::{json, Value};
use std::sync::Arc;

/// Why actions stopped.
pub(crate) enum Stop {
    /// An error of executable content (SCXML raises `error.<kind>` for it).
    Content { kind: &'static str, message: String },
    /// The run ends (the step bound).
    Run(String),
}

fn content(message: impl Into<String>) -> Stop {
    Stop::Content { kind: "execution", message: message.into() }
}

impl Runtime<'_> {
    /// An expression's value over the run: the context, the event, the input, the SCXML
    /// globals and the active states.
    pub(crate) fn eval(&self, run: &mut Run, e: &Expr, ev: &Ev) -> Result<JsValue, String> {
        let scope = Scope {
            context: run.context.clone(),
            event: ev.js().clone(),
            input: run.input.clone(),
            params: run.params.clone(),
            globals: ev.globals.clone(),
            active: run.active(),
            engine: Some(run.js.0.clone()),
        };
        let value = evaluate(e, &scope).map_err(|e| e.to_string());
        // A thrown value is the run's fault's, where the error ends the run (a Machine's); an SCXML
        // document takes the error as `error.execution` and goes on: the value is not kept.
        if value.is_err() && self.scxml {
            run.js.0.take_thrown();
        }
        // A script of SCXML's data model may have changed it in place.
        if let Some(context) = run.js.0.take_written() {
            run.context = context;
        }
        value
    }

    /// An SCXML event's globals: `_event` (`undefined` where not `bound`), and the session's, made
    /// once per run.
    pub(crate) fn scxml_globals(&self, run: &Run, q: &Queued, ty: &str, bound: bool) -> Arc<[(Name, JsValue)]> {
        let session = run.session_globals.get_or_init(|| {
            let location = JsValue::String(format!("#_scxml_{}", run.session).into());
            let processor = JsValue::object_of(vec![("location".into(), location)]);
            let processors = JsValue::object_of(vec![
                ("scxml".into(), processor.clone()),
                (super::SCXML_PROCESSOR.into(), processor),
            ]);
            Arc::from(vec![
                ("_sessionid".into(), JsValue::String(run.session.as_ref().into())),
                ("_name".into(), JsValue::String(self.machine.id.as_str().into())),
                ("_ioprocessors".into(), processors),
            ])
        });
        // Before the first event `_event` is declared and unbound (`undefined`), as SCXML asks.
        let event = if bound { self.scxml_event(run, q, ty) } else { JsValue::Undefined };
        let mut globals = Vec::with_capacity(session.len() + 1);
        globals.push(("_event".into(), event));
        globals.extend(session.iter().cloned());
        Arc::from(globals)
    }

    /// SCXML's `_event` of an event: its name, how it came, and what sent it.
    fn scxml_event(&self, run: &Run, q: &Queued, ty: &str) -> JsValue {
        let kind = match q.kind {
            Kind::Platform => "platform",
            Kind::Internal => "internal",
            Kind::External => "external",
        };
        let text = |s: Option<&String>| s.map_or(JsValue::Undefined, |s| JsValue::String(s.as_str().into()));
        // An event another session sent through the SCXML event I/O processor has its origin (a
        // target that reaches the sender: the session, or the child by its invoke id).
        let (origin, origintype) = match (q.kind, &q.invokeid) {
            (Kind::External, None) => (
                JsValue::String(format!("#_scxml_{}", run.session).into()),
                JsValue::String(super::SCXML_PROCESSOR.into()),
            ),
            (Kind::External, Some(id)) => {
                (JsValue::String(format!("#_{id}").into()), JsValue::String(super::SCXML_PROCESSOR.into()))
            }
            _ => (JsValue::Undefined, JsValue::Undefined),
        };
        JsValue::object_of(vec![
            ("name".into(), JsValue::String(scxml_name(ty).into())),
            ("type".into(), JsValue::String(kind.into())),
            ("sendid".into(), text(q.sendid.as_ref())),
            ("origin".into(), origin),
            ("origintype".into(), origintype),
            ("invokeid".into(), text(q.invokeid.as_ref())),
            ("data".into(), q.value.get("data").map_or(JsValue::Undefined, JsValue::from_json)),
        ])
    }

    /// SCXML's `error.execution` (or another platform error) on the internal queue.
    pub(crate) fn raise_error(&self, run: &mut Run, message: &str) {
        self.raise_platform(run, "execution", message);
    }

    fn raise_platform(&self, run: &mut Run, kind: &str, message: &str) {
        let event = json!({ "type": format!("error.{kind}"), "data": { "message": message } });
        run.internal.push_back(Queued::new(event, Kind::Platform));
    }

    /// A block of executable content (a state's entry or exit, a transition's actions): in an
    /// SCXML document an error stops the block and raises its event; in a Machine it ends the run.
    pub(crate) fn block(&self, run: &mut Run, actions: &[Action], ev: &Ev) -> Result<(), String> {
        match self.actions(run, actions, ev) {
            Ok(()) => Ok(()),
            Err(Stop::Run(e)) => Err(e),
            Err(Stop::Content { kind, message }) if self.scxml => {
                self.raise_platform(run, kind, &message);
                Ok(())
            }
            Err(Stop::Content { message, .. }) => Err(message),
        }
    }

    /// An invoke about to start: the actor's id written at its `idlocation`, then its input's
    /// value. `None`: in an SCXML document where either cannot be evaluated, the invoke does not
    /// start and `error.execution` is raised; in a Machine the run ends.
    pub(crate) fn invoke_input(
        &self,
        run: &mut Run,
        inv: &ir::Invoke,
        id: &str,
        ev: &Ev,
    ) -> Result<Option<Option<Value>>, String> {
        match self.invoke_values(run, inv, id, ev) {
            Ok(input) => Ok(Some(input)),
            Err(Stop::Run(e)) => Err(e),
            Err(Stop::Content { kind, message }) if self.scxml => {
                self.raise_platform(run, kind, &message);
                Ok(None)
            }
            Err(Stop::Content { message, .. }) => Err(message),
        }
    }

    fn invoke_values(&self, run: &mut Run, inv: &ir::Invoke, id: &str, ev: &Ev) -> Result<Option<Value>, Stop> {
        if let Some(loc) = &inv.id_location {
            let path = self.location(run, loc, ev)?;
            if !set_path(&mut run.context, &path, JsValue::String(id.into())) {
                return Err(content(format!("cannot assign to {}", path.join("."))));
            }
        }
        match &inv.input {
            Some(e) => Ok(self.value(run, e, ev)?.to_json()),
            None => Ok(None),
        }
    }

    /// The context within its bounds ([`crate::Bounds`]), else the run ends `error` naming the
    /// bound (in an SCXML document too: a bound is the run's, not executable content's).
    pub(crate) fn bound_context(&self, run: &Run) -> Result<(), Stop> {
        match self.bounds.check(&run.context) {
            Some(reason) => Err(Stop::Run(reason)),
            None => Ok(()),
        }
    }

    fn value(&self, run: &mut Run, e: &Expr, ev: &Ev) -> Result<JsValue, Stop> {
        self.eval(run, e, ev).map_err(content)
    }

    fn actions(&self, run: &mut Run, actions: &[Action], ev: &Ev) -> Result<(), Stop> {
        for a in actions {
            self.action(run, a, ev)?;
        }
        Ok(())
    }

    fn action(&self, run: &mut Run, a: &Action, ev: &Ev) -> Result<(), Stop> {
        match a {
            // A named action runs its implementation, with its params; one with none is the
            // host's (lent): none changes the context.
            Action::Named { name, params } => {
                if let Some(actions) = self.machine.implementations.actions.get(name.as_str()) {
                    let params = match params {
                        Some(e) => self.value(run, e, ev)?,
                        None => JsValue::Undefined,
                    };
                    let saved = self.enter_implementation(run, "action", name, params).map_err(Stop::Run)?;
                    let done = self.actions(run, actions, ev);
                    self.leave_implementation(run, saved);
                    done?;
                }
            }
            Action::Assign { updates } => {
                // xstate's assign: every update reads the context as it was before this assign.
                let mut values = Vec::with_capacity(updates.len());
                for (key, e) in updates {
                    values.push((key, self.value(run, e, ev)?));
                }
                if !matches!(run.context, JsValue::Object(_)) {
                    run.context = JsValue::object_of(Vec::new());
                }
                for (key, v) in values {
                    run.context.set(key, v);
                }
                self.bound_context(run)?;
            }
            Action::AssignContext { value } => {
                let v = self.value(run, value, ev)?;
                if !matches!(v, JsValue::Object(_)) {
                    return Err(content(format!("assign gave the context a {}, not an object", v.type_of())));
                }
                run.context = v;
                self.bound_context(run)?;
            }
            Action::AssignTo { location, value } => {
                let path = self.location(run, location, ev)?;
                let v = self.value(run, value, ev)?;
                if !matches!(run.context.member(&path[0]), JsValue::Undefined) || has_key(&run.context, &path[0]) {
                    if !set_path(&mut run.context, &path, v) {
                        return Err(content(format!("cannot assign to {}", path.join("."))));
                    }
                } else {
                    return Err(content(format!("{} is not declared in the data model", path[0])));
                }
                self.bound_context(run)?;
            }
            Action::Raise { event, delay, id } => {
                let event = self.event(run, event, ev)?;
                match delay {
                    Some(d) => {
                        let ms = self.delay(run, d, ev)?;
                        let id = self.send_id(run, id.as_ref(), None, ev)?;
                        self.schedule(run, id, ms, event, None);
                    }
                    None => run.internal.push_back(Queued::new(event, Kind::Internal)),
                }
            }
            Action::Send { to, event, delay, id, id_location } => {
                let event = self.event(run, event, ev)?;
                let target = match to {
                    SendTo::Own => Target::Own,
                    SendTo::Parent => Target::Actor("#_parent".to_string()),
                    SendTo::Actor(e) => {
                        let t = self.value(run, e, ev)?.to_js_string();
                        self.target(run, &t)?
                    }
                };
                let explicit = id.is_some() || id_location.is_some();
                let sendid = self.send_id(run, id.as_ref(), id_location.as_ref(), ev)?;
                let ms = match delay {
                    Some(d) => Some(self.delay(run, d, ev)?),
                    None => None,
                };
                match (target, ms) {
                    (Target::Internal, _) => run.internal.push_back(Queued::new(event, Kind::Internal)),
                    (Target::Own, Some(ms)) => self.schedule(run, sendid, ms, event, None),
                    (Target::Actor(to), Some(ms)) => self.schedule(run, sendid, ms, event, Some(to)),
                    (Target::Own, None) => run.external.push_back(Queued {
                        value: event,
                        kind: Kind::External,
                        sendid: explicit.then_some(sendid),
                        invokeid: None,
                    }),
                    (Target::Actor(to), None) if self.is_child(run, &to) => {
                        self.to_child(run, &to, |rt, s, now| rt.deliver(s, event, now)).map_err(Stop::Run)?
                    }
                    (Target::Actor(to), None) => run.requests.push(Request::Send { to, event }),
                }
            }
            Action::Cancel { id } => {
                let id = self.value(run, id, ev)?.to_js_string();
                if let Some(at) = run.timers.iter().position(|t| t.id == id && t.state.is_none()) {
                    let t = run.timers.remove(at);
                    run.requests.push(Request::Cancel { id, incarnation: t.incarnation });
                }
            }
            Action::Run { value } => {
                self.value(run, value, ev)?;
            }
            Action::Emit { event } => {
                let event = self.event(run, event, ev)?;
                run.requests.push(Request::Emit { event });
            }
            Action::Log { label, value } => {
                let value = match value {
                    Some(e) => self.value(run, e, ev)?.to_json(),
                    None => None,
                };
                run.requests.push(Request::Log { label: label.clone(), value });
            }
            Action::If { branches } => {
                for b in branches {
                    let take = match &b.cond {
                        None => true,
                        Some(c) => self.value(run, c, ev)?.truthy(),
                    };
                    if take {
                        return self.actions(run, &b.actions, ev);
                    }
                }
            }
            Action::Foreach { array, item, index, actions } => {
                let items = match self.value(run, array, ev)? {
                    JsValue::Array(items) => items,
                    other => return Err(content(format!("foreach over a {}, not an array", other.type_of()))),
                };
                if !matches!(run.context, JsValue::Object(_)) {
                    run.context = JsValue::object_of(Vec::new());
                }
                // A copy: what the actions do to the array does not change the iteration.
                for (i, v) in items.iter().enumerate() {
                    if run.budget == 0 {
                        return Err(Stop::Run(format!(
                            "the run took more than {} steps in one macrostep (a foreach over {} items)",
                            self.step_bound,
                            items.len()
                        )));
                    }
                    run.budget -= 1;
                    run.context.set(item, v.clone());
                    if let Some(index) = index {
                        run.context.set(index, JsValue::Number(i as f64));
                    }
                    self.actions(run, actions, ev)?;
                }
            }
            Action::Spawn { src, id, input, machine } => {
                // A spawned actor lives until the run ends (it belongs to the root, which is never
                // exited). An inline child Machine is the host's to run, as a slot's actor is.
                let id = match id {
                    Some(e) => self.value(run, e, ev)?.to_js_string(),
                    None => {
                        run.sends += 1;
                        format!("spawn.{}", run.sends)
                    }
                };
                let input = match input {
                    Some(e) => self.value(run, e, ev)?.to_json(),
                    None => None,
                };
                let kind = match (machine, self.machine.slots.get(src.as_str())) {
                    (Some(_), _) => ir::SlotKind::Machine,
                    (None, Some(slot)) => slot.kind,
                    (None, None) => ir::SlotKind::Unknown,
                };
                self.start_actor(run, id, src, kind, ir::StateId::ROOT, input);
            }
            Action::Block { actions } => match self.actions(run, actions, ev) {
                Err(Stop::Content { kind, message }) if self.scxml => self.raise_platform(run, kind, &message),
                other => other?,
            },
            Action::Opaque { reason } => return Err(content(reason.clone())),
        }
        Ok(())
    }

    /// An event as an action writes it: an object with a string `type`, or a string (the type).
    fn event(&self, run: &mut Run, e: &Expr, ev: &Ev) -> Result<Value, Stop> {
        match self.value(run, e, ev)?.to_json() {
            Some(Value::String(ty)) => Ok(json!({ "type": ty })),
            Some(v) if v.get("type").is_some_and(Value::is_string) => Ok(v),
            _ => Err(content("an event is an object with a string `type`")),
        }
    }

    /// A delay's milliseconds: a number, or a duration string (`"1s"`, `"500ms"`).
    fn delay(&self, run: &mut Run, e: &Expr, ev: &Ev) -> Result<u64, Stop> {
        match self.value(run, e, ev)? {
            JsValue::Number(n) if n.is_finite() && n >= 0.0 => Ok(n.round() as u64),
            JsValue::String(s) => match super::delay_ms(&s) {
                Some(ms) => Ok(ms),
                None => match self.named_delay(run, &s, ev) {
                    Some(ms) => ms.map_err(content),
                    None => Err(content(format!("the delay {s:?} is not a duration"))),
                },
            },
            other => {
                Err(content(format!("a delay is a number of milliseconds or a duration, not {}", other.to_js_string())))
            }
        }
    }

    /// A named delay's milliseconds, from its implementation (xstate's `delays`, a number or a
    /// function of the context and the event); `None` where the Machine has none of that name.
    pub(crate) fn named_delay(&self, run: &mut Run, name: &str, ev: &Ev) -> Option<Result<u64, String>> {
        let e = self.machine.implementations.delays.get(name)?;
        Some(self.eval(run, e, ev).and_then(|v| match v {
            JsValue::Number(n) if n.is_finite() && n >= 0.0 => Ok(n.round() as u64),
            JsValue::String(s) => {
                super::delay_ms(&s).ok_or_else(|| format!("the delay {name:?} is {s:?}, not a duration"))
            }
            other => Err(format!("the delay {name:?} is {}, not a number of milliseconds", other.to_js_string())),
        }))
    }

    /// Starts running the implementation `name` with these params: what
    /// [`Runtime::leave_implementation`] restores. Too deep a nesting ends the run.
    pub(crate) fn enter_implementation(
        &self,
        run: &mut Run,
        what: &str,
        name: &str,
        params: JsValue,
    ) -> Result<JsValue, String> {
        if run.nesting >= super::MAX_IMPLEMENTATION_DEPTH {
            return Err(format!(
                "the {what} {name:?} runs implementations {} deep (a name that names itself?)",
                super::MAX_IMPLEMENTATION_DEPTH
            ));
        }
        run.nesting += 1;
        Ok(std::mem::replace(&mut run.params, params))
    }

    pub(crate) fn leave_implementation(&self, run: &mut Run, saved: JsValue) {
        run.nesting -= 1;
        run.params = saved;
    }

    /// A send's id: the one it names, else a new one (written at `id_location` where it has one).
    fn send_id(&self, run: &mut Run, id: Option<&Expr>, id_location: Option<&Expr>, ev: &Ev) -> Result<String, Stop> {
        if let Some(e) = id {
            return Ok(self.value(run, e, ev)?.to_js_string());
        }
        run.sends += 1;
        let made = format!("send.{}", run.sends);
        if let Some(loc) = id_location {
            let path = self.location(run, loc, ev)?;
            if !set_path(&mut run.context, &path, JsValue::String(made.as_str().into())) {
                return Err(content(format!("cannot assign to {}", path.join("."))));
            }
        }
        Ok(made)
    }

    fn schedule(&self, run: &mut Run, id: String, ms: u64, event: Value, to: Option<String>) {
        let deadline = run.now.saturating_add(ms);
        run.set_timer(Timer { id, incarnation: 0, deadline, state: None, event: Some(event), to, child: None });
    }

    /// Where a send goes, by its target's text.
    fn target(&self, run: &Run, t: &str) -> Result<Target, Stop> {
        if t == "#_internal" {
            return Ok(Target::Internal);
        }
        if t == "#_parent" {
            return Ok(Target::Actor(t.to_string()));
        }
        if t.strip_prefix("#_scxml_") == Some(&*run.session) {
            return Ok(Target::Own);
        }
        let id = t.strip_prefix("#_").unwrap_or(t);
        if run.actors.iter().any(|a| a.id == id) || self.is_child(run, id) {
            return Ok(Target::Actor(id.to_string()));
        }
        if self.scxml && !t.starts_with("#_") {
            return Err(content(format!("the send target {t:?} is not a target this processor knows")));
        }
        Err(Stop::Content { kind: "communication", message: format!("no actor {id:?} to send to") })
    }

    /// A location's keys from the context: `context.a.b`, or a member chain over it.
    fn location(&self, run: &mut Run, e: &Expr, ev: &Ev) -> Result<Vec<String>, Stop> {
        match e {
            Expr::Ref(r) if r.root == Root::Context && !r.path.is_empty() => {
                Ok(r.path.iter().map(ToString::to_string).collect())
            }
            Expr::Member { object, property } => {
                let mut path = self.location(run, object, ev)?;
                path.push(self.value(run, property, ev)?.to_js_string());
                Ok(path)
            }
            _ => Err(content("a location is a variable of the data model or a member of one")),
        }
    }
}

/// A send's destination.
enum Target {
    Internal,
    Own,
    Actor(String),
}

fn has_key(v: &JsValue, key: &str) -> bool {
    matches!(v, JsValue::Object(props) if props.iter().any(|(k, _)| k == key))
}

/// `root[path[0]][path[1]]... = value`; `false` where a member on the way is no object or array.
fn set_path(root: &mut JsValue, path: &[String], value: JsValue) -> bool {
    let Some((last, init)) = path.split_last() else { return false };
    if init.is_empty() {
        return root.set(last, value);
    }
    let mut inner = root.member(&init[0]);
    if !matches!(inner, JsValue::Object(_) | JsValue::Array(_)) {
        return false;
    }
    // Copy-on-write down the path: the member is taken, changed, and set back.
    if !set_path(&mut inner, &path[1..], value) {
        return false;
    }
    root.set(&init[0], inner)
}

/// An event's name as an SCXML document reads it (`_event.name`): xstate's done events by
/// SCXML's names, `done.state.<id>` and `done.invoke.<id>` (the front end writes SCXML's
/// descriptors for them as xstate's).
fn scxml_name(ty: &str) -> String {
    if let Some(rest) = ty.strip_prefix("xstate.done.state.") {
        format!("done.state.{rest}")
    } else if let Some(rest) = ty.strip_prefix("xstate.done.actor.") {
        format!("done.invoke.{rest}")
    } else {
        ty.to_string()
    }
}
