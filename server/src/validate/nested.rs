//! Projects nested in the workspace with another build tool than the workspace's, which its
//! own build does not reach: the `src-tauri/` crate of a TypeScript app, or the `backend/`
//! crate and the `web/` package of a repository with no build file at its top. A change to
//! one of their files is checked by that project's own build too, and the reports become one.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use super::detect::toolchain_of;
use super::problem::{Place, Problem};
use super::shadow::SyncStats;
use super::{Report, Toolchain, WorkspacePath};

/// Folders whose files belong to no project of the workspace: installs, output, history.
const NOT_PROJECTS: [&str; 3] = ["node_modules", "target", ".git"];

/// The folders (workspace paths, sorted) of the projects nested below the workspace at
/// `root`, with another build tool than `toolchain`, the workspace's, that hold a changed
/// file: one of `overrides` whose text is not the disk's, or that is deleted and the disk
/// still has, or one the repository has uncommitted changes to. A file's project is the
/// nearest folder above it, below the top, that holds a build file.
///
/// Only the folders of `candidates` (see [`candidates`]) are asked about: git then reads
/// no other part of a large repository.
pub(super) fn changed_projects(
    root: &Path,
    toolchain: Option<Toolchain>,
    overrides: &BTreeMap<WorkspacePath, Option<String>>,
    candidates: &[String],
) -> Vec<String> {
    let nested = |path: &WorkspacePath| {
        project_of(root, path).filter(|folder| toolchain_of(&root.join(folder)).is_some_and(|t| Some(t) != toolchain))
    };
    let mut found = BTreeSet::new();
    for (path, text) in overrides {
        // The disk is read only for a file whose project is not found yet.
        let Some(folder) = nested(path).filter(|folder| !found.contains(folder)) else { continue };
        let on_disk = std::fs::read(root.join(path.as_str())).ok();
        let changed = match (text, on_disk) {
            (Some(text), Some(disk)) => text.as_bytes() != disk.as_slice(),
            (None, None) => false,
            _ => true,
        };
        if changed {
            found.insert(folder);
        }
    }
    found.extend(uncommitted(root, candidates).iter().filter_map(nested));
    found.into_iter().collect()
}

/// How deep below the workspace's top [`candidates`] looks for projects.
const CANDIDATE_DEPTH: usize = 4;

/// The folders (workspace paths) down to [`CANDIDATE_DEPTH`] below the workspace at `root`
/// that hold a project with another build tool than `toolchain`, the workspace's; the walk
/// follows the ignore rules and stays out of installs and build output.
pub(super) fn candidates(root: &Path, toolchain: Option<Toolchain>) -> Vec<String> {
    let walk = crate::workspace::workspace_walk(root, root)
        .max_depth(Some(CANDIDATE_DEPTH))
        .filter_entry(|entry| !NOT_PROJECTS.iter().any(|name| entry.file_name() == *name))
        .build();
    let mut found: Vec<String> = walk
        .flatten()
        .filter(|entry| entry.depth() > 0 && entry.file_type().is_some_and(|t| t.is_dir()))
        .filter(|entry| toolchain_of(entry.path()).is_some_and(|nested| Some(nested) != toolchain))
        .filter_map(|entry| entry.path().strip_prefix(root).ok()?.to_str().map(|folder| folder.replace('\\', "/")))
        .collect();
    found.sort();
    found
}

/// How long each question to git may take; past it the changes it would list are not known.
const GIT_LIMIT: std::time::Duration = std::time::Duration::from_secs(5);

/// The files in the folders `within` the workspace at `root` that differ from the
/// repository's last commit or that it does not track (and does not ignore); in a
/// repository with no commit yet, every file there. None outside a git repository, without
/// `git`, or for no folder. git is asked to take no lock (the user's own `git commit` may
/// run meanwhile), to read the folders as names, not patterns, and to answer in time.
fn uncommitted(root: &Path, within: &[String]) -> Vec<WorkspacePath> {
    if within.is_empty() || !crate::workspace::in_repository(root) {
        return Vec::new();
    }
    let listed = |args: &[&str]| {
        let mut command = std::process::Command::new("git");
        command.args(["--no-optional-locks", "--literal-pathspecs"]).args(args).arg("--").args(within);
        command.current_dir(root);
        super::detect::output_within(command, GIT_LIMIT)
    };
    let changed = listed(&["diff", "--name-only", "--relative", "-z", "HEAD"])
        // No commit yet: everything the index holds is new.
        .or_else(|| listed(&["ls-files", "--cached", "-z"]));
    let mut names = changed.unwrap_or_default();
    names.push(0);
    names.extend(listed(&["ls-files", "--others", "--exclude-standard", "-z"]).unwrap_or_default());
    names
        .split(|byte| *byte == 0)
        .filter_map(|name| WorkspacePath::parse(std::str::from_utf8(name).ok()?).ok())
        .filter(|path| !path.is_root())
        .collect()
}

