//! The fuzz targets' inputs: the fuzzer's bytes, read either as a text as it is (the seed
//! corpora are the fixtures' texts) or as the choices of a structure-aware generator, which
//! writes the texts byte flips never reach: nesting thousands of levels deep (arrays, objects,
//! a Chart's states, ternaries, arrows, generics, `!`), keys given twice, lists of thousands of
//! names, long lines of findings, framing headers that lie.
//!
//! The first byte chooses: `0` (what every seed file starts with) is the text mode, the rest of
//! the bytes the text; anything else is the generator mode, the rest of the bytes its choices.

use arbitrary::{Result, Unstructured};

/// The most a generator writes, in bytes: big enough for every class of issue 16 (nesting tens
/// of thousands deep, thousands of findings on one line), small enough that one input stays in
/// the fuzzer's 10 s wall-clock budget in the instrumented build, niced, on a machine whose load
/// is 10 to 14 on 2 cores. A Chart of 517 KB with 28 000 findings on one line took 7 s there
/// (13 s beside another fuzzer; linear: 10 000, 20 000 and 40 000 findings took 4, 7.5 and 19 s)
/// against 1.1 s in the release `jr2 check`; one of 246 KB with 9 500 findings took 2 s of CPU
/// and 6 s of wall clock. The sizes past this are the tests' (`tests/it/hostile.rs`).
pub(crate) const MAX_TEXT: usize = 64 << 10;

/// What a target reads: a text, from the seed (mode 0) or from a generator.
pub fn text_or(data: &[u8], generate: impl FnOnce(&mut Unstructured<'_>, &mut String) -> Result<()>) -> Option<String> {
    let (&mode, rest) = data.split_first()?;
    if mode == 0 {
        return Some(String::from_utf8_lossy(rest).into_owned());
    }
    let mut u = Unstructured::new(rest);
    let mut out = String::new();
    // Running out of choices ends the text where it is: a cut text is a fine input too.
    let _ = generate(&mut u, &mut out);
    out.truncate(floor(&out, MAX_TEXT));
    show(out.as_bytes());
    Some(out)
}

/// With `JR2_FUZZ_SHOW=PATH`, what a generator wrote is written to `PATH` too: how a crash's
/// input, which is the generator's choices, is read as the text it stands for (docs/fuzzing.md).
pub fn show(text: &[u8]) {
    if let Some(path) = std::env::var_os("JR2_FUZZ_SHOW") {
        let _ = std::fs::write(path, text);
    }
}

fn floor(s: &str, mut at: usize) -> usize {
    at = at.min(s.len());
    while !s.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// The words a Chart, a manifest, a schema and a Machine are made of.
pub(crate) const WORDS: &[&str] = &[
    "id",
    "initial",
    "states",
    "on",
    "after",
    "always",
    "invoke",
    "src",
    "input",
    "type",
    "final",
    "parallel",
    "history",
    "target",
    "guard",
    "actions",
    "entry",
    "exit",
    "onDone",
    "onError",
    "context",
    "events",
    "agents",
    "model",
    "instructions",
    "workspace",
    "none",
    "read",
    "write",
    "gate",
    "fail",
    "writer",
    "$ref",
    "jr2.sentBy",
    "audience",
    "agent",
    "properties",
    "required",
    "items",
    "enum",
    "const",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "minLength",
    "pattern",
    "additionalProperties",
    "declaration",
    "lends",
    "allows",
    "ceilings",
    "wallClock",
    "turns",
    "transitions",
    "fanOut",
    "size",
    "models",
    "effects",
    "machines",
    "guards",
    "delays",
    "lent",
    "inputKeys",
    "repoSlots",
    "a",
    "b",
    "c",
    "s0",
    "10m",
    "500ms",
    "30 parsecs",
    "{{context.a}}",
    "{{input.x}}",
    "input.topic",
    "context.a",
    "event.b",
    "\u{feff}",
    "\\u0000",
    "\\u001b[2J",
    "é",
    "😀",
    "",
    " ",
];

fn word<'a>(u: &mut Unstructured<'a>) -> Result<&'static str> {
    u.choose(WORDS).copied()
}

