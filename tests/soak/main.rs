//! The crash soak (issue 35, "What it must show"): RUNS runs of a Workflow with a command, a
//! timer, an `http` Effect to a local server and a Gate, on the real `jr2 serve`, SIGKILLed at
//! KILLS random moments and restarted each time on the same database; each Gate answered through
//! the API once it waits. At the end:
//! - the store holds RUNS runs of the Workflow, each `done`;
//! - no non-idempotent Effect ran twice: the command appends its run's key to a file (at most one
//!   line per key), the local http server counts requests per key (at most one);
//! - an Effect that settled `exited` / `answered` did run once (its line, its request is there);
//! - every timer fired once: the timer's transition increments `fired` in the context, and the
//!   final output says 1;
//! - the Effects whose outcome a kill lost settled `{ outcome: "unknown" }` (ADR-0067): counted in
//!   the report, and the Workflow's `onDone` routes them on to `done`.
//!
//! The checks are invariants, not traces (as DBOS's chaos suite and Restate's verification
//! runner check theirs): counts per key, statuses, the context.
//!
//! It is slow, so it runs under `JR2_SLOW=1` (CI, scripts/test.sh) or `JR2_SOAK=1`
//! (bench/soak.sh); otherwise it says so and passes without running. Under `JR2_SLOW`, `JR2_SOAK`
//! or `CI=true` a soak that cannot run (no `jr2 serve` in this build) FAILS: it never passes
//! silently. `JR2_SOAK_RUNS` (100), `JR2_SOAK_KILLS` (20) and `JR2_SOAK_SEED` (printed at the
//! start) set its size and replay its random moments. What it found is one report line on stdout
//! (`soak: {...}` JSON), and the servers' logs are kept in its folder.

use serde_json::{json, Value};
use std::collections::{BTreeMap, HashMap, HashSet};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitCode, Stdio};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, RwLock};
use std::time::{Duration, Instant};

const JR2: &str = env!("CARGO_BIN_EXE_jr2");
/// The token the servers and the driver share (`JR2_TOKEN`): made up for the soak, not a secret.
const TOKEN: &str = "50a450a450a450a450a450a450a450a450a450a450a450a450a450a450a450a4";
/// How long the runs may take to settle after the last kill.
const SETTLE: Duration = Duration::from_secs(120);

fn env_usize(name: &str, default: usize) -> usize {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

fn on(name: &str) -> bool {
    std::env::var_os(name).is_some_and(|v| !v.is_empty() && v != "0")
}

fn main() -> ExitCode {
    let must = on("JR2_SLOW") || on("JR2_SOAK") || std::env::var("CI").is_ok_and(|v| v == "true");
    if !must {
        println!("soak: skipped (a slow test: JR2_SLOW=1 or JR2_SOAK=1 runs it; bench/soak.sh)");
        return ExitCode::SUCCESS;
    }
    match soak() {
        Ok(report) => {
            println!("soak: {report}");
            ExitCode::SUCCESS
        }
        Err(why) => {
            eprintln!("soak: FAILED: {why}");
            ExitCode::FAILURE
        }
    }
}

/// A small xorshift generator: the soak's random moments, replayed from its seed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    /// A duration in [lo, hi) milliseconds.
    fn ms(&mut self, lo: u64, hi: u64) -> Duration {
        Duration::from_millis(lo + self.next() % (hi - lo).max(1))
    }
}

