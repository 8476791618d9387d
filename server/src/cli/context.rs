//! `issuewright context`: rank a repository's files for an issue, and show the context pack
//! a run would start from.

use super::out::{errln, outln};
use std::path::Path;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Instant;

use serde_json::{Value, json};

use super::ContextArgs;
use issuewright::agent::{FirstContext, first_context};
use issuewright::config::{self, Config, ConfigLayer, ProviderLayer, ProviderSettings};
use issuewright::context::{ContextPack, Index, issue, named_files, rank};
use issuewright::issues::{self, IssueSource};
use issuewright::llm::registry;
use issuewright::workspace::{DiskBase, Overlay, Root, WorkspacePath, read_disk_text};

/// How many of each kind of thing the issue gives `--reading` lists in text.
const READING_ITEMS: usize = 12;

/// Ranks `--repo`'s files for the issue in `--issue-file` and prints them, best first.
pub fn run(args: &ContextArgs) -> ExitCode {
    match run_inner(args) {
        Ok(code) => code,
        Err(message) => {
            errln!("issuewright: {message}");
            ExitCode::FAILURE
        }
    }
}

fn run_inner(args: &ContextArgs) -> Result<ExitCode, String> {
    let started = Instant::now();
    let root = args.repo.canonicalize().map_err(|error| format!("--repo {}: {error}", args.repo.display()))?;
    let (text, source) = issue_text(args)?;
    // The model is resolved before the index is built, so a bad configuration fails at once.
    let provider = if args.pack { Some(provider_settings(args, &root)?) } else { None };
    let index = super::index::build(&root, !args.no_cache);
    if index.is_empty() {
        errln!(
            "issuewright: {} holds no source file to rank (Rust, Java, TypeScript or JavaScript; files git ignores, \
             dependencies and build output are left out); give the project's folder",
            root.display()
        );
    }
    let query = issuewright::context::issue_reading::analyze_in(&index, &text);
    if query.gives_nothing() {
        errln!("issuewright: {source} holds no words to rank by; the files are in order of how much code uses them");
    }
    // With `--pack`, the ranking and the pack are the ones a run would start from.
    let (mut ranked, named, packed) = match provider {
        Some(provider) => {
            let first = first_context_for(&index, &query, &text, &provider, &root)?;
            (first.ranked, first.named, Some((provider.model, first.budget_tokens, first.pack)))
        }
        None => (rank::rank_for(&index, &query), named_files(&index, &query), None),
    };
    let listed = ranked.len().min(args.top);
    rank::point_at_words_on_disk(&mut ranked[..listed], &index);
    let elapsed_ms = started.elapsed().as_millis() as u64;
    let explained = explanations(args, &index, &query, &ranked, &root)?;
    let listed = &ranked[..listed];
    if args.json {
        let mut out = json!({"files": listed, "named": named, "elapsed_ms": elapsed_ms});
        if let Some((model, budget, pack)) = &packed {
            out["pack"] = pack_json(model, *budget, pack);
        }
        if args.reading {
            out["reading"] = json!(issue::Reading::of(&rank::as_ranked(&index, &query)));
        }
        if !explained.is_empty() {
            out["explained"] = json!(explained);
        }
        outln!("{out}");
    } else {
        if args.reading {
            outln!("read from the issue:");
            for line in issue::Reading::of(&rank::as_ranked(&index, &query)).lines(READING_ITEMS) {
                outln!("  {line}");
            }
            outln!();
        }
        for file in &named {
            let line = file.line.map(|line| format!(":{line}")).unwrap_or_default();
            outln!("  named: {}{line}", file.path);
            for reason in &file.reasons {
                outln!("       {reason}");
            }
        }
        for (position, file) in listed.iter().enumerate() {
            let line = file.line().map(|line| format!(":{line}")).unwrap_or_default();
            outln!("{:>3}. {}{line}  ({:.3})", position + 1, file.path, file.score);
            for reason in &file.reasons {
                outln!("       {reason}");
            }
        }
        for explanation in &explained {
            outln!();
            for line in explanation.lines() {
                outln!("{line}");
            }
        }
        errln!("{} files indexed, ranked in {elapsed_ms} ms", index.len());
        if let Some((model, budget, pack)) = &packed {
            outln!("\n{}", pack.text);
            errln!(
                "context pack for {model}: {} of {budget} tokens; {} files in full, {} in part, {} in the map",
                pack.tokens,
                pack.full_files.len(),
                pack.part_files.len(),
                pack.mapped_files.len()
            );
            if let Some(note) = registry::unknown_model_note(model) {
                errln!("{note} (name a known model with --model, e.g. qwen2.5-coder:7b, gpt-4o or claude-sonnet-4)");
            }
        }
    }
    super::index::leave_to_exit(index);
    Ok(ExitCode::SUCCESS)
}

