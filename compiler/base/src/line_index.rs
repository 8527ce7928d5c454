//! Byte offsets to positions, and back: the one line index of every layer. The renderers and the
//! JSON parser's messages count 1-based lines and columns in characters (Unicode scalar values);
//! the LSP counts 0-based lines and columns in UTF-16 code units ([`LineIndex::utf16`],
//! [`LineIndex::offset_of_utf16`]).
//!
//! Columns are found from a count of the characters (and of the UTF-16 code units) before each
//! block of [`BLOCK`] bytes, so a column on a line of megabytes (a one-line Chart) costs one
//! block's scan, not the line's: many positions on one long line are linear, not quadratic.

/// Bytes per block of the character counts.
const BLOCK: usize = 256;

/// Line starts and per-block character counts of one text. It holds no text: each query is given
/// the text it was made from.
#[derive(Clone, Debug)]
pub struct LineIndex {
    line_starts: Vec<u32>,
    /// The number of characters before each block of [`BLOCK`] bytes.
    chars_before_block: Vec<u32>,
    /// The number of UTF-16 code units before each block: its characters, plus one for each
    /// character outside the Basic Multilingual Plane (a surrogate pair).
    utf16_before_block: Vec<u32>,
}

/// A 1-based line and a 1-based column counted in characters (Unicode scalar values).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Position {
    pub line: u32,
    pub column: u32,
}

/// A 0-based line and a 0-based column counted in UTF-16 code units: the LSP's position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Utf16Position {
    pub line: u32,
    pub character: u32,
}

/// Is this byte the first of a character (not a UTF-8 continuation byte)?
fn starts_char(b: u8) -> bool {
    b & 0xC0 != 0x80
}

/// The UTF-16 code units of the character this byte starts: 2 for a four-byte sequence's first
/// byte (a character past U+FFFF), 0 for a continuation byte, else 1.
fn utf16_units(b: u8) -> u32 {
    u32::from(starts_char(b)) + u32::from(b >= 0xF0)
}

impl LineIndex {
    pub fn new(text: &str) -> Self {
        let mut line_starts = vec![0];
        // `match_indices` of a `char` finds them with `memchr`.
        line_starts.extend(text.match_indices('\n').map(|(i, _)| i as u32 + 1));
        let bytes = text.as_bytes();
        let mut chars_before_block = Vec::with_capacity(bytes.len() / BLOCK + 2);
        let mut utf16_before_block = Vec::with_capacity(bytes.len() / BLOCK + 2);
        let (mut chars, mut units) = (0u32, 0u32);
        for block in bytes.chunks(BLOCK) {
            chars_before_block.push(chars);
            utf16_before_block.push(units);
            let n = block.iter().filter(|&&b| starts_char(b)).count() as u32;
            chars += n;
            units += n + block.iter().filter(|&&b| b >= 0xF0).count() as u32;
        }
        chars_before_block.push(chars);
        utf16_before_block.push(units);
        LineIndex { line_starts, chars_before_block, utf16_before_block }
    }

    /// The number of lines (a text with no newline has one).
    pub fn lines(&self) -> usize {
        self.line_starts.len()
    }

    /// The byte offset where 0-based line `line` starts, if there is such a line.
    pub fn line_start(&self, line: usize) -> Option<usize> {
        self.line_starts.get(line).map(|&s| s as usize)
    }

    /// The 0-based line of a byte offset (clamped to the text).
    fn line_of(&self, text: &str, offset: usize) -> usize {
        let offset = offset.min(text.len());
        self.line_starts.partition_point(|&s| s as usize <= offset) - 1
    }

    /// The number of characters before `offset` (a character that `offset` falls inside counts).
    fn chars_before(&self, bytes: &[u8], offset: usize) -> u32 {
        let block = offset / BLOCK;
        let from = block * BLOCK;
        self.chars_before_block[block] + bytes[from..offset].iter().filter(|&&b| starts_char(b)).count() as u32
    }

    /// The number of UTF-16 code units before `offset` (a character that `offset` falls inside
    /// counts whole).
    fn utf16_before(&self, bytes: &[u8], offset: usize) -> u32 {
        let block = offset / BLOCK;
        let from = block * BLOCK;
        self.utf16_before_block[block] + bytes[from..offset].iter().map(|&b| utf16_units(b)).sum::<u32>()
    }

    /// The position of a byte offset (clamped to the text). An offset inside a character counts
    /// as that character.
    pub fn position(&self, text: &str, offset: u32) -> Position {
        let offset = (offset as usize).min(text.len());
        let line = self.line_of(text, offset);
        let bytes = text.as_bytes();
        let column = self.chars_before(bytes, offset) - self.chars_before(bytes, self.line_starts[line] as usize);
        Position { line: line as u32 + 1, column: column + 1 }
    }

    /// The LSP position of a byte offset (clamped to the text; inside a character: that
    /// character).
    pub fn utf16(&self, text: &str, offset: usize) -> Utf16Position {
        let offset = offset.min(text.len());
        let line = self.line_of(text, offset);
        let bytes = text.as_bytes();
        let character = self.utf16_before(bytes, offset) - self.utf16_before(bytes, self.line_starts[line] as usize);
        Utf16Position { line: line as u32, character }
    }

