//! The tools run over overlays of real temporary trees.

use super::*;
use crate::context::Index;
use crate::workspace::{DiskBase, Root};
use serde_json::json;
use std::sync::Arc;

fn overlay(files: &[(&str, &str)]) -> (tempfile::TempDir, Overlay) {
    let dir = crate::testing::tree(files);
    let overlay = Overlay::new(Root::new(dir.path()).unwrap(), Arc::new(DiskBase));
    (dir, overlay)
}

/// `find_symbol` of `name` through the standard tools, with the index ready.
fn find_symbol(overlay: &mut Overlay, index: &Index, name: &str) -> ToolOutcome {
    Toolset::standard().execute(overlay, Some(index), &mut Seen::default(), &call("find_symbol", json!({"name": name})))
}

/// `find_symbol` of `name` in a tree of `files`, indexed: what the model reads.
fn find_symbol_in(files: &[(&str, &str)], name: &str) -> String {
    let (dir, mut overlay) = overlay(files);
    let index = Index::build(dir.path(), None);
    find_symbol(&mut overlay, &index, name).output
}

fn call(name: &str, arguments: Value) -> ToolCall {
    ToolCall { id: "c".into(), name: name.into(), arguments, malformed: None }
}

#[test]
fn schemas_describe_required_fields_and_forbid_extras() {
    let specs = Toolset::standard().specs();
    let patch = specs.iter().find(|s| s.name == "patch_file").unwrap();
    assert_eq!(patch.parameters["type"], "object");
    assert_eq!(patch.parameters["additionalProperties"], false);
    let mut required: Vec<&str> =
        patch.parameters["required"].as_array().unwrap().iter().map(|v| v.as_str().unwrap()).collect();
    required.sort();
    assert_eq!(required, ["new_text", "old_text", "path"]);
    assert!(patch.parameters["properties"]["old_text"]["description"].as_str().unwrap().contains("exactly once"));
    assert!(patch.parameters.get("$schema").is_none());
}

#[test]
fn credential_files_are_neither_read_nor_searched() {
    let (_dir, mut overlay) = overlay(&[
        (".env", "DB_PASSWORD=hunter2\n"),
        ("config/.env.production", "TOKEN=abc\n"),
        (".env.example", "DB_PASSWORD=\n"),
        ("deploy/server.pem", "-----BEGIN PRIVATE KEY-----\n"),
        ("src/env.rs", "let password = std::env::var(\"DB_PASSWORD\");\n"),
    ]);
    let tools = Toolset::standard();
    let mut seen = Seen::default();
    for path in [".env", "config/.env.production", "deploy/server.pem"] {
        let read = tools.execute(&mut overlay, None, &mut seen, &call("read_file", json!({"path": path})));
        assert!(!read.ok && read.output.contains("holds credentials"), "{path}: {}", read.output);
    }
    assert!(tools.execute(&mut overlay, None, &mut seen, &call("read_file", json!({"path": ".env.example"}))).ok);
    let grep =
        tools.execute(&mut overlay, None, &mut seen, &call("grep", json!({"pattern": "PASSWORD|TOKEN|PRIVATE"})));
    assert!(grep.output.contains("src/env.rs") && grep.output.contains(".env.example"), "{}", grep.output);
    for secret in ["hunter2", ".env:", "config/.env.production", "server.pem", "abc", "BEGIN PRIVATE"] {
        assert!(!grep.output.contains(secret), "{secret} in {}", grep.output);
    }
}

#[cfg(unix)]
#[test]
fn a_link_to_a_credentials_file_is_read_as_that_file_and_so_refused() {
    let (dir, mut overlay) = overlay(&[
        (".env", "DB_PASSWORD=hunter2\n"),
        ("docker/db.env", "POSTGRES_PASSWORD=swordfish\n"),
        ("src/lib.rs", "pub fn connect() {}\n"),
    ]);
    std::os::unix::fs::symlink("../.env", dir.path().join("src/app.conf")).unwrap();
    std::os::unix::fs::symlink(".", dir.path().join("self")).unwrap();
    let tools = Toolset::standard();
    let mut seen = Seen::default();
    for path in ["src/app.conf", "self/.env", "docker/db.env"] {
        let read = tools.execute(&mut overlay, None, &mut seen, &call("read_file", json!({"path": path})));
        assert!(!read.ok && read.output.contains("holds credentials"), "{path}: {}", read.output);
    }
    let write = call("write_file", json!({"path": "src/app.conf", "content": "DB_PASSWORD=\n"}));
    assert!(!tools.execute(&mut overlay, None, &mut seen, &write).ok);
    let grep = tools.execute(&mut overlay, None, &mut seen, &call("grep", json!({"pattern": "PASSWORD"})));
    assert!(!grep.output.contains("hunter2") && !grep.output.contains("swordfish"), "{}", grep.output);
    assert_eq!(std::fs::read_to_string(dir.path().join(".env")).unwrap(), "DB_PASSWORD=hunter2\n");
}

#[cfg(unix)]
#[test]
fn a_file_is_changed_by_its_real_path_not_through_a_link() {
    let (dir, mut overlay) = overlay(&[("docs/CHANGELOG.md", "# Changes\n"), ("lib/a.rs", "pub fn a() {}\n")]);
    std::os::unix::fs::symlink("docs/CHANGELOG.md", dir.path().join("CHANGELOG.md")).unwrap();
    std::os::unix::fs::symlink("lib", dir.path().join("vendor")).unwrap();
    let tools = Toolset::standard();
    let mut seen = Seen::default();
    let read = tools.execute(&mut overlay, None, &mut seen, &call("read_file", json!({"path": "CHANGELOG.md"})));
    assert!(read.ok && read.output.contains("# Changes"), "a link is read as its file: {}", read.output);
    for (name, arguments, real) in [
        (
            "patch_file",
            json!({"path": "CHANGELOG.md", "old_text": "# Changes\n", "new_text": "# Changes\n\n- one\n"}),
            "docs/CHANGELOG.md",
        ),
        ("write_file", json!({"path": "vendor/new.rs", "content": "pub fn new() {}\n"}), "lib/new.rs"),
        ("write_file", json!({"path": "vendor/a.rs", "content": "pub fn a() {}\npub fn b() {}\n"}), "lib/a.rs"),
        ("delete_file", json!({"path": "vendor/a.rs"}), "lib/a.rs"),
        ("mkdir", json!({"path": "vendor/sub"}), "lib/sub"),
    ] {
        let outcome = tools.execute(&mut overlay, None, &mut seen, &call(name, arguments));
        assert!(!outcome.ok, "{name}: {}", outcome.output);
        assert!(outcome.output.contains(&format!("the file is `{real}`")), "{name}: {}", outcome.output);
    }
    assert!(overlay.changes().is_empty(), "nothing staged through a link");
    let patch = call(
        "patch_file",
        json!({"path": "docs/CHANGELOG.md", "old_text": "# Changes\n", "new_text": "# Changes\n\n- one\n"}),
    );
    assert!(tools.execute(&mut overlay, None, &mut seen, &patch).ok, "by its real path it changes");
    assert_eq!(overlay.changes().len(), 1);
}

#[cfg(unix)]
#[test]
fn a_file_read_through_a_link_shows_the_changes_made_by_its_real_path() {
    let (dir, mut overlay) = overlay(&[("docs/CHANGELOG.md", "# Changes\n- zero\n"), ("lib/a.rs", "pub fn a() {}\n")]);
    std::os::unix::fs::symlink("docs/CHANGELOG.md", dir.path().join("CHANGELOG.md")).unwrap();
    std::os::unix::fs::symlink("lib", dir.path().join("vendor")).unwrap();
    let tools = Toolset::standard();
    let mut seen = Seen::default();
    // Read through the link first, then changed by the real path, then read again.
    let read = |overlay: &mut Overlay, seen: &mut Seen, path: &str| {
        tools.execute(overlay, None, seen, &call("read_file", json!({"path": path}))).output
    };
    assert!(read(&mut overlay, &mut seen, "CHANGELOG.md").contains("- zero"));
    let patch =
        call("patch_file", json!({"path": "docs/CHANGELOG.md", "old_text": "- zero\n", "new_text": "- zero\n- one\n"}));
    assert!(tools.execute(&mut overlay, None, &mut seen, &patch).ok);
    let patch =
        call("patch_file", json!({"path": "lib/a.rs", "old_text": "pub fn a() {}", "new_text": "pub fn b() {}"}));
    assert!(tools.execute(&mut overlay, None, &mut seen, &patch).ok);
    assert!(read(&mut overlay, &mut seen, "CHANGELOG.md").contains("- one"), "the link shows the patch");
    assert!(read(&mut overlay, &mut seen, "vendor/a.rs").contains("pub fn b()"), "so does a linked folder");
    let grep = tools.execute(&mut overlay, None, &mut seen, &call("grep", json!({"pattern": "pub fn a\\(|- one"})));
    assert!(!grep.output.contains("pub fn a("), "no file shows the text the run replaced: {}", grep.output);
    assert!(grep.output.contains("docs/CHANGELOG.md:3"), "{}", grep.output);
    // What was read through the link counts as shown when the real file is written whole.
    let (dir2, mut fresh) = self::overlay(&[("docs/NOTES.md", "keep this line\n")]);
    std::os::unix::fs::symlink("docs/NOTES.md", dir2.path().join("NOTES.md")).unwrap();
    let mut seen = Seen::default();
    assert!(read(&mut fresh, &mut seen, "NOTES.md").contains("keep this line"));
    let write = call("write_file", json!({"path": "docs/NOTES.md", "content": "a new first line\n"}));
    let written = tools.execute(&mut fresh, None, &mut seen, &write);
    assert!(written.ok, "the lines read through the link were shown: {}", written.output);
    assert_eq!(overlay.changes().len(), 2, "one change per file, by its real path");
}

#[cfg(unix)]
#[test]
fn a_link_to_a_folder_is_listed_as_a_folder_and_not_searched_as_a_file() {
    let (dir, mut overlay) = overlay(&[("lib/a.rs", "pub fn retry() {}\n"), ("src/main.rs", "fn main() {}\n")]);
    std::os::unix::fs::symlink("../lib", dir.path().join("src/vendor")).unwrap();
    let tools = Toolset::standard();
    let mut seen = Seen::default();
    let listed = tools.execute(&mut overlay, None, &mut seen, &call("list_files", json!({"path": "src"})));
    assert_eq!(listed.output, "src/main.rs\nsrc/vendor/\n");
    let inside = tools.execute(&mut overlay, None, &mut seen, &call("list_files", json!({"path": "src/vendor"})));
    assert!(inside.ok && inside.output.contains("src/vendor/a.rs"), "{}", inside.output);
    let grep = tools.execute(&mut overlay, None, &mut seen, &call("grep", json!({"pattern": "retry"})));
    assert!(grep.output.contains("lib/a.rs:1:"), "{}", grep.output);
    assert!(!grep.output.contains("not searched"), "a folder is no unreadable file: {}", grep.output);
}

