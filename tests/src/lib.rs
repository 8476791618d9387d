//! Support for the end-to-end suite: the built `issuewright` binary, scratch workspaces
//! (kept under the target directory), and an LSP client that plays a scripted editor.

pub mod editor;
pub mod fake;
pub mod lsp;
pub mod specs;
pub mod streams;
pub mod text;
pub mod toolchains;

use std::ffi::OsStr;
use std::path::{Path, PathBuf};

/// The `target/<profile>` directory of this build, found from the test executable.
fn profile_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("the test executable has a path");
    // target/<profile>/deps/<test>-<hash>
    exe.parent().and_then(Path::parent).expect("tests run from target/<profile>/deps").to_owned()
}

/// The `issuewright` binary under test: `$ISSUEWRIGHT_BIN`, else the one built beside these tests.
pub fn binary() -> PathBuf {
    if let Some(path) = std::env::var_os("ISSUEWRIGHT_BIN") {
        return PathBuf::from(path);
    }
    let path = profile_dir().join(format!("issuewright{}", std::env::consts::EXE_SUFFIX));
    let built = std::fs::metadata(&path).and_then(|m| m.modified()).unwrap_or_else(|_| {
        panic!("{} is missing; build it first with `cargo build -p issuewright` (tests/run.sh does)", path.display())
    });
    if let Some(newer) = newest_source(&repo_root().join("server")).filter(|(time, _)| *time > built) {
        panic!(
            "{} is older than {}; rebuild with `cargo build -p issuewright` (or run `cargo test --workspace`)",
            path.display(),
            newer.1.display()
        );
    }
    path
}

/// The most recently modified file of the server's sources and manifest.
fn newest_source(dir: &Path) -> Option<(std::time::SystemTime, PathBuf)> {
    let mut newest: Option<(std::time::SystemTime, PathBuf)> = None;
    let mut stack = vec![dir.join("src"), dir.join("Cargo.toml")];
    while let Some(path) = stack.pop() {
        if path.is_dir() {
            stack.extend(std::fs::read_dir(&path).into_iter().flatten().flatten().map(|e| e.path()));
        } else if let Ok(time) = std::fs::metadata(&path).and_then(|m| m.modified())
            && newest.as_ref().is_none_or(|(best, _)| time > *best)
        {
            newest = Some((time, path));
        }
    }
    newest
}

/// The repository's top folder.
pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("tests/ sits in the repository").to_owned()
}

/// A scratch folder under `target/`, removed when dropped. It holds the workspace, and a
/// `home` folder the server is given as `$HOME`, `$XDG_*` and `$TMPDIR`, so a test can
/// check that nothing is written outside the workspace.
pub struct Scratch {
    dir: tempfile::TempDir,
}

impl Scratch {
    /// A fresh scratch folder with `files` written into its workspace.
    pub fn new(files: &[(&str, &str)]) -> Self {
        let base = profile_dir().parent().expect("target/").join("tmp").join("issuewright-e2e");
        std::fs::create_dir_all(&base).expect("scratch base");
        let dir = tempfile::Builder::new().prefix("ws-").tempdir_in(&base).expect("scratch dir");
        let scratch = Self { dir };
        std::fs::create_dir_all(scratch.workspace()).expect("workspace dir");
        for sub in ["home", "home/tmp", "home/.cache", "home/.config", "home/.local/share", "home/.local/state"] {
            std::fs::create_dir_all(scratch.dir.path().join(sub)).expect("home dirs");
        }
        for (path, text) in files {
            scratch.write(path, text);
        }
        scratch
    }

    /// The workspace root (canonical).
    pub fn workspace(&self) -> PathBuf {
        let path = self.dir.path().join("workspace");
        path.canonicalize().unwrap_or(path)
    }

    /// The folder standing in for the user's home.
    pub fn home(&self) -> PathBuf {
        self.dir.path().join("home")
    }

