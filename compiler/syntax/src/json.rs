//! A spanned JSON tree and its parser.
//!
//! Every key and every value keeps its byte span. The parser never fails: it returns a tree and
//! its errors, recovering at each member and element so that a half-typed file keeps its
//! siblings. Depth and size are bounded: past them the parser reports one error and skips, so no
//! input can overflow the stack or hang it.
//!
//! The tree borrows: a string or key without escapes is a slice of the text, and every array's
//! elements, object's members and unescaped string live in one [`Arena`] that the caller gives
//! the parse, so that a Chart's tree is a few allocations and freeing it is dropping the arena.

use base::line_index::LineIndex;
use base::Span;

/// Where a parse puts its tree (bumpalo's bump arena): what it holds is freed at once, when it
/// is dropped. One per text parsed, or reused for several with [`Arena::reset`] between.
pub type Arena = bumpalo::Bump;

/// An arena sized for the tree of `text`, so that its parse allocates once or twice: a
/// pretty-printed Chart's tree takes about 1.5 bytes per byte of its text (the generated Charts
/// of `bench/gen-charts.mjs`), a minified text's more. A text past the default size limit, which
/// the parse refuses unread, gets an empty one.
pub fn arena_for(text: &str) -> Arena {
    if text.len() > Limits::default().max_bytes {
        return Arena::new();
    }
    Arena::with_capacity(text.len() * 2)
}

// An arena never runs its values' destructors: a tree must own nothing to free (no `String`,
// no `Vec`; `serde_json::Number` owns nothing without `arbitrary_precision`).
const _: () = assert!(!std::mem::needs_drop::<Json<'static>>() && !std::mem::needs_drop::<Member<'static>>());

/// One JSON value with its span; `'a` is the text's and the [`Arena`]'s.
#[derive(Clone, Debug, PartialEq)]
pub struct Json<'a> {
    pub kind: JsonKind<'a>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum JsonKind<'a> {
    Null,
    Bool(bool),
    Number(serde_json::Number),
    String(&'a str),
    Array(&'a [Json<'a>]),
    Object(Members<'a>),
    /// A value the parser could not read; its error is in [`Parsed::errors`].
    Error,
}

/// One `"key": value` member of an object, in source order. Duplicate keys are kept; lookups
/// take the last one, as `JSON.parse` does.
#[derive(Clone, Debug, PartialEq)]
pub struct Member<'a> {
    pub key: &'a str,
    pub key_span: Span,
    pub value: Json<'a>,
}

/// An object's members in source order (a slice of them, through `Deref`), and whether a key
/// repeats among them: [`Json::entries`] reads an object whose keys are all different without
/// looking for repeats (the parser notes them as each object closes).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Members<'a> {
    members: &'a [Member<'a>],
    repeats: bool,
}

impl<'a> Members<'a> {
    /// `members`, looked through once for a key given twice.
    pub fn new(members: &'a [Member<'a>]) -> Self {
        let mut found = Vec::new();
        note_duplicates(members, Span::default(), &mut found);
        Members { members, repeats: !found.is_empty() }
    }

    /// No members.
    pub const EMPTY: Members<'static> = Members { members: &[], repeats: false };

    /// The members as a slice, for the text's lifetime.
    pub fn as_slice(&self) -> &'a [Member<'a>] {
        self.members
    }

    /// Whether some key is given more than once.
    pub fn repeats(&self) -> bool {
        self.repeats
    }
}

impl<'a> std::ops::Deref for Members<'a> {
    type Target = [Member<'a>];

    fn deref(&self) -> &[Member<'a>] {
        self.members
    }
}

// The flag takes no room: the enum's tag lives in the bool's unused values, so a value is still
// 32 bytes (what a tree costs per value is what `Limits::max_values` budgets).
const _: () = assert!(std::mem::size_of::<Json<'static>>() == 32);

/// What went wrong while parsing, at its own span.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JsonError {
    pub(crate) kind: JsonErrorKind,
    pub message: String,
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum JsonErrorKind {
    /// Malformed JSON.
    Syntax,
    /// Nesting deeper than [`Limits::max_depth`].
    TooDeep,
    /// A text longer than [`Limits::max_bytes`], or holding more than [`Limits::max_values`]
    /// values.
    TooLarge,
}

/// The largest [`Limits::max_depth`] honoured, so that no limit can overflow the stack: a level
/// costs about 2.5 KB of stack in a debug build (three frames: value, container, array or
/// object), so 512 levels stay inside the 2 MiB of a test's or a spawned thread's stack.
pub(crate) const MAX_DEPTH_CAP: usize = 512;

/// Bounds on what the parser reads.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Limits {
    /// The deepest nesting of arrays and objects read; deeper values are skipped with an error.
    /// The parser recurses once per level, so values above [`MAX_DEPTH_CAP`] act as it.
    pub(crate) max_depth: usize,
    pub(crate) max_bytes: usize,
    /// The most values (of any kind, at any depth, object members' values included) read; past
    /// them the parser reports one error and reads no further. A tree costs about 40 bytes a
    /// value (72 a member), so 64 MiB of `[0,0,...]` would be 33 million values, over 2.5 GB with
    /// the parser's stack (and a Chart's lowering and IR copy it again: 6 GB in `jr2 ir`);
    /// [`MAX_VALUES`] keeps a tree under about 150 MB whatever the text.
    pub(crate) max_values: usize,
}

/// The default [`Limits::max_values`]: 1 Mi values, far past any Chart (at most 200 states), lend
/// manifest or JSON Schema written by hand or generated (a chain of 200 000 states is 600 000).
pub(crate) const MAX_VALUES: usize = 1 << 20;

impl Default for Limits {
    fn default() -> Self {
        Limits { max_depth: 256, max_bytes: 64 * 1024 * 1024, max_values: MAX_VALUES }
    }
}

/// A parsed text: the tree (possibly with [`JsonKind::Error`] nodes), the errors, and the keys
/// given again in their object.
#[derive(Clone, Debug)]
pub struct Parsed<'a> {
    pub value: Json<'a>,
    pub errors: Vec<JsonError>,
    /// Every key given again in its object, noted as the parser reads the object, in the order of
    /// [`duplicate_keys`].
    pub duplicates: Vec<DuplicateKey>,
}

/// A key given again in one object: the object (by its span) and the members' indices.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DuplicateKey {
    /// The span of the object that repeats the key.
    pub object: Span,
    /// The index of the repeated member in the object's members.
    pub again: u32,
    /// The index of the key's first member.
    pub first: u32,
}

/// Objects of up to this many keys are searched for a repeat pairwise (no allocation); larger
/// ones through a set.
const SMALL_OBJECT: usize = 16;

/// Whether two keys are the same: `a == b`, without the call to `memcmp` that comparing two
/// slices makes for a short key, and with the first bytes compared before it for a long one.
/// Keys of one object mostly differ in length or in their first byte, and every lookup of a
/// member and every walk of an object's members compares keys (the door reads each Chart's keys
/// a few times over).
#[inline]
pub fn same_key(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    // A Chart's keys are short: compared here, byte by byte, without the call.
    if a.len() <= 8 {
        return a.iter().zip(b).all(|(x, y)| x == y);
    }
    a.first() == b.first() && a == b
}

