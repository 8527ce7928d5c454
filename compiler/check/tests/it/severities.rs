//! A diagnostic's severity is its rule's declared severity, always (issue 18): the registry
//! (`check::rules::all()`) names each code once, and every diagnostic that any fixture of the
//! workspace makes (the door's Charts, the Machine front end's, the walks', the Instance checks',
//! the pre-flight's configs and Workflows, the CLI's and the examples' Instances) has a code of
//! the registry and that rule's severity. A warning of a rule declared an error (or the other
//! way) is a rule of its own, with its own code and page: `jr2 explain` and the docs say what
//! the output does.

use super::fixture;
use check::compile::compile_file;
use diagnostics::{Diagnostic, Severity};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// The registry's codes with their severities; a code declared twice fails.
fn registry() -> HashMap<&'static str, Severity> {
    let mut out = HashMap::new();
    for rule in check::rules::all() {
        assert!(out.insert(rule.code, rule.severity).is_none(), "`{}` is declared twice", rule.code);
    }
    out
}

/// What was found, against the registry: each mismatch as a line naming where it was made.
#[derive(Default)]
struct Audit {
    seen: usize,
    codes: std::collections::BTreeSet<&'static str>,
    wrong: Vec<String>,
}

impl Audit {
    fn saw(&mut self, registry: &HashMap<&'static str, Severity>, at: &Path, d: &Diagnostic) {
        self.seen += 1;
        self.codes.insert(d.code);
        match registry.get(d.code) {
            None => self.wrong.push(format!("{}: `{}` is no rule of the registry", at.display(), d.code)),
            Some(declared) if *declared != d.severity => self.wrong.push(format!(
                "{}: `{}` is declared {}, and this one is {}: {}",
                at.display(),
                d.code,
                declared.as_str(),
                d.severity.as_str(),
                d.message
            )),
            Some(_) => {}
        }
    }
}

fn root() -> PathBuf {
    base::workspace::root()
}

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

/// The folders below `dir` that hold a `workflows/` folder (an Instance), `dir` too.
fn instances(dir: &Path, out: &mut Vec<PathBuf>) {
    if dir.join("workflows").is_dir() {
        out.push(dir.to_path_buf());
    }
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let mut dirs: Vec<PathBuf> = entries.flatten().map(|e| e.path()).filter(|p| p.is_dir()).collect();
    dirs.sort();
    for d in dirs {
        if d.file_name().is_some_and(|n| n != "node_modules" && n != "workflows" && n != "target") {
            instances(&d, out);
        }
    }
}

#[test]
fn every_diagnostic_has_its_rules_severity() {
    let registry = registry();
    let mut audit = Audit::default();

    // The door: every Chart fixture, with the fixtures' lend manifest and without one.
    let door = fixtures().join("door");
    let lends: kit::LendManifest =
        serde_json::from_str(&std::fs::read_to_string(door.join("lends.json")).expect("lends.json")).expect("lends");
    for path in fixture::files(&door, "json") {
        let text = std::fs::read_to_string(&path).expect("read");
        let clean = fixture::read(&text).clean;
        for manifest in [Some(&lends), None] {
            for d in &check::door::admit(&clean, manifest).diagnostics {
                audit.saw(&registry, &path, d);
            }
        }
    }

    // Each Workflow fixture alone: the Machine front end's, the walks', the pre-flight's (whose
    // comments are TypeScript's own, so each file is compiled as it is on disk, imports read).
    let preflight = fixtures().join("preflight");
    let config = check::preflight::config::read_config(&preflight);
    for read in &config.diagnostics {
        audit.saw(&registry, &preflight, read);
    }
    let mut workflows: Vec<PathBuf> = ["machine", "walk", "walk_pick", "preflight"]
        .iter()
        .flat_map(|dir| fixture::files(&fixtures().join(dir), "ts"))
        .collect();
    workflows.extend(fixture::files(&root().join("tests/fixtures/cli"), "ts"));
    for path in &workflows {
        if path.to_string_lossy().ends_with(".config.ts") {
            let read = check::preflight::config::read_config_with(&machine::module::Disk, path);
            for d in &read.diagnostics {
                audit.saw(&registry, path, d);
            }
            continue;
        }
        let compiled = compile_file(path);
        for d in &compiled.diagnostics {
            audit.saw(&registry, path, d);
        }
        if let (Some(value), Some(config)) = (compiled.value(), &config.config) {
            for d in check::rules::preflight::check(value, config) {
                audit.saw(&registry, path, &d);
            }
        }
    }

    // Every Instance: the Instance fixtures' cases, the CLI's, the examples; each through the
    // pre-flight too (which holds the Instance check).
    let mut roots = Vec::new();
    instances(&fixtures().join("instance"), &mut roots);
    instances(&root().join("tests/fixtures"), &mut roots);
    instances(&root().join("examples"), &mut roots);
    assert!(roots.len() >= 10, "the Instances are missing: {roots:?}");
    for instance in &roots {
        for file in check::preflight::check_up(instance).report.files {
            for d in &file.diagnostics {
                audit.saw(&registry, &file.path, d);
            }
        }
    }

    assert!(
        audit.wrong.is_empty(),
        "{} diagnostics of the wrong severity:\n{}",
        audit.wrong.len(),
        audit.wrong.join("\n")
    );
    // The fixtures reach most of the registry, warnings and errors both.
    assert!(audit.seen > 200, "only {} diagnostics seen", audit.seen);
    let warnings = audit.codes.iter().filter(|c| registry[*c] == Severity::Warning).count();
    assert!(warnings >= 5 && audit.codes.len() >= registry.len() * 3 / 4, "codes seen: {:?}", audit.codes);
}
