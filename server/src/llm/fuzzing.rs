//! Entry points for the fuzz targets in `fuzz/`: the readers of a streamed answer, fed
//! arbitrary bytes in arbitrary pieces. Built only with the `fuzzing` feature.

use super::anthropic::MessageAssembler;
use super::http::{Decoder, StreamReader};
use super::openai::ChunkAssembler;

/// Whose stream format to read.
#[derive(Debug, Clone, Copy)]
pub enum StreamFormat {
    /// OpenAI-compatible chat completion chunks (OpenAI, Ollama, gateways).
    OpenAi,
    /// Anthropic Messages events.
    Anthropic,
}

/// Reads `pieces` as one response body of `format` arriving piece by piece, the way a run
/// reads it. True when a whole answer came out.
pub fn read_stream(format: StreamFormat, pieces: &[&[u8]]) -> bool {
    match format {
        StreamFormat::OpenAi => read::<ChunkAssembler>(pieces),
        StreamFormat::Anthropic => read::<MessageAssembler>(pieces),
    }
}

fn read<D: Decoder>(pieces: &[&[u8]]) -> bool {
    let mut reader = StreamReader::<D>::default();
    for piece in pieces {
        match reader.feed(piece) {
            Ok(true) => break,
            Ok(false) => {}
            Err(_) => return false,
        }
    }
    reader.finish().is_ok()
}
