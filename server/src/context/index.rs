//! The workspace index: every source file's language, definitions, references, imports
//! and words, built in parallel and kept fresh one file at a time.

use std::collections::BTreeMap;
use std::ops::Bound;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Instant;

use rayon::prelude::*;

use super::cache::IndexCache;
use super::extract::{self, FileSymbols};
use super::language::Language;
use super::modules::{ModuleTable, Modules, TsConfig, join, rust_use_bindings};
use super::terms;
use super::walk::{
    Found, indexable, is_manifest, output_folder_of_manifest, ruled_folder, walk, walkable, walkable_folder,
};
use crate::workspace::{generated_marker, looks_binary};

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
    pub terms: Vec<(String, u32)>,
    /// Total words.
    pub word_count: u32,
    /// The header phrase that says a tool writes this file (`@generated`, `DO NOT EDIT`), if
    /// one does: a change belongs in what it is generated from.
    pub generated: Option<String>,
}

impl IndexedFile {
    /// Indexes one file's content.
    pub fn from_source(path: &str, language: Language, source: &[u8]) -> Self {
        let text = String::from_utf8_lossy(source);
        let symbols = match extract::parse(language, text.as_bytes(), None) {
            Some(tree) => extract::extract(language, &tree, text.as_bytes()),
            None => FileSymbols::default(),
        };
        Self::with_symbols(path, language, source, &text, symbols)
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
        }
    }

    /// True for test code: under a `test`/`tests` folder (or a benchmarks one) or named like a test.
    pub fn is_test(&self) -> bool {
        is_test_path(&self.path)
    }
}

/// True for paths of test code, benchmarks among it (`benches/`, `bench/`, `benchmarks/`,
/// Java's `src/jmh/`).
pub fn is_test_path(path: &str) -> bool {
    let lower = path.to_ascii_lowercase();
    let name = path.rsplit('/').next().unwrap_or(path);
    let java_test = name.ends_with("Test.java")
        || name.ends_with("Tests.java")
        || name.ends_with("IT.java")
        || (name.starts_with("Test") && name[4..].starts_with(|c: char| c.is_ascii_uppercase()));
    let folders: Vec<&str> = lower.split('/').collect();
    let folders = &folders[..folders.len() - 1];
    let in_test_folder = folders.iter().enumerate().any(|(at, part)| match *part {
        "test" | "tests" | "__tests__" | "__mocks__" | "__fixtures__" | "testing" | "testdata" | "fixtures" | "e2e"
        | "cypress" | "benches" | "benchmarks" => true,
        // A module of a benchmarking tool (`src/benchmark/`, `cli/tools/bench/`) is its source:
        // the singular names count at the top, or as a package of a monorepo.
        "bench" | "benchmark" => at == 0 || folders[at - 1] == "packages",
        // Gradle's JMH source set, not the `org/openjdk/jmh` package.
        "jmh" => at > 0 && folders[at - 1] == "src",
        // Gradle's and Maven's other test source sets: `src/integration-test/`,
        // `src/integrationTest/`, `src/functional_test/`, `src/testFixtures/`.
        set if at > 0 && folders[at - 1] == "src" => is_test_source_set(set),
        _ => false,
    });
    in_test_folder
        || matches!(name, "tests.rs" | "test.rs")
        || name.ends_with("_test.rs")
        || name.ends_with("_tests.rs")
        || java_test
        || name.contains(".test.")
        || name.contains(".spec.")
        || script_test_support(name)
}

/// Whether a folder right below `src` is a source set of tests by its name, lower-cased:
/// `integration-test`, `integrationtest`, `functional_tests`, `e2eTest`, `testfixtures`; not
/// `latest` nor `contest`.
fn is_test_source_set(name: &str) -> bool {
    const KINDS: [&str; 11] = [
        "acceptance",
        "component",
        "contract",
        "e2e",
        "end2end",
        "functional",
        "int",
        "integration",
        "perf",
        "smoke",
        "system",
    ];
    let squashed: String = name.chars().filter(|c| *c != '-' && *c != '_').collect();
    let kind = squashed.strip_suffix('s').unwrap_or(&squashed).strip_suffix("test");
    squashed == "testfixtures" || kind.is_some_and(|kind| KINDS.contains(&kind))
}

/// A JavaScript or TypeScript file that sets tests up or configures their runner, by the
/// names the test runners give them (`setupTests.ts`, `test-utils.tsx`, `jest.config.js`,
/// `vitest.setup.ts`).
fn script_test_support(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    let Some((stem, extension)) = lower.split_once('.') else {
        return false;
    };
    let script =
        ["ts", "tsx", "js", "jsx", "mts", "cts", "mjs", "cjs"].iter().any(|e| lower.ends_with(&format!(".{e}")));
    let squashed: String = stem.chars().filter(|c| *c != '-' && *c != '_').collect();
    script
        && (matches!(squashed.as_str(), "setuptests" | "testsetup" | "testutils" | "testhelpers")
            || (matches!(stem, "jest" | "vitest" | "playwright" | "karma" | "cypress")
                && ["config.", "setup.", "workspace."].iter().any(|kind| extension.starts_with(kind))))
}

/// True for example and demonstration programs (`examples/`, `example/`, `demo/`,
/// `playground/`, `samples/`, `sample/`, a `rayon-demo` crate).
pub fn is_example_path(path: &str) -> bool {
    let mut folders = path.split('/').rev().skip(1);
    folders.any(|part| is_example_word(part) || part.ends_with("-demo") || part.ends_with("_demo"))
}

/// `example`, `examples`, `demo`, `demos`, `playground`, `playgrounds`, `sample` or
/// `samples`: a folder or word meaning example code.
pub fn is_example_word(word: &str) -> bool {
    matches!(word, "example" | "examples" | "demo" | "demos" | "playground" | "playgrounds" | "sample" | "samples")
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

/// A Rust crate in the workspace: its folder, name and the files its targets compile from.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Crate {
    /// The folder holding `Cargo.toml` (`""` for the root).
    pub dir: String,
    /// The name other crates `use` it by: `[lib] name`, else the package name, `-` turned into `_`.
    pub name: String,
    /// The library's and binaries' root files the manifest names or implies, whether or not
    /// they exist yet (binaries in `src/bin/` are found among the indexed files).
    pub roots: Vec<CrateRoot>,
}

/// A file a crate target is compiled from (`src/lib.rs`), with the target's name.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct CrateRoot {
    /// The target's name, `-` turned into `_`: the first segment of its module paths.
    pub name: String,
    /// The root file, relative to the workspace.
    pub path: String,
}

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
    /// Files left out (too large, binary, unreadable), with why.
    pub skipped: Vec<(String, String)>,
    /// Per language.
    pub languages: BTreeMap<String, LanguageStats>,
    /// Milliseconds for the whole build.
    pub elapsed_ms: u64,
    /// The source file limit, when the tree held more source files than it: the walk took
    /// no more, and the rest is not indexed.
    pub file_limit: Option<usize>,
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

/// The index of one workspace.
#[derive(Debug, Clone)]
pub struct Index {
    root: PathBuf,
    files: BTreeMap<String, Arc<IndexedFile>>,
    modules: Modules,
    manifests: Manifests,
    /// How the last full build went.
    pub stats: BuildStats,
}

