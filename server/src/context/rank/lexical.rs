//! The lexical signal: BM25 of the issue's words against each file's words and path, and of
//! the short forms Rust code writes for them.

use rustc_hash::FxHashMap;

use super::{SHARED_WORDS, SHORT_FORM_SHARE, Signal};
use crate::context::index::IndexedFile;
use crate::context::issue::IssueQuery;
use crate::context::language::Language;
use crate::context::terms;

/// BM25 parameters (the usual ones).
const K1: f64 = 1.2;
const B: f64 = 0.75;
/// Path words count this many times in a file's document.
const PATH_BOOST: u32 = 3;

/// One of the words a file is scored on: an issue's word, or a short form of one.
struct Term<'q> {
    word: &'q str,
    weight: f64,
    /// The issue's word it is a short form of.
    short_for: Option<&'q str>,
}

impl Term<'_> {
    /// How a file's reason gives it: `opts (options)` for a short form.
    fn said(&self) -> String {
        match self.short_for {
            Some(word) => format!("{} ({word})", self.word),
            None => self.word.to_owned(),
        }
    }
}

/// The issue's words, then the short forms Rust code writes for them that the issue does not
/// give itself, each at [`SHORT_FORM_SHARE`] of its word's weight and with its own document
/// frequency: a short form common in the workspace (tokio's `attr` of every `cfg_attr`)
/// leaves its word as telling as it was.
fn with_short_forms(given: &[(String, f64)]) -> Vec<Term<'_>> {
    let mut terms: Vec<Term<'_>> =
        given.iter().map(|(word, weight)| Term { word, weight: *weight, short_for: None }).collect();
    for (word, weight) in given {
        for form in terms::short_forms(word) {
            if !terms.iter().any(|term| term.word == *form) {
                terms.push(Term { word: form, weight: weight * SHORT_FORM_SHARE, short_for: Some(word) });
            }
        }
    }
    terms
}

/// The words of a path, for its document.
fn path_words(path: &str) -> Vec<String> {
    terms::words(path.trim_end_matches(|c: char| c != '.').trim_end_matches('.'))
}

/// The BM25 signal of `files` for the issue's terms, and the terms each file shares with what
/// each adds, the most first ([`SHARED_WORDS`] at most).
pub(super) fn lexical_signal(files: &[&IndexedFile], query: &IssueQuery) -> (Signal, Vec<Vec<(String, f64)>>) {
    let n = files.len();
    let path_terms: Vec<Vec<String>> = files.iter().map(|f| path_words(&f.path)).collect();
    let given = query.terms.len();
    let terms = with_short_forms(&query.terms);
    // Where each of the issue's words stands among its terms (a word given twice, at both).
    let mut places: FxHashMap<&str, Vec<usize>> = FxHashMap::default();
    for (at, term) in terms.iter().enumerate() {
        places.entry(term.word).or_default().push(at);
    }
    // Each file's frequency of each of the issue's words it holds, in the issue's order: one
    // pass over the file's words rather than a search for each of the issue's.
    let mut document_frequency = vec![0usize; terms.len()];
    let frequencies: Vec<Vec<(usize, f64)>> = (0..n)
        .map(|i| {
            let mut found: FxHashMap<usize, u32> = FxHashMap::default();
            // Only Rust code is read for short forms: Java and scripts spell words out, and
            // their short forms matched there more namesakes than the issue meant.
            let read = |at: &&usize| **at < given || files[i].language == Language::Rust;
            for (word, count) in files[i].terms.iter() {
                for at in places.get(word).into_iter().flatten().filter(read) {
                    *found.entry(*at).or_default() += count;
                }
            }
            for word in &path_terms[i] {
                for at in places.get(word.as_str()).into_iter().flatten().filter(read) {
                    *found.entry(*at).or_default() += PATH_BOOST;
                }
            }
            let mut found: Vec<(usize, f64)> = found.into_iter().map(|(at, tf)| (at, f64::from(tf))).collect();
            found.sort_unstable_by_key(|(at, _)| *at);
            for (at, _) in &found {
                document_frequency[*at] += 1;
            }
            found
        })
        .collect();
    let lengths: Vec<f64> =
        (0..n).map(|i| f64::from(files[i].word_count) + f64::from(PATH_BOOST) * path_terms[i].len() as f64).collect();
    let average = (lengths.iter().sum::<f64>() / n as f64).max(1.0);
    let idf: Vec<f64> =
        document_frequency.iter().map(|df| (1.0 + (n as f64 - *df as f64 + 0.5) / (*df as f64 + 0.5)).ln()).collect();
    let mut signal = Signal::new(n);
    // What each of the terms a file holds adds to its score, by the term's place.
    let mut contributions: Vec<Vec<(f64, usize)>> = vec![Vec::new(); n];
    for (i, found) in frequencies.iter().enumerate() {
        for &(at, tf) in found {
            let weight = terms[at].weight;
            let value = weight * idf[at] * tf * (K1 + 1.0) / (tf + K1 * (1.0 - B + B * lengths[i] / average));
            signal.values[i] += value;
            contributions[i].push((value, at));
        }
    }
    for (i, held) in contributions.iter_mut().enumerate() {
        held.sort_by(|a, b| b.0.total_cmp(&a.0));
        if !held.is_empty() {
            let top: Vec<String> = held.iter().take(4).map(|(_, at)| terms[*at].said()).collect();
            signal.reasons[i].push((signal.values[i], format!("shares words with the issue: {}", top.join(", "))));
        }
    }
    let shared = contributions
        .into_iter()
        .map(|held| held.into_iter().take(SHARED_WORDS).map(|(value, at)| (terms[at].word.to_owned(), value)).collect())
        .collect();
    (signal, shared)
}
