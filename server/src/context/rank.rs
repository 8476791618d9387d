//! Ranking the workspace's files for an issue, each with the reasons it ranks where it does.
//!
//! Signals, each normalised to [0, 1] over the files:
//! - lexical: BM25 of the issue's words against each file's words and path;
//! - symbols: the file defines an identifier the issue names (rarer names count more, a
//!   matching qualifier more still), or its name is such an identifier;
//! - paths: the issue names the file's path or name, or its stem as a word;
//! - relations: the file's types extend or implement a type the issue names;
//! - package: a share of the best direct hit in the same package or folder;
//! - parent: the module file (`mod.rs`, `lib.rs`, `index.ts`) declaring a directly hit file;
//! - prior: how central the file is: PageRank over the use-definition graph.
//!
//! Test and example files sink unless the issue is about them.

use std::collections::{HashMap, HashSet};

use super::DefinitionKind;
use super::graph::FileGraph;
use super::index::{Index, IndexedFile, is_example_path, is_test_path};
use super::issue::{self, IssueQuery};
use super::terms;
use crate::workspace::read_disk_text;

/// One ranked file.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct RankedFile {
    /// Workspace-relative path.
    pub path: String,
    /// Its score (higher is better; only the order means something).
    pub score: f64,
    /// Why it ranks here, most important first.
    pub reasons: Vec<String>,
    /// Every 1-based line its reasons point at, the strongest first (see
    /// [`RankedFile::line`]): a stack trace's line into it as well as the definitions the
    /// issue names. Serialized as `line`, the first of them.
    #[serde(rename = "line", serialize_with = "first_line", skip_serializing_if = "Vec::is_empty")]
    pub lines: Vec<u32>,
    /// Of those, the lines the issue gives with the file's path (a trace's frames, `path:line`,
    /// a doctest's line), in the order it gives them.
    #[serde(skip)]
    pub located: Vec<u32>,
    /// The issue's words it shares, the one adding most to its score first, with what each
    /// adds: where they gather in a large file is where the pack shows a part of it when
    /// nothing else points into it.
    #[serde(skip)]
    pub words: Vec<(String, f64)>,
}

impl RankedFile {
    /// The line its best reason points at: the line the issue gives with its path
    /// (`src/walk.rs:12:5`, a stack frame), the definition of a name the issue gives, or the
    /// string holding a message it quotes; none when no reason points at a line.
    pub fn line(&self) -> Option<u32> {
        self.lines.first().copied()
    }
}

/// Serializes a file's lines as the first of them, the one its best reason points at.
fn first_line<S: serde::Serializer>(lines: &[u32], serializer: S) -> Result<S::Ok, S::Error> {
    serde::Serialize::serialize(&lines.first(), serializer)
}

/// Lines kept of those a file's reasons point at.
const MAX_POINTED_LINES: usize = 8;
/// The issue's words a ranked file keeps of those it shares, the strongest.
const SHARED_WORDS: usize = 8;

/// Weights of the signals.
#[derive(Debug, Clone, Copy)]
pub struct Weights {
    /// BM25.
    pub lexical: f64,
    /// Definitions of named identifiers.
    pub symbols: f64,
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
}

/// The weights used by default.
///
/// Chosen on the locbench dev set over a coarse grid (see BENCHMARKS.md). A personalised
/// PageRank from the hit files was measured too; it lowered MRR in both languages at every
/// weight tried, so the graph serves only as the global centrality prior.
pub const WEIGHTS: Weights =
    Weights { lexical: 1.0, symbols: 0.6, paths: 0.5, relations: 0.2, package: 0.2, parent: 0.15, prior: 0.15 };

/// BM25 parameters (the usual ones).
const K1: f64 = 1.2;
const B: f64 = 0.75;
/// Path words count this many times in a file's document.
const PATH_BOOST: u32 = 3;

/// Names defined in more files than this are too common to link files in the graph.
const MAX_FANOUT: usize = 8;

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

fn kind_weight(kind: DefinitionKind) -> f64 {
    match kind {
        DefinitionKind::Class
        | DefinitionKind::Struct
        | DefinitionKind::Enum
        | DefinitionKind::Interface
        | DefinitionKind::Trait => 1.0,
        DefinitionKind::Type | DefinitionKind::Module | DefinitionKind::Macro | DefinitionKind::Constant => 0.8,
        DefinitionKind::Function | DefinitionKind::Method => 0.7,
        DefinitionKind::Variant | DefinitionKind::Field => 0.4,
    }
}

/// `JoinSet`, `join_set` and `joinset` compare equal.
fn squash(name: &str) -> String {
    name.chars().filter(|c| *c != '_' && *c != '-').flat_map(char::to_lowercase).collect()
}

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

/// Every signal of every file for one issue, before weighting.
pub struct Signals {
    paths: Vec<String>,
    tests: Vec<bool>,
    examples: Vec<bool>,
    packages: Vec<String>,
    about_tests: bool,
    about_examples: bool,
    lexical: Signal,
    symbols: Signal,
    path_mentions: Signal,
    relations: Signal,
    package: Vec<f64>,
    /// For each file the package signal lifts, the name of the file in its package that lends
    /// it (the strongest direct hit there).
    package_leads: Vec<String>,
    /// The issue's words each file shares, with what each adds to its lexical score, the
    /// most first ([`SHARED_WORDS`] at most).
    shared_words: Vec<Vec<(String, f64)>>,
    parent: Vec<f64>,
    prior: Vec<f64>,
    /// How many other files use what each file defines (by name, as the graph links them).
    users: Vec<usize>,
}

/// Computes the signals of `index`'s files for `issue_text`.
pub fn signals(index: &Index, issue_text: &str) -> Signals {
    signals_for(index, &issue::analyze(issue_text))
}

/// Computes the signals of `index`'s files for an analysed issue, the files read from disk
/// as the overlay reads them (text only, within its size limit).
pub fn signals_for(index: &Index, query: &IssueQuery) -> Signals {
    let root = index.root();
    signals_reading(index, query, &|path| read_disk_text(&root.join(path)).ok().flatten())
}

/// [`signals_for`], reading a file's current text (an editor's buffer, a run's overlay)
/// with `read`, for the few files a quoted message is looked for in.
pub fn signals_reading(index: &Index, query: &IssueQuery, read: &dyn Fn(&str) -> Option<String>) -> Signals {
    let files: Vec<&IndexedFile> = index.files().map(|f| f.as_ref()).collect();
    let n = files.len();
    let (lexical, shared_words) = lexical_signal(&files, query);
    let definitions = definition_table(&files);
    let (symbols, hit_types) = symbol_signal(&files, query, &definitions);
    let mut path_mentions = path_signal(&files, query);
    message_signal(&files, query, read, &mut path_mentions);
    let relations = relation_signal(&files, &hit_types);
    let (graph, users) = reference_graph(&files, &definitions);

    let centrality = graph.pagerank(&vec![0.0; n], 0.85, 20);
    let prior = normalise(&centrality.iter().map(|r| (r * n as f64).ln_1p()).collect::<Vec<_>>());
    let direct: Vec<f64> = {
        let (symbols, paths) = (symbols.saturated(), path_mentions.saturated());
        (0..n).map(|i| symbols[i].max(paths[i])).collect()
    };
    let (package, package_leads) = package_signal(&files, &direct);
    Signals {
        paths: files.iter().map(|f| f.path.clone()).collect(),
        tests: files.iter().map(|f| is_test_path(&f.path)).collect(),
        examples: files.iter().map(|f| is_example_path(&f.path)).collect(),
        packages: files.iter().map(|f| package_of(f)).collect(),
        about_tests: query.about_tests,
        about_examples: query.about_examples,
        package,
        package_leads,
        shared_words,
        parent: parent_signal(&files, &direct),
        lexical,
        symbols,
        path_mentions,
        relations,
        prior,
        users,
    }
}