/// A folder read again from disk, not yet current: see [`Index::read_folder`].
pub struct FolderRead {
    root: PathBuf,
    /// The folder, ending in `/` (`""`: the workspace).
    below: String,
    indexed: Vec<Indexed>,
    manifests: Manifests,
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
        let started = Instant::now();
        let (found, manifests, limited) = walk(root, "", max_files);
        progress.found.store(found.len(), Ordering::Relaxed);
        progress.walked.store(true, Ordering::Release);
        let manifests = Manifests::from_paths(manifests);
        let mut stats = BuildStats { file_limit: limited.then_some(max_files), ..BuildStats::default() };
        let cached = |relative: &str, hash: u64, language: Language| {
            let cached = cache?.get(hash, language)?;
            Some(Arc::new(IndexedFile { path: relative.to_owned(), ..cached.clone() }))
        };
        let results: Vec<(Indexed, u64)> = found
            .par_iter()
            .map(|file| {
                let started = Instant::now();
                let result = index_found(file, &cached);
                progress.indexed.fetch_add(1, Ordering::Relaxed);
                (result, started.elapsed().as_micros() as u64)
            })
            .collect();
        let mut files = BTreeMap::new();
        let mut cpu_micros: BTreeMap<&'static str, u64> = BTreeMap::new();
        for (result, micros) in results {
            match result {
                Ok((file, from_cache)) => {
                    stats.cache_hits += usize::from(from_cache);
                    *cpu_micros.entry(file.language.name()).or_default() += micros;
                    files.insert(file.path.clone(), file);
                }
                Err(skipped) => stats.skipped.push(skipped),
            }
        }
        let modules = manifests.read(root, &mut stats.skipped);
        let mut index = Self { root: root.to_owned(), files, modules, manifests, stats };
        index.stats.files = index.files.len();
        index.stats.bytes = index.files.values().map(|f| f.bytes).sum();
        index.stats.languages = index.language_stats();
        for (language, micros) in cpu_micros {
            if let Some(entry) = index.stats.languages.get_mut(language) {
                entry.cpu_ms = micros / 1000;
            }
        }
        index.stats.elapsed_ms = started.elapsed().as_millis() as u64;
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
    /// (a Rust module path, a Java package, a TypeScript specifier through a path alias:
    /// `@ui/button`).
    pub fn import_module(&self, file: &IndexedFile) -> Option<String> {
        if matches!(file.language, Language::TypeScript | Language::Tsx | Language::JavaScript) {
            return self.modules().script_specifier(&file.path);
        }
        let module = self.module_for(file);
        let folder = file.path.rsplit_once('/').map_or("", |(dir, _)| dir);
        (module != folder).then_some(module)
    }

