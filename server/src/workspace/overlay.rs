//! The overlay: file operations staged against a base, never written to the user's files.
//!
//! The base of a file is the editor's buffer when the file is open, the disk otherwise. The
//! overlay snapshots a file's base the first time a run reads or changes it, so the run
//! sees one consistent view and a later apply can tell whether the user edited the file
//! since. Reads go through the staged state, so the agent sees its own changes.

use std::collections::{BTreeMap, BTreeSet};
use std::io::Read;
use std::path::Path;
use std::sync::Arc;

use super::change::{BaseText, FileChange};
use super::patch::{LineEnding, PatchError, apply_patch, in_line_endings_of};
use super::path::{PathError, Root, WorkspacePath};

/// Files larger than this are not read into the overlay.
pub const MAX_FILE_BYTES: u64 = 8 * 1024 * 1024;

/// How much of a file's start is looked at to tell binary from text.
const BINARY_SNIFF_BYTES: usize = 8192;

/// Whether bytes are binary rather than text: a NUL byte near the start, as git judges it
/// (git looks at the first 8,000 bytes). The index and the overlay share this rule, so a
/// file is text to both or to neither.
pub fn looks_binary(bytes: &[u8]) -> bool {
    memchr::memchr(0, &bytes[..bytes.len().min(BINARY_SNIFF_BYTES)]).is_some()
}

/// Why a base text could not be read.
#[derive(Debug, thiserror::Error)]
pub enum BaseError {
    /// The path is a directory.
    #[error("is a directory")]
    IsDirectory,
    /// The bytes are not UTF-8 text.
    #[error("is not UTF-8 text (binary or another encoding)")]
    NotText,
    /// The path is neither a file nor a directory: a pipe, a socket or a device, whose
    /// reading could wait for ever.
    #[error("is not a regular file (a pipe, socket or device)")]
    NotAFile,
    /// The file exceeds [`MAX_FILE_BYTES`].
    #[error("is {0} bytes, more than the {MAX_FILE_BYTES}-byte limit")]
    TooLarge(u64),
    /// Reading failed.
    #[error("could not be read: {0}")]
    Io(#[from] std::io::Error),
}

/// Where base texts come from: the editor's open buffers first, then the disk.
pub trait BaseSource: Send + Sync {
    /// The text of the file at `absolute` as the user currently has it; `None` if it does
    /// not exist.
    fn read(&self, absolute: &Path) -> Result<Option<BaseText>, BaseError>;

    /// The texts that differ from the disk's because the editor holds them open (absolute
    /// path and text), so builds can see what the user sees; none for a disk-only base.
    fn open_texts(&self) -> Vec<(std::path::PathBuf, String)> {
        Vec::new()
    }
}

/// A base that is only the disk (the headless CLI, or files not open in the editor).
#[derive(Clone, Copy, Debug, Default)]
pub struct DiskBase;

impl BaseSource for DiskBase {
    fn read(&self, absolute: &Path) -> Result<Option<BaseText>, BaseError> {
        read_disk_text(absolute).map(|text| text.map(|text| BaseText { text, version: None }))
    }
}

/// Reads a file from disk as UTF-8 text, without a byte-order mark (as editors show it;
/// writing keeps the mark); `None` when it does not exist, also where a folder on its way
/// is a file (a file the run deleted, to make a folder of its name).
pub fn read_disk_text(absolute: &Path) -> Result<Option<String>, BaseError> {
    let metadata = match std::fs::metadata(absolute) {
        Ok(metadata) => metadata,
        Err(error) if matches!(error.kind(), std::io::ErrorKind::NotFound | std::io::ErrorKind::NotADirectory) => {
            return Ok(None);
        }
        Err(error) => return Err(error.into()),
    };
    if metadata.is_dir() {
        return Err(BaseError::IsDirectory);
    }
    if !metadata.is_file() {
        return Err(BaseError::NotAFile);
    }
    if metadata.len() > MAX_FILE_BYTES {
        return Err(BaseError::TooLarge(metadata.len()));
    }
    // The start is read first, so a binary file (an image, an archive) costs one small read
    // however large it is: searches over a whole tree meet many of them.
    let mut file = std::fs::File::open(absolute)?;
    let mut bytes = Vec::with_capacity(BINARY_SNIFF_BYTES);
    (&mut file).take(BINARY_SNIFF_BYTES as u64).read_to_end(&mut bytes)?;
    if looks_binary(&bytes) {
        return Err(BaseError::NotText);
    }
    // A file that grew since its size was read is still held to the limit.
    bytes.reserve((metadata.len() as usize).saturating_sub(bytes.len()));
    file.take(MAX_FILE_BYTES + 1 - bytes.len() as u64).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(BaseError::TooLarge(bytes.len() as u64));
    }
    if bytes.starts_with(&[0xEF, 0xBB, 0xBF]) {
        bytes.drain(..3);
    }
    String::from_utf8(bytes).map(Some).map_err(|_| BaseError::NotText)
}

