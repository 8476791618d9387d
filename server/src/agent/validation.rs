//! Validation inside a run: the driver, not the model, runs the project's check after every
//! round that changed files, the tests once the check passes, and tells the model what
//! they found. When the error count stops falling it changes strategy instead of letting
//! the model retry the same thing. When a validation fails, the same command runs once on
//! the workspace without the proposal, so errors that were there before the run are told
//! apart from the ones the run caused: the model is not sent after the former. That check
//! of the workspace as it was starts with the run, while the model reads the code, which
//! also warms the shadow's build for the first check of the proposal.

use std::collections::BTreeMap;
use std::sync::Arc;

use serde_json::json;
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

use super::driver::Driver;
use super::files_shown;
use super::run::{FinalValidation, RunEvent, RunSpec, ValidationStatus, Verdict};
use crate::llm::ToolCall;
use crate::session::LedgerEvent;
use crate::tools::RunTestsArgs;
use crate::validate::{Kind, Report, Severity, ValidateError, Validator, check_filter};
use crate::workspace::WorkspacePath;

/// The strategies tried, in order, when errors stop falling.
const STRATEGIES: [&str; 3] = ["reflect", "context", "rewrite"];

/// A run's validation state.
pub(super) struct Checks {
    validator: Arc<Validator>,
    /// Error counts of the automatic validations since the last change of strategy.
    counts: Vec<usize>,
    /// Strategy changes so far.
    stalls: usize,
    /// Validations run.
    runs: u32,
    /// The latest check and test reports, and the edit count they saw.
    check: Option<(Report, u64)>,
    test: Option<(Report, u64)>,
    /// Why validation cannot run, once found.
    unavailable: Option<String>,
    /// Told the model the validation budget is spent.
    said_spent: bool,
    /// Times the model was sent back at its final answer.
    nudges: u32,
    /// The check and the tests on the workspace without the proposal, run once the
    /// proposal's failed (`None` inside: that run could not tell).
    before: Vec<(Kind, Option<Report>)>,
    /// The check of the workspace as it was, started with the run.
    head_start: Option<HeadStart>,
    /// Kinds whose run without the proposal was tried at least once.
    tried_before: Vec<Kind>,
}

/// A check running in the background on the workspace without the proposal.
struct HeadStart {
    task: JoinHandle<Result<Report, ValidateError>>,
    cancel: CancellationToken,
}

impl Drop for Checks {
    fn drop(&mut self) {
        if let Some(head_start) = &self.head_start {
            head_start.cancel.cancel();
        }
    }
}

impl Checks {
    /// The validation of a run, when the spec has a validator with something to run.
    pub(super) fn for_spec(spec: &RunSpec) -> Option<Self> {
        let validator = spec.validator.clone()?;
        (validator.plan().check.is_some() || validator.plan().test.is_some()).then(|| Self {
            validator,
            counts: Vec::new(),
            stalls: 0,
            runs: 0,
            check: None,
            test: None,
            unavailable: None,
            said_spent: false,
            nudges: 0,
            before: Vec::new(),
            head_start: None,
            tried_before: Vec::new(),
        })
    }

    /// Starts checking the workspace as it is (`overrides`: the editor's buffers), in the
    /// background; stopped by `cancel` or when the run ends.
    pub(super) fn start_head_start(
        &mut self,
        overrides: BTreeMap<WorkspacePath, Option<String>>,
        cancel: &CancellationToken,
    ) {
        if self.validator.plan().check.is_none() {
            return;
        }
        let validator = self.validator.clone();
        let cancel = cancel.child_token();
        let token = cancel.clone();
        let task = tokio::spawn(async move { validator.run(Kind::Check, overrides, None, &token).await });
        self.head_start = Some(HeadStart { task, cancel });
    }

    /// Whether the workspace's check without the proposal, of `report`'s kind, left out a
    /// nested project that `report` covers.
    fn before_lacks_a_project_of(&self, report: &Report) -> bool {
        self.before.iter().any(|(kind, before)| {
            *kind == report.kind
                && before.as_ref().is_some_and(|before| report.covered.iter().any(|f| !before.covered.contains(f)))
        })
    }

    /// How many of `report`'s errors the workspace had before the run.
    fn already(&self, report: &Report) -> usize {
        self.before
            .iter()
            .find(|(kind, _)| *kind == report.kind)
            .and_then(|(_, before)| before.as_ref())
            .map_or(0, |before| report.errors_already_in(before))
    }

