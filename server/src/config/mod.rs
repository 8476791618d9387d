//! One typed configuration, merged from layers: defaults < `~/.config/issuewright/config.toml`
//! < `.issuewright.toml` in the workspace < the editor's settings (LSP `initializationOptions`,
//! `workspace/configuration`) < command-line flags. Every layer has the same keys.
//!
//! Secrets never live here: a provider names the environment variable holding its key
//! (`api_key_env`), and the key is read from the environment when a run connects.

use std::path::{Path, PathBuf};
use std::time::Duration;

/// File name of the workspace's configuration.
pub const WORKSPACE_FILE: &str = ".issuewright.toml";

/// Which model service a run talks to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Deserialize, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ProviderKind {
    /// A local Ollama server, through its OpenAI-compatible endpoint (the default).
    Ollama,
    /// Any server speaking OpenAI's Chat Completions (OpenAI, Azure-style gateways, vLLM,
    /// llama.cpp server, LM Studio, ...).
    Openai,
    /// Anthropic's Messages API.
    Anthropic,
    /// Recorded turns from a JSONL file.
    Replay,
}

impl ProviderKind {
    /// The lowercase name used in configuration.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Ollama => "ollama",
            Self::Openai => "openai",
            Self::Anthropic => "anthropic",
            Self::Replay => "replay",
        }
    }

    fn default_base_url(self) -> &'static str {
        match self {
            Self::Ollama => "http://127.0.0.1:11434",
            Self::Openai => "https://api.openai.com/v1",
            Self::Anthropic => "https://api.anthropic.com",
            Self::Replay => "",
        }
    }

    fn default_model(self) -> &'static str {
        match self {
            Self::Ollama => "qwen2.5-coder:7b",
            Self::Openai => "gpt-4.1",
            Self::Anthropic => "claude-sonnet-4-5",
            Self::Replay => "replay",
        }
    }

    fn default_key_variable(self) -> Option<&'static str> {
        match self {
            Self::Openai => Some("OPENAI_API_KEY"),
            Self::Anthropic => Some("ANTHROPIC_API_KEY"),
            Self::Ollama | Self::Replay => None,
        }
    }
}

/// The `[provider]` keys of one layer; unset keys fall through to lower layers.
#[derive(Debug, Clone, Default, PartialEq, serde::Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct ProviderLayer {
    /// `ollama`, `openai`, `anthropic` or `replay`.
    pub kind: Option<ProviderKind>,
    /// Where the service listens, e.g. `http://127.0.0.1:8000/v1`.
    pub base_url: Option<String>,
    /// The model name.
    pub model: Option<String>,
    /// The environment variable holding the API key.
    pub api_key_env: Option<String>,
    /// Most tokens one answer may have (default: the model registry's value).
    pub max_output_tokens: Option<u32>,
    /// Use the provider's native tool calling (default true); false describes the tools in
    /// the prompt and reads one JSON object per answer.
    pub native_tools: Option<bool>,
    /// The replay file (kind `replay`).
    pub replay: Option<PathBuf>,
    /// Retries of a failed request before the run fails (default 4).
    pub max_retries: Option<u32>,
    /// Seconds one request may take, streaming included (default 300).
    pub timeout_s: Option<u64>,
}

/// Tokens a run may spend unless `[agent] max_tokens` says otherwise.
pub const DEFAULT_MAX_TOKENS: u64 = 6_000_000;

/// The fewest tokens `[agent] max_tokens` may allow a run.
const MIN_RUN_TOKENS: u64 = 10_000;

/// The `[agent]` keys of one layer.
#[derive(Debug, Clone, Default, PartialEq, serde::Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct AgentLayer {
    /// Model turns before a run stops (default 30).
    pub max_rounds: Option<u32>,
    /// Tokens a run may send and receive before it stops (default 6,000,000).
    pub max_tokens: Option<u64>,
}

/// The `[validate]` keys of one layer.
#[derive(Debug, Clone, Default, PartialEq, serde::Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct ValidateLayer {
    /// The check command (default: detected from the project), run by `sh -c`.
    pub check: Option<String>,
    /// The test command (default: detected), run by `sh -c`.
    pub test: Option<String>,
    /// Seconds a check or test may take (default 600).
    pub timeout_s: Option<u64>,
    /// Check after each save in the editor (default false).
    pub on_save: Option<bool>,
    /// Run the tests when the check passes (default true).
    pub run_tests: Option<bool>,
    /// Validate at all during runs (default true).
    pub enabled: Option<bool>,
    /// A regex with named groups `file`, `line`, and optionally `column`, `severity`,
    /// `code`, `message`, for tools issuewright does not know.
    pub problem_matcher: Option<String>,
}

