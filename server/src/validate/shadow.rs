//! The shadow workspace: a mirror of the repository where checks run on the proposed code.
//!
//! It lives at `<cache>/issuewright/shadow/<hash of the root>/` with `tree/` (the files:
//! everything not ignored, and the ignored files other builds read: see `ignored_inputs`;
//! then the editor's unsaved buffers and the run's overlay on top) and `out/` (build output, kept between runs
//! so builds stay incremental). A sync only
//! writes files whose source changed since the last one and removes files that went away;
//! `node_modules` folders are not copied: they become folders of links to the user's
//! packages (a workspace's own packages link to their mirror), leaving out the caches
//! builds write there. The user's files are only ever read.

use std::collections::{BTreeMap, BTreeSet};
use std::fs::File;
use std::path::{Component, Path, PathBuf};
use std::time::{Duration, Instant, UNIX_EPOCH};

use crate::workspace::WorkspacePath;

/// Folders never mirrored: version control and issuewright's own records.
const SKIPPED_DIRS: [&str; 4] = [".git", ".hg", ".svn", ".issuewright"];
/// Folders linked into the shadow instead of copied.
const LINKED_DIRS: [&str; 1] = ["node_modules"];
/// What builds write inside `node_modules` (`tsc -b`'s `.tmp` build info, Vite's bundled
/// configuration and caches, Vitest's and Babel's): not linked to the user's, so a build in
/// the shadow writes its own.
const BUILD_CACHES_IN_MODULES: [&str; 5] = [".cache", ".tmp", ".vite", ".vite-temp", ".vitest"];

/// Why the shadow could not be prepared.
#[derive(Debug, thiserror::Error)]
pub enum ShadowError {
    /// No cache directory is known.
    #[error("no cache directory for the shadow workspace: set XDG_CACHE_HOME or HOME")]
    NoCacheDir,
    /// File system trouble.
    #[error("shadow workspace `{path}`: {source}")]
    Io {
        /// The file or folder.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
}

fn io_error(path: &Path) -> impl FnOnce(std::io::Error) -> ShadowError + '_ {
    move |source| ShadowError::Io { path: path.to_owned(), source }
}

/// What the shadow holds for one path, to tell whether its source changed.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
enum Entry {
    /// A copy of a file on disk with this size and modification time.
    Disk { size: u64, modified_ns: u128 },
    /// Text from a buffer or the overlay, by hash.
    Text { hash: u64 },
    /// A symbolic link to this target.
    Link { target: PathBuf },
}

/// What one sync did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SyncStats {
    /// Files in the mirror afterwards.
    pub files: usize,
    /// Files (re)written.
    pub written: usize,
    /// Files removed.
    pub removed: usize,
    /// Time taken.
    #[serde(skip)]
    pub duration: Duration,
}

/// A mirror of one workspace.
pub struct Shadow {
    source: PathBuf,
    dir: PathBuf,
    tree: PathBuf,
    out: PathBuf,
    manifest: BTreeMap<String, Entry>,
}

impl Shadow {
    /// The shadow of the workspace at `source` (canonical), under `cache_dir/issuewright/shadow/`.
    pub fn open(source: &Path, cache_dir: &Path) -> Result<Self, ShadowError> {
        let key = xxhash_rust::xxh3::xxh3_64(source.to_string_lossy().as_bytes());
        let dir = cache_dir.join("issuewright").join("shadow").join(format!("{key:016x}"));
        let (tree, out) = (dir.join("tree"), dir.join("out"));
        for folder in [&tree, &out] {
            std::fs::create_dir_all(folder).map_err(io_error(folder))?;
        }
        // The manifest is read by each sync (another process may have synced meanwhile).
        Ok(Self { source: source.to_owned(), dir, tree, out, manifest: BTreeMap::new() })
    }

    /// The shadow of `source` under the user's cache directory.
    pub fn for_workspace(source: &Path) -> Result<Self, ShadowError> {
        let cache = crate::workspace::user_cache_dir().ok_or(ShadowError::NoCacheDir)?;
        Self::open(source, &cache)
    }

    /// Reads what the tree holds from the manifest another sync (maybe in another process)
    /// left; a manifest that does not describe the tree is dropped, so every file is copied.
    fn load(&mut self) {
        let tree = &self.tree;
        self.manifest = std::fs::read(self.dir.join("manifest.bin"))
            .ok()
            .and_then(|bytes| postcard::from_bytes::<BTreeMap<String, Entry>>(&bytes).ok())
            .filter(|manifest| manifest.keys().all(|path| tree.join(path).symlink_metadata().is_ok()))
            .unwrap_or_default();
    }

    /// The mirrored files, where commands run.
    pub fn tree(&self) -> &Path {
        &self.tree
    }

    /// The build output folder, kept between runs.
    pub fn out(&self) -> &Path {
        &self.out
    }

    /// The workspace-relative paths of every mirrored file.
    pub fn files(&self) -> BTreeSet<String> {
        self.manifest.iter().filter(|(_, entry)| !matches!(entry, Entry::Link { .. })).map(|(p, _)| p.clone()).collect()
    }

