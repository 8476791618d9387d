use super::blocks::{full_block, parts_block, source_block};
use super::map::map_entry;
use super::shown::{DOCS_CUT_NOTE, POINTED_PARTS};
use super::*;
use crate::context::extract::{Definition, DefinitionKind};
use crate::context::index::IndexedFile;
use crate::context::issue::analyze;
use crate::context::parts::{
    MAX_PART_LINES, MAX_PART_LINES_WHEN_ROOMY, MAX_PARTS, WordPlaces, merged, parts_pointed_at, text_words,
};
use crate::context::rank;
use crate::context::uses::ShownUses;

/// The files' texts are built as `String`s here.
fn workspace(files: &[(&str, String)]) -> (tempfile::TempDir, Index) {
    crate::testing::indexed(files)
}

/// The smallest budget (in tokens) whose files shown may take `chars` characters.
fn budget_showing(chars: usize) -> usize {
    (1..).find(|&tokens| full_files_room(tokens * CHARS_PER_TOKEN) >= chars).expect("some budget fits")
}

/// The pack a run would start from for `issue`, on the files of `dir`, within `budget` tokens.
fn pack_for(dir: &tempfile::TempDir, index: &Index, issue: &str, budget: usize) -> ContextPack {
    let ranked = rank(index, issue);
    build_pack(index, &ranked, &[], &analyze(issue), budget, |path| std::fs::read_to_string(dir.path().join(path)).ok())
}

/// `count` empty functions declared with `declare` (`fn`, `pub fn`), one a line:
/// `fn filler_0() {}`, `fn filler_1() {}`, ...
fn fillers(declare: &str, count: usize) -> String {
    (0..count).map(|n| format!("{declare} filler_{n}() {{}}\n")).collect()
}

/// `count` public functions of four lines each, with a blank line after each:
/// `pub fn func_0(x: u32) -> u32 { .. }`, `pub fn func_1 ..`.
fn numbered_functions(count: usize) -> String {
    (0..count).map(|n| format!("pub fn func_{n}(x: u32) -> u32 {{\n    let y = x + {n};\n    y * 2\n}}\n\n")).collect()
}

/// [`pack_for`], with the files the issue names that the index does not parse.
fn pack_with_named(dir: &tempfile::TempDir, index: &Index, issue: &str, budget: usize) -> ContextPack {
    let query = analyze(issue);
    let named = crate::context::named_files(index, &query);
    build_pack(index, &rank(index, issue), &named, &query, budget, |path| {
        std::fs::read_to_string(dir.path().join(path)).ok()
    })
}

/// The map's entry for `path` in `pack`: its heading line and the lines under it.
fn map_entry_of<'a>(pack: &'a ContextPack, path: &str) -> &'a str {
    let map = &pack.text[..pack.text.find("\n## The most").unwrap_or(pack.text.len())];
    let at_line_start = |at: &usize| *at == 0 || map.as_bytes()[at - 1] == b'\n';
    let start = map.match_indices(path).map(|(at, _)| at).find(at_line_start);
    let entry = &map[start.unwrap_or_else(|| panic!("{path} is not mapped: {}", pack.text))..];
    let mut end = entry.find('\n').map_or(entry.len(), |at| at + 1);
    while entry[end..].starts_with(' ') {
        end += entry[end..].find('\n').map_or(entry.len() - end, |at| at + 1);
    }
    &entry[..end]
}

#[test]
fn small_top_files_come_in_full_and_the_rest_as_a_map() {
    let (dir, index) = workspace(&[
        ("src/set.rs", "pub struct JoinSet;\nimpl JoinSet {\n    pub fn join_next(&self) {}\n}\n".into()),
        ("src/other.rs", "pub fn helper() -> u8 { 1 }\npub struct Other;\n".into()),
    ]);
    let issue = "Add try_join_next to `JoinSet`";
    let ranked = rank(&index, issue);
    let read = |path: &str| std::fs::read_to_string(dir.path().join(path)).ok();
    let pack = build_pack(&index, &ranked, &[], &analyze(issue), 10_000, read);
    assert_eq!(pack.full_files[0], "src/set.rs");
    assert!(pack.text.contains("### src/set.rs\n```\npub struct JoinSet;"), "{}", pack.text);
    assert!(pack.tokens <= 10_000);

    let tight = build_pack(&index, &ranked, &[], &analyze(issue), 12, read);
    assert!(tight.full_files.is_empty(), "nothing fits in full in 12 tokens");
    assert!(tight.tokens <= 12, "{}", tight.text);
}

#[test]
fn a_licence_header_is_left_out_of_a_file_in_full() {
    let licence = format!(
        "/*\n * Copyright 2017 Google LLC.\n *\n{} */\n\n",
        " * Licensed under the Apache License, Version 2.0 (the \"License\"); you may not\n".repeat(12)
    );
    let code =
        "package com.example.registry;\n\npublic class RegistryAuthenticator {\n  public void authenticate() {}\n}\n";
    let path = "src/main/java/com/example/registry/RegistryAuthenticator.java";
    let (dir, index) = workspace(&[(path, format!("{licence}{code}"))]);
    let issue = "`RegistryAuthenticator.authenticate` fails";
    let heading = format!("### {path} [lines 1-17, its licence header, left out]\n```\n{code}```\n");
    // A budget the file fits in only without its header.
    let budget = budget_showing(heading.len() + 1);
    let whole = full_block(path, "", &format!("{licence}{code}"));
    assert!(whole.len() > full_files_room(budget * CHARS_PER_TOKEN), "it would not fit whole");
    let pack = pack_for(&dir, &index, issue, budget);
    assert_eq!(pack.full_files, [path], "{}", pack.text);
    assert!(pack.text.contains(&heading), "{}", pack.text);
    assert!(!pack.text.contains("Copyright"), "{}", pack.text);

    // A doc comment on the class is no header, whatever it says.
    let documented = format!("/**\n * Reads the licence{}.\n */\n{code}", " and the copyright".repeat(3));
    let (dir, index) = workspace(&[(path, documented.clone())]);
    let pack = pack_for(&dir, &index, issue, 2_000);
    assert!(pack.text.contains(&format!("### {path}\n```\n{documented}```\n")), "{}", pack.text);
}

#[test]
fn a_file_shown_whole_keeps_only_the_first_lines_of_its_long_documentation() {
    // A module of 90 lines of documentation and 14 of code, and a licence header above it.
    let licence = format!("// Copyright 2024 the authors.\n{}\n", "// Licensed under the MIT licence.\n".repeat(3));
    let docs: String = (0..90).map(|n| format!("//! Line {n} of what the module is for.\n")).collect();
    let code = "\nmod broadcast;\npub use broadcast::Receiver;\n\n/// Short documentation stays whole.\npub fn channel_len() -> usize {\n    0\n}\n";
    let text = format!("{licence}{docs}{code}");
    let (dir, index) =
        workspace(&[("src/sync/mod.rs", text.clone()), ("src/sync/broadcast.rs", "pub struct Receiver;\n".into())]);
    // A budget the file fits in only cut, and whose map leaves too little room to show it whole.
    let budget = budget_showing(source_block("src/sync/mod.rs", &text, &[]).0.len() + 1);
    let pack = pack_for(&dir, &index, "`channel_len` in the sync module", budget);
    assert!(pack.full_files.iter().any(|f| f == "src/sync/mod.rs"), "{}", pack.text);
    let heading = "### src/sync/mod.rs [lines 1-5, its licence header, left out] [82 of its 103 lines left out, of long \
                   documentation comments: each keeps its first 8 lines and what it says of panics, errors, \
                   safety or exceptions; read_file shows them]\nlines 6-13:\n```\n//! Line 0 of";
    assert!(pack.text.contains(heading), "{}", pack.text);
    assert!(
        pack.text.contains("//! Line 7 of what the module is for.\n```\nlines 96-103:\n```\n\nmod broadcast;\n"),
        "{}",
        pack.text
    );
    assert!(
        pack.text.contains("/// Short documentation stays whole.\npub fn channel_len() -> usize {\n    0\n}\n```\n"),
        "{}",
        pack.text
    );
    assert!(!pack.text.contains("Line 8 of") && !pack.text.contains("Copyright"), "{}", pack.text);

    // The cut leaves room for more; room the map leaves shows the documentation again.
    let whole = full_block("src/sync/mod.rs", "", &text);
    assert!(source_block("src/sync/mod.rs", &text, &[]).0.len() < whole.len() / 3);
    let roomy = pack_for(&dir, &index, "`channel_len` in the sync module", 4_000);
    assert!(roomy.text.contains("//! Line 89 of") && !roomy.text.contains(DOCS_CUT_NOTE), "{}", roomy.text);
    // A comment holding a line the issue points at (a failing doctest's) is shown whole.
    let line_50 = "//! Line 50 of what the module is for.\n";
    assert!(source_block("src/sync/mod.rs", &text, &[60]).0.contains(line_50));
    assert_eq!(source_block("src/sync/mod.rs", &text, &[98]), source_block("src/sync/mod.rs", &text, &[]));
    // A line just after the comment is the line it documents.
    assert!(source_block("src/sync/mod.rs", &text, &[96]).0.contains(line_50));
    // So is every comment when the issue speaks of documentation (before the map's spare
    // room is given back to a cut).
    let shown_for = |issue: &str, full_budget: usize| {
        let (ranked, query) = (rank(&index, issue), analyze(issue));
        let mut shown = Shown::default();
        let read = |path: &str| std::fs::read_to_string(dir.path().join(path)).ok();
        shown.add_ranked(&index, &ranked, &Mentioned::new(&query), &query, full_budget, &read);
        shown.text()
    };
    assert!(shown_for("`channel_len` in the sync module", 100_000).contains(DOCS_CUT_NOTE));
    let about_docs = "The docs of `channel_len` in the sync module are wrong";
    let shown = shown_for(about_docs, 100_000);
    assert!(shown.contains(line_50) && !shown.contains(DOCS_CUT_NOTE), "{shown}");
    // Where the whole file does not fit, it is cut all the same rather than shown in part.
    let cut = source_block("src/sync/mod.rs", &text, &[]).0;
    assert!(shown_for(about_docs, cut.len() + 1).starts_with(&cut));

    // And a comment a line the issue gives points into: a failing doctest's.
    let documented: String = (0..30).map(|n| format!("/// Line {n} of how to use it, and what it is for.\n")).collect();
    let code = format!("{documented}pub fn acquire() {{}}\n\n{documented}pub fn release() {{}}\n");
    let (dir, index) = workspace(&[("src/permits.rs", code.clone())]);
    let issue =
        "The example of `release` fails:\n```\n---- src/permits.rs - permits::release (line 45) stdout ----\n```\n";
    let pack = pack_for(&dir, &index, issue, budget_showing(source_block("src/permits.rs", &code, &[45]).0.len() + 1));
    let block = &pack.text[pack.text.find("### src/permits.rs").expect("shown")..];
    assert!(block.starts_with("### src/permits.rs [22 of its 63 lines left out"), "{block}");
    assert!(
        block.contains("lines 1-8:\n```\n") && block.contains("lines 31-63:\n```\n"),
        "all of `release`'s: {block}"
    );
}

