//! The on-disk index cache: extraction results keyed by content hash, so a restart only
//! parses what changed, and by path with each file's size and modification time, so a
//! restart need not even read a file that did not change.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, SystemTime};

use super::index::{Index, IndexedFile};
use super::language::Language;
use super::walk::Found;
pub use crate::workspace::user_cache_dir;

/// A file modified less than this before the build that read it began is read again at the
/// next restart whatever its modification time says: a file system that keeps coarse times
/// (FAT keeps two seconds) could give a change made just after that read the same time.
const RACY_NANOS: u64 = 3_000_000_000;

/// Whether the `found` file is as it was when a build that began to read files at
/// `reading_from` read it into `entry`, as git judges its work tree: the same size and the
/// same [`FileStamp`](super::walk::FileStamp) (both times to the nanosecond, and the inode), and a modification well
/// before that build began (see [`RACY_NANOS`]).
pub(super) fn unchanged_on_disk(entry: &IndexedFile, found: &Found, reading_from: Option<u64>) -> bool {
    let (Some(stamp), Some(from)) = (found.stamp, reading_from) else { return false };
    entry.stamp == Some(stamp)
        && entry.bytes == found.bytes
        && entry.language == found.language
        && stamp.modified < from.saturating_sub(RACY_NANOS)
}

/// Entries by content hash and language, and by path.
#[derive(Debug, Default)]
pub struct IndexCache {
    entries: HashMap<(u64, Language), Arc<IndexedFile>>,
    by_path: HashMap<String, Arc<IndexedFile>>,
    /// When the build whose entries these are began to read files.
    reading_from: Option<u64>,
    /// Milliseconds reading the file took.
    read_ms: u64,
}

/// What the cache file holds.
#[derive(serde::Serialize, serde::Deserialize)]
struct Stored<F> {
    /// When the build whose entries these are began to read files (nanoseconds since the
    /// Unix epoch).
    reading_from: Option<u64>,
    files: Vec<F>,
}

/// Raised when what is cached changes shape or meaning without a new release.
const SCHEMA: u32 = 61;

/// What a cached extraction depends on besides the file: this program's version, the cache
/// schema, and the text of the queries. A cache written under another key is not read.
fn format_key() -> u64 {
    let mut what = format!("{} {SCHEMA}", env!("CARGO_PKG_VERSION"));
    for text in super::language::QUERY_TEXTS {
        what.push_str(text);
    }
    xxhash_rust::xxh3::xxh3_64(what.as_bytes())
}

/// The cache file of a workspace:
/// `<cache dir>/issuewright/index/<hash of the root>-<format key>.bin`.
pub fn cache_file(cache_dir: &Path, root: &Path) -> PathBuf {
    let key = xxhash_rust::xxh3::xxh3_64(root.to_string_lossy().as_bytes());
    cache_dir.join("issuewright").join("index").join(format!("{key:016x}-{:016x}.bin", format_key()))
}

/// A cache file of this workspace written under another format key (another version) is
/// removed once no start has used it for this long: two versions used side by side (an
/// editor's and the command line's) keep their own.
const OTHER_VERSION_UNUSED: Duration = Duration::from_secs(24 * 60 * 60);
/// Any other workspace's cache file is removed once no start has used it for this long: the
/// clones and worktrees a user made and left.
const WORKSPACE_UNUSED: Duration = Duration::from_secs(30 * 24 * 60 * 60);

/// How long a cache file left half written is kept: one still being written is newer.
const UNFINISHED_WRITE_UNUSED: Duration = Duration::from_secs(60 * 60);
/// A cache file read at a start is marked used when it was last marked longer ago than this.
const MARK_USED_AFTER: Duration = Duration::from_secs(60 * 60);