#[cfg(unix)]
#[test]
fn a_link_to_the_root_does_not_lead_to_the_run_records() {
    let (dir, mut overlay) = overlay(&[("src/lib.rs", "pub fn connect() {}\n")]);
    std::fs::create_dir_all(dir.path().join(".issuewright/runs/r")).unwrap();
    std::fs::write(dir.path().join(".issuewright/runs/r/trace.jsonl"), "{\"secret\": \"prompt\"}\n").unwrap();
    std::os::unix::fs::symlink(".", dir.path().join("self")).unwrap();
    let tools = Toolset::standard();
    let mut seen = Seen::default();
    let read = call("read_file", json!({"path": "self/.issuewright/runs/r/trace.jsonl"}));
    let read = tools.execute(&mut overlay, None, &mut seen, &read);
    assert!(!read.ok && !read.output.contains("prompt"), "{}", read.output);
    let write = call("write_file", json!({"path": "self/.issuewright/runs/r/x.txt", "content": "x"}));
    assert!(!tools.execute(&mut overlay, None, &mut seen, &write).ok);
    let read = tools.execute(&mut overlay, None, &mut seen, &call("read_file", json!({"path": "self/src/lib.rs"})));
    assert!(read.ok, "a link inside the root still works: {}", read.output);
}

#[test]
fn credential_files_are_not_changed_and_a_patch_tells_nothing_of_them() {
    let (dir, mut overlay) = overlay(&[(".env", "DB_PASSWORD=hunter2\n"), ("deploy/server.pem", "KEY\n")]);
    let tools = Toolset::standard();
    let mut seen = Seen::default();
    let calls = [
        ("patch_file", json!({"path": ".env", "old_text": "DB_PASSWORD=h", "new_text": "DB_PASSWORD=h"})),
        ("patch_file", json!({"path": ".env", "old_text": "DB_PASSWORD=x", "new_text": "DB_PASSWORD=x"})),
        ("write_file", json!({"path": ".env", "content": "DB_PASSWORD=\n"})),
        ("delete_file", json!({"path": "deploy/server.pem"})),
    ];
    let outputs: Vec<String> = calls
        .iter()
        .map(|(name, arguments)| {
            let outcome = tools.execute(&mut overlay, None, &mut seen, &call(name, arguments.clone()));
            assert!(!outcome.ok && outcome.output.contains("holds credentials"), "{name}: {}", outcome.output);
            outcome.output
        })
        .collect();
    assert_eq!(outputs[0], outputs[1], "a prefix that is there and one that is not read the same");
    assert!(overlay.changes().is_empty());
    assert_eq!(std::fs::read_to_string(dir.path().join(".env")).unwrap(), "DB_PASSWORD=hunter2\n");

    // A new one the task asks for is the run's own to write and change.
    let created = tools.execute(
        &mut overlay,
        None,
        &mut seen,
        &call("write_file", json!({"path": "config/.env.local", "content": "PORT=8080\n"})),
    );
    assert!(created.ok, "{}", created.output);
    let patched = tools.execute(
        &mut overlay,
        None,
        &mut seen,
        &call("patch_file", json!({"path": "config/.env.local", "old_text": "8080", "new_text": "9090"})),
    );
    assert!(patched.ok, "{}", patched.output);
}

#[test]
fn long_reads_stop_at_a_whole_line_and_say_where_to_go_on() {
    let text: String = (1..=1500).map(|n| format!("{n:>5} {}\n", "x".repeat(93))).collect();
    let (_dir, mut overlay) = overlay(&[("big.txt", &text)]);
    let tools = Toolset::standard();
    let mut seen = Seen::default();
    let first = tools.execute(&mut overlay, None, &mut seen, &call("read_file", json!({"path": "big.txt"})));
    assert!(first.ok);
    assert!(first.output.starts_with("big.txt (lines 1-500 of 1500):\n"), "{}", &first.output[..60]);
    assert!(first.output.contains("  500 xxx") && !first.output.contains("  501 xxx"));
    assert!(first.output.ends_with("[1000 more lines; call read_file with start_line=501]\n"));
    assert!(!first.output.contains("characters cut"), "nothing is cut from the middle");
    let next =
        tools.execute(&mut overlay, None, &mut seen, &call("read_file", json!({"path": "big.txt", "start_line": 501})));
    assert!(next.output.starts_with("big.txt (lines 501-1000 of 1500):\n  501 xxx"));
    // A model with a small window reads in smaller whole pieces.
    let small =
        tools.execute_within(&mut overlay, None, &mut seen, &call("read_file", json!({"path": "big.txt"})), 5_000);
    assert!(small.output.starts_with("big.txt (lines 1-50 of 1500):\n"), "{}", &small.output[..40]);
    assert!(small.output.ends_with("call read_file with start_line=51]\n"));
}

#[test]
fn reads_of_another_script_stop_at_a_whole_line_as_the_cut_to_the_model_measures() {
    // 1,000 lines of 24 Chinese characters: 72 bytes a line, but about 24 tokens, as many as a
    // line of 96 ASCII characters.
    let text: String = (1..=1000).map(|n| format!("{n:>4}{}\n", "错误信息".repeat(6))).collect();
    let (_dir, mut overlay) = overlay(&[("notes.txt", &text)]);
    let tools = Toolset::standard();
    let mut seen = Seen::default();
    let read = tools.execute(&mut overlay, None, &mut seen, &call("read_file", json!({"path": "notes.txt"})));
    assert!(read.ok, "{}", read.output);
    assert!(!read.output.contains("characters cut"), "nothing is cut from the middle");
    assert!(read.output.starts_with("notes.txt (lines 1-495 of 1000):\n"), "{}", &read.output[..40]);
    assert!(read.output.ends_with("[505 more lines; call read_file with start_line=496]\n"));
}

#[test]
fn changing_a_generated_file_says_to_change_its_source() {
    let generated = "// Code generated by protoc-gen-go. DO NOT EDIT.\npub struct User { pub id: u64 }\n";
    let (_dir, mut overlay) = overlay(&[("src/user.pb.rs", generated), ("src/lib.rs", "pub mod user;\n")]);
    let tools = Toolset::standard();
    let mut seen = Seen::default();
    let patch =
        json!({"path": "src/user.pb.rs", "old_text": "pub id: u64", "new_text": "pub id: u64, pub name: String"});
    let patched = tools.execute(&mut overlay, None, &mut seen, &call("patch_file", patch));
    assert!(patched.ok, "the change still stands: {}", patched.output);
    assert!(
        patched.output.contains("note: src/user.pb.rs says it is generated (`do not edit`), so this change is lost"),
        "{}",
        patched.output
    );
    let replaced = tools.execute(
        &mut overlay,
        None,
        &mut seen,
        &call("write_file", json!({"path": "src/user.pb.rs", "content": generated.replace("u64", "u32")})),
    );
    assert!(replaced.ok && replaced.output.contains("says it is generated"), "{}", replaced.output);
    let unmarked = tools.execute(
        &mut overlay,
        None,
        &mut seen,
        &call("write_file", json!({"path": "src/user.pb.rs", "content": "pub struct User;\n"})),
    );
    assert!(
        unmarked.output.contains("says it is generated"),
        "dropping the header does not hide it: {}",
        unmarked.output
    );
    let plain = json!({"path": "src/lib.rs", "old_text": "pub mod user;", "new_text": "pub mod user;\npub mod role;"});
    let plain = tools.execute(&mut overlay, None, &mut seen, &call("patch_file", plain));
    assert!(plain.ok && !plain.output.contains("generated"), "{}", plain.output);
}

#[test]
fn writing_a_file_whole_keeps_the_documentation_the_pack_left_out() {
    let docs: String = (0..30).map(|n| format!("//! Line {n} of the module's guide.\n")).collect();
    let code = "pub fn channel_len() -> usize {\n    0\n}\n";
    let (_dir, mut overlay) = overlay(&[("src/sync/mod.rs", &format!("{docs}\n{code}"))]);
    let tools = Toolset::standard();
    let mut seen = Seen::default();
    // In full in the pack, but for the tail of its guide.
    seen.saw_lines("src/sync/mod.rs", docs.lines().take(8).chain(code.lines()));
    let write = |content: String| call("write_file", json!({"path": "src/sync/mod.rs", "content": content}));
    // Written from what the pack shows: the first eight lines of the guide, then the code.
    let head: String = docs.lines().take(8).map(|line| format!("{line}\n")).collect();
    let dropped = tools.execute(&mut overlay, None, &mut seen, &write(format!("{head}\n{}", code.replace('0', "1"))));
    assert!(!dropped.ok && !dropped.changed, "{}", dropped.output);
    assert!(
        dropped.output.contains("drops its lines 9-30, which the context pack leaves out when it cuts the file")
            && dropped.output.contains("read_file with start_line 9 and end_line 30"),
        "{}",
        dropped.output
    );
    assert!(overlay.changes().is_empty(), "nothing written");
    // Nor may a new guide take the place of lines never shown.
    let rewrite = write(format!("//! A new guide.\n{code}"));
    let unread = tools.execute(&mut overlay, None, &mut seen, &rewrite);
    assert!(!unread.ok && unread.output.contains("leaves out lines 9-30 of src/sync/mod.rs"), "{}", unread.output);
    // Once they are read, the whole guide kept, or a new one written in its place: written.
    let read = json!({"path": "src/sync/mod.rs", "start_line": 9, "end_line": 30});
    assert!(tools.execute(&mut overlay, None, &mut seen, &call("read_file", read)).ok);
    let kept = tools.execute(&mut overlay, None, &mut seen, &write(format!("{docs}\n{}", code.replace('0', "1"))));
    assert!(kept.ok && kept.changed, "{}", kept.output);
    let rewritten = tools.execute(&mut overlay, None, &mut seen, &rewrite);
    assert!(rewritten.ok, "{}", rewritten.output);
}

#[test]
fn writing_a_file_whole_keeps_its_licence_header() {
    let licence = "/*\n * Copyright 2017 Google LLC.\n *\n * Licensed under the Apache License, Version 2.0.\n */\n\n";
    let code = "package a;\n\nclass Reader {}\n";
    let (_dir, mut overlay) = overlay(&[("src/a/Reader.java", &format!("{licence}{code}"))]);
    let path = WorkspacePath::parse("src/a/Reader.java").unwrap();
    let tools = Toolset::standard();
    let mut seen = Seen::default();
    seen.saw_lines("src/a/Reader.java", code.lines()); // in full in the pack, its header left out
    let write = |content: &str| json!({"path": "src/a/Reader.java", "content": content});
    let dropped =
        tools.execute(&mut overlay, None, &mut seen, &call("write_file", write(&code.replace("{}", "{ int n; }"))));
    assert!(!dropped.ok && !dropped.changed, "{}", dropped.output);
    assert!(
        dropped
            .output
            .contains("src/a/Reader.java starts with a licence header (lines 1-6) that this content leaves out")
            && dropped.output.contains("read_file with end_line 6"),
        "{}",
        dropped.output
    );
    assert_eq!(overlay.current_text(&path).unwrap().unwrap(), format!("{licence}{code}"), "nothing written");
    assert!(overlay.changes().is_empty());

    let kept = format!("{}{}", licence.replace('\n', "\r\n"), code.replace("{}", "{ int n; }"));
    let written = tools.execute(&mut overlay, None, &mut seen, &call("write_file", write(&kept)));
    assert!(written.ok, "the header kept, with other line endings: {}", written.output);
    let patched = json!({"path": "src/a/Reader.java", "old_text": licence, "new_text": ""});
    let patched = tools.execute(&mut overlay, None, &mut seen, &call("patch_file", patched));
    assert!(patched.ok, "a patch may take it out: {}", patched.output);
    let created = tools.execute(
        &mut overlay,
        None,
        &mut seen,
        &call("write_file", json!({"path": "src/a/New.java", "content": code})),
    );
    assert!(created.ok, "a new file needs none: {}", created.output);
}