/// Ranks the index's files for an analysed issue (the default weights), best first.
pub fn rank_for(index: &Index, query: &IssueQuery) -> Vec<RankedFile> {
    combine(&signals_for(index, query), &WEIGHTS)
}

/// [`rank_for`], reading files as `read` gives them (see [`signals_reading`]).
pub fn rank_reading(index: &Index, query: &IssueQuery, read: &dyn Fn(&str) -> Option<String>) -> Vec<RankedFile> {
    combine(&signals_reading(index, query, read), &WEIGHTS)
}

/// Ranks with explicit weights.
pub fn rank_with(index: &Index, issue_text: &str, weights: &Weights) -> Vec<RankedFile> {
    combine(&signals(index, issue_text), weights)
}

/// Weighs the signals into a ranking, best first, each file with its main reasons.
pub fn combine(signals: &Signals, weights: &Weights) -> Vec<RankedFile> {
    let n = signals.paths.len();
    let lexical = signals.lexical.normalised();
    let (symbols, paths, relations) =
        (signals.symbols.saturated(), signals.path_mentions.saturated(), signals.relations.saturated());
    let mut ranked: Vec<RankedFile> = (0..n)
        .map(|i| {
            let mut score = weights.lexical * lexical[i]
                + weights.symbols * symbols[i]
                + weights.paths * paths[i]
                + weights.relations * relations[i]
                + weights.package * signals.package[i]
                + weights.parent * signals.parent[i]
                + weights.prior * signals.prior[i];
            let mut reasons: Vec<(f64, String)> = Vec::new();
            for (signal, weight) in [
                (&signals.path_mentions, weights.paths),
                (&signals.symbols, weights.symbols),
                (&signals.relations, weights.relations),
            ] {
                reasons.extend(signal.reasons[i].iter().map(|(v, r)| (weight * (1.0 - (-v).exp()), r.clone())));
            }
            reasons.extend(signals.lexical.reasons[i].iter().map(|(_, r)| (weights.lexical * lexical[i], r.clone())));
            if signals.package[i] > 0.05 {
                reasons.push((weights.package * signals.package[i], same_package(signals, i)));
            }
            if signals.parent[i] > 0.05 {
                reasons.push((weights.parent * signals.parent[i], DECLARES_MODULE.into()));
            }
            let users = signals.users[i];
            if signals.prior[i] > 0.5 && users >= 2 {
                reasons
                    .push((weights.prior * signals.prior[i], format!("central: {users} files use names it defines")));
            }
            if reasons.is_empty() {
                reasons.push((0.0, weak_reason(signals, i)));
            }
            // A test that the issue's trace or a `path:line` runs through, at a line it has, is
            // the failing test the issue is about, whatever its words. (A test file merely
            // named, as commit messages name the tests they add, still sinks.)
            let traced = !signals.path_mentions.points[i].is_empty();
            if signals.tests[i] && !signals.about_tests && !traced {
                score *= 0.3;
                reasons.push((0.0, "test code (ranked down)".into()));
            } else if signals.examples[i] && !signals.about_examples {
                score *= 0.3;
                reasons.push((0.0, "example code (ranked down)".into()));
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
            // `ERROR` and `error` in the issue name a file `error.ts` once.
            let reasons =
                reasons.into_iter().map(|(_, r)| r).filter(|r| seen.insert(r.to_lowercase())).take(4).collect();
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
            RankedFile { path: signals.paths[i].clone(), score, reasons, lines, located, words }
        })
        .collect();
    ranked.sort_by(|a, b| b.score.total_cmp(&a.score).then_with(|| a.path.cmp(&b.path)));
    ranked
}

/// The reason of a module file that declares a file the issue names.
const DECLARES_MODULE: &str = "declares the module of a named file";

/// Why a file that nothing in the issue names still ranks: the weak signal it has.
fn weak_reason(signals: &Signals, i: usize) -> String {
    if signals.package[i] > 0.0 {
        same_package(signals, i)
    } else if signals.parent[i] > 0.0 {
        DECLARES_MODULE.into()
    } else {
        match signals.users[i] {
            0 => "nothing in the issue points here".into(),
            1 => "nothing in the issue points here; 1 file uses a name it defines".into(),
            users => format!("nothing in the issue points here; {users} files use names it defines"),
        }
    }
}

/// The package signal's reason, naming the file that lends it: ``same package as `Mock.java`
/// (org.mockito)``.
fn same_package(signals: &Signals, i: usize) -> String {
    let lead = &signals.package_leads[i];
    match signals.packages[i].as_str() {
        "" => format!("same package as `{lead}` (the top folder)"),
        package => format!("same package as `{lead}` ({package})"),
    }
}

fn normalise(values: &[f64]) -> Vec<f64> {
    let max = values.iter().cloned().fold(0.0, f64::max);
    if max <= 0.0 { vec![0.0; values.len()] } else { values.iter().map(|v| v / max).collect() }
}

/// The words of a path, for its document.
fn path_words(path: &str) -> Vec<String> {
    terms::words(path.trim_end_matches(|c: char| c != '.').trim_end_matches('.'))
}

/// The BM25 signal of `files` for the issue's terms, and the terms each file shares with what
/// each adds, the most first ([`SHARED_WORDS`] at most).
fn lexical_signal(files: &[&IndexedFile], query: &IssueQuery) -> (Signal, Vec<Vec<(String, f64)>>) {
    let n = files.len();
    let path_terms: Vec<Vec<String>> = files.iter().map(|f| path_words(&f.path)).collect();
    let term_frequency = |file: usize, term: &str| -> f64 {
        let body = files[file]
            .terms
            .binary_search_by(|(t, _)| t.as_str().cmp(term))
            .map(|at| files[file].terms[at].1)
            .unwrap_or(0);
        let in_path = path_terms[file].iter().filter(|t| *t == term).count() as u32;
        f64::from(body + PATH_BOOST * in_path)
    };
    let lengths: Vec<f64> =
        (0..n).map(|i| f64::from(files[i].word_count) + f64::from(PATH_BOOST) * path_terms[i].len() as f64).collect();
    let average = (lengths.iter().sum::<f64>() / n as f64).max(1.0);
    let mut signal = Signal::new(n);
    let mut contributions: Vec<Vec<(f64, &str)>> = vec![Vec::new(); n];
    for (term, weight) in &query.terms {
        let frequencies: Vec<f64> = (0..n).map(|i| term_frequency(i, term)).collect();
        let document_frequency = frequencies.iter().filter(|f| **f > 0.0).count() as f64;
        if document_frequency == 0.0 {
            continue;
        }
        let idf = (1.0 + (n as f64 - document_frequency + 0.5) / (document_frequency + 0.5)).ln();
        for (i, tf) in frequencies.iter().enumerate() {
            if *tf > 0.0 {
                let value = weight * idf * tf * (K1 + 1.0) / (tf + K1 * (1.0 - B + B * lengths[i] / average));
                signal.values[i] += value;
                contributions[i].push((value, term));
            }
        }
    }
    for (i, terms) in contributions.iter_mut().enumerate() {
        terms.sort_by(|a, b| b.0.total_cmp(&a.0));
        if !terms.is_empty() {
            let top: Vec<&str> = terms.iter().take(4).map(|(_, t)| *t).collect();
            signal.reasons[i].push((signal.values[i], format!("shares words with the issue: {}", top.join(", "))));
        }
    }
    let shared = contributions
        .into_iter()
        .map(|terms| terms.into_iter().take(SHARED_WORDS).map(|(value, term)| (term.to_owned(), value)).collect())
        .collect();
    (signal, shared)
}

/// Where each name is defined: name -> [(file, kind, container, line)].
type DefinitionTable<'a> = HashMap<&'a str, Vec<(usize, DefinitionKind, Option<&'a str>, u32)>>;

fn definition_table<'a>(files: &[&'a IndexedFile]) -> DefinitionTable<'a> {
    let mut table: DefinitionTable<'a> = HashMap::new();
    for (i, file) in files.iter().enumerate() {
        for definition in &file.symbols.definitions {
            table.entry(definition.name.as_str()).or_default().push((
                i,
                definition.kind,
                definition.container.as_deref(),
                definition.line,
            ));
        }
    }
    table
}

