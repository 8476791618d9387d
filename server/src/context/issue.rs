//! Reading an issue for what it names: code identifiers (with their qualifiers), file paths,
//! stack-trace frames, and the words that describe the problem.

use std::borrow::Cow;
use std::collections::HashMap;

use super::index::{is_example_path, is_example_word};
use super::terms;

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
    /// Whole words of the text, lower-cased (to match file stems like `semaphore`).
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
}

impl IssueQuery {
    /// Whether the issue gives nothing to rank by: no words, names or paths.
    pub fn gives_nothing(&self) -> bool {
        self.terms.is_empty() && self.symbols.is_empty() && self.paths.is_empty()
    }
}

/// Source file extensions recognised in mentions.
const SOURCE_EXTENSIONS: [&str; 13] =
    ["rs", "java", "ts", "tsx", "mts", "cts", "js", "jsx", "mjs", "cjs", "kt", "go", "py"];

/// Extensions of files other than source that issues name (`README.md`, `Cargo.toml`); not
/// those that are as often a field or method (`shared.lock`, `res.json`, `el.html`).
const TEXT_EXTENSIONS: [&str; 9] = ["md", "txt", "toml", "yml", "yaml", "xml", "gradle", "properties", "sh"];

/// Whether `extension` is a file's extension, of source or of text.
fn is_file_extension(extension: &str) -> bool {
    SOURCE_EXTENSIONS.contains(&extension) || TEXT_EXTENSIONS.contains(&extension)
}

/// How much of an issue's text is read.
const MAX_ISSUE_CHARS: usize = 200_000;

/// How many qualifiers of a chain are kept with each part (`a::b::c::D` keeps `b, c` for `D`
/// when this is 2).
const MAX_QUALIFIERS: usize = 3;

/// Where a piece of the text sits.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Region {
    Prose,
    InlineCode,
    CodeBlock,
}

/// Splits Markdown into prose, `inline code` and fenced code blocks, as Markdown splits it:
/// a block opens with a line starting with a fence (```` ``` ```` or `~~~`) and closes only
/// with a line holding a fence of the same character, at least as long; inline code is a run
/// of backticks closed by a run of the same length on the same line. Linear in the text.
fn regions(text: &str) -> Vec<(Region, &str)> {
    let mut out = Vec::new();
    // Where the current prose or code block began, and the fence a code block opened with.
    let mut start = 0;
    let mut open: Option<(char, usize)> = None;
    let mut line_start = 0;
    for line in text.split_inclusive('\n') {
        let line_end = line_start + line.len();
        let trimmed = line.trim();
        match (open, fence(trimmed)) {
            (Some(opening), Some(_)) if closes(opening, trimmed) => {
                out.push((Region::CodeBlock, &text[start..line_start]));
                open = None;
                start = line_end;
            }
            (Some(_), _) => {}
            (None, Some(opening)) => {
                out.push((Region::Prose, &text[start..line_start]));
                open = Some(opening);
                start = line_end;
            }
            (None, None) => {
                for (opening, closing) in inline_code_spans(line) {
                    out.push((Region::Prose, &text[start..line_start + opening.0]));
                    out.push((Region::InlineCode, &text[line_start + opening.1..line_start + closing.0]));
                    start = line_start + closing.1;
                }
            }
        }
        line_start = line_end;
    }
    let last = if open.is_some() { Region::CodeBlock } else { Region::Prose };
    out.push((last, &text[start..]));
    out
}

/// The inline code spans of one line: for each, where its opening backtick run starts and ends
/// and where its closing run starts and ends. A run is closed by the next run of the same
/// length; a run that no later run matches is plain text.
fn inline_code_spans(line: &str) -> Vec<((usize, usize), (usize, usize))> {
    let bytes = line.as_bytes();
    let mut runs = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'`' {
            let begin = i;
            while i < bytes.len() && bytes[i] == b'`' {
                i += 1;
            }
            runs.push((begin, i));
        } else {
            i += 1;
        }
    }
    // For each run, the next run of the same length, found in one pass from the right.
    let mut next_same = vec![None; runs.len()];
    let mut last_of_length: HashMap<usize, usize> = HashMap::new();
    for (index, (begin, end)) in runs.iter().enumerate().rev() {
        next_same[index] = last_of_length.insert(end - begin, index);
    }
    let mut spans = Vec::new();
    let mut index = 0;
    while index < runs.len() {
        match next_same[index] {
            Some(closing) => {
                spans.push((runs[index], runs[closing]));
                index = closing + 1;
            }
            None => index += 1,
        }
    }
    spans
}

/// True when a token is shaped like code rather than an English word.
fn looks_like_code(token: &str) -> bool {
    let inner_capital = token.chars().skip(1).any(|c| c.is_ascii_uppercase());
    let has_lower = token.chars().any(|c| c.is_ascii_lowercase());
    token.contains('_') || (inner_capital && has_lower) || token.contains("::")
}

/// A Rust trait cast a backtrace names its frames by: `<tokio::io::Foo as Future>::poll`.
static TRAIT_CAST: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
    regex::Regex::new(r"<\s*([A-Za-z_][\w:]*)(?:<[^<>]*>)?\s+as\s+[^<>]*(?:<[^<>]*>[^<>]*)*>::")
        .expect("the trait cast pattern compiles")
});
/// Generic arguments between the names of a Rust path, and the name after them:
/// `Sender<T>::send`, `Vec<Option<u8>>::new`.
static GENERIC_ARGUMENTS: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
    regex::Regex::new(r"(\w)<([\w:,\s&'\[\];]*(?:<[\w:,\s&'\[\];]*>[\w:,\s&'\[\];]*)*)>::([A-Za-z_]\w*)")
        .expect("the generic arguments pattern compiles")
});
/// Rounds of moving generic arguments at most (`A<T>::B<U>::c` takes two).
const MAX_GENERIC_ROUNDS: usize = 4;

/// `text` with the generic arguments inside Rust paths moved after the name that follows
/// them and trait casts taken out: a backtrace's `tokio::sync::broadcast::Sender<T>::send`
/// reads as the chain `tokio::sync::broadcast::Sender::send` (its argument still read, after
/// it: `Pool<SessionHandle>::get` as `Pool::get<SessionHandle>`), and `<Foo as Future>::poll`
/// as `Foo::poll`.
fn without_generic_qualifiers(text: &str) -> Cow<'_, str> {
    if !text.contains(">::") {
        return Cow::Borrowed(text);
    }
    let mut rewritten = TRAIT_CAST.replace_all(text, "${1}::").into_owned();
    for _ in 0..MAX_GENERIC_ROUNDS {
        match GENERIC_ARGUMENTS.replace_all(&rewritten, "${1}::${3}<${2}>") {
            Cow::Owned(moved) => rewritten = moved,
            Cow::Borrowed(_) => break,
        }
    }
    Cow::Owned(rewritten)
}

/// Qualified identifier chains: `a::b::C`, `Foo.bar`, `x`.
fn chains(text: &str) -> Vec<(usize, &str)> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    // A name may start with `$` (`$ZodType`, `$store`), where no word goes before it: in
    // `Outer$Inner` it parts two names, as a Java trace writes an inner class.
    let starts_name = |at: usize| {
        let c = bytes[at];
        c.is_ascii_alphabetic()
            || c == b'_'
            || (c == b'$' && bytes.get(at + 1).is_some_and(|n| n.is_ascii_alphabetic() || *n == b'_'))
    };
    while i < bytes.len() {
        let word_before = i > 0 && (bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'_');
        if starts_name(i) && !(bytes[i] == b'$' && word_before) {
            let start = i;
            loop {
                if bytes[i] == b'$' {
                    i += 1;
                }
                while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                    i += 1;
                }
                let separator = if text[i..].starts_with("::") {
                    2
                } else if text[i..].starts_with('.') {
                    1
                } else {
                    0
                };
                if separator > 0 && i + separator < bytes.len() && starts_name(i + separator) {
                    i += separator;
                    continue;
                }
                break;
            }
            out.push((start, &text[start..i]));
        } else {
            i += 1;
        }
    }
    out
}

/// Weight of the title's words relative to the body's.
const TITLE_WEIGHT: f64 = 2.0;

/// The issue without template noise: HTML comments (`<!-- fill in ... -->`) removed,
/// heading-only lines below the title (`## Version`, `**Platform**`) dropped, the first
/// paragraph below a heading on the reporter's setting left out ([`describes_the_setting`]),
/// and lines that draw a dependency or folder tree cut to the file paths they hold
/// ([`draws_a_tree`]).
fn without_template(text: &str) -> (String, String) {
    let mut stripped = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(open) = rest.find("<!--") {
        stripped.push_str(&rest[..open]);
        rest = rest[open..].find("-->").map_or("", |close| &rest[open + close + 3..]);
    }
    stripped.push_str(rest);
    let mut lines = stripped.lines().skip_while(|line| line.trim().is_empty()).peekable();
    // An issue that opens with code has no title line.
    let title = match lines.next_if(|line| fence(line.trim()).is_none()) {
        Some(line) if is_heading(line.trim()) => line.trim().trim_start_matches('#').trim().to_owned(),
        Some(line) => line.trim().to_owned(),
        None => String::new(),
    };
    // The fence a code block was opened with, until a line [`closes`] it.
    let mut open: Option<(char, usize)> = None;
    let mut setting = Setting::Outside;
    let body: Vec<Cow<'_, str>> = lines
        .filter_map(|line| {
            let trimmed = line.trim();
            let in_block = open.is_some();
            match (open, fence(trimmed)) {
                (None, Some(opening)) => open = Some(opening),
                (Some(opening), Some(_)) if closes(opening, trimmed) => open = None,
                (Some(_), _) => {}
                (None, None) if is_heading(line.trim_end()) => {
                    setting = if describes_the_setting(trimmed) { Setting::Heading } else { Setting::Outside };
                    return None;
                }
                (None, None) => {}
            }
            // A fence line or a line inside a block is code; a blank line elsewhere ends a paragraph.
            let code = in_block || open.is_some();
            setting = match (setting, trimmed.is_empty() && !code) {
                (Setting::Outside, _) => Setting::Outside,
                (Setting::Heading, true) => Setting::Heading,
                (Setting::Heading | Setting::Paragraph, false) => Setting::Paragraph,
                (Setting::Paragraph, true) => Setting::Outside,
            };
            match (setting, code) {
                (Setting::Outside, false) => Some(without_markup(line)),
                (Setting::Outside, true) => Some(Cow::Borrowed(line)),
                _ => None,
            }
        })
        .map(|line| match draws_a_tree(&line) {
            true => Cow::Owned(path_mentions(&line).join(" ")),
            false => line,
        })
        .collect();
    (title, body.join("\n"))
}

