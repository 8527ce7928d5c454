//! The numbered migrations: the folder and `MIGRATIONS` agree, numbered from 1 with no gap; a
//! database gets each once, recorded; a database newer than this build is refused, not written;
//! the connection runs with WAL, `synchronous=FULL` and foreign keys.

mod common;

use common::Sqlite;
use store::conformance::Backend;
use store::{Error, Limits};
use store_sqlite::{Settings, MIGRATIONS};

#[test]
fn the_migrations_are_the_folder_numbered_without_a_gap() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("migrations");
    let mut files: Vec<String> = std::fs::read_dir(&dir)
        .expect("migrations/")
        .map(|e| e.expect("an entry").file_name().into_string().expect("a UTF-8 name"))
        .collect();
    files.sort();
    assert!(!files.is_empty());
    for (n, file) in files.iter().enumerate() {
        let (number, rest) = file.split_once('_').unwrap_or_else(|| panic!("{file}: not NNNN_name.sql"));
        assert!(number.len() == 4 && rest.ends_with(".sql"), "{file}: not NNNN_name.sql");
        assert_eq!(number.parse::<usize>().expect("a number"), n + 1, "{file}: the migrations have a gap before it");
        let listed = MIGRATIONS.get(n).unwrap_or_else(|| panic!("{file} is not in MIGRATIONS"));
        assert_eq!((listed.version as usize, listed.name), (n + 1, file.as_str()));
        let text = std::fs::read_to_string(dir.join(file)).expect("its text");
        assert_eq!(listed.sql, text, "{file}: MIGRATIONS holds another text");
    }
    assert_eq!(MIGRATIONS.len(), files.len(), "MIGRATIONS lists a file the folder lacks");
}

#[test]
fn each_migration_is_applied_once_and_recorded() {
    let backend = Sqlite::fresh();
    let known = MIGRATIONS.last().unwrap().version;
    assert_eq!(backend.open(Limits::default()).unwrap().schema_version().unwrap(), known);
    // Opening again applies nothing twice (the tables exist: a second CREATE would fail).
    assert_eq!(backend.open(Limits::default()).unwrap().schema_version().unwrap(), known);
    let conn = rusqlite::Connection::open(backend.db()).unwrap();
    let rows: Vec<(i64, String)> = conn
        .prepare("SELECT version, name FROM jr2_migrations ORDER BY version")
        .unwrap()
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    let expected: Vec<(i64, String)> = MIGRATIONS.iter().map(|m| (m.version as i64, m.name.to_string())).collect();
    assert_eq!(rows, expected);
}

#[test]
fn a_database_newer_than_this_build_is_refused() {
    let backend = Sqlite::fresh();
    drop(backend.open(Limits::default()).unwrap());
    let known = MIGRATIONS.last().unwrap().version;
    let conn = rusqlite::Connection::open(backend.db()).unwrap();
    conn.execute(
        "INSERT INTO jr2_migrations (version, name, applied_at) VALUES (?1, '9999_future.sql', 0)",
        [known + 1],
    )
    .unwrap();
    drop(conn);
    match backend.open(Limits::default()) {
        Err(e @ Error::Version { .. }) => {
            assert_eq!(e, Error::Version { found: known + 1, known });
            assert!(e.to_string().contains("newer"), "{e}");
        }
        other => panic!("a newer database: {:?}", other.map(|_| ())),
    }
}

#[test]
fn connections_run_with_wal_full_sync_and_foreign_keys() {
    let backend = Sqlite::fresh();
    let store = backend.open(Limits::default()).unwrap();
    let conn = rusqlite::Connection::open(backend.db()).unwrap();
    let mode: String = conn.query_row("PRAGMA journal_mode", [], |r| r.get(0)).unwrap();
    assert_eq!(mode, "wal", "WAL is the database's mode, kept in its file");
    drop(conn);
    // The store's own connections: a row naming a run that does not exist is refused by SQLite.
    let e = store::StoreExt::transaction(&store, |tx| {
        tx.put_timer(&store::Timer { run: "nobody".into(), id: "t".into(), incarnation: 1, due: 1, event: None })
    });
    assert!(matches!(e, Err(Error::NotFound(_))), "foreign keys are on: {e:?}");
    let settings = store.settings().unwrap();
    assert_eq!(settings, Settings { journal_mode: "wal".into(), synchronous_full: true, foreign_keys: true });
}
