//! The driver: a deterministic loop around a stochastic model.
//!
//! It asks the model for a turn, runs the turn's tool calls in order against the overlay,
//! records everything in the ledger, and stops at the model's final turn, a budget, an
//! error or a cancel. A failing tool call is recorded and answered; the run goes on.

use std::collections::HashMap;
use std::sync::Arc;

use tokio::sync::{mpsc, watch};
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;

use super::compact;
use super::prompt;
use super::run::{RunEvent, RunOutcome, RunSnapshot, RunSpec, RunState, RunStatus};
use super::validation::Checks;
use crate::context::{self, ContextPack};
use crate::llm::{self, AssistantTurn, ChatModel, ChatRequest, Message, ModelInfo, StopReason, ToolCall, TraceSink};
use crate::session::RunId;
use crate::session::{LedgerEvent, RunRecord};
use crate::tools::{READING_TOOLS, Seen, Toolset, VALIDATION_TOOLS};
use crate::workspace::{BaseSource, FileChange, Overlay, WorkspacePath, patch};

/// How a loop ended, before the outcome is recorded.
enum Ending {
    Done(String),
    Failed(String),
    Cancelled,
}

pub(super) struct Driver {
    pub(super) id: RunId,
    pub(super) spec: RunSpec,
    pub(super) overlay: Overlay,
    /// What the model has been shown of each file, so a whole-file write cannot drop the rest.
    pub(super) seen: Seen,
    /// Where the overlay's base texts come from (for the unsaved buffers validation sees).
    pub(super) base: Arc<dyn BaseSource>,
    /// Validation, when the project has a check or tests.
    pub(super) checks: Option<Checks>,
    /// Tool calls that changed the overlay so far; a validation describes the proposal
    /// only while this has not moved since.
    pub(super) edits: u64,
    pub(super) record: Arc<RunRecord>,
    pub(super) events: Option<mpsc::UnboundedSender<RunEvent>>,
    pub(super) publish: watch::Sender<RunSnapshot>,
    pub(super) cancel: CancellationToken,
    /// Cancelled with the run and at its wall-clock deadline: stops a check or test run that
    /// would outlast the run's time.
    pub(super) work: CancellationToken,
    pub(super) status: RunStatus,
    /// The staged changes as of the last tool call that changed them: what the run's record
    /// keeps if the driver fails inside (a panic), when the overlay is gone with it.
    pub(super) staged: Arc<std::sync::Mutex<Vec<FileChange>>>,
}

impl Driver {
    /// Runs to the end and publishes the outcome.
    pub(super) async fn run(mut self) {
        self.emit(RunEvent::Started { title: self.spec.issue.title.clone() });
        let trace: Arc<dyn TraceSink> = Arc::new(RecordTrace(self.record.clone()));
        let connected = llm::connect(&self.spec.provider, trace);
        let model_name = match &connected {
            Ok(connected) => connected.model.describe(),
            Err(_) => format!("{}:{}", self.spec.provider.kind.as_str(), self.spec.provider.model),
        };
        self.log(LedgerEvent::RunStarted {
            title: self.spec.issue.title.clone(),
            issue: self.spec.issue.text.clone(),
            model: model_name,
        });
        let ending = match connected {
            Ok(connected) => {
                self.start_validation();
                self.drive(connected.model.as_ref(), connected.info).await
            }
            Err(error) => Ending::Failed(error.to_string()),
        };
        self.finish(ending);
    }

