//! HTTP to a provider: one POST with a streamed answer, retried by fault class, traced,
//! with secrets scrubbed from everything sent.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant, SystemTime};

use futures::StreamExt;
use serde_json::{Value, json};

use super::fault::{Fault, FaultClass, classify_status};
use super::redact::Redactor;
use super::retry::{RetryPolicy, parse_retry_after, rate_limit_reset};
use super::sse::{SseItem, SseParser};
use super::trace::TraceSink;
use super::{AssistantTurn, LlmError};

/// Longest stream kept in a trace entry.
const MAX_TRACED_BYTES: usize = 2 * 1024 * 1024;

/// Where one provider's requests go.
#[derive(Clone)]
pub struct Endpoint {
    /// `openai`, `anthropic` or `ollama`, for messages.
    pub provider: &'static str,
    /// The full URL to POST to.
    pub url: String,
    /// Extra headers (keys included; they are never traced).
    pub headers: Vec<(&'static str, String)>,
    /// What to tell the user when nothing listens at the URL.
    pub unreachable_hint: String,
}

impl Endpoint {
    /// The URL as it may be shown and recorded: a password in it and the values of its
    /// query (`?key=...`, as some gateways take keys) are replaced.
    pub fn shown_url(&self) -> String {
        shown_url(&self.url)
    }
}

/// `url` with its password and query values replaced by `[REDACTED]`.
pub fn shown_url(url: &str) -> String {
    let Ok(mut parsed) = reqwest::Url::parse(url) else { return url.to_owned() };
    if parsed.password().is_some() {
        let _ = parsed.set_password(Some("REDACTED"));
    }
    if parsed.query().is_some() {
        let pairs: Vec<(String, String)> =
            parsed.query_pairs().map(|(k, _)| (k.into_owned(), "REDACTED".into())).collect();
        parsed.query_pairs_mut().clear().extend_pairs(pairs);
    }
    parsed.to_string()
}

impl std::fmt::Debug for Endpoint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Headers hold keys: leave them out.
        f.debug_struct("Endpoint")
            .field("provider", &self.provider)
            .field("url", &self.shown_url())
            .finish_non_exhaustive()
    }
}

/// Turns the events of one streamed answer into a turn.
pub trait Decoder: Default + Send {
    /// Takes one item; true when the answer is complete.
    fn item(&mut self, item: SseItem) -> Result<bool, Fault>;
    /// The turn, once the stream ended (`complete`: the end marker was seen).
    fn finish(self, complete: bool) -> Result<AssistantTurn, Fault>;
}

/// Reads one streamed answer as its body arrives: server-sent events through a provider's
/// decoder, until the answer is complete or the body ends.
#[derive(Default)]
pub struct StreamReader<D> {
    parser: SseParser,
    decoder: D,
    complete: bool,
}

impl<D: Decoder> StreamReader<D> {
    /// Takes the next piece of the body; true once the answer is complete (the rest of the
    /// body, if any, is not needed).
    pub fn feed(&mut self, piece: &[u8]) -> Result<bool, Fault> {
        for item in self.parser.feed(piece) {
            if self.complete {
                break;
            }
            self.complete = self.decoder.item(item)?;
        }
        Ok(self.complete)
    }

    /// The answer, once the answer is complete or the body ended: a last event without its
    /// blank line still counts.
    pub fn finish(mut self) -> Result<AssistantTurn, Fault> {
        if !self.complete {
            for item in self.parser.finish() {
                if self.complete {
                    break;
                }
                self.complete = self.decoder.item(item)?;
            }
        }
        self.decoder.finish(self.complete)
    }
}

/// Sends requests, retries what is worth retrying, records traffic.
pub struct Transport {
    client: reqwest::Client,
    policy: RetryPolicy,
    timeout: Duration,
    redactor: Redactor,
    trace: Arc<dyn TraceSink>,
    /// Whether the server has answered a request of this run: a server on this machine that
    /// answered before and refuses a connection now is restarting (an Ollama brought up again),
    /// not one never started.
    answered: AtomicBool,
}

impl Transport {
    /// A transport with a per-request time limit.
    pub fn new(policy: RetryPolicy, timeout: Duration, redactor: Redactor, trace: Arc<dyn TraceSink>) -> Self {
        let client = reqwest::Client::builder()
            .connect_timeout(Duration::from_secs(10))
            .user_agent(concat!("issuewright/", env!("CARGO_PKG_VERSION")))
            .build()
            .expect("an HTTP client with default settings builds");
        Self { client, policy, timeout, redactor, trace, answered: AtomicBool::new(false) }
    }

