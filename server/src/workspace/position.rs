//! Conversions between LSP positions, char offsets and byte offsets.
//!
//! Every such conversion in issuewright goes through this module. LSP counts a position's
//! `character` in UTF-16 code units unless the client negotiated `utf-8` at `initialize`;
//! lines end at `\n`, `\r\n` or `\r` (ropey is built with `cr_lines` and without
//! `unicode_lines`, so it agrees). Positions past the end of a line clamp to the line's end
//! and lines past the end of the text clamp to the end of the text, as the specification
//! asks and as editors do. A column inside a multi-unit character rounds down to its start.

use ropey::Rope;
use tower_lsp::lsp_types::{Position, PositionEncodingKind, Range};

/// The unit an LSP `Position.character` counts, agreed with the client at `initialize`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum PositionEncoding {
    /// Bytes of the UTF-8 encoding.
    Utf8,
    /// Code units of the UTF-16 encoding; the protocol's default.
    #[default]
    Utf16,
}

impl PositionEncoding {
    /// Picks UTF-8 when the client offers it (no conversion cost), else the mandatory UTF-16.
    pub fn negotiate(offered: Option<&[PositionEncodingKind]>) -> Self {
        let offers_utf8 = offered.unwrap_or_default().contains(&PositionEncodingKind::UTF8);
        if offers_utf8 { Self::Utf8 } else { Self::Utf16 }
    }

    /// The wire name announced in `ServerCapabilities.positionEncoding`.
    pub fn kind(self) -> PositionEncodingKind {
        match self {
            Self::Utf8 => PositionEncodingKind::UTF8,
            Self::Utf16 => PositionEncodingKind::UTF16,
        }
    }
}

/// Position arithmetic over one text held in a rope, in one encoding.
#[derive(Clone, Copy)]
pub struct LineIndex<'a> {
    rope: &'a Rope,
    encoding: PositionEncoding,
}

impl<'a> LineIndex<'a> {
    /// Reads positions of `rope` in `encoding`.
    pub fn new(rope: &'a Rope, encoding: PositionEncoding) -> Self {
        Self { rope, encoding }
    }

    /// The char offset a position designates, clamped into the text.
    pub fn char_of(&self, position: Position) -> usize {
        let line = position.line as usize;
        if line >= self.rope.len_lines() {
            return self.rope.len_chars();
        }
        let start = self.rope.line_to_char(line);
        let end = self.content_end(line);
        let column = position.character as usize;
        match self.encoding {
            PositionEncoding::Utf16 => {
                let start_unit = self.rope.char_to_utf16_cu(start);
                let end_unit = self.rope.char_to_utf16_cu(end);
                self.rope.utf16_cu_to_char((start_unit + column).min(end_unit))
            }
            PositionEncoding::Utf8 => {
                let start_byte = self.rope.char_to_byte(start);
                let end_byte = self.rope.char_to_byte(end);
                self.rope.byte_to_char((start_byte + column).min(end_byte))
            }
        }
    }

    /// The byte offset a position designates, clamped into the text.
    pub fn byte_of(&self, position: Position) -> usize {
        self.rope.char_to_byte(self.char_of(position))
    }

    /// The position of a char offset (clamped to the end of the text).
    pub fn position_of_char(&self, char_index: usize) -> Position {
        let char_index = char_index.min(self.rope.len_chars());
        let line = self.rope.char_to_line(char_index);
        let start = self.rope.line_to_char(line);
        let column = match self.encoding {
            PositionEncoding::Utf16 => self.rope.char_to_utf16_cu(char_index) - self.rope.char_to_utf16_cu(start),
            PositionEncoding::Utf8 => self.rope.char_to_byte(char_index) - self.rope.char_to_byte(start),
        };
        Position::new(to_u32(line), to_u32(column))
    }

    /// The position of a byte offset; an offset inside a character rounds down to its start.
    pub fn position_of_byte(&self, byte_index: usize) -> Position {
        let byte_index = byte_index.min(self.rope.len_bytes());
        self.position_of_char(self.rope.byte_to_char(byte_index))
    }

    /// The range covering a byte range.
    pub fn range_of_bytes(&self, bytes: std::ops::Range<usize>) -> Range {
        Range::new(self.position_of_byte(bytes.start), self.position_of_byte(bytes.end))
    }

    /// The position just after the last character.
    pub fn end(&self) -> Position {
        self.position_of_char(self.rope.len_chars())
    }

    /// The char offset where `line`'s content ends, before its line terminator.
    fn content_end(&self, line: usize) -> usize {
        let start = self.rope.line_to_char(line);
        let mut end =
            if line + 1 < self.rope.len_lines() { self.rope.line_to_char(line + 1) } else { self.rope.len_chars() };
        if end > start && self.rope.char(end - 1) == '\n' {
            end -= 1;
        }
        if end > start && self.rope.char(end - 1) == '\r' {
            end -= 1;
        }
        end
    }
}

