//! Inline child statecharts as actors the run runs itself: an invoke whose IR holds its machine
//! (SCXML's `<invoke><content><scxml>`) starts a child run on entry and stops it on exit. The
//! child's requests come back up: an event to `#_parent` goes on the parent's external queue,
//! its timers are the parent's too (named `<child>::<timer>`, fired back down), its end is the
//! parent's `xstate.done.actor.<id>` (with `data` in an SCXML document, whose `_event.name` is
//! `done.invoke.<id>`; `output` in a Machine) or `xstate.error.actor.<id>`.

use super::{Child, Ev, Kind, Queued, Request, Run, Runtime, Snapshot, Status, Step, Timer};
use ir::StateId;
use serde_json::{json, Value};

impl<'m> Runtime<'m> {
    /// The runtime of the inline child of invoke `i` of state `s`.
    pub(crate) fn inline(&self, s: StateId, i: usize) -> Option<&Runtime<'m>> {
        self.inline.iter().find(|(st, k, _)| *st == s && *k == i).map(|(_, _, rt)| rt)
    }

    /// Is this actor id an inline child's?
    pub(crate) fn is_child(&self, run: &Run, id: &str) -> bool {
        run.children.iter().any(|c| c.id == id)
    }

    /// Starts the inline child of invoke `i` of state `s`, where it has one; `false` where it
    /// has none (the host runs the actor).
    pub(crate) fn start_child(
        &self,
        run: &mut Run,
        s: StateId,
        i: usize,
        input: Option<Value>,
        _ev: &Ev,
    ) -> Result<bool, String> {
        let Some(rt) = self.inline(s, i) else { return Ok(false) };
        let id = self.invoke_id(s, i);
        // The child's session: the parent's, a dot, and its invoke's id (else `<state>.<index>`).
        let name = match &self.machine.state(s).invokes[i].id {
            Some(n) => n.to_string(),
            None => format!("{}.{i}", s.0),
        };
        let session = format!("{}.{name}", run.session);
        let Step { snapshot, requests } = rt.start_session(&session, input, run.now);
        run.started.push(id.clone());
        run.children.push(Child { id: id.clone(), state: s, invoke: i, snapshot: Box::new(snapshot) });
        self.absorb(run, &id, requests)?;
        Ok(true)
    }

    /// Gives the child `id` something to do (`f` from its snapshot), then takes what it asks.
    pub(crate) fn to_child(
        &self,
        run: &mut Run,
        id: &str,
        f: impl FnOnce(&Runtime<'m>, &Snapshot, u64) -> Step,
    ) -> Result<(), String> {
        let Some(at) = run.children.iter().position(|c| c.id == id) else { return Ok(()) };
        let (s, i) = (run.children[at].state, run.children[at].invoke);
        let Some(rt) = self.inline(s, i) else { return Ok(()) };
        let Step { snapshot, requests } = f(rt, &run.children[at].snapshot, run.now);
        *run.children[at].snapshot = snapshot;
        self.absorb(run, id, requests)
    }

    /// A child's step, its snapshot already the child's (moved there, not cloned): its requests
    /// made the parent's, its end the parent's event.
    fn absorb(&self, run: &mut Run, id: &str, requests: Vec<Request>) -> Result<(), String> {
        let prefixed = |t: &str| format!("{id}::{t}");
        let state = run.children.iter().find(|c| c.id == id).map(|c| c.state);
        for r in requests {
            match r {
                Request::Send { to, event } if to == "#_parent" => run.external.push_back(Queued {
                    value: event,
                    kind: Kind::External,
                    sendid: None,
                    invokeid: Some(id.to_string()),
                }),
                // A child's timer is the parent's, under an incarnation of the parent's.
                Request::Schedule { id: t, deadline, .. } => run.set_timer(Timer {
                    id: prefixed(&t),
                    incarnation: 0,
                    deadline,
                    state,
                    event: None,
                    to: None,
                    child: Some(id.to_string()),
                }),
                Request::Cancel { id: t, .. } => {
                    let pid = prefixed(&t);
                    if let Some(at) = run.timers.iter().position(|x| x.id == pid) {
                        let gone = run.timers.remove(at);
                        run.requests.push(Request::Cancel { id: pid, incarnation: gone.incarnation });
                    }
                }
                other => run.requests.push(other),
            }
        }
        let Some(child) = run.children.iter().find(|c| c.id == id) else { return Ok(()) };
        let snapshot = &child.snapshot;
        let end = match snapshot.status {
            Status::Active => return Ok(()),
            Status::Done if self.scxml => {
                let mut e = json!({ "type": format!("xstate.done.actor.{id}") });
                if let Some(out) = &snapshot.output {
                    e["data"] = out.clone();
                }
                e
            }
            Status::Done => {
                json!({ "type": format!("xstate.done.actor.{id}"), "output": snapshot.output.clone().unwrap_or(Value::Null), "actorId": id })
            }
            // A Failure passes up unchanged (its brand and payload), a defect as its reason.
            Status::Failed => {
                let failure = super::failure_of(snapshot.output.as_ref());
                json!({ "type": format!("xstate.error.actor.{id}"), "error": failure, "actorId": id })
            }
            Status::Error => {
                let error = snapshot
                    .error
                    .as_ref()
                    .map_or(Value::Null, |f| f.error.clone().unwrap_or_else(|| Value::String(f.reason.clone())));
                json!({ "type": format!("xstate.error.actor.{id}"), "error": error, "actorId": id })
            }
            // A child is never cancelled by itself: its parent stops it.
            Status::Cancelled => return Ok(()),
        };
        self.drop_child(run, id);
        run.external.push_back(Queued {
            value: end,
            kind: Kind::External,
            sendid: None,
            invokeid: Some(id.to_string()),
        });
        Ok(())
    }

    /// The children of a state being exited stop: their timers go, and the events they sent that
    /// were not taken yet are not.
    pub(crate) fn stop_children(&self, run: &mut Run, s: StateId) {
        let ids: Vec<String> = run.children.iter().filter(|c| c.state == s).map(|c| c.id.clone()).collect();
        for id in &ids {
            self.drop_child(run, id);
        }
        // The events they sent that were not taken yet are not; nor are those of a child that
        // ended in the call that started it (xstate does not start an actor stopped in the
        // macrostep that spawned it; SCXML starts invokes at the macrostep's end). A child that
        // ran and ended before is done: its last events are still taken (W3C test 236).
        let mut gone = ids;
        for i in 0..self.machine.state(s).invokes.len() {
            let id = self.invoke_id(s, i);
            if self.inline(s, i).is_some() && run.started.contains(&id) && !gone.contains(&id) {
                gone.push(id);
            }
        }
        if !gone.is_empty() {
            run.external.retain(|q| q.invokeid.as_ref().is_none_or(|id| !gone.contains(id)));
        }
    }

    fn drop_child(&self, run: &mut Run, id: &str) {
        if let Some(at) = run.children.iter().position(|c| c.id == id) {
            let child = run.children.remove(at);
            super::stop_tree(&mut run.requests, &child.snapshot);
        }
        let mut cancelled = Vec::new();
        run.timers.retain(|t| {
            let mine = t.child.as_deref() == Some(id);
            if mine {
                cancelled.push(Request::Cancel { id: t.id.clone(), incarnation: t.incarnation });
            }
            !mine
        });
        run.requests.extend(cancelled);
    }

    /// SCXML's `autoforward`: an external event goes to each child that asked for them.
    pub(crate) fn autoforward(&self, run: &mut Run, event: &Value) -> Result<(), String> {
        let forward: Vec<String> = run
            .children
            .iter()
            .filter(|c| self.machine.state(c.state).invokes.get(c.invoke).is_some_and(|inv| inv.autoforward))
            .map(|c| c.id.clone())
            .collect();
        for id in forward {
            let e = event.clone();
            self.to_child(run, &id, |rt, s, now| rt.deliver(s, e, now))?;
        }
        Ok(())
    }
}
