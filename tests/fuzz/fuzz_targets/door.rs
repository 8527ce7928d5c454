//! The JSON front end and the door: any text through `syntax::json::parse` and `check::door::admit`
//! (with the fixtures' lend manifest and with none), `check::door::check` saying the same (its IR
//! lowered for the rules only), and the findings through the human
//! renderer. Never a panic; the rendered report stays bounded per finding (issue 16: every
//! finding on a long line reprinted the whole line).
#![no_main]

use libfuzzer_sys::fuzz_target;
use std::sync::OnceLock;

fn manifest() -> &'static kit::LendManifest {
    static M: OnceLock<kit::LendManifest> = OnceLock::new();
    M.get_or_init(|| {
        let text = include_str!("../../../compiler/check/tests/fixtures/door/lends.json");
        serde_json::from_str(text).expect("the fixtures' manifest")
    })
}

fuzz_target!(|data: &[u8]| {
    let Some(text) = jr2_fuzz::text_or(data, jr2_fuzz::chart) else { return };
    let arena = syntax::json::Arena::new();
    let parsed = syntax::json::parse(&text, &arena);
    let with = check::door::admit(&text, Some(manifest()));
    let without = check::door::admit(&text, None);
    assert_eq!(check::door::check(&text, Some(manifest())).diagnostics, with.diagnostics);
    assert_eq!(check::door::check(&text, None).diagnostics, without.diagnostics);
    assert_eq!(parsed.errors.is_empty(), with.diagnostics.iter().all(|d| d.code != "json-syntax"));
    for admission in [with, without] {
        let n = admission.diagnostics.len();
        let longest = admission
            .diagnostics
            .iter()
            .map(|d| d.message.len() + d.label.as_ref().map_or(0, String::len))
            .max()
            .unwrap_or(0);
        let report = diagnostics::FileReport {
            path: "fuzz.json".into(),
            text: text.clone(),
            diagnostics: admission.diagnostics,
        };
        let out = render::render(render::Format::Human { color: false }, &[report], &check::rules::all());
        // A finding draws at most a few lines of at most `MAX_LINE` bytes, and its own texts.
        let bound = (n + 1) * (8 * render::human::MAX_LINE + 4 * longest + 4096);
        assert!(out.len() <= bound, "{} bytes for {n} findings", out.len());
    }
});
