//! Writing landed changes to disk: the one way issuewright itself changes the user's files,
//! used only by `issuewright run --apply`. Editors apply proposals through `WorkspaceEdit`s.

use std::io::Write;
use std::path::Path;

use super::change::Landing;
use super::path::{PathError, Root, WorkspacePath};

/// Why a landing could not be written.
#[derive(Debug, thiserror::Error)]
pub enum DiskError {
    /// The path is not one issuewright may write.
    #[error(transparent)]
    Path(#[from] PathError),
    /// The file system refused.
    #[error("could not write `{0}`: {1}")]
    Io(WorkspacePath, std::io::Error),
}

/// Writes one landing: a new text (atomically: temporary file, then rename, keeping the
/// file's permissions; in place, its old text kept aside until the new is synced, for a
/// file with other names) or a deletion.
pub fn write_landing(root: &Root, path: &WorkspacePath, landing: &Landing) -> Result<(), DiskError> {
    let absolute = root.resolve(path)?;
    let io = |error| DiskError::Io(path.clone(), error);
    match landing {
        Landing::AlreadyThere => Ok(()),
        Landing::Delete => std::fs::remove_file(&absolute).map_err(io),
        Landing::Write(text) => {
            // A file that began with a byte-order mark keeps it (texts are read without it).
            let had_bom = opens_with_bom(&absolute);
            let mut bytes = Vec::with_capacity(text.len() + 3);
            if had_bom && !text.starts_with('\u{feff}') {
                bytes.extend_from_slice(&BOM);
            }
            bytes.extend_from_slice(text.as_bytes());
            // A link (checked to stay inside the workspace) keeps being a link: its target is written.
            let target = if absolute.symlink_metadata().is_ok_and(|m| m.file_type().is_symlink()) {
                absolute.canonicalize().map_err(io)?
            } else {
                absolute
            };
            if has_other_names(&target) {
                write_in_place(&target, &bytes).map_err(io)
            } else {
                write_atomically(&target, &bytes).map_err(io)
            }
        }
    }
}

/// UTF-8's byte-order mark.
const BOM: [u8; 3] = [0xEF, 0xBB, 0xBF];

/// Whether the file at `absolute` opens with UTF-8's byte-order mark (texts are read without
/// it; writing one, or a patch of one, puts it back).
pub(super) fn opens_with_bom(absolute: &Path) -> bool {
    let mut start = [0u8; 3];
    std::fs::File::open(absolute)
        .and_then(|mut file| std::io::Read::read_exact(&mut file, &mut start))
        .is_ok_and(|()| start == BOM)
}

/// How the names of the files [`write_atomically`] writes before it renames them begin: one
/// a process ended in the middle of writing leaves behind, which a cleaner can tell by it.
pub const TEMPORARY_PREFIX: &str = ".issuewright-write-";

/// Replaces the file at `absolute` whole or not at all: a fresh temporary file beside it,
/// synced, given the old file's permissions, then renamed over it (a link there is replaced,
/// not followed). Folders on the way are made. A write that fails (a full disk) removes its
/// temporary file.
pub fn write_atomically(absolute: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let parent = absolute.parent().expect("a file to write has a parent folder");
    std::fs::create_dir_all(parent)?;
    let old = std::fs::metadata(absolute).ok();
    let (temporary, mut file) = tempfile_in(parent, old.as_ref())?;
    let written = (|| {
        file.write_all(bytes)?;
        file.sync_all()?;
        drop(file);
        if let Some(metadata) = &old {
            std::fs::set_permissions(&temporary, metadata.permissions())?;
        }
        std::fs::rename(&temporary, absolute)
    })();
    if written.is_err() {
        let _ = std::fs::remove_file(&temporary);
    }
    written
}

/// Whether the file at `absolute` has names besides this one (hard links), which a rename
/// over it would part from it.
fn has_other_names(absolute: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        std::fs::symlink_metadata(absolute).is_ok_and(|m| m.is_file() && m.nlink() > 1)
    }
    #[cfg(not(unix))]
    {
        let _ = absolute;
        false
    }
}

