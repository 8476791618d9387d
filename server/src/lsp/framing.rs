//! JSON-RPC over stdio: `Content-Length` framing and message classification, tolerant of
//! malformed input. A bad frame or body yields an error to answer, never the end of the
//! session: one corrupt message must not take the editor's server down.

use serde_json::Value;
use tokio::io::{AsyncBufRead, AsyncBufReadExt, AsyncReadExt};
use tower_lsp::jsonrpc::{Error, Id, Request, Response};

/// Largest message body accepted.
pub const MAX_BODY: usize = 64 * 1024 * 1024;
/// Longest header line accepted.
const MAX_HEADER_LINE: u64 = 8 * 1024;

/// One framed unit read from the client.
#[derive(Debug, PartialEq, Eq)]
pub enum Frame {
    /// A message body.
    Body(Vec<u8>),
    /// Input that is not a well-formed frame, and why.
    Malformed(String),
}

/// What a header line says.
#[derive(Debug, PartialEq, Eq)]
pub enum Header {
    /// `Content-Length: N`.
    Length(usize),
    /// `Content-Length` with a value that is not a length.
    BadLength(String),
    /// Any other `Name: value` header (e.g. `Content-Type`).
    Other,
    /// Not a header at all.
    Garbage,
}

/// Reads one header line.
pub fn parse_header(line: &str) -> Header {
    let Some((name, value)) = line.split_once(':') else {
        return Header::Garbage;
    };
    if name.is_empty() || !name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-') {
        return Header::Garbage;
    }
    if !name.eq_ignore_ascii_case("content-length") {
        return Header::Other;
    }
    match value.trim().parse::<usize>() {
        Ok(length) => Header::Length(length),
        Err(_) => Header::BadLength(value.trim().to_owned()),
    }
}

/// Reads the next frame; `None` at the end of the input.
pub async fn read_frame<R: AsyncBufRead + Unpin>(reader: &mut R) -> std::io::Result<Option<Frame>> {
    let mut length: Option<Header> = None;
    let mut problem: Option<String> = None;
    let mut started = false;
    loop {
        let Some(line) = read_line(reader).await? else {
            return Ok(None);
        };
        let text = String::from_utf8_lossy(&line);
        let text = text.trim_end_matches(['\r', '\n']);
        if text.is_empty() {
            if started {
                break;
            }
            continue;
        }
        started = true;
        match parse_header(text) {
            Header::Other => {}
            Header::Garbage => match length_after_garbage(text) {
                Some(header) => {
                    tracing::warn!("passed over {} bytes of input that were no message", text.len());
                    problem = None;
                    length = Some(header);
                }
                None => {
                    problem.get_or_insert_with(|| format!("`{}` is not a header", shorten(text)));
                }
            },
            header => {
                if length.is_none() {
                    // Lines before a frame's first header are the rest of a body that had no
                    // length to be passed over by, already answered as malformed: this frame
                    // is read.
                    problem = None;
                }
                length = Some(header);
            }
        }
    }
    let length = match (length, problem) {
        // The body a length was given for is passed over, so the next frame is read whole.
        (Some(Header::Length(length)), Some(problem)) => {
            pass_over(reader, length).await?;
            return Ok(Some(Frame::Malformed(problem)));
        }
        (_, Some(problem)) => return Ok(Some(Frame::Malformed(problem))),
        (None, None) => return Ok(Some(Frame::Malformed("missing Content-Length header".into()))),
        (Some(Header::BadLength(value)), None) => {
            return Ok(Some(Frame::Malformed(format!("Content-Length `{}` is not a number", shorten(&value)))));
        }
        (Some(Header::Length(length)), None) => length,
        (Some(_), None) => unreachable!("only lengths are kept"),
    };
    if length > MAX_BODY {
        pass_over(reader, length).await?;
        return Ok(Some(Frame::Malformed(format!("a {length}-byte message exceeds the {MAX_BODY}-byte limit"))));
    }
    let mut body = vec![0; length];
    match reader.read_exact(&mut body).await {
        Ok(_) => Ok(Some(Frame::Body(body))),
        Err(error) if error.kind() == std::io::ErrorKind::UnexpectedEof => Ok(None),
        Err(error) => Err(error),
    }
}

