//! Every fault class, end to end: retried with backoff (honouring Retry-After), surfaced
//! at once, or ending the run with its reason; and model mistakes answered, not fatal.

use std::time::Duration;

use issuewright_tests::fake::{EVENT_STREAM, FakeProvider, Reply};
use issuewright_tests::streams::{self, Turn};
use issuewright_tests::{Scratch, ledger, run_cli, run_report, specs};
use serde_json::{Value, json};

const KEY: &str = "sk-test-faults-0123456789abcdefghijkl";

fn workspace(max_retries: u32) -> Scratch {
    let scratch = Scratch::new(&[("a.txt", "hello\n")]);
    scratch.write(".issuewright.toml", &format!("[provider]\nmax_retries = {max_retries}\n"));
    scratch
}

fn patch_turn() -> Turn {
    Turn {
        text: Some("Patching.".into()),
        calls: vec![("patch_file".into(), json!({"path": "a.txt", "old_text": "hello", "new_text": "bye"}))],
        usage: (100, 10),
    }
}

fn done_turn() -> Turn {
    Turn::text("Changed hello to bye.")
}

fn openai(turn: &Turn) -> Reply {
    Reply::stream(&streams::openai(turn, None), 40)
}

fn anthropic(turn: &Turn) -> Reply {
    Reply::stream(&streams::anthropic(turn, None), 40)
}

fn run_openai(scratch: &Scratch, fake: &FakeProvider) -> Value {
    let base_url = format!("{}/v1", fake.url());
    let output = run_cli(
        scratch,
        &["--issue", "say bye", "--provider", "openai", "--base-url", &base_url, "--model", "gpt-4o", "--json"],
        &[("OPENAI_API_KEY", KEY)],
    );
    assert!(fake.violations().is_empty(), "{:#?}", fake.violations());
    run_report(&output)
}

fn run_anthropic(scratch: &Scratch, fake: &FakeProvider) -> Value {
    let output = run_cli(
        scratch,
        &["--issue", "say bye", "--provider", "anthropic", "--base-url", &fake.url(), "--json"],
        &[("ANTHROPIC_API_KEY", KEY)],
    );
    assert!(fake.violations().is_empty(), "{:#?}", fake.violations());
    run_report(&output)
}

fn openai_error(name: &str) -> (u16, Value) {
    let errors = specs::json("openai/examples/errors.observed.json");
    (errors[name]["http_status"].as_u64().unwrap() as u16, errors[name]["body"].clone())
}

fn anthropic_error(name: &str) -> (u16, Value) {
    let errors = specs::json("anthropic/examples/errors.json");
    (errors[name]["http_status"].as_u64().unwrap() as u16, errors[name]["body"].clone())
}

fn assert_bye(scratch: &Scratch, report: &Value) {
    assert_eq!(report["state"], "ready", "{report:#}");
    assert!(report["diff"].as_str().unwrap().contains("-hello\n+bye\n"), "{report:#}");
    assert_eq!(scratch.read("a.txt").unwrap(), "hello\n", "never written without --apply");
}

fn trace(scratch: &Scratch, report: &Value) -> Vec<Value> {
    let path =
        scratch.workspace().join(".issuewright/runs").join(report["runId"].as_str().unwrap()).join("trace.jsonl");
    std::fs::read_to_string(path).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect()
}

#[test]
fn a_429_waits_as_long_as_retry_after_says() {
    let scratch = workspace(4);
    let fake = FakeProvider::start(specs::openai_chat_request());
    // The documented error's shape, for a minute whose tokens are used up.
    let (status, mut body) = openai_error("rate_limit_exceeded_tpm");
    assert_eq!(status, 429);
    body["error"]["message"] = json!(
        "Rate limit reached for gpt-4o in organization org-78asdf87asdf9aaa8976 on tokens per min (TPM): Limit 30000, Used 29500, Requested 1538. Please try again in 1s."
    );
    fake.push([Reply::Status { status, headers: vec![("retry-after".into(), "1".into())], body: body.to_string() }]);
    fake.push([openai(&patch_turn()), openai(&done_turn())]);
    let report = run_openai(&scratch, &fake);
    assert_bye(&scratch, &report);
    let received = fake.received();
    assert_eq!(received.len(), 3);
    let waited = received[1].at - received[0].at;
    assert!(waited >= Duration::from_millis(950), "retried after {waited:?}, before the server's 1 s");
    let failure = trace(&scratch, &report).into_iter().find(|e| e["kind"] == "failure").unwrap();
    assert_eq!(failure["retry_in_ms"], 1000);
    assert!(failure["message"].as_str().unwrap().contains("Rate limit reached for gpt-4o"));
}

