//! The editor's open documents, kept in ropes and updated by incremental sync.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use ropey::Rope;
use tower_lsp::lsp_types::TextDocumentContentChangeEvent;

use super::position::{LineIndex, PositionEncoding};

/// One change to a text in bytes and (row, byte column) points: what incremental parsers
/// need to reuse their previous tree.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ByteEdit {
    /// Where the change starts.
    pub start_byte: usize,
    /// Where the replaced text ended.
    pub old_end_byte: usize,
    /// Where the new text ends.
    pub new_end_byte: usize,
    /// `start_byte` as (row, byte column).
    pub start_point: (usize, usize),
    /// `old_end_byte` as (row, byte column).
    pub old_end_point: (usize, usize),
    /// `new_end_byte` as (row, byte column).
    pub new_end_point: (usize, usize),
}

/// One document the editor has open: its text as the editor holds it, unsaved changes included.
#[derive(Clone, Debug)]
pub struct Document {
    version: i32,
    language_id: String,
    text: Rope,
    /// The version at which the text was last the file's on disk (opened as it was, saved,
    /// or reloaded by the editor after the file changed there).
    as_on_disk: Option<i32>,
}

impl Document {
    /// A document as announced by `textDocument/didOpen`.
    pub fn new(text: &str, version: i32, language_id: &str) -> Self {
        Self { version, language_id: language_id.to_owned(), text: Rope::from_str(text), as_on_disk: None }
    }

    /// Notes that the text, as it is now, is the file's on disk (the editor saved it, or
    /// opened it as it was there).
    fn mark_as_on_disk(&mut self) {
        self.as_on_disk = Some(self.version);
    }

    /// Whether the text is still the one last saved to (or opened from) the disk: the
    /// editor's view of the file, not work of the user's own. A file deleted on disk (a
    /// branch switched) whose document is so stands for nothing: the user never typed it.
    pub fn unchanged_since_on_disk(&self) -> bool {
        self.as_on_disk == Some(self.version)
    }

    /// The version the editor gave with the last change.
    pub fn version(&self) -> i32 {
        self.version
    }

    /// The language identifier from `didOpen` (`rust`, `java`, ...).
    pub fn language_id(&self) -> &str {
        &self.language_id
    }

    /// The whole text.
    pub fn text(&self) -> String {
        self.text.to_string()
    }

    /// The text as a rope, for position arithmetic.
    pub fn rope(&self) -> &Rope {
        &self.text
    }

    /// Applies the content changes of one `textDocument/didChange`, in order, and returns
    /// them as byte edits; `None` when a change replaced the whole text.
    ///
    /// A change without a range replaces the whole text; a ranged change replaces that range,
    /// its positions read in `encoding` against the text as left by the previous change.
    pub fn apply_changes(
        &mut self,
        version: i32,
        changes: &[TextDocumentContentChangeEvent],
        encoding: PositionEncoding,
    ) -> Option<Vec<ByteEdit>> {
        let mut edits = Some(Vec::with_capacity(changes.len()));
        for change in changes {
            match change.range {
                None => {
                    self.text = Rope::from_str(&change.text);
                    edits = None;
                }
                Some(range) => {
                    let index = LineIndex::new(&self.text, encoding);
                    let start = index.char_of(range.start);
                    let end = index.char_of(range.end).max(start);
                    let (start_byte, old_end_byte) = (self.text.char_to_byte(start), self.text.char_to_byte(end));
                    // One scan up to the change; the ends follow from the text removed and inserted.
                    let start_point = point(&self.text, start);
                    let old_end_point = self.text.slice(start..end).chunks().fold(start_point, advance);
                    self.text.remove(start..end);
                    self.text.insert(start, &change.text);
                    if let Some(edits) = edits.as_mut() {
                        edits.push(ByteEdit {
                            start_byte,
                            old_end_byte,
                            new_end_byte: start_byte + change.text.len(),
                            start_point,
                            old_end_point,
                            new_end_point: advance(start_point, &change.text),
                        });
                    }
                }
            }
        }
        self.version = version;
        edits
    }
}

/// A char offset as tree-sitter's (row, byte column): rows count `\n` only, where LSP
/// lines (and the rope) also break at a lone `\r`.
fn point(text: &Rope, char_index: usize) -> (usize, usize) {
    let byte = text.char_to_byte(char_index);
    let (mut row, mut line_start, mut offset) = (0, 0, 0);
    for chunk in text.byte_slice(..byte).chunks() {
        for (at, _) in chunk.bytes().enumerate().filter(|(_, b)| *b == b'\n') {
            row += 1;
            line_start = offset + at + 1;
        }
        offset += chunk.len();
    }
    (row, byte - line_start)
}