#[test]
fn files_the_issue_names_come_first_as_text_or_by_their_length() {
    let (dir, index) = workspace(&[
        ("README.md", "# Limits\nRun `cargo test`.\n".into()),
        ("docs/CHANGELOG.md", "- a change\n".repeat(3_000)),
        ("src/set.rs", "pub struct JoinSet;\n".into()),
    ]);
    std::fs::write(dir.path().join("docs/logo.png"), b"\x89PNG\r\n\x1a\n\0\0\xff").unwrap();
    let issue = "README.md, docs/CHANGELOG.md and docs/logo.png are out of date for `JoinSet`";
    let pack = pack_with_named(&dir, &index, issue, 10_000);
    assert_eq!(pack.full_files, ["README.md", "src/set.rs"], "{}", pack.text);
    assert!(pack.text.contains("### README.md [named in the issue]\n```\n# Limits\n"), "{}", pack.text);
    assert!(
        pack.text.contains("docs/CHANGELOG.md [named in the issue; 3000 lines, too long to show here"),
        "{}",
        pack.text
    );
    assert!(pack.text.contains("docs/logo.png [named in the issue; it cannot be read here"), "{}", pack.text);
    assert_eq!(pack.mapped_files[..2], ["docs/CHANGELOG.md", "docs/logo.png"]);
    assert!(pack.tokens <= 10_000);

    // With a line, the lines around it are shown instead.
    let issue = "docs/CHANGELOG.md:1200 is out of date for `JoinSet`";
    let named = crate::context::named_files(&index, &analyze(issue));
    assert_eq!(named[0].line, Some(1200));
    let pack = pack_with_named(&dir, &index, issue, 10_000);
    assert_eq!(pack.part_files, ["docs/CHANGELOG.md"], "{}", pack.text);
    assert!(!pack.mapped_files.contains(&"docs/CHANGELOG.md".to_owned()), "{:?}", pack.mapped_files);
    let part = "### docs/CHANGELOG.md [named in the issue] [in part: 80 of its 3000 lines, the parts the issue \
                points at; read_file shows the rest]\nlines 1180-1259:\n```\n- a change\n";
    assert!(pack.text.contains(part), "{}", pack.text);
    assert!(pack.tokens <= 10_000);
}

#[test]
fn a_long_named_text_shows_the_lines_where_the_issues_words_gather() {
    let mut guide = String::from("# Guide\n");
    for n in 0..1_500 {
        let _ = writeln!(guide, "Filler paragraph {n} about nothing in particular.");
    }
    guide.push_str(
        "## Rate limits\nThe `RateLimiter` example waits in `try_acquire`.\n```rust\n\
         let limiter = RateLimiter::per_second(5);\n```\n",
    );
    for n in 0..1_500 {
        let _ = writeln!(guide, "Closing paragraph {n}, long after.");
    }
    // The file's own name, often in it, says nothing of where in it the issue is.
    guide
        .push_str("## Contributing\nKeep this README short: the README is read first, so edit the README with care.\n");
    let issue = "The README.md example of RateLimiter::per_second does not compile";
    let query = analyze(issue);
    let words: Vec<String> = text_words("README.md", &guide, &query.terms).into_iter().map(|(w, _)| w).collect();
    assert!(words.contains(&"example".to_owned()) && !words.contains(&"readme".to_owned()), "{words:?}");
    let (dir, index) = workspace(&[("README.md", guide), ("src/limiter.rs", "pub struct RateLimiter;\n".into())]);
    let pack = pack_with_named(&dir, &index, issue, 10_000);
    assert_eq!(pack.part_files, ["README.md"], "{}", pack.text);
    let heading = "### README.md [named in the issue] [in part: 80 of its 3008 lines, the lines where the issue's \
                   words gather: `per`, `per_second`, `second`, `example`; read_file shows the rest]";
    assert!(pack.text.contains(heading), "{}", pack.text);
    assert!(
        pack.text.contains("## Rate limits\n") && pack.text.contains("RateLimiter::per_second(5)"),
        "{}",
        pack.text
    );
    assert!(!pack.text.contains("Filler paragraph 0 "), "{}", pack.text);
}

#[test]
fn generated_files_say_so_in_full_and_in_the_map() {
    let generated = "// This file is @generated by prost-build.\npub struct JoinSet { pub id: u64 }\n";
    // A large generated file, mapped for want of room.
    let mut big = String::from("// Code generated by protoc-gen-rust. DO NOT EDIT.\n");
    for n in 0..400 {
        big.push_str(&format!("pub struct JoinSetMessage{n} {{ pub id: u64 }}\n"));
    }
    let (dir, index) = workspace(&[
        ("src/proto/set.rs", generated.into()),
        ("src/proto/messages.rs", big),
        ("src/lib.rs", "pub mod proto;\n".into()),
    ]);
    let pack = pack_for(&dir, &index, "Add an owner to `JoinSet` and to JoinSetMessage0", 3_000);
    let note = "[generated (`@generated`): a change here is lost when it is generated again; change its source]";
    assert!(pack.text.contains(&format!("### src/proto/set.rs {note}\n```\n")), "{}", pack.text);
    assert!(pack.mapped_files.contains(&"src/proto/messages.rs".to_owned()), "{:?}", pack.mapped_files);
    assert!(
        pack.text.contains("src/proto/messages.rs [generated (`do not edit`): a change here is lost"),
        "{}",
        pack.text
    );
    assert!(!pack.text.contains("src/lib.rs [generated"), "{}", pack.text);
}

#[test]
fn a_top_file_that_is_not_utf8_is_mapped_and_marked() {
    let (dir, _) = workspace(&[("src/set.rs", "pub struct JoinSet;\n".into())]);
    std::fs::write(dir.path().join("src/legacy.rs"), b"// caf\xe9\npub fn try_join_next() {}\n").unwrap();
    let index = Index::build(dir.path(), None);
    let issue = "implement `try_join_next` for `JoinSet`";
    let ranked = rank(&index, issue);
    let read = |path: &str| std::fs::read_to_string(dir.path().join(path)).ok();
    let pack = build_pack(&index, &ranked, &[], &analyze(issue), 10_000, read);
    assert_eq!(pack.full_files, ["src/set.rs"]);
    assert_eq!(pack.mapped_files, ["src/legacy.rs"]);
    assert!(
        pack.text.contains(
            "src/legacy.rs [its text cannot be read here: not UTF-8, or no longer there]\n      2: pub fn try_join_next()"
        ),
        "{}",
        pack.text
    );
    assert!(!pack.text.contains("src/set.rs [not"), "{}", pack.text);
}

#[test]
fn the_map_shows_definitions_named_after_the_issues_names_early() {
    let mut big = String::new();
    for n in 0..40 {
        let _ = writeln!(big, "export interface Filler{n} {{}}");
    }
    big.push_str("export class ZodDiscriminatedUnion {}\nexport function discriminatedUnion() {}\n");
    let (dir, index) = workspace(&[("src/schemas.ts", big)]);
    let issue = "`discriminatedUnion` fails with a lazy option";
    let pack = pack_for(&dir, &index, issue, 300);
    // The function it names is shown in its part; the class named after it leads the map.
    assert_eq!(pack.part_files, ["src/schemas.ts"], "{}", pack.text);
    assert!(
        pack.text.contains("src/schemas.ts\n     41: class ZodDiscriminatedUnion\n      1: interface Filler0"),
        "{}",
        pack.text
    );
    // Not shown in part, the function it names comes first.
    let file = index.file("src/schemas.ts").expect("indexed");
    let query = analyze(issue);
    let entry = map_entry(file, None, &Mentioned::new(&query), &ShownUses::new(&index, &[]), &[]);
    assert!(
        entry.starts_with(
            "src/schemas.ts\n     42: function discriminatedUnion()\n     41: class ZodDiscriminatedUnion\n"
        ),
        "{entry}"
    );
}

#[test]
fn the_map_shows_what_a_file_does_before_its_constants() {
    let mut script = String::new();
    for n in 0..60 {
        let _ = writeln!(script, "const marker{n}RE = /x{n}/;");
    }
    script.push_str("export function transformWorker(code: string) {}\nexport interface WorkerOptions {}\n");
    let (dir, index) = workspace(&[("src/worker.ts", script)]);
    let issue = "workers lose their source maps";
    let pack = pack_for(&dir, &index, issue, 200);
    assert!(
        pack.text.contains("src/worker.ts\n     62: interface WorkerOptions\n     61: function transformWorker(code: string)\n      1: const marker0RE = /x0/\n"),
        "{}",
        pack.text
    );
    assert!(pack.text.contains("... 50 more") && pack.full_files.is_empty(), "{}", pack.text);

    // A crate's test module comes after everything else it declares.
    let mut root = String::from("#[cfg(test)]\nmod tests;\npub mod runtime;\n");
    for n in 0..12 {
        let _ = writeln!(root, "pub const LIMIT_{n}: usize = {n};");
    }
    root.push_str(&"// filler\n".repeat(200));
    let (dir, index) = workspace(&[("src/lib.rs", root), ("Cargo.toml", "[package]\nname = \"rt\"\n".into())]);
    let pack = pack_for(&dir, &index, "runtime stalls", 200);
    let map = &pack.text[pack.text.find("src/lib.rs").expect("mapped")..];
    assert!(map.contains("\n      3: pub mod runtime\n      4: pub const LIMIT_0: usize"), "{map}");
    assert!(!map.contains("mod tests"), "the test module is past the twelve lines shown: {map}");
}

