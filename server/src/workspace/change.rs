//! The changes a run proposes, file by file, and how each one lands on the user's current text.

use super::merge::{MergeConflict, merge3};
use super::path::WorkspacePath;

/// A file's text as the user had it when a run first touched it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct BaseText {
    /// The text.
    pub text: String,
    /// The editor's document version when the text came from an open buffer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<i32>,
}

/// What a proposal does to one file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ChangeKind {
    /// The file is new.
    Created,
    /// The file's text changes.
    Modified,
    /// The file goes away.
    Deleted,
}

/// One file of a proposal: its base and its proposed text (`None`: deleted).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FileChange {
    /// The file.
    pub path: WorkspacePath,
    /// The user's text when the run first touched it; `None` if it did not exist.
    pub base: Option<BaseText>,
    /// The proposed text; `None` when the file is deleted.
    pub new_text: Option<String>,
}

/// What applying one [`FileChange`] to the user's current text must do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Landing {
    /// The current text already is the proposed one.
    AlreadyThere,
    /// Replace the current text (absent: create the file) with this text.
    Write(String),
    /// Delete the file.
    Delete,
}

/// The user changed a file in a way the proposal cannot be carried onto.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{path}` {reason}")]
pub struct Conflict {
    /// The file.
    pub path: WorkspacePath,
    /// What happened to it, in words a user acts on.
    pub reason: String,
}

impl FileChange {
    /// Whether the file is created, modified or deleted.
    pub fn kind(&self) -> ChangeKind {
        match (&self.base, &self.new_text) {
            (None, _) => ChangeKind::Created,
            (Some(_), Some(_)) => ChangeKind::Modified,
            (Some(_), None) => ChangeKind::Deleted,
        }
    }

    /// Carries this change onto `current`, the user's text now (`None`: no such file).
    ///
    /// Unchanged since the run read it: the proposal as is. Edited since: the proposal's
    /// hunks rebased onto the user's text when they do not overlap the user's edits;
    /// otherwise a [`Conflict`] naming the file. The user's change is never overwritten.
    pub fn land_on(&self, current: Option<&str>) -> Result<Landing, Conflict> {
        let conflict = |reason: String| Conflict { path: self.path.clone(), reason };
        match (&self.base, &self.new_text, current) {
            (_, None, None) => Ok(Landing::AlreadyThere),
            (_, Some(new), Some(now)) if now == new => Ok(Landing::AlreadyThere),
            (None, Some(new), None) => Ok(Landing::Write(new.clone())),
            (None, Some(_), Some(_)) => Err(conflict(
                "was created by someone else since the run started; the proposal would overwrite it".into(),
            )),
            (Some(_), Some(_), None) => {
                Err(conflict("was deleted since the run read it; the proposal edits a file that is gone".into()))
            }
            (Some(base), Some(new), Some(now)) if now == base.text => Ok(Landing::Write(new.clone())),
            (Some(base), Some(new), Some(now)) => match merge3(&base.text, new, now) {
                Ok(merged) if merged == now => Ok(Landing::AlreadyThere),
                Ok(merged) => Ok(Landing::Write(merged)),
                Err(MergeConflict { first_line, last_line }) => Err(conflict(format!(
                    "was edited since the run read it, and the edit overlaps the proposal at lines {first_line}-{last_line} of the original; apply the other files, then redo this one"
                ))),
            },
            (Some(base), None, Some(now)) if now == base.text => Ok(Landing::Delete),
            (Some(_), None, Some(_)) => {
                Err(conflict("was edited since the run read it; deleting it would lose that edit".into()))
            }
            (None, None, Some(_)) => Ok(Landing::AlreadyThere),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn change(base: Option<&str>, new: Option<&str>) -> FileChange {
        FileChange {
            path: WorkspacePath::parse("f.txt").unwrap(),
            base: base.map(|text| BaseText { text: text.into(), version: None }),
            new_text: new.map(str::to_owned),
        }
    }

    #[test]
    fn kinds() {
        assert_eq!(change(None, Some("x")).kind(), ChangeKind::Created);
        assert_eq!(change(Some("a"), Some("b")).kind(), ChangeKind::Modified);
        assert_eq!(change(Some("a"), None).kind(), ChangeKind::Deleted);
    }

    #[test]
    fn untouched_files_take_the_proposal() {
        assert_eq!(change(Some("a\n"), Some("b\n")).land_on(Some("a\n")), Ok(Landing::Write("b\n".into())));
        assert_eq!(change(None, Some("n\n")).land_on(None), Ok(Landing::Write("n\n".into())));
        assert_eq!(change(Some("a\n"), None).land_on(Some("a\n")), Ok(Landing::Delete));
    }

    #[test]
    fn applied_twice_is_a_no_op() {
        assert_eq!(change(Some("a\n"), Some("b\n")).land_on(Some("b\n")), Ok(Landing::AlreadyThere));
        assert_eq!(change(Some("a\n"), None).land_on(None), Ok(Landing::AlreadyThere));
    }

    #[test]
    fn separate_user_edits_are_rebased_onto() {
        let base = "1\n2\n3\n4\n5\n";
        let proposal = change(Some(base), Some("1\nTWO\n3\n4\n5\n"));
        let landing = proposal.land_on(Some("1\n2\n3\n4\nFIVE\n")).unwrap();
        assert_eq!(landing, Landing::Write("1\nTWO\n3\n4\nFIVE\n".into()));
    }

    #[test]
    fn overlapping_user_edits_are_a_conflict_naming_the_file() {
        let proposal = change(Some("1\n2\n3\n"), Some("1\nTWO\n3\n"));
        let conflict = proposal.land_on(Some("1\nzwei\n3\n")).unwrap_err();
        assert!(conflict.to_string().starts_with("`f.txt` was edited since the run read it"), "{conflict}");
    }

    #[test]
    fn creations_and_deletions_never_clobber() {
        assert!(change(None, Some("mine")).land_on(Some("theirs")).is_err());
        assert!(change(Some("a"), None).land_on(Some("a, edited")).is_err());
        assert!(change(Some("a"), Some("b")).land_on(None).is_err());
    }
}
