//! The lexical signal: BM25 of the issue's words against each file's words and path.

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
    let term_frequency = |file: usize, term: &str| -> f64 {
        let body = files[file]
            .terms
            .binary_search_by(|(t, _)| t.as_str().cmp(term))
            .map(|at| files[file].terms[at].1)
            .unwrap_or(0);
        let in_path = path_terms[file].iter().filter(|t| *t == term).count() as u32;
        f64::from(body + PATH_BOOST * in_path)
    };
    let lengths: Vec<f64> =
        (0..n).map(|i| f64::from(files[i].word_count) + f64::from(PATH_BOOST) * path_terms[i].len() as f64).collect();
    let average = (lengths.iter().sum::<f64>() / n as f64).max(1.0);
    let mut signal = Signal::new(n);
    let mut contributions: Vec<Vec<(f64, &str)>> = vec![Vec::new(); n];
    for (term, weight) in &query.terms {
        let frequencies: Vec<f64> = (0..n).map(|i| term_frequency(i, term)).collect();
        let document_frequency = frequencies.iter().filter(|f| **f > 0.0).count() as f64;
        if document_frequency == 0.0 {
            continue;
        }
        let idf = (1.0 + (n as f64 - document_frequency + 0.5) / (document_frequency + 0.5)).ln();
        for (i, tf) in frequencies.iter().enumerate() {
            if *tf > 0.0 {
                let value = weight * idf * tf * (K1 + 1.0) / (tf + K1 * (1.0 - B + B * lengths[i] / average));
                signal.values[i] += value;
                contributions[i].push((value, term));
            }
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