    async fn drive(&mut self, model: &dyn ChatModel, info: ModelInfo) -> Ending {
        let validating = self.checks.is_some();
        let tools = if validating { Toolset::with_validation() } else { Toolset::standard() };
        let specs = tools.specs();
        let specs_tokens = crate::context::estimate_tokens(&serde_json::to_string(&specs).unwrap_or_default());
        let mut room = compact::room(info.context_window, info.max_output, specs_tokens);
        let pack = self.context_pack(info).await;
        if self.cancel.is_cancelled() {
            return Ending::Cancelled;
        }
        self.emit(RunEvent::Context {
            full_files: pack.as_ref().map(|pack| pack.full_files.clone()).unwrap_or_default(),
            part_files: pack.as_ref().map(|pack| pack.part_files.clone()).unwrap_or_default(),
            mapped_files: pack
                .as_ref()
                .map_or(0, |pack| pack.mapped_files.iter().filter(|file| !pack.part_files.contains(file)).count()),
            tokens: pack.as_ref().map_or(0, |pack| pack.tokens),
            indexed: self.spec.index.is_some(),
        });
        let user = prompt::first_message(&self.spec.issue.text, pack.as_ref(), compact::issue_budget(room));
        let system = prompt::system(validating);
        self.log(LedgerEvent::Prompt { system: system.clone(), user: user.clone() });
        let mut messages = vec![Message::System(system), Message::User(user)];
        let budgets = self.spec.budgets;
        let deadline = Instant::now() + budgets.wall_clock;
        let at_deadline = self.work.clone();
        let _deadline_timer = AbortOnDrop(tokio::spawn(async move {
            tokio::time::sleep_until(deadline).await;
            at_deadline.cancel();
        }));
        let mut repeats = Repeats::default();
        let mut protocol_errors = 0;
        // Tokens sent and received: as the provider reports them, else as estimated.
        let mut spent: u64 = 0;
        let mut invalid_turns = 0;
        // Every tool call id the conversation holds: one a provider or the text protocol made
        // up (`call_1`) comes again in a later turn, and providers refuse a request that
        // holds an id twice.
        let mut call_ids: std::collections::HashSet<String> = std::collections::HashSet::new();

        let out_of_time =
            || Ending::Failed(format!("stopped after {:?} of wall-clock time (wall_clock budget)", budgets.wall_clock));
        loop {
            if Instant::now() >= deadline {
                return out_of_time();
            }
            // The next request sends the whole conversation: a run that has spent some of its
            // budget stops before a request would take it past.
            let next_request = (compact::conversation_tokens(&messages) as u64).saturating_add(spent);
            if spent >= budgets.max_tokens || (spent > 0 && next_request > budgets.max_tokens) {
                return Ending::Failed(format!(
                    "stopped after {spent} tokens sent and received, the next request needing about {} more (max_tokens {}); the proposal holds the changes so far",
                    next_request - spent,
                    budgets.max_tokens
                ));
            }
            if self.status.rounds >= budgets.max_rounds {
                return Ending::Failed(format!(
                    "stopped after {} rounds without a final answer (max_rounds); the proposal holds the changes so far",
                    budgets.max_rounds
                ));
            }
            self.status.rounds += 1;
            let round = self.status.rounds;
            self.status.summary = format!("round {round}: waiting for the model");
            self.publish_status();
            self.emit(RunEvent::Round { round });

            let compaction = compact::compact(&mut messages, room);
            if compaction.elided > 0 {
                tracing::info!(run = %self.id, elided = compaction.elided, "older tool output elided to fit the context window");
            }
            self.forget(&compaction, &messages);
            let mut turn: AssistantTurn = loop {
                let request = ChatRequest { messages: &messages, tools: &specs };
                let answer = tokio::select! {
                    biased;
                    () = self.cancel.cancelled() => return Ending::Cancelled,
                    () = tokio::time::sleep_until(deadline) => return out_of_time(),
                    answer = model.complete(request) => answer,
                };
                match answer {
                    Ok(turn) => break turn,
                    Err(error) if error.is_context_overflow() => {
                        // The text took more tokens than estimated: the room shrinks for the rest of
                        // the run, and the same turn is asked for again while that frees something.
                        let smaller = compact::room_after_overflow(&messages, room);
                        let compaction = compact::compact(&mut messages, smaller);
                        self.forget(&compaction, &messages);
                        let elided = compaction.elided;
                        if elided == 0 {
                            return Ending::Failed(format!(
                                "{error} (older tool output is elided as the conversation grows; this model's window is too small for what is left)"
                            ));
                        }
                        tracing::info!(run = %self.id, elided, room = smaller, "the provider's window was full: older tool output elided");
                        room = smaller;
                    }
                    Err(error) => return Ending::Failed(error.to_string()),
                }
            };
            spent += match turn.usage {
                Some(usage) => usage.input_tokens + usage.output_tokens,
                None => (compact::conversation_tokens(&messages) + compact::answer_tokens(&turn)) as u64,
            };
            if let Some(usage) = turn.usage {
                self.status.usage += usage;
            }
            self.status.parse_repairs += turn.repairs;
            self.log(LedgerEvent::ModelTurn {
                round,
                content: turn.content.clone(),
                tool_calls: turn.tool_calls.len(),
                stop: turn.stop,
                usage: turn.usage,
                protocol_error: turn.protocol_error.clone(),
            });
            for call in &mut turn.tool_calls {
                let mut unique = call.id.clone();
                let mut again = 1;
                while !call_ids.insert(unique.clone()) {
                    unique = format!("{}_{round}_{again}", call.id);
                    again += 1;
                }
                call.id = unique;
            }
            messages.push(Message::Assistant(turn.clone()));

            if let Some(problem) = &turn.protocol_error {
                protocol_errors += 1;
                if protocol_errors >= budgets.max_protocol_errors {
                    return Ending::Failed(format!(
                        "the model's answers could not be read {protocol_errors} times in a row: {problem}"
                    ));
                }
                messages.push(Message::User(format!(
                    "Your answer could not be read: {problem}. Answer with exactly one JSON object as described."
                )));
                continue;
            }
            protocol_errors = 0;
            // A refusal ends the run, and the calls it cut off are not run (a content
            // filter stops an answer midway through its calls).
            if turn.stop == StopReason::Refused {
                let said = turn.content.unwrap_or_default();
                let said = said.trim();
                return Ending::Failed(if said.is_empty() {
                    "the model declined to continue, and gave no reason (the provider stopped the answer as a refusal)"
                        .to_owned()
                } else {
                    format!("the model declined to continue: {said}")
                });
            }
            if turn.tool_calls.is_empty() {
                match turn.stop {
                    StopReason::Paused => continue,
                    StopReason::MaxTokens => {
                        messages.push(Message::User(
                            "Your answer was cut off by the output limit. Continue, in smaller steps.".into(),
                        ));
                        continue;
                    }
                    StopReason::EndTurn | StopReason::ToolUse | StopReason::Refused => {}
                }
                if let Some(nudge) = self.validate_before_finishing(round).await {
                    if self.cancel.is_cancelled() {
                        return Ending::Cancelled;
                    }
                    messages.push(Message::User(compact::fit_result(&nudge, room, usize::MAX)));
                    continue;
                }
                if self.cancel.is_cancelled() {
                    return Ending::Cancelled;
                }
                let summary = turn.content.unwrap_or_default().trim().to_owned();
                return Ending::Done(if summary.is_empty() {
                    "The model finished without a summary.".into()
                } else {
                    summary
                });
            }

            let edits_before = self.edits;
            let violations_before = self.status.schema_violations;
            let mut turn_left = compact::turn_budget(room);
            let mut in_this_turn: Vec<(String, String)> = Vec::new();
            let mut edits_in_turn = self.edits;
            repeats.next_turn();
            for (position, call) in turn.tool_calls.iter().enumerate() {
                if self.cancel.is_cancelled() {
                    return Ending::Cancelled;
                }
                // The same call twice in one turn (models send duplicates side by side) is
                // answered by the first; only calls repeated turn after turn count as a loop.
                let key = Repeats::key(call);
                let duplicate = in_this_turn.iter().position(|earlier| *earlier == key);
                if duplicate.is_none() {
                    in_this_turn.push(key.clone());
                    if repeats.observe(&key) >= budgets.max_identical_calls {
                        return Ending::Failed(format!(
                            "stopped: the model made the same `{}` call {} times in a row",
                            call.name, budgets.max_identical_calls
                        ));
                    }
                }
                let (ok, output) = if let Some(first) = duplicate {
                    self.refuse_duplicate(round, call, first + 1)
                } else if position >= budgets.max_tool_calls_per_round as usize {
                    self.refuse_extra(round, call)
                } else if compact::turn_spent(turn_left) && READING_TOOLS.contains(&call.name.as_str()) {
                    self.refuse_spent(round, call)
                } else if VALIDATION_TOOLS.contains(&call.name.as_str()) && validating {
                    self.execute_validation(round, call, tools).await
                } else {
                    self.execute(round, call, tools, compact::read_budget(room, turn_left))
                };
                if self.cancel.is_cancelled() {
                    return Ending::Cancelled;
                }
                // After a change, the same read reads something else.
                if self.edits != edits_in_turn {
                    edits_in_turn = self.edits;
                    in_this_turn.clear();
                    repeats.changed_by(&key);
                }
                if !ok
                    && duplicate.is_none()
                    && !VALIDATION_TOOLS.contains(&call.name.as_str())
                    && repeats.failed(key, &output) >= budgets.max_identical_calls
                {
                    let said = output.lines().next().unwrap_or_default();
                    return Ending::Failed(format!(
                        "stopped: the model made the same failing `{}` call {} times, with other calls between, and got the same error each time: {said}",
                        call.name, budgets.max_identical_calls
                    ));
                }
                let content = compact::fit_result(&output, room, turn_left);
                turn_left = turn_left.saturating_sub(crate::workspace::text_measure(&content));
                messages.push(Message::ToolResult {
                    call_id: call.id.clone(),
                    name: call.name.clone(),
                    content,
                    is_error: !ok,
                });
            }
            if self.status.schema_violations > violations_before {
                invalid_turns += 1;
                if invalid_turns >= budgets.max_invalid_turns {
                    return Ending::Failed(format!(
                        "stopped: in {invalid_turns} turns tool calls did not match their schemas (max_invalid_turns); the proposal holds the changes so far"
                    ));
                }
            }
            if self.edits != edits_before
                && let Some(message) = self.validate_after_round(round).await
            {
                if self.cancel.is_cancelled() {
                    return Ending::Cancelled;
                }
                let message = compact::fit_result(&message, room, usize::MAX);
                // The lines of files the message shows, as far as it still holds them once
                // cut to fit, count as seen (compaction forgets them when it elides it).
                for (path, lines) in super::files_shown::files_in(&message) {
                    self.seen.saw_lines(path, lines);
                }
                messages.push(Message::User(message));
            }
        }
    }

