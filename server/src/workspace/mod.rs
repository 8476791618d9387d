//! The workspace: open documents, positions, paths, the overlay of staged changes, and the
//! conversion of a proposal into editor edits. Depends on nothing else of issuewright.

mod change;
mod diff;
mod disk;
mod document;
mod edit;
mod generated;
mod licence;
mod merge;
mod overlay;
mod patch;
mod path;
mod position;
mod repository;
mod sanitize;

pub use change::{BaseText, ChangeKind, Conflict, FileChange, Landing};
pub use diff::{FileSummary, LineStats, line_stats, patch, unified_diff};
pub use disk::{DiskError, TEMPORARY_PREFIX, write_atomically, write_landing};
pub use document::{ByteEdit, Document, Documents};
pub use edit::{ANNOTATION_ID, BuiltEdit, EditOptions, FileEdit, Skipped, build_workspace_edit, text_edits};
pub use generated::generated_marker;
pub use licence::{LicenceHeader, licence_header};
pub use merge::{MergeConflict, merge3};
pub use overlay::{
    BaseError, BaseSource, DiskBase, FileView, Listed, MAX_FILE_BYTES, Overlay, OverlayError, PatchOutcome,
    WriteOutcome, count_lines, looks_binary, read_disk_text,
};
pub use patch::{CandidateHint, LineEnding, PatchError, Patched, apply_patch};
pub use path::{PathError, Root, WorkspacePath, lexical_normal};
pub use position::{LineIndex, PositionEncoding};
pub use repository::{global_excludes_depth, holds_repository, in_repository, workspace_walk};
pub use sanitize::{REDACTED, cut_head_tail, holds_secrets, strip_ansi, text_measure, visible_controls};

/// The user's cache directory: `$XDG_CACHE_HOME`, else `~/.cache`. A relative
/// `$XDG_CACHE_HOME` is ignored, as the XDG specification asks: it would put caches and build
/// copies wherever the server was started, the user's repository as likely as not.
pub fn user_cache_dir() -> Option<std::path::PathBuf> {
    std::env::var_os("XDG_CACHE_HOME")
        .map(std::path::PathBuf::from)
        .filter(|value| value.is_absolute())
        .or_else(|| std::env::var_os("HOME").map(|home| std::path::PathBuf::from(home).join(".cache")))
}
