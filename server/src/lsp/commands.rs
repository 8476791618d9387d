//! `workspace/executeCommand`: the `issuewright.*` commands.

use std::sync::Arc;

use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;
use tower_lsp::Client;

use super::context_preview;
use super::diagnostics;
use super::errors::CommandError;
use super::progress;
use super::proposal::{self, Proposal};
use super::state::{EditorBase, RunEntry, ServerState};
use crate::agent::{self, RunSpec};
use crate::config::{self, Config, ConfigLayer, ProviderKind, ProviderLayer};
use crate::issues;
use crate::session::{self, RunId};
use crate::workspace::Root;

/// Starts a run: `{issue, replay?}` → `{runId}`.
pub const IMPLEMENT_ISSUE: &str = "issuewright.implementIssue";
/// A run's state and counters: `{runId}`.
pub const RUN_STATUS: &str = "issuewright.runStatus";
/// A finished run's proposal as a `WorkspaceEdit`, files and diff: `{runId}`.
pub const PROPOSAL: &str = "issuewright.proposal";
/// Applies a proposal through `workspace/applyEdit`: `{runId, files?}`.
pub const APPLY_PROPOSAL: &str = "issuewright.applyProposal";
/// Discards a proposal: `{runId}`.
pub const DISCARD_PROPOSAL: &str = "issuewright.discardProposal";
/// Cancels a running run: `{runId}`.
pub const CANCEL: &str = "issuewright.cancel";
/// Runs the check (and with `tests: true` the tests) on the workspace as the user has it,
/// buffers included, and publishes the diagnostics: `{tests?}`.
pub const VALIDATE: &str = "issuewright.validate";

/// The files a run for an issue would start from, ranked with their reasons and their
/// place in the first prompt: `{issue, top?}`.
pub const CONTEXT: &str = "issuewright.context";

/// Every command the server registers.
pub const ALL: [&str; 8] =
    [IMPLEMENT_ISSUE, RUN_STATUS, PROPOSAL, APPLY_PROPOSAL, DISCARD_PROPOSAL, CANCEL, VALIDATE, CONTEXT];

