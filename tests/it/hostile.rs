//! The `jr2` binary against hostile input (issue 16): reads with no end (`/dev/zero`, a FIFO),
//! unreadable paths, bytes a terminal would obey. Every run is bounded: it must end within 10 s
//! (else it is killed and the test fails), under 2 GB of address space (where `prlimit` is
//! there to hold it), with no signal, the contract's exit code, under 20 MB of output, and no
//! byte of its environment in that output.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// A value in every run's environment, which no output may carry.
const SECRET: &str = "JR2_HOSTILE_SECRET_41c7e2";
const LIMIT: Duration = Duration::from_secs(10);
const MAX_OUTPUT: usize = 20 << 20;

pub(crate) struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

/// How a run's stdin is given.
pub(crate) enum Input<'a> {
    Nothing,
    File(&'a Path),
}

/// A fresh folder for one test.
pub(crate) fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("jr2-hostile-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch folder");
    dir
}

fn exists(tool: &str) -> bool {
    Command::new(tool).arg("--version").stdout(Stdio::null()).stderr(Stdio::null()).status().is_ok()
}

/// Runs `jr2 ARGS` in `cwd`, bounded as the module says; `prefix` runs it under another
/// command (`setpriv`, to drop root's way past file modes).
pub(crate) fn run_in(cwd: &Path, args: &[&str], stdin: Input<'_>, prefix: &[&str]) -> Run {
    run_within(cwd, args, stdin, prefix, LIMIT)
}

/// [`run_in`] with its own time limit.
pub(crate) fn run_within(cwd: &Path, args: &[&str], stdin: Input<'_>, prefix: &[&str], limit: Duration) -> Run {
    let mut argv: Vec<String> = prefix.iter().map(|s| s.to_string()).collect();
    if exists("prlimit") {
        argv.extend(["prlimit".into(), format!("--as={}", 2u64 << 30), "--".into()]);
    }
    argv.push(env!("CARGO_BIN_EXE_jr2").into());
    argv.extend(args.iter().map(|s| s.to_string()));
    let mut cmd = Command::new(&argv[0]);
    cmd.args(&argv[1..])
        .current_dir(cwd)
        .env("NO_COLOR", "1")
        .env("JR2_HOSTILE", SECRET)
        // A local server is reached directly, whatever proxy the environment names.
        .env_remove("HTTP_PROXY")
        .env_remove("http_proxy")
        .env_remove("ALL_PROXY")
        .env_remove("all_proxy")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    match stdin {
        Input::Nothing => cmd.stdin(Stdio::null()),
        Input::File(p) => cmd.stdin(std::fs::File::open(p).expect("stdin file")),
    };
    let started = Instant::now();
    let mut child = cmd.spawn().expect("run jr2");
    let capture = |pipe: Option<Box<dyn Read + Send>>| {
        std::thread::spawn(move || {
            let mut out = Vec::new();
            if let Some(p) = pipe {
                let _ = p.take(MAX_OUTPUT as u64 + 1).read_to_end(&mut out);
            }
            out
        })
    };
    let out = capture(child.stdout.take().map(|p| Box::new(p) as Box<dyn Read + Send>));
    let err = capture(child.stderr.take().map(|p| Box::new(p) as Box<dyn Read + Send>));
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break status;
        }
        if started.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("jr2 {args:?} ran past {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    let (stdout, stderr) = (out.join().expect("stdout"), err.join().expect("stderr"));
    let code = status.code().unwrap_or_else(|| panic!("jr2 {args:?} ended by a signal: {status:?}"));
    for (name, bytes) in [("stdout", &stdout), ("stderr", &stderr)] {
        assert!(bytes.len() <= MAX_OUTPUT, "jr2 {args:?}: {name} is over {MAX_OUTPUT} bytes");
        let text = String::from_utf8_lossy(bytes);
        assert!(!text.contains(SECRET), "jr2 {args:?}: {name} carries the environment: {text}");
    }
    Run { code, stdout: String::from_utf8_lossy(&stdout).into(), stderr: String::from_utf8_lossy(&stderr).into() }
}

pub(crate) fn run(cwd: &Path, args: &[&str]) -> Run {
    run_in(cwd, args, Input::Nothing, &[])
}

fn lends() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/cli/lends.json")
}

fn chart() -> &'static str {
    r#"{ "id": "ok", "initial": "a", "states": { "a": { "type": "final" } } }"#
}