/// Where a line of the body stands with respect to a section on the reporter's setting.
#[derive(Clone, Copy)]
enum Setting {
    /// Not in such a section.
    Outside,
    /// Right below its heading, before its first line.
    Heading,
    /// In its first paragraph, or the code block that stands for one.
    Paragraph,
}

/// Words of a heading over the reporter's setting rather than the problem: the versions,
/// platform, environment and installation an issue template asks for (`### Rust Version`,
/// `**What operating system are you using ripgrep on?**`, `**$ env**`, `### Configuration`
/// holding a build table).
const SETTING_WORDS: [&str; 13] = [
    "version",
    "versions",
    "platform",
    "environment",
    "env",
    "os",
    "operating",
    "uname",
    "sw_vers",
    "install",
    "installed",
    "specifications",
    "configuration",
];

/// Whether a heading line is over the reporter's setting ([`SETTING_WORDS`]). The paragraph
/// below such a heading (the version table, `env` dump or `uname` line pasted there) names
/// the reporter's machine, not the code at fault, and is left out of the issue's words; a
/// later paragraph of the section is kept, as reporters go on to say what they found there.
fn describes_the_setting(heading: &str) -> bool {
    let text = heading.trim_start_matches('#').trim_matches('*');
    text.split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .any(|word| SETTING_WORDS.iter().any(|setting| setting.eq_ignore_ascii_case(word)))
}

/// HTML elements GitHub renders in an issue's prose, whose tags are markup, not words.
const MARKUP_ELEMENTS: [&str; 14] =
    ["details", "summary", "br", "p", "div", "sub", "sup", "kbd", "b", "i", "em", "strong", "hr", "img"];

/// A prose line without the HTML tags of [`MARKUP_ELEMENTS`] (`<details>`, `</summary>`,
/// `<img src="...">`). A closing tag counts anywhere; an opening one not right after a
/// name, so a generic type (`Vec<Details>`) is left as it is.
fn without_markup(line: &str) -> Cow<'_, str> {
    if !line.contains('<') {
        return Cow::Borrowed(line);
    }
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    while let Some(at) = rest.find('<') {
        let (before, from) = rest.split_at(at);
        // What precedes the `<`: a generic's type name, or anything else.
        let previous = before.chars().next_back().or_else(|| out.chars().next_back());
        let closing = from[1..].starts_with('/');
        let starts_tag = closing || !previous.is_some_and(|c| c.is_alphanumeric() || c == '_');
        let tag_end = from.find('>');
        let name = from[1..].trim_start_matches('/');
        let name_len = name.find(|c: char| !c.is_ascii_alphanumeric()).unwrap_or(name.len());
        let is_markup = starts_tag
            && tag_end.is_some()
            && MARKUP_ELEMENTS.iter().any(|element| element.eq_ignore_ascii_case(&name[..name_len]));
        out.push_str(before);
        match (is_markup, tag_end) {
            (true, Some(end)) => {
                out.push(' ');
                rest = &from[end + 1..];
            }
            _ => {
                out.push('<');
                rest = &from[1..];
            }
        }
    }
    out.push_str(rest);
    Cow::Owned(out)
}

/// Whether a line draws a tree, as `cargo tree`, `npm ls`, `tree` and `mvn dependency:tree`
/// print them (`│   ├── tokio-io v0.1.12`, `[INFO] +- com.google.code.gson:gson:jar:2.8.9`,
/// `` `-- src ``). Such a line lists the packages or folders the reporter has, which seldom
/// say what the issue is about: of its words only the file paths are kept.
fn draws_a_tree(line: &str) -> bool {
    let line = line.trim_start();
    let line = line.strip_prefix("[INFO]").map_or(line, str::trim_start);
    if line.starts_with(|c: char| ('\u{2500}'..='\u{257f}').contains(&c)) {
        return true;
    }
    let branch = line.trim_start_matches(|c: char| c == '|' || c.is_whitespace());
    ["+- ", "\\- ", "+-- ", "\\-- ", "`-- "].iter().any(|mark| branch.starts_with(mark))
        || (branch.len() < line.len() && branch.starts_with("-- "))
}

/// The fence a line starts with (three or more backticks or tildes): its character and length.
fn fence(line: &str) -> Option<(char, usize)> {
    let mark = line.chars().next().filter(|c| *c == '`' || *c == '~')?;
    let length = line.len() - line.trim_start_matches(mark).len();
    // A backtick fence's info string holds no backtick: ```` ```x``` ```` is inline code.
    (length >= 3 && !(mark == '`' && line[length..].contains('`'))).then_some((mark, length))
}

/// Whether the trimmed `line` closes a code block opened with the fence `opening`: a fence of
/// the same character, at least as long, with nothing after it.
fn closes(opening: (char, usize), line: &str) -> bool {
    let (mark, length) = opening;
    fence(line).is_some_and(|(closing, count)| closing == mark && count >= length)
        && line.trim_start_matches(mark).is_empty()
}

/// A Markdown heading (`## Version`, `#`) or a bold line standing as one (`**Platform**`);
/// `#[derive(Debug)]` and `#include` are code, not headings, and so is a line indented by four
/// spaces or a tab (`    # comment` in an indented code block).
fn is_heading(line: &str) -> bool {
    let indent = line.len() - line.trim_start_matches(' ').len();
    if indent >= 4 || line[indent..].starts_with('\t') {
        return false;
    }
    let line = line.trim();
    let hashes = line.len() - line.trim_start_matches('#').len();
    let atx = (1..=6).contains(&hashes) && line[hashes..].chars().next().is_none_or(char::is_whitespace);
    atx || (line.starts_with("**") && line.ends_with("**") && line.len() < 80)
}

/// Reads an issue: the title (first line) counts more than the body.
pub fn analyze(text: &str) -> IssueQuery {
    // A pasted log can be megabytes; its start names what matters.
    let text = match text.char_indices().nth(MAX_ISSUE_CHARS) {
        Some((cut, _)) => &text[..cut],
        None => text,
    };
    let (title, body) = without_template(text);
    let mut title_query = analyze_part(&title);
    let body_query = analyze_part(&body);
    for (_, weight) in &mut title_query.terms {
        *weight *= TITLE_WEIGHT;
    }
    let mut query = merge(title_query, body_query, text);
    // The issue's own words, its template's comments left out.
    let prose = format!("{title}\n{body}");
    query.other_files = other_file_mentions(&prose);
    query.folders = folder_mentions(&prose);
    query.locations = path_locations(&prose);
    query
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
        other_files: Vec::new(),
        folders: Vec::new(),
        locations: Vec::new(),
    };
    query.about_examples = about_examples(whole, &query.paths);
    query.terms.sort_by(|a, b| a.0.cmp(&b.0));
    query.paths.sort_by(|a, b| a.0.cmp(&b.0));
    query.words.sort();
    query.words.dedup();
    query
}

/// Most message runs kept from one issue.
const MAX_MESSAGES: usize = 8;
/// A run of a message counts with at least this many words and letters: shorter ones
/// (`not found`) occur in too much code to point anywhere.
const MIN_MESSAGE_WORDS: usize = 3;
const MIN_MESSAGE_LETTERS: usize = 12;

/// Lines that report an error, and where their message starts: Rust panics (`panicked at
/// 'msg'`, or the message on the line after `panicked at src/x.rs:1:2:`), exceptions
/// (`java.lang.IllegalStateException: msg`, `TypeError: msg`, `Caused by: ...: msg`) and
/// `Error:` / `error:` lines, a program's name before them or all in brackets (`fd: error:`,
/// `[fd error]:`); not a compiler's `error[E0599]:`, whose words are its own.
static MESSAGE_LINE: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
    regex::Regex::new(
        r"panicked at '(?P<quoted>.+)'|(?:^|[\s:(])(?:[A-Za-z_$][\w$]*\.)*[A-Z][\w$]*(?:Exception|Error):\s+(?P<thrown>.+)$|^\s*\[?(?:[\w.-]+:?\s+)?(?:error|Error|ERROR|fatal|FATAL)\]?:\s+(?P<logged>.+)$",
    )
    .expect("the message pattern compiles")
});
/// A panic whose message follows on the next line (Rust 1.73 and later).
static PANIC_LOCATION: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
    regex::Regex::new(r"panicked at [^\s']+:\d+:\d+:\s*$").expect("the panic pattern compiles")
});
/// What interrupts a message's literal text: quoted or bracketed values, numbers, paths and
/// separators, where a program formats in what varies. A single quote opens a value only
/// where a word does not go on (`can't` is a word).
static MESSAGE_BREAK: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
    regex::Regex::new(r#"`[^`]*`|"[^"]*"|(?:^|[^\p{L}])'[^']*'|\{[^}]*\}|\S*[/\\]\S*|\S*\d\S*|[()\[\]<>:;=|]"#)
        .expect("the break pattern compiles")
});

/// Message runs looked at in one issue at most, before the best [`MAX_MESSAGES`] are kept.
const MAX_MESSAGE_CANDIDATES: usize = 64;

/// The literal runs of the error messages the issue quotes, as [`IssueQuery::messages`]: a
/// Java trace's root causes first (its last `Caused by:` first), then the rest in order.
fn quoted_messages(text: &str) -> Vec<String> {
    let mut causes: Vec<String> = Vec::new();
    let mut messages: Vec<String> = Vec::new();
    let mut lines = text.lines().peekable();
    while let Some(line) = lines.next() {
        let found = if line.trim_start().starts_with("Caused by:") { &mut causes } else { &mut messages };
        let message = if PANIC_LOCATION.is_match(line) {
            lines.peek().map(|next| next.trim())
        } else {
            MESSAGE_LINE.captures(line).and_then(|found| {
                ["quoted", "thrown", "logged"].iter().find_map(|name| found.name(name)).map(|m| m.as_str())
            })
        };
        for piece in message.map(|message| MESSAGE_BREAK.split(message)).into_iter().flatten() {
            let run =
                piece.trim_matches(|c: char| !c.is_alphanumeric()).split_whitespace().collect::<Vec<_>>().join(" ");
            let letters = run.chars().filter(|c| c.is_alphabetic()).count();
            // Words that say something, not `was not found in the`.
            let telling = run.split(' ').filter(|w| w.len() >= 4 && !terms::is_stopword(&w.to_lowercase())).count();
            if run.split(' ').count() >= MIN_MESSAGE_WORDS
                && letters >= MIN_MESSAGE_LETTERS
                && telling >= 2
                && !found.contains(&run)
            {
                found.push(run);
            }
        }
        if causes.len() + messages.len() >= MAX_MESSAGE_CANDIDATES {
            break;
        }
    }
    let mut kept: Vec<String> = Vec::new();
    for run in causes.into_iter().rev().chain(messages) {
        if !kept.contains(&run) && kept.len() < MAX_MESSAGES {
            kept.push(run);
        }
    }
    kept
}

