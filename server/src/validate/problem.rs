//! A problem a build or test run reported, in the tool's own coordinates, and its conversion
//! to an LSP diagnostic in the negotiated position encoding.

use std::cell::RefCell;
use std::collections::HashMap;

use ropey::Rope;
use serde_json::json;
use tower_lsp::lsp_types::{
    Diagnostic, DiagnosticRelatedInformation, DiagnosticSeverity, Location, NumberOrString, Position, Range, Url,
};

use crate::workspace::{LineIndex, PositionEncoding, WorkspacePath};

/// How serious a problem is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// Breaks the build or a test.
    Error,
    /// Worth fixing.
    Warning,
    /// For information.
    Info,
    /// A hint.
    Hint,
}

impl Severity {
    /// The lower-case name, as JSON reports spell it (`error`, `warning`, `info`, `hint`).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Error => "error",
            Self::Warning => "warning",
            Self::Info => "info",
            Self::Hint => "hint",
        }
    }
}

/// What a tool counts in a column.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum ColumnUnit {
    /// Unicode scalar values (rustc).
    Chars,
    /// UTF-16 code units (tsc, javac).
    Utf16,
    /// UTF-16 columns with tabs expanded to stops of 8 (javac's own count, as Maven's
    /// compiler plugin prints it).
    TabStops8,
}

/// A place in a file: 0-based line and column, in the tool's unit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Spot {
    /// 0-based line.
    pub line: u32,
    /// 0-based column.
    pub column: u32,
}

impl Spot {
    /// The spot at 1-based `line` and `column`, as tools print them.
    pub fn one_based(line: u32, column: u32) -> Self {
        Self { line: line.saturating_sub(1), column: column.saturating_sub(1) }
    }
}

/// A range in a file.
#[derive(Debug, Clone, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Place {
    /// The file, relative to the workspace (after mapping shadow paths back).
    pub path: WorkspacePath,
    /// Start.
    pub start: Spot,
    /// End (the same as start when the tool gives a point).
    pub end: Spot,
}

/// A note pointing elsewhere (a secondary span, a child note).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Related {
    /// Where.
    pub place: Place,
    /// What it says.
    pub message: String,
}

/// A fix the tool suggests: replace a range by text.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Replacement {
    /// The range to replace.
    pub place: Place,
    /// The new text.
    pub text: String,
}

/// One problem.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Problem {
    /// Where, when it is in a workspace file.
    pub place: Option<Place>,
    /// A file outside the workspace it names (a dependency), when that is where it is.
    pub elsewhere: Option<String>,
    /// The unit of the columns.
    pub unit: ColumnUnit,
    /// How serious.
    pub severity: Severity,
    /// The tool's code (`E0308`, `TS2322`).
    pub code: Option<String>,
    /// `cargo`, `tsc`, `javac`, `maven`, `gradle`, `test`, or a configured matcher's name.
    pub source: String,
    /// The message, with the tool's notes.
    pub message: String,
    /// Secondary places.
    pub related: Vec<Related>,
    /// Suggested fixes.
    pub replacements: Vec<Replacement>,
}

/// A problem's file, tool, code and message without numbers: see [`Problem::identity`].
pub type ProblemIdentity<'a> = (Option<&'a str>, &'a str, Option<&'a str>, String);