/// `/dev/zero` as a Chart (a link to it, and through stdin), as a lend manifest, as a schema:
/// each read ends, exit 2, saying why.
#[test]
fn dev_zero_is_read_no_further_than_the_bound() {
    if !Path::new("/dev/zero").exists() {
        return;
    }
    let dir = scratch("zero");
    std::fs::write(dir.join("ok.json"), chart()).expect("write");
    std::os::unix::fs::symlink("/dev/zero", dir.join("zero.json")).expect("symlink");
    let lends = lends();
    let lends = lends.to_str().expect("path");
    let cases: Vec<(Vec<&str>, Input<'_>)> = vec![
        (vec!["check", "zero.json"], Input::Nothing),
        (vec!["check", "--lends", "/dev/zero", "ok.json"], Input::Nothing),
        (vec!["chart", "check", "ok.json", "--lends", "/dev/zero"], Input::Nothing),
        (vec!["chart", "check", "-", "--lends", lends], Input::File(Path::new("/dev/zero"))),
        (vec!["ir", "-"], Input::File(Path::new("/dev/zero"))),
        (vec!["schema", "chart", "--lends", "/dev/zero"], Input::Nothing),
        (vec!["schema", "compat", "--slot", "-", "--door", "ok.json"], Input::File(Path::new("/dev/zero"))),
    ];
    for (args, stdin) in cases {
        let r = run_in(&dir, &args, stdin, &[]);
        assert_eq!(r.code, 2, "{args:?}: {}", r.stderr);
        assert!(r.stdout.is_empty(), "{args:?}: {}", r.stdout);
        let said = &r.stderr;
        assert!(said.contains("larger than 67108864 bytes") || said.contains("not a regular file"), "{args:?}: {said}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

fn mkfifo(path: &Path) -> bool {
    Command::new("mkfifo").arg(path).status().is_ok_and(|s| s.success())
}

/// A FIFO (and a socket) where a file is named: refused before it is opened, exit 2, for every
/// command that reads a path; met in a walked folder, skipped with a line on stderr while the
/// rest is checked.
#[test]
fn a_fifo_or_socket_is_not_read() {
    let dir = scratch("fifo");
    if !mkfifo(&dir.join("pipe.json")) || !mkfifo(&dir.join("pipe.ts")) {
        eprintln!("no mkfifo here: skipped");
        return;
    }
    let _socket = std::os::unix::net::UnixListener::bind(dir.join("sock.json")).expect("a socket");
    std::fs::write(dir.join("ok.json"), chart()).expect("write");
    let lends = lends();
    let lends = lends.to_str().expect("path");
    let cases: Vec<Vec<&str>> = vec![
        vec!["check", "pipe.json"],
        vec!["check", "pipe.ts"],
        vec!["check", "sock.json"],
        vec!["check", "--lends", "pipe.json", "ok.json"],
        vec!["chart", "check", "pipe.json", "--lends", lends],
        vec!["chart", "check", "ok.json", "--lends", "pipe.json"],
        vec!["ir", "pipe.json"],
        vec!["ir", "pipe.ts"],
        vec!["parts", "pipe.ts"],
        vec!["schema", "briefing", "--lends", "pipe.json"],
        vec!["schema", "compat", "--slot", "pipe.json", "--door", "ok.json"],
    ];
    for args in cases {
        let r = run_in(&dir, &args, Input::Nothing, &[]);
        assert_eq!(r.code, 2, "{args:?}: {}", r.stderr);
        assert!(
            r.stderr.contains("not a regular file (a FIFO)") || r.stderr.contains("(a socket)"),
            "{args:?}: {}",
            r.stderr
        );
    }
    // A walked folder: the FIFOs and the socket are skipped, the Chart beside them checked.
    let r = run_in(&dir, &["check", ".", "--format", "json"], Input::Nothing, &[]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    let doc: serde_json::Value = serde_json::from_str(&r.stdout).expect("one JSON document");
    assert_eq!(doc["summary"]["files"], 1, "{doc}");
    for name in ["pipe.json", "pipe.ts", "sock.json"] {
        assert!(r.stderr.contains(&format!("skipped {name}: not a regular file")), "{}", r.stderr);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A prefix under which file modes hold (`None`: there is none here, so the test is skipped):
/// nothing for a user, `setpriv` without root's two capabilities past them for root.
fn unprivileged() -> Option<Vec<&'static str>> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let uid = status.lines().find(|l| l.starts_with("Uid:"))?.split_whitespace().nth(1)?.to_string();
    if uid != "0" {
        return Some(Vec::new());
    }
    let prefix = vec!["setpriv", "--bounding-set=-dac_override,-dac_read_search"];
    let works = Command::new(prefix[0]).args(&prefix[1..]).arg("true").status().is_ok_and(|s| s.success());
    works.then_some(prefix)
}

fn chmod(path: &Path, mode: u32) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).expect("chmod");
}

/// The bundled example Instance in a fresh folder.
fn instance(name: &str) -> PathBuf {
    let to = scratch(name);
    copy_dir(&PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("examples/instance"), &to);
    to
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for e in std::fs::read_dir(from).expect("read_dir") {
        let e = e.expect("entry");
        if e.file_type().expect("type").is_dir() {
            copy_dir(&e.path(), &to.join(e.file_name()));
        } else {
            std::fs::copy(e.path(), to.join(e.file_name())).expect("copy");
        }
    }
}

/// Unreadable paths are exit 2, said as the system says it ("Permission denied"): an
/// Instance's `workflows/` folder (it said "no problems", exit 0), a Workflow in it (exit 1,
/// unresolved-import), a named Chart (exit 1, "not UTF-8"), a Machine or Chart argument.
#[test]
fn an_unreadable_path_is_exit_2_and_says_why() {
    let Some(prefix) = unprivileged() else {
        eprintln!("no way to obey file modes here: skipped");
        return;
    };
    let cases = [("workflows", "folder"), ("workflows/triage.ts", "workflow"), ("workflows/notes/post.json", "chart")];
    for (path, name) in cases {
        let root = instance(&format!("unreadable-{name}"));
        chmod(&root.join(path), 0);
        for args in [vec!["check", "--offline", "."], vec!["up", "--check", "--offline", "."]] {
            let r = run_in(&root, &args, Input::Nothing, &prefix);
            assert_eq!(r.code, 2, "{path}: {args:?}: {}{}", r.stdout, r.stderr);
            assert!(r.stderr.contains(path) && r.stderr.contains("Permission denied"), "{path}: {}", r.stderr);
            assert!(r.stdout.is_empty(), "{path}: {}", r.stdout);
        }
        chmod(&root.join(path), 0o755);
        let _ = std::fs::remove_dir_all(&root);
    }
    let dir = scratch("unreadable-files");
    std::fs::write(dir.join("a.json"), chart()).expect("write");
    std::fs::write(dir.join("m.ts"), "export const machine = 1;\n").expect("write");
    for file in ["a.json", "m.ts"] {
        chmod(&dir.join(file), 0);
        for args in [vec!["check", file], vec!["check", "."], vec!["ir", file]] {
            let r = run_in(&dir, &args, Input::Nothing, &prefix);
            assert_eq!(r.code, 2, "{args:?}: {}{}", r.stdout, r.stderr);
            assert!(r.stderr.contains("Permission denied") && !r.stderr.contains("UTF-8"), "{args:?}: {}", r.stderr);
        }
        chmod(&dir.join(file), 0o644);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A FIFO where an Instance names a Workflow, a named Chart or its config: exit 2, at once.
#[test]
fn a_fifo_in_an_instance_is_not_read() {
    for (path, args) in [
        ("workflows/pipe.ts", vec!["check", "--offline", "."]),
        ("workflows/notes/pipe.json", vec!["check", "--offline", "."]),
        ("workflows/pipe.ts", vec!["up", "--check", "--offline", "."]),
    ] {
        let root = instance("fifo-instance");
        if !mkfifo(&root.join(path)) {
            return;
        }
        let r = run_in(&root, &args, Input::Nothing, &[]);
        assert_eq!(r.code, 2, "{path}: {}{}", r.stdout, r.stderr);
        assert!(r.stderr.contains(path) && r.stderr.contains("not a regular file (a FIFO)"), "{}", r.stderr);
        let _ = std::fs::remove_dir_all(&root);
    }
    let root = instance("fifo-config");
    std::fs::remove_file(root.join("jr2.config.ts")).expect("the example's config");
    if mkfifo(&root.join("jr2.config.ts")) {
        for args in [vec!["up", "--check", "--offline", "."], vec!["check", "--offline", ".", "--format", "json"]] {
            let r = run_in(&root, &args, Input::Nothing, &[]);
            assert_eq!(r.code, 2, "{args:?}: {}{}", r.stdout, r.stderr);
            assert!(r.stderr.contains("jr2.config.ts: not a regular file"), "{args:?}: {}", r.stderr);
        }
    }
    let _ = std::fs::remove_dir_all(&root);
}

/// One Chart that is no UTF-8 text among others: a json-syntax diagnostic at its first bad
/// byte, the others checked, one JSON document, exit 1.
#[test]
fn a_chart_that_is_not_utf8_is_refused_and_the_rest_checked() {
    let dir = scratch("not-utf8");
    std::fs::write(dir.join("a.json"), chart()).expect("write");
    std::fs::write(dir.join("b.json"), b"{ \"id\": \"b\xff\xfe\" }").expect("write");
    std::fs::write(dir.join("c.json"), chart()).expect("write");
    let r = run(&dir, &["check", ".", "--format", "json"]);
    assert_eq!(r.code, 1, "{}{}", r.stdout, r.stderr);
    let doc: serde_json::Value = serde_json::from_str(&r.stdout).expect("one JSON document");
    assert_eq!(doc["summary"]["files"], 3, "{doc}");
    // The others are checked (without an Open body: `chart-without-lends` says so).
    let found: Vec<&serde_json::Value> =
        doc["diagnostics"].as_array().expect("a list").iter().filter(|d| d["severity"] == "error").collect();
    assert_eq!(found.len(), 1, "{doc}");
    assert_eq!(found[0]["file"], "b.json");
    assert_eq!(found[0]["code"], "json-syntax");
    assert_eq!(found[0]["byte_range"], serde_json::json!([10, 13]), "{doc}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Escape sequences from the input (raw in a source line, decoded from `\u001b` in a name, in
/// a file's name) reach no terminal: human and GitHub output, a usage error's message.
#[test]
fn escape_bytes_from_the_input_are_not_printed_raw() {
    let dir = scratch("escapes");
    // A raw ESC in a string is a JSON error: the source line is shown.
    std::fs::write(dir.join("raw.json"), b"{ \"id\": \"a\x1b[2J\x1b]0;owned\x07\xc2\x9b31m\" }\n").expect("write");
    // Decoded escapes in names: the messages quote them.
    let named = r#"{ "id": "n", "initial": "a\u001b[2J", "states": { "b\u001b]0;x\u0007": { "type": "final" } } }"#;
    std::fs::write(dir.join("named.json"), named).expect("write");
    std::fs::write(dir.join("x\x1b[31m.json"), "{").expect("write");
    let control =
        |s: &str| s.chars().any(|c| (c < ' ' && c != '\n' && c != '\t') || ('\u{7f}'..='\u{9f}').contains(&c));
    for format in ["human", "github"] {
        let r = run(&dir, &["check", ".", "--format", format]);
        assert_eq!(r.code, 1, "{}{}", r.stdout, r.stderr);
        assert!(r.stdout.contains("json-syntax") || r.stdout.contains("title=json-syntax"), "{}", r.stdout);
        assert!(!control(&r.stdout) && !control(&r.stderr), "{format}: {:?}", r.stdout);
    }
    let r = run(&dir, &["check", "no\x1b[2Jsuch.json"]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("no?[2Jsuch.json") && !control(&r.stderr), "{:?}", r.stderr);
    // JSON keeps the text as it is (escaped by JSON itself).
    let r = run(&dir, &["check", "named.json", "--format", "json"]);
    assert!(r.stdout.contains("\\u001b"), "{}", r.stdout);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Nesting oxc's parser recurses into, past the parser's budget (issue 16, item 1: 80 000
/// ternaries, arrows, assignments or `yield`s, 44 000 type arguments, 720 000 `!`): `ts-syntax`,
/// exit 1, in `check`, `ir`, `parts`, and `up --check` through `jr2.config.ts`; never a signal.
#[test]
fn deep_nesting_is_refused_not_overflowed() {
    let dir = scratch("nesting");
    let r = |s: &str, n: usize| s.repeat(n);
    let cases = [
        ("ternary", format!("export const x = {}a{};\n", r("a ? ", 80_000), r(" : a", 80_000))),
        ("arrow", format!("export const x = {}a;\n", r("a => ", 80_000))),
        ("assignment", format!("let a;\n{}1;\n", r("a = ", 80_000))),
        ("yield", format!("function* f() {{ {}1 }}\n", r("yield ", 80_000))),
        ("generics", format!("let x: {}number{};\n", r("Array<", 44_000), r(">", 44_000))),
        ("not", format!("export const x = {}a;\n", r("!", 720_000))),
    ];
    for (name, text) in &cases {
        let file = format!("{name}.ts");
        std::fs::write(dir.join(&file), text).expect("write");
        for args in [vec!["check", file.as_str()], vec!["ir", file.as_str()], vec!["parts", file.as_str()]] {
            let out = run(&dir, &args);
            assert_eq!(out.code, 1, "jr2 {args:?}: {}{}", out.stdout, out.stderr);
            assert!(
                format!("{}{}", out.stdout, out.stderr).contains("nests deeper than"),
                "jr2 {args:?}: {}",
                out.stdout
            );
        }
    }
    let root = instance("nesting-config");
    std::fs::write(root.join("jr2.config.ts"), &cases[0].1).expect("write");
    let out = run(&root, &["up", "--check", "--offline", "."]);
    assert!(out.code == 1 || out.code == 2, "up --check: {}{}", out.stdout, out.stderr);
}

/// An import of a file out of the Instance (`/proc/self/environ`, `/etc/passwd`), and a named
/// Chart or a Workflow that is a symbolic link out of it, are refused, and nothing of what they
/// lead to is printed (issue 16, item 2). The environment is the run's own: a Chart linked to
/// `/proc/self/environ` would print `JR2_HOSTILE=...`.
#[test]
fn no_file_out_of_the_instance_is_read() {
    let root = instance("secrets");
    let deep = "../".repeat(16);
    for (stem, spec) in [("environ", format!("{deep}proc/self/environ")), ("passwd", format!("{deep}etc/passwd"))] {
        let text = format!("import {{ x }} from \"{spec}\";\nexport const y = x;\n");
        std::fs::write(root.join(format!("workflows/{stem}.ts")), text).expect("write");
    }
    if Path::new("/proc/self/environ").exists() {
        std::os::unix::fs::symlink("/proc/self/environ", root.join("workflows/notes/x.json")).expect("symlink");
        std::os::unix::fs::symlink("/proc/self/environ", root.join("workflows/linked.ts")).expect("symlink");
    }
    for format in ["human", "json"] {
        let out = run(&root, &["check", "--offline", ".", "--format", format]);
        assert_eq!(out.code, 1, "{format}: {}{}", out.stdout, out.stderr);
        let all = format!("{}{}", out.stdout, out.stderr);
        assert!(!all.contains("root:"), "{format}: /etc/passwd printed: {all}");
        assert!(all.contains("leads out of the Instance folder"), "{format}: {all}");
    }
    // The same Workflow checked alone.
    let out = run(&root, &["check", "workflows/passwd.ts"]);
    assert_eq!(out.code, 1, "{}{}", out.stdout, out.stderr);
    assert!(!out.stdout.contains("root:"), "{}", out.stdout);
}

/// A Machine checked alone, outside an Instance, may import from its project's folders (issue
/// 40, item 1: xstate's flight-booker imports `../utils` from `src/machines/`): the boundary is
/// the nearest folder above it with a `package.json`, `tsconfig.json` or `.git`. Out of that
/// folder, by `..` or a symbolic link, nothing is read; with no project above, the file's own
/// folder stays the boundary.
#[test]
fn a_lone_machine_reads_its_project_and_nothing_out_of_it() {
    let dir = scratch("project");
    let app = dir.join("app");
    std::fs::create_dir_all(app.join("src/machines")).expect("mkdir");
    std::fs::write(app.join("package.json"), "{ \"name\": \"flight-booker\" }").expect("write");
    std::fs::write(
        app.join("src/utils.ts"),
        "export const TRIP = { oneWay: \"oneWay\", roundTrip: \"roundTrip\" } as const;\n",
    )
    .expect("write");
    std::fs::write(dir.join("outside.ts"), "export const TRIP = { oneWay: \"root:x:0:0\" };\n").expect("write");
    let machine = |spec: &str| {
        format!(
            "import {{ createMachine }} from \"xstate\";\nimport {{ TRIP }} from \"{spec}\";\n\
             export const machine = createMachine({{ id: \"flight\", initial: \"editing\", context: {{ trip: TRIP.oneWay }},\n\
             states: {{ editing: {{ on: {{ SUBMIT: \"submitted\" }} }}, submitted: {{ type: \"final\" }} }} }});\n"
        )
    };
    let check = |file: &str| {
        let out = run(&dir, &["check", file, "--format", "json"]);
        let doc: serde_json::Value = serde_json::from_str(&out.stdout).expect("one JSON document");
        (out.code, messages_of(&doc, "unresolved-import").iter().map(|m| m.to_string()).collect::<Vec<_>>())
    };
    // Inside the project: read, and its value is the Machine's.
    std::fs::write(app.join("src/machines/flight.ts"), machine("../utils")).expect("write");
    assert_eq!(check("app/src/machines/flight.ts"), (0, vec![]));
    let ir = run(&dir, &["ir", "app/src/machines/flight.ts"]);
    assert_eq!(ir.code, 0, "{}", ir.stderr);
    assert!(ir.stdout.contains("\"oneWay\""), "{}", ir.stdout);
    // Out of the project, by `..`, by a symbolic link, or to `/proc`: refused, not read.
    std::fs::write(app.join("src/machines/out.ts"), machine("../../../outside")).expect("write");
    std::fs::write(app.join("src/machines/proc.ts"), machine(&format!("{}proc/self/environ", "../".repeat(16))))
        .expect("write");
    std::os::unix::fs::symlink(dir.join("outside.ts"), app.join("src/linked.ts")).expect("symlink");
    std::fs::write(app.join("src/machines/linked.ts"), machine("../linked")).expect("write");
    for file in ["out", "proc", "linked"] {
        let (code, refused) = check(&format!("app/src/machines/{file}.ts"));
        assert_eq!(code, 1, "{file}: {refused:?}");
        // What `/proc` holds is no source file: not found, as an import out of the project.
        let said = if file == "proc" { "cannot find" } else { "leads out of the project folder" };
        assert!(refused.len() == 1 && refused[0].contains(said), "{file}: {refused:?}");
        let ir = run(&dir, &["ir", &format!("app/src/machines/{file}.ts")]);
        assert!(!format!("{}{}", ir.stdout, ir.stderr).contains("root:x"), "{file}: read out of the project");
    }
    // No project above (where the temporary folder has none): the file's own folder.
    let markers = ["package.json", "tsconfig.json", ".git"];
    if !dir.ancestors().any(|f| markers.iter().any(|m| f.join(m).exists())) {
        std::fs::create_dir_all(dir.join("loose/sub")).expect("mkdir");
        std::fs::write(dir.join("loose/utils.ts"), "export const TRIP = { oneWay: \"oneWay\" };\n").expect("write");
        std::fs::write(dir.join("loose/sub/flight.ts"), machine("../utils")).expect("write");
        let (code, refused) = check("loose/sub/flight.ts");
        assert_eq!(code, 1, "{refused:?}");
        assert!(
            refused.len() == 1 && refused[0].contains("leads out of the folder of the file checked"),
            "{refused:?}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A Chart of a 20 000-state chain is refused from its count, before it is lowered (it took 13 s
/// in a debug build, 200 000 states 116 s in a release one, to be told "at most 200"); a lend
/// manifest that starts with a byte order mark is read past it, as a Chart is (issue 16, items
/// 3 and 7).
#[test]
fn a_huge_chart_is_refused_from_its_count_and_a_bom_is_read_past() {
    let dir = scratch("huge-chart");
    let n = 20_000;
    let chart = chain(n);
    std::fs::write(dir.join("huge.json"), chart).expect("write");
    let started = Instant::now();
    let out = run(&dir, &["check", "huge.json"]);
    assert_eq!(out.code, 1, "{}{}", out.stdout, out.stderr);
    assert!(out.stdout.contains("a Chart has at most 200"), "{}", out.stdout);
    assert!(started.elapsed() < Duration::from_secs(10));
    let lends = std::fs::read_to_string(lends()).expect("lends");
    std::fs::write(dir.join("bom.lends.json"), format!("\u{feff}{lends}")).expect("write");
    let out = run(&dir, &["schema", "chart", "--lends", "bom.lends.json"]);
    assert_eq!(out.code, 0, "{}{}", out.stdout, out.stderr);
}

/// Door compatibility of two schemas of 20 000 required properties: one pass, not a scan of the
/// others for each (11.8 s before in a debug build, 0.4 s now).
#[test]
fn compat_is_linear_in_properties() {
    let dir = scratch("compat-wide");
    let n = 20_000;
    let props: Vec<String> = (0..n).map(|i| format!("\"p{i}\": {{ \"type\": \"string\" }}")).collect();
    let required: Vec<String> = (0..n).map(|i| format!("\"p{i}\"")).collect();
    let schema = format!(
        "{{ \"type\": \"object\", \"properties\": {{ {} }}, \"required\": [{}] }}",
        props.join(", "),
        required.join(", ")
    );
    std::fs::write(dir.join("slot.json"), &schema).expect("write");
    std::fs::write(dir.join("door.json"), &schema).expect("write");
    let started = Instant::now();
    let out = run(&dir, &["schema", "compat", "--slot", "slot.json", "--door", "door.json"]);
    assert_eq!(out.code, 0, "{}{}", out.stdout, out.stderr);
    assert!(started.elapsed() < Duration::from_secs(5), "{:?}", started.elapsed());
}

/// `jr2 schema compat` of a door of 100 000 required fields against a slot that sends none: one
/// finding that lists 20 of them, then how many more (issue 40, item 2: a finding each was 70 MB
/// of human output).
#[test]
fn compat_of_a_door_of_100_000_fields_is_one_list() {
    let dir = scratch("compat-door");
    let n = 100_000;
    let props: Vec<String> = (0..n).map(|i| format!("\"p{i}\": {{ \"type\": \"string\" }}")).collect();
    let required: Vec<String> = (0..n).map(|i| format!("\"p{i}\"")).collect();
    let door = format!(
        "{{ \"type\": \"object\", \"properties\": {{ {} }}, \"required\": [{}] }}",
        props.join(", "),
        required.join(", ")
    );
    std::fs::write(dir.join("door.json"), door).expect("write");
    std::fs::write(dir.join("slot.json"), "{ \"type\": \"object\", \"properties\": {} }").expect("write");
    let out = run(&dir, &["schema", "compat", "--slot", "slot.json", "--door", "door.json"]);
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert!(out.stdout.len() < 64 << 10, "{} bytes", out.stdout.len());
    assert!(
        out.stdout.contains("the door requires 100000 fields, and the slot's schema does not send them"),
        "{}",
        out.stdout
    );
    assert!(out.stdout.contains("\"p19\", and 99980 more"), "{}", out.stdout);
    assert!(out.stdout.ends_with("error: 1 error in 2 files\n"), "{}", out.stdout);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Many findings on one line (issue 16, item 3): a one-line Chart of 170 KB with 2 000 unknown
/// targets. Each finding is drawn on an excerpt of the line, not the whole line (10 000 findings
/// on a 51 KB line took over 60 s, a 207 KB line printed 117 MB).
#[test]
fn many_findings_on_one_line_print_an_excerpt_each() {
    let dir = scratch("one-line");
    let n = 2_000;
    let pad = "x".repeat(70);
    let on: Vec<String> = (0..n).map(|i| format!("\"E{i}\":\"{pad}{i}\"")).collect();
    let chart = format!(
        "{{\"id\":\"c\",\"initial\":\"a\",\"states\":{{\"a\":{{\"on\":{{{}}}}},\"b\":{{\"type\":\"final\"}}}}}}",
        on.join(",")
    );
    assert!(chart.len() > 150_000 && !chart.contains('\n'));
    std::fs::write(dir.join("long.json"), &chart).expect("write");
    let out = run(&dir, &["check", "long.json"]);
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert_eq!(out.stdout.matches("error[unknown-target]").count(), n, "every finding is drawn");
    // Each finding's lines: its header, its place, an excerpt of at most a few hundred bytes.
    assert!(out.stdout.len() < n * 1_500, "{} bytes", out.stdout.len());
    let last = format!("\"{pad}{}\"", n - 1);
    let col = chart.find(&last).expect("the last target") + 1;
    assert!(out.stdout.contains(&format!("─[ long.json:1:{col} ]")), "the place is the line's own");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `jr2 schema chart --lends` with 200 000 lent Agents (48 s before: each name was looked for
/// in the names kept so far).
#[test]
fn a_schema_for_200_000_lent_agents_is_linear() {
    let dir = scratch("lends-wide");
    let agents: Vec<String> = (0..200_000).map(|i| format!("\"a{i}\"")).collect();
    let manifest = format!("{{ \"declaration\": {{ \"lends\": {{ \"agents\": [{}, \"a0\"] }} }} }}", agents.join(","));
    std::fs::write(dir.join("wide.lends.json"), manifest).expect("write");
    let started = Instant::now();
    let out = run(&dir, &["schema", "chart", "--lends", "wide.lends.json"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let schema: serde_json::Value = serde_json::from_str(&out.stdout).expect("the schema");
    let src = &schema["$defs"]["Src"]["enum"];
    assert_eq!(src.as_array().map(Vec::len), Some(200_000), "each name once");
    assert!(started.elapsed() < Duration::from_secs(10), "{:?}", started.elapsed());
    let _ = std::fs::remove_dir_all(&dir);
}

/// An entry Workflow of an Instance that is no UTF-8 text: exit 2, "not UTF-8" (it was exit 1,
/// `unresolved-import`); the Instance check itself says so, not a check before it.
#[test]
fn a_workflow_that_is_no_utf8_text_is_exit_2() {
    let root = instance("not-utf8-workflow");
    std::fs::write(root.join("workflows/bad.ts"), b"export const x = \"\xff\";\n").expect("write");
    for args in
        [vec!["check", "--offline", "."], vec!["up", "--check", "--offline", "."], vec!["check", "workflows/bad.ts"]]
    {
        let r = run(&root, &args);
        assert_eq!(r.code, 2, "{args:?}: {}{}", r.stdout, r.stderr);
        assert!(r.stderr.contains("cannot read workflows/bad.ts: not UTF-8 (at byte 18)"), "{args:?}: {}", r.stderr);
        assert!(!r.stdout.contains("unresolved-import") && r.stdout.is_empty(), "{args:?}: {}", r.stdout);
    }
    let _ = std::fs::remove_dir_all(&root);
}

/// Item 7's smaller ones: a key given twice in a Chart is a warning (which one counts is a
/// guess); a manifest's `wallClock: "30 parsecs"` is refused, saying why; `true` and `false` are
/// JSON Schemas to compat; a Machine whose states nest past the evaluator's 200 levels is an
/// error (it was a `not-static` warning, exit 0, and the states below were not checked).
#[test]
fn duplicate_keys_wall_clocks_boolean_schemas_and_a_deep_machine() {
    let dir = scratch("item-7");
    let twice = r#"{ "id": "d", "initial": "a", "states": { "a": { "type": "final" }, "a": { "type": "final" } } }"#;
    std::fs::write(dir.join("twice.json"), twice).expect("write");
    let out = run(&dir, &["check", "twice.json"]);
    assert_eq!(out.code, 0, "{}{}", out.stdout, out.stderr);
    assert!(out.stdout.contains("warning[duplicate-key]: states: the key \"a\" is given twice"), "{}", out.stdout);
    let out = run(&dir, &["check", "--deny-warnings", "twice.json"]);
    assert_eq!(out.code, 1, "{}", out.stdout);

    let lends = r#"{ "declaration": { "ceilings": { "wallClock": "30 parsecs" } } }"#;
    std::fs::write(dir.join("parsecs.lends.json"), lends).expect("write");
    std::fs::write(dir.join("ok.json"), chart()).expect("write");
    for args in [
        vec!["schema", "chart", "--lends", "parsecs.lends.json"],
        vec!["chart", "check", "ok.json", "--lends", "parsecs.lends.json"],
    ] {
        let out = run(&dir, &args);
        assert_eq!(out.code, 2, "{args:?}: {}", out.stderr);
        assert!(out.stderr.contains("`ceilings.wallClock` is \"30 parsecs\", which is no duration"), "{}", out.stderr);
    }

    std::fs::write(dir.join("true.json"), "true").expect("write");
    std::fs::write(dir.join("false.json"), " false\n").expect("write");
    std::fs::write(dir.join("string.json"), r#"{ "type": "string" }"#).expect("write");
    for (slot, door, code) in
        [("string.json", "true.json", 0), ("false.json", "string.json", 0), ("string.json", "false.json", 1)]
    {
        let out = run(&dir, &["schema", "compat", "--slot", slot, "--door", door]);
        assert_eq!(out.code, code, "{slot} {door}: {}{}", out.stdout, out.stderr);
    }

    let n = 250;
    let mut states = String::from("{ type: \"final\" }");
    for i in (0..n).rev() {
        states = format!("{{ initial: \"s{i}\", states: {{ s{i}: {states} }} }}");
    }
    let text = format!(
        "import {{ jr2Setup }} from \"@jr2/orchestrator\";\nexport const machine = jr2Setup({{ actors: {{}} }}).createMachine({{ id: \"deep\", ...{states} }});\n"
    );
    std::fs::write(dir.join("deep.ts"), text).expect("write");
    let out = run(&dir, &["check", "deep.ts"]);
    assert_eq!(out.code, 1, "{}{}", out.stdout, out.stderr);
    assert!(out.stdout.contains("error[ts-syntax]: the code nests deeper than 200 levels here"), "{}", out.stdout);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A `wallClock` that is no duration in an Open body's declaration refuses the Workflow itself
/// (`open-declaration`), checked alone, in its Instance folder or outside any Instance: it
/// passed alone, and the Instance check refused only the slot's Charts.
#[test]
fn a_workflow_whose_wall_clock_is_no_duration_is_refused() {
    let root = instance("parsecs");
    let path = root.join("workflows/notes.ts");
    let text = std::fs::read_to_string(&path).expect("read");
    assert!(text.contains("wallClock: \"30m\""));
    std::fs::write(&path, text.replace("wallClock: \"30m\"", "wallClock: \"30 parsecs\"")).expect("write");
    let lone = scratch("parsecs-lone");
    std::fs::copy(&path, lone.join("notes.ts")).expect("copy");
    let refusal = "error[open-declaration]: `ceilings.wallClock` is \"30 parsecs\", which is no duration";
    for (cwd, args) in [
        (&root, vec!["check", "workflows/notes.ts"]),
        (&root, vec!["check", "--offline", "."]),
        (&lone, vec!["check", "notes.ts"]),
    ] {
        let out = run(cwd, &args);
        assert_eq!(out.code, 1, "{args:?}: {}{}", out.stdout, out.stderr);
        assert!(out.stdout.contains(refusal), "{args:?}: {}", out.stdout);
    }
    let _ = std::fs::remove_dir_all(&root);
    let _ = std::fs::remove_dir_all(&lone);
}

/// A Workflow of `id` that dispatches the same-Instance Workflow `callee`.
fn dispatching(id: &str, callee: &str) -> String {
    format!(
        r#"import {{ z }} from "zod";
import {{ dispatch, jr2Setup }} from "@jr2/orchestrator";

export const machine = jr2Setup({{
  actors: {{ go: dispatch("{callee}", {{ input: z.object({{ ticket: z.string() }}) }}) }},
}}).createMachine({{
  id: "{id}",
  initial: "s0",
  states: {{
    s0: {{ invoke: {{ src: "go", input: {{ ticket: "t" }}, onDone: "done" }} }},
    done: {{ type: "final" }},
  }},
}});
"#
    )
}

/// 5 000 Workflows, each dispatching a callee the Instance lacks (issue 16, item 3): each
/// `unknown-callee` lists at most 20 of the Workflows, then how many more (each listed all
/// 5 000: 172 MB of JSON).
#[test]
fn unknown_callee_lists_at_most_twenty_workflows() {
    let root = scratch("callees");
    std::fs::create_dir_all(root.join("workflows")).expect("mkdir");
    let n = 5_000;
    for i in 0..n {
        std::fs::write(root.join(format!("workflows/w{i:04}.ts")), dispatching(&format!("w{i:04}"), "nope"))
            .expect("write");
    }
    let out = run(&root, &["check", "--offline", ".", "--format", "json"]);
    assert_eq!(out.code, 1, "{}", out.stderr);
    let doc: serde_json::Value = serde_json::from_str(&out.stdout).expect("one JSON document");
    let found = doc["diagnostics"].as_array().expect("a list");
    assert_eq!(found.len(), n, "one refusal per Workflow");
    let message = found[0]["message"].as_str().expect("a message");
    assert_eq!(
        message,
        format!(
            "dispatch(\"nope\") names no Workflow of this Instance: add workflows/nope.ts, or name one of its Workflows ({}, and {} more)",
            (0..20).map(|i| format!("w{i:04}")).collect::<Vec<_>>().join(", "),
            n - 20
        )
    );
    assert!(out.stdout.len() < 5 << 20, "{} bytes", out.stdout.len());
    let _ = std::fs::remove_dir_all(&root);
}

/// A callee's door of 3 000 objects in a 2 MB file, each requiring one field the caller's slot
/// does not send: 3 000 `door-mismatch` lines, each with its related place in the callee's file,
/// found by one line index of that file (one per place took 213 s in a debug build), each at its
/// field's line. Many fields missing from one object are one line, listing 20 (issue 40, item 2).
#[test]
fn many_related_places_in_one_big_file_index_it_once() {
    let root = scratch("related");
    std::fs::create_dir_all(root.join("workflows")).expect("mkdir");
    let n = 3_000;
    let padding = format!("// {}\n", "x".repeat(100)).repeat(20_000);
    let fields: Vec<String> = (0..n).map(|i| format!("    g{i}: z.object({{ f: z.string() }}),")).collect();
    let callee = format!(
        "import {{ jr2Setup }} from \"@jr2/orchestrator\";\nimport {{ z }} from \"zod\";\n{padding}export const machine = jr2Setup({{\n  schemas: {{ input: z.object({{\n{}\n  }}) }},\n}}).createMachine({{ id: \"callee\", initial: \"a\", states: {{ a: {{ type: \"final\" }} }} }});\n",
        fields.join("\n")
    );
    std::fs::write(root.join("workflows/callee.ts"), &callee).expect("write");
    let sent: Vec<String> = (0..n).map(|i| format!("g{i}: z.object({{}})")).collect();
    std::fs::write(
        root.join("workflows/caller.ts"),
        format!("import {{ dispatch, jr2Setup }} from \"@jr2/orchestrator\";\nimport {{ z }} from \"zod\";\nexport const machine = jr2Setup({{\n  actors: {{ task: dispatch(\"callee\", {{ input: z.object({{ {} }}) }}) }},\n}}).createMachine({{ id: \"caller\", initial: \"a\", states: {{ a: {{ invoke: {{ src: \"task\", onDone: \"b\" }} }}, b: {{ type: \"final\" }} }} }});\n", sent.join(", ")),
    )
    .expect("write");
    let out = run(&root, &["check", "--offline", ".", "--format", "json"]);
    assert_eq!(out.code, 1, "{}", out.stderr);
    let doc: serde_json::Value = serde_json::from_str(&out.stdout).expect("one JSON document");
    let found = doc["diagnostics"].as_array().expect("a list");
    assert_eq!(found.len(), n, "one line per object whose field the slot does not send");
    // The padding's lines, the two imports, `export`, `schemas`: object i is on line 20 005 + i.
    for d in found {
        assert_eq!(d["code"], "door-mismatch");
        let related = &d["related"][0];
        assert!(related["file"].as_str().is_some_and(|f| f.ends_with("workflows/callee.ts")), "{related}");
        let line = related["range"]["start"]["line"].as_u64().expect("a line");
        let path = d["path"].as_str().and_then(|p| p.strip_prefix("properties.g")).expect("an object's path");
        let object: u64 = path.trim_end_matches(".properties.f").parse().expect("a number");
        assert_eq!(line, 20_005 + object, "{d}");
    }
    // The same fields in one object: one line, 20 of them named.
    let fields: Vec<String> = (0..n).map(|i| format!("    f{i}: z.string(),")).collect();
    let callee = callee.replace(
        &callee[callee.find("    g0:").expect("the fields")..callee.find("\n  }) },").expect("their end")],
        &fields.join("\n"),
    );
    std::fs::write(root.join("workflows/callee.ts"), &callee).expect("write");
    let caller = std::fs::read_to_string(root.join("workflows/caller.ts")).expect("read");
    std::fs::write(root.join("workflows/caller.ts"), caller.replace(&sent.join(", "), "")).expect("write");
    let out = run(&root, &["check", "--offline", ".", "--format", "json"]);
    assert_eq!(out.code, 1, "{}", out.stderr);
    let doc: serde_json::Value = serde_json::from_str(&out.stdout).expect("one JSON document");
    let messages = messages_of(&doc, "door-mismatch");
    assert_eq!(messages.len(), 1, "{messages:?}");
    assert!(messages[0].contains("\"f18\", \"f19\", and 2980 more"), "{}", messages[0]);
    let _ = std::fs::remove_dir_all(&root);
}

/// A lent command of 40 000 argv slots, and a Chart whose invoke gives 40 000 other keys: one
/// `effect-input` line listing 20 of each, in bounded time (the key lists were compared by
/// scans: 71 s in a debug build).
#[test]
fn effect_input_is_linear_in_keys() {
    let dir = scratch("effect-keys");
    let n = 40_000;
    let argv: Vec<String> = (0..n).map(|i| format!("{{ \"arg\": \"a{i}\" }}")).collect();
    let lends = format!(
        "{{ \"declaration\": {{ \"lends\": {{ \"effects\": [\"check\"] }} }}, \"lent\": {{ \"effects\": {{ \"check\": {{ \"kind\": \"command\", \"argv\": [\"node\", {}] }} }} }} }}",
        argv.join(", ")
    );
    let input: Vec<String> = (0..n).map(|i| format!("\"b{i}\": \"x\"")).collect();
    let chart = format!(
        "{{ \"id\": \"c\", \"initial\": \"a\", \"states\": {{ \"a\": {{ \"invoke\": {{ \"src\": \"check\", \"input\": {{ {} }}, \"onDone\": \"b\" }} }}, \"b\": {{ \"type\": \"final\" }} }} }}",
        input.join(", ")
    );
    std::fs::write(dir.join("lends.json"), lends).expect("write");
    std::fs::write(dir.join("chart.json"), chart).expect("write");
    let out = run(&dir, &["chart", "check", "chart.json", "--lends", "lends.json", "--format", "json"]);
    assert_eq!(out.code, 1, "{}", out.stderr);
    let doc: serde_json::Value = serde_json::from_str(&out.stdout).expect("one JSON document");
    let found = messages_of(&doc, "effect-input");
    assert_eq!(found.len(), 1, "{found:?}");
    let twenty = |p: &str| (0..20).map(|i| format!("{p}{i}")).collect::<Vec<_>>().join(", ");
    let more = n - 20;
    assert!(found[0].contains(&format!("; missing: {}, and {more} more", twenty("a"))), "{}", found[0]);
    assert!(found[0].ends_with(&format!("; not its input: {}, and {more} more", twenty("b"))), "{}", found[0]);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A door line that lists a collection of the input (here a Chart's 100 000 context keys, in
/// each of 2 000 `unknown-reference` lines) lists at most 20, then how many more.
#[test]
fn a_door_line_lists_at_most_twenty_names() {
    let dir = scratch("door-names");
    let keys: Vec<String> = (0..100_000).map(|i| format!("\"k{i}\": 0")).collect();
    let refs: String = (0..2_000).map(|i| format!("{{{{context.nope{i}}}}} ")).collect();
    let chart = format!(
        "{{ \"id\": \"c\", \"initial\": \"a\", \"context\": {{ {} }}, \"states\": {{ \"a\": {{ \"invoke\": {{ \"src\": \"writer\", \"input\": {{ \"prompt\": \"{refs}\" }} }} }} }} }}",
        keys.join(", ")
    );
    std::fs::write(dir.join("refs.json"), chart).expect("write");
    let out = run(&dir, &["check", "refs.json", "--format", "json"]);
    assert_eq!(out.code, 1, "{}", out.stderr);
    let doc: serde_json::Value = serde_json::from_str(&out.stdout).expect("one JSON document");
    let refs = messages_of(&doc, "unknown-reference");
    assert_eq!(refs.len(), 2_000, "{}", &out.stdout[..out.stdout.len().min(2_000)]);
    assert!(refs[0].ends_with(", k18, k19, and 99980 more"), "{}", refs[0]);
    assert!(out.stdout.len() < 5 << 20, "{} bytes", out.stdout.len());
    let _ = std::fs::remove_dir_all(&dir);
}

/// Door compatibility of a door with a 6 000-value `enum` against a slot that sends 6 000 other
/// values, beside 6 000 properties on each side (issue 16, item 3): each mismatch lists 20 of the
/// door's values, then how many more (each repeated all 6 000: 393 MB), and the values are
/// matched through a set (a scan of the door's for each of the slot's was quadratic).
#[test]
fn compat_lists_at_most_twenty_enum_values_and_is_linear() {
    let dir = scratch("compat-enum");
    let n = 6_000;
    let schema = |prefix: &str| {
        let mut props: Vec<String> = (0..n).map(|i| format!("\"p{i}\": {{ \"type\": \"string\" }}")).collect();
        let values: Vec<String> = (0..n).map(|i| format!("\"{prefix}{i}\"")).collect();
        props.push(format!("\"e\": {{ \"type\": \"string\", \"enum\": [{}] }}", values.join(", ")));
        let required: Vec<String> = (0..n).map(|i| format!("\"p{i}\"")).chain(["\"e\"".to_string()]).collect();
        format!(
            "{{ \"type\": \"object\", \"properties\": {{ {} }}, \"required\": [{}] }}",
            props.join(", "),
            required.join(", ")
        )
    };
    std::fs::write(dir.join("slot.json"), schema("s")).expect("write");
    std::fs::write(dir.join("door.json"), schema("d")).expect("write");
    let started = Instant::now();
    let out = run(&dir, &["schema", "compat", "--slot", "slot.json", "--door", "door.json", "--format", "json"]);
    assert_eq!(out.code, 1, "{}", out.stderr);
    let doc: serde_json::Value = serde_json::from_str(&out.stdout).expect("one JSON document");
    let found = doc["diagnostics"].as_array().expect("a list");
    assert_eq!(found.len(), n, "one mismatch per value the door does not hold");
    let message = found[0]["message"].as_str().expect("a message");
    assert!(message.contains("\"d18\", \"d19\", and 5980 more) does not hold"), "{message}");
    assert!(out.stdout.len() < 10 << 20, "{} bytes", out.stdout.len());
    assert!(started.elapsed() < Duration::from_secs(10), "{:?}", started.elapsed());
    let _ = std::fs::remove_dir_all(&dir);
}

/// A chain of 200 000 states (116 s in a release build, only to say "at most 200"): every
/// command that reads a Chart refuses it from its count, before it is lowered.
#[test]
fn a_chart_of_200_000_states_is_refused_by_every_command() {
    let dir = scratch("chain");
    let n = 200_000;
    let chart = chain(n);
    std::fs::write(dir.join("chain.json"), chart).expect("write");
    let lends = lends();
    let lends = lends.to_str().expect("path");
    for args in [
        vec!["check", "chain.json"],
        vec!["check", "--lends", lends, "chain.json"],
        vec!["chart", "check", "chain.json", "--lends", lends],
        vec!["ir", "chain.json"],
        vec!["graph", "chain.json"],
        vec!["sim", "chain.json"],
    ] {
        let out = run(&dir, &args);
        assert_eq!(out.code, 1, "{args:?}: {}{}", out.stdout, out.stderr);
        let said = format!("{}{}", out.stdout, out.stderr);
        assert!(
            said.contains("error[too-many-states]") && said.contains("a Chart has at most 200"),
            "{args:?}: {said}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The peak resident memory of `jr2 ARGS` in kilobytes, as GNU time measures it (`None`: no
/// `/usr/bin/time` here), with the run bounded as [`run`] bounds it.
fn peak_kb(cwd: &Path, args: &[&str]) -> (Run, Option<u64>) {
    let time = Path::new("/usr/bin/time");
    let works = time.exists()
        && Command::new(time).args(["-f", "%M", "true"]).stderr(Stdio::null()).status().is_ok_and(|s| s.success());
    if !works {
        return (run(cwd, args), None);
    }
    let file = cwd.join(format!("peak-{}.txt", args.join("-").replace(['/', '.'], "_")));
    let file_arg = file.to_str().expect("path").to_string();
    let r = run_in(cwd, args, Input::Nothing, &["/usr/bin/time", "-f", "%M", "-o", &file_arg]);
    let said = std::fs::read_to_string(&file).unwrap_or_default();
    (r, said.lines().last().and_then(|l| l.trim().parse().ok()))
}

/// Charts of 60 MB, within the 64 MiB read (a 63 MB Chart took 6 GB in `jr2 ir`): 30 million
/// numbers, 4 million context keys, 4 million strings; each refused, as every value past the
/// JSON parser's budget of a million is not read, in bounded time and under 2 GB of resident
/// memory, by every command that reads a Chart. Measured with `/usr/bin/time -f %M`, under
/// `prlimit --as=2G` besides (see [`run_in`]).
#[test]
fn a_chart_of_60_mb_stays_under_2_gb() {
    let dir = scratch("sixty-mb");
    let head = "{\"id\":\"c\",\"initial\":\"a\",\"states\":{\"a\":{\"type\":\"final\"}},\"context\":";
    let numbers = format!("{head}{{\"big\":[{}0]}}}}", "0,".repeat(30_000_000));
    let keys: String = (0..4_000_000).map(|i| format!("\"k{i}\":0,")).collect();
    let keys = format!("{head}{{{keys}\"last\":0}}}}");
    let strings = format!("{head}{{\"big\":[{}\"\"]}}}}", "\"yyyyyyyyyyyy\",".repeat(4_000_000));
    let lends = lends();
    let lends = lends.to_str().expect("path");
    for (name, text) in [("numbers", numbers), ("keys", keys), ("strings", strings)] {
        assert!(text.len() > 50_000_000 && text.len() < 64 << 20, "{name}: {}", text.len());
        let file = format!("{name}.json");
        std::fs::write(dir.join(&file), text).expect("write");
        for args in [
            vec!["check", file.as_str(), "--format", "json"],
            vec!["chart", "check", file.as_str(), "--lends", lends, "--format", "json"],
            vec!["ir", file.as_str()],
            vec!["graph", file.as_str()],
            vec!["sim", file.as_str()],
        ] {
            let (out, peak) = peak_kb(&dir, &args);
            assert_eq!(out.code, 1, "{args:?}: {}", out.stderr);
            let said = format!("{}{}", out.stdout, out.stderr);
            assert!(said.contains("holds more than 1048576 JSON values"), "{args:?}: {said}");
            match peak {
                Some(kb) => assert!(kb < 2 << 20, "{args:?}: {kb} KB resident at the peak"),
                None => eprintln!("no /usr/bin/time here: the peak is bounded by prlimit alone"),
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// 20 foreign doors on a server that accepts and never answers (51 s before: 5 s each, two at
/// a time): the run's doors share 10 s, and each door not read by then is a
/// `foreign-door-unreachable` warning saying so; the check ends within 15 s, exit 0.
#[test]
fn foreign_doors_share_one_time_budget() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind a local port");
    let origin = format!("http://{}", listener.local_addr().expect("its address"));
    // Accepts every connection and holds it open, answering nothing.
    std::thread::spawn(move || {
        let mut held = Vec::new();
        for stream in listener.incoming().flatten() {
            held.push(stream);
        }
    });
    let root = scratch("silent-doors");
    std::fs::create_dir_all(root.join("workflows")).expect("mkdir");
    let names: Vec<String> = (0..20).map(|i| format!("door{i}")).collect();
    let targets: Vec<(&str, &str)> = names.iter().map(|n| (n.as_str(), origin.as_str())).collect();
    std::fs::write(root.join("workflows/caller.ts"), crate::foreign::foreign_caller::foreign_caller(&targets))
        .expect("write");
    let started = Instant::now();
    let out = run_within(&root, &["check", ".", "--format", "json"], Input::Nothing, &[], Duration::from_secs(20));
    let took = started.elapsed();
    assert_eq!(out.code, 0, "warnings only: {}{}", out.stdout, out.stderr);
    assert!(took < Duration::from_secs(15), "{took:?}");
    let doc: serde_json::Value = serde_json::from_str(&out.stdout).expect("one JSON document");
    let unreachable = messages_of(&doc, "foreign-door-unreachable");
    assert_eq!(unreachable.len(), 20, "{}", out.stdout);
    let spent = "not read within the 10 s a run gives all foreign doors together; `--offline` reads none";
    let not_tried = unreachable.iter().filter(|m| m.contains(spent)).count();
    assert!(not_tried >= 10, "{not_tried} of 20 said the time was spent: {unreachable:#?}");
    assert!(
        unreachable[0].starts_with(&format!("dispatch(\"door0\"): GET {origin}/workflows/door0 reached no Instance ("))
    );
    let _ = std::fs::remove_dir_all(&root);
}

/// The messages of the diagnostics of `code` in a `--format json` document, in order.
fn messages_of<'d>(doc: &'d serde_json::Value, code: &str) -> Vec<&'d str> {
    let all = doc["diagnostics"].as_array().expect("a list of diagnostics");
    all.iter().filter(|d| d["code"] == code).filter_map(|d| d["message"].as_str()).collect()
}

/// A Chart of `n` states in one cycle, each going to the next on `N`.
fn chain(n: usize) -> String {
    let states: Vec<String> =
        (0..n).map(|i| format!("\"s{i}\": {{ \"on\": {{ \"N\": \"s{}\" }} }}", (i + 1) % n)).collect();
    format!("{{ \"id\": \"c\", \"initial\": \"s0\", \"states\": {{ {} }} }}", states.join(", "))
}
