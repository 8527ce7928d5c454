//! `jr2 --version` says which commit it was built from: the commit's short id (and `-dirty` for a
//! work tree with changes when the script ran), read from git at build time; `unknown` where
//! there is no git (a source tarball). Run again when HEAD moves, not on every edit.

use std::process::Command;

fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git").args(args).output().ok()?;
    out.status.success().then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

fn main() {
    let commit = git(&["rev-parse", "--short=12", "HEAD"]).unwrap_or_else(|| "unknown".to_string());
    // `--no-optional-locks`: a status must not rewrite the index, whose change would run this
    // script again on the next build and rebuild the binary for nothing.
    let dirty =
        git(&["--no-optional-locks", "status", "--porcelain", "--untracked-files=no"]).is_some_and(|s| !s.is_empty());
    let version = format!("{} ({commit}{})", env!("CARGO_PKG_VERSION"), if dirty { "-dirty" } else { "" });
    println!("cargo:rustc-env=JR2_VERSION={version}");
    if let Some(dir) = git(&["rev-parse", "--git-dir"]) {
        println!("cargo:rerun-if-changed={dir}/HEAD");
        if let Some(head) = git(&["symbolic-ref", "-q", "HEAD"]) {
            println!("cargo:rerun-if-changed={dir}/{head}");
        }
    }
    println!("cargo:rerun-if-changed=build.rs");
}
