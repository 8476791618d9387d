//! Maven's compiler and Surefire output: `[ERROR] /path/File.java:[line,col] message`, detail
//! lines after it, the same list repeated in the goal's failure, and Surefire's summary
//! `[ERROR]   GreeterTest.greetsWarmly:9 expected ...` when no XML report says more.

use std::sync::LazyLock;

use regex::Regex;

use super::paths::PathMap;
use super::{at, located_by_suffix};
use crate::validate::problem::{ColumnUnit, Problem, Severity, Spot};

static COMPILER: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^\[(?P<level>ERROR|WARNING)\] (?P<file>.+?):\[(?P<line>\d+),(?P<col>\d+)\] (?P<message>.*)$")
        .expect("valid regex")
});
static TEST_FAILURE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^\[ERROR\]   (?P<class>[\w$]+)\.(?P<test>[^:\s]+):(?P<line>\d+) (?P<message>.*)$")
        .expect("valid regex")
});

/// Compiler problems in Maven's output.
pub fn parse(text: &str, map: &PathMap) -> Vec<Problem> {
    let lines: Vec<&str> = text.lines().collect();
    let mut problems = Vec::new();
    for (index, line) in lines.iter().enumerate() {
        let Some(captures) = COMPILER.captures(line) else { continue };
        let mut message = captures["message"].trim_end().to_owned();
        for detail in lines[index + 1..].iter().take_while(|l| !l.starts_with('[') && !l.trim().is_empty()) {
            message.push('\n');
            message.push_str(detail.trim());
        }
        let start = Spot::one_based(captures["line"].parse().unwrap_or(1), captures["col"].parse().unwrap_or(1));
        let severity = if &captures["level"] == "ERROR" { Severity::Error } else { Severity::Warning };
        problems.push(at(map, &captures["file"], start, start, ColumnUnit::TabStops8, severity, "maven", message));
    }
    // The goal's failure repeats the list with `[ERROR]   symbol:` details; keep the first.
    let mut seen = std::collections::HashSet::new();
    problems.retain(|problem| {
        let first_line = problem.message.lines().next().unwrap_or_default().to_owned();
        seen.insert((problem.place.clone(), problem.elsewhere.clone(), first_line))
    });
    problems
}

/// Test failures from Surefire's console summary.
pub fn parse_tests(text: &str, map: &PathMap) -> Vec<Problem> {
    text.lines()
        .filter_map(|line| TEST_FAILURE.captures(line))
        .map(|captures| {
            let class = &captures["class"];
            let file = format!("{}.java", class.split('$').next().unwrap_or(class));
            let line: u32 = captures["line"].parse().unwrap_or(1);
            let message = format!("test `{class}.{}` failed: {}", &captures["test"], captures["message"].trim());
            located_by_suffix(map, &file, line, "maven", message)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    #[test]
    fn surefire_summary_lines_are_placed_by_class_file() {
        let map =
            PathMap::new(Path::new("/t"), Path::new("/u"), ["src/test/java/a/GreeterTest.java".to_owned()].into());
        let text = "[ERROR] Failures: \n[ERROR]   GreeterTest.greetsWarmly:9 expected:<H[i]> but was:<H[ello]>\n[ERROR] Tests run: 1, Failures: 1\n";
        let problems = parse_tests(text, &map);
        assert_eq!(problems.len(), 1);
        let place = problems[0].place.as_ref().unwrap();
        assert_eq!((place.path.as_str(), place.start.line), ("src/test/java/a/GreeterTest.java", 8));
        assert!(problems[0].message.starts_with("test `GreeterTest.greetsWarmly` failed: expected"));
    }

    #[test]
    fn malformed_output_does_not_panic() {
        let map = PathMap::new(Path::new("/t"), Path::new("/u"), Default::default());
        for text in ["[ERROR] :[1,2] x", "[ERROR] a.java:[99999999999,1] x", "[ERROR]   A.b:1 ", "[WARNING] x:[,] y"] {
            let _ = parse(text, &map);
            let _ = parse_tests(text, &map);
        }
    }
}