    /// The errors of `report` the run caused, as the count that tells whether they fall:
    /// `None` when it did not finish (timed out or cancelled), which counts nothing.
    fn counted_errors(&self, report: &Report) -> Option<usize> {
        (!report.inconclusive()).then(|| self.new_errors(report))
    }

    /// The errors of `report` the run caused (all of them when nothing ran before).
    fn new_errors(&self, report: &Report) -> usize {
        if clean(report) { 0 } else { report.error_count().saturating_sub(self.already(report)) }
    }

    pub(super) fn status(&self, edits: u64) -> ValidationStatus {
        let verdict = |entry: &Option<(Report, u64)>| match entry {
            _ if self.unavailable.is_some() => Verdict::Unavailable,
            Some((report, seen)) if *seen == edits && report.passed => Verdict::Passed,
            // A cancelled check says nothing about the proposal.
            Some((report, seen)) if *seen == edits && report.not_run.is_none() && !report.cancelled => Verdict::Failed,
            _ => Verdict::NotRun,
        };
        let latest = [&self.test, &self.check]
            .into_iter()
            .flatten()
            .filter(|(_, seen)| *seen == edits)
            .map(|(report, _)| report)
            .next();
        ValidationStatus {
            build: verdict(&self.check),
            tests: verdict(&self.test),
            errors: latest.map_or(0, Report::errors),
            preexisting: latest.map_or(0, |report| self.already(report)),
            warnings: latest.map_or(0, Report::warnings),
            runs: self.runs,
        }
    }

    /// The reports that describe the proposal after `edits` changes.
    pub(super) fn final_validation(&self, edits: u64) -> Option<FinalValidation> {
        let current =
            |entry: &Option<(Report, u64)>| entry.as_ref().filter(|(_, seen)| *seen == edits).map(|(r, _)| r.clone());
        let validation = FinalValidation { check: current(&self.check), test: current(&self.test) };
        (validation.check.is_some() || validation.test.is_some()).then_some(validation)
    }

    fn has_check(&self) -> bool {
        self.validator.plan().check.is_some()
    }

    fn tests_wanted(&self) -> bool {
        self.validator.settings().run_tests && self.validator.has_tests()
    }
}

/// What the model hears of a report's errors that were there before its changes.
fn already_note(report: &Report, already: usize) -> Option<String> {
    let what = if report.kind == Kind::Check { "check" } else { "tests" };
    match already {
        0 => None,
        n if n >= report.error_count() => Some(format!(
            "All of these errors were there before your changes: the {what} fails the same way without them. Your changes add none; leave them unless the issue is about them."
        )),
        n => Some(format!(
            "{n} of these errors were there before your changes (the {what} fails with them without your changes too). Fix the ones your changes caused; leave those unless the issue is about them."
        )),
    }
}

/// Whether a report says the proposal is fine.
fn clean(report: &Report) -> bool {
    report.passed && report.errors() == 0
}

impl Driver {
    /// Starts the check of the workspace as it was, if the run validates.
    pub(super) fn start_validation(&mut self) {
        let overrides = self.buffer_overrides();
        let work = self.work.clone();
        if let Some(checks) = self.checks.as_mut() {
            checks.start_head_start(overrides, &work);
        }
    }

    /// The editor's unsaved buffers, as validation sees them without the run's changes.
    fn buffer_overrides(&self) -> BTreeMap<WorkspacePath, Option<String>> {
        crate::validate::buffer_overrides(&self.spec.root, self.base.open_texts())
    }

