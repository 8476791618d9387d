//! Why one file ranks where it does: each signal's value and weight, for the whole issue and
//! for its title read alone, beside the file's place, score and reasons. The ranking itself
//! is told in reasons; this is for the question "why is this file not higher?".

use super::{FileSignals, RankedFile, SUNK_SHARE, Signals, Weights, gathered_line};
use crate::context::Index;

/// One signal's part in a file's score.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct SignalPart {
    /// The signal, as [`Weights`] names it (`lexical`, `symbols`, ...).
    pub signal: &'static str,
    /// What it measures, in a few words.
    pub about: &'static str,
    /// Its value for the file (0 to 1).
    pub value: f64,
    /// Its weight.
    pub weight: f64,
}

/// One reading's (the whole issue's, or its title's) parts in a file's score.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct ReadingParts {
    /// Every signal's part, in the order [`Weights`] lists them.
    pub parts: Vec<SignalPart>,
    /// Why the file sinks (test, example or generated code the issue is not about), when it
    /// does: the sum of the parts is kept at [`SUNK_SHARE`] of itself.
    pub sinks: Option<&'static str>,
    /// The reading's score: the sum of each value times its weight, sunk where it sinks.
    pub score: f64,
    /// What the reading's score counts for in the file's: 1 for the whole issue's, the
    /// title's weight for the title's.
    pub weight: f64,
}

/// Why a file ranks where it does.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Explanation {
    /// Workspace-relative path.
    pub path: String,
    /// Its 1-based place in the ranking.
    pub place: usize,
    /// How many files were ranked.
    pub ranked: usize,
    /// Its score: the whole issue's, plus the title's times its weight.
    pub score: f64,
    /// The score of the fifth file (the last a top five holds), for comparison.
    pub fifth_score: Option<f64>,
    /// The whole issue's reading.
    pub whole: ReadingParts,
    /// The title read alone, where the body holds a code block.
    pub title: Option<ReadingParts>,
    /// Its reasons, as the ranking gives them.
    pub reasons: Vec<String>,
    /// The line it points at: its best reason's, else where the words it shares
    /// gather.
    pub line: Option<u32>,
}

/// Why `path` ranks where it does in `ranked`, the ranking `signals` gave `index`'s files with
/// `weights`, reading files as `read` gives them; none for a path not ranked.
pub fn explain(
    index: &Index,
    ranked: &[RankedFile],
    signals: &Signals,
    weights: &Weights,
    path: &str,
    read: &dyn Fn(&str) -> Option<String>,
) -> Option<Explanation> {
    let place = ranked.iter().position(|file| file.path == path)?;
    let file = &ranked[place];
    let at = signals.facts.paths.iter().position(|known| known == path)?;
    let whole = reading_parts(signals, weights, at, 1.0);
    let title = signals
        .title
        .as_deref()
        .filter(|_| weights.title > 0.0)
        .map(|title| reading_parts(title, weights, at, weights.title));
    Some(Explanation {
        path: path.to_owned(),
        place: place + 1,
        ranked: ranked.len(),
        score: file.score,
        fifth_score: ranked.get(4).map(|fifth| fifth.score),
        whole,
        title,
        reasons: file.reasons.clone(),
        line: file.line().or_else(|| gathered_line(file, index, read)),
    })
}

/// The parts of the file at `at` in one reading's score, which counts `weight` times.
fn reading_parts(signals: &Signals, weights: &Weights, at: usize, weight: f64) -> ReadingParts {
    let file: FileSignals = signals.per_file().swap_remove(at);
    let parts = vec![
        part("lexical", "the issue's words (BM25)", file.lexical, weights.lexical),
        part("symbols", "defines names the issue gives", file.symbols, weights.symbols),
        part("uses", "uses names the issue gives", file.uses, weights.uses),
        part("paths", "its path, name or a message it holds", file.paths, weights.paths),
        part("relations", "extends, implements or is held by a named type", file.relations, weights.relations),
        part("package", "shares a package with a hit", file.package, weights.package),
        part("parent", "declares the module of a hit", file.parent, weights.parent),
        part("prior", "how much code uses it", file.prior, weights.prior),
    ];
    ReadingParts { parts, sinks: signals.sunk_as(at), score: weights.score(&file), weight }
}

