//! Entry points for the fuzz targets in `fuzz/` (and the property tests): the readers of a
//! streamed answer, fed arbitrary bytes in arbitrary pieces. Built with the `fuzzing` feature.

use super::anthropic::MessageAssembler;
use super::http::{Decoder, StreamReader};
use super::ollama::LineAssembler;
use super::openai::ChunkAssembler;

/// Whose stream format to read.
#[derive(Debug, Clone, Copy)]
pub enum StreamFormat {
    /// OpenAI-compatible chat completion chunks (OpenAI, gateways, local servers).
    OpenAi,
    /// Anthropic Messages events.
    Anthropic,
    /// Ollama's `/api/chat` lines of JSON.
    Ollama,
}

/// Reads `pieces` as one response body of `format` arriving piece by piece, the way a run
/// reads it, to the answer or the first refused event.
pub fn read_stream<P: AsRef<[u8]>>(format: StreamFormat, pieces: &[P]) {
    match format {
        StreamFormat::OpenAi => read::<ChunkAssembler, P>(pieces),
        StreamFormat::Anthropic => read::<MessageAssembler, P>(pieces),
        StreamFormat::Ollama => read::<LineAssembler, P>(pieces),
    }
}

fn read<D: Decoder, P: AsRef<[u8]>>(pieces: &[P]) {
    let mut reader = StreamReader::<D>::default();
    for piece in pieces {
        match reader.feed(piece.as_ref()) {
            Ok(true) => break,
            Ok(false) => {}
            Err(_) => return,
        }
    }
    let _ = reader.finish();
}
