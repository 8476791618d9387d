//! Command failures, and how they reach the client as JSON-RPC errors.

use serde_json::{Value, json};
use tower_lsp::jsonrpc::{Error, ErrorCode};

use crate::agent::RunError;
use crate::config::ConfigError;
use crate::issues::IssueError;
use crate::session::{BadRunId, SessionError};
use crate::workspace::{Conflict, PathError};

/// LSP's `RequestFailed` code (3.17): a valid request that failed; the message says why.
pub const REQUEST_FAILED: i64 = -32803;

/// Why a command was refused or failed. Each message says what to do.
#[derive(Debug, thiserror::Error)]
pub enum CommandError {
    /// The command's arguments are missing or malformed.
    #[error("{0}")]
    BadArguments(String),
    /// No workspace folder was given at `initialize`.
    #[error("issuewright needs a workspace folder; open a folder (or start the server with a root directory)")]
    NoWorkspace,
    /// The command is not one of ours.
    #[error("unknown command `{0}`")]
    UnknownCommand(String),
    /// The configuration is invalid.
    #[error(transparent)]
    Config(#[from] ConfigError),
    /// The issue could not be resolved.
    #[error(transparent)]
    Issue(#[from] IssueError),
    /// A run id that is not one.
    #[error(transparent)]
    BadRunId(#[from] BadRunId),
    /// A path argument that is not allowed.
    #[error(transparent)]
    Path(#[from] PathError),
    /// The run could not start.
    #[error(transparent)]
    Run(#[from] RunError),
    /// The run record is missing or unreadable.
    #[error(transparent)]
    Session(#[from] SessionError),
    /// The run has not finished.
    #[error("run `{0}` is still running; wait until issuewright.runStatus says it is ready")]
    StillRunning(String),
    /// The proposal was discarded.
    #[error("the proposal of run `{0}` was discarded")]
    Discarded(String),
    /// Another apply of the same proposal has not finished.
    #[error("the proposal of run `{0}` is being applied right now; wait for that to finish")]
    AlreadyApplying(String),
    /// `files` names a file the proposal does not change.
    #[error("`{0}` is not part of the proposal of run `{1}`")]
    NotInProposal(String, String),
    /// Files changed in ways the proposal cannot be carried onto.
    #[error("nothing was applied: {}", .0.iter().map(ToString::to_string).collect::<Vec<_>>().join("; "))]
    Conflicts(Vec<Conflict>),
    /// Validation could not run (the shadow workspace, a bad problem matcher).
    #[error("validation could not run: {0}")]
    Validation(String),
    /// Ranking the workspace failed (a panic while ranking); the server goes on.
    #[error("the workspace could not be ranked for the issue: {0}")]
    Ranking(String),
    /// The workspace index is still being built (how far it has come), or its build failed.
    #[error("the workspace index {0}")]
    IndexNotReady(String),
    /// The editor did not say at `initialize` that it takes `workspace/applyEdit`; the run's
    /// patch, relative to the workspace.
    #[error(
        "your editor does not accept edits from a language server (no `workspace.applyEdit` capability); review the proposal with issuewright.proposal and apply {0} with `git apply`"
    )]
    NoApplyEdit(String),
    /// The client failed to answer `workspace/applyEdit`.
    #[error("the editor did not take the edit: {0}")]
    Client(String),
}

impl From<CommandError> for Error {
    fn from(error: CommandError) -> Self {
        let code = match &error {
            CommandError::BadArguments(_)
            | CommandError::BadRunId(_)
            | CommandError::Path(_)
            | CommandError::Issue(_) => ErrorCode::InvalidParams,
            CommandError::UnknownCommand(_) => ErrorCode::MethodNotFound,
            CommandError::Run(_) | CommandError::Client(_) | CommandError::Validation(_) | CommandError::Ranking(_) => {
                ErrorCode::InternalError
            }
            // LSP's RequestFailed: the request was well formed, and failed for the reason given.
            _ => ErrorCode::ServerError(REQUEST_FAILED),
        };
        let data: Option<Value> = match &error {
            CommandError::Conflicts(conflicts) => Some(json!({
                "conflicts": conflicts.iter().map(|c| json!({"path": c.path, "reason": c.reason})).collect::<Vec<_>>()
            })),
            _ => None,
        };
        Error { code, message: error.to_string().into(), data }
    }
}