/// The map's entry for a long `src/semaphore.rs` that starts with `head`, then defines
/// `acquire_0` to `acquire_{count - 1}`, in a pack of "the semaphore stalls".
fn semaphore_map_entry(head: &str, count: usize) -> String {
    let mut semaphore = head.to_owned();
    for n in 0..count {
        let _ = writeln!(semaphore, "pub fn acquire_{n}() {{}}");
    }
    semaphore.push_str(&"// filler\n".repeat(400));
    let (dir, index) = workspace(&[("src/semaphore.rs", semaphore)]);
    let pack = pack_for(&dir, &index, "it stalls under load", 400);
    map_entry_of(&pack, "src/semaphore.rs").to_owned()
}

#[test]
fn the_map_shows_a_rust_associated_type_after_the_functions() {
    let map = semaphore_map_entry(
        "pub struct Semaphore;\n\nimpl TryFrom<u32> for Semaphore {\n    type Error = String;\n    fn try_from(_: u32) -> Result<Self, String> { Ok(Semaphore) }\n}\n\npub type Permits = u32;\n",
        2,
    );
    assert!(
        map.starts_with(
            "src/semaphore.rs\n      1: pub struct Semaphore\n      8: pub type Permits = u32\n      5: fn try_from(_: u32) -> Result<Self, String>\n      9: pub fn acquire_0()\n     10: pub fn acquire_1()\n      4: type Error = String\n"
        ),
        "{map}"
    );
}

#[test]
fn the_map_shows_what_is_local_to_a_function_last() {
    let map = semaphore_map_entry(
        "fn bounds() {\n    fn check_send<T: Send>() {}\n    fn check_sync<T: Sync>() {}\n    check_send::<Semaphore>();\n}\n\npub struct Semaphore;\n",
        12,
    );
    assert!(
        map.starts_with(
            "src/semaphore.rs\n      7: pub struct Semaphore\n      1: fn bounds()\n      8: pub fn acquire_0()\n"
        ),
        "{map}"
    );
    assert!(!map.contains("check_send"), "past the twelve shown: {map}");

    let component = "export function Panel(props: Props) {\n  const onClick = () => {\n    props.close();\n  };\n  function onKey(event: KeyboardEvent) {\n    return event.key;\n  }\n  return null;\n}\nexport function usePanel(): Props {\n  return {};\n}\n";
    let mut panel = component.to_owned();
    panel.push_str(&"// filler\n".repeat(400));
    let (dir, index) = workspace(&[("src/Panel.tsx", panel)]);
    let pack = pack_for(&dir, &index, "it stays open", 400);
    let map = map_entry_of(&pack, "src/Panel.tsx");
    assert!(
        map.starts_with("src/Panel.tsx\n      1: function Panel(props: Props)\n     10: function usePanel(): Props\n      5: function onKey(event: KeyboardEvent)\n"),
        "{map}"
    );
}

#[test]
fn the_map_shows_test_code_in_a_source_file_last() {
    let map = semaphore_map_entry(
        "#[test]\n#[cfg(not(loom))]\nfn bounds() {}\n\npub struct Semaphore;\n\n#[cfg(test)]\nmod tests {\n    fn permits_for_test() {}\n}\n",
        3,
    );
    assert!(
        map.starts_with(
            "src/semaphore.rs\n      5: pub struct Semaphore\n     11: pub fn acquire_0()\n     12: pub fn acquire_1()\n     13: pub fn acquire_2()\n      3: fn bounds()\n      8: mod tests\n      9: fn permits_for_test()\n"
        ),
        "{map}"
    );
}

/// The map's entry of the one file of a workspace, `source` with filler below it so that the
/// pack cannot show it in full.
fn lone_file_map_entry(path: &str, source: &str) -> String {
    let mut text = source.to_owned();
    text.push_str(&"// filler\n".repeat(400));
    let (dir, index) = workspace(&[(path, text)]);
    let pack = pack_for(&dir, &index, "memory leaks", 400);
    map_entry_of(&pack, path).to_owned()
}

#[test]
fn namesakes_of_different_types_say_whose_they_are_in_the_map() {
    let entry = lone_file_map_entry(
        "src/pool.rs",
        "pub struct Pool;\nimpl Pool {\n    pub fn new() -> Self { Pool }\n    pub fn len(&self) -> usize { 0 }\n}\npub struct Cache;\nimpl Cache {\n    pub fn new() -> Self { Cache }\n}\n",
    );
    assert!(entry.contains("\n      3: pub fn new() -> Self (of `Pool`)\n"), "{entry}");
    assert!(entry.contains("\n      8: pub fn new() -> Self (of `Cache`)\n"), "{entry}");
    assert!(entry.contains("\n      4: pub fn len(&self) -> usize\n"), "a name of one type stays short: {entry}");
}

#[test]
fn the_map_lists_a_few_overloads_of_a_name_the_issue_gives() {
    let mut mapper = String::from("package com.acme;\n\npublic class Mapper {\n");
    for parameter in ["String", "File", "URL", "Reader", "InputStream", "byte[]"] {
        let _ = writeln!(mapper, "    public Object readValue({parameter} src) {{ return null; }}");
    }
    mapper.push_str("    public void close() {}\n}\n");
    let (_dir, index) = workspace(&[("src/main/java/com/acme/Mapper.java", mapper)]);
    let file = index.file("src/main/java/com/acme/Mapper.java").expect("indexed");
    let query = analyze("readValue leaks memory");
    let entry = map_entry(file, None, &Mentioned::new(&query), &ShownUses::new(&index, &[]), &[]);
    assert_eq!(entry.matches(": public Object readValue(").count(), 3, "{entry}");
    assert!(entry.contains("\n     10: public void close()\n"), "the room goes to other names: {entry}");
    assert!(entry.contains("... 3 more"), "the overloads left out are counted: {entry}");
}

#[test]
fn a_java_constructor_and_a_package_its_folder_spells_need_no_word_in_the_map() {
    let entry = lone_file_map_entry(
        "src/main/java/com/acme/Parser.java",
        "package com.acme;\n\npublic class Parser {\n    public Parser(int flags) {}\n    public int flags() { return 0; }\n}\n",
    );
    assert!(entry.starts_with("src/main/java/com/acme/Parser.java\n"), "its folder spells its package: {entry}");
    assert!(entry.contains("\n      4: public Parser(int flags)\n"), "{entry}");
    assert!(entry.contains("\n      3: public class Parser\n"), "{entry}");
}

#[test]
fn a_java_package_its_folder_does_not_spell_is_named_in_the_map() {
    let entry = lone_file_map_entry(
        "src/Parser.java",
        "package com.acme.json;\n\npublic class Parser {\n    public int flags() { return 0; }\n}\n",
    );
    assert!(entry.starts_with("src/Parser.java (`com.acme.json`)\n"), "{entry}");
}

#[test]
fn the_map_names_each_files_package_in_a_monorepo() {
    let mut big = String::new();
    for n in 0..80 {
        let _ = writeln!(big, "export function worker{n}() {{}}");
    }
    let (dir, index) = workspace(&[
        ("packages/core/package.json", "{ \"name\": \"@demo/core\" }\n".into()),
        ("packages/core/src/worker.ts", big.clone()),
        ("packages/web/package.json", "{ \"name\": \"@demo/web\" }\n".into()),
        ("packages/web/src/worker.ts", big),
    ]);
    let issue = "workers hang";
    let pack = pack_for(&dir, &index, issue, 300);
    assert!(pack.text.contains("packages/core/src/worker.ts (package `@demo/core`)\n"), "{}", pack.text);
    assert!(pack.text.contains("packages/web/src/worker.ts (package `@demo/web`)\n"), "{}", pack.text);
}

#[test]
fn a_file_holding_fences_cannot_end_its_block() {
    let doc = "/// ```\n/// let x = 1;\n/// ```\npub fn documented() {}\n/// ````text\n/// ````\npub fn more() {}\n";
    let (dir, index) = workspace(&[("src/doc.rs", doc.into())]);
    let pack = pack_for(&dir, &index, "fix `documented`", 10_000);
    assert!(pack.text.contains(&format!("### src/doc.rs\n`````\n{doc}`````\n")), "{}", pack.text);
}

#[test]
fn a_large_file_in_part_is_mapped_without_what_its_parts_show() {
    let mut big = String::new();
    big.push_str(&fillers("pub fn", 400));
    big.push_str("pub fn try_join_next() {}\n");
    let (dir, index) = workspace(&[("src/big.rs", big), ("Cargo.toml", "[package]\nname = \"tasks\"\n".into())]);
    let issue = "implement `try_join_next`";
    let pack = pack_for(&dir, &index, issue, 1_000);
    assert!(pack.full_files.is_empty());
    assert_eq!(pack.mapped_files, ["src/big.rs"]);
    let entry = map_entry_of(&pack, "src/big.rs");
    assert!(entry.starts_with("src/big.rs (`tasks::big`)\n      1: pub fn filler_0()\n"), "{entry}");
    assert!(entry.ends_with("        ... 388 more\n") && !entry.contains("try_join_next"), "{entry}");
    assert_eq!(pack.part_files, ["src/big.rs"], "the named function is shown in its part");
    assert!(
        pack.text.contains("### src/big.rs [in part: 1 of its 401 lines, the parts the issue points at; read_file shows the rest]\nlines 401-401:\n```\npub fn try_join_next() {}\n```\n"),
        "{}",
        pack.text
    );
}

