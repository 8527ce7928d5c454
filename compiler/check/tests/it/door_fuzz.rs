//! The door under mutation: for Charts made from the fixtures by deleting, duplicating and
//! replacing bytes and JSON values, the door never panics and answers in bounded time. More cases
//! run when `JR2_SLOW` is set, as CI does.

use check::door::{admit, check};
use kit::LendManifest;
use proptest::prelude::*;
use std::path::Path;
use std::time::{Duration, Instant};

fn seeds() -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/door");
    let mut out = Vec::new();
    let mut dirs = vec![root];
    while let Some(d) = dirs.pop() {
        for e in std::fs::read_dir(d).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                dirs.push(p);
            } else if p.extension().is_some_and(|x| x == "json") {
                let text = std::fs::read_to_string(&p).unwrap();
                // Drop the expectation comments: the fuzzer wants plain JSON to start from.
                out.push(text.lines().filter(|l| !l.trim_start().starts_with("//")).collect::<Vec<_>>().join("\n"));
            }
        }
    }
    out.sort();
    out
}

fn manifest() -> LendManifest {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/door/lends.json");
    serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap()
}

/// Pieces that make structurally interesting mutations.
const PIECES: &[&str] = &[
    "{",
    "}",
    "[",
    "]",
    ",",
    ":",
    "\"",
    "\"states\"",
    "\"initial\"",
    "\"type\": \"parallel\"",
    "\"type\": \"final\"",
    "\"src\": \"writer\"",
    "\"src\": \"gate\"",
    "{{context.",
    "{ \"$ref\": \"input.topic\" }",
    "\"#",
    "null",
    "1e999",
    "\\u",
    "\u{1F600}",
    "\"jr2.sentBy\"",
    "\"onDone\": \"a\"",
    "\"invoke\": [",
    "\"agents\": {",
];

#[derive(Debug, Clone)]
enum Mutation {
    Delete(usize, usize),
    Insert(usize, usize),
    Duplicate(usize, usize),
}

fn mutate(text: &str, muts: &[Mutation]) -> String {
    let mut s = text.to_string();
    for m in muts {
        let at = |i: usize, s: &str| {
            let mut i = i % (s.len() + 1);
            while !s.is_char_boundary(i) {
                i -= 1;
            }
            i
        };
        match *m {
            Mutation::Delete(i, n) => {
                let a = at(i, &s);
                let b = at(a + n % 16, &s).max(a);
                s.replace_range(a..b, "");
            }
            Mutation::Insert(i, p) => {
                let a = at(i, &s);
                s.insert_str(a, PIECES[p % PIECES.len()]);
            }
            Mutation::Duplicate(i, n) => {
                let a = at(i, &s);
                let b = at(a + n % 64, &s).max(a);
                let piece = s[a..b].to_string();
                s.insert_str(b, &piece);
            }
        }
    }
    s
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        (any::<usize>(), any::<usize>()).prop_map(|(i, n)| Mutation::Delete(i, n)),
        (any::<usize>(), any::<usize>()).prop_map(|(i, p)| Mutation::Insert(i, p)),
        (any::<usize>(), any::<usize>()).prop_map(|(i, n)| Mutation::Duplicate(i, n)),
    ]
}

fn cases() -> u32 {
    if std::env::var_os("JR2_SLOW").is_some() {
        4096
    } else {
        256
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(), ..ProptestConfig::default() })]

    #[test]
    fn door_never_panics_on_mutated_charts(seed in any::<usize>(), muts in proptest::collection::vec(mutation(), 1..6)) {
        let seeds = seeds();
        let text = mutate(&seeds[seed % seeds.len()], &muts);
        let m = manifest();
        let t = Instant::now();
        let admission = admit(&text, Some(&m));
        prop_assert!(t.elapsed() < Duration::from_secs(2), "the door took {:?}", t.elapsed());
        for d in &admission.diagnostics {
            prop_assert!(d.span.end as usize <= text.len() && d.span.start <= d.span.end, "{d:?} out of the text");
            prop_assert!(text.is_char_boundary(d.span.start as usize) && text.is_char_boundary(d.span.end as usize));
        }
        // The check's door (its IR lowered for the rules only) says what the executable IR's does.
        prop_assert_eq!(&check(&text, Some(&m)).diagnostics, &admission.diagnostics);
        // No manifest: the lend-free checks alone must hold up too.
        prop_assert_eq!(check(&text, None).diagnostics, admit(&text, None).diagnostics);
    }
}
