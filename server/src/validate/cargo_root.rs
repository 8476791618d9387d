//! The folder above a crate that its build reads through path dependencies: a crate opened
//! on its own (`cli/`) whose `Cargo.toml` depends on a sibling (`core = { path = "../core" }`)
//! builds only where that sibling is there too.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use super::repository::{read_small, repository_above};

/// How many crates, path dependencies of path dependencies, are read at most.
const MAX_CRATES: usize = 64;

/// The largest `Cargo.toml` read.
const MAX_MANIFEST_BYTES: u64 = 1 << 20;

/// The highest folder inside the repository that holds `root` (the crate's folder) and every
/// crate it reaches through path dependencies (`dependencies`, `dev-dependencies`,
/// `build-dependencies`, their `target.*` forms and `[patch.*]`), followed from crate to
/// crate; `None` when each lies within `root`, when `root` stands in no repository (or is its
/// root), or when one lies outside the repository, which no mirror takes in.
pub(super) fn build_root_above(root: &Path) -> Option<PathBuf> {
    let repository = repository_above(root)?;
    let mut seen: BTreeSet<PathBuf> = BTreeSet::from([root.to_owned()]);
    let mut to_read = vec![root.to_owned()];
    let mut top = root.to_owned();
    while let Some(folder) = to_read.pop() {
        let Some(manifest) = read_small(&folder.join("Cargo.toml"), MAX_MANIFEST_BYTES) else { continue };
        let Ok(manifest) = manifest.parse::<toml::Table>() else { continue };
        // A Cargo workspace's members build with it: their path dependencies are its own.
        let mut reached: Vec<PathBuf> =
            workspace_members(&folder, &manifest).into_iter().filter(|member| member.starts_with(&folder)).collect();
        for dependency in path_dependencies(&manifest) {
            let found = crate::workspace::lexical_normal(&folder.join(dependency));
            if !found.starts_with(repository) {
                return None;
            }
            while !found.starts_with(&top) {
                top = top.parent()?.to_owned();
            }
            reached.push(found);
        }
        for found in reached {
            if seen.len() < MAX_CRATES && seen.insert(found.clone()) {
                to_read.push(found);
            }
        }
    }
    // A Cargo workspace above the crate is Cargo's to judge (see `cargo_workspace_above`):
    // mirrored from here, its members' paths would be read from the wrong folder.
    (top != root && super::detect::nearest_workspace_above(root).is_none()).then_some(top)
}

/// The folders of the members a Cargo workspace's `manifest` in `folder` lists (`crates/a`,
/// or `crates/*`, whose folders that hold a `Cargo.toml` are read), the workspace's own
/// folder left out; none for a manifest of no workspace.
fn workspace_members(folder: &Path, manifest: &toml::Table) -> Vec<PathBuf> {
    let Some(members) = manifest.get("workspace").and_then(|w| w.get("members")).and_then(toml::Value::as_array) else {
        return Vec::new();
    };
    let is_glob = |pattern: &str| pattern.contains(['*', '?', '[']);
    let mut found = Vec::new();
    for member in members.iter().filter_map(toml::Value::as_str) {
        match member.strip_suffix("/*") {
            // Other globs (`crates/a*`) are rare; their members' dependencies go unread.
            Some(parent) if !is_glob(parent) => {
                let Ok(entries) = std::fs::read_dir(folder.join(parent)) else { continue };
                let mut folders: Vec<PathBuf> = entries
                    .flatten()
                    .map(|entry| entry.path())
                    .filter(|path| path.join("Cargo.toml").is_file())
                    .collect();
                folders.sort();
                found.extend(folders.into_iter().map(|path| crate::workspace::lexical_normal(&path)));
            }
            None if !is_glob(member) => {
                found.push(crate::workspace::lexical_normal(&folder.join(member)));
            }
            _ => {}
        }
    }
    found.retain(|member| member != folder);
    found
}

