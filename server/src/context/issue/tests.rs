//! Reading whole issues: bounds on what is read, identifiers with their qualifiers, the
//! weights of words, and a property test over any text.

use proptest::strategy::Strategy as _;

use super::*;
use crate::context::issue::messages::{MAX_MESSAGES, MIN_MESSAGE_WORDS};
use crate::context::issue::paths::{MAX_FOLDERS, MAX_OTHER_FILES};
use crate::context::issue::quoted_code::{MAX_QUOTED_LINES, MIN_QUOTED_LEN};

pub(super) fn symbol<'a>(query: &'a IssueQuery, name: &str) -> Option<&'a SymbolMention> {
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
fn the_title_is_read_alone_too_when_the_body_holds_code() {
    let query = analyze(
        "Idle workers stay alive\n\nThis integration test hangs:\n```rust\nPool::with_size(2).resize(8);\n```\n",
    );
    let title = query.title_alone.as_deref().expect("a body with code gives the title's own reading");
    assert!(symbol(title, "Pool").is_none() && symbol(&query, "Pool").is_some(), "{title:?}");
    assert!(title.terms.iter().any(|(term, _)| term == "idle") && title.title_alone.is_none());
    assert!(title.about_tests && query.about_tests, "what the issue is about is the whole issue's");
    // Prose alone, an empty block or no body: one reading.
    for text in ["Idle workers stay alive\n\nThey keep `Pool` busy.", "Idle workers\n\n```\n\n```", "Idle workers"] {
        assert!(analyze(text).title_alone.is_none(), "{text:?}");
    }
}

