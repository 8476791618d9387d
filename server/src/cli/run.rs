//! `issuewright run`: one headless run, printed as a diff and a summary (or JSON).

use super::out::{errln, out, outln};
use std::io::IsTerminal;
use std::process::ExitCode;
use std::sync::Arc;

use serde_json::json;
use tokio::sync::mpsc;

use super::{ProviderArg, RunArgs};
use issuewright::agent::{self, RunEvent, RunSnapshot, RunSpec, RunState, Verdict};
use issuewright::config::{self, AgentLayer, Config, ConfigLayer, ProviderKind, ProviderLayer};
use issuewright::issues;
use issuewright::session::{self, LedgerEvent, RunId};
use issuewright::validate::Validator;
use issuewright::workspace::{
    Conflict, DiskBase, FileChange, FileSummary, Root, read_disk_text, unified_diff, visible_controls, write_landing,
};

/// Runs the agent and reports; exit status 0 when a proposal is ready (and applied, with `--apply`).
pub async fn run(args: RunArgs) -> ExitCode {
    match run_inner(&args).await {
        Ok(code) => code,
        Err(message) => {
            errln!("issuewright: {message}");
            ExitCode::FAILURE
        }
    }
}

async fn run_inner(args: &RunArgs) -> Result<ExitCode, String> {
    if let Some(problem) = super::not_a_folder(&args.repo) {
        return Err(format!("--repo {}: {problem}", args.repo.display()));
    }
    let root = Root::new(&args.repo).map_err(|error| format!("--repo {}: {error}", args.repo.display()))?;
    let cwd = std::env::current_dir().map_err(|error| format!("cannot read the current directory: {error}"))?;
    let issue = issues::resolve(&args.issue, &cwd).map_err(|error| error.to_string())?;
    let mut layers = config::file_layers(root.path()).map_err(|error| error.to_string())?;
    layers.push(flags_layer(args, &cwd));
    let config = Config::resolve(layers, root.path()).map_err(|error| error.to_string())?;
    let index = tokio::task::spawn_blocking({
        let root = root.path().to_owned();
        move || super::index::build(&root, true)
    })
    .await
    .map_err(|error| format!("indexing failed: {error}"))?;
    let validator = if config.validate.enabled && !args.no_validate {
        Some(Arc::new(Validator::new(root.path(), config.validate, None).map_err(|error| error.to_string())?))
    } else {
        None
    };
    let spec = RunSpec {
        root: root.clone(),
        issue,
        provider: config.provider,
        budgets: config.agent.into(),
        index: Some(Arc::new(index)),
        index_later: None,
        validator,
    };
    let (events, mut receiver) = mpsc::unbounded_channel();
    let handle = agent::start(spec, Arc::new(DiskBase), Some(events)).map_err(|error| error.to_string())?;

    let quiet = args.json && !std::io::stderr().is_terminal();
    let printer = tokio::spawn(async move {
        while let Some(event) = receiver.recv().await {
            if let Some(line) = progress_line(&event).filter(|_| !quiet) {
                // A tool call's path and error are the model's words.
                errln!("{}", visible_controls(&line));
            }
        }
    });
    let snapshot = tokio::select! {
        snapshot = handle.finished() => snapshot,
        _ = tokio::signal::ctrl_c() => {
            errln!("issuewright: cancelling the run");
            handle.cancel();
            handle.finished().await
        }
    };
    let _ = printer.await;

    let changes: Vec<FileChange> = snapshot.outcome.as_ref().map(|o| o.changes.clone()).unwrap_or_default();
    let ready = snapshot.status.state == RunState::Ready;
    let applied = if args.apply && ready { Some(apply(&root, handle.id(), &changes)) } else { None };
    let record = session::run_dir(root.path(), handle.id());
    report(args, handle.id(), &snapshot, &changes, applied.as_ref(), &record.display().to_string());
    let success = ready && applied.as_ref().is_none_or(Result::is_ok);
    Ok(if success { ExitCode::SUCCESS } else { ExitCode::FAILURE })
}

