//! Validation in the editor: problems as diagnostics on the real files, the
//! `issuewright.validate` command, and validation after saves (debounced; a newer save
//! cancels the validation it supersedes).

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;
use std::time::Duration;

use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;
use tower_lsp::Client;
use tower_lsp::lsp_types::{Diagnostic, Url};

use super::errors::CommandError;
use super::proposal::uri_of;
use super::state::ServerState;
use crate::config::ValidateSettings;
use crate::validate::{Kind, Problem, Report, TextsOnce, Validator};
use crate::workspace::{PositionEncoding, Root, WorkspacePath, read_disk_text};

/// How long after a save the validation starts; another save in this time restarts the wait.
pub const SAVE_DEBOUNCE: Duration = Duration::from_millis(400);

/// The workspace's validator for `settings`, made once and kept while the settings and the
/// project's build files stay as they were.
pub fn validator(
    state: &ServerState,
    root: &Root,
    settings: &ValidateSettings,
) -> Result<Arc<Validator>, CommandError> {
    let stamp = crate::validate::detect::build_files_stamp(root.path());
    let mut slot = state.validator.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    if let Some((kept, kept_stamp, validator)) = slot.as_ref()
        && kept == settings
        && *kept_stamp == stamp
    {
        return Ok(validator.clone());
    }
    let validator = Arc::new(
        Validator::new(root.path(), settings.clone(), None)
            .map_err(|error| CommandError::Validation(error.to_string()))?,
    );
    *slot = Some((settings.clone(), stamp, validator.clone()));
    Ok(validator)
}

/// The diagnostics of `problems` by file, against the texts `text_of` gives.
pub fn diagnostics_by_file<'a>(
    problems: impl IntoIterator<Item = &'a Problem>,
    root: &Root,
    encoding: PositionEncoding,
    text_of: &dyn Fn(&WorkspacePath) -> Option<String>,
) -> BTreeMap<WorkspacePath, Vec<Diagnostic>> {
    let mut by_file: BTreeMap<WorkspacePath, Vec<Diagnostic>> = BTreeMap::new();
    let uri = |path: &WorkspacePath| uri_of(root, path);
    let texts = TextsOnce::new(text_of);
    for problem in problems {
        let Some(place) = &problem.place else { continue };
        if let Some(diagnostic) = problem.to_diagnostic(&|path| texts.get(path), &uri, encoding) {
            by_file.entry(place.path.clone()).or_default().push(diagnostic);
        }
    }
    by_file
}

/// The open buffers' texts and versions at the moment a validation took them.
pub type BufferSnapshot = HashMap<std::path::PathBuf, (String, i32)>;

/// Replaces every diagnostic issuewright published with `by_file`: files that no longer
/// have problems are cleared. Versions come from `validated` (the buffers the problems were
/// found in) when given, else from the documents as they are now.
pub async fn publish(
    client: &Client,
    state: &ServerState,
    root: &Root,
    by_file: BTreeMap<WorkspacePath, Vec<Diagnostic>>,
    validated: Option<&BufferSnapshot>,
) {
    let fresh: HashMap<Url, Vec<Diagnostic>> =
        by_file.into_iter().map(|(path, diagnostics)| (uri_of(root, &path), diagnostics)).collect();
    let mut published = state.published.lock().await;
    let stale: Vec<Url> = published.iter().filter(|uri| !fresh.contains_key(*uri)).cloned().collect();
    *published = fresh.keys().cloned().collect();
    for uri in stale {
        client.publish_diagnostics(uri, Vec::new(), None).await;
    }
    for (uri, diagnostics) in fresh {
        let path = uri.to_file_path().ok();
        let now = path.as_ref().and_then(|path| state.documents.get(path));
        let seen = path.as_ref().and_then(|path| validated.and_then(|buffers| buffers.get(path)));
        let (diagnostics, version) = match (seen, now) {
            // Typed on while the build ran: editors draw diagnostics on the text they have,
            // whatever version they are sent for.
            (Some((seen_text, seen_version)), Some((text, version))) if *seen_version != version => {
                (carried_onto(diagnostics, seen_text, &text), Some(version))
            }
            (Some((_, seen_version)), _) => (diagnostics, Some(*seen_version)),
            (None, now) => (diagnostics, now.map(|(_, version)| version)),
        };
        client.publish_diagnostics(uri, diagnostics, version).await;
    }
}

