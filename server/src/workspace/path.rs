//! Paths inside the workspace: parsing what a tool call names, and refusing what leaves the root.
//!
//! A [`WorkspacePath`] can only be built by [`WorkspacePath::parse`], which refuses absolute
//! paths, `..` escapes, `.git` and the run records; [`Root::resolve`] then refuses symlinks
//! that lead outside the root. Nothing else in issuewright turns a model's string into a path.

use std::fmt;
use std::path::{Component, Path, PathBuf};

/// Why a path named by a tool call was refused.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum PathError {
    /// The path is empty or only `.`.
    #[error("the path is empty; name a file relative to the workspace root, e.g. `src/main.rs`")]
    Empty,
    /// An absolute path, a drive letter or a home-relative path.
    #[error("`{0}` is absolute; paths are relative to the workspace root (write `src/lib.rs`, not `/src/lib.rs`)")]
    Absolute(String),
    /// `..` components climb above the root.
    #[error("`{0}` leaves the workspace root through `..`")]
    EscapesRoot(String),
    /// Backslashes, NUL or other control characters.
    #[error("`{0}` contains {1}; use plain `/`-separated relative paths")]
    BadCharacter(String, &'static str),
    /// Anything under `.git/`.
    #[error("`{0}` is inside `.git/`, which issuewright never reads or writes")]
    GitDirectory(String),
    /// Anything under `.issuewright/`, where run records live.
    #[error("`{0}` is inside `.issuewright/`, which holds run records and is not part of the project")]
    RunRecords(String),
    /// A symlink on the way resolves to a place outside the root.
    #[error("`{0}` goes through a symlink that resolves outside the workspace root")]
    SymlinkEscape(String),
}

/// A normalised, `/`-separated path relative to the workspace root, known not to escape it.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
#[serde(transparent)]
pub struct WorkspacePath(String);

impl WorkspacePath {
    /// Validates a path as written in a tool call, e.g. `src/./lib.rs` becomes `src/lib.rs`.
    pub fn parse(raw: &str) -> Result<Self, PathError> {
        let normalised = normalise(raw)?;
        if normalised.is_empty() {
            return Err(PathError::Empty);
        }
        Ok(Self(normalised))
    }

    /// Like [`parse`](Self::parse) but `""` and `.` name the root itself (for listings).
    pub fn parse_dir(raw: &str) -> Result<Self, PathError> {
        normalise(raw).map(Self)
    }

    /// The root directory itself.
    pub fn root() -> Self {
        Self(String::new())
    }

    /// True for the root directory.
    pub fn is_root(&self) -> bool {
        self.0.is_empty()
    }

    /// The path as `a/b/c`.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The containing directory (the root for top-level entries); `None` for the root.
    pub fn parent(&self) -> Option<WorkspacePath> {
        if self.is_root() {
            return None;
        }
        Some(match self.0.rfind('/') {
            Some(slash) => Self(self.0[..slash].to_owned()),
            None => Self::root(),
        })
    }

    /// True when `self` is `dir` or lies below it.
    pub fn is_within(&self, dir: &WorkspacePath) -> bool {
        dir.is_root()
            || self.0 == dir.0
            || (self.0.starts_with(&dir.0) && self.0.as_bytes().get(dir.0.len()) == Some(&b'/'))
    }

    /// A child of this directory; `name` must be one plain component.
    pub fn join_name(&self, name: &str) -> Result<WorkspacePath, PathError> {
        if self.is_root() { Self::parse(name) } else { Self::parse(&format!("{}/{}", self.0, name)) }
    }
}

impl fmt::Display for WorkspacePath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_root() { f.write_str(".") } else { f.write_str(&self.0) }
    }
}

impl<'de> serde::Deserialize<'de> for WorkspacePath {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let raw = String::deserialize(deserializer)?;
        Self::parse_dir(&raw).map_err(serde::de::Error::custom)
    }
}