/// The nearest folder above `path`, below the workspace's top, that holds a build file.
fn project_of(root: &Path, path: &WorkspacePath) -> Option<String> {
    let parts: Vec<&str> = path.as_str().split('/').collect();
    if parts.iter().any(|part| NOT_PROJECTS.contains(part)) {
        return None;
    }
    (1..parts.len()).rev().map(|end| parts[..end].join("/")).find(|folder| toolchain_of(&root.join(folder)).is_some())
}

/// `overrides`, named by their paths from the workspace at `root`, as paths from the
/// folder `build_root` a nested project builds from; those outside it are left out.
pub(super) fn for_build_root(
    overrides: &BTreeMap<WorkspacePath, Option<String>>,
    root: &Path,
    build_root: &Path,
) -> BTreeMap<WorkspacePath, Option<String>> {
    overrides
        .iter()
        .filter_map(|(path, text)| {
            let absolute = root.join(path.as_str());
            let inside = absolute.strip_prefix(build_root).ok()?.to_str()?;
            Some((WorkspacePath::parse(inside).ok()?, text.clone()))
        })
        .collect()
}

/// `problem`, found by the build of the project in `folder`, with its places (its own,
/// the related ones, those of its fixes) named by their workspace paths.
pub(super) fn move_under(problem: &mut Problem, folder: &str) {
    let moved = |place: &mut Place| {
        if let Ok(path) = WorkspacePath::parse(&format!("{folder}/{}", place.path.as_str())) {
            place.path = path;
        }
    };
    problem.place.iter_mut().for_each(moved);
    problem.related.iter_mut().for_each(|related| moved(&mut related.place));
    problem.replacements.iter_mut().for_each(|fix| moved(&mut fix.place));
}

/// The command `line` as run in the workspace's `folder`: `cd src-tauri && cargo check`.
pub(super) fn run_in(folder: &str, line: &str) -> String {
    let plain = folder.chars().all(|c| c.is_ascii_alphanumeric() || "._/-".contains(c));
    if plain { format!("cd {folder} && {line}") } else { format!("cd '{}' && {line}", folder.replace('\'', r"'\''")) }
}

