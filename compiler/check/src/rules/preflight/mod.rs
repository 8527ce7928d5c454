//! The pre-flight of `jr2 up --check`: the Instance config (`jr2.config.ts`) against what the
//! Workflows name. The config's own rules (`config-missing`, `config-shape`, `config-unread`,
//! `config-not-static`) run where it is read (`crate::preflight::config`); [`check`] runs the
//! others over one Workflow's value. `crate::preflight` ties them to the Instance check.

use crate::compile::Located;
use crate::preflight::config::InstanceConfig;
use crate::preflight::{kit_calls, KitCall};
use crate::rules::{Ctx, Sink};
use machine::value::Value;

family! {
    checks: Workflow;
    config_missing::CONFIG_MISSING,
    config_shape::CONFIG_SHAPE,
    config_unread::CONFIG_UNREAD,
    config_not_static::CONFIG_NOT_STATIC,
    mcp_server_not_configured::MCP_SERVER_NOT_CONFIGURED => check,
    secret_not_configured::SECRET_NOT_CONFIGURED => check,
    repo_without_credentials::REPO_WITHOUT_CREDENTIALS => check,
}

/// What the pre-flight's rules over a Workflow read: the kit's calls in its value, and the config.
pub(crate) struct Workflow<'a> {
    pub calls: &'a [KitCall<'a>],
    pub config: &'a InstanceConfig,
}

/// The pre-flight rules over one Workflow's value, against the config, in source order. A name
/// the Workflow writes once but the evaluator copies (a `const` used twice) is reported once.
pub fn check(value: &Value, config: &InstanceConfig) -> Vec<Located> {
    let calls = kit_calls(value);
    let cx = Ctx::new(Workflow { calls: &calls, config });
    let mut sink = Sink::default();
    for check in CHECKS {
        check(&cx, &mut sink);
    }
    let mut out = sink.into_located();
    let mut seen = std::collections::HashSet::new();
    out.retain(|d| seen.insert((d.file, d.span, d.code)));
    // In the order of the source, whatever order the rules ran in.
    out.sort_by_key(|d| (d.file, d.span.start, d.span.end));
    out
}

/// The fixture format of every data-driven harness (`compiler/tests/it/fixture.rs`), shared.
#[cfg(test)]
#[allow(dead_code)]
#[path = "../../../tests/it/fixture.rs"]
mod fixture;

/// The fixture harness of the pre-flight rules: `compiler/tests/fixtures/preflight/<code>/`.
#[cfg(test)]
pub(crate) mod testing {
    use super::fixture;
    use crate::compile::compile_text;
    use crate::preflight::config::{read_config, read_config_with, InstanceConfig};
    use base::line_index::LineIndex;
    use machine::module::Sources;
    use machine::value::FileId;
    use std::fmt::Write;
    use std::path::{Path, PathBuf};

    fn root() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/preflight")
    }

    /// The config every Workflow fixture is checked against.
    fn config() -> InstanceConfig {
        let read = read_config(&root());
        let found: Vec<String> = read.diagnostics.iter().map(|d| d.message.clone()).collect();
        assert!(found.is_empty(), "the fixtures' config reads clean: {found:#?}");
        read.config.expect("the fixtures' config")
    }

    /// Checks the expectations of one fixture against what was found (entry file only) and
    /// returns the snapshot text.
    fn compare(
        path: &Path,
        clean: &str,
        expects: Vec<fixture::Expect>,
        found: Vec<&diagnostics::Diagnostic>,
    ) -> String {
        let index = LineIndex::new(clean);
        let mut got = Vec::new();
        let mut snapshot = String::new();
        for d in found {
            let (expect, head) = fixture::located(&index, clean, d);
            got.push(expect);
            writeln!(snapshot, "{head} {}", d.message).unwrap();
            if let Some(help) = &d.help {
                writeln!(snapshot, "  help: {help}").unwrap();
            }
        }
        if snapshot.is_empty() {
            snapshot.push_str("clean\n");
        }
        fixture::compare(path, got, expects, snapshot).unwrap_or_else(|e| panic!("{e}"))
    }

    /// `refused.ts` and `admitted.ts` of the rule `code`: every expectation met, the refused
    /// one refused by `code`, the admitted one clean of it.
    pub(crate) fn fixtures(code: &str) {
        let config = config();
        for (name, refused) in [("refused", true), ("admitted", false)] {
            let path = root().join(code).join(format!("{name}.ts"));
            let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            let fx = fixture::read(&text);
            let compiled = compile_text(&path, &fx.clean);
            let value = compiled.value().unwrap_or_else(|| panic!("{}: no Machine", path.display()));
            let walk_errors: Vec<&str> = compiled.diagnostics.iter().filter(|d| d.is_error()).map(|d| d.code).collect();
            assert!(
                walk_errors.is_empty(),
                "{}: the fixture is a Machine the walk admits: {walk_errors:?}",
                path.display()
            );
            let found = super::check(value, &config);
            let found: Vec<&diagnostics::Diagnostic> =
                found.iter().filter(|d| d.file == FileId(0)).map(|d| &d.diagnostic).collect();
            assert_eq!(found.iter().any(|d| d.code == code), refused, "{}", path.display());
            let snapshot = compare(&path, &fx.clean, fx.expects, found);
            snapshot_of(&path, format!("{code}__{name}"), snapshot);
        }
    }

    /// The fixture's lines, in `snapshots/preflight/` beside the walk's, reviewed like code.
    fn snapshot_of(path: &Path, name: String, snapshot: String) {
        let mut settings = insta::Settings::clone_current();
        settings.set_snapshot_path(base::workspace::root().join("snapshots/preflight"));
        settings.set_prepend_module_to_snapshot(false);
        settings.set_input_file(path);
        settings.bind(|| insta::assert_snapshot!(name, snapshot));
    }

    /// One file served from memory in place of the disk's.
    struct Override(PathBuf, String);

    impl Sources for Override {
        fn read(&self, path: &Path) -> Option<String> {
            if path == self.0 {
                Some(self.1.clone())
            } else {
                std::fs::read_to_string(path).ok()
            }
        }
        fn is_file(&self, path: &Path) -> bool {
            path == self.0 || path.is_file()
        }
    }

    /// `refused.config.ts` and `admitted.config.ts` of the rule `code`, read as configs.
    pub(crate) fn config_fixtures(code: &str) {
        for (name, refused) in [("refused", true), ("admitted", false)] {
            let path = root().join(code).join(format!("{name}.config.ts"));
            let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            let fx = fixture::read(&text);
            let read = read_config_with(&Override(path.clone(), fx.clean.clone()), &path);
            let found: Vec<&diagnostics::Diagnostic> =
                read.diagnostics.iter().filter(|d| d.file == FileId(0)).map(|d| &d.diagnostic).collect();
            assert_eq!(found.iter().any(|d| d.code == code), refused, "{}", path.display());
            let snapshot = compare(&path, &fx.clean, fx.expects, found);
            snapshot_of(&path, format!("{code}__{name}_config"), snapshot);
        }
    }
}