/// `diagnostics` placed in `validated` (the text a build saw) carried onto `now` (the text
/// the user has typed since): one on lines that are the same in both moves with them; one
/// that touches a line changed since is left out, until the next validation places it.
pub fn carried_onto(diagnostics: Vec<Diagnostic>, validated: &str, now: &str) -> Vec<Diagnostic> {
    let mut moved: HashMap<u32, u32> = HashMap::new();
    for op in similar::TextDiff::from_lines(validated, now).ops() {
        if let similar::DiffOp::Equal { old_index, new_index, len } = *op {
            moved.extend((0..len).map(|offset| ((old_index + offset) as u32, (new_index + offset) as u32)));
        }
    }
    let line_count = |text: &str| text.lines().count() as u32;
    // The position just past the last line (an error at the end of the file) moves with the end.
    moved.insert(line_count(validated), line_count(now));
    diagnostics
        .into_iter()
        .filter_map(|mut diagnostic| {
            let start = *moved.get(&diagnostic.range.start.line)?;
            let end = *moved.get(&diagnostic.range.end.line)?;
            (end - start == diagnostic.range.end.line - diagnostic.range.start.line).then(|| {
                diagnostic.range.start.line = start;
                diagnostic.range.end.line = end;
                diagnostic
            })
        })
        .collect()
}

/// A file's text as the user has it now: the open buffer, else the disk.
pub fn current_text(state: &ServerState, root: &Root, path: &WorkspacePath) -> Option<String> {
    let absolute = root.path().join(path.as_str());
    buffer_or_disk(state.documents.get(&absolute).map(|(text, _)| text), &absolute)
}

/// `buffer` when a document is open, else the file's text on disk.
fn buffer_or_disk(buffer: Option<String>, absolute: &std::path::Path) -> Option<String> {
    buffer.or_else(|| read_disk_text(absolute).ok().flatten())
}

/// Buffers as validation overrides.
fn overrides(buffers: &BufferSnapshot, root: &Root) -> BTreeMap<WorkspacePath, Option<String>> {
    crate::validate::buffer_overrides(
        root,
        buffers.iter().map(|(absolute, (text, _))| (absolute.clone(), text.clone())),
    )
}

/// A report as the client sees it: the verdict, the command, the summary, and problems
/// that have no place in a workspace file.
pub fn report_json(report: &Report) -> Value {
    let unplaced: Vec<Value> = report
        .problems
        .iter()
        .filter(|problem| problem.place.is_none())
        .map(|problem| json!({"severity": problem.severity, "source": problem.source, "message": problem.message, "location": problem.elsewhere}))
        .collect();
    json!({
        "kind": report.kind,
        "command": report.command,
        "passed": report.passed,
        "status": report.status,
        "timedOut": report.timed_out,
        "cancelled": report.cancelled,
        "errors": report.errors(),
        "warnings": report.warnings(),
        "summary": report.summary,
        "unplaced": unplaced,
        "unparsed": report.unparsed,
        "notRun": report.not_run,
        "durationMs": report.duration_ms,
    })
}

