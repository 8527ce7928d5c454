//! `jr2 lsp`: jr2's Language Server, over stdio. The only crate that knows LSP.
//!
//! ```text
//! editor ─► tower-lsp-server (tokio) ─► Backend ─► jobs channel ─► the worker thread
//!                                                                   (the evaluator's stack)
//!                                                                   owns db::Database
//! editor ◄─ publishDiagnostics ◄─ publisher task ◄─ channel ◄───────┘
//! ```
//!
//! The worker applies every edit that is waiting, then checks the open documents over the
//! database (salsa reuses what the edits did not touch) and publishes the diagnostics that
//! changed. The worker holds the compilations it published, so that the last reference to an
//! old one (after the next edit's new revision) is its own, and hands those to a thread that
//! frees them: freeing a large Workflow's values and IR is no part of an edit's latency.
//! Requests (hover, code actions, the `jr2.graph` command: the SVG, Mermaid or DOT picture of
//! the Workflow a document holds, from its editor text) are answered by the worker too, each inside
//! `catch_unwind`: a panicking request answers an error and the server goes on; a cancelled one
//! (`$/cancelRequest`) is answered by tower-lsp-server, and its result is dropped.
//!
//! An Instance's `jr2.config.ts` gets the config reader's diagnostics (`db::config_report`); the
//! pre-flight's rules over the Workflows (`jr2 up --check`) are not published in the editor, so a
//! Workflow's diagnostics stay those of `jr2 check`.

mod actions;
pub mod framing;
mod server;
mod text;

pub use server::{serve, Ending};

/// Runs the server on stdin and stdout until the client says `exit` (or closes stdin).
pub fn run_stdio() -> Ending {
    let runtime = match tokio::runtime::Builder::new_multi_thread().worker_threads(1).enable_all().build() {
        Ok(r) => r,
        Err(e) => {
            eprintln!("jr2 lsp: cannot start: {e}");
            return Ending::Unclean;
        }
    };
    let ending = runtime.block_on(serve(tokio::io::stdin(), tokio::io::stdout()));
    // A read of stdin may still wait on its thread (nothing is read after `exit`, but the
    // client need not close stdin): the process does not wait for it.
    runtime.shutdown_background();
    ending
}
