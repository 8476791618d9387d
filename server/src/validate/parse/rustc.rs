//! rustc's JSON diagnostics as cargo prints them with `--message-format=json`: one JSON
//! object per line, primary and secondary spans, child notes and suggested replacements.

use serde::Deserialize;

use super::paths::{Located, PathMap};
use crate::validate::problem::{ColumnUnit, Place, Problem, Related, Replacement, Severity, Spot};

#[derive(Deserialize)]
struct Line {
    reason: String,
    message: Option<Message>,
}

#[derive(Deserialize)]
struct Message {
    message: String,
    #[serde(default)]
    code: Option<Code>,
    level: String,
    #[serde(default)]
    spans: Vec<Span>,
    #[serde(default)]
    children: Vec<Message>,
}

#[derive(Deserialize)]
struct Code {
    code: String,
}

#[derive(Deserialize, Clone)]
struct Span {
    file_name: String,
    line_start: u32,
    line_end: u32,
    column_start: u32,
    column_end: u32,
    #[serde(default)]
    is_primary: bool,
    #[serde(default)]
    label: Option<String>,
    #[serde(default)]
    suggested_replacement: Option<String>,
    #[serde(default)]
    expansion: Option<Box<Expansion>>,
}

#[derive(Deserialize, Clone)]
struct Expansion {
    span: Span,
}

/// Summary lines rustc adds that say nothing a problem does not already say.
fn is_noise(message: &Message) -> bool {
    message.level == "failure-note"
        || (message.spans.is_empty()
            && (message.message.starts_with("aborting due to")
                || message.message.ends_with("warning emitted")
                || message.message.ends_with("warnings emitted")))
}

fn severity(level: &str) -> Severity {
    match level {
        "error" | "error: internal compiler error" => Severity::Error,
        "warning" => Severity::Warning,
        "help" => Severity::Hint,
        _ => Severity::Info,
    }
}

fn place_of(span: &Span, map: &PathMap) -> Result<Place, String> {
    match map.locate(&span.file_name) {
        Located::Workspace(path) => Ok(Place {
            path,
            start: Spot::one_based(span.line_start, span.column_start),
            end: Spot::one_based(span.line_end, span.column_end),
        }),
        Located::Elsewhere(other) => Err(format!("{other}:{}:{}", span.line_start, span.column_start)),
    }
}

/// The place of the primary span, following macro expansions back into the workspace.
fn primary_place(message: &Message, map: &PathMap) -> Result<Place, Option<String>> {
    let Some(mut span) = message.spans.iter().find(|s| s.is_primary).or(message.spans.first()).cloned() else {
        return Err(None);
    };
    let mut first_elsewhere = None;
    loop {
        match place_of(&span, map) {
            Ok(place) => return Ok(place),
            Err(elsewhere) => {
                first_elsewhere.get_or_insert(elsewhere);
                match span.expansion {
                    Some(expansion) => span = expansion.span,
                    None => return Err(first_elsewhere),
                }
            }
        }
    }
}

fn problem_of(message: &Message, map: &PathMap) -> Problem {
    let mut text = message.message.clone();
    let primary = primary_place(message, map);
    if let Some(label) = message.spans.iter().find(|s| s.is_primary).and_then(|s| s.label.as_deref()) {
        text.push('\n');
        text.push_str(label);
    }
    let mut related = Vec::new();
    for span in message.spans.iter().filter(|s| !s.is_primary) {
        if let (Ok(place), Some(label)) = (place_of(span, map), span.label.as_ref()) {
            related.push(Related { place, message: label.clone() });
        }
    }
    let mut replacements = Vec::new();
    for child in &message.children {
        let line = format!("{}: {}", child.level, child.message);
        let mut placed = false;
        for span in &child.spans {
            let Ok(place) = place_of(span, map) else { continue };
            if let Some(replacement) = &span.suggested_replacement {
                replacements.push(Replacement { place: place.clone(), text: replacement.clone() });
            }
            if !placed && span.suggested_replacement.is_none() {
                related.push(Related { place, message: line.clone() });
                placed = true;
            }
        }
        if !placed {
            text.push('\n');
            text.push_str(&line);
        }
    }
    let (place, elsewhere) = match primary {
        Ok(place) => (Some(place), None),
        Err(elsewhere) => (None, elsewhere),
    };
    Problem {
        place,
        elsewhere,
        unit: ColumnUnit::Chars,
        severity: severity(&message.level),
        code: message.code.as_ref().map(|code| code.code.clone()),
        source: "cargo".into(),
        message: text,
        related,
        replacements,
    }
}

/// The problems in cargo's JSON output; other lines are ignored.
pub fn parse(text: &str, map: &PathMap) -> Vec<Problem> {
    text.lines()
        .filter(|line| line.starts_with('{'))
        .filter_map(|line| serde_json::from_str::<Line>(line).ok())
        .filter(|line| line.reason == "compiler-message")
        .filter_map(|line| line.message)
        .filter(|message| !is_noise(message))
        .map(|message| problem_of(&message, map))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn map() -> PathMap {
        PathMap::new(Path::new("/s/tree"), Path::new("/u"), ["src/lib.rs".to_owned()].into())
    }

    fn message(json: serde_json::Value) -> String {
        serde_json::json!({"reason": "compiler-message", "message": json}).to_string()
    }

    fn span(file: &str, line: u32, start: u32, end: u32, primary: bool) -> serde_json::Value {
        serde_json::json!({"file_name": file, "line_start": line, "line_end": line, "column_start": start,
            "column_end": end, "is_primary": primary, "label": null, "suggested_replacement": null, "expansion": null})
    }

    #[test]
    fn macro_expansions_lead_back_to_the_workspace() {
        let mut inner = span("/rustc/library/core/src/macros/mod.rs", 40, 1, 5, true);
        inner["expansion"] =
            serde_json::json!({"span": span("src/lib.rs", 7, 5, 20, false), "macro_decl_name": "assert_eq!"});
        let line = message(serde_json::json!({"message": "mismatched types", "code": null, "level": "error",
            "spans": [inner], "children": []}));
        let problems = parse(&line, &map());
        let place = problems[0].place.as_ref().expect("placed at the macro call");
        assert_eq!((place.path.as_str(), place.start), ("src/lib.rs", Spot { line: 6, column: 4 }));
    }

    #[test]
    fn spanless_errors_are_kept_and_summaries_dropped() {
        let kept = message(
            serde_json::json!({"message": "linking with `cc` failed", "level": "error", "spans": [], "children": []}),
        );
        let noise = message(
            serde_json::json!({"message": "aborting due to 2 previous errors", "level": "error", "spans": [], "children": []}),
        );
        let problems = parse(&format!("{kept}\n{noise}\n"), &map());
        assert_eq!(problems.len(), 1);
        assert!(problems[0].place.is_none() && problems[0].message.contains("linking"));
    }

    #[test]
    fn malformed_lines_are_skipped() {
        let text = "{\"reason\":\"compiler-message\",\"message\":{\"level\":3}}\n{not json\n{\"reason\":\"build-finished\",\"success\":false}\n{\"reason\":\"compiler-message\"}\n";
        assert!(parse(text, &map()).is_empty());
        let truncated =
            &message(serde_json::json!({"message": "x", "level": "error", "spans": [], "children": []}))[..30];
        assert!(parse(truncated, &map()).is_empty());
    }
}