/// A JSON string of a word, or of a run of a word (a long line's worth).
fn json_string(u: &mut Unstructured<'_>, out: &mut String) -> Result<()> {
    out.push('"');
    let w = word(u)?;
    let times = if u.ratio(1, 16)? { u.int_in_range(1..=5_000)? } else { 1 };
    for _ in 0..times {
        out.push_str(w);
    }
    out.push('"');
    Ok(())
}

/// A JSON text shaped as a Chart, a schema or a manifest is (the keys are [`WORDS`]), nested up
/// to `depth` by recursion and, past that, by runs thousands of levels deep written in a loop.
pub fn json(u: &mut Unstructured<'_>, out: &mut String, depth: u32) -> Result<()> {
    if out.len() > MAX_TEXT {
        return Ok(());
    }
    let choice = if depth >= 24 { u.int_in_range(0..=4)? } else { u.int_in_range(0..=11)? };
    match choice {
        0 => out.push_str(u.choose(&["null", "true", "false", "0", "-1", "1e999", "12.5", "18446744073709551616"])?),
        1..=3 => json_string(u, out)?,
        4 => out.push_str(&u.int_in_range(0..=100_000u32)?.to_string()),
        5 | 6 => {
            // An object: keys from the words, some given twice.
            out.push('{');
            let n = u.int_in_range(0..=6)?;
            for i in 0..n {
                if i > 0 {
                    out.push(',');
                }
                json_string(u, out)?;
                out.push(':');
                json(u, out, depth + 1)?;
            }
            out.push('}');
        }
        7 => {
            out.push('[');
            let n = u.int_in_range(0..=6)?;
            for i in 0..n {
                if i > 0 {
                    out.push(',');
                }
                json(u, out, depth + 1)?;
            }
            out.push(']');
        }
        8 => {
            // Deep: `[[[[...]]]]` or `{"a":{"a":...}}`, past the parser's budget (1 024).
            let n = u.int_in_range(1..=20_000usize)?;
            let key = word(u)?;
            let object = u.arbitrary::<bool>()?;
            for _ in 0..n {
                if object {
                    out.push_str(&format!("{{\"{key}\":"));
                } else {
                    out.push('[');
                }
            }
            json(u, out, depth + 1)?;
            for _ in 0..n {
                out.push(if object { '}' } else { ']' });
            }
        }
        9 => {
            // A Chart's states nested `n` deep, each with a transition up to the first.
            let n = u.int_in_range(1..=3_000usize)?;
            for i in 0..n {
                out.push_str(&format!("{{\"initial\":\"s{i}\",\"on\":{{\"UP\":\"#c\"}},\"states\":{{\"s{i}\":"));
            }
            out.push_str("{\"type\":\"final\"}");
            for _ in 0..n {
                out.push_str("}}");
            }
        }
        10 => {
            // Many members in one object, on one line: many findings on one long line.
            let n = u.int_in_range(1..=2_000usize)?;
            let (k, v) = (word(u)?, word(u)?);
            out.push('{');
            for i in 0..n {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(&format!("\"{k}{i}\":\"{v}{i}\""));
            }
            out.push('}');
        }
        _ => {
            // A byte the grammar does not expect, where a value goes.
            out.push_str(u.choose(&[
                "", ",", "}", "]", ":", "\"", "\\", "/*", "\u{0}", "\u{7f}", "\u{feff}", "01", "-", "NaN",
            ])?);
        }
    }
    Ok(())
}

/// A Chart: an object with `id`, `initial` and `states`, its states generated.
pub fn chart(u: &mut Unstructured<'_>, out: &mut String) -> Result<()> {
    out.push_str("{\"id\":\"c\",\"initial\":\"a\",\"states\":{\"a\":");
    json(u, out, 1)?;
    let n = u.int_in_range(0..=4)?;
    for i in 0..n {
        out.push_str(&format!(",\"s{i}\":"));
        json(u, out, 1)?;
    }
    out.push_str("}");
    if u.arbitrary()? {
        out.push_str(",\"events\":");
        json(u, out, 1)?;
    }
    if u.arbitrary()? {
        out.push_str(",\"agents\":");
        json(u, out, 1)?;
    }
    out.push('}');
    Ok(())
}

