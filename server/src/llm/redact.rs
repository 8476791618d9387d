//! Secrets never leave the machine: every request body is scrubbed of known secret values
//! (API keys and tokens from the environment) and of text shaped like a credential.

use std::borrow::Cow;
use std::sync::LazyLock;

use regex::Regex;

/// What replaces a secret.
pub const REDACTED: &str = "[REDACTED]";

/// Credential shapes worth catching wherever they appear (a `.env` file the model read, say).
static PATTERNS: LazyLock<Vec<Regex>> = LazyLock::new(|| {
    [
        r"sk-(?:proj-|ant-(?:api|admin)\d\d-)?[A-Za-z0-9_\-]{20,}",
        r"gh[pousr]_[A-Za-z0-9]{36,}",
        r"github_pat_[A-Za-z0-9_]{40,}",
        r"glpat-[A-Za-z0-9_\-]{20,}",
        r"AKIA[0-9A-Z]{16}",
        r"xox[abprs]-[A-Za-z0-9\-]{10,}",
        r"-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z ]*PRIVATE KEY-----",
    ]
    .iter()
    .map(|pattern| Regex::new(pattern).expect("valid pattern"))
    .collect()
});

/// Environment variables whose values are always secrets when set.
const SECRET_VARIABLES: [&str; 4] = ["OPENAI_API_KEY", "ANTHROPIC_API_KEY", "GITHUB_TOKEN", "GITEA_TOKEN"];

/// Removes secrets from text.
#[derive(Debug, Clone, Default)]
pub struct Redactor {
    values: Vec<String>,
}

impl Redactor {
    /// A redactor for `values` (longest first, so a secret containing another is caught whole).
    pub fn new(values: impl IntoIterator<Item = String>) -> Self {
        let mut values: Vec<String> = values.into_iter().filter(|value| value.len() >= 8).collect();
        values.sort_by_key(|value| std::cmp::Reverse(value.len()));
        values.dedup();
        Self { values }
    }

    /// A redactor for the secrets in this process's environment: the well-known key
    /// variables, `extra` variable names, and any variable named like `*_KEY`, `*_TOKEN`,
    /// `*_SECRET` or `*_PASSWORD` holding a value of 12 characters or more.
    pub fn from_environment(extra: &[&str]) -> Self {
        let values = std::env::vars().filter_map(|(name, value)| {
            let upper = name.to_ascii_uppercase();
            let named = SECRET_VARIABLES.contains(&upper.as_str()) || extra.contains(&name.as_str());
            let shaped =
                ["_KEY", "_TOKEN", "_SECRET", "_PASSWORD"].iter().any(|s| upper.ends_with(s)) && value.len() >= 12;
            (named || shaped).then_some(value)
        });
        Self::new(values)
    }

    /// `text` with every secret replaced by [`REDACTED`].
    pub fn redact<'a>(&self, text: &'a str) -> Cow<'a, str> {
        let mut out = Cow::Borrowed(text);
        for value in &self.values {
            if out.contains(value.as_str()) {
                out = Cow::Owned(out.replace(value.as_str(), REDACTED));
            }
        }
        for pattern in PATTERNS.iter() {
            if pattern.is_match(&out) {
                out = Cow::Owned(pattern.replace_all(&out, REDACTED).into_owned());
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_values_and_credential_shapes_are_removed() {
        let redactor = Redactor::new(["hunter2-but-longer".to_owned(), "short".to_owned()]);
        let text = "pw=hunter2-but-longer key=sk-proj-abcdefghijklmnopqrstuvwxyz012345 short stays\n\
                    gh=ghp_abcdefghijklmnopqrstuvwxyz0123456789 aws=AKIAIOSFODNN7EXAMPLE\n\
                    -----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXk=\n-----END OPENSSH PRIVATE KEY-----";
        let clean = redactor.redact(text);
        for secret in ["hunter2", "sk-proj", "ghp_", "AKIA", "b3BlbnNzaC1rZXk"] {
            assert!(!clean.contains(secret), "{secret} left in {clean}");
        }
        assert!(clean.contains("short stays"), "values under 8 characters are not treated as secrets");
        assert_eq!(clean.matches(REDACTED).count(), 5, "{clean}");
    }

    #[test]
    fn clean_text_is_not_copied() {
        assert!(matches!(Redactor::default().redact("fn main() {}"), Cow::Borrowed(_)));
    }
}
