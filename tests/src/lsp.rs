//! An LSP client over the real binary's stdio, with every receive bounded by a timeout.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::editor::{Editor, OpenDocument};
use crate::text::{Encoding, position};
use crate::{Scratch, binary, uri_of};

/// How long any single wait for the server may take before the test fails.
pub const TIMEOUT: Duration = Duration::from_secs(20);
/// How long a wait may take when the server runs a real build (a run with validation,
/// `issuewright.validate`): cold compilers on a small machine take a while.
pub const BUILD_TIMEOUT: Duration = Duration::from_secs(240);

/// What the client announces at `initialize`.
#[derive(Debug, Clone)]
pub struct ClientOptions {
    /// `clientInfo.name`.
    pub name: String,
    /// `capabilities`.
    pub capabilities: Value,
    /// `initializationOptions`.
    pub initialization_options: Value,
    /// Extra environment for the server process.
    pub env: Vec<(String, String)>,
    /// The workspace folder as the editor names it (default: the scratch workspace).
    pub root: Option<PathBuf>,
    /// More workspace folders after it (a multi-root workspace).
    pub more_folders: Vec<PathBuf>,
}

impl Default for ClientOptions {
    /// A VS Code-like client: UTF-16, documentChanges, resource operations, annotations, progress.
    fn default() -> Self {
        Self {
            name: "issuewright-e2e".into(),
            capabilities: json!({
                "workspace": {
                    "applyEdit": true,
                    "workspaceEdit": {
                        "documentChanges": true,
                        "resourceOperations": ["create", "rename", "delete"],
                        "changeAnnotationSupport": {"groupsOnLabel": true}
                    }
                },
                "window": {"workDoneProgress": true}
            }),
            initialization_options: Value::Null,
            env: Vec::new(),
            root: None,
            more_folders: Vec::new(),
        }
    }
}

impl ClientOptions {
    /// A client offering UTF-8 positions.
    pub fn utf8() -> Self {
        let mut options = Self::default();
        options.capabilities["general"] = json!({"positionEncodings": ["utf-8", "utf-16"]});
        options
    }
}

/// A running server and the scripted editor talking to it.
pub struct LspClient {
    child: Child,
    stdin: ChildStdin,
    messages: Receiver<Value>,
    next_id: i64,
    stderr: Arc<Mutex<String>>,
    root: PathBuf,
    /// The editor state the client keeps.
    pub editor: Editor,
    /// Notifications received from the server, in order.
    pub notifications: Vec<Value>,
    /// Requests received from the server, in order.
    pub server_requests: Vec<Value>,
    /// Responses to no request of ours (e.g. errors about unparseable input, with `id: null`).
    pub unsolicited: Vec<Value>,
    /// The `initialize` result.
    pub initialize_result: Value,
}

