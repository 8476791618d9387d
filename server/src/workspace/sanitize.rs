//! Making text fit to show a model: no terminal escapes, no unbounded length.

/// Removes ANSI escape sequences (colours, cursor moves) and other C0 control characters
/// except tab and line breaks.
pub fn strip_ansi(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\u{1b}' => match chars.peek() {
                // CSI: ESC [ parameters... final byte in @..~
                Some('[') => {
                    chars.next();
                    for next in chars.by_ref() {
                        if ('@'..='~').contains(&next) {
                            break;
                        }
                    }
                }
                // OSC: ESC ] ... BEL or ESC \
                Some(']') => {
                    chars.next();
                    while let Some(next) = chars.next() {
                        if next == '\u{7}' || (next == '\u{1b}' && chars.next_if_eq(&'\\').is_some()) {
                            break;
                        }
                    }
                }
                _ => {
                    chars.next();
                }
            },
            '\t' | '\n' | '\r' => out.push(c),
            c if c.is_control() => {}
            c => out.push(c),
        }
    }
    out
}

/// Keeps the head and the tail of a text longer than `max_chars`, saying how much was cut.
pub fn cut_head_tail(text: &str, max_chars: usize) -> String {
    let total = text.chars().count();
    if total <= max_chars {
        return text.to_owned();
    }
    let head: String = text.chars().take(max_chars / 2).collect();
    let tail: String = text.chars().skip(total - max_chars / 2).collect();
    format!("{head}\n[... {} characters cut ...]\n{tail}", total - 2 * (max_chars / 2))
}