/// Lengths of LSP positions are u32 on the wire; texts beyond 4 GiB are refused earlier.
fn to_u32(value: usize) -> u32 {
    u32::try_from(value).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(line: u32, character: u32) -> Position {
        Position::new(line, character)
    }

    fn round_trip_all_chars(text: &str, encoding: PositionEncoding) {
        let rope = Rope::from_str(text);
        let index = LineIndex::new(&rope, encoding);
        for char_index in 0..=rope.len_chars() {
            let position = index.position_of_char(char_index);
            // A position between `\r` and `\n` is not a place a client can name.
            let inside_crlf = char_index > 0
                && char_index < rope.len_chars()
                && rope.char(char_index - 1) == '\r'
                && rope.char(char_index) == '\n';
            if !inside_crlf {
                assert_eq!(index.char_of(position), char_index, "{text:?} at {char_index}");
            }
        }
    }

    #[test]
    fn negotiation_prefers_utf8_and_falls_back_to_utf16() {
        let both = [PositionEncodingKind::UTF16, PositionEncodingKind::UTF8];
        assert_eq!(PositionEncoding::negotiate(Some(&both)), PositionEncoding::Utf8);
        let utf32_only = [PositionEncodingKind::UTF32];
        assert_eq!(PositionEncoding::negotiate(Some(&utf32_only)), PositionEncoding::Utf16);
        assert_eq!(PositionEncoding::negotiate(None), PositionEncoding::Utf16);
    }

    #[test]
    fn emoji_counts_two_utf16_units_and_four_bytes() {
        let rope = Rope::from_str("a😀b\n");
        let utf16 = LineIndex::new(&rope, PositionEncoding::Utf16);
        let utf8 = LineIndex::new(&rope, PositionEncoding::Utf8);
        // 'b' is char 2.
        assert_eq!(utf16.position_of_char(2), pos(0, 3));
        assert_eq!(utf8.position_of_char(2), pos(0, 5));
        assert_eq!(utf16.char_of(pos(0, 3)), 2);
        assert_eq!(utf8.char_of(pos(0, 5)), 2);
        // Inside the surrogate pair or inside the UTF-8 sequence rounds down to the emoji.
        assert_eq!(utf16.char_of(pos(0, 2)), 1);
        assert_eq!(utf8.char_of(pos(0, 3)), 1);
    }

    #[test]
    fn cjk_counts_one_utf16_unit_and_three_bytes() {
        let rope = Rope::from_str("日本語x");
        let utf16 = LineIndex::new(&rope, PositionEncoding::Utf16);
        let utf8 = LineIndex::new(&rope, PositionEncoding::Utf8);
        assert_eq!(utf16.position_of_char(3), pos(0, 3));
        assert_eq!(utf8.position_of_char(3), pos(0, 9));
        assert_eq!(utf8.byte_of(pos(0, 9)), 9);
    }

    #[test]
    fn combining_marks_are_separate_code_points() {
        // "é" as 'e' + U+0301 COMBINING ACUTE ACCENT: two chars, 2 UTF-16 units, 3 bytes.
        let rope = Rope::from_str("e\u{301}z");
        let utf16 = LineIndex::new(&rope, PositionEncoding::Utf16);
        let utf8 = LineIndex::new(&rope, PositionEncoding::Utf8);
        assert_eq!(utf16.position_of_char(2), pos(0, 2));
        assert_eq!(utf8.position_of_char(2), pos(0, 3));
        assert_eq!(utf8.char_of(pos(0, 1)), 1, "the mark itself is addressable");
    }

    #[test]
    fn crlf_lines_end_before_the_terminator() {
        let rope = Rope::from_str("ab\r\ncd\r\n");
        let index = LineIndex::new(&rope, PositionEncoding::Utf16);
        assert_eq!(rope.len_lines(), 3);
        assert_eq!(index.char_of(pos(0, 2)), 2);
        // Past the end of line 0 clamps before "\r\n", not into it.
        assert_eq!(index.char_of(pos(0, 99)), 2);
        assert_eq!(index.char_of(pos(1, 0)), 4);
        assert_eq!(index.end(), pos(2, 0));
    }

    #[test]
    fn lone_carriage_return_is_a_line_break() {
        let rope = Rope::from_str("a\rb");
        let index = LineIndex::new(&rope, PositionEncoding::Utf8);
        assert_eq!(index.position_of_char(2), pos(1, 0));
    }

    #[test]
    fn positions_past_the_text_clamp_to_its_end() {
        let rope = Rope::from_str("x\ny");
        let index = LineIndex::new(&rope, PositionEncoding::Utf16);
        assert_eq!(index.char_of(pos(7, 3)), 3);
        assert_eq!(index.end(), pos(1, 1));
    }

    #[test]
    fn byte_offsets_round_trip_through_positions() {
        let text = "fn main() {\r\n    println!(\"héllo 😀 世界\");\r\n}\n";
        for encoding in [PositionEncoding::Utf8, PositionEncoding::Utf16] {
            let rope = Rope::from_str(text);
            let index = LineIndex::new(&rope, encoding);
            for (byte, _) in text.char_indices() {
                let position = index.position_of_byte(byte);
                let inside_crlf = text[..byte].ends_with('\r') && text[byte..].starts_with('\n');
                if !inside_crlf {
                    assert_eq!(index.byte_of(position), byte);
                }
            }
        }
    }

    #[test]
    fn every_char_round_trips_in_both_encodings() {
        for text in ["", "\n", "a😀\r\n日本\re\u{301}\n\n", "🎉🎉\r\n\r\n"] {
            round_trip_all_chars(text, PositionEncoding::Utf8);
            round_trip_all_chars(text, PositionEncoding::Utf16);
        }
    }
}
