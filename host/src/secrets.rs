//! Held secrets (issue 35 item 7): the values the host holds for the names Effects use
//! (`bearer(secret("jira"))`, a command's `secrets: ["npm"]`), read from `JR2_SECRET_<NAME>`
//! environment variables and from a file (`jr2 serve --secrets FILE`, docs/reference/secrets.md).
//!
//! An Effect gets only the secrets its slot names ([`Secrets::place`] over
//! `ir::slot::Effect::secrets`): a [`Placed`] set, which also redacts (every occurrence of a
//! placed value in an outcome becomes [`REDACTED`]). No type here prints a value: `Debug` shows
//! names only, and every error names the secret, never its value.

use serde_json::Value;
use std::collections::BTreeMap;
use std::path::Path;

/// The prefix of the environment variables the host reads secrets from.
pub const ENV_PREFIX: &str = "JR2_SECRET_";
/// What a placed value is replaced with in an outcome.
pub const REDACTED: &str = "[secret]";
/// The largest secrets file read (a file larger is refused, not read whole).
pub const FILE_LIMIT: u64 = 1024 * 1024;
/// The shortest piece of a value that a cut outcome's edge is searched for: a tail that starts
/// with the last bytes of a value (the cut fell inside it) has those bytes redacted too.
const EDGE: usize = 4;

/// The secrets a host holds, by name. `Debug` prints the names only.
#[derive(Clone, Default)]
pub struct Secrets {
    /// By key ([`key`] of the name): `jira` and `JR2_SECRET_JIRA` meet.
    values: BTreeMap<String, String>,
}

impl std::fmt::Debug for Secrets {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Secrets").field("names", &self.values.keys().collect::<Vec<_>>()).finish()
    }
}

/// A secret name's key: upper-cased, each character that is not ASCII alphanumeric a `_`
/// (`ops-instance` and `JR2_SECRET_OPS_INSTANCE` name one secret).
pub fn key(name: &str) -> String {
    name.chars().map(|c| if c.is_ascii_alphanumeric() { c.to_ascii_uppercase() } else { '_' }).collect()
}

/// The environment variable that holds the secret `name` (and that a `command` gets it in).
pub fn env_name(name: &str) -> String {
    format!("{ENV_PREFIX}{}", key(name))
}

/// Why the secrets could not be read. Names a file, a line number or a secret; never a value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error(pub String);

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Error {}

impl Secrets {
    /// No secrets.
    pub fn new() -> Secrets {
        Secrets::default()
    }

    /// Holds `value` as the secret `name` (a later insert of the same name replaces it). An empty
    /// value is refused: it could not be told from its absence, nor redacted.
    pub fn insert(&mut self, name: &str, value: &str) -> Result<(), Error> {
        if key(name).trim_matches('_').is_empty() {
            return Err(Error(format!("a secret's name {name:?} has no letter or digit")));
        }
        if value.is_empty() {
            return Err(Error(format!("the secret {name:?} is empty")));
        }
        self.values.insert(key(name), value.to_string());
        Ok(())
    }

    /// The secrets of `vars` (`std::env::vars_os()`) named `JR2_SECRET_<NAME>`. A variable that
    /// is not UTF-8 is refused, naming the variable.
    pub fn from_env(
        vars: impl IntoIterator<Item = (std::ffi::OsString, std::ffi::OsString)>,
    ) -> Result<Secrets, Error> {
        let mut out = Secrets::new();
        out.add_env(vars)?;
        Ok(out)
    }

    /// Adds the `JR2_SECRET_<NAME>` variables of `vars`, each replacing a secret of that name.
    pub fn add_env(
        &mut self,
        vars: impl IntoIterator<Item = (std::ffi::OsString, std::ffi::OsString)>,
    ) -> Result<(), Error> {
        for (k, v) in vars {
            let Some(k) = k.to_str() else { continue };
            let Some(name) = k.strip_prefix(ENV_PREFIX) else { continue };
            let v = v.to_str().ok_or_else(|| Error(format!("the environment variable {k} is not UTF-8 text")))?;
            self.insert(name, v).map_err(|e| Error(format!("the environment variable {k}: {e}")))?;
        }
        Ok(())
    }

