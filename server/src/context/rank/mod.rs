//! Ranking the workspace's files for an issue, each with the reasons it ranks where it does.
//!
//! Signals, each normalised to [0, 1] over the files:
//! - lexical: BM25 of the issue's words against each file's words and path, and in Rust code
//!   the short forms of them it writes (`opts` of `options`);
//! - symbols: the file defines an identifier the issue names (rarer names count more, a
//!   matching qualifier more still), or its name is such an identifier;
//! - paths: the issue names the file's path or name, or its stem as a word (a Rust file's stem
//!   as the short form of one too), or the file holds in a string an error message the issue
//!   quotes, or holds lines of code the issue's code blocks quote (whitespace aside);
//! - relations: the file's types extend or implement a type the issue names, or a named Rust
//!   struct holds one of them in a field;
//! - package: a share of the best direct hit in the same package or folder;
//! - parent: the module file (`mod.rs`, `lib.rs`, `index.ts`) declaring a directly hit file;
//! - prior: how central the file is: PageRank over the use-definition graph.
//!
//! Test and example files sink unless the issue is about them. When the issue's body holds
//! code, the title is read alone as well and each file adds a share of its score for it, so
//! the file the title points at is not drowned by the names of the code the reporter ran.

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use rayon::prelude::*;

use super::extract::use_lines;
use super::index::{Index, IndexedFile, is_example_path};
use super::issue::IssueQuery;
use super::language::Language;
use super::namesakes::ImportedModules;
use super::outside_names::{FileOutside, IndexOutside, Outside, OutsideNames};
use super::parts::{MAX_PART_LINES, WordPlaces};
use crate::workspace::read_disk_text;
pub use explain::{Explanation, NotRanked, ReadingParts, SignalPart, explain};
use lexical::lexical_signal;
use messages::message_signal;
use paths::path_signal;
use quoted_code::quoted_code_signal;
use structure::{package_signal, parent_signal, reference_graph, relation_signal};
use symbols::{DefinitionTable, Weighed, definition_table, symbol_signal, user_signal, with_owners_of_missing_members};

mod explain;
mod lexical;
mod messages;
mod paths;
mod quoted_code;
mod structure;
mod symbols;

/// One ranked file.
#[derive(Debug, Clone, PartialEq)]
pub struct RankedFile {
    /// Workspace-relative path.
    pub path: String,
    /// Its score (higher is better; only the order means something).
    pub score: f64,
    /// Why it ranks here, most important first.
    pub reasons: Vec<String>,
    /// Every 1-based line its reasons point at, the strongest first (see
    /// [`RankedFile::line`]): a stack trace's line into it as well as the definitions the
    /// issue names.
    pub lines: Vec<u32>,
    /// Of those, the lines the issue gives with the file's path (a trace's frames, `path:line`,
    /// a doctest's line), in the order it gives them.
    pub located: Vec<u32>,
    /// The issue's words it shares, the one adding most to its score first, with what each
    /// adds: where they gather in a large file is where the pack shows a part of it when
    /// nothing else points into it.
    pub words: Vec<(String, f64)>,
    /// The definition of the type a named struct holds that it was lifted for (see the
    /// relations signal), where no other reason points into it: where a face opens it. The
    /// pack does not show it in part, as a type's definition alone says less than the map.
    pub held: Option<u32>,
    /// For a listed file that no reason points into, the line where the issue's words it
    /// shares gather (see [`point_at_words`]): where its ranking rests.
    pub gathered: Option<u32>,
}

impl RankedFile {
    /// The line its best reason points at: the line the issue gives with its path
    /// (`src/walk.rs:12:5`, a stack frame), the definition of a name the issue gives, or the
    /// string holding a message it quotes; for one of the best ranked files that only uses
    /// such a name, its first use (see [`rank_reading`]); the definition of a type a named
    /// struct holds; and for a listed file that only shares words with the issue, where those
    /// words gather (see [`point_at_words`]); none when nothing points at a line.
    pub fn line(&self) -> Option<u32> {
        self.lines.first().copied().or(self.held).or(self.gathered)
    }
}