/// The command-line flags as the top configuration layer.
fn flags_layer(args: &RunArgs, cwd: &std::path::Path) -> ConfigLayer {
    let kind = match (&args.replay, args.provider) {
        (Some(_), _) => Some(ProviderKind::Replay),
        (None, Some(ProviderArg::Ollama)) => Some(ProviderKind::Ollama),
        (None, Some(ProviderArg::Openai)) => Some(ProviderKind::Openai),
        (None, Some(ProviderArg::Anthropic)) => Some(ProviderKind::Anthropic),
        (None, Some(ProviderArg::Replay)) => Some(ProviderKind::Replay),
        (None, None) => None,
    };
    ConfigLayer {
        provider: ProviderLayer {
            kind,
            base_url: args.base_url.clone(),
            model: args.model.clone(),
            api_key_env: args.api_key_env.clone(),
            max_output_tokens: args.max_output_tokens,
            native_tools: args.text_protocol.then_some(false),
            replay: args.replay.as_ref().map(|path| cwd.join(path)),
            ..ProviderLayer::default()
        },
        agent: AgentLayer { max_rounds: args.max_rounds, max_tokens: args.max_tokens },
        ..ConfigLayer::default()
    }
}

fn progress_line(event: &RunEvent) -> Option<String> {
    match event {
        RunEvent::Started { title } => Some(format!("issuewright: implementing \"{title}\"")),
        RunEvent::Context { .. } => agent::context_line(event).map(|line| format!("  {line}")),
        RunEvent::ToolCall { round, name, path, ok, message } => Some(format!(
            "  round {round}: {name} {}{}",
            path.as_deref().unwrap_or_default(),
            if *ok { String::new() } else { format!(" -- failed: {message}") }
        )),
        RunEvent::Validation { round, step, passed, errors, preexisting, warnings } => {
            let verdict = match (step.as_str(), passed) {
                ("check", true) => "the build passes".to_owned(),
                ("check", false) => format!("the build fails with {errors} error(s)"),
                (_, true) => "the tests pass".to_owned(),
                (_, false) => format!("{errors} test failure(s)"),
            };
            let before =
                if *preexisting > 0 { format!(" ({preexisting} there before the run)") } else { String::new() };
            let warnings = if *warnings > 0 { format!(", {warnings} warning(s)") } else { String::new() };
            Some(format!("  round {round}: {step}: {verdict}{before}{warnings}"))
        }
        RunEvent::Round { .. } | RunEvent::Finished { .. } => None,
    }
}

/// Writes the proposal to disk, refusing everything if any file changed under the run.
fn apply(root: &Root, run_id: &RunId, changes: &[FileChange]) -> Result<usize, String> {
    let mut landings = Vec::new();
    let mut conflicts: Vec<Conflict> = Vec::new();
    for change in changes {
        // Every path is checked before any file is written (a link that now leads out, say).
        let absolute = root.resolve(&change.path).map_err(|error| format!("nothing was written: {error}"))?;
        let current = read_disk_text(&absolute).map_err(|error| format!("`{}` {error}", change.path))?;
        match change.land_on(current.as_deref()) {
            Ok(landing) => landings.push((&change.path, landing)),
            Err(conflict) => conflicts.push(conflict),
        }
    }
    if !conflicts.is_empty() {
        let list: Vec<String> = conflicts.iter().map(ToString::to_string).collect();
        return Err(format!("nothing was written: {}", list.join("; ")));
    }
    let mut written: Vec<String> = Vec::new();
    let mut failure = None;
    for (path, landing) in &landings {
        match write_landing(root, path, landing) {
            Ok(()) => written.push(path.to_string()),
            Err(error) => {
                failure = Some(format!("`{path}`: {error}"));
                break;
            }
        }
    }
    let problems: Vec<String> = failure.iter().cloned().collect();
    let event = LedgerEvent::ProposalApplied { files: written.clone(), problems };
    if let Err(error) = session::append_to(root.path(), run_id, event) {
        tracing::warn!("{error}");
    }
    match failure {
        None => Ok(landings.len()),
        // Say exactly what is on disk now.
        Some(failure) => Err(format!(
            "writing stopped at {failure}; written before it: {}; the other files are unchanged",
            if written.is_empty() { "none".to_owned() } else { written.join(", ") }
        )),
    }
}

