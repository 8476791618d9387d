//! Turning proposed file texts into an LSP `WorkspaceEdit` the editor can preview and apply.
//!
//! Each changed file becomes minimal line-level `TextEdit`s (a line diff with adjacent
//! changes merged into one hunk), new and deleted files become `CreateFile`/`DeleteFile`
//! operations, positions are written in the negotiated encoding, and every edit carries
//! one change annotation asking for confirmation when the client supports annotations.

use std::collections::HashMap;
use std::time::Duration;

use ropey::Rope;
use similar::{DiffTag, TextDiff};
use tower_lsp::lsp_types::{
    AnnotatedTextEdit, ChangeAnnotation, CreateFile, CreateFileOptions, DeleteFile, DeleteFileOptions,
    DocumentChangeOperation, DocumentChanges, OneOf, OptionalVersionedTextDocumentIdentifier, Position, ResourceOp,
    TextDocumentEdit, TextEdit, Url, WorkspaceEdit,
};

use super::path::WorkspacePath;
use super::position::{LineIndex, PositionEncoding};

/// The identifier of the one change annotation a proposal's edits carry.
pub const ANNOTATION_ID: &str = "issuewright.proposal";

/// What the client can take, and how to write positions for it.
#[derive(Debug, Clone, Default)]
pub struct EditOptions {
    /// The negotiated position encoding.
    pub encoding: PositionEncoding,
    /// The client accepts `documentChanges` (versioned edits and resource operations).
    pub document_changes: bool,
    /// The client can create files through a workspace edit.
    pub create_files: bool,
    /// The client can delete files through a workspace edit.
    pub delete_files: bool,
    /// The annotation every edit carries, when the client supports change annotations.
    pub annotation: Option<ChangeAnnotation>,
    /// Write an edit that ends at the end of a file lacking a final newline as ending at
    /// `(line count, 0)`, one line past the text. Neovim needs this to apply such edits
    /// without adding a blank line; other clients clamp it to the end of the text.
    pub eof_past_end: bool,
    /// The client breaks lines at `\n` alone, where the protocol breaks them at a `\r` too
    /// (Neovim): a file holding a `\r` that stands alone is left out, as its edit would land
    /// on the wrong line.
    pub breaks_only_at_newline: bool,
}

/// One file's move from its current text to its target text.
#[derive(Debug, Clone)]
pub struct FileEdit {
    /// The file.
    pub path: WorkspacePath,
    /// Its URI.
    pub uri: Url,
    /// The open document's version, `None` when the file is not open in the editor.
    pub version: Option<i32>,
    /// The text now; `None` when the file does not exist.
    pub current: Option<String>,
    /// The text wanted; `None` to delete the file.
    pub target: Option<String>,
}

/// A file left out of a `WorkspaceEdit` because the client cannot take its change.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Skipped {
    /// The file.
    pub path: WorkspacePath,
    /// Why, and what the user can do instead.
    pub reason: String,
}

/// A `WorkspaceEdit` and what it covers.
#[derive(Debug, Clone)]
pub struct BuiltEdit {
    /// The edit to send.
    pub edit: WorkspaceEdit,
    /// Files the edit changes.
    pub included: Vec<WorkspacePath>,
    /// Files it cannot change for this client.
    pub skipped: Vec<Skipped>,
}