#[test]
fn writing_a_file_whole_drops_no_code_the_run_has_not_shown() {
    let code: String = (1..=40).map(|n| format!("pub fn step_{n}() -> u32 {{\n    {n}\n}}\n\n")).collect();
    let (_dir, mut overlay) = overlay(&[("src/steps.rs", &code)]);
    let path = WorkspacePath::parse("src/steps.rs").unwrap();
    let tools = Toolset::standard();
    let mut seen = Seen::default();
    let mut run = |overlay: &mut Overlay, name: &str, arguments: Value| {
        tools.execute(overlay, None, &mut seen, &call(name, arguments))
    };
    // Shown steps 10 and 11 only, the model writes the file as if that were all of it.
    let part = run(&mut overlay, "read_file", json!({"path": "src/steps.rs", "start_line": 37, "end_line": 44}));
    assert!(part.output.contains("pub fn step_11()"), "{}", part.output);
    let from_part = "pub fn step_10() -> u32 {\n    100\n}\n\npub fn step_11() -> u32 {\n    11\n}\n";
    let write = json!({"path": "src/steps.rs", "content": from_part});
    let refused = run(&mut overlay, "write_file", write.clone());
    assert!(!refused.ok && !refused.changed, "{}", refused.output);
    assert_eq!(
        refused.output,
        "nothing written: this content leaves out lines 1-34 and 45-158 of src/steps.rs (76 lines of code), \
             which you have not been shown. Change the file with patch_file, which replaces only the text you give \
             it; or read them (read_file with start_line 1 and end_line 34 shows the first) and write the file with \
             them, or without them if that is what you mean.\n"
    );
    assert_eq!(overlay.current_text(&path).unwrap().unwrap(), code, "nothing written");

    // A patch changes only what it names; the rest, once read, may go.
    let patch = json!({"path": "src/steps.rs", "old_text": "    10\n", "new_text": "    100\n"});
    assert!(run(&mut overlay, "patch_file", patch).ok);
    assert!(!run(&mut overlay, "write_file", write.clone()).ok, "still unread");
    run(&mut overlay, "read_file", json!({"path": "src/steps.rs", "end_line": 36}));
    run(&mut overlay, "read_file", json!({"path": "src/steps.rs", "start_line": 45}));
    let written = run(&mut overlay, "write_file", write);
    assert!(written.ok, "{}", written.output);
    // What the model wrote whole it has seen whole.
    assert!(run(&mut overlay, "write_file", json!({"path": "src/steps.rs", "content": "pub fn all() {}\n"})).ok);
}

#[test]
fn neither_a_deletion_first_nor_a_patch_that_takes_lines_out_shows_a_file() {
    let code: String = (1..=40).map(|n| format!("pub fn step_{n}() -> u32 {{\n    {n}\n}}\n\n")).collect();
    let (_dir, mut overlay) = overlay(&[("src/steps.rs", &code), ("src/more.rs", &code)]);
    let tools = Toolset::standard();
    let mut seen = Seen::default();
    let mut run = |overlay: &mut Overlay, name: &str, arguments: Value| {
        tools.execute(overlay, None, &mut seen, &call(name, arguments))
    };
    let part = json!({"path": "src/steps.rs", "start_line": 37, "end_line": 44});
    assert!(run(&mut overlay, "read_file", part).ok);
    let from_part = "pub fn step_10() -> u32 {\n    100\n}\n\npub fn step_11() -> u32 {\n    11\n}\n";
    // Deleting the file first is no way around the refusal.
    assert!(run(&mut overlay, "delete_file", json!({"path": "src/steps.rs"})).ok);
    let recreated = run(&mut overlay, "write_file", json!({"path": "src/steps.rs", "content": from_part}));
    assert!(!recreated.ok && recreated.output.contains("leaves out lines 1-34 and 45-158"), "{}", recreated.output);

    // A patch that only takes lines out shows none: the line after them is still unseen.
    let cut = "pub fn step_11() -> u32 {\n    11\n}\n\n";
    let cut = run(&mut overlay, "patch_file", json!({"path": "src/more.rs", "old_text": cut, "new_text": ""}));
    assert!(cut.ok, "{}", cut.output);
    let only_1 = json!({"path": "src/more.rs", "content": "pub fn step_1() -> u32 {\n    1\n}\n"});
    let refused = run(&mut overlay, "write_file", only_1);
    assert!(refused.output.contains("(76 lines of code)"), "step 12 too: {}", refused.output);
    assert!(run(&mut overlay, "read_file", json!({"path": "src/more.rs", "end_line": 153})).ok);
    let refused = run(&mut overlay, "write_file", json!({"path": "src/more.rs", "content": "pub fn step_0() {}\n"}));
    assert!(refused.output.contains("leaves out line 154 of src/more.rs (1 line of code)"), "{}", refused.output);
}

#[test]
fn invalid_arguments_name_the_field_and_change_nothing() {
    let (_dir, mut overlay) = overlay(&[("a.txt", "x\n")]);
    let tools = Toolset::standard();
    let mut seen = Seen::default();
    let missing =
        tools.execute(&mut overlay, None, &mut seen, &call("patch_file", json!({"path": "a.txt", "old_text": "x"})));
    assert!(!missing.ok);
    assert!(missing.output.contains("new_text"), "{}", missing.output);
    let wrong_type =
        tools.execute(&mut overlay, None, &mut seen, &call("write_file", json!({"path": "a.txt", "content": 3})));
    assert!(wrong_type.output.contains("/content"), "{}", wrong_type.output);
    let extra = tools.execute(&mut overlay, None, &mut seen, &call("mkdir", json!({"path": "d", "mode": 7})));
    assert!(extra.output.contains("mode"), "{}", extra.output);
    let not_object = tools.execute(&mut overlay, None, &mut seen, &call("read_file", json!("a.txt")));
    assert!(!not_object.ok);
    let zero_line =
        tools.execute(&mut overlay, None, &mut seen, &call("read_file", json!({"path": "a.txt", "start_line": 0})));
    assert!(zero_line.output.contains("/start_line"), "{}", zero_line.output);
    let unknown = tools.execute(&mut overlay, None, &mut seen, &call("run_shell", json!({})));
    assert!(unknown.output.contains("unknown tool `run_shell`"), "{}", unknown.output);
    assert!([&missing, &wrong_type, &extra, &not_object, &zero_line, &unknown].iter().all(|o| o.invalid_arguments));
    let cut = ToolCall { malformed: Some("EOF while parsing".into()), ..call("write_file", json!("{\"path\": \"a")) };
    let truncated = tools.execute(&mut overlay, None, &mut seen, &cut);
    assert!(truncated.invalid_arguments && truncated.output.contains("not valid JSON (EOF while parsing)"));
    assert!(overlay.changes().is_empty());
}

#[test]
fn a_session_of_calls_stages_and_reports() {
    let (_dir, mut overlay) = overlay(&[("src/lib.rs", "pub fn a() -> u8 {\n    1\n}\n"), ("old.txt", "o\n")]);
    let tools = Toolset::standard();
    let mut seen = Seen::default();
    let mut run = |overlay: &mut Overlay, name: &str, arguments: Value| {
        tools.execute(overlay, None, &mut seen, &call(name, arguments))
    };

    let read = run(&mut overlay, "read_file", json!({"path": "src/lib.rs"}));
    assert_eq!(read.output, "src/lib.rs (lines 1-3 of 3):\npub fn a() -> u8 {\n    1\n}\n");
    let patched =
        run(&mut overlay, "patch_file", json!({"path": "src/lib.rs", "old_text": "    1", "new_text": "    2"}));
    assert_eq!(patched.output, "patched src/lib.rs: the new text is at line 2.\n");
    assert!(patched.changed);
    let written = run(&mut overlay, "write_file", json!({"path": "tests/t.rs", "content": "#[test]\nfn t() {}\n"}));
    assert_eq!(written.output, "created tests/t.rs (2 lines).\n");
    assert!(run(&mut overlay, "delete_file", json!({"path": "old.txt"})).ok);
    let listed = run(&mut overlay, "list_files", json!({}));
    assert_eq!(listed.output, "src/lib.rs\ntests/t.rs\n");
    let escape = run(&mut overlay, "write_file", json!({"path": "../evil", "content": ""}));
    assert!(!escape.ok && escape.output.contains("leaves the workspace root"), "{}", escape.output);
    assert_eq!(overlay.changes().len(), 3);
}

#[test]
fn grep_searches_through_the_overlay() {
    let (_dir, mut overlay) = overlay(&[
        ("src/a.rs", "fn alpha() {}\nfn beta() {}\n"),
        ("src/b.rs", "// ALPHA\n"),
        ("README.md", "alpha docs\n"),
    ]);
    let tools = Toolset::standard();
    let mut seen = Seen::default();
    tools.execute(
        &mut overlay,
        None,
        &mut seen,
        &call("write_file", json!({"path": "src/c.rs", "content": "fn alpha_two() {}\n"})),
    );
    let found =
        tools.execute(&mut overlay, None, &mut seen, &call("grep", json!({"pattern": "fn alpha", "path": "src"})));
    assert_eq!(found.output, "src/a.rs:1: fn alpha() {}\nsrc/c.rs:1: fn alpha_two() {}\n");
    let loud =
        tools.execute(&mut overlay, None, &mut seen, &call("grep", json!({"pattern": "alpha", "ignore_case": true})));
    assert_eq!(loud.output.lines().count(), 4, "{}", loud.output);
    let one_file =
        tools.execute(&mut overlay, None, &mut seen, &call("grep", json!({"pattern": "beta", "path": "src/a.rs"})));
    assert_eq!(one_file.output, "src/a.rs:2: fn beta() {}\n");
    let none = tools.execute(&mut overlay, None, &mut seen, &call("grep", json!({"pattern": "gamma"})));
    assert!(none.ok && none.output.starts_with("no line matches"), "{}", none.output);
    let bad = tools.execute(&mut overlay, None, &mut seen, &call("grep", json!({"pattern": "(unclosed"})));
    assert!(!bad.ok && bad.output.contains("invalid pattern"), "{}", bad.output);
    assert_eq!(overlay.changes().len(), 1, "searching stages nothing");
}

#[test]
fn grep_names_the_files_it_could_not_search() {
    let (dir, mut overlay) = overlay(&[("src/a.rs", "fn alpha() {}\n")]);
    std::fs::write(dir.path().join("src/legacy.rs"), b"// caf\xe9\nfn alpha_old() {}\n").unwrap();
    let tools = Toolset::standard();
    let mut seen = Seen::default();
    let found = tools.execute(&mut overlay, None, &mut seen, &call("grep", json!({"pattern": "alpha"})));
    assert_eq!(
        found.output,
        "src/a.rs:1: fn alpha() {}\n[not searched, as not readable as text (binary, another encoding than UTF-8, or too large): src/legacy.rs]\n"
    );
    std::fs::write(dir.path().join("logo.png"), b"\x89PNG\r\n\x1a\n\0\0").unwrap();
    std::fs::write(dir.path().join("icon.png"), b"\x89PNG\r\n\x1a\n\0\0").unwrap();
    let none = tools.execute(&mut overlay, None, &mut seen, &call("grep", json!({"pattern": "gamma"})));
    assert!(none.output.starts_with("no line matches `gamma` in "), "{}", none.output);
    assert!(none.output.ends_with(": icon.png and 2 others]\n"), "{}", none.output);
}