/// Notes each member of an object whose key an earlier member already gave, with that earlier
/// (first) member.
fn note_duplicates(members: &[Member<'_>], object: Span, out: &mut Vec<DuplicateKey>) {
    if members.len() <= SMALL_OBJECT {
        for (i, m) in members.iter().enumerate().skip(1) {
            if let Some(first) = members[..i].iter().position(|o| same_key(o.key, m.key)) {
                out.push(DuplicateKey { object, again: i as u32, first: first as u32 });
            }
        }
        return;
    }
    let mut seen: std::collections::HashMap<&str, u32> = std::collections::HashMap::with_capacity(members.len());
    for (i, m) in members.iter().enumerate() {
        match seen.entry(m.key) {
            std::collections::hash_map::Entry::Occupied(first) => {
                out.push(DuplicateKey { object, again: i as u32, first: *first.get() })
            }
            std::collections::hash_map::Entry::Vacant(v) => {
                v.insert(i as u32);
            }
        }
    }
}

/// Orders duplicates as a walk of the tree meets them: objects in source order (the outer
/// before the inner), then members in order.
fn sort_duplicates(found: &mut [DuplicateKey]) {
    found.sort_by_key(|d| (d.object.start, d.again));
}

/// The keys given again in their objects anywhere in `value`, as [`Parsed::duplicates`] has
/// them: for a tree not straight from [`parse`].
pub fn duplicate_keys(value: &Json<'_>) -> Vec<DuplicateKey> {
    let mut out = Vec::new();
    let mut stack = vec![value];
    while let Some(v) = stack.pop() {
        match &v.kind {
            JsonKind::Object(members) => {
                note_duplicates(members, v.span, &mut out);
                stack.extend(members.iter().map(|m| &m.value));
            }
            JsonKind::Array(items) => stack.extend(items.iter()),
            _ => {}
        }
    }
    sort_duplicates(&mut out);
    out
}

impl<'a> Json<'a> {
    /// The object of `value` (at any depth) whose span is `span`, with its dotted path steps.
    /// Each step is a key or an array index, from `value` down.
    pub fn find_object(&self, span: Span) -> Option<(&Json<'a>, Vec<PathStep<'a>>)> {
        fn find<'s, 'a>(
            v: &'s Json<'a>,
            span: Span,
            prune: bool,
            steps: &mut Vec<PathStep<'a>>,
        ) -> Option<&'s Json<'a>> {
            if v.span == span && v.is_object() {
                return Some(v);
            }
            let inside = |c: &Json<'_>| !prune || (c.span.start <= span.start && span.end <= c.span.end);
            match v.kind {
                JsonKind::Object(members) => {
                    for m in members.as_slice().iter().filter(|m| inside(&m.value)) {
                        steps.push(PathStep::Key(m.key));
                        if let Some(found) = find(&m.value, span, prune, steps) {
                            return Some(found);
                        }
                        steps.pop();
                    }
                }
                JsonKind::Array(items) => {
                    for (i, item) in items.iter().enumerate().filter(|(_, c)| inside(c)) {
                        steps.push(PathStep::Index(i));
                        if let Some(found) = find(item, span, prune, steps) {
                            return Some(found);
                        }
                        steps.pop();
                    }
                }
                _ => {}
            }
            None
        }
        // Children lie inside their parents in any tree the parser made; a tree made otherwise
        // is searched whole.
        [true, false].into_iter().find_map(|prune| {
            let mut steps = Vec::new();
            find(self, span, prune, &mut steps).map(|found| (found, steps))
        })
    }
}

/// One step of a value's dotted path: a key of its object or an index of its array.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PathStep<'a> {
    Key(&'a str),
    Index(usize),
}

impl<'a> Json<'a> {
    pub fn as_str(&self) -> Option<&'a str> {
        match self.kind {
            JsonKind::String(s) => Some(s),
            _ => None,
        }
    }

    pub fn as_bool(&self) -> Option<bool> {
        match self.kind {
            JsonKind::Bool(b) => Some(b),
            _ => None,
        }
    }

    pub fn as_f64(&self) -> Option<f64> {
        match &self.kind {
            JsonKind::Number(n) => n.as_f64(),
            _ => None,
        }
    }

    pub fn as_array(&self) -> Option<&'a [Json<'a>]> {
        match self.kind {
            JsonKind::Array(items) => Some(items),
            _ => None,
        }
    }

    pub fn as_object(&self) -> Option<&'a [Member<'a>]> {
        match self.kind {
            JsonKind::Object(members) => Some(members.as_slice()),
            _ => None,
        }
    }

    pub fn is_object(&self) -> bool {
        matches!(self.kind, JsonKind::Object(_))
    }

    pub fn is_null(&self) -> bool {
        matches!(self.kind, JsonKind::Null)
    }

    /// The value of `key` (the last one, if the key repeats), for an object.
    pub fn get(&self, key: &str) -> Option<&'a Json<'a>> {
        self.member(key).map(|m| &m.value)
    }

    /// The member `key` (the last one, if the key repeats), for an object.
    pub fn member(&self, key: &str) -> Option<&'a Member<'a>> {
        self.as_object()?.iter().rev().find(|m| same_key(m.key, key))
    }

    /// The members of an object, each key once (its last occurrence), in first-seen order.
    pub fn entries(&self) -> impl Iterator<Item = &'a Member<'a>> {
        let (members, repeats) = match self.kind {
            JsonKind::Object(m) => (m.as_slice(), m.repeats()),
            _ => (&[][..], false),
        };
        // No key given twice (what the parser found as it closed the object): every member.
        // Small objects: compare with the later members; large ones: one pass with a set.
        let keep: Option<Vec<bool>> = (repeats && members.len() > 16).then(|| {
            let mut seen = std::collections::HashSet::with_capacity(members.len());
            let mut keep = vec![false; members.len()];
            for (i, m) in members.iter().enumerate().rev() {
                keep[i] = seen.insert(m.key);
            }
            keep
        });
        members
            .iter()
            .enumerate()
            .filter(move |(i, m)| match &keep {
                Some(keep) => keep[*i],
                None => !repeats || !members[i + 1..].iter().any(|later| same_key(later.key, m.key)),
            })
            .map(|(_, m)| m)
    }

    /// What kind of value this is, in JSON Schema's words.
    pub fn type_name(&self) -> &'static str {
        match &self.kind {
            JsonKind::Null => "null",
            JsonKind::Bool(_) => "boolean",
            JsonKind::Number(_) => "number",
            JsonKind::String(_) => "string",
            JsonKind::Array(_) => "array",
            JsonKind::Object(_) => "object",
            JsonKind::Error => "error",
        }
    }

    /// The plain value, without spans. `Error` nodes become `null`.
    pub fn to_value(&self) -> serde_json::Value {
        use serde_json::Value;
        match &self.kind {
            JsonKind::Null | JsonKind::Error => Value::Null,
            JsonKind::Bool(b) => Value::Bool(*b),
            JsonKind::Number(n) => Value::Number(n.clone()),
            JsonKind::String(s) => Value::String((*s).to_owned()),
            JsonKind::Array(items) => Value::Array(items.iter().map(Json::to_value).collect()),
            JsonKind::Object(_) => {
                Value::Object(self.entries().map(|m| (m.key.to_owned(), m.value.to_value())).collect())
            }
        }
    }
}

/// Parses `text` with the default [`Limits`], its tree in `arena`.
pub fn parse<'a>(text: &'a str, arena: &'a Arena) -> Parsed<'a> {
    parse_with(text, Limits::default(), arena)
}

/// Parses `text`. Never fails and never panics.
///
/// The parser is a recursive descent over bytes, at most [`Limits::max_depth`] frames deep; a
/// value nested deeper is reported once and skipped by counting brackets. Errors come back sorted
/// by their start; past [`MAX_ERRORS`] one last error says the rest are not reported.
pub(crate) fn parse_with<'a>(text: &'a str, limits: Limits, arena: &'a Arena) -> Parsed<'a> {
    if text.len() > limits.max_bytes || text.len() > u32::MAX as usize {
        let span = Span::empty_at(0);
        let message = format!("the file is {} bytes; the limit is {} bytes", text.len(), limits.max_bytes);
        return Parsed {
            value: Json { kind: JsonKind::Error, span },
            errors: vec![JsonError { kind: JsonErrorKind::TooLarge, message, span }],
            duplicates: Vec::new(),
        };
    }
    let mut p = Parser::new(text, limits, arena);
    let value = p.document();
    let mut errors = p.errors;
    errors.sort_by_key(|e| (e.span.start, e.span.end));
    let mut duplicates = p.duplicates;
    sort_duplicates(&mut duplicates);
    Parsed { value, errors, duplicates }
}

/// Past this many errors the parser stops reporting (one last error says so) but reads on, so that
/// a file of junk costs linear time and bounded memory.
pub(crate) const MAX_ERRORS: usize = 10_000;

/// What a container loop expects next.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Expect {
    /// A key (objects) or an element (arrays): after the opening bracket or a comma.
    Item,
    /// A comma or the closing bracket, after an item.
    Separator,
    /// As `Separator`, right after skipped junk (already reported): a string starts the next
    /// item without a "missing comma" error.
    SeparatorAfterJunk,
}

struct Parser<'a> {
    text: &'a str,
    bytes: &'a [u8],
    /// Where the containers' items and unescaped strings go.
    arena: &'a Arena,
    pos: usize,
    /// The end of the last token read: where a missing token is reported.
    last_end: usize,
    limits: Limits,
    /// The closing bracket of each open container, outermost first.
    open: Vec<u8>,
    errors: Vec<JsonError>,
    /// Containers still open at the end of the text, innermost first, with their opening offset.
    unclosed: Vec<(u8, usize)>,
    /// Where the end of the text was first met inside a container.
    unclosed_at: usize,
    lines: Option<LineIndex>,
    /// The end of the last unterminated string: its missing quote already explains a missing
    /// comma there.
    unterminated_end: usize,
    /// The keys given again in their objects, as each object closes.
    duplicates: Vec<DuplicateKey>,
    /// The members of the objects being read, innermost last.
    members: Vec<Member<'a>>,
    /// The elements of the arrays being read, innermost last.
    items: Vec<Json<'a>>,
    /// A string with escapes, unescaped, before it goes into the arena.
    unescaped: String,
    /// The values read so far, against [`Limits::max_values`].
    values: usize,
    /// Past [`Limits::max_values`]: the rest of the text is not read (and no bracket left open
    /// by that is reported).
    stopped: bool,
}

/// Moves `stack[base..]` into the arena as one slice, in one copy: a container's members or
/// items, off the parser's stack as it closes. (bumpalo's `alloc_slice_fill_iter` over a `Drain`
/// moves them one at a time: 4% of the door's time in Node, most of it in this loop.)
fn move_to_arena<'a, T>(arena: &'a Arena, stack: &mut Vec<T>, base: usize) -> &'a [T] {
    // What the arena holds is never dropped, and the stack forgets what it gave: sound only for
    // values that own nothing, as the tree's do (the assertion at the top of this file).
    const { assert!(!std::mem::needs_drop::<T>()) };
    let moved = &stack[base..];
    let n = moved.len();
    if n == 0 {
        return &[];
    }
    let dst = arena.alloc_layout(std::alloc::Layout::for_value(moved)).cast::<T>();
    // SAFETY: `dst` is fresh arena memory laid out for `n` values of `T`, apart from `stack`'s
    // buffer; the `n` values are copied once and `set_len` makes the stack forget them (no drop
    // is skipped: `T` needs none), so each value has exactly one owner, the arena's slice, which
    // lives as long as the arena.
    unsafe {
        std::ptr::copy_nonoverlapping(moved.as_ptr(), dst.as_ptr(), n);
        stack.set_len(base);
        std::slice::from_raw_parts(dst.as_ptr(), n)
    }
}

fn span(start: usize, end: usize) -> Span {
    Span::new(start as u32, end as u32)
}

/// Bytes that can start a value (or a malformed value we read as one token).
fn starts_value(b: u8) -> bool {
    matches!(b, b'"' | b'\'' | b'{' | b'[' | b'-' | b'+' | b'.' | b'0'..=b'9') || starts_word(b)
}

fn starts_word(b: u8) -> bool {
    b.is_ascii_alphabetic() || b == b'_' || b == b'$'
}

fn in_word(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'$'
}

/// Bytes of a number token: the grammar's and whatever a malformed number glues to them.
fn in_number(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'.' | b'+' | b'-' | b'_')
}

/// The length of the UTF-8 character whose first byte is `b`.
fn char_len(b: u8) -> usize {
    match b {
        0xF0..=0xFF => 4,
        0xE0..=0xEF => 3,
        0xC0..=0xDF => 2,
        _ => 1,
    }
}

/// The eight bytes at `at`, if the text has them, the first in the lowest byte of the word.
#[inline]
fn word_at(bytes: &[u8], at: usize) -> Option<u64> {
    let chunk: [u8; 8] = bytes.get(at..at + 8)?.try_into().ok()?;
    Some(u64::from_le_bytes(chunk))
}

