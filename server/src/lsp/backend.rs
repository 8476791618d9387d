//! The tower-lsp backend: document sync, `initialize`, and command routing.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde_json::Value;
use tower_lsp::jsonrpc::Result;
use tower_lsp::lsp_types::{
    DidChangeTextDocumentParams, DidChangeWatchedFilesParams, DidChangeWatchedFilesRegistrationOptions,
    DidCloseTextDocumentParams, DidOpenTextDocumentParams, DidSaveTextDocumentParams, ExecuteCommandOptions,
    ExecuteCommandParams, FileSystemWatcher, GlobPattern, InitializeParams, InitializeResult, InitializedParams,
    MessageType, OneOf, Registration, RelativePattern, SaveOptions, ServerCapabilities, ServerInfo,
    TextDocumentSyncCapability, TextDocumentSyncKind, TextDocumentSyncOptions, TextDocumentSyncSaveOptions, Url,
    WatchKind, WorkDoneProgressCancelParams,
};
use tower_lsp::{Client, LanguageServer};

use super::commands;

/// How long a shutdown waits for the runs it cancels to write their records.
const SHUTDOWN_WAIT: std::time::Duration = std::time::Duration::from_secs(3);
use super::diagnostics;
use super::profile::ClientProfile;
use super::progress::token_of;
use super::state::ServerState;
use crate::config::ConfigLayer;
use crate::session::{self, RunId};
use crate::workspace::{Document, Root};

/// The language server.
pub struct Backend {
    client: Client,
    state: Arc<ServerState>,
}

impl Backend {
    /// Cancels the runs still going and waits a moment for them to end: a cancelled run
    /// writes its record and its staged changes on its way out, so that the next session
    /// finds it; one inside a build or a sync of its shadow copy takes a moment. At
    /// `shutdown`, and when the editor leaves without one (`exit` alone, or its end of input).
    pub(super) async fn end_runs(&self) {
        let running: Vec<_> = self.state.with_runs(|runs| runs.values().map(|entry| entry.handle.clone()).collect());
        running.iter().for_each(|run| run.cancel());
        let ended = futures::future::join_all(running.iter().map(|run| run.finished()));
        if tokio::time::timeout(SHUTDOWN_WAIT, ended).await.is_err() {
            tracing::warn!("a cancelled run had not ended {} s after the session ended", SHUTDOWN_WAIT.as_secs());
        }
        // A run discarded while it ran is marked once its record is written, by a task the
        // end of the session does not wait for: its mark is made here, so the proposal stays
        // discarded in the next session.
        let discarded: Vec<RunId> = self
            .state
            .with_runs(|runs| runs.iter().filter(|(_, entry)| entry.discarded).map(|(id, _)| id.clone()).collect());
        if let Some(root) = self.state.root.get() {
            for id in discarded {
                if let Err(error) = session::mark_discarded(root.path(), &id) {
                    tracing::warn!("{error}");
                }
            }
        }
    }
    /// A backend talking to `client`.
    pub fn new(client: Client) -> Self {
        Self { client, state: Arc::new(ServerState::default()) }
    }

    /// `window/workDoneProgress/cancel`: the user pressed cancel on a run's progress.
    pub async fn on_progress_cancel(&self, params: WorkDoneProgressCancelParams) {
        self.state.with_runs(|runs| {
            for (id, entry) in runs.iter() {
                if token_of(id) == params.token {
                    entry.handle.cancel();
                }
            }
        });
    }

    /// The workspace-relative path the index knows `path` by: that of any workspace file, or
    /// for a repository's `.git/info/exclude`, which no tool may touch but which says what is
    /// indexed, its place below the workspace.
    fn index_path(&self, path: &Path) -> Option<String> {
        if let Some(relative) = self.state.relative(path) {
            // The workspace itself is the index's folder "" (a watcher may report it).
            return Some(if relative == "." { String::new() } else { relative });
        }
        // An ignore file above the workspace: what the whole workspace holds is judged again,
        // unless a run's start saw the change already.
        if let Some(changed) = self.state.index.ignore_file_above_changed(path) {
            return changed.then(String::new);
        }
        if !path.ends_with(".git/info/exclude") {
            return None;
        }
        match self.state.relative(path.ancestors().nth(3)?)?.as_str() {
            "." => Some(".git/info/exclude".into()),
            repository => Some(format!("{repository}/.git/info/exclude")),
        }
    }

    /// Reads `paths` (workspace-relative) from disk into the index again. A folder, or an
    /// ignore file, reads a whole folder: that is done off the async workers, while the
    /// notifications after it wait, so they stay in order.
    async fn read_again(&self, paths: Vec<String>) {
        let index = self.state.index.clone();
        let read = tokio::task::spawn_blocking(move || index.disk_changed_all(&paths));
        if let Err(error) = read.await {
            tracing::error!("reading changed files into the index: {error}");
        }
    }
}

