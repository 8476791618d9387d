//! The server's shared state: the open documents and the runs, behind short-lived locks.
//!
//! Locks here are `std` locks taken for a few statements and never held across an
//! `.await`; notification handlers change state before their first `.await`, so changes
//! apply in the order the client sent them.

use std::collections::{HashMap, HashSet};
use std::path::Path;
use std::sync::{Arc, Mutex, OnceLock, RwLock};

use tokio::sync::watch;
use tokio_util::sync::CancellationToken;
use tower_lsp::lsp_types::Url;

use super::profile::ClientProfile;
use crate::agent::RunHandle;
use crate::config::{ConfigError, ConfigLayer, ValidateSettings};
use crate::context::LiveIndex;
use crate::session::RunId;
use crate::validate::{BuildFilesStamp, Validator};
use crate::workspace::{BaseError, BaseSource, BaseText, DiskBase, Document, Documents, Root};

/// The open documents, and a counter that moves whenever one of them changes.
pub struct DocumentStore {
    documents: RwLock<Documents>,
    generation: watch::Sender<u64>,
}

impl Default for DocumentStore {
    fn default() -> Self {
        Self { documents: RwLock::default(), generation: watch::channel(0).0 }
    }
}

impl DocumentStore {
    /// Runs `change` on the documents and tells waiters something changed.
    pub fn update<T>(&self, change: impl FnOnce(&mut Documents) -> T) -> T {
        let result = {
            let mut documents = self.documents.write().unwrap_or_else(|poisoned| poisoned.into_inner());
            change(&mut documents)
        };
        self.generation.send_modify(|generation| *generation += 1);
        result
    }

    /// Notes that the document at `path` is, as it is now, the file on disk, if the disk holds
    /// its text (read here, outside the documents' lock): at an open, a save, or a change
    /// that may be a reload.
    pub fn mark_if_on_disk(&self, path: &Path) {
        let on_disk = crate::workspace::read_disk_text(path).ok().flatten();
        self.update(|documents| documents.mark_if_on_disk(path, on_disk.as_deref()));
    }

    /// The open document at `path`: its text and version. A document left open on a file
    /// deleted on disk, unchanged since, is none (see [`stands_for_a_deleted_file`]).
    pub fn get(&self, path: &Path) -> Option<(String, i32)> {
        let documents = self.documents.read().unwrap_or_else(|poisoned| poisoned.into_inner());
        documents
            .get(path)
            .filter(|document| !stands_for_a_deleted_file(path, document))
            .map(|document: &Document| (document.text(), document.version()))
    }

    /// Every open document's path, text and version, taken at one moment, but those left
    /// open on files deleted on disk, unchanged since.
    pub fn snapshot(&self) -> std::collections::HashMap<std::path::PathBuf, (String, i32)> {
        let documents = self.documents.read().unwrap_or_else(|poisoned| poisoned.into_inner());
        documents
            .iter()
            .filter(|(path, document)| !stands_for_a_deleted_file(path, document))
            .map(|(path, document)| (path.to_owned(), (document.text(), document.version())))
            .collect()
    }

    /// Whether the document at `path` is open on a file deleted on disk, unchanged since.
    pub fn is_left_on_a_deleted_file(&self, path: &Path) -> bool {
        let documents = self.documents.read().unwrap_or_else(|poisoned| poisoned.into_inner());
        documents.get(path).is_some_and(|document| stands_for_a_deleted_file(path, document))
    }

    /// A receiver that wakes when any document changes.
    pub fn subscribe(&self) -> watch::Receiver<u64> {
        self.generation.subscribe()
    }
}

/// Whether `document`, open at `path`, is only the editor's view of a file since deleted on
/// disk (a branch switched, a file moved in a terminal), with nothing typed into it since it
/// was opened or saved: editors keep such a tab open, and what it shows is no more the
/// workspace's. Once typed into, it is the user's unsaved work, as a new buffer is.
fn stands_for_a_deleted_file(path: &Path, document: &Document) -> bool {
    document.unchanged_since_on_disk() && std::fs::symlink_metadata(path).is_err()
}

/// Base texts as the user has them: the open buffer when there is one, else the disk.
pub struct EditorBase(pub Arc<DocumentStore>);

impl BaseSource for EditorBase {
    fn read(&self, absolute: &Path) -> Result<Option<BaseText>, BaseError> {
        match self.0.get(absolute) {
            Some((text, version)) => Ok(Some(BaseText { text, version: Some(version) })),
            None => DiskBase.read(absolute),
        }
    }

    fn open_texts(&self) -> Vec<(std::path::PathBuf, String)> {
        self.0.snapshot().into_iter().map(|(path, (text, _))| (path, text)).collect()
    }
}

/// A run started by this server.
pub struct RunEntry {
    /// The handle to follow it.
    pub handle: RunHandle,
    /// Set by `discardProposal`: the proposal may no longer be applied.
    pub discarded: bool,
}

/// Everything the handlers share.
#[derive(Default)]
pub struct ServerState {
    /// The workspace root, once `initialize` named one.
    pub root: OnceLock<Root>,
    /// The workspace folders the client named after the first, which issuewright does not
    /// work in.
    pub other_folders: OnceLock<Vec<std::path::PathBuf>>,
    /// What the client can do.
    pub profile: OnceLock<ClientProfile>,
    /// The configuration layer from `initializationOptions` (or why it is invalid).
    pub init_layer: OnceLock<Result<ConfigLayer, ConfigError>>,
    /// Open documents.
    pub documents: Arc<DocumentStore>,
    /// The workspace index.
    pub index: Arc<LiveIndex>,
    /// Runs by id.
    pub runs: Mutex<HashMap<RunId, RunEntry>>,
    /// The workspace's validator and the settings it was made with.
    pub validator: Mutex<Option<(ValidateSettings, BuildFilesStamp, Arc<Validator>)>>,
    /// Files that carry validation diagnostics now; held while a publication is sent, so
    /// two never interleave and leave a file's diagnostics that no later one clears.
    pub published: tokio::sync::Mutex<HashSet<Url>>,
    /// The pending or running validation after a save, to cancel when a newer save comes.
    pub save_validation: Mutex<Option<CancellationToken>>,
    /// Runs whose proposal is being applied now (one apply at a time per run).
    pub applying: Mutex<HashSet<String>>,
}

impl ServerState {
    /// The client profile (defaults before `initialize`).
    pub fn profile(&self) -> ClientProfile {
        self.profile.get().cloned().unwrap_or_default()
    }

    /// The workspace-relative path of a file URI's path, when it is inside the workspace.
    pub fn relative(&self, absolute: &Path) -> Option<String> {
        self.root.get()?.relative(absolute).map(|path| path.to_string())
    }

    /// The index once its first build is done, waiting up to `wait` for it: read again first
    /// where an ignore file above the workspace changed with no watcher to say so (a
    /// monorepo's top `.gitignore` edited while Neovim is open at one of its services).
    pub async fn current_index(&self, wait: std::time::Duration) -> Option<Arc<crate::context::Index>> {
        self.index.ready(wait).await?;
        let index = self.index.clone();
        // A stat of each such file; a whole folder read again only when one changed.
        if let Err(error) = tokio::task::spawn_blocking(move || index.read_again_if_ignored_above_changed()).await {
            tracing::error!("reading the workspace again for an ignore file above it: {error}");
        }
        self.index.snapshot()
    }

    /// Runs `f` on the run registry.
    pub fn with_runs<T>(&self, f: impl FnOnce(&mut HashMap<RunId, RunEntry>) -> T) -> T {
        let mut runs = self.runs.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        f(&mut runs)
    }
}
