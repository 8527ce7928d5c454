//! What reaches a terminal: text from the input (a source line, a name in a message, a file's
//! name) shown with its control characters made printable, so that no escape sequence in a
//! Chart or a Machine moves the cursor, recolours, retitles or clears the user's terminal.

use diagnostics::FileReport;
use std::borrow::Cow;

/// Is `c` a control character a terminal may obey: C0 (but tab and line feed), DEL, C1?
fn is_control(c: char) -> bool {
    (c < ' ' && c != '\t' && c != '\n') || c == '\u{7f}' || ('\u{80}'..='\u{9f}').contains(&c)
}

/// `text` with each control character in its place as a printable one of the same UTF-8
/// length, so that spans and columns still hold: C0 and DEL as `?`, C1 (two bytes) as `¿`. Tab,
/// line feed and a carriage return before a line feed stay.
pub(super) fn printable(text: &str) -> Cow<'_, str> {
    // Bytes first: a control character is a C0 byte (but tab and line feed), DEL, or a C1 one,
    // which UTF-8 writes from 0xC2; a text with none of those bytes (most) is not decoded.
    let may = |b: &u8| (*b < b' ' && *b != b'\t' && *b != b'\n') || *b == 0x7f || *b == 0xc2;
    if !text.as_bytes().iter().any(may) || !text.chars().any(is_control) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        out.push(match c {
            '\r' if chars.peek() == Some(&'\n') => c,
            c if c >= '\u{80}' && is_control(c) => '¿',
            c if is_control(c) => '?',
            c => c,
        });
    }
    Cow::Owned(out)
}

fn clean(text: &mut String) {
    if let Cow::Owned(s) = printable(text) {
        *text = s;
    }
}

/// Every text of the reports a renderer for a terminal prints, made [`printable`].
pub(super) fn reports(reports: &mut [FileReport]) {
    for report in reports {
        clean(&mut report.path);
        clean(&mut report.text);
        for d in &mut report.diagnostics {
            clean(&mut d.message);
            d.label.iter_mut().chain(d.path.iter_mut()).chain(d.help.iter_mut()).for_each(clean);
            d.notes.iter_mut().for_each(clean);
            d.secondary.iter_mut().for_each(|l| clean(&mut l.message));
            for r in &mut d.related {
                clean(&mut r.path);
                clean(&mut r.message);
            }
            if let Some(fix) = &mut d.fix {
                clean(&mut fix.message);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_keep_their_length() {
        let text = "a\u{1b}[2J\tb\r\nc\u{9b}31m\u{7}d\re";
        let shown = printable(text);
        assert_eq!(shown, "a?[2J\tb\r\nc¿31m?d?e");
        assert_eq!(shown.len(), text.len());
        assert_eq!(shown.chars().count(), text.chars().count());
        assert!(matches!(printable("plain é"), Cow::Borrowed(_)));
    }
}
