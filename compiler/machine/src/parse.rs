//! Text into an oxc `Program`, and the syntax error as a fault.
//!
//! oxc has no error recovery: a file with a syntax error is one `ts-syntax` error at the first
//! error's span, and the file yields no program (no values). Bracket nesting deeper than
//! [`MAX_NESTING`], and any nesting oxc's parser recurses into deeper than [`MAX_PARSE_DEPTH`]
//! (ternaries, arrows, assignments, prefix operators, `yield`, type arguments, labels, `else if`
//! chains: brackets or not), is refused before oxc sees it, so no input overflows the parser's
//! stack: the evaluator's thread holds that depth (a test parses each construct at the budget on a
//! quarter of its stack).
//!
//! Boundary: this file and `eval.rs` are the only ones that know oxc.

use crate::fault::{Fault, FaultKind};
use crate::value::{FileId, Loc};
use base::Span;
use oxc_allocator::Allocator;
use oxc_ast::ast::{Expression, Program};
use oxc_parser::{ParseOptions, Parser};
use oxc_span::SourceType;

/// The deepest bracket nesting a Machine file may have.
pub(crate) const MAX_NESTING: usize = 1_000;

/// How the front end asks oxc to parse: no `ParenthesizedExpression` nodes (the evaluator looks
/// through parentheses anyway) and no precomputed identifier hashes (oxc's advice for a pipeline
/// that runs no semantic analysis: the evaluator keys its maps by the name's text).
pub fn options() -> ParseOptions {
    ParseOptions { preserve_parens: false, enable_ident_hashes: false, ..ParseOptions::default() }
}

/// A syntax fault at `span` of the file being parsed (`FileId(0)`: the caller places it).
fn syntax(span: Span, message: impl Into<String>) -> Box<Fault> {
    Box::new(Fault::new(FaultKind::TsSyntax, Loc { file: FileId(0), span }, message))
}

/// Parses `text` as TypeScript: the program, or the one `ts-syntax` fault.
pub fn parse<'a>(allocator: &'a Allocator, text: &'a str) -> Result<Program<'a>, Box<Fault>> {
    parse_as(allocator, text, SourceType::ts())
}

/// Parses the text of the file at `path` as its extension says (`.tsx` with JSX, `.js` as
/// JavaScript, `.mts`, `.cts`); a path of no such extension as TypeScript.
pub(crate) fn parse_file<'a>(
    allocator: &'a Allocator,
    text: &'a str,
    path: &std::path::Path,
) -> Result<Program<'a>, Box<Fault>> {
    parse_as(allocator, text, SourceType::from_path(path).unwrap_or_else(|_| SourceType::ts()))
}

fn parse_as<'a>(allocator: &'a Allocator, text: &'a str, source_type: SourceType) -> Result<Program<'a>, Box<Fault>> {
    if let Some(at) = too_deep(text) {
        return Err(syntax(
            Span::new(at as u32, (at + 1).min(text.len()) as u32),
            format!("the brackets nest deeper than {MAX_NESTING} levels here; jr2 does not read this file"),
        ));
    }
    if let Some(at) = too_deep_for_the_parser(text) {
        return Err(syntax(
            Span::new(at as u32, (at + 1).min(text.len()) as u32),
            format!("the code nests deeper than {MAX_PARSE_DEPTH} levels here; jr2 does not read this file"),
        ));
    }
    parse_program(allocator, text, source_type)
}

/// A program of `text` as `source_type`, its depth checked by the caller.
fn parse_program<'a>(
    allocator: &'a Allocator,
    text: &'a str,
    source_type: SourceType,
) -> Result<Program<'a>, Box<Fault>> {
    let ret = Parser::new(allocator, text, source_type).with_options(options()).parse();
    if let Some(err) = ret.diagnostics.errors().next() {
        return Err(oxc_fault(err));
    }
    if ret.panicked {
        return Err(syntax(Span::default(), "the TypeScript parser could not read this file"));
    }
    Ok(ret.program)
}

/// An oxc error as the `ts-syntax` fault at its primary label.
fn oxc_fault(err: &oxc_diagnostics::OxcDiagnostic) -> Box<Fault> {
    let span = err
        .labels
        .iter()
        .find(|l| l.primary())
        .or_else(|| err.labels.first())
        .map(|l| Span::new(l.offset(), l.offset() + l.len()))
        .unwrap_or_default();
    let mut fault = syntax(span, err.message.to_string());
    fault.help = err.help.as_ref().map(|help| help.to_string());
    fault
}

