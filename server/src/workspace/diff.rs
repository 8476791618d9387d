//! Unified diffs of proposed changes, in the form `git apply` and reviewers read.

use std::borrow::Cow;
use std::fmt::Write;
use std::path::Path;
use std::time::Duration;

use similar::TextDiff;

use super::change::{ChangeKind, FileChange};
use super::disk::opens_with_bom;
use super::path::WorkspacePath;

/// Lines added and removed by one file's change.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
pub struct LineStats {
    /// Lines added.
    pub added: usize,
    /// Lines removed.
    pub removed: usize,
}

/// One line of a proposal's file list: what happens to the file, and how much.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct FileSummary {
    /// The file.
    pub path: WorkspacePath,
    /// Created, modified or deleted.
    pub kind: ChangeKind,
    /// Lines added.
    pub added: usize,
    /// Lines removed.
    pub removed: usize,
}

impl FileSummary {
    /// Summarises one change.
    pub fn of(change: &FileChange) -> Self {
        let LineStats { added, removed } = line_stats(change);
        Self { path: change.path.clone(), kind: change.kind(), added, removed }
    }
}

/// Counts the lines a change adds and removes.
pub fn line_stats(change: &FileChange) -> LineStats {
    let old = change.base.as_ref().map_or("", |base| base.text.as_str());
    let new = change.new_text.as_deref().unwrap_or("");
    let diff = TextDiff::configure().timeout(Duration::from_secs(2)).diff_lines(old, new);
    let mut stats = LineStats::default();
    for change in diff.iter_all_changes() {
        match change.tag() {
            similar::ChangeTag::Insert => stats.added += 1,
            similar::ChangeTag::Delete => stats.removed += 1,
            similar::ChangeTag::Equal => {}
        }
    }
    stats
}

/// A git-style unified diff of every change, three lines of context: what is shown.
pub fn unified_diff(changes: &[FileChange]) -> String {
    diff_marked(changes, &|_| false)
}

/// The patch `git apply` takes for `changes` to the files below `root`: the unified diff,
/// where a file whose text on disk opens with a byte-order mark has it in its first line on
/// both sides (the texts read leave it out, and writing one puts it back), as git reads it.
pub fn patch(changes: &[FileChange], root: &Path) -> String {
    diff_marked(changes, &|path| opens_with_bom(&root.join(path.as_str())))
}

/// `text`, after a byte-order mark where `bom` says it takes one and has none.
fn with_bom(text: &str, bom: bool) -> Cow<'_, str> {
    match bom && !text.starts_with('\u{feff}') {
        true => Cow::Owned(format!("\u{feff}{text}")),
        false => Cow::Borrowed(text),
    }
}

/// The unified diff, a byte-order mark before the old and new texts of the files `marked`
/// says open with one.
fn diff_marked(changes: &[FileChange], marked: &dyn Fn(&WorkspacePath) -> bool) -> String {
    let mut out = String::new();
    for change in changes {
        let path = change.path.as_str();
        let bom = change.base.is_some() && marked(&change.path);
        let old_text = change.base.as_ref().map(|base| with_bom(&base.text, bom));
        let new_text = change.new_text.as_deref().map(|text| with_bom(text, bom));
        let old = old_text.as_deref();
        let new = new_text.as_deref();
        let _ = writeln!(out, "diff --git a/{path} b/{path}");
        let (from, to) = match (old, new) {
            (None, _) => {
                let _ = writeln!(out, "new file mode 100644");
                ("/dev/null".to_owned(), format!("b/{path}"))
            }
            (Some(_), None) => {
                let _ = writeln!(out, "deleted file mode 100644");
                (format!("a/{path}"), "/dev/null".to_owned())
            }
            (Some(_), Some(_)) => (format!("a/{path}"), format!("b/{path}")),
        };
        let (old, new) = (old.unwrap_or(""), new.unwrap_or(""));
        if old == new {
            continue;
        }
        let diff = TextDiff::configure().timeout(Duration::from_secs(2)).diff_lines(old, new);
        let _ = write!(out, "{}", diff.unified_diff().context_radius(3).header(&from, &to));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workspace::{BaseText, WorkspacePath};

    fn change(path: &str, base: Option<&str>, new: Option<&str>) -> FileChange {
        FileChange {
            path: WorkspacePath::parse(path).unwrap(),
            base: base.map(|text| BaseText { text: text.into(), version: None }),
            new_text: new.map(str::to_owned),
        }
    }

    #[test]
    fn diffs_name_created_modified_and_deleted_files() {
        let diff = unified_diff(&[
            change("src/a.rs", Some("one\ntwo\n"), Some("one\n2\n")),
            change("src/new.rs", None, Some("fresh\n")),
            change("old.txt", Some("bye\n"), None),
        ]);
        assert!(diff.contains("--- a/src/a.rs\n+++ b/src/a.rs\n@@ -1,2 +1,2 @@\n one\n-two\n+2\n"), "{diff}");
        assert!(
            diff.contains("new file mode 100644\n--- /dev/null\n+++ b/src/new.rs\n@@ -0,0 +1 @@\n+fresh\n"),
            "{diff}"
        );
        assert!(diff.contains("deleted file mode 100644\n--- a/old.txt\n+++ /dev/null\n"), "{diff}");
    }

    #[test]
    fn stats_count_lines() {
        let stats = line_stats(&change("a", Some("1\n2\n3\n"), Some("1\nx\ny\n3\n")));
        assert_eq!(stats, LineStats { added: 2, removed: 1 });
    }
}