impl Problem {
    /// What identifies the problem across edits that move lines: its file, tool, code, and
    /// the first line of its message with numbers left out (they often quote positions).
    pub fn identity(&self) -> ProblemIdentity<'_> {
        let first = self.message.lines().next().unwrap_or_default();
        (
            self.place.as_ref().map(|place| place.path.as_str()),
            self.source.as_str(),
            self.code.as_deref(),
            first.chars().filter(|c| !c.is_ascii_digit()).collect(),
        )
    }

    /// A problem with no place in the workspace (a linker error, a missing tool, a test
    /// without a location).
    pub fn unplaced(severity: Severity, source: &str, message: String) -> Self {
        Self {
            place: None,
            elsewhere: None,
            unit: ColumnUnit::Chars,
            severity,
            code: None,
            source: source.to_owned(),
            message,
            related: Vec::new(),
            replacements: Vec::new(),
        }
    }

    /// A problem at a place.
    pub fn at(place: Place, unit: ColumnUnit, severity: Severity, source: &str, message: String) -> Self {
        Self { place: Some(place), unit, ..Self::unplaced(severity, source, message) }
    }

    /// The LSP range of a place in `text`, in `encoding`.
    pub fn range_in(place: &Place, unit: ColumnUnit, text: &Rope, encoding: PositionEncoding) -> Range {
        let index = LineIndex::new(text, encoding);
        let position = |spot: Spot| index.position_of_char(char_of(text, spot, unit));
        Range::new(position(place.start), position(place.end))
    }

    /// The diagnostic for the editor; `text_of` gives a workspace file's current text (a rope:
    /// cloning it is cheap), `uri_of` its URI.
    pub fn to_diagnostic(
        &self,
        text_of: &dyn Fn(&WorkspacePath) -> Option<Rope>,
        uri_of: &dyn Fn(&WorkspacePath) -> Url,
        encoding: PositionEncoding,
    ) -> Option<Diagnostic> {
        let place = self.place.as_ref()?;
        let text = text_of(&place.path).unwrap_or_default();
        let related: Vec<DiagnosticRelatedInformation> = self
            .related
            .iter()
            .map(|related| {
                let text = text_of(&related.place.path).unwrap_or_default();
                DiagnosticRelatedInformation {
                    location: Location::new(
                        uri_of(&related.place.path),
                        Self::range_in(&related.place, self.unit, &text, encoding),
                    ),
                    message: related.message.clone(),
                }
            })
            .collect();
        Some(Diagnostic {
            range: Self::range_in(place, self.unit, &text, encoding),
            severity: Some(match self.severity {
                Severity::Error => DiagnosticSeverity::ERROR,
                Severity::Warning => DiagnosticSeverity::WARNING,
                Severity::Info => DiagnosticSeverity::INFORMATION,
                Severity::Hint => DiagnosticSeverity::HINT,
            }),
            code: self.code.clone().map(NumberOrString::String),
            source: Some(self.source.clone()),
            message: self.message.clone(),
            related_information: (!related.is_empty()).then_some(related),
            data: (!self.replacements.is_empty()).then(|| json!({"replacements": self.replacements})),
            ..Diagnostic::default()
        })
    }
}

/// Workspace texts for placing problems, each file read at most once: a build can report
/// hundreds of problems in one file, and they share its rope.
pub struct TextsOnce<'a> {
    read: &'a dyn Fn(&WorkspacePath) -> Option<String>,
    ropes: RefCell<HashMap<WorkspacePath, Option<Rope>>>,
}

impl<'a> TextsOnce<'a> {
    /// Texts `read` gives (`None`: no such file).
    pub fn new(read: &'a dyn Fn(&WorkspacePath) -> Option<String>) -> Self {
        Self { read, ropes: RefCell::default() }
    }

    /// The text of `path` (cloning a rope is cheap).
    pub fn get(&self, path: &WorkspacePath) -> Option<Rope> {
        self.ropes
            .borrow_mut()
            .entry(path.clone())
            .or_insert_with(|| (self.read)(path).map(|t| Rope::from_str(&t)))
            .clone()
    }
}

/// The char offset of a spot, clamped into its line.
fn char_of(rope: &Rope, spot: Spot, unit: ColumnUnit) -> usize {
    let line = spot.line as usize;
    if line >= rope.len_lines() {
        return rope.len_chars();
    }
    let start = rope.line_to_char(line);
    start + chars_before(rope.line(line).chars(), spot.column, unit)
}

/// How many characters of a line come before `column`, a column in `unit`, clamped to the
/// line's end: where a tool's column stands in the text.
pub fn chars_before(line: impl IntoIterator<Item = char>, column: u32, unit: ColumnUnit) -> usize {
    let target = column as usize;
    let mut counted = 0;
    let mut offset = 0;
    for c in line.into_iter().take_while(|c| *c != '\n' && *c != '\r') {
        if counted >= target {
            return offset;
        }
        counted = match unit {
            ColumnUnit::Chars => counted + 1,
            ColumnUnit::Utf16 => counted + c.len_utf16(),
            ColumnUnit::TabStops8 if c == '\t' => (counted / 8 + 1) * 8,
            ColumnUnit::TabStops8 => counted + c.len_utf16(),
        };
        offset += 1;
    }
    offset
}

