//! What the host tells of its runs to whoever watches (the HTTP API's `/runs/<id>/events` and
//! `GET /runs/<id>`): a note per committed macrostep ([`Host::subscribe`]), and a run's
//! configuration, Gates and end read from its snapshot ([`Host::inspect`]). Nothing here changes a
//! run.

use crate::{blocking, lock, Error, Host, Result};
use runtime::{Fault, Waiting};
use serde::Serialize;
use serde_json::Value;
use std::collections::HashMap;
use std::sync::Mutex;
use tokio::sync::broadcast;

/// How many notes a subscriber may fall behind before it misses some (it is told so:
/// `RecvError::Lagged`).
pub const NOTES: usize = 256;

/// A macrostep committed: sent to the run's subscribers after its commit.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct StepNote {
    pub run_id: String,
    /// The run's step number after it (0: its start).
    pub step: u64,
    /// The store's word for its status (`live`, `done`, ...).
    pub status: String,
    /// Its active atomic states, by name.
    pub configuration: Vec<String>,
    /// The type of the event the step took, where it took one from outside or from an Effect.
    pub event: Option<String>,
}

/// The subscribers of each run.
#[derive(Default)]
pub(crate) struct Watchers(Mutex<HashMap<String, broadcast::Sender<StepNote>>>);

impl Watchers {
    /// Tells a run's subscribers of a step; a run that ended is forgotten (its receivers close
    /// once they have read the last note).
    pub(crate) fn tell(&self, note: StepNote, ended: bool) {
        let mut map = lock(&self.0);
        if let Some(tx) = map.get(&note.run_id) {
            let _ = tx.send(note.clone());
        }
        if ended {
            map.remove(&note.run_id);
        }
    }
}

/// A run as a watcher reads it: its row's head, where it is, the Gates waiting and its end.
#[derive(Clone, Debug, PartialEq)]
pub struct Inspected {
    pub head: store::RunHead,
    /// The active atomic states, by name (empty where the snapshot could not be read).
    pub configuration: Vec<String>,
    /// The Gates waiting, each with the events it may send now ([`runtime::Runtime::gates`]).
    pub gates: Vec<Waiting>,
    /// The Machine's output (`done`), the Failure's `{ reason, detail }` (`failed`).
    pub output: Option<Value>,
    /// Why it ended `error`.
    pub error: Option<Fault>,
}

impl Host {
    /// The notes of each macrostep of `run` committed from now on. Subscribe before reading the
    /// run's head, so that no step falls between the two. A run that ends sends its last note,
    /// then closes the channel.
    pub fn subscribe(&self, run: &str) -> broadcast::Receiver<StepNote> {
        let mut map = lock(&self.inner.watchers.0);
        // Runs subscribed to once and no longer watched (or never stepped again) are dropped.
        map.retain(|_, tx| tx.receiver_count() > 0);
        map.entry(run.to_string()).or_insert_with(|| broadcast::channel(NOTES).0).subscribe()
    }

    /// A run read for a watcher: `None` for no such run. Its snapshot is decoded against its
    /// program (read only); a run whose IR or snapshot does not load shows its head alone.
    pub async fn inspect(&self, run: &str) -> Result<Option<Inspected>> {
        let inner = self.inner.clone();
        let run = run.to_string();
        blocking(move || {
            let read = inner.store.read()?;
            let Some(row) = read.run(&run)? else { return Ok(None) };
            let mut out =
                Inspected { head: row.head, configuration: Vec::new(), gates: Vec::new(), output: None, error: None };
            let Ok(program) = inner.program(&*read, &out.head.identity) else { return Ok(Some(out)) };
            let rt = program.runtime();
            let Ok(live) = serde_json::from_str::<Value>(&row.snapshot)
                .map_err(|e| Error::Invalid(e.to_string()))
                .and_then(|v| rt.restore(&v).map_err(|e| Error::Invalid(e.to_string())))
            else {
                return Ok(Some(out));
            };
            out.configuration = rt.atomic_live(&live).into_iter().map(|s| rt.name(s)).collect();
            out.gates = rt.gates(&live);
            out.output = live.output().cloned();
            out.error = live.error().cloned();
            Ok(Some(out))
        })
        .await
    }
}
