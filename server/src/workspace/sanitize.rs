//! Making text fit to show a model: no terminal escapes, no unbounded length.

/// What stands for a secret in text that leaves the machine (a key in a file the model read):
/// the model may write it back, and what it writes is restored from the file it read.
pub const REDACTED: &str = "[REDACTED]";

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

/// `text` with its control characters but tab and line breaks written out (`\u{1b}` for an
/// escape), for printing what a model wrote to a terminal: an escape sequence in a tool call's
/// path or in a summary would otherwise set the terminal's title, clear its screen or, where
/// the terminal allows it, fill the clipboard.
pub fn visible_controls(text: &str) -> std::borrow::Cow<'_, str> {
    let hidden = |c: char| c.is_control() && !matches!(c, '\t' | '\n' | '\r');
    if !text.chars().any(hidden) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if hidden(c) {
            out.extend(c.escape_unicode());
        } else {
            out.push(c);
        }
    }
    std::borrow::Cow::Owned(out)
}

/// What a character outside ASCII counts for in [`text_measure`]: about a token, as a CJK
/// character, a letter of a non-Latin script or an emoji takes one or more, where code and
/// English take about four characters a token.
const NON_ASCII_MEASURE: usize = 4;

/// The length of a text in the units the prompt's budgets count: a character of ASCII one,
/// any other four. Four of them make about a token whatever the script, so an
/// issue written in Chinese is cut to the same share of the model's window as one in English.
pub fn text_measure(text: &str) -> usize {
    // A character outside ASCII starts with a byte of 0b11xx_xxxx; those after it are
    // 0b10xx_xxxx and count for nothing.
    text.bytes()
        .map(|byte| match byte {
            0..0x80 => 1,
            0x80..0xC0 => 0,
            _ => NON_ASCII_MEASURE,
        })
        .sum()
}

/// How many of `chars`, from the first, fit in `measure` (see [`text_measure`]).
fn chars_within(chars: impl Iterator<Item = char>, measure: usize) -> usize {
    let mut spent = 0;
    chars
        .take_while(|&c| {
            spent += char_measure(c);
            spent <= measure
        })
        .count()
}

/// The measure of one character (see [`text_measure`]).
fn char_measure(c: char) -> usize {
    if c.is_ascii() { 1 } else { NON_ASCII_MEASURE }
}

/// Keeps the head and the tail of a text whose [`text_measure`] passes `max_chars`, saying how
/// much was cut: a text of ASCII keeps `max_chars` characters, one of another script about a
/// quarter as many, each about a token. Where the text has lines, whole lines are kept (a
/// listing or a log loses no half line that would read like a whole one), unless that would
/// keep less than half of what a side may hold.
pub fn cut_head_tail(text: &str, max_chars: usize) -> String {
    if text_measure(text) <= max_chars {
        return text.to_owned();
    }
    let half = max_chars / 2;
    let head_end = byte_after_chars(text, chars_within(text.chars(), half));
    let tail_chars = chars_within(text.chars().rev(), half);
    let tail_start = byte_after_chars(text, text.chars().count() - tail_chars);
    // Back to the last line break of the head, on to the first of the tail.
    let head_end = match text[..head_end].rfind('\n') {
        Some(at) if text_measure(&text[..at]) >= half / 2 => at + 1,
        _ => head_end,
    };
    let tail_start = match text[tail_start..].find('\n') {
        Some(at) if text_measure(&text[tail_start + at + 1..]) >= half / 2 => tail_start + at + 1,
        _ => tail_start,
    };
    let (head, cut, tail) = (&text[..head_end], &text[head_end..tail_start], &text[tail_start..]);
    let characters = cut.chars().count();
    let lines = cut.matches('\n').count();
    let told = match head.ends_with('\n') && lines > 0 {
        true => format!("[... {lines} line{} ({characters} characters) cut ...]\n", if lines == 1 { "" } else { "s" }),
        false => format!("\n[... {characters} characters cut ...]\n"),
    };
    format!("{head}{told}{tail}")
}

