//! The parts of a large file the context pack shows when the file is too large to show
//! whole: which lines the issue points at, or where the words the file shares with it
//! gather, and how far each part reaches (a whole method with its comments, a long type's
//! declaration, the lines around a trace's line).

use super::extract::{Definition, DefinitionKind, LineSpans};
use super::index::IndexedFile;
use super::mentioned::Mentioned;
use super::terms;

/// A part of a large file holds a whole definition up to this many lines, else this many
/// lines around the line it is for.
pub(super) const MAX_PART_LINES: u32 = 80;
/// The longest a part may grow when the budget is large: a whole function up to this many
/// lines.
pub(super) const MAX_PART_LINES_WHEN_ROOMY: u32 = 200;
/// Characters of the full files' budget per line a part may take.
const CHARS_PER_PART_LINE: usize = 350;

/// The longest part for a pack whose full files may take `full_budget` characters:
/// [`MAX_PART_LINES`], more as the budget allows, up to [`MAX_PART_LINES_WHEN_ROOMY`].
pub(super) fn part_lines(full_budget: usize) -> u32 {
    ((full_budget / CHARS_PER_PART_LINE) as u32).clamp(MAX_PART_LINES, MAX_PART_LINES_WHEN_ROOMY)
}

/// Parts of one large file at most.
pub(super) const MAX_PARTS: usize = 3;
/// Candidate parts looked at in one file at most (a file may define hundreds of `new`s).
const MAX_CANDIDATE_PARTS: usize = 24;
/// Lines of a long type's or constant's declaration a part shows at most.
const MAX_DECLARATION_LINES: u32 = 12;
/// Lines of comments and attributes above a definition a part takes with it at most.
const MAX_LEAD_LINES: u32 = 20;

