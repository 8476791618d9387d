//! Full runs against fake OpenAI, Anthropic and Ollama servers speaking the official wire
//! formats: the demo issue fixed through each provider, headless and from the editor.

use issuewright_tests::fake::{FakeProvider, Received, Reply};
use issuewright_tests::lsp::{ClientOptions, LspClient};
use issuewright_tests::streams::{self, Turn};
use issuewright_tests::{Scratch, records_text, run_cli, run_report, specs};
use serde_json::{Value, json};

const OPENAI_KEY: &str = "sk-test-openai-0123456789abcdefghijklmnop";
const ANTHROPIC_KEY: &str = "sk-ant-api03-test-0123456789abcdefghijklmnop";

fn demo_turns(scratch: &Scratch) -> Vec<Turn> {
    Turn::all_from_replay(&scratch.read("replay.jsonl").unwrap())
}

/// Checks the outcome every provider must reach on the demo: a ready run that fixes the bug.
fn assert_demo_fixed(report: &Value) {
    assert_eq!(report["state"], "ready", "{report:#}");
    assert_eq!(report["rounds"], 5);
    assert_eq!(report["toolCalls"], 5);
    assert_eq!(report["failedToolCalls"], 0);
    assert_eq!(report["usage"], json!({"inputTokens": 5000, "outputTokens": 500}));
    assert_eq!(report["validation"]["build"], "passed", "{report:#}");
    assert_eq!(report["validation"]["tests"], "passed", "{report:#}");
    assert!(
        report["diff"].as_str().unwrap().contains("+        *counts.entry(word.to_lowercase()).or_insert(0) += 1;")
    );
}

/// Runs the demo issue through `fake` with `args`, checks the run fixed it with one request
/// per turn, each valid against the official schema, and returns the requests.
fn run_demo(scratch: &Scratch, fake: &FakeProvider, args: &[&str], env: &[(&str, &str)]) -> Vec<Received> {
    let mut all = vec!["--issue", "@ISSUE.md"];
    all.extend_from_slice(args);
    all.push("--json");
    let output = run_cli(scratch, &all, env);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    assert_demo_fixed(&run_report(&output));
    let received = fake.received();
    assert_eq!(received.len(), demo_turns(scratch).len(), "one request per turn");
    assert!(fake.violations().is_empty(), "{:#?}", fake.violations());
    received
}

fn assert_traced_without_secrets(scratch: &Scratch, secret: &str) {
    let records = records_text(scratch);
    assert!(
        records.contains("\"kind\":\"request\"") && records.contains("\"kind\":\"response\""),
        "trace.jsonl is written"
    );
    assert!(!records.contains(secret), "the key leaked into the run record");
}

#[test]
fn openai_fixes_the_demo() {
    let scratch = Scratch::with_demo();
    let fake = FakeProvider::start(specs::openai_chat_request());
    fake.push(demo_turns(&scratch).iter().map(|turn| Reply::stream(&streams::openai(turn, None), 61)));
    let base_url = format!("{}/v1", fake.url());
    let received = run_demo(
        &scratch,
        &fake,
        &["--provider", "openai", "--base-url", &base_url, "--model", "gpt-4o"],
        &[("OPENAI_API_KEY", OPENAI_KEY)],
    );
    for request in &received {
        assert_eq!(request.line, "POST /v1/chat/completions");
        assert_eq!(request.header("authorization"), Some(format!("Bearer {OPENAI_KEY}").as_str()));
        assert_eq!(request.body["model"], "gpt-4o");
        assert_eq!(request.body["stream"], true);
        assert_eq!(request.body["tools"].as_array().unwrap().len(), 10, "with run_check and run_tests");
    }
    // The first prompt holds the context pack: the file the issue is about comes in full.
    let first = received[0].body["messages"][1]["content"].as_str().unwrap();
    assert!(first.starts_with("Implement this issue:\n\n# `word_counts` treats"), "{first}");
    assert!(
        first.contains("## The most relevant files, in full\n\n### src/lib.rs\n```\n//! Word frequencies of a text."),
        "{first}"
    );
    // The second request carries the first turn's calls and their results.
    let messages = received[1].body["messages"].as_array().unwrap();
    let roles: Vec<&str> = messages.iter().map(|m| m["role"].as_str().unwrap()).collect();
    assert_eq!(roles, ["system", "user", "assistant", "tool", "tool"]);
    assert_eq!(messages[2]["tool_calls"][1]["id"], "call_fake1");
    assert_eq!(messages[4]["tool_call_id"], "call_fake1");
    assert!(messages[4]["content"].as_str().unwrap().starts_with("src/lib.rs (lines 1-37 of 37)"));
    // After the second turn's patch the build fails, and the model is told where and why.
    let third = received[2].body["messages"].as_array().unwrap();
    let told = third.last().unwrap();
    assert_eq!(told["role"], "user");
    let told = told["content"].as_str().unwrap();
    assert!(told.starts_with("Automatic validation after your changes:\nThe check `cargo check"), "{told}");
    assert!(told.contains("error[E0308] at src/lib.rs:16:5: mismatched types"), "{told}");
    assert_traced_without_secrets(&scratch, OPENAI_KEY);
}

