//! The workspace index: every source file's language, definitions, references, imports
//! and words, built in parallel and kept fresh one file at a time.

use std::collections::BTreeMap;
use std::ops::Bound;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use rayon::prelude::*;

use super::cache::{IndexCache, unchanged_on_disk};
use super::extract::{self, FileSymbols, ModuleDeclaration};
use super::language::Language;
use super::modules::{ModuleTable, Modules, rust_use_bindings};
use super::terms;
use super::walk::{
    FileStamp, Found, Walked, indexable, is_manifest, nanos_since_epoch, output_folder_of_manifest, ruled_folder, walk,
    walkable, walkable_folder,
};
use crate::workspace::generated_marker;
use manifests::Manifests;
pub use manifests::{Crate, CrateRoot};
pub use roles::{is_example_path, is_example_word, is_test_path};
pub(crate) use source_files::not_source;
use source_files::{Indexed, Taken, index_found};
pub use stats::{BuildProgress, BuildStats, LanguageStats};

mod manifests;
mod roles;
mod source_files;
mod stats;

/// Source files larger than this are left out (generated code, vendored bundles).
pub const MAX_SOURCE_BYTES: u64 = 1024 * 1024;

/// Most source files a full build walks to by default: in a larger tree (a home folder
/// opened as the workspace) the walk takes no more, and the build says so. Files and folders
/// that appear on disk later fill no more than the room left; documents opened in the editor
/// are still added.
pub const MAX_INDEXED_FILES: usize = 50_000;

/// One indexed file.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct IndexedFile {
    /// Workspace-relative path with `/` separators.
    pub path: String,
    /// Its language.
    pub language: Language,
    /// Size in bytes.
    pub bytes: u64,
    /// Lines.
    pub lines: u32,
    /// xxh3 of the content.
    pub hash: u64,
    /// What the queries found.
    pub symbols: FileSymbols,
    /// Word counts of the whole text, for lexical ranking.
    pub terms: terms::WordCounts,
    /// Total words.
    pub word_count: u32,
    /// The header phrase that says a tool writes this file (`@generated`, `DO NOT EDIT`), if
    /// one does: a change belongs in what it is generated from.
    pub generated: Option<String>,
    /// How the file read from disk was last changed: with its size, what tells a restart it
    /// is unchanged (see [`IndexCache`]). None for a text from the editor.
    pub stamp: Option<FileStamp>,
}

impl IndexedFile {
    /// The trait a Rust method of this file is declared in, when the file defines that trait
    /// (`StreamExt` of its `map`): a method call reaches it only where the trait is in scope.
    pub fn trait_declaring<'a>(&self, definition: &'a extract::Definition) -> Option<&'a str> {
        let container = definition.container.as_deref()?;
        let declared = self.language == Language::Rust
            && definition.kind == extract::DefinitionKind::Method
            && self.symbols.definitions.iter().any(|d| d.kind == extract::DefinitionKind::Trait && d.name == container);
        declared.then_some(container)
    }

    /// The trait a method call must have in scope to reach a Rust method of this file: the
    /// one declaring it here (`StreamExt` of its `map`), or the one its `impl` block
    /// implements (`Iterator` of the `next` of `impl Iterator for Lines`).
    pub fn scoping_trait<'a>(&self, definition: &'a extract::Definition) -> Option<&'a str> {
        self.trait_declaring(definition).or(definition.implements.as_deref())
    }

    /// Indexes one file's content; should reading its symbols fail (see
    /// [`IndexedFile::read_source`]), without them, the failure logged.
    pub fn from_source(path: &str, language: Language, source: &[u8]) -> Self {
        let text = String::from_utf8_lossy(source);
        let symbols = symbols_of(language, &text).unwrap_or_else(|why| {
            tracing::error!("{path}: {why}; it is indexed without them");
            FileSymbols::default()
        });
        Self::with_symbols(path, language, source, &text, symbols)
    }

    /// Indexes one file's content, or says why its symbols could not be read: the reading
    /// panicked (a fault of the index that some text brings out, which costs that file only).
    pub fn read_source(path: &str, language: Language, source: &[u8]) -> Result<Self, String> {
        let text = String::from_utf8_lossy(source);
        let symbols = symbols_of(language, &text)?;
        Ok(Self::with_symbols(path, language, source, &text, symbols))
    }

    /// Builds the entry from already extracted symbols (an incremental parse).
    pub fn with_symbols(path: &str, language: Language, source: &[u8], text: &str, symbols: FileSymbols) -> Self {
        let (terms, word_count) = terms::word_counts(text);
        Self {
            path: path.to_owned(),
            language,
            bytes: source.len() as u64,
            lines: text.lines().count() as u32,
            hash: xxhash_rust::xxh3::xxh3_64(source),
            symbols,
            terms,
            word_count,
            generated: generated_marker(text).map(str::to_owned),
            stamp: None,
        }
    }

    /// True for test code by the path alone: under a `test`/`tests` folder (or a benchmarks
    /// one) or named like a test. [`Index::is_test_file`] also knows the Rust modules a crate
    /// declares for tests.
    pub fn is_test(&self) -> bool {
        is_test_path(&self.path)
    }
}

