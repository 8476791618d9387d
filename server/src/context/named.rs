//! Files an issue names that the index does not parse: `README.md`, a workflow's YAML, a
//! Lua plugin, a `Makefile`. The ranking weighs code; these it cannot weigh, but the issue
//! points at them, so the first prompt shows them as text and the editor lists them.

use std::path::Path;

use super::index::Index;
use super::issue::IssueQuery;
use super::language::Language;
use super::walk::{self, hidden_away};
use crate::workspace::WorkspacePath;

/// Named files kept from one issue at most.
const MAX_NAMED_FILES: usize = 5;

/// A file the issue names that is not indexed source, and why it is taken.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct NamedFile {
    /// Relative to the workspace, with `/` separators.
    pub path: String,
    /// How the issue names it.
    pub reasons: Vec<String>,
    /// The 1-based line the issue gives with its name (`ci.yml:40`, a forge link's `#L40`),
    /// when the file has that line.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<u32>,
}

/// Hidden files that configure a project's tools, by name or name prefix (`.eslintrc.json`).
const HIDDEN_PROJECT_FILES: [&str; 17] = [
    ".gitignore",
    ".gitattributes",
    ".gitlab-ci.yml",
    ".editorconfig",
    ".dockerignore",
    ".npmignore",
    ".nvmrc",
    ".node-version",
    ".rustfmt.toml",
    ".clippy.toml",
    ".pre-commit-config.yaml",
    ".travis.yml",
    ".eslintrc",
    ".prettierrc",
    ".stylelintrc",
    ".babelrc",
    ".browserslistrc",
];

/// Extensions a bare name ends with that say it is a web address, not a file
/// (`crates.io`, `github.com`).
const WEB_DOMAINS: [&str; 10] = ["com", "org", "net", "io", "dev", "app", "ai", "co", "me", "gg"];

/// The files of `index`'s workspace that `query` names and the index does not parse, in
/// the order the issue gives them: a path found as it is written (`docs/setup.md`), else
/// the one file whose path ends with it (`init.lua` for `editors/nvim/lua/plugin/init.lua`).
/// A name that several files share names none of them. Files the ignore rules leave out,
/// those below dependencies and build output, links, hidden files other than a project's
/// own (see [`walk::HIDDEN_PROJECT_FOLDERS`]) and files that may hold secrets (`.env`, keys) are
/// never taken.
pub fn named_files(index: &Index, query: &IssueQuery) -> Vec<NamedFile> {
    let root = index.root().to_owned();
    // Read as a run reads it: a file too large for that (a committed data dump) is not read.
    named_files_reading(index, query, &|path: &str| crate::workspace::read_disk_text(&root.join(path)).ok().flatten())
}