    /// What the model saw of files whose reads and writes compaction took out of the
    /// conversation is no longer what it has: writing them whole needs them read again.
    fn forget(&mut self, compaction: &compact::Compaction, messages: &[Message]) {
        for path in &compaction.out_of_sight {
            self.seen.forget(path);
            // What later reads (or a whole write) still in the conversation show stays seen.
            let (lines, written_whole) = compact::still_shown(messages, path);
            if written_whole {
                self.seen.saw_whole(path);
            }
            self.seen.saw_lines(path, lines);
        }
    }

    /// Answers a call identical to the `first`-th of the same turn without running it again.
    fn refuse_duplicate(&mut self, round: u32, call: &ToolCall, first: usize) -> (bool, String) {
        let output = format!("not run: the same call as call {first} of this turn, whose result is above");
        self.answer_unrun(round, call, output)
    }

    /// Answers a call beyond the per-turn limit without running it.
    fn refuse_extra(&mut self, round: u32, call: &ToolCall) -> (bool, String) {
        let output = format!(
            "not run: at most {} tool calls are carried out per turn; repeat it in the next turn if still needed",
            self.spec.budgets.max_tool_calls_per_round
        );
        self.answer_unrun(round, call, output)
    }

    /// Answers a reading call once the turn's results have taken what a turn may, without
    /// running it: its output would only push older output out of the window.
    fn refuse_spent(&mut self, round: u32, call: &ToolCall) -> (bool, String) {
        let output = "not run: this turn's results already take what one turn may of the model's context; \
                      make this call again in the next turn if still needed";
        self.answer_unrun(round, call, output.to_owned())
    }