/// The byte index after the first `chars` characters of `text`.
fn byte_after_chars(text: &str, chars: usize) -> usize {
    text.char_indices().nth(chars).map_or(text.len(), |(at, _)| at)
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
        // Firebase's `serviceAccountKey.json` and `<app>-firebase-adminsdk-<id>.json`.
        "serviceaccount",
        "adminsdk",
        "kubeconfig",
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
            "kubeconfig",
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
    fn control_characters_printed_to_a_terminal_are_written_out() {
        let title_and_clear = "src/\u{1b}]0;owned\u{7}\u{1b}[2Jlib.rs";
        assert_eq!(visible_controls(title_and_clear), "src/\\u{1b}]0;owned\\u{7}\\u{1b}[2Jlib.rs");
        assert_eq!(
            visible_controls("done.\n\tAll tests pass: naïve → fine\r\n"),
            "done.\n\tAll tests pass: naïve → fine\r\n"
        );
        assert!(matches!(visible_controls("plain"), std::borrow::Cow::Borrowed(_)));
    }

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
            "config/serviceAccountKey.json",
            "myapp-firebase-adminsdk-ab12c-0123456789.json",
            "deploy/kubeconfig",
            "deploy/kubeconfig.yaml",
            "ci/staging-kubeconfig.yml",
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
            "src/kubeconfig.rs",
            "src/firebase/serviceAccount.ts",
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

    #[test]
    fn text_of_another_script_is_cut_to_about_as_many_tokens() {
        // A character of Chinese, Cyrillic or an emoji is about a token: four of ASCII.
        assert_eq!(text_measure("abc"), 3);
        assert_eq!(text_measure("日本"), 8);
        assert_eq!(text_measure("é🙂a"), 9);
        let text = "错误".repeat(50);
        let cut = cut_head_tail(&text, 40);
        assert!(cut.starts_with("错误错误错\n[... 90 characters cut ...]\n误错误错误"), "{cut}");
        assert!(text_measure(&cut) < 40 + 40, "{cut}");
        // Within the measure, nothing is cut.
        assert_eq!(cut_head_tail("日本語", 12), "日本語");
    }

    #[test]
    fn text_of_lines_loses_whole_lines() {
        let listing: String = (0..100).map(|n| format!("src/main/java/com/example/File{n:03}.java\n")).collect();
        let cut = cut_head_tail(&listing, 400);
        assert!(cut.starts_with("src/main/java/com/example/File000.java\n"), "{cut}");
        assert!(cut.ends_with("src/main/java/com/example/File099.java\n"), "{cut}");
        // Five whole lines of 39 characters each side, and the 90 between them told.
        let lines: Vec<&str> = cut.lines().collect();
        assert_eq!(lines.len(), 11, "{cut}");
        assert_eq!(lines[5], "[... 90 lines (3510 characters) cut ...]");
        for line in lines.iter().filter(|line| !line.starts_with("[...")) {
            assert!(
                line.starts_with("src/main/java/com/example/File") && line.ends_with(".java"),
                "half a line: {line}"
            );
        }
        // One long line with short ones around it is cut inside it rather than lose most of
        // what may be kept.
        let text = format!("a\n{}\nb\n", "x".repeat(1000));
        let cut = cut_head_tail(&text, 100);
        assert!(cut.starts_with("a\nxxxx") && cut.contains("characters cut ...]"), "{cut}");
    }

    proptest::proptest! {
        /// Whatever the text and the limit, the cut keeps its head and tail within the limit,
        /// from the text's own start and end, and says it cut.
        #[test]
        fn a_cut_keeps_within_its_limit(text in "(\\PC|\n){0,300}", max in 0usize..400) {
            let cut = cut_head_tail(&text, max);
            if text_measure(&text) <= max {
                proptest::prop_assert_eq!(&cut, &text);
            } else {
                let at = cut.find("[... ").expect("the cut is told");
                let told_end = at + cut[at..].find(" cut ...]\n").expect("the cut is told") + " cut ...]\n".len();
                let head = cut[..at].strip_suffix('\n').unwrap_or(&cut[..at]);
                let tail = &cut[told_end..];
                proptest::prop_assert!(text_measure(head) + text_measure(tail) <= max, "{:?}", cut);
                proptest::prop_assert!(text.starts_with(head) && text.ends_with(tail), "{:?}", cut);
            }
        }
    }
}
