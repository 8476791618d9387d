//! What of each file a run's model has been shown, so that writing a file whole cannot drop
//! code the model never saw.
//!
//! The context pack shows a large file in part, and `read_file` in pieces. A model that then
//! writes the file whole from what it saw would leave out the rest; `write_file` refuses a
//! content that drops lines of code the run has not shown. Lines are known by their text
//! (trimmed), not their numbers, so the model's own patches, which move lines, keep what it
//! saw.

use std::collections::{HashMap, HashSet};

use crate::context::ContextPack;
use crate::context::pack::left_out_in_full;

/// Most ranges a refusal names; the rest are counted.
const NAMED_RANGES: usize = 4;

/// What of each file the run's model has been shown, by workspace path.
#[derive(Debug, Default, Clone)]
pub struct Seen {
    files: HashMap<String, FileSeen>,
    /// What the first prompt's pack shows, which stays in the conversation.
    pack: HashMap<String, FileSeen>,
}

#[derive(Debug, Clone)]
enum FileSeen {
    /// The whole file, as the model wrote it.
    Whole,
    /// These lines, trimmed.
    Lines(HashSet<String>),
}

/// Lines of a file that a content drops and the run never showed the model.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnseenDrop {
    /// The line ranges (1-based, inclusive) that hold them, in file order.
    pub ranges: Vec<(usize, usize)>,
    /// How many lines of code they are (lines with a letter or digit).
    pub lines: usize,
}

impl Seen {
    /// What the first prompt's `pack` shows, of the files' texts as `read` gives them (as
    /// the pack read them): the lines of its files in full but for a licence header and the
    /// tails of long documentation comments, which a block in full may leave out (counted
    /// unseen even where the pack had room to show them), and the lines of the parts shown
    /// of the others.
    pub fn of_pack(pack: &ContextPack, read: impl Fn(&str) -> Option<String>) -> Self {
        let mut seen = Self::default();
        for path in &pack.full_files {
            let Some(text) = read(path) else { continue };
            let left_out = left_out_in_full(path, &text);
            let is_left_out = |number: u32| left_out.iter().any(|(start, end)| (*start..=*end).contains(&number));
            let shown = text.lines().zip(1..).filter(|(_, number)| !is_left_out(*number)).map(|(line, _)| line);
            seen.saw_lines(path, shown);
        }
        for (path, ranges) in &pack.part_ranges {
            let Some(text) = read(path) else { continue };
            let lines: Vec<&str> = text.lines().collect();
            for &(start, end) in ranges {
                let shown = lines.get(start.saturating_sub(1) as usize..(end as usize).min(lines.len()));
                seen.saw_lines(path, shown.unwrap_or_default().iter().copied());
            }
        }
        seen.pack = seen.files.clone();
        seen
    }

    /// Records that what the model was shown of the file at `path`, beyond the first
    /// prompt's pack, has left the conversation.
    pub fn forget(&mut self, path: &str) {
        match self.pack.get(path) {
            Some(shown) => self.files.insert(path.to_owned(), shown.clone()),
            None => self.files.remove(path),
        };
    }

    /// Records that the model has the whole of the file at `path` (it wrote it).
    pub fn saw_whole(&mut self, path: &str) {
        self.files.insert(path.to_owned(), FileSeen::Whole);
    }

    /// Records that the model was shown `lines` of the file at `path`.
    pub fn saw_lines<'a>(&mut self, path: &str, lines: impl IntoIterator<Item = &'a str>) {
        let seen = self.files.entry(path.to_owned()).or_insert_with(|| FileSeen::Lines(HashSet::new()));
        if let FileSeen::Lines(known) = seen {
            known.extend(lines.into_iter().map(str::trim).filter(|line| is_code(line)).map(str::to_owned));
        }
    }

    /// The lines of code of `current`, the text of the file at `path`, that `content` leaves
    /// out and the model was never shown; `None` when there are none.
    pub fn unseen_dropped(&self, path: &str, current: &str, content: &str) -> Option<UnseenDrop> {
        let known = match self.files.get(path) {
            Some(FileSeen::Whole) => return None,
            Some(FileSeen::Lines(known)) => Some(known),
            None => None,
        };
        let kept: HashSet<&str> = content.lines().map(str::trim).collect();
        let mut ranges: Vec<(usize, usize)> = Vec::new();
        let mut open = false;
        let mut lines = 0;
        for (at, line) in current.lines().enumerate() {
            let line = line.trim();
            if !is_code(line) {
                // Blank lines and lone brackets neither count nor part two ranges.
                continue;
            }
            let dropped = !kept.contains(line) && !known.is_some_and(|known| known.contains(line));
            match (dropped, ranges.last_mut()) {
                (true, Some(last)) if open => last.1 = at + 1,
                (true, _) => ranges.push((at + 1, at + 1)),
                (false, _) => {}
            }
            open = dropped;
            lines += usize::from(dropped);
        }
        (lines > 0).then_some(UnseenDrop { ranges, lines })
    }
}