#[test]
fn the_map_lists_what_the_shown_code_uses_before_the_rest() {
    let mut batch = String::from("pub struct Batch;\nimpl Batch {\n");
    for n in 0..30 {
        let _ = writeln!(batch, "    pub fn filler_{n}(&self) -> usize {{ {n} }}");
    }
    batch.push_str("    pub fn new() -> Self { Batch }\n");
    batch.push_str("    pub fn acquire_many(&self, permits: u32) -> Result<(), Closed> { Ok(()) }\n}\n");
    batch.push_str("pub struct Closed;\n");
    let semaphore = "pub struct Semaphore { batch: Batch }\nimpl Semaphore {\n    pub fn close(&self) {\n        let batch = Batch::new();\n        let _ = self.batch.acquire_many(1);\n    }\n}\n";
    let mut files = vec![("src/semaphore.rs", semaphore.to_owned()), ("src/batch.rs", batch)];
    // `new` is defined in four files; `Batch::new` says which one the shown code calls.
    for name in ["src/a.rs", "src/b.rs", "src/c.rs"] {
        files.push((name, "pub struct Other;\nimpl Other { pub fn new() -> Self { Other } }\n".into()));
    }
    let (dir, index) = workspace(&files);
    let pack = pack_for(&dir, &index, "`Semaphore::close` hangs", 500);
    assert_eq!(pack.full_files[0], "src/semaphore.rs", "{}", pack.text);
    assert!(!pack.full_files.contains(&"src/batch.rs".to_owned()), "{}", pack.text);
    let map = map_entry_of(&pack, "src/batch.rs");
    assert!(
        map.starts_with("src/batch.rs\n      1: pub struct Batch\n     33: pub fn new() -> Self\n     34: pub fn acquire_many(&self, permits: u32) -> Result<(), Closed>\n     36: pub struct Closed\n      3: pub fn filler_0(&self) -> usize\n"),
        "{map}"
    );
}

/// A semaphore whose `close` parks its waiters in eight ways, each a function of the module
/// it imports (another module defines one of them too, and a test file), among sixty modules
/// of filler that rank with it; and the issue about it.
fn parking_semaphore() -> (tempfile::TempDir, Index, &'static str) {
    let mut semaphore = String::from(
        "use crate::park::parking;\n\npub struct Semaphore;\nimpl Semaphore {\n    pub fn close(&self) {\n",
    );
    let mut parking = String::from("pub fn unpark() {}\n");
    for k in 0..8 {
        let _ = writeln!(semaphore, "        parking::park_waiter_{k}(3);");
        let _ = writeln!(parking, "pub fn park_waiter_{k}(permits: u32, deadline: Option<Instant>) -> bool {{ true }}");
    }
    semaphore.push_str("        Other::new();\n    }\n}\n");
    let mut files = vec![
        ("Cargo.toml", "[package]\nname = \"sem\"\n".to_owned()),
        ("src/lib.rs", "pub mod closing;\npub mod elsewhere;\npub mod park;\npub mod sync;\n".into()),
        ("src/sync/mod.rs", "pub mod semaphore;\n".into()),
        ("src/sync/semaphore.rs", semaphore),
        ("src/park/mod.rs", "pub mod parking;\n".into()),
        ("src/park/parking.rs", parking),
        ("src/elsewhere.rs", "pub fn park_waiter_0(spins: usize) {}\n".into()),
        ("tests/parking.rs", "pub fn park_waiter_1(permits: u32) {}\n".into()),
    ];
    let mut closing = String::new();
    for n in 0..60 {
        let _ = writeln!(closing, "pub mod close_{n};");
        let mut filler = String::from("pub struct Other;\nimpl Other { pub fn new() -> Self { Other } }\n");
        for m in 0..30 {
            let _ = writeln!(filler, "pub fn close_{n}_{m}() {{}}");
        }
        files.push((Box::leak(format!("src/closing/close_{n}.rs").into_boxed_str()), filler));
    }
    files.push(("src/closing/mod.rs", closing));
    let (dir, index) = workspace(&files);
    (dir, index, "`Semaphore::close` hangs while closing")
}

/// The pack of 2,000 tokens for [`parking_semaphore`], with the parking module moved to
/// place `at` of the ranking (its end, when past it).
fn parking_semaphore_pack(at: usize) -> ContextPack {
    let (dir, index, issue) = parking_semaphore();
    let mut ranked = rank(&index, issue);
    let from = ranked.iter().position(|file| file.path == "src/park/parking.rs").expect("ranked");
    let parking = ranked.remove(from);
    ranked.insert(at.min(ranked.len()), parking);
    let read = |path: &str| std::fs::read_to_string(dir.path().join(path)).ok();
    build_pack(&index, &ranked, &[], &analyze(issue), 2_000, read)
}

#[test]
fn what_the_shown_code_uses_from_a_ranked_file_the_map_has_no_room_for_is_listed() {
    // Ranked among the files the map would list, but after those it has room for.
    let pack = parking_semaphore_pack(30);
    let ranked_entries = pack.text.matches("\nsrc/closing/close_").count();
    assert!((1..20).contains(&ranked_entries), "the map runs out of room first: {}", pack.text);
    for k in 0..8 {
        let line =
            format!("\n      {}: pub fn park_waiter_{k}(permits: u32, deadline: Option<Instant>) -> bool\n", k + 2);
        assert!(pack.text.contains(&line), "the map keeps room for all eight: {}", pack.text);
    }
    assert!(pack.tokens <= 2_000);
}

/// The map's files listed by their paths alone: the text after the heading that closes it,
/// each file's path put together from its folder's line and its own.
fn paths_only(pack: &ContextPack) -> Vec<String> {
    let map = &pack.text[..pack.text.find("\n## The most").unwrap_or(pack.text.len())];
    let Some(at) = map.find("Ranked next, by path (each folder, then the files under it):\n") else {
        return Vec::new();
    };
    let mut folder = "";
    let mut paths = Vec::new();
    for line in map[at..].lines().skip(1) {
        match line.strip_prefix("  ") {
            Some(file) => paths.push(format!("{folder}{}", file.split(' ').next().unwrap_or_default())),
            None => folder = if line == "./" { "" } else { line.strip_suffix('/').map_or("", |_| line) },
        }
    }
    paths
}

#[test]
fn the_files_ranked_after_those_the_maps_signatures_fill_are_listed_by_their_paths() {
    // Sixty files the issue's word points at alike, each too large for many to be shown.
    let files: Vec<(String, String)> = (0..60)
        .map(|n| (format!("src/widget_{n:02}.rs"), format!("// widget {n}\n{}", numbered_functions(12))))
        .collect();
    let files: Vec<(&str, String)> = files.iter().map(|(path, text)| (path.as_str(), text.clone())).collect();
    let (dir, index) = workspace(&files);
    let pack = pack_for(&dir, &index, "the widget breaks", 2_000);
    let map = &pack.text[..pack.text.find("\n## The most").expect("files are shown")];
    let by_path = paths_only(&pack);
    let signatures = pack.mapped_files.iter().filter(|path| !by_path.contains(path)).count();
    assert!(signatures >= 1 && by_path.len() >= 5, "{signatures} with signatures, {} by path: {map}", by_path.len());
    assert!(map.contains("\nsrc/\n  widget_"), "listed under their folder: {map}");
    assert!(map.contains(" [61 lines]\n"), "with their length: {map}");
    // The files listed by their paths follow those with signatures, and nothing is mapped twice.
    let last_signature = map.rfind(": pub fn").expect("signatures");
    assert!(last_signature < map.find("Ranked next, by path").expect("paths"), "{map}");
    let mut mapped = pack.mapped_files.clone();
    mapped.sort();
    mapped.dedup();
    assert_eq!(mapped.len(), pack.mapped_files.len());
    assert!(by_path.iter().all(|path| pack.mapped_files.contains(path)), "{by_path:?}");
    assert!(pack.full_files.len() + pack.mapped_files.len() < 60, "the room runs out first: {}", pack.text);
    assert!(pack.tokens <= 2_000);
}

#[test]
fn files_by_path_at_the_workspaces_top_are_listed_under_dot_slash() {
    let files: Vec<(String, String)> =
        (0..30).map(|n| (format!("widget_{n:02}.rs"), format!("// widget {n}\n{}", numbered_functions(12)))).collect();
    let files: Vec<(&str, String)> = files.iter().map(|(path, text)| (path.as_str(), text.clone())).collect();
    let (dir, index) = workspace(&files);
    let pack = pack_for(&dir, &index, "the widget breaks", 2_000);
    let by_path = paths_only(&pack);
    assert!(by_path.len() >= 5, "{}", pack.text);
    assert!(pack.text.contains("(each folder, then the files under it):\n./\n  widget_"), "{}", pack.text);
    assert!(by_path.iter().all(|path| pack.mapped_files.contains(path) && !path.contains('/')), "{by_path:?}");
}

#[test]
fn files_by_path_are_grouped_under_their_folders_and_reach_past_the_sixtieth() {
    // Eighty files in two deep folders, alternating, the issue's word in each, the less the
    // later: each folder written out on every path would take the room the map keeps for
    // them several times over.
    let files: Vec<(String, String)> = (0..80)
        .map(|n| {
            let folder = if n % 2 == 0 { "core" } else { "extra" };
            let path = format!("modules/widgets/src/main/rust/widgets/{folder}/widget_{n:02}.rs");
            (path, format!("// {}\n{}", "widget ".repeat(80 - n), numbered_functions(12)))
        })
        .collect();
    let files: Vec<(&str, String)> = files.iter().map(|(path, text)| (path.as_str(), text.clone())).collect();
    let (dir, index) = workspace(&files);
    let ranked = rank(&index, "the widget breaks");
    let pack = pack_for(&dir, &index, "the widget breaks", 6_000);
    let map = &pack.text[..pack.text.find("\n## The most").expect("files are shown")];
    let by_path = paths_only(&pack);
    assert!(by_path.len() >= 20, "{map}");
    // Each folder once, in the order of its best-ranked file, its files in their rank order.
    let tail = &map[map.find("Ranked next, by path").expect("paths")..];
    let folder_lines: Vec<&str> = tail.lines().skip(1).filter(|line| !line.starts_with(' ')).collect();
    let place = |path: &String| ranked.iter().position(|file| &file.path == path).expect("ranked");
    let first_folder =
        by_path.iter().min_by_key(|path| place(path)).map(|path| &path[..path.rfind('/').unwrap_or(0) + 1]);
    assert_eq!(folder_lines.len(), 2, "{tail}");
    assert_eq!(Some(folder_lines[0]), first_folder, "{tail}");
    for folder in ["core/", "extra/"] {
        let places: Vec<usize> = by_path.iter().filter(|path| path.contains(folder)).map(place).collect();
        assert!(places.windows(2).all(|pair| pair[0] < pair[1]), "{folder} in rank order: {tail}");
    }
    // The map reaches past the sixtieth file after those in full.
    let not_in_full: Vec<_> = ranked.iter().filter(|file| !pack.full_files.contains(&file.path)).collect();
    assert!(not_in_full.len() >= 65);
    assert!(not_in_full[..65].iter().all(|file| pack.mapped_files.contains(&file.path)), "{map}");
    assert!(!tail.contains("widgets/core/widget_"), "no file's folder written out again: {tail}");
    assert!(pack.tokens <= 6_000);
}

