use std::collections::HashMap;

use super::paths::{BuiltScript, same_package_folder};
use super::structure::declaring_module;
use super::symbols::is_macro_crate_of;
use super::*;
use crate::context::issue;
use crate::testing::indexed as index;

fn order(ranked: &[RankedFile]) -> Vec<&str> {
    ranked.iter().map(|r| r.path.as_str()).collect()
}

/// Asserts that the ranked file at `path` is said to be central for `users` files.
fn assert_central(ranked: &[RankedFile], path: &str, users: usize) {
    let reason = format!("central: {users} files use names only it defines");
    assert!(reasons_of(ranked, path).contains(&reason), "{ranked:?}");
}

/// The signals of the file at `path`, as weighed into its score.
fn signals_of(signals: &Signals, path: &str) -> FileSignals {
    signals.per_file().into_iter().find(|f| f.path == path).unwrap_or_else(|| panic!("{path} is not ranked"))
}

/// The reasons of the ranked file at `path`.
fn reasons_of<'a>(ranked: &'a [RankedFile], path: &str) -> &'a [String] {
    &ranked.iter().find(|r| r.path == path).unwrap_or_else(|| panic!("{path} is not ranked: {ranked:?}")).reasons
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
fn the_file_whose_code_the_issue_quotes_outranks_the_files_that_only_use_its_names() {
    let users = "use crate::ready::Ready;\nuse crate::interest::Interest;\n\
                 pub fn poll(interest: Interest) -> Ready { let ready = Ready::EMPTY; ready }\n\
                 pub fn poll_again(interest: Interest) -> Ready { if interest.is_readable() { Ready::READABLE } else { Ready::EMPTY } }\n";
    let (_dir, index) = index(&[
        (
            "src/ready.rs",
            "use crate::interest::Interest;\npub struct Ready(usize);\nimpl Ready {\n    pub const EMPTY: Ready = Ready(0);\n    \
             pub const READABLE: Ready = Ready(1);\n    pub(crate) fn from_interest(interest: Interest) -> Ready {\n        \
             let mut ready = Ready::EMPTY;\n        if interest.is_readable() {\n            ready |= Ready::READABLE;\n        }\n        \
             ready\n    }\n}\n",
        ),
        ("src/interest.rs", "pub struct Interest(u8);\nimpl Interest { pub fn is_readable(&self) -> bool { true } }\n"),
        ("src/udp.rs", users),
        ("src/tcp.rs", users),
        ("src/pipe.rs", users),
        ("src/lib.rs", "mod ready; mod interest; mod udp; mod tcp; mod pipe;\n"),
    ]);
    let issue = "Wait for the error queue\nI would write this, in the code:\n\n```rust\nimpl Ready {\n    \
                 pub(crate) fn from_interest(interest: Interest) -> Ready {\n        let mut ready = Ready::EMPTY;\n        \
                 if interest.is_readable() {\n            ready |= Ready::READABLE;\n        }\n        ready |= Ready::ERROR\n    }\n}\n```\n";
    let ranked = rank(&index, issue);
    let place = |path: &str| order(&ranked).iter().position(|p| *p == path).unwrap();
    assert!(place("src/ready.rs") < place("src/udp.rs"), "{ranked:?}");
    let reasons = reasons_of(&ranked, "src/ready.rs");
    assert!(reasons.contains(&"holds 4 line(s) of code the issue quotes".to_owned()), "{reasons:?}");
    assert!(reasons_of(&ranked, "src/udp.rs").iter().all(|r| !r.contains("the issue quotes")));
}

#[test]
fn a_kebab_case_name_the_issue_writes_names_the_file_of_that_stem() {
    let rule = "module.exports = { create(context) { return { MemberExpression(node) { check(node); } }; } };\n";
    let (_dir, index) = index(&[
        ("lib/rules/no-proto.js", rule),
        ("lib/rules/no-iterator.js", rule),
        ("lib/rules/prefer-template.js", rule),
        ("lib/rules/proto-helper.js", rule),
    ]);
    let ranked = rank(&index, "Update: check computed keys in no-proto");
    assert_eq!(ranked[0].path, "lib/rules/no-proto.js", "{:?}", order(&ranked));
    assert!(
        reasons_of(&ranked, "lib/rules/no-proto.js").iter().any(|r| r == "its name `no-proto` is a word of the issue")
    );
}

#[test]
fn the_code_an_issue_names_outranks_the_api_its_reproduction_calls() {
    let (_dir, index) = index(&[
        (
            "src/command.rs",
            "pub struct Command { args: Vec<Arg> }\n\
             impl Command {\n    pub fn new(name: &str) -> Self { Command { args: Vec::new() } }\n    \
             pub fn arg(mut self, arg: Arg) -> Self { self.args.push(arg); self }\n    \
             pub fn get_matches(self) -> Matches { crate::validator::validate(&self.args) }\n}\n\
             pub struct Arg { required: bool, default: Option<String> }\n\
             impl Arg {\n    pub fn new(id: &str) -> Self { Arg { required: false, default: None } }\n    \
             pub fn required(mut self, yes: bool) -> Self { self.required = yes; self }\n    \
             pub fn default_value(mut self, value: &str) -> Self { self.default = Some(value.into()); self }\n}\n\
             pub struct Matches;\n",
        ),
        (
            "src/validator.rs",
            "use crate::command::{Arg, Matches};\n\
             pub fn validate(args: &[Arg]) -> Matches { for arg in args { check_presence(arg); } Matches }\n\
             /// Checks that a required argument is present; a default value counts as present.\n\
             fn check_presence(arg: &Arg) {}\n",
        ),
        ("src/lib.rs", "pub mod command;\npub mod validator;\n"),
    ]);
    let issue = "A required argument with a default value is rejected\n\n\
                 `check_presence` fails although the argument has a default value.\n\n\
                 ```rust\nlet m = Command::new(\"app\")\n    .arg(Arg::new(\"level\").required(true).default_value(\"1\"))\n    \
                 .get_matches();\n```\n";
    let ranked = rank(&index, issue);
    assert_eq!(order(&ranked)[..2], ["src/validator.rs", "src/command.rs"], "{ranked:#?}");
}

#[test]
fn the_reporters_words_outweigh_the_words_of_their_code() {
    let (_dir, index) = index(&[
        (
            "src/pool.rs",
            "pub struct Pool { size: usize }\n\
             impl Pool {\n    pub fn with_size(size: usize) -> Self { Pool { size } }\n    \
             pub fn resize(&mut self, size: usize) { self.size = size; }\n    \
             pub fn spawn_worker(&self) -> usize { self.size }\n}\n",
        ),
        (
            "src/idle.rs",
            "/// Stops the idle workers once their keep-alive has passed.\n\
             pub fn stop_idle(workers: &mut Vec<u64>, keep_alive: u64) { workers.retain(|w| *w < keep_alive); }\n",
        ),
        ("src/lib.rs", "pub mod idle;\npub mod pool;\n"),
    ]);
    // What the reporter's program printed: the pool's words, many times over.
    let issue = "Idle workers stay after their keep-alive\n\n\
                 ```\n[pool] resize pool to 8\n[pool] spawn worker 1\n[pool] resize pool to 2\n```\n";
    let ranked = rank(&index, issue);
    assert_eq!(order(&ranked)[..2], ["src/idle.rs", "src/pool.rs"], "{ranked:#?}");
}

#[test]
fn the_file_the_title_points_at_is_not_drowned_by_the_names_of_a_reproduction() {
    let (_dir, index) = index(&[
        (
            "src/builder.rs",
            "pub struct Command { about: String, long_about: String, subcommands: Vec<Command>, args: Vec<Arg> }\n\
             impl Command {\n    pub fn new(name: &str) -> Self { todo!() }\n    \
             pub fn about(mut self, text: &str) -> Self { self.about = text.into(); self }\n    \
             pub fn long_about(mut self, text: &str) -> Self { self.long_about = text.into(); self }\n    \
             pub fn subcommand(mut self, sub: Command) -> Self { self.subcommands.push(sub); self }\n    \
             pub fn arg(mut self, arg: Arg) -> Self { self.args.push(arg); self }\n}\n\
             pub struct Arg { help: String }\n\
             impl Arg {\n    pub fn new(id: &str) -> Self { todo!() }\n    \
             pub fn help(mut self, text: &str) -> Self { self.help = text.into(); self }\n}\n",
        ),
        (
            "src/output/help.rs",
            "/// Breaks long lines of the help text to fit the terminal.\n\
             pub fn wrap(text: &str, width: usize) -> Vec<String> { vec![text.into()] }\n\
             /// The width of the terminal, or 100 when it cannot be told.\n\
             pub fn terminal_width() -> usize { 100 }\n",
        ),
        ("src/output/mod.rs", "pub mod help;\n"),
        ("src/lib.rs", "pub mod builder;\npub mod output;\n"),
    ]);
    let issue = "Long lines wrap at the wrong terminal width\n\n\
                 ```rust\nlet cmd = Command::new(\"app\")\n    .about(\"An app\")\n    .long_about(\"An app, at length\")\n    \
                 .arg(Arg::new(\"level\").help(\"How loud\"))\n    \
                 .subcommand(Command::new(\"run\").about(\"Runs\").arg(Arg::new(\"fast\").help(\"Quickly\")));\n```\n";
    let ranked = rank(&index, issue);
    assert_eq!(ranked[0].path, "src/output/help.rs", "{ranked:#?}");
    assert!(
        reasons_of(&ranked, "src/output/help.rs").contains(&"ranked 1 for the title alone".to_owned()),
        "{ranked:#?}"
    );
    // The crate root ranks on the title's centrality alone: the title does not point at it.
    assert!(!reasons_of(&ranked, "src/lib.rs").iter().any(|r| r.contains("title alone")), "{ranked:#?}");
    // The whole issue read alone ranks the code the reproduction calls first.
    let whole_only = rank_with(&index, issue, &Weights { title: 0.0, ..WEIGHTS });
    assert_eq!(whole_only[0].path, "src/builder.rs", "{whole_only:#?}");
}

