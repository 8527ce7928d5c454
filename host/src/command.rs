//! The `command` Effect's executor: a process from the slot's argv, each `arg("name")` filled from
//! the invoke's input, run with no shell in a fresh folder of its own, in its own process group,
//! bounded by a timeout, its output kept as a tail.
//!
//! Outcomes (every outcome of a process that ran is output, as the seeds' `command` shows):
//! - `{ "outcome": "exited", "code", "tail" }`: it ended; `code` is its exit code (`null` when a
//!   signal ended it), `tail` the last [`TAIL`] bytes of its stdout and stderr as they came
//!   (lossy UTF-8).
//! - `{ "outcome": "timedOut", "reason", "tail" }`: it ran past its bound and was killed (the
//!   slot's `timeout` in ms, else [`CommandExecutor::timeout`]). This shape is the host's: the
//!   seeds name none for it. The bound counts from the intent row's first write, so a command
//!   started again after a restore (an idempotent one) gets what is left of it, and one whose
//!   bound ran out while the host was down settles `timedOut` without running (`tail` empty).
//!
//! Secrets: the process gets each Held secret its slot's `secrets` names as the environment
//! variable `JR2_SECRET_<NAME>` ([`crate::secrets::env_name`]), and no other: the host's own
//! `JR2_SECRET_*` variables and `JR2_TOKEN` are removed from what it inherits. Its `tail` (and
//! every outcome) has each placed value replaced by `[secret]`.
//!
//! An error (the invoke's `onError`, kept for defects): a slot that is no `command` or whose argv
//! is open or unknown, an `arg` the input does not give (or gives as no string, number or
//! boolean), an empty argv, a program that cannot be started.
//!
//! Dropping the future (the state was exited) kills the process (`kill_on_drop`). What the process
//! started itself in its group is not killed by that: a known gap until the host signals the
//! group.

use crate::secrets::{env_name, Secrets, ENV_PREFIX};
use crate::{BoxFuture, Executor, Job};
use ir::slot::{Argv, ArgvItem, Definition, EffectRun, Part};
use runtime::Outcome;
use serde_json::{json, Value};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncReadExt};

/// The bytes of output a command's outcome keeps (its last ones).
pub const TAIL: usize = 8 * 1024;

/// Runs `command` Effects.
#[derive(Clone, Debug)]
pub struct CommandExecutor {
    /// The bound of a command whose slot sets no `timeout`.
    pub timeout: Duration,
    /// The secrets it may place (each only in a command whose slot names it).
    pub secrets: Arc<Secrets>,
}

impl Default for CommandExecutor {
    /// A 10-minute default bound, no secrets.
    fn default() -> CommandExecutor {
        CommandExecutor { timeout: Duration::from_secs(10 * 60), secrets: Arc::default() }
    }
}

impl CommandExecutor {
    /// Commands that may be given secrets of `secrets`.
    pub fn new(secrets: Arc<Secrets>) -> CommandExecutor {
        CommandExecutor { secrets, ..CommandExecutor::default() }
    }
}

fn defect(reason: impl Into<String>) -> Outcome {
    Outcome::Error(json!({ "reason": reason.into() }))
}

/// The argv of a `command` slot with its args filled from `input`, and its timeout (ms) where it
/// sets one; else why the slot cannot run.
pub fn argv(slot: Option<&ir::Slot>, input: Option<&Value>) -> Result<(Vec<String>, Option<u64>), String> {
    let Some(Definition::Effect(effect)) = slot.and_then(|s| s.definition.as_ref()) else {
        return Err("the slot has no Effect definition".into());
    };
    let EffectRun::Command { argv, .. } = &effect.run else {
        return Err(format!("the slot is a `{}` Effect, not a `command`", effect.run.kind()));
    };
    let items = match argv {
        Argv::List(items) => items,
        Argv::Open => return Err("the command's argv is open (no `customize()` bound it)".into()),
        Argv::Unknown(why) => return Err(format!("the command's argv could not be read: {why}")),
    };
    let mut out = Vec::with_capacity(items.len());
    for item in items {
        match item {
            ArgvItem::Literal(s) => out.push(s.clone()),
            ArgvItem::Arg { arg } => match input.and_then(|i| i.get(arg.as_str())) {
                Some(Value::String(s)) => out.push(s.clone()),
                Some(v @ (Value::Number(_) | Value::Bool(_))) => out.push(v.to_string()),
                Some(_) => return Err(format!("the input's `{arg}` is no string, number or boolean")),
                None => return Err(format!("the input gives no `{arg}` for `arg(\"{arg}\")`")),
            },
            ArgvItem::Unknown { unknown } => return Err(format!("an argv element could not be read: {unknown}")),
        }
    }
    if out.is_empty() {
        return Err("the command's argv is empty".into());
    }
    let timeout = match &effect.timeout {
        Some(Part::Value(ir::Json::Number(n))) => n.as_f64().filter(|n| *n >= 0.0).map(|n| n as u64),
        _ => None,
    };
    Ok((out, timeout))
}

impl Executor for CommandExecutor {
    fn run(&self, job: Job) -> BoxFuture<Outcome> {
        let default = self.timeout;
        let secrets = self.secrets.clone();
        Box::pin(async move {
            let (argv, timeout) = match argv(job.slot.as_ref(), job.input.as_ref()) {
                Ok(a) => a,
                Err(why) => return defect(why),
            };
            let names = match job.slot.as_ref().and_then(|s| s.definition.as_ref()) {
                Some(Definition::Effect(e)) => e.secrets.clone(),
                _ => Vec::new(),
            };
            let placed = match secrets.place(&names) {
                Ok(p) => p,
                Err(missing) => return defect(missing.to_string()),
            };
            let bound = timeout.map_or(default, Duration::from_millis);
            let left = crate::bound_left(bound, job.intent.created_at, crate::now());
            if left.is_zero() {
                return Outcome::Done(json!({
                    "outcome": "timedOut",
                    "reason": format!(
                        "the command's bound of {} ms ran out before it ran (it counts from the intent's first write)",
                        bound.as_millis()
                    ),
                    "tail": "",
                }));
            }
            let outcome = run(&job, &argv, bound, left, &placed).await;
            placed.redact_outcome(outcome)
        })
    }
}