#[test]
fn grep_shows_a_match_in_a_long_lines_trailing_blanks_and_writes_out_control_characters() {
    let trailing = format!("{}needle   \n", "a".repeat(300));
    let (_dir, mut overlay) = overlay(&[
        (".git/HEAD", "ref: refs/heads/main\n"),
        ("trail.txt", trailing.as_str()),
        ("build.log", "\u{1b}[31merror: needle\u{1b}[0m\n"),
    ]);
    let grep = |overlay: &mut Overlay, pattern: &str| {
        Toolset::standard().execute(overlay, None, &mut Seen::default(), &call("grep", json!({"pattern": pattern})))
    };
    let found = grep(&mut overlay, "needle  ");
    let excerpt = found.output.lines().find(|line| line.starts_with("trail.txt:1:")).unwrap();
    assert!(excerpt.contains("aneedle"), "{excerpt}");
    let found = grep(&mut overlay, "error");
    assert!(found.output.contains("build.log:1: \\u{1b}[31merror: needle\\u{1b}[0m"), "{}", found.output);
    assert!(!found.output.contains('\u{1b}'), "{:?}", found.output);
}

#[test]
fn a_folder_named_whose_files_are_all_ignored_says_so_rather_than_that_it_is_empty() {
    let (_dir, mut overlay) = overlay(&[
        (".git/HEAD", "ref: refs/heads/main\n"),
        (".gitignore", "*.log\n"),
        ("logs/a.log", "needle\n"),
        ("logs/old/b.log", "needle\n"),
        ("src/lib.rs", "fn main() {}\n"),
    ]);
    std::fs::create_dir_all(_dir.path().join("empty")).unwrap();
    let tools = Toolset::standard();
    let mut run =
        |name: &str, arguments: Value| tools.execute(&mut overlay, None, &mut Seen::default(), &call(name, arguments));
    let listing = run("list_files", json!({"path": "logs"}));
    assert_eq!(
        listing.output,
        "logs holds only files its ignore files (.gitignore and the like) leave out:\nlogs/a.log\nlogs/old/b.log\n\
         [ignored files are left out of listings and searches; read_file reads one, grep searches one given as its path]\n"
    );
    let found = run("grep", json!({"pattern": "needle", "path": "logs"}));
    assert!(
        found.output.contains("[logs holds only files its ignore files leave out (2, such as logs/a.log); give one as the path to search it]"),
        "{}",
        found.output
    );
    let found = run("grep", json!({"pattern": "needle", "path": "logs/a.log"}));
    assert!(found.output.contains("logs/a.log:1: needle"), "{}", found.output);
    assert_eq!(run("list_files", json!({"path": "empty"})).output, "empty holds no files.\n");
    let everything = run("list_files", json!({}));
    assert!(!everything.output.contains(".log"), "the workspace's listing leaves them out: {}", everything.output);
}

#[test]
fn a_secret_the_model_was_shown_as_its_marker_is_written_back_as_the_file_has_it() {
    let fixture = "FAKE_TOKEN = \"ghp_abcdefghijklmnopqrstuvwxyz0123456789\"\n\ndef test_auth():\n    pass\n";
    let (dir, mut overlay) = overlay(&[("tests/test_auth.py", fixture)]);
    let tools = Toolset::standard();
    let mut seen = Seen::default();
    let mut run = |name: &str, arguments: Value| tools.execute(&mut overlay, None, &mut seen, &call(name, arguments));
    run("read_file", json!({"path": "tests/test_auth.py"}));
    // The whole file written back from what was shown: the token stays.
    let shown = "FAKE_TOKEN = \"[REDACTED]\"\n\ndef test_auth():\n    assert login(FAKE_TOKEN)\n";
    let written = run("write_file", json!({"path": "tests/test_auth.py", "content": shown}));
    assert!(written.ok, "{}", written.output);
    // A patch whose old text holds the marker finds the line it stands for.
    let patch = json!({"path": "tests/test_auth.py", "old_text": "FAKE_TOKEN = \"[REDACTED]\"\n", "new_text": "FAKE_TOKEN = \"[REDACTED]\"  # fixture\n"});
    let patched = run("patch_file", patch);
    assert!(patched.ok, "{}", patched.output);
    let text = overlay.current_text(&WorkspacePath::parse("tests/test_auth.py").unwrap()).unwrap().unwrap();
    assert_eq!(
        text,
        "FAKE_TOKEN = \"ghp_abcdefghijklmnopqrstuvwxyz0123456789\"  # fixture\n\ndef test_auth():\n    assert login(FAKE_TOKEN)\n"
    );
    // A line of its own with the marker would write it in a secret's place: refused.
    let mut run =
        |name: &str, arguments: Value| tools.execute(&mut overlay, None, &mut Seen::default(), &call(name, arguments));
    let invented = run(
        "patch_file",
        json!({"path": "tests/test_auth.py", "old_text": "    assert login(FAKE_TOKEN)\n", "new_text": "    assert login(\"[REDACTED]\")\n"}),
    );
    assert!(!invented.ok && invented.output.contains("stands for a secret"), "{}", invented.output);
    assert_eq!(std::fs::read_to_string(dir.path().join("tests/test_auth.py")).unwrap(), fixture, "the disk untouched");
}

#[test]
fn grep_leaves_dependencies_and_hidden_folders_out_unless_asked_and_shows_the_match() {
    let long = format!("const BUNDLE = \"{}needle{}\";\n", "x".repeat(5_000), "y".repeat(5_000));
    let (dir, mut overlay) = overlay(&[
        // A repository of its own, so that no ignore file above the fixture applies.
        (".git/HEAD", "ref: refs/heads/main\n"),
        ("src/a.rs", "fn needle() {}\n"),
        ("node_modules/pkg/index.js", "needle\n"),
        (".venv/lib/site.py", "needle\n"),
        ("target/debug/out.rs", "needle\n"),
        (".cache/blob.txt", "needle\n"),
        (".github/workflows/ci.yml", "run: needle\n"),
        ("web/bundle.js", long.as_str()),
    ]);
    std::fs::write(dir.path().join("src/logo.rs"), b"needle\0\x01").unwrap();
    let tools = Toolset::standard();
    let mut seen = Seen::default();
    let grep = |overlay: &mut Overlay, arguments: Value| {
        tools.execute(overlay, None, &mut Seen::default(), &call("grep", arguments))
    };
    let found = grep(&mut overlay, json!({"pattern": "needle"}));
    let paths: Vec<&str> = found.output.lines().filter_map(|line| line.split(':').next()).collect();
    assert_eq!(paths[..3], [".github/workflows/ci.yml", "src/a.rs", "web/bundle.js"], "{}", found.output);
    assert!(
        found.output.contains(
            "\n[not searched: .cache/, .venv/, node_modules/, target/ (dependencies, build output or hidden); \
                 give one as the path to search it]\n"
        ),
        "{}",
        found.output
    );
    let excerpt = found.output.lines().find(|line| line.starts_with("web/bundle.js")).unwrap();
    assert!(excerpt.contains("[...] xxx") && excerpt.contains("needleyyy") && excerpt.ends_with(" [...]"), "{excerpt}");
    assert!(excerpt.len() < 300, "{excerpt}");

    let listing = tools.execute(&mut overlay, None, &mut seen, &call("list_files", json!({})));
    assert!(
            listing.output.ends_with(
                ".github/workflows/ci.yml\nsrc/a.rs\nsrc/logo.rs\nweb/bundle.js\n[not listed: .cache/ (1 file), .venv/ (1 file), node_modules/ (1 file), \
                 target/ (1 file) (dependencies, build output or hidden); give one as the path to list it]\n"
            ),
            "{}",
            listing.output
        );
    let inside = tools.execute(&mut overlay, None, &mut seen, &call("list_files", json!({"path": "node_modules"})));
    assert_eq!(inside.output, "node_modules/pkg/index.js\n");
    let asked = grep(&mut overlay, json!({"pattern": "needle", "path": "node_modules/pkg"}));
    assert_eq!(asked.output, "node_modules/pkg/index.js:1: needle\n", "naming the folder searches it");
    let binary = grep(&mut overlay, json!({"pattern": "needle", "path": "src/logo.rs"}));
    assert!(!binary.ok && binary.output.contains("is not UTF-8 text"), "{}", binary.output);
    let secret = grep(&mut overlay, json!({"pattern": "KEY", "path": ".env"}));
    assert!(!secret.ok && secret.output.contains("never searched"), "{}", secret.output);
}

#[cfg(unix)]
#[test]
fn a_pipe_is_never_opened() {
    let (dir, mut overlay) = overlay(&[("src/a.rs", "fn alpha() {}\n")]);
    let made = std::process::Command::new("mkfifo").arg(dir.path().join("src/pipe.rs")).status().unwrap();
    assert!(made.success());
    // Opening a pipe for reading waits for a writer: a search that tried would never end,
    // so the tools run on a thread of their own, and the test fails after a while.
    let (sender, answers) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let tools = Toolset::standard();
        let mut seen = Seen::default();
        let found = tools.execute(&mut overlay, None, &mut seen, &call("grep", json!({"pattern": "alpha"})));
        let read = tools.execute(&mut overlay, None, &mut seen, &call("read_file", json!({"path": "src/pipe.rs"})));
        let _ = sender.send((found, read));
    });
    let Ok((found, read)) = answers.recv_timeout(std::time::Duration::from_secs(30)) else {
        // A writer lets the stuck reader go.
        let _ = std::fs::OpenOptions::new().write(true).open(dir.path().join("src/pipe.rs"));
        panic!("grep or read_file opened the pipe and waited for a writer");
    };
    assert!(found.output.starts_with("src/a.rs:1: fn alpha() {}\n"), "{}", found.output);
    assert!(!read.ok && read.output.contains("not a regular file"), "{}", read.output);
}

