//! A model's streamed answer (server-sent events, or Ollama's lines of JSON), arriving in
//! pieces of any size. The first byte picks the format (modulo 3) and the piece size.
#![no_main]

use issuewright::llm::fuzzing::{StreamFormat, read_stream};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&choice, body)) = data.split_first() else { return };
    let format = match choice % 3 {
        0 => StreamFormat::OpenAi,
        1 => StreamFormat::Anthropic,
        _ => StreamFormat::Ollama,
    };
    let size = usize::from(choice / 3).max(1);
    let pieces: Vec<&[u8]> = body.chunks(size).collect();
    read_stream(format, &pieces);
});
