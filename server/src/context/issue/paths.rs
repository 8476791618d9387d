//! The files and folders an issue names: source paths, paths of other files, folders, and
//! the lines they point at, from plain paths, Windows paths, links to a forge and doctest
//! names.

use std::borrow::Cow;

use super::frames::{java_frames, without_foreign_frames};
use super::markdown::{Region, regions};
use super::own_code::OwnCode;

/// Source file extensions recognised in mentions.
pub(super) const SOURCE_EXTENSIONS: [&str; 13] =
    ["rs", "java", "ts", "tsx", "mts", "cts", "js", "jsx", "mjs", "cjs", "kt", "go", "py"];

/// Extensions of files other than source that issues name (`README.md`, `Cargo.toml`); not
/// those that are as often a field or method (`shared.lock`, `res.json`, `el.html`).
const TEXT_EXTENSIONS: [&str; 9] = ["md", "txt", "toml", "yml", "yaml", "xml", "gradle", "properties", "sh"];

/// Whether `extension` is a file's extension, of source or of text.
pub(super) fn is_file_extension(extension: &str) -> bool {
    SOURCE_EXTENSIONS.contains(&extension) || TEXT_EXTENSIONS.contains(&extension)
}

/// Path-like tokens ending in a source extension: `src/walk.rs`, `JsonParser.java`,
/// `tokio-1.2.0/src/io/mod.rs:12:5` (the location suffix dropped), Windows paths
/// (`C:\work\app\src\net\tcp.rs:3:5` names `work/app/src/net/tcp.rs`), and links to a file on
/// a forge (`https://github.com/o/r/blob/main/src/walk.rs#L10-L20` names `src/walk.rs`).
pub(super) fn path_mentions(text: &str) -> Vec<String> {
    path_tokens(text)
        .filter(|token| token.rsplit_once('.').is_some_and(|(_, extension)| SOURCE_EXTENSIONS.contains(&extension)))
        .filter(|token| token.len() > 3)
        .collect()
}

/// The source paths `text` gives (see [`path_mentions`]) that may be of the workspace's code
/// (see [`OwnCode::may_hold_file`]), a path into an installed copy of one of its npm packages
/// as the package's path in the workspace (see [`OwnCode::in_own_package`]).
pub(super) fn own_path_mentions(text: &str, own: &OwnCode) -> Vec<String> {
    path_mentions(text)
        .into_iter()
        .filter(|path| own.may_hold_file(path))
        .map(|path| own.in_own_package(&path).unwrap_or(path))
        .collect()
}

/// The tokens of `text` that may be paths, as the index spells paths (see
/// [`path_mentions`]).
fn path_tokens(text: &str) -> impl Iterator<Item = String> + '_ {
    located_path_tokens(text).map(|(path, _)| path)
}

/// The tokens of `text` that may be paths, as the index spells paths: links to a forge cut
/// to their path, a location suffix dropped, backslashes turned to slashes, a leading `./`
/// gone; each with the line its location (`:12:5`) or link anchor (`#L12`) gives.
fn located_path_tokens(text: &str) -> impl Iterator<Item = (String, Option<u32>)> + '_ {
    text.split(|c: char| {
        c.is_whitespace() || matches!(c, '(' | ')' | '[' | ']' | '<' | '>' | '"' | '\'' | ',' | '`' | '|')
    })
    .filter_map(|token| {
        // A forge link's anchor: `#L12` or `#L12-L20`.
        let anchor = token.split_once("#L").and_then(|(_, anchor)| {
            anchor.split(|c: char| !c.is_ascii_digit()).next().and_then(|digits| digits.parse().ok())
        });
        let linked = linked_path(token);
        let (path, line) = split_location(&linked);
        path.contains('.').then(|| (forward_slashes(path).trim_start_matches("./").to_owned(), line.or(anchor)))
    })
}

/// `token` without the sentence's closing `.`, `:`, `;`, `!` or `?` and a location after the path
/// (`src/walk.rs:12:5`, `C:\app\main.rs:3`, a range `src/walk.rs:12-20`, `:12..20` or
/// `:L12-L20`; an extension's digits stay, `clip.mp4`), and the line of the location it
/// dropped (`12`).
fn split_location(token: &str) -> (&str, Option<u32>) {
    let mut token = token.trim_end_matches(['.', ':', ';', '!', '?']);
    let mut line = None;
    while let Some((before, after)) = token.rsplit_once(':') {
        let Some(first) = location_line(after) else { break };
        // The number nearest the path is its line; a column follows it.
        line = Some(first);
        token = before;
    }
    (token.trim_end_matches('.'), line)
}

