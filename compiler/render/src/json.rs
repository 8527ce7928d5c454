//! The JSON format: exactly one document, as `CONTRACT.md` gives it.
//!
//! `{"diagnostics": [...], "summary": {"files", "errors", "warnings"}}`. Each diagnostic has
//! `file`, `severity`, `code`, `message`, `range` (1-based lines, columns in characters),
//! `byte_range` (0-based, `[start, end)`), then `path` and `rule` when set, and `help`, `notes`,
//! `secondary`, `related` (places in other files: `file`, `message`, `range`, `byte_range`) and
//! `fix` when present (`message`, `edits`: each `range`, `byte_range`, `replacement`; and
//! `rename_to`, the file's new name in its folder, when the fix renames the file).

use base::line_index::LineIndex;
use base::Span;
use diagnostics::{FileReport, Summary};
use serde_json::{json, Map, Value};

/// The whole document, pretty-printed, with a final newline.
pub fn render(reports: &[FileReport]) -> String {
    let mut text = serde_json::to_string_pretty(&document(reports)).unwrap_or_else(|_| "{}".to_string());
    text.push('\n');
    text
}

/// The document as a value.
pub fn document(reports: &[FileReport]) -> Value {
    let mut diagnostics = Vec::new();
    for report in reports {
        // A clean file needs no positions: skip the scan of its text.
        if report.diagnostics.is_empty() {
            continue;
        }
        let index = report.line_index();
        for d in &report.diagnostics {
            let mut o = Map::new();
            o.insert("file".into(), json!(report.path));
            o.insert("severity".into(), json!(d.severity.as_str()));
            o.insert("code".into(), json!(d.code));
            o.insert("message".into(), json!(d.message));
            o.insert("range".into(), range(&index, &report.text, d.span));
            o.insert("byte_range".into(), byte_range(&report.text, d.span));
            if let Some(path) = &d.path {
                o.insert("path".into(), json!(path));
            }
            if let Some(rule) = d.rule {
                o.insert("rule".into(), json!(rule));
            }
            if let Some(help) = &d.help {
                o.insert("help".into(), json!(help));
            }
            if !d.notes.is_empty() {
                o.insert("notes".into(), json!(d.notes));
            }
            if !d.secondary.is_empty() {
                let labels: Vec<Value> = d
                    .secondary
                    .iter()
                    .map(|l| {
                        json!({
                            "message": l.message,
                            "range": range(&index, &report.text, l.span),
                            "byte_range": byte_range(&report.text, l.span),
                        })
                    })
                    .collect();
                o.insert("secondary".into(), Value::Array(labels));
            }
            if !d.related.is_empty() {
                let related: Vec<Value> = d
                    .related
                    .iter()
                    .map(|r| {
                        json!({
                            "file": r.path,
                            "message": r.message,
                            "range": { "start": r.start, "end": r.end },
                            "byte_range": [r.span.start, r.span.end],
                        })
                    })
                    .collect();
                o.insert("related".into(), Value::Array(related));
            }
            if let Some(fix) = &d.fix {
                let edits: Vec<Value> = fix
                    .edits
                    .iter()
                    .map(|e| {
                        json!({
                            "range": range(&index, &report.text, e.span),
                            "byte_range": byte_range(&report.text, e.span),
                            "replacement": e.replacement,
                        })
                    })
                    .collect();
                let mut f = json!({ "message": fix.message, "edits": edits });
                if let Some(name) = &fix.rename_to {
                    f["rename_to"] = json!(name);
                }
                o.insert("fix".into(), f);
            }
            diagnostics.push(Value::Object(o));
        }
    }
    let s = Summary::of(reports);
    json!({
        "diagnostics": diagnostics,
        "summary": { "files": s.files, "errors": s.errors, "warnings": s.warnings },
    })
}

/// A span clamped into the text (a span past the end ends at the end; end never before start).
fn clamped(text: &str, span: Span) -> (u32, u32) {
    let len = text.len() as u32;
    let start = span.start.min(len);
    (start, span.end.min(len).max(start))
}

fn byte_range(text: &str, span: Span) -> Value {
    let (start, end) = clamped(text, span);
    json!([start, end])
}

fn range(index: &LineIndex, text: &str, span: Span) -> Value {
    let (start, end) = clamped(text, span);
    let s = index.position(text, start);
    let e = index.position(text, end);
    json!({
        "start": { "line": s.line, "column": s.column },
        "end": { "line": e.line, "column": e.column },
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use diagnostics::{Diagnostic, Edit, Fix};

    fn file(path: &str, text: &str, diagnostics: Vec<Diagnostic>) -> FileReport {
        FileReport { path: path.to_string(), text: text.to_string(), diagnostics }
    }

    #[test]
    fn contract_shape_with_optional_fields() {
        let text = "{\n  \"states\": { \"é\": 1, }\n}\n";
        let at = text.find(", }").unwrap() as u32;
        let plain = Diagnostic::error("json-syntax", Span::new(at, at + 1), "trailing comma").with_rule(1);
        let full = Diagnostic::warning("unknown-thing", Span::new(4, 12), "a warning")
            .with_path("states")
            .with_help("do this")
            .with_note("because")
            .with_secondary(Span::new(0, 1), "here")
            .with_fix(Fix::edits("remove", vec![Edit { span: Span::new(at, at + 1), replacement: String::new() }]));
        let reports = [file("a.json", text, vec![plain, full]), file("b.json", "{}", vec![])];
        insta::assert_snapshot!(render(&reports));
    }

    #[test]
    fn columns_count_characters_and_spans_are_clamped() {
        let text = "\"éé\" x";
        let at = text.find('x').unwrap() as u32;
        let d = Diagnostic::error("json-syntax", Span::new(at, 99), "m");
        let doc = document(&[file("a.json", text, vec![d])]);
        let d = &doc["diagnostics"][0];
        assert_eq!(d["range"]["start"], json!({"line": 1, "column": 6}));
        assert_eq!(d["range"]["end"], json!({"line": 1, "column": 7}));
        assert_eq!(d["byte_range"], json!([at, at + 1]));
        assert!(d.get("path").is_none() && d.get("rule").is_none() && d.get("notes").is_none());
    }

    #[test]
    fn related_places_name_their_file_and_position() {
        let other = "const a = 1;\nconst door = z.object({ branch: z.string() });\n";
        let at = other.find("branch").unwrap() as u32;
        let d = Diagnostic::error("door-mismatch", Span::new(0, 1), "m").with_related(
            "workflows/callee.ts",
            other,
            Span::new(at, at + 6),
            "the door",
        );
        let human = crate::human::render(&[file("a.ts", "x", vec![d.clone()])], false);
        assert!(human.contains("= note: workflows/callee.ts:2:25: the door"), "{human}");
        let doc = document(&[file("a.ts", "x", vec![d])]);
        assert_eq!(
            doc["diagnostics"][0]["related"],
            json!([{
                "file": "workflows/callee.ts",
                "message": "the door",
                "range": { "start": { "line": 2, "column": 25 }, "end": { "line": 2, "column": 31 } },
                "byte_range": [at, at + 6],
            }])
        );
    }

    #[test]
    fn empty_run() {
        assert_eq!(document(&[]), json!({"diagnostics": [], "summary": {"files": 0, "errors": 0, "warnings": 0}}));
    }
}
