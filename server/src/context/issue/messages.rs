//! The error and panic messages an issue quotes, cut to the literal runs of words that the
//! code raising them holds in a string.

use super::code::output_lines;
use super::markdown::{Region, regions};
use crate::context::terms;

/// Most message runs kept from one issue.
pub(super) const MAX_MESSAGES: usize = 8;

/// A run of a message counts with at least this many words and letters: shorter ones
/// (`not found`) occur in too much code to point anywhere.
pub(super) const MIN_MESSAGE_WORDS: usize = 3;

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

/// The literal runs of the error messages the issue quotes, as
/// [`IssueQuery::messages`](super::IssueQuery::messages): a Java trace's root causes first
/// (its last `Caused by:` first), then the rest in order, then what the prose quotes (inline
/// code that reads as words, a sentence in double quotes), then the lines of a program's
/// output pasted in a code block (`Mockito cannot mock this class: ..`, a warning's lines
/// after its first), which the code that prints them holds as well.
pub(super) fn quoted_messages(text: &str) -> Vec<String> {
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
        if let Some(message) = message {
            push_runs(message, found);
        }
        if causes.len() + messages.len() >= MAX_MESSAGE_CANDIDATES {
            break;
        }
    }
    let regions = regions(text);
    // A program's output pasted in a block, line by line, after the lines that report errors.
    let mut output: Vec<String> = Vec::new();
    for &(_, block) in regions.iter().filter(|(region, _)| *region == Region::CodeBlock) {
        for line in output_lines(block) {
            if output.len() >= MAX_MESSAGE_CANDIDATES {
                break;
            }
            push_runs(line, &mut output);
        }
    }
    // What the prose quotes: a span of inline code that reads as words (`cannot be set as
    // multiple occurrences`), a sentence in double quotes ("Unable to find the template").
    let mut quoted: Vec<String> = Vec::new();
    for &(region, piece) in &regions {
        match region {
            Region::InlineCode if piece.trim().contains(' ') => push_runs(piece, &mut quoted),
            Region::Prose => {
                for line in piece.lines() {
                    // The pieces between quotes; the first stands before any.
                    let mut parts = line.split(['"', '\u{201c}', '\u{201d}']).skip(1);
                    while let (Some(inside), Some(_)) = (parts.next(), parts.next()) {
                        push_runs(inside, &mut quoted);
                    }
                }
            }
            Region::InlineCode | Region::CodeBlock => {}
        }
        if quoted.len() >= MAX_MESSAGE_CANDIDATES {
            break;
        }
    }
    let mut kept: Vec<String> = Vec::new();
    for run in causes.into_iter().rev().chain(messages).chain(quoted).chain(output) {
        if !kept.contains(&run) && kept.len() < MAX_MESSAGES {
            kept.push(run);
        }
    }
    kept
}

/// Adds to `found` the literal runs of `message` long and telling enough to look for, each once.
fn push_runs(message: &str, found: &mut Vec<String>) {
    for piece in MESSAGE_BREAK.split(message) {
        let run = piece.trim_matches(|c: char| !c.is_alphanumeric()).split_whitespace().collect::<Vec<_>>().join(" ");
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
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::context::issue::analyze;

    #[test]
    fn a_programs_output_in_a_block_gives_its_runs_after_the_errors() {
        let issue = "Mock fails\n```\nYou are seeing this disclaimer because Mockito creates inline mocks.\n\
                     $ mvn test --offline build\n> npm run the build script\nlet mocked = mock(Widget.class);\n\
                     // the comment says nothing here\n\tat org.acme.Widget.run(Widget.java:10)\n\
                     Mockito cannot mock this class: class com.acme.Piece\n```\n\
                     Error: the widget registry was closed early\n";
        assert_eq!(
            analyze(issue).messages,
            [
                "the widget registry was closed early",
                "You are seeing this disclaimer because Mockito creates inline mocks",
                "Mockito cannot mock this class"
            ]
        );
        assert!(
            analyze("Mock fails\nYou are seeing this disclaimer because Mockito creates inline mocks.\n")
                .messages
                .is_empty(),
            "prose outside a block"
        );
    }

    #[test]
    fn what_the_prose_quotes_gives_its_runs_before_the_output() {
        let issue = "Rejects it\nThe parser says `cannot be set as multiple occurrences` and \
                     then \u{201c}no such template was registered\u{201d} when \"it runs the second pass\" again.\n\
                     A lone \" quote opens nothing, nor does `short` code.\n\
                     ```\nthe registry was closed before the lookup\n```\n";
        assert_eq!(
            analyze(issue).messages,
            [
                "cannot be set as multiple occurrences",
                "no such template was registered",
                "it runs the second pass",
                "the registry was closed before the lookup"
            ]
        );
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
}
