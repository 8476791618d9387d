//! Showing a run's progress in the editor: `$/progress` when the client supports it,
//! `issuewright/runEvent` notifications always, and a message when the run ends.

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

/// Forwards a run's events to the client until the run ends.
pub async fn follow(client: Client, run_id: RunId, with_progress: bool, mut events: mpsc::UnboundedReceiver<RunEvent>) {
    let token = token_of(&run_id);
    let mut progress = with_progress
        && client
            .send_request::<WorkDoneProgressCreate>(WorkDoneProgressCreateParams { token: token.clone() })
            .await
            .is_ok();
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
            let params = ProgressParams { token: token.clone(), value: ProgressParamsValue::WorkDone(step) };
            client.send_notification::<Progress>(params).await;
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