/// The nesting refusal of a standalone text (an SCXML expression or script), as [`parse`] makes it.
fn too_deep_text(text: &str) -> Option<Box<Fault>> {
    if let Some(at) = too_deep(text) {
        return Some(syntax(
            Span::new(at as u32, (at + 1).min(text.len()) as u32),
            format!("the brackets nest deeper than {MAX_NESTING} levels here; jr2 does not read this code"),
        ));
    }
    too_deep_for_the_parser(text).map(|at| {
        syntax(
            Span::new(at as u32, (at + 1).min(text.len()) as u32),
            format!("the code nests deeper than {MAX_PARSE_DEPTH} levels here; jr2 does not read this code"),
        )
    })
}

/// Parses `text` as one ECMAScript expression (an SCXML `cond`, `expr` or `location`): the
/// expression, or the one `ts-syntax` fault (its span inside `text`). The depth is budgeted as a
/// file's is.
pub(crate) fn parse_expression<'a>(allocator: &'a Allocator, text: &'a str) -> Result<Expression<'a>, Box<Fault>> {
    if let Some(fault) = too_deep_text(text) {
        return Err(fault);
    }
    Parser::new(allocator, text, SourceType::mjs()).with_options(options()).parse_expression().map_err(|errors| {
        match errors.first() {
            Some(err) => oxc_fault(err),
            None => syntax(Span::default(), "the ECMAScript parser could not read this expression"),
        }
    })
}

/// Parses `text` as an ECMAScript script (an SCXML `<script>`): the program, or the one
/// `ts-syntax` fault.
pub(crate) fn parse_script<'a>(allocator: &'a Allocator, text: &'a str) -> Result<Program<'a>, Box<Fault>> {
    if let Some(fault) = too_deep_text(text) {
        return Err(fault);
    }
    parse_program(allocator, text, SourceType::cjs())
}

/// How many `(`, `[` and `{` a text holds: byte-wide counters over chunks of 128 bytes, a loop the
/// compiler vectorizes (`[` and `{` differ only in bit 5, so `b | 0x20 == b'{'` tests both): about
/// half an instruction per byte, where the depth scan of [`too_deep`] takes several.
fn opening_brackets(text: &str) -> usize {
    let opening_in = |n: u8, &b: &u8| n + u8::from((b | 0x20) == b'{') + u8::from(b == b'(');
    let mut chunks = text.as_bytes().chunks_exact(128);
    let whole: usize = (&mut chunks).map(|c| usize::from(c.iter().fold(0u8, opening_in))).sum();
    whole + chunks.remainder().iter().map(|b| usize::from(opening_in(0, b))).sum::<usize>()
}