impl UnseenDrop {
    /// The ranges as a refusal names them: `lines 40-212, 300 and 310-400`, the first few.
    pub fn describe(&self) -> String {
        let named: Vec<String> = self
            .ranges
            .iter()
            .take(NAMED_RANGES)
            .map(|&(start, end)| if start == end { format!("{start}") } else { format!("{start}-{end}") })
            .collect();
        let more = self.ranges.len().saturating_sub(NAMED_RANGES);
        let list = match (named.split_last(), more) {
            (Some((last, [])), 0) => last.clone(),
            (Some((last, rest)), 0) => format!("{} and {last}", rest.join(", ")),
            (_, more) => format!("{} and {more} more stretch{}", named.join(", "), if more == 1 { "" } else { "es" }),
        };
        let word = if self.ranges.len() == 1 && self.ranges[0].0 == self.ranges[0].1 { "line" } else { "lines" };
        format!("{word} {list}")
    }
}

/// Whether a trimmed line is code worth keeping: it holds a letter or a digit (not a blank
/// line, a lone bracket or a comment's frame).
fn is_code(line: &str) -> bool {
    line.chars().any(char::is_alphanumeric)
}

#[cfg(test)]
mod tests {
    use super::*;

    const FILE: &str = "use a::B;\n\nfn one() {\n    1\n}\n\nfn two() {\n    2\n}\n\nfn three() {\n    3\n}\n";

    #[test]
    fn a_content_that_drops_lines_never_shown_is_caught_by_their_lines() {
        let mut seen = Seen::default();
        seen.saw_lines("a.rs", ["fn two() {", "    2", "}"]);
        let rewritten = "use a::B;\n\nfn two() {\n    22\n}\n";
        let drop = seen.unseen_dropped("a.rs", FILE, rewritten).expect("one and three were never shown");
        assert_eq!(drop.ranges, [(3, 4), (11, 12)]);
        assert_eq!(drop.lines, 4);
        assert_eq!(drop.describe(), "lines 3-4 and 11-12");
        // Lines shown and dropped on purpose, and lines kept, are the model's to change.
        let kept = "use a::B;\nfn one() {\n    1\n}\nfn three() {\n    3\n}\n";
        assert_eq!(seen.unseen_dropped("a.rs", FILE, kept), None);
        // The whole file, once shown or written, may be written any way.
        seen.saw_whole("a.rs");
        assert_eq!(seen.unseen_dropped("a.rs", FILE, ""), None);
    }

    #[test]
    fn forgetting_a_file_keeps_what_the_first_prompt_shows_of_it() {
        let mut seen = Seen::default();
        seen.saw_lines("a.rs", ["fn one() {", "    1"]);
        seen.pack = seen.files.clone();
        seen.saw_lines("a.rs", ["fn two() {", "    2"]);
        seen.saw_whole("b.rs");
        seen.forget("a.rs");
        seen.forget("b.rs");
        let without_two = "use a::B;\n\nfn one() {\n    1\n}\n\nfn three() {\n    3\n}\n";
        let drop = seen.unseen_dropped("a.rs", FILE, without_two).expect("two was read, then left the conversation");
        assert_eq!(drop.ranges, [(7, 8)]);
        assert_eq!(
            seen.unseen_dropped("a.rs", FILE, "use a::B;\nfn two() {\n    2\n}\nfn three() {\n    3\n}\n"),
            None,
            "the pack's lines stay seen"
        );
        assert!(seen.unseen_dropped("b.rs", FILE, "").is_some(), "written whole, then out of sight");
    }

    #[test]
    fn a_file_never_shown_may_only_be_written_with_its_code_kept() {
        let seen = Seen::default();
        let appended = format!("{FILE}\nfn four() {{}}\n");
        assert_eq!(seen.unseen_dropped("a.rs", FILE, &appended), None, "indented otherwise, or added to");
        let drop = seen.unseen_dropped("a.rs", FILE, "fn four() {}\n").unwrap();
        assert_eq!(drop.ranges, [(1, 12)], "blank lines and brackets do not part a range");
        assert_eq!(drop.lines, 7);
    }

    #[test]
    fn a_refusal_names_the_first_ranges_and_counts_the_rest() {
        let drop = |ranges: Vec<(usize, usize)>| UnseenDrop { lines: ranges.len(), ranges };
        assert_eq!(drop(vec![(7, 7)]).describe(), "line 7");
        assert_eq!(drop(vec![(1, 2), (5, 5), (9, 12)]).describe(), "lines 1-2, 5 and 9-12");
        let many = drop((1..=7).map(|n| (n * 10, n * 10 + 1)).collect());
        assert_eq!(many.describe(), "lines 10-11, 20-21, 30-31, 40-41 and 3 more stretches");
    }
}