/// Why each `--explain` path ranks where it does; an error naming a path that was not ranked,
/// and why, when the index says.
fn explanations(
    args: &ContextArgs,
    index: &Index,
    query: &issue::IssueQuery,
    ranked: &[rank::RankedFile],
    root: &Path,
) -> Result<Vec<rank::Explanation>, String> {
    if args.explain.is_empty() {
        return Ok(Vec::new());
    }
    let root = Root::new(root).map_err(|error| format!("--repo {}: {error}", root.display()))?;
    let signals = rank::signals_for(index, query);
    let read = |path: &str| read_disk_text(&root.path().join(path)).ok().flatten();
    args.explain
        .iter()
        .map(|given| {
            let path = root
                .path_given(given)
                .ok_or_else(|| format!("--explain {given}: not a path inside {}", root.path().display()))?;
            rank::explain(index, ranked, &signals, &rank::WEIGHTS, path.as_str(), &read)
                .ok_or_else(|| format!("--explain {given}: {}", rank::NotRanked::of(index, path.as_str())))
        })
        .collect()
}

/// The issue's text, and how to name where it came from: `--issue-file` is read as `@FILE`
/// is (UTF-8, UTF-16 with its mark; Windows-1252 still has its ASCII names and words, and the
/// loss is said), but whole, without a title taken from it;
/// `--issue` is a sentence or `@FILE`, as `run` takes it.
fn issue_text(args: &ContextArgs) -> Result<(String, String), String> {
    if let Some(spec) = &args.issue {
        let cwd = std::env::current_dir().map_err(|error| format!("cannot read the current directory: {error}"))?;
        let issue = issues::resolve(spec, &cwd).map_err(|error| error.to_string())?;
        let source = match &issue.source {
            IssueSource::File { path } => path.display().to_string(),
            IssueSource::Text => "the issue".to_owned(),
        };
        return Ok((issue.text, source));
    }
    let file = args.issue_file.as_ref().ok_or("give the issue with --issue TEXT|@FILE or --issue-file FILE")?;
    let bytes = std::fs::read(file).map_err(|error| format!("--issue-file {}: {error}", file.display()))?;
    let (text, lossy) = issues::decode(&bytes);
    if lossy {
        errln!("issuewright: {}", issues::lossy_warning(file));
    }
    Ok((text, file.display().to_string()))
}

/// The provider a run would use: with `--model`, else the model the configuration files name,
/// else the provider's default.
fn provider_settings(args: &ContextArgs, root: &std::path::Path) -> Result<ProviderSettings, String> {
    let mut layers = config::file_layers(root).map_err(|error| error.to_string())?;
    layers.push(ConfigLayer {
        provider: ProviderLayer { model: args.model.clone(), ..ProviderLayer::default() },
        ..ConfigLayer::default()
    });
    Ok(Config::resolve(layers, root).map_err(|error| error.to_string())?.provider)
}

/// What a run with `provider` would start from for the issue whose text is `issue`, its files
/// read the way a run reads them.
fn first_context_for(
    index: &Index,
    query: &issue::IssueQuery,
    issue: &str,
    provider: &ProviderSettings,
    root: &std::path::Path,
) -> Result<FirstContext, String> {
    let root = Root::new(root).map_err(|error| format!("--repo {}: {error}", root.display()))?;
    let overlay = Overlay::new(root, Arc::new(DiskBase));
    Ok(first_context(index, query, issue, issuewright::llm::model_info(provider), |path| {
        WorkspacePath::parse(path).ok().and_then(|path| overlay.peek(&path))
    }))
}

fn pack_json(model: &str, budget: usize, pack: &ContextPack) -> Value {
    json!({
        "model": model,
        "modelKnown": registry::is_known(model),
        "budgetTokens": budget,
        "tokens": pack.tokens,
        "fullFiles": pack.full_files,
        "partFiles": pack.part_files,
        "mappedFiles": pack.mapped_files,
        "text": pack.text,
    })
}
