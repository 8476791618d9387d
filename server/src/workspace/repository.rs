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

/// How many folders above the workspace at `root` the user's global git excludes are anchored.
/// Git anchors them at the repository's top, so for a workspace opened at `services/api` of a
/// monorepo, `/services/api/generated/` names its `generated` folder and `/generated/` does not.
/// Zero (the workspace's top) outside a repository, and for a workspace given by a relative
/// path or opened through a link: its walks see paths below the folder as given, not below the
/// repository's real top, so they could not be anchored there.
pub fn global_excludes_depth(root: &Path) -> usize {
    let real = root.canonicalize().ok();
    if !root.is_absolute() || real.as_deref() != Some(root) {
        return 0;
    }
    root.ancestors().position(holds_repository).unwrap_or(0)
}

/// A walk of `dir`, a folder of the workspace at `root`, that reads ignore files as
/// [`in_repository`] says: the one rule every walk of the workspace follows (the index's,
/// the model's `list_files`, the shadow workspace's), so they agree on what is there.
/// The user's global git excludes are anchored as [`global_excludes_depth`] says, whatever
/// folder the server or the command was started in.
pub fn workspace_walk(root: &Path, dir: &Path) -> ignore::WalkBuilder {
    let anchor = root.ancestors().nth(global_excludes_depth(root)).unwrap_or(root);
    let mut builder = ignore::WalkBuilder::new(dir);
    builder.require_git(in_repository(root)).current_dir(anchor);
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

    #[test]
    fn global_excludes_are_anchored_at_the_repositorys_top() {
        let dir = crate::testing::tempdir();
        let top = dir.path().canonicalize().unwrap().join("mono");
        let api = top.join("services/api");
        std::fs::create_dir_all(&api).unwrap();
        std::fs::create_dir_all(dir.path().join(".git")).unwrap();
        assert_eq!(global_excludes_depth(&api), 3, "the nearest repository above");
        std::fs::create_dir_all(top.join(".git")).unwrap();
        assert_eq!(global_excludes_depth(&api), 2);
        assert_eq!(global_excludes_depth(&top), 0);
        assert_eq!(global_excludes_depth(&top.join("services/../services/api")), 0, "not as the walk sees it");
        #[cfg(unix)]
        {
            let link = dir.path().join("api-link");
            std::os::unix::fs::symlink(&api, &link).unwrap();
            assert_eq!(global_excludes_depth(&link), 0, "through a link");
        }
    }
}