#[test]
fn files_by_path_in_many_folders_of_one_crate_share_its_folder_line() {
    // Eighty files, each in a folder of its own deep inside one crate: a line for each
    // folder would take as much room as the files' paths.
    let files: Vec<(String, String)> = (0..80)
        .map(|n| {
            let path = format!("crates/widget-language-server/src/feature_{n:02}/render/widget.rs");
            (path, format!("// {}\n{}", "widget ".repeat(80 - n), numbered_functions(12)))
        })
        .collect();
    let files: Vec<(&str, String)> = files.iter().map(|(path, text)| (path.as_str(), text.clone())).collect();
    let (dir, index) = workspace(&files);
    let pack = pack_for(&dir, &index, "the widget breaks", 6_000);
    let map = &pack.text[..pack.text.find("\n## The most").expect("files are shown")];
    let tail = &map[map.find("Ranked next, by path").expect("paths")..];
    let by_path = paths_only(&pack);
    assert!(by_path.len() >= 30, "{tail}");
    assert!(by_path.iter().all(|path| pack.mapped_files.contains(path) && index.file(path).is_some()), "{by_path:?}");
    assert_eq!(tail.matches("crates/widget-language-server/src/").count(), 1, "written out once: {tail}");
    assert!(tail.contains("\n  feature_"), "{tail}");
    assert!(pack.tokens <= 6_000);
}

#[test]
fn what_the_shown_code_uses_from_files_past_the_maps_reach_is_listed_too() {
    // Ranked past the map's reach.
    let pack = parking_semaphore_pack(usize::MAX);
    assert_eq!(pack.full_files[0], "src/sync/semaphore.rs", "{}", pack.text);
    let used =
        &pack.text[pack.text.find("\nUsed by the files shown, from files not listed above:\n").expect("headed")..];
    let used = &used[used.find("\nsrc/park/parking.rs (`sem::park::parking`)\n").expect("listed")..];
    for k in 0..8 {
        let line =
            format!("\n      {}: pub fn park_waiter_{k}(permits: u32, deadline: Option<Instant>) -> bool\n", k + 2);
        assert!(used.contains(&line), "the map keeps room for all eight: {}", pack.text);
    }
    assert!(pack.mapped_files.contains(&"src/park/parking.rs".to_owned()));
    assert!(!pack.text.contains("tests/parking.rs"), "test code is not listed for being used: {}", pack.text);
    assert!(!pack.text.contains("spins: usize"), "a module the semaphore does not import is not listed: {}", pack.text);
    assert!(!pack.text.contains("fn unpark"), "only what is used is listed: {}", pack.text);
    assert!(pack.tokens <= 2_000);
}

#[test]
fn a_file_of_which_the_shown_code_uses_much_shows_more_signatures() {
    let mut steps = String::new();
    for n in 0..60 {
        let _ = writeln!(steps, "pub fn step_{n:02}(&self) -> u32 {{ {n} }}");
    }
    let mut runner = String::from("use crate::steps::*;\n\npub fn run_all() {\n");
    for n in (0..72).step_by(2) {
        let _ = writeln!(runner, "    step_{n:02}();");
    }
    runner.push_str("}\n");
    let (dir, index) = workspace(&[
        ("Cargo.toml", "[package]\nname = \"runs\"\n".into()),
        ("src/lib.rs", "pub mod runner;\npub mod steps;\n".into()),
        ("src/runner.rs", runner),
        ("src/steps.rs", format!("{steps}{}", "// filler\n".repeat(800))),
        ("src/other.rs", format!("{}{}", steps.replace("step_", "other_"), "// filler\n".repeat(800))),
    ]);
    let pack = pack_for(&dir, &index, "`run_all` runs twice", 2_500);
    assert_eq!(pack.full_files[0], "src/runner.rs", "{}", pack.text);
    let steps = map_entry_of(&pack, "src/steps.rs");
    assert_eq!(steps.matches(": pub fn step_").count(), 30, "the thirty it uses: {steps}");
    assert!(steps.contains("     59: pub fn step_58(&self) -> u32\n        ... 30 more"), "{steps}");
    let other = map_entry_of(&pack, "src/other.rs");
    assert_eq!(other.matches(": pub fn other_").count(), 12, "{other}");
}

#[test]
fn of_names_of_equal_weight_those_the_issue_gives_first_get_the_parts() {
    let steps = numbered_functions(300);
    let (dir, index) = workspace(&[("src/steps.rs", steps)]);
    let pack = pack_for(&dir, &index, "`func_7`, `func_3`, `func_150` and `func_102` overflow", 2_000);
    assert_eq!(pack.part_files, ["src/steps.rs"], "{}", pack.text);
    for shown in ["fn func_7(", "fn func_3(", "fn func_150("] {
        assert!(pack.text.contains(&format!("pub {shown}x: u32) -> u32 {{\n    let y")), "{shown}: {}", pack.text);
    }
    assert!(!pack.text.contains("pub fn func_102(x: u32) -> u32 {\n"), "the fourth: {}", pack.text);
}

#[test]
fn a_test_that_shares_a_name_the_issue_gives_is_no_part_unless_the_issue_is_about_tests() {
    let mut steps = numbered_functions(300);
    steps.push_str("#[cfg(test)]\nmod tests {\n    #[test]\n    fn overflow_guard() {\n        assert_eq!(super::func_1(1), 4);\n    }\n}\n");
    let (dir, index) = workspace(&[("src/steps.rs", steps)]);
    let pack = pack_for(&dir, &index, "`func_7` and `overflow_guard` overflow", 2_000);
    assert_eq!(pack.part_files, ["src/steps.rs"], "{}", pack.text);
    assert!(pack.text.contains("pub fn func_7(x: u32) -> u32 {\n    let y"), "{}", pack.text);
    assert!(!pack.text.contains("fn overflow_guard() {\n"), "{}", pack.text);
    let about_tests = pack_for(&dir, &index, "The `overflow_guard` test fails on CI", 2_000);
    assert!(about_tests.text.contains("fn overflow_guard() {\n"), "{}", about_tests.text);
}

#[test]
fn only_the_lines_shown_of_a_file_in_part_count_as_used() {
    let mut pool =
        String::from("pub struct Pool;\nimpl Pool {\n    pub fn acquire(&self) {\n        grow_slab();\n    }\n");
    for n in 0..400 {
        let _ = writeln!(pool, "    pub fn filler_{n}(&self) -> usize {{ {n} }}");
    }
    pool.push_str("    pub fn release(&self) {\n        shrink_slab();\n        rest();\n    }\n}\n");
    let mut slab = String::new();
    for n in 0..120 {
        let _ = writeln!(slab, "pub fn slab_filler_{n}() -> usize {{ {n} }}");
    }
    slab.push_str("pub fn shrink_slab() {}\npub fn grow_slab() {}\npub fn rest() {}\n");
    let (dir, index) = workspace(&[("src/pool.rs", pool), ("src/slab.rs", slab)]);
    let pack = pack_for(&dir, &index, "`Pool::acquire` blocks forever", 1_000);
    assert_eq!(pack.part_files, ["src/pool.rs"], "{}", pack.text);
    let entry = map_entry_of(&pack, "src/slab.rs");
    assert!(entry.starts_with("src/slab.rs\n    122: pub fn grow_slab()\n      1: pub fn slab_filler_0()"), "{entry}");
    assert!(!entry.contains("shrink_slab"), "{entry}");
    // Nor do the words of the part's heading (`read_file shows the rest`).
    assert!(!entry.contains("fn rest"), "{entry}");
}

/// A pool of 600 small methods with `acquire` and `release` far apart in it.
fn large_pool() -> String {
    let mut pool = String::from("pub struct Pool;\n\nimpl Pool {\n");
    for n in 0..300 {
        let _ = writeln!(pool, "    pub fn filler_{n}(&self) -> u32 {{ {n} }}");
    }
    pool.push_str("    /// Takes a worker, waiting while all are busy.\n    #[inline]\n    pub fn acquire(&self) -> u32 {\n        let idle = self.filler_1();\n        if idle == 0 {\n            panic!(\"pool exhausted\");\n        }\n        idle\n    }\n");
    for n in 300..600 {
        let _ = writeln!(pool, "    pub fn filler_{n}(&self) -> u32 {{ {n} }}");
    }
    pool.push_str("    pub fn release(&self, worker: u32) {\n        drop(worker);\n    }\n}\n");
    pool
}

#[test]
fn a_large_files_parts_are_the_definitions_the_issue_points_at_with_their_comments() {
    let (dir, index) = workspace(&[("src/pool.rs", large_pool())]);
    let issue = "`Pool::acquire` panics with \"pool exhausted\" after `release`";
    let pack = pack_for(&dir, &index, issue, 2_000);
    assert!(pack.full_files.is_empty(), "{}", pack.text);
    assert_eq!(pack.part_files, ["src/pool.rs"]);
    assert_eq!(pack.mapped_files, ["src/pool.rs"], "its signatures are in the map too");
    assert!(pack.text.contains(PARTS_HEADING), "{}", pack.text);
    // The method with its doc comment and attribute, not the impl around it; then the
    // other named method, in file order.
    let acquire = "lines 304-312:\n```\n    /// Takes a worker, waiting while all are busy.\n    #[inline]\n    pub fn acquire(&self) -> u32 {\n";
    assert!(pack.text.contains(acquire), "{}", pack.text);
    assert!(pack.text.contains("            panic!(\"pool exhausted\");\n        }\n        idle\n    }\n```\nlines 613-615:\n```\n    pub fn release(&self, worker: u32) {\n"), "{}", pack.text);
    assert!(pack.text.contains("[in part: 13 of its 616 lines,"), "{}", pack.text);
    assert!(pack.text.contains("lines 1-1:\n```\npub struct Pool;\n```\nlines 304-312:"), "the named type too");
    assert!(!pack.text.contains("filler_299(&self) -> u32 { 299 }\n    /// Takes"), "{}", pack.text);
    assert!(pack.tokens <= 2_000);

    // With room for one part only, the first is shown.
    let ranked = rank(&index, issue);
    let read = |path: &str| std::fs::read_to_string(dir.path().join(path)).ok();
    let tight = build_pack(&index, &ranked, &[], &analyze(issue), 148, read);
    assert!(tight.text.contains("[in part: 9 of its 616 lines,"), "{}", tight.text);
    assert!(!tight.text.contains("pub fn release(&self, worker: u32) {\n        drop"), "{}", tight.text);
    assert!(tight.tokens <= 148, "{}", tight.text);
}

