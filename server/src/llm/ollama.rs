//! Ollama's own chat API, `/api/chat`, streamed as one JSON object a line. Unlike its
//! OpenAI-compatible `/v1`, it takes the context length with each request
//! (`options.num_ctx`): the prompt a run plans for is the prompt the model reads, not one
//! cut to the server's default window without a word.

use serde_json::{Value, json};

use super::fault::{Fault, FaultClass, classify_stream_error};
use super::http::{Decoder, Endpoint, Transport};
use super::sse::SseItem;
use super::{AssistantTurn, ChatModel, ChatRequest, LlmError, Message, StopReason, ToolCall, Usage};

/// The most context a run asks a local model to hold: the memory of its cache grows with
/// it (a model that could read 128k tokens would take many gigabytes to).
pub const MAX_LOCAL_CONTEXT: u32 = 32_768;

/// An `/api/chat` client.
pub struct OllamaChat {
    /// Where to send requests.
    pub endpoint: Endpoint,
    /// The model name.
    pub model: String,
    /// Output limit per answer (`options.num_predict`).
    pub max_output_tokens: u32,
    /// The context the model is asked to hold (`options.num_ctx`).
    pub context_window: u32,
    /// The HTTP transport.
    pub transport: Transport,
}

#[async_trait::async_trait]
impl ChatModel for OllamaChat {
    fn describe(&self) -> String {
        format!("ollama:{} at {}", self.model, self.endpoint.shown_url())
    }

    async fn complete(&self, request: ChatRequest<'_>) -> Result<AssistantTurn, LlmError> {
        let body = request_body(&self.model, request, self.max_output_tokens, self.context_window);
        self.transport.complete::<LineAssembler>(&self.endpoint, &body).await
    }
}

/// `<server>/api/chat` for a base URL given with or without the `/v1` of the
/// OpenAI-compatible endpoint.
pub fn chat_url(base_url: &str) -> String {
    let base = base_url.trim_end_matches('/');
    format!("{}/api/chat", base.strip_suffix("/v1").unwrap_or(base))
}

/// The JSON body of a streamed `/api/chat` request.
pub fn request_body(model: &str, request: ChatRequest<'_>, max_output_tokens: u32, context_window: u32) -> Value {
    let messages: Vec<Value> = request.messages.iter().map(message).collect();
    let mut body = json!({
        "model": model,
        "messages": messages,
        "stream": true,
        "options": {"num_ctx": context_window, "num_predict": max_output_tokens},
    });
    if !request.tools.is_empty() {
        body["tools"] = super::openai::function_tools(request.tools);
    }
    body
}

fn message(message: &Message) -> Value {
    match message {
        Message::System(text) => json!({"role": "system", "content": text}),
        Message::User(text) => json!({"role": "user", "content": text}),
        Message::Assistant(turn) => {
            let mut value = json!({"role": "assistant", "content": turn.content.as_deref().unwrap_or_default()});
            if !turn.tool_calls.is_empty() {
                value["tool_calls"] = turn
                    .tool_calls
                    .iter()
                    .map(|call| {
                        // The API takes arguments as an object: ones that did not parse (the
                        // model was told so in the call's result) go back empty.
                        let arguments = if call.arguments.is_object() { call.arguments.clone() } else { json!({}) };
                        json!({"function": {"name": call.name, "arguments": arguments}})
                    })
                    .collect();
            }
            value
        }
        Message::ToolResult { name, content, .. } => json!({"role": "tool", "content": content, "tool_name": name}),
    }
}

/// Assembles a streamed `/api/chat` answer: text from each line's `message.content`, whole
/// tool calls from `message.tool_calls`, and the end from the line with `done: true`.
#[derive(Debug, Default)]
pub struct LineAssembler {
    text: String,
    calls: Vec<ToolCall>,
    done_reason: Option<String>,
    usage: Option<Usage>,
}

