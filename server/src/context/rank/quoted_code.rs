//! Files holding lines of code the issue's code blocks quote: the code the reporter pasted,
//! usually to show what to change. They count with the files the issue names by path.

use std::collections::HashMap;

use super::Signal;
use super::messages::holding_the_rarest;
use crate::context::index::IndexedFile;
use crate::context::issue::{IssueQuery, MIN_QUOTED_LEN, normalised_line};
use crate::context::terms;

/// What a file holding the issue's quoted lines counts for, at most: as much as a file the
/// issue names by path. It is reached by holding eight of them, or all of fewer.
const QUOTED_CODE_WEIGHT: f64 = 1.0;
/// How many quoted lines a file must hold to count in full (all of them, when fewer).
const FULL_MARKS_LINES: usize = 8;
/// A line whose rarest word is in more files than this is not looked for.
const MAX_CANDIDATES: usize = 200;

/// Files holding, whitespace aside, lines the issue's code blocks quote; each line counts
/// less the more files hold it. Only files holding the line's rarest word are read.
pub(super) fn quoted_code_signal(
    files: &[&IndexedFile],
    query: &IssueQuery,
    read: &dyn Fn(&str) -> Option<String>,
    signal: &mut Signal,
) {
    if query.code_lines.is_empty() {
        return;
    }
    let mut lines_of: HashMap<usize, Option<HashMap<String, u32>>> = HashMap::new();
    let mut found: HashMap<usize, (f64, u32, u32)> = HashMap::new();
    for quoted in &query.code_lines {
        let mut keys: Vec<String> = terms::identifiers(quoted).flat_map(terms::split_identifier).collect();
        keys.retain(|key| key.len() > 2 && !terms::is_stopword(key));
        keys.sort();
        keys.dedup();
        let Some(candidates) = holding_the_rarest(files, &keys, MAX_CANDIDATES) else { continue };
        let holding: Vec<(usize, u32)> = candidates
            .into_iter()
            .filter_map(|i| {
                let lines = lines_of.entry(i).or_insert_with(|| read(&files[i].path).map(|text| normalised(&text)));
                lines.as_ref()?.get(quoted).map(|line| (i, *line))
            })
            .collect();
        let specificity = 1.0 / (1.0 + (holding.len() as f64).ln());
        for (i, line) in holding {
            let entry = found.entry(i).or_insert((0.0, 0, line));
            entry.0 += specificity;
            entry.1 += 1;
        }
    }
    let most = query.code_lines.len().min(FULL_MARKS_LINES) as f64;
    let mut found: Vec<_> = found.into_iter().collect();
    found.sort_by_key(|(i, _)| *i);
    for (i, (value, count, line)) in found {
        signal.add_at(i, QUOTED_CODE_WEIGHT * (value / most).min(1.0), line, || {
            format!("holds {count} line(s) of code the issue quotes")
        });
    }
}

/// Each line of `text`, whitespace collapsed, with its first line number (1-based).
fn normalised(text: &str) -> HashMap<String, u32> {
    let mut lines = HashMap::new();
    for (at, line) in text.lines().enumerate() {
        let normal = normalised_line(line);
        if normal.len() >= MIN_QUOTED_LEN {
            lines.entry(normal).or_insert(at as u32 + 1);
        }
    }
    lines
}
