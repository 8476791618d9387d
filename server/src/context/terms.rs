//! Words of code and prose, made comparable: identifiers split at `_`, `-`, `::`, `.` and
//! camelCase boundaries, lower-cased, compound identifiers also kept whole; one-letter
//! parts, numbers and very common words dropped.

use rustc_hash::FxHashMap;

/// Words too common in code and issues to tell files apart.
const STOPWORDS: &[&str] = &[
    "a", "about", "after", "all", "also", "an", "and", "any", "are", "as", "at", "be", "been", "but", "by", "can",
    "class", "const", "could", "default", "do", "does", "doesn", "don", "each", "else", "export", "false", "final",
    "fn", "for", "from", "function", "get", "had", "has", "have", "how", "if", "impl", "import", "in", "int", "into",
    "is", "isn", "it", "its", "just", "let", "like", "may", "me", "mut", "my", "new", "no", "none", "not", "now",
    "null", "of", "on", "one", "only", "or", "other", "our", "out", "package", "private", "pub", "public", "return",
    "self", "set", "should", "so", "some", "static", "str", "string", "struct", "such", "test", "than", "that", "the",
    "their", "them", "then", "there", "these", "they", "this", "to", "true", "use", "using", "value", "var", "void",
    "was", "we", "were", "what", "when", "where", "which", "while", "will", "with", "would", "you", "your",
];

/// Whether `word` (lower-cased) is too common in code and prose to tell files apart.
pub(crate) fn is_stopword(word: &str) -> bool {
    STOPWORDS.binary_search(&word).is_ok()
}

/// The words of `text`, in order, with repeats: every part of every identifier, plus
/// compound identifiers whole.
pub fn words(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut splitter = WordSplitter::default();
    for token in identifiers(text) {
        splitter.each_word(token, |word| out.push(word.to_owned()));
    }
    out
}

