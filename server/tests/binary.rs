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
