//! Three-way line merge: carries a proposal's changes onto a file the user edited since.
//!
//! Both sides' changes are line hunks against the common base. Hunks that overlap or touch
//! conflict (as in git), unless both sides made the very same change. There is no attempt
//! to resolve a conflict: the caller refuses the file and says so.

use std::ops::Range;
use std::time::Duration;

use similar::{DiffTag, TextDiff};

/// Two sides changed the same lines of the base differently.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("both sides changed lines {}-{} of the original text", first_line, last_line)]
pub struct MergeConflict {
    /// First conflicting line of the base (1-based).
    pub first_line: usize,
    /// Last conflicting line of the base (1-based, at least `first_line`).
    pub last_line: usize,
}

/// A replacement of base lines `base` by `lines`.
#[derive(Debug, PartialEq, Eq)]
struct Hunk<'a> {
    base: Range<usize>,
    lines: Vec<&'a str>,
}

impl Hunk<'_> {
    fn clashes_with(&self, other: &Hunk<'_>) -> bool {
        self.base.start <= other.base.end && other.base.start <= self.base.end
    }
}

/// The base's lines and the hunks turning it into `side`; lines keep their terminators.
fn hunks<'a>(base: &'a str, side: &'a str) -> (Vec<&'a str>, Vec<Hunk<'a>>) {
    let diff = TextDiff::configure().timeout(Duration::from_secs(2)).diff_lines(base, side);
    let base_lines = tokens(base, diff.iter_old_slices().map(str::len));
    let new_lines = tokens(side, diff.iter_new_slices().map(str::len));
    let mut out: Vec<Hunk<'a>> = Vec::new();
    for op in diff.ops() {
        if op.tag() == DiffTag::Equal {
            continue;
        }
        let (old, new) = (op.old_range(), op.new_range());
        match out.last_mut() {
            Some(last) if last.base.end == old.start => {
                last.base.end = old.end;
                last.lines.extend_from_slice(&new_lines[new]);
            }
            _ => out.push(Hunk { base: old, lines: new_lines[new].to_vec() }),
        }
    }
    (base_lines, out)
}

/// Re-slices `text` by the token lengths of a diff, so the slices borrow from `text`.
fn tokens(text: &str, lengths: impl Iterator<Item = usize>) -> Vec<&str> {
    let mut at = 0;
    lengths
        .map(|len| {
            let token = &text[at..at + len];
            at += len;
            token
        })
        .collect()
}

/// Merges the changes `base -> ours` and `base -> theirs` into one text.
pub fn merge3(base: &str, ours: &str, theirs: &str) -> Result<String, MergeConflict> {
    let (base_lines, ours) = hunks(base, ours);
    let (_, theirs) = hunks(base, theirs);
    let (mut a, mut b) = (ours.iter().peekable(), theirs.iter().peekable());
    let mut merged = String::with_capacity(base.len());
    let mut position = 0;
    loop {
        let next = match (a.peek(), b.peek()) {
            (None, None) => break,
            (Some(x), Some(y)) if x.clashes_with(y) => {
                if x != y {
                    let start = x.base.start.min(y.base.start);
                    let end = x.base.end.max(y.base.end);
                    return Err(MergeConflict { first_line: start + 1, last_line: end.max(start + 1) });
                }
                b.next();
                a.next().expect("peeked")
            }
            (Some(x), Some(y)) if y.base.start < x.base.start => b.next().expect("peeked"),
            (Some(_), _) => a.next().expect("peeked"),
            (None, Some(_)) => b.next().expect("peeked"),
        };
        merged.extend(base_lines[position..next.base.start].iter().copied());
        merged.extend(next.lines.iter().copied());
        position = next.base.end;
    }
    merged.extend(base_lines[position..].iter().copied());
    Ok(merged)
}

#[cfg(test)]
mod tests {
    use super::*;

    const BASE: &str = "one\ntwo\nthree\nfour\nfive\nsix\n";

    #[test]
    fn separate_changes_both_land() {
        let ours = "one\nTWO\nthree\nfour\nfive\nsix\n";
        let theirs = "one\ntwo\nthree\nfour\nFIVE\nsix\nseven\n";
        assert_eq!(merge3(BASE, ours, theirs).unwrap(), "one\nTWO\nthree\nfour\nFIVE\nsix\nseven\n");
    }

    #[test]
    fn overlapping_changes_conflict() {
        let ours = "one\n2\nthree\nfour\nfive\nsix\n";
        let theirs = "one\nzwei\nthree\nfour\nfive\nsix\n";
        assert_eq!(merge3(BASE, ours, theirs), Err(MergeConflict { first_line: 2, last_line: 2 }));
    }

    #[test]
    fn adjacent_changes_conflict() {
        let ours = "one\n2\nthree\nfour\nfive\nsix\n";
        let theirs = "one\ntwo\n3\nfour\nfive\nsix\n";
        assert!(merge3(BASE, ours, theirs).is_err());
    }

    #[test]
    fn the_same_change_on_both_sides_is_taken_once() {
        let both = "one\ntwo\nthree\n4\nfive\nsix\n";
        assert_eq!(merge3(BASE, both, both).unwrap(), both);
    }

    #[test]
    fn unchanged_sides_yield_the_other() {
        let theirs = "zero\none\ntwo\nthree\nfour\nfive\nsix\n";
        assert_eq!(merge3(BASE, BASE, theirs).unwrap(), theirs);
        assert_eq!(merge3(BASE, theirs, BASE).unwrap(), theirs);
    }

    #[test]
    fn crlf_lines_merge_whole() {
        let base = "a\r\nb\r\nc\r\nd\r\n";
        let ours = "A\r\nb\r\nc\r\nd\r\n";
        let theirs = "a\r\nb\r\nc\r\nD\r\n";
        assert_eq!(merge3(base, ours, theirs).unwrap(), "A\r\nb\r\nc\r\nD\r\n");
    }
}
