use diagnostics::declare_rule;
use diagnostics::Diagnostic;
use syntax::json::JsonError;

declare_rule! {
    /// Refuses a text that is not JSON.
    ///
    /// ## Why
    /// A Chart is one JSON object; the door reads nothing it cannot parse. The parser recovers at
    /// each member and element, so every other error of a half-typed file is reported too. A
    /// `.json` file a Machine imports (`import config from "./config.json"`) is read by the same
    /// parser, and refused the same way: a bundler could not load it either.
    ///
    /// ## Example
    /// ```json
    /// { "states": { "a": { "type": "final" }, } }
    /// ```
    ///
    /// ## Use instead
    /// ```json
    /// { "states": { "a": { "type": "final" } } }
    /// ```
    pub static JSON_SYNTAX = { code: "json-syntax", rule: Some(1), severity: Error };
}

/// The diagnostic of one parse error.
pub fn diagnostic(e: &JsonError) -> Diagnostic {
    JSON_SYNTAX.at(e.span, e.message.clone())
}

/// The diagnostic of a Chart file that is no UTF-8 text, so no JSON text: at its first bad byte,
/// `at` in `lossy` (the file's lossy text, each bad byte run one U+FFFD).
pub fn not_utf8(lossy: &str, at: usize) -> Diagnostic {
    let at = at.min(lossy.len());
    let end = lossy.get(at..).and_then(|rest| rest.chars().next()).map_or(at, |c| at + c.len_utf8());
    let span = base::Span::new(at.min(u32::MAX as usize) as u32, end.min(u32::MAX as usize) as u32);
    JSON_SYNTAX.at(span, "the Chart file is not UTF-8 text, so it is no JSON text")
}
