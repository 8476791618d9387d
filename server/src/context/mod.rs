//! Context gathering: a tree-sitter index of the workspace, and the ranking of its files
//! for an issue.

pub mod cache;
pub mod doc_comments;
pub mod extract;
pub mod graph;
pub mod index;
pub mod issue;
pub mod issue_reading;
pub mod issue_templates;
mod items;
mod java_lang;
pub mod language;
pub mod live;
mod mentioned;
pub mod modules;
pub mod named;
pub(crate) mod namesakes;
mod outside_names;
pub mod pack;
mod parts;
pub mod rank;
mod script_globals;
pub mod terms;
pub mod uses;
pub mod walk;

pub use cache::IndexCache;
pub use extract::{Definition, DefinitionKind, FileSymbols};
pub use index::{BuildProgress, BuildStats, ImportHint, Index, IndexedFile, MAX_INDEXED_FILES};
pub use language::Language;
pub use live::LiveIndex;
pub use named::{NamedFile, named_files, named_files_reading};
pub(crate) use outside_names::{FileOutside, IndexOutside, Outside, OutsideNames, prelude_over_members};
pub use pack::{ContextPack, build_pack, estimate_tokens};
pub use rank::{RankedFile, rank};