/// The lines of a large file the issue points at, as 1-based inclusive ranges, most
/// important first: for the lines its ranking's reasons point at, strongest first (a trace's
/// `path:line`, a named definition, a quoted message), then for the functions and methods
/// the issue names (those of a type it names first), then for the other definitions it names
/// (types, constants); at most [`MAX_PARTS`] ranges, none within another.
/// A line's part is the largest definition holding it within [`MAX_PART_LINES`] (the method,
/// not its class), else the smallest within `cap` ([`part_lines`]), with the comments and
/// attributes just above it. A longer definition the issue names shows its declaration (a
/// type or constant, up to [`MAX_DECLARATION_LINES`]) or its opening lines (a function);
/// another line, the lines around it. A function declared several times in a row (TypeScript overloads) is one part
/// when that part holds the line and is no longer than one definition's.
pub(super) fn parts_pointed_at(
    file: &IndexedFile,
    pointed: &[u32],
    mentioned: &Mentioned<'_>,
    text: &str,
    cap: u32,
) -> Vec<(u32, u32)> {
    let lines: Vec<&str> = text.lines().collect();
    let total = lines.len() as u32;
    let definitions = &file.symbols.definitions;
    let mut named: Vec<&Definition> = definitions.iter().filter(|d| mentioned.means(d, definitions)).collect();
    // Of several `new`s, the one of the type the issue names too (`Semaphore::new`) first.
    let of_named_type = |d: &Definition| d.container.as_deref().is_some_and(|c| mentioned.closeness(c) == 0);
    named.sort_by_key(|d| (!d.kind.is_callable(), !of_named_type(d), d.line));
    // The largest definition holding the line that a part of the default size holds (the
    // method, not its class); failing that, the smallest the budget allows.
    let holding = |target: u32| {
        let span = |d: &Definition| d.end_line.saturating_sub(d.line);
        let holders = || definitions.iter().filter(move |d| d.line <= target && target <= d.end_line);
        holders()
            .filter(|d| span(d) < MAX_PART_LINES)
            .max_by_key(|d| span(d))
            .or_else(|| holders().filter(|d| span(d) < cap).min_by_key(|d| span(d)))
    };
    let opening = |start: u32| (start, (start + cap - 1).min(total));
    let whole = |d: &Definition| (lead(d, &lines), d.end_line.min(total));
    // A function declared several times in a row, as one part when it fits one.
    let together = |d: &Definition| {
        let group = declared_together(definitions, d, &lines);
        let (first, last) = (group.first()?, group.last()?);
        let (start, end) = (lead(first, &lines), last.end_line.min(total));
        (group.len() > 1 && end.saturating_sub(start) < cap).then_some((start, end))
    };
    let of_definition = |d: &Definition| {
        together(d).unwrap_or_else(|| match holding(d.line) {
            Some(holder) => whole(holder),
            None if !d.kind.is_callable() => {
                let declared = d.body_line.clamp(d.line, d.line + MAX_DECLARATION_LINES - 1);
                (lead(d, &lines), declared.min(total))
            }
            // Of a long function, its opening; or, when a line the reasons point at lies
            // inside it past that (a trace's frame), the lines around that line.
            None => {
                let (start, end) = opening(lead(d, &lines));
                match pointed.iter().find(|&&target| end < target && target <= d.end_line.min(total)) {
                    Some(&target) => lines_around(target, total, cap),
                    None => (start, end),
                }
            }
        })
    };
    let of_line = |target: u32| match holding(target) {
        Some(holder) => {
            together(holder).filter(|(start, end)| (*start..=*end).contains(&target)).unwrap_or(whole(holder))
        }
        None => match definitions.iter().find(|d| d.line == target) {
            Some(starting) => of_definition(starting),
            None => lines_around(target, total, cap),
        },
    };
    let in_file = |target: u32| (1..=total).contains(&target);
    let candidates = pointed
        .iter()
        .copied()
        .filter(|&target| in_file(target))
        .map(of_line)
        .chain(named.into_iter().filter(|d| in_file(d.line)).map(of_definition));
    // Each part keeps its own size: one that lies within another is left out, and parts
    // that overlap are shown as one once chosen (see `parts_block`), so they count as one
    // against the limit.
    let mut parts: Vec<(u32, u32)> = Vec::new();
    for (start, end) in candidates.take(MAX_CANDIDATE_PARTS) {
        let (start, end) = (start.clamp(1, total), end.clamp(1, total).max(start.clamp(1, total)));
        if parts.iter().any(|part| part.0 <= start && end <= part.1) {
            continue;
        }
        let mut with = parts.clone();
        with.retain(|part| !(start <= part.0 && part.1 <= end));
        with.push((start, end));
        let shown = merged(&with);
        // What is shown as one part stays within a part's size, whatever joined it.
        let longest = shown.iter().map(|(first, last)| last - first + 1).max().unwrap_or(0);
        if shown.len() <= MAX_PARTS && longest <= cap.max(end - start + 1) {
            parts = with;
        }
    }
    parts
}

/// Most of the words a named text file's part is chosen by.
const TEXT_WORDS: usize = 12;

/// The words that stand in `text`, the text of the file at `path` (a README, a
/// changelog: a file the index does not parse), but for the words of its own name, the one
/// telling most first: each weighed by the weight for it, and the less for how often
/// the text repeats it.
pub(super) fn text_words(path: &str, text: &str, terms: &[(String, f64)]) -> Vec<(String, f64)> {
    // The file's own name (`readme` of `README.md`) names the file, not a place in it.
    let name = path.rsplit('/').next().unwrap_or(path);
    let own = terms::words(name.split('.').next().unwrap_or(name));
    let mut counts: std::collections::HashMap<String, u32> = std::collections::HashMap::new();
    for word in terms::words(text) {
        if !own.contains(&word) && terms.binary_search_by(|(term, _)| term.as_str().cmp(&word)).is_ok() {
            *counts.entry(word).or_default() += 1;
        }
    }
    let mut words: Vec<(String, f64)> = terms
        .iter()
        .filter_map(|(term, weight)| {
            let count = counts.get(term)?;
            Some((term.clone(), weight / (1.0 + f64::from(*count).ln())))
        })
        .collect();
    words.sort_by(|a, b| b.1.total_cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    words.truncate(TEXT_WORDS);
    words
}

/// Where a ranked file's shared words stand in its text, each line split into words once: what
/// the part where they gather is found from, at whatever size the room left allows.
pub(super) struct WordPlaces<'a> {
    /// The file's definitions (none for a text the index does not parse).
    definitions: &'a [Definition],
    /// The words the file shares, the one adding most to its score first, with what
    /// each adds.
    words: &'a [(String, f64)],
    lines: Vec<&'a str>,
    /// For each word, how often it stands in the lines before each line (prefix sums); test
    /// code counts for nothing.
    before: Vec<Vec<u32>>,
}

