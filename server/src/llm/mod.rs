//! Models behind one trait. The driver hands a [`ChatModel`] the conversation and the tool
//! descriptors and gets back one assistant turn. Providers: OpenAI-compatible servers,
//! Anthropic, Ollama (through its OpenAI-compatible endpoint), and the replay of recorded
//! turns. Native tool calling where the model supports it, the JSON text protocol otherwise.

mod anthropic;
mod fault;
#[cfg(any(test, feature = "fuzzing"))]
pub mod fuzzing;
mod http;
mod ollama;
mod openai;
pub mod redact;
pub mod registry;
mod replay;
mod retry;
mod sse;
pub mod text_protocol;
mod trace;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use serde_json::Value;

pub use fault::{FaultClass, classify_status, error_message};
pub use registry::ModelInfo;
pub use replay::{ReplayError, ReplayModel};
pub use retry::RetryPolicy;
pub use trace::{NoTrace, TraceSink};

use crate::config::{ProviderKind, ProviderSettings};
use fault::Fault;
use http::{Endpoint, Transport};

/// A tool call the model asked for.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ToolCall {
    /// The model's id for the call, echoed with its result.
    pub id: String,
    /// The tool's name.
    pub name: String,
    /// The arguments: a JSON object when the model behaves; the raw text when it was not JSON.
    pub arguments: Value,
    /// Why the arguments are not JSON (e.g. cut off by the output limit), if they are not.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub malformed: Option<String>,
}

/// Parses tool arguments sent as JSON text: `(value, None)`, or `(raw text, Some(error))`.
pub fn parse_arguments(raw: &str) -> (Value, Option<String>) {
    if raw.trim().is_empty() {
        return (Value::Object(Default::default()), None);
    }
    match serde_json::from_str(raw) {
        Ok(value) => (value, None),
        Err(error) => (Value::String(raw.to_owned()), Some(error.to_string())),
    }
}

/// Why the model stopped producing its turn.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StopReason {
    /// The turn is complete.
    #[default]
    EndTurn,
    /// The model wants its tool calls run.
    ToolUse,
    /// The output token limit cut the turn.
    MaxTokens,
    /// The provider paused a long turn; sending it back lets the model continue.
    Paused,
    /// The model declined, or a content filter stopped it.
    Refused,
}

/// Tokens a turn consumed.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Usage {
    /// Prompt tokens (cache reads and writes included).
    pub input_tokens: u64,
    /// Answer tokens.
    pub output_tokens: u64,
}

impl std::ops::AddAssign for Usage {
    fn add_assign(&mut self, other: Self) {
        self.input_tokens += other.input_tokens;
        self.output_tokens += other.output_tokens;
    }
}

/// One assistant turn.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct AssistantTurn {
    /// Text the model wrote.
    pub content: Option<String>,
    /// Tool calls, in the order to run them.
    pub tool_calls: Vec<ToolCall>,
    /// Why the turn ended.
    pub stop: StopReason,
    /// Tokens used, when the provider reports them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub usage: Option<Usage>,
    /// Text-protocol answers that had to be repaired (cut-off JSON completed).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub repairs: u32,
    /// A text-protocol answer that could not be read, and why.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub protocol_error: Option<String>,
}

fn is_zero(value: &u32) -> bool {
    *value == 0
}

/// One message of the conversation.
#[derive(Debug, Clone, PartialEq)]
pub enum Message {
    /// Instructions.
    System(String),
    /// The user's words (the issue and its context), or the driver's feedback.
    User(String),
    /// A previous turn of the model.
    Assistant(AssistantTurn),
    /// The result of one tool call.
    ToolResult {
        /// The call's id.
        call_id: String,
        /// The tool.
        name: String,
        /// The result text.
        content: String,
        /// True when the call failed.
        is_error: bool,
    },
}

/// A tool as the model sees it.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct ToolSpec {
    /// The name the model calls it by.
    pub name: &'static str,
    /// What it does and when to use it.
    pub description: &'static str,
    /// JSON Schema of its arguments object.
    pub parameters: Value,
}