/// Builds the `WorkspaceEdit` for `files`. Deletions come first, then edits, then
/// creations, so a file replaced by a directory (or the reverse) applies in order.
pub fn build_workspace_edit(files: &[FileEdit], options: &EditOptions) -> BuiltEdit {
    let mut ordered: Vec<&FileEdit> = files.iter().collect();
    ordered.sort_by_key(|file| {
        let rank = match (&file.current, &file.target) {
            (Some(_), None) => 0,
            (Some(_), Some(_)) => 1,
            _ => 2,
        };
        (rank, file.path.clone())
    });

    let mut operations = Vec::new();
    let mut changes: HashMap<Url, Vec<TextEdit>> = HashMap::new();
    let mut included = Vec::new();
    let mut skipped = Vec::new();
    let annotation_id = options.annotation.as_ref().map(|_| ANNOTATION_ID.to_owned());
    let cannot = |what: &str, path: &WorkspacePath| Skipped {
        path: path.clone(),
        reason: format!(
            "your editor cannot {what} files through a workspace edit (it lacks documentChanges with resource operations); {what} `{path}` by hand, or apply with `issuewright run --apply`"
        ),
    };

    for file in ordered {
        match (&file.current, &file.target) {
            (None, None) => continue,
            (Some(current), Some(target)) if current == target => continue,
            (Some(_), None) => {
                if !(options.document_changes && options.delete_files) {
                    skipped.push(cannot("delete", &file.path));
                    continue;
                }
                operations.push(DocumentChangeOperation::Op(ResourceOp::Delete(DeleteFile {
                    uri: file.uri.clone(),
                    options: annotation_id.clone().map(|id| DeleteFileOptions {
                        recursive: None,
                        ignore_if_not_exists: None,
                        annotation_id: Some(id),
                    }),
                })));
            }
            (None, Some(target)) => {
                if !(options.document_changes && options.create_files) {
                    skipped.push(cannot("create", &file.path));
                    continue;
                }
                operations.push(DocumentChangeOperation::Op(ResourceOp::Create(CreateFile {
                    uri: file.uri.clone(),
                    // Never truncate a file that appeared in the meantime.
                    options: Some(CreateFileOptions { overwrite: Some(false), ignore_if_exists: Some(true) }),
                    annotation_id: annotation_id.clone(),
                })));
                if !target.is_empty() {
                    let edits = text_edits("", target, options.encoding, options.eof_past_end);
                    operations.push(text_document_edit(&file.uri, None, edits, annotation_id.as_deref()));
                }
            }
            (Some(current), Some(_)) if options.breaks_only_at_newline && holds_lone_carriage_return(current) => {
                skipped.push(Skipped {
                    path: file.path.clone(),
                    reason: format!(
                        "`{}` holds a carriage return that stands alone, which your editor does not take for a line \
                         break as the language server protocol does, so an edit of it would land on the wrong line; \
                         apply it with `git apply` of the run's diff.patch (in its record), or by hand",
                        file.path
                    ),
                });
                continue;
            }
            (Some(current), Some(target)) => {
                let edits = text_edits(current, target, options.encoding, options.eof_past_end);
                if options.document_changes {
                    operations.push(text_document_edit(&file.uri, file.version, edits, annotation_id.as_deref()));
                } else {
                    changes.insert(file.uri.clone(), edits);
                }
            }
        }
        included.push(file.path.clone());
    }

    let edit = if options.document_changes {
        WorkspaceEdit {
            changes: None,
            document_changes: Some(DocumentChanges::Operations(operations)),
            change_annotations: options
                .annotation
                .clone()
                .map(|annotation| HashMap::from([(ANNOTATION_ID.to_owned(), annotation)])),
        }
    } else {
        WorkspaceEdit { changes: Some(changes), document_changes: None, change_annotations: None }
    };
    BuiltEdit { edit, included, skipped }
}

/// Whether `text` holds a `\r` that no `\n` follows: a line break to the protocol, and to
/// none of the editors that break lines at `\n` alone.
fn holds_lone_carriage_return(text: &str) -> bool {
    text.match_indices('\r').any(|(at, _)| !text[at + 1..].starts_with('\n'))
}

impl BuiltEdit {
    /// The edit as JSON for the wire.
    ///
    /// lsp-types 0.94 keeps a `DeleteFile`'s `annotationId` inside its `options`; the
    /// specification (and VS Code) read it on the operation itself, so it is moved there.
    pub fn to_wire(&self) -> serde_json::Value {
        let mut json = serde_json::to_value(&self.edit).expect("a WorkspaceEdit serialises");
        if let Some(operations) = json.get_mut("documentChanges").and_then(|v| v.as_array_mut()) {
            for operation in operations.iter_mut().filter(|op| op["kind"] == "delete") {
                let id = operation
                    .get_mut("options")
                    .and_then(|options| options.as_object_mut())
                    .and_then(|options| options.remove("annotationId"));
                if let (Some(id), Some(object)) = (id, operation.as_object_mut()) {
                    object.insert("annotationId".into(), id);
                    if object["options"].as_object().is_some_and(|o| o.is_empty()) {
                        object.remove("options");
                    }
                }
            }
        }
        json
    }
}

fn text_document_edit(
    uri: &Url,
    version: Option<i32>,
    edits: Vec<TextEdit>,
    annotation_id: Option<&str>,
) -> DocumentChangeOperation {
    let edits = edits
        .into_iter()
        .map(|text_edit| match annotation_id {
            Some(id) => OneOf::Right(AnnotatedTextEdit { text_edit, annotation_id: id.to_owned() }),
            None => OneOf::Left(text_edit),
        })
        .collect();
    DocumentChangeOperation::Edit(TextDocumentEdit {
        text_document: OptionalVersionedTextDocumentIdentifier { uri: uri.clone(), version },
        edits,
    })
}