/// Writes over a file with other names in place, so that every name sees the new text (as an
/// editor keeps hard links). The old bytes are first kept in a synced copy beside it; if the
/// write fails they are written back and the copy removed, and if even that fails the copy is
/// left and the error names it.
fn write_in_place(absolute: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let parent = absolute.parent().expect("a file to write has a parent folder");
    let old = std::fs::read(absolute)?;
    // A file that cannot be written (read-only) is refused before any copy is made: nothing
    // is left beside it, and no message says its old text is kept elsewhere.
    drop(std::fs::OpenOptions::new().write(true).open(absolute)?);
    let (copy, mut file) = tempfile_in(parent, std::fs::metadata(absolute).ok().as_ref())?;
    let kept = file.write_all(&old).and_then(|()| file.sync_all());
    drop(file);
    if let Err(error) = kept {
        let _ = std::fs::remove_file(&copy);
        return Err(error);
    }
    let overwrite = |bytes: &[u8]| -> std::io::Result<()> {
        let mut file = std::fs::OpenOptions::new().write(true).truncate(true).open(absolute)?;
        file.write_all(bytes)?;
        file.sync_all()
    };
    match overwrite(bytes) {
        Ok(()) => {
            let _ = std::fs::remove_file(&copy);
            Ok(())
        }
        Err(error) => match overwrite(&old) {
            Ok(()) => {
                let _ = std::fs::remove_file(&copy);
                Err(error)
            }
            Err(_) => {
                Err(std::io::Error::new(error.kind(), format!("{error}; its old text is kept in `{}`", copy.display())))
            }
        },
    }
}

