//! Secrets never leave the machine: every request body is scrubbed of known secret values
//! (API keys and tokens from the environment) and of text shaped like a credential.

use std::borrow::Cow;
use std::sync::LazyLock;

use regex::Regex;

/// What replaces a secret.
pub use crate::workspace::REDACTED;

/// Credential shapes worth catching wherever they appear (a `.env` file the model read, say).
static PATTERNS: LazyLock<Vec<Regex>> = LazyLock::new(|| {
    [
        // Each starts at a word boundary: `task-scheduler-configuration` holds no `sk-` key.
        r"\bsk-(?:proj-|ant-(?:api|admin)\d\d-)?[A-Za-z0-9_\-]{20,}",
        r"\bgh[pousr]_[A-Za-z0-9]{36,}",
        r"\bgithub_pat_[A-Za-z0-9_]{40,}",
        r"\bglpat-[A-Za-z0-9_\-]{20,}",
        r"\bAKIA[0-9A-Z]{16}\b",
        r"\bxox[abprs]-[A-Za-z0-9\-]{10,}",
        // Key material between the markers (base64 and PEM headers only, so code quoting the
        // markers is not wiped), or, when the end was cut off, the key lines that follow; the
        // line breaks may be written `\n`, as a JSON file holds a key (a cloud service
        // account's `"private_key"`).
        r"-----BEGIN [A-Z ]*PRIVATE KEY-----(?:[A-Za-z0-9+/=\s:,\-\\]*?-----END [A-Z ]*PRIVATE KEY-----|(?:\r?\n|\\n)[A-Za-z0-9+/=:,\-\s\\]{40,})",
        // A private key as a kubeconfig holds it, base64 without markers.
        r"\bclient-key-data:\s*[A-Za-z0-9+/=]{40,}",
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
        // A variable that is not UTF-8 (`OLDPWD` after a visit to a Latin-1 folder) names no
        // secret the model's UTF-8 text could hold; `vars()` would panic on it.
        let utf8 =
            std::env::vars_os().filter_map(|(name, value)| Some((name.into_string().ok()?, value.into_string().ok()?)));
        let values = utf8.filter_map(|(name, value)| {
            let upper = name.to_ascii_uppercase();
            let named = SECRET_VARIABLES.contains(&upper.as_str()) || extra.contains(&name.as_str());
            let shaped =
                ["_KEY", "_TOKEN", "_SECRET", "_PASSWORD"].iter().any(|s| upper.ends_with(s)) && value.len() >= 12;
            (named || shaped).then_some(value)
        });
        Self::new(values)
    }

    /// `value` with every string in it scrubbed on its own (before JSON escaping, so a
    /// secret holding `"` or `\` is still found, and no match spans two messages).
    pub fn redact_json(&self, value: &serde_json::Value) -> serde_json::Value {
        use serde_json::Value;
        match value {
            Value::String(text) => Value::String(self.redact(text).into_owned()),
            Value::Array(items) => Value::Array(items.iter().map(|item| self.redact_json(item)).collect()),
            Value::Object(fields) => {
                Value::Object(fields.iter().map(|(key, item)| (key.clone(), self.redact_json(item))).collect())
            }
            other => other.clone(),
        }
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
    fn request_strings_are_scrubbed_one_by_one_and_words_are_not_keys() {
        let redactor = Redactor::new(["a\\b\"c-secret-value".to_owned()]);
        let body = serde_json::json!({"messages": [
            {"role": "tool", "content": "read config/task-scheduler-configuration-settings.yaml; pw=a\\b\"c-secret-value"},
            {"role": "tool", "content": "-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEAx3bZ9qLmN0pQrStUvWxYz1234567890abcdefGHIJ"},
            {"role": "user", "content": "keep me -----END RSA PRIVATE KEY-----"},
        ]});
        let clean = redactor.redact_json(&body);
        let first = clean["messages"][0]["content"].as_str().unwrap();
        assert!(first.contains("task-scheduler-configuration-settings.yaml"), "{first}");
        assert!(first.ends_with("pw=[REDACTED]"), "a secret holding quote and backslash: {first}");
        assert_eq!(clean["messages"][1]["content"], "[REDACTED]", "a key cut off by a partial read");
        let code = "if pem.starts_with(\"-----BEGIN RSA PRIVATE KEY-----\") {\n    load(pem)\n}\nconst END: &str = \"-----END RSA PRIVATE KEY-----\";\n";
        assert_eq!(redactor.redact(code), code, "code that quotes the markers stays");
        assert_eq!(clean["messages"][2]["content"], "keep me -----END RSA PRIVATE KEY-----", "never across messages");
    }

    #[test]
    fn keys_written_into_json_and_kubeconfig_files_are_removed() {
        let redactor = Redactor::default();
        let service_account = r#"{"type": "service_account", "private_key_id": "1a2b", "private_key": "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7\nVJTUt9Us8cKj\n-----END PRIVATE KEY-----\n", "client_email": "ci@demo.iam.gserviceaccount.com"}"#;
        let clean = redactor.redact(service_account);
        assert!(!clean.contains("MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7"), "{clean}");
        assert!(clean.contains("ci@demo.iam.gserviceaccount.com"), "the rest stays: {clean}");
        // Cut off by a partial read, the key's lines are still removed.
        let cut_off =
            r#""private_key": "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7"#;
        assert!(!redactor.redact(cut_off).contains("MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7"));
        let kubeconfig = "users:\n- name: ci\n  user:\n    client-key-data: LS0tLS1CRUdJTiBSU0EgUFJJVkFURSBLRVktLS0tLQpNSUlFb3dJQkFBS0NBUUVB\n";
        let clean = redactor.redact(kubeconfig);
        assert!(!clean.contains("LS0tLS1CRUdJTiBSU0EgUFJJVkFURSBLRVkt"), "{clean}");
        assert!(clean.contains("- name: ci"), "{clean}");
    }

    #[test]
    fn clean_text_is_not_copied() {
        assert!(matches!(Redactor::default().redact("fn main() {}"), Cow::Borrowed(_)));
    }
}
