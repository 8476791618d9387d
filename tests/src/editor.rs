//! A scripted editor: open documents with versions, and `workspace/applyEdit` applied the
//! way editors apply it (open documents in memory, closed files on disk).

use std::collections::HashMap;
use std::path::PathBuf;

use serde_json::{Value, json};

use crate::text::{Encoding, apply_edits};
use crate::{path_of, uri_of};

/// How the scripted editor answers `workspace/applyEdit`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ApplyMode {
    /// Apply the edit.
    Apply,
    /// Answer `applied: true` but change nothing (as editors do for a stale version).
    IgnoreButSayApplied,
    /// Answer `applied: false`.
    Refuse,
    /// Make the first `n` operations, then stop and answer `applied: false` with the index of
    /// the one it stopped at (as Neovim does at an operation that fails).
    StopAfter(usize),
}

/// One open document.
#[derive(Debug, Clone)]
pub struct OpenDocument {
    /// Its text.
    pub text: String,
    /// Its version.
    pub version: i64,
}

/// The editor's state.
pub struct Editor {
    /// Position encoding agreed with the server.
    pub encoding: Encoding,
    /// Open documents by URI.
    pub documents: HashMap<String, OpenDocument>,
    /// How `workspace/applyEdit` is answered.
    pub apply_mode: ApplyMode,
    /// Send `didChange` after answering `applyEdit` (as Neovim's debounce does) instead of before.
    pub notify_after_answer: bool,
    /// Every `workspace/applyEdit` received.
    pub applied_edits: Vec<Value>,
}

impl Default for Editor {
    fn default() -> Self {
        Self {
            encoding: Encoding::Utf16,
            documents: HashMap::new(),
            apply_mode: ApplyMode::Apply,
            notify_after_answer: false,
            applied_edits: Vec::new(),
        }
    }
}

/// Notifications the editor sends because of an edit.
pub type Notifications = Vec<(String, Value)>;

impl Editor {
    /// Applies one `workspace/applyEdit` request; returns the answer and the notifications
    /// (didChange/didClose) it causes.
    pub fn apply_workspace_edit(&mut self, params: &Value) -> (Value, Notifications) {
        self.applied_edits.push(params.clone());
        match self.apply_mode {
            ApplyMode::Refuse => return (json!({"applied": false, "failureReason": "refused by the test"}), vec![]),
            ApplyMode::IgnoreButSayApplied => return (json!({"applied": true}), vec![]),
            ApplyMode::Apply | ApplyMode::StopAfter(_) => {}
        }
        let edit = &params["edit"];
        let mut notes = Vec::new();
        if let Some(operations) = edit["documentChanges"].as_array() {
            for (index, operation) in operations.iter().enumerate() {
                if self.apply_mode == ApplyMode::StopAfter(index) {
                    let answer =
                        json!({"applied": false, "failureReason": "stopped by the test", "failedChange": index});
                    return (answer, notes);
                }
                match operation["kind"].as_str() {
                    Some("create") => {
                        let path = path_of(operation["uri"].as_str().unwrap());
                        let options = &operation["options"];
                        let keep = options["ignoreIfExists"] == true && options["overwrite"] != true;
                        if !(path.exists() && keep) {
                            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
                            std::fs::write(&path, "").unwrap();
                        }
                    }
                    Some("delete") => {
                        let uri = operation["uri"].as_str().unwrap().to_owned();
                        let _ = std::fs::remove_file(path_of(&uri));
                        if self.documents.remove(&uri).is_some() {
                            notes.push(("textDocument/didClose".into(), json!({"textDocument": {"uri": uri}})));
                        }
                    }
                    Some(other) => panic!("unexpected resource operation {other}"),
                    None => {
                        let document = &operation["textDocument"];
                        let uri = document["uri"].as_str().unwrap();
                        let version = document["version"].as_i64();
                        notes.extend(self.edit_document(uri, version, operation["edits"].as_array().unwrap()));
                    }
                }
            }
        } else if let Some(changes) = edit["changes"].as_object() {
            for (uri, edits) in changes {
                notes.extend(self.edit_document(uri, None, edits.as_array().unwrap()));
            }
        }
        (json!({"applied": true}), notes)
    }

    /// Edits an open document in memory (skipping it when `version` is stale) or a closed file on disk.
    fn edit_document(&mut self, uri: &str, version: Option<i64>, edits: &[Value]) -> Notifications {
        let encoding = self.encoding;
        match self.documents.get_mut(uri) {
            Some(document) => {
                if version.is_some_and(|v| v != document.version) {
                    return vec![];
                }
                document.text = apply_edits(&document.text, edits, encoding);
                document.version += 1;
                vec![(
                    "textDocument/didChange".into(),
                    json!({
                        "textDocument": {"uri": uri, "version": document.version},
                        "contentChanges": [{"text": document.text}]
                    }),
                )]
            }
            None => {
                let path: PathBuf = path_of(uri);
                let text = std::fs::read_to_string(&path).unwrap_or_default();
                std::fs::write(&path, apply_edits(&text, edits, encoding)).unwrap();
                vec![]
            }
        }
    }

    /// The open document at `path`.
    pub fn document(&self, path: &std::path::Path) -> Option<&OpenDocument> {
        self.documents.get(&uri_of(path))
    }
}
