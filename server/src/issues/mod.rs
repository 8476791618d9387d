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
    #[error("cannot read issue file `{path}`: {source}")]
    Unreadable {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The issue file holds no text.
    #[error("issue file `{0}` is empty")]
    EmptyFile(PathBuf),
}

/// Resolves `spec`: `@FILE` reads a Markdown file (relative paths from `base_dir`),
/// anything else is the issue text itself.
pub fn resolve(spec: &str, base_dir: &Path) -> Result<Issue, IssueError> {
    let spec = spec.trim();
    if spec.is_empty() {
        return Err(IssueError::Empty);
    }
    let Some(file) = spec.strip_prefix('@') else {
        return Ok(Issue { title: title_of(spec), text: spec.to_owned(), source: IssueSource::Text });
    };
    let file = file.trim();
    if file.is_empty() {
        return Err(IssueError::MissingPath);
    }
    let path = base_dir.join(file);
    let text =
        std::fs::read_to_string(&path).map_err(|source| IssueError::Unreadable { path: path.clone(), source })?;
    if text.trim().is_empty() {
        return Err(IssueError::EmptyFile(path));
    }
    Ok(Issue { title: title_of(&text), text, source: IssueSource::File { path } })
}

/// The first non-empty line without Markdown heading marks, cut to a label's length.
fn title_of(text: &str) -> String {
    let line = text.lines().map(str::trim).find(|line| !line.is_empty()).unwrap_or_default();
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
    fn long_titles_are_cut_at_a_word() {
        let title = title_of(&"word ".repeat(40));
        assert!(title.ends_with("word…") && title.chars().count() <= TITLE_CHARS + 1, "{title}");
    }
}
