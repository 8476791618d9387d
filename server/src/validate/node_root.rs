//! The folders above a TypeScript project that its build reads: in a monorepo, the root
//! where the package manager installed `node_modules` (and `tsc`) for every package, and
//! the shared configuration the project's `tsconfig.json` `extends` or `references`.

use std::path::{Path, PathBuf};

use super::repository::{read_small, repository_above};

/// How many configurations are followed from the project's own.
const MAX_FOLLOWED: usize = 16;

/// The largest `tsconfig.json` read.
const MAX_TSCONFIG_BYTES: u64 = 1 << 20;

/// Where `tsc` sits below a folder that installed it.
pub const TSC_BELOW: &str = "node_modules/.bin/tsc";

/// The folder whose `node_modules/.bin/tsc` the project at `root` runs: its own, else the
/// nearest above it in its repository (a monorepo's hoisted install).
pub fn tsc_folder(root: &Path) -> Option<PathBuf> {
    if root.join(TSC_BELOW).is_file() {
        return Some(root.to_owned());
    }
    let repository = repository_above(root)?;
    root.ancestors()
        .skip(1)
        .take_while(|folder| folder.starts_with(repository))
        .find(|folder| folder.join(TSC_BELOW).is_file())
        .map(Path::to_owned)
}

/// The highest folder above `root`, inside its repository, that the TypeScript build of the
/// project at `root` reads: where its `tsc` or `node_modules` are installed, or where a
/// configuration its `tsconfig.json` reaches by a relative `extends` or `references` lives.
/// `None` when the build reads nothing above the project.
pub fn build_root_above(root: &Path) -> Option<PathBuf> {
    let repository = repository_above(root)?;
    let tsc = tsc_folder(root);
    // A package with an install of its own reads its own `node_modules`; one without reads
    // those the package manager hoisted above it, up to the highest.
    let hoisted = tsc.as_deref() != Some(root) && !root.join("node_modules").is_dir();
    let mut reached: Vec<PathBuf> = tsc.into_iter().collect();
    if hoisted {
        let above = root.ancestors().skip(1).take_while(|folder| folder.starts_with(repository));
        reached.extend(above.filter(|folder| folder.join("node_modules").is_dir()).map(Path::to_owned));
    }
    reached.extend(configurations_reached(root).into_iter().filter_map(|file| {
        let folder = file.parent()?;
        root.ancestors().find(|above| folder.starts_with(above)).map(Path::to_owned)
    }));
    reached
        .into_iter()
        .filter(|folder| folder != root && root.starts_with(folder) && folder.starts_with(repository))
        .min_by_key(|folder| folder.components().count())
}

/// The major and minor version of the TypeScript installed below `folder`, as its
/// `package.json` says.
pub fn typescript_version(folder: &Path) -> Option<(u32, u32)> {
    let manifest = read_jsonc(&folder.join("node_modules/typescript/package.json"))?;
    let mut parts = manifest["version"].as_str()?.split(['.', '-']);
    Some((parts.next()?.parse().ok()?, parts.next()?.parse().ok()?))
}

/// Whether the `tsconfig.json` at `root` is a solution: it names no files of its own
/// (`"files": []` and no `include`, or an empty `include`) and lists project `references`,
/// as Vite's templates write it. `tsc -p` checks nothing there; `tsc -b` checks each reference.
pub fn is_solution(root: &Path) -> bool {
    let Some(value) = read_jsonc(&root.join("tsconfig.json")) else { return false };
    let empty = |key: &str| value[key].as_array().is_some_and(Vec::is_empty);
    let no_files_of_its_own = (empty("files") && value.get("include").is_none()) || empty("include");
    no_files_of_its_own && value["references"].as_array().is_some_and(|references| !references.is_empty())
}

/// The JSON-with-comments file at `file`, parsed; `None` when missing, too large or broken.
fn read_jsonc(file: &Path) -> Option<serde_json::Value> {
    let mut text = read_small(file, MAX_TSCONFIG_BYTES)?;
    json_strip_comments::strip(&mut text).ok()?;
    serde_json::from_str(&text).ok()
}

/// Every configuration file the project's `tsconfig.json` reaches through relative
/// `extends` and `references`, bases of bases too; files that are missing or do not parse
/// end their branch.
fn configurations_reached(root: &Path) -> Vec<PathBuf> {
    let mut pending = vec![root.join("tsconfig.json")];
    let mut seen: Vec<PathBuf> = Vec::new();
    while let Some(file) = pending.pop() {
        if seen.len() >= MAX_FOLLOWED || seen.contains(&file) {
            continue;
        }
        let Some(next) = relative_targets(&file) else { continue };
        seen.push(file);
        pending.extend(next);
    }
    seen
}