#[test]
fn the_code_that_reads_a_setting_the_issue_names_ranks_above_words_about_it() {
    let (_dir, index) = index(&[
        (
            "src/builder.rs",
            "pub struct Arg { pub requires: Vec<String>, pub conflicts: Vec<String> }\n\
             impl Arg {\n    pub fn new() -> Self { Arg { requires: Vec::new(), conflicts: Vec::new() } }\n    \
             pub fn requires(mut self, other: &str) -> Self { self.requires.push(other.into()); self }\n    \
             pub fn conflicts_with(mut self, other: &str) -> Self { self.conflicts.push(other.into()); self }\n}\n",
        ),
        (
            "src/validator.rs",
            "use crate::builder::Arg;\n\
             pub fn validate(args: &[Arg], given: &[String]) {\n    for arg in args {\n        \
             for other in &arg.requires { present(other, given); }\n        \
             if arg.requires.is_empty() && !arg.conflicts.is_empty() { return; }\n    }\n}\n\
             fn present(name: &str, given: &[String]) -> bool { given.iter().any(|g| g == name) }\n",
        ),
        (
            "src/help.rs",
            "/// The help text: what each argument requires, what it conflicts with, and when the\n\
             /// conflicts are bypassed by a default.\n\
             pub fn render(lines: &[String]) -> String { lines.join(\"\\n\") }\n",
        ),
        ("src/lib.rs", "pub mod builder;\npub mod help;\npub mod validator;\n"),
    ]);
    let issue = "`requires` is bypassed when using `conflicts_with`\n\n\
                 ```rust\nlet arg = Arg::new().requires(\"enhance\").conflicts_with(\"destroy\");\n```\n";
    let ranked = rank(&index, issue);
    assert_eq!(order(&ranked)[..2], ["src/builder.rs", "src/validator.rs"], "{ranked:#?}");
    assert!(
        reasons_of(&ranked, "src/validator.rs").contains(&"uses `requires` 2 times, named in the issue".to_owned()),
        "{ranked:#?}"
    );
    // It points at its first use of the setting (the index keeps how often, not where).
    let pointed = rank_for(&index, &issue::analyze(issue));
    assert_eq!(pointed.iter().find(|r| r.path == "src/validator.rs").and_then(RankedFile::line), Some(4));
    // Without the uses, the file that only speaks of the setting stands above the one reading it.
    let without_uses = rank_with(&index, issue, &Weights { uses: 0.0, ..WEIGHTS });
    assert_eq!(order(&without_uses)[..2], ["src/builder.rs", "src/help.rs"], "{without_uses:#?}");
}

#[test]
fn the_ten_best_ranked_files_that_only_use_a_named_name_point_at_a_use() {
    let mut files = vec![(
        "src/builder.rs".to_owned(),
        "pub struct Arg { pub requires: Vec<String> }\nimpl Arg {\n    pub fn new() -> Self { Arg { requires: Vec::new() } }\n}\n"
            .to_owned(),
    )];
    for n in 0..9 {
        let mut text = format!("use crate::builder::Arg;\n\npub fn check_{n}(arg: &Arg) -> usize {{\n");
        for _ in 0..=n {
            text.push_str("    let _ = arg.requires.len();\n");
        }
        text.push_str("    0\n}\n");
        files.push((format!("src/check_{n}.rs"), text));
    }
    let files: Vec<(&str, &str)> = files.iter().map(|(path, text)| (path.as_str(), text.as_str())).collect();
    let (_dir, index) = index(&files);
    let ranked =
        rank_for(&index, &issue::analyze("`requires` is ignored\n\nSetting `requires` on an `Arg` does nothing."));
    let users: Vec<&RankedFile> = ranked.iter().take(10).filter(|r| r.path.starts_with("src/check_")).collect();
    assert_eq!(users.len(), 9, "{ranked:#?}");
    for user in users {
        assert_eq!(user.line(), Some(3), "{} points at its use of `Arg`: {ranked:#?}", user.path);
    }
}

#[test]
fn a_file_ranked_on_the_issues_words_alone_points_at_where_they_gather() {
    let (_dir, index) = index(&[
        (
            "src/walk.rs",
            "//! The walk.\n\npub fn start() -> u8 {\n    0\n}\n\npub fn enter(depth: u8) -> u8 {\n    depth + 1\n}\n\n\
             /// Whether the walk stops: once the number of results reaches the limit.\n\
             pub fn stops(found: usize, limit: usize) -> bool {\n    found >= limit\n}\n",
        ),
        ("src/lib.rs", "pub mod walk;\n"),
        (
            "tests/walk.rs",
            "#[test]\nfn starts() {}\n\n#[test]\nfn stops_at_the_limit() {\n    // Once the number of results reaches it.\n}\n",
        ),
    ]);
    let mut ranked =
        rank_for(&index, &issue::analyze("Limit the number of results\n\nA limit on the results, please."));
    assert!(ranked.iter().all(|file| file.gathered.is_none()), "a ranking leaves it to what lists the files");
    point_at_words_on_disk(&mut ranked, &index);
    let walk = ranked.iter().find(|file| file.path == "src/walk.rs").expect("ranked");
    assert!(walk.lines.is_empty(), "no reason points into it: {walk:?}");
    assert_eq!(walk.line(), Some(11), "the comment of the function the words gather in, not the top: {walk:?}");
    let test = ranked.iter().find(|file| file.path == "tests/walk.rs").expect("ranked");
    assert_eq!(test.line(), Some(5), "a test file's words count there: {test:?}");
    // A reason's own line comes first: the definition the issue names.
    let mut named = rank_for(&index, &issue::analyze("`stops` ignores the limit\n\nThe number of results passes it."));
    point_at_words_on_disk(&mut named, &index);
    let walk = named.iter().find(|file| file.path == "src/walk.rs").expect("ranked");
    assert_eq!(walk.line(), Some(12), "{walk:?}");
}

#[test]
fn an_explanation_adds_up_to_the_files_score_and_place() {
    let (_dir, index) = index(&[
        (
            "src/limiter.rs",
            "/// Limits requests.\npub struct RateLimiter;\nimpl RateLimiter {\n    pub fn try_acquire(&self) -> bool { true }\n}\n",
        ),
        ("src/pool.rs", "use crate::limiter::RateLimiter;\npub fn take(l: &RateLimiter) -> bool { l.try_acquire() }\n"),
        ("src/lib.rs", "pub mod limiter;\npub mod pool;\n"),
        ("tests/limits.rs", "#[test]\nfn try_acquire_limits_requests() {}\n"),
    ]);
    let query = issue::analyze("`try_acquire` never limits\n\n```rust\nlet ok = limiter.try_acquire();\n```\n");
    let ranked = rank_for(&index, &query);
    let signals = signals_for(&index, &query);
    for (place, file) in ranked.iter().enumerate() {
        let explained = explain(&index, &ranked, &signals, &WEIGHTS, &file.path, &disk_reader(&index)).expect("ranked");
        assert_eq!((explained.place, explained.ranked), (place + 1, ranked.len()));
        let title = explained.title.as_ref().expect("the body holds code, so the title is read alone");
        for reading in [&explained.whole, title] {
            let summed = reading.sum() * reading.sunk_share();
            assert!((summed - reading.score).abs() < 1e-9, "{}: {summed} against {}", file.path, reading.score);
        }
        let total = explained.whole.score + title.weight * title.score;
        assert!((total - file.score).abs() < 1e-9, "{}: {total} against {}", file.path, file.score);
    }
    let explain = |path: &str| explain(&index, &ranked, &signals, &WEIGHTS, path, &disk_reader(&index));
    let limiter = explain("src/limiter.rs").unwrap();
    let symbols = limiter.whole.parts.iter().find(|part| part.signal == "symbols").unwrap();
    assert!(symbols.value > 0.0, "it defines `try_acquire`: {limiter:?}");
    let test = explain("tests/limits.rs").unwrap();
    assert_eq!(test.whole.sinks, Some(SUNK_TEST), "{test:?}");
    assert!(explain("src/nope.rs").is_none());
}