/// Whether the issue is about tests: its title speaks of tests, or its words of failing, flaky
/// or missing ones. A title's `test` that names code (`tokio::test`, `#[test]`) does not count,
/// nor do phrases within other words (`latest fails`, `add a testimonial`) or in a fenced code
/// block (a pasted log speaks for the program that printed it).
fn about_tests(text: &str) -> bool {
    let lower = text.to_ascii_lowercase();
    let title = lower.lines().find(|line| !line.trim().is_empty()).unwrap_or_default();
    let title_speaks_of_tests = title.split(|c: char| !c.is_ascii_alphanumeric()).any(|word| {
        let before = &title[..word.as_ptr() as usize - title.as_ptr() as usize];
        matches!(word, "test" | "tests" | "testing") && !before.ends_with("::") && !before.ends_with("#[")
    });
    const PHRASES: [&str; 8] = [
        "flaky",
        "failing test",
        "test fails",
        "test failure",
        "unit test",
        "integration test",
        "add a test",
        "missing test",
    ];
    let words_speak_of_tests = regions(&lower)
        .into_iter()
        .filter(|(region, _)| *region != Region::CodeBlock)
        .any(|(_, piece)| PHRASES.iter().any(|phrase| holds_phrase(piece, phrase)));
    title_speaks_of_tests || words_speak_of_tests
}

/// Whether `text` holds `phrase` as whole words, its last word perhaps in the plural
/// (`unit tests`), not within other words (`latest fails`, `add a testimonial`).
fn holds_phrase(text: &str, phrase: &str) -> bool {
    let in_word = |c: char| c.is_alphanumeric() || c == '_';
    text.match_indices(phrase).any(|(at, _)| {
        let after = &text[at + phrase.len()..];
        let after = after.strip_prefix('s').unwrap_or(after);
        !text[..at].chars().next_back().is_some_and(in_word) && !after.chars().next().is_some_and(in_word)
    })
}

/// Words of an issue about documentation (lower-case).
const DOCUMENTATION_WORDS: [&str; 10] =
    ["doc", "docs", "documentation", "documented", "javadoc", "rustdoc", "jsdoc", "tsdoc", "doctest", "doctests"];

/// Whether the issue's prose speaks of documentation: one of [`DOCUMENTATION_WORDS`] outside
/// code and links (a pasted `Doc-tests` line, a docs.rs link and `#[doc(hidden)]` do not).
fn about_documentation(text: &str) -> bool {
    let lower = text.to_ascii_lowercase();
    regions(&lower).into_iter().filter(|(region, _)| *region == Region::Prose).any(|(_, piece)| {
        let outside_links = piece.split_whitespace().filter(|token| !token.contains("://") && !token.contains("]("));
        outside_links
            .flat_map(|token| token.split(|c: char| !c.is_ascii_alphanumeric()))
            .any(|word| DOCUMENTATION_WORDS.contains(&word))
    })
}

fn about_examples(text: &str, paths: &[(String, f64)]) -> bool {
    let title = text.lines().find(|line| !line.trim().is_empty()).unwrap_or_default().to_ascii_lowercase();
    title.split(|c: char| !c.is_ascii_alphanumeric()).any(is_example_word)
        || paths.iter().any(|(path, _)| is_example_path(path))
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

/// Reads one part of an issue.
fn analyze_part(text: &str) -> IssueQuery {
    let mut query = IssueQuery::default();
    let mut symbols = Mentions::default();
    let mut term_weights: HashMap<String, f64> = HashMap::new();
    let mut paths: HashMap<String, f64> = HashMap::new();

    for frame in java_frames(text) {
        *paths.entry(frame.0).or_default() += 2.0;
        symbols.note(frame.1, Vec::new(), 1.0, false);
    }
    for (region, piece) in regions(text) {
        let region_weight: f64 = match region {
            Region::InlineCode => 1.0,
            Region::Prose => 0.8,
            Region::CodeBlock => 0.5,
        };
        for word in path_mentions(piece) {
            *paths.entry(word).or_default() += region_weight.max(0.8);
        }
        let rewritten = without_generic_qualifiers(piece);
        let piece: &str = &rewritten;
        let strings = if region == Region::Prose { Vec::new() } else { string_literals(piece) };
        let code_lines = if region == Region::CodeBlock { code_lines(piece) } else { Vec::new() };
        for (at, chain) in chains(piece) {
            let after = &piece[at + chain.len()..];
            let called = after.starts_with('(');
            let parts: Vec<&str> = chain.split("::").flat_map(|p| p.split('.')).filter(|p| !p.is_empty()).collect();
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
                    region == Region::InlineCode
                        || block_word
                        || called
                        || macro_use
                        || parts.len() > 1
                        || spelt_like_code
                }
            };
            let lexical_weight = if is_code { 1.5 } else { 1.0 };
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
            // Every part of a chain can be a definition (`tokio::sync::Semaphore`, `JsonParser.getNumberType`).
            for (position, part) in parts.iter().enumerate() {
                if part.len() < 3 || SOURCE_EXTENSIONS.contains(part) {
                    continue;
                }
                // The nearest qualifiers say enough, and a long chain stays linear.
                let qualifiers =
                    parts[position.saturating_sub(MAX_QUALIFIERS)..position].iter().map(|q| (*q).to_owned()).collect();
                let last = position + 1 == parts.len();
                let weight = region_weight * if last { 1.0 } else { 0.7 };
                symbols.note((*part).to_owned(), qualifiers, weight, last && macro_use);
            }
        }
    }

    let lower = text.to_ascii_lowercase();
    query.words = lower
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .filter(|w| w.len() > 2)
        .map(str::to_owned)
        .collect();
    query.words.sort();
    query.words.dedup();
    query.terms = term_weights.into_iter().collect();
    query.terms.sort_by(|a, b| a.0.cmp(&b.0));
    query.symbols = symbols.into_ordered();
    query.paths = paths.into_iter().collect();
    query.paths.sort_by(|a, b| a.0.cmp(&b.0));
    query
}

/// Where each line of a code block ends, and whether it reads as code rather than as a log's
/// prose (`IllegalArgumentException: Minimum width is 7`, `cargo run --release`): code holds
/// code punctuation.
fn code_lines(block: &str) -> Vec<(usize, bool)> {
    let mut lines = Vec::new();
    let mut start = 0;
    for line in block.split_inclusive('\n') {
        start += line.len();
        lines.push((start, line.contains([';', '{', '}', '=', '(', '[', '<', '|', '&', '#', '!', '$'])));
    }
    lines
}

/// Whether the line holding byte `at` reads as code (see [`code_lines`]).
fn line_reads_as_code(lines: &[(usize, bool)], at: usize) -> bool {
    let line = lines.partition_point(|(end, _)| *end <= at);
    lines.get(line).is_some_and(|(_, code)| *code)
}

/// The contents of the string literals in code, as byte ranges, in order.
/// A double-quoted string ends at its line's end if it is not closed before, and `\"` does
/// not close it. A single quote opens a string (JavaScript's, Python's `'Invalid email'`)
/// only where a value starts, after `(`, `,`, `=`, `:`, `[`, `{`, `?` or `+` or at the line's
/// start, and only if it closes on its line: so Rust's lifetimes (`&'a str`, `impl<'a>`) and
/// an apostrophe (`don't`) open none, and a quote in a character literal (`'"'`, `b'"'`)
/// opens no double-quoted string.
fn string_literals(code: &str) -> Vec<(usize, usize)> {
    let bytes = code.as_bytes();
    let mut spans = Vec::new();
    // Where the open string's contents start, and its quote.
    let mut open: Option<(usize, u8)> = None;
    let mut at = 0;
    while at < bytes.len() {
        match (bytes[at], open) {
            (b'\n', Some((start, _))) => {
                spans.push((start, at));
                open = None;
            }
            (b'\\', Some(_)) => at += 1,
            (quote, Some((start, opening))) if quote == opening => {
                spans.push((start, at));
                open = None;
            }
            (b'"', None) if at > 0 && bytes[at - 1] == b'\'' && bytes.get(at + 1) == Some(&b'\'') => {}
            (b'"', None) => open = Some((at + 1, b'"')),
            (b'\'', None) if starts_a_value(&bytes[..at]) && closes_on_its_line(&bytes[at + 1..]) => {
                open = Some((at + 1, b'\''));
            }
            _ => {}
        }
        at += 1;
    }
    if let Some((start, _)) = open {
        spans.push((start, bytes.len()));
    }
    spans
}

/// Whether a value starts after `before`: its last character other than a space or tab is
/// one that precedes an argument or operand (`(`, `,`, `=`, `:`, `[`, `{`, `?`, `+`), or a
/// line starts there.
fn starts_a_value(before: &[u8]) -> bool {
    match before.iter().rev().find(|byte| !matches!(byte, b' ' | b'\t')) {
        None | Some(b'\n') => true,
        Some(byte) => matches!(byte, b'(' | b',' | b'=' | b':' | b'[' | b'{' | b'?' | b'+'),
    }
}

/// Whether a single-quoted string whose contents start `after` closes before its line ends.
fn closes_on_its_line(after: &[u8]) -> bool {
    let mut escaped = false;
    for byte in after {
        match byte {
            b'\n' => return false,
            b'\'' if !escaped => return true,
            _ => escaped = *byte == b'\\' && !escaped,
        }
    }
    false
}

/// The string literal among `spans` (see [`string_literals`]) that holds the byte `at`.
fn string_holding(spans: &[(usize, usize)], at: usize) -> Option<(usize, usize)> {
    let after = spans.partition_point(|(start, _)| *start <= at);
    spans[..after].last().copied().filter(|(_, end)| at < *end)
}