    /// Adds the secrets of the file at `path` (docs/reference/secrets.md): lines `name=value`
    /// (the value is the rest of the line, as written), blank lines and lines starting with `#`
    /// skipped. A file that others than its owner may read (any group or other permission bit),
    /// larger than [`FILE_LIMIT`], not UTF-8, or with a line that is no `name=value`, is refused
    /// with the file and the line named.
    pub fn add_file(&mut self, path: &Path) -> Result<(), Error> {
        let shown = path.display();
        let meta = std::fs::metadata(path).map_err(|e| Error(format!("the secrets file {shown}: {e}")))?;
        if !meta.is_file() {
            return Err(Error(format!("the secrets file {shown} is not a file")));
        }
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = meta.permissions().mode() & 0o777;
            if mode & 0o077 != 0 {
                return Err(Error(format!(
                    "the secrets file {shown} may be read by others than its owner (mode {mode:04o}): `chmod 600 {shown}`"
                )));
            }
        }
        if meta.len() > FILE_LIMIT {
            return Err(Error(format!("the secrets file {shown} is larger than {FILE_LIMIT} bytes")));
        }
        let text = std::fs::read(path).map_err(|e| Error(format!("the secrets file {shown}: {e}")))?;
        let text = String::from_utf8(text).map_err(|_| Error(format!("the secrets file {shown} is not UTF-8 text")))?;
        for (n, line) in text.lines().enumerate() {
            let line = line.strip_suffix('\r').unwrap_or(line);
            if line.trim().is_empty() || line.trim_start().starts_with('#') {
                continue;
            }
            let Some((name, value)) = line.split_once('=') else {
                return Err(Error(format!("the secrets file {shown}, line {}: not `name=value`", n + 1)));
            };
            self.insert(name.trim(), value)
                .map_err(|e| Error(format!("the secrets file {shown}, line {}: {e}", n + 1)))?;
        }
        Ok(())
    }

    /// What `jr2 serve` holds: the file's secrets (where one is given), then the environment's
    /// `JR2_SECRET_<NAME>` variables, which replace a secret of the same name.
    pub fn load(file: Option<&Path>) -> Result<Secrets, Error> {
        let mut out = Secrets::new();
        if let Some(path) = file {
            out.add_file(path)?;
        }
        out.add_env(std::env::vars_os())?;
        Ok(out)
    }

    /// How many secrets are held.
    pub fn len(&self) -> usize {
        self.values.len()
    }

    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// The secrets `names` name, and only those; the first name not held is the error.
    pub fn place(&self, names: &[impl AsRef<str>]) -> Result<Placed, Missing> {
        let mut out = Placed::default();
        for name in names {
            let name = name.as_ref();
            let value = self.values.get(&key(name)).ok_or_else(|| Missing(name.to_string()))?;
            out.values.push((name.to_string(), value.clone()));
        }
        Ok(out)
    }
}

/// A secret an Effect names that the host does not hold: its name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Missing(pub String);

impl std::fmt::Display for Missing {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "the Held secret {:?} is not held by this host: give it as {} or as a line `{}=...` of the --secrets file",
            self.0,
            env_name(&self.0),
            self.0
        )
    }
}

/// The secrets placed in one Effect: what it may use, and what its outcome is redacted of.
/// `Debug` prints the names only.
#[derive(Clone, Default)]
pub struct Placed {
    values: Vec<(String, String)>,
}

impl std::fmt::Debug for Placed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Placed").field("names", &self.values.iter().map(|(n, _)| n).collect::<Vec<_>>()).finish()
    }
}

impl Placed {
    /// The value of the placed secret `name`.
    pub fn get(&self, name: &str) -> Option<&str> {
        let k = key(name);
        self.values.iter().find(|(n, _)| key(n) == k).map(|(_, v)| v.as_str())
    }

