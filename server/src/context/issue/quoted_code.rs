//! Lines of the workspace's own code that an issue's code blocks quote (the reporter pasted
//! the code they propose to change): each read as code, with its whitespace collapsed.

use super::code::code_lines;
use super::markdown::{Region, regions};

/// How many quoted lines are kept at most.
pub(super) const MAX_QUOTED_LINES: usize = 80;
/// A line shorter than this (whitespace collapsed) is too common to say where it comes from.
pub const MIN_QUOTED_LEN: usize = 20;

/// A code line with its runs of whitespace made one space, trimmed.
pub fn normalised_line(line: &str) -> String {
    line.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The code lines of `text`'s code blocks long and wordy enough to be looked for in the
/// workspace's files: code, not a trace's or a comment, at least two words of three letters.
pub(super) fn quoted_code_lines(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for (_, block) in regions(text).into_iter().filter(|(region, _)| *region == Region::CodeBlock) {
        let mut start = 0;
        for line in code_lines(block) {
            let code = &block[start..line.comment.unwrap_or(line.end)];
            start = line.end;
            if !line.code || line.trace {
                continue;
            }
            let normal = normalised_line(code);
            let words = normal
                .split(|c: char| !c.is_alphanumeric() && c != '_')
                .filter(|w| w.chars().filter(|c| c.is_alphabetic()).count() >= 3)
                .count();
            if normal.len() >= MIN_QUOTED_LEN && words >= 2 && !out.contains(&normal) {
                out.push(normal);
                if out.len() >= MAX_QUOTED_LINES {
                    return out;
                }
            }
        }
    }
    out
}
