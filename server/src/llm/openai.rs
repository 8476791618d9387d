//! OpenAI Chat Completions, streamed: the request body, and the assembly of `delta`
//! chunks (text, tool-call fragments by `index`, the finish chunk, the usage chunk, `[DONE]`).
//! The same client serves every OpenAI-compatible server, Ollama's `/v1` included.

use std::collections::HashMap;

use serde_json::{Value, json};

use super::fault::{Fault, FaultClass, classify_stream_error};
use super::http::{Decoder, Endpoint, Transport};
use super::sse::SseItem;
use super::{AssistantTurn, ChatModel, ChatRequest, LlmError, Message, StopReason, ToolCall, Usage, parse_arguments};

/// Which field carries the output limit: OpenAI's own API wants `max_completion_tokens`
/// (reasoning models refuse `max_tokens`); most compatible servers know only `max_tokens`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LimitField {
    /// `max_completion_tokens`.
    MaxCompletionTokens,
    /// `max_tokens`.
    MaxTokens,
}

/// A Chat Completions client.
pub struct OpenAiChat {
    /// Where to send requests.
    pub endpoint: Endpoint,
    /// The model name.
    pub model: String,
    /// Output limit per answer.
    pub max_output_tokens: u32,
    /// How the limit is sent.
    pub limit_field: LimitField,
    /// The HTTP transport.
    pub transport: Transport,
    /// Set once the server refused `stream_options` (Mistral's API forbids fields it does
    /// not know): later requests leave it out, and their usage is estimated.
    pub without_stream_options: std::sync::atomic::AtomicBool,
}

#[async_trait::async_trait]
impl ChatModel for OpenAiChat {
    fn describe(&self) -> String {
        format!("{}:{} at {}", self.endpoint.provider, self.model, self.endpoint.shown_url())
    }

    async fn complete(&self, request: ChatRequest<'_>) -> Result<AssistantTurn, LlmError> {
        use std::sync::atomic::Ordering;
        let mut body = request_body(&self.model, request, self.max_output_tokens, self.limit_field);
        if self.without_stream_options.load(Ordering::Relaxed) {
            body.as_object_mut().map(|fields| fields.remove("stream_options"));
        }
        match self.transport.complete::<ChunkAssembler>(&self.endpoint, &body).await {
            Err(LlmError::Rejected { message, .. })
                if message.contains("stream_options") && body.get("stream_options").is_some() =>
            {
                tracing::info!("the server refuses stream_options; asking again without it");
                self.without_stream_options.store(true, Ordering::Relaxed);
                body.as_object_mut().map(|fields| fields.remove("stream_options"));
                self.transport.complete::<ChunkAssembler>(&self.endpoint, &body).await
            }
            answer => answer,
        }
    }
}

/// The JSON body of a streamed Chat Completions request.
pub fn request_body(model: &str, request: ChatRequest<'_>, max_output_tokens: u32, limit: LimitField) -> Value {
    let messages: Vec<Value> = request.messages.iter().map(message).collect();
    let mut body = json!({
        "model": model,
        "messages": messages,
        "stream": true,
        "stream_options": {"include_usage": true},
    });
    let field = match limit {
        LimitField::MaxCompletionTokens => "max_completion_tokens",
        LimitField::MaxTokens => "max_tokens",
    };
    body[field] = json!(max_output_tokens);
    if !request.tools.is_empty() {
        body["tools"] = function_tools(request.tools);
    }
    body
}

/// `tools` as `{"type": "function", "function": {name, description, parameters}}` entries,
/// the shape Chat Completions and Ollama's `/api/chat` both take.
pub(super) fn function_tools(tools: &[super::ToolSpec]) -> Value {
    tools
        .iter()
        .map(|tool| {
            json!({"type": "function", "function": {
                "name": tool.name,
                "description": tool.description,
                "parameters": tool.parameters,
            }})
        })
        .collect()
}