/// A TypeScript expression nested as oxc's parser and the evaluator recurse.
fn ts_expr(u: &mut Unstructured<'_>, out: &mut String, depth: u32) -> Result<()> {
    if out.len() > MAX_TEXT {
        return Ok(());
    }
    let choice = if depth >= 16 { u.int_in_range(0..=2)? } else { u.int_in_range(0..=12)? };
    match choice {
        0 => out.push_str(u.choose(&["1", "a", "\"s\"", "`t${a}`", "undefined", "null", "true", "[]", "{}"])?),
        1 => {
            out.push('"');
            out.push_str(word(u)?);
            out.push('"');
        }
        2 => out.push_str(u.choose(&["x => x", "() => ({})", "z.string()", "z.object({ a: z.number() })"])?),
        3 => {
            // A run of one construct `n` deep: what overflowed the stack before the budget.
            let n = u.int_in_range(1..=100_000usize)?;
            let (open, close) = *u.choose(&[
                ("a ? ", " : a"),
                ("a => ", ""),
                ("a = ", ""),
                ("!", ""),
                ("-", ""),
                ("(", ")"),
                ("[", "]"),
                ("{ k: ", " }"),
                ("f(", ")"),
                ("a + (", ")"),
                ("`${", "}`"),
                ("{ ...", " }"),
                ("new A(", ")"),
                ("(<T>", ")"),
                ("a as Array<", ">"),
            ])?;
            for _ in 0..n {
                out.push_str(open);
            }
            ts_expr(u, out, depth + 1)?;
            for _ in 0..n {
                out.push_str(close);
            }
        }
        4 => {
            out.push_str("{ ");
            let n = u.int_in_range(0..=5)?;
            for _ in 0..n {
                out.push_str(&format!("\"{}\": ", word(u)?));
                ts_expr(u, out, depth + 1)?;
                out.push_str(", ");
            }
            out.push('}');
        }
        5 => {
            out.push('[');
            let n = u.int_in_range(0..=5)?;
            for _ in 0..n {
                ts_expr(u, out, depth + 1)?;
                out.push_str(", ");
            }
            out.push(']');
        }
        6 => {
            out.push_str(u.choose(&[
                "agent(",
                "open(",
                "dispatch(",
                "command(",
                "http(",
                "secret(",
                "workspace(",
                "fromPick(",
            ])?);
            ts_expr(u, out, depth + 1)?;
            out.push(')');
        }
        7 => {
            // States nested `n` deep, each a compound state: the Machine the evaluator's 200
            // levels stop.
            let n = u.int_in_range(1..=1_000usize)?;
            for i in 0..n {
                out.push_str(&format!("{{ initial: \"s{i}\", states: {{ s{i}: "));
            }
            out.push_str("{ type: \"final\" }");
            for _ in 0..n {
                out.push_str(" } }");
            }
        }
        8 => {
            ts_expr(u, out, depth + 1)?;
            out.push_str(u.choose(&[" ? ", " && ", " || ", " ?? ", " + ", " === ", ".", "?.", "["])?);
            ts_expr(u, out, depth + 1)?;
        }
        9 => {
            out.push_str("(function* () { ");
            let n = u.int_in_range(1..=10_000usize)?;
            for _ in 0..n {
                out.push_str("yield ");
            }
            out.push_str("1 })");
        }
        10 => out.push_str(u.choose(&["a.b.c", "paramsOf(x)", "context.a", "x.y?.z", "...a", "typeof a"])?),
        11 => {
            out.push_str("((");
            ts_expr(u, out, depth + 1)?;
            out.push_str("))");
        }
        _ => out.push_str(u.choose(&["", ";", "}", ")", "/*", "`", "'", "\\", "\u{0}", "<", ">>>"])?),
    }
    Ok(())
}

