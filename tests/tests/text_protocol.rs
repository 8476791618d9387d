//! The JSON text protocol end to end, the switch to it when a model cannot call tools,
//! secrets scrubbed from requests, and cancelling a run while the model is answering.

use std::time::{Duration, Instant};

use issuewright_tests::fake::{EVENT_STREAM, FakeProvider, Reply};
use issuewright_tests::lsp::{ClientOptions, LspClient};
use issuewright_tests::streams::{self, Turn};
use issuewright_tests::{Scratch, run_cli, run_report, specs};
use serde_json::{Value, json};

fn text(answer: &str) -> Reply {
    Reply::stream(&streams::openai(&Turn::text(answer), None), 33)
}

fn run(scratch: &Scratch, fake: &FakeProvider, model: &str, extra: &[&str]) -> Value {
    let base_url = format!("{}/v1", fake.url());
    let mut args =
        vec!["--issue", "say bye", "--provider", "openai", "--base-url", &base_url, "--model", model, "--json"];
    args.extend_from_slice(extra);
    let report = run_report(&run_cli(scratch, &args, &[]));
    assert!(fake.violations().is_empty(), "{:#?}", fake.violations());
    report
}

#[test]
fn fenced_json_trailing_prose_and_truncated_json_all_work() {
    let scratch = Scratch::new(&[("a.txt", "hello\n")]);
    let fake = FakeProvider::start(specs::openai_chat_request());
    fake.push([
        text("I'll look first.\n```json\n{\"tool_calls\": [{\"name\": \"read_file\", \"arguments\": {\"path\": \"a.txt\"}}]}\n```\nThen I'll decide."),
        text("{\"tool\": \"patch_file\", \"args\": {\"path\": \"a.txt\", \"old_text\": \"hello\", \"new_text\": \"bye\"}} That should do it."),
        text("{\"tool_calls\": [{\"name\": \"write_file\", \"arguments\": {\"path\": \"NOTES.md\", \"content\": \"said bye"),
        text("{\"done\": \"Changed hello to bye and left a note.\"}"),
    ]);
    let report = run(&scratch, &fake, "gpt-4o", &["--text-protocol"]);
    assert_eq!(report["state"], "ready", "{report:#}");
    assert_eq!(report["parseRepairs"], 1);
    assert_eq!(report["summary"], "Changed hello to bye and left a note.");
    let diff = report["diff"].as_str().unwrap();
    assert!(diff.contains("-hello\n+bye") && diff.contains("+said bye"), "{diff}");

    let received = fake.received();
    assert!(received.iter().all(|r| r.body.get("tools").is_none()), "no native tools");
    let system = received[0].body["messages"][0]["content"].as_str().unwrap().to_owned();
    assert!(system.contains("{\"tool_calls\": [{\"name\": \"<tool>\"") && system.contains("- patch_file:"), "{system}");
    let result = received[1].body["messages"].as_array().unwrap().last().unwrap().clone();
    assert_eq!(result["role"], "user");
    assert!(
        result["content"]
            .as_str()
            .unwrap()
            .starts_with("Tool call call_1 (read_file) returned:\na.txt (lines 1-1 of 1):\nhello")
    );
}

#[test]
fn an_unreadable_answer_is_answered_and_three_in_a_row_end_the_run() {
    let scratch = Scratch::new(&[("a.txt", "hello\n")]);
    let fake = FakeProvider::start(specs::openai_chat_request());
    fake.push([text("I think the greeting should change."), text("{\"done\": \"Nothing to do.\"}")]);
    let report = run(&scratch, &fake, "gpt-4o", &["--text-protocol"]);
    assert_eq!(report["state"], "ready", "{report:#}");
    let feedback = fake.received()[1].body["messages"].as_array().unwrap().last().unwrap()["content"].clone();
    assert!(feedback.as_str().unwrap().contains("could not be read: the answer holds no JSON object"), "{feedback}");

    let fake = FakeProvider::start(specs::openai_chat_request());
    fake.push([text("hmm"), text("still thinking"), text("{\"thoughts\": 1}")]);
    let report = run(&scratch, &fake, "gpt-4o", &["--text-protocol"]);
    assert_eq!(report["state"], "failed");
    assert!(report["error"].as_str().unwrap().contains("could not be read 3 times in a row"), "{report}");
}