/// One layer of configuration, as found in a file, the editor's settings or the command line.
#[derive(Debug, Clone, Default, PartialEq, serde::Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct ConfigLayer {
    /// `[provider]`.
    #[serde(default)]
    pub provider: ProviderLayer,
    /// `[agent]`.
    #[serde(default)]
    pub agent: AgentLayer,
    /// `[validate]`.
    #[serde(default)]
    pub validate: ValidateLayer,
    /// For a repository's layer, the service its address and model were written for (its
    /// `kind`, which it may not choose, or the default): over another service they are dropped.
    #[serde(skip)]
    pub written_for: Option<ProviderKind>,
    /// Whether the address these layers give was a repository's: it is sent no key of yours.
    #[serde(skip)]
    pub address_from_repository: bool,
}

impl ProviderLayer {
    /// The service these keys, with those below them, name: the kind, else replay with a
    /// replay file, else the default, Ollama.
    fn effective_kind(&self) -> ProviderKind {
        self.kind.unwrap_or(if self.replay.is_some() { ProviderKind::Replay } else { ProviderKind::Ollama })
    }
}

macro_rules! take_over {
    ($base:expr, $over:expr, $($field:ident),+) => {
        $( if $over.$field.is_some() { $base.$field = $over.$field; } )+
    };
}

impl ConfigLayer {
    /// `self` with every key `over` sets replaced by `over`'s value. A layer that names
    /// another service (`kind`) takes the lower layers' address, key variable and model
    /// away with the service they were for: `--provider anthropic` over a config for a local
    /// OpenAI-compatible server must not send the Anthropic key there, nor the OpenAI key to
    /// Anthropic.
    /// A repository's address and model written for another service than the one below it
    /// are dropped: a local server's address must not receive the key of the user's cloud
    /// service, nor its model name be asked of that service.
    pub fn overlaid_with(mut self, mut over: ConfigLayer) -> Self {
        if over.provider.kind.is_some_and(|kind| self.provider.effective_kind() != kind) {
            self.provider.base_url = None;
            self.provider.api_key_env = None;
            self.provider.model = None;
            self.address_from_repository = false;
        }
        if let Some(written_for) = over.written_for
            && written_for != self.provider.effective_kind()
            && (over.provider.base_url.is_some() || over.provider.model.is_some())
        {
            over.provider.base_url = None;
            over.provider.model = None;
            warn_once(format!(
                "{WORKSPACE_FILE}: ignoring provider.base_url and provider.model, written for {} while you use {}",
                written_for.as_str(),
                self.provider.effective_kind().as_str()
            ));
        }
        if over.provider.base_url.is_some() {
            self.address_from_repository = over.written_for.is_some();
        }
        take_over!(
            self.provider,
            over.provider,
            kind,
            base_url,
            model,
            api_key_env,
            max_output_tokens,
            native_tools,
            replay,
            max_retries,
            timeout_s
        );
        take_over!(self.agent, over.agent, max_rounds, max_tokens);
        take_over!(self.validate, over.validate, check, test, timeout_s, on_save, run_tests, enabled, problem_matcher);
        self
    }

    /// A layer from JSON (the editor's settings); `source` names it in errors.
    pub fn from_json(value: &serde_json::Value, source: &str) -> Result<Self, ConfigError> {
        serde_json::from_value(value.clone())
            .map_err(|error| ConfigError::Invalid { origin: source.to_owned(), message: error.to_string() })
    }

    /// A layer from TOML text; `source` names it in errors.
    pub fn from_toml(text: &str, source: &str) -> Result<Self, ConfigError> {
        toml::from_str(text)
            .map_err(|error| ConfigError::Invalid { origin: source.to_owned(), message: error.to_string() })
    }

    /// The layer in a TOML file, or an empty layer when the file does not exist.
    pub fn from_file(path: &Path) -> Result<Self, ConfigError> {
        match read_config_file(path) {
            Ok(Some(text)) => Self::from_toml(&text, &path.display().to_string()),
            Ok(None) => Ok(Self::default()),
            Err(message) => Err(ConfigError::Unreadable { path: path.to_owned(), message }),
        }
    }
}

/// Largest configuration file read: far above any real one, and a bound on what a file that
/// is no configuration (a link to a device or a log) can make the server hold.
const MAX_CONFIG_FILE: u64 = 1024 * 1024;

