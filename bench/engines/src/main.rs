//! bench/engines: which embedded JavaScript engine runs a Machine's carried functions (issue 34),
//! measured on xstate's todomvc machine against xstate 5 in Node, all in one run.
//!
//!   jr2-bench-engines bench EVENTS.jsonl ROUNDS    everything, one table (run.sh)
//!   jr2-bench-engines once ENGINE DESIGN EVENTS.jsonl   one whole run: print the final context's digest
//!
//! ENGINE is `quickjs` or `boa`; DESIGN is `a` (context in the engine), `a+c` (with the
//! determinism and sandbox hooks), `b-tree` or `b-text` (context a serde_json::Value in Rust).

mod boa;
mod qjs;
mod todos;

use qjs::Mode;
use serde_json::Value;
use std::hint::black_box;
use std::process::Command;
use std::time::{Duration, Instant};

#[derive(Clone, Copy, PartialEq, Eq)]
enum Engine {
    QuickJs,
    Boa,
}

impl Engine {
    fn name(self) -> &'static str {
        match self {
            Engine::QuickJs => "rquickjs",
            Engine::Boa => "boa_engine",
        }
    }
    fn parse(s: &str) -> Engine {
        match s {
            "quickjs" | "rquickjs" => Engine::QuickJs,
            "boa" | "boa_engine" => Engine::Boa,
            _ => panic!("unknown engine {s}"),
        }
    }
}

const DESIGNS: [(&str, Mode, bool); 4] = [
    ("a", Mode::InEngine, false),
    ("a+c", Mode::InEngine, true),
    ("b-tree", Mode::RustTree, false),
    ("b-text", Mode::RustText, false),
];

fn design(name: &str) -> (Mode, bool) {
    let d = DESIGNS.iter().find(|d| d.0 == name).unwrap_or_else(|| panic!("unknown design {name}"));
    (d.1, d.2)
}

// One value a run, never in a collection that the size difference would matter to.
#[allow(clippy::large_enum_variant)]
enum Run {
    Q(qjs::Run),
    B(boa::Run),
}

impl Run {
    fn new(engine: Engine, mode: Mode, hooks: bool, context: &Value) -> Run {
        match engine {
            Engine::QuickJs => Run::Q(qjs::Run::new(mode, hooks, context)),
            Engine::Boa => Run::B(boa::Run::new(mode, hooks, context)),
        }
    }
    fn step(&mut self, t: usize, e: &Value) {
        match self {
            Run::Q(r) => r.step(t, e),
            Run::B(r) => r.step(t, e),
        }
    }
    fn snapshot(&mut self) -> Value {
        match self {
            Run::Q(r) => r.snapshot(),
            Run::B(r) => r.snapshot(),
        }
    }
    fn roundtrip(&mut self, v: &Value, text: bool) -> Value {
        match self {
            Run::Q(r) => r.roundtrip(v, text),
            Run::B(r) => r.roundtrip(v, text),
        }
    }
    fn floor(&mut self, events: &str) -> (Duration, Duration, Value) {
        match self {
            Run::Q(r) => r.floor(events),
            Run::B(r) => r.floor(events),
        }
    }
    fn try_eval(&mut self, src: &str) -> Result<String, String> {
        match self {
            Run::Q(r) => r.try_eval(src),
            Run::B(r) => r.try_eval(src),
        }
    }
    /// Math.random's state as the host reads it (the hooks only).
    fn rng_state(&self) -> Option<u32> {
        match self {
            Run::Q(r) => r.hooks.as_ref().map(|h| h.rng.load(std::sync::atomic::Ordering::Relaxed)),
            Run::B(r) => r.hooks.as_ref().map(|h| h.rng.get()),
        }
    }
}

/// The events through a run, with a snapshot (the context as JSON) every 1 000 events.
fn drive(run: &mut Run, events: &[(usize, Value)]) -> Value {
    for (i, (t, e)) in events.iter().enumerate() {
        run.step(*t, e);
        if (i + 1) % 1000 == 0 {
            black_box(run.snapshot());
        }
    }
    run.snapshot()
}

