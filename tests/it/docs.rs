//! `docs/rules/` is generated from the rules' doc comments: one page per code and an index.
//!
//! This test fails when a page differs from `Rule::markdown()` or when a page names no known
//! code. `JR2_BLESS=1 cargo test --test it docs` rewrites the pages and removes stale ones.

use check::rules::{self, Rule};
use std::collections::BTreeMap;
use std::path::PathBuf;

fn rules_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("docs").join("rules")
}

/// The index page: one row per rule.
fn index(all: &[&'static Rule]) -> String {
    let mut out = String::from(
        "# Diagnostic codes\n\n\
         Generated from the rules' doc comments by `tests/it/docs.rs` \
         (`JR2_BLESS=1 cargo test --test it docs`); `jr2 explain CODE` prints the same pages.\n\n\
         | code | rule | severity | summary |\n| --- | --- | --- | --- |\n",
    );
    for r in all {
        let rule = r.rule.map_or_else(|| "-".to_string(), |n| n.to_string());
        let summary = r.summary.trim().replace('|', "\\|");
        out.push_str(&format!("| [`{0}`]({0}.md) | {rule} | {1} | {summary} |\n", r.code, r.severity.as_str()));
    }
    out
}

/// Every file `docs/rules/` should hold, by name.
fn expected() -> BTreeMap<String, String> {
    let all = rules::all();
    let mut files: BTreeMap<String, String> = all.iter().map(|r| (format!("{}.md", r.code), r.markdown())).collect();
    files.insert("README.md".to_string(), index(&all));
    files
}

#[test]
fn rule_docs_are_generated_from_the_rules() {
    let dir = rules_dir();
    let bless = std::env::var_os("JR2_BLESS").is_some_and(|v| v == "1");
    let expected = expected();
    let present: Vec<String> = match std::fs::read_dir(&dir) {
        Ok(entries) => entries
            .filter_map(|e| e.ok())
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".md"))
            .collect(),
        Err(_) => Vec::new(),
    };
    let mut problems = Vec::new();
    if bless {
        std::fs::create_dir_all(&dir).expect("create docs/rules");
    }
    for name in &present {
        if !expected.contains_key(name) {
            if bless {
                std::fs::remove_file(dir.join(name)).expect("remove a stale page");
            } else {
                problems.push(format!("docs/rules/{name} names no known code (stale)"));
            }
        }
    }
    for (name, text) in &expected {
        let path = dir.join(name);
        let current = std::fs::read_to_string(&path).ok();
        if current.as_deref() == Some(text.as_str()) {
            continue;
        }
        if bless {
            std::fs::write(&path, text).expect("write a page");
        } else if current.is_none() {
            problems.push(format!("docs/rules/{name} is missing"));
        } else {
            problems.push(format!("docs/rules/{name} differs from the rule's doc comment"));
        }
    }
    assert!(
        problems.is_empty(),
        "{}\nrun `JR2_BLESS=1 cargo test --test it docs` to regenerate docs/rules/",
        problems.join("\n")
    );
}

/// A rule's summary is its doc's first line, the index's and `jr2 rules`' text: a whole sentence,
/// never a line cut off mid-sentence (issue 17).
#[test]
fn every_summary_is_a_whole_sentence() {
    let cut: Vec<String> = rules::all()
        .iter()
        .filter(|r| !r.summary.trim().ends_with(['.', '?', '!', ')', '`']))
        .map(|r| format!("{}: {}", r.code, r.summary.trim()))
        .collect();
    assert!(cut.is_empty(), "summaries cut mid-sentence:\n{}", cut.join("\n"));
}

#[test]
fn every_code_is_kebab_case_and_unique() {
    let all = rules::all();
    let mut codes: Vec<&str> = all.iter().map(|r| r.code).collect();
    for code in &codes {
        assert!(
            !code.is_empty()
                && code
                    .split('-')
                    .all(|w| !w.is_empty() && w.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit())),
            "{code} is not kebab-case"
        );
    }
    let n = codes.len();
    codes.sort_unstable();
    codes.dedup();
    assert_eq!(codes.len(), n, "duplicate codes");
}

/// `docs/benchmarks.md` keeps each benchmark's current figures with the command that made them,
/// one section each, and leaves the history of past changes to the commit messages (issue 40,
/// item 6): every script `bench/*.sh` is the command of exactly one section, every section has a
/// command (an indented line that runs `bench/...` or `cargo ...`), and no section keeps more
/// than one dated run.
#[test]
fn benchmarks_are_one_section_each_with_its_command() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(root.join("docs/benchmarks.md")).expect("docs/benchmarks.md");
    // The sections: each `## ` heading with the lines under it, up to the next one.
    let mut sections: Vec<(&str, Vec<&str>)> = Vec::new();
    for line in text.lines() {
        if let Some(title) = line.strip_prefix("## ") {
            sections.push((title, Vec::new()));
        } else if let Some((_, lines)) = sections.last_mut() {
            lines.push(line);
        }
    }
    assert!(!sections.is_empty(), "no section in docs/benchmarks.md");
    let is_command = |l: &&str| {
        let l = l.trim_start();
        l.starts_with("bench/") || l.starts_with("cargo ")
    };
    let mut problems = Vec::new();
    for (title, lines) in &sections {
        if !lines.iter().any(|l| l.starts_with("    ") && is_command(l)) {
            problems.push(format!("\"{title}\" names no command (an indented `bench/...` or `cargo ...` line)"));
        }
        let dated = lines.iter().filter(|l| l.starts_with("### ") && l[4..].starts_with("20")).count();
        if dated > 1 {
            problems.push(format!("\"{title}\" keeps {dated} dated runs: keep the latest"));
        }
    }
    let mut scripts: Vec<String> = std::fs::read_dir(root.join("bench"))
        .expect("bench/")
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".sh"))
        .collect();
    scripts.sort();
    assert!(!scripts.is_empty(), "no script in bench/");
    for script in &scripts {
        let command = format!("bench/{script}");
        let with: Vec<&str> = sections
            .iter()
            .filter(|(_, lines)| lines.iter().any(|l| l.starts_with("    ") && l.trim_start().starts_with(&command)))
            .map(|(title, _)| *title)
            .collect();
        if with.len() != 1 {
            problems.push(format!("{command} is the command of {} sections ({with:?}), not one", with.len()));
        }
    }
    assert!(problems.is_empty(), "docs/benchmarks.md:\n{}", problems.join("\n"));
}
