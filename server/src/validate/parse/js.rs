//! JavaScript and TypeScript test failures: node's TAP report (`not ok 1 - name` with a YAML
//! block holding `error`, `location` and `stack`), and for other runners (Jest, Mocha,
//! Vitest, node's spec reporter) an error message followed by `at fn (file:line:col)` frames.
//! A failure is placed at its first frame in a workspace file; with `--enable-source-maps`
//! those frames point into the `.ts` sources.

use std::sync::LazyLock;

use regex::Regex;

use super::paths::{Located, PathMap};
use crate::validate::problem::{ColumnUnit, Place, Problem, Severity, Spot};

static NOT_OK: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^(?P<indent>\s*)not ok \d+ - (?P<name>.*?)(?: # .*)?$").expect("valid regex"));
static FRAME: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        // The location runs from the first ` (` (or the frame's start) to `:line:col`, so a
        // path may hold spaces and parentheses (`app/(auth)/login.test.ts`, Next.js's groups).
        r"^\s*(?:(?:at|❯)\s+)?(?:.*? \()?(?P<file>(?:file://)?/.+?|[^\s():][^():]*?\.[cm]?[jt]sx?):(?P<line>\d+):(?P<col>\d+)\)?\s*$",
    )
    .expect("valid regex")
});
/// A stack frame's line: `at ...` (node, Jest, Mocha), or Vitest's `❯ src/sum.test.ts:6:22`.
static AT_FRAME: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"^\s+(?:at|❯)\s+\S").expect("valid regex"));
/// A line of the code frame Jest and Vitest draw around the failing line (`> 6 |   expect(..)`,
/// `  |   ^`, `6|`): the test's source, not its message.
static CODE_FRAME: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"^\s*>?\s*\d*\s*\|").expect("valid regex"));
/// The line a failure's message starts at: an error's (`AssertionError: expected -1 to be 3`,
/// `TypeError: x is not a function`) or Jest's matcher (`expect(received).toBe(expected)`).
static ERROR_LINE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^\s*(?:[\w.$]*(?:Error|Exception)\b[^:\n]*:|expect\()").expect("valid regex"));

/// The first frame among `lines` that is in a workspace file.
fn first_workspace_frame<'a>(lines: impl IntoIterator<Item = &'a str>, map: &PathMap) -> Option<Place> {
    lines.into_iter().find_map(|line| {
        let captures = FRAME.captures(line)?;
        let Located::Workspace(path) = map.locate(&captures["file"]) else { return None };
        let spot = Spot::one_based(captures["line"].parse().ok()?, captures["col"].parse().ok()?);
        Some(Place { path, start: spot, end: spot })
    })
}

fn placed(place: Option<Place>, message: String) -> Problem {
    match place {
        Some(place) => Problem::at(place, ColumnUnit::Utf16, Severity::Error, "test", message),
        None => Problem::unplaced(Severity::Error, "test", message),
    }
}

fn unquote(value: &str) -> String {
    let value = value.trim();
    if let Some(inner) = value.strip_prefix('\'').and_then(|v| v.strip_suffix('\'')) {
        return inner.replace("''", "'");
    }
    if let Some(inner) = value.strip_prefix('"').and_then(|v| v.strip_suffix('"')) {
        return serde_json::from_str::<String>(&format!("\"{inner}\"")).unwrap_or_else(|_| inner.to_owned());
    }
    value.to_owned()
}

/// The value of `key` in a TAP YAML block whose keys are indented by `indent`: inline, or a
/// `|-` block of deeper-indented lines.
fn yaml_value(block: &[&str], indent: usize, key: &str) -> Option<(String, Vec<String>)> {
    let prefix = format!("{}{key}:", " ".repeat(indent));
    let at = block.iter().position(|line| line.starts_with(&prefix))?;
    let inline = block[at][prefix.len()..].trim();
    if inline.starts_with('|') || inline.starts_with('>') {
        let lines: Vec<String> = block[at + 1..]
            .iter()
            .take_while(|line| line.trim().is_empty() || line.get(..=indent).is_some_and(|head| head.trim().is_empty()))
            .map(|line| line.get(indent + 2..).unwrap_or("").to_owned())
            .collect();
        return Some((lines.join("\n").trim().to_owned(), lines));
    }
    Some((unquote(inline), vec![]))
}

