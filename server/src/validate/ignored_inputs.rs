//! The files a build reads although the ignore rules keep them out of git, and so out of
//! the walk that fills the shadow workspace: without them the shadow's build fails where
//! the user's passes.
//!
//! - The jars of a `lib/` or `libs/` folder (a `*.jar` or `/lib/` rule over jars dropped
//!   there by hand): a plain javac build, Gradle's `files('libs/x.jar')` and Maven's
//!   `system` scope read them.
//! - The built entry points of a package (`"types": "dist/index.d.ts"`, `"main":
//!   "dist/index.js"` under a `dist/` rule): the monorepo's other packages import it
//!   through `node_modules` and read its built declarations and code, not its sources.
//!
//! Only folders the walk entered are looked in: `build/libs/` of an ignored `build/` is
//! the build's own output. Links found there are left out: a build writing through one
//! would write outside the shadow.

use std::collections::{BTreeMap, BTreeSet};
use std::fs::FileType;
use std::path::{Component, Path, PathBuf};

/// Folders of jars a build reads.
const LIBRARY_DIRS: [&str; 2] = ["lib", "libs"];
/// How many folders below a library folder its jars are looked for (`lib/compile/x.jar`).
const LIBRARY_DEPTH: usize = 2;
/// The `package.json` fields that name what other packages load of this one.
const ENTRY_FIELDS: [&str; 5] = ["types", "typings", "main", "module", "exports"];
/// First parts of an entry point that are no package's build output.
const NOT_OUTPUTS: [&str; 4] = ["node_modules", ".git", ".issuewright", "src"];
/// How many folders below a package's output folder its files are looked for.
const OUTPUT_DEPTH: usize = 12;
/// At most this many files of one package's output folders are mirrored; a package that
/// builds more is mirrored without them, with a warning.
const MAX_OUTPUT_FILES: usize = 5_000;
/// At most this many built files of all packages together are mirrored; the packages
/// past it are mirrored without theirs, with a warning.
const MAX_OUTPUT_FILES_IN_ALL: usize = 20_000;

/// The files below the walked `entries` (paths and types, as the walk found them) that a
/// build reads though the walk left them out; none of `entries` among them.
pub fn ignored_inputs(entries: &[(PathBuf, FileType)]) -> Vec<(PathBuf, FileType)> {
    let walked: BTreeSet<&Path> = entries.iter().map(|(path, _)| path.as_path()).collect();
    let mut found = BTreeMap::new();
    let mut outputs = 0;
    for (path, file_type) in entries {
        if file_type.is_dir() {
            for name in LIBRARY_DIRS {
                let mut jars = BTreeMap::new();
                files_below(&path.join(name), LIBRARY_DEPTH, usize::MAX, &mut jars);
                found.extend(jars.into_iter().filter(|(jar, _)| jar.extension().is_some_and(|e| e == "jar")));
            }
        } else if path.file_name().is_some_and(|name| name == "package.json") {
            let built = package_outputs(path, &walked);
            outputs += built.len();
            if outputs > MAX_OUTPUT_FILES_IN_ALL {
                tracing::warn!(
                    "not mirrored: the built files {} names, past {MAX_OUTPUT_FILES_IN_ALL} of all packages",
                    path.display()
                );
                continue;
            }
            found.extend(built);
        }
    }
    found.retain(|path, _| !walked.contains(path.as_path()));
    found.into_iter().collect()
}

/// The files of the folders (or the files) that the `package.json` at `manifest` names as
/// its entry points, where the walk left them out.
fn package_outputs(manifest: &Path, walked: &BTreeSet<&Path>) -> BTreeMap<PathBuf, FileType> {
    let mut found = BTreeMap::new();
    let Some(package) = manifest.parent() else { return found };
    let Some(fields) = std::fs::read(manifest)
        .ok()
        .and_then(|bytes| serde_json::from_slice::<serde_json::Map<String, serde_json::Value>>(&bytes).ok())
    else {
        return found;
    };
    let mut named = BTreeSet::new();
    for field in ENTRY_FIELDS {
        if let Some(value) = fields.get(field) {
            entry_paths(value, &mut named);
        }
    }
    for top in named.iter().filter_map(|path| top_part(path)) {
        let path = package.join(top);
        if walked.contains(path.as_path()) {
            continue;
        }
        let room = MAX_OUTPUT_FILES + 1 - found.len().min(MAX_OUTPUT_FILES);
        match path.symlink_metadata() {
            Ok(metadata) if metadata.is_dir() && !files_below(&path, OUTPUT_DEPTH, room, &mut found) => break,
            Ok(metadata) if metadata.is_file() => {
                found.insert(path, metadata.file_type());
            }
            _ => {}
        }
    }
    if found.len() > MAX_OUTPUT_FILES {
        tracing::warn!("not mirrored: the built files {} names, more than {MAX_OUTPUT_FILES}", manifest.display());
        found.clear();
    }
    found
}

/// The relative paths in an entry field: a string, or the strings of an `exports` map or
/// list of conditions, at any depth.
fn entry_paths(value: &serde_json::Value, named: &mut BTreeSet<String>) {
    match value {
        serde_json::Value::String(path) => {
            named.insert(path.clone());
        }
        serde_json::Value::Array(values) => values.iter().for_each(|value| entry_paths(value, named)),
        serde_json::Value::Object(map) => map.values().for_each(|value| entry_paths(value, named)),
        _ => {}
    }
}

