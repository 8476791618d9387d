//! The index of a running language server: built in the background, kept fresh as the
//! editor types (incremental tree-sitter parsing of open documents) and as files change on disk.

use std::collections::{BTreeSet, HashMap};
use std::path::Path;
use std::sync::{Arc, Mutex, RwLock};
use std::time::Duration;

use tokio::sync::watch;
use tree_sitter::{InputEdit, Point, Tree};

use super::cache::{self, IndexCache};
use super::extract::{self, FileSymbols};
use super::index::{BuildProgress, Index, IndexedFile, MAX_SOURCE_BYTES};
use super::items::ItemReadings;
use super::language::Language;
use super::walk::{IgnoreFilesAbove, indexable, is_link, output_folder_of_manifest, skipped_folder};
use crate::workspace::ByteEdit;

/// An open document's syntax tree and text.
struct OpenTree {
    language: Language,
    tree: Option<Tree>,
    text: String,
    /// Its items' readings, so that an edit reads only the items it touched.
    readings: ItemReadings,
    /// Whether it came into an index at the file limit that did not hold it: closed, it
    /// leaves, unless there is room for it from disk then.
    past_limit: bool,
}

#[derive(Default)]
struct State {
    index: Option<Arc<Index>>,
    open: HashMap<String, OpenTree>,
    /// The workspace root, once a build started.
    root: Option<std::path::PathBuf>,
    /// Paths that changed on disk (or were closed) while the first build ran: read again
    /// when it is installed, since the build may have read them before the change.
    dirty: BTreeSet<String>,
    /// Open documents the index does not follow, and why: judged when they open, not again at
    /// every keystroke.
    declined: HashMap<String, Declined>,
}

/// Why the index does not follow an open document.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Declined {
    /// Where it lies: ignored, reached through a link, left out as the walk leaves it out.
    /// Judged again only once a folder (an ignore file) is read again.
    Place,
    /// What it holds: over the size limit, or no source (a bundle); the disk's version
    /// stands in. Judged again by each new text.
    Text,
}

/// Whether an editor's `text` of `path` is no source to index (see [`Declined::Text`]).
fn declines_text(path: &str, text: &str) -> bool {
    text.len() as u64 > MAX_SOURCE_BYTES || super::index::not_source(path, text.as_bytes()).is_some()
}

impl State {
    /// Whether an editor document at `path` lies where the index takes files: where the walk
    /// would index it, not a link on disk (the walk follows none; its target is indexed
    /// where it lies, if in the workspace).
    fn wants(&self, path: &str) -> bool {
        self.root.as_deref().is_none_or(|root| {
            // The link first: one `lstat`, where the walk's rules read every ignore file above.
            !is_link(&root.join(path)) && indexable(root, path)
        })
    }
}

/// The index, shared between the server's handlers and its runs.
pub struct LiveIndex {
    state: RwLock<State>,
    /// Held by a change read from disk from its read to its apply: one read from a snapshot
    /// (a folder, many files) and applied after would otherwise put back what another such
    /// change applied meanwhile (a run's start reading the workspace again while the watcher's
    /// reports of a pull come in).
    disk_updates: Mutex<()>,
    /// The ignore files above the workspace, as they stood when last looked at: apart from
    /// the index's lock, as looking at them is a `stat` each.
    above: Mutex<IgnoreFilesAbove>,
    ready: watch::Sender<bool>,
    /// How far the first build has come.
    progress: BuildProgress,
}

impl std::fmt::Debug for LiveIndex {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let files = self.snapshot().map(|index| index.len());
        f.debug_struct("LiveIndex").field("files", &files).finish_non_exhaustive()
    }
}

impl Default for LiveIndex {
    fn default() -> Self {
        Self {
            state: RwLock::default(),
            disk_updates: Mutex::new(()),
            above: Mutex::default(),
            ready: watch::channel(false).0,
            progress: BuildProgress::default(),
        }
    }
}

