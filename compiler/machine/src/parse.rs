//! Text into an oxc `Program`, and the syntax error as a fault.
//!
//! oxc has no error recovery: a file with a syntax error is one `ts-syntax` error at the first
//! error's span, and the file yields no program (no values). Nesting deeper than [`MAX_NESTING`]
//! is refused before oxc sees it, so no input overflows the parser's stack.
//!
//! Boundary: this file and `eval.rs` are the only ones that know oxc.

use crate::fault::{Fault, FaultKind};
use crate::value::{FileId, Loc};
use base::Span;
use oxc_allocator::Allocator;
use oxc_ast::ast::Program;
use oxc_parser::{ParseOptions, Parser};
use oxc_span::SourceType;

/// The deepest bracket nesting a Machine file may have.
pub const MAX_NESTING: usize = 1_000;

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
    if let Some(at) = too_deep(text) {
        return Err(syntax(
            Span::new(at as u32, (at + 1).min(text.len()) as u32),
            format!("the brackets nest deeper than {MAX_NESTING} levels here; jr2 does not read this file"),
        ));
    }
    let ret = Parser::new(allocator, text, SourceType::ts()).with_options(options()).parse();
    let first = ret.diagnostics.errors().next().cloned();
    if let Some(err) = first {
        let span = err
            .labels
            .iter()
            .find(|l| l.primary())
            .or_else(|| err.labels.first())
            .map(|l| Span::new(l.offset(), l.offset() + l.len()))
            .unwrap_or_default();
        let mut fault = syntax(span, err.message.to_string());
        fault.help = err.help.as_ref().map(|help| help.to_string());
        return Err(fault);
    }
    if ret.panicked {
        return Err(syntax(Span::default(), "the TypeScript parser could not read this file"));
    }
    Ok(ret.program)
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

#[cfg(test)]
mod tests {
    use super::*;

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
