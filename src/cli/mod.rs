//! The commands of `jr2`, one module each; `args` is the clap grammar. The binary runs them
//! (`src/main.rs`); the Node addon (`npm/napi`) calls `check`, `compat` and `input` for the
//! same reports without printing them.

pub mod args;
pub mod check;
mod client;
pub mod compat;
mod doors;
mod fix;
mod graph;
pub mod input;
mod lsp;
mod machine;
mod other;
mod scxml;
mod serve;
mod sim;
mod terminal;
mod up;

use args::{Cli, Command, SchemaCommand};
use std::fmt;
use std::process::ExitCode;

/// The process's exit status, as the contract numbers it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exit {
    /// No error (warnings allowed unless `--deny-warnings`).
    Clean = 0,
    /// An error diagnostic: the input was refused.
    Refused = 1,
    /// A usage error or an unreadable path.
    Usage = 2,
}

impl From<Exit> for ExitCode {
    fn from(e: Exit) -> ExitCode {
        ExitCode::from(e as u8)
    }
}

/// A failure that ends the command with exit code 2: a message for stderr.
#[derive(Debug)]
pub struct UsageError(pub String);

impl fmt::Display for UsageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for UsageError {}

pub type Result<T> = std::result::Result<T, UsageError>;

/// A usage error's message as stderr shows it: a path or name from the input in it can hold
/// no escape sequence a terminal would obey.
pub fn shown(e: &UsageError) -> String {
    terminal::printable(&e.0).into_owned()
}

/// Runs one command.
pub fn run(cli: Cli) -> Result<Exit> {
    match cli.command {
        Command::Check(a) => check::check(a),
        Command::Chart { command: args::ChartCommand::Check(a) } => check::chart_check(a),
        Command::Schema { command: SchemaCommand::Chart(a) } => other::schema_chart(a),
        Command::Schema { command: SchemaCommand::Briefing(a) } => other::schema_briefing(a),
        Command::Schema { command: SchemaCommand::Compat(a) } => compat::schema_compat(a),
        Command::Ir(a) => other::ir(a),
        Command::Parts(a) => other::parts(a),
        Command::Graph(a) => graph::graph(a),
        Command::Sim(a) => sim::sim(a),
        Command::Explain(a) => other::explain(a),
        Command::Rules(a) => other::rules(a),
        Command::Up(a) => up::up(a),
        Command::Serve(a) => serve::serve(a),
        Command::Lsp => lsp::lsp(),
        Command::Run(a) => client::run(a),
        Command::Runs(a) => client::runs(a),
        Command::Status(a) => client::status(a),
        Command::Cancel(a) => client::cancel(a),
        Command::Answer(a) => client::answer(a),
    }
}
