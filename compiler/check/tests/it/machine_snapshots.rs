//! Each seed example Workflow (`tests/xstate/fixtures/*.ts`) compiles with no error, and a
//! reviewed snapshot shows its IR (each slot's definition too) with its identity, and what it
//! carries (`jr2 parts`).

#[test]
fn seed_workflows_ir_and_parts() {
    let root = base::workspace::root().join("tests/xstate/fixtures");
    let mut files: Vec<_> = std::fs::read_dir(&root)
        .expect("tests/xstate/fixtures")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "ts"))
        .collect();
    files.sort();
    assert!(files.len() >= 6, "the seed's examples are missing");
    for path in files {
        let name = path.file_stem().unwrap().to_string_lossy().to_string();
        let compiled = check::compile::compile_file(&path);
        let errors: Vec<String> = compiled
            .diagnostics
            .iter()
            .filter(|d| d.is_error())
            .map(|d| format!("{}: {}", d.code, d.message))
            .collect();
        assert!(errors.is_empty(), "{name}: {errors:?}");
        let machine = compiled.machine.as_ref().and_then(|m| m.executable());
        let machine = machine.unwrap_or_else(|| panic!("{name}: no Machine"));
        let value = compiled.value().expect("a Machine has its value");
        let doc = serde_json::json!({
            "identity": machine.identity(),
            "ir": machine,
            "parts": machine::parts::parts_of(value),
            "workspacePods": machine::parts::workspace_pods_of(value),
            "warnings": compiled.diagnostics.iter().map(|d| format!("{}: {}", d.code, d.message)).collect::<Vec<_>>(),
        });
        let mut settings = insta::Settings::clone_current();
        settings.set_snapshot_path(base::workspace::root().join("snapshots/machines"));
        settings.set_prepend_module_to_snapshot(false);
        settings.set_input_file(&path);
        settings.bind(|| insta::assert_json_snapshot!(name, doc));
    }
}
