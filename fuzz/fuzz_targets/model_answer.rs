//! A model's answer in the text tool protocol (JSON in prose, fenced or cut off), or a native
//! answer's text that may hold calls: read into calls, a summary or an error for the model,
//! never a panic.
#![no_main]

use issuewright::llm::ToolSpec;
use issuewright::llm::text_protocol::{calls_written_as_text, parse_answer};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let _ = parse_answer(&text);
    let tools = [ToolSpec { name: "read_file", description: "", parameters: serde_json::json!({}) }];
    let _ = calls_written_as_text(&text, &tools);
});