    /// Records `output` as the failed result of `call`, which was not run.
    fn answer_unrun(&mut self, round: u32, call: &ToolCall, output: String) -> (bool, String) {
        self.log(LedgerEvent::ToolResult {
            round,
            id: call.id.clone(),
            name: call.name.clone(),
            ok: false,
            output: output.clone(),
        });
        (false, output)
    }

    /// `run_check` / `run_tests`: schema-checked like every call, then run by the driver.
    async fn execute_validation(&mut self, round: u32, call: &ToolCall, tools: &Toolset) -> (bool, String) {
        self.log(LedgerEvent::ToolCall {
            round,
            id: call.id.clone(),
            name: call.name.clone(),
            arguments: call.arguments.clone(),
        });
        self.status.tool_calls += 1;
        let (ok, output) = match tools.validate(&call.name, &call.arguments) {
            Err(message) => {
                self.status.schema_violations += 1;
                (false, message)
            }
            Ok(()) => self.run_validation_tool(round, call).await,
        };
        if !ok {
            self.status.failed_tool_calls += 1;
        }
        self.log(LedgerEvent::ToolResult {
            round,
            id: call.id.clone(),
            name: call.name.clone(),
            ok,
            output: output.clone(),
        });
        let first_line = output.lines().next().unwrap_or_default().to_owned();
        self.emit(RunEvent::ToolCall { round, name: call.name.clone(), path: None, ok, message: first_line });
        (ok, output)
    }

