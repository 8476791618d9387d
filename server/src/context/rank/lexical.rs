//! The lexical signal: BM25 of the issue's words against each file's words and path.

use rustc_hash::FxHashMap;

use super::{SHARED_WORDS, Signal};
use crate::context::index::IndexedFile;
use crate::context::issue::IssueQuery;
use crate::context::terms;

/// BM25 parameters (the usual ones).
const K1: f64 = 1.2;
const B: f64 = 0.75;
/// Path words count this many times in a file's document.
const PATH_BOOST: u32 = 3;

/// The words of a path, for its document.
fn path_words(path: &str) -> Vec<String> {
    terms::words(path.trim_end_matches(|c: char| c != '.').trim_end_matches('.'))
}

/// The BM25 signal of `files` for the issue's terms, and the terms each file shares with what
/// each adds, the most first ([`SHARED_WORDS`] at most).
pub(super) fn lexical_signal(files: &[&IndexedFile], query: &IssueQuery) -> (Signal, Vec<Vec<(String, f64)>>) {
    let n = files.len();
    let path_terms: Vec<Vec<String>> = files.iter().map(|f| path_words(&f.path)).collect();
    // Where each of the issue's words stands among its terms (a word given twice, at both).
    let mut places: FxHashMap<&str, Vec<usize>> = FxHashMap::default();
    for (at, (term, _)) in query.terms.iter().enumerate() {
        places.entry(term.as_str()).or_default().push(at);
    }
    // Each file's frequency of each of the issue's words it holds, in the issue's order: one
    // pass over the file's words rather than a search for each of the issue's.
    let mut document_frequency = vec![0usize; query.terms.len()];
    let frequencies: Vec<Vec<(usize, f64)>> = (0..n)
        .map(|i| {
            let mut found: FxHashMap<usize, u32> = FxHashMap::default();
            for (word, count) in files[i].terms.iter() {
                for at in places.get(word).into_iter().flatten() {
                    *found.entry(*at).or_default() += count;
                }
            }
            for word in &path_terms[i] {
                for at in places.get(word.as_str()).into_iter().flatten() {
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
    let mut contributions: Vec<Vec<(f64, &str)>> = vec![Vec::new(); n];
    for (i, found) in frequencies.iter().enumerate() {
        for &(at, tf) in found {
            let (term, weight) = &query.terms[at];
            let value = weight * idf[at] * tf * (K1 + 1.0) / (tf + K1 * (1.0 - B + B * lengths[i] / average));
            signal.values[i] += value;
            contributions[i].push((value, term));
        }
    }
    for (i, terms) in contributions.iter_mut().enumerate() {
        terms.sort_by(|a, b| b.0.total_cmp(&a.0));
        if !terms.is_empty() {
            let top: Vec<&str> = terms.iter().take(4).map(|(_, t)| *t).collect();
            signal.reasons[i].push((signal.values[i], format!("shares words with the issue: {}", top.join(", "))));
        }
    }
    let shared = contributions
        .into_iter()
        .map(|terms| terms.into_iter().take(SHARED_WORDS).map(|(value, term)| (term.to_owned(), value)).collect())
        .collect();
    (signal, shared)
}
