//! Telling code from data inside code: which lines of a pasted block read as code rather
//! than as a log's prose, and where the string literals lie whose words are data.

use std::borrow::Cow;

use super::frames::is_trace_line;

/// One line of a code block, as [`code_lines`] reads it.
pub(super) struct BlockLine {
    /// Where it ends (past its line break).
    pub(super) end: usize,
    /// Whether it reads as code rather than as a log's prose.
    pub(super) code: bool,
    /// Where a comment on it starts (`// ..`, `# ..`, a block comment's), if one does: its
    /// words are prose.
    pub(super) comment: Option<usize>,
    /// Whether it is a stack trace's line ([`is_trace_line`]).
    pub(super) trace: bool,
}

/// Each line of a code block: where it ends, whether it reads as code rather than as a log's
/// prose (`IllegalArgumentException: Minimum width is 7`, `cargo run --release`): code holds
/// code punctuation before any comment, whose text is prose (`// wait for readable events`);
/// where a comment starts; and whether it is a stack trace's.
pub(super) fn code_lines(block: &str) -> Vec<BlockLine> {
    let mut end = 0;
    let mut in_block_comment = false;
    block
        .split_inclusive('\n')
        .map(|line| {
            let start = end;
            end += line.len();
            let (comment, still_open) = comment_start(line, in_block_comment);
            in_block_comment = still_open;
            let code_part = &line[..comment.unwrap_or(line.len())];
            let code = code_part.contains([';', '{', '}', '=', '(', '[', '<', '|', '&', '#', '!', '$']);
            BlockLine { end, code, comment: comment.map(|at| start + at), trace: is_trace_line(line) }
        })
        .collect()
}

/// Where a comment starts on `line` (a byte offset in it), and whether a block comment is
/// still open at its end. `in_block_comment`: whether one was open when it began. A comment
/// is `//` (not of an address's `://`), `/*` (until `*/`), or `#` followed by a space at the
/// line's start (a shell's or Python's; Rust's `#[..]` and `#!` are code); a line inside a
/// block comment is all comment (what follows its close on the line too). A `//` or `/*`
/// inside a double-quoted string is no comment.
fn comment_start(line: &str, in_block_comment: bool) -> (Option<usize>, bool) {
    if in_block_comment {
        return (Some(0), !line.contains("*/"));
    }
    let indented = line.trim_start();
    if indented.starts_with("# ") || indented == "#\n" || indented == "#" {
        return (Some(line.len() - indented.len()), false);
    }
    let bytes = line.as_bytes();
    let mut in_string = false;
    let mut at = 0;
    while at + 1 < bytes.len() {
        match (bytes[at], bytes[at + 1]) {
            (b'\\', _) if in_string => at += 1,
            (b'"', _) => in_string = !in_string,
            (b'/', b'/') if !in_string && (at == 0 || bytes[at - 1] != b':') => return (Some(at), false),
            (b'/', b'*') if !in_string => return (Some(at), !line[at + 2..].contains("*/")),
            _ => {}
        }
        at += 1;
    }
    (None, false)
}

/// The lines of a code block that read as a program's prose output, neither code nor a stack
/// trace's (see [`code_lines`]), nor a shell's prompt (`$ fd -L`, `> npm test`).
pub(super) fn output_lines(block: &str) -> impl Iterator<Item = &str> {
    let lines = code_lines(block);
    let mut start = 0;
    lines.into_iter().filter_map(move |line| {
        let text = &block[start..line.end];
        start = line.end;
        let prompt = text.trim_start().starts_with(['$', '>', '%']);
        (!line.code && !line.trace && line.comment.is_none() && !prompt).then_some(text)
    })
}

/// Programs a reporter runs from a shell to build, install or fetch, whose names (`cargo`,
/// `npm`, `git`) are no code of the workspace.
const TOOLS: [&str; 33] = [
    "apt", "apt-get", "brew", "bun", "cargo", "cd", "curl", "deno", "dnf", "docker", "echo", "export", "git", "gradle",
    "gradlew", "java", "javac", "ls", "make", "mvn", "mvnw", "node", "npm", "npx", "pacman", "pip", "pnpm", "python",
    "python3", "rustc", "rustup", "sudo", "yarn",
];

/// Where the tool a shell line runs ends: after a known tool's name (`cargo`, `npm`,
/// `./gradlew`, after a prompt's `$ ` and any `sudo`), so that what follows is read as
/// before; its subcommand too, which may be the workspace's own program (`upgrade` of a cargo
/// plugin's `cargo upgrade`, an npm script). 0 for a line that starts with no tool.
pub(super) fn shell_tool_end(line: &str) -> usize {
    let start = line.len() - line.trim_start_matches([' ', '$', '>', '%']).len();
    let mut end = start;
    for word in line[start..].split(' ') {
        end += word.len() + 1;
        if word != "sudo" {
            return if TOOLS.contains(&word.trim_start_matches("./")) { end.min(line.len()) } else { 0 };
        }
    }
    0
}

