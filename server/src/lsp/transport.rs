//! The stdio transport: reads framed messages, hands them to the tower-lsp service, and
//! writes responses and server-initiated messages.
//!
//! Notifications are handled one after another in arrival order, so document changes
//! apply in the order the editor sent them; requests run concurrently. Malformed input is
//! answered with a JSON-RPC error and the session goes on, and so is a request whose handler
//! fails outright (a panic): the editor gets an internal error naming it rather than waiting
//! for an answer that never comes, and a failed notification is shown to the user. `exit`
//! ends the loop with code 0 after `shutdown`, 1 otherwise.

use std::any::Any;
use std::future::Future;
use std::panic::AssertUnwindSafe;

use futures::{FutureExt, SinkExt, StreamExt};
use serde::Serialize;
use tokio::io::{AsyncRead, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::sync::mpsc;
use tower::{Service, ServiceExt};
use tower_lsp::jsonrpc::{Error, ErrorCode, Id, Response};
use tower_lsp::{ClientSocket, LanguageServer, LspService};

use super::backend::Backend;
use super::framing::{Frame, Incoming, decode, read_frame};

/// A language server whose session the transport can end: what is left to do when the
/// editor leaves, with or without `shutdown`.
pub trait Session: LanguageServer {
    /// Ends what the session still has running.
    fn end(&self) -> impl Future<Output = ()> + Send;
}

impl Session for Backend {
    fn end(&self) -> impl Future<Output = ()> + Send {
        self.end_runs()
    }
}

/// How much of a message that is not JSON-RPC the log shows.
const LOGGED_BODY_BYTES: usize = 300;

/// Serves until `exit` or the end of input; returns the process exit code.
pub async fn serve<S: Session>(
    input: impl AsyncRead + Unpin,
    output: impl AsyncWrite + Unpin + Send + 'static,
    mut service: LspService<S>,
    socket: ClientSocket,
) -> i32 {
    let (mut server_messages, mut client_responses) = socket.split();
    let (outgoing, mut to_write) = mpsc::unbounded_channel::<Vec<u8>>();
    let writer = tokio::spawn(async move {
        let mut output = output;
        while let Some(body) = to_write.recv().await {
            let header = format!("Content-Length: {}\r\n\r\n", body.len());
            let written = async {
                output.write_all(header.as_bytes()).await?;
                output.write_all(&body).await?;
                output.flush().await
            };
            if let Err(error) = written.await {
                tracing::error!("cannot write to the client: {error}");
                break;
            }
        }
    });
    let forward = {
        let outgoing = outgoing.clone();
        tokio::spawn(async move {
            while let Some(message) = server_messages.next().await {
                send(&outgoing, &message);
            }
        })
    };

    let mut reader = BufReader::new(input);
    let mut shutdown = false;
    let mut ended = Termination::new();
    let code = loop {
        let frame = tokio::select! {
            frame = read_frame(&mut reader) => frame,
            signal = ended.signalled() => {
                // Stopped by the editor (after its shutdown wait) or the system: the runs and
                // builds still going end as they would at `exit`, not left running.
                tracing::warn!("{signal}: ending the session");
                break 1;
            }
        };
        let body = match frame {
            Ok(Some(Frame::Body(body))) => body,
            Ok(Some(Frame::Malformed(reason))) => {
                tracing::warn!("malformed message from the client: {reason}");
                let mut error = Error::parse_error();
                error.message = format!("Parse error: {reason}").into();
                send(&outgoing, &Response::from_error(Id::Null, error));
                continue;
            }
            Ok(None) => break if shutdown { 0 } else { 1 },
            Err(error) => {
                tracing::error!("cannot read from the client: {error}");
                break 1;
            }
        };
        let request = match decode(&body) {
            Ok(Incoming::Request(request)) => request,
            Ok(Incoming::Response(response)) => {
                if client_responses.send(response).await.is_err() {
                    tracing::warn!("a response arrived after the server stopped");
                }
                continue;
            }
            Err(answer) => {
                // Its start only: a document's text may follow, megabytes of it.
                let start = String::from_utf8_lossy(&body[..body.len().min(LOGGED_BODY_BYTES)]).into_owned();
                let more = if body.len() > LOGGED_BODY_BYTES {
                    format!(" ({} bytes in all)", body.len())
                } else {
                    String::new()
                };
                tracing::warn!("invalid message from the client: {start}{more}");
                send(&outgoing, &answer);
                continue;
            }
        };
        let method = request.method().to_owned();
        let id = request.id().cloned();
        shutdown |= method == "shutdown";
        let Ok(ready) = service.ready().await else {
            break if shutdown { 0 } else { 1 };
        };
        // A handler that panics fails its message alone: the session goes on.
        let pending = AssertUnwindSafe(ready.call(request)).catch_unwind();
        if method == "exit" {
            let _ = pending.await;
            break if shutdown { 0 } else { 1 };
        }
        match id {
            None => match answer_of(&method, pending.await) {
                Ok(Some(response)) => send(&outgoing, &response),
                Ok(None) => {}
                Err(failure) => send(&outgoing, &show_error(&failure)),
            },
            Some(id) => {
                let outgoing = outgoing.clone();
                tokio::spawn(async move {
                    match answer_of(&method, pending.await) {
                        Ok(Some(response)) => send(&outgoing, &response),
                        Ok(None) => {}
                        Err(failure) => {
                            let error = Error { code: ErrorCode::InternalError, message: failure.into(), data: None };
                            send(&outgoing, &Response::from_error(id, error));
                        }
                    }
                });
            }
        }
    };
    // An editor that left without `shutdown` (crashed, killed, or `exit` alone) leaves its
    // runs to be ended here, as a shutdown would.
    service.inner().end().await;
    forward.abort();
    drop(outgoing);
    // Let the writer flush what is queued; requests still running are abandoned.
    let _ = tokio::time::timeout(std::time::Duration::from_millis(500), writer).await;
    code
}

/// `SIGTERM` and `SIGHUP`, which end the session as the editor's leaving does.
struct Termination {
    terminate: Option<tokio::signal::unix::Signal>,
    hang_up: Option<tokio::signal::unix::Signal>,
}

impl Termination {
    fn new() -> Self {
        use tokio::signal::unix::{SignalKind, signal};
        Self { terminate: signal(SignalKind::terminate()).ok(), hang_up: signal(SignalKind::hangup()).ok() }
    }

    /// Waits for either signal; which one came.
    async fn signalled(&mut self) -> &'static str {
        async fn next(signal: Option<&mut tokio::signal::unix::Signal>) {
            match signal {
                Some(signal) => {
                    signal.recv().await;
                }
                None => std::future::pending().await,
            }
        }
        tokio::select! {
            () = next(self.terminate.as_mut()) => "SIGTERM",
            () = next(self.hang_up.as_mut()) => "SIGHUP",
        }
    }
}