fn message(message: &Message) -> Value {
    match message {
        Message::System(text) => json!({"role": "system", "content": text}),
        Message::User(text) => json!({"role": "user", "content": text}),
        Message::Assistant(turn) => {
            let mut value = json!({"role": "assistant"});
            let text = turn.content.as_deref().unwrap_or_default();
            if !text.is_empty() || turn.tool_calls.is_empty() {
                value["content"] = json!(text);
            }
            if !turn.tool_calls.is_empty() {
                value["tool_calls"] = turn
                    .tool_calls
                    .iter()
                    .map(|call| {
                        // Arguments that did not parse go back as `{}` (the call's result told the
                        // model so): servers that read the history (Ollama, llama.cpp) refuse
                        // them as they came.
                        let arguments = match &call.arguments {
                            Value::String(_) => "{}".to_owned(),
                            other => other.to_string(),
                        };
                        json!({"id": call.id, "type": "function", "function": {"name": call.name, "arguments": arguments}})
                    })
                    .collect();
            }
            value
        }
        Message::ToolResult { call_id, content, .. } => {
            json!({"role": "tool", "tool_call_id": call_id, "content": content})
        }
    }
}

#[derive(Debug, Default)]
struct PartialCall {
    id: Option<String>,
    name: String,
    arguments: String,
}

/// Assembles a streamed Chat Completions answer.
#[derive(Debug, Default)]
pub struct ChunkAssembler {
    text: String,
    /// Calls in the order they began.
    calls: Vec<PartialCall>,
    /// The call (a position in `calls`) each wire `index` currently feeds.
    slots: HashMap<u64, usize>,
    finish_reason: Option<String>,
    usage: Option<Usage>,
    /// Whether the model declined, in `refusal` deltas rather than `content`.
    refused: bool,
}

impl Decoder for ChunkAssembler {
    fn item(&mut self, item: SseItem) -> Result<bool, Fault> {
        let data = match item {
            SseItem::Stray(line) => return Err(classify_stream_error(&line)),
            SseItem::Event(event) => event.data,
        };
        if data.trim() == "[DONE]" {
            return Ok(true);
        }
        let chunk: Value = serde_json::from_str(&data).map_err(|error| {
            Fault::new(FaultClass::Retryable, format!("a stream chunk is not JSON ({error}): {data}"))
        })?;
        if chunk.get("error").is_some_and(|e| !e.is_null()) {
            return Err(classify_stream_error(&data));
        }
        if let Some(usage) = chunk.get("usage").filter(|u| u.is_object()) {
            self.usage = Some(Usage {
                input_tokens: usage["prompt_tokens"].as_u64().unwrap_or(0),
                output_tokens: usage["completion_tokens"].as_u64().unwrap_or(0),
            });
        }
        let Some(choice) = chunk["choices"].as_array().and_then(|choices| choices.first()) else {
            return Ok(false);
        };
        let delta = &choice["delta"];
        for field in ["content", "refusal"] {
            if let Some(text) = delta[field].as_str() {
                self.text.push_str(text);
                self.refused |= field == "refusal" && !text.is_empty();
            }
        }
        for (position, fragment) in delta["tool_calls"].as_array().into_iter().flatten().enumerate() {
            let index = fragment["index"].as_u64().unwrap_or(position as u64);
            let id = fragment["id"].as_str().filter(|id| !id.is_empty());
            let name = fragment["function"]["name"].as_str().filter(|n| !n.is_empty());
            // Some servers (Ollama) give every parallel call index 0: a new id, or a new name
            // after complete arguments, starts a new call rather than extending the last.
            let current = self.slots.get(&index).map(|slot| &self.calls[*slot]);
            let starts_new = match current {
                None => true,
                Some(call) => {
                    id.is_some_and(|id| call.id.as_deref().is_some_and(|known| known != id))
                        || (name.is_some()
                            && !call.name.is_empty()
                            && serde_json::from_str::<Value>(&call.arguments).is_ok())
                }
            };
            if starts_new {
                self.slots.insert(index, self.calls.len());
                self.calls.push(PartialCall::default());
            }
            let call = &mut self.calls[self.slots[&index]];
            if let Some(id) = id {
                call.id = Some(id.to_owned());
            }
            if let Some(name) = name {
                call.name = name.to_owned();
            }
            if let Some(arguments) = fragment["function"]["arguments"].as_str() {
                call.arguments.push_str(arguments);
            }
        }
        if let Some(reason) = choice["finish_reason"].as_str() {
            self.finish_reason = Some(reason.to_owned());
        }
        Ok(false)
    }

