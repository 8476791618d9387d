//! The `issuewright.*` commands end to end: run, status, proposal, discard, cancel, errors,
//! and proposals that outlive a restart.

use issuewright_tests::lsp::{ClientOptions, LspClient};
use issuewright_tests::{Scratch, done, ledger, replay, turn, uri_of};
use serde_json::{Value, json};

/// A workspace and a replay that modifies, creates and deletes a file, with one ambiguous patch.
fn three_kinds() -> Scratch {
    let scratch = Scratch::new(&[
        ("src/main.rs", "fn main() {\n    println!(\"hi\");\n}\n"),
        ("src/dup.rs", "x\nx\n"),
        ("old.txt", "obsolete\n"),
    ]);
    scratch.write(
        "replay.jsonl",
        &replay(&[
            json!({"content": "Looking around.", "tool_calls": [{"id": "1", "name": "list_files", "arguments": {}}]}),
            turn(&[
                ("patch_file", json!({"path": "src/main.rs", "old_text": "\"hi\"", "new_text": "\"hello\""})),
                ("patch_file", json!({"path": "src/dup.rs", "old_text": "x", "new_text": "y"})),
                ("write_file", json!({"path": "src/new.rs", "content": "pub fn new() {}\n"})),
                ("delete_file", json!({"path": "old.txt"})),
            ]),
            done("Greets properly now."),
        ]),
    );
    scratch
}

#[test]
fn a_run_reports_ready_with_its_counters() {
    let scratch = three_kinds();
    let mut client = LspClient::start(&scratch, ClientOptions::default());
    let started =
        client.command("issuewright.implementIssue", json!({"issue": "Say hello", "replay": "replay.jsonl"})).unwrap();
    let run_id = started["runId"].as_str().unwrap().to_owned();
    assert_eq!(run_id.len(), "20261121-170312-4fa9".len(), "{run_id}");
    let status = client.wait_for_run(&run_id);
    assert_eq!(status["state"], "ready");
    assert_eq!(status["rounds"], 3);
    assert_eq!(status["toolCalls"], 5);
    assert_eq!(status["failedToolCalls"], 1, "the ambiguous patch");
    assert_eq!(status["summary"], "Greets properly now.");
    assert_eq!(status["files"], 3);
    assert!(status.get("error").is_none(), "{status}");
}

