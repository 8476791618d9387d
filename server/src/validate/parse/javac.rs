//! javac's diagnostics: `File.java:12: error: message`, then the source line and a caret
//! line whose `^` gives the column, then detail lines (`symbol:`, `location:`).

use std::sync::LazyLock;

use regex::Regex;

use super::at;
use super::paths::PathMap;
use crate::validate::problem::{ColumnUnit, Problem, Severity, Spot};

static HEADER: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^(?P<file>[^\s].*?\.java):(?P<line>\d+): (?P<severity>error|warning): (?P<message>.*)$")
        .expect("valid regex")
});
/// javac's closing count, `3 errors` / `1 warning`.
static COUNT: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"^\d+ (errors?|warnings?)$").expect("valid regex"));

fn is_caret(line: &str) -> bool {
    line.trim() == "^"
}

/// The problems in javac's output; `source` names the tool that printed it (`javac`, `gradle`).
pub fn parse(text: &str, map: &PathMap, source: &str) -> Vec<Problem> {
    let lines: Vec<&str> = text.lines().collect();
    let mut problems = Vec::new();
    let mut index = 0;
    while index < lines.len() {
        let Some(header) = HEADER.captures(lines[index]) else {
            index += 1;
            continue;
        };
        let mut end = index + 1;
        while end < lines.len()
            && !HEADER.is_match(lines[end])
            && !COUNT.is_match(lines[end].trim())
            && !lines[end].starts_with("Note: ")
            && !lines[end].starts_with("FAILURE:")
            && !lines[end].starts_with("> Task ")
        {
            end += 1;
        }
        let body = &lines[index + 1..end];
        let caret = body.iter().position(|line| is_caret(line));
        let column = caret.map_or(0, |at| body[at].find('^').map_or(0, |byte| body[at][..byte].encode_utf16().count()));
        let mut message = header["message"].to_owned();
        for (offset, line) in body.iter().enumerate() {
            let is_source = caret.is_some_and(|at| offset + 1 == at);
            if Some(offset) == caret || is_source || line.trim().is_empty() {
                continue;
            }
            message.push('\n');
            message.push_str(line.trim());
        }
        let line_number: u32 = header["line"].parse().unwrap_or(1);
        let start = Spot { line: line_number.saturating_sub(1), column: column as u32 };
        let severity = if &header["severity"] == "error" { Severity::Error } else { Severity::Warning };
        problems.push(at(map, &header["file"], start, start, ColumnUnit::Utf16, severity, source, message));
        index = end;
    }
    problems
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    #[test]
    fn details_before_the_source_line_are_kept() {
        let map = PathMap::new(Path::new("/t"), Path::new("/u"), ["A.java".to_owned()].into());
        let text = "A.java:3: error: method f in class A cannot be applied to given types;\n        f();\n        ^\n  required: int\n  found:    no arguments\n1 error\n";
        let problems = parse(text, &map, "javac");
        assert_eq!(problems.len(), 1);
        assert_eq!(
            problems[0].message,
            "method f in class A cannot be applied to given types;\nrequired: int\nfound:    no arguments"
        );
        assert_eq!(problems[0].place.as_ref().unwrap().start, Spot { line: 2, column: 8 });
    }

    #[test]
    fn malformed_output_does_not_panic() {
        let map = PathMap::new(Path::new("/t"), Path::new("/u"), Default::default());
        for text in ["A.java:: error: x", "A.java:1: error: ", "A.java:99999999999: error: x\n^", "^\n^\n"] {
            let _ = parse(text, &map, "javac");
        }
    }
}
