//! Reading an issue for what it names: code identifiers (with their qualifiers), file paths,
//! stack-trace frames, and the words that describe the problem.
//!
//! The title is parted from the body and the template's noise left out (`template`); each
//! part is split into prose, inline code and code blocks (`markdown`) and read for paths
//! (`paths`), then for identifier chains (`chains`), told from data by the code around them
//! (`code`), with its web addresses cut to what may speak of the code (`addresses`), and for
//! stack frames (`frames`); what names code the workspace does not hold is left out
//! (`own_code`). The whole issue is read for the error messages it quotes (`messages`) and for
//! what it is about (`topics`); what it was read as is shown to people as a `Reading`.

mod addresses;
mod chains;
mod code;
mod frames;
mod keywords;
mod markdown;
mod messages;
mod own_code;
mod paths;
mod quoted_code;
mod reading;
mod template;
#[cfg(test)]
mod tests;
mod topics;

use std::collections::HashMap;

use super::terms;
use addresses::without_addresses;
use chains::{chain_parts, chains, is_built_in_attribute, is_macro_use, looks_like_code, without_generic_qualifiers};
use code::{
    BlockLine, code_lines, commit_kinds_apart, line_is_trace, line_reads_as_code, long_flags, shell_tool_end,
    string_holding, string_literals, without_closing_references,
};
use frames::{java_frames, without_foreign_frames};
use markdown::{Region, regions};
use messages::quoted_messages;
pub use own_code::OwnCode;
use paths::{
    SOURCE_EXTENSIONS, folder_mentions, is_file_extension, other_file_mentions, own_path_mentions, path_locations,
};
use quoted_code::quoted_code_lines;
pub use quoted_code::{MIN_QUOTED_LEN, normalised_line};
pub use reading::{NameRead, Reading, Weighted};
use template::without_template;
use topics::{about_documentation, about_examples, about_tests};

/// An identifier the issue names, e.g. `JoinSet::try_join_next` or `getNumberType()`.
#[derive(Debug, Clone, PartialEq)]
pub struct SymbolMention {
    /// The identifier itself (`try_join_next`).
    pub name: String,
    /// What qualified it, outermost first (`tokio`, `task`, `JoinSet`); empty if nothing.
    pub qualifiers: Vec<String>,
    /// How confident the text is that this is code: backticks and stack frames are surest.
    pub weight: f64,
    /// Used as a macro: invoked (`select!`) or as an attribute (`#[tokio::test]`), so it
    /// names a macro definition, whatever else shares its name.
    pub macro_use: bool,
}

/// What an issue names.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct IssueQuery {
    /// Words for lexical matching, with weights (code-like words count more).
    pub terms: Vec<(String, f64)>,
    /// Identifiers that look like code, in the order the issue first gives them (its title
    /// first).
    pub symbols: Vec<SymbolMention>,
    /// Paths and file names mentioned (`src/walk.rs`, `JsonParser.java`), with weights.
    pub paths: Vec<(String, f64)>,
    /// Whole words of the text, lower-cased, and its kebab-case names (to match file stems like
    /// `semaphore` and `no-proto`).
    pub words: Vec<String>,
    /// True when the issue is about tests.
    pub about_tests: bool,
    /// True when the issue is about example or demonstration programs: its title says so, or
    /// it names a file under `examples/` or `demo/` (a "for example" in the body does not).
    pub about_examples: bool,
    /// Whether its prose speaks of documentation (`docs`, `javadoc`, `doctest`), so that the
    /// pack shows documentation comments whole.
    pub about_documentation: bool,
    /// Word-for-word runs of the error and panic messages the issue quotes
    /// (`a semaphore may not have more than MAX_PERMITS permits`), which the code that raises
    /// them holds in a string.
    pub messages: Vec<String>,
    /// Lines of code its code blocks quote, whitespace collapsed, looked for in the
    /// workspace's files (the code the reporter pasted to change).
    pub code_lines: Vec<String>,
    /// Paths the issue's prose gives of files in no language the index parses (`README.md`,
    /// `editors/nvim/lua/plugin/init.lua`, `.github/workflows/ci.yml`, `Makefile`), in the
    /// order first given: candidates, which name a file only where one is found.
    pub other_files: Vec<String>,
    /// Folders the issue's prose gives by their path (`src/runtime/scheduler/`,
    /// `packages/core/src`), without a leading `./` or a trailing `/`: candidates, which name
    /// a folder only where the workspace has one.
    pub folders: Vec<String>,
    /// Where the issue's paths with a line point (`src/walk.rs:12:5`, a Java frame's
    /// `(Foo.java:12)`, a forge link's `#L12`, `.github/workflows/ci.yml:40`): each path as
    /// [`IssueQuery::paths`] or [`IssueQuery::other_files`] spells it, with a line given for
    /// it: a path the issue gives with several lines (frames of one file) comes once for
    /// each, the first given first.
    pub locations: Vec<(String, u32)>,
    /// The title read on its own, when the body holds a code block: the body's names are then
    /// mostly those of the code the reporter ran and the output they saw, and the title says
    /// in a line what goes wrong. Whether the issue is about tests or examples is the whole
    /// issue's.
    pub title_alone: Option<Box<IssueQuery>>,
}

