//! Gradle's output: javac diagnostics as javac prints them, Kotlin's `e: file:///F.kt:3:5 msg`,
//! and failed tests as `GreeterTest > greetsWarmly FAILED` followed by `    Exception at File.java:9`.

use std::sync::LazyLock;

use regex::Regex;

use super::paths::PathMap;
use super::{at, javac, located_by_suffix};
use crate::validate::problem::{ColumnUnit, Problem, Severity, Spot};

static KOTLIN: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^(?P<level>[ew]): (?P<file>.+?):(?P<line>\d+):(?P<col>\d+) (?P<message>.*)$").expect("valid regex")
});
static FAILED_TEST: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^(?P<class>\S+) > (?P<test>.+) FAILED$").expect("valid regex"));
static FAILED_AT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^\s+(?P<exception>\S+) at (?P<file>[\w$]+\.(?:java|kt|groovy|scala)):(?P<line>\d+)$")
        .expect("valid regex")
});

/// Compiler problems and test failures in Gradle's output.
pub fn parse(text: &str, map: &PathMap) -> Vec<Problem> {
    let mut problems = javac::parse(text, map, "gradle");
    let lines: Vec<&str> = text.lines().collect();
    for (index, line) in lines.iter().enumerate() {
        if let Some(captures) = KOTLIN.captures(line) {
            let start = Spot::one_based(captures["line"].parse().unwrap_or(1), captures["col"].parse().unwrap_or(1));
            let severity = if &captures["level"] == "e" { Severity::Error } else { Severity::Warning };
            let message = captures["message"].to_owned();
            problems.push(at(map, &captures["file"], start, start, ColumnUnit::Utf16, severity, "gradle", message));
        } else if let Some(test) = FAILED_TEST.captures(line) {
            let name = format!("{} > {}", &test["class"], &test["test"]);
            let cause = lines.get(index + 1).and_then(|next| FAILED_AT.captures(next));
            let problem = match cause {
                Some(cause) => {
                    let class = test["class"].rsplit('.').next().unwrap_or_default().to_owned();
                    let package: Vec<&str> = test["class"].split('.').collect();
                    let package_dir = package[..package.len().saturating_sub(1)].join("/");
                    let file = if package_dir.is_empty() || !cause["file"].starts_with(class.as_str()) {
                        cause["file"].to_owned()
                    } else {
                        format!("{package_dir}/{}", &cause["file"])
                    };
                    let message = format!("test `{name}` failed: {}", &cause["exception"]);
                    located_by_suffix(map, &file, cause["line"].parse().unwrap_or(1), "gradle", message)
                }
                None => Problem::unplaced(Severity::Error, "gradle", format!("test `{name}` failed")),
            };
            problems.push(problem);
        }
    }
    problems
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn map() -> PathMap {
        let files = [
            "src/main/java/com/acme/Greeter.java",
            "src/test/java/com/acme/GreeterTest.java",
            "src/main/kotlin/App.kt",
        ];
        PathMap::new(Path::new("/t"), Path::new("/u"), files.iter().map(|f| (*f).to_owned()).collect())
    }

    /// The shape of `gradle compileJava test --console=plain` output (Gradle 8).
    const OUTPUT: &str = "> Task :compileJava FAILED\n/t/src/main/java/com/acme/Greeter.java:5: error: incompatible types: String cannot be converted to int\n        int length = name;\n                     ^\n1 error\n\nFAILURE: Build failed with an exception.\n\n> Task :test FAILED\n\ncom.acme.GreeterTest > greetsWarmly FAILED\n    org.junit.ComparisonFailure at GreeterTest.java:9\n\n1 test completed, 1 failed\ne: file:///t/src/main/kotlin/App.kt:3:9 Unresolved reference: foo\n";

    #[test]
    fn compiler_kotlin_and_test_failures() {
        let problems = parse(OUTPUT, &map());
        assert_eq!(problems.len(), 3, "{problems:#?}");
        let places: Vec<(String, u32, u32)> = problems
            .iter()
            .map(|p| p.place.as_ref().map(|pl| (pl.path.to_string(), pl.start.line, pl.start.column)).unwrap())
            .collect();
        assert!(places.contains(&("src/main/java/com/acme/Greeter.java".into(), 4, 21)));
        assert!(places.contains(&("src/main/kotlin/App.kt".into(), 2, 8)));
        assert!(places.contains(&("src/test/java/com/acme/GreeterTest.java".into(), 8, 0)));
        assert!(problems.iter().all(|p| p.source == "gradle"));
    }

    #[test]
    fn malformed_output_does_not_panic() {
        for text in ["x > y FAILED", "x > y FAILED\n    E at .java:", "e: :1:1 x", "e: f.kt:999999999999:1 x"] {
            let _ = parse(text, &map());
        }
    }
}