/// The first line of a location after a path: `12`, a range (`12-20`, `12..20`), or either as
/// forges write them (`L12`, `L12-L20`). None for anything else.
fn location_line(location: &str) -> Option<u32> {
    let digits = |text: &str| !text.is_empty() && text.bytes().all(|byte| byte.is_ascii_digit());
    let location = location.strip_prefix('L').unwrap_or(location);
    let (first, last) = match location.split_once('-').or_else(|| location.split_once("..")) {
        Some((first, last)) => (first, Some(last.strip_prefix('L').unwrap_or(last))),
        None => (location, None),
    };
    (digits(first) && last.is_none_or(digits)).then(|| first.parse().ok()).flatten()
}

/// Most paths whose lines are kept from one issue.
const MAX_LOCATIONS: usize = 16;

/// Most lines kept for one path (frames of one trace into one file).
const MAX_LINES_PER_PATH: usize = 4;

/// How many different paths `found` holds.
fn distinct_paths(found: &[(String, u32)]) -> usize {
    let mut paths: Vec<&str> = found.iter().map(|(path, _)| path.as_str()).collect();
    paths.sort_unstable();
    paths.dedup();
    paths.len()
}

/// Where the source paths of `text` that carry a line point (see
/// [`IssueQuery::locations`](super::IssueQuery::locations)); of a stack trace, the frames of
/// the code `own` says the workspace may hold.
pub(super) fn path_locations(text: &str, own: &OwnCode) -> Vec<(String, u32)> {
    let text: &str = &without_foreign_frames(text, own);
    let mut found: Vec<(String, u32)> = Vec::new();
    let mut note = |path: String, line: Option<u32>| {
        if !own.may_hold_file(&path) {
            return;
        }
        let path = own.in_own_package(&path).unwrap_or(path);
        let given = found.iter().filter(|(known, _)| *known == path).count();
        if let Some(line) = line.filter(|line| *line > 0)
            && !found.iter().any(|(known, known_line)| *known == path && *known_line == line)
            && if given == 0 { distinct_paths(&found) < MAX_LOCATIONS } else { given < MAX_LINES_PER_PATH }
        {
            found.push((path, line));
        }
    };
    for frame in java_frames(text, own) {
        note(frame.0, frame.2);
    }
    for (path, line) in doctest_locations(text) {
        note(path, Some(line));
    }
    for (path, line) in located_path_tokens(text) {
        if path.rsplit_once('.').is_some_and(|(_, extension)| SOURCE_EXTENSIONS.contains(&extension))
            || names_other_file(&path)
        {
            note(path, line);
        }
    }
    found
}

/// Most paths of other files kept from one issue.
pub(super) const MAX_OTHER_FILES: usize = 8;

/// Files without an extension that projects keep by name.
const KNOWN_FILE_NAMES: [&str; 10] = [
    "Makefile",
    "Dockerfile",
    "Containerfile",
    "Justfile",
    "Jenkinsfile",
    "Gemfile",
    "Rakefile",
    "Procfile",
    "CODEOWNERS",
    "LICENSE",
];

/// Paths the prose and inline code of `text` give of files in no source language: a
/// path whose name has an extension of letters and digits (`README.md`,
/// `config/app.yaml`, `.github/workflows/ci.yml`) or is one projects keep by name
/// (`Makefile`). Code blocks give none: a reproduction's `config.json` is the reporter's.
pub(super) fn other_file_mentions(text: &str) -> Vec<String> {
    let mut found: Vec<String> = Vec::new();
    for (region, piece) in regions(text) {
        if region == Region::CodeBlock {
            continue;
        }
        let known = piece
            .split(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '.' | '/' | '_' | '-')))
            .filter(|token| token.rsplit('/').next().is_some_and(|name| KNOWN_FILE_NAMES.contains(&name)))
            .map(|token| token.trim_start_matches("./").to_owned());
        for token in path_tokens(piece).chain(known) {
            if names_other_file(&token) && !found.contains(&token) && found.len() < MAX_OTHER_FILES {
                found.push(token);
            }
        }
    }
    found
}

/// Most folders kept from one issue.
pub(super) const MAX_FOLDERS: usize = 8;