/// Whether a path component names `reserved` (a dotted name, `.git`) on a case-insensitive
/// file system (macOS, Windows): case, trailing dots and spaces, and characters such file
/// systems ignore (zero-width joiners and the like) do not matter, nor on NTFS a stream
/// named after it (`.git::$INDEX_ALLOCATION`) or its short 8.3 name (`GIT~1`).
fn folds_to(part: &str, reserved: &str) -> bool {
    let folded: String = part
        .chars()
        .filter(
            |c| !matches!(*c, '\u{200b}'..='\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2060}'..='\u{206f}' | '\u{feff}'),
        )
        .collect::<String>();
    let folded = folded.split(':').next().unwrap_or_default().trim_end_matches(['.', ' ']).to_lowercase();
    if folded == reserved {
        return true;
    }
    // The short name: the first six characters after the dot, `~` and a number.
    let stem: String = reserved.trim_start_matches('.').chars().take(6).collect();
    folded
        .strip_prefix(&stem)
        .and_then(|rest| rest.strip_prefix('~'))
        .is_some_and(|number| !number.is_empty() && number.bytes().all(|b| b.is_ascii_digit()))
}

/// Whether `path` begins with a Windows drive (`C:`).
fn names_a_drive(path: &str) -> bool {
    path.len() >= 2 && path.as_bytes()[1] == b':' && path.as_bytes()[0].is_ascii_alphabetic()
}

fn normalise(raw: &str) -> Result<String, PathError> {
    if let Some(bad) = raw.chars().find(|c| *c == '\\' || c.is_control()) {
        let what = if bad == '\\' { "a backslash" } else { "a control character" };
        return Err(PathError::BadCharacter(raw.to_owned(), what));
    }
    if raw.starts_with('/') || raw.starts_with('~') || names_a_drive(raw) {
        return Err(PathError::Absolute(raw.to_owned()));
    }
    let mut parts: Vec<&str> = Vec::new();
    for part in raw.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                if parts.pop().is_none() {
                    return Err(PathError::EscapesRoot(raw.to_owned()));
                }
            }
            _ if folds_to(part, ".git") => return Err(PathError::GitDirectory(raw.to_owned())),
            _ => parts.push(part),
        }
    }
    if parts.first().is_some_and(|first| folds_to(first, ".issuewright")) {
        return Err(PathError::RunRecords(raw.to_owned()));
    }
    // `./C:/Users` comes to name a drive once its `.` is gone.
    if parts.first().is_some_and(|first| names_a_drive(first)) {
        return Err(PathError::Absolute(raw.to_owned()));
    }
    Ok(parts.join("/"))
}

