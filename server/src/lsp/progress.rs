//! Showing progress in the editor: a run's as `$/progress` when the client supports it,
//! `issuewright/runEvent` notifications always, and a message when the run ends; the first
//! index build's as `$/progress` too.

use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tokio::sync::mpsc;
use tower_lsp::Client;
use tower_lsp::lsp_types::notification::{Notification, Progress};
use tower_lsp::lsp_types::request::WorkDoneProgressCreate;
use tower_lsp::lsp_types::{
    MessageType, NumberOrString, ProgressParams, ProgressParamsValue, WorkDoneProgress, WorkDoneProgressBegin,
    WorkDoneProgressCreateParams, WorkDoneProgressEnd, WorkDoneProgressReport,
};

use crate::agent::{RunEvent, RunState, ValidationStatus, Verdict, context_line};
use crate::context::{Index, LiveIndex};
use crate::session::RunId;

/// The `issuewright/runEvent` notification: `{runId, event}` for every run event.
pub enum RunEventNotification {}

impl Notification for RunEventNotification {
    type Params = Value;
    const METHOD: &'static str = "issuewright/runEvent";
}

/// The progress token of a run.
pub fn token_of(run_id: &RunId) -> NumberOrString {
    NumberOrString::String(format!("issuewright/{run_id}"))
}

/// Whether `$/progress` may be sent under `token`: the client takes it (`with_progress`) and
/// accepted the token.
async fn progress_created(client: &Client, token: &NumberOrString, with_progress: bool) -> bool {
    with_progress
        && client
            .send_request::<WorkDoneProgressCreate>(WorkDoneProgressCreateParams { token: token.clone() })
            .await
            .is_ok()
}

/// Sends one step of the progress under `token`.
async fn send_progress(client: &Client, token: &NumberOrString, step: WorkDoneProgress) {
    let params = ProgressParams { token: token.clone(), value: ProgressParamsValue::WorkDone(step) };
    client.send_notification::<Progress>(params).await;
}

/// Forwards a run's events to the client until the run ends.
pub async fn follow(client: Client, run_id: RunId, with_progress: bool, mut events: mpsc::UnboundedReceiver<RunEvent>) {
    let token = token_of(&run_id);
    let mut progress = progress_created(&client, &token, with_progress).await;
    while let Some(event) = events.recv().await {
        client.send_notification::<RunEventNotification>(json!({"runId": run_id, "event": event})).await;
        let step = match &event {
            RunEvent::Started { title } => Some(WorkDoneProgress::Begin(WorkDoneProgressBegin {
                title: "issuewright".into(),
                cancellable: Some(true),
                message: Some(title.clone()),
                percentage: None,
            })),
            RunEvent::Context { .. } => Some(WorkDoneProgress::Report(WorkDoneProgressReport {
                cancellable: Some(true),
                message: context_line(&event),
                percentage: None,
            })),
            RunEvent::Round { round } => Some(WorkDoneProgress::Report(WorkDoneProgressReport {
                cancellable: Some(true),
                message: Some(format!("round {round}: asking the model")),
                percentage: None,
            })),
            RunEvent::ToolCall { round, name, path, ok, .. } => {
                Some(WorkDoneProgress::Report(WorkDoneProgressReport {
                    cancellable: Some(true),
                    message: Some(format!(
                        "round {round}: {name} {}{}",
                        path.as_deref().unwrap_or_default(),
                        if *ok { "" } else { " (failed)" }
                    )),
                    percentage: None,
                }))
            }
            RunEvent::Validation { round, step, passed, errors, preexisting, .. } => {
                let before = if *preexisting > 0 { format!(", {preexisting} there before") } else { String::new() };
                Some(WorkDoneProgress::Report(WorkDoneProgressReport {
                    cancellable: Some(true),
                    message: Some(match (step.as_str(), passed) {
                        ("check", true) => format!("round {round}: the build passes"),
                        ("check", false) => format!("round {round}: the build fails ({errors} error(s){before})"),
                        (_, true) => format!("round {round}: the tests pass"),
                        (_, false) => format!("round {round}: tests fail ({errors} failure(s){before})"),
                    }),
                    percentage: None,
                }))
            }
            RunEvent::Finished { status, .. } => Some(WorkDoneProgress::End(WorkDoneProgressEnd {
                message: Some(format!("{}: {}", status.state.as_str(), first_line(&status.summary))),
            })),
        };
        if let (true, Some(step)) = (progress, step) {
            send_progress(&client, &token, step).await;
        }
        if let RunEvent::Finished { status, files } = event {
            let (kind, message) = match status.state {
                RunState::Ready => (
                    MessageType::INFO,
                    format!(
                        "issuewright: run {run_id} is ready: {files} file(s) proposed.{} Review with issuewright.proposal, apply with issuewright.applyProposal.",
                        verdict_words(status.validation.as_ref())
                    ),
                ),
                RunState::Cancelled => (MessageType::INFO, format!("issuewright: run {run_id} was cancelled.")),
                _ => (
                    MessageType::ERROR,
                    format!("issuewright: run {run_id} failed: {}", status.error.unwrap_or_default()),
                ),
            };
            client.show_message(kind, message).await;
            progress = false;
        }
    }
}

