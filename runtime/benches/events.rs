//! Events per second through the interpreter, in-process: `Runtime::send_live`, each event
//! applied in place to a live run, as a host that keeps its run in memory does (as an xstate actor
//! keeps its own snapshot); a snapshot is made only at the end. `bench/runtime.sh` runs it beside xstate's
//! `actor.send` on the same machines (docs/benchmarks.md).
//!
//! usage: cargo bench -p runtime --bench events -- CHART.json EVENTS N [ROUNDS]
//! where EVENTS is a comma-separated cycle of event types (`t` or `t,u`); each event carries
//! `n`, its index. Prints one JSON line: the best round's events per second, by the wall clock and
//! by the thread's CPU time (which a loaded machine does not change).

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
    let arena = syntax::json::Arena::new();
    let parsed = syntax::json::parse(&text, &arena);
    assert!(parsed.errors.is_empty(), "{:?}", parsed.errors);
    let lowered = chart::lower::lower(&parsed.value, None);
    assert!(lowered.faults.is_empty(), "{:?}", lowered.faults);
    let machine = lowered.machine;
    let rt = Runtime::new(&machine);
    let types: Vec<&str> = events.split(',').collect();
    let script =
        || -> Vec<serde_json::Value> { (0..n).map(|i| json!({ "type": types[i % types.len()], "n": i })).collect() };
    let mut best = f64::INFINITY;
    let mut best_cpu = f64::INFINITY;
    let mut last = None;
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
        last = Some(rt.atomic(&live.snapshot()).into_iter().map(|s| rt.name(s)).collect::<Vec<_>>());
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
        })
    );
}