impl IssueQuery {
    /// Whether the issue gives nothing to rank by: no words, names or paths.
    pub fn gives_nothing(&self) -> bool {
        self.terms.is_empty() && self.symbols.is_empty() && self.paths.is_empty()
    }
}

/// How much of an issue's text is read.
const MAX_ISSUE_CHARS: usize = 200_000;

/// How many qualifiers of a chain are kept with each part (`a::b::c::D` keeps `b, c` for `D`
/// when this is 2).
const MAX_QUALIFIERS: usize = 3;

/// Weight of the title's words relative to the body's.
const TITLE_WEIGHT: f64 = 2.0;

/// Reads an issue: the title (first line) counts more than the body. Of a pasted Java stack
/// trace, every frame but the JDK's is read (see [`analyze_knowing`]).
pub fn analyze(text: &str) -> IssueQuery {
    analyze_knowing(text, &OwnCode::unknown())
}

/// Reads an issue as [`analyze`] does, the frames of a pasted Java stack trace read only where
/// `own` says the workspace may hold their code.
pub fn analyze_knowing(text: &str, own: &OwnCode) -> IssueQuery {
    // A pasted log can be megabytes; its start names what matters.
    let text = match text.char_indices().nth(MAX_ISSUE_CHARS) {
        Some((cut, _)) => &text[..cut],
        None => text,
    };
    let (title, body) = without_template(text);
    let mut title_query = analyze_part(&title, own);
    let body_query = analyze_part(&body, own);
    for (_, weight) in &mut title_query.terms {
        *weight *= TITLE_WEIGHT;
    }
    // The issue's own words, its template's comments and the reporter's checklist left out:
    // "- [x] I have added a unit test" does not make an issue about tests.
    let prose = format!("{title}\n{body}");
    let mut query = merge(title_query, body_query, &prose);
    query.other_files = other_file_mentions(&prose);
    query.folders = folder_mentions(&prose);
    query.locations = path_locations(&prose, own);
    if !title.trim().is_empty() && holds_code_block(&body) {
        let mut alone = analyze_knowing(&title, own);
        (alone.about_tests, alone.about_examples) = (query.about_tests, query.about_examples);
        query.title_alone = Some(Box::new(alone));
    }
    query
}

/// Whether `body` holds a fenced code block with something in it.
fn holds_code_block(body: &str) -> bool {
    regions(body).iter().any(|(region, text)| *region == Region::CodeBlock && !text.trim().is_empty())
}

fn merge(title: IssueQuery, body: IssueQuery, whole: &str) -> IssueQuery {
    let mut terms: HashMap<String, f64> = HashMap::new();
    for (term, weight) in title.terms.into_iter().chain(body.terms) {
        *terms.entry(term).or_default() += weight;
    }
    let mut symbols = Mentions::default();
    for mention in title.symbols.into_iter().chain(body.symbols) {
        symbols.note(mention.name, mention.qualifiers, mention.weight, mention.macro_use);
    }
    let mut paths: HashMap<String, f64> = HashMap::new();
    for (path, weight) in title.paths.into_iter().chain(body.paths) {
        *paths.entry(path).or_default() += weight;
    }

    let mut query = IssueQuery {
        terms: terms.into_iter().collect(),
        symbols: symbols.into_ordered(),
        paths: paths.into_iter().collect(),
        words: title.words.into_iter().chain(body.words).collect(),
        about_tests: about_tests(whole),
        about_examples: false,
        about_documentation: about_documentation(whole),
        messages: quoted_messages(whole),
        code_lines: quoted_code_lines(whole),
        other_files: Vec::new(),
        folders: Vec::new(),
        locations: Vec::new(),
        title_alone: None,
    };
    query.about_examples = about_examples(whole, &query.paths);
    query.terms.sort_by(|a, b| a.0.cmp(&b.0));
    query.paths.sort_by(|a, b| a.0.cmp(&b.0));
    query.words.sort();
    query.words.dedup();
    query
}

/// Identifiers met so far, each once by name and qualifiers: its surest weight, whether any
/// mention used it as a macro, and when it was first met.
#[derive(Default)]
struct Mentions(HashMap<(String, Vec<String>), (f64, bool, usize)>);

