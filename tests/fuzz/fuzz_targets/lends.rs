//! The lend manifest: any text read as `jr2 schema chart --lends` and `jr2 chart check --lends`
//! read one (a byte order mark first is read past), its narrowed Chart schema and briefing, and
//! a Chart admitted against it. Never a panic; a manifest of tens of thousands of names is
//! linear (issue 16: 200 000 lent Agents took 48 s).
#![no_main]

use libfuzzer_sys::fuzz_target;

const CHART: &str = r#"{ "id": "c", "initial": "a", "states": { "a": { "invoke": { "src": "writer", "input": { "prompt": "{{context.a}}" }, "onDone": "b" }, "after": { "10m": "b" } }, "b": { "type": "final" } } }"#;

fuzz_target!(|data: &[u8]| {
    let Some(text) = jr2_fuzz::text_or(data, jr2_fuzz::manifest) else { return };
    let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
    let Ok(m) = serde_json::from_str::<kit::LendManifest>(text) else { return };
    // A manifest that was read has a wall clock that is a duration, or none.
    if let Some(w) = &m.declaration.ceilings.wall_clock {
        assert!(kit::lends::duration_ms(w).is_some(), "{w:?} was read as a wall clock");
    }
    let schema = chart::schema::chart_schema_for(&m.declaration);
    assert!(schema.is_object());
    let _ = chart::briefing::chart_briefing(Some(&m.declaration));
    let _ = check::door::admit(CHART, Some(&m));
});