#[test]
fn find_symbol_reports_definitions_and_users_including_staged_changes() {
    let (dir, mut overlay) = overlay(&[
        ("src/set.rs", "pub struct JoinSet;\nimpl JoinSet {\n    pub fn join_next(&self) {}\n}\n"),
        ("src/user.rs", "fn f(s: JoinSet) { s.join_next(); s.join_next(); }\n"),
    ]);
    let index = Index::build(dir.path(), None);
    let tools = Toolset::standard();
    let mut seen = Seen::default();
    let found = find_symbol(&mut overlay, &index, "join_next");
    assert_eq!(
        found.output,
        "`join_next` is defined at:\nsrc/set.rs:3: pub fn join_next(&self) (of `JoinSet`)\nused in:\nsrc/user.rs (2 uses)\n      1: fn f(s: JoinSet) { s.join_next(); s.join_next(); }  [in `f`]\n"
    );
    tools.execute(
        &mut overlay,
        Some(&index),
        &mut Seen::default(),
        &call("write_file", json!({"path": "src/new.rs", "content": "pub fn try_join_next() {}\n"})),
    );
    let staged = find_symbol(&mut overlay, &index, "try_join_next");
    assert!(staged.output.starts_with("`try_join_next` is defined at:\nsrc/new.rs:1:"), "{}", staged.output);
    let missing = find_symbol(&mut overlay, &index, "nothing");
    assert_eq!(
        missing.output,
        "no definition of `nothing` in the index (it holds Rust, Java, TypeScript and JavaScript code only); grep {\"pattern\":\"\\\\bnothing\\\\b\"} searches every file.\n"
    );
    // A name that is no regex as written (`$http`) is searched for as itself.
    let dollar = find_symbol(&mut overlay, &index, "$http");
    assert!(dollar.output.contains("grep {\"pattern\":\"\\\\$http\\\\b\"}"), "{}", dollar.output);
    let other_case = find_symbol(&mut overlay, &index, "joinset");
    assert!(
        other_case
            .output
            .starts_with("no `joinset` is defined; names that differ only in case:\nsrc/set.rs:1: pub struct JoinSet"),
        "{}",
        other_case.output
    );
    let without = tools.execute(&mut overlay, None, &mut seen, &call("find_symbol", json!({"name": "JoinSet"})));
    assert!(!without.ok && without.output.contains("use grep"), "{}", without.output);
}

#[test]
fn find_symbol_leaves_out_method_calls_a_free_function_cannot_take() {
    let found = find_symbol_in(
        &[
            ("src/gather.rs", "pub fn collect(parts: &[u8]) -> Vec<u8> {\n    parts.to_vec()\n}\n"),
            (
                "src/user.rs",
                "fn f(v: Vec<u8>) -> Vec<u8> {\n    let w: Vec<u8> = v.into_iter().collect();\n    collect(&w)\n}\n",
            ),
            ("src/other.rs", "fn g(v: Vec<u8>) -> Vec<u8> {\n    v.into_iter().collect()\n}\n"),
        ],
        "collect",
    );
    assert_eq!(
        found,
        "`collect` is defined at:\nsrc/gather.rs:1: pub fn collect(parts: &[u8]) -> Vec<u8>\nused in:\nsrc/user.rs (1 use)\n      3: collect(&w)  [in `f`]\n"
    );
}

#[test]
fn find_symbol_leaves_out_names_from_outside_the_workspace_and_traits_out_of_scope() {
    let (dir, mut overlay) = overlay(&[
        ("Cargo.toml", "[package]\nname = \"app\"\n[dependencies]\nanyhow = \"1\"\n"),
        ("src/fallible.rs", "use anyhow::Result;\nfn a() -> Result<()> {\n    Ok(())\n}\n"),
        ("src/error.rs", "pub struct Error;\npub type Result<T> = std::result::Result<T, Error>;\n"),
        ("src/own.rs", "use crate::error::Result;\nfn f() -> Result<()> {\n    Ok(())\n}\n"),
        ("src/prelude.rs", "fn g() -> Result<(), String> {\n    Ok(())\n}\n"),
        ("src/io.rs", "use std::io::Result;\nfn h() -> Result<()> {\n    Ok(())\n}\n"),
        ("src/ext.rs", "pub trait Gather {\n    fn gather(&self) -> u8;\n}\n"),
        ("src/bound.rs", "use crate::ext::Gather;\nfn k(x: &dyn Gather) -> u8 {\n    x.gather()\n}\n"),
        ("src/unbound.rs", "fn m(v: &other::Bag) -> u8 {\n    v.gather()\n}\n"),
    ]);
    let index = Index::build(dir.path(), None);
    let result = find_symbol(&mut overlay, &index, "Result");
    assert!(
        result.output.contains("src/own.rs (1 use)\n      2: fn f() -> Result<()> {  [in `f`]\n"),
        "{}",
        result.output
    );
    for other in ["src/prelude.rs", "src/io.rs", "src/fallible.rs"] {
        assert!(!result.output.contains(other), "{other}: {}", result.output);
    }
    let gather = find_symbol(&mut overlay, &index, "gather");
    assert!(
        gather.output.ends_with("used in:\nsrc/bound.rs (1 use)\n      3: x.gather()  [in `k`]\n"),
        "{}",
        gather.output
    );
    // A name the workspace does not define: every use is shown.
    let ok = find_symbol(&mut overlay, &index, "Ok");
    assert!(ok.output.contains("src/prelude.rs (1 use)") && ok.output.contains("src/io.rs (1 use)"), "{}", ok.output);
}

#[test]
fn find_symbol_leaves_out_the_preludes_names_the_workspace_has_only_as_members() {
    let files = [
        (
            "src/time.rs",
            "pub struct Time;\nimpl std::str::FromStr for Time {\n    type Err = ();\n    fn from_str(s: &str) -> Result<Time, ()> { Ok(Time) }\n}\n",
        ),
        ("src/weekday.rs", "pub enum Weekday { Mon, Fri }\n"),
        ("src/parsed.rs", "use crate::weekday::Weekday::*;\npub fn day(n: u8) -> Result<(), ()> {\n    Err(())\n}\n"),
    ];
    let found = find_symbol_in(&files, "Err");
    assert!(found.contains("src/time.rs:3: type Err = () (of `Time`)"), "{found}");
    assert!(!found.contains("src/parsed.rs"), "the glob brings in no `Err`: {found}");
    // A variant of the prelude's name is brought in by the glob, and its uses are the workspace's.
    let mut own = files.to_vec();
    own[1] = ("src/weekday.rs", "pub enum Weekday { Mon, Fri, Err }\n");
    let found = find_symbol_in(&own, "Err");
    assert!(found.contains("src/parsed.rs (1 use)"), "{found}");
}

#[test]
fn find_symbol_finds_the_calls_written_in_macros() {
    let result = find_symbol_in(
        &[
            ("Cargo.toml", "[package]\nname = \"app\"\n"),
            ("src/lib.rs", "mod calc;\nmod user;\n"),
            ("src/calc.rs", "pub fn compute(x: u8) -> u8 {\n    x\n}\n"),
            (
                "src/user.rs",
                "use crate::calc::compute;\nfn a() {\n    assert_eq!(compute(1), 1);\n    \
                 let s = format!(\"{}\", compute(2));\n}\nfn b() -> u8 {\n    compute(3)\n}\n",
            ),
        ],
        "compute",
    );
    assert!(
        result.ends_with(
            "src/user.rs (3 uses)\n      3: assert_eq!(compute(1), 1);  [in `a`]\n      \
                 4: let s = format!(\"{}\", compute(2));  [in `a`]\n      7: compute(3)  [in `b`]\n"
        ),
        "{}",
        result
    );
}

#[test]
fn find_symbol_leaves_out_names_a_module_of_the_workspace_takes_from_outside() {
    // `crate::io` passes the standard library's `Result` on; `crate::task` defines its own.
    let files = [
        ("Cargo.toml", "[package]\nname = \"app\"\n"),
        ("src/lib.rs", "pub mod io;\npub mod task;\nmod reader;\nmod direct;\nmod joiner;\n"),
        ("src/io/mod.rs", "pub use std::io::{Error, Result};\npub fn helper() {}\n"),
        ("src/task.rs", "pub struct JoinError;\npub type Result<T> = std::result::Result<T, JoinError>;\n"),
        ("src/reader.rs", "use crate::io;\npub fn read() -> io::Result<u8> {\n    Ok(0)\n}\n"),
        ("src/direct.rs", "use crate::io::Result;\npub fn write() -> Result<()> {\n    Ok(())\n}\n"),
        ("src/joiner.rs", "use crate::task;\npub fn join() -> task::Result<()> {\n    Ok(())\n}\n"),
        ("tests/reading.rs", "use app::io;\nfn read() -> io::Result<()> {\n    Ok(())\n}\n"),
    ];
    let result = find_symbol_in(&files, "Result");
    assert!(result.contains("src/joiner.rs (1 use)"), "{result}");
    for passed_on in ["src/reader.rs", "src/direct.rs", "tests/reading.rs"] {
        assert!(!result.contains(passed_on), "{passed_on} uses the standard library's `Result`:\n{result}");
    }
}

#[test]
fn find_symbol_leaves_out_names_written_after_a_path_from_outside() {
    let files = [
        ("Cargo.toml", "[package]\nname = \"app\"\n\n[dependencies]\nsyn = \"2\"\n"),
        ("src/lib.rs", "pub mod error;\nmod pipe;\nmod derive;\nmod own;\n"),
        ("src/error.rs", "pub struct Error;\nimpl Error {\n    pub fn new() -> Self { Error }\n}\n"),
        (
            "src/pipe.rs",
            "use std::io::{self, Read};\nfn open() -> io::Result<()> {\n    \
                 Err(io::Error::new(io::ErrorKind::Other, \"not a pipe\"))\n}\n\
                 fn close() -> std::io::Error {\n    std::io::Error::last_os_error()\n}\n",
        ),
        ("src/derive.rs", "fn fail() -> syn::Error {\n    syn::Error::new_spanned(1, \"no\")\n}\n"),
        ("src/own.rs", "use crate::error;\nfn make() -> error::Error {\n    error::Error::new()\n}\n"),
    ];
    let result = find_symbol_in(&files, "Error");
    assert!(
            result.contains("src/own.rs (2 uses)\n      2: fn make() -> error::Error {  [in `make`]\n      3: error::Error::new()  [in `make`]\n"),
            "a path through the workspace's own module is its use:\n{result}"
        );
    assert!(!result.contains("src/pipe.rs") && !result.contains("src/derive.rs"), "{result}");
}

#[test]
fn find_symbol_lists_the_reads_of_a_java_enum_constant_through_its_enum() {
    let files = [
        ("src/com/acme/Feature.java", "package com.acme;\npublic enum Feature { WRAP, FAIL }\n"),
        ("src/com/acme/Level.java", "package com.acme;\npublic enum Level { low, high }\n"),
        (
            "src/com/acme/Reader.java",
            "package com.acme;\nclass Reader {\n  boolean f(Config c) { return c.isEnabled(Feature.WRAP); }\n  \
                 Level g() { return Level.low; }\n}\n",
        ),
    ];
    let result = find_symbol_in(&files, "WRAP");
    assert!(
        result.contains(
            "src/com/acme/Reader.java (1 use)\n      3: boolean f(Config c) { return c.isEnabled(Feature.WRAP); }"
        ),
        "{result}"
    );
    // A constant named in lower case is read as a member is, and reaches the constant too.
    let result = find_symbol_in(&files, "low");
    assert!(result.contains("src/com/acme/Reader.java (1 use)\n      4: Level g() { return Level.low; }"), "{result}");
}

#[test]
fn find_symbol_leaves_out_a_scripts_globals() {
    let files = [
        ("src/errors.ts", "export class Error { constructor(public code: number) {} }\n"),
        ("src/fetch.ts", "export function fail(): never {\n  throw new Error('offline');\n}\n"),
        (
            "src/api.ts",
            "import { Error } from './errors';\nexport function fail(): never {\n  throw new Error(503);\n}\n",
        ),
    ];
    let result = find_symbol_in(&files, "Error");
    assert!(result.contains("src/api.ts (1 use)\n      3: throw new Error(503);"), "{result}");
    assert!(!result.contains("src/fetch.ts"), "`Error` there is the language's:\n{result}");
}

