//! Byte offsets and LSP positions (0-based lines, columns in UTF-16 code units), and an
//! editor's incremental edits applied to a text.

use base::line_index::{utf16_column_offset, LineIndex, Utf16Position};
use tower_lsp_server::ls_types::{Position, Range, TextDocumentContentChangeEvent};

/// A text and its line index (`base::line_index`, the one of every layer), in the LSP's
/// positions.
pub(crate) struct Lines<'t> {
    text: &'t str,
    index: LineIndex,
}

impl<'t> Lines<'t> {
    pub(crate) fn new(text: &'t str) -> Self {
        Lines { text, index: LineIndex::new(text) }
    }

    /// The position of a byte offset (clamped to the text; inside a character: that character).
    pub(crate) fn position(&self, offset: usize) -> Position {
        let p = self.index.utf16(self.text, offset);
        Position { line: p.line, character: p.character }
    }

    pub(crate) fn range(&self, start: u32, end: u32) -> Range {
        Range { start: self.position(start as usize), end: self.position(end as usize) }
    }

    /// The byte offset of a position: past the line's end it is the line's end, past the last
    /// line the text's end.
    pub(crate) fn offset(&self, p: Position) -> usize {
        self.index.offset_of_utf16(self.text, Utf16Position { line: p.line, character: p.character })
    }
}

/// Applies an editor's changes, in order, to `text`.
pub(crate) fn apply(text: &mut String, changes: &[TextDocumentContentChangeEvent]) {
    for change in changes {
        match change.range {
            None => text.clone_from(&change.text),
            Some(range) => {
                let (a, b) = (offset_of(text, range.start), offset_of(text, range.end));
                let (a, b) = (a.min(b), a.max(b));
                text.replace_range(a..b, &change.text);
            }
        }
    }
}

/// Moves `ranges` (places in a text) through an editor's changes to that text, in order, as the
/// text moved: a place before a change stays, a place after it moves by what the change added
/// or removed, a place inside a replaced range goes to the range's start. `false` when a change
/// replaced the whole text (no range), which no place survives.
pub(crate) fn shift(ranges: &mut [&mut Range], changes: &[TextDocumentContentChangeEvent]) -> bool {
    for change in changes {
        let Some(edit) = change.range else { return false };
        let (start, end) = if (edit.start.line, edit.start.character) <= (edit.end.line, edit.end.character) {
            (edit.start, edit.end)
        } else {
            (edit.end, edit.start)
        };
        let added_lines = change.text.matches('\n').count() as u32;
        let last_line = change.text.rsplit('\n').next().unwrap_or("");
        let last_units = last_line.encode_utf16().count() as u32;
        // A range's end at the change's start stays (text inserted there is after it); a
        // range's start there moves with the text after it.
        let moved = |p: Position, is_end: bool| -> Position {
            if (p.line, p.character) < (start.line, start.character) || (is_end && p == start) {
                p
            } else if (p.line, p.character) < (end.line, end.character) {
                start
            } else if p.line == end.line {
                let character = p.character - end.character;
                if added_lines == 0 {
                    Position { line: start.line, character: start.character + last_units + character }
                } else {
                    Position { line: start.line + added_lines, character: last_units + character }
                }
            } else {
                Position { line: p.line - (end.line - start.line) + added_lines, character: p.character }
            }
        };
        for r in ranges.iter_mut() {
            **r = Range { start: moved(r.start, false), end: moved(r.end, true) };
        }
    }
    true
}