fn soak() -> Result<Value, String> {
    let runs = env_usize("JR2_SOAK_RUNS", 100);
    let kills = env_usize("JR2_SOAK_KILLS", 20);
    let seed = std::env::var("JR2_SOAK_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or_else(|| {
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_nanos() as u64).unwrap_or(1) | 1
    });
    println!("soak: {runs} runs, {kills} kills, JR2_SOAK_SEED={seed}");
    let mut rng = Rng(seed);

    // `jr2 serve` must be in this build: a soak that cannot run fails here.
    let help = Command::new(JR2).args(["serve", "--help"]).output().map_err(|e| format!("cannot run {JR2}: {e}"))?;
    if !help.status.success() {
        return Err("this jr2 has no `jr2 serve` (issue 35 item 2): the soak needs it".into());
    }

    let dir = std::env::temp_dir().join(format!("jr2-soak-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("instance/workflows")).map_err(|e| e.to_string())?;
    let hits = Hits::start()?;
    let lines = dir.join("lines");
    write_instance(&dir.join("instance"), hits.port)?;
    let check =
        Command::new(JR2).args(["check", "--offline"]).arg(dir.join("instance")).output().map_err(|e| e.to_string())?;
    if !check.status.success() {
        return Err(format!("the soak's Instance does not check:\n{}", String::from_utf8_lossy(&check.stdout)));
    }

    let server = Arc::new(Server::new(&dir));
    server.spawn()?;
    let api = Api { server: server.clone(), agent: agent() };

    // The killer: KILLS SIGKILLs at random moments (0.3 to 1.5 s apart), each followed by a
    // restart on the same database.
    let stop = Arc::new(AtomicBool::new(false));
    let killed = Arc::new(AtomicUsize::new(0));
    // Runs started and not seen ended, as the driver last counted: a kill with some is one that
    // landed among live runs.
    let live = Arc::new(AtomicUsize::new(0));
    let among = Arc::new(AtomicUsize::new(0));
    let killer = {
        let (server, stop, killed, live, among) =
            (server.clone(), stop.clone(), killed.clone(), live.clone(), among.clone());
        let pauses: Vec<Duration> = (0..kills).map(|_| rng.ms(300, 1500)).collect();
        std::thread::spawn(move || -> Result<(), String> {
            for pause in pauses {
                std::thread::sleep(pause);
                if stop.load(Ordering::SeqCst) {
                    break;
                }
                if live.load(Ordering::SeqCst) > 0 {
                    among.fetch_add(1, Ordering::SeqCst);
                }
                server.kill();
                killed.fetch_add(1, Ordering::SeqCst);
                server.spawn()?;
            }
            Ok(())
        })
    };

    // The driver: starts the runs one at a time (each start's key known before it is sent), and
    // between starts answers every Gate that waits.
    let mut ids: BTreeMap<String, String> = BTreeMap::new(); // key -> run id
    let mut answered: HashSet<String> = HashSet::new();
    let mut answers = 0usize;
    let mut ended: HashSet<String> = HashSet::new();
    let mut next = 0usize;
    // The starts spread over the kills' span (0.9 s a kill on average), so that kills land among
    // live runs, not after them.
    let pace = Duration::from_millis((kills as u64 * 900 / runs.max(1) as u64).max(20));
    let mut last_kill_seen = Instant::now();
    let mut seen_kills = 0usize;
    loop {
        if killed.load(Ordering::SeqCst) != seen_kills {
            seen_kills = killed.load(Ordering::SeqCst);
            last_kill_seen = Instant::now();
        }
        let killer_done = killer.is_finished();
        if next < runs {
            let key = format!("soak-{next}");
            let input = json!({ "key": key, "file": lines });
            match api.post("/workflows/soak/runs", &input) {
                Ok((201, body)) => {
                    let id = body["runId"].as_str().ok_or("a start answered no runId")?.to_string();
                    ids.insert(key, id);
                    next += 1;
                }
                Ok((status, body)) if status < 500 => return Err(format!("a start was refused: {status} {body}")),
                // No answer: the kill may have come before or after the start committed. The store
                // says which, once a server answers again.
                _ => {
                    if let Some(id) = api.adopt(&ids)? {
                        ids.insert(key, id);
                        next += 1;
                    }
                }
            }
            std::thread::sleep(pace);
        }
        // Every Gate that waits gets its answer; a run no longer live is ended.
        for (key, id) in &ids {
            if ended.contains(id) {
                continue;
            }
            let Ok((200, run)) = api.get(&format!("/runs/{id}")) else { continue };
            if run["status"] != "live" {
                ended.insert(id.clone());
                continue;
            }
            let waits = run["gates"].as_array().into_iter().flatten().any(|g| g["gate"] == "approver");
            // A 202 is an answer committed to the run's inbox: it is never sent again. One whose
            // answer a kill lost is sent again while the Gate waits.
            if waits && !answered.contains(id) {
                match api.post(&format!("/runs/{id}/gates/approver"), &json!({ "type": "go" })) {
                    Ok((202, _)) => {
                        answers += 1;
                        answered.insert(id.clone());
                    }
                    Ok((409, _)) | Err(_) => {}
                    Ok((status, body)) => {
                        return Err(format!("the answer to {key}'s Gate was refused: {status} {body}"))
                    }
                }
            }
        }
        live.store(ids.len().saturating_sub(ended.len()), Ordering::SeqCst);
        if next >= runs && ended.len() >= runs && killer_done {
            break;
        }
        if killer_done && last_kill_seen.elapsed() > SETTLE {
            return Err(format!(
                "{} of {runs} runs still live {} s after the last kill; the servers' logs: {}",
                runs - ended.len(),
                SETTLE.as_secs(),
                dir.display()
            ));
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    stop.store(true, Ordering::SeqCst);
    killer.join().map_err(|_| "the killer thread panicked".to_string())??;

    // The invariants, read from the last server and the two counters.
    let mut problems: Vec<String> = Vec::new();
    let (status, page) = api.get("/runs?workflow=soak&limit=1000")?;
    let listed = page["runs"].as_array().cloned().unwrap_or_default();
    if status != 200 || listed.len() != runs {
        problems.push(format!("the store holds {} runs of soak, not {runs} ({status})", listed.len()));
    }
    let text = std::fs::read_to_string(&lines).unwrap_or_default();
    let mut appended: HashMap<&str, usize> = HashMap::new();
    for line in text.lines() {
        *appended.entry(line.trim()).or_default() += 1;
    }
    let requests = hits.counts();
    let (mut unknown_command, mut unknown_http, mut statuses) = (0usize, 0usize, BTreeMap::<String, usize>::new());
    for (key, id) in &ids {
        let (_, run) = api.get(&format!("/runs/{id}"))?;
        let status = run["status"].as_str().unwrap_or("?").to_string();
        *statuses.entry(status.clone()).or_default() += 1;
        if status != "done" {
            problems.push(format!("{key} ({id}) ended {status}: {}", run.get("error").unwrap_or(&Value::Null)));
            continue;
        }
        let out = &run["output"];
        if out["fired"] != 1 {
            problems.push(format!("{key}: its timer fired {} times, not once", out["fired"]));
        }
        let lines_of = appended.get(key.as_str()).copied().unwrap_or(0);
        let hits_of = requests.get(key).copied().unwrap_or(0);
        if lines_of > 1 {
            problems.push(format!("{key}: the command ran {lines_of} times"));
        }
        if hits_of > 1 {
            problems.push(format!("{key}: the http Effect ran {hits_of} times"));
        }
        match out["ran"]["outcome"].as_str() {
            Some("exited") if lines_of != 1 => {
                problems.push(format!("{key}: the command settled exited, and left no line"))
            }
            Some("exited") => {}
            Some("unknown") => unknown_command += 1,
            other => problems.push(format!("{key}: the command settled {other:?}")),
        }
        match out["hit"]["outcome"].as_str() {
            Some("answered") if hits_of != 1 => {
                problems.push(format!("{key}: the http Effect settled answered, and the server counted {hits_of}"))
            }
            Some("answered") => {}
            Some("unknown") => unknown_http += 1,
            other => problems.push(format!("{key}: the http Effect settled {other:?}: {}", out["hit"])),
        }
    }
    server.kill();
    let report = json!({
        "runs": ids.len(),
        "statuses": statuses,
        "kills": killed.load(Ordering::SeqCst),
        "killsAmongLiveRuns": among.load(Ordering::SeqCst),
        "commandLines": appended.values().sum::<usize>(),
        "httpRequests": requests.values().sum::<usize>(),
        "unknown": { "command": unknown_command, "http": unknown_http },
        "gateAnswers": answers,
        "seed": seed,
    });
    if problems.is_empty() {
        let _ = std::fs::remove_dir_all(&dir);
        Ok(report)
    } else {
        Err(format!("{report}\n{}\n(the servers' logs are in {})", problems.join("\n"), dir.display()))
    }
}

/// The soak's Instance: a config with nothing in it, and the Workflow `soak`, whose http Effect
/// posts to the counting server's port.
fn write_instance(dir: &Path, port: u16) -> Result<(), String> {
    let config = "import { defineConfig } from \"@jr2/orchestrator\";\n\nexport default defineConfig({});\n";
    let workflow = include_str!("soak.ts").replace("http://127.0.0.1:9/hit", &format!("http://127.0.0.1:{port}/hit"));
    std::fs::write(dir.join("jr2.config.ts"), config).map_err(|e| e.to_string())?;
    std::fs::write(dir.join("workflows/soak.ts"), workflow).map_err(|e| e.to_string())
}

fn agent() -> ureq::Agent {
    ureq::Agent::config_builder()
        .timeout_connect(Some(Duration::from_secs(2)))
        .timeout_global(Some(Duration::from_secs(10)))
        .http_status_as_error(false)
        .build()
        .into()
}

/// The running `jr2 serve`, restarted after each kill; its url changes (port 0 each time).
struct Server {
    dir: PathBuf,
    child: Mutex<Option<Child>>,
    url: RwLock<String>,
    starts: AtomicUsize,
}

impl Server {
    fn new(dir: &Path) -> Server {
        Server {
            dir: dir.to_path_buf(),
            child: Mutex::new(None),
            url: RwLock::new(String::new()),
            starts: AtomicUsize::new(0),
        }
    }

    /// Starts a server on the same database and waits for its url line.
    fn spawn(&self) -> Result<(), String> {
        let n = self.starts.fetch_add(1, Ordering::SeqCst);
        let log = std::fs::File::create(self.dir.join(format!("serve-{n}.log"))).map_err(|e| e.to_string())?;
        let mut child = Command::new(JR2)
            .arg("serve")
            .arg(self.dir.join("instance"))
            .args(["--listen", "127.0.0.1:0", "--db"])
            .arg(self.dir.join("jr2.db"))
            .env("JR2_TOKEN", TOKEN)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(log)
            .spawn()
            .map_err(|e| format!("cannot start jr2 serve: {e}"))?;
        let stdout = child.stdout.take().ok_or("no stdout")?;
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let mut lines = BufReader::new(stdout).lines();
            if let Some(Ok(first)) = lines.next() {
                let _ = tx.send(first);
            }
            // The rest is drained, so that the server never blocks on a full pipe.
            for _ in lines {}
        });
        let line = rx.recv_timeout(Duration::from_secs(60)).map_err(|_| {
            let _ = child.kill();
            format!("jr2 serve printed no url within 60 s (log: {})", self.dir.join(format!("serve-{n}.log")).display())
        })?;
        let url = line
            .strip_prefix("jr2 serve: listening on ")
            .ok_or_else(|| format!("jr2 serve's first line is not the contract's: {line:?}"))?
            .trim()
            .to_string();
        *self.url.write().unwrap() = url;
        *self.child.lock().unwrap() = Some(child);
        Ok(())
    }

    /// SIGKILL (`Child::kill` sends it on Unix), and reaps the process.
    fn kill(&self) {
        if let Some(mut child) = self.child.lock().unwrap().take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }

    fn url(&self) -> String {
        self.url.read().unwrap().clone()
    }
}

/// The driver's calls of the API, each tried again while the server is down (a kill), for a while.
struct Api {
    server: Arc<Server>,
    agent: ureq::Agent,
}

impl Api {
    fn call(&self, method: &str, path: &str, body: Option<&Value>) -> Result<(u16, Value), String> {
        let url = format!("{}{path}", self.server.url());
        let sent = match body {
            Some(body) => self
                .agent
                .post(&url)
                .header("Authorization", format!("Bearer {TOKEN}"))
                .header("Content-Type", "application/json")
                .send(body.to_string().as_bytes()),
            None if method == "GET" => self.agent.get(&url).call(),
            None => self.agent.post(&url).header("Authorization", format!("Bearer {TOKEN}")).send_empty(),
        };
        let mut response = sent.map_err(|e| format!("{method} {url}: {e}"))?;
        let status = response.status().as_u16();
        let bytes = response.body_mut().with_config().limit(16 << 20).read_to_vec().map_err(|e| e.to_string())?;
        Ok((status, serde_json::from_slice(&bytes).unwrap_or(Value::Null)))
    }

    /// A GET, tried again for up to 60 s while no server answers (or one restoring answers 5xx).
    fn get(&self, path: &str) -> Result<(u16, Value), String> {
        let until = Instant::now() + Duration::from_secs(60);
        loop {
            match self.call("GET", path, None) {
                Ok((status, body)) if status < 500 => return Ok((status, body)),
                other if Instant::now() > until => return other,
                _ => std::thread::sleep(Duration::from_millis(100)),
            }
        }
    }

    /// A POST, once: a control call whose answer was lost is not sent again blindly.
    fn post(&self, path: &str, body: &Value) -> Result<(u16, Value), String> {
        self.call("POST", path, Some(body))
    }

    /// After a start whose answer was lost: the run of the store that no key holds yet (the start
    /// committed), or `None` (it did not: it is sent again). One start is in flight at a time, so
    /// at most one such run exists.
    fn adopt(&self, ids: &BTreeMap<String, String>) -> Result<Option<String>, String> {
        let (status, page) = self.get("/runs?workflow=soak&limit=1000")?;
        if status != 200 {
            return Err(format!("GET /runs: {status} {page}"));
        }
        let known: HashSet<&String> = ids.values().collect();
        let new: Vec<String> = page["runs"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|r| r["runId"].as_str().map(str::to_string))
            .filter(|id| !known.contains(id))
            .collect();
        match new.as_slice() {
            [] => Ok(None),
            [one] => Ok(Some(one.clone())),
            many => Err(format!("{} runs no start answered: {many:?}", many.len())),
        }
    }
}

/// The local http server the Effect posts to: counts requests per key (the body's `key`).
struct Hits {
    port: u16,
    counts: Arc<Mutex<HashMap<String, usize>>>,
}

impl Hits {
    fn start() -> Result<Hits, String> {
        let listener = TcpListener::bind("127.0.0.1:0").map_err(|e| e.to_string())?;
        let port = listener.local_addr().map_err(|e| e.to_string())?.port();
        let counts: Arc<Mutex<HashMap<String, usize>>> = Arc::default();
        let seen = counts.clone();
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let seen = seen.clone();
                std::thread::spawn(move || answer(stream, &seen));
            }
        });
        Ok(Hits { port, counts })
    }

    fn counts(&self) -> HashMap<String, usize> {
        self.counts.lock().unwrap().clone()
    }
}

