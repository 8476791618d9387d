//! An issue read against the workspace it is about. What the issue says is read by
//! [`issue`]; the workspace tells which of its lines are not the reporter's (those its own
//! issue templates hold, see [`issue_templates`](super::issue_templates)) and which frames of
//! a pasted Java stack trace are of its own code: a frame of a package no Java file of the
//! workspace is in is a library's or the reporter's program's (`org.junit..ParentRunner.run`,
//! `org.jruby.RubyArray.each`, `JacksonBug.main`), and its names are no use of the
//! workspace's namesakes.

use super::index::Index;
use super::issue::{self, IssueQuery, OwnPackages};
use super::issue_templates::IssueTemplates;
use super::language::Language;

/// Reads an issue about the workspace `index` holds: the lines its issue templates hold left
/// out, and the frames of a pasted Java stack trace read only where the workspace holds their
/// package.
pub fn analyze_in(index: &Index, text: &str) -> IssueQuery {
    issue::analyze_knowing(&IssueTemplates::of(index.root()).without(text), &java_packages(index))
}

/// The packages of the workspace's Java files (the unnamed package as `""`).
fn java_packages(index: &Index) -> OwnPackages {
    OwnPackages::of(
        index
            .files()
            .filter(|file| file.language == Language::Java)
            .map(|file| file.symbols.package.clone().unwrap_or_default()),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::context::issue::SymbolMention;
    use crate::testing::indexed;

    fn named<'a>(query: &'a IssueQuery, name: &str) -> Option<&'a SymbolMention> {
        query.symbols.iter().find(|mention| mention.name == name)
    }

    #[test]
    fn only_the_frames_of_the_workspaces_packages_name_its_code() {
        let (_dir, index) = indexed(&[
            (
                "src/main/java/com/acme/text/Pipeline.java",
                "package com.acme.text;\nclass Pipeline { void drain() {} }\n",
            ),
            ("src/main/java/com/acme/text/Runner.java", "package com.acme.text;\nclass Runner { void run() {} }\n"),
        ]);
        let issue = "Pipeline fails on close\n```\njava.lang.IllegalStateException: closed\n\
                     \tat com.acme.text.Pipeline.drain(Pipeline.java:42)\n\
                     \tat org.junit.runners.ParentRunner.run(ParentRunner.java:363)\n\
                     \tat org.jruby.RubyArray.each(RubyArray.java:1821)\n\
                     \tat ReproduceBug.main(ReproduceBug.java:7)\n```\n";
        let query = analyze_in(&index, issue);
        assert!(named(&query, "drain").is_some_and(|m| m.weight == 1.0), "{:?}", query.symbols);
        for foreign in ["run", "ParentRunner", "junit", "each", "RubyArray", "main", "ReproduceBug"] {
            assert!(named(&query, foreign).is_none(), "`{foreign}` is no code of the workspace: {:?}", query.symbols);
        }
        assert!(query.locations.iter().any(|(path, line)| path == "com/acme/text/Pipeline.java" && *line == 42));
        let elsewhere = ["ParentRunner.java", "RubyArray.java", "ReproduceBug.java"];
        let given = query.paths.iter().map(|(path, _)| path).chain(query.locations.iter().map(|(path, _)| path));
        for path in given {
            assert!(!elsewhere.iter().any(|file| path.ends_with(file)), "{path} is no file of the workspace");
        }
        // Without the workspace, every frame but the JDK's may be its code.
        let unknown = issue::analyze(issue);
        for name in ["drain", "run", "each", "main"] {
            assert!(named(&unknown, name).is_some(), "{name}: {:?}", unknown.symbols);
        }
    }

    #[test]
    fn the_lines_a_template_holds_are_not_the_reporters() {
        let (_dir, index) = indexed(&[
            (".github/ISSUE_TEMPLATE/bug.md", "Please include the following information:\n"),
            ("src/tokenizer.rs", "pub struct BufferedTokenizer;\n"),
        ]);
        let query = analyze_in(
            &index,
            "Tokenizer loses data\nPlease include the following information:\nThe BufferedTokenizer drops it.",
        );
        assert!(!query.words.iter().any(|word| word == "include"), "{:?}", query.words);
        assert!(query.words.iter().any(|word| word == "bufferedtokenizer"), "{:?}", query.words);
    }
}
