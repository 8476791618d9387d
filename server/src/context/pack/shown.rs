//! The pack's section of files shown: the named files the index does not parse, then the
//! best-ranked files in full or in the parts that matter, within the budget.

use std::collections::{HashMap, HashSet};

use super::blocks::{full_block, parts_block, source_block};
use crate::context::index::Index;
use crate::context::issue::IssueQuery;
use crate::context::mentioned::Mentioned;
use crate::context::named::NamedFile;
use crate::context::parts::{WordPlaces, lines_around, part_lines, parts_pointed_at, text_words};
use crate::context::rank::RankedFile;
use crate::context::uses::ShownUses;
use crate::workspace::text_measure as measure;

/// Said of a file the issue names that the index does not parse.
const NAMED_NOTE: &str = " [named in the issue]";
/// Said of a file the issue names whose text cannot be read.
const NAMED_UNREADABLE_NOTE: &str = " [named in the issue; it cannot be read here: not UTF-8 text, or over 8 MiB]";
/// The largest file the issue names that the pack shows in full, in characters.
const MAX_NAMED_FULL_CHARS: usize = 24_000;
/// Share of the full files' budget the files the issue names may take.
const NAMED_SHARE: f64 = 0.5;

/// What the pack shows of a ranked file shown in part.
pub(super) struct ShownPart {
    /// The line ranges shown, 1-based and inclusive.
    pub(super) lines: Vec<(u32, u32)>,
    /// Their text.
    pub(super) text: String,
}

/// One file's block in the pack's section of files shown.
struct ShownBlock {
    /// The block as shown.
    text: String,
    /// For a file shown whole but for the tails of its long documentation comments, the block
    /// of the whole file, which takes its place when the pack has room to spare.
    whole: Option<String>,
}

/// What the heading of a block says when it leaves out documentation.
pub(super) const DOCS_CUT_NOTE: &str = "lines left out, of long documentation comments";

/// What the parts of a file the issue points into are, as its heading says.
pub(super) const POINTED_PARTS: &str = "the parts the issue points at";
/// What the parts of a file are that the issue points nowhere into; the words follow.
const WORD_PARTS: &str = "the parts where the words it shares with the issue gather";

/// Of the ranked files, those the pack may show in the part where the words they share with
/// the issue gather, when nothing in the issue points into them: the first five. Further down,
/// such a part costs more room than it is likely to be worth (measured in BENCHMARKS.md).
const WORD_PART_FILES: usize = 5;

/// Ranked files the pack shows in full or in part at most.
const SHOWN_FILES: usize = 10;

/// The pack's section of files shown in full or in part, and what the map needs to know of it.
#[derive(Default)]
pub(super) struct Shown<'a> {
    /// The section's blocks, in order.
    blocks: Vec<ShownBlock>,
    /// Files shown in full.
    pub(super) full_files: Vec<String>,
    /// Files shown in part, each with the line ranges shown of it.
    pub(super) part_ranges: Vec<(String, Vec<(u32, u32)>)>,
    /// The ranked files shown in part, with what is shown of them.
    pub(super) in_part: HashMap<&'a str, ShownPart>,
    /// Ranked files whose text cannot be read.
    pub(super) unreadable: HashSet<&'a str>,
    /// The map's lines for the named files not shown, each with its path.
    pub(super) named_lines: Vec<(String, String)>,
}

impl<'a> Shown<'a> {
    /// Shows the `named` files the index does not parse, within half of `full_budget`
    /// characters: in full when they are small enough, else the lines around the line the
    /// issue gives with them, or where the issue's words gather in them; the others get a
    /// line in the map.
    pub(super) fn add_named(
        &mut self,
        named: &[NamedFile],
        issue: &IssueQuery,
        full_budget: usize,
        read: &impl Fn(&str) -> Option<String>,
    ) {
        let named_budget = (full_budget as f64 * NAMED_SHARE) as usize;
        for file in named {
            let Some(text) = read(&file.path) else {
                self.named_lines.push((file.path.clone(), format!("{}{NAMED_UNREADABLE_NOTE}\n", file.path)));
                continue;
            };
            // A long file (a lockfile, a changelog) is not copied into a block only to be left out.
            let block = (measure(&text) <= MAX_NAMED_FULL_CHARS).then(|| full_block(&file.path, NAMED_NOTE, &text));
            if let Some(block) = block.filter(|block| self.len() + measure(block) <= named_budget) {
                self.push(block);
                self.full_files.push(file.path.clone());
                continue;
            }
            // Else the lines around the line the issue gives with it, if it gives one; else
            // the lines where the issue's words gather (a README's section), as large as fits.
            let total = text.lines().count() as u32;
            let cap = part_lines(full_budget);
            let room = named_budget.saturating_sub(self.len());
            let shown = match file.line.filter(|line| *line <= total) {
                Some(line) => {
                    parts_block(&file.path, NAMED_NOTE, POINTED_PARTS, &text, &[lines_around(line, total, cap)], room)
                }
                None => {
                    let words = text_words(&file.path, &text, &issue.terms);
                    let places = WordPlaces::in_text(&[], &words, &text);
                    [cap, cap / 2, cap / 4].into_iter().find_map(|cap| {
                        let part = places.part(cap)?;
                        let words: Vec<String> = places.words_in(part).take(4).map(|w| format!("`{w}`")).collect();
                        let what = format!("the lines where the issue's words gather: {}", words.join(", "));
                        parts_block(&file.path, NAMED_NOTE, &what, &text, &[part], room)
                    })
                }
            };
            match shown {
                Some((block, lines)) => {
                    self.push(block);
                    self.part_ranges.push((file.path.clone(), lines));
                }
                None => {
                    let size = format!("{total} lines, too long to show here: read_file or grep shows it");
                    self.named_lines.push((file.path.clone(), format!("{} [named in the issue; {size}]\n", file.path)));
                }
            }
        }
    }

