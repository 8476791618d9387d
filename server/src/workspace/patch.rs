//! Exact text replacement: `old_text` must occur exactly once, or nothing changes.
//!
//! Line endings are the only thing normalised: `old_text` written with `\n` matches a CRLF
//! file, `new_text` is written in the file's own style, and the last line of a file without
//! a final newline matches quoted with one (the file goes on ending without it). Whitespace and indentation must
//! match as they are. When there is no match the error points at the closest candidate so
//! the model can correct itself; it is never applied.

use std::fmt;

/// Why a patch was not applied. The text is unchanged in every case.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PatchError {
    /// `old_text` was empty.
    #[error("old_text is empty; patch_file replaces existing text, use write_file to create or replace a whole file")]
    EmptyOldText,
    /// `old_text` occurs nowhere.
    #[error(
        "old_text was not found in `{path}`{hint}. Nothing was changed; read the file again and copy the text exactly"
    )]
    NotFound {
        /// The file, as the tool call named it.
        path: String,
        /// Where the closest candidate is, if there is one.
        hint: CandidateHint,
    },
    /// `old_text` occurs more than once.
    #[error(
        "old_text occurs {count} times in `{path}` (starting at lines {}{}); include more surrounding lines so it matches exactly once. Nothing was changed",
        join_lines(lines), if *count > lines.len() { ", ..." } else { "" }
    )]
    Ambiguous {
        /// The file, as the tool call named it.
        path: String,
        /// The 1-based line where each of the first occurrences starts (at most `MAX_LISTED`).
        lines: Vec<usize>,
        /// How many occurrences there are.
        count: usize,
    },
}

/// The place in a file that looks most like an `old_text` that did not match.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CandidateHint {
    /// Nothing resembles the text.
    None,
    /// Lines `start..=end` (1-based) hold the same text except for whitespace or indentation.
    WhitespaceDiffers {
        /// First line of the candidate.
        start: usize,
        /// Last line of the candidate.
        end: usize,
    },
    /// Lines `start..=end` are the most similar; `same` of `total` lines are identical.
    Similar {
        /// First line of the candidate.
        start: usize,
        /// Last line of the candidate.
        end: usize,
        /// Lines identical to `old_text`'s.
        same: usize,
        /// Lines in `old_text`.
        total: usize,
    },
}

impl fmt::Display for CandidateHint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::None => Ok(()),
            Self::WhitespaceDiffers { start, end } => write!(
                f,
                "; {} match only if whitespace is ignored, and whitespace and indentation must match exactly",
                line_span(*start, *end)
            ),
            Self::Similar { start, end, same, total } => {
                write!(f, "; the closest candidate is {} ({same} of {total} lines identical)", line_span(*start, *end))
            }
        }
    }
}

fn line_span(start: usize, end: usize) -> String {
    if start == end { format!("line {start}") } else { format!("lines {start}-{end}") }
}

fn join_lines(lines: &[usize]) -> String {
    lines.iter().map(usize::to_string).collect::<Vec<_>>().join(", ")
}

/// The line-ending style a file is written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LineEnding {
    /// `\n`
    Lf,
    /// `\r\n`
    CrLf,
}

impl LineEnding {
    /// The style most of `text`'s lines end with; `\n` when there are none.
    pub fn of(text: &str) -> Self {
        let crlf = text.matches("\r\n").count();
        let lf = text.matches('\n').count() - crlf;
        if crlf > lf { Self::CrLf } else { Self::Lf }
    }

    /// `text` with every `\r\n` or `\n` written in this style.
    pub fn apply(self, text: &str) -> String {
        let unified = text.replace("\r\n", "\n");
        match self {
            Self::Lf => unified,
            Self::CrLf => unified.replace('\n', "\r\n"),
        }
    }
}

