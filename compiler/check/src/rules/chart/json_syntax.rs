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
