//! Long documentation comments: the context pack shows a file whole with only the first
//! lines of each, and a write of a whole file must not drop what it left out. They are found
//! with the file's tree-sitter grammar, so that text in a string (a raw string, a template
//! literal, a text block) is never taken for one.

use super::extract::{last_row, parse, walk_tree};
use super::language::Language;

/// A documentation comment longer than this many lines is cut in a file the pack shows whole.
const LONG_DOC_LINES: u32 = 20;
/// Lines a cut documentation comment keeps: its summary and first paragraph, mostly.
pub const KEPT_DOC_LINES: u32 = 8;

/// A documentation comment: its first and last lines, 1-based, and whether it is a block
/// (`/** .. */`), whose closing line a cut keeps so that what is shown still closes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct DocComment {
    /// Its first line.
    start: u32,
    /// Its last line.
    end: u32,
    /// Whether it is one block comment rather than a run of line comments.
    block: bool,
}

impl DocComment {
    /// The lines a file shown whole leaves out of it: those after its first
    /// [`KEPT_DOC_LINES`] (but a block's closing line), when it is longer than
    /// [`LONG_DOC_LINES`].
    fn tail(&self) -> Option<(u32, u32)> {
        (self.end - self.start + 1 > LONG_DOC_LINES)
            .then(|| (self.start + KEPT_DOC_LINES, self.end - u32::from(self.block)))
    }
}

/// The documentation comments of the file at `path` (by its extension's language; none in
/// another), in file order: a run of Rust `///` or `//!` lines (not `////`), or a `/** .. */`
/// block (`/*! .. */` in Rust), each starting its line. Anything the grammar does not read as
/// a comment (a string's text, an unclosed `/**`) is none.
fn doc_comments(path: &str, text: &str) -> Vec<DocComment> {
    let Some(language) = Language::of_path(path) else { return Vec::new() };
    // Most files hold no documentation marks at all: no parse for them.
    if !["///", "//!", "/**", "/*!"].iter().any(|mark| text.contains(mark)) {
        return Vec::new();
    }
    let Some(tree) = parse(language, text.as_bytes(), None) else { return Vec::new() };
    let is_doc_block = |comment: &str| {
        let opened = comment.starts_with("/**") && !comment.starts_with("/**/") && !comment.starts_with("/***");
        opened || (language == Language::Rust && comment.starts_with("/*!"))
    };
    let is_doc_line = |comment: &str| {
        language == Language::Rust
            && ((comment.starts_with("///") && !comment.starts_with("////")) || comment.starts_with("//!"))
    };
    let mut found: Vec<DocComment> = Vec::new();
    let mut last_mark = "";
    walk_tree(tree.root_node(), |node| {
        if node.kind().contains("comment") && !node.kind().contains("marker") {
            let start = node.start_position();
            // Tree-sitter's columns count bytes: the text from the line's start to the comment.
            let before = &text[node.start_byte() - start.column..node.start_byte()];
            let comment = &text[node.byte_range()];
            let line = is_doc_line(comment);
            if before.trim().is_empty() && (line || is_doc_block(comment)) {
                let (first, last) = (start.row as u32 + 1, last_row(node) as u32 + 1);
                // A run is of one mark: `//!` documents the module, `///` the item after it.
                let mark = &comment[..3];
                match found.last_mut() {
                    Some(run) if line && !run.block && run.end + 1 == first && last_mark == mark => run.end = last,
                    _ => found.push(DocComment { start: first, end: last, block: !line }),
                }
                last_mark = mark;
            }
        }
        true
    });
    found
}

/// Rust documentation headings of what a caller must know, lower-case: the sections a cut
/// keeps.
const CONTRACT_HEADINGS: [&str; 5] = ["panics", "errors", "safety", "cancel safety", "cancellation safety"];
/// Javadoc and JSDoc tags of what a caller must know: the tags a cut keeps.
const CONTRACT_TAGS: [&str; 4] = ["@throws", "@exception", "@deprecated", "@panics"];
/// A stretch of a comment shorter than this many lines, between the sections a cut keeps, is
/// shown rather than left out: saying where it was costs as much.
const MIN_CUT_LINES: u32 = 3;

