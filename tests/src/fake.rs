//! Fake model providers: small HTTP/1.1 servers on 127.0.0.1 that record each request,
//! check its body against the official schema, and answer from a script of replies
//! (statuses with error bodies, or event streams that may be cut mid-way or stall).

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::specs::RequestSchema;

/// One scripted answer.
#[derive(Debug, Clone)]
pub enum Reply {
    /// A status with headers and a body (an error, usually).
    Status {
        /// The status code.
        status: u16,
        /// Extra headers, e.g. `retry-after`.
        headers: Vec<(String, String)>,
        /// The body.
        body: String,
    },
    /// `200 OK` with a chunked event stream.
    Stream {
        /// The chunks, written one by one.
        chunks: Vec<Vec<u8>>,
        /// Pause before each chunk.
        pause: Duration,
        /// Close the connection after this many chunks, without ending the stream.
        cut_after: Option<usize>,
        /// The `content-type` it is sent as.
        content_type: &'static str,
    },
}

impl Reply {
    /// An error status with a JSON body.
    pub fn status(status: u16, body: &Value) -> Self {
        Self::Status {
            status,
            headers: vec![("content-type".into(), "application/json".into())],
            body: body.to_string(),
        }
    }

    /// An event stream from its text, written in chunks of at most `size` bytes.
    pub fn stream(text: &[u8], size: usize) -> Self {
        Self::Stream {
            chunks: text.chunks(size.max(1)).map(<[u8]>::to_vec).collect(),
            pause: Duration::ZERO,
            cut_after: None,
            content_type: EVENT_STREAM,
        }
    }
}

/// The `content-type` of a server-sent event stream.
pub const EVENT_STREAM: &str = "text/event-stream";

/// A request as the fake received it.
#[derive(Debug, Clone)]
pub struct Received {
    /// Method and path, e.g. `POST /v1/chat/completions`.
    pub line: String,
    /// Headers, names lowercased.
    pub headers: Vec<(String, String)>,
    /// The body as JSON (`Null` if it was not JSON).
    pub body: Value,
    /// The body's raw text.
    pub raw: String,
    /// When it arrived.
    pub at: Instant,
}

impl Received {
    /// A header's value.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }
}

#[derive(Default)]
struct State {
    replies: VecDeque<Reply>,
    received: Vec<Received>,
    violations: Vec<String>,
}

/// A running fake provider.
pub struct FakeProvider {
    port: u16,
    state: Arc<Mutex<State>>,
}

impl FakeProvider {
    /// Starts a fake that checks request bodies against `schema`.
    pub fn start(schema: RequestSchema) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind a loopback port");
        let port = listener.local_addr().unwrap().port();
        let state = Arc::new(Mutex::new(State::default()));
        let shared = state.clone();
        let schema = Arc::new(schema);
        std::thread::spawn(move || {
            for connection in listener.incoming().flatten() {
                let state = shared.clone();
                let schema = schema.clone();
                std::thread::spawn(move || serve(connection, &state, &schema));
            }
        });
        Self { port, state }
    }

    /// `http://127.0.0.1:PORT`.
    pub fn url(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    /// Queues replies, answered in order.
    pub fn push(&self, replies: impl IntoIterator<Item = Reply>) {
        self.state.lock().unwrap().replies.extend(replies);
    }

    /// The requests received so far.
    pub fn received(&self) -> Vec<Received> {
        self.state.lock().unwrap().received.clone()
    }

    /// Schema violations found in the requests (each prefixed by the request's number).
    pub fn violations(&self) -> Vec<String> {
        self.state.lock().unwrap().violations.clone()
    }
}

fn serve(mut connection: TcpStream, state: &Mutex<State>, schema: &RequestSchema) {
    let Some(received) = read_request(&connection) else { return };
    let reply = {
        let mut state = state.lock().unwrap();
        let number = state.received.len() + 1;
        let found: Vec<String> =
            schema.violations(&received.body).into_iter().map(|v| format!("request {number}: {v}")).collect();
        state.violations.extend(found);
        state.received.push(received);
        state.replies.pop_front()
    };
    let reply = reply.unwrap_or_else(|| Reply::Status {
        status: 500,
        headers: vec![],
        body: "{\"error\":{\"message\":\"the fake has no scripted reply left\"}}".into(),
    });
    let _ = write_reply(&mut connection, reply);
    let _ = connection.shutdown(Shutdown::Both);
}

fn read_request(connection: &TcpStream) -> Option<Received> {
    let mut reader = BufReader::new(connection.try_clone().ok()?);
    let mut line = String::new();
    reader.read_line(&mut line).ok()?;
    let mut headers = Vec::new();
    loop {
        let mut header = String::new();
        reader.read_line(&mut header).ok()?;
        let header = header.trim_end();
        if header.is_empty() {
            break;
        }
        let (name, value) = header.split_once(':')?;
        headers.push((name.trim().to_ascii_lowercase(), value.trim().to_owned()));
    }
    let length: usize =
        headers.iter().find(|(n, _)| n == "content-length").and_then(|(_, v)| v.parse().ok()).unwrap_or(0);
    let mut body = vec![0; length];
    reader.read_exact(&mut body).ok()?;
    let raw = String::from_utf8_lossy(&body).into_owned();
    Some(Received {
        line: line.trim_end().rsplit_once(' ').map_or(line.trim_end(), |(l, _)| l).to_owned(),
        headers,
        body: serde_json::from_str(&raw).unwrap_or(Value::Null),
        raw,
        at: Instant::now(),
    })
}

fn write_reply(connection: &mut TcpStream, reply: Reply) -> std::io::Result<()> {
    match reply {
        Reply::Status { status, headers, body } => {
            let mut head =
                format!("HTTP/1.1 {status} Scripted\r\ncontent-length: {}\r\nconnection: close\r\n", body.len());
            for (name, value) in headers {
                head.push_str(&format!("{name}: {value}\r\n"));
            }
            head.push_str("\r\n");
            connection.write_all(head.as_bytes())?;
            connection.write_all(body.as_bytes())
        }
        Reply::Stream { chunks, pause, cut_after, content_type } => {
            connection.write_all(
                format!(
                    "HTTP/1.1 200 OK\r\ncontent-type: {content_type}\r\ntransfer-encoding: chunked\r\nconnection: \
                     close\r\n\r\n"
                )
                .as_bytes(),
            )?;
            for (index, chunk) in chunks.iter().enumerate() {
                if cut_after == Some(index) {
                    return connection.flush();
                }
                std::thread::sleep(pause);
                connection.write_all(format!("{:x}\r\n", chunk.len()).as_bytes())?;
                connection.write_all(chunk)?;
                connection.write_all(b"\r\n")?;
                connection.flush()?;
            }
            connection.write_all(b"0\r\n\r\n")
        }
    }
}
