//! The Instance check's unreadable paths (issue 16, item 5): each path it cannot read is in the
//! report's `unreadable`, with the system's reason, and in no file's diagnostics — not an
//! `unresolved-import` for a Workflow it could not open, not one line for every kind of failure.
//! A named Chart that is no UTF-8 text is read and refused (`json-syntax` at its first bad byte),
//! the rest checked.

use check::instance::{check_instance, InstanceReport, Unreadable};
use std::path::{Path, PathBuf};

/// The bundled example Instance, copied into a fresh folder.
fn instance(name: &str) -> PathBuf {
    let to = std::env::temp_dir().join(format!("jr2-unreadable-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&to);
    copy_dir(&base::workspace::root().join("examples/instance"), &to);
    to
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for e in std::fs::read_dir(from).expect("read_dir").flatten() {
        if e.file_type().expect("type").is_dir() {
            copy_dir(&e.path(), &to.join(e.file_name()));
        } else {
            std::fs::copy(e.path(), to.join(e.file_name())).expect("copy");
        }
    }
}

/// Each unreadable path as `path relative to root: why`.
fn said(root: &Path, report: &InstanceReport) -> Vec<String> {
    report
        .unreadable
        .iter()
        .map(|Unreadable { path, why }| format!("{}: {why}", path.strip_prefix(root).unwrap_or(path).display()))
        .collect()
}

fn codes(report: &InstanceReport) -> Vec<&str> {
    report.files.iter().flat_map(|f| &f.diagnostics).map(|d| d.code).collect()
}

#[test]
fn a_workflow_that_is_no_utf8_text_is_unreadable_not_an_unresolved_import() {
    let root = instance("not-utf8-ts");
    std::fs::write(root.join("workflows/bad.ts"), b"export const x = \"\xff\";\n").expect("write");
    let report = check_instance(&root);
    assert_eq!(said(&root, &report), ["workflows/bad.ts: not UTF-8 (at byte 18)"]);
    assert!(!codes(&report).contains(&"unresolved-import"), "{:?}", codes(&report));
    assert!(report.file(&root.join("workflows/bad.ts")).is_none(), "an unreadable path is no file of the report");
    // The rest is checked: the example's Workflows are there.
    assert!(report.file(&root.join("workflows/triage.ts")).is_some());
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn a_named_chart_that_is_no_utf8_text_is_refused_and_the_rest_checked() {
    let root = instance("not-utf8-json");
    std::fs::write(root.join("workflows/notes/bad.json"), b"{ \"id\": \"b\xff\xfe\" }").expect("write");
    let report = check_instance(&root);
    assert!(report.unreadable.is_empty(), "{:?}", report.unreadable);
    let bad = report.file(&root.join("workflows/notes/bad.json")).expect("the Chart's report");
    let found: Vec<(&str, &str, (u32, u32))> =
        bad.diagnostics.iter().map(|d| (d.code, d.message.as_str(), (d.span.start, d.span.end))).collect();
    assert_eq!(found, [("json-syntax", "the Chart file is not UTF-8 text, so it is no JSON text", (10, 13))]);
    let _ = std::fs::remove_dir_all(&root);
}

#[cfg(unix)]
fn mkfifo(path: &Path) -> bool {
    std::process::Command::new("mkfifo").arg(path).status().is_ok_and(|s| s.success())
}

/// A FIFO, a socket or a link to a device where a Workflow or a named Chart is: not read (it may
/// never end), each said with its kind; other files' kinds (a FIFO `x.md`) are not the check's.
#[cfg(unix)]
#[test]
fn a_fifo_socket_or_device_is_unreadable_with_its_kind() {
    let root = instance("fifo");
    if !mkfifo(&root.join("workflows/pipe.ts")) || !mkfifo(&root.join("workflows/notes/pipe.json")) {
        eprintln!("no mkfifo here: skipped");
        return;
    }
    assert!(mkfifo(&root.join("workflows/notes.md")));
    let _socket = std::os::unix::net::UnixListener::bind(root.join("workflows/sock.ts")).expect("a socket");
    if Path::new("/dev/null").exists() {
        std::os::unix::fs::symlink("/dev/null", root.join("workflows/notes/null.json")).expect("symlink");
    }
    let report = check_instance(&root);
    let mut expected = vec![
        "workflows/notes/pipe.json: not a regular file (a FIFO)",
        "workflows/pipe.ts: not a regular file (a FIFO)",
        "workflows/sock.ts: not a regular file (a socket)",
    ];
    if Path::new("/dev/null").exists() {
        expected.insert(0, "workflows/notes/null.json: not a regular file (a character device)");
    }
    assert_eq!(said(&root, &report), expected);
    assert!(report.file(&root.join("workflows/triage.ts")).is_some());
    let _ = std::fs::remove_dir_all(&root);
}

/// A Workflow, a named Chart and a wrapper folder the check may not open: each its own line, with
/// the system's "Permission denied" (skipped where file modes do not hold, as for root).
#[cfg(unix)]
#[test]
fn a_path_it_may_not_open_says_permission_denied() {
    use std::os::unix::fs::PermissionsExt;
    let root = instance("denied");
    let chmod = |p: &str, mode: u32| {
        std::fs::set_permissions(root.join(p), std::fs::Permissions::from_mode(mode)).expect("chmod")
    };
    chmod("workflows/triage.ts", 0);
    if std::fs::File::open(root.join("workflows/triage.ts")).is_ok() {
        eprintln!("file modes do not hold here (root): skipped");
        chmod("workflows/triage.ts", 0o644);
        let _ = std::fs::remove_dir_all(&root);
        return;
    }
    chmod("workflows/notes/post.json", 0);
    let report = check_instance(&root);
    let lines = said(&root, &report);
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert!(lines[0].starts_with("workflows/notes/post.json: Permission denied"), "{lines:?}");
    assert!(lines[1].starts_with("workflows/triage.ts: Permission denied"), "{lines:?}");
    assert!(!codes(&report).contains(&"unresolved-import"), "{:?}", codes(&report));
    chmod("workflows/notes/post.json", 0o644);
    chmod("workflows/notes", 0);
    let report = check_instance(&root);
    assert!(said(&root, &report)[0].starts_with("workflows/notes: Permission denied"), "{:?}", report.unreadable);
    chmod("workflows/notes", 0o755);
    chmod("workflows/triage.ts", 0o644);
    let _ = std::fs::remove_dir_all(&root);
}
