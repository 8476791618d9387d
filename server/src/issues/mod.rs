//! Where issues come from. Today: a sentence typed by the user, or `@path` to a Markdown
//! file. Forges (GitHub, Gitea/Forgejo) plug in here later behind the same [`Issue`].

use std::path::{Path, PathBuf};

/// Longest title kept for labels; longer first lines are cut at a word boundary.
const TITLE_CHARS: usize = 80;

/// An issue to implement: a title and the full text the agent reads.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Issue {
    /// A one-line title (the Markdown heading or first line).
    pub title: String,
    /// The whole text, title included.
    pub text: String,
    /// Where it came from.
    pub source: IssueSource,
}

/// The origin of an [`Issue`].
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase", tag = "kind")]
pub enum IssueSource {
    /// Typed by the user.
    Text,
    /// Read from a Markdown file.
    File {
        /// The file, as resolved.
        path: PathBuf,
    },
}

/// Why an issue could not be resolved.
#[derive(Debug, thiserror::Error)]
pub enum IssueError {
    /// Nothing was given.
    #[error("the issue is empty; give a sentence describing the change, or `@path/to/ISSUE.md`")]
    Empty,
    /// `@` followed by nothing.
    #[error("`@` must be followed by the path of a Markdown file, e.g. `@docs/ISSUE.md`")]
    MissingPath,
    /// The issue file could not be read.
    #[error("cannot read issue file `{path}`: {source} (a text that begins with `@` is given as `\\@...`)")]
    Unreadable {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The issue file holds no text.
    #[error("issue file `{0}` is empty")]
    EmptyFile(PathBuf),
    /// A reference to an issue on a forge, which is not fetched.
    #[error(
        "`{0}` names an issue on a forge, which issuewright does not fetch: give the issue's text, or save it to a file and give `@ISSUE.md`"
    )]
    Reference(String),
}

/// Whether `spec` is only a reference to a forge's issue (`#42`, `acme/walker#42`, a bare
/// number as a shell leaves `#42` unquoted, an issue or pull request's address), not the text
/// of one.
fn is_reference(spec: &str) -> bool {
    static REFERENCE: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    REFERENCE
        .get_or_init(|| {
            regex::Regex::new(
                r"(?i)^(?:(?:implement|fix|resolve|close|do|work on)\s+)?(?:(?:the\s+)?(?:issue|pr|pull request|ticket)\s+)?(?:[\w.-]+/[\w.-]+)?#?\d+[.!]?$|^<?(?:https?://)?[\w.-]+(?::\d+)?/\S+/(?:issues|pulls?|merge_requests)/\d+(?:[/?#]\S*?)?[>).,]?$",
            )
            .expect("the reference pattern is valid")
        })
        .is_match(spec)
}

/// The text of an issue file's bytes: a byte-order mark dropped, UTF-16 (as Windows tools
/// write it) decoded, and anything else that is not UTF-8 read as `\u{fffd}`. The flag says
/// whether anything was lost that way, for the caller to warn.
pub fn decode(bytes: &[u8]) -> (String, bool) {
    let utf16 = |bytes: &[u8], unit: fn([u8; 2]) -> u16| {
        let units = bytes.chunks_exact(2).map(|pair| unit([pair[0], pair[1]]));
        let text: String = char::decode_utf16(units).map(|c| c.unwrap_or(char::REPLACEMENT_CHARACTER)).collect();
        let lossy = bytes.len() % 2 == 1 || text.contains(char::REPLACEMENT_CHARACTER);
        (text, lossy)
    };
    if let Some(rest) = bytes.strip_prefix(b"\xFF\xFE") {
        return utf16(rest, u16::from_le_bytes);
    }
    if let Some(rest) = bytes.strip_prefix(b"\xFE\xFF") {
        return utf16(rest, u16::from_be_bytes);
    }
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    match String::from_utf8(bytes.to_vec()) {
        Ok(text) => (text, false),
        Err(_) => (String::from_utf8_lossy(bytes).into_owned(), true),
    }
}

/// The warning for an issue file [`decode`] could not read whole.
pub fn lossy_warning(path: &Path) -> String {
    format!(
        "{} is not UTF-8 text; what is not was read as \u{fffd}, so non-ASCII words may be lost (save it as UTF-8)",
        path.display()
    )
}

/// Resolves `spec`: `@FILE` reads a Markdown file (relative paths from `base_dir`, `~/`
/// from the home folder), anything else is the issue text itself.
pub fn resolve(spec: &str, base_dir: &Path) -> Result<Issue, IssueError> {
    resolve_with(spec, base_dir, |_| None)
}