/// Reads one line up to its `\n`, however long, holding only its first `MAX_HEADER_LINE` bytes
/// and its last `LINE_TAIL`; `None` at the end of the input.
async fn read_line<R: AsyncBufRead + Unpin>(reader: &mut R) -> std::io::Result<Option<Vec<u8>>> {
    const LINE_TAIL: usize = 64;
    let mut head = Vec::new();
    let mut tail: Vec<u8> = Vec::new();
    loop {
        let mut chunk = Vec::new();
        let read = (&mut *reader).take(MAX_HEADER_LINE).read_until(b'\n', &mut chunk).await?;
        if read == 0 {
            break;
        }
        let ends = chunk.ends_with(b"\n");
        if head.is_empty() {
            head = chunk;
        } else {
            tail.extend(chunk);
            tail.drain(..tail.len().saturating_sub(LINE_TAIL));
        }
        if ends {
            break;
        }
    }
    if head.is_empty() {
        return Ok(None);
    }
    head.extend(tail);
    Ok(Some(head))
}

/// The header at the end of a line that starts with something else: a body sent without a
/// usable length has no line end of its own, so the next frame's `Content-Length` follows it
/// on the same line. Reading resumes there rather than losing every later frame.
fn length_after_garbage(line: &str) -> Option<Header> {
    let at = line.to_ascii_lowercase().rfind("content-length:")?;
    match parse_header(&line[at..]) {
        header @ (Header::Length(_) | Header::BadLength(_)) if at > 0 => Some(header),
        _ => None,
    }
}

/// Reads past a body of `length` bytes that is not taken, without holding it.
async fn pass_over<R: AsyncBufRead + Unpin>(reader: &mut R, length: usize) -> std::io::Result<()> {
    tokio::io::copy(&mut reader.take(length as u64), &mut tokio::io::sink()).await.map(drop)
}

fn shorten(text: &str) -> String {
    let cut: String = text.chars().take(40).collect();
    if cut.len() < text.len() { format!("{cut}...") } else { cut }
}

/// A message from the client.
#[derive(Debug)]
pub enum Incoming {
    /// A request or notification.
    Request(Request),
    /// A response to a request the server sent.
    Response(Response),
}

