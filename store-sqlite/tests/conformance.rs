//! The store's conformance suite (`store::conformance`) on SQLite, each test on a fresh database.

mod common;

store::conformance_tests!(common::Sqlite::fresh);
