//! Tool output to problems: one parser per output format, all mapping the paths they find
//! back to workspace files through a [`PathMap`].

mod cargo_test;
mod gradle;
mod javac;
mod js;
mod junit;
mod matcher;
mod maven;
mod paths;
mod rustc;
#[cfg(test)]
mod samples;
mod tsc;

pub use matcher::{MatcherError, ProblemMatcher};
pub use paths::{Located, PathMap};

use super::problem::{ColumnUnit, Place, Problem, Severity, Spot};

/// An output format issuewright reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Format {
    /// cargo's `--message-format=json` lines.
    RustcJson,
    /// `cargo test`'s panics.
    CargoTest,
    /// javac.
    Javac,
    /// Maven's compiler plugin.
    Maven,
    /// Surefire's console summary.
    MavenTests,
    /// Gradle (javac, Kotlin, test failures).
    Gradle,
    /// tsc.
    Tsc,
    /// JavaScript test runners.
    JsTests,
}

impl Format {
    /// Every format, for commands whose output is not known in advance.
    pub const ALL: [Format; 8] = [
        Format::RustcJson,
        Format::CargoTest,
        Format::Javac,
        Format::Maven,
        Format::MavenTests,
        Format::Gradle,
        Format::Tsc,
        Format::JsTests,
    ];

    fn parse(self, text: &str, map: &PathMap) -> Vec<Problem> {
        match self {
            Format::RustcJson => rustc::parse(text, map),
            Format::CargoTest => cargo_test::parse(text, map),
            Format::Javac => javac::parse(text, map, "javac"),
            Format::Maven => maven::parse(text, map),
            Format::MavenTests => maven::parse_tests(text, map),
            Format::Gradle => gradle::parse(text, map),
            Format::Tsc => tsc::parse(text, map),
            Format::JsTests => js::parse(text, map),
        }
    }
}

/// The problems in `text` (ANSI escapes already removed) by `formats` and the matcher,
/// without duplicates.
pub fn parse(text: &str, formats: &[Format], matcher: Option<&ProblemMatcher>, map: &PathMap) -> Vec<Problem> {
    let mut problems: Vec<Problem> = formats.iter().flat_map(|format| format.parse(text, map)).collect();
    if let Some(matcher) = matcher {
        problems.extend(matcher.parse(text, map));
    }
    dedupe(problems)
}

/// The failures in a JUnit XML report; `source` names the build tool that wrote it.
pub fn parse_junit(xml: &str, map: &PathMap, source: &str) -> Result<Vec<Problem>, String> {
    junit::parse(xml, map, source)
}

/// Drops repeated problems (a warning reported for the library and its tests, or a
/// compiler list printed twice), keeping the first.
pub fn dedupe(problems: Vec<Problem>) -> Vec<Problem> {
    let mut seen = std::collections::HashSet::new();
    problems
        .into_iter()
        .filter(|problem| {
            // The source is left out: javac's lines read as javac and as Gradle are one problem.
            seen.insert((
                problem.place.clone(),
                problem.elsewhere.clone(),
                problem.severity,
                problem.code.clone(),
                problem.message.clone(),
            ))
        })
        .collect()
}

/// A problem at `raw_path` as the tool printed it: placed when that is a workspace file,
/// else kept with the printed location.
#[allow(clippy::too_many_arguments)]
fn at(
    map: &PathMap,
    raw_path: &str,
    start: Spot,
    end: Spot,
    unit: ColumnUnit,
    severity: Severity,
    source: &str,
    message: String,
) -> Problem {
    at_located(map.locate(raw_path), start, end, unit, severity, source, message)
}

/// [`at`], for a path already located.
fn at_located(
    located: Located,
    start: Spot,
    end: Spot,
    unit: ColumnUnit,
    severity: Severity,
    source: &str,
    message: String,
) -> Problem {
    match located {
        Located::Workspace(path) => Problem::at(Place { path, start, end }, unit, severity, source, message),
        Located::Elsewhere(printed) => Problem {
            elsewhere: Some(format!("{printed}:{}:{}", start.line + 1, start.column + 1)),
            ..Problem::unplaced(severity, source, message)
        },
    }
}

/// An error at a 1-based `line` of the one workspace file ending with `suffix` (how Java
/// test reports name files), else unplaced with the printed name.
fn located_by_suffix(map: &PathMap, suffix: &str, line: u32, source: &str, message: String) -> Problem {
    let start = Spot::one_based(line, 1);
    match map.by_suffix(suffix) {
        Some(path) => {
            Problem::at(Place { path, start, end: start }, ColumnUnit::Chars, Severity::Error, source, message)
        }
        None => Problem {
            elsewhere: Some(format!("{suffix}:{line}")),
            ..Problem::unplaced(Severity::Error, source, message)
        },
    }
}
