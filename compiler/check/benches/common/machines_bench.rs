//! The Machine front end against bare oxc parsing of the same Workflows, in one process; shared
//! by the `machines` bench (the system allocator) and `machines_mimalloc` (mimalloc, as `jr2`
//! ships).
//!
//! usage: cargo bench -p jr2-compiler --bench machines -- DIR [ROUNDS] [--show]
//!        cargo bench -p jr2-compiler --bench machines -- DIR --oxc-only
//! With `--oxc-only` it is the bare-oxc peer of `jr2 check` for `bench/instance.sh`: it reads
//! every `.ts` file of DIR and parses each with oxc, one thread, once, and prints the time in
//! milliseconds (the whole process is timed by the script).
//! Reads every `.ts` file of DIR into memory, then times, in interleaved rounds (best of ROUNDS,
//! default 7): (a) bare oxc parsing of every file (one `Allocator`, reset between files, as
//! oxc advises and `machine::eval` does, nothing else; oxc's default options, and again with the
//! options the front end parses with, `machine::parse::options`); (b) the whole front end, `compile_text`
//! (parse, evaluate, zod, lower, the walk); (c) `evaluate_text` alone (parse and evaluate);
//! (d) parse and lower: `evaluate_text` then `lower_machine`, without the walk (issue 3's measure). Prints one JSON line,
//! with the files that have error diagnostics (`--show` prints the first few of them on stderr).

use machine::eval::on_evaluator_stack;
use oxc_allocator::Allocator;
use oxc_parser::{ParseOptions, Parser};
use oxc_span::SourceType;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Times one pass of `f`.
fn time(f: &mut dyn FnMut() -> usize) -> (Duration, usize) {
    let t = Instant::now();
    let out = std::hint::black_box(f());
    (t.elapsed(), out)
}

