//! Starting, negotiating and stopping the server; malformed input leaves it alive.

use issuewright_tests::Scratch;
use issuewright_tests::lsp::{ClientOptions, LspClient};
use serde_json::json;
use std::time::{Duration, Instant};

#[test]
fn utf8_is_chosen_when_offered_and_utf16_otherwise() {
    let scratch = Scratch::new(&[]);
    let utf8 = LspClient::start(&scratch, ClientOptions::utf8());
    assert_eq!(utf8.initialize_result["capabilities"]["positionEncoding"], "utf-8");
    let utf16 = LspClient::start(&scratch, ClientOptions::default());
    assert_eq!(utf16.initialize_result["capabilities"]["positionEncoding"], "utf-16");
}

#[test]
fn capabilities_offer_incremental_sync_and_every_command() {
    let scratch = Scratch::new(&[]);
    let client = LspClient::start(&scratch, ClientOptions::default());
    let capabilities = &client.initialize_result["capabilities"];
    assert_eq!(capabilities["textDocumentSync"]["change"], 2, "incremental");
    assert_eq!(capabilities["textDocumentSync"]["openClose"], true);
    let commands = capabilities["executeCommandProvider"]["commands"].as_array().unwrap();
    for name in
        ["implementIssue", "runStatus", "proposal", "applyProposal", "discardProposal", "cancel", "validate", "context"]
    {
        assert!(commands.contains(&json!(format!("issuewright.{name}"))), "{name}");
    }
    assert_eq!(client.initialize_result["serverInfo"]["name"], "issuewright");
}

#[test]
fn shutdown_then_exit_ends_the_process_cleanly() {
    let scratch = Scratch::new(&[]);
    let client = LspClient::start(&scratch, ClientOptions::default());
    assert!(client.shutdown().success());
}

#[test]
fn sigterm_during_a_build_ends_the_server_and_everything_the_build_started() {
    let toml = "[validate]\ncheck = \"sleep 300 & echo $! > \\\"$HOME/sleeper.pid\\\"; wait\"\n";
    let scratch = Scratch::new(&[(".issuewright.toml", toml), ("lib/a.py", "x = 1\n")]);
    let mut client = LspClient::start(&scratch, ClientOptions::default());
    client.send_request("workspace/executeCommand", json!({"command": "issuewright.validate", "arguments": [{}]}));
    let pid_file = scratch.home().join("sleeper.pid");
    let deadline = Instant::now() + Duration::from_secs(60);
    let pid = loop {
        if let Some(pid) = std::fs::read_to_string(&pid_file).ok().and_then(|text| text.trim().parse::<i32>().ok()) {
            break pid;
        }
        assert!(Instant::now() < deadline, "the check never started: {}", client.stderr());
        std::thread::sleep(Duration::from_millis(50));
    };
    let alive = || {
        std::fs::read_to_string(format!("/proc/{pid}/stat"))
            .is_ok_and(|stat| !stat.rsplit_once(')').is_some_and(|(_, rest)| rest.trim_start().starts_with('Z')))
    };
    assert!(alive());
    assert_eq!(client.terminate().code(), Some(1));
    let deadline = Instant::now() + Duration::from_secs(10);
    while alive() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(!alive(), "the build's background sleep is gone with the server");
}

#[test]
fn malformed_messages_are_answered_and_the_server_lives_on() {
    let scratch = Scratch::new(&[]);
    let mut client = LspClient::start(&scratch, ClientOptions::default());

    // Not JSON at all.
    client.send_raw(b"Content-Length: 6\r\n\r\n{oops}");
    // JSON, but not a request.
    client.send_raw(b"Content-Length: 2\r\n\r\n[]");
    // A message with no usable length: its body runs into the next frame's header.
    client.send_raw(b"Content-Length: two\r\n\r\n{\"jsonrpc\":\"2.0\",\"method\":\"initialized\"}");
    // Valid JSON-RPC with arguments of the wrong shape.
    let wrong = client.command("issuewright.runStatus", json!({"runId": 5})).unwrap_err();
    assert_eq!(wrong["code"], -32602, "{wrong}");
    assert!(wrong["message"].as_str().unwrap().contains("runStatus"), "{wrong}");
    let no_arguments = client
        .request("workspace/executeCommand", json!({"command": "issuewright.proposal", "arguments": []}))
        .unwrap_err();
    assert!(no_arguments["message"].as_str().unwrap().contains("takes one argument object"), "{no_arguments}");
    let unknown = client.command("issuewright.frobnicate", json!({})).unwrap_err();
    assert!(unknown["message"].as_str().unwrap().contains("unknown command"), "{unknown}");
    // A document change for a document never opened is ignored, not fatal.
    client.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": "file:///nowhere/x.rs", "version": 2}, "contentChanges": [{"text": "x"}]}),
    );

    let codes: Vec<&serde_json::Value> = client.unsolicited.iter().map(|r| &r["error"]["code"]).collect();
    assert_eq!(codes, [-32700, -32600, -32700], "parse error, invalid request, bad length");

    // Still serving.
    let status = client.command("issuewright.runStatus", json!({"runId": "20200101-000000-0000"})).unwrap_err();
    assert!(status["message"].as_str().unwrap().contains("no run `20200101-000000-0000`"), "{status}");
    assert!(client.shutdown().success());
}