fn part(signal: &'static str, about: &'static str, value: f64, weight: f64) -> SignalPart {
    SignalPart { signal, about, value, weight }
}

impl ReadingParts {
    /// The sum of each part's value times its weight, before any sinking.
    pub fn sum(&self) -> f64 {
        self.parts.iter().map(|part| part.value * part.weight).sum()
    }

    /// What sinking keeps of the sum.
    pub fn sunk_share(&self) -> f64 {
        if self.sinks.is_some() { SUNK_SHARE } else { 1.0 }
    }
}

impl Explanation {
    /// The explanation as text: the file's place and score, each reading's parts with their
    /// values and weights (the signals that give nothing on one line), its line and reasons.
    pub fn lines(&self) -> Vec<String> {
        let fifth = self.fifth_score.map(|fifth| format!("; the 5th's {fifth:.3}")).unwrap_or_default();
        let mut lines = vec![format!(
            "why {} ranks {} of {} (score {:.3}{fifth}):",
            self.path,
            ordinal(self.place),
            self.ranked,
            self.score
        )];
        lines.extend(self.whole.lines(format!("  the whole issue: {:.3}", self.whole.score)));
        if let Some(title) = &self.title {
            lines.extend(
                title.lines(format!("  the title alone: {:.3}, added at {:.2} of it", title.score, title.weight)),
            );
        }
        lines.extend(self.line.map(|line| format!("  points at line {line}")));
        lines.extend(self.reasons.iter().map(|reason| format!("  {reason}")));
        lines
    }
}

impl ReadingParts {
    /// This reading's lines under `heading`.
    fn lines(&self, heading: String) -> Vec<String> {
        let mut lines = vec![heading];
        let (some, none): (Vec<&SignalPart>, Vec<&SignalPart>) =
            self.parts.iter().partition(|part| part.value * part.weight > 0.0);
        for part in some {
            let (value, weight) = (part.value, part.weight);
            lines.push(format!(
                "    {:<10} {value:.3} x {weight:.2} = {:.3}  {}",
                part.signal,
                value * weight,
                part.about
            ));
        }
        if !none.is_empty() {
            let names: Vec<&str> = none.iter().map(|part| part.signal).collect();
            lines.push(format!("    nothing from {}", names.join(", ")));
        }
        if let Some(why) = self.sinks {
            lines.push(format!("    {why}: {:.1} of the sum, {:.3}", self.sunk_share(), self.sum()));
        }
        lines
    }
}

/// `1st`, `2nd`, `3rd`, `4th`, `11th`, `21st`.
fn ordinal(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

/// Why a path is not in a ranking.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NotRanked {
    /// The index left the file out, for this reason (too large, binary, minified, ...).
    #[error("the index left it out: {0}")]
    LeftOut(String),
    /// The file is there, but is no source file the index reads.
    #[error(
        "not indexed, so not ranked: it is no Rust, Java, TypeScript or JavaScript source, or the ignore rules \
         (.gitignore, build output, dependencies) leave it out"
    )]
    NotSource,
    /// No file is at the path.
    #[error("no such file in {0} (give a path relative to the workspace)")]
    NoSuchFile(String),
}

impl NotRanked {
    /// Why `path` (workspace-relative) is not among `index`'s ranked files.
    pub fn of(index: &Index, path: &str) -> Self {
        if let Some((_, why)) = index.stats.skipped.iter().find(|(skipped, _)| skipped == path) {
            return Self::LeftOut(why.clone());
        }
        if index.root().join(path).is_file() {
            Self::NotSource
        } else {
            Self::NoSuchFile(index.root().display().to_string())
        }
    }
}
