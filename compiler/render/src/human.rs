//! The human format: rustc-style reports drawn by ariadne, then one summary line.
//!
//! ```text
//! error[json-syntax]: expected `,` or `}`
//!    ╭─[ chart.json:1:12 ]
//!    │
//!  1 │ { "a": 1 "b": 2 }
//!    │          ┬
//!    │          ╰──
//! ───╯
//!   = help: …
//! error: 1 error in 1 file
//! ```
//!
//! Robust to any span: spans are clamped into the text and onto character boundaries before
//! ariadne sees them, and should ariadne still fail, the report falls back to a plain header.

use ariadne::{Color, Config, IndexType, Label, Report, ReportKind};
use diagnostics::{Diagnostic, FileReport, Severity, Summary};
use std::ops::Range;

const RED: &str = "\x1b[1;31m";
const YELLOW: &str = "\x1b[1;33m";
const BOLD: &str = "\x1b[1m";
const CYAN: &str = "\x1b[1;36m";
const RESET: &str = "\x1b[0m";

/// Renders every diagnostic of every report, then the summary line.
pub fn render(reports: &[FileReport], color: bool) -> String {
    let mut out = String::new();
    for report in reports {
        if report.diagnostics.is_empty() {
            continue;
        }
        // ariadne's line table of the text, made once per file: made per diagnostic, a file with
        // many findings took time quadratic in its size (20 000 diagnostics: minutes).
        let source = ariadne::Source::from(report.text.as_str());
        for d in &report.diagnostics {
            out.push_str(&render_one(report, &source, d, color));
        }
    }
    let mut unchecked: Vec<&str> =
        reports.iter().flat_map(|r| &r.diagnostics).filter(|d| d.unchecked).map(|d| d.code).collect();
    unchecked.sort_unstable();
    unchecked.dedup();
    out.push_str(&summary_line_naming(Summary::of(reports), &unchecked, color));
    out
}

/// A span clamped into `text` and onto character boundaries (start down, end up).
fn clamp(text: &str, span: base::Span) -> Range<usize> {
    let len = text.len();
    let mut start = (span.start as usize).min(len);
    let mut end = (span.end as usize).min(len).max(start);
    while !text.is_char_boundary(start) {
        start -= 1;
    }
    while !text.is_char_boundary(end) {
        end += 1;
    }
    start..end
}

fn paint(text: &str, code: &str, color: bool) -> String {
    if color {
        format!("{code}{text}{RESET}")
    } else {
        text.to_string()
    }
}

