//! Command-line parsing and the subcommands.

mod context;
mod index;
pub(crate) mod out;
mod run;
mod validate;

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::builder::{OsStringValueParser, TypedValueParser};
use clap::{Parser, Subcommand};

/// issuewright implements issues: it gathers the code that matters, lets a model change it
/// through exact file operations only, and proposes the result for review.
#[derive(Debug, Parser)]
#[command(name = "issuewright", version, about, long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Serve the Language Server Protocol on stdin/stdout (what editors start).
    Lsp,
    /// Run the agent headless on a repository and print the proposal as a unified diff.
    Run(RunArgs),
    /// Index a repository with tree-sitter and report files, definitions and timings.
    Index(IndexArgs),
    /// Rank a repository's files for an issue, best first, each with its reasons.
    Context(ContextArgs),
    /// Run the project's check (and tests) in the shadow workspace and print the diagnostics.
    Validate(ValidateArgs),
}

/// Arguments of `issuewright validate`.
#[derive(Debug, clap::Args)]
pub struct ValidateArgs {
    /// The repository.
    #[arg(long, value_name = "DIR", value_parser = OsStringValueParser::new().try_map(existing_folder))]
    pub repo: PathBuf,
    /// Print JSON: `[{"path", "range", "severity", "code", "source", "message"}]`.
    #[arg(long)]
    pub json: bool,
    /// Run the tests too when the check passes.
    #[arg(long)]
    pub tests: bool,
}

/// Arguments of `issuewright context`.
#[derive(Debug, clap::Args)]
pub struct ContextArgs {
    /// The repository (default: the current folder).
    #[arg(long, value_name = "DIR", value_parser = OsStringValueParser::new().try_map(existing_folder), default_value = ".")]
    pub repo: PathBuf,
    /// A file holding the issue text (title on the first line, then the body).
    #[arg(long, value_name = "FILE", value_parser = OsStringValueParser::new().try_map(existing_file), required_unless_present = "issue")]
    pub issue_file: Option<PathBuf>,
    /// The issue as `run` takes it: a sentence, or `@FILE` (relative to the current directory).
    #[arg(long, value_name = "TEXT|@FILE", conflicts_with = "issue_file")]
    pub issue: Option<String>,
    /// Print JSON: `{"files": [{"path", "score", "reasons", "line"?}], "named": [{"path",
    /// "reasons"}], "elapsed_ms"}`: the ranked source files (`line`: where the best reason
    /// points, else where the issue's words gather), the other files the issue names
    /// (`README.md`, read as text), and the time to index and rank, and with `--pack` to pack;
    /// `--pack`, `--reading` and `--explain` add `pack`, `reading` and `explained`.
    #[arg(long)]
    pub json: bool,
    /// How many files to list (at least 1).
    #[arg(long, value_name = "N", default_value_t = 100, value_parser = at_least_one)]
    pub top: usize,
    /// Parse every file, ignoring and not writing the on-disk cache.
    #[arg(long)]
    pub no_cache: bool,
    /// Also print the context pack a run's first prompt would hold: the best files in full
    /// and the repository map, within the model's budget.
    #[arg(long)]
    pub pack: bool,
    /// The model whose context window sets the pack's budget (default: the configured one).
    #[arg(long, value_name = "NAME", requires = "pack")]
    pub model: Option<String>,
    /// Also print what the issue was read as: the names, paths, lines, folders, other files
    /// and messages it gives, its weightiest words and what it is about (with `--json`, under
    /// `reading`).
    #[arg(long)]
    pub reading: bool,
    /// Also say why the file at PATH (relative to the repository) ranks where it does: its
    /// place, and each signal's value and weight for the whole issue and for its title alone
    /// (with `--json`, under `explained`). May be given more than once.
    #[arg(long, value_name = "PATH")]
    pub explain: Vec<String>,
}

/// Arguments of `issuewright index`.
#[derive(Debug, clap::Args)]
pub struct IndexArgs {
    /// The repository to index (default: the current folder).
    #[arg(long, value_name = "DIR", value_parser = OsStringValueParser::new().try_map(existing_folder), default_value = ".")]
    pub repo: PathBuf,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
    /// Parse every file, ignoring and not writing the on-disk cache.
    #[arg(long)]
    pub no_cache: bool,
}

