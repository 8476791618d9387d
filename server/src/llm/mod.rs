//! Models behind one trait. The driver hands a [`ChatModel`] the conversation and the tool
//! descriptors and gets back one assistant turn. Today the only provider replays recorded
//! turns from a JSONL file; HTTP providers implement the same trait.

mod replay;

use std::path::PathBuf;

use serde_json::Value;

pub use replay::{ReplayError, ReplayModel};

/// A tool call the model asked for.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ToolCall {
    /// The model's id for the call, echoed with its result.
    pub id: String,
    /// The tool's name.
    pub name: String,
    /// The arguments, a JSON object when the model behaves.
    pub arguments: Value,
}

/// Why the model stopped producing its turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StopReason {
    /// The turn is complete.
    EndTurn,
    /// The model wants its tool calls run.
    ToolUse,
    /// The output token limit cut the turn.
    MaxTokens,
}

/// One assistant turn.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct AssistantTurn {
    /// Text the model wrote.
    pub content: Option<String>,
    /// Tool calls, in the order to run them.
    pub tool_calls: Vec<ToolCall>,
    /// Why the turn ended.
    pub stop: StopReason,
}

/// One message of the conversation.
#[derive(Debug, Clone, PartialEq)]
pub enum Message {
    /// Instructions.
    System(String),
    /// The user's words (the issue and its context).
    User(String),
    /// A previous turn of the model.
    Assistant(AssistantTurn),
    /// The result of one tool call.
    ToolResult {
        /// The call's id.
        call_id: String,
        /// The tool.
        name: String,
        /// The result text.
        content: String,
        /// True when the call failed.
        is_error: bool,
    },
}

/// A tool as the model sees it.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct ToolSpec {
    /// The name the model calls it by.
    pub name: &'static str,
    /// What it does and when to use it.
    pub description: &'static str,
    /// JSON Schema of its arguments object.
    pub parameters: Value,
}

/// What the driver sends for one turn.
#[derive(Debug, Clone, Copy)]
pub struct ChatRequest<'a> {
    /// The conversation so far.
    pub messages: &'a [Message],
    /// The tools the model may call.
    pub tools: &'a [ToolSpec],
}

/// Why a model gave no turn.
#[derive(Debug, thiserror::Error)]
pub enum LlmError {
    /// The replay file is unusable or exhausted.
    #[error(transparent)]
    Replay(#[from] ReplayError),
}

/// A model that answers one turn at a time.
#[async_trait::async_trait]
pub trait ChatModel: Send + Sync {
    /// A short description for records, e.g. `replay:fix.jsonl`.
    fn describe(&self) -> String;

    /// The model's next turn for this conversation.
    async fn complete(&self, request: ChatRequest<'_>) -> Result<AssistantTurn, LlmError>;
}

/// Which model a run talks to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ProviderConfig {
    /// Recorded turns from a JSONL file.
    Replay {
        /// The file.
        path: PathBuf,
    },
}

/// Builds the model a configuration names.
pub fn connect(config: &ProviderConfig) -> Result<Box<dyn ChatModel>, LlmError> {
    match config {
        ProviderConfig::Replay { path } => Ok(Box::new(ReplayModel::load(path)?)),
    }
}
