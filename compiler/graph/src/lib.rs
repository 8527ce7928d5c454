//! Pictures of a Machine or a Chart from its IR (`jr2 graph`): Mermaid (`stateDiagram-v2`) and
//! Graphviz DOT as text, and SVG laid out by Graphviz's `dot`.
//!
//! What is drawn: compound states as clusters (composites), a parallel state's regions side by
//! side, the initial arrow of each compound state, every transition labelled by its trigger (an
//! event, a Gate's answer, `after 5s`, `always`, an invoke's `onDone`/`onError`) and guard, each
//! state's invokes (an Agent and its model, a Gate, an Effect with its kind and placement,
//! `fail()`, a child Machine, an Open body), the states that fail the run (red) and the final
//! states (doubled) drawn apart. A compound state's own transitions to itself or below it start at
//! its "any state" node. `--state PATH` draws one subtree; its transitions to and from the rest
//! end at dashed stubs.
//!
//! Invariant: this crate reads the IR only (the `ir` crate). What the IR does not carry (an
//! Agent's model, an Effect's placement, which Machine slot is an Open body) comes in [`Notes`],
//! read from the JSON documents that say it (`jr2 parts`'s, a lend manifest, a Chart:
//! [`Notes::from_parts`], [`Notes::lend`], [`Notes::mint`]); without them the picture says less.
//!
//! Output is deterministic: the IR's order throughout, no hash order, no clock.

mod dot;
mod mermaid;
mod notes;
mod view;

use ir::Statechart as Machine;
use std::collections::BTreeMap;
use std::fmt;

/// What a caller knows of the IR's slots beyond their kind, by slot name (an invoke's `src`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Notes {
    pub(crate) slots: BTreeMap<String, SlotNote>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct SlotNote {
    /// An Agent's model.
    pub(crate) model: Option<String>,
    /// An Effect's placement (`harness`, `sandbox`, `instance`, `orchestrator`).
    pub(crate) placement: Option<String>,
    /// The slot is an Open body (the IR's kind says `machine`).
    pub(crate) open: bool,
}

/// What to draw and how.
#[derive(Clone, Copy, Debug, Default)]
pub struct Options<'a> {
    /// Only the subtree at this state: a dotted key path (`triaging.ready`), an IR path
    /// (`states.triaging.states.ready`) or an explicit id (`#done`).
    pub state: Option<&'a str>,
    pub notes: Option<&'a Notes>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Error {
    /// `--state` names no state; `known` lists the dotted paths there are.
    UnknownState { path: String, known: Vec<String> },
    /// The Machine has no states at all.
    Empty,
    /// `dot` is not on the PATH.
    NoGraphviz,
    /// `dot` ran and failed.
    Graphviz(String),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::UnknownState { path, known } => {
                write!(f, "no state {path:?} in the Machine")?;
                if !known.is_empty() {
                    write!(f, "; its states: {}", known.join(", "))?;
                }
                Ok(())
            }
            Error::Empty => f.write_str("the Machine has no states to draw"),
            Error::NoGraphviz => f.write_str(
                "--format svg lays the picture out with Graphviz, and `dot` is not on the PATH: install Graphviz \
                 (Debian: apt-get install graphviz), or print the text with --format dot or --format mermaid",
            ),
            Error::Graphviz(e) => write!(f, "Graphviz's dot failed: {e}"),
        }
    }
}

impl std::error::Error for Error {}

static NO_NOTES: Notes = Notes { slots: BTreeMap::new() };

/// The Machine as a Mermaid `stateDiagram-v2`.
pub fn mermaid(machine: &Machine, options: Options<'_>) -> Result<String, Error> {
    let view = view::View::new(machine, options.state, options.notes.unwrap_or(&NO_NOTES))?;
    Ok(mermaid::write(&view))
}

/// The Machine as a Graphviz DOT `digraph`.
pub fn dot(machine: &Machine, options: Options<'_>) -> Result<String, Error> {
    let view = view::View::new(machine, options.state, options.notes.unwrap_or(&NO_NOTES))?;
    Ok(dot::write(&view))
}

/// The Machine as SVG: its DOT laid out by Graphviz's `dot -Tsvg` (the `dot` on the PATH).
///
/// Not a Rust layout crate: layout-rs, the maintained one, draws no clusters (nested graphs), so
/// no compound state, and no HTML labels.
pub fn svg(machine: &Machine, options: Options<'_>) -> Result<String, Error> {
    let text = dot(machine, options)?;
    dot_to_svg(&text)
}

/// Runs `dot -Tsvg` over a DOT text.
pub(crate) fn dot_to_svg(text: &str) -> Result<String, Error> {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut child = match Command::new("dot")
        .arg("-Tsvg")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
    {
        Ok(c) => c,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Err(Error::NoGraphviz),
        Err(e) => return Err(Error::Graphviz(e.to_string())),
    };
    // Write from another thread: `dot` may fill its stdout pipe before it has read all its input.
    let mut stdin = child.stdin.take().ok_or_else(|| Error::Graphviz("no stdin".into()))?;
    let input = text.to_string();
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let out = child.wait_with_output().map_err(|e| Error::Graphviz(e.to_string()))?;
    let written = writer.join().map_err(|_| Error::Graphviz("the writer thread panicked".into()))?;
    let stderr = String::from_utf8_lossy(&out.stderr).trim().to_string();
    if !out.status.success() {
        return Err(Error::Graphviz(if stderr.is_empty() { format!("exit status {}", out.status) } else { stderr }));
    }
    written.map_err(|e| Error::Graphviz(format!("cannot write to dot: {e}")))?;
    String::from_utf8(out.stdout).map_err(|_| Error::Graphviz("its SVG is not UTF-8".into()))
}
