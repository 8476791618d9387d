//! Position arithmetic of the scripted editor, written independently of the server's.

use serde_json::Value;

/// The unit of `Position.character`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Encoding {
    /// UTF-8 bytes.
    Utf8,
    /// UTF-16 code units.
    Utf16,
}

/// Byte offsets where each line starts (`\n`, `\r\n` and `\r` end lines).
fn line_starts(text: &str) -> Vec<usize> {
    let bytes = text.as_bytes();
    let mut starts = vec![0];
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'\r' && bytes.get(i + 1) == Some(&b'\n') {
            starts.push(i + 2);
            i += 2;
            continue;
        }
        if bytes[i] == b'\n' || bytes[i] == b'\r' {
            starts.push(i + 1);
        }
        i += 1;
    }
    starts
}

/// The byte offset of an LSP position (clamped like editors clamp).
pub fn offset(text: &str, line: u64, character: u64, encoding: Encoding) -> usize {
    let starts = line_starts(text);
    let Some(&start) = starts.get(line as usize) else { return text.len() };
    let end = starts.get(line as usize + 1).copied().unwrap_or(text.len());
    let content = text[start..end].trim_end_matches(['\r', '\n']);
    let mut units = 0u64;
    for (at, c) in content.char_indices() {
        if units >= character {
            return start + at;
        }
        units += match encoding {
            Encoding::Utf8 => c.len_utf8() as u64,
            Encoding::Utf16 => c.len_utf16() as u64,
        };
    }
    start + content.len()
}

/// The LSP position of a byte offset.
pub fn position(text: &str, byte: usize, encoding: Encoding) -> (u64, u64) {
    let starts = line_starts(text);
    let line = starts.partition_point(|start| *start <= byte) - 1;
    let prefix = &text[starts[line]..byte];
    let character = match encoding {
        Encoding::Utf8 => prefix.len(),
        Encoding::Utf16 => prefix.encode_utf16().count(),
    };
    (line as u64, character as u64)
}

/// Applies LSP `TextEdit`s (JSON) to `text`: ranges refer to the original text.
pub fn apply_edits(text: &str, edits: &[Value], encoding: Encoding) -> String {
    let at = |p: &Value| offset(text, p["line"].as_u64().unwrap(), p["character"].as_u64().unwrap(), encoding);
    let mut resolved: Vec<(usize, usize, String)> = edits
        .iter()
        .map(|e| (at(&e["range"]["start"]), at(&e["range"]["end"]), e["newText"].as_str().unwrap().to_owned()))
        .collect();
    resolved.sort_by_key(|(start, ..)| *start);
    for pair in resolved.windows(2) {
        assert!(pair[0].1 <= pair[1].0, "overlapping edits: {edits:?}");
    }
    let mut out = text.to_owned();
    for (start, end, new_text) in resolved.into_iter().rev() {
        out.replace_range(start..end, &new_text);
    }
    out
}
