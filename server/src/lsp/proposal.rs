//! Proposals in the editor: showing one as a `WorkspaceEdit`, and applying it without ever
//! clobbering what the user typed since the run read their files.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use serde_json::{Value, json};
use tokio::time::Instant;
use tower_lsp::Client;
use tower_lsp::lsp_types::{ApplyWorkspaceEditResponse, Diagnostic, Url};

use super::diagnostics::{carried_onto, current_text, diagnostics_by_file, publish, report_json};
use super::errors::CommandError;
use super::state::ServerState;
use crate::agent::{FinalValidation, RunState, ValidationStatus};
use crate::session::{self, LedgerEvent, RunId};
use crate::workspace::{
    Conflict, FileChange, FileEdit, FileSummary, Landing, Root, WorkspacePath, build_workspace_edit, read_disk_text,
    unified_diff,
};

/// How long after `workspace/applyEdit` the server waits for the editor to report the new texts.
const VERIFY_TIMEOUT: Duration = Duration::from_secs(3);
/// How long after an editor's `applied: false` the server waits for it to report the changes
/// it made before it stopped (an editor may report them after its answer).
const SETTLE_AFTER_REFUSAL: Duration = Duration::from_millis(500);

/// A finished run's proposal, from memory or from its record on disk.
pub struct Proposal {
    /// The run.
    pub run_id: RunId,
    /// The issue's title.
    pub title: String,
    /// The run's final state.
    pub state: String,
    /// The changes.
    pub changes: Vec<FileChange>,
    /// Directories created by the run that hold no file.
    pub empty_dirs: Vec<WorkspacePath>,
    /// The validation of these changes, when one ran.
    pub validation: Option<Arc<FinalValidation>>,
    /// The status of that validation.
    pub verdict: Option<ValidationStatus>,
    /// False when narrowed to some of its files.
    pub complete: bool,
}

impl Proposal {
    /// Finds the proposal of `run_id`: a run of this session, or a record from an earlier one.
    pub fn find(state: &ServerState, root: &Root, run_id: &RunId) -> Result<Self, CommandError> {
        let in_memory = state.with_runs(|runs| {
            runs.get(run_id).map(|entry| (entry.discarded, entry.handle.issue().title.clone(), entry.handle.snapshot()))
        });
        match in_memory {
            Some((true, ..)) => Err(CommandError::Discarded(run_id.to_string())),
            Some((false, title, snapshot)) => {
                let Some(outcome) = snapshot.outcome else {
                    return Err(CommandError::StillRunning(run_id.to_string()));
                };
                Ok(Self {
                    run_id: run_id.clone(),
                    title,
                    state: snapshot.status.state.as_str().to_owned(),
                    changes: outcome.changes.clone(),
                    empty_dirs: outcome.empty_dirs.clone(),
                    validation: outcome.validation.clone(),
                    verdict: snapshot.status.validation,
                    complete: true,
                })
            }
            None => {
                let stored = session::load_proposal(root.path(), run_id)?;
                if stored.discarded {
                    return Err(CommandError::Discarded(run_id.to_string()));
                }
                if stored.state == RunState::Running.as_str() {
                    return Err(CommandError::StillRunning(run_id.to_string()));
                }
                let validation: Option<FinalValidation> =
                    stored.validation.and_then(|value| serde_json::from_value(value).ok());
                // The editor's document versions the run read belong to the session that ran
                // it: a new session counts from 1 again, so one may now name other text.
                let mut changes = stored.changes;
                for base in changes.iter_mut().filter_map(|change| change.base.as_mut()) {
                    base.version = None;
                }
                Ok(Self {
                    run_id: run_id.clone(),
                    title: stored.title,
                    state: stored.state,
                    changes,
                    empty_dirs: vec![],
                    verdict: stored.verdicts.and_then(|value| serde_json::from_value(value).ok()),
                    validation: validation.map(Arc::new),
                    complete: true,
                })
            }
        }
    }

    /// Narrows the proposal to `files` (workspace-relative paths, absolute paths below `root`
    /// or `file:` URIs, as an editor's file completion gives them), refusing unknown ones.
    pub fn select(mut self, root: &Root, files: Option<&[String]>) -> Result<Self, CommandError> {
        let Some(files) = files else {
            return Ok(self);
        };
        if files.is_empty() {
            return Err(CommandError::BadArguments(
                "`files` is empty, so nothing would be applied; leave it out to apply every file, or name some".into(),
            ));
        }
        let wanted: Vec<WorkspacePath> = files
            .iter()
            .map(|raw| match root.path_given(raw) {
                Some(path) => Ok(path),
                None => WorkspacePath::parse(raw).map_err(CommandError::from),
            })
            .collect::<Result<_, _>>()?;
        for path in &wanted {
            if !self.changes.iter().any(|change| change.path == *path) {
                return Err(CommandError::NotInProposal(path.to_string(), self.run_id.to_string()));
            }
        }
        self.complete = self.changes.iter().all(|change| wanted.contains(&change.path));
        self.changes.retain(|change| wanted.contains(&change.path));
        Ok(self)
    }