/// This thread's CPU time (ns), from the scheduler.
pub(crate) fn thread_cpu() -> Duration {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").unwrap_or_default();
    Duration::from_nanos(s.split_whitespace().next().and_then(|x| x.parse().ok()).unwrap_or(0))
}

/// CPU time of the waited-for children (user + system), in clock ticks of 10 ms.
fn children_cpu() -> Duration {
    let s = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    let rest = &s[s.rfind(')').map_or(0, |i| i + 2)..];
    let f: Vec<u64> = rest.split_whitespace().map(|x| x.parse().unwrap_or(0)).collect();
    // Fields 16 and 17 of stat (cutime, cstime) are 13 and 14 after the command's name and state.
    Duration::from_millis((f.get(13).unwrap_or(&0) + f.get(14).unwrap_or(&0)) * 10)
}

fn rss() -> u64 {
    let s = std::fs::read_to_string("/proc/self/statm").unwrap_or_default();
    s.split_whitespace().nth(1).and_then(|x| x.parse::<u64>().ok()).unwrap_or(0) * 4096
}

struct Row {
    side: String,
    design: String,
    events: usize,
    wall: Duration,
    cpu: Duration,
    digest: String,
}

fn secs(d: Duration) -> f64 {
    d.as_secs_f64()
}

/// `mem ENGINE K`: K live runs, each its own engine with a 100-todo context, in this (fresh)
/// process: the resident memory they add, per run.
fn mem(args: &[String]) {
    let engine = Engine::parse(&args[0]);
    let k: usize = args[1].parse().unwrap();
    let c100 = todos::context_of(100);
    let before = rss();
    let runs: Vec<Run> = (0..k).map(|_| Run::new(engine, Mode::InEngine, true, &c100)).collect();
    let per = rss().saturating_sub(before) / k as u64;
    let own = match &runs[0] {
        Run::Q(r) => format!("{}", r.rt.memory_usage().malloc_size / 1024),
        Run::B(_) => "none (boa has no count)".into(),
    };
    println!("| {} | {k} | {} | {own} |", engine.name(), per / 1024);
    drop(black_box(runs));
}

fn once(args: &[String]) {
    let engine = Engine::parse(&args[0]);
    let (mode, hooks) = design(&args[1]);
    let events = todos::load_events(&args[2]);
    let mut run = Run::new(engine, mode, hooks, &todos::initial_context());
    let end = drive(&mut run, &events);
    println!("{}", todos::digest(&end));
}

/// A whole process, best of `rounds`: wall time and its CPU time (children's, 10 ms ticks).
fn whole_process(cmd: &mut dyn FnMut() -> Command, rounds: usize) -> (Duration, Duration, String) {
    let (mut wall, mut cpu, mut out) = (Duration::MAX, Duration::MAX, String::new());
    for _ in 0..rounds {
        let c0 = children_cpu();
        let t0 = Instant::now();
        let o = cmd().output().expect("spawn");
        let w = t0.elapsed();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        wall = wall.min(w);
        cpu = cpu.min(children_cpu() - c0);
        out = String::from_utf8_lossy(&o.stdout).trim().to_string();
    }
    (wall, cpu, out)
}