/// A ranked file as `context --json` and the editor's preview give it: its path, score and
/// reasons, and the [`RankedFile::line`] they point at, when there is one.
impl serde::Serialize for RankedFile {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let line = self.line();
        let mut out = serializer.serialize_struct("RankedFile", 3 + usize::from(line.is_some()))?;
        out.serialize_field("path", &self.path)?;
        out.serialize_field("score", &self.score)?;
        out.serialize_field("reasons", &self.reasons)?;
        if let Some(line) = line {
            out.serialize_field("line", &line)?;
        }
        out.end()
    }
}

/// Lines kept of those a file's reasons point at.
const MAX_POINTED_LINES: usize = 8;
/// The issue's words a ranked file keeps of those it shares, the strongest.
const SHARED_WORDS: usize = 8;

/// Weights of the signals.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct Weights {
    /// BM25.
    pub lexical: f64,
    /// Definitions of named identifiers.
    pub symbols: f64,
    /// Uses of named identifiers the workspace defines elsewhere.
    pub uses: f64,
    /// Named paths and file names.
    pub paths: f64,
    /// Extends or implements a named type.
    pub relations: f64,
    /// Package siblings of hit files.
    pub package: f64,
    /// Module files declaring hit files.
    pub parent: f64,
    /// Centrality.
    pub prior: f64,
    /// The score of a file for the issue's title read alone, when its body holds code
    /// (see [`IssueQuery::title_alone`]).
    pub title: f64,
}

/// The weights used by default.
///
/// Chosen on the locbench dev set over a coarse grid (see BENCHMARKS.md). A personalised
/// PageRank from the hit files was measured too; it lowered MRR in both languages at every
/// weight tried, so the graph serves only as the global centrality prior.
pub const WEIGHTS: Weights = Weights {
    lexical: 1.0,
    symbols: 0.6,
    uses: 0.4,
    paths: 0.5,
    relations: 0.2,
    package: 0.2,
    parent: 0.15,
    prior: 0.15,
    title: 0.5,
};

/// What is left of the score of test or example code the issue is not about.
pub const SUNK_SHARE: f64 = 0.3;

/// What a short form Rust code writes for an issue's word (`opts` of `options`; see
/// [`terms::short_forms`](super::terms::short_forms)) counts for, as a share of the word: in
/// the lexical signal and as a file's name.
const SHORT_FORM_SHARE: f64 = 0.5;

impl Weights {
    /// A file's score: its signals weighed and summed, and what [`SUNK_SHARE`] leaves of it
    /// when the file sinks.
    pub fn score(&self, file: &FileSignals) -> f64 {
        let score = self.lexical * file.lexical
            + self.symbols * file.symbols
            + self.uses * file.uses
            + self.paths * file.paths
            + self.relations * file.relations
            + self.package * file.package
            + self.parent * file.parent
            + self.prior * file.prior;
        if file.sinks { score * SUNK_SHARE } else { score }
    }
}

/// Ranks the index's files for `issue_text`, best first.
pub fn rank(index: &Index, issue_text: &str) -> Vec<RankedFile> {
    rank_with(index, issue_text, &WEIGHTS)
}

/// Per-file accumulators.
struct Signal {
    values: Vec<f64>,
    reasons: Vec<Vec<(f64, String)>>,
    /// The lines of each file its reasons point at, with those reasons' values.
    points: Vec<Vec<(f64, u32)>>,
}

impl Signal {
    fn new(n: usize) -> Self {
        Self { values: vec![0.0; n], reasons: vec![Vec::new(); n], points: vec![Vec::new(); n] }
    }

    /// [`Signal::add`] for a reason found at `line` of the file.
    fn add_at(&mut self, file: usize, value: f64, line: u32, reason: impl FnOnce() -> String) {
        self.add(file, value, reason);
        if value > 0.0 {
            self.points[file].push((value, line));
        }
    }

    /// A further line of the file a reason already counted points at (another frame of a
    /// trace into it): it adds nothing to the file's value.
    fn point_at(&mut self, file: usize, value: f64, line: u32) {
        if value > 0.0 {
            self.points[file].push((value, line));
        }
    }

    fn add(&mut self, file: usize, value: f64, reason: impl FnOnce() -> String) {
        if value > 0.0 {
            self.values[file] += value;
            self.reasons[file].push((value, reason()));
        }
    }

