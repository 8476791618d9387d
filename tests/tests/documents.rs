//! Document sync as the agent sees it: a run reads the editor's unsaved buffers, kept
//! current by incremental changes in the negotiated encoding.

use issuewright_tests::lsp::{ClientOptions, LspClient};
use issuewright_tests::{Scratch, done, ledger, replay, turn};
use serde_json::{Value, json};

const TEXT: &str = "// héllo wörld\nlet s = \"😀 日本語 e\u{301}\";\nend\n";

/// The text a `read_file` call returned to the model, from the run's ledger.
fn read_result(client: &LspClient, run_id: &str) -> String {
    let events = ledger(client.root(), run_id);
    let output = events
        .iter()
        .find(|e| e["event"] == "tool_result" && e["name"] == "read_file")
        .expect("a read_file result")["output"]
        .as_str()
        .unwrap()
        .to_owned();
    output.split_once(":\n").expect("header line").1.to_owned()
}

fn read_twice(path: &str) -> String {
    replay(&[turn(&[("read_file", json!({"path": path}))]), done("read")])
}

fn typing_session(options: ClientOptions) {
    let scratch = Scratch::new(&[("src/text.rs", "on disk only\n")]);
    scratch.write("replay.jsonl", &read_twice("src/text.rs"));
    let mut client = LspClient::start(&scratch, options);
    client.open("src/text.rs", TEXT);
    // Replace the emoji (after `"`), insert after the combining mark, then add a line.
    let emoji = TEXT.find('😀').unwrap();
    client.edit("src/text.rs", emoji, emoji + '😀'.len_utf8(), "🎉🎉");
    let after_mark = client.buffer("src/text.rs").unwrap().find('\u{301}').unwrap() + '\u{301}'.len_utf8();
    client.edit("src/text.rs", after_mark, after_mark, "→x");
    let end = client.buffer("src/text.rs").unwrap().len();
    client.edit("src/text.rs", end, end, "新しい行\n");

    let (run_id, status) = client.run_issue("read the file", "replay.jsonl");
    assert_eq!(status["state"], "ready", "{status}");
    let expected = client.buffer("src/text.rs").unwrap();
    assert!(expected.contains("🎉🎉 日本語 e\u{301}→x\";\nend\n新しい行\n"), "{expected}");
    assert_eq!(read_result(&client, &run_id), expected);
}

#[test]
fn incremental_changes_in_utf16_keep_the_buffer_exact() {
    typing_session(ClientOptions::default());
}

#[test]
fn incremental_changes_in_utf8_keep_the_buffer_exact() {
    typing_session(ClientOptions::utf8());
}

#[test]
fn crlf_buffers_stay_crlf_through_edits() {
    let scratch = Scratch::new(&[]);
    scratch.write("replay.jsonl", &read_twice("w.txt"));
    let mut client = LspClient::start(&scratch, ClientOptions::default());
    client.open("w.txt", "one\r\ntwo\r\nthree\r\n");
    let at = "one\r\ntwo".len();
    client.edit("w.txt", at, at, " and a half");
    let (run_id, _) = client.run_issue("read", "replay.jsonl");
    assert_eq!(read_result(&client, &run_id), "one\r\ntwo and a half\r\nthree\r\n");
}

#[test]
fn closed_documents_read_from_disk_again() {
    let scratch = Scratch::new(&[("a.txt", "disk\n")]);
    scratch.write("replay.jsonl", &read_twice("a.txt"));
    let mut client = LspClient::start(&scratch, ClientOptions::default());
    client.open("a.txt", "buffer\n");
    client.close("a.txt");
    let (run_id, _) = client.run_issue("read", "replay.jsonl");
    assert_eq!(read_result(&client, &run_id), "disk\n");
}

/// Types `fn unsaved() {}` over `fn old() {}` in an open buffer (never saved), and has a run
/// rename it with a patch that only the buffer's text can match: the proposal's first
/// document change.
fn rename_in_unsaved_buffer(scratch: &Scratch, options: ClientOptions) -> Value {
    let patch = json!({"path": "src/lib.rs", "old_text": "fn unsaved() {}", "new_text": "fn renamed() {}"});
    scratch.write("replay.jsonl", &replay(&[turn(&[("patch_file", patch)]), done("renamed")]));
    let mut client = LspClient::start(scratch, options);
    client.open("src/lib.rs", "fn old() {}\n");
    client.edit("src/lib.rs", 0, "fn old() {}".len(), "fn unsaved() {}");
    let (run_id, status) = client.run_issue("rename", "replay.jsonl");
    assert_eq!(status["failedToolCalls"], 0, "the run read the unsaved buffer: {status}");
    let proposal = client.command("issuewright.proposal", json!({"runId": run_id})).unwrap();
    proposal["edit"]["documentChanges"][0].clone()
}

#[test]
fn a_patch_matches_unsaved_buffer_text_and_carries_its_version() {
    let scratch = Scratch::new(&[("src/lib.rs", "fn old() {}\n")]);
    let edit = rename_in_unsaved_buffer(&scratch, ClientOptions::default());
    assert_eq!(edit["textDocument"]["version"], 2, "the version of the buffer the run read");
    assert_eq!(scratch.read("src/lib.rs").unwrap(), "fn old() {}\n", "disk untouched");
}

#[test]
fn a_workspace_opened_through_a_link_still_sees_its_buffers() {
    // `/home/me/project` where `/home` is a link, `/tmp` on macOS: the editor names files
    // through the link; the server must match them, and answer in the same names.
    let scratch = Scratch::new(&[("src/lib.rs", "fn old() {}\n")]);
    let alias = scratch.home().join("linked-workspace");
    std::os::unix::fs::symlink(scratch.workspace(), &alias).unwrap();
    let edit =
        rename_in_unsaved_buffer(&scratch, ClientOptions { root: Some(alias.clone()), ..ClientOptions::default() });
    assert_eq!(edit["textDocument"]["uri"], issuewright_tests::uri_of(&alias.join("src/lib.rs")));
    assert_eq!(edit["textDocument"]["version"], 2);
}