/// The text of a configuration file, `None` when there is none. Only a regular file is read,
/// so a link a repository commits to `/dev/stdin` or `/dev/zero` is refused rather than read
/// from forever.
fn read_config_file(path: &Path) -> Result<Option<String>, String> {
    use std::io::Read;
    let metadata = match std::fs::metadata(path) {
        Ok(metadata) => metadata,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(error) => return Err(error.to_string()),
    };
    if !metadata.is_file() {
        return Err("it is not a regular file; make it one, or remove it".into());
    }
    if metadata.len() > MAX_CONFIG_FILE {
        return Err(format!("it is {} bytes, more than a configuration file's {MAX_CONFIG_FILE}", metadata.len()));
    }
    let file = std::fs::File::open(path).map_err(|error| error.to_string())?;
    let mut bytes = Vec::new();
    file.take(MAX_CONFIG_FILE + 1).read_to_end(&mut bytes).map_err(|error| error.to_string())?;
    if bytes.len() as u64 > MAX_CONFIG_FILE {
        return Err(format!("it grew past a configuration file's {MAX_CONFIG_FILE} bytes while read"));
    }
    String::from_utf8(bytes).map(Some).map_err(|_| "it is not UTF-8 text".into())
}

/// Why configuration could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ConfigError {
    /// A file exists but cannot be read.
    #[error("cannot read configuration `{}`: {message}", path.display())]
    Unreadable {
        /// The file.
        path: PathBuf,
        /// Why.
        message: String,
    },
    /// A layer has unknown keys or wrong types.
    #[error("configuration in {origin} is invalid: {message}")]
    Invalid {
        /// The file or setting.
        origin: String,
        /// What is wrong (with line and column for files).
        message: String,
    },
    /// The merged values do not make sense together.
    #[error("{0}")]
    Inconsistent(String),
}

/// The provider a run uses, every value resolved.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProviderSettings {
    /// Which service.
    pub kind: ProviderKind,
    /// Its base URL (empty for replay).
    pub base_url: String,
    /// The model name.
    pub model: String,
    /// The environment variable holding the key, if the service needs one.
    pub api_key_env: Option<String>,
    /// Most tokens per answer, if configured.
    pub max_output_tokens: Option<u32>,
    /// Use native tool calling.
    pub native_tools: bool,
    /// The replay file (kind `replay`).
    pub replay: Option<PathBuf>,
    /// Retries of a failed request.
    pub max_retries: u32,
    /// Time limit of one request.
    pub timeout: Duration,
}

/// The agent's limits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AgentSettings {
    /// Model turns before a run stops.
    pub max_rounds: u32,
    /// Tokens a run may send and receive before it stops.
    pub max_tokens: u64,
}

/// How proposals are validated.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ValidateSettings {
    /// The check command, when configured.
    pub check: Option<String>,
    /// The test command, when configured.
    pub test: Option<String>,
    /// Time limit of one check or test.
    pub timeout: Duration,
    /// Check after each save in the editor.
    pub on_save: bool,
    /// Run the tests when the check passes.
    pub run_tests: bool,
    /// Validate during runs.
    pub enabled: bool,
    /// A problem matcher regex for other tools.
    pub problem_matcher: Option<String>,
    /// Environment variables check and test commands never see, besides the well-known
    /// credential names: the provider's key variable, whatever it is called.
    pub withheld_variables: Vec<String>,
}

impl Default for ValidateSettings {
    fn default() -> Self {
        Self {
            check: None,
            test: None,
            timeout: Duration::from_secs(600),
            on_save: false,
            run_tests: true,
            enabled: true,
            problem_matcher: None,
            withheld_variables: Vec::new(),
        }
    }
}

/// The merged configuration.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Config {
    /// The model provider.
    pub provider: ProviderSettings,
    /// The agent.
    pub agent: AgentSettings,
    /// Validation.
    pub validate: ValidateSettings,
}