/// `a/./b/../c` as `a/c`, without touching the disk.
pub fn lexical_normal(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

/// The workspace root on disk: the one directory tool calls may read and stage changes in.
#[derive(Clone, Debug)]
pub struct Root {
    /// As the editor or the user named it (absolute): paths and URIs handed out use this
    /// form, so they match the editor's own (`/home/me/p` where `/home` is a link).
    path: PathBuf,
    /// With every link resolved, for the symlink checks.
    canonical: PathBuf,
}

impl Root {
    /// The root at `path` (made absolute; canonicalised when it holds `.` or `..`).
    pub fn new(path: &Path) -> std::io::Result<Self> {
        let canonical = path.canonicalize()?;
        let absolute = std::path::absolute(path)?;
        let plain = absolute.components().all(|c| matches!(c, Component::RootDir | Component::Normal(_)));
        let path = if plain { absolute } else { canonical.clone() };
        Ok(Self { path, canonical })
    }

    /// The root directory, in the form it was named.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The absolute path for `relative`, after checking every existing component on the way:
    /// a symlink whose target resolves outside the root is refused.
    pub fn resolve(&self, relative: &WorkspacePath) -> Result<PathBuf, PathError> {
        self.real_relative(relative)?;
        Ok(self.path.join(relative.as_str()))
    }

    /// Whether `relative` names a credentials file (see [`holds_secrets`](super::holds_secrets)),
    /// by its own name or by where its links lead inside the root (`src/env.ts -> ../.env`).
    pub fn names_secrets(&self, relative: &WorkspacePath) -> bool {
        super::holds_secrets(relative.as_str())
            || self.real_relative(relative).is_ok_and(|real| real != relative.as_str() && super::holds_secrets(&real))
    }

    /// Where `relative` really leads inside the root, its links followed (`self/.env` for a
    /// link `self -> .` is `.env`), checking every existing component on the way: a symlink
    /// whose target resolves outside the root is refused, and so is a path that reaches the
    /// run records at the top or a `.git` folder through a link.
    pub fn real_relative(&self, relative: &WorkspacePath) -> Result<String, PathError> {
        let mut current = self.path.clone();
        // The path so far as it lies inside the root, links resolved.
        let mut real: Vec<String> = Vec::new();
        let mut on_disk = true;
        let mut linked = false;
        for part in relative.as_str().split('/').filter(|p| !p.is_empty()) {
            current.push(part);
            let link = on_disk
                && match std::fs::symlink_metadata(&current) {
                    Ok(metadata) => metadata.file_type().is_symlink(),
                    // Not on disk (yet): nothing further down can be a symlink.
                    Err(_) => {
                        on_disk = false;
                        false
                    }
                };
            if !link {
                real.push(part.to_owned());
                continue;
            }
            // Where it leads, inside the root; a dangling link could be created outside later.
            let Some(rest) = current
                .canonicalize()
                .ok()
                .and_then(|target| target.strip_prefix(&self.canonical).ok().map(Path::to_owned))
            else {
                return Err(PathError::SymlinkEscape(relative.to_string()));
            };
            real = rest.components().filter_map(|c| c.as_os_str().to_str()).map(str::to_owned).collect();
            current = self.canonical.join(&rest);
            linked = true;
        }
        // A link may not lead where a path may not go: the run records at the top, `.git` at
        // any depth (as for plain paths; a nested repository's hooks too), also where the rest
        // of the path goes on below the link.
        if linked {
            if real.first().is_some_and(|top| folds_to(top, ".issuewright")) {
                return Err(PathError::RunRecords(relative.to_string()));
            }
            if real.iter().any(|part| folds_to(part, ".git")) {
                return Err(PathError::GitDirectory(relative.to_string()));
            }
        }
        Ok(real.join("/"))
    }

    /// The workspace path of a path a person gives: relative to the root (`src/walk.rs`,
    /// `./src/walk.rs`), absolute inside it, or a `file:` URI of a place inside it; none for
    /// one outside the workspace or that a tool may not name.
    pub fn path_given(&self, given: &str) -> Option<WorkspacePath> {
        let absolute = if given.starts_with("file:") {
            tower_lsp::lsp_types::Url::parse(given).ok()?.to_file_path().ok()?
        } else if Path::new(given).is_absolute() {
            PathBuf::from(given)
        } else {
            return WorkspacePath::parse(given).ok();
        };
        self.relative(&absolute)
    }

    /// The workspace path of an absolute path below the root, if it is one a tool may name.
    pub fn relative(&self, absolute: &Path) -> Option<WorkspacePath> {
        let rest = absolute.strip_prefix(&self.path).or_else(|_| absolute.strip_prefix(&self.canonical)).ok()?;
        let mut parts = Vec::new();
        for component in rest.components() {
            match component {
                Component::Normal(part) => parts.push(part.to_str()?),
                _ => return None,
            }
        }
        WorkspacePath::parse_dir(&parts.join("/")).ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reserved_folders_are_refused_in_any_spelling_a_file_system_folds() {
        for raw in [
            ".GIT/config",
            "src/.Git/hooks/pre-commit",
            ".git./config",
            ".g\u{200c}it/config",
            ".git /x",
            "GIT~1/hooks/pre-commit",
            ".git::$INDEX_ALLOCATION/hooks/pre-commit",
            ".git:stream",
        ] {
            assert!(matches!(WorkspacePath::parse(raw), Err(PathError::GitDirectory(_))), "{raw}");
        }
        assert!(matches!(WorkspacePath::parse(".IssueWright/runs/x"), Err(PathError::RunRecords(_))));
        assert!(matches!(WorkspacePath::parse("ISSUEW~2/runs/x"), Err(PathError::RunRecords(_))));
        assert!(WorkspacePath::parse("docs/git~log.md").is_ok() && WorkspacePath::parse("git~x/a").is_ok());
        assert!(WorkspacePath::parse(".github/workflows/ci.yml").is_ok());
        assert!(WorkspacePath::parse("src/gitignore.rs").is_ok());
    }

    #[test]
    fn a_root_named_through_a_link_keeps_its_name_and_its_checks() {
        let dir = crate::testing::tempdir();
        let real = dir.path().join("real");
        std::fs::create_dir_all(real.join("src")).unwrap();
        std::fs::create_dir_all(dir.path().join("outside")).unwrap();
        std::os::unix::fs::symlink(&real, dir.path().join("alias")).unwrap();
        std::os::unix::fs::symlink(dir.path().join("outside"), real.join("escape")).unwrap();
        let root = Root::new(&dir.path().join("alias")).unwrap();
        assert_eq!(root.path(), dir.path().join("alias"), "paths handed out keep the editor's form");
        let lib = WorkspacePath::parse("src/lib.rs").unwrap();
        assert_eq!(root.relative(&dir.path().join("alias/src/lib.rs")), Some(lib.clone()));
        assert_eq!(root.relative(&real.canonicalize().unwrap().join("src/lib.rs")), Some(lib.clone()));
        assert_eq!(root.resolve(&lib).unwrap(), dir.path().join("alias/src/lib.rs"));
        let escape = WorkspacePath::parse("escape/x.rs").unwrap();
        assert!(matches!(root.resolve(&escape), Err(PathError::SymlinkEscape(_))));
        std::fs::create_dir_all(real.join(".git")).unwrap();
        std::os::unix::fs::symlink(real.join(".git"), real.join("gitlink")).unwrap();
        let through = WorkspacePath::parse("gitlink/config").unwrap();
        assert!(matches!(root.resolve(&through), Err(PathError::GitDirectory(_))), "a link into .git");
        std::fs::create_dir_all(real.join("vendor/lib/.git/hooks")).unwrap();
        std::os::unix::fs::symlink(real.join("vendor/lib/.git/hooks"), real.join("hooks")).unwrap();
        let nested = WorkspacePath::parse("hooks/post-checkout").unwrap();
        assert!(matches!(root.resolve(&nested), Err(PathError::GitDirectory(_))), "a link into a nested .git");
        let dotted = Root::new(&dir.path().join("real/src/..")).unwrap();
        assert_eq!(dotted.path(), real.canonicalize().unwrap());
    }

    #[test]
    fn plain_relative_paths_are_normalised() {
        assert_eq!(WorkspacePath::parse("src/./lib.rs").unwrap().as_str(), "src/lib.rs");
        assert_eq!(WorkspacePath::parse("src//a/../b.rs").unwrap().as_str(), "src/b.rs");
        assert_eq!(WorkspacePath::parse_dir(".").unwrap(), WorkspacePath::root());
    }

    #[test]
    fn absolute_paths_are_refused() {
        for raw in ["/etc/passwd", "~/x", "C:/Windows", "c:x", "./C:/Users/me/x.cmd", "a/../C:/x"] {
            assert!(matches!(WorkspacePath::parse(raw), Err(PathError::Absolute(_))), "{raw}");
        }
    }

    #[test]
    fn climbing_above_the_root_is_refused() {
        assert!(matches!(WorkspacePath::parse("../x"), Err(PathError::EscapesRoot(_))));
        assert!(matches!(WorkspacePath::parse("a/../../x"), Err(PathError::EscapesRoot(_))));
        assert!(WorkspacePath::parse("a/../x").is_ok(), "staying inside is fine");
    }

    #[test]
    fn git_and_run_records_are_refused_anywhere() {
        assert!(matches!(WorkspacePath::parse(".git/config"), Err(PathError::GitDirectory(_))));
        assert!(matches!(WorkspacePath::parse("vendor/.git/HEAD"), Err(PathError::GitDirectory(_))));
        assert!(matches!(WorkspacePath::parse(".git"), Err(PathError::GitDirectory(_))));
        assert!(matches!(WorkspacePath::parse("./.issuewright/runs/x/ledger.jsonl"), Err(PathError::RunRecords(_))));
        assert!(WorkspacePath::parse(".gitignore").is_ok());
    }

    #[test]
    fn backslashes_and_control_characters_are_refused() {
        assert!(matches!(WorkspacePath::parse("a\\b"), Err(PathError::BadCharacter(..))));
        assert!(matches!(WorkspacePath::parse("a\0b"), Err(PathError::BadCharacter(..))));
        assert!(matches!(WorkspacePath::parse("a\nb"), Err(PathError::BadCharacter(..))));
    }

    #[test]
    fn empty_paths_are_refused_for_files() {
        assert_eq!(WorkspacePath::parse(""), Err(PathError::Empty));
        assert_eq!(WorkspacePath::parse("./"), Err(PathError::Empty));
    }

    #[test]
    fn parents_and_containment() {
        let path = WorkspacePath::parse("a/b/c.rs").unwrap();
        assert_eq!(path.parent().unwrap().as_str(), "a/b");
        assert_eq!(WorkspacePath::parse("c.rs").unwrap().parent(), Some(WorkspacePath::root()));
        assert!(path.is_within(&WorkspacePath::parse("a").unwrap()));
        assert!(!path.is_within(&WorkspacePath::parse("a/b/c").unwrap()));
        assert!(!WorkspacePath::parse("ab/x").unwrap().is_within(&WorkspacePath::parse("a").unwrap()));
    }

    #[cfg(unix)]
    #[test]
    fn symlinks_are_followed_only_while_they_stay_inside() {
        let outside = crate::testing::tempdir();
        let workspace = crate::testing::tempdir();
        std::fs::create_dir(workspace.path().join("real")).unwrap();
        std::os::unix::fs::symlink(outside.path(), workspace.path().join("out")).unwrap();
        std::os::unix::fs::symlink(workspace.path().join("real"), workspace.path().join("in")).unwrap();
        std::os::unix::fs::symlink("/nonexistent/target", workspace.path().join("dangling")).unwrap();
        let root = Root::new(workspace.path()).unwrap();

        let escape = WorkspacePath::parse("out/secret.txt").unwrap();
        assert_eq!(root.resolve(&escape), Err(PathError::SymlinkEscape("out/secret.txt".into())));
        let dangling = WorkspacePath::parse("dangling").unwrap();
        assert!(matches!(root.resolve(&dangling), Err(PathError::SymlinkEscape(_))));
        let inside = WorkspacePath::parse("in/file.txt").unwrap();
        assert!(root.resolve(&inside).is_ok());
        let fresh = WorkspacePath::parse("new/dir/file.txt").unwrap();
        assert_eq!(root.resolve(&fresh).unwrap(), root.path().join("new/dir/file.txt"));
    }

    #[test]
    fn absolute_paths_below_the_root_map_back() {
        let workspace = crate::testing::tempdir();
        let root = Root::new(workspace.path()).unwrap();
        let absolute = root.path().join("src").join("lib.rs");
        assert_eq!(root.relative(&absolute).unwrap().as_str(), "src/lib.rs");
        assert!(root.relative(Path::new("/elsewhere/x")).is_none());
        assert!(root.relative(&root.path().join(".git/HEAD")).is_none());
    }
}