/// What the driver sends for one turn.
#[derive(Debug, Clone, Copy)]
pub struct ChatRequest<'a> {
    /// The conversation so far.
    pub messages: &'a [Message],
    /// The tools the model may call.
    pub tools: &'a [ToolSpec],
}

/// Why a model gave no turn. Each message names the provider and what to do.
#[derive(Debug, thiserror::Error)]
pub enum LlmError {
    /// The replay file is unusable or exhausted.
    #[error(transparent)]
    Replay(#[from] ReplayError),
    /// Still failing after every retry.
    #[error("{provider} did not answer after {attempts} attempts: {message}")]
    Unavailable {
        /// The provider.
        provider: &'static str,
        /// The last failure.
        message: String,
        /// Attempts made.
        attempts: u32,
    },
    /// The conversation no longer fits the model's context window.
    #[error("the conversation no longer fits the model's context window ({provider}): {message}")]
    ContextOverflow {
        /// The provider.
        provider: &'static str,
        /// Its words.
        message: String,
    },
    /// The key was refused, or the account cannot be used.
    #[error("{provider} refused the credentials: {message}. {hint}")]
    Auth {
        /// The provider.
        provider: &'static str,
        /// Its words.
        message: String,
        /// Which setting to check.
        hint: String,
    },
    /// The request was refused as it is.
    #[error("{provider} rejected the request: {message}. Check provider.model and provider.base_url")]
    Rejected {
        /// The provider.
        provider: &'static str,
        /// Its words.
        message: String,
    },
    /// The model does not do native tool calling (the run switches to the text protocol).
    #[error("{provider}: the model does not support native tool calls: {message}")]
    ToolsUnsupported {
        /// The provider.
        provider: &'static str,
        /// Its words.
        message: String,
    },
    /// Nothing answers at the configured address.
    #[error("{message}. {hint}")]
    Unreachable {
        /// What failed.
        message: String,
        /// How to start the server or configure another.
        hint: String,
    },
    /// The provider needs a key and its environment variable is not set.
    #[error(
        "{provider} needs an API key: set the environment variable {variable} (or name another with provider.api_key_env)"
    )]
    MissingKey {
        /// The provider.
        provider: &'static str,
        /// The variable.
        variable: String,
    },
}

impl LlmError {
    fn from_fault(fault: Fault, endpoint: &Endpoint, retries: u32) -> Self {
        let provider = endpoint.provider;
        let message = fault.message;
        match fault.class {
            FaultClass::Retryable => Self::Unavailable { provider, message, attempts: retries + 1 },
            FaultClass::ContextOverflow => Self::ContextOverflow { provider, message },
            FaultClass::Auth => Self::Auth {
                provider,
                message,
                hint: match provider {
                    "anthropic" => "Check ANTHROPIC_API_KEY (or the variable named by provider.api_key_env)".into(),
                    _ => "Check the API key variable (OPENAI_API_KEY, or the one named by provider.api_key_env)".into(),
                },
            },
            FaultClass::BadRequest => Self::Rejected { provider, message },
            FaultClass::ToolsUnsupported => Self::ToolsUnsupported { provider, message },
            FaultClass::Unreachable => Self::Unreachable { message, hint: endpoint.unreachable_hint.clone() },
        }
    }

    /// True when the driver should compact the conversation and try again.
    pub fn is_context_overflow(&self) -> bool {
        matches!(self, Self::ContextOverflow { .. })
    }
}

/// A model that answers one turn at a time.
#[async_trait::async_trait]
pub trait ChatModel: Send + Sync {
    /// A short description for records, e.g. `openai:gpt-4o at https://api.openai.com/v1/chat/completions`.
    fn describe(&self) -> String;

