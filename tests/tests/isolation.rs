//! Nothing is written outside the workspace but issuewright's own cache folder
//! (`$XDG_CACHE_HOME/issuewright`: the index and the shadow workspace where builds run):
//! not the home folder, not the config, not /tmp; and builds write nothing in the workspace.

use issuewright_tests::lsp::{ClientOptions, LspClient};
use issuewright_tests::{Scratch, done, issuewright, replay, turn};
use serde_json::json;

#[test]
fn runs_and_applies_write_only_inside_the_workspace() {
    let scratch = Scratch::new(&[
        ("Cargo.toml", "[package]\nname = \"iso\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[workspace]\n"),
        ("src/lib.rs", "pub mod a;\n"),
        ("src/a.rs", "pub fn a() {}\n"),
        ("gone.txt", "x\n"),
    ]);
    scratch.write(
        "replay.jsonl",
        &replay(&[
            turn(&[
                ("write_file", json!({"path": "src/b.rs", "content": "fn b() {}\n"})),
                ("write_file", json!({"path": "../escape.txt", "content": "no"})),
                ("delete_file", json!({"path": "gone.txt"})),
            ]),
            done("b"),
        ]),
    );
    let before_home = Scratch::files_below(&scratch.home());

    let mut client = LspClient::start(&scratch, ClientOptions::default());
    let (run_id, _) = client.run_issue("add b", "replay.jsonl");
    client.command("issuewright.applyProposal", json!({"runId": run_id})).unwrap();
    assert!(client.shutdown().success());

    let output = issuewright(&scratch, ["run", "--issue", "add b", "--replay", "replay.jsonl", "--repo", "."], &[]);
    assert!(output.status.success(), "gone.txt is gone now: delete_file fails, is recorded, and the run goes on");

    let written: Vec<String> =
        Scratch::files_below(&scratch.home()).into_iter().filter(|path| !before_home.contains(path)).collect();
    assert!(written.iter().any(|p| p.starts_with(".cache/issuewright/index/")), "the index cache is written");
    assert!(written.iter().any(|p| p.starts_with(".cache/issuewright/shadow/")), "the build ran in the shadow");
    for path in &written {
        assert!(path.starts_with(".cache/issuewright/"), "{path} written outside issuewright's cache folder");
    }
    assert!(!scratch.workspace().parent().unwrap().join("escape.txt").exists());
    let outside_records: Vec<String> = Scratch::files_below(&scratch.workspace())
        .into_iter()
        .filter(|path| !path.starts_with(".issuewright/"))
        .collect();
    assert_eq!(
        outside_records,
        ["Cargo.toml", "replay.jsonl", "src/a.rs", "src/b.rs", "src/lib.rs"],
        "no Cargo.lock, no target/"
    );
}
