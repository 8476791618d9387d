//! The binary's command line. (Having an integration test here also makes `cargo test`
//! build the binary that the end-to-end suite in `tests/` drives.)

use std::process::Command;

fn issuewright(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_issuewright")).args(args).output().expect("run the binary")
}

#[test]
fn version_and_help_describe_the_tool() {
    let version = issuewright(&["--version"]);
    assert!(version.status.success());
    assert_eq!(String::from_utf8_lossy(&version.stdout).trim(), format!("issuewright {}", env!("CARGO_PKG_VERSION")));
    let help = String::from_utf8_lossy(&issuewright(&["--help"]).stdout).into_owned();
    for subcommand in ["lsp", "run"] {
        assert!(help.contains(subcommand), "{help}");
    }
}

#[test]
fn run_requires_its_arguments() {
    let output = issuewright(&["run", "--issue", "x"]);
    assert_eq!(output.status.code(), Some(2), "usage errors exit with 2");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("--repo"), "{stderr}");
    let bad_provider = issuewright(&["run", "--repo", ".", "--issue", "x", "--provider", "gemini"]);
    assert_eq!(bad_provider.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&bad_provider.stderr);
    assert!(stderr.contains("ollama") && stderr.contains("anthropic"), "names the valid choices: {stderr}");
}

#[test]
fn a_repository_or_issue_file_that_is_not_there_is_named_with_what_to_give() {
    let this_file = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/binary.rs");
    let folder = env!("CARGO_MANIFEST_DIR");
    let cases: [(&[&str], &str); 4] = [
        (&["context", "--repo", "/no/such/project", "--issue-file", this_file], "no such folder"),
        (&["index", "--repo", this_file], "this is a file; give the project's folder"),
        (&["validate", "--repo", this_file], "this is a file; give the project's folder"),
        (&["context", "--repo", folder, "--issue-file", folder], "this is a folder; give the file holding the issue"),
    ];
    for (args, expected) in cases {
        let output = issuewright(args);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{args:?}: a usage error: {stderr}");
        assert!(stderr.contains(expected), "{args:?}: {stderr}");
        assert!(output.stdout.is_empty(), "{args:?}: nothing printed as a result");
    }
    // A run that cannot start exits 1, as every failed run does, and says the same.
    let output = issuewright(&["run", "--repo", this_file, "--issue", "x"]);
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("this is a file; give the project's folder"), "{stderr}");
}

#[test]
fn an_issue_without_words_is_ranked_with_a_warning_that_says_so() {
    let example = concat!(env!("CARGO_MANIFEST_DIR"), "/../examples/wordfreq");
    let dir = tempfile::tempdir().expect("a temporary folder");
    let empty = dir.path().join("ISSUE.md");
    std::fs::write(&empty, "```\n```\n").expect("write the issue");
    let output =
        issuewright(&["context", "--repo", example, "--issue-file", empty.to_str().unwrap(), "--json", "--no-cache"]);
    assert!(output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("holds no words to rank by"), "{stderr}");
    let ranked: serde_json::Value = serde_json::from_slice(&output.stdout).expect("JSON on stdout");
    assert!(!ranked["files"].as_array().unwrap().is_empty(), "the files are still listed: {ranked}");

    std::fs::write(&empty, "Count words case-insensitively in `count_words`\n").expect("write the issue");
    let output =
        issuewright(&["context", "--repo", example, "--issue-file", empty.to_str().unwrap(), "--json", "--no-cache"]);
    assert!(String::from_utf8_lossy(&output.stderr).is_empty(), "no warning for an issue with words");
}
