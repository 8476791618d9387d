//! The JSON text protocol, for models or servers without native tool calling: the tools
//! are described in the system prompt and the model answers with one JSON object per turn.
//!
//! The parser is tolerant in the ways models stray: it takes the first balanced JSON
//! object from fenced or bare text, ignores prose around it, accepts the key names models
//! invent (`tool`/`name`, `args`/`arguments`/`parameters`, one call or a list), and repairs
//! an answer cut mid-object only when its brackets are unbalanced. Whatever it finds is then
//! validated against the tool schemas by the toolset, like native calls.

use std::sync::Arc;

use serde_json::{Value, json};

use super::{AssistantTurn, ChatModel, ChatRequest, LlmError, Message, StopReason, ToolCall, ToolSpec};

/// A model driven through the text protocol.
pub struct TextProtocol {
    inner: Arc<dyn ChatModel>,
}

impl TextProtocol {
    /// Wraps `inner`, which is called without tools.
    pub fn new(inner: Arc<dyn ChatModel>) -> Self {
        Self { inner }
    }
}

/// The instructions that replace native tool definitions.
pub fn tool_instructions(tools: &[ToolSpec]) -> String {
    let mut text = String::from(
        "Act only through these tools. Answer every turn with exactly one JSON object and nothing else:\n\
         {\"tool_calls\": [{\"name\": \"<tool>\", \"arguments\": {...}}]}\n\
         The calls run in order and their results come back in the next message. \
         When the work is complete, answer with:\n\
         {\"done\": \"<summary of what you changed and why>\"}\n\nTools:\n",
    );
    for tool in tools {
        text.push_str(&format!("- {}: {}\n  arguments: {}\n", tool.name, tool.description, tool.parameters));
    }
    text
}

#[async_trait::async_trait]
impl ChatModel for TextProtocol {
    fn describe(&self) -> String {
        format!("{} (text protocol)", self.inner.describe())
    }

    async fn complete(&self, request: ChatRequest<'_>) -> Result<AssistantTurn, LlmError> {
        let messages = plain_messages(request);
        let answer = self.inner.complete(ChatRequest { messages: &messages, tools: &[] }).await?;
        let text = answer.content.clone().unwrap_or_default();
        let mut turn = AssistantTurn { content: answer.content, usage: answer.usage, ..AssistantTurn::default() };
        // A refusal is what the model said, JSON or not: nothing in it is run.
        if answer.stop == StopReason::Refused {
            turn.stop = StopReason::Refused;
            return Ok(turn);
        }
        match parse_answer(&text) {
            Ok(mut parsed) => {
                turn.repairs = u32::from(parsed.repaired);
                turn.stop = if parsed.calls.is_empty() { StopReason::EndTurn } else { StopReason::ToolUse };
                // Closing the brackets of an answer cut off at the output limit makes valid
                // JSON of a call that is not whole (half a file for write_file): refused.
                if parsed.repaired
                    && answer.stop == StopReason::MaxTokens
                    && let Some(last) = parsed.calls.last_mut()
                {
                    last.malformed = Some(
                        "the answer was cut off at the output limit, so this call is incomplete; send it again in smaller parts (patch_file, or a shorter write_file)".into(),
                    );
                }
                turn.tool_calls = parsed.calls;
                match parsed.done {
                    // A final answer cut off at the output limit is not one: the model is
                    // told it was cut off, and says it again.
                    Some(_) if parsed.repaired && answer.stop == StopReason::MaxTokens => {
                        turn.stop = StopReason::MaxTokens;
                    }
                    Some(done) => turn.content = Some(done),
                    None => {}
                }
            }
            // Cut off before any JSON could be read, or paused: the driver answers those
            // stops as such, not as an answer in the wrong form.
            Err(_) if matches!(answer.stop, StopReason::MaxTokens | StopReason::Paused) => turn.stop = answer.stop,
            Err(problem) => {
                turn.stop = answer.stop;
                turn.protocol_error = Some(problem);
            }
        }
        Ok(turn)
    }
}