/// Why an overlay operation was refused. Nothing is staged when one is returned.
#[derive(Debug, thiserror::Error)]
pub enum OverlayError {
    /// The path itself is not allowed.
    #[error(transparent)]
    Path(#[from] PathError),
    /// The file does not exist (in the overlay's view).
    #[error("`{0}` does not exist")]
    NotFound(WorkspacePath),
    /// The file holds credentials, which the model may not read.
    #[error("`{0}` holds credentials and is not shown; work from the code that reads these settings")]
    Secret(WorkspacePath),
    /// The file holds credentials the workspace has, which the model may not change.
    #[error(
        "`{0}` holds credentials, which are neither shown nor changed; say in your summary what should change in it, and the user will change it"
    )]
    SecretChange(WorkspacePath),
    /// A change named a file by a path that reaches it through a link.
    #[error(
        "`{path}` is reached through a link; the file is `{real}`: change it by that path (links themselves are left as they are)"
    )]
    ThroughLink {
        /// The path given.
        path: WorkspacePath,
        /// Where it leads inside the workspace.
        real: String,
    },
    /// A file operation named a directory.
    #[error("`{0}` is a directory, not a file")]
    IsDirectory(WorkspacePath),
    /// A directory operation, or a parent of a new file, named a file.
    #[error("`{0}` is a file, not a directory")]
    NotADirectory(WorkspacePath),
    /// The base text could not be read.
    #[error("`{0}` {1}")]
    Base(WorkspacePath, BaseError),
    /// The patch did not apply.
    #[error(transparent)]
    Patch(#[from] PatchError),
    /// A line range outside the file.
    #[error("{}", line_range_problem(path, *start, *end, *total))]
    LineRange {
        /// The file.
        path: WorkspacePath,
        /// Requested first line.
        start: usize,
        /// Requested last line; `None` for the file's end.
        end: Option<usize>,
        /// Lines in the file.
        total: usize,
    },
}

/// What is wrong with lines `start..=end` (to the end where `end` is `None`) of `path`, a
/// file of `total` lines.
fn line_range_problem(path: &WorkspacePath, start: usize, end: Option<usize>, total: usize) -> String {
    let lines = if total == 1 { "1 line" } else { &format!("{total} lines") };
    if start == 0 {
        format!("lines count from 1: start_line 0 is not a line of `{path}` ({lines})")
    } else if let Some(end) = end.filter(|&end| end < start) {
        format!("end_line {end} is before start_line {start}; `{path}` has {lines}")
    } else {
        format!("`{path}` has {lines}; start_line {start} is past its end")
    }
}

/// A file's state as tracked by the overlay.
#[derive(Debug)]
struct Tracked {
    /// The user's text when the run first touched the file; `None` if it did not exist.
    base: Option<BaseText>,
    staged: Option<Staged>,
}

#[derive(Debug)]
enum Staged {
    Write(String),
    Delete,
}

impl Tracked {
    fn current(&self) -> Option<&str> {
        match &self.staged {
            Some(Staged::Write(text)) => Some(text),
            Some(Staged::Delete) => None,
            None => self.base.as_ref().map(|base| base.text.as_str()),
        }
    }
}

/// What [`Overlay::write_file`] did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WriteOutcome {
    /// True when the file did not exist before.
    pub created: bool,
    /// Lines in the new content.
    pub lines: usize,
}

/// What [`Overlay::patch_file`] did: the 1-based lines the replacement now occupies.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PatchOutcome {
    /// First line of the replacement.
    pub first_line: usize,
    /// Last line of the replacement.
    pub last_line: usize,
}

/// A window of a file returned by [`Overlay::read_file`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileView {
    /// The selected lines, with their line endings.
    pub text: String,
    /// First line shown (1-based).
    pub first_line: usize,
    /// Last line shown (1-based; `first_line - 1` for an empty file).
    pub last_line: usize,
    /// Lines in the whole file.
    pub total_lines: usize,
}

/// One entry of [`Overlay::list_files`].
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Listed {
    /// The path.
    pub path: WorkspacePath,
    /// True for a directory (only empty directories, and links to directories, are listed on
    /// their own).
    pub is_dir: bool,
}

/// Staged file operations of one run.
pub struct Overlay {
    root: Root,
    base: Arc<dyn BaseSource>,
    files: BTreeMap<WorkspacePath, Tracked>,
    made_dirs: BTreeSet<WorkspacePath>,
}

impl Overlay {
    /// An empty overlay on `root` whose untouched files read from `base`.
    pub fn new(root: Root, base: Arc<dyn BaseSource>) -> Self {
        Self { root, base, files: BTreeMap::new(), made_dirs: BTreeSet::new() }
    }