/// A command line's long flag of two words or more (`--list-themes`, `--max-depth=2`), where a
/// word may not go on before it.
static LONG_FLAG: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
    regex::Regex::new(r"(?:^|[\s`=(\[])--([a-z][a-z0-9]*(?:-[a-z0-9]+)+)").expect("the flag pattern compiles")
});

/// The long flags of two words or more in `text` (`list-themes` of `bat --list-themes`), each
/// with where it starts.
pub(super) fn long_flags(text: &str) -> impl Iterator<Item = (usize, &str)> {
    LONG_FLAG.captures_iter(text).filter_map(|found| found.get(1)).map(|flag| (flag.start(), flag.as_str()))
}

/// A commit message's or a pull request title's kind and scope, as Conventional Commits write
/// them at its start (`fix(css): `, `feat!: `, `chore(deps): `), and as a squashed merge lists
/// its commits, a line each (`* fix(v4): ..`).
static CONVENTIONAL_PREFIX: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
    regex::Regex::new(
        r"(?m)^[ \t]*(?:[*-][ \t]+)?(?P<kind>build|chore|ci|deps|docs|feat|fix|perf|refactor|release|revert|style|test|tests|types)(?P<scope>\([^()\n]*\))?!?:[ \t]",
    )
    .expect("the prefix pattern compiles")
});

/// The Conventional Commits prefixes of `text`'s lines: where each kind stands (`fix` of
/// `fix(css): ..`) and the scope it names (`css`), if any.
pub(super) fn conventional_prefixes(text: &str) -> Vec<(std::ops::Range<usize>, Option<&str>)> {
    CONVENTIONAL_PREFIX
        .captures_iter(text)
        .filter_map(|found| {
            let kind = found.name("kind")?;
            let scope = found.name("scope").map(|scope| scope.as_str().trim_matches(['(', ')']).trim());
            Some((kind.range(), scope.filter(|scope| !scope.is_empty())))
        })
        .collect()
}

/// `text` without the kind of each Conventional Commits prefix (`fix` of `fix(css): ..`, set
/// to spaces), and the scopes the prefixes name (`css`). The kind says what sort of change a
/// commit is, not what it changes: read as a word, `fix` lifted the files that happen to say
/// it (`ssrFixStacktrace`) in every fix's ranking; read as a call, it named a function.
pub(super) fn commit_kinds_apart(text: &str) -> (Cow<'_, str>, Vec<&str>) {
    let prefixes = conventional_prefixes(text);
    if prefixes.is_empty() {
        return (Cow::Borrowed(text), Vec::new());
    }
    let mut apart = String::with_capacity(text.len() + prefixes.len());
    let mut from = 0;
    for (kind, _) in &prefixes {
        apart.push_str(&text[from..kind.start]);
        // One more space than the kind: a scope written right after it stands apart.
        apart.push_str(&" ".repeat(kind.len() + 1));
        from = kind.end;
    }
    apart.push_str(&text[from..]);
    (Cow::Owned(apart), prefixes.into_iter().filter_map(|(_, scope)| scope).collect())
}

/// An issue closed by a commit or pull request, as forges read the words that close one:
/// `Fixes #12`, `closes: #7`, `Resolved owner/repo#3`.
static CLOSING_REFERENCE: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
    regex::Regex::new(r"(?i)\b(?:close[sd]?|fix(?:e[sd])?|resolve[sd]?)\b(?:[ \t]*:)?[ \t]+(?:[\w.-]+/[\w.-]+)?#\d+")
        .expect("the closing pattern compiles")
});

/// `text` without the references that close an issue (`Fixes #13723`, `Closes #1663`): the
/// keyword says the commit closes it, not what the code does, and the number names nothing.
pub(super) fn without_closing_references(text: &str) -> Cow<'_, str> {
    if !text.contains('#') {
        return Cow::Borrowed(text);
    }
    CLOSING_REFERENCE.replace_all(text, " ")
}

/// The line holding byte `at`.
fn line_holding(lines: &[BlockLine], at: usize) -> Option<&BlockLine> {
    lines.get(lines.partition_point(|line| line.end <= at))
}

/// Whether the line holding byte `at` reads as code (see [`code_lines`]).
pub(super) fn line_reads_as_code(lines: &[BlockLine], at: usize) -> bool {
    line_holding(lines, at).is_some_and(|line| line.code && line.comment.is_none_or(|comment| at < comment))
}

/// Whether the line holding byte `at` is a stack trace's (see [`code_lines`]).
pub(super) fn line_is_trace(lines: &[BlockLine], at: usize) -> bool {
    line_holding(lines, at).is_some_and(|line| line.trace)
}

