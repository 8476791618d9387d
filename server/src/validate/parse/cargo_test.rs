//! `cargo test` failures: the panic of each failing test, placed at `file:line:col`, and
//! tests that failed without a panic (returned an error), kept with their output.

use std::sync::LazyLock;

use regex::Regex;

use super::at;
use super::paths::PathMap;
use crate::validate::problem::{ColumnUnit, Problem, Severity, Spot};

/// `thread 'name' (1234) panicked at src/lib.rs:11:9:` (Rust 1.73 and later).
static PANIC: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^thread '(?P<thread>[^']*)'(?: \(\d+\))? panicked at (?P<file>.+?):(?P<line>\d+):(?P<col>\d+):$")
        .expect("valid regex")
});
/// `thread 'name' panicked at 'message', src/lib.rs:11:9` (before Rust 1.73).
static OLD_PANIC: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^thread '(?P<thread>[^']*)' panicked at '(?P<message>.*)', (?P<file>.+?):(?P<line>\d+):(?P<col>\d+)$")
        .expect("valid regex")
});
static SECTION: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^---- (?P<name>.+) stdout ----$").expect("valid regex"));

fn ends_message(line: &str) -> bool {
    line.starts_with("note: run with `RUST_BACKTRACE")
        || line.starts_with("stack backtrace:")
        || line.starts_with("---- ")
        || line == "failures:"
        || PANIC.is_match(line)
}

fn failed(name: &str, message: &str) -> String {
    format!("test `{name}` failed: {}", message.trim())
}

/// The test failures in `cargo test` output.
pub fn parse(text: &str, map: &PathMap) -> Vec<Problem> {
    let lines: Vec<&str> = text.lines().collect();
    let mut problems = Vec::new();
    let mut section: Option<(&str, usize, bool)> = None; // name, first line, panicked
    let mut quiet_failures: Vec<(String, String)> = Vec::new();
    let mut close = |section: Option<(&str, usize, bool)>, end: usize| {
        if let Some((name, first, false)) = section {
            let body = lines[first..end].join("\n");
            if !body.trim().is_empty() {
                quiet_failures.push((name.to_owned(), body));
            }
        }
    };
    let mut index = 0;
    while index < lines.len() {
        let line = lines[index];
        if let Some(captures) = SECTION.captures(line) {
            close(section.take(), index);
            section = Some((captures.name("name").map_or("", |m| m.as_str()), index + 1, false));
        } else if line == "failures:" {
            close(section.take(), index);
        } else if let Some(captures) = PANIC.captures(line).or_else(|| OLD_PANIC.captures(line)) {
            let name = section.map_or_else(|| captures["thread"].to_owned(), |(name, _, _)| name.to_owned());
            if let Some(current) = section.as_mut() {
                current.2 = true;
            }
            let mut message = captures.name("message").map(|m| m.as_str().to_owned()).unwrap_or_default();
            let mut next = index + 1;
            if captures.name("message").is_none() {
                while next < lines.len() && !ends_message(lines[next]) {
                    next += 1;
                }
                message = lines[index + 1..next].join("\n");
            }
            let (line_number, column) = (captures["line"].parse().unwrap_or(1), captures["col"].parse().unwrap_or(1));
            let spot = Spot::one_based(line_number, column);
            problems.push(at(
                map,
                &captures["file"],
                spot,
                spot,
                ColumnUnit::Chars,
                Severity::Error,
                "cargo",
                failed(&name, &message),
            ));
            index = next;
            continue;
        }
        index += 1;
    }
    close(section.take(), lines.len());
    for (name, body) in quiet_failures {
        problems.push(Problem::unplaced(Severity::Error, "cargo", failed(&name, &body)));
    }
    problems
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn map() -> PathMap {
        PathMap::new(Path::new("/s/tree"), Path::new("/u"), ["src/lib.rs".to_owned(), "tests/it.rs".to_owned()].into())
    }

    #[test]
    fn old_style_panics_and_tests_returning_errors() {
        let text = "---- it_works stdout ----\nthread 'it_works' panicked at 'boom', tests/it.rs:3:5\nnote: run with `RUST_BACKTRACE=1`\n\n---- returns_err stdout ----\nError: \"no config\"\n\nfailures:\n    it_works\n    returns_err\n";
        let problems = parse(text, &map());
        assert_eq!(problems.len(), 2, "{problems:#?}");
        assert_eq!(problems[0].message, "test `it_works` failed: boom");
        assert_eq!(problems[0].place.as_ref().unwrap().start, Spot { line: 2, column: 4 });
        assert!(problems[1].place.is_none());
        assert_eq!(problems[1].message, "test `returns_err` failed: Error: \"no config\"");
    }

    #[test]
    fn a_panic_in_a_dependency_is_kept_unplaced() {
        let text = "thread 'main' panicked at /root/.cargo/registry/src/x/lib.rs:10:1:\nexplicit panic\n";
        let problems = parse(text, &map());
        assert!(problems[0].place.is_none());
        assert_eq!(problems[0].elsewhere.as_deref(), Some("/root/.cargo/registry/src/x/lib.rs:10:1"));
    }

    #[test]
    fn malformed_lines_do_not_panic() {
        for text in [
            "thread '",
            "thread 'x' panicked at :1:2:",
            "---- ",
            "---- a stdout ----",
            "thread 'x' panicked at f.rs:99999999999999999999:1:\n",
        ] {
            let _ = parse(text, &map());
        }
    }
}
