//! The request schemas the fakes check against really check: official examples pass,
//! broken bodies fail.

use issuewright_tests::specs;
use serde_json::json;

#[test]
fn official_openai_examples_validate_and_broken_ones_do_not() {
    let schema = specs::openai_chat_request();
    for example in ["chat.default.request.json", "chat.functions.request.json", "chat.streaming.request.json"] {
        let body = specs::json(&format!("openai/examples/{example}"));
        assert!(schema.violations(&body).is_empty(), "{example}: {:?}", schema.violations(&body));
    }
    assert!(
        !schema.violations(&json!({"messages": [{"role": "user", "content": "hi"}]})).is_empty(),
        "model is required"
    );
    let bad_role = json!({"model": "m", "messages": [{"role": "robot", "content": "hi"}]});
    assert!(!schema.violations(&bad_role).is_empty());
    let bad_tool =
        json!({"model": "m", "messages": [{"role": "user", "content": "x"}], "tools": [{"type": "function"}]});
    assert!(!schema.violations(&bad_tool).is_empty(), "a tool needs its function");
}

#[test]
fn official_anthropic_examples_validate_and_broken_ones_do_not() {
    let schema = specs::anthropic_messages_request();
    for example in ["request.stream-text.docs.json", "request.stream-tool-use.docs.json"] {
        let body = specs::json(&format!("anthropic/examples/{example}"));
        assert!(schema.violations(&body).is_empty(), "{example}: {:?}", schema.violations(&body));
    }
    let no_max_tokens = json!({"model": "m", "messages": [{"role": "user", "content": "hi"}]});
    assert!(!schema.violations(&no_max_tokens).is_empty(), "max_tokens is required");
    let system_role = json!({"model": "m", "max_tokens": 5, "messages": [{"role": "system", "content": "hi"}]});
    assert!(!schema.violations(&system_role).is_empty(), "there is no system role");
    let bad_result =
        json!({"model": "m", "max_tokens": 5, "messages": [{"role": "user", "content": [{"type": "tool_result"}]}]});
    assert!(!schema.violations(&bad_result).is_empty(), "tool_result needs tool_use_id");
}