/// Validates the workspace as the user has it (buffers included), publishes the result, and
/// answers with it. `tests` runs the tests too when the check passes.
pub async fn validate_workspace(
    client: &Client,
    state: &ServerState,
    root: &Root,
    validator: &Validator,
    tests: bool,
    cancel: &CancellationToken,
) -> Result<Value, CommandError> {
    // Problems are placed in, and published for, the buffers as they were validated: the
    // user may type on while the build runs.
    let buffers = state.documents.snapshot();
    let overrides = overrides(&buffers, root);
    let run = |kind| validator.run(kind, overrides.clone(), None, cancel);
    let check = run(Kind::Check).await.map_err(|error| CommandError::Validation(error.to_string()))?;
    let mut reports = vec![check];
    if tests && reports[0].passed && validator.has_tests() && !cancel.is_cancelled() {
        reports.push(run(Kind::Test).await.map_err(|error| CommandError::Validation(error.to_string()))?);
    }
    if cancel.is_cancelled() {
        return Ok(json!({"cancelled": true}));
    }
    let encoding = state.profile().encoding;
    let text_of = |path: &WorkspacePath| {
        let absolute = root.path().join(path.as_str());
        buffer_or_disk(buffers.get(&absolute).map(|(text, _)| text.clone()), &absolute)
    };
    let by_file = diagnostics_by_file(reports.iter().flat_map(|r| &r.problems), root, encoding, &text_of);
    let files: Vec<Value> = by_file
        .iter()
        .map(|(path, d)| json!({"path": path, "uri": uri_of(root, path), "diagnostics": d.len()}))
        .collect();
    // A check that did not finish says nothing about the diagnostics shown so far.
    if reports.iter().all(|report| report.not_run.is_none() && !report.timed_out) {
        publish(client, state, root, by_file, Some(&buffers)).await;
    }
    let passed = reports.iter().all(|report| report.passed);
    Ok(json!({
        "passed": passed,
        "errors": reports.iter().map(Report::errors).sum::<usize>(),
        "warnings": reports.iter().map(Report::warnings).sum::<usize>(),
        "files": files,
        "reports": reports.iter().map(report_json).collect::<Vec<_>>(),
    }))
}

/// After a save: when `[validate] on_save` is on, validates once the saves settle; a newer
/// save cancels this one (and the command it started).
pub fn schedule_after_save(client: Client, state: Arc<ServerState>, root: Root, validator: Arc<Validator>) {
    let cancel = CancellationToken::new();
    if let Some(previous) = state.save_validation.lock().unwrap_or_else(|p| p.into_inner()).replace(cancel.clone()) {
        previous.cancel();
    }
    tokio::spawn(async move {
        tokio::select! {
            () = cancel.cancelled() => return,
            () = tokio::time::sleep(SAVE_DEBOUNCE) => {}
        }
        tracing::info!("validating after save");
        match validate_workspace(&client, &state, &root, &validator, false, &cancel).await {
            Ok(_) if cancel.is_cancelled() => tracing::info!("validation after save superseded by a newer save"),
            Ok(_) => {}
            Err(error) => tracing::warn!("validation after save: {error}"),
        }
    });
}

#[cfg(test)]
mod carried {
    use super::*;
    use tower_lsp::lsp_types::{Position, Range};

    fn at(line: u32, from: u32, to_line: u32, to: u32) -> Diagnostic {
        Diagnostic { range: Range::new(Position::new(line, from), Position::new(to_line, to)), ..Diagnostic::default() }
    }

    #[test]
    fn diagnostics_move_with_their_lines_and_leave_the_lines_changed_since() {
        let validated = "fn a() {}\nfn b() { x }\nfn c() {\n    y\n}\nfn d() { z }\n";
        // Three lines typed at the top, and `d` rewritten.
        let now = "// one\n// two\n// three\nfn a() {}\nfn b() { x }\nfn c() {\n    y\n}\nfn d() { w }\n";
        let carried = carried_onto(vec![at(1, 9, 1, 10), at(2, 0, 4, 1), at(5, 9, 5, 10)], validated, now);
        let ranges: Vec<(u32, u32, u32, u32)> = carried
            .iter()
            .map(|d| (d.range.start.line, d.range.start.character, d.range.end.line, d.range.end.character))
            .collect();
        assert_eq!(ranges, [(4, 9, 4, 10), (5, 0, 7, 1)], "`d`'s changed since: left out");
        let at_the_end = carried_onto(vec![at(6, 0, 6, 0)], validated, now);
        assert_eq!(at_the_end[0].range.start.line, 9);
    }
}