/// Removes the cache files beside `path` that no start has used for a while (see
/// [`OTHER_VERSION_UNUSED`] and [`WORKSPACE_UNUSED`]).
fn remove_unused(path: &Path) {
    let (Some(folder), Some(name)) = (path.parent(), path.file_name().and_then(|n| n.to_str())) else { return };
    let Some((workspace, _)) = name.split_once('-') else { return };
    let Ok(entries) = std::fs::read_dir(folder) else { return };
    let now = SystemTime::now();
    for entry in entries.flatten() {
        let other = entry.file_name();
        let other = other.to_string_lossy();
        let unused_for = entry.metadata().and_then(|m| m.modified()).ok().and_then(|at| now.duration_since(at).ok());
        // A cache whose writing a process left unfinished (the editor quit meanwhile).
        if other.starts_with(crate::workspace::TEMPORARY_PREFIX) {
            if unused_for.is_some_and(|unused| unused >= UNFINISHED_WRITE_UNUSED) {
                let _ = std::fs::remove_file(entry.path());
            }
            continue;
        }
        if !other.ends_with(".bin") || other == name {
            continue;
        }
        let limit = if other.starts_with(workspace) { OTHER_VERSION_UNUSED } else { WORKSPACE_UNUSED };
        if unused_for.is_some_and(|unused| unused >= limit) {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

/// Marks the cache file at `path` used now (its modification time), unless it was lately: a
/// cache that need not be written again is still in use (see [`remove_unused`]).
fn mark_used(path: &Path) {
    let Ok(file) = std::fs::File::options().append(true).open(path) else { return };
    let now = SystemTime::now();
    let marked = file.metadata().and_then(|m| m.modified()).ok();
    if marked.and_then(|at| now.duration_since(at).ok()).is_none_or(|ago| ago >= MARK_USED_AFTER) {
        let _ = file.set_modified(now);
    }
}

impl IndexCache {
    /// Reads a cache file; a missing or unreadable one is an empty cache (it is rebuilt).
    pub fn load(path: &Path) -> Self {
        let started = std::time::Instant::now();
        let mut cache = Self::default();
        match std::fs::read(path).map(|bytes| postcard::from_bytes::<Stored<IndexedFile>>(&bytes)) {
            Ok(Ok(stored)) => {
                mark_used(path);
                cache.reading_from = stored.reading_from;
                for file in stored.files {
                    let file = Arc::new(file);
                    cache.entries.insert((file.hash, file.language), file.clone());
                    cache.by_path.insert(file.path.clone(), file);
                }
            }
            Ok(Err(error)) => tracing::warn!("ignoring the index cache {}: {error}", path.display()),
            Err(_) => {}
        }
        cache.read_ms = started.elapsed().as_millis() as u64;
        cache
    }

    /// Milliseconds reading the cache file took.
    pub fn read_ms(&self) -> u64 {
        self.read_ms
    }

    /// The entry for the file at `path` with this content, if cached: the file's own entry
    /// when it has one, else that of any file with the same content.
    pub fn get(&self, path: &str, hash: u64, language: Language) -> Option<&Arc<IndexedFile>> {
        let own = self.by_path.get(path).filter(|file| file.hash == hash && file.language == language);
        own.or_else(|| self.entries.get(&(hash, language)))
    }

    /// The entry of a found file that did not change since it was cached, as its size and
    /// stamp show ([`unchanged_on_disk`]).
    pub(super) fn unread(&self, found: &Found) -> Option<Arc<IndexedFile>> {
        let cached = self.by_path.get(&found.relative)?;
        unchanged_on_disk(cached, found, self.reading_from).then(|| cached.clone())
    }

    /// Writes the entries of `index` as the new cache (atomically: a temporary file, then a
    /// rename).
    pub fn save(path: &Path, index: &Index) -> std::io::Result<()> {
        Self::save_files(path, index.stats.reading_from, index.files().map(|f| f.as_ref()))
    }

    /// Writes `files`, read by a build that began to read files at `reading_from`, as the
    /// new cache.
    pub fn save_files<'a>(
        path: &Path,
        reading_from: Option<u64>,
        files: impl Iterator<Item = &'a IndexedFile>,
    ) -> std::io::Result<()> {
        let stored = Stored { reading_from, files: files.collect() };
        let bytes = postcard::to_stdvec(&stored).map_err(std::io::Error::other)?;
        crate::workspace::write_atomically(path, &bytes)?;
        remove_unused(path);
        Ok(())
    }

    /// Whether this cache already holds exactly what `index` would write: every file's own
    /// entry, as modified as it is now, and no other file. Writing it again would change
    /// nothing.
    pub fn holds_just(&self, index: &Index) -> bool {
        self.by_path.len() == index.len()
            && index.files().all(|file| self.by_path.get(&file.path).is_some_and(|cached| Arc::ptr_eq(cached, file)))
            && !self.would_trust_more(index)
    }

    /// Whether a cache written now, from `index`, would trust the size and time of a file
    /// this one does not: a file modified shortly before the build that wrote this cache
    /// (a clone just made) is read at every start until the cache is written again.
    fn would_trust_more(&self, index: &Index) -> bool {
        let trusted_before = |from: Option<u64>| from.map_or(0, |from| from.saturating_sub(RACY_NANOS));
        let (now, then) = (trusted_before(index.stats.reading_from), trusted_before(self.reading_from));
        index.files().any(|file| file.stamp.is_some_and(|stamp| then <= stamp.modified && stamp.modified < now))
    }

    /// Number of files cached.
    pub fn len(&self) -> usize {
        self.by_path.len()
    }

    /// True when empty.
    pub fn is_empty(&self) -> bool {
        self.by_path.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::context::Index;
    use crate::testing::{modified_ago, set_modified};

    /// A workspace `ws` holding `files` below its `src`, and where its cache file goes.
    fn workspace(files: &[(&str, &str)]) -> (tempfile::TempDir, PathBuf, PathBuf) {
        let files: Vec<(String, &str)> = files.iter().map(|(name, text)| (format!("ws/src/{name}"), *text)).collect();
        let files: Vec<(&str, &str)> = files.iter().map(|(path, text)| (path.as_str(), *text)).collect();
        let dir = crate::testing::tree(&files);
        let root = dir.path().join("ws");
        let file = cache_file(&dir.path().join("cache"), &root);
        (dir, root, file)
    }

    #[test]
    fn a_restart_reuses_unchanged_files() {
        let (_dir, root, file) = workspace(&[("a.rs", "fn a() {}\n"), ("b.rs", "fn b() {}\n")]);

        let first = Index::build(&root, Some(&IndexCache::load(&file)));
        assert_eq!(first.stats.cache_hits, 0);
        IndexCache::save(&file, &first).unwrap();

        std::fs::write(root.join("src/b.rs"), "fn b() {}\nfn c() {}\n").unwrap();
        let second = Index::build(&root, Some(&IndexCache::load(&file)));
        assert_eq!(second.stats.cache_hits, 1, "only the changed file is parsed again");
        assert_eq!(second.file("src/b.rs").unwrap().symbols.definitions.len(), 2);
        assert_eq!(second.file("src/a.rs"), first.file("src/a.rs"));
    }

    #[test]
    fn a_build_reads_the_cache_file_while_it_walks() {
        let (_dir, root, file) = workspace(&[("a.rs", "fn a() {}\n"), ("b.rs", "fn b() {}\n")]);
        let progress = crate::context::BuildProgress::default();

        let (first, cache) = Index::build_reading_cache(&root, Some(&file), 100, &progress);
        assert_eq!(first.stats.cache_hits, 0);
        assert!(cache.as_ref().is_some_and(IndexCache::is_empty), "no cache file yet: an empty cache");
        IndexCache::save(&file, &first).unwrap();

        let (second, cache) = Index::build_reading_cache(&root, Some(&file), 100, &progress);
        assert_eq!(second.stats.cache_hits, 2, "every file comes from the cache read meanwhile");
        assert!(cache.is_some_and(|cache| cache.holds_just(&second)), "nothing to write again");
        assert_eq!(second.file("src/a.rs"), first.file("src/a.rs"));

        std::fs::write(&file, b"\xff\xff not postcard").unwrap();
        let (third, cache) = Index::build_reading_cache(&root, Some(&file), 100, &progress);
        assert_eq!((third.len(), third.stats.cache_hits), (2, 0), "a damaged cache: every file parsed");
        assert!(!cache.is_some_and(|cache| cache.holds_just(&third)), "and the cache written anew");

        let (uncached, cache) = Index::build_reading_cache(&root, None, 100, &progress);
        assert_eq!((uncached.len(), uncached.stats.cache_read_ms), (2, None));
        assert!(cache.is_none());
    }

    #[test]
    fn a_restart_takes_files_unchanged_on_disk_without_reading_them() {
        let (_dir, root, file) =
            workspace(&[("a.rs", "fn a() {}\n"), ("b.rs", "fn b() {}\n"), ("c.rs", "fn c() {}\n")]);
        let hour = std::time::Duration::from_secs(3600);
        for name in ["a.rs", "b.rs", "c.rs"] {
            modified_ago(&root.join("src").join(name), hour);
        }
        let build = || {
            let (index, cache) = Index::build_reading_cache(&root, Some(&file), 100, &Default::default());
            let current = cache.is_some_and(|cache| cache.holds_just(&index));
            if !current {
                IndexCache::save(&file, &index).unwrap();
            }
            (index, current)
        };
        let (first, _) = build();
        assert_eq!((first.stats.cache_hits, first.stats.unread), (0, 0));

        let (second, current) = build();
        assert_eq!((second.stats.cache_hits, second.stats.unread), (3, 3), "none read: all as they were");
        assert!(current, "and the cache is left as it is");

        // A change gives the file a new modification time: it is read again.
        std::fs::write(root.join("src/a.rs"), "fn a() {}\nfn d() {}\n").unwrap();
        // The same content written again is read, found the same, and its new time kept.
        std::fs::write(root.join("src/b.rs"), "fn b() {}\n").unwrap();
        modified_ago(&root.join("src/b.rs"), hour / 2);
        let (third, current) = build();
        assert_eq!((third.stats.cache_hits, third.stats.unread), (2, 1));
        assert_eq!(third.file("src/a.rs").unwrap().symbols.definitions.len(), 2);
        assert!(!current, "the new reading and the new time are written");
        modified_ago(&root.join("src/a.rs"), hour);
        let (_, current) = build();
        assert!(!current, "a's time moved again");
        let (fourth, current) = build();
        assert_eq!(fourth.stats.unread, 3);
        assert!(current);

        // A tool that puts back the time it found, on a change of the same size, is seen all
        // the same: the time of the file's last change of status moves.
        let c = root.join("src/c.rs");
        let stamp = std::fs::metadata(&c).unwrap().modified().unwrap();
        std::fs::write(&c, "fn e() {}\n").unwrap();
        set_modified(&c, stamp);
        let (fifth, _) = build();
        assert_eq!(fifth.stats.unread, 2);
        assert_eq!(fifth.file("src/c.rs").unwrap().symbols.definitions[0].name, "e");

        // So is a file renamed over another of the same size and time.
        let d = root.join("src/d.rs");
        std::fs::write(&d, "fn f() {}\n").unwrap();
        let file_time = std::fs::metadata(root.join("src/b.rs")).unwrap().modified().unwrap();
        set_modified(&d, file_time);
        std::fs::rename(&d, root.join("src/b.rs")).unwrap();
        let (sixth, _) = build();
        assert_eq!(sixth.file("src/b.rs").unwrap().symbols.definitions[0].name, "f");
    }

    #[test]
    fn files_written_just_before_the_first_build_are_trusted_once_the_cache_is_written_again() {
        let (_dir, root, file) = workspace(&[("a.rs", "fn a() {}\n")]);
        // As if cloned two seconds before the editor opened it.
        modified_ago(&root.join("src/a.rs"), std::time::Duration::from_millis(2000));
        let build = || Index::build_reading_cache(&root, Some(&file), 100, &Default::default());
        let (first, _) = build();
        IndexCache::save(&file, &first).unwrap();

        std::thread::sleep(std::time::Duration::from_millis(1200));
        let (second, cache) = build();
        assert_eq!(second.stats.unread, 0, "too close to the first build to be trusted");
        assert!(!cache.unwrap().holds_just(&second), "written again, now that its time can be trusted");
        IndexCache::save(&file, &second).unwrap();
        let (third, cache) = build();
        assert_eq!(third.stats.unread, 1);
        assert!(cache.unwrap().holds_just(&third));
    }

    #[test]
    fn a_file_modified_just_before_the_build_is_read_again_at_the_next() {
        let (_dir, root, file) = workspace(&[("a.rs", "fn a() {}\n")]);
        let (first, _) = Index::build_reading_cache(&root, Some(&file), 100, &Default::default());
        IndexCache::save(&file, &first).unwrap();

        // A coarse clock could give a change made just after the first build's read the time
        // the file had: its size and time are not trusted.
        let (second, cache) = Index::build_reading_cache(&root, Some(&file), 100, &Default::default());
        assert_eq!((second.stats.cache_hits, second.stats.unread), (1, 0));
        assert!(cache.is_some_and(|cache| cache.holds_just(&second)), "read, found the same: no write");
    }

    #[test]
    fn a_cache_written_by_another_version_is_neither_read_nor_kept_once_unused() {
        let dir = crate::testing::tempdir();
        let cache = dir.path().join("cache");
        let file = cache_file(&cache, dir.path());
        let name = file.file_name().unwrap().to_str().unwrap();
        let (workspace, key) = name.split_once('-').unwrap();
        assert_eq!(key, format!("{:016x}.bin", format_key()), "the file name carries the format key");
        let older = file.with_file_name(format!("{workspace}-0000000000000000.bin"));
        let other_version = file.with_file_name(format!("{workspace}-1111111111111111.bin"));
        let other_workspace = file.with_file_name("ffffffffffffffff-0000000000000000.bin");
        let left_workspace = file.with_file_name("eeeeeeeeeeeeeeee-0000000000000000.bin");
        let unfinished = file.with_file_name(format!("{}0123456789abcdef", crate::workspace::TEMPORARY_PREFIX));
        let being_written = file.with_file_name(format!("{}fedcba9876543210", crate::workspace::TEMPORARY_PREFIX));
        std::fs::create_dir_all(file.parent().unwrap()).unwrap();
        let now = SystemTime::now();
        for (path, unused_for) in [
            (&older, OTHER_VERSION_UNUSED),
            (&other_version, Duration::from_secs(60)),
            (&other_workspace, OTHER_VERSION_UNUSED * 2),
            (&left_workspace, WORKSPACE_UNUSED),
            (&unfinished, UNFINISHED_WRITE_UNUSED),
            (&being_written, Duration::from_secs(5)),
        ] {
            std::fs::write(path, b"cache").unwrap();
            std::fs::File::options().append(true).open(path).unwrap().set_modified(now - unused_for).unwrap();
        }
        IndexCache::save_files(&file, None, std::iter::empty()).unwrap();
        assert!(!older.exists(), "the outdated cache of this workspace is removed once unused");
        assert!(other_version.exists(), "another version's cache still in use is left alone");
        assert!(other_workspace.exists(), "other workspaces' caches are left alone a while");
        assert!(!left_workspace.exists(), "a workspace's cache no start used for a month is removed");
        assert!(!unfinished.exists(), "a write a process left unfinished an hour ago is removed");
        assert!(being_written.exists(), "a write under way is left alone");
    }

    #[test]
    fn a_cache_read_at_a_start_is_marked_used() {
        let dir = crate::testing::tempdir();
        let file = dir.path().join("cache.bin");
        IndexCache::save_files(&file, None, std::iter::empty()).unwrap();
        let long_ago = SystemTime::now() - WORKSPACE_UNUSED;
        std::fs::File::options().append(true).open(&file).unwrap().set_modified(long_ago).unwrap();
        let _ = IndexCache::load(&file);
        let marked = std::fs::metadata(&file).unwrap().modified().unwrap();
        assert!(SystemTime::now().duration_since(marked).unwrap() < MARK_USED_AFTER, "{marked:?}");
    }

    #[test]
    fn a_damaged_cache_is_ignored() {
        let dir = crate::testing::tempdir();
        let file = dir.path().join("cache.bin");
        std::fs::write(&file, b"\xff\xff\xff not postcard").unwrap();
        assert!(IndexCache::load(&file).is_empty());
        assert!(IndexCache::load(&dir.path().join("absent.bin")).is_empty());
    }
}