    /// An empty overlay on the same root and base: the workspace as it is before any of
    /// this overlay's operations, to read from another thread.
    pub fn unstaged(&self) -> Self {
        Self::new(self.root.clone(), self.base.clone())
    }

    /// Takes as its own the bases that `other` (an [`Overlay::unstaged`] copy that read them)
    /// holds for `paths`, where this overlay has not read them yet: a run's changes to a file
    /// are then judged against the text the run was first shown (its context pack's), not
    /// the one the file had by the time the model first named it.
    pub fn adopt_bases<'a>(&mut self, mut other: Overlay, paths: impl IntoIterator<Item = &'a WorkspacePath>) {
        for path in paths {
            if let Some(tracked) = other.files.remove(path).filter(|tracked| tracked.staged.is_none()) {
                self.files.entry(path.clone()).or_insert(tracked);
            }
        }
    }

    /// The workspace root.
    pub fn root(&self) -> &Root {
        &self.root
    }

    /// Creates or replaces a file; parent folders are created as needed. Replacing a file
    /// keeps its line-ending style, as does writing again one this run deleted.
    pub fn write_file(&mut self, path: &WorkspacePath, content: &str) -> Result<WriteOutcome, OverlayError> {
        self.check_parents_are_dirs(path)?;
        if self.is_dir(path)? {
            return Err(OverlayError::IsDirectory(path.clone()));
        }
        let tracked = self.track(path)?;
        let previous = tracked.current();
        // Written again after this run deleted it, the user's file is replaced, not created.
        let created = previous.is_none() && tracked.base.is_none();
        let content = match previous.or(tracked.base.as_ref().map(|base| base.text.as_str())) {
            Some(text) => in_line_endings_of(text, content, LineEnding::of(text)),
            None => content.to_owned(),
        };
        let lines = count_lines(&content);
        tracked.staged = Some(Staged::Write(content));
        Ok(WriteOutcome { created, lines })
    }

    /// Replaces the single occurrence of `old` by `new` (see [`apply_patch`]).
    pub fn patch_file(&mut self, path: &WorkspacePath, old: &str, new: &str) -> Result<PatchOutcome, OverlayError> {
        let tracked = self.track(path)?;
        let current = tracked.current().ok_or_else(|| OverlayError::NotFound(path.clone()))?;
        let patched = apply_patch(path.as_str(), current, old, new)?;
        let first_line = patched.text[..patched.replacement.start].matches('\n').count() + 1;
        let replacement = &patched.text[patched.replacement.clone()];
        let last_line = first_line + replacement.trim_end_matches('\n').matches('\n').count();
        tracked.staged = Some(Staged::Write(patched.text));
        Ok(PatchOutcome { first_line, last_line })
    }

    /// Creates a directory (and its parents); an existing directory is fine.
    pub fn mkdir(&mut self, path: &WorkspacePath) -> Result<bool, OverlayError> {
        self.check_parents_are_dirs(path)?;
        if self.is_dir(path)? {
            return Ok(false);
        }
        if self.exists_as_file(path)? {
            return Err(OverlayError::NotADirectory(path.clone()));
        }
        self.made_dirs.insert(path.clone());
        Ok(true)
    }

    /// Deletes a file; a missing file or a directory is an error.
    pub fn delete_file(&mut self, path: &WorkspacePath) -> Result<(), OverlayError> {
        if self.is_dir(path)? {
            return Err(OverlayError::IsDirectory(path.clone()));
        }
        let tracked = self.track(path)?;
        if tracked.current().is_none() {
            return Err(OverlayError::NotFound(path.clone()));
        }
        tracked.staged = Some(Staged::Delete);
        Ok(())
    }

    /// Reads lines `start..=end` (1-based, both optional) of a file as the overlay has it.
    pub fn read_file(
        &mut self,
        path: &WorkspacePath,
        start: Option<usize>,
        end: Option<usize>,
    ) -> Result<FileView, OverlayError> {
        if self.is_dir(path)? {
            return Err(OverlayError::IsDirectory(path.clone()));
        }
        // Read through a link, the file is the one its real path names, changes included.
        let real = self.file_behind(path);
        let tracked = self.track(&real)?;
        let text = tracked.current().ok_or_else(|| OverlayError::NotFound(path.clone()))?;
        let lines: Vec<&str> = text.split_inclusive('\n').collect();
        let total = lines.len();
        let first = start.unwrap_or(1);
        let last = end.unwrap_or(total).min(total);
        let out_of_range =
            first == 0 || end.is_some_and(|e| e < first) || (first > total && !(total == 0 && first == 1));
        if out_of_range {
            return Err(OverlayError::LineRange { path: path.clone(), start: first, end, total });
        }
        let text = if total == 0 { String::new() } else { lines[first - 1..last].concat() };
        Ok(FileView { text, first_line: first, last_line: last, total_lines: total })
    }

    /// Up to `most` of the files on disk below `dir` that [`Overlay::list_files`] left out for
    /// an ignore file (`.gitignore`, `.ignore`, the repository's excludes) when it listed
    /// `listed`, sorted: what a folder the model names holds when every file in it is ignored
    /// (`logs/*.log`), which `read_file` reads by its path all the same.
    pub fn ignored_files(
        &self,
        dir: &WorkspacePath,
        listed: &[WorkspacePath],
        most: usize,
    ) -> Result<Vec<WorkspacePath>, OverlayError> {
        let absolute = self.root.resolve(dir)?;
        if !absolute.is_dir() {
            return Ok(Vec::new());
        }
        let run_records = self.root.path().join(".issuewright");
        let walker = ignore::WalkBuilder::new(&absolute)
            .standard_filters(false)
            .filter_entry(move |entry| entry.file_name() != ".git" && entry.path() != run_records)
            .build();
        let mut ignored = BTreeSet::new();
        for entry in walker.flatten() {
            if !entry.file_type().is_some_and(|kind| kind.is_file()) {
                continue;
            }
            if let Some(path) = self.root.relative(entry.path())
                && !listed.contains(&path)
                && self.root.resolve(&path).is_ok()
                && !matches!(self.files.get(&path).and_then(|tracked| tracked.staged.as_ref()), Some(Staged::Delete))
            {
                ignored.insert(path);
                if ignored.len() == most {
                    break;
                }
            }
        }
        Ok(ignored.into_iter().collect())
    }

    /// Lists the files below `dir` (recursively, `.gitignore` respected, `.git/` and
    /// `.issuewright/` skipped) as the overlay has them, new buffers the editor has not saved
    /// yet included, sorted.
    pub fn list_files(&self, dir: &WorkspacePath) -> Result<Vec<Listed>, OverlayError> {
        if !self.is_dir(dir)? {
            return Err(if self.exists_as_file_untracked(dir)? {
                OverlayError::NotADirectory(dir.clone())
            } else {
                OverlayError::NotFound(dir.clone())
            });
        }
        let mut files = BTreeSet::new();
        // Links to folders of the workspace: listed as folders (the walk does not follow them;
        // listing one lists what it holds), never read as files.
        let mut linked_dirs = BTreeSet::new();
        let absolute = self.root.resolve(dir)?;
        if absolute.is_dir() {
            let run_records = self.root.path().join(".issuewright");
            let walker = super::workspace_walk(self.root.path(), &absolute)
                .hidden(false)
                .filter_entry(move |entry| entry.file_name() != ".git" && entry.path() != run_records)
                .build();
            for entry in walker.flatten() {
                let Some(kind) = entry.file_type().filter(|t| t.is_file() || t.is_symlink()) else { continue };
                if let Some(path) = self.root.relative(entry.path())
                    && self.root.resolve(&path).is_ok()
                {
                    match kind.is_symlink() && entry.path().is_dir() {
                        true => linked_dirs.insert(path),
                        false => files.insert(path),
                    };
                }
            }
        }
        // Files the editor holds that are not on disk yet (a new buffer not saved).
        for (absolute, _) in self.base.open_texts() {
            if !absolute.exists()
                && let Some(path) = self.root.relative(&absolute)
                && path.is_within(dir)
                && self.root.resolve(&path).is_ok()
            {
                files.insert(path);
            }
        }
        for (path, tracked) in &self.files {
            if !path.is_within(dir) {
                continue;
            }
            match tracked.staged {
                Some(Staged::Write(_)) => {
                    files.insert(path.clone());
                }
                Some(Staged::Delete) => {
                    files.remove(path);
                }
                None => {}
            }
        }
        let linked_dirs: Vec<Listed> = linked_dirs
            .into_iter()
            .filter(|path| !files.contains(path))
            .map(|path| Listed { path, is_dir: true })
            .collect();
        let mut listed: Vec<Listed> = files.into_iter().map(|path| Listed { path, is_dir: false }).collect();
        listed.extend(linked_dirs);
        for made in &self.made_dirs {
            let holds_files = listed.iter().any(|entry| entry.path.is_within(made) && entry.path != *made);
            if made.is_within(dir) && made != dir && !holds_files {
                listed.push(Listed { path: made.clone(), is_dir: true });
            }
        }
        listed.sort();
        Ok(listed)
    }

    /// The file's current text without snapshotting it (for searches over many files):
    /// staged text if the run changed it, else the user's text; `None` if absent or unreadable.
    pub fn peek(&self, path: &WorkspacePath) -> Option<String> {
        self.peek_checked(path).ok().flatten()
    }

    /// [`Overlay::peek`], saying why a file that is there cannot be read.
    pub fn peek_checked(&self, path: &WorkspacePath) -> Result<Option<String>, OverlayError> {
        if let Some(tracked) = self.files.get(path) {
            return Ok(tracked.current().map(str::to_owned));
        }
        let real = self.root.real_relative(path)?;
        // A link to a file the run has changed by its real path shows that change.
        if real != path.as_str()
            && let Some(tracked) = WorkspacePath::parse(&real).ok().and_then(|real| self.files.get(&real))
        {
            return Ok(tracked.current().map(str::to_owned));
        }
        let absolute = self.root.path().join(path.as_str());
        Ok(self.read_base(path, &absolute)?.map(|base| base.text))
    }

    /// The path of the file `path` reaches, its links followed inside the workspace
    /// (`docs/CHANGELOG.md` for a link `CHANGELOG.md -> docs/CHANGELOG.md`); `path` itself
    /// where no link is on its way, or where the path is refused (as its use will say).
    pub fn file_behind(&self, path: &WorkspacePath) -> WorkspacePath {
        match self.root.real_relative(path) {
            Ok(real) if real != path.as_str() => WorkspacePath::parse(&real).unwrap_or_else(|_| path.clone()),
            _ => path.clone(),
        }
    }

    /// The base text of `path` (at `absolute`), as the user has it; a base that cannot be
    /// read is named by its workspace path.
    fn read_base(&self, path: &WorkspacePath, absolute: &Path) -> Result<Option<BaseText>, OverlayError> {
        self.base.read(absolute).map_err(|error| match error {
            BaseError::IsDirectory => OverlayError::IsDirectory(path.clone()),
            other => OverlayError::Base(path.clone(), other),
        })
    }

    /// For a file the run has touched: its text as the user had it when the run first
    /// touched it, and its text now in the run's view (each `None` where there is none).
    /// `None` for a file the run has not touched. Reads nothing.
    pub fn touched_texts(&self, path: &WorkspacePath) -> Option<(Option<&str>, Option<&str>)> {
        self.files.get(path).map(|tracked| (tracked.base.as_ref().map(|base| base.text.as_str()), tracked.current()))
    }

    /// The file's current text in the overlay's view; `None` if it does not exist.
    pub fn current_text(&mut self, path: &WorkspacePath) -> Result<Option<String>, OverlayError> {
        Ok(self.track(path)?.current().map(str::to_owned))
    }

    /// Every file whose staged state differs from its base, in path order.
    pub fn changes(&self) -> Vec<FileChange> {
        self.files
            .iter()
            .filter_map(|(path, tracked)| {
                let new_text = match tracked.staged.as_ref()? {
                    Staged::Write(text) => Some(text.clone()),
                    Staged::Delete => None,
                };
                let unchanged = match (&tracked.base, &new_text) {
                    (Some(base), Some(new)) => base.text == *new,
                    (None, None) => true,
                    _ => false,
                };
                (!unchanged).then(|| FileChange { path: path.clone(), base: tracked.base.clone(), new_text })
            })
            .collect()
    }

    /// Directories created by `mkdir` that hold no file: an editor edit cannot express them.
    pub fn empty_made_dirs(&self) -> Vec<WorkspacePath> {
        self.made_dirs
            .iter()
            .filter(|dir| {
                !self.files.iter().any(|(path, t)| matches!(t.staged, Some(Staged::Write(_))) && path.is_within(dir))
            })
            .cloned()
            .collect()
    }

    /// Starts tracking `path`, snapshotting its base on first use.
    fn track(&mut self, path: &WorkspacePath) -> Result<&mut Tracked, OverlayError> {
        if !self.files.contains_key(path) {
            let absolute = self.root.resolve(path)?;
            let base = self.read_base(path, &absolute)?;
            self.files.insert(path.clone(), Tracked { base, staged: None });
        }
        Ok(self.files.get_mut(path).expect("tracked just above"))
    }

    /// Whether `path` is a directory in the overlay's view.
    fn is_dir(&self, path: &WorkspacePath) -> Result<bool, OverlayError> {
        if path.is_root() || self.made_dirs.iter().any(|made| made.is_within(path)) {
            return Ok(true);
        }
        let holds_staged_file = self.files.iter().any(|(file, tracked)| {
            matches!(tracked.staged, Some(Staged::Write(_))) && file != path && file.is_within(path)
        });
        if holds_staged_file {
            return Ok(true);
        }
        Ok(self.root.resolve(path)?.is_dir())
    }

    fn exists_as_file(&mut self, path: &WorkspacePath) -> Result<bool, OverlayError> {
        if self.files.contains_key(path) {
            return Ok(self.files[path].current().is_some());
        }
        self.exists_as_file_untracked(path)
    }

    fn exists_as_file_untracked(&self, path: &WorkspacePath) -> Result<bool, OverlayError> {
        if let Some(tracked) = self.files.get(path) {
            return Ok(tracked.current().is_some());
        }
        let absolute = self.root.resolve(path)?;
        Ok(absolute.is_file())
    }

    /// Refuses a new file or directory whose parent chain holds a file.
    fn check_parents_are_dirs(&mut self, path: &WorkspacePath) -> Result<(), OverlayError> {
        let mut parent = path.parent();
        while let Some(dir) = parent {
            if dir.is_root() {
                break;
            }
            if self.exists_as_file(&dir)? {
                return Err(OverlayError::NotADirectory(dir));
            }
            parent = dir.parent();
        }
        Ok(())
    }
}