    /// Posts `body` and decodes the streamed answer, retrying retryable faults.
    pub async fn complete<D: Decoder>(&self, endpoint: &Endpoint, body: &Value) -> Result<AssistantTurn, LlmError> {
        let body = self.redactor.redact_json(body).to_string();
        let mut retries = 0;
        loop {
            let started = Instant::now();
            // `timeout` bounds each wait (for the answer to start, for its next part), not the
            // whole answer: a slow local model streaming for ten minutes is fine; a silent one is not.
            let result = self.attempt::<D>(endpoint, &body).await;
            let fault = match result {
                Ok(turn) => return Ok(turn),
                Err(fault) => fault,
            };
            let retrying = fault.class == FaultClass::Retryable && retries < self.policy.max_retries;
            let delay = retrying.then(|| self.policy.delay(retries, fault.retry_after));
            self.trace.record(json!({
                "kind": "failure",
                "provider": endpoint.provider,
                "url": endpoint.shown_url(),
                "class": format!("{:?}", fault.class),
                "message": self.redactor.redact(&fault.message),
                "elapsed_ms": started.elapsed().as_millis() as u64,
                "retry_in_ms": delay.map(|d| d.as_millis() as u64),
            }));
            match delay {
                Some(delay) => {
                    tracing::warn!(provider = endpoint.provider, "{}; retrying in {delay:?}", fault.message);
                    tokio::time::sleep(delay).await;
                    retries += 1;
                }
                None => return Err(LlmError::from_fault(fault, endpoint, retries)),
            }
        }
    }

    async fn attempt<D: Decoder>(&self, endpoint: &Endpoint, body: &str) -> Result<AssistantTurn, Fault> {
        let started = Instant::now();
        self.trace.record(json!({
            "kind": "request",
            "provider": endpoint.provider,
            "url": endpoint.shown_url(),
            "body": serde_json::from_str::<Value>(body).unwrap_or_else(|_| Value::String(body.to_owned())),
        }));
        let mut request =
            self.client.post(&endpoint.url).header("content-type", "application/json").body(body.to_owned());
        for (name, value) in &endpoint.headers {
            request = request.header(*name, value);
        }
        let silent = |what: &str| {
            Fault::new(FaultClass::Retryable, format!("{what} within {}s (timeout_s)", self.timeout.as_secs()))
        };
        let response = tokio::time::timeout(self.timeout, request.send())
            .await
            .map_err(|_| silent("no answer"))?
            .map_err(|error| send_fault(error, endpoint, self.answered.load(Ordering::Relaxed)))?;
        self.answered.store(true, Ordering::Relaxed);
        let status = response.status().as_u16();
        let header = |name: &str| response.headers().get(name).and_then(|v| v.to_str().ok()).map(str::to_owned);
        if !(200..300).contains(&status) {
            let retry_after = parse_retry_after(
                header("retry-after").as_deref(),
                header("retry-after-ms").as_deref(),
                SystemTime::now(),
            )
            .or_else(|| {
                // A rate limit that gives no `retry-after` still says when it resets.
                let headers =
                    response.headers().iter().filter_map(|(name, value)| Some((name.as_str(), value.to_str().ok()?)));
                (status == 429).then(|| rate_limit_reset(headers, SystemTime::now())).flatten()
            });
            let should_retry = header("x-should-retry").map(|v| v == "true");
            let text = bounded_text(response, self.timeout).await;
            self.trace_response(endpoint, status, started, &text);
            return Err(classify_status(status, &text, retry_after, should_retry));
        }

        let content_type = header("content-type").unwrap_or_default().to_ascii_lowercase();
        let mut reader = StreamReader::<D>::default();
        let mut raw: Vec<u8> = Vec::new();
        let mut stream = response.bytes_stream();
        // Whether the answer stopped coming or its connection dropped: worth asking again,
        // whatever it was sent as.
        let mut cut = false;
        let outcome: Result<(), Fault> = async {
            while let Some(chunk) = tokio::time::timeout(self.timeout, stream.next()).await.map_err(|_| {
                cut = true;
                silent("the answer stopped coming: nothing more")
            })? {
                let chunk = chunk.map_err(|error| {
                    cut = true;
                    Fault::new(
                        FaultClass::Retryable,
                        format!("the connection dropped mid-stream: {}", source_chain(&error)),
                    )
                })?;
                if raw.len() < MAX_TRACED_BYTES {
                    raw.extend_from_slice(&chunk);
                }
                if reader.feed(&chunk)? {
                    return Ok(());
                }
            }
            Ok(())
        }
        .await;
        self.trace_response(endpoint, status, started, &String::from_utf8_lossy(&raw));
        let answered = outcome.and_then(|()| reader.finish());
        // What a stream could not be read from, sent as something other than a stream (an
        // HTML page at a wrong base URL, a whole JSON answer from a gateway that ignores
        // `stream: true`), comes again as it is: asking again would not help.
        let streamed = content_type.contains("event-stream") || content_type.contains("ndjson");
        match answered {
            Err(fault) if !cut && !content_type.is_empty() && !streamed => {
                Err(not_a_stream(endpoint, &content_type, &raw, &fault))
            }
            answered => answered,
        }
    }