    /// The model's next turn for this conversation.
    async fn complete(&self, request: ChatRequest<'_>) -> Result<AssistantTurn, LlmError>;
}

/// A connected model with what is known about it.
pub struct Connected {
    /// The model.
    pub model: Box<dyn ChatModel>,
    /// Its limits: the registry's, with the configured answer limit (`max_output_tokens`).
    pub info: ModelInfo,
}

/// The limits a run plans for with the model the settings name: the registry's, with the
/// configured answer limit (`max_output_tokens`), and for a local model the window a run asks
/// it to hold.
pub fn model_info(settings: &ProviderSettings) -> ModelInfo {
    let known = registry::lookup(&settings.model);
    // Answers are as long as configured, and the room left for the prompt follows from that.
    let mut info = ModelInfo { max_output: settings.max_output_tokens.unwrap_or(known.max_output), ..known };
    if settings.kind == ProviderKind::Ollama {
        // A local model holds the context it is asked for, in memory: as much as a run plans for.
        info.context_window = info.context_window.min(ollama::MAX_LOCAL_CONTEXT);
        if settings.max_output_tokens.is_none() {
            info.max_output = info.max_output.min(info.context_window / 4);
        }
    }
    info
}

/// Builds the model the settings name. Keys are read from the environment here, and only here.
pub fn connect(settings: &ProviderSettings, trace: Arc<dyn TraceSink>) -> Result<Connected, LlmError> {
    let info = model_info(settings);
    if settings.kind == ProviderKind::Replay {
        let path = settings.replay.as_deref().expect("configuration checks that replay has a file");
        return Ok(Connected { model: Box::new(ReplayModel::load(path)?), info });
    }
    let key = match &settings.api_key_env {
        Some(variable) => std::env::var(variable).ok().filter(|key| !key.trim().is_empty()).map(|key| (variable, key)),
        None => None,
    };
    let required = match settings.kind {
        ProviderKind::Anthropic => true,
        ProviderKind::Openai => settings.base_url.contains("api.openai.com"),
        _ => false,
    };
    if key.is_none() && required {
        return Err(LlmError::MissingKey {
            provider: settings.kind.as_str(),
            variable: settings.api_key_env.clone().unwrap_or_default(),
        });
    }
    let redactor = redact::Redactor::from_environment(&[settings.api_key_env.as_deref().unwrap_or("")]);
    let policy = RetryPolicy { max_retries: settings.max_retries, ..RetryPolicy::default() };
    let transport = Transport::new(policy, settings.timeout, redactor, trace);
    let max_output_tokens = info.max_output;
    let configure_hint = "Or configure another provider in ~/.config/issuewright/config.toml (or the editor's settings, or with --provider): [provider] kind = \"openai\" | \"anthropic\", base_url, model";
    let model: Arc<dyn ChatModel> = match settings.kind {
        ProviderKind::Anthropic => {
            let (_, key) = key.expect("checked above");
            Arc::new(anthropic::AnthropicMessages {
                endpoint: Endpoint {
                    provider: "anthropic",
                    url: format!("{}/v1/messages", settings.base_url.trim_end_matches("/v1")),
                    headers: vec![("x-api-key", key), ("anthropic-version", anthropic::API_VERSION.to_owned())],
                    unreachable_hint: format!("Check provider.base_url ({}) and your network", settings.base_url),
                },
                model: settings.model.clone(),
                max_output_tokens,
                transport,
            })
        }
        ProviderKind::Ollama => Arc::new(ollama::OllamaChat {
            endpoint: Endpoint {
                provider: "ollama",
                url: ollama::chat_url(&settings.base_url),
                headers: key.map(|(_, key)| vec![auth_header(&settings.base_url, key)]).unwrap_or_default(),
                unreachable_hint: format!(
                    "Ollama does not seem to be running: start it with `ollama serve` and fetch the model with `ollama pull {}`. {configure_hint}",
                    settings.model
                ),
            },
            model: settings.model.clone(),
            max_output_tokens,
            context_window: info.context_window,
            transport,
        }),
        _ => {
            let hint = format!("Is the server at {} running? {configure_hint}", settings.base_url);
            let official = settings.base_url.contains("api.openai.com")
                || settings.base_url.contains(".openai.azure.com")
                || settings.base_url.contains(".cognitiveservices.azure.com")
                || refuses_max_tokens(&settings.model);
            Arc::new(openai::OpenAiChat {
                endpoint: Endpoint {
                    provider: "openai",
                    url: chat_completions_url(&settings.base_url),
                    headers: key.map(|(_, key)| vec![auth_header(&settings.base_url, key)]).unwrap_or_default(),
                    unreachable_hint: hint,
                },
                model: settings.model.clone(),
                max_output_tokens,
                limit_field: if official {
                    openai::LimitField::MaxCompletionTokens
                } else {
                    openai::LimitField::MaxTokens
                },
                transport,
                without_stream_options: Default::default(),
            })
        }
    };
    let model: Box<dyn ChatModel> = if settings.native_tools && info.tools {
        Box::new(NativeFirst {
            text: text_protocol::TextProtocol::new(model.clone()),
            native: model,
            fallen_back: AtomicBool::new(false),
        })
    } else {
        Box::new(text_protocol::TextProtocol::new(model))
    };
    Ok(Connected { model, info })
}

/// `<base_url>/chat/completions`, keeping a query string (Azure's `?api-version=...`) last.
fn chat_completions_url(base_url: &str) -> String {
    match base_url.split_once('?') {
        Some((path, query)) => format!("{}/chat/completions?{query}", path.trim_end_matches('/')),
        None => format!("{}/chat/completions", base_url.trim_end_matches('/')),
    }
}

/// Azure OpenAI takes the key in `api-key`; everyone else in `Authorization: Bearer`.
fn auth_header(base_url: &str, key: String) -> (&'static str, String) {
    let azure = base_url.contains(".openai.azure.com") || base_url.contains(".cognitiveservices.azure.com");
    if azure { ("api-key", key) } else { ("authorization", format!("Bearer {key}")) }
}

/// OpenAI's reasoning models (`o1`, `o3`, `o4-mini`, `gpt-5`), which refuse `max_tokens`
/// whoever passes the request on (a gateway, a proxy): named as such, or after a vendor's
/// prefix (`openai/o3`).
fn refuses_max_tokens(model: &str) -> bool {
    let name = model.rsplit('/').next().unwrap_or(model).to_ascii_lowercase();
    let numbered = |prefix: &str| {
        name.strip_prefix(prefix).is_some_and(|rest| rest.is_empty() || rest.starts_with('-') || rest.starts_with('.'))
    };
    ["o1", "o3", "o4", "gpt-5"].iter().any(|prefix| numbered(prefix))
}

/// Native tool calling, switching to the text protocol for good when the server says the
/// model cannot call tools.
struct NativeFirst {
    native: Arc<dyn ChatModel>,
    text: text_protocol::TextProtocol,
    fallen_back: AtomicBool,
}

#[async_trait::async_trait]
impl ChatModel for NativeFirst {
    fn describe(&self) -> String {
        if self.fallen_back.load(Ordering::Relaxed) { self.text.describe() } else { self.native.describe() }
    }

