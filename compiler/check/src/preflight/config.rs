//! The Instance config, `jr2.config.ts`, read statically into an [`InstanceConfig`].
//!
//! The file is evaluated by the same evaluator as a Workflow (`machine::eval`: nothing runs), and
//! its default export read: `defineConfig({...})` from `@jr2/orchestrator`, or the object itself
//! (`export default {...} satisfies JR2Config`). The shape (`docs/reference/config.md`):
//!
//! ```ts
//! export default defineConfig({
//!   git: { credentials: [{ url: "https://github.com/you/", secret: "github" }, { host: "*.corp.example", secret: "corp" }] },
//!   mcp: { tickets: { url: "https://mcp.example.com/tickets", secret: "tickets", timeout: 30000 } },
//!   secrets: ["github", "jira", "npm", "tickets"],
//!   sandbox: { resources: { cpu: 2, memory: "4Gi" } },
//! });
//! ```
//!
//! Each block is `None` in [`InstanceConfig`] where it could not be read (not static, or of the
//! wrong shape: a diagnostic says which), so that the pre-flight rules that need it stay silent
//! rather than refuse every name; an absent block is an empty one. Bad entries are dropped with a
//! diagnostic and the rest of the block kept. Nothing here panics on any input.

use crate::compile::Located;
use crate::rules::preflight::{
    config_missing::CONFIG_MISSING, config_not_static::CONFIG_NOT_STATIC, config_shape::CONFIG_SHAPE,
    config_unread::CONFIG_UNREAD,
};
use base::Span;
use diagnostics::{Diagnostic, Severity};
use machine::lower::describe;
use machine::module::{Disk, SourceFile, Sources};
use machine::value::{FileId, Loc, Value, ValueKind};
use machine::FaultKind;
use std::path::{Path, PathBuf};

/// The config file's name in an Instance folder.
pub const CONFIG_FILE: &str = "jr2.config.ts";

/// A name as written, with its place.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Named {
    pub name: String,
    pub loc: Loc,
}

/// The typed Instance config. A block that could not be read is `None` (see the module doc).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct InstanceConfig {
    /// `git.credentials`: where a Repo Slot's url gets its credential.
    pub credentials: Option<Vec<Credential>>,
    /// The `mcp` block: the MCP servers that Agents and `mcp()` Effects may name, in order.
    pub mcp: Option<Vec<McpServer>>,
    /// The `secrets` list: the Held secrets the Instance binds.
    pub secrets: Option<Vec<Named>>,
    /// `sandbox`: the Instance's default Sandbox.
    pub sandbox: Option<Sandbox>,
}

impl InstanceConfig {
    /// Is `name` a server of the `mcp` block? `None` when the block could not be read.
    pub fn has_mcp_server(&self, name: &str) -> Option<bool> {
        Some(self.mcp.as_ref()?.iter().any(|s| s.name == name))
    }

    /// Is `name` in `secrets`? `None` when the list could not be read.
    pub fn holds_secret(&self, name: &str) -> Option<bool> {
        Some(self.secrets.as_ref()?.iter().any(|s| s.name == name))
    }

    /// The first `git.credentials` entry that matches a git url; `None` inside when none does,
    /// `None` outside when the list could not be read.
    pub fn credential_for(&self, url: &GitUrl) -> Option<Option<&Credential>> {
        Some(self.credentials.as_ref()?.iter().find(|c| c.pattern.matches(url)))
    }
}

/// One entry of `git.credentials`: `{ url, secret, username? }` or `{ host, secret, username? }`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Credential {
    pub pattern: CredentialPattern,
    /// The Held secret holding the credential (a token, or a key).
    pub secret: Option<Named>,
    pub username: Option<String>,
    /// The entry's place.
    pub loc: Loc,
}

/// What urls a credential serves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CredentialPattern {
    /// `url`: the same scheme, host and port, and a path under this one (by segments, as git's
    /// `credential.<url>` matches; a trailing `.git` is ignored).
    Url(GitUrl),
    /// `host`: any url on this host (any scheme); `*.example.com` matches one label in place of `*`.
    Host(String),
}

impl CredentialPattern {
    pub fn matches(&self, url: &GitUrl) -> bool {
        match self {
            CredentialPattern::Host(h) => host_matches(h, &url.host),
            CredentialPattern::Url(p) => {
                p.scheme == url.scheme
                    && host_matches(&p.host, &url.host)
                    && p.port == url.port
                    && p.segments.len() <= url.segments.len()
                    && p.segments.iter().zip(&url.segments).all(|(a, b)| a == b)
            }
        }
    }