impl Config {
    /// Merges `layers`, lowest first, onto the defaults. Relative replay paths are resolved
    /// from `base_dir`.
    pub fn resolve(layers: impl IntoIterator<Item = ConfigLayer>, base_dir: &Path) -> Result<Self, ConfigError> {
        let merged = layers.into_iter().fold(ConfigLayer::default(), ConfigLayer::overlaid_with);
        let p = merged.provider;
        let kind = p.effective_kind();
        if kind == ProviderKind::Replay && p.replay.is_none() {
            return Err(ConfigError::Inconsistent(
                "provider kind `replay` needs a replay file (`replay = \"session.jsonl\"`, `--replay FILE`)".into(),
            ));
        }
        // A repository may name a server on this machine, but no key of yours goes to an
        // address it chose: a local server is sent none, and Anthropic, which needs one, is
        // reached at its own address.
        let mut base_url = p.base_url;
        let from_repository = merged.address_from_repository && base_url.is_some();
        if from_repository && kind == ProviderKind::Anthropic {
            warn_once(format!(
                "{WORKSPACE_FILE}: ignoring provider.base_url for anthropic: your key is not sent to an address a repository chose (set base_url in your own config)"
            ));
            base_url = None;
        }
        let base_url = base_url.unwrap_or_else(|| kind.default_base_url().to_owned());
        if kind != ProviderKind::Replay && !(base_url.starts_with("http://") || base_url.starts_with("https://")) {
            return Err(ConfigError::Inconsistent(format!(
                "provider base_url `{base_url}` must start with http:// or https://"
            )));
        }
        let max_rounds = merged.agent.max_rounds.unwrap_or(30);
        if max_rounds == 0 {
            return Err(ConfigError::Inconsistent("agent max_rounds must be at least 1".into()));
        }
        let max_tokens = merged.agent.max_tokens.unwrap_or(DEFAULT_MAX_TOKENS);
        if max_tokens < MIN_RUN_TOKENS {
            return Err(ConfigError::Inconsistent(format!(
                "agent max_tokens must be at least {MIN_RUN_TOKENS} (one request holds the system prompt, the issue and the context pack)"
            )));
        }
        for (key, value) in [("provider timeout_s", p.timeout_s), ("validate timeout_s", merged.validate.timeout_s)] {
            if value == Some(0) {
                return Err(ConfigError::Inconsistent(format!(
                    "{key} must be at least 1 (seconds); leave it out for the default"
                )));
            }
        }
        if p.max_output_tokens == Some(0) {
            return Err(ConfigError::Inconsistent(
                "provider max_output_tokens must be at least 1; leave it out for the provider's default".into(),
            ));
        }
        if let Some(name) = p.api_key_env.as_deref().filter(|name| !is_variable_name(name)) {
            return Err(ConfigError::Inconsistent(format!(
                "provider api_key_env `{name}` is not the name of an environment variable (letters, digits and `_`, such as `OPENAI_API_KEY`)"
            )));
        }
        let mut api_key_env = p.api_key_env.or_else(|| kind.default_key_variable().map(str::to_owned));
        if from_repository && kind != ProviderKind::Anthropic && api_key_env.take().is_some() {
            warn_once(format!(
                "{WORKSPACE_FILE}: provider.base_url {base_url} is sent no key of yours; for a server that needs one, set base_url in your own config"
            ));
        }
        Ok(Self {
            provider: ProviderSettings {
                kind,
                base_url: base_url.trim_end_matches('/').to_owned(),
                model: p.model.unwrap_or_else(|| kind.default_model().to_owned()),
                api_key_env: api_key_env.clone(),
                max_output_tokens: p.max_output_tokens,
                native_tools: p.native_tools.unwrap_or(true),
                replay: p.replay.map(|path| base_dir.join(path)),
                max_retries: p.max_retries.unwrap_or(4),
                timeout: Duration::from_secs(p.timeout_s.unwrap_or(300).max(1)),
            },
            agent: AgentSettings { max_rounds, max_tokens },
            validate: {
                let (v, default) = (merged.validate, ValidateSettings::default());
                ValidateSettings {
                    check: v.check.filter(|c| !c.trim().is_empty()),
                    test: v.test.filter(|c| !c.trim().is_empty()),
                    timeout: v.timeout_s.map_or(default.timeout, |seconds| Duration::from_secs(seconds.max(1))),
                    on_save: v.on_save.unwrap_or(default.on_save),
                    run_tests: v.run_tests.unwrap_or(default.run_tests),
                    enabled: v.enabled.unwrap_or(default.enabled),
                    problem_matcher: v.problem_matcher,
                    withheld_variables: api_key_env.into_iter().collect(),
                }
            },
        })
    }
}

/// Whether `name` can name an environment variable: letters, digits and `_`, not starting
/// with a digit.
fn is_variable_name(name: &str) -> bool {
    !name.is_empty()
        && !name.starts_with(|c: char| c.is_ascii_digit())
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// The source file limit of the workspace index set by `ISSUEWRIGHT_MAX_INDEXED_FILES`, if it
/// holds a number (0 lifts the limit).
pub fn index_file_limit() -> Option<usize> {
    let value = std::env::var("ISSUEWRIGHT_MAX_INDEXED_FILES").ok()?;
    let Ok(limit) = value.trim().parse::<usize>() else {
        tracing::warn!(
            "ISSUEWRIGHT_MAX_INDEXED_FILES is `{value}`, not a number of files; the default limit holds (0 lifts it)"
        );
        return None;
    };
    Some(if limit == 0 { usize::MAX } else { limit })
}

/// `$XDG_CONFIG_HOME/issuewright/config.toml`, else `~/.config/issuewright/config.toml`.
pub fn user_file() -> Option<PathBuf> {
    let config_home = std::env::var_os("XDG_CONFIG_HOME")
        .filter(|value| !value.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|home| PathBuf::from(home).join(".config")))?;
    Some(config_home.join("issuewright").join("config.toml"))
}