/// Minimal line-level edits turning `old` into `new`, ascending and non-overlapping.
pub fn text_edits(old: &str, new: &str, encoding: PositionEncoding, eof_past_end: bool) -> Vec<TextEdit> {
    let diff = TextDiff::configure().timeout(Duration::from_secs(2)).diff_lines(old, new);
    let old_offsets = line_offsets(diff.iter_old_slices());
    let new_offsets = line_offsets(diff.iter_new_slices());
    let old_line_count = old_offsets.len() - 1;

    let mut hunks: Vec<(std::ops::Range<usize>, std::ops::Range<usize>)> = Vec::new();
    for op in diff.ops() {
        if op.tag() == DiffTag::Equal {
            continue;
        }
        let (old_lines, new_lines) = (op.old_range(), op.new_range());
        match hunks.last_mut() {
            Some((o, n)) if o.end == old_lines.start && n.end == new_lines.start => {
                o.end = old_lines.end;
                n.end = new_lines.end;
            }
            _ => hunks.push((old_lines, new_lines)),
        }
    }

    let rope = Rope::from_str(old);
    let index = LineIndex::new(&rope, encoding);
    let ends_with_break = old.ends_with('\n') || old.ends_with('\r');
    hunks
        .into_iter()
        .map(|(mut o, mut n)| {
            // An insertion after the last line is written as a change of that line, so it
            // never starts past the editor's last line (Neovim appends a blank line then).
            if o.is_empty() && o.start == old_line_count && o.start > 0 {
                o.start -= 1;
                n.start -= 1;
            }
            let old_bytes = old_offsets[o.start]..old_offsets[o.end];
            let mut range = index.range_of_bytes(old_bytes.clone());
            if eof_past_end && old_bytes.end == old.len() && !ends_with_break {
                range.end = Position::new(rope.len_lines() as u32, 0);
            }
            TextEdit { range, new_text: new[new_offsets[n.start]..new_offsets[n.end]].to_owned() }
        })
        .collect()
}

