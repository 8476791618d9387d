//! A model's answer in the text tool protocol (JSON in prose, fenced or cut off): read into
//! calls, a summary or an error for the model, never a panic.
#![no_main]

use issuewright::llm::text_protocol::parse_answer;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = parse_answer(&String::from_utf8_lossy(data));
});