/// Classifies a body; on failure, the error response to send back.
pub fn decode(body: &[u8]) -> Result<Incoming, Response> {
    let value: Value = serde_json::from_slice(body).map_err(|error| {
        let mut parse_error = Error::parse_error();
        parse_error.message = format!("Parse error: {error}").into();
        Response::from_error(Id::Null, parse_error)
    })?;
    let Some(object) = value.as_object() else {
        let mut error = Error::invalid_request();
        if value.is_array() {
            error.message =
                "Invalid request: batches are not supported; send each message in a frame of its own".into();
        }
        return Err(Response::from_error(Id::Null, error));
    };
    let id = object.get("id").and_then(|id| serde_json::from_value::<Id>(id.clone()).ok()).unwrap_or(Id::Null);
    let invalid = |message: &str| {
        let mut error = Error::invalid_request();
        error.message = message.to_owned().into();
        Response::from_error(id.clone(), error)
    };
    if object.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
        return Err(invalid("Invalid request: `jsonrpc` must be \"2.0\""));
    }
    match object.get("method") {
        Some(Value::String(_)) => serde_json::from_value(value.clone())
            .map(Incoming::Request)
            .map_err(|error| invalid(&format!("Invalid request: {error}"))),
        Some(_) => Err(invalid("Invalid request: `method` must be a string")),
        None if object.contains_key("result") || object.contains_key("error") => serde_json::from_value(value.clone())
            .map(Incoming::Response)
            .map_err(|error| invalid(&format!("Invalid response: {error}"))),
        None => Err(invalid("Invalid request: no `method`, and not a response")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn frames(input: &[u8]) -> Vec<Frame> {
        let mut reader = tokio::io::BufReader::new(input);
        let mut out = Vec::new();
        while let Some(frame) = read_frame(&mut reader).await.unwrap() {
            out.push(frame);
        }
        out
    }

    #[tokio::test]
    async fn well_formed_frames_are_read_in_order() {
        let input = b"Content-Length: 2\r\n\r\n{}Content-Type: application/vscode-jsonrpc; charset=utf-8\r\ncontent-length: 4\r\n\r\n[1,]";
        assert_eq!(frames(input).await, [Frame::Body(b"{}".to_vec()), Frame::Body(b"[1,]".to_vec())]);
    }

    #[tokio::test]
    async fn malformed_headers_are_reported_and_reading_goes_on() {
        let input = b"Content-Length: x\r\n\r\nGARBAGE\r\n\r\nContent-Type: a\r\n\r\nContent-Length: 2\r\n\r\n{}";
        let got = frames(input).await;
        assert!(matches!(&got[0], Frame::Malformed(m) if m.contains("`x` is not a number")), "{got:?}");
        assert!(matches!(&got[1], Frame::Malformed(m) if m.contains("`GARBAGE` is not a header")), "{got:?}");
        assert!(matches!(&got[2], Frame::Malformed(m) if m.contains("missing Content-Length")), "{got:?}");
        assert_eq!(got[3], Frame::Body(b"{}".to_vec()));
    }

    #[tokio::test]
    async fn a_bad_header_beside_a_length_skips_its_body_and_the_next_frame_is_read() {
        let input = b"Content-Length: 2\r\nX Bad: 1\r\n\r\n{}Content-Length: 2\r\n\r\n[]";
        let got = frames(input).await;
        assert!(matches!(&got[0], Frame::Malformed(m) if m.contains("`X Bad: 1` is not a header")), "{got:?}");
        assert_eq!(got[1..], [Frame::Body(b"[]".to_vec())]);
    }

    #[tokio::test]
    async fn a_body_with_no_usable_length_loses_no_later_frame() {
        let body = br#"{"jsonrpc":"2.0","id":1,"method":"shutdown"}"#;
        let next = b"Content-Length: 2\r\n\r\n{}";
        for header in ["Content-Length: x\r\n\r\n", "Content-Lenght: 44\r\n\r\n", "\r\n"] {
            let mut input = header.as_bytes().to_vec();
            input.extend(body);
            input.extend(next);
            input.extend(b"Content-Length: 2\r\n\r\n[]");
            let got = frames(&input).await;
            let later = [Frame::Body(b"{}".to_vec()), Frame::Body(b"[]".to_vec())];
            assert!(got.ends_with(&later), "{header:?}: {got:?}");
            assert!(got[..got.len() - 2].iter().all(|f| matches!(f, Frame::Malformed(_))), "{got:?}");
        }
        // A pretty-printed body ends in a line end of its own; a body longer than a header line
        // is read in pieces, the next frame's header at the end of the last.
        let mut long = b"Content-Length: x\r\n\r\n{\n  \"a\": 1\n}\n".to_vec();
        long.extend(b"Content-Length: x\r\n\r\n");
        long.extend(b"{\"text\":\"");
        long.extend(vec![b'a'; 3 * MAX_HEADER_LINE as usize + 5]);
        long.extend(b"\"}");
        long.extend(next);
        let got = frames(&long).await;
        assert_eq!(got.last(), Some(&Frame::Body(b"{}".to_vec())), "{got:?}");
        assert_eq!(got.len(), 3, "{got:?}");
    }

    #[tokio::test]
    async fn oversized_bodies_are_skipped_and_a_truncated_one_ends_input() {
        let mut input = format!("Content-Length: {}\r\n\r\n", MAX_BODY + 1).into_bytes();
        input.extend(vec![b' '; MAX_BODY + 1]);
        input.extend(b"Content-Length: 2\r\n\r\n{}Content-Length: 10\r\n\r\n{\"a\"");
        let got = frames(&input).await;
        assert!(matches!(&got[0], Frame::Malformed(m) if m.contains("exceeds")));
        assert_eq!(got[1], Frame::Body(b"{}".to_vec()));
        assert_eq!(got.len(), 2);
    }

    #[test]
    fn header_lines() {
        assert_eq!(parse_header("Content-Length: 12"), Header::Length(12));
        assert_eq!(parse_header("CONTENT-LENGTH:7"), Header::Length(7));
        assert_eq!(parse_header("Content-Length: -1"), Header::BadLength("-1".into()));
        assert_eq!(parse_header("Content-Type: x"), Header::Other);
        assert_eq!(parse_header("{\"jsonrpc\": 1}"), Header::Garbage);
        assert_eq!(parse_header(": x"), Header::Garbage);
    }

    fn error_of(body: &str) -> (Id, i64, String) {
        let response = decode(body.as_bytes()).unwrap_err();
        let (id, result) = response.into_parts();
        let error = result.unwrap_err();
        (id, error.code.code(), error.message.into_owned())
    }

    #[test]
    fn bodies_are_classified() {
        let request = decode(br#"{"jsonrpc":"2.0","id":1,"method":"shutdown"}"#).unwrap();
        assert!(matches!(request, Incoming::Request(r) if r.method() == "shutdown"));
        let response = decode(br#"{"jsonrpc":"2.0","id":3,"result":{"applied":true}}"#).unwrap();
        assert!(matches!(response, Incoming::Response(_)));
        let notification = decode(br#"{"jsonrpc":"2.0","method":"exit"}"#).unwrap();
        assert!(matches!(notification, Incoming::Request(r) if r.id().is_none()));
    }

    #[test]
    fn bad_bodies_get_the_right_error_and_keep_the_id() {
        let (_, code, message) = error_of("{oops");
        assert_eq!(code, -32700);
        assert!(message.contains("line 1 column 2"), "where it broke: {message}");
        let (_, code, message) = error_of(r#"[{"jsonrpc":"2.0","id":1,"method":"shutdown"}]"#);
        assert_eq!(code, -32600);
        assert!(message.contains("batches are not supported"), "{message}");
        assert_eq!(error_of("\"just a string\"").1, -32600);
        let (id, code, message) = error_of(r#"{"jsonrpc":"2.0","id":7,"method":3}"#);
        assert_eq!((id, code), (Id::Number(7), -32600));
        assert!(message.contains("`method` must be a string"));
        assert!(error_of(r#"{"jsonrpc":"1.0","id":1,"method":"x"}"#).2.contains("\"2.0\""));
        assert!(error_of(r#"{"jsonrpc":"2.0","id":"a"}"#).2.contains("not a response"));
    }
}

#[cfg(test)]
mod robustness {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// Arbitrary input never makes the reader panic, and every frame it reports is bounded.
        #[test]
        fn any_input_is_framed_without_panicking(input in proptest::collection::vec(any::<u8>(), 0..512)) {
            let runtime = tokio::runtime::Builder::new_current_thread().build().unwrap();
            runtime.block_on(async {
                let mut reader = tokio::io::BufReader::new(input.as_slice());
                while let Ok(Some(frame)) = read_frame(&mut reader).await {
                    if let Frame::Body(body) = frame {
                        let _ = decode(&body);
                    }
                }
            });
        }

        /// Arbitrary bodies decode to a message or an error answer, never a panic.
        #[test]
        fn any_body_is_decoded_without_panicking(body in "(\\PC|[{}\\[\\]\":,])*") {
            let _ = decode(body.as_bytes());
        }
    }
}
