//! An issue read against the workspace it is about. What the issue says is read by
//! [`issue`]; the workspace tells which of its lines are not the reporter's (those its own
//! issue templates hold, see [`issue_templates`](super::issue_templates)) and which frames of
//! a pasted stack trace are of its own code: a Java frame of a package no Java file of the
//! workspace is in, a Rust frame of a crate it does not build, or a JavaScript frame of a
//! package or a file it does not hold is a library's or the reporter's program's
//! (`org.junit..ParentRunner.run`, `org.jruby.RubyArray.each`, `JacksonBug.main`,
//! `reedline::engine::Reedline::read_line`, `clap_bug::main`, `node_modules/react-dom/..`,
//! `/home/me/app/index.js`), and
//! its names are no use of the workspace's namesakes; nor is a Java name written with a
//! package the workspace lacks (`org.springframework.stereotype.Component`).

use super::index::Index;
use super::issue::{self, IssueQuery, OwnCode};
use super::issue_templates::IssueTemplates;
use super::language::Language;

/// Reads an issue about the workspace `index` holds: the lines its issue templates hold left
/// out, and the frames of a pasted stack trace read only where the workspace holds their
/// package, crate or file.
pub fn analyze_in(index: &Index, text: &str) -> IssueQuery {
    issue::analyze_knowing(&IssueTemplates::of(index.root()).without(text), &own_code(index))
}