/// `content` written with the line endings of `previous`, the text it replaces: each line it
/// keeps from `previous` ends as it did there (a `\r\n` line in a `\n` file, as fixtures of
/// HTTP or mail hold). Where `previous` mixes the two, a line that replaces one ends as that
/// one did, and a line added ends as the line before it (or, at the top, after it): a header
/// added to a `\r\n` block of a mixed file ends in `\r\n`. Elsewhere lines end in `style`.
pub fn in_line_endings_of(previous: &str, content: &str, style: LineEnding) -> String {
    let crlf = previous.matches("\r\n").count();
    let mixed = crlf > 0 && crlf < previous.matches('\n').count();
    if !mixed {
        return style.apply(content);
    }
    let old: Vec<&str> = previous.split_inclusive('\n').collect();
    let old_unified: Vec<String> = old.iter().map(|line| line.replace("\r\n", "\n")).collect();
    let new_unified = content.replace("\r\n", "\n");
    let new: Vec<&str> = new_unified.split_inclusive('\n').collect();
    let old_keys: Vec<&str> = old_unified.iter().map(String::as_str).collect();
    let mut out = String::with_capacity(content.len() + crlf);
    for op in similar::capture_diff_slices(similar::Algorithm::Myers, &old_keys, &new) {
        match op {
            similar::DiffOp::Equal { old_index, len, .. } => {
                old[old_index..old_index + len].iter().for_each(|line| out.push_str(line))
            }
            similar::DiffOp::Delete { .. } => {}
            similar::DiffOp::Insert { old_index, new_index, new_len } => {
                // The line before it, else the one after.
                let neighbour = old_index.checked_sub(1).or((old_index < old.len()).then_some(old_index));
                for line in &new[new_index..new_index + new_len] {
                    push_ending_like(&mut out, line, neighbour.map(|at| old[at]), style);
                }
            }
            similar::DiffOp::Replace { old_index, old_len, new_index, new_len } => {
                for (k, line) in new[new_index..new_index + new_len].iter().enumerate() {
                    push_ending_like(&mut out, line, Some(old[old_index + k.min(old_len - 1)]), style);
                }
            }
        }
    }
    out
}

/// Pushes `line` (ending in `\n`, or at the end of the text in none) ending as `like` does,
/// or in `style` where `like` has no line break.
fn push_ending_like(out: &mut String, line: &str, like: Option<&str>, style: LineEnding) {
    let Some(bare) = line.strip_suffix('\n') else { return out.push_str(line) };
    let crlf = match like {
        Some(like) if like.ends_with("\r\n") => true,
        Some(like) if like.ends_with('\n') => false,
        _ => style == LineEnding::CrLf,
    };
    out.push_str(bare);
    out.push_str(if crlf { "\r\n" } else { "\n" });
}

/// A text after a successful patch.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Patched {
    /// The whole new text.
    pub text: String,
    /// Byte range of the replacement within `text`.
    pub replacement: std::ops::Range<usize>,
}

/// Replaces the single occurrence of `old` in `text` by `new`, or explains why not.
///
/// `path` only names the file in error messages.
pub fn apply_patch(path: &str, text: &str, old: &str, new: &str) -> Result<Patched, PatchError> {
    let mut old = old.replace("\r\n", "\n");
    if old.is_empty() {
        return Err(PatchError::EmptyOldText);
    }
    let normalised = Normalised::new(text);
    let mut starts = occurrences(&normalised.text, &old);
    let mut new = std::borrow::Cow::Borrowed(new);
    // The last line of a file without a final newline, quoted with one (as every line
    // reads): its newline is the end of the file, and the file keeps ending without one.
    if starts.is_empty()
        && let Some(bare) = old.strip_suffix('\n').filter(|bare| !bare.is_empty() && !normalised.text.ends_with('\n'))
        && normalised.text.ends_with(bare)
        && occurrences(&normalised.text, bare).len() == 1
    {
        starts = vec![normalised.text.len() - bare.len()];
        old = bare.to_owned();
        if let Some(kept) = new.strip_suffix('\n') {
            new = std::borrow::Cow::Owned(kept.strip_suffix('\r').unwrap_or(kept).to_owned());
        }
    }
    match starts.as_slice() {
        [] => Err(PatchError::NotFound { path: path.to_owned(), hint: closest_candidate(&normalised.text, &old) }),
        [start] => {
            let from = normalised.original_offset(*start);
            let to = normalised.original_offset(start + old.len());
            // New lines end as the lines they replace do, else as the line the patch lies in.
            let region = &text[from..to];
            let style = if region.contains('\n') {
                LineEnding::of(region)
            } else {
                match text[to..].find('\n') {
                    Some(end) if text[..to + end].ends_with('\r') => LineEnding::CrLf,
                    Some(_) => LineEnding::Lf,
                    None => LineEnding::of(text),
                }
            };
            let replacement = in_line_endings_of(region, &new, style);
            let mut patched = String::with_capacity(text.len() + replacement.len());
            patched.push_str(&text[..from]);
            patched.push_str(&replacement);
            patched.push_str(&text[to..]);
            Ok(Patched { text: patched, replacement: from..from + replacement.len() })
        }
        several => Err(PatchError::Ambiguous {
            path: path.to_owned(),
            lines: line_numbers(&normalised.text, &several[..several.len().min(MAX_LISTED)]),
            count: several.len(),
        }),
    }
}