/// [`resolve`], with `open_text` giving the text of a file the editor holds open (unsaved
/// edits and all), read in place of the disk's.
pub fn resolve_with(
    spec: &str,
    base_dir: &Path,
    open_text: impl Fn(&Path) -> Option<String>,
) -> Result<Issue, IssueError> {
    let spec = spec.trim();
    if spec.is_empty() {
        return Err(IssueError::Empty);
    }
    if is_reference(spec) {
        return Err(IssueError::Reference(spec.to_owned()));
    }
    // `\@` begins a text with `@` (`\@Nullable is ignored on records`).
    let text_given = |text: &str| Issue { title: title_of(text), text: text.to_owned(), source: IssueSource::Text };
    if let Some(text) = spec.strip_prefix("\\@") {
        return Ok(text_given(&format!("@{text}")));
    }
    let Some(file) = spec.strip_prefix('@') else {
        return Ok(text_given(spec));
    };
    let file = file.trim();
    if file.is_empty() {
        return Err(IssueError::MissingPath);
    }
    let home = std::env::var_os("HOME").map(PathBuf::from);
    let path = match (file.strip_prefix("~/"), home) {
        (Some(rest), Some(home)) => home.join(rest),
        _ => base_dir.join(file),
    };
    let text = match open_text(&path) {
        Some(text) => text,
        None => {
            let bytes = std::fs::read(&path).map_err(|source| IssueError::Unreadable { path: path.clone(), source })?;
            let (text, lossy) = decode(&bytes);
            if lossy {
                tracing::warn!("{}", lossy_warning(&path));
            }
            text
        }
    };
    if text.trim().is_empty() {
        return Err(IssueError::EmptyFile(path));
    }
    Ok(Issue { title: title_of(&text), text, source: IssueSource::File { path } })
}

/// An issue file's front matter (`---`, `title: ...`, `labels: bug`, `---` at its top, as
/// issue templates and static sites write it) taken off: its `title:` if it gives a non-empty
/// one, and the text after it. A lone `---` with no second to close it is a horizontal rule,
/// not front matter: the text is given back whole.
pub fn split_front_matter(text: &str) -> (Option<String>, &str) {
    let start = text.trim_start_matches(|c: char| c.is_whitespace() || c == '\u{feff}');
    let Some(after_open) = start.strip_prefix("---").filter(|rest| rest.starts_with(['\n', '\r'])) else {
        return (None, text);
    };
    let mut offset = 0;
    let mut title = None;
    for line in after_open.split_inclusive('\n') {
        offset += line.len();
        let line = line.trim();
        if line == "---" {
            let title = title.filter(|title: &String| !title.is_empty());
            return (title, &after_open[offset..]);
        }
        if let Some(value) = line.strip_prefix("title:") {
            title = Some(value.trim().trim_matches(|c| c == '"' || c == '\'').to_owned());
        }
    }
    (None, text)
}