/// [`Lines::offset`] without the whole text's line starts: the lines up to `p`'s only (an
/// edit's place, on every keystroke).
fn offset_of(text: &str, p: Position) -> usize {
    let start = if p.line == 0 {
        0
    } else {
        match text.match_indices('\n').nth(p.line as usize - 1) {
            Some((i, _)) => i + 1,
            None => return text.len(),
        }
    };
    let end = text[start..].find('\n').map_or(text.len(), |i| start + i + 1);
    start + utf16_column_offset(&text[start..end], p.character)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_count_utf16_units() {
        let text = "a\n😀b\nc";
        let lines = Lines::new(text);
        // `b` is after a 4-byte character that is 2 UTF-16 units.
        assert_eq!(lines.position(6), Position { line: 1, character: 2 });
        assert_eq!(lines.offset(Position { line: 1, character: 2 }), 6);
        assert_eq!(lines.offset(Position { line: 9, character: 0 }), text.len());
        assert_eq!(lines.offset(Position { line: 0, character: 99 }), 1);
    }

    /// An edit's offset, found from the lines up to it, is the one the whole text's lines give.
    #[test]
    fn an_edits_offset_is_the_line_index_offset() {
        let text = "a\n😀b\n\ncé\n";
        let lines = Lines::new(text);
        for line in 0..7 {
            for character in 0..6 {
                let p = Position { line, character };
                assert_eq!(offset_of(text, p), lines.offset(p), "{p:?}");
            }
        }
    }

    /// A place moves with the text around it, whatever the change added or removed before it.
    #[test]
    fn places_move_with_the_edits_before_them() {
        let at = |l, c| Position { line: l, character: c };
        let change = |a: Position, b: Position, t: &str| TextDocumentContentChangeEvent {
            range: Some(Range { start: a, end: b }),
            range_length: None,
            text: t.into(),
        };
        let text = "ab\ncd\nef\n";
        // One range per character of the text, then the same edits applied to the text: each
        // range still covers the character it covered (or sits where it was removed).
        let cases: &[(&[TextDocumentContentChangeEvent], &str)] = &[
            (&[change(at(0, 1), at(0, 1), "X")], "aXb\ncd\nef\n"),
            (&[change(at(0, 1), at(0, 1), "X\nY")], "aX\nYb\ncd\nef\n"),
            (&[change(at(0, 2), at(1, 0), "")], "abcd\nef\n"),
            (&[change(at(1, 0), at(1, 2), "😀")], "ab\n😀\nef\n"),
            (&[change(at(0, 0), at(0, 0), "//\n"), change(at(3, 1), at(3, 1), "Z")], "//\nab\ncd\neZf\n"),
        ];
        let chars: Vec<(usize, char)> = text.char_indices().filter(|(_, c)| *c != '\n').collect();
        for (changes, after) in cases {
            let before = Lines::new(text);
            let mut ranges: Vec<Range> =
                chars.iter().map(|(i, _)| Range { start: before.position(*i), end: before.position(*i + 1) }).collect();
            assert!(shift(&mut ranges.iter_mut().collect::<Vec<_>>(), changes));
            let mut edited = text.to_string();
            apply(&mut edited, changes);
            assert_eq!(edited, *after);
            let lines = Lines::new(&edited);
            for ((_, c), r) in chars.iter().zip(&ranges) {
                let (a, b) = (lines.offset(r.start), lines.offset(r.end));
                let covered = &edited[a..b];
                // A surviving character is still under its range; a replaced one's range is
                // within what replaced it (its start, or the new text).
                if after.contains(*c) {
                    assert_eq!(covered, c.to_string(), "{c:?} in {after:?}");
                } else {
                    assert!(changes.iter().any(|ch| ch.text.contains(covered)), "{c:?} -> {covered:?} in {after:?}");
                }
            }
        }
        // A whole-text change: no place survives.
        let mut r = Range { start: at(0, 0), end: at(0, 1) };
        assert!(!shift(
            &mut [&mut r],
            &[TextDocumentContentChangeEvent { range: None, range_length: None, text: "x".into() }]
        ));
    }

    #[test]
    fn edits_apply_in_order() {
        let mut text = "hello\nworld".to_string();
        let at = |l, c| Position { line: l, character: c };
        apply(
            &mut text,
            &[
                TextDocumentContentChangeEvent {
                    range: Some(Range { start: at(1, 0), end: at(1, 5) }),
                    range_length: None,
                    text: "there".into(),
                },
                TextDocumentContentChangeEvent {
                    range: Some(Range { start: at(0, 5), end: at(0, 5) }),
                    range_length: None,
                    text: ",".into(),
                },
            ],
        );
        assert_eq!(text, "hello,\nthere");
    }
}
