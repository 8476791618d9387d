//! javac's diagnostics: `File.java:12: error: message`, then the source line and a caret
//! line whose `^` gives the column, then detail lines (`symbol:`, `location:`).

use std::sync::LazyLock;

use regex::Regex;

use super::at;
use super::paths::PathMap;
use crate::validate::problem::{ColumnUnit, Problem, Severity, Spot};

/// A diagnostic's first line, in English or in the languages javac speaks when the JVM's
/// locale is theirs (Japanese, Chinese, German), as a Gradle daemon's javac may.
static HEADER: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"^(?P<file>[^\s].*?\.java):(?P<line>\d+): (?P<severity>error|warning|エラー|警告|错误|Fehler|Warnung): (?P<message>.*)$",
    )
    .expect("valid regex")
});
/// The words of [`HEADER`] that mark an error.
const ERROR_WORDS: [&str; 4] = ["error", "エラー", "错误", "Fehler"];
/// javac's closing count, `3 errors` / `1 warning` (`エラー1個`, `1 个错误`, `1 Fehler`).
static COUNT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^(?:\d+ (?:errors?|warnings?|Fehler|Warnung(?:en)?|个错误|个警告)|(?:エラー|警告)\d+個)$")
        .expect("valid regex")
});

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
        let severity = if ERROR_WORDS.contains(&&header["severity"]) { Severity::Error } else { Severity::Warning };
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
    fn javac_speaking_japanese_chinese_or_german_is_read() {
        let map = PathMap::new(Path::new("/t"), Path::new("/u"), ["A.java".to_owned()].into());
        for (text, severity) in [
            ("A.java:3: エラー: シンボルを見つけられません\n        f();\n        ^\nエラー1個\n", Severity::Error),
            ("A.java:3: 错误: 找不到符号\n        f();\n        ^\n1 个错误\n", Severity::Error),
            ("A.java:3: Fehler: Symbol nicht gefunden\n        f();\n        ^\n1 Fehler\n", Severity::Error),
            (
                "A.java:3: 警告: [deprecation] f()は推奨されません\n        f();\n        ^\n警告1個\n",
                Severity::Warning,
            ),
            (
                "A.java:3: Warnung: [deprecation] f() ist veraltet\n        f();\n        ^\n1 Warnung\n",
                Severity::Warning,
            ),
        ] {
            let problems = parse(text, &map, "gradle");
            assert_eq!(problems.len(), 1, "{text}");
            assert_eq!(problems[0].severity, severity, "{text}");
            assert_eq!(problems[0].place.as_ref().unwrap().start, Spot { line: 2, column: 8 }, "{text}");
            assert!(!problems[0].message.contains('1'), "the count is not part of the message: {text}");
        }
    }

    #[test]
    fn malformed_output_does_not_panic() {
        let map = PathMap::new(Path::new("/t"), Path::new("/u"), Default::default());
        for text in ["A.java:: error: x", "A.java:1: error: ", "A.java:99999999999: error: x\n^", "^\n^\n"] {
            let _ = parse(text, &map, "javac");
        }
    }
}
