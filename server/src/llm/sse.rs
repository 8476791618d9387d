//! Server-sent events, parsed incrementally from the bytes of a streaming response.

/// One dispatched event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SseEvent {
    /// The `event:` name, if any.
    pub event: Option<String>,
    /// The `data:` lines joined with `\n`.
    pub data: String,
}

/// What a stream yields.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SseItem {
    /// An event.
    Event(SseEvent),
    /// A line that is not SSE at all (some servers write a bare JSON error into a stream).
    Stray(String),
}

/// The longest line a stream may send (a model's answer arrives in many small events).
pub const MAX_LINE_BYTES: usize = 16 * 1024 * 1024;

/// An incremental SSE parser: feed it bytes as they arrive.
#[derive(Debug, Default)]
pub struct SseParser {
    pending: Vec<u8>,
    /// How much of `pending` holds no line end (it is not searched again).
    scanned: usize,
    event: Option<String>,
    data: Vec<String>,
}

impl SseParser {
    /// Consumes `bytes` and returns the items completed by them. Linear in the bytes: each is
    /// looked at once, and what was consumed is dropped once per call.
    pub fn feed(&mut self, bytes: &[u8]) -> Vec<SseItem> {
        let resume = self.scanned;
        self.pending.extend_from_slice(bytes);
        let mut items = Vec::new();
        let mut start = 0;
        let mut at = resume;
        while let Some(offset) = self.pending[at..].iter().position(|b| *b == b'\n' || *b == b'\r') {
            let end = at + offset;
            let carriage_return = self.pending[end] == b'\r';
            // A `\r` at the very end may be the first half of `\r\n`: wait for more bytes.
            if carriage_return && end + 1 == self.pending.len() {
                break;
            }
            let terminator = if carriage_return && self.pending[end + 1] == b'\n' { 2 } else { 1 };
            let line = String::from_utf8_lossy(&self.pending[start..end]).into_owned();
            start = end + terminator;
            at = start;
            self.line(&line, &mut items);
        }
        self.pending.drain(..start);
        // All but a last byte that may be a `\r` waiting for its `\n` holds no line end.
        self.scanned = self.pending.len().saturating_sub(1);
        if self.pending.len() > MAX_LINE_BYTES {
            self.pending.clear();
            self.scanned = 0;
            items.push(SseItem::Stray(format!("a line of over {MAX_LINE_BYTES} bytes: this is not an event stream")));
        }
        items
    }

    /// Ends the stream: a final event without its blank line is still dispatched.
    pub fn finish(&mut self) -> Vec<SseItem> {
        let mut items = Vec::new();
        let rest = std::mem::take(&mut self.pending);
        self.scanned = 0;
        let rest = String::from_utf8_lossy(&rest);
        let rest = rest.trim_end_matches('\r');
        if !rest.is_empty() {
            self.line(rest, &mut items);
        }
        self.dispatch(&mut items);
        items
    }

    fn line(&mut self, line: &str, items: &mut Vec<SseItem>) {
        if line.is_empty() {
            self.dispatch(items);
            return;
        }
        if line.starts_with(':') {
            return;
        }
        let (field, value) = match line.split_once(':') {
            Some((field, value)) => (field, value.strip_prefix(' ').unwrap_or(value)),
            None => (line, ""),
        };
        match field {
            "data" => self.data.push(value.to_owned()),
            "event" => self.event = Some(value.to_owned()),
            "id" | "retry" => {}
            _ if line.trim_start().starts_with('{') => items.push(SseItem::Stray(line.to_owned())),
            _ => {}
        }
    }