/// The offset where bracket nesting first goes past [`MAX_NESTING`]. A rough scan: brackets in
/// strings and comments count too, which only errs towards refusing absurd files.
fn too_deep(text: &str) -> Option<usize> {
    // No file with at most MAX_NESTING opening brackets nests past it: count them first.
    if opening_brackets(text) <= MAX_NESTING {
        return None;
    }
    let mut depth = 0usize;
    for (i, b) in text.bytes().enumerate() {
        match b {
            b'(' | b'[' | b'{' => {
                depth += 1;
                if depth > MAX_NESTING {
                    return Some(i);
                }
            }
            b')' | b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    None
}

/// How deep the parser may recurse, in the levels [`too_deep_for_the_parser`] counts: a bracket is
/// one, and so is each construct oxc's parser recurses into without a bracket (a ternary, an arrow,
/// an assignment, a prefix operator, `new`, `yield`, a type argument, a label, `if`/`else`...).
/// The evaluator's thread (`eval.rs`'s `STACK`, 64 MiB) holds this many levels of the costliest
/// construct several times over: `tests::the_budget_fits_a_quarter_of_the_stack` parses each at
/// the budget on a quarter of that stack, unoptimized.
pub(crate) const MAX_PARSE_DEPTH: usize = 4_000;

/// The words after which the parser recurses (counted where they are, reset with the expression)
/// and the statement words (an `if`'s body, an `else`'s, a loop's: counted until their level closes,
/// as `else if` chains across `;`).
const EXPR_WORDS: &[&[u8]] = &[
    b"new",
    b"yield",
    b"await",
    b"typeof",
    b"void",
    b"delete",
    b"keyof",
    b"infer",
    b"readonly",
    b"unique",
    b"extends",
    b"async",
    b"abstract",
    b"declare",
    b"as",
    b"satisfies",
    b"is",
    b"asserts",
    b"in",
    b"of",
    b"function",
    b"class",
    b"import",
    b"export",
    b"default",
    b"return",
    b"throw",
    b"case",
];
const STMT_WORDS: &[&[u8]] = &[b"if", b"else", b"for", b"while", b"do", b"with", b"try", b"catch", b"finally"];
/// The words that go on with a statement that seemed to end (`if (a) x; else`, `do x; while`).
const GOES_ON: &[&[u8]] = &[
    b"else",
    b"while",
    b"catch",
    b"finally",
    b"instanceof",
    b"in",
    b"of",
    b"as",
    b"satisfies",
    b"extends",
    b"implements",
];
/// The words after which a `/` starts a regular expression.
const BEFORE_REGEX: &[&[u8]] = &[
    b"return",
    b"typeof",
    b"instanceof",
    b"in",
    b"of",
    b"new",
    b"delete",
    b"void",
    b"throw",
    b"case",
    b"do",
    b"else",
    b"yield",
    b"await",
    b"extends",
];

/// The lists above as one lookup: each word packed into a `u128` (no word has a zero byte or more
/// than 16 bytes, so packing is one-to-one), sorted, with the lists it is in as bits. One binary
/// search per name replaces a slice comparison against every word of four lists, which was a
/// third of a whole `jr2 check`'s instructions.
const IN_EXPR: u8 = 1;
const IN_STMT: u8 = 2;
const IN_GOES_ON: u8 = 4;
const IN_BEFORE_REGEX: u8 = 8;
/// The longest word of the lists (`instanceof`, `implements`).
const LONGEST_WORD: usize = 10;

fn pack(w: &[u8]) -> u128 {
    w.iter().fold(0u128, |v, &c| (v << 8) | u128::from(c))
}

static WORDS: std::sync::LazyLock<Vec<(u128, u8)>> = std::sync::LazyLock::new(|| {
    let mut words: Vec<(u128, u8)> = Vec::new();
    for (list, bit) in
        [(EXPR_WORDS, IN_EXPR), (STMT_WORDS, IN_STMT), (GOES_ON, IN_GOES_ON), (BEFORE_REGEX, IN_BEFORE_REGEX)]
    {
        for w in list {
            debug_assert!(w.len() <= LONGEST_WORD);
            let key = pack(w);
            match words.iter_mut().find(|(k, _)| *k == key) {
                Some((_, bits)) => *bits |= bit,
                None => words.push((key, bit)),
            }
        }
    }
    words.sort_unstable();
    words
});

/// The lists `w` is in, as bits.
fn word_lists(w: &[u8]) -> u8 {
    if w.len() < 2 || w.len() > LONGEST_WORD || !w[0].is_ascii_lowercase() {
        return 0;
    }
    let key = pack(w);
    WORDS.binary_search_by_key(&key, |&(k, _)| k).map_or(0, |i| WORDS[i].1)
}

/// What the scan last saw, for the two questions it asks of it: is a `/` a division or a regular
/// expression, and is `name :` a label.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Prev {
    /// The start, or a line's start after an unsure line.
    Start,
    /// A name, a number, a string, a template, `]`: a `/` after it divides.
    Value,
    /// A plain name (a label's candidate).
    Name,
    /// `)`, `}`, `++`, `--`: a `/` after it is either.
    Either,
    /// Any other punctuator or keyword: a `/` after it starts a regular expression.
    Op(u8),
}

#[derive(Default)]
struct Level {
    /// A template's `${`: its `}` goes back into the template's text.
    template: bool,
    /// Expression constructs since the level's last `,` or `;`.
    expr: usize,
    /// Statement constructs and labels since the level opened.
    stmt: usize,
    /// Unclosed `<`: while any is open, a `,` is a type argument list's, which resets nothing.
    angle: usize,
}

/// The offset where the parser's recursion could first go past [`MAX_PARSE_DEPTH`], by a scan that
/// counts, per open bracket, the recursive constructs since the bracket's last `,` or `;` (for an
/// expression's; its statements' until it closes), skipping strings, templates' text, comments and
/// regular expressions. It errs only towards counting more: a `/` it cannot tell (after `)`, `}`,
/// `++`, `--`) counts the rest of its line as never undone, and a line it cannot tell the end of
/// (a template or a comment opened after such a `/`, a `/` inside `${}`) counts every construct
/// to the end of the file so.
fn too_deep_for_the_parser(text: &str) -> Option<usize> {
    if !may_nest_past_the_budget(text.as_bytes()) {
        return None;
    }
    scan_depth(text)
}

/// The scan of [`too_deep_for_the_parser`], with no quick bound first.
fn scan_depth(text: &str) -> Option<usize> {
    let b = text.as_bytes();
    let n = b.len();
    let mut levels: Vec<Level> = vec![Level::default()];
    // The sum over `levels` of 1 + expr + stmt, and the counts never undone.
    let (mut live, mut kept) = (1usize, 0usize);
    let mut prev = Prev::Start;
    let mut i = 0;
    // Is `c` one of the constructs counted as one level wherever it is?
    let mut label_ok = false; // could a statement start at the `Prev::Name` just seen (a label)?
    macro_rules! over {
        ($at:expr) => {
            if live + kept > MAX_PARSE_DEPTH {
                return Some($at);
            }
        };
    }
    // Did a statement just end here (a `;`, or a `}` closing a block)? A name next starts another,
    // unless it goes on with the one that ended (`else`, a do's `while`, `catch`, an operator).
    let mut after_end = false;
    while i < n {
        let c = b[i];
        let trivia = matches!(c, b' ' | b'\t' | b'\r' | b'\n' | 0x0b | 0x0c)
            || (c == b'/' && matches!(b.get(i + 1), Some(b'/' | b'*')));
        let was_end = if trivia { after_end } else { std::mem::replace(&mut after_end, false) };
        match c {
            b' ' | b'\t' | b'\r' | b'\n' | 0x0b | 0x0c => {
                i += 1;
                continue;
            }
            b'/' if b.get(i + 1) == Some(&b'/') => {
                while i < n && b[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                i += 2;
                while i < n && !(b[i] == b'*' && b.get(i + 1) == Some(&b'/')) {
                    i += 1;
                }
                i += 2;
                continue;
            }
            b'/' => match prev {
                Prev::Value | Prev::Name => {
                    prev = Prev::Op(b'/');
                    i += 1;
                }
                Prev::Op(_) | Prev::Start => {
                    // A regular expression: to its closing `/` on the line, past escapes and classes.
                    i += 1;
                    let mut class = false;
                    while i < n && b[i] != b'\n' {
                        match b[i] {
                            b'\\' => i += 1,
                            b'[' => class = true,
                            b']' => class = false,
                            b'/' if !class => break,
                            _ => {}
                        }
                        i += 1;
                    }
                    i += 1;
                    prev = Prev::Value;
                }
                _ => {
                    // Division or a regular expression: the rest of the line counts as never undone.
                    let end = b[i..].iter().position(|&c| c == b'\n').map_or(n, |p| i + p);
                    if let Some(at) = keep(b, i + 1, end, live, &mut kept) {
                        return Some(at);
                    }
                    let rest = &b[i + 1..end];
                    let unsure = levels.iter().any(|l| l.template)
                        || rest.contains(&b'`')
                        || rest.windows(2).any(|w| w == b"/*")
                        || rest.iter().rev().find(|&&c| c != b'\r') == Some(&b'\\');
                    if unsure {
                        return keep(b, end, n, live, &mut kept);
                    }
                    i = end;
                    // A `/` at the next line's start may divide what ended this one.
                    prev = Prev::Either;
                }
            },
            b'\'' | b'"' => {
                i += 1;
                while i < n && b[i] != c && b[i] != b'\n' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
                i += 1;
                prev = Prev::Value;
            }
            b'`' => {
                let (at, inside) = template_text(b, i + 1, &mut levels, &mut live);
                over!(i);
                i = at;
                prev = if inside { Prev::Op(b'{') } else { Prev::Value };
            }
            b'(' | b'[' | b'{' => {
                levels.push(Level::default());
                live += 1;
                over!(i);
                prev = Prev::Op(c);
                i += 1;
                continue;
            }
            b')' | b']' | b'}' => {
                let template = levels.last().is_some_and(|l| l.template);
                if levels.len() > 1 && (!template || c == b'}') {
                    let l = levels.pop().unwrap_or_default();
                    live -= 1 + l.expr + l.stmt;
                }
                after_end = c == b'}' && !template;
                if template && c == b'}' {
                    let (at, inside) = template_text(b, i + 1, &mut levels, &mut live);
                    over!(i);
                    i = at;
                    prev = if inside { Prev::Op(b'{') } else { Prev::Value };
                    continue;
                }
                prev = if c == b']' { Prev::Value } else { Prev::Either };
                i += 1;
                continue;
            }
            b',' | b';' => {
                let top = levels.last_mut().expect("the file's level");
                after_end = c == b';';
                if c == b';' || top.angle == 0 {
                    live -= top.expr;
                    top.expr = 0;
                    if c == b';' {
                        top.angle = 0;
                    }
                }
                prev = Prev::Op(c);
                i += 1;
                continue;
            }
            b':' => {
                let top = levels.last_mut().expect("the file's level");
                let label = prev == Prev::Name && label_ok;
                if label {
                    top.stmt += 1;
                    live += 1;
                    over!(i);
                }
                // A label's `:` is `L`: a statement, so another label, may start after it.
                prev = Prev::Op(if label { b'L' } else { c });
                i += 1;
                continue;
            }
            c if c.is_ascii_digit() => {
                while i < n && (is_word(b[i]) || b[i] == b'.') {
                    i += 1;
                }
                prev = Prev::Value;
                continue;
            }
            c if is_word(c) => {
                let start = i;
                while i < n && is_word(b[i]) {
                    i += 1;
                }
                let w = &b[start..i];
                let lists = word_lists(w);
                let top = levels.last_mut().expect("the file's level");
                let after_dot = prev == Prev::Op(b'.');
                // The statements before this one are done: theirs are no longer on the stack.
                if was_end && lists & IN_GOES_ON == 0 {
                    live -= top.stmt;
                    top.stmt = 0;
                }
                label_ok = matches!(prev, Prev::Start | Prev::Either | Prev::Op(b';' | b'{' | b'L'));
                if !after_dot && lists & IN_STMT != 0 {
                    top.stmt += 1;
                    live += 1;
                } else if !after_dot && lists & IN_EXPR != 0 {
                    top.expr += 1;
                    live += 1;
                }
                over!(start);
                prev = if after_dot {
                    Prev::Value
                } else if matches!(w, b"else" | b"do") {
                    // A statement starts after them: as after `;`.
                    Prev::Op(b';')
                } else if lists & (IN_BEFORE_REGEX | IN_STMT) != 0 {
                    Prev::Op(b'k')
                } else {
                    Prev::Name
                };
                continue;
            }
            _ => {
                let top = levels.last_mut().expect("the file's level");
                if is_op(c) {
                    top.expr += 1;
                    live += 1;
                    if c == b'<' {
                        top.angle += 1;
                    }
                    over!(i);
                } else if c == b'>' && i > 0 && b[i - 1] != b'=' {
                    top.angle = top.angle.saturating_sub(1);
                }
                let pair = (c == b'+' || c == b'-') && b.get(i + 1) == Some(&c);
                prev = if pair { Prev::Either } else { Prev::Op(c) };
                i += if pair { 2 } else { 1 };
                continue;
            }
        }
    }
    None
}

/// Could the scan below count past [`MAX_PARSE_DEPTH`] at all? The scan counts one level at most
/// per byte that opens a bracket or a `${`, is a `:` or an operator of [`is_op`], or starts a word
/// (two for a `$`, which is both); each such byte is not white space and is no lowercase letter
/// after a letter (a name going on). So their count is at most the count of the bytes that are
/// not white space, less those going on with a name, plus the `$`s: a sum that vectorizes (about
/// 1.5 instructions a byte, against the scan's 30). A text under the budget by that count cannot
/// nest past it, and the scan is skipped: every ordinary Workflow (a generated 150-line Workflow
/// counts about 1 700).
fn may_nest_past_the_budget(b: &[u8]) -> bool {
    // The first byte's two counts, and the level of the file itself.
    let mut count = 3usize;
    let counted = |c: u8, p: u8| {
        let goes_on = (c.wrapping_sub(b'a') < 26) & ((p | 0x20).wrapping_sub(b'a') < 26);
        u8::from((c > b' ') & !goes_on) + u8::from(c == b'$')
    };
    let mut i = 1;
    // Blocks of 64 bytes and their 64 predecessors: fixed-size arrays, so the sum vectorizes; at
    // most 128 per block, which a `u8` holds.
    while i + 64 <= b.len() {
        let (Ok(cur), Ok(prev)) = (<&[u8; 64]>::try_from(&b[i..i + 64]), <&[u8; 64]>::try_from(&b[i - 1..i + 63]))
        else {
            return true;
        };
        let mut n = 0u8;
        for (&c, &p) in cur.iter().zip(prev) {
            n += counted(c, p);
        }
        count += usize::from(n);
        if count > MAX_PARSE_DEPTH {
            return true;
        }
        i += 64;
    }
    for (&c, &p) in b.get(i..).unwrap_or_default().iter().zip(&b[i - 1..]) {
        count += usize::from(counted(c, p));
    }
    count > MAX_PARSE_DEPTH
}

/// Skips a template's text from `i` (just past its `` ` `` or a `}` closing a `${`): to its closing
/// `` ` `` (the offset past it), or into a `${`, which opens a level (the offset past the `{`).
fn template_text(b: &[u8], mut i: usize, levels: &mut Vec<Level>, live: &mut usize) -> (usize, bool) {
    while i < b.len() {
        match b[i] {
            b'\\' => i += 2,
            b'`' => return (i + 1, false),
            b'$' if b.get(i + 1) == Some(&b'{') => {
                levels.push(Level { template: true, ..Level::default() });
                *live += 1;
                return (i + 2, true);
            }
            _ => i += 1,
        }
    }
    (i, false)
}

/// Counts what `b[from..to]` may nest as never undone (into `kept`): every bracket, operator,
/// `:` and counted word; the offset where `live + kept` goes past [`MAX_PARSE_DEPTH`].
fn keep(b: &[u8], from: usize, to: usize, live: usize, kept: &mut usize) -> Option<usize> {
    let mut j = from;
    while j < to {
        let c = b[j];
        if is_word(c) {
            let start = j;
            while j < to && is_word(b[j]) {
                j += 1;
            }
            *kept += usize::from(word_lists(&b[start..j]) & (IN_EXPR | IN_STMT) != 0);
            if live + *kept > MAX_PARSE_DEPTH {
                return Some(start);
            }
            continue;
        }
        if is_op(c) || matches!(c, b'(' | b'[' | b'{' | b':') {
            *kept += 1;
            if live + *kept > MAX_PARSE_DEPTH {
                return Some(j);
            }
        }
        j += 1;
    }
    None
}

/// One of the operators counted as a level wherever it is.
fn is_op(c: u8) -> bool {
    matches!(c, b'?' | b'=' | b'!' | b'~' | b'<' | b'-' | b'+' | b'*')
}

/// A byte of a name (or of a number, which goes with it).
fn is_word(c: u8) -> bool {
    WORD_BYTES[usize::from(c)]
}

const WORD_BYTES: [bool; 256] = {
    let mut table = [false; 256];
    let mut i = 0;
    while i < 256 {
        let c = i as u8;
        table[i] = c.is_ascii_alphanumeric() || c == b'_' || c == b'$' || c == b'#' || c >= 0x80;
        i += 1;
    }
    table
};

#[cfg(test)]
mod tests {
    use super::*;

    /// The quick bound never says "cannot nest" of a text the scan refuses (every construct just
    /// past the budget and just under it, with and without white space), and lets an ordinary
    /// Workflow through.
    #[test]
    fn the_quick_bound_is_an_upper_bound() {
        let texts = nested(MAX_PARSE_DEPTH + 8).into_iter().chain(nested(MAX_PARSE_DEPTH - 40));
        let mut refused = 0;
        for (name, text) in texts {
            if scan_depth(&text).is_some() {
                refused += 1;
                assert!(may_nest_past_the_budget(text.as_bytes()), "{name}");
            }
            // The same constructs with no white space between their tokens.
            let packed = text.replace(' ', "");
            if scan_depth(&packed).is_some() {
                assert!(may_nest_past_the_budget(packed.as_bytes()), "{name} without spaces");
            }
        }
        assert!(refused >= nested(MAX_PARSE_DEPTH + 8).len(), "every construct past the budget is refused by the scan");
        assert!(!may_nest_past_the_budget("(".repeat(MAX_PARSE_DEPTH - 2).as_bytes()));
        assert!(may_nest_past_the_budget("(".repeat(MAX_PARSE_DEPTH).as_bytes()));
        let notes = std::fs::read_to_string(base::workspace::root().join("examples/instance/workflows/fix-tests.ts"));
        assert!(!may_nest_past_the_budget(notes.expect("the example Workflow").as_bytes()));
    }

    /// The packed lookup says of every word exactly which lists hold it, and of other names none.
    #[test]
    fn word_lists_are_the_lists() {
        let lists =
            [(EXPR_WORDS, IN_EXPR), (STMT_WORDS, IN_STMT), (GOES_ON, IN_GOES_ON), (BEFORE_REGEX, IN_BEFORE_REGEX)];
        for (list, _) in lists {
            for w in list {
                let want = lists.iter().filter(|(l, _)| l.contains(w)).fold(0, |bits, (_, bit)| bits | bit);
                assert_eq!(word_lists(w), want, "{}", String::from_utf8_lossy(w));
            }
        }
        for other in [&b"context"[..], b"x", b"If", b"newx", b"ne", b"instanceofx", b"", b"\xc3\xa9t\xc3\xa9"] {
            assert_eq!(word_lists(other), 0, "{}", String::from_utf8_lossy(other));
        }
    }

    /// Each construct oxc's parser recurses into, `k` levels deep (about `k` of the scan's levels).
    fn nested(k: usize) -> Vec<(&'static str, String)> {
        let r = |s: &str, n: usize| s.repeat(n);
        let b = if k <= MAX_PARSE_DEPTH { k.min(MAX_NESTING - 8) } else { k };
        vec![
            ("ternary", format!("x = {}a{};", r("a ? ", k), r(" : a", k))),
            ("ternary in the alternate", format!("x = {}a;", r("a ? a : ", k))),
            ("arrow", format!("x = {}a;", r("a => ", k))),
            ("async arrow", format!("x = {}a;", r("async a => ", k / 2))),
            ("parenthesized arrow", format!("x = {}a;", r("(a) => ", k))),
            ("assignment", format!("{}1;", r("a = ", k))),
            ("compound assignment", format!("{}1;", r("a += ", k / 2))),
            ("yield", format!("function* f() {{ {}1 }}", r("yield ", k))),
            ("await", format!("async function f() {{ {}1 }}", r("await ", k))),
            ("generics", format!("let x: {}number{};", r("Array<", k), r(">", k))),
            ("not", format!("x = {}a;", r("!", k))),
            ("minus", format!("x = {}a;", r("- ", k))),
            ("tilde", format!("x = {}a;", r("~", k))),
            ("typeof", format!("x = {}a;", r("typeof ", k))),
            ("void", format!("x = {}a;", r("void ", k))),
            ("new", format!("x = {}X;", r("new ", k))),
            ("exponent", format!("x = {}a;", r("a ** ", k / 2))),
            ("labels", format!("{}1;", r("a: ", k))),
            ("if", format!("{}1;", r("if (a) ", k))),
            ("else if", format!("{}1;", r("if (a) 1; else ", k / 2))),
            ("while", format!("{}1;", r("while (a) ", k))),
            ("conditional type", format!("type T = {}C{};", r("A extends B ? ", k / 2), r(" : D", k / 2))),
            ("function type", format!("let f: {}void;", r("() => ", k))),
            ("keyof", format!("type T = {}A;", r("keyof ", k))),
            ("type assertion", format!("x = {}a;", r("<T>", k))),
            ("as", format!("x = a{};", r(" as T", k))),
            // Brackets stop at MAX_NESTING before this budget.
            ("template", format!("x = {}a{};", r("`${", b), r("}`", b))),
            ("brackets and ternaries", format!("x = {}a{};", r("(a ? ", b.min(k / 2)), r(" : a)", b.min(k / 2)))),
            ("ternaries in brackets", format!("x = ({}a{});", r("a ? ", k - 8), r(" : a", k - 8))),
        ]
    }

    /// Past the budget, every construct is refused before oxc runs: at about 80 000 levels (where
    /// oxc overflowed the evaluator's 64 MiB stack, or 44 000 for type arguments, 720 000 for `!`).
    #[test]
    fn every_recursive_construct_past_the_budget_is_refused() {
        for (name, text) in nested(80_000).into_iter().chain([("720 000 !", format!("x = {}a;", "!".repeat(720_000)))])
        {
            let allocator = Allocator::default();
            let fault = parse(&allocator, &text).expect_err(name);
            assert!(fault.message.contains("deeper than"), "{name}: {}", fault.message);
            assert!(too_deep_for_the_parser(&text).is_some(), "{name}");
        }
    }

    /// The budget's proof: every construct at the budget parses on a quarter of the evaluator's
    /// stack, unoptimized (where frames are larger than in a release build).
    #[test]
    fn the_budget_fits_a_quarter_of_the_stack() {
        let k = MAX_PARSE_DEPTH - 16;
        let cases = nested(k);
        let run = std::thread::Builder::new().stack_size(16 << 20).spawn(move || {
            for (name, text) in cases {
                assert_eq!(too_deep_for_the_parser(&text), None, "{name} at {k} is within the budget");
                let allocator = Allocator::default();
                let program = parse(&allocator, &text);
                assert!(program.is_ok(), "{name}: {:?}", program.err().map(|f| f.message));
            }
        });
        run.expect("spawn").join().expect("every construct at the budget parses");
    }

    /// What the scan does not count, oxc reads in a loop, not by recursion: 200 000 of each parse
    /// on a quarter of the evaluator's stack.
    #[test]
    fn what_is_not_counted_does_not_recurse() {
        let k = 200_000;
        let r = |s: &str, n: usize| s.repeat(n);
        let cases = vec![
            ("union", format!("type T = {}A;", r("A | ", k))),
            ("intersection", format!("type T = {}A;", r("A & ", k))),
            ("and", format!("x = {}a;", r("a && ", k))),
            ("members", format!("x = a{};", r(".b", k))),
            ("calls", format!("x = f{};", r("()", k))),
            ("comma", format!("x = ({}a);", r("a, ", k))),
            ("statements", r("a;", k)),
            ("sequential ifs", format!("function f() {{ {} }}", r("if (a) b; ", k / 100))),
        ];
        let run = std::thread::Builder::new().stack_size(16 << 20).spawn(move || {
            for (name, text) in cases {
                let allocator = Allocator::default();
                let program = parse(&allocator, &text);
                assert!(program.is_ok(), "{name}: {:?}", program.err().map(|f| f.message));
            }
        });
        run.expect("spawn").join().expect("no uncounted construct recurses");
    }

    /// What a Workflow holds does not count: strings, templates' text, comments and regular
    /// expressions are skipped, and a `,` or `;` ends an expression's count.
    #[test]
    fn ordinary_text_is_far_from_the_budget() {
        let prompt = "Is it? - yes! <b>if</b> new = old ".repeat(10_000);
        let text = format!(
            "// {prompt}\n/* {prompt} */\nconst a = '{prompt}';\nconst b = \"{prompt}\";\nconst c = `{prompt}${{a}}{prompt}`;\nconst r = /[?!=<(]+/g;\nconst o = {{ {} }};\n",
            (0..20_000).map(|i| format!("k{i}: (x) => x ? !x : -x")).collect::<Vec<_>>().join(", ")
        );
        assert_eq!(too_deep_for_the_parser(&text).map(|at| &text[at.saturating_sub(60)..at + 20]), None);
        let statements = "if (a) { b = !c ? d : e; }\n".repeat(20_000);
        assert_eq!(too_deep_for_the_parser(&format!("function f() {{ {statements} }}")), None);
        // A division after `)` counts its line as never undone, and no more.
        let divisions = "const d = f(x) / 2 ? 1 : 0;\n".repeat(1_000);
        assert_eq!(too_deep_for_the_parser(&divisions), None);
    }

    /// A string's, a comment's or a regular expression's brackets and operators undo nothing: the
    /// count goes on past them.
    #[test]
    fn what_is_skipped_hides_no_nesting() {
        let k = 80_000;
        for text in [
            format!("x = {}a;", "a ? ')' : ".repeat(k)),
            format!("x = {}a;", "a ? /*,*/ ".repeat(k)),
            format!("x = {}a;", "a ? \",\" + ".repeat(k)),
            format!("x = {}a;", "(/)/, ".repeat(k)),
            format!("x = f(x) / {}a;", "!".repeat(k)),
            format!("x = f(x) /'/; {}a;'", "!".repeat(k)),
            format!("x = `${{f(x) / 2}}\n{}`;", "!".repeat(k)),
        ] {
            assert!(too_deep_for_the_parser(&text).is_some(), "{}", &text[..40]);
        }
    }

    /// The vectorized count sees each `(`, `[` and `{` (in the 128-byte chunks and in the tail)
    /// and no other byte, not even those one bit away (`;`, `K`, `k`, `H`, `\x08`, `\x1b`).
    #[test]
    fn the_opening_count_sees_each_bracket_and_nothing_else() {
        let naive = |t: &str| t.bytes().filter(|b| matches!(b, b'(' | b'[' | b'{')).count();
        let unit = "\x08\x1b;Hh[K{k(\x5b\x7b]})x";
        for n in [0, 1, 7, 8, 9, 31, 100] {
            let text = unit.repeat(n) + &"(".repeat(n % 5);
            assert_eq!(opening_brackets(&text), naive(&text), "{n} units");
        }
        assert_eq!(opening_brackets(&";KkHh\x08\x1b".repeat(100)), 0);
    }

    /// A file nesting one past the limit is refused at the bracket that goes past, one at the limit
    /// is read, whatever the bracket and wherever the run starts.
    #[test]
    fn nesting_past_the_limit_is_refused_where_it_goes_past() {
        for (open, close) in [("(", ")"), ("[", "]"), ("{", "}")] {
            for pad in [0, 1, 127, 128, 300] {
                let lead = " ".repeat(pad);
                let at_limit = format!("{lead}{}{}", open.repeat(MAX_NESTING), close.repeat(MAX_NESTING));
                assert_eq!(too_deep(&at_limit), None, "{open} x {MAX_NESTING} after {pad} spaces");
                let past = format!("{lead}{}", open.repeat(MAX_NESTING + 1));
                assert_eq!(too_deep(&past), Some(pad + MAX_NESTING), "{open} past the limit after {pad} spaces");
            }
        }
    }
}
