//! Mapping the paths tools print back to workspace files: shadow paths, the user's own
//! paths, paths relative to where the tool ran, `file://` URLs, and Java's bare file names.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use tower_lsp::lsp_types::Url;

use crate::workspace::WorkspacePath;

/// Where a printed path points.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Located {
    /// A file of the workspace.
    Workspace(WorkspacePath),
    /// Anything else (a dependency, the standard library, a generated file), as printed.
    Elsewhere(String),
}

/// Maps printed paths to workspace files.
#[derive(Debug, Clone)]
pub struct PathMap {
    /// Directories that stand for the workspace root: the shadow tree (and its canonical
    /// form), and the user's root.
    roots: Vec<PathBuf>,
    /// Where relative paths start, in order: where the tool ran, then any folder further up
    /// that it prints its paths from (a Cargo workspace's root, which comes first).
    bases: Vec<Base>,
    /// The workspace's files.
    files: BTreeSet<String>,
}

impl PathMap {
    /// A map for a tool run in `tree` (the shadow of `user_root`) over `files`.
    pub fn new(tree: &Path, user_root: &Path, files: BTreeSet<String>) -> Self {
        let mut roots = vec![tree.to_owned()];
        if let Ok(canonical) = tree.canonicalize()
            && canonical != tree
        {
            roots.push(canonical);
        }
        roots.push(user_root.to_owned());
        Self { roots, bases: vec![Base { folder: tree.to_owned(), own_files: None }], files }
    }

    /// The map with relative paths also read from `base` (the shadow's copy of a folder
    /// above the workspace the tool prints its paths from), where they name no workspace file
    /// from where it ran.
    pub fn relative_to(mut self, base: &Path) -> Self {
        if !self.bases.iter().any(|known| known.folder == base) {
            self.bases.push(Base { folder: base.to_owned(), own_files: None });
        }
        self
    }

    /// The map with relative paths read first from `base`, the folder above the workspace
    /// the tool prints all its paths from (cargo, from a Cargo workspace's root), whose files
    /// are `base_files` (relative to it). A path that names one of those outside the
    /// workspace is that file, as printed: the root package's `src/lib.rs` is not the
    /// member's. Only a path that names none of them is read from where the tool ran.
    pub fn printed_from(mut self, base: &Path, base_files: BTreeSet<String>) -> Self {
        self.bases.retain(|known| known.folder != base);
        self.bases.insert(0, Base { folder: base.to_owned(), own_files: Some(base_files) });
        self
    }

    /// Where `raw` points.
    pub fn locate(&self, raw: &str) -> Located {
        let raw = raw.trim();
        let path = match raw.strip_prefix("file://") {
            Some(_) => match Url::parse(raw).ok().and_then(|url| url.to_file_path().ok()) {
                Some(path) => path,
                None => return Located::Elsewhere(raw.to_owned()),
            },
            None => PathBuf::from(raw),
        };
        if path.is_absolute() {
            return self
                .in_workspace(&crate::workspace::lexical_normal(&path))
                .unwrap_or(Located::Elsewhere(raw.to_owned()));
        }
        for base in &self.bases {
            let normal = crate::workspace::lexical_normal(&base.folder.join(&path));
            if let Some(found) = self.in_workspace(&normal) {
                return found;
            }
            let names_own_file = base.own_files.as_ref().is_some_and(|own| {
                normal.strip_prefix(&base.folder).ok().and_then(Path::to_str).is_some_and(|rest| own.contains(rest))
            });
            if names_own_file {
                break;
            }
        }
        Located::Elsewhere(raw.to_owned())
    }

    /// The workspace file at the absolute, normalised `path`, if it is one.
    fn in_workspace(&self, path: &Path) -> Option<Located> {
        self.roots.iter().find_map(|root| {
            let relative = path.strip_prefix(root).ok()?.to_str()?;
            if !self.files.contains(relative) {
                return None;
            }
            WorkspacePath::parse(relative).ok().map(Located::Workspace)
        })
    }

    /// The one workspace file whose path ends with `suffix` (`com/acme/Greeter.java`).
    pub fn by_suffix(&self, suffix: &str) -> Option<WorkspacePath> {
        let suffix = suffix.trim_start_matches('/');
        let mut found = self.files.iter().filter(|file| {
            file.as_str() == suffix || (file.ends_with(suffix) && file[..file.len() - suffix.len()].ends_with('/'))
        });
        let first = found.next()?;
        if found.next().is_some() {
            return None;
        }
        WorkspacePath::parse(first).ok()
    }
}

