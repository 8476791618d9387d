//! Progress while a run works: `$/progress` for clients that support it, `issuewright/runEvent` always.

use issuewright_tests::lsp::{ClientOptions, LspClient};
use issuewright_tests::{Scratch, done, replay, turn};
use serde_json::{Value, json};

fn scratch() -> Scratch {
    let scratch = Scratch::new(&[("a.txt", "a\n"), ("src/b.rs", "pub fn b() {}\n")]);
    scratch.write(
        "replay.jsonl",
        &replay(&[
            turn(&[
                ("read_file", json!({"path": "a.txt"})),
                ("patch_file", json!({"path": "a.txt", "old_text": "zzz", "new_text": "b"})),
            ]),
            turn(&[("patch_file", json!({"path": "a.txt", "old_text": "a", "new_text": "b"}))]),
            done("b it is"),
        ]),
    );
    scratch
}

fn progress_kinds(client: &LspClient, token: &str) -> Vec<String> {
    client
        .notifications
        .iter()
        .filter(|n| n["method"] == "$/progress" && n["params"]["token"] == token)
        .map(|n| n["params"]["value"]["kind"].as_str().unwrap().to_owned())
        .collect()
}

#[test]
fn a_run_reports_begin_each_step_and_end() {
    let scratch = scratch();
    let mut client = LspClient::start(&scratch, ClientOptions::default());
    let (run_id, _) = client.run_issue("b", "replay.jsonl");
    let token = format!("issuewright/{run_id}");
    let ends = |n: &Value| {
        n["method"] == "$/progress" && n["params"]["token"] == token && n["params"]["value"]["kind"] == "end"
    };
    client.wait_for_notification(ends);

    let create = client
        .server_requests
        .iter()
        .find(|r| r["method"] == "window/workDoneProgress/create" && r["params"]["token"] == token.as_str());
    assert!(create.is_some(), "{:?}", client.server_requests);
    let kinds = progress_kinds(&client, &token);
    assert_eq!(kinds.first().map(String::as_str), Some("begin"));
    assert_eq!(kinds.last().map(String::as_str), Some("end"));
    let messages: Vec<String> = client
        .notifications
        .iter()
        .filter(|n| {
            n["method"] == "$/progress" && n["params"]["token"] == token && n["params"]["value"]["kind"] == "report"
        })
        .map(|n| n["params"]["value"]["message"].as_str().unwrap().to_owned())
        .collect();
    // What the first prompt holds of the workspace comes before the first round.
    let context = messages.iter().position(|m| m.starts_with("context: src/b.rs in full; 0 more in the map"));
    let first_round = messages.iter().position(|m| m.starts_with("round 1"));
    assert!(context.is_some() && context < first_round, "{messages:?}");
    assert!(messages.contains(&"round 1: read_file a.txt".to_owned()), "{messages:?}");
    let event = client
        .notifications
        .iter()
        .find(|n| n["method"] == "issuewright/runEvent" && n["params"]["event"]["kind"] == "context")
        .expect("a context event");
    assert_eq!(event["params"]["event"]["fullFiles"], json!(["src/b.rs"]));
    assert_eq!(
        (&event["params"]["event"]["mappedFiles"], &event["params"]["event"]["indexed"]),
        (&json!(0), &json!(true))
    );
    assert!(messages.contains(&"round 1: patch_file a.txt (failed)".to_owned()), "{messages:?}");
    let end = client.notifications.iter().find(|n| ends(n)).unwrap();
    assert_eq!(end["params"]["value"]["message"], "ready: b it is");
}

