//! The guide's examples are doc tests (issue 17): every fenced example of `docs/guide/*.md` is
//! run through `jr2 check`, so a page cannot drift from the checker.
//!
//! A fence's info string carries the marks (`docs/guide/authoring.md` says them to the reader):
//!
//! - `jr2-example=NAME file=PATH expect=admitted|CODE[,CODE...]`: a file of the example Instance
//!   `NAME` (every block of one name is one Instance folder, with a `workflows/` folder, checked
//!   together with `jr2 check --offline --format json`). `admitted`: the check reports nothing
//!   in that file; a list of codes: exactly those diagnostics (as a sorted list) in that file.
//! - `jr2-excerpt=NAME`: an excerpt of the example `NAME`: each of its lines (trimmed) is a line
//!   of one of that example's files, in the same order.
//!
//! Every `ts` and `json` block of the guide carries one of the two marks: an example with neither
//! would be a copy nothing checks. (The `text`, `sh`, `toml`, `lua` and `yaml` blocks are not
//! Workflows; `editors.md`'s and `ci.md`'s are checked by their own tests below.)

use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

fn guide_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("docs").join("guide")
}

/// One fenced block of a page.
#[derive(Debug)]
struct Block {
    page: String,
    /// The 1-based line of its opening fence.
    line: usize,
    lang: String,
    marks: BTreeMap<String, String>,
    text: String,
}

impl Block {
    fn at(&self) -> String {
        format!("docs/guide/{}:{}", self.page, self.line)
    }
}

/// The fenced blocks of a Markdown text (``` fences only, the guide's style).
fn blocks(page: &str, text: &str) -> Vec<Block> {
    let mut out = Vec::new();
    let mut open: Option<Block> = None;
    for (i, line) in text.lines().enumerate() {
        let trimmed = line.trim_start();
        match open.take() {
            None => {
                if let Some(info) = trimmed.strip_prefix("```") {
                    let mut words = info.split_whitespace();
                    let lang = words.next().unwrap_or_default().to_string();
                    let marks = words
                        .map(|w| match w.split_once('=') {
                            Some((k, v)) => (k.to_string(), v.to_string()),
                            None => (w.to_string(), String::new()),
                        })
                        .collect();
                    open = Some(Block { page: page.to_string(), line: i + 1, lang, marks, text: String::new() });
                }
            }
            Some(mut b) => {
                if trimmed.starts_with("```") {
                    out.push(b);
                } else {
                    b.text.push_str(line);
                    b.text.push('\n');
                    open = Some(b);
                }
            }
        }
    }
    assert!(open.is_none(), "docs/guide/{page}: a fence is not closed");
    out
}

fn all_blocks() -> Vec<Block> {
    let mut pages: Vec<PathBuf> = std::fs::read_dir(guide_dir())
        .expect("docs/guide")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    pages.sort();
    assert!(!pages.is_empty(), "docs/guide has pages");
    pages
        .iter()
        .flat_map(|p| {
            let name = p.file_name().unwrap_or_default().to_string_lossy().into_owned();
            blocks(&name, &std::fs::read_to_string(p).expect("a page"))
        })
        .collect()
}

/// What `jr2 check` found in each file of an Instance folder: codes by file (relative), sorted.
fn check(dir: &Path) -> (i32, BTreeMap<String, Vec<String>>, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_jr2"))
        .args(["check", "--offline", "--format", "json"])
        .arg(dir)
        .output()
        .expect("jr2 check runs");
    let doc: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("not JSON ({e}): {}", String::from_utf8_lossy(&out.stderr)));
    let mut found: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let prefix = format!("{}/", dir.display());
    for d in doc["diagnostics"].as_array().expect("diagnostics") {
        let file = d["file"].as_str().unwrap_or_default();
        let rel = file.strip_prefix(&prefix).unwrap_or(file).to_string();
        let line = format!("{} ({}:{})", d["code"].as_str().unwrap_or_default(), rel, d["range"]["start"]["line"]);
        found.entry(rel).or_default().push(line);
    }
    for codes in found.values_mut() {
        codes.sort();
    }
    (out.status.code().unwrap_or(-1), found, String::from_utf8_lossy(&out.stdout).into_owned())
}