/// Paths of folders the prose and inline code of `text` give: a relative path of two folders
/// or more (`src/runtime/scheduler`), or of one with a trailing `/` (`fshelper/`), whose
/// names are plain (letters, digits, `_`, `-`, `.` but not as the last name's extension).
/// `and/or` reads as a folder too; only folders the workspace has count.
pub(super) fn folder_mentions(text: &str) -> Vec<String> {
    let mut found: Vec<String> = Vec::new();
    for (region, piece) in regions(text) {
        if region == Region::CodeBlock {
            continue;
        }
        for token in piece
            .split(|c: char| c.is_whitespace() || matches!(c, '(' | ')' | '[' | ']' | '"' | '\'' | ',' | '`' | '|'))
        {
            let token = token.trim_end_matches(['.', ':', ';', '!', '?']);
            let token = token.strip_prefix("./").unwrap_or(token);
            let (path, trailing) = match token.strip_suffix('/') {
                Some(path) => (path, true),
                None => (token, false),
            };
            let parts: Vec<&str> = path.split('/').collect();
            let plain = parts.iter().all(|part| {
                !part.is_empty()
                    && *part != ".."
                    && part.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'))
            });
            let last_is_file =
                parts.last().is_some_and(|last| last.rsplit_once('.').is_some_and(|(stem, _)| !stem.is_empty()));
            if plain
                && !last_is_file
                && (parts.len() > 1 || trailing)
                && !found.iter().any(|f| f == path)
                && found.len() < MAX_FOLDERS
            {
                found.push(path.to_owned());
            }
        }
    }
    found
}

/// Extensions beside [`TEXT_EXTENSIONS`] of the files in no source language an issue names by
/// their name alone (`package.json`, `clip.mp4`): a name with another after its dot is code
/// more often than a file (`res.send`, `Model.init`, `e.g`), while a path with folders may end
/// in any. `py` and `go` serve a name written in capitals (`SETUP.PY`), as the source
/// extensions are told in lower case.
const BARE_NAME_EXTENSIONS: &str = "markdown mdx rst adoc log json jsonc json5 lock lockb conf cfg ini env kts pom \
     html htm css scss sass less svg png jpg jpeg gif webp ico bmp mp4 mov webm mp3 wav pdf csv tsv sql sqlite db \
     bash zsh fish ps1 bat cmd proto graphql gql vue svelte astro lua vim nix zig py rb go c h cpp hpp cc cs swift \
     scala php dart wasm patch diff zip gz tgz tar jar war class exe dll so dylib pem crt snap";

/// Whether a file named without folders may have `extension`: one of [`TEXT_EXTENSIONS`] or
/// [`BARE_NAME_EXTENSIONS`], in any case.
fn is_bare_name_extension(extension: &str) -> bool {
    TEXT_EXTENSIONS
        .iter()
        .copied()
        .chain(BARE_NAME_EXTENSIONS.split_whitespace())
        .any(|known| known.eq_ignore_ascii_case(extension))
}

/// Whether `token` reads as the path of a file in no source language: relative, or absolute
/// (`/home/me/app/config/app.yaml`); a name without folders only with an extension of
/// [`is_bare_name_extension`].
fn names_other_file(token: &str) -> bool {
    let plain = token.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '/' | '_' | '-' | '@' | '+'));
    let relative = token.strip_prefix('/').unwrap_or(token);
    if !plain || relative.split('/').any(|part| part.is_empty() || part == "..") {
        return false;
    }
    let name = token.rsplit('/').next().unwrap_or(token);
    if KNOWN_FILE_NAMES.contains(&name) {
        return true;
    }
    let Some((stem, extension)) = name.rsplit_once('.') else { return false };
    let hidden = stem.is_empty() && name.len() > 2;
    (hidden || stem.trim_start_matches('.').chars().any(|c| c.is_ascii_alphabetic()))
        && (1..=10).contains(&extension.len())
        && extension.chars().all(|c| c.is_ascii_alphanumeric())
        && extension.chars().any(|c| c.is_ascii_alphabetic())
        && !SOURCE_EXTENSIONS.contains(&extension)
        && (hidden || token.contains('/') || is_bare_name_extension(extension))
}