/// The issue's title: front matter's `title:`, else its first line of text (past front
/// matter, a horizontal rule and HTML comments, which templates open with) without Markdown
/// heading marks; cut to a label's length.
fn title_of(text: &str) -> String {
    let (titled, rest) = split_front_matter(text);
    let mut lines = rest
        .lines()
        .map(|line| line.trim_matches(|c: char| c.is_whitespace() || c == '\u{feff}'))
        .skip_while(|line| line.is_empty())
        .peekable();
    lines.next_if_eq(&"---");

    let mut in_comment = false;
    let mut rest = lines;
    let line = titled.unwrap_or_else(|| {
        rest.find(|line| {
            let was_in = in_comment;
            if line.starts_with("<!--") || was_in {
                in_comment = !line.contains("-->");
                return false;
            }
            !line.is_empty()
        })
        .unwrap_or_default()
        .to_owned()
    });
    let line = line.trim_start_matches('#').trim();
    if line.chars().count() <= TITLE_CHARS {
        return line.to_owned();
    }
    let cut: String = line.chars().take(TITLE_CHARS).collect();
    let cut = cut.rsplit_once(' ').map_or(cut.as_str(), |(head, _)| head);
    format!("{cut}…")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn free_text_is_the_issue() {
        let issue = resolve("  Make parse() accept tabs  ", Path::new("/nowhere")).unwrap();
        assert_eq!(issue.title, "Make parse() accept tabs");
        assert_eq!(issue.source, IssueSource::Text);
    }

    #[test]
    fn markdown_files_give_their_heading_as_title() {
        let dir = crate::testing::tempdir();
        std::fs::write(dir.path().join("ISSUE.md"), "\n# Crash on empty input\n\nSteps: ...\n").unwrap();
        let issue = resolve("@ISSUE.md", dir.path()).unwrap();
        assert_eq!(issue.title, "Crash on empty input");
        assert!(issue.text.contains("Steps: ..."));
    }

    #[test]
    fn bad_specs_say_what_to_do() {
        let dir = crate::testing::tempdir();
        assert!(matches!(resolve("   ", dir.path()), Err(IssueError::Empty)));
        assert!(matches!(resolve("@", dir.path()), Err(IssueError::MissingPath)));
        let missing = resolve("@nope.md", dir.path()).unwrap_err();
        assert!(missing.to_string().starts_with("cannot read issue file"), "{missing}");
        std::fs::write(dir.path().join("blank.md"), "\n \n").unwrap();
        assert!(matches!(resolve("@blank.md", dir.path()), Err(IssueError::EmptyFile(_))));
    }

    #[test]
    fn references_to_a_forges_issue_are_refused_and_sentences_mentioning_one_are_not() {
        let dir = crate::testing::tempdir();
        for reference in [
            "#42",
            "issue #42",
            "42",
            "issue 42",
            "PR 7",
            "acme/walker#42",
            "https://github.com/acme/walker/issues/42/",
            "https://gitea.example.com/git/acme/walker/issues/42#issuecomment-7",
            "https://github.com/acme/walker/pull/7",
            "implement issue #42",
            "Fix #42",
            "work on acme/walker#42.",
            "github.com/acme/walker/issues/42",
            "<https://github.com/acme/walker/issues/42>",
            "https://github.com/acme/walker/issues/42)",
        ] {
            let refused = resolve(reference, dir.path()).unwrap_err();
            assert!(matches!(refused, IssueError::Reference(_)), "{reference}");
            assert!(refused.to_string().contains("give the issue's text"), "{refused}");
        }
        let sentence = resolve("Fix the crash from #42 in the parser", dir.path()).unwrap();
        assert_eq!(sentence.title, "Fix the crash from #42 in the parser");
        for text in
            ["Implement caching", "fix the 42 warnings", "See https://github.com/acme/walker/issues/42 for the log"]
        {
            assert!(resolve(text, dir.path()).is_ok(), "{text}");
        }
        let escaped = resolve("\\@Nullable is ignored on record components", dir.path()).unwrap();
        assert_eq!(escaped.text, "@Nullable is ignored on record components");
    }

    #[test]
    fn an_issue_file_open_in_the_editor_is_read_as_it_stands_there() {
        let dir = crate::testing::tempdir();
        std::fs::write(dir.path().join("ISSUE.md"), "# Saved title\n").unwrap();
        let path = dir.path().join("ISSUE.md");
        let open = |asked: &Path| (asked == path).then(|| "# Typed, not saved\n\nThe body.\n".to_owned());
        let issue = resolve_with("@ISSUE.md", dir.path(), open).unwrap();
        assert_eq!(issue.title, "Typed, not saved");
        // A new file, not yet saved at all.
        let new_path = dir.path().join("NEW.md");
        let unsaved = |asked: &Path| (asked == new_path).then(|| "# Only in the editor\n".to_owned());
        assert_eq!(resolve_with("@NEW.md", dir.path(), unsaved).unwrap().title, "Only in the editor");
    }

    #[test]
    fn a_horizontal_rule_first_is_not_front_matter() {
        let dir = crate::testing::tempdir();
        std::fs::write(dir.path().join("rule.md"), "---\nCrash on empty input\n\nSteps.\n").unwrap();
        assert_eq!(resolve("@rule.md", dir.path()).unwrap().title, "Crash on empty input");
        std::fs::write(dir.path().join("front.md"), "---\ntitle: From the front\n---\nBody.\n").unwrap();
        assert_eq!(resolve("@front.md", dir.path()).unwrap().title, "From the front");
    }

    #[test]
    fn issue_files_as_editors_and_forges_write_them() {
        let dir = crate::testing::tempdir();
        let read = |name: &str, bytes: &[u8]| {
            std::fs::write(dir.path().join(name), bytes).unwrap();
            resolve(&format!("@{name}"), dir.path()).unwrap()
        };
        let bom = read("bom.md", b"\xEF\xBB\xBF# Crash on empty input\n");
        assert_eq!((bom.title.as_str(), bom.text.as_str()), ("Crash on empty input", "# Crash on empty input\n"));
        let utf16: Vec<u8> =
            [0xFF, 0xFE].into_iter().chain("# Grüße\n".encode_utf16().flat_map(u16::to_le_bytes)).collect();
        assert_eq!(read("utf16.md", &utf16).title, "Grüße");
        let latin1 = read("latin1.md", b"# Caf\xE9 crashes\n");
        assert_eq!(latin1.title, "Caf\u{fffd} crashes");
        let front = read("front.md", b"---\ntitle: \"Crash on empty input\"\nlabels: bug\n---\n\nSteps\n");
        assert_eq!(front.title, "Crash on empty input");
        let untitled = read("untitled.md", b"---\nlabels: bug\n---\n\n# The real title\n");
        assert_eq!(untitled.title, "The real title");
        let template = read("template.md", b"<!--\n  Describe the bug.\n-->\n\n## Steps are skipped\n");
        assert_eq!(template.title, "Steps are skipped");
    }

    #[test]
    fn long_titles_are_cut_at_a_word() {
        let title = title_of(&"word ".repeat(40));
        assert!(title.ends_with("word…") && title.chars().count() <= TITLE_CHARS + 1, "{title}");
    }
}