/// What a handler of `method` answered (a response for a request, or nothing), or, where it
/// panicked, what the user is told of it, logged.
fn answer_of<E>(
    method: &str,
    handled: Result<Result<Option<Response>, E>, Box<dyn Any + Send>>,
) -> Result<Option<Response>, String> {
    match handled {
        Ok(answer) => Ok(answer.ok().flatten()),
        Err(panic) => {
            let failure = failure_of(method, panic.as_ref());
            tracing::error!("{failure}");
            Err(failure)
        }
    }
}

/// What the user is told of a handler of `method` that panicked with `panic`.
fn failure_of(method: &str, panic: &(dyn Any + Send)) -> String {
    let why = panic
        .downcast_ref::<&str>()
        .map(|why| (*why).to_owned())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "no message".to_owned());
    format!(
        "issuewright failed handling `{method}` ({why}); the server goes on, and its log has where it failed: \
         please report it"
    )
}

/// A `window/showMessage` notification of an error.
fn show_error(message: &str) -> serde_json::Value {
    serde_json::json!({
        "jsonrpc": "2.0",
        "method": "window/showMessage",
        "params": {"type": 1, "message": message},
    })
}

fn send(outgoing: &mpsc::UnboundedSender<Vec<u8>>, message: &impl Serialize) {
    match serde_json::to_vec(message) {
        Ok(body) => {
            let _ = outgoing.send(body);
        }
        Err(error) => tracing::error!("cannot serialise a message: {error}"),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};
    use tokio::io::{AsyncWriteExt, BufReader, DuplexStream, duplex};
    use tower_lsp::jsonrpc::Result;
    use tower_lsp::lsp_types::{
        DidOpenTextDocumentParams, Hover, HoverContents, HoverParams, InitializeParams, InitializeResult, MarkedString,
    };

    use super::*;

    /// A server whose hover fails outright on a document named `broken`, as does its opening.
    struct Faulty;

    #[tower_lsp::async_trait]
    impl LanguageServer for Faulty {
        async fn initialize(&self, _: InitializeParams) -> Result<InitializeResult> {
            Ok(InitializeResult::default())
        }

        async fn shutdown(&self) -> Result<()> {
            Ok(())
        }

        async fn hover(&self, params: HoverParams) -> Result<Option<Hover>> {
            let uri = params.text_document_position_params.text_document.uri;
            assert!(!uri.path().ends_with("broken"), "no hover for {uri}");
            Ok(Some(Hover { contents: HoverContents::Scalar(MarkedString::String("fine".into())), range: None }))
        }

        async fn did_open(&self, params: DidOpenTextDocumentParams) {
            assert!(!params.text_document.uri.path().ends_with("broken"), "cannot open it");
        }
    }

    impl Session for Faulty {
        async fn end(&self) {}
    }

    async fn write(input: &mut DuplexStream, message: Value) {
        let body = message.to_string();
        input.write_all(format!("Content-Length: {}\r\n\r\n{body}", body.len()).as_bytes()).await.unwrap();
    }

    async fn read(output: &mut BufReader<DuplexStream>) -> Value {
        let frame = tokio::time::timeout(std::time::Duration::from_secs(10), read_frame(output)).await;
        match frame.expect("the server answers").unwrap() {
            Some(Frame::Body(body)) => serde_json::from_slice(&body).unwrap(),
            other => panic!("not a message: {other:?}"),
        }
    }

    fn hover(id: u64, file: &str) -> Value {
        json!({"jsonrpc": "2.0", "id": id, "method": "textDocument/hover", "params": {
            "textDocument": {"uri": format!("file:///w/{file}")}, "position": {"line": 0, "character": 0}}})
    }

    #[tokio::test]
    async fn a_handler_that_panics_fails_its_message_alone() {
        let (mut input, server_input) = duplex(1 << 16);
        let (server_output, output) = duplex(1 << 16);
        let mut output = BufReader::new(output);
        let (service, socket) = LspService::new(|_| Faulty);
        let served = tokio::spawn(serve(server_input, server_output, service, socket));

        write(&mut input, json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}}))
            .await;
        assert_eq!(read(&mut output).await["id"], 1);
        write(&mut input, json!({"jsonrpc": "2.0", "method": "initialized", "params": {}})).await;

        write(&mut input, hover(2, "broken")).await;
        let failed = read(&mut output).await;
        assert_eq!(failed["id"], 2, "the editor is answered: {failed}");
        assert_eq!(failed["error"]["code"], -32603);
        let message = failed["error"]["message"].as_str().unwrap();
        assert!(message.contains("textDocument/hover") && message.contains("no hover for"), "{message}");

        let open = json!({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
            "uri": "file:///w/broken", "languageId": "rust", "version": 1, "text": ""}}});
        write(&mut input, open).await;
        let shown = read(&mut output).await;
        assert_eq!(shown["method"], "window/showMessage", "{shown}");
        assert!(shown["params"]["message"].as_str().unwrap().contains("cannot open it"), "{shown}");

        write(&mut input, hover(3, "fine.rs")).await;
        let answered = read(&mut output).await;
        assert_eq!((&answered["id"], &answered["result"]["contents"]), (&json!(3), &json!("fine")), "{answered}");
        write(&mut input, json!({"jsonrpc": "2.0", "id": 4, "method": "shutdown"})).await;
        assert_eq!(read(&mut output).await["id"], 4);
        write(&mut input, json!({"jsonrpc": "2.0", "method": "exit"})).await;
        assert_eq!(served.await.unwrap(), 0, "an orderly end after shutdown");
    }
}