impl<'a> WordPlaces<'a> {
    /// The places of `words` in `text`, the text of `file`.
    pub(super) fn new(file: &'a IndexedFile, words: &'a [(String, f64)], text: &'a str) -> Self {
        Self::in_text(&file.symbols.definitions, words, text)
    }

    /// The places of `words` in `text`, whose definitions are `definitions`.
    pub(super) fn in_text(definitions: &'a [Definition], words: &'a [(String, f64)], text: &'a str) -> Self {
        let lines: Vec<&str> = text.lines().collect();
        let tests =
            LineSpans::new(definitions.iter().filter(|d| d.test).map(|d| (d.lead_line.min(d.line), d.end_line)));
        let mut before: Vec<Vec<u32>> = vec![vec![0; lines.len() + 1]; words.len()];
        for (at, line) in lines.iter().enumerate() {
            let found = if tests.holds(at as u32 + 1) { Vec::new() } else { terms::words(line) };
            for (word, sums) in words.iter().zip(before.iter_mut()) {
                sums[at + 1] = sums[at] + found.iter().filter(|w| **w == word.0).count() as u32;
            }
        }
        Self { definitions, words, lines, before }
    }

    /// How often each word stands in lines `start` to `end` (1-based, inclusive, clamped to
    /// the file), in the order of the words.
    fn counts(&self, start: u32, end: u32) -> impl Iterator<Item = u32> + '_ {
        let total = self.lines.len() as u32;
        let (first, last) = (start.clamp(1, total) as usize, end.clamp(1, total) as usize);
        self.before.iter().map(move |sums| sums[last] - sums[first - 1])
    }

    /// What lines `start` to `end` hold of the words: each weighed by what it adds to the
    /// file's score and counted up to three times.
    fn holds(&self, start: u32, end: u32) -> f64 {
        self.words
            .iter()
            .zip(self.counts(start, end))
            .map(|((_, weight), count)| weight * f64::from(count.min(3)))
            .sum()
    }

    /// The part where the words gather, for a file the issue points nowhere into (its ranking
    /// rests on the words it shares): the function or method, with its comments, whose lines
    /// hold the most of them (of one longer than `cap` lines, the `cap` lines of it that hold
    /// the most); not test code. Where no function holds any of them (a table of data, an enum
    /// of settings), the `cap` lines of the file that hold the most. One part, not
    /// [`MAX_PARTS`]: a guess from words is worth less room than a place the issue names.
    pub(super) fn part(&self, cap: u32) -> Option<(u32, u32)> {
        let total = self.lines.len() as u32;
        if self.words.is_empty() || total == 0 {
            return None;
        }
        // The `cap` lines from `start` to `end` that hold the most; of equals (windows that all
        // hold one cluster of words), the middle one, which has the words in its middle.
        let best_window = |start: u32, end: u32| {
            if end - start < cap {
                return (start, end);
            }
            let starts = start..=end + 1 - cap;
            let most = starts.clone().map(|first| self.holds(first, first + cap - 1)).fold(0.0, f64::max);
            let best: Vec<u32> = starts.filter(|first| self.holds(*first, first + cap - 1) >= most).collect();
            let first = best[best.len() / 2];
            (first, first + cap - 1)
        };
        let mut scored: Vec<(f64, (u32, u32))> = self
            .definitions
            .iter()
            .filter(|d| d.kind.is_callable() && d.kind != DefinitionKind::Module && !d.test)
            .map(|d| (lead(d, &self.lines), d.end_line.min(total)))
            .filter(|(start, end)| start <= end)
            .map(|(start, end)| best_window(start, end))
            .map(|(start, end)| (self.holds(start, end), (start, end)))
            .filter(|(score, _)| *score > 0.0)
            .collect();
        // The most first; of equals, the shorter, then the first in the file.
        scored.sort_by(|a, b| b.0.total_cmp(&a.0).then((a.1.1 - a.1.0).cmp(&(b.1.1 - b.1.0))).then(a.1.cmp(&b.1)));
        match scored.first() {
            Some((_, part)) => Some(*part),
            // No function holds them: the lines of the file that hold the most.
            None => Some(best_window(1, total)).filter(|(start, end)| self.holds(*start, *end) > 0.0),
        }
    }

    /// The first line of `part` that holds one of the words (outside test code).
    pub(super) fn first_line_holding(&self, part: (u32, u32)) -> Option<u32> {
        (part.0..=part.1).find(|&line| self.counts(line, line).any(|count| count > 0))
    }

    /// The words that stand in `part` (outside test code), the one adding most to the file's
    /// score first.
    pub(super) fn words_in(&self, part: (u32, u32)) -> impl Iterator<Item = &'a str> + '_ {
        self.words
            .iter()
            .zip(self.counts(part.0, part.1))
            .filter(|(_, count)| *count > 0)
            .map(|((word, _), _)| word.as_str())
    }
}