#[test]
fn every_example_of_the_guide_checks_as_the_page_says() {
    let blocks = all_blocks();
    let mut problems = Vec::new();
    // Every ts / json block is an example or an excerpt of one.
    for b in &blocks {
        if matches!(b.lang.as_str(), "ts" | "json")
            && !b.marks.contains_key("jr2-example")
            && !b.marks.contains_key("jr2-excerpt")
            && b.page == "authoring.md"
        {
            problems.push(format!("{}: a `{}` block with no jr2-example or jr2-excerpt mark", b.at(), b.lang));
        }
    }
    // The examples, by name, each file once.
    let mut examples: BTreeMap<&str, Vec<&Block>> = BTreeMap::new();
    for b in blocks.iter().filter(|b| b.marks.contains_key("jr2-example")) {
        examples.entry(b.marks["jr2-example"].as_str()).or_default().push(b);
    }
    assert!(examples.len() >= 10, "the guide has its examples: {:?}", examples.keys().collect::<Vec<_>>());
    let base = std::env::temp_dir().join(format!("jr2-guide-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&base);
    let mut checked = 0;
    for (name, files) in &examples {
        let dir = base.join(name);
        std::fs::create_dir_all(dir.join("workflows")).expect("mkdir");
        let mut seen = Vec::new();
        for b in files {
            let Some(file) = b.marks.get("file") else {
                problems.push(format!("{}: an example with no file=", b.at()));
                continue;
            };
            if seen.contains(file) {
                problems.push(format!("{}: {name} has {file} twice", b.at()));
            }
            seen.push(file.clone());
            let path = dir.join(file);
            std::fs::create_dir_all(path.parent().expect("a folder")).expect("mkdir");
            std::fs::write(&path, &b.text).expect("write an example");
        }
        let (code, found, doc) = check(&dir);
        let mut errors_expected = false;
        for b in files {
            let (Some(file), Some(expect)) = (b.marks.get("file"), b.marks.get("expect")) else {
                problems.push(format!("{}: an example with no expect=", b.at()));
                continue;
            };
            let got: Vec<String> = found
                .get(file.as_str())
                .into_iter()
                .flatten()
                .map(|l| l.split(' ').next().unwrap_or_default().to_string())
                .collect();
            let want: Vec<String> = if expect == "admitted" {
                Vec::new()
            } else {
                let mut w: Vec<String> = expect.split(',').map(str::to_string).collect();
                w.sort();
                w
            };
            errors_expected |=
                want.iter().any(|c| check::rules::find(c).is_some_and(|r| r.severity.as_str() == "error"));
            for c in &want {
                if check::rules::find(c).is_none() {
                    problems.push(format!("{}: expect names {c}, which is no rule", b.at()));
                }
            }
            if got != want {
                problems.push(format!(
                    "{}: {name}/{file}: the page says {expect}, jr2 check found {:?}",
                    b.at(),
                    found.get(file.as_str()).cloned().unwrap_or_default()
                ));
            }
            checked += 1;
        }
        // Nothing found in a file the example does not show (an import's module, a config).
        for (file, lines) in &found {
            if !seen.contains(file) {
                problems.push(format!("{name}: jr2 check found {lines:?} in {file}, which the page does not show"));
            }
        }
        let want_code = if errors_expected { 1 } else { 0 };
        if code != want_code {
            problems.push(format!("{name}: jr2 check exits {code}, not {want_code}:\n{doc}"));
        }
    }
    // Each excerpt's lines are lines of its example, in order.
    for b in blocks.iter().filter(|b| b.marks.contains_key("jr2-excerpt")) {
        let name = b.marks["jr2-excerpt"].as_str();
        let Some(files) = examples.get(name) else {
            problems.push(format!("{}: an excerpt of {name}, which is no example", b.at()));
            continue;
        };
        let lines: Vec<&str> = b.text.lines().map(str::trim).filter(|l| !l.is_empty()).collect();
        let found_in = files.iter().any(|f| {
            let mut source = f.text.lines().map(str::trim);
            lines.iter().all(|l| source.any(|s| s == *l))
        });
        if !found_in {
            problems.push(format!("{}: an excerpt of {name} whose lines are not lines of its files, in order", b.at()));
        }
        checked += 1;
    }
    let _ = std::fs::remove_dir_all(&base);
    assert!(problems.is_empty(), "{} blocks checked; problems:\n{}", checked, problems.join("\n"));
}

/// The Helix and VS Code settings of `editors.md` are what they claim to be: TOML and JSON that
/// run `jr2 lsp`. (Neovim's Lua is driven by `tests/lsp/nvim.rs` in its own, older form: the
/// Neovim of CI, Debian's, predates `vim.lsp.config`.)
#[test]
fn the_editor_settings_run_jr2_lsp() {
    let blocks: Vec<Block> = all_blocks().into_iter().filter(|b| b.page == "editors.md").collect();
    let toml_block = blocks.iter().find(|b| b.lang == "toml").expect("a Helix block");
    let helix: toml::Value = toml::from_str(&toml_block.text).expect("languages.toml is TOML");
    assert_eq!(helix["language-server"]["jr2"]["command"].as_str(), Some("jr2"));
    assert_eq!(helix["language-server"]["jr2"]["args"].as_array().map(Vec::len), Some(1));
    assert_eq!(helix["language-server"]["jr2"]["args"][0].as_str(), Some("lsp"));
    let languages: Vec<&str> = helix["language"]
        .as_array()
        .expect("[[language]]")
        .iter()
        .filter(|l| l["language-servers"].as_array().is_some_and(|s| s.iter().any(|s| s.as_str() == Some("jr2"))))
        .filter_map(|l| l["name"].as_str())
        .collect();
    assert_eq!(languages, ["typescript", "json"]);
    let json_block = blocks.iter().find(|b| b.lang == "json").expect("a VS Code block");
    let vscode: Value = serde_json::from_str(&json_block.text).expect("settings.json is JSON");
    assert_eq!(vscode["glspc.serverCommand"], "jr2");
    assert_eq!(vscode["glspc.serverCommandArguments"], serde_json::json!(["lsp"]));
    for lua in blocks.iter().filter(|b| b.lang == "lua") {
        assert!(lua.text.contains(r#"cmd = { "jr2", "lsp" }"#), "{}: runs jr2 lsp", lua.at());
    }
}

/// `.pre-commit-hooks.yaml`'s hooks run a `jr2` command that works: each `entry:` line, run on
/// the bundled example Instance, admits it. And `ci.md`'s workflow runs the two formats it names.
#[test]
fn the_hooks_and_the_workflow_run_commands_that_work() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let hooks = std::fs::read_to_string(root.join(".pre-commit-hooks.yaml")).expect(".pre-commit-hooks.yaml");
    let entries: Vec<&str> = hooks.lines().filter_map(|l| l.trim().strip_prefix("entry:")).map(str::trim).collect();
    let ids: Vec<&str> = hooks.lines().filter_map(|l| l.trim().strip_prefix("- id:")).map(str::trim).collect();
    assert_eq!(ids, ["jr2-check", "jr2-check-system"]);
    assert_eq!(entries.len(), ids.len());
    for entry in entries {
        let mut words = entry.split_whitespace();
        assert_eq!(words.next(), Some("jr2"), "{entry}");
        let args: Vec<&str> = words.collect();
        let out = Command::new(env!("CARGO_BIN_EXE_jr2"))
            .args(&args)
            .current_dir(root.join("examples/instance"))
            .output()
            .expect("jr2 runs");
        assert!(out.status.success(), "`{entry}` in examples/instance: {}", String::from_utf8_lossy(&out.stdout));
    }
    let ci = all_blocks().into_iter().find(|b| b.page == "ci.md" && b.lang == "yaml").expect("a workflow");
    for needed in ["jr2 check --format github", "jr2 check --format sarif", "github/codeql-action/upload-sarif"] {
        assert!(ci.text.contains(needed), "ci.md's workflow runs {needed}");
    }
    for format in ["github", "sarif"] {
        let out = Command::new(env!("CARGO_BIN_EXE_jr2"))
            .args(["check", "--offline", "--format", format])
            .current_dir(root.join("examples/instance"))
            .output()
            .expect("jr2 runs");
        assert!(out.status.success(), "--format {format}");
    }
}

/// Every `(#anchor)` link of a guide page names a heading of that page (GitHub's slugs: lower
/// case, punctuation dropped, spaces as `-`), and every relative link names a file that exists.
#[test]
fn the_guide_links_lead_somewhere() {
    let mut problems = Vec::new();
    for entry in std::fs::read_dir(guide_dir()).expect("docs/guide").flatten() {
        let path = entry.path();
        if path.extension().is_none_or(|e| e != "md") {
            continue;
        }
        let text = std::fs::read_to_string(&path).expect("a page");
        let slugs: Vec<String> = text
            .lines()
            .filter_map(|l| l.strip_prefix('#').map(|h| h.trim_start_matches('#').trim()))
            .map(|h| {
                h.to_lowercase()
                    .chars()
                    .filter(|c| c.is_alphanumeric() || *c == ' ' || *c == '-' || *c == '_')
                    .map(|c| if c == ' ' { '-' } else { c })
                    .collect()
            })
            .collect();
        for (i, _) in text.match_indices("](") {
            let rest = &text[i + 2..];
            let target = &rest[..rest.find(')').unwrap_or(rest.len())];
            if let Some(anchor) = target.strip_prefix('#') {
                if !slugs.iter().any(|s| s == anchor) {
                    problems.push(format!("{}: #{anchor} is no heading", path.display()));
                }
            } else if !target.contains("://") && !path.parent().expect("a folder").join(target).exists() {
                problems.push(format!("{}: {target} does not exist", path.display()));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