/// The identifier-shaped tokens of `text` (`[A-Za-z_][A-Za-z0-9_]*`).
pub fn identifiers(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .filter(|token| token.chars().next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_'))
}

/// Splits identifier-shaped tokens into their words as [`split_identifier`] does, without
/// allocating for each: it keeps its buffers from one token to the next.
#[derive(Default)]
struct WordSplitter {
    /// The byte ranges of the current token's parts.
    parts: Vec<(usize, usize)>,
    /// The word being handed out, lower-cased.
    lower: String,
}

impl WordSplitter {
    /// Calls `emit` with each word of `token` (ASCII letters, digits and `_`, as
    /// [`identifiers`] gives them): the token whole and lower-cased when it has several
    /// parts, then each part of two characters or more that is not a number or a stopword.
    fn each_word(&mut self, token: &str, mut emit: impl FnMut(&str)) {
        let bytes = token.as_bytes();
        if !bytes.iter().any(|b| *b == b'_' || b.is_ascii_uppercase()) {
            // One part, lower-case already: most tokens of code.
            if is_kept_part(token) {
                emit(token);
            }
            return;
        }
        self.parts.clear();
        let mut chunk_start = 0;
        for chunk in token.split('_') {
            let (begin, end) = (chunk_start, chunk_start + chunk.len());
            chunk_start = end + 1;
            if chunk.is_empty() {
                continue;
            }
            let mut start = begin;
            for at in begin + 1..end {
                let (previous, current) = (bytes[at - 1], bytes[at]);
                let next_is_lower = at + 1 < end && bytes[at + 1].is_ascii_lowercase();
                let boundary = (previous.is_ascii_lowercase() && current.is_ascii_uppercase())
                    || ((previous.is_ascii_uppercase() || previous.is_ascii_digit())
                        && current.is_ascii_uppercase()
                        && next_is_lower);
                if boundary {
                    self.parts.push((start, at));
                    start = at;
                }
            }
            self.parts.push((start, end));
        }
        if self.parts.len() > 1 {
            self.lower.clear();
            self.lower.push_str(token);
            self.lower.make_ascii_lowercase();
            if !is_stopword(&self.lower) {
                emit(&self.lower);
            }
        }
        for &(start, end) in &self.parts {
            self.lower.clear();
            self.lower.push_str(&token[start..end]);
            self.lower.make_ascii_lowercase();
            if is_kept_part(&self.lower) {
                emit(&self.lower);
            }
        }
    }
}

/// Whether a lower-cased part counts as a word: two characters or more, not a number, not a
/// stopword.
fn is_kept_part(part: &str) -> bool {
    part.len() > 1 && !part.bytes().all(|b| b.is_ascii_digit()) && !is_stopword(part)
}

/// Splits an identifier into lower-cased parts: `parseHTTPResponse_v2` becomes
/// `parse`, `http`, `response`, `v2`.
pub fn split_identifier(token: &str) -> Vec<String> {
    let mut parts = Vec::new();
    for chunk in token.split(['_', '-', '.', ':']).filter(|c| !c.is_empty()) {
        let chars: Vec<char> = chunk.chars().collect();
        let mut start = 0;
        for i in 1..chars.len() {
            let (previous, current) = (chars[i - 1], chars[i]);
            let next_is_lower = chars.get(i + 1).is_some_and(|c| c.is_ascii_lowercase());
            let boundary = (previous.is_ascii_lowercase() && current.is_ascii_uppercase())
                || ((previous.is_ascii_uppercase() || previous.is_ascii_digit())
                    && current.is_ascii_uppercase()
                    && next_is_lower);
            if boundary {
                parts.push(chars[start..i].iter().collect::<String>().to_ascii_lowercase());
                start = i;
            }
        }
        parts.push(chars[start..].iter().collect::<String>().to_ascii_lowercase());
    }
    parts
}

/// A file's words and how often each occurs, in word order, kept in one string: a large
/// workspace's index holds millions of words, and a string each made reading the index
/// cache mostly a matter of allocating them.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct WordCounts {
    /// The words one after the other.
    text: String,
    /// Where each word ends in `text`, and its count.
    ends: Vec<(u32, u32)>,
}

impl WordCounts {
    /// The counts of `words`, each given once.
    fn from_unsorted(mut words: Vec<(&str, u32)>) -> Self {
        words.sort_unstable();
        let mut counts = Self { text: String::new(), ends: Vec::with_capacity(words.len()) };
        counts.text.reserve(words.iter().map(|(word, _)| word.len()).sum());
        for (word, count) in words {
            counts.text.push_str(word);
            counts.ends.push((counts.text.len() as u32, count));
        }
        counts
    }

    /// Each word with its count, in word order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, u32)> {
        let starts = std::iter::once(0).chain(self.ends.iter().map(|(end, _)| *end as usize));
        // A cache file damaged into other ends reads as empty words rather than panicking.
        starts.zip(&self.ends).map(|(start, &(end, count))| (self.text.get(start..end as usize).unwrap_or(""), count))
    }

    /// How many times `word` occurs (0 when it does not).
    pub fn count(&self, word: &str) -> u32 {
        let word_at = |at: usize| {
            let start = if at == 0 { 0 } else { self.ends[at - 1].0 as usize };
            self.text.get(start..self.ends[at].0 as usize).unwrap_or("")
        };
        let (mut low, mut high) = (0, self.ends.len());
        while low < high {
            let middle = (low + high) / 2;
            match word_at(middle).cmp(word) {
                std::cmp::Ordering::Less => low = middle + 1,
                std::cmp::Ordering::Greater => high = middle,
                std::cmp::Ordering::Equal => return self.ends[middle].1,
            }
        }
        0
    }

    /// How many different words there are.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// True when there are none.
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }
}

