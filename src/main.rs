//! `jr2`: checks jr2 Machines and Charts. See `CONTRACT.md` for the commands and exit codes.
//!
//! The binary only parses arguments, reads files and prints; everything it reports comes from the
//! `compiler` crate. It never panics on user input: every failure is a message on stderr and an
//! exit code (`0` clean, `1` refused, `2` usage error or unreadable path).

/// The door allocates many small strings and nodes per Chart; mimalloc serves that pattern
/// faster than the system allocator, as in ruff and oxc (docs/benchmarks.md measures both).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

use jr2::cli;

use clap::Parser;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args = cli::args::Cli::parse();
    match cli::run(args) {
        Ok(code) => code.into(),
        Err(e) => {
            eprintln!("jr2: {}", cli::shown(&e));
            cli::Exit::Usage.into()
        }
    }
}
