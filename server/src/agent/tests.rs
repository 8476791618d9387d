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
        let dir = crate::testing::tempdir();
        for (path, text) in files {
            let absolute = dir.path().join(path);
            std::fs::create_dir_all(absolute.parent().unwrap()).unwrap();
            std::fs::write(absolute, text).unwrap();
        }
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
