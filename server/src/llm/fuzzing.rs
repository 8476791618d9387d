//! Entry points for the fuzz targets in `fuzz/`: the readers of a streamed answer, fed
//! arbitrary bytes in arbitrary pieces. Built only with the `fuzzing` feature.

use super::anthropic::MessageAssembler;
use super::http::Decoder;
use super::openai::ChunkAssembler;
use super::sse::SseParser;

/// Whose stream format to read.
#[derive(Debug, Clone, Copy)]
pub enum StreamFormat {
    /// OpenAI-compatible chat completion chunks (OpenAI, Ollama, gateways).
    OpenAi,
    /// Anthropic Messages events.
    Anthropic,
}

/// Reads `pieces` as one response body of `format` arriving piece by piece, as a run reads
/// it, until the stream ends or an event is refused. True when a whole answer came out.
pub fn read_stream(format: StreamFormat, pieces: &[&[u8]]) -> bool {
    match format {
        StreamFormat::OpenAi => read::<ChunkAssembler>(pieces),
        StreamFormat::Anthropic => read::<MessageAssembler>(pieces),
    }
}

fn read<D: Decoder>(pieces: &[&[u8]]) -> bool {
    let mut parser = SseParser::default();
    let mut decoder = D::default();
    let mut complete = false;
    for piece in pieces {
        for item in parser.feed(piece) {
            match decoder.item(item) {
                Ok(done) => complete |= done,
                Err(_) => return false,
            }
        }
    }
    for item in parser.finish() {
        match decoder.item(item) {
            Ok(done) => complete |= done,
            Err(_) => return false,
        }
    }
    decoder.finish(complete).is_ok()
}
