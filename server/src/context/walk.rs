//! Which files the index takes: the walk of a workspace (`.gitignore` and the other ignore
//! files respected, dependencies and build output skipped), and the same judgement for the
//! files the editor and the file watcher report later, which do not come through the walk.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use ignore::gitignore::{Gitignore, GitignoreBuilder};

use super::language::Language;

/// Folders never indexed: dependencies, tool state.
const SKIPPED_DIRS: [&str; 8] =
    ["node_modules", ".gradle", ".idea", ".venv", "venv", "__pycache__", ".git", ".issuewright"];

/// Hidden folders that projects keep in their repository (`.github/workflows/ci.yml`), which
/// searches and named files take although they are hidden; every other hidden folder
/// (`.ssh`, `.config`, `.cargo`, `.cache`) is left out, as tools and users keep credentials
/// and caches there.
pub const HIDDEN_PROJECT_FOLDERS: [&str; 7] =
    [".github", ".gitlab", ".circleci", ".devcontainer", ".husky", ".changeset", ".storybook"];

/// Whether a folder named `name` is hidden and not one a project keeps (see
/// [`HIDDEN_PROJECT_FOLDERS`]): searches and named files leave it out.
pub fn hidden_away(name: &str) -> bool {
    name.starts_with('.') && !HIDDEN_PROJECT_FOLDERS.contains(&name)
}

/// Names build tools give their output folders: never indexed, except inside a `src`
/// folder, where they are packages or modules (`src/main/java/com/acme/build/`), or when
/// the folder is a project of its own (`packages/build/package.json`). A stack frame an issue
/// pastes from a file in one may be of the workspace's own build.
pub(crate) const OUTPUT_DIRS: [&str; 4] = ["target", "dist", "build", "out"];

/// Manifests that make a folder a project: a folder named like build output that holds one
/// is taken as source (a monorepo's `build` package, a repository's `build/` scripts with
/// their own `package.json`). Build tools seldom write one at the top of their output (`tsc`
/// can copy an imported `package.json` there), and output git ignores is skipped anyway.
const PROJECT_MANIFESTS: [&str; 7] =
    ["Cargo.toml", "package.json", "tsconfig.json", "jsconfig.json", "pom.xml", "build.gradle", "build.gradle.kts"];

/// Whether the folder at `relative` (`a/b`) of `root` is one the walk never enters for its
/// name: dependencies (`node_modules`), tool state (`.venv`, `.gradle`) or build output
/// (`target`, `dist`) that holds no project of its own. Searches that should agree with the
/// index ask it too.
pub fn skipped_folder(root: &Path, relative: &str) -> bool {
    let name = relative.rsplit('/').next().unwrap_or(relative);
    SKIPPED_DIRS.contains(&name)
        || (named_like_output(relative)
            && !PROJECT_MANIFESTS.iter().any(|manifest| root.join(relative).join(manifest).is_file()))
}

/// Whether the folder at `relative` is named like build output, outside a `src` folder.
fn named_like_output(relative: &str) -> bool {
    let mut folders = relative.rsplit('/');
    let name = folders.next().unwrap_or(relative);
    OUTPUT_DIRS.contains(&name) && !folders.any(|folder| folder == "src")
}

/// The folder named like build output that the project manifest at `relative` makes source
/// (see [`skipped_folder`]): `packages/build` for `packages/build/package.json`. None for any
/// other file, and for one in a folder the walk enters anyway (inside `src`).
pub(super) fn output_folder_of_manifest(relative: &str) -> Option<&str> {
    let (folder, name) = relative.rsplit_once('/')?;
    (PROJECT_MANIFESTS.contains(&name) && named_like_output(folder)).then_some(folder)
}

/// A source file found by the walk.
pub(super) struct Found {
    /// Relative to the workspace, with `/` separators.
    pub relative: String,
    /// Where it is on disk.
    pub absolute: PathBuf,
    /// Its language, by its extension.
    pub language: Language,
    /// Its size on disk when found.
    pub bytes: u64,
    /// When and how it was last changed, when the file system says.
    pub stamp: Option<FileStamp>,
}

/// What tells that a file on disk has not changed since it was read, as git tells it for
/// its work tree: with the file's size, the times of its last modification and of its last
/// change of status (which a rename, or a tool that puts back the modification time it found,
/// moves too) and its inode. The last two are 0 where the system has none (Windows).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct FileStamp {
    /// Last modification, in nanoseconds since the Unix epoch.
    pub modified: u64,
    /// Last change of status, in nanoseconds since the Unix epoch.
    pub changed: u64,
    /// The file's inode.
    pub inode: u64,
}