#[test]
fn only_the_uses_that_reach_the_workspaces_definition_count_as_uses_of_a_named_name() {
    let (_dir, index) = index(&[
        ("src/error.rs", "pub struct Error { pub source: Option<String> }\n"),
        (
            "src/parse.rs",
            "use crate::error::Error;\npub fn parse(text: &str) -> Result<(), Error> { Err(Error { source: None }) }\n",
        ),
        ("src/net.rs", "use std::io;\npub fn connect() -> Result<(), io::Error> { Err(io::Error::other(\"down\")) }\n"),
        ("src/lib.rs", "pub mod error;\npub mod net;\npub mod parse;\n"),
    ]);
    let ranked = rank(&index, "`Error` loses its `source`");
    assert!(
        reasons_of(&ranked, "src/parse.rs").contains(&"uses `Error` 2 times, named in the issue".to_owned()),
        "{ranked:#?}"
    );
    // `io::Error` beside `use std::io` is the standard library's: no use of the workspace's `Error`.
    assert!(!reasons_of(&ranked, "src/net.rs").iter().any(|r| r.starts_with("uses")), "{ranked:#?}");
}

#[test]
fn a_java_file_means_java_lang_by_its_names_unless_it_brings_in_the_workspaces() {
    let shape = "src/main/java/com/acme/cfg/InputShape.java";
    let (_dir, index) = index(&[
        (shape, "package com.acme.cfg;\npublic enum InputShape { Array, Object, String }\n"),
        // `Object` and `String` are java.lang's here, however often.
        (
            "src/main/java/com/acme/Mapper.java",
            "package com.acme;\npublic class Mapper {\n  Object read(String s) { Object o = s; return o; }\n  \
             Object copy(Object o) { return o; }\n}\n",
        ),
        // A workspace `Error` in the same package needs no import; one elsewhere does.
        ("src/main/java/com/acme/Error.java", "package com.acme;\npublic class Error { String text; }\n"),
        (
            "src/main/java/com/acme/Reader.java",
            "package com.acme;\nclass Reader { Error last; Error fail() { return last; } }\n",
        ),
        ("src/main/java/com/acme/io/Writer.java", "package com.acme.io;\nclass Writer { Error last; }\n"),
        (
            "src/main/java/com/acme/io/Sink.java",
            "package com.acme.io;\nimport com.acme.Error;\nclass Sink { Error last; }\n",
        ),
    ]);
    let ranked = rank(&index, "`Object` input shape and `Error` are mishandled");
    assert!(
        !reasons_of(&ranked, "src/main/java/com/acme/Mapper.java").iter().any(|r| r.starts_with("uses")),
        "{ranked:#?}"
    );
    for (path, reason) in [
        ("src/main/java/com/acme/Reader.java", "uses `Error` 2 times, named in the issue"),
        ("src/main/java/com/acme/io/Sink.java", "uses `Error`, named in the issue"),
    ] {
        assert!(reasons_of(&ranked, path).contains(&reason.to_owned()), "{path}: {ranked:#?}");
    }
    assert!(
        !reasons_of(&ranked, "src/main/java/com/acme/io/Writer.java").iter().any(|r| r.starts_with("uses")),
        "{ranked:#?}"
    );
}

#[test]
fn a_java_file_uses_the_namesake_its_imports_or_package_bring_in() {
    let java = |path: &str| format!("src/main/java/com/acme/{path}");
    let (_dir, index) = index(&[
        (java("graph/Node.java").as_str(), "package com.acme.graph;\npublic class Node {}\n"),
        (java("tree/Node.java").as_str(), "package com.acme.tree;\npublic class Node {}\n"),
        (
            java("app/Walk.java").as_str(),
            "package com.acme.app;\nimport com.acme.graph.Node;\nclass Walk { Node at; }\n",
        ),
        (
            java("app/Path.java").as_str(),
            "package com.acme.app;\nimport com.acme.graph.*;\nclass Path { Node[] nodes; }\n",
        ),
        (java("tree/Leaf.java").as_str(), "package com.acme.tree;\nclass Leaf { Node parent; }\n"),
        (
            java("app/Prune.java").as_str(),
            "package com.acme.app;\nimport com.acme.tree.Node;\nclass Prune { Node cut; }\n",
        ),
        // A library's `Node`, however often, is none of the workspace's.
        (
            java("app/Dom.java").as_str(),
            "package com.acme.app;\nimport org.w3c.dom.Node;\nclass Dom { Node a; Node b; Node c() { return a; } }\n",
        ),
    ]);
    let ranked = rank(&index, "A `Node` is lost");
    // Each namesake is the only one its users mean, so it is central for them.
    assert_central(&ranked, &java("graph/Node.java"), 2);
    assert_central(&ranked, &java("tree/Node.java"), 2);
    assert!(reasons_of(&ranked, &java("app/Walk.java")).contains(&"uses `Node`, named in the issue".to_owned()));
    assert!(!reasons_of(&ranked, &java("app/Dom.java")).iter().any(|r| r.starts_with("uses")), "{ranked:#?}");
}

#[test]
fn a_script_uses_the_namesake_its_import_leads_to() {
    let (_dir, index) = index(&[
        ("src/ui/button.ts", "export class Button {}\n"),
        ("src/ui/index.ts", "export { Button } from './button';\n"),
        ("src/forms/button.ts", "export class Button {}\n"),
        ("src/app/toolbar.ts", "import { Button } from '../ui';\nexport const bar = new Button();\n"),
        ("src/app/menu.ts", "import { Button } from '../ui/button';\nexport const item = new Button();\n"),
        ("src/app/signup.ts", "import { Button } from '../forms/button';\nexport const send = new Button();\n"),
        ("src/app/login.ts", "import { Button } from '../forms/button';\nexport const enter = new Button();\n"),
        // A package's `Button`, however often, is none of the workspace's.
        (
            "src/app/dialog.ts",
            "import { Button } from '@mui/material';\nexport const ok = new Button(), no = new Button();\n",
        ),
    ]);
    let ranked = rank(&index, "A `Button` is lost");
    // Each namesake is the only one its importers mean, so it is central for them.
    assert_central(&ranked, "src/ui/button.ts", 2);
    assert_central(&ranked, "src/forms/button.ts", 2);
    assert!(reasons_of(&ranked, "src/app/toolbar.ts").contains(&"uses `Button`, named in the issue".to_owned()));
    assert!(!reasons_of(&ranked, "src/app/dialog.ts").iter().any(|r| r.starts_with("uses")), "{ranked:#?}");
}

#[test]
fn a_rust_file_uses_the_namesake_its_use_leads_to() {
    let (_dir, index) = index(&[
        ("Cargo.toml", "[package]\nname = \"kit\"\n"),
        ("src/lib.rs", "pub mod rt;\npub mod io;\nmod spawn;\nmod block;\nmod read;\nmod write;\n"),
        ("src/rt/mod.rs", "mod handle;\npub use self::handle::Handle;\n"),
        ("src/rt/handle.rs", "pub struct Handle;\n"),
        ("src/io.rs", "pub struct Handle;\n"),
        // Through the module that re-exports it, and straight from its file.
        ("src/spawn.rs", "use crate::rt::Handle;\npub fn spawn(h: &Handle) {}\n"),
        ("src/block.rs", "use crate::rt::Handle;\npub fn block(h: &Handle) {}\n"),
        ("src/read.rs", "use crate::io::Handle;\npub fn read(h: &Handle) {}\n"),
        ("src/write.rs", "use crate::io::Handle;\npub fn write(h: &Handle) {}\n"),
    ]);
    let ranked = rank(&index, "A `Handle` is lost");
    // Each namesake is the only one its users mean, so it is central for them.
    assert_central(&ranked, "src/rt/handle.rs", 2);
    assert_central(&ranked, "src/io.rs", 2);
}

#[test]
fn the_java_code_that_checks_a_feature_the_issue_names_uses_it() {
    let feature = "src/main/java/com/acme/Feature.java";
    let (_dir, index) = index(&[
        (feature, "package com.acme;\npublic enum Feature { WRAP_ROOT, FAIL_ON_EMPTY }\n"),
        (
            "src/main/java/com/acme/Writer.java",
            "package com.acme;\nclass Writer {\n  void write(Config c) { if (c.isEnabled(Feature.WRAP_ROOT)) { open(); } }\n}\n",
        ),
        ("src/main/java/com/acme/cfg/Shape.java", "package com.acme.cfg;\npublic enum Shape { Array, String }\n"),
        (
            "src/main/java/com/acme/cfg/Coercion.java",
            "package com.acme.cfg;\nclass Coercion {\n  Shape of(Object v) { return v instanceof CharSequence ? Shape.String : Shape.Array; }\n}\n",
        ),
    ]);
    let ranked = rank(&index, "`WRAP_ROOT` is ignored for a `String`");
    assert!(
        reasons_of(&ranked, "src/main/java/com/acme/Writer.java")
            .contains(&"uses `WRAP_ROOT`, named in the issue".to_owned()),
        "{ranked:#?}"
    );
    // `String` alone is Java's: reading the constant `Shape.String` is no use of it.
    assert!(
        !reasons_of(&ranked, "src/main/java/com/acme/cfg/Coercion.java").iter().any(|r| r.starts_with("uses")),
        "{ranked:#?}"
    );
    assert!(
        !reasons_of(&ranked, "src/main/java/com/acme/cfg/Shape.java").iter().any(|r| r.starts_with("defines")),
        "{ranked:#?}"
    );
}