/// A function of six hundred steps, each line ending in `tail`, with two lines holding the
/// words of "The pool is exhausted although a worker sits idle" after the first `before`.
fn long_drain(before: usize, tail: &str) -> String {
    let mut long = String::from("pub fn drain(&self) {\n");
    for n in 0..600 {
        if n == before {
            long.push_str("    // the worker sits idle: the pool is exhausted\n    wake_idle_worker();\n");
        }
        let _ = writeln!(long, "    step_{n:03}();{tail}");
    }
    long.push_str("}\n");
    long
}

#[test]
fn a_large_file_the_issue_points_nowhere_into_shows_where_its_words_gather() {
    let (dir, index) = workspace(&[("src/pool.rs", large_pool())]);
    // Prose only: no name, path with a line or quoted message points into the file.
    let issue = "The pool is exhausted although a worker sits idle";
    let ranked = rank(&index, issue);
    assert!(ranked[0].lines.is_empty(), "{ranked:?}");
    let pack = pack_for(&dir, &index, issue, 2_000);
    assert_eq!(pack.part_files, ["src/pool.rs"], "{}", pack.text);
    // The heading names the words the part holds, those adding most to the file's rank first.
    let heading = "[in part: 9 of its 616 lines, the parts where the words it shares with the issue gather: \
                   `pool`, `idle`, `worker`, `exhausted`;";
    assert!(pack.text.contains(heading), "{}", pack.text);
    // The method the words gather in (`idle` three times, `exhausted`, `pool`, `worker` in
    // its comment), with its comment and attribute; not `release`, which has `worker` alone.
    let acquire = "lines 304-312:\n```\n    /// Takes a worker, waiting while all are busy.\n    #[inline]\n    pub fn acquire(&self) -> u32 {\n";
    assert!(pack.text.contains(acquire), "{}", pack.text);
    assert!(!pack.text.contains("lines 613-"), "one part: {}", pack.text);

    // A long function: the part of it where the words gather.
    let (dir, index) = workspace(&[("src/drain.rs", long_drain(400, ""))]);
    let pack = pack_for(&dir, &index, issue, 2_000);
    assert_eq!(pack.part_files, ["src/drain.rs"], "{}", pack.text);
    let window = pack.text.find("    // the worker sits idle").unwrap_or_else(|| panic!("{}", pack.text));
    // The words (lines 402 and 403) in the middle of the window.
    assert!(pack.text[..window].contains("lines 363-442:\n"), "{}", pack.text);
}

#[test]
fn where_the_words_gather_is_shown_in_a_smaller_part_when_a_whole_one_does_not_fit() {
    // Lines of a hundred characters: 80 of them take more than this budget's room for parts.
    let (dir, index) = workspace(&[("src/drain.rs", long_drain(300, &format!(" // {}", "-".repeat(80))))]);
    let pack = pack_for(&dir, &index, "The pool is exhausted although a worker sits idle", 2_000);
    assert_eq!(pack.part_files, ["src/drain.rs"], "{}", pack.text);
    // Half a part's size, the words (lines 302 and 303) in its middle.
    assert!(pack.text.contains("[in part: 40 of its 604 lines, the parts where the words"), "{}", pack.text);
    assert!(pack.text.contains("lines 283-322:\n"), "{}", pack.text);
    assert!(pack.tokens <= 2_000);
}

#[test]
fn a_large_file_with_no_function_holding_the_words_shows_the_lines_that_hold_them() {
    // A table of data: no function, the words in one entry.
    let mut table = String::from("pub const TYPES: &[(&str, &[&str])] = &[\n");
    for n in 0..600 {
        if n == 300 {
            table.push_str("    (\"idle\", &[\"*.worker\", \"*.exhausted\"]), // pool\n");
        }
        let _ = writeln!(table, "    (\"kind{n:03}\", &[\"*.ext{n:03}\"]),");
    }
    table.push_str("];\n");
    // Test code holding the words more often counts for nothing.
    table.push_str(
        "\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn idle_worker() {\n        \
                    let pool = exhausted(idle(worker()));\n        idle(exhausted(worker(pool)));\n    }\n}\n",
    );
    let (dir, index) = workspace(&[("src/types.rs", table)]);
    let pack = pack_for(&dir, &index, "The pool is exhausted although a worker sits idle", 2_000);
    assert_eq!(pack.part_files, ["src/types.rs"], "{}", pack.text);
    // The entry (line 302) in the middle of a part's size.
    assert!(pack.text.contains("[in part: 80 of its 612 lines, the parts where the words"), "{}", pack.text);
    assert!(pack.text.contains("lines 263-342:\n"), "{}", pack.text);
}

#[test]
fn only_the_first_five_ranked_files_show_where_their_words_gather() {
    let files: Vec<(&str, String)> = ["src/a.rs", "src/b.rs", "src/c.rs", "src/d.rs", "src/e.rs", "src/f.rs"]
        .map(|path| (path, large_pool()))
        .into();
    let (dir, index) = workspace(&files);
    let issue = "The pool is exhausted although a worker sits idle";
    let ranked: Vec<String> = rank(&index, issue).into_iter().map(|file| file.path).collect();
    let pack = pack_for(&dir, &index, issue, 8_000);
    assert_eq!(pack.part_files, ranked[..5], "{}", pack.text);
}

#[test]
fn three_different_parts_are_shown_when_two_pointers_meet_in_one() {
    let (dir, index) = workspace(&[("src/pool.rs", large_pool())]);
    // The trace's line and the named `acquire` point into the same method.
    let issue =
        "thread 'main' panicked at src/pool.rs:309:13:\npool exhausted\n\nSee `acquire`, `release` and `filler_5`.";
    let pack = pack_for(&dir, &index, issue, 4_000);
    for part in ["lines 9-9:\n", "lines 304-312:\n", "lines 613-615:\n"] {
        assert!(pack.text.contains(part), "{part}: {}", pack.text);
    }
}

#[test]
fn a_long_type_the_issue_names_shows_its_declaration_and_a_long_function_its_opening() {
    let mut pool = String::from(
        "package acme;\n\n/** A pool of workers. */\n@SuppressWarnings({\"unchecked\"})\npublic class Pool\n    extends Base {\n",
    );
    for n in 0..150 {
        let _ = writeln!(pool, "    public int filler{n}() {{ return {n}; }}");
    }
    pool.push_str("    /** Takes one. */\n    public int acquireWorker() {\n");
    for n in 0..120 {
        let _ = writeln!(pool, "        step({n});");
    }
    pool.push_str("        return 1;\n    }\n}\n");
    let (dir, index) = workspace(&[("src/main/java/acme/Pool.java", pool)]);
    let pack = pack_for(&dir, &index, "`Pool` and `acquireWorker` are slow", 1_500);
    let text = &pack.text;
    let declaration = "lines 3-6:\n```\n/** A pool of workers. */\n@SuppressWarnings({\"unchecked\"})\npublic class Pool\n    extends Base {\n```\n";
    assert!(text.contains(declaration), "past the annotation's brace to the class's: {text}");
    assert!(text.contains("lines 157-236:\n```\n    /** Takes one. */\n    public int acquireWorker() {\n"), "{text}");
    assert!(!text.contains("filler0() {"), "no lines the issue does not point at: {text}");
}

#[test]
fn a_long_function_the_issue_names_shows_the_line_its_trace_points_into() {
    let mut main = String::from("/// Runs every step.\npub fn run_steps() {\n");
    for n in 0..200 {
        let _ = writeln!(main, "    step_{n}();");
    }
    main.push_str("}\n");
    main.push_str(&fillers("fn", 300));
    let (dir, index) = workspace(&[("src/main.rs", main)]);
    let issue = "`run_steps` panics\n\nthread 'main' panicked at src/main.rs:95:5:\nstep failed";
    let pack = pack_for(&dir, &index, issue, 2_000);
    assert!(pack.text.contains("lines 75-154:\n```\n    step_72();\n"), "{}", pack.text);
    assert!(!pack.text.contains("pub fn run_steps() {\n    step_0();"), "not its opening: {}", pack.text);
}

#[test]
fn overloads_are_one_part_with_their_body() {
    let mut script = String::new();
    for n in 0..600 {
        let _ = writeln!(script, "export function filler{n}(): number {{ return {n}; }}");
    }
    script.push_str(
        "/** Parses a value. */\nexport function parseValue(text: string): number;\n\
         export function parseValue(text: string, radix: number): number;\n\
         export function parseValue(text: string, radix = 10): number {\n  return parseInt(text, radix);\n}\n",
    );
    let (dir, index) = workspace(&[("src/parse.ts", script)]);
    let pack = pack_for(&dir, &index, "`parseValue` returns NaN", 2_000);
    assert!(pack.text.contains("[in part: 6 of its 606 lines,"), "{}", pack.text);
    assert!(pack.text.contains("lines 601-606:\n```\n/** Parses a value. */\n"), "{}", pack.text);
}

