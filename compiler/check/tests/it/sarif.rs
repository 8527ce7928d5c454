//! The SARIF renderer with the real registry: each code used is described by its rule.

use base::Span;
use diagnostics::{Diagnostic, FileReport};

#[test]
fn one_run_with_rules_and_results() {
    let text = "{\n  \"a\": 1,\n}\n";
    let at = text.find(",\n}").unwrap() as u32;
    let reports = [
        FileReport {
            path: "workflows/my notes/a.json".into(),
            text: text.into(),
            diagnostics: vec![
                Diagnostic::error("json-syntax", Span::new(at, at + 1), "trailing comma").with_rule(1).with_path("a"),
                Diagnostic::warning("not-a-known-code", Span::new(0, 1), "a warning").with_help("do it"),
            ],
        },
        FileReport { path: "b.json".into(), text: "{}".into(), diagnostics: vec![] },
    ];
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path(base::workspace::root().join("snapshots/render"));
    settings.set_prepend_module_to_snapshot(false);
    settings.bind(|| {
        insta::assert_snapshot!(
            "sarif_one_run_with_rules_and_results",
            render::sarif::render(&reports, &check::rules::all())
        )
    });
}
