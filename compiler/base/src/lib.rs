//! What every layer of jr2c shares: byte spans and the files they are in (`FileId`, `Loc`), line
//! indexes (UTF-8 and UTF-16 columns), the dotted paths of values as the door's lines name them,
//! and a small set for bookkeeping on big input. Knows no format, no rule and no parser.

pub mod line_index;
pub mod list;
pub mod path;
pub mod read;
pub mod small_set;
pub mod span;
pub mod suggest;
pub mod workspace;

pub use span::{FileId, Loc, Span};