/// The workspace folders the client named after the first (a multi-root workspace).
/// A folder inside the first is worked in with it, and is not named.
fn other_folders(params: &InitializeParams) -> Vec<PathBuf> {
    let folders = params.workspace_folders.as_deref().unwrap_or_default();
    let paths: Vec<PathBuf> = folders.iter().filter_map(|folder| folder.uri.to_file_path().ok()).collect();
    let Some((first, rest)) = paths.split_first() else { return Vec::new() };
    rest.iter().filter(|folder| !folder.starts_with(first)).cloned().collect()
}

/// What to tell the user of a multi-root workspace: which folder issuewright works in.
fn one_folder_warning(root: &Path, others: &[PathBuf]) -> String {
    let others: Vec<String> = others.iter().map(|folder| folder.display().to_string()).collect();
    format!(
        "issuewright: works in one workspace folder, the first: {}. {} {} not indexed, and runs do not change \
         {}; open a folder in a window of its own to implement issues there",
        root.display(),
        others.join(", "),
        if others.len() == 1 { "is" } else { "are" },
        if others.len() == 1 { "it" } else { "them" },
    )
}

/// The workspace folder the client named: the first workspace folder, else `rootUri`, else `rootPath`.
#[allow(deprecated)] // `root_uri` and `root_path` are deprecated but still what many clients send.
fn root_folder(params: &InitializeParams) -> Option<PathBuf> {
    let from_uri = |uri: &Url| uri.to_file_path().ok();
    params
        .workspace_folders
        .as_ref()
        .and_then(|folders| folders.first())
        .and_then(|folder| from_uri(&folder.uri))
        .or_else(|| params.root_uri.as_ref().and_then(from_uri))
        .or_else(|| params.root_path.as_ref().map(PathBuf::from))
}

/// The configuration layer in `initializationOptions` (the keys of `.issuewright.toml`).
fn init_layer(options: Option<&Value>) -> std::result::Result<ConfigLayer, crate::config::ConfigError> {
    match options {
        Some(value) if !value.is_null() => ConfigLayer::from_json(value, "initializationOptions"),
        _ => Ok(ConfigLayer::default()),
    }
}

fn path_of(uri: &Url) -> Option<PathBuf> {
    (uri.scheme() == "file").then(|| uri.to_file_path().ok()).flatten()
}

#[tower_lsp::async_trait]
impl LanguageServer for Backend {
    async fn initialize(&self, params: InitializeParams) -> Result<InitializeResult> {
        let profile = ClientProfile::from_initialize(&params.capabilities, params.client_info.as_ref());
        let encoding = profile.encoding;
        let _ = self.state.profile.set(profile);
        let layer = init_layer(params.initialization_options.as_ref());
        if let Err(error) = &layer {
            tracing::warn!("{error}");
        }
        let _ = self.state.init_layer.set(layer);
        let _ = self.state.other_folders.set(other_folders(&params));
        match root_folder(&params).map(|folder| (Root::new(&folder), folder)) {
            Some((Ok(root), _)) => {
                tracing::info!(root = %root.path().display(), "workspace");
                let cache_dir = crate::context::cache::user_cache_dir();
                let max_files = crate::config::index_file_limit().unwrap_or(crate::context::MAX_INDEXED_FILES);
                self.state.index.build_in_background(root.path(), cache_dir.as_deref(), max_files);
                let _ = self.state.root.set(root);
            }
            Some((Err(error), folder)) => tracing::warn!("workspace folder {}: {error}", folder.display()),
            None => tracing::warn!("no workspace folder; commands will ask for one"),
        }
        Ok(InitializeResult {
            capabilities: ServerCapabilities {
                position_encoding: Some(encoding.kind()),
                text_document_sync: Some(TextDocumentSyncCapability::Options(TextDocumentSyncOptions {
                    open_close: Some(true),
                    change: Some(TextDocumentSyncKind::INCREMENTAL),
                    save: Some(TextDocumentSyncSaveOptions::SaveOptions(SaveOptions { include_text: Some(false) })),
                    ..Default::default()
                })),
                execute_command_provider: Some(ExecuteCommandOptions {
                    commands: commands::ALL.iter().map(|c| (*c).to_owned()).collect(),
                    ..Default::default()
                }),
                ..Default::default()
            },
            server_info: Some(ServerInfo {
                name: "issuewright".into(),
                version: Some(env!("CARGO_PKG_VERSION").into()),
            }),
        })
    }

