//! Word frequencies of a text.

use std::collections::BTreeMap;

/// Counts how often each word occurs in `text`.
pub fn word_counts(text: &str) -> BTreeMap<String, usize> {
    let mut counts = BTreeMap::new();
    for word in text.split(' ') {
        *counts.entry(word.to_string()).or_insert(0) += 1;
    }
    counts
}

/// The `n` most frequent words, most frequent first; ties in alphabetical order.
pub fn top_words(text: &str, n: usize) -> Vec<(String, usize)> {
    let mut words: Vec<(String, usize)> = word_counts(text).into_iter().collect();
    words.sort_by(|a, b| b.1.cmp(&a.1));
    words.truncate(n);
    words
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_repeated_words() {
        let counts = word_counts("to be or not to be");
        assert_eq!(counts["to"], 2);
        assert_eq!(counts["or"], 1);
    }

    #[test]
    fn top_words_puts_the_most_frequent_first() {
        assert_eq!(top_words("b a b c b a", 2), vec![("b".to_string(), 3), ("a".to_string(), 2)]);
    }
}
