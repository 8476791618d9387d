//! Event streams in the shapes the providers send (as in their recorded streams), built
//! from a turn: some text and some tool calls, arguments split across many fragments.

use serde_json::{Value, json};

/// What a model says in one turn.
#[derive(Debug, Clone, Default)]
pub struct Turn {
    /// Text before the tool calls.
    pub text: Option<String>,
    /// Tool calls: name and arguments.
    pub calls: Vec<(String, Value)>,
    /// Prompt and answer tokens to report.
    pub usage: (u64, u64),
}

impl Turn {
    /// A turn from a replay line (`{"content", "tool_calls": [{"name", "arguments"}]}`).
    pub fn from_replay(line: &Value) -> Self {
        let calls = line["tool_calls"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|call| (call["name"].as_str().unwrap().to_owned(), call["arguments"].clone()))
            .collect();
        Self { text: line["content"].as_str().map(str::to_owned), calls, usage: (1000, 100) }
    }

    /// The turns of a replay file.
    pub fn all_from_replay(text: &str) -> Vec<Self> {
        text.lines()
            .filter(|l| !l.trim().is_empty())
            .map(|l| Self::from_replay(&serde_json::from_str(l).unwrap()))
            .collect()
    }

    /// A turn with only text.
    pub fn text(text: &str) -> Self {
        Self { text: Some(text.to_owned()), calls: vec![], usage: (500, 50) }
    }
}

/// Splits text into pieces of at most `size` characters.
fn pieces(text: &str, size: usize) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    chars.chunks(size).map(|c| c.iter().collect()).collect()
}

fn sse(data: &Value) -> String {
    format!("data: {data}\n\n")
}

/// A Chat Completions stream; `finish` overrides the finish reason.
pub fn openai(turn: &Turn, finish: Option<&str>) -> Vec<u8> {
    let chunk = |delta: Value, finish: Value| {
        json!({
            "id": "chatcmpl-fake", "object": "chat.completion.chunk", "created": 1727346178,
            "model": "gpt-4o-2024-08-06", "system_fingerprint": "fp_fake",
            "choices": [{"index": 0, "delta": delta, "logprobs": null, "finish_reason": finish}]
        })
    };
    let mut out = sse(&chunk(json!({"role": "assistant", "content": null}), Value::Null));
    if let Some(text) = &turn.text {
        for piece in pieces(text, 9) {
            out += &sse(&chunk(json!({"content": piece}), Value::Null));
        }
    }
    for (index, (name, arguments)) in turn.calls.iter().enumerate() {
        let first = json!({"tool_calls": [{"index": index, "id": format!("call_fake{index}"), "type": "function", "function": {"name": name, "arguments": ""}}]});
        out += &sse(&chunk(first, Value::Null));
        for piece in pieces(&arguments.to_string(), 7) {
            out +=
                &sse(&chunk(json!({"tool_calls": [{"index": index, "function": {"arguments": piece}}]}), Value::Null));
        }
    }
    let reason = finish.unwrap_or(if turn.calls.is_empty() { "stop" } else { "tool_calls" });
    out += &sse(&chunk(json!({}), json!(reason)));
    let usage = json!({"prompt_tokens": turn.usage.0, "completion_tokens": turn.usage.1, "total_tokens": turn.usage.0 + turn.usage.1});
    let mut last = chunk(json!({}), Value::Null);
    last["choices"] = json!([]);
    last["usage"] = usage;
    out += &sse(&last);
    out += "data: [DONE]\n\n";
    out.into_bytes()
}

/// A Messages stream; `stop` overrides the stop reason.
pub fn anthropic(turn: &Turn, stop: Option<&str>) -> Vec<u8> {
    let event = |name: &str, data: Value| format!("event: {name}\ndata: {data}\n\n");
    let mut out = event(
        "message_start",
        json!({"type": "message_start", "message": {
            "id": "msg_fake", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5",
            "content": [], "stop_reason": null, "stop_sequence": null,
            "usage": {"input_tokens": turn.usage.0, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0, "output_tokens": 1}
        }}),
    );
    let mut index = 0;
    if let Some(text) = &turn.text {
        out += &event(
            "content_block_start",
            json!({"type": "content_block_start", "index": index, "content_block": {"type": "text", "text": ""}}),
        );
        out += &event("ping", json!({"type": "ping"}));
        for piece in pieces(text, 9) {
            out += &event(
                "content_block_delta",
                json!({"type": "content_block_delta", "index": index, "delta": {"type": "text_delta", "text": piece}}),
            );
        }
        out += &event("content_block_stop", json!({"type": "content_block_stop", "index": index}));
        index += 1;
    }
    for (offset, (name, arguments)) in turn.calls.iter().enumerate() {
        let id = format!("toolu_fake{offset}");
        out += &event(
            "content_block_start",
            json!({"type": "content_block_start", "index": index, "content_block": {"type": "tool_use", "id": id, "name": name, "input": {}}}),
        );
        out += &event(
            "content_block_delta",
            json!({"type": "content_block_delta", "index": index, "delta": {"type": "input_json_delta", "partial_json": ""}}),
        );
        for piece in pieces(&arguments.to_string(), 7) {
            out += &event(
                "content_block_delta",
                json!({"type": "content_block_delta", "index": index, "delta": {"type": "input_json_delta", "partial_json": piece}}),
            );
        }
        out += &event("content_block_stop", json!({"type": "content_block_stop", "index": index}));
        index += 1;
    }
    let reason = stop.unwrap_or(if turn.calls.is_empty() { "end_turn" } else { "tool_use" });
    out += &event(
        "message_delta",
        json!({"type": "message_delta", "delta": {"stop_reason": reason, "stop_sequence": null}, "usage": {"output_tokens": turn.usage.1}}),
    );
    out += &event("message_stop", json!({"type": "message_stop"}));
    out.into_bytes()
}

/// An Ollama `/api/chat` stream, one JSON object a line as its documented examples are: the
/// text in pieces, the tool calls whole in one line, then the `done` line with the counts;
/// `done_reason` overrides its reason.
pub fn ollama(turn: &Turn, done_reason: Option<&str>) -> Vec<u8> {
    let line = |message: Value, done: bool| json!({"model": "qwen2.5-coder:7b", "created_at": "2025-07-07T20:22:19.184789Z", "message": message, "done": done});
    let mut out = String::new();
    if let Some(text) = &turn.text {
        for piece in pieces(text, 9) {
            out += &format!("{}\n", line(json!({"role": "assistant", "content": piece}), false));
        }
    }
    if !turn.calls.is_empty() {
        let calls: Vec<Value> = turn
            .calls
            .iter()
            .map(|(name, arguments)| json!({"function": {"name": name, "arguments": arguments}}))
            .collect();
        out += &format!("{}\n", line(json!({"role": "assistant", "content": "", "tool_calls": calls}), false));
    }
    let mut last = line(json!({"role": "assistant", "content": ""}), true);
    last["done_reason"] = json!(done_reason.unwrap_or("stop"));
    last["total_duration"] = json!(182242375);
    last["prompt_eval_count"] = json!(turn.usage.0);
    last["eval_count"] = json!(turn.usage.1);
    out += &format!("{last}\n");
    out.into_bytes()
}