/// A restart says how many files came from the on-disk cache, and that those unchanged on
/// disk were not read.
#[test]
fn a_restart_says_what_came_from_the_cache() {
    let scratch = scratch();
    scratch.write("src/c.rs", "pub fn c() {}\n");
    scratch.modified_an_hour_ago("src/b.rs");
    scratch.modified_an_hour_ago("src/c.rs");
    let index = |n: &Value| n["method"] == "$/progress" && n["params"]["token"] == "issuewright/index";
    let end_message = |client: &mut LspClient| {
        let end = client.wait_for_notification(|n| index(n) && n["params"]["value"]["kind"] == "end");
        end["params"]["value"]["message"].as_str().unwrap().to_owned()
    };
    let mut first = LspClient::start(&scratch, ClientOptions::default());
    let message = end_message(&mut first);
    assert!(message.ends_with(" ms"), "nothing cached yet: {message}");
    // The cache is written after the index is put to use.
    let folder = scratch.home().join(".cache/issuewright/index");
    let written = || {
        let entries = std::fs::read_dir(&folder).into_iter().flatten().flatten();
        entries.map(|entry| entry.path()).any(|path| path.extension().is_some_and(|e| e == "bin"))
    };
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while !written() && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    drop(first);

    let mut second = LspClient::start(&scratch, ClientOptions::default());
    let message = end_message(&mut second);
    assert!(message.ends_with("(2 from the cache, unchanged on disk and not read)"), "{message}");
}

#[test]
fn the_first_index_build_is_shown_as_it_goes() {
    let scratch = scratch();
    scratch.write("src/c.rs", "pub fn c() {}\n");
    let mut client = LspClient::start(&scratch, ClientOptions::default());
    let index = |n: &Value| n["method"] == "$/progress" && n["params"]["token"] == "issuewright/index";
    client.wait_for_notification(|n| index(n) && n["params"]["value"]["kind"] == "end");
    let steps: Vec<&Value> = client.notifications.iter().filter(|n| index(n)).map(|n| &n["params"]["value"]).collect();
    assert_eq!(steps[0]["kind"], "begin", "{steps:?}");
    assert_eq!(steps[0]["title"], "issuewright: indexing");
    let end = steps.last().unwrap()["message"].as_str().unwrap();
    assert!(end.starts_with("2 source files indexed in ") && end.ends_with(" ms"), "{end}");
    for report in steps.iter().filter(|step| step["kind"] == "report") {
        let percentage = report["percentage"].as_u64();
        assert!(percentage.is_none_or(|p| p <= 100), "{report}");
    }
    assert!(
        client
            .server_requests
            .iter()
            .any(|r| r["method"] == "window/workDoneProgress/create" && r["params"]["token"] == "issuewright/index"),
        "the token is created first"
    );

    // A client that takes no progress gets none, and the index is built all the same.
    let options = ClientOptions { capabilities: json!({}), ..ClientOptions::default() };
    let mut bare = LspClient::start(&scratch, options);
    let (_, status) = bare.run_issue("b", "replay.jsonl");
    assert_eq!(status["state"], "ready", "{status}");
    assert!(!bare.notifications.iter().any(index), "{:?}", bare.notifications);
}

#[test]
fn run_events_flow_even_without_progress_support() {
    let scratch = scratch();
    let options = ClientOptions { capabilities: json!({}), ..ClientOptions::default() };
    let mut client = LspClient::start(&scratch, options);
    let (run_id, _) = client.run_issue("b", "replay.jsonl");
    client
        .wait_for_notification(|n| n["method"] == "issuewright/runEvent" && n["params"]["event"]["kind"] == "finished");
    assert!(client.server_requests.iter().all(|r| r["method"] != "window/workDoneProgress/create"));
    assert!(client.notifications.iter().all(|n| n["method"] != "$/progress"));
    let events: Vec<&Value> = client
        .notifications
        .iter()
        .filter(|n| n["method"] == "issuewright/runEvent" && n["params"]["runId"] == run_id.as_str())
        .map(|n| &n["params"]["event"])
        .collect();
    let tool_calls: Vec<(&str, bool)> = events
        .iter()
        .filter(|e| e["kind"] == "toolCall")
        .map(|e| (e["name"].as_str().unwrap(), e["ok"].as_bool().unwrap()))
        .collect();
    assert_eq!(tool_calls, [("read_file", true), ("patch_file", false), ("patch_file", true)]);
    let finished = events.last().unwrap();
    assert_eq!(finished["status"]["state"], "ready");
    assert_eq!(finished["files"], 1);
    let ready = client.wait_for_notification(|n| n["method"] == "window/showMessage");
    assert!(ready["params"]["message"].as_str().unwrap().contains("is ready: 1 file(s) proposed"), "{ready}");
}