impl FileStamp {
    /// The stamp of a file with this metadata, if the system gives its modification time.
    pub(super) fn of(metadata: &std::fs::Metadata) -> Option<Self> {
        let modified = nanos_since_epoch(metadata.modified().ok()?)?;
        #[cfg(unix)]
        let (changed, inode) = {
            use std::os::unix::fs::MetadataExt;
            let seconds = metadata.ctime() as u64;
            (seconds.wrapping_mul(1_000_000_000).wrapping_add(metadata.ctime_nsec() as u64), metadata.ino())
        };
        #[cfg(not(unix))]
        let (changed, inode) = (0, 0);
        Some(Self { modified, changed, inode })
    }
}

/// The folder (`""`: the workspace) whose files the ignore rules in `relative` judge, when
/// it holds rules the walk follows: a `.gitignore` or `.ignore` its own folder's, a
/// `.git/info/exclude` its repository's.
pub(super) fn ruled_folder(relative: &str) -> Option<&str> {
    let (folder, name) = relative.rsplit_once('/').unwrap_or(("", relative));
    if matches!(name, ".gitignore" | ".ignore") {
        return Some(folder);
    }
    match relative.strip_suffix(".git/info/exclude")? {
        "" => Some(""),
        repository => repository.strip_suffix('/'),
    }
}

/// Whether the walk would index `relative` (`a/b.rs`): a source file of a known language
/// that it would visit (`walkable`). For files the editor and the file watcher report,
/// which do not come through the walk.
pub fn indexable(root: &Path, relative: &str) -> bool {
    Language::of_path(relative).is_some() && walkable(root, relative)
}

/// Whether the walk would visit the file `relative` at all: not below a folder it never
/// enters (a linked one among them), not ignored by the rules the walk follows, nor below a folder they ignore, and not
/// hidden (nor below a hidden folder) unless a rule names it. The rules are weighed as the
/// walk weighs them: `.ignore` files first, the deepest that says anything deciding
/// (`!keep.gen.ts` under `*.gen.ts`); then `.gitignore` files, then `.git/info/exclude`, each
/// the same way, from the deepest folder up (in a repository, up to the first folder holding
/// one: see [`crate::workspace::in_repository`]); last the user's global git excludes.
pub(super) fn walkable(root: &Path, relative: &str) -> bool {
    judged_walkable(root, relative, false, false)
}

/// Whether the file `relative`, which an issue names, may be shown for it: [`walkable`],
/// except that a hidden name (`.github/workflows/ci.yml`) does not keep it out.
pub(super) fn shown_when_named(root: &Path, relative: &str) -> bool {
    judged_walkable(root, relative, false, true)
}

/// [`walkable`] for the folder `relative`: whether the walk would enter it (a rule such as
/// `generated/` names folders only, and a folder may be one the walk never enters by name).
pub(super) fn walkable_folder(root: &Path, relative: &str) -> bool {
    judged_walkable(root, relative, true, false)
}

fn judged_walkable(root: &Path, relative: &str, is_folder: bool, hidden_shown: bool) -> bool {
    let parts: Vec<&str> = relative.split('/').collect();
    let folders = if is_folder { parts.len() } else { parts.len() - 1 };
    if (1..=folders).any(|end| skipped_folder(root, &parts[..end].join("/"))) {
        return false;
    }
    // The walk follows no link: what lies below a linked folder is not the workspace's.
    let mut folder = root.to_owned();
    if parts[..folders].iter().any(|part| {
        folder.push(part);
        is_link(&folder)
    }) {
        return false;
    }
    let excludes_depth = crate::workspace::global_excludes_depth(root);
    // The folders above the workspace are those above its real place, as the walk finds them
    // (a workspace opened through a link).
    let root = root.canonicalize().unwrap_or_else(|_| root.to_owned());
    // Each folder's rules, outermost first: the folders above the workspace, and its own.
    let mut levels: Vec<IgnoreLevel> = root.ancestors().map(IgnoreLevel::read).collect();
    levels.reverse();
    // What `crate::workspace::in_repository` says, from the folders just read.
    let in_repository = levels.iter().any(|level| level.repository);
    let global = GitignoreBuilder::new(root.ancestors().nth(excludes_depth).unwrap_or(&root)).build_global().0;
    let mut path = root.clone();
    for (depth, part) in parts.iter().enumerate() {
        if depth > 0 {
            levels.push(IgnoreLevel::read(&path));
        }
        path.push(part);
        let is_dir = is_folder || depth + 1 < parts.len();
        if ignored(&levels, &global, in_repository, &path, is_dir, hidden_shown) {
            return false;
        }
    }
    true
}