    /// The answer to `issuewright.proposal`: the edit against the texts the run read, the
    /// files with their line counts, and the unified diff.
    pub fn view(&self, state: &ServerState, root: &Root) -> Value {
        let edits: Vec<FileEdit> = self
            .changes
            .iter()
            .map(|change| FileEdit {
                path: change.path.clone(),
                uri: uri_of(root, &change.path),
                version: change.base.as_ref().and_then(|base| base.version),
                current: change.base.as_ref().map(|base| base.text.clone()),
                target: change.new_text.clone(),
            })
            .collect();
        let built = build_workspace_edit(&edits, &state.profile().edit_options(&self.title));
        let files: Vec<FileSummary> = self.changes.iter().map(FileSummary::of).collect();
        let mut notes: Vec<String> = self
            .empty_dirs
            .iter()
            .map(|dir| format!("the run created the empty directory `{dir}`, which an editor edit cannot create"))
            .collect();
        notes.extend(built.skipped.iter().map(|skipped| skipped.reason.clone()));
        let diagnostics: Vec<Value> = self
            .diagnostics(state, root)
            .into_iter()
            .map(|(path, diagnostics)| json!({"path": path, "uri": uri_of(root, &path), "diagnostics": diagnostics}))
            .collect();
        let validation = self.validation.as_ref().map(|validation| {
            json!({
                "build": self.verdict.map(|v| v.build),
                "tests": self.verdict.map(|v| v.tests),
                "check": validation.check.as_ref().map(report_json),
                "test": validation.test.as_ref().map(report_json),
            })
        });
        json!({
            "runId": self.run_id,
            "state": self.state,
            "title": self.title,
            "edit": built.to_wire(),
            "files": files,
            "diff": unified_diff(&self.changes),
            "skipped": built.skipped,
            "notes": notes,
            "validation": validation,
            "diagnostics": diagnostics,
        })
    }

    /// The validation's diagnostics, placed in the proposed texts (files the proposal does
    /// not change: in the user's current text).
    pub fn diagnostics(&self, state: &ServerState, root: &Root) -> BTreeMap<WorkspacePath, Vec<Diagnostic>> {
        let Some(validation) = &self.validation else { return BTreeMap::new() };
        let text_of = |path: &WorkspacePath| match self.changes.iter().find(|change| change.path == *path) {
            Some(change) => change.new_text.clone(),
            None => current_text(state, root, path),
        };
        diagnostics_by_file(validation.problems(), root, state.profile().encoding, &text_of)
    }
}

/// The URI of a workspace file.
pub fn uri_of(root: &Root, path: &WorkspacePath) -> Url {
    Url::from_file_path(root.path().join(path.as_str())).expect("the root is absolute")
}

/// A file's text as the user has it right now, with the open document's version; an error
/// when it is on disk but cannot be read as text.
fn current_text_and_version(
    state: &ServerState,
    absolute: &std::path::Path,
) -> Result<(Option<String>, Option<i32>), String> {
    match state.documents.get(absolute) {
        Some((text, version)) => Ok((Some(text), Some(version))),
        None => read_disk_text(absolute).map(|text| (text, None)).map_err(|error| error.to_string()),
    }
}

/// What one file is expected to look like once the edit is applied.
struct Expectation {
    path: WorkspacePath,
    absolute: PathBuf,
    text: Option<String>,
}

