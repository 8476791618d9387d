//! Anthropic's Messages API, streamed: the request body, and the assembly of content
//! blocks (`text_delta`, `input_json_delta`) and stop reasons (`tool_use`, `max_tokens`,
//! `pause_turn`, ...).

use std::collections::BTreeMap;

use serde_json::{Value, json};

use super::fault::{Fault, FaultClass, classify_stream_error};
use super::http::{Decoder, Endpoint, Transport};
use super::sse::SseItem;
use super::{AssistantTurn, ChatModel, ChatRequest, LlmError, Message, StopReason, ToolCall, Usage, parse_arguments};

/// The API version every request names.
pub const API_VERSION: &str = "2023-06-01";

/// A Messages API client.
pub struct AnthropicMessages {
    /// Where to send requests (headers include `x-api-key` and `anthropic-version`).
    pub endpoint: Endpoint,
    /// The model name.
    pub model: String,
    /// Output limit per answer (`max_tokens`, required by the API).
    pub max_output_tokens: u32,
    /// The HTTP transport.
    pub transport: Transport,
}

#[async_trait::async_trait]
impl ChatModel for AnthropicMessages {
    fn describe(&self) -> String {
        format!("anthropic:{} at {}", self.model, self.endpoint.shown_url())
    }

    async fn complete(&self, request: ChatRequest<'_>) -> Result<AssistantTurn, LlmError> {
        let body = request_body(&self.model, request, self.max_output_tokens);
        self.transport.complete::<MessageAssembler>(&self.endpoint, &body).await
    }
}

/// The JSON body of a streamed Messages request. System messages become `system`; tool
/// results become `tool_result` blocks of a user turn; consecutive user content merges.
pub fn request_body(model: &str, request: ChatRequest<'_>, max_output_tokens: u32) -> Value {
    let mut system = Vec::new();
    let mut messages: Vec<Value> = Vec::new();
    let mut push = |role: &str, block: Value| match messages.last_mut() {
        Some(last) if last["role"] == role => last["content"].as_array_mut().expect("content arrays").push(block),
        _ => messages.push(json!({"role": role, "content": [block]})),
    };
    for message in request.messages {
        match message {
            Message::System(text) => system.push(text.as_str()),
            Message::User(text) => push("user", json!({"type": "text", "text": text})),
            Message::Assistant(turn) => {
                let text = turn.content.as_deref().unwrap_or_default();
                // The API refuses a text block of whitespace alone.
                let blank = text.trim().is_empty();
                if !blank || turn.tool_calls.is_empty() {
                    push("assistant", json!({"type": "text", "text": if blank { "(no text)" } else { text }}));
                }
                for call in &turn.tool_calls {
                    let input = if call.arguments.is_object() { call.arguments.clone() } else { json!({}) };
                    push("assistant", json!({"type": "tool_use", "id": call.id, "name": call.name, "input": input}));
                }
            }
            Message::ToolResult { call_id, content, is_error, .. } => push(
                "user",
                json!({"type": "tool_result", "tool_use_id": call_id, "content": content, "is_error": is_error}),
            ),
        }
    }
    mark_cache_breakpoints(&mut messages);
    let mut body = json!({
        "model": model,
        "max_tokens": max_output_tokens,
        "messages": messages,
        "stream": true,
    });
    if !system.is_empty() {
        body["system"] = json!(system.join("\n\n"));
    }
    if !request.tools.is_empty() {
        let mut tools: Vec<Value> = request
            .tools
            .iter()
            .map(|tool| json!({"name": tool.name, "description": tool.description, "input_schema": tool.parameters}))
            .collect();
        // The tools are the same at every round: cached as the prefix of every request.
        if let Some(last) = tools.last_mut() {
            last["cache_control"] = cache_breakpoint();
        }
        body["tools"] = Value::Array(tools);
    }
    body
}

/// Where a cached prefix of the prompt ends (Anthropic's prompt caching): each round sends
/// the conversation so far again, and what the last round sent is read back from the cache
/// at a tenth of the price, not sent anew.
fn cache_breakpoint() -> Value {
    json!({"type": "ephemeral"})
}

/// Marks the last block of the last message, and of the user message before it, as where a
/// cached prefix ends: this request's whole prompt is cached for the next, and the previous
/// request's is found again however many blocks (parallel calls' results) came after it.
fn mark_cache_breakpoints(messages: &mut [Value]) {
    for message in messages.iter_mut().rev().filter(|message| message["role"] == "user").take(2) {
        if let Some(block) = message["content"].as_array_mut().and_then(|blocks| blocks.last_mut()) {
            block["cache_control"] = cache_breakpoint();
        }
    }
}