    async fn complete(&self, request: ChatRequest<'_>) -> Result<AssistantTurn, LlmError> {
        if !self.fallen_back.load(Ordering::Relaxed) {
            match self.native.complete(request).await {
                Err(LlmError::ToolsUnsupported { message, .. }) => {
                    tracing::warn!("{message}; switching to the JSON text protocol");
                    self.fallen_back.store(true, Ordering::Relaxed);
                }
                // Calls written in the answer's text rather than as tool calls (small local
                // models do it): run as the calls they are, not taken for the final summary.
                Ok(mut turn) if turn.tool_calls.is_empty() && turn.stop != StopReason::Refused => {
                    let written = turn
                        .content
                        .as_deref()
                        .and_then(|text| text_protocol::calls_written_as_text(text, request.tools));
                    if let Some(calls) = written {
                        tracing::info!("the model wrote {} tool call(s) as text; running them", calls.len());
                        turn.tool_calls = calls;
                        turn.content = None;
                        turn.stop = StopReason::ToolUse;
                    }
                    return Ok(turn);
                }
                other => return other,
            }
        }
        self.text.complete(request).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chat_completion_urls_and_keys_for_gateways() {
        assert_eq!(chat_completions_url("http://127.0.0.1:11434/v1"), "http://127.0.0.1:11434/v1/chat/completions");
    }

    #[test]
    fn reasoning_models_get_their_limit_field_and_azure_its_key_header_by_any_route() {
        for model in ["o1", "o3", "o3-mini", "o4-mini", "gpt-5", "gpt-5-mini", "gpt-5.1", "openai/o3", "OpenAI/GPT-5"] {
            assert!(refuses_max_tokens(model), "{model}");
        }
        for model in ["gpt-4o", "gpt-4.1", "qwen3", "o", "olmo2", "omni-7b", "llama3.3"] {
            assert!(!refuses_max_tokens(model), "{model}");
        }
        for base in ["https://acme.openai.azure.com/openai/v1", "https://acme.cognitiveservices.azure.com/openai/v1"] {
            assert_eq!(auth_header(base, "k".into()), ("api-key", "k".into()), "{base}");
        }
        assert_eq!(auth_header("https://gateway.example/v1", "k".into()), ("authorization", "Bearer k".into()));
        let azure = "https://acme.openai.azure.com/openai/deployments/gpt4o?api-version=2024-10-21";
        assert_eq!(
            chat_completions_url(azure),
            "https://acme.openai.azure.com/openai/deployments/gpt4o/chat/completions?api-version=2024-10-21"
        );
        assert_eq!(auth_header(azure, "k".into()), ("api-key", "k".to_owned()));
        assert_eq!(auth_header("https://api.openai.com/v1", "k".into()), ("authorization", "Bearer k".to_owned()));
    }

    #[test]
    fn a_configured_answer_limit_is_the_models_limit() {
        let settings = ProviderSettings {
            kind: ProviderKind::Ollama,
            base_url: "http://127.0.0.1:9/v1".into(),
            model: "qwen2.5-coder:7b".into(),
            api_key_env: None,
            max_output_tokens: None,
            native_tools: true,
            replay: None,
            max_retries: 0,
            timeout: std::time::Duration::from_secs(1),
        };
        let registry = registry::lookup(&settings.model);
        let connected = connect(&settings, Arc::new(trace::NoTrace)).unwrap();
        assert_eq!(connected.info, registry);
        let limited = ProviderSettings { max_output_tokens: Some(1_234), ..settings };
        let connected = connect(&limited, Arc::new(trace::NoTrace)).unwrap();
        assert_eq!(connected.info, ModelInfo { max_output: 1_234, ..registry }, "the room for prompts follows it");
        assert_eq!(model_info(&limited), connected.info, "what a preview plans with is what a run connects with");

        // A local model with a large window is asked to hold what a run plans for.
        let llama = ProviderSettings { model: "llama3.1:8b".into(), max_output_tokens: None, ..limited };
        assert_eq!(registry::lookup(&llama.model).context_window, 131_072);
        let info = model_info(&llama);
        assert_eq!(info.context_window, ollama::MAX_LOCAL_CONTEXT);
        assert_eq!(connect(&llama, Arc::new(trace::NoTrace)).unwrap().info, info);
    }

    #[test]
    fn arguments_that_are_not_json_are_kept_and_explained() {
        assert_eq!(parse_arguments(""), (serde_json::json!({}), None));
        assert_eq!(parse_arguments("{\"a\":1}").0, serde_json::json!({"a": 1}));
        let (raw, error) = parse_arguments("{\"a\":");
        assert_eq!(raw, serde_json::json!("{\"a\":"));
        assert!(error.unwrap().contains("EOF"));
    }
}
