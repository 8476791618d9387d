//! Long documentation comments: the context pack shows a file whole with only the first
//! lines of each, and a write of a whole file must not drop what it left out.

/// A documentation comment longer than this many lines is cut in a file the pack shows whole.
pub const LONG_DOC_LINES: u32 = 20;
/// Lines a cut documentation comment keeps: its summary and first paragraph, mostly.
pub const KEPT_DOC_LINES: u32 = 8;

/// The lines of `text` the pack leaves out of a file it shows whole, as 1-based inclusive
/// ranges in file order: of each documentation comment longer than [`LONG_DOC_LINES`] (a run
/// of `///` or `//!` lines, or a `/** .. */` block), what follows its first [`KEPT_DOC_LINES`]
/// lines, but for a block's closing line, so that what is shown still closes the comment.
/// Module documentation with its examples can take most of a file (tokio's `sync/mod.rs` is
/// 450 such lines of 524); the code is what the model edits.
pub fn long_doc_tails(text: &str) -> Vec<(u32, u32)> {
    let lines: Vec<&str> = text.lines().map(str::trim_start).collect();
    let is_line_doc = |line: &str| line.starts_with("///") || line.starts_with("//!");
    let mut tails = Vec::new();
    let mut at = 0;
    while at < lines.len() {
        let line = lines[at];
        let (end, closing_kept) = if is_line_doc(line) {
            let run = lines[at..].iter().take_while(|line| is_line_doc(line)).count();
            (at + run - 1, false)
        } else if line.starts_with("/**") && !line.starts_with("/**/") {
            // The block ends on the line that closes it, after its opening `/**`.
            let closes = |offset: usize, line: &str| line[if offset == 0 { 3 } else { 0 }..].contains("*/");
            let closing = lines[at..].iter().enumerate().position(|(offset, line)| closes(offset, line));
            match closing {
                Some(offset) => (at + offset, true),
                // Never closed: the rest of the file is the comment.
                None => (lines.len() - 1, false),
            }
        } else {
            at += 1;
            continue;
        };
        let length = (end - at + 1) as u32;
        if length > LONG_DOC_LINES {
            let first_cut = at as u32 + 1 + KEPT_DOC_LINES;
            let last_cut = end as u32 + 1 - u32::from(closing_kept);
            tails.push((first_cut, last_cut));
        }
        at = end + 1;
    }
    tails
}

/// The first of `current`'s long documentation comments whose first lines `content` keeps
/// and whose rest ([`long_doc_tails`]) it drops, as the lines dropped: the mark of a file
/// written whole from the pack's view of it, which would lose that documentation.
/// Whitespace and line endings do not count.
pub fn dropped_doc_tail(current: &str, content: &str) -> Option<(u32, u32)> {
    let squashed = |text: &str| text.chars().filter(|c| !c.is_whitespace()).collect::<String>();
    let lines: Vec<&str> = current.lines().collect();
    let text_of = |first: u32, last: u32| squashed(&lines[first as usize - 1..last as usize].concat());
    let content = squashed(content);
    long_doc_tails(current).into_iter().find(|&(start, end)| {
        let head = text_of(start - KEPT_DOC_LINES, start - 1);
        content.contains(&head) && !content.contains(&text_of(start, end))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc_lines(mark: &str, count: usize) -> String {
        (0..count).map(|n| format!("{mark} line {n}\n")).collect()
    }

    #[test]
    fn long_documentation_comments_keep_their_first_lines() {
        // A run of 21 `//!` lines, then code, then a short `///` run: only the first is cut.
        let text = format!("{}\nuse std::io;\n{}fn f() {{}}\n", doc_lines("//!", 21), doc_lines("    ///", 20));
        assert_eq!(long_doc_tails(&text), vec![(9, 21)]);

        // A Java block of 30 lines keeps its first eight and its closing line.
        let block = format!("/**\n{} */\npublic class A {{}}\n", doc_lines(" *", 28));
        assert_eq!(long_doc_tails(&block), vec![(9, 29)]);
        // `/** .. */` on one line, `/**/` and a plain `/* .. */` are no long documentation.
        let short = format!("/** one */\n/**/\n/*\n{}*/\nint x;\n", doc_lines(" *", 30));
        assert_eq!(long_doc_tails(&short), Vec::<(u32, u32)>::new());
        // A block whose first line closes it after text: one line.
        assert_eq!(long_doc_tails("/** a */ int x;\n"), Vec::<(u32, u32)>::new());
    }

    #[test]
    fn a_content_that_keeps_a_long_comments_head_but_drops_its_tail_is_caught() {
        let current = format!("{}pub fn f() {{}}\n", doc_lines("///", 24));
        // What the pack shows: the first eight lines, then the code.
        let shown = format!("{}pub fn f() {{ g() }}\n", doc_lines("///", 8));
        assert_eq!(dropped_doc_tail(&current, &shown), Some((9, 24)));
        // The whole comment kept, re-indented with CRLF, or the comment rewritten: no drop.
        let kept = current.replace("{}", "{ g() }").replace('\n', "\r\n").replace("///", "  ///");
        assert_eq!(dropped_doc_tail(&current, &kept), None);
        assert_eq!(dropped_doc_tail(&current, "/// New words.\npub fn f() {}\n"), None);
        // A file without a long comment, and one whose comment was never closed.
        assert_eq!(dropped_doc_tail("fn f() {}\n", ""), None);
        let open = format!("/**\n{}", doc_lines(" *", 30));
        assert_eq!(dropped_doc_tail(&open, &format!("/**\n{}", doc_lines(" *", 7))), Some((9, 31)));
    }

    #[test]
    fn malformed_documentation_is_cut_without_panicking() {
        // A block never closed runs to the end of the file, and is cut after its first eight lines.
        let open = format!("int x;\n/**\n{}", doc_lines(" *", 25));
        assert_eq!(long_doc_tails(&open), vec![(10, 27)]);
        // Empty text, a lone `/**`, CRLF line ends and multi-byte text.
        assert!(long_doc_tails("").is_empty());
        assert!(long_doc_tails("/**").is_empty());
        let crlf = doc_lines("/// é", 22).replace('\n', "\r\n");
        assert_eq!(long_doc_tails(&crlf), vec![(9, 22)]);
        // A run at the very end of the file without a final newline.
        let last = doc_lines("//!", 25);
        assert_eq!(long_doc_tails(last.trim_end()), vec![(9, 25)]);
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
                "[ a-z*/!é]{0,8}",
            ],
            0..120,
        ), crlf in proptest::bool::ANY) {
            let text = lines.join(if crlf { "\r\n" } else { "\n" });
            let tails = long_doc_tails(&text);
            let count = text.lines().count() as u32;
            let mut previous_end = 0;
            for &(start, end) in &tails {
                proptest::prop_assert!(start > previous_end + KEPT_DOC_LINES && start <= end && end <= count, "{tails:?}");
                previous_end = end;
            }
            proptest::prop_assert_eq!(dropped_doc_tail(&text, &text), None);
        }
    }
}
