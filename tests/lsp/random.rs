//! Thousands of random edits (insertions, deletions, pastes, whole-text replacements) over three
//! open documents of the fixture Instance: the server never stops answering, and after the last
//! edit what it published equals a cold `jr2 check` of the final texts.

use super::client::{cli_check, copy_fixture, uri, Client};
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Duration;

/// xorshift64*: deterministic, seeded.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// The LSP position (UTF-16) of a byte offset on a char boundary.
fn position(text: &str, offset: usize) -> Value {
    let before = &text[..offset];
    let line = before.matches('\n').count();
    let start = before.rfind('\n').map_or(0, |i| i + 1);
    let character: usize = text[start..offset].chars().map(char::len_utf16).sum();
    json!({ "line": line, "character": character })
}

fn boundary(text: &str, mut at: usize) -> usize {
    at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

const SNIPPETS: &[&str] = &[
    "x",
    "\"",
    "{",
    "}",
    ",",
    ":",
    "\n",
    " ",
    "é",
    "😀",
    "[",
    "]",
    "(",
    ")",
    "states",
    "\"on\": {}",
    "//",
    "`",
    "$",
    "'",
    ": 1",
    "undefined",
    "\"type\": \"final\"",
    "src: \"fail\"",
];

#[test]
fn random_edits_end_where_a_cold_check_does() {
    let edits: usize = if std::env::var("JR2_SLOW").is_ok() { 4000 } else { 1500 };
    let seed: u64 = std::env::var("JR2_LSP_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or(0x5eed_1234_abcd);
    let root = copy_fixture("random");
    let names = ["workflows/triage.ts", "workflows/notes.ts", "workflows/notes/post.json"];
    let paths: Vec<PathBuf> = names.iter().map(|n| root.join(n)).collect();
    let originals: Vec<String> = paths.iter().map(|p| std::fs::read_to_string(p).expect("fixture")).collect();
    let mut texts = originals.clone();
    let mut versions = vec![0i64; paths.len()];
    let mut rng = Rng(seed);
    let mut c = Client::start();
    c.initialize(&root);
    for (p, t) in paths.iter().zip(&texts) {
        c.open(p, t);
    }
    for step in 0..edits {
        let i = rng.below(paths.len());
        let text = &texts[i];
        let (start, end, insert) = match rng.below(10) {
            // Insert a snippet.
            0..=3 => {
                let at = boundary(text, rng.below(text.len() + 1));
                (at, at, SNIPPETS[rng.below(SNIPPETS.len())].to_string())
            }
            // Delete up to 20 bytes.
            4..=6 => {
                let a = boundary(text, rng.below(text.len() + 1));
                let b = boundary(text, a + rng.below(21));
                (a, b.max(a), String::new())
            }
            // Paste a piece of another document's original text.
            7..=8 => {
                let from = &originals[rng.below(originals.len())];
                let a = boundary(from, rng.below(from.len()));
                let b = boundary(from, a + rng.below(200));
                let at = boundary(text, rng.below(text.len() + 1));
                (at, at, from[a..b.max(a)].to_string())
            }
            // Back to the original (whole-text change): the file parses again.
            _ => (0, text.len(), originals[i].clone()),
        };
        let range = json!({ "start": position(text, start), "end": position(text, end) });
        let mut next = text.clone();
        next.replace_range(start..end, &insert);
        texts[i] = next;
        versions[i] += 1;
        c.notify(
            "textDocument/didChange",
            json!({
                "textDocument": { "uri": uri(&paths[i]), "version": versions[i] },
                "contentChanges": [{ "range": range, "text": insert }],
            }),
        );
        // Now and then a request: the server still answers.
        if step % 250 == 0 {
            let pos = position(&texts[i], boundary(&texts[i], texts[i].len() / 2));
            let answer =
                c.request("textDocument/hover", json!({ "textDocument": { "uri": uri(&paths[i]) }, "position": pos }));
            assert!(answer.get("error").is_none(), "step {step}: {answer}");
        }
    }
    // Every edit applied and published: a last request, then quiet.
    let answer = c.request(
        "textDocument/hover",
        json!({ "textDocument": { "uri": uri(&paths[0]) }, "position": { "line": 0, "character": 0 } }),
    );
    assert!(answer.get("error").is_none(), "{answer}");
    c.drain(Duration::from_millis(1500));
    let published: BTreeMap<String, Value> = c.last_publications();
    assert!(c.stop().success());

    // The final texts, on disk, checked cold.
    for (p, t) in paths.iter().zip(&texts) {
        std::fs::write(p, t).expect("write the final text");
    }
    let cold = cli_check(&root);
    // What the server published for the three documents (its own diagnostics, not the editor's
    // extras: the recovered tree of a half-typed Chart, a Workflow's last good text's).
    let mut seen = Vec::new();
    for (p, name) in paths.iter().zip(names) {
        let last = published.get(&uri(p)).unwrap_or_else(|| panic!("no publication for {name}"));
        for d in last["diagnostics"].as_array().expect("list") {
            if d.get("data").is_some_and(|x| !x.is_null()) {
                continue;
            }
            let line = d["range"]["start"]["line"].as_u64().expect("line");
            let character = d["range"]["start"]["character"].as_u64().expect("character");
            // The CLI counts columns in characters, LSP in UTF-16 units: convert.
            let text_line = texts[paths.iter().position(|x| x == p).expect("doc")].split('\n').nth(line as usize);
            let col = text_line.map_or(character, |l| {
                let mut units = 0u64;
                let mut chars = 0u64;
                for ch in l.chars() {
                    if units >= character {
                        break;
                    }
                    units += ch.len_utf16() as u64;
                    chars += 1;
                }
                chars
            });
            seen.push((name.to_string(), d["code"].as_str().unwrap_or_default().to_string(), line, col));
        }
    }
    seen.sort();
    let cold: Vec<_> = cold.into_iter().filter(|d| names.contains(&d.0.as_str())).collect();
    assert_eq!(seen, cold, "seed {seed}");
    let _ = std::fs::remove_dir_all(&root);
}