/// A Workflow: the kit's imports, a few bindings, and `machine` built from them; or a type with
/// generics nested deep.
pub fn workflow(u: &mut Unstructured<'_>, out: &mut String) -> Result<()> {
    out.push_str(
        "import { jr2Setup, agent, open, dispatch, command, secret, workspace } from \"@jr2/orchestrator\";\n",
    );
    out.push_str("import { z } from \"zod\";\n");
    if u.ratio(1, 8)? {
        let n = u.int_in_range(1..=50_000usize)?;
        out.push_str(&format!("type T = {}number{};\n", "Array<".repeat(n), ">".repeat(n)));
    }
    let n = u.int_in_range(0..=4)?;
    for i in 0..n {
        out.push_str(&format!("const v{i} = "));
        ts_expr(u, out, 0)?;
        out.push_str(";\n");
    }
    out.push_str("export const machine = jr2Setup({ actors: ");
    ts_expr(u, out, 0)?;
    out.push_str(" }).createMachine(");
    ts_expr(u, out, 0)?;
    out.push_str(");\n");
    Ok(())
}

/// A lend manifest: a declaration (lends, allows, ceilings) with lists up to thousands of names
/// long, and the lent parts.
pub fn manifest(u: &mut Unstructured<'_>, out: &mut String) -> Result<()> {
    let names = |u: &mut Unstructured<'_>, out: &mut String| -> Result<()> {
        let n = if u.ratio(1, 8)? { u.int_in_range(0..=50_000usize)? } else { u.int_in_range(0..=4)? };
        let w = word(u)?;
        out.push('[');
        for i in 0..n {
            if i > 0 {
                out.push(',');
            }
            // Repeats too: the same name twice.
            out.push_str(&format!("\"{w}{}\"", i % (n / 2 + 1)));
        }
        out.push(']');
        Ok(())
    };
    if u.ratio(1, 16)? {
        out.push('\u{feff}');
    }
    out.push_str("{\"declaration\":{\"lends\":{");
    for (i, k) in ["agents", "effects", "machines", "guards", "actions", "delays"].iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str(&format!("\"{k}\":"));
        names(u, out)?;
    }
    out.push_str(&format!(",\"gate\":{},\"fail\":{}}}", u.arbitrary::<bool>()?, u.arbitrary::<bool>()?));
    out.push_str(",\"allows\":{\"models\":");
    names(u, out)?;
    out.push_str(",\"workspace\":[\"none\",\"read\"]},\"ceilings\":{\"wallClock\":");
    json_string(u, out)?;
    out.push_str(&format!(",\"size\":{}}}}}", u.int_in_range(0..=1_000_000u32)?));
    if u.arbitrary()? {
        out.push_str(",\"lent\":");
        json(u, out, 1)?;
    }
    out.push('}');
    Ok(())
}

/// A JSON Schema: types, properties (thousands of them), `required`, enums, bounds, booleans,
/// `items` nested deep.
pub fn schema(u: &mut Unstructured<'_>, out: &mut String, depth: u32) -> Result<()> {
    if out.len() > MAX_TEXT {
        return Ok(());
    }
    let choice = if depth >= 12 { u.int_in_range(0..=2)? } else { u.int_in_range(0..=8)? };
    match choice {
        0 => out.push_str(u.choose(&["true", "false", "{}"])?),
        1 => out.push_str(&format!(
            "{{\"type\":\"{}\"}}",
            u.choose(&["string", "number", "integer", "boolean", "null", "object", "array", "nope"])?
        )),
        2 => json(u, out, depth + 20)?,
        3 | 4 => {
            let n = if u.ratio(1, 8)? { u.int_in_range(0..=20_000usize)? } else { u.int_in_range(0..=5)? };
            out.push_str("{\"type\":\"object\",\"properties\":{");
            for i in 0..n {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(&format!("\"p{i}\":"));
                schema(u, out, depth + 1)?;
            }
            out.push_str("},\"required\":[");
            for i in 0..n {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(&format!("\"p{}\"", if u.ratio(1, 4)? { i + 1 } else { i }));
            }
            out.push_str(&format!("],\"additionalProperties\":{}}}", u.arbitrary::<bool>()?));
        }
        5 => {
            let n = if u.ratio(1, 8)? { u.int_in_range(0..=20_000usize)? } else { u.int_in_range(0..=5)? };
            out.push_str("{\"enum\":[");
            for i in 0..n {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(&format!("\"v{}\"", i % 7));
            }
            out.push_str("]}");
        }
        6 => {
            let n = u.int_in_range(1..=3_000usize)?;
            for _ in 0..n {
                out.push_str("{\"type\":\"array\",\"items\":");
            }
            schema(u, out, depth + 1)?;
            for _ in 0..n {
                out.push('}');
            }
        }
        7 => out.push_str(&format!(
            "{{\"type\":\"number\",\"{}\":{}}}",
            u.choose(&[
                "minimum",
                "maximum",
                "exclusiveMinimum",
                "exclusiveMaximum",
                "multipleOf",
                "minLength",
                "const"
            ])?,
            u.choose(&["0", "-1", "1e308", "0.5", "true", "\"x\"", "null"])?
        )),
        _ => out.push_str(&format!("{{\"const\":\"{}\"}}", word(u)?)),
    }
    Ok(())
}