/// What a file shown whole leaves out of one long documentation comment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DocCut {
    /// The comment's first lines, which are shown (1-based, inclusive).
    pub head: (u32, u32),
    /// The comment's last line.
    pub end: u32,
    /// The ranges left out, in order: the rest of the comment, but its sections on what a
    /// caller must know (`# Panics`, `# Errors`, `# Safety`, `@throws`, `@deprecated`) and
    /// a block's closing line.
    pub left_out: Vec<(u32, u32)>,
}

/// The text of a documentation comment's line without its marks (`///`, `//!`, `/**`, `*`).
fn doc_text(line: &str) -> &str {
    let line = line.trim_start();
    let line = ["///", "//!", "/**", "/*!", "*"].iter().find_map(|mark| line.strip_prefix(mark)).unwrap_or(line);
    line.trim()
}

/// Which of `lines` (a comment's) belong to a section on what a caller must know: a Rust
/// heading of [`CONTRACT_HEADINGS`] up to the next heading, or a tag of [`CONTRACT_TAGS`] up
/// to the next tag. A `#` line inside an example (` ``` `) is code, not a heading.
fn contract_lines(lines: &[&str]) -> Vec<bool> {
    let mut in_example = false;
    let mut in_section = false;
    lines
        .iter()
        .map(|line| {
            let text = doc_text(line);
            if text.starts_with("```") {
                in_example = !in_example;
                return in_section;
            }
            if in_example {
                return in_section;
            }
            if let Some(heading) = text.strip_prefix('#') {
                let heading = heading.trim_start_matches('#').trim().to_lowercase();
                in_section = CONTRACT_HEADINGS.iter().any(|wanted| heading.starts_with(wanted));
            } else if text.starts_with('@') {
                in_section = CONTRACT_TAGS.iter().any(|tag| text.starts_with(tag));
            }
            in_section
        })
        .collect()
}

/// What a file shown whole leaves out of the long documentation comments of `text` (the file
/// at `path`): of each longer than `LONG_DOC_LINES`, what follows its first
/// [`KEPT_DOC_LINES`] lines, but its sections on what a caller must know and a block's closing
/// line. Module documentation with its examples can take most of a file (tokio's
/// `sync/mod.rs` is 450 such lines of 524); the code is what the model edits.
pub fn long_doc_cuts(path: &str, text: &str) -> Vec<DocCut> {
    let comments = doc_comments(path, text);
    if comments.is_empty() {
        return Vec::new();
    }
    let lines: Vec<&str> = text.lines().collect();
    let mut cuts = Vec::new();
    for comment in comments {
        let Some((first, last)) = comment.tail() else { continue };
        // Read from the comment's start, so that an example or a tag open there is known.
        let contract = contract_lines(&lines[comment.start as usize - 1..last as usize]);
        let mut left_out: Vec<(u32, u32)> = Vec::new();
        for (line, kept) in (first..=last).zip(contract.into_iter().skip((first - comment.start) as usize)) {
            match left_out.last_mut() {
                _ if kept => {}
                Some(range) if range.1 + 1 == line => range.1 = line,
                _ => left_out.push((line, line)),
            }
        }
        left_out.retain(|(start, end)| end - start + 1 >= MIN_CUT_LINES);
        if !left_out.is_empty() {
            cuts.push(DocCut { head: (comment.start, first - 1), end: comment.end, left_out });
        }
    }
    cuts
}

/// A line of a comment counts in [`dropped_doc_tail`] when it holds this many characters
/// besides whitespace: `///` or ` * ` alone says nothing of whether a text holds the comment.
const TELLING_CHARS: usize = 8;

