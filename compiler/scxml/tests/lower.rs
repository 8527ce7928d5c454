//! The SCXML front end over its fixtures (`tests/fixtures/*.scxml`): each document's IR and
//! faults as a snapshot (`snapshots/scxml/`). A fixture whose name starts with `bad-` or `not-`
//! must have faults, every other none. And no document, whole or cut anywhere, makes it panic.
//! A fixture's `src`s name files of the fixtures folder (`fixtures/src/`).

use std::path::PathBuf;

fn fixtures() -> Vec<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let mut out: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("the fixtures folder")
        .map(|e| e.expect("an entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "scxml"))
        .collect();
    out.sort();
    assert!(out.len() >= 5, "only {} fixtures in {}", out.len(), dir.display());
    out
}

/// A fault as `LINE:COL kind: message`.
fn fault_line(text: &str, f: &scxml::Fault) -> String {
    let index = base::line_index::LineIndex::new(text);
    let at = index.position(text, f.span.start);
    format!("{}:{} {:?}: {}", at.line, at.column, f.kind, f.message)
}

#[test]
fn fixtures_lower_as_their_snapshots_say() {
    for path in fixtures() {
        let name = path.file_stem().unwrap().to_string_lossy().to_string();
        let text = std::fs::read_to_string(&path).unwrap();
        let lowered = scxml::lower_in(&text, path.parent());
        let faults: Vec<String> = lowered.faults.iter().map(|f| fault_line(&text, f)).collect();
        let expect_faults = name.starts_with("bad-") || name.starts_with("not-");
        assert_eq!(!faults.is_empty(), expect_faults, "{name}: {faults:#?}");
        let ir = match &lowered.machine {
            Some(m) => serde_json::to_string_pretty(m).unwrap(),
            None => "(no IR)".to_string(),
        };
        let shown =
            format!("faults:\n{}\n\nIR:\n{ir}\n", faults.iter().map(|f| format!("  {f}\n")).collect::<String>());
        insta::with_settings!({
            snapshot_path => base::workspace::root().join("snapshots/scxml"),
            prepend_module_to_snapshot => false,
            omit_expression => true,
        }, {
            insta::assert_snapshot!(name, shown);
        });
    }
}

/// Every prefix of every fixture (at each character boundary, every few bytes) lowers without
/// a panic: a cut document is malformed XML, one fault with its span inside the text.
#[test]
fn a_cut_document_is_a_fault_not_a_panic() {
    for path in fixtures() {
        let text = std::fs::read_to_string(&path).unwrap();
        for end in (0..text.len()).step_by(7).filter(|i| text.is_char_boundary(*i)) {
            let cut = &text[..end];
            let lowered = scxml::lower(cut);
            for f in &lowered.faults {
                assert!(f.span.end as usize <= cut.len().max(1), "{}: {f:?} past the text", path.display());
            }
            if lowered.machine.is_none() {
                assert!(!lowered.faults.is_empty(), "{}: no IR and no fault at {end}", path.display());
            }
        }
    }
}

/// Elements nested past the limit are one fault, not a stack overflow.
#[test]
fn deep_nesting_is_refused() {
    let n = scxml::MAX_DEPTH + 10;
    let text = format!(
        "<scxml xmlns=\"http://www.w3.org/2005/07/scxml\">{}{}</scxml>",
        (0..n).map(|i| format!("<state id=\"s{i}\">")).collect::<String>(),
        "</state>".repeat(n)
    );
    let lowered = scxml::lower(&text);
    assert!(lowered.machine.is_none());
    assert_eq!(lowered.faults.len(), 1, "{:?}", lowered.faults);
    assert_eq!(lowered.faults[0].kind, scxml::FaultKind::Xml);
}

/// A `src` is read only from the document's folder: a symbolic link out of it, a file past the
/// size bound and a document that invokes itself are faults, not reads.
#[test]
fn a_src_stays_in_its_folder_and_its_bounds() {
    let dir = std::env::temp_dir().join(format!("scxml-src-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let folder = dir.join("doc");
    std::fs::create_dir_all(&folder).unwrap();
    std::fs::write(dir.join("secret.txt"), "outside").unwrap();
    std::fs::write(folder.join("big.txt"), vec![b'x'; scxml::MAX_SRC as usize + 1]).unwrap();
    std::fs::write(folder.join("ok.txt"), "inside").unwrap();
    #[cfg(unix)]
    std::os::unix::fs::symlink(dir.join("secret.txt"), folder.join("link.txt")).unwrap();
    let doc = |src: &str| {
        format!(
            "<scxml xmlns=\"http://www.w3.org/2005/07/scxml\"><datamodel><data id=\"d\" src=\"{src}\"/></datamodel><state id=\"s\"/></scxml>"
        )
    };
    let faults = |src: &str| -> Vec<String> {
        scxml::lower_in(&doc(src), Some(&folder)).faults.into_iter().map(|f| f.message).collect()
    };
    assert_eq!(faults("ok.txt"), Vec::<String>::new());
    assert!(faults("big.txt")[0].contains("larger than 1024 KiB"), "{:?}", faults("big.txt"));
    #[cfg(unix)]
    assert!(faults("link.txt")[0].contains("out of the document's folder"), "{:?}", faults("link.txt"));
    // Without a folder nothing is read.
    assert!(scxml::lower(&doc("ok.txt")).faults[0].message.contains("not read from a folder"));
    // A document that invokes itself stops at the depth bound.
    let me =
        "<scxml xmlns=\"http://www.w3.org/2005/07/scxml\"><state id=\"s\"><invoke src=\"me.scxml\"/></state></scxml>";
    std::fs::write(folder.join("me.scxml"), me).unwrap();
    let lowered = scxml::lower_in(me, Some(&folder));
    assert!(lowered.machine.is_some());
    assert_eq!(lowered.faults.len(), 1, "{:?}", lowered.faults);
    assert!(lowered.faults[0].message.contains("deeper than"), "{:?}", lowered.faults);
    let _ = std::fs::remove_dir_all(&dir);
}