/// The strongest definition of a name the issue gives, in one file.
#[derive(Clone, Copy)]
struct DefinitionHit {
    /// How much it counts: its kind's weight, doubled when a qualifier names it.
    value: f64,
    /// Which qualifier of the issue's name names its type, its folder or its file, if one does.
    qualifier: Option<usize>,
    kind: DefinitionKind,
    line: u32,
    /// How near the qualifier naming its own type stands, 1 for the outermost; 0 for none.
    nearness: usize,
}

/// Files defining named identifiers; also returns the types hit (for relations).
fn symbol_signal<'a>(
    files: &[&IndexedFile],
    query: &'a IssueQuery,
    table: &DefinitionTable<'_>,
) -> (Signal, Vec<(&'a str, f64)>) {
    let n = files.len();
    let mut signal = Signal::new(n);
    let mut hit_types = Vec::new();
    let stems: Vec<String> = files.iter().map(|f| squash(stem(&f.path))).collect();
    let mut stem_counts: HashMap<&str, usize> = HashMap::new();
    for stem in &stems {
        *stem_counts.entry(stem.as_str()).or_default() += 1;
    }
    for mention in &query.symbols {
        let mut defining: Vec<&(usize, DefinitionKind, Option<&str>, u32)> =
            table.get(mention.name.as_str()).map(|d| d.iter().collect()).unwrap_or_default();
        // A macro use names a macro: the functions and modules that share its name are not it.
        if mention.macro_use && defining.iter().any(|(_, kind, ..)| *kind == DefinitionKind::Macro) {
            defining.retain(|(_, kind, ..)| *kind == DefinitionKind::Macro);
        }
        let distinct: HashSet<usize> = defining.iter().map(|(file, ..)| *file).collect();
        if !distinct.is_empty() {
            let specificity = 1.0 / (1.0 + (distinct.len() as f64).ln());
            let mut best: HashMap<usize, DefinitionHit> = HashMap::new();
            for (file, kind, container, line) in &defining {
                let path = &files[*file].path;
                // How near the qualifier naming its own type stands (`Cache` of `pool::Cache::get`
                // is nearer than `pool`): 0 when none does.
                let nearness = mention
                    .qualifiers
                    .iter()
                    .rposition(|q| container.is_some_and(|c| squash(c) == squash(q)))
                    .map_or(0, |at| at + 1);
                // The qualifier that names it: its own type, else its folder or file.
                let qualifier = nearness.checked_sub(1).or_else(|| {
                    mention.qualifiers.iter().rposition(|q| {
                        let q = squash(q);
                        path.split('/').any(|part| {
                            let part = squash(stem(part));
                            part == q || (*kind == DefinitionKind::Macro && is_macro_crate_of(&part, &q))
                        })
                    })
                });
                let qualified = qualifier.is_some();
                let value = kind_weight(*kind) * if qualified { 2.0 } else { 1.0 };
                let hit = DefinitionHit { value, qualifier, kind: *kind, line: *line, nearness };
                let entry = best.entry(*file).or_insert(hit);
                // Of equal values, the definition whose own type the nearest qualifier names
                // (`pool::Cache::get` in `pool.rs`: `Cache`'s `get`, not `Pool`'s) gives the line.
                if value > entry.value || (value == entry.value && nearness > entry.nearness) {
                    *entry = hit;
                }
            }
            for (file, DefinitionHit { value, qualifier, kind, line, .. }) in best {
                let score = mention.weight * specificity * value;
                // Named by the qualifier that holds it (`json::_parseNumber2` for a namesake in
                // the `json` folder, not `UTF8StreamJsonParser::_parseNumber2`).
                let name = match qualifier.and_then(|at| mention.qualifiers.get(at)) {
                    Some(q) => format!("{q}::{}", mention.name),
                    None => mention.name.clone(),
                };
                signal.add_at(file, score, line, || {
                    format!("defines `{name}` ({}), named in the issue", kind_name(kind))
                });
                if kind.is_type() {
                    hit_types.push((mention.name.as_str(), mention.weight * specificity));
                }
            }
        }
        // A file named like the identifier (`JoinSet` -> join_set.rs, `JsonParser` -> JsonParser.java).
        let squashed = squash(&mention.name);
        if let Some(count) = stem_counts.get(squashed.as_str()) {
            let specificity = 1.0 / (1.0 + (*count as f64).ln());
            for (i, stem) in stems.iter().enumerate() {
                if *stem == squashed {
                    signal.add(i, mention.weight * specificity, || {
                        format!("named after `{}`, named in the issue", mention.name)
                    });
                }
            }
        }
    }
    (signal, hit_types)
}

/// What a crate's procedural macro crate is called after it, squashed (`tokio-macros`,
/// `serde_derive`, `thiserror-impl`, `tracing-attributes`).
const MACRO_CRATE_SUFFIXES: [&str; 7] = ["macros", "macro", "derive", "impl", "attributes", "codegen", "procmacro"];

/// Whether the folder `part` is the macro crate of the crate `qualifier` (both squashed): a
/// crate re-exports its procedural macros under its own name (`tokio::test`).
fn is_macro_crate_of(part: &str, qualifier: &str) -> bool {
    !qualifier.is_empty() && part.strip_prefix(qualifier).is_some_and(|suffix| MACRO_CRATE_SUFFIXES.contains(&suffix))
}

fn kind_name(kind: DefinitionKind) -> &'static str {
    match kind {
        DefinitionKind::Function => "function",
        DefinitionKind::Method => "method",
        DefinitionKind::Class => "class",
        DefinitionKind::Struct => "struct",
        DefinitionKind::Enum => "enum",
        DefinitionKind::Interface => "interface",
        DefinitionKind::Trait => "trait",
        DefinitionKind::Type => "type",
        DefinitionKind::Module => "module",
        DefinitionKind::Constant => "constant",
        DefinitionKind::Macro => "macro",
        DefinitionKind::Variant => "variant",
        DefinitionKind::Field => "field",
    }
}

/// A file holding an error message the issue quotes counts as much as one the issue names.
const MESSAGE_WEIGHT: f64 = 1.0;
/// A message whose rarest word is in more files than this is not looked for in them.
const MAX_MESSAGE_CANDIDATES: usize = 300;