/// Runs the process: `left` is what is left of its `bound`.
async fn run(job: &Job, argv: &[String], bound: Duration, left: Duration, placed: &crate::secrets::Placed) -> Outcome {
    if let Err(e) = std::fs::create_dir_all(&job.dir) {
        return defect(format!("its folder {} could not be made: {e}", job.dir.display()));
    }
    let mut cmd = tokio::process::Command::new(&argv[0]);
    cmd.args(&argv[1..])
        .current_dir(&job.dir)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .kill_on_drop(true)
        .process_group(0);
    // Only the secrets its slot names: none of the host's own.
    for (k, _) in std::env::vars_os() {
        if k.to_str().is_some_and(|k| k.starts_with(ENV_PREFIX) || k == "JR2_TOKEN") {
            cmd.env_remove(&k);
        }
    }
    for (name, value) in placed.iter() {
        cmd.env(env_name(name), value);
    }
    let mut child = match cmd.spawn() {
        Ok(c) => c,
        Err(e) => return defect(format!("{:?} could not be started: {e}", argv[0])),
    };
    let tail = Arc::new(Mutex::new(Tail::default()));
    let out = child.stdout.take().map(|o| tokio::spawn(collect(o, tail.clone())));
    let err = child.stderr.take().map(|e| tokio::spawn(collect(e, tail.clone())));
    let waited = tokio::time::timeout(left, child.wait()).await;
    let timed_out = waited.is_err();
    if timed_out {
        let _ = child.kill().await;
    }
    for reader in [out, err].into_iter().flatten() {
        // A grandchild holding the pipe open does not keep the outcome waiting for ever.
        let _ = tokio::time::timeout(Duration::from_secs(1), reader).await;
    }
    let tail = tail.lock().map(|t| t.text(placed)).unwrap_or_default();
    match waited {
        Ok(Ok(status)) => Outcome::Done(json!({ "outcome": "exited", "code": status.code(), "tail": tail })),
        Ok(Err(e)) => defect(format!("waiting for {:?} failed: {e}", argv[0])),
        Err(_) => Outcome::Done(json!({
            "outcome": "timedOut",
            "reason": format!("the command ran past its bound of {} ms and was killed", bound.as_millis()),
            "tail": tail,
        })),
    }
}

/// The last [`TAIL`] bytes of the output, in the order they came, and whether any was dropped.
#[derive(Default)]
struct Tail(std::collections::VecDeque<u8>, bool);

impl Tail {
    fn push(&mut self, bytes: &[u8]) {
        self.0.extend(bytes);
        let over = self.0.len().saturating_sub(TAIL);
        self.1 |= over > 0;
        self.0.drain(..over);
    }

    /// The text, each placed secret redacted (and, where the start was cut, a value's end there).
    fn text(&self, placed: &crate::secrets::Placed) -> String {
        let bytes: Vec<u8> = self.0.iter().copied().collect();
        let text = String::from_utf8_lossy(&bytes);
        if self.1 {
            placed.redact_cut(&text, true)
        } else {
            placed.redact(&text)
        }
    }
}

async fn collect(mut from: impl AsyncRead + Unpin, tail: Arc<Mutex<Tail>>) {
    let mut buf = [0u8; 4096];
    while let Ok(n) = from.read(&mut buf).await {
        if n == 0 {
            break;
        }
        if let Ok(mut t) = tail.lock() {
            t.push(&buf[..n]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ir::slot::Effect;

    fn slot(items: Vec<ArgvItem>) -> ir::Slot {
        ir::Slot {
            kind: ir::SlotKind::Effect,
            effect: Some("command".into()),
            definition: Some(Definition::Effect(Effect {
                run: EffectRun::Command { argv: Argv::List(items), pin: false },
                idempotent: false,
                timeout: Some(Part::Value(ir::Json::Number(250.into()))),
                secrets: Vec::new(),
                options: Default::default(),
                unread: Default::default(),
            })),
        }
    }

    #[test]
    fn args_are_filled_from_the_input_and_a_missing_one_is_named() {
        let s = slot(vec![ArgvItem::Literal("echo".into()), ArgvItem::Arg { arg: "file".into() }]);
        assert_eq!(
            argv(Some(&s), Some(&json!({ "file": "a.txt" }))),
            Ok((vec!["echo".into(), "a.txt".into()], Some(250)))
        );
        assert_eq!(argv(Some(&s), Some(&json!({ "file": 3 }))).unwrap().0[1], "3");
        assert_eq!(argv(Some(&s), None).unwrap_err(), "the input gives no `file` for `arg(\"file\")`");
        assert!(argv(Some(&s), Some(&json!({ "file": {} }))).unwrap_err().contains("no string"));
        assert!(argv(None, None).is_err());
        assert_eq!(argv(Some(&slot(vec![])), None).unwrap_err(), "the command's argv is empty");
    }

    #[test]
    fn the_tail_keeps_the_last_bytes() {
        let mut t = Tail::default();
        t.push(&vec![b'a'; TAIL]);
        t.push(b"end");
        let text = t.text(&Default::default());
        assert_eq!(text.len(), TAIL);
        assert!(text.ends_with("aend"));
    }
}