/// The packages of the workspace's Java files (the unnamed package as `""`), the names of its
/// Rust crates and their targets, the names of its npm packages and the paths of its script
/// files.
fn own_code(index: &Index) -> OwnCode {
    let java_packages = index
        .files()
        .filter(|file| file.language == Language::Java)
        .map(|file| file.symbols.package.clone().unwrap_or_default());
    let rust_crates = index
        .crates()
        .iter()
        .flat_map(|krate| std::iter::once(krate.name.clone()).chain(krate.roots.iter().map(|root| root.name.clone())));
    let script_files = index
        .files()
        .filter(|file| matches!(file.language, Language::TypeScript | Language::Tsx | Language::JavaScript))
        .map(|file| file.path.clone());
    OwnCode::unknown()
        .languages(index.files().map(|file| file.language))
        .java_packages(java_packages)
        .rust_crates(rust_crates)
        .npm_packages(index.packages().iter().cloned())
        .script_files(script_files)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::context::issue::SymbolMention;
    use crate::testing::indexed;

    /// A Java file of the package `com.acme.text`.
    const PIPELINE: (&str, &str) =
        ("src/main/java/com/acme/text/Pipeline.java", "package com.acme.text;\nclass Pipeline { void drain() {} }\n");

    fn named<'a>(query: &'a IssueQuery, name: &str) -> Option<&'a SymbolMention> {
        query.symbols.iter().find(|mention| mention.name == name)
    }

    #[test]
    fn only_the_frames_of_the_workspaces_packages_name_its_code() {
        let (_dir, index) = indexed(&[
            PIPELINE,
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
    fn a_java_name_of_a_package_the_workspace_lacks_names_nothing() {
        let (_dir, index) = indexed(&[
            ("src/main/java/com/acme/text/Component.java", "package com.acme.text;\npublic class Component {}\n"),
            PIPELINE,
        ]);
        let issue = "Scanning fails\n\nA class marked `@org.springframework.stereotype.Component` breaks \
                     `com.acme.text.Pipeline.drain`.";
        let query = analyze_in(&index, issue);
        assert!(named(&query, "Component").is_none(), "Spring's: {:?}", query.symbols);
        assert!(named(&query, "drain").is_some() && named(&query, "Pipeline").is_some(), "{:?}", query.symbols);
        assert!(named(&issue::analyze(issue), "Component").is_some(), "without the workspace");
    }

    #[test]
    fn only_the_frames_of_the_workspaces_crates_name_its_code() {
        let (_dir, index) = indexed(&[
            ("Cargo.toml", "[package]\nname = \"line-editor\"\n"),
            ("src/lib.rs", "pub mod engine;\n"),
            (
                "src/engine.rs",
                "pub struct Engine;\nimpl Engine { pub fn complete(&self) {} pub fn read_line(&self) {} }\n",
            ),
        ]);
        let issue = "Completion panics\n```\nthread 'main' panicked at src/engine.rs:2:5:\n\
                     \x20  0: std::panicking::begin_panic\n\
                     \x20            at /rustc/90b35a6/library/std/src/panicking.rs:584:5\n\
                     \x20  1: line_editor::engine::Engine::complete\n\
                     \x20            at ./src/engine.rs:2:5\n\
                     \x20  2: reedline::engine::Reedline::read_line\n\
                     \x20            at /home/me/.cargo/registry/src/reedline-0.23.0/src/engine.rs:123:9\n\
                     \x20  3: shell_bug::main\n```\n\
                     It also panicked at /home/me/.cargo/registry/src/index.crates.io-6f17/reedline-0.23.0/src/engine.rs:77:1 \
                     and at /home/me/.cargo/registry/src/index.crates.io-6f17/line-editor-0.2.0/src/engine.rs:2:9.\n";
        let query = analyze_in(&index, issue);
        assert!(named(&query, "complete").is_some(), "{:?}", query.symbols);
        // Cargo's copy of another crate names no file of the workspace; of its own crate, it may.
        assert!(!query.locations.iter().any(|(path, _)| path.contains("reedline")), "{:?}", query.locations);
        assert!(query.locations.iter().any(|(path, at)| path.contains("line-editor-0.2.0") && *at == 2));
        assert!(!query.paths.iter().any(|(path, _)| path.contains("reedline")), "{:?}", query.paths);
        assert!(query.paths.iter().any(|(path, _)| path.contains("line-editor-0.2.0")), "{:?}", query.paths);
        for foreign in ["read_line", "Reedline", "reedline", "main", "shell_bug", "begin_panic"] {
            assert!(named(&query, foreign).is_none(), "`{foreign}` is no code of the workspace: {:?}", query.symbols);
        }
        assert!(!query.locations.iter().any(|(_, line)| *line == 123 || *line == 584), "{:?}", query.locations);
        // Without the workspace, every frame but the standard library's may be its code.
        let unknown = issue::analyze(issue);
        assert!(named(&unknown, "read_line").is_some() && named(&unknown, "begin_panic").is_none());
    }

    #[test]
    fn only_the_script_frames_of_the_workspaces_packages_and_files_name_its_code() {
        let (_dir, index) = indexed(&[
            ("package.json", "{\"name\": \"vite\"}\n"),
            ("src/server.ts", "export function ssrLoadModule() {}\nexport function render() {}\n"),
        ]);
        let issue = "SSR crashes\n```\nTypeError: x is undefined\n\
                     \x20   at ssrLoadModule (/app/node_modules/vite/dist/node/chunks/dep.js:120:9)\n\
                     \x20   at renderToString (/app/node_modules/react-dom/cjs/server.js:10:2)\n\
                     \x20   at Module._compile (node:internal/modules/cjs/loader:1105:14)\n\
                     \x20   at startDevServer (/home/me/app/dev.mjs:12:3)\n\
                     \x20   at bootstrapShell (C:\\Users\\me\\app\\index.js:3:9)\n\
                     \x20   at render (/home/me/vite/build/src/server.js:5:1)\n```\n";
        let query = analyze_in(&index, issue);
        for own in ["ssrLoadModule", "render"] {
            assert!(named(&query, own).is_some(), "`{own}`: {:?}", query.symbols);
        }
        for foreign in ["renderToString", "_compile", "Module", "startDevServer", "bootstrapShell"] {
            assert!(named(&query, foreign).is_none(), "`{foreign}` is no code of the workspace: {:?}", query.symbols);
        }
        // A frame's place is a path and a line, not names.
        for place in ["app", "node_modules", "dist", "node", "chunks", "dep", "home", "build", "src", "server"] {
            assert!(named(&query, place).is_none(), "`{place}` is a folder or a file: {:?}", query.symbols);
        }
        assert!(query.paths.iter().any(|(path, _)| path == "dist/node/chunks/dep.js"), "{:?}", query.paths);
        assert!(named(&issue::analyze(issue), "renderToString").is_some(), "without the workspace");
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

    #[test]
    fn a_word_every_language_of_the_workspace_reserves_names_nothing() {
        let (_dir, rust) = indexed(&[
            ("Cargo.toml", "[package]\nname = \"sockets\"\n"),
            ("src/lib.rs", "pub struct Arg;\nimpl Arg { pub fn long(self) -> Self { self } }\n"),
        ]);
        let issue = "Wait for the error queue\n\nThis is my common use(99%), with `Arg::long` and `pub` items:\n\
                     ```rust\nloop {\n    let mut guard = socket.ready(Interest::ERROR).await?;\n    \
                     match guard.take() { Ok(m) => return m, Err(_) => continue }\n}\n\
                     impl Future for Pool { type Output = Self::Output; }\n```\n";
        let query = analyze_in(&rust, issue);
        for keyword in
            ["loop", "let", "mut", "await", "match", "return", "continue", "impl", "type", "use", "pub", "Self"]
        {
            assert!(named(&query, keyword).is_none(), "`{keyword}` names nothing: {:?}", query.symbols);
        }
        for name in ["ready", "Interest", "ERROR", "take", "long", "Future", "Pool"] {
            assert!(named(&query, name).is_some(), "`{name}`: {:?}", query.symbols);
        }
        assert!(
            query.symbols.iter().any(|m| m.name == "Output" && m.qualifiers == ["Self"]),
            "a keyword still qualifies: {:?}",
            query.symbols
        );
        // Java reserves none of `let`, `use` and `type`; with Java files beside, they are kept.
        let (_dir, mixed) = indexed(&[("src/lib.rs", "pub fn f() {}\n"), PIPELINE]);
        let query = analyze_in(&mixed, issue);
        for kept in ["let", "use", "type", "mut", "match", "impl"] {
            assert!(named(&query, kept).is_some(), "`{kept}` may be Java's: {:?}", query.symbols);
        }
        assert!(named(&query, "continue").is_none(), "both reserve it: {:?}", query.symbols);
        // Without the workspace, only the words all three languages reserve are left out.
        let unknown = issue::analyze(issue);
        assert!(named(&unknown, "continue").is_none() && named(&unknown, "let").is_some(), "{:?}", unknown.symbols);
    }
}