impl Mentions {
    fn note(&mut self, name: String, qualifiers: Vec<String>, weight: f64, macro_use: bool) {
        let met = self.0.len();
        let entry = self.0.entry((name, qualifiers)).or_insert((0.0, false, met));
        *entry = (entry.0.max(weight), entry.1 || macro_use, entry.2);
    }

    /// The mentions, in the order they were first met.
    fn into_ordered(self) -> Vec<SymbolMention> {
        let mut mentions: Vec<_> = self.0.into_iter().collect();
        mentions.sort_by_key(|(_, (_, _, met))| *met);
        mentions
            .into_iter()
            .map(|((name, qualifiers), (weight, macro_use, _))| SymbolMention { name, qualifiers, weight, macro_use })
            .collect()
    }
}

/// How much a name counts by where the issue writes it: in inline code surest, in prose a
/// little less. A code block mostly holds the reporter's own code, which names the API it
/// calls (`ObjectMapper.readValue`, `Command::new`) rather than the code at fault, so a name
/// written only there counts for little; a stack trace's line in a block is the program's own
/// account of where it went, and counts as before.
/// `lines` are the block's ([`code_lines`]) and `at` where the name stands in it.
fn name_weight(region: Region, lines: &[BlockLine], at: usize) -> f64 {
    match region {
        Region::InlineCode => 1.0,
        Region::Prose => 0.8,
        Region::CodeBlock if line_is_trace(lines, at) => TRACE_NAME_WEIGHT,
        Region::CodeBlock => CODE_BLOCK_NAME_WEIGHT,
    }
}

/// What a name on a stack trace's line in a code block counts (see [`name_weight`]).
const TRACE_NAME_WEIGHT: f64 = 0.5;
/// What a name written only in a code block's code counts (see [`name_weight`]); measured in
/// BENCHMARKS.md.
const CODE_BLOCK_NAME_WEIGHT: f64 = 0.1;

/// What a word counts for the lexical match in a code block, against the same word in prose
/// or inline code: the block's code and output say less of where the fault lies than the
/// reporter's words do (see [`name_weight`]); measured in BENCHMARKS.md. An issue that is all
/// one block ranks as before, as only the words' weights against each other count.
const CODE_BLOCK_WORD_WEIGHT: f64 = 0.5;

/// How sure a Conventional Commits scope (`css` of `fix(css): ..`) is to name code: it names
/// the part of the code a change is in, by the project's own word for it, which is often a
/// module's or a file's name and sometimes a topic's (`deps`, `docs`); measured in
/// BENCHMARKS.md.
const SCOPE_WEIGHT: f64 = 0.5;

/// The names a Conventional Commits scope gives: its parts between any marks but `_`, `-`
/// and `$` (`model` and `query` of `model+query`, `ssr` and `hmr` of `ssr/hmr`), of three
/// characters or more; a file's name (`run.js` of `cli/run.js`) is no name, as the path
/// reading takes it.
fn scope_names(scope: &str) -> impl Iterator<Item = &str> {
    scope
        .split(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '$' | '.')))
        .filter(|part| part.len() >= 3 && !part.contains('.'))
}

