//! The crate graph of `ARCHITECTURE.md` is the one Cargo builds: every workspace crate depends
//! (normal, build and dev dependencies alike) only on crates of a lower layer than its own, as the
//! table "The layers" there ranks them, and the IR's and the kit's dependency closures hold no
//! parser, no salsa, no renderer and no LSP, so that a runtime can depend on them alone. The
//! store's closures hold no runtime and no HTTP, and the `store` crate (the traits) no database
//! driver: its backends are crates apart.

use serde_json::Value;
use std::collections::BTreeMap;
use std::process::Command;

/// The layer table of ARCHITECTURE.md: `| rank | crate | ... |` rows between its two markers.
fn layers() -> BTreeMap<String, u32> {
    let doc = std::fs::read_to_string(base::workspace::root().join("ARCHITECTURE.md")).expect("ARCHITECTURE.md");
    let start = doc.find("<!-- layers -->").expect("ARCHITECTURE.md marks its layer table with <!-- layers -->");
    let end = start + doc[start..].find("<!-- /layers -->").expect("and closes it with <!-- /layers -->");
    let mut out = BTreeMap::new();
    for row in doc[start..end].lines().filter(|l| l.starts_with('|')) {
        let cells: Vec<&str> = row.trim_matches('|').split('|').map(str::trim).collect();
        let (Some(rank), Some(name)) = (cells.first(), cells.get(1)) else { continue };
        let Ok(rank) = rank.parse::<u32>() else { continue };
        for name in name.split(',') {
            out.insert(name.trim().trim_matches('`').to_string(), rank);
        }
    }
    out
}

fn cargo(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO")).args(args).current_dir(base::workspace::root()).output().expect("cargo runs");
    assert!(out.status.success(), "cargo {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).expect("UTF-8")
}

#[test]
fn no_crate_depends_on_a_crate_above_it() {
    let layers = layers();
    let metadata: Value =
        serde_json::from_str(&cargo(&["metadata", "--format-version", "1", "--no-deps", "--offline"])).unwrap();
    let packages = metadata["packages"].as_array().expect("packages");
    let members: Vec<&str> = packages.iter().filter_map(|p| p["name"].as_str()).collect();
    for name in &members {
        assert!(layers.contains_key(*name), "ARCHITECTURE.md's layer table does not rank the crate `{name}`");
    }
    let mut edges = 0;
    for p in packages {
        let name = p["name"].as_str().unwrap();
        let rank = layers[name];
        for dep in p["dependencies"].as_array().unwrap() {
            let dep_name = dep["name"].as_str().unwrap();
            if !members.contains(&dep_name) {
                continue;
            }
            edges += 1;
            let dep_rank = layers[dep_name];
            assert!(
                dep_rank < rank,
                "`{name}` (layer {rank}) depends on `{dep_name}` (layer {dep_rank}): a crate depends only on lower layers"
            );
        }
    }
    assert!(edges > 20, "only {edges} edges between the workspace's crates: is the metadata read right?");
}

#[test]
fn the_ir_and_the_kit_need_no_parser_database_renderer_or_lsp() {
    for krate in ["ir", "kit"] {
        let tree = cargo(&["tree", "--offline", "-p", krate, "-e", "normal", "--prefix", "none"]);
        let names: Vec<&str> = tree.lines().filter_map(|l| l.split_whitespace().next()).collect();
        assert!(names.contains(&krate), "{tree}");
        for name in &names {
            let forbidden = name.starts_with("oxc")
                || ["salsa", "ariadne", "chumsky", "syntax", "chart", "machine", "check", "render", "db", "jr2-lsp"]
                    .contains(name)
                || name.starts_with("tower")
                || name.starts_with("tokio");
            assert!(!forbidden, "`{krate}` depends on `{name}`:\n{tree}");
        }
    }
}

/// The crates in a crate's closure (normal dependencies, as `cargo tree` lists them).
fn closure(krate: &str) -> Vec<String> {
    let tree = cargo(&["tree", "--offline", "-p", krate, "-e", "normal", "--prefix", "none"]);
    let names: Vec<String> = tree.lines().filter_map(|l| l.split_whitespace().next()).map(str::to_string).collect();
    assert!(names.iter().any(|n| n == krate), "{tree}");
    names
}

#[test]
fn the_store_needs_no_runtime_or_http_and_its_traits_no_driver() {
    let http = |name: &str| {
        ["http", "hyper", "axum", "reqwest", "ureq", "h2", "tower-http"].contains(&name)
            || name.starts_with("tower")
            || name.starts_with("tokio")
    };
    let runtime = |name: &str| ["runtime", "ir", "kit", "syntax", "chart", "machine", "check", "db"].contains(&name);
    let driver = |name: &str| {
        name.contains("sqlite")
            || ["postgres", "tokio-postgres", "sqlx", "diesel"].contains(&name)
            || name.starts_with("sqlx")
    };
    for krate in ["store", "store-sqlite"] {
        for name in closure(krate) {
            assert!(!http(&name) && !runtime(&name), "`{krate}` depends on `{name}`");
            if krate == "store" {
                assert!(
                    !driver(&name),
                    "`store` (the traits) depends on the driver `{name}`: a backend is a crate apart"
                );
            }
        }
    }
    assert!(closure("store-sqlite").iter().any(|n| n == "rusqlite"), "store-sqlite is on rusqlite");
}