/// `from` moved past `text`, rows counting `\n` only.
fn advance((row, column): (usize, usize), text: &str) -> (usize, usize) {
    match text.rfind('\n') {
        Some(last) => (row + text.bytes().filter(|b| *b == b'\n').count(), text.len() - last - 1),
        None => (row, column + text.len()),
    }
}

/// The set of open documents, keyed by absolute file path.
///
/// Paths rather than URIs are the key because clients percent-encode URIs differently; the
/// path decoded from a `file:` URI is the same whoever encoded it.
#[derive(Debug, Default)]
pub struct Documents {
    by_path: HashMap<PathBuf, Document>,
}

impl Documents {
    /// Records an opened document, replacing any previous state for the path.
    pub fn open(&mut self, path: PathBuf, document: Document) {
        self.by_path.insert(path, document);
    }

    /// Applies a `didChange`; `None` when the document is not open, else the byte edits
    /// (`None` inside when the whole text was replaced).
    pub fn change(
        &mut self,
        path: &Path,
        version: i32,
        changes: &[TextDocumentContentChangeEvent],
        encoding: PositionEncoding,
    ) -> Option<Option<Vec<ByteEdit>>> {
        self.by_path.get_mut(path).map(|document| document.apply_changes(version, changes, encoding))
    }

    /// Notes that the document at `path` is, as it is now, the file on disk, where `on_disk`
    /// (the file's text on disk now) is its text: at an open, or a save (one to another name,
    /// Neovim's `:w other.rs`, leaves it as it was).
    pub fn mark_if_on_disk(&mut self, path: &Path, on_disk: Option<&str>) {
        if let Some(document) = self.by_path.get_mut(path)
            && on_disk.is_some_and(|disk| document.text == disk)
        {
            document.mark_as_on_disk();
        }
    }

    /// Forgets a closed document; the disk is its truth again.
    pub fn close(&mut self, path: &Path) -> Option<Document> {
        self.by_path.remove(path)
    }

    /// The open document at `path`, if any.
    pub fn get(&self, path: &Path) -> Option<&Document> {
        self.by_path.get(path)
    }

    /// Every open document with its path.
    pub fn iter(&self) -> impl Iterator<Item = (&Path, &Document)> {
        self.by_path.iter().map(|(path, document)| (path.as_path(), document))
    }

    /// Number of open documents.
    pub fn len(&self) -> usize {
        self.by_path.len()
    }