/// The conversation without native tool roles: tool descriptions join the system prompt,
/// results become user messages, earlier answers stay the JSON text they were.
fn plain_messages(request: ChatRequest<'_>) -> Vec<Message> {
    let mut messages = Vec::with_capacity(request.messages.len() + 1);
    let instructions = tool_instructions(request.tools);
    let mut has_system = false;
    for message in request.messages {
        messages.push(match message {
            Message::System(text) if !has_system => {
                has_system = true;
                Message::System(format!("{text}\n\n{instructions}"))
            }
            Message::Assistant(turn) => Message::Assistant(AssistantTurn {
                content: Some(turn.content.clone().unwrap_or_else(|| calls_as_json(&turn.tool_calls))),
                ..AssistantTurn::default()
            }),
            Message::ToolResult { call_id, name, content, is_error } => {
                let outcome = if *is_error { "failed" } else { "returned" };
                Message::User(format!("Tool call {call_id} ({name}) {outcome}:\n{content}"))
            }
            other => other.clone(),
        });
    }
    if !has_system {
        messages.insert(0, Message::System(instructions));
    }
    messages
}

fn calls_as_json(calls: &[ToolCall]) -> String {
    json!({"tool_calls": calls.iter().map(|c| json!({"name": c.name, "arguments": c.arguments})).collect::<Vec<_>>()})
        .to_string()
}

/// What one answer held.
#[derive(Debug, Clone, PartialEq)]
pub struct Parsed {
    /// Tool calls, in order.
    pub calls: Vec<ToolCall>,
    /// The final summary, when the answer ends the run.
    pub done: Option<String>,
    /// True when the JSON had to be completed (it was cut off).
    pub repaired: bool,
}

/// The keys an answer that ends the work gives its summary under.
const DONE_KEYS: [&str; 5] = ["done", "final", "answer", "summary", "final_answer"];

/// Reads one answer of the text protocol.
pub fn parse_answer(text: &str) -> Result<Parsed, String> {
    let (value, repaired) = first_json(text).ok_or_else(|| {
        "the answer holds no JSON object; answer with {\"tool_calls\": [...]} or {\"done\": \"...\"}".to_owned()
    })?;
    let calls = calls_of(&value)?;
    if !calls.is_empty() {
        return Ok(Parsed { calls, done: None, repaired });
    }
    let done = DONE_KEYS
        .iter()
        .find_map(|key| value.get(key))
        .map(|summary| summary.as_str().map_or_else(|| summary.to_string(), str::to_owned));
    match done {
        Some(done) => Ok(Parsed { calls, done: Some(done), repaired }),
        None => Err(format!("the JSON object has neither tool calls nor \"done\": {}", shorten(&value.to_string()))),
    }
}

/// The tool calls a model with native tool calling wrote as text instead, as small local
/// models do (`{"name": "read_file", "arguments": {..}}` in its content, or the same inside
/// `<tool_call>` tags or a fence): an answer that is that JSON, read whole (not repaired), each
/// call naming one of `tools`. A summary that opens with words, or a JSON answer naming no
/// tool, stays what it is.
/// Several calls, each in its own `<tool_call>` block or as JSON objects one after another,
/// are all read, in order; an answer with anything else between them stays text.
pub fn calls_written_as_text(text: &str, tools: &[ToolSpec]) -> Option<Vec<ToolCall>> {
    let text = text.trim();
    let parts = tagged_parts(text).or_else(|| objects_in_a_row(text)).unwrap_or_else(|| vec![text.to_owned()]);
    let mut calls = Vec::new();
    for part in &parts {
        let inner = part.trim();
        if !(inner.starts_with('{') || inner.starts_with('[') || inner.starts_with("```")) {
            return None;
        }
        let parsed = parse_answer(inner).ok().filter(|parsed| !parsed.repaired && !parsed.calls.is_empty())?;
        calls.extend(parsed.calls);
    }
    // Numbered across the answer: each block's calls were numbered from one.
    for (position, call) in calls.iter_mut().enumerate() {
        call.id = format!("call_{}", position + 1);
    }
    calls.iter().all(|call| tools.iter().any(|tool| tool.name == call.name)).then_some(calls)
}

/// The insides of the `<tool_call>...</tool_call>` blocks an answer is made of, when it is
/// nothing but those (a last one left unclosed is taken to the end).
fn tagged_parts(text: &str) -> Option<Vec<String>> {
    const OPEN: &str = "<tool_call>";
    const CLOSE: &str = "</tool_call>";
    let mut rest = text.strip_prefix(OPEN)?;
    let mut parts = Vec::new();
    loop {
        match rest.find(CLOSE) {
            Some(end) => {
                parts.push(rest[..end].to_owned());
                rest = rest[end + CLOSE.len()..].trim_start();
                if rest.is_empty() {
                    return Some(parts);
                }
                rest = rest.strip_prefix(OPEN)?;
            }
            None => {
                parts.push(rest.to_owned());
                return Some(parts);
            }
        }
    }
}