#[test]
fn find_symbol_leaves_out_a_java_files_names_of_java_lang() {
    let files = [
        ("src/com/acme/Error.java", "package com.acme;\npublic class Error {}\n"),
        ("src/com/acme/Reader.java", "package com.acme;\nclass Reader {\n  Error last;\n}\n"),
        ("src/com/acme/io/Writer.java", "package com.acme.io;\nclass Writer {\n  Error last;\n}\n"),
        ("src/com/acme/io/Sink.java", "package com.acme.io;\nimport com.acme.Error;\nclass Sink {\n  Error last;\n}\n"),
    ];
    let result = find_symbol_in(&files, "Error");
    assert!(result.contains("src/com/acme/Reader.java (1 use)\n      3: Error last;"), "{result}");
    assert!(result.contains("src/com/acme/io/Sink.java (1 use)\n      4: Error last;"), "{result}");
    assert!(!result.contains("Writer.java"), "`Error` there is java.lang's:\n{result}");
}

#[test]
fn find_symbol_lists_the_java_files_that_bring_in_the_namesake_asked_for() {
    let files = [
        ("src/com/acme/graph/Node.java", "package com.acme.graph;\npublic class Node {}\n"),
        ("src/com/acme/tree/Node.java", "package com.acme.tree;\npublic class Node {}\n"),
        ("src/com/acme/graph/Edge.java", "package com.acme.graph;\nclass Edge {\n  Node from;\n}\n"),
        (
            "src/com/acme/app/Prune.java",
            "package com.acme.app;\nimport com.acme.tree.Node;\nclass Prune {\n  Node cut;\n}\n",
        ),
        (
            "src/com/acme/app/Dom.java",
            "package com.acme.app;\nimport org.w3c.dom.Node;\nclass Dom {\n  Node root;\n}\n",
        ),
    ];
    let graph = find_symbol_in(&files, "com.acme.graph.Node");
    assert!(graph.contains("used in (as far as the users' imports and packages tell):\n"), "{graph}");
    assert!(graph.contains("src/com/acme/graph/Edge.java (1 use)\n      3: Node from;"), "{graph}");
    assert!(!graph.contains("Prune.java") && !graph.contains("Dom.java"), "{graph}");
    let any = find_symbol_in(&files, "Node");
    assert!(any.contains("Edge.java (1 use)") && any.contains("Prune.java (1 use)"), "{any}");
    assert!(!any.contains("Dom.java"), "a library's `Node` is none of the workspace's:\n{any}");
}

#[test]
fn find_symbol_lists_no_file_that_writes_the_name_only_as_a_type_for_an_enum_constant() {
    let files = [
        ("src/com/acme/type/LogicalType.java", "package com.acme.type;\npublic enum LogicalType { Map, Array }\n"),
        (
            "src/com/acme/deser/Chooser.java",
            "package com.acme.deser;\nimport com.acme.type.LogicalType;\nclass Chooser {\n  boolean mapped(LogicalType t) { return t == LogicalType.Map; }\n}\n",
        ),
        (
            "src/com/acme/app/Collector.java",
            "package com.acme.app;\nimport java.util.*;\nclass Collector {\n  Map<String, Object> found;\n}\n",
        ),
    ];
    let found = find_symbol_in(&files, "Map");
    assert!(found.contains("src/com/acme/deser/Chooser.java (1 use)"), "{found}");
    assert!(!found.contains("Collector.java"), "`Map<String, Object>` is a type:\n{found}");
}

#[test]
fn find_symbol_lists_the_scripts_that_import_the_namesake_asked_for() {
    let files = [
        ("src/ui/button.ts", "export class Button {}\n"),
        ("src/ui/index.ts", "export { Button } from './button';\n"),
        ("src/forms/button.ts", "export class Button {}\n"),
        ("src/app/toolbar.ts", "import { Button } from '../ui';\nexport const bar = new Button();\n"),
        ("src/app/signup.ts", "import { Button } from '../forms/button';\nexport const send = new Button();\n"),
        ("src/app/dialog.ts", "import { Button } from '@mui/material';\nexport const ok = new Button();\n"),
    ];
    let ui = find_symbol_in(&files, "ui::Button");
    assert!(ui.contains("used in (as far as the users' imports and packages tell):\n"), "{ui}");
    assert!(ui.contains("src/app/toolbar.ts (1 use)\n      2: export const bar = new Button();"), "{ui}");
    assert!(!ui.contains("signup.ts") && !ui.contains("dialog.ts"), "{ui}");
    let any = find_symbol_in(&files, "Button");
    assert!(any.contains("toolbar.ts (1 use)") && any.contains("signup.ts (1 use)"), "{any}");
    assert!(!any.contains("dialog.ts"), "a package's `Button` is none of the workspace's:\n{any}");
}

#[test]
fn find_symbol_lists_the_commonjs_modules_that_require_the_namesake_asked_for() {
    let files = [
        ("lib/ui/button.js", "class Button {}\nmodule.exports = Button;\n"),
        ("lib/ui/index.js", "exports.Button = require('./button');\n"),
        ("lib/forms/button.js", "class Button {}\nmodule.exports = Button;\n"),
        ("lib/app/toolbar.js", "const { Button } = require('../ui');\nexports.bar = new Button();\n"),
        ("lib/app/signup.js", "const Button = require('../forms/button');\nexports.send = new Button();\n"),
        ("lib/app/dialog.js", "const { Button } = require('widgets');\nexports.ok = new Button();\n"),
    ];
    let ui = find_symbol_in(&files, "ui::Button");
    assert!(ui.contains("lib/app/toolbar.js (1 use)\n      2: exports.bar = new Button();"), "{ui}");
    assert!(!ui.contains("signup.js") && !ui.contains("dialog.js"), "{ui}");
    let any = find_symbol_in(&files, "Button");
    assert!(any.contains("toolbar.js (1 use)") && any.contains("signup.js (1 use)"), "{any}");
    assert!(!any.contains("dialog.js"), "a package's `Button` is none of the workspace's:\n{any}");
    // What a `require` binds is no definition of the file that requires it.
    assert!(!any.contains("signup.js:1"), "{any}");
}

#[test]
fn find_symbol_lists_the_rust_files_whose_use_leads_to_the_namesake_asked_for() {
    let files = [
        ("Cargo.toml", "[package]\nname = \"kit\"\n"),
        ("src/lib.rs", "pub mod rt;\npub mod io;\nmod spawn;\nmod read;\n"),
        ("src/rt/mod.rs", "mod handle;\npub use self::handle::Handle;\n"),
        ("src/rt/handle.rs", "pub struct Handle;\n"),
        ("src/io.rs", "pub struct Handle;\n"),
        ("src/spawn.rs", "use crate::rt::Handle;\npub fn spawn(h: &Handle) {}\n"),
        ("src/read.rs", "use crate::io::Handle;\npub fn read(h: &Handle) {}\n"),
    ];
    let rt = find_symbol_in(&files, "rt::Handle");
    assert!(rt.contains("used in (as far as the users' imports and packages tell):\n"), "{rt}");
    assert!(rt.contains("src/spawn.rs (1 use)\n      2: pub fn spawn(h: &Handle) {}"), "{rt}");
    assert!(!rt.contains("src/read.rs"), "{rt}");
}

#[test]
fn find_symbol_leaves_out_names_written_after_a_type_a_module_takes_from_outside() {
    let files = [
        ("Cargo.toml", "[package]\nname = \"app\"\n"),
        ("src/lib.rs", "pub mod ready;\npub mod io;\n#[macro_use]\npub mod macros;\nmod user;\n"),
        ("src/ready.rs", "pub struct Ready(pub u8);\nimpl Ready {\n    pub fn other() -> Self { Ready(0) }\n}\n"),
        ("src/io.rs", "pub use std::io::Error;\n"),
        (
            "src/macros/mod.rs",
            "pub mod support;\n#[macro_export]\nmacro_rules! ready_now {\n    () => {\n        \
              $crate::macros::support::Poll::Ready(1)\n    };\n}\n",
        ),
        ("src/macros/support.rs", "pub use std::task::Poll;\n"),
        ("src/user.rs", "use crate::io;\nfn fail() -> io::Error {\n    io::Error::other(\"no\")\n}\n"),
    ];
    let result = find_symbol_in(&files, "Ready");
    assert!(!result.contains("src/macros/mod.rs"), "a macro's `$crate::..::Poll` is the standard library's:\n{result}");
    let result = find_symbol_in(&files, "other");
    assert!(!result.contains("src/user.rs"), "`io::Error` is the standard library's, and so its `other`:\n{result}");
}

#[test]
fn find_symbol_leaves_out_names_written_after_a_type_from_outside() {
    let files = [
        ("Cargo.toml", "[package]\nname = \"app\"\n"),
        ("src/lib.rs", "pub mod ready;\nmod poller;\nmod mixed;\n"),
        ("src/ready.rs", "pub struct Ready(pub u8);\n"),
        ("src/poller.rs", "use std::task::Poll;\nfn poll() -> Poll<u8> {\n    Poll::Ready(1)\n}\n"),
        (
            "src/mixed.rs",
            "use std::task::Poll;\nuse crate::ready::Ready;\nfn poll(r: Ready) -> Poll<u8> {\n    \
                 let Ready(n) = r;\n    Poll::Ready(n)\n}\n",
        ),
    ];
    let result = find_symbol_in(&files, "Ready");
    assert!(
            result.ends_with("src/mixed.rs (2 uses)\n      3: fn poll(r: Ready) -> Poll<u8> {  [in `poll`]\n      4: let Ready(n) = r;  [in `poll`]\n"),
            "`Poll::Ready` is the standard library's:\n{result}"
        );
    assert!(!result.contains("src/poller.rs"), "{result}");
}

#[test]
fn find_symbol_leaves_out_type_parameters_and_associated_types_of_traits_from_outside() {
    let files = [
        ("Cargo.toml", "[package]\nname = \"app\"\n\n[dependencies]\nfutures = \"0.3\"\n"),
        ("src/lib.rs", "pub mod error;\nmod either;\nmod lines;\nmod own;\n"),
        ("src/error.rs", "pub struct Error;\npub trait Decoder {\n    type Error;\n}\n"),
        (
            "src/either.rs",
            "pub enum Either<L, R> { Left(L), Right(R) }\n\
                 impl<L, R, Error> futures::Sink<u8> for Either<L, R>\nwhere\n    L: futures::Sink<u8, Error = Error>,\n{\n    \
                 type Error = Error;\n    fn close(&mut self) -> Result<(), Self::Error> {\n        todo!()\n    }\n}\n",
        ),
        ("src/lines.rs", "fn lines() -> impl Iterator<Item = u8> {\n    std::iter::empty()\n}\n"),
        (
            "src/own.rs",
            "use crate::error::{Decoder, Error};\nfn decoder() -> Box<dyn Decoder<Error = Error>> {\n    todo!()\n}\n",
        ),
    ];
    let result = find_symbol_in(&files, "Error");
    assert!(
        result.contains(
            "src/own.rs (2 uses)\n      2: fn decoder() -> Box<dyn Decoder<Error = Error>> {  [in `decoder`]\n"
        ),
        "the workspace's trait's associated type and the workspace's type are its uses:\n{result}"
    );
    assert!(!result.contains("src/either.rs ("), "a type parameter and an outside trait's associated type:\n{result}");
    let result = find_symbol_in(&[("src/lib.rs", "pub struct Item;\n"), files[4]], "Item");
    assert!(!result.contains("src/lines.rs"), "`Iterator`'s `Item` is the standard library's:\n{result}");
    let runner = (
        "src/runner.rs",
        "use std::future::Future;\nfn run<F: Future + Send>(f: F) -> F::Output {\n    todo!()\n}\n\
             fn local<F: crate::Task>(f: F) -> F::Output {\n    todo!()\n}\n",
    );
    let lib = ("src/lib.rs", "mod runner;\npub struct Output;\npub trait Task {\n    type Output;\n}\n");
    let result = find_symbol_in(&[lib, runner], "Output");
    assert!(
        result
            .ends_with("src/runner.rs (1 use)\n      5: fn local<F: crate::Task>(f: F) -> F::Output {  [in `local`]\n"),
        "`F::Output` is `Future`'s where `F: Future`:\n{result}"
    );
}

