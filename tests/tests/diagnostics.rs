//! Validation in the editor: a run that breaks the build brings its diagnostics with the
//! proposal and onto the files once applied, and a second run that fixes it clears them;
//! `issuewright.validate` sees unsaved buffers; saves validate when configured, debounced.

use std::time::Duration;

use issuewright_tests::lsp::{BUILD_TIMEOUT, ClientOptions, LspClient};
use issuewright_tests::toolchains::{CARGO_TOML, Expected, cargo_short};
use issuewright_tests::{Scratch, done, replay, turn, uri_of};
use serde_json::{Value, json};

const LIB: &str = "pub fn total(words: &[&str]) -> u32 {\n    words.len() as u32\n}\n";
const BROKEN: &str = "pub fn total(words: &[&str]) -> u32 {\n    let n: u32 = words.len();\n    n\n}\n";

/// `break.jsonl`: a run that turns [`LIB`] into [`BROKEN`] and, sent back with the error,
/// leaves it so.
fn write_breaking_replay(scratch: &Scratch) {
    scratch.write(
        "break.jsonl",
        &replay(&[
            turn(&[(
                "patch_file",
                json!({"path": "src/lib.rs", "old_text": "    words.len() as u32\n", "new_text": "    let n: u32 = words.len();\n    n\n"}),
            )]),
            done("Named the count."),
            done("I will leave the conversion to a later change."),
        ]),
    );
}

fn published_for<'a>(client: &'a LspClient, uri: &str) -> Vec<&'a Value> {
    client
        .notifications
        .iter()
        .filter(|n| n["method"] == "textDocument/publishDiagnostics" && n["params"]["uri"] == uri)
        .collect()
}

/// What cargo itself says about `lib` (in a crate of its own outside the workspace).
fn cargo_says(scratch: &Scratch, lib: &str) -> Vec<Expected> {
    let copy = scratch.home().join("tmp/direct");
    std::fs::create_dir_all(copy.join("src")).unwrap();
    std::fs::write(copy.join("Cargo.toml"), CARGO_TOML).unwrap();
    std::fs::write(copy.join("src/lib.rs"), lib).unwrap();
    cargo_short(&copy, &scratch.home().join("tmp/direct-target"))
}

#[test]
fn a_run_that_breaks_the_build_shows_why_and_a_second_run_fixes_it() {
    let scratch = Scratch::new(&[("Cargo.toml", CARGO_TOML), ("src/lib.rs", LIB)]);
    write_breaking_replay(&scratch);
    scratch.write(
        "fix.jsonl",
        &replay(&[
            turn(&[(
                "patch_file",
                json!({"path": "src/lib.rs", "old_text": "let n: u32 = words.len();", "new_text": "let n = words.len() as u32;"}),
            )]),
            done("Converted the length."),
        ]),
    );
    let uri = uri_of(&scratch.workspace().join("src/lib.rs"));
    let mut client = LspClient::start(&scratch, ClientOptions::default());

    let (run_id, status) = client.run_issue("Name the count", "break.jsonl");
    assert_eq!(status["state"], "ready", "{status}");
    assert_eq!(status["validation"]["build"], "failed", "{status}");
    assert_eq!(status["rounds"], 3, "sent back once with the errors");

    // The proposal carries the compiler's diagnostics, placed in the proposed text.
    let proposal = client.command("issuewright.proposal", json!({"runId": run_id})).unwrap();
    assert_eq!(proposal["validation"]["build"], "failed");
    let expected = cargo_says(&scratch, BROKEN);
    let error = expected.iter().find(|e| e.code.as_deref() == Some("E0308")).expect("cargo reports E0308");
    let files = proposal["diagnostics"].as_array().unwrap();
    assert_eq!(files.len(), 1, "{proposal:#}");
    assert_eq!(files[0]["uri"], uri);
    let diagnostic = &files[0]["diagnostics"][0];
    assert_eq!(diagnostic["code"], "E0308");
    assert_eq!(diagnostic["source"], "cargo");
    assert_eq!(diagnostic["severity"], 1);
    assert_eq!(diagnostic["range"]["start"], json!({"line": error.line, "character": error.character}));
    assert!(published_for(&client, &uri).is_empty(), "nothing on the real file before it is applied");

    // Applied, the diagnostics land on the real file.
    let applied = client.command("issuewright.applyProposal", json!({"runId": run_id})).unwrap();
    assert_eq!(applied["verified"], true, "{applied}");
    let published =
        client.wait_for_notification(|n| n["method"] == "textDocument/publishDiagnostics" && n["params"]["uri"] == uri);
    assert_eq!(published["params"]["diagnostics"][0]["code"], "E0308");
    assert_eq!(scratch.read("src/lib.rs").unwrap(), BROKEN);

    // A second run fixes it; applying it clears the file's diagnostics.
    let (second, status) = client.run_issue("Fix the count", "fix.jsonl");
    assert_eq!(status["validation"]["build"], "passed", "{status}");
    assert_eq!(status["validation"]["tests"], "passed", "{status}");
    let applied = client.command("issuewright.applyProposal", json!({"runId": second})).unwrap();
    assert_eq!(applied["verified"], true, "{applied}");
    client.wait_for_notification(|n| {
        n["method"] == "textDocument/publishDiagnostics"
            && n["params"]["uri"] == uri
            && n["params"]["diagnostics"].as_array().is_some_and(Vec::is_empty)
    });

    // The verdict is kept with the proposal: a restarted server still tells it.
    assert!(client.shutdown().success());
    let mut restarted = LspClient::start(&scratch, ClientOptions::default());
    let proposal = restarted.command("issuewright.proposal", json!({"runId": run_id})).unwrap();
    assert_eq!(proposal["validation"]["build"], "failed", "{proposal:#}");
}