fn bench(args: &[String]) {
    let path = &args[0];
    let rounds: usize = args.get(1).map_or(3, |r| r.parse().unwrap());
    let events = todos::load_events(path);
    let n = events.len();
    let exe = std::env::current_exe().unwrap();
    println!("# {n} events from {path}, best of {rounds} rounds");

    // xstate 5 in Node, in-process: the send loop.
    let o = Command::new("node").args(["xstate-todos.mjs", path, &rounds.to_string()]).output().expect("node");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let x: Value = serde_json::from_slice(&o.stdout).unwrap();
    let xs_wall = Duration::from_secs_f64(x["seconds"].as_f64().unwrap());
    let xs_digest =
        format!("{{\"todos\":{},\"bytes\":{},\"fnv1a\":\"{}\"}}", x["todos"], x["bytes"], x["fnv1a"].as_str().unwrap());
    let mut rows = vec![Row {
        side: "xstate 5 (Node)".into(),
        design: "send loop".into(),
        events: n,
        wall: xs_wall,
        cpu: Duration::from_secs_f64(x["cpu_seconds"].as_f64().unwrap()),
        digest: xs_digest.clone(),
    }];

    // The engines, in-process: each design, a fresh run each round (creation not timed). Design b
    // costs 5-10x design a: it runs the first 10 000 events only (the list is at its ~100 todos
    // after the first few hundred), and is compared per event.
    for engine in [Engine::QuickJs, Engine::Boa] {
        for (name, mode, hooks) in DESIGNS {
            let events = if mode == Mode::InEngine { &events[..] } else { &events[..n.min(10_000)] };
            let (mut wall, mut cpu, mut digest) = (Duration::MAX, Duration::MAX, String::new());
            for _ in 0..rounds {
                let mut run = Run::new(engine, mode, hooks, &todos::initial_context());
                let c0 = thread_cpu();
                let t0 = Instant::now();
                let end = drive(&mut run, events);
                wall = wall.min(t0.elapsed());
                cpu = cpu.min(thread_cpu() - c0);
                digest = todos::digest(&end);
                if hooks {
                    // The generator's state is the host's: the same as the JS generator's after the run.
                    let mut s = todos::SEED;
                    let calls = events
                        .iter()
                        .filter(|(t, e)| *t == 1 && !e["value"].as_str().unwrap().trim().is_empty())
                        .count();
                    for _ in 0..calls {
                        todos::mulberry32(&mut s);
                    }
                    assert_eq!(run.rng_state(), Some(s), "Math.random's state readable from Rust");
                }
            }
            rows.push(Row { side: engine.name().into(), design: name.into(), events: events.len(), wall, cpu, digest });
        }
        // The floor: the loop itself in JavaScript, no host between the calls.
        let array = format!("[{}]", events.iter().map(|(_, e)| e.to_string()).collect::<Vec<_>>().join(","));
        let (mut wall, mut cpu, mut digest) = (Duration::MAX, Duration::MAX, String::new());
        for _ in 0..rounds {
            let mut run = Run::new(engine, Mode::InEngine, false, &todos::initial_context());
            let (w, c, end) = run.floor(&array);
            cpu = cpu.min(c);
            wall = wall.min(w);
            digest = todos::digest(&end);
        }
        rows.push(Row { side: engine.name().into(), design: "floor: loop in JS".into(), events: n, wall, cpu, digest });
    }

    println!();
    println!("## In-process (functions called as the core would; snapshot every 1 000 events)");
    println!();
    println!("| side | design | events | wall (s) | CPU (s) | µs/event (wall) | µs/event (CPU) | xstate / this (wall per event) | final context |");
    println!("|---|---|---:|---:|---:|---:|---:|---:|---|");
    let xs_per = secs(xs_wall) / n as f64;
    for r in &rows {
        let per = secs(r.wall) / r.events as f64;
        let same = if r.events < n {
            " (a prefix: not compared)"
        } else if r.digest == xs_digest {
            ""
        } else {
            " MISMATCH"
        };
        println!(
            "| {} | {} | {} | {:.3} | {:.3} | {:.2} | {:.2} | {:.2}x | {}{same} |",
            r.side,
            r.design,
            r.events,
            secs(r.wall),
            secs(r.cpu),
            per * 1e6,
            secs(r.cpu) * 1e6 / r.events as f64,
            xs_per / per,
            r.digest,
        );
    }

    // Whole processes: read the script, run it, print the digest.
    println!();
    println!("## Whole processes: read {n} events, run them, print the final context (best of {rounds})");
    println!();
    println!("| process | wall (s) | CPU (s) | xstate wall / this | final context |");
    println!("|---|---:|---:|---:|---|");
    let (xw, xc, xo) = whole_process(
        &mut || {
            let mut c = Command::new("node");
            c.args(["xstate-todos.mjs", path, "--once"]);
            c
        },
        rounds,
    );
    println!("| node xstate-todos.mjs --once | {:.3} | {:.2} | 1.00x | {xo} |", secs(xw), secs(xc));
    for engine in ["quickjs", "boa"] {
        for d in ["a", "a+c"] {
            let (w, c, o) = whole_process(
                &mut || {
                    let mut c = Command::new(&exe);
                    c.args(["once", engine, d, path]);
                    c
                },
                rounds,
            );
            println!(
                "| {} once {d} | {:.3} | {:.2} | {:.2}x | {o}{} |",
                Engine::parse(engine).name(),
                secs(w),
                secs(c),
                secs(xw) / secs(w),
                if o == xo { "" } else { " MISMATCH" }
            );
        }
    }

    extras(path);
}

