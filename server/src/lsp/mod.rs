//! The editor face: a language server over stdio. Editors open documents, run the
//! `issuewright.*` commands, receive progress, and apply proposals as `WorkspaceEdit`s.

mod backend;
mod commands;
mod context_preview;
mod diagnostics;
mod errors;
pub mod framing;
mod profile;
mod progress;
mod proposal;
mod state;
mod transport;

pub use backend::Backend;
pub use commands::ALL as COMMANDS;
pub use profile::ClientProfile;

use tower_lsp::LspService;

/// Serves the language server on stdin/stdout until `exit` or the end of input; returns
/// the exit code the protocol asks for (0 after `shutdown`, 1 otherwise).
pub async fn serve_stdio() -> i32 {
    let (service, socket) = LspService::build(Backend::new)
        .custom_method("window/workDoneProgress/cancel", Backend::on_progress_cancel)
        .finish();
    transport::serve(tokio::io::stdin(), tokio::io::stdout(), service, socket).await
}