/// Reads one part of an issue.
fn analyze_part(text: &str, own: &OwnCode) -> IssueQuery {
    let mut query = IssueQuery::default();
    let mut symbols = Mentions::default();
    let mut term_weights: HashMap<String, f64> = HashMap::new();
    let mut paths: HashMap<String, f64> = HashMap::new();

    for frame in java_frames(text, own) {
        *paths.entry(frame.0).or_default() += 2.0;
        if let Some(method) = frame.1 {
            symbols.note(method, Vec::new(), 1.0, false);
        }
    }
    // A commit message's `fix(css): ` is a kind of change, not a call, and the part of the
    // code it is in.
    let (apart, scopes) = commit_kinds_apart(text);
    for part in scopes.iter().flat_map(|scope| scope_names(scope)) {
        symbols.note(part.to_owned(), Vec::new(), SCOPE_WEIGHT, false);
    }
    let apart = without_closing_references(&apart);
    let text: &str = &apart;
    for (region, piece) in regions(text) {
        // A frame of code the workspace does not hold names none of its files or code.
        let own_frames = without_foreign_frames(piece, own);
        for word in own_path_mentions(&own_frames, own) {
            *paths.entry(word).or_default() += if region == Region::InlineCode { 1.0 } else { 0.8 };
        }
        // An address's host and query are no words of the issue (`paths` has read its file).
        let addressed = without_addresses(&own_frames);
        let rewritten = without_generic_qualifiers(&addressed);
        let piece: &str = &rewritten;
        let strings = if region == Region::Prose { Vec::new() } else { string_literals(piece) };
        let code_lines = if region == Region::CodeBlock { code_lines(piece) } else { Vec::new() };
        let block_words = if region == Region::CodeBlock { CODE_BLOCK_WORD_WEIGHT } else { 1.0 };
        // A shell command in inline code (`cargo run --example x`): its tool is a word, not a
        // name.
        let tool_end = if region == Region::InlineCode { shell_tool_end(piece) } else { 0 };
        // A command line's flag in code names the option it sets, which its code holds by the
        // flag's words joined (`--list-themes` sets `list_themes`).
        if region != Region::Prose {
            for (at, flag) in long_flags(piece) {
                symbols.note(flag.replace('-', "_"), Vec::new(), name_weight(region, &code_lines, at), false);
            }
        }
        for (at, chain) in chains(piece) {
            let after = &piece[at + chain.len()..];
            // A frame's place (`(/app/node_modules/vite/dist/node/cli.js:12:5)`, `at
            // ./src/walk.rs:3:9`) is read as a path and a line; its folders and its file are no
            // names the frame gives.
            if region == Region::CodeBlock
                && line_is_trace(&code_lines, at)
                && (piece[..at].ends_with(['/', '\\']) || after.starts_with(['/', '\\']))
            {
                for word in terms::words(chain) {
                    *term_weights.entry(word).or_default() += block_words;
                }
                continue;
            }
            let called = after.starts_with('(');
            let parts = chain_parts(chain);
            let macro_use = is_macro_use(&piece[..at], chain, after, region);
            // Text in a string literal is data (`"a@example.com"`): its words count, and a name
            // is only what the string holds alone (`"timeout"`), quotes in backticks
            // (`"unknown variant `Foo`"`) or spells like code (`"expected BEGIN_OBJECT"`).
            let quoted = string_holding(&strings, at).map(|(start, end)| &piece[start..end]);
            let spelt_like_code = parts.iter().any(|p| looks_like_code(p));
            let is_code = match quoted {
                Some(content) => {
                    spelt_like_code || content.trim() == chain || (piece[..at].ends_with('`') && after.starts_with('`'))
                }
                None => {
                    // A log's prose pasted into a block (`Exception: Minimum width is 7`) names
                    // nothing by its plain words.
                    let block_word = region == Region::CodeBlock && line_reads_as_code(&code_lines, at);
                    (region == Region::InlineCode && at >= tool_end)
                        || block_word
                        || called
                        || macro_use
                        || parts.len() > 1
                        || spelt_like_code
                }
            };
            let lexical_weight = block_words * if is_code { 1.5 } else { 1.0 };
            // A file's extension (`md` of `README.md`, `rs` of `lib.rs`) is no word of the issue.
            let lexical = match chain.rsplit_once('.') {
                Some((name, extension)) if !called && is_file_extension(extension) => name,
                _ => chain,
            };
            for word in terms::words(lexical) {
                *term_weights.entry(word).or_default() += lexical_weight;
            }
            if !is_code {
                continue;
            }
            // A path into the language's own library (`std::io::Error`, `java.util.Map`), or a
            // Java name of a package the workspace lacks (`org.springframework..Component`),
            // names no definition of the workspace, however its parts are spelt.
            if !own.may_hold_qualified(chain) || is_built_in_attribute(&piece[..at], chain) {
                continue;
            }
            let weight = name_weight(region, &code_lines, at);
            // Every part of a chain can be a definition (`tokio::sync::Semaphore`, `JsonParser.getNumberType`).
            for (position, part) in parts.iter().enumerate() {
                // A language's keyword (`let`, `impl`, `public`) names no definition, though a
                // later part it qualifies may (`Self::Output`).
                if part.len() < 3 || SOURCE_EXTENSIONS.contains(part) || own.reserves(part) {
                    continue;
                }
                // The nearest qualifiers say enough, and a long chain stays linear.
                let qualifiers =
                    parts[position.saturating_sub(MAX_QUALIFIERS)..position].iter().map(|q| (*q).to_owned()).collect();
                let last = position + 1 == parts.len();
                let part_weight = weight * if last { 1.0 } else { 0.7 };
                symbols.note((*part).to_owned(), qualifiers, part_weight, last && macro_use);
            }
        }
    }

    let lower = without_addresses(text).to_ascii_lowercase();
    query.words = lower
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .filter(|w| w.len() > 2)
        .map(str::to_owned)
        .collect();
    // A kebab-case name (`no-proto`, `id-length`) is a file's stem as often as two words.
    let kebab = lower
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '-'))
        .map(|token| token.trim_matches('-'))
        .filter(|token| token.contains('-') && !token.contains("--") && token.len() > 2);
    query.words.extend(kebab.map(str::to_owned));
    query.words.sort();
    query.words.dedup();
    query.terms = term_weights.into_iter().collect();
    query.terms.sort_by(|a, b| a.0.cmp(&b.0));
    query.symbols = symbols.into_ordered();
    query.paths = paths.into_iter().collect();
    query.paths.sort_by(|a, b| a.0.cmp(&b.0));
    query
}