    /// True when no document is open.
    pub fn is_empty(&self) -> bool {
        self.by_path.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tower_lsp::lsp_types::{Position, Range};

    fn change(range: ((u32, u32), (u32, u32)), text: &str) -> TextDocumentContentChangeEvent {
        TextDocumentContentChangeEvent {
            range: Some(Range::new(Position::new(range.0.0, range.0.1), Position::new(range.1.0, range.1.1))),
            range_length: None,
            text: text.to_owned(),
        }
    }

    #[test]
    fn incremental_changes_apply_in_order_in_utf16() {
        let mut document = Document::new("let s = \"😀\";\nend\n", 1, "rust");
        // Replace the emoji (2 UTF-16 units at column 9) with "ok", then append a line.
        document.apply_changes(
            2,
            &[change(((0, 9), (0, 11)), "ok"), change(((2, 0), (2, 0)), "more\n")],
            PositionEncoding::Utf16,
        );
        assert_eq!(document.text(), "let s = \"ok\";\nend\nmore\n");
        assert_eq!(document.version(), 2);
    }

    #[test]
    fn incremental_changes_apply_in_utf8() {
        let mut document = Document::new("日本語\r\nx\r\n", 1, "markdown");
        // "本" is bytes 3..6 of line 0.
        document.apply_changes(3, &[change(((0, 3), (0, 6)), "-")], PositionEncoding::Utf8);
        assert_eq!(document.text(), "日-語\r\nx\r\n");
    }

    /// (row, byte column) of `byte` in `text`, rows counting `\n` only.
    fn reference_point(text: &str, byte: usize) -> (usize, usize) {
        let before = &text[..byte];
        (before.matches('\n').count(), byte - before.rfind('\n').map_or(0, |at| at + 1))
    }

    proptest::proptest! {
        /// Whatever a client sends, each byte edit says exactly what changed: the texts agree
        /// outside it, and its points are the rows and byte columns of its bytes.
        #[test]
        fn byte_edits_describe_any_change_exactly(
            start in "(fn x\\(\\) \\{\\}|é|😀|\r\n|\r|\n| |a){0,40}",
            utf8 in proptest::bool::ANY,
            changes in proptest::collection::vec(
                crate::testing::typed_change(vec!["x", "é", "😀", "\n", "\r\n", "\r", "{", " "]),
                1..6,
            ),
        ) {
            let encoding = if utf8 { PositionEncoding::Utf8 } else { PositionEncoding::Utf16 };
            let mut one_by_one = Document::new(&start, 1, "rust");
            let mut edits = Vec::new();
            for change in &changes {
                let old = one_by_one.text();
                let edit = one_by_one.apply_changes(2, std::slice::from_ref(change), encoding).unwrap()[0];
                let new = one_by_one.text();
                proptest::prop_assert_eq!(&old[..edit.start_byte], &new[..edit.start_byte]);
                proptest::prop_assert_eq!(&old[edit.old_end_byte..], &new[edit.new_end_byte..]);
                proptest::prop_assert_eq!(&new[edit.start_byte..edit.new_end_byte], change.text.as_str());
                proptest::prop_assert_eq!(edit.start_point, reference_point(&old, edit.start_byte));
                proptest::prop_assert_eq!(edit.old_end_point, reference_point(&old, edit.old_end_byte));
                proptest::prop_assert_eq!(edit.new_end_point, reference_point(&new, edit.new_end_byte));
                edits.push(edit);
            }
            let mut at_once = Document::new(&start, 1, "rust");
            proptest::prop_assert_eq!(at_once.apply_changes(2, &changes, encoding), Some(edits), "one didChange, many changes");
            proptest::prop_assert_eq!(at_once.text(), one_by_one.text());
        }
    }

    #[test]
    fn byte_edits_describe_each_change_in_bytes_and_points() {
        let mut document = Document::new("héllo\nwörld\n", 1, "rust");
        // Replace "wö" (line 1, UTF-16 columns 0..2) by "Wo\nW".
        let edits = document.apply_changes(2, &[change(((1, 0), (1, 2)), "Wo\nW")], PositionEncoding::Utf16).unwrap();
        assert_eq!(document.text(), "héllo\nWo\nWrld\n");
        assert_eq!(
            edits,
            [ByteEdit {
                start_byte: 7,
                old_end_byte: 10,
                new_end_byte: 11,
                start_point: (1, 0),
                old_end_point: (1, 3),
                new_end_point: (2, 1),
            }]
        );
        let full = TextDocumentContentChangeEvent { range: None, range_length: None, text: "x".into() };
        assert_eq!(document.apply_changes(3, &[full], PositionEncoding::Utf16), None);
    }

    #[test]
    fn points_count_rows_as_tree_sitter_does_past_a_lone_carriage_return() {
        // LSP line 2 is "c" (a lone CR breaks a line); tree-sitter's row 1 (only LF does).
        let mut document = Document::new("a\rb\nc\n", 1, "rust");
        let edits = document.apply_changes(2, &[change(((2, 0), (2, 1)), "C")], PositionEncoding::Utf16).unwrap();
        assert_eq!(document.text(), "a\rb\nC\n");
        assert_eq!((edits[0].start_byte, edits[0].start_point, edits[0].new_end_point), (4, (1, 0), (1, 1)));
    }

    #[test]
    fn a_change_without_range_replaces_everything() {
        let mut document = Document::new("old", 1, "plaintext");
        let full = TextDocumentContentChangeEvent { range: None, range_length: None, text: "new text".into() };
        document.apply_changes(2, &[full], PositionEncoding::Utf16);
        assert_eq!(document.text(), "new text");
    }

    #[test]
    fn documents_are_found_by_path_until_closed() {
        let mut documents = Documents::default();
        let path = PathBuf::from("/w/a.rs");
        documents.open(path.clone(), Document::new("a", 1, "rust"));
        assert!(documents.change(&path, 2, &[change(((0, 1), (0, 1)), "b")], PositionEncoding::Utf8).is_some());
        assert_eq!(documents.get(&path).map(Document::text).as_deref(), Some("ab"));
        assert!(documents.close(&path).is_some());
        assert!(documents.change(&path, 3, &[], PositionEncoding::Utf8).is_none());
    }
}
