//! The `command` Effect's secrets and bounds: a command gets the Held secrets its slot names as
//! `JR2_SECRET_<NAME>` and no other (not the host's own), its tail redacted; its bound counts
//! from the intent row's first write, so one restarted after a restore gets what is left, and
//! one whose bound ran out while the host was down settles `timedOut` without running.

#[allow(dead_code)]
mod common;

use common::{context, host, machine_with, settled, TempDir};
use host::{CommandExecutor, Executor, Job, Secrets};
use runtime::Outcome;
use serde_json::{json, Value};
use std::sync::Arc;
use std::time::{Duration, Instant};
use store::{Intent, RunStatus};

fn job(def: ir::Definition, created_at: u64, dir: &std::path::Path) -> Job {
    let slot = ir::Slot { kind: ir::SlotKind::Effect, effect: Some("command".into()), definition: Some(def) };
    Job {
        intent: Intent::new("r/a/1", "r", "a", 1, "cmd", "command", None, false, created_at),
        input: None,
        slot: Some(slot),
        dir: dir.to_path_buf(),
    }
}

fn done(o: Outcome) -> Value {
    match o {
        Outcome::Done(v) => v,
        Outcome::Error(e) => panic!("an error, not an outcome: {e}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_command_gets_only_the_secrets_its_slot_names_and_its_tail_is_redacted() {
    let dir = TempDir::new();
    let mut secrets = Secrets::new();
    secrets.insert("npm", "npm-value-8811").unwrap();
    secrets.insert("other", "other-value-9922").unwrap();
    let exec = CommandExecutor::new(Arc::new(secrets));
    let def = common::command(
        &["/bin/sh", "-c", "env | grep JR2_ | sort; echo \"said $JR2_SECRET_NPM\""],
        false,
        5_000,
        &["npm"],
    );
    let out = done(exec.run(job(def, host::now(), dir.path())).await);
    let tail = out["tail"].as_str().unwrap();
    assert_eq!(out["code"], 0, "{tail}");
    assert!(tail.contains("JR2_SECRET_NPM=[secret]") && tail.contains("said [secret]"), "{tail}");
    assert!(!tail.contains("npm-value") && !tail.contains("OTHER"), "{tail}");

    let def = common::command(&["true"], false, 5_000, &["nope"]);
    let Outcome::Error(e) = exec.run(job(def, host::now(), dir.path())).await else { panic!() };
    assert!(e["reason"].as_str().unwrap().contains("\"nope\""), "{e}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bound_that_ran_out_before_the_start_runs_nothing() {
    let dir = TempDir::new();
    let marker = dir.path().join("ran");
    let exec = CommandExecutor::default();
    let argv = ["/bin/sh", "-c", "touch \"$0\"", marker.to_str().unwrap()];
    let out = done(exec.run(job(common::command(&argv, true, 2_000, &[]), host::now() - 10_000, dir.path())).await);
    assert_eq!(out["outcome"], "timedOut");
    assert_eq!(out["tail"], "");
    assert!(!marker.exists(), "it did not run");
    let out = done(exec.run(job(common::command(&argv, true, 2_000, &[]), host::now(), dir.path())).await);
    assert_eq!(out["outcome"], "exited");
    assert!(marker.exists(), "with its bound whole it runs");
}

/// An idempotent `sleep 5` bounded by 1.5 s runs 0.6 s; the host goes down (its runtime dropped);
/// a new host restores the run and runs it again under its row: it is killed after what was left
/// of its bound (about 0.9 s), not a whole new 1.5 s.
#[test]
fn a_command_run_again_after_a_restore_gets_what_is_left_of_its_bound() {
    let dir = TempDir::new();
    let chart = r##"{ "id": "b", "initial": "work", "states": {
        "work": { "invoke": { "src": "cmd",
          "onDone": { "target": "ok", "actions": [{ "assign": { "result": { "$ref": "event.output" } } }] } } },
        "ok": { "type": "final" } } }"##;
    let m = machine_with(chart, vec![("cmd", common::command(&["sleep", "5"], true, 1_500, &[]))]);
    let rt = || tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    let run = rt().block_on(async {
        let host = host(dir.path()).with_executor("command", Arc::new(CommandExecutor::default()));
        let run = host.start("b", m.clone(), None).await.unwrap();
        tokio::time::sleep(Duration::from_millis(600)).await;
        run
    });
    rt().block_on(async {
        let host = host(dir.path()).with_executor("command", Arc::new(CommandExecutor::default()));
        let started = Instant::now();
        let restored = host.restore().await.unwrap();
        assert_eq!(restored.rerun, 1, "{restored:?}");
        assert_eq!(settled(&host, &run, Duration::from_secs(10)).await, RunStatus::Done);
        let took = started.elapsed();
        let result = context(&host, &m, &run).await["result"].clone();
        assert_eq!(result["outcome"], "timedOut", "{result}");
        assert!(took < Duration::from_millis(1_300), "what was left, not the whole bound: {took:?}");
        assert_eq!(result, json!({ "outcome": "timedOut", "reason": "the command ran past its bound of 1500 ms and was killed", "tail": "" }));
    });
}

/// The host's own `JR2_SECRET_*` and `JR2_TOKEN` never reach a command that does not name them.
/// The test runs itself again with those set in its environment (so that no thread of this
/// process changes its environment); the child runs `env` as a command and reads its tail.
#[test]
fn the_hosts_own_secrets_are_not_inherited() {
    const NAME: &str = "the_hosts_own_secrets_are_not_inherited";
    if std::env::var_os("JR2_SECRET_HOSTS_OWN").is_none() {
        let status = std::process::Command::new(std::env::current_exe().unwrap())
            .args([NAME, "--exact", "--nocapture"])
            .env("JR2_SECRET_HOSTS_OWN", "hosts-own-value-5150")
            .env("JR2_TOKEN", "token-value-6160")
            .status()
            .unwrap();
        assert!(status.success(), "the child run of the test: {status}");
        return;
    }
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    let dir = TempDir::new();
    let mut secrets = Secrets::new();
    secrets.insert("named", "named-value-7170").unwrap();
    let exec = CommandExecutor::new(Arc::new(secrets));
    let out = rt.block_on(exec.run(job(common::command(&["env"], false, 5_000, &["named"]), host::now(), dir.path())));
    let out = done(out);
    let tail = out["tail"].as_str().unwrap();
    assert!(tail.contains("JR2_SECRET_NAMED=[secret]"), "{tail}");
    assert!(!tail.contains("HOSTS_OWN") && !tail.contains("hosts-own-value"), "{tail}");
    assert!(!tail.contains("JR2_TOKEN") && !tail.contains("token-value"), "{tail}");
    assert!(tail.contains("PATH="), "the rest of the environment is inherited: {tail}");
}