/// [`named_files`], reading files as `read` gives them (the editor's buffers, or the run's
/// overlay): a file the editor holds and has never saved is found by its whole path too.
pub fn named_files_reading(index: &Index, query: &IssueQuery, read: &dyn Fn(&str) -> Option<String>) -> Vec<NamedFile> {
    let root = index.root();
    // A buffer never saved: nothing on disk under its path, which the walk's rules allow.
    let unsaved = |relative: &str| {
        root.join(relative).symlink_metadata().is_err()
            && walk::shown_when_named(root, relative)
            && read(relative).is_some()
    };
    // Paths in a language the index parses are ranked with the code, found or not; but a
    // source file there as the issue writes it that the index left out (over its size
    // limit, minified, past its file limit) is named like any other file.
    let left_out = |path: &str| {
        shown(root, path)
            && !index
                .files()
                .any(|file| file.path == path || file.path.strip_suffix(path).is_some_and(|p| p.ends_with('/')))
    };
    let unparsed =
        query.paths.iter().map(|(path, _)| path).filter(|path| Language::of_path(path).is_none() || left_out(path));
    // Each path, with the line the issue gives with it.
    let mut candidates: Vec<(String, Option<u32>)> = Vec::new();
    for candidate in query.other_files.iter().chain(unparsed) {
        let line = query.locations.iter().find(|(path, _)| path == candidate).map(|(_, line)| *line);
        // An absolute path inside the workspace names its file; one from elsewhere (another
        // machine's checkout) names it by its last two names.
        let candidate = match Path::new(candidate).strip_prefix(root) {
            Ok(inside) => inside.to_str().unwrap_or_default(),
            Err(_) if candidate.starts_with('/') => last_two_names(candidate),
            Err(_) => candidate,
        };
        // As a tool call would name it: `docs/./a.md` is `docs/a.md`.
        let Ok(path) = WorkspacePath::parse(candidate) else { continue };
        let path = path.as_str();
        match candidates.iter_mut().find(|(known, _)| known == path) {
            // Named twice, once with its line (`ci.yml` and a link to `ci.yml#L40`).
            Some((_, known_line)) => *known_line = known_line.or(line),
            None if may_be_shown(path) => candidates.push((path.to_owned(), line)),
            None => {}
        }
    }
    let mut resolved: Vec<Option<NamedFile>> = candidates
        .iter()
        .map(|(candidate, _)| {
            (shown(root, candidate) || unsaved(candidate)).then(|| NamedFile {
                path: candidate.clone(),
                reasons: vec![match Language::of_path(candidate) {
                    Some(_) => format!(
                        "the issue names it (`{candidate}`); the index leaves it out (too large, minified, or past \
                         its file limit), so read as text"
                    ),
                    None => format!("the issue names it (`{candidate}`); not code the index parses, so read as text"),
                }],
                line: None,
            })
        })
        .collect();
    let missing: Vec<&str> = candidates
        .iter()
        .zip(&resolved)
        .filter(|((candidate, _), found)| found.is_none() && worth_a_search(candidate))
        .map(|((candidate, _), _)| candidate.as_str())
        .collect();
    // A path from elsewhere (`C:\Users\me\app\docs\guide.md`, another checkout's folder)
    // names its file by its last two names when its whole tail is found nowhere.
    let short_tails: Vec<&str> = missing.iter().map(|candidate| last_two_names(candidate)).collect();
    let tails: Vec<&str> = missing.iter().chain(&short_tails).copied().collect();
    // A search cut short by its limit cannot tell one file from many: it finds none.
    if let Some(searched) = (!missing.is_empty()).then(|| walk::files_ending_with(root, &tails)).flatten() {
        let (whole, short) = searched.split_at(missing.len());
        for ((candidate, files), short_files) in missing.iter().zip(whole).zip(short) {
            let files = if files.is_empty() { short_files } else { files };
            let Ok([only]) = <[String; 1]>::try_from(files.clone()) else { continue };
            let Some(found) = candidates.iter().position(|(c, _)| c == candidate) else { continue };
            if may_be_shown(&only) && shown(root, &only) {
                resolved[found] = Some(NamedFile {
                    reasons: vec![format!(
                        "the issue names `{candidate}`, and this is the one file so named; not code the index parses, \
                         so read as text"
                    )],
                    path: only,
                    line: None,
                });
            }
        }
    }
    for (file, (_, line)) in resolved.iter_mut().zip(&candidates) {
        if let (Some(file), Some(line)) = (file.as_mut(), line) {
            let lines = read(&file.path).map_or(0, |text| text.lines().count());
            file.line = (*line as usize <= lines).then_some(*line);
        }
    }
    let mut named: Vec<NamedFile> = Vec::new();
    for file in resolved.into_iter().flatten() {
        let room = named.len() < MAX_NAMED_FILES;
        match named.iter_mut().find(|n| n.path == file.path) {
            // Found under two names (`ci.yml` and `.github/workflows/ci.yml:40`): either's line.
            Some(known) => known.line = known.line.or(file.line),
            None if room && index.file(&file.path).is_none() => named.push(file),
            None => {}
        }
    }
    named
}

/// The last two names of a path (`docs/guide.md` of `Users/me/app/docs/guide.md`); the
/// path itself when it has no more.
fn last_two_names(path: &str) -> &str {
    match path.rmatch_indices('/').nth(1) {
        Some((slash, _)) => &path[slash + 1..],
        None => path,
    }
}

/// Whether a bare name is worth looking for through the tree: a path with a folder, a name
/// projects keep (`Makefile`), or a file name that is no abbreviation (`e.g`) or web address
/// (`crates.io`).
fn worth_a_search(candidate: &str) -> bool {
    if candidate.contains('/') {
        return true;
    }
    match candidate.rsplit_once('.') {
        Some((stem, extension)) => stem.len() > 1 && !WEB_DOMAINS.contains(&extension.to_ascii_lowercase().as_str()),
        None => true,
    }
}

/// Whether the file `relative` may be shown, by its path alone: not hidden unless a project
/// keeps it, and not one that may hold secrets.
fn may_be_shown(relative: &str) -> bool {
    let (folders, name) = relative.rsplit_once('/').unwrap_or(("", relative));
    let project_folders = !folders.split('/').any(hidden_away);
    let project_name = !name.starts_with('.') || HIDDEN_PROJECT_FILES.iter().any(|file| name.starts_with(file));
    project_folders && project_name && !crate::workspace::holds_secrets(relative)
}

