//! The SARIF 2.1.0 format, for code scanning: one run of the tool `jr2`.
//!
//! The driver lists one `reportingDescriptor` per code used: its summary, its page as `help`
//! (Markdown), the page's path in the repository as the property `docs`, and a `helpUri` when
//! the workspace's Cargo.toml names a `repository` (SARIF requires an absolute URI there);
//! each result names its rule by id and index, its level, its message, and one physical location
//! with a region in 1-based lines and character columns (`columnKind: unicodeCodePoints`), plus
//! byte offsets. Chart paths and door rule numbers go in the result's property bag.

use base::Span;
use diagnostics::Rule;
use diagnostics::{FileReport, Severity};
use serde_json::{json, Map, Value};

/// The schema URI written in `$schema`.
pub(crate) const SCHEMA_URI: &str =
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json";

/// Where the tool is described, when the workspace's Cargo.toml names a repository.
const INFORMATION_URI: &str = env!("CARGO_PKG_REPOSITORY");

/// The SARIF log, pretty-printed, with a final newline; `rules` describe the codes it uses.
pub fn render(reports: &[FileReport], rules: &[&'static Rule]) -> String {
    let mut text = serde_json::to_string_pretty(&log(reports, rules)).unwrap_or_else(|_| "{}".to_string());
    text.push('\n');
    text
}

/// The SARIF log as a value.
pub(crate) fn log(reports: &[FileReport], rules: &[&'static Rule]) -> Value {
    let mut codes: Vec<&'static str> = reports.iter().flat_map(|r| r.diagnostics.iter().map(|d| d.code)).collect();
    codes.sort_unstable();
    codes.dedup();

    let descriptors: Vec<Value> = codes
        .iter()
        .map(|code| {
            let mut o = Map::new();
            o.insert("id".into(), json!(code));
            o.insert("name".into(), json!(code));
            if let Some(rule) = rules.iter().find(|r| r.code == *code) {
                o.insert("shortDescription".into(), json!({ "text": rule.summary.trim() }));
                o.insert(
                    "help".into(),
                    json!({ "text": diagnostics::unindent_doc(rule.doc).trim_end(), "markdown": rule.markdown() }),
                );
                let level = match rule.severity {
                    Severity::Error => "error",
                    Severity::Warning => "warning",
                };
                o.insert("defaultConfiguration".into(), json!({ "level": level }));
            }
            // SARIF wants an absolute `helpUri`: only where the repository's address is known.
            if !INFORMATION_URI.is_empty() {
                o.insert(
                    "helpUri".into(),
                    json!(format!("{}/blob/HEAD/docs/rules/{code}.md", INFORMATION_URI.trim_end_matches('/'))),
                );
            }
            o.insert("properties".into(), json!({ "docs": format!("docs/rules/{code}.md") }));
            Value::Object(o)
        })
        .collect();

    let mut results = Vec::new();
    for report in reports {
        // A clean file needs no positions: skip the scan of its text.
        if report.diagnostics.is_empty() {
            continue;
        }
        let index = report.line_index();
        let text = &report.text;
        for d in &report.diagnostics {
            let (start, end) = clamped(text, d.span);
            let s = index.position(text, start);
            let e = index.position(text, end);
            let mut result = Map::new();
            result.insert("ruleId".into(), json!(d.code));
            if let Ok(i) = codes.binary_search(&d.code) {
                result.insert("ruleIndex".into(), json!(i));
            }
            result.insert("level".into(), json!(d.severity.as_str()));
            let mut message = d.message.clone();
            if let Some(help) = &d.help {
                message.push_str("\nhelp: ");
                message.push_str(help);
            }
            result.insert("message".into(), json!({ "text": message }));
            result.insert(
                "locations".into(),
                json!([{
                    "physicalLocation": {
                        "artifactLocation": { "uri": uri_of(&report.path) },
                        "region": {
                            "startLine": s.line,
                            "startColumn": s.column,
                            "endLine": e.line,
                            "endColumn": e.column,
                            "byteOffset": start,
                            "byteLength": end - start,
                        }
                    }
                }]),
            );
            if !d.related.is_empty() {
                let related: Vec<Value> = d
                    .related
                    .iter()
                    .enumerate()
                    .map(|(i, r)| {
                        json!({
                            "id": i,
                            "message": { "text": r.message },
                            "physicalLocation": {
                                "artifactLocation": { "uri": uri_of(&r.path) },
                                "region": {
                                    "startLine": r.start.line,
                                    "startColumn": r.start.column,
                                    "endLine": r.end.line,
                                    "endColumn": r.end.column,
                                }
                            }
                        })
                    })
                    .collect();
                result.insert("relatedLocations".into(), Value::Array(related));
            }
            let mut properties = Map::new();
            if let Some(path) = &d.path {
                properties.insert("path".into(), json!(path));
            }
            if let Some(rule) = d.rule {
                properties.insert("rule".into(), json!(rule));
            }
            if !properties.is_empty() {
                result.insert("properties".into(), Value::Object(properties));
            }
            results.push(Value::Object(result));
        }
    }

    let mut driver = Map::new();
    driver.insert("name".into(), json!("jr2"));
    if !INFORMATION_URI.is_empty() {
        driver.insert("informationUri".into(), json!(INFORMATION_URI));
    }
    driver.insert("version".into(), json!(env!("CARGO_PKG_VERSION")));
    driver.insert("rules".into(), Value::Array(descriptors));

    json!({
        "$schema": SCHEMA_URI,
        "version": "2.1.0",
        "runs": [{
            "tool": { "driver": Value::Object(driver) },
            "columnKind": "unicodeCodePoints",
            "results": results,
        }]
    })
}

fn clamped(text: &str, span: Span) -> (u32, u32) {
    let len = text.len() as u32;
    let start = span.start.min(len);
    (start, span.end.min(len).max(start))
}

/// A file path as a relative URI reference: `/` separators, and percent-encoding for every byte
/// outside RFC 3986's unreserved characters and `/`.
pub(crate) fn uri_of(path: &str) -> String {
    let path = path.replace('\\', "/");
    let mut out = String::with_capacity(path.len());
    for b in path.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~' | b'/') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uris_are_percent_encoded() {
        assert_eq!(uri_of("a b/é#.json"), "a%20b/%C3%A9%23.json");
        assert_eq!(uri_of("dir\\x.json"), "dir/x.json");
    }
}