#[test]
fn diagnostics_of_a_proposal_carried_onto_lines_added_since_land_where_the_error_is() {
    let scratch = Scratch::new(&[("Cargo.toml", CARGO_TOML), ("src/lib.rs", LIB)]);
    write_breaking_replay(&scratch);
    let uri = uri_of(&scratch.workspace().join("src/lib.rs"));
    let mut client = LspClient::start(&scratch, ClientOptions::default());
    let (run_id, status) = client.run_issue("Name the count", "break.jsonl");
    assert_eq!(status["validation"]["build"], "failed", "{status}");
    let error = cargo_says(&scratch, BROKEN).into_iter().find(|e| e.code.as_deref() == Some("E0308")).unwrap();

    // The user documents the function after the run: the proposal lands three lines lower.
    let header = "//! Counting words.\n\n/// How many words there are.\n";
    scratch.write("src/lib.rs", &format!("{header}{LIB}"));
    let applied = client.command("issuewright.applyProposal", json!({"runId": run_id})).unwrap();
    assert_eq!(applied["verified"], true, "{applied}");
    assert_eq!(scratch.read("src/lib.rs").unwrap(), format!("{header}{BROKEN}"));
    let published =
        client.wait_for_notification(|n| n["method"] == "textDocument/publishDiagnostics" && n["params"]["uri"] == uri);
    let diagnostic = &published["params"]["diagnostics"][0];
    assert_eq!(diagnostic["code"], "E0308");
    assert_eq!(diagnostic["range"]["start"], json!({"line": error.line + 3, "character": error.character}));
}