    fn execute(&mut self, round: u32, call: &ToolCall, tools: &Toolset, read_budget: usize) -> (bool, String) {
        self.log(LedgerEvent::ToolCall {
            round,
            id: call.id.clone(),
            name: call.name.clone(),
            arguments: call.arguments.clone(),
        });
        if self.spec.index.is_none()
            && let Some(later) = &self.spec.index_later
        {
            self.spec.index = later.snapshot();
        }
        let (overlay, seen, index) = (&mut self.overlay, &mut self.seen, self.spec.index.as_deref());
        // A search of a large tree takes a while: the other tasks of the runtime move on meanwhile.
        let outcome = off_the_async_workers(|| tools.execute_within(overlay, index, seen, call, read_budget));
        self.status.tool_calls += 1;
        if outcome.changed {
            // Only a call that changes what the proposal holds is an edit (and is validated): not
            // an empty folder made, nor a file written as it already was.
            let changes = self.overlay.changes();
            let mut staged = self.staged.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
            if *staged != changes {
                self.edits += 1;
                *staged = changes;
            }
        }
        if !outcome.ok {
            self.status.failed_tool_calls += 1;
        }
        if outcome.invalid_arguments {
            self.status.schema_violations += 1;
        }
        self.log(LedgerEvent::ToolResult {
            round,
            id: call.id.clone(),
            name: call.name.clone(),
            ok: outcome.ok,
            output: outcome.output.clone(),
        });
        let path = call.arguments.get("path").and_then(|p| p.as_str()).map(str::to_owned);
        let first_line = outcome.output.lines().next().unwrap_or_default().to_owned();
        self.status.summary = format!("round {round}: {} {}", call.name, path.as_deref().unwrap_or(""));
        self.publish_status();
        self.emit(RunEvent::ToolCall { round, name: call.name.clone(), path, ok: outcome.ok, message: first_line });
        (outcome.ok, outcome.output)
    }

