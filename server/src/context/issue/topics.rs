//! What an issue is about, as a whole: tests, documentation, or example programs.

use super::markdown::{Region, regions};
use crate::context::index::{is_example_path, is_example_word};

/// Whether the issue is about tests: its title speaks of tests, or its words of failing, flaky
/// or missing ones. A title's `test` that names code (`tokio::test`, `#[test]`) or is the verb
/// of a check (`to test whether ..`) does not count, nor do phrases within other words (`latest
/// fails`, `add a testimonial`) or in a fenced code block (a pasted log speaks for the program
/// that printed it), nor the body's phrases where a code block defines a test (the reporter's
/// own, which shows the fault: "see the failing test" then speaks of it).
pub(super) fn about_tests(text: &str) -> bool {
    let lower = text.to_ascii_lowercase();
    let title = lower.lines().find(|line| !line.trim().is_empty()).unwrap_or_default();
    let title_speaks_of_tests = title.split(|c: char| !c.is_ascii_alphanumeric()).any(|word| {
        let at = word.as_ptr() as usize - title.as_ptr() as usize;
        let (before, after) = (&title[..at], &title[at + word.len()..]);
        let names_code = before.ends_with("::") || before.ends_with("#[");
        match word {
            "test" => !names_code && !checks_a_condition(before, after),
            "tests" | "testing" => !names_code,
            _ => false,
        }
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
    let regions = regions(&lower);
    let words_speak_of_tests = regions
        .iter()
        .filter(|(region, _)| *region != Region::CodeBlock)
        .any(|(_, piece)| PHRASES.iter().any(|phrase| holds_phrase(piece, phrase)));
    // A failing test the reporter pastes is how the fault shows, not what is at fault.
    let own_test = regions.iter().any(|(region, piece)| *region == Region::CodeBlock && defines_a_test(piece));
    title_speaks_of_tests || (words_speak_of_tests && !own_test)
}

/// Whether the words around a title's `test` make it the verb of a check the code makes (`a
/// function to test whether Mongoose can cast a value`, `a helper to test if a path exists`),
/// not a test of the workspace (`skip test if the database is down`).
fn checks_a_condition(before: &str, after: &str) -> bool {
    let next = after.split_whitespace().next().unwrap_or_default();
    let infinitive = before.split_whitespace().next_back() == Some("to");
    next == "whether" || (next == "if" && infinitive)
}

/// Whether a code block defines a test: Rust's `#[test]` or `#[tokio::test]`, Java's `@Test`,
/// a script's `it(..)` or `test(..)`; `code` is lower-cased.
fn defines_a_test(code: &str) -> bool {
    code.lines().any(|line| {
        let line = line.trim_start();
        line.starts_with("#[test]")
            || (line.starts_with("#[") && line.contains("::test"))
            || line.starts_with("@test")
            || line.starts_with("@parameterizedtest")
            || line.starts_with("it(")
            || line.starts_with("test(")
    })
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
pub(super) fn about_documentation(text: &str) -> bool {
    let lower = text.to_ascii_lowercase();
    regions(&lower).into_iter().filter(|(region, _)| *region == Region::Prose).any(|(_, piece)| {
        let outside_links = piece.split_whitespace().filter(|token| !token.contains("://") && !token.contains("]("));
        outside_links
            .flat_map(|token| token.split(|c: char| !c.is_ascii_alphanumeric()))
            .any(|word| DOCUMENTATION_WORDS.contains(&word))
    })
}

pub(super) fn about_examples(text: &str, paths: &[(String, f64)]) -> bool {
    let title = text.lines().find(|line| !line.trim().is_empty()).unwrap_or_default().to_ascii_lowercase();
    title.split(|c: char| !c.is_ascii_alphanumeric()).any(is_example_word)
        || paths.iter().any(|(path, _)| is_example_path(path))
}

#[cfg(test)]
mod tests {
    use crate::context::issue::analyze;

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
    fn a_title_speaks_of_tests_unless_its_test_names_code() {
        assert!(analyze("searcher: add more tests for `replace_bytes`").about_tests);
        assert!(analyze("Testing é is slow: test").about_tests, "after non-ASCII text");
        assert!(!analyze("tokio::test does not work with a renamed crate").about_tests);
        assert!(!analyze("#[test] functions are skipped by the derive").about_tests);
        assert!(!analyze("fix: add `isValidObjectId()` to test whether a value casts").about_tests, "a verb");
        assert!(!analyze("Add a helper to test if a path exists").about_tests, "a verb");
        assert!(analyze("Add a test for `isValidObjectId()`").about_tests);
        assert!(analyze("Slow tests: if the runner is busy they time out").about_tests, "`if` after a mark between");
        assert!(analyze("Skip test if the database is down").about_tests, "a test, and a condition on it");
        assert!(analyze("Slow tests if run in parallel").about_tests, "`tests` is never the verb");
        assert!(analyze("tokio::test hangs\nThe integration test never ends.").about_tests, "the body's phrase");
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
    fn a_failing_test_the_reporter_pastes_shows_the_fault_and_is_not_its_topic() {
        for test in [
            "#[test]\nfn positional() {",
            "#[tokio::test]\nasync fn positional() {",
            "  @Test\n  void positional() {",
            "it('parses', () => {",
        ] {
            let issue = format!(
                "Positional values rejected\n```\n{test}\n    parse(\"a b\");\n}}\n```\nSee the failing test.\n"
            );
            assert!(!analyze(&issue).about_tests, "{issue}");
        }
        assert!(analyze("Positional values rejected\nSee the failing test.\n").about_tests, "without a test pasted");
        let title = "Test for positionals fails\n```\n#[test]\nfn positional() {}\n```\nA failing test.\n";
        assert!(analyze(title).about_tests, "the title still says");
    }
}