/// How many lines of an ambiguous match are listed.
pub const MAX_LISTED: usize = 20;

/// The 1-based line of each of `offsets` (ascending), in one pass over the text.
fn line_numbers(text: &str, offsets: &[usize]) -> Vec<usize> {
    let (mut line, mut from) = (1, 0);
    offsets
        .iter()
        .map(|offset| {
            line += text[from..*offset].matches('\n').count();
            from = *offset;
            line
        })
        .collect()
}

/// A text with `\r\n` turned into `\n`, and the way back to offsets in the original.
struct Normalised {
    text: String,
    /// Offsets, in `text`, of each `\n` whose `\r` was dropped; ascending.
    dropped_before: Vec<usize>,
}

impl Normalised {
    fn new(original: &str) -> Self {
        let mut text = String::with_capacity(original.len());
        let mut dropped_before = Vec::new();
        let mut rest = original;
        while let Some(at) = rest.find("\r\n") {
            text.push_str(&rest[..at]);
            dropped_before.push(text.len());
            text.push('\n');
            rest = &rest[at + 2..];
        }
        text.push_str(rest);
        Self { text, dropped_before }
    }

    fn original_offset(&self, offset: usize) -> usize {
        offset + self.dropped_before.partition_point(|at| *at < offset)
    }
}

/// Start offsets of every occurrence of `needle`, overlapping ones included.
fn occurrences(haystack: &str, needle: &str) -> Vec<usize> {
    let mut starts = Vec::new();
    let mut from = 0;
    while let Some(found) = haystack[from..].find(needle) {
        let start = from + found;
        starts.push(start);
        let step = haystack[start..].chars().next().map_or(1, char::len_utf8);
        from = start + step;
    }
    starts
}

fn without_whitespace(line: &str) -> String {
    line.chars().filter(|c| !c.is_whitespace()).collect()
}

