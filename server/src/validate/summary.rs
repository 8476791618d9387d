//! The model's view of a validation: what ran and how it ended, the count of problems by
//! file, and the first errors with the lines around them, within a fixed size.

use std::collections::BTreeMap;
use std::fmt::Write;
use std::path::Path;
use std::time::Duration;

use super::problem::{Problem, Severity, chars_before};
use super::{Kind, Report};
use crate::workspace::{WorkspacePath, cut_head_tail};

/// Errors shown in full.
const MAX_ERRORS_SHOWN: usize = 8;
/// Warnings shown in full when there is room.
const MAX_WARNINGS_SHOWN: usize = 3;
/// Longest summary, in characters.
const MAX_SUMMARY_CHARS: usize = 8_000;
/// Files named in the first line, with their counts.
const MAX_FILES_LISTED: usize = 10;
/// Output shown when no error could be read from it.
const MAX_RAW_CHARS: usize = 4_000;

fn plural(count: usize, word: &str) -> String {
    if count == 1 { format!("1 {word}") } else { format!("{count} {word}s") }
}

fn counts(errors: usize, warnings: usize) -> String {
    match (errors, warnings) {
        (0, 0) => "no problems".into(),
        (e, 0) => plural(e, "error"),
        (0, w) => plural(w, "warning"),
        (e, w) => format!("{} and {}", plural(e, "error"), plural(w, "warning")),
    }
}

/// The first line of the account: the command and its verdict.
fn headline(report: &Report, timeout: Duration) -> String {
    let command = report.command.as_deref().unwrap_or("?");
    let what = match report.kind {
        Kind::Check => "check",
        Kind::Test => "tests",
    };
    let (errors, warnings) = (report.errors(), report.warnings());
    if report.timed_out {
        return format!("The {what} `{command}` did not finish within {} s and was stopped.", timeout.as_secs());
    }
    if report.cancelled {
        return format!("The {what} `{command}` was cancelled.");
    }
    if report.passed {
        return format!("The {what} `{command}` passed ({}).", counts(errors, warnings));
    }
    let mut by_file: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    for problem in &report.problems {
        let file = problem.place.as_ref().map_or("(no file)", |p| p.path.as_str());
        let entry = by_file.entry(file).or_default();
        match problem.severity {
            Severity::Error => entry.0 += 1,
            Severity::Warning => entry.1 += 1,
            _ => {}
        }
    }
    let mut by_count: Vec<(&str, (usize, usize))> = by_file.into_iter().filter(|(_, (e, w))| e + w > 0).collect();
    // The files with the most errors first; a change that breaks hundreds names ten of them.
    by_count.sort_by_key(|(file, (e, w))| (std::cmp::Reverse(*e), std::cmp::Reverse(*w), *file));
    let mut files: Vec<String> =
        by_count.iter().take(MAX_FILES_LISTED).map(|(file, (e, w))| format!("{file}: {}", counts(*e, *w))).collect();
    if by_count.len() > MAX_FILES_LISTED {
        files.push(format!("and {} more files", by_count.len() - MAX_FILES_LISTED));
    }
    let status = report.status.map_or("no exit status".to_owned(), |s| format!("exit status {s}"));
    if files.is_empty() {
        format!("The {what} `{command}` failed ({status}).")
    } else {
        format!("The {what} `{command}` failed ({status}) with {}: {}.", counts(errors, warnings), files.join("; "))
    }
}

/// The lines around a problem, numbered, with a caret under its column, and that column as a
/// count of characters (the tool's may count tab stops or UTF-16 units). The problem's file
/// is in `tree`, below its folder `below`.
fn excerpt(problem: &Problem, tree: &Path, below: &str) -> Option<(String, usize)> {
    let place = problem.place.as_ref()?;
    let path = match below {
        "" => place.path.clone(),
        below => WorkspacePath::parse(place.path.as_str().strip_prefix(below)?.strip_prefix('/')?).ok()?,
    };
    // A linter may point into `.env`, or into a file linked to it: its lines are not shown to
    // the model, nor those of a file whose link leads out of the tree.
    let root = crate::workspace::Root::new(tree).ok()?;
    if root.names_secrets(&path) || root.real_relative(&path).is_err() {
        return None;
    }
    let text = std::fs::read_to_string(tree.join(path.as_str())).ok()?;
    let lines: Vec<&str> = text.lines().collect();
    let line = place.start.line as usize;
    if line >= lines.len() {
        return None;
    }
    let first = line.saturating_sub(1);
    let last = (line + 1).min(lines.len() - 1);
    let width = (last + 1).to_string().len();
    let column = chars_before(lines[line].chars(), place.start.column, problem.unit);
    let mut out = String::new();
    for (index, content) in lines.iter().enumerate().take(last + 1).skip(first) {
        let shown: String = content.chars().take(200).collect();
        let _ = writeln!(out, "{:>width$} | {shown}", index + 1);
        if index == line {
            let pad: String = content.chars().take(column).map(|c| if c == '\t' { '\t' } else { ' ' }).collect();
            let _ = writeln!(out, "{:>width$} | {pad}^", "");
        }
    }
    Some((out, column))
}

