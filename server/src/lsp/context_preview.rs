//! `issuewright.context`: the code a run for an issue would start from, shown before any
//! run, so the user can see what the model will be given (and say more in the issue when
//! the wrong files lead).

use std::sync::Arc;
use std::time::{Duration, Instant};

use serde::Deserialize;
use serde_json::{Value, json};
use tower_lsp::Client;

use super::commands::run_config;
use super::errors::CommandError;
use super::progress::building_line;
use super::proposal::uri_of;
use super::state::{EditorBase, ServerState};
use crate::agent::{PackPlace, first_context};
use crate::context::issue::IssueQuery;
use crate::context::{Index, RankedFile, rank};
use crate::issues;
use crate::llm::registry;
use crate::workspace::{Overlay, Root, WorkspacePath};

/// How long the command waits for the first index build.
const INDEX_WAIT: Duration = Duration::from_secs(10);
/// Files listed when the command does not say.
const DEFAULT_TOP: usize = 20;

/// The arguments: the issue as `implementIssue` takes it, how many files to list, and the
/// files to say why they rank where they do (workspace-relative paths, absolute paths or
/// `file:` URIs inside the workspace).
#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(super) struct ContextArgs {
    issue: String,
    #[serde(default)]
    top: Option<usize>,
    #[serde(default)]
    explain: Vec<String>,
}

/// Ranks the workspace for the issue, as the editor's buffers hold it, and packs it for the
/// configured model: `{files: [{path, uri, score, reasons, line, inPack}], named: [{path, uri,
/// reasons, line, inPack}], model, budgetTokens, packTokens, filesInFull, filesInPart, filesInMap,
/// indexedFiles, elapsedMs, notes, reading}`. `named` holds the files the issue names that the index
/// does not parse (`README.md`), which the pack shows first; `line` is where a file's best
/// reason points, or for a named file the line the issue gives with it (null: nowhere);
/// `inPack` is `full`, `part`, `map` or null; `elapsedMs` counts ranking and packing;
/// `reading` is what the issue was read as ([`Reading`](crate::context::issue::Reading): its
/// names, paths, lines, messages and weightiest words). With `explain`, `explained` holds for
/// each of its files why it ranks where it does ([`rank::Explanation`], with `lines`: the same
/// as text, as `issuewright context --explain` prints it).
pub(super) async fn preview(
    client: &Client,
    state: &Arc<ServerState>,
    args: ContextArgs,
) -> Result<Value, CommandError> {
    let top = args.top.unwrap_or(DEFAULT_TOP);
    if top == 0 {
        return Err(CommandError::BadArguments("issuewright.context: `top` 0 lists nothing; give 1 or more".into()));
    }
    let root = state.root.get().ok_or(CommandError::NoWorkspace)?;
    let explain: Vec<(String, WorkspacePath)> = args
        .explain
        .iter()
        .map(|given| Ok((given.clone(), explained_path(root, given)?)))
        .collect::<Result<_, CommandError>>()?;
    let issue = issues::resolve_with(&args.issue, root.path(), |path| state.documents.get(path).map(|(text, _)| text))?;
    let config = run_config(client, state, root, None).await?;
    let index = state.current_index(INDEX_WAIT).await.ok_or_else(|| {
        CommandError::IndexNotReady(if state.index.build_failed() {
            "could not be built (the server's log says why)".to_owned()
        } else {
            format!("is still being built ({}); try again in a moment", building_line(state.index.progress()))
        })
    })?;
    let started = Instant::now();
    let overlay = Overlay::new(root.clone(), Arc::new(EditorBase(state.documents.clone())));
    let info = crate::llm::model_info(&config.provider);
    // Ranking a large tree takes a while of one core: off the server's async workers.
    let ranking = index.clone();
    let (query, first, explained) = tokio::task::spawn_blocking(move || {
        let query = crate::context::issue_reading::analyze_in(&ranking, &issue.text);
        let read = |path: &str| WorkspacePath::parse(path).ok().and_then(|path| overlay.peek(&path));
        let mut first = first_context(&ranking, &query, &issue.text, info, read);
        // The files listed point at where their words gather.
        let listed = top.min(first.ranked.len());
        rank::point_at_words(&mut first.ranked[..listed], &ranking, &read);
        let explained = explanations(&ranking, &query, &first.ranked, &explain, &read);
        (query, first, explained)
    })
    .await
    .map_err(|error| CommandError::Ranking(error.to_string()))?;
    let explained = explained?;
    let mut notes: Vec<String> = Vec::new();
    if index.is_empty() {
        notes.push(
            "the workspace holds no source file to rank (Rust, Java, TypeScript or JavaScript; files git ignores, \
             dependencies and build output are left out)"
                .into(),
        );
    } else if query.gives_nothing() {
        notes.push("the issue holds no words to rank by; the files are in order of how much code uses them".into());
    }
    notes.extend(registry::unknown_model_note(&config.provider.model));
    let shown = |path: &str| {
        let uri = WorkspacePath::parse(path).ok().map(|path| uri_of(root, &path));
        let place = match first.place_of(path) {
            PackPlace::Full => json!("full"),
            PackPlace::Part => json!("part"),
            PackPlace::Map => json!("map"),
            PackPlace::Absent => Value::Null,
        };
        json!({"path": path, "uri": uri, "inPack": place})
    };
    let files: Vec<Value> = first
        .ranked
        .iter()
        .take(top)
        .map(|file| {
            let mut entry = shown(&file.path);
            entry["score"] = json!(file.score);
            entry["reasons"] = json!(file.reasons);
            entry["line"] = json!(file.line());
            entry
        })
        .collect();
    let named: Vec<Value> = first
        .named
        .iter()
        .map(|file| {
            let mut entry = shown(&file.path);
            entry["reasons"] = json!(file.reasons);
            entry["line"] = json!(file.line);
            entry
        })
        .collect();
    Ok(json!({
        "files": files,
        "named": named,
        "model": config.provider.model,
        "budgetTokens": first.budget_tokens,
        "packTokens": first.pack.tokens,
        "packText": first.pack.text,
        "filesInFull": first.pack.full_files.len(),
        "filesInPart": first.pack.part_files.len(),
        "filesInMap": first.pack.mapped_files.len(),
        "indexedFiles": index.len(),
        "elapsedMs": started.elapsed().as_millis() as u64,
        "notes": notes,
        "reading": crate::context::issue::Reading::of(&rank::as_ranked(&index, &query)),
        "explained": explained,
    }))
}