/// Two or more JSON objects one after another with only white space between, each as text.
fn objects_in_a_row(text: &str) -> Option<Vec<String>> {
    let mut stream = serde_json::Deserializer::from_str(text).into_iter::<Value>();
    let mut parts = Vec::new();
    let mut from = 0;
    while let Some(value) = stream.next() {
        let value = value.ok()?;
        if !value.is_object() {
            return None;
        }
        let end = stream.byte_offset();
        parts.push(text[from..end].to_owned());
        from = end;
    }
    (parts.len() > 1).then_some(parts)
}

fn shorten(text: &str) -> String {
    if text.chars().count() <= 200 {
        text.to_owned()
    } else {
        format!("{}...", text.chars().take(200).collect::<String>())
    }
}

/// The tool calls in a parsed value: a list of calls, an object with a list, or one call.
fn calls_of(value: &Value) -> Result<Vec<ToolCall>, String> {
    let list = match value {
        Value::Array(items) => Some(items.clone()),
        Value::Object(object) => {
            ["tool_calls", "calls", "tools", "actions"].iter().find_map(|key| object.get(*key)).map(|calls| match calls
            {
                Value::Array(items) => items.clone(),
                single => vec![single.clone()],
            })
        }
        _ => None,
    };
    let items = match list {
        Some(items) => items,
        None if name_of(value).is_some() => vec![value.clone()],
        None => return Ok(vec![]),
    };
    items
        .iter()
        .enumerate()
        .map(|(position, item)| {
            let name = name_of(item)
                .ok_or_else(|| format!("tool call {} has no \"name\": {}", position + 1, shorten(&item.to_string())))?;
            let raw = ["arguments", "args", "parameters", "input", "params"]
                .iter()
                .find_map(|key| item.get(*key).or_else(|| item.get("function").and_then(|f| f.get(*key))))
                .cloned()
                .unwrap_or_else(|| json!({}));
            let (arguments, malformed) = match raw {
                Value::String(encoded) => super::parse_arguments(&encoded),
                other => (other, None),
            };
            Ok(ToolCall { id: format!("call_{}", position + 1), name, arguments, malformed })
        })
        .collect()
}

fn name_of(value: &Value) -> Option<String> {
    ["name", "tool", "tool_name"]
        .iter()
        .find_map(|key| value.get(*key).and_then(Value::as_str))
        .or_else(|| value.get("function").and_then(|f| f.as_str().or_else(|| f.get("name").and_then(Value::as_str))))
        .map(str::to_owned)
}

/// The first JSON object (or array) in `text`: inside a code fence if there is one, else
/// anywhere. Returns the value and whether it had to be repaired. A fenced block that parses
/// only repaired (its brackets closed) gives way to a whole parse of the text: a fence may
/// close early (a ``` the model wrote oddly), and the repair would cut what it wrote.
fn first_json(text: &str) -> Option<(Value, bool)> {
    let mut repaired = None;
    for candidate in fenced_blocks(text).into_iter().chain(std::iter::once(text)) {
        match json_in(candidate) {
            Some((value, false)) => return Some((value, false)),
            Some(found) => {
                repaired.get_or_insert(found);
            }
            None => {}
        }
    }
    repaired
}

/// The contents of ``` fences, in order. A fence opens and closes at the start of a line
/// (after at most three spaces, as Markdown has it): a ``` inside a JSON string (a README's
/// code block in a `write_file`) never stands there, as a JSON string holds no line break.
fn fenced_blocks(text: &str) -> Vec<&str> {
    let mut blocks = Vec::new();
    let mut rest = text;
    while let Some(open) = fence_in(rest) {
        let after = &rest[open + 3..];
        let body_start = after.find('\n').map_or(after.len(), |n| n + 1);
        let body = &after[body_start..];
        match fence_in(body) {
            Some(close) => {
                blocks.push(&body[..close]);
                rest = &body[close + 3..];
            }
            None => {
                blocks.push(body);
                break;
            }
        }
    }
    blocks
}