/// Attributes the Rust language defines itself: `#[test]` names no macro of the workspace.
const BUILT_IN_ATTRIBUTES: [&str; 30] = [
    "allow",
    "automatically_derived",
    "cfg",
    "cfg_attr",
    "cold",
    "default",
    "deny",
    "deprecated",
    "derive",
    "doc",
    "expect",
    "export_name",
    "feature",
    "forbid",
    "ignore",
    "inline",
    "link",
    "macro_export",
    "macro_use",
    "must_use",
    "no_mangle",
    "no_std",
    "non_exhaustive",
    "path",
    "repr",
    "should_panic",
    "test",
    "track_caller",
    "unsafe",
    "warn",
];

/// Whether `chain`, between `before` and `after` in the text, is used as a macro: invoked
/// (`select!`, `vec![]`, but not `a != b`, nor an exclamation: "it hangs!") or as
/// an attribute (`#[tokio::test]`, `#[instrument]`, but not the built-in `#[test]`).
fn is_macro_use(before: &str, chain: &str, after: &str, region: Region) -> bool {
    // Arguments follow an invocation; in inline code the name alone is one (`select!`), but
    // elsewhere a bare `!` is not (`user!.name`, "it hangs!").
    let invoked = after.strip_prefix('!').is_some_and(|rest| {
        rest.trim_start().starts_with(['(', '[', '{']) || (region == Region::InlineCode && rest.is_empty())
    });
    // Tools' attributes (`#[rustfmt::skip]`, `#[clippy::msrv]`) are not macros either.
    let attribute = (before.ends_with("#[") || before.ends_with("#!["))
        && !chain.starts_with("rustfmt::")
        && !chain.starts_with("clippy::")
        && (chain.contains("::") || !BUILT_IN_ATTRIBUTES.contains(&chain));
    invoked || attribute
}

/// Path-like tokens ending in a source extension: `src/walk.rs`, `JsonParser.java`,
/// `tokio-1.2.0/src/io/mod.rs:12:5` (the location suffix dropped), Windows paths
/// (`C:\work\app\src\net\tcp.rs:3:5` names `work/app/src/net/tcp.rs`), and links to a file on
/// a forge (`https://github.com/o/r/blob/main/src/walk.rs#L10-L20` names `src/walk.rs`).
fn path_mentions(text: &str) -> Vec<String> {
    path_tokens(text)
        .filter(|token| token.rsplit_once('.').is_some_and(|(_, extension)| SOURCE_EXTENSIONS.contains(&extension)))
        .filter(|token| token.len() > 3)
        .collect()
}

/// The tokens of `text` that may be paths, as the index spells paths (see
/// [`path_mentions`]).
fn path_tokens(text: &str) -> impl Iterator<Item = String> + '_ {
    located_path_tokens(text).map(|(path, _)| path)
}

/// The tokens of `text` that may be paths, as the index spells paths: links to a forge cut
/// to their path, a location suffix dropped, backslashes turned to slashes, a leading `./`
/// gone; each with the line its location (`:12:5`) or link anchor (`#L12`) gives.
fn located_path_tokens(text: &str) -> impl Iterator<Item = (String, Option<u32>)> + '_ {
    text.split(|c: char| {
        c.is_whitespace() || matches!(c, '(' | ')' | '[' | ']' | '<' | '>' | '"' | '\'' | ',' | '`' | '|')
    })
    .filter_map(|token| {
        // A forge link's anchor: `#L12` or `#L12-L20`.
        let anchor = token.split_once("#L").and_then(|(_, anchor)| {
            anchor.split(|c: char| !c.is_ascii_digit()).next().and_then(|digits| digits.parse().ok())
        });
        let linked = linked_path(token);
        let (path, line) = split_location(&linked);
        path.contains('.').then(|| (forward_slashes(path).trim_start_matches("./").to_owned(), line.or(anchor)))
    })
}

/// `token` without the sentence's closing `.` or `:` and a location after the path
/// (`src/walk.rs:12:5`, `C:\app\main.rs:3`; an extension's digits stay, `clip.mp4`), and the
/// line of the location it dropped (`12`).
fn split_location(token: &str) -> (&str, Option<u32>) {
    let mut token = token.trim_end_matches(['.', ':']);
    let mut line = None;
    while let Some((before, after)) = token.rsplit_once(':') {
        if after.is_empty() || !after.bytes().all(|byte| byte.is_ascii_digit()) {
            break;
        }
        // The number nearest the path is its line; a column follows it.
        line = after.parse().ok();
        token = before;
    }
    (token.trim_end_matches('.'), line)
}

/// Most paths whose lines are kept from one issue.
const MAX_LOCATIONS: usize = 16;
/// Most lines kept for one path (frames of one trace into one file).
const MAX_LINES_PER_PATH: usize = 4;

/// How many different paths `found` holds.
fn distinct_paths(found: &[(String, u32)]) -> usize {
    let mut paths: Vec<&str> = found.iter().map(|(path, _)| path.as_str()).collect();
    paths.sort_unstable();
    paths.dedup();
    paths.len()
}

/// Where the source paths of `text` that carry a line point (see [`IssueQuery::locations`]).
fn path_locations(text: &str) -> Vec<(String, u32)> {
    let mut found: Vec<(String, u32)> = Vec::new();
    let mut note = |path: String, line: Option<u32>| {
        let given = found.iter().filter(|(known, _)| *known == path).count();
        if let Some(line) = line.filter(|line| *line > 0)
            && !found.iter().any(|(known, known_line)| *known == path && *known_line == line)
            && if given == 0 { distinct_paths(&found) < MAX_LOCATIONS } else { given < MAX_LINES_PER_PATH }
        {
            found.push((path, line));
        }
    };
    for frame in java_frames(text) {
        note(frame.0, frame.2);
    }
    for (path, line) in doctest_locations(text) {
        note(path, Some(line));
    }
    for (path, line) in located_path_tokens(text) {
        if path.rsplit_once('.').is_some_and(|(_, extension)| SOURCE_EXTENSIONS.contains(&extension))
            || names_other_file(&path)
        {
            note(path, line);
        }
    }
    found
}

/// Most paths of other files kept from one issue.
const MAX_OTHER_FILES: usize = 8;

/// Files without an extension that projects keep by name.
const KNOWN_FILE_NAMES: [&str; 10] = [
    "Makefile",
    "Dockerfile",
    "Containerfile",
    "Justfile",
    "Jenkinsfile",
    "Gemfile",
    "Rakefile",
    "Procfile",
    "CODEOWNERS",
    "LICENSE",
];

/// Paths the prose and inline code of `text` give of files in no source language: a
/// path whose name has an extension of letters and digits (`README.md`,
/// `config/app.yaml`, `.github/workflows/ci.yml`) or is one projects keep by name
/// (`Makefile`). Code blocks give none: a reproduction's `config.json` is the reporter's.
fn other_file_mentions(text: &str) -> Vec<String> {
    let mut found: Vec<String> = Vec::new();
    for (region, piece) in regions(text) {
        if region == Region::CodeBlock {
            continue;
        }
        let known = piece
            .split(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '.' | '/' | '_' | '-')))
            .filter(|token| token.rsplit('/').next().is_some_and(|name| KNOWN_FILE_NAMES.contains(&name)))
            .map(|token| token.trim_start_matches("./").to_owned());
        for token in path_tokens(piece).chain(known) {
            if names_other_file(&token) && !found.contains(&token) && found.len() < MAX_OTHER_FILES {
                found.push(token);
            }
        }
    }
    found
}

/// Most folders kept from one issue.
const MAX_FOLDERS: usize = 8;

/// Paths of folders the prose and inline code of `text` give: a relative path of two folders
/// or more (`src/runtime/scheduler`), or of one with a trailing `/` (`fshelper/`), whose
/// names are plain (letters, digits, `_`, `-`, `.` but not as the last name's extension).
/// `and/or` reads as a folder too; only folders the workspace has count.
fn folder_mentions(text: &str) -> Vec<String> {
    let mut found: Vec<String> = Vec::new();
    for (region, piece) in regions(text) {
        if region == Region::CodeBlock {
            continue;
        }
        for token in piece
            .split(|c: char| c.is_whitespace() || matches!(c, '(' | ')' | '[' | ']' | '"' | '\'' | ',' | '`' | '|'))
        {
            let token = token.trim_end_matches(['.', ':', ';', '!', '?']);
            let token = token.strip_prefix("./").unwrap_or(token);
            let (path, trailing) = match token.strip_suffix('/') {
                Some(path) => (path, true),
                None => (token, false),
            };
            let parts: Vec<&str> = path.split('/').collect();
            let plain = parts.iter().all(|part| {
                !part.is_empty()
                    && *part != ".."
                    && part.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'))
            });
            let last_is_file =
                parts.last().is_some_and(|last| last.rsplit_once('.').is_some_and(|(stem, _)| !stem.is_empty()));
            if plain
                && !last_is_file
                && (parts.len() > 1 || trailing)
                && !found.iter().any(|f| f == path)
                && found.len() < MAX_FOLDERS
            {
                found.push(path.to_owned());
            }
        }
    }
    found
}

/// Whether `token` reads as the path of a file in no source language: relative, or absolute
/// (`/home/me/app/config/app.yaml`).
fn names_other_file(token: &str) -> bool {
    let plain = token.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '/' | '_' | '-' | '@' | '+'));
    let relative = token.strip_prefix('/').unwrap_or(token);
    if !plain || relative.split('/').any(|part| part.is_empty() || part == "..") {
        return false;
    }
    let name = token.rsplit('/').next().unwrap_or(token);
    if KNOWN_FILE_NAMES.contains(&name) {
        return true;
    }
    let Some((stem, extension)) = name.rsplit_once('.') else { return false };
    let hidden = stem.is_empty() && name.len() > 2;
    (hidden || stem.trim_start_matches('.').chars().any(|c| c.is_ascii_alphabetic()))
        && (1..=10).contains(&extension.len())
        && extension.chars().all(|c| c.is_ascii_alphanumeric())
        && extension.chars().any(|c| c.is_ascii_alphabetic())
        && !SOURCE_EXTENSIONS.contains(&extension)
}

