//! Byte offsets and LSP positions (0-based lines, columns in UTF-16 code units), and an
//! editor's incremental edits applied to a text.

use tower_lsp_server::ls_types::{Position, Range, TextDocumentContentChangeEvent};

/// The line starts of one text.
pub struct Lines<'t> {
    text: &'t str,
    starts: Vec<usize>,
}

impl<'t> Lines<'t> {
    pub fn new(text: &'t str) -> Self {
        let mut starts = vec![0];
        // `match_indices` of a `char` finds them with `memchr`.
        starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        Lines { text, starts }
    }

    /// The position of a byte offset (clamped to the text; inside a character: that character).
    pub fn position(&self, offset: usize) -> Position {
        let offset = offset.min(self.text.len());
        let line = self.starts.partition_point(|&s| s <= offset) - 1;
        let start = self.starts[line];
        let character: usize =
            self.text[start..].char_indices().take_while(|(i, _)| start + i < offset).map(|(_, c)| c.len_utf16()).sum();
        Position { line: line as u32, character: character as u32 }
    }

    pub fn range(&self, start: u32, end: u32) -> Range {
        Range { start: self.position(start as usize), end: self.position(end as usize) }
    }

    /// The byte offset of a position: past the line's end it is the line's end, past the last
    /// line the text's end.
    pub fn offset(&self, p: Position) -> usize {
        let Some(&start) = self.starts.get(p.line as usize) else { return self.text.len() };
        let end = self.starts.get(p.line as usize + 1).map_or(self.text.len(), |&e| e);
        let mut units = 0usize;
        for (i, c) in self.text[start..end].char_indices() {
            if units >= p.character as usize || c == '\n' {
                return start + i;
            }
            units += c.len_utf16();
        }
        end
    }
}

/// Applies an editor's changes, in order, to `text`.
pub fn apply(text: &mut String, changes: &[TextDocumentContentChangeEvent]) {
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
    let mut units = 0usize;
    for (i, c) in text[start..end].char_indices() {
        if units >= p.character as usize || c == '\n' {
            return start + i;
        }
        units += c.len_utf16();
    }
    end
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
