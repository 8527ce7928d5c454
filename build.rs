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
    // Each path through `--git-path`, which knows where a linked worktree keeps what: its HEAD in
    // its own git dir, the branch's ref in the common one. A path that does not exist would make
    // cargo run this script, and rebuild the binary, on every build; a packed ref is watched
    // through `packed-refs`.
    let watch = |name: &str| {
        let path = git(&["rev-parse", "--git-path", name])?;
        std::path::Path::new(&path).exists().then(|| println!("cargo:rerun-if-changed={path}"))
    };
    if watch("HEAD").is_some() {
        if let Some(head) = git(&["symbolic-ref", "-q", "HEAD"]) {
            if watch(&head).is_none() {
                watch("packed-refs");
            }
        }
    }
    println!("cargo:rerun-if-changed=build.rs");
}