    /// Divided by the largest value: for signals that only mean something relative to the others.
    fn normalised(&self) -> Vec<f64> {
        normalise(&self.values)
    }

    /// `1 - e^-x`: for signals on an absolute scale, so a weak best match stays weak.
    fn saturated(&self) -> Vec<f64> {
        self.values.iter().map(|v| 1.0 - (-v).exp()).collect()
    }
}

/// `JoinSet`, `join_set` and `joinset` compare equal.
fn squash(name: &str) -> String {
    name.chars().filter(|c| *c != '_' && *c != '-').flat_map(char::to_lowercase).collect()
}

/// A path's file name without its extensions (`mutex` of `src/sync/mutex.rs`).
fn stem(path: &str) -> &str {
    let name = path.rsplit('/').next().unwrap_or(path);
    name.split('.').next().unwrap_or(name)
}

/// The unit a file belongs to: its Java package, else its folder.
fn package_of(file: &IndexedFile) -> String {
    match &file.symbols.package {
        Some(package) => package.clone(),
        None => file.path.rsplit_once('/').map_or(String::new(), |(dir, _)| dir.to_owned()),
    }
}

/// What each file is, whatever the issue: shared by the readings of one issue (the whole
/// issue's and its title's).
struct FileFacts {
    paths: Vec<String>,
    tests: Vec<bool>,
    examples: Vec<bool>,
    /// Whether a header says a tool writes the file (`@generated`, `DO NOT EDIT`).
    generated: Vec<bool>,
    packages: Vec<String>,
    prior: Vec<f64>,
    /// How many other files use a name that each file alone defines.
    users: Vec<usize>,
}

/// Every signal of every file for one issue, before weighting.
pub struct Signals {
    facts: Arc<FileFacts>,
    about_tests: bool,
    about_examples: bool,
    lexical: Signal,
    symbols: Signal,
    uses: Signal,
    /// The names the issue gives that each file uses, where another file defines them, the
    /// one adding most to its score first.
    used_names: Vec<Vec<String>>,
    path_mentions: Signal,
    /// Whether the issue's trace or a `path:line` runs through each file at a line it has (a
    /// quoted message the file holds is no trace: a test that asserts on it holds it too).
    traced: Vec<bool>,
    relations: Signal,
    package: Vec<f64>,
    /// For each file the package signal lifts, the name of the file in its package that lends
    /// it (the strongest direct hit there).
    package_leads: Vec<String>,
    /// The issue's words each file shares, with what each adds to its lexical score, the
    /// most first ([`SHARED_WORDS`] at most).
    shared_words: Vec<Vec<(String, f64)>>,
    parent: Vec<f64>,
    /// The signals of the issue's title read alone.
    title: Option<Box<Signals>>,
}

/// Computes the signals of `index`'s files for `issue_text`.
pub fn signals(index: &Index, issue_text: &str) -> Signals {
    signals_for(index, &super::issue_reading::analyze_in(index, issue_text))
}

/// Computes the signals of `index`'s files for an analysed issue, the files read from disk
/// as the overlay reads them (text only, within its size limit).
pub fn signals_for(index: &Index, query: &IssueQuery) -> Signals {
    signals_reading(index, query, &disk_reader(index))
}

/// Reads a workspace file's text from disk as the overlay reads it (text only, within its
/// size limit); `None` for one that cannot be read so.
fn disk_reader(index: &Index) -> impl Fn(&str) -> Option<String> {
    let root = index.root();
    move |path| read_disk_text(&root.join(path)).ok().flatten()
}

/// [`signals_for`], reading a file's current text (an editor's buffer, a run's overlay)
/// with `read`, for the few files a quoted message is looked for in.
pub fn signals_reading(index: &Index, query: &IssueQuery, read: &dyn Fn(&str) -> Option<String>) -> Signals {
    signals_outside(index, query, read, &IndexOutside::new(index))
}