/// Byte offset of the start of each line token, plus the end of the text.
fn line_offsets<'a>(lines: impl Iterator<Item = &'a str>) -> Vec<usize> {
    let mut offsets = vec![0];
    for line in lines {
        offsets.push(offsets.last().copied().unwrap_or(0) + line.len());
    }
    offsets
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Applies edits the way a client does, written independently of `LineIndex`: positions
    /// resolve against the original text, past-the-end positions clamp, edits apply back to front.
    pub(crate) fn apply_as_client(text: &str, edits: &[TextEdit], encoding: PositionEncoding) -> String {
        let mut starts = vec![0];
        let bytes = text.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            match bytes[i] {
                b'\r' if bytes.get(i + 1) == Some(&b'\n') => {
                    starts.push(i + 2);
                    i += 2;
                    continue;
                }
                b'\r' | b'\n' => starts.push(i + 1),
                _ => {}
            }
            i += 1;
        }
        let offset = |p: Position| -> usize {
            let line = p.line as usize;
            if line >= starts.len() {
                return text.len();
            }
            let start = starts[line];
            let end = starts.get(line + 1).copied().unwrap_or(text.len());
            let content = text[start..end].trim_end_matches(['\r', '\n']);
            let mut units = 0;
            for (at, c) in content.char_indices() {
                if units >= p.character as usize {
                    return start + at;
                }
                units += match encoding {
                    PositionEncoding::Utf8 => c.len_utf8(),
                    PositionEncoding::Utf16 => c.len_utf16(),
                };
            }
            start + content.len()
        };
        let mut resolved: Vec<(usize, usize, &str)> =
            edits.iter().map(|e| (offset(e.range.start), offset(e.range.end), e.new_text.as_str())).collect();
        resolved.sort_by_key(|(start, ..)| *start);
        for pair in resolved.windows(2) {
            assert!(pair[0].1 <= pair[1].0, "edits overlap: {edits:?}");
        }
        let mut out = text.to_owned();
        for (start, end, new_text) in resolved.into_iter().rev() {
            out.replace_range(start..end, new_text);
        }
        out
    }

    fn line_count(text: &str) -> usize {
        Rope::from_str(text).len_lines()
    }

    #[test]
    fn a_one_line_change_is_one_edit_of_that_line() {
        let edits = text_edits("a\nb\nc\n", "a\nB\nc\n", PositionEncoding::Utf16, false);
        assert_eq!(edits.len(), 1);
        assert_eq!(edits[0].range.start, Position::new(1, 0));
        assert_eq!(edits[0].range.end, Position::new(2, 0));
        assert_eq!(edits[0].new_text, "B\n");
    }

    #[test]
    fn adjacent_deletions_and_insertions_merge() {
        let edits = text_edits("a\nb\nc\nd\n", "a\nx\ny\nz\nd\n", PositionEncoding::Utf8, false);
        assert_eq!(edits.len(), 1, "{edits:?}");
    }

    #[test]
    fn appending_lines_rewrites_the_last_line_instead_of_starting_past_it() {
        let edits = text_edits("a\nb\n", "a\nb\nc\n", PositionEncoding::Utf16, false);
        assert_eq!(edits.len(), 1);
        assert_eq!(edits[0].range.start, Position::new(1, 0));
        assert_eq!(edits[0].new_text, "b\nc\n");
    }

    #[test]
    fn end_of_text_without_newline_goes_past_the_end_only_when_asked() {
        let exact = text_edits("", "x\n", PositionEncoding::Utf16, false);
        assert_eq!(exact[0].range.end, Position::new(0, 0));
        let past = text_edits("", "x\n", PositionEncoding::Utf16, true);
        assert_eq!(past[0].range.end, Position::new(1, 0));
        let past = text_edits("a\nb", "a\nc\n", PositionEncoding::Utf16, true);
        assert_eq!(past[0].range.end, Position::new(2, 0));
    }

    #[test]
    fn positions_use_the_negotiated_encoding_at_the_end_of_text() {
        // The edit ends at the end of a last line without newline: its column is in units.
        let utf16 = text_edits("😀x", "y", PositionEncoding::Utf16, false);
        assert_eq!(utf16[0].range.end, Position::new(0, 3));
        let utf8 = text_edits("😀x", "y", PositionEncoding::Utf8, false);
        assert_eq!(utf8[0].range.end, Position::new(0, 5));
    }

    fn file(path: &str, current: Option<&str>, target: Option<&str>, version: Option<i32>) -> FileEdit {
        FileEdit {
            path: WorkspacePath::parse(path).unwrap(),
            uri: Url::parse(&format!("file:///w/{path}")).unwrap(),
            version,
            current: current.map(str::to_owned),
            target: target.map(str::to_owned),
        }
    }

    fn full_options() -> EditOptions {
        EditOptions {
            encoding: PositionEncoding::Utf16,
            document_changes: true,
            create_files: true,
            delete_files: true,
            annotation: Some(ChangeAnnotation {
                label: "issuewright: fix".into(),
                needs_confirmation: Some(true),
                description: None,
            }),
            eof_past_end: false,
            breaks_only_at_newline: false,
        }
    }

    #[test]
    fn document_changes_order_versions_and_annotations() {
        let files = [
            file("new.rs", None, Some("fn new() {}\n"), None),
            file("open.rs", Some("a\n"), Some("b\n"), Some(7)),
            file("gone.rs", Some("x\n"), None, None),
        ];
        let built = build_workspace_edit(&files, &full_options());
        let json = built.to_wire();
        let ops = json["documentChanges"].as_array().unwrap();
        assert_eq!(ops[0]["kind"], "delete");
        assert_eq!(ops[0]["annotationId"], ANNOTATION_ID, "on the operation, as the spec has it");
        assert!(ops[0].get("options").is_none());
        assert_eq!(ops[1]["textDocument"]["version"], 7);
        assert_eq!(ops[1]["edits"][0]["annotationId"], ANNOTATION_ID);
        assert_eq!(ops[2]["kind"], "create");
        assert_eq!(ops[2]["options"]["ignoreIfExists"], true);
        assert!(ops[3]["textDocument"]["version"].is_null());
        assert_eq!(json["changeAnnotations"][ANNOTATION_ID]["needsConfirmation"], true);
        assert!(built.skipped.is_empty());
    }

    #[test]
    fn without_annotation_support_there_are_no_annotations() {
        let options = EditOptions { annotation: None, ..full_options() };
        let files = [file("a.rs", Some("a\n"), Some("b\n"), None), file("b.rs", Some("b\n"), None, None)];
        let built = build_workspace_edit(&files, &options);
        let json = built.to_wire().to_string();
        assert!(!json.contains("annotation"), "{json}");
    }

    #[test]
    fn a_client_without_document_changes_gets_changes_and_skips_files_it_cannot_take() {
        let options = EditOptions { encoding: PositionEncoding::Utf16, ..Default::default() };
        let files = [
            file("new.rs", None, Some("x\n"), None),
            file("open.rs", Some("a\n"), Some("b\n"), Some(3)),
            file("gone.rs", Some("x\n"), None, None),
        ];
        let built = build_workspace_edit(&files, &options);
        assert!(built.edit.document_changes.is_none());
        assert_eq!(built.edit.changes.as_ref().unwrap().len(), 1);
        assert_eq!(built.included, vec![WorkspacePath::parse("open.rs").unwrap()]);
        let skipped: Vec<&str> = built.skipped.iter().map(|s| s.path.as_str()).collect();
        assert_eq!(skipped, ["gone.rs", "new.rs"]);
        assert!(built.skipped[1].reason.contains("cannot create files"));
    }

    #[test]
    fn a_file_with_a_lone_carriage_return_is_left_out_for_an_editor_that_breaks_lines_at_newlines() {
        let files = [
            file("x.rs", Some("let a = \"x\ry\";\nlet b = 2;\n"), Some("let a = \"x\ry\";\nlet b = 3;\n"), Some(1)),
            file("crlf.rs", Some("a\r\nb\r\n"), Some("a\r\nc\r\n"), Some(1)),
        ];
        let neovim = EditOptions { breaks_only_at_newline: true, ..full_options() };
        let built = build_workspace_edit(&files, &neovim);
        assert_eq!(built.included.iter().map(|p| p.as_str()).collect::<Vec<_>>(), ["crlf.rs"]);
        assert_eq!(built.skipped.len(), 1);
        assert!(built.skipped[0].reason.contains("carriage return that stands alone"), "{:?}", built.skipped);
        let others = build_workspace_edit(&files, &full_options());
        assert_eq!(others.included.len(), 2, "the protocol's own line breaks elsewhere");
    }

    fn text_strategy() -> impl Strategy<Value = String> {
        proptest::collection::vec(
            prop_oneof![
                Just("a"),
                Just("b"),
                Just("é"),
                Just("😀"),
                Just("日"),
                Just("e\u{301}"),
                Just("\n"),
                Just("\r\n"),
                Just("\r"),
                Just(" "),
            ],
            0..30,
        )
        .prop_map(|parts| parts.concat())
    }

    /// Random edits of a text: replace some random char spans with random strings.
    fn edited(text: &str, splices: &[(usize, usize, String)]) -> String {
        let chars: Vec<char> = text.chars().collect();
        let mut out = String::new();
        let mut at = 0;
        for (start, len, insert) in splices {
            let start = (*start).clamp(at, chars.len());
            let end = (start + len).min(chars.len());
            out.extend(&chars[at..start]);
            out.push_str(insert);
            at = end;
        }
        out.extend(&chars[at..]);
        out
    }

    proptest! {
        #[test]
        fn applying_the_edits_to_the_base_yields_the_target(
            base in text_strategy(),
            splices in proptest::collection::vec((0usize..30, 0usize..6, text_strategy()), 0..4),
            utf8 in any::<bool>(),
            eof_past_end in any::<bool>(),
        ) {
            let mut splices = splices;
            splices.sort_by_key(|s| s.0);
            let target = edited(&base, &splices);
            let encoding = if utf8 { PositionEncoding::Utf8 } else { PositionEncoding::Utf16 };
            let edits = text_edits(&base, &target, encoding, eof_past_end);
            if !eof_past_end {
                for edit in &edits {
                    prop_assert!((edit.range.end.line as usize) < line_count(&base), "{edit:?} beyond {base:?}");
                }
            }
            prop_assert_eq!(apply_as_client(&base, &edits, encoding), target);
        }

        /// The edits as they go over the wire (annotated, versioned) apply to the target too.
        #[test]
        fn wire_edits_apply_to_the_target(
            base in text_strategy(),
            target in text_strategy(),
            utf8 in any::<bool>(),
        ) {
            let encoding = if utf8 { PositionEncoding::Utf8 } else { PositionEncoding::Utf16 };
            let options = EditOptions { encoding, ..full_options() };
            let built = build_workspace_edit(&[file("f.txt", Some(&base), Some(&target), Some(1))], &options);
            let wire = built.to_wire();
            let operations = wire["documentChanges"].as_array().unwrap();
            let edits: Vec<TextEdit> = operations
                .iter()
                .flat_map(|op| op["edits"].as_array().unwrap().clone())
                .map(|edit| {
                    prop_assert_eq!(&edit["annotationId"], ANNOTATION_ID);
                    Ok(serde_json::from_value(edit).unwrap())
                })
                .collect::<Result<_, TestCaseError>>()?;
            prop_assert_eq!(operations.len(), usize::from(base != target));
            prop_assert_eq!(apply_as_client(&base, &edits, encoding), target);
        }
    }
}
