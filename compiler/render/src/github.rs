//! The GitHub Actions format: one workflow command per diagnostic.
//!
//! `::error file=F,line=L,col=C,endLine=L2,endColumn=C2,title=CODE::MESSAGE`, escaped as the
//! Actions toolkit escapes them: `%`, `\r`, `\n` in the message; those and `:`, `,` in properties.
//! A help line follows the message on its own (escaped) line.

use diagnostics::{FileReport, Severity};

/// One line per diagnostic; nothing for a clean run.
pub(crate) fn render(reports: &[FileReport]) -> String {
    let mut out = String::new();
    for report in reports {
        // A clean file needs no positions: skip the scan of its text.
        if report.diagnostics.is_empty() {
            continue;
        }
        let index = report.line_index();
        let len = report.text.len() as u32;
        for d in &report.diagnostics {
            let start = d.span.start.min(len);
            let end = d.span.end.min(len).max(start);
            let s = index.position(&report.text, start);
            let e = index.position(&report.text, end);
            let command = match d.severity {
                Severity::Error => "error",
                Severity::Warning => "warning",
            };
            let mut message = d.message.clone();
            if let Some(help) = &d.help {
                message.push_str("\nhelp: ");
                message.push_str(help);
            }
            out.push_str(&format!(
                "::{command} file={},line={},col={},endLine={},endColumn={},title={}::{}\n",
                escape_property(&report.path),
                s.line,
                s.column,
                e.line,
                e.column,
                escape_property(d.code),
                escape_data(&message),
            ));
        }
    }
    out
}

/// The message part of a workflow command.
pub(crate) fn escape_data(s: &str) -> String {
    s.replace('%', "%25").replace('\r', "%0D").replace('\n', "%0A")
}

/// A property value of a workflow command.
pub(crate) fn escape_property(s: &str) -> String {
    escape_data(s).replace(':', "%3A").replace(',', "%2C")
}

#[cfg(test)]
mod tests {
    use super::*;
    use base::Span;
    use diagnostics::Diagnostic;

    #[test]
    fn lines_with_escapes() {
        let text = "{\n  \"a\": 1,\n}\n";
        let at = text.find(",\n}").unwrap() as u32;
        let reports = [FileReport {
            path: "dir,1/a:b.json".into(),
            text: text.into(),
            diagnostics: vec![
                Diagnostic::error("json-syntax", Span::new(at, at + 1), "100% wrong:\r\nline two, still"),
                Diagnostic::warning("some-warning", Span::new(0, 1), "a warning").with_help("do it"),
            ],
        }];
        insta::assert_snapshot!(render(&reports));
    }

    #[test]
    fn clean_run_prints_nothing() {
        let reports = [FileReport { path: "a.json".into(), text: "{}".into(), diagnostics: vec![] }];
        assert_eq!(render(&reports), "");
    }
}
