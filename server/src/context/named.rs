//! Files an issue names that the index does not parse: `README.md`, a workflow's YAML, a
//! Lua plugin, a `Makefile`. The ranking weighs code; these it cannot weigh, but the issue
//! points at them, so the first prompt shows them as text and the editor lists them.

use std::path::Path;

use super::index::Index;
use super::issue::IssueQuery;
use super::language::Language;
use super::walk;
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
}

/// The files of `index`'s workspace that `query` names and the index does not parse, in
/// the order the issue gives them: a path found as it is written (`docs/setup.md`), else
/// the one file whose path ends with it (`init.lua` for `editors/nvim/lua/plugin/init.lua`).
/// A name that several files share names none of them. Files the ignore rules leave out,
/// those below dependencies and build output, links, and files that may hold secrets
/// (`.env`, keys) are never taken.
pub fn named_files(index: &Index, query: &IssueQuery) -> Vec<NamedFile> {
    let root = index.root();
    // Paths in a language the index parses are ranked with the code, found or not.
    let unparsed = query.paths.iter().map(|(path, _)| path).filter(|path| Language::of_path(path).is_none());
    let mut candidates: Vec<&str> = Vec::new();
    for candidate in query.other_files.iter().chain(unparsed) {
        let candidate = candidate.as_str();
        if !candidates.contains(&candidate) && WorkspacePath::parse(candidate).is_ok() && !may_hold_secrets(candidate) {
            candidates.push(candidate);
        }
    }
    let mut resolved: Vec<Option<NamedFile>> = candidates
        .iter()
        .map(|candidate| {
            shown(root, candidate).then(|| NamedFile {
                path: (*candidate).to_owned(),
                reasons: vec![format!(
                    "the issue names it (`{candidate}`); not code the index parses, so read as text"
                )],
            })
        })
        .collect();
    let missing: Vec<&str> =
        candidates.iter().zip(&resolved).filter(|(_, found)| found.is_none()).map(|(c, _)| *c).collect();
    if !missing.is_empty() {
        let mut searched = walk::files_ending_with(root, &missing).into_iter();
        for (candidate, found) in candidates.iter().zip(&mut resolved).filter(|(_, found)| found.is_none()) {
            let Ok([only]) = <[String; 1]>::try_from(searched.next().unwrap_or_default()) else { continue };
            if shown(root, &only) {
                *found = Some(NamedFile {
                    reasons: vec![format!(
                        "the issue names `{candidate}`, and this is the one file so named; not code the index parses, \
                         so read as text"
                    )],
                    path: only,
                });
            }
        }
    }
    let mut named: Vec<NamedFile> = Vec::new();
    for file in resolved.into_iter().flatten() {
        if named.len() < MAX_NAMED_FILES
            && !named.iter().any(|n| n.path == file.path)
            && index.file(&file.path).is_none()
        {
            named.push(file);
        }
    }
    named
}

/// Whether the file `relative` is there to show: a file itself (not a link, whose target
/// may lie anywhere) that the walk's rules allow.
fn shown(root: &Path, relative: &str) -> bool {
    root.join(relative).symlink_metadata().is_ok_and(|meta| meta.is_file()) && walk::shown_when_named(root, relative)
}

/// Whether a file's name says it may hold secrets: environment files and keys, which an
/// issue may name but a model is never shown.
fn may_hold_secrets(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path).to_ascii_lowercase();
    let extension = name.rsplit_once('.').map_or("", |(_, extension)| extension);
    name.starts_with(".env")
        || matches!(
            name.as_str(),
            ".netrc" | ".npmrc" | ".pypirc" | ".pgpass" | "credentials" | "id_rsa" | "id_ed25519"
        )
        || matches!(extension, "pem" | "key" | "p12" | "pfx" | "jks" | "keystore")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::context::issue::analyze;

    fn workspace(files: &[(&str, &str)]) -> (tempfile::TempDir, Index) {
        let dir = crate::testing::tempdir();
        for (path, text) in files {
            let path = dir.path().join(path);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        }
        let index = Index::build(dir.path(), None);
        (dir, index)
    }

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
    }

    #[test]
    fn ignored_hidden_away_linked_and_secret_files_are_never_named() {
        let (dir, index) = workspace(&[
            (".git/HEAD", "ref: refs/heads/main\n"),
            (".gitignore", "local.toml\n"),
            ("local.toml", "token = 1\n"),
            (".env", "KEY=1\n"),
            ("deploy/server.pem", "-----BEGIN\n"),
            ("node_modules/pkg/README.md", "dependency\n"),
            ("target/report.html", "output\n"),
            ("src/lib.rs", "pub fn demo() {}\n"),
        ]);
        let outside = crate::testing::tempdir();
        std::fs::write(outside.path().join("notes.md"), "outside\n").unwrap();
        #[cfg(unix)]
        std::os::unix::fs::symlink(outside.path().join("notes.md"), dir.path().join("notes.md")).unwrap();
        let issue = "local.toml, .env, deploy/server.pem, node_modules/pkg/README.md, README.md, target/report.html, \
                     notes.md and ../outside/notes.md";
        assert_eq!(named(&index, issue), Vec::<String>::new());
    }
}