/// Whether the file `relative` is there to show: a file itself, reached through no link
/// (whose target may lie anywhere), that the walk's rules allow.
fn shown(root: &Path, relative: &str) -> bool {
    let mut path = root.to_owned();
    let mut parts = relative.split('/').peekable();
    while let Some(part) = parts.next() {
        path.push(part);
        let Ok(meta) = path.symlink_metadata() else { return false };
        let wanted = if parts.peek().is_some() { meta.is_dir() } else { meta.is_file() };
        if !wanted {
            return false;
        }
    }
    walk::shown_when_named(root, relative)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::context::issue::analyze;
    use crate::testing::indexed as workspace;

    fn named(index: &Index, issue: &str) -> Vec<String> {
        named_files(index, &analyze(issue)).into_iter().map(|file| file.path).collect()
    }

    #[test]
    fn a_file_the_issue_names_is_found_by_its_path_or_its_one_name() {
        let (_dir, index) = workspace(&[
            ("README.md", "# Demo\n"),
            ("src/lib.rs", "pub fn demo() {}\n"),
            ("editors/nvim/lua/demo/init.lua", "return {}\n"),
            ("docs/a/guide.md", "a\n"),
            ("docs/b/guide.md", "b\n"),
            (".github/workflows/ci.yml", "on: push\n"),
            ("scripts/release.py", "print()\n"),
        ]);
        assert_eq!(
            named(
                &index,
                "README.md is wrong\nThe `init.lua` plugin, guide.md, .github/workflows/ci.yml, scripts/release.py, \
                 src/lib.rs and missing.toml.",
            ),
            ["README.md", "editors/nvim/lua/demo/init.lua", ".github/workflows/ci.yml", "scripts/release.py"],
            "a name two files share names neither; indexed source is ranked, not named"
        );
        let file = &named_files(&index, &analyze("see `lua/demo/init.lua`"))[0];
        assert_eq!(file.path, "editors/nvim/lua/demo/init.lua", "the tail of a path finds it too");
        assert!(file.reasons[0].contains("`lua/demo/init.lua`"), "{:?}", file.reasons);
        assert_eq!(
            named(&index, "see C:\\Users\\me\\work\\demo\\workflows\\ci.yml"),
            [".github/workflows/ci.yml"],
            "a path from another machine, by its last two names"
        );
        assert_eq!(named(&index, "see /home/me/docs/a/guide.md"), ["docs/a/guide.md"], "by its last two names");
        let inside = format!("see {}/README.md", index.root().display());
        assert_eq!(named(&index, &inside), ["README.md"], "an absolute path into the workspace");
    }

    #[test]
    fn a_source_file_the_index_leaves_out_is_named_with_its_line() {
        let checker: String =
            (0..40_000).map(|n| format!("export function check{n}(node: Node) {{ return node; }}\n")).collect();
        assert!(checker.len() as u64 > crate::context::index::MAX_SOURCE_BYTES);
        let (_dir, index) = workspace(&[
            ("src/compiler/checker.ts", checker.as_str()),
            ("src/compiler/parser.ts", "export function parse() {}\n"),
        ]);
        assert!(index.file("src/compiler/checker.ts").is_none(), "too large to index");
        let named = named_files(
            &index,
            &analyze("Crash at `src/compiler/checker.ts:41234` when src/compiler/parser.ts:1 parses"),
        );
        assert_eq!(named.len(), 1, "the indexed file is ranked, not named: {named:?}");
        assert_eq!((named[0].path.as_str(), named[0].line), ("src/compiler/checker.ts", None), "past its last line");
        assert!(named[0].reasons[0].contains("the index leaves it out"), "{:?}", named[0].reasons);
        let named = named_files(&index, &analyze("Crash at src/compiler/checker.ts:120"));
        assert_eq!(named[0].line, Some(120));
    }

    #[test]
    fn a_file_the_editor_holds_unsaved_is_found_by_its_path() {
        let (dir, index) =
            workspace(&[("README.md", "# Demo\n"), ("src/lib.rs", "pub fn demo() {}\n"), (".gitignore", "/out/\n")]);
        // The editor's buffers, over the disk.
        let buffers =
            [("docs/policy.md", "# Refill\nslowly\nat night\n"), ("out/notes.md", "x\n"), ("target/a.md", "x\n")];
        let read = |path: &str| -> Option<String> {
            match buffers.iter().find(|(buffer, _)| *buffer == path) {
                Some((_, text)) => Some((*text).to_owned()),
                None => std::fs::read_to_string(dir.path().join(path)).ok(),
            }
        };
        let found = |issue: &str| -> Vec<(String, Option<u32>)> {
            named_files_reading(&index, &analyze(issue), &read).into_iter().map(|file| (file.path, file.line)).collect()
        };
        assert_eq!(
            found("as docs/policy.md:3 says; see README.md, out/notes.md and target/a.md"),
            [("docs/policy.md".to_owned(), Some(3)), ("README.md".to_owned(), None)],
            "not a buffer the ignore rules or the build's folder leave out"
        );
        assert!(named(&index, "as docs/policy.md says").is_empty(), "from the disk alone, it is not there");
    }

    #[test]
    fn a_file_too_large_to_read_is_named_without_reading_it() {
        let (dir, index) = workspace(&[("docs/small.md", "a\nb\nc\n")]);
        let line = "x".repeat(99) + "\n";
        std::fs::write(dir.path().join("docs/big.md"), line.repeat(100_000)).unwrap();
        let found: Vec<(String, Option<u32>)> = named_files(&index, &analyze("see docs/big.md:3 and docs/small.md:3"))
            .into_iter()
            .map(|file| (file.path, file.line))
            .collect();
        assert_eq!(found, [("docs/big.md".to_owned(), None), ("docs/small.md".to_owned(), Some(3))]);
    }

    #[test]
    fn a_line_given_with_the_name_is_kept_when_the_file_has_it() {
        let (_dir, index) = workspace(&[(".github/workflows/ci.yml", "on: push\njobs:\n  test: {}\n")]);
        let lines = |issue: &str| -> Vec<(String, Option<u32>)> {
            named_files(&index, &analyze(issue)).into_iter().map(|file| (file.path, file.line)).collect()
        };
        let ci = ".github/workflows/ci.yml".to_owned();
        assert_eq!(lines("CI fails at .github/workflows/ci.yml:3:5"), [(ci.clone(), Some(3))]);
        assert_eq!(
            lines("see https://github.com/o/r/blob/main/.github/workflows/ci.yml#L2-L3"),
            [(ci.clone(), Some(2))],
            "a forge link's anchor"
        );
        assert_eq!(lines("`ci.yml:2` is wrong"), [(ci.clone(), Some(2))], "found by its one name");
        assert_eq!(lines("CI fails at .github/workflows/ci.yml:4"), [(ci.clone(), None)], "past its end");
        assert_eq!(lines("CI fails in .github/workflows/ci.yml"), [(ci.clone(), None)]);
        assert_eq!(
            lines("`ci.yml` fails at .github/workflows/ci.yml:3"),
            [(ci.clone(), Some(3))],
            "named twice, once with a line"
        );
        assert_eq!(
            lines("see [ci.yml](https://github.com/o/r/blob/main/.github/workflows/ci.yml#L2)"),
            [(ci, Some(2))],
            "a Markdown link's text and its address"
        );
    }

    #[test]
    fn ignored_hidden_away_linked_and_secret_files_are_never_named() {
        let (dir, index) = workspace(&[
            (".git/HEAD", "ref: refs/heads/main\n"),
            (".gitignore", "local.toml\n/config/database.yml\n"),
            ("local.toml", "token = 1\n"),
            ("config/database.yml", "password: 1\n"),
            (".env", "KEY=1\n"),
            (".config/gh/hosts.yml", "oauth_token: 1\n"),
            ("deploy/server.pem", "-----BEGIN\n"),
            ("deploy/secrets.yaml", "key: 1\n"),
            ("infra/terraform.tfstate", "{}\n"),
            ("node_modules/pkg/README.md", "dependency\n"),
            ("target/report.html", "output\n"),
            ("src/lib.rs", "pub fn demo() {}\n"),
            ("docs/ok.md", "fine\n"),
        ]);
        let outside = crate::testing::tempdir();
        std::fs::create_dir_all(outside.path().join("private")).unwrap();
        std::fs::write(outside.path().join("private/notes.md"), "outside\n").unwrap();
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink(outside.path().join("private/notes.md"), dir.path().join("notes.md")).unwrap();
            std::os::unix::fs::symlink(outside.path().join("private"), dir.path().join("private")).unwrap();
        }
        // An issue's first eight names are read, so each issue names seven that must not be
        // shown and one that may.
        let issues = [
            "docs/ok.md, local.toml, config/./database.yml, .env, `.config/gh/hosts.yml`, hosts.yml, deploy/server.pem",
            "docs/ok.md, secrets.yaml, terraform.tfstate, node_modules/pkg/README.md, README.md, target/report.html",
            "docs/ok.md, notes.md, private/notes.md and ../outside/notes.md",
        ];
        for issue in issues {
            assert_eq!(named(&index, issue), ["docs/ok.md"], "only the file that may be shown: {issue}");
        }
    }

    #[test]
    fn a_file_named_twice_is_shown_once() {
        let (_dir, index) = workspace(&[("docs/guide.md", "a\n"), ("src/lib.rs", "pub fn demo() {}\n")]);
        assert_eq!(named(&index, "docs/./guide.md, docs/guide.md and `guide.md`"), ["docs/guide.md"]);
    }

    #[test]
    fn abbreviations_and_web_addresses_start_no_search() {
        for word in ["e.g", "crates.io", "github.com", "x.md"] {
            assert!(!worth_a_search(word), "{word}");
        }
        for word in ["init.lua", "lua/init.lua", "Makefile", "ci.yml"] {
            assert!(worth_a_search(word), "{word}");
        }
    }
}
