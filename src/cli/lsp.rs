//! `jr2 lsp`: the Language Server on stdio (the `jr2-lsp` crate).

use super::{Exit, Result};

/// Serves one editor on stdin and stdout until it says `exit`.
pub fn lsp() -> Result<Exit> {
    let _ = jr2_lsp::run_stdio();
    Ok(Exit::Clean)
}