#[test]
fn a_server_that_forbids_stream_options_is_asked_again_without_it() {
    // Mistral's API refuses fields it does not know, in the OpenAI error shape's place.
    let scratch = Scratch::new(&[("a.txt", "hello\n")]);
    let fake = FakeProvider::start(specs::openai_chat_request());
    let forbidden = json!({"object": "error", "message": {"detail": [{"type": "extra_forbidden", "loc": ["body", "stream_options"], "msg": "Extra inputs are not permitted", "input": {"include_usage": true}}]}, "type": "invalid_request_error", "param": null, "code": null});
    let patch = Turn {
        text: None,
        calls: vec![("patch_file".into(), json!({"path": "a.txt", "old_text": "hello", "new_text": "bye"}))],
        usage: (1, 1),
    };
    fake.push([
        Reply::status(422, &forbidden),
        Reply::stream(&streams::openai(&patch, None), 40),
        Reply::stream(&streams::openai(&Turn::text("Said bye."), None), 40),
    ]);
    let base_url = format!("{}/v1", fake.url());
    let args = [
        "--issue",
        "say bye",
        "--provider",
        "openai",
        "--base-url",
        &base_url,
        "--model",
        "mistral-large-latest",
        "--json",
    ];
    let report = run_report(&run_cli(&scratch, &args, &[("OPENAI_API_KEY", OPENAI_KEY)]));
    assert_eq!(report["state"], "ready", "{report:#}");
    let received = fake.received();
    assert_eq!(received.len(), 3);
    assert!(received[0].body.get("stream_options").is_some());
    assert!(received[1..].iter().all(|r| r.body.get("stream_options").is_none()), "left out from then on");
    assert!(fake.violations().is_empty(), "{:#?}", fake.violations());
}

#[test]
fn calls_a_content_filter_stopped_are_not_run_and_the_run_ends_declined() {
    let scratch = Scratch::new(&[("a.txt", "hello\n")]);
    let fake = FakeProvider::start(specs::openai_chat_request());
    let patch = Turn {
        text: None,
        calls: vec![("patch_file".into(), json!({"path": "a.txt", "old_text": "hello", "new_text": "bye"}))],
        usage: (1, 1),
    };
    fake.push([Reply::stream(&streams::openai(&patch, Some("content_filter")), 40)]);
    let base_url = format!("{}/v1", fake.url());
    let args = ["--issue", "say bye", "--provider", "openai", "--base-url", &base_url, "--model", "gpt-4o", "--json"];
    let report = run_report(&run_cli(&scratch, &args, &[("OPENAI_API_KEY", OPENAI_KEY)]));
    assert_eq!(report["state"], "failed", "{report:#}");
    assert!(report["error"].as_str().unwrap().contains("declined to continue"), "{report:#}");
    assert_eq!(report["files"], json!([]), "nothing staged: {report:#}");
    assert_eq!(fake.received().len(), 1);
    assert_eq!(scratch.read("a.txt").as_deref(), Some("hello\n"));
    assert!(fake.violations().is_empty(), "{:#?}", fake.violations());
}

