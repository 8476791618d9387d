//! `issuewright run`: the same agent, headless.

use std::process::{Command, Output};

use issuewright_tests::{Scratch, binary, done, replay, run_cli, run_report, turn};
use serde_json::{Value, json};

fn run(scratch: &Scratch, args: &[&str]) -> Output {
    run_cli(scratch, args, &[])
}

fn json_of(output: &Output) -> Value {
    run_report(output)
}

#[test]
fn the_demo_run_prints_the_fix_and_leaves_the_files_alone() {
    let scratch = Scratch::with_demo();
    let before = scratch.read("src/lib.rs").unwrap();
    let output = run(&scratch, &["--issue", "@ISSUE.md", "--replay", "replay.jsonl"]);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{stdout}\n{}", String::from_utf8_lossy(&output.stderr));
    assert!(stdout.contains("+    for word in text.split_whitespace() {"), "{stdout}");
    assert!(stdout.contains("ready after 5 round(s), 5 tool call(s) (0 failed)"), "{stdout}");
    assert!(stdout.contains("modified  src/lib.rs  (+25 -2)"), "{stdout}");
    assert!(stdout.contains("build: passes, tests: passes"), "{stdout}");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("round 2: patch_file src/lib.rs"), "{stderr}");
    assert!(stderr.contains("round 2: check: the build fails with 1 error(s)"), "the first attempt fails: {stderr}");
    assert!(stderr.contains("round 3: check: the build passes"), "{stderr}");
    assert!(stderr.contains("round 3: test: the tests pass"), "{stderr}");
    assert_eq!(scratch.read("src/lib.rs").unwrap(), before);
}

#[test]
fn json_output_and_apply_write_the_proposal() {
    let scratch = Scratch::with_demo();
    let output = run(&scratch, &["--issue", "@ISSUE.md", "--replay", "replay.jsonl", "--apply", "--json"]);
    assert!(output.status.success());
    let report = json_of(&output);
    assert_eq!(report["state"], "ready");
    assert_eq!(report["rounds"], 5);
    assert_eq!(report["toolCalls"], 5);
    assert_eq!(report["validation"]["build"], "passed");
    assert_eq!(report["validation"]["tests"], "passed");
    assert_eq!(report["applied"], true);
    assert_eq!(report["files"], json!([{"path": "src/lib.rs", "kind": "modified", "added": 25, "removed": 2}]));
    assert!(report["diff"].as_str().unwrap().starts_with("diff --git a/src/lib.rs b/src/lib.rs\n"));
    assert!(report["runId"].as_str().is_some());
    assert!(scratch.read("src/lib.rs").unwrap().contains("word.to_lowercase()"));
}

#[test]
fn a_run_that_does_not_finish_exits_non_zero() {
    let scratch = Scratch::with_demo();
    let output =
        run(&scratch, &["--issue", "@ISSUE.md", "--replay", "replay.jsonl", "--max-rounds", "2", "--json", "--apply"]);
    assert_eq!(output.status.code(), Some(1));
    let report = json_of(&output);
    assert_eq!(report["state"], "failed");
    assert!(report["error"].as_str().unwrap().contains("max_rounds"));
    assert_eq!(report["applied"], Value::Null, "a failed run is not applied");
    assert!(!scratch.read("src/lib.rs").unwrap().contains("to_lowercase"));
}

#[test]
fn bad_input_is_named() {
    let scratch = Scratch::new(&[("bad.jsonl", "{\"content\": \"ok\"}\n[1, 2]\n")]);
    let output = run(&scratch, &["--issue", "fix", "--replay", "bad.jsonl"]);
    assert_eq!(output.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&output.stdout).contains("bad.jsonl` line 2"));

    let output = run(&scratch, &["--issue", "@missing.md", "--replay", "bad.jsonl"]);
    assert_eq!(output.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&output.stderr).contains("cannot read issue file"));

    let output = Command::new(binary())
        .args(["run", "--repo", "/definitely/not/here", "--issue", "x", "--replay", "r.jsonl"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&output.stderr).contains("--repo /definitely/not/here"));
}

