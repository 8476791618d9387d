//! The context pack: what the model reads first. Under a token budget, the full text of the
//! best-ranked files, and a repository map (paths with the signatures of their most relevant
//! definitions) for the files ranked after them. The split adapts: small top files leave
//! room for a wide map; large ones take the budget and the map narrows.

use std::fmt::Write;

use super::index::Index;
use super::issue::IssueQuery;
use super::mentioned::Mentioned;
use super::named::NamedFile;
use super::rank::RankedFile;
pub use blocks::left_out_in_full;
use map::repository_map;
use shown::Shown;

mod blocks;
mod map;
mod path_tail;
mod shown;

/// Share of the conversation's room the pack may take, in percent: with an issue of usual
/// length beside it, the first prompt leaves the better half of the room to the work.
const PACK_SHARE_PERCENT: usize = 40;
/// The largest pack, in tokens, however large the window.
const MAX_PACK_TOKENS: usize = 32_000;

/// The pack's token budget when the conversation has `room` tokens (the model's window less
/// the answer's room and the tools' descriptions).
pub fn pack_budget(room: usize) -> usize {
    (room * PACK_SHARE_PERCENT / 100).min(MAX_PACK_TOKENS)
}

/// Characters per token, roughly, for code and English.
pub const CHARS_PER_TOKEN: usize = 4;
/// Share of the budget full files may take at most.
const FULL_FILES_SHARE: f64 = 0.7;
/// A built pack.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct ContextPack {
    /// The text to put in the prompt.
    pub text: String,
    /// Files included in full: all of their code (a licence header, and what follows the
    /// first lines of a long documentation comment, are left out).
    pub full_files: Vec<String>,
    /// Files too large for the budget, shown in the parts the issue points at or where the
    /// words they share with it gather (the ranked ones are in the map too when it has room).
    pub part_files: Vec<String>,
    /// For each file in `part_files`, the line ranges shown of it (1-based, inclusive, in
    /// file order).
    pub part_ranges: Vec<(String, Vec<(u32, u32)>)>,
    /// Files in the map: ranked ones, and those only listed for what the files shown use.
    pub mapped_files: Vec<String>,
    /// Estimated tokens of `text`.
    pub tokens: usize,
}

/// Estimates the tokens of a text: [`CHARS_PER_TOKEN`] characters of ASCII a token, and a
/// token for each other character (see [`text_measure`](crate::workspace::text_measure)).
pub fn estimate_tokens(text: &str) -> usize {
    crate::workspace::text_measure(text).div_ceil(CHARS_PER_TOKEN)
}

/// The heading of the pack's repository map.
const MAP_HEADING: &str = "## Repository map (files ranked for this issue, with their main definitions)";
/// The heading of the files shown, when all are shown in full.
const FULL_HEADING: &str = "## The most relevant files, in full";
/// The heading when some of the files are shown in part.
const PARTS_HEADING: &str = "## The most relevant files, in full or in part";

/// The characters the files shown may take of a pack of `budget_chars`: their share, with the
/// heading above them.
fn full_files_room(budget_chars: usize) -> usize {
    ((budget_chars as f64 * FULL_FILES_SHARE) as usize).saturating_sub(PARTS_HEADING.len() + 2)
}

/// Builds the pack for `ranked` files and the `named` ones the index does not parse within
/// `budget_tokens`; `read` gives a file's current text (the editor's buffer, or the disk),
/// `None` when it cannot be read. The named files come first: in full when they are small
/// enough, else by their path and size in the map.
pub fn build_pack(
    index: &Index,
    ranked: &[RankedFile],
    named: &[NamedFile],
    issue: &IssueQuery,
    budget_tokens: usize,
    read: impl Fn(&str) -> Option<String>,
) -> ContextPack {
    let budget_chars = budget_tokens * CHARS_PER_TOKEN;
    let full_budget = full_files_room(budget_chars);
    let mentioned = Mentioned::new(issue);
    let mut shown = Shown::default();
    shown.add_named(named, issue, full_budget, &read);
    shown.add_ranked(index, ranked, &mentioned, issue, full_budget, &read);
    let uses = shown.uses(index);
    let map_budget = budget_chars.saturating_sub(shown.len() + MAP_HEADING.len() + PARTS_HEADING.len() + 5);
    let (map_section, mapped_files) = repository_map(index, ranked, &shown, &mentioned, &uses, map_budget);
    // Room the map did not take shows documentation that files shown whole left out.
    shown.restore_docs(map_budget.saturating_sub(crate::workspace::text_measure(&map_section)));

    let mut text = String::new();
    if !map_section.is_empty() {
        let _ = write!(text, "{MAP_HEADING}\n\n{map_section}\n");
    }
    if !shown.is_empty() {
        let heading = if shown.part_ranges.is_empty() { FULL_HEADING } else { PARTS_HEADING };
        let _ = write!(text, "{heading}\n\n{}", shown.text());
    }
    let tokens = estimate_tokens(&text);
    let Shown { full_files, part_ranges, .. } = shown;
    let part_files = part_ranges.iter().map(|(path, _)| path.clone()).collect();
    ContextPack { text, full_files, part_files, part_ranges, mapped_files, tokens }
}

#[cfg(test)]
mod tests;