/// A path `explain` gives, as a workspace path (see [`Root::path_given`]).
fn explained_path(root: &Root, given: &str) -> Result<WorkspacePath, CommandError> {
    root.path_given(given).ok_or_else(|| {
        CommandError::BadArguments(format!("issuewright.context: `explain` {given}: not a file of the workspace"))
    })
}

/// Why each of `paths` ranks where it does in `ranked`, each with its text lines; an error
/// naming one that is not ranked, and why.
fn explanations(
    index: &Index,
    query: &IssueQuery,
    ranked: &[RankedFile],
    paths: &[(String, WorkspacePath)],
    read: &dyn Fn(&str) -> Option<String>,
) -> Result<Vec<Value>, CommandError> {
    if paths.is_empty() {
        return Ok(Vec::new());
    }
    let signals = rank::signals_reading(index, query, read);
    paths
        .iter()
        .map(|(given, path)| {
            let explanation =
                rank::explain(index, ranked, &signals, &rank::WEIGHTS, path.as_str(), read).ok_or_else(|| {
                    let why = rank::NotRanked::of(index, path.as_str());
                    CommandError::BadArguments(format!("issuewright.context: `explain` {given}: {why}"))
                })?;
            let mut value = json!(explanation);
            value["lines"] = json!(explanation.lines());
            Ok(value)
        })
        .collect()
}