fn describe(problem: &Problem, tree: &Path, below: &str) -> String {
    let severity = match problem.severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "note",
        Severity::Hint => "hint",
    };
    let code = problem.code.as_deref().map(|c| format!("[{c}]")).unwrap_or_default();
    let excerpt = excerpt(problem, tree, below);
    let place = match (&problem.place, &problem.elsewhere) {
        // The column the model reads is a count of characters, whatever the tool counted.
        (Some(place), _) => {
            let column = excerpt.as_ref().map_or(place.start.column as usize, |(_, column)| *column);
            format!(" at {}:{}:{}", place.path, place.start.line + 1, column + 1)
        }
        (None, Some(elsewhere)) => format!(" at {elsewhere}"),
        (None, None) => String::new(),
    };
    let mut out = format!("{severity}{code}{place}: {}\n", problem.message.trim_end());
    if let Some((excerpt, _)) = excerpt {
        out.push_str(&excerpt);
    }
    for related in problem.related.iter().take(3) {
        let at = &related.place;
        let _ = writeln!(out, "  see {}:{}:{}: {}", at.path, at.start.line + 1, at.start.column + 1, related.message);
    }
    for fix in problem.replacements.iter().take(2) {
        let at = &fix.place;
        let _ = writeln!(
            out,
            "  suggested fix at {}:{}:{}-{}:{}: `{}`",
            at.path,
            at.start.line + 1,
            at.start.column + 1,
            at.end.line + 1,
            at.end.column + 1,
            fix.text
        );
    }
    out
}