    /// The npm package of the workspace a script belongs to, in a monorepo (see
    /// [`Modules::script_package`]); none for other languages.
    pub fn script_package(&self, file: &IndexedFile) -> Option<String> {
        matches!(file.language, Language::TypeScript | Language::Tsx | Language::JavaScript)
            .then(|| self.modules.script_package(&file.path).map(str::to_owned))
            .flatten()
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

    fn put(&mut self, file: Arc<IndexedFile>) {
        let redeclares = file.language == Language::Rust
            && self
                .files
                .get(&file.path)
                .is_none_or(|old| old.symbols.module_declarations != file.symbols.module_declarations);
        self.files.insert(file.path.clone(), file);
        if redeclares {
            self.modules.forget_declared();
        }
    }

    /// Forgets a deleted file.
    pub fn remove(&mut self, path: &str) {
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
    /// went away takes every file below it along. A `Cargo.toml` or `tsconfig*.json` indexes
    /// nothing: the manifests are read again when it is (or was) one the walk would take.
    pub fn refresh_from_disk(&mut self, path: &str) {
        self.refresh_from_disk_keeping(path, &|_| false);
    }

    /// [`Index::refresh_from_disk`], leaving the files `keep` names as they are indexed when
    /// a folder is read again (documents open in the editor: their buffers are their truth).
    pub fn refresh_from_disk_keeping(&mut self, path: &str, keep: &dyn Fn(&str) -> bool) {
        let absolute = self.root.join(path);
        let name = path.rsplit('/').next().unwrap_or(path);
        if is_manifest(name) {
            let present = absolute.symlink_metadata().is_ok_and(|m| m.is_file()) && walkable(&self.root, path);
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
        match absolute.symlink_metadata() {
            // A tree whose build met the file limit takes no new file from disk once full;
            // documents opened in the editor still come in (see `LiveIndex::open`).
            Ok(_) if !self.files.contains_key(path) && self.stats.file_limit.is_some_and(|max| self.len() >= max) => {}
            Ok(metadata) if metadata.is_file() && metadata.len() <= MAX_SOURCE_BYTES && indexable(&self.root, path) => {
                match std::fs::read(&absolute) {
                    Ok(bytes) if (bytes.len() as u64) <= MAX_SOURCE_BYTES && not_source(path, &bytes).is_none() => {
                        self.update(path, &bytes)
                    }
                    _ => self.remove(path),
                }
            }
            Ok(_) => self.remove(path),
            // Gone, and with it whatever was below it, as if its folder were read again empty.
            Err(_) => {
                self.remove(path);
                self.apply_folder(self.nothing_below(path), &|_| false);
            }
        }
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
        // A tree whose build met the file limit keeps to it: a folder read again takes no more
        // than the files it held and the room left (a tarball unpacked in a home folder).
        let limit = match self.stats.file_limit {
            // The room the limit leaves beside everything indexed outside the folder.
            Some(max) => max.saturating_sub(self.len() - self.indexed_below(&below).count()),
            None => usize::MAX,
        };
        let (found, manifests, _) = walk(&self.root, path, limit);
        let files = &self.files;
        let unchanged =
            |relative: &str, hash: u64, _: Language| files.get(relative).filter(|f| f.hash == hash).cloned();
        Some(FolderRead {
            root: self.root.clone(),
            below,
            indexed: found.par_iter().map(|file| index_found(file, &unchanged)).collect(),
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
/// a file that lays out modules (a `Cargo.toml`, a `tsconfig.json`, or a `tsconfig*.json`
/// base one extends), an ignore file (`.gitignore`, `.ignore`, `.git/info/exclude`), or a
/// project manifest that makes a folder named like build output source (`build/package.json`).
/// A base of another name is known to the index ([`Index::shapes`]).
pub fn shapes_the_index(relative: &str) -> bool {
    let name = relative.rsplit('/').next().unwrap_or(relative);
    is_manifest(name)
        || named_like_tsconfig(name)
        || ruled_folder(relative).is_some()
        || output_folder_of_manifest(relative).is_some()
}

/// Whether a file named `name` is named like a TypeScript configuration (`tsconfig.base.json`).
fn named_like_tsconfig(name: &str) -> bool {
    name.starts_with("tsconfig") && name.ends_with(".json")
}

/// The prefix of the paths below the folder `path`: `path/`, or `""` for the workspace.
fn below_folder(path: &str) -> String {
    if path.is_empty() { String::new() } else { format!("{path}/") }
}

/// JavaScript whose lines average more bytes than this is minified or bundled output.
const MAX_SCRIPT_LINE_AVERAGE: usize = 110;
/// Scripts smaller than this are never judged minified: a short file says too little.
const MIN_MINIFIED_BYTES: usize = 1024;

/// Why the bytes of the file at `path` are not indexed as source, if they are not:
/// binary, or JavaScript minified or bundled by a tool (`jquery.min.js`, a committed
/// `static/js/main.chunk.js`), whose one-letter names and vendored words would rank for
/// issues about the project's own code. As GitHub's Linguist does, a `.js` file (or `.mjs`,
/// `.cjs`) whose lines average over 110 bytes is taken for minified: of 8,600 source files
/// in 17 Rust, Java and TypeScript projects only minified and bundled JavaScript passes it,
/// and that runs to thousands. Tools do not write `.jsx` or TypeScript; long lines there are
/// data written into code (an SVG logo component, an embedded font), which stays.
pub(crate) fn not_source(path: &str, bytes: &[u8]) -> Option<String> {
    if looks_binary(bytes) {
        return Some("binary".into());
    }
    let output_of_tools = [".js", ".mjs", ".cjs"].iter().any(|extension| path.ends_with(extension));
    if output_of_tools && bytes.len() >= MIN_MINIFIED_BYTES {
        let lines = bytes.iter().filter(|b| **b == b'\n').count() + usize::from(!bytes.ends_with(b"\n"));
        let average = bytes.len() / lines.max(1);
        if average > MAX_SCRIPT_LINE_AVERAGE {
            return Some(format!("minified or bundled (lines average {average} bytes)"));
        }
    }
    None
}

/// A file indexed (and whether from the cache), or why it was skipped.
type Indexed = Result<(Arc<IndexedFile>, bool), (String, String)>;

/// The entry already known for a file at a path with a content hash, so it need not be parsed.
type Known<'a> = dyn Fn(&str, u64, Language) -> Option<Arc<IndexedFile>> + Sync + 'a;

fn index_found(file: &Found, known: &Known) -> Indexed {
    let skip = |why: String| Err((file.relative.clone(), why));
    if file.bytes > MAX_SOURCE_BYTES {
        return skip(format!("larger than {MAX_SOURCE_BYTES} bytes"));
    }
    let bytes = match std::fs::read(&file.absolute) {
        Ok(bytes) => bytes,
        Err(error) => return skip(format!("unreadable: {error}")),
    };
    if let Some(why) = not_source(&file.relative, &bytes) {
        return skip(why);
    }
    let hash = xxhash_rust::xxh3::xxh3_64(&bytes);
    if let Some(known) = known(&file.relative, hash, file.language) {
        return Ok((known, true));
    }
    Ok((Arc::new(IndexedFile::from_source(&file.relative, file.language, &bytes)), false))
}

/// The files that say how the workspace's modules are laid out, relative to the root.
#[derive(Debug, Clone, Default)]
struct Manifests {
    /// `Cargo.toml` files.
    crates: Vec<String>,
    /// `tsconfig.json` files.
    tsconfigs: Vec<String>,
    /// `package.json` files.
    packages: Vec<String>,
}

impl Manifests {
    /// The manifests at `paths` (as the walk finds them), each in its list, sorted for the
    /// changes the file watcher reports later.
    fn from_paths(paths: Vec<String>) -> Self {
        let mut manifests = Self::default();
        for path in paths {
            manifests.list_for(&path).push(path);
        }
        manifests.crates.sort();
        manifests.tsconfigs.sort();
        manifests.packages.sort();
        manifests
    }

    /// The list a manifest at `relative` belongs in.
    fn list_for(&mut self, relative: &str) -> &mut Vec<String> {
        if relative.ends_with("Cargo.toml") {
            &mut self.crates
        } else if relative.ends_with("package.json") {
            &mut self.packages
        } else {
            &mut self.tsconfigs
        }
    }

    /// The module knowledge they give, read from below `root`; those that cannot be read are
    /// added to `skipped`, with why.
    fn read(&self, root: &Path, skipped: &mut Vec<(String, String)>) -> Modules {
        let crates: Vec<Crate> = self.crates.iter().filter_map(|manifest| read_crate(root, manifest)).collect();
        let mut tsconfigs = Vec::new();
        for relative in &self.tsconfigs {
            match TsConfig::read(root, relative) {
                Ok(config) => tsconfigs.push(config),
                Err(error) => skipped.push((relative.clone(), error.to_string())),
            }
        }
        let packages = self.packages.iter().filter_map(|manifest| read_package(root, manifest)).collect();
        Modules::new(crates, tsconfigs).with_packages(packages)
    }

    /// Takes `relative` into (`present`) or out of the list its name belongs to; true when it
    /// is or was listed, so the module knowledge may have changed.
    fn note(&mut self, relative: &str, present: bool) -> bool {
        let list = self.list_for(relative);
        match (list.binary_search_by(|known| known.as_str().cmp(relative)), present) {
            (Err(at), true) => list.insert(at, relative.to_owned()),
            (Ok(at), false) => {
                list.remove(at);
            }
            (Ok(_), true) => {}
            (Err(_), false) => return false,
        }
        true
    }

    /// Whether the manifest at `relative` is listed.
    fn lists(&self, relative: &str) -> bool {
        [&self.crates, &self.tsconfigs, &self.packages]
            .iter()
            .any(|list| list.binary_search_by(|known| known.as_str().cmp(relative)).is_ok())
    }

    /// Whether any manifest is listed below the folder `below` (ending in `/`).
    fn any_below(&self, below: &str) -> bool {
        self.crates.iter().chain(&self.tsconfigs).chain(&self.packages).any(|manifest| manifest.starts_with(below))
    }

    /// Puts `found` (from a walk of the folder `below`, ending in `/`, or `""` for the whole
    /// tree) in place of the manifests listed below it; true when the lists changed.
    fn replace_below(&mut self, below: &str, found: Manifests) -> bool {
        let mut changed = false;
        for (list, found) in [
            (&mut self.crates, found.crates),
            (&mut self.tsconfigs, found.tsconfigs),
            (&mut self.packages, found.packages),
        ] {
            let mut kept: Vec<String> = list.iter().filter(|m| !m.starts_with(below)).cloned().collect();
            kept.extend(found);
            kept.sort();
            changed |= kept != *list;
            *list = kept;
        }
        changed
    }
}

/// The folder of a `package.json` and the package name it gives (`zod`, `@vitejs/plugin-legacy`);
/// none for one that cannot be read or names no package (a workspace's private root).
fn read_package(root: &Path, manifest: &str) -> Option<(String, String)> {
    let text = std::fs::read_to_string(root.join(manifest)).ok()?;
    let value: serde_json::Value = serde_json::from_str(&text).ok()?;
    let name = value.get("name")?.as_str()?.trim();
    let dir = manifest.rsplit_once('/').map_or("", |(dir, _)| dir).to_owned();
    (!name.is_empty()).then(|| (dir, name.to_owned()))
}

fn read_crate(root: &Path, manifest: &str) -> Option<Crate> {
    let text = std::fs::read_to_string(root.join(manifest)).ok()?;
    let value: toml::Table = toml::from_str(&text).ok()?;
    let package = value.get("package")?.get("name")?.as_str()?.replace('-', "_");
    let dir = manifest.rsplit_once('/').map_or("", |(dir, _)| dir).to_owned();
    let text_of = |table: Option<&toml::Value>, key: &str| table?.get(key)?.as_str().map(str::to_owned);
    let in_crate = |path: &str| join(&dir, path);
    let lib = value.get("lib");
    let name = text_of(lib, "name").map_or(package.clone(), |name| name.replace('-', "_"));
    let lib_path = text_of(lib, "path").unwrap_or_else(|| "src/lib.rs".to_owned());
    let mut roots = vec![CrateRoot { name: name.clone(), path: in_crate(&lib_path) }];
    for bin in value.get("bin").and_then(toml::Value::as_array).into_iter().flatten() {
        let bin_name = text_of(Some(bin), "name");
        let Some(path) = text_of(Some(bin), "path").or_else(|| bin_name.as_ref().map(|n| format!("src/bin/{n}.rs")))
        else {
            continue;
        };
        let bin_name = bin_name.map_or(package.clone(), |n| n.replace('-', "_"));
        roots.push(CrateRoot { name: bin_name, path: in_crate(&path) });
    }
    let main = in_crate("src/main.rs");
    if !roots.iter().any(|root| root.path == main) {
        roots.push(CrateRoot { name: package, path: main });
    }
    Some(Crate { dir, name, roots })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn workspace(files: &[(&str, &[u8])]) -> tempfile::TempDir {
        crate::testing::tree(files)
    }

    /// The paths `index` holds, in order.
    fn indexed_paths(index: &Index) -> Vec<&str> {
        index.files().map(|f| f.path.as_str()).collect()
    }

    #[test]
    fn rust_modules_follow_mod_declarations_path_attributes_and_targets() {
        let dir = workspace(&[
            ("Cargo.toml", b"[package]\nname = \"kit\"\n"),
            (
                "src/lib.rs",
                b"mod net;\n#[cfg(unix)]\n#[path = \"platform/unix.rs\"]\nmod sys;\nmod outer { pub mod inner; }\nmod r#try;\n",
            ),
            ("src/net.rs", b"mod tcp;\n#[path = \"wire.rs\"] mod wire;\nmod proto { mod frame; }\nuse crate::sys::helpers;\n"),
            ("src/net/tcp.rs", b"use super::wire::Frame;\n"),
            ("src/wire.rs", b""),
            ("src/net/proto/frame.rs", b""),
            ("src/platform/unix.rs", b"mod helpers;\n"),
            ("src/platform/helpers.rs", b""),
            ("src/outer/inner.rs", b""),
            ("src/try.rs", b""),
            ("src/orphan/x.rs", b""),
            ("src/bin/tool.rs", b"mod common;\nuse kit::outer;\n"),
            ("src/bin/common/mod.rs", b"use crate::common::Shared;\n"),
            ("src/bin/multi-word/main.rs", b""),
            ("flat/Cargo.toml", b"[package]\nname = \"flat\"\n[lib]\nname = \"flat-core\"\npath = \"lib.rs\"\n[[bin]]\nname = \"flat-cli\"\npath = \"cli/main.rs\"\n"),
            ("flat/lib.rs", b"pub mod util;\n"),
            ("flat/util.rs", b""),
            ("flat/cli/main.rs", b"mod args;\n"),
            ("flat/cli/args.rs", b""),
            ("tool/Cargo.toml", b"[package]\nname = \"tool-find\"\n[[bin]]\nname = \"tl\"\npath = \"src/main.rs\"\n"),
            ("tool/src/main.rs", b"mod walk;\n"),
            ("tool/src/walk.rs", b""),
        ]);
        let mut index = Index::build(dir.path(), None);
        let module = |index: &Index, path: &str| index.module_of(path).unwrap();
        for (path, expected) in [
            ("src/lib.rs", "kit"),
            ("src/net.rs", "kit::net"),
            ("src/net/tcp.rs", "kit::net::tcp"),
            ("src/wire.rs", "kit::net::wire"),
            ("src/net/proto/frame.rs", "kit::net::proto::frame"),
            ("src/platform/unix.rs", "kit::sys"),
            ("src/platform/helpers.rs", "kit::sys::helpers"),
            ("src/outer/inner.rs", "kit::outer::inner"),
            ("src/try.rs", "kit::try"),
            ("src/orphan/x.rs", "kit::orphan::x"),
            ("src/bin/tool.rs", "tool"),
            ("src/bin/common/mod.rs", "tool::common"),
            ("src/bin/multi-word/main.rs", "multi_word"),
            ("flat/lib.rs", "flat_core"),
            ("flat/util.rs", "flat_core::util"),
            ("flat/cli/main.rs", "flat_cli"),
            ("flat/cli/args.rs", "flat_cli::args"),
            ("tool/src/main.rs", "tl"),
            ("tool/src/walk.rs", "tl::walk"),
        ] {
            assert_eq!(module(&index, path), expected, "{path}");
        }
        let tool = index.crates().iter().find(|krate| krate.dir == "tool").unwrap();
        let roots: Vec<(&str, &str)> = tool.roots.iter().map(|r| (r.name.as_str(), r.path.as_str())).collect();
        assert_eq!(roots, [("tool_find", "tool/src/lib.rs"), ("tl", "tool/src/main.rs")], "a binary named once");
        let table = index.module_table();
        let resolved = |index: &Index, path: &str| -> Vec<String> {
            let file = index.file(path).unwrap();
            file.symbols.imports.iter().flat_map(|import| index.resolve_import(file, import, &table)).collect()
        };
        assert_eq!(resolved(&index, "src/net.rs"), ["src/platform/helpers.rs"]);
        assert_eq!(resolved(&index, "src/net/tcp.rs"), ["src/wire.rs"], "`super` of a `#[path]` module");
        assert_eq!(resolved(&index, "src/bin/tool.rs"), ["src/lib.rs"], "the library, from a binary");
        assert_eq!(resolved(&index, "src/bin/common/mod.rs"), Vec::<String>::new(), "`crate` is the binary");

        // An edit that drops a declaration takes the file back to the path it lives at.
        index.update("src/lib.rs", b"mod net;\nmod outer { pub mod inner; }\nmod r#try;\n");
        assert_eq!(module(&index, "src/platform/unix.rs"), "kit::platform::unix");
        index.update("src/lib.rs", b"#[path = \"platform/unix.rs\"]\nmod sys;\n");
        assert_eq!(module(&index, "src/platform/unix.rs"), "kit::sys");
        index.remove("src/lib.rs");
        assert_eq!(module(&index, "src/platform/helpers.rs"), "kit::platform::helpers", "no root, no declarations");
    }

    #[test]
    fn manifests_that_change_come_or_go_are_read_again() {
        let dir = workspace(&[
            ("Cargo.toml", b"[package]\nname = \"kit\"\n"),
            ("src/lib.rs", b"pub mod net;\n"),
            ("src/net.rs", b""),
            ("web/src/ui/button.ts", b"export class Button {}\n"),
            ("tools/gen/src/lib.rs", b""),
        ]);
        let mut index = Index::build(dir.path(), None);
        assert_eq!(index.module_of("src/net.rs").as_deref(), Some("kit::net"));
        assert_eq!(index.module_of("web/src/ui/button.ts").as_deref(), Some("web/src/ui"));
        assert_eq!(index.module_of("tools/gen/src/lib.rs").as_deref(), Some("tools/gen/src"));

        let write = |relative: &str, text: &str| std::fs::write(dir.path().join(relative), text).unwrap();
        write("Cargo.toml", "[package]\nname = \"kit\"\n[lib]\nname = \"toolkit\"\n");
        index.refresh_from_disk("Cargo.toml");
        assert_eq!(index.module_of("src/net.rs").as_deref(), Some("toolkit::net"), "a changed manifest");
        write("tools/gen/Cargo.toml", "[package]\nname = \"gen\"\n");
        index.refresh_from_disk("tools/gen/Cargo.toml");
        assert_eq!(index.module_of("tools/gen/src/lib.rs").as_deref(), Some("gen"), "a new crate");
        write("web/tsconfig.json", r#"{ "compilerOptions": { "baseUrl": "src", "paths": { "@ui/*": ["ui/*"] } } }"#);
        index.refresh_from_disk("web/tsconfig.json");
        assert_eq!(index.module_of("web/src/ui/button.ts").as_deref(), Some("@ui"), "a new tsconfig.json");

        write("web/tsconfig.base.json", r#"{ "compilerOptions": { "paths": { "@kit/*": ["src/ui/*"] } } }"#);
        write("web/tsconfig.json", r#"{ "extends": "./tsconfig.base.json" }"#);
        index.refresh_from_disk("web/tsconfig.json");
        assert_eq!(index.module_of("web/src/ui/button.ts").as_deref(), Some("@kit"), "from the base it extends");
        write("web/tsconfig.base.json", r#"{ "compilerOptions": { "paths": { "@shared/*": ["src/ui/*"] } } }"#);
        index.refresh_from_disk("web/tsconfig.base.json");
        assert_eq!(index.module_of("web/src/ui/button.ts").as_deref(), Some("@shared"), "a changed base");
        std::fs::create_dir_all(dir.path().join("web/.config")).unwrap();
        write("web/tsconfig.json", r#"{ "extends": "./.config/paths" }"#);
        index.refresh_from_disk("web/tsconfig.json");
        assert_eq!(index.module_of("web/src/ui/button.ts").as_deref(), Some("web/src/ui"), "its base is not there yet");
        assert!(index.shapes("web/.config/paths.json") && !shapes_the_index("web/.config/paths.json"));
        write("web/.config/paths.json", r#"{ "compilerOptions": { "paths": { "@base/*": ["../src/ui/*"] } } }"#);
        index.refresh_from_disk("web/.config/paths.json");
        assert_eq!(index.module_of("web/src/ui/button.ts").as_deref(), Some("@base"), "a base of any name, anywhere");
        // The folder holding the base goes, and comes back.
        std::fs::rename(dir.path().join("web/.config"), dir.path().join("config-away")).unwrap();
        assert!(index.concerns("web/.config"));
        index.refresh_from_disk("web/.config");
        assert_eq!(index.module_of("web/src/ui/button.ts").as_deref(), Some("web/src/ui"), "its base's folder gone");
        std::fs::rename(dir.path().join("config-away"), dir.path().join("web/.config")).unwrap();
        index.refresh_from_disk("web/.config");
        assert_eq!(index.module_of("web/src/ui/button.ts").as_deref(), Some("@base"), "and back");
        // What the index has no use for changes nothing.
        assert!(!index.concerns("web/package-lock.json") && !index.concerns("web/.config/other.json"));
        assert!(index.concerns("web/src/ui/new.ts") && index.concerns("web/src") && index.concerns("tools/gen"));
        assert!(index.concerns("web/src/ui/button.ts") && !index.concerns("node_modules/pkg/index.js"));

        std::fs::remove_dir_all(dir.path().join("tools")).unwrap();
        index.refresh_from_disk("tools");
        assert!(index.crates().iter().all(|krate| krate.name != "gen"), "a deleted folder takes its crate along");
        std::fs::remove_file(dir.path().join("web/tsconfig.json")).unwrap();
        index.refresh_from_disk("web/tsconfig.json");
        assert_eq!(index.module_of("web/src/ui/button.ts").as_deref(), Some("web/src/ui"), "a deleted tsconfig.json");
        std::fs::create_dir_all(dir.path().join("target/debug")).unwrap();
        write("target/debug/Cargo.toml", "[package]\nname = \"built\"\n");
        index.refresh_from_disk("target/debug/Cargo.toml");
        assert_eq!(index.crates().len(), 1, "build output is not walked, nor watched");
    }

    #[test]
    fn files_know_their_modules_and_imports_resolve_to_files() {
        let dir = workspace(&[
            ("Cargo.toml", b"[package]\nname = \"net-kit\"\n"),
            ("src/lib.rs", b"pub mod net;\nuse crate::net::tcp::TcpStream;\nuse std::io;\n"),
            ("src/net/mod.rs", b"pub mod tcp;\n"),
            ("src/net/tcp.rs", b"use super::super::Config;\npub struct TcpStream;\n"),
            ("app/tsconfig.json", b"{ // aliases\n \"compilerOptions\": { \"baseUrl\": \"src\", \"paths\": { \"@ui/*\": [\"ui/*\"], }, }, }\n"),
            ("app/src/ui/button.ts", b"import { theme } from '../theme';\nexport class Button {}\n"),
            ("app/src/theme.ts", b"export const theme = 1;\n"),
            ("app/src/main.ts", b"import { Button } from '@ui/button';\nimport React from 'react';\n"),
            ("broken/tsconfig.json", b"{ \"compilerOptions\": "),
            ("broken/x.ts", b"import { y } from './y';\n"),
        ]);
        let index = Index::build(dir.path(), None);
        assert_eq!(index.module_of("src/net/tcp.rs").as_deref(), Some("net_kit::net::tcp"));
        assert_eq!(index.module_of("src/net/mod.rs").as_deref(), Some("net_kit::net"));
        assert_eq!(index.module_of("app/src/ui/button.ts").as_deref(), Some("@ui"));
        assert_eq!(index.module_of("app/src/main.ts").as_deref(), Some("app/src"));
        assert_eq!(index.module_of("nope.rs"), None);
        let table = index.module_table();
        let resolved = |path: &str| -> Vec<Vec<String>> {
            let file = index.file(path).unwrap();
            file.symbols.imports.iter().map(|import| index.resolve_import(file, import, &table)).collect()
        };
        assert_eq!(resolved("src/lib.rs"), [vec!["src/net/tcp.rs".to_owned()], vec![]]);
        assert_eq!(resolved("src/net/tcp.rs"), [vec!["src/lib.rs".to_owned()]], "`super::super` from a leaf module");
        assert_eq!(resolved("app/src/main.ts"), [vec!["app/src/ui/button.ts".to_owned()], vec![]]);
        assert_eq!(resolved("app/src/ui/button.ts"), [vec!["app/src/theme.ts".to_owned()]]);
        let mut counted = index.clone();
        counted.count_imports();
        let rust = &counted.stats.languages["rust"];
        assert_eq!((rust.imports, rust.resolved_imports), (3, 2));
        // A tsconfig.json that is not JSON is named among the skipped files; its folder still indexes.
        let (path, why) = index.stats.skipped.iter().find(|(p, _)| p.ends_with("tsconfig.json")).unwrap();
        assert_eq!(path, "broken/tsconfig.json");
        assert!(why.contains("not valid JSON"), "{why}");
        assert!(index.file("broken/x.ts").is_some());
    }

    #[test]
    fn builds_from_sources_and_skips_what_is_not_source() {
        let big = vec![b'/'; (MAX_SOURCE_BYTES + 1) as usize];
        let dir = workspace(&[
            ("Cargo.toml", b"[package]\nname = \"my-crate\"\n"),
            ("src/lib.rs", b"pub fn alpha() {}\n"),
            ("src/net/tcp.rs", b"pub struct TcpStream;\n"),
            ("target/debug/build/gen.rs", b"fn generated() {}\n"),
            ("node_modules/x/index.js", b"function y() {}\n"),
            ("ignored/skip.rs", b"fn ignored() {}\n"),
            (".gitignore", b"ignored/\n"),
            ("huge.rs", &big),
            ("blob.rs", b"\x00\x01\x02"),
            ("latin1.java", b"class Caf\xe9 { void m\xe9thode() {} }\n"),
            ("web/app.ts", b"export function start(): void {}\n"),
            ("README.md", b"# docs\n"),
        ]);
        let index = Index::build(dir.path(), None);
        let paths = indexed_paths(&index);
        assert_eq!(paths, ["latin1.java", "src/lib.rs", "src/net/tcp.rs", "web/app.ts"]);
        let skipped: Vec<&str> = index.stats.skipped.iter().map(|(path, _)| path.as_str()).collect();
        assert_eq!(skipped.len(), 2, "{skipped:?}");
        assert!(skipped.contains(&"huge.rs") && skipped.contains(&"blob.rs"));
        assert_eq!(
            index.crates(),
            [Crate {
                dir: String::new(),
                name: "my_crate".into(),
                roots: vec![
                    CrateRoot { name: "my_crate".into(), path: "src/lib.rs".into() },
                    CrateRoot { name: "my_crate".into(), path: "src/main.rs".into() },
                ],
            }]
        );
        let latin = index.file("latin1.java").unwrap();
        assert_eq!(latin.symbols.definitions.len(), 2, "non-UTF-8 source is read lossily: {:?}", latin.symbols);
        assert_eq!(index.stats.languages["rust"].files, 2);
        assert_eq!(index.stats.languages["rust"].definitions, 2);
    }

    #[test]
    fn single_files_update_and_disappear() {
        let dir = workspace(&[("src/a.rs", b"fn one() {}\n")]);
        let mut index = Index::build(dir.path(), None);
        index.update("src/a.rs", b"fn one() {}\nfn two() {}\n");
        assert_eq!(index.file("src/a.rs").unwrap().symbols.definitions.len(), 2);
        index.update("notes.txt", b"fn not_code() {}");
        assert!(index.file("notes.txt").is_none());
        std::fs::remove_file(dir.path().join("src/a.rs")).unwrap();
        index.refresh_from_disk("src/a.rs");
        assert!(index.is_empty());
    }

    #[test]
    fn a_folder_that_appears_is_indexed_whole_and_one_moved_away_is_forgotten() {
        let dir = workspace(&[
            ("Cargo.toml", b"[package]\nname = \"kit\"\n"),
            ("src/lib.rs", b"mod old;\n"),
            ("src/old/mod.rs", b"mod deep;\npub fn moved() {}\n"),
            ("src/old/deep.rs", b"pub fn deeper() {}\n"),
        ]);
        let mut index = Index::build(dir.path(), None);
        // `mv src/old src/new`: the watcher reports the two folders, nothing for the files in them.
        std::fs::rename(dir.path().join("src/old"), dir.path().join("src/new")).unwrap();
        std::fs::write(dir.path().join("src/new/notes.txt"), "not source").unwrap();
        std::fs::create_dir_all(dir.path().join("src/new/target")).unwrap();
        std::fs::write(dir.path().join("src/new/target/kept.rs"), "pub fn kept() {}\n").unwrap();
        index.refresh_from_disk("src/old");
        index.refresh_from_disk("src/new");
        let paths = indexed_paths(&index);
        assert_eq!(paths, ["src/lib.rs", "src/new/deep.rs", "src/new/mod.rs", "src/new/target/kept.rs"]);
        assert_eq!(index.module_of("src/new/deep.rs").as_deref(), Some("kit::new::deep"));

        // A generated folder, with a crate of its own, then regenerated with fewer files.
        let generated = dir.path().join("gen");
        std::fs::create_dir_all(generated.join("src")).unwrap();
        std::fs::write(generated.join("Cargo.toml"), "[package]\nname = \"generated\"\n").unwrap();
        std::fs::write(generated.join("src/lib.rs"), "pub fn made() {}\n").unwrap();
        std::fs::write(generated.join("src/extra.rs"), "pub fn extra() {}\n").unwrap();
        std::fs::create_dir_all(generated.join("target/debug")).unwrap();
        std::fs::write(generated.join("target/debug/build.rs"), "fn output() {}\n").unwrap();
        index.refresh_from_disk("gen");
        assert_eq!(index.module_of("gen/src/lib.rs").as_deref(), Some("generated"), "its manifest is read");
        assert!(index.file("gen/src/extra.rs").is_some());
        assert!(index.file("gen/target/debug/build.rs").is_none(), "build output stays out");
        std::fs::remove_file(generated.join("src/extra.rs")).unwrap();
        index.refresh_from_disk("gen");
        assert!(index.file("gen/src/extra.rs").is_none(), "a file gone from a folder seen again is forgotten");

        // Folders the walk never enters are not entered for an event either.
        std::fs::create_dir_all(dir.path().join("node_modules/pkg")).unwrap();
        std::fs::write(dir.path().join("node_modules/pkg/index.ts"), "export const x = 1;\n").unwrap();
        index.refresh_from_disk("node_modules");
        index.refresh_from_disk("node_modules/pkg");
        assert!(index.file("node_modules/pkg/index.ts").is_none());
    }

    #[test]
    fn a_folder_read_is_made_current_apart_from_the_documents_opened_meanwhile() {
        let dir = workspace(&[("src/lib.rs", b"pub fn a() {}\n"), ("src/old.rs", b"pub fn old() {}\n")]);
        let mut index = Index::build(dir.path(), None);
        std::fs::create_dir_all(dir.path().join("src/net")).unwrap();
        std::fs::write(dir.path().join("src/net/tcp.rs"), "pub fn on_disk() {}\n").unwrap();
        std::fs::remove_file(dir.path().join("src/old.rs")).unwrap();
        assert_eq!(index.folder_read_for("src/net").as_deref(), Some("src/net"));
        assert_eq!(index.folder_read_for("src/.gitignore").as_deref(), Some("src"));
        assert_eq!(index.folder_read_for(".ignore").as_deref(), Some(""));
        assert_eq!(index.folder_read_for("src/lib.rs"), None);
        assert_eq!(index.folder_read_for("Cargo.toml"), None);
        assert_eq!(index.folder_read_for("packages/build/package.json").as_deref(), Some("packages/build"));
        assert_eq!(index.folder_read_for("tools/out/Cargo.toml"), None, "read again with the manifests");
        assert_eq!(index.folder_read_for("src/build/package.json"), None, "entered anyway");

        let read = index.read_folder("src").unwrap();
        assert!(
            index.file("src/net/tcp.rs").is_none() && index.file("src/old.rs").is_some(),
            "reading changes nothing"
        );
        // Opened and typed into while the read ran: the buffer stays the truth.
        index.update("src/net/tcp.rs", b"pub fn typed() {}\n");
        index.apply_folder(read, &|file| file == "src/net/tcp.rs");
        let names = |path: &str| -> Vec<String> {
            index.file(path).map(|f| f.symbols.definitions.iter().map(|d| d.name.clone()).collect()).unwrap_or_default()
        };
        assert_eq!(names("src/net/tcp.rs"), ["typed"]);
        assert!(index.file("src/old.rs").is_none(), "a file gone from the folder is forgotten");

        // A read of another workspace (the editor switched folders meanwhile) changes nothing.
        let other = workspace(&[("src/other.rs", b"pub fn other() {}\n")]);
        let foreign = Index::build(other.path(), None).read_folder("src").unwrap();
        index.apply_folder(foreign, &|_| false);
        assert!(index.file("src/other.rs").is_none() && index.file("src/lib.rs").is_some());
    }

    #[test]
    fn files_reported_later_are_judged_by_the_rules_the_walk_follows() {
        let dir = workspace(&[
            // Rules above the workspace (it is a folder of a larger repository).
            ("repo/.gitignore", b"generated/\n*.gen.ts\n"),
            ("repo/web/src/app.ts", b"export const app = 1;\n"),
            ("repo/web/src/generated/api.ts", b"export const api = 1;\n"),
            ("repo/web/src/types.gen.ts", b"export type T = 1;\n"),
            // A deeper rule wins over a shallower one.
            ("repo/web/src/keep/.gitignore", b"!keep.gen.ts\n"),
            ("repo/web/src/keep/keep.gen.ts", b"export const kept = 1;\n"),
            ("repo/web/.ignore", b"scratch.ts\n"),
            ("repo/web/scratch.ts", b"export const s = 1;\n"),
            ("repo/.git/info/exclude", b"local/\n"),
            ("repo/web/local/mine.ts", b"export const m = 1;\n"),
            // Nor can a file be taken back from a folder that is ignored.
            ("repo/web/vendor/.gitignore", b"!lib.ts\n"),
            ("repo/web/.gitignore", b"vendor/\n"),
            ("repo/web/vendor/lib.ts", b"export const v = 1;\n"),
            // Any `.ignore` rule outweighs any `.gitignore` rule, however deep.
            ("repo/web/src/mocks/.gitignore", b"!data.mock.ts\n"),
            ("repo/web/src/mocks/data.mock.ts", b"export const d = 1;\n"),
            ("repo/web/src/.ignore", b"*.mock.ts\n"),
        ]);
        let root = dir.path().join("repo/web");
        let index = Index::build(&root, None);
        let indexed = indexed_paths(&index);
        assert_eq!(indexed, ["src/app.ts", "src/keep/keep.gen.ts"]);
        for file in ["src/app.ts", "src/generated/api.ts", "src/types.gen.ts", "src/keep/keep.gen.ts", "scratch.ts"]
            .into_iter()
            .chain(["local/mine.ts", "vendor/lib.ts", "src/new.ts", "src/generated/new.ts", "src/mocks/data.mock.ts"])
        {
            let walked = indexed.contains(&file) || file == "src/new.ts";
            assert_eq!(indexable(&root, file), walked, "{file}: the walk and a later event disagree");
        }
    }

    #[cfg(unix)]
    #[test]
    fn a_workspace_opened_through_a_link_is_judged_from_its_real_place() {
        // `~/work` links to a disk elsewhere; the home folder is a dotfiles repository that ignores all.
        let dir = workspace(&[
            ("home/.gitignore", b"*\n"),
            ("home/.git/HEAD", b"ref: refs/heads/main\n"),
            ("disk/work/.gitignore", b"gen/\n"),
            ("disk/work/app.ts", b"export const app = 1;\n"),
            ("disk/work/gen/api.ts", b"export const api = 1;\n"),
        ]);
        let work = dir.path().join("home/work");
        std::os::unix::fs::symlink(dir.path().join("disk/work"), &work).unwrap();
        let index = Index::build(&work, None);
        let indexed = indexed_paths(&index);
        assert_eq!(indexed, ["app.ts"]);
        assert!(indexable(&work, "new.ts") && !indexable(&work, "gen/new.ts"), "later files judged alike");
    }

    #[test]
    fn a_repository_reads_no_ignore_rules_from_above_its_top() {
        // A dotfiles repository in the home folder ignores everything it does not list.
        let dir = workspace(&[
            ("home/.gitignore", b"*\n!.bashrc\n"),
            ("home/.git/HEAD", b"ref: refs/heads/main\n"),
            ("home/code/app/.git/HEAD", b"ref: refs/heads/main\n"),
            ("home/code/app/.gitignore", b"dist/\n"),
            ("home/code/app/src/main.ts", b"export const app = 1;\n"),
            ("home/code/app/lib/dist/out.ts", b"export const out = 1;\n"),
            // Without a repository of its own, a project inside the dotfiles one is its to judge.
            ("home/notes/todo.ts", b"export const todo = 1;\n"),
        ]);
        let app = dir.path().join("home/code/app");
        let paths = |root: &Path| Index::build(root, None).files().map(|f| f.path.clone()).collect::<Vec<_>>();
        assert_eq!(paths(&app), ["src/main.ts"]);
        assert!(indexable(&app, "src/new.ts") && !indexable(&app, "lib/dist/new.ts"));
        let notes = dir.path().join("home/notes");
        assert_eq!(paths(&notes), Vec::<String>::new());
        assert!(!indexable(&notes, "todo.ts"));
    }

    #[test]
    fn an_edited_ignore_file_takes_files_out_of_the_index_and_lets_them_back() {
        let dir = workspace(&[
            ("src/app.ts", b"export const app = 1;\n"),
            ("src/api.gen.ts", b"export const api = 1;\n"),
            ("src/nested/deep.gen.ts", b"export const deep = 1;\n"),
            ("web/page.ts", b"export const page = 1;\n"),
        ]);
        let mut index = Index::build(dir.path(), None);
        assert_eq!(indexed_paths(&index).len(), 4);
        let before = Arc::clone(index.file("web/page.ts").unwrap());

        std::fs::write(dir.path().join("src/.gitignore"), "*.gen.ts\n").unwrap();
        index.refresh_from_disk("src/.gitignore");
        assert_eq!(indexed_paths(&index), ["src/app.ts", "web/page.ts"]);

        std::fs::write(dir.path().join(".gitignore"), "web/\n").unwrap();
        index.refresh_from_disk(".gitignore");
        assert_eq!(indexed_paths(&index), ["src/app.ts"], "the workspace's own rules");

        std::fs::remove_file(dir.path().join(".gitignore")).unwrap();
        std::fs::write(dir.path().join("src/.gitignore"), "nested/\n").unwrap();
        index.refresh_from_disk(".gitignore");
        index.refresh_from_disk("src/.gitignore");
        assert_eq!(indexed_paths(&index), ["src/api.gen.ts", "src/app.ts", "web/page.ts"], "let back in");
        assert_eq!(*index.file("web/page.ts").unwrap(), before, "an unchanged file comes back as it was");
        assert!(shapes_the_index("src/.gitignore") && shapes_the_index(".ignore") && !shapes_the_index("src/app.ts"));

        // The repository's own excludes, which git keeps out of the tree.
        std::fs::create_dir_all(dir.path().join(".git/info")).unwrap();
        std::fs::write(dir.path().join(".git/info/exclude"), "web/\n").unwrap();
        assert!(shapes_the_index(".git/info/exclude"));
        index.refresh_from_disk(".git/info/exclude");
        assert_eq!(indexed_paths(&index), ["src/api.gen.ts", "src/app.ts"]);
        std::fs::write(dir.path().join(".git/info/exclude"), "").unwrap();
        index.refresh_from_disk(".git/info/exclude");
        assert_eq!(indexed_paths(&index), ["src/api.gen.ts", "src/app.ts", "web/page.ts"]);
    }

    #[test]
    fn output_folder_names_inside_src_are_packages() {
        let dir = workspace(&[
            ("src/main/java/com/acme/build/Plan.java", b"package com.acme.build;\npublic class Plan {}\n"),
            ("src/out/mod.rs", b"pub fn out() {}\n"),
            ("build/classes/Plan.java", b"public class Plan {}\n"),
            ("web/dist/app.js", b"export const app = 1;\n"),
            ("target/debug/x.rs", b"fn x() {}\n"),
        ]);
        let index = Index::build(dir.path(), None);
        let paths = indexed_paths(&index);
        assert_eq!(paths, ["src/main/java/com/acme/build/Plan.java", "src/out/mod.rs"]);
        assert!(indexable(dir.path(), "src/main/java/com/acme/build/Plan.java"));
        assert!(!indexable(dir.path(), "build/classes/Plan.java"));
        assert!(!indexable(dir.path(), "src/node_modules/x.ts"), "dependencies are never source");
    }

    #[test]
    fn scripts_know_their_package_in_a_monorepo() {
        let dir = workspace(&[
            ("package.json", b"{ \"private\": true, \"workspaces\": [\"packages/*\"] }\n"),
            ("packages/core/package.json", b"{ \"name\": \"@demo/core\" }\n"),
            ("packages/core/src/store.ts", b"export class Store {}\n"),
            ("packages/core/src/esm/package.json", b"{ \"type\": \"module\" }\n"),
            ("packages/core/src/esm/util.ts", b"export const util = 1;\n"),
            ("packages/cli/package.json", b"{ \"name\": \"demo-cli\" }\n"),
            ("packages/cli/main.ts", b"export function main() {}\n"),
            ("packages/broken/package.json", b"{ not json\n"),
            ("packages/broken/x.ts", b"export const x = 1;\n"),
            ("scripts/release.ts", b"export function release() {}\n"),
        ]);
        let mut index = Index::build(dir.path(), None);
        let package = |index: &Index, path: &str| index.script_package(index.file(path).unwrap());
        assert_eq!(package(&index, "packages/core/src/store.ts").as_deref(), Some("@demo/core"));
        assert_eq!(package(&index, "packages/core/src/esm/util.ts").as_deref(), Some("@demo/core"), "a nameless one");
        assert_eq!(package(&index, "packages/cli/main.ts").as_deref(), Some("demo-cli"));
        assert_eq!(package(&index, "packages/broken/x.ts"), None, "unreadable");
        assert_eq!(package(&index, "scripts/release.ts"), None, "the private root names none");

        // A package renamed, or gone, while the server runs.
        std::fs::write(dir.path().join("packages/cli/package.json"), "{ \"name\": \"@demo/cli\" }\n").unwrap();
        index.refresh_from_disk("packages/cli/package.json");
        assert_eq!(package(&index, "packages/cli/main.ts").as_deref(), Some("@demo/cli"));
        std::fs::remove_file(dir.path().join("packages/cli/package.json")).unwrap();
        index.refresh_from_disk("packages/cli/package.json");
        assert_eq!(package(&index, "packages/core/src/store.ts"), None, "one package left: nothing to tell apart");

        let single = workspace(&[("package.json", b"{ \"name\": \"app\" }\n"), ("src/a.ts", b"export const a = 1;\n")]);
        let single = Index::build(single.path(), None);
        assert_eq!(package(&single, "src/a.ts"), None, "a workspace of one package");
    }

    #[test]
    fn output_folder_names_holding_a_project_are_source() {
        let dir = workspace(&[
            ("packages/build/package.json", b"{ \"name\": \"@acme/build\" }\n"),
            ("packages/build/lib/bundle.ts", b"export function bundle() {}\n"),
            ("build/tsconfig.json", b"{}\n"),
            ("build/lib/gulp.ts", b"export const tasks = [];\n"),
            ("tools/out/Cargo.toml", b"[package]\nname = \"out\"\n"),
            ("tools/out/src/lib.rs", b"pub fn out() {}\n"),
            // Output, though a manifest lies deeper in it.
            ("dist/my-lib/package.json", b"{}\n"),
            ("dist/my-lib/index.js", b"export const lib = 1;\n"),
            ("target/debug/x.rs", b"fn x() {}\n"),
        ]);
        let index = Index::build(dir.path(), None);
        assert_eq!(
            indexed_paths(&index),
            ["build/lib/gulp.ts", "packages/build/lib/bundle.ts", "tools/out/src/lib.rs"]
        );
        assert!(indexable(dir.path(), "packages/build/lib/bundle.ts"), "files reported later are judged alike");
        assert!(!indexable(dir.path(), "dist/my-lib/index.js"));
        assert!(!indexable(dir.path(), "target/debug/x.rs"));
    }

    #[test]
    fn a_manifest_that_comes_or_goes_opens_or_closes_a_folder_named_like_output() {
        let dir =
            workspace(&[("src/lib.rs", b"pub fn lib() {}\n"), ("build/lib/gulp.ts", b"export const tasks = [];\n")]);
        let mut index = Index::build(dir.path(), None);
        assert_eq!(indexed_paths(&index), ["src/lib.rs"]);
        std::fs::write(dir.path().join("build/package.json"), "{}\n").unwrap();
        assert!(index.concerns("build/package.json"));
        index.refresh_from_disk("build/package.json");
        assert_eq!(indexed_paths(&index), ["build/lib/gulp.ts", "src/lib.rs"]);
        std::fs::remove_file(dir.path().join("build/package.json")).unwrap();
        index.refresh_from_disk("build/package.json");
        assert_eq!(indexed_paths(&index), ["src/lib.rs"]);
        assert!(index.concerns("web/package.json"), "another package.json names a package");
        assert!(!index.concerns("node_modules/left-pad/package.json"), "one a dependency brings changes nothing");

        // A crate's manifest there opens the folder, and its edits rename the crate.
        let module = |index: &Index| index.module_of("out/src/lib.rs");
        std::fs::create_dir_all(dir.path().join("out/src")).unwrap();
        std::fs::write(dir.path().join("out/src/lib.rs"), "pub fn out() {}\n").unwrap();
        std::fs::write(dir.path().join("out/Cargo.toml"), "[package]\nname = \"first\"\n").unwrap();
        index.refresh_from_disk("out/Cargo.toml");
        assert_eq!(module(&index).as_deref(), Some("first"));
        std::fs::write(dir.path().join("out/Cargo.toml"), "[package]\nname = \"second\"\n").unwrap();
        index.refresh_from_disk("out/Cargo.toml");
        assert_eq!(module(&index).as_deref(), Some("second"));
        std::fs::remove_file(dir.path().join("out/Cargo.toml")).unwrap();
        index.refresh_from_disk("out/Cargo.toml");
        assert_eq!(module(&index), None, "build output again");
    }

    #[test]
    fn the_walk_stops_at_the_file_limit_and_says_so() {
        let dir = workspace(&[
            ("web/lib/a.ts", b"export const a = 1;\n"),
            ("web/lib/b.ts", b"export const b = 1;\n"),
            ("web/lib/c.ts", b"export const c = 1;\n"),
            ("web/notes.md", b"# notes\n"),
            // Walked after the files it covers.
            (
                "web/tsconfig.json",
                b"{ \"compilerOptions\": { \"baseUrl\": \".\", \"paths\": { \"@w/*\": [\"lib/*\"] } } }",
            ),
            // A folder past the limit holds none of the files taken: not entered.
            ("zz/Cargo.toml", b"[package]\nname = \"zz\"\n"),
            ("zz/src/lib.rs", b"pub fn zz() {}\n"),
        ]);
        let cut = Index::build_limited(dir.path(), None, 2);
        let paths = indexed_paths(&cut);
        assert_eq!(
            (paths, cut.stats.file_limit),
            (vec!["web/lib/a.ts", "web/lib/b.ts"], Some(2)),
            "the first in path order"
        );
        assert_eq!(cut.module_of("web/lib/a.ts").as_deref(), Some("@w"), "manifests past the limit are still read");
        assert!(cut.manifests.crates.is_empty(), "{:?}", cut.manifests.crates);
        let warning = cut.stats.limit_warning(dir.path()).unwrap();
        assert!(warning.contains("holds more than 2 source files; the index stopped there"), "{warning}");
        // A folder that arrives later fills no more than the room the limit leaves.
        let mut grown = Index::build_limited(dir.path(), None, 3);
        for name in ["x", "y"] {
            std::fs::create_dir_all(dir.path().join(format!("web/lib/{name}"))).unwrap();
            std::fs::write(dir.path().join(format!("web/lib/{name}/one.ts")), "export const one = 1;\n").unwrap();
        }
        grown.refresh_from_disk("web/lib/x");
        grown.refresh_from_disk("web/lib/y");
        grown.refresh_from_disk("web/lib");
        assert_eq!(grown.len(), 3, "{:?}", grown.files().map(|f| &f.path).collect::<Vec<_>>());
        grown.refresh_from_disk("web/lib/x/one.ts");
        assert!(grown.file("web/lib/x/one.ts").is_none(), "nor a new file reported alone");
        grown.update("web/lib/x/one.ts", b"export const typed = 1;\n");
        assert!(grown.file("web/lib/x/one.ts").is_some(), "a document opened in the editor still comes in");
        // A document opened past the limit does not make room for more when the tree is read again.
        std::fs::write(dir.path().join(".gitignore"), "# nothing\n").unwrap();
        grown.refresh_from_disk_keeping(".gitignore", &|file| file == "web/lib/x/one.ts");
        assert_eq!(grown.len(), 4, "{:?}", grown.files().map(|f| &f.path).collect::<Vec<_>>());
        grown.refresh_from_disk("web/lib/c.ts");
        assert!(grown.file("web/lib/c.ts").is_some(), "a file it held is still read again");
        let whole = Index::build_limited(dir.path(), None, 6);
        assert_eq!((whole.len(), whole.stats.file_limit), (6, None), "exactly the limit is all of it");
        assert_eq!(whole.module_of("zz/src/lib.rs").as_deref(), Some("zz"));
        assert_eq!(whole.stats.limit_warning(dir.path()), None);
    }

    #[test]
    fn a_file_deleted_while_indexing_is_skipped() {
        let dir = workspace(&[("a.rs", b"fn a() {}\n")]);
        let found = Found {
            relative: "gone.rs".into(),
            absolute: dir.path().join("gone.rs"),
            language: Language::Rust,
            bytes: 10,
        };
        let (path, why) = index_found(&found, &|_, _, _| None).unwrap_err();
        assert_eq!(path, "gone.rs");
        assert!(why.starts_with("unreadable"), "{why}");
    }

    #[test]
    fn test_paths_are_recognised() {
        for path in [
            "tests/it.rs",
            "src/foo/tests.rs",
            "tokio/tests/io.rs",
            "x/BTest.java",
            "x/TestParser.java",
            "a/b.test.ts",
            "benches/x.rs",
            "packages/bench/discriminated-union.ts",
            "bench/run.js",
            "packages/zod/src/v3/benchmarks/discriminatedUnion.ts",
            "core/src/jmh/java/a/ParserBench.java",
            "src/setupTests.ts",
            "src/test-utils.tsx",
            "packages/app/jest.config.js",
            "vitest.setup.ts",
            "vitest.workspace.mts",
            "src/__mocks__/fs.ts",
            "e2e/login.ts",
            "jib-core/src/integration-test/java/com/google/cloud/tools/jib/registry/LocalRegistry.java",
            "app/src/integrationTest/java/a/Database.java",
            "app/src/intTest/java/a/Db.java",
            "lib/src/functional_tests/java/a/Cli.java",
            "lib/src/testFixtures/java/a/FakeClock.java",
        ] {
            assert!(is_test_path(path), "{path}");
        }
        for path in [
            "src/lib.rs",
            "src/main/java/a/Contest.java",
            "src/latest/api.ts",
            "src/contest/rules.rs",
            "src/main/java/com/x/integrationtest/Helper.java",
            "src/attestation.rs",
            "x/Testament.java",
            "src/bench.rs",
            "src/benchmark/executor.rs",
            "cli/tools/bench/mod.rs",
            "jmh-core/src/main/java/org/openjdk/jmh/runner/Runner.java",
            "src/setup.ts",
            "src/utils.ts",
            "packages/vite/src/node/config.ts",
            "src/jest.ts",
            "src/testUtils.rs",
        ] {
            assert!(!is_test_path(path), "{path}");
        }
    }
}
