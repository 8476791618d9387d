//! The public face of a run: what starts it, what it reports, and the handle to follow it.

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::watch;
use tokio_util::sync::CancellationToken;

use crate::config::{AgentSettings, ProviderSettings};
use crate::context::{Index, LiveIndex};
use crate::issues::Issue;
use crate::llm::Usage;
use crate::session::RunId;
use crate::validate::{Report, Validator};
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
    /// Checks and test runs (automatic and asked for) before validation stops for the run.
    pub max_validations: u32,
    /// Times the model is sent back when it finishes while the check or tests fail.
    pub max_final_nudges: u32,
    /// Tokens sent and received over the run (each request's whole conversation counts, as
    /// providers bill it; estimated where the provider reports none) before it stops.
    pub max_tokens: u64,
    /// Turns with tool calls that do not match their schemas before the run stops (each
    /// such turn costs one, however many of its calls missed).
    pub max_invalid_turns: u32,
}

impl Default for Budgets {
    fn default() -> Self {
        Self {
            max_rounds: 30,
            max_tool_calls_per_round: 64,
            max_identical_calls: 3,
            wall_clock: Duration::from_secs(30 * 60),
            max_protocol_errors: 3,
            max_validations: 20,
            max_final_nudges: 1,
            max_tokens: crate::config::DEFAULT_MAX_TOKENS,
            max_invalid_turns: 10,
        }
    }
}

impl From<AgentSettings> for Budgets {
    fn from(settings: AgentSettings) -> Self {
        Self { max_rounds: settings.max_rounds, max_tokens: settings.max_tokens, ..Self::default() }
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
    /// The index still being built when the run began (so `index` is none): `find_symbol`
    /// answers from it once it is ready, though the first prompt went without a pack.
    pub index_later: Option<Arc<LiveIndex>>,
    /// Runs the project's check and tests on the proposal (none: no validation).
    pub validator: Option<Arc<Validator>>,
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
    /// Whether the proposal builds and passes its tests, when the project has a check.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub validation: Option<ValidationStatus>,
}

impl RunStatus {
    /// Ends the run as failed by `message` (a broken provider, an internal error).
    pub(crate) fn fail(&mut self, message: String) {
        self.state = RunState::Failed;
        self.summary = format!("The run failed: {message}");
        self.error = Some(message);
    }

    /// The record of a finished run with this status, for `proposal.json`: its `changes`,
    /// the final validation report (as JSON) and this status's verdicts, so a run reads the
    /// same after a restart as before it.
    pub(crate) fn stored(
        &self,
        run_id: RunId,
        title: String,
        changes: Vec<FileChange>,
        validation: Option<serde_json::Value>,
    ) -> crate::session::StoredProposal {
        crate::session::StoredProposal {
            run_id,
            title,
            state: self.state.as_str().to_owned(),
            rounds: self.rounds,
            tool_calls: self.tool_calls,
            failed_tool_calls: self.failed_tool_calls,
            usage: self.usage,
            summary: self.summary.clone(),
            error: self.error.clone(),
            changes,
            validation,
            verdicts: self.validation.and_then(|verdicts| serde_json::to_value(verdicts).ok()),
            schema_violations: self.schema_violations,
            parse_repairs: self.parse_repairs,
            discarded: false,
        }
    }
}

/// How a validation of the proposal ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Verdict {
    /// Not run (yet), or it no longer describes the proposal.
    NotRun,
    /// It ran and passed.
    Passed,
    /// It ran and failed (or timed out).
    Failed,
    /// It could not run (the tool is missing).
    Unavailable,
}

/// Whether the proposal builds and passes its tests.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ValidationStatus {
    /// The check of the latest proposal.
    pub build: Verdict,
    /// The tests of the latest proposal.
    pub tests: Verdict,
    /// Errors the latest validation found.
    pub errors: usize,
    /// How many of them the workspace had before the run (the same command failed with
    /// them without the proposal).
    #[serde(default)]
    pub preexisting: usize,
    /// Warnings it found.
    pub warnings: usize,
    /// Validations run so far.
    pub runs: u32,
}

/// The validation that describes a finished run's proposal: the latest check and tests.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct FinalValidation {
    /// The check.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub check: Option<Report>,
    /// The tests.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub test: Option<Report>,
}

impl FinalValidation {
    /// Every problem of both reports, the check's first.
    pub fn problems(&self) -> impl Iterator<Item = &crate::validate::Problem> {
        self.check.iter().chain(self.test.iter()).flat_map(|report| report.problems.iter())
    }
}

/// What a finished run leaves behind.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunOutcome {
    /// The proposed changes.
    pub changes: Vec<FileChange>,
    /// Directories the model created that hold no file (an editor edit cannot create them).
    pub empty_dirs: Vec<WorkspacePath>,
    /// The validation of exactly these changes, when one ran.
    pub validation: Option<Arc<FinalValidation>>,
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
    /// What the first prompt holds of the workspace: the context pack, or none when the
    /// index was not ready (then `find_symbol` waits for it).
    #[serde(rename_all = "camelCase")]
    Context {
        /// Files given in full, best first.
        full_files: Vec<String>,
        /// Files too large for the pack, given in the parts the issue points at (or where the
        /// words it shares with the issue gather), best first.
        part_files: Vec<String>,
        /// How many files the repository map lists besides those given in part.
        mapped_files: usize,
        /// The pack's estimated size in tokens.
        tokens: usize,
        /// Whether the index was ready when the run began.
        indexed: bool,
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
    /// The driver validated the proposal as it stood.
    Validation {
        /// The round it followed.
        round: u32,
        /// `check` or `test`.
        step: String,
        /// It passed.
        passed: bool,
        /// Errors found.
        errors: usize,
        /// How many of them were there before the run.
        preexisting: usize,
        /// Warnings found.
        warnings: usize,
    },
    /// The run ended.
    Finished {
        /// Its final status.
        status: RunStatus,
        /// Number of files in the proposal.
        files: usize,
    },
}

/// What a run's first prompt holds of the workspace, in one line, for a
/// [`RunEvent::Context`]; none for any other event.
pub fn context_line(event: &RunEvent) -> Option<String> {
    let RunEvent::Context { full_files, part_files, mapped_files, tokens, indexed } = event else { return None };
    if !indexed {
        return Some("context: none yet, the index is still being built; find_symbol answers once it is".into());
    }
    let list = |files: &[String]| {
        let shown = files.iter().take(3).map(String::as_str).collect::<Vec<_>>().join(", ");
        if files.len() > 3 { format!("{shown} and {} more", files.len() - 3) } else { shown }
    };
    Some(match (full_files.len(), part_files.len(), mapped_files) {
        (0, 0, 0) => "context: no file given to the model".into(),
        (0, 0, mapped) => format!("context: {mapped} files in the map, none in full (about {tokens} tokens)"),
        _ => {
            let mut held = Vec::new();
            if !full_files.is_empty() {
                held.push(format!("{} in full", list(full_files)));
            }
            if !part_files.is_empty() {
                held.push(format!("{} in part", list(part_files)));
            }
            format!("context: {}; {mapped_files} more in the map (about {tokens} tokens)", held.join(", "))
        }
    })
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
