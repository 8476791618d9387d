//! Driver behaviour with recorded turns on a scratch repository.

use std::sync::Arc;
use std::time::Duration;

use super::*;
use crate::issues::{Issue, IssueSource};
use crate::session::{LedgerEvent, read_ledger};
use crate::workspace::{ChangeKind, DiskBase, Root};

struct Scratch {
    dir: tempfile::TempDir,
}

impl Scratch {
    fn new(files: &[(&str, &str)]) -> Self {
        let dir = crate::testing::tree(files);
        Self { dir }
    }

    fn spec(&self, replay: &str, budgets: Budgets) -> RunSpec {
        let path = self.dir.path().join("replay.jsonl");
        std::fs::write(&path, replay).unwrap();
        RunSpec {
            root: Root::new(self.dir.path()).unwrap(),
            issue: Issue { title: "Fix it".into(), text: "# Fix it\n".into(), source: IssueSource::Text },
            provider: crate::config::Config::resolve(
                [crate::config::ConfigLayer::from_toml(&format!("[provider]\nreplay = {path:?}\n"), "test").unwrap()],
                self.dir.path(),
            )
            .unwrap()
            .provider,
            budgets,
            index: None,
            index_later: None,
            validator: None,
        }
    }

    async fn run(&self, replay: &str, budgets: Budgets) -> (RunHandle, RunSnapshot) {
        let handle = start(self.spec(replay, budgets), Arc::new(DiskBase), None).unwrap();
        let snapshot = handle.finished().await;
        (handle, snapshot)
    }

    fn ledger(&self, handle: &RunHandle) -> Vec<LedgerEvent> {
        read_ledger(self.dir.path(), handle.id()).unwrap().into_iter().map(|line| line.event).collect()
    }
}

const PATCH_AND_FINISH: &str = concat!(
    r#"{"content":"Fixing.","tool_calls":[{"id":"1","name":"patch_file","arguments":{"path":"a.txt","old_text":"x","new_text":"y"}},{"id":"2","name":"patch_file","arguments":{"path":"a.txt","old_text":"same","new_text":"z"}}]}"#,
    "\n",
    r#"{"content":"Done: x is now y."}"#,
    "\n"
);

#[tokio::test]
async fn a_replayed_run_stages_its_changes_and_records_everything() {
    let scratch = Scratch::new(&[("a.txt", "x\nsame\nsame\n")]);
    let (handle, snapshot) = scratch.run(PATCH_AND_FINISH, Budgets::default()).await;
    let status = &snapshot.status;
    assert_eq!(status.state, RunState::Ready);
    assert_eq!((status.rounds, status.tool_calls, status.failed_tool_calls), (2, 2, 1));
    assert_eq!(status.summary, "Done: x is now y.");

    let outcome = snapshot.outcome.unwrap();
    assert_eq!(outcome.changes.len(), 1);
    assert_eq!(outcome.changes[0].kind(), ChangeKind::Modified);
    assert_eq!(outcome.changes[0].new_text.as_deref(), Some("y\nsame\nsame\n"));
    assert_eq!(std::fs::read_to_string(scratch.dir.path().join("a.txt")).unwrap(), "x\nsame\nsame\n");

    let ledger = scratch.ledger(&handle);
    assert!(matches!(ledger[0], LedgerEvent::RunStarted { .. }));
    let failed = ledger.iter().find_map(|event| match event {
        LedgerEvent::ToolResult { ok: false, output, .. } => Some(output.clone()),
        _ => None,
    });
    assert!(failed.unwrap().contains("occurs 2 times"));
    assert!(matches!(ledger.last(), Some(LedgerEvent::RunFinished { state, .. }) if state == "ready"));
    let dir = crate::session::run_dir(scratch.dir.path(), handle.id());
    assert!(std::fs::read_to_string(dir.join("diff.patch")).unwrap().contains("-x\n+y\n"));
}

#[tokio::test]
async fn running_out_of_turns_fails_with_the_reason() {
    let scratch = Scratch::new(&[("a.txt", "x\n")]);
    let one_turn = r#"{"tool_calls":[{"name":"read_file","arguments":{"path":"a.txt"}}]}"#;
    let (_, snapshot) = scratch.run(one_turn, Budgets::default()).await;
    assert_eq!(snapshot.status.state, RunState::Failed);
    assert!(snapshot.status.error.unwrap().contains("ran out after 1 turns"));
}

#[tokio::test]
async fn a_bad_replay_file_fails_the_run_and_keeps_the_record() {
    let scratch = Scratch::new(&[]);
    let (handle, snapshot) = scratch.run("{oops\n", Budgets::default()).await;
    assert_eq!(snapshot.status.state, RunState::Failed);
    assert!(snapshot.status.error.unwrap().contains("line 1"));
    assert!(matches!(scratch.ledger(&handle).last(), Some(LedgerEvent::RunFinished { .. })));
}