/// The definitions declared together with `definition`, in source order: those of its name,
/// container and kind that follow one another with no more than a blank line between them
/// (a TypeScript function's overload signatures and its body); `definition` alone otherwise.
fn declared_together<'d>(
    definitions: &'d [Definition],
    definition: &'d Definition,
    lines: &[&str],
) -> Vec<&'d Definition> {
    let mut alike: Vec<&Definition> = definitions
        .iter()
        .filter(|d| d.name == definition.name && d.container == definition.container && d.kind == definition.kind)
        .collect();
    alike.sort_by_key(|d| d.line);
    let Some(at) = alike.iter().position(|d| std::ptr::eq(*d, definition)) else { return vec![definition] };
    let touching = |above: &Definition, below: &Definition| lead(below, lines) <= above.end_line.saturating_add(2);
    let mut first = at;
    while first > 0 && touching(alike[first - 1], alike[first]) {
        first -= 1;
    }
    let mut last = at;
    while last + 1 < alike.len() && touching(alike[last], alike[last + 1]) {
        last += 1;
    }
    alike[first..=last].to_vec()
}

/// The first line of a definition's part (`lines` are the file's): that of its comments and
/// attributes when they take at most [`MAX_LEAD_LINES`] lines; when they take more, that of
/// the attributes below the comment (the last lines of a long doc comment, the middle of an
/// example, would say less than none).
fn lead(definition: &Definition, lines: &[&str]) -> u32 {
    let line = definition.line.max(1);
    match definition.lead_line {
        lead if lead >= 1 && lead <= line && line - lead <= MAX_LEAD_LINES => lead,
        // Still the attributes and annotations between the comment and the definition.
        lead if lead >= 1 && lead <= line => {
            let text_of = |at: u32| lines.get(at as usize - 1).map_or("", |text| text.trim_start());
            let mut start = line;
            while start > lead && line - start < MAX_LEAD_LINES {
                if ["//", "/*", "*"].iter().any(|mark| text_of(start - 1).starts_with(mark)) {
                    break;
                }
                start -= 1;
            }
            // Only when what was found starts an attribute or annotation; else the walk
            // stopped inside something longer (a template, a comment without stars).
            let attribute = ["#[", "@"].iter().any(|mark| text_of(start).starts_with(mark));
            if attribute { start } else { line }
        }
        _ => line,
    }
}

/// The part of a file of `total` lines around its line `target`: `cap` lines, a quarter of
/// them before it.
pub(super) fn lines_around(target: u32, total: u32, cap: u32) -> (u32, u32) {
    let start = target.saturating_sub(cap / 4).max(1);
    (start, (start + cap - 1).min(total))
}

/// `parts` in file order, those that overlap, touch or stand a few lines apart made one.
pub(super) fn merged(parts: &[(u32, u32)]) -> Vec<(u32, u32)> {
    let mut sorted = parts.to_vec();
    sorted.sort_unstable();
    let mut merged: Vec<(u32, u32)> = Vec::new();
    for (start, end) in sorted {
        match merged.last_mut() {
            Some(last) if start <= last.1 + 3 => last.1 = last.1.max(end),
            _ => merged.push((start, end)),
        }
    }
    merged
}
