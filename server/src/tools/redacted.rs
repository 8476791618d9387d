//! The marker that stands for a secret in what the model was shown (a token in a test's
//! fixture, say; see `llm::redact`), met again in what it writes: a line it copied with the
//! marker is the file's own line, written back as the file has it, secret and all. A line
//! the marker stands in that is no line of the file is refused, since writing it would put
//! the marker where the secret was.

use std::borrow::Cow;

use regex::Regex;

use crate::workspace::REDACTED;

/// `text` (new text for the file whose text is now `current`) with each line holding
/// [`REDACTED`] replaced by the one line of `current` it stands for: the same text, the
/// marker standing for some text in each place. An error names the first line that stands
/// for none of them, or for several.
pub(super) fn restore<'t>(text: &'t str, current: &str) -> Result<Cow<'t, str>, String> {
    restore_telling(text, current).map(|(restored, _)| restored)
}

/// A patch's `old_text` and `new_text` for the file whose text is now `current`, restored:
/// the old text as [`restore`] has it, and the new one with its markers standing, in order,
/// for the secrets the old text's stand for, where it holds as many (a line holding a secret
/// that the patch adds a comment to), else as [`restore`] has it.
pub(super) fn restore_patch<'t>(
    old_text: &'t str,
    new_text: &'t str,
    current: &str,
) -> Result<(Cow<'t, str>, Cow<'t, str>), String> {
    let (old, secrets) = restore_telling(old_text, current)?;
    if !secrets.is_empty() && new_text.matches(REDACTED).count() == secrets.len() {
        let mut pieces = new_text.split(REDACTED);
        let mut new = pieces.next().unwrap_or_default().to_owned();
        for (secret, piece) in secrets.iter().zip(pieces) {
            new.push_str(secret);
            new.push_str(piece);
        }
        return Ok((old, Cow::Owned(new)));
    }
    Ok((old, restore(new_text, current)?))
}

/// [`restore`], with the text each marker stood for, in order.
fn restore_telling<'t>(text: &'t str, current: &str) -> Result<(Cow<'t, str>, Vec<String>), String> {
    if !text.contains(REDACTED) {
        return Ok((Cow::Borrowed(text), Vec::new()));
    }
    let mut secrets = Vec::new();
    let mut restored = String::with_capacity(text.len());
    for (number, line) in text.split_inclusive('\n').enumerate() {
        let body = line.trim_end_matches(['\n', '\r']);
        let ending = &line[body.len()..];
        if !body.contains(REDACTED) {
            restored.push_str(line);
            continue;
        }
        let pieces: Vec<String> = body.split(REDACTED).map(regex::escape).collect();
        let pattern = Regex::new(&format!("^{}$", pieces.join("(.+?)"))).map_err(|error| error.to_string())?;
        let mut stands_for: Vec<&str> = current.lines().filter(|line| pattern.is_match(line)).collect();
        stands_for.sort_unstable();
        stands_for.dedup();
        match stands_for.as_slice() {
            [original] => {
                let found = pattern.captures(original).expect("it matched");
                secrets.extend(found.iter().skip(1).flatten().map(|secret| secret.as_str().to_owned()));
                restored.push_str(original);
                restored.push_str(ending);
            }
            // The file holds the marker itself there (a redaction's own test).
            _ if current.lines().any(|line| line == body) => restored.push_str(line),
            _ => {
                return Err(format!(
                    "line {} of the new text holds `{REDACTED}`, which stands for a secret (a key or a token) that \
                     was hidden from you, and {}: it would be written in the secret's place. Keep the lines holding \
                     it as the file has them: copy them unchanged, or change the file with patch_file around them.",
                    number + 1,
                    if stands_for.is_empty() {
                        "no line of the file reads so".to_owned()
                    } else {
                        format!("{} lines of the file read so", stands_for.len())
                    }
                ));
            }
        }
    }
    Ok((Cow::Owned(restored), secrets))
}

#[cfg(test)]
mod tests {
    use super::*;

    const FIXTURE: &str =
        "import os\nFAKE_TOKEN = \"ghp_abcdefghijklmnopqrstuvwxyz0123456789\"\n\ndef test_auth():\n    pass\n";

    #[test]
    fn a_line_copied_with_the_marker_is_written_as_the_file_has_it() {
        let written = "import os\nFAKE_TOKEN = \"[REDACTED]\"\n\ndef test_auth():\n    assert login(FAKE_TOKEN)\n";
        assert_eq!(
            restore(written, FIXTURE).unwrap(),
            "import os\nFAKE_TOKEN = \"ghp_abcdefghijklmnopqrstuvwxyz0123456789\"\n\ndef test_auth():\n    assert login(FAKE_TOKEN)\n"
        );
        assert!(matches!(restore("no marker\n", FIXTURE), Ok(Cow::Borrowed("no marker\n"))));
    }

    #[test]
    fn a_marker_standing_for_no_line_or_for_several_is_refused() {
        let changed = "OTHER_TOKEN = \"[REDACTED]\"\n";
        let refused = restore(changed, FIXTURE).unwrap_err();
        assert!(
            refused.starts_with("line 1 of the new text holds `[REDACTED]`") && refused.contains("no line"),
            "{refused}"
        );
        let two =
            "A = \"ghp_abcdefghijklmnopqrstuvwxyz0123456789\"\nA = \"ghp_zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz\"\n";
        assert!(restore("A = \"[REDACTED]\"\n", two).unwrap_err().contains("2 lines of the file read so"));
        // The same line twice is one line it stands for; CRLF endings are kept.
        let twice =
            "A = \"ghp_abcdefghijklmnopqrstuvwxyz0123456789\"\r\nA = \"ghp_abcdefghijklmnopqrstuvwxyz0123456789\"\r\n";
        assert_eq!(
            restore("A = \"[REDACTED]\"\r\n", twice).unwrap(),
            "A = \"ghp_abcdefghijklmnopqrstuvwxyz0123456789\"\r\n"
        );
        // A file that holds the marker itself keeps it.
        assert_eq!(restore("x = \"[REDACTED]\"\n", "x = \"[REDACTED]\"\n").unwrap(), "x = \"[REDACTED]\"\n");
    }
}