/// A path as the index spells it: a Windows path's backslashes become slashes and its drive
/// (`C:`) goes. In a token that is no Windows path, a backslash before punctuation is
/// Markdown's escape (`my\_file.rs`) and is dropped; a Windows path is one with a drive or a
/// backslash before a letter or digit, and then every backslash parts folders
/// (`src\__tests__\store.test.ts`).
fn forward_slashes(token: &str) -> String {
    let (token, drive) = match token.as_bytes() {
        [drive, b':', b'\\' | b'/', ..] if drive.is_ascii_alphabetic() => {
            (token[3..].trim_start_matches(['\\', '/']), true)
        }
        _ => (token, false),
    };
    let windows = drive || token.as_bytes().windows(2).any(|pair| pair[0] == b'\\' && pair[1].is_ascii_alphanumeric());
    let mut path = String::with_capacity(token.len());
    let mut chars = token.chars().peekable();
    while let Some(c) = chars.next() {
        match (c, chars.peek()) {
            // A run of backslashes is one break: `src\\net\\tcp.rs` as Rust or JSON escapes it.
            ('\\', _) if windows => {
                while chars.next_if_eq(&'\\').is_some() {}
                path.push('/');
            }
            ('\\', Some(next)) if next.is_ascii_punctuation() && *next != '.' => {}
            ('\\', _) => path.push('/'),
            _ => path.push(c),
        }
    }
    path
}

/// Where a link to a file on a forge points inside its repository: the path after
/// `/blob/REF/` (GitHub, GitLab's `/-/blob/REF/`), `/src/branch/REF/`, `/src/commit/REF/` or
/// `/src/tag/REF/` (Gitea, Forgejo), without `#L12` or `?plain=1`; a rustdoc source page
/// (`docs.rs/CRATE/VERSION/src/CRATE_NAME/io/mod.rs.html`) names `src/io/mod.rs`. Other
/// text is returned as it is.
fn linked_path(token: &str) -> Cow<'_, str> {
    let is_address = |text: &str| text.starts_with("https://") || text.starts_with("http://");
    // An address glued after an underscore (Markdown's `\_` before it) starts at its scheme.
    let token = match token.find("http") {
        Some(at) if token[..at].ends_with('_') && is_address(&token[at..]) => &token[at..],
        _ => token,
    };
    if !is_address(token) {
        // A relative link with a line anchor, as Markdown writes one: `GUIDE.md#L302`.
        return Cow::Borrowed(token.split_once("#L").map_or(token, |(path, _)| path));
    }
    let token = token.split(['#', '?']).next().unwrap_or(token);
    for marker in ["/blob/", "/src/branch/", "/src/commit/", "/src/tag/"] {
        if let Some((_, after)) = token.split_once(marker) {
            // The next component is the branch, tag or commit.
            return Cow::Borrowed(after.split_once('/').map_or(token, |(_, path)| path));
        }
    }
    if let Some(source) = token.strip_suffix(".rs.html")
        && let Some((_, after)) = source.rsplit_once("/src/")
        && let Some((_crate_name, path)) = after.split_once('/')
    {
        return Cow::Owned(format!("src/{path}.rs"));
    }
    Cow::Borrowed(token)
}

/// A Rust doctest as `cargo test` names it, `src/sync/mod.rs - sync::Semaphore (line 62)`
/// (a crate's own: `src/lib.rs - (line 500)`): the file and the line its example starts on.
static DOCTEST: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
    regex::Regex::new(r"([\w./\\-]+\.rs) - [^\n()]{0,200}\(line (\d{1,9})\)").expect("the doctest pattern compiles")
});

