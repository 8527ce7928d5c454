//! `jr2 lsp` driven over stdio: by a test client (the protocol's lifecycle, hover, code actions),
//! by Neovim headless (a real editor's client), and by thousands of random edits.

mod client;
mod hostile;
mod nvim;
mod random;
mod same;

use client::{copy_fixture, uri, Client};
use serde_json::{json, Value};

fn codes(published: &Value) -> Vec<String> {
    published["diagnostics"]
        .as_array()
        .expect("diagnostics")
        .iter()
        .map(|d| d["code"].as_str().unwrap_or_default().to_string())
        .collect()
}

fn at(line: u64, character: u64) -> Value {
    json!({ "line": line, "character": character })
}

/// initialize, open, edit, hover, code action, close, shutdown, exit.
#[test]
fn the_server_lives_through_an_editing_session() {
    let root = copy_fixture("session");
    let mut c = Client::start();
    c.initialize(&root);

    // Open the caller: its dispatch names a Workflow the Instance lacks.
    let triage = root.join("workflows/triage.ts");
    let text = std::fs::read_to_string(&triage).expect("fixture");
    let u = uri(&triage);
    c.open(&triage, &text);
    let first = c.diagnostics_of(&u);
    assert_eq!(codes(&first), ["unknown-callee"], "{first}");
    assert_eq!(first["version"], 0);
    let d = &first["diagnostics"][0];
    let line = d["range"]["start"]["line"].as_u64().expect("line");
    let col = d["range"]["start"]["character"].as_u64().expect("character");
    let at_text = text.lines().nth(line as usize).expect("the line");
    assert_eq!(&at_text[col as usize..col as usize + 11], "\"fix-test\",");

    // Hover on the diagnostic: the rule's doc.
    let hover = c.request("textDocument/hover", json!({ "textDocument": { "uri": u }, "position": at(line, col + 2) }));
    let doc = hover["result"]["contents"]["value"].as_str().unwrap_or_default();
    assert!(doc.contains("unknown-callee"), "{hover}");

    // Hover on an invoke's src: the slot's kind and definition.
    let (src_line, src_col) = text
        .lines()
        .enumerate()
        .find_map(|(i, l)| l.find("src: \"triager\"").map(|c| (i as u64, c as u64 + 6)))
        .expect("an invoke of `triager`");
    let hover =
        c.request("textDocument/hover", json!({ "textDocument": { "uri": u }, "position": at(src_line, src_col) }));
    let doc = hover["result"]["contents"]["value"].as_str().unwrap_or_default();
    assert!(doc.contains("triager") && doc.contains("Agent") && doc.contains("agent("), "{hover}");

    // Fix the name with an edit of one character: the diagnostics clear.
    c.notify(
        "textDocument/didChange",
        json!({
            "textDocument": { "uri": u, "version": 1 },
            "contentChanges": [{ "range": { "start": at(line, col + 9), "end": at(line, col + 9) }, "text": "s" }],
        }),
    );
    let fixed = c.diagnostics_of(&u);
    assert_eq!(fixed["version"], 1);
    assert!(codes(&fixed).is_empty(), "{fixed}");

    // A syntax error: shown, and the last good text's diagnostics stay (none here).
    c.notify(
        "textDocument/didChange",
        json!({
            "textDocument": { "uri": u, "version": 2 },
            "contentChanges": [{ "range": { "start": at(line, col + 12), "end": at(line, col + 12) }, "text": " ) ) )" }],
        }),
    );
    let broken = c.diagnostics_of(&u);
    assert!(codes(&broken).contains(&"ts-syntax".to_string()), "{broken}");

    // A Workflow with no `agent.fault` route: a quick fix adds one on the root.
    let review = root.join("workflows/review.ts");
    let review_text = std::fs::read_to_string(&review).expect("fixture");
    let ru = uri(&review);
    c.open(&review, &review_text);
    let published = c.diagnostics_of(&ru);
    assert!(codes(&published).contains(&"agent-fault-unrouted".to_string()), "{published}");
    let range = published["diagnostics"][0]["range"].clone();

    // A syntax error on a new first line: the last good diagnostics stay, marked stale, moved
    // down with the text (one line); deleting the line brings back the fresh ones where they were.
    c.notify(
        "textDocument/didChange",
        json!({
            "textDocument": { "uri": ru, "version": 1 },
            "contentChanges": [{ "range": { "start": at(0, 0), "end": at(0, 0) }, "text": "const ) = 1;\n" }],
        }),
    );
    let broken = c.diagnostics_of(&ru);
    assert!(codes(&broken).contains(&"ts-syntax".to_string()), "{broken}");
    let stale = broken["diagnostics"]
        .as_array()
        .expect("diagnostics")
        .iter()
        .find(|d| d["code"] == "agent-fault-unrouted")
        .unwrap_or_else(|| panic!("the last good diagnostic stays: {broken}"));
    assert_eq!(stale["data"]["jr2"], "stale", "{stale}");
    assert_eq!(stale["range"]["start"]["line"].as_u64(), range["start"]["line"].as_u64().map(|l| l + 1), "{stale}");
    assert_eq!(stale["range"]["start"]["character"], range["start"]["character"], "{stale}");
    c.notify(
        "textDocument/didChange",
        json!({
            "textDocument": { "uri": ru, "version": 2 },
            "contentChanges": [{ "range": { "start": at(0, 0), "end": at(1, 0) }, "text": "" }],
        }),
    );
    let mended = c.diagnostics_of(&ru);
    assert_eq!(mended["diagnostics"][0]["range"], range, "{mended}");

    let actions = c.request(
        "textDocument/codeAction",
        json!({ "textDocument": { "uri": ru }, "range": range, "context": { "diagnostics": [] } }),
    );
    let actions = actions["result"].as_array().cloned().unwrap_or_default();
    let route = actions.iter().find(|a| a["title"].as_str().unwrap_or_default().contains("agent.fault"));
    let route = route.unwrap_or_else(|| panic!("{actions:?}"));
    let edits = route["edit"]["changes"][ru.as_str()].as_array().expect("edits").clone();
    assert_eq!(edits.len(), 1);
    // Apply it: the refusal goes.
    c.notify(
        "textDocument/didChange",
        json!({
            "textDocument": { "uri": ru, "version": 3 },
            "contentChanges": [{ "range": edits[0]["range"], "text": edits[0]["newText"] }],
        }),
    );
    let after = c.diagnostics_of(&ru);
    assert!(!codes(&after).contains(&"agent-fault-unrouted".to_string()), "{after}");

    // Close: the diagnostics are cleared.
    c.notify("textDocument/didClose", json!({ "textDocument": { "uri": u } }));
    let closed = c.diagnostics_of(&u);
    assert!(codes(&closed).is_empty(), "{closed}");

    let status = c.stop();
    assert!(status.success(), "{status:?}");
    let _ = std::fs::remove_dir_all(&root);
}

