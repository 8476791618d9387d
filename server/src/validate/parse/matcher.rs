//! The configured `problem_matcher`: a regex with named groups for tools issuewright does not know.

use regex::{Regex, RegexBuilder};

use super::at;
use super::paths::PathMap;
use crate::validate::problem::{ColumnUnit, Problem, Severity, Spot};

/// A compiled problem matcher.
#[derive(Debug, Clone)]
pub struct ProblemMatcher {
    regex: Regex,
}

/// Why a problem matcher is not usable.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MatcherError {
    /// Not a valid regex.
    #[error("`[validate] problem_matcher` is not a valid regex: {0}")]
    Syntax(String),
    /// A required group is missing.
    #[error(
        "`[validate] problem_matcher` needs named groups `file` and `line` (optional: `column`, `severity`, `code`, `message`), e.g. `^(?P<file>[^:]+):(?P<line>\\d+): (?P<message>.*)$`"
    )]
    MissingGroup,
}

impl ProblemMatcher {
    /// Compiles `pattern`; `^` and `$` match at line boundaries.
    pub fn new(pattern: &str) -> Result<Self, MatcherError> {
        let regex = RegexBuilder::new(pattern)
            .multi_line(true)
            .size_limit(1 << 20)
            .build()
            .map_err(|error| MatcherError::Syntax(error.to_string()))?;
        let names: Vec<&str> = regex.capture_names().flatten().collect();
        if !names.contains(&"file") || !names.contains(&"line") {
            return Err(MatcherError::MissingGroup);
        }
        Ok(Self { regex })
    }

    /// The problems the matcher finds in `text`.
    pub fn parse(&self, text: &str, map: &PathMap) -> Vec<Problem> {
        self.regex
            .captures_iter(text)
            .filter_map(|captures| {
                let line: u32 = captures.name("line")?.as_str().trim().parse().ok()?;
                let column: u32 = captures.name("column").and_then(|c| c.as_str().trim().parse().ok()).unwrap_or(1);
                let severity = match captures.name("severity").map(|s| s.as_str().to_ascii_lowercase()) {
                    Some(word) if word.starts_with("warn") => Severity::Warning,
                    Some(word) if word.starts_with("info") || word.starts_with("note") => Severity::Info,
                    Some(word) if word.starts_with("hint") => Severity::Hint,
                    _ => Severity::Error,
                };
                let message = captures
                    .name("message")
                    .map_or_else(|| captures[0].trim().to_owned(), |m| m.as_str().trim().to_owned());
                let spot = Spot::one_based(line, column);
                let mut problem = at(
                    map,
                    captures.name("file")?.as_str(),
                    spot,
                    spot,
                    ColumnUnit::Chars,
                    severity,
                    "problem_matcher",
                    message,
                );
                problem.code = captures.name("code").map(|c| c.as_str().to_owned());
                Some(problem)
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    #[test]
    fn named_groups_become_problems() {
        let matcher = ProblemMatcher::new(
            r"^(?P<file>\S+):(?P<line>\d+):(?P<column>\d+): (?P<severity>\w+) (?P<code>\w+) (?P<message>.*)$",
        )
        .unwrap();
        let map = PathMap::new(Path::new("/t"), Path::new("/u"), ["lib/a.py".to_owned()].into());
        let problems = matcher.parse("lib/a.py:3:7: warning W0612 unused variable\nnoise\n", &map);
        assert_eq!(problems.len(), 1);
        assert_eq!(problems[0].severity, Severity::Warning);
        assert_eq!(problems[0].code.as_deref(), Some("W0612"));
        assert_eq!(problems[0].place.as_ref().unwrap().start, Spot { line: 2, column: 6 });
    }

    #[test]
    fn bad_patterns_are_refused_with_the_reason() {
        assert!(matches!(ProblemMatcher::new("(unclosed"), Err(MatcherError::Syntax(_))));
        assert_eq!(ProblemMatcher::new(r"(?P<file>\S+)").unwrap_err(), MatcherError::MissingGroup);
        let matcher = ProblemMatcher::new(r"(?P<file>\S+):(?P<line>\S+)").unwrap();
        let map = PathMap::new(Path::new("/t"), Path::new("/u"), Default::default());
        assert!(matcher.parse("a:b c:99999999999999", &map).is_empty(), "unparseable lines are skipped");
    }
}