impl Decoder for LineAssembler {
    fn item(&mut self, item: SseItem) -> Result<bool, Fault> {
        let line = match item {
            SseItem::Stray(line) => line,
            SseItem::Event(_) => {
                return Err(Fault::new(
                    FaultClass::BadRequest,
                    "the server answered with server-sent events, not Ollama's lines of JSON: is provider.base_url \
                     an Ollama server? For another OpenAI-compatible server, set provider.kind = \"openai\"",
                ));
            }
        };
        let chunk: Value = serde_json::from_str(&line).map_err(|error| {
            Fault::new(FaultClass::Retryable, format!("a line of the answer is not JSON ({error}): {line}"))
        })?;
        if chunk.get("error").is_some_and(|error| !error.is_null()) {
            return Err(classify_stream_error(&line));
        }
        let message = &chunk["message"];
        if let Some(text) = message["content"].as_str() {
            self.text.push_str(text);
        }
        for call in message["tool_calls"].as_array().into_iter().flatten() {
            let function = &call["function"];
            let (arguments, unparsed) = match &function["arguments"] {
                Value::Null => (json!({}), None),
                // Some models' templates hand the arguments over as a JSON string.
                Value::String(raw) => super::parse_arguments(raw),
                other => (other.clone(), None),
            };
            // The parser's words say where the JSON broke, for the model to write it again.
            let malformed =
                unparsed.or_else(|| (!arguments.is_object()).then(|| "the arguments are not a JSON object".to_owned()));
            self.calls.push(ToolCall {
                id: format!("call_{}", self.calls.len()),
                name: function["name"].as_str().unwrap_or_default().to_owned(),
                arguments,
                malformed,
            });
        }
        if chunk["done"].as_bool() != Some(true) {
            return Ok(false);
        }
        self.done_reason = Some(chunk["done_reason"].as_str().unwrap_or("stop").to_owned());
        self.usage = Some(Usage {
            input_tokens: chunk["prompt_eval_count"].as_u64().unwrap_or(0),
            output_tokens: chunk["eval_count"].as_u64().unwrap_or(0),
        });
        Ok(true)
    }