impl LiveIndex {
    /// Builds the index of `root` (at most `max_files` source files) on a blocking thread,
    /// through the on-disk cache in `cache_dir` when given, and makes it available when done.
    pub fn build_in_background(self: &Arc<Self>, root: &Path, cache_dir: Option<&Path>, max_files: usize) {
        self.write().root = Some(root.to_owned());
        // Before the walk reads them: a change while it runs is seen at the next look.
        *self.above() = IgnoreFilesAbove::of(root);
        let (live, root) = (self.clone(), root.to_owned());
        let cache_file = cache_dir.map(|dir| cache::cache_file(dir, &root));
        tokio::task::spawn_blocking(move || {
            // A panic in the walk, or in reading what changed meanwhile as the index is
            // installed, ends the build, rather than leaving it "building" for good.
            let built = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                live.build_and_install(&root, cache_file.as_deref(), max_files)
            }));
            match built {
                Ok(to_save) => {
                    if let (Some(file), Some((reading_from, files))) = (&cache_file, to_save)
                        && let Err(error) = IndexCache::save_files(file, reading_from, files.iter().map(|f| f.as_ref()))
                    {
                        tracing::warn!("cannot write the index cache {}: {error}", file.display());
                    }
                }
                Err(fault) => {
                    let why = extract::panic_message(fault.as_ref());
                    tracing::error!("indexing {} failed ({why}); runs go on without the index", root.display());
                    live.progress.fail();
                    // Those waiting for it hear at once that none comes.
                    live.ready.send_replace(true);
                }
            }
        });
    }

    /// Builds the index of `root` through the cache file, when given, and makes it current;
    /// what the cache is to be written with after (its reading's start and the files), when
    /// it changed.
    fn build_and_install(
        &self,
        root: &Path,
        cache_file: Option<&Path>,
        max_files: usize,
    ) -> Option<(Option<u64>, Vec<Arc<IndexedFile>>)> {
        let (index, cache) = Index::build_reading_cache(root, cache_file, max_files, &self.progress);
        tracing::info!(
            files = index.len(),
            ms = index.stats.elapsed_ms,
            from_cache = index.stats.cache_hits,
            cache_read_ms = index.stats.cache_read_ms,
            "index built"
        );
        // The index is put to use first; the cache is written after, and only when it
        // changed (a large one takes a while to write). The entries no file took are
        // freed before.
        let current = cache.as_ref().is_some_and(|cache| cache.holds_just(&index));
        let to_save =
            (cache_file.is_some() && !current).then(|| (index.stats.reading_from, index.files().cloned().collect()));
        drop(cache);
        self.install(index);
        to_save
    }

    /// Makes `index` current, with the open documents' texts in place of the disk's.
    pub fn install(&self, mut index: Index) {
        // What changed while the build ran (a checkout, a pull) is read on all cores before
        // the index is locked; an open document's read is replaced by its buffer below.
        let dirty: Vec<String> = std::mem::take(&mut self.write().dirty).into_iter().collect();
        let (read, others) = index.read_files(&dirty);
        let again = index.apply_files(read, &|_| false);
        others.into_iter().chain(again).for_each(|path| index.refresh_from_disk(path));
        let mut state = self.write();
        // An ignore file may have changed while the build ran: where a declined document lies
        // is judged again at its next change.
        state.declined.retain(|_, why| *why != Declined::Place);
        // What changed since.
        for path in std::mem::take(&mut state.dirty) {
            if !state.open.contains_key(&path) {
                index.refresh_from_disk(&path);
            }
        }
        for (path, open) in &mut state.open {
            open.past_limit = comes_past_limit(&index, path);
            let file = IndexedFile::from_source(path, open.language, open.text.as_bytes());
            if open.past_limit { index.insert_past_limit(file) } else { index.insert(file) }
        }
        state.index = Some(Arc::new(index));
        drop(state);
        self.ready.send_replace(true);
    }

    /// The ignore files above the workspace that say what is indexed (see
    /// [`ignore_files_above`](super::walk::ignore_files_above)), once a build started.
    pub fn ignore_files_above(&self) -> Vec<std::path::PathBuf> {
        self.above().paths().map(Path::to_owned).collect()
    }

    /// For an ignore file above the workspace, whether it changed since it was last looked
    /// at, so that the workspace is to be read again; none for any other path.
    pub fn ignore_file_above_changed(&self, path: &Path) -> Option<bool> {
        self.above().look_at(path)
    }

    /// Reads the whole workspace again when an ignore file above it changed since they were
    /// last looked at, where no watcher may have said so (a run's start asks); whether one had.
    pub fn read_again_if_ignored_above_changed(&self) -> bool {
        let changed = self.above().any_changed();
        if changed {
            self.disk_changed("");
        }
        changed
    }

    /// The current index, if built.
    pub fn snapshot(&self) -> Option<Arc<Index>> {
        self.read().index.clone()
    }

    /// How far the first build has come: files indexed, and of how many once the walk is done.
    pub fn progress(&self) -> (usize, Option<usize>) {
        self.progress.now()
    }

    /// Whether the first build failed, so that no index will come.
    pub fn build_failed(&self) -> bool {
        self.progress.failed()
    }

    /// Waits up to `timeout` for the first build to finish; the index, if there is one.
    pub async fn ready(&self, timeout: Duration) -> Option<Arc<Index>> {
        let mut ready = self.ready.subscribe();
        let _ = tokio::time::timeout(timeout, ready.wait_for(|built| *built)).await;
        self.snapshot()
    }

    /// An editor opened `path` (workspace-relative) with `text`.
    pub fn open(&self, path: &str, text: &str) {
        let Some(language) = Language::of_path(path) else { return };
        if !self.read().wants(path) {
            self.write().declined.insert(path.to_owned(), Declined::Place);
            return;
        }
        if declines_text(path, text) {
            // Not source as the editor holds it: the disk's version (if it is source) stands in.
            let before = self.write().declined.insert(path.to_owned(), Declined::Text);
            if text.len() as u64 <= MAX_SOURCE_BYTES && before != Some(Declined::Text) {
                self.leave_to_disk(path);
            }
            return;
        }
        self.write().declined.remove(path);
        let tree = extract::parse(language, text.as_bytes(), None);
        let mut readings = ItemReadings::default();
        let file = indexed(path, language, tree.as_ref(), text, &mut readings);
        let mut state = self.write();
        let past_limit = state.index.as_deref().is_some_and(|index| comes_past_limit(index, path));
        state.open.insert(path.to_owned(), OpenTree { language, tree, text: text.to_owned(), readings, past_limit });
        if past_limit {
            if let Some(index) = state.index.as_mut() {
                Arc::make_mut(index).insert_past_limit(file);
            }
        } else {
            update(&mut state, file);
        }
    }

    /// An open document changed: `edits` (byte edits, or `None` for a whole new text) led to `text`.
    /// The previous tree is edited and reparsed incrementally.
    pub fn change(&self, path: &str, edits: Option<&[ByteEdit]>, text: &str) {
        let mut state = self.write();
        if !state.open.contains_key(path) {
            // Declined when it opened: where it lies stands; what it holds is judged anew.
            match state.declined.get(path) {
                Some(Declined::Place) => return,
                Some(Declined::Text) if declines_text(path, text) => return,
                _ => {}
            }
            drop(state);
            return self.open(path, text);
        }
        // Where it lies was checked when it opened; per keystroke only its text can change.
        if declines_text(path, text) {
            // Grown past the limit, or replaced by a bundle: the disk's version (if it is
            // source) stands in.
            state.declined.insert(path.to_owned(), Declined::Text);
            drop(state);
            return self.leave_to_disk(path);
        }
        let Some(open) = state.open.get_mut(path) else { return };
        let mut old = open.tree.take();
        match (old.as_mut(), edits) {
            (Some(tree), Some(edits)) => edits.iter().for_each(|edit| tree.edit(&input_edit(edit))),
            _ => old = None,
        }
        open.tree = extract::parse(open.language, text.as_bytes(), old.as_ref());
        open.text = text.to_owned();
        let file = indexed(path, open.language, open.tree.as_ref(), text, &mut open.readings);
        update(&mut state, file);
    }

    /// Stops following the editor's text of `path`; the disk's version (if it is source)
    /// stands in for it.
    /// The other open documents keep their buffers' readings, whatever a folder read again
    /// (for an ignore file, say) finds on disk.
    fn leave_to_disk(&self, path: &str) {
        let mut state = self.write();
        let past_limit = state.open.remove(path).is_some_and(|open| open.past_limit);
        let State { index, open, dirty, .. } = &mut *state;
        match index.as_mut() {
            Some(index) if past_limit => {
                let index = Arc::make_mut(index);
                index.remove(path);
                if !index.full() {
                    index.refresh_from_disk_keeping(path, &|file| open.contains_key(file));
                }
            }
            Some(index) => Arc::make_mut(index).refresh_from_disk_keeping(path, &|file| open.contains_key(file)),
            None => {
                dirty.insert(path.to_owned());
            }
        }
    }

    /// Whether the index holds the editor's buffer of `path` rather than the disk's text: a
    /// document open and followed (not one grown past the size limit, say).
    pub fn follows(&self, path: &str) -> bool {
        self.read().open.contains_key(path)
    }

    /// An editor closed `path`: the disk is its truth again. A document the index never
    /// followed (an ignore file, a manifest, text that is not source) changes nothing: what
    /// the index holds for it is already the disk's, and saving it was reported then.
    pub fn close(&self, path: &str) {
        let followed = {
            let mut state = self.write();
            state.declined.remove(path).is_none() && state.open.contains_key(path)
        };
        if followed {
            self.leave_to_disk(path);
        }
    }

    /// Whether a change to `relative` changes more of the index than its own entry (see
    /// [`Index::shapes`]); before the index is built, judged by the name alone.
    pub fn shapes(&self, relative: &str) -> bool {
        match &self.read().index {
            Some(index) => index.shapes(relative),
            None => super::index::shapes_the_index(relative),
        }
    }

    /// A file changed, appeared or went away on disk (not open in the editor).
    pub fn disk_changed(&self, path: &str) {
        let _updating = self.disk_updates();
        self.disk_changed_updating(path);
    }

    /// [`LiveIndex::disk_changed`], [`LiveIndex::disk_updates`] held.
    fn disk_changed_updating(&self, path: &str) {
        // Bound first: the read lock must be let go before the index is written.
        let snapshot = self.read().index.clone();
        if let Some(snapshot) = snapshot {
            if !snapshot.concerns(path) {
                return;
            }
            if let Some(folder) = snapshot.folder_read_for(path) {
                self.read_folder_again(snapshot, &folder, path);
                return;
            }
        }
        let mut state = self.write();
        if state.open.contains_key(path) {
            return;
        }
        let State { index, open, dirty, root, .. } = &mut *state;
        match index.as_mut() {
            Some(index) => Arc::make_mut(index).refresh_from_disk_keeping(path, &|file| open.contains_key(file)),
            // Kept for the build to read again, unless in a folder the walk never enters (an
            // `npm install` or a `cargo build` running meanwhile reports thousands there), or
            // no build will come. A manifest that made such a folder a package is kept, gone or
            // not: the build may have read the folder while it was one.
            None if self.progress.failed() => {}
            None if root.as_deref().is_some_and(|root| {
                // One in a dependency's folder (`node_modules/x/dist/package.json`) is not.
                let package_at_top =
                    output_folder_of_manifest(path).is_some_and(|folder| !inside_skipped_folder(root, folder));
                !package_at_top && inside_skipped_folder(root, path)
            }) => {}
            None => {
                dirty.insert(path.to_owned());
            }
        }
    }

    /// [`LiveIndex::disk_changed`] for many paths at once (a checkout or a pull reports
    /// hundreds): the files whose change touches only their own entry are read and parsed on
    /// all cores from the current index, so rankings and lookups go on meanwhile, and made
    /// current together; the rest (folders, manifests, ignore files, paths gone) one by one
    /// after them, and last the new files a tree at the file limit had no room for (a rename
    /// may have made room).
    pub fn disk_changed_all(&self, paths: &[String]) {
        let _updating = self.disk_updates();
        let snapshot = self.read().index.clone();
        let Some(snapshot) = snapshot.filter(|_| paths.len() > 1) else {
            paths.iter().for_each(|path| self.disk_changed_updating(path));
            return;
        };
        let (read, others) = snapshot.read_files(paths);
        // Holding the snapshot would make the update below copy the whole index.
        drop(snapshot);
        let again = {
            let mut state = self.write();
            let State { index, open, .. } = &mut *state;
            match index.as_mut() {
                Some(index) => Arc::make_mut(index).apply_files(read, &|path| open.contains_key(path)),
                // Being built again: each as one change alone.
                None => read.into_iter().map(|(path, _)| path).collect(),
            }
        };
        others.into_iter().chain(again).for_each(|path| self.disk_changed_updating(path));
    }

    fn disk_updates(&self) -> std::sync::MutexGuard<'_, ()> {
        self.disk_updates.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    fn above(&self) -> std::sync::MutexGuard<'_, IgnoreFilesAbove> {
        self.above.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Reads `folder` again from `snapshot`, the current index, so rankings and lookups go on
    /// meanwhile, for a change at `changed`; the index is locked only to make the result
    /// current. A file whose path is now the folder (`chart.js` now `chart.js/`) leaves.
    fn read_folder_again(&self, snapshot: Arc<Index>, folder: &str, changed: &str) {
        let read = snapshot.read_folder(folder);
        // Holding the snapshot would make the update below copy the whole index.
        drop(snapshot);
        let mut state = self.write();
        let State { index, open, declined, .. } = &mut *state;
        // An ignore file may have changed: where a declined document lies is judged again.
        declined.retain(|_, why| *why != Declined::Place);
        let Some(index) = index.as_mut() else { return };
        let file_there = folder == changed && !open.contains_key(changed) && index.file(changed).is_some();
        if read.is_none() && !file_there {
            return;
        }
        let index = Arc::make_mut(index);
        if file_there {
            index.remove(changed);
        }
        if let Some(read) = read {
            index.apply_folder(read, &|file| open.contains_key(file));
        }
    }

    fn read(&self) -> std::sync::RwLockReadGuard<'_, State> {
        self.state.read().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    fn write(&self) -> std::sync::RwLockWriteGuard<'_, State> {
        self.state.write().unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

