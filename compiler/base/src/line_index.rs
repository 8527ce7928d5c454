//! Byte offsets to 1-based lines and character columns.

/// Line starts of one text, for turning byte offsets into positions.
#[derive(Clone, Debug)]
pub struct LineIndex {
    line_starts: Vec<u32>,
}

/// A 1-based line and a 1-based column counted in characters (Unicode scalar values).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Position {
    pub line: u32,
    pub column: u32,
}

impl LineIndex {
    pub fn new(text: &str) -> Self {
        let mut line_starts = vec![0];
        line_starts.extend(text.bytes().enumerate().filter(|(_, b)| *b == b'\n').map(|(i, _)| i as u32 + 1));
        LineIndex { line_starts }
    }

    /// The position of a byte offset. An offset inside a character counts as that character.
    pub fn position(&self, text: &str, offset: u32) -> Position {
        let offset = (offset as usize).min(text.len());
        let line = self.line_starts.partition_point(|&s| s as usize <= offset) - 1;
        let start = self.line_starts[line] as usize;
        let column = text.get(start..offset).map_or_else(
            || text[start..].char_indices().take_while(|(i, _)| start + i < offset).count(),
            |s| s.chars().count(),
        );
        Position { line: line as u32 + 1, column: column as u32 + 1 }
    }
}