/// Applies a proposal through `workspace/applyEdit`, then checks the editor's documents.
pub async fn apply(
    client: &Client,
    state: &ServerState,
    root: &Root,
    proposal: Proposal,
) -> Result<Value, CommandError> {
    if !state.profile().apply_edit {
        return Err(CommandError::NoApplyEdit(session::diff_in_workspace(&proposal.run_id)));
    }
    // Carry every change onto the user's current text; refuse everything on a conflict.
    let mut edits = Vec::new();
    let mut already = Vec::new();
    let mut conflicts: Vec<Conflict> = Vec::new();
    for change in &proposal.changes {
        // The workspace may have changed since the run (a folder became a link), and a record
        // read back from disk is outside data: every path is checked again.
        let checked = if change.path.is_root() {
            Err("names the workspace folder itself".to_owned())
        } else {
            root.resolve(&change.path).map_err(|error| error.to_string())
        };
        let absolute = match checked {
            Ok(absolute) => absolute,
            Err(reason) => {
                conflicts.push(Conflict { path: change.path.clone(), reason });
                continue;
            }
        };
        let (current, version) = match current_text_and_version(state, &absolute) {
            Ok(found) => found,
            Err(error) => {
                // Never taken for "absent": a create would land on top of it.
                let reason = format!("cannot be read now ({error}); nothing is applied to it");
                conflicts.push(Conflict { path: change.path.clone(), reason });
                continue;
            }
        };
        match change.land_on(current.as_deref()) {
            Ok(Landing::AlreadyThere) => already.push(change.path.clone()),
            Ok(landing) => edits.push(FileEdit {
                path: change.path.clone(),
                uri: uri_of(root, &change.path),
                version,
                current,
                target: match landing {
                    Landing::Write(text) => Some(text),
                    _ => None,
                },
            }),
            Err(conflict) => conflicts.push(conflict),
        }
    }
    if !conflicts.is_empty() {
        return Err(CommandError::Conflicts(conflicts));
    }

    // The changes of a run that failed or was cancelled are unfinished: the confirmation the
    // editor shows says so.
    let label = match proposal.state.as_str() {
        "ready" => proposal.title.clone(),
        ended => format!("{} (unfinished: the run {ended})", proposal.title),
    };
    let built = build_workspace_edit(&edits, &state.profile().edit_options(&label));
    let mut files: Vec<Value> = already.iter().map(|path| json!({"path": path, "status": "alreadyApplied"})).collect();
    files.extend(built.skipped.iter().map(|s| json!({"path": s.path, "status": "skipped", "detail": s.reason})));
    if built.included.is_empty() {
        // Nothing to send: either every file already holds its change, or this editor can
        // take none of them (then nothing was applied, and the answer says so).
        let applied = built.skipped.is_empty();
        let reason = (!applied).then(|| {
            format!(
                "your editor can take none of the changes through a workspace edit; apply {} with `git apply`",
                session::diff_in_workspace(&proposal.run_id)
            )
        });
        return Ok(json!({
            "applied": applied,
            "failureReason": reason,
            "verified": applied,
            "files": files,
            "state": proposal.state,
        }));
    }

    let params = json!({"label": format!("issuewright: {label}"), "edit": built.to_wire()});
    let answer: ApplyWorkspaceEditResponse = client
        .send_request::<RawApplyEdit>(params)
        .await
        .map_err(|error| CommandError::Client(error.message.to_string()))?;

    let expectations: Vec<Expectation> = edits
        .into_iter()
        .filter(|edit| built.included.contains(&edit.path))
        .map(|edit| Expectation { absolute: root.path().join(edit.path.as_str()), path: edit.path, text: edit.target })
        .collect();
    // An editor that stops at a change it cannot make (Neovim applies them in turn) answers
    // `applied: false` with the changes before it made: what each file holds is the truth.
    // One that says where it stopped says whether anything changed before: at the first
    // change, nothing did.
    let wait = match (answer.applied, answer.failed_change) {
        (true, _) => VERIFY_TIMEOUT,
        (false, Some(0)) => Duration::ZERO,
        (false, Some(_)) => VERIFY_TIMEOUT,
        (false, None) => SETTLE_AFTER_REFUSAL,
    };
    let verdicts = verify(state, &expectations, wait).await;
    let mut problems = Vec::new();
    let mut changed = Vec::new();
    for (expectation, verdict) in expectations.iter().zip(&verdicts) {
        match verdict {
            Ok(()) => {
                changed.push(expectation.path.to_string());
                files.push(json!({"path": expectation.path, "status": "applied"}));
            }
            Err(detail) if answer.applied => {
                problems.push(format!("{}: {detail}", expectation.path));
                files.push(json!({"path": expectation.path, "status": "notApplied", "detail": detail}));
            }
            Err(_) => {
                problems.push(format!("{}: the editor did not change it", expectation.path));
                files.push(
                    json!({"path": expectation.path, "status": "notApplied", "detail": "the editor refused the edit"}),
                );
            }
        }
    }
    // What the edit did on disk to files no buffer holds (a file deleted, or created or
    // changed unopened) reaches the index whether or not the client reports it.
    if !changed.is_empty() {
        let (index, paths) = (state.index.clone(), changed.clone());
        if let Err(error) = tokio::task::spawn_blocking(move || index.disk_changed_all(&paths)).await {
            tracing::error!("reading the applied files into the index: {error}");
        }
    }
    let ledger = LedgerEvent::ProposalApplied {
        files: built.included.iter().map(ToString::to_string).collect(),
        problems: problems.clone(),
    };
    if (answer.applied || !changed.is_empty())
        && let Err(error) = session::append_to(root.path(), &proposal.run_id, ledger)
    {
        tracing::warn!("{error}");
    }
    if !answer.applied && !changed.is_empty() {
        let message = format!(
            "issuewright: the editor stopped partway through the edit ({}): {} changed, {} not; undo the changed \
             ones in the editor to go back, or finish by hand from {}",
            answer.failure_reason.as_deref().unwrap_or("no reason given"),
            changed.join(", "),
            expectations.len() - changed.len(),
            session::diff_in_workspace(&proposal.run_id)
        );
        client.show_message(tower_lsp::lsp_types::MessageType::WARNING, message).await;
    }
    // Files the editor could not take are not applied: the proposal does not stand whole.
    let verified = answer.applied && problems.is_empty() && built.skipped.is_empty();
    if answer.applied && !built.skipped.is_empty() {
        let paths: Vec<String> = built.skipped.iter().map(|skipped| skipped.path.to_string()).collect();
        let message = format!(
            "issuewright: applied all but {}, which your editor cannot create or delete through an edit; do those by hand, or apply {} with `git apply`",
            paths.join(", "),
            session::diff_in_workspace(&proposal.run_id)
        );
        client.show_message(tower_lsp::lsp_types::MessageType::WARNING, message).await;
    }
    // The files now hold the proposed texts, so the validation's positions match them.
    if verified && proposal.complete && proposal.validation.is_some() {
        // A file the user changed since the run holds the proposal carried onto their text.
        let mut by_file = proposal.diagnostics(state, root);
        for expectation in &expectations {
            let proposed = proposal.changes.iter().find(|change| change.path == expectation.path);
            if let (Some(applied), Some(proposed)) =
                (expectation.text.as_deref(), proposed.and_then(|change| change.new_text.as_deref()))
                && applied != proposed
                && let Some(diagnostics) = by_file.remove(&expectation.path)
            {
                by_file.insert(expectation.path.clone(), carried_onto(diagnostics, proposed, applied));
            }
        }
        publish(client, state, root, by_file, None).await;
    }
    if answer.applied && !verified {
        let message = format!("issuewright: some files did not end up as proposed: {}", problems.join("; "));
        client.show_message(tower_lsp::lsp_types::MessageType::WARNING, message).await;
    }
    Ok(json!({
        "applied": answer.applied,
        "failureReason": answer.failure_reason,
        "verified": verified,
        "files": files,
        "state": proposal.state,
    }))
}