#[test]
fn a_script_means_the_languages_globals_unless_it_imports_the_workspaces() {
    let (_dir, index) = index(&[
        ("src/schemas/partial.ts", "export function Partial<T>(schema: T): T { return schema; }\n"),
        // TypeScript's own `Partial<T>`, however often.
        (
            "src/types.ts",
            "export interface User { name: string }\nexport type Draft = Partial<User>;\n\
             export function edit(draft: Partial<User>): Partial<User> { return draft; }\n",
        ),
        ("src/form.ts", "import { Partial } from './schemas/partial';\nexport const loose = Partial({ name: 'x' });\n"),
    ]);
    let ranked = rank(&index, "`Partial` keeps required keys");
    assert!(
        reasons_of(&ranked, "src/form.ts").contains(&"uses `Partial`, named in the issue".to_owned()),
        "{ranked:#?}"
    );
    assert!(!reasons_of(&ranked, "src/types.ts").iter().any(|r| r.starts_with("uses")), "{ranked:#?}");
}

#[test]
fn a_definition_named_alone_and_through_its_type_is_one_reason() {
    let feature = "src/main/java/com/acme/Settings.java";
    let (_dir, index) = index(&[
        (feature, "package com.acme;\nenum Feature { WRAP_ROOT, FAIL_ON_EMPTY }\n"),
        ("src/main/java/com/acme/Mapper.java", "package com.acme;\nclass Mapper { boolean wrap; }\n"),
    ]);
    let ranked = rank(&index, "`WRAP_ROOT` is ignored\n\nWith `Feature.WRAP_ROOT` enabled the root is not wrapped.");
    let reasons = reasons_of(&ranked, feature);
    assert!(reasons.contains(&"defines `Feature::WRAP_ROOT` (variant), named in the issue".to_owned()), "{reasons:?}");
    assert!(!reasons.iter().any(|r| r.starts_with("defines `WRAP_ROOT`")), "said twice: {reasons:?}");
}

#[test]
fn a_method_call_is_no_use_of_a_named_free_function() {
    let (_dir, index) = index(&[
        ("src/parse.rs", "pub fn parse(text: &str) -> usize { text.len() }\n"),
        ("src/cli.rs", "pub fn run(line: &str) -> usize { crate::parse::parse(line) }\n"),
        ("src/json.rs", "pub fn load(text: &str) -> u64 { text.parse().unwrap() }\n"),
        ("src/lib.rs", "pub mod cli;\npub mod json;\npub mod parse;\n"),
    ]);
    let ranked = rank(&index, "`parse` miscounts a line");
    assert!(reasons_of(&ranked, "src/cli.rs").contains(&"uses `parse`, named in the issue".to_owned()), "{ranked:#?}");
    assert!(!reasons_of(&ranked, "src/json.rs").iter().any(|r| r.starts_with("uses")), "{ranked:#?}");
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
    assert_eq!((ranked[0].path.as_str(), ranked[0].line()), ("src/main/java/acme/Pool.java", Some(3)), "{ranked:#?}");

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
        ("src/users/c.rs", "fn third() { helper(); len(); }\n"),
        ("src/solo/lonely.rs", "pub fn alone() {}\n"),
        // `len` has a namesake: whose each use is stays open, so it makes nothing central.
        ("src/sizes/bytes.rs", "pub fn len() {}\n"),
        ("src/sizes/chars.rs", "pub fn len() {}\n"),
        ("src/sizes/d.rs", "fn d() { len(); }\n"),
        ("src/sizes/e.rs", "fn e() { len(); }\n"),
    ]);
    let ranked = rank(&index, "Crash in `alone`");
    assert_eq!(ranked[0].path, "src/solo/lonely.rs");
    for file in &ranked {
        assert!(!file.reasons.is_empty(), "{file:?}");
    }
    let util = ranked.iter().find(|r| r.path == "src/util.rs").unwrap();
    assert!(util.reasons.contains(&"central: 3 files use names only it defines".to_owned()), "{util:?}");
    let bytes = ranked.iter().find(|r| r.path == "src/sizes/bytes.rs").unwrap();
    assert_eq!(bytes.reasons, ["nothing in the issue points here"], "{bytes:?}");
    let a = ranked.iter().find(|r| r.path == "src/users/a.rs").unwrap();
    assert_eq!(a.reasons, ["nothing in the issue points here"], "it uses, nothing uses it");

    // Where nothing uses anything, nothing is central; the top folder is named as such.
    let (_unlinked_dir, unlinked) = self::index(&[("x.rs", "pub fn alone() {}\n"), ("y.rs", "pub fn other() {}\n")]);
    let ranked = rank(&unlinked, "Crash in `alone`");
    assert_eq!(ranked[1].reasons, ["same package as `x.rs` (the top folder)"], "{ranked:?}");
}

#[test]
fn a_method_call_uses_no_free_function_of_its_name() {
    let (_dir, index) = index(&[
        // Free functions named like the methods of `Iterator` and `Result`, and an associated
        // function without `self`: `.collect()` and `.ok()` can reach none of them.
        ("src/gather.rs", "pub fn collect(parts: &[u8]) -> Vec<u8> { parts.to_vec() }\n"),
        ("src/outcome.rs", "pub struct Outcome;\nimpl Outcome {\n    pub fn ok() -> Self { Outcome }\n}\n"),
        ("src/a.rs", "fn a(v: Vec<u8>) -> Vec<u8> { v.into_iter().collect() }\n"),
        ("src/b.rs", "fn b(v: Vec<u8>) -> Option<u8> { v.iter().copied().collect::<Vec<_>>(); \"1\".parse().ok() }\n"),
        ("src/c.rs", "fn c(v: &[u8]) -> Option<()> { v.first().map(|_| ()).ok_or(()).ok() }\n"),
        // A method with `self` is what a method call may reach.
        ("src/sizes.rs", "pub struct Sizes;\nimpl Sizes {\n    pub fn total(&self) -> u32 { 0 }\n}\n"),
        ("src/d.rs", "fn d(s: &crate::sizes::Sizes) -> u32 { s.total() }\n"),
        ("src/e.rs", "fn e(s: &crate::sizes::Sizes) -> u32 { s.total() + 1 }\n"),
        ("src/solo/lonely.rs", "pub fn alone() {}\n"),
    ]);
    let ranked = rank(&index, "Crash in `alone`");
    assert_eq!(reasons_of(&ranked, "src/gather.rs"), ["nothing in the issue points here"], "{ranked:?}");
    assert_eq!(reasons_of(&ranked, "src/outcome.rs"), ["nothing in the issue points here"], "{ranked:?}");
    assert_central(&ranked, "src/sizes.rs", 2);

    // A plain call of the free function is a use of it.
    let (_dir, called) = self::index(&[
        ("src/gather.rs", "pub fn collect(parts: &[u8]) -> Vec<u8> { parts.to_vec() }\n"),
        ("src/a.rs", "fn a() -> Vec<u8> { crate::gather::collect(&[1]) }\n"),
        ("src/b.rs", "fn b() -> Vec<u8> { collect(&[2]).into_iter().collect() }\n"),
        ("src/solo/lonely.rs", "pub fn alone() {}\n"),
    ]);
    let ranked = rank(&called, "Crash in `alone`");
    assert_central(&ranked, "src/gather.rs", 2);
}

#[test]
fn a_traits_method_is_called_only_where_the_trait_is_in_scope() {
    let (_dir, index) = index(&[
        ("src/ext.rs", "pub trait Gather {\n    fn gather(&self) -> u8 { 0 }\n}\n"),
        // Another type's `gather`, with no `use` of the trait: not the trait's.
        ("src/a.rs", "fn a(v: &Bag) -> u8 { v.gather() }\n"),
        ("src/b.rs", "use crate::ext::Gather;\nfn b(v: &u8) -> u8 { v.gather() }\n"),
        ("src/c.rs", "use crate::ext::Gather as _;\nfn c(v: &u8) -> u8 { v.gather() }\n"),
        ("src/solo/lonely.rs", "pub fn alone() {}\n"),
    ]);
    let ranked = rank(&index, "Crash in `alone`");
    assert_central(&ranked, "src/ext.rs", 2);
}