    /// As written in a message.
    pub fn text(&self) -> String {
        match self {
            CredentialPattern::Url(u) => u.text.clone(),
            CredentialPattern::Host(h) => format!("host {h}"),
        }
    }
}

/// `pattern` is a host, maybe with a leading `*.` that stands for one label.
fn host_matches(pattern: &str, host: &str) -> bool {
    match pattern.strip_prefix("*.") {
        Some(rest) => {
            host.split_once('.').is_some_and(|(label, tail)| !label.is_empty() && tail.eq_ignore_ascii_case(rest))
        }
        None => pattern.eq_ignore_ascii_case(host),
    }
}

/// A git remote url taken apart: `https://host[:port]/path`, `ssh://[user@]host[:port]/path`,
/// `git://…`, `http://…`, or the scp form `user@host:path` (scheme `ssh`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GitUrl {
    pub scheme: String,
    /// Lowercase.
    pub host: String,
    pub port: Option<u16>,
    /// The path's segments, empty ones dropped, the last one without `.git`.
    pub segments: Vec<String>,
    /// As written.
    pub text: String,
}

impl GitUrl {
    /// Parses a remote url; `None` for a local path, a `file://` url or anything without a host.
    pub fn parse(text: &str) -> Option<GitUrl> {
        let t = text.trim();
        let (scheme, rest) = match t.split_once("://") {
            Some((s, r)) => (s.to_ascii_lowercase(), r),
            None => {
                // scp-like: `[user@]host:path`, with no `/` before the `:`.
                let (authority, path) = t.split_once(':')?;
                if authority.is_empty() || authority.contains('/') || path.starts_with("//") {
                    return None;
                }
                let host = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
                return GitUrl::from_parts("ssh".into(), host, None, path, t);
            }
        };
        if !matches!(scheme.as_str(), "https" | "http" | "ssh" | "git" | "git+ssh" | "ssh+git") {
            return None;
        }
        let scheme = if scheme.contains("ssh") { "ssh".to_string() } else { scheme };
        let (authority, path) = match rest.find(['/', '?', '#']) {
            Some(i) => (&rest[..i], &rest[i..]),
            None => (rest, ""),
        };
        let path = path.split(['?', '#']).next().unwrap_or_default();
        let hostport = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
        let (host, port) = match hostport.rsplit_once(':') {
            Some((h, p)) => match p.parse::<u16>() {
                Ok(p) => (h, Some(p)),
                Err(_) if p.is_empty() => (h, None),
                Err(_) => return None,
            },
            None => (hostport, None),
        };
        let default = match scheme.as_str() {
            "https" => Some(443),
            "http" => Some(80),
            "ssh" => Some(22),
            "git" => Some(9418),
            _ => None,
        };
        let port = port.filter(|p| Some(*p) != default);
        GitUrl::from_parts(scheme, host, port, path, t)
    }

    fn from_parts(scheme: String, host: &str, port: Option<u16>, path: &str, text: &str) -> Option<GitUrl> {
        if host.is_empty() || host.contains(char::is_whitespace) {
            return None;
        }
        let mut segments: Vec<String> = path.split('/').filter(|s| !s.is_empty()).map(str::to_string).collect();
        if let Some(last) = segments.last_mut() {
            if let Some(stem) = last.strip_suffix(".git") {
                *last = stem.to_string();
            }
        }
        Some(GitUrl { scheme, host: host.to_ascii_lowercase(), port, segments, text: text.to_string() })
    }
}

/// One server of the `mcp` block: `name: { url, secret?, timeout? }`.
#[derive(Clone, Debug, PartialEq)]
pub struct McpServer {
    pub name: String,
    /// The key's place.
    pub loc: Loc,
    pub url: String,
    /// The Held secret `jr2 up` places beside the server's url (ADR-0079).
    pub secret: Option<Named>,
    /// Milliseconds; the default of its `mcp()` Effects that set none.
    pub timeout: Option<u64>,
}

/// `sandbox`: `{ resources?: { cpu?, memory? }, image? }`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Sandbox {
    /// The Instance's Size (ADR-0060): a Machine's `workspace()` that states none gets this.
    pub resources: Option<Size>,
    /// The default Sandbox Image, where it is not `images/default`.
    pub image: Option<String>,
}