/// One report of the reports of several projects' builds, the workspace's own first when
/// it has one: passed when each that ran passed, with every problem, and each account in
/// turn. A report that could not run (its program is missing) says so in its account and
/// leaves the verdict to the others; not run only when none ran.
pub(super) fn merged(mut parts: Vec<Report>) -> Report {
    if parts.len() <= 1
        && let Some(only) = parts.pop()
    {
        return only;
    }
    let first = &parts[0];
    let ran: Vec<&Report> = parts.iter().filter(|part| part.not_run.is_none()).collect();
    let joined = |texts: Vec<&str>, between: &str| {
        let texts: Vec<&str> = texts.into_iter().filter(|text| !text.is_empty()).collect();
        (!texts.is_empty()).then(|| texts.join(between))
    };
    let failed = parts.iter().find(|part| !part.passed && part.not_run.is_none());
    Report {
        kind: first.kind,
        command: joined(parts.iter().filter_map(|part| part.command.as_deref()).collect(), "; "),
        status: failed.unwrap_or(first).status,
        timed_out: parts.iter().any(|part| part.timed_out),
        cancelled: parts.iter().any(|part| part.cancelled),
        passed: !ran.is_empty() && ran.iter().all(|part| part.passed),
        problems: parts.iter().flat_map(|part| part.problems.iter().cloned()).collect(),
        unparsed: joined(parts.iter().filter_map(|part| part.unparsed.as_deref()).collect(), "\n\n"),
        not_run: if ran.is_empty() { first.not_run.clone() } else { None },
        output: joined(parts.iter().map(|part| part.output.as_str()).collect(), "\n").unwrap_or_default(),
        summary: joined(parts.iter().map(|part| part.summary.trim_end()).collect(), "\n\n").unwrap_or_default(),
        duration_ms: parts.iter().map(|part| part.duration_ms).sum(),
        sync: SyncStats {
            files: parts.iter().map(|part| part.sync.files).sum(),
            written: parts.iter().map(|part| part.sync.written).sum(),
            removed: parts.iter().map(|part| part.sync.removed).sum(),
            duration: parts.iter().map(|part| part.sync.duration).sum(),
        },
        covered: parts.iter().flat_map(|part| part.covered.iter().cloned()).collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Kind, Severity, Spot};
    use super::*;
    use crate::testing::tree;

    fn p(path: &str) -> WorkspacePath {
        WorkspacePath::parse(path).unwrap()
    }

    #[test]
    fn a_changed_file_belongs_to_the_nearest_project_below_the_top() {
        let dir = tree::<&str>(&[
            ("package.json", "{}"),
            ("src/main.ts", "same"),
            ("src-tauri/Cargo.toml", ""),
            ("src-tauri/src/main.rs", "before"),
            ("src-tauri/src/bin/tool.rs", "gone soon"),
            ("web/packages/app/package.json", "{}"),
            ("web/packages/app/src/deep/x.ts", "before"),
            ("src-tauri/target/debug/build/out.rs", "before"),
            ("docs/guide.md", "before"),
        ]);
        let overrides = BTreeMap::from([
            (p("src/main.ts"), Some("changed".to_owned())),
            (p("src-tauri/src/main.rs"), Some("after".to_owned())),
            (p("src-tauri/src/bin/tool.rs"), None),
            (p("web/packages/app/src/deep/x.ts"), Some("before".to_owned())),
            (p("web/packages/app/src/new.ts"), Some("new".to_owned())),
            (p("web/gone.ts"), None),
            (p("src-tauri/target/debug/build/out.rs"), Some("after".to_owned())),
            (p("docs/guide.md"), Some("after".to_owned())),
        ]);
        // The top's own files are its build's; a buffer the same as its file changes
        // nothing; a file deleted that is not there was never the disk's; build output and
        // a folder of no project belong to none.
        assert_eq!(changed_projects(dir.path(), None, &overrides, &[]), ["src-tauri", "web/packages/app"]);
        let of_another_tool = changed_projects(dir.path(), Some(Toolchain::TypeScript), &overrides, &[]);
        assert_eq!(of_another_tool, ["src-tauri"], "a package of the top's own build tool is its build's");
    }

    #[test]
    fn files_the_repository_has_uncommitted_changes_to_are_changed() {
        let dir = tree::<&str>(&[
            ("package.json", "{}"),
            ("src-tauri/Cargo.toml", ""),
            ("src-tauri/src/main.rs", "committed"),
            ("tools/gen/Cargo.toml", ""),
            ("tools/gen/src/main.rs", "committed"),
            ("web/package.json", "{}"),
            (".gitignore", "web/dist/\n"),
        ]);
        let git = |args: &[&str]| crate::testing::git(dir.path(), args);
        git(&["init", "-q"]);
        git(&["add", "."]);
        git(&["commit", "-q", "-m", "start"]);
        std::fs::write(dir.path().join("src-tauri/src/main.rs"), "saved since").unwrap();
        std::fs::create_dir_all(dir.path().join("web/src")).unwrap();
        std::fs::create_dir_all(dir.path().join("web/dist")).unwrap();
        std::fs::write(dir.path().join("web/dist/out.js"), "ignored").unwrap();
        let candidates = candidates(dir.path(), Some(Toolchain::TypeScript));
        assert_eq!(candidates, ["src-tauri", "tools/gen"], "the projects of another build tool");
        assert_eq!(
            changed_projects(dir.path(), Some(Toolchain::TypeScript), &BTreeMap::new(), &candidates),
            ["src-tauri"]
        );
        std::fs::write(dir.path().join("tools/gen/src/new.rs"), "untracked").unwrap();
        assert_eq!(
            changed_projects(dir.path(), Some(Toolchain::TypeScript), &BTreeMap::new(), &candidates),
            ["src-tauri", "tools/gen"]
        );
        std::fs::write(dir.path().join("web/src/new.ts"), "untracked").unwrap();
        assert_eq!(
            changed_projects(dir.path(), Some(Toolchain::TypeScript), &BTreeMap::new(), &candidates),
            ["src-tauri", "tools/gen"],
            "not asked"
        );
    }

    #[test]
    fn a_repository_with_no_commit_yet_has_every_file_changed() {
        let dir = tree::<&str>(&[("package.json", "{}"), ("src-tauri/Cargo.toml", ""), ("src-tauri/src/lib.rs", "")]);
        let output = std::process::Command::new("git").args(["init", "-q"]).current_dir(dir.path()).output().unwrap();
        assert!(output.status.success());
        let added = std::process::Command::new("git").args(["add", "-A"]).current_dir(dir.path()).output().unwrap();
        assert!(added.status.success());
        let candidates = candidates(dir.path(), Some(Toolchain::TypeScript));
        assert_eq!(
            changed_projects(dir.path(), Some(Toolchain::TypeScript), &BTreeMap::new(), &candidates),
            ["src-tauri"]
        );
    }

    #[test]
    fn a_nested_projects_overrides_and_problems_are_named_from_its_folder_and_back() {
        let overrides = BTreeMap::from([
            (p("src-tauri/src/main.rs"), Some("fn main() {}".to_owned())),
            (p("src-tauri-old/lib.rs"), None),
            (p("src/main.ts"), None),
        ]);
        let (root, build_root) = (Path::new("/w"), Path::new("/w/src-tauri"));
        let expected = BTreeMap::from([(p("src/main.rs"), Some("fn main() {}".to_owned()))]);
        assert_eq!(for_build_root(&overrides, root, build_root), expected);
        let above = for_build_root(&overrides, Path::new("/repo/app"), Path::new("/repo"));
        let paths: Vec<&str> = above.keys().map(WorkspacePath::as_str).collect();
        assert_eq!(paths, ["app/src-tauri-old/lib.rs", "app/src-tauri/src/main.rs", "app/src/main.ts"]);
        let spot = Spot { line: 1, column: 4 };
        let place = |path: &str| Place { path: p(path), start: spot, end: spot };
        let mut problem = Problem::unplaced(Severity::Error, "cargo", "mismatched types".to_owned());
        problem.place = Some(place("src/main.rs"));
        problem.related.push(super::super::Related { place: place("src/lib.rs"), message: "expected".to_owned() });
        problem.replacements.push(super::super::Replacement { place: place("src/main.rs"), text: "1".to_owned() });
        move_under(&mut problem, "src-tauri");
        assert_eq!(problem.place.unwrap().path.as_str(), "src-tauri/src/main.rs");
        assert_eq!(problem.related[0].place.path.as_str(), "src-tauri/src/lib.rs");
        assert_eq!(problem.replacements[0].place.path.as_str(), "src-tauri/src/main.rs");
        assert_eq!(run_in("src-tauri", "cargo check"), "cd src-tauri && cargo check");
        assert_eq!(run_in("my app's", "tsc"), r"cd 'my app'\''s' && tsc");
    }

    fn report(command: &str, passed: bool, not_run: Option<&str>) -> Report {
        let mut report = Report::nothing(Kind::Check, format!("The check `{command}` said so."));
        report.not_run = not_run.map(str::to_owned);
        report.command = Some(command.to_owned());
        report.passed = passed;
        report.status = Some(if passed { 0 } else { 1 });
        report.duration_ms = 10;
        if !passed && not_run.is_none() {
            report.problems.push(Problem::unplaced(Severity::Error, command, "broken".to_owned()));
        }
        report
    }

    #[test]
    fn reports_merge_into_one_that_passes_when_each_that_ran_passed() {
        let both = merged(vec![report("tsc", true, None), report("cd src-tauri && cargo check", false, None)]);
        assert!(!both.passed && both.status == Some(1) && both.errors() == 1);
        assert_eq!(both.command.as_deref(), Some("tsc; cd src-tauri && cargo check"));
        assert_eq!(both.summary, "The check `tsc` said so.\n\nThe check `cd src-tauri && cargo check` said so.");
        assert_eq!(both.duration_ms, 20);
        let missing = merged(vec![report("tsc", false, Some("tsc is not installed")), report("cargo", true, None)]);
        assert!(missing.passed && missing.not_run.is_none(), "{missing:?}");
        assert!(missing.summary.contains("`tsc`"), "the one not run is still told of");
        let none = merged(vec![report("tsc", false, Some("no tsc")), report("cargo", false, Some("no cargo"))]);
        assert_eq!(none.not_run.as_deref(), Some("no tsc"));
        let one = report("cargo", true, None);
        assert_eq!(merged(vec![one.clone()]), one);
    }
}