#[test]
fn a_method_an_impl_of_a_trait_holds_is_called_only_where_that_trait_is_in_scope() {
    let (_dir, index) = index(&[
        (
            "src/bag.rs",
            "pub struct Bag;\nimpl std::io::Read for Bag {\n    fn read(&mut self, b: &mut [u8]) -> std::io::Result<usize> { Ok(0) }\n}\n\
             impl Iterator for Bag {\n    type Item = u8;\n    fn next(&mut self) -> Option<u8> { None }\n}\n\
             impl crate::ext::Gather for Bag {\n    fn pick(&self) -> u8 { 0 }\n}\n",
        ),
        ("src/ext.rs", "pub trait Gather {\n    fn gather(&self) -> u8 { 0 }\n}\n"),
        // `Read` is not in scope here, so `read` is another type's; `Iterator` is in the prelude.
        ("src/a.rs", "fn a(f: &mut File, b: &mut [u8]) { f.read(b); }\n"),
        ("src/b.rs", "use std::io::Read;\nfn b(f: &mut File, b: &mut [u8]) { f.read(b); }\n"),
        ("src/c.rs", "fn c(mut i: std::vec::IntoIter<u8>) { i.next(); }\n"),
        // The workspace's trait `Gather`, by the rules of a trait the workspace declares.
        ("src/d.rs", "fn d(v: &Other) -> u8 { v.pick() }\n"),
        ("src/e.rs", "use crate::ext::Gather;\nfn e(v: &Bag) -> u8 { v.pick() }\n"),
        ("src/solo/lonely.rs", "pub fn alone() {}\n"),
    ]);
    let ranked = rank(&index, "Crash in `alone`");
    assert_central(&ranked, "src/bag.rs", 3);
}

#[test]
fn the_standard_librarys_names_use_nothing_the_workspace_defines_alike() {
    let (_dir, index) = index(&[
        // The crate's own `Result` and `mod std` (as tokio's `loom` has), and what uses them.
        ("src/error.rs", "pub struct Failure;\npub type Result<T> = std::result::Result<T, Failure>;\n"),
        ("src/loom/mod.rs", "mod std;\npub(crate) use self::std::cell;\n"),
        ("src/a.rs", "use std::mem;\nfn a() -> Result<(), ()> { mem::drop(1); Ok(()) }\n"),
        ("src/b.rs", "use std::io;\nfn b() -> io::Result<()> { std::mem::drop(2); Ok(()) }\n"),
        ("src/c.rs", "use core::fmt;\nfn c(f: &mut fmt::Formatter<'_>) -> fmt::Result { Ok(()) }\n"),
        ("src/solo/lonely.rs", "pub fn alone() {}\n"),
    ]);
    let ranked = rank(&index, "Crash in `alone`");
    assert_eq!(reasons_of(&ranked, "src/error.rs"), ["nothing in the issue points here"], "{ranked:?}");
    assert_eq!(reasons_of(&ranked, "src/loom/mod.rs"), ["nothing in the issue points here"], "{ranked:?}");

    // The crate's own, brought in by a `use` or reached by a path, are used.
    let (_dir, own) = self::index(&[
        ("src/error.rs", "pub struct Failure;\npub type Result<T> = std::result::Result<T, Failure>;\n"),
        ("src/a.rs", "use crate::error::Result;\nfn a() -> Result<()> { Ok(()) }\n"),
        ("src/b.rs", "fn b() -> crate::error::Result<()> { todo!() }\n"),
        ("src/solo/lonely.rs", "pub fn alone() {}\n"),
    ]);
    let ranked = rank(&own, "Crash in `alone`");
    assert_central(&ranked, "src/error.rs", 2);
}

#[test]
fn a_crate_the_workspace_depends_on_uses_nothing_it_defines_alike() {
    let files = |depends: &str| {
        index(&[
            ("Cargo.toml", format!("[package]\nname = \"app\"\n{depends}").as_str()),
            ("src/error.rs", "pub struct Failure;\npub type Result<T> = std::result::Result<T, Failure>;\n"),
            ("src/a.rs", "use anyhow::Result;\nfn a() -> Result<()> { Ok(()) }\n"),
            ("src/b.rs", "fn b() -> syn::Result<()> { todo!() }\n"),
            ("src/solo/lonely.rs", "pub fn alone() {}\n"),
        ])
    };
    // What the manifest says the crate depends on is not the workspace's.
    let (_dir, index) = files("[dependencies]\nanyhow = \"1\"\nsyn = \"2\"\n");
    let ranked = rank(&index, "Crash in `alone`");
    assert_eq!(reasons_of(&ranked, "src/error.rs"), ["nothing in the issue points here"], "{ranked:?}");
    // Without it, `anyhow` and `syn` could be modules of the workspace.
    let (_dir, unknown) = files("");
    let ranked = rank(&unknown, "Crash in `alone`");
    assert_central(&ranked, "src/error.rs", 2);
}

#[test]
fn a_name_a_module_takes_from_outside_uses_nothing_the_workspace_defines_alike() {
    let (_dir, index) = index(&[
        ("Cargo.toml", "[package]\nname = \"app\"\n"),
        ("src/lib.rs", "pub mod io;\npub mod error;\nmod a;\nmod b;\nmod solo;\n"),
        ("src/io/mod.rs", "pub use std::io::{Error, Result};\n"),
        ("src/error.rs", "pub struct Failure;\npub type Result<T> = std::result::Result<T, Failure>;\n"),
        ("src/a.rs", "use crate::io;\nfn a() -> io::Result<()> { Ok(()) }\n"),
        ("src/b.rs", "use crate::io::Result;\nfn b() -> Result<()> { Ok(()) }\n"),
        ("src/solo/mod.rs", "pub fn alone() {}\n"),
    ]);
    let ranked = rank(&index, "Crash in `alone`");
    assert_eq!(reasons_of(&ranked, "src/error.rs"), ["nothing in the issue points here"], "{ranked:?}");
}

#[test]
fn a_name_written_after_a_type_from_outside_uses_nothing_the_workspace_defines_alike() {
    let (_dir, index) = index(&[
        ("Cargo.toml", "[package]\nname = \"app\"\n"),
        ("src/lib.rs", "pub mod ready;\nmod a;\nmod b;\nmod solo;\n"),
        ("src/ready.rs", "pub struct Ready(pub u8);\n"),
        ("src/a.rs", "use std::task::Poll;\nfn a() -> Poll<u8> { Poll::Ready(1) }\n"),
        (
            "src/b.rs",
            "use std::task::Poll::{self, Pending};\nfn b(p: Poll<u8>) -> bool { matches!(p, Poll::Ready(_)) }\n",
        ),
        ("src/solo/mod.rs", "pub fn alone() {}\n"),
    ]);
    let ranked = rank(&index, "Crash in `alone`");
    assert_eq!(reasons_of(&ranked, "src/ready.rs"), ["nothing in the issue points here"], "{ranked:?}");
}

#[test]
fn a_name_written_after_a_path_from_outside_uses_nothing_the_workspace_defines_alike() {
    let (_dir, index) = index(&[
        ("Cargo.toml", "[package]\nname = \"app\"\n"),
        ("src/lib.rs", "pub mod failure;\nmod a;\nmod b;\nmod solo;\n"),
        ("src/failure.rs", "pub struct Failure(pub u8);\nimpl Failure {\n    pub fn new() -> Self { Failure(0) }\n}\n"),
        ("src/a.rs", "use std::fmt;\nfn a() -> fmt::Failure { fmt::Failure::new() }\n"),
        ("src/b.rs", "fn b() -> std::io::Failure { std::io::Failure::last() }\n"),
        ("src/solo/mod.rs", "pub fn alone() {}\n"),
    ]);
    let ranked = rank(&index, "Crash in `alone`");
    assert_eq!(reasons_of(&ranked, "src/failure.rs"), ["nothing in the issue points here"], "{ranked:?}");
}

#[test]
fn the_forge_links_of_an_issue_template_are_no_words_of_the_issue() {
    let (_dir, index) = index(&[
        (
            "src/lib.rs",
            "//! Report bugs at https://github.com/acme/walker/issues and ask in\n\
             //! https://github.com/acme/walker/discussions.\npub mod walk;\n",
        ),
        ("src/walk.rs", "pub fn walk_hidden() {}\n"),
    ]);
    let ranked = rank(
        &index,
        "Hidden files are walked\n- [X] I searched the [open](https://github.com/acme/walker/issues?q=is%3Aopen) \
         and [closed](https://github.com/acme/walker/discussions) ones\n\n`walk_hidden` walks them.",
    );
    let reasons = reasons_of(&ranked, "src/lib.rs");
    let link_words = ["github", "com", "https", "acme", "walker"];
    assert!(!reasons.iter().any(|r| link_words.iter().any(|w| r.contains(w))), "{reasons:?}");
    assert_eq!(ranked[0].path, "src/walk.rs", "{ranked:?}");
}

