//! Suppressions and the project config, `jr2c.toml`: what a run reports of what the checks found.
//!
//! Applied after the checks, over each file's diagnostics (`docs/reference/suppressions.md`):
//!
//! 1. the config's `rules.ignore` drops every diagnostic of those codes;
//! 2. an inline suppression in a `.ts` file, `// jr2-ignore[code, ...]: reason`, drops the
//!    diagnostics of its codes whose primary span starts on its line (a comment after code, as
//!    eslint's `eslint-disable-line`) or, when the comment is alone on its line, on the next line
//!    (eslint's `eslint-disable-next-line`). The reason is required: one without is no
//!    suppression, and `suppression-without-reason` says so;
//! 3. a `[[suppress]]` entry of the config (`file`, `code`, optional `path`, `reason`) drops the
//!    diagnostics of its code in that file (at that dotted path): the form for Charts, whose JSON
//!    has no comments;
//! 4. the config's `rules.severity` makes a warning rule's diagnostics errors.
//!
//! A suppression that dropped nothing (inline or in the config) is reported: `unused-suppression`.
//! The config of a file is the `jr2c.toml` of the nearest folder above it that has one (an
//! Instance's root). The check layer knows nothing of this: a rule's severity is its declared one
//! (`tests/it/severities.rs`), and the config changes what a run reports.

use crate::rules::config::{self, Subject};
use base::Span;
use diagnostics::{Diagnostic, Severity};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The config file's name, at an Instance's root.
pub const CONFIG_FILE: &str = "jr2c.toml";

/// A read `jr2c.toml`.
#[derive(Clone, Debug)]
pub struct Config {
    /// The config file.
    pub path: PathBuf,
    pub text: String,
    /// Exit 1 on a warning too, as `--deny-warnings`.
    pub deny_warnings: bool,
    /// The codes never reported.
    pub ignore: Vec<&'static str>,
    /// The warning rules reported as errors.
    pub errors: Vec<&'static str>,
    /// The per-file suppressions.
    pub suppress: Vec<FileSuppression>,
}

