//! `jr2 lsp`: the Language Server on stdio (the `jr2-lsp` crate).

use super::{Exit, Result};

/// Serves one editor on stdin and stdout until it says `exit`: status 0 after a `shutdown`,
/// 1 without one (the protocol's exit statuses).
pub(super) fn lsp() -> Result<Exit> {
    Ok(match jr2_lsp::run_stdio() {
        jr2_lsp::Ending::Clean => Exit::Clean,
        jr2_lsp::Ending::Unclean => Exit::Refused,
    })
}