#[test]
fn find_symbol_finds_components_used_as_elements() {
    let result = find_symbol_in(
        &[
            ("src/Button.tsx", "export function Button(props: Props) {\n  return <button />;\n}\n"),
            (
                "src/App.tsx",
                "import { Button } from './Button';\nexport function App() {\n  return <Button>ok</Button>;\n}\n",
            ),
        ],
        "Button",
    );
    assert!(result.ends_with("src/App.tsx (1 use)\n      3: return <Button>ok</Button>;  [in `App`]\n"), "{}", result);
}

#[test]
fn find_symbol_finds_functions_passed_by_name_and_constants_but_not_variables() {
    let files = [
        ("Cargo.toml", "[package]\nname = \"app\"\n"),
        ("src/lib.rs", "mod lines;\nmod user;\n"),
        ("src/lines.rs", "pub const MAX_LINES: usize = 8;\npub fn parse_line(l: &str) -> u32 {\n    0\n}\n"),
        (
            "src/user.rs",
            "use crate::lines::{parse_line, MAX_LINES};\nfn a(text: &str) -> Vec<u32> {\n    \
                 text.lines().take(MAX_LINES).map(parse_line).collect()\n}\n\
                 fn b(parse_line: fn(&str) -> u32) -> u32 {\n    apply(parse_line)\n}\n",
        ),
    ];
    let result = find_symbol_in(&files, "parse_line");
    assert!(
        result.ends_with(
            "src/user.rs (1 use)\n      3: text.lines().take(MAX_LINES).map(parse_line).collect()  [in `a`]\n"
        ),
        "`b`'s parameter is a variable of that name: {result}"
    );
    let result = find_symbol_in(&files, "MAX_LINES");
    assert!(
        result.ends_with(
            "src/user.rs (1 use)\n      3: text.lines().take(MAX_LINES).map(parse_line).collect()  [in `a`]\n"
        ),
        "{result}"
    );
}

#[test]
fn find_symbol_shows_the_lines_that_use_the_name_as_the_run_sees_them() {
    let callers: String =
        (1..=12).map(|n| format!("fn caller_{n}(p: &Pool) {{\n    p.acquire_many({n});\n}}\n")).collect();
    let (dir, mut overlay) = overlay(&[
        ("src/pool.rs", "pub struct Pool;\nimpl Pool {\n    pub fn acquire_many(&self, n: u32) {}\n}\n"),
        (
            "src/user.rs",
            "use crate::pool::Pool;\n\n// acquire_many is named in a comment, which is no use\nfn f(p: &Pool) {\n    let s = \"acquire_many\";\n    p.acquire_many(2);\n}\n",
        ),
        ("src/busy.rs", &callers),
    ]);
    let index = Index::build(dir.path(), None);
    let tools = Toolset::standard();
    let find = |overlay: &mut Overlay| {
        tools
            .execute(overlay, Some(&index), &mut Seen::default(), &call("find_symbol", json!({"name": "acquire_many"})))
            .output
    };
    let found = find(&mut overlay);
    assert!(
            found.ends_with(
                "used in:\nsrc/busy.rs (12 uses)\n      2: p.acquire_many(1);  [in `caller_1`]\n      5: p.acquire_many(2);  [in `caller_2`]\n      8: p.acquire_many(3);  [in `caller_3`]\n     11: p.acquire_many(4);  [in `caller_4`]\n     14: p.acquire_many(5);  [in `caller_5`]\n     17: p.acquire_many(6);  [in `caller_6`]\n     20: p.acquire_many(7);  [in `caller_7`]\n     23: p.acquire_many(8);  [in `caller_8`]\n        [4 more lines; grep shows them]\nsrc/user.rs (1 use)\n      6: p.acquire_many(2);  [in `f`]\n"
            ),
            "{found}"
        );
    // The lines are those of the code as the run has changed it.
    tools.execute(
            &mut overlay,
            Some(&index),
            &mut Seen::default(),
            &call("patch_file", json!({"path": "src/user.rs", "old_text": "fn f(p: &Pool) {\n", "new_text": "fn f(p: &Pool) {\n    p.acquire_many(1);\n"})),
        );
    let changed = find(&mut overlay);
    assert!(
        changed.ends_with(
            "src/user.rs (2 uses)\n      5: p.acquire_many(1);  [in `f`]\n      7: p.acquire_many(2);  [in `f`]\n"
        ),
        "{changed}"
    );
}

#[test]
fn find_symbol_shows_the_uses_inside_a_macros_braces() {
    let found = find_symbol_in(
        &[
            ("src/context.rs", "pub fn enter() {}\n"),
            (
                "src/runtime.rs",
                "cfg_rt! {\n    pub struct Runtime;\n    impl Runtime {\n        pub fn block_on(&self) {\n            enter();\n        }\n    }\n}\n",
            ),
        ],
        "enter",
    );
    assert!(
        found.ends_with("used in:\nsrc/runtime.rs (1 use)\n      5: enter();  [in `Runtime::block_on`]\n"),
        "{found}"
    );
}

#[test]
fn find_symbol_shows_at_most_sixty_lines_of_uses() {
    let files: Vec<(String, String)> = (0..12)
        .map(|n| (format!("src/m{n:02}.rs"), "fn f() {\n".to_owned() + &"    drain();\n".repeat(9) + "}\n"))
        .collect();
    let files: Vec<(&str, &str)> = files.iter().map(|(p, t)| (p.as_str(), t.as_str())).collect();
    let found = find_symbol_in(&files, "drain");
    assert_eq!(found.lines().filter(|line| line.ends_with(": drain();  [in `f`]")).count(), 60, "{}", found);
    assert_eq!(found.lines().filter(|line| line.ends_with("(9 uses)")).count(), 12, "{}", found);
    assert!(found.ends_with("src/m11.rs (9 uses)\n"), "{}", found);
}

#[test]
fn find_symbol_says_which_definitions_are_test_code() {
    let found = find_symbol_in(
        &[
            ("Cargo.toml", "[package]\nname = \"pool\"\n"),
            ("src/lib.rs", "mod pool;\n#[cfg(test)]\nmod mocks;\n"),
            ("src/pool.rs", "pub fn fill() {}\n#[cfg(test)]\nmod tests {\n    pub fn fill() {}\n}\n"),
            ("src/mocks.rs", "pub fn fill() {}\n"),
            ("tests/fill.rs", "fn fill() {}\n"),
        ],
        "fill",
    );
    assert!(
            found.starts_with(
                "`fill` is defined at:\nsrc/mocks.rs:1: pub fn fill() (test code, in `pool::mocks`)\nsrc/pool.rs:1: pub fn fill() (in `pool::pool`)\n\
                 src/pool.rs:4: pub fn fill() (of `tests`, test code, in `pool::pool`)\ntests/fill.rs:1: fn fill() (test code)\n"
            ),
            "{}",
            found
        );
}

#[test]
fn find_symbol_names_the_package_of_a_script_in_a_monorepo() {
    let found = find_symbol_in(
        &[
            ("package.json", "{ \"private\": true }\n"),
            ("packages/core/package.json", "{ \"name\": \"@demo/core\" }\n"),
            ("packages/core/src/store.ts", "export class Store {\n  dispatch(\n    action: string,\n  ) {}\n}\n"),
            ("packages/app/package.json", "{ \"name\": \"@demo/app\" }\n"),
            ("packages/app/src/main.ts", "import { Store } from \"@demo/core\";\nnew Store().dispatch(\"go\");\n"),
        ],
        "Store.dispatch",
    );
    assert!(
            found.starts_with("`Store.dispatch` is defined at:\npackages/core/src/store.ts:2: dispatch(action: string) (of `Store`, package `@demo/core`)\n"),
            "{found}"
        );
}

#[test]
fn find_symbol_tells_namesakes_in_one_file_apart_by_their_type() {
    let found = find_symbol_in(
        &[(
            "src/pool.rs",
            "pub struct Pool;\nimpl Pool {\n    pub fn new() -> Self { Pool }\n}\npub struct Cache;\nimpl Cache {\n    pub fn new() -> Self { Cache }\n}\npub fn new() {}\n",
        )],
        "new",
    );
    assert!(
            found.starts_with("`new` is defined at:\nsrc/pool.rs:3: pub fn new() -> Self (of `Pool`)\nsrc/pool.rs:7: pub fn new() -> Self (of `Cache`)\nsrc/pool.rs:9: pub fn new()\n"),
            "{}",
            found
        );
}

#[test]
fn find_symbol_reads_qualified_names() {
    let (dir, mut overlay) = overlay(&[
        ("Cargo.toml", "[package]\nname = \"stores\"\n"),
        ("src/lib.rs", "pub mod store;\npub mod queue;\n"),
        ("src/store.rs", "pub struct Store;\nimpl Store {\n    pub fn dispatch(&self) {}\n}\n"),
        ("src/queue.rs", "pub struct Queue;\nimpl Queue {\n    pub fn dispatch(&self) {}\n}\npub fn drain() {}\n"),
        (
            "src/main/java/com/acme/Mapper.java",
            "package com.acme;\npublic class Mapper {\n    public Object readValue() { return null; }\n}\n",
        ),
        (
            "src/main/java/com/acme/Reader.java",
            "package com.acme;\npublic class Reader {\n    Object readValue() { return new Mapper().readValue(); }\n}\n",
        ),
        ("src/user.rs", "fn f(s: Store) { s.dispatch(); }\n"),
    ]);
    let index = Index::build(dir.path(), None);
    let tools = Toolset::standard();
    let find = |overlay: &mut Overlay, name: &str| {
        tools.execute(overlay, Some(&index), &mut Seen::default(), &call("find_symbol", json!({"name": name}))).output
    };
    let method = find(&mut overlay, "Store::dispatch");
    assert!(method.starts_with("`Store::dispatch` is defined at:\nsrc/store.rs:3: pub fn dispatch(&self) (of `Store`, in `stores::store`)\nused in (uses of any `dispatch`, by name):\nsrc/user.rs"), "{method}");
    assert!(!method.contains("queue.rs"), "{method}");
    let java = find(&mut overlay, "Mapper.readValue()");
    assert!(java.contains("Mapper.java:3:") && !java.contains("Reader.java:3:"), "{java}");
    assert!(
            java.contains("by name):\nsrc/main/java/com/acme/Reader.java (1 use)\n      3: Object readValue() { return new Mapper().readValue(); }  [in `Reader.readValue`]\n"),
            "{java}"
        );
    let by_module = find(&mut overlay, "crate::queue::drain");
    assert!(
        by_module.starts_with("`crate::queue::drain` is defined at:\nsrc/queue.rs:5: pub fn drain()"),
        "{by_module}"
    );
    // Qualifiers that fit nothing show every definition of the name, and say so.
    let unfit = find(&mut overlay, "Cache::dispatch");
    assert!(unfit.starts_with("no definition of `dispatch` fits `Cache::dispatch`; every `dispatch`:\n"), "{unfit}");
    assert!(unfit.contains("src/queue.rs:3:") && unfit.contains("src/store.rs:3:"), "{unfit}");
    // A name found only without regard to case counts the uses of the name found.
    let cased = find(&mut overlay, "store::DISPATCH");
    assert!(cased.contains("src/store.rs:3:") && cased.contains("by name):\nsrc/user.rs (1 use)"), "{cased}");
    // Arguments and type arguments say nothing of where a name is defined.
    let generic = find(&mut overlay, "Store<T>::dispatch(&self)");
    assert!(generic.contains("src/store.rs:3:") && !generic.contains("queue.rs"), "{generic}");
    let empty = find_symbol(&mut overlay, &index, ":: ()");
    assert!(!empty.ok && empty.output.contains("holds no name"), "{}", empty.output);
}