    /// Runs one validation, records it, and publishes the new status. `None` when
    /// validation is unavailable or its budget is spent.
    async fn validate(&mut self, round: u32, kind: Kind, filter: Option<String>) -> Option<Report> {
        let checks = self.checks.as_ref()?;
        if checks.unavailable.is_some() || checks.runs >= self.spec.budgets.max_validations {
            return None;
        }
        let validator = checks.validator.clone();
        let what = if kind == Kind::Check { "checking the build" } else { "running the tests" };
        self.status.summary = format!("round {round}: {what}");
        self.publish_status();
        // What validation sees on top of the disk: the editor's unsaved buffers, then the
        // run's staged changes (`None` for a deleted file).
        let staged = self.overlay.changes();
        let nothing_staged = staged.is_empty();
        let mut overrides = self.buffer_overrides();
        overrides.extend(staged.into_iter().map(|change| (change.path, change.new_text)));
        let filter_was_none = filter.is_none();
        let result = validator.run(kind, overrides, filter, &self.work).await;
        let edits = self.edits;
        let checks = self.checks.as_mut()?;
        checks.runs += 1;
        let report = match result {
            Ok(report) => report,
            Err(error) => {
                checks.unavailable = Some(error.to_string());
                self.log(LedgerEvent::Error { message: format!("validation could not run: {error}") });
                return None;
            }
        };
        // A check that cannot run turns validation off; tests that cannot run leave the check.
        if report.not_run.is_some() && kind == Kind::Check {
            checks.unavailable = report.not_run.clone();
        }
        let unknown_before = !checks.before.iter().any(|(known, _)| *known == kind);
        let comparable = !report.inconclusive() && filter_was_none;
        if unknown_before && comparable && nothing_staged {
            // Nothing is staged yet: this is the workspace as it was.
            checks.before.push((kind, Some(report.clone())));
        } else if unknown_before && comparable && !clean(&report) {
            let before = self.validate_before_the_run(round, kind, &report.covered).await;
            let checks = self.checks.as_mut()?;
            // One that could not tell (it timed out, cold) is tried once more, later.
            let tried = checks.tried_before.contains(&kind);
            if before.is_some() || tried {
                checks.before.push((kind, before));
            }
            if !tried {
                checks.tried_before.push(kind);
            }
        } else if comparable && !clean(&report) && checks.before_lacks_a_project_of(&report) {
            // The proposal has since reached a nested project the comparison did not build.
            if let Some(before) = self.validate_before_the_run(round, kind, &report.covered).await {
                let checks = self.checks.as_mut()?;
                checks.before.retain(|(known, _)| *known != kind);
                checks.before.push((kind, Some(before)));
            }
        }
        let checks = self.checks.as_mut()?;
        let preexisting = checks.already(&report);
        let mut report = report;
        if let Some(note) = already_note(&report, preexisting) {
            if !report.summary.ends_with('\n') {
                report.summary.push('\n');
            }
            report.summary.push_str(&note);
        }
        match kind {
            Kind::Check => checks.check = Some((report.clone(), edits)),
            // A filtered run does not speak for the whole suite.
            Kind::Test if filter_was_none => checks.test = Some((report.clone(), edits)),
            Kind::Test => {}
        }
        self.status.validation = Some(checks.status(edits));
        self.log(LedgerEvent::Validation {
            round,
            kind: kind.as_str().to_owned(),
            command: report.command.clone(),
            passed: report.passed,
            errors: report.errors(),
            preexisting,
            warnings: report.warnings(),
            duration_ms: report.duration_ms,
            summary: report.summary.clone(),
        });
        if let Err(error) = self.record.trace(json!({
            "validation": kind.as_str(),
            "round": round,
            "command": report.command,
            "status": report.status,
            "timedOut": report.timed_out,
            "sync": report.sync,
            "output": report.output,
        })) {
            tracing::warn!("{error}");
        }
        self.publish_status();
        self.emit(RunEvent::Validation {
            round,
            step: kind.as_str().to_owned(),
            passed: report.passed,
            errors: report.errors(),
            preexisting,
            warnings: report.warnings(),
        });
        Some(report)
    }

    /// Runs `kind` on the workspace without the proposal (the editor's buffers only), to
    /// learn which errors were there before the run, over the nested projects in `covering`
    /// too (those the proposal's validation covered). `None` when that cannot tell.
    async fn validate_before_the_run(&mut self, round: u32, kind: Kind, covering: &[String]) -> Option<Report> {
        let checks = self.checks.as_mut()?;
        let validator = checks.validator.clone();
        let head_start = if kind == Kind::Check { checks.head_start.take() } else { None };
        let what = if kind == Kind::Check { "checking the build" } else { "running the tests" };
        self.status.summary = format!("round {round}: {what} without the changes, to compare");
        self.publish_status();
        let result = match head_start {
            // Started with the run; it has usually finished by now.
            Some(head_start) => {
                let task = head_start.task;
                tokio::select! {
                    () = self.work.cancelled() => return None,
                    joined = task => joined.map_err(|error| ValidateError::Interrupted(error.to_string())).and_then(|r| r).map(Some),
                }
            }
            None => Ok(None),
        };
        // One that left out a nested project the proposal's check covered cannot tell of it.
        let covers = |report: &Report| covering.iter().all(|folder| report.covered.contains(folder));
        let result = match result {
            Ok(Some(report)) if covers(&report) => Ok(report),
            Err(error) => Err(error),
            // The workspace as the user has it, unsaved buffers of changed files included.
            Ok(_) => validator.run_covering(kind, self.buffer_overrides(), None, &self.work, covering).await,
        };
        let report = match result {
            // One still cut short of a folder cannot tell of it either.
            Ok(report) if covers(&report) && !report.inconclusive() => report,
            Ok(_) => return None,
            Err(error) => {
                tracing::warn!("validation without the changes could not run: {error}");
                return None;
            }
        };
        self.log(LedgerEvent::Baseline {
            round,
            kind: kind.as_str().to_owned(),
            command: report.command.clone(),
            passed: report.passed,
            errors: report.errors(),
            duration_ms: report.duration_ms,
        });
        Some(report)
    }

