//! The ledger: one JSON event per line, append-only, everything the model saw and did.

use serde_json::Value;

use crate::llm::{StopReason, Usage};
use crate::workspace::ChangeKind;

/// One event of a run's ledger.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum LedgerEvent {
    /// The run began.
    RunStarted {
        /// The issue's title.
        title: String,
        /// The issue's full text.
        issue: String,
        /// Which model answers (e.g. `replay:examples/x/replay.jsonl`).
        model: String,
    },
    /// The instructions and the first message the model received.
    Prompt {
        /// The system prompt.
        system: String,
        /// The first user message (the issue and the context pack).
        user: String,
    },
    /// The context pack built for the first message.
    ContextPack {
        /// Files included in full.
        full_files: Vec<String>,
        /// Files too large for the budget, in the parts the issue points at or where the words
        /// they share with it gather.
        #[serde(default)]
        part_files: Vec<String>,
        /// Files in the repository map.
        mapped_files: Vec<String>,
        /// Estimated tokens.
        tokens: usize,
    },
    /// The model answered.
    ModelTurn {
        /// 1-based round.
        round: u32,
        /// Text the model wrote, if any.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        content: Option<String>,
        /// Number of tool calls in the turn.
        tool_calls: usize,
        /// Why the turn ended.
        #[serde(default)]
        stop: StopReason,
        /// Tokens the turn used.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        usage: Option<Usage>,
        /// A text-protocol answer that could not be read.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        protocol_error: Option<String>,
    },
    /// A tool call is about to run.
    ToolCall {
        /// Round it belongs to.
        round: u32,
        /// The model's id for the call.
        id: String,
        /// The tool.
        name: String,
        /// The arguments as the model gave them.
        arguments: Value,
    },
    /// A tool call's result, as the model receives it.
    ToolResult {
        /// Round it belongs to.
        round: u32,
        /// The call's id.
        id: String,
        /// The tool.
        name: String,
        /// Whether it succeeded.
        ok: bool,
        /// The text returned to the model.
        output: String,
    },
    /// The driver ran the project's check or tests on the proposal as it stood.
    Validation {
        /// Round it followed.
        round: u32,
        /// `check` or `test`.
        kind: String,
        /// The command, when one ran.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        command: Option<String>,
        /// It ran and exited with 0.
        passed: bool,
        /// Errors found.
        errors: usize,
        /// How many of them the same command found without the proposal.
        #[serde(default, skip_serializing_if = "is_zero")]
        preexisting: usize,
        /// Warnings found.
        warnings: usize,
        /// Wall time in milliseconds.
        duration_ms: u64,
        /// What the model was told.
        summary: String,
    },
    /// A validation of the proposal failed, so the driver ran the same command on the
    /// workspace without it, to tell errors already there from new ones.
    Baseline {
        /// Round it followed.
        round: u32,
        /// `check` or `test`.
        kind: String,
        /// The command.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        command: Option<String>,
        /// It exited with 0.
        passed: bool,
        /// Errors found.
        errors: usize,
        /// Wall time in milliseconds.
        duration_ms: u64,
    },
    /// The driver changed strategy because validation errors stopped falling.
    Strategy {
        /// Round it followed.
        round: u32,
        /// `reflect`, `context` or `rewrite`.
        strategy: String,
        /// Error counts of the validations that led to it.
        counts: Vec<usize>,
    },
    /// Something went wrong outside a tool call.
    Error {
        /// What happened.
        message: String,
    },
    /// The run ended.
    RunFinished {
        /// `ready`, `failed` or `cancelled`.
        state: String,
        /// Rounds used.
        rounds: u32,
        /// Tool calls made.
        tool_calls: u32,
        /// Tokens used by the whole run.
        #[serde(default)]
        usage: Usage,
        /// The model's summary, or why it stopped.
        summary: String,
        /// The error that ended it, if any.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        error: Option<String>,
        /// The files of the proposal.
        files: Vec<(String, ChangeKind)>,
    },
    /// The user applied the proposal (or part of it) through the editor or `run --apply`.
    ProposalApplied {
        /// Files the edit covered.
        files: Vec<String>,
        /// Files that did not end up as proposed, with why.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        problems: Vec<String>,
    },
    /// The user discarded the proposal.
    ProposalDiscarded,
}

fn is_zero(value: &usize) -> bool {
    *value == 0
}

/// A ledger line: the event with its time.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct LedgerLine {
    /// RFC 3339 UTC time.
    pub ts: String,
    /// The event.
    #[serde(flatten)]
    pub event: LedgerEvent,
}