/// A path as the index spells it: a Windows path's backslashes become slashes and its drive
/// (`C:`) goes. In a token that is no Windows path, a backslash before punctuation is
/// Markdown's escape (`my\_file.rs`) and is dropped; a Windows path is one with a drive or a
/// backslash before a letter or digit, and then every backslash parts folders
/// (`src\__tests__\store.test.ts`).
fn forward_slashes(token: &str) -> String {
    let (token, drive) = match token.as_bytes() {
        [drive, b':', b'\\' | b'/', ..] if drive.is_ascii_alphabetic() => {
            (token[3..].trim_start_matches(['\\', '/']), true)
        }
        _ => (token, false),
    };
    let windows = drive || token.as_bytes().windows(2).any(|pair| pair[0] == b'\\' && pair[1].is_ascii_alphanumeric());
    let mut path = String::with_capacity(token.len());
    let mut chars = token.chars().peekable();
    while let Some(c) = chars.next() {
        match (c, chars.peek()) {
            // A run of backslashes is one break: `src\\net\\tcp.rs` as Rust or JSON escapes it.
            ('\\', _) if windows => {
                while chars.next_if_eq(&'\\').is_some() {}
                path.push('/');
            }
            ('\\', Some(next)) if next.is_ascii_punctuation() && *next != '.' => {}
            ('\\', _) => path.push('/'),
            _ => path.push(c),
        }
    }
    path
}

/// Where a link to a file on a forge points inside its repository: the path after
/// `/blob/REF/` (GitHub, GitLab's `/-/blob/REF/`), `/src/branch/REF/`, `/src/commit/REF/` or
/// `/src/tag/REF/` (Gitea, Forgejo), without `#L12` or `?plain=1`; a rustdoc source page
/// (`docs.rs/CRATE/VERSION/src/CRATE_NAME/io/mod.rs.html`) names `src/io/mod.rs`. Other
/// text is returned as it is.
fn linked_path(token: &str) -> Cow<'_, str> {
    if !(token.starts_with("https://") || token.starts_with("http://")) {
        // A relative link with a line anchor, as Markdown writes one: `GUIDE.md#L302`.
        return Cow::Borrowed(token.split_once("#L").map_or(token, |(path, _)| path));
    }
    let token = token.split(['#', '?']).next().unwrap_or(token);
    for marker in ["/blob/", "/src/branch/", "/src/commit/", "/src/tag/"] {
        if let Some((_, after)) = token.split_once(marker) {
            // The next component is the branch, tag or commit.
            return Cow::Borrowed(after.split_once('/').map_or(token, |(_, path)| path));
        }
    }
    if let Some(source) = token.strip_suffix(".rs.html")
        && let Some((_, after)) = source.rsplit_once("/src/")
        && let Some((_crate_name, path)) = after.split_once('/')
    {
        return Cow::Owned(format!("src/{path}.rs"));
    }
    Cow::Borrowed(token)
}

/// A Rust doctest as `cargo test` names it, `src/sync/mod.rs - sync::Semaphore (line 62)`
/// (a crate's own: `src/lib.rs - (line 500)`): the file and the line its example starts on.
static DOCTEST: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
    regex::Regex::new(r"([\w./\\-]+\.rs) - [^\n()]{0,200}\(line (\d{1,9})\)").expect("the doctest pattern compiles")
});

/// The files and lines of the Rust doctests `text` names (see [`DOCTEST`]).
fn doctest_locations(text: &str) -> Vec<(String, u32)> {
    DOCTEST
        .captures_iter(text)
        .filter_map(|found| Some((found[1].replace('\\', "/"), found[2].parse().ok()?)))
        .collect()
}

/// Java stack frames `at com.x.Foo.bar(Foo.java:12)`: the file path suffix, the method and
/// the line.
fn java_frames(text: &str) -> Vec<(String, String, Option<u32>)> {
    let mut frames = Vec::new();
    for line in text.lines() {
        let Some(rest) = line.trim_start().strip_prefix("at ") else { continue };
        let Some((qualified, location)) = rest.split_once('(') else { continue };
        if !location.contains(".java") {
            continue;
        }
        let mut parts: Vec<&str> = qualified.trim().split('.').collect();
        let Some(method) = parts.pop() else { continue };
        let Some(class) = parts.pop() else { continue };
        let outer = class.split('$').next().unwrap_or(class);
        parts.push(outer);
        let line = location.split_once(':').and_then(|(_, line)| line.trim_end_matches(')').parse().ok());
        frames.push((format!("{}.java", parts.join("/")), method.to_owned(), line));
    }
    frames
}

#[cfg(test)]
mod tests {
    use super::*;