    fn finish(self, complete: bool) -> Result<AssistantTurn, Fault> {
        let Some(reason) = self.done_reason.filter(|_| complete) else {
            return Err(Fault::new(FaultClass::Retryable, "the answer ended before its last line (done: true)"));
        };
        let stop = match reason.as_str() {
            "length" => StopReason::MaxTokens,
            _ if !self.calls.is_empty() => StopReason::ToolUse,
            _ => StopReason::EndTurn,
        };
        let content = (!self.text.is_empty()).then_some(self.text);
        Ok(AssistantTurn { content, tool_calls: self.calls, stop, usage: self.usage, ..AssistantTurn::default() })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::llm::ToolSpec;
    use crate::llm::http::StreamReader;

    /// A documented example of the API: its request, and its answer as the lines it streams.
    fn example(name: &str) -> (Value, Vec<u8>) {
        let path = crate::testing::specs_dir().join("ollama/examples/api-chat.docs-examples.json");
        let examples: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        let example = &examples[name];
        let lines: Vec<&Value> = match example["response_chunks"].as_array() {
            Some(chunks) => chunks.iter().collect(),
            None => vec![&example["response"]],
        };
        let body: String = lines.iter().map(|line| format!("{line}\n")).collect();
        (example["request"].clone(), body.into_bytes())
    }

    fn decode_in_pieces(bytes: &[u8], size: usize) -> Result<AssistantTurn, Fault> {
        let mut reader = StreamReader::<LineAssembler>::default();
        for piece in bytes.chunks(size) {
            if reader.feed(piece)? {
                break;
            }
        }
        reader.finish()
    }

    #[test]
    fn the_documented_streams_are_read_in_any_pieces() {
        let (_, with_tools) = example("stream_with_tools");
        let (_, text) = example("stream_text");
        for size in [1, 7, 64, 4096] {
            let turn = decode_in_pieces(&with_tools, size).unwrap();
            assert_eq!(turn.stop, StopReason::ToolUse);
            assert_eq!(turn.tool_calls.len(), 1);
            assert_eq!(turn.tool_calls[0].name, "get_weather");
            assert_eq!(turn.tool_calls[0].arguments, json!({"city": "Tokyo"}));
            assert_eq!(turn.usage, Some(Usage { input_tokens: 169, output_tokens: 15 }));

            let turn = decode_in_pieces(&text, size).unwrap();
            assert_eq!((turn.stop, turn.content.as_deref()), (StopReason::EndTurn, Some("The")));
            assert_eq!(turn.usage, Some(Usage { input_tokens: 26, output_tokens: 282 }));
        }
        // The answer of a request sent without streaming is the one line.
        let (_, whole) = example("history_with_tool_result");
        let turn = decode_in_pieces(&whole, 4096).unwrap();
        assert_eq!(turn.content.as_deref(), Some("The current temperature in Toronto is 11°C."));
    }

    #[test]
    fn parallel_calls_cut_answers_and_errors() {
        let calls = concat!(
            r#"{"message":{"role":"assistant","content":"","tool_calls":[{"function":{"name":"read_file","arguments":{"path":"a.rs"}}},{"function":{"name":"grep","arguments":"{\"pattern\": \"fn \"}"}}]},"done":false}"#,
            "\n",
            r#"{"message":{"role":"assistant","content":""},"done":true,"done_reason":"stop","prompt_eval_count":9,"eval_count":3}"#,
            "\n"
        );
        let turn = decode_in_pieces(calls.as_bytes(), 5).unwrap();
        let names: Vec<(&str, &str)> = turn.tool_calls.iter().map(|c| (c.name.as_str(), c.id.as_str())).collect();
        assert_eq!(names, [("read_file", "call_0"), ("grep", "call_1")]);
        assert_eq!(turn.tool_calls[1].arguments, json!({"pattern": "fn "}), "arguments sent as a string are read");
        let broken = concat!(
            r#"{"message":{"role":"assistant","content":"","tool_calls":[{"function":{"name":"grep","arguments":"{\"pattern\": \"fn }"}}]},"done":true,"done_reason":"stop"}"#,
            "\n"
        );
        let turn = decode_in_pieces(broken.as_bytes(), 7).unwrap();
        let malformed = turn.tool_calls[0].malformed.as_deref().unwrap();
        assert!(malformed.contains("EOF while parsing") && malformed.contains("column"), "where it broke: {malformed}");

        let long = r#"{"message":{"role":"assistant","content":"half"},"done":true,"done_reason":"length"}"#;
        assert_eq!(decode_in_pieces(long.as_bytes(), 3).unwrap().stop, StopReason::MaxTokens, "no line end needed");

        let cut = r#"{"message":{"role":"assistant","content":"The"},"done":false}"#.to_owned() + "\n";
        let fault = decode_in_pieces(cut.as_bytes(), 8).unwrap_err();
        assert_eq!(fault.class, FaultClass::Retryable);
        assert!(fault.message.contains("done: true"), "{}", fault.message);

        let path = crate::testing::specs_dir().join("ollama/examples/errors.json");
        let errors: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        let midstream: String = errors["native_midstream_error_ndjson"]
            .as_array()
            .unwrap()
            .iter()
            .map(|l| format!("{}\n", l.as_str().unwrap()))
            .collect();
        let fault = decode_in_pieces(midstream.as_bytes(), 11).unwrap_err();
        assert!(fault.message.contains("an error was encountered while running the model"), "{}", fault.message);

        let not_json = "{\"message\": oops}\n";
        assert!(decode_in_pieces(not_json.as_bytes(), 4).unwrap_err().message.contains("not JSON"));
        let sse = "data: {\"choices\": []}\n\n";
        let fault = decode_in_pieces(sse.as_bytes(), 4).unwrap_err();
        assert_eq!(fault.class, FaultClass::BadRequest);
        assert!(fault.message.contains("provider.kind = \"openai\""), "{}", fault.message);
        let nothing = decode_in_pieces(b"", 4).unwrap_err();
        assert_eq!(nothing.class, FaultClass::Retryable);
    }

    #[test]
    fn requests_take_the_documented_shape_with_the_context_length() {
        let (documented, _) = example("history_with_tool_result");
        let tool = ToolSpec {
            name: "get_weather",
            description: "Get the weather in a given city",
            parameters: documented["tools"][0]["function"]["parameters"].clone(),
        };
        let turn = AssistantTurn {
            tool_calls: vec![ToolCall {
                id: "call_0".into(),
                name: "get_weather".into(),
                arguments: json!({"city": "Toronto"}),
                malformed: None,
            }],
            stop: StopReason::ToolUse,
            ..AssistantTurn::default()
        };
        let messages = [
            Message::User("what is the weather in Toronto?".into()),
            Message::Assistant(turn),
            Message::ToolResult {
                call_id: "call_0".into(),
                name: "get_weather".into(),
                content: "11 degrees celsius".into(),
                is_error: false,
            },
        ];
        let body = request_body("llama3.2", ChatRequest { messages: &messages, tools: &[tool] }, 8192, 32_768);
        assert_eq!(body["messages"], documented["messages"]);
        assert_eq!(body["tools"], documented["tools"]);
        assert_eq!(body["options"], json!({"num_ctx": 32_768, "num_predict": 8192}));
        assert_eq!(body["stream"], true);

        // Arguments that did not parse go back as an object all the same.
        let broken = AssistantTurn {
            tool_calls: vec![ToolCall {
                id: "call_0".into(),
                name: "read_file".into(),
                arguments: Value::String("{\"path\": \"a".into()),
                malformed: Some("EOF".into()),
            }],
            ..AssistantTurn::default()
        };
        let body = request_body("m", ChatRequest { messages: &[Message::Assistant(broken)], tools: &[] }, 1, 2);
        assert_eq!(body["messages"][0]["tool_calls"][0]["function"]["arguments"], json!({}));
        assert!(body.get("tools").is_none());
    }

    #[test]
    fn the_chat_url_is_the_servers_with_or_without_v1() {
        for base in [
            "http://127.0.0.1:11434",
            "http://127.0.0.1:11434/",
            "http://127.0.0.1:11434/v1",
            "http://127.0.0.1:11434/v1/",
        ] {
            assert_eq!(chat_url(base), "http://127.0.0.1:11434/api/chat", "{base}");
        }
        assert_eq!(chat_url("https://gpu.example/ollama"), "https://gpu.example/ollama/api/chat");
    }
}
