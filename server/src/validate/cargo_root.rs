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
/// or a glob such as `crates/*` or `tools/gen-?`, whose matching folders that hold a
/// `Cargo.toml` are read), the workspace's own folder left out; none for a manifest of no
/// workspace.
fn workspace_members(folder: &Path, manifest: &toml::Table) -> Vec<PathBuf> {
    let Some(members) = manifest.get("workspace").and_then(|w| w.get("members")).and_then(toml::Value::as_array) else {
        return Vec::new();
    };
    let mut found = Vec::new();
    for member in members.iter().filter_map(toml::Value::as_str) {
        if is_glob(member) {
            found.extend(glob_members(folder, member));
        } else {
            found.push(crate::workspace::lexical_normal(&folder.join(member)));
        }
    }
    found.retain(|member| member != folder);
    found
}

fn is_glob(pattern: &str) -> bool {
    pattern.contains(['*', '?', '[', '{'])
}

/// Folders no member glob reaches into: build output and what is not Rust's.
const NOT_MEMBERS: [&str; 3] = ["target", "node_modules", ".git"];
/// How deep below its literal folder a glob with `**` looks for members.
const MAX_GLOB_DEPTH: usize = 6;

/// The folders below `folder` that the member glob `pattern` matches, as Cargo expands it
/// (a `*` stays within one folder's name, `**` crosses folders), those that hold a
/// `Cargo.toml`, sorted; none for a pattern that does not parse.
fn glob_members(folder: &Path, pattern: &str) -> Vec<PathBuf> {
    let parts: Vec<&str> = pattern.split('/').filter(|part| !part.is_empty() && *part != ".").collect();
    let literal = parts.iter().take_while(|part| !is_glob(part)).count();
    let base = crate::workspace::lexical_normal(&folder.join(parts[..literal].join("/")));
    let rest = &parts[literal..];
    let Ok(glob) = globset::GlobBuilder::new(&rest.join("/")).literal_separator(true).build() else {
        return Vec::new();
    };
    let matcher = glob.compile_matcher();
    let depth = if rest.contains(&"**") { MAX_GLOB_DEPTH } else { rest.len() };
    let mut found = Vec::new();
    let mut to_read = vec![(base.clone(), 0)];
    while let Some((next, level)) = to_read.pop() {
        let Ok(entries) = std::fs::read_dir(&next) else { continue };
        for entry in entries.flatten() {
            let path = entry.path();
            let name = entry.file_name();
            if !entry.file_type().is_ok_and(|t| t.is_dir()) || NOT_MEMBERS.iter().any(|skip| name == *skip) {
                continue;
            }
            let relative = path.strip_prefix(&base).unwrap_or(&path);
            if matcher.is_match(relative) && path.join("Cargo.toml").is_file() {
                found.push(path.clone());
            }
            if level + 1 < depth {
                to_read.push((path, level + 1));
            }
        }
    }
    found.sort();
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

    #[test]
    fn the_members_of_a_workspace_are_found_by_any_glob_cargo_reads() {
        let dir = tree::<&str>(&[
            (
                "Cargo.toml",
                "[workspace]\nmembers = [\"crates/*\", \"tools/gen-?\", \"plugins/**/rust\", \"./apps/web\", \"bad/[\"]\n",
            ),
            ("crates/a/Cargo.toml", ""),
            ("crates/notes/README.md", ""),
            ("crates/a/nested/Cargo.toml", ""),
            ("tools/gen-1/Cargo.toml", ""),
            ("tools/gen-12/Cargo.toml", ""),
            ("plugins/x/rust/Cargo.toml", ""),
            ("plugins/y/z/rust/Cargo.toml", ""),
            ("plugins/target/rust/Cargo.toml", ""),
            ("apps/web/Cargo.toml", ""),
        ]);
        let root = dir.path();
        let manifest: toml::Table = std::fs::read_to_string(root.join("Cargo.toml")).unwrap().parse().unwrap();
        let found: Vec<String> = workspace_members(root, &manifest)
            .iter()
            .map(|member| member.strip_prefix(root).unwrap().to_string_lossy().into_owned())
            .collect();
        assert_eq!(found, ["crates/a", "tools/gen-1", "plugins/x/rust", "plugins/y/z/rust", "apps/web"]);
    }
}