    /// Takes an exclusive lock on this shadow, so two processes never sync or build in it at
    /// once; the lock is held until the returned file is dropped.
    pub fn lock(&self) -> Result<File, ShadowError> {
        let path = self.dir.join("lock");
        let file = File::options().create(true).truncate(false).write(true).open(&path).map_err(io_error(&path))?;
        file.lock().map_err(io_error(&path))?;
        Ok(file)
    }

    /// Takes the lock of [`lock`](Self::lock) if no other process holds it; `None` if one does.
    pub fn try_lock(&self) -> Result<Option<File>, ShadowError> {
        let path = self.dir.join("lock");
        let file = File::options().create(true).truncate(false).write(true).open(&path).map_err(io_error(&path))?;
        match file.try_lock() {
            Ok(()) => Ok(Some(file)),
            Err(std::fs::TryLockError::WouldBlock) => Ok(None),
            Err(std::fs::TryLockError::Error(error)) => Err(io_error(&path)(error)),
        }
    }

    /// Brings the mirror up to date: the workspace's files, then `overrides` on top (a text,
    /// or `None` for a file that is deleted in the proposal). Hold [`lock`](Self::lock) around it.
    pub fn sync(&mut self, overrides: &BTreeMap<WorkspacePath, Option<String>>) -> Result<SyncStats, ShadowError> {
        let synced = self.sync_tree(overrides);
        if synced.is_err() {
            // The tree is part way between two states the manifest on disk does not describe
            // (a proposal's text where it says the disk's): the next sync starts afresh.
            self.manifest.clear();
            let _ = std::fs::remove_file(self.dir.join("manifest.bin"));
        }
        synced
    }

    fn sync_tree(&mut self, overrides: &BTreeMap<WorkspacePath, Option<String>>) -> Result<SyncStats, ShadowError> {
        let started = Instant::now();
        self.load();
        if self.manifest.is_empty() {
            // Nothing is known about the tree: start from an empty one, so no stale file
            // (a source deleted meanwhile) takes part in the build.
            remove_any(&self.tree)?;
            std::fs::create_dir_all(&self.tree).map_err(io_error(&self.tree))?;
        }
        let mut stats = SyncStats::default();
        let mut seen: BTreeSet<String> = BTreeSet::new();
        let mut links: Vec<(String, PathBuf)> = Vec::new();
        let overridden: BTreeSet<&str> = overrides.keys().map(WorkspacePath::as_str).collect();

        // A cache directory inside the workspace holds this very mirror: never mirror
        // issuewright's cache folder.
        let own = self.dir.ancestors().nth(2).unwrap_or(&self.dir).to_owned();
        let walker = crate::workspace::workspace_walk(&self.source, &self.source)
            .hidden(false)
            // `.ignore` keeps files from searches (ripgrep's), not from git: a build reads
            // what it lists (`tests/snapshots/`) as it reads any tracked file.
            .ignore(false)
            .filter_entry(move |entry| {
                let name = entry.file_name().to_string_lossy();
                let is_dir = entry.file_type().is_some_and(|t| t.is_dir());
                !(is_dir
                    && (SKIPPED_DIRS.contains(&name.as_ref())
                        || LINKED_DIRS.contains(&name.as_ref())
                        || entry.path() == own))
            })
            .build();
        let walked = walker.flatten().filter_map(|entry| Some((entry.path().to_owned(), entry.file_type()?)));
        let mut entries: Vec<(PathBuf, std::fs::FileType)> = walked.chain(tracked_but_ignored(&self.source)).collect();
        entries.extend(super::ignored_inputs::ignored_inputs(&entries));
        for (path, file_type) in entries {
            let Some(relative) = self.relative(&path) else { continue };
            if file_type.is_dir() {
                for linked in LINKED_DIRS {
                    let candidate = path.join(linked);
                    if candidate.is_dir() {
                        let name = if relative.is_empty() { linked.to_owned() } else { format!("{relative}/{linked}") };
                        links.push((name, candidate));
                    }
                }
                continue;
            }
            if relative.is_empty() || overridden.contains(relative.as_str()) {
                continue;
            }
            seen.insert(relative.clone());
            // FIFOs, sockets and devices are not sources, and opening a FIFO would block.
            if !file_type.is_file() && !file_type.is_symlink() {
                continue;
            }
            let Ok(metadata) = path.symlink_metadata() else { continue };
            let wanted = if file_type.is_symlink() {
                let Ok(target) = std::fs::read_link(&path) else { continue };
                // The manifest stores link targets as text.
                if target.to_str().is_none() {
                    continue;
                }
                Entry::Link { target: mirrored_link_target(&self.source, &relative, &target) }
            } else {
                let modified_ns = metadata
                    .modified()
                    .ok()
                    .and_then(|t| t.duration_since(UNIX_EPOCH).ok())
                    .map_or(0, |d| d.as_nanos());
                Entry::Disk { size: metadata.len(), modified_ns }
            };
            if self.manifest.get(&relative) == Some(&wanted) {
                continue;
            }
            let target = self.tree.join(&relative);
            self.prepare_parent(&relative)?;
            match &wanted {
                Entry::Link { target: link } => replace_with_link(link, &target)?,
                _ => {
                    remove_any(&target)?;
                    // A file that cannot be read (permissions, gone meanwhile) is left out
                    // of the build rather than failing it; it is tried again next time.
                    if let Err(error) = std::fs::copy(&path, &target) {
                        tracing::warn!("not mirrored: {}: {error}", path.display());
                        self.manifest.remove(&relative);
                        continue;
                    }
                }
            }
            self.manifest.insert(relative, wanted);
            stats.written += 1;
        }

        let source_root = self.source.canonicalize().unwrap_or_else(|_| self.source.clone());
        for (relative, source) in links {
            self.mirror_modules(&relative, &source, &source_root, &mut seen)?;
        }

        for (path, text) in overrides {
            let relative = path.as_str().to_owned();
            // A buffer inside a linked folder (`node_modules`, a link to elsewhere) is not
            // part of the mirror: writing it there would write through the link.
            if self.behind_link(&relative, true) {
                continue;
            }
            let target = self.tree.join(&relative);
            match text {
                Some(text) => {
                    seen.insert(relative.clone());
                    let wanted = Entry::Text { hash: xxhash_rust::xxh3::xxh3_64(text.as_bytes()) };
                    if self.manifest.get(&relative) == Some(&wanted) {
                        continue;
                    }
                    self.prepare_parent(&relative)?;
                    remove_any(&target)?;
                    std::fs::write(&target, text).map_err(io_error(&target))?;
                    // A buffer of a script (`gradlew`, `scripts/test.sh`) stays as runnable as
                    // the workspace's file.
                    if let Ok(source) = std::fs::metadata(self.source.join(&relative)) {
                        std::fs::set_permissions(&target, source.permissions()).map_err(io_error(&target))?;
                    }
                    self.manifest.insert(relative, wanted);
                    stats.written += 1;
                }
                None => {
                    if self.manifest.remove(&relative).is_some() {
                        remove_any(&target)?;
                        stats.removed += 1;
                    }
                }
            }
        }

        let gone: Vec<String> = self.manifest.keys().filter(|path| !seen.contains(*path)).cloned().collect();
        for relative in gone {
            self.manifest.remove(&relative);
            if self.behind_link(&relative, false) {
                continue;
            }
            let target = self.tree.join(&relative);
            // A folder there now holds newer files (the file became a folder): keep it.
            if !target.symlink_metadata().is_ok_and(|m| m.is_dir()) {
                remove_any(&target)?;
                stats.removed += 1;
            }
        }
        self.save()?;
        stats.files = self.manifest.values().filter(|entry| !matches!(entry, Entry::Link { .. })).count();
        stats.duration = started.elapsed();
        Ok(stats)
    }