    /// Shows the best of the `ranked` files within `full_budget` characters: in full while
    /// they fit, else in the parts the issue points at, or where the words they share with it
    /// gather.
    pub(super) fn add_ranked(
        &mut self,
        index: &Index,
        ranked: &'a [RankedFile],
        mentioned: &Mentioned<'_>,
        issue: &IssueQuery,
        full_budget: usize,
        read: &impl Fn(&str) -> Option<String>,
    ) {
        for (at, file) in ranked.iter().take(SHOWN_FILES).enumerate() {
            let Some(text) = read(&file.path) else {
                self.unreadable.insert(&file.path);
                continue;
            };
            // The documentation a line the issue gives with the file's path points into (a
            // failing doctest's) is shown whole; all of it is when the issue speaks of
            // documentation and the file fits whole, else the file is cut as any other.
            let (block, whole) = match source_block(&file.path, &text, &file.located) {
                // A cut saying where it cut may come out longer than the file whole.
                (cut, Some(whole))
                    if measure(&whole) <= measure(&cut)
                        || (issue.about_documentation && self.len() + measure(&whole) <= full_budget) =>
                {
                    (whole, None)
                }
                shown => shown,
            };
            if self.len() + measure(&block) <= full_budget {
                self.blocks.push(ShownBlock { text: block, whole });
                self.full_files.push(file.path.clone());
                continue;
            }
            // A file too big for what is left: the parts the issue points at if it points into
            // it, else (among the first files) the part where the words it shares gather, if
            // they fit; the map shows its signatures either way.
            let Some(entry) = index.file(&file.path) else { continue };
            let cap = part_lines(full_budget);
            let room = full_budget.saturating_sub(self.len());
            let pointed = parts_pointed_at(entry, &file.lines, mentioned, &text, cap);
            let shown = match pointed.is_empty() {
                false => parts_block(&file.path, "", POINTED_PARTS, &text, &pointed, room),
                // Where nothing in the issue points into it, where the words it shares gather:
                // in a part of half the size, or a quarter, when a whole one does not fit.
                true if at < WORD_PART_FILES => {
                    let places = WordPlaces::new(entry, &file.words, &text);
                    [cap, cap / 2, cap / 4].into_iter().find_map(|cap| {
                        let part = places.part(cap)?;
                        let words: Vec<String> = places.words_in(part).take(4).map(|w| format!("`{w}`")).collect();
                        let what = format!("{WORD_PARTS}: {}", words.join(", "));
                        parts_block(&file.path, "", &what, &text, &[part], room)
                    })
                }
                true => None,
            };
            if let Some((block, lines)) = shown {
                self.push(block);
                self.part_ranges.push((file.path.clone(), lines.clone()));
                let code: Vec<&str> = text.lines().collect();
                let excerpt = lines.iter().flat_map(|&(start, end)| {
                    code.get((start as usize).saturating_sub(1)..end as usize).unwrap_or_default()
                });
                let excerpt = excerpt.copied().collect::<Vec<_>>().join("\n");
                self.in_part.insert(&file.path, ShownPart { lines, text: excerpt });
            }
        }
    }

    /// Adds a block shown as it is.
    fn push(&mut self, text: String) {
        self.blocks.push(ShownBlock { text, whole: None });
    }

    /// Whether no file is shown.
    pub(super) fn is_empty(&self) -> bool {
        self.blocks.is_empty()
    }

    /// The section's length so far, in characters as [`measure`] counts them.
    pub(super) fn len(&self) -> usize {
        self.blocks.iter().map(|block| measure(&block.text)).sum()
    }

    /// The section's text.
    pub(super) fn text(&self) -> String {
        self.blocks.iter().map(|block| block.text.as_str()).collect()
    }

    /// Shows the documentation left out of files shown whole, in their order, as far as
    /// `spare` characters allow each whole: room the map did not take.
    pub(super) fn restore_docs(&mut self, mut spare: usize) {
        for block in &mut self.blocks {
            let grow = |whole: &String| measure(whole).saturating_sub(measure(&block.text));
            let Some(whole) = block.whole.take_if(|whole| grow(whole) <= spare) else { continue };
            spare -= grow(&whole);
            block.text = whole;
        }
    }

    /// What the code shown uses. Files the index does not parse (those the issue names) add none.
    pub(super) fn uses(&self, index: &Index) -> ShownUses {
        let whole = self.full_files.iter().map(|path| (path.as_str(), None));
        let parts = self.in_part.iter().map(|(path, part)| (*path, Some(part.text.as_str())));
        ShownUses::new(index, &whole.chain(parts).collect::<Vec<_>>())
    }

    /// Whether the file at `path` is shown, in full or in part.
    pub(super) fn holds(&self, path: &str) -> bool {
        self.full_files.iter().chain(self.part_ranges.iter().map(|(file, _)| file)).any(|file| file == path)
    }
}