/// Files that hold, in a string, a run of an error message the issue quotes: the code that
/// raises it. Only files holding the run's rarest word are read, with `read` (each once).
fn message_signal(
    files: &[&IndexedFile],
    query: &IssueQuery,
    read: &dyn Fn(&str) -> Option<String>,
    signal: &mut Signal,
) {
    let holds_word =
        |i: usize, word: &str| files[i].terms.binary_search_by(|(term, _)| term.as_str().cmp(word)).is_ok();
    let mut texts: HashMap<usize, Option<String>> = HashMap::new();
    for message in &query.messages {
        // The index's words are lower-cased ASCII, split from identifiers: only such words key.
        let words = message.split(' ').filter(|w| w.len() > 1 && w.chars().all(|c| c.is_ascii_alphabetic()));
        let mut keys: Vec<String> = words.map(str::to_ascii_lowercase).filter(|w| !terms::is_stopword(w)).collect();
        keys.sort();
        keys.dedup();
        let rarest = keys
            .iter()
            .map(|key| (0..files.len()).filter(|&i| holds_word(i, key)).collect::<Vec<usize>>())
            .min_by_key(Vec::len);
        let Some(candidates) = rarest.filter(|c| !c.is_empty() && c.len() <= MAX_MESSAGE_CANDIDATES) else {
            continue;
        };
        let Some(pattern) = message_pattern(message) else { continue };
        let holding: Vec<(usize, u32)> = candidates
            .into_iter()
            .filter_map(|i| {
                let text = texts.entry(i).or_insert_with(|| read(&files[i].path)).as_deref()?;
                let at = in_a_string(text, &pattern)?;
                Some((i, text[..at].matches('\n').count() as u32 + 1))
            })
            .collect();
        if holding.is_empty() {
            continue;
        }
        let specificity = 1.0 / (1.0 + (holding.len() as f64).ln());
        let shown: String = message.chars().take(60).collect();
        let cut = if shown.len() < message.len() { "..." } else { "" };
        for (i, line) in holding {
            signal.add_at(i, MESSAGE_WEIGHT * specificity, line, || {
                format!("holds the message \"{shown}{cut}\" the issue quotes")
            });
        }
    }
}

/// How a message's words may stand apart in source: spaces and line breaks, a Rust string's
/// line continuation (`happens \` then `because`), and a string concatenated over lines
/// (`"... happens " +` then `"because ..."`).
const MESSAGE_GAP: &str = r#"(?:\s|\\|["'`]\s*\+\s*["'`])+"#;

/// A pattern that finds `message` in source however its words are spread over lines.
fn message_pattern(message: &str) -> Option<regex::Regex> {
    let words: Vec<String> = message.split_whitespace().map(regex::escape).collect();
    regex::Regex::new(&words.join(MESSAGE_GAP)).ok()
}

/// Where `text` first holds `message` (as [`message_pattern`] finds it) inside a string: on a
/// line that is not a comment, after a quote (`"`, `'` or a backtick) that opens a literal. A
/// doc comment that speaks of the message is not the code that raises it; an attribute that
/// holds it (`#[error("...")]`) is.
fn in_a_string(text: &str, message: &regex::Regex) -> Option<usize> {
    message.find_iter(text).map(|found| found.start()).find(|&at| {
        let line_start = text[..at].rfind('\n').map_or(0, |newline| newline + 1);
        let before = &text[line_start..at];
        let trimmed = before.trim_start();
        let attribute = trimmed.starts_with("#[") || trimmed.starts_with("#![");
        let comment = ["//", "/*", "*", "#"].iter().any(|start| trimmed.starts_with(start)) && !attribute;
        let opened = |quote: char| before.chars().filter(|c| *c == quote).count() % 2 == 1;
        !comment && (opened('"') || opened('\'') || opened('`'))
    })
}

/// Files whose path or name the issue gives, those in a folder it names, and those whose
/// stem it uses as a word.
fn path_signal(files: &[&IndexedFile], query: &IssueQuery) -> Signal {
    let n = files.len();
    let mut signal = Signal::new(n);
    for (spelt, weight) in &query.paths {
        let mentioned = spelt.trim_start_matches('/');
        let mut matching: Vec<(usize, f64, String)> = Vec::new();
        for (i, file) in files.iter().enumerate() {
            let path = file.path.as_str();
            if mentioned.contains('/') {
                // `tokio-1.2.3/src/x.rs` names `tokio/src/x.rs`: match on the longest shared tail.
                let shared = common_suffix_components(path, mentioned);
                let total = mentioned.split('/').count().min(path.split('/').count());
                if shared >= 2 || (shared == 1 && total == 1) {
                    let value = weight * shared as f64 / total.max(1) as f64;
                    matching.push((i, value, format!("the issue names its path `{mentioned}`")));
                }
            } else if path.rsplit('/').next() == Some(mentioned) {
                matching.push((i, weight * 0.8, format!("the issue names the file `{mentioned}`")));
            }
        }
        // A path names the files that end in most of it: `crates/globset/src/lib.rs` names
        // that file, not every other crate's `src/lib.rs`. A path that several files end in
        // alike (`src/lib.rs` in a workspace of crates, often the reporter's own) says less of
        // each of them.
        let best = matching.iter().map(|(_, value, _)| *value).fold(0.0, f64::max);
        matching.retain(|(_, value, _)| *value >= best);
        let specificity = 1.0 / (1.0 + (matching.len().max(1) as f64).ln());
        // The line the issue gives with the path (`src/walk.rs:12:5`) is where a reason points,
        // when the path names one file and the line is in it (a trace of an older version may
        // point past its end).
        let only = (matching.len() == 1).then(|| matching[0].0);
        for (i, value, reason) in matching {
            let value = value * specificity;
            // The lines given with the path that lie in the file (a trace of an older version
            // may point past its end), when the path names this one file.
            let mut lines = query
                .locations
                .iter()
                .filter(|(path, line)| path == spelt && only == Some(i) && *line <= files[i].lines)
                .map(|(_, line)| *line);
            match lines.next() {
                Some(line) => {
                    signal.add_at(i, value, line, || reason);
                    // The trace's other frames into the file, each a little weaker.
                    for (at, further) in lines.enumerate() {
                        signal.point_at(i, value * 0.9f64.powi(at as i32 + 1), further);
                    }
                }
                None => signal.add(i, value, || reason),
            }
        }
    }
    for folder in &query.folders {
        let inner = format!("/{folder}/");
        let holds = |path: &str| {
            path.strip_prefix(folder.as_str()).is_some_and(|rest| rest.starts_with('/')) || path.contains(&inner)
        };
        let below: Vec<usize> =
            files.iter().enumerate().filter(|(_, file)| holds(&file.path)).map(|(i, _)| i).collect();
        // A folder that holds much says less of each of its files.
        let value = 0.6 / (1.0 + (below.len() as f64).ln());
        for i in below {
            signal.add(i, value, || format!("in the folder `{folder}/` the issue names"));
        }
    }
    let mut stem_counts: HashMap<&str, usize> = HashMap::new();
    for file in files {
        *stem_counts.entry(stem(&file.path)).or_default() += 1;
    }
    for (i, file) in files.iter().enumerate() {
        let file_stem = stem(&file.path);
        let lower = file_stem.to_ascii_lowercase();
        if lower.len() > 2
            && !matches!(lower.as_str(), "mod" | "lib" | "index")
            && query.words.binary_search(&lower).is_ok()
        {
            let count = stem_counts.get(file_stem).copied().unwrap_or(1);
            let value = 0.3 / (1.0 + (count as f64).ln());
            signal.add(i, value, || format!("its name `{lower}` is a word of the issue"));
        }
    }
    signal
}

fn common_suffix_components(a: &str, b: &str) -> usize {
    a.rsplit('/').zip(b.rsplit('/')).take_while(|(x, y)| x == y || same_package_folder(x, y)).count()
}