    /// Mirrors the `node_modules` folder at `source` as a folder of links at `relative`: each
    /// package (each one of a `@scope`) links to the user's, except a package of the workspace
    /// itself (npm, yarn and pnpm workspaces link theirs into `node_modules`), which links to
    /// its mirror, so that a build reads the proposed code of it rather than the user's.
    fn mirror_modules(
        &mut self,
        relative: &str,
        source: &Path,
        source_root: &Path,
        seen: &mut BTreeSet<String>,
    ) -> Result<(), ShadowError> {
        let Ok(entries) = std::fs::read_dir(source) else { return Ok(()) };
        for entry in entries.flatten() {
            let (Ok(file_type), Some(name)) = (entry.file_type(), entry.file_name().to_str().map(str::to_owned)) else {
                continue;
            };
            let child = format!("{relative}/{name}");
            if BUILD_CACHES_IN_MODULES.contains(&name.as_str()) {
                continue;
            }
            if file_type.is_dir() && name.starts_with('@') {
                self.mirror_modules(&child, &entry.path(), source_root, seen)?;
                continue;
            }
            let own_package = file_type
                .is_symlink()
                .then(|| entry.path().canonicalize().ok())
                .flatten()
                .and_then(|resolved| resolved.strip_prefix(source_root).ok().map(Path::to_owned))
                .filter(|inside| !inside.components().any(|part| part.as_os_str() == "node_modules"));
            let target = match own_package {
                Some(inside) => self.tree.join(inside),
                None => entry.path(),
            };
            seen.insert(child.clone());
            let wanted = Entry::Link { target: target.clone() };
            if self.manifest.get(&child) != Some(&wanted) {
                self.prepare_parent(&child)?;
                replace_with_link(&target, &self.tree.join(&child))?;
                self.manifest.insert(child, wanted);
            }
        }
        Ok(())
    }

    fn relative(&self, path: &Path) -> Option<String> {
        let rest = path.strip_prefix(&self.source).ok()?;
        let text = rest.to_str()?;
        Some(text.replace(std::path::MAIN_SEPARATOR, "/"))
    }

