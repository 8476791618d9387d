//! Markdown as an issue is written in: where prose, inline code and fenced code blocks lie,
//! which lines are fences and headings, and the HTML markup and tree drawings whose words
//! are not the issue's.

use std::borrow::Cow;
use std::collections::HashMap;

/// Where a piece of the text sits.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Region {
    Prose,
    InlineCode,
    CodeBlock,
}

/// Splits Markdown into prose, `inline code` and code blocks, as Markdown splits it: a block
/// opens with a line starting with a fence (```` ``` ```` or `~~~`) and closes only with a
/// line holding a fence of the same character, at least as long; the lines between an HTML
/// `<pre>` and its `</pre>` are a block too (a template's `<pre><code>` for debug output);
/// inline code is a run of backticks closed by a run of the same length on the same line.
/// Linear in the text.
pub(super) fn regions(text: &str) -> Vec<(Region, &str)> {
    let mut out = Vec::new();
    // Where the current prose or code block began, and what opened the code block.
    let mut start = 0;
    let mut open: Option<Block> = None;
    let mut line_start = 0;
    for line in text.split_inclusive('\n') {
        let line_end = line_start + line.len();
        let trimmed = line.trim();
        match open {
            Some(block) if block.closed_by(trimmed) => {
                out.push((Region::CodeBlock, &text[start..line_start]));
                open = None;
                start = line_end;
            }
            Some(_) => {}
            None => match Block::opened_by(trimmed) {
                Some(block) => {
                    out.push((Region::Prose, &text[start..line_start]));
                    open = Some(block);
                    start = line_end;
                }
                None => {
                    for (opening, closing) in inline_code_spans(line) {
                        out.push((Region::Prose, &text[start..line_start + opening.0]));
                        out.push((Region::InlineCode, &text[line_start + opening.1..line_start + closing.0]));
                        start = line_start + closing.1;
                    }
                }
            },
        }
        line_start = line_end;
    }
    let last = if open.is_some() { Region::CodeBlock } else { Region::Prose };
    out.push((last, &text[start..]));
    out
}

/// What opened the code block being read: a fence (its character and length), or an HTML
/// `<pre>` tag.
#[derive(Debug, Clone, Copy)]
enum Block {
    Fenced((char, usize)),
    Preformatted,
}

impl Block {
    /// The block the trimmed `line` opens, if it opens one.
    fn opened_by(line: &str) -> Option<Self> {
        fence(line).map(Self::Fenced).or_else(|| opens_preformatted(line).then_some(Self::Preformatted))
    }

    /// Whether the trimmed `line` closes this block.
    fn closed_by(self, line: &str) -> bool {
        match self {
            Self::Fenced(opening) => closes(opening, line),
            Self::Preformatted => closes_preformatted(line),
        }
    }
}

/// Whether the trimmed `line` opens an HTML `<pre>` block that it does not close: the lines
/// after it are preformatted, GitHub's way to show code and output without a fence.
fn opens_preformatted(line: &str) -> bool {
    if !line.contains('<') {
        return false;
    }
    let lower = line.to_ascii_lowercase();
    let Some(at) = lower.find("<pre>").or_else(|| lower.find("<pre ")) else { return false };
    !lower[at..].contains("</pre>")
}

/// Whether the trimmed `line` closes an HTML `<pre>` block.
fn closes_preformatted(line: &str) -> bool {
    line.to_ascii_lowercase().contains("</pre>")
}

/// The inline code spans of one line: for each, where its opening backtick run starts and ends
/// and where its closing run starts and ends. A run is closed by the next run of the same
/// length; a run that no later run matches is plain text.
fn inline_code_spans(line: &str) -> Vec<((usize, usize), (usize, usize))> {
    let bytes = line.as_bytes();
    let mut runs = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'`' {
            let begin = i;
            while i < bytes.len() && bytes[i] == b'`' {
                i += 1;
            }
            runs.push((begin, i));
        } else {
            i += 1;
        }
    }
    // For each run, the next run of the same length, found in one pass from the right.
    let mut next_same = vec![None; runs.len()];
    let mut last_of_length: HashMap<usize, usize> = HashMap::new();
    for (index, (begin, end)) in runs.iter().enumerate().rev() {
        next_same[index] = last_of_length.insert(end - begin, index);
    }
    let mut spans = Vec::new();
    let mut index = 0;
    while index < runs.len() {
        match next_same[index] {
            Some(closing) => {
                spans.push((runs[index], runs[closing]));
                index = closing + 1;
            }
            None => index += 1,
        }
    }
    spans
}