#[test]
fn a_traces_line_is_shown_beside_the_functions_the_issue_names() {
    let mut main = String::from("fn run() {\n");
    for n in 0..300 {
        let _ = writeln!(main, "    step({n});");
    }
    main.push_str("}\n");
    main.push_str(&fillers("fn", 300));
    main.push_str("fn alpha_step() {}\nfn beta_step() {}\n");
    let (dir, index) = workspace(&[("src/main.rs", main)]);
    let issue = "thread 'main' panicked at src/main.rs:30:5\n`alpha_step` and `beta_step` are not run";
    let pack = pack_for(&dir, &index, issue, 2_000);
    assert_eq!(pack.part_files, ["src/main.rs"], "{}", pack.text);
    for part in ["lines 10-89:\n", "lines 603-604:\n"] {
        assert!(pack.text.contains(part), "{part}: {}", pack.text);
    }
}

#[test]
fn a_traces_line_in_a_long_overload_shows_that_overload() {
    let mut out = String::from("package acme;\n\npublic class Out {\n");
    for n in 0..200 {
        let _ = writeln!(out, "    void filler{n}() {{}}");
    }
    for parameter in ["int b", "byte[] b"] {
        let _ = writeln!(out, "    /** Writes. */\n    void write({parameter}) {{");
        for n in 0..48 {
            let _ = writeln!(out, "        step({n});");
        }
        out.push_str("    }\n");
    }
    out.push_str("}\n");
    let (dir, index) = workspace(&[("src/main/java/acme/Out.java", out)]);
    // Lines 204-254 and 255-305: the trace's line 290 is in the second.
    let issue = "NullPointerException\n\tat acme.Out.write(Out.java:290)";
    // Room for one of the two.
    let pack = pack_for(&dir, &index, issue, 700);
    assert!(
        pack.text.contains("lines 255-305:\n```\n    /** Writes. */\n    void write(byte[] b) {\n"),
        "{}",
        pack.text
    );
}

#[test]
fn the_most_important_part_is_shown_when_two_do_not_fit_together() {
    let long = "x".repeat(150);
    let mut main = String::new();
    main.push_str(&fillers("fn", 400));
    for name in ["run_alpha", "run_beta"] {
        let _ = writeln!(main, "fn {name}() {{");
        for n in 0..77 {
            let _ = writeln!(main, "    let _{n} = \"{long}\";");
        }
        main.push_str("}\n");
    }
    let (dir, index) = workspace(&[("src/main.rs", main)]);
    // Room for one of the two 79-line functions (about 13,000 characters each), not both.
    let issue = "thread 'main' panicked at src/main.rs:430:5\n`run_beta` too";
    let pack = pack_for(&dir, &index, issue, 6_000);
    assert_eq!(pack.part_files, ["src/main.rs"], "{}", pack.text);
    // The named function's line is the ranking's strongest, so it comes first.
    assert!(pack.text.contains("[in part: 79 of its 558 lines,"), "one of them: {}", pack.text);
    assert!(pack.text.contains("lines 480-558:\n```\nfn run_beta() {\n"), "{}", pack.text);
}

#[test]
fn a_long_constant_shows_its_first_lines() {
    let mut codes = String::from("package acme;\n\npublic class Codes {\n");
    for n in 0..300 {
        let _ = writeln!(codes, "    void filler{n}() {{}}");
    }
    codes.push_str("    static final Map<String, Integer> STATUS_CODES = Map.ofEntries(\n");
    for n in 0..300 {
        let _ = writeln!(codes, "        Map.entry(\"k{n}\", {n}),");
    }
    codes.push_str("        Map.entry(\"end\", 0));\n}\n");
    let (dir, index) = workspace(&[("src/main/java/acme/Codes.java", codes)]);
    let pack = pack_for(&dir, &index, "`STATUS_CODES` maps k7 wrongly", 2_000);
    assert!(pack.text.contains("[in part: 12 of its"), "{}", pack.text);
    assert!(pack.text.contains("lines 304-315:\n"), "{}", pack.text);
}

#[test]
fn neighbouring_parts_never_grow_past_a_parts_size() {
    let mut text = String::from("public class Bean {\n");
    for n in 0..600 {
        let _ = writeln!(text, "    void filler{n}() {{}}");
    }
    // Ten 30-line constructors in a row: naming the class names them all.
    for n in 0..10 {
        let _ = writeln!(text, "    /** Constructor {n}. */\n    public Bean(int a{n}) {{");
        for k in 0..27 {
            let _ = writeln!(text, "        step({k});");
        }
        text.push_str("    }\n");
    }
    text.push_str("}\n");
    let (dir, index) = workspace(&[("src/main/java/acme/Bean.java", text)]);
    let pack = pack_for(&dir, &index, "`Bean` fails to construct", 4_000);
    let longest = pack
        .text
        .lines()
        .filter_map(|line| line.strip_prefix("lines ")?.strip_suffix(':')?.split_once('-'))
        .map(|(first, last)| last.parse::<u32>().unwrap() - first.parse::<u32>().unwrap() + 1)
        .max();
    assert!(longest.is_some_and(|longest| longest <= MAX_PART_LINES), "{longest:?}: {}", pack.text);
}

/// A 2,000-line function: a part of it can only be the lines around a line.
fn long_engine() -> String {
    let mut engine = String::from("pub fn run() {\n");
    for n in 0..2000 {
        let _ = writeln!(engine, "    step({n});");
    }
    engine.push_str("}\n");
    engine
}

#[test]
fn every_frame_into_a_file_gets_its_part() {
    let (dir, index) = workspace(&[("src/engine.rs", long_engine())]);
    let issue = "fails at src/engine.rs:1650, then src/engine.rs:755 and src/engine.rs:1769";
    let pack = pack_for(&dir, &index, issue, 4_000);
    for part in ["lines 735-814:\n", "lines 1630-1709:\n", "lines 1749-1828:\n"] {
        assert!(pack.text.contains(part), "{part}: {}", pack.text);
    }
}

#[test]
fn a_part_that_would_grow_another_past_its_size_leaves_room_for_the_others() {
    let mut engine = long_engine();
    engine.push_str("pub fn alpha_step() {}\n");
    engine.push_str(&fillers("pub fn", 10));
    engine.push_str("pub fn beta_step() {}\n");
    let (dir, index) = workspace(&[("src/engine.rs", engine)]);
    // `run`'s opening (1-80, the ranking's strongest line) and the trace's window (10-89)
    // overlap, and together would be longer than a part: the window is left out, and the
    // two named functions are shown.
    let issue = "panicked at src/engine.rs:30:5 in `run`, after `alpha_step` and `beta_step`";
    let pack = pack_for(&dir, &index, issue, 4_000);
    for part in ["lines 1-80:\n", "lines 2003-2003:\n", "lines 2014-2014:\n"] {
        assert!(pack.text.contains(part), "{part}: {}", pack.text);
    }
}

#[test]
fn a_qualified_name_means_the_definition_of_its_qualifier() {
    let mut kinds = String::new();
    for n in 0..300 {
        let _ = writeln!(kinds, "pub struct T{n};\nimpl T{n} {{\n    pub fn new() -> Self {{ T{n} }}\n}}");
    }
    let (dir, index) = workspace(&[("src/kinds.rs", kinds)]);
    let pack = pack_for(&dir, &index, "`T250::new` panics", 2_000);
    assert!(pack.text.contains("    pub fn new() -> Self { T250 }\n"), "{}", pack.text);
    assert!(!pack.text.contains("{ T0 }"), "another type's `new`: {}", pack.text);
}

#[test]
fn a_roomy_budget_shows_a_longer_function_whole() {
    let mut text = String::new();
    for n in 0..4000 {
        let _ = writeln!(text, "pub fn filler_{n}() -> u32 {{ {n} }}");
    }
    text.push_str("pub fn process_batch() {\n");
    for n in 0..148 {
        let _ = writeln!(text, "    step({n});");
    }
    text.push_str("}\n");
    let (dir, index) = workspace(&[("src/lib.rs", text)]);
    let issue = "`process_batch` ignores the last item";
    let roomy = pack_for(&dir, &index, issue, 32_000);
    assert!(roomy.text.contains("lines 4001-4150:\n```\npub fn process_batch() {\n"), "{}", roomy.text);
    let small = pack_for(&dir, &index, issue, 9_830);
    assert!(small.text.contains("lines 4001-4080:\n```\npub fn process_batch() {\n"), "its opening: {}", small.text);
}

#[test]
fn a_roomy_budget_still_shows_a_short_method_rather_than_its_class() {
    let mut text = String::new();
    for n in 0..4000 {
        let _ = writeln!(text, "pub fn filler_{n}() -> u32 {{ {n} }}");
    }
    // A 150-line module: a roomy part could hold it, but the method is what is meant.
    text.push_str("pub mod cart {\n");
    for n in 0..146 {
        let _ = writeln!(text, "    pub fn item_{n}() -> u32 {{ {n} }}");
    }
    text.push_str("    pub fn compute_total() -> u32 {\n        0\n    }\n}\n");
    let (dir, index) = workspace(&[("src/lib.rs", text)]);
    let pack = pack_for(&dir, &index, "`compute_total` returns 0", 32_000);
    assert!(pack.text.contains("lines 4148-4150:\n```\n    pub fn compute_total() -> u32 {\n"), "{}", pack.text);
}

#[test]
fn a_trait_as_the_qualifier_means_its_implementations_too() {
    let mut text = String::from("pub trait Codec {\n    fn decode(&self) -> u8;\n}\n");
    text.push_str(&fillers("pub fn", 400));
    text.push_str("pub struct Json;\nimpl Codec for Json {\n    fn decode(&self) -> u8 {\n        0\n    }\n}\n");
    let (dir, index) = workspace(&[("src/lib.rs", text)]);
    let pack = pack_for(&dir, &index, "`Codec::decode` returns 0 for Json input", 1_000);
    assert!(pack.text.contains("    fn decode(&self) -> u8 {\n        0\n"), "the implementation: {}", pack.text);
}

#[test]
fn a_part_never_starts_inside_a_long_attribute_or_comment() {
    let mut text = String::new();
    text.push_str(&fillers("pub fn", 400));
    text.push_str("/*\n");
    for n in 0..30 {
        let _ = writeln!(text, "Commentary line {n}.");
    }
    text.push_str("*/\n#[serde(\n");
    for n in 0..30 {
        let _ = writeln!(text, "    alias = \"name_{n}\",");
    }
    text.push_str(")]\npub struct Settings {\n    a: u8,\n}\n");
    let (dir, index) = workspace(&[("src/lib.rs", text)]);
    let pack = pack_for(&dir, &index, "`Settings` is wrong", 1_000);
    assert!(pack.text.contains("lines 465-467:\n```\npub struct Settings {\n"), "{}", pack.text);
}