impl LspClient {
    /// Starts `issuewright lsp` on the scratch workspace and initializes it.
    pub fn start(scratch: &Scratch, options: ClientOptions) -> Self {
        let mut command = Command::new(binary());
        command
            .arg("lsp")
            .current_dir(scratch.workspace())
            .env("RUST_LOG", "issuewright=debug")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        command.env_remove("OPENAI_API_KEY").env_remove("ANTHROPIC_API_KEY");
        for (key, value) in scratch.env() {
            command.env(key, value);
        }
        for (key, value) in &options.env {
            command.env(key, value);
        }
        let mut child = command.spawn().expect("spawn issuewright lsp");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let stderr_pipe = child.stderr.take().unwrap();
        let stderr = Arc::new(Mutex::new(String::new()));
        let sink = stderr.clone();
        std::thread::spawn(move || {
            for line in BufReader::new(stderr_pipe).lines().map_while(Result::ok) {
                let mut all = sink.lock().unwrap();
                all.push_str(&line);
                all.push('\n');
            }
        });
        let (sender, messages) = channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            while let Some(message) = read_message(&mut reader) {
                if sender.send(message).is_err() {
                    break;
                }
            }
        });
        let mut client = Self {
            child,
            stdin,
            messages,
            next_id: 0,
            stderr,
            root: options.root.clone().unwrap_or_else(|| scratch.workspace()),
            editor: Editor::default(),
            notifications: Vec::new(),
            server_requests: Vec::new(),
            unsolicited: Vec::new(),
            initialize_result: Value::Null,
        };
        let root_uri = uri_of(&client.root);
        let mut folders = vec![json!({"uri": root_uri, "name": "workspace"})];
        folders.extend(options.more_folders.iter().map(|folder| json!({"uri": uri_of(folder), "name": "more"})));
        let result = client
            .request(
                "initialize",
                json!({
                    "processId": std::process::id(),
                    "clientInfo": {"name": options.name},
                    "rootUri": root_uri,
                    "workspaceFolders": folders,
                    "capabilities": options.capabilities,
                    "initializationOptions": options.initialization_options,
                }),
            )
            .expect("initialize succeeds");
        client.editor.encoding = match result["capabilities"]["positionEncoding"].as_str() {
            Some("utf-8") => Encoding::Utf8,
            _ => Encoding::Utf16,
        };
        client.initialize_result = result;
        client.notify("initialized", json!({}));
        client
    }

    /// What the server wrote to stderr so far.
    pub fn stderr(&self) -> String {
        self.stderr.lock().unwrap().clone()
    }

    fn send(&mut self, message: &Value) {
        let body = message.to_string();
        self.send_raw(format!("Content-Length: {}\r\n\r\n{body}", body.len()).as_bytes());
    }

    /// Writes raw bytes to the server (for malformed-input tests).
    pub fn send_raw(&mut self, bytes: &[u8]) {
        self.stdin.write_all(bytes).expect("write to server");
        self.stdin.flush().expect("flush");
    }

    /// Sends a notification.
    pub fn notify(&mut self, method: &str, params: Value) {
        self.send(&message(None, method, params));
    }

    fn receive(&mut self, deadline: Instant) -> Value {
        let left = deadline.saturating_duration_since(Instant::now());
        match self.messages.recv_timeout(left) {
            Ok(message) => message,
            Err(RecvTimeoutError::Timeout) => panic!("no message from the server in time; stderr:\n{}", self.stderr()),
            Err(RecvTimeoutError::Disconnected) => panic!("the server closed stdout; stderr:\n{}", self.stderr()),
        }
    }

    /// Handles one message that is not the response being waited for.
    fn handle(&mut self, message: Value) {
        if message.get("id").is_some() && message.get("method").is_some() {
            self.server_requests.push(message.clone());
            let method = message["method"].as_str().unwrap_or_default().to_owned();
            let (result, notes) = match method.as_str() {
                "workspace/applyEdit" => self.editor.apply_workspace_edit(&message["params"]),
                "workspace/configuration" => (json!([]), vec![]),
                _ => (Value::Null, vec![]),
            };
            let answer = json!({"jsonrpc": "2.0", "id": message["id"], "result": result});
            if self.editor.notify_after_answer {
                self.send(&answer);
                std::thread::sleep(Duration::from_millis(300));
                notes.iter().for_each(|(method, params)| self.notify(method, params.clone()));
            } else {
                notes.iter().for_each(|(method, params)| self.notify(method, params.clone()));
                self.send(&answer);
            }
        } else if message.get("method").is_some() {
            self.notifications.push(message);
        } else {
            self.unsolicited.push(message);
        }
    }

    /// Sends a request and waits for its response: `Ok(result)` or `Err(error)`.
    pub fn request(&mut self, method: &str, params: Value) -> Result<Value, Value> {
        self.request_within(method, params, TIMEOUT)
    }

    /// Sends a request and waits up to `timeout` for its response.
    pub fn request_within(&mut self, method: &str, params: Value, timeout: Duration) -> Result<Value, Value> {
        self.next_id += 1;
        let id = self.next_id;
        self.send(&message(Some(id), method, params));
        let deadline = Instant::now() + timeout;
        loop {
            let message = self.receive(deadline);
            if message.get("method").is_none() && message["id"] == id {
                return match message.get("error") {
                    Some(error) => Err(error.clone()),
                    None => Ok(message["result"].clone()),
                };
            }
            self.handle(message);
        }
    }

    /// Reads every message the server sent before now: the answer to a request comes after
    /// every message the server sent before it. (Standard error is read apart, unordered.)
    pub fn catch_up(&mut self) {
        let _ = self.request(
            "workspace/executeCommand",
            json!({"command": "issuewright.runStatus", "arguments": [{"runId": "none"}]}),
        );
    }

    /// Waits up to [`TIMEOUT`] for the server to send a request of `method`, asking it a
    /// question meanwhile (so it must keep answering), and returns the request.
    pub fn wait_for_server_request(&mut self, method: &str) -> Value {
        let deadline = Instant::now() + TIMEOUT;
        loop {
            if let Some(request) = self.server_requests.iter().find(|r| r["method"] == method) {
                return request.clone();
            }
            assert!(Instant::now() < deadline, "the server never asked `{method}`");
            self.catch_up();
        }
    }

    /// Runs `workspace/executeCommand`.
    pub fn command(&mut self, command: &str, argument: Value) -> Result<Value, Value> {
        self.request("workspace/executeCommand", json!({"command": command, "arguments": [argument]}))
    }

    /// Runs a command that builds the project (`issuewright.validate`), waiting longer.
    pub fn build_command(&mut self, command: &str, argument: Value) -> Result<Value, Value> {
        self.request_within(
            "workspace/executeCommand",
            json!({"command": command, "arguments": [argument]}),
            BUILD_TIMEOUT,
        )
    }

    /// Polls `issuewright.runStatus` until the run is no longer running (runs may build the
    /// project, so this waits up to [`BUILD_TIMEOUT`]).
    pub fn wait_for_run(&mut self, run_id: &str) -> Value {
        let deadline = Instant::now() + BUILD_TIMEOUT;
        loop {
            let status = self.command("issuewright.runStatus", json!({"runId": run_id})).expect("runStatus");
            if status["state"] != "running" {
                return status;
            }
            assert!(Instant::now() < deadline, "run {run_id} still running: {status}");
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Starts a run with a replay file and waits for it to end; returns `(runId, status)`.
    pub fn run_issue(&mut self, issue: &str, replay: &str) -> (String, Value) {
        let started = self
            .command("issuewright.implementIssue", json!({"issue": issue, "replay": replay}))
            .expect("implementIssue");
        let run_id = started["runId"].as_str().expect("a runId").to_owned();
        let status = self.wait_for_run(&run_id);
        (run_id, status)
    }

    /// Waits until a notification satisfying `matches` arrives, and returns it.
    pub fn wait_for_notification(&mut self, matches: impl Fn(&Value) -> bool) -> Value {
        self.wait_for_notification_within(matches, TIMEOUT)
    }

    /// Waits up to `timeout` for a notification satisfying `matches`.
    pub fn wait_for_notification_within(&mut self, matches: impl Fn(&Value) -> bool, timeout: Duration) -> Value {
        let deadline = Instant::now() + timeout;
        loop {
            if let Some(found) = self.notifications.iter().find(|n| matches(n)) {
                return found.clone();
            }
            let message = self.receive(deadline);
            self.handle(message);
        }
    }

    fn path(&self, relative: &str) -> PathBuf {
        self.root.join(relative)
    }

    /// Opens a workspace file in the editor with `text`.
    pub fn open(&mut self, relative: &str, text: &str) {
        let uri = uri_of(&self.path(relative));
        self.editor.documents.insert(uri.clone(), OpenDocument { text: text.to_owned(), version: 1 });
        self.notify(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": uri, "languageId": "plaintext", "version": 1, "text": text}}),
        );
    }

    /// Types into an open document: replaces bytes `from..to` of its text, sent as an
    /// incremental change in the negotiated encoding.
    pub fn edit(&mut self, relative: &str, from: usize, to: usize, insert: &str) {
        let uri = uri_of(&self.path(relative));
        let encoding = self.editor.encoding;
        let document = self.editor.documents.get_mut(&uri).expect("document is open");
        let (start, end) = (position(&document.text, from, encoding), position(&document.text, to, encoding));
        document.text.replace_range(from..to, insert);
        document.version += 1;
        let version = document.version;
        self.notify(
            "textDocument/didChange",
            json!({
                "textDocument": {"uri": uri, "version": version},
                "contentChanges": [{
                    "range": {"start": {"line": start.0, "character": start.1}, "end": {"line": end.0, "character": end.1}},
                    "text": insert
                }]
            }),
        );
    }

    /// Saves a workspace file, as an editor does: an open document's buffer is written to disk
    /// first; then the save is reported.
    pub fn save(&mut self, relative: &str) {
        let uri = uri_of(&self.path(relative));
        if let Some(document) = self.editor.documents.get(&uri) {
            std::fs::write(self.path(relative), &document.text).expect("write the buffer");
        }
        self.notify("textDocument/didSave", json!({"textDocument": {"uri": uri}}));
    }

    /// Closes a document.
    pub fn close(&mut self, relative: &str) {
        let uri = uri_of(&self.path(relative));
        self.editor.documents.remove(&uri);
        self.notify("textDocument/didClose", json!({"textDocument": {"uri": uri}}));
    }

    /// The editor's text of an open document.
    pub fn buffer(&self, relative: &str) -> Option<String> {
        self.editor.document(&self.path(relative)).map(|d| d.text.clone())
    }

    /// Shuts the server down and waits for it to exit.
    pub fn shutdown(mut self) -> ExitStatus {
        self.request("shutdown", Value::Null).expect("shutdown");
        self.exit()
    }

    /// Sends `exit` without `shutdown` (an editor that leaves abruptly) and waits for the
    /// server to end.
    pub fn exit_without_shutdown(mut self) -> ExitStatus {
        self.exit()
    }

    /// Sends a request without waiting for its answer; its id.
    pub fn send_request(&mut self, method: &str, params: Value) -> i64 {
        self.next_id += 1;
        self.send(&message(Some(self.next_id), method, params));
        self.next_id
    }

    /// Stops the server with `SIGTERM` (as an editor does once its shutdown wait is over)
    /// and waits for it to end.
    pub fn terminate(mut self) -> ExitStatus {
        let pid = self.child.id().to_string();
        let killed = std::process::Command::new("sh").args(["-c", "kill -TERM \"$1\"", "sh", &pid]).status();
        assert!(killed.is_ok_and(|status| status.success()), "kill -TERM");
        self.wait_for_end("after SIGTERM")
    }

    /// Sends `exit` and waits for the process to end.
    fn exit(&mut self) -> ExitStatus {
        self.notify("exit", Value::Null);
        self.wait_for_end("after `exit`")
    }

    /// Waits for the server's process to end, `after` what.
    fn wait_for_end(&mut self, after: &str) -> ExitStatus {
        let deadline = Instant::now() + TIMEOUT;
        loop {
            if let Some(status) = self.child.try_wait().expect("wait") {
                return status;
            }
            assert!(Instant::now() < deadline, "the server did not end {after}");
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// The workspace root.
    pub fn root(&self) -> &Path {
        &self.root
    }
}

impl Drop for LspClient {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A request (with `id`) or notification; `null` params are left out, as clients do.
fn message(id: Option<i64>, method: &str, params: Value) -> Value {
    let mut message = json!({"jsonrpc": "2.0", "method": method});
    if let Some(id) = id {
        message["id"] = json!(id);
    }
    if !params.is_null() {
        message["params"] = params;
    }
    message
}

/// Reads one `Content-Length`-framed message; `None` at end of stream.
fn read_message(reader: &mut impl BufRead) -> Option<Value> {
    let mut length = None;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).ok()? == 0 {
            return None;
        }
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some(value) = line.strip_prefix("Content-Length:") {
            length = value.trim().parse::<usize>().ok();
        }
    }
    let mut body = vec![0; length?];
    reader.read_exact(&mut body).ok()?;
    serde_json::from_slice(&body).ok()
}
