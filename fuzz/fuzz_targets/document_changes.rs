//! `textDocument/didChange` content changes (JSON from the editor) applied to an open
//! document, in either position encoding.
#![no_main]

use issuewright::workspace::{Document, PositionEncoding};
use libfuzzer_sys::fuzz_target;
use tower_lsp::lsp_types::TextDocumentContentChangeEvent;

fuzz_target!(|data: &[u8]| {
    let Some((&choice, json)) = data.split_first() else { return };
    let Ok(changes) = serde_json::from_slice::<Vec<TextDocumentContentChangeEvent>>(json) else { return };
    let encoding = if choice & 1 == 0 { PositionEncoding::Utf8 } else { PositionEncoding::Utf16 };
    let mut document = Document::new("fn main() {\r\n    let é = \"😀\";\n}\r", 1, "rust");
    let _ = document.apply_changes(2, &changes, encoding);
});