#[test]
fn validate_sees_unsaved_buffers_in_the_negotiated_encoding() {
    let scratch = Scratch::new(&[("Cargo.toml", CARGO_TOML), ("src/lib.rs", LIB)]);
    let uri = uri_of(&scratch.workspace().join("src/lib.rs"));
    let mut client = LspClient::start(&scratch, ClientOptions::utf8());
    client.open("src/lib.rs", LIB);
    // Typed, not saved: a type error after an emoji on the same line.
    let typed = "    let s = \"😀\"; let n: u32 = \"three\";\n";
    let at = LIB.find("    words.len()").unwrap();
    client.edit("src/lib.rs", at, at, typed);

    let answer = client.build_command("issuewright.validate", json!({})).unwrap();
    assert_eq!(answer["passed"], false, "{answer}");
    assert_eq!(answer["reports"][0]["command"], "cargo check --workspace --all-targets --message-format=json");
    let published =
        client.wait_for_notification(|n| n["method"] == "textDocument/publishDiagnostics" && n["params"]["uri"] == uri);
    let error = published["params"]["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["code"] == "E0308")
        .unwrap_or_else(|| panic!("{published:#}"))
        .clone();
    // UTF-8 positions: bytes, so the emoji counts four.
    let byte = typed.find("\"three\"").unwrap();
    assert_eq!(error["range"]["start"], json!({"line": 1, "character": byte}));
    assert_eq!(scratch.read("src/lib.rs").unwrap(), LIB, "the file on disk is untouched");

    // Fixed in the buffer: the next validation clears the file.
    let buffer = client.buffer("src/lib.rs").unwrap();
    let start = buffer.find(typed).unwrap();
    client.edit("src/lib.rs", start, start + typed.len(), "");
    let answer = client.build_command("issuewright.validate", json!({"tests": true})).unwrap();
    assert_eq!(answer["passed"], true, "{answer}");
    assert_eq!(answer["reports"].as_array().unwrap().len(), 2, "check and tests");
    client.wait_for_notification(|n| {
        n["method"] == "textDocument/publishDiagnostics"
            && n["params"]["uri"] == uri
            && n["params"]["diagnostics"].as_array().is_some_and(Vec::is_empty)
    });
}

#[test]
fn saves_validate_when_configured_and_a_newer_save_supersedes_a_running_check() {
    let check = "sleep 2; echo 'src/a.txt:1:1: error E1 still wrong'; exit 1";
    let toml = format!(
        "[validate]\ncheck = {check:?}\nproblem_matcher = '^(?P<file>[^:]+):(?P<line>\\d+):(?P<column>\\d+): (?P<severity>error) (?P<code>\\w+) (?P<message>.*)$'\n"
    );
    let scratch = Scratch::new(&[(".issuewright.toml", &toml), ("src/a.txt", "a\n")]);
    let uri = uri_of(&scratch.workspace().join("src/a.txt"));
    let options =
        ClientOptions { initialization_options: json!({"validate": {"on_save": true}}), ..ClientOptions::default() };
    let mut client = LspClient::start(&scratch, options);
    client.open("src/a.txt", "a\n");
    let save = |client: &mut LspClient| client.notify("textDocument/didSave", json!({"textDocument": {"uri": uri}}));

    save(&mut client);
    std::thread::sleep(Duration::from_millis(1200)); // past the debounce: the check is running
    save(&mut client);
    save(&mut client); // within the debounce of the one before
    let published = client.wait_for_notification_within(
        |n| n["method"] == "textDocument/publishDiagnostics" && n["params"]["uri"] == uri,
        BUILD_TIMEOUT,
    );
    assert_eq!(published["params"]["diagnostics"][0]["message"], "still wrong");
    std::thread::sleep(Duration::from_millis(500));
    client.catch_up();
    let log = client.stderr();
    assert_eq!(log.matches("validating after save").count(), 2, "three saves, two validations:\n{log}");
    assert_eq!(log.matches("superseded by a newer save").count(), 1, "{log}");
    assert_eq!(published_for(&client, &uri).len(), 1, "the superseded check published nothing");
}

#[test]
fn saves_do_not_validate_by_default() {
    // A check that answers at once: were saves to validate, its problem would be published
    // well within the wait below.
    let toml = "[validate]\ncheck = \"echo 'src/a.txt:1:1: error E1 wrong'; exit 1\"\nproblem_matcher = '^(?P<file>[^:]+):(?P<line>\\d+):(?P<column>\\d+): (?P<severity>error) (?P<code>\\w+) (?P<message>.*)$'\n";
    let scratch = Scratch::new(&[(".issuewright.toml", toml), ("src/a.txt", "a\n")]);
    let uri = uri_of(&scratch.workspace().join("src/a.txt"));
    let mut client = LspClient::start(&scratch, ClientOptions::default());
    client.open("src/a.txt", "a\n");
    client.notify("textDocument/didSave", json!({"textDocument": {"uri": uri}}));
    std::thread::sleep(Duration::from_millis(1500)); // the debounce, and the check, over and again
    client.catch_up();
    assert!(!client.stderr().contains("validating after save"));
    assert!(published_for(&client, &uri).is_empty());
}

#[test]
fn a_build_file_added_while_the_server_runs_is_validated_with() {
    let scratch = Scratch::new(&[("src/lib.rs", LIB)]);
    let mut client = LspClient::start(&scratch, ClientOptions::default());
    let none = client.build_command("issuewright.validate", json!({})).unwrap();
    assert!(none["reports"][0]["notRun"].as_str().unwrap().starts_with("no check command"), "{none}");

    // The project gets its manifest (`cargo init`, a checkout) with the server running.
    scratch.write("Cargo.toml", CARGO_TOML);
    let answer = client.build_command("issuewright.validate", json!({})).unwrap();
    assert_eq!(answer["reports"][0]["command"], "cargo check --workspace --all-targets --message-format=json");
    assert_eq!(answer["passed"], true, "{answer}");
}

#[test]
fn a_build_whose_program_is_missing_is_not_run_and_keeps_the_diagnostics_shown() {
    // The check starts a program of its own (as an npm script starts `tsc`), missing once
    // `gone` exists.
    let check = "if [ -e gone ]; then no-such-compiler src; else echo 'src/a.txt:1:1: error E1 wrong'; exit 1; fi";
    let toml = format!(
        "[validate]\ncheck = {check:?}\nproblem_matcher = '^(?P<file>[^:]+):(?P<line>\\d+):(?P<column>\\d+): (?P<severity>error) (?P<code>\\w+) (?P<message>.*)$'\n"
    );
    let scratch = Scratch::new(&[(".issuewright.toml", &toml), ("src/a.txt", "a\n")]);
    let uri = uri_of(&scratch.workspace().join("src/a.txt"));
    let mut client = LspClient::start(&scratch, ClientOptions::default());
    let failed = client.build_command("issuewright.validate", json!({})).unwrap();
    assert_eq!(failed["errors"], 1, "{failed}");
    client.wait_for_notification(|n| {
        n["method"] == "textDocument/publishDiagnostics"
            && n["params"]["uri"] == uri
            && n["params"]["diagnostics"].as_array().is_some_and(|d| d.len() == 1)
    });

    scratch.write("gone", "");
    let missing = client.build_command("issuewright.validate", json!({})).unwrap();
    let not_run = missing["reports"][0]["notRun"].as_str().unwrap_or_else(|| panic!("{missing}"));
    assert!(not_run.starts_with("the build could not start `no-such-compiler` ("), "{not_run}");
    assert!(not_run.contains("install it, or start the editor with a PATH that holds it"), "{not_run}");
    std::thread::sleep(Duration::from_millis(300));
    client.catch_up();
    let last = published_for(&client, &uri).last().copied().cloned().unwrap();
    assert_eq!(last["params"]["diagnostics"].as_array().unwrap().len(), 1, "still shown: {last}");
}