    async fn initialized(&self, _: InitializedParams) {
        match self.state.root.get() {
            None => {
                let message = "issuewright: no workspace folder; open a folder to implement issues";
                self.client.show_message(MessageType::WARNING, message).await;
            }
            Some(root) => {
                if let Some(others) = self.state.other_folders.get().filter(|others| !others.is_empty()) {
                    let warning = one_folder_warning(root.path(), others);
                    self.client.show_message(MessageType::WARNING, warning).await;
                }
                // The build is shown as it goes; a workspace too large to index whole (a home
                // folder) is worth saying once built.
                let (client, state, root) = (self.client.clone(), self.state.clone(), root.path().to_owned());
                let with_progress = self.state.profile().work_done_progress;
                tokio::spawn(async move {
                    let index = super::progress::follow_index(&client, &state.index, with_progress).await;
                    if let Some(warning) = index.and_then(|index| index.stats.limit_warning(&root)) {
                        client.show_message(MessageType::WARNING, format!("issuewright: {warning}")).await;
                    }
                });
            }
        }
        if self.state.profile().watch_files {
            let watchers = vec![
                FileSystemWatcher {
                    glob_pattern: GlobPattern::String("**/*.{rs,java,ts,mts,cts,tsx,js,jsx,mjs,cjs}".into()),
                    kind: None,
                },
                // The manifests that lay out crates and script aliases, and the ignore
                // files that say what is indexed.
                FileSystemWatcher {
                    glob_pattern: GlobPattern::String(
                        "**/{Cargo.toml,tsconfig*.json,jsconfig*.json,.gitignore,.ignore}".into(),
                    ),
                    kind: None,
                },
                FileSystemWatcher { glob_pattern: GlobPattern::String("**/.git/info/exclude".into()), kind: None },
                // The bases a `tsconfig.json` extends may have any name: `config/base.json`.
                FileSystemWatcher { glob_pattern: GlobPattern::String("**/*.json".into()), kind: None },
                // A folder that comes (moved, renamed, generated) or goes is one event for the
                // folder, which no pattern above matches: its files enter or leave the index.
                FileSystemWatcher {
                    glob_pattern: GlobPattern::String("**/*".into()),
                    kind: Some(WatchKind::Create | WatchKind::Delete),
                },
            ];
            // The ignore files above the workspace (a monorepo's top `.gitignore`), where the
            // editor can watch a folder of its own. Not in Neovim, which watches the folder a
            // pattern names whole, below it too: for a monorepo's top, every folder of it.
            let profile = self.state.profile();
            let above = (profile.relative_patterns && !profile.neovim).then(|| self.state.index.ignore_files_above());
            let watchers: Vec<FileSystemWatcher> = watchers
                .into_iter()
                .chain(above.into_iter().flatten().filter_map(|file| {
                    let (folder, name) = (file.parent()?, file.file_name()?.to_str()?);
                    let base_uri = OneOf::Right(Url::from_directory_path(folder).ok()?);
                    let pattern = RelativePattern { base_uri, pattern: name.to_owned() };
                    Some(FileSystemWatcher { glob_pattern: GlobPattern::Relative(pattern), kind: None })
                }))
                .collect();
            let options = DidChangeWatchedFilesRegistrationOptions { watchers };
            let registration = Registration {
                id: "issuewright-sources".into(),
                method: "workspace/didChangeWatchedFiles".into(),
                register_options: serde_json::to_value(options).ok(),
            };
            // Notifications are handled in order, one at a time: one that waited here for the
            // client's answer would keep that answer from being read. Ask in the background.
            let client = self.client.clone();
            tokio::spawn(async move {
                if let Err(error) = client.register_capability(vec![registration]).await {
                    tracing::warn!("file watching not registered: {}", error.message);
                }
            });
        } else {
            tracing::warn!(
                "the editor does not watch files: the index follows its documents and saves, and \
                 sees other changes on disk when the server starts again (Neovim on Linux watches \
                 with inotifywait, from inotify-tools)"
            );
        }
    }

    async fn did_change_watched_files(&self, params: DidChangeWatchedFilesParams) {
        // A document left open on a file deleted on disk, unchanged since, follows the disk:
        // the index lets it go as if closed, and takes it again once it is typed into.
        for path in params.changes.iter().filter_map(|change| path_of(&change.uri)) {
            if self.state.documents.is_left_on_a_deleted_file(&path)
                && let Some(relative) = self.state.relative(&path)
            {
                self.state.index.close(&relative);
            }
        }
        let paths: Vec<String> =
            params.changes.iter().filter_map(|change| self.index_path(&path_of(&change.uri)?)).collect();
        self.read_again(paths).await;
    }

    async fn shutdown(&self) -> Result<()> {
        self.end_runs().await;
        Ok(())
    }