/// Whether `path` is a symbolic link (not followed: the link itself).
pub(super) fn is_link(path: &Path) -> bool {
    path.symlink_metadata().is_ok_and(|metadata| metadata.file_type().is_symlink())
}

/// Whether `path` is ignored by the rules of `levels` (the folders above it, outermost
/// first) and `global`, weighed as the walk weighs them (see [`walkable`]); in a repository,
/// git's rules are read up to the first folder holding one.
fn ignored(
    levels: &[IgnoreLevel],
    global: &Gitignore,
    in_repository: bool,
    path: &Path,
    is_dir: bool,
    hidden_shown: bool,
) -> bool {
    let said = what_rules_say(levels, global, in_repository, path, is_dir);
    // A hidden name is left out unless a rule names it (`!.storybook/`).
    said.is_ignore()
        || (!hidden_shown
            && said.is_none()
            && path.file_name().is_some_and(|name| name.as_encoded_bytes().starts_with(b".")))
}

/// What the rules say of `path`: ignored, whitelisted, or nothing.
fn what_rules_say(
    levels: &[IgnoreLevel],
    global: &Gitignore,
    in_repository: bool,
    path: &Path,
    is_dir: bool,
) -> ignore::Match<()> {
    let deepest = |rules: fn(&IgnoreLevel) -> Option<&Gitignore>, git: bool| {
        let mut said = ignore::Match::None;
        for level in levels.iter().rev() {
            if let Some(matcher) = rules(level) {
                said = matcher.matched(path, is_dir).map(|_| ());
            }
            if !said.is_none() || (git && in_repository && level.repository) {
                break;
            }
        }
        said
    };
    deepest(|level| level.ignore.as_ref(), false)
        .or(deepest(|level| level.gitignore.as_ref(), true))
        .or(deepest(|level| level.exclude.as_ref(), true))
        .or(global.matched(path, is_dir).map(|_| ()))
}

/// The ignore rules one folder holds (an unreadable or malformed file gives what it can).
struct IgnoreLevel {
    ignore: Option<Gitignore>,
    gitignore: Option<Gitignore>,
    /// `.git/info/exclude`.
    exclude: Option<Gitignore>,
    /// Whether the folder holds a repository of its own.
    repository: bool,
}

impl IgnoreLevel {
    fn read(dir: &Path) -> Self {
        let rules = |file: PathBuf| {
            file.is_file().then(|| {
                let mut builder = GitignoreBuilder::new(dir);
                let _ = builder.add(file);
                builder.build().ok()
            })?
        };
        Self {
            ignore: rules(dir.join(".ignore")),
            gitignore: rules(dir.join(".gitignore")),
            exclude: git_common_dir(dir).and_then(|git| rules(git.join("info/exclude"))),
            repository: crate::workspace::holds_repository(dir),
        }
    }
}

/// The ignore files outside the workspace at `root` that say what the walk takes: in a
/// repository whose top lies above the workspace (a monorepo's `services/api` opened alone),
/// the `.gitignore` and `.ignore` of each folder above it up to that top, and the repository's
/// `info/exclude`; for a worktree, the `info/exclude` its main repository keeps. A watcher of
/// the workspace sees none of them. Outside a repository, none are named (every folder up to
/// the file system's top would be).
pub fn ignore_files_above(root: &Path) -> Vec<PathBuf> {
    let root = root.canonicalize().unwrap_or_else(|_| root.to_owned());
    let Some(top) = root.ancestors().find(|dir| crate::workspace::holds_repository(dir)) else { return Vec::new() };
    let mut files: Vec<PathBuf> = root
        .ancestors()
        .skip(1)
        .take_while(|dir| dir.starts_with(top))
        .flat_map(|dir| [dir.join(".gitignore"), dir.join(".ignore")])
        .collect();
    let exclude = git_common_dir(top).map(|git| git.canonicalize().unwrap_or(git).join("info/exclude"));
    files.extend(exclude.filter(|exclude| !exclude.starts_with(&root)));
    files
}