    /// The byte offset of an LSP position: past the line's end it is the line's end, past the
    /// last line the text's end.
    pub fn offset_of_utf16(&self, text: &str, p: Utf16Position) -> usize {
        let Some(start) = self.line_start(p.line as usize) else { return text.len() };
        let end = self.line_start(p.line as usize + 1).unwrap_or(text.len()).min(text.len());
        start + utf16_column_offset(&text[start..end], p.character)
    }
}

/// The byte offset in one line's text (its `\n` with it or not) of the UTF-16 column `character`:
/// the line's end, before its `\n`, past its last column.
pub fn utf16_column_offset(line: &str, character: u32) -> usize {
    let mut units = 0usize;
    for (i, c) in line.char_indices() {
        if units >= character as usize || c == '\n' {
            return i;
        }
        units += c.len_utf16();
    }
    line.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Columns count characters on any line, the long ones too, and agree with a plain count.
    #[test]
    fn positions_count_characters() {
        let text = format!("[\"{}\",\n\"{}\", {{\"a\": [1\r\n\n", "x".repeat(1000), "é😀".repeat(300));
        let index = LineIndex::new(&text);
        for (offset, _) in text.char_indices().chain([(text.len(), ' ')]) {
            let p = index.position(&text, offset as u32);
            let before = &text[..offset];
            let line = before.matches('\n').count() as u32 + 1;
            let start = before.rfind('\n').map_or(0, |i| i + 1);
            assert_eq!(p, Position { line, column: text[start..offset].chars().count() as u32 + 1 }, "{offset}");
        }
        // Inside a character: that character.
        let at = text.find('é').unwrap();
        assert_eq!(index.position(&text, at as u32 + 1), Position { line: 2, column: 3 });
        assert_eq!(index.position(&text, u32::MAX), index.position(&text, text.len() as u32));
    }

    /// UTF-16 positions go there and back for every character boundary.
    #[test]
    fn utf16_positions_round_trip() {
        let text = "a😀b\nπ\n\nlast";
        let index = LineIndex::new(text);
        assert_eq!(index.utf16(text, 5), Utf16Position { line: 0, character: 3 });
        for (offset, _) in text.char_indices().chain([(text.len(), ' ')]) {
            let p = index.utf16(text, offset);
            assert_eq!(index.offset_of_utf16(text, p), offset, "{p:?}");
        }
        assert_eq!(index.offset_of_utf16(text, Utf16Position { line: 0, character: 99 }), 6);
        assert_eq!(index.offset_of_utf16(text, Utf16Position { line: 9, character: 0 }), text.len());
    }

    /// UTF-16 columns agree with a plain count from the line's start at every byte offset (inside
    /// a character too), on lines of one-, two-, three- and four-byte characters that cross many
    /// blocks, and on a line that starts inside a block.
    #[test]
    fn utf16_columns_count_surrogate_pairs_across_blocks() {
        let text = format!("ab\n{}\n{}x\n{}", "aé€😀".repeat(300), "𝄞".repeat(200), '\u{10FFFF}');
        let index = LineIndex::new(&text);
        let plain = |offset: usize| {
            let before = &text.as_bytes()[..offset];
            let start = before.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
            let line = before.iter().filter(|&&b| b == b'\n').count() as u32;
            let units =
                text[start..].char_indices().take_while(|(i, _)| start + i < offset).map(|(_, c)| c.len_utf16());
            Utf16Position { line, character: units.sum::<usize>() as u32 }
        };
        for offset in 0..=text.len() {
            assert_eq!(index.utf16(&text, offset), plain(offset), "at byte {offset}");
        }
        let second = text.find('é').unwrap() - 1;
        // "aé€😀" is 1 + 1 + 1 + 2 code units.
        assert_eq!(index.utf16(&text, second + "aé€😀".len()), Utf16Position { line: 1, character: 5 });
        let third = text.find('𝄞').unwrap();
        assert_eq!(index.utf16(&text, third + 4 * 200), Utf16Position { line: 2, character: 400 });
        assert_eq!(index.utf16(&text, usize::MAX), Utf16Position { line: 3, character: 2 });
    }

    /// 10 000 positions on a line of a megabyte: each costs a block's scan, not the line's (a
    /// walk from the line's start was 10 000 walks of half a megabyte on average).
    #[test]
    fn many_positions_on_one_long_line_are_linear() {
        let text = "é😀x".repeat(150_000);
        assert!(text.len() >= 1 << 20 && !text.contains('\n'));
        let index = LineIndex::new(&text);
        let started = std::time::Instant::now();
        let mut last = 0;
        for k in 0..10_000usize {
            let offset = (k * 7 * 104_729) % text.len();
            let offset = offset - offset % 7;
            let p = index.utf16(&text, offset);
            // Each "é😀x" is 7 bytes and 4 code units.
            assert_eq!(p, Utf16Position { line: 0, character: (offset / 7 * 4) as u32 });
            last = p.character;
        }
        assert!(last > 0);
        assert!(started.elapsed() < std::time::Duration::from_secs(2), "{:?}", started.elapsed());
    }
}