    async fn did_open(&self, params: DidOpenTextDocumentParams) {
        let document = params.text_document;
        if let Some(path) = path_of(&document.uri) {
            if let Some(relative) = self.state.relative(&path) {
                self.state.index.open(&relative, &document.text);
            }
            let opened = Document::new(&document.text, document.version, &document.language_id);
            self.state.documents.update(|documents| documents.open(path.clone(), opened));
            // Opened as it is on disk, it is the editor's view of the file until typed into.
            self.state.documents.mark_if_on_disk(&path);
        }
    }

    async fn did_change(&self, params: DidChangeTextDocumentParams) {
        let Some(path) = path_of(&params.text_document.uri) else { return };
        let encoding = self.state.profile().encoding;
        let version = params.text_document.version;
        // The index reads only its languages' files: the text of another (a large log, a
        // data file) is not copied out at each keystroke.
        let indexed = crate::context::Language::of_path(&path.to_string_lossy()).is_some();
        let changed = self.state.documents.update(|documents| {
            let edits = documents.change(&path, version, &params.content_changes, encoding)?;
            let document = documents.get(&path)?;
            Some((edits, if indexed { document.text() } else { String::new() }, document.rope().len_bytes()))
        });
        // A change may be the editor reloading the document after the file changed on disk (a
        // pull, a formatter run in a terminal), in one notification or several, or the user
        // undoing back to the saved text: it matches the disk then, and a later delete leaves it
        // standing for nothing. The disk is read only when its size is the text's (a byte order
        // mark aside): while typing, a `stat` a keystroke.
        if let Some((_, _, bytes)) = changed
            && std::fs::metadata(&path).is_ok_and(|disk| (bytes as u64..=bytes as u64 + 3).contains(&disk.len()))
        {
            self.state.documents.mark_if_on_disk(&path);
        }
        match (changed, self.state.relative(&path)) {
            (Some((edits, text, _)), Some(relative)) if indexed => {
                self.state.index.change(&relative, edits.as_deref(), &text)
            }
            (Some(_), _) => {}
            (None, _) => tracing::warn!(uri = %params.text_document.uri, "didChange for a document that is not open"),
        }
    }

    async fn did_close(&self, params: DidCloseTextDocumentParams) {
        if let Some(path) = path_of(&params.text_document.uri) {
            self.state.documents.update(|documents| documents.close(&path));
            if let Some(relative) = self.state.relative(&path) {
                self.state.index.close(&relative);
            }
        }
    }

    async fn did_save(&self, params: DidSaveTextDocumentParams) {
        // A saved manifest (`Cargo.toml`, `tsconfig.json`) changes how modules are laid out, a
        // saved `.gitignore` or `.git/info/exclude` what is indexed, and a saved document the
        // index does not follow (grown past the size limit, or minified) leaves on disk what
        // its entry must now match. A client that watches files reports it as a change too,
        // but a watcher may miss it (Neovim's inotify watcher leaves the root's `.git` out):
        // the files that shape the index are read again on save whatever the client watches,
        // which a second report of the same change leaves as it was.
        if let Some(path) = path_of(&params.text_document.uri) {
            self.state.documents.mark_if_on_disk(&path);
        }
        let watched = self.state.profile().watch_files;
        // The workspace's own folder "" is no document saved: an ignore file above it that
        // changed, whose change is told once (a watcher's report after it says nothing new).
        if let Some(relative) = path_of(&params.text_document.uri).and_then(|path| self.index_path(&path))
            && (relative.is_empty()
                || self.state.index.shapes(&relative)
                || (!watched && !self.state.index.follows(&relative)))
        {
            self.read_again(vec![relative]).await;
        }
        let Some(root) = self.state.root.get().cloned() else { return };
        // Reading the editor's settings is a request to the client: never wait for its
        // answer inside a notification (see `initialized`).
        let (client, state) = (self.client.clone(), self.state.clone());
        tokio::spawn(async move {
            let config = match commands::run_config(&client, &state, &root, None).await {
                Ok(config) => config,
                Err(error) => {
                    tracing::warn!("validation after save: {error}");
                    return;
                }
            };
            if !config.validate.on_save {
                return;
            }
            match diagnostics::validator(&state, &root, &config.validate) {
                Ok(validator) => diagnostics::schedule_after_save(client, state, root, validator),
                Err(error) => tracing::warn!("validation after save: {error}"),
            }
        });
    }

    async fn execute_command(&self, params: ExecuteCommandParams) -> Result<Option<Value>> {
        let result = commands::execute(&self.client, &self.state, &params.command, &params.arguments).await;
        match result {
            Ok(value) => Ok(Some(value)),
            Err(error) => {
                tracing::info!(command = %params.command, "{error}");
                Err(error.into())
            }
        }
    }
}