/// Arguments of `issuewright run`.
#[derive(Debug, clap::Args)]
pub struct RunArgs {
    /// The repository to work on. (Checked by the run itself: a run that cannot start exits 1.)
    #[arg(long, value_name = "DIR")]
    pub repo: PathBuf,
    /// The issue: a sentence, or `@FILE` for a Markdown file (relative to the current directory).
    #[arg(long, value_name = "TEXT|@FILE")]
    pub issue: String,
    /// Replay recorded model turns from a JSONL file (one assistant turn per line) instead
    /// of calling a model.
    #[arg(long, value_name = "FILE")]
    pub replay: Option<PathBuf>,
    /// The model provider (default: ollama, or what your config file says).
    #[arg(long, value_enum, value_name = "KIND")]
    pub provider: Option<ProviderArg>,
    /// The provider's base URL, e.g. http://127.0.0.1:8000/v1.
    #[arg(long, value_name = "URL")]
    pub base_url: Option<String>,
    /// The model name.
    #[arg(long, value_name = "NAME")]
    pub model: Option<String>,
    /// The environment variable holding the API key.
    #[arg(long, value_name = "VAR")]
    pub api_key_env: Option<String>,
    /// Most tokens per model answer.
    #[arg(long, value_name = "N")]
    pub max_output_tokens: Option<u32>,
    /// Describe the tools in the prompt (JSON text protocol) instead of native tool calls.
    #[arg(long)]
    pub text_protocol: bool,
    /// Write the proposal to the repository's files when the run is ready.
    #[arg(long)]
    pub apply: bool,
    /// Print one JSON object instead of the diff and summary.
    #[arg(long)]
    pub json: bool,
    /// Most model turns before the run stops (default 30).
    #[arg(long, value_name = "N")]
    pub max_rounds: Option<u32>,
    /// Most tokens the run may send and receive, every request's whole conversation
    /// counted (default 6,000,000).
    #[arg(long, value_name = "N")]
    pub max_tokens: Option<u64>,
    /// Do not run the project's check and tests on the proposal.
    #[arg(long)]
    pub no_validate: bool,
}

/// `--provider` values.
#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub enum ProviderArg {
    /// A local Ollama server.
    Ollama,
    /// An OpenAI-compatible server.
    Openai,
    /// Anthropic's Messages API.
    Anthropic,
    /// Recorded turns (`--replay FILE`).
    Replay,
}

/// Runs the chosen subcommand.
pub async fn main(cli: Cli) -> ExitCode {
    match cli.command {
        Command::Lsp => ExitCode::from(issuewright::lsp::serve_stdio().await as u8),
        Command::Run(args) => run::run(args).await,
        Command::Index(args) => index::run(&args),
        Command::Context(args) => context::run(&args),
        Command::Validate(args) => validate::run(args).await,
    }
}

/// `--top`: a count of 1 or more, as 0 would list nothing.
fn at_least_one(value: &str) -> Result<usize, String> {
    match value.parse::<usize>() {
        Ok(0) => Err("0 lists nothing; give how many files to list, 1 or more".into()),
        Ok(count) => Ok(count),
        Err(_) => Err("not a whole number; give how many files to list, 1 or more".into()),
    }
}

/// `--repo`: a folder that exists, so a typo or a file named by mistake fails before any work.
fn existing_folder(value: OsString) -> Result<PathBuf, String> {
    let path = PathBuf::from(value);
    not_a_folder(&path).map_or(Ok(path), Err)
}

/// What is wrong with `path` as the project's folder, if anything.
fn not_a_folder(path: &Path) -> Option<String> {
    match std::fs::metadata(path) {
        Ok(metadata) if metadata.is_dir() => None,
        Ok(_) => Some(
            "this is a file; give the project's folder (the one holding Cargo.toml, pom.xml or package.json)".into(),
        ),
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
            Some("no such folder; give the path of the project's folder".into())
        }
        Err(error) => Some(format!("cannot read it: {error}")),
    }
}

/// `--issue-file`: a file that exists.
fn existing_file(value: OsString) -> Result<PathBuf, String> {
    let path = PathBuf::from(value);
    match std::fs::metadata(&path) {
        Ok(metadata) if metadata.is_dir() => Err("this is a folder; give the file holding the issue's text".into()),
        Ok(_) => Ok(path),
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
            Err("no such file; give a file holding the issue's text (title on the first line)".into())
        }
        Err(error) => Err(format!("cannot read it: {error}")),
    }
}
