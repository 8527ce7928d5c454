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
//!
//! Bounded on any line: a label on a line longer than [`MAX_LINE`] bytes (a minified or
//! generated Chart, all on one line) is drawn on an excerpt of that line around it, at most
//! [`CONTEXT`] bytes either side, `…` where it is cut, at the line's own number and column; a
//! secondary label out of the excerpt becomes a note with its place. Drawn whole, every finding
//! reprinted the whole line: 10 000 findings on a 51 KB line took over 60 s, a 207 KB one printed
//! 117 MB.

use ariadne::{Color, Config, IndexType, Label, Report, ReportKind};
use base::line_index::LineIndex;
use diagnostics::{Diagnostic, FileReport, Severity, Summary};
use std::ops::Range;

const RED: &str = "\x1b[1;31m";
const YELLOW: &str = "\x1b[1;33m";
const BOLD: &str = "\x1b[1m";
const CYAN: &str = "\x1b[1;36m";
const RESET: &str = "\x1b[0m";

/// The longest line drawn whole, in bytes; a label on a longer one is drawn on an excerpt.
pub const MAX_LINE: usize = 1024;
/// The bytes of an excerpt either side of its label, and the most of a label it shows.
pub(crate) const CONTEXT: usize = 80;

/// Renders every diagnostic of every report, then the summary line.
pub fn render(reports: &[FileReport], color: bool) -> String {
    let mut out = String::new();
    for report in reports {
        if report.diagnostics.is_empty() {
            continue;
        }
        // ariadne's line table of the text, made once per file: made per diagnostic, a file with
        // many findings took time quadratic in its size (20 000 diagnostics: minutes). Made only
        // for a finding drawn on the whole text: findings on long lines are drawn on excerpts,
        // and a one-line text of 60 MB took seconds to tabulate for nothing.
        let source = std::cell::OnceCell::new();
        let index = report.line_index();
        for d in &report.diagnostics {
            out.push_str(&render_one(report, &source, &index, d, color));
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

/// The bounds of the line that holds byte `at` of `text` (without its line break), from the
/// file's line index (a search of the text for each finding was a scan of its whole line).
fn line_of(index: &LineIndex, text: &str, at: usize) -> Range<usize> {
    let line = index.position(text, at as u32).line as usize;
    let start = index.line_start(line - 1).unwrap_or(0).min(at);
    let next = index.line_start(line).unwrap_or(text.len()).max(at);
    let end = if text[..next].ends_with("\r\n") && next - 2 >= at {
        next - 2
    } else if text[..next].ends_with('\n') && next > at {
        next - 1
    } else {
        next
    };
    start..end
}

/// `at` moved down (`up`: up) onto a character boundary of `text`.
fn boundary(text: &str, mut at: usize, up: bool) -> usize {
    at = at.min(text.len());
    while !text.is_char_boundary(at) {
        if up {
            at += 1;
        } else {
            at -= 1;
        }
    }
    at
}

/// An excerpt of a long line for one diagnostic: its text (with `…` where the line is cut), where
/// it starts in the file, how many bytes its text has before the line's own (the `…`), and the
/// line's first byte.
struct Excerpt {
    text: String,
    from: usize,
    to: usize,
    lead: usize,
    line: Range<usize>,
}

impl Excerpt {
    /// The excerpt of `primary`'s line around it, if that line, or the line of a secondary
    /// label, is longer than [`MAX_LINE`]; `None` draws the text whole.
    fn of(index: &LineIndex, text: &str, primary: &Range<usize>, secondary: &[Range<usize>]) -> Option<Excerpt> {
        let long = |r: &Range<usize>| {
            let (a, b) = (line_of(index, text, r.start), line_of(index, text, r.end));
            a.len() > MAX_LINE || b.len() > MAX_LINE
        };
        if !long(primary) && !secondary.iter().any(long) {
            return None;
        }
        let line = line_of(index, text, primary.start);
        // The label's first CONTEXT bytes at most, then CONTEXT either side, within its line.
        let label_end = primary.end.min(line.end).min(primary.start + CONTEXT);
        let from = boundary(text, primary.start.saturating_sub(CONTEXT).max(line.start), false);
        let to = boundary(text, (label_end + CONTEXT).min(line.end), true);
        let (head, tail) = (if from > line.start { "…" } else { "" }, if to < line.end { "…" } else { "" });
        Some(Excerpt { text: format!("{head}{}{tail}", &text[from..to]), from, to, lead: head.len(), line })
    }

    /// A span of the file in the excerpt's text, if it lies in the excerpt (cut to it).
    fn map(&self, text: &str, r: &Range<usize>) -> Option<Range<usize>> {
        if r.start < self.from || r.start > self.to || r.start < self.line.start {
            return None;
        }
        let end = boundary(text, r.end.min(self.to).max(r.start), true).min(self.to);
        Some(r.start - self.from + self.lead..end - self.from + self.lead)
    }
}

fn render_one<'t>(
    report: &'t FileReport,
    full: &std::cell::OnceCell<ariadne::Source<&'t str>>,
    index: &LineIndex,
    d: &Diagnostic,
    color: bool,
) -> String {
    let (word, kind_color, ansi) = match d.severity {
        Severity::Error => ("error", Color::Red, RED),
        Severity::Warning => ("warning", Color::Yellow, YELLOW),
    };
    let kind_text = format!("{word}[{}]", d.code);
    let file = report.path.clone();
    let whole = clamp(&report.text, d.span);
    let secondaries: Vec<Range<usize>> = d.secondary.iter().map(|s| clamp(&report.text, s.span)).collect();
    let excerpt = Excerpt::of(index, &report.text, &whole, &secondaries);
    let cut_source;
    let (source, primary) = match &excerpt {
        Some(x) => {
            // The excerpt numbered as its line is.
            let line = index.position(&report.text, x.line.start as u32).line as usize;
            cut_source = ariadne::Source::from(x.text.as_str()).with_display_line_offset(line.saturating_sub(1));
            let primary = x.map(&report.text, &whole).unwrap_or(x.lead..x.lead);
            (&cut_source, primary)
        }
        None => (full.get_or_init(|| ariadne::Source::from(report.text.as_str())), whole.clone()),
    };
    let mut placed_notes = Vec::new();
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
    for (s, span) in d.secondary.iter().zip(&secondaries) {
        let secondary_color = if color { Color::Blue } else { Color::Primary };
        let span = match &excerpt {
            None => span.clone(),
            Some(x) => match x.map(&report.text, span) {
                Some(cut) => cut,
                None => {
                    // Out of the excerpt: said with its place.
                    let pos = index.position(&report.text, span.start as u32);
                    placed_notes.push(format!("{}:{}:{}: {}", file, pos.line, pos.column, s.message));
                    continue;
                }
            },
        };
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
    let pos = index.position(&report.text, whole.start as u32);
    let snippet = match (written, String::from_utf8(bytes)) {
        (Ok(Ok(())), Ok(text)) => {
            let mut snippet = text.split_once('\n').map(|(_, rest)| rest.to_string()).unwrap_or_default();
            if let Some(x) = &excerpt {
                // ariadne placed the label in the excerpt: the place is the file's.
                let col = x.text[..primary.start.min(x.text.len())].chars().count() + 1;
                let drawn = format!("{}:{}:{} ]", file, pos.line, col);
                snippet = snippet.replacen(&drawn, &format!("{}:{}:{} ]", file, pos.line, pos.column), 1);
            }
            snippet
        }
        // ariadne could not draw this span: the position alone.
        _ => format!("  --> {}:{}:{}\n", file, pos.line, pos.column),
    };
    let mut out = header + &snippet;
    // ariadne pads lines with trailing spaces; trim them so output diffs cleanly.
    out = out.lines().map(str::trim_end).collect::<Vec<_>>().join("\n");
    out.push('\n');
    for note in d.notes.iter().chain(&placed_notes) {
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
/// `checked 3 files: no problems`; and where files were not checked in full, how many and the
/// codes that say so: `warning: 1 warning in 1 file; 1 file not checked in full
/// (chart-without-lends)`.
pub(crate) fn summary_line_naming(s: Summary, unchecked: &[&str], color: bool) -> String {
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
    fn a_label_on_a_long_line_is_drawn_on_an_excerpt_at_the_lines_place() {
        // A one-line Chart of 5 000 bytes; the finding is in its middle, one secondary label near
        // it and one far away.
        let mut text = String::from("{\"a\": [");
        text.push_str(&"1, ".repeat(800));
        let at = text.len() as u32;
        text.push_str("\"é\", \"b\", ");
        text.push_str(&"2, ".repeat(800));
        text.push_str("3]}\n{}\n");
        let d = Diagnostic::error("unknown-target", Span::new(at, at + 4), "not a state")
            .with_label("this name")
            .with_secondary(Span::new(at + 6, at + 9), "near")
            .with_secondary(Span::new(1, 4), "far");
        let out = render(&[file("long.json", &text, vec![d])], false);
        let col = text[..at as usize].chars().count() + 1;
        assert!(out.contains(&format!("─[ long.json:1:{col} ]")), "{out}");
        assert!(out.contains("  = note: long.json:1:2: far"), "{out}");
        assert!(out.len() < 1200, "{}: {out}", out.len());
        insta::assert_snapshot!(out);
    }

    #[test]
    fn many_findings_on_one_long_line_print_bounded_output() {
        // 207 KB on one line, 2 000 findings: drawn whole, each reprinted the line (400 MB).
        let mut text = String::from("[");
        let mut findings = Vec::new();
        for i in 0..2_000 {
            text.push_str(&" ".repeat(100));
            let at = text.len() as u32;
            text.push_str(&format!("\"p{i:04}\","));
            findings.push(Diagnostic::warning("unused-event", Span::new(at, at + 7), format!("finding {i}")));
        }
        text.push_str("0]");
        assert!(text.len() > 200_000 && !text.contains('\n'));
        let out = render(&[file("one.json", &text, findings)], false);
        assert!(out.len() < 2_000 * 800, "{} bytes", out.len());
        for i in [0, 999, 1_999] {
            let header = format!("warning[unused-event]: finding {i}\n");
            let at = out.find(&header).unwrap_or_else(|| panic!("finding {i} is drawn")) + header.len();
            let place = out[at..].lines().next().unwrap_or_default();
            assert!(place.ends_with(&format!("─[ one.json:1:{} ]", 2 + 100 * (i + 1) + 8 * i)), "{i}: {place}");
            let drawn = out[at..].lines().nth(2).unwrap_or_default();
            assert!(drawn.contains(&format!("\"p{i:04}\"")) && drawn.len() < 400, "{i}: {drawn}");
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