#[derive(Debug)]
enum Block {
    Text(String),
    ToolUse { id: String, name: String, input: Value, json: String },
    Other,
}

/// Assembles a streamed Messages answer.
#[derive(Debug, Default)]
pub struct MessageAssembler {
    blocks: BTreeMap<u64, Block>,
    stop_reason: Option<String>,
    /// Why the answer was stopped, where the provider says (`stop_details` of a refusal).
    stop_explanation: Option<String>,
    input_tokens: u64,
    output_tokens: u64,
    started: bool,
}

impl Decoder for MessageAssembler {
    fn item(&mut self, item: SseItem) -> Result<bool, Fault> {
        let event = match item {
            SseItem::Stray(line) => return Err(classify_stream_error(&line)),
            SseItem::Event(event) => event,
        };
        let data: Value = serde_json::from_str(&event.data).map_err(|error| {
            Fault::new(FaultClass::Retryable, format!("a stream event is not JSON ({error}): {}", event.data))
        })?;
        let kind = event.event.as_deref().or_else(|| data["type"].as_str()).unwrap_or_default().to_owned();
        match kind.as_str() {
            "message_start" => {
                self.started = true;
                let usage = &data["message"]["usage"];
                self.input_tokens = ["input_tokens", "cache_creation_input_tokens", "cache_read_input_tokens"]
                    .iter()
                    .filter_map(|field| usage[field].as_u64())
                    .sum();
                self.output_tokens = usage["output_tokens"].as_u64().unwrap_or(0);
            }
            "content_block_start" => {
                let index = data["index"].as_u64().unwrap_or(self.blocks.len() as u64);
                let block = &data["content_block"];
                let block = match block["type"].as_str() {
                    Some("text") => Block::Text(block["text"].as_str().unwrap_or_default().to_owned()),
                    Some("tool_use") => Block::ToolUse {
                        id: block["id"].as_str().unwrap_or_default().to_owned(),
                        name: block["name"].as_str().unwrap_or_default().to_owned(),
                        input: block["input"].clone(),
                        json: String::new(),
                    },
                    _ => Block::Other,
                };
                self.blocks.insert(index, block);
            }
            "content_block_delta" => {
                let index = data["index"].as_u64().unwrap_or(0);
                let delta = &data["delta"];
                match (self.blocks.get_mut(&index), delta["type"].as_str()) {
                    (Some(Block::Text(text)), Some("text_delta")) => {
                        text.push_str(delta["text"].as_str().unwrap_or_default())
                    }
                    (Some(Block::ToolUse { json, .. }), Some("input_json_delta")) => {
                        json.push_str(delta["partial_json"].as_str().unwrap_or_default());
                    }
                    _ => {}
                }
            }
            "message_delta" => {
                if let Some(reason) = data["delta"]["stop_reason"].as_str() {
                    self.stop_reason = Some(reason.to_owned());
                }
                if let Some(explanation) = data["delta"]["stop_details"]["explanation"].as_str() {
                    self.stop_explanation = Some(explanation.to_owned());
                }
                if let Some(output) = data["usage"]["output_tokens"].as_u64() {
                    self.output_tokens = output;
                }
            }
            "message_stop" => return Ok(true),
            "error" => return Err(classify_stream_error(&event.data)),
            _ => {} // ping, content_block_stop, and events added later
        }
        Ok(false)
    }