/// What `text` (a file's content read as UTF-8) defines, uses and imports, parsed afresh; or
/// why it could not be read (see [`extract::read_guarded`]).
fn symbols_of(language: Language, text: &str) -> Result<FileSymbols, String> {
    extract::read_guarded(|| match extract::parse(language, text.as_bytes(), None) {
        Some(tree) => extract::extract(language, &tree, text.as_bytes()),
        None => FileSymbols::default(),
    })
    .map_err(|panic| format!("reading its definitions and uses failed: {panic}"))
}

/// Whether two lists of a file's module declarations declare the same modules the same way,
/// wherever in the file they stand (an edit above them moves their lines).
fn same_declarations(old: &[ModuleDeclaration], new: &[ModuleDeclaration]) -> bool {
    old.len() == new.len() && old.iter().zip(new).all(|(old, new)| old.same_as(new))
}

/// How other code reaches a file's definitions (see [`Index::import_hint`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ImportHint {
    /// The module to import from: a Rust module path, a Java package, a script specifier
    /// (`tokio::sync`, `@ui/button`).
    Module(String),
    /// The npm package of a monorepo the file belongs to (`@demo/core`).
    Package(String),
}

/// The index of one workspace.
#[derive(Debug, Clone)]
pub struct Index {
    root: PathBuf,
    files: BTreeMap<String, Arc<IndexedFile>>,
    modules: Modules,
    manifests: Manifests,
    /// The most source files it takes from disk, as the build took them: a tree that grows
    /// later (a vendored tree, an archive unpacked) keeps to it too.
    max_files: usize,
    /// Documents the editor opened once the index was full, held while open: they take no
    /// room of the files from disk.
    past_limit: std::collections::BTreeSet<String>,
    /// How the last full build went.
    pub stats: BuildStats,
}

/// When a build began: for its duration, and for the time before which a file must have
/// been modified for a later restart to trust its size and modification time.
#[derive(Clone, Copy)]
struct Started {
    instant: Instant,
    /// Nanoseconds since the Unix epoch, before any file was read.
    reading_from: Option<u64>,
}

impl Started {
    fn now() -> Self {
        Self { instant: Instant::now(), reading_from: nanos_since_epoch(std::time::SystemTime::now()) }
    }
}

/// A folder read again from disk, not yet current: see [`Index::read_folder`].
pub struct FolderRead {
    root: PathBuf,
    /// The folder, ending in `/` (`""`: the workspace).
    below: String,
    indexed: Vec<Indexed>,
    manifests: Manifests,
}

/// A file read again from disk, not yet current: see [`Index::read_file`].
pub enum FileRead {
    /// Its new entry.
    Index(Arc<IndexedFile>),
    /// Its content is as indexed (the path).
    Unchanged(String),
    /// It is not to be indexed (the path): ignored, too large, a link or not source.
    Forget(String),
    /// It is new, and the index is full (the path): read again after the files a batch
    /// deleted are forgotten, it may find room (a rename in a tree at the file limit).
    NoRoom(String),
}

impl FolderRead {
    /// How many of its files were taken without reading them, unchanged since the build.
    fn unread(&self) -> usize {
        self.indexed.iter().filter(|result| matches!(result, Ok((_, Taken::Unread)))).count()
    }
}

impl Index {
    /// Indexes every source file below `root` (up to [`MAX_INDEXED_FILES`]), reusing `cache`
    /// entries whose content hash matches.
    pub fn build(root: &Path, cache: Option<&IndexCache>) -> Self {
        Self::build_limited(root, cache, MAX_INDEXED_FILES)
    }

    /// [`Index::build`] taking at most `max_files` source files from the walk (in path order,
    /// so the same ones each time), with the manifests that cover them.
    pub fn build_limited(root: &Path, cache: Option<&IndexCache>, max_files: usize) -> Self {
        Self::build_observed(root, cache, max_files, &BuildProgress::default())
    }

    /// [`Index::build_limited`], saying in `progress` how far it has come.
    pub fn build_observed(root: &Path, cache: Option<&IndexCache>, max_files: usize, progress: &BuildProgress) -> Self {
        let started = Started::now();
        let walked = walk(root, "", max_files);
        Self::from_walk(root, walked, cache, max_files, progress, started)
    }

