//! The Instance token: `JR2_TOKEN` (the caller reads it), else `INSTANCE/.jr2/token`, made by
//! `jr2 serve` where missing (32 random bytes as 64 hex digits, mode 0600). Compared in constant
//! time; never logged.

use std::io::Write;
use std::path::Path;

/// The token in `path`, or a new one written there (mode 0600) where there is none.
pub fn read_or_create(path: &Path) -> std::io::Result<String> {
    match std::fs::read_to_string(path) {
        Ok(text) => {
            let token = text.trim().to_string();
            if token.is_empty() {
                return Err(std::io::Error::other(format!("{} is empty", path.display())));
            }
            Ok(token)
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            let token = fresh()?;
            if let Some(dir) = path.parent() {
                std::fs::create_dir_all(dir)?;
            }
            let mut options = std::fs::OpenOptions::new();
            options.write(true).create_new(true);
            #[cfg(unix)]
            std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
            let mut file = options.open(path)?;
            file.write_all(token.as_bytes())?;
            file.write_all(b"\n")?;
            file.sync_all()?;
            Ok(token)
        }
        Err(e) => Err(e),
    }
}

/// 32 random bytes from the system, as 64 hex digits.
pub fn fresh() -> std::io::Result<String> {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes).map_err(|e| std::io::Error::other(e.to_string()))?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

/// Are `given` and `token` the same, compared in time that depends on their lengths only?
pub fn same(given: &[u8], token: &[u8]) -> bool {
    // Every byte of the longer is read, whatever differs first.
    let n = given.len().max(token.len());
    let mut diff = u8::from(given.len() != token.len());
    for i in 0..n {
        diff |= given.get(i).copied().unwrap_or(0) ^ token.get(i).copied().unwrap_or(0xff);
    }
    std::hint::black_box(diff) == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_compare_whole() {
        assert!(same(b"abc", b"abc"));
        assert!(!same(b"abd", b"abc"));
        assert!(!same(b"ab", b"abc"));
        assert!(!same(b"abcd", b"abc"));
        assert!(!same(b"", b"abc"));
        let t = fresh().unwrap();
        assert_eq!(t.len(), 64);
        assert!(t.bytes().all(|b| b.is_ascii_hexdigit()));
        assert_ne!(t, fresh().unwrap());
    }
}