#[test]
fn a_namesake_is_said_to_be_named_by_the_qualifier_that_holds_it() {
    let (_dir, index) = index(&[
        ("src/json/utf8.rs", "pub struct Utf8Parser;\nimpl Utf8Parser {\n    pub fn parse_number(&self) {}\n}\n"),
        ("src/json/reader.rs", "pub struct ReaderParser;\nimpl ReaderParser {\n    pub fn parse_number(&self) {}\n}\n"),
    ]);
    let ranked = rank(&index, "`json::utf8::Utf8Parser::parse_number` overflows");
    let reason = |path: &str| ranked.iter().find(|r| r.path == path).unwrap().reasons.clone();
    assert!(
        reason("src/json/utf8.rs").contains(&"defines `Utf8Parser::parse_number` (method), named in the issue".into()),
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
    // A macro the workspace does not define (`std`'s) names nothing of that name in it.
    let (_dir, index) = self::index(&[
        ("src/lib.rs", "pub mod format;\npub mod pool;\n"),
        ("src/format.rs", "pub fn render() {}\n"),
        ("src/pool.rs", "pub fn drain() {}\n"),
    ]);
    let ranked = rank(&index, "Draining panics\n\n`format!(\"{}\", pool::drain())` panics");
    let lib = ranked.iter().find(|f| f.path == "src/lib.rs").unwrap();
    assert!(!lib.reasons.iter().any(|r| r.contains("`format` (module)")), "{lib:?}");
    assert!(is_macro_crate_of("serdederive", "serde") && is_macro_crate_of("tracingattributes", "tracing"));
    assert!(!is_macro_crate_of("crates", "crate") && !is_macro_crate_of("tokioutil", "tokio"));
    assert!(!is_macro_crate_of("macros", ""), "a qualifier of underscores (`_.debounce`) squashes to nothing");
}

/// The path signal alone.
const ONLY_PATHS: Weights = Weights {
    lexical: 0.0,
    symbols: 0.0,
    paths: 1.0,
    relations: 0.0,
    package: 0.0,
    parent: 0.0,
    prior: 0.0,
    title: 0.0,
    uses: 0.0,
};

#[test]
fn a_path_many_files_end_in_alike_says_less_of_each() {
    let lib = "pub fn start() {}\n";
    let issue = "Hangs\n\nthread 'main' panicked at src/lib.rs:1:5 in drain";
    let alpha_score = |crates: &[&str]| {
        let files: Vec<(String, &str)> = crates.iter().map(|name| (format!("{name}/src/lib.rs"), lib)).collect();
        let files: Vec<(&str, &str)> = files.iter().map(|(path, text)| (path.as_str(), *text)).collect();
        let (_dir, index) = index(&files);
        let ranked = rank_with(&index, issue, &ONLY_PATHS);
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
    let named = |issue: &str| -> Vec<String> {
        let ranked = rank_with(&index, issue, &ONLY_PATHS);
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

    assert!(same_package_folder("tokio-1.38.0", "tokio") && same_package_folder("serde", "serde-1.0.200+deprecated"));
    assert!(!same_package_folder("tokio-util", "tokio") && !same_package_folder("tokio-", "tokio"));
    assert!(!same_package_folder("", "-1.0") && !same_package_folder("a-1.0", "b"));
}

#[test]
fn a_path_into_the_workspaces_build_output_names_its_source() {
    let (_dir, index) = index(&[
        ("package.json", "{\"name\": \"typeorm\"}\n"),
        ("src/query-builder/SelectQueryBuilder.ts", "export class SelectQueryBuilder {\n  getQuery() {}\n}\n"),
        ("src/query-builder/QueryBuilder.ts", "export class QueryBuilder {}\n"),
        ("src/index.ts", "export * from './query-builder/SelectQueryBuilder';\n"),
        ("packages/ui/package.json", "{\"name\": \"@acme/ui\"}\n"),
        ("packages/ui/src/button.tsx", "export const Button = () => null;\n"),
    ]);
    let named = |issue: &str| -> Vec<RankedFile> {
        rank_with(&index, issue, &ONLY_PATHS).into_iter().filter(|file| file.score > 0.0).collect()
    };
    // An installed copy of the workspace's package, published without its `src/`.
    let installed = named(
        "Crash\n\n```\nTypeError: x\n    at /home/me/app/node_modules/typeorm/query-builder/SelectQueryBuilder.js:3:5\n```\n",
    );
    assert_eq!(order(&installed), ["src/query-builder/SelectQueryBuilder.ts"], "{installed:?}");
    let reason = "the issue names its built path `query-builder/SelectQueryBuilder.js`";
    assert!(installed[0].reasons.contains(&reason.to_owned()), "{installed:?}");
    assert_ne!(installed[0].line(), Some(3), "a built file's line is not its source's");
    // A scoped package of a monorepo, built into `dist/`; a declaration file.
    let scoped = named("Crash\n\n    at Button (/app/node_modules/@acme/ui/dist/button.js:1:1)\n");
    assert_eq!(order(&scoped), ["packages/ui/src/button.tsx"], "{scoped:?}");
    assert_eq!(order(&named("Types\n\nsee node_modules/typeorm/index.d.ts")), ["src/index.ts"]);
    // The workspace's own build, run from its checkout.
    let built = named("Crash\n\n    at /home/me/typeorm/build/compiled/src/query-builder/QueryBuilder.js:1:1\n");
    assert_eq!(order(&built), ["src/query-builder/QueryBuilder.ts"], "{built:?}");
    // The reporter's own program, built into its `dist/`, names none of the workspace's sources.
    assert!(named("Crash\n\n    at main (/home/me/app/dist/index.js:12:5)\n").is_empty());
}

/// How many trailing components the script source `path` shares with the built script `built`.
fn built_suffix_components(path: &str, built: &str, relative: bool) -> Option<usize> {
    BuiltScript::of(built)?.shared_with(path, relative)
}

proptest::proptest! {
    #[test]
    fn a_built_path_names_its_source_by_its_name_and_folders(
        package in "[a-z]{1,8}",
        folders in proptest::collection::vec("[a-z]{1,6}", 0..3),
        name in "[a-zA-Z][a-zA-Z0-9_]{0,10}",
        source_extension in "(ts|tsx|mts|js)",
        built_extension in "(js|mjs|cjs|d\\.ts)",
        noise in "[a-z/._-]{0,30}",
        relative: bool,
    ) {
        let inner = folders.iter().map(|folder| format!("{folder}/")).collect::<String>();
        let source = format!("{package}/src/{inner}{name}.{source_extension}");
        let built = format!("{package}/dist/{inner}{name}.{built_extension}");
        // The name and the folders inside `src`, then `src` and the package where relative.
        let expected = 1 + folders.len() + if relative { 2 } else { 0 };
        proptest::prop_assert_eq!(built_suffix_components(&source, &built, relative), Some(expected));
        proptest::prop_assert_eq!(built_suffix_components(&source, &format!("{built}.map"), relative), None);
        // Any text at all is read without panicking, and shares no more than it has.
        if let Some(shared) = built_suffix_components(&noise, &built, relative) {
            proptest::prop_assert!(shared <= noise.split('/').count());
        }
        let _ = built_suffix_components(&source, &noise, relative);
    }
}

#[test]
fn a_test_the_issues_trace_runs_through_is_not_ranked_down() {
    let (_dir, index) = index(&[
        ("src/pool.rs", "/// Drains the pool.\npub fn drain_pool() {}\n"),
        ("tests/drain.rs", "#[test]\nfn drains() {\n    pool::drain_pool();\n    assert!(false);\n}\n"),
    ]);
    let traced = "drain_pool leaves work behind\n\nthread 'drains' panicked at tests/drain.rs:4:5:\nassertion failed";
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
fn a_name_only_test_code_defines_names_nothing_unless_the_issue_is_about_tests() {
    let helpers = "pub fn load() {}\n\n#[cfg(test)]\nmod test {\n    fn parse_retries() {}\n}\n";
    let (_dir, index) = index(&[
        ("src/config.rs", helpers),
        ("src/retry.rs", "/// Retries a request.\npub fn retry() {}\n"),
        ("src/lib.rs", "pub mod config;\npub mod retry;\n"),
    ]);
    let names = |issue: &str| -> Vec<String> {
        let ranked = rank(&index, issue);
        ranked.into_iter().find(|f| f.path == "src/config.rs").unwrap().reasons
    };
    // The binary `test-app` and a test module share a name; the module is no code at fault.
    let reasons = names("`parse_retries` gives up early\n\nRun `test-app --retries 3`.");
    assert!(!reasons.iter().any(|r| r.starts_with("defines")), "{reasons:?}");
    let reasons = names("The `parse_retries` test fails on CI\n\nIt is flaky.");
    assert!(reasons.iter().any(|r| r == "defines `parse_retries` (function), named in the issue"), "{reasons:?}");
}

#[test]
fn a_test_that_holds_the_quoted_message_still_sinks() {
    let (_dir, index) = index(&[
        (
            "src/pool.rs",
            "pub fn drain_pool() -> Result<(), String> {\n    Err(\"the pool was closed before draining\".into())\n}\n",
        ),
        (
            "tests/drain.rs",
            "#[test]\nfn drains() {\n    assert_eq!(pool::drain_pool(), Err(\"the pool was closed before draining\".into()));\n}\n",
        ),
    ]);
    let ranked = rank(&index, "Draining fails\n\n```\nerror: the pool was closed before draining\n```");
    assert_eq!(ranked[0].path, "src/pool.rs", "{ranked:?}");
    let test = ranked.iter().find(|r| r.path == "tests/drain.rs").unwrap();
    assert!(test.reasons.iter().any(|r| r.starts_with("holds the message")), "{ranked:?}");
    assert!(test.reasons.iter().any(|r| r == "test code (ranked down)"), "a message is no trace: {ranked:?}");
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
    let ranked = rank(&index, "NPE\n  at com.acme.Lexer.next(Lexer.java:12)\n  at java.base/Thread.run(Thread.java:1)");
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
        top.contains(&"src/runtime/scheduler/multi/worker.rs") && top.contains(&"src/runtime/scheduler/multi/park.rs"),
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
    assert!(ranked[0].reasons.iter().any(|r| r.contains("names its path `src/net/tcp.rs`")), "{:?}", ranked[0].reasons);
}

#[test]
fn subclasses_of_a_named_class_follow_it() {
    let (_dir, index) = index(&[
        ("src/JsonParser.java", "package p; public abstract class JsonParser { public abstract int getNumberType(); }"),
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
fn the_types_a_named_struct_holds_in_its_fields_follow_it() {
    let (dir, index) = index(&[
        (
            "src/task/join_set.rs",
            "use crate::util::IdleSet;\npub struct JoinSet<T> {\n    // Every task, idle or notified.\n    inner: IdleSet<Handle<T>>,\n}\nimpl<T> JoinSet<T> { pub fn len(&self) -> usize { 0 } }\n",
        ),
        (
            "src/util/idle_set.rs",
            "pub struct IdleSet<T> { entries: Vec<T> }\nimpl<T> IdleSet<T> { pub fn pop(&mut self) {} }\n",
        ),
        ("src/util/slab.rs", "pub struct Slab { slots: Vec<u8> }\nimpl Slab { pub fn pop(&mut self) {} }\n"),
        // Structs written on one line, with named and with tuple fields.
        ("src/task/queue.rs", "pub struct Queue { slab: Slab }\npub struct Ticket(Every);\n"),
        // Named only in the struct's comment, not in a field.
        ("src/util/every.rs", "pub struct Every;\n"),
    ]);
    let ranked = rank(&index, "Add `JoinSet::try_next` that pops a finished task without waiting");
    let place = |path: &str| order(&ranked).iter().position(|p| *p == path).expect("ranked");
    assert_eq!(order(&ranked)[0], "src/task/join_set.rs");
    assert!(place("src/util/idle_set.rs") < place("src/util/slab.rs"), "{:?}", order(&ranked));
    assert!(
        reasons_of(&ranked, "src/util/idle_set.rs").iter().any(|r| r == "defines `IdleSet`, which `JoinSet` holds"),
        "{:?}",
        reasons_of(&ranked, "src/util/idle_set.rs")
    );
    assert!(
        !reasons_of(&ranked, "src/util/every.rs").iter().any(|r| r.contains("`JoinSet` holds")),
        "a comment holds nothing"
    );
    let held = ranked.iter().find(|f| f.path == "src/util/idle_set.rs").expect("ranked");
    assert_eq!(held.line(), Some(1), "it opens at the type's definition");

    let ranked = rank(&index, "`Queue` loses a `Ticket` under load");
    assert!(reasons_of(&ranked, "src/util/slab.rs").iter().any(|r| r == "defines `Slab`, which `Queue` holds"));
    assert!(reasons_of(&ranked, "src/util/every.rs").iter().any(|r| r == "defines `Every`, which `Ticket` holds"));

    // The struct's file as the editor holds it, cut short, emptied or gone: what is there is read.
    let issue = issue::analyze("Add `JoinSet::try_next` that pops a finished task without waiting");
    for text in [Some("pub struct JoinSet<T> {\n"), Some(""), Some("}\n{\n(\n"), None] {
        let read = |path: &str| match path {
            "src/task/join_set.rs" => text.map(str::to_owned),
            _ => std::fs::read_to_string(dir.path().join(path)).ok(),
        };
        let ranked = rank_reading(&index, &issue, &read);
        assert!(!ranked.iter().any(|f| f.reasons.iter().any(|r| r.contains("which `JoinSet` holds"))), "{text:?}");
    }
}

#[test]
fn no_file_implements_an_associated_type_the_issue_names() {
    let (_dir, index) = index(&[
        (
            "src/addr.rs",
            "pub trait Resolve { type Future; }\npub struct Addr;\nimpl Resolve for Addr {\n    type Future = Ready;\n}\npub struct Ready;\n",
        ),
        // A glob of the workspace's leaves open whose `Future` this is.
        ("src/rt.rs", "pub use std::future::Future;\n"),
        ("src/task.rs", "use crate::rt::*;\npub struct Task;\nimpl Future for Task { type Output = (); }\n"),
        ("src/host.rs", "use crate::addr::Resolve;\npub struct Host;\nimpl Resolve for Host {}\n"),
    ]);
    let ranked = rank(&index, "A `Future` that never wakes after `Resolve` gives one");
    let implements = |path: &str, name: &str| {
        reasons_of(&ranked, path).iter().any(|r| r == &format!("extends or implements `{name}`"))
    };
    assert!(!implements("src/task.rs", "Future"), "{:?}", reasons_of(&ranked, "src/task.rs"));
    assert!(implements("src/host.rs", "Resolve"), "{:?}", reasons_of(&ranked, "src/host.rs"));
}

#[test]
fn a_file_implementing_a_namesake_from_outside_extends_no_named_type() {
    let (_dir, index) = index(&[
        ("src/future.rs", "pub trait Future { fn poll(&mut self); }\n"),
        ("src/task.rs", "use std::future::Future;\npub struct Task;\nimpl Future for Task { type Output = (); }\n"),
        (
            "src/nested.rs",
            "use crate::future::Future;\npub struct Nested;\nimpl Future for Nested { fn poll(&mut self) {} }\n",
        ),
    ]);
    let ranked = rank(&index, "A `Future` that never wakes");
    let implements = |path: &str| reasons_of(&ranked, path).iter().any(|r| r == "extends or implements `Future`");
    assert!(!implements("src/task.rs"), "the language's: {:?}", reasons_of(&ranked, "src/task.rs"));
    assert!(implements("src/nested.rs"), "the workspace's: {:?}", reasons_of(&ranked, "src/nested.rs"));
}

#[test]
fn a_prelude_name_the_workspace_defines_only_as_an_associated_item_is_the_preludes() {
    let (_dir, index) = index(&[
        (
            "src/time.rs",
            "pub struct Time;\npub struct ParseError;\nimpl std::str::FromStr for Time {\n    type Err = ParseError;\n    fn from_str(s: &str) -> Result<Time, ParseError> { Err(ParseError) }\n}\n",
        ),
        ("src/weekday.rs", "pub enum Weekday { Mon, Fri }\n"),
        (
            "src/parsed.rs",
            "use crate::weekday::Weekday::*;\npub fn day(n: u8) -> Result<crate::weekday::Weekday, ()> {\n    if n == 5 { return Ok(Fri); }\n    if n == 1 { return Ok(Mon); }\n    Err(())\n}\n",
        ),
    ]);
    let ranked = rank(&index, "Parsing gives `Err` for a valid day");
    assert!(
        !reasons_of(&ranked, "src/parsed.rs").iter().any(|r| r.starts_with("uses `Err`")),
        "the glob brings in no `Err`: {:?}",
        reasons_of(&ranked, "src/parsed.rs")
    );
    // Nor does the use graph link it: no file uses a name only `time.rs` defines.
    let signals = signals(&index, "Parsing gives `Err` for a valid day");
    let time = signals_of(&signals, "src/time.rs");
    assert_eq!(time.users, 0, "{time:?}");
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
fn a_module_its_crate_keeps_to_tests_sinks_like_a_test_file() {
    let (_dir, index) = index(&[
        ("Cargo.toml", "[package]\nname = \"kit\"\n"),
        ("src/lib.rs", "mod fs;\nmod walk;\n#[cfg(test)]\nmod mocks;\n"),
        ("src/fs.rs", "pub fn read_dir() {}\n"),
        ("src/walk.rs", "fn walk() { read_dir(); }\n"),
        ("src/mocks.rs", "pub fn read_dir() { record(); }\nfn each() { read_dir(); read_dir(); }\n"),
    ]);
    let ranked = rank(&index, "read_dir skips entries");
    let at = |path: &str| ranked.iter().position(|file| file.path == path).unwrap();
    assert!(at("src/fs.rs") < at("src/mocks.rs") && at("src/walk.rs") < at("src/mocks.rs"), "{ranked:?}");
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
    let ranked = rank(&index, "par_chunks panics on chunk size 0\nFor example, a small demo calling par_chunks(0).");
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
fn code_of_a_package_named_example_is_ranked_as_code_and_its_tests_sink() {
    let files = [
        (
            "src/main/java/com/example/demo/OrderService.java",
            "package com.example.demo;\nclass OrderService { void cancelOrder() {} }\n",
        ),
        (
            "src/test/java/com/example/demo/OrderServiceChecks.java",
            "package com.example.demo;\nclass OrderServiceChecks { void a() { cancelOrder(); cancelOrder(); cancelOrder(); } }\n",
        ),
    ];
    let (_dir, index) = index(&files);
    let ranked = rank(&index, "cancelOrder throws when the order was already shipped");
    assert_eq!(ranked[0].path, "src/main/java/com/example/demo/OrderService.java", "{ranked:?}");
    assert!(!ranked[0].reasons.iter().any(|r| r.contains("example")), "{:?}", ranked[0]);
}

#[test]
fn generated_files_sink_below_the_code_they_are_generated_alongside() {
    let files = [
        (
            "src/parse/generated.rs",
            "// @generated by pest_generator\npub enum Rule { selection_set, field, fragment_spread }\nfn selection_set() {}\nfn field() {}\nfn fragment_spread() {}\n",
        ),
        (
            "src/parse/selection.rs",
            "pub fn parse_selection_set() { parse_field(); parse_fragment_spread(); }\nfn parse_field() {}\nfn parse_fragment_spread() {}\n",
        ),
    ];
    let (_dir, index) = index(&files);
    let ranked = rank(&index, "selection_set with a fragment_spread field fails to parse");
    assert_eq!(order(&ranked), ["src/parse/selection.rs", "src/parse/generated.rs"], "{ranked:?}");
    let reason = "generated by a tool (ranked down): a change goes to its source";
    assert!(reasons_of(&ranked, "src/parse/generated.rs").iter().any(|r| r == reason), "{ranked:?}");
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

#[test]
fn each_files_signals_weighed_give_its_score() {
    let (_dir, index) = index(&[
        ("src/set.rs", "pub struct JoinSet;\nimpl JoinSet { pub fn join_next(&self) {} }\n"),
        ("src/task.rs", "use crate::set::JoinSet;\npub fn spawn(set: &JoinSet) { set.join_next(); }\n"),
        ("src/lib.rs", "mod set; mod task;\n"),
        ("tests/set.rs", "#[test]\nfn joins() { let set = JoinSet; set.join_next(); }\n"),
    ]);
    let signals = signals(&index, "`JoinSet::join_next` hangs after a spawn");
    let ranked = combine(&signals, &WEIGHTS);
    let files = signals.per_file();
    assert_eq!(files.len(), ranked.len());
    for file in &files {
        let w = &WEIGHTS;
        let sum = w.lexical * file.lexical
            + w.symbols * file.symbols
            + w.uses * file.uses
            + w.paths * file.paths
            + w.relations * file.relations
            + w.package * file.package
            + w.parent * file.parent
            + w.prior * file.prior;
        let expected = if file.sinks { sum * SUNK_SHARE } else { sum };
        let score = ranked.iter().find(|r| r.path == file.path).map(|r| r.score);
        assert_eq!(score, Some(expected), "{file:?}");
    }
    let test = files.iter().find(|f| f.path == "tests/set.rs").expect("the test file");
    assert!(test.sinks && test.symbols == 0.0, "{test:?}");
    let set = files.iter().find(|f| f.path == "src/set.rs").expect("the named file");
    assert!(!set.sinks && set.symbols > 0.0 && set.users >= 1, "{set:?}");
    // The file that calls the named method uses it; the file defining it does not.
    let task = files.iter().find(|f| f.path == "src/task.rs").expect("the calling file");
    assert!(task.uses > 0.0 && set.uses == 0.0, "{task:?} {set:?}");
}

#[test]
fn a_name_written_only_as_a_type_uses_no_enum_constant_of_its_name() {
    let java = |path: &str| format!("src/main/java/com/acme/{path}");
    let (_dir, index) = index(&[
        (java("type/LogicalType.java").as_str(), "package com.acme.type;\npublic enum LogicalType { Map, Array }\n"),
        (
            java("introspect/Collector.java").as_str(),
            "package com.acme.introspect;\nimport java.util.Map;\nclass Collector { Map<String, Object> found; Map<String, Object> all() { return found; } }\n",
        ),
        (
            java("deser/Chooser.java").as_str(),
            "package com.acme.deser;\nimport com.acme.type.LogicalType;\nclass Chooser { boolean mapped(LogicalType t) { return t == LogicalType.Map; } }\n",
        ),
    ]);
    let ranked = rank(&index, "A `Map` is lost");
    assert!(reasons_of(&ranked, &java("deser/Chooser.java")).contains(&"uses `Map`, named in the issue".to_owned()));
    assert!(
        !reasons_of(&ranked, &java("introspect/Collector.java")).iter().any(|r| r.starts_with("uses")),
        "{ranked:#?}"
    );
}

#[test]
fn the_owner_of_a_member_the_workspace_lacks_counts_as_the_member() {
    let files = [
        ("src/io/ready.rs", "pub struct Ready(u8);\nimpl Ready { pub const READ_CLOSED: Ready = Ready(4); }\n"),
        (
            "src/io/interest.rs",
            "pub struct Interest(u8);\nimpl Interest { pub const READABLE: Interest = Interest(1); }\n",
        ),
        ("src/io/mod.rs", "mod interest;\nmod ready;\n"),
    ];
    let issue = "Wait for the error queue\nAdding `Ready::ERROR` is easy; `Interest` wraps mio's.";
    let symbols_of = |index: &Index| {
        let signals = signals(index, issue);
        (signals_of(&signals, "src/io/ready.rs").symbols, signals_of(&signals, "src/io/interest.rs").symbols)
    };
    // `ERROR` is nowhere: the fix adds it to `Ready`, named as surely as `Interest`, and the
    // reason says so.
    let (_dir, lacking) = index(&files);
    let (ready, interest) = symbols_of(&lacking);
    assert!(ready > 0.0 && ready == interest, "{ready:?} against {interest:?}");
    let ranked = rank(&lacking, issue);
    let reasons = reasons_of(&ranked, "src/io/ready.rs");
    assert!(
        reasons.iter().any(|r| r == "defines `Ready` (struct), which lacks `ERROR`, named in the issue"),
        "{reasons:?}"
    );
    // What the issue was read as shows the weight the ranking gives `Ready`.
    let read = issue::analyze(issue);
    let weight = |query: &issue::IssueQuery, qualifiers: &[&str], name: &str| {
        query.symbols.iter().find(|s| s.name == name && s.qualifiers == qualifiers).map(|s| s.weight)
    };
    let shown = as_ranked(&lacking, &read);
    assert!(weight(&read, &[], "Ready") < weight(&read, &["Ready"], "ERROR"), "{:?}", read.symbols);
    assert_eq!(weight(&shown, &[], "Ready"), weight(&read, &["Ready"], "ERROR"), "{:?}", shown.symbols);
    assert_eq!(weight(&shown, &[], "Interest"), weight(&read, &[], "Interest"));
    // Where the workspace defines an `ERROR`, `Ready` is only its qualifier and counts for less.
    let mut with_error = files.to_vec();
    with_error.push(("src/log.rs", "pub const ERROR: u8 = 1;\n"));
    let (_dir, defining) = index(&with_error);
    let (ready, interest) = symbols_of(&defining);
    assert!(0.0 < ready && ready < interest, "{ready:?} against {interest:?}");
}

#[test]
fn rust_code_shares_an_issues_word_by_the_short_form_it_writes() {
    let reader = "pub fn fill(buf: &mut Vec<u8>, opts: &Opts) -> usize {\n    let len = buf.len().min(opts.cap);\n    len\n}\n\
                  pub struct Opts { pub cap: usize }\n";
    let (_rust, rust) = index(&[
        ("src/reader.rs", reader),
        ("src/depth.rs", "/// How deep a walk goes.\npub fn depth() -> usize { 3 }\n"),
        ("src/lib.rs", "mod reader;\nmod depth;\n"),
    ]);
    let ranked = rank(&rust, "The buffer ignores the length options\n\nThe walk depth too.");
    assert_eq!(ranked[0].path, "src/reader.rs", "{:?}", order(&ranked));
    let reasons = reasons_of(&ranked, "src/reader.rs");
    assert!(
        reasons.iter().any(|r| r.starts_with("shares words with the issue:") && r.contains("buf (buffer)")),
        "{reasons:?}"
    );

    // Java spells its words out: its short forms are no words of the issue.
    let (_java, java) = index(&[
        ("src/Reader.java", "class Reader { int fill(byte[] buf, Opts opts) { int len = buf.length; return len; } }\n"),
        ("src/Depth.java", "/** How deep a walk goes. */\nclass Depth { int depth() { return 3; } }\n"),
    ]);
    let ranked = rank(&java, "The buffer ignores the length options\n\nThe walk depth too.");
    assert_eq!(ranked[0].path, "src/Depth.java", "{:?}", order(&ranked));
    assert!(!reasons_of(&ranked, "src/Reader.java").iter().any(|r| r.contains("(buffer)")));
}

#[test]
fn a_rust_file_named_by_the_short_form_of_an_issues_word_is_named_by_it() {
    let (_dir, index) = index(&[
        ("src/attrs.rs", "pub struct Parsed;\n"),
        ("src/other.rs", "pub struct Unrelated;\n"),
        ("src/Attrs.java", "class Attrs {}\n"),
        ("src/lib.rs", "mod attrs;\nmod other;\n"),
    ]);
    let ranked = rank(&index, "Unknown attributes are dropped");
    let reason = "its name `attrs` is a short form of `attributes`, a word of the issue";
    assert!(reasons_of(&ranked, "src/attrs.rs").iter().any(|r| r == reason), "{ranked:?}");
    assert!(!reasons_of(&ranked, "src/Attrs.java").iter().any(|r| r.contains("short form")), "{ranked:?}");
    assert_eq!(ranked[0].path, "src/attrs.rs", "{:?}", order(&ranked));
}
