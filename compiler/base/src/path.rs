//! Dotted paths of values, as the door's lines and the Machine front end name them
//! (`states.review.invoke.0.input`).

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

impl Segment for compact_str::CompactString {
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
    push_segment(&mut out, segment);
    out
}

/// Appends a segment to a dotted path held in a buffer (with a dot unless the path is empty), and
/// gives the buffer's old length: a walk that builds its paths in one buffer truncates back to it
/// on the way up, and allocates only the paths it keeps (`buf.as_str().to_owned()`, exactly sized).
pub fn push_segment(buf: &mut String, segment: impl Segment) -> usize {
    let len = buf.len();
    if len != 0 {
        buf.push('.');
    }
    segment.push_to(buf);
    len
}

/// A dotted path built on the stack while a walk goes down, and written out only when a line
/// needs it: a walk that finds nothing allocates no path.
#[derive(Clone, Copy, Debug)]
pub struct Path<'a> {
    parent: Option<&'a Path<'a>>,
    segment: Option<PathSegment<'a>>,
}

#[derive(Clone, Copy, Debug)]
enum PathSegment<'a> {
    Key(&'a str),
    Index(usize),
}

impl<'a> From<&'a str> for PathSegment<'a> {
    fn from(k: &'a str) -> Self {
        PathSegment::Key(k)
    }
}

impl<'a> From<&'a String> for PathSegment<'a> {
    fn from(k: &'a String) -> Self {
        PathSegment::Key(k)
    }
}

impl<'a> From<&'a compact_str::CompactString> for PathSegment<'a> {
    fn from(k: &'a compact_str::CompactString) -> Self {
        PathSegment::Key(k)
    }
}

impl From<usize> for PathSegment<'_> {
    fn from(i: usize) -> Self {
        PathSegment::Index(i)
    }
}

impl<'a> Path<'a> {
    /// The Chart itself.
    pub const ROOT: Path<'static> = Path { parent: None, segment: None };

    /// The path one key or index below this one.
    #[allow(private_bounds)]
    pub fn child(&'a self, segment: impl Into<PathSegment<'a>>) -> Path<'a> {
        Path { parent: Some(self), segment: Some(segment.into()) }
    }

    fn write(&self, out: &mut String) {
        if let Some(parent) = self.parent {
            parent.write(out);
        }
        if let Some(seg) = self.segment {
            if !out.is_empty() {
                out.push('.');
            }
            match seg {
                PathSegment::Key(k) => k.push_to(out),
                PathSegment::Index(i) => i.push_to(out),
            }
        }
    }
}

impl std::fmt::Display for Path<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut out = String::new();
        self.write(&mut out);
        f.write_str(&out)
    }
}

/// A list of names as the door's lines write it: comma-separated, or "none"; past
/// [`crate::list::MAX_LISTED`] names, "and N more" (a manifest lending 200 000 Agents makes no
/// message of megabytes).
pub fn names<T: std::fmt::Display>(xs: impl IntoIterator<Item = T>) -> String {
    let mut xs = xs.into_iter().peekable();
    if xs.peek().is_none() {
        "none".to_string()
    } else {
        crate::list::listed(xs)
    }
}

#[cfg(test)]
mod tests {
    use super::{join, names, Path};

    #[test]
    fn names_are_none_or_at_most_twenty_then_how_many_more() {
        assert_eq!(names(Vec::<&str>::new()), "none");
        assert_eq!(names(["a", "b"]), "a, b");
        let many: Vec<String> = (0..6_000).map(|i| format!("n{i}")).collect();
        let listed = names(&many);
        assert!(listed.starts_with("n0, n1, ") && listed.ends_with(", n19, and 5980 more"), "{listed}");
    }

    #[test]
    fn a_path_writes_as_join_does() {
        let root = Path::ROOT;
        let states = root.child("states");
        let key = String::from("review");
        let review = states.child(&key);
        let invoke = review.child("invoke");
        let first = invoke.child(0usize);
        assert_eq!(root.to_string(), "");
        assert_eq!(first.to_string(), "states.review.invoke.0");
        assert_eq!(first.to_string(), join(&join(&join(&join("", "states"), &key), "invoke"), 0usize));
        assert_eq!(join("a", 1234567usize), "a.1234567");
        let mut buf = String::from("states");
        let len = super::push_segment(&mut buf, 3usize);
        assert_eq!((buf.as_str(), len), ("states.3", 6));
    }
}