/// Where the first ``` at the start of a line of `text` stands.
fn fence_in(text: &str) -> Option<usize> {
    let mut line_start = 0;
    for line in text.split_inclusive('\n') {
        let indent = line.len() - line.trim_start_matches(' ').len();
        if indent <= 3 && line[indent..].starts_with("```") {
            return Some(line_start + indent);
        }
        line_start += line.len();
    }
    None
}

/// Tries each `{` (and `[`) in turn: the first that is a whole answer (tool calls or
/// `done`) wins, balanced as it is or, where it is cut off, completed; failing that, the
/// first balanced one that parses, or the text from the first opening brace, completed. A
/// fragment inside a cut-off answer (`{}` in the code it writes) is so not taken for it.
fn json_in(text: &str) -> Option<(Value, bool)> {
    let starts: Vec<usize> = text.char_indices().filter(|(_, c)| *c == '{' || *c == '[').map(|(i, _)| i).collect();
    let mut first_parsed = None;
    for &start in &starts {
        let from = &text[start..];
        match balanced_end(from) {
            Some(end) => {
                if let Ok(value) = serde_json::from_str::<Value>(&from[..end])
                    && (value.is_object() || value.as_array().is_some_and(|a| a.iter().all(Value::is_object)))
                {
                    if is_an_answer(&value) {
                        return Some((value, false));
                    }
                    first_parsed.get_or_insert((value, false));
                }
            }
            None if from.starts_with('{') => {
                if let Ok(value) = serde_json::from_str::<Value>(&complete_truncated(from))
                    && value.is_object()
                    && is_an_answer(&value)
                {
                    return Some((value, true));
                }
            }
            None => {}
        }
    }
    if first_parsed.is_some() {
        return first_parsed;
    }
    let start = *starts.iter().find(|&&s| text[s..].starts_with('{'))?;
    if balanced_end(&text[start..]).is_some() {
        return None;
    }
    let repaired = complete_truncated(&text[start..]);
    serde_json::from_str::<Value>(&repaired).ok().filter(Value::is_object).map(|value| (value, true))
}

/// Whether `value` is what an answer is: tool calls, or the end of the work.
fn is_an_answer(value: &Value) -> bool {
    calls_of(value).is_ok_and(|calls| !calls.is_empty()) || DONE_KEYS.iter().any(|key| value.get(key).is_some())
}

/// Where a scan of JSON text is with respect to strings.
#[derive(Default)]
struct Strings {
    inside: bool,
    escaped: bool,
}

impl Strings {
    /// Takes the next character; true when it is part of a string (quotes included), so
    /// brackets in it do not count.
    fn skips(&mut self, c: char) -> bool {
        if self.inside {
            match c {
                _ if self.escaped => self.escaped = false,
                '\\' => self.escaped = true,
                '"' => self.inside = false,
                _ => {}
            }
            return true;
        }
        self.inside = c == '"';
        self.inside
    }
}

/// The length of the balanced bracket group at the start of `text`, strings respected.
fn balanced_end(text: &str) -> Option<usize> {
    let mut depth = 0usize;
    let mut strings = Strings::default();
    for (at, c) in text.char_indices() {
        if strings.skips(c) {
            continue;
        }
        match c {
            '{' | '[' => depth += 1,
            '}' | ']' => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return Some(at + 1);
                }
            }
            _ => {}
        }
    }
    None
}

