//! Byte spans into one source text, the files they are in, and a span in its file.

use serde::{Deserialize, Serialize};

/// A `[start, end)` byte range into one source text.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Span {
    pub start: u32,
    pub end: u32,
}

impl Span {
    pub const fn new(start: u32, end: u32) -> Self {
        Span { start, end }
    }

    pub fn empty_at(offset: u32) -> Self {
        Span { start: offset, end: offset }
    }

    pub fn len(self) -> u32 {
        self.end - self.start
    }

    pub fn is_empty(self) -> bool {
        self.start == self.end
    }

    pub fn range(self) -> std::ops::Range<usize> {
        self.start as usize..self.end as usize
    }
}

/// A source file, by index into its compilation's file table: a Machine's files in the order
/// the evaluator read them (the entry file is `FileId(0)`); a Chart is one file, `FileId(0)`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct FileId(pub u32);

/// A place in a source file: the file and the span in it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Loc {
    pub file: FileId,
    pub span: Span,
}

impl Loc {
    pub const fn new(file: FileId, span: Span) -> Self {
        Loc { file, span }
    }
}
