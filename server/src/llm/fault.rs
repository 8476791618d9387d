//! What went wrong talking to a provider, and what to do about it: retry, compact, or stop.

use std::time::Duration;

use serde_json::Value;

/// How a failure is handled.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FaultClass {
    /// Worth retrying after a pause: rate limits, overload, 5xx, dropped connections, timeouts.
    Retryable,
    /// The conversation no longer fits the model's context window.
    ContextOverflow,
    /// The key is missing, wrong or not allowed; or the account cannot pay.
    Auth,
    /// The request was refused as it is (bad parameters, unknown model).
    BadRequest,
    /// The model or server does not do native tool calling.
    ToolsUnsupported,
    /// Nothing listens at the base URL.
    Unreachable,
}

/// One failure of one attempt.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fault {
    /// How to handle it.
    pub class: FaultClass,
    /// The provider's own words where there are some.
    pub message: String,
    /// How long the server asked us to wait.
    pub retry_after: Option<Duration>,
}

impl Fault {
    /// A fault of `class` saying `message`.
    pub fn new(class: FaultClass, message: impl Into<String>) -> Self {
        Self { class, message: message.into(), retry_after: None }
    }
}

/// The message inside an error body: OpenAI `{error: {message, code}}`, Anthropic
/// `{type: "error", error: {type, message}}`, Ollama `{error: "text"}`; else the raw text.
pub fn error_message(body: &str) -> String {
    let Ok(value) = serde_json::from_str::<Value>(body) else {
        let trimmed = body.trim();
        return if trimmed.is_empty() { "(empty body)".into() } else { trimmed.chars().take(500).collect() };
    };
    let error = &value["error"];
    let message = error["message"].as_str().or_else(|| error.as_str()).or_else(|| value["message"].as_str());
    let code = error["code"].as_str().or_else(|| error["type"].as_str());
    match (message, code) {
        (Some(message), Some(code)) => format!("{message} ({code})"),
        (Some(message), None) => message.to_owned(),
        _ => value.to_string().chars().take(500).collect(),
    }
}

/// Classifies an HTTP error answer. `should_retry` is the `x-should-retry` header when sent.
pub fn classify_status(status: u16, body: &str, retry_after: Option<Duration>, should_retry: Option<bool>) -> Fault {
    let mut message = format!("HTTP {status}: {}", error_message(body));
    let lower = body.to_ascii_lowercase();
    // One request larger than the account's tokens per minute (OpenAI counts the answer's
    // whole room): waiting a minute does not make it fit.
    let too_large_to_wait_for = lower.contains("request too large") || lower.contains("must be reduced");
    if too_large_to_wait_for {
        message.push_str(
            " (one request is over the account's limit per minute; lower provider.max_output_tokens, which counts \
             whole against it, or use a model or account with a higher limit)",
        );
    }
    let class = if too_large_to_wait_for {
        FaultClass::BadRequest
    } else if says_context_overflow(&lower) || status == 413 {
        FaultClass::ContextOverflow
    } else if says_tools_unsupported(&lower) {
        FaultClass::ToolsUnsupported
    } else if says_account_cannot_pay(&lower) || (401..=403).contains(&status) {
        FaultClass::Auth
    } else if let Some(retry) = should_retry {
        if retry { FaultClass::Retryable } else { FaultClass::BadRequest }
    } else if matches!(status, 408 | 409 | 429 | 529) || status >= 500 {
        FaultClass::Retryable
    } else {
        FaultClass::BadRequest
    };
    Fault { class, message, retry_after }
}

/// Whether an error body (lowercased) says the conversation is over the model's window:
/// OpenAI's `context_length_exceeded`, Anthropic's "prompt is too long" and "input length and
/// `max_tokens` exceed context limit", and the wordings of OpenAI-compatible servers.
fn says_context_overflow(lower: &str) -> bool {
    [
        "context_length_exceeded",
        "prompt is too long",
        "exceed context limit",
        "maximum context length",
        "context window",
        // llama.cpp's server: `exceed_context_size_error`, "exceeds the available context size",
        // and, from older builds, "context size has been exceeded".
        "exceed_context_size_error",
        "exceeds the available context size",
        "context size has been exceeded",
    ]
    .iter()
    .any(|phrase| lower.contains(phrase))
}

