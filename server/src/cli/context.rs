//! `issuewright context`: rank a repository's files for an issue.

use std::process::ExitCode;
use std::time::Instant;

use serde_json::json;

use super::ContextArgs;
use issuewright::context::rank;

/// Ranks `--repo`'s files for the issue in `--issue-file` and prints them, best first.
pub fn run(args: &ContextArgs) -> ExitCode {
    let started = Instant::now();
    let root = match args.repo.canonicalize() {
        Ok(root) => root,
        Err(error) => {
            eprintln!("issuewright: --repo {}: {error}", args.repo.display());
            return ExitCode::FAILURE;
        }
    };
    let issue = match std::fs::read(&args.issue_file) {
        Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
        Err(error) => {
            eprintln!("issuewright: --issue-file {}: {error}", args.issue_file.display());
            return ExitCode::FAILURE;
        }
    };
    let index = super::index::build(&root, !args.no_cache);
    let mut ranked = rank(&index, &issue);
    ranked.truncate(args.top);
    let elapsed_ms = started.elapsed().as_millis() as u64;
    if args.json {
        println!("{}", json!({"files": ranked, "elapsed_ms": elapsed_ms}));
    } else {
        for (position, file) in ranked.iter().enumerate() {
            println!("{:>3}. {}  ({:.3})", position + 1, file.path, file.score);
            for reason in &file.reasons {
                println!("       {reason}");
            }
        }
        eprintln!("{} files indexed, ranked in {elapsed_ms} ms", index.len());
    }
    ExitCode::SUCCESS
}