    fn finish(self, complete: bool) -> Result<AssistantTurn, Fault> {
        let Some(reason) = self.finish_reason else {
            let how = if complete { "without a finish_reason" } else { "before its end" };
            return Err(Fault::new(FaultClass::Retryable, format!("the answer stream ended {how}")));
        };
        let tool_calls: Vec<ToolCall> = self
            .calls
            .into_iter()
            .enumerate()
            .map(|(index, call)| {
                let (arguments, malformed) = parse_arguments(&call.arguments);
                ToolCall {
                    id: call.id.unwrap_or_else(|| format!("call_{index}")),
                    name: call.name,
                    arguments,
                    malformed,
                }
            })
            .collect();
        let stop = match reason.as_str() {
            "length" => StopReason::MaxTokens,
            // Filtered midway, the calls before it are not whole: a refusal all the same.
            "content_filter" => StopReason::Refused,
            _ if !tool_calls.is_empty() => StopReason::ToolUse,
            _ if self.refused => StopReason::Refused,
            _ => StopReason::EndTurn,
        };
        let content = (!self.text.is_empty()).then_some(self.text);
        Ok(AssistantTurn { content, tool_calls, stop, usage: self.usage, ..AssistantTurn::default() })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::llm::ToolSpec;
    use crate::llm::http::StreamReader;

    fn decode(path: &str) -> Result<AssistantTurn, Fault> {
        let bytes = std::fs::read(crate::testing::specs_dir().join(path)).expect("spec stream");
        decode_bytes(&bytes)
    }

    fn decode_bytes(bytes: &[u8]) -> Result<AssistantTurn, Fault> {
        let mut reader = StreamReader::<ChunkAssembler>::default();
        reader.feed(bytes)?;
        reader.finish()
    }

    #[test]
    fn a_refusal_ends_the_turn_as_refused_with_what_the_model_said() {
        let recorded =
            std::fs::read_to_string(crate::testing::specs_dir().join("openai/examples/chat.stream.text.recorded.sse"))
                .unwrap();
        // The same stream with the text in `refusal` deltas, as a model that declines sends it.
        let declined = recorded.replace(r#""delta":{"content":"#, r#""delta":{"refusal":"#);
        assert_ne!(declined, recorded);
        let turn = decode_bytes(declined.as_bytes()).unwrap();
        assert_eq!(turn.stop, StopReason::Refused);
        assert!(turn.content.as_deref().is_some_and(|text| text.starts_with("I'm unable")), "{turn:?}");
        assert_eq!(decode_bytes(recorded.as_bytes()).unwrap().stop, StopReason::EndTurn);
    }

    #[test]
    fn calls_a_content_filter_stopped_are_a_refusal() {
        let recorded = std::fs::read_to_string(
            crate::testing::specs_dir().join("openai/examples/chat.stream.single-tool-call.recorded.sse"),
        )
        .unwrap();
        let filtered = recorded.replace(r#""finish_reason":"tool_calls""#, r#""finish_reason":"content_filter""#);
        assert_ne!(filtered, recorded);
        assert_eq!(decode_bytes(filtered.as_bytes()).unwrap().stop, StopReason::Refused);
        assert_eq!(decode_bytes(recorded.as_bytes()).unwrap().stop, StopReason::ToolUse);
    }

    #[test]
    fn recorded_text_stream() {
        let turn = decode("openai/examples/chat.stream.text.recorded.sse").unwrap();
        assert_eq!(turn.stop, StopReason::EndTurn);
        assert!(turn.tool_calls.is_empty());
        assert!(!turn.content.unwrap().is_empty());
        assert!(turn.usage.unwrap().output_tokens > 0);
    }

    #[test]
    fn recorded_single_tool_call_assembled_from_fragments() {
        let turn = decode("openai/examples/chat.stream.single-tool-call.recorded.sse").unwrap();
        assert_eq!(turn.stop, StopReason::ToolUse);
        assert_eq!(turn.tool_calls.len(), 1);
        let call = &turn.tool_calls[0];
        assert!(call.id.starts_with("call_"), "{call:?}");
        assert!(call.malformed.is_none(), "{call:?}");
        assert!(call.arguments.is_object());
    }

    #[test]
    fn recorded_parallel_tool_calls_keep_their_order_and_arguments() {
        let turn = decode("openai/examples/chat.stream.parallel-tool-calls.recorded.sse").unwrap();
        let names: Vec<&str> = turn.tool_calls.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["GetWeatherArgs", "get_stock_price"]);
        assert_eq!(turn.tool_calls[0].arguments, json!({"city": "Edinburgh", "country": "GB", "units": "c"}));
        assert_eq!(turn.tool_calls[0].id, "call_JMW1whyEaYG438VE1OIflxA2");
        assert_eq!(turn.usage, Some(Usage { input_tokens: 149, output_tokens: 60 }));
    }

    #[test]
    fn parallel_calls_that_all_say_index_0_stay_separate() {
        // As Ollama's compatible endpoint streams two parallel calls.
        let chunk = |call: Value| {
            let delta = json!({"choices": [{"index": 0, "delta": {"tool_calls": [call]}, "finish_reason": null}]});
            format!("data: {delta}\n\n")
        };
        let stream = [
            chunk(json!({"index": 0, "id": "call_a", "type": "function", "function": {"name": "read_file", "arguments": "{\"path\":"}})),
            chunk(json!({"index": 0, "function": {"arguments": "\"a.rs\"}"}})),
            chunk(json!({"index": 0, "id": "call_b", "type": "function", "function": {"name": "read_file", "arguments": "{\"path\":\"b.rs\"}"}})),
            // Without ids: a new name after complete arguments is a new call too.
            chunk(json!({"index": 0, "function": {"name": "list_files", "arguments": "{}"}})),
            "data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"tool_calls\"}]}\n\ndata: [DONE]\n\n".to_owned(),
        ]
        .concat();
        let turn = decode_bytes(stream.as_bytes()).unwrap();
        let calls: Vec<(&str, String)> =
            turn.tool_calls.iter().map(|c| (c.name.as_str(), c.arguments.to_string())).collect();
        assert_eq!(
            calls,
            [
                ("read_file", r#"{"path":"a.rs"}"#.to_owned()),
                ("read_file", r#"{"path":"b.rs"}"#.to_owned()),
                ("list_files", "{}".to_owned())
            ]
        );
        assert!(turn.tool_calls.iter().all(|c| c.malformed.is_none()));
    }

    #[test]
    fn recorded_finish_length_is_max_tokens() {
        let turn = decode("openai/examples/chat.stream.finish-length.recorded.sse").unwrap();
        assert_eq!(turn.stop, StopReason::MaxTokens);
        assert_eq!(turn.content.as_deref(), Some("{\""));
    }

    #[test]
    fn a_stream_cut_before_its_end_is_retryable() {
        let full = std::fs::read(
            crate::testing::specs_dir().join("openai/examples/chat.stream.single-tool-call.recorded.sse"),
        )
        .unwrap();
        let between_events = full[..full.len() / 2].windows(2).rposition(|w| w == b"\n\n").unwrap() + 2;
        let fault = decode_bytes(&full[..between_events]).unwrap_err();
        assert_eq!(fault.class, FaultClass::Retryable);
        assert!(fault.message.contains("before its end"), "{fault:?}");
        let mid_line = decode_bytes(&full[..full.len() / 2]).unwrap_err();
        assert_eq!(mid_line.class, FaultClass::Retryable, "{mid_line:?}");
    }

    #[test]
    fn errors_inside_the_stream() {
        let ollama = b"data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"a\"}}]}\n\n{\"error\":{\"message\":\"model crashed\",\"type\":\"api_error\"}}\n";
        let fault = decode_bytes(ollama).unwrap_err();
        assert!(fault.message.contains("model crashed"), "{fault:?}");
        let chunk = b"data: {\"error\":{\"message\":\"Invalid request\",\"type\":\"invalid_request_error\"}}\n\n";
        assert_eq!(decode_bytes(chunk).unwrap_err().class, FaultClass::BadRequest);
        let garbage = b"data: {not json\n\n";
        assert!(decode_bytes(garbage).unwrap_err().message.contains("not JSON"));
    }

    #[test]
    fn truncated_arguments_are_kept_raw_and_marked() {
        let stream = concat!(
            "data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"c1\",\"type\":\"function\",\"function\":{\"name\":\"write_file\",\"arguments\":\"{\\\"path\\\": \\\"a\"}}]}}]}\n\n",
            "data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"length\"}]}\n\n",
            "data: [DONE]\n\n"
        );
        let turn = decode_bytes(stream.as_bytes()).unwrap();
        assert_eq!(turn.stop, StopReason::MaxTokens);
        let call = &turn.tool_calls[0];
        assert_eq!(call.arguments, json!("{\"path\": \"a"));
        assert!(call.malformed.as_deref().unwrap().contains("EOF"), "{call:?}");
    }

    #[test]
    fn request_bodies_carry_history_tools_and_the_limit() {
        let turn = AssistantTurn {
            content: None,
            tool_calls: vec![ToolCall {
                id: "c1".into(),
                name: "read_file".into(),
                arguments: json!({"path": "a"}),
                malformed: None,
            }],
            stop: StopReason::ToolUse,
            ..AssistantTurn::default()
        };
        let messages = [
            Message::System("rules".into()),
            Message::User("issue".into()),
            Message::Assistant(turn),
            Message::ToolResult {
                call_id: "c1".into(),
                name: "read_file".into(),
                content: "text".into(),
                is_error: false,
            },
        ];
        let tools = [ToolSpec { name: "read_file", description: "Read.", parameters: json!({"type": "object"}) }];
        let body = request_body(
            "gpt-4o",
            ChatRequest { messages: &messages, tools: &tools },
            1000,
            LimitField::MaxCompletionTokens,
        );
        assert_eq!(body["max_completion_tokens"], 1000);
        assert_eq!(body["stream_options"]["include_usage"], true);
        assert_eq!(body["messages"][2]["tool_calls"][0]["function"]["arguments"], "{\"path\":\"a\"}");
        assert!(body["messages"][2].get("content").is_none(), "no null content");
        assert_eq!(body["messages"][3], json!({"role": "tool", "tool_call_id": "c1", "content": "text"}));
        assert_eq!(body["tools"][0]["function"]["name"], "read_file");
        let bare = request_body("m", ChatRequest { messages: &messages[..2], tools: &[] }, 5, LimitField::MaxTokens);
        assert!(bare.get("tools").is_none());
        assert_eq!(bare["max_tokens"], 5);

        // Arguments that did not parse go back as an empty object, which every server reads.
        let broken = AssistantTurn {
            tool_calls: vec![ToolCall {
                id: "c2".into(),
                name: "read_file".into(),
                arguments: Value::String("{\"path\": \"a".into()),
                malformed: Some("EOF".into()),
            }],
            ..AssistantTurn::default()
        };
        let body = request_body(
            "m",
            ChatRequest { messages: &[Message::Assistant(broken)], tools: &[] },
            5,
            LimitField::MaxTokens,
        );
        assert_eq!(body["messages"][0]["tool_calls"][0]["function"]["arguments"], "{}");
    }
}
