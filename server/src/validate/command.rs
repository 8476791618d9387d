//! Running a check or test command: in its own process group, with a time limit, killed
//! with everything it started on timeout or cancel, its output captured up to a cap.

use std::path::Path;
use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tokio::io::{AsyncRead, AsyncReadExt};
use tokio_util::sync::CancellationToken;

/// Bytes of output kept from the start of a stream.
pub const HEAD_BYTES: usize = 6 * 1024 * 1024;
/// Bytes of output kept from the end of a stream.
pub const TAIL_BYTES: usize = 2 * 1024 * 1024;

/// A command to run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CommandSpec {
    /// The program.
    pub program: String,
    /// Its arguments.
    pub args: Vec<String>,
    /// Extra environment.
    pub env: Vec<(String, String)>,
    /// Variables of this process's environment the command does not inherit, besides the
    /// credential names [`is_credential_variable`] knows.
    pub withheld: Vec<String>,
}

impl CommandSpec {
    /// A program with arguments.
    pub fn new(program: &str, args: &[&str]) -> Self {
        Self {
            program: program.to_owned(),
            args: args.iter().map(|a| (*a).to_owned()).collect(),
            env: Vec::new(),
            withheld: Vec::new(),
        }
    }

    /// A command line run by `sh -c` (as written in `.issuewright.toml`).
    pub fn shell(line: &str) -> Self {
        Self::new("sh", &["-c", line])
    }

    /// The command as a person would type it.
    pub fn display(&self) -> String {
        if self.program == "sh" && self.args.first().map(String::as_str) == Some("-c") {
            return self.args.get(1).cloned().unwrap_or_default();
        }
        std::iter::once(self.program.as_str()).chain(self.args.iter().map(String::as_str)).collect::<Vec<_>>().join(" ")
    }
}

/// What a command did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CommandOutput {
    /// The exit code; `None` when killed or ended by a signal.
    pub status: Option<i32>,
    /// Standard output (head and tail when truncated).
    pub stdout: Vec<u8>,
    /// Standard error (head and tail when truncated).
    pub stderr: Vec<u8>,
    /// Killed at the time limit.
    pub timed_out: bool,
    /// Killed because the run was cancelled.
    pub cancelled: bool,
    /// Bytes of output dropped from the middle.
    pub dropped_bytes: u64,
    /// Wall time.
    pub duration: Duration,
}

impl CommandOutput {
    /// True when it ran to the end and exited with 0.
    pub fn succeeded(&self) -> bool {
        self.status == Some(0)
    }

    /// Standard output and error as text (invalid UTF-8 replaced).
    pub fn text(&self) -> String {
        let mut text = String::from_utf8_lossy(&self.stdout).into_owned();
        text.push_str(&String::from_utf8_lossy(&self.stderr));
        text
    }
}

/// Why a command could not run.
#[derive(Debug, thiserror::Error)]
#[error("cannot run `{command}`: {source}")]
pub struct CommandError {
    /// The command.
    pub command: String,
    /// Why.
    pub source: std::io::Error,
}

/// Keeps the first and last bytes of a stream, counting what falls in between.
#[derive(Debug, Default)]
struct Capped {
    head: Vec<u8>,
    tail: std::collections::VecDeque<u8>,
    dropped: u64,
}

impl Capped {
    fn push(&mut self, mut bytes: &[u8]) {
        if self.head.len() < HEAD_BYTES {
            let take = bytes.len().min(HEAD_BYTES - self.head.len());
            self.head.extend_from_slice(&bytes[..take]);
            bytes = &bytes[take..];
        }
        self.tail.extend(bytes);
        let excess = self.tail.len().saturating_sub(TAIL_BYTES);
        if excess > 0 {
            self.tail.drain(..excess);
            self.dropped += excess as u64;
        }
    }

