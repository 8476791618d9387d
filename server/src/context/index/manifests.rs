//! The manifests that lay out the workspace's modules (`Cargo.toml`, `tsconfig*.json`,
//! `jsconfig.json`, `package.json`): which are known, and the crates and packages read from them.

use std::path::Path;

use crate::context::modules::{Modules, PackageImports, TsConfig, join};

/// A Rust crate in the workspace: its folder, name and the files its targets compile from.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Crate {
    /// The folder holding `Cargo.toml` (`""` for the root).
    pub dir: String,
    /// The name other crates `use` it by: `[lib] name`, else the package name, `-` turned into `_`.
    pub name: String,
    /// The library's and binaries' root files the manifest names or implies, whether or not
    /// they exist yet (binaries in `src/bin/` are found among the indexed files).
    pub roots: Vec<CrateRoot>,
    /// The names its code uses its dependencies by (`serde_json`; a renamed one by its key),
    /// of every kind and target, sorted: workspace crates among them.
    pub dependencies: Vec<String>,
}

/// A file a crate target is compiled from (`src/lib.rs`), with the target's name.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct CrateRoot {
    /// The target's name, `-` turned into `_`: the first segment of its module paths.
    pub name: String,
    /// The root file, relative to the workspace.
    pub path: String,
}

/// The files that say how the workspace's modules are laid out, relative to the root.
#[derive(Debug, Clone, Default)]
pub(super) struct Manifests {
    /// `Cargo.toml` files.
    pub(super) crates: Vec<String>,
    /// `tsconfig.json` files, and `jsconfig.json` ones (a JavaScript project's, read alike).
    pub(super) tsconfigs: Vec<String>,
    /// `package.json` files.
    pub(super) packages: Vec<String>,
}

impl Manifests {
    /// The manifests at `paths` (as the walk finds them), each in its list, sorted for the
    /// changes the file watcher reports later.
    pub(super) fn from_paths(paths: Vec<String>) -> Self {
        let mut manifests = Self::default();
        for path in paths {
            manifests.list_for(&path).push(path);
        }
        manifests.crates.sort();
        manifests.tsconfigs.sort();
        manifests.packages.sort();
        manifests
    }

    /// The list a manifest at `relative` belongs in.
    fn list_for(&mut self, relative: &str) -> &mut Vec<String> {
        if relative.ends_with("Cargo.toml") {
            &mut self.crates
        } else if relative.ends_with("package.json") {
            &mut self.packages
        } else {
            &mut self.tsconfigs
        }
    }

    /// The module knowledge they give, read from below `root`; those that cannot be read are
    /// added to `skipped`, with why.
    pub(super) fn read(&self, root: &Path, skipped: &mut Vec<(String, String)>) -> Modules {
        let manifests: Vec<(&str, toml::Table)> =
            self.crates.iter().filter_map(|manifest| Some((manifest.as_str(), read_toml(root, manifest)?))).collect();
        let inherited = WorkspacePathDependencies::of(&manifests);
        let crates: Vec<Crate> =
            manifests.iter().filter_map(|(manifest, value)| crate_of(manifest, value, &inherited)).collect();
        let mut tsconfigs = Vec::new();
        // Of a folder that holds both, TypeScript's configuration is the project's.
        let beside_tsconfig = |relative: &str| {
            relative.strip_suffix("jsconfig.json").is_some_and(|folder| {
                self.tsconfigs.binary_search_by(|known| known.as_str().cmp(&format!("{folder}tsconfig.json"))).is_ok()
            })
        };
        for relative in self.tsconfigs.iter().filter(|relative| !beside_tsconfig(relative)) {
            match TsConfig::read(root, relative) {
                Ok(config) => tsconfigs.push(config),
                Err(error) => skipped.push((relative.clone(), error.to_string())),
            }
        }
        // One that cannot be read still bounds its package: its scripts take no other's map.
        let manifests: Vec<(String, serde_json::Value)> =
            self.packages.iter().map(|manifest| read_package(root, manifest)).collect();
        let packages = manifests
            .iter()
            .filter_map(|(dir, value)| {
                let name = value.get("name")?.as_str()?.trim();
                (!name.is_empty()).then(|| (dir.clone(), name.to_owned()))
            })
            .collect();
        let imports = manifests.iter().map(|(dir, value)| PackageImports::of(dir, value)).collect();
        Modules::new(crates, tsconfigs).with_packages(packages).with_package_imports(imports)
    }