    /// Ranks the workspace for the issue and packs the best of it for the first message,
    /// within a budget of the model's context window. Ranking a large tree takes a while of
    /// one core: it runs off the async workers, on the workspace as the run found it.
    async fn context_pack(&mut self, info: ModelInfo) -> Option<ContextPack> {
        let index = self.spec.index.clone()?;
        let text = self.spec.issue.text.clone();
        // Each file is read once, and what the pack shows of it stays the text its changes
        // are judged against, however the user edits it before the model names it.
        let workspace = std::sync::Mutex::new(self.overlay.unstaged());
        // A cancel ends the run at once, not once the workspace is ranked (seconds in a
        // large one): the ranking is left to finish unheeded.
        let ranking = tokio::task::spawn_blocking(move || {
            // The issue is analysed once, for the ranking and for the pack's map.
            let query = context::issue_reading::analyze_in(&index, &text);
            let read = |path: &str| {
                let path = WorkspacePath::parse(path).ok()?;
                let mut workspace = workspace.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
                workspace.current_text(&path).ok().flatten()
            };
            let first = super::first_context(&index, &query, &text, info, read);
            let seen = Seen::of_pack(&first.pack, read);
            (first.pack, seen, workspace.into_inner().unwrap_or_else(|poisoned| poisoned.into_inner()))
        });
        let ranked = tokio::select! {
            biased;
            () = self.cancel.cancelled() => return None,
            ranked = ranking => ranked,
        };
        let pack = match ranked {
            Ok((pack, seen, workspace)) => {
                self.seen = seen;
                let shown: Vec<WorkspacePath> = (pack.full_files.iter().chain(&pack.part_files))
                    .filter_map(|path| WorkspacePath::parse(path).ok())
                    .collect();
                self.overlay.adopt_bases(workspace, &shown);
                pack
            }
            Err(error) => {
                // The run goes on without a pack: the model can still read and search.
                tracing::error!("ranking the workspace for the first prompt failed: {error}");
                return None;
            }
        };
        self.log(LedgerEvent::ContextPack {
            full_files: pack.full_files.clone(),
            part_files: pack.part_files.clone(),
            mapped_files: pack.mapped_files.clone(),
            tokens: pack.tokens,
        });
        Some(pack)
    }

    fn finish(mut self, ending: Ending) {
        match ending {
            Ending::Done(summary) => {
                self.status.state = RunState::Ready;
                self.status.summary = summary;
            }
            Ending::Failed(error) => {
                self.log(LedgerEvent::Error { message: error.clone() });
                self.status.fail(error);
            }
            Ending::Cancelled => {
                self.status.state = RunState::Cancelled;
                self.status.summary = "The run was cancelled.".to_owned();
            }
        }
        let state = self.status.state;

        let validation = self.final_validation();
        if let Some(checks) = &self.checks {
            self.status.validation = Some(checks.status(self.edits));
        }
        let outcome = RunOutcome {
            changes: self.overlay.changes(),
            empty_dirs: self.overlay.empty_made_dirs(),
            validation: validation.clone(),
        };
        self.log(LedgerEvent::RunFinished {
            state: state.as_str().to_owned(),
            rounds: self.status.rounds,
            tool_calls: self.status.tool_calls,
            usage: self.status.usage,
            summary: self.status.summary.clone(),
            error: self.status.error.clone(),
            files: outcome.changes.iter().map(|c| (c.path.to_string(), c.kind())).collect(),
        });
        let stored = self.status.stored(
            self.id.clone(),
            self.spec.issue.title.clone(),
            outcome.changes.clone(),
            validation.as_deref().and_then(|v| serde_json::to_value(v).ok()),
        );
        if let Err(error) = self.record.write_proposal(&stored, &patch(&outcome.changes, self.spec.root.path())) {
            tracing::error!(run = %self.id, "{error}");
        }
        let files = outcome.changes.len();
        self.publish.send_replace(RunSnapshot { status: self.status.clone(), outcome: Some(Arc::new(outcome)) });
        self.emit(RunEvent::Finished { status: self.status.clone(), files });
    }

