//! How far above a project its build may be taken from: no higher than the repository the
//! project stands in, and never a home folder that is itself a repository (of dotfiles);
//! and the reading of the build files found there.

use std::path::Path;

/// The root of the repository that holds `root`, the nearest folder above it with `.git`;
/// `None` when `root` is that root itself, stands in no repository, or the repository is
/// the user's home folder or a folder above it (a dotfiles repository is no project's).
pub(super) fn repository_above(root: &Path) -> Option<&Path> {
    repository_above_within(root, std::env::var_os("HOME").as_deref().map(Path::new))
}

fn repository_above_within<'a>(root: &'a Path, home: Option<&Path>) -> Option<&'a Path> {
    if root.join(".git").exists() {
        return None;
    }
    let repository = root.ancestors().skip(1).find(|folder| folder.join(".git").exists())?;
    let holds_home = home.is_some_and(|home| home.starts_with(repository));
    (!holds_home && repository.parent().is_some()).then_some(repository)
}

/// The text of a build file above a project (a `pom.xml`, a `tsconfig.json`); `None` when it
/// is missing, not text, or larger than `max_bytes`, as no real one is.
pub(super) fn read_small(file: &Path, max_bytes: u64) -> Option<String> {
    if std::fs::metadata(file).ok()?.len() > max_bytes {
        return None;
    }
    std::fs::read_to_string(file).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_home_folder_kept_as_a_repository_is_no_projects_repository() {
        let dir = crate::testing::tree(&[
            ("home/.git/HEAD", "ref: refs/heads/main\n"),
            ("home/code/app/package.json", "{}"),
            ("home/code/repo/.git/HEAD", "ref: refs/heads/main\n"),
            ("home/code/repo/packages/app/package.json", "{}"),
        ]);
        let home = dir.path().join("home");
        let app = home.join("code/app");
        assert_eq!(repository_above_within(&app, Some(&home)), None, "the dotfiles repository");
        assert_eq!(repository_above_within(&app, None), Some(home.as_path()));
        let package = home.join("code/repo/packages/app");
        assert_eq!(repository_above_within(&package, Some(&home)), Some(home.join("code/repo").as_path()));
        assert_eq!(repository_above_within(&home.join("code/repo"), Some(&home)), None, "its own root");
    }
}
