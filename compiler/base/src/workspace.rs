//! The workspace's root folder, for the tests, benchmarks and tools that read the repository's own
//! files (fixtures, docs, snapshots, the example Instance): one place that knows where it is, so
//! no crate counts `../` from its own folder.

use std::path::{Path, PathBuf};

/// The folder of the workspace's `Cargo.lock`, above this crate's folder at build time.
pub fn root() -> PathBuf {
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    here.ancestors().find(|dir| dir.join("Cargo.lock").is_file()).unwrap_or(here).to_path_buf()
}