/// Words of prose and the short forms Rust code writes for them: the issue's `options` is a
/// file's `opts`, its `buffer` a `buf`.
const SHORT_FORMS: &[(&[&str], &[&str])] = &[
    (&["option"], &["opt"]),
    (&["options"], &["opts"]),
    (&["config", "configuration"], &["cfg", "conf"]),
    (&["context"], &["ctx"]),
    (&["error", "errors"], &["err"]),
    (&["buffer"], &["buf"]),
    (&["buffers"], &["bufs"]),
    (&["length"], &["len"]),
    (&["message"], &["msg"]),
    (&["messages"], &["msgs"]),
    (&["directory"], &["dir"]),
    (&["directories"], &["dirs"]),
    (&["number"], &["num"]),
    (&["index"], &["idx"]),
    (&["argument"], &["arg"]),
    (&["arguments"], &["args"]),
    (&["parameter"], &["param"]),
    (&["parameters"], &["params"]),
    (&["format", "formatting", "formatter"], &["fmt"]),
    (&["initialize", "initialization"], &["init"]),
    (&["reference"], &["ref"]),
    (&["references"], &["refs"]),
    (&["request"], &["req"]),
    (&["response"], &["resp", "res"]),
    (&["temporary"], &["tmp", "temp"]),
    (&["source"], &["src"]),
    (&["destination"], &["dst", "dest"]),
    (&["attribute"], &["attr"]),
    (&["attributes"], &["attrs"]),
    (&["expression"], &["expr"]),
    (&["statement"], &["stmt"]),
    (&["declaration"], &["decl"]),
    (&["allocate", "allocation", "allocator"], &["alloc"]),
    (&["environment"], &["env"]),
    (&["previous"], &["prev"]),
    (&["current"], &["cur", "curr"]),
    (&["command"], &["cmd"]),
    (&["commands"], &["cmds"]),
    (&["position"], &["pos"]),
    (&["maximum"], &["max"]),
    (&["minimum"], &["min"]),
    (&["specification"], &["spec"]),
    (&["utility", "utilities"], &["util", "utils"]),
    (&["character"], &["char", "ch"]),
    (&["characters"], &["chars"]),
    (&["document", "documentation"], &["doc", "docs"]),
    (&["library"], &["lib"]),
    (&["address"], &["addr"]),
    (&["information"], &["info"]),
    (&["database"], &["db"]),
    (&["repository"], &["repo"]),
    (&["millisecond", "milliseconds"], &["ms", "millis"]),
    (&["second", "seconds"], &["secs"]),
    (&["receive", "receiver"], &["recv", "rx"]),
    (&["transmit", "sender"], &["tx"]),
    (&["execute", "execution", "executable"], &["exec"]),
    (&["synchronous", "synchronize"], &["sync"]),
    (&["asynchronous"], &["async"]),
    (&["iterator"], &["iter"]),
];

/// The short forms Rust code writes for a word of prose (`opts` for `options`, from a table of
/// the common ones): none for most words.
pub fn short_forms(word: &str) -> &'static [&'static str] {
    SHORT_FORMS.iter().find(|(words, _)| words.contains(&word)).map_or(&[], |(_, forms)| forms)
}

