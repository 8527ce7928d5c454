//! The Chart door against plain `serde_json` parsing of the same files, in one process.
//!
//! usage: cargo bench -p jr2-compiler --bench door -- DIR LENDS.json [ROUNDS]
//! Prints one JSON line: the best of ROUNDS (default 5) for each of serde_json parsing, our
//! spanned parse, and the full door, over every `.json` file of DIR (read into memory first).

use compiler::chart::{admit, LendManifest};
use std::time::{Duration, Instant};

fn best(rounds: usize, mut f: impl FnMut() -> usize) -> (Duration, usize) {
    let mut best = Duration::MAX;
    let mut out = 0;
    for _ in 0..rounds {
        let t = Instant::now();
        out = std::hint::black_box(f());
        best = best.min(t.elapsed());
    }
    (best, out)
}

fn main() {
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

    let (serde, _) = best(rounds, || texts.iter().filter(|t| serde_json::from_str::<serde_json::Value>(t).is_ok()).count());
    let (spanned, _) = best(rounds, || texts.iter().filter(|t| compiler::syntax::json::parse(t).errors.is_empty()).count());
    let (door, admitted) = best(rounds, || texts.iter().filter(|t| admit(t, Some(&manifest)).admitted()).count());
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    println!(
        "{{\"files\":{},\"bytes\":{bytes},\"admitted\":{admitted},\"serde_json_ms\":{:.2},\"spanned_parse_ms\":{:.2},\"door_ms\":{:.2},\"door_over_serde_json\":{:.2}}}",
        texts.len(),
        ms(serde),
        ms(spanned),
        ms(door),
        ms(door) / ms(serde)
    );
}