/// Time of `f`, best and median of `k` tries.
fn timed(k: usize, mut f: impl FnMut()) -> (Duration, Duration) {
    let mut ts: Vec<Duration> = (0..k)
        .map(|_| {
            let t0 = Instant::now();
            f();
            t0.elapsed()
        })
        .collect();
    ts.sort();
    (ts[0], ts[k / 2])
}

fn us(d: Duration) -> f64 {
    d.as_secs_f64() * 1e6
}

struct Probe<T>(std::marker::PhantomData<T>);
trait NotSend {
    fn is_send(&self) -> bool {
        false
    }
}
impl<T> NotSend for Probe<T> {}
impl<T: Send> Probe<T> {
    fn is_send(&self) -> bool {
        true
    }
}
macro_rules! send {
    ($t:ty) => {
        Probe::<$t>(std::marker::PhantomData).is_send()
    };
}

fn extras(path: &str) {
    let c100 = todos::context_of(100);
    let init = todos::initial_context();

    println!();
    println!("## Creation of a run (engine + context + the 9 functions compiled), 50 tries");
    println!();
    println!("| what | best (µs) | median (µs) |");
    println!("|---|---:|---:|");
    let (b, m) = timed(50, || drop(black_box(rquickjs::Context::full(&rquickjs::Runtime::new().unwrap()).unwrap())));
    println!("| rquickjs Runtime::new + Context::full | {:.0} | {:.0} |", us(b), us(m));
    let rt = rquickjs::Runtime::new().unwrap();
    let (b, m) = timed(50, || drop(black_box(rquickjs::Context::full(&rt).unwrap())));
    println!("| rquickjs Context::full on a shared Runtime | {:.0} | {:.0} |", us(b), us(m));
    drop(rt);
    let (b, m) = timed(50, || drop(black_box(boa_engine::Context::default())));
    println!("| boa Context::default | {:.0} | {:.0} |", us(b), us(m));
    for engine in [Engine::QuickJs, Engine::Boa] {
        for (name, mode, hooks) in [DESIGNS[0], DESIGNS[1]] {
            let (b, m) = timed(50, || drop(black_box(Run::new(engine, mode, hooks, &init))));
            println!("| {} run, design {name} | {:.0} | {:.0} |", engine.name(), us(b), us(m));
        }
    }

    println!();
    println!("## Memory of live runs (design a+c, a 100-todo context each), each engine in a fresh process");
    println!();
    println!("| engine | runs | RSS added per run (KiB) | QuickJS's own count per run (KiB) |");
    println!("|---|---:|---:|---:|");
    for engine in ["quickjs", "boa"] {
        let o = Command::new(std::env::current_exe().unwrap()).args(["mem", engine, "64"]).output().expect("mem");
        println!("{}", String::from_utf8_lossy(&o.stdout).trim());
    }

    println!();
    println!("## The boundary: a 100-todo context, serde_json → engine → serde_json, 1 000 times");
    println!();
    println!("| engine | by tree (API walk), µs | by JSON text, µs |");
    println!("|---|---:|---:|");
    for engine in [Engine::QuickJs, Engine::Boa] {
        let mut run = Run::new(engine, Mode::RustTree, false, &init);
        assert_eq!(run.roundtrip(&c100, false), c100);
        assert_eq!(run.roundtrip(&c100, true), c100);
        let (tree, _) = timed(5, || {
            for _ in 0..1000 {
                black_box(run.roundtrip(&c100, false));
            }
        });
        let (text, _) = timed(5, || {
            for _ in 0..1000 {
                black_box(run.roundtrip(&c100, true));
            }
        });
        println!("| {} | {:.1} | {:.1} |", engine.name(), us(tree) / 1000.0, us(text) / 1000.0);
    }

    println!();
    println!("## The hooks on their own: `Date.now() + Math.random()` 20 000 times in one call");
    println!();
    println!("| engine | JS mulberry32 + system clock (ms) | the run's hooks, in Rust (ms) |");
    println!("|---|---:|---:|");
    let micro =
        "(() => { let s = 0; for (let i = 0; i < 20000; i++) s += Date.now() + Math.random(); return s > 0; })()";
    for engine in [Engine::QuickJs, Engine::Boa] {
        let mut plain = Run::new(engine, Mode::InEngine, false, &init);
        let mut hooked = Run::new(engine, Mode::InEngine, true, &init);
        let (p, _) = timed(5, || {
            plain.try_eval(micro).expect("the micro benchmark runs");
        });
        let (h, _) = timed(5, || {
            hooked.try_eval(micro).expect("the micro benchmark runs in its 100 ms");
        });
        println!("| {} | {:.2} | {:.2} |", engine.name(), us(p) / 1000.0, us(h) / 1000.0);
    }

    println!();
    println!("## The sandbox (design a+c): what hostile or nondeterministic code gets");
    println!();
    println!("| code | rquickjs | boa_engine |");
    println!("|---|---|---|");
    let mut q = Run::new(Engine::QuickJs, Mode::InEngine, true, &init);
    let mut b = Run::new(Engine::Boa, Mode::InEngine, true, &init);
    let cases = [
        "eval('1 + 1')",
        "Function('return 1')()",
        "(() => {}).constructor('return 1')()",
        "(async () => {}).constructor('return 1')",
        "Date.now()",
        "new Date().toISOString()",
        "Math.random()",
        "typeof setTimeout",
        "(function f() { return f() + 1 })()",
        "for (;;) {}",
        "let a = []; for (;;) a.push('x'.repeat(1 << 20))",
    ];
    for code in cases {
        let cell = |r: &mut Run| {
            if code.contains("push") && matches!(r, Run::B(_)) {
                return "not run: no memory bound".to_string();
            }
            let t0 = Instant::now();
            let out = r.try_eval(code);
            let ms = t0.elapsed().as_secs_f64() * 1e3;
            match out {
                Ok(v) => format!("`{v}` ({ms:.0} ms)"),
                Err(e) => format!("throws: {} ({ms:.0} ms)", e.replace('|', "/")),
            }
        };
        let (cq, cb) = (cell(&mut q), cell(&mut b));
        println!("| `{}` | {cq} | {cb} |", code.replace('|', "/"));
    }

    println!();
    println!("## Send (a run must move between threads)");
    println!();
    println!("| type | Send |");
    println!("|---|---|");
    println!("| rquickjs::Runtime (feature parallel) | {} |", send!(rquickjs::Runtime));
    println!("| rquickjs::Context (feature parallel) | {} |", send!(rquickjs::Context));
    println!("| rquickjs::Persistent<Function> | {} |", send!(rquickjs::Persistent<rquickjs::Function<'static>>));
    println!("| this bench's rquickjs run (Runtime, Context, hooks) | {} |", send!(qjs::Run));
    println!("| boa_engine::Context | {} |", send!(boa_engine::Context));
    println!("| boa_engine::JsValue | {} |", send!(boa_engine::JsValue));
    // A rquickjs run moved to another thread half-way gives the same end as one that never moves.
    let events = todos::load_events(path);
    let half = events.len() / 2;
    let mut run = qjs::Run::new(Mode::InEngine, true, &init);
    for (t, e) in &events[..half] {
        run.step(*t, e);
    }
    let rest = events[half..].to_vec();
    let end = std::thread::spawn(move || {
        for (t, e) in &rest {
            run.step(*t, e);
        }
        run.snapshot()
    })
    .join()
    .unwrap();
    println!();
    println!("A rquickjs run moved to another thread after {half} events ends with {}.", todos::digest(&end));
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("bench") => bench(&args[1..]),
        Some("once") => once(&args[1..]),
        Some("mem") => mem(&args[1..]),
        _ => {
            eprintln!("usage: jr2-bench-engines bench EVENTS.jsonl [ROUNDS] | once ENGINE DESIGN EVENTS.jsonl");
            std::process::exit(2);
        }
    }
}
