//! What the store-sqlite tests share: a fresh folder per database, and the conformance suite's
//! backend over it.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use store::conformance::{Backend, Damage};
use store::{Error, Limits};
use store_sqlite::SqliteStore;

/// A folder of its own under the system's temporary folder, removed when dropped.
pub(crate) struct TempDir(PathBuf);

impl TempDir {
    pub(crate) fn new() -> TempDir {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.subsec_nanos());
        let dir = std::env::temp_dir().join(format!(
            "jr2-store-{}-{}-{nanos}",
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

/// One SQLite database in a fresh folder.
pub(crate) struct Sqlite {
    pub(crate) dir: TempDir,
}

impl Sqlite {
    #[allow(dead_code)]
    pub(crate) fn fresh() -> Sqlite {
        Sqlite { dir: TempDir::new() }
    }

    pub(crate) fn db(&self) -> PathBuf {
        self.dir.path().join("jr2.db")
    }
}

impl Backend for Sqlite {
    type Store = SqliteStore;

    fn open(&self, limits: Limits) -> Result<SqliteStore, Error> {
        SqliteStore::open(&self.db(), limits)
    }

    fn corrupt(&self, damage: &Damage) -> Result<(), Error> {
        let conn = rusqlite::Connection::open(self.db()).map_err(|e| Error::Io(e.to_string()))?;
        let (sql, keys): (&str, Vec<&str>) = match damage {
            Damage::RunStatus { run } => ("UPDATE runs SET status = 'sleeping' WHERE id = ?1", vec![run]),
            Damage::RunSnapshot { run } => {
                ("UPDATE runs SET snapshot = CAST(x'fffe' AS TEXT) WHERE id = ?1", vec![run])
            }
            Damage::RunStep { run } => ("UPDATE runs SET step = -1 WHERE id = ?1", vec![run]),
            Damage::IntentState { id } => ("UPDATE intents SET state = 'lost' WHERE id = ?1", vec![id]),
            Damage::TimerDue { run, id } => ("UPDATE timers SET due = -5 WHERE run = ?1 AND id = ?2", vec![run, id]),
        };
        let n = conn.execute(sql, rusqlite::params_from_iter(keys)).map_err(|e| Error::Io(e.to_string()))?;
        if n == 0 {
            return Err(Error::NotFound(format!("no row to damage for {damage:?}")));
        }
        Ok(())
    }
}