/// The contents of the string literals in code, as byte ranges, in order.
/// A double-quoted string ends at its line's end if it is not closed before, and `\"` does
/// not close it. A single quote opens a string (JavaScript's, Python's `'Invalid email'`)
/// only where a value starts, after `(`, `,`, `=`, `:`, `[`, `{`, `?` or `+` or at the line's
/// start, and only if it closes on its line: so Rust's lifetimes (`&'a str`, `impl<'a>`) and
/// an apostrophe (`don't`) open none, and a quote in a character literal (`'"'`, `b'"'`)
/// opens no double-quoted string.
pub(super) fn string_literals(code: &str) -> Vec<(usize, usize)> {
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
pub(super) fn string_holding(spans: &[(usize, usize)], at: usize) -> Option<(usize, usize)> {
    let after = spans.partition_point(|(start, _)| *start <= at);
    spans[..after].last().copied().filter(|(_, end)| at < *end)
}

#[cfg(test)]
mod tests {
    use crate::context::issue::analyze;
    use crate::context::issue::tests::symbol;

    #[test]
    fn plain_words_of_a_log_pasted_in_a_block_are_not_names() {
        let query = analyze(
            "abbreviate throws\n```\norg.acme.text.AbbreviationException: Minimum abbreviation width is 7\n\
             $ cargo run --release\nlet total = compute(offset);\n```\n",
        );
        for name in ["AbbreviationException", "total", "compute", "offset", "cargo", "release"] {
            assert!(symbol(&query, name).is_some(), "{name}: {:?}", query.symbols);
        }
        for word in ["Minimum", "abbreviation", "width"] {
            assert!(symbol(&query, word).is_none(), "{word}: {:?}", query.symbols);
        }
        assert!(query.terms.iter().any(|(term, _)| term == "abbreviation"), "its words still count");
    }

    #[test]
    fn plain_words_of_a_comment_in_a_block_are_not_names() {
        let query = analyze(
            "wait for errors\n```rust\npub struct Interest(mio::Interest);\n\
             /// Interest in all readable events.\npub const READABLE: Interest = Interest(mio::Interest::READABLE); // mirrors the readable flag\n\
             /* the queue keeps\n   pending events until drained */\nlet url = \"http://host//path\"; poll(url);\n\
             # shell comment mentions blocking\n#[derive(Debug)]\n```\n",
        );
        for name in ["Interest", "READABLE", "url", "poll", "Debug"] {
            assert!(symbol(&query, name).is_some(), "{name}: {:?}", query.symbols);
        }
        for word in ["readable", "events", "mirrors", "flag", "queue", "pending", "drained", "shell", "blocking"] {
            assert!(symbol(&query, word).is_none(), "{word}: {:?}", query.symbols);
            assert!(query.terms.iter().any(|(term, _)| term == word), "{word} still counts as a word");
        }
        // What is spelt like code in a comment stays a name.
        let spelt = analyze("x\n```\nrun(); // see try_join_next and JoinSet::spawn\n```\n");
        for name in ["try_join_next", "JoinSet", "spawn"] {
            assert!(symbol(&spelt, name).is_some(), "{name}: {:?}", spelt.symbols);
        }
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
        assert!(query.terms.iter().any(|(term, _)| term == "docs"), "its words still count");
        assert!(!query.terms.iter().any(|(term, _)| term == "example"), "an e-mail address is someone's, no word");

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
        for name in ["first", "words", "String", "key", "lookup", "open_paren", "other_char", "bad_input"] {
            assert!(symbol(&script, name).is_some(), "{name}: {:?}", script.symbols);
        }
        for data in ["last", "example", "Invalid", "email", "strict", "never", "ever"] {
            assert!(symbol(&script, data).is_none(), "{data}: {:?}", script.symbols);
        }
    }

    #[test]
    fn a_shell_lines_tool_in_inline_code_names_nothing() {
        let query = analyze("Panic\n`cargo upgrade --example limiter` panics, and `npm test` too.");
        assert!(symbol(&query, "cargo").is_none() && symbol(&query, "npm").is_none(), "{:?}", query.symbols);
        assert!(symbol(&query, "limiter").is_some(), "what the command runs: {:?}", query.symbols);
        assert!(symbol(&query, "upgrade").is_some(), "a plugin's subcommand: {:?}", query.symbols);
        assert!(query.terms.iter().any(|(term, _)| term == "cargo"), "its words still count");
    }

    #[test]
    fn a_long_flag_names_the_option_it_sets() {
        let text = "`--list-themes` fails\n\nWith `bat --map-syntax=x` or\n```\n$ bat --no-config --terminal-width=80 a.rs\n```\n\
                    but not with --squeeze-blank in prose, `--help`, `x--y-z` or `--Upper-case`.";
        let query = analyze(text);
        let weight =
            |name: &str| query.symbols.iter().find(|s| s.name == name && s.qualifiers.is_empty()).map(|s| s.weight);
        assert_eq!(weight("list_themes"), Some(1.0), "{:?}", query.symbols);
        assert_eq!(weight("map_syntax"), Some(1.0), "{:?}", query.symbols);
        assert_eq!(weight("no_config"), Some(0.1), "in a block: {:?}", query.symbols);
        assert_eq!(weight("terminal_width"), Some(0.1), "{:?}", query.symbols);
        for none in ["squeeze_blank", "y_z", "upper_case", "Upper_case"] {
            assert_eq!(weight(none), None, "{none}: {:?}", query.symbols);
        }
        let flags: Vec<&str> = super::long_flags("a --b-c, (--d-e2) --f x--g-h").map(|(_, flag)| flag).collect();
        assert_eq!(flags, ["b-c", "d-e2"]);
    }

    #[test]
    fn a_conventional_commits_kind_is_no_call_and_its_scope_names_code() {
        let query = analyze("fix(css): await sass worker disposal (fix #22274)");
        assert!(symbol(&query, "fix").is_none(), "{:?}", query.symbols);
        assert_eq!(symbol(&query, "css").map(|css| css.weight), Some(super::super::SCOPE_WEIGHT));
        let query = analyze(
            "feat(App, ssr/hmr)!: add `Router::merge`\n\n* fix(tuple): apply defaults\n- chore(deps): bump\n\
             Then call fix(x) again.",
        );
        for name in ["App", "ssr", "hmr", "merge", "tuple", "deps"] {
            assert!(symbol(&query, name).is_some(), "{name}: {:?}", query.symbols);
        }
        assert!(symbol(&query, "feat").is_none() && symbol(&query, "chore").is_none(), "{:?}", query.symbols);
        let joined = analyze("fix(model+query): wrap callbacks\n\nfix(cli/run.js): revert the glob");
        for name in ["model", "query", "cli"] {
            assert!(symbol(&joined, name).is_some(), "{name}: {:?}", joined.symbols);
        }
        assert!(joined.symbols.iter().all(|s| !s.name.contains(['+', '.'])), "{:?}", joined.symbols);
        assert!(symbol(&query, "fix").is_some(), "a call in the prose is a call: {:?}", query.symbols);
        for text in ["fixed(css): x", "fix(css) without a colon", "see fix(css): x", "chore(): x", "fix(css):x"] {
            assert_eq!(super::conventional_prefixes(text).iter().find_map(|(_, scope)| *scope), None, "{text}");
        }
        assert_eq!(
            super::conventional_prefixes("x\n  * chore(deps)!: bump"),
            [("x\n  * ".len().."x\n  * chore".len(), Some("deps"))]
        );
        // Nor is it a word: it says what sort of change a commit is, not what it changes.
        let fix = analyze("fix(ssr): keep the stack trace of a failed load");
        assert!(!fix.terms.iter().any(|(term, _)| term == "fix"), "{:?}", fix.terms);
        assert!(fix.terms.iter().any(|(term, _)| term == "stack"), "{:?}", fix.terms);
        let plain = analyze("Fix the stack trace of a failed load");
        assert!(plain.terms.iter().any(|(term, _)| term == "fix"), "a title's own word stays: {:?}", plain.terms);
    }

    #[test]
    fn the_words_that_close_an_issue_are_no_words_of_it() {
        let cut = |text: &str| super::without_closing_references(text).split_whitespace().collect::<Vec<_>>().join(" ");
        assert_eq!(cut("Update: drop the fix (fixes #13723) (#13772)"), "Update: drop the fix ( ) (#13772)");
        assert_eq!(cut("Closes: #7, resolved acme/tool#3 and FIXED #1"), ", and");
        for kept in ["fix the closed #tag", "closes the loop", "prefixes #1", "fixes#2", "fix #x"] {
            assert_eq!(cut(kept), kept, "no closing reference");
        }
        let query = analyze("Forbid spy on mock\n\nFixes #2915");
        assert!(!query.terms.iter().any(|(term, _)| term.starts_with("fix")), "{:?}", query.terms);
    }

    #[test]
    fn a_shell_lines_tool_ends_after_its_name() {
        for (line, tool) in [
            ("cargo run --example x", "cargo "),
            ("$ sudo npm install -g vite", "$ sudo npm "),
            ("./gradlew build", "./gradlew "),
            ("git", "git"),
            ("sudo", ""),
            ("fd -L", ""),
            ("RateLimiter::try_acquire", ""),
            ("", ""),
        ] {
            assert_eq!(&line[..super::shell_tool_end(line)], tool, "{line:?}");
        }
    }
}