/// The first range of lines of `current` (the file at `path`) that `content` drops of a long
/// documentation comment whose first lines it keeps ([`long_doc_cuts`]): the mark of a file
/// written whole from the pack's view of it, which would lose that documentation. The first
/// lines are kept when most of them are there, and a range is dropped when hardly any of its
/// lines are, so that a word changed or a paragraph taken out is no drop. Whitespace and
/// line endings do not count.
pub fn dropped_doc_tail(path: &str, current: &str, content: &str) -> Option<(u32, u32)> {
    let squashed = |text: &str| text.chars().filter(|c| !c.is_whitespace()).collect::<String>();
    let lines: Vec<&str> = current.lines().collect();
    let content = squashed(content);
    // The share of the telling lines of `first..=last` that `content` holds; none when none tell.
    let share_kept = |(first, last): (u32, u32)| {
        let telling: Vec<String> = lines[first as usize - 1..last as usize]
            .iter()
            .map(|line| squashed(line))
            .filter(|line| line.chars().count() >= TELLING_CHARS)
            .collect();
        let kept = telling.iter().filter(|line| content.contains(line.as_str())).count();
        (!telling.is_empty()).then(|| kept as f64 / telling.len() as f64)
    };
    long_doc_cuts(path, current).into_iter().find_map(|cut| {
        if share_kept(cut.head).is_none_or(|share| share < 0.5) {
            return None;
        }
        cut.left_out.into_iter().find(|&range| share_kept(range).is_some_and(|share| share < 0.2))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The lines [`long_doc_cuts`] leaves out of `text`, as 1-based inclusive ranges in order.
    fn long_doc_tails(path: &str, text: &str) -> Vec<(u32, u32)> {
        long_doc_cuts(path, text).into_iter().flat_map(|cut| cut.left_out).collect()
    }

    fn doc_lines(mark: &str, count: usize) -> String {
        (0..count).map(|n| format!("{mark} line {n} of the documentation\n")).collect()
    }

    #[test]
    fn long_documentation_comments_keep_their_first_lines() {
        // A run of 21 `//!` lines, then code, then a short `///` run: only the first is cut.
        let text = format!("{}\nuse std::io;\n{}fn f() {{}}\n", doc_lines("//!", 21), doc_lines("    ///", 20));
        assert_eq!(long_doc_tails("src/lib.rs", &text), [(9, 21)]);
        // Rust's `/*! .. */` and `/** .. */` blocks keep their closing line; `////` is no doc.
        let blocks = format!("/*!\n{} */\n{}fn f() {{}}\n", doc_lines(" *", 24), doc_lines("////", 30));
        assert_eq!(long_doc_tails("src/lib.rs", &blocks), [(9, 25)]);

        // A Java block of 30 lines keeps its first eight and its closing line.
        let block = format!("/**\n{} */\npublic class A {{}}\n", doc_lines(" *", 28));
        assert_eq!(long_doc_tails("A.java", &block), [(9, 29)]);
        // `/** .. */` on one line, `/**/` and a plain `/* .. */` are no long documentation.
        let short = format!("/** one */\n/**/\n/*\n{}*/\nclass A {{}}\n", doc_lines(" *", 30));
        assert!(long_doc_tails("A.java", &short).is_empty());
        // TypeScript's JSDoc is; its `///` lines are directives, not documentation.
        let typescript =
            format!("{}/**\n{} */\nexport function f() {{}}\n", doc_lines("/// <reference", 25), doc_lines(" *", 22));
        assert_eq!(long_doc_tails("src/a.ts", &typescript), [(34, 48)]);
        // A file in no parsed language has none.
        assert!(long_doc_tails("notes.md", &block).is_empty());
    }

    #[test]
    fn a_cut_keeps_what_a_caller_must_know() {
        let rust = "/// Acquires a permit.\n///\n/// # Examples\n///\n/// ```\n/// # Errors\n/// let permit = sem.acquire();\n\
                    /// ```\n///\n/// More words.\n/// More words.\n/// More words.\n/// More words.\n/// More words.\n\
                    /// # Panics\n///\n/// When the semaphore is closed.\n///\n/// # Examples\n/// More words.\n\
                    /// More words.\n/// More words.\n/// More words.\npub fn acquire() {}\n";
        let cuts = long_doc_cuts("src/lib.rs", rust);
        // Lines 9-14 are left out, `# Panics` (15-18) is kept, and so is a stretch too short to
        // leave out; the `# Errors` inside the example is code.
        assert_eq!(cuts, [DocCut { head: (1, 8), end: 23, left_out: vec![(9, 14), (19, 23)] }]);

        // An example open in the first lines is known to close before `# Panics`; a stretch
        // of two lines between kept sections is shown.
        let opened = "/// Acquires.\n///\n/// ```\n/// let a = 1;\n/// let b = 2;\n/// let c = 3;\n/// let d = 4;\n\
                      /// let e = 5;\n/// let f = 6;\n/// ```\n/// Words.\n/// Words.\n/// Words.\n/// # Panics\n\
                      /// When closed.\n/// # Notes\n/// Two lines.\n/// # Errors\n/// When full.\n/// # Examples\n\
                      /// More.\n/// More.\n/// More.\npub fn acquire() {}\n";
        assert_eq!(long_doc_tails("src/lib.rs", opened), [(9, 13), (20, 23)]);
        // A module's `//!` run and the `///` of the item after it are two comments.
        let module_then_item = format!("{}{}pub fn f() {{}}\n", doc_lines("//!", 12), doc_lines("///", 12));
        assert!(long_doc_tails("src/lib.rs", &module_then_item).is_empty());

        let java = format!(
            "/**\n{} * @param n the count\n * @throws IllegalStateException when closed\n *   and more\n\
             * @return the permits\n{} */\nint acquire(int n);\n",
            doc_lines(" *", 10),
            doc_lines(" * more", 8)
        );
        // The `@throws` tag, over its two lines, is kept.
        assert_eq!(long_doc_tails("A.java", &java), [(9, 12), (15, 23)]);
        // A write that drops a stretch after a kept section is caught as well.
        let lines: Vec<&str> = java.lines().collect();
        let without = [&lines[..14], &lines[23..]].concat().join("\n");
        assert_eq!(dropped_doc_tail("A.java", &java, &without), Some((15, 23)));
    }

    #[test]
    fn text_in_a_string_is_never_taken_for_documentation() {
        let rust = format!(
            "const RAW: &str = r#\"\n{}\"#;\nconst PLAIN: &str = \"\n{}\";\nfn f() {{}}\n",
            doc_lines("///", 25),
            doc_lines("/**", 25)
        );
        assert!(long_doc_tails("src/lib.rs", &rust).is_empty());
        let typescript = format!("const t = `\n{}`;\n", doc_lines("/**", 25));
        assert!(long_doc_tails("src/a.ts", &typescript).is_empty());
        let java = format!("class A {{\n  String s = \"\"\"\n{}\"\"\";\n}}\n", doc_lines("/**", 25));
        assert!(long_doc_tails("A.java", &java).is_empty());
    }

    #[test]
    fn a_content_that_keeps_a_long_comments_head_but_drops_its_tail_is_caught() {
        let current = format!("{}pub fn f() {{}}\n", doc_lines("///", 24));
        // What the pack shows: the first eight lines, then the code.
        let shown = format!("{}pub fn f() {{ g() }}\n", doc_lines("///", 8));
        assert_eq!(dropped_doc_tail("src/lib.rs", &current, &shown), Some((9, 24)));
        // The whole comment kept, re-indented with CRLF, or the comment rewritten: no drop.
        let kept = current.replace("{}", "{ g() }").replace('\n', "\r\n").replace("///", "  ///");
        assert_eq!(dropped_doc_tail("src/lib.rs", &current, &kept), None);
        assert_eq!(dropped_doc_tail("src/lib.rs", &current, "/// New words.\npub fn f() {}\n"), None);
        // A word changed in the rest, or a paragraph of it taken out, is no drop either.
        let renamed = current.replace("line 12", "row 12").replace("line 20", "row 20");
        assert_eq!(dropped_doc_tail("src/lib.rs", &current, &renamed), None);
        let shortened: String =
            current.lines().filter(|line| !line.contains("line 1")).map(|l| format!("{l}\n")).collect();
        assert_eq!(dropped_doc_tail("src/lib.rs", &current, &shortened), None);
        // A word changed in the first lines and the rest dropped is.
        let head_edited = shown.replace("line 3", "row 3");
        assert_eq!(dropped_doc_tail("src/lib.rs", &current, &head_edited), Some((9, 24)));
        // A file without a long comment.
        assert_eq!(dropped_doc_tail("src/lib.rs", "fn f() {}\n", ""), None);
    }

    #[test]
    fn malformed_documentation_is_cut_without_panicking() {
        // A block never closed is no comment to the grammar: nothing is cut, no code is lost.
        let open = format!("class A {{\n  int x;\n/**\n{}  int y;\n}}\n", doc_lines(" *", 25));
        assert!(long_doc_tails("A.java", &open).is_empty());
        // Empty text, a lone `/**`, CRLF line ends and multi-byte text.
        assert!(long_doc_tails("src/lib.rs", "").is_empty());
        assert!(long_doc_tails("src/lib.rs", "/**").is_empty());
        let crlf = format!("{}fn f() {{}}\r\n", doc_lines("/// é", 22).replace('\n', "\r\n"));
        assert_eq!(long_doc_tails("src/lib.rs", &crlf), [(9, 22)]);
        // A run at the very end of the file without a final newline.
        let last = doc_lines("//!", 25);
        assert_eq!(long_doc_tails("src/lib.rs", last.trim_end()), [(9, 25)]);
        // A comment after code on its line starts no run.
        let after_code = format!("fn f() {{}} /**\n{} */\n", doc_lines(" *", 25));
        assert!(long_doc_tails("src/lib.rs", &after_code).is_empty());
    }

    proptest::proptest! {
        /// Whatever the text, the tails lie within its lines, in order, apart, and each
        /// follows the first lines of its comment; a whole-file write of the text itself drops none.
        #[test]
        fn any_text_has_tails_inside_it(lines in proptest::collection::vec(
            proptest::prop_oneof![
                proptest::strategy::Just("/// doc".to_owned()),
                proptest::strategy::Just("//! doc".to_owned()),
                proptest::strategy::Just("/**".to_owned()),
                proptest::strategy::Just(" */".to_owned()),
                proptest::strategy::Just("/** x */ y".to_owned()),
                proptest::strategy::Just("r#\"".to_owned()),
                proptest::strategy::Just("`".to_owned()),
                proptest::strategy::Just("/// # Panics".to_owned()),
                proptest::strategy::Just(" * @throws E when".to_owned()),
                proptest::strategy::Just("/// ```".to_owned()),
                "[ a-z*/!é\"#@]{0,8}",
            ],
            0..120,
        ), crlf in proptest::bool::ANY, path in proptest::prop_oneof![
            proptest::strategy::Just("src/lib.rs"),
            proptest::strategy::Just("A.java"),
            proptest::strategy::Just("a.ts"),
        ]) {
            let text = lines.join(if crlf { "\r\n" } else { "\n" });
            let count = text.lines().count() as u32;
            let mut previous_end = 0;
            for cut in long_doc_cuts(path, &text) {
                let (head_start, head_end) = cut.head;
                proptest::prop_assert!(head_start > previous_end && head_end - head_start + 1 == KEPT_DOC_LINES, "{cut:?}");
                for &(start, end) in &cut.left_out {
                    proptest::prop_assert!(start > previous_end.max(head_end) && start <= end && end <= cut.end && cut.end <= count, "{cut:?}");
                    previous_end = end;
                }
                previous_end = previous_end.max(cut.end);
            }
            // The file written back as it is never counts as a drop.
            proptest::prop_assert_eq!(dropped_doc_tail(path, &text, &text), None);
        }
    }
}