    /// Environment for a server process: home, XDG dirs, TMPDIR and Java's home inside the
    /// scratch folder.
    pub fn env(&self) -> Vec<(String, PathBuf)> {
        let home = self.home();
        vec![
            ("HOME".into(), home.clone()),
            ("XDG_CACHE_HOME".into(), home.join(".cache")),
            ("XDG_CONFIG_HOME".into(), home.join(".config")),
            ("XDG_DATA_HOME".into(), home.join(".local/share")),
            ("XDG_STATE_HOME".into(), home.join(".local/state")),
            ("TMPDIR".into(), home.join("tmp")),
            // Java reads its home from the password database, not $HOME; Maven looks there
            // for `.m2/settings.xml`.
            ("MAVEN_OPTS".into(), PathBuf::from(format!("-Duser.home={}", home.display()))),
        ]
    }

    /// Writes a workspace file, creating folders.
    pub fn write(&self, path: &str, text: &str) {
        let absolute = self.workspace().join(path);
        std::fs::create_dir_all(absolute.parent().expect("has a parent")).expect("mkdir");
        std::fs::write(absolute, text).expect("write fixture file");
    }

    /// Sets the modification time of a workspace file an hour back, as for a checkout made
    /// before the editor opened it: a file written in the seconds before an index build is
    /// read again at the next start whatever its time says.
    pub fn modified_an_hour_ago(&self, path: &str) {
        let file = std::fs::File::options().write(true).open(self.workspace().join(path)).expect("open fixture file");
        file.set_modified(std::time::SystemTime::now() - std::time::Duration::from_secs(3600)).expect("set its time");
    }

    /// Reads a workspace file, `None` if absent.
    pub fn read(&self, path: &str) -> Option<String> {
        std::fs::read_to_string(self.workspace().join(path)).ok()
    }

    /// Every file below `dir` (relative, sorted), for before/after comparisons.
    pub fn files_below(dir: &Path) -> Vec<String> {
        let mut found = Vec::new();
        let mut stack = vec![dir.to_owned()];
        while let Some(next) = stack.pop() {
            for entry in std::fs::read_dir(&next).into_iter().flatten().flatten() {
                let path = entry.path();
                if path.is_dir() {
                    stack.push(path);
                } else {
                    found.push(path.strip_prefix(dir).expect("below").to_string_lossy().into_owned());
                }
            }
        }
        found.sort();
        found
    }
}

/// A URI for a file path.
pub fn uri_of(path: &Path) -> String {
    url::Url::from_file_path(path).expect("absolute path").to_string()
}

/// The file path of a `file:` URI.
pub fn path_of(uri: &str) -> PathBuf {
    url::Url::parse(uri).expect("a URI").to_file_path().expect("a file URI")
}

/// A replay file's text from turns given as JSON values, one per line.
pub fn replay(turns: &[serde_json::Value]) -> String {
    turns.iter().map(|turn| format!("{turn}\n")).collect()
}

/// A replay turn with tool calls `(name, arguments)`.
pub fn turn(calls: &[(&str, serde_json::Value)]) -> serde_json::Value {
    let calls: Vec<serde_json::Value> = calls
        .iter()
        .enumerate()
        .map(|(n, (name, arguments))| serde_json::json!({"id": format!("c{n}"), "name": name, "arguments": arguments}))
        .collect();
    serde_json::json!({"tool_calls": calls})
}

/// The final replay turn.
pub fn done(summary: &str) -> serde_json::Value {
    serde_json::json!({"content": summary})
}

/// The events of a run's ledger.
pub fn ledger(workspace: &Path, run_id: &str) -> Vec<serde_json::Value> {
    let path = workspace.join(".issuewright/runs").join(run_id).join("ledger.jsonl");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines().map(|line| serde_json::from_str(line).expect("ledger lines are JSON")).collect()
}

/// The user message of a run's first prompt, from its ledger's events.
pub fn first_prompt(events: &[serde_json::Value]) -> &str {
    let prompt = events.iter().find(|e| e["event"] == "prompt").expect("the prompt is recorded");
    prompt["user"].as_str().expect("a prompt's user message")
}