#[test]
fn the_proposal_is_an_annotated_workspace_edit_with_files_and_diff() {
    let scratch = three_kinds();
    let mut client = LspClient::start(&scratch, ClientOptions::default());
    client.open("src/main.rs", "fn main() {\n    println!(\"hi\");\n}\n");
    let (run_id, _) = client.run_issue("Say hello", "replay.jsonl");
    let proposal = client.command("issuewright.proposal", json!({"runId": run_id})).unwrap();

    let files: Vec<(String, String)> = proposal["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| (f["path"].as_str().unwrap().to_owned(), f["kind"].as_str().unwrap().to_owned()))
        .collect();
    assert_eq!(
        files,
        [
            ("old.txt".into(), "deleted".into()),
            ("src/main.rs".into(), "modified".into()),
            ("src/new.rs".into(), "created".into())
        ]
    );

    let operations = proposal["edit"]["documentChanges"].as_array().unwrap();
    let workspace = scratch.workspace();
    assert_eq!(operations[0]["kind"], "delete");
    assert_eq!(operations[0]["uri"], uri_of(&workspace.join("old.txt")));
    let main = &operations[1];
    assert_eq!(main["textDocument"]["uri"], uri_of(&workspace.join("src/main.rs")));
    assert_eq!(main["textDocument"]["version"], 1, "the open document's version");
    assert_eq!(main["edits"][0]["newText"], "    println!(\"hello\");\n");
    assert_eq!(main["edits"][0]["range"]["start"], json!({"line": 1, "character": 0}));
    assert_eq!(operations[2]["kind"], "create");
    assert_eq!(operations[3]["textDocument"]["version"], Value::Null, "not open");
    for operation in operations {
        let ids: Vec<&Value> = match operation.get("edits") {
            Some(edits) => edits.as_array().unwrap().iter().map(|e| &e["annotationId"]).collect(),
            None => vec![&operation["annotationId"]],
        };
        assert!(ids.iter().all(|id| *id == "issuewright.proposal"), "{operation}");
    }
    let annotation = &proposal["edit"]["changeAnnotations"]["issuewright.proposal"];
    assert_eq!(annotation["needsConfirmation"], true);
    assert_eq!(annotation["label"], "issuewright: Say hello");

    let diff = proposal["diff"].as_str().unwrap();
    assert!(diff.contains("-    println!(\"hi\");\n+    println!(\"hello\");"), "{diff}");
    assert!(diff.contains("--- /dev/null\n+++ b/src/new.rs"), "{diff}");
    assert!(diff.contains("--- a/old.txt\n+++ /dev/null"), "{diff}");
}

#[test]
fn the_run_record_holds_ledger_proposal_and_diff() {
    let scratch = three_kinds();
    let mut client = LspClient::start(&scratch, ClientOptions::default());
    let (run_id, _) = client.run_issue("Say hello", "replay.jsonl");
    let record = scratch.workspace().join(".issuewright");
    assert_eq!(std::fs::read_to_string(record.join(".gitignore")).unwrap(), "*\n");
    let events = ledger(&scratch.workspace(), &run_id);
    let kinds: Vec<&str> = events.iter().map(|e| e["event"].as_str().unwrap()).collect();
    assert_eq!(kinds.first(), Some(&"run_started"));
    assert_eq!(kinds.last(), Some(&"run_finished"));
    assert_eq!(kinds.iter().filter(|k| **k == "model_turn").count(), 3);
    let ambiguous =
        events.iter().find(|e| e["event"] == "tool_result" && e["ok"] == false).expect("the failed patch is recorded");
    assert!(ambiguous["output"].as_str().unwrap().contains("occurs 2 times in `src/dup.rs` (starting at lines 1, 2)"));
    let call = events.iter().find(|e| e["event"] == "tool_call" && e["name"] == "write_file").unwrap();
    assert_eq!(call["arguments"]["path"], "src/new.rs", "arguments are recorded");
    let run_dir = record.join("runs").join(&run_id);
    let stored: Value = serde_json::from_str(&std::fs::read_to_string(run_dir.join("proposal.json")).unwrap()).unwrap();
    assert_eq!(stored["changes"].as_array().unwrap().len(), 3);
    assert!(std::fs::read_to_string(run_dir.join("diff.patch")).unwrap().contains("+++ b/src/new.rs"));
    assert_eq!(scratch.read("src/dup.rs").unwrap(), "x\nx\n", "nothing touched the files");
    assert_eq!(scratch.read("old.txt").unwrap(), "obsolete\n");
}

#[test]
fn bad_requests_get_errors_that_say_what_to_do() {
    let scratch = Scratch::new(&[("broken.jsonl", "{\"tool_calls\": 7}\n")]);
    let mut client = LspClient::start(&scratch, ClientOptions::default());
    let message = |error: Value| error["message"].as_str().unwrap().to_owned();

    scratch.write(".issuewright.toml", "[provider]\nkind = \"gemini\"\n");
    let bad_config = client.command("issuewright.implementIssue", json!({"issue": "x"})).unwrap_err();
    let text = message(bad_config);
    assert!(text.contains(".issuewright.toml") && text.contains("unknown variant `gemini`"), "{text}");
    std::fs::remove_file(scratch.workspace().join(".issuewright.toml")).unwrap();
    let missing_issue = client
        .command("issuewright.implementIssue", json!({"issue": "@nope.md", "replay": "broken.jsonl"}))
        .unwrap_err();
    assert!(message(missing_issue).contains("cannot read issue file"));
    let bad_id = client.command("issuewright.proposal", json!({"runId": "../../etc"})).unwrap_err();
    assert!(message(bad_id).contains("is not a run id"));
    let typo = client.command("issuewright.implementIssue", json!({"issue": "x", "replya": "r"})).unwrap_err();
    assert!(message(typo).contains("unknown field `replya`"));

    // A malformed replay file fails the run, with the line, and keeps its record.
    let (run_id, status) = client.run_issue("Do it", "broken.jsonl");
    assert_eq!(status["state"], "failed");
    assert!(status["error"].as_str().unwrap().contains("broken.jsonl` line 1"), "{status}");
    let failed = client.wait_for_notification(|n| n["method"] == "window/showMessage" && n["params"]["type"] == 1);
    assert!(failed["params"]["message"].as_str().unwrap().contains(&run_id));
    assert!(!ledger(&scratch.workspace(), &run_id).is_empty());
    let missing_file = client.run_issue("Do it", "absent.jsonl").1;
    assert!(missing_file["error"].as_str().unwrap().contains("cannot read replay file"), "{missing_file}");
}

#[test]
fn discarded_proposals_cannot_be_shown_or_applied() {
    let scratch = three_kinds();
    let mut client = LspClient::start(&scratch, ClientOptions::default());
    let (run_id, _) = client.run_issue("Say hello", "replay.jsonl");
    let discarded = client.command("issuewright.discardProposal", json!({"runId": run_id})).unwrap();
    assert_eq!(discarded["discarded"], true);
    for command in ["issuewright.proposal", "issuewright.applyProposal"] {
        let error = client.command(command, json!({"runId": run_id})).unwrap_err();
        assert!(error["message"].as_str().unwrap().contains("was discarded"), "{error}");
    }
    let kinds: Vec<Value> = ledger(&scratch.workspace(), &run_id).iter().map(|e| e["event"].clone()).collect();
    assert_eq!(kinds.last().unwrap(), "proposal_discarded");
    assert!(client.server_requests.iter().all(|r| r["method"] != "workspace/applyEdit"));
}

#[test]
fn cancelling_a_finished_run_changes_nothing() {
    let scratch = three_kinds();
    let mut client = LspClient::start(&scratch, ClientOptions::default());
    let (run_id, _) = client.run_issue("Say hello", "replay.jsonl");
    let answer = client.command("issuewright.cancel", json!({"runId": run_id})).unwrap();
    assert_eq!(answer["cancelled"], false);
    assert_eq!(client.wait_for_run(&run_id)["state"], "ready");
}

#[test]
fn proposals_survive_a_restart() {
    let scratch = three_kinds();
    let (run_id, before) = {
        let mut first = LspClient::start(&scratch, ClientOptions::default());
        let (run_id, status) = first.run_issue("Say hello", "replay.jsonl");
        assert!(first.shutdown().success());
        (run_id, status)
    };
    let mut second = LspClient::start(&scratch, ClientOptions::default());
    let status = second.command("issuewright.runStatus", json!({"runId": run_id})).unwrap();
    assert_eq!(status["state"], "ready");
    assert_eq!(status["files"], 3);
    assert_eq!(status["failedToolCalls"], 1);
    for key in ["rounds", "toolCalls", "schemaViolations", "parseRepairs", "usage", "summary"] {
        assert_eq!(status[key], before[key], "{key} is the same after the restart");
    }
    let applied = second.command("issuewright.applyProposal", json!({"runId": run_id})).unwrap();
    assert_eq!(applied["verified"], true, "{applied}");
    assert_eq!(scratch.read("src/new.rs").unwrap(), "pub fn new() {}\n");
    assert_eq!(scratch.read("old.txt"), None);
}

#[test]
fn a_proposal_viewed_after_a_restart_names_no_document_version_of_the_session_before() {
    let scratch = three_kinds();
    let run_id = {
        let mut first = LspClient::start(&scratch, ClientOptions::default());
        first.open("src/main.rs", "fn main() {\n    println!(\"hi\");\n}\n");
        let (run_id, _) = first.run_issue("Say hello", "replay.jsonl");
        let proposal = first.command("issuewright.proposal", json!({"runId": run_id})).unwrap();
        let main = edit_of(&proposal, "src/main.rs");
        assert_eq!(main["textDocument"]["version"], 1, "the open buffer's, in its session");
        assert!(first.shutdown().success());
        run_id
    };
    // A new session: the same file opened again is at version 1 too, with other text.
    let mut second = LspClient::start(&scratch, ClientOptions::default());
    second.open("src/main.rs", "fn main() {\n    // typed since\n    println!(\"hi\");\n}\n");
    let proposal = second.command("issuewright.proposal", json!({"runId": run_id})).unwrap();
    let main = edit_of(&proposal, "src/main.rs");
    assert!(main["textDocument"]["version"].is_null(), "{main}");
}

/// The text document edit of `path` in a proposal's `edit`.
fn edit_of(proposal: &Value, path: &str) -> Value {
    let operations = proposal["edit"]["documentChanges"].as_array().unwrap();
    operations
        .iter()
        .find(|op| op["textDocument"]["uri"].as_str().is_some_and(|uri| uri.ends_with(path)))
        .unwrap_or_else(|| panic!("no edit of {path}: {proposal:#}"))
        .clone()
}

#[test]
fn an_issue_file_typed_in_the_editor_and_not_saved_is_the_one_implemented() {
    let scratch = three_kinds();
    let mut client = LspClient::start(&scratch, ClientOptions::default());
    client.open("ISSUE.md", "# Greet with hello\n\nThe greeting should say hello.\n");
    assert!(scratch.read("ISSUE.md").is_none(), "only in the editor");
    let (run_id, status) = client.run_issue("@ISSUE.md", "replay.jsonl");
    assert_eq!(status["state"], "ready", "{status}");
    let started = ledger(&scratch.workspace(), &run_id).into_iter().find(|e| e["event"] == "run_started").unwrap();
    assert!(started.to_string().contains("Greet with hello"), "{started}");
}
