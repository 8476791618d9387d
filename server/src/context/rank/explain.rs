//! Why one file ranks where it does: each signal's value and weight, for the whole issue and
//! for its title read alone, beside the file's place, score and reasons. The ranking itself
//! is told in reasons; this is for the question "why is this file not higher?".

use super::{FileSignals, RankedFile, SUNK_SHARE, Signals, Weights};

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
    /// The line it points at.
    pub line: Option<u32>,
}

/// Why `path` ranks where it does in `ranked`, the ranking `signals` gave with `weights`;
/// none for a path not ranked.
pub fn explain(ranked: &[RankedFile], signals: &Signals, weights: &Weights, path: &str) -> Option<Explanation> {
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
        line: file.line(),
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
        part("relations", "extends or implements a named type", file.relations, weights.relations),
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