    fn finish(self) -> (Vec<u8>, u64) {
        let mut all = self.head;
        if self.dropped > 0 {
            all.extend_from_slice(format!("\n[... {} bytes of output cut ...]\n", self.dropped).as_bytes());
        }
        all.extend(self.tail);
        (all, self.dropped)
    }
}

/// Reads `reader` to its end into `into`, which holds what was read so far whenever the
/// reading is stopped.
async fn drain(mut reader: impl AsyncRead + Unpin, into: Arc<Mutex<Capped>>) {
    let mut buffer = vec![0; 64 * 1024];
    while let Ok(read) = reader.read(&mut buffer).await {
        if read == 0 {
            break;
        }
        into.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).push(&buffer[..read]);
    }
}

/// A reader of one of the command's pipes, and what it has read.
struct Reader {
    task: tokio::task::JoinHandle<()>,
    read: Arc<Mutex<Capped>>,
}

impl Reader {
    fn start(pipe: impl AsyncRead + Unpin + Send + 'static) -> Self {
        let read = Arc::new(Mutex::new(Capped::default()));
        Self { task: tokio::spawn(drain(pipe, read.clone())), read }
    }
}

/// How long the output is still read after the command ended or was killed: a process
/// that left the group (`setsid`) may hold the pipes open.
const OUTPUT_GRACE: Duration = Duration::from_secs(5);

/// Kills the command's process group when dropped while armed: if the future running a
/// command is dropped (the server shuts down, a request is cancelled), nothing it started
/// keeps running.
struct GroupGuard {
    pid: Option<u32>,
}

impl Drop for GroupGuard {
    fn drop(&mut self) {
        if let Some(pid) = self.pid {
            kill_group(pid);
        }
    }
}

fn kill_group(pid: u32) {
    // SAFETY: killpg only sends a signal; the group id is the child's pid (process_group(0)).
    unsafe {
        libc::killpg(pid as libc::pid_t, libc::SIGKILL);
    }
}

/// Variables holding model and forge credentials: `*API_KEY*`, `OPENAI_*`, `ANTHROPIC_*`,
/// `AZURE_OPENAI_*`, `GITHUB_TOKEN`, `GITEA_TOKEN` (registry tokens a build needs stay).
pub fn is_credential_variable(name: &str) -> bool {
    let upper = name.to_ascii_uppercase();
    upper.contains("API_KEY")
        || ["OPENAI_", "ANTHROPIC_", "AZURE_OPENAI_"].iter().any(|prefix| upper.starts_with(prefix))
        || ["GITHUB_TOKEN", "GH_TOKEN", "GITEA_TOKEN"].contains(&upper.as_str())
}

/// Runs `spec` in `cwd`. On timeout or cancel its whole process group is killed; when the
/// command itself ends, anything it left running in its group is killed too, so a stray
/// background process cannot hold the output open.
pub async fn run(
    spec: &CommandSpec,
    cwd: &Path,
    timeout: Duration,
    cancel: &CancellationToken,
) -> Result<CommandOutput, CommandError> {
    let started = Instant::now();
    let mut command = tokio::process::Command::new(&spec.program);
    // A project's check is the project's code (and a repository may name its own): it runs
    // without the keys issuewright talks to models and forges with.
    for (name, _) in std::env::vars_os() {
        if name.to_str().is_some_and(|name| is_credential_variable(name) || spec.withheld.iter().any(|w| w == name)) {
            command.env_remove(&name);
        }
    }
    command
        .args(&spec.args)
        .current_dir(cwd)
        .envs(spec.env.iter().map(|(k, v)| (k, v)))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0)
        .kill_on_drop(true);
    let mut child = command.spawn().map_err(|source| CommandError { command: spec.display(), source })?;
    let pid = child.id().expect("a just-spawned child has a pid");
    let mut guard = GroupGuard { pid: Some(pid) };
    let stdout = Reader::start(child.stdout.take().expect("piped"));
    let stderr = Reader::start(child.stderr.take().expect("piped"));

    let mut output = CommandOutput::default();
    tokio::select! {
        status = child.wait() => {
            output.status = status.ok().and_then(|s| s.code());
            kill_group(pid);
        }
        () = tokio::time::sleep(timeout) => {
            output.timed_out = true;
            kill_group(pid);
            let _ = child.wait().await;
        }
        () = cancel.cancelled() => {
            output.cancelled = true;
            kill_group(pid);
            let _ = child.wait().await;
        }
    }
    // The group is gone (killed above); the pid may be reused from here on.
    guard.pid = None;
    let grace = tokio::time::Instant::now() + OUTPUT_GRACE;
    let (out, dropped_out) = within_grace(stdout, grace).await.finish();
    let (err, dropped_err) = within_grace(stderr, grace).await.finish();
    output.stdout = out;
    output.stderr = err;
    output.dropped_bytes = dropped_out + dropped_err;
    output.duration = started.elapsed();
    Ok(output)
}