    /// Takes `relative` into (`present`) or out of the list its name belongs to; true when it
    /// is or was listed, so the module knowledge may have changed.
    pub(super) fn note(&mut self, relative: &str, present: bool) -> bool {
        let list = self.list_for(relative);
        match (list.binary_search_by(|known| known.as_str().cmp(relative)), present) {
            (Err(at), true) => list.insert(at, relative.to_owned()),
            (Ok(at), false) => {
                list.remove(at);
            }
            (Ok(_), true) => {}
            (Err(_), false) => return false,
        }
        true
    }

    /// Whether the manifest at `relative` is listed.
    pub(super) fn lists(&self, relative: &str) -> bool {
        [&self.crates, &self.tsconfigs, &self.packages]
            .iter()
            .any(|list| list.binary_search_by(|known| known.as_str().cmp(relative)).is_ok())
    }

    /// Whether any manifest is listed below the folder `below` (ending in `/`).
    pub(super) fn any_below(&self, below: &str) -> bool {
        self.crates.iter().chain(&self.tsconfigs).chain(&self.packages).any(|manifest| manifest.starts_with(below))
    }

    /// Puts `found` (from a walk of the folder `below`, ending in `/`, or `""` for the whole
    /// tree) in place of the manifests listed below it; true when the lists changed.
    pub(super) fn replace_below(&mut self, below: &str, found: Manifests) -> bool {
        let mut changed = false;
        for (list, found) in [
            (&mut self.crates, found.crates),
            (&mut self.tsconfigs, found.tsconfigs),
            (&mut self.packages, found.packages),
        ] {
            let mut kept: Vec<String> = list.iter().filter(|m| !m.starts_with(below)).cloned().collect();
            kept.extend(found);
            kept.sort();
            changed |= kept != *list;
            *list = kept;
        }
        changed
    }
}

/// The folder of a `package.json` and what it says (the package name, `zod` or
/// `@vitejs/plugin-legacy`, and its own import map); `null` for one that cannot be read.
fn read_package(root: &Path, manifest: &str) -> (String, serde_json::Value) {
    let dir = folder_of(manifest).to_owned();
    let text = std::fs::read_to_string(root.join(manifest)).unwrap_or_default();
    (dir, serde_json::from_str(&text).unwrap_or_default())
}

/// The folder a manifest lies in (`""` at the workspace's top).
fn folder_of(manifest: &str) -> &str {
    manifest.rsplit_once('/').map_or("", |(dir, _)| dir)
}

/// A `Cargo.toml` read as TOML; none for one that cannot be read or parsed.
fn read_toml(root: &Path, manifest: &str) -> Option<toml::Table> {
    toml::from_str(&std::fs::read_to_string(root.join(manifest)).ok()?).ok()
}

/// The crate a `Cargo.toml` (`manifest`, read as `value`) describes: its folder, library name
/// and the files its targets compile from; none for one that holds no `[package]` (a virtual
/// workspace root). `inherited` says which dependencies taken from the workspace
/// (`store = { workspace = true }`) are its crates.
fn crate_of(manifest: &str, value: &toml::Table, inherited: &WorkspacePathDependencies) -> Option<Crate> {
    let package = value.get("package")?.get("name")?.as_str()?.replace('-', "_");
    let dir = folder_of(manifest).to_owned();
    let text_of = |table: Option<&toml::Value>, key: &str| table?.get(key)?.as_str().map(str::to_owned);
    let in_crate = |path: &str| join(&dir, path);
    let lib = value.get("lib");
    let name = text_of(lib, "name").map_or(package.clone(), |name| name.replace('-', "_"));
    let lib_path = text_of(lib, "path").unwrap_or_else(|| "src/lib.rs".to_owned());
    let mut roots = vec![CrateRoot { name: name.clone(), path: in_crate(&lib_path) }];
    for bin in value.get("bin").and_then(toml::Value::as_array).into_iter().flatten() {
        let bin_name = text_of(Some(bin), "name");
        let Some(path) = text_of(Some(bin), "path").or_else(|| bin_name.as_ref().map(|n| format!("src/bin/{n}.rs")))
        else {
            continue;
        };
        let bin_name = bin_name.map_or(package.clone(), |n| n.replace('-', "_"));
        roots.push(CrateRoot { name: bin_name, path: in_crate(&path) });
    }
    let main = in_crate("src/main.rs");
    if !roots.iter().any(|root| root.path == main) {
        roots.push(CrateRoot { name: package, path: main });
    }
    // A member may name its root (`workspace = "../.."`) where it is not the nearest above it.
    let root = value.get("package")?.get("workspace").and_then(toml::Value::as_str).map(|path| join(&dir, path));
    let dependencies = dependency_names(value, |key| inherited.is_local(&dir, root.as_deref(), key));
    Some(Crate { dir, name, roots, dependencies })
}

