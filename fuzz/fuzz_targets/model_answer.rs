//! A model's answer in the text tool protocol (JSON in prose, fenced or cut off).
#![no_main]

use issuewright::llm::text_protocol::parse_answer;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(parsed) = parse_answer(&String::from_utf8_lossy(data)) {
        assert!(parsed.done.is_some() || !parsed.calls.is_empty(), "an answer is calls or a summary");
    }
});