fn report(
    args: &RunArgs,
    run_id: &RunId,
    snapshot: &RunSnapshot,
    changes: &[FileChange],
    applied: Option<&Result<usize, String>>,
    record: &str,
) {
    let status = &snapshot.status;
    let diff = unified_diff(changes);
    let files: Vec<FileSummary> = changes.iter().map(FileSummary::of).collect();
    if args.json {
        let value = json!({
            "runId": run_id,
            "state": status.state,
            "files": files,
            "diff": diff,
            "rounds": status.rounds,
            "toolCalls": status.tool_calls,
            "failedToolCalls": status.failed_tool_calls,
            "schemaViolations": status.schema_violations,
            "parseRepairs": status.parse_repairs,
            "usage": status.usage,
            "summary": status.summary,
            "error": status.error,
            "validation": status.validation,
            "applied": applied.map(|result| result.is_ok()),
            "applyError": applied.and_then(|result| result.as_ref().err()),
            "record": record,
        });
        outln!("{value:#}");
        return;
    }
    out!("{diff}");
    if !diff.is_empty() {
        outln!();
    }
    outln!(
        "issuewright: run {run_id} {} after {} round(s), {} tool call(s) ({} failed)",
        status.state.as_str(),
        status.rounds,
        status.tool_calls,
        status.failed_tool_calls
    );
    if let Some(validation) = &status.validation {
        let words = |verdict: Verdict| match verdict {
            Verdict::Passed => "passes",
            Verdict::Failed => "fails",
            Verdict::Unavailable => "could not run",
            Verdict::NotRun => "not run",
        };
        let before = match validation.preexisting {
            0 => String::new(),
            n if n >= validation.errors => ", every error there before the run".to_owned(),
            n => format!(", {n} of {} errors there before the run", validation.errors),
        };
        outln!(
            "  build: {}, tests: {} ({} validation run(s){before})",
            words(validation.build),
            words(validation.tests),
            validation.runs
        );
    }
    if status.usage.input_tokens + status.usage.output_tokens > 0 {
        outln!("  tokens: {} in, {} out", status.usage.input_tokens, status.usage.output_tokens);
    }
    for file in &files {
        outln!("  {:<9} {}  (+{} -{})", format!("{:?}", file.kind).to_lowercase(), file.path, file.added, file.removed);
    }
    if files.is_empty() {
        outln!("  no changes proposed");
    }
    outln!("\n{}\n", visible_controls(status.summary.trim()));
    match applied {
        Some(Ok(count)) => outln!("Applied {count} file(s) to {}.", args.repo.display()),
        Some(Err(error)) => outln!("Not applied: {error}"),
        None if status.state == RunState::Ready && !changes.is_empty() => {
            outln!("Nothing was written. Apply with --apply, or: {}", git_apply_command(&args.repo, record))
        }
        None => {}
    }
    outln!("Run record: {record}");
}

/// The `git apply` command that applies the run's patch (`record/diff.patch`) to `repo`.
/// Git reads a patch's paths from the top of the repository holding `repo` and skips, with no
/// word, what lies outside a subfolder it is run in: inside a larger repository the command
/// runs at its top, with the folder as `--directory`.
fn git_apply_command(repo: &std::path::Path, record: &str) -> String {
    let quote = |text: &str| {
        let plain = text.bytes().all(|b| b.is_ascii_alphanumeric() || b"/._-+:@=".contains(&b));
        if plain && !text.is_empty() { text.to_owned() } else { format!("'{}'", text.replace('\'', "'\\''")) }
    };
    let patch = quote(&format!("{record}/diff.patch"));
    let canonical = repo.canonicalize().unwrap_or_else(|_| repo.to_owned());
    let top = canonical.ancestors().find(|folder| folder.join(".git").exists());
    match top.and_then(|top| Some((top, canonical.strip_prefix(top).ok()?.to_str()?))) {
        Some((top, inside)) if !inside.is_empty() => {
            format!("git -C {} apply --directory={} {patch}", quote(&top.to_string_lossy()), quote(inside))
        }
        _ => format!("git -C {} apply {patch}", quote(&repo.to_string_lossy())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_git_apply_command_reaches_a_folder_inside_a_larger_repository() {
        // Under the build's target/tmp, as the library's tests keep theirs.
        let exe = std::env::current_exe().unwrap();
        let base = exe.ancestors().nth(3).unwrap().join("tmp").join("issuewright-unit");
        std::fs::create_dir_all(&base).unwrap();
        let dir = tempfile::tempdir_in(base).unwrap();
        let top = dir.path().canonicalize().unwrap();
        std::fs::create_dir_all(top.join(".git")).unwrap();
        std::fs::create_dir_all(top.join("examples/word freq")).unwrap();
        let inside = git_apply_command(&top.join("examples/word freq"), "/r/run 1");
        assert_eq!(
            inside,
            format!("git -C {} apply --directory='examples/word freq' '/r/run 1/diff.patch'", top.display())
        );
        assert_eq!(git_apply_command(&top, "/r/x"), format!("git -C {} apply /r/x/diff.patch", top.display()));
    }
}