/// The first part of a path inside the package (`dist` of `./dist/index.d.ts`, `index.js`
/// of `index.js`); none for a path that leaves it, is absolute, holds a pattern's `*` in
/// its first part, or leads into installs or history (`node_modules/x/index.js`).
fn top_part(path: &str) -> Option<&str> {
    let mut parts = Path::new(path).components().skip_while(|part| matches!(part, Component::CurDir));
    match parts.next()? {
        Component::Normal(part) => part.to_str().filter(|part| !part.contains('*') && !NOT_OUTPUTS.contains(part)),
        _ => None,
    }
}

/// The files in `folder` and in its folders `depth` levels down, at most `room` more of
/// them: false when there were more. Links are not followed nor taken (one in `dist/`
/// would have the shadow's build write through it), nor is a `folder` that is a link, nor
/// a `node_modules` below.
fn files_below(folder: &Path, depth: usize, room: usize, found: &mut BTreeMap<PathBuf, FileType>) -> bool {
    if !folder.symlink_metadata().is_ok_and(|metadata| metadata.is_dir()) {
        return true;
    }
    let Ok(entries) = std::fs::read_dir(folder) else { return true };
    let mut room = room;
    for entry in entries.flatten() {
        let (path, Ok(file_type)) = (entry.path(), entry.file_type()) else { continue };
        if file_type.is_dir() {
            if depth > 0 && entry.file_name() != "node_modules" {
                let before = found.len();
                if !files_below(&path, depth - 1, room, found) {
                    return false;
                }
                room -= found.len() - before;
            }
        } else if file_type.is_file() {
            if room == 0 {
                return false;
            }
            if found.insert(path, file_type).is_none() {
                room -= 1;
            }
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_part_of_an_entry_point_stays_inside_the_package() {
        assert_eq!(top_part("./dist/index.d.ts"), Some("dist"));
        assert_eq!(top_part("lib/index.js"), Some("lib"));
        assert_eq!(top_part("index.js"), Some("index.js"));
        assert_eq!(top_part("./*"), None, "a pattern of the whole package");
        assert_eq!(top_part("../other/index.js"), None);
        assert_eq!(top_part("/etc/passwd"), None);
        assert_eq!(top_part(""), None);
        assert_eq!(top_part("./"), None);
        assert_eq!(top_part("node_modules/other/index.js"), None, "another package's");
    }

    #[test]
    fn entry_points_are_read_from_strings_and_conditions_at_any_depth() {
        let fields: serde_json::Value = serde_json::json!({
            ".": { "import": { "types": "./dist/esm/index.d.mts", "default": "./dist/esm/index.mjs" } },
            "./cli": ["./bin/cli.js", null, 3],
        });
        let mut named = BTreeSet::new();
        entry_paths(&fields, &mut named);
        let expected = ["./bin/cli.js", "./dist/esm/index.d.mts", "./dist/esm/index.mjs"];
        assert_eq!(named.iter().map(String::as_str).collect::<Vec<_>>(), expected);
    }

    #[test]
    fn built_files_are_taken_without_links_and_up_to_a_limit() {
        let dir = crate::testing::tempdir();
        let (small, large) = (dir.path().join("small"), dir.path().join("large"));
        for package in [&small, &large] {
            std::fs::create_dir_all(package.join("dist/sub")).unwrap();
            std::fs::write(package.join("package.json"), r#"{ "main": "dist/index.js" }"#).unwrap();
        }
        std::fs::write(small.join("dist/index.js"), "").unwrap();
        std::fs::write(small.join("dist/sub/util.js"), "").unwrap();
        std::os::unix::fs::symlink(dir.path().join("elsewhere.js"), small.join("dist/linked.js")).unwrap();
        std::os::unix::fs::symlink(dir.path(), small.join("dist/up")).unwrap();
        let walked = BTreeSet::new();
        let found: Vec<PathBuf> = package_outputs(&small.join("package.json"), &walked).into_keys().collect();
        assert_eq!(found, [small.join("dist/index.js"), small.join("dist/sub/util.js")]);
        for index in 0..=MAX_OUTPUT_FILES {
            std::fs::write(large.join(format!("dist/sub/{index}.js")), "").unwrap();
        }
        assert!(package_outputs(&large.join("package.json"), &walked).is_empty(), "one over the limit");
    }

    #[test]
    fn a_package_json_that_is_not_an_object_names_nothing() {
        let dir = crate::testing::tempdir();
        let walked = BTreeSet::new();
        for text in ["", "[1, 2]", "{\"main\": ", "\"dist\"", "{\"main\": 7, \"exports\": {\"x\": false}}"] {
            let manifest = dir.path().join("package.json");
            std::fs::write(&manifest, text).unwrap();
            std::fs::create_dir_all(dir.path().join("dist")).unwrap();
            std::fs::write(dir.path().join("dist/index.js"), "").unwrap();
            assert!(package_outputs(&manifest, &walked).is_empty(), "{text:?}");
        }
    }
}