/// Whether two path components name the same package, one of them with its version as a
/// registry or a vendored copy spells it: `tokio-1.38.0` is `tokio`, `askama_derive-0.12.5`
/// is `askama_derive`.
fn same_package_folder(a: &str, b: &str) -> bool {
    let unversioned = |versioned: &str, bare: &str| {
        versioned.strip_prefix(bare).and_then(|rest| rest.strip_prefix('-')).is_some_and(|version| {
            version.starts_with(|c: char| c.is_ascii_digit())
                && version.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '+'))
        })
    };
    !a.is_empty() && !b.is_empty() && (unversioned(a, b) || unversioned(b, a))
}

/// Files whose types extend or implement a named type.
fn relation_signal(files: &[&IndexedFile], hit_types: &[(&str, f64)]) -> Signal {
    let mut signal = Signal::new(files.len());
    for (name, weight) in hit_types {
        for (i, file) in files.iter().enumerate() {
            if file.symbols.supertypes.iter().any(|s| s == name) {
                signal.add(i, *weight, || format!("extends or implements `{name}`"));
            } else if file.symbols.impl_targets.iter().any(|s| s == name) {
                signal.add(i, 0.7 * weight, || format!("implements methods of `{name}`"));
            }
        }
    }
    signal
}

/// Edges from each file to the files defining what it uses, both ways.
/// The use-definition graph (each edge also weighed back at half), and how many files use
/// each file.
fn reference_graph(files: &[&IndexedFile], table: &DefinitionTable<'_>) -> (FileGraph, Vec<usize>) {
    let mut graph = FileGraph::new(files.len());
    let mut users = vec![0; files.len()];
    for (i, file) in files.iter().enumerate() {
        let mut targets: HashMap<usize, f64> = HashMap::new();
        let used = file.symbols.references.iter().map(|(name, count)| (name.as_str(), f64::from(*count).sqrt()));
        let extended =
            file.symbols.supertypes.iter().chain(&file.symbols.impl_targets).map(|name| (name.as_str(), 3.0));
        for (name, weight) in used.chain(extended) {
            let Some(defining) = table.get(name) else { continue };
            let distinct: HashSet<usize> = defining.iter().map(|(file, ..)| *file).collect();
            if distinct.len() > MAX_FANOUT {
                continue;
            }
            for target in distinct {
                *targets.entry(target).or_default() += weight / f64::from(u32::try_from(defining.len()).unwrap_or(1));
            }
        }
        for (target, weight) in targets {
            if target != i {
                users[target] += 1;
            }
            graph.add(i, target, weight);
            graph.add(target, i, 0.5 * weight);
        }
    }
    (graph, users)
}

/// Package siblings share a fraction of their strongest member's direct score: each file's
/// share, and the name of the member it comes from (of equals, the first by path).
fn package_signal(files: &[&IndexedFile], direct: &[f64]) -> (Vec<f64>, Vec<String>) {
    let mut best: HashMap<String, (f64, &str)> = HashMap::new();
    let packages: Vec<String> = files.iter().map(|f| package_of(f)).collect();
    for ((package, score), file) in packages.iter().zip(direct).zip(files) {
        let entry = best.entry(package.clone()).or_insert((0.0, ""));
        if *score > entry.0 || (*score == entry.0 && *score > 0.0 && file.path.as_str() < entry.1) {
            *entry = (*score, &file.path);
        }
    }
    packages
        .iter()
        .zip(direct)
        .map(|(package, own)| {
            let (score, lead) = best[package];
            if *own > 0.0 || score <= 0.0 {
                return (0.0, String::new());
            }
            (score, lead.rsplit('/').next().unwrap_or(lead).to_owned())
        })
        .unzip()
}

/// The file that declares `path`'s module: `dir/mod.rs` (or `dir.rs`, `dir/lib.rs`,
/// `dir/main.rs`, `dir/index.ts`) for a file in `dir`; one level up for those files themselves.
fn declaring_module(path: &str, paths: &HashMap<&str, usize>) -> Option<usize> {
    let (dir, name) = path.rsplit_once('/').unwrap_or(("", path));
    let declares_own_dir = matches!(name, "mod.rs" | "lib.rs" | "main.rs" | "index.ts" | "index.js");
    let dir = if declares_own_dir { dir.rsplit_once('/').map_or("", |(up, _)| up) } else { dir };
    if dir.is_empty() && declares_own_dir {
        return None;
    }
    let join = |name: &str| if dir.is_empty() { name.to_owned() } else { format!("{dir}/{name}") };
    let candidates =
        [join("mod.rs"), format!("{dir}.rs"), join("lib.rs"), join("main.rs"), join("index.ts"), join("index.js")];
    candidates
        .iter()
        .filter(|candidate| candidate.as_str() != path)
        .find_map(|candidate| paths.get(candidate.as_str()).copied())
}