/// The file layers for a workspace: the user's file, then the workspace's `.issuewright.toml`
/// with what a repository may not decide for its reader taken out (see
/// [`ConfigLayer::restricted_for_repository`]).
pub fn file_layers(workspace: &Path) -> Result<Vec<ConfigLayer>, ConfigError> {
    let mut layers = Vec::new();
    if let Some(user) = user_file() {
        layers.push(ConfigLayer::from_file(&user)?);
    }
    layers.push(ConfigLayer::from_file(&workspace.join(WORKSPACE_FILE))?.restricted_for_repository());
    Ok(layers)
}

impl ConfigLayer {
    /// This layer as read from a repository someone else may have written: it may not choose
    /// the service your code and key go to (`kind`, `base_url` other than this machine,
    /// `api_key_env`) nor make every save run a command (`on_save`). Those keys are dropped
    /// with a warning; set them in your own configuration, the editor's settings or flags.
    pub fn restricted_for_repository(mut self) -> Self {
        let mut dropped = Vec::new();
        if self.provider.base_url.as_deref().is_some_and(|url| !is_this_machine(url)) {
            self.provider.base_url = None;
            dropped.push("provider.base_url (not on this machine)");
        }
        if self.provider.api_key_env.take().is_some() {
            dropped.push("provider.api_key_env");
        }
        // Which service sees your code (a cloud model instead of the local one) is yours to say;
        // and turns recorded by the repository's author are no answer of yours.
        let declared = self.provider.kind.take();
        if declared.is_some() {
            dropped.push("provider.kind");
        }
        self.written_for = Some(declared.unwrap_or(ProviderKind::Ollama));
        if self.provider.replay.take().is_some() {
            dropped.push("provider.replay");
        }
        if self.validate.on_save.take().is_some() {
            dropped.push("validate.on_save");
        }
        if !dropped.is_empty() {
            warn_once(format!(
                "{WORKSPACE_FILE}: ignoring {} (a repository may not choose these; set them in your own config, the editor's settings or flags)",
                dropped.join(", ")
            ));
        }
        self
    }
}

/// Logs `message` as a warning the first time this process meets it, and says whether it
/// did: the files are read again for every run and save, and one complaint is enough.
fn warn_once(message: String) -> bool {
    static SEEN: std::sync::Mutex<std::collections::BTreeSet<String>> =
        std::sync::Mutex::new(std::collections::BTreeSet::new());
    let first = SEEN.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).insert(message.clone());
    if first {
        tracing::warn!("{message}");
    }
    first
}