/// The progress token of the first index build.
const INDEX_TOKEN: &str = "issuewright/index";
/// How often the first index build's progress is reported.
const INDEX_REPORT_EVERY: Duration = Duration::from_millis(500);
/// How long the first index build is followed at most.
const INDEX_FOLLOWED_FOR: Duration = Duration::from_secs(24 * 60 * 60);

/// How far the first build of `live` has come, in words: `1200 of 3400 source files`, or
/// `finding source files` while the walk runs.
pub(super) fn building_line(progress: (usize, Option<usize>)) -> String {
    match progress {
        (indexed, Some(found)) => format!("{indexed} of {found} source files"),
        (_, None) => "finding source files".into(),
    }
}

/// Shows the first build of `live` in the editor until it is done (`with_progress`: the client
/// takes `$/progress`): the files found, then how many of them are indexed, then how long it
/// took. Returns the index once built.
pub async fn follow_index(client: &Client, live: &LiveIndex, with_progress: bool) -> Option<Arc<Index>> {
    let token = NumberOrString::String(INDEX_TOKEN.into());
    let progress = progress_created(client, &token, with_progress).await;
    let send = |step: WorkDoneProgress| send_progress(client, &token, step);
    if progress {
        send(WorkDoneProgress::Begin(WorkDoneProgressBegin {
            title: "issuewright: indexing".into(),
            cancellable: Some(false),
            message: Some("finding source files".into()),
            percentage: Some(0),
        }))
        .await;
    }
    let started = Instant::now();
    let index = loop {
        let index = live.ready(INDEX_REPORT_EVERY).await;
        if index.is_some() || live.build_failed() || started.elapsed() > INDEX_FOLLOWED_FOR {
            break index;
        }
        if progress {
            let (indexed, found) = live.progress();
            send(WorkDoneProgress::Report(WorkDoneProgressReport {
                cancellable: Some(false),
                message: Some(building_line((indexed, found))),
                percentage: found.map(|found| (indexed.min(found) * 100 / found.max(1)) as u32),
            }))
            .await;
        }
    };
    if progress {
        let failed = "indexing failed (the server's log says why); runs go on without the index".to_owned();
        let message = index.as_ref().map_or(Some(failed), |index| {
            let cached = match (index.stats.cache_hits, index.stats.unread) {
                (0, _) => String::new(),
                (hits, 0) => format!(" ({hits} from the cache)"),
                (hits, unread) if unread == hits => format!(" ({hits} from the cache, unchanged on disk and not read)"),
                (hits, unread) => format!(" ({hits} from the cache, {unread} of them unchanged on disk and not read)"),
            };
            let files = match index.len() {
                1 => "1 source file".to_owned(),
                n => format!("{n} source files"),
            };
            Some(format!("{files} indexed in {} ms{cached}", index.stats.elapsed_ms))
        });
        send(WorkDoneProgress::End(WorkDoneProgressEnd { message })).await;
    }
    index
}

/// A sentence on whether the proposal builds and passes its tests (empty when unknown).
pub fn verdict_words(validation: Option<&ValidationStatus>) -> String {
    let Some(validation) = validation else { return String::new() };
    match (validation.build, validation.tests) {
        (Verdict::Passed, Verdict::Passed) => " It builds and its tests pass.".into(),
        (Verdict::Passed, Verdict::Failed) => format!(" It builds, but {} test failure(s) remain.", validation.errors),
        (Verdict::Passed, _) => " It builds.".into(),
        (Verdict::Failed, _) => format!(" It does not build: {} error(s).", validation.errors.max(1)),
        (Verdict::Unavailable, _) => " It could not be validated.".into(),
        (Verdict::NotRun, _) => String::new(),
    }
}

fn first_line(text: &str) -> &str {
    text.lines().next().unwrap_or_default()
}
