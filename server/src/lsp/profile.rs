//! What the connected editor can do, read once from `initialize`.

use tower_lsp::lsp_types::{ClientCapabilities, ClientInfo, ResourceOperationKind};

use crate::workspace::{EditOptions, PositionEncoding};

/// The client's abilities that shape what the server sends.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ClientProfile {
    /// `workspace/applyEdit`: the server may ask the editor to apply an edit.
    pub apply_edit: bool,
    /// The negotiated position encoding.
    pub encoding: PositionEncoding,
    /// `documentChanges` in workspace edits.
    pub document_changes: bool,
    /// `CreateFile` operations.
    pub create_files: bool,
    /// `DeleteFile` operations.
    pub delete_files: bool,
    /// Change annotations (`needsConfirmation` previews).
    pub change_annotations: bool,
    /// Server-initiated `$/progress`.
    pub work_done_progress: bool,
    /// `workspace/configuration` requests.
    pub configuration: bool,
    /// Dynamic registration of `workspace/didChangeWatchedFiles`.
    pub watch_files: bool,
    /// Watchers may name a folder of their own (`RelativePattern`), outside the workspace.
    pub relative_patterns: bool,
    /// The client is Neovim, whose edit application needs end-of-file edits past the text.
    pub neovim: bool,
}

impl ClientProfile {
    /// Reads the profile from `initialize`'s capabilities and client info.
    ///
    /// A client that lists resource operations understands `documentChanges` (they exist
    /// only there) even if it does not say so; Neovim 0.11 is such a client.
    pub fn from_initialize(capabilities: &ClientCapabilities, info: Option<&ClientInfo>) -> Self {
        let encodings = capabilities.general.as_ref().and_then(|general| general.position_encodings.as_deref());
        let edit = capabilities.workspace.as_ref().and_then(|workspace| workspace.workspace_edit.as_ref());
        let operations = edit.and_then(|edit| edit.resource_operations.as_deref()).unwrap_or_default();
        let document_changes = edit.and_then(|edit| edit.document_changes).unwrap_or(false) || !operations.is_empty();
        let watched = capabilities.workspace.as_ref().and_then(|workspace| workspace.did_change_watched_files.as_ref());
        Self {
            apply_edit: capabilities.workspace.as_ref().and_then(|workspace| workspace.apply_edit).unwrap_or(false),
            encoding: PositionEncoding::negotiate(encodings),
            document_changes,
            create_files: document_changes && operations.contains(&ResourceOperationKind::Create),
            delete_files: document_changes && operations.contains(&ResourceOperationKind::Delete),
            change_annotations: document_changes
                && edit.and_then(|edit| edit.change_annotation_support.as_ref()).is_some(),
            work_done_progress: capabilities
                .window
                .as_ref()
                .and_then(|window| window.work_done_progress)
                .unwrap_or(false),
            configuration: capabilities
                .workspace
                .as_ref()
                .and_then(|workspace| workspace.configuration)
                .unwrap_or(false),
            watch_files: watched.and_then(|watched| watched.dynamic_registration).unwrap_or(false),
            relative_patterns: watched.and_then(|watched| watched.relative_pattern_support).unwrap_or(false),
            neovim: info.is_some_and(|info| info.name.eq_ignore_ascii_case("neovim")),
        }
    }

    /// Edit options for this client; `label` names the proposal in the confirmation dialog.
    pub fn edit_options(&self, label: &str) -> EditOptions {
        EditOptions {
            encoding: self.encoding,
            document_changes: self.document_changes,
            create_files: self.create_files,
            delete_files: self.delete_files,
            annotation: self.change_annotations.then(|| tower_lsp::lsp_types::ChangeAnnotation {
                label: format!("issuewright: {label}"),
                needs_confirmation: Some(true),
                description: Some("Changes proposed by an issuewright run".into()),
            }),
            eof_past_end: self.neovim,
            breaks_only_at_newline: self.neovim,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn profile(capabilities: serde_json::Value, name: &str) -> ClientProfile {
        let capabilities: ClientCapabilities = serde_json::from_value(capabilities).unwrap();
        let info = ClientInfo { name: name.into(), version: None };
        ClientProfile::from_initialize(&capabilities, Some(&info))
    }

    #[test]
    fn neovim_0_11_defaults() {
        let nvim = profile(
            json!({
                "general": {"positionEncodings": ["utf-8", "utf-16", "utf-32"]},
                "workspace": {"applyEdit": true, "workspaceEdit": {"resourceOperations": ["rename", "create", "delete"]}},
                "window": {"workDoneProgress": true}
            }),
            "Neovim",
        );
        assert_eq!(nvim.encoding, PositionEncoding::Utf8);
        assert!(nvim.document_changes && nvim.create_files && nvim.delete_files);
        assert!(!nvim.change_annotations);
        assert!(nvim.work_done_progress && nvim.neovim && nvim.apply_edit);
    }

    #[test]
    fn vscode_like_client() {
        let code = profile(
            json!({
                "workspace": {"workspaceEdit": {
                    "documentChanges": true,
                    "resourceOperations": ["create", "rename", "delete"],
                    "changeAnnotationSupport": {"groupsOnLabel": true}
                }},
                "window": {"workDoneProgress": true}
            }),
            "Visual Studio Code",
        );
        assert_eq!(code.encoding, PositionEncoding::Utf16);
        assert!(code.change_annotations && !code.neovim);
        let options = code.edit_options("Fix the parser");
        assert_eq!(options.annotation.unwrap().needs_confirmation, Some(true));
    }

    #[test]
    fn a_bare_client_gets_plain_changes() {
        let bare = profile(json!({}), "tiny");
        assert!(!bare.document_changes && !bare.create_files && !bare.work_done_progress && !bare.apply_edit);
        assert!(bare.edit_options("x").annotation.is_none());
    }
}
