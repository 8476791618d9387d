//! Applying proposals: all or some files, carried onto the user's later edits, never over them.

use issuewright_tests::editor::ApplyMode;
use issuewright_tests::lsp::{ClientOptions, LspClient};
use issuewright_tests::{Scratch, done, ledger, replay, turn};
use serde_json::{Value, json};

const LIB: &str =
    "pub fn one() -> u8 {\n    1\n}\n\npub fn two() -> u8 {\n    2\n}\n\npub fn three() -> u8 {\n    3\n}\n";

/// `src/lib.rs` gets `one` returning 10; `notes/ünï 😀.md` is created; `old.txt` is deleted.
fn scratch() -> Scratch {
    let scratch = Scratch::new(&[("src/lib.rs", LIB), ("old.txt", "old\n"), ("README.md", "Read me\n")]);
    scratch.write(
        "replay.jsonl",
        &replay(&[
            turn(&[
                ("patch_file", json!({"path": "src/lib.rs", "old_text": "    1\n", "new_text": "    10\n"})),
                ("write_file", json!({"path": "notes/ünï 😀.md", "content": "# Notes\n\nDone ✓\n"})),
                ("delete_file", json!({"path": "old.txt"})),
            ]),
            done("one is ten"),
        ]),
    );
    scratch
}