fn render_one(report: &FileReport, source: &ariadne::Source<&str>, d: &Diagnostic, color: bool) -> String {
    let (word, kind_color, ansi) = match d.severity {
        Severity::Error => ("error", Color::Red, RED),
        Severity::Warning => ("warning", Color::Yellow, YELLOW),
    };
    let kind_text = format!("{word}[{}]", d.code);
    let file = report.path.clone();
    let primary = clamp(&report.text, d.span);
    let label_color = if color { kind_color } else { Color::Primary };

    let config = Config::default().with_color(color).with_index_type(IndexType::Byte);
    // ariadne colours a custom kind's header whatever the config says, so the header is ours:
    // ariadne draws a throwaway one-line header (dropped below) and the source snippet.
    // The underline's label: the diagnostic's own, else what it points at (a Chart's dotted
    // path), else its message. ariadne draws no underline for a label without text, and an
    // empty text draws an arrow to nothing (`╰──`).
    let label = d.label.as_deref().filter(|l| !l.is_empty()).or(d.path.as_deref()).unwrap_or(&d.message);
    let primary_label = Label::new((file.clone(), primary.clone()))
        .with_message(label)
        .with_color(label_color)
        .with_order(primary.start.min(i32::MAX as usize) as i32);
    let mut builder = Report::build(ReportKind::Custom("-", kind_color), (file.clone(), primary.clone()))
        .with_config(config)
        .with_label(primary_label);
    // Labels in source order, so that ariadne draws one snippet per file.
    for s in &d.secondary {
        let secondary_color = if color { Color::Blue } else { Color::Primary };
        let span = clamp(&report.text, s.span);
        builder = builder.with_label(
            Label::new((file.clone(), span.clone()))
                .with_message(&s.message)
                .with_color(secondary_color)
                .with_order(span.start.min(i32::MAX as usize) as i32),
        );
    }
    let ariadne_report = builder.finish();

    let mut bytes = Vec::new();
    let written = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        ariadne_report.write((file.clone(), source), &mut bytes)
    }));
    let header = format!("{}: {}\n", paint(&kind_text, ansi, color), d.message);
    let snippet = match (written, String::from_utf8(bytes)) {
        (Ok(Ok(())), Ok(text)) => text.split_once('\n').map(|(_, rest)| rest.to_string()).unwrap_or_default(),
        // ariadne could not draw this span: the position alone.
        _ => {
            let pos = report.line_index().position(&report.text, primary.start as u32);
            format!("  --> {}:{}:{}\n", file, pos.line, pos.column)
        }
    };
    let mut out = header + &snippet;
    // ariadne pads lines with trailing spaces; trim them so output diffs cleanly.
    out = out.lines().map(str::trim_end).collect::<Vec<_>>().join("\n");
    out.push('\n');
    for note in &d.notes {
        out.push_str(&format!("  = {}: {}\n", paint("note", BOLD, color), note));
    }
    for r in &d.related {
        let at = format!("{}:{}:{}", r.path, r.start.line, r.start.column);
        out.push_str(&format!("  = {}: {}: {}\n", paint("note", BOLD, color), at, r.message));
    }
    if let Some(help) = &d.help {
        out.push_str(&format!("  = {}: {}\n", paint("help", CYAN, color), help));
    }
    if let Some(fix) = &d.fix {
        out.push_str(&format!("  = {}: {}\n", paint("fix", CYAN, color), fix.message));
    }
    // Where the rule's page is, last: what to read next.
    out.push_str(&format!("  = {}: jr2 explain {}\n", paint("doc", BOLD, color), d.code));
    out.push('\n');
    out
}

fn plural(n: usize, one: &str) -> String {
    if n == 1 {
        format!("{n} {one}")
    } else {
        format!("{n} {one}s")
    }
}

/// `error: 2 errors, 1 warning in 3 files`, `warning: 1 warning in 1 file`, or
/// `checked 3 files: no problems`.
pub fn summary_line(s: Summary, color: bool) -> String {
    summary_line_naming(s, &[], color)
}

/// [`summary_line`], and where files were not checked in full, how many and the codes that say
/// so: `warning: 1 warning in 1 file; 1 file not checked in full (chart-without-lends)`.
pub fn summary_line_naming(s: Summary, unchecked: &[&str], color: bool) -> String {
    let line = counts_line(s, color);
    if s.unchecked == 0 {
        return line;
    }
    let files = plural(s.unchecked, "file");
    format!("{}; {files} not checked in full ({})\n", line.trim_end(), unchecked.join(", "))
}