    fn finish(self, complete: bool) -> Result<AssistantTurn, Fault> {
        let Some(reason) = self.stop_reason else {
            let how = if complete { "without a stop_reason" } else { "before its end" };
            return Err(Fault::new(FaultClass::Retryable, format!("the answer stream ended {how}")));
        };
        if reason == "model_context_window_exceeded" {
            return Err(Fault::new(
                FaultClass::ContextOverflow,
                "the model's context window is full (model_context_window_exceeded)",
            ));
        }
        let mut text = String::new();
        let mut tool_calls = Vec::new();
        for block in self.blocks.into_values() {
            match block {
                Block::Text(part) => text.push_str(&part),
                Block::ToolUse { id, name, input, json } => {
                    let (arguments, malformed) = if json.is_empty() { (input, None) } else { parse_arguments(&json) };
                    tool_calls.push(ToolCall { id, name, arguments, malformed });
                }
                Block::Other => {}
            }
        }
        // A refusal with nothing said is explained in its stop details.
        if reason == "refusal"
            && text.trim().is_empty()
            && let Some(explanation) = self.stop_explanation
        {
            text = explanation;
        }
        let stop = match reason.as_str() {
            "max_tokens" => StopReason::MaxTokens,
            "pause_turn" => StopReason::Paused,
            "refusal" => StopReason::Refused,
            _ if !tool_calls.is_empty() => StopReason::ToolUse,
            _ => StopReason::EndTurn,
        };
        Ok(AssistantTurn {
            content: (!text.is_empty()).then_some(text),
            tool_calls,
            stop,
            usage: Some(Usage { input_tokens: self.input_tokens, output_tokens: self.output_tokens }),
            ..AssistantTurn::default()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::llm::ToolSpec;
    use crate::llm::http::StreamReader;

    fn decode(path: &str) -> Result<AssistantTurn, Fault> {
        let bytes = std::fs::read(crate::testing::specs_dir().join(path)).expect("spec stream");
        let mut reader = StreamReader::<MessageAssembler>::default();
        reader.feed(&bytes)?;
        reader.finish()
    }

    #[test]
    fn recorded_text_streams() {
        for path in ["anthropic/examples/stream.text.sdk-fixture.sse", "anthropic/examples/stream.text.docs.sse"] {
            let turn = decode(path).unwrap();
            assert_eq!(turn.stop, StopReason::EndTurn, "{path}");
            assert!(!turn.content.unwrap().is_empty());
        }
    }

    #[test]
    fn recorded_tool_use() {
        let turn = decode("anthropic/examples/stream.tool-use.sdk-fixture.sse").unwrap();
        assert_eq!(turn.stop, StopReason::ToolUse);
        assert_eq!(turn.content.as_deref(), Some("I'll check the current weather in Paris for you."));
        let call = &turn.tool_calls[0];
        assert_eq!((call.id.as_str(), call.name.as_str()), ("toolu_01NRLabsLyVHZPKxbKvkfSMn", "get_weather"));
        assert_eq!(call.arguments, json!({"location": "Paris"}));
        assert_eq!(turn.usage, Some(Usage { input_tokens: 377, output_tokens: 65 }));
        let docs = decode("anthropic/examples/stream.tool-use.docs.sse").unwrap();
        assert_eq!(docs.stop, StopReason::ToolUse);
        assert!(docs.tool_calls.iter().all(|c| c.malformed.is_none()));
    }

    #[test]
    fn recorded_tool_use_cut_by_max_tokens() {
        let turn = decode("anthropic/examples/stream.tool-use-cut-by-max-tokens.sdk-fixture.sse").unwrap();
        assert_eq!(turn.stop, StopReason::MaxTokens);
        let call = &turn.tool_calls[0];
        assert_eq!(call.name, "make_file");
        assert!(call.malformed.is_some(), "the JSON was cut: {call:?}");
        assert!(call.arguments.as_str().unwrap().starts_with("{\"filename\": \"taxes.txt\""));
        assert_eq!(turn.usage.unwrap().output_tokens, 124);
    }

    #[test]
    fn recorded_refusal_and_thinking() {
        let refusal = decode("anthropic/examples/stream.refusal.sdk-fixture.sse").unwrap();
        assert_eq!(refusal.stop, StopReason::Refused);
        assert_eq!(
            refusal.content.as_deref(),
            Some("This request was refused due to policy."),
            "why, from stop_details"
        );
        let thinking = decode("anthropic/examples/stream.extended-thinking.docs.sse").unwrap();
        assert!(thinking.content.is_some(), "thinking is left out, the text kept");
    }

    #[test]
    fn recorded_error_event_is_retryable_overload() {
        let fault = decode("anthropic/examples/stream.error-event.docs.sse").unwrap_err();
        assert_eq!(fault.class, FaultClass::Retryable);
        assert!(fault.message.contains("Overloaded"));
    }

    #[test]
    fn pause_turn_and_a_cut_stream() {
        let mut paused = MessageAssembler::default();
        let event = |name: &str, data: Value| {
            SseItem::Event(super::super::sse::SseEvent { event: Some(name.into()), data: data.to_string() })
        };
        paused
            .item(event("message_start", json!({"type": "message_start", "message": {"usage": {"input_tokens": 3}}})))
            .unwrap();
        paused
            .item(event("message_delta", json!({"type": "message_delta", "delta": {"stop_reason": "pause_turn"}})))
            .unwrap();
        assert_eq!(paused.finish(false).unwrap().stop, StopReason::Paused);
        let mut cut = MessageAssembler::default();
        cut.item(event("message_start", json!({"type": "message_start", "message": {"usage": {}}}))).unwrap();
        assert_eq!(cut.finish(false).unwrap_err().class, FaultClass::Retryable);
    }

    #[test]
    fn request_bodies_follow_the_messages_shape() {
        let turn = AssistantTurn {
            content: Some("Reading.".into()),
            tool_calls: vec![
                ToolCall {
                    id: "t1".into(),
                    name: "read_file".into(),
                    arguments: json!({"path": "a"}),
                    malformed: None,
                },
                ToolCall {
                    id: "t2".into(),
                    name: "write_file".into(),
                    arguments: json!("{broken"),
                    malformed: Some("EOF".into()),
                },
            ],
            stop: StopReason::ToolUse,
            ..AssistantTurn::default()
        };
        let messages = [
            Message::System("rules".into()),
            Message::User("issue".into()),
            Message::Assistant(turn),
            Message::ToolResult {
                call_id: "t1".into(),
                name: "read_file".into(),
                content: "text".into(),
                is_error: false,
            },
            Message::ToolResult {
                call_id: "t2".into(),
                name: "write_file".into(),
                content: "bad".into(),
                is_error: true,
            },
        ];
        let tools = [ToolSpec { name: "read_file", description: "Read.", parameters: json!({"type": "object"}) }];
        let body = request_body("claude-sonnet-4-5", ChatRequest { messages: &messages, tools: &tools }, 4096);
        assert_eq!(body["system"], "rules");
        assert_eq!(body["max_tokens"], 4096);
        let roles: Vec<&str> =
            body["messages"].as_array().unwrap().iter().map(|m| m["role"].as_str().unwrap()).collect();
        assert_eq!(roles, ["user", "assistant", "user"], "tool results merge into one user turn");
        assert_eq!(body["messages"][1]["content"][2]["input"], json!({}), "unparseable input is sent as an object");
        assert_eq!(body["messages"][2]["content"][1]["is_error"], true);
        assert_eq!(body["tools"][0]["input_schema"], json!({"type": "object"}));
        // A turn of whitespace alone, which the API refuses as a text block.
        let blank = AssistantTurn { content: Some(" \n".into()), ..AssistantTurn::default() };
        let blank_body = request_body("m", ChatRequest { messages: &[Message::Assistant(blank)], tools: &[] }, 1);
        assert_eq!(blank_body["messages"][0]["content"][0]["text"], "(no text)");
    }

    #[test]
    fn the_prompt_is_cached_up_to_the_last_block_and_the_one_before() {
        let result = |id: &str| Message::ToolResult {
            call_id: id.into(),
            name: "read_file".into(),
            content: "fn main() {}".into(),
            is_error: false,
        };
        let turn = AssistantTurn { content: Some("Reading.".into()), ..AssistantTurn::default() };
        let messages = [
            Message::System("rules".into()),
            Message::User("Implement the issue.".into()),
            Message::Assistant(turn.clone()),
            result("t1"),
            Message::Assistant(turn),
            result("t2"),
            result("t3"),
        ];
        let tools = [
            ToolSpec { name: "read_file", description: "Read.", parameters: json!({"type": "object"}) },
            ToolSpec { name: "grep", description: "Search.", parameters: json!({"type": "object"}) },
        ];
        let body = request_body("claude-sonnet-4-5", ChatRequest { messages: &messages, tools: &tools }, 4096);
        let ephemeral = json!({"type": "ephemeral"});
        assert_eq!(body["tools"][1]["cache_control"], ephemeral, "the tools, the same every round");
        assert!(body["tools"][0].get("cache_control").is_none());
        let marked: Vec<(usize, usize)> = body["messages"]
            .as_array()
            .unwrap()
            .iter()
            .enumerate()
            .flat_map(|(at, message)| {
                let blocks = message["content"].as_array().unwrap();
                blocks.iter().enumerate().filter(|(_, b)| b.get("cache_control").is_some()).map(move |(i, _)| (at, i))
            })
            .collect();
        assert_eq!(marked, [(2, 0), (4, 1)], "the last block, and the last of the user turn before it");
        assert_eq!(body["messages"][4]["content"][1]["cache_control"], ephemeral);
    }
}