/// Whether `path` lies inside a folder the walk never enters for its name (see
/// [`skipped_folder`]): `node_modules/`, `target/`.
fn inside_skipped_folder(root: &Path, path: &str) -> bool {
    path.match_indices('/').any(|(at, _)| skipped_folder(root, &path[..at]))
}

/// Whether a document at `path` comes into `index` past its file limit: the index is full
/// and does not hold it (see [`OpenTree::past_limit`]).
fn comes_past_limit(index: &Index, path: &str) -> bool {
    index.full() && index.file(path).is_none()
}

fn update(state: &mut State, file: IndexedFile) {
    if let Some(index) = state.index.as_mut() {
        Arc::make_mut(index).insert(file);
    }
}

fn indexed(
    path: &str,
    language: Language,
    tree: Option<&Tree>,
    text: &str,
    readings: &mut ItemReadings,
) -> IndexedFile {
    let read = extract::read_guarded(|| {
        tree.map(|tree| readings.extract(language, tree, text.as_bytes())).unwrap_or_default()
    });
    let symbols = read.unwrap_or_else(|panic| {
        tracing::error!("{path}: reading its definitions and uses failed: {panic}; it is indexed without them");
        // What the failed reading left of the earlier ones is not to be trusted.
        *readings = ItemReadings::default();
        FileSymbols::default()
    });
    IndexedFile::with_symbols(path, language, text.as_bytes(), text, symbols)
}