/// What the LSP's client sends: header blocks that lie (a missing, negative, huge or wrong
/// `Content-Length`, LF-only lines, junk lines) around bodies that are JSON-RPC, JSON that is
/// none (`[]`, `null`, a batch, a bad `jsonrpc`) or no JSON.
pub fn lsp_stream(u: &mut Unstructured<'_>, out: &mut Vec<u8>) -> Result<()> {
    let n = u.int_in_range(1..=12)?;
    for i in 0..n {
        let mut body = String::new();
        match u.int_in_range(0..=9)? {
            0 => body.push_str(&format!("{{\"jsonrpc\":\"2.0\",\"id\":{i},\"method\":\"shutdown\"}}")),
            1 => body.push_str("{\"jsonrpc\":\"2.0\",\"method\":\"initialized\",\"params\":{}}"),
            2 => body.push_str(u.choose(&[
                "[]",
                "null",
                "1",
                "\"s\"",
                "{}",
                "[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"x\"}]",
            ])?),
            3 => body.push_str("{\"jsonrpc\":\"1.0\",\"id\":1,\"method\":\"x\"}"),
            4 => body.push_str(u.choose(&[
                "{",
                "\u{feff}{}",
                "{\"jsonrpc\":\"2.0\",\"id\":[],\"method\":1}",
                "\u{0}",
            ])?),
            5 => {
                let deep = u.int_in_range(1..=20_000usize)?;
                body.push_str(&format!(
                    "{{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"x\",\"params\":{}1{}}}",
                    "[".repeat(deep),
                    "]".repeat(deep)
                ));
            }
            6 => {
                body.push_str("{\"jsonrpc\":\"2.0\",\"method\":\"textDocument/didOpen\",\"params\":{\"textDocument\":{\"uri\":\"file:///w/x.json\",\"languageId\":\"json\",\"version\":1,\"text\":");
                let mut text = String::new();
                json(u, &mut text, 4)?;
                body.push_str(&serde_json::Value::String(text).to_string());
                body.push_str("}}}");
            }
            _ => {
                let mut j = String::new();
                json(u, &mut j, 8)?;
                body.push_str(&j);
            }
        }
        let eol = if u.ratio(1, 4)? { "\n" } else { "\r\n" };
        let length = match u.int_in_range(0..=7)? {
            0 => None,
            1 => Some("-1".to_string()),
            2 => Some("99999999999999999999".to_string()),
            3 => Some((body.len() + u.int_in_range(1..=64usize)?).to_string()),
            4 => Some(body.len().saturating_sub(u.int_in_range(1..=8usize)?).to_string()),
            5 => Some(format!(" {} ", body.len())),
            _ => Some(body.len().to_string()),
        };
        if u.ratio(1, 6)? {
            out.extend_from_slice(format!("X-Junk: {}{eol}", word(u)?).as_bytes());
        }
        if let Some(len) = length {
            let name = *u.choose(&["Content-Length", "content-length", "CONTENT-LENGTH", "Content-Length "])?;
            out.extend_from_slice(format!("{name}: {len}{eol}").as_bytes());
        }
        if u.ratio(1, 4)? {
            out.extend_from_slice(format!("Content-Type: application/vscode-jsonrpc; charset=utf-8{eol}").as_bytes());
        }
        out.extend_from_slice(eol.as_bytes());
        out.extend_from_slice(body.as_bytes());
    }
    Ok(())
}
