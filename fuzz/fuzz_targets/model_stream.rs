//! A model's streamed answer (server-sent events), arriving in pieces of any size. The first
//! byte picks the format and the piece size.
#![no_main]

use issuewright::llm::fuzzing::{StreamFormat, read_stream};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&choice, body)) = data.split_first() else { return };
    let format = if choice & 1 == 0 { StreamFormat::OpenAi } else { StreamFormat::Anthropic };
    let size = usize::from(choice >> 1).max(1);
    let pieces: Vec<&[u8]> = body.chunks(size).collect();
    read_stream(format, &pieces);
});