    /// Whether `relative` lies below a link or a linked folder, in the mirror (and, with
    /// `in_source`, in the workspace): such paths are never written or removed in the mirror.
    fn behind_link(&self, relative: &str, in_source: bool) -> bool {
        let mut prefix = String::new();
        let mut parts = relative.split('/').peekable();
        while let Some(part) = parts.next() {
            if parts.peek().is_none() {
                break;
            }
            // The mirror's `node_modules` is a folder of links (see `mirror_modules`): what
            // lies below one of them is protected by the check of links below.
            if in_source && LINKED_DIRS.contains(&part) {
                return true;
            }
            if !prefix.is_empty() {
                prefix.push('/');
            }
            prefix.push_str(part);
            let is_link = |root: &Path| root.join(&prefix).symlink_metadata().is_ok_and(|m| m.file_type().is_symlink());
            if (in_source && is_link(&self.source)) || is_link(&self.tree) {
                return true;
            }
        }
        false
    }

    /// Makes every folder above `relative` in the mirror a real folder, replacing a file or
    /// a link in the way (and forgetting it in the manifest). Never follows a link and never
    /// touches anything outside the mirror.
    fn prepare_parent(&mut self, relative: &str) -> Result<(), ShadowError> {
        let parts: Vec<&str> = relative.split('/').collect();
        let mut path = self.tree.clone();
        for (depth, part) in parts.iter().enumerate().take(parts.len().saturating_sub(1)) {
            path.push(part);
            match path.symlink_metadata() {
                Ok(metadata) if metadata.is_dir() => continue,
                Ok(_) => {
                    std::fs::remove_file(&path).map_err(io_error(&path))?;
                    self.manifest.remove(&parts[..=depth].join("/"));
                }
                Err(error) if error.kind() == std::io::ErrorKind::NotFound => {}
                Err(error) => return Err(io_error(&path)(error)),
            }
            std::fs::create_dir(&path).map_err(io_error(&path))?;
        }
        Ok(())
    }

    fn save(&self) -> Result<(), ShadowError> {
        let path = self.dir.join("manifest.bin");
        let bytes = postcard::to_allocvec(&self.manifest)
            .map_err(|error| io_error(&path)(std::io::Error::new(std::io::ErrorKind::InvalidData, error)))?;
        let temporary = self.dir.join("manifest.bin.tmp");
        std::fs::write(&temporary, bytes).map_err(io_error(&temporary))?;
        std::fs::rename(&temporary, &path).map_err(io_error(&path))
    }
}

/// Removes whatever is at `target` (file, link or folder); nothing there is fine.
fn remove_any(target: &Path) -> Result<(), ShadowError> {
    match target.symlink_metadata() {
        Err(_) => Ok(()),
        Ok(metadata) if metadata.is_dir() => std::fs::remove_dir_all(target).map_err(io_error(target)),
        Ok(_) => std::fs::remove_file(target).map_err(io_error(target)),
    }
}

/// What the mirror's copy of the link at `link` (relative to `source`) to `target` points
/// at, so that it leads where the workspace's does: into the mirror for a target inside the
/// workspace (relative, however the link gives it), to the same place outside it (absolute:
/// `../shared` from the mirror would lead nowhere).
fn mirrored_link_target(source: &Path, link: &str, target: &Path) -> PathBuf {
    let folder = Path::new(link).parent().unwrap_or(Path::new(""));
    let absolute = crate::workspace::lexical_normal(&source.join(folder).join(target));
    let Ok(inside) = absolute.strip_prefix(source) else { return absolute };
    let mut relative: PathBuf = folder.components().map(|_| Component::ParentDir).collect();
    relative.push(inside);
    if relative.as_os_str().is_empty() { PathBuf::from(".") } else { relative }
}

fn replace_with_link(link: &Path, target: &Path) -> Result<(), ShadowError> {
    remove_any(target)?;
    std::os::unix::fs::symlink(link, target).map_err(io_error(target))
}