/// The `path` of every dependency table of `manifest` that names one, a workspace's
/// `[workspace.dependencies]` among them.
fn path_dependencies(manifest: &toml::Table) -> Vec<&str> {
    const KINDS: [&str; 3] = ["dependencies", "dev-dependencies", "build-dependencies"];
    let mut tables: Vec<&toml::Table> = KINDS.iter().filter_map(|kind| manifest.get(*kind)?.as_table()).collect();
    if let Some(shared) = manifest.get("workspace").and_then(|w| w.get("dependencies")).and_then(toml::Value::as_table)
    {
        tables.push(shared);
    }
    if let Some(targets) = manifest.get("target").and_then(toml::Value::as_table) {
        for target in targets.values().filter_map(toml::Value::as_table) {
            tables.extend(KINDS.iter().filter_map(|kind| target.get(*kind)?.as_table()));
        }
    }
    if let Some(patches) = manifest.get("patch").and_then(toml::Value::as_table) {
        tables.extend(patches.values().filter_map(toml::Value::as_table));
    }
    tables
        .into_iter()
        .flat_map(|table| table.values())
        .filter_map(|dependency| dependency.get("path")?.as_str())
        .filter(|path| !path.is_empty())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::tree;

    #[test]
    fn a_crate_is_built_from_the_folder_that_holds_its_path_dependencies() {
        let dir = tree::<&str>(&[
            (".git/HEAD", ""),
            (
                "apps/cli/Cargo.toml",
                "[package]\nname = \"cli\"\n[dependencies]\ncore = { path = \"../../libs/core\" }\nserde = \"1\"\n",
            ),
            (
                "libs/core/Cargo.toml",
                "[package]\nname = \"core\"\n[target.'cfg(unix)'.dependencies]\nsys = { path = \"../sys\" }\n",
            ),
            (
                "libs/sys/Cargo.toml",
                "[package]\nname = \"sys\"\n[dev-dependencies]\ncli = { path = \"../../apps/cli\" }\n",
            ),
            ("apps/web/Cargo.toml", "[package]\nname = \"web\"\n[build-dependencies]\ngen = { path = \"gen\" }\n"),
            (
                "apps/tool/Cargo.toml",
                "[package]\nname = \"tool\"\n[patch.crates-io]\nsys = { path = \"../../libs/sys\" }\n",
            ),
            (
                "apps/out/Cargo.toml",
                "[package]\nname = \"out\"\n[dependencies]\nfar = { path = \"../../../elsewhere\" }\n",
            ),
            ("apps/bad/Cargo.toml", "[package\n"),
        ]);
        let root = dir.path();
        // Followed through `core` to `sys` (and back, a cycle), up to the repository's root.
        assert_eq!(build_root_above(&root.join("apps/cli")).as_deref(), Some(root));
        assert_eq!(build_root_above(&root.join("apps/tool")).as_deref(), Some(root));
        assert_eq!(build_root_above(&root.join("libs/core")).as_deref(), Some(root), "`sys` depends on `cli`");
        // Its own folder holds them, a dependency lies outside the repository, the manifest
        // does not parse: built where it is.
        for folder in ["apps/web", "apps/out", "apps/bad"] {
            assert_eq!(build_root_above(&root.join(folder)), None, "{folder}");
        }
        assert_eq!(build_root_above(root), None, "the repository's root itself");
        // A member of a workspace above (whose membership Cargo could not tell in time).
        let workspace = tree::<&str>(&[
            (".git/HEAD", ""),
            ("Cargo.toml", "[workspace]\nmembers = [\"crates/*\"]\n"),
            ("crates/a/Cargo.toml", "[package]\nname = \"a\"\n[dependencies]\nb = { path = \"../b\" }\n"),
            ("crates/b/Cargo.toml", "[package]\nname = \"b\"\n"),
        ]);
        assert_eq!(build_root_above(&workspace.path().join("crates/a")), None);
    }

    #[test]
    fn a_cargo_workspace_is_built_from_the_folder_that_holds_its_members_path_dependencies() {
        let dir = tree::<&str>(&[
            (".git/HEAD", ""),
            // A Cargo workspace in a larger repository, whose shared table reaches out of it.
            (
                "rust/Cargo.toml",
                "[workspace]\nmembers = [\"crates/*\", \"tools/gen\"]\n[workspace.dependencies]\nproto = { path = \"../proto/rust\" }\n",
            ),
            ("rust/crates/app/Cargo.toml", "[package]\nname = \"app\"\n[dependencies]\nproto.workspace = true\n"),
            ("proto/rust/Cargo.toml", "[package]\nname = \"proto\"\n"),
            // Another, whose member reaches out of it.
            ("other/Cargo.toml", "[workspace]\nmembers = [\"crates/*\", \"tools/gen\"]\n"),
            ("other/crates/app/Cargo.toml", "[package]\nname = \"app\"\n"),
            (
                "other/tools/gen/Cargo.toml",
                "[package]\nname = \"gen\"\n[dependencies]\nschema = { path = \"../../../schema\" }\n",
            ),
            ("schema/Cargo.toml", "[package]\nname = \"schema\"\n"),
            // One whose members keep within it.
            ("inner/Cargo.toml", "[workspace]\nmembers = [\"crates/*\"]\n"),
            ("inner/crates/a/Cargo.toml", "[package]\nname = \"a\"\n[dependencies]\nb = { path = \"../b\" }\n"),
            ("inner/crates/b/Cargo.toml", "[package]\nname = \"b\"\n"),
        ]);
        let root = dir.path();
        assert_eq!(build_root_above(&root.join("rust")).as_deref(), Some(root));
        assert_eq!(build_root_above(&root.join("other")).as_deref(), Some(root));
        assert_eq!(build_root_above(&root.join("inner")), None);
    }
}