#[test]
fn anthropic_fixes_the_demo() {
    let scratch = Scratch::with_demo();
    let fake = FakeProvider::start(specs::anthropic_messages_request());
    fake.push(demo_turns(&scratch).iter().map(|turn| Reply::stream(&streams::anthropic(turn, None), 53)));
    let received = run_demo(
        &scratch,
        &fake,
        &["--provider", "anthropic", "--base-url", &fake.url(), "--model", "claude-sonnet-4-5"],
        &[("ANTHROPIC_API_KEY", ANTHROPIC_KEY)],
    );
    for request in &received {
        assert_eq!(request.line, "POST /v1/messages");
        assert_eq!(request.header("x-api-key"), Some(ANTHROPIC_KEY));
        assert_eq!(request.header("anthropic-version"), Some("2023-06-01"));
        assert_eq!(request.body["max_tokens"], 64_000, "from the model registry");
        assert!(request.body["system"].as_str().unwrap().contains("You are issuewright"));
    }
    let messages = received[1].body["messages"].as_array().unwrap();
    assert_eq!(messages.len(), 3, "user, assistant, user with both tool results");
    let results: Vec<&str> =
        messages[2]["content"].as_array().unwrap().iter().map(|b| b["tool_use_id"].as_str().unwrap()).collect();
    assert_eq!(results, ["toolu_fake0", "toolu_fake1"]);
    // Each round's prompt is cached for the next (and the schema, checked by the fake,
    // allows where the marks stand).
    let last_result = messages[2]["content"].as_array().unwrap().last().unwrap();
    assert_eq!(last_result["cache_control"], json!({"type": "ephemeral"}));
    assert_eq!(messages[0]["content"][0]["cache_control"], json!({"type": "ephemeral"}));
    assert_traced_without_secrets(&scratch, ANTHROPIC_KEY);
}

#[test]
fn ollama_fixes_the_demo_without_a_key() {
    let scratch = Scratch::with_demo();
    let fake = FakeProvider::start(specs::ollama_chat_request());
    fake.push(demo_turns(&scratch).iter().map(|turn| Reply::stream(&streams::ollama(turn, None), 200)));
    // A base URL written for Ollama's OpenAI-compatible endpoint still reaches its own API.
    let base_url = format!("{}/v1", fake.url());
    let received = run_demo(&scratch, &fake, &["--provider", "ollama", "--base-url", &base_url], &[]);
    assert!(fake.violations().is_empty(), "{:#?}", fake.violations());
    for request in &received {
        assert_eq!(request.line, "POST /api/chat");
        assert_eq!(request.header("authorization"), None, "Ollama needs no key");
        assert_eq!(request.body["model"], "qwen2.5-coder:7b", "the default model");
        assert_eq!(
            request.body["options"],
            json!({"num_ctx": 32_768, "num_predict": 8192}),
            "the model is asked to hold the context the run plans for"
        );
        assert_eq!(request.body["stream"], true);
    }
    let results: Vec<&Value> =
        received[1].body["messages"].as_array().unwrap().iter().filter(|m| m["role"] == "tool").collect();
    assert!(!results.is_empty() && results.iter().all(|m| m["tool_name"].is_string()), "{results:#?}");
}

#[test]
fn ollama_fixes_the_demo_when_the_model_writes_its_calls_as_text() {
    // The default model often writes a call in its answer's content, as JSON, rather than
    // as a tool call: each call of the demo comes so.
    let scratch = Scratch::with_demo();
    let fake = FakeProvider::start(specs::ollama_chat_request());
    let as_text = |turn: &Turn| match turn.calls.as_slice() {
        [] => turn.clone(),
        [(name, arguments)] => Turn {
            text: Some(format!("{}\n", json!({"name": name, "arguments": arguments}))),
            calls: vec![],
            usage: turn.usage,
        },
        calls => Turn {
            text: Some(
                json!(calls.iter().map(|(n, a)| json!({"name": n, "arguments": a})).collect::<Vec<_>>()).to_string(),
            ),
            calls: vec![],
            usage: turn.usage,
        },
    };
    fake.push(demo_turns(&scratch).iter().map(|turn| Reply::stream(&streams::ollama(&as_text(turn), None), 200)));
    run_demo(&scratch, &fake, &["--provider", "ollama", "--base-url", &fake.url()], &[]);
}