fn input_edit(edit: &ByteEdit) -> InputEdit {
    let point = |(row, column): (usize, usize)| Point { row, column };
    InputEdit {
        start_byte: edit.start_byte,
        old_end_byte: edit.old_end_byte,
        new_end_byte: edit.new_end_byte,
        start_position: point(edit.start_point),
        old_end_position: point(edit.old_end_point),
        new_end_position: point(edit.new_end_point),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workspace::{Document, PositionEncoding};
    use proptest::strategy::Strategy as _;
    use tower_lsp::lsp_types::{Position, Range, TextDocumentContentChangeEvent};

    /// A live index of the workspace at `root`, not yet built.
    fn live_at(root: &Path) -> LiveIndex {
        let live = LiveIndex::default();
        live.write().root = Some(root.to_owned());
        live
    }

    fn names(index: &Index, path: &str) -> Vec<String> {
        index.file(path).unwrap().symbols.definitions.iter().map(|d| d.name.clone()).collect()
    }

    #[test]
    fn typing_updates_the_index_incrementally_and_closing_restores_the_disk() {
        let dir = crate::testing::tempdir();
        std::fs::write(dir.path().join("a.rs"), "fn on_disk() {}\n").unwrap();
        let live = LiveIndex::default();
        live.open("a.rs", "fn first() {}\n");
        live.install(Index::build(dir.path(), None));
        assert_eq!(names(&live.snapshot().unwrap(), "a.rs"), ["first"], "open buffers win over the disk");

        let mut document = Document::new("fn first() {}\n", 1, "rust");
        let change = TextDocumentContentChangeEvent {
            range: Some(Range::new(Position::new(1, 0), Position::new(1, 0))),
            range_length: None,
            text: "fn second() {}\n".into(),
        };
        let edits = document.apply_changes(2, &[change], PositionEncoding::Utf16).unwrap();
        live.change("a.rs", Some(&edits), &document.text());
        assert_eq!(names(&live.snapshot().unwrap(), "a.rs"), ["first", "second"]);

        live.change("a.rs", None, "fn replaced() {}\n");
        assert_eq!(names(&live.snapshot().unwrap(), "a.rs"), ["replaced"]);

        live.close("a.rs");
        assert_eq!(names(&live.snapshot().unwrap(), "a.rs"), ["on_disk"]);
        std::fs::write(dir.path().join("b.rs"), "fn fresh() {}\n").unwrap();
        live.disk_changed("b.rs");
        assert_eq!(names(&live.snapshot().unwrap(), "b.rs"), ["fresh"]);
        std::fs::remove_file(dir.path().join("b.rs")).unwrap();
        live.disk_changed("b.rs");
        assert!(live.snapshot().unwrap().file("b.rs").is_none());
    }

    #[test]
    fn terminal_output_stays_out_opened_or_written_later() {
        let highlighted = "\x1b[38;5;203mfn\x1b[0m \x1b[38;5;149mmain\x1b[0m() {}\n".repeat(8);
        let dir = crate::testing::tree(&[("src/lib.rs", b"pub fn main() {}\n")]);
        let live = LiveIndex::default();
        live.install(Index::build(dir.path(), None));
        std::fs::create_dir_all(dir.path().join("tests/highlighted")).unwrap();
        std::fs::write(dir.path().join("tests/highlighted/output.rs"), &highlighted).unwrap();
        live.disk_changed("tests/highlighted/output.rs");
        live.open("tests/highlighted/opened.rs", &highlighted);
        let index = live.snapshot().unwrap();
        assert!(
            index.file("tests/highlighted/output.rs").is_none() && index.file("tests/highlighted/opened.rs").is_none()
        );
        assert!(index.file("src/lib.rs").is_some());
    }

    #[test]
    fn minified_scripts_stay_out_however_they_arrive() {
        // A bundler's output: one long line of one-letter names.
        let bundle: String = (0..400).map(|n| format!("function a{n}(e,t){{return e&&t.x{n}}}")).collect();
        let written =
            "/** Parses a header. */\nexport function parseHeader(line: string): string {\n  return line.trim();\n}\n";
        let long_written = written.repeat(40);
        assert!(long_written.len() > 1024);
        // A component drawing a logo: TypeScript whose long lines are data, not minified code.
        let logo =
            format!("export const Logo = () => (\n  <svg><path d=\"{}\" /></svg>\n);\n", "M12 4L4 12 ".repeat(300));
        let dir = crate::testing::tree(&[
            ("static/js/main.3def8d06.chunk.js", bundle.as_bytes()),
            ("src/Logo.tsx", logo.as_bytes()),
            ("src/header.js", long_written.replace(": string", "").as_bytes()),
            ("src/Icon.jsx", logo.as_bytes()),
            ("src/tiny.min.js", b"function t(e){return e}var n=t(1),r=t(2),o=t(3),i=t(4),a=t(5),u=t(6),c=t(7),s=t(8),l=t(9),f=t(10),p=t(11),d=t(12);\n"),
        ]);
        let live = LiveIndex::default();
        live.install(Index::build(dir.path(), None));
        let index = live.snapshot().unwrap();
        assert!(index.file("static/js/main.3def8d06.chunk.js").is_none(), "the build leaves it out");
        let (_, why) = index.stats.skipped.iter().find(|(path, _)| path.starts_with("static/")).unwrap();
        assert!(why.starts_with("minified or bundled (lines average "), "{why}");
        assert!(index.file("src/header.js").is_some(), "written code of any length stays");
        assert!(index.file("src/Logo.tsx").is_some(), "long lines of TypeScript are data, not minified code");
        assert!(index.file("src/Icon.jsx").is_some(), "nor does a tool write JSX");
        assert!(index.file("src/tiny.min.js").is_some(), "a file under 1 KiB says too little to judge");

        // Written later, or opened in the editor: out all the same.
        std::fs::write(dir.path().join("src/vendor.js"), &bundle).unwrap();
        live.disk_changed("src/vendor.js");
        live.open("src/opened.js", &bundle);
        let index = live.snapshot().unwrap();
        assert!(index.file("src/vendor.js").is_none() && index.file("src/opened.js").is_none());
        // A written file that a build overwrites with its bundle leaves the index.
        std::fs::write(dir.path().join("src/app.js"), written.replace(": string", "").repeat(40)).unwrap();
        live.disk_changed("src/app.js");
        assert!(live.snapshot().unwrap().file("src/app.js").is_some());
        std::fs::write(dir.path().join("src/app.js"), &bundle).unwrap();
        live.disk_changed("src/app.js");
        assert!(live.snapshot().unwrap().file("src/app.js").is_none());

        // An open document a build replaces with its bundle (the editor reloads it) leaves
        // too, and its written text on disk comes back when the build is undone.
        let header = long_written.replace(": string", "");
        live.open("src/header.js", &header);
        live.change("src/header.js", None, &bundle);
        let stood_in = names(&live.snapshot().unwrap(), "src/header.js");
        assert!(
            stood_in.len() == 40 && stood_in[0] == "parseHeader",
            "the disk's written text stands in: {stood_in:?}"
        );
        std::fs::write(dir.path().join("src/header.js"), &bundle).unwrap();
        live.disk_changed("src/header.js");
        assert!(live.snapshot().unwrap().file("src/header.js").is_none(), "the disk holds the bundle too");
        std::fs::write(dir.path().join("src/header.js"), &header).unwrap();
        live.change("src/header.js", None, &header);
        assert_eq!(names(&live.snapshot().unwrap(), "src/header.js").len(), 40, "written again, followed again");
    }

    #[test]
    fn generated_ignored_and_oversized_files_stay_out_as_the_walk_leaves_them() {
        let dir = crate::testing::tempdir();
        let root = dir.path();
        std::fs::write(root.join(".gitignore"), "/generated/\n").unwrap();
        std::fs::create_dir_all(root.join("src/old")).unwrap();
        std::fs::write(root.join("src/old/a.rs"), "fn old_a() {}\n").unwrap();
        std::fs::write(root.join("src/old/b.rs"), "fn old_b() {}\n").unwrap();
        let live = live_at(root);
        live.install(Index::build(root, None));

        // A watcher reports output in an ignored folder and in a skipped one.
        for (path, name) in
            [("generated/x.rs", "gen"), ("target/debug/build/out.rs", "built"), ("dist/app.ts", "bundle")]
        {
            std::fs::create_dir_all(root.join(path).parent().unwrap()).unwrap();
            std::fs::write(root.join(path), format!("fn {name}() {{}}\n")).unwrap();
            live.disk_changed(path);
        }
        // The editor opens a dependency's file and a huge generated one.
        live.open("node_modules/lib/index.ts", "export function dep() {}\n");
        live.open("src/huge.rs", &"fn f() {}\n".repeat(200_000));
        let index = live.snapshot().unwrap();
        let paths: Vec<&str> = index.files().map(|f| f.path.as_str()).collect();
        assert_eq!(paths, ["src/old/a.rs", "src/old/b.rs"]);

        // A folder deleted whole takes its files along.
        std::fs::remove_dir_all(root.join("src/old")).unwrap();
        live.disk_changed("src/old");
        assert_eq!(live.snapshot().unwrap().len(), 0);
    }

    #[test]
    fn an_ignored_document_is_judged_once_and_again_when_the_ignore_file_changes() {
        let dir = crate::testing::tree(&[
            (".gitignore", b"/scratch/\n".as_slice()),
            ("src/lib.rs", b"pub fn kept() {}\n"),
            ("scratch/try.rs", b"fn on_disk() {}\n"),
        ]);
        let live = live_at(dir.path());
        live.install(Index::build(dir.path(), None));
        live.open("scratch/try.rs", "fn typed() {}\n");
        live.change("scratch/try.rs", None, "fn typed_more() {}\n");
        assert!(live.snapshot().unwrap().file("scratch/try.rs").is_none(), "ignored, opened or typed in");
        assert!(!live.follows("scratch/try.rs"));

        // No longer ignored: the folder is read again, and the next keystroke is followed.
        std::fs::write(dir.path().join(".gitignore"), "/target/\n").unwrap();
        live.disk_changed(".gitignore");
        assert_eq!(names(&live.snapshot().unwrap(), "scratch/try.rs"), ["on_disk"], "the disk's, as read again");
        live.change("scratch/try.rs", None, "fn typed_last() {}\n");
        assert_eq!(names(&live.snapshot().unwrap(), "scratch/try.rs"), ["typed_last"], "the buffer's");
        assert!(live.follows("scratch/try.rs"));
        live.close("scratch/try.rs");
        assert_eq!(names(&live.snapshot().unwrap(), "scratch/try.rs"), ["on_disk"], "closed: the disk's again");
    }

    #[test]
    fn a_document_ignored_as_the_first_build_ran_is_judged_again_once_it_is_in() {
        let dir = crate::testing::tree(&[
            (".gitignore", b"/scratch/\n".as_slice()),
            ("src/lib.rs", b"pub fn kept() {}\n"),
            ("scratch/try.rs", b"fn on_disk() {}\n"),
        ]);
        let live = live_at(dir.path());
        // Opened while the build runs, where the ignore file still leaves it out; the ignore
        // file then changes, before the build is installed.
        live.open("scratch/try.rs", "fn typed() {}\n");
        std::fs::write(dir.path().join(".gitignore"), "/target/\n").unwrap();
        live.disk_changed(".gitignore");
        live.install(Index::build(dir.path(), None));
        live.change("scratch/try.rs", None, "fn typed_more() {}\n");
        assert_eq!(names(&live.snapshot().unwrap(), "scratch/try.rs"), ["typed_more"], "the buffer's");
        assert!(live.follows("scratch/try.rs"));
    }

    #[cfg(unix)]
    #[test]
    fn documents_reached_through_links_stay_out_as_the_walk_leaves_them() {
        let dir = crate::testing::tree(&[
            ("work/src/a.rs", b"pub fn in_work() {}\n".as_slice()),
            ("elsewhere/lib.rs", b"pub fn elsewhere() {}\n"),
        ]);
        let root = dir.path().join("work");
        std::os::unix::fs::symlink(dir.path().join("elsewhere"), root.join("vendor")).unwrap();
        std::os::unix::fs::symlink(root.join("src/a.rs"), root.join("src/alias.rs")).unwrap();
        let live = live_at(&root);
        live.install(Index::build(&root, None));
        let paths =
            |live: &LiveIndex| -> Vec<String> { live.snapshot().unwrap().files().map(|f| f.path.clone()).collect() };
        assert_eq!(paths(&live), ["src/a.rs"], "the walk follows no link");

        // The editor opens a file through the linked folder, and the linked file itself.
        live.open("vendor/lib.rs", "pub fn elsewhere() {}\n");
        live.open("src/alias.rs", "pub fn in_work() {}\n");
        assert_eq!(paths(&live), ["src/a.rs"], "opened, as built");
        live.change("vendor/lib.rs", None, "pub fn typed_elsewhere() {}\n");
        live.close("vendor/lib.rs");
        live.close("src/alias.rs");
        assert_eq!(paths(&live), ["src/a.rs"], "closed, as built");

        // A watcher reports a change there.
        std::fs::write(dir.path().join("elsewhere/new.rs"), "pub fn new() {}\n").unwrap();
        live.disk_changed("vendor/new.rs");
        live.disk_changed_all(&["vendor/lib.rs".into(), "vendor/new.rs".into()]);
        assert_eq!(paths(&live), ["src/a.rs"], "changed on disk, as built");
        assert!(!indexable(&root, "vendor/new.rs") && indexable(&root, "src/new.rs"));
    }

    #[test]
    fn a_folder_read_again_leaves_open_buffers_as_typed() {
        let dir = crate::testing::tempdir();
        std::fs::create_dir_all(dir.path().join("src")).unwrap();
        std::fs::write(dir.path().join("src/a.rs"), "fn on_disk() {}\n").unwrap();
        let live = live_at(dir.path());
        live.install(Index::build(dir.path(), None));
        live.open("src/a.rs", "fn typed() {}\n");
        live.open("src/unsaved.rs", "fn not_on_disk_yet() {}\n");

        // An ignore file saved beside them reads their folder again.
        std::fs::write(dir.path().join("src/.gitignore"), "*.tmp\n").unwrap();
        live.disk_changed("src/.gitignore");
        let index = live.snapshot().unwrap();
        assert_eq!(names(&index, "src/a.rs"), ["typed"]);
        assert_eq!(names(&index, "src/unsaved.rs"), ["not_on_disk_yet"]);

        // The ignore file opened and closed in the editor, and another document closed.
        live.open("src/.gitignore", "*.tmp\n");
        live.close("src/.gitignore");
        live.close("Cargo.toml");
        let index = live.snapshot().unwrap();
        assert_eq!(names(&index, "src/a.rs"), ["typed"], "closing a file the index never followed reads nothing");
        assert_eq!(names(&index, "src/unsaved.rs"), ["not_on_disk_yet"]);
        live.close("src/unsaved.rs");
        assert!(live.snapshot().unwrap().file("src/unsaved.rs").is_none(), "closed unsaved, it is not on disk");
        assert_eq!(names(&live.snapshot().unwrap(), "src/a.rs"), ["typed"]);
    }

    #[test]
    fn a_folder_deleted_whole_leaves_the_documents_open_in_it() {
        let dir = crate::testing::tree(&[
            ("src/feature/a.rs", b"fn on_disk() {}\n" as &[u8]),
            ("src/feature/b.rs", b"fn b() {}\n"),
        ]);
        let live = live_at(dir.path());
        live.install(Index::build(dir.path(), None));
        live.open("src/feature/a.rs", "fn typed() {}\n");

        // A checkout to a branch without the folder, reported as one event for the folder.
        std::fs::remove_dir_all(dir.path().join("src/feature")).unwrap();
        live.disk_changed("src/feature");
        let index = live.snapshot().unwrap();
        assert!(index.file("src/feature/b.rs").is_none());
        assert_eq!(names(&index, "src/feature/a.rs"), ["typed"], "the buffer is its truth until it is closed");
        live.close("src/feature/a.rs");
        assert_eq!(live.snapshot().unwrap().len(), 0);
    }

    #[test]
    fn a_checkout_reported_in_one_event_leaves_the_index_as_a_fresh_build_would() {
        let dir = crate::testing::tree(&[
            (".gitignore", b"/generated/\n" as &[u8]),
            ("Cargo.toml", b"[package]\nname = \"shop\"\n"),
            ("src/lib.rs", b"mod cart;\nmod price;\nmod stock;\n"),
            ("src/cart.rs", b"fn on_disk() {}\n"),
            ("src/price.rs", b"fn old_price() {}\n"),
            ("src/stock.rs", b"fn stock() {}\n"),
        ]);
        let root = dir.path();
        let live = live_at(root);
        live.install(Index::build(root, None));
        live.open("src/cart.rs", "fn typed() {}\n");
        let before = live.snapshot().unwrap();

        // A checkout rewrites files, deletes one, adds a file and a folder, writes an ignored
        // one and touches one without changing it; the watcher reports it all at once.
        let write = |path: &str, text: &str| {
            std::fs::create_dir_all(root.join(path).parent().unwrap()).unwrap();
            std::fs::write(root.join(path), text).unwrap();
        };
        write("src/cart.rs", "fn checked_out() {}\n");
        write("src/price.rs", "fn new_price() {}\n");
        std::fs::remove_file(root.join("src/stock.rs")).unwrap();
        write("src/tax.rs", "fn tax() {}\n");
        write("src/orders/mod.rs", "fn orders() {}\n");
        write("generated/out.rs", "fn generated() {}\n");
        write("src/lib.rs", "mod cart;\nmod price;\nmod stock;\n");
        write("Cargo.toml", "[package]\nname = \"store\"\n");
        let reported = [
            "src/cart.rs",
            "src/price.rs",
            "src/stock.rs",
            "src/tax.rs",
            "src/orders",
            "src/orders/mod.rs",
            "generated/out.rs",
            "src/lib.rs",
            "Cargo.toml",
        ];
        live.disk_changed_all(&reported.map(str::to_owned));

        let index = live.snapshot().unwrap();
        let fresh = Index::build(root, None);
        let paths = |index: &Index| index.files().map(|f| f.path.clone()).collect::<Vec<_>>();
        assert_eq!(paths(&index), paths(&fresh));
        for file in fresh.files().filter(|file| file.path != "src/cart.rs") {
            assert_eq!(names(&index, &file.path), names(&fresh, &file.path), "{}", file.path);
        }
        assert_eq!(names(&index, "src/cart.rs"), ["typed"], "the open buffer is its truth");
        assert_eq!(index.crates().iter().map(|c| c.name.as_str()).collect::<Vec<_>>(), ["store"], "manifests read");
        let unchanged = |index: &Index| index.file("src/lib.rs").unwrap().clone();
        assert!(Arc::ptr_eq(&unchanged(&before), &unchanged(&index)), "a file as it was is not parsed again");
    }

    #[test]
    fn files_changed_while_the_first_build_runs_are_read_again() {
        let dir = crate::testing::tempdir();
        std::fs::write(dir.path().join("a.rs"), "fn before() {}\n").unwrap();
        let live = LiveIndex::default();
        let built = Index::build(dir.path(), None);
        // Saved and closed after the build read it, before the build was installed.
        std::fs::write(dir.path().join("a.rs"), "fn after() {}\n").unwrap();
        live.disk_changed("a.rs");
        live.install(built);
        assert_eq!(names(&live.snapshot().unwrap(), "a.rs"), ["after"]);
    }

    #[test]
    fn output_written_while_the_first_build_runs_is_not_kept_to_read_again() {
        let dir = crate::testing::tree(&[("src/a.rs", b"fn a() {}\n".as_slice())]);
        let live = live_at(dir.path());
        // An `npm install` and a `cargo build` beside the build, and one edit of the source.
        for path in [
            "node_modules/lib/index.ts",
            "target/debug/build/out.rs",
            "web/node_modules/x/a.js",
            "web/node_modules/x/dist/package.json",
            "src/a.rs",
        ] {
            live.disk_changed(path);
        }
        assert_eq!(live.read().dirty.iter().collect::<Vec<_>>(), ["src/a.rs"]);
        // A build that failed reads nothing again: nothing is kept for it.
        live.progress.fail();
        live.disk_changed("src/b.rs");
        assert_eq!(live.read().dirty.len(), 1);
    }

    #[test]
    fn a_folder_that_stops_being_a_package_while_the_first_build_runs_leaves_when_it_is_installed() {
        // A monorepo's `build` package: source while its manifest is there.
        let dir = crate::testing::tree(&[
            ("src/a.ts", b"export const a = 1;\n".as_slice()),
            ("build/package.json", b"{\"name\": \"build\"}\n"),
            ("build/tool.ts", b"export function buildTool() {}\n"),
        ]);
        let root = dir.path();
        let live = live_at(root);
        let built = Index::build(root, None);
        assert!(built.file("build/tool.ts").is_some(), "a package, when the build read it");
        // A branch switched meanwhile takes the package away and leaves build output there.
        std::fs::remove_file(root.join("build/package.json")).unwrap();
        live.disk_changed_all(&["build/package.json".to_owned(), "build/tool.ts".to_owned()]);
        live.install(built);
        let index = live.snapshot().unwrap();
        let paths: Vec<&str> = index.files().map(|f| f.path.as_str()).collect();
        assert_eq!(paths, ["src/a.ts"], "output, as a fresh build would leave it out");
    }

    #[test]
    fn a_rename_in_a_tree_at_the_file_limit_keeps_the_renamed_file() {
        let dir = crate::testing::tree(&[
            ("a.rs", b"fn a() {}\n" as &[u8]),
            ("b.rs", b"fn b() {}\n"),
            ("z.rs", b"fn past_the_limit() {}\n"),
        ]);
        let root = dir.path();
        let live = live_at(root);
        live.install(Index::build_limited(root, None, 2));
        std::fs::rename(root.join("a.rs"), root.join("renamed.rs")).unwrap();
        // The watcher reports the new name first: the index has no room for it until the old
        // name is forgotten.
        live.disk_changed_all(&["renamed.rs", "a.rs"].map(str::to_owned));
        let index = live.snapshot().unwrap();
        let paths: Vec<&str> = index.files().map(|f| f.path.as_str()).collect();
        assert_eq!(paths, ["b.rs", "renamed.rs"]);
        // Still full: a file written later finds no room, and is not read.
        std::fs::write(root.join("c.rs"), "fn c() {}\n").unwrap();
        live.disk_changed_all(&["c.rs", "b.rs"].map(str::to_owned));
        assert_eq!(live.snapshot().unwrap().len(), 2);
    }

    #[test]
    fn a_tree_that_grows_past_the_file_limit_later_keeps_to_it() {
        let dir = crate::testing::tree(&[("a.rs", b"fn a() {}\n" as &[u8]), ("b.rs", b"fn b() {}\n")]);
        let root = dir.path();
        let live = live_at(root);
        live.install(Index::build_limited(root, None, 3));
        assert_eq!(live.snapshot().unwrap().len(), 2, "under the limit, all of it");
        // A vendored tree arrives: as a folder, and as files one by one.
        std::fs::create_dir_all(root.join("vendor")).unwrap();
        for n in 0..4 {
            std::fs::write(root.join(format!("vendor/v{n}.rs")), format!("fn v{n}() {{}}\n")).unwrap();
        }
        live.disk_changed("vendor");
        assert_eq!(live.snapshot().unwrap().len(), 3, "a folder read takes the room left");
        std::fs::write(root.join("c.rs"), "fn c() {}\n").unwrap();
        std::fs::write(root.join("d.rs"), "fn d() {}\n").unwrap();
        live.disk_changed_all(&["c.rs".into(), "d.rs".into()]);
        live.disk_changed("c.rs");
        assert_eq!(live.snapshot().unwrap().len(), 3, "new files find no room");

        // A document opened past the limit is indexed while open, and leaves when closed.
        live.open("zz/late.rs", "fn late() {}\n");
        assert!(live.snapshot().unwrap().file("zz/late.rs").is_some());
        std::fs::create_dir_all(root.join("zz")).unwrap();
        std::fs::write(root.join("zz/late.rs"), "fn late() {}\n").unwrap();
        live.close("zz/late.rs");
        let index = live.snapshot().unwrap();
        assert!(index.file("zz/late.rs").is_none() && index.len() == 3, "closed, as a full tree leaves it");
        // One the index held before it opened stays.
        live.open("a.rs", "fn typed() {}\n");
        live.close("a.rs");
        assert_eq!(names(&live.snapshot().unwrap(), "a.rs"), ["a"]);
    }

    #[test]
    fn a_document_opened_past_the_file_limit_takes_no_room_of_the_files_on_disk() {
        let dir = crate::testing::tree(&[
            ("src/a.rs", b"fn a() {}\n" as &[u8]),
            ("src/b.rs", b"fn b() {}\n"),
            ("z.rs", b"fn z() {}\n"),
        ]);
        let root = dir.path();
        let live = live_at(root);
        live.install(Index::build_limited(root, None, 3));
        live.open("notes/new.rs", "fn draft() {}\n");
        assert!(live.snapshot().unwrap().file("notes/new.rs").is_some(), "held while open");
        // A folder read again (its ignore file saved) keeps what it held.
        std::fs::write(root.join("src/.gitignore"), "*.tmp\n").unwrap();
        live.disk_changed("src/.gitignore");
        let index = live.snapshot().unwrap();
        assert!(index.file("src/a.rs").is_some() && index.file("src/b.rs").is_some(), "{:?}", paths(&index));
        // A file deleted makes room for one created.
        std::fs::remove_file(root.join("z.rs")).unwrap();
        std::fs::write(root.join("y.rs"), "fn y() {}\n").unwrap();
        live.disk_changed_all(&["z.rs".into(), "y.rs".into()]);
        let index = live.snapshot().unwrap();
        assert!(index.file("y.rs").is_some() && index.file("z.rs").is_none(), "{:?}", paths(&index));
        assert!(index.file("notes/new.rs").is_some());
        // Closed, it goes: it was never on disk.
        live.close("notes/new.rs");
        assert_eq!(paths(&live.snapshot().unwrap()), ["src/a.rs", "src/b.rs", "y.rs"]);
    }

    fn paths(index: &Index) -> Vec<String> {
        index.files().map(|file| file.path.clone()).collect()
    }

    #[test]
    fn a_file_replaced_by_a_folder_of_its_name_leaves_the_index() {
        let dir = crate::testing::tree(&[("web/chart.js", b"export function chart() {}\n" as &[u8])]);
        let root = dir.path();
        let live = live_at(root);
        live.install(Index::build(root, None));
        std::fs::remove_file(root.join("web/chart.js")).unwrap();
        std::fs::create_dir_all(root.join("web/chart.js")).unwrap();
        std::fs::write(root.join("web/chart.js/index.js"), "export function draw() {}\n").unwrap();
        live.disk_changed("web/chart.js");
        let index = live.snapshot().unwrap();
        let paths: Vec<&str> = index.files().map(|f| f.path.as_str()).collect();
        assert_eq!(paths, ["web/chart.js/index.js"]);
    }

    #[test]
    fn a_checkout_while_the_first_build_runs_is_read_in_when_it_is_installed() {
        let dir = crate::testing::tree(&[
            ("a.rs", b"fn a_before() {}\n" as &[u8]),
            ("b.rs", b"fn b_before() {}\n"),
            ("gone.rs", b"fn gone() {}\n"),
            ("open.rs", b"fn open_on_disk() {}\n"),
        ]);
        let root = dir.path();
        let live = live_at(root);
        let built = Index::build(root, None);
        live.open("open.rs", "fn typed() {}\n");
        for (path, text) in [("a.rs", "fn a_after() {}\n"), ("b.rs", "fn b_after() {}\n"), ("new.rs", "fn new() {}\n")]
        {
            std::fs::write(root.join(path), text).unwrap();
        }
        std::fs::write(root.join("open.rs"), "fn open_saved_elsewhere() {}\n").unwrap();
        std::fs::remove_file(root.join("gone.rs")).unwrap();
        live.disk_changed_all(&["a.rs", "b.rs", "new.rs", "gone.rs", "open.rs"].map(str::to_owned));
        live.install(built);
        let index = live.snapshot().unwrap();
        let paths: Vec<&str> = index.files().map(|f| f.path.as_str()).collect();
        assert_eq!(paths, ["a.rs", "b.rs", "new.rs", "open.rs"]);
        assert_eq!([names(&index, "a.rs"), names(&index, "b.rs")], [["a_after"], ["b_after"]]);
        assert_eq!(names(&index, "open.rs"), ["typed"], "the open buffer is its truth");
    }

    /// Per language: a file whose every line is a whole item, and lines of the same kind
    /// (some of them comments and attributes that belong to the line below them).
    fn items(language_id: &str) -> (&'static str, Vec<&'static str>) {
        match language_id {
            "rust" => (
                "a.rs",
                vec![
                    "pub struct Point { x: i32, sem: Semaphore }\n",
                    "fn f(a: u8) -> u8 { a }\n",
                    "impl Point { fn x(&self) -> i32 { self.sem.acquire(); self.x } }\n",
                    "use crate::a::{b, c};\n",
                    "// é 😀\n",
                    "/// Documents what follows.\n",
                    "#[cfg(test)]\n",
                    "cfg_rt! { pub fn in_macro(p: Point) { p.sem.release(); } mod inner; }\n",
                    "#[proc_macro_derive(Shape)] pub fn derive_shape(i: T) -> T { i }\n",
                    "fn g() { let s = Semaphore::new(1); s.acquire(); } // trailing\n",
                    "impl<F: Future, Error> Sink<Item = Error> for Pool<Error> where F: Send { fn f(x: F) -> Result<F::Output, Self::Error> { Error::new() } }\n",
                ],
            ),
            "java" => (
                "A.java",
                vec![
                    "class A { int y() { return 1; } }\n",
                    "interface I { void m(); }\n",
                    "enum E { X, Y }\n",
                    "// é 😀\n",
                    "/** Documents what follows. */\n",
                    "class B { Pool pool; void go() { pool.take(); } }\n",
                    "class G<Pool> { Pool p; <B> B first(List<B> all) { return all.get(0); } }\n",
                ],
            ),
            _ => (
                "a.ts",
                vec![
                    "function g(a: number) { return a; }\n",
                    "class C { m(): void {} }\n",
                    "const k = \"é 😀\";\n",
                    "interface I { a: number }\n",
                    "/** Documents what follows. */\n",
                    "export const h = (p: Pool) => p.take();\n",
                    "export function pick<Pool>(p: Pool): Pool { return p; }\n",
                ],
            ),
        }
    }

    /// A change that keeps every line a whole item: lines inserted at a line's start,
    /// whole lines deleted, a comment or blanks typed at a line's end.
    fn item_change(
        lines: Vec<&'static str>,
    ) -> impl proptest::strategy::Strategy<Value = TextDocumentContentChangeEvent> {
        use proptest::prelude::*;
        let inserted = proptest::collection::vec(proptest::sample::select(lines), 0..3).prop_map(|l| l.concat());
        let range = |from: (u32, u32), to: (u32, u32)| {
            Some(Range::new(Position::new(from.0, from.1), Position::new(to.0, to.1)))
        };
        prop_oneof![
            (0u32..40, 0u32..3, inserted).prop_map(move |(line, deleted, text)| TextDocumentContentChangeEvent {
                range: range((line, 0), (line + deleted, 0)),
                range_length: None,
                text,
            }),
            (0u32..40, proptest::sample::select(vec!["  ", " // é😀 typed", "\t"])).prop_map(move |(line, text)| {
                TextDocumentContentChangeEvent {
                    range: range((line, 500), (line, 500)),
                    range_length: None,
                    text: text.into(),
                }
            }),
        ]
    }

    proptest::proptest! {
        /// Whatever lines are added, removed or typed at, in whichever position encoding,
        /// the incrementally parsed entry of an open document, which reads again only the items
        /// an edit touched, is the one a fresh parse of its text gives. (Edits that break the
        /// syntax are left out: tree-sitter's error recovery may then differ between the two;
        /// `Document`'s byte edits are checked for any change.)
        #[test]
        fn editing_a_document_indexes_it_as_a_fresh_parse_would(
            (language_id, changes) in proptest::sample::select(vec!["rust", "java", "typescript"]).prop_flat_map(|id| {
                let lines = items(id).1;
                (proptest::strategy::Just(id), proptest::collection::vec(proptest::collection::vec(item_change(lines), 1..4), 1..6))
            }),
            utf8 in proptest::bool::ANY,
            crlf in proptest::bool::ANY,
        ) {
            let (path, lines) = items(language_id);
            let mut start = lines.concat().repeat(6);
            if crlf {
                start = start.replace('\n', "\r\n");
            }
            let encoding = if utf8 { PositionEncoding::Utf8 } else { PositionEncoding::Utf16 };
            let dir = crate::testing::tempdir();
            let live = LiveIndex::default();
            live.install(Index::build(dir.path(), None));
            live.open(path, &start);
            let mut document = Document::new(&start, 1, language_id);
            for (version, typed) in changes.iter().enumerate() {
                let edits = document.apply_changes(version as i32 + 2, typed, encoding);
                live.change(path, edits.as_deref(), &document.text());
            }
            let text = document.text();
            let fresh = IndexedFile::from_source(path, Language::of_path(path).unwrap(), text.as_bytes());
            // An attribute may end up last, with no item to belong to.
            proptest::prop_assume!(fresh.symbols.parse_errors == 0);
            let index = live.snapshot().unwrap();
            proptest::prop_assert_eq!(index.file(path).map(|f| f.as_ref()), Some(&fresh), "text: {:?}", text);
        }
    }

    #[tokio::test]
    async fn the_index_becomes_ready_after_the_background_build() {
        let dir = crate::testing::tempdir();
        std::fs::write(dir.path().join("lib.rs"), "pub fn built() {}\n").unwrap();
        let live = Arc::new(LiveIndex::default());
        assert!(live.snapshot().is_none());
        live.build_in_background(dir.path(), Some(&dir.path().join("cache")), crate::context::MAX_INDEXED_FILES);
        let index = live.ready(Duration::from_secs(20)).await.expect("built");
        assert_eq!(names(&index, "lib.rs"), ["built"]);
        // The cache is written once the index is in use.
        let cache = cache::cache_file(&dir.path().join("cache"), dir.path());
        let started = std::time::Instant::now();
        while !cache.exists() && started.elapsed() < Duration::from_secs(20) {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        assert!(cache.exists(), "the cache is written");
    }
}