/// [`signals_reading`], with what lies outside the workspace (`outside`) worked out already.
fn signals_outside(
    index: &Index,
    query: &IssueQuery,
    read: &dyn Fn(&str) -> Option<String>,
    outside: &IndexOutside<'_>,
) -> Signals {
    let files: Vec<&IndexedFile> = index.files().map(|f| f.as_ref()).collect();
    let n = files.len();
    let definitions = definition_table(&files);
    // What a file binds to outside is kept, for the uses signal, only where it uses a name
    // either reading gives: it is read for every file, and a large workspace has many.
    let named: Vec<&str> = query
        .symbols
        .iter()
        .chain(query.title_alone.iter().flat_map(|title| &title.symbols))
        .map(|mention| mention.name.as_str())
        .collect();
    let keep: Vec<bool> = files.iter().map(|file| named.iter().any(|name| file.symbols.uses_of(name) > 0)).collect();
    let (graph, users, bound) = reference_graph(&files, &definitions, outside, &keep);
    let centrality = graph.pagerank(&vec![0.0; n], 0.85, 20);
    let facts = Arc::new(FileFacts {
        paths: files.iter().map(|f| f.path.clone()).collect(),
        tests: files.iter().map(|f| index.is_test_file(f)).collect(),
        examples: files.iter().map(|f| is_example_path(&f.path)).collect(),
        generated: files.iter().map(|f| f.generated.is_some()).collect(),
        packages: files.iter().map(|f| package_of(f)).collect(),
        prior: normalise(&centrality.iter().map(|r| (r * n as f64).ln_1p()).collect::<Vec<_>>()),
        users,
    });
    let workspace = Workspace {
        files: &files,
        definitions: &definitions,
        bound: &bound,
        modules: outside.imported_modules(),
        facts,
    };
    let mut signals = workspace.signals(query, read);
    signals.title = query.title_alone.as_ref().map(|title| Box::new(workspace.signals(title, read)));
    signals
}

/// What the signals of any issue share: the files, their definitions and what each file is.
struct Workspace<'a> {
    files: &'a [&'a IndexedFile],
    definitions: &'a DefinitionTable<'a>,
    /// What each file that uses a name the issue gives binds to outside the workspace, for
    /// telling which uses reach its definitions.
    bound: &'a [Option<FileOutside<'a>>],
    /// Where the workspace's imports lead, for telling namesakes apart.
    modules: Option<&'a dyn ImportedModules>,
    facts: Arc<FileFacts>,
}

impl Workspace<'_> {
    /// The signals of every file for `query`.
    fn signals(&self, query: &IssueQuery, read: &dyn Fn(&str) -> Option<String>) -> Signals {
        let files = self.files;
        let n = files.len();
        let (lexical, shared_words) = lexical_signal(files, query);
        // The owner of a member the workspace lacks counts as the member does (see
        // [`with_owners_of_missing_members`]).
        let defines = |name: &str| self.definitions.contains_key(name);
        let Weighed { query: weighed, lacking } = with_owners_of_missing_members(query, &defines);
        let query = weighed.as_ref();
        let (symbols, hit_types) = symbol_signal(files, query, &lacking, self.definitions);
        let (uses, used_names) = user_signal(files, query, self.definitions, self.bound, self.modules);
        let mut path_mentions = path_signal(files, query);
        // Read before the quoted messages add their points to the same signal.
        let traced = path_mentions.points.iter().map(|points| !points.is_empty()).collect();
        message_signal(files, query, read, &mut path_mentions);
        quoted_code_signal(files, query, read, &mut path_mentions);
        let mut relations = relation_signal(files, &hit_types, self.bound);
        structure::add_held_types(&mut relations, files, &hit_types, self.definitions, read);
        let direct: Vec<f64> = {
            let (symbols, paths) = (symbols.saturated(), path_mentions.saturated());
            (0..n).map(|i| symbols[i].max(paths[i])).collect()
        };
        let (package, package_leads) = package_signal(files, &direct);
        Signals {
            facts: Arc::clone(&self.facts),
            about_tests: query.about_tests,
            about_examples: query.about_examples,
            package,
            package_leads,
            shared_words,
            parent: parent_signal(files, &direct),
            lexical,
            symbols,
            uses,
            used_names,
            path_mentions,
            traced,
            relations,
            title: None,
        }
    }
}