fn counts_line(s: Summary, color: bool) -> String {
    let files = plural(s.files, "file");
    if s.errors > 0 {
        let mut counts = plural(s.errors, "error");
        if s.warnings > 0 {
            counts.push_str(&format!(", {}", plural(s.warnings, "warning")));
        }
        format!("{}: {counts} in {files}\n", paint("error", RED, color))
    } else if s.warnings > 0 {
        format!("{}: {} in {files}\n", paint("warning", YELLOW, color), plural(s.warnings, "warning"))
    } else {
        format!("checked {files}: no problems\n")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use base::Span;
    use diagnostics::{Edit, Fix};

    fn file(path: &str, text: &str, diagnostics: Vec<Diagnostic>) -> FileReport {
        FileReport { path: path.to_string(), text: text.to_string(), diagnostics }
    }

    #[test]
    fn one_error_with_label_notes_and_help() {
        let text = "{\n  \"id\": \"notes\",\n  \"initial\": \"drafting\" \"states\": {}\n}\n";
        let at = text.find("\"states\"").unwrap() as u32;
        let d = Diagnostic::error("json-syntax", Span::new(at, at + 8), "expected `,` or `}` after an object member")
            .with_label("a `,` is missing before this key")
            .with_secondary(Span::new(3, 7), "in this object")
            .with_note("a Chart is one JSON object")
            .with_help("add a `,` after `\"drafting\"`")
            .with_rule(1);
        insta::assert_snapshot!(render(&[file("workflows/notes/a.json", text, vec![d])], false));
    }

    #[test]
    fn warnings_and_errors_over_files_with_summary() {
        let a = file(
            "a.json",
            "{ \"x\": 1 }",
            vec![Diagnostic::warning("unused-event", Span::new(2, 5), "the event `x` is never sent")],
        );
        let b =
            file("b.json", "[1, 2]", vec![Diagnostic::error("json-syntax", Span::new(0, 6), "a Chart is an object")]);
        let c = file("c.json", "{}", vec![]);
        insta::assert_snapshot!(render(&[a, b, c], false));
    }

    #[test]
    fn clean_run_prints_only_the_summary() {
        assert_eq!(render(&[file("a.json", "{}", vec![])], false), "checked 1 file: no problems\n");
        assert_eq!(render(&[], false), "checked 0 files: no problems\n");
    }

    #[test]
    fn zero_width_span_at_end_of_text() {
        let text = "{ \"a\": ";
        let d = Diagnostic::error("json-syntax", Span::empty_at(text.len() as u32), "unexpected end of text");
        insta::assert_snapshot!(render(&[file("a.json", text, vec![d])], false));
    }

    #[test]
    fn empty_text_and_span_beyond_the_text() {
        let d = Diagnostic::error("json-syntax", Span::new(10, 20), "the text is empty");
        let out = render(&[file("empty.json", "", vec![d])], false);
        insta::assert_snapshot!(out);
    }

    #[test]
    fn fix_line_and_unicode_columns() {
        let text = "{ \"é\": \"ü\" , }";
        let at = text.find(',').unwrap() as u32;
        let d = Diagnostic::error("json-syntax", Span::new(at, at + 1), "trailing comma")
            .with_label("remove this")
            .with_fix(Fix::edits(
                "remove the comma",
                vec![Edit { span: Span::new(at, at + 1), replacement: String::new() }],
            ));
        insta::assert_snapshot!(render(&[file("u.json", text, vec![d])], false));
    }

    #[test]
    fn colour_only_when_asked() {
        let d = Diagnostic::error("json-syntax", Span::new(0, 1), "bad");
        let plain = render(&[file("a.json", "x", vec![d.clone()])], false);
        assert!(!plain.contains('\x1b'));
        let coloured = render(&[file("a.json", "x", vec![d])], true);
        assert!(coloured.contains('\x1b'));
    }

    #[test]
    fn many_findings_in_one_big_file_are_drawn_each_at_its_line() {
        // 20 000 lines and a finding on each: ariadne's line table is made once for the file (made
        // per finding, this took minutes).
        let (mut text, mut findings) = (String::new(), Vec::new());
        for i in 0..20_000 {
            let at = text.len() as u32;
            text.push_str(&format!("line {i}\n"));
            findings.push(Diagnostic::warning("unused-event", Span::new(at, at + 4), format!("finding {i}")));
        }
        let out = render(&[file("big.json", &text, findings)], false);
        assert!(out.ends_with("warning: 20000 warnings in 1 file\n"), "{}", &out[out.len() - 80..]);
        for i in [0, 1, 9_999, 19_999] {
            let header = format!("warning[unused-event]: finding {i}\n");
            let at = out.find(&header).unwrap_or_else(|| panic!("finding {i} is drawn")) + header.len();
            let place = out[at..].lines().next().unwrap_or_default();
            assert!(place.ends_with(&format!("─[ big.json:{}:1 ]", i + 1)), "{i}: {place}");
        }
    }

    #[test]
    fn never_panics_on_any_span() {
        let texts = ["", "a", "é", "ab\ncd\n", "\n\n", "x\u{1F600}y\r\nz", "\t\u{0301}é\n"];
        for text in texts {
            for start in 0..=text.len() as u32 + 2 {
                for end in 0..=text.len() as u32 + 2 {
                    let d = Diagnostic::error("json-syntax", Span::new(start, end), "m")
                        .with_label("l")
                        .with_secondary(Span::new(end, start), "s");
                    let out = render(&[file("t.json", text, vec![d])], false);
                    assert!(out.contains("error[json-syntax]: m"), "{text:?} {start}..{end}: {out}");
                }
            }
        }
    }
}