#[test]
fn find_symbol_says_when_it_shows_only_some_definitions() {
    let files: Vec<(String, String)> =
        (0..45).map(|n| (format!("src/m{n:02}.rs"), "pub fn new() {}\n".to_owned())).collect();
    let files: Vec<(&str, &str)> = files.iter().map(|(p, t)| (p.as_str(), t.as_str())).collect();
    let found = find_symbol_in(&files, "new");
    assert_eq!(found.lines().filter(|line| line.contains(": pub fn new()")).count(), 40);
    assert!(found.contains("[5 more definitions; qualify the name"), "{}", found);
}

#[test]
fn find_symbol_names_the_module_to_import_from() {
    let (dir, mut overlay) = overlay(&[
        ("Cargo.toml", "[package]\nname = \"join-sets\"\n"),
        ("src/lib.rs", "pub mod task;\n"),
        ("src/task/set.rs", "pub struct JoinSet;\n"),
        ("web/tsconfig.json", "{ \"compilerOptions\": { \"paths\": { \"@ui/*\": [\"src/ui/*\"] } } }"),
        ("web/src/ui/button.ts", "export class Button {}\n"),
        ("Mapper.java", "package com.acme.json;\npublic class Mapper {}\n"),
        ("src/main/java/com/acme/json/Reader.java", "package com.acme.json;\npublic class Reader {}\n"),
    ]);
    let index = Index::build(dir.path(), None);
    let tools = Toolset::standard();
    let find = |overlay: &mut Overlay, name: &str| {
        tools.execute(overlay, Some(&index), &mut Seen::default(), &call("find_symbol", json!({"name": name}))).output
    };
    assert_eq!(
        find(&mut overlay, "JoinSet"),
        "`JoinSet` is defined at:\nsrc/task/set.rs:1: pub struct JoinSet (in `join_sets::task::set`)\n",
        "its own name is not a use"
    );
    let button = find(&mut overlay, "Button");
    assert!(button.contains("web/src/ui/button.ts:1: class Button (in `@ui/button`)"), "{button}");
    assert!(find(&mut overlay, "Mapper").contains("Mapper.java:2: public class Mapper (in `com.acme.json`)"));
    // A package its folder spells out goes without saying.
    let reader = find(&mut overlay, "Reader");
    assert!(reader.contains("src/main/java/com/acme/json/Reader.java:2: public class Reader\n"), "{reader}");
    // A file the run has just written is placed the same way.
    tools.execute(
        &mut overlay,
        Some(&index),
        &mut Seen::default(),
        &call("write_file", json!({"path": "src/task/local.rs", "content": "pub struct LocalSet;\n"})),
    );
    assert!(find(&mut overlay, "LocalSet").contains("(in `join_sets::task::local`)"));
}

#[test]
fn long_files_are_read_in_windows() {
    let long: String = (1..=2500).map(|n| format!("{n}\n")).collect();
    let (_dir, mut overlay) = overlay(&[("long.txt", &long)]);
    let read = Toolset::standard().execute(
        &mut overlay,
        None,
        &mut Seen::default(),
        &call("read_file", json!({"path": "long.txt"})),
    );
    assert!(read.output.starts_with("long.txt (lines 1-2000 of 2500):\n1\n"), "{}", &read.output[..40]);
    assert!(read.output.ends_with("[500 more lines; call read_file with start_line=2001]\n"));
}

#[test]
fn a_call_that_changes_nothing_is_not_counted_as_a_change() {
    let (_dir, mut overlay) = overlay(&[("src/lib.rs", "pub fn a() -> u8 {\r\n    1\r\n}\r\n")]);
    let tools = Toolset::standard();
    let mut seen = Seen::default();
    let mut run = |overlay: &mut Overlay, name: &str, arguments: Value| {
        tools.execute(overlay, None, &mut seen, &call(name, arguments))
    };
    run(&mut overlay, "read_file", json!({"path": "src/lib.rs"}));
    let folder = run(&mut overlay, "mkdir", json!({"path": "src"}));
    assert!(folder.ok && !folder.changed, "{}", folder.output);
    let same = run(&mut overlay, "patch_file", json!({"path": "src/lib.rs", "old_text": "    1", "new_text": "    1"}));
    assert!(same.ok && !same.changed, "{}", same.output);
    assert_eq!(same.output, "src/lib.rs is unchanged: the new text is the old text, at line 2.\n");
    // The same code with the file's own line endings left to the tools.
    let rewritten =
        run(&mut overlay, "write_file", json!({"path": "src/lib.rs", "content": "pub fn a() -> u8 {\n    1\n}\n"}));
    assert!(rewritten.ok && !rewritten.changed, "{}", rewritten.output);
    assert!(overlay.changes().is_empty());
    let made = run(&mut overlay, "mkdir", json!({"path": "src/new"}));
    assert!(made.ok && made.changed, "{}", made.output);
}

#[test]
fn a_file_without_a_final_newline_says_so_and_its_last_line_patches_as_read() {
    let (_dir, mut overlay) = overlay(&[("a.txt", "x\ny")]);
    let tools = Toolset::standard();
    let mut seen = Seen::default();
    let read = tools.execute(&mut overlay, None, &mut seen, &call("read_file", json!({"path": "a.txt"})));
    assert_eq!(read.output, "a.txt (lines 1-2 of 2):\nx\ny\n[no newline at end of file]\n");
    let partial =
        tools.execute(&mut overlay, None, &mut seen, &call("read_file", json!({"path": "a.txt", "end_line": 1})));
    assert!(!partial.output.contains("no newline"), "{}", partial.output);
    // The last line quoted as every line reads, with its newline.
    let arguments = json!({"path": "a.txt", "old_text": "y\n", "new_text": "z\n"});
    let patched = tools.execute(&mut overlay, None, &mut seen, &call("patch_file", arguments));
    assert!(patched.ok, "{}", patched.output);
    assert_eq!(overlay.read_file(&WorkspacePath::parse("a.txt").unwrap(), None, None).unwrap().text, "x\nz");
}

#[test]
fn a_file_deleted_then_written_again_is_replaced_not_created() {
    let generated = "// Code generated by protoc-gen-go. DO NOT EDIT.\npackage api\n";
    let (_dir, mut overlay) = overlay(&[("api/api.pb.go", generated)]);
    let tools = Toolset::standard();
    let mut seen = Seen::default();
    tools.execute(&mut overlay, None, &mut seen, &call("read_file", json!({"path": "api/api.pb.go"})));
    let deleted = tools.execute(&mut overlay, None, &mut seen, &call("delete_file", json!({"path": "api/api.pb.go"})));
    assert!(deleted.ok, "{}", deleted.output);
    let arguments = json!({"path": "api/api.pb.go", "content": "package api\n"});
    let written = tools.execute(&mut overlay, None, &mut seen, &call("write_file", arguments));
    assert!(written.output.starts_with("replaced api/api.pb.go (1 lines)."), "{}", written.output);
    assert!(written.output.contains("says it is generated"), "the warning a change to it gets: {}", written.output);
}

#[test]
fn a_refused_file_operation_says_what_to_do_instead() {
    let (dir, mut overlay) = overlay(&[("src/a.rs", "fn alpha() {}\n")]);
    std::fs::write(dir.path().join("src/logo.rs"), b"\x89PNG\0\0\0").unwrap();
    let tools = Toolset::standard();
    let mut seen = Seen::default();
    let mut run = |name: &str, arguments: Value| tools.execute(&mut overlay, None, &mut seen, &call(name, arguments));
    let missing = run("patch_file", json!({"path": "src/b.rs", "old_text": "x", "new_text": "y"}));
    assert_eq!(
        missing.output,
        "`src/b.rs` does not exist; list_files shows the files there are, and write_file creates a new one"
    );
    let folder = run("read_file", json!({"path": "src"}));
    assert_eq!(folder.output, "`src` is a directory, not a file; list_files lists what it holds");
    let binary = run("patch_file", json!({"path": "src/logo.rs", "old_text": "PNG", "new_text": "GIF"}));
    assert!(
        !binary.ok
            && binary
                .output
                .ends_with("it can be neither read nor changed here: if it must change, say in your summary how"),
        "{}",
        binary.output
    );
    // `10.0` is a whole number, as the schema counts it: it reads from line 1.
    let whole = run("read_file", json!({"path": "src/a.rs", "start_line": 1.0, "end_line": 1.0}));
    assert!(whole.ok && whole.output.contains("fn alpha()"), "{}", whole.output);
    let backwards = run("read_file", json!({"path": "src/a.rs", "start_line": 2, "end_line": 1}));
    assert_eq!(backwards.output, "end_line 1 is before start_line 2; `src/a.rs` has 1 line");
    let too_big = run("grep", json!({"pattern": "\\w{2000}"}));
    assert!(!too_big.ok && too_big.output.contains("too large to search with"), "{}", too_big.output);
}

#[test]
fn grep_stops_after_a_bounded_amount_of_text_and_says_where() {
    let line = "data ".repeat(200) + "\n";
    let last = line.clone() + "needle\n";
    let (_dir, overlay) = overlay(&[("data/a.txt", &line), ("data/b.txt", &line), ("data/c.txt", &last)]);
    let args = |pattern: &str| args::GrepArgs { pattern: pattern.into(), path: None, ignore_case: None };
    let bounded = search::grep_within(&overlay, args("needle"), 1500).unwrap();
    assert_eq!(
        bounded.output,
        "no line matches `needle` in ..\n[searched the first 2 of 3 files (2 KB), in path order; narrow the path]\n"
    );
    let whole = search::grep_within(&overlay, args("needle"), 1 << 20).unwrap();
    assert_eq!(whole.output, "data/c.txt:2: needle\n");
}