/// One request: its body's `key` counted, then `200 {"ok": true}`. Keep-alive is honoured, so a
/// client that reuses its connection is counted per request.
fn answer(stream: TcpStream, seen: &Mutex<HashMap<String, usize>>) {
    let _ = stream.set_read_timeout(Some(Duration::from_secs(30)));
    let mut reader = BufReader::new(match stream.try_clone() {
        Ok(s) => s,
        Err(_) => return,
    });
    let mut stream = stream;
    loop {
        let mut first = String::new();
        if reader.read_line(&mut first).unwrap_or(0) == 0 {
            return;
        }
        let mut length = 0usize;
        loop {
            let mut line = String::new();
            if reader.read_line(&mut line).unwrap_or(0) == 0 {
                return;
            }
            if line.trim().is_empty() {
                break;
            }
            if let Some((name, value)) = line.split_once(':') {
                if name.eq_ignore_ascii_case("content-length") {
                    length = value.trim().parse().unwrap_or(0);
                }
            }
        }
        let mut body = vec![0; length.min(1 << 20)];
        if reader.read_exact(&mut body).is_err() {
            return;
        }
        let key = serde_json::from_slice::<Value>(&body)
            .ok()
            .and_then(|v| v.get("key").and_then(Value::as_str).map(str::to_string))
            .unwrap_or_else(|| format!("(no key: {})", String::from_utf8_lossy(&body)));
        *seen.lock().unwrap().entry(key).or_default() += 1;
        // Counted, then a pause before the answer: a kill in it loses an outcome of an Effect
        // that did run.
        std::thread::sleep(Duration::from_millis(50));
        let reply = "{\"ok\":true}";
        if write!(
            stream,
            "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{reply}",
            reply.len()
        )
        .is_err()
        {
            return;
        }
    }
}