    /// The check, then the tests when it passes; the account for the model, and the count of
    /// errors the run caused where the last command finished.
    async fn check_and_test(&mut self, round: u32) -> Option<(String, Option<usize>)> {
        let checks = self.checks.as_ref()?;
        let (wants_tests, has_check) = (checks.tests_wanted(), checks.has_check());
        let (mut text, mut count, check_clean) = if has_check {
            let check = self.validate(round, Kind::Check, None).await?;
            if check.not_run.is_some() {
                let text = format!("Validation is not available: {}. Your changes will not be checked.", check.summary);
                return Some((text, None));
            }
            (check.summary.clone(), self.checks.as_ref()?.counted_errors(&check), clean(&check))
        } else {
            (String::new(), Some(0), true)
        };
        if check_clean
            && wants_tests
            && !self.cancel.is_cancelled()
            && let Some(test) = self.validate(round, Kind::Test, None).await
        {
            if !text.is_empty() {
                text.push('\n');
            }
            text.push_str(&test.summary);
            count = self.checks.as_ref()?.counted_errors(&test);
        }
        (!text.is_empty()).then_some((text, count))
    }

    /// After a round that changed files: validate and say what the model should hear,
    /// with a change of strategy when the errors stopped falling.
    pub(super) async fn validate_after_round(&mut self, round: u32) -> Option<String> {
        let checks = self.checks.as_mut()?;
        if checks.unavailable.is_some() {
            return None;
        }
        if checks.runs >= self.spec.budgets.max_validations {
            if checks.said_spent {
                return None;
            }
            checks.said_spent = true;
            return Some(format!(
                "The run's {} validations are used up; your further changes are not checked.",
                self.spec.budgets.max_validations
            ));
        }
        let (text, count) = self.check_and_test(round).await?;
        let mut message = format!("Automatic validation after your changes:\n{text}");
        if let Some(strategy) = count.and_then(|count| self.after_count(round, count)) {
            message.push_str("\n\n");
            message.push_str(&strategy);
        }
        Some(message)
    }

    /// Tracks the error count; when it has not fallen for two rounds, the next strategy.
    fn after_count(&mut self, round: u32, count: usize) -> Option<String> {
        let checks = self.checks.as_mut()?;
        checks.counts.push(count);
        let counts = &checks.counts;
        let n = counts.len();
        let stalled = n >= 3 && count > 0 && counts[n - 1] >= counts[n - 2] && counts[n - 2] >= counts[n - 3];
        if !stalled {
            return None;
        }
        let strategy = STRATEGIES[checks.stalls.min(STRATEGIES.len() - 1)];
        checks.stalls += 1;
        let counts = std::mem::replace(&mut checks.counts, vec![count]);
        let history: Vec<String> = counts.iter().map(ToString::to_string).collect();
        self.log(LedgerEvent::Strategy { round, strategy: strategy.to_owned(), counts: counts.clone() });
        let said = format!("The error count has not fallen for two rounds ({}).", history.join(" -> "));
        Some(match strategy {
            "reflect" => format!(
                "{said} Stop editing for a moment: read the code around the first error again, say in one sentence what causes it, then fix that cause rather than its symptom."
            ),
            "context" => format!(
                "{said} {}; fix the first error from it.\n{}",
                files_shown::FILES_INTRO,
                self.error_files_text()
            ),
            _ => format!(
                "{said} Patching is not converging. Rewrite each file with errors whole with write_file, keeping what works and fixing the errors listed above."
            ),
        })
    }