    fn symbol<'a>(query: &'a IssueQuery, name: &str) -> Option<&'a SymbolMention> {
        query.symbols.iter().find(|s| s.name == name)
    }

    #[test]
    fn pathological_issues_are_read_in_bounded_form() {
        let chain = vec!["part"; 5_000].join(".");
        let query = analyze(&format!("Crash in `{chain}`"));
        assert!(query.symbols.iter().all(|s| s.qualifiers.len() <= MAX_QUALIFIERS));
        assert!(query.symbols.iter().any(|s| s.name == "part" && s.qualifiers == ["part", "part", "part"]));
        // Half a megabyte of inline code and a log past the cap: the start is what is read.
        let ticks = "`a` ".repeat(150_000);
        let query = analyze(&format!("`JoinSet` leaks\n{ticks}`NeverReached`"));
        assert!(symbol(&query, "JoinSet").is_some());
        assert!(symbol(&query, "NeverReached").is_none(), "text past the cap is not read");
    }

    #[test]
    fn backtrace_frames_name_their_functions_past_generics_and_trait_casts() {
        let query = analyze(
            "Panic in broadcast\n```\n   5: tokio::sync::broadcast::Sender<T>::send2\n\
             \x20  6: <tokio::runtime::Blocking<F> as core::future::Future>::poll\n\
             \x20  7: alloc::vec::Vec<Option<u8>>::new_in\n```\nSee `a < b` and x<y> too.",
        );
        // The most qualified mention of `name`.
        let qualifiers = |name: &str| {
            let mentions = query.symbols.iter().filter(|s| s.name == name);
            mentions.map(|s| s.qualifiers.clone()).max_by_key(Vec::len).unwrap_or_default()
        };
        assert_eq!(qualifiers("send2").last().map(String::as_str), Some("Sender"), "{:?}", query.symbols);
        assert_eq!(qualifiers("poll").last().map(String::as_str), Some("Blocking"), "{:?}", query.symbols);
        assert_eq!(qualifiers("new_in").last().map(String::as_str), Some("Vec"), "{:?}", query.symbols);
        assert!(symbol(&query, "Future").is_none(), "the trait of a cast is not the frame's type");
        let query = analyze("`Pool<SessionHandle>::get` hangs forever");
        assert!(symbol(&query, "SessionHandle").is_some(), "a name inside the arguments: {:?}", query.symbols);
        let gets: Vec<&Vec<String>> = query.symbols.iter().filter(|s| s.name == "get").map(|s| &s.qualifiers).collect();
        assert_eq!(gets, [&vec!["Pool".to_owned()]], "`get` only as `Pool`'s: {:?}", query.symbols);
    }

    #[test]
    fn code_identifiers_with_their_qualifiers() {
        let query = analyze(
            "try_join_next for JoinSet\nThere is `poll_join_next`, and `JoinSet::join_next()` awaits; see mpsc::Receiver.",
        );
        assert!(symbol(&query, "try_join_next").is_some());
        assert!(symbol(&query, "JoinSet").is_some());
        assert_eq!(symbol(&query, "poll_join_next").unwrap().weight, 1.0);
        let join_next = query.symbols.iter().find(|s| s.name == "join_next").unwrap();
        assert_eq!(join_next.qualifiers, ["JoinSet"]);
        assert_eq!(symbol(&query, "Receiver").unwrap().qualifiers, ["mpsc"]);
        let deep = analyze("see `tokio::sync::mpsc::Sender`");
        assert_eq!(symbol(&deep, "Sender").unwrap().qualifiers, ["tokio", "sync", "mpsc"]);
        assert!(symbol(&query, "There").is_none() && symbol(&query, "awaits").is_none(), "English words are not code");
        let named = analyze("README.md and src/lib.rs are wrong; `response.json()` fails");
        let term = |word: &str| named.terms.iter().any(|(term, _)| term == word);
        assert!(term("readme") && term("lib") && term("response"), "{:?}", named.terms);
        assert!(!term("md") && !term("rs"), "a file's extension is no word: {:?}", named.terms);
        assert!(term("json"), "a method called is a word: {:?}", named.terms);
        let field = analyze("the `shared.lock` field is held across an await");
        assert!(field.terms.iter().any(|(term, _)| term == "lock"), "a field is a word: {:?}", field.terms);
        let dollar = analyze("Is `$InferZodRecordOutput` right? And `core.$ZodType`; a frame `Outer$Inner.run()`.");
        assert!(symbol(&dollar, "$InferZodRecordOutput").is_some(), "{:?}", dollar.symbols);
        assert_eq!(symbol(&dollar, "$ZodType").unwrap().qualifiers, ["core"]);
        assert!(symbol(&dollar, "Inner").is_some() && symbol(&dollar, "$Inner").is_none(), "{:?}", dollar.symbols);
        for malformed in ["$", "$$", "a.$", "$.a", "::$", "x$", "$1", "a::$b::", "`$`"] {
            let _ = analyze(malformed);
        }
    }

    #[test]
    fn macro_uses_are_told_from_other_mentions() {
        let query = analyze(
            "`select!` hangs!\n```rust\n#[tokio::test]\n#[test]\n#[instrument(skip(x))]\nfn f() { vec![1]; if a != b {} }\n```\nIt hangs!",
        );
        let macro_use = |name: &str| symbol(&query, name).map(|s| s.macro_use);
        assert_eq!(macro_use("select"), Some(true));
        assert_eq!(
            query.symbols.iter().find(|s| s.name == "test" && s.qualifiers == ["tokio"]).map(|s| s.macro_use),
            Some(true)
        );
        assert_eq!(macro_use("tokio"), Some(false), "a qualifier is not the macro");
        assert!(
            query.symbols.iter().all(|s| !(s.name == "test" && s.qualifiers.is_empty() && s.macro_use)),
            "built in"
        );
        assert_eq!(macro_use("instrument"), Some(true));
        assert_eq!(macro_use("vec"), Some(true));
        assert_eq!(macro_use("hangs"), None, "an exclamation in prose is not code");
        assert!(!is_macro_use("", "a", "!= b", Region::CodeBlock), "a comparison");
        assert!(!is_macro_use("", "user", "!.name", Region::CodeBlock), "a non-null assertion");
        assert!(is_macro_use("", "format", "!(\"x\")", Region::Prose), "an invocation in prose");
        assert!(is_macro_use("", "select", "! {", Region::Prose));
    }

    #[test]
    fn java_calls_and_stack_frames() {
        let text = "Add `JsonParser.getNumberTypeFP()`\n\nException in thread \"main\" java.lang.NullPointerException\n\
                    \tat com.google.cloud.tools.jib.registry.credentials.DockerConfigCredentialRetriever.retrieve(DockerConfigCredentialRetriever.java:120)\n";
        let query = analyze(text);
        assert_eq!(symbol(&query, "getNumberTypeFP").unwrap().qualifiers, ["JsonParser"]);
        assert!(
            query
                .paths
                .iter()
                .any(|(p, _)| p
                    == "com/google/cloud/tools/jib/registry/credentials/DockerConfigCredentialRetriever.java")
        );
        assert!(symbol(&query, "retrieve").is_some());
    }

    #[test]
    fn an_issue_about_documentation_is_known_by_its_prose() {
        assert!(analyze("The docs of `Semaphore::acquire` are wrong").about_documentation);
        assert!(analyze("Fix\n\nThe javadoc of `JsonParser` says otherwise.").about_documentation);
        // Not by a pasted log, a docs.rs link or an attribute.
        let pasted = "acquire fails\n```\n   Doc-tests tokio\n```\nsee https://docs.rs/tokio and `#[doc(hidden)]`";
        assert!(!analyze(pasted).about_documentation);
        assert!(!analyze("acquire fails, see [here](https://docs.rs/tokio)").about_documentation);
    }

    #[test]
    fn paths_and_locations() {
        let query =
            analyze("Panic at tokio-1.21.2/src/runtime/task/harness.rs:123:45 and in `src/walk.rs`, also Cargo.toml.");
        let paths: Vec<&str> = query.paths.iter().map(|(p, _)| p.as_str()).collect();
        assert!(paths.contains(&"tokio-1.21.2/src/runtime/task/harness.rs"), "{paths:?}");
        assert!(paths.contains(&"src/walk.rs"), "{paths:?}");
        assert!(!paths.iter().any(|p| p.contains("Cargo")), "{paths:?}");
        assert_eq!(query.locations, [("tokio-1.21.2/src/runtime/task/harness.rs".to_owned(), 123)]);

        let query = analyze(
            "Crash\n```\nat com.acme.Lexer.next(Lexer.java:12)\nat com.acme.Lexer.next(Lexer.java:40)\n\
             thread 'main' panicked at C:\\app\\src\\main.rs:3:5:\n```\n\
             See https://github.com/o/r/blob/main/src/walk.rs#L10-L20, src/walk.rs:99 and src/lib.rs:0.",
        );
        let located: Vec<(&str, u32)> = query.locations.iter().map(|(p, l)| (p.as_str(), *l)).collect();
        assert_eq!(
            located,
            [
                ("com/acme/Lexer.java", 12),
                ("com/acme/Lexer.java", 40),
                ("Lexer.java", 12),
                ("Lexer.java", 40),
                ("app/src/main.rs", 3),
                ("src/walk.rs", 10),
                ("src/walk.rs", 99)
            ],
            "every line given for each path, the first first; line 0 is none"
        );
        for (path, _) in &query.locations {
            assert!(query.paths.iter().any(|(p, _)| p == path), "{path} is spelt as the paths are");
        }
        let frames: String = (1..=16).map(|n| format!("at src/parser.rs:{}:5\n", n * 10)).collect();
        let query = analyze(&format!("Crash\n```\n{frames}at src/lexer.rs:200:5\n```\n"));
        let parser = query.locations.iter().filter(|(path, _)| path == "src/parser.rs").count();
        assert_eq!(parser, MAX_LINES_PER_PATH, "{:?}", query.locations);
        assert!(query.locations.contains(&("src/lexer.rs".to_owned(), 200)), "another file keeps its line");

        let query = analyze(
            "Doctests fail\n```\n---- src/sync/mod.rs - sync::Semaphore (line 62) stdout ----\nfailures:\n    \
             src\\io\\mod.rs - io (line 4)\n    src/lib.rs - (line 500)\n    src/a.rs - a (line x)\n```\n",
        );
        assert_eq!(
            query.locations,
            [("src/sync/mod.rs".to_owned(), 62), ("src/io/mod.rs".to_owned(), 4), ("src/lib.rs".to_owned(), 500)],
            "a doctest's file and the line its example starts on"
        );

        let query = analyze("CI fails: .github/workflows/ci.yml#L5, see [guide](docs/GUIDE.md#L302-L310)");
        assert_eq!(
            query.locations,
            [(".github/workflows/ci.yml".to_owned(), 5), ("docs/GUIDE.md".to_owned(), 302)],
            "a relative link's line anchor"
        );

        let query = analyze("CI fails at .github/workflows/ci.yml:40:3 and in `config/app.yaml:12`");
        assert_eq!(
            query.locations,
            [(".github/workflows/ci.yml".to_owned(), 40), ("config/app.yaml".to_owned(), 12)],
            "files in no source language too"
        );
        for (path, _) in &query.locations {
            assert!(query.other_files.contains(path), "{path} is spelt as the other files are");
        }
    }

    #[test]
    fn folders_are_read_from_the_prose_by_their_path() {
        let query = analyze(
            "Deadlock in tokio/src/runtime/scheduler/multi_thread/\n\
             Also `fshelper/`, ./packages/core/src and .github/workflows; not src/walk.rs, /usr/lib, \
             https://example.com/a/b, ../up/there, fshelper or v1.2/3.4.\n\
             ```\nat target/debug/build\n```\n",
        );
        assert_eq!(
            query.folders,
            ["tokio/src/runtime/scheduler/multi_thread", "fshelper", "packages/core/src", ".github/workflows"]
        );
    }

    #[test]
    fn paths_of_files_in_no_source_language_are_kept_apart() {
        let query = analyze(
            "README.md: the install steps are wrong\n\
             The workflow `.github/workflows/ci.yml` and editors/nvim/lua/plugin/init.lua:12:3 too; see the \
             Makefile, clip.mp4, https://github.com/o/r/blob/main/docs/guide.md#setup and `C:\\app\\conf\\app.yaml`.\n\
             Not 1.2.3, e.g. this, nor ../outside.toml, /etc/hosts.conf, src/walk.rs or std::fmt.Display.\n\
             ```toml\n# config.json in my reproduction\n```\n",
        );
        assert_eq!(
            query.other_files,
            [
                "README.md",
                ".github/workflows/ci.yml",
                "editors/nvim/lua/plugin/init.lua",
                "clip.mp4",
                "docs/guide.md",
                "Makefile",
                "app/conf/app.yaml",
                "e.g"
            ],
            "eight at most: `/etc/hosts.conf` comes ninth"
        );
        assert_eq!(analyze("Read /etc/app/hosts.conf fails").other_files, ["/etc/app/hosts.conf"], "absolute too");
        let paths: Vec<&str> = query.paths.iter().map(|(p, _)| p.as_str()).collect();
        assert_eq!(paths, ["src/walk.rs"], "source paths are ranked as before");
    }

    #[test]
    fn plain_words_of_a_log_pasted_in_a_block_are_not_names() {
        let query = analyze(
            "abbreviate throws\n```\njava.lang.IllegalArgumentException: Minimum abbreviation width is 7\n\
             $ cargo run --release\nlet total = compute(offset);\n```\n",
        );
        for name in ["IllegalArgumentException", "total", "compute", "offset", "cargo", "release"] {
            assert!(symbol(&query, name).is_some(), "{name}: {:?}", query.symbols);
        }
        for word in ["Minimum", "abbreviation", "width"] {
            assert!(symbol(&query, word).is_none(), "{word}: {:?}", query.symbols);
        }
        assert!(query.terms.iter().any(|(term, _)| term == "abbreviation"), "its words still count");
    }

    #[test]
    fn words_in_string_literals_of_code_are_not_names() {
        let query = analyze(
            "email accepts consecutive dots\n`z.string().email().parse(\"a..b@example.com\")` passes.\n\
             ```ts\nconst url = \"see \\\"docs.page\\\" at https://docs.rs\"; check(url.length);\n```\n",
        );
        for name in ["string", "email", "parse", "url", "check", "length"] {
            assert!(symbol(&query, name).is_some(), "{name}: {:?}", query.symbols);
        }
        for data in ["example", "com", "docs", "page"] {
            assert!(symbol(&query, data).is_none(), "{data}: {:?}", query.symbols);
        }
        // What is spelt like code stays a name, quoted or not.
        let message = analyze("panic\n```\nError(\"expected BEGIN_OBJECT from JsonReader.peek\")\n```\n");
        for name in ["BEGIN_OBJECT", "JsonReader", "peek"] {
            assert!(symbol(&message, name).is_some(), "{name}: {:?}", message.symbols);
        }
        assert!(symbol(&message, "expected").is_none(), "{:?}", message.symbols);
        // A string that holds a name alone, and a name in backticks, are names; a quote in a
        // character literal opens no string, and a string closes at its line's end.
        let code = analyze(
            "bad input\n```rust\nif c == '\"' { return lexer.read_token(); }\nlet e = \"unknown variant `Foo`, expected one of `Bar`\";\n\
             config.get(\"timeout\");\nlet open = \"never closed\nparse(input);\n```\n",
        );
        for name in ["lexer", "read_token", "Foo", "Bar", "timeout", "get", "parse"] {
            assert!(symbol(&code, name).is_some(), "{name}: {:?}", code.symbols);
        }
        for data in ["unknown", "variant", "never", "closed"] {
            assert!(symbol(&code, data).is_none(), "{data}: {:?}", code.symbols);
        }
        assert!(query.terms.iter().any(|(term, _)| term == "example"), "its words still count");

        // Single-quoted strings where a value starts; lifetimes and apostrophes are no strings.
        let script = analyze(
            "rejects valid emails\n```ts\nexpect(() => schema.parse('first.last@example.com')).toThrow('Invalid email');\n\
             const opts = { mode: 'strict mode', retry: isTest ? 'never ever' : 'always' };\n```\n\
             ```rust\nfn first<'a>(words: &'a [String], key: &'static str) -> &'a str { lookup(words) }\n\
             guard(); // don't panic on bad_input\nmatch c { '(' => open_paren(), _ => other_char() }\n```\n",
        );
        for name in ["expect", "schema", "parse", "toThrow", "opts", "mode", "retry", "isTest"] {
            assert!(symbol(&script, name).is_some(), "{name}: {:?}", script.symbols);
        }
        for name in ["first", "words", "String", "key", "lookup", "open_paren", "other_char", "panic", "bad_input"] {
            assert!(symbol(&script, name).is_some(), "{name}: {:?}", script.symbols);
        }
        for data in ["last", "example", "Invalid", "email", "strict", "never", "ever"] {
            assert!(symbol(&script, data).is_none(), "{data}: {:?}", script.symbols);
        }
    }

    #[test]
    fn windows_paths_name_the_same_files() {
        let query = analyze(
            "Panics on Windows\nthread 'main' panicked at src\\net\\tcp.rs:3:5:\n\
             see C:\\Users\\dev\\app\\crates\\core\\src\\lib.rs:10:1 and d:/app/web/main.mts, \
             .\\scripts\\build.cjs, my\\_file.rs\n\
             src\\__tests__\\store.test.ts C:\\app\\pages\\_app.tsx src\\routes\\+page.ts\n\
             thread 'main' panicked at \"crates\\\\net\\\\src\\\\udp.rs:3:5\" D:\\\\web\\\\src\\\\main.ts\n",
        );
        let paths: Vec<&str> = query.paths.iter().map(|(p, _)| p.as_str()).collect();
        assert_eq!(
            paths,
            [
                "Users/dev/app/crates/core/src/lib.rs",
                "app/pages/_app.tsx",
                "app/web/main.mts",
                "crates/net/src/udp.rs",
                "my_file.rs",
                "scripts/build.cjs",
                "src/__tests__/store.test.ts",
                "src/net/tcp.rs",
                "src/routes/+page.ts",
                "web/src/main.ts"
            ]
        );
    }

    #[test]
    fn links_to_files_on_a_forge_name_their_paths() {
        let query = analyze(
            "Filter bug\nSee [this](https://github.com/o/r/blob/66cd79f/sub/src/filter/layers.rs#L379-L391) and \
             https://github.com/o/r/blob/2.15/src/main/java/a/b/Delegate.java#L314, \
             https://gitlab.com/g/p/-/blob/main/lib/x.ts?plain=1#L3, \
             https://codeberg.org/o/r/src/branch/main/src/y.rs and https://example.com/docs#section, \
             https://docs.rs/tokio-stream/latest/src/tokio_stream/stream_map.rs.html#520.\n",
        );
        let paths: Vec<&str> = query.paths.iter().map(|(p, _)| p.as_str()).collect();
        assert_eq!(
            paths,
            [
                "lib/x.ts",
                "src/main/java/a/b/Delegate.java",
                "src/stream_map.rs",
                "src/y.rs",
                "sub/src/filter/layers.rs"
            ]
        );
        // Links that stop short of a file name nothing.
        let query = analyze(
            "x\nhttps://github.com/o/r/blob/ https://github.com/o/r/blob/main https:// http://#.rs \
             https://docs.rs/x/latest/src/x.rs.html\n",
        );
        assert!(query.paths.is_empty(), "{:?}", query.paths);
    }

    #[test]
    fn lexical_terms_weigh_code_more() {
        let query = analyze("Semaphore limits\nThe semaphore `MAX_PERMITS` limit");
        let weight = |t: &str| query.terms.iter().find(|(w, _)| w == t).map(|(_, w)| *w);
        assert_eq!(weight("semaphore"), Some(2.0 + 1.0), "twice in the title, once in the body");
        assert_eq!(weight("max_permits"), Some(1.5));
        assert_eq!(weight("permits"), Some(1.5));
        assert!(query.words.contains(&"semaphore".to_owned()));
    }

    #[test]
    fn a_title_speaks_of_tests_unless_its_test_names_code() {
        assert!(analyze("searcher: add more tests for `replace_bytes`").about_tests);
        assert!(analyze("Testing é is slow: test").about_tests, "after non-ASCII text");
        assert!(!analyze("tokio::test does not work with a renamed crate").about_tests);
        assert!(!analyze("#[test] functions are skipped by the derive").about_tests);
        assert!(analyze("tokio::test hangs\nThe integration test never ends.").about_tests, "the body's phrase");
    }

    #[test]
    fn quoted_error_messages_give_their_literal_runs() {
        let messages = |text: &str| analyze(text).messages;
        assert_eq!(
            messages(
                "Panic\n```\nthread 'main' panicked at 'a semaphore may not have more than MAX_PERMITS permits (2305843009213693951)', src/main.rs:5:13\n```"
            ),
            ["a semaphore may not have more than MAX_PERMITS permits"]
        );
        assert_eq!(
            messages("Panic\nthread 'main' panicked at src/main.rs:5:13:\nfailed to parse the config header: `x`\n"),
            ["failed to parse the config header"],
            "the message on the line after the location"
        );
        assert_eq!(
            messages("Wrong\n```\n[fd error]: The search pattern contains a path-separation character\n```"),
            ["The search pattern contains a path-separation character"],
            "a program's own prefix"
        );
        assert_eq!(
            messages(
                "Wrong\nrg: error: the literal was not allowed in the pattern here\nerror[E0599]: no method named `x` found"
            ),
            ["the literal was not allowed in the pattern here"]
        );
        assert_eq!(
            messages(
                "Crash\nCaused by: java.lang.IllegalStateException: Cannot deserialize value of type `Foo` from Array\n"
            ),
            ["Cannot deserialize value of type"]
        );
        let mut trace = String::from("Crash\n```\n");
        for layer in ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "theta", "kappa", "lambda", "sigma"] {
            trace.push_str(&format!("java.lang.RuntimeException: the {layer} layer failed while loading\n"));
        }
        trace.push_str(
            "Caused by: java.io.IOException: outer stream closed unexpectedly\n\tat com.acme.A.a(A.java:1)\n",
        );
        trace.push_str("Caused by: java.net.SocketException: connection reset by remote peer\n```\n");
        let runs = messages(&trace);
        assert_eq!(runs.len(), MAX_MESSAGES, "{runs:?}");
        assert_eq!(
            runs[..3],
            [
                "connection reset by remote peer",
                "outer stream closed unexpectedly",
                "the alpha layer failed while loading"
            ],
            "the root cause first, however late in the trace"
        );
        assert_eq!(
            messages("Crash\nUncaught TypeError: Cannot read properties of undefined (reading 'map')"),
            ["Cannot read properties of undefined"]
        );
        assert_eq!(messages("Load\nError: connection pool exhausted after 30s\n"), ["connection pool exhausted after"]);
        assert_eq!(
            messages("Open\nError: can't open the settings file 'x.toml', it doesn't exist\n"),
            ["can't open the settings file", "it doesn't exist"],
            "a contraction is a word, not a quote"
        );
        let compiler = "Build\nerror[E0599]: no method named `frob` found for struct `Widget` in the current scope\n";
        assert_eq!(messages(compiler), Vec::<String>::new(), "a compiler's words are its own");
        assert_eq!(
            messages("Lookup\nerror: the entry was not found in the cache\n"),
            ["the entry was not found in the cache"]
        );
        assert_eq!(
            messages("Lookup\nerror: it was not found in the 3rd\n"),
            Vec::<String>::new(),
            "words that say nothing"
        );
        assert!(
            messages("It fails\nI get an error when I run it.\nthe error: short\n").is_empty(),
            "prose about errors"
        );
        let many: String =
            (0..20).map(|n| format!("Error: failure number {n} of the frobnicator subsystem\n")).collect();
        assert_eq!(
            messages(&format!("Many\n{many}")),
            ["of the frobnicator subsystem"],
            "two words are too few; once each"
        );
    }

    #[test]
    fn phrases_about_tests_count_in_words_and_prose_only() {
        assert!(analyze("Hangs on exit\nA flaky run on CI.").about_tests);
        assert!(analyze("Hangs on exit\nSee the `unit tests` of the runtime.").about_tests, "inline code");
        assert!(analyze("Hangs on exit\n(test failures since 1.2)").about_tests, "after punctuation");
        assert!(!analyze("Upgrade breaks the build\nThe latest fails to compile.").about_tests, "inside a word");
        assert!(!analyze("Parser rejects it\nThe contest failure rate rose.").about_tests);
        assert!(!analyze("Docs page\nAdd a testimonial to the front page.").about_tests, "ends inside a word");
        assert!(analyze("Docs page\nAdd unit tests for the parser.").about_tests, "the plural");
        let log = "Panics on empty input\n```\ntest parse::empty ... FAILED\nfailing test: parse::empty\n```\n";
        assert!(!analyze(log).about_tests, "a pasted log speaks for the program that printed it");
        let unclosed = "Panics on empty input\n~~~\nrunning 3 tests, flaky retries: 0\n";
        assert!(!analyze(unclosed).about_tests, "a block left open runs to the end");
    }

    #[test]
    fn html_markup_in_prose_is_not_words() {
        let text = "Renamed crate\n<Details>\n<summary>Full <b>output</b></summary><br/>\n\
            Returns Vec<Details> and <kbd>Ctrl</kbd>+<kbd>C</kbd> <img src=\"shot.png\">\n</details>\n\
            ```html\n<details>markup_in_code</details>\n```\n";
        let query = analyze(text);
        let term = |t: &str| query.terms.iter().any(|(w, _)| w == t);
        for markup in ["summary", "kbd", "img", "src", "shot", "png"] {
            assert!(!term(markup), "{markup} is markup: {:?}", query.terms);
        }
        for word in ["full", "output", "returns", "ctrl", "details", "markup_in_code"] {
            assert!(term(word), "{word}: {:?}", query.terms);
        }
        assert_eq!(
            without_markup("Returns Vec<Details> or Map<K, V>"),
            "Returns Vec<Details> or Map<K, V>",
            "generics"
        );
        assert_eq!(without_markup("a <details> b"), "a   b");
        assert_eq!(without_markup("x<b>y"), "x<b>y", "no tag inside a word");
        assert_eq!(without_markup("1 < 2 and <b"), "1 < 2 and <b", "unclosed");
    }

    #[test]
    fn trees_of_dependencies_and_folders_name_only_their_files() {
        let text = "Renamed crate breaks the test macro\n\
            ```\n\
            │   ├── tokio-codec v0.1.1\n\
            │   │   └── tokio-executor v0.1.9 (*)\n\
            [INFO] +- com.google.code.gson:gson:jar:2.8.9:compile\n\
            [INFO] |  \\- org.threadpool:reactor:jar:1.0:compile\n\
            |-- src\n\
            |   `-- walker_main.rs\n\
            └── fshelper/mod.rs\n\
            ```\n\
            The macro `select_biased` fails. | -- | not a tree |\n";
        let query = analyze(text);
        let term = |t: &str| query.terms.iter().any(|(w, _)| w == t);
        for listed in ["codec", "executor", "gson", "threadpool", "reactor", "src"] {
            assert!(!term(listed), "{listed} is only listed in a tree: {:?}", query.terms);
            assert!(!query.words.contains(&listed.to_owned()), "{listed}");
        }
        let path = |p: &str| query.paths.iter().any(|(q, _)| q == p);
        assert!(path("walker_main.rs") && path("fshelper/mod.rs"), "{:?}", query.paths);
        assert!(term("select_biased") && term("tree") && term("renamed"), "{:?}", query.terms);

        assert!(draws_a_tree("   ╭─[src/lib.rs:2:1]") && !draws_a_tree(" 2 │ fn main() {}"), "miette's frame");
        assert!(!draws_a_tree("| --- | --- |") && !draws_a_tree("--verbose") && !draws_a_tree("--- a/src/lib.rs"));
    }

    #[test]
    fn the_reporters_setting_is_not_read_as_the_problem() {
        // bat's diagnostics, nushell's build table and a platform line, as templates ask for them.
        let text = "Pager ignores the wrap setting\n\
            The output_wrap option is lost when paging.\n\n\
            **$ env**\n\
            LESS=<not set>\n\
            BAT_THEME=Dracula\n\n\
            ### Configuration\n\n\
            | key | value |\n| --- | --- |\n| build_rust_channel | release |\n\n\
            ### Platform\n\n\
            ```\nDarwin Kernel Version 20.6.0 root:xnu_kernel\n\n```\n\n\
            Seen first after wrap_mode changed.\n\n\
            ### Steps\n\
            Run with the pager_mode flag.\n";
        let query = analyze(text);
        let term = |t: &str| query.terms.iter().any(|(w, _)| w == t);
        for setting in ["less", "bat_theme", "dracula", "build_rust_channel", "darwin", "xnu_kernel"] {
            assert!(!term(setting), "{setting} describes the reporter's machine: {:?}", query.terms);
        }
        // The problem, a later paragraph of a setting's section and the sections after it are read.
        for problem in ["output_wrap", "paging", "wrap_mode", "pager_mode"] {
            assert!(term(problem), "{problem}: {:?}", query.terms);
        }
        assert!(describes_the_setting("**What operating system are you using ripgrep on?**"));
        assert!(describes_the_setting("### Rust Version") && describes_the_setting("#### Environment variables"));
        assert!(!describes_the_setting("### Debug Output") && !describes_the_setting("## Expected behaviour"));
        assert!(!describes_the_setting("### Compile error"), "a compiler's output is the problem");
        assert!(!describes_the_setting("### Versioning of the lock file"), "whole words only");
    }

    #[test]
    fn titles_count_double_and_templates_are_ignored() {
        let text = "Add try_join_next\n<!--\nThank you for reporting an issue.\n-->\n**Is your feature request related to a problem?**\nJoinSet lacks it.\n## Version\n1.21";
        let query = analyze(text);
        let weight = |t: &str| query.terms.iter().find(|(w, _)| w == t).map(|(_, w)| *w);
        assert_eq!(weight("try_join_next"), Some(3.0), "code-like title words: 1.5 x 2");
        assert_eq!(weight("lacks"), Some(1.0));
        for noise in ["thank", "reporting", "feature", "version"] {
            assert_eq!(weight(noise), None, "{noise} comes from the template");
        }
        assert!(symbol(&query, "JoinSet").is_some());

        // Lines of code that start with `#` are not headings; a fence closes only with its own kind.
        let code = analyze(
            "Derive breaks\n```rust\n#[derive(MyDebug)]\nstruct S;\n```\n```sh\n# cargo build_all\n```\n#include_guard\n",
        );
        assert!(symbol(&code, "MyDebug").is_some(), "{:?}", code.symbols);
        assert!(symbol(&code, "build_all").is_some() && symbol(&code, "include_guard").is_some());
        let fences = analyze("```rust\nfn main() {}\n```\nBody\n~~~\n```\n# shell_comment\n~~~\n## Template_heading\n");
        assert!(symbol(&fences, "shell_comment").is_some(), "{:?}", fences.symbols);
        assert!(symbol(&fences, "Template_heading").is_none(), "{:?}", fences.symbols);
        assert!(analyze("#[tokio::test] hangs").symbols.iter().any(|s| s.name == "test" && s.macro_use), "in a title");
    }

    use proptest::strategy::Strategy as _;

    proptest::proptest! {
        /// Any text, Markdown-shaped or not, is read without panicking, and what comes back
        /// is drawn from it: names it holds, at most a few qualifiers, finite positive weights,
        /// paths with forward slashes only.
        #[test]
        fn any_issue_text_is_read_into_names_it_holds(
            pieces in proptest::collection::vec(proptest::prop_oneof![
                proptest::sample::select(vec![
                    "`", "```", "```rust\n", "\n", "\r\n", "::", ".", "/", "#", "# ", "(", ")", "**", "[", "](", " ",
                    "src/lib.rs", "JoinSet", "try_join_next", "getNumberType()", "tokio::task::JoinSet::spawn",
                    "\tat com.fasterxml.jackson.core.JsonParser.nextToken(JsonParser.java:12)\n",
                    "https://github.com/o/r/blob/main/src/a.rs#L1-L2", "thread 'main' panicked at src/main.rs:3:5:",
                    "é", "😀", "\u{0}", "--flag", "snake_case_name", "CamelCase",
                    "\\", "C:\\", "src\\net\\tcp.rs:3:5", "\\_", "web\\main.mts",
                    "│   ├── ", "└── ", "[INFO] +- ", "|-- ", "`-- ", "<details>", "</summary>", "<img src=", "Vec<",
                    "Error: ", "error[E0599]: ", "java.lang.IllegalStateException: ", "panicked at '", "' ", "{}",
                    "connection pool exhausted after", " 30s ", "Cannot read properties of undefined",
                    "README.md", ".github/workflows/ci.yml", "Makefile", "../", "e.g.", "v1.2.3", "clip.mp4:3",
                    "src/runtime/", "./packages/core", "and/or",
                ]).prop_map(str::to_owned),
                proptest::prelude::any::<String>(),
            ], 0..40),
        ) {
            let text = pieces.concat();
            let query = analyze(&text);
            for (term, weight) in &query.terms {
                proptest::prop_assert!(!term.is_empty() && weight.is_finite() && *weight > 0.0, "{term} {weight}");
            }
            for symbol in &query.symbols {
                proptest::prop_assert!(!symbol.name.is_empty() && text.contains(&symbol.name), "{symbol:?}");
                proptest::prop_assert!(symbol.qualifiers.len() <= MAX_QUALIFIERS, "{symbol:?}");
                proptest::prop_assert!(symbol.weight.is_finite() && symbol.weight > 0.0, "{symbol:?}");
            }
            for (path, weight) in &query.paths {
                proptest::prop_assert!(!path.is_empty() && weight.is_finite() && *weight > 0.0, "{path} {weight}");
                // Paths are spelt as the index spells them, Windows ones too.
                proptest::prop_assert!(!path.contains('\\'), "{path}");
            }
            // Other files are a few relative paths the text spells, whatever its separators.
            proptest::prop_assert!(query.other_files.len() <= MAX_OTHER_FILES, "{:?}", query.other_files);
            let unseparated = text.replace(['/', '\\'], "");
            for path in &query.other_files {
                proptest::prop_assert!(unseparated.contains(&path.replace('/', "")), "{path}");
            }
            proptest::prop_assert!(query.folders.len() <= MAX_FOLDERS, "{:?}", query.folders);
            for folder in &query.folders {
                proptest::prop_assert!(text.contains(folder.as_str()) && !folder.ends_with('/'), "{folder}");
            }
            // Messages are runs of the text's own words, a few and long enough to point somewhere.
            proptest::prop_assert!(query.messages.len() <= MAX_MESSAGES);
            for message in &query.messages {
                let words: Vec<&str> = message.split(' ').collect();
                proptest::prop_assert!(words.len() >= MIN_MESSAGE_WORDS && words.iter().all(|w| !w.is_empty()), "{message:?}");
                proptest::prop_assert!(words.iter().all(|w| text.contains(w)), "{message:?}");
            }
        }
    }

    #[test]
    fn regions_split_markdown() {
        let pieces = |text| -> Vec<(Region, &str)> {
            regions(text).into_iter().filter(|(_, piece)| !piece.trim().is_empty()).collect()
        };
        use Region::{CodeBlock, InlineCode, Prose};
        assert_eq!(
            pieces("a `b` c\n```rust\nfn x() {}\n```\nd ` unclosed\ne"),
            [(Prose, "a "), (InlineCode, "b"), (Prose, " c\n"), (CodeBlock, "fn x() {}\n"), (Prose, "d ` unclosed\ne")]
        );
        // Tildes fence code too, and only a fence of the same kind closes it.
        assert_eq!(
            pieces("see\n~~~\n```\nlet a = 1;\n~~~~\nafter"),
            [(Prose, "see\n"), (CodeBlock, "```\nlet a = 1;\n"), (Prose, "after")]
        );
        // Backticks in the middle of a line are inline code, however many; a longer run holds a shorter one.
        assert_eq!(
            pieces("call ```spawn()``` or `` a`b `` now"),
            [(Prose, "call "), (InlineCode, "spawn()"), (Prose, " or "), (InlineCode, " a`b "), (Prose, " now")]
        );
        // A block never closed runs to the end.
        assert_eq!(pieces("x\n```\nfn y() {}"), [(Prose, "x\n"), (CodeBlock, "fn y() {}")]);
    }

    #[test]
    fn code_in_tilde_fences_and_indented_blocks_is_read_as_code() {
        let tilde = analyze("Crash\n~~~\nparse_all(config, now);\n~~~\n");
        assert!(symbol(&tilde, "config").is_some(), "words in a ~~~ block are code: {:?}", tilde.symbols);
        let indented = analyze("Crash\n\n    # run_all_checks\n    ./x\n");
        assert!(symbol(&indented, "run_all_checks").is_some(), "{:?}", indented.symbols);
        let heading = analyze("Crash\n   ## Hidden_heading\nbody");
        assert!(symbol(&heading, "Hidden_heading").is_none(), "up to three spaces still make a heading");
    }
}