/// A new file next to the target, named so it cannot clash with a project file.
fn tempfile_in(dir: &Path, like: Option<&std::fs::Metadata>) -> std::io::Result<(std::path::PathBuf, std::fs::File)> {
    loop {
        let name = format!("{TEMPORARY_PREFIX}{:016x}", fastrand::u64(..));
        let path = dir.join(name);
        let mut options = std::fs::OpenOptions::new();
        options.write(true).create_new(true);
        // Made no more readable than the file it stands for (a key's `0600`), even for the
        // moment before its permissions are copied.
        #[cfg(unix)]
        if let Some(metadata) = like {
            use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
            options.mode(metadata.permissions().mode() & 0o777);
        }
        #[cfg(not(unix))]
        let _ = like;
        match options.open(&path) {
            Ok(file) => return Ok((path, file)),
            Err(error) if error.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(error) => return Err(error),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(unix)]
    #[test]
    fn the_text_of_a_private_file_is_never_in_a_file_others_may_read() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let key = dir.path().join("deploy.conf");
        std::fs::write(&key, "token = old\n").unwrap();
        std::fs::set_permissions(&key, std::fs::Permissions::from_mode(0o600)).unwrap();
        // The temporary file a write fills (and the copy a write in place keeps) is made as
        // private as the file, before anything is written to it.
        let (temporary, _file) = tempfile_in(dir.path(), Some(&std::fs::metadata(&key).unwrap())).unwrap();
        assert_eq!(std::fs::metadata(&temporary).unwrap().permissions().mode() & 0o777, 0o600);
        std::fs::remove_file(&temporary).unwrap();
        write_atomically(&key, b"token = new\n").unwrap();
        assert_eq!(std::fs::metadata(&key).unwrap().permissions().mode() & 0o777, 0o600);
        assert_eq!(std::fs::read_to_string(&key).unwrap(), "token = new\n");
    }

    #[test]
    fn a_write_that_fails_leaves_no_temporary_file() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("taken");
        std::fs::create_dir_all(target.join("inside")).unwrap();
        assert!(write_atomically(&target, b"text").is_err(), "a folder is not replaced by a file");
        let left: Vec<String> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert_eq!(left, ["taken"]);
    }

    #[test]
    fn writes_creates_and_deletes() {
        let dir = crate::testing::tempdir();
        std::fs::write(dir.path().join("old.txt"), "x").unwrap();
        let root = Root::new(dir.path()).unwrap();
        let p = |s: &str| WorkspacePath::parse(s).unwrap();
        write_landing(&root, &p("a/b/new.txt"), &Landing::Write("hi\n".into())).unwrap();
        write_landing(&root, &p("old.txt"), &Landing::Delete).unwrap();
        assert_eq!(std::fs::read_to_string(dir.path().join("a/b/new.txt")).unwrap(), "hi\n");
        assert!(!dir.path().join("old.txt").exists());
        let leftovers: Vec<_> = std::fs::read_dir(dir.path().join("a/b")).unwrap().collect();
        assert_eq!(leftovers.len(), 1, "no temporary file is left behind");
    }

    #[test]
    fn a_byte_order_mark_is_read_away_and_written_back() {
        let dir = crate::testing::tempdir();
        std::fs::write(dir.path().join("A.java"), b"\xEF\xBB\xBFclass A {}\n").unwrap();
        let text = crate::workspace::read_disk_text(&dir.path().join("A.java")).unwrap().unwrap();
        assert_eq!(text, "class A {}\n", "as an editor shows it");
        let root = Root::new(dir.path()).unwrap();
        let path = WorkspacePath::parse("A.java").unwrap();
        write_landing(&root, &path, &Landing::Write("class A { int x; }\n".into())).unwrap();
        assert_eq!(std::fs::read(dir.path().join("A.java")).unwrap(), b"\xEF\xBB\xBFclass A { int x; }\n");
    }

    #[cfg(unix)]
    #[test]
    fn a_linked_file_stays_a_link_and_its_target_changes() {
        let dir = crate::testing::tempdir();
        std::fs::create_dir_all(dir.path().join("docs")).unwrap();
        std::fs::write(dir.path().join("docs/CHANGELOG.md"), "old\n").unwrap();
        std::os::unix::fs::symlink("docs/CHANGELOG.md", dir.path().join("CHANGELOG.md")).unwrap();
        let root = Root::new(dir.path()).unwrap();
        let path = WorkspacePath::parse("CHANGELOG.md").unwrap();
        write_landing(&root, &path, &Landing::Write("new\n".into())).unwrap();
        assert!(dir.path().join("CHANGELOG.md").is_symlink());
        assert_eq!(std::fs::read_to_string(dir.path().join("docs/CHANGELOG.md")).unwrap(), "new\n");
    }

    #[cfg(unix)]
    #[test]
    fn a_file_with_two_names_changes_under_both() {
        let dir = crate::testing::tempdir();
        std::fs::write(dir.path().join("a.txt"), "old\n").unwrap();
        std::fs::hard_link(dir.path().join("a.txt"), dir.path().join("b.txt")).unwrap();
        let root = Root::new(dir.path()).unwrap();
        let path = WorkspacePath::parse("a.txt").unwrap();
        write_landing(&root, &path, &Landing::Write("new\n".into())).unwrap();
        assert_eq!(std::fs::read_to_string(dir.path().join("a.txt")).unwrap(), "new\n");
        assert_eq!(std::fs::read_to_string(dir.path().join("b.txt")).unwrap(), "new\n", "the other name too");
        let mut left: Vec<String> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        left.sort();
        assert_eq!(left, ["a.txt", "b.txt"], "no copy is left behind");
    }

    #[cfg(unix)]
    #[test]
    fn permissions_survive_a_rewrite() {
        use std::os::unix::fs::PermissionsExt;
        let dir = crate::testing::tempdir();
        let script = dir.path().join("run.sh");
        std::fs::write(&script, "#!/bin/sh\n").unwrap();
        std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
        let root = Root::new(dir.path()).unwrap();
        let path = WorkspacePath::parse("run.sh").unwrap();
        write_landing(&root, &path, &Landing::Write("#!/bin/sh\necho hi\n".into())).unwrap();
        assert_eq!(std::fs::metadata(&script).unwrap().permissions().mode() & 0o777, 0o755);
    }
}
