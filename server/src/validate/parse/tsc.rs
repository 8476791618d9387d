//! tsc's output: `file(line,col): error TS2322: message` (`--pretty false`, what
//! issuewright runs), `file:line:col - error TS2322: message` (the pretty form a project's own
//! script prints when its tsconfig sets `pretty`), continuation lines indented below either,
//! and file-less errors such as `error TS5058: ...`.

use std::sync::LazyLock;

use regex::Regex;

use super::at;
use super::paths::PathMap;
use crate::validate::problem::{ColumnUnit, Problem, Severity, Spot};

static PLACED: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"^(?P<file>[^\s].*?)\((?P<line>\d+),(?P<col>\d+)\): (?P<severity>error|warning|message) (?P<code>TS\d+): (?P<message>.*)$",
    )
    .expect("valid regex")
});
static PRETTY: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"^(?P<file>[^\s].*?):(?P<line>\d+):(?P<col>\d+) - (?P<severity>error|warning|message) (?P<code>TS\d+): (?P<message>.*)$",
    )
    .expect("valid regex")
});
static GLOBAL: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^(?P<severity>error|warning) (?P<code>TS\d+): (?P<message>.*)$").expect("valid regex")
});

fn severity(word: &str) -> Severity {
    match word {
        "error" => Severity::Error,
        "warning" => Severity::Warning,
        _ => Severity::Info,
    }
}

/// The problems in tsc's output.
pub fn parse(text: &str, map: &PathMap) -> Vec<Problem> {
    let mut problems: Vec<Problem> = Vec::new();
    // Indented lines continue the last message until a blank line: in the pretty form the
    // code frame and its squiggles follow one, and are not part of the message.
    let mut continues = false;
    for line in text.lines() {
        if let Some(captures) = PLACED.captures(line).or_else(|| PRETTY.captures(line)) {
            continues = true;
            let start = Spot::one_based(captures["line"].parse().unwrap_or(1), captures["col"].parse().unwrap_or(1));
            let mut problem = at(
                map,
                &captures["file"],
                start,
                start,
                ColumnUnit::Utf16,
                severity(&captures["severity"]),
                "tsc",
                captures["message"].to_owned(),
            );
            problem.code = Some(captures["code"].to_owned());
            problems.push(problem);
        } else if let Some(captures) = GLOBAL.captures(line) {
            continues = true;
            let mut problem = Problem::unplaced(severity(&captures["severity"]), "tsc", captures["message"].to_owned());
            problem.code = Some(captures["code"].to_owned());
            problems.push(problem);
        } else if line.trim().is_empty() {
            continues = false;
        } else if continues
            && line.starts_with("  ")
            && let Some(last) = problems.last_mut()
        {
            last.message.push('\n');
            last.message.push_str(line.trim());
        } else {
            continues = false;
        }
    }
    problems
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    #[test]
    fn continuation_lines_and_global_errors() {
        let map = PathMap::new(Path::new("/t"), Path::new("/u"), ["src/a.ts".to_owned()].into());
        let text = "src/a.ts(4,5): error TS2345: Argument of type '{ a: string; }' is not assignable.\n  Property 'b' is missing.\nerror TS5058: The specified path does not exist: 'x'.\n";
        let problems = parse(text, &map);
        assert_eq!(problems.len(), 2);
        assert_eq!(
            problems[0].message,
            "Argument of type '{ a: string; }' is not assignable.\nProperty 'b' is missing."
        );
        assert_eq!(problems[0].code.as_deref(), Some("TS2345"));
        assert!(problems[1].place.is_none());
    }

    #[test]
    fn malformed_output_does_not_panic() {
        let map = PathMap::new(Path::new("/t"), Path::new("/u"), Default::default());
        for text in [
            "a.ts(,): error TS1: x",
            "a.ts(1,99999999999999): error TS1: x",
            "  orphan continuation",
            "(1,1): error TS1: x",
        ] {
            let _ = parse(text, &map);
        }
    }
}