/// Counts of each word of `text` (see [`WordCounts`]), and the number of words: the same as
/// counting [`words`], but each distinct identifier is split only once, and a word is
/// allocated only when first found.
pub fn word_counts(text: &str) -> (WordCounts, u32) {
    let mut tokens: FxHashMap<&str, u32> = FxHashMap::default();
    for token in identifiers(text) {
        *tokens.entry(token).or_default() += 1;
    }
    let mut counted: FxHashMap<String, u32> = FxHashMap::default();
    let mut total = 0;
    let mut splitter = WordSplitter::default();
    for (token, repeats) in tokens {
        splitter.each_word(token, |word| {
            total += repeats;
            match counted.get_mut(word) {
                Some(count) => *count += repeats,
                None => {
                    counted.insert(word.to_owned(), repeats);
                }
            }
        });
    }
    let words = counted.iter().map(|(word, count)| (word.as_str(), *count)).collect();
    (WordCounts::from_unsorted(words), total)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_forms_are_words_as_code_gives_them_and_lead_nowhere_further() {
        for (prose, forms) in SHORT_FORMS {
            for word in *prose {
                assert_eq!(words(word), vec![word.to_string()], "{word}");
                assert_eq!(short_forms(word), *forms, "{word} is listed once");
            }
            for form in *forms {
                assert_eq!(words(form), vec![form.to_string()], "{form} is a word of code");
                assert!(short_forms(form).is_empty(), "{form} has no short form of its own");
            }
        }
        assert_eq!(short_forms("options"), ["opts"]);
        assert!(short_forms("walk").is_empty());
    }

    #[test]
    fn stopwords_are_sorted_for_binary_search() {
        assert!(STOPWORDS.windows(2).all(|pair| pair[0] < pair[1]), "keep STOPWORDS sorted and unique");
    }

    #[test]
    fn identifiers_split_like_people_read_them() {
        assert_eq!(split_identifier("parseHTTPResponse"), ["parse", "http", "response"]);
        assert_eq!(split_identifier("try_send_timeout"), ["try", "send", "timeout"]);
        assert_eq!(split_identifier("JsonParser"), ["json", "parser"]);
        assert_eq!(split_identifier("UTF8Decoder"), ["utf8", "decoder"]);
        assert_eq!(split_identifier("mpsc::Sender"), ["mpsc", "sender"]);
        assert_eq!(split_identifier("kebab-case-name"), ["kebab", "case", "name"]);
    }

    fn counts(words: Vec<String>) -> Vec<(String, u32)> {
        let mut map: std::collections::HashMap<String, u32> = std::collections::HashMap::new();
        for word in words {
            *map.entry(word).or_default() += 1;
        }
        let mut counted: Vec<(String, u32)> = map.into_iter().collect();
        counted.sort();
        counted
    }

    /// The words of `text` as [`split_identifier`] parts each identifier.
    fn words_split_whole(text: &str) -> Vec<String> {
        let mut out = Vec::new();
        for token in identifiers(text) {
            let parts = split_identifier(token);
            if parts.len() > 1 && !is_stopword(&token.to_ascii_lowercase()) {
                out.push(token.to_ascii_lowercase());
            }
            out.extend(parts.into_iter().filter(|part| is_kept_part(part)));
        }
        out
    }

    proptest::proptest! {
        #[test]
        fn word_counts_count_the_words(text in "([a-zA-Z_]{1,12}|[A-Z][a-z]{1,5}|[0-9]{1,3}|[ .:(){}-]|é|東){0,60}") {
            let words = words(&text);
            proptest::prop_assert_eq!(&words, &words_split_whole(&text));
            let total = words.len() as u32;
            let (counted, counted_total) = word_counts(&text);
            let listed: Vec<(String, u32)> = counted.iter().map(|(word, count)| (word.to_owned(), count)).collect();
            proptest::prop_assert_eq!((listed, counted_total), (counts(words.clone()), total));
            for (word, count) in counts(words) {
                proptest::prop_assert_eq!(counted.count(&word), count);
            }
            proptest::prop_assert_eq!(counted.count("\u{0}absent"), 0);
        }
    }

    #[test]
    fn word_counts_damaged_in_a_cache_file_read_without_panicking() {
        let damaged = WordCounts { text: "é東ab".into(), ends: vec![(1, 1), (9, 2), (3, 1), (40, 1)] };
        assert_eq!(damaged.iter().count(), 4);
        assert_eq!(damaged.count("ab"), 0);
        assert_eq!(damaged.count("zz"), 0);
    }

    #[test]
    fn words_keep_compounds_and_drop_noise() {
        let found = words("The `JoinHandle::abort()` call in spawn_blocking does not work, see #42 and x.");
        assert_eq!(
            found,
            ["joinhandle", "join", "handle", "abort", "call", "spawn_blocking", "spawn", "blocking", "work", "see"]
        );
    }
}
