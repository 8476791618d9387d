//! One file's block as the pack shows it: a heading with its path and what is left out, and
//! the text in a fence that its own backticks cannot close.

use std::fmt::Write;

use super::shown::DOCS_CUT_NOTE;
use crate::context::doc_comments::{DocCut, KEPT_DOC_LINES, long_doc_cuts};
use crate::context::parts::merged;
use crate::workspace::{generated_marker, licence_header, text_measure as measure};

/// Said of a file whose header says a tool writes it.
pub(super) fn generated_note(marker: &str) -> String {
    format!(" [generated (`{marker}`): a change here is lost when it is generated again; change its source]")
}

/// A code fence longer than any run of backticks in `text`, so the text cannot end it.
fn fence_for(text: &str) -> String {
    let longest = text.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    "`".repeat(longest.max(2) + 1)
}

/// The pack's block for the `parts` of the file at `path` (most important first), its heading
/// with `note`: as many of them as fit in `room` characters, shown in file order, and the line
/// ranges it shows (1-based, inclusive); none when not even one fits.
pub(super) fn parts_block(
    path: &str,
    note: &str,
    what: &str,
    text: &str,
    parts: &[(u32, u32)],
    room: usize,
) -> Option<(String, Vec<(u32, u32)>)> {
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let fence = fence_for(text);
    let generated = generated_marker(text).map(generated_note).unwrap_or_default();
    let block = |chosen: &[(u32, u32)]| {
        let shown = merged(chosen);
        let count: u32 = shown.iter().map(|(start, end)| end - start + 1).sum();
        let mut block = format!(
            "### {path}{note} [in part: {count} of its {} lines, {what}; read_file shows the rest]{generated}\n",
            lines.len()
        );
        push_ranges(&mut block, &lines, &shown, &fence);
        block.push('\n');
        block
    };
    let mut chosen: Vec<(u32, u32)> = Vec::new();
    for &part in parts {
        chosen.push(part);
        if measure(&block(&chosen)) > room {
            // A smaller part further down the list may still fit.
            chosen.pop();
        }
    }
    (!chosen.is_empty()).then(|| (block(&chosen), merged(&chosen)))
}

/// The pack's block for the file at `path` in full: its heading, with `note` and the mark
/// of a generated file, and its text in a fence the text cannot end.
pub(super) fn full_block(path: &str, note: &str, text: &str) -> String {
    file_block(path, note, text, text)
}

/// The pack's block for the source file at `path` in full: as [`full_block`], but a licence
/// header at its top is left out (the heading says which lines), as it tells the model
/// nothing about the code and takes the room of a hundred tokens and more in each file; so
/// is what follows the first lines of each long documentation comment ([`long_doc_cuts`])
/// but those of comments one of the `located` lines (those the issue gives with the file's
/// path) falls in or just after, and the block then shows the lines kept, range by range.
/// With a cut block comes the block of the whole file.
pub(super) fn source_block(path: &str, text: &str, located: &[u32]) -> (String, Option<String>) {
    let header = licence_header(text);
    let header_note =
        header.as_ref().map(|header| format!(" [lines 1-{}, its licence header, left out]", header.lines));
    let (code_start, code) =
        header.as_ref().map_or((1, text), |header| (header.lines as u32 + 1, &text[header.rest..]));
    let whole = file_block(path, header_note.as_deref().unwrap_or_default(), text, code);
    let tails = doc_tails(path, text, code_start, located);
    if tails.is_empty() {
        return (whole, None);
    }
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let mut kept = Vec::new();
    let mut next = code_start;
    for (start, end) in &tails {
        if *start > next {
            kept.push((next, start - 1));
        }
        next = end + 1;
    }
    if next as usize <= lines.len() {
        kept.push((next, lines.len() as u32));
    }
    let left_out: u32 = tails.iter().map(|(start, end)| end - start + 1).sum();
    let generated = generated_marker(text).map(generated_note).unwrap_or_default();
    let mut block = format!(
        "### {path}{} [{left_out} of its {} {DOCS_CUT_NOTE}: each keeps its first {KEPT_DOC_LINES} lines and \
         what it says of panics, errors, safety or exceptions; read_file shows them]{generated}\n",
        header_note.unwrap_or_default(),
        lines.len()
    );
    push_ranges(&mut block, &lines, &kept, &fence_for(text));
    block.push('\n');
    (block, Some(whole))
}

/// The lines a block in full may leave out of `text`, the file at `path`: its licence header,
/// and the tails of its long documentation comments, in file order. The pack shows a tail
/// still where a line the issue gives points into its comment, or where the map leaves room.
pub fn left_out_in_full(path: &str, text: &str) -> Vec<(u32, u32)> {
    let header = licence_header(text).map_or(0, |header| header.lines as u32);
    let tails = doc_tails(path, text, header + 1, &[]);
    (header > 0).then_some((1, header)).into_iter().chain(tails).collect()
}

/// The ranges [`long_doc_cuts`] leaves out of the comments that start at `code_start` or
/// below, but those of comments one of the `located` lines falls in or just after.
fn doc_tails(path: &str, text: &str, code_start: u32, located: &[u32]) -> Vec<(u32, u32)> {
    // A line in a comment, or the line after it (what it documents), keeps it whole.
    let touches = |cut: &DocCut| located.iter().any(|line| (cut.head.0..=cut.end + 1).contains(line));
    long_doc_cuts(path, text)
        .into_iter()
        .filter(|cut| cut.head.0 >= code_start && !touches(cut))
        .flat_map(|cut| cut.left_out)
        .collect()
}

/// Appends to `block` each of the `ranges` of `lines` (1-based, inclusive, in file order),
/// each after its line numbers in a `fence` the text cannot end.
fn push_ranges(block: &mut String, lines: &[&str], ranges: &[(u32, u32)], fence: &str) {
    for &(start, end) in ranges {
        let _ = writeln!(block, "lines {start}-{end}:\n{fence}");
        for line in &lines[start as usize - 1..end as usize] {
            block.push_str(line);
        }
        if !block.ends_with('\n') {
            block.push('\n');
        }
        let _ = writeln!(block, "{fence}");
    }
}

/// The block of the file at `path` whose text is `whole`, showing `shown` of it (all of it, or
/// what follows a part left out): its heading, with `note` and the mark of a generated file,
/// then `shown` in a fence it cannot end.
fn file_block(path: &str, note: &str, whole: &str, shown: &str) -> String {
    let generated = generated_marker(whole).map(generated_note).unwrap_or_default();
    let fence = fence_for(shown);
    let newline = if shown.ends_with('\n') { "" } else { "\n" };
    format!("### {path}{note}{generated}\n{fence}\n{shown}{newline}{fence}\n\n")
}