/// The files of `source` that its repository tracks although its ignore rules match them, as
/// `git ls-files` says (a force-added `gradle/wrapper/gradle-wrapper.jar` under a `*.jar`
/// rule): the build reads them as it reads any tracked file, and the walk, which follows the
/// ignore rules, does not find them. None outside a git repository or without `git`.
fn tracked_but_ignored(source: &Path) -> Vec<(PathBuf, std::fs::FileType)> {
    if !crate::workspace::in_repository(source) {
        return Vec::new();
    }
    let listed = std::process::Command::new("git")
        .args(["ls-files", "-z", "--cached", "--ignored", "--exclude-standard"])
        .current_dir(source)
        .stdin(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .output();
    let Some(listed) = listed.ok().filter(|output| output.status.success()) else { return Vec::new() };
    listed
        .stdout
        .split(|byte| *byte == 0)
        .filter_map(|name| std::str::from_utf8(name).ok().filter(|name| !name.is_empty()))
        .filter(|name| !name.split('/').any(|part| SKIPPED_DIRS.contains(&part) || LINKED_DIRS.contains(&part)))
        .filter_map(|name| {
            let path = source.join(name);
            let file_type = path.symlink_metadata().ok()?.file_type();
            Some((path, file_type))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Fixture {
        _dir: tempfile::TempDir,
        source: PathBuf,
        cache: PathBuf,
    }

    fn fixture(files: &[(&str, &str)]) -> Fixture {
        let dir = crate::testing::tempdir();
        let source = dir.path().join("my project");
        for (path, text) in files {
            let path = source.join(path);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        }
        let cache = dir.path().join("cache");
        Fixture { source: source.canonicalize().unwrap(), cache, _dir: dir }
    }

    fn p(path: &str) -> WorkspacePath {
        WorkspacePath::parse(path).unwrap()
    }

    fn snapshot(dir: &Path) -> BTreeMap<String, String> {
        let mut out = BTreeMap::new();
        for entry in walk(dir) {
            let text = std::fs::read_to_string(&entry).unwrap_or_else(|_| "<unreadable>".into());
            out.insert(entry.strip_prefix(dir).unwrap().to_string_lossy().into_owned(), text);
        }
        out
    }

    fn walk(dir: &Path) -> Vec<PathBuf> {
        let mut found = Vec::new();
        for entry in std::fs::read_dir(dir).unwrap().flatten() {
            let path = entry.path();
            if path.is_symlink() || path.is_file() {
                found.push(path);
            } else if path.is_dir() {
                found.extend(walk(&path));
            }
        }
        found.sort();
        found
    }

    #[test]
    fn mirrors_files_buffers_and_overlay_without_touching_the_source() {
        let f = fixture(&[
            ("src/lib.rs", "fn a() {}\n"),
            ("src/gone.rs", "old\n"),
            (".gitignore", "target/\n"),
            ("target/debug/junk", "x"),
            (".git/HEAD", "ref"),
            (".issuewright/runs/x/ledger.jsonl", "{}"),
            ("node_modules/typescript/package.json", "{}"),
            ("node_modules/.vite/deps/_metadata.json", "{}"),
        ]);
        let before = snapshot(&f.source);
        let mut shadow = Shadow::open(&f.source, &f.cache).unwrap();
        let overrides = BTreeMap::from([
            (p("src/lib.rs"), Some("fn a() { changed }\n".to_owned())),
            (p("src/new.rs"), Some("fn new() {}\n".to_owned())),
            (p("src/gone.rs"), None),
        ]);
        let stats = shadow.sync(&overrides).unwrap();
        let tree = snapshot(shadow.tree());
        assert_eq!(tree.get("src/lib.rs").map(String::as_str), Some("fn a() { changed }\n"));
        assert_eq!(tree.get("src/new.rs").map(String::as_str), Some("fn new() {}\n"));
        assert!(!tree.contains_key("src/gone.rs"), "deleted in the overlay");
        assert!(
            !tree.keys().any(|k| k.starts_with("target") || k.starts_with(".git/") || k.starts_with(".issuewright"))
        );
        let link = shadow.tree().join("node_modules/typescript");
        assert!(link.is_symlink(), "a package is linked");
        assert_eq!(std::fs::read_link(&link).unwrap(), f.source.join("node_modules/typescript"));
        let cache = shadow.tree().join("node_modules/.vite");
        assert!(cache.symlink_metadata().is_err(), "a build's cache is its own, not a link to the user's");
        assert_eq!(stats.files, 3, "{tree:?}");
        assert_eq!(snapshot(&f.source), before, "the source is untouched");
    }

    #[test]
    fn files_a_repository_tracks_or_builds_read_though_its_rules_ignore_them_are_in_the_mirror() {
        let f = fixture(&[
            (".gitignore", "*.jar\n/out/\n/build/\ndist/\n"),
            ("packages/lib/package.json", r#"{ "types": "./dist/index.d.ts", "exports": { ".": "./dist/index.js" } }"#),
            ("packages/lib/dist/index.d.ts", "export * from './sub/util';"),
            ("packages/lib/dist/sub/util.d.ts", "export declare const x: number;"),
            ("packages/tool/package.json", r#"{ "main": "index.js" }"#),
            ("packages/tool/dist/bundle.js", "built"),
            ("gradle/wrapper/gradle-wrapper.jar", "PK jar"),
            ("lib/local.jar", "PK untracked"),
            ("app/libs/compile/vendor.jar", "PK vendor"),
            ("dist/app.jar", "PK built"),
            ("build/libs/app.jar", "PK built"),
            ("out/junk", "x"),
        ]);
        let git = |args: &[&str]| crate::testing::git(&f.source, args);
        git(&["init", "-q"]);
        git(&["add", ".gitignore"]);
        git(&["add", "-f", "gradle/wrapper/gradle-wrapper.jar"]);
        let mut shadow = Shadow::open(&f.source, &f.cache).unwrap();
        shadow.sync(&BTreeMap::new()).unwrap();
        let tree = snapshot(shadow.tree());
        assert_eq!(tree.get("gradle/wrapper/gradle-wrapper.jar").map(String::as_str), Some("PK jar"), "{tree:?}");
        assert_eq!(tree.get("lib/local.jar").map(String::as_str), Some("PK untracked"), "a library: {tree:?}");
        assert_eq!(tree.get("app/libs/compile/vendor.jar").map(String::as_str), Some("PK vendor"), "{tree:?}");
        assert!(!tree.contains_key("dist/app.jar"), "an ignored file nobody tracks stays out: {tree:?}");
        assert!(!tree.contains_key("build/libs/app.jar"), "an ignored folder's libraries stay out: {tree:?}");
        assert!(tree.contains_key("packages/lib/dist/index.d.ts"), "a package's entry points: {tree:?}");
        assert!(tree.contains_key("packages/lib/dist/sub/util.d.ts"), "and what they load: {tree:?}");
        assert!(!tree.contains_key("packages/tool/dist/bundle.js"), "no entry point of its package: {tree:?}");
        assert!(!tree.contains_key("out/junk"), "{tree:?}");
        assert!(!tree.keys().any(|k| k.starts_with(".git/")), "{tree:?}");
    }

    #[test]
    fn files_kept_from_searches_by_an_ignore_file_are_in_the_mirror() {
        let f = fixture(&[
            (".ignore", "tests/snapshots/\n"),
            ("tests/snapshots/render.snap", "expected output\n"),
            (".gitignore", "/out/\n"),
            ("out/junk", "x"),
        ]);
        let mut shadow = Shadow::open(&f.source, &f.cache).unwrap();
        shadow.sync(&BTreeMap::new()).unwrap();
        let tree = snapshot(shadow.tree());
        assert_eq!(tree.get("tests/snapshots/render.snap").map(String::as_str), Some("expected output\n"));
        assert!(!tree.contains_key("out/junk"), "what git ignores stays out");
    }

    #[test]
    fn a_buffer_of_a_script_is_as_runnable_in_the_mirror_as_its_file() {
        use std::os::unix::fs::PermissionsExt;
        let f = fixture(&[("gradlew", "#!/bin/sh\nexec java\n"), ("notes.txt", "a\n")]);
        std::fs::set_permissions(f.source.join("gradlew"), std::fs::Permissions::from_mode(0o755)).unwrap();
        let mut shadow = Shadow::open(&f.source, &f.cache).unwrap();
        // Open in the editor, changed or not, and a buffer of a plain file.
        let overrides = BTreeMap::from([
            (p("gradlew"), Some("#!/bin/sh\n# edited\nexec java\n".to_owned())),
            (p("notes.txt"), Some("b\n".to_owned())),
        ]);
        shadow.sync(&overrides).unwrap();
        let mode = |path: &str| std::fs::metadata(shadow.tree().join(path)).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode("gradlew"), 0o755);
        assert_eq!(mode("notes.txt") & 0o111, 0, "a plain file is not made runnable");
    }

    #[test]
    fn a_sync_that_fails_part_way_leaves_no_proposal_text_behind() {
        let f = fixture(&[("a.txt", "the user's\n")]);
        let mut shadow = Shadow::open(&f.source, &f.cache).unwrap();
        shadow.sync(&BTreeMap::new()).unwrap();
        // The proposal's text is written, then a name the file system refuses fails the sync.
        let failing = BTreeMap::from([
            (p("a.txt"), Some("the proposal's\n".to_owned())),
            (p(&format!("z/{}", "n".repeat(300))), Some("x".to_owned())),
        ]);
        assert!(shadow.sync(&failing).is_err());
        shadow.sync(&BTreeMap::new()).unwrap();
        let read = std::fs::read_to_string(shadow.tree().join("a.txt")).unwrap();
        assert_eq!(read, "the user's\n", "the next build reads the workspace, not the failed sync's proposal");
    }

    #[test]
    fn a_workspace_package_linked_into_node_modules_is_read_from_the_mirror() {
        // An npm (yarn, pnpm) workspace: `@acme/lib` is the workspace's own package.
        let f = fixture(&[
            ("package.json", r#"{"workspaces": ["packages/*"]}"#),
            ("packages/lib/index.ts", "export const answer = 1;\n"),
            ("packages/app/main.ts", "import { answer } from '@acme/lib';\n"),
            ("node_modules/typescript/package.json", "{}"),
            ("node_modules/.bin/README", "tools\n"),
        ]);
        std::fs::create_dir_all(f.source.join("node_modules/@acme")).unwrap();
        std::os::unix::fs::symlink("../../packages/lib", f.source.join("node_modules/@acme/lib")).unwrap();
        std::os::unix::fs::symlink("../typescript", f.source.join("node_modules/@acme/ts")).unwrap();
        let before = snapshot(&f.source);
        let mut shadow = Shadow::open(&f.source, &f.cache).unwrap();
        let proposed = BTreeMap::from([(p("packages/lib/index.ts"), Some("export const answer = 2;\n".to_owned()))]);
        shadow.sync(&proposed).unwrap();

        let tree = shadow.tree().to_owned();
        let read = |path: &str| std::fs::read_to_string(tree.join(path)).unwrap();
        assert_eq!(read("node_modules/@acme/lib/index.ts"), "export const answer = 2;\n", "the proposal's text");
        assert_eq!(
            tree.join("node_modules/@acme/lib").canonicalize().unwrap(),
            tree.join("packages/lib").canonicalize().unwrap()
        );
        let dependency = tree.join("node_modules/@acme/ts").canonicalize().unwrap();
        assert_eq!(dependency, f.source.join("node_modules/typescript"), "a link to a dependency stays the user's");
        assert_eq!(
            tree.join("node_modules/typescript").canonicalize().unwrap(),
            f.source.join("node_modules/typescript")
        );
        assert_eq!(read("node_modules/.bin/README"), "tools\n");

        // A package uninstalled is gone from the mirror too; the user's files are as they were.
        std::fs::remove_file(f.source.join("node_modules/@acme/ts")).unwrap();
        shadow.sync(&proposed).unwrap();
        assert!(tree.join("node_modules/@acme/ts").symlink_metadata().is_err());
        std::os::unix::fs::symlink("../typescript", f.source.join("node_modules/@acme/ts")).unwrap();
        assert_eq!(snapshot(&f.source), before, "the source is untouched");
    }

    #[test]
    fn a_dotfiles_repository_above_the_project_does_not_hide_it() {
        let f = fixture(&[("src/lib.rs", "fn a() {}\n"), (".git/HEAD", "ref"), (".gitignore", "/out/\n")]);
        // The home folder is a repository that ignores everything it does not list.
        let home = f.source.parent().unwrap();
        std::fs::create_dir_all(home.join(".git")).unwrap();
        std::fs::write(home.join(".gitignore"), "*\n").unwrap();
        let mut shadow = Shadow::open(&f.source, &f.cache).unwrap();
        shadow.sync(&BTreeMap::new()).unwrap();
        let tree = snapshot(shadow.tree());
        assert_eq!(tree.get("src/lib.rs").map(String::as_str), Some("fn a() {}\n"), "{tree:?}");
    }

    #[test]
    fn later_syncs_write_only_what_changed_and_mirror_deletions() {
        let f = fixture(&[("a.txt", "a\n"), ("b.txt", "b\n"), ("dir/c.txt", "c\n")]);
        let mut shadow = Shadow::open(&f.source, &f.cache).unwrap();
        assert_eq!(shadow.sync(&BTreeMap::new()).unwrap().written, 3);
        assert_eq!(shadow.sync(&BTreeMap::new()).unwrap().written, 0, "warm and unchanged");

        std::fs::write(f.source.join("a.txt"), "a changed, longer\n").unwrap();
        std::fs::remove_file(f.source.join("dir/c.txt")).unwrap();
        let stats = shadow.sync(&BTreeMap::new()).unwrap();
        assert_eq!((stats.written, stats.removed), (1, 1));
        assert_eq!(std::fs::read_to_string(shadow.tree().join("a.txt")).unwrap(), "a changed, longer\n");
        assert!(!shadow.tree().join("dir/c.txt").exists());

        // An override replaces the disk text, and when it goes the disk text comes back.
        let overrides = BTreeMap::from([(p("b.txt"), Some("buffer\n".to_owned()))]);
        assert_eq!(shadow.sync(&overrides).unwrap().written, 1);
        assert_eq!(shadow.sync(&overrides).unwrap().written, 0);
        assert_eq!(shadow.sync(&BTreeMap::new()).unwrap().written, 1);
        assert_eq!(std::fs::read_to_string(shadow.tree().join("b.txt")).unwrap(), "b\n");

        // A reopened shadow remembers what it holds.
        let mut reopened = Shadow::open(&f.source, &f.cache).unwrap();
        assert_eq!(reopened.sync(&BTreeMap::new()).unwrap().written, 0);
    }

    #[test]
    fn buffers_inside_linked_folders_never_write_through_the_link() {
        let f = fixture(&[("src/lib.rs", "x\n"), ("node_modules/@types/node/fs.d.ts", "declare const fs: 1;\n")]);
        let outside = f.cache.parent().unwrap().join("elsewhere");
        std::fs::create_dir_all(outside.join("deep")).unwrap();
        std::fs::write(outside.join("deep/lib.rs"), "the real one\n").unwrap();
        std::os::unix::fs::symlink(&outside, f.source.join("vendor")).unwrap();
        let before = (snapshot(&f.source), snapshot(&outside));

        let mut shadow = Shadow::open(&f.source, &f.cache).unwrap();
        // The editor has a file open in each linked folder (go to definition), edited.
        let overrides = BTreeMap::from([
            (p("node_modules/@types/node/fs.d.ts"), Some("edited\n".to_owned())),
            (p("vendor/deep/lib.rs"), Some("edited\n".to_owned())),
            (p("vendor/deep/new.rs"), Some("new\n".to_owned())),
        ]);
        shadow.sync(&overrides).unwrap();
        // Then closes them (the overrides go), and a proposal deletes one.
        shadow.sync(&BTreeMap::from([(p("vendor/deep/lib.rs"), None)])).unwrap();
        shadow.sync(&BTreeMap::new()).unwrap();
        assert_eq!((snapshot(&f.source), snapshot(&outside)), before, "nothing behind a link was written or removed");
        assert!(shadow.tree().join("vendor").is_symlink(), "the link is mirrored as a link");
    }

    #[test]
    fn links_lead_where_the_workspaces_lead() {
        let f = fixture(&[("src/lib.rs", "pub fn a() {}\n")]);
        // A folder beside the workspace, reached by a relative link (a package opened alone).
        let shared = f.source.parent().unwrap().join("shared");
        std::fs::create_dir_all(&shared).unwrap();
        std::fs::write(shared.join("x.txt"), "shared\n").unwrap();
        std::os::unix::fs::symlink("../shared", f.source.join("shared")).unwrap();
        // Links into the workspace, relative and absolute.
        std::fs::create_dir_all(f.source.join("docs")).unwrap();
        std::os::unix::fs::symlink("../src/lib.rs", f.source.join("docs/lib.rs")).unwrap();
        std::os::unix::fs::symlink(f.source.join("src"), f.source.join("code")).unwrap();

        let mut shadow = Shadow::open(&f.source, &f.cache).unwrap();
        shadow.sync(&BTreeMap::from([(p("src/lib.rs"), Some("pub fn b() {}\n".to_owned()))])).unwrap();
        let tree = shadow.tree();
        assert_eq!(std::fs::read_to_string(tree.join("shared/x.txt")).unwrap(), "shared\n");
        // The build sees the proposal through every link into the workspace.
        assert_eq!(std::fs::read_to_string(tree.join("docs/lib.rs")).unwrap(), "pub fn b() {}\n");
        assert_eq!(std::fs::read_to_string(tree.join("code/lib.rs")).unwrap(), "pub fn b() {}\n");
        assert_eq!(std::fs::read_to_string(f.source.join("src/lib.rs")).unwrap(), "pub fn a() {}\n");
    }

    #[test]
    fn fifos_and_sockets_are_skipped_not_opened() {
        let f = fixture(&[("a.txt", "a\n")]);
        let fifo = f.source.join("pipe");
        let name = std::ffi::CString::new(fifo.as_os_str().as_encoded_bytes()).unwrap();
        // SAFETY: a valid NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(name.as_ptr(), 0o600) }, 0);
        let _socket = std::os::unix::net::UnixListener::bind(f.source.join("socket")).unwrap();
        let mut shadow = Shadow::open(&f.source, &f.cache).unwrap();
        let stats = shadow.sync(&BTreeMap::new()).unwrap();
        assert_eq!(stats.files, 1);
        assert!(!shadow.tree().join("pipe").exists() && !shadow.tree().join("socket").exists());
    }

    #[test]
    fn build_output_in_the_tree_survives_a_sync() {
        let f = fixture(&[("pom.xml", "<project/>\n")]);
        let mut shadow = Shadow::open(&f.source, &f.cache).unwrap();
        shadow.sync(&BTreeMap::new()).unwrap();
        std::fs::create_dir_all(shadow.tree().join("target/classes")).unwrap();
        std::fs::write(shadow.tree().join("target/classes/A.class"), "x").unwrap();
        shadow.sync(&BTreeMap::new()).unwrap();
        assert!(shadow.tree().join("target/classes/A.class").exists(), "files the shadow did not write are left alone");
    }

    #[test]
    fn a_file_replaced_by_a_folder_and_back() {
        let f = fixture(&[("x", "file\n")]);
        let mut shadow = Shadow::open(&f.source, &f.cache).unwrap();
        shadow.sync(&BTreeMap::new()).unwrap();
        std::fs::remove_file(f.source.join("x")).unwrap();
        std::fs::create_dir(f.source.join("x")).unwrap();
        std::fs::write(f.source.join("x/y"), "nested\n").unwrap();
        shadow.sync(&BTreeMap::new()).unwrap();
        assert_eq!(std::fs::read_to_string(shadow.tree().join("x/y")).unwrap(), "nested\n");
    }

    #[test]
    fn a_damaged_manifest_means_a_full_copy() {
        let f = fixture(&[("a.txt", "a\n")]);
        let mut shadow = Shadow::open(&f.source, &f.cache).unwrap();
        shadow.sync(&BTreeMap::new()).unwrap();
        std::fs::write(shadow.dir.join("manifest.bin"), b"\xff\xff garbage").unwrap();
        std::fs::remove_file(shadow.tree().join("a.txt")).unwrap();
        let mut reopened = Shadow::open(&f.source, &f.cache).unwrap();
        assert_eq!(reopened.sync(&BTreeMap::new()).unwrap().written, 1);
        assert!(reopened.tree().join("a.txt").exists());
    }
}