    /// Each placed secret: its name and value.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        self.values.iter().map(|(n, v)| (n.as_str(), v.as_str()))
    }

    /// `text` with every occurrence of a placed value replaced by [`REDACTED`] (the longest
    /// values first, so that a value inside another goes with it).
    pub fn redact(&self, text: &str) -> String {
        let mut values: Vec<&str> = self.values.iter().map(|(_, v)| v.as_str()).collect();
        values.sort_by_key(|v| std::cmp::Reverse(v.len()));
        let mut out = text.to_string();
        for v in values {
            if out.contains(v) {
                out = out.replace(v, REDACTED);
            }
        }
        out
    }

    /// [`Placed::redact`], and where `text` is a cut (a tail, or a body's head), the piece of a
    /// value the cut left at its edge too: a tail starting with a value's last [`EDGE`] or more
    /// bytes (`start`), a head ending with its first ones (`!start`).
    pub fn redact_cut(&self, text: &str, start: bool) -> String {
        let mut out = self.redact(text);
        for (_, v) in &self.values {
            for n in (EDGE..v.len()).rev() {
                if start {
                    let Some(piece) = v.get(v.len() - n..) else { continue };
                    if out.starts_with(piece) {
                        out = format!("{REDACTED}{}", &out[piece.len()..]);
                        break;
                    }
                } else {
                    let Some(piece) = v.get(..n) else { continue };
                    if out.ends_with(piece) {
                        out = format!("{}{REDACTED}", &out[..out.len() - piece.len()]);
                        break;
                    }
                }
            }
        }
        out
    }

    /// `value` with [`Placed::redact`] applied to every string in it, keys included.
    pub fn redact_value(&self, value: Value) -> Value {
        if self.values.is_empty() {
            return value;
        }
        match value {
            Value::String(s) => Value::String(self.redact(&s)),
            Value::Array(items) => Value::Array(items.into_iter().map(|v| self.redact_value(v)).collect()),
            Value::Object(map) => {
                Value::Object(map.into_iter().map(|(k, v)| (self.redact(&k), self.redact_value(v))).collect())
            }
            v => v,
        }
    }

    /// An executor's outcome with every placed value redacted, output and error alike.
    pub fn redact_outcome(&self, outcome: runtime::Outcome) -> runtime::Outcome {
        match outcome {
            runtime::Outcome::Done(v) => runtime::Outcome::Done(self.redact_value(v)),
            runtime::Outcome::Error(v) => runtime::Outcome::Error(self.redact_value(v)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::ffi::OsString;

    fn os(k: &str, v: &str) -> (OsString, OsString) {
        (k.into(), v.into())
    }

    #[test]
    fn the_environment_gives_secrets_by_name_and_only_its_prefix() {
        let s =
            Secrets::from_env([os("JR2_SECRET_JIRA", "j-1"), os("JR2_SECRET_OPS_INSTANCE", "o-2"), os("HOME", "/h")])
                .unwrap();
        assert_eq!(s.len(), 2);
        let placed = s.place(&["jira", "ops-instance"]).unwrap();
        assert_eq!(placed.get("jira"), Some("j-1"));
        assert_eq!(placed.get("ops-instance"), Some("o-2"));
        assert_eq!(s.place(&["jira"]).unwrap().iter().count(), 1, "only the names placed");
        let missing = s.place(&["jira", "npm"]).unwrap_err();
        assert_eq!(missing, Missing("npm".into()));
        assert!(missing.to_string().contains("JR2_SECRET_NPM"));
        assert!(!format!("{s:?} {placed:?}").contains("j-1"), "Debug prints names only");
        assert!(Secrets::from_env([os("JR2_SECRET_X", "")]).unwrap_err().0.contains("JR2_SECRET_X"));
    }

    #[test]
    fn a_file_is_read_as_lines_and_refused_when_others_may_read_it() {
        let dir = std::env::temp_dir().join(format!("jr2-secrets-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("secrets");
        std::fs::write(&path, "# held\njira=a=b c \n\nnpm = x\r\n").unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
            let e = Secrets::new().add_file(&path).unwrap_err().0;
            assert!(e.contains("mode 0644") && e.contains("chmod 600"), "{e}");
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).unwrap();
        }
        let mut s = Secrets::new();
        s.add_file(&path).unwrap();
        let placed = s.place(&["jira", "npm"]).unwrap();
        assert_eq!(placed.get("jira"), Some("a=b c "), "the rest of the line, as written");
        assert_eq!(placed.get("npm"), Some(" x"));
        std::fs::write(&path, "jira=ok\nno-equals-sign-secretvalue\n").unwrap();
        let e = Secrets::new().add_file(&path).unwrap_err().0;
        assert!(e.ends_with("line 2: not `name=value`") && !e.contains("secretvalue"), "{e}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn redaction_replaces_every_occurrence_and_a_cut_edge() {
        let mut s = Secrets::new();
        s.insert("a", "hunter22").unwrap();
        s.insert("b", "hunter2").unwrap();
        let p = s.place(&["a", "b"]).unwrap();
        assert_eq!(p.redact("x hunter22 y hunter2 z"), "x [secret] y [secret] z");
        let v = p.redact_value(serde_json::json!({ "hunter2": ["hunter22", 3, { "k": "say hunter2" }] }));
        assert_eq!(v, serde_json::json!({ "[secret]": ["[secret]", 3, { "k": "say [secret]" }] }));
        assert_eq!(p.redact_cut("ter22 then", true), "[secret] then");
        assert_eq!(p.redact_cut("then hunt", false), "then [secret]");
        assert_eq!(p.redact_cut("r22 then", true), "r22 then", "shorter than EDGE: kept");
    }
}