/// A folder relative paths are read from.
#[derive(Debug, Clone)]
struct Base {
    /// The folder.
    folder: PathBuf,
    /// Its files, relative to it, where a path naming one of them outside the workspace is
    /// that file and no later base is tried.
    own_files: Option<BTreeSet<String>>,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn map() -> PathMap {
        let files = ["src/lib.rs", "src dir/main.ts", "src/main/java/com/acme/Greeter.java", "b/Greeter.java"];
        PathMap::new(
            Path::new("/cache/shadow/tree"),
            Path::new("/home/u/proj"),
            files.iter().map(|f| (*f).to_owned()).collect(),
        )
    }

    fn workspace(path: &str) -> Located {
        Located::Workspace(WorkspacePath::parse(path).unwrap())
    }

    #[test]
    fn shadow_user_relative_and_url_paths_map_to_workspace_files() {
        let map = map();
        assert_eq!(map.locate("src/lib.rs"), workspace("src/lib.rs"));
        assert_eq!(map.locate("./src/../src/lib.rs"), workspace("src/lib.rs"));
        assert_eq!(map.locate("/cache/shadow/tree/src dir/main.ts"), workspace("src dir/main.ts"));
        assert_eq!(map.locate("/home/u/proj/src/lib.rs"), workspace("src/lib.rs"));
        assert_eq!(map.locate("file:///cache/shadow/tree/src%20dir/main.ts"), workspace("src dir/main.ts"));
    }

    #[test]
    fn a_path_printed_from_a_workspace_further_up_maps_to_the_workspace_file() {
        let files = BTreeSet::from(["src/lib.rs".to_owned()]);
        let map = PathMap::new(Path::new("/cache/tree/crates/a"), Path::new("/home/u/ws/crates/a"), files)
            .relative_to(Path::new("/cache/tree"));
        assert_eq!(map.locate("crates/a/src/lib.rs"), Located::Workspace(WorkspacePath::parse("src/lib.rs").unwrap()));
        assert_eq!(map.locate("src/lib.rs"), Located::Workspace(WorkspacePath::parse("src/lib.rs").unwrap()));
        assert_eq!(
            map.locate("crates/b/src/lib.rs"),
            Located::Elsewhere("crates/b/src/lib.rs".into()),
            "a sibling crate"
        );
    }

    #[test]
    fn a_path_cargo_prints_from_the_workspace_root_is_the_root_package_file_not_the_members() {
        let workspace = BTreeSet::from(["src/lib.rs".to_owned(), "src/only_here.rs".to_owned()]);
        let build = BTreeSet::from([
            "Cargo.toml".to_owned(),
            "src/lib.rs".to_owned(),
            "crates/a/src/lib.rs".to_owned(),
            "crates/a/src/only_here.rs".to_owned(),
        ]);
        let map = PathMap::new(Path::new("/cache/tree/crates/a"), Path::new("/home/u/ws/crates/a"), workspace)
            .printed_from(Path::new("/cache/tree"), build);
        assert_eq!(map.locate("src/lib.rs"), Located::Elsewhere("src/lib.rs".into()), "the root package's file");
        assert_eq!(map.locate("crates/a/src/lib.rs"), Located::Workspace(WorkspacePath::parse("src/lib.rs").unwrap()));
        assert_eq!(
            map.locate("src/only_here.rs"),
            Located::Workspace(WorkspacePath::parse("src/only_here.rs").unwrap()),
            "a path the root names no file by is read from the member"
        );
        assert_eq!(map.locate("/cache/tree/src/lib.rs"), Located::Elsewhere("/cache/tree/src/lib.rs".into()));
        assert_eq!(
            map.locate("/cache/tree/crates/a/src/lib.rs"),
            Located::Workspace(WorkspacePath::parse("src/lib.rs").unwrap())
        );
    }

    #[test]
    fn other_paths_stay_as_printed() {
        let map = map();
        let registry = "/root/.cargo/registry/src/x/lib.rs";
        assert_eq!(map.locate(registry), Located::Elsewhere(registry.into()));
        assert_eq!(map.locate("target/debug/build/out.rs"), Located::Elsewhere("target/debug/build/out.rs".into()));
        assert_eq!(map.locate("../outside.rs"), Located::Elsewhere("../outside.rs".into()));
        assert_eq!(map.locate("file://%%bad"), Located::Elsewhere("file://%%bad".into()));
        assert_eq!(map.locate(""), Located::Elsewhere(String::new()));
    }

    #[test]
    fn suffixes_must_be_unique_and_whole_components() {
        let map = map();
        assert_eq!(
            map.by_suffix("com/acme/Greeter.java"),
            Some(WorkspacePath::parse("src/main/java/com/acme/Greeter.java").unwrap())
        );
        assert_eq!(map.by_suffix("Greeter.java"), None, "two files match");
        assert_eq!(map.by_suffix("reeter.java"), None);
    }
}
