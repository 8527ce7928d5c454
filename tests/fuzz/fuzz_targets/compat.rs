//! Door compatibility (ADR-0071): two JSON Schemas, a slot's and a door's, as
//! `jr2 schema compat` reads them (any JSON value; `true` and `false` are schemas too). The
//! input is the two texts, split at the first NUL byte (in the generator mode, two schemas).
//! Never a panic; a schema compared with itself is compatible where it is all in the subset.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some(text) = jr2_fuzz::text_or(data, |u, out| {
        jr2_fuzz::schema(u, out, 0)?;
        out.push('\u{0}');
        jr2_fuzz::schema(u, out, 0)
    }) else {
        return;
    };
    let (slot, door) = text.split_once('\u{0}').unwrap_or((&text, "{}"));
    let arena = syntax::json::Arena::new();
    let (slot, door) = (syntax::json::parse(slot, &arena), syntax::json::parse(door, &arena));
    if !slot.errors.is_empty() || !door.errors.is_empty() {
        return;
    }
    let report = check::rules::compat::check(&slot.value, &door.value);
    let itself = check::rules::compat::check(&slot.value, &slot.value);
    let not_compared = |ds: &[diagnostics::Diagnostic]| ds.iter().any(|d| d.code == "door-not-compared");
    if !not_compared(&itself.slot) && !not_compared(&itself.door) {
        let errors: Vec<_> =
            itself.slot.iter().chain(&itself.door).filter(|d| d.is_error()).map(|d| &d.message).collect();
        assert!(errors.is_empty(), "a schema is not compatible with itself: {errors:?}");
    }
    drop(report);
});