    /// The current text of the first files with errors, numbered, for the `context` strategy:
    /// a short file whole, a long one around its errors.
    fn error_files_text(&self) -> String {
        let Some(checks) = &self.checks else { return String::new() };
        let mut files: Vec<(WorkspacePath, Vec<usize>)> = Vec::new();
        for (report, _) in [&checks.check, &checks.test].into_iter().flatten() {
            for problem in report.problems.iter().filter(|p| p.severity == Severity::Error) {
                if let Some(place) = &problem.place {
                    let line = place.start.line as usize;
                    match files.iter_mut().find(|(path, _)| *path == place.path) {
                        Some((_, lines)) => lines.push(line),
                        None => files.push((place.path.clone(), vec![line])),
                    }
                }
            }
        }
        let mut out = String::new();
        for (path, lines) in files.iter().filter(|(path, _)| !crate::tools::names_secrets(&self.overlay, path)).take(2)
        {
            let Some(text) = self.overlay.peek(path) else { continue };
            // By its real path (the checker may name it through a link): the one a write takes.
            out.push_str(&files_shown::shown_file(self.overlay.file_behind(path).as_str(), &text, lines));
        }
        out
    }

    /// At the model's final answer: validates what is not yet validated; when the proposal
    /// fails, sends the model back once with the errors.
    pub(super) async fn validate_before_finishing(&mut self, round: u32) -> Option<String> {
        let edits = self.edits;
        let checks = self.checks.as_ref()?;
        // A run that changed nothing proposes nothing to validate.
        if checks.unavailable.is_some() || edits == 0 {
            return None;
        }
        let no_check = !checks.has_check();
        let check_current = no_check || checks.check.as_ref().is_some_and(|(_, seen)| *seen == edits);
        let test_current = checks.test.as_ref().is_some_and(|(_, seen)| *seen == edits);
        let check_clean = no_check || checks.check.as_ref().is_some_and(|(report, _)| clean(report));
        let needs_tests = checks.tests_wanted() && !test_current;
        let summary = if !check_current || (check_clean && needs_tests) {
            self.check_and_test(round).await?.0
        } else {
            let failing = [&checks.check, &checks.test]
                .into_iter()
                .flatten()
                .find(|(report, _)| checks.new_errors(report) > 0)
                .map(|(report, _)| report.summary.clone());
            failing.unwrap_or_default()
        };
        let checks = self.checks.as_mut()?;
        let failing = [&checks.check, &checks.test]
            .into_iter()
            .flatten()
            .any(|(report, seen)| *seen == edits && checks.new_errors(report) > 0);
        // With no round left the answer stands (with its failing verdict) rather than ending
        // the run as out of rounds.
        let no_round_left = self.status.rounds >= self.spec.budgets.max_rounds;
        if !failing
            || checks.nudges >= self.spec.budgets.max_final_nudges
            || self.cancel.is_cancelled()
            || no_round_left
        {
            return None;
        }
        checks.nudges += 1;
        Some(format!(
            "Before you finish: the proposal does not pass validation.\n{summary}\nFix these problems; if they cannot be fixed within this issue, say why in your final answer."
        ))
    }

    /// `run_check {}` and `run_tests {filter?}` asked for by the model.
    pub(super) async fn run_validation_tool(&mut self, round: u32, call: &ToolCall) -> (bool, String) {
        let kind = if call.name == "run_check" { Kind::Check } else { Kind::Test };
        let filter = match kind {
            Kind::Check => None,
            Kind::Test => match serde_json::from_value::<RunTestsArgs>(call.arguments.clone()) {
                Ok(args) => args.filter,
                Err(error) => return (false, format!("invalid arguments: {error}")),
            },
        };
        if let Some(filter) = &filter
            && let Err(error) = check_filter(filter)
        {
            return (false, error.to_string());
        }
        let unavailable = self.checks.as_ref().and_then(|checks| checks.unavailable.clone());
        if let Some(reason) = unavailable {
            return (false, format!("validation is not available: {reason}"));
        }
        match self.validate(round, kind, filter).await {
            Some(report) if report.not_run.is_some() => (false, report.summary),
            Some(report) => (true, report.summary),
            None => {
                (false, format!("not run: the run's {} validations are used up", self.spec.budgets.max_validations))
            }
        }
    }

    /// The outcome's validation of the final changes.
    pub(super) fn final_validation(&self) -> Option<Arc<FinalValidation>> {
        self.checks.as_ref()?.final_validation(self.edits).map(Arc::new)
    }
}