#[test]
fn a_request_over_the_limit_per_minute_on_its_own_is_not_retried() {
    let scratch = workspace(4);
    let fake = FakeProvider::start(specs::openai_chat_request());
    let (status, body) = openai_error("rate_limit_exceeded_tpm");
    fake.push([Reply::Status { status, headers: vec![("retry-after".into(), "1".into())], body: body.to_string() }]);
    let report = run_openai(&scratch, &fake);
    assert_eq!(report["state"], "failed");
    let error = report["error"].as_str().unwrap();
    assert!(
        error.contains("Request too large for gpt-4o") && error.contains("lower provider.max_output_tokens"),
        "{error}"
    );
    assert_eq!(fake.received().len(), 1, "sent once: waiting would not make it fit");
}

#[test]
fn server_errors_and_overload_are_retried() {
    let scratch = workspace(4);
    let fake = FakeProvider::start(specs::openai_chat_request());
    for status in [500, 502, 503] {
        let headers = vec![("retry-after-ms".into(), "20".into())];
        fake.push([Reply::Status { status, headers, body: "{\"error\":{\"message\":\"upstream trouble\"}}".into() }]);
    }
    fake.push([openai(&patch_turn()), openai(&done_turn())]);
    assert_bye(&scratch, &run_openai(&scratch, &fake));
    assert_eq!(fake.received().len(), 5);

    let scratch = workspace(4);
    let fake = FakeProvider::start(specs::anthropic_messages_request());
    let overloaded = json!({"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}});
    fake.push([Reply::status(529, &overloaded), anthropic(&patch_turn()), anthropic(&done_turn())]);
    assert_bye(&scratch, &run_anthropic(&scratch, &fake));
    assert_eq!(fake.received().len(), 3);
}

#[test]
fn a_connection_dropped_mid_stream_is_retried() {
    let scratch = workspace(4);
    let Reply::Stream { chunks, .. } = openai(&patch_turn()) else { unreachable!() };
    let half = chunks.len() / 2;
    // Whatever it is labelled: a gateway may send a stream as `application/json`.
    for content_type in [EVENT_STREAM, "application/json"] {
        let fake = FakeProvider::start(specs::openai_chat_request());
        fake.push([Reply::Stream {
            chunks: chunks.clone(),
            pause: Duration::ZERO,
            cut_after: Some(half),
            content_type,
        }]);
        fake.push([openai(&patch_turn()), openai(&done_turn())]);
        let report = run_openai(&scratch, &fake);
        assert_bye(&scratch, &report);
        assert_eq!(report["toolCalls"], 1, "the cut turn's call was never run ({content_type})");
        let failure = trace(&scratch, &report).into_iter().find(|e| e["kind"] == "failure").unwrap();
        assert_eq!(failure["class"], "Retryable", "{content_type}");
    }
}

#[test]
fn an_error_event_in_the_stream_is_retried() {
    let scratch = workspace(4);
    let fake = FakeProvider::start(specs::anthropic_messages_request());
    fake.push([Reply::stream(&specs::read("anthropic/examples/stream.error-event.docs.sse"), 30)]);
    fake.push([anthropic(&patch_turn()), anthropic(&done_turn())]);
    assert_bye(&scratch, &run_anthropic(&scratch, &fake));
    assert_eq!(fake.received().len(), 3);
}

#[test]
fn bad_credentials_and_bad_requests_fail_at_once() {
    let scratch = workspace(4);
    let fake = FakeProvider::start(specs::openai_chat_request());
    let (status, body) = openai_error("invalid_api_key");
    fake.push([Reply::status(status, &body)]);
    let report = run_openai(&scratch, &fake);
    assert_eq!(report["state"], "failed");
    let error = report["error"].as_str().unwrap();
    assert!(error.contains("Incorrect API key provided") && error.contains("OPENAI_API_KEY"), "{error}");
    assert_eq!(fake.received().len(), 1, "never retried");

    let fake = FakeProvider::start(specs::anthropic_messages_request());
    let (status, body) = anthropic_error("invalid_request_openapi_example");
    fake.push([Reply::status(status, &body)]);
    let report = run_anthropic(&scratch, &fake);
    assert!(
        report["error"].as_str().unwrap().contains("anthropic rejected the request: HTTP 400: Invalid request"),
        "{report}"
    );
    assert_eq!(fake.received().len(), 1);
}

#[test]
fn an_answer_that_is_not_a_stream_fails_at_once_and_says_what_came() {
    let scratch = workspace(4);
    // A base URL that leads to a web page.
    let fake = FakeProvider::start(specs::openai_chat_request());
    let page = "<!DOCTYPE html><html><head><title>Welcome to nginx!</title></head></html>";
    fake.push([Reply::Status {
        status: 200,
        headers: vec![("content-type".into(), "text/html".into())],
        body: page.into(),
    }]);
    let report = run_openai(&scratch, &fake);
    assert_eq!(report["state"], "failed", "{report}");
    let error = report["error"].as_str().unwrap();
    assert!(error.contains("`text/html`, not a stream") && error.contains("Welcome to nginx!"), "{error}");
    assert!(error.contains("provider.base_url"), "{error}");
    assert_eq!(fake.received().len(), 1, "never retried");

    // A gateway that answers whole, whatever `stream: true` asks.
    let fake = FakeProvider::start(specs::openai_chat_request());
    let whole = specs::json("openai/examples/chat.default.response.json");
    fake.push([Reply::Status {
        status: 200,
        headers: vec![("content-type".into(), "application/json".into())],
        body: whole.to_string(),
    }]);
    let report = run_openai(&scratch, &fake);
    let error = report["error"].as_str().unwrap();
    assert!(error.contains("`application/json`, not a stream") && error.contains("chat.completion"), "{error}");
    assert_eq!(fake.received().len(), 1, "never retried");
}

#[test]
fn context_overflow_ends_the_run_with_that_reason() {
    let scratch = workspace(4);
    let fake = FakeProvider::start(specs::openai_chat_request());
    let (status, body) = openai_error("context_length_exceeded");
    fake.push([Reply::status(status, &body)]);
    let report = run_openai(&scratch, &fake);
    let error = report["error"].as_str().unwrap();
    assert!(error.contains("no longer fits the model's context window") && error.contains("4097 tokens"), "{error}");
    assert_eq!(fake.received().len(), 1);

    let fake = FakeProvider::start(specs::anthropic_messages_request());
    let (status, body) = anthropic_error("prompt_too_long_observed");
    fake.push([Reply::status(status, &body)]);
    let report = run_anthropic(&scratch, &fake);
    assert!(report["error"].as_str().unwrap().contains("prompt is too long: 210266 tokens"), "{report}");
}

#[test]
fn retries_end_and_the_run_says_so() {
    let scratch = workspace(1);
    let fake = FakeProvider::start(specs::openai_chat_request());
    let busy = Reply::Status { status: 503, headers: vec![("retry-after-ms".into(), "10".into())], body: "{}".into() };
    fake.push([busy.clone(), busy]);
    let report = run_openai(&scratch, &fake);
    assert_eq!(report["state"], "failed");
    assert!(report["error"].as_str().unwrap().contains("did not answer after 2 attempts"), "{report}");
    assert_eq!(fake.received().len(), 2);
}

#[test]
fn an_invalid_tool_argument_goes_back_to_the_model() {
    let scratch = workspace(4);
    let fake = FakeProvider::start(specs::openai_chat_request());
    let missing = Turn {
        text: None,
        calls: vec![("patch_file".into(), json!({"path": "a.txt", "old_text": "hello"}))],
        usage: (10, 1),
    };
    fake.push([openai(&missing), openai(&patch_turn()), openai(&done_turn())]);
    let report = run_openai(&scratch, &fake);
    assert_bye(&scratch, &report);
    assert_eq!(report["schemaViolations"], 1);
    let answer = &fake.received()[1].body["messages"].as_array().unwrap().last().unwrap().clone();
    assert_eq!(answer["role"], "tool");
    let content = answer["content"].as_str().unwrap();
    assert!(content.contains("invalid arguments for `patch_file`") && content.contains("new_text"), "{content}");
}

#[test]
fn an_answer_cut_by_the_output_limit_is_continued() {
    let scratch = workspace(4);
    let fake = FakeProvider::start(specs::openai_chat_request());
    fake.push([Reply::stream(&streams::openai(&Turn::text("Let me think about wh"), Some("length")), 30)]);
    fake.push([openai(&patch_turn()), openai(&done_turn())]);
    let report = run_openai(&scratch, &fake);
    assert_bye(&scratch, &report);
    let last = fake.received()[1].body["messages"].as_array().unwrap().last().unwrap().clone();
    assert_eq!(last["role"], "user");
    assert!(last["content"].as_str().unwrap().contains("cut off by the output limit"));
}

#[test]
fn a_tool_call_cut_by_max_tokens_is_refused_and_explained() {
    let scratch = workspace(4);
    let fake = FakeProvider::start(specs::anthropic_messages_request());
    fake.push([Reply::stream(
        &specs::read("anthropic/examples/stream.tool-use-cut-by-max-tokens.sdk-fixture.sse"),
        64,
    )]);
    fake.push([anthropic(&patch_turn()), anthropic(&done_turn())]);
    let report = run_anthropic(&scratch, &fake);
    assert_bye(&scratch, &report);
    assert_eq!(report["schemaViolations"], 1);
    let second = &fake.received()[1].body;
    let result = second["messages"].as_array().unwrap().last().unwrap()["content"][0].clone();
    assert_eq!(result["type"], "tool_result");
    assert_eq!(result["is_error"], true);
    assert!(result["content"].as_str().unwrap().contains("not valid JSON"), "{result}");
    assert_eq!(second["messages"][1]["content"][1]["input"], json!({}), "the cut input is sent back as an object");
}

#[test]
fn a_paused_turn_is_sent_back_to_continue() {
    let scratch = workspace(4);
    let fake = FakeProvider::start(specs::anthropic_messages_request());
    fake.push([Reply::stream(&streams::anthropic(&Turn::text("Searching the code base"), Some("pause_turn")), 40)]);
    fake.push([anthropic(&patch_turn()), anthropic(&done_turn())]);
    let report = run_anthropic(&scratch, &fake);
    assert_bye(&scratch, &report);
    let messages = fake.received()[1].body["messages"].as_array().unwrap().clone();
    assert_eq!(messages.last().unwrap()["role"], "assistant", "the paused turn comes back as the last message");
    let events = ledger(&scratch.workspace(), report["runId"].as_str().unwrap());
    assert!(events.iter().any(|e| e["event"] == "model_turn" && e["stop"] == "paused"));
}

#[test]
fn a_slow_steady_stream_is_waited_for_and_a_silent_one_is_retried() {
    // timeout_s bounds each wait, not the whole answer: 1 s here.
    let scratch = Scratch::new(&[("a.txt", "hello\n")]);
    scratch.write(".issuewright.toml", "[provider]\nmax_retries = 1\ntimeout_s = 1\n");
    let fake = FakeProvider::start(specs::openai_chat_request());
    let slow = |turn: &Turn, pause: Duration| match openai(turn) {
        Reply::Stream { chunks, cut_after, content_type, .. } => {
            Reply::Stream { chunks, pause, cut_after, content_type }
        }
        other => other,
    };
    let steady = slow(&patch_turn(), Duration::from_millis(150));
    let Reply::Stream { chunks, .. } = &steady else { panic!("a streamed answer") };
    assert!(chunks.len() * 150 > 1_000, "the steady answer must outlast timeout_s: {} chunks", chunks.len());
    fake.push([
        // Many chunks 150 ms apart: longer than 1 s in all, never silent for 1 s.
        steady,
        // Silent for 1.6 s before each chunk: given up on, and retried.
        slow(&done_turn(), Duration::from_millis(1_600)),
        openai(&done_turn()),
    ]);
    let report = run_openai(&scratch, &fake);
    assert_eq!(report["state"], "ready", "{report:#}");
    assert_eq!(scratch.read("a.txt").unwrap(), "hello\n");
    assert_eq!(fake.received().len(), 3, "the slow answer once, the silent one and its retry");
    let events = ledger(&scratch.workspace(), report["runId"].as_str().unwrap());
    assert_eq!(events.iter().filter(|e| e["event"] == "tool_result" && e["ok"] == true).count(), 1);
}

#[test]
fn a_window_fuller_than_estimated_gives_way_to_older_tool_output_and_the_turn_is_asked_again() {
    let scratch = workspace(4);
    scratch.write("notes.txt", &"a note on greetings\n".repeat(200));
    let fake = FakeProvider::start(specs::openai_chat_request());
    let read =
        |path: &str| Turn { text: None, calls: vec![("read_file".into(), json!({"path": path}))], usage: (100, 10) };
    let (status, body) = openai_error("context_length_exceeded");
    fake.push([
        openai(&read("notes.txt")),
        openai(&read("a.txt")),
        Reply::status(status, &body),
        openai(&patch_turn()),
        openai(&done_turn()),
    ]);
    let report = run_openai(&scratch, &fake);
    assert_eq!(report["state"], "ready", "{report:#}");
    assert_eq!(report["rounds"], 4, "the refused turn is asked for again, not counted twice: {report:#}");
    let received = fake.received();
    assert_eq!(received.len(), 5);
    let results = |request: usize| -> Vec<String> {
        received[request].body["messages"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|m| m["role"] == "tool")
            .map(|m| m["content"].as_str().unwrap().to_owned())
            .collect()
    };
    assert!(results(2)[0].contains("a note on greetings"), "sent whole the first time");
    let again = results(3);
    assert!(again[0].contains("elided") && !again[0].contains("a note on greetings"), "{again:#?}");
    assert!(again[1].contains("hello"), "the latest turn's result stays: {again:#?}");
}