#[test]
fn a_long_doc_comment_is_left_to_read_file() {
    let mut text = String::new();
    text.push_str(&fillers("pub fn", 400));
    for n in 0..40 {
        let _ = writeln!(text, "/// Example line {n}.");
    }
    text.push_str(
        "#[derive(Debug)]\n#[serde(\n    rename_all = \"kebab-case\"\n)]\npub struct Documented {\n    a: u8,\n}\n",
    );
    let (dir, index) = workspace(&[("src/lib.rs", text)]);
    let pack = pack_for(&dir, &index, "`Documented` is wrong", 1_000);
    let part = "lines 441-447:\n```\n#[derive(Debug)]\n#[serde(\n    rename_all = \"kebab-case\"\n)]\npub struct Documented {\n";
    assert!(pack.text.contains(part), "its attributes, not the comment above them: {}", pack.text);
}

#[test]
fn a_method_of_the_type_the_issue_names_comes_before_its_namesakes() {
    let mut text = String::new();
    for (ty, filler) in [("Alpha", 0), ("Beta", 1), ("Gamma", 2)] {
        let _ = writeln!(text, "pub struct {ty};\nimpl {ty} {{\n    pub fn new() -> Self {{");
        for k in 0..8 {
            let _ = writeln!(text, "        let _part_{k} = {k};");
        }
        let _ = writeln!(text, "        {ty}\n    }}");
        for n in 0..150 {
            let _ = writeln!(text, "    pub fn filler_{filler}_{n}(&self) -> u32 {{ {n} }}");
        }
        text.push_str("}\n");
    }
    let (dir, index) = workspace(&[("src/kinds.rs", text)]);
    // Room for one part: the `new` of `Gamma`, though `Alpha::new` comes first in the file.
    let pack = pack_for(&dir, &index, "`Gamma::new` should take a capacity", 168);
    assert_eq!(pack.part_files, ["src/kinds.rs"], "{}", pack.text);
    assert!(pack.text.contains("        Gamma\n    }\n```"), "{}", pack.text);
    assert!(pack.text.contains("[in part: 13 of its"), "one part only, with the type just above: {}", pack.text);
    // So too with no line from the ranking: the named type's `new` leads its namesakes.
    let query = analyze("`Gamma::new` should take a capacity");
    let text = std::fs::read_to_string(dir.path().join("src/kinds.rs")).unwrap();
    let parts =
        parts_pointed_at(index.file("src/kinds.rs").unwrap(), &[], &Mentioned::new(&query), &text, MAX_PART_LINES);
    assert_eq!(parts.first(), Some(&(331, 341)), "{parts:?}");
}

#[test]
fn paths_in_other_scripts_are_listed_within_the_budget() {
    // Folders named in accented letters: each counts for about a token, where its two bytes
    // would count half as much.
    let files: Vec<(String, String)> = (0..240)
        .map(|n| (format!("src/é{}/ééééé/éééééééééé_widget_{n}.rs", n % 7), format!("pub fn widget_{n}() {{}}\n")))
        .collect();
    let refs: Vec<(&str, &str)> = files.iter().map(|(p, t)| (p.as_str(), t.as_str())).collect();
    let (dir, index) = crate::testing::indexed(&refs);
    for budget in [300, 1_000, 3_000] {
        let pack = pack_for(&dir, &index, "widget is broken", budget);
        assert!(pack.text.contains("éééééééééé_widget_"), "{}", pack.text);
        assert!(pack.tokens <= budget, "{} > {budget}: {}", pack.tokens, pack.text);
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(48))]
    /// Whatever the workspace and the issue, the pack keeps to its budget (comments in Chinese
    /// counted for their tokens), shows a file in one way only, and lists no file the index
    /// does not hold.
    #[test]
    fn a_pack_keeps_to_its_budget_whatever_the_code_uses(
        modules in proptest::collection::vec(proptest::collection::vec((0usize..12, 0usize..12, 0usize..3), 1..40), 1..12),
        named in proptest::collection::vec(0usize..12, 0..4),
        budget in 20usize..1500,
    ) {
        let mut files = vec![("Cargo.toml".to_owned(), "[package]\nname = \"demo\"\n".to_owned())];
        let mut lib = String::new();
        for (m, functions) in modules.iter().enumerate() {
            let _ = writeln!(lib, "pub mod m{m};");
            let mut text = format!("use crate::m{}::*;\n", (m + 1) % modules.len());
            for (at, &(name, calls, nested)) in functions.iter().enumerate() {
                // Comments of another script count for their tokens, not their bytes.
                if (name + m) % 3 == 0 {
                    let _ = writeln!(text, "/// 计算第{at}步的结果,失败时重试。");
                }
                let _ = writeln!(text, "pub fn f{name}_{at}(x: u32) -> u32 {{");
                for _ in 0..nested {
                    let _ = writeln!(text, "    fn inner{name}() {{}}");
                }
                let _ = write!(text, "    f{calls}_0(x)\n}}\n");
            }
            files.push((format!("src/m{m}.rs"), text));
        }
        files.push(("src/lib.rs".to_owned(), lib));
        let refs: Vec<(&str, &str)> = files.iter().map(|(p, t)| (p.as_str(), t.as_str())).collect();
        let (dir, index) = crate::testing::indexed(&refs);
        let issue: String = named.iter().map(|n| format!("`f{n}_0` fails. ")).collect();
        let issue = if issue.is_empty() { "it fails".to_owned() } else { issue };
        let pack = pack_for(&dir, &index, &issue, budget);
        proptest::prop_assert!(pack.tokens <= budget, "{} > {budget}: {}", pack.tokens, pack.text);
        for file in &pack.full_files {
            proptest::prop_assert!(!pack.part_files.contains(file) && !pack.mapped_files.contains(file), "{file}");
        }
        for file in pack.full_files.iter().chain(&pack.part_files).chain(&pack.mapped_files) {
            proptest::prop_assert!(index.file(file).is_some(), "{file}");
        }
    }
}

proptest::proptest! {
    /// Whatever the index says of a file (a stale or damaged entry among it), its parts
    /// lie inside the file and its block inside the room given.
    #[test]
    fn parts_stay_inside_the_file_and_the_room(
        lines in 0usize..120,
        early in proptest::collection::vec((0u32..8, 0u32..130, 0u32..8), 0..4),
        anywhere in proptest::collection::vec((0u32..130, 0u32..130, 0u32..130), 0..6),
        line in proptest::option::of(0u32..130),
        room in 0usize..4000,
        cap in MAX_PART_LINES..=MAX_PART_LINES_WHEN_ROOMY,
        crlf in proptest::bool::ANY,
    ) {
        let end = if crlf { "\r\n" } else { "\n" };
        let text: String = (0..lines).map(|n| format!("    // line {n}{end}")).collect();
        let mut file = IndexedFile::from_source("src/a.rs", crate::context::Language::Rust, text.as_bytes());
        file.symbols.definitions = early
            .iter()
            .chain(&anywhere)
            .enumerate()
            .map(|(k, &(line, end_line, lead_line))| Definition {
                name: format!("item_{k}"),
                kind: DefinitionKind::Function,
                line,
                end_line,
                body_line: end_line,
                lead_line,
                signature: String::new(),
                container: None,
                implements: None,
                test: false,
            })
            .collect();
        let issue = analyze("`item_0`, `item_1`, `item_2` and `item_3` break");
        let pointed: Vec<u32> = line.into_iter().collect();
        let parts = parts_pointed_at(&file, &pointed, &Mentioned::new(&issue), &text, cap);
        proptest::prop_assert!(merged(&parts).len() <= MAX_PARTS, "{parts:?}");
        for &(start, last) in &parts {
            proptest::prop_assert!(1 <= start && start <= last && last as usize <= lines, "{parts:?}");
        }
        if let Some((block, shown)) = parts_block("src/a.rs", "", POINTED_PARTS, &text, &parts, room) {
            proptest::prop_assert!(block.len() <= room);
            for (start, end) in shown {
                proptest::prop_assert!(1 <= start && start <= end && end as usize <= lines, "{parts:?}");
            }
        }
        // Where the words gather (one part at most, by its type): inside the file, no longer
        // than `cap`.
        let words = [("line".to_owned(), 0.5), ("idle".to_owned(), 2.0), ("absent".to_owned(), 1.0)];
        let text = text.replace("line 7", "idle 7");
        if let Some((start, last)) = WordPlaces::new(&file, &words, &text).part(cap) {
            proptest::prop_assert!(1 <= start && start <= last && last as usize <= lines, "{start}-{last}");
            proptest::prop_assert!(last - start < cap, "{start}-{last}");
        }
    }
}

#[test]
fn a_line_deep_in_a_long_definition_is_shown_with_the_lines_around_it() {
    let mut long = String::from("pub fn run() {\n");
    for n in 0..600 {
        let _ = writeln!(long, "    step({n});");
    }
    long.push_str("}\n");
    let (dir, index) = workspace(&[("src/main.rs", long)]);
    let pack = pack_for(&dir, &index, "thread 'main' panicked at src/main.rs:300:5", 2_000);
    assert_eq!(pack.part_files, ["src/main.rs"], "{}", pack.text);
    assert!(pack.text.contains("lines 280-359:\n```\n    step(278);\n"), "{}", pack.text);
    assert!(pack.text.contains("    step(357);\n```\n"), "{}", pack.text);
}

#[test]
fn a_large_file_the_issue_points_nowhere_into_nor_shares_a_word_with_is_only_mapped() {
    let (dir, index) = workspace(&[("src/pool.rs", large_pool())]);
    let pack = pack_for(&dir, &index, "it starts slowly", 2_000);
    assert!(pack.part_files.is_empty(), "{}", pack.text);
    assert_eq!(pack.mapped_files, ["src/pool.rs"]);
    assert!(!pack.text.contains(PARTS_HEADING));
}