fn statuses(answer: &Value) -> Vec<(String, String)> {
    let mut all: Vec<(String, String)> = answer["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| (f["path"].as_str().unwrap().to_owned(), f["status"].as_str().unwrap().to_owned()))
        .collect();
    all.sort();
    all
}

fn applied_lib() -> String {
    LIB.replace("    1\n", "    10\n")
}

#[test]
fn applying_everything_changes_buffers_and_files_as_proposed() {
    let scratch = scratch();
    let mut client = LspClient::start(&scratch, ClientOptions::default());
    client.open("src/lib.rs", LIB);
    let (run_id, _) = client.run_issue("ten", "replay.jsonl");
    assert_eq!(scratch.read("old.txt").as_deref(), Some("old\n"), "nothing before apply");

    let answer = client.command("issuewright.applyProposal", json!({"runId": run_id})).unwrap();
    assert_eq!(answer["applied"], true);
    assert_eq!(answer["verified"], true, "{answer}");
    assert_eq!(answer["state"], "ready");
    assert_eq!(
        statuses(&answer),
        [
            ("notes/ünï 😀.md".into(), "applied".into()),
            ("old.txt".into(), "applied".into()),
            ("src/lib.rs".into(), "applied".into())
        ]
    );
    assert_eq!(client.buffer("src/lib.rs").unwrap(), applied_lib());
    assert_eq!(scratch.read("notes/ünï 😀.md").unwrap(), "# Notes\n\nDone ✓\n");
    assert_eq!(scratch.read("old.txt"), None);
    assert_eq!(scratch.read("README.md").unwrap(), "Read me\n");
    let last = ledger(&scratch.workspace(), &run_id).pop().unwrap();
    assert_eq!(last["event"], "proposal_applied");

    let again = client.command("issuewright.applyProposal", json!({"runId": run_id})).unwrap();
    assert!(statuses(&again).iter().all(|(_, status)| status == "alreadyApplied"), "{again}");
}

#[test]
fn the_unfinished_changes_of_a_failed_run_say_so_when_applied() {
    let scratch = scratch();
    // The model's session ends before it says it is done.
    let changes = ("patch_file", json!({"path": "src/lib.rs", "old_text": "    1\n", "new_text": "    10\n"}));
    scratch.write("cut.jsonl", &replay(&[turn(&[changes])]));
    let mut client = LspClient::start(&scratch, ClientOptions::default());
    let (run_id, status) = client.run_issue("ten", "cut.jsonl");
    assert_eq!(status["state"], "failed", "{status}");
    let answer = client.command("issuewright.applyProposal", json!({"runId": run_id})).unwrap();
    assert_eq!(answer["state"], "failed", "{answer}");
    let request = client.server_requests.iter().find(|r| r["method"] == "workspace/applyEdit").unwrap();
    let label = request["params"]["label"].as_str().unwrap();
    assert!(label.contains("unfinished: the run failed"), "{label}");
    assert_eq!(scratch.read("src/lib.rs").unwrap(), applied_lib(), "applied as asked");
}

#[test]
fn only_the_listed_files_are_applied() {
    let scratch = scratch();
    let mut client = LspClient::start(&scratch, ClientOptions::default());
    let (run_id, _) = client.run_issue("ten", "replay.jsonl");
    let answer =
        client.command("issuewright.applyProposal", json!({"runId": run_id, "files": ["src/lib.rs"]})).unwrap();
    assert_eq!(statuses(&answer), [("src/lib.rs".into(), "applied".into())]);
    assert_eq!(scratch.read("src/lib.rs").unwrap(), applied_lib());
    assert_eq!(scratch.read("old.txt").as_deref(), Some("old\n"));
    let unknown =
        client.command("issuewright.applyProposal", json!({"runId": run_id, "files": ["README.md"]})).unwrap_err();
    assert!(unknown["message"].as_str().unwrap().contains("`README.md` is not part of the proposal"), "{unknown}");
}

#[test]
fn edits_made_after_the_run_are_kept_when_they_do_not_overlap() {
    let scratch = scratch();
    let mut client = LspClient::start(&scratch, ClientOptions::default());
    client.open("src/lib.rs", LIB);
    let (run_id, _) = client.run_issue("ten", "replay.jsonl");
    // The user changes `three` while the proposal waits.
    let at = client.buffer("src/lib.rs").unwrap().find("    3\n").unwrap();
    client.edit("src/lib.rs", at, at + "    3".len(), "    33");
    let answer = client.command("issuewright.applyProposal", json!({"runId": run_id})).unwrap();
    assert_eq!(answer["verified"], true, "{answer}");
    assert_eq!(client.buffer("src/lib.rs").unwrap(), applied_lib().replace("    3\n", "    33\n"));
}

#[test]
fn overlapping_edits_refuse_the_apply_and_name_the_file() {
    let scratch = scratch();
    let mut client = LspClient::start(&scratch, ClientOptions::default());
    client.open("src/lib.rs", LIB);
    let (run_id, _) = client.run_issue("ten", "replay.jsonl");
    let at = LIB.find("    1\n").unwrap();
    client.edit("src/lib.rs", at, at + "    1".len(), "    100");
    let user_text = client.buffer("src/lib.rs").unwrap();

    let error = client.command("issuewright.applyProposal", json!({"runId": run_id})).unwrap_err();
    let message = error["message"].as_str().unwrap();
    assert!(message.contains("nothing was applied"), "{message}");
    assert!(message.contains("`src/lib.rs` was edited since the run read it"), "{message}");
    assert_eq!(error["data"]["conflicts"][0]["path"], "src/lib.rs");
    assert!(client.server_requests.iter().all(|r| r["method"] != "workspace/applyEdit"), "no edit sent");
    assert_eq!(client.buffer("src/lib.rs").unwrap(), user_text);
    assert_eq!(scratch.read("old.txt").as_deref(), Some("old\n"), "not even the other files");

    // The rest can still be applied by naming it.
    let rest = client
        .command("issuewright.applyProposal", json!({"runId": run_id, "files": ["old.txt", "notes/ünï 😀.md"]}))
        .unwrap();
    assert_eq!(rest["verified"], true, "{rest}");
}

#[test]
fn a_file_created_meanwhile_is_never_overwritten() {
    let scratch = scratch();
    let mut client = LspClient::start(&scratch, ClientOptions::default());
    let (run_id, _) = client.run_issue("ten", "replay.jsonl");
    scratch.write("notes/ünï 😀.md", "mine\n");
    let error = client.command("issuewright.applyProposal", json!({"runId": run_id})).unwrap_err();
    assert!(error["message"].as_str().unwrap().contains("was created by someone else"), "{error}");
    assert_eq!(scratch.read("notes/ünï 😀.md").unwrap(), "mine\n");
}

#[test]
fn a_file_created_meanwhile_that_is_not_text_is_never_written_over() {
    let scratch = scratch();
    let mut client = LspClient::start(&scratch, ClientOptions::default());
    let (run_id, _) = client.run_issue("ten", "replay.jsonl");
    let binary = scratch.workspace().join("notes/ünï 😀.md");
    std::fs::create_dir_all(binary.parent().unwrap()).unwrap();
    std::fs::write(&binary, b"\xff\xfe not UTF-8").unwrap();
    let error = client.command("issuewright.applyProposal", json!({"runId": run_id})).unwrap_err();
    assert!(error["message"].as_str().unwrap().contains("cannot be read now"), "{error}");
    assert_eq!(std::fs::read(&binary).unwrap(), b"\xff\xfe not UTF-8");
    assert_eq!(scratch.read("src/lib.rs").unwrap(), LIB, "nothing is applied on a conflict");
}

#[test]
fn a_deleted_file_edited_meanwhile_is_kept() {
    let scratch = scratch();
    let mut client = LspClient::start(&scratch, ClientOptions::default());
    let (run_id, _) = client.run_issue("ten", "replay.jsonl");
    scratch.write("old.txt", "old, but edited\n");
    let error = client.command("issuewright.applyProposal", json!({"runId": run_id})).unwrap_err();
    assert!(error["message"].as_str().unwrap().contains("deleting it would lose that edit"), "{error}");
    assert_eq!(scratch.read("old.txt").unwrap(), "old, but edited\n");
}

#[test]
fn an_editor_that_silently_skips_the_edit_is_caught() {
    let scratch = scratch();
    let mut client = LspClient::start(&scratch, ClientOptions::default());
    client.open("src/lib.rs", LIB);
    let (run_id, _) = client.run_issue("ten", "replay.jsonl");
    client.editor.apply_mode = ApplyMode::IgnoreButSayApplied;
    let answer = client.command("issuewright.applyProposal", json!({"runId": run_id})).unwrap();
    assert_eq!(answer["applied"], true, "the editor's own answer");
    assert_eq!(answer["verified"], false);
    assert!(statuses(&answer).iter().all(|(_, status)| status == "notApplied"), "{answer}");
    let warning = client.wait_for_notification(|n| n["method"] == "window/showMessage" && n["params"]["type"] == 2);
    assert!(warning["params"]["message"].as_str().unwrap().contains("src/lib.rs"), "{warning}");
}

#[test]
fn an_editor_refusal_is_reported() {
    let scratch = scratch();
    let mut client = LspClient::start(&scratch, ClientOptions::default());
    let (run_id, _) = client.run_issue("ten", "replay.jsonl");
    client.editor.apply_mode = ApplyMode::Refuse;
    let answer = client.command("issuewright.applyProposal", json!({"runId": run_id})).unwrap();
    assert_eq!(answer["applied"], false);
    assert_eq!(answer["failureReason"], "refused by the test");
    assert_eq!(scratch.read("src/lib.rs").unwrap(), LIB);
}

#[test]
fn an_editor_that_stops_partway_is_told_which_files_it_changed() {
    let scratch = scratch();
    let mut client = LspClient::start(&scratch, ClientOptions::default());
    client.open("src/lib.rs", LIB);
    let (run_id, _) = client.run_issue("ten", "replay.jsonl");
    client.editor.apply_mode = ApplyMode::StopAfter(1);
    let answer = client.command("issuewright.applyProposal", json!({"runId": run_id})).unwrap();
    assert_eq!(answer["applied"], false, "{answer}");
    assert_eq!(answer["verified"], false, "{answer}");
    // What each file holds now, against what the answer says of it.
    let changed = [
        ("notes/ünï 😀.md", scratch.read("notes/ünï 😀.md").is_some()),
        ("old.txt", scratch.read("old.txt").is_none()),
        ("src/lib.rs", client.buffer("src/lib.rs").unwrap() == applied_lib()),
    ];
    assert_eq!(changed.iter().filter(|(_, changed)| *changed).count(), 1, "the editor made one change: {changed:?}");
    let expected: Vec<(String, String)> = changed
        .iter()
        .map(|(path, changed)| (path.to_string(), if *changed { "applied" } else { "notApplied" }.to_string()))
        .collect();
    assert_eq!(statuses(&answer), expected, "{answer}");
    let warning = client.wait_for_notification(|n| n["method"] == "window/showMessage" && n["params"]["type"] == 2);
    let message = warning["params"]["message"].as_str().unwrap();
    let (first, _) = changed.iter().find(|(_, changed)| *changed).unwrap();
    assert!(
        message.contains("stopped partway") && message.contains(first) && message.contains("stopped by the test"),
        "{message}"
    );
    let last = ledger(&scratch.workspace(), &run_id).pop().unwrap();
    assert_eq!(last["event"], "proposal_applied", "the record says the files were touched: {last}");
}

#[test]
fn document_changes_that_arrive_after_the_answer_still_verify() {
    let scratch = scratch();
    let mut client = LspClient::start(&scratch, ClientOptions::default());
    client.open("src/lib.rs", LIB);
    let (run_id, _) = client.run_issue("ten", "replay.jsonl");
    client.editor.notify_after_answer = true;
    let answer = client.command("issuewright.applyProposal", json!({"runId": run_id})).unwrap();
    assert_eq!(answer["verified"], true, "{answer}");
}

#[test]
fn a_client_without_document_changes_gets_changes_and_is_told_what_it_cannot_take() {
    let scratch = scratch();
    let options = ClientOptions { capabilities: json!({"workspace": {"applyEdit": true}}), ..ClientOptions::default() };
    let mut client = LspClient::start(&scratch, options);
    let (run_id, _) = client.run_issue("ten", "replay.jsonl");
    let proposal = client.command("issuewright.proposal", json!({"runId": run_id})).unwrap();
    assert!(proposal["edit"].get("documentChanges").is_none(), "{proposal}");
    assert_eq!(proposal["edit"]["changes"].as_object().unwrap().len(), 1);
    assert!(proposal["edit"].get("changeAnnotations").is_none());
    let skipped: Vec<&str> =
        proposal["skipped"].as_array().unwrap().iter().map(|s| s["path"].as_str().unwrap()).collect();
    assert_eq!(skipped, ["old.txt", "notes/ünï 😀.md"]);

    let answer = client.command("issuewright.applyProposal", json!({"runId": run_id})).unwrap();
    let statuses = statuses(&answer);
    assert!(statuses.contains(&("src/lib.rs".into(), "applied".into())), "{answer}");
    assert!(statuses.contains(&("old.txt".into(), "skipped".into())), "{answer}");
    let reason = answer["files"].as_array().unwrap().iter().find(|f| f["path"] == "old.txt").unwrap()["detail"].clone();
    assert!(reason.as_str().unwrap().contains("cannot delete files"), "{reason}");
    assert_eq!(scratch.read("old.txt").as_deref(), Some("old\n"));
    assert_eq!(answer["applied"], true);
    assert_eq!(answer["verified"], false, "two files of the proposal are not in the workspace: {answer}");
    let told = client.wait_for_notification(|n| {
        n["method"] == "window/showMessage" && n["params"]["message"].as_str().unwrap().contains("applied all but")
    });
    let told = told["params"]["message"].as_str().unwrap();
    assert!(told.contains("applied all but old.txt, notes/ünï 😀.md") && told.contains("git apply"), "{told}");
}

#[test]
fn an_empty_list_of_files_to_apply_is_refused() {
    let scratch = scratch();
    let mut client = LspClient::start(&scratch, ClientOptions::default());
    let (run_id, _) = client.run_issue("ten", "replay.jsonl");
    let refused = client.command("issuewright.applyProposal", json!({"runId": run_id, "files": []})).unwrap_err();
    assert!(refused["message"].as_str().unwrap().contains("`files` is empty"), "{refused}");
    let two = client.request(
        "workspace/executeCommand",
        json!({"command": "issuewright.applyProposal", "arguments": [{"runId": run_id}, {"runId": run_id}]}),
    );
    assert!(two.unwrap_err()["message"].as_str().unwrap().contains("takes one argument object"));
}

#[test]
fn when_the_editor_can_take_none_of_the_chosen_files_nothing_is_said_to_be_applied() {
    let scratch = scratch();
    let options = ClientOptions { capabilities: json!({"workspace": {"applyEdit": true}}), ..ClientOptions::default() };
    let mut client = LspClient::start(&scratch, options);
    let (run_id, _) = client.run_issue("ten", "replay.jsonl");
    let answer = client
        .command("issuewright.applyProposal", json!({"runId": run_id, "files": ["old.txt", "notes/ünï 😀.md"]}))
        .unwrap();
    assert_eq!(answer["applied"], false, "{answer}");
    assert_eq!(answer["verified"], false, "{answer}");
    let reason = answer["failureReason"].as_str().unwrap();
    assert!(reason.contains("git apply") && reason.contains(&format!("{run_id}/diff.patch")), "{reason}");
    assert_eq!(statuses(&answer), [("notes/ünï 😀.md".into(), "skipped".into()), ("old.txt".into(), "skipped".into())]);
    assert!(client.server_requests.iter().all(|r| r["method"] != "workspace/applyEdit"), "no edit sent");
    assert_eq!(scratch.read("old.txt").as_deref(), Some("old\n"));
}

#[test]
fn an_editor_that_takes_no_edits_is_told_how_to_apply_the_proposal_instead() {
    let scratch = scratch();
    let options = ClientOptions { capabilities: json!({"workspace": {}}), ..ClientOptions::default() };
    let mut client = LspClient::start(&scratch, options);
    let (run_id, _) = client.run_issue("ten", "replay.jsonl");
    let error = client.command("issuewright.applyProposal", json!({"runId": run_id})).unwrap_err();
    assert_eq!(error["code"], -32803, "LSP's RequestFailed: {error}");
    let message = error["message"].as_str().unwrap();
    assert!(message.contains("workspace.applyEdit"), "{message}");
    assert!(message.contains(&format!(".issuewright/runs/{run_id}/diff.patch")), "{message}");
    assert!(client.server_requests.iter().all(|r| r["method"] != "workspace/applyEdit"), "no edit sent");
    assert_eq!(scratch.read("src/lib.rs").as_deref(), Some(LIB));
    assert_eq!(scratch.read("old.txt").as_deref(), Some("old\n"));
    let diff = scratch.read(&format!(".issuewright/runs/{run_id}/diff.patch")).expect("the run's diff is kept");
    assert!(diff.contains("+    10"), "{diff}");
}

#[test]
fn utf8_clients_get_utf8_positions() {
    let text = "let s = \"😀 日本\";\nlet t = 1;\n";
    let scratch = Scratch::new(&[("a.rs", text)]);
    let patch = json!({"path": "a.rs", "old_text": "😀 日本\";", "new_text": "😀 日本 ✓\";"});
    scratch.write("replay.jsonl", &replay(&[turn(&[("patch_file", patch)]), done("ok")]));
    let mut client = LspClient::start(&scratch, ClientOptions::utf8());
    client.open("a.rs", text);
    let (run_id, _) = client.run_issue("tick", "replay.jsonl");
    let answer = client.command("issuewright.applyProposal", json!({"runId": run_id})).unwrap();
    assert_eq!(answer["verified"], true, "{answer}");
    assert_eq!(client.buffer("a.rs").unwrap(), "let s = \"😀 日本 ✓\";\nlet t = 1;\n");
}