/// The ignore files above the workspace ([`ignore_files_above`]), each with how it stood when
/// last looked at: for telling, at a run's start, whether one changed where no watcher of the
/// editor reports it (Neovim watches a pattern's folder whole, so it is given none).
#[derive(Debug, Default)]
pub struct IgnoreFilesAbove {
    files: Vec<(PathBuf, Option<SizedStamp>)>,
}

/// A file's size and [`FileStamp`].
type SizedStamp = (u64, Option<FileStamp>);

/// A file's [`SizedStamp`]; none for a file that is not there.
fn stamp(path: &Path) -> Option<SizedStamp> {
    std::fs::metadata(path).ok().map(|metadata| (metadata.len(), FileStamp::of(&metadata)))
}

impl IgnoreFilesAbove {
    /// Those of the workspace at `root`, as they stand now.
    pub fn of(root: &Path) -> Self {
        let stamped = |path: PathBuf| {
            let stamp = stamp(&path);
            (path, stamp)
        };
        Self { files: ignore_files_above(root).into_iter().map(stamped).collect() }
    }

    /// Their paths.
    pub fn paths(&self) -> impl Iterator<Item = &Path> {
        self.files.iter().map(|(path, _)| path.as_path())
    }

    /// For one of them, whether it changed since it was last looked at (a watcher's report
    /// that comes after a run's start saw the change says nothing new); none for another path.
    pub fn look_at(&mut self, path: &Path) -> Option<bool> {
        self.files.iter_mut().find(|(file, _)| file == path).map(restamp)
    }

    /// Whether any of them changed since they were last looked at.
    pub fn any_changed(&mut self) -> bool {
        self.files.iter_mut().map(restamp).fold(false, |changed, now| changed | now)
    }
}

/// Stamps a file again; whether its stamp changed.
fn restamp((path, was): &mut (PathBuf, Option<SizedStamp>)) -> bool {
    let now = stamp(path);
    std::mem::replace(was, now) != now
}

/// The folder holding `dir`'s repository data shared by its worktrees, where `info/exclude`
/// lives: `.git` itself, or for a worktree (`.git` a file saying `gitdir: ...`) the folder its
/// `commondir` names. None when `dir` holds no repository, or a submodule, whose excludes the
/// walk does not read either.
fn git_common_dir(dir: &Path) -> Option<PathBuf> {
    let dot_git = dir.join(".git");
    if dot_git.is_dir() {
        return Some(dot_git);
    }
    let first_line = |file: PathBuf| Some(std::fs::read_to_string(file).ok()?.lines().next()?.to_owned());
    let git_dir = dir.join(first_line(dot_git)?.strip_prefix("gitdir: ")?);
    let common = first_line(git_dir.join("commondir"))?;
    Some(git_dir.join(common))
}

/// Whether a file named `name` is a manifest the walk collects: one that lays out modules or
/// names a package (`package.json`).
pub(super) fn is_manifest(name: &str) -> bool {
    matches!(name, "Cargo.toml" | "tsconfig.json" | "jsconfig.json" | "package.json")
}

/// Source files and manifests below the folder `below` of `root` (`""`: all of it),
/// `.gitignore` respected, build output skipped, in path order; at most `max_files` source
/// files, and whether there were more. Past the limit the walk only finishes the folders it
/// is in, for the manifests there (the files taken need their crate and tsconfig), and
/// enters no other: a workspace that is a home folder is not listed to the end.
pub(super) fn walk(root: &Path, below: &str, max_files: usize) -> Walked {
    let mut found = Vec::new();
    let mut manifests = Vec::new();
    let mut unnamed = Vec::new();
    let mut limited = false;
    // Set at the limit; a folder the walk reaches after it holds none of the files taken.
    let full = Arc::new(AtomicBool::new(false));
    for entry in walker(root, below, Arc::clone(&full)).flatten() {
        if !entry.file_type().is_some_and(|t| t.is_file()) {
            continue;
        }
        let Some(relative) = relative_path(root, entry.path()) else {
            // Source by its extension, under a name no workspace path can give: said, not
            // left out in silence.
            let shown = entry.path().strip_prefix(root).unwrap_or(entry.path()).to_string_lossy();
            if Language::of_path(&shown).is_some() && unnamed.len() < MAX_UNNAMED_LISTED {
                let shown = if cfg!(windows) { shown.replace('\\', "/") } else { shown.into_owned() };
                unnamed.push((shown.escape_debug().to_string(), UNNAMED.to_owned()));
            }
            continue;
        };
        if entry.file_name().to_str().is_some_and(is_manifest) {
            manifests.push(relative);
            continue;
        }
        let Some(language) = Language::of_path(&relative) else { continue };
        if found.len() == max_files {
            limited = true;
            full.store(true, Ordering::Relaxed);
            continue;
        }
        let metadata = entry.metadata().ok();
        let bytes = metadata.as_ref().map_or(0, |m| m.len());
        let stamp = metadata.as_ref().and_then(FileStamp::of);
        found.push(Found { relative, absolute: entry.path().to_owned(), language, bytes, stamp });
    }
    Walked { found, manifests, limited, unnamed }
}