/// The account of `report` for the model; source lines come from the shadow `tree`, which
/// holds the workspace's folder `below` (empty: the workspace itself).
pub fn for_model(report: &Report, tree: &Path, below: &str, timeout: Duration) -> String {
    let mut out = headline(report, timeout);
    out.push('\n');
    let errors: Vec<&Problem> = report.problems.iter().filter(|p| p.severity == Severity::Error).collect();
    let warnings: Vec<&Problem> = report.problems.iter().filter(|p| p.severity == Severity::Warning).collect();
    let mut shown = 0;
    for problem in errors.iter().take(MAX_ERRORS_SHOWN) {
        let mut part = describe(problem, tree, below);
        if shown == 0 && out.len() + part.len() > MAX_SUMMARY_CHARS {
            // The first error is always shown, cut if need be (a panic with long captured output).
            part = cut_head_tail(&part, MAX_SUMMARY_CHARS.saturating_sub(out.len() + 200));
        }
        if shown > 0 && out.len() + part.len() > MAX_SUMMARY_CHARS {
            break;
        }
        out.push('\n');
        out.push_str(&part);
        shown += 1;
    }
    if errors.len() > shown {
        let _ = writeln!(out, "\n... and {} more.", plural(errors.len() - shown, "error"));
    }
    if shown < MAX_ERRORS_SHOWN && !report.passed {
        for problem in warnings.iter().take(MAX_WARNINGS_SHOWN) {
            let part = describe(problem, tree, below);
            if out.len() + part.len() > MAX_SUMMARY_CHARS {
                break;
            }
            out.push('\n');
            out.push_str(&part);
        }
    }
    if let Some(raw) = &report.unparsed {
        let _ = write!(
            out,
            "\nNo error could be read from the output; here it is:\n{}\n",
            cut_head_tail(raw.trim(), MAX_RAW_CHARS)
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::validate::problem::Problem;

    #[test]
    fn lines_of_credential_files_are_not_quoted() {
        let tree = crate::testing::tempdir();
        std::fs::write(tree.path().join(".env"), "DB_PASSWORD=hunter2hunter2\n").unwrap();
        let place = crate::validate::Place {
            path: crate::workspace::WorkspacePath::parse(".env").unwrap(),
            start: crate::validate::Spot { line: 0, column: 0 },
            end: crate::validate::Spot { line: 0, column: 1 },
        };
        let problem =
            Problem::at(place, crate::validate::ColumnUnit::Chars, Severity::Error, "lint", "unquoted value".into());
        let summary = describe(&problem, tree.path(), "");
        assert!(summary.contains("error at .env:1:1: unquoted value"), "{summary}");
        assert!(!summary.contains("hunter2"), "{summary}");

        // A compiled file that is a link to it, or to a file outside the tree.
        #[cfg(unix)]
        {
            std::fs::create_dir_all(tree.path().join("src")).unwrap();
            std::os::unix::fs::symlink("../.env", tree.path().join("src/env.ts")).unwrap();
            let outside = crate::testing::tempdir();
            std::fs::write(outside.path().join("settings.ts"), "export const key = 'hunter2hunter2';\n").unwrap();
            std::os::unix::fs::symlink(outside.path().join("settings.ts"), tree.path().join("src/settings.ts"))
                .unwrap();
            std::fs::write(tree.path().join("src/app.ts"), "export const hunter = 2;\n").unwrap();
            for (path, shown) in [("src/env.ts", false), ("src/settings.ts", false), ("src/app.ts", true)] {
                let mut problem = problem.clone();
                problem.place.as_mut().unwrap().path = crate::workspace::WorkspacePath::parse(path).unwrap();
                let summary = describe(&problem, tree.path(), "");
                assert!(summary.contains(&format!("error at {path}:1:1")), "{summary}");
                assert_eq!(summary.contains("hunter"), shown, "{path}: {summary}");
            }
        }
    }

    #[test]
    fn the_column_and_caret_the_model_reads_count_characters_whatever_the_tool_counted() {
        let tree = crate::testing::tempdir();
        std::fs::write(tree.path().join("App.java"), "class App {\n\t\treturn x;\n}\n").unwrap();
        // Maven counts tab stops: `x` is its column 23 (0-based), the line's character 9.
        let at = |column| crate::validate::Place {
            path: crate::workspace::WorkspacePath::parse("App.java").unwrap(),
            start: crate::validate::Spot { line: 1, column },
            end: crate::validate::Spot { line: 1, column: column + 1 },
        };
        let unit = crate::validate::ColumnUnit::TabStops8;
        let problem = Problem::at(at(23), unit, Severity::Error, "maven", "cannot find symbol".into());
        let summary = describe(&problem, tree.path(), "");
        assert!(summary.contains("error at App.java:2:10: cannot find symbol"), "{summary}");
        assert!(summary.contains("2 | \t\treturn x;\n  | \t\t       ^\n"), "{summary}");
    }

    /// A run of `command` that failed with `status` and `problems`.
    fn failed(kind: Kind, command: &str, status: i32, problems: Vec<Problem>) -> Report {
        Report {
            command: Some(command.into()),
            status: Some(status),
            problems,
            not_run: None,
            summary: String::new(),
            ..Report::nothing(kind, String::new())
        }
    }

    #[test]
    fn a_very_long_first_error_is_cut_not_hidden() {
        let captured =
            format!("thread 'counts' panicked\n{}\nassertion failed: left == right", "log line\n".repeat(5_000));
        let report = failed(Kind::Test, "cargo test", 101, vec![Problem::unplaced(Severity::Error, "cargo", captured)]);
        let summary = for_model(&report, Path::new("/nonexistent"), "", Duration::from_secs(60));
        assert!(summary.contains("thread 'counts' panicked"), "{summary}");
        assert!(summary.contains("assertion failed: left == right"));
        assert!(summary.contains(" lines (") && summary.contains("characters) cut"), "{summary}");
        assert!(!summary.contains("more error"));
        assert!(summary.chars().count() <= MAX_SUMMARY_CHARS + 100, "{}", summary.len());
    }

    #[test]
    fn a_change_that_breaks_hundreds_of_files_still_shows_the_first_error() {
        let problems: Vec<Problem> = (0..400)
            .map(|file| {
                let place = crate::validate::Place {
                    path: crate::workspace::WorkspacePath::parse(&format!(
                        "packages/frontend/src/components/widgets/generated/component_{file:03}.ts"
                    ))
                    .unwrap(),
                    start: crate::validate::Spot { line: 0, column: 0 },
                    end: crate::validate::Spot { line: 0, column: 1 },
                };
                let message = format!("Property 'renamedField' does not exist on type 'Widget' (file {file})");
                Problem::at(place, crate::validate::ColumnUnit::Chars, Severity::Error, "tsc", message)
            })
            .collect();
        let report = failed(Kind::Check, "tsc --noEmit", 2, problems);
        let summary = for_model(&report, Path::new("/nonexistent"), "", Duration::from_secs(60));
        assert!(summary.chars().count() <= MAX_SUMMARY_CHARS + 100, "{} characters", summary.len());
        assert!(summary.contains("400 errors"), "{summary}");
        assert!(summary.contains("and 390 more files"), "{summary}");
        assert!(
            summary.contains("error at packages/frontend/src/components/widgets/generated/component_000.ts:1:1: Property 'renamedField' does not exist on type 'Widget' (file 0)"),
            "{summary}"
        );
    }
}