/// Files that hold credentials rather than code: `.env` (not `.env.example`), keys and
/// certificates' private halves, `.netrc`, `.pgpass`, `.npmrc`, cloud credentials, data files
/// named for secrets (`secrets.yaml`, `client_secret.json`, `db-password.txt`, `api_key.txt`,
/// `github_token.json`; not `secrets.rs`, `password-reset.md` or design `tokens.json`), password
/// databases, Terraform state and variables, and the logins of Docker, kubectl, MySQL, s3cmd
/// and Composer. The model may
/// not read or search them, and the first prompt never shows them; what it needs to know
/// about settings is in the code.
pub fn holds_secrets(path: &str) -> bool {
    // Judged as Windows opens it: `.env ` and `server.pem.` are `.env` and `server.pem`, and
    // `.env::$DATA` is the file's own stream.
    let folded = |part: &str| part.split(':').next().unwrap_or(part).trim_end_matches(['.', ' ']).to_ascii_lowercase();
    // docker-compose and cookiecutter keep environment files in a folder of their own.
    if path.split('/').rev().skip(1).any(|folder| folded(folder) == ".envs") {
        return true;
    }
    let name = folded(path.rsplit('/').next().unwrap_or(path));
    let example = ["example", "sample", "template", "dist"].iter().any(|word| name.ends_with(word));
    let (stem, extension) = name.rsplit_once('.').unwrap_or((name.as_str(), ""));
    let data = matches!(
        extension,
        "yaml" | "yml" | "json" | "toml" | "ini" | "conf" | "cfg" | "properties" | "txt" | "env" | "csv"
    );
    let named_for_secrets = [
        "secret",
        "credential",
        "password",
        "passwd",
        "service-account",
        "service_account",
        "keystore",
        "api_key",
        "api-key",
        "apikey",
    ]
    .iter()
    .any(|word| stem.contains(word))
        // `token.txt`, `github_token.json`; not design tokens (`tokens.json`, `design-tokens.json`).
        || stem == "token"
        || stem.ends_with("_token")
        || stem.ends_with("-token");
    // A tool's own settings of logins, in the folder it keeps them in.
    let folder = path.rsplit('/').nth(1).map(folded);
    let tool_logins =
        matches!((folder.as_deref(), name.as_str()), (Some(".docker"), "config.json") | (Some(".kube"), "config"));
    let environment = name == ".env"
        || ([".env.", ".env-", ".env_"].iter().any(|start| name.starts_with(start)) && !example)
        || (extension == "env" && !stem.is_empty() && !example);
    environment
        || [".pem", ".key", ".p12", ".pfx", ".p8", ".ppk", ".keystore", ".jks", ".kdbx"]
            .iter()
            .any(|ext| name.ends_with(ext))
        || name.contains(".tfstate")
        // Terraform's variable values, where its secrets are given.
        || ((name.ends_with(".tfvars") || name.ends_with(".tfvars.json")) && !example)
        || tool_logins
        || (["id_rsa", "id_dsa", "id_ecdsa", "id_ed25519"].iter().any(|key| name.starts_with(key))
            && !name.ends_with(".pub"))
        || [
            ".netrc",
            ".pgpass",
            ".npmrc",
            ".pypirc",
            ".envrc",
            "credentials",
            ".git-credentials",
            ".htpasswd",
            ".my.cnf",
            ".s3cfg",
            ".boto",
            ".dockercfg",
        ]
        .contains(&name.as_str())
        // Composer's logins to package hosts, at a project's top or in its home folder (not an
        // app's `locales/en/auth.json`).
        || (name == "auth.json" && (!path.contains('/') || folder.as_deref() == Some(".composer")))
        || (data && named_for_secrets && !example)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colours_and_titles_are_removed() {
        let coloured = "\u{1b}[1;31merror\u{1b}[0m: bad\u{1b}]0;title\u{7} end\u{1b}]8;;x\u{1b}\\!";
        assert_eq!(strip_ansi(coloured), "error: bad end!");
        assert_eq!(strip_ansi("tab\tkeep\r\nbell\u{7}"), "tab\tkeep\r\nbell");
    }

    #[test]
    fn secrets_files_are_told_from_code_and_examples() {
        for secret in [
            ".env",
            "config/.env.production",
            "deploy/server.pem",
            "home/.ssh/id_ed25519",
            ".npmrc",
            "k8s/secrets.yaml",
            "gcp/service-account-prod.json",
            "aws/credentials",
            "config/credentials.json",
            "infra/terraform.tfstate",
            "infra/terraform.tfstate.backup",
            "infra/terraform.tfstate.1700000000.backup",
            "vault.kdbx",
            "web/.htpasswd",
            "oauth/client_secret.json",
            "deploy/secrets.env",
            "config/production.env",
            "docker/db.env",
            ".env-local",
            ".env_prod",
            ".envs/.production/.postgres",
            "keys/AuthKey_ABC123.p8",
            "putty/server.ppk",
            ".env ",
            ".env::$DATA",
            "deploy/server.pem.",
            "k8s/secrets.yaml.",
            ".npmrc.",
            "db-password.txt",
            "keys/id_ed25519_deploy",
            "infra/terraform.tfvars",
            "infra/prod.auto.tfvars",
            "infra/prod.tfvars.json",
            "android/keystore.properties",
            "api_key.txt",
            "config/openai-api-key.txt",
            "token.txt",
            "ci/github_token.json",
            "home/.docker/config.json",
            "home/.kube/config",
            ".my.cnf",
            ".s3cfg",
            "auth.json",
            "home/.composer/auth.json",
        ] {
            assert!(holds_secrets(secret), "{secret}");
        }
        for code in [
            ".env.example",
            "src/secrets.rs",
            "src/credentials.ts",
            "docs/secrets.md",
            "docs/password-reset.md",
            "k8s/deployment.yaml",
            "keys/id_ed25519.pub",
            "config/secrets.yaml.example",
            "config/production.env.example",
            ".env-example",
            "src/env.rs",
            "src/envs/mod.rs",
            "infra/terraform.tfvars.example",
            "infra/variables.tf",
            "src/tokens.json",
            "theme/design-tokens.json",
            "src/token.rs",
            "src/api_key.rs",
            "config.json",
            "src/kube/config.ts",
            "src/auth.ts",
            "public/locales/en/auth.json",
        ] {
            assert!(!holds_secrets(code), "{code}");
        }
    }

    #[test]
    fn truncated_escapes_do_not_panic() {
        assert_eq!(strip_ansi("a\u{1b}"), "a");
        assert_eq!(strip_ansi("a\u{1b}[12"), "a");
        assert_eq!(strip_ansi("a\u{1b}]unterminated"), "a");
    }

    #[test]
    fn long_text_keeps_head_and_tail() {
        let text = "a".repeat(50) + &"b".repeat(50);
        let cut = cut_head_tail(&text, 20);
        assert!(cut.starts_with("aaaaaaaaaa\n[... 80 characters cut ...]\nbbbbbbbbbb"), "{cut}");
        assert_eq!(cut_head_tail("short", 20), "short");
    }
}