/// The configurations the `tsconfig.json` at `file` names by relative path: its
/// `extends` (one or a list, `.json` added where TypeScript adds it) and its project
/// `references` (a file, or a folder holding `tsconfig.json`). `None` when it cannot be read.
fn relative_targets(file: &Path) -> Option<Vec<PathBuf>> {
    let value = read_jsonc(file)?;
    let folder = file.parent()?;
    let relative = |path: &&str| path.starts_with("./") || path.starts_with("../");
    let extends: Vec<&str> = match &value["extends"] {
        serde_json::Value::String(one) => vec![one.as_str()],
        serde_json::Value::Array(many) => many.iter().filter_map(|v| v.as_str()).collect(),
        _ => Vec::new(),
    };
    let references = value["references"].as_array().into_iter().flatten().filter_map(|r| r["path"].as_str());
    let mut targets: Vec<PathBuf> = extends
        .into_iter()
        .filter(relative)
        .map(|base| {
            let path = crate::workspace::lexical_normal(&folder.join(base));
            if path.is_file() || base.ends_with(".json") { path } else { path.with_added_extension("json") }
        })
        .collect();
    targets.extend(references.filter(|path| !Path::new(path).is_absolute()).map(|reference| {
        let path = crate::workspace::lexical_normal(&folder.join(reference));
        if path.is_dir() { path.join("tsconfig.json") } else { path }
    }));
    Some(targets)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::tree;

    #[test]
    fn a_package_of_a_monorepo_reads_the_hoisted_install_and_the_shared_configuration() {
        let dir = tree::<&str>(&[
            (".git/HEAD", "ref: refs/heads/main\n"),
            ("node_modules/.bin/tsc", ""),
            ("tsconfig.base.json", "{ \"compilerOptions\": { \"strict\": true } }"),
            // Comments and a trailing comma, as TypeScript reads its configuration.
            ("packages/app/tsconfig.json", "{\n  // shared\n  \"extends\": \"../../tsconfig.base\",\n}\n"),
            ("packages/lib/tsconfig.json", "{ \"compilerOptions\": { \"composite\": true } }"),
            ("packages/own/node_modules/.bin/tsc", ""),
            ("packages/own/tsconfig.json", "{ \"references\": [{ \"path\": \"../lib\" }] }"),
        ]);
        let root = dir.path();
        let app = root.join("packages/app");
        assert_eq!(tsc_folder(&app).as_deref(), Some(root));
        assert_eq!(build_root_above(&app).as_deref(), Some(root));
        // Its own install, and a reference to a sibling: the build reads the folder holding both.
        let own = root.join("packages/own");
        assert_eq!(tsc_folder(&own).as_deref(), Some(own.as_path()));
        assert_eq!(build_root_above(&own), Some(root.join("packages")), "its own install, not the root's");
        std::fs::remove_dir_all(root.join("node_modules")).unwrap();
        assert_eq!(build_root_above(&own), Some(root.join("packages")));
        assert_eq!(tsc_folder(&app), None);
    }

    #[test]
    fn a_configuration_of_references_alone_is_a_solution() {
        let solution = "{\n  \"files\": [],\n  // the app and the tooling\n  \"references\": [{ \"path\": \"./tsconfig.app.json\" }],\n}";
        for (text, expected) in [
            (solution, true),
            (r#"{ "include": [], "references": [{ "path": "./a" }] }"#, true),
            (r#"{ "files": [], "include": ["src"], "references": [{ "path": "./a" }] }"#, false),
            (r#"{ "references": [{ "path": "./a" }] }"#, false),
            (r#"{ "files": [], "references": [] }"#, false),
            (r#"{ "files": [] "#, false),
        ] {
            let dir = tree::<&str>(&[("tsconfig.json", text)]);
            assert_eq!(is_solution(dir.path()), expected, "{text}");
        }
        assert!(!is_solution(tree::<&str>(&[]).path()));
    }

    #[test]
    fn the_installed_typescript_says_its_version() {
        let dir = tree::<&str>(&[
            ("new/node_modules/typescript/package.json", r#"{ "name": "typescript", "version": "5.9.3" }"#),
            ("old/node_modules/typescript/package.json", r#"{ "version": "5.4.0-beta" }"#),
            ("odd/node_modules/typescript/package.json", r#"{ "version": "next" }"#),
        ]);
        assert_eq!(typescript_version(&dir.path().join("new")), Some((5, 9)));
        assert_eq!(typescript_version(&dir.path().join("old")), Some((5, 4)));
        assert_eq!(typescript_version(&dir.path().join("odd")), None);
        assert_eq!(typescript_version(&dir.path().join("none")), None);
    }

    #[test]
    fn nothing_above_the_repository_nor_a_standalone_project_is_read() {
        let dir = tree::<&str>(&[
            ("node_modules/.bin/tsc", ""),
            ("tsconfig.base.json", "{}"),
            ("repo/.git/HEAD", "ref: refs/heads/main\n"),
            ("repo/app/tsconfig.json", "{ \"extends\": \"../../tsconfig.base.json\" }"),
            ("alone/.git/HEAD", "ref: refs/heads/main\n"),
            ("alone/node_modules/.bin/tsc", ""),
            ("alone/tsconfig.json", "{ \"extends\": \"../tsconfig.base.json\" }"),
            ("loop/.git/HEAD", "ref: refs/heads/main\n"),
            ("loop/a/tsconfig.json", "{ \"extends\": \"./tsconfig.json\", \"references\": [{ \"path\": \"/etc\" }] }"),
            ("broken/.git/HEAD", "ref: refs/heads/main\n"),
            ("broken/a/tsconfig.json", "{ \"extends\": "),
        ]);
        let root = dir.path();
        assert_eq!(build_root_above(&root.join("repo/app")), None, "the base is outside the repository");
        assert_eq!(tsc_folder(&root.join("repo/app")), None, "an install outside the repository is not the project's");
        assert_eq!(build_root_above(&root.join("alone")), None, "the repository's root reads nothing above it");
        assert_eq!(build_root_above(&root.join("loop/a")), None);
        assert_eq!(build_root_above(&root.join("broken/a")), None);
    }
}