    /// [`Index::build_observed`] through the on-disk cache in `cache_file`, which is read
    /// while the tree is walked: on a large workspace each takes a good part of a restart,
    /// and neither needs the other. Returns the cache read as well, to tell whether the
    /// index should be saved into it ([`IndexCache::holds_just`]).
    pub fn build_reading_cache(
        root: &Path,
        cache_file: Option<&Path>,
        max_files: usize,
        progress: &BuildProgress,
    ) -> (Self, Option<IndexCache>) {
        let started = Started::now();
        std::thread::scope(|scope| {
            let reading = cache_file.map(|file| scope.spawn(move || IndexCache::load(file)));
            let walked = walk(root, "", max_files);
            // A read that failed outright is no cache: every file is parsed.
            let cache = reading.and_then(|reading| reading.join().ok());
            let index = Self::from_walk(root, walked, cache.as_ref(), max_files, progress, started);
            (index, cache)
        })
    }

    /// The index of the files and manifests a walk found, reusing `cache` entries whose
    /// content hash matches.
    fn from_walk(
        root: &Path,
        Walked { found, manifests, limited, unnamed }: Walked,
        cache: Option<&IndexCache>,
        max_files: usize,
        progress: &BuildProgress,
        started: Started,
    ) -> Self {
        progress.walked(found.len());
        let manifests = Manifests::from_paths(manifests);
        let mut stats = BuildStats {
            file_limit: limited.then_some(max_files),
            cache_read_ms: cache.map(IndexCache::read_ms),
            reading_from: started.reading_from,
            skipped: unnamed,
            ..BuildStats::default()
        };
        let unread = |file: &Found| cache?.unread(file);
        let known = |file: &Found, hash: u64| {
            let cached = cache?.get(&file.relative, hash, file.language)?;
            // The same content at the same path, as modified as then, is the cached entry itself.
            if cached.path == file.relative && cached.stamp == file.stamp {
                return Some(cached.clone());
            }
            let path = file.relative.clone();
            Some(Arc::new(IndexedFile { path, stamp: file.stamp, ..IndexedFile::clone(cached) }))
        };
        let results: Vec<(Indexed, u64)> = found
            .par_iter()
            .map(|file| {
                let started = Instant::now();
                let result = index_found(file, &unread, &known);
                progress.indexed_one();
                (result, started.elapsed().as_micros() as u64)
            })
            .collect();
        let mut files = BTreeMap::new();
        let mut cpu_micros: BTreeMap<&'static str, u64> = BTreeMap::new();
        for (result, micros) in results {
            match result {
                Ok((file, taken)) => {
                    stats.cache_hits += usize::from(taken != Taken::Parsed);
                    stats.unread += usize::from(taken == Taken::Unread);
                    *cpu_micros.entry(file.language.name()).or_default() += micros;
                    files.insert(file.path.clone(), file);
                }
                Err(skipped) => stats.skipped.push(skipped),
            }
        }
        let modules = manifests.read(root, &mut stats.skipped);
        let mut index =
            Self { root: root.to_owned(), files, modules, manifests, max_files, past_limit: Default::default(), stats };
        index.stats.files = index.files.len();
        index.stats.bytes = index.files.values().map(|f| f.bytes).sum();
        index.stats.languages = index.language_stats();
        for (language, micros) in cpu_micros {
            if let Some(entry) = index.stats.languages.get_mut(language) {
                entry.cpu_ms = micros / 1000;
            }
        }
        index.stats.elapsed_ms = started.instant.elapsed().as_millis() as u64;
        index
    }

    fn language_stats(&self) -> BTreeMap<String, LanguageStats> {
        let mut languages: BTreeMap<String, LanguageStats> = BTreeMap::new();
        for file in self.files.values() {
            let entry = languages.entry(file.language.name().to_owned()).or_default();
            entry.files += 1;
            entry.bytes += file.bytes;
            entry.definitions += file.symbols.definitions.len();
            entry.references += file.symbols.references.len();
            entry.parse_errors += u64::from(file.symbols.parse_errors);
        }
        languages
    }

    /// Fills each language's `imports` and `resolved_imports` in [`Index::stats`]: every
    /// import is resolved, so a report asks for it; building and ranking do not.
    pub fn count_imports(&mut self) {
        let table = self.module_table();
        let mut counts: BTreeMap<&'static str, (usize, usize)> = BTreeMap::new();
        for file in self.files.values() {
            let entry = counts.entry(file.language.name()).or_default();
            for import in &file.symbols.imports {
                entry.0 += 1;
                entry.1 += usize::from(!self.resolve_import(file, import, &table).is_empty());
            }
        }
        for (language, (imports, resolved)) in counts {
            if let Some(entry) = self.stats.languages.get_mut(language) {
                entry.imports = imports;
                entry.resolved_imports = resolved;
            }
        }
    }