/// Finds the window of lines that best resembles `old`'s lines.
fn closest_candidate(text: &str, old: &str) -> CandidateHint {
    let old_lines: Vec<&str> = old.strip_suffix('\n').unwrap_or(old).split('\n').collect();
    let file_lines: Vec<&str> = text.split('\n').collect();
    let old_bare: Vec<String> = old_lines.iter().map(|l| without_whitespace(l)).collect();
    let file_bare: Vec<String> = file_lines.iter().map(|l| without_whitespace(l)).collect();
    let window = old_lines.len().min(file_lines.len());

    // Score: 2 per identical line, 1 per line identical once whitespace is removed.
    let mut best: Option<(usize, usize, usize, usize)> = None; // (score, start, same, loose)
    for start in 0..=(file_lines.len() - window) {
        let (mut same, mut loose) = (0, 0);
        for offset in 0..window {
            if file_lines[start + offset] == old_lines[offset] {
                same += 1;
            } else if !old_bare[offset].is_empty() && file_bare[start + offset] == old_bare[offset] {
                loose += 1;
            }
        }
        let score = 2 * same + loose;
        if score > 0 && best.is_none_or(|(top, ..)| score > top) {
            best = Some((score, start, same, loose));
        }
    }
    let Some((_, start, same, loose)) = best else {
        return CandidateHint::None;
    };
    let (first, last) = (start + 1, start + window);
    if window == old_lines.len() && same + loose == window && loose > 0 {
        CandidateHint::WhitespaceDiffers { start: first, end: last }
    } else {
        CandidateHint::Similar { start: first, end: last, same, total: old_lines.len() }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn the_last_line_of_a_file_without_a_final_newline_matches_quoted_with_one() {
        let text = "fn a() {}\nfn b() {}";
        let patched = apply_patch("x.rs", text, "fn b() {}\n", "fn b() { 2 }\n").unwrap();
        assert_eq!(patched.text, "fn a() {}\nfn b() { 2 }", "the file still ends without a newline");
        let patched = apply_patch("x.rs", text, "fn a() {}\nfn b() {}\n", "fn c() {}\n").unwrap();
        assert_eq!(patched.text, "fn c() {}");
        let crlf = "a\r\nb";
        assert_eq!(apply_patch("x.txt", crlf, "b\r\n", "c\r\nd\r\n").unwrap().text, "a\r\nc\r\nd");
        // Only at the end, and only where the rest is unique.
        assert!(matches!(apply_patch("x.rs", "b\nb", "b\n", "c\n"), Ok(p) if p.text == "c\nb"));
        assert!(matches!(apply_patch("x.rs", "ab\nb", "x\nb\n", "c"), Err(PatchError::NotFound { .. })));
        assert!(matches!(apply_patch("x.rs", "bb", "b\n", "c"), Err(PatchError::NotFound { .. })), "twice");
        assert!(matches!(apply_patch("x.rs", "", "\n", "c"), Err(PatchError::NotFound { .. })));
        assert!(matches!(apply_patch("x.rs", "a", "\n", "c"), Err(PatchError::NotFound { .. })));
    }

    #[test]
    fn a_unique_match_is_replaced() {
        let text = "fn a() {}\nfn b() {}\n";
        let patched = apply_patch("x.rs", text, "fn b() {}", "fn b() { 1 }").unwrap();
        assert_eq!(patched.text, "fn a() {}\nfn b() { 1 }\n");
        assert_eq!(&patched.text[patched.replacement], "fn b() { 1 }");
    }

    #[test]
    fn empty_old_text_is_refused() {
        assert_eq!(apply_patch("x", "abc", "", "z"), Err(PatchError::EmptyOldText));
    }

    #[test]
    fn several_matches_list_each_line_and_change_nothing() {
        let text = "x = 1\ny = 2\nx = 1\n\nx = 1\n";
        let err = apply_patch("cfg.py", text, "x = 1", "x = 3").unwrap_err();
        assert_eq!(err, PatchError::Ambiguous { path: "cfg.py".into(), lines: vec![1, 3, 5], count: 3 });
        assert!(err.to_string().contains("3 times in `cfg.py` (starting at lines 1, 3, 5)"));
    }

    #[test]
    fn a_match_everywhere_lists_the_first_lines_only() {
        let text = "x\n".repeat(100_000);
        let err = apply_patch("big.txt", &text, "x", "y").unwrap_err();
        let message = err.to_string();
        assert!(
            message.starts_with("old_text occurs 100000 times in `big.txt` (starting at lines 1, 2, 3"),
            "{message}"
        );
        assert!(message.contains("19, 20, ...)"), "{message}");
        assert!(message.len() < 400);
    }

    #[test]
    fn overlapping_occurrences_count_as_several() {
        let err = apply_patch("a", "aaa", "aa", "b").unwrap_err();
        assert!(matches!(err, PatchError::Ambiguous { ref lines, .. } if lines.len() == 2));
    }

    #[test]
    fn indentation_must_match_and_the_hint_says_where() {
        let text = "fn main() {\n    let x = 1;\n    let y = 2;\n}\n";
        let err = apply_patch("src/main.rs", text, "let x = 1;\nlet y = 2;", "").unwrap_err();
        assert_eq!(
            err,
            PatchError::NotFound {
                path: "src/main.rs".into(),
                hint: CandidateHint::WhitespaceDiffers { start: 2, end: 3 }
            }
        );
        assert!(err.to_string().contains("lines 2-3 match only if whitespace is ignored"));
    }

    #[test]
    fn a_near_miss_names_the_most_similar_lines() {
        let text = "a\nb\nc\nd\ne\n";
        let err = apply_patch("f", text, "c\nD\ne", "").unwrap_err();
        assert_eq!(
            err,
            PatchError::NotFound {
                path: "f".into(),
                hint: CandidateHint::Similar { start: 3, end: 5, same: 2, total: 3 }
            }
        );
    }

    #[test]
    fn nothing_similar_gives_no_hint() {
        let err = apply_patch("f", "alpha\nbeta\n", "gamma", "").unwrap_err();
        assert_eq!(err, PatchError::NotFound { path: "f".into(), hint: CandidateHint::None });
    }

    #[test]
    fn crlf_files_match_lf_text_and_keep_crlf() {
        let text = "one\r\ntwo\r\nthree\r\n";
        let patched = apply_patch("w.txt", text, "two\nthree\n", "2\n3\n").unwrap();
        assert_eq!(patched.text, "one\r\n2\r\n3\r\n");
    }

    #[test]
    fn untouched_lines_of_mixed_files_stay_byte_identical() {
        let text = "a\r\nb\nc\r\nd\r\n";
        let patched = apply_patch("m", text, "d", "D\nE").unwrap();
        assert_eq!(patched.text, "a\r\nb\nc\r\nD\r\nE\r\n");
    }

    #[test]
    fn lines_added_to_a_mixed_file_end_as_their_neighbours() {
        // Three `\r\n` lines and three `\n` ones: no ending is most of the file's.
        let text = "GET / HTTP/1.1\r\nHost: x\r\n\r\nbody\nmore\nend\n";
        let added = "GET / HTTP/1.1\nHost: x\nAccept: y\n\nbody\nmore\nend\n";
        let written = in_line_endings_of(text, added, LineEnding::of(text));
        assert_eq!(written, "GET / HTTP/1.1\r\nHost: x\r\nAccept: y\r\n\r\nbody\nmore\nend\n");
        let patched = apply_patch("req.http", text, "Host: x", "Host: x\nAccept: y").unwrap();
        assert_eq!(patched.text, "GET / HTTP/1.1\r\nHost: x\r\nAccept: y\r\n\r\nbody\nmore\nend\n");
        // A line replaced ends as the one it replaces.
        let text = "a\r\nb\nc\r\nd\r\n";
        assert_eq!(in_line_endings_of(text, "a\nB\nc\nd\n", LineEnding::CrLf), "a\r\nB\nc\r\nd\r\n");
        assert_eq!(apply_patch("m", text, "b", "B").unwrap().text, "a\r\nB\nc\r\nd\r\n");
    }

    #[test]
    fn a_crlf_line_of_an_lf_file_keeps_its_ending_when_patched_or_kept() {
        // An HTTP fixture: the request's lines end in `\r\n`, the code's in `\n`.
        let text = "const REQUEST: &str = \"GET / HTTP/1.1\r\nHost: a\r\n\";\nfn send() {}\nfn old() {}\n";
        let patched = apply_patch("h.rs", text, "Host: a\n", "Host: b\n").unwrap();
        assert_eq!(patched.text, text.replace("Host: a\r\n", "Host: b\r\n"), "the lines it replaces end in CRLF");
        let patched = apply_patch("h.rs", text, "fn old() {}\n", "fn new() {}\nfn newer() {}\n").unwrap();
        assert!(patched.text.ends_with("fn send() {}\nfn new() {}\nfn newer() {}\n"), "{:?}", patched.text);
        assert!(patched.text.starts_with("const REQUEST: &str = \"GET / HTTP/1.1\r\nHost: a\r\n"));

        // Written whole, as the model writes a file: the lines it keeps end as they did.
        let written = in_line_endings_of(
            text,
            "const REQUEST: &str = \"GET / HTTP/1.1\nHost: a\n\";\nfn send() {}\nfn added() {}\n",
            LineEnding::of(text),
        );
        assert_eq!(written, "const REQUEST: &str = \"GET / HTTP/1.1\r\nHost: a\r\n\";\nfn send() {}\nfn added() {}\n");
        // A file of one style takes its style whole.
        assert_eq!(in_line_endings_of("a\r\nb\r\n", "a\nc\n", LineEnding::CrLf), "a\r\nc\r\n");
        assert_eq!(in_line_endings_of("a\nb\n", "a\r\nc", LineEnding::Lf), "a\nc");
    }

    #[test]
    fn non_ascii_text_is_matched_on_char_boundaries() {
        let text = "let greeting = \"héllo wörld 😀\";\n";
        let patched = apply_patch("g.rs", text, "wörld 😀", "世界").unwrap();
        assert_eq!(patched.text, "let greeting = \"héllo 世界\";\n");
    }

    fn count_overlapping(haystack: &str, needle: &str) -> usize {
        (0..haystack.len()).filter(|i| haystack.is_char_boundary(*i) && haystack[*i..].starts_with(needle)).count()
    }

    proptest! {
        /// Patching is exact: applied only for a unique match, and then exactly that replacement.
        #[test]
        fn patching_is_exact(
            text in "[ab\n é😀]{0,40}",
            old in "[ab\n é😀]{1,4}",
            new in "[xy\n]{0,4}",
        ) {
            let matches = count_overlapping(&text, &old);
            // The last line of a text without a final newline, quoted with one.
            let at_end = old
                .strip_suffix('\n')
                .filter(|bare| matches == 0 && !bare.is_empty() && !text.ends_with('\n') && text.ends_with(bare))
                .filter(|bare| count_overlapping(&text, bare) == 1)
                .map(|bare| format!("{}{}", &text[..text.len() - bare.len()], new.strip_suffix('\n').unwrap_or(&new)));
            match apply_patch("p", &text, &old, &new) {
                Ok(patched) if at_end.is_some() => prop_assert_eq!(Some(patched.text), at_end),
                Ok(patched) => {
                    prop_assert_eq!(matches, 1);
                    prop_assert_eq!(patched.text, text.replacen(&old, &new, 1));
                }
                Err(PatchError::Ambiguous { lines, .. }) => prop_assert_eq!(lines.len(), matches),
                Err(PatchError::NotFound { .. }) => prop_assert!(matches == 0 && at_end.is_none()),
                Err(PatchError::EmptyOldText) => prop_assert!(false, "old is never empty here"),
            }
        }

        /// A text written over another keeps its words, whatever their line endings: only
        /// line endings change, and only to those of the text it replaces.
        #[test]
        fn line_endings_are_all_that_changes(
            previous in "(a|b|\n|\r\n){0,30}",
            content in "(a|b|\n|\r\n){0,30}",
            crlf in proptest::bool::ANY,
        ) {
            let style = if crlf { LineEnding::CrLf } else { LineEnding::Lf };
            let written = in_line_endings_of(&previous, &content, style);
            let unified = |text: &str| text.replace("\r\n", "\n");
            prop_assert_eq!(unified(&written), unified(&content));
        }

        /// A text whose old_text occurs once in a CRLF file keeps every other byte.
        #[test]
        fn crlf_patching_only_touches_the_match(
            before in "[ab \r\n]{0,20}",
            after in "[ab \r\n]{0,20}",
        ) {
            let marker = "MARK\r\nER";
            let text = format!("{before}{marker}{after}");
            prop_assume!(count_overlapping(&text.replace("\r\n", "\n"), "MARK\nER") == 1);
            let patched = apply_patch("p", &text, "MARK\nER", "Z").unwrap();
            prop_assert_eq!(patched.text, format!("{before}Z{after}"));
        }
    }
}