/// `query` with its names at the weights the ranking gives them, for showing what an issue was
/// read as: the owner of a member the workspace lacks at the member's weight (`Ready` of
/// "adding `Ready::ERROR`" where nothing defines `ERROR`), in the whole issue and in its title
/// read alone.
pub fn as_ranked(index: &Index, query: &IssueQuery) -> IssueQuery {
    let defined: HashSet<&str> =
        index.files().flat_map(|file| &file.symbols.definitions).map(|d| d.name.as_str()).collect();
    let weighed = |query| with_owners_of_missing_members(query, &|name| defined.contains(name)).query.into_owned();
    IssueQuery { title_alone: query.title_alone.as_deref().map(|title| Box::new(weighed(title))), ..weighed(query) }
}

/// Ranks the index's files for an analysed issue (the default weights), best first.
pub fn rank_for(index: &Index, query: &IssueQuery) -> Vec<RankedFile> {
    rank_reading(index, query, &disk_reader(index))
}

/// [`rank_for`], reading files as `read` gives them (see [`signals_reading`]); the best
/// ranked files that only use a name the issue gives point at their first use of it.
pub fn rank_reading(index: &Index, query: &IssueQuery, read: &dyn Fn(&str) -> Option<String>) -> Vec<RankedFile> {
    let outside = IndexOutside::new(index);
    let signals = signals_outside(index, query, read, &outside);
    let mut ranked = combine(&signals, &WEIGHTS);
    point_at_uses(&mut ranked, &signals, index, &outside, read);
    ranked
}

/// Gives each of `files` (the ranked files a face lists) that nothing else points into the
/// line where the issue's words it shares gather (`gathered_line`), so that every file
/// listed opens where its ranking rests rather than at its top. The pack does not need it, so
/// a ranking leaves it to what shows the files.
pub fn point_at_words(files: &mut [RankedFile], index: &Index, read: &dyn Fn(&str) -> Option<String>) {
    for file in files.iter_mut().filter(|file| file.line().is_none()) {
        file.gathered = gathered_line(file, index, read);
    }
}

/// The first line of `file`, read as `read` gives it, that holds one of the issue's words it
/// shares, in the part of it where they gather: the function whose lines hold the most, as
/// the pack finds it (`WordPlaces::part`); in a test file, the lines that hold the most. No
/// file is parsed: a fraction of a millisecond a file.
fn gathered_line(file: &RankedFile, index: &Index, read: &dyn Fn(&str) -> Option<String>) -> Option<u32> {
    if file.words.is_empty() {
        return None;
    }
    let indexed = index.file(&file.path)?;
    let text = read(&file.path)?;
    let gathered =
        |places: WordPlaces<'_>| places.part(MAX_PART_LINES).and_then(|part| places.first_line_holding(part));
    // Where the words stand only in test code (a test file listed low), the lines of the whole
    // text that hold the most.
    gathered(WordPlaces::new(indexed, &file.words, &text))
        .or_else(|| gathered(WordPlaces::in_text(&[], &file.words, &text)))
}

/// [`point_at_words`], reading the files from disk as the overlay reads them.
pub fn point_at_words_on_disk(files: &mut [RankedFile], index: &Index) {
    point_at_words(files, index, &disk_reader(index));
}

/// How many of the best ranked files are looked at for [`point_at_uses`]: each is parsed
/// again (about a millisecond a file), so fewer than a face lists; the others it lists point
/// at where the issue's words gather ([`point_at_words`]).
const USE_POINTED_FILES: usize = 10;