/// HTML elements GitHub renders in an issue's prose, whose tags are markup, not words.
const MARKUP_ELEMENTS: [&str; 14] =
    ["details", "summary", "br", "p", "div", "sub", "sup", "kbd", "b", "i", "em", "strong", "hr", "img"];

/// A prose line without the HTML tags of [`MARKUP_ELEMENTS`] (`<details>`, `</summary>`,
/// `<img src="...">`). A closing tag counts anywhere; an opening one not right after a
/// name, so a generic type (`Vec<Details>`) is left as it is.
pub(super) fn without_markup(line: &str) -> Cow<'_, str> {
    if !line.contains('<') {
        return Cow::Borrowed(line);
    }
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    while let Some(at) = rest.find('<') {
        let (before, from) = rest.split_at(at);
        // What precedes the `<`: a generic's type name, or anything else.
        let previous = before.chars().next_back().or_else(|| out.chars().next_back());
        let closing = from[1..].starts_with('/');
        let starts_tag = closing || !previous.is_some_and(|c| c.is_alphanumeric() || c == '_');
        let tag_end = from.find('>');
        let name = from[1..].trim_start_matches('/');
        let name_len = name.find(|c: char| !c.is_ascii_alphanumeric()).unwrap_or(name.len());
        let is_markup = starts_tag
            && tag_end.is_some()
            && MARKUP_ELEMENTS.iter().any(|element| element.eq_ignore_ascii_case(&name[..name_len]));
        out.push_str(before);
        match (is_markup, tag_end) {
            (true, Some(end)) => {
                out.push(' ');
                rest = &from[end + 1..];
            }
            _ => {
                out.push('<');
                rest = &from[1..];
            }
        }
    }
    out.push_str(rest);
    Cow::Owned(out)
}

/// Whether a line draws a tree, as `cargo tree`, `npm ls`, `tree` and `mvn dependency:tree`
/// print them (`│   ├── tokio-io v0.1.12`, `[INFO] +- com.google.code.gson:gson:jar:2.8.9`,
/// `` `-- src ``). Such a line lists the packages or folders the reporter has, which seldom
/// say what the issue is about: of its words only the file paths are kept.
pub(super) fn draws_a_tree(line: &str) -> bool {
    let line = line.trim_start();
    let line = line.strip_prefix("[INFO]").map_or(line, str::trim_start);
    if line.starts_with(|c: char| ('\u{2500}'..='\u{257f}').contains(&c)) {
        return true;
    }
    let branch = line.trim_start_matches(|c: char| c == '|' || c.is_whitespace());
    ["+- ", "\\- ", "+-- ", "\\-- ", "`-- "].iter().any(|mark| branch.starts_with(mark))
        || (branch.len() < line.len() && branch.starts_with("-- "))
}

/// The fence a line starts with (three or more backticks or tildes): its character and length.
pub(super) fn fence(line: &str) -> Option<(char, usize)> {
    let mark = line.chars().next().filter(|c| *c == '`' || *c == '~')?;
    let length = line.len() - line.trim_start_matches(mark).len();
    // A backtick fence's info string holds no backtick: ```` ```x``` ```` is inline code.
    (length >= 3 && !(mark == '`' && line[length..].contains('`'))).then_some((mark, length))
}

/// Whether the trimmed `line` closes a code block opened with the fence `opening`: a fence of
/// the same character, at least as long, with nothing after it.
pub(super) fn closes(opening: (char, usize), line: &str) -> bool {
    let (mark, length) = opening;
    fence(line).is_some_and(|(closing, count)| closing == mark && count >= length)
        && line.trim_start_matches(mark).is_empty()
}