/// Lines as an editor counts them: a final line without a newline counts, an empty text has none.
pub fn count_lines(text: &str) -> usize {
    text.split_inclusive('\n').count()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    struct Fixture {
        _dir: tempfile::TempDir,
        overlay: Overlay,
    }

    fn fixture(files: &[(&str, &str)]) -> Fixture {
        let dir = crate::testing::tree(files);
        let root = Root::new(dir.path()).unwrap();
        Fixture { overlay: Overlay::new(root, Arc::new(DiskBase)), _dir: dir }
    }

    fn p(raw: &str) -> WorkspacePath {
        WorkspacePath::parse(raw).unwrap()
    }

    fn disk(fixture: &Fixture, path: &str) -> Option<String> {
        fs::read_to_string(fixture._dir.path().join(path)).ok()
    }

    #[test]
    fn writes_are_staged_not_written() {
        let mut f = fixture(&[("a.txt", "old\n")]);
        let outcome = f.overlay.write_file(&p("deep/new/b.txt"), "hello\n").unwrap();
        assert_eq!(outcome, WriteOutcome { created: true, lines: 1 });
        f.overlay.write_file(&p("a.txt"), "new\n").unwrap();
        assert_eq!(disk(&f, "a.txt").as_deref(), Some("old\n"));
        assert_eq!(disk(&f, "deep/new/b.txt"), None);
        assert_eq!(f.overlay.current_text(&p("deep/new/b.txt")).unwrap().as_deref(), Some("hello\n"));
        let changes = f.overlay.changes();
        assert_eq!(changes.len(), 2);
        assert_eq!(changes[0].path.as_str(), "a.txt");
        assert_eq!(changes[0].base.as_ref().unwrap().text, "old\n");
    }

    #[test]
    fn replacing_a_crlf_file_keeps_crlf() {
        let mut f = fixture(&[("w.txt", "a\r\nb\r\n")]);
        f.overlay.write_file(&p("w.txt"), "x\ny\n").unwrap();
        assert_eq!(f.overlay.current_text(&p("w.txt")).unwrap().as_deref(), Some("x\r\ny\r\n"));
    }

    #[test]
    fn a_crlf_file_deleted_and_written_again_keeps_crlf() {
        let mut f = fixture(&[("w.txt", "a\r\nb\r\n")]);
        f.overlay.delete_file(&p("w.txt")).unwrap();
        f.overlay.write_file(&p("w.txt"), "a\nc\n").unwrap();
        assert_eq!(f.overlay.current_text(&p("w.txt")).unwrap().as_deref(), Some("a\r\nc\r\n"));
        let changes = f.overlay.changes();
        assert_eq!(changes[0].base.as_ref().unwrap().text, "a\r\nb\r\n", "the diff is of one line, not all");
    }

    #[test]
    fn patches_see_earlier_staged_changes_and_report_lines() {
        let mut f = fixture(&[("src/lib.rs", "fn a() {}\nfn b() {}\nfn c() {}\n")]);
        f.overlay.patch_file(&p("src/lib.rs"), "fn b() {}", "fn b() {\n    todo!()\n}").unwrap();
        let outcome = f.overlay.patch_file(&p("src/lib.rs"), "    todo!()", "    1").unwrap();
        assert_eq!(outcome, PatchOutcome { first_line: 3, last_line: 3 });
        assert_eq!(
            f.overlay.current_text(&p("src/lib.rs")).unwrap().unwrap(),
            "fn a() {}\nfn b() {\n    1\n}\nfn c() {}\n"
        );
    }

    #[test]
    fn a_failed_patch_changes_nothing() {
        let mut f = fixture(&[("x.txt", "same\nsame\n")]);
        let error = f.overlay.patch_file(&p("x.txt"), "same", "other").unwrap_err();
        assert!(matches!(error, OverlayError::Patch(PatchError::Ambiguous { .. })));
        assert!(f.overlay.changes().is_empty());
        let missing = f.overlay.patch_file(&p("nope.txt"), "a", "b").unwrap_err();
        assert!(matches!(missing, OverlayError::NotFound(_)));
    }

    #[test]
    fn delete_needs_an_existing_file() {
        let mut f = fixture(&[("gone.txt", "bye\n"), ("dir/keep.txt", "k\n")]);
        f.overlay.delete_file(&p("gone.txt")).unwrap();
        assert!(matches!(f.overlay.delete_file(&p("gone.txt")), Err(OverlayError::NotFound(_))));
        assert!(matches!(f.overlay.delete_file(&p("missing.txt")), Err(OverlayError::NotFound(_))));
        assert!(matches!(f.overlay.delete_file(&p("dir")), Err(OverlayError::IsDirectory(_))));
        assert!(matches!(f.overlay.read_file(&p("gone.txt"), None, None), Err(OverlayError::NotFound(_))));
        assert_eq!(disk(&f, "gone.txt").as_deref(), Some("bye\n"));
        assert_eq!(f.overlay.changes()[0].new_text, None);
    }

    #[test]
    fn writing_then_deleting_a_new_file_is_no_change() {
        let mut f = fixture(&[]);
        f.overlay.write_file(&p("tmp.txt"), "x").unwrap();
        f.overlay.delete_file(&p("tmp.txt")).unwrap();
        assert!(f.overlay.changes().is_empty());
    }

    #[test]
    fn mkdir_and_file_directory_clashes() {
        let mut f = fixture(&[("file.txt", "x\n"), ("d/a.txt", "a\n")]);
        assert!(f.overlay.mkdir(&p("new/sub")).unwrap());
        assert!(!f.overlay.mkdir(&p("d")).unwrap(), "existing directory is fine");
        assert!(matches!(f.overlay.mkdir(&p("file.txt")), Err(OverlayError::NotADirectory(_))));
        assert!(matches!(f.overlay.write_file(&p("file.txt/x"), ""), Err(OverlayError::NotADirectory(_))));
        assert!(matches!(f.overlay.write_file(&p("d"), ""), Err(OverlayError::IsDirectory(_))));
        assert!(matches!(f.overlay.write_file(&p("new"), ""), Err(OverlayError::IsDirectory(_))));
        assert_eq!(f.overlay.empty_made_dirs(), vec![p("new/sub")]);
    }

    #[test]
    fn a_deleted_file_can_become_a_folder() {
        let mut f = fixture(&[("config", "old\n")]);
        f.overlay.delete_file(&p("config")).unwrap();
        f.overlay.write_file(&p("config/default.toml"), "new\n").unwrap();
        let changes: Vec<(String, Option<String>)> =
            f.overlay.changes().into_iter().map(|change| (change.path.as_str().to_owned(), change.new_text)).collect();
        assert_eq!(
            changes,
            vec![("config".to_owned(), None), ("config/default.toml".to_owned(), Some("new\n".to_owned()))]
        );
        assert_eq!(disk(&f, "config").as_deref(), Some("old\n"), "nothing is written before apply");
    }

    #[test]
    fn peeking_does_not_snapshot() {
        let mut f = fixture(&[("a.txt", "a\n"), ("b.txt", "b\n")]);
        f.overlay.write_file(&p("a.txt"), "staged\n").unwrap();
        assert_eq!(f.overlay.peek(&p("a.txt")).as_deref(), Some("staged\n"));
        assert_eq!(f.overlay.peek(&p("b.txt")).as_deref(), Some("b\n"));
        assert_eq!(f.overlay.peek(&p("absent.txt")), None);
        assert_eq!(f.overlay.files.len(), 1, "only the written file is tracked");
    }

    #[test]
    fn read_file_selects_lines() {
        let mut f = fixture(&[("n.txt", "1\n2\n3\n4\n")]);
        let view = f.overlay.read_file(&p("n.txt"), Some(2), Some(3)).unwrap();
        assert_eq!(view, FileView { text: "2\n3\n".into(), first_line: 2, last_line: 3, total_lines: 4 });
        let clamped = f.overlay.read_file(&p("n.txt"), Some(4), Some(99)).unwrap();
        assert_eq!(clamped.text, "4\n");
        for (start, end, problem) in [
            (Some(0), None, "lines count from 1: start_line 0 is not a line of `n.txt` (4 lines)"),
            (Some(5), None, "`n.txt` has 4 lines; start_line 5 is past its end"),
            (Some(5), Some(9), "`n.txt` has 4 lines; start_line 5 is past its end"),
            (Some(3), Some(2), "end_line 2 is before start_line 3; `n.txt` has 4 lines"),
        ] {
            let error = f.overlay.read_file(&p("n.txt"), start, end).unwrap_err();
            assert!(matches!(error, OverlayError::LineRange { total: 4, .. }));
            assert_eq!(error.to_string(), problem);
        }
    }

    #[test]
    fn empty_files_read_as_empty() {
        let mut f = fixture(&[("empty.txt", "")]);
        let view = f.overlay.read_file(&p("empty.txt"), None, None).unwrap();
        assert_eq!(view.text, "");
        assert_eq!(view.total_lines, 0);
    }

    #[test]
    fn binary_files_are_refused() {
        let dir = crate::testing::tempdir();
        fs::write(dir.path().join("bin"), [0xff, 0xfe, 0x00]).unwrap();
        let mut overlay = Overlay::new(Root::new(dir.path()).unwrap(), Arc::new(DiskBase));
        let error = overlay.read_file(&p("bin"), None, None).unwrap_err();
        assert!(error.to_string().contains("is not UTF-8 text"), "{error}");
    }

    #[test]
    fn a_nul_near_the_start_means_binary_and_text_past_it_reads_whole() {
        let dir = crate::testing::tempdir();
        // Valid UTF-8 all through, yet binary by its start, as git and the index judge it.
        let mut image = b"GIF89a\x00\x01".to_vec();
        image.extend(std::iter::repeat_n(b'a', 100_000));
        fs::write(dir.path().join("logo.gif"), &image).unwrap();
        assert!(std::str::from_utf8(&image).is_ok(), "only the NUL makes it binary");
        let long: String = (0..2_000).map(|n| format!("line {n} \u{e9}\n")).collect();
        assert!(long.len() > 2 * BINARY_SNIFF_BYTES);
        fs::write(dir.path().join("long.txt"), format!("\u{feff}{long}")).unwrap();
        let mut late_nul = "x".repeat(BINARY_SNIFF_BYTES);
        late_nul.push_str("\0 after the start");
        fs::write(dir.path().join("late.txt"), &late_nul).unwrap();

        assert!(matches!(read_disk_text(&dir.path().join("logo.gif")), Err(BaseError::NotText)));
        assert_eq!(read_disk_text(&dir.path().join("long.txt")).unwrap().unwrap(), long, "read whole, mark dropped");
        assert_eq!(read_disk_text(&dir.path().join("late.txt")).unwrap().unwrap(), late_nul);
        assert!(looks_binary(&image) && !looks_binary(long.as_bytes()) && !looks_binary(late_nul.as_bytes()));
    }

    #[test]
    fn listing_goes_through_the_overlay() {
        let mut f = fixture(&[
            ("src/a.rs", ""),
            ("src/b.rs", ""),
            ("target/debug/x", ""),
            (".gitignore", "target/\n"),
            (".git/HEAD", "ref"),
        ]);
        f.overlay.delete_file(&p("src/b.rs")).unwrap();
        f.overlay.write_file(&p("src/c.rs"), "").unwrap();
        f.overlay.mkdir(&p("empty")).unwrap();
        let all: Vec<String> = f
            .overlay
            .list_files(&WorkspacePath::root())
            .unwrap()
            .into_iter()
            .map(|e| format!("{}{}", e.path, if e.is_dir { "/" } else { "" }))
            .collect();
        assert_eq!(all, [".gitignore", "empty/", "src/a.rs", "src/c.rs"]);
        let src = f.overlay.list_files(&p("src")).unwrap();
        assert_eq!(src.len(), 2);
        assert!(matches!(f.overlay.list_files(&p("nope")), Err(OverlayError::NotFound(_))));
        assert!(matches!(f.overlay.list_files(&p(".gitignore")), Err(OverlayError::NotADirectory(_))));
    }

    #[test]
    fn a_dotfiles_repository_above_the_project_does_not_hide_its_files() {
        let home = crate::testing::tempdir();
        for (path, text) in [(".gitignore", "*\n"), (".git/HEAD", "ref"), ("app/.git/HEAD", "ref"), ("app/a.rs", "")] {
            fs::create_dir_all(home.path().join(path).parent().unwrap()).unwrap();
            fs::write(home.path().join(path), text).unwrap();
        }
        let overlay = Overlay::new(Root::new(&home.path().join("app")).unwrap(), Arc::new(DiskBase));
        let listed: Vec<String> =
            overlay.list_files(&WorkspacePath::root()).unwrap().into_iter().map(|e| e.path.to_string()).collect();
        assert_eq!(listed, ["a.rs"]);
    }

    #[cfg(unix)]
    #[test]
    fn symlinks_out_of_the_root_are_refused_for_every_operation() {
        let outside = crate::testing::tempdir();
        fs::write(outside.path().join("secret"), "s").unwrap();
        let mut f = fixture(&[]);
        std::os::unix::fs::symlink(outside.path(), f._dir.path().join("link")).unwrap();
        let target = p("link/secret");
        assert!(matches!(
            f.overlay.read_file(&target, None, None),
            Err(OverlayError::Path(PathError::SymlinkEscape(_)))
        ));
        assert!(matches!(f.overlay.write_file(&target, "x"), Err(OverlayError::Path(_))));
        assert!(matches!(f.overlay.patch_file(&target, "s", "x"), Err(OverlayError::Path(_))));
        assert!(matches!(f.overlay.delete_file(&target), Err(OverlayError::Path(_))));
        assert!(matches!(f.overlay.list_files(&p("link")), Err(OverlayError::Path(_))));
        let listed = f.overlay.list_files(&WorkspacePath::root()).unwrap();
        assert!(listed.is_empty(), "{listed:?}");
    }
}
