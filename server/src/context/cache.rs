//! The on-disk index cache: extraction results keyed by content hash, so a restart only
//! parses what changed.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::index::{Index, IndexedFile};
use super::language::Language;
pub use crate::workspace::user_cache_dir;

/// Entries by content hash and language.
#[derive(Debug, Default)]
pub struct IndexCache {
    entries: HashMap<(u64, Language), Arc<IndexedFile>>,
    /// Milliseconds reading the file took.
    read_ms: u64,
}

/// Raised when what is cached changes shape or meaning without a new release.
const SCHEMA: u32 = 30;

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

/// Removes the workspace's cache files written under other format keys (older versions).
fn remove_outdated(path: &Path) {
    let (Some(folder), Some(name)) = (path.parent(), path.file_name().and_then(|n| n.to_str())) else { return };
    let Some((workspace, _)) = name.split_once('-') else { return };
    let Ok(entries) = std::fs::read_dir(folder) else { return };
    for entry in entries.flatten() {
        let other = entry.file_name();
        let other = other.to_string_lossy();
        let outdated = other.starts_with(workspace) && other.ends_with(".bin") && other != name;
        if outdated {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

impl IndexCache {
    /// Reads a cache file; a missing or unreadable one is an empty cache (it is rebuilt).
    pub fn load(path: &Path) -> Self {
        let started = std::time::Instant::now();
        let entries = match std::fs::read(path).map(|bytes| postcard::from_bytes::<Vec<IndexedFile>>(&bytes)) {
            Ok(Ok(files)) => files.into_iter().map(|file| ((file.hash, file.language), Arc::new(file))).collect(),
            Ok(Err(error)) => {
                tracing::warn!("ignoring the index cache {}: {error}", path.display());
                HashMap::new()
            }
            Err(_) => HashMap::new(),
        };
        Self { entries, read_ms: started.elapsed().as_millis() as u64 }
    }

    /// Milliseconds reading the cache file took.
    pub fn read_ms(&self) -> u64 {
        self.read_ms
    }

    /// The entry for content with this hash, if cached.
    pub fn get(&self, hash: u64, language: Language) -> Option<&Arc<IndexedFile>> {
        self.entries.get(&(hash, language))
    }

    /// Writes `files` as the new cache (atomically: a temporary file, then a rename).
    pub fn save<'a>(path: &Path, files: impl Iterator<Item = &'a IndexedFile>) -> std::io::Result<()> {
        let files: Vec<&IndexedFile> = files.collect();
        let bytes = postcard::to_stdvec(&files).map_err(std::io::Error::other)?;
        crate::workspace::write_atomically(path, &bytes)?;
        remove_outdated(path);
        Ok(())
    }

    /// Whether this cache already holds exactly what `index` would write: every file came
    /// from it and it holds no other content. Writing it again would change nothing.
    pub fn holds_just(&self, index: &Index) -> bool {
        if index.stats.cache_hits != index.len() {
            return false;
        }
        let contents: HashSet<(u64, Language)> = index.files().map(|file| (file.hash, file.language)).collect();
        contents.len() == self.entries.len()
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// True when empty.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::context::Index;

    #[test]
    fn a_restart_reuses_unchanged_files() {
        let dir = crate::testing::tempdir();
        let root = dir.path().join("ws");
        std::fs::create_dir_all(root.join("src")).unwrap();
        std::fs::write(root.join("src/a.rs"), "fn a() {}\n").unwrap();
        std::fs::write(root.join("src/b.rs"), "fn b() {}\n").unwrap();
        let file = cache_file(&dir.path().join("cache"), &root);

        let first = Index::build(&root, Some(&IndexCache::load(&file)));
        assert_eq!(first.stats.cache_hits, 0);
        IndexCache::save(&file, first.files().map(|f| f.as_ref())).unwrap();

        std::fs::write(root.join("src/b.rs"), "fn b() {}\nfn c() {}\n").unwrap();
        let second = Index::build(&root, Some(&IndexCache::load(&file)));
        assert_eq!(second.stats.cache_hits, 1, "only the changed file is parsed again");
        assert_eq!(second.file("src/b.rs").unwrap().symbols.definitions.len(), 2);
        assert_eq!(second.file("src/a.rs"), first.file("src/a.rs"));
    }

    #[test]
    fn a_build_reads_the_cache_file_while_it_walks() {
        let dir = crate::testing::tempdir();
        let root = dir.path().join("ws");
        std::fs::create_dir_all(root.join("src")).unwrap();
        std::fs::write(root.join("src/a.rs"), "fn a() {}\n").unwrap();
        std::fs::write(root.join("src/b.rs"), "fn b() {}\n").unwrap();
        let file = cache_file(&dir.path().join("cache"), &root);
        let progress = crate::context::BuildProgress::default();

        let (first, cache) = Index::build_reading_cache(&root, Some(&file), 100, &progress);
        assert_eq!(first.stats.cache_hits, 0);
        assert!(cache.as_ref().is_some_and(IndexCache::is_empty), "no cache file yet: an empty cache");
        IndexCache::save(&file, first.files().map(|f| f.as_ref())).unwrap();

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
    fn a_cache_written_by_another_version_is_neither_read_nor_kept() {
        let dir = crate::testing::tempdir();
        let cache = dir.path().join("cache");
        let file = cache_file(&cache, dir.path());
        let name = file.file_name().unwrap().to_str().unwrap();
        let (workspace, key) = name.split_once('-').unwrap();
        assert_eq!(key, format!("{:016x}.bin", format_key()), "the file name carries the format key");
        let older = file.with_file_name(format!("{workspace}-0000000000000000.bin"));
        let other_workspace = file.with_file_name("ffffffffffffffff-0000000000000000.bin");
        std::fs::create_dir_all(file.parent().unwrap()).unwrap();
        std::fs::write(&older, b"old").unwrap();
        std::fs::write(&other_workspace, b"other").unwrap();
        IndexCache::save(&file, std::iter::empty()).unwrap();
        assert!(!older.exists(), "the outdated cache of this workspace is removed");
        assert!(other_workspace.exists(), "other workspaces' caches are left alone");
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