#[test]
fn a_path_into_the_standard_library_names_nothing_of_the_workspace() {
    let query = analyze(
        "`{{ ::std::string::String::new() }}` fails to render\n\nReturning `std::io::Error` or a \
         `java.util.Map` breaks, `core::fmt::Display` too; `io::Error` and `JsonParser.getText` work.",
    );
    for name in ["String", "new", "string", "Map", "util", "Display", "fmt"] {
        assert!(symbol(&query, name).is_none(), "`{name}` is the standard library's: {:?}", query.symbols);
    }
    let errors: Vec<&SymbolMention> = query.symbols.iter().filter(|s| s.name == "Error").collect();
    assert!(errors.len() == 1 && errors[0].qualifiers == ["io"], "{errors:?}");
    assert!(symbol(&query, "getText").is_some() && symbol(&query, "JsonParser").is_some());
    // Their words still count for the lexical match.
    assert!(query.terms.iter().any(|(term, _)| term == "display"), "{:?}", query.terms);
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
fn a_documentation_reference_and_a_prototype_name_a_member_of_their_type() {
    let query = analyze("Calling Schema#post twice, and `TokenFilter#includeProperty`, breaks Model.prototype.save");
    assert_eq!(
        symbol(&query, "post").map(|s| &s.qualifiers[..]),
        Some(&["Schema".to_owned()][..]),
        "{:?}",
        query.symbols
    );
    assert_eq!(symbol(&query, "includeProperty").unwrap().qualifiers, ["TokenFilter"]);
    assert_eq!(symbol(&query, "save").unwrap().qualifiers, ["Model"], "a script's prototype is no qualifier");
    assert!(symbol(&query, "prototype").is_none(), "{:?}", query.symbols);
    // A number after `#`, a lower-case word or a language's name before it: no member.
    let plain = analyze("Fix #12, see issue#34 and PR#5; written in C# or F#, ready.#now");
    assert!(plain.symbols.is_empty(), "{:?}", plain.symbols);
    for malformed in ["#", "A#", "#a", "A##b", "A#.b", "A#b#", "A#1b", "::A#b"] {
        let _ = analyze(malformed);
    }
}

#[test]
fn a_kebab_case_name_is_a_whole_word_for_file_stems() {
    let query = analyze("Update: check template literal in no-proto, no-iterator (--fix, -x, a--b, x-)");
    for word in ["no-proto", "no-iterator", "proto", "iterator", "fix"] {
        assert!(query.words.binary_search(&word.to_owned()).is_ok(), "{word}: {:?}", query.words);
    }
    assert!(
        query.words.iter().all(|w| !w.starts_with('-') && !w.ends_with('-') && !w.contains("--")),
        "{:?}",
        query.words
    );
}

#[test]
fn names_written_only_in_a_code_block_count_for_little_unless_a_trace_gives_them() {
    let text = "Parsing fails on a BOM after `Reader::skip_bom`\n\n\
                ```rust\nlet reader = Reader::open(path)?;\nlet doc = reader.parse_document()?;\n```\n\n\
                ```\nthread 'main' panicked at src/main.rs:3:5\nstack backtrace:\n  \
                4: doclib::lexer::Lexer::next_token\n             at ./src/lexer.rs:88:9\n```\n";
    let query = analyze(text);
    let weight = |name: &str| symbol(&query, name).unwrap_or_else(|| panic!("{name} in {query:?}")).weight;
    assert_eq!(weight("skip_bom"), 1.0, "inline code");
    assert!(weight("parse_document") < 0.2, "the reporter's own code names the API it calls");
    assert!(weight("next_token") >= 0.5, "a backtrace's frame is where the program went");
    assert!(weight("next_token") > weight("parse_document") * 2.0);
    // A name given in prose or inline code as well keeps its surest weight.
    let both = analyze("`Reader::open` rejects a path\n```\nReader::open(\"a\")?;\n```\n");
    assert_eq!(symbol(&both, "open").unwrap().weight, 1.0);
}

#[test]
fn lexical_terms_weigh_code_more() {
    let query = analyze("Semaphore limits\nThe semaphore `MAX_PERMITS` limit");
    let weight = |t: &str| query.terms.iter().find(|(w, _)| w == t).map(|(_, w)| *w);
    assert_eq!(weight("semaphore"), Some(2.0 + 1.0), "twice in the title, once in the body");
    assert_eq!(weight("max_permits"), Some(1.5));
    assert_eq!(weight("permits"), Some(1.5));
    assert!(query.words.contains(&"semaphore".to_owned()));
    // A code block's words count half of what they would in prose or inline code.
    let block = analyze("Pool limits\n\n```rust\nlet pool = Pool::new(3);\npool.resize(4);\n```\nNo retry happens\n");
    let weight = |t: &str| block.terms.iter().find(|(w, _)| w == t).map(|(_, w)| *w);
    assert_eq!(weight("resize"), Some(1.5 * 0.5), "a call in a block");
    assert_eq!(weight("retry"), Some(1.0), "a word of the prose");
}

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
                "\tat org.junit.runners.ParentRunner.run(ParentRunner.java:363)\n", "\tat Bug.main(Unknown Source)\n",
                "  7: reedline::engine::Reedline::read_line\n", "   3: 0x55d1 - <tokio::a::B<F> as core::future::Future>::poll\n",
                "             at /rustc/90b35a6/library/std/src/rt.rs:5:9\n", "panicked at /u/.cargo/registry/src/i/hyper-0.14.2/src/lib.rs:3:1", "  12: ",
                "    at render (/app/node_modules/react-dom/index.js:10:2)\n", "    at node:internal/main/run:23:47\n",
                "    at startServer (/home/me/app/dev.mjs:12:3)\n", "    at main (C:\\app\\src\\main.js:1:2)\n",
                "commitRoot@http://localhost:5173/node_modules/.vite/deps/react-dom.js?v=1a:12:3\n",
                "    at App (http://localhost:5173/src/App.tsx?t=16:4:2)\n", "@", "?v=",
                "https://github.com/o/r/blob/main/src/a.rs#L1-L2", "thread 'main' panicked at src/main.rs:3:5:",
                "é", "😀", "\u{0}", "--flag", "snake_case_name", "CamelCase",
                "\\", "C:\\", "src\\net\\tcp.rs:3:5", "\\_", "web\\main.mts",
                "│   ├── ", "└── ", "[INFO] +- ", "|-- ", "`-- ", "<details>", "</summary>", "<pre>\n", "</code></pre>", "<img src=", "Vec<",
                "Error: ", "error[E0599]: ", "java.lang.IllegalStateException: ", "panicked at '", "' ", "{}",
                "connection pool exhausted after", " 30s ", "Cannot read properties of undefined",
                "README.md", ".github/workflows/ci.yml", "Makefile", "../", "e.g.", "v1.2.3", "clip.mp4:3",
                "src/runtime/", "./packages/core", "and/or",
                "https://", "http://x", "?q=is%3A", "#method.", "/issues/", "/-/blob/", "/src/branch/", "www.",
            ]).prop_map(str::to_owned),
            proptest::prelude::any::<String>(),
        ], 0..40),
    ) {
        let text = pieces.concat();
        let query = analyze(&text);
        // Knowing the workspace's code only ever leaves frames out: it gives no name or path the
        // text read alone does not.
        let own = OwnCode::unknown()
            .java_packages(["com.fasterxml.jackson.core".to_owned()])
            .rust_crates(["tokio".to_owned()])
            .npm_packages([(String::new(), "vite".to_owned())])
            .script_files(["src/main.ts".to_owned()]);
        let knowing = analyze_knowing(&text, &own);
        for symbol in &knowing.symbols {
            proptest::prop_assert!(query.symbols.iter().any(|s| s.name == symbol.name), "{symbol:?}");
        }
        for (path, _) in &knowing.paths {
            proptest::prop_assert!(query.paths.iter().any(|(p, _)| p == path), "{path}");
        }
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
        // Quoted code lines are a bounded few, long enough to be rare, their whitespace collapsed
        // (they come from the issue as read, its tree drawings and forge anchors set aside, so
        // not always word for word from the raw text).
        proptest::prop_assert!(query.code_lines.len() <= MAX_QUOTED_LINES);
        for line in &query.code_lines {
            proptest::prop_assert!(line.len() >= MIN_QUOTED_LEN && line.split(' ').all(|w| !w.is_empty()), "{line:?}");
        }
    }
}