#[tokio::test]
async fn rounds_are_bounded() {
    let scratch = Scratch::new(&[("a.txt", "x\n")]);
    let turn = |n: u32| {
        format!(r#"{{"tool_calls":[{{"name":"read_file","arguments":{{"path":"a.txt","start_line":{n}}}}}]}}"#)
    };
    let replay: String = (1..=5).map(|n| turn(n % 2 + 1) + "\n").collect();
    let budgets = Budgets { max_rounds: 3, ..Budgets::default() };
    let (_, snapshot) = scratch.run(&replay, budgets).await;
    assert_eq!(snapshot.status.state, RunState::Failed);
    assert_eq!(snapshot.status.rounds, 3);
    assert!(snapshot.status.error.unwrap().contains("max_rounds"));
}

#[tokio::test]
async fn the_token_budget_stops_a_run_that_keeps_reading() {
    let big: String = (0..200).map(|k| format!("line {k} of a long file about nothing\n")).collect();
    let scratch = Scratch::new(&[("a.txt", &big)]);
    let turn = |n: u32| {
        format!(r#"{{"tool_calls":[{{"name":"read_file","arguments":{{"path":"a.txt","start_line":{n}}}}}]}}"#)
    };
    let replay: String = (1..=20).map(|n| turn(n) + "\n").collect();
    let (handle, snapshot) = scratch.run(&replay, Budgets { max_tokens: 20_000, ..Budgets::default() }).await;
    assert_eq!(snapshot.status.state, RunState::Failed);
    let error = snapshot.status.error.unwrap();
    assert!(error.contains("(max_tokens 20000)"), "{error}");
    let spent: u64 =
        error.strip_prefix("stopped after ").and_then(|rest| rest.split(' ').next()).unwrap().parse().unwrap();
    assert!(spent <= 20_000, "stopped before a request took it past the budget: {error}");
    assert!(snapshot.status.rounds < 20, "stopped before the replay ran out: {} rounds", snapshot.status.rounds);
    assert!(
        matches!(scratch.ledger(&handle).last(), Some(LedgerEvent::RunFinished { state, .. }) if state == "failed")
    );
}

#[tokio::test]
async fn calls_that_keep_missing_their_schemas_stop_the_run() {
    let scratch = Scratch::new(&[("a.txt", "x\n")]);
    let turn = |n: u32| format!(r#"{{"tool_calls":[{{"name":"read_file","arguments":{{"file":"a{n}.txt"}}}}]}}"#);
    let replay: String = (1..=8).map(|n| turn(n) + "\n").collect();
    let budgets = Budgets { max_invalid_turns: 4, ..Budgets::default() };
    let (_, snapshot) = scratch.run(&replay, budgets).await;
    assert_eq!(snapshot.status.state, RunState::Failed);
    assert_eq!((snapshot.status.rounds, snapshot.status.schema_violations), (4, 4));
    let error = snapshot.status.error.unwrap();
    assert!(error.contains("in 4 turns tool calls did not match their schemas (max_invalid_turns)"), "{error}");

    // Ten calls missing their schema in one turn cost one turn, and the model corrects itself.
    let calls: Vec<String> =
        (0..10).map(|n| format!(r#"{{"name":"read_file","arguments":{{"file":"a{n}.txt"}}}}"#)).collect();
    let replay = format!(
        "{{\"tool_calls\":[{}]}}\n{{\"tool_calls\":[{{\"name\":\"read_file\",\"arguments\":{{\"path\":\"a.txt\"}}}}]}}\n{{\"content\":\"Read.\"}}\n",
        calls.join(",")
    );
    let (_, snapshot) = scratch.run(&replay, Budgets { max_invalid_turns: 2, ..Budgets::default() }).await;
    assert_eq!(snapshot.status.state, RunState::Ready, "{:?}", snapshot.status);
    assert_eq!(snapshot.status.schema_violations, 10);
}

#[tokio::test]
async fn identical_repeated_calls_stop_the_run() {
    let scratch = Scratch::new(&[("a.txt", "x\n")]);
    let turn = r#"{"tool_calls":[{"name":"read_file","arguments":{"path":"a.txt"}}]}"#;
    let replay = format!("{turn}\n{turn}\n{turn}\n{turn}\n");
    let (_, snapshot) = scratch.run(&replay, Budgets::default()).await;
    assert_eq!(snapshot.status.state, RunState::Failed);
    assert_eq!(snapshot.status.tool_calls, 2);
    assert!(snapshot.status.error.unwrap().contains("same `read_file` call 3 times"));
}

#[tokio::test]
async fn the_same_calls_turn_after_turn_stop_the_run_however_many_a_turn_sends() {
    let scratch = Scratch::new(&[("a.txt", "x\n"), ("b.txt", "y\n")]);
    let turn = r#"{"tool_calls":[{"name":"read_file","arguments":{"path":"a.txt"}},{"name":"read_file","arguments":{"path":"b.txt"}}]}"#;
    let replay = format!("{}{{\"content\":\"Read.\"}}\n", format!("{turn}\n").repeat(6));
    let (_, snapshot) = scratch.run(&replay, Budgets::default()).await;
    assert_eq!(snapshot.status.state, RunState::Failed, "{:?}", snapshot.status);
    assert_eq!(snapshot.status.tool_calls, 4, "two turns run, the third stopped");
    assert!(snapshot.status.error.unwrap().contains("same `read_file` call 3 times"));
}

#[tokio::test]
async fn the_same_read_after_each_change_is_no_loop_but_the_same_write_is() {
    let scratch = Scratch::new(&[("a.txt", "x\n")]);
    // A read, then a new change, turn after turn: the read reads something new each time.
    let turns: Vec<String> = (0..4)
        .map(|n| {
            format!(
                r#"{{"tool_calls":[{{"name":"read_file","arguments":{{"path":"a.txt"}}}},{{"name":"write_file","arguments":{{"path":"a.txt","content":"{n}\n"}}}}]}}"#
            )
        })
        .collect();
    let replay = format!("{}\n{{\"content\":\"Done.\"}}\n", turns.join("\n"));
    let (_, snapshot) = scratch.run(&replay, Budgets::default()).await;
    assert_eq!(snapshot.status.state, RunState::Ready, "{:?}", snapshot.status);
    // The same write, turn after turn, is a loop.
    let write = r#"{"tool_calls":[{"name":"write_file","arguments":{"path":"a.txt","content":"z\n"}}]}"#;
    let replay = format!("{}{{\"content\":\"Done.\"}}\n", format!("{write}\n").repeat(4));
    let (_, snapshot) = scratch.run(&replay, Budgets::default()).await;
    assert_eq!(snapshot.status.state, RunState::Failed, "{:?}", snapshot.status);
    assert!(snapshot.status.error.unwrap().contains("same `write_file` call 3 times"));
}

#[tokio::test]
async fn the_same_call_sent_side_by_side_runs_once_and_goes_on() {
    let scratch = Scratch::new(&[("a.txt", "x\n")]);
    let read = r#"{"name":"read_file","arguments":{"path":"a.txt"}}"#;
    let replay = format!("{{\"tool_calls\":[{read},{read},{read}]}}\n{{\"content\":\"Read it.\"}}\n");
    let (handle, snapshot) = scratch.run(&replay, Budgets::default()).await;
    assert_eq!(snapshot.status.state, RunState::Ready, "{:?}", snapshot.status);
    let outputs: Vec<String> = scratch
        .ledger(&handle)
        .into_iter()
        .filter_map(|event| match event {
            LedgerEvent::ToolResult { output, .. } => Some(output),
            _ => None,
        })
        .collect();
    assert!(outputs[0].starts_with("a.txt (lines 1-1 of 1)"), "{outputs:?}");
    assert!(outputs[1..].iter().all(|o| o.contains("the same call as call 1 of this turn")), "{outputs:?}");
}

#[tokio::test]
async fn the_same_read_after_a_change_in_the_same_turn_runs_again() {
    let scratch = Scratch::new(&[("a.txt", "x\n")]);
    let read = r#"{"name":"read_file","arguments":{"path":"a.txt"}}"#;
    let change = r#"{"name":"patch_file","arguments":{"path":"a.txt","old_text":"x","new_text":"y"}}"#;
    let replay = format!("{{\"tool_calls\":[{read},{change},{read}]}}\n{{\"content\":\"Changed.\"}}\n");
    let (handle, _) = scratch.run(&replay, Budgets::default()).await;
    let outputs: Vec<String> = scratch
        .ledger(&handle)
        .into_iter()
        .filter_map(|event| match event {
            LedgerEvent::ToolResult { name, output, .. } if name == "read_file" => Some(output),
            _ => None,
        })
        .collect();
    assert_eq!(outputs, ["a.txt (lines 1-1 of 1):\nx\n", "a.txt (lines 1-1 of 1):\ny\n"]);
}

#[tokio::test]
async fn the_same_failing_call_with_reads_between_stops_the_run() {
    let scratch = Scratch::new(&[("a.txt", "x\n")]);
    let read = r#"{"tool_calls":[{"name":"read_file","arguments":{"path":"a.txt"}}]}"#;
    let wrong = patch("y\n", "z\n").trim_end().to_owned();
    let replay = [read, &wrong, read, &wrong, read, &wrong, read, &wrong, "{\"content\":\"Gave up.\"}"].join("\n");
    let (_, snapshot) = scratch.run(&format!("{replay}\n"), Budgets::default()).await;
    assert_eq!(snapshot.status.state, RunState::Failed);
    let error = snapshot.status.error.unwrap();
    assert!(
        error.contains("same failing `patch_file` call 3 times") && error.contains("old_text was not found"),
        "{error}"
    );
    assert_eq!(snapshot.status.rounds, 6);
}

#[tokio::test]
async fn extra_calls_in_one_turn_are_answered_not_run() {
    let scratch = Scratch::new(&[]);
    let calls: Vec<String> = (0..3)
        .map(|n| format!(r#"{{"name":"write_file","arguments":{{"path":"f{n}.txt","content":"{n}"}}}}"#))
        .collect();
    let replay = format!("{{\"tool_calls\":[{}]}}\n{{\"content\":\"ok\"}}\n", calls.join(","));
    let budgets = Budgets { max_tool_calls_per_round: 2, ..Budgets::default() };
    let (_, snapshot) = scratch.run(&replay, budgets).await;
    assert_eq!(snapshot.status.state, RunState::Ready);
    assert_eq!(snapshot.outcome.unwrap().changes.len(), 2);
}

#[tokio::test]
async fn reading_calls_past_what_a_turn_may_take_are_answered_not_run() {
    let files: Vec<(String, String)> =
        (0..8).map(|n| (format!("f{n}.txt"), format!("file {n} line\n").repeat(250))).collect();
    let borrowed: Vec<(&str, &str)> = files.iter().map(|(p, t)| (p.as_str(), t.as_str())).collect();
    let scratch = Scratch::new(&borrowed);
    let mut calls: Vec<String> =
        (0..8).map(|n| format!(r#"{{"name":"read_file","arguments":{{"path":"f{n}.txt"}}}}"#)).collect();
    calls.push(r#"{"name":"write_file","arguments":{"path":"notes.txt","content":"read\n"}}"#.to_owned());
    let replay = format!("{{\"tool_calls\":[{}]}}\n{{\"content\":\"ok\"}}\n", calls.join(","));
    let mut spec = scratch.spec(&replay, Budgets::default());
    // An 8k window, half of it the answer's: a turn's results may take about 5,000 characters.
    spec.provider.model = "gemma-2-9b".into();
    let handle = start(spec, Arc::new(DiskBase), None).unwrap();
    let snapshot = handle.finished().await;
    assert_eq!(snapshot.status.state, RunState::Ready, "{:?}", snapshot.status.error);
    let results: Vec<(String, String)> = scratch
        .ledger(&handle)
        .into_iter()
        .filter_map(|event| match event {
            LedgerEvent::ToolResult { name, output, .. } => Some((name, output)),
            _ => None,
        })
        .collect();
    let refused = results.iter().filter(|(_, output)| output.starts_with("not run: this turn's results")).count();
    assert!((1..8).contains(&refused), "some reads run, the rest are answered: {results:#?}");
    let read: usize = results.iter().filter(|(name, _)| name == "read_file").map(|(_, output)| output.len()).sum();
    assert!(read < 5_200 + 8 * 250, "{read} characters of reads in one turn");
    assert_eq!(snapshot.outcome.unwrap().changes.len(), 1, "the write in the same turn still runs");
}

#[tokio::test]
async fn the_wall_clock_budget_stops_a_run() {
    let scratch = Scratch::new(&[("a.txt", "x\n")]);
    let turn = r#"{"tool_calls":[{"name":"read_file","arguments":{"path":"a.txt"}}]}"#;
    let budgets = Budgets { wall_clock: Duration::ZERO, ..Budgets::default() };
    let (_, snapshot) = scratch.run(turn, budgets).await;
    assert_eq!(snapshot.status.state, RunState::Failed);
    assert!(snapshot.status.error.unwrap().contains("wall_clock"));
}

#[tokio::test]
async fn cancel_stops_the_run_and_keeps_staged_changes() {
    let scratch = Scratch::new(&[]);
    let write = r#"{"tool_calls":[{"name":"write_file","arguments":{"path":"new.txt","content":"n\n"}}]}"#;
    let spec = scratch.spec(&format!("{write}\n{{\"content\":\"never reached\"}}\n"), Budgets::default());
    let handle = start(spec, Arc::new(DiskBase), None).unwrap();
    handle.cancel();
    let snapshot = handle.finished().await;
    assert_eq!(snapshot.status.state, RunState::Cancelled);
    assert!(!scratch.dir.path().join("new.txt").exists());
}

#[tokio::test]
async fn a_cancel_while_the_workspace_is_ranked_ends_the_run_before_any_prompt() {
    let scratch = Scratch::new(&[("src/config.rs", "pub fn current() -> u32 {\n    1\n}\n")]);
    let mut spec = scratch.spec("{\"content\":\"never reached\"}\n", Budgets::default());
    spec.issue.text = "# `current` in config should return 2\n".into();
    spec.index = Some(Arc::new(crate::context::Index::build(scratch.dir.path(), None)));
    let handle = start(spec, Arc::new(DiskBase), None).unwrap();
    handle.cancel();
    let snapshot = handle.finished().await;
    assert_eq!(snapshot.status.state, RunState::Cancelled);
    let ledger = scratch.ledger(&handle);
    assert!(
        !ledger.iter().any(|e| matches!(e, LedgerEvent::ContextPack { .. } | LedgerEvent::Prompt { .. })),
        "{ledger:?}"
    );
}

/// A project whose check fails while `a.txt` or `b.txt` holds `BROKEN`, counting those
/// lines as errors (one `a.txt:N:1: error E1 broken` per line), and whose tests echo.
/// Each check appends the `a.txt` it saw to `.cache-for-tests/checked.log`.
fn validated(scratch: &Scratch) -> Arc<crate::validate::Validator> {
    let cache = scratch.dir.path().join(".cache-for-tests");
    std::fs::create_dir_all(&cache).unwrap();
    let views = cache.join("checked.log");
    let settings = crate::config::ValidateSettings {
        check: Some(
            format!("cat a.txt >> '{}'; ", views.display())
                + "if grep -Hn BROKEN a.txt b.txt 2>/dev/null | sed 's/^\\([^:]*\\):\\([0-9]*\\):.*/\\1:\\2:1: error E1 broken/' | grep .; then exit 1; fi",
        ),
        test: Some("echo tests ran".into()),
        problem_matcher: Some(
            r"^(?P<file>[^:]+):(?P<line>\d+):(?P<column>\d+): error (?P<code>\w+) (?P<message>.*)$".into(),
        ),
        ..crate::config::ValidateSettings::default()
    };
    let root = Root::new(scratch.dir.path()).unwrap();
    Arc::new(crate::validate::Validator::new(root.path(), settings, Some(cache)).unwrap())
}

impl Scratch {
    async fn run_validated(&self, replay: &str) -> (RunHandle, RunSnapshot) {
        let mut spec = self.spec(replay, Budgets::default());
        spec.validator = Some(validated(self));
        let handle = start(spec, Arc::new(DiskBase), None).unwrap();
        let snapshot = handle.finished().await;
        (handle, snapshot)
    }
}

/// The disk, except that reading `b.txt` panics: a fault inside the run.
struct PanicsOnB;

impl crate::workspace::BaseSource for PanicsOnB {
    fn read(
        &self,
        absolute: &std::path::Path,
    ) -> Result<Option<crate::workspace::BaseText>, crate::workspace::BaseError> {
        assert!(!absolute.ends_with("b.txt"), "a fault while reading b.txt");
        DiskBase.read(absolute)
    }
}

#[tokio::test]
async fn a_run_that_panics_ends_failed_and_its_record_keeps_its_verdicts() {
    let scratch = Scratch::new(&[("a.txt", "ok\n"), ("b.txt", "b\n")]);
    let read_b = r#"{"tool_calls":[{"name":"read_file","arguments":{"path":"b.txt"}}]}"#;
    let mut spec = scratch.spec(&format!("{}{read_b}\n", patch("ok\n", "BROKEN\n")), Budgets::default());
    spec.validator = Some(validated(&scratch));
    let handle = start(spec, Arc::new(PanicsOnB), None).unwrap();
    let snapshot = handle.finished().await;
    assert_eq!(snapshot.status.state, RunState::Failed);
    assert!(snapshot.status.error.as_deref().unwrap().contains("internal error"), "{:?}", snapshot.status);
    let live = snapshot.status.validation.expect("the check of the staged change ran");
    assert_eq!(live.build, Verdict::Failed);

    // After a restart the run is read from its record: the same state, error and verdicts.
    let stored = crate::session::load_proposal(scratch.dir.path(), handle.id()).unwrap();
    assert_eq!((stored.state.as_str(), stored.error), ("failed", snapshot.status.error));
    assert_eq!(stored.verdicts, Some(serde_json::to_value(live).unwrap()));
    assert!(
        matches!(scratch.ledger(&handle).last(), Some(LedgerEvent::Error { message }) if message.contains("internal error"))
    );
    assert_eq!(std::fs::read_to_string(scratch.dir.path().join("a.txt")).unwrap(), "ok\n", "the file is untouched");
    // What it staged before the fault is kept, to review or discard.
    let changes = &snapshot.outcome.unwrap().changes;
    assert_eq!(changes.len(), 1);
    assert_eq!(changes[0].new_text.as_deref(), Some("BROKEN\n"));
    assert_eq!(stored.changes, *changes);
}

fn patch(old: &str, new: &str) -> String {
    serde_json::json!({"tool_calls": [{"name": "patch_file", "arguments": {"path": "a.txt", "old_text": old, "new_text": new}}]}).to_string() + "\n"
}

#[tokio::test]
async fn errors_that_stop_falling_change_the_strategy() {
    let scratch = Scratch::new(&[("a.txt", "ok\n")]);
    let replay = [
        patch("ok\n", "BROKEN 1\n"),
        patch("BROKEN 1\n", "BROKEN 2\n"),
        patch("BROKEN 2\n", "BROKEN 3\n"),
        patch("BROKEN 3\n", "fine\n"),
        "{\"content\":\"Fixed.\"}\n".to_owned(),
    ]
    .concat();
    let (handle, snapshot) = scratch.run_validated(&replay).await;
    assert_eq!(snapshot.status.state, RunState::Ready, "{:?}", snapshot.status);
    let validation = snapshot.status.validation.unwrap();
    assert_eq!((validation.build, validation.tests), (Verdict::Passed, Verdict::Passed));

    let ledger = scratch.ledger(&handle);
    let checks: Vec<(bool, usize)> = ledger
        .iter()
        .filter_map(|e| match e {
            LedgerEvent::Validation { kind, passed, errors, .. } if kind == "check" => Some((*passed, *errors)),
            _ => None,
        })
        .collect();
    assert_eq!(checks, [(false, 1), (false, 1), (false, 1), (true, 0)]);
    let strategies: Vec<&LedgerEvent> = ledger.iter().filter(|e| matches!(e, LedgerEvent::Strategy { .. })).collect();
    assert!(
        matches!(strategies.as_slice(), [LedgerEvent::Strategy { round: 3, strategy, counts }] if strategy == "reflect" && counts == &[1, 1, 1]),
        "{strategies:?}"
    );
    let prompt = ledger.iter().find_map(|e| match e {
        LedgerEvent::Prompt { system, .. } => Some(system.clone()),
        _ => None,
    });
    assert!(prompt.unwrap().contains("run_check and run_tests run them on demand"));
    let outcome = snapshot.outcome.unwrap();
    let last = outcome.validation.as_ref().unwrap();
    assert!(last.check.as_ref().unwrap().passed && last.test.as_ref().unwrap().passed);
}

#[tokio::test]
async fn the_files_the_context_strategy_shows_count_as_read() {
    let scratch = Scratch::new(&[("a.txt", "head\nok\ntail\n")]);
    let write = serde_json::json!({"tool_calls": [{"name": "write_file", "arguments": {"path": "a.txt", "content": "fine\n"}}]});
    let replay = [
        patch("ok\n", "BROKEN 1\n"),
        patch("BROKEN 1\n", "BROKEN 2\n"),
        patch("BROKEN 2\n", "BROKEN 3\n"),
        patch("BROKEN 3\n", "BROKEN 4\n"),
        patch("BROKEN 4\n", "BROKEN 5\n"),
        // Shown the whole file by the `context` strategy, never read: rewritten whole.
        write.to_string() + "\n",
        "{\"content\":\"Fixed.\"}\n".to_owned(),
    ]
    .concat();
    let (handle, snapshot) = scratch.run_validated(&replay).await;
    let ledger = scratch.ledger(&handle);
    let strategies: Vec<&str> = ledger
        .iter()
        .filter_map(|e| match e {
            LedgerEvent::Strategy { strategy, .. } => Some(strategy.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(strategies, ["reflect", "context"]);
    assert_eq!(snapshot.status.state, RunState::Ready, "{:?}", snapshot.status);
    let changes = &snapshot.outcome.unwrap().changes;
    assert_eq!(changes[0].new_text.as_deref(), Some("fine\n"), "the rewrite was taken");
}

#[tokio::test]
async fn a_check_that_times_out_counts_no_errors_and_changes_no_strategy() {
    let scratch = Scratch::new(&[("a.txt", "ok\n")]);
    let settings = crate::config::ValidateSettings {
        check: Some("sleep 30".into()),
        timeout: Duration::from_millis(300),
        ..Default::default()
    };
    let root = Root::new(scratch.dir.path()).unwrap();
    let cache = Some(scratch.dir.path().join(".cache-for-tests"));
    let validator = Arc::new(crate::validate::Validator::new(root.path(), settings, cache).unwrap());
    let replay = [
        patch("ok\n", "one\n"),
        patch("one\n", "two\n"),
        patch("two\n", "three\n"),
        patch("three\n", "four\n"),
        // Sent back once, as the check did not pass.
        "{\"content\":\"Counted.\"}\n".to_owned(),
        "{\"content\":\"Counted to four.\"}\n".to_owned(),
    ]
    .concat();
    let mut spec = scratch.spec(&replay, Budgets::default());
    spec.validator = Some(validator);
    let handle = start(spec, Arc::new(DiskBase), None).unwrap();
    let snapshot = handle.finished().await;
    let ledger = scratch.ledger(&handle);
    let timed_out =
        ledger.iter().filter(|e| matches!(e, LedgerEvent::Validation { kind, .. } if kind == "check")).count();
    assert!(timed_out >= 4, "every round was checked: {ledger:?}");
    let strategies: Vec<&LedgerEvent> = ledger.iter().filter(|e| matches!(e, LedgerEvent::Strategy { .. })).collect();
    assert!(strategies.is_empty(), "a check that never finishes says nothing of the errors: {strategies:?}");
    assert_eq!(snapshot.status.summary, "Counted to four.", "{:?}", snapshot.status);
}

#[tokio::test]
async fn calls_that_leave_the_proposal_as_it_was_are_not_validated() {
    let scratch = Scratch::new(&[("a.txt", "ok\n")]);
    let replay = [
        r#"{"tool_calls":[{"name":"mkdir","arguments":{"path":"docs"}}]}"#.to_owned(),
        r#"{"tool_calls":[{"name":"write_file","arguments":{"path":"a.txt","content":"ok\n"}}]}"#.to_owned(),
        patch("ok\n", "fine\n").trim_end().to_owned(),
        "{\"content\":\"Done.\"}".to_owned(),
    ]
    .join("\n")
        + "\n";
    let (handle, snapshot) = scratch.run_validated(&replay).await;
    assert_eq!(snapshot.status.state, RunState::Ready, "{:?}", snapshot.status);
    let checks: Vec<u32> = scratch
        .ledger(&handle)
        .into_iter()
        .filter_map(|event| match event {
            LedgerEvent::Validation { round, kind, .. } if kind == "check" => Some(round),
            _ => None,
        })
        .collect();
    assert_eq!(checks, [3], "only the patch changed the proposal");
}

#[tokio::test]
async fn the_model_is_sent_back_once_when_it_finishes_on_a_broken_build() {
    let scratch = Scratch::new(&[("a.txt", "ok\n")]);
    let replay =
        [patch("ok\n", "BROKEN\n"), "{\"content\":\"Done.\"}\n".into(), "{\"content\":\"Still done.\"}\n".into()]
            .concat();
    let (handle, snapshot) = scratch.run_validated(&replay).await;
    assert_eq!(snapshot.status.state, RunState::Ready);
    assert_eq!(snapshot.status.rounds, 3);
    assert_eq!(snapshot.status.summary, "Still done.");
    assert_eq!(snapshot.status.validation.unwrap().build, Verdict::Failed);
    let problems: Vec<_> = snapshot.outcome.unwrap().validation.as_ref().unwrap().problems().cloned().collect();
    assert_eq!(problems.len(), 1);
    assert_eq!(problems[0].place.as_ref().unwrap().path.as_str(), "a.txt");
    let checks = scratch.ledger(&handle).iter().filter(|e| matches!(e, LedgerEvent::Validation { .. })).count();
    assert_eq!(checks, 1, "the final answer does not re-run an unchanged check");
}

#[tokio::test]
async fn a_project_with_only_tests_is_validated_by_its_tests() {
    let scratch = Scratch::new(&[("a.txt", "ok\n")]);
    let settings = crate::config::ValidateSettings {
        test: Some("if grep -q BROKEN a.txt; then echo 'a.txt:1:1: error E1 broken'; exit 1; fi".into()),
        problem_matcher: Some(
            r"^(?P<file>[^:]+):(?P<line>\d+):(?P<column>\d+): error (?P<code>\w+) (?P<message>.*)$".into(),
        ),
        ..crate::config::ValidateSettings::default()
    };
    let root = Root::new(scratch.dir.path()).unwrap();
    let cache = Some(scratch.dir.path().join(".cache-for-tests"));
    let validator = Arc::new(crate::validate::Validator::new(root.path(), settings, cache).unwrap());
    let replay =
        [patch("ok\n", "BROKEN\n"), patch("BROKEN\n", "fine\n"), "{\"content\":\"Done.\"}\n".to_owned()].concat();
    let mut spec = scratch.spec(&replay, Budgets::default());
    spec.validator = Some(validator);
    let handle = start(spec, Arc::new(DiskBase), None).unwrap();
    let snapshot = handle.finished().await;
    let validation = snapshot.status.validation.unwrap();
    assert_eq!((validation.build, validation.tests), (Verdict::NotRun, Verdict::Passed), "{validation:?}");
    let tests: Vec<bool> = scratch
        .ledger(&handle)
        .iter()
        .filter_map(|e| match e {
            LedgerEvent::Validation { kind, passed, .. } if kind == "test" => Some(*passed),
            _ => None,
        })
        .collect();
    assert_eq!(tests, [false, true], "the tests ran after each round that changed files");
}

#[tokio::test]
async fn a_filtered_test_run_does_not_stand_for_the_suite() {
    // The check fails, so the suite does not run; the model runs one test by name.
    let scratch = Scratch::new(&[("a.txt", "ok\n")]);
    let calls =
        serde_json::json!({"tool_calls": [{"id": "1", "name": "run_tests", "arguments": {"filter": "only_this"}}]});
    let replay = [
        patch("ok\n", "BROKEN\n"),
        format!("{calls}\n"),
        "{\"content\":\"Done.\"}\n".to_owned(),
        "{\"content\":\"Still done.\"}\n".to_owned(),
    ]
    .concat();
    let (handle, snapshot) = scratch.run_validated(&replay).await;
    let validation = snapshot.status.validation.unwrap();
    assert_eq!((validation.build, validation.tests), (Verdict::Failed, Verdict::NotRun), "{validation:?}");
    let filtered = scratch.ledger(&handle).into_iter().find_map(|e| match e {
        LedgerEvent::ToolResult { ok, output, .. } if output.contains("tests") => Some((ok, output)),
        _ => None,
    });
    assert!(filtered.is_some_and(|(ok, output)| ok && output.contains("passed")), "the filtered run itself passed");
}

#[tokio::test]
async fn errors_that_were_there_before_the_run_are_told_apart() {
    // b.txt is broken before the run; the first round changes a.txt harmlessly, the second
    // breaks it too.
    let scratch = Scratch::new(&[("a.txt", "ok\n"), ("b.txt", "BROKEN before\n")]);
    let replay = [
        patch("ok\n", "fine\n"),
        patch("fine\n", "BROKEN too\n"),
        "{\"content\":\"Done.\"}\n".into(),
        "{\"content\":\"Still done.\"}\n".into(),
    ]
    .concat();
    let (handle, snapshot) = scratch.run_validated(&replay).await;
    assert_eq!(snapshot.status.state, RunState::Ready, "{:?}", snapshot.status);
    let validation = snapshot.status.validation.unwrap();
    assert_eq!((validation.build, validation.errors, validation.preexisting), (Verdict::Failed, 2, 1));
    assert_eq!(snapshot.status.summary, "Still done.", "sent back once: the run broke a.txt");

    let ledger = scratch.ledger(&handle);
    let baselines: Vec<&LedgerEvent> = ledger.iter().filter(|e| matches!(e, LedgerEvent::Baseline { .. })).collect();
    assert!(
        matches!(baselines.as_slice(), [LedgerEvent::Baseline { round: 1, kind, passed: false, errors: 1, .. }] if kind == "check"),
        "the workspace without the proposal is checked once: {baselines:?}"
    );
    let checks: Vec<(usize, usize)> = ledger
        .iter()
        .filter_map(|e| match e {
            LedgerEvent::Validation { kind, errors, preexisting, .. } if kind == "check" => {
                Some((*errors, *preexisting))
            }
            _ => None,
        })
        .collect();
    assert_eq!(checks, [(1, 1), (2, 1)]);
    let told: Vec<String> = ledger
        .iter()
        .filter_map(|e| match e {
            LedgerEvent::Validation { summary, .. } => Some(summary.clone()),
            _ => None,
        })
        .collect();
    assert!(told[1].contains("1 of these errors were there before your changes"), "{told:?}");
    let strategies = ledger.iter().filter(|e| matches!(e, LedgerEvent::Strategy { .. })).count();
    assert_eq!(strategies, 0);
    // The workspace as it was is checked once (started with the run), then each proposal.
    let mut seen: Vec<String> = std::fs::read_to_string(scratch.dir.path().join(".cache-for-tests/checked.log"))
        .unwrap()
        .lines()
        .map(String::from)
        .collect();
    seen.sort();
    assert_eq!(seen, ["BROKEN too", "fine", "ok"]);
}

#[tokio::test]
async fn a_run_is_not_sent_after_errors_it_did_not_cause() {
    let scratch = Scratch::new(&[("a.txt", "ok\n"), ("b.txt", "BROKEN before\n")]);
    let replay = [patch("ok\n", "fine\n"), "{\"content\":\"Done.\"}\n".into()].concat();
    let (handle, snapshot) = scratch.run_validated(&replay).await;
    assert_eq!(snapshot.status.state, RunState::Ready, "{:?}", snapshot.status);
    assert_eq!((snapshot.status.rounds, snapshot.status.summary.as_str()), (2, "Done."), "no nudge");
    let validation = snapshot.status.validation.unwrap();
    assert_eq!((validation.build, validation.errors, validation.preexisting), (Verdict::Failed, 1, 1));
    assert_eq!(validation.tests, Verdict::NotRun, "tests wait for a clean check");
    let told = scratch.ledger(&handle).into_iter().find_map(|e| match e {
        LedgerEvent::Validation { summary, .. } => Some(summary),
        _ => None,
    });
    assert!(told.unwrap().contains("All of these errors were there before your changes"));
}

#[tokio::test]
async fn the_wall_clock_also_stops_a_check_that_would_outlast_the_run() {
    let scratch = Scratch::new(&[("a.txt", "ok\n")]);
    let settings = crate::config::ValidateSettings { check: Some("sleep 300".into()), ..Default::default() };
    let root = Root::new(scratch.dir.path()).unwrap();
    let cache = Some(scratch.dir.path().join(".cache-for-tests"));
    let validator = Arc::new(crate::validate::Validator::new(root.path(), settings, cache).unwrap());
    let replay = [patch("ok\n", "fine\n"), "{\"content\":\"Done.\"}\n".into()].concat();
    let mut spec = scratch.spec(&replay, Budgets { wall_clock: Duration::from_secs(2), ..Budgets::default() });
    spec.validator = Some(validator);
    let started = std::time::Instant::now();
    let snapshot = start(spec, Arc::new(DiskBase), None).unwrap().finished().await;
    assert!(started.elapsed() < Duration::from_secs(60), "stopped at the deadline, not after the check");
    assert_eq!(snapshot.status.state, RunState::Failed);
    assert!(snapshot.status.error.unwrap().contains("wall_clock"));
}

#[tokio::test]
async fn a_final_answer_in_the_last_round_stands_with_its_failing_build() {
    let scratch = Scratch::new(&[("a.txt", "ok\n")]);
    let replay = [patch("ok\n", "BROKEN\n"), "{\"content\":\"Done.\"}\n".into()].concat();
    let mut spec = scratch.spec(&replay, Budgets { max_rounds: 2, ..Budgets::default() });
    spec.validator = Some(validated(&scratch));
    let snapshot = start(spec, Arc::new(DiskBase), None).unwrap().finished().await;
    assert_eq!(snapshot.status.state, RunState::Ready, "not \"out of rounds\": {:?}", snapshot.status);
    assert_eq!(snapshot.status.summary, "Done.");
    assert_eq!(snapshot.status.validation.unwrap().build, Verdict::Failed);
}

#[tokio::test]
async fn run_check_and_run_tests_run_only_the_configured_commands() {
    let scratch = Scratch::new(&[("a.txt", "BROKEN\n")]);
    let calls = serde_json::json!({"tool_calls": [
        {"id": "1", "name": "run_check", "arguments": {}},
        {"id": "2", "name": "run_tests", "arguments": {"filter": "a; rm -rf /"}},
        {"id": "3", "name": "run_tests", "arguments": {"filter": "tests::counts"}},
        {"id": "4", "name": "run_check", "arguments": {"command": "rm -rf /"}},
    ]});
    let replay = format!("{calls}\n{{\"content\":\"Looked.\"}}\n");
    let (handle, snapshot) = scratch.run_validated(&replay).await;
    assert_eq!(snapshot.status.state, RunState::Ready);
    let results: Vec<(bool, String)> = scratch
        .ledger(&handle)
        .into_iter()
        .filter_map(|e| match e {
            LedgerEvent::ToolResult { ok, output, .. } => Some((ok, output)),
            _ => None,
        })
        .collect();
    assert!(results[0].0 && results[0].1.contains("error[E1] at a.txt:1:1: broken"), "{:?}", results[0]);
    assert!(!results[1].0 && results[1].1.contains("is not a test name"), "{:?}", results[1]);
    assert!(results[2].0 && results[2].1.starts_with("The tests `echo tests ran` passed"), "{:?}", results[2]);
    assert!(!results[3].0 && results[3].1.contains("invalid arguments for `run_check`"), "{:?}", results[3]);
    assert_eq!(snapshot.status.schema_violations, 1);
    assert_eq!(std::fs::read_to_string(scratch.dir.path().join("a.txt")).unwrap(), "BROKEN\n");
}

#[tokio::test]
async fn validation_tools_are_offered_only_with_a_check() {
    let scratch = Scratch::new(&[("a.txt", "x\n")]);
    let calls = r#"{"tool_calls":[{"id":"1","name":"run_check","arguments":{}}]}"#;
    let (handle, snapshot) = scratch.run(&format!("{calls}\n{{\"content\":\"ok\"}}\n"), Budgets::default()).await;
    assert!(snapshot.status.validation.is_none());
    let refused = scratch.ledger(&handle).into_iter().find_map(|e| match e {
        LedgerEvent::ToolResult { ok: false, output, .. } => Some(output),
        _ => None,
    });
    assert!(refused.unwrap().starts_with("unknown tool `run_check`"));
}

#[tokio::test]
async fn find_symbol_answers_once_an_index_building_at_the_start_is_ready() {
    let scratch = Scratch::new(&[("src/set.rs", "pub struct JoinSet;\n")]);
    let replay = concat!(
        r#"{"content":"Looking.","tool_calls":[{"id":"1","name":"find_symbol","arguments":{"name":"JoinSet"}}]}"#,
        "\n",
        r#"{"content":"Done."}"#,
        "\n"
    );
    let later = Arc::new(crate::context::LiveIndex::default());
    let answer = |handle: &RunHandle| {
        scratch.ledger(handle).into_iter().find_map(|event| match event {
            LedgerEvent::ToolResult { output, .. } => Some(output),
            _ => None,
        })
    };
    let run = |later: &Arc<crate::context::LiveIndex>| {
        let mut spec = scratch.spec(replay, Budgets::default());
        spec.index_later = Some(later.clone());
        let (events, receiver) = tokio::sync::mpsc::unbounded_channel();
        (start(spec, Arc::new(DiskBase), Some(events)).unwrap(), receiver)
    };

    let (still_building, mut events) = run(&later);
    still_building.finished().await;
    assert!(answer(&still_building).unwrap().contains("not available yet"));
    let mut context = None;
    while let Ok(event) = events.try_recv() {
        if matches!(event, RunEvent::Context { .. }) {
            context = context_line(&event);
        }
    }
    assert!(context.unwrap().starts_with("context: none yet, the index is still being built"));

    later.install(crate::context::Index::build(scratch.dir.path(), None));
    let (built_since, _events) = run(&later);
    built_since.finished().await;
    let found = answer(&built_since).unwrap();
    assert!(found.starts_with("`JoinSet` is defined at:\nsrc/set.rs:1: pub struct JoinSet"), "{found}");
}

#[test]
fn the_context_line_says_what_the_first_prompt_holds() {
    let owned = |files: &[&str]| files.iter().map(|f| (*f).to_owned()).collect::<Vec<_>>();
    let parted = |full: &[&str], part: &[&str], mapped, indexed| {
        let (full_files, part_files) = (owned(full), owned(part));
        context_line(&RunEvent::Context { full_files, part_files, mapped_files: mapped, tokens: 1200, indexed })
            .unwrap()
    };
    let line = |full: &[&str], mapped, indexed| parted(full, &[], mapped, indexed);
    assert_eq!(
        line(&["a.rs", "b.rs"], 12, true),
        "context: a.rs, b.rs in full; 12 more in the map (about 1200 tokens)"
    );
    assert_eq!(
        line(&["a.rs", "b.rs", "c.rs", "d.rs", "e.rs"], 0, true),
        "context: a.rs, b.rs, c.rs and 2 more in full; 0 more in the map (about 1200 tokens)"
    );
    assert_eq!(
        parted(&["a.rs"], &["big.rs"], 11, true),
        "context: a.rs in full, big.rs in part; 11 more in the map (about 1200 tokens)"
    );
    assert_eq!(parted(&[], &["big.rs"], 0, true), "context: big.rs in part; 0 more in the map (about 1200 tokens)");
    assert_eq!(line(&[], 0, true), "context: no file given to the model");
    assert_eq!(line(&[], 7, true), "context: 7 files in the map, none in full (about 1200 tokens)");
    assert!(line(&[], 0, false).starts_with("context: none yet, the index is still being built"));
    assert_eq!(context_line(&RunEvent::Round { round: 1 }), None);
}

/// The user's text of one file as an editor holding it open gives it: edited after the run
/// first read it (the user went on working while the model thought).
struct EditedAfterItWasRead {
    path: std::path::PathBuf,
    edited: String,
    reads: std::sync::atomic::AtomicUsize,
}

impl crate::workspace::BaseSource for EditedAfterItWasRead {
    fn read(
        &self,
        absolute: &std::path::Path,
    ) -> Result<Option<crate::workspace::BaseText>, crate::workspace::BaseError> {
        let first = self.reads.fetch_add(usize::from(absolute == self.path), std::sync::atomic::Ordering::SeqCst) == 0;
        if absolute != self.path || first {
            return DiskBase.read(absolute);
        }
        Ok(Some(crate::workspace::BaseText { text: self.edited.clone(), version: None }))
    }
}

#[tokio::test]
async fn a_file_written_whole_from_the_pack_keeps_what_the_user_changed_since() {
    let original = "pub fn current() -> u32 {\n    1\n}\n\npub fn legacy() -> u32 {\n    0\n}\n";
    let scratch = Scratch::new(&[("src/config.rs", original)]);
    // The model writes the file whole from the pack's text; the user deleted `legacy` meanwhile.
    let written = original.replace("    1\n", "    2\n");
    let replay = format!(
        "{}\n{}\n",
        serde_json::json!({"content": "Writing.", "tool_calls": [{"id": "1", "name": "write_file",
            "arguments": {"path": "src/config.rs", "content": written}}]}),
        serde_json::json!({"content": "Done: current returns 2."})
    );
    let mut spec = scratch.spec(&replay, Budgets::default());
    spec.issue.text = "# `current` in config should return 2\n".into();
    spec.index = Some(Arc::new(crate::context::Index::build(scratch.dir.path(), None)));
    let edited = "pub fn current() -> u32 {\n    1\n}\n";
    let base = EditedAfterItWasRead {
        path: scratch.dir.path().join("src/config.rs"),
        edited: edited.into(),
        reads: Default::default(),
    };
    let handle = start(spec, Arc::new(base), None).unwrap();
    let snapshot = handle.finished().await;
    let pack = scratch.ledger(&handle).into_iter().find_map(|event| match event {
        LedgerEvent::ContextPack { full_files, .. } => Some(full_files),
        _ => None,
    });
    assert_eq!(pack.unwrap(), ["src/config.rs"]);

    let change = &snapshot.outcome.unwrap().changes[0];
    assert_eq!(change.base.as_ref().unwrap().text, original, "judged against the text the pack showed");
    let landed = change.land_on(Some(edited)).unwrap();
    assert_eq!(landed, crate::workspace::Landing::Write("pub fn current() -> u32 {\n    2\n}\n".into()));
}

#[tokio::test]
async fn a_pasted_log_in_the_issue_is_cut_to_its_head_and_tail_in_the_first_prompt() {
    let scratch = Scratch::new(&[("a.txt", "x\n")]);
    let mut spec = scratch.spec(PATCH_AND_FINISH, Budgets::default());
    let log: String = (0..20_000).map(|n| format!("2026-12-01T10:00:00Z worker {n} retried\n")).collect();
    spec.issue.text = format!("# Workers retry forever\n\n```\n{log}```\n\nThe last line says why.\n");
    let handle = start(spec, Arc::new(DiskBase), None).unwrap();
    let snapshot = handle.finished().await;
    assert_eq!(snapshot.status.state, RunState::Ready, "{:?}", snapshot.status);
    let user = scratch
        .ledger(&handle)
        .into_iter()
        .find_map(|event| match event {
            LedgerEvent::Prompt { user, .. } => Some(user),
            _ => None,
        })
        .unwrap();
    assert!(user.len() < log.len() / 4, "{} characters of {}", user.len(), log.len());
    assert!(user.contains("# Workers retry forever") && user.contains("The last line says why."), "head and tail");
    assert!(user.contains(" lines (") && user.contains("characters) cut ...]"), "the cut is told in whole lines");
}

/// The first prompt's tokens (system and first message) and the pack's, of a run of `issue`
/// with gemma (an 8k window, half of it the answer's) on a workspace of twelve Rust files.
async fn first_prompt_with_gemma(issue: &str) -> (usize, usize) {
    let files: Vec<(String, String)> = (0..12)
        .map(|n| {
            let body: String =
                (0..20).map(|k| format!("pub fn retry_{n}_{k}(attempt: u32) -> u32 {{ attempt + {k} }}\n")).collect();
            (format!("src/worker_{n}.rs"), body)
        })
        .collect();
    let borrowed: Vec<(&str, &str)> = files.iter().map(|(p, t)| (p.as_str(), t.as_str())).collect();
    let scratch = Scratch::new(&borrowed);
    let mut spec = scratch.spec("{\"content\":\"Nothing to change.\"}\n", Budgets::default());
    spec.provider.model = "gemma-2-9b".into();
    spec.issue.text = issue.into();
    spec.index = Some(Arc::new(crate::context::Index::build(scratch.dir.path(), None)));
    let handle = start(spec, Arc::new(DiskBase), None).unwrap();
    handle.finished().await;
    let ledger = scratch.ledger(&handle);
    let pack = ledger.iter().find_map(|event| match event {
        LedgerEvent::ContextPack { tokens, .. } => Some(*tokens),
        _ => None,
    });
    let prompt = ledger.iter().find_map(|event| match event {
        LedgerEvent::Prompt { system, user } => {
            Some(crate::context::estimate_tokens(system) + crate::context::estimate_tokens(user))
        }
        _ => None,
    });
    (prompt.unwrap(), pack.unwrap())
}

/// The room of a conversation with gemma (an 8k window, half of it the answer's), less the
/// standard tools' descriptions.
fn gemma_room() -> usize {
    let specs = crate::tools::Toolset::standard().specs();
    compact::room(8_192, 4_096, crate::context::estimate_tokens(&serde_json::to_string(&specs).unwrap()))
}

#[tokio::test]
async fn a_long_issue_leaves_the_first_prompt_room_by_a_smaller_pack() {
    let short = "# Workers retry forever\n\n`retry_3_4` in `worker_3.rs` never gives up.\n";
    let log: String = (0..2_000).map(|n| format!("2026-12-01T10:00:00Z worker {n} retried\n")).collect();
    let long = format!("{short}\n```\n{log}```\n");
    let room = gemma_room();

    let (short_prompt, short_pack) = first_prompt_with_gemma(short).await;
    let (long_prompt, long_pack) = first_prompt_with_gemma(&long).await;
    assert!(short_prompt <= room / 2, "{short_prompt} tokens of a room of {room}");
    assert!(long_prompt <= room / 2, "the pasted log and the pack: {long_prompt} tokens of a room of {room}");
    assert!(long_pack > 0, "the pack gives way, not all of it");
    assert!(long_pack < short_pack, "{long_pack} tokens beside the log, {short_pack} beside the short issue");
}

#[tokio::test]
async fn an_issue_in_chinese_is_cut_to_its_share_of_the_window_as_one_in_english_is() {
    // A character of Chinese is about a token: a log of 40,000 of them is cut to the issue's
    // share of the room, and the pack keeps its own.
    let short = "# 重试不停\n\n`worker_3.rs` 里的 `retry_3_4` 从不放弃。\n";
    let log: String = (0..2_000).map(|n| format!("工作线程 {n} 第二次重试失败,连接被拒绝\n")).collect();
    let long = format!("{short}\n```\n{log}```\n");
    let room = gemma_room();

    let (long_prompt, long_pack) = first_prompt_with_gemma(&long).await;
    assert!(long_prompt <= room / 2, "the pasted log and the pack: {long_prompt} tokens of a room of {room}");
    assert!(long_pack > 0, "the pack gives way, not all of it");
    // Counted as the estimate counts it: about a token a character of Chinese.
    assert!(crate::context::estimate_tokens(&log) >= log.chars().filter(|c| !c.is_ascii()).count());
}

#[tokio::test]
async fn a_file_read_before_compaction_took_it_out_must_be_read_again_to_be_written_whole() {
    let big: String = (0..60).map(|k| format!("pub fn keep_{k}() -> u32 {{ {k} }}\n")).collect();
    let filler: String = (0..120).map(|k| format!("line {k} of notes about nothing in particular\n")).collect();
    let short: String = filler.lines().take(40).map(|line| format!("{line}\n")).collect();
    let files =
        [("src/big.rs", big.as_str()), ("notes/a.txt", &filler), ("notes/b.txt", &filler), ("notes/c.txt", &short)];
    let scratch = Scratch::new(&files);
    // Reads `reads` in turn, then writes big.rs with one function of its sixty, on gemma: an
    // 8k window, half of it the answer's, so the oldest reads are elided as the run goes on.
    // What the write answered, and how many files the proposal changes.
    let read_then_write = |reads: &[&str]| {
        let read =
            |path: &&str| format!(r#"{{"tool_calls":[{{"name":"read_file","arguments":{{"path":"{path}"}}}}]}}"#);
        let write = serde_json::json!({"tool_calls": [{"name": "write_file", "arguments": {"path": "src/big.rs", "content": "pub fn keep_0() -> u32 { 0 }\n"}}]});
        let turns: Vec<String> =
            reads.iter().map(read).chain([write.to_string(), r#"{"content":"Kept one function."}"#.into()]).collect();
        let mut spec = scratch.spec(&(turns.join("\n") + "\n"), Budgets::default());
        spec.provider.model = "gemma-2-9b".into();
        async {
            let handle = start(spec, Arc::new(DiskBase), None).unwrap();
            let snapshot = handle.finished().await;
            let written = scratch.ledger(&handle).into_iter().find_map(|event| match event {
                LedgerEvent::ToolResult { name, ok, output, .. } if name == "write_file" => Some((ok, output)),
                _ => None,
            });
            (written.expect("the write was answered"), snapshot.outcome.unwrap().changes.len())
        }
    };

    // The first read is elided by the third, and nothing else shows the file.
    let ((ok, output), changed) = read_then_write(&["src/big.rs", "notes/a.txt", "notes/b.txt"]).await;
    assert!(!ok && output.contains("which you have not been shown"), "{output}");
    assert_eq!(changed, 0, "the file keeps its 59 other functions");
    // However the model spells the path it read.
    let ((ok, output), changed) = read_then_write(&["./src/big.rs", "notes/a.txt", "notes/b.txt"]).await;
    assert!(!ok && output.contains("which you have not been shown"), "{output}");
    assert_eq!(changed, 0, "the file keeps its 59 other functions");

    // Read again since, and that read still in the conversation when the first one is taken
    // out: the file is the model's to write.
    let ((ok, output), changed) = read_then_write(&["src/big.rs", "notes/a.txt", "src/big.rs", "notes/c.txt"]).await;
    assert!(ok, "{output}");
    assert_eq!(changed, 1);
}
