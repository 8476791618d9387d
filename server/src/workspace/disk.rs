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
/// file's permissions) or a deletion.
pub fn write_landing(root: &Root, path: &WorkspacePath, landing: &Landing) -> Result<(), DiskError> {
    let absolute = root.resolve(path)?;
    let io = |error| DiskError::Io(path.clone(), error);
    match landing {
        Landing::AlreadyThere => Ok(()),
        Landing::Delete => std::fs::remove_file(&absolute).map_err(io),
        Landing::Write(text) => write_atomically(&absolute, text.as_bytes()).map_err(io),
    }
}

fn write_atomically(absolute: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let parent = absolute.parent().expect("a file below the root has a parent");
    std::fs::create_dir_all(parent)?;
    let mut temporary = tempfile_in(parent)?;
    temporary.1.write_all(bytes)?;
    temporary.1.sync_all()?;
    if let Ok(metadata) = std::fs::metadata(absolute) {
        std::fs::set_permissions(&temporary.0, metadata.permissions())?;
    }
    std::fs::rename(&temporary.0, absolute)
}

/// A new file next to the target, named so it cannot clash with a project file.
fn tempfile_in(dir: &Path) -> std::io::Result<(std::path::PathBuf, std::fs::File)> {
    loop {
        let name = format!(".issuewright-write-{:016x}", fastrand::u64(..));
        let path = dir.join(name);
        match std::fs::OpenOptions::new().write(true).create_new(true).open(&path) {
            Ok(file) => return Ok((path, file)),
            Err(error) if error.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(error) => return Err(error),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
