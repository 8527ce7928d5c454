//! What the host's tests share: a fresh folder per database, Machines written as Charts with
//! `command` and `http` slots put in, waiting for a run's status, and a small HTTP server.

pub(crate) mod server;

use host::{Config, Host};
use ir::slot::{Argv, ArgvItem, Definition, Effect, EffectRun, Part};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use store::{Limits, RunStatus};
use store_sqlite::SqliteStore;

/// A folder of its own under the system's temporary folder, removed when dropped.
pub(crate) struct TempDir(PathBuf);

impl TempDir {
    pub(crate) fn new() -> TempDir {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.subsec_nanos());
        let dir = std::env::temp_dir().join(format!(
            "jr2-host-{}-{}-{nanos}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        ));
        std::fs::create_dir_all(&dir).expect("a temporary folder");
        TempDir(dir)
    }

    pub(crate) fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A host over the SQLite database of `dir` (made where there is none), with no executor yet.
pub(crate) fn host(dir: &Path) -> Host {
    let store = SqliteStore::open(&dir.join("jr2.db"), Limits::default()).expect("the store opens");
    Host::new(Arc::new(store), Config { work_dir: dir.join("effects") })
}

/// The test binary itself started again as the child host over `dir` (`JR2_HOST_CHILD`): the
/// crash tests' child, which the parent SIGKILLs and starts again.
pub(crate) fn spawn_child(dir: &Path) -> std::process::Child {
    std::process::Command::new(std::env::current_exe().expect("the test binary"))
        .env("JR2_HOST_CHILD", dir)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::inherit())
        .spawn()
        .expect("the child starts")
}

/// A Chart lowered, its slot `slot` made a `command` Effect of `argv` (`{name}` an `arg`).
pub(crate) fn machine(chart: &str, slot: &str, argv: &[&str], idempotent: bool) -> ir::Machine {
    machine_with(chart, vec![(slot, command(argv, idempotent, 20_000, &[]))])
}

/// A `command` Effect of `argv` (`{name}` an `arg`), bounded by `timeout` ms, given `secrets`.
pub(crate) fn command(argv: &[&str], idempotent: bool, timeout: u64, secrets: &[&str]) -> Definition {
    let items = argv
        .iter()
        .map(|a| match a.strip_prefix('{').and_then(|a| a.strip_suffix('}')) {
            Some(name) => ArgvItem::Arg { arg: name.into() },
            None => ArgvItem::Literal((*a).to_string()),
        })
        .collect();
    Definition::Effect(Effect {
        run: EffectRun::Command { argv: Argv::List(items), pin: false },
        idempotent,
        timeout: Some(Part::Value(ir::Json::Number(timeout.into()))),
        secrets: secrets.iter().map(|s| (*s).into()).collect(),
        options: Default::default(),
        unread: Default::default(),
    })
}

/// An `http` Effect: `method` to `url`, `bearer(secret(NAME))` where given, bounded by `timeout` ms.
pub(crate) fn http(method: &str, url: &str, bearer: Option<&str>, timeout: u64) -> Definition {
    Definition::Effect(Effect {
        run: EffectRun::Http {
            method: Part::Value(ir::Json::String(method.into())),
            url: Some(Part::Value(ir::Json::String(url.into()))),
            input: None,
            auth: bearer.map(|b| Part::Call { name: "bearer".into(), args: vec![Part::Secret(b.into())] }),
            request: None,
        },
        idempotent: false,
        timeout: Some(Part::Value(ir::Json::Number(timeout.into()))),
        secrets: bearer.into_iter().map(Into::into).collect(),
        options: Default::default(),
        unread: Default::default(),
    })
}

/// A Chart lowered, each of `slots` given its Effect definition.
pub(crate) fn machine_with(chart: &str, slots: Vec<(&str, Definition)>) -> ir::Machine {
    let arena = syntax::json::Arena::new();
    let parsed = syntax::json::parse(chart, &arena);
    assert!(parsed.errors.is_empty(), "{:?}", parsed.errors);
    let lowered = chart::lower::lower(&parsed.value, None);
    assert!(lowered.faults.is_empty(), "{:?}", lowered.faults);
    let mut sc = lowered.machine.statechart().clone();
    for (slot, definition) in slots {
        let kind = match &definition {
            Definition::Effect(e) => e.run.kind(),
            _ => "effect",
        };
        sc.slots.insert(
            slot.into(),
            ir::Slot { kind: ir::SlotKind::Effect, effect: Some(kind.into()), definition: Some(definition) },
        );
        for state in &mut sc.states {
            for invoke in &mut state.invokes {
                if invoke.src == slot {
                    invoke.kind = ir::SlotKind::Effect;
                }
            }
        }
    }
    ir::Machine::lowered(sc)
}

/// Waits (at most `within`) until the run's status is not `live`: its status.
pub(crate) async fn settled(host: &Host, run: &str, within: Duration) -> RunStatus {
    let end = Instant::now() + within;
    loop {
        let status = host.head(run).await.expect("the store reads").expect("the run exists").status;
        if status != RunStatus::Live || Instant::now() > end {
            return status;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

/// The run's context, read back from its stored snapshot against its IR.
pub(crate) async fn context(host: &Host, machine: &ir::Machine, run: &str) -> serde_json::Value {
    let row = host.run(run).await.unwrap().unwrap();
    let program = runtime::Program::new(machine.clone());
    let stored: serde_json::Value = serde_json::from_str(&row.snapshot).unwrap();
    program.runtime().decode(&stored).expect("the snapshot fits its IR").context.to_json()
}