/// The files and lines of the Rust doctests `text` names (see [`DOCTEST`]).
fn doctest_locations(text: &str) -> Vec<(String, u32)> {
    DOCTEST
        .captures_iter(text)
        .filter_map(|found| Some((found[1].replace('\\', "/"), found[2].parse().ok()?)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::context::issue::analyze;

    #[test]
    fn paths_and_locations() {
        let query =
            analyze("Panic at tokio-1.21.2/src/runtime/task/harness.rs:123:45 and in `src/walk.rs`, also Cargo.toml.");
        let paths: Vec<&str> = query.paths.iter().map(|(p, _)| p.as_str()).collect();
        assert!(paths.contains(&"tokio-1.21.2/src/runtime/task/harness.rs"), "{paths:?}");
        assert!(paths.contains(&"src/walk.rs"), "{paths:?}");
        assert!(!paths.iter().any(|p| p.contains("Cargo")), "{paths:?}");
        assert_eq!(query.locations, [("tokio-1.21.2/src/runtime/task/harness.rs".to_owned(), 123)]);

        let query = analyze("Slow; see src/walk.rs; src/exec/job.rs:40! Or README.md? Or docs/a.md;");
        let paths: Vec<&str> = query.paths.iter().map(|(p, _)| p.as_str()).collect();
        assert!(paths.contains(&"src/walk.rs") && paths.contains(&"src/exec/job.rs"), "{paths:?}");
        assert_eq!(query.locations, [("src/exec/job.rs".to_owned(), 40)], "a sentence's mark after the line");
        assert_eq!(query.other_files, ["README.md", "docs/a.md"]);

        let query = analyze(
            "Crash\n```\nat com.acme.Lexer.next(Lexer.java:12)\nat com.acme.Lexer.next(Lexer.java:40)\n\
             thread 'main' panicked at C:\\app\\src\\main.rs:3:5:\n```\n\
             See https://github.com/o/r/blob/main/src/walk.rs#L10-L20, src/walk.rs:99 and src/lib.rs:0.",
        );
        let located: Vec<(&str, u32)> = query.locations.iter().map(|(p, l)| (p.as_str(), *l)).collect();
        assert_eq!(
            located,
            [
                ("com/acme/Lexer.java", 12),
                ("com/acme/Lexer.java", 40),
                ("Lexer.java", 12),
                ("Lexer.java", 40),
                ("app/src/main.rs", 3),
                ("src/walk.rs", 10),
                ("src/walk.rs", 99)
            ],
            "every line given for each path, the first first; line 0 is none"
        );
        for (path, _) in &query.locations {
            assert!(query.paths.iter().any(|(p, _)| p == path), "{path} is spelt as the paths are");
        }
        let query = analyze(
            "`src/runtime/mod.rs:120-140` drops the waker; so do src/task.rs:L7-L9 and src/io.rs:30..32, not src/a.rs:1-x.",
        );
        let located: Vec<(&str, u32)> = query.locations.iter().map(|(p, l)| (p.as_str(), *l)).collect();
        assert_eq!(located, [("src/runtime/mod.rs", 120), ("src/task.rs", 7), ("src/io.rs", 30)], "line ranges");
        let paths: Vec<&str> = query.paths.iter().map(|(p, _)| p.as_str()).collect();
        assert!(!paths.iter().any(|p| p.starts_with("src/a.rs")), "not a location, not a path: {paths:?}");

        let frames: String = (1..=16).map(|n| format!("at src/parser.rs:{}:5\n", n * 10)).collect();
        let query = analyze(&format!("Crash\n```\n{frames}at src/lexer.rs:200:5\n```\n"));
        let parser = query.locations.iter().filter(|(path, _)| path == "src/parser.rs").count();
        assert_eq!(parser, MAX_LINES_PER_PATH, "{:?}", query.locations);
        assert!(query.locations.contains(&("src/lexer.rs".to_owned(), 200)), "another file keeps its line");

        let query = analyze(
            "Doctests fail\n```\n---- src/sync/mod.rs - sync::Semaphore (line 62) stdout ----\nfailures:\n    \
             src\\io\\mod.rs - io (line 4)\n    src/lib.rs - (line 500)\n    src/a.rs - a (line x)\n```\n",
        );
        assert_eq!(
            query.locations,
            [("src/sync/mod.rs".to_owned(), 62), ("src/io/mod.rs".to_owned(), 4), ("src/lib.rs".to_owned(), 500)],
            "a doctest's file and the line its example starts on"
        );

        let query = analyze("CI fails: .github/workflows/ci.yml#L5, see [guide](docs/GUIDE.md#L302-L310)");
        assert_eq!(
            query.locations,
            [(".github/workflows/ci.yml".to_owned(), 5), ("docs/GUIDE.md".to_owned(), 302)],
            "a relative link's line anchor"
        );

        let query = analyze("CI fails at .github/workflows/ci.yml:40:3 and in `config/app.yaml:12`");
        assert_eq!(
            query.locations,
            [(".github/workflows/ci.yml".to_owned(), 40), ("config/app.yaml".to_owned(), 12)],
            "files in no source language too"
        );
        for (path, _) in &query.locations {
            assert!(query.other_files.contains(path), "{path} is spelt as the other files are");
        }
    }

    #[test]
    fn folders_are_read_from_the_prose_by_their_path() {
        let query = analyze(
            "Deadlock in tokio/src/runtime/scheduler/multi_thread/\n\
             Also `fshelper/`, ./packages/core/src and .github/workflows; not src/walk.rs, /usr/lib, \
             https://example.com/a/b, ../up/there, fshelper or v1.2/3.4.\n\
             ```\nat target/debug/build\n```\n",
        );
        assert_eq!(
            query.folders,
            ["tokio/src/runtime/scheduler/multi_thread", "fshelper", "packages/core/src", ".github/workflows"]
        );
    }

    #[test]
    fn paths_of_files_in_no_source_language_are_kept_apart() {
        let query = analyze(
            "README.md: the install steps are wrong\n\
             The workflow `.github/workflows/ci.yml` and editors/nvim/lua/plugin/init.lua:12:3 too; see the \
             Makefile, clip.mp4, https://github.com/o/r/blob/main/docs/guide.md#setup and `C:\\app\\conf\\app.yaml`.\n\
             Not 1.2.3, e.g. this, nor ../outside.toml, /etc/hosts.conf, src/walk.rs or std::fmt.Display.\n\
             ```toml\n# config.json in my reproduction\n```\n",
        );
        assert_eq!(
            query.other_files,
            [
                "README.md",
                ".github/workflows/ci.yml",
                "editors/nvim/lua/plugin/init.lua",
                "clip.mp4",
                "docs/guide.md",
                "Makefile",
                "app/conf/app.yaml",
                "/etc/hosts.conf"
            ],
            "`../outside.toml` is outside, `e.g` no file"
        );
        // A name after a dot is a member more often than an extension, unless files take it.
        let members = analyze("`res.send()` and app.use(), Model.init or data.csv, `Cargo.lock` and Notes.TXT");
        assert_eq!(members.other_files, ["data.csv", "Cargo.lock", "Notes.TXT"]);
        assert_eq!(analyze("Read /etc/app/hosts.conf fails").other_files, ["/etc/app/hosts.conf"], "absolute too");
        let paths: Vec<&str> = query.paths.iter().map(|(p, _)| p.as_str()).collect();
        assert_eq!(paths, ["src/walk.rs"], "source paths are ranked as before");
    }

    #[test]
    fn windows_paths_name_the_same_files() {
        let query = analyze(
            "Panics on Windows\nthread 'main' panicked at src\\net\\tcp.rs:3:5:\n\
             see C:\\Users\\dev\\app\\crates\\core\\src\\lib.rs:10:1 and d:/app/web/main.mts, \
             .\\scripts\\build.cjs, my\\_file.rs\n\
             src\\__tests__\\store.test.ts C:\\app\\pages\\_app.tsx src\\routes\\+page.ts\n\
             thread 'main' panicked at \"crates\\\\net\\\\src\\\\udp.rs:3:5\" D:\\\\web\\\\src\\\\main.ts\n",
        );
        let paths: Vec<&str> = query.paths.iter().map(|(p, _)| p.as_str()).collect();
        assert_eq!(
            paths,
            [
                "Users/dev/app/crates/core/src/lib.rs",
                "app/pages/_app.tsx",
                "app/web/main.mts",
                "crates/net/src/udp.rs",
                "my_file.rs",
                "scripts/build.cjs",
                "src/__tests__/store.test.ts",
                "src/net/tcp.rs",
                "src/routes/+page.ts",
                "web/src/main.ts"
            ]
        );
    }

    #[test]
    fn links_to_files_on_a_forge_name_their_paths() {
        let query = analyze(
            "Filter bug\nSee [this](https://github.com/o/r/blob/66cd79f/sub/src/filter/layers.rs#L379-L391) and \
             https://github.com/o/r/blob/2.15/src/main/java/a/b/Delegate.java#L314, \
             https://gitlab.com/g/p/-/blob/main/lib/x.ts?plain=1#L3, \
             https://codeberg.org/o/r/src/branch/main/src/y.rs and https://example.com/docs#section, \
             https://docs.rs/tokio-stream/latest/src/tokio_stream/stream_map.rs.html#520, \
             A\\_https://github.com/o/r/blob/main/src/a.rs#L1 and my_http_client.rs.\n",
        );
        let paths: Vec<&str> = query.paths.iter().map(|(p, _)| p.as_str()).collect();
        assert_eq!(
            paths,
            [
                "lib/x.ts",
                "my_http_client.rs",
                "src/a.rs",
                "src/main/java/a/b/Delegate.java",
                "src/stream_map.rs",
                "src/y.rs",
                "sub/src/filter/layers.rs"
            ]
        );
        // Links that stop short of a file name nothing.
        let query = analyze(
            "x\nhttps://github.com/o/r/blob/ https://github.com/o/r/blob/main https:// http://#.rs \
             https://docs.rs/x/latest/src/x.rs.html\n",
        );
        assert!(query.paths.is_empty(), "{:?}", query.paths);
    }
}