#[test]
fn requests_to_the_client_from_notifications_never_stall_the_session() {
    let scratch = Scratch::new(&[("a.txt", "a\n")]);
    let mut options = ClientOptions::default();
    // As VS Code and Neovim do: the server may ask for settings and register file watching.
    options.capabilities["workspace"]["configuration"] = json!(true);
    options.capabilities["workspace"]["didChangeWatchedFiles"] = json!({"dynamicRegistration": true});
    let mut client = LspClient::start(&scratch, options);
    client.open("a.txt", "a\n");
    client.save("a.txt");
    // Answered, while the server waits on its own requests to the client.
    let answer = client.command("issuewright.runStatus", json!({"runId": "no-such-run"}));
    assert!(answer.unwrap_err()["message"].as_str().unwrap().contains("no-such-run"));
    // The registration is asked for in the background; the session answers meanwhile.
    let registration = client.wait_for_server_request("client/registerCapability");
    let watchers = &registration["params"]["registrations"][0]["registerOptions"]["watchers"];
    assert!(
        watchers.as_array().unwrap().iter().any(|w| w["globPattern"] == "**/*" && w["kind"] == 5),
        "folders that come or go are watched too: {watchers}"
    );
    assert!(
        watchers
            .as_array()
            .unwrap()
            .iter()
            .any(|w| w["globPattern"] == "**/{Cargo.toml,tsconfig*.json,jsconfig*.json,.gitignore,.ignore}"),
        "so are the manifests: {watchers}"
    );
    assert!(
        watchers.as_array().unwrap().iter().any(|w| w["globPattern"] == "**/.git/info/exclude"),
        "and a repository's own excludes: {watchers}"
    );
    assert!(
        watchers.as_array().unwrap().iter().any(|w| w["globPattern"] == "**/*.json"),
        "and the bases a tsconfig.json extends, whatever their names: {watchers}"
    );
    // The settings request after the save is answered within the session too.
    client.wait_for_server_request("workspace/configuration");
    let after = client.command("issuewright.runStatus", json!({"runId": "no-such-run"}));
    assert!(after.is_err(), "still answering after the settings request");
}

#[test]
fn a_multi_root_workspace_is_told_which_folder_is_worked_in() {
    let scratch = Scratch::new(&[("src/lib.rs", "pub fn a() {}\n"), ("nested/src/lib.rs", "pub fn b() {}\n")]);
    let other = scratch.workspace().parent().unwrap().join("other");
    std::fs::create_dir_all(other.join("src")).unwrap();
    // A folder inside the first is worked in with it, and goes unnamed.
    let folders = vec![scratch.workspace().join("nested"), other];
    let mut client = LspClient::start(&scratch, ClientOptions { more_folders: folders, ..ClientOptions::default() });
    let warning = client.wait_for_notification(|n| n["method"] == "window/showMessage");
    assert_eq!(warning["params"]["type"], 2, "a warning: {warning}");
    let message = warning["params"]["message"].as_str().unwrap();
    let first = scratch.workspace().display().to_string();
    assert!(message.contains(&format!("works in one workspace folder, the first: {first}.")), "{message}");
    assert!(message.contains("/other is not indexed"), "{message}");
    assert!(!message.contains("nested"), "{message}");

    // A single folder is no news.
    let mut single = LspClient::start(&scratch, ClientOptions::default());
    single.wait_for_notification(|n| n["method"] == "$/progress" && n["params"]["value"]["kind"] == "end");
    assert!(!single.notifications.iter().any(|n| n["method"] == "window/showMessage"), "{:?}", single.notifications);
}