/// A Size: CPUs (a number, or a Kubernetes quantity such as `"500m"`) and memory (a quantity
/// such as `"4Gi"`), as written.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Size {
    pub cpu: Option<String>,
    pub memory: Option<String>,
}

/// What reading the config made: its files (the config first), the config where it could be
/// read at all, and the diagnostics, each in its file.
#[derive(Clone, Debug)]
pub struct ConfigRead {
    pub path: PathBuf,
    pub files: Vec<SourceFile>,
    pub config: Option<InstanceConfig>,
    pub diagnostics: Vec<Located>,
}

/// Reads `<root>/jr2.config.ts` from disk.
pub fn read_config(root: &Path) -> ConfigRead {
    read_config_with(&Disk, &root.join(CONFIG_FILE))
}

/// Reads the config file at `path` from `sources`.
pub fn read_config_with(sources: &dyn Sources, path: &Path) -> ConfigRead {
    let missing = |message: String| ConfigRead {
        path: path.to_path_buf(),
        files: vec![SourceFile { path: path.to_path_buf(), text: String::new() }],
        config: None,
        diagnostics: vec![Located { file: FileId(0), diagnostic: missing_diagnostic(message) }],
    };
    if !sources.is_file(path) {
        let what = if path.exists() { "is not a file" } else { "is missing" };
        return missing(format!(
            "the Instance config {CONFIG_FILE} {what}, so `jr2 up` knows no git credentials, MCP servers or secrets"
        ));
    }
    if sources.read(path).is_none() {
        return missing(format!("cannot read the Instance config {CONFIG_FILE} as UTF-8 text"));
    }
    let ev = machine::eval::evaluate_with(sources, path);
    let mut reader = Reader { out: Vec::new() };
    let config = match ev.exports.get("default") {
        None => {
            if !ev.faults.iter().any(|f| crate::rules::machine::rule_of(f.kind).severity == Severity::Error) {
                reader.shape(
                    Loc::default(),
                    format!("{CONFIG_FILE} has no default export: write `export default defineConfig({{ ... }})`"),
                );
            }
            None
        }
        Some(v) => reader.config(v),
    };
    if let Some(c) = &config {
        let mut sink = crate::rules::Sink::default();
        crate::rules::preflight::secret_not_configured::check_config(&crate::rules::Ctx::new(c), &mut sink);
        reader.out.extend(sink.into_located());
    }
    // The evaluator's own `not-static` warning at a place this reader refuses says it twice.
    let refused: Vec<Loc> = reader
        .out
        .iter()
        .filter(|d| d.code == CONFIG_NOT_STATIC.code)
        .map(|d| Loc { file: d.file, span: d.span })
        .collect();
    let mut diagnostics: Vec<Located> = ev
        .faults
        .into_iter()
        .filter(|f| !(f.kind == FaultKind::NotStatic && refused.contains(&f.loc)))
        .map(crate::rules::machine::diagnostic)
        .collect();
    diagnostics.extend(reader.out);
    ConfigRead { path: path.to_path_buf(), files: ev.files, config, diagnostics }
}

fn missing_diagnostic(message: String) -> Diagnostic {
    CONFIG_MISSING.at(Span::new(0, 0), message).with_help(
        "add jr2.config.ts at the Instance root: `export default defineConfig({ git: { credentials: [] }, mcp: {}, secrets: [] })`",
    )
}

struct Reader {
    out: Vec<Located>,
}

/// The keys each object of the config knows.
const TOP: &[&str] = &["git", "mcp", "secrets", "sandbox"];
const GIT: &[&str] = &["credentials"];
const CREDENTIAL: &[&str] = &["url", "host", "secret", "username"];
const SERVER: &[&str] = &["url", "secret", "timeout"];
const SANDBOX: &[&str] = &["resources", "image"];
const SIZE: &[&str] = &["cpu", "memory"];

impl Reader {
    fn shape(&mut self, loc: Loc, message: String) {
        self.out.push(Located { file: loc.file, diagnostic: CONFIG_SHAPE.at(loc.span, message) });
    }

    fn unknown_key(&mut self, loc: Loc, key: &str, at: &str, known: &[&str]) {
        let d = CONFIG_UNREAD
            .at(loc.span, format!("unknown key `{key}` in {at}: `jr2 up` does not read it"))
            .with_help(format!("the keys of {at}: {}", known.join(", ")));
        self.out.push(Located { file: loc.file, diagnostic: d });
    }