/// One `[[suppress]]` entry.
#[derive(Clone, Debug)]
pub struct FileSuppression {
    /// The file, relative to the config's folder, with `/`.
    pub file: String,
    pub code: &'static str,
    /// The dotted path of the value (a door line's `states.a.invoke.src`); any, when unsaid.
    pub path: Option<String>,
    pub reason: String,
    /// The entry's place in the config text.
    pub span: Span,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct Raw {
    #[serde(default)]
    deny_warnings: bool,
    #[serde(default)]
    rules: RawRules,
    #[serde(default)]
    suppress: Vec<toml::Spanned<RawSuppress>>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct RawRules {
    #[serde(default)]
    ignore: Vec<toml::Spanned<String>>,
    #[serde(default)]
    severity: BTreeMap<String, toml::Spanned<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSuppress {
    file: String,
    code: String,
    path: Option<String>,
    reason: String,
}

/// A bad config: the message names the file, line and column.
#[derive(Debug)]
pub struct ConfigError(pub String);

/// The `jr2c.toml` that governs `file`: in the nearest folder above it that has one.
pub fn find_config(file: &Path) -> Option<PathBuf> {
    file.ancestors().skip(1).map(|d| d.join(CONFIG_FILE)).find(|c| c.is_file())
}

/// A registry code, or an error at `span` of `text` with a suggestion.
fn known(code: &str, what: &str, at: (&Path, &str, Span)) -> Result<&'static str, ConfigError> {
    let all = crate::rules::all();
    if let Some(r) = all.iter().find(|r| r.code == code) {
        return Ok(r.code);
    }
    let codes: Vec<&str> = all.iter().map(|r| r.code).collect();
    let hint = base::suggest::did_you_mean(code, &codes);
    Err(error(at, format!("{what} \"{code}\" is no rule{hint} (`jr2 rules` lists them)")))
}

fn error((path, text, span): (&Path, &str, Span), message: String) -> ConfigError {
    let pos = base::line_index::LineIndex::new(text).position(text, span.start.min(text.len() as u32));
    ConfigError(format!("bad config {}:{}:{}: {message}", path.display(), pos.line, pos.column))
}

fn span(r: std::ops::Range<usize>) -> Span {
    Span::new(r.start.min(u32::MAX as usize) as u32, r.end.min(u32::MAX as usize) as u32)
}

/// Reads a config's text (`path` names it in messages).
pub fn parse_config(path: &Path, text: &str) -> Result<Config, ConfigError> {
    let raw: Raw = toml::from_str(text).map_err(|e| {
        let at = e.span().map_or(Span::new(0, 0), span);
        error((path, text, at), e.message().trim().to_string())
    })?;
    let at = |s: Span| (path, text, s);
    let mut config = Config {
        path: path.to_path_buf(),
        text: text.to_string(),
        deny_warnings: raw.deny_warnings,
        ignore: Vec::new(),
        errors: Vec::new(),
        suppress: Vec::new(),
    };
    for code in &raw.rules.ignore {
        config.ignore.push(known(code.get_ref(), "rules.ignore names", at(span(code.span())))?);
    }
    for (code, severity) in &raw.rules.severity {
        let s = span(severity.span());
        let code = known(code, "rules.severity names", at(s))?;
        let declared = crate::rules::find(code).map(|r| r.severity);
        match (severity.get_ref().as_str(), declared) {
            ("error", Some(Severity::Warning)) => config.errors.push(code),
            ("error", _) => {}
            ("warning", Some(Severity::Error)) => {
                return Err(error(
                    at(s),
                    format!("\"{code}\" is an error: the runtime refuses what it finds, so it cannot be made a warning (suppress it where it is meant, with a reason)"),
                ))
            }
            ("warning", _) => {}
            (other, _) => {
                return Err(error(at(s), format!("a severity is \"error\" or \"warning\", not \"{other}\"")));
            }
        }
    }
    for entry in &raw.suppress {
        let s = span(entry.span());
        let e = entry.get_ref();
        let code = known(&e.code, "a [[suppress]] entry names", at(s))?;
        if e.reason.trim().is_empty() {
            return Err(error(at(s), "a [[suppress]] entry needs a reason: say why the finding is wrong here".into()));
        }
        let file = e.file.replace('\\', "/").trim_start_matches("./").to_string();
        config.suppress.push(FileSuppression { file, code, path: e.path.clone(), reason: e.reason.clone(), span: s });
    }
    Ok(config)
}

/// Reads the config file at `path`.
pub fn read_config(path: &Path) -> Result<Config, ConfigError> {
    let text = base::read::read_text(path).map_err(|e| ConfigError(format!("cannot read {}: {e}", path.display())))?;
    parse_config(path, &text)
}

/// One `// jr2-ignore[...]` comment of a file.
#[derive(Debug)]
struct Inline {
    /// The line (0-based) whose diagnostics it drops.
    line: usize,
    /// Its codes, each with its span in the text.
    codes: Vec<(String, Span)>,
    has_reason: bool,
    /// The comment's span.
    span: Span,
}

const MARK: &str = "jr2-ignore[";

/// The inline suppressions of a `.ts` text.
fn inline_suppressions(text: &str) -> Vec<Inline> {
    let mut out = Vec::new();
    if !text.contains(MARK) {
        return out;
    }
    let mut start = 0usize;
    for (n, line) in text.split_inclusive('\n').enumerate() {
        let at = start;
        start += line.len();
        let Some(slash) = line.find("//") else { continue };
        let after = &line[slash + 2..];
        let trimmed = after.trim_start();
        if !trimmed.starts_with(MARK) {
            continue;
        }
        let open = slash + 2 + (after.len() - trimmed.len()) + MARK.len();
        let Some(close) = line[open..].find(']').map(|c| open + c) else { continue };
        let mut codes = Vec::new();
        let mut from = open;
        for part in line[open..close].split(',') {
            let lead = part.len() - part.trim_start().len();
            let code = part.trim();
            if !code.is_empty() {
                let s = (at + from + lead) as u32;
                codes.push((code.to_string(), Span::new(s, s + code.len() as u32)));
            }
            from += part.len() + 1;
        }
        let rest = line[close + 1..].trim_end();
        let has_reason = rest.strip_prefix(':').is_some_and(|r| !r.trim().is_empty());
        let alone = line[..slash].trim().is_empty();
        let end = at + line.trim_end().len();
        out.push(Inline {
            line: if alone { n + 1 } else { n },
            codes,
            has_reason,
            span: Span::new((at + slash) as u32, end as u32),
        });
    }
    out
}

/// The suppressions of a run: each config read once, and which of its entries dropped something.
/// `jr2 check`, `jr2 check --fix` and the LSP all report a file's diagnostics through
/// [`Suppressions::report`], so a suppressed diagnostic is neither shown nor fixed anywhere.
#[derive(Default)]
pub struct Suppressions {
    /// Each config, and for each of its entries whether its file was checked and whether it
    /// dropped something.
    configs: Vec<(Config, Vec<Use>)>,
    /// The config of each folder met (an index of `configs`, or none), so that a folder's
    /// config is looked for once.
    by_dir: std::collections::HashMap<PathBuf, Option<usize>>,
}

/// What became of one `[[suppress]]` entry in a run.
#[derive(Clone, Copy, Default)]
struct Use {
    checked: bool,
    used: bool,
}

impl Suppressions {
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a config of the run (each read once; a second add of one path is ignored).
    pub fn add(&mut self, config: Config) -> usize {
        if let Some(i) = self.configs.iter().position(|(c, _)| c.path == config.path) {
            return i;
        }
        let used = vec![Use::default(); config.suppress.len()];
        self.configs.push((config, used));
        self.configs.len() - 1
    }

    /// The config that governs `file` ([`find_config`]), read the first time a file of its
    /// folder is met: its index for [`Suppressions::apply`], `None` where no folder above `file`
    /// has one. A config that does not parse is an error (the run's end, exit 2, in `jr2 check`).
    pub fn config_of(&mut self, file: &Path) -> Result<Option<usize>, ConfigError> {
        let dir = file.parent().map(Path::to_path_buf).unwrap_or_default();
        if let Some(c) = self.by_dir.get(&dir) {
            return Ok(*c);
        }
        let c = match find_config(file) {
            Some(path) => Some(self.add(read_config(&path)?)),
            None => None,
        };
        self.by_dir.insert(dir, c);
        Ok(c)
    }

    /// One file's diagnostics as every reader reports them (`jr2 check`, `--fix`, the LSP): its
    /// config found ([`Suppressions::config_of`]) and applied, with its inline suppressions
    /// (`text` is the file's text, the editor's buffer in the LSP).
    pub fn report(
        &mut self,
        file: &Path,
        text: &str,
        diagnostics: Vec<Diagnostic>,
    ) -> Result<Vec<Diagnostic>, ConfigError> {
        let config = self.config_of(file)?;
        Ok(self.apply(config, file, text, diagnostics))
    }

    /// Whether a config of the run sets `deny-warnings`.
    pub fn deny_warnings(&self) -> bool {
        self.configs.iter().any(|(c, _)| c.deny_warnings)
    }

    /// One file's diagnostics as the run reports them: `config` is its config's index (from
    /// [`Suppressions::add`]), `file` its path (for the config's `file` entries), `text` its text
    /// (for its inline suppressions, in a `.ts` file).
    pub fn apply(
        &mut self,
        config: Option<usize>,
        file: &Path,
        text: &str,
        diagnostics: Vec<Diagnostic>,
    ) -> Vec<Diagnostic> {
        let mut entry = config.and_then(|i| self.configs.get_mut(i));
        let ignored =
            |d: &Diagnostic, c: Option<&(Config, Vec<Use>)>| c.is_some_and(|(c, _)| c.ignore.contains(&d.code));
        let mut kept: Vec<Diagnostic> = diagnostics.into_iter().filter(|d| !ignored(d, entry.as_deref())).collect();
        let mut found = crate::rules::Sink::default();
        if file.extension().is_some_and(|e| e == "ts") {
            let inline = inline_suppressions(text);
            let lines = base::line_index::LineIndex::new(text);
            let line_of = |s: Span| lines.position(text, s.start.min(text.len() as u32)).line as usize - 1;
            let codes: Vec<&str> = crate::rules::all().iter().map(|r| r.code).collect();
            for s in &inline {
                // Without a reason it suppresses nothing.
                let mut unused = Vec::new();
                for (code, at) in s.codes.iter().filter(|_| s.has_reason) {
                    let before = kept.len();
                    kept.retain(|d| !(d.code == code.as_str() && line_of(d.span) == s.line));
                    if kept.len() == before {
                        unused.push((code.as_str(), *at));
                    }
                }
                let subject =
                    Subject::Inline { span: s.span, has_reason: s.has_reason, unused: &unused, codes: &codes };
                config::run(subject, &mut found);
            }
        }
        if let Some((c, used)) = entry.as_deref_mut() {
            let base = c.path.parent().unwrap_or(Path::new(""));
            let rel = file.strip_prefix(base).unwrap_or(file).to_string_lossy().replace('\\', "/");
            let rel = rel.trim_start_matches("./");
            for (i, s) in c.suppress.iter().enumerate() {
                if s.file != rel {
                    continue;
                }
                let before = kept.len();
                kept.retain(|d| !(d.code == s.code && s.path.as_ref().is_none_or(|p| d.path.as_ref() == Some(p))));
                used[i].checked = true;
                used[i].used |= kept.len() != before;
            }
            for d in &mut kept {
                if c.errors.contains(&d.code) {
                    d.severity = Severity::Error;
                }
            }
        }
        let mut found = found.into_diagnostics();
        found.retain(|d| !ignored(d, entry.as_deref()));
        kept.extend(found);
        kept
    }

    /// Each config with the warnings of its entries that dropped nothing in a file of the run
    /// (an entry of a file the run did not check is not judged), after every file was applied:
    /// (config path, its text, its warnings).
    pub fn unused(&self) -> Vec<(PathBuf, String, Vec<Diagnostic>)> {
        let mut out = Vec::new();
        for (c, used) in &self.configs {
            let mut sink = crate::rules::Sink::default();
            for (s, _) in c.suppress.iter().zip(used).filter(|(_, u)| u.checked && !u.used) {
                config::run(Subject::Entry { span: s.span, file: &s.file, code: s.code }, &mut sink);
            }
            let mut found = sink.into_diagnostics();
            found.retain(|d| !c.ignore.contains(&d.code));
            out.push((c.path.clone(), c.text.clone(), found));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inline_comments_alone_name_the_next_line_and_after_code_their_own() {
        let text = "a\n  // jr2-ignore[x, y]: because\nb // jr2-ignore[z]: since\n// jr2-ignore[w]\n";
        let found = inline_suppressions(text);
        assert_eq!(found.len(), 3);
        assert_eq!(found[0].line, 2);
        assert_eq!(found[0].codes.iter().map(|c| c.0.as_str()).collect::<Vec<_>>(), ["x", "y"]);
        assert_eq!(&text[found[0].codes[1].1.start as usize..found[0].codes[1].1.end as usize], "y");
        assert!(found[0].has_reason);
        assert_eq!(found[1].line, 2);
        assert!(!found[2].has_reason);
    }

    #[test]
    fn a_config_with_a_slip_names_the_line_and_the_rule() {
        let path = Path::new("jr2c.toml");
        let e = parse_config(path, "[rules]\nignore = [\"unknwon-target\"]\n").unwrap_err();
        assert!(e.0.contains("jr2c.toml:2:") && e.0.contains("did you mean \"unknown-target\""), "{}", e.0);
        let e = parse_config(path, "[rules.severity]\nunknown-target = \"warning\"\n").unwrap_err();
        assert!(e.0.contains("cannot be made a warning"), "{}", e.0);
        let e = parse_config(path, "deny_warnings = true\n").unwrap_err();
        assert!(e.0.contains("jr2c.toml:1:1"), "{}", e.0);
        let c = parse_config(path, "deny-warnings = true\n[rules.severity]\nunlisted-chart = \"error\"\n").unwrap();
        assert!(c.deny_warnings);
        assert_eq!(c.errors, ["unlisted-chart"]);
    }
}