    fn trace_response(&self, endpoint: &Endpoint, status: u16, started: Instant, body: &str) {
        self.trace.record(json!({
            "kind": "response",
            "provider": endpoint.provider,
            "status": status,
            "elapsed_ms": started.elapsed().as_millis() as u64,
            "body": self.redactor.redact(body),
        }));
    }
}

/// The fault of a 2xx answer of `content_type` that held no stream the decoder could read.
fn not_a_stream(endpoint: &Endpoint, content_type: &str, raw: &[u8], fault: &Fault) -> Fault {
    let start: String = String::from_utf8_lossy(raw).chars().take(200).collect();
    let start = start.split_whitespace().collect::<Vec<_>>().join(" ");
    Fault::new(
        FaultClass::BadRequest,
        format!(
            "{} answered with `{content_type}`, not a stream ({}): `{start}`; check `provider.base_url` (it should \
             lead to the provider's API) and that the server streams answers",
            endpoint.shown_url(),
            fault.message
        ),
    )
}

/// Most bytes of an error response that are read (an error page can be anything).
const MAX_ERROR_BODY: usize = 64 * 1024;

/// The start of an error response's body, read within `timeout`.
async fn bounded_text(response: reqwest::Response, timeout: Duration) -> String {
    let mut body = Vec::new();
    let mut stream = response.bytes_stream();
    while body.len() < MAX_ERROR_BODY {
        match tokio::time::timeout(timeout, stream.next()).await {
            Ok(Some(Ok(chunk))) => body.extend_from_slice(&chunk),
            _ => break,
        }
    }
    body.truncate(MAX_ERROR_BODY);
    String::from_utf8_lossy(&body).into_owned()
}

/// A failure to send: nothing listening on this machine, where nothing answered before in
/// the run (`answered_before`), is a configuration problem (Ollama not started); the rest is
/// transient (a server on this machine that answered before is restarting): a connection to a provider's host that failed (a
/// name not resolved for a moment, a handshake reset) is tried again, as the providers'
/// own clients do.
fn send_fault(error: reqwest::Error, endpoint: &Endpoint, answered_before: bool) -> Fault {
    // The client's messages quote the URL, query and all; the message names it shown safely.
    let error = error.without_url();
    let detail = source_chain(&error);
    if error.is_connect() {
        // A server on this machine that answered earlier in the run is restarting.
        let not_started = on_this_machine(&endpoint.url) && !answered_before;
        let class = if not_started { FaultClass::Unreachable } else { FaultClass::Retryable };
        return Fault::new(class, format!("cannot connect to {}: {detail}", endpoint.shown_url()));
    }
    if error.is_timeout() {
        return Fault::new(FaultClass::Retryable, format!("request to {} timed out", endpoint.shown_url()));
    }
    if error.is_builder() {
        return Fault::new(
            FaultClass::BadRequest,
            format!("cannot build a request to {}: {detail}", endpoint.shown_url()),
        );
    }
    Fault::new(FaultClass::Retryable, format!("request to {} failed: {detail}", endpoint.shown_url()))
}

/// Whether `url` leads to this machine (`localhost`, a loopback address): a server there
/// that does not answer is not started, and trying again does not start it.
fn on_this_machine(url: &str) -> bool {
    let Ok(parsed) = reqwest::Url::parse(url) else { return false };
    let Some(host) = parsed.host_str() else { return false };
    let host = host.trim_start_matches('[').trim_end_matches(']');
    if let Ok(address) = host.parse::<std::net::IpAddr>() {
        return address.is_loopback() || address.is_unspecified();
    }
    let name = host.trim_end_matches('.').to_ascii_lowercase();
    name == "localhost" || name.ends_with(".localhost")
}