/// A named Chart with a bad stem offers the rename; an edit to its wrapper re-checks it.
#[test]
fn a_wrapper_edit_rechecks_its_charts() {
    let root = copy_fixture("wrapper");
    let mut c = Client::start();
    c.initialize(&root);
    let chart = root.join("workflows/notes/Draft_Post.json");
    let cu = uri(&chart);
    c.open(&chart, &std::fs::read_to_string(&chart).expect("fixture"));
    let first = c.diagnostics_of(&cu);
    let found = codes(&first);
    assert!(found.contains(&"workflow-stem".to_string()) && found.contains(&"unknown-target".to_string()), "{first}");
    let stem = first["diagnostics"].as_array().expect("list").iter().find(|d| d["code"] == "workflow-stem").cloned();
    let actions = c.request(
        "textDocument/codeAction",
        json!({ "textDocument": { "uri": cu }, "range": stem.expect("stem")["range"], "context": { "diagnostics": [] } }),
    );
    let text = actions.to_string();
    assert!(text.contains("draft-post.json") && text.contains("\"kind\":\"rename\""), "{actions}");

    // The wrapper loses its Open body: the Chart, not edited, is published again.
    let notes = root.join("workflows/notes.ts");
    let nu = uri(&notes);
    let notes_text = std::fs::read_to_string(&notes).expect("fixture");
    c.open(&notes, &notes_text);
    let _ = c.diagnostics_of(&nu);
    c.notify(
        "textDocument/didChange",
        json!({
            "textDocument": { "uri": nu, "version": 1 },
            "contentChanges": [{ "text": notes_text.replace("plan: open(", "plan: command(") }],
        }),
    );
    let again = c.diagnostics_of(&cu);
    assert!(codes(&again).contains(&"chart-wrapper".to_string()), "{again}");
    assert!(c.stop().success());
    let _ = std::fs::remove_dir_all(&root);
}

/// `jr2.graph` draws the Workflow of a document from its editor text (an unsaved edit shows),
/// as `jr2 graph` does; a Chart or an unknown format is an error that says why.
#[test]
fn the_graph_command_draws_the_open_workflow() {
    let root = copy_fixture("graph");
    let mut c = Client::start();
    c.initialize(&root);
    let fix = root.join("workflows/fix-tests.ts");
    let u = uri(&fix);
    let text = std::fs::read_to_string(&fix).expect("fixture");
    c.open(&fix, &text);
    let _ = c.diagnostics_of(&u);
    let graph = |c: &mut Client, args: Value| {
        c.request("workspace/executeCommand", json!({ "command": "jr2.graph", "arguments": [args] }))
    };
    let mermaid = graph(&mut c, json!({ "uri": u, "format": "mermaid" }));
    let picture = mermaid["result"].as_str().unwrap_or_default();
    assert!(picture.contains("stateDiagram-v2") && picture.contains("push publish · sandbox"), "{mermaid}");

    // An unsaved rename of a state is in the next picture.
    c.notify(
        "textDocument/didChange",
        json!({
            "textDocument": { "uri": u, "version": 1 },
            "contentChanges": [{ "text": text.replace("publishing", "shipping") }],
        }),
    );
    let dot = graph(&mut c, json!({ "uri": u, "format": "dot", "state": "shipping" }));
    let picture = dot["result"].as_str().unwrap_or_default();
    assert!(picture.starts_with("digraph \"fix-tests\"") && picture.contains("\"shipping\""), "{dot}");

    // SVG (the default) where Graphviz is installed; an error naming it where it is not.
    let svg = graph(&mut c, json!(u));
    match svg["result"].as_str() {
        Some(s) => assert!(s.contains("<svg") && s.contains("shipping"), "{svg}"),
        None => assert!(svg["error"]["message"].as_str().unwrap_or_default().contains("`dot`"), "{svg}"),
    }

    let chart = uri(&root.join("workflows/notes/post.json"));
    let refused = graph(&mut c, json!({ "uri": chart }));
    assert!(refused["error"]["message"].as_str().unwrap_or_default().contains("jr2 graph FILE"), "{refused}");
    let bad = graph(&mut c, json!({ "uri": u, "format": "png" }));
    assert!(bad["error"]["message"].as_str().unwrap_or_default().contains("unknown format"), "{bad}");
    assert!(c.stop().success());
    let _ = std::fs::remove_dir_all(&root);
}
