//! Files holding in a string an error message the issue quotes (the code that raises it),
//! which count with the files the issue names by path.

use std::collections::HashMap;

use super::Signal;
use crate::context::index::IndexedFile;
use crate::context::issue::IssueQuery;
use crate::context::terms;

/// A file holding an error message the issue quotes counts as much as one the issue names.
const MESSAGE_WEIGHT: f64 = 1.0;
/// A message whose rarest word is in more files than this is not looked for in them.
const MAX_MESSAGE_CANDIDATES: usize = 300;

/// Files that hold, in a string, a run of an error message the issue quotes: the code that
/// raises it. Only files holding the run's rarest word are read, with `read` (each once).
pub(super) fn message_signal(
    files: &[&IndexedFile],
    query: &IssueQuery,
    read: &dyn Fn(&str) -> Option<String>,
    signal: &mut Signal,
) {
    let mut texts: HashMap<usize, Option<String>> = HashMap::new();
    for message in &query.messages {
        // The index's words are lower-cased ASCII, split from identifiers: only such words key.
        let words = message.split(' ').filter(|w| w.len() > 1 && w.chars().all(|c| c.is_ascii_alphabetic()));
        let mut keys: Vec<String> = words.map(str::to_ascii_lowercase).filter(|w| !terms::is_stopword(w)).collect();
        keys.sort();
        keys.dedup();
        let Some(candidates) = holding_the_rarest(files, &keys, MAX_MESSAGE_CANDIDATES) else { continue };
        let Some(pattern) = message_pattern(message) else { continue };
        let holding: Vec<(usize, u32)> = candidates
            .into_iter()
            .filter_map(|i| {
                let text = texts.entry(i).or_insert_with(|| read(&files[i].path)).as_deref()?;
                let at = in_a_string(text, &pattern)?;
                Some((i, text[..at].matches('\n').count() as u32 + 1))
            })
            .collect();
        if holding.is_empty() {
            continue;
        }
        let specificity = 1.0 / (1.0 + (holding.len() as f64).ln());
        let shown: String = message.chars().take(60).collect();
        let cut = if shown.len() < message.len() { "..." } else { "" };
        for (i, line) in holding {
            signal.add_at(i, MESSAGE_WEIGHT * specificity, line, || {
                format!("holds the message \"{shown}{cut}\" the issue quotes")
            });
        }
    }
}

/// The files holding the rarest of `keys` (words as the index keeps them), when some do and
/// no more than `most`: the few files worth reading for a run of text holding all of them.
pub(super) fn holding_the_rarest(files: &[&IndexedFile], keys: &[String], most: usize) -> Option<Vec<usize>> {
    keys.iter()
        .map(|key| (0..files.len()).filter(|&i| files[i].terms.count(key) > 0).collect::<Vec<usize>>())
        .min_by_key(Vec::len)
        .filter(|holding| !holding.is_empty() && holding.len() <= most)
}

/// How a message's words may stand apart in source: spaces and line breaks, a Rust string's
/// line continuation (`happens \` then `because`), and a string concatenated over lines
/// (`"... happens " +` then `"because ..."`).
const MESSAGE_GAP: &str = r#"(?:\s|\\|["'`]\s*\+\s*["'`])+"#;

/// A pattern that finds `message` in source however its words are spread over lines.
fn message_pattern(message: &str) -> Option<regex::Regex> {
    let words: Vec<String> = message.split_whitespace().map(regex::escape).collect();
    regex::Regex::new(&words.join(MESSAGE_GAP)).ok()
}

/// Where `text` first holds `message` (as [`message_pattern`] finds it) inside a string: on a
/// line that is not a comment, after a quote (`"`, `'` or a backtick) that opens a literal. A
/// doc comment that speaks of the message is not the code that raises it; an attribute that
/// holds it (`#[error("...")]`) is.
fn in_a_string(text: &str, message: &regex::Regex) -> Option<usize> {
    message.find_iter(text).map(|found| found.start()).find(|&at| {
        let line_start = text[..at].rfind('\n').map_or(0, |newline| newline + 1);
        let before = &text[line_start..at];
        let trimmed = before.trim_start();
        let attribute = trimmed.starts_with("#[") || trimmed.starts_with("#![");
        let comment = ["//", "/*", "*", "#"].iter().any(|start| trimmed.starts_with(start)) && !attribute;
        let opened = |quote: char| before.chars().filter(|c| *c == quote).count() % 2 == 1;
        !comment && (opened('"') || opened('\'') || opened('`'))
    })
}
