//! The on-disk index cache: extraction results keyed by content hash, so a restart only
//! parses what changed.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use super::index::IndexedFile;
use super::language::Language;
pub use crate::workspace::user_cache_dir;

/// Entries by content hash and language.
#[derive(Debug, Default)]
pub struct IndexCache {
    entries: HashMap<(u64, Language), IndexedFile>,
}

/// The cache file of a workspace: `<cache dir>/issuewright/index/<hash of the root>.bin`.
pub fn cache_file(cache_dir: &Path, root: &Path) -> PathBuf {
    let key = xxhash_rust::xxh3::xxh3_64(root.to_string_lossy().as_bytes());
    cache_dir.join("issuewright").join("index").join(format!("{key:016x}.bin"))
}

impl IndexCache {
    /// Reads a cache file; a missing or unreadable one is an empty cache (it is rebuilt).
    pub fn load(path: &Path) -> Self {
        let Ok(bytes) = std::fs::read(path) else { return Self::default() };
        match postcard::from_bytes::<Vec<IndexedFile>>(&bytes) {
            Ok(files) => Self { entries: files.into_iter().map(|file| ((file.hash, file.language), file)).collect() },
            Err(error) => {
                tracing::warn!("ignoring the index cache {}: {error}", path.display());
                Self::default()
            }
        }
    }

    /// The entry for content with this hash, if cached.
    pub fn get(&self, hash: u64, language: Language) -> Option<&IndexedFile> {
        self.entries.get(&(hash, language))
    }

    /// Writes `files` as the new cache (atomically: a temporary file, then a rename).
    pub fn save<'a>(path: &Path, files: impl Iterator<Item = &'a IndexedFile>) -> std::io::Result<()> {
        let files: Vec<&IndexedFile> = files.collect();
        let bytes = postcard::to_stdvec(&files).map_err(std::io::Error::other)?;
        let parent = path.parent().expect("cache files live in a folder");
        std::fs::create_dir_all(parent)?;
        let temporary = path.with_extension(format!("tmp{}", std::process::id()));
        std::fs::write(&temporary, bytes)?;
        std::fs::rename(&temporary, path)
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
    fn a_damaged_cache_is_ignored() {
        let dir = crate::testing::tempdir();
        let file = dir.path().join("cache.bin");
        std::fs::write(&file, b"\xff\xff\xff not postcard").unwrap();
        assert!(IndexCache::load(&file).is_empty());
        assert!(IndexCache::load(&dir.path().join("absent.bin")).is_empty());
    }
}