    /// The value, where it is static; a `config-not-static` error at it otherwise.
    fn known<'v>(&mut self, v: &'v Value<'v>, at: &str) -> Option<&'v Value<'v>> {
        let reason = match v.kind {
            ValueKind::Unknown { reason } => reason.to_string(),
            ValueKind::Function(_) => "it is a function, and functions are not run".to_string(),
            ValueKind::Call(_) => format!("it is {}, and calls are not run", describe(v)),
            _ => return Some(v),
        };
        self.out.push(Located {
            file: v.loc.file,
            diagnostic: CONFIG_NOT_STATIC
                .at(v.loc.span, format!("{at} in {CONFIG_FILE} is not static ({reason}), so `jr2 up` cannot read it"))
                .with_help("write the value as a literal, or a `const` of one: the config is read, never run"),
        });
        None
    }

    /// An object's properties, checked against the known keys; `None` (with a diagnostic) if it
    /// is not an object.
    fn object<'v>(&mut self, v: &'v Value<'v>, at: &str, known: &[&str]) -> Option<&'v [machine::value::Prop<'v>]> {
        let v = self.known(v, at)?;
        let Some(props) = v.props() else {
            self.shape(v.loc, format!("{at} in {CONFIG_FILE} is {}, not an object", describe(v)));
            return None;
        };
        for p in props {
            if !known.contains(&p.key) {
                self.unknown_key(p.key_loc, p.key, at, known);
            }
        }
        Some(props)
    }

    fn string(&mut self, v: &Value<'_>, at: &str) -> Option<String> {
        let v = self.known(v, at)?;
        match v.as_str() {
            Some(s) if !s.trim().is_empty() => Some(s.to_string()),
            Some(_) => {
                self.shape(v.loc, format!("{at} in {CONFIG_FILE} is an empty string"));
                None
            }
            None => {
                self.shape(v.loc, format!("{at} in {CONFIG_FILE} is {}, not a string", describe(v)));
                None
            }
        }
    }

    fn config(&mut self, export: &Value<'_>) -> Option<InstanceConfig> {
        let body = if export.is_kit_call("defineConfig") {
            match export.as_call().and_then(|c| c.args.first()) {
                Some(b) => b,
                None => {
                    self.shape(export.loc, "`defineConfig()` is called with no config object".into());
                    return None;
                }
            }
        } else {
            export
        };
        let props = self.object(body, "the default export", TOP)?;
        // An absent key, or one written `undefined`, is an absent block.
        let get = |k: &str| {
            props
                .iter()
                .rev()
                .find(|p| p.key == k)
                .map(|p| &p.value)
                .filter(|v| !matches!(v.kind, ValueKind::Undefined))
        };
        let mut config = InstanceConfig {
            credentials: Some(Vec::new()),
            mcp: Some(Vec::new()),
            secrets: Some(Vec::new()),
            sandbox: None,
        };
        if let Some(git) = get("git") {
            config.credentials = self.git(git);
        }
        if let Some(mcp) = get("mcp") {
            config.mcp = self.mcp(mcp);
        }
        if let Some(secrets) = get("secrets") {
            config.secrets = self.secrets(secrets);
        }
        if let Some(sandbox) = get("sandbox") {
            config.sandbox = self.sandbox(sandbox);
        }
        Some(config)
    }

    fn git(&mut self, v: &Value<'_>) -> Option<Vec<Credential>> {
        let props = self.object(v, "`git`", GIT)?;
        let Some(list) = props.iter().rev().find(|p| p.key == "credentials").map(|p| &p.value) else {
            return Some(Vec::new());
        };
        let list = self.known(list, "`git.credentials`")?;
        let Some(items) = list.as_array() else {
            self.shape(list.loc, format!("`git.credentials` in {CONFIG_FILE} is {}, not a list", describe(list)));
            return None;
        };
        let mut out = Vec::new();
        for (i, item) in items.iter().enumerate() {
            if let Some(c) = self.credential(item, &format!("`git.credentials[{i}]`")) {
                out.push(c);
            }
        }
        Some(out)
    }

    fn credential(&mut self, v: &Value<'_>, at: &str) -> Option<Credential> {
        let props = self.object(v, at, CREDENTIAL)?;
        let get = |k: &str| props.iter().rev().find(|p| p.key == k).map(|p| &p.value);
        let pattern = match (get("url"), get("host")) {
            (Some(_), Some(_)) => {
                self.shape(v.loc, format!("{at} in {CONFIG_FILE} has both `url` and `host`: an entry matches by one"));
                return None;
            }
            (None, None) => {
                self.shape(
                    v.loc,
                    format!("{at} in {CONFIG_FILE} has neither `url` nor `host`, so it matches no Repo url"),
                );
                return None;
            }
            (Some(u), None) => {
                let text = self.string(u, &field(at, "url"))?;
                match GitUrl::parse(&text) {
                    Some(url) => CredentialPattern::Url(url),
                    None => {
                        self.shape(
                            u.loc,
                            format!(
                                "{} in {CONFIG_FILE} is {text:?}, not a remote git url (https://host/path, ssh://host/path or user@host:path)",
                                field(at, "url")
                            ),
                        );
                        return None;
                    }
                }
            }
            (None, Some(h)) => {
                let host = self.string(h, &field(at, "host"))?;
                let bare = host.strip_prefix("*.").unwrap_or(&host);
                if bare.is_empty() || bare.contains(['/', ':', '@', '*']) || bare.contains(char::is_whitespace) {
                    self.shape(
                        h.loc,
                        format!(
                            "{} in {CONFIG_FILE} is {host:?}, not a host name (`github.com`, `*.example.com`)",
                            field(at, "host")
                        ),
                    );
                    return None;
                }
                CredentialPattern::Host(host.to_ascii_lowercase())
            }
        };
        let secret = match get("secret") {
            Some(s) => {
                let name = self.string(s, &field(at, "secret"));
                name.map(|name| Named { name, loc: s.loc })
            }
            None => {
                self.shape(
                    v.loc,
                    format!("{at} in {CONFIG_FILE} names no `secret`: the credential is a Held secret of `secrets`"),
                );
                None
            }
        };
        let username = get("username").and_then(|u| self.string(u, &field(at, "username")));
        Some(Credential { pattern, secret, username, loc: v.loc })
    }

    fn mcp(&mut self, v: &Value<'_>) -> Option<Vec<McpServer>> {
        let v = self.known(v, "`mcp`")?;
        let Some(props) = v.props() else {
            self.shape(v.loc, format!("`mcp` in {CONFIG_FILE} is {}, not an object of servers by name", describe(v)));
            return None;
        };
        let mut out: Vec<McpServer> = Vec::new();
        for p in props {
            let at = format!("`mcp.{}`", p.key);
            let Some(fields) = self.object(&p.value, &at, SERVER) else { continue };
            let get = |k: &str| fields.iter().rev().find(|f| f.key == k).map(|f| &f.value);
            let url = match get("url") {
                Some(u) => match self.string(u, &field(&at, "url")) {
                    Some(url) if url.starts_with("https://") || url.starts_with("http://") => url,
                    Some(url) => {
                        self.shape(
                            u.loc,
                            format!("{} in {CONFIG_FILE} is {url:?}, not an http(s) url", field(&at, "url")),
                        );
                        continue;
                    }
                    None => continue,
                },
                None => {
                    self.shape(
                        p.value.loc,
                        format!("{at} in {CONFIG_FILE} has no `url`: `jr2 up` reaches a server by it"),
                    );
                    continue;
                }
            };
            let secret = get("secret")
                .and_then(|s| self.string(s, &field(&at, "secret")).map(|name| Named { name, loc: s.loc }));
            let timeout = match get("timeout").and_then(|t| self.known(t, &field(&at, "timeout"))) {
                Some(t) => match &t.kind {
                    ValueKind::Number { value } if *value > 0.0 && value.fract() == 0.0 && *value < 9.0e15 => {
                        Some(*value as u64)
                    }
                    _ => {
                        self.shape(
                            t.loc,
                            format!(
                                "{} in {CONFIG_FILE} is {}, not a positive whole number of milliseconds",
                                field(&at, "timeout"),
                                describe(t)
                            ),
                        );
                        None
                    }
                },
                None => None,
            };
            out.retain(|s| s.name != p.key);
            out.push(McpServer { name: p.key.to_string(), loc: p.key_loc, url, secret, timeout });
        }
        Some(out)
    }

    fn secrets(&mut self, v: &Value<'_>) -> Option<Vec<Named>> {
        let v = self.known(v, "`secrets`")?;
        let Some(items) = v.as_array() else {
            self.shape(v.loc, format!("`secrets` in {CONFIG_FILE} is {}, not a list of names", describe(v)));
            return None;
        };
        let mut out: Vec<Named> = Vec::new();
        for (i, item) in items.iter().enumerate() {
            let Some(name) = self.string(item, &format!("`secrets[{i}]`")) else { continue };
            if out.iter().any(|n| n.name == name) {
                let d =
                    CONFIG_UNREAD.at(item.loc.span, format!("the Held secret {name:?} is listed twice in `secrets`"));
                self.out.push(Located { file: item.loc.file, diagnostic: d });
                continue;
            }
            out.push(Named { name, loc: item.loc });
        }
        Some(out)
    }

    fn sandbox(&mut self, v: &Value<'_>) -> Option<Sandbox> {
        let props = self.object(v, "`sandbox`", SANDBOX)?;
        let get = |k: &str| props.iter().rev().find(|p| p.key == k).map(|p| &p.value);
        let mut sandbox = Sandbox::default();
        if let Some(image) = get("image") {
            sandbox.image = self.string(image, "`sandbox.image`");
        }
        if let Some(r) = get("resources") {
            if let Some(fields) = self.object(r, "`sandbox.resources`", SIZE) {
                let get = |k: &str| fields.iter().rev().find(|p| p.key == k).map(|p| &p.value);
                let mut size = Size::default();
                if let Some(cpu) = get("cpu").and_then(|c| self.known(c, "`sandbox.resources.cpu`")) {
                    size.cpu = match &cpu.kind {
                        ValueKind::Number { value } if *value > 0.0 => cpu.to_json().map(|j| j.to_string()),
                        ValueKind::String { value } if quantity(value) => Some(value.to_string()),
                        _ => {
                            self.shape(
                                cpu.loc,
                                format!("`sandbox.resources.cpu` in {CONFIG_FILE} is {}, not a positive number of CPUs or a quantity such as \"500m\"", describe(cpu)),
                            );
                            None
                        }
                    };
                }
                if let Some(mem) = get("memory").and_then(|m| self.known(m, "`sandbox.resources.memory`")) {
                    size.memory = match mem.as_str() {
                        Some(s) if quantity(s) => Some(s.to_string()),
                        _ => {
                            self.shape(
                                mem.loc,
                                format!(
                                    "`sandbox.resources.memory` in {CONFIG_FILE} is {}, not a quantity such as \"4Gi\"",
                                    describe(mem)
                                ),
                            );
                            None
                        }
                    };
                }
                sandbox.resources = Some(size);
            }
        }
        Some(sandbox)
    }
}