    fn dispatch(&mut self, items: &mut Vec<SseItem>) {
        if self.data.is_empty() {
            self.event = None;
            return;
        }
        let data = std::mem::take(&mut self.data).join("\n");
        items.push(SseItem::Event(SseEvent { event: self.event.take(), data }));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn events(chunks: &[&[u8]]) -> Vec<SseItem> {
        let mut parser = SseParser::default();
        let mut items: Vec<SseItem> = chunks.iter().flat_map(|chunk| parser.feed(chunk)).collect();
        items.extend(parser.finish());
        items
    }

    fn data(items: &[SseItem]) -> Vec<String> {
        items
            .iter()
            .map(|item| match item {
                SseItem::Event(event) => event.data.clone(),
                SseItem::Stray(line) => format!("STRAY {line}"),
            })
            .collect()
    }

    #[test]
    fn a_response_that_never_ends_a_line_is_not_kept_whole() {
        let mut parser = SseParser::default();
        let mut items = Vec::new();
        let block = vec![b'x'; 1 << 20];
        for _ in 0..17 {
            items.extend(parser.feed(&block));
        }
        assert!(matches!(items.as_slice(), [SseItem::Stray(text)] if text.contains("not an event stream")));
        assert!(parser.pending.len() < MAX_LINE_BYTES);
        // And it goes on reading events after that.
        assert_eq!(
            parser.feed(b"\ndata: ok\n\n").last(),
            Some(&SseItem::Event(SseEvent { event: None, data: "ok".into() }))
        );
    }

    #[test]
    fn events_split_across_chunks_anywhere() {
        let stream = b"event: message_start\ndata: {\"a\":1}\n\n: comment\ndata: [DONE]\n\n";
        for split in 0..stream.len() {
            let items = events(&[&stream[..split], &stream[split..]]);
            assert_eq!(data(&items), ["{\"a\":1}", "[DONE]"], "split at {split}");
            assert!(matches!(&items[0], SseItem::Event(e) if e.event.as_deref() == Some("message_start")));
        }
    }

    #[test]
    fn crlf_and_cr_line_endings() {
        assert_eq!(data(&events(&[b"data: x\r\n\r\ndata: y\r\rdata:z\n\n"])), ["x", "y", "z"]);
        assert_eq!(data(&events(&[b"data: x\r", b"\n\r\n"])), ["x"]);
    }

    #[test]
    fn multi_line_data_and_a_last_event_without_blank_line() {
        assert_eq!(data(&events(&[b"data: a\ndata: b\n\ndata: tail"])), ["a\nb", "tail"]);
    }

    #[test]
    fn bare_json_lines_are_stray() {
        let items = events(&[b"data: {\"x\":1}\n\n{\"error\":{\"message\":\"boom\"}}\n"]);
        assert_eq!(data(&items), ["{\"x\":1}", "STRAY {\"error\":{\"message\":\"boom\"}}"]);
    }

    #[test]
    fn recorded_streams_parse_into_their_events() {
        let dir = crate::testing::specs_dir();
        let openai = std::fs::read(dir.join("openai/examples/chat.stream.text.recorded.sse")).unwrap();
        let items = events(&[&openai]);
        assert!(matches!(items.last(), Some(SseItem::Event(e)) if e.data == "[DONE]"));
        let anthropic = std::fs::read(dir.join("anthropic/examples/stream.tool-use.sdk-fixture.sse")).unwrap();
        let names: Vec<String> = events(&[&anthropic])
            .into_iter()
            .filter_map(|item| match item {
                SseItem::Event(e) => e.event,
                SseItem::Stray(_) => None,
            })
            .collect();
        assert_eq!(names.first().map(String::as_str), Some("message_start"));
        assert_eq!(names.last().map(String::as_str), Some("message_stop"));
    }
}

#[cfg(test)]
mod robustness {
    use super::super::anthropic::MessageAssembler;
    use super::super::fuzzing::{StreamFormat, read_stream};
    use super::super::http::StreamReader;
    use proptest::prelude::*;

    /// Reads `chunks` as a run reads a body, in every format.
    fn feed<P: AsRef<[u8]>>(chunks: &[P]) {
        read_stream(StreamFormat::OpenAi, chunks);
        read_stream(StreamFormat::Anthropic, chunks);
        read_stream(StreamFormat::Ollama, chunks);
    }

    #[test]
    fn the_reader_stops_at_the_end_of_the_answer() {
        let dir = crate::testing::specs_dir();
        let mut body = std::fs::read(dir.join("anthropic/examples/stream.text.docs.sse")).unwrap();
        body.push(b'\n'); // the recording ends before the last event's blank line
        let whole = body.len();
        body.extend_from_slice(b"{\"type\":\"error\"} and whatever else a proxy appends\n\n");
        let mut reader = StreamReader::<MessageAssembler>::default();
        let pieces: Vec<&[u8]> = body.chunks(7).collect();
        let mut read = 0;
        for piece in pieces {
            read += piece.len();
            if reader.feed(piece).unwrap() {
                break;
            }
        }
        assert!(read <= whole + 7, "stopped at message_stop, {read} of {} bytes read", body.len());
        let turn = reader.finish().unwrap();
        assert!(turn.content.as_deref().is_some_and(|text| !text.is_empty()), "{turn:?}");

        // What follows the end in the same read is not read either.
        let mut at_once = StreamReader::<MessageAssembler>::default();
        assert!(at_once.feed(&body).unwrap(), "the whole body in one read is complete");
        assert_eq!(at_once.finish().unwrap(), turn);

        let mut cut = StreamReader::<MessageAssembler>::default();
        assert!(!cut.feed(&body[..whole / 2]).unwrap(), "half an answer is not complete");
        assert!(cut.finish().is_err(), "a body that ends early is an error, not half an answer");
    }

    proptest! {
        /// Arbitrary bytes, in arbitrary chunks, never make the stream readers panic.
        #[test]
        fn any_stream_is_read_without_panicking(chunks in proptest::collection::vec(proptest::collection::vec(any::<u8>(), 0..64), 0..12)) {
            feed(&chunks);
        }

        /// Well-formed events with arbitrary JSON payloads never make them panic either.
        #[test]
        fn any_json_events_are_read_without_panicking(
            payloads in proptest::collection::vec("\\{(\"(type|choices|delta|index|usage|tool_calls|content_block|message|error)\": ?(1|\"x\"|null|\\[\\]|\\{\\}|\\[\\{\\}\\]),? ?){0,4}\\}", 0..8),
            names in proptest::collection::vec("(message_start|content_block_start|content_block_delta|message_delta|message_stop|error|ping)", 0..8),
        ) {
            let text: String = payloads
                .iter()
                .zip(names.iter().chain(std::iter::repeat(&String::new())))
                .map(|(data, name)| if name.is_empty() { format!("data: {data}\n\n") } else { format!("event: {name}\ndata: {data}\n\n") })
                .collect();
            feed(&[text.into_bytes()]);
        }
    }
}