/// What each of a run's tool calls answered, in order, from its ledger's events.
pub fn tool_outputs(events: &[serde_json::Value]) -> Vec<&str> {
    events.iter().filter(|e| e["event"] == "tool_result").map(|e| e["output"].as_str().expect("an output")).collect()
}

impl Scratch {
    /// A scratch workspace holding a copy of the `examples/wordfreq` demo repository.
    pub fn with_demo() -> Self {
        let scratch = Self::new(&[]);
        let demo = repo_root().join("examples/wordfreq");
        for file in ["Cargo.toml", "src/lib.rs", "src/main.rs", "ISSUE.md", "replay.jsonl"] {
            scratch.write(file, &std::fs::read_to_string(demo.join(file)).expect("demo file"));
        }
        scratch
    }
}

/// Runs `issuewright ARGS` in the workspace with the scratch environment plus `env`; the
/// model keys of the surrounding environment are left out.
pub fn issuewright(
    scratch: &Scratch,
    args: impl IntoIterator<Item = impl AsRef<OsStr>>,
    env: &[(&str, &str)],
) -> std::process::Output {
    issuewright_in(scratch, &scratch.workspace(), args, env)
}

/// [`issuewright`] started in the folder `cwd`, as from a terminal elsewhere.
pub fn issuewright_in(
    scratch: &Scratch,
    cwd: &Path,
    args: impl IntoIterator<Item = impl AsRef<OsStr>>,
    env: &[(&str, &str)],
) -> std::process::Output {
    issuewright_command(scratch, cwd, args, env).output().expect("run issuewright")
}

/// The command [`issuewright_in`] runs, for a test that wires its standard streams itself
/// (a reader that leaves early, a full disk).
pub fn issuewright_command(
    scratch: &Scratch,
    cwd: &Path,
    args: impl IntoIterator<Item = impl AsRef<OsStr>>,
    env: &[(&str, &str)],
) -> std::process::Command {
    let mut command = std::process::Command::new(binary());
    command.args(args).current_dir(cwd);
    command.env_remove("OPENAI_API_KEY").env_remove("ANTHROPIC_API_KEY");
    command.envs(scratch.env());
    command.envs(env.iter().copied());
    command
}

/// `issuewright ARGS` started in the workspace with its standard output and error piped.
pub fn issuewright_piped(scratch: &Scratch, args: impl IntoIterator<Item = impl AsRef<OsStr>>) -> std::process::Child {
    issuewright_command(scratch, &scratch.workspace(), args, &[])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("start issuewright")
}

/// Runs `issuewright ARGS --repo REPO` (see [`issuewright`]).
pub fn issuewright_on(scratch: &Scratch, repo: &Path, args: &[&str], env: &[(&str, &str)]) -> std::process::Output {
    let args = args.iter().map(OsStr::new).chain([OsStr::new("--repo"), repo.as_os_str()]);
    issuewright(scratch, args, env)
}

/// Runs `issuewright run ARGS --repo <workspace>` (see [`issuewright`]).
pub fn run_cli(scratch: &Scratch, args: &[&str], env: &[(&str, &str)]) -> std::process::Output {
    issuewright_on(scratch, &scratch.workspace(), &[&["run"], args].concat(), env)
}

/// The JSON object `issuewright run --json` printed.
pub fn run_report(output: &std::process::Output) -> serde_json::Value {
    serde_json::from_slice(&output.stdout).unwrap_or_else(|e| {
        panic!(
            "{e}: stdout {}\nstderr {}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        )
    })
}

/// Every file below the workspace's run records, concatenated (to look for leaked secrets).
pub fn records_text(scratch: &Scratch) -> String {
    let records = scratch.workspace().join(".issuewright");
    Scratch::files_below(&records)
        .iter()
        .map(|file| std::fs::read_to_string(records.join(file)).unwrap_or_default())
        .collect()
}