/// Why a source file whose name no workspace path can give is not indexed.
const UNNAMED: &str = "its path cannot be a workspace path (a name not valid UTF-8, or with a control \
                       character or a backslash, or a folder the tools refuse): rename it to have it indexed";

/// Most such files listed: a folder of them is told by its first ones.
const MAX_UNNAMED_LISTED: usize = 20;

/// What a [`walk`] found.
pub(super) struct Walked {
    /// The source files, in path order.
    pub found: Vec<Found>,
    /// The manifests, by workspace path.
    pub manifests: Vec<String>,
    /// Whether there were more source files than the walk took.
    pub limited: bool,
    /// Source files by their extension whose names no workspace path can give (not UTF-8),
    /// shown lossily, with why they are left out.
    pub unnamed: Vec<(String, String)>,
}

/// `time` in nanoseconds since the Unix epoch; None before it.
pub(super) fn nanos_since_epoch(time: std::time::SystemTime) -> Option<u64> {
    time.duration_since(std::time::UNIX_EPOCH).ok().map(|since| since.as_nanos() as u64)
}

/// Entries a search for files by name visits at most: a workspace that is a home folder is
/// not listed to the end.
const MAX_SEARCHED_ENTRIES: usize = 200_000;

/// For each of `tails` (`init.lua`, `lua/plugin/init.lua`), the files of `root` whose path
/// is it or ends with `/` and it, in path order, at most two (enough to tell one from
/// many): none that the ignore rules leave out, below a folder the walk never enters, or
/// below a hidden folder a project does not keep ([`hidden_away`]). None when the tree
/// holds more than the search visits, so that what it found may not be all.
pub(super) fn files_ending_with(root: &Path, tails: &[&str]) -> Option<Vec<Vec<String>>> {
    let mut found = vec![Vec::new(); tails.len()];
    let walk = crate::workspace::workspace_walk(root, root)
        .hidden(false)
        .sort_by_file_name(|a, b| a.cmp(b))
        .filter_entry({
            let root = root.to_owned();
            move |entry| enters(&root, entry, || entry.file_name().to_str().is_some_and(hidden_away))
        })
        .build();
    for (visited, entry) in walk.flatten().enumerate() {
        if visited == MAX_SEARCHED_ENTRIES {
            return None;
        }
        if !entry.file_type().is_some_and(|t| t.is_file()) {
            continue;
        }
        let Some(relative) = relative_path(root, entry.path()) else { continue };
        for (tail, files) in tails.iter().zip(&mut found) {
            let ends = relative.strip_suffix(tail).is_some_and(|head| head.is_empty() || head.ends_with('/'));
            if ends && files.len() < 2 {
                files.push(relative.clone());
            }
        }
    }
    Some(found)
}

/// The walk of the folder `below` of `root` (`""`: all of it), files and folders in path
/// order; once `full` is set it enters no new folder.
fn walker(root: &Path, below: &str, full: Arc<AtomicBool>) -> ignore::Walk {
    crate::workspace::workspace_walk(root, &root.join(below))
        .hidden(true)
        .sort_by_file_name(|a, b| a.cmp(b))
        .filter_entry({
            let root = root.to_owned();
            move |entry| enters(&root, entry, || full.load(Ordering::Relaxed))
        })
        .build()
}