/// The high bit of each byte of `w` that is `q`, a backslash or below U+0020, and possibly of
/// bytes after the first such (a borrow carries upwards), never of one before it: so the lowest
/// set bit, if any, is the first byte that may end a string's run. Eight bytes tested at once.
#[inline]
fn string_stops(w: u64, q: u8) -> u64 {
    const ONES: u64 = u64::from_ne_bytes([0x01; 8]);
    const HIGH: u64 = u64::from_ne_bytes([0x80; 8]);
    let zero_in = |x: u64| x.wrapping_sub(ONES) & !x & HIGH;
    let quote = zero_in(w ^ ONES.wrapping_mul(q as u64));
    let backslash = zero_in(w ^ ONES.wrapping_mul(b'\\' as u64));
    let control = w.wrapping_sub(ONES.wrapping_mul(0x20)) & !w & HIGH;
    quote | backslash | control
}

/// Past a string's plain bytes from `i`, eight at a time: the first byte that may end the run
/// (see [`string_stops`]), or where fewer than eight bytes are left.
#[inline(always)]
fn plain_run(bytes: &[u8], mut i: usize, q: u8) -> usize {
    while let Some(w) = word_at(bytes, i) {
        let stops = string_stops(w, q);
        if stops != 0 {
            return i + (stops.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    i
}

/// How many of the eight bytes of `w` (as [`word_at`] reads them) are spaces before the first
/// that is not.
#[inline]
fn leading_spaces(w: u64) -> usize {
    ((w ^ u64::from_ne_bytes([b' '; 8])).trailing_zeros() / 8) as usize
}

fn hex_digit(b: u8) -> Option<u16> {
    match b {
        b'0'..=b'9' => Some((b - b'0') as u16),
        b'a'..=b'f' => Some((b - b'a' + 10) as u16),
        b'A'..=b'F' => Some((b - b'A' + 10) as u16),
        _ => None,
    }
}

fn container_name(closer: u8) -> &'static str {
    if closer == b'}' {
        "object"
    } else {
        "array"
    }
}

impl<'a> Parser<'a> {
    fn new(text: &'a str, limits: Limits, arena: &'a Arena) -> Self {
        Parser {
            text,
            bytes: text.as_bytes(),
            arena,
            pos: 0,
            last_end: 0,
            limits,
            open: Vec::new(),
            errors: Vec::new(),
            unclosed: Vec::new(),
            unclosed_at: 0,
            lines: None,
            unterminated_end: usize::MAX,
            duplicates: Vec::new(),
            members: Vec::new(),
            items: Vec::new(),
            unescaped: String::new(),
            values: 0,
            stopped: false,
        }
    }

    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    /// Consumes `n` bytes of one token.
    fn bump(&mut self, n: usize) {
        self.pos += n;
        self.last_end = self.pos;
    }

    fn error(&mut self, kind: JsonErrorKind, at: Span, message: impl Into<String>) {
        if self.errors.len() < MAX_ERRORS {
            self.errors.push(JsonError { kind, message: message.into(), span: at });
        } else if self.errors.len() == MAX_ERRORS {
            let message = format!("more than {MAX_ERRORS} errors; the rest are not reported");
            self.errors.push(JsonError { kind: JsonErrorKind::Syntax, message, span: at });
        }
    }

    fn syntax(&mut self, at: Span, message: impl Into<String>) {
        self.error(JsonErrorKind::Syntax, at, message);
    }

    /// "line L, column C" of a byte offset.
    fn position(&mut self, offset: usize) -> String {
        let text = self.text;
        let lines = self.lines.get_or_insert_with(|| LineIndex::new(text));
        let base::line_index::Position { line, column } = lines.position(text, offset as u32);
        format!("line {line}, column {column}")
    }

    /// The token at `at`, for "found …" messages: its span and its description.
    fn found(&self, at: usize) -> (Span, String) {
        let Some(&b) = self.bytes.get(at) else {
            return (span(at, at), "the end of the file".to_owned());
        };
        let end = if b == b'"' || b == b'\'' {
            return (span(at, self.raw_string_end(at)), "a string".to_owned());
        } else if in_number(b) {
            at + self.bytes[at..].iter().take_while(|&&c| in_number(c)).count()
        } else {
            (at + char_len(b)).min(self.bytes.len())
        };
        let token = &self.text[at..end];
        let shown = if token.len() > 32 {
            format!("`{}…`", &token[..32])
        } else if b < 0x20 || b == 0x7f {
            format!("U+{b:04X}")
        } else {
            format!("`{token}`")
        };
        (span(at, end), shown)
    }

    /// Skips whitespace, and comments with an error each. Inline for what a parse meets most
    /// (no whitespace, between a key and its `:` or a value and its `,`; one space, after a `:`),
    /// [`Parser::skip_ws_run`] for the rest.
    #[inline(always)]
    fn skip_ws(&mut self) {
        // Every byte of whitespace is below `!`; `/` may start a comment.
        let plain = |b: u8| b > b' ' && b != b'/';
        let Some(&b) = self.bytes.get(self.pos) else { return };
        if plain(b) {
            return;
        }
        if b == b' ' && self.bytes.get(self.pos + 1).is_some_and(|&c| plain(c)) {
            self.pos += 1;
            return;
        }
        self.skip_ws_run();
    }

    /// [`Parser::skip_ws`] from a byte of whitespace or a `/`, or another byte below `!` (which
    /// it leaves where it is).
    #[inline(never)]
    fn skip_ws_run(&mut self) {
        let bytes = self.bytes;
        let mut pos = self.pos;
        loop {
            match bytes.get(pos) {
                Some(b' ' | b'\t') => pos += 1,
                Some(b'\n' | b'\r') => {
                    // A pretty-printed text's indentation: spaces eight at a time, up to the
                    // first that is not one.
                    pos += 1;
                    while let Some(chunk) = word_at(bytes, pos) {
                        let n = leading_spaces(chunk);
                        pos += n;
                        if n < 8 {
                            break;
                        }
                    }
                }
                Some(b'/') if matches!(bytes.get(pos + 1), Some(b'/' | b'*')) => {
                    let start = pos;
                    if bytes[pos + 1] == b'/' {
                        pos += bytes[start..].iter().position(|&c| c == b'\n').unwrap_or(bytes.len() - start);
                    } else {
                        pos = bytes[start + 2..]
                            .windows(2)
                            .position(|w| w == b"*/")
                            .map_or(bytes.len(), |i| start + 2 + i + 2);
                    }
                    self.syntax(span(start, pos), "comments are not allowed in JSON");
                }
                _ => break,
            }
        }
        self.pos = pos;
    }

    /// The whole text: one value, then nothing.
    fn document(&mut self) -> Json<'a> {
        if self.text.starts_with('\u{feff}') {
            self.pos = 3;
            self.last_end = 3;
        }
        self.skip_ws();
        let value = match self.peek() {
            None => {
                self.syntax(span(self.last_end, self.last_end), "expected a JSON value, found the end of the file");
                Json { kind: JsonKind::Error, span: span(self.last_end, self.last_end) }
            }
            Some(b) if starts_value(b) => self.value(),
            Some(_) => {
                let (at, found) = self.found(self.pos);
                self.syntax(at, format!("expected a JSON value, found {found}"));
                // Skip to the first thing that can start a value and read it.
                while let Some(b) = self.peek() {
                    if starts_value(b) {
                        break;
                    }
                    self.pos += char_len(b);
                    self.skip_ws();
                }
                self.pos = self.pos.min(self.bytes.len());
                if self.peek().is_some() {
                    self.value()
                } else {
                    Json { kind: JsonKind::Error, span: at }
                }
            }
        };
        self.report_unclosed();
        self.skip_ws();
        if self.pos < self.bytes.len() {
            let (at, found) = self.found(self.pos);
            self.syntax(at, format!("unexpected {found} after the JSON value"));
        }
        value
    }

    /// One error for every container left open at the end of the text.
    fn report_unclosed(&mut self) {
        if self.stopped {
            return;
        }
        let Some(&(closer, open)) = self.unclosed.first() else { return };
        let what = container_name(closer);
        let opened = self.position(open);
        let n = self.unclosed.len();
        let message = if n == 1 {
            format!("missing `{}` to close the {what} opened at {opened}", closer as char)
        } else if n <= 16 {
            let all: String = self.unclosed.iter().map(|&(c, _)| c as char).collect();
            format!("missing `{all}` at the end of the file; the innermost unclosed {what} was opened at {opened}")
        } else {
            format!("missing {n} closing brackets at the end of the file; the innermost unclosed {what} was opened at {opened}")
        };
        let at = span(self.unclosed_at, self.unclosed_at);
        self.syntax(at, message);
    }

    /// A container meets the end of the text.
    fn unclosed(&mut self, closer: u8, open: usize) {
        if self.unclosed.is_empty() {
            self.unclosed_at = self.last_end;
        }
        self.unclosed.push((closer, open));
    }

    /// A container ends without its closing bracket, before `self.pos`.
    fn missing_closer(&mut self, closer: u8, open: usize) {
        if self.errors.len() > MAX_ERRORS {
            return;
        }
        let opened = self.position(open);
        let message =
            format!("missing `{}` to close the {} opened at {opened}", closer as char, container_name(closer));
        self.syntax(span(self.last_end, self.last_end), message);
    }

    /// Whether a container enclosing the current one closes with `closer`.
    fn enclosing(&self, closer: u8) -> bool {
        self.open[..self.open.len().saturating_sub(1)].contains(&closer)
    }

    /// Whether the container directly enclosing the current one closes with `closer`.
    fn parent_is(&self, closer: u8) -> bool {
        self.open.len() >= 2 && self.open[self.open.len() - 2] == closer
    }

    /// A value at `self.pos`, which holds a byte for which [`starts_value`] holds.
    fn value(&mut self) -> Json<'a> {
        self.values += 1;
        if self.values > self.limits.max_values {
            return self.stop();
        }
        match self.bytes[self.pos] {
            b @ (b'{' | b'[') => self.container(b),
            q @ (b'"' | b'\'') => {
                let (s, at) = self.string(q);
                Json { kind: JsonKind::String(s), span: at }
            }
            b'-' | b'+' | b'.' | b'0'..=b'9' => self.number(),
            _ => self.word(),
        }
    }

    /// Past [`Limits::max_values`]: one error at this value, and the rest of the text is skipped
    /// unread, so that the tree stays within the budget whatever the text holds.
    fn stop(&mut self) -> Json<'a> {
        let at = span(self.pos, self.pos + 1);
        let max = self.limits.max_values;
        let message = format!("the file holds more than {max} JSON values; jr2 reads at most {max}, and not the rest");
        self.error(JsonErrorKind::TooLarge, at, message);
        self.stopped = true;
        self.pos = self.bytes.len();
        self.last_end = self.pos;
        Json { kind: JsonKind::Error, span: at }
    }

    fn container(&mut self, b: u8) -> Json<'a> {
        let max_depth = self.limits.max_depth.min(MAX_DEPTH_CAP);
        if self.open.len() >= max_depth {
            let start = self.pos;
            let message = format!("nesting deeper than {max_depth} levels");
            self.error(JsonErrorKind::TooDeep, span(start, start + 1), message);
            self.skip_nested();
            return Json { kind: JsonKind::Error, span: span(start, self.last_end) };
        }
        if b == b'{' {
            self.object()
        } else {
            self.array()
        }
    }

    fn object(&mut self) -> Json<'a> {
        let open = self.pos;
        self.bump(1);
        self.open.push(b'}');
        // The members go on the parser's stack (nested objects push theirs above and take them
        // off before this one goes on), then into the arena, as one slice.
        let base = self.members.len();
        let mut expect = Expect::Item;
        // The comma before the current item, and the end of the token before that comma.
        let mut comma: Option<(Span, usize)> = None;
        loop {
            self.skip_ws();
            let Some(b) = self.peek() else {
                self.unclosed(b'}', open);
                break;
            };
            match b {
                b'}' => {
                    if let (Expect::Item, Some((c, _))) = (expect, comma) {
                        self.syntax(c, "trailing comma");
                    }
                    self.bump(1);
                    break;
                }
                b']' if self.enclosing(b']') => {
                    self.missing_closer(b'}', open);
                    break;
                }
                b']' => {
                    self.syntax(span(self.pos, self.pos + 1), "unexpected `]`");
                    self.bump(1);
                    if expect == Expect::Item {
                        comma = None;
                        expect = Expect::SeparatorAfterJunk;
                    }
                    continue;
                }
                _ => {}
            }
            match expect {
                Expect::Item => match b {
                    b'"' | b'\'' => {
                        let (key, key_span) = self.string(b);
                        let (value, recovered) = self.member_value();
                        self.members.push(Member { key, key_span, value });
                        comma = None;
                        expect = if recovered { Expect::SeparatorAfterJunk } else { Expect::Separator };
                    }
                    b if starts_word(b) => {
                        let start = self.pos;
                        let len = self.bytes[start..].iter().take_while(|&&c| in_word(c)).count();
                        self.bump(len);
                        self.syntax(span(start, self.pos), "keys must be strings in double quotes");
                        let text: &'a str = self.text;
                        let key = &text[start..self.pos];
                        let (value, recovered) = self.member_value();
                        self.members.push(Member { key, key_span: span(start, start + len), value });
                        comma = None;
                        expect = if recovered { Expect::SeparatorAfterJunk } else { Expect::Separator };
                    }
                    b',' => {
                        let at = span(self.pos, self.pos + 1);
                        self.syntax(at, "expected a key, found `,`");
                        let before = self.last_end;
                        self.bump(1);
                        comma = Some((at, before));
                    }
                    b'{' | b'[' if comma.is_some() && self.parent_is(b']') => {
                        // `[{"a": 1, {…}]`: the object lacks its `}` and the comma is the array's.
                        let (c, before) = comma.unwrap_or_default();
                        self.pos = c.start as usize;
                        self.last_end = before;
                        self.missing_closer(b'}', open);
                        break;
                    }
                    _ => {
                        let (at, found) = self.found(self.pos);
                        self.syntax(at, format!("expected a string key, found {found}"));
                        self.skip_junk();
                        comma = None;
                        expect = Expect::SeparatorAfterJunk;
                    }
                },
                Expect::Separator | Expect::SeparatorAfterJunk => match b {
                    b',' => {
                        let at = span(self.pos, self.pos + 1);
                        let before = self.last_end;
                        self.bump(1);
                        comma = Some((at, before));
                        expect = Expect::Item;
                    }
                    b'"' | b'\'' => {
                        if expect == Expect::Separator && self.last_end != self.unterminated_end {
                            let at = span(self.last_end, self.last_end);
                            self.syntax(at, "expected `,` or `}` after an object member");
                        }
                        expect = Expect::Item;
                    }
                    b'{' | b'[' if self.parent_is(b']') => {
                        self.missing_closer(b'}', open);
                        break;
                    }
                    _ => {
                        let (at, found) = self.found(self.pos);
                        self.syntax(at, format!("expected `,` or `}}` after an object member, found {found}"));
                        self.skip_junk();
                        expect = Expect::SeparatorAfterJunk;
                    }
                },
            }
        }
        self.open.pop();
        let at = span(open, self.last_end);
        let noted = self.duplicates.len();
        note_duplicates(&self.members[base..], at, &mut self.duplicates);
        let repeats = self.duplicates.len() > noted;
        let members: &'a [Member<'a>] = move_to_arena(self.arena, &mut self.members, base);
        Json { kind: JsonKind::Object(Members { members, repeats }), span: at }
    }

    /// The `: value` after a key. The flag is set when the value was missing and the parser
    /// recovered in a way that already explains a missing comma. Inline, so that the value
    /// goes straight onto the members' stack.
    #[inline(always)]
    fn member_value(&mut self) -> (Json<'a>, bool) {
        self.skip_ws();
        match self.peek() {
            Some(b':') => self.bump(1),
            Some(b'=') => {
                self.syntax(span(self.pos, self.pos + 1), "expected `:`, found `=`");
                self.bump(1);
            }
            next => {
                let at = span(self.last_end, self.last_end);
                self.syntax(at, "expected `:` after the key");
                return match next {
                    Some(b) if starts_value(b) => self.value_unless_key(false),
                    _ => (Json { kind: JsonKind::Error, span: at }, true),
                };
            }
        }
        self.skip_ws();
        match self.peek() {
            Some(b) if starts_value(b) => self.value_unless_key(true),
            next => {
                let at = span(self.last_end, self.last_end);
                match next {
                    None => self.syntax(at, "expected a value"),
                    Some(b',' | b'}' | b']') => {
                        let (found_at, found) = self.found(self.pos);
                        self.syntax(found_at, format!("expected a value, found {found}"));
                    }
                    Some(_) => {
                        // Junk where the value should be: it is the (unreadable) value.
                        let (found_at, found) = self.found(self.pos);
                        self.syntax(found_at, format!("expected a value, found {found}"));
                        let start = self.pos;
                        self.skip_junk();
                        return (Json { kind: JsonKind::Error, span: span(start, self.last_end) }, true);
                    }
                }
                (Json { kind: JsonKind::Error, span: at }, next.is_some())
            }
        }
    }

    /// A member's value, unless it is a string followed by `:`: then it is the next member's key
    /// and the value is missing (`"a":` then `"b": 1` on the next line), reported if `report`.
    fn value_unless_key(&mut self, report: bool) -> (Json<'a>, bool) {
        if self.peek() != Some(b'"') {
            return (self.value(), false);
        }
        let (pos, last_end, errors) = (self.pos, self.last_end, self.errors.len());
        let value = self.value();
        // The whitespace after the value is skipped here, once (what reads on skips it first).
        self.skip_ws();
        if self.peek() != Some(b':') {
            return (value, false);
        }
        (self.pos, self.last_end) = (pos, last_end);
        self.errors.truncate(errors);
        let at = span(last_end, last_end);
        if report {
            self.syntax(at, "expected a value");
        }
        (Json { kind: JsonKind::Error, span: at }, true)
    }

    fn array(&mut self) -> Json<'a> {
        let open = self.pos;
        self.bump(1);
        self.open.push(b']');
        // As `object`'s members: on the parser's stack, then into the arena.
        let base = self.items.len();
        let mut expect = Expect::Item;
        let mut comma: Option<(Span, usize)> = None;
        // Where to go back to, to drop the last element: (pos, last_end).
        let mut before_last = (self.pos, self.last_end);
        loop {
            self.skip_ws();
            let Some(b) = self.peek() else {
                self.unclosed(b']', open);
                break;
            };
            match b {
                b']' => {
                    if let (Expect::Item, Some((c, _))) = (expect, comma) {
                        self.syntax(c, "trailing comma");
                    }
                    self.bump(1);
                    break;
                }
                b'}' if self.enclosing(b'}') => {
                    self.missing_closer(b']', open);
                    break;
                }
                b'}' => {
                    let at = span(self.pos, self.pos + 1);
                    self.syntax(at, "unexpected `}`");
                    self.bump(1);
                    if expect == Expect::Item {
                        // The stray bracket stands where an element should be.
                        self.items.push(Json { kind: JsonKind::Error, span: at });
                        comma = None;
                        expect = Expect::SeparatorAfterJunk;
                    }
                    continue;
                }
                _ => {}
            }
            match expect {
                Expect::Item => match b {
                    b',' => {
                        let at = span(self.pos, self.pos + 1);
                        self.syntax(at, "expected a value, found `,`");
                        self.items.push(Json { kind: JsonKind::Error, span: span(self.last_end, self.last_end) });
                        let before = self.last_end;
                        self.bump(1);
                        comma = Some((at, before));
                    }
                    b if starts_value(b) => {
                        before_last = match comma {
                            Some((c, before)) => (c.start as usize, before),
                            None => (self.pos, self.last_end),
                        };
                        let item = self.value();
                        self.items.push(item);
                        comma = None;
                        expect = Expect::Separator;
                    }
                    _ => {
                        let (at, found) = self.found(self.pos);
                        self.syntax(at, format!("expected a value, found {found}"));
                        let start = self.pos;
                        self.skip_junk();
                        self.items.push(Json { kind: JsonKind::Error, span: span(start, self.last_end) });
                        comma = None;
                        expect = Expect::SeparatorAfterJunk;
                    }
                },
                Expect::Separator | Expect::SeparatorAfterJunk => match b {
                    b',' => {
                        let at = span(self.pos, self.pos + 1);
                        let before = self.last_end;
                        self.bump(1);
                        comma = Some((at, before));
                        expect = Expect::Item;
                    }
                    b':' if self.parent_is(b'}')
                        && expect == Expect::Separator
                        && matches!(self.items[base..].last(), Some(Json { kind: JsonKind::String(_), .. })) =>
                    {
                        // `{"a": [1, "b": 2}`: the array lacks its `]` and `"b"` is the object's key.
                        self.items.pop();
                        (self.pos, self.last_end) = before_last;
                        self.missing_closer(b']', open);
                        break;
                    }
                    b if starts_value(b) => {
                        if expect == Expect::Separator && self.last_end != self.unterminated_end {
                            let at = span(self.last_end, self.last_end);
                            self.syntax(at, "expected `,` or `]` after an array element");
                        }
                        expect = Expect::Item;
                    }
                    _ => {
                        let (at, found) = self.found(self.pos);
                        self.syntax(at, format!("expected `,` or `]` after an array element, found {found}"));
                        self.skip_junk();
                        expect = Expect::SeparatorAfterJunk;
                    }
                },
            }
        }
        self.open.pop();
        let items: &'a [Json<'a>] = move_to_arena(self.arena, &mut self.items, base);
        Json { kind: JsonKind::Array(items), span: span(open, self.last_end) }
    }

    /// Skips junk (already reported) up to a `,`, a closing bracket, a string or the end of the
    /// text, skipping nested brackets whole. Consumes at least one character.
    fn skip_junk(&mut self) {
        let bytes = self.bytes;
        let mut first = true;
        while let Some(&b) = bytes.get(self.pos) {
            match b {
                b',' | b'}' | b']' | b'"' if !first => break,
                b'{' | b'[' => self.skip_nested(),
                b' ' | b'\n' | b'\r' | b'\t' => self.pos += 1,
                _ => self.bump(char_len(b).min(bytes.len() - self.pos)),
            }
            first = false;
        }
    }

    /// Skips a bracketed value from its opening bracket by counting brackets (of either kind),
    /// without recursion and without reporting anything inside.
    fn skip_nested(&mut self) {
        let bytes = self.bytes;
        let mut depth = 0usize;
        while let Some(&b) = bytes.get(self.pos) {
            match b {
                b'{' | b'[' => {
                    depth += 1;
                    self.pos += 1;
                }
                b'}' | b']' => {
                    depth = depth.saturating_sub(1);
                    self.pos += 1;
                    if depth == 0 {
                        break;
                    }
                }
                b'"' => self.pos = self.raw_string_end(self.pos),
                _ => self.pos += 1,
            }
        }
        self.last_end = self.pos;
    }

    /// The end of the string token starting at `start` (a quote): after its closing quote, or
    /// at the end of its line if it has none. Nothing is reported.
    fn raw_string_end(&self, start: usize) -> usize {
        let bytes = self.bytes;
        let q = bytes[start];
        let mut i = start + 1;
        while let Some(&b) = bytes.get(i) {
            if b == q {
                return i + 1;
            }
            if b == b'\n' || b == b'\r' {
                return i;
            }
            if b == b'\\' && matches!(bytes.get(i + 1), Some(c) if *c != b'\n' && *c != b'\r') {
                i += 1;
            }
            i += 1;
        }
        bytes.len().max(start + 1)
    }

    /// A string token at `self.pos`, quoted with `q`: its value and its span (quotes included).
    /// A string without escapes is a slice of the text; one with escapes is unescaped into a
    /// buffer of the parser, then copied into the arena.
    ///
    /// Inline for what a Chart holds (a double-quoted string with no escape and no control
    /// character), so that its value comes back in registers; [`Parser::string_slow`] for the
    /// rest, from the start.
    #[inline(always)]
    fn string(&mut self, q: u8) -> (&'a str, Span) {
        let start = self.pos;
        if q == b'"' {
            let i = plain_run(self.bytes, start + 1, q);
            if self.bytes.get(i) == Some(&q) {
                self.bump(i + 1 - start);
                return (&self.text[start + 1..i], span(start, i + 1));
            }
        }
        self.string_slow(q)
    }

    /// [`Parser::string`]'s every case: escapes, control characters, single quotes, no closing
    /// quote, the end of the text.
    #[inline(never)]
    fn string_slow(&mut self, q: u8) -> (&'a str, Span) {
        let bytes = self.bytes;
        let text = self.text;
        let start = self.pos;
        let mut i = start + 1;
        // Unescaped text so far, once a backslash was seen; `seg` is where uncopied text starts.
        let mut buf: Option<String> = None;
        let mut seg = i;
        let (end, terminated) = loop {
            // Eight bytes at a time up to the first that may end the run: the quote, a
            // backslash or a control character (then byte by byte, near the end of the text).
            i = plain_run(bytes, i, q);
            while i < bytes.len() {
                let c = bytes[i];
                if c == q || c == b'\\' || c < 0x20 {
                    break;
                }
                i += 1;
            }
            let Some(&c) = bytes.get(i) else { break (i, false) };
            if c == q {
                break (i, true);
            }
            if c == b'\n' || c == b'\r' {
                break (i, false);
            }
            if c < 0x20 {
                self.syntax(span(i, i + 1), format!("control character U+{c:04X} in a string"));
                i += 1;
                continue;
            }
            // A backslash.
            let out = buf.get_or_insert_with(|| std::mem::take(&mut self.unescaped));
            out.push_str(&text[seg..i]);
            let esc = i;
            i += 1;
            let Some(&e) = bytes.get(i) else {
                seg = i;
                continue;
            };
            match e {
                b'\n' | b'\r' => {}
                b'"' => out.push('"'),
                b'\\' => out.push('\\'),
                b'/' => out.push('/'),
                b'b' => out.push('\u{8}'),
                b'f' => out.push('\u{c}'),
                b'n' => out.push('\n'),
                b'r' => out.push('\r'),
                b't' => out.push('\t'),
                b'\'' if q == b'\'' => out.push('\''),
                b'u' => {
                    let ch = self.unicode_escape(esc, &mut i);
                    out.push(ch);
                    seg = i;
                    continue;
                }
                _ => {
                    let len = char_len(e);
                    let ch = &text[i..i + len];
                    out.push_str(ch);
                    let message = format!("invalid escape `\\{ch}` in a string");
                    self.syntax(span(esc, i + len), message);
                    i += len;
                    seg = i;
                    continue;
                }
            }
            if e != b'\n' && e != b'\r' {
                i += 1;
            }
            seg = i;
        };
        let value: &'a str = match buf {
            Some(mut out) => {
                out.push_str(&text[seg..end]);
                let value = self.arena.alloc_str(&out);
                out.clear();
                self.unescaped = out;
                value
            }
            None => &text[seg..end],
        };
        let end = if terminated { end + 1 } else { end };
        self.bump(end - start);
        let at = span(start, end);
        if !terminated {
            self.syntax(at, "unterminated string");
            self.unterminated_end = end;
        }
        if q == b'\'' {
            self.syntax(at, "strings must use double quotes");
        }
        (value, at)
    }

    /// Four hex digits at `i`.
    fn hex4(&self, i: usize) -> Option<u16> {
        let h = self.bytes.get(i..i + 4)?;
        let mut v = 0u16;
        for &b in h {
            v = (v << 4) | hex_digit(b)?;
        }
        Some(v)
    }

    /// A `\uXXXX` escape (with its low surrogate, if any) whose backslash is at `esc`; `i` is at
    /// the `u` and moves past the escape. Bad escapes give U+FFFD and an error.
    fn unicode_escape(&mut self, esc: usize, i: &mut usize) -> char {
        *i += 1;
        let Some(unit) = self.hex4(*i) else {
            let digits = self.bytes[*i..].iter().take(4).take_while(|&&b| hex_digit(b).is_some()).count();
            *i += digits;
            self.syntax(span(esc, *i), "invalid unicode escape in a string; expected four hex digits after `\\u`");
            return char::REPLACEMENT_CHARACTER;
        };
        *i += 4;
        match unit {
            0xD800..=0xDBFF => {
                if self.bytes.get(*i..*i + 2) == Some(b"\\u") {
                    if let Some(low @ 0xDC00..=0xDFFF) = self.hex4(*i + 2) {
                        *i += 6;
                        let c = 0x10000 + ((unit as u32 - 0xD800) << 10) + (low as u32 - 0xDC00);
                        return char::from_u32(c).unwrap_or(char::REPLACEMENT_CHARACTER);
                    }
                }
                let message = format!("unpaired surrogate `{}` in a string", &self.text[esc..*i]);
                self.syntax(span(esc, *i), message);
                char::REPLACEMENT_CHARACTER
            }
            0xDC00..=0xDFFF => {
                let message = format!("unpaired surrogate `{}` in a string", &self.text[esc..*i]);
                self.syntax(span(esc, *i), message);
                char::REPLACEMENT_CHARACTER
            }
            _ => char::from_u32(unit as u32).unwrap_or(char::REPLACEMENT_CHARACTER),
        }
    }

    /// A number token: strict JSON grammar, anything glued to it is part of the (bad) token.
    fn number(&mut self) -> Json<'a> {
        let bytes = self.bytes;
        let start = self.pos;
        let len = bytes[start..].iter().take_while(|&&c| in_number(c)).count();
        let tok = &bytes[start..start + len];
        self.bump(len);
        let at = span(start, start + len);
        let error = |p: &mut Self, message: String| {
            p.syntax(at, message);
            Json { kind: JsonKind::Error, span: at }
        };
        let mut i = 0;
        let negative = tok[0] == b'-';
        if negative || tok[0] == b'+' {
            i = 1;
        }
        if tok[0] == b'+' {
            return error(self, "a number cannot start with `+`".to_owned());
        }
        let digits_start = i;
        let mut int: u64 = 0;
        match tok.get(i) {
            Some(b'0') => {
                i += 1;
                if tok.get(i).is_some_and(u8::is_ascii_digit) {
                    return error(self, "leading zeros are not allowed in a number".to_owned());
                }
            }
            Some(b'1'..=b'9') => {
                while let Some(&d @ b'0'..=b'9') = tok.get(i) {
                    int = int.wrapping_mul(10).wrapping_add((d - b'0') as u64);
                    i += 1;
                }
            }
            Some(b'.') => return error(self, "expected a digit before the decimal point".to_owned()),
            _ => {
                let shown = String::from_utf8_lossy(tok);
                return error(self, format!("invalid number `{shown}`"));
            }
        }
        let int_digits = i - digits_start;
        let mut plain = true;
        if tok.get(i) == Some(&b'.') {
            plain = false;
            i += 1;
            let n = tok[i..].iter().take_while(|c| c.is_ascii_digit()).count();
            if n == 0 {
                return error(self, "expected a digit after the decimal point".to_owned());
            }
            i += n;
        }
        if matches!(tok.get(i), Some(b'e' | b'E')) {
            plain = false;
            i += 1;
            if matches!(tok.get(i), Some(b'+' | b'-')) {
                i += 1;
            }
            let n = tok[i..].iter().take_while(|c| c.is_ascii_digit()).count();
            if n == 0 {
                return error(self, "expected a digit in the exponent".to_owned());
            }
            i += n;
        }
        if i != tok.len() {
            let shown = String::from_utf8_lossy(tok);
            return error(self, format!("invalid number `{shown}`"));
        }
        // Plain integers that fit: as serde_json reads them (`-0` is a float there, so not here).
        if plain && int_digits <= 18 && !(negative && int == 0) {
            let n = if negative { serde_json::Number::from(-(int as i64)) } else { serde_json::Number::from(int) };
            return Json { kind: JsonKind::Number(n), span: at };
        }
        match self.text[start..start + len].parse::<serde_json::Number>() {
            Ok(n) => Json { kind: JsonKind::Number(n), span: at },
            Err(_) => error(self, "number out of range".to_owned()),
        }
    }

    /// A bare word: `true`, `false`, `null`, or an error.
    fn word(&mut self) -> Json<'a> {
        let start = self.pos;
        let len = self.bytes[start..].iter().take_while(|&&c| in_word(c)).count();
        self.bump(len);
        let at = span(start, start + len);
        let word = &self.text[start..start + len];
        let kind = match word {
            "true" => JsonKind::Bool(true),
            "false" => JsonKind::Bool(false),
            "null" => JsonKind::Null,
            _ => {
                let lower = word.to_ascii_lowercase();
                let hint = ["true", "false", "null"]
                    .into_iter()
                    .find(|k| *k == lower || k.starts_with(lower.as_str()))
                    .or(matches!(lower.as_str(), "none" | "nil").then_some("null"));
                let shown = if word.len() > 32 { format!("{}…", &word[..32]) } else { word.to_owned() };
                let message = match hint {
                    Some(k) => format!("expected a value, found `{shown}`; did you mean `{k}`?"),
                    None => format!("expected a value, found `{shown}`"),
                };
                self.syntax(at, message);
                JsonKind::Error
            }
        };
        Json { kind, span: at }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use serde_json::Value;
    use std::fmt::Write as _;

    fn slow() -> bool {
        std::env::var_os("JR2_SLOW").is_some()
    }

    /// The tree as an indented dump with spans, then the errors.
    fn render(text: &str, limits: Limits) -> String {
        let arena = Arena::new();
        let parsed = parse_with(text, limits, &arena);
        let mut out = format!("input: {text:?}\n");
        dump(&parsed.value, 0, "", &mut out);
        for e in &parsed.errors {
            let kind = match e.kind {
                JsonErrorKind::Syntax => "",
                JsonErrorKind::TooDeep => " (too deep)",
                JsonErrorKind::TooLarge => " (too large)",
            };
            writeln!(out, "error {}..{}{kind}: {}", e.span.start, e.span.end, e.message).unwrap();
        }
        assert_spans(text, &parsed);
        out
    }

    fn dump(v: &Json, indent: usize, prefix: &str, out: &mut String) {
        let pad = "  ".repeat(indent);
        let label = match &v.kind {
            JsonKind::Null => "null".to_owned(),
            JsonKind::Bool(b) => b.to_string(),
            JsonKind::Number(n) => format!("number {n}"),
            JsonKind::String(s) => format!("string {s:?}"),
            JsonKind::Array(_) => "array".to_owned(),
            JsonKind::Object(_) => "object".to_owned(),
            JsonKind::Error => "ERROR".to_owned(),
        };
        writeln!(out, "{pad}{prefix}{label} @{}..{}", v.span.start, v.span.end).unwrap();
        match &v.kind {
            JsonKind::Array(items) => items.iter().for_each(|item| dump(item, indent + 1, "", out)),
            JsonKind::Object(members) => {
                for m in members.iter() {
                    let prefix = format!("{:?}@{}..{} = ", m.key, m.key_span.start, m.key_span.end);
                    dump(&m.value, indent + 1, &prefix, out);
                }
            }
            _ => {}
        }
    }

    /// Every span lies within the text, on character boundaries.
    fn assert_spans(text: &str, parsed: &Parsed) {
        let ok = |s: Span| {
            s.start <= s.end
                && (s.end as usize) <= text.len()
                && text.is_char_boundary(s.start as usize)
                && text.is_char_boundary(s.end as usize)
        };
        for e in &parsed.errors {
            assert!(ok(e.span), "error span {:?} out of {text:?}", e.span);
        }
        let mut stack = vec![&parsed.value];
        while let Some(v) = stack.pop() {
            assert!(ok(v.span), "node span {:?} out of {text:?}", v.span);
            match &v.kind {
                JsonKind::Array(items) => stack.extend(items.iter()),
                JsonKind::Object(members) => {
                    for m in members.iter() {
                        assert!(ok(m.key_span), "key span {:?} out of {text:?}", m.key_span);
                        stack.push(&m.value);
                    }
                }
                _ => {}
            }
        }
        // The repeats the parser noted are those a walk of its tree finds, and each is found.
        assert_eq!(parsed.duplicates, super::duplicate_keys(&parsed.value), "duplicates of {text:?}");
        for d in &parsed.duplicates {
            let (object, _) = parsed.value.find_object(d.object).expect("a noted object is in the tree");
            let members = object.as_object().expect("an object");
            assert_eq!(members[d.again as usize].key, members[d.first as usize].key);
            assert!(d.first < d.again);
        }
    }

    /// For valid JSON: no errors, the same value as serde_json, and every node's and key's span
    /// holds exactly its text.
    fn assert_valid(text: &str) {
        let arena = Arena::new();
        let parsed = parse(text, &arena);
        assert_eq!(parsed.errors, vec![], "errors in {text:?}");
        let expected: Value = serde_json::from_str(text).unwrap();
        assert_eq!(parsed.value.to_value(), expected, "value of {text:?}");
        let mut stack = vec![&parsed.value];
        while let Some(v) = stack.pop() {
            let here: Value = serde_json::from_str(&text[v.span.range()]).unwrap();
            assert_eq!(here, v.to_value(), "span {:?} of {text:?}", v.span);
            match &v.kind {
                JsonKind::Array(items) => stack.extend(items.iter()),
                JsonKind::Object(members) => {
                    for m in members.iter() {
                        let key: String = serde_json::from_str(&text[m.key_span.range()]).unwrap();
                        assert_eq!(key, m.key);
                        stack.push(&m.value);
                    }
                }
                _ => {}
            }
        }
    }

    macro_rules! cases {
        ($($name:ident: $input:expr;)*) => {$(
            #[test]
            fn $name() {
                insta::assert_snapshot!(stringify!($name), render($input, Limits::default()));
            }
        )*};
    }

    cases! {
        // Valid text.
        empty: "";
        whitespace_only: "  \n\t ";
        top_null: "null";
        top_true: " true ";
        top_number: "\n-12.5e3\n";
        top_string: "\"hi\"";
        spans_nested: "{\n  \"a\": [1, {\"b\": null}],\n  \"c\": \"x\",\n  \"d\": {}\n}";
        escapes: r#""a\"b\\c\/d\b\f\n\r\t\u0041\u00e9\ud83d\ude00""#;
        unicode: "{\"ключ\": \"値 😀\", \"é\": [\"\u{2028}\"]}";
        numbers: "[0, -0, 1, -1, 1.5, -1.5e10, 1E+2, 1e-2, 18446744073709551615, 18446744073709551616, -9223372036854775808, -9223372036854775809, 123456789012345678901234567890]";
        duplicate_keys: r#"{"a": 1, "a": 2}"#;
        byte_order_mark: "\u{feff}{\"a\": 1}";
        // Missing closing brackets.
        missing_brace_at_eof: r#"{"a": 1, "b": 2"#;
        missing_brackets_at_eof: "{\"a\": 1,\n \"b\": [1, {\"c\": 2";
        missing_bracket_before_sibling: r#"{"a": [1, 2, "b": 3, "c": 4}"#;
        missing_bracket_before_first_sibling: r#"{"a": ["b": 3}"#;
        missing_brace_before_sibling: r#"[{"a": 1, {"b": 2}, 3]"#;
        missing_brace_before_sibling_no_comma: r#"[{"a": 1 {"b": 2}]"#;
        missing_brace_before_closer: r#"{"x": [{"a": 1, "b": 2], "y": 3}"#;
        missing_bracket_before_closer: r#"{"a": [1, 2}"#;
        // Missing values, commas, colons.
        missing_value_before_comma: r#"{"a": , "b": 2}"#;
        missing_value_before_brace: r#"{"b": 2, "a": }"#;
        missing_value_before_sibling_line: "{\n  \"a\":\n  \"b\": 2\n}";
        missing_value_at_eof: r#"{"a": "#;
        missing_value_before_key_same_line: r#"{"a": "b": 2, "c": "d" : 3}"#;
        missing_comma_between_members: r#"{"a": 1 "b": 2 "c": 3}"#;
        missing_comma_between_elements: r#"[1 2 "x" {} []]"#;
        missing_colon: r#"{"a" 1, "b": 2}"#;
        missing_colon_and_value: "{\n  \"a\"\n  \"b\": 2\n}";
        equals_for_colon: r#"{"a" = 1, "b": 2}"#;
        // Strings.
        unterminated_string_value: "{\n  \"a\": \"hello,\n  \"b\": 2\n}";
        unterminated_string_in_array: "[\"a,\n \"b\"]";
        unterminated_string_at_eof: "\"abc";
        unterminated_key: "{\n  \"a\": 1,\n  \"b\n}";
        control_character: "[\"a\tb\", 1]";
        invalid_escape: r#"["a\qb", "\é", 1]"#;
        invalid_unicode_escapes: r#"["\u12", "\u12x4", "\ud800", "\udc00x", "\ud800\u0041", "\ud800\ud800\udc00", 1]"#;
        single_quotes: r#"{'a': 'it\'s', "b": 2}"#;
        // Commas.
        trailing_comma_object: r#"{"a": 1, "b": 2,}"#;
        trailing_comma_array: "[1, 2,\n]";
        double_comma_object: r#"{"a": 1,, "b": 2}"#;
        double_comma_array: "[1,,2]";
        leading_comma: r#"{, "a": 1}"#;
        // Words, numbers, junk.
        bare_words: "[tru, undefined, NaN, True, None, fals, Infinity, nul, 2]";
        bare_word_value: r#"{"a": tru, "b": 2}"#;
        unquoted_key: r#"{a: 1, "b": 2}"#;
        bad_numbers: "[01, -, +1, .5, 1., 1e, 1e+, 0x1F, 1.2.3, -Infinity, 1e400, -1e400, 1e-400, 7]";
        junk_value: r#"{"a": @#, "b": 2}"#;
        junk_in_array: "[1, :, 2, ; 3]";
        junk_key: r#"{"a": 1, 5: 6, "b": 2}"#;
        junk_after_member: r#"{"a": 1 xx, "b": 2}"#;
        stray_bracket_in_object: r#"{"a": 1 ], "b": 2}"#;
        stray_brace_in_array: "[1, }, 2]";
        comments: "{\n  // a comment\n  \"a\": /* inline */ 1\n} /* unterminated";
        // The top level.
        garbage_after_value: r#"{"a": 1} x"#;
        stray_closer_after_value: r#"{"a": 1}}"#;
        two_values: "[1] [2]";
        junk_before_value: r#", {"a": 1}"#;
        only_closer: "}";
        half_typed_chart: "{\n  \"states\": {\n    \"idle\": { \"on\": { \"GO\": \"run\" } },\n    \"run\": { \"type\": \"fin\n  },\n  \"initial\": \"idle\"\n}";
    }

    #[test]
    fn too_deep() {
        let limits = Limits { max_depth: 3, ..Limits::default() };
        let huge = Limits { max_depth: usize::MAX, ..Limits::default() };
        let arena = Arena::new();
        let text = "[".repeat(5000);
        let deep = parse_with(&text, huge, &arena);
        assert_eq!(deep.errors[0].message, format!("nesting deeper than {MAX_DEPTH_CAP} levels"));
        insta::assert_snapshot!("too_deep", render("[[[[1, [2]], {\"a\": [3]}]], 4, [[{\"x\": []}]]]", limits));
        insta::assert_snapshot!("too_deep_unbalanced", render("{\"a\": [[[[ \"]\" ]], \"b\": 1}", limits));
    }

    #[test]
    fn positions_count_characters() {
        let text = format!("[\"{}\",\n\"{}\", {{\"a\": [1", "x".repeat(1000), "é😀".repeat(300));
        let arena = Arena::new();
        let parsed = parse(&text, &arena);
        let message =
            "missing `]}]` at the end of the file; the innermost unclosed array was opened at line 2, column 611";
        assert_eq!(parsed.errors[0].message, message);
    }

    #[test]
    fn errors_are_capped() {
        let text = "[".to_owned() + &"@, ".repeat(20_000) + "1]";
        let arena = Arena::new();
        let parsed = parse(&text, &arena);
        assert_eq!(parsed.errors.len(), MAX_ERRORS + 1);
        assert_eq!(parsed.errors[MAX_ERRORS].message, "more than 10000 errors; the rest are not reported");
        assert_eq!(parsed.value.as_array().map(<[Json]>::len), Some(20_001));
    }

    #[test]
    fn too_large() {
        let limits = Limits { max_bytes: 4, ..Limits::default() };
        insta::assert_snapshot!("too_large", render("[1, 2]", limits));
        assert!(parse_with("[12]", limits, &Arena::new()).errors.is_empty());
    }

    /// Each key given again is noted with its object and its first member, outer objects first,
    /// and the object's path is found from its span.
    #[test]
    fn repeated_keys_are_noted() {
        let text = r#"{ "a": [1, { "x": 1, "y": 2, "x": 3, "x": 4 }], "b": { "k": 1 }, "a": 2 }"#;
        let arena = Arena::new();
        let parsed = parse(text, &arena);
        assert_spans(text, &parsed);
        let spans: Vec<(u32, u32, u32)> =
            parsed.duplicates.iter().map(|d| (d.object.start, d.again, d.first)).collect();
        let inner_start = text.find("{ \"x\"").unwrap() as u32;
        assert_eq!(spans, [(0, 2, 0), (inner_start, 2, 0), (inner_start, 3, 0)]);
        let (_, steps) = parsed.value.find_object(parsed.duplicates[1].object).unwrap();
        assert_eq!(steps, [PathStep::Key("a"), PathStep::Index(1)]);
        let many: Vec<String> = (0..40).map(|i| format!("\"k{}\": {i}", i % 30)).collect();
        let big = format!("{{ {} }}", many.join(", "));
        let arena = Arena::new();
        let parsed = parse(&big, &arena);
        assert_spans(&big, &parsed);
        let again: Vec<(u32, u32)> = parsed.duplicates.iter().map(|d| (d.again, d.first)).collect();
        assert_eq!(again, (30..40).map(|i| (i, i - 30)).collect::<Vec<_>>());
    }

    /// Strings and indentation read eight bytes at a time end where they end, whatever the
    /// offset of their quote, escape or control character, and in any indentation.
    #[test]
    fn strings_and_whitespace_at_every_offset() {
        for len in 0..24 {
            for at in 0..=len {
                for special in ["\\\"", "\\n", "\\u00e9", "é", "\u{1f600}"] {
                    let body: String =
                        (0..len).map(|i| if i == at { special.to_string() } else { "a".into() }).collect();
                    let indent = " ".repeat(len);
                    let text = format!("{{\n{indent}\"k{body}\": [\n{indent}\"{body}\"\r\n{indent}]}}");
                    let arena = Arena::new();
                    let ours = parse(&text, &arena);
                    assert!(ours.errors.is_empty(), "{text:?}: {:?}", ours.errors);
                    let theirs: serde_json::Value = serde_json::from_str(&text).unwrap();
                    assert_eq!(ours.value.to_value(), theirs, "{text:?}");
                }
                let bad = format!("[\"{}\u{1}{}\"]", "a".repeat(at), "b".repeat(len - at));
                assert_eq!(parse(&bad, &Arena::new()).errors.len(), 1, "{bad:?}");
                let open = format!("[\"{}", "a".repeat(len));
                assert!(
                    parse(&open, &Arena::new()).errors.iter().any(|e| e.message == "unterminated string"),
                    "{open:?}"
                );
            }
        }
    }

    #[test]
    fn same_key_is_string_equality() {
        for a in ["", "a", "ab", "ba", "on", "id", "type", "typo", "états", "é"] {
            for b in ["", "a", "ab", "ba", "on", "id", "type", "typo", "états", "é"] {
                assert_eq!(same_key(a, b), a == b, "{a:?} {b:?}");
            }
        }
    }

    #[test]
    fn lookups_take_the_last_key() {
        let arena = Arena::new();
        let parsed = parse(r#"{"a": 1, "b": 2, "a": 3}"#, &arena);
        assert_eq!(parsed.value.get("a").and_then(Json::as_f64), Some(3.0));
        let keys: Vec<_> = parsed.value.entries().map(|m| m.key).collect();
        assert_eq!(keys, ["b", "a"]);
        // The large-object path of `entries` agrees with the small one.
        let text = format!(
            "{{{}, \"k3\": true}}",
            (0..40).map(|i| format!("\"k{}\": {i}", i % 10)).collect::<Vec<_>>().join(", ")
        );
        let arena = Arena::new();
        let parsed = parse(&text, &arena);
        let keys: Vec<_> = parsed.value.entries().map(|m| m.key).collect();
        let mut expected: Vec<String> = (0..10).filter(|&i| i != 3).map(|i| format!("k{i}")).collect();
        expected.push("k3".to_owned());
        assert_eq!(keys, expected);
    }

    #[test]
    fn an_object_knows_whether_a_key_repeats() {
        let arena = Arena::new();
        let parsed = parse(r#"{"a": {"x": 1, "y": 2}, "b": {"x": 1, "x": 2}, "c": {}}"#, &arena);
        let repeats = |key: &str| match parsed.value.get(key).map(|v| &v.kind) {
            Some(JsonKind::Object(m)) => m.repeats(),
            _ => panic!("{key} is an object"),
        };
        assert!(!repeats("a") && repeats("b") && !repeats("c"));
        assert!(matches!(parsed.value.kind, JsonKind::Object(m) if !m.repeats()));
        // A tree made by hand finds its repeats as the parser would.
        let members = parsed.value.get("b").and_then(Json::as_object).unwrap_or_default();
        assert!(Members::new(members).repeats());
        assert!(!Members::new(&members[..1]).repeats());
        let by_hand = Json { kind: JsonKind::Object(Members::new(members)), span: Span::default() };
        assert_eq!(by_hand.entries().count(), 1);
    }

    #[test]
    fn to_value_matches_serde_json() {
        for text in [
            "null",
            "0",
            "-0",
            "1.0e300",
            "\"\\u00e9\\ud83d\\ude00 😀 ключ\"",
            r#"{"a": [1, 2.5, -3, true, false, null], "b": {"c": {}, "d": []}, "e": "x\ny"}"#,
            "[18446744073709551615, 18446744073709551616, -9223372036854775808, -9223372036854775809, 0.1, 1e-7, 5e-324]",
            "{\n  \"states\": {\n    \"idle\": {\"on\": {\"GO\": \"run\"}},\n    \"run\": {\"type\": \"final\"}\n  },\n  \"initial\": \"idle\"\n}",
            "  [ {\"名前\": \"値\", \"\\\"\": \"\\\\\", \"\\/\": \"\\b\\f\\r\\t\"} ]  ",
        ] {
            assert_valid(text);
        }
    }

    fn arb_value() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            any::<i64>().prop_map(Value::from),
            any::<u64>().prop_map(Value::from),
            any::<f64>().prop_filter("finite", |f| f.is_finite()).prop_map(Value::from),
            any::<String>().prop_map(Value::String),
            "[a-z\\\\\"/\u{0}-\u{1f}\u{e9}\u{1f600}]{0,8}".prop_map(Value::String),
        ];
        leaf.prop_recursive(5, 64, 8, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..8).prop_map(Value::Array),
                prop::collection::vec(("[a-z\"\u{e9}]{0,4}", inner), 0..8)
                    .prop_map(|kv| Value::Object(kv.into_iter().collect())),
            ]
        })
    }

    fn arb_json_text() -> impl Strategy<Value = String> {
        (arb_value(), any::<bool>()).prop_map(|(v, pretty)| {
            if pretty {
                serde_json::to_string_pretty(&v).unwrap()
            } else {
                serde_json::to_string(&v).unwrap()
            }
        })
    }

    fn config() -> ProptestConfig {
        ProptestConfig::with_cases(if slow() { 4096 } else { 256 })
    }

    /// Deletes or inserts characters of `text`: `(position, None)` deletes, `(position, Some(c))`
    /// inserts.
    fn mutate(text: &str, edits: &[(usize, Option<char>)]) -> String {
        let mut chars: Vec<char> = text.chars().collect();
        for &(at, edit) in edits {
            match edit {
                None if !chars.is_empty() => {
                    chars.remove(at % chars.len());
                }
                None => {}
                Some(c) => chars.insert(at % (chars.len() + 1), c),
            }
        }
        chars.into_iter().collect()
    }

    proptest! {
        #![proptest_config(config())]

        #[test]
        fn arbitrary_text_never_panics(text in any::<String>()) {
            assert_spans(&text, &parse(&text, &Arena::new()));
        }

        #[test]
        fn json_like_text_never_panics(text in "[\\[\\]{}\",:0-9a-z \n\\\\.eE+\\-/*'\u{e9}\t]{0,64}") {
            assert_spans(&text, &parse(&text, &Arena::new()));
            assert_spans(&text, &parse_with(&text, Limits { max_depth: 2, ..Limits::default() }, &Arena::new()));
        }

        #[test]
        fn valid_json_parses_exactly(text in arb_json_text()) {
            assert_valid(&text);
        }

        #[test]
        fn mutated_json_never_panics(
            text in arb_json_text(),
            edits in prop::collection::vec(
                (any::<usize>(), prop::option::of(prop::sample::select(
                    vec!['{', '}', '[', ']', ',', ':', '"', '\\', '1', '-', 'e', '.', 't', ' ', '\n', '/', '*', '\'', '\u{e9}'],
                ))),
                1..4,
            ),
        ) {
            let text = mutate(&text, &edits);
            assert_spans(&text, &parse(&text, &Arena::new()));
        }
    }

    // The cases below take seconds; they run only when JR2_SLOW is set.

    #[test]
    fn deep_nesting_is_one_error() {
        if !slow() {
            return; // slow: set JR2_SLOW to run
        }
        for unit in ["[", "[{\"a\":"] {
            let text = unit.repeat(100_000);
            let start = std::time::Instant::now();
            let arena = Arena::new();
            let parsed = parse(&text, &arena);
            let deep: Vec<_> = parsed.errors.iter().filter(|e| e.kind == JsonErrorKind::TooDeep).collect();
            assert_eq!(deep.len(), 1, "{unit}");
            assert_eq!(deep[0].message, "nesting deeper than 256 levels");
            assert!(start.elapsed() < std::time::Duration::from_secs(2));
            assert_spans(&text, &parsed);
        }
        let text = "[".repeat(100_000) + &"]".repeat(100_000);
        let arena = Arena::new();
        let parsed = parse(&text, &arena);
        assert_eq!(parsed.errors.len(), 1);
        assert_eq!(parsed.errors[0].kind, JsonErrorKind::TooDeep);
        let text = "]}".repeat(100_000);
        assert_spans(&text, &parse(&text, &Arena::new()));
    }

    #[test]
    fn junk_is_linear() {
        if !slow() {
            return; // slow: set JR2_SLOW to run
        }
        for unit in
            ["{\"a\":1]", "[{\"a\": [\"b\": 1}", "\"", "\"a\": \"b\": ", "@", "[1 2 ", "}", "/*", "\\u", "\"\\ud800"]
        {
            let text = unit.repeat((10 << 20) / unit.len());
            let start = std::time::Instant::now();
            let arena = Arena::new();
            let parsed = parse(&text, &arena);
            // Not a benchmark: a bound that a quadratic parse of 10 MB (hours) cannot meet and a
            // linear one (well under a second) meets on a loaded machine too.
            assert!(start.elapsed() < std::time::Duration::from_secs(30), "{unit}: {:?}", start.elapsed());
            assert_spans(&text, &parsed);
        }
    }

    /// About `bytes` of Chart-like JSON.
    fn big_json(bytes: usize) -> String {
        let mut out = String::from("{\"states\": {");
        let mut i = 0;
        while out.len() < bytes {
            if i > 0 {
                out.push(',');
            }
            write!(
                out,
                "\n  \"state_{i}\": {{\"on\": {{\"GO\": \"state_{}\", \"BACK\": {{\"target\": \"state_{i}\", \"delay\": {}.5}}}}, \"entry\": [\"log\", \"ping \\\"{i}\\\" ✓\", null, true, -{i}], \"type\": \"atomic\"}}",
                i + 1,
                i % 97
            )
            .unwrap();
            i += 1;
        }
        out.push_str("\n}, \"initial\": \"state_0\"}");
        out
    }

    /// Past `max_values` one error, at the first value not read, and the rest of the text is not
    /// read: no tree past the budget, and no bracket it leaves open is reported.
    #[test]
    fn a_budget_of_values() {
        let arena = Arena::new();
        let limits = Limits { max_values: 4, ..Limits::default() };
        let text = r#"{ "a": [0, 1, { "b": 2 }, 3], "c": 4 }"#;
        let parsed = parse_with(text, limits, &arena);
        assert_eq!(parsed.errors.len(), 1, "{:?}", parsed.errors);
        let e = &parsed.errors[0];
        assert_eq!(e.kind, JsonErrorKind::TooLarge);
        assert_eq!(e.span, Span::new(14, 15), "the object after 0 and 1");
        assert_eq!(e.message, "the file holds more than 4 JSON values; jr2 reads at most 4, and not the rest");
        let a = parsed.value.get("a").and_then(Json::as_array).expect("the array read so far");
        assert_eq!(a.len(), 3);
        assert_eq!(a[2].kind, JsonKind::Error);
        // Within the budget, nothing changes.
        let parsed = parse_with(text, Limits { max_values: 8, ..Limits::default() }, &arena);
        assert!(parsed.errors.is_empty(), "{:?}", parsed.errors);
        // Just under the default: read whole.
        let text = format!("[{}0]", "0,".repeat(MAX_VALUES - 2));
        let parsed = parse(&text, &arena);
        assert!(parsed.errors.is_empty());
        let text = format!("[{}0]", "0,".repeat(MAX_VALUES));
        let parsed = parse(&text, &arena);
        assert_eq!(parsed.errors.len(), 1);
        assert_eq!(parsed.value.as_array().map(<[Json]>::len), Some(MAX_VALUES));
    }

    #[test]
    fn ten_megabytes() {
        if !slow() {
            return; // slow: set JR2_SLOW to run
        }
        let text = big_json(10 << 20);
        let arena = Arena::new();
        let parsed = parse(&text, &arena);
        assert!(parsed.errors.is_empty());
        assert_eq!(parsed.value.to_value(), serde_json::from_str::<Value>(&text).unwrap());
        let arena = Arena::new();
        let parsed = parse_with(&text, Limits { max_bytes: 1 << 20, ..Limits::default() }, &arena);
        assert_eq!(parsed.errors.len(), 1);
        assert_eq!(parsed.errors[0].kind, JsonErrorKind::TooLarge);
        assert_eq!(parsed.errors[0].span, Span::empty_at(0));
    }

    /// Prints the time of `parse` against `serde_json::from_str::<Value>` on 1 MB; run with
    /// `--release --nocapture`.
    #[test]
    fn speed_against_serde_json() {
        if !slow() {
            return; // slow: set JR2_SLOW to run
        }
        let text = big_json(1 << 20);
        let time = |f: &dyn Fn()| {
            let start = std::time::Instant::now();
            for _ in 0..20 {
                f();
            }
            start.elapsed().as_secs_f64() / 20.0
        };
        let ours = time(&|| assert!(parse(&text, &Arena::new()).errors.is_empty()));
        let theirs = time(&|| assert!(serde_json::from_str::<Value>(&text).is_ok()));
        let ours = ours.min(time(&|| assert!(parse(&text, &Arena::new()).errors.is_empty())));
        let theirs = theirs.min(time(&|| assert!(serde_json::from_str::<Value>(&text).is_ok())));
        println!("1 MB: parse {:.2} ms, serde_json {:.2} ms, ratio {:.2}", ours * 1e3, theirs * 1e3, ours / theirs);
    }
}