/// Gives each of the [`USE_POINTED_FILES`] best ranked files that no reason points into, but
/// that uses a name the issue gives, the line of its first use of the name that adds most to
/// its score (the line that reads `arg.requires` for `requires`): the index keeps how often a
/// file uses a name, not where, so those few files are read again, as `read` gives them, and
/// parsed again on all cores.
fn point_at_uses(
    ranked: &mut [RankedFile],
    signals: &Signals,
    index: &Index,
    outside: &IndexOutside<'_>,
    read: &dyn Fn(&str) -> Option<String>,
) {
    // Each file to look at: its place in `ranked`, its entry, its language, the names it uses
    // and its text.
    let wanted: Vec<(usize, &IndexedFile, Language, &[String], String)> = ranked
        .iter()
        .enumerate()
        .take(USE_POINTED_FILES)
        .filter(|(_, file)| file.lines.is_empty())
        .filter_map(|(place, file)| {
            let at = signals.facts.paths.iter().position(|path| *path == file.path)?;
            let names = signals.used_names[at].as_slice();
            if names.is_empty() {
                return None;
            }
            let (indexed, language) = (index.file(&file.path)?.as_ref(), Language::of_path(&file.path)?);
            Some((place, indexed, language, names, read(&file.path)?))
        })
        .collect();
    let found: Vec<(usize, Option<u32>)> = wanted
        .par_iter()
        .map(|(place, indexed, language, names, text)| {
            let bound = OutsideNames::of(indexed, outside);
            let leads_outside = |owner: &str, name: &str| bound.leads_outside(owner, name, outside);
            // The use of the name that adds most; another's only where the text read now has none.
            let first_use = names.iter().find_map(|name| {
                use_lines(*language, text.as_bytes(), &[name.as_str()], true, &leads_outside).first().copied()
            });
            (*place, first_use)
        })
        .collect();
    for (place, first_use) in found {
        ranked[place].lines.extend(first_use);
    }
}

/// Ranks with explicit weights.
pub fn rank_with(index: &Index, issue_text: &str, weights: &Weights) -> Vec<RankedFile> {
    combine(&signals(index, issue_text), weights)
}

/// Weighs the signals into a ranking, best first, each file with its main reasons: the whole
/// issue's, with the title's own added at [`Weights::title`] when there is one.
pub fn combine(signals: &Signals, weights: &Weights) -> Vec<RankedFile> {
    let whole = combine_one(signals, weights);
    match &signals.title {
        Some(title) if weights.title > 0.0 => {
            // The files the title's words, names (defined or used) or paths reach, not its
            // centrality alone.
            let pointed: HashSet<String> = title
                .per_file()
                .into_iter()
                .filter(|file| file.lexical > 0.0 || file.symbols > 0.0 || file.uses > 0.0 || file.paths > 0.0)
                .map(|file| file.path)
                .collect();
            with_title(whole, &combine_one(title, weights), &pointed, weights.title)
        }
        _ => whole,
    }
}

/// How many of the title's best files say so among their reasons, when the title points at them.
const TITLE_REASONS: usize = 10;

/// The ranking of the whole issue with `weight` times each file's score for its title alone
/// added, and a reason for the files the title ranks best among those it points at
/// (`pointed`).
fn with_title(whole: Vec<RankedFile>, title: &[RankedFile], pointed: &HashSet<String>, weight: f64) -> Vec<RankedFile> {
    let by_title: HashMap<&str, (usize, f64)> =
        title.iter().enumerate().map(|(place, file)| (file.path.as_str(), (place, file.score))).collect();
    let mut ranked: Vec<RankedFile> = whole
        .into_iter()
        .map(|mut file| {
            if let Some(&(place, score)) = by_title.get(file.path.as_str()) {
                file.score += weight * score;
                if place < TITLE_REASONS && pointed.contains(&file.path) {
                    // After the strongest reasons of the whole issue, in place of the weakest,
                    // and before the one that says why the file sinks.
                    let sunk = file.reasons.pop_if(|r| [SUNK_TEST, SUNK_EXAMPLE, SUNK_GENERATED].contains(&r.as_str()));
                    let at = file.reasons.len().min(MAX_REASONS - 1 - usize::from(sunk.is_some()));
                    file.reasons.truncate(at);
                    file.reasons.push(format!("ranked {} for the title alone", place + 1));
                    file.reasons.extend(sunk);
                }
            }
            file
        })
        .collect();
    ranked.sort_by(|a, b| b.score.total_cmp(&a.score).then_with(|| a.path.cmp(&b.path)));
    ranked
}