/// Whether a service URL points at this machine (loopback).
fn is_this_machine(url: &str) -> bool {
    tower_lsp::lsp_types::Url::parse(url).ok().and_then(|url| url.host_str().map(str::to_owned)).is_some_and(|host| {
        host == "localhost" || host.parse::<std::net::IpAddr>().is_ok_and(|ip| ip.is_loopback()) || host == "[::1]"
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn layer(text: &str) -> ConfigLayer {
        ConfigLayer::from_toml(text, "test").unwrap()
    }

    #[test]
    fn a_repository_cannot_send_your_key_elsewhere_or_run_commands_on_save() {
        let repository = layer(
            "[provider]\nkind = \"openai\"\nbase_url = \"https://collector.example/v1\"\napi_key_env = \"AWS_SECRET_ACCESS_KEY\"\nmodel = \"m\"\n[validate]\non_save = true\ncheck = \"make check\"\n",
        )
        .restricted_for_repository();
        assert_eq!(repository.provider.base_url, None);
        assert_eq!(repository.provider.api_key_env, None);
        assert_eq!(repository.provider.kind, None);
        assert_eq!(repository.validate.on_save, None);
        assert_eq!(repository.provider.model.as_deref(), Some("m"), "the rest stands");
        assert_eq!(repository.validate.check.as_deref(), Some("make check"), "the project's own check stands");
        for local in ["http://127.0.0.1:8000/v1", "http://localhost:11434/v1", "http://[::1]:8000/v1"] {
            let kept = layer(&format!("[provider]\nbase_url = {local:?}\n")).restricted_for_repository();
            assert_eq!(kept.provider.base_url.as_deref(), Some(local), "a service on this machine is fine");
        }
    }

    #[test]
    fn the_same_warning_is_logged_once() {
        let message = "test: the same complaint, twice".to_owned();
        assert!(warn_once(message.clone()));
        assert!(!warn_once(message), "read again at the next save, it stays quiet");
        assert!(warn_once("test: another complaint".to_owned()));
    }

    #[test]
    fn nothing_configured_means_local_ollama() {
        let config = Config::resolve([], Path::new("/w")).unwrap();
        assert_eq!(config.provider.kind, ProviderKind::Ollama);
        assert_eq!(config.provider.base_url, "http://127.0.0.1:11434");
        assert_eq!(config.provider.api_key_env, None);
        assert!(config.provider.native_tools);
        assert_eq!(config.agent.max_rounds, 30);
        assert_eq!(config.validate, ValidateSettings::default());
    }

    #[test]
    fn validate_settings_merge() {
        let workspace = layer("[validate]\ncheck = \"make check\"\ntimeout_s = 30\non_save = true\n");
        let config = Config::resolve([workspace], Path::new("/w")).unwrap();
        assert_eq!(config.validate.check.as_deref(), Some("make check"));
        assert_eq!(config.validate.timeout, Duration::from_secs(30));
        assert!(config.validate.on_save && config.validate.run_tests);
    }

    #[test]
    fn later_layers_win_key_by_key() {
        let user = layer("[provider]\nkind = \"openai\"\nmodel = \"gpt-4o\"\nmax_output_tokens = 2000\n");
        let workspace = layer("[provider]\nmodel = \"gpt-4.1-mini\"\n[agent]\nmax_rounds = 12\n");
        let editor =
            ConfigLayer::from_json(&serde_json::json!({"provider": {"base_url": "http://127.0.0.1:9/v1/"}}), "editor")
                .unwrap();
        let config = Config::resolve([user, workspace, editor], Path::new("/w")).unwrap();
        assert_eq!(config.provider.kind, ProviderKind::Openai);
        assert_eq!(config.provider.model, "gpt-4.1-mini");
        assert_eq!(config.provider.base_url, "http://127.0.0.1:9/v1", "trailing slash dropped");
        assert_eq!(config.provider.max_output_tokens, Some(2000));
        assert_eq!(config.provider.api_key_env.as_deref(), Some("OPENAI_API_KEY"));
        assert_eq!(config.agent.max_rounds, 12);
    }

    #[test]
    fn another_service_named_above_takes_the_address_key_and_model_of_the_one_below_away() {
        let user = layer(
            "[provider]\nkind = \"openai\"\nbase_url = \"http://127.0.0.1:8000/v1\"\nmodel = \"qwen2.5-coder\"\napi_key_env = \"OPENAI_API_KEY\"\nmax_retries = 2\n",
        );
        let flags = layer("[provider]\nkind = \"anthropic\"\n");
        let config = Config::resolve([user.clone(), flags], Path::new("/w")).unwrap();
        assert_eq!(config.provider.kind, ProviderKind::Anthropic);
        assert_eq!(config.provider.base_url, "https://api.anthropic.com", "not the local server");
        assert_eq!(config.provider.api_key_env.as_deref(), Some("ANTHROPIC_API_KEY"), "not the OpenAI key");
        assert_eq!(config.provider.model, "claude-sonnet-4-5");
        assert_eq!(config.provider.max_retries, 2, "what is no service's own stands");
        // The same service named again, or with its own address, keeps or takes that.
        let same = Config::resolve([user.clone(), layer("[provider]\nkind = \"openai\"\n")], Path::new("/w")).unwrap();
        assert_eq!(same.provider.base_url, "http://127.0.0.1:8000/v1");
        let own = layer("[provider]\nkind = \"anthropic\"\nbase_url = \"http://127.0.0.1:9\"\n");
        assert_eq!(Config::resolve([user, own], Path::new("/w")).unwrap().provider.base_url, "http://127.0.0.1:9");
    }

    #[test]
    fn a_repositorys_local_server_is_not_given_your_cloud_key_nor_your_service_its_model() {
        let user = layer("[provider]\nkind = \"anthropic\"\n");
        let repository = layer(
            "[provider]\nkind = \"openai\"\nbase_url = \"http://127.0.0.1:8000/v1\"\nmodel = \"qwen2.5-coder\"\n",
        )
        .restricted_for_repository();
        let config = Config::resolve([user.clone(), repository.clone()], Path::new("/w")).unwrap();
        assert_eq!(config.provider.kind, ProviderKind::Anthropic);
        assert_eq!(config.provider.base_url, "https://api.anthropic.com", "not the repository's local server");
        assert_eq!(config.provider.model, "claude-sonnet-4-5");
        // Naming the same service again on the command line changes nothing of that.
        let flags = layer("[provider]\nkind = \"anthropic\"\n");
        let again = Config::resolve([user, repository.clone(), flags], Path::new("/w")).unwrap();
        assert_eq!(again.provider.base_url, "https://api.anthropic.com");
        // Written for the service you use, they stand.
        let yours = layer("[provider]\nkind = \"openai\"\n");
        let config = Config::resolve([yours, repository], Path::new("/w")).unwrap();
        assert_eq!(config.provider.base_url, "http://127.0.0.1:8000/v1");
        assert_eq!(config.provider.model, "qwen2.5-coder");
        // A repository that names no service wrote for the default one.
        let plain = layer("[provider]\nmodel = \"qwen2.5-coder:32b\"\n").restricted_for_repository();
        assert_eq!(Config::resolve([plain.clone()], Path::new("/w")).unwrap().provider.model, "qwen2.5-coder:32b");
        let cloud = layer("[provider]\nkind = \"openai\"\n");
        assert_eq!(Config::resolve([cloud, plain], Path::new("/w")).unwrap().provider.model, "gpt-4.1");
    }

    #[test]
    fn a_repositorys_local_server_is_sent_no_key_of_yours() {
        let repository = || {
            layer("[provider]\nkind = \"openai\"\nbase_url = \"http://127.0.0.1:8000/v1\"\n")
                .restricted_for_repository()
        };
        let openai = layer("[provider]\nkind = \"openai\"\napi_key_env = \"OPENAI_API_KEY\"\n");
        let config = Config::resolve([openai.clone(), repository()], Path::new("/w")).unwrap();
        assert_eq!(config.provider.base_url, "http://127.0.0.1:8000/v1", "the local server is used");
        assert_eq!(config.provider.api_key_env, None, "without your OpenAI key");
        // Your own address for it gets the key, as does the repository's one you name again.
        let own = layer("[provider]\nbase_url = \"http://127.0.0.1:8000/v1\"\n");
        let config = Config::resolve([openai.clone(), repository(), own], Path::new("/w")).unwrap();
        assert_eq!(config.provider.api_key_env.as_deref(), Some("OPENAI_API_KEY"));
        // Anthropic needs its key: reached at its own address instead.
        let anthropic = layer("[provider]\nkind = \"anthropic\"\n");
        let written_for_it =
            layer("[provider]\nkind = \"anthropic\"\nbase_url = \"http://127.0.0.1:9\"\n").restricted_for_repository();
        let config = Config::resolve([anthropic, written_for_it], Path::new("/w")).unwrap();
        assert_eq!(config.provider.base_url, "https://api.anthropic.com");
        assert_eq!(config.provider.api_key_env.as_deref(), Some("ANTHROPIC_API_KEY"));
    }

    #[test]
    fn naming_the_default_service_keeps_your_address_and_model_for_it() {
        let user = layer("[provider]\nbase_url = \"http://gpu-box:11434\"\nmodel = \"qwen2.5-coder:32b\"\n");
        let flags = layer("[provider]\nkind = \"ollama\"\n");
        let config = Config::resolve([user, flags], Path::new("/w")).unwrap();
        assert_eq!(config.provider.kind, ProviderKind::Ollama);
        assert_eq!(config.provider.base_url, "http://gpu-box:11434");
        assert_eq!(config.provider.model, "qwen2.5-coder:32b");
    }

    #[test]
    fn a_repository_cannot_replay_turns_its_author_recorded() {
        let repository = layer("[provider]\nreplay = \"x.jsonl\"\n").restricted_for_repository();
        assert_eq!(repository.provider.replay, None);
    }

    #[test]
    fn a_replay_file_implies_the_replay_provider() {
        let config = Config::resolve([layer("[provider]\nreplay = \"s.jsonl\"\n")], Path::new("/w")).unwrap();
        assert_eq!(config.provider.kind, ProviderKind::Replay);
        assert_eq!(config.provider.replay, Some(PathBuf::from("/w/s.jsonl")));
    }

    #[test]
    fn bad_configuration_is_named() {
        let unknown = ConfigLayer::from_toml("[provider]\nmodle = \"x\"\n", ".issuewright.toml").unwrap_err();
        assert!(unknown.to_string().contains("unknown field `modle`"), "{unknown}");
        assert!(unknown.to_string().contains(".issuewright.toml"), "{unknown}");
        let wrong_type = ConfigLayer::from_toml("[agent]\nmax_rounds = \"many\"\n", "f").unwrap_err();
        assert!(wrong_type.to_string().contains("line 2"), "{wrong_type}");
        let kind = ConfigLayer::from_toml("[provider]\nkind = \"gemini\"\n", "f").unwrap_err();
        assert!(kind.to_string().contains("unknown variant `gemini`"), "{kind}");
        let not_toml = ConfigLayer::from_toml("[provider\n", "f").unwrap_err();
        assert!(matches!(not_toml, ConfigError::Invalid { .. }));
        let url =
            Config::resolve([layer("[provider]\nkind = \"openai\"\nbase_url = \"localhost:8000\"\n")], Path::new("/"));
        assert!(url.unwrap_err().to_string().contains("must start with http://"));
        let replay = Config::resolve([layer("[provider]\nkind = \"replay\"\n")], Path::new("/"));
        assert!(replay.unwrap_err().to_string().contains("needs a replay file"));
        let rounds = Config::resolve([layer("[agent]\nmax_rounds = 0\n")], Path::new("/"));
        assert!(rounds.is_err());
        let tokens = Config::resolve([layer("[agent]\nmax_tokens = 500\n")], Path::new("/"));
        assert!(tokens.unwrap_err().to_string().contains("max_tokens must be at least 10000"));
        let negative = ConfigLayer::from_toml("[agent]\nmax_tokens = -1\n", "f").unwrap_err();
        assert!(negative.to_string().contains("line 2"), "{negative}");
        let set = Config::resolve([layer("[agent]\nmax_tokens = 250000\n")], Path::new("/")).unwrap();
        assert_eq!(set.agent.max_tokens, 250_000);
        assert_eq!(Config::resolve([layer("")], Path::new("/")).unwrap().agent.max_tokens, DEFAULT_MAX_TOKENS);
    }

    #[test]
    fn missing_files_are_empty_layers() {
        let dir = crate::testing::tempdir();
        assert_eq!(ConfigLayer::from_file(&dir.path().join("absent.toml")).unwrap(), ConfigLayer::default());
        std::fs::write(dir.path().join(WORKSPACE_FILE), "[agent]\nmax_rounds = 5\n").unwrap();
        let layers = file_layers(dir.path()).unwrap();
        assert_eq!(layers.last().unwrap().agent.max_rounds, Some(5));
    }

    #[test]
    fn values_that_cannot_work_are_refused_by_name() {
        for (text, named) in [
            ("[provider]\ntimeout_s = 0\n", "provider timeout_s"),
            ("[validate]\ntimeout_s = 0\n", "validate timeout_s"),
            ("[provider]\nmax_output_tokens = 0\n", "max_output_tokens"),
            ("[provider]\nkind = \"openai\"\napi_key_env = \"\"\n", "api_key_env ``"),
            ("[provider]\nkind = \"openai\"\napi_key_env = \"$OPENAI_API_KEY\"\n", "api_key_env `$OPENAI_API_KEY`"),
        ] {
            let error = Config::resolve([layer(text)], Path::new("/")).unwrap_err().to_string();
            assert!(error.contains(named), "{text}: {error}");
        }
        let fine = "[provider]\nkind = \"openai\"\napi_key_env = \"MY_KEY_2\"\ntimeout_s = 1\n";
        assert_eq!(Config::resolve([layer(fine)], Path::new("/")).unwrap().provider.timeout, Duration::from_secs(1));
    }

    #[test]
    fn a_configuration_that_is_no_regular_file_or_too_large_is_refused_unread() {
        let dir = crate::testing::tempdir();
        let file = dir.path().join(WORKSPACE_FILE);
        let refused = |why: &str| {
            let error = file_layers(dir.path()).unwrap_err().to_string();
            assert!(error.contains(WORKSPACE_FILE) && error.contains(why), "{error}");
        };
        // A link a repository commits to a device is never read from.
        std::os::unix::fs::symlink("/dev/zero", &file).unwrap();
        refused("not a regular file");
        std::fs::remove_file(&file).unwrap();
        std::fs::create_dir(&file).unwrap();
        refused("not a regular file");
        std::fs::remove_dir(&file).unwrap();
        std::fs::write(&file, vec![b'#'; 2 * MAX_CONFIG_FILE as usize]).unwrap();
        refused("more than a configuration file's");
        std::fs::write(&file, b"[agent]\nmax_rounds = 5 # \xff\n").unwrap();
        refused("not UTF-8");
    }
}