    /// The unit `path` belongs to: its Java package, Rust module path (`tokio::sync::mpsc`),
    /// TypeScript path alias or folder.
    pub fn module_of(&self, path: &str) -> Option<String> {
        Some(self.module_for(self.files.get(path)?))
    }

    /// The unit `file` belongs to, whether indexed or not (a file a run has just written).
    pub fn module_for(&self, file: &IndexedFile) -> String {
        self.modules().module_of(&file.path, file.language, &file.symbols)
    }

    /// The module to import what `file` defines from, when that says more than its folder
    /// (a Rust module path, a Java package its folder does not spell out, a TypeScript
    /// specifier through a path alias: `@ui/button`).
    pub fn import_module(&self, file: &IndexedFile) -> Option<String> {
        if file.language.is_script() {
            return self.modules().script_specifier(&file.path);
        }
        let module = self.module_for(file);
        let folder = file.path.rsplit_once('/').map_or("", |(dir, _)| dir);
        let spelt = module == folder || (file.language == Language::Java && folder_spells(folder, &module));
        (!spelt).then_some(module)
    }

    /// The npm package of the workspace a script belongs to, in a monorepo (see
    /// [`Modules::script_package`]); none for other languages.
    pub fn script_package(&self, file: &IndexedFile) -> Option<String> {
        file.language.is_script().then(|| self.modules.script_package(&file.path).map(str::to_owned)).flatten()
    }

    /// How other code reaches `file`'s definitions: the module to import them from, else, in
    /// a monorepo, the npm package it belongs to.
    pub fn import_hint(&self, file: &IndexedFile) -> Option<ImportHint> {
        self.import_module(file).map(ImportHint::Module).or_else(|| self.script_package(file).map(ImportHint::Package))
    }

    /// Rust module paths and Java packages, each with its files, for resolving imports.
    pub fn module_table(&self) -> ModuleTable {
        let mut table = ModuleTable::new();
        for file in self.files.values() {
            let module = match file.language {
                Language::Rust => self.modules().rust_module(&file.path),
                Language::Java => file.symbols.package.clone(),
                _ => None,
            };
            if let Some(module) = module {
                table.entry(module).or_default().push(file.path.clone());
            }
        }
        table
    }

    /// The workspace files an import of `file` names (none for imports from outside).
    pub fn resolve_import(&self, file: &IndexedFile, import: &str, table: &ModuleTable) -> Vec<String> {
        let mut named =
            self.modules().resolve(&file.path, file.language, import, table, |p| self.files.contains_key(p));
        named.retain(|path| *path != file.path);
        named
    }