/// An error with its causes, e.g. `error sending request: connection refused`.
fn source_chain(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        let cause_text = cause.to_string();
        if !text.contains(&cause_text) {
            text.push_str(": ");
            text.push_str(&cause_text);
        }
        source = cause.source();
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::llm::openai::ChunkAssembler;
    use crate::llm::redact::Redactor;
    use crate::llm::retry::RetryPolicy;
    use crate::llm::trace::NoTrace;

    #[test]
    fn urls_are_shown_without_passwords_or_query_values() {
        assert_eq!(
            shown_url("https://me:hunter2hunter2@gw.example/v1?key=abc123&api-version=1"),
            "https://me:REDACTED@gw.example/v1?key=REDACTED&api-version=REDACTED"
        );
        assert_eq!(
            shown_url("http://127.0.0.1:11434/v1/chat/completions"),
            "http://127.0.0.1:11434/v1/chat/completions"
        );
    }

    #[tokio::test]
    async fn a_failed_connection_does_not_repeat_the_password() {
        // Nothing listens on port 1.
        let endpoint = Endpoint {
            provider: "openai",
            url: "http://me:hunter2hunter2@127.0.0.1:1/v1/chat/completions?key=abc123".into(),
            headers: vec![],
            unreachable_hint: String::new(),
        };
        let policy = RetryPolicy { max_retries: 0, ..RetryPolicy::default() };
        let transport = Transport::new(policy, Duration::from_secs(5), Redactor::default(), Arc::new(NoTrace));
        let error = transport.complete::<ChunkAssembler>(&endpoint, &serde_json::json!({})).await.unwrap_err();
        let message = error.to_string();
        assert!(message.contains("127.0.0.1:1"), "{message}");
        assert!(!message.contains("hunter2") && !message.contains("abc123"), "{message}");
    }

    #[tokio::test]
    async fn a_server_on_this_machine_that_answered_and_then_refuses_is_tried_again() {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let address = listener.local_addr().unwrap();
        let endpoint = Endpoint {
            provider: "ollama",
            url: format!("http://{address}/api/chat"),
            headers: vec![],
            unreachable_hint: "Start Ollama".into(),
        };
        let policy = RetryPolicy { max_retries: 1, base: Duration::from_millis(10), ..RetryPolicy::default() };
        let transport = Transport::new(policy, Duration::from_secs(5), Redactor::default(), Arc::new(NoTrace));
        // It answers once (a request it refuses as it is), then goes away.
        let answering = tokio::spawn(async move {
            let (mut socket, _) = listener.accept().await.unwrap();
            let mut request = [0u8; 4096];
            let _ = socket.read(&mut request).await;
            let body = r#"{"error":"bad"}"#;
            let reply = format!("HTTP/1.1 400 Bad Request\r\ncontent-length: {}\r\n\r\n{body}", body.len());
            socket.write_all(reply.as_bytes()).await.unwrap();
        });
        let first = transport.complete::<ChunkAssembler>(&endpoint, &serde_json::json!({})).await.unwrap_err();
        assert!(matches!(first, crate::llm::LlmError::Rejected { .. }), "{first:?}");
        answering.await.unwrap();
        let again = transport.complete::<ChunkAssembler>(&endpoint, &serde_json::json!({})).await.unwrap_err();
        assert!(matches!(again, crate::llm::LlmError::Unavailable { attempts: 2, .. }), "retried: {again:?}");
        // A run that never reached it is told at once that it is not started.
        let fresh = Transport::new(policy, Duration::from_secs(5), Redactor::default(), Arc::new(NoTrace));
        let never = fresh.complete::<ChunkAssembler>(&endpoint, &serde_json::json!({})).await.unwrap_err();
        assert!(matches!(never, crate::llm::LlmError::Unreachable { .. }), "{never:?}");
    }

    #[test]
    fn only_a_server_on_this_machine_is_taken_as_not_started() {
        for local in
            ["http://127.0.0.1:11434/v1", "http://localhost:8080", "http://[::1]:1/v1", "http://ollama.localhost/"]
        {
            assert!(on_this_machine(local), "{local}");
        }
        for remote in ["https://api.openai.com/v1", "https://api.anthropic.com", "http://10.0.0.5:11434", "not a url"] {
            assert!(!on_this_machine(remote), "{remote}");
        }
    }

    #[tokio::test]
    async fn a_connection_to_a_providers_host_that_fails_is_tried_again() {
        // A name that never resolves (`.invalid`): a failure on the way, not a server not started.
        let endpoint = Endpoint {
            provider: "openai",
            url: "http://issuewright-test.invalid:9/v1/chat/completions".into(),
            headers: vec![],
            unreachable_hint: "Is the server running?".into(),
        };
        let policy = RetryPolicy { max_retries: 1, base: Duration::from_millis(10), ..RetryPolicy::default() };
        let transport = Transport::new(policy, Duration::from_secs(5), Redactor::default(), Arc::new(NoTrace));
        let error = transport.complete::<ChunkAssembler>(&endpoint, &serde_json::json!({})).await.unwrap_err();
        assert!(matches!(error, crate::llm::LlmError::Unavailable { attempts: 2, .. }), "{error:?}");
    }
}