/// Position helper for tests and parsers: an LSP position from 0-based line and character.
pub fn position(line: u32, character: u32) -> Position {
    Position::new(line, character)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_file_is_read_once_however_many_problems_it_has() {
        let reads = std::cell::Cell::new(0);
        let read = |path: &WorkspacePath| {
            reads.set(reads.get() + 1);
            (path.as_str() == "a.rs").then(|| "fn a() {}\n".to_owned())
        };
        let texts = TextsOnce::new(&read);
        let a = WorkspacePath::parse("a.rs").unwrap();
        let gone = WorkspacePath::parse("gone.rs").unwrap();
        for _ in 0..3 {
            assert_eq!(texts.get(&a).map(|rope| rope.to_string()).as_deref(), Some("fn a() {}\n"));
            assert_eq!(texts.get(&gone), None);
        }
        assert_eq!(reads.get(), 2, "a missing file is not asked again either");
    }

    fn place(line: u32, start: u32, end: u32) -> Place {
        Place {
            path: WorkspacePath::parse("a.rs").unwrap(),
            start: Spot { line, column: start },
            end: Spot { line, column: end },
        }
    }

    #[test]
    fn a_severity_has_one_name_in_text_and_json() {
        for severity in [Severity::Error, Severity::Warning, Severity::Info, Severity::Hint] {
            assert_eq!(serde_json::to_value(severity).unwrap(), severity.as_str());
        }
    }

    #[test]
    fn columns_convert_from_each_unit_to_each_encoding() {
        let text = &Rope::from_str("let s = \"😀\"; x\n\tint y = z;\n");
        // "x" is char 13 on line 0; the emoji is 2 UTF-16 units and 4 UTF-8 bytes.
        let chars = Problem::range_in(&place(0, 13, 14), ColumnUnit::Chars, text, PositionEncoding::Utf16);
        assert_eq!(chars.start, position(0, 14));
        let utf8 = Problem::range_in(&place(0, 13, 14), ColumnUnit::Chars, text, PositionEncoding::Utf8);
        assert_eq!(utf8.start, position(0, 16));
        let utf16 = Problem::range_in(&place(0, 14, 15), ColumnUnit::Utf16, text, PositionEncoding::Utf16);
        assert_eq!(utf16.start, position(0, 14));
        // Maven puts `z` of "\tint y = z;" at column 16 (tab to 8, then 8 more).
        let tabs = Problem::range_in(&place(1, 16, 17), ColumnUnit::TabStops8, text, PositionEncoding::Utf16);
        assert_eq!(tabs.start, position(1, 9));
        let beyond = Problem::range_in(&place(9, 3, 3), ColumnUnit::Chars, text, PositionEncoding::Utf16);
        assert_eq!(beyond.start, position(2, 0), "past the end clamps");
    }

    #[test]
    fn diagnostics_carry_code_source_related_and_fixes() {
        let mut problem =
            Problem::at(place(0, 0, 3), ColumnUnit::Chars, Severity::Error, "cargo", "mismatched types".into());
        problem.code = Some("E0308".into());
        problem.related.push(Related { place: place(0, 4, 5), message: "expected due to this".into() });
        problem.replacements.push(Replacement { place: place(0, 3, 3), text: ".into()".into() });
        let uri = |p: &WorkspacePath| Url::parse(&format!("file:///w/{p}")).unwrap();
        let diagnostic =
            problem.to_diagnostic(&|_| Some(Rope::from_str("abc d\n")), &uri, PositionEncoding::Utf16).unwrap();
        assert_eq!(diagnostic.code, Some(NumberOrString::String("E0308".into())));
        assert_eq!(diagnostic.source.as_deref(), Some("cargo"));
        assert_eq!(diagnostic.related_information.unwrap()[0].location.range.start, position(0, 4));
        assert_eq!(diagnostic.data.unwrap()["replacements"][0]["text"], ".into()");
    }
}
