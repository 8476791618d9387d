//! Whether a workspace lies in a repository, which decides how its ignore files are read.

use std::path::Path;

/// Whether `dir` holds a repository of its own: `.git` (a folder, or a file for a worktree
/// or submodule) or `.jj`.
pub fn holds_repository(dir: &Path) -> bool {
    dir.join(".git").exists() || dir.join(".jj").exists()
}

/// Whether the workspace at `root` lies in a repository (it or a folder above holds one).
/// Its ignore files are then read as git reads them: from the repository's top down, none
/// from folders above it, so a dotfiles repository's `~/.gitignore` of `*` does not hide a
/// project in the home folder. Outside a repository (a checkout without `.git`, an unpacked
/// archive) every `.gitignore` on the way applies.
pub fn in_repository(root: &Path) -> bool {
    // Above its real place, as a walk finds the folders above it (a workspace opened through a link).
    let root = root.canonicalize().unwrap_or_else(|_| root.to_owned());
    root.ancestors().any(holds_repository)
}

/// A walk of `dir`, a folder of the workspace at `root`, that reads ignore files as
/// [`in_repository`] says: the one rule every walk of the workspace follows (the index's,
/// the model's `list_files`, the shadow workspace's), so they agree on what is there.
/// The user's global git excludes apply from the workspace's top, whatever folder the server
/// or the command was started in (git applies them from the repository's top, which is the
/// same folder unless the workspace is a folder inside a repository).
pub fn workspace_walk(root: &Path, dir: &Path) -> ignore::WalkBuilder {
    let mut builder = ignore::WalkBuilder::new(dir);
    builder.require_git(in_repository(root)).current_dir(root);
    builder
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_folder_holds_a_repository_by_its_git_or_jj_entry() {
        let dir = crate::testing::tempdir();
        let project = dir.path().join("home/code/project");
        std::fs::create_dir_all(project.join("vendor/lib/.git")).unwrap();
        assert!(!holds_repository(&project), "one below it is not its own");
        std::fs::create_dir_all(dir.path().join("home/.git")).unwrap();
        assert!(in_repository(&project) && holds_repository(&dir.path().join("home")));
        std::fs::write(project.join(".git"), "gitdir: ../../.git/worktrees/project\n").unwrap();
        assert!(holds_repository(&project), "a worktree's .git is a file");
        std::fs::create_dir_all(dir.path().join("jj/.jj")).unwrap();
        assert!(holds_repository(&dir.path().join("jj")), "a Jujutsu repository");
    }
}