/// The path `at` (written `` `a.b` ``) with one more key: `` `a.b.key` ``.
fn field(at: &str, key: &str) -> String {
    match at.strip_suffix('`') {
        Some(inner) => format!("{inner}.{key}`"),
        None => format!("{at}.{key}"),
    }
}

/// A Kubernetes quantity: digits (with one optional `.`), then an optional suffix
/// (`m`, `k`, `M`, `G`, `T`, `Ki`, `Mi`, `Gi`, `Ti`, ...).
fn quantity(s: &str) -> bool {
    let digits = s.find(|c: char| !c.is_ascii_digit() && c != '.').unwrap_or(s.len());
    let (number, suffix) = s.split_at(digits);
    !number.is_empty()
        && number.chars().filter(|c| *c == '.').count() <= 1
        && number.chars().any(|c| c.is_ascii_digit())
        && matches!(suffix, "" | "m" | "k" | "M" | "G" | "T" | "P" | "E" | "Ki" | "Mi" | "Gi" | "Ti" | "Pi" | "Ei")
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    /// Files from memory only.
    struct Memory(HashMap<PathBuf, String>);

    impl Sources for Memory {
        fn read(&self, path: &Path) -> Option<String> {
            self.0.get(path).cloned()
        }
        fn is_file(&self, path: &Path) -> bool {
            self.0.contains_key(path)
        }
    }

    fn read(text: &str) -> ConfigRead {
        let path = PathBuf::from("/mem/jr2.config.ts");
        read_config_with(&Memory(HashMap::from([(path.clone(), text.to_string())])), &path)
    }

    fn codes(r: &ConfigRead) -> Vec<&'static str> {
        r.diagnostics.iter().map(|d| d.code).collect()
    }

    #[test]
    fn the_shape_is_read_into_typed_blocks() {
        let r = read(
            r#"import { defineConfig } from "@jr2/orchestrator";
               const size = { cpu: 2, memory: "4Gi" } as const;
               export default defineConfig({
                 git: { credentials: [{ url: "git@github.com:you/", secret: "github" }, { host: "*.corp.example", secret: "corp" }] },
                 mcp: { tickets: { url: "https://mcp.example.com/t", secret: "corp", timeout: 5000 } },
                 secrets: ["github", "corp"],
                 sandbox: { resources: size },
               });"#,
        );
        assert_eq!(codes(&r), Vec::<&str>::new(), "{:#?}", r.diagnostics);
        let c = r.config.expect("a config");
        let creds = c.credentials.as_ref().expect("credentials");
        assert_eq!(creds.len(), 2);
        assert_eq!(creds[1].pattern, CredentialPattern::Host("*.corp.example".into()));
        let tickets = &c.mcp.as_ref().expect("mcp")[0];
        assert_eq!((tickets.name.as_str(), tickets.timeout), ("tickets", Some(5000)));
        assert_eq!(c.has_mcp_server("tickets"), Some(true));
        assert_eq!(c.has_mcp_server("wiki"), Some(false));
        assert_eq!(c.holds_secret("corp"), Some(true));
        let size = c.sandbox.as_ref().and_then(|s| s.resources.clone()).expect("a Size");
        assert_eq!((size.cpu.as_deref(), size.memory.as_deref()), (Some("2"), Some("4Gi")));
        let url = GitUrl::parse("git@github.com:you/app.git").expect("a url");
        assert!(c.credential_for(&url).expect("credentials read").is_some());
    }

    #[test]
    fn an_absent_block_is_empty_and_a_broken_one_unknown() {
        let r = read("export default { secrets: 42 };");
        assert_eq!(codes(&r), ["config-shape"]);
        let c = r.config.expect("a config");
        assert_eq!(c.mcp, Some(Vec::new()), "absent: no servers");
        assert_eq!(c.credentials, Some(Vec::new()));
        assert_eq!(c.secrets, None, "malformed: unknown, so its rules stay silent");
        assert_eq!(c.holds_secret("x"), None);
    }

    #[test]
    fn odd_exports_are_diagnostics_not_panics() {
        for (text, code) in [
            ("export const config = {};", "config-shape"),
            ("export default 'jr2';", "config-shape"),
            ("import { defineConfig } from '@jr2/orchestrator';\nexport default defineConfig();", "config-shape"),
            ("export default () => ({ secrets: [] });", "config-not-static"),
            ("export default loadConfig();", "config-not-static"),
            ("export default { git: { credentials: [null, 1, 'x', []] } };", "config-shape"),
            ("export default { mcp: { a: null, b: { url: 1 }, c: {} } };", "config-shape"),
            ("export default { sandbox: { resources: { cpu: 0, memory: '4 Gi' } } };", "config-shape"),
            ("export default { secrets: ['a', 'a', ''] };", "config-shape"),
        ] {
            let r = read(text);
            assert!(codes(&r).contains(&code), "{text}: {:#?}", r.diagnostics);
        }
        // A file that does not parse says so with the parser's diagnostic, and no config.
        let r = read("export default { secrets: [ ;");
        assert!(r.config.is_none());
        assert!(r.diagnostics.iter().any(|d| d.is_error()), "{:#?}", r.diagnostics);
        // Deep nesting stays bounded.
        let deep = format!("export default {{ git: {}1{} }};", "[".repeat(5000), "]".repeat(5000));
        let r = read(&deep);
        assert!(r.diagnostics.iter().any(|d| d.is_error()));
    }

    #[test]
    fn the_not_static_warning_is_not_said_twice() {
        let r = read("export default { mcp: { t: { url: process.env.URL } } };");
        assert_eq!(codes(&r), ["config-not-static"], "{:#?}", r.diagnostics);
    }

    #[test]
    fn quantities() {
        for ok in ["1", "0.5", "500m", "4Gi", "512Mi", "2G"] {
            assert!(quantity(ok), "{ok}");
        }
        for bad in ["", "Gi", "4 Gi", "1.2.3", "4gb", "-1"] {
            assert!(!quantity(bad), "{bad}");
        }
    }
}