#[cfg(unix)]
#[test]
fn an_environment_variable_that_is_not_utf8_does_not_stop_a_run() {
    use std::os::unix::ffi::OsStrExt;
    let scratch = Scratch::with_demo();
    let fake = FakeProvider::start(specs::ollama_chat_request());
    fake.push(demo_turns(&scratch).iter().map(|turn| Reply::stream(&streams::ollama(turn, None), 200)));
    let base_url = fake.url();
    let args = ["run", "--issue", "@ISSUE.md", "--provider", "ollama", "--base-url", &base_url, "--json", "--repo"];
    let workspace = scratch.workspace();
    let mut command = issuewright_tests::issuewright_command(
        &scratch,
        &workspace,
        args.iter().map(std::ffi::OsStr::new).chain([workspace.as_os_str()]),
        &[],
    );
    // What a shell leaves after a visit to a folder named in Latin-1.
    command.env("OLDPWD", std::ffi::OsStr::from_bytes(b"/tmp/caf\xe9"));
    let output = command.output().unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    assert_demo_fixed(&run_report(&output));
}

#[test]
fn ollama_not_running_says_how_to_start_it() {
    let scratch = Scratch::with_demo();
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let base_url = format!("http://127.0.0.1:{closed}/v1");
    let output =
        run_cli(&scratch, &["--issue", "@ISSUE.md", "--provider", "ollama", "--base-url", &base_url, "--json"], &[]);
    assert_eq!(output.status.code(), Some(1));
    let error = run_report(&output)["error"].as_str().unwrap().to_owned();
    assert!(error.contains("cannot connect to"), "{error}");
    assert!(error.contains("ollama serve") && error.contains("ollama pull qwen2.5-coder:7b"), "{error}");
    assert!(error.contains("[provider] kind"), "names the other way: {error}");
}

#[test]
fn a_missing_key_is_named_before_anything_is_sent() {
    let scratch = Scratch::with_demo();
    let output = run_cli(&scratch, &["--issue", "@ISSUE.md", "--provider", "anthropic", "--json"], &[]);
    assert_eq!(output.status.code(), Some(1));
    let error = run_report(&output)["error"].as_str().unwrap().to_owned();
    assert!(error.contains("set the environment variable ANTHROPIC_API_KEY"), "{error}");
}

fn lsp_run(scratch: &Scratch, provider: Value, env: Vec<(String, String)>) -> (LspClient, Value) {
    let options =
        ClientOptions { initialization_options: json!({"provider": provider}), env, ..ClientOptions::default() };
    let mut client = LspClient::start(scratch, options);
    let started = client.command("issuewright.implementIssue", json!({"issue": "@ISSUE.md"})).unwrap();
    let status = client.wait_for_run(started["runId"].as_str().unwrap());
    (client, status)
}

/// A provider case: name, stream builder, provider settings, environment.
type Case = (&'static str, fn(&Turn) -> Vec<u8>, Value, Vec<(String, String)>);

#[test]
fn the_editor_runs_through_each_provider() {
    let cases: [Case; 3] = [
        (
            "openai",
            |t| streams::openai(t, None),
            json!({"kind": "openai", "model": "gpt-4o"}),
            vec![("OPENAI_API_KEY".into(), OPENAI_KEY.into())],
        ),
        (
            "anthropic",
            |t| streams::anthropic(t, None),
            json!({"kind": "anthropic"}),
            vec![("ANTHROPIC_API_KEY".into(), ANTHROPIC_KEY.into())],
        ),
        ("ollama", |t| streams::ollama(t, None), json!({"kind": "ollama"}), vec![]),
    ];
    for (name, stream, mut provider, env) in cases {
        let scratch = Scratch::with_demo();
        let schema = match name {
            "anthropic" => specs::anthropic_messages_request(),
            "ollama" => specs::ollama_chat_request(),
            _ => specs::openai_chat_request(),
        };
        let fake = FakeProvider::start(schema);
        fake.push(demo_turns(&scratch).iter().map(|turn| Reply::stream(&stream(turn), 97)));
        provider["base_url"] = json!(if name == "openai" { format!("{}/v1", fake.url()) } else { fake.url() });
        let (mut client, status) = lsp_run(&scratch, provider, env);
        assert_eq!(status["state"], "ready", "{name}: {status}");
        assert_eq!(status["usage"], json!({"inputTokens": 5000, "outputTokens": 500}), "{name}");
        assert_eq!(status["validation"]["build"], "passed", "{name}: {status}");
        assert!(fake.violations().is_empty(), "{name}: {:#?}", fake.violations());
        let applied = client.command("issuewright.applyProposal", json!({"runId": status["runId"]})).unwrap();
        assert_eq!(applied["verified"], true, "{name}: {applied}");
        assert!(scratch.read("src/lib.rs").unwrap().contains("word.to_lowercase()"), "{name}");
    }
}