/// The report of `issuewright run --json` on `issue` through `fake`, speaking Anthropic's
/// Messages API, with `more` flags; every request the fake received was as the spec says.
fn run_on_anthropic(scratch: &Scratch, fake: &FakeProvider, issue: &str, more: &[&str]) -> Value {
    let url = fake.url();
    let mut args =
        vec!["--issue", issue, "--provider", "anthropic", "--base-url", &url, "--model", "claude-sonnet-4-5"];
    args.extend(more);
    args.push("--json");
    let report = run_report(&run_cli(scratch, &args, &[("ANTHROPIC_API_KEY", "sk-ant-test")]));
    assert!(fake.violations().is_empty(), "{:#?}", fake.violations());
    report
}

#[test]
fn calls_written_as_text_in_two_turns_reach_anthropic_with_ids_of_their_own() {
    let scratch = Scratch::new(&[("a.txt", "hello\n"), ("b.txt", "bye\n")]);
    let fake = FakeProvider::start(specs::anthropic_messages_request());
    let written = |path: &str| {
        let call = format!(r#"<tool_call>{{"name": "read_file", "arguments": {{"path": "{path}"}}}}</tool_call>"#);
        Reply::stream(&streams::anthropic(&Turn::text(&call), None), 40)
    };
    fake.push([
        written("a.txt"),
        written("b.txt"),
        Reply::stream(&streams::anthropic(&Turn::text("Read both."), None), 40),
    ]);
    let report = run_on_anthropic(&scratch, &fake, "read", &[]);
    assert_eq!(report["state"], "ready", "{report:#}");
    let last = &fake.received()[2].body;
    let blocks =
        last["messages"].as_array().unwrap().iter().flat_map(|m| m["content"].as_array().cloned().unwrap_or_default());
    let ids: Vec<String> =
        blocks.filter(|b| b["type"] == "tool_use").map(|b| b["id"].as_str().unwrap().to_owned()).collect();
    assert_eq!(ids.len(), 2, "{last:#}");
    assert_ne!(ids[0], ids[1], "Anthropic refuses a request that holds a tool_use id twice");
}

#[test]
fn a_refusal_in_the_text_protocol_ends_the_run_as_declined_with_the_reason() {
    let scratch = Scratch::new(&[("a.txt", "hello\n")]);
    let fake = FakeProvider::start(specs::anthropic_messages_request());
    fake.push([Reply::stream(&specs::read("anthropic/examples/stream.refusal.sdk-fixture.sse"), 61)]);
    let report = run_on_anthropic(&scratch, &fake, "say bye", &["--text-protocol"]);
    assert_eq!(report["state"], "failed", "{report:#}");
    let error = report["error"].as_str().unwrap();
    assert!(error.contains("declined to continue: This request was refused due to policy."), "{error}");
    assert_eq!(fake.received().len(), 1, "a refusal is not asked again as an unreadable answer");
    assert_eq!(scratch.read("a.txt").as_deref(), Some("hello\n"), "the file is untouched");
}

#[test]
fn an_answer_cut_off_at_the_output_limit_is_continued_not_misread() {
    let scratch = Scratch::new(&[("a.txt", "hello\n")]);
    let fake = FakeProvider::start(specs::openai_chat_request());
    let cut = |answer: &str| Reply::stream(&streams::openai(&Turn::text(answer), Some("length")), 33);
    fake.push([
        // The recorded stream cut after `{"`: no JSON can be read from it.
        Reply::stream(&specs::read("openai/examples/chat.stream.finish-length.recorded.sse"), 47),
        text("{\"tool_calls\": [{\"name\": \"patch_file\", \"arguments\": {\"path\": \"a.txt\", \"old_text\": \"hello\", \"new_text\": \"bye\"}}]}"),
        // The final answer cut mid-sentence: not taken as the end.
        cut("{\"done\": \"Changed hello to"),
        text("{\"done\": \"Changed hello to bye in a.txt.\"}"),
    ]);
    let report = run(&scratch, &fake, "gpt-4o", &["--text-protocol"]);
    assert_eq!(report["state"], "ready", "{report:#}");
    assert_eq!(report["summary"], "Changed hello to bye in a.txt.");
    let received = fake.received();
    assert_eq!(received.len(), 4);
    for asked in [&received[1], &received[3]] {
        let last = asked.body["messages"].as_array().unwrap().last().unwrap()["content"].clone();
        let last = last.as_str().unwrap();
        assert!(last.contains("cut off by the output limit"), "{last}");
        assert!(!last.contains("could not be read"), "{last}");
    }
}

#[test]
fn a_model_without_tool_support_switches_to_the_text_protocol() {
    let scratch = Scratch::new(&[("a.txt", "hello\n")]);
    let fake = FakeProvider::start(specs::openai_chat_request());
    let unsupported = json!({"error": {"message": "registry.ollama.ai/library/mystery:7b does not support tools", "type": "api_error", "param": null, "code": null}});
    fake.push([
        Reply::status(400, &unsupported),
        text("{\"tool_calls\": [{\"name\": \"patch_file\", \"arguments\": {\"path\": \"a.txt\", \"old_text\": \"hello\", \"new_text\": \"bye\"}}]}"),
        text("{\"done\": \"bye\"}"),
    ]);
    let report = run(&scratch, &fake, "mystery:7b", &[]);
    assert_eq!(report["state"], "ready", "{report:#}");
    let received = fake.received();
    assert!(received[0].body.get("tools").is_some());
    assert!(received[1].body.get("tools").is_none());
    assert_eq!(received.len(), 3);

    // A model the registry knows to lack tools gets the text protocol from the start.
    let fake = FakeProvider::start(specs::openai_chat_request());
    fake.push([text("{\"done\": \"nothing\"}")]);
    run(&scratch, &fake, "codellama:13b", &[]);
    assert!(fake.received()[0].body.get("tools").is_none());
}

#[test]
fn secrets_read_from_the_workspace_never_reach_the_provider() {
    let github = format!("ghp_{}", "x1Y2z3".repeat(6));
    let secrets = format!("GITHUB_TOKEN={github}\nDEPLOY_TOKEN=plain-but-secret-value\n");
    // `.env` is refused outright; the same lines in a note are scrubbed on the way out.
    let scratch = Scratch::new(&[(".env", &secrets), ("notes/deploy.md", &secrets)]);
    let fake = FakeProvider::start(specs::openai_chat_request());
    let reads =
        vec![("read_file".into(), json!({"path": ".env"})), ("read_file".into(), json!({"path": "notes/deploy.md"}))];
    fake.push([
        Reply::stream(&streams::openai(&Turn { text: None, calls: reads, usage: (1, 1) }, None), 50),
        text("done"),
    ]);
    let base_url = format!("{}/v1", fake.url());
    let output = run_cli(
        &scratch,
        &["--issue", "look", "--provider", "openai", "--base-url", &base_url, "--model", "gpt-4o", "--json"],
        &[("DEPLOY_TOKEN", "plain-but-secret-value")],
    );
    assert_eq!(run_report(&output)["state"], "ready");
    let second = &fake.received()[1].raw;
    assert!(!second.contains(&github), "a credential-shaped token leaked");
    assert!(!second.contains("plain-but-secret-value"), "a secret from the environment leaked");
    assert!(second.contains("GITHUB_TOKEN=[REDACTED]"), "{second}");
    assert!(second.contains("`.env` holds credentials and is not shown"), "{second}");
}

/// A text answer streamed slowly: four pieces, half a second apart.
fn slow_answer() -> Reply {
    let Reply::Stream { chunks, .. } =
        Reply::stream(&streams::openai(&Turn::text("a very slow answer indeed"), None), 4)
    else {
        unreachable!()
    };
    Reply::Stream { chunks, pause: Duration::from_millis(500), cut_after: None, content_type: EVENT_STREAM }
}

/// An editor's settings that send runs to `fake`.
fn through(fake: &FakeProvider) -> ClientOptions {
    ClientOptions {
        initialization_options: json!({"provider": {"kind": "openai", "base_url": format!("{}/v1", fake.url())}}),
        ..ClientOptions::default()
    }
}

/// Waits until `fake` has received `requests` requests.
fn wait_until_asked(fake: &FakeProvider, requests: usize) {
    let deadline = Instant::now() + Duration::from_secs(10);
    while fake.received().len() < requests {
        assert!(Instant::now() < deadline, "the model was never asked");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Starts a run of `issue` and waits until the model has been asked `requests` times in all:
/// the run's id, the model answering.
fn start_while_answering(client: &mut LspClient, fake: &FakeProvider, issue: &str, requests: usize) -> String {
    let started = client.command("issuewright.implementIssue", json!({"issue": issue})).unwrap();
    let run_id = started["runId"].as_str().unwrap().to_owned();
    wait_until_asked(fake, requests);
    run_id
}

#[test]
fn cancel_stops_a_run_while_the_model_is_answering() {
    let scratch = Scratch::new(&[("a.txt", "hello\n")]);
    let fake = FakeProvider::start(specs::openai_chat_request());
    fake.push([slow_answer()]);
    let mut client = LspClient::start(&scratch, through(&fake));
    let run_id = start_while_answering(&mut client, &fake, "say bye", 1);
    let cancelled = client.command("issuewright.cancel", json!({"runId": run_id})).unwrap();
    assert_eq!(cancelled["cancelled"], true);
    let status = client.wait_for_run(&run_id);
    assert_eq!(status["state"], "cancelled", "{status}");
    assert_eq!(status["rounds"], 1);
}

#[test]
fn closing_the_editor_during_a_run_keeps_the_run_for_the_next_session() {
    let scratch = Scratch::new(&[("a.txt", "hello\n")]);
    let fake = FakeProvider::start(specs::openai_chat_request());
    fake.push([slow_answer(), slow_answer()]);
    let options = || through(&fake);
    let mut client = LspClient::start(&scratch, options());
    let run_id = start_while_answering(&mut client, &fake, "say bye", 1);
    // The editor closes while the model is answering: shutdown, then exit.
    assert!(client.shutdown().success());
    let mut next = LspClient::start(&scratch, options());
    let status = next.command("issuewright.runStatus", json!({"runId": run_id})).unwrap();
    assert_eq!(status["state"], "cancelled", "{status}");

    // Or it leaves without a shutdown (killed, crashed, `exit` alone) during a second run.
    let second = start_while_answering(&mut next, &fake, "say bye again", 2);
    assert_eq!(next.exit_without_shutdown().code(), Some(1), "exit without shutdown ends with 1");
    let mut after = LspClient::start(&scratch, options());
    let status = after.command("issuewright.runStatus", json!({"runId": second})).unwrap();
    assert_eq!(status["state"], "cancelled", "{status}");

    assert!(after.command("issuewright.discardProposal", json!({"runId": run_id})).is_ok());
}

#[test]
fn a_run_discarded_while_the_model_answers_stays_discarded_after_the_editor_closes() {
    let scratch = Scratch::new(&[("a.txt", "hello\n")]);
    let fake = FakeProvider::start(specs::openai_chat_request());
    fake.push([slow_answer()]);
    let mut client = LspClient::start(&scratch, through(&fake));
    let run_id = start_while_answering(&mut client, &fake, "say bye", 1);
    let discarded = client.command("issuewright.discardProposal", json!({"runId": run_id})).unwrap();
    assert_eq!(discarded["discarded"], true);
    // The editor closes at once, before the run has ended.
    assert!(client.shutdown().success());
    let mut next = LspClient::start(&scratch, through(&fake));
    let status = next.command("issuewright.runStatus", json!({"runId": run_id})).unwrap();
    assert_eq!(status["discarded"], true, "{status}");
    let refused = next.command("issuewright.applyProposal", json!({"runId": run_id})).unwrap_err();
    assert!(refused["message"].as_str().unwrap().contains("was discarded"), "{refused}");
}

#[test]
fn an_ollama_model_without_tool_support_switches_to_the_text_protocol() {
    let scratch = Scratch::new(&[("a.txt", "hello\n")]);
    let fake = FakeProvider::start(specs::ollama_chat_request());
    let unsupported = json!({"error": "registry.ollama.ai/library/mystery:7b does not support tools"});
    let said = |text: &str| Reply::stream(&streams::ollama(&Turn::text(text), None), 40);
    fake.push([
        Reply::status(400, &unsupported),
        said("{\"tool_calls\": [{\"name\": \"patch_file\", \"arguments\": {\"path\": \"a.txt\", \"old_text\": \"hello\", \"new_text\": \"bye\"}}]}"),
        said("{\"done\": \"bye\"}"),
    ]);
    let args =
        ["--issue", "say bye", "--provider", "ollama", "--base-url", &fake.url(), "--model", "mystery:7b", "--json"];
    let report = run_report(&run_cli(&scratch, &args, &[]));
    assert!(fake.violations().is_empty(), "{:#?}", fake.violations());
    assert_eq!(report["state"], "ready", "{report:#}");
    let received = fake.received();
    assert!(received[0].body.get("tools").is_some());
    assert!(received[1].body.get("tools").is_none(), "the tools are described in the prompt instead");
    assert_eq!(received.len(), 3);
}