/// Whether a walk of `root` goes on into `entry`: any file or the top; a folder unless
/// `left_out` says so, it is named like dependencies or build output ([`skipped_folder`]),
/// or no workspace path can spell its name.
fn enters(root: &Path, entry: &ignore::DirEntry, left_out: impl FnOnce() -> bool) -> bool {
    let is_folder = entry.file_type().is_some_and(|t| t.is_dir()) && entry.depth() > 0;
    !is_folder
        || (!left_out() && relative_path(root, entry.path()).is_some_and(|relative| !skipped_folder(root, &relative)))
}

/// `absolute` relative to `root` with `/` separators; none outside it, or for a name that
/// is not UTF-8, holds a control character (a tab) or (off Windows) a backslash, or that
/// [`WorkspacePath`](crate::workspace::WorkspacePath) refuses otherwise (`~backup/`, `c:x.rs`):
/// no workspace path names it, so neither the editor nor the file watcher could report it again.
fn relative_path(root: &Path, absolute: &Path) -> Option<String> {
    let relative = absolute.strip_prefix(root).ok()?.to_str()?;
    if relative.chars().any(char::is_control) {
        return None;
    }
    let relative = if cfg!(windows) {
        relative.replace('\\', "/")
    } else if relative.contains('\\') {
        return None;
    } else {
        relative.to_owned()
    };
    let named = relative.is_empty()
        || crate::workspace::WorkspacePath::parse(&relative).is_ok_and(|path| path.as_str() == relative);
    named.then_some(relative)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ignore_files_rule_their_folder_or_their_repository() {
        assert_eq!(ruled_folder(".gitignore"), Some(""));
        assert_eq!(ruled_folder("web/src/.ignore"), Some("web/src"));
        assert_eq!(ruled_folder(".git/info/exclude"), Some(""));
        assert_eq!(ruled_folder("vendor/lib/.git/info/exclude"), Some("vendor/lib"));
        for other in ["src/app.ts", "gitignore", "src/my.gitignore", "x.git/info/exclude", "info/exclude", ""] {
            assert_eq!(ruled_folder(other), None, "{other}");
        }
    }

    #[test]
    fn a_worktree_takes_the_excludes_of_its_repository() {
        let dir = crate::testing::tempdir();
        let main_git = dir.path().join("main/.git");
        let write = |path: PathBuf, text: &str| {
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        };
        write(main_git.join("info/exclude"), "local/\n");
        write(main_git.join("worktrees/wt/commondir"), "../..\n");
        let worktree = dir.path().join("wt");
        write(worktree.join(".git"), &format!("gitdir: {}\n", main_git.join("worktrees/wt").display()));
        write(worktree.join("local/mine.ts"), "export const m = 1;\n");
        write(worktree.join("src/app.ts"), "export const a = 1;\n");
        let found = walk(&worktree, "", usize::MAX).found;
        let walked: Vec<&str> = found.iter().map(|file| file.relative.as_str()).collect();
        assert_eq!(walked, ["src/app.ts"]);
        assert!(!indexable(&worktree, "local/mine.ts") && indexable(&worktree, "src/app.ts"));
        // A submodule's `.git` names no `commondir`: neither side reads excludes for it.
        assert_eq!(git_common_dir(&dir.path().join("nowhere")), None);
        // The worktree's rules outside it are its repository's excludes.
        let common = main_git.canonicalize().unwrap();
        assert_eq!(ignore_files_above(&worktree), [common.join("info/exclude")]);
    }

    #[test]
    fn the_ignore_files_above_a_workspace_are_those_of_its_repository() {
        let dir = crate::testing::tempdir();
        let top = dir.path().canonicalize().unwrap().join("mono");
        let api = top.join("services/api");
        std::fs::create_dir_all(top.join(".git/info")).unwrap();
        std::fs::create_dir_all(&api).unwrap();
        let names = |dir: &Path| [dir.join(".gitignore"), dir.join(".ignore")];
        let expected: Vec<PathBuf> = [names(&top.join("services")), names(&top)]
            .concat()
            .into_iter()
            .chain([top.join(".git/info/exclude")])
            .collect();
        assert_eq!(ignore_files_above(&api), expected);
        assert_eq!(ignore_files_above(&top), Vec::<PathBuf>::new(), "the repository's own are inside it");
    }

    #[test]
    fn an_ignore_file_above_changed_once_is_told_once_whoever_looks_first() {
        let dir = crate::testing::tempdir();
        let top = dir.path().canonicalize().unwrap();
        let api = top.join("services/api");
        std::fs::create_dir_all(top.join(".git/info")).unwrap();
        std::fs::create_dir_all(&api).unwrap();
        let mut above = IgnoreFilesAbove::of(&api);
        assert!(!above.any_changed(), "nothing changed yet");
        // Created: a run's start sees it, and a watcher's report after says nothing new.
        std::fs::write(top.join(".gitignore"), "/generated/\n").unwrap();
        assert!(above.any_changed());
        assert_eq!(above.look_at(&top.join(".gitignore")), Some(false));
        // Grown: the watcher's report comes first this time, and the run's start sees nothing new.
        std::fs::write(top.join(".gitignore"), "/generated/\n/vendor/\n").unwrap();
        assert_eq!(above.look_at(&top.join(".gitignore")), Some(true));
        assert!(!above.any_changed());
        // Gone.
        std::fs::remove_file(top.join(".gitignore")).unwrap();
        assert!(above.any_changed());
        assert_eq!(above.look_at(&api.join(".gitignore")), None, "not above the workspace");
    }

    const FOLDERS: [&str; 5] = ["", "a", "a/b", "c", ".hid"];
    const NAMES: [&str; 4] = ["x.ts", "y.gen.ts", "keep.gen.ts", "z.rs"];

    proptest::proptest! {
        #![proptest_config(proptest::test_runner::Config::with_cases(48))]
        /// Whatever ignore files say, a file reported later is judged as the walk judged it:
        /// rules of every kind, in folders above the workspace and below it, a repository at
        /// its top and perhaps one nested in it.
        #[test]
        fn later_files_are_judged_as_the_walk_judged_them(
            rules in proptest::collection::vec(
                (
                    proptest::sample::select(vec!["..", "", "a", "a/b", "c"]),
                    proptest::sample::select(vec![".gitignore", ".ignore", ".git/info/exclude"]),
                    proptest::collection::vec(proptest::sample::select(vec![
                        "*.gen.ts", "!keep.gen.ts", "b/", "/x.ts", "a", "!a", "*.rs", "!*.rs", "z.*",
                        "**/b/*.ts", "a/b", "!a/b/x.ts", "c/", "*", "!*/", "#a", "!.hid/", "!.hid", "!.*",
                    ]), 1..4),
                ),
                0..6,
            ),
            nested_repository in proptest::bool::ANY,
        ) {
            let dir = crate::testing::tempdir();
            let root = dir.path().join("ws");
            let write = |path: PathBuf, text: &str| {
                std::fs::create_dir_all(path.parent().unwrap()).unwrap();
                std::fs::write(path, text).unwrap();
            };
            for folder in FOLDERS {
                for name in NAMES {
                    write(root.join(folder).join(name), "export const x = 1;\n");
                }
            }
            write(root.join(".git/HEAD"), "ref: refs/heads/main\n");
            if nested_repository {
                write(root.join("a/.git/HEAD"), "ref: refs/heads/main\n");
            }
            for (folder, file, lines) in &rules {
                let folder = if *file == ".git/info/exclude" && !matches!(*folder, "" | "a") { "" } else { *folder };
                write(root.join(folder).join(file), &(lines.join("\n") + "\n"));
            }
            let found = walk(&root, "", usize::MAX).found;
            let walked: Vec<&str> = found.iter().map(|file| file.relative.as_str()).collect();
            let entered: Vec<String> = walker(&root, "", Arc::default())
                .flatten()
                .filter(|entry| entry.file_type().is_some_and(|t| t.is_dir()))
                .filter_map(|entry| relative_path(&root, entry.path()))
                .collect();
            for folder in FOLDERS.into_iter().filter(|folder| !folder.is_empty()) {
                proptest::prop_assert_eq!(
                    walkable_folder(&root, folder),
                    entered.iter().any(|entered| entered == folder),
                    "{}: entered {:?}, rules {:?}",
                    folder,
                    entered,
                    rules
                );
            }
            for folder in FOLDERS {
                for name in NAMES {
                    let file = if folder.is_empty() { name.to_owned() } else { format!("{folder}/{name}") };
                    proptest::prop_assert_eq!(
                        indexable(&root, &file),
                        walked.contains(&file.as_str()),
                        "{}: walked {:?}, rules {:?}",
                        file,
                        walked,
                        rules
                    );
                }
            }
        }
    }
}
