//! The public face of a run: what starts it, what it reports, and the handle to follow it.

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::watch;
use tokio_util::sync::CancellationToken;

use crate::config::{AgentSettings, ProviderSettings};
use crate::context::Index;
use crate::issues::Issue;
use crate::llm::Usage;
use crate::session::RunId;
use crate::workspace::{FileChange, Root, WorkspacePath};

/// Limits that bound every run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Budgets {
    /// Model turns before the run stops.
    pub max_rounds: u32,
    /// Tool calls carried out from one turn; extra calls are answered with an error.
    pub max_tool_calls_per_round: u32,
    /// The same call (tool and arguments) made this many times in a row stops the run.
    pub max_identical_calls: u32,
    /// Wall-clock time before the run stops.
    pub wall_clock: Duration,
    /// Unreadable answers in a row (text protocol) before the run stops.
    pub max_protocol_errors: u32,
}

impl Default for Budgets {
    fn default() -> Self {
        Self {
            max_rounds: 30,
            max_tool_calls_per_round: 64,
            max_identical_calls: 3,
            wall_clock: Duration::from_secs(30 * 60),
            max_protocol_errors: 3,
        }
    }
}

impl From<AgentSettings> for Budgets {
    fn from(settings: AgentSettings) -> Self {
        Self { max_rounds: settings.max_rounds, ..Self::default() }
    }
}

/// Everything a run needs to start.
#[derive(Debug, Clone)]
pub struct RunSpec {
    /// The workspace root.
    pub root: Root,
    /// The issue to implement.
    pub issue: Issue,
    /// The model to talk to.
    pub provider: ProviderSettings,
    /// Its limits.
    pub budgets: Budgets,
    /// The workspace index, for the context pack and `find_symbol` (none: no pack).
    pub index: Option<Arc<Index>>,
}

/// Where a run is in its life.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RunState {
    /// Still working.
    Running,
    /// Finished; the proposal is ready for review.
    Ready,
    /// Stopped by an error or a budget; the proposal holds the changes made so far.
    Failed,
    /// Stopped by the user.
    Cancelled,
}

impl RunState {
    /// The lowercase name used in records and on the wire.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Running => "running",
            Self::Ready => "ready",
            Self::Failed => "failed",
            Self::Cancelled => "cancelled",
        }
    }
}

/// Counters and words about a run, as `runStatus` reports them.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RunStatus {
    /// Life stage.
    pub state: RunState,
    /// Model turns so far.
    pub rounds: u32,
    /// Tool calls carried out so far.
    pub tool_calls: u32,
    /// Of those, how many failed (refused, invalid, no unique match...).
    pub failed_tool_calls: u32,
    /// Calls whose arguments did not match the tool's schema.
    pub schema_violations: u32,
    /// Text-protocol answers whose JSON had to be repaired.
    pub parse_repairs: u32,
    /// Tokens used, summed over the run's turns.
    pub usage: Usage,
    /// The model's summary when done, or what is going on.
    pub summary: String,
    /// What ended the run, when it failed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// What a finished run leaves behind.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunOutcome {
    /// The proposed changes.
    pub changes: Vec<FileChange>,
    /// Directories the model created that hold no file (an editor edit cannot create them).
    pub empty_dirs: Vec<WorkspacePath>,
}

/// A run's status and, once it finished, its outcome.
#[derive(Debug, Clone)]
pub struct RunSnapshot {
    /// The status.
    pub status: RunStatus,
    /// Set when the run is over.
    pub outcome: Option<Arc<RunOutcome>>,
}

/// Something that happened during a run, for faces to show as progress.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum RunEvent {
    /// The run began.
    Started {
        /// The issue's title.
        title: String,
    },
    /// A model turn is being requested.
    Round {
        /// 1-based round.
        round: u32,
    },
    /// A tool call finished.
    ToolCall {
        /// Its round.
        round: u32,
        /// The tool.
        name: String,
        /// The path it acted on, when it names one.
        #[serde(skip_serializing_if = "Option::is_none")]
        path: Option<String>,
        /// Whether it succeeded.
        ok: bool,
        /// The first line of its result.
        message: String,
    },
    /// The run ended.
    Finished {
        /// Its final status.
        status: RunStatus,
        /// Number of files in the proposal.
        files: usize,
    },
}

/// Follows and controls one run.
#[derive(Debug, Clone)]
pub struct RunHandle {
    pub(super) id: RunId,
    pub(super) issue: Issue,
    pub(super) status: watch::Receiver<RunSnapshot>,
    pub(super) cancel: CancellationToken,
}

impl RunHandle {
    /// The run's id.
    pub fn id(&self) -> &RunId {
        &self.id
    }

    /// The issue it implements.
    pub fn issue(&self) -> &Issue {
        &self.issue
    }

    /// The latest status and outcome.
    pub fn snapshot(&self) -> RunSnapshot {
        self.status.borrow().clone()
    }

    /// Asks the run to stop; it ends in state `cancelled` with its changes so far.
    pub fn cancel(&self) {
        self.cancel.cancel();
    }

    /// Waits until the run is over.
    pub async fn finished(&self) -> RunSnapshot {
        let mut status = self.status.clone();
        let result = status.wait_for(|snapshot| snapshot.outcome.is_some()).await;
        match result {
            Ok(snapshot) => snapshot.clone(),
            // The task is gone without an outcome; the last status says why.
            Err(_) => self.snapshot(),
        }
    }
}