fn tap_failures(lines: &[&str], map: &PathMap) -> Vec<Problem> {
    let mut problems = Vec::new();
    for (index, line) in lines.iter().enumerate() {
        let Some(captures) = NOT_OK.captures(line) else { continue };
        let indent = captures["indent"].len() + 2;
        let opening = format!("{}---", " ".repeat(indent));
        let closing = format!("{}...", " ".repeat(indent));
        if lines.get(index + 1).map(|l| l.trim_end()) != Some(opening.as_str()) {
            problems.push(placed(None, format!("test `{}` failed", &captures["name"])));
            continue;
        }
        let block: Vec<&str> =
            lines[index + 2..].iter().copied().take_while(|l| l.trim_end() != closing.as_str()).collect();
        let failure_type = yaml_value(&block, indent, "failureType").map(|(v, _)| v);
        if failure_type.as_deref() == Some("subtestsFailed") {
            continue;
        }
        let error = yaml_value(&block, indent, "error").map(|(v, _)| v).unwrap_or_default();
        let stack = yaml_value(&block, indent, "stack").map(|(_, lines)| lines).unwrap_or_default();
        let location = yaml_value(&block, indent, "location").map(|(v, _)| v);
        let place = first_workspace_frame(stack.iter().map(String::as_str), map)
            .or_else(|| location.and_then(|l| first_workspace_frame([l.as_str()], map)));
        problems.push(placed(place, format!("test `{}` failed: {}", &captures["name"], error.trim())));
    }
    problems
}

/// The message of the failure whose frames follow `before` (the output since the frames of
/// the failure before it): from its error line on, past blank lines, up to the code frame
/// drawn around the failing line, at most six lines; without an error line, the paragraph
/// right above the frames.
fn message_before(before: &[&str]) -> String {
    let text = |line: &str| !line.trim().is_empty() && !CODE_FRAME.is_match(line);
    if let Some(at) = before.iter().rposition(|line| ERROR_LINE.is_match(line)) {
        let lines: Vec<&str> = before[at..]
            .iter()
            .take_while(|line| !CODE_FRAME.is_match(line))
            .filter(|line| text(line))
            .take(6)
            .map(|line| line.trim())
            .collect();
        return lines.join("\n");
    }
    let mut message: Vec<&str> = before
        .iter()
        .rev()
        .skip_while(|line| !text(line))
        .take_while(|line| text(line))
        .take(4)
        .map(|line| line.trim())
        .collect();
    message.reverse();
    message.join("\n")
}

fn frame_failures(lines: &[&str], map: &PathMap) -> Vec<Problem> {
    let mut problems: Vec<Problem> = Vec::new();
    let mut index = 0;
    // Where the output since the last failure's frames starts.
    let mut since = 0;
    while index < lines.len() {
        if !AT_FRAME.is_match(lines[index]) {
            index += 1;
            continue;
        }
        let first = index;
        while index < lines.len() && AT_FRAME.is_match(lines[index]) {
            index += 1;
        }
        let before = &lines[since..first];
        since = index;
        let Some(place) = first_workspace_frame(lines[first..index].iter().copied(), map) else { continue };
        let problem = placed(Some(place), message_before(before));
        if !problems.iter().any(|p| p.place == problem.place && p.message == problem.message) {
            problems.push(problem);
        }
    }
    problems
}