/// Weighs one reading's signals into a ranking, best first, each file with its main reasons.
fn combine_one(signals: &Signals, weights: &Weights) -> Vec<RankedFile> {
    let mut ranked: Vec<RankedFile> = signals
        .per_file()
        .into_iter()
        .enumerate()
        .map(|(i, file)| {
            let score = weights.score(&file);
            let mut reasons: Vec<(f64, String)> = Vec::new();
            for (signal, weight) in [
                (&signals.path_mentions, weights.paths),
                (&signals.symbols, weights.symbols),
                (&signals.uses, weights.uses),
                (&signals.relations, weights.relations),
            ] {
                reasons.extend(signal.reasons[i].iter().map(|(v, r)| (weight * (1.0 - (-v).exp()), r.clone())));
            }
            reasons.extend(signals.lexical.reasons[i].iter().map(|(_, r)| (weights.lexical * file.lexical, r.clone())));
            if file.package > 0.05 {
                reasons.push((weights.package * file.package, same_package(signals, i)));
            }
            if file.parent > 0.05 {
                reasons.push((weights.parent * file.parent, DECLARES_MODULE.into()));
            }
            let users = file.users;
            if file.prior > 0.5 && users >= 2 {
                reasons.push((weights.prior * file.prior, format!("central: {users} files use names only it defines")));
            }
            if reasons.is_empty() {
                reasons.push((0.0, weak_reason(signals, i)));
            }
            reasons.sort_by(|a, b| b.0.total_cmp(&a.0));
            // "named after `Proxy`" says already what "its name `proxy` is a word" would.
            let named_after: Vec<String> = reasons
                .iter()
                .filter_map(|(_, r)| r.strip_prefix("named after `")?.split('`').next().map(squash))
                .collect();
            reasons.retain(|(_, r)| {
                r.strip_prefix("its name `")
                    .and_then(|rest| rest.split('`').next())
                    .is_none_or(|word| !named_after.contains(&squash(word)))
            });
            let mut seen = HashSet::new();
            // `ERROR` and `error` in the issue name a file `error.ts` once, and a definition
            // named alone and through its type (`Feature::WRAP`) is said once, the stronger way.
            // Why a file sinks is always said, last, however many reasons it has.
            let sunk = signals.sunk_as(i);
            let mut reasons: Vec<String> = reasons
                .into_iter()
                .map(|(_, r)| r)
                .filter(|r| seen.insert(unqualified(r).to_lowercase()))
                .take(MAX_REASONS - usize::from(sunk.is_some()))
                .collect();
            reasons.extend(sunk.map(str::to_owned));
            let mut points: Vec<(f64, u32)> =
                // Of equal values, a path's line before a definition's, as the single line was.
                [(&signals.path_mentions, weights.paths), (&signals.symbols, weights.symbols)]
                    .into_iter()
                    .flat_map(|(signal, weight)| {
                        signal.points[i].iter().map(move |(v, line)| (weight * (1.0 - (-v).exp()), *line))
                    })
                    .collect();
            // The strongest first; of equals, the first found.
            points.sort_by(|a, b| b.0.total_cmp(&a.0));
            let mut lines: Vec<u32> = Vec::new();
            for (_, line) in points {
                if !lines.contains(&line) && lines.len() < MAX_POINTED_LINES {
                    lines.push(line);
                }
            }
            let located = signals.path_mentions.points[i].iter().map(|(_, line)| *line).collect();
            let words = signals.shared_words[i].clone();
            let held = signals.relations.points[i].iter().max_by(|a, b| a.0.total_cmp(&b.0)).map(|(_, line)| *line);
            RankedFile { path: file.path, score, reasons, lines, located, words, held, gathered: None }
        })
        .collect();
    ranked.sort_by(|a, b| b.score.total_cmp(&a.score).then_with(|| a.path.cmp(&b.path)));
    ranked
}

/// A reason with the qualifiers of the definition it names left out (``defines `WRAP` (variant)``
/// of ``defines `Feature::WRAP` (variant)``); any other reason as it is.
fn unqualified(reason: &str) -> Cow<'_, str> {
    let Some(rest) = reason.strip_prefix("defines `") else { return Cow::Borrowed(reason) };
    let Some((name, after)) = rest.split_once('`') else { return Cow::Borrowed(reason) };
    match name.rsplit_once("::") {
        Some((_, last)) => Cow::Owned(format!("defines `{last}`{after}")),
        None => Cow::Borrowed(reason),
    }
}

/// How many reasons a ranked file gives.
const MAX_REASONS: usize = 4;

/// The reasons of a file that sinks (see [`Signals::sunk_as`]), said last whatever else it has.
const SUNK_TEST: &str = "test code (ranked down)";
const SUNK_EXAMPLE: &str = "example code (ranked down)";
const SUNK_GENERATED: &str = "generated by a tool (ranked down): a change goes to its source";