/// Whether an error body (lowercased) says the server does not take tool definitions:
/// Ollama's models, vLLM started without `--enable-auto-tool-choice`, llama.cpp without
/// `--jinja`. The text protocol serves them.
fn says_tools_unsupported(lower: &str) -> bool {
    ["does not support tools", "tools are not supported", "--enable-auto-tool-choice", "tools param requires --jinja"]
        .iter()
        .any(|phrase| lower.contains(phrase))
}

/// Whether an error body (lowercased) says the account cannot pay: OpenAI's
/// `insufficient_quota`, Anthropic's `billing_error` and "credit balance is too low". A
/// rate limit's advice to add a payment method at a billing page is not one: that limit
/// passes, and the request is worth retrying.
fn says_account_cannot_pay(lower: &str) -> bool {
    ["insufficient_quota", "billing_error", "credit balance is too low"].iter().any(|phrase| lower.contains(phrase))
}

/// Classifies an error event inside a stream (Anthropic `event: error`, an OpenAI-style
/// `{"error": ...}` chunk, or Ollama's bare JSON error line).
pub fn classify_stream_error(body: &str) -> Fault {
    let lower = body.to_ascii_lowercase();
    // An overflow is told first: OpenAI-compatible servers type it `api_error` too.
    let class = if says_context_overflow(&lower) {
        FaultClass::ContextOverflow
    } else if lower.contains("overloaded")
        || lower.contains("rate_limit")
        || lower.contains("api_error")
        || lower.contains("timeout")
    {
        FaultClass::Retryable
    } else if lower.contains("authentication_error")
        || lower.contains("permission_error")
        || says_account_cannot_pay(&lower)
    {
        // The key was refused, or the account cannot pay: the same request fails again.
        FaultClass::Auth
    } else if lower.contains("invalid_request")
        || lower.contains("not_found_error")
        || lower.contains("request_too_large")
    {
        FaultClass::BadRequest
    } else {
        FaultClass::Retryable
    };
    Fault::new(class, format!("error in the response stream: {}", error_message(body)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(path: &str) -> Value {
        let text = std::fs::read_to_string(crate::testing::specs_dir().join(path)).expect("spec file");
        serde_json::from_str(&text).unwrap()
    }

    #[test]
    fn openai_error_bodies_from_the_spec() {
        let errors = spec("openai/examples/errors.observed.json");
        let body = |name: &str| errors[name]["body"].to_string();
        let overflow = classify_status(400, &body("context_length_exceeded"), None, None);
        assert_eq!(overflow.class, FaultClass::ContextOverflow);
        assert!(overflow.message.contains("maximum context length is 4097 tokens"), "{}", overflow.message);
        assert_eq!(classify_status(401, &body("invalid_api_key"), None, None).class, FaultClass::Auth);
        // A request over the limit per minute on its own is not worth waiting for.
        let too_large = classify_status(429, &body("rate_limit_exceeded_tpm"), Some(Duration::from_secs(2)), None);
        assert_eq!(too_large.class, FaultClass::BadRequest);
        assert!(too_large.message.contains("lower provider.max_output_tokens"), "{}", too_large.message);
        let limited = r#"{"error":{"message":"Rate limit reached for gpt-4o on tokens per min (TPM): Limit 30000, Used 29000, Requested 1500. Please try again in 1s.","type":"tokens","param":null,"code":"rate_limit_exceeded"}}"#;
        let limited = classify_status(429, limited, Some(Duration::from_secs(2)), None);
        assert_eq!(limited.class, FaultClass::Retryable);
        assert_eq!(limited.retry_after, Some(Duration::from_secs(2)));
    }

    #[test]
    fn stream_error_events_of_every_documented_type_are_classed_as_their_status_is() {
        // Anthropic's error types (the spec's status table), as an `event: error` carries them.
        let event = |kind: &str| format!(r#"{{"type":"error","error":{{"type":"{kind}","message":"m"}}}}"#);
        for (kind, class) in [
            ("invalid_request_error", FaultClass::BadRequest),
            ("authentication_error", FaultClass::Auth),
            ("billing_error", FaultClass::Auth),
            ("permission_error", FaultClass::Auth),
            ("not_found_error", FaultClass::BadRequest),
            ("request_too_large", FaultClass::BadRequest),
            ("rate_limit_error", FaultClass::Retryable),
            ("api_error", FaultClass::Retryable),
            ("timeout_error", FaultClass::Retryable),
            ("overloaded_error", FaultClass::Retryable),
        ] {
            assert_eq!(classify_stream_error(&event(kind)).class, class, "{kind}");
        }
    }

    #[test]
    fn anthropic_error_bodies_from_the_spec() {
        let errors = spec("anthropic/examples/errors.json");
        let body = |name: &str| errors[name]["body"].to_string();
        assert_eq!(
            classify_status(400, &body("prompt_too_long_observed"), None, None).class,
            FaultClass::ContextOverflow
        );
        assert_eq!(classify_status(429, &body("rate_limit_observed"), None, None).class, FaultClass::Retryable);
        let not_found = classify_status(404, &body("not_found_docs_example"), None, None);
        assert_eq!(not_found.class, FaultClass::BadRequest);
        assert_eq!(not_found.message, "HTTP 404: The requested resource could not be found. (not_found_error)");
        let overloaded = r#"{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}"#;
        assert_eq!(classify_status(529, overloaded, None, None).class, FaultClass::Retryable);
        assert_eq!(classify_stream_error(overloaded).class, FaultClass::Retryable);
    }

    #[test]
    fn ollama_error_bodies_from_the_spec() {
        let errors = spec("ollama/examples/errors.json");
        let native = errors["native_error_body"].to_string();
        assert_eq!(error_message(&native), "the model failed to generate a response");
        assert_eq!(classify_status(500, &native, None, None).class, FaultClass::Retryable);
        let tools = r#"{"error":{"message":"registry.ollama.ai/library/codellama:7b does not support tools","type":"api_error","param":null,"code":null}}"#;
        assert_eq!(classify_status(400, tools, None, None).class, FaultClass::ToolsUnsupported);
        // Its own API says so in its own shape.
        let native_tools = r#"{"error":"registry.ollama.ai/library/codellama:7b does not support tools"}"#;
        let refused = classify_status(400, native_tools, None, None);
        assert_eq!(refused.class, FaultClass::ToolsUnsupported);
        assert_eq!(refused.message, "HTTP 400: registry.ollama.ai/library/codellama:7b does not support tools");
    }

    #[test]
    fn a_rate_limit_that_points_at_billing_is_waited_for_and_an_empty_account_is_not() {
        // The spec's rate-limit body, with the advice a free tier's limit adds to it.
        let errors = spec("openai/examples/errors.observed.json");
        let mut body = errors["rate_limit_exceeded_tpm"]["body"].clone();
        body["error"]["message"] = Value::String(
            "Rate limit reached for gpt-4o in organization org-78asdf87asdf9aaa8976 on requests per min (RPM): \
             Limit 3, Used 3, Requested 1. Please try again in 20s. Visit https://platform.openai.com/account/rate-limits \
             to learn more. You can increase your rate limit by adding a payment method to your account at \
             https://platform.openai.com/account/billing."
                .into(),
        );
        let limited = classify_status(429, &body.to_string(), Some(Duration::from_secs(20)), None);
        assert_eq!(limited.class, FaultClass::Retryable, "{}", limited.message);

        body["error"]["code"] = "insufficient_quota".into();
        body["error"]["message"] =
            "You exceeded your current quota, please check your plan and billing details.".into();
        assert_eq!(classify_status(429, &body.to_string(), None, None).class, FaultClass::Auth);
        // Anthropic's shape (`{type: "error", error: {type, message}}`), for an account out of credit.
        let errors = spec("anthropic/examples/errors.json");
        let mut body = errors["invalid_request_openapi_example"]["body"].clone();
        body["error"]["message"] = "Your credit balance is too low to access the Anthropic API.".into();
        assert_eq!(classify_status(400, &body.to_string(), None, None).class, FaultClass::Auth);
        body["error"]["type"] = "billing_error".into();
        body["error"]["message"] = "Payment required".into();
        assert_eq!(classify_status(402, &body.to_string(), None, None).class, FaultClass::Auth);
    }

    #[test]
    fn anthropic_overflow_by_the_answer_room_is_an_overflow() {
        let errors = spec("anthropic/examples/errors.json");
        let mut body = errors["prompt_too_long_observed"]["body"].clone();
        body["error"]["message"] = "input length and `max_tokens` exceed context limit: 188240 + 21333 > 200000, \
                                    decrease input length or `max_tokens` and try again"
            .into();
        let fault = classify_status(400, &body.to_string(), None, None);
        assert_eq!(fault.class, FaultClass::ContextOverflow, "{}", fault.message);
        assert_eq!(classify_stream_error(&body.to_string()).class, FaultClass::ContextOverflow);
    }

    #[test]
    fn what_local_servers_say_of_a_full_window_and_of_tools_they_cannot_take() {
        // The OpenAI error shape (`{error: {message, type, param, code}}`), as llama.cpp and vLLM fill it.
        let body = |message: &str, kind: &str| {
            let mut body = spec("openai/examples/errors.observed.json")["context_length_exceeded"]["body"].clone();
            body["error"] = serde_json::json!({"code": 400, "message": message, "type": kind});
            body.to_string()
        };
        let full = body(
            "request (25837 tokens) exceeds the available context size (25088 tokens), try increasing it",
            "exceed_context_size_error",
        );
        assert_eq!(classify_status(400, &full, None, None).class, FaultClass::ContextOverflow);
        let old_build = body("Context size has been exceeded.", "server_error");
        assert_eq!(classify_status(500, &old_build, None, None).class, FaultClass::ContextOverflow, "not retried");
        let in_stream = body("the request exceeds the available context size", "api_error");
        assert_eq!(classify_stream_error(&in_stream).class, FaultClass::ContextOverflow);

        let vllm = body(
            "\"auto\" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set",
            "BadRequestError",
        );
        assert_eq!(classify_status(400, &vllm, None, None).class, FaultClass::ToolsUnsupported);
        let llama = body("tools param requires --jinja flag", "server_error");
        assert_eq!(classify_status(500, &llama, None, None).class, FaultClass::ToolsUnsupported, "not retried");
    }

    #[test]
    fn statuses_without_useful_bodies() {
        for (status, class) in [
            (500, FaultClass::Retryable),
            (502, FaultClass::Retryable),
            (503, FaultClass::Retryable),
            (529, FaultClass::Retryable),
            (408, FaultClass::Retryable),
            (413, FaultClass::ContextOverflow),
            (403, FaultClass::Auth),
            (422, FaultClass::BadRequest),
            (400, FaultClass::BadRequest),
        ] {
            assert_eq!(classify_status(status, "<html>nope</html>", None, None).class, class, "{status}");
        }
        assert_eq!(classify_status(400, "{}", None, Some(true)).class, FaultClass::Retryable, "x-should-retry wins");
        assert_eq!(classify_status(503, "{}", None, Some(false)).class, FaultClass::BadRequest);
        assert_eq!(error_message(""), "(empty body)");
    }
}
