//! `jr2 graph`: the Mermaid and DOT pictures of every Workflow of the example Instance, of its
//! named Charts and of a parallel and nested fixture, as snapshots (`snapshots/graph/`); and,
//! where Graphviz and librsvg are installed, the DOT laid out by `dot -Tsvg` without a warning
//! and its SVG read by `rsvg-convert`. Under CI (`CI=true`) a missing tool fails the test; outside
//! it the test says that it did not run. (The Mermaid pictures are rendered in a browser by
//! `tests/graph/run.sh`.)

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Each picture: its snapshot name, the file and the `--state` it draws.
const CASES: &[(&str, &str, Option<&str>)] = &[
    ("fix-tests", "examples/instance/workflows/fix-tests.ts", None),
    ("notes", "examples/instance/workflows/notes.ts", None),
    ("release-check", "examples/instance/workflows/release-check.ts", None),
    ("triage", "examples/instance/workflows/triage.ts", None),
    ("notes-post", "examples/instance/workflows/notes/post.json", None),
    ("notes-weekly", "examples/instance/workflows/notes/weekly.json", None),
    ("nested", "tests/fixtures/graph/nested.ts", None),
    ("nested-at-making", "tests/fixtures/graph/nested.ts", Some("work.making")),
    ("triage-at-triaging", "examples/instance/workflows/triage.ts", Some("triaging")),
];

fn jr2(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_jr2"))
        .args(args)
        .current_dir(root())
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .output()
        .expect("run jr2")
}

fn graph(file: &str, state: Option<&str>, format: &str) -> String {
    let mut args = vec!["graph", file, "--format", format];
    if let Some(s) = state {
        args.extend(["--state", s]);
    }
    let o = jr2(&args);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "jr2 {}: {stderr}", args.join(" "));
    assert!(stderr.is_empty(), "jr2 {} wrote to stderr: {stderr}", args.join(" "));
    String::from_utf8(o.stdout).expect("UTF-8")
}

#[test]
fn pictures_of_the_example_instance_and_the_fixture() {
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path(concat!(env!("CARGO_MANIFEST_DIR"), "/snapshots/graph"));
    settings.set_prepend_module_to_snapshot(false);
    settings.set_omit_expression(true);
    for &(name, file, state) in CASES {
        let mermaid = graph(file, state, "mermaid");
        let dot = graph(file, state, "dot");
        // The same IR draws the same text.
        assert_eq!(mermaid, graph(file, state, "mermaid"), "{name}: not deterministic");
        settings.set_input_file(root().join(file));
        settings.bind(|| {
            insta::assert_snapshot!(format!("{name}.mermaid"), mermaid);
            insta::assert_snapshot!(format!("{name}.dot"), dot);
        });
    }
}

#[test]
fn an_unknown_state_is_a_usage_error_that_lists_the_states() {
    let o = jr2(&["graph", "examples/instance/workflows/triage.ts", "--state", "nope"]);
    assert_eq!(o.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(stderr.contains("no state \"nope\"") && stderr.contains("triaging.ready"), "{stderr}");
}

/// Is a tool there? Under CI its absence is a failure; elsewhere the caller skips, saying so.
fn tool(name: &str, version_arg: &str, apt: &str) -> bool {
    let found = Command::new(name).arg(version_arg).stdout(Stdio::null()).stderr(Stdio::null()).status().is_ok();
    if !found {
        let ci = std::env::var("CI").is_ok_and(|v| v == "true");
        assert!(!ci, "CI=true and `{name}` is not on the PATH: install it (apt-get install {apt})");
        eprintln!("graph: `{name}` is not on the PATH (apt-get install {apt}); this test did not run");
    }
    found
}

/// Runs a command over `input` on stdin.
fn pipe(cmd: &mut Command, input: &[u8]) -> Output {
    use std::io::Write;
    let mut child = cmd.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().expect("spawn");
    let mut stdin = child.stdin.take().expect("stdin");
    let input = input.to_vec();
    let writer = std::thread::spawn(move || stdin.write_all(&input));
    let out = child.wait_with_output().expect("wait");
    writer.join().expect("writer").expect("write stdin");
    out
}

#[test]
fn graphviz_lays_out_every_dot_picture_and_librsvg_reads_its_svg() {
    if !tool("dot", "-V", "graphviz") || !tool("rsvg-convert", "--version", "librsvg2-bin") {
        return;
    }
    for &(name, file, state) in CASES {
        let dot = graph(file, state, "dot");
        let o = pipe(Command::new("dot").arg("-Tsvg"), dot.as_bytes());
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert!(o.status.success(), "{name}: dot refused the DOT: {stderr}\n{dot}");
        // A warning (a cluster edge it could not clip, a bad attribute) is a picture drawn wrong.
        assert!(stderr.trim().is_empty(), "{name}: dot warned: {stderr}");
        // `jr2 graph --format svg` is that same layout.
        let svg = graph(file, state, "svg");
        assert_eq!(svg.as_bytes(), o.stdout.as_slice(), "{name}: --format svg is not dot's layout of --format dot");
        assert!(svg.contains("<svg"), "{name}: no <svg> element");
        let png = pipe(Command::new("rsvg-convert").args(["--format", "png"]), svg.as_bytes());
        assert!(
            png.status.success() && png.stdout.starts_with(b"\x89PNG"),
            "{name}: rsvg-convert could not read the SVG: {}",
            String::from_utf8_lossy(&png.stderr)
        );
    }
}

#[test]
fn svg_without_graphviz_says_how_to_get_it() {
    let empty = std::env::temp_dir().join(format!("jr2-graph-no-path-{}", std::process::id()));
    std::fs::create_dir_all(&empty).expect("temp dir");
    let o = Command::new(env!("CARGO_BIN_EXE_jr2"))
        .args(["graph", "examples/instance/workflows/triage.ts", "--format", "svg"])
        .current_dir(root())
        .env("PATH", Path::new(&empty))
        .output()
        .expect("run jr2");
    let _ = std::fs::remove_dir(&empty);
    assert_eq!(o.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(stderr.contains("`dot` is not on the PATH") && stderr.contains("apt-get install graphviz"), "{stderr}");
}