/// A Markdown heading (`## Version`, `#`) or a bold line standing as one (`**Platform**`);
/// `#[derive(Debug)]` and `#include` are code, not headings, and so is a line indented by four
/// spaces or a tab (`    # comment` in an indented code block).
pub(super) fn is_heading(line: &str) -> bool {
    let indent = line.len() - line.trim_start_matches(' ').len();
    if indent >= 4 || line[indent..].starts_with('\t') {
        return false;
    }
    let line = line.trim();
    let hashes = line.len() - line.trim_start_matches('#').len();
    let atx = (1..=6).contains(&hashes) && line[hashes..].chars().next().is_none_or(char::is_whitespace);
    atx || (line.starts_with("**") && line.ends_with("**") && line.len() < 80)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::context::issue::analyze;
    use crate::context::issue::tests::symbol;

    #[test]
    fn html_markup_in_prose_is_not_words() {
        let text = "Renamed crate\n<Details>\n<summary>Full <b>output</b></summary><br/>\n\
            Returns Vec<Details> and <kbd>Ctrl</kbd>+<kbd>C</kbd> <img src=\"shot.png\">\n</details>\n\
            ```html\n<details>markup_in_code</details>\n```\n";
        let query = analyze(text);
        let term = |t: &str| query.terms.iter().any(|(w, _)| w == t);
        for markup in ["summary", "kbd", "img", "src", "shot", "png"] {
            assert!(!term(markup), "{markup} is markup: {:?}", query.terms);
        }
        for word in ["full", "output", "returns", "ctrl", "details", "markup_in_code"] {
            assert!(term(word), "{word}: {:?}", query.terms);
        }
        assert_eq!(
            without_markup("Returns Vec<Details> or Map<K, V>"),
            "Returns Vec<Details> or Map<K, V>",
            "generics"
        );
        assert_eq!(without_markup("a <details> b"), "a   b");
        assert_eq!(without_markup("x<b>y"), "x<b>y", "no tag inside a word");
        assert_eq!(without_markup("1 < 2 and <b"), "1 < 2 and <b", "unclosed");
    }

    #[test]
    fn trees_of_dependencies_and_folders_name_only_their_files() {
        let text = "Renamed crate breaks the test macro\n\
            ```\n\
            │   ├── tokio-codec v0.1.1\n\
            │   │   └── tokio-executor v0.1.9 (*)\n\
            [INFO] +- com.google.code.gson:gson:jar:2.8.9:compile\n\
            [INFO] |  \\- org.threadpool:reactor:jar:1.0:compile\n\
            |-- src\n\
            |   `-- walker_main.rs\n\
            └── fshelper/mod.rs\n\
            ```\n\
            The macro `select_biased` fails. | -- | not a tree |\n";
        let query = analyze(text);
        let term = |t: &str| query.terms.iter().any(|(w, _)| w == t);
        for listed in ["codec", "executor", "gson", "threadpool", "reactor", "src"] {
            assert!(!term(listed), "{listed} is only listed in a tree: {:?}", query.terms);
            assert!(!query.words.contains(&listed.to_owned()), "{listed}");
        }
        let path = |p: &str| query.paths.iter().any(|(q, _)| q == p);
        assert!(path("walker_main.rs") && path("fshelper/mod.rs"), "{:?}", query.paths);
        assert!(term("select_biased") && term("tree") && term("renamed"), "{:?}", query.terms);

        assert!(draws_a_tree("   ╭─[src/lib.rs:2:1]") && !draws_a_tree(" 2 │ fn main() {}"), "miette's frame");
        assert!(!draws_a_tree("| --- | --- |") && !draws_a_tree("--verbose") && !draws_a_tree("--- a/src/lib.rs"));
    }

    #[test]
    fn regions_split_markdown() {
        let pieces = |text| -> Vec<(Region, &str)> {
            regions(text).into_iter().filter(|(_, piece)| !piece.trim().is_empty()).collect()
        };
        use Region::{CodeBlock, InlineCode, Prose};
        assert_eq!(
            pieces("a `b` c\n```rust\nfn x() {}\n```\nd ` unclosed\ne"),
            [(Prose, "a "), (InlineCode, "b"), (Prose, " c\n"), (CodeBlock, "fn x() {}\n"), (Prose, "d ` unclosed\ne")]
        );
        // Tildes fence code too, and only a fence of the same kind closes it.
        assert_eq!(
            pieces("see\n~~~\n```\nlet a = 1;\n~~~~\nafter"),
            [(Prose, "see\n"), (CodeBlock, "```\nlet a = 1;\n"), (Prose, "after")]
        );
        // Backticks in the middle of a line are inline code, however many; a longer run holds a shorter one.
        assert_eq!(
            pieces("call ```spawn()``` or `` a`b `` now"),
            [(Prose, "call "), (InlineCode, "spawn()"), (Prose, " or "), (InlineCode, " a`b "), (Prose, " now")]
        );
        // A block never closed runs to the end.
        assert_eq!(pieces("x\n```\nfn y() {}"), [(Prose, "x\n"), (CodeBlock, "fn y() {}")]);
        // So does an HTML `<pre>` block, a template's way to show debug output; a fence in it is text.
        assert_eq!(
            pieces(
                "<details>\n<summary>Debug</summary>\n<PRE>\nDEBUG:clap:Parser::get_matches_with;\n```\n</code></pre>\nafter"
            ),
            [
                (Prose, "<details>\n<summary>Debug</summary>\n"),
                (CodeBlock, "DEBUG:clap:Parser::get_matches_with;\n```\n"),
                (Prose, "after")
            ]
        );
        assert_eq!(pieces("a <pre>x</pre> b\nc"), [(Prose, "a <pre>x</pre> b\nc")], "closed on its own line");
        assert_eq!(pieces("```\n<pre>\n```\nd"), [(CodeBlock, "<pre>\n"), (Prose, "d")], "a tag in a fenced block");
    }

    #[test]
    fn code_in_tilde_fences_pre_blocks_and_indented_blocks_is_read_as_code() {
        let tilde = analyze("Crash\n~~~\nparse_all(config, now);\n~~~\n");
        assert!(symbol(&tilde, "config").is_some(), "words in a ~~~ block are code: {:?}", tilde.symbols);
        let indented = analyze("Crash\n\n    # run_all_checks\n    ./x\n");
        assert!(symbol(&indented, "run_all_checks").is_some(), "{:?}", indented.symbols);
        let preformatted = analyze("Wrong usage\n<pre><code>\nDEBUG:clap:Parser::get_matches_with;\n</code></pre>\n");
        let logged = symbol(&preformatted, "get_matches_with").map(|s| s.weight);
        assert!(logged.is_some_and(|weight| weight < 0.5), "a name in a <pre> block counts as code's: {logged:?}");
        let heading = analyze("Crash\n   ## Hidden_heading\nbody");
        assert!(symbol(&heading, "Hidden_heading").is_none(), "up to three spaces still make a heading");
    }

    use proptest::strategy::Strategy;

    proptest::proptest! {
        /// The regions are the text's own slices, in order and apart, and what lies between
        /// two of them is only what delimits them: a whole line that opens or closes a block
        /// (a fence, `<pre>`, `</pre>`) or a run of backticks.
        #[test]
        fn regions_lose_nothing_but_their_delimiters(
            pieces in proptest::collection::vec(proptest::prop_oneof![
                proptest::sample::select(vec![
                    "\n", "```", "```rust\n", "~~~\n", "`", "``", "<pre>", "<PRE class=x>", "</pre>", "<pre>x</pre>",
                    "<details>", "<code>", " ", "word", "Parser::run()", "\r\n", "    indented",
                ]).prop_map(str::to_owned),
                proptest::prelude::any::<String>(),
            ], 0..30),
        ) {
            let text = pieces.concat();
            let mut covered = 0;
            for (_, piece) in regions(&text) {
                let start = piece.as_ptr() as usize - text.as_ptr() as usize;
                proptest::prop_assert!(start >= covered && start + piece.len() <= text.len());
                let between = &text[covered..start];
                let delimiter_lines = between.split_inclusive('\n').all(|line| {
                    let trimmed = line.trim();
                    fence(trimmed).is_some() || opens_preformatted(trimmed) || closes_preformatted(trimmed)
                });
                let backticks = between.chars().all(|c| c == '`');
                proptest::prop_assert!(backticks || delimiter_lines, "{between:?} left out of {text:?}");
                covered = start + piece.len();
            }
        }
    }
}