    pub(super) fn publish_status(&self) {
        self.publish.send_modify(|snapshot| snapshot.status = self.status.clone());
    }

    pub(super) fn emit(&self, event: RunEvent) {
        if let Some(events) = &self.events {
            // A face that stopped listening does not stop the run.
            let _ = events.send(event);
        }
    }

    pub(super) fn log(&self, event: LedgerEvent) {
        if let Err(error) = self.record.append(event) {
            tracing::error!(run = %self.id, "{error}");
        }
    }
}

/// Writes provider traffic to the run's `trace.jsonl`.
struct RecordTrace(Arc<RunRecord>);

impl TraceSink for RecordTrace {
    fn record(&self, entry: serde_json::Value) {
        if let Err(error) = self.0.trace(entry) {
            tracing::warn!("{error}");
        }
    }
}

/// Calls the model repeats: the same call turn after turn, and the same failing call with
/// the same error, whatever came between (read, patch the same wrong text, read again).
#[derive(Default)]
struct Repeats {
    /// Each call of the turns before this one, in a row, with how many of them made it: a
    /// call a turn leaves out starts again from one.
    earlier: HashMap<(String, String), u32>,
    /// The same, counting this turn, for the calls it has made so far.
    this_turn: HashMap<(String, String), u32>,
    failures: HashMap<(String, String), (String, u32)>,
}

impl Repeats {
    /// A call as repeats know it: its tool and its arguments.
    fn key(call: &ToolCall) -> (String, String) {
        (call.name.clone(), call.arguments.to_string())
    }

    /// A new turn begins: the calls the last one made are those it goes on from.
    fn next_turn(&mut self) {
        self.earlier = std::mem::take(&mut self.this_turn);
    }

    /// In how many turns in a row the call known as `key` has now been made: a model that
    /// sends the same two reads turn after turn loops as surely as one that sends one.
    fn observe(&mut self, key: &(String, String)) -> u32 {
        let count = self.earlier.get(key).copied().unwrap_or(0) + 1;
        self.this_turn.insert(key.clone(), count);
        count
    }

    /// The call known as `key` changed a file: the same reads read something else now, so
    /// only that call itself (the same write again) goes on counting.
    fn changed_by(&mut self, key: &(String, String)) {
        let own = self.this_turn.get(key).copied();
        self.earlier.clear();
        self.this_turn.clear();
        if let Some(own) = own {
            self.this_turn.insert(key.clone(), own);
        }
    }

    /// How many times the call known as `key` has now failed with `output`, with other calls
    /// between.
    fn failed(&mut self, key: (String, String), output: &str) -> u32 {
        let entry = self.failures.entry(key).or_insert_with(|| (output.to_owned(), 0));
        if entry.0 != output {
            *entry = (output.to_owned(), 0);
        }
        entry.1 += 1;
        entry.1
    }
}

/// Aborts a background task when dropped (the run's deadline timer when the run ends).
struct AbortOnDrop(tokio::task::JoinHandle<()>);

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// Runs `work`, which blocks a while (reading or searching many files), so that the runtime's
/// other tasks go on meanwhile: on a multi-threaded runtime (the server's and the CLI's) its
/// worker hands them over first; on a single thread (as in tests) it simply runs.
fn off_the_async_workers<T>(work: impl FnOnce() -> T) -> T {
    match tokio::runtime::Handle::try_current().map(|runtime| runtime.runtime_flavor()) {
        Ok(tokio::runtime::RuntimeFlavor::MultiThread) => tokio::task::block_in_place(work),
        _ => work(),
    }
}