#[test]
fn apply_refuses_when_a_file_changed_during_the_run_is_conflicting() {
    // The replay rewrites a file; the conflict check compares against what the run read.
    let scratch = Scratch::new(&[("a.txt", "1\n2\n3\n")]);
    let patch = json!({"path": "a.txt", "old_text": "2", "new_text": "two"});
    scratch.write("replay.jsonl", &replay(&[turn(&[("patch_file", patch)]), done("two")]));
    let output = run(&scratch, &["--issue", "spell two", "--replay", "replay.jsonl", "--apply"]);
    assert!(output.status.success());
    assert_eq!(scratch.read("a.txt").unwrap(), "1\ntwo\n3\n");
}

#[test]
fn escape_sequences_the_model_writes_reach_the_terminal_written_out() {
    // A path that would set the terminal's title and clear its screen, and a summary that
    // would turn it red.
    let scratch = Scratch::new(&[("a.txt", "1\n")]);
    let path = "\u{1b}]0;owned\u{7}\u{1b}[2Ja.txt";
    let turns = [turn(&[("read_file", json!({"path": path}))]), done("\u{1b}[31mall done\u{1b}[0m")];
    scratch.write("replay.jsonl", &replay(&turns));
    let output = run(&scratch, &["--issue", "look", "--replay", "replay.jsonl"]);
    let (stdout, stderr) = (String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
    assert!(!stdout.contains('\u{1b}') && !stderr.contains('\u{1b}'), "{stdout:?}\n{stderr:?}");
    assert!(stderr.contains("round 1: read_file \\u{1b}]0;owned\\u{7}\\u{1b}[2Ja.txt -- failed:"), "{stderr}");
    assert!(stdout.contains("\\u{1b}[31mall done\\u{1b}[0m"), "{stdout}");
}

#[test]
fn the_patch_a_run_leaves_applies_with_git_as_the_proposal_reads() {
    // Files that open with a byte-order mark: one changed in its first line, one deleted.
    let scratch = Scratch::new(&[
        ("A.java", "\u{feff}class A {}\n"),
        ("Old.java", "\u{feff}class Old {}\n"),
        ("notes.txt", "one\n"),
    ]);
    let edits = [
        ("patch_file", json!({"path": "A.java", "old_text": "class A {}", "new_text": "class A { int x; }"})),
        ("delete_file", json!({"path": "Old.java"})),
        ("write_file", json!({"path": "docs/new.md", "content": "# New\n"})),
    ];
    scratch.write("replay.jsonl", &replay(&[turn(&edits), done("x added")]));
    let output = run(&scratch, &["--issue", "add x", "--replay", "replay.jsonl", "--json"]);
    let report = json_of(&output);
    assert_eq!(report["state"], "ready", "{report}");
    assert_eq!(scratch.read("A.java").unwrap(), "\u{feff}class A {}\n", "nothing written yet");

    let patch =
        scratch.workspace().join(".issuewright/runs").join(report["runId"].as_str().unwrap()).join("diff.patch");
    // A repository of its own, as a project is.
    let init = Command::new("git").args(["init", "-q"]).current_dir(scratch.workspace()).status().unwrap();
    assert!(init.success());
    let applied = Command::new("git").arg("apply").arg(&patch).current_dir(scratch.workspace()).output().unwrap();
    assert!(applied.status.success(), "git apply: {}", String::from_utf8_lossy(&applied.stderr));
    let workspace = scratch.workspace();
    assert_eq!(std::fs::read(workspace.join("A.java")).unwrap(), b"\xEF\xBB\xBFclass A { int x; }\n");
    assert!(!workspace.join("Old.java").exists());
    assert_eq!(scratch.read("docs/new.md").unwrap(), "# New\n");
    assert_eq!(scratch.read("notes.txt").unwrap(), "one\n");
}
