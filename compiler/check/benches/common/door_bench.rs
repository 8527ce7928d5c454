//! The Chart door against plain `serde_json` parsing of the same files, in one process; shared by
//! the `door` bench (the system allocator) and `door_mimalloc` (mimalloc, as `jr2` ships).
//!
//! usage: cargo bench -p jr2-compiler --bench door -- DIR LENDS.json [ROUNDS]
//! Prints one JSON line: the best of ROUNDS (default 5, interleaved) for each of serde_json
//! parsing, our spanned parse, and the full door, over every `.json` file of DIR (read into
//! memory first).

use check::door::admit;
use kit::LendManifest;
use std::time::{Duration, Instant};

/// Times one pass of `f`.
fn time(f: &mut dyn FnMut() -> usize) -> (Duration, usize) {
    let t = Instant::now();
    let out = std::hint::black_box(f());
    (t.elapsed(), out)
}

pub(crate) fn main_with(allocator: &str) {
    let args: Vec<String> = std::env::args().skip(1).filter(|a| !a.starts_with("--")).collect();
    let (Some(dir), Some(lends)) = (args.first(), args.get(1)) else {
        eprintln!("usage: cargo bench -p jr2-compiler --bench door -- DIR LENDS.json [ROUNDS]");
        std::process::exit(2);
    };
    let rounds: usize = args.get(2).and_then(|r| r.parse().ok()).unwrap_or(5);
    let manifest: LendManifest = serde_json::from_str(&std::fs::read_to_string(lends).expect("lends")).expect("lends");
    let mut paths: Vec<_> = std::fs::read_dir(dir)
        .expect("dir")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    paths.sort();
    let texts: Vec<String> = paths.iter().map(|p| std::fs::read_to_string(p).expect("read")).collect();
    let bytes: usize = texts.iter().map(String::len).sum();

    // Rounds interleave the three, so a slow moment of the machine lands on all of them alike;
    // each keeps its best round.
    let mut serde_pass = || texts.iter().filter(|t| serde_json::from_str::<serde_json::Value>(t).is_ok()).count();
    let mut spanned_pass =
        || texts.iter().filter(|t| syntax::json::parse(t, &syntax::json::Arena::new()).errors.is_empty()).count();
    // The door's stages, cumulative: parse + grammar, then + lowering into the IR.
    let mut grammar_pass = || {
        texts
            .iter()
            .filter(|t| {
                check::rules::chart::grammar::faults(&syntax::json::parse(t, &syntax::json::Arena::new()).value)
                    .is_empty()
            })
            .count()
    };
    let mut lower_pass = || {
        texts
            .iter()
            .filter(|t| {
                let arena = syntax::json::Arena::new();
                let parsed = syntax::json::parse(t, &arena);
                check::rules::chart::grammar::faults(&parsed.value).is_empty()
                    && chart::lower::lower(&parsed.value, Some(&manifest)).faults.is_empty()
            })
            .count()
    };
    let mut door_pass = || texts.iter().filter(|t| admit(t, Some(&manifest)).admitted()).count();
    let (mut serde, mut spanned, mut door, mut admitted) = (Duration::MAX, Duration::MAX, Duration::MAX, 0);
    let (mut grammar, mut lowered) = (Duration::MAX, Duration::MAX);
    for _ in 0..rounds {
        serde = serde.min(time(&mut serde_pass).0);
        spanned = spanned.min(time(&mut spanned_pass).0);
        grammar = grammar.min(time(&mut grammar_pass).0);
        lowered = lowered.min(time(&mut lower_pass).0);
        let (d, a) = time(&mut door_pass);
        door = door.min(d);
        admitted = a;
    }
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    println!(
        "{{\"allocator\":\"{allocator}\",\"files\":{},\"bytes\":{bytes},\"admitted\":{admitted},\"serde_json_ms\":{:.2},\"spanned_parse_ms\":{:.2},\"parse_grammar_ms\":{:.2},\"parse_grammar_lower_ms\":{:.2},\"door_ms\":{:.2},\"door_over_serde_json\":{:.2}}}",
        texts.len(),
        ms(serde),
        ms(spanned),
        ms(grammar),
        ms(lowered),
        ms(door),
        ms(door) / ms(serde)
    );
}