#[test]
fn the_code_lines_a_block_quotes_are_kept_whitespace_aside_and_its_comments_and_output_are_not() {
    let query = analyze(
        "Wait for messages in the error queue\n\
         Today one has to write:\n\n```rust\nimpl Ready {\n    pub(crate) fn from_interest(interest: Interest) -> Ready {\n        \
         let mut ready  =  Ready::EMPTY;   // start empty, then add\n        if interest.is_readable() {\n            \
         ready |= Ready::READABLE;\n        }\n        ready\n    }\n}\n```\n\n```\nthread 'main' panicked at src/main.rs:3:5\n\
         error: the socket reported an error on its queue\n```\n",
    );
    assert_eq!(
        query.code_lines,
        [
            "pub(crate) fn from_interest(interest: Interest) -> Ready {",
            "let mut ready = Ready::EMPTY;",
            "if interest.is_readable() {",
            "ready |= Ready::READABLE;",
        ]
    );
    // Prose is never quoted code, however code-like its words.
    assert!(analyze("Ready\ncall `let mut ready = Ready::EMPTY;` first").code_lines.is_empty());
}

#[test]
fn web_addresses_give_only_the_words_that_may_speak_of_the_code() {
    let query = analyze(
        "Conflicts are not checked\n\
         Asked in the [discussions](https://github.com/clap-rs/clap/discussions) and looked at the \
         [open](https://github.com/clap-rs/clap/issues?q=is%3Aissue+label%3AS-wont-fix) issues.\n\n\
         See https://docs.rs/clap/latest/clap/struct.Arg.html#method.requires and \
         https://github.com/clap-rs/clap/blob/master/src/parser/validator.rs#L120.\n",
    );
    let terms: Vec<&str> = query.terms.iter().map(|(term, _)| term.as_str()).collect();
    for noise in ["https", "github", "com", "wont", "label", "aissue"] {
        assert!(!terms.contains(&noise), "{noise}: {terms:?}");
        assert!(!query.words.iter().any(|word| word == noise), "{noise}: {:?}", query.words);
    }
    for kept in ["requires", "arg", "validator", "docs", "discussions"] {
        assert!(terms.contains(&kept), "{kept}: {terms:?}");
    }
    assert!(query.paths.iter().any(|(path, _)| path == "src/parser/validator.rs"), "{:?}", query.paths);
}

#[test]
fn a_template_asking_for_tests_does_not_make_an_issue_about_tests() {
    let issue = "Pager drops the last line\n\n<!-- Please add a failing test if you can -->\nThe last line of `less` output is lost.\n\n\
                 - [x] I have added a unit test\n- [x] I searched the existing issues\n";
    let query = analyze(issue);
    assert!(!query.about_tests, "the template and the checklist speak of tests, not the reporter");
    assert!(analyze("Pager drops the last line\n\nThe unit test for paging fails.\n").about_tests);
}
