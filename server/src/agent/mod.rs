//! The agent: one run of an issue, driven to a proposal. Both faces (the language server
//! and the CLI) start runs through [`start`] and follow them through a [`RunHandle`].

mod compact;
mod driver;
mod files_shown;
mod first_context;
mod prompt;
mod run;
mod validation;

use std::sync::Arc;

use tokio::sync::{mpsc, watch};
use tokio_util::sync::CancellationToken;

pub use run::{
    Budgets, FinalValidation, RunEvent, RunHandle, RunOutcome, RunSnapshot, RunSpec, RunState, RunStatus,
    ValidationStatus, Verdict, context_line,
};

pub use first_context::{FirstContext, PackPlace, first_context, pack_budget};

use crate::session::{RunId, RunRecord, SessionError};
use crate::tools::Seen;
use crate::workspace::{BaseSource, Overlay};
use driver::Driver;

/// Why a run could not start at all.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// Its record could not be created, so it would leave no trace; it is not started.
    #[error("cannot record the run: {0}")]
    Record(#[from] SessionError),
}

/// Starts a run on a tokio task and returns at once.
///
/// `base` supplies the user's current texts (open buffers, then disk); `events`, when
/// given, receives progress. Problems after this point (a bad replay file, a model error)
/// end the run in state `failed` with the reason, and the record is kept.
pub fn start(
    spec: RunSpec,
    base: Arc<dyn BaseSource>,
    events: Option<mpsc::UnboundedSender<RunEvent>>,
) -> Result<RunHandle, RunError> {
    // Ids carry the second and 16 random bits; a clash is retried with a fresh id.
    let (id, record) = {
        let mut attempt = 0;
        loop {
            let id = RunId::generate();
            match RunRecord::create(spec.root.path(), &id) {
                Ok(record) => break (id, record),
                Err(error) if attempt < 3 && error.is_already_there() => attempt += 1,
                Err(error) => return Err(error.into()),
            }
        }
    };
    let status = RunStatus {
        state: RunState::Running,
        rounds: 0,
        tool_calls: 0,
        failed_tool_calls: 0,
        schema_violations: 0,
        parse_repairs: 0,
        usage: Default::default(),
        summary: "starting".into(),
        error: None,
        validation: None,
    };
    let (publish, watch_status) = watch::channel(RunSnapshot { status: status.clone(), outcome: None });
    let cancel = CancellationToken::new();
    let handle = RunHandle { id: id.clone(), issue: spec.issue.clone(), status: watch_status, cancel: cancel.clone() };
    let overlay = Overlay::new(spec.root.clone(), base.clone());
    let checks = validation::Checks::for_spec(&spec);
    let driver = Driver {
        id,
        spec,
        overlay,
        seen: Seen::default(),
        base,
        checks,
        edits: 0,
        record: Arc::new(record),
        events,
        publish: publish.clone(),
        work: cancel.child_token(),
        cancel,
        status,
        staged: Default::default(),
    };

    let (record, events, run_id, title, staged, root) = (
        driver.record.clone(),
        driver.events.clone(),
        driver.id.clone(),
        driver.spec.issue.title.clone(),
        driver.staged.clone(),
        driver.spec.root.clone(),
    );
    let task = tokio::spawn(driver.run());
    // If the driver panics, the run still ends, as failed, and says so: in its status, its
    // record (so it can be discarded, and is still known after a restart) and its events.
    tokio::spawn(async move {
        if let Err(error) = task.await {
            let message = format!("internal error: {error}");
            tracing::error!("{message}");
            let current = publish.borrow().clone();
            if current.outcome.is_some() {
                return;
            }
            let mut status = current.status;
            status.fail(message.clone());
            // The record first: whoever waits for the end (a discard) finds it written. It
            // keeps what the run had staged, to review or discard as any failed run's.
            let _ = record.append(crate::session::LedgerEvent::Error { message });
            let changes = staged.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).clone();
            let stored = status.stored(run_id, title, changes.clone(), None);
            if let Err(error) = record.write_proposal(&stored, &crate::workspace::patch(&changes, root.path())) {
                tracing::error!("{error}");
            }
            let files = changes.len();
            publish.send_modify(|snapshot| {
                if snapshot.outcome.is_none() {
                    snapshot.status = status.clone();
                    snapshot.outcome = Some(Arc::new(RunOutcome { changes, empty_dirs: vec![], validation: None }));
                }
            });
            if let Some(events) = events {
                let _ = events.send(RunEvent::Finished { status, files });
            }
        }
    });
    Ok(handle)
}

#[cfg(test)]
mod tests;
