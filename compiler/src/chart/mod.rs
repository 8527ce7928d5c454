//! Charts: the grammar (as Rust types and JSON Schema), the lend manifest, the briefing, and the
//! door that admits or refuses a Chart against one Open body.
//!
//! Boundary: this module reads the spanned JSON tree of `syntax::json`; it never parses text
//! itself. The door lowers an admitted Chart into the IR (`crate::ir`).

pub mod briefing;
pub mod door;
pub mod grammar;
pub mod lends;
pub mod lower;
pub mod payload;
pub mod schema;

pub use door::{admit, Admission};
pub use lends::LendManifest;
pub use crate::syntax::json::Json;

/// The dotted path of a value as the door's lines name it (`states.review.invoke.0.input`);
/// the empty path is the Chart itself.
pub fn path_text(path: &str) -> &str {
    if path.is_empty() {
        "(chart)"
    } else {
        path
    }
}

/// One segment of a dotted path: a key or an index.
pub trait Segment {
    fn push_to(&self, out: &mut String);
}

impl Segment for str {
    fn push_to(&self, out: &mut String) {
        out.push_str(self);
    }
}

impl Segment for String {
    fn push_to(&self, out: &mut String) {
        out.push_str(self);
    }
}

impl Segment for usize {
    fn push_to(&self, out: &mut String) {
        let mut buf = [0u8; 20];
        let mut at = buf.len();
        let mut n = *self;
        loop {
            at -= 1;
            buf[at] = b'0' + (n % 10) as u8;
            n /= 10;
            if n == 0 {
                break;
            }
        }
        out.push_str(std::str::from_utf8(&buf[at..]).unwrap_or_default());
    }
}

impl<T: Segment + ?Sized> Segment for &T {
    fn push_to(&self, out: &mut String) {
        (**self).push_to(out);
    }
}

/// Joins a path and a segment with a dot. On every hot path of the door: no `format!`.
pub fn join(path: &str, segment: impl Segment) -> String {
    let mut out = String::with_capacity(path.len() + 16);
    out.push_str(path);
    if !path.is_empty() {
        out.push('.');
    }
    segment.push_to(&mut out);
    out
}

/// A list of names as the door's lines write it: comma-separated, or "none".
pub fn names<S: AsRef<str>>(xs: &[S]) -> String {
    if xs.is_empty() {
        "none".to_string()
    } else {
        xs.iter().map(|s| s.as_ref()).collect::<Vec<_>>().join(", ")
    }
}