    /// The files of the Rust module `path` names as a whole, as written in `file`
    /// (`crate::io`, `super::io`, `io` after `mod io;`); none when it names no module of the
    /// workspace, or an item inside one.
    pub fn rust_module_named<'t>(
        &self,
        file: &IndexedFile,
        path: &str,
        table: &'t ModuleTable,
    ) -> Option<&'t Vec<String>> {
        self.modules().rust_module_named(&file.path, path, table)
    }

    /// Each path written out in `file`'s Rust code (`crate::sync::acquire`, `entry::test` after
    /// `mod entry;`, `sync::acquire` after `use crate::sync;`) with the files it leads to: its
    /// first name is read through the file's `use` declarations, then resolved as an import is.
    pub fn resolve_written_paths<'f>(&self, file: &'f IndexedFile, table: &ModuleTable) -> Vec<(&'f str, Vec<String>)> {
        let bindings: Vec<(String, String)> =
            file.symbols.imports.iter().flat_map(|import| rust_use_bindings(import)).collect();
        file.symbols
            .written_paths
            .iter()
            .map(|path| {
                let (first, rest) = path.split_once("::").unwrap_or((path, ""));
                let imported = bindings.iter().find(|(name, _)| name == first).map(|(_, target)| match rest {
                    "" => target.clone(),
                    rest => format!("{target}::{rest}"),
                });
                (path.as_str(), self.resolve_import(file, imported.as_deref().unwrap_or(path), table))
            })
            .collect()
    }

    /// The workspace root.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Every indexed file, by path.
    pub fn files(&self) -> impl Iterator<Item = &Arc<IndexedFile>> {
        self.files.values()
    }

    /// Number of indexed files.
    pub fn len(&self) -> usize {
        self.files.len()
    }

    /// True when nothing is indexed.
    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }

    /// One file.
    pub fn file(&self, path: &str) -> Option<&Arc<IndexedFile>> {
        self.files.get(path)
    }

    /// The Rust crates found.
    pub fn crates(&self) -> &[Crate] {
        self.modules.crates()
    }

    /// Whether `name` is a crate outside the workspace that one of its crates depends on.
    pub fn is_external_crate(&self, name: &str) -> bool {
        self.modules.is_external_crate(name)
    }

    /// The npm packages found: each `package.json`'s folder and the name it gives.
    pub fn packages(&self) -> &[(String, String)] {
        self.modules.packages()
    }

    /// Re-indexes one file from its current text (an editor buffer, or the disk after a save).
    /// Files that are not source files of a known language are ignored.
    pub fn update(&mut self, path: &str, source: &[u8]) {
        if let Some(language) = Language::of_path(path) {
            self.insert(IndexedFile::from_source(path, language, source));
        }
    }

    /// Puts an already built entry in place (e.g. from an incremental parse).
    pub fn insert(&mut self, file: IndexedFile) {
        self.put(Arc::new(file));
    }

    /// Indexes an editor's document opened once the index was [full](Index::full): held
    /// beside the files from disk, taking none of their room, until it is
    /// [removed](Index::remove).
    pub fn insert_past_limit(&mut self, file: IndexedFile) {
        self.past_limit.insert(file.path.clone());
        self.insert(file);
    }

    /// How many of the indexed files came from disk (or stand for a file there), not
    /// documents opened past the limit.
    fn files_from_disk(&self) -> usize {
        self.len() - self.past_limit.len()
    }

    fn put(&mut self, file: Arc<IndexedFile>) {
        let redeclares = file.language == Language::Rust
            && self.files.get(&file.path).is_none_or(|old| {
                !same_declarations(&old.symbols.module_declarations, &file.symbols.module_declarations)
            });
        self.files.insert(file.path.clone(), file);
        if redeclares {
            self.modules.forget_declared();
        }
    }

    /// Forgets a deleted file.
    pub fn remove(&mut self, path: &str) {
        self.past_limit.remove(path);
        if self.files.remove(path).is_some_and(|old| old.language == Language::Rust) {
            self.modules.forget_declared();
        }
    }

    /// Reads the crates' and TypeScript configurations again, after one changed, came or went
    /// (a `tsconfig.json` may extend another, so all of them).
    fn reread_manifests(&mut self) {
        let mut unreadable = Vec::new();
        self.modules = self.manifests.read(&self.root, &mut unreadable);
        for (path, why) in unreadable {
            tracing::warn!("{path}: {why}");
        }
    }

    /// Whether `file` is test code: by its path (a `tests/` folder, `FooTest.java`,
    /// `x.test.ts`), or as a Rust module its crate declares as test code (`#[cfg(test)] mod
    /// mocks;`) or one below such a module.
    pub fn is_test_file(&self, file: &IndexedFile) -> bool {
        file.is_test() || (file.language == Language::Rust && self.modules().is_declared_test(&file.path))
    }

    /// The module knowledge, Rust files given the module paths their crates' `mod`
    /// declarations give them (followed again after a change, when first needed).
    fn modules(&self) -> &Modules {
        self.modules.ensure_declared(|| {
            self.files
                .values()
                .filter(|file| file.language == Language::Rust)
                .map(|file| (file.path.as_str(), file.symbols.module_declarations.as_slice()))
                .collect()
        });
        &self.modules
    }

    /// Re-reads one path from disk: a file the walk would index is indexed again; anything
    /// else there (gone, ignored, too large, a link, a FIFO) is forgotten, and a folder that
    /// went away takes every file below it along. A manifest (`Cargo.toml`, `package.json`,
    /// `tsconfig*.json`, `jsconfig.json`) indexes nothing: the manifests are read again when it
    /// is (or was) one the walk would take.
    pub fn refresh_from_disk(&mut self, path: &str) {
        self.refresh_from_disk_keeping(path, &|_| false);
    }

    /// [`Index::refresh_from_disk`], leaving the files `keep` names as they are indexed when
    /// a folder is read again (documents open in the editor: their buffers are their truth).
    pub fn refresh_from_disk_keeping(&mut self, path: &str, keep: &dyn Fn(&str) -> bool) {
        let name = path.rsplit('/').next().unwrap_or(path);
        if is_manifest(name) {
            let present =
                self.root.join(path).symlink_metadata().is_ok_and(|m| m.is_file()) && walkable(&self.root, path);
            // Noted first, so the folder read below finds the manifests as listed and the
            // manifests are read again once.
            let noted = self.manifests.note(path, present);
            // One at the top of a folder named like build output opens or closes the folder.
            if let Some(folder) = output_folder_of_manifest(path)
                && let Some(read) = self.read_folder(folder)
            {
                self.apply_folder(read, keep);
            }
            if noted {
                self.reread_manifests();
            }
            return;
        }
        if let Some(folder) = self.folder_read_for(path) {
            // A file that became a folder (`src/a.rs` now `src/a.rs/`) is no file any more.
            if folder == path && !keep(path) {
                self.remove(path);
            }
            if let Some(read) = self.read_folder(&folder) {
                self.apply_folder(read, keep);
            }
            return;
        }
        // A base a `tsconfig.json` extends (`tsconfig.base.json`, or any name it gives).
        let extended = self.modules.is_tsconfig_base(path);
        if extended || named_like_tsconfig(name) {
            if extended || walkable(&self.root, path) {
                self.reread_manifests();
            }
            return;
        }
        match self.read_file(path) {
            Some(read) => {
                self.apply_file(read);
            }
            None => self.remove(path),
        }
        // No folder stands here now (gone, or a file or a link replaced it): whatever was below
        // it goes, as if its folder were read again empty.
        self.apply_folder(self.nothing_below(path), keep);
    }

    /// Whether a change on disk at `path` touches only the file's own entry, so that it can be
    /// [read](Index::read_file) beside others and [made current](Index::apply_file) with them:
    /// a file that is there, does not [shape](Index::shapes) the index (no manifest,
    /// `tsconfig` or ignore file) and did not replace a folder the index holds files of.
    pub fn changes_one_entry(&self, path: &str) -> bool {
        self.concerns(path)
            && !self.shapes(path)
            && self.root.join(path).symlink_metadata().is_ok_and(|m| m.is_file())
            // A file that replaced a folder takes what was below it along, one by one.
            && self.indexed_below(&below_folder(path)).next().is_none()
    }

    /// Reads the file at `path` from disk as the index would take it, without changing the
    /// index: its entry, the one it has, or none (ignored, too large, a link or not source).
    /// An entry read from disk (by the walk or here) whose content is unchanged is not parsed again; one
    /// from an editor's buffer always is (its reading may have been incremental). None when
    /// nothing is there.
    pub fn read_file(&self, path: &str) -> Option<FileRead> {
        let absolute = self.root.join(path);
        let metadata = absolute.symlink_metadata().ok()?;
        let path = path.to_owned();
        if !(metadata.is_file() && metadata.len() <= MAX_SOURCE_BYTES && indexable(&self.root, &path)) {
            return Some(FileRead::Forget(path));
        }
        let Some(language) = Language::of_path(&path) else { return Some(FileRead::Forget(path)) };
        let known = self.files.get(&path);
        // A full index takes no new file from disk: not read at all.
        if known.is_none() && self.full() {
            return Some(FileRead::NoRoom(path));
        }
        Some(match source_files::read_source_bytes(&absolute) {
            Ok(Some(bytes)) if not_source(&path, &bytes).is_none() => {
                let hash = xxhash_rust::xxh3::xxh3_64(&bytes);
                // Entries read from disk carry its stamp; a buffer's none (its reading may have
                // been incremental, and the disk's text is read whole again).
                match known.filter(|known| known.hash == hash && known.stamp.is_some()) {
                    Some(_) => FileRead::Unchanged(path),
                    None => FileRead::Index(Arc::new(IndexedFile {
                        stamp: super::walk::FileStamp::of(&metadata),
                        ..IndexedFile::from_source(&path, language, &bytes)
                    })),
                }
            }
            _ => FileRead::Forget(path),
        })
    }

    /// [`Index::read_file`] for each of `paths` whose change [touches only its own
    /// entry](Index::changes_one_entry), on all cores; the rest are returned, to be
    /// [refreshed](Index::refresh_from_disk) one by one.
    pub fn read_files<'p>(&self, paths: &'p [String]) -> (Vec<(&'p str, Option<FileRead>)>, Vec<&'p str>) {
        // Judging a path looks at the disk too: on all cores as well.
        let (alone, others): (Vec<&str>, Vec<&str>) =
            paths.par_iter().map(String::as_str).partition(|path| self.changes_one_entry(path));
        (alone.into_par_iter().map(|path| (path, self.read_file(path))).collect(), others)
    }

    /// Makes a [`Index::read_file`] current; false when a new file found no room (see
    /// [`FileRead::NoRoom`]), so that it can be read again once the batch it came in has
    /// forgotten the files it deleted. A tree at the file limit takes no new file from disk;
    /// documents opened in the editor still come in (see `LiveIndex::open`).
    pub fn apply_file(&mut self, read: FileRead) -> bool {
        match read {
            FileRead::Index(file) if self.files.contains_key(&file.path) || !self.full() => self.put(file),
            FileRead::Index(_) | FileRead::NoRoom(_) => return false,
            FileRead::Unchanged(_) => {}
            FileRead::Forget(path) => self.remove(&path),
        }
        true
    }

    /// Makes a [`Index::read_files`] current, but for the files `keep` names (documents open in
    /// the editor). Returns the paths to [refresh](Index::refresh_from_disk) one by one after
    /// the rest of the batch: those gone since they were judged, then the new files a full
    /// index had no room for, so that a rename's deleted name makes room first.
    pub fn apply_files<'p>(
        &mut self,
        read: Vec<(&'p str, Option<FileRead>)>,
        keep: &dyn Fn(&str) -> bool,
    ) -> Vec<&'p str> {
        let (mut gone, mut no_room) = (Vec::new(), Vec::new());
        for (path, read) in read.into_iter().filter(|(path, _)| !keep(path)) {
            match read.map(|read| self.apply_file(read)) {
                Some(true) => {}
                Some(false) => no_room.push(path),
                None => gone.push(path),
            }
        }
        gone.extend(no_room);
        gone
    }

    /// Whether the index holds as many files as it takes from disk (see
    /// [`Index::build_limited`]); documents opened in the editor may take it past.
    pub fn full(&self) -> bool {
        self.files_from_disk() >= self.max_files
    }

    /// Whether a change to `relative` changes more of the index than its own entry: what
    /// [`shapes_the_index`] says by name, or a configuration a `tsconfig.json` extends.
    pub fn shapes(&self, relative: &str) -> bool {
        shapes_the_index(relative) || self.modules.is_tsconfig_base(relative)
    }

    /// Whether a change on disk at `path` can change the index: one to a file it holds or
    /// would take, to one that [shapes](Index::shapes) it, or to a folder, here or gone (not
    /// `package-lock.json`, nor a file written into `node_modules/`).
    pub fn concerns(&self, path: &str) -> bool {
        let name = path.rsplit('/').next().unwrap_or(path);
        // A manifest counts where the walk would take it, or where one was: not each
        // `package.json` an `npm install` writes into `node_modules/`.
        let shapes = if is_manifest(name) {
            self.manifests.lists(path) || walkable(&self.root, path)
        } else {
            self.shapes(path)
        };
        self.files.contains_key(path) || shapes || indexable(&self.root, path) || self.root.join(path).is_dir() || {
            let below = format!("{path}/");
            self.indexed_below(&below).next().is_some()
                || self.manifests.any_below(&below)
                || self.modules.has_tsconfig_base_below(&below)
        }
    }

    /// The folder (`""`: the workspace) a change at `path` makes the index read again as a
    /// whole: a folder that appeared (moved, renamed or generated comes as one event, not one
    /// per file), the folder of an edited ignore file, or a folder named like build output
    /// whose project manifest came or went. None for any other change.
    pub fn folder_read_for(&self, path: &str) -> Option<String> {
        let name = path.rsplit('/').next().unwrap_or(path);
        // A `package.json` lays out no modules: at the top of a folder named like build
        // output it only opens or closes the folder, whose walk lists it with the manifests.
        if is_manifest(name) && name != "package.json" {
            // Read again with the manifests (see `Index::refresh_from_disk`).
            None
        } else if let Some(folder) = output_folder_of_manifest(path) {
            // It makes the folder source, or build output again.
            Some(folder.to_owned())
        } else if let Some(folder) = ruled_folder(path) {
            Some(folder.to_owned())
        } else {
            self.root.join(path).symlink_metadata().is_ok_and(|m| m.is_dir()).then(|| path.to_owned())
        }
    }

    /// Reads the folder at `path` (`""`: the workspace) as the walk would, without changing
    /// the index, so it can be done while others read the index; [`Index::apply_folder`]
    /// makes it current. Files whose content is as indexed are not parsed. None when the walk
    /// would not enter the folder and neither an indexed file nor a tsconfig base lies in it.
    pub fn read_folder(&self, path: &str) -> Option<FolderRead> {
        if !path.is_empty() && !walkable_folder(&self.root, path) {
            // Nothing in it is indexed now, but a tsconfig base may be (`.config/tsconfig.json`),
            // or files were before (a `build` folder whose `package.json` went).
            let empty = self.nothing_below(path);
            let held = self.indexed_below(&empty.below).next().is_some() || self.manifests.any_below(&empty.below);
            return (held || self.modules.has_tsconfig_base_below(&empty.below)).then_some(empty);
        }
        let below = below_folder(path);
        // The tree keeps to the file limit: a folder read again takes no more than the files it
        // held and the room left (a tarball unpacked in a home folder), the room the limit
        // leaves beside everything indexed outside the folder.
        let held_below = self.indexed_below(&below).filter(|file| !self.past_limit.contains(*file)).count();
        let limit = self.max_files.saturating_sub(self.files_from_disk() - held_below);
        let Walked { found, manifests, .. } = walk(&self.root, path, limit);
        let files = &self.files;
        // A file the build read, unchanged on disk since, need not be read again.
        let reading_from = self.stats.reading_from;
        let unread = |file: &Found| {
            let entry = files.get(&file.relative)?;
            unchanged_on_disk(entry, file, reading_from).then(|| entry.clone())
        };
        let unchanged = |file: &Found, hash: u64| files.get(&file.relative).filter(|f| f.hash == hash).cloned();
        Some(FolderRead {
            root: self.root.clone(),
            below,
            indexed: found.par_iter().map(|file| index_found(file, &unread, &unchanged)).collect(),
            manifests: Manifests::from_paths(manifests),
        })
    }

    /// A read of the folder at `path` that found nothing in it.
    fn nothing_below(&self, path: &str) -> FolderRead {
        FolderRead {
            root: self.root.clone(),
            below: below_folder(path),
            indexed: Vec::new(),
            manifests: Manifests::default(),
        }
    }

    /// Makes a [`Index::read_folder`] current: files below the folder that are indexed and
    /// were not found are forgotten, those found are indexed. Files `keep` names (documents
    /// open in the editor, whose buffers are their truth) stay as they are. A read of
    /// another workspace changes nothing.
    pub fn apply_folder(&mut self, read: FolderRead, keep: &dyn Fn(&str) -> bool) {
        if read.root != self.root {
            return;
        }
        let (files, unread) = (read.indexed.len(), read.unread());
        tracing::debug!(folder = read.below, files, unread, "folder read again");
        let taken: std::collections::HashSet<&str> = read
            .indexed
            .iter()
            .map(|result| match result {
                Ok((file, _)) => file.path.as_str(),
                Err((path, _)) => path.as_str(),
            })
            .collect();
        let gone: Vec<String> = self
            .indexed_below(&read.below)
            .filter(|file| !taken.contains(file.as_str()) && !keep(file))
            .cloned()
            .collect();
        for file in gone {
            self.remove(&file);
        }
        for result in read.indexed {
            match result {
                Ok((file, _)) if keep(&file.path) => {}
                Ok((file, _)) if self.files.get(&file.path).is_some_and(|known| Arc::ptr_eq(known, &file)) => {}
                Ok((file, _)) => self.put(file),
                Err((path, _)) if keep(&path) => {}
                Err((path, why)) => {
                    tracing::debug!("{path}: {why}");
                    self.remove(&path);
                }
            }
        }
        let holds_base = self.modules.has_tsconfig_base_below(&read.below);
        if self.manifests.replace_below(&read.below, read.manifests) || holds_base {
            self.reread_manifests();
        }
    }

    /// The indexed files below the folder `below` (ending in `/`, or `""` for all of them).
    fn indexed_below<'a>(&'a self, below: &'a str) -> impl Iterator<Item = &'a String> {
        // Files below sort together right after `below`: a range, not a scan.
        let from: (Bound<&str>, Bound<&str>) = (Bound::Included(below), Bound::Unbounded);
        self.files.range::<str, _>(from).map(|(file, _)| file).take_while(move |file| file.starts_with(below))
    }
}

