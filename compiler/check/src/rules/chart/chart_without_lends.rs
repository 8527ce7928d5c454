//! The rule `chart-without-lends`: a Chart checked without an Open body says what was not
//! checked, so that "no problems" never means "not looked at".

use base::Span;
use diagnostics::{declare_rule, Diagnostic};

declare_rule! {
    /// Warns that a Chart was checked without an Open body, so its lent names and input shapes were not checked.
    ///
    /// ## Why
    /// The door checks a Chart against the Open body that runs it: the lend manifest says which
    /// actors, guards, actions and delays the Chart may name, which Agents it may mint with which
    /// models, and the input shape of each Effect, Gate and Agent it invokes. A Chart file given
    /// alone (`jr2 check chart.json`) with no manifest gets only the checks that need none (its
    /// JSON, its grammar, its structure, its parties): an unknown `src`, a lent part that is not
    /// lent, a wrong Effect input would all pass. So the run says so, in every format and in its
    /// summary, instead of a silent "no problems".
    ///
    /// A Chart in its place in an Instance, `workflows/<wrapper>/<chart>.json`, is checked
    /// against its wrapper's Open body, given alone too (`jr2 check
    /// workflows/notes/weekly.json`), and gets no such warning.
    ///
    /// ## Example
    /// `jr2 check hello.json`, with `hello.json` outside any Instance and no `--lends`:
    /// `the Chart was checked without an Open body: its lent names (src, guards, actions,
    /// delays), minted Agents and input shapes were not checked`.
    ///
    /// ## Use instead
    /// Give the Open body's lend manifest (`jr2 parts WRAPPER.ts --lends SLOT` prints it):
    /// ```sh
    /// jr2 check hello.json --lends notes.lends.json
    /// ```
    /// or put the Chart under its wrapper, `workflows/<wrapper>/hello.json` of an Instance,
    /// and check it there (`jr2 check workflows/<wrapper>/hello.json`, or the Instance folder).
    pub static CHART_WITHOUT_LENDS = { code: "chart-without-lends", rule: None, severity: Warning };
}

/// The message: what was not checked.
pub const MESSAGE: &str = "the Chart was checked without an Open body: its lent names (src, guards, actions, delays), minted Agents and input shapes were not checked";

/// The warning on a Chart file checked with no lend manifest, at the Chart's first character
/// (its `{`, past a byte order mark and white space): it speaks of the whole Chart.
pub fn diagnostic(text: &str) -> Diagnostic {
    let body = text.strip_prefix('\u{feff}').unwrap_or(text);
    let skipped = text.len() - body.trim_start().len();
    let end = text[skipped..].chars().next().map_or(skipped, |c| skipped + c.len_utf8());
    let span = Span::new(skipped.min(u32::MAX as usize) as u32, end.min(u32::MAX as usize) as u32);
    CHART_WITHOUT_LENDS.at(span, MESSAGE).with_label("checked without an Open body").unchecked().with_help(
        "give its Open body's lend manifest with `--lends LENDS.json` (`jr2 parts WRAPPER.ts --lends SLOT` prints it), \
         or check it in its place under its wrapper, `workflows/<wrapper>/<chart>.json` of an Instance",
    )
}
