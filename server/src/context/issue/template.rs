//! Parting an issue's title from its body, and leaving out what its template and the
//! reporter's setting put there: HTML comments, heading lines, the reporter's checklist, the
//! paragraph of versions or platform below a heading on the setting, markup and tree drawings.

use std::borrow::Cow;

use super::markdown::{closes, draws_a_tree, fence, is_heading, without_markup};
use super::paths::path_mentions;

/// The issue without template noise: HTML comments (`<!-- fill in ... -->`) removed,
/// heading-only lines below the title (`## Version`, `**Platform**`), the items of the
/// reporter's checklist ([`is_reporters_checklist_item`]) and an issue form's `_No response_`
/// for an empty field dropped, the first
/// paragraph below a heading on the reporter's setting left out ([`describes_the_setting`]),
/// and lines that draw a dependency or folder tree cut to the file paths they hold
/// ([`draws_a_tree`]).
pub(super) fn without_template(text: &str) -> (String, String) {
    let mut stripped = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(open) = rest.find("<!--") {
        // A `<!--` never closed is text about one (an issue on an HTML parser), not a comment.
        let Some(close) = rest[open..].find("-->") else { break };
        stripped.push_str(&rest[..open]);
        rest = &rest[open + close + 3..];
    }
    stripped.push_str(rest);
    let (front_title, after_front) = crate::issues::split_front_matter(&stripped);
    let mut lines = after_front.lines().skip_while(|line| line.trim().is_empty()).peekable();
    // An issue that opens with code has no title line.
    let title = match front_title {
        Some(title) => title,
        None => match lines.next_if(|line| fence(line.trim()).is_none()) {
            Some(line) if is_heading(line.trim()) => line.trim().trim_start_matches('#').trim().to_owned(),
            Some(line) => line.trim().to_owned(),
            None => String::new(),
        },
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
                (None, None) if is_reporters_checklist_item(trimmed) || trimmed == NO_RESPONSE => return None,
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

/// What GitHub's issue forms write for a field the reporter left empty.
const NO_RESPONSE: &str = "_No response_";

/// Whether a line is an item of a template's checklist in which the reporter says what they
/// did or agree to (`- [x] I have searched the existing issues`, `- [X] Searched the closed
/// issues`, `* [x] I agree to follow the Code of Conduct`): none of its words is the problem,
/// though they name issues, discussions and documentation, which some files speak of too.
/// Other task-list items (`- [ ] support symlinks`) are the issue's own.
fn is_reporters_checklist_item(line: &str) -> bool {
    let Some(item) = line.strip_prefix(['-', '*', '+']).map(str::trim_start) else { return false };
    let Some(text) = ["[x]", "[X]", "[ ]"].iter().find_map(|box_| item.strip_prefix(box_)) else { return false };
    let first = text.split_whitespace().next().unwrap_or_default().to_ascii_lowercase();
    matches!(
        first.trim_end_matches([',', ':']),
        "i" | "i've" | "i'm" | "searched" | "checked" | "read" | "looked" | "confirmed" | "agree" | "agreed"
    )
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::context::issue::analyze;
    use crate::context::issue::tests::symbol;

    #[test]
    fn a_comment_opened_and_never_closed_is_text() {
        let (title, body) = without_template(
            "Parser treats `<!--` inside <textarea> as a comment\nThe tokenizer_state stays in comment mode.\n",
        );
        assert_eq!(title, "Parser treats `<!--` inside <textarea> as a comment");
        assert!(body.contains("tokenizer_state"), "{body}");
        let (title, body) =
            without_template("<!-- Describe the bug -->\nCrash in parse_header\n<!-- and the steps -->\nSteps\n");
        assert_eq!((title.as_str(), body.trim()), ("Crash in parse_header", "Steps"));
    }

    #[test]
    fn front_matter_gives_the_title_and_is_not_read_as_words() {
        let (title, body) = without_template(
            "---\ntitle: \"Add tests for parse_header\"\nlabels: bug, triage\n---\n\nparse_header has no tests.\n",
        );
        assert_eq!(title, "Add tests for parse_header");
        assert_eq!(body.trim(), "parse_header has no tests.");
        // Without a title, the first line after it is the title.
        let (title, body) = without_template("---\nlabels: bug\n---\nCrash in parse_header\nSteps\n");
        assert_eq!((title.as_str(), body.trim()), ("Crash in parse_header", "Steps"));
        // A lone rule is no front matter.
        let (title, _) = without_template("---\nCrash in parse_header\n");
        assert_eq!(title, "---");
        let about_tests = analyze("---\ntitle: Add tests for parse_header\n---\nThe header reader is untested.\n");
        assert!(about_tests.about_tests, "the title says tests: {about_tests:?}");
        assert!(about_tests.terms.iter().all(|(term, _)| term != "labels" && term != "title"), "{about_tests:?}");
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

        // A checklist of what the reporter did is the template's; other task-list items are the issue's.
        let checked = analyze(
            "Walk loops\n- [X] I have searched the existing discussions\n* [x] Searched the closed tickets\n\
             - [ ] I agree to follow the conduct\n- [ ] support symlink_loops\n### Debug Output\n\n_No response_\n",
        );
        let term = |t: &str| checked.terms.iter().any(|(w, _)| w == t);
        for noise in ["searched", "discussions", "tickets", "conduct", "response"] {
            assert!(!term(noise), "{noise}: {:?}", checked.terms);
        }
        assert!(term("symlink_loops"), "{:?}", checked.terms);
    }
}