/// Whether a change to `relative` changes more of the index than its own entry, by its name:
/// a file that lays out modules (a `Cargo.toml`, a `package.json`, a `tsconfig.json` or
/// `jsconfig.json`, or a `tsconfig*.json` or `jsconfig*.json` base one extends), an ignore
/// file (`.gitignore`, `.ignore`, `.git/info/exclude`), or a
/// project manifest that makes a folder named like build output source (`build/package.json`).
/// A base of another name is known to the index ([`Index::shapes`]).
pub fn shapes_the_index(relative: &str) -> bool {
    let name = relative.rsplit('/').next().unwrap_or(relative);
    is_manifest(name)
        || named_like_tsconfig(name)
        || ruled_folder(relative).is_some()
        || output_folder_of_manifest(relative).is_some()
}

/// Whether a file named `name` is named like a TypeScript configuration (`tsconfig.base.json`),
/// or a JavaScript one, which TypeScript reads alike (`jsconfig.json`).
fn named_like_tsconfig(name: &str) -> bool {
    (name.starts_with("tsconfig") || name.starts_with("jsconfig")) && name.ends_with(".json")
}

/// The prefix of the paths below the folder `path`: `path/`, or `""` for the workspace.
fn below_folder(path: &str) -> String {
    if path.is_empty() { String::new() } else { format!("{path}/") }
}

/// Whether `folder` spells the Java `package` out (`src/main/java/com/acme` for `com.acme`),
/// so that naming the package beside a path in it says nothing more.
fn folder_spells(folder: &str, package: &str) -> bool {
    let spelt = package.replace('.', "/");
    folder == spelt || folder.strip_suffix(spelt.as_str()).is_some_and(|above| above.ends_with('/'))
}

#[cfg(test)]
mod tests;
