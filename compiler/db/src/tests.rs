use super::*;
use machine::eval::on_evaluator_stack;

/// What the LSP's tests add to the bundled example Instance (`review.ts`, a bad Chart stem).
fn fixture() -> PathBuf {
    base::workspace::root().join("lsp/tests/fixtures/instance")
}

/// The LSP's fixture Instance (as `tests/lsp/client.rs` builds it) in a fresh folder, so tests
/// may edit it: the bundled example without its config, `triage.ts`'s dispatch misspelt, and
/// [`fixture`]'s files over it.
fn copy_fixture(name: &str) -> PathBuf {
    let to = std::env::temp_dir().join(format!("jr2-db-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&to);
    copy_dir(&base::workspace::root().join("examples/instance"), &to);
    std::fs::remove_file(to.join("jr2.config.ts")).unwrap();
    let triage = to.join("workflows/triage.ts");
    let text = std::fs::read_to_string(&triage).unwrap();
    assert!(text.contains(r#"dispatch("fix-tests","#));
    std::fs::write(&triage, text.replace(r#"dispatch("fix-tests","#, r#"dispatch("fix-test","#)).unwrap();
    copy_dir(&fixture(), &to);
    to
}

/// How many Workflows (`workflows/*.ts`) an Instance folder holds: the tests count what the
/// example Instance has rather than a number that a new example Workflow would make wrong.
fn workflows(root: &Path) -> usize {
    std::fs::read_dir(root.join("workflows"))
        .unwrap()
        .filter(|e| e.as_ref().unwrap().path().extension().is_some_and(|x| x == "ts"))
        .count()
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        // A served Instance's own folder (`jr2 serve` keeps its store there) is no source.
        if e.file_name() == ".jr2" {
            continue;
        }
        if e.file_type().unwrap().is_dir() {
            copy_dir(&e.path(), &to.join(e.file_name()));
        } else {
            std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
        }
    }
}

/// (file relative to the root, code, span) of every diagnostic.
type Found = Vec<(String, String, u32, u32)>;

fn cold(root: &Path) -> Found {
    let report = instance::check_instance(root);
    assert!(report.internal_errors.is_empty());
    flatten(root, report.files.into_iter().map(|f| FileDiagnostics { path: f.path, diagnostics: f.diagnostics }))
}

fn flatten(root: &Path, files: impl IntoIterator<Item = FileDiagnostics>) -> Found {
    let mut out = Vec::new();
    for f in files {
        let rel = f.path.strip_prefix(root).unwrap_or(&f.path).to_string_lossy().to_string();
        for d in f.diagnostics {
            out.push((rel.clone(), d.code.to_string(), d.span.start, d.span.end));
        }
    }
    out
}

fn compiles(log: &Mutex<Vec<String>>) -> usize {
    log.lock().unwrap().drain(..).filter(|q| q.starts_with("compile(")).count()
}

/// The database reports what `check_instance` reports, file for file.
#[test]
fn the_database_reports_what_check_instance_reports() {
    let root = normalize(&copy_fixture("cold"));
    let found = on_evaluator_stack(|| flatten(&root, Database::new().instance_diagnostics(&root)));
    let expected = cold(&root);
    assert!(expected.iter().any(|d| d.1 == "unknown-callee"), "{expected:?}");
    assert!(expected.iter().any(|d| d.1 == "agent-fault-unrouted"), "{expected:?}");
    assert_eq!(found, expected);
}

/// An edit to one Workflow compiles that Workflow again and no other; an edit to a wrapper
/// re-checks its named Charts; the diagnostics follow the texts.
#[test]
fn an_edit_recomputes_only_what_it_touches() {
    let root = copy_fixture("edit");
    let log = Arc::new(Mutex::new(Vec::new()));
    on_evaluator_stack(|| {
        let mut db = Database::with_execution_log(log.clone());
        let all = db.instance_diagnostics(&root);
        assert_eq!(compiles(&log), workflows(&root), "one compile per Workflow");
        assert!(!all.is_empty());

        // The caller's dispatch names a missing Workflow; fix its text.
        let triage = root.join("workflows/triage.ts");
        let text = db.text(&triage).unwrap();
        assert!(db.diagnostics(&triage).iter().any(|d| d.code == "unknown-callee"));
        db.set_text(&triage, Some(text.replace("dispatch(\"fix-test\"", "dispatch(\"fix-tests\"")));
        assert!(db.diagnostics(&triage).is_empty(), "{:?}", db.diagnostics(&triage));
        assert_eq!(compiles(&log), 1, "only the edited Workflow compiles again");

        // The wrapper loses its Open body: its Charts are re-checked against it.
        let notes = root.join("workflows/notes.ts");
        let post = root.join("workflows/notes/post.json");
        assert!(db.diagnostics(&post).is_empty());
        let text = db.text(&notes).unwrap();
        db.set_text(&notes, Some(text.replace("plan: open(", "plan: command(")));
        let d = db.diagnostics(&post);
        assert!(d.iter().any(|d| d.code == "chart-wrapper"), "{d:?}");
        let queries = log.lock().unwrap().clone();
        assert_eq!(compiles(&log), 1);
        assert!(queries.iter().any(|q| q.starts_with("chart_report(")), "{queries:?}");

        // Writing the texts to disk and checking cold gives the same.
        for p in [&triage, &notes] {
            std::fs::write(p, db.text(p).unwrap()).unwrap();
        }
        assert_eq!(flatten(&root, db.instance_diagnostics(&root)), cold(&root));
    });
    let _ = std::fs::remove_dir_all(&root);
}

/// Once a buffer has been edited, a keystroke in it re-verifies the reports of the other
/// Workflows without walking down to their compilations (the disk's texts are durable), and the
/// diagnostics still follow the texts.
#[test]
fn a_keystroke_does_not_walk_the_other_workflows() {
    let root = copy_fixture("durable");
    let log = Arc::new(Mutex::new(Vec::new()));
    on_evaluator_stack(|| {
        let mut db = Database::with_validation_log(log.clone());
        let review = root.join("workflows/review.ts");
        let text = db.text(&review).unwrap();
        let clean = db.diagnostics(&review);
        // The first edit makes the buffer LOW (everything that read it from disk is checked once).
        db.set_text(&review, Some(format!("{text}// a\n")));
        assert_eq!(db.diagnostics(&review), clean);
        log.lock().unwrap().clear();

        db.set_text(&review, Some(format!("{text}// ab\n")));
        assert_eq!(db.diagnostics(&review), clean);
        let events = std::mem::take(&mut *log.lock().unwrap());
        let executed: Vec<&String> = events.iter().filter(|e| e.starts_with("compile(")).collect();
        assert_eq!(executed.len(), 1, "the edited Workflow compiles again: {events:?}");
        let walked: Vec<&String> = events.iter().filter(|e| e.starts_with("validated compile(")).collect();
        assert!(walked.is_empty(), "no other Workflow's compilation is walked: {events:?}");
        let reports = events.iter().filter(|e| e.starts_with("validated workflow_report(")).count();
        assert_eq!(reports, workflows(&root) - 1, "the other Workflows' reports are validated: {events:?}");

        // A text that no longer compiles: its diagnostics change at once.
        db.set_text(&review, Some(text.replace("id: \"review\"", "id: review_id")));
        assert_ne!(db.diagnostics(&review), clean);
        // A change on disk to another Workflow (HIGH) is still seen.
        let fix = root.join("workflows/fix-tests.ts");
        std::fs::write(&fix, "export const nothing = 1;\n").unwrap();
        db.reload(&fix);
        assert!(db.diagnostics(&fix).iter().any(|d| d.code == "not-machine"), "{:?}", db.diagnostics(&fix));
    });
    let _ = std::fs::remove_dir_all(&root);
}

/// A new Workflow file (an editor's buffer, then on disk) joins the Assembly after a rescan: the
/// dispatch that named it is satisfied.
#[test]
fn a_new_workflow_joins_the_assembly() {
    let root = copy_fixture("new");
    on_evaluator_stack(|| {
        let mut db = Database::new();
        let triage = root.join("workflows/triage.ts");
        assert!(db.diagnostics(&triage).iter().any(|d| d.code == "unknown-callee"));
        let callee = root.join("workflows/fix-test.ts");
        std::fs::copy(root.join("workflows/fix-tests.ts"), &callee).unwrap();
        db.reload(&callee);
        db.rescan();
        assert!(!db.diagnostics(&triage).iter().any(|d| d.code == "unknown-callee"));
    });
    let _ = std::fs::remove_dir_all(&root);
}

/// A lone file: a Chart with the door's defaults, a half-typed Chart's recovered tree.
#[test]
fn lone_files_and_half_typed_charts() {
    let dir = std::env::temp_dir().join(format!("jr2-db-lone-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let chart = dir.join("c.json");
    on_evaluator_stack(|| {
        let mut db = Database::new();
        let text = r#"{ "id": "c", "initial": "nowhere", "states": { "a": { "type": "final" } } }"#;
        db.set_text(&chart, Some(text.to_string()));
        let d = db.diagnostics(&chart);
        assert_eq!(d, check::door::check_lone(text, None).diagnostics);
        assert!(d.iter().any(|d| d.code == "chart-without-lends"), "{d:?}");
        assert!(!d.is_empty());
        // Half typed: a JSON error, and the recovered tree still names the bad initial state.
        let half = r#"{ "id": "c", "initial": "nowhere", "states": { "a": { "type": "final" } "#;
        db.set_text(&chart, Some(half.to_string()));
        assert!(db.diagnostics(&chart).iter().all(|d| d.code == "json-syntax" || d.code == "chart-without-lends"));
        let recovered = db.recovered_chart(&chart);
        assert!(recovered.iter().any(|d| d.code == "unknown-initial"), "{recovered:?}");
        // A key given twice in a half-typed Chart: the parse's notes place it, at the second one.
        let twice = r#"{ "id": "c", "initial": "a", "id": "d", "states": { "a": { "type": "final" } "#;
        db.set_text(&chart, Some(twice.to_string()));
        let recovered = db.recovered_chart(&chart);
        let again = twice.rfind("\"id\"").unwrap() as u32;
        assert!(recovered.iter().any(|d| d.code == "duplicate-key" && d.span.start == again), "{recovered:?}");
    });
    let _ = std::fs::remove_dir_all(&dir);
}

/// An edit to a callee's door re-checks its callers' dispatch slots (ADR-0071's door
/// compatibility), and undoing it clears the finding; a cold check of the same texts agrees.
#[test]
fn a_callee_door_edit_rechecks_its_callers() {
    let root = copy_fixture("door");
    on_evaluator_stack(|| {
        let mut db = Database::new();
        let triage = root.join("workflows/triage.ts");
        let callee = root.join("workflows/fix-tests.ts");
        let text = db.text(&triage).unwrap();
        db.set_text(&triage, Some(text.replace("dispatch(\"fix-test\"", "dispatch(\"fix-tests\"")));
        assert!(db.diagnostics(&triage).is_empty(), "{:?}", db.diagnostics(&triage));

        // The callee's door now requires a field the caller's slot does not send.
        let door = db.text(&callee).unwrap();
        let wider = door.replace(
            "schemas: { input: z.object({ ticket: z.string() }) }",
            "schemas: { input: z.object({ ticket: z.string(), branch: z.string() }) }",
        );
        assert_ne!(wider, door, "the fixture declares its door");
        db.set_text(&callee, Some(wider.clone()));
        let d = db.diagnostics(&triage);
        assert!(d.iter().any(|d| d.code == "door-mismatch" && d.message.contains("branch")), "{d:?}");

        // On disk, a cold check says the same.
        std::fs::write(&triage, db.text(&triage).unwrap()).unwrap();
        std::fs::write(&callee, &wider).unwrap();
        assert_eq!(flatten(&root, db.instance_diagnostics(&root)), cold(&root));

        // Undone: the caller is clean again.
        db.set_text(&callee, Some(door));
        assert!(db.diagnostics(&triage).is_empty(), "{:?}", db.diagnostics(&triage));
    });
    let _ = std::fs::remove_dir_all(&root);
}

/// An Instance's `jr2.config.ts` gets the config reader's diagnostics (not a Workflow's), and they
/// follow its text.
#[test]
fn the_instance_config_is_read_as_the_config() {
    let root = copy_fixture("config");
    let config = root.join("jr2.config.ts");
    on_evaluator_stack(|| {
        let mut db = Database::new();
        db.set_text(&config, Some("export default { mcp: 3, secrets: [\"a\"] };\n".to_string()));
        let d = db.diagnostics(&config);
        assert!(d.iter().any(|d| d.code == "config-shape"), "{d:?}");
        assert!(!d.iter().any(|d| d.code == "not-machine"), "{d:?}");
        db.set_text(&config, Some("export default { secrets: [\"a\"] };\n".to_string()));
        assert!(db.diagnostics(&config).is_empty(), "{:?}", db.diagnostics(&config));
        db.set_text(&config, Some("export default { secrets: [\"a\" };\n".to_string()));
        assert!(db.diagnostics(&config).iter().any(|d| d.code == "ts-syntax"), "{:?}", db.diagnostics(&config));
    });
    let _ = std::fs::remove_dir_all(&root);
}

/// A rename in the database (a fix's, not yet on disk) reports what the same rename on disk
/// reports: the Chart is listed by its new stem, and its stem's refusal is gone.
#[test]
fn a_rename_in_the_database_is_the_rename_on_disk() {
    let root = normalize(&copy_fixture("rename"));
    let (from, to) = (root.join("workflows/notes/Draft_Post.json"), root.join("workflows/notes/draft-post.json"));
    let renamed = on_evaluator_stack(|| {
        let mut db = Database::new();
        let before = flatten(&root, db.instance_diagnostics(&root));
        assert!(before.iter().any(|d| d.1 == "workflow-stem"), "{before:?}");
        db.rename(&from, &to);
        flatten(&root, db.instance_diagnostics(&root))
    });
    assert!(std::fs::metadata(&from).is_ok(), "the disk is not touched");
    std::fs::rename(&from, &to).unwrap();
    let on_disk = cold(&root);
    assert!(!on_disk.iter().any(|d| d.1 == "workflow-stem"), "{on_disk:?}");
    assert_eq!(renamed, on_disk);
    let _ = std::fs::remove_dir_all(&root);
}