/// The test failures in a JavaScript test runner's output.
pub fn parse(text: &str, map: &PathMap) -> Vec<Problem> {
    let lines: Vec<&str> = text.lines().collect();
    let tap = tap_failures(&lines, map);
    if !tap.is_empty() { tap } else { frame_failures(&lines, map) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn map() -> PathMap {
        PathMap::new(Path::new("/p"), Path::new("/u"), ["src/sum.test.ts".to_owned()].into())
    }

    #[test]
    fn jest_style_frames_are_placed_and_node_modules_skipped() {
        let text = "  ● sum › adds\n\n    expect(received).toBe(expected)\n    Expected: 5\n    Received: -1\n\n      at Object.toBe (/p/node_modules/expect/build/index.js:10:3)\n      at Object.<anonymous> (/p/src/sum.test.ts:6:22)\n";
        let problems = parse(text, &map());
        assert_eq!(problems.len(), 1);
        let place = problems[0].place.as_ref().unwrap();
        assert_eq!((place.path.as_str(), place.start), ("src/sum.test.ts", Spot { line: 5, column: 21 }));
        assert!(problems[0].message.contains("Received: -1"));
    }

    #[test]
    fn the_message_is_the_assertion_not_the_code_frame_around_it() {
        // Jest's default output draws the failing line between the message and the frames.
        let jest = "  ● sum › adds\n\n    expect(received).toBe(expected) // Object.is equality\n\n    Expected: 5\n    Received: -1\n\n      4 | test('adds', () => {\n      5 |   const total = sum(2, 3);\n    > 6 |   expect(total).toBe(5);\n        |                 ^\n      7 | });\n\n      at Object.toBe (/p/src/sum.test.ts:6:22)\n";
        let problems = parse(jest, &map());
        assert_eq!(problems.len(), 1);
        assert_eq!(
            problems[0].message,
            "expect(received).toBe(expected) // Object.is equality\nExpected: 5\nReceived: -1"
        );
        // Vitest marks its frames with ❯ and draws the code frame after them.
        let vitest = " FAIL  src/sum.test.ts > adds\nAssertionError: expected -1 to be 5 // Object.is equality\n\n- Expected\n+ Received\n\n- 5\n+ -1\n\n ❯ src/sum.test.ts:6:17\n      4| test('adds', () => {\n      6|   expect(total).toBe(5)\n       |                 ^\n\n FAIL  src/sum.test.ts > subtracts\nTypeError: sub is not a function\n ❯ src/sum.test.ts:10:3\n";
        let problems = parse(vitest, &map());
        assert_eq!(problems.len(), 2, "{problems:?}");
        let place = problems[0].place.as_ref().unwrap();
        assert_eq!((place.path.as_str(), place.start), ("src/sum.test.ts", Spot { line: 5, column: 16 }));
        assert!(problems[0].message.starts_with("AssertionError: expected -1 to be 5"), "{}", problems[0].message);
        assert!(problems[0].message.ends_with("+ -1"), "{}", problems[0].message);
        assert_eq!(problems[1].message, "TypeError: sub is not a function");
    }

    #[test]
    fn frames_in_folders_with_parentheses_or_spaces_are_placed() {
        let files = ["app/(auth)/login.test.ts".to_owned(), "my tests/sum.test.js".to_owned()];
        let map = PathMap::new(Path::new("/p"), Path::new("/u"), files.into());
        for (frame, path, line) in [
            ("    at Object.<anonymous> (/p/app/(auth)/login.test.ts:3:5)", "app/(auth)/login.test.ts", 2),
            ("    at /p/app/(auth)/login.test.ts:4:1", "app/(auth)/login.test.ts", 3),
            ("    at TestContext.<anonymous> (file:///p/my%20tests/sum.test.js:7:9)", "my tests/sum.test.js", 6),
            ("    at run (my tests/sum.test.js:8:2)", "my tests/sum.test.js", 7),
        ] {
            let text = format!("Error: expected 2\n{frame}\n");
            let problems = parse(&text, &map);
            let place = problems[0].place.as_ref().unwrap_or_else(|| panic!("{frame}: {problems:?}"));
            assert_eq!((place.path.as_str(), place.start.line), (path, line), "{frame}");
        }
    }

    #[test]
    fn tap_failures_without_blocks_or_frames_are_kept() {
        let text = "not ok 1 - lonely\nnot ok 2 - elsewhere\n  ---\n  error: 'x'\n  stack: |-\n    fn (node:internal/x:1:1)\n  ...\n";
        let problems = parse(text, &map());
        assert_eq!(problems.len(), 2);
        assert!(problems.iter().all(|p| p.place.is_none()));
        assert_eq!(problems[1].message, "test `elsewhere` failed: x");
    }

    #[test]
    fn malformed_output_does_not_panic() {
        for text in [
            "not ok 1 - a\n  ---\n",
            "not ok 1 - a\n  ---\n  error: |-\n",
            "    at (",
            "    at x (/p/src/sum.test.ts:99999999999:1)",
            "not ok 1 - \u{e9}\n  ---\n  error: |-\n\u{e9}\n",
        ] {
            let _ = parse(text, &map());
        }
    }
}