/// Module files get a share of the direct scores of the files they declare.
fn parent_signal(files: &[&IndexedFile], direct: &[f64]) -> Vec<f64> {
    let paths: HashMap<&str, usize> = files.iter().enumerate().map(|(i, f)| (f.path.as_str(), i)).collect();
    let mut values = vec![0.0; files.len()];
    for (i, file) in files.iter().enumerate() {
        if direct[i] > 0.0
            && let Some(parent) = declaring_module(&file.path, &paths)
        {
            values[parent] = f64::max(values[parent], direct[i]);
        }
    }
    values
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::indexed as index;

    fn order(ranked: &[RankedFile]) -> Vec<&str> {
        ranked.iter().map(|r| r.path.as_str()).collect()
    }

    #[test]
    fn the_file_defining_a_named_type_comes_first_with_its_reason() {
        let (_dir, index) = index(&[
            ("src/set.rs", "pub struct JoinSet;\nimpl JoinSet { pub fn join_next(&self) {} }\n"),
            ("src/other.rs", "pub fn unrelated() { let words = \"join set next\"; }\n"),
            ("src/lib.rs", "mod set; mod other;\n"),
        ]);
        let ranked = rank(&index, "Add try_join_next to `JoinSet`");
        assert_eq!(ranked[0].path, "src/set.rs");
        assert!(ranked[0].reasons.iter().any(|r| r.contains("defines `JoinSet`")), "{:?}", ranked[0].reasons);
    }

    #[test]
    fn the_file_that_raises_a_quoted_message_comes_first() {
        let (dir, index) = index(&[
            (
                "src/pool/limits.rs",
                "pub fn check(n: usize) -> Result<(), String> {\n    \
                 Err(format!(\"connection pool exhausted after {n} waits\"))\n}\n",
            ),
            // The same words, more of them, and the message itself only in a comment.
            (
                "src/report.rs",
                "/// Counts a connection pool's waits; \"connection pool exhausted after\" means they ran out.\n\
                 pub fn exhausted_after(waits: u32) -> bool { waits > 3 }\n",
            ),
            ("src/lib.rs", "pub mod pool;\npub mod report;\n"),
        ]);
        let issue = "Requests fail under load\n```\nError: connection pool exhausted after 30 waits\n```\n";
        let ranked = rank(&index, issue);
        assert_eq!(ranked[0].path, "src/pool/limits.rs", "{ranked:#?}");
        let reason = "holds the message \"connection pool exhausted after\" the issue quotes";
        assert!(ranked[0].reasons.iter().any(|r| r == reason), "{:?}", ranked[0].reasons);
        assert_eq!(ranked[0].line(), Some(2), "the line that raises it");
        assert!(!ranked[1].reasons.iter().any(|r| r.starts_with("holds the message")), "{:?}", ranked[1].reasons);

        // A message written over lines is found as one.
        let (_spread, spread) = self::index(&[
            (
                "src/enter.rs",
                "pub fn enter() {\n    panic!(\"Cannot start a runtime from within a runtime. This happens \\\n            \
                 because a function attempted to block the current thread\");\n}\n",
            ),
            (
                "src/main/java/acme/Pool.java",
                "class Pool {\n  void take() {\n    throw new IllegalStateException(\"no worker is free to \" +\n        \
                 \"take the queued task\");\n  }\n}\n",
            ),
            ("src/other.rs", "pub fn runtime_within_runtime_thread() {}\n"),
        ]);
        let panic = "thread 'main' panicked at 'Cannot start a runtime from within a runtime. This happens \
                     because a function attempted to block the current thread', src/main.rs:4:5";
        let ranked = rank(&spread, panic);
        assert_eq!((ranked[0].path.as_str(), ranked[0].line()), ("src/enter.rs", Some(2)), "{ranked:#?}");
        let attributed = "#[derive(Debug, thiserror::Error)]\npub enum Fault {\n    \
                          #[error(\"the configuration file could not be parsed as settings\")]\n    Parse,\n}\n";
        let (_attr, with_attribute) =
            self::index(&[("src/fault.rs", attributed), ("src/other.rs", "pub fn configuration() {}\n")]);
        let ranked = rank(&with_attribute, "Error: the configuration file could not be parsed as settings");
        assert_eq!(
            (ranked[0].path.as_str(), ranked[0].line()),
            ("src/fault.rs", Some(3)),
            "an attribute holds it: {ranked:#?}"
        );
        let thrown = "java.lang.IllegalStateException: no worker is free to take the queued task";
        let ranked = rank(&spread, thrown);
        assert_eq!(
            (ranked[0].path.as_str(), ranked[0].line()),
            ("src/main/java/acme/Pool.java", Some(3)),
            "{ranked:#?}"
        );

        // The same words, not quoted from an error line, lead elsewhere.
        let ranked = rank(&index, "Requests fail under load\nThe connection pool is exhausted after 30 waits.");
        assert_eq!(ranked[0].path, "src/report.rs", "{ranked:#?}");

        // Files are read as the editor holds them: a buffer that no longer raises it does not.
        let unsaved = |path: &str| {
            let disk = std::fs::read_to_string(dir.path().join(path)).ok()?;
            Some(if path == "src/pool/limits.rs" { disk.replace("connection pool", "pool") } else { disk })
        };
        let ranked = rank_reading(&index, &issue::analyze(issue), &unsaved);
        assert!(!ranked.iter().any(|f| f.reasons.iter().any(|r| r == reason)), "{ranked:#?}");
    }

    #[test]
    fn every_file_says_why_it_ranks_and_central_means_used() {
        let (_dir, index) = index(&[
            ("src/util.rs", "pub fn helper() {}\n"),
            ("src/users/a.rs", "fn first() { helper(); }\n"),
            ("src/users/b.rs", "fn second() { helper(); }\n"),
            ("src/users/c.rs", "fn third() { helper(); }\n"),
            ("src/solo/lonely.rs", "pub fn alone() {}\n"),
        ]);
        let ranked = rank(&index, "Crash in `alone`");
        assert_eq!(ranked[0].path, "src/solo/lonely.rs");
        for file in &ranked {
            assert!(!file.reasons.is_empty(), "{file:?}");
        }
        let util = ranked.iter().find(|r| r.path == "src/util.rs").unwrap();
        assert!(util.reasons.contains(&"central: 3 files use names it defines".to_owned()), "{util:?}");
        let a = ranked.iter().find(|r| r.path == "src/users/a.rs").unwrap();
        assert_eq!(a.reasons, ["nothing in the issue points here"], "it uses, nothing uses it");

        // Where nothing uses anything, nothing is central; the top folder is named as such.
        let (_unlinked_dir, unlinked) =
            self::index(&[("x.rs", "pub fn alone() {}\n"), ("y.rs", "pub fn other() {}\n")]);
        let ranked = rank(&unlinked, "Crash in `alone`");
        assert_eq!(ranked[1].reasons, ["same package as `x.rs` (the top folder)"], "{ranked:?}");
    }

    #[test]
    fn a_namesake_is_said_to_be_named_by_the_qualifier_that_holds_it() {
        let (_dir, index) = index(&[
            ("src/json/utf8.rs", "pub struct Utf8Parser;\nimpl Utf8Parser {\n    pub fn parse_number(&self) {}\n}\n"),
            (
                "src/json/reader.rs",
                "pub struct ReaderParser;\nimpl ReaderParser {\n    pub fn parse_number(&self) {}\n}\n",
            ),
        ]);
        let ranked = rank(&index, "`json::utf8::Utf8Parser::parse_number` overflows");
        let reason = |path: &str| ranked.iter().find(|r| r.path == path).unwrap().reasons.clone();
        assert!(
            reason("src/json/utf8.rs")
                .contains(&"defines `Utf8Parser::parse_number` (method), named in the issue".into()),
            "{ranked:?}"
        );
        assert!(
            reason("src/json/reader.rs").contains(&"defines `json::parse_number` (method), named in the issue".into()),
            "its folder names it, not its type: {ranked:?}"
        );
    }

    #[test]
    fn a_package_sibling_names_the_file_that_lifts_it() {
        let (_dir, index) = index(&[
            ("src/main/java/org/acme/Engine.java", "package org.acme;\npublic class Engine { void start() {} }\n"),
            ("src/main/java/org/acme/Gauge.java", "package org.acme;\npublic class Gauge { void read() {} }\n"),
            ("src/main/java/org/other/Pump.java", "package org.other;\npublic class Pump { void run() {} }\n"),
        ]);
        let ranked = rank(&index, "`Engine.start` throws when cold");
        assert_eq!(ranked[0].path, "src/main/java/org/acme/Engine.java");
        let gauge = ranked.iter().find(|r| r.path.ends_with("Gauge.java")).unwrap();
        assert_eq!(gauge.reasons, ["same package as `Engine.java` (org.acme)"], "{ranked:?}");
        let pump = ranked.iter().find(|r| r.path.ends_with("Pump.java")).unwrap();
        assert!(!pump.reasons.iter().any(|r| r.starts_with("same package")), "{pump:?}");
    }

    #[test]
    fn a_file_named_after_a_name_is_not_also_said_to_have_a_name_that_is_a_word() {
        let (_dir, index) = index(&[("src/proxy.rs", "pub struct Proxy;\n"), ("src/other.rs", "pub fn other() {}\n")]);
        let ranked = rank(&index, "`Proxy` drops the proxy header");
        let reasons = &ranked.iter().find(|r| r.path == "src/proxy.rs").unwrap().reasons;
        assert!(reasons.iter().any(|r| r == "named after `Proxy`, named in the issue"), "{reasons:?}");
        assert!(!reasons.iter().any(|r| r.starts_with("its name `proxy`")), "{reasons:?}");
    }

    #[test]
    fn a_reason_is_given_once_whatever_the_case_of_the_name() {
        let (_dir, index) =
            index(&[("src/error.ts", "export function report() {}\n"), ("src/other.ts", "export const x = 1;\n")]);
        let ranked = rank(&index, "Overlay hides the error\n```\nERROR: Unexpected\n```\n`error` is thrown");
        assert_eq!(ranked[0].path, "src/error.ts");
        let named: Vec<&String> = ranked[0].reasons.iter().filter(|r| r.starts_with("named after")).collect();
        assert_eq!(named.len(), 1, "{:?}", ranked[0].reasons);
    }

    #[test]
    fn a_macro_used_in_the_issue_is_found_in_its_own_crate() {
        let (_dir, index) = index(&[
            ("app/src/lib.rs", "pub mod runtime;\npub use app_macros::test;\n"),
            ("app/src/runtime.rs", "pub fn test() {}\npub mod test {}\n"),
            (
                "app-macros/src/lib.rs",
                "#[proc_macro_attribute]\npub fn test(args: TokenStream, item: TokenStream) -> TokenStream { item }\n",
            ),
        ]);
        let ranked = rank(&index, "Renamed crate breaks the attribute\n```rust\n#[app::test]\nasync fn t() {}\n```\n");
        assert_eq!(ranked[0].path, "app-macros/src/lib.rs", "{ranked:?}");
        assert!(
            ranked[0].reasons.iter().any(|r| r.contains("defines `app::test` (macro)")),
            "re-exported under the crate's name: {:?}",
            ranked[0].reasons
        );
        let called = rank(&index, "`app::test()` panics");
        assert_eq!(called[0].path, "app/src/runtime.rs", "a call names the function: {called:?}");
        assert!(is_macro_crate_of("serdederive", "serde") && is_macro_crate_of("tracingattributes", "tracing"));
        assert!(!is_macro_crate_of("crates", "crate") && !is_macro_crate_of("tokioutil", "tokio"));
        assert!(!is_macro_crate_of("macros", ""), "a qualifier of underscores (`_.debounce`) squashes to nothing");
    }

    #[test]
    fn a_path_many_files_end_in_alike_says_less_of_each() {
        let lib = "pub fn start() {}\n";
        let issue = "Hangs\n\nthread 'main' panicked at src/lib.rs:1:5 in drain";
        let only_paths =
            Weights { lexical: 0.0, symbols: 0.0, paths: 1.0, relations: 0.0, package: 0.0, parent: 0.0, prior: 0.0 };
        let alpha_score = |crates: &[&str]| {
            let files: Vec<(String, &str)> = crates.iter().map(|name| (format!("{name}/src/lib.rs"), lib)).collect();
            let files: Vec<(&str, &str)> = files.iter().map(|(path, text)| (path.as_str(), *text)).collect();
            let (_dir, index) = index(&files);
            let ranked = rank_with(&index, issue, &only_paths);
            let alpha = ranked.iter().find(|r| r.path == "alpha/src/lib.rs").unwrap();
            assert!(alpha.reasons.contains(&"the issue names its path `src/lib.rs`".to_owned()), "{alpha:?}");
            alpha.score
        };
        let alone = alpha_score(&["alpha"]);
        let among_four = alpha_score(&["alpha", "beta", "gamma", "delta"]);
        assert!(among_four > 0.0 && among_four < alone * 0.75, "{among_four} against {alone}");
    }

    #[test]
    fn a_path_names_the_files_that_end_in_most_of_it() {
        let lib = "pub fn start() {}\n";
        let (_dir, index) = index(&[
            ("crates/globset/src/lib.rs", lib),
            ("crates/ignore/src/lib.rs", lib),
            ("derive/src/lib.rs", lib),
            ("macros/src/lib.rs", lib),
        ]);
        let only_paths =
            Weights { lexical: 0.0, symbols: 0.0, paths: 1.0, relations: 0.0, package: 0.0, parent: 0.0, prior: 0.0 };
        let named = |issue: &str| -> Vec<String> {
            let ranked = rank_with(&index, issue, &only_paths);
            ranked.into_iter().filter(|file| file.score > 0.0).map(|file| file.path).collect()
        };
        assert_eq!(named("Slow\n\nsee crates/globset/src/lib.rs"), ["crates/globset/src/lib.rs"]);
        // A registry's copy names the workspace's crate of that name, whatever its version.
        let registry =
            "Fails\n\nat /home/me/.cargo/registry/src/index.crates.io-6f17d22bba15001f/derive-0.12.5/src/lib.rs:3:9";
        assert_eq!(named(registry), ["derive/src/lib.rs"]);
        let vendored = "Fails\n\nat vendor/globset-0.4.8/src/lib.rs:3:9";
        assert_eq!(named(vendored), ["crates/globset/src/lib.rs"]);
        // The reporter's own `src/lib.rs` names every crate's alike.
        assert_eq!(named("Fails\n\nat src/lib.rs:3:9").len(), 4);

        assert!(
            same_package_folder("tokio-1.38.0", "tokio") && same_package_folder("serde", "serde-1.0.200+deprecated")
        );
        assert!(!same_package_folder("tokio-util", "tokio") && !same_package_folder("tokio-", "tokio"));
        assert!(!same_package_folder("", "-1.0") && !same_package_folder("a-1.0", "b"));
    }

    #[test]
    fn a_test_the_issues_trace_runs_through_is_not_ranked_down() {
        let (_dir, index) = index(&[
            ("src/pool.rs", "/// Drains the pool.\npub fn drain_pool() {}\n"),
            ("tests/drain.rs", "#[test]\nfn drains() {\n    pool::drain_pool();\n    assert!(false);\n}\n"),
        ]);
        let traced =
            "drain_pool leaves work behind\n\nthread 'drains' panicked at tests/drain.rs:4:5:\nassertion failed";
        let ranked = rank(&index, traced);
        let test = ranked.iter().find(|r| r.path == "tests/drain.rs").unwrap();
        assert!(!test.reasons.iter().any(|r| r.contains("ranked down")), "{ranked:?}");
        assert_eq!(test.line(), Some(4));
        // Named without a line it ran through, it sinks as test code does.
        let named = rank(&index, "drain_pool leaves work behind\n\nSee how tests/drain.rs calls it.");
        let test = named.iter().find(|r| r.path == "tests/drain.rs").unwrap();
        assert!(test.reasons.iter().any(|r| r == "test code (ranked down)"), "{named:?}");
    }

    #[test]
    fn named_paths_and_stack_frames_win() {
        let (_dir, index) = index(&[
            ("core/src/main/java/com/acme/Parser.java", "package com.acme; class Parser { void parse() {} }"),
            (
                "core/src/main/java/com/acme/Lexer.java",
                "package com.acme;\nclass Lexer {\n\n\n\n\n\n\n\n\n\n  void next() {}\n}\n",
            ),
            ("core/src/main/java/com/acme/util/Text.java", "package com.acme.util; class Text {}"),
        ]);
        let ranked =
            rank(&index, "NPE\n  at com.acme.Lexer.next(Lexer.java:12)\n  at java.base/Thread.run(Thread.java:1)");
        assert_eq!(ranked[0].path, "core/src/main/java/com/acme/Lexer.java", "{ranked:?}");
        assert!(ranked[0].reasons.iter().any(|r| r.contains("names its path")), "{:?}", ranked[0].reasons);
        assert_eq!(ranked[0].line(), Some(12), "the frame's line");
        let old = rank(&index, "NPE\n  at com.acme.Lexer.next(Lexer.java:99)\n");
        let lexer = old.iter().find(|f| f.path.ends_with("Lexer.java")).unwrap();
        assert_eq!(lexer.line(), Some(2), "not past the file's end, but at the class it names: {old:?}");
    }

    #[test]
    fn a_file_points_at_the_definition_and_frames_the_issue_means() {
        let pool = "pub struct Pool;\nimpl Pool {\n    pub fn get(&self) {}\n}\npub struct Cache;\nimpl Cache {\n    pub fn get(&self) {}\n}\n";
        let (_dir, index) = index(&[("src/pool.rs", pool), ("src/lib.rs", "pub mod pool;\n")]);
        let ranked = rank(&index, "`pool::Cache::get` returns nothing");
        let file = ranked.iter().find(|f| f.path == "src/pool.rs").unwrap();
        assert!(file.lines.contains(&7), "`Cache`'s `get`: {file:?}");
        assert!(!file.lines.contains(&3), "not `Pool`'s, though the module is `pool`: {file:?}");

        // A first frame past the file's end (an older version) leaves the others their lines.
        let ranked =
            rank(&index, "thread 'main' panicked at src/pool.rs:5000:9\n  at src/pool.rs:3:5\n  at src/pool.rs:7:5");
        let file = ranked.iter().find(|f| f.path == "src/pool.rs").unwrap();
        assert_eq!(file.lines[..2], [3, 7], "{file:?}");
    }

    #[test]
    fn files_in_a_folder_the_issue_names_rise_with_the_reason() {
        let (_dir, index) = self::index(&[
            ("src/runtime/scheduler/multi/worker.rs", "pub fn run_worker() {}\n"),
            ("src/runtime/scheduler/multi/park.rs", "pub fn park_thread() {}\n"),
            ("src/runtime/blocking/pool.rs", "pub fn shutdown_pool() {}\n"),
            ("src/sync/notify.rs", "pub fn shutdown_notify() {}\n"),
        ]);
        let ranked = rank(&index, "Shutdown hangs in src/runtime/scheduler/multi/\nIt never returns.");
        let top: Vec<&str> = order(&ranked)[..2].to_vec();
        assert!(
            top.contains(&"src/runtime/scheduler/multi/worker.rs")
                && top.contains(&"src/runtime/scheduler/multi/park.rs"),
            "{ranked:#?}"
        );
        assert!(ranked[0].reasons.iter().any(|r| r == "in the folder `src/runtime/scheduler/multi/` the issue names"));
    }

    #[test]
    fn a_windows_panic_location_names_its_file() {
        let (_dir, index) = index(&[
            ("src/net/tcp.rs", "pub fn connect() {}\n"),
            ("src/net/udp.rs", "pub fn connect() {}\n"),
            ("src/tcp.rs", "pub fn listen() {}\n"),
        ]);
        let ranked = rank(&index, "connect panics\nthread 'main' panicked at src\\net\\tcp.rs:3:5:\nconnect failed");
        assert_eq!(ranked[0].path, "src/net/tcp.rs", "{ranked:?}");
        assert!(
            ranked[0].reasons.iter().any(|r| r.contains("names its path `src/net/tcp.rs`")),
            "{:?}",
            ranked[0].reasons
        );
    }

    #[test]
    fn subclasses_of_a_named_class_follow_it() {
        let (_dir, index) = index(&[
            (
                "src/JsonParser.java",
                "package p; public abstract class JsonParser { public abstract int getNumberType(); }",
            ),
            (
                "src/JsonParserDelegate.java",
                "package p; public class JsonParserDelegate extends JsonParser { public int getNumberType() { return 0; } }",
            ),
            ("src/Unrelated.java", "package q; class Unrelated { int number; int type; }"),
        ]);
        let ranked = rank(&index, "Add `JsonParser.getNumberTypeFP()` next to getNumberType()");
        assert_eq!(order(&ranked)[..2], ["src/JsonParser.java", "src/JsonParserDelegate.java"]);
        assert!(
            ranked[1].reasons.iter().any(|r| r.contains("extends or implements `JsonParser`")),
            "{:?}",
            ranked[1].reasons
        );
    }

    #[test]
    fn test_modules_sink_alike_wherever_the_crate_sits() {
        let test = "use crate::set::JoinSet;\nfn join_set_loses_tasks() { JoinSet::new(); JoinSet::new(); }\n";
        let (_dir, index) = index(&[
            ("src/set.rs", "pub struct JoinSet;\n"),
            ("src/spawn.rs", "fn spawn_all(set: JoinSet) {}\n"),
            ("src/tests/lost.rs", test),
            ("tokio/src/runtime/tests/loom_lost.rs", test),
        ]);
        let ranked = rank(&index, "JoinSet loses tasks");
        assert_eq!(
            order(&ranked),
            ["src/set.rs", "src/spawn.rs", "src/tests/lost.rs", "tokio/src/runtime/tests/loom_lost.rs"],
            "{ranked:?}"
        );
    }

    #[test]
    fn tests_sink_unless_the_issue_is_about_tests() {
        let files = [
            ("src/walk.rs", "pub fn walk_symlinks() {}\n"),
            ("tests/walk.rs", "fn walk_symlinks_test() { walk_symlinks(); walk_symlinks(); }\n"),
        ];
        let (_dir, index) = index(&files);
        assert_eq!(rank(&index, "walk_symlinks omits broken symlinks")[0].path, "src/walk.rs");
        let about_tests = rank(&index, "flaky test: walk_symlinks_test fails on CI");
        assert_eq!(about_tests[0].path, "tests/walk.rs");
    }

    #[test]
    fn examples_and_demo_crates_sink_unless_the_issue_is_about_them() {
        let files = [
            ("src/iter/chunks.rs", "pub fn par_chunks(size: usize) {}\n"),
            ("rayon-demo/src/sieve/mod.rs", "fn sieve() { par_chunks(8); par_chunks(16); par_chunks(32); }\n"),
            ("examples/chunked.rs", "fn main() { par_chunks(8); par_chunks(16); par_chunks(32); }\n"),
            ("playground/chunks/main.ts", "par_chunks(8); par_chunks(16); par_chunks(32);\n"),
            ("samples/chunks/Main.java", "class Main { void run() { par_chunks(8); par_chunks(16); } }\n"),
        ];
        let (_dir, index) = index(&files);
        let ranked =
            rank(&index, "par_chunks panics on chunk size 0\nFor example, a small demo calling par_chunks(0).");
        assert_eq!(ranked[0].path, "src/iter/chunks.rs", "an example in the body is not about examples: {ranked:?}");
        for sunk in &ranked[1..] {
            assert!(sunk.reasons.iter().any(|r| r == "example code (ranked down)"), "{sunk:?}");
        }
        let about_demo = rank(&index, "the sieve demo calls par_chunks with a size of 0");
        assert_eq!(about_demo[0].path, "rayon-demo/src/sieve/mod.rs", "{about_demo:?}");
        let named = rank(&index, "chunk size 0 panics\nSee examples/chunked.rs: par_chunks(0) panics.");
        assert_eq!(named[0].path, "examples/chunked.rs", "{named:?}");
    }

    #[test]
    fn module_files_declare_their_children() {
        let paths: HashMap<&str, usize> = [
            "src/lib.rs",
            "src/io/mod.rs",
            "src/io/ready.rs",
            "src/sync.rs",
            "src/sync/mutex.rs",
            "src/main.rs",
            "web/index.ts",
            "web/app.ts",
        ]
        .into_iter()
        .enumerate()
        .map(|(i, p)| (p, i))
        .collect();
        let parent = |p: &str| declaring_module(p, &paths);
        assert_eq!(parent("src/io/ready.rs"), Some(1));
        assert_eq!(parent("src/io/mod.rs"), Some(0));
        assert_eq!(parent("src/sync/mutex.rs"), Some(3), "2018-style module files");
        assert_eq!(parent("src/sync.rs"), Some(0));
        assert_eq!(parent("web/app.ts"), Some(6));
        assert_eq!(parent("src/lib.rs"), None);
    }

    #[test]
    fn an_empty_index_or_a_vague_issue_still_answers() {
        let (_dir, empty) = index::<&str>(&[]);
        assert!(rank(&empty, "anything").is_empty());
        let (_dir, index) = index(&[("a.rs", "fn a() {}"), ("b.rs", "fn b() {}")]);
        assert_eq!(rank(&index, "").len(), 2, "every file is still ranked");
    }
}