/// Closes what a cut-off JSON text left open: the string, dangling separators, brackets.
fn complete_truncated(text: &str) -> String {
    let mut stack = Vec::new();
    let mut strings = Strings::default();
    for c in text.chars() {
        if strings.skips(c) {
            continue;
        }
        match c {
            '{' => stack.push('}'),
            '[' => stack.push(']'),
            '}' | ']' => {
                stack.pop();
            }
            _ => {}
        }
    }
    let mut out = text.trim_end().to_owned();
    if strings.escaped {
        out.pop();
    }
    if strings.inside {
        out.push('"');
    }
    loop {
        let trimmed_len = out.trim_end().len();
        out.truncate(trimmed_len);
        let Some(last) = out.chars().last().filter(|c| *c == ',' || *c == ':') else {
            break;
        };
        out.pop();
        if last == ':' {
            // Drop the key that has no value: `, "key":` or `{"key":`.
            let key_end = out.trim_end().len();
            out.truncate(key_end);
            if out.ends_with('"') {
                out.pop();
                if let Some(quote) = out.rfind('"') {
                    out.truncate(quote);
                }
            }
        }
    }
    while let Some(close) = stack.pop() {
        out.push(close);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The calls `text` holds as written, for a model whose one tool is `read_file`.
    fn written(text: &str) -> Option<Vec<ToolCall>> {
        let tools =
            [ToolSpec { name: "read_file", description: "Read a file.", parameters: json!({"type": "object"}) }];
        calls_written_as_text(text, &tools)
    }

    #[test]
    fn calls_written_as_text_are_read_only_where_the_answer_is_them() {
        let read = |text: &str| {
            written(text).map(|calls| calls.into_iter().map(|c| (c.name, c.arguments)).collect::<Vec<_>>())
        };
        let bare = read(r#"{"name": "read_file", "arguments": {"path": "src/main.rs"}}"#).unwrap();
        assert_eq!(bare, [call("read_file", json!({"path": "src/main.rs"}))]);
        let tagged = read("<tool_call>\n{\"name\": \"read_file\", \"arguments\": {\"path\": \"a.rs\"}}\n</tool_call>");
        assert_eq!(tagged.unwrap(), [call("read_file", json!({"path": "a.rs"}))]);
        let fenced = read("```json\n[{\"name\": \"read_file\", \"arguments\": {\"path\": \"a.rs\"}}]\n```");
        assert_eq!(fenced.unwrap(), [call("read_file", json!({"path": "a.rs"}))]);
        // A summary that quotes a call, a call of no tool there is, and a cut-off call stay text.
        assert_eq!(read(r#"Done. I called {"name": "read_file", "arguments": {"path": "a.rs"}} first."#), None);
        assert_eq!(read(r#"{"name": "format_disk", "arguments": {}}"#), None);
        assert_eq!(read(r#"{"name": "read_file", "arguments": {"path": "a.rs"#), None);
        assert_eq!(read(r#"{"done": "Fixed the bug."}"#), None);
    }

    #[test]
    fn several_calls_written_as_text_are_all_read_in_order() {
        let read = |text: &str| {
            written(text)
                .map(|calls| calls.into_iter().map(|c| (c.id, c.arguments["path"].clone())).collect::<Vec<_>>())
        };
        let a = r#"{"name": "read_file", "arguments": {"path": "a.rs"}}"#;
        let b = r#"{"name": "read_file", "arguments": {"path": "b.rs"}}"#;
        let both = vec![("call_1".to_owned(), json!("a.rs")), ("call_2".to_owned(), json!("b.rs"))];
        assert_eq!(
            read(&format!("<tool_call>\n{a}\n</tool_call>\n<tool_call>\n{b}\n</tool_call>")),
            Some(both.clone())
        );
        assert_eq!(read(&format!("{a}\n{b}")), Some(both.clone()), "objects one after another");
        assert_eq!(read(&format!("<tool_call>{a}</tool_call><tool_call>{b}")), Some(both), "the last left open");
        // Words between the calls: a summary, not calls.
        assert_eq!(read(&format!("<tool_call>{a}</tool_call> and then <tool_call>{b}</tool_call>")), None);
    }

    fn call(name: &str, arguments: Value) -> (String, Value) {
        (name.to_owned(), arguments)
    }

    fn calls(text: &str) -> Vec<(String, Value)> {
        parse_answer(text).unwrap().calls.into_iter().map(|c| (c.name, c.arguments)).collect()
    }

    #[test]
    fn the_documented_form() {
        let text = r#"{"tool_calls": [{"name": "read_file", "arguments": {"path": "src/a.rs"}}, {"name": "list_files", "arguments": {}}]}"#;
        assert_eq!(calls(text), [call("read_file", json!({"path": "src/a.rs"})), call("list_files", json!({}))]);
        let done = parse_answer(r#"{"done": "Fixed the bug."}"#).unwrap();
        assert_eq!((done.calls.len(), done.done.as_deref()), (0, Some("Fixed the bug.")));
    }

    #[test]
    fn fenced_json_with_prose_around_it() {
        let text = "I'll read the file first.\n\n```json\n{\"tool\": \"read_file\", \"args\": {\"path\": \"a.rs\"}}\n```\nThen I will patch it {maybe}.";
        assert_eq!(calls(text), [call("read_file", json!({"path": "a.rs"}))]);
    }

    #[test]
    fn a_fence_in_the_code_a_fenced_answer_writes_does_not_cut_it() {
        // A README with a code block, and a doc test, in answers fenced as JSON.
        let readme = "# Demo\n\nRun it:\n\n```sh\ncargo run\n```\n\nMore docs.\n";
        let answer =
            json!({"tool_calls": [{"name": "write_file", "arguments": {"path": "README.md", "content": readme}}]});
        let text = format!("Here is the file:\n\n```json\n{answer}\n```\n");
        assert_eq!(calls(&text), [call("write_file", json!({"path": "README.md", "content": readme}))]);
        assert!(!parse_answer(&text).unwrap().repaired, "a whole answer, not one completed");
        let doc = "/// ```\n/// assert!(demo::run());\n/// ```\npub fn run() -> bool { true }\n";
        let patch =
            json!({"tool": "patch_file", "args": {"path": "src/lib.rs", "old_text": "pub fn run", "new_text": doc}});
        let text = format!("```\n{patch:#}\n```");
        assert_eq!(
            calls(&text),
            [call("patch_file", json!({"path": "src/lib.rs", "old_text": "pub fn run", "new_text": doc}))]
        );
    }

    #[test]
    fn bare_json_with_trailing_junk() {
        let text = "Sure! {\"name\": \"mkdir\", \"parameters\": {\"path\": \"d\"}} <|im_end|> and more }";
        assert_eq!(calls(text), [call("mkdir", json!({"path": "d"}))]);
    }

    #[test]
    fn invented_aliases_and_shapes() {
        assert_eq!(calls(r#"[{"tool_name": "a", "input": {"x": 1}}]"#), [call("a", json!({"x": 1}))]);
        assert_eq!(
            calls(r#"{"function": {"name": "b", "arguments": "{\"y\": 2}"}}"#),
            [call("b", json!({"y": 2}))],
            "OpenAI-shaped, arguments as a JSON string"
        );
        assert_eq!(calls(r#"{"calls": {"name": "c"}}"#), [call("c", json!({}))]);
    }

    #[test]
    fn truncated_json_is_completed_and_counted() {
        let cut =
            r#"{"tool_calls": [{"name": "write_file", "arguments": {"path": "notes.md", "content": "line one\nline tw"#;
        let parsed = parse_answer(cut).unwrap();
        assert!(parsed.repaired);
        assert_eq!(parsed.calls[0].arguments, json!({"path": "notes.md", "content": "line one\nline tw"}));
        let dangling = parse_answer(r#"{"tool_calls": [{"name": "list_files", "arguments": {"path": "src", "#).unwrap();
        assert_eq!(dangling.calls[0].arguments, json!({"path": "src"}));
        let key_only = parse_answer(r#"{"tool_calls": [{"name": "list_files", "arguments": {"path":"#).unwrap();
        assert_eq!(key_only.calls[0].arguments, json!({}));
    }

    #[test]
    fn a_cut_answer_is_not_read_from_a_fragment_inside_it() {
        // Braces in the code being written: `{}` inside the cut content is not the answer.
        let cut = r#"{"tool_calls": [{"name": "write_file", "arguments": {"path": "a.rs", "content": "fn main() { println!(\"{}\", x); let half"#;
        let parsed = parse_answer(cut).unwrap();
        assert!(parsed.repaired);
        assert_eq!(parsed.calls.len(), 1);
        assert_eq!(parsed.calls[0].name, "write_file");
        // A whole first call is not the whole answer: the cut second call is kept, as cut.
        let two = r#"{"tool_calls": [{"name": "read_file", "arguments": {"path": "a.rs"}}, {"name": "write_file", "arguments": {"path": "b.rs", "content": "fn b() {"#;
        let parsed = parse_answer(two).unwrap();
        assert!(parsed.repaired);
        assert_eq!(parsed.calls.iter().map(|c| c.name.as_str()).collect::<Vec<_>>(), ["read_file", "write_file"]);
        // An empty object in the prose before the answer does not hide it.
        assert_eq!(
            calls(r#"The map is `{}` now. {"tool_calls": [{"name": "list_files", "arguments": {}}]}"#),
            [call("list_files", json!({}))]
        );
    }

    /// A model that always gives the same answer.
    struct Fixed(AssistantTurn);

    #[async_trait::async_trait]
    impl ChatModel for Fixed {
        fn describe(&self) -> String {
            "fixed".into()
        }
        async fn complete(&self, _: ChatRequest<'_>) -> Result<AssistantTurn, LlmError> {
            Ok(self.0.clone())
        }
    }

    #[tokio::test]
    async fn a_call_cut_off_at_the_output_limit_is_refused_not_half_written() {
        let cut =
            r#"{"tool_calls": [{"name": "write_file", "arguments": {"path": "a.rs", "content": "fn main() { let half"#;
        let answer = |stop| AssistantTurn { content: Some(cut.into()), stop, ..AssistantTurn::default() };
        let request = ChatRequest { messages: &[], tools: &[] };
        let limited =
            TextProtocol::new(Arc::new(Fixed(answer(StopReason::MaxTokens)))).complete(request).await.unwrap();
        assert_eq!(limited.tool_calls.len(), 1);
        assert!(limited.tool_calls[0].malformed.as_deref().unwrap().contains("cut off at the output limit"));
        // The same text from a model that stopped on its own: repaired, as before.
        let request = ChatRequest { messages: &[], tools: &[] };
        let ended = TextProtocol::new(Arc::new(Fixed(answer(StopReason::EndTurn)))).complete(request).await.unwrap();
        assert!(ended.tool_calls.iter().all(|c| c.malformed.is_none()));

        // Two calls, the second cut: the first runs, the second is refused.
        let two = r#"{"tool_calls": [{"name": "read_file", "arguments": {"path": "a.rs"}}, {"name": "write_file", "arguments": {"path": "b.rs", "content": "fn b() { println!(\"{}\", 1"#;
        let answer =
            AssistantTurn { content: Some(two.into()), stop: StopReason::MaxTokens, ..AssistantTurn::default() };
        let request = ChatRequest { messages: &[], tools: &[] };
        let limited = TextProtocol::new(Arc::new(Fixed(answer))).complete(request).await.unwrap();
        assert_eq!(limited.tool_calls.len(), 2);
        assert!(limited.tool_calls[0].malformed.is_none());
        assert!(limited.tool_calls[1].malformed.as_deref().unwrap().contains("cut off at the output limit"));
    }

    #[test]
    fn balanced_but_broken_json_is_not_repaired() {
        assert!(parse_answer("{'name': 'read_file'}").is_err());
        assert!(parse_answer(r#"{"name": "read_file", "arguments": {"path": "a"},}"#).is_err());
    }

    #[test]
    fn answers_without_a_usable_object_say_what_to_do() {
        let none = parse_answer("I think the bug is in parse().").unwrap_err();
        assert!(none.contains("no JSON object"), "{none}");
        let neither = parse_answer(r#"{"thoughts": "hmm"}"#).unwrap_err();
        assert!(neither.contains("neither tool calls nor \"done\""), "{neither}");
        let nameless = parse_answer(r#"{"tool_calls": [{"arguments": {}}]}"#).unwrap_err();
        assert!(nameless.contains("has no \"name\""), "{nameless}");
    }

    #[test]
    fn plain_messages_describe_tools_and_turn_results_into_user_text() {
        let tools =
            [ToolSpec { name: "read_file", description: "Read a file.", parameters: json!({"type": "object"}) }];
        let messages = [
            Message::System("rules".into()),
            Message::Assistant(AssistantTurn {
                content: Some("{\"tool_calls\": []}".into()),
                ..AssistantTurn::default()
            }),
            Message::ToolResult {
                call_id: "call_1".into(),
                name: "read_file".into(),
                content: "x".into(),
                is_error: true,
            },
        ];
        let plain = plain_messages(ChatRequest { messages: &messages, tools: &tools });
        assert!(matches!(&plain[0], Message::System(text) if text.contains("- read_file: Read a file.")));
        assert!(matches!(&plain[2], Message::User(text) if text.starts_with("Tool call call_1 (read_file) failed:")));
    }
}

#[cfg(test)]
mod robustness {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// Whatever a model writes, reading it never panics.
        #[test]
        fn any_answer_is_read_without_panicking(text in "(\\PC|[{}\\[\\]\":,`\\\\\n])*") {
            let _ = parse_answer(&text);
        }

        /// Cutting a valid answer anywhere yields the calls or a clear error, never a panic.
        #[test]
        fn any_prefix_of_a_valid_answer_is_handled(cut in 0usize..120) {
            let answer = r#"{"tool_calls": [{"name": "write_file", "arguments": {"path": "a\"b", "content": "x\\ny"}}]}"#;
            let end = cut.min(answer.len());
            if let Ok(parsed) = parse_answer(&answer[..end]) {
                prop_assert!(parsed.calls.len() <= 1);
            }
        }
    }
}
