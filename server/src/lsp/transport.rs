//! The stdio transport: reads framed messages, hands them to the tower-lsp service, and
//! writes responses and server-initiated messages.
//!
//! Notifications are handled one after another in arrival order, so document changes
//! apply in the order the editor sent them; requests run concurrently. Malformed input is
//! answered with a JSON-RPC error and the session goes on. `exit` ends the loop with code
//! 0 after `shutdown`, 1 otherwise.

use futures::{SinkExt, StreamExt};
use serde::Serialize;
use tokio::io::{AsyncRead, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::sync::mpsc;
use tower::{Service, ServiceExt};
use tower_lsp::jsonrpc::{Error, Id, Response};
use tower_lsp::{ClientSocket, LspService};

use super::backend::Backend;
use super::framing::{Frame, Incoming, decode, read_frame};

/// How much of a message that is not JSON-RPC the log shows.
const LOGGED_BODY_BYTES: usize = 300;

/// Serves until `exit` or the end of input; returns the process exit code.
pub async fn serve(
    input: impl AsyncRead + Unpin,
    output: impl AsyncWrite + Unpin + Send + 'static,
    mut service: LspService<Backend>,
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
    let code = loop {
        let body = match read_frame(&mut reader).await {
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
        let is_notification = request.id().is_none();
        shutdown |= method == "shutdown";
        let Ok(ready) = service.ready().await else {
            break if shutdown { 0 } else { 1 };
        };
        let pending = ready.call(request);
        if method == "exit" {
            let _ = pending.await;
            break if shutdown { 0 } else { 1 };
        }
        if is_notification {
            if let Ok(Some(response)) = pending.await {
                send(&outgoing, &response);
            }
        } else {
            let outgoing = outgoing.clone();
            tokio::spawn(async move {
                if let Ok(Some(response)) = pending.await {
                    send(&outgoing, &response);
                }
            });
        }
    };
    // An editor that left without `shutdown` (crashed, killed, or `exit` alone) leaves its
    // runs to be ended here, as a shutdown would.
    service.inner().end_runs().await;
    forward.abort();
    drop(outgoing);
    // Let the writer flush what is queued; requests still running are abandoned.
    let _ = tokio::time::timeout(std::time::Duration::from_millis(500), writer).await;
    code
}

fn send(outgoing: &mpsc::UnboundedSender<Vec<u8>>, message: &impl Serialize) {
    match serde_json::to_vec(message) {
        Ok(body) => {
            let _ = outgoing.send(body);
        }
        Err(error) => tracing::error!("cannot serialise a message: {error}"),
    }
}
