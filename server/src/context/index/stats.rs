//! What a build counted and how far it has come, for the `index` command and the editor.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// Counts for one language.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct LanguageStats {
    /// Files indexed.
    pub files: usize,
    /// Bytes indexed.
    pub bytes: u64,
    /// Definitions found.
    pub definitions: usize,
    /// Distinct references found.
    pub references: usize,
    /// Syntax errors recovered from.
    pub parse_errors: u64,
    /// Imports (`use`, `import`, `import ... from`).
    pub imports: usize,
    /// Imports that name a file of the workspace.
    pub resolved_imports: usize,
    /// Milliseconds spent reading, parsing and extracting its files (summed over threads).
    pub cpu_ms: u64,
}

/// What a build did.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct BuildStats {
    /// Files indexed.
    pub files: usize,
    /// Bytes indexed.
    pub bytes: u64,
    /// Files reused from the on-disk cache.
    pub cache_hits: usize,
    /// Of those, the files taken on their size and stamp, without reading them.
    pub unread: usize,
    /// Files left out (too large, binary, unreadable), with why.
    pub skipped: Vec<(String, String)>,
    /// Per language.
    pub languages: BTreeMap<String, LanguageStats>,
    /// Milliseconds for the whole build.
    pub elapsed_ms: u64,
    /// Milliseconds reading the on-disk cache the build used took, when it used one.
    pub cache_read_ms: Option<u64>,
    /// The source file limit, when the tree held more source files than it: the walk took
    /// no more, and the rest is not indexed.
    pub file_limit: Option<usize>,
    /// When the build began to read files, in nanoseconds since the Unix epoch: a file
    /// modified since has a later modification time (see [`crate::context::IndexCache`]).
    #[serde(skip)]
    pub reading_from: Option<u64>,
}

impl BuildStats {
    /// What to tell the user when the file limit cut the walk short.
    pub fn limit_warning(&self, root: &Path) -> Option<String> {
        self.file_limit.map(|limit| {
            format!(
                "{} holds more than {limit} source files; the index stopped there and is incomplete. Open the \
                 project's own folder as the workspace, or raise ISSUEWRIGHT_MAX_INDEXED_FILES (0: no limit)",
                root.display()
            )
        })
    }
}

/// How far a build has come, for whoever shows it while it runs: the source files the walk
/// found (known once it is done), and how many of them are indexed.
#[derive(Debug, Default)]
pub struct BuildProgress {
    found: AtomicUsize,
    walked: AtomicBool,
    indexed: AtomicUsize,
    failed: AtomicBool,
}

impl BuildProgress {
    /// Records that the walk is done and found `files` source files.
    pub(super) fn walked(&self, files: usize) {
        self.found.store(files, Ordering::Relaxed);
        self.walked.store(true, Ordering::Release);
    }

    /// Records one more file indexed.
    pub(super) fn indexed_one(&self) {
        self.indexed.fetch_add(1, Ordering::Relaxed);
    }

    /// Records that the build failed and will not finish.
    pub fn fail(&self) {
        self.failed.store(true, Ordering::Release);
    }

    /// Whether the build failed.
    pub fn failed(&self) -> bool {
        self.failed.load(Ordering::Acquire)
    }

    /// The files indexed so far, and of how many once the walk has found them all.
    pub fn now(&self) -> (usize, Option<usize>) {
        let indexed = self.indexed.load(Ordering::Relaxed);
        (indexed, self.walked.load(Ordering::Acquire).then(|| self.found.load(Ordering::Relaxed)))
    }
}