/// The keys of each workspace's `[workspace.dependencies]` that are on a path (`store = {
/// package = "shop", path = "shop" }`): crates of the workspace, whatever name their
/// members take them by.
#[derive(Debug, Default)]
struct WorkspacePathDependencies {
    /// Each workspace root's folder (a manifest with `[workspace]`) and its path dependencies'
    /// keys, the deepest folder first.
    workspaces: Vec<(String, Vec<String>)>,
}

impl WorkspacePathDependencies {
    /// Those of the manifests read (each its path and its table).
    fn of(manifests: &[(&str, toml::Table)]) -> Self {
        let mut workspaces: Vec<(String, Vec<String>)> = manifests
            .iter()
            .filter_map(|(manifest, value)| {
                // A root whose table is missing or of the wrong shape still bounds its members.
                let table = value.get("workspace")?.get("dependencies").and_then(toml::Value::as_table);
                let keys = table
                    .into_iter()
                    .flatten()
                    .filter(|(_, dependency)| dependency.get("path").is_some())
                    .map(|(key, _)| key.clone())
                    .collect();
                Some((folder_of(manifest).to_owned(), keys))
            })
            .collect();
        workspaces.sort_by_key(|(dir, _)| std::cmp::Reverse(dir.len()));
        Self { workspaces }
    }

    /// Whether `key`, taken from the workspace by the crate in `crate_dir`, is on a path in its
    /// workspace root: the folder its `package.workspace` names (`root`), else the nearest
    /// root at or above that folder.
    fn is_local(&self, crate_dir: &str, root: Option<&str>, key: &str) -> bool {
        let holds = |dir: &str| match root {
            Some(root) => dir == root,
            None => dir.is_empty() || crate_dir == dir || crate_dir.starts_with(&format!("{dir}/")),
        };
        self.workspaces.iter().find(|(dir, _)| holds(dir)).is_some_and(|(_, keys)| keys.iter().any(|k| k == key))
    }
}

