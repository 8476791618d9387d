//! What is known about models by name: context window, output limit, native tool calling.

/// Limits and abilities of a model.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ModelInfo {
    /// Tokens the model reads, prompt and answer together.
    pub context_window: u32,
    /// Most tokens in one answer.
    pub max_output: u32,
    /// Whether it does native tool calling.
    pub tools: bool,
}

const fn info(context_window: u32, max_output: u32, tools: bool) -> ModelInfo {
    ModelInfo { context_window, max_output, tools }
}

/// Model name prefixes, most specific first within a family.
const KNOWN: &[(&str, ModelInfo)] = &[
    ("gpt-4o-mini", info(128_000, 16_384, true)),
    ("gpt-4o", info(128_000, 16_384, true)),
    ("gpt-4.1", info(1_047_576, 32_768, true)),
    ("gpt-5", info(400_000, 128_000, true)),
    ("gpt-4-turbo", info(128_000, 4_096, true)),
    ("gpt-3.5-turbo", info(16_385, 4_096, true)),
    ("o4-mini", info(200_000, 100_000, true)),
    ("o3", info(200_000, 100_000, true)),
    ("o1", info(200_000, 100_000, true)),
    ("claude-opus-4", info(200_000, 32_000, true)),
    ("claude-sonnet-4", info(200_000, 64_000, true)),
    ("claude-haiku-4", info(200_000, 64_000, true)),
    ("claude-3-7-sonnet", info(200_000, 64_000, true)),
    ("claude-3-5-haiku", info(200_000, 8_192, true)),
    ("claude-3-5-sonnet", info(200_000, 8_192, true)),
    ("claude-3", info(200_000, 4_096, true)),
    ("qwen2.5-coder", info(32_768, 8_192, true)),
    ("qwen3-coder", info(262_144, 65_536, true)),
    ("qwen3", info(40_960, 16_384, true)),
    ("qwen2.5", info(32_768, 8_192, true)),
    ("llama3.1", info(131_072, 8_192, true)),
    ("llama3.2", info(131_072, 8_192, true)),
    ("llama3.3", info(131_072, 8_192, true)),
    ("mistral-nemo", info(131_072, 8_192, true)),
    ("mistral", info(32_768, 8_192, true)),
    ("devstral", info(131_072, 16_384, true)),
    ("deepseek-coder-v2", info(163_840, 8_192, false)),
    ("deepseek-r1", info(131_072, 16_384, false)),
    ("codellama", info(16_384, 4_096, false)),
    ("gemma", info(8_192, 4_096, false)),
    ("phi", info(16_384, 4_096, false)),
];

/// For models nobody listed: modest limits, and native tools tried first.
pub const UNKNOWN: ModelInfo = info(32_768, 4_096, true);

/// What is known about `model` (`gpt-4o-2024-08-06`, `qwen2.5-coder:7b`, `openai/gpt-4.1`, ...).
pub fn lookup(model: &str) -> ModelInfo {
    listed(model).unwrap_or(UNKNOWN)
}

/// Whether the registry lists `model`'s family, rather than giving it [`UNKNOWN`]'s limits.
pub fn is_known(model: &str) -> bool {
    listed(model).is_some()
}

/// What to tell a user whose `model` the registry does not list; none for a listed one.
pub fn unknown_model_note(model: &str) -> Option<String> {
    (!is_known(model)).then(|| {
        format!(
            "`{model}` is not a model issuewright knows: its context window is taken as {} tokens",
            UNKNOWN.context_window
        )
    })
}

fn listed(model: &str) -> Option<ModelInfo> {
    let name = model.rsplit('/').next().unwrap_or(model).to_ascii_lowercase();
    KNOWN
        .iter()
        .filter(|(prefix, _)| name.starts_with(prefix))
        .max_by_key(|(prefix, _)| prefix.len())
        .map(|(_, info)| *info)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_match_their_family() {
        assert_eq!(lookup("gpt-4o-2024-08-06").max_output, 16_384);
        assert_eq!(lookup("gpt-4o-mini").context_window, 128_000);
        assert_eq!(lookup("claude-sonnet-4-20250514").max_output, 64_000);
        assert_eq!(lookup("qwen2.5-coder:7b"), info(32_768, 8_192, true));
        assert!(!lookup("library/codellama:13b").tools);
        assert_eq!(lookup("openai/GPT-4.1").context_window, 1_047_576);
    }

    #[test]
    fn unknown_models_get_sane_defaults() {
        assert_eq!(lookup("my-finetune"), UNKNOWN);
        assert_eq!(lookup(""), UNKNOWN);
        assert!(!is_known("my-finetune") && !is_known(""));
        assert!(is_known("qwen2.5-coder:7b") && is_known("openai/GPT-4.1"));
    }
}