/// Waits until every file holds its expected text (or is gone), or `wait` passes.
/// Editors answer `applied: true` even when they skipped a stale edit, so this is the truth.
async fn verify(state: &ServerState, expectations: &[Expectation], wait: Duration) -> Vec<Result<(), String>> {
    let mut changes = state.documents.subscribe();
    let deadline = Instant::now() + wait;
    loop {
        let verdicts: Vec<Result<(), String>> = expectations.iter().map(|e| check(state, e)).collect();
        if verdicts.iter().all(Result::is_ok) || Instant::now() >= deadline {
            return verdicts;
        }
        tokio::select! {
            _ = changes.changed() => {}
            () = tokio::time::sleep(Duration::from_millis(50)) => {}
        }
    }
}

fn check(state: &ServerState, expectation: &Expectation) -> Result<(), String> {
    let open = state.documents.get(&expectation.absolute);
    match (&expectation.text, open) {
        (Some(wanted), Some((text, _))) if text == *wanted => Ok(()),
        (Some(_), Some(_)) => Err("the editor's buffer differs from the proposal (the edit was skipped or changed)".into()),
        (Some(wanted), None) => match read_disk_text(&expectation.absolute) {
            Ok(Some(text)) if text == *wanted => Ok(()),
            _ => Err("the editor has not reported the new text (it may hold it unsaved in a buffer issuewright does not see)".into()),
        },
        (None, Some(_)) => Err("the file is still open in the editor".into()),
        (None, None) if expectation.absolute.exists() => Err("the file still exists".into()),
        (None, None) => Ok(()),
    }
}

/// `workspace/applyEdit` with the edit as raw JSON, so it goes out exactly as built.
enum RawApplyEdit {}

impl tower_lsp::lsp_types::request::Request for RawApplyEdit {
    type Params = Value;
    type Result = ApplyWorkspaceEditResponse;
    const METHOD: &'static str = "workspace/applyEdit";
}