/// The reason of a module file that declares a file the issue names.
const DECLARES_MODULE: &str = "declares the module of a named file";

/// Why a file that nothing in the issue names still ranks: the weak signal it has.
fn weak_reason(signals: &Signals, i: usize) -> String {
    if signals.package[i] > 0.0 {
        same_package(signals, i)
    } else if signals.parent[i] > 0.0 {
        DECLARES_MODULE.into()
    } else {
        match signals.facts.users[i] {
            0 => "nothing in the issue points here".into(),
            1 => "nothing in the issue points here; 1 file uses a name only it defines".into(),
            users => format!("nothing in the issue points here; {users} files use names only it defines"),
        }
    }
}

/// The package signal's reason, naming the file that lends it: ``same package as `Mock.java`
/// (org.mockito)``.
fn same_package(signals: &Signals, i: usize) -> String {
    let lead = &signals.package_leads[i];
    match signals.facts.packages[i].as_str() {
        "" => format!("same package as `{lead}` (the top folder)"),
        package => format!("same package as `{lead}` ({package})"),
    }
}

/// `values` divided by the largest, so the best is 1; all zero when none is above zero.
fn normalise(values: &[f64]) -> Vec<f64> {
    let max = values.iter().cloned().fold(0.0, f64::max);
    if max <= 0.0 { vec![0.0; values.len()] } else { values.iter().map(|v| v / max).collect() }
}

/// One file's signals for one issue as [`combine`] weighs them, for measuring other ways of
/// weighing them (`cargo bench --bench locbench -- DATA --features FILE`).
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct FileSignals {
    /// Workspace-relative path.
    pub path: String,
    /// BM25, divided by the best file's.
    pub lexical: f64,
    /// Definitions of named identifiers, saturated.
    pub symbols: f64,
    /// Uses of named identifiers defined elsewhere, saturated.
    pub uses: f64,
    /// Named paths, file names and quoted messages, saturated.
    pub paths: f64,
    /// Extends or implements a named type, saturated.
    pub relations: f64,
    /// A share of the best direct hit in its package.
    pub package: f64,
    /// Declares the module of a directly hit file.
    pub parent: f64,
    /// Centrality.
    pub prior: f64,
    /// Test or example code the issue is not about: [`Weights::score`] keeps [`SUNK_SHARE`]
    /// of its score.
    pub sinks: bool,
    /// How many other files use a name only it defines.
    pub users: usize,
}

impl Signals {
    /// Every file's signals, in the index's order.
    pub fn per_file(&self) -> Vec<FileSignals> {
        let lexical = self.lexical.normalised();
        let (symbols, paths, relations) =
            (self.symbols.saturated(), self.path_mentions.saturated(), self.relations.saturated());
        let uses = self.uses.saturated();
        let facts = &self.facts;
        (0..facts.paths.len())
            .map(|i| FileSignals {
                path: facts.paths[i].clone(),
                lexical: lexical[i],
                symbols: symbols[i],
                uses: uses[i],
                paths: paths[i],
                relations: relations[i],
                package: self.package[i],
                parent: self.parent[i],
                prior: facts.prior[i],
                sinks: self.sunk_as(i).is_some(),
                users: facts.users[i],
            })
            .collect()
    }

    /// Why file `i` sinks, when it is test or example code the issue is not about, or a
    /// tool's output. A test that the issue's trace or a `path:line` runs through, at a line
    /// it has, is the failing test the issue is about, whatever its words. (A test file merely
    /// named, as commit messages name the tests they add, still sinks.) A generated file sinks
    /// whatever the issue says of it: a change made there is lost when it is generated again.
    fn sunk_as(&self, i: usize) -> Option<&'static str> {
        let facts = &self.facts;
        if facts.tests[i] && !self.about_tests && !self.traced[i] {
            Some(SUNK_TEST)
        } else if facts.examples[i] && !self.about_examples {
            Some(SUNK_EXAMPLE)
        } else if facts.generated[i] {
            Some(SUNK_GENERATED)
        } else {
            None
        }
    }
}

#[cfg(test)]
mod tests;