pub(crate) fn main_with(allocator: &str) {
    let show = std::env::args().any(|a| a == "--show");
    let args: Vec<String> = std::env::args().skip(1).filter(|a| !a.starts_with("--")).collect();
    let Some(dir) = args.first() else {
        eprintln!("usage: cargo bench -p jr2-compiler --bench machines -- DIR [ROUNDS] [--show]");
        std::process::exit(2);
    };
    if std::env::args().any(|a| a == "--oxc-only") {
        oxc_only(Path::new(dir));
        return;
    }
    let rounds: usize = args.get(1).and_then(|r| r.parse().ok()).unwrap_or(7);
    let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("dir")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "ts"))
        .collect();
    paths.sort();
    let files: Vec<(PathBuf, String)> =
        paths.into_iter().map(|p| (p.clone(), std::fs::read_to_string(&p).expect("read"))).collect();
    let bytes: usize = files.iter().map(|(_, t)| t.len()).sum();
    let lines: usize = files.iter().map(|(_, t)| t.lines().count()).sum();

    // `--only=oxc|evaluate|lower|compile`: that pass once and nothing else, for a profiler
    // (`valgrind --tool=callgrind`: the difference between two passes' totals is a stage's cost).
    let only = std::env::args().find_map(|a| a.strip_prefix("--only=").map(str::to_string));
    // What the front end finds, once, outside the timings.
    let (mut with_errors, mut warnings, mut lowered) = (0, 0, 0);
    for (path, text) in files.iter().filter(|_| only.is_none()) {
        let c = check::compile::compile_text(path, text);
        warnings += c.diagnostics.iter().filter(|d| !d.is_error()).count();
        lowered += usize::from(c.machine.is_some());
        if c.has_errors() {
            with_errors += 1;
            if show && with_errors <= 5 {
                for d in c.diagnostics.iter().filter(|d| d.is_error()) {
                    let at = d.span.start as usize;
                    let line = text[..at.min(text.len())].lines().count();
                    eprintln!("{}:{line}: {} {}", path.display(), d.code, d.message);
                }
            }
        } else if show && warnings > 0 && warnings <= 5 {
            for d in &c.diagnostics {
                eprintln!("{}: warning {} {}", path.display(), d.code, d.message);
            }
        }
    }

    // Rounds interleave the three, so a slow moment of the machine lands on all of them alike;
    // each keeps its best round.
    // Bare oxc as oxc advises: one `Allocator`, reset between files (the front end keeps its
    // arenas the same way, `machine::eval`); with oxc's default options, and with the options the
    // front end parses with (`machine::parse::options`: no parenthesis nodes, no identifier
    // hashes), shown beside the default for transparency.
    let (mut arena, mut arena_tuned) = (Allocator::default(), Allocator::default());
    let mut oxc_pass = || parse_all(&files, &mut arena, ParseOptions::default());
    let mut oxc_tuned_pass = || parse_all(&files, &mut arena_tuned, machine::parse::options());
    // A pass runs on one thread with the evaluator's stack (`on_evaluator_stack`), as a check of
    // an Instance would, so no file hands off to the evaluator's thread.
    let mut compile_pass = || {
        on_evaluator_stack(|| {
            files.iter().filter(|(p, t)| check::compile::compile_text(p, t).machine.is_some()).count()
        })
    };
    // Issue 3's measure: parse and lower (parse, evaluate, zod, lowering into the IR), without
    // the walk's rules.
    let mut lower_pass = || {
        on_evaluator_stack(|| {
            files
                .iter()
                .filter(|(p, t)| {
                    let ev = machine::evaluate_text(p, t);
                    ev.machine().is_some_and(|v| machine::lower::lower_machine(v).machine.is_some())
                })
                .count()
        })
    };
    let mut evaluate_pass = || {
        on_evaluator_stack(|| files.iter().filter(|(p, t)| machine::evaluate_text(p, t).machine().is_some()).count())
    };
    if let Some(only) = only {
        // With ROUNDS given, the pass runs that many times (a profile of the steady state, not
        // of the first pass's fresh pages).
        let repeat = args.get(1).and_then(|r| r.parse().ok()).unwrap_or(1usize);
        let mut n = 0;
        for _ in 0..repeat {
            n = match only.as_str() {
                "oxc" => oxc_pass(),
                "oxc-tuned" => oxc_tuned_pass(),
                "evaluate" => evaluate_pass(),
                "lower" => lower_pass(),
                "compile" => compile_pass(),
                other => {
                    eprintln!("--only={other}: expected oxc, oxc-tuned, evaluate, lower or compile");
                    std::process::exit(2);
                }
            };
        }
        println!("{{\"only\":\"{only}\",\"files\":{},\"passed\":{n}}}", files.len());
        return;
    }
    let (mut oxc, mut compile, mut evaluate, mut lower) = (Duration::MAX, Duration::MAX, Duration::MAX, Duration::MAX);
    let mut oxc_tuned = Duration::MAX;
    let (mut parsed, mut compiled, mut lowered_timed) = (0, 0, 0);
    for _ in 0..rounds {
        let (d, n) = time(&mut oxc_pass);
        oxc = oxc.min(d);
        parsed = n;
        oxc_tuned = oxc_tuned.min(time(&mut oxc_tuned_pass).0);
        let (d, n) = time(&mut compile_pass);
        compile = compile.min(d);
        compiled = n;
        evaluate = evaluate.min(time(&mut evaluate_pass).0);
        let (d, n) = time(&mut lower_pass);
        lower = lower.min(d);
        lowered_timed = n;
    }
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    println!(
        "{{\"allocator\":\"{allocator}\",\"files\":{},\"lines\":{lines},\"bytes\":{bytes},\"rounds\":{rounds},\"oxc_parsed\":{parsed},\"compiled\":{compiled},\"lowered_timed\":{lowered_timed},\"lowered\":{lowered},\"files_with_errors\":{with_errors},\"warnings\":{warnings},\"oxc_parse_ms\":{:.2},\"oxc_tuned_parse_ms\":{:.2},\"evaluate_ms\":{:.2},\"lower_ms\":{:.2},\"compile_ms\":{:.2},\"evaluate_over_oxc\":{:.2},\"lower_over_oxc\":{:.2},\"compile_over_oxc\":{:.2},\"lower_over_oxc_tuned\":{:.2}}}",
        files.len(),
        ms(oxc),
        ms(oxc_tuned),
        ms(evaluate),
        ms(lower),
        ms(compile),
        ms(evaluate) / ms(oxc),
        ms(lower) / ms(oxc),
        ms(compile) / ms(oxc),
        ms(lower) / ms(oxc_tuned)
    );
}

/// Parses every file with bare oxc in one reused arena; how many parse clean.
fn parse_all(files: &[(PathBuf, String)], arena: &mut Allocator, options: ParseOptions) -> usize {
    files
        .iter()
        .filter(|(_, t)| {
            arena.reset();
            let ret = Parser::new(arena, t, SourceType::ts()).with_options(options).parse();
            ret.diagnostics.errors().next().is_none() && !ret.panicked
        })
        .count()
}

/// Reads and parses every `.ts` file of `dir` with bare oxc, one thread; prints how long that
/// took and how many files parsed clean.
fn oxc_only(dir: &Path) {
    let t = Instant::now();
    let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("dir")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "ts"))
        .collect();
    paths.sort();
    let mut clean = 0;
    let mut allocator = Allocator::default();
    for p in &paths {
        let text = std::fs::read_to_string(p).expect("read");
        allocator.reset();
        let ret = Parser::new(&allocator, &text, SourceType::ts()).parse();
        clean += usize::from(ret.diagnostics.errors().next().is_none() && !ret.panicked);
    }
    let ms = t.elapsed().as_secs_f64() * 1e3;
    println!("{{\"files\":{},\"parsed_clean\":{clean},\"read_and_parse_ms\":{ms:.2}}}", paths.len());
}