/// The names a manifest's code uses its dependencies by: the keys of `[dependencies]`,
/// `[dev-dependencies]` and `[build-dependencies]`, for any `[target.'cfg(..)']` too, `-`
/// turned into `_`, sorted and each once. A dependency on a path is left out: it is a crate
/// of the workspace, perhaps under another name (`store = { package = "shop", path =
/// "../shop" }`), not one from outside; so is one taken from the workspace (`{ workspace =
/// true }`) whose key `inherited_local` says is on a path there.
fn dependency_names(manifest: &toml::Table, inherited_local: impl Fn(&str) -> bool) -> Vec<String> {
    const KINDS: [&str; 4] = ["dependencies", "dev-dependencies", "dev_dependencies", "build-dependencies"];
    let targets =
        manifest.get("target").and_then(toml::Value::as_table).into_iter().flat_map(|targets| targets.values());
    let tables = std::iter::once(manifest).chain(targets.filter_map(toml::Value::as_table));
    let mut names: Vec<String> = tables
        .flat_map(|table| KINDS.iter().filter_map(|kind| table.get(*kind)?.as_table()))
        .flat_map(|dependencies| dependencies.iter())
        .filter(|(key, dependency)| {
            let inherited = dependency.get("workspace").and_then(toml::Value::as_bool) == Some(true);
            dependency.get("path").is_none() && !(inherited && inherited_local(key))
        })
        .map(|(name, _)| name.replace('-', "_"))
        .collect();
    names.sort();
    names.dedup();
    names
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dependencies_of(manifest: &str) -> Vec<String> {
        dependency_names(&toml::from_str(manifest).expect("valid TOML"), |_| false)
    }

    #[test]
    fn dependencies_of_every_kind_and_target_are_named_as_the_code_names_them() {
        let manifest = "[package]\nname = \"app\"\n[dependencies]\nserde-json = \"1\"\nlog = { version = \"0.4\" }\n\
            futures_util = { package = \"futures-util\", version = \"0.3\" }\n[dev-dependencies]\ntempfile = \"3\"\n\
            [build-dependencies]\ncc = \"1\"\n[target.'cfg(windows)'.dependencies]\nwindows-sys = \"0.52\"\n\
            [target.x86_64-unknown-linux-gnu.dev-dependencies]\nlog = \"0.4\"\n";
        assert_eq!(dependencies_of(manifest), ["cc", "futures_util", "log", "serde_json", "tempfile", "windows_sys"]);
        let local = "[dependencies]\nstore = { package = \"shop\", path = \"../shop\" }\nutil = { path = \"../util\" }\nlog = \"0.4\"\n";
        assert_eq!(dependencies_of(local), ["log"], "a crate of the workspace, under its own name or another");
    }

    #[test]
    fn a_crate_of_the_workspace_taken_from_its_dependencies_table_is_not_outside() {
        let manifests = [
            (
                "Cargo.toml",
                "[workspace]\nmembers = [\"app\", \"shop\"]\n[workspace.dependencies]\n\
                 store = { package = \"shop\", path = \"shop\" }\nlog = \"0.4\"\n",
            ),
            (
                "app/Cargo.toml",
                "[package]\nname = \"app\"\n[dependencies]\nstore = { workspace = true }\nlog = { workspace = true }\n\
                 [dev-dependencies]\nshop = { workspace = true }\n",
            ),
            ("shop/Cargo.toml", "[package]\nname = \"shop\"\n"),
            // A workspace of its own inside the tree, whose `store` is from outside.
            (
                "vendor/other/Cargo.toml",
                "[package]\nname = \"other\"\n[workspace]\n[workspace.dependencies]\nstore = \"1\"\n\
                 [dependencies]\nstore = { workspace = true }\n",
            ),
        ];
        let odd = [
            // Tables of the wrong shape are no path dependencies.
            (
                "odd/Cargo.toml",
                "[package]\nname = \"odd\"\n[workspace]\ndependencies = 5\n[dependencies]\nstore = { workspace = \"yes\" }\n",
            ),
            ("odd/inner/Cargo.toml", "[package]\nname = \"inner\"\n[dependencies]\nstore = { workspace = true }\n"),
            // A member that names its root past the nearest one, and one that names a folder
            // holding no root.
            (
                "vendor/other/tools/Cargo.toml",
                "[package]\nname = \"tools\"\nworkspace = \"../../..\"\n[dependencies]\nstore = { workspace = true }\n",
            ),
            (
                "odd/lost/Cargo.toml",
                "[package]\nname = \"lost\"\nworkspace = \"../../nowhere\"\n[dependencies]\nstore = { workspace = true }\n",
            ),
        ];
        let manifests: Vec<(&str, &str)> = manifests.into_iter().chain(odd).collect();
        let dir = crate::testing::tree(&manifests);
        let found = Manifests::from_paths(manifests.iter().map(|(path, _)| (*path).to_owned()).collect());
        let tables: Vec<(&str, toml::Table)> =
            found.crates.iter().filter_map(|m| Some((m.as_str(), read_toml(dir.path(), m)?))).collect();
        let inherited = WorkspacePathDependencies::of(&tables);
        let dependencies = |name: &str| {
            let (manifest, value) = tables.iter().find(|(m, _)| m.starts_with(name)).expect("read");
            crate_of(manifest, value, &inherited).expect("a package").dependencies
        };
        assert_eq!(dependencies("app"), ["log", "shop"], "`store` is the workspace's `shop`; `shop` is its own name");
        assert_eq!(dependencies("vendor/other/Cargo"), ["store"], "the nearest workspace root says");
        assert!(dependencies("vendor/other/tools").is_empty(), "the root it names says: the workspace's `shop`");
        assert_eq!(dependencies("odd/lost"), ["store"], "a root that is not there lists no path");
        assert_eq!(dependencies("odd/Cargo"), ["store"], "`workspace = \"yes\"` inherits nothing");
        assert_eq!(dependencies("odd/inner"), ["store"], "a root whose table is no table lists no path");
    }

    #[test]
    fn dependency_tables_of_the_wrong_shape_name_nothing() {
        for manifest in [
            "",
            "dependencies = \"serde\"\n",
            "dependencies = [\"serde\"]\n",
            "target = 5\n",
            "target = { unix = \"x\" }\n",
            "[target.'cfg(unix)']\ndependencies = 3\n",
            "[workspace.dependencies]\nserde = \"1\"\n",
        ] {
            assert!(dependencies_of(manifest).is_empty(), "{manifest:?}");
        }
        // A manifest that is not TOML gives no crate at all, and no dependencies with it.
        let dir = crate::testing::tree(&[("Cargo.toml", "[package\nname = ")]);
        assert!(read_toml(dir.path(), "Cargo.toml").is_none());
    }
}