/// How long a run's start waits for an index still being built. The command answers at
/// once otherwise (editors give up on a request after 30 s): a run that starts without the
/// index takes it up for its tools once it is ready, and goes without a context pack.
const INDEX_WAIT: std::time::Duration = std::time::Duration::from_secs(5);

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct ImplementIssueArgs {
    issue: String,
    #[serde(default)]
    replay: Option<String>,
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct ValidateArgs {
    #[serde(default)]
    tests: bool,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct RunArgs {
    run_id: String,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct ApplyArgs {
    run_id: String,
    #[serde(default)]
    files: Option<Vec<String>>,
}

fn arguments<T: DeserializeOwned>(command: &str, arguments: &[Value], example: &str) -> Result<T, CommandError> {
    let one = || CommandError::BadArguments(format!("{command} takes one argument object, e.g. {example}"));
    if arguments.len() > 1 {
        return Err(one());
    }
    let first = arguments.first().ok_or_else(one)?;
    serde_json::from_value(first.clone())
        .map_err(|error| CommandError::BadArguments(format!("{command}: {error}; expected e.g. {example}")))
}

fn root(state: &ServerState) -> Result<&Root, CommandError> {
    state.root.get().ok_or(CommandError::NoWorkspace)
}

/// Runs one command.
pub async fn execute(
    client: &Client,
    state: &Arc<ServerState>,
    command: &str,
    args: &[Value],
) -> Result<Value, CommandError> {
    let run_example = r#"{"runId": "20261121-170312-4fa9"}"#;
    match command {
        IMPLEMENT_ISSUE => {
            let args: ImplementIssueArgs =
                arguments(command, args, r#"{"issue": "@ISSUE.md", "replay": "session.jsonl"}"#)?;
            implement_issue(client, state, args).await
        }
        RUN_STATUS => {
            let args: RunArgs = arguments(command, args, run_example)?;
            run_status(state, &RunId::parse(&args.run_id)?)
        }
        PROPOSAL => {
            let args: RunArgs = arguments(command, args, run_example)?;
            let root = root(state)?;
            Ok(Proposal::find(state, root, &RunId::parse(&args.run_id)?)?.view(state, root))
        }
        APPLY_PROPOSAL => {
            let args: ApplyArgs = arguments(command, args, run_example)?;
            let root = root(state)?;
            // Taken first: a discard cannot come between the proposal being found and applied.
            let _applying = ApplyingGuard::take(state, &args.run_id)?;
            let found =
                Proposal::find(state, root, &RunId::parse(&args.run_id)?)?.select(root, args.files.as_deref())?;
            proposal::apply(client, state, root, found).await
        }
        DISCARD_PROPOSAL => {
            let args: RunArgs = arguments(command, args, run_example)?;
            discard(state, &RunId::parse(&args.run_id)?)
        }
        CANCEL => {
            let args: RunArgs = arguments(command, args, run_example)?;
            cancel(state, &RunId::parse(&args.run_id)?)
        }
        VALIDATE => {
            // No argument, or `null` (what a client sends for an optional one left out): the defaults.
            let args: ValidateArgs = if args.first().is_none_or(Value::is_null) {
                ValidateArgs::default()
            } else {
                arguments(command, args, r#"{"tests": true}"#)?
            };
            let root = root(state)?;
            let config = run_config(client, state, root, None).await?;
            let validator = diagnostics::validator(state, root, &config.validate)?;
            diagnostics::validate_workspace(client, state, root, &validator, args.tests, &CancellationToken::new())
                .await
        }
        CONTEXT => {
            let args: context_preview::ContextArgs =
                arguments(command, args, r#"{"issue": "@ISSUE.md", "top": 20, "explain": ["src/lib.rs"]}"#)?;
            context_preview::preview(client, state, args).await
        }
        other => Err(CommandError::UnknownCommand(other.to_owned())),
    }
}

async fn implement_issue(
    client: &Client,
    state: &Arc<ServerState>,
    args: ImplementIssueArgs,
) -> Result<Value, CommandError> {
    let root = root(state)?;
    let issue = issues::resolve_with(&args.issue, root.path(), |path| state.documents.get(path).map(|(text, _)| text))?;
    let config = run_config(client, state, root, args.replay).await?;
    let index = if state.index.build_failed() { None } else { state.current_index(INDEX_WAIT).await };
    if index.is_none() {
        tracing::warn!("the index is not ready; the run starts without a context pack");
    }
    let validator =
        if config.validate.enabled { Some(diagnostics::validator(state, root, &config.validate)?) } else { None };
    let spec = RunSpec {
        root: root.clone(),
        issue,
        provider: config.provider,
        budgets: config.agent.into(),
        index_later: index.is_none().then(|| state.index.clone()),
        index,
        validator,
    };
    let (events, receiver) = mpsc::unbounded_channel();
    let base = Arc::new(EditorBase(state.documents.clone()));
    let handle = agent::start(spec, base, Some(events))?;
    let run_id = handle.id().clone();
    state.with_runs(|runs| runs.insert(run_id.clone(), RunEntry { handle, discarded: false }));
    tokio::spawn(progress::follow(client.clone(), run_id.clone(), state.profile().work_done_progress, receiver));
    Ok(json!({"runId": run_id}))
}

/// The configuration of a new run: the files, the editor's settings (`initializationOptions`
/// and `workspace/configuration` section `issuewright`), and the command's own `replay`.
pub(super) async fn run_config(
    client: &Client,
    state: &ServerState,
    root: &Root,
    replay: Option<String>,
) -> Result<Config, CommandError> {
    let mut layers = config::file_layers(root.path())?;
    match state.init_layer.get() {
        Some(Ok(layer)) => layers.push(layer.clone()),
        Some(Err(error)) => return Err(error.clone().into()),
        None => {}
    }
    if state.profile().configuration {
        let item = tower_lsp::lsp_types::ConfigurationItem { scope_uri: None, section: Some("issuewright".into()) };
        match client.configuration(vec![item]).await {
            Ok(values) => {
                for value in values.iter().filter(|v| v.is_object()) {
                    layers.push(ConfigLayer::from_json(value, "the editor's `issuewright` settings")?);
                }
            }
            Err(error) => tracing::warn!("workspace/configuration failed: {}", error.message),
        }
    }
    if let Some(replay) = replay {
        let provider =
            ProviderLayer { kind: Some(ProviderKind::Replay), replay: Some(replay.into()), ..ProviderLayer::default() };
        layers.push(ConfigLayer { provider, ..ConfigLayer::default() });
    }
    Ok(Config::resolve(layers, root.path())?)
}

fn run_status(state: &ServerState, run_id: &RunId) -> Result<Value, CommandError> {
    let snapshot = state.with_runs(|runs| runs.get(run_id).map(|entry| (entry.handle.snapshot(), entry.discarded)));
    if let Some((snapshot, discarded)) = snapshot {
        let mut value = serde_json::to_value(&snapshot.status).expect("statuses serialise");
        value["runId"] = json!(run_id);
        value["discarded"] = json!(discarded);
        if let Some(outcome) = snapshot.outcome {
            value["files"] = json!(outcome.changes.len());
        }
        return Ok(value);
    }
    let stored = session::load_proposal(root(state)?.path(), run_id)?;
    let mut value = json!({
        "runId": run_id,
        "state": stored.state,
        "rounds": stored.rounds,
        "toolCalls": stored.tool_calls,
        "failedToolCalls": stored.failed_tool_calls,
        "schemaViolations": stored.schema_violations,
        "parseRepairs": stored.parse_repairs,
        "usage": stored.usage,
        "validation": stored.verdicts,
        "summary": stored.summary,
        "error": stored.error,
        "discarded": stored.discarded,
        "files": stored.changes.len(),
    });
    if stored.verdicts.is_none()
        && let Some(fields) = value.as_object_mut()
    {
        fields.remove("validation");
    }
    Ok(value)
}

fn discard(state: &ServerState, run_id: &RunId) -> Result<Value, CommandError> {
    let root = root(state)?.clone();
    // The editor may be showing the edit for confirmation: it is not discarded under it.
    let _applying = ApplyingGuard::take(state, run_id.as_str())?;
    let running = state.with_runs(|runs| {
        runs.get_mut(run_id).map(|entry| {
            entry.discarded = true;
            entry.handle.cancel();
            entry.handle.clone()
        })
    });
    match running {
        // Still running: it stops, and its record is marked once it is written.
        Some(handle) if handle.snapshot().outcome.is_none() => {
            let run_id = run_id.clone();
            tokio::spawn(async move {
                handle.finished().await;
                if let Err(error) = session::mark_discarded(root.path(), &run_id) {
                    tracing::warn!("{error}");
                }
            });
        }
        _ => session::mark_discarded(root.path(), run_id)?,
    }
    Ok(json!({"runId": run_id, "discarded": true}))
}

fn cancel(state: &ServerState, run_id: &RunId) -> Result<Value, CommandError> {
    let running = state.with_runs(|runs| {
        runs.get(run_id).map(|entry| {
            let running = entry.handle.snapshot().outcome.is_none();
            entry.handle.cancel();
            running
        })
    });
    match running {
        Some(cancelled) => Ok(json!({"runId": run_id, "cancelled": cancelled})),
        None => {
            // Not a run of this session: say whether it exists at all.
            session::load_proposal(root(state)?.path(), run_id)?;
            Ok(json!({"runId": run_id, "cancelled": false}))
        }
    }
}

/// Marks a run's proposal as being applied until dropped: a second apply computed before the
/// first lands would apply the same edits twice.
struct ApplyingGuard<'a> {
    state: &'a ServerState,
    run_id: String,
}

impl<'a> ApplyingGuard<'a> {
    fn take(state: &'a ServerState, run_id: &str) -> Result<Self, CommandError> {
        let mut applying = state.applying.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if !applying.insert(run_id.to_owned()) {
            return Err(CommandError::AlreadyApplying(run_id.to_owned()));
        }
        Ok(Self { state, run_id: run_id.to_owned() })
    }
}

impl Drop for ApplyingGuard<'_> {
    fn drop(&mut self) {
        self.state.applying.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).remove(&self.run_id);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_apply_at_a_time_per_run_even_when_one_is_abandoned() {
        let state = ServerState::default();
        let first = ApplyingGuard::take(&state, "20261121-1").unwrap();
        assert!(matches!(ApplyingGuard::take(&state, "20261121-1"), Err(CommandError::AlreadyApplying(_))));
        assert!(ApplyingGuard::take(&state, "20261121-2").is_ok(), "other runs are not held up");
        drop(first); // finished, or its request cancelled
        assert!(ApplyingGuard::take(&state, "20261121-1").is_ok());
    }
}
