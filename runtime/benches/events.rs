//! Events per second through the interpreter, in-process: `Runtime::send_live`, each event
//! applied in place to a live run, as a host that keeps its run in memory does (as an xstate actor
//! keeps its own snapshot); a snapshot is made only at the end. `bench/runtime.sh` runs it beside xstate's
//! `actor.send` on the same machines (docs/benchmarks.md).
//!
//! usage: cargo bench -p runtime --bench events -- CHART.json EVENTS N [ROUNDS]
//! where EVENTS is a comma-separated cycle of event types (`t` or `t,u`); each event carries
//! `n`, its index; or `@FILE.jsonl`, the events of a file, one a line (its first N). A file named
//! `*.ir.json` is an IR as `jr2 ir` prints it (a Machine's, its functions carried as JavaScript run
//! in the engine), any other a Chart. Prints one JSON line: the best round's events per second, by
//! the wall clock and by the thread's CPU time (which a loaded machine does not change), and the
//! final context's FNV-1a (`bench/engines/todos.mjs`'s `digest`), to show both sides end alike.

use runtime::Runtime;

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;
use serde_json::json;
use std::time::Instant;

/// This thread's time on a CPU, in seconds (Linux's schedstat): what the run costs, whatever else
/// the machine runs meanwhile; `None` where the kernel does not say.
fn cpu_seconds() -> Option<f64> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: f64 = text.split_whitespace().next()?.parse().ok()?;
    Some(ns / 1e9)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).filter(|a| a != "--bench").collect();
    let [chart, events, n, rest @ ..] = args.as_slice() else {
        eprintln!("usage: events CHART.json EVENTS N [ROUNDS]");
        std::process::exit(2);
    };
    let n: usize = n.parse().expect("N is a number");
    let rounds: usize = rest.first().map_or(5, |r| r.parse().expect("ROUNDS is a number"));
    let text = std::fs::read_to_string(chart).expect("the chart reads");
    let machine: ir::Machine = if chart.ends_with(".ir.json") {
        let mut ir: serde_json::Value = serde_json::from_str(&text).expect("an IR as jr2 ir prints it");
        // `jr2 ir` prints the identity first; the IR is the rest.
        ir.as_object_mut().map(|o| o.remove("identity"));
        serde_json::from_value(ir).expect("an IR")
    } else {
        let arena = syntax::json::Arena::new();
        let parsed = syntax::json::parse(&text, &arena);
        assert!(parsed.errors.is_empty(), "{:?}", parsed.errors);
        let lowered = chart::lower::lower(&parsed.value, None);
        assert!(lowered.faults.is_empty(), "{:?}", lowered.faults);
        lowered.machine
    };
    let rt = Runtime::new(&machine);
    let from_file: Option<Vec<serde_json::Value>> = events.strip_prefix('@').map(|path| {
        let text = std::fs::read_to_string(path).expect("the events read");
        text.lines()
            .filter(|l| !l.trim().is_empty())
            .take(n)
            .map(|l| serde_json::from_str(l).expect("an event"))
            .collect()
    });
    let types: Vec<&str> = events.split(',').collect();
    let script = || -> Vec<serde_json::Value> {
        match &from_file {
            Some(events) => events.clone(),
            None => (0..n).map(|i| json!({ "type": types[i % types.len()], "n": i })).collect(),
        }
    };
    let n = from_file.as_ref().map_or(n, Vec::len);
    let mut best = f64::INFINITY;
    let mut best_cpu = f64::INFINITY;
    let mut last = None;
    let mut digest = 0;
    for _ in 0..rounds {
        // The events are made before the clock starts, as xstate's side makes its script first;
        // each is moved into `send`, as a host hands over an event it received.
        let events = script();
        let (mut live, _) = rt.start_live(None, 0);
        let (t0, c0) = (Instant::now(), cpu_seconds());
        for e in events {
            // The script's events are the machine's own types, never `xstate.*`.
            rt.send_live(&mut live, e, 0).expect("an event of the script");
        }
        best = best.min(t0.elapsed().as_secs_f64());
        if let (Some(c0), Some(c1)) = (c0, cpu_seconds()) {
            best_cpu = best_cpu.min(c1 - c0);
        }
        let snapshot = live.snapshot();
        last = Some(rt.atomic(&snapshot).into_iter().map(|s| rt.name(s)).collect::<Vec<_>>());
        digest = fnv1a(&serde_json::to_string(&snapshot.context).unwrap_or_default());
    }
    println!(
        "{}",
        json!({
            "events": n,
            "seconds": best,
            "events_per_second": n as f64 / best,
            "cpu_seconds": best_cpu,
            "events_per_cpu_second": n as f64 / best_cpu,
            "final": last,
            "fnv1a": format!("{digest:08x}"),
        })
    );
}

/// FNV-1a (32 bits) over a text's UTF-16 code units, as `bench/engines/todos.mjs`'s `digest`.
fn fnv1a(text: &str) -> u32 {
    text.encode_utf16().fold(0x811c_9dc5_u32, |h, c| (h ^ u32::from(c)).wrapping_mul(0x0100_0193))
}