/// What a reader collected: all of it, or where the pipe stays open past [`OUTPUT_GRACE`]
/// (a process that left the group holds it), what it had read by then, said to be cut there,
/// rather than holding up the validation.
async fn within_grace(mut reader: Reader, until: tokio::time::Instant) -> Capped {
    let ended = tokio::time::timeout_at(until, &mut reader.task).await.is_ok();
    if !ended {
        reader.task.abort();
        tracing::warn!("a process outside the command's group kept its output open; the output is read no further");
    }
    let mut read = std::mem::take(&mut *reader.read.lock().unwrap_or_else(|poisoned| poisoned.into_inner()));
    if !ended {
        read.push(
            format!(
                "\n[the output was still open {} s after the command ended, held by a process it started; it was read no further]\n",
                OUTPUT_GRACE.as_secs()
            )
            .as_bytes(),
        );
    }
    read
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn sh(line: &str, timeout: Duration) -> CommandOutput {
        run(&CommandSpec::shell(line), Path::new("."), timeout, &CancellationToken::new()).await.unwrap()
    }

    fn alive(pid: i32) -> bool {
        match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
            Ok(stat) => !stat.rsplit_once(')').is_some_and(|(_, rest)| rest.trim_start().starts_with('Z')),
            Err(_) => false,
        }
    }

    #[test]
    fn model_and_forge_keys_are_told_from_build_variables() {
        for name in ["OPENAI_API_KEY", "my_api_key", "ANTHROPIC_BASE_URL", "AZURE_OPENAI_KEY", "GITHUB_TOKEN"] {
            assert!(is_credential_variable(name), "{name}");
        }
        for name in ["NPM_TOKEN", "CARGO_REGISTRIES_MY_TOKEN", "PATH", "HOME", "JAVA_HOME"] {
            assert!(!is_credential_variable(name), "{name}");
        }
    }

    #[tokio::test]
    async fn output_and_status_are_captured() {
        let output = sh("echo out; echo err >&2; exit 3", Duration::from_secs(10)).await;
        assert_eq!(output.status, Some(3));
        assert_eq!(output.stdout, b"out\n");
        assert_eq!(output.stderr, b"err\n");
        assert!(!output.succeeded() && !output.timed_out);
    }

    #[tokio::test]
    async fn a_hanging_command_is_killed_with_its_whole_group() {
        let dir = crate::testing::tempdir();
        let pidfile = dir.path().join("pid");
        let line = format!("sleep 60 & echo $! > '{}'; wait", pidfile.display());
        let output = sh(&line, Duration::from_millis(300)).await;
        assert!(output.timed_out);
        assert_eq!(output.status, None);
        let grandchild: i32 = std::fs::read_to_string(&pidfile).unwrap().trim().parse().unwrap();
        let deadline = Instant::now() + Duration::from_secs(5);
        while alive(grandchild) && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(20));
        }
        assert!(!alive(grandchild), "the background sleep was killed too");
    }

    #[tokio::test]
    async fn a_background_process_left_behind_does_not_hold_the_output() {
        let started = Instant::now();
        let output = sh("sleep 60 & echo done", Duration::from_secs(30)).await;
        assert_eq!(output.stdout, b"done\n");
        assert!(started.elapsed() < Duration::from_secs(10));
    }

    #[tokio::test]
    async fn dropping_a_running_command_kills_its_group() {
        let dir = crate::testing::tempdir();
        let pidfile = dir.path().join("pid");
        let line = format!("sleep 60 & echo $! > '{}'; wait", pidfile.display());
        let running = sh(&line, Duration::from_secs(60));
        assert!(tokio::time::timeout(Duration::from_millis(500), running).await.is_err(), "still running");
        let grandchild: i32 = std::fs::read_to_string(&pidfile).unwrap().trim().parse().unwrap();
        let deadline = Instant::now() + Duration::from_secs(5);
        while alive(grandchild) && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(20));
        }
        assert!(!alive(grandchild), "the server shutting down leaves nothing running");
    }

    #[tokio::test]
    async fn a_process_that_leaves_the_group_cannot_hold_the_run() {
        let dir = crate::testing::tempdir();
        let pidfile = dir.path().join("pid");
        // `setsid` puts the sleep in a session of its own, with the output pipes inherited.
        let line = format!("setsid sh -c 'echo $$ > \"{}\"; exec sleep 60' & sleep 0.2; echo done", pidfile.display());
        let started = Instant::now();
        let output = sh(&line, Duration::from_secs(60)).await;
        assert!(started.elapsed() < Duration::from_secs(30), "returned after the grace period, not after the sleep");
        assert_eq!(output.status, Some(0));
        let printed = String::from_utf8_lossy(&output.stdout);
        assert!(printed.starts_with("done\n"), "what was printed before is kept: {printed:?}");
        assert!(printed.contains("it was read no further"), "{printed:?}");
        if let Ok(pid) = std::fs::read_to_string(&pidfile).unwrap_or_default().trim().parse::<i32>() {
            // SAFETY: sends a signal to the test's own stray process.
            unsafe { libc::kill(pid, libc::SIGKILL) };
        }
    }

    #[tokio::test]
    async fn cancel_kills_the_command() {
        let cancel = CancellationToken::new();
        let trigger = cancel.clone();
        tokio::spawn(async move {
            tokio::time::sleep(Duration::from_millis(200)).await;
            trigger.cancel();
        });
        let output =
            run(&CommandSpec::shell("sleep 60"), Path::new("."), Duration::from_secs(30), &cancel).await.unwrap();
        assert!(output.cancelled && output.status.is_none());
    }

    #[tokio::test]
    async fn fifty_megabytes_of_output_are_capped() {
        let output =
            sh("head -c 52428800 /dev/zero | tr '\\\\0' 'x'; echo; echo the end", Duration::from_secs(60)).await;
        assert!(output.succeeded());
        assert!(output.stdout.len() < HEAD_BYTES + TAIL_BYTES + 100);
        assert!(output.dropped_bytes > 40_000_000);
        let text = output.text();
        assert!(text.trim_end().ends_with("the end"), "the tail is kept");
        assert!(text.contains("bytes of output cut"));
    }

    #[tokio::test]
    async fn invalid_utf8_is_kept_as_bytes_and_read_lossily() {
        let output = sh("printf 'caf\\351\\n'", Duration::from_secs(10)).await;
        assert_eq!(output.stdout, b"caf\xe9\n");
        assert_eq!(output.text(), "caf\u{fffd}\n");
    }

    #[tokio::test]
    async fn a_missing_program_is_an_error_naming_it() {
        let spec = CommandSpec::new("definitely-not-a-program", &["x"]);
        let error = run(&spec, Path::new("."), Duration::from_secs(1), &CancellationToken::new()).await.unwrap_err();
        assert!(error.to_string().starts_with("cannot run `definitely-not-a-program x`"), "{error}");
    }
}
