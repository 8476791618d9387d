//! The replay provider: turns recorded one per line in a JSONL file, returned in order.
//!
//! A line is `{"content": "optional text", "tool_calls": [{"id": "c1", "name":
//! "patch_file", "arguments": {...}}]}`. A turn without tool calls ends the run; running
//! out of turns is an error. `arguments` may also be a JSON-encoded string, as OpenAI
//! sends them; `id` may be left out. This format is how sessions are replayed for tests
//! and debugging, and it stays supported.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use serde_json::Value;

use super::{AssistantTurn, ChatModel, ChatRequest, LlmError, StopReason, ToolCall};

/// Why a replay file cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum ReplayError {
    /// The file cannot be read.
    #[error("cannot read replay file `{path}`: {source}")]
    Unreadable {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A line is not a turn.
    #[error("replay file `{path}` line {line}: {message}")]
    BadLine {
        /// The file.
        path: PathBuf,
        /// 1-based line number.
        line: usize,
        /// What is wrong with it.
        message: String,
    },
    /// The file holds no turn.
    #[error("replay file `{0}` holds no turns; each line must be one JSON object")]
    Empty(PathBuf),
    /// All turns were used and the model was asked again.
    #[error(
        "replay file `{path}` ran out after {turns} turns without a final turn (a turn with no tool_calls ends the run)"
    )]
    Exhausted {
        /// The file.
        path: PathBuf,
        /// Turns it held.
        turns: usize,
    },
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct RecordedTurn {
    #[serde(default)]
    content: Option<String>,
    #[serde(default)]
    tool_calls: Vec<RecordedCall>,
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct RecordedCall {
    #[serde(default)]
    id: Option<String>,
    name: String,
    #[serde(default)]
    arguments: Value,
}

/// A model that replays recorded turns.
#[derive(Debug)]
pub struct ReplayModel {
    path: PathBuf,
    turns: Vec<AssistantTurn>,
    next: AtomicUsize,
}

impl ReplayModel {
    /// Reads and checks every turn of `path` up front, so a bad file fails before the run.
    pub fn load(path: &Path) -> Result<Self, ReplayError> {
        let text = std::fs::read_to_string(path)
            .map_err(|source| ReplayError::Unreadable { path: path.to_owned(), source })?;
        Self::parse(path, &text)
    }

    /// Parses replay text; `path` names it in errors.
    pub fn parse(path: &Path, text: &str) -> Result<Self, ReplayError> {
        let mut turns = Vec::new();
        for (index, line) in text.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let bad = |message: String| ReplayError::BadLine { path: path.to_owned(), line: index + 1, message };
            let recorded: RecordedTurn = serde_json::from_str(line).map_err(|e| bad(e.to_string()))?;
            let mut tool_calls = Vec::with_capacity(recorded.tool_calls.len());
            for (position, call) in recorded.tool_calls.into_iter().enumerate() {
                let arguments = match call.arguments {
                    Value::String(encoded) => serde_json::from_str(&encoded)
                        .map_err(|e| bad(format!("arguments of `{}` are a string but not JSON: {e}", call.name)))?,
                    Value::Null => Value::Object(Default::default()),
                    other => other,
                };
                let id = call.id.unwrap_or_else(|| format!("call_{}_{}", turns.len() + 1, position + 1));
                tool_calls.push(ToolCall { id, name: call.name, arguments, malformed: None });
            }
            let stop = if tool_calls.is_empty() { StopReason::EndTurn } else { StopReason::ToolUse };
            turns.push(AssistantTurn { content: recorded.content, tool_calls, stop, ..AssistantTurn::default() });
        }
        if turns.is_empty() {
            return Err(ReplayError::Empty(path.to_owned()));
        }
        Ok(Self { path: path.to_owned(), turns, next: AtomicUsize::new(0) })
    }

    /// Number of recorded turns.
    pub fn len(&self) -> usize {
        self.turns.len()
    }

    /// True when there are no turns (never, once loaded).
    pub fn is_empty(&self) -> bool {
        self.turns.is_empty()
    }
}

#[async_trait::async_trait]
impl ChatModel for ReplayModel {
    fn describe(&self) -> String {
        format!("replay:{}", self.path.display())
    }

    async fn complete(&self, _request: ChatRequest<'_>) -> Result<AssistantTurn, LlmError> {
        let index = self.next.fetch_add(1, Ordering::SeqCst);
        self.turns
            .get(index)
            .cloned()
            .ok_or_else(|| ReplayError::Exhausted { path: self.path.clone(), turns: self.turns.len() }.into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<ReplayModel, ReplayError> {
        ReplayModel::parse(Path::new("r.jsonl"), text)
    }

    fn request() -> ChatRequest<'static> {
        ChatRequest { messages: &[], tools: &[] }
    }

    #[tokio::test]
    async fn turns_come_back_in_order_then_run_out() {
        let model = parse(concat!(
            r#"{"content":"reading","tool_calls":[{"id":"c1","name":"read_file","arguments":{"path":"a"}}]}"#,
            "\n\n",
            r#"{"content":"done"}"#,
            "\n"
        ))
        .unwrap();
        let first = model.complete(request()).await.unwrap();
        assert_eq!(first.tool_calls[0].name, "read_file");
        assert_eq!(first.stop, StopReason::ToolUse);
        let second = model.complete(request()).await.unwrap();
        assert_eq!(second.content.as_deref(), Some("done"));
        assert_eq!(second.stop, StopReason::EndTurn);
        let error = model.complete(request()).await.unwrap_err();
        assert!(error.to_string().contains("ran out after 2 turns"), "{error}");
    }

    #[test]
    fn string_arguments_and_missing_ids_are_accepted() {
        let model = parse(r#"{"tool_calls":[{"name":"list_files","arguments":"{\"path\":\"src\"}"}]}"#).unwrap();
        let call = &model.turns[0].tool_calls[0];
        assert_eq!(call.arguments["path"], "src");
        assert_eq!(call.id, "call_1_1");
    }

    #[test]
    fn malformed_lines_are_named() {
        for (text, expected) in [
            ("{\"content\": 1}", "line 1"),
            ("{}\nnot json", "line 2"),
            ("{\"tool_calls\": {}}", "line 1"),
            ("{\"tool_calls\": [{\"arguments\": {}}]}", "missing field `name`"),
            ("{\"tool_calls\": [{\"name\": \"x\", \"arguments\": \"{bad\"}]}", "not JSON"),
            ("{\"contnet\": \"typo\"}", "unknown field `contnet`"),
        ] {
            let error = parse(text).unwrap_err().to_string();
            assert!(error.contains(expected), "{text}: {error}");
        }
        assert!(matches!(parse("\n  \n"), Err(ReplayError::Empty(_))));
    }
}
