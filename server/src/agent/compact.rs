//! Keeping the conversation inside the model's context window, less the answer's room and
//! the tools' descriptions. One tool result (or one message of the run's own, as a build's
//! errors) may take at most a quarter of that, one turn's results half; once the whole
//! conversation passes three fifths of it, the oldest tool results, the run's older
//! messages and the long arguments of the model's older calls (never the issue, nor the
//! latest turn and what came after it, which the model has not seen yet) give way to a line
//! saying what they were, which the model can ask for again.

use super::files_shown::files_in;
use crate::context::estimate_tokens;
use crate::context::pack::CHARS_PER_TOKEN;
use crate::llm::Message;
use crate::workspace::cut_head_tail;

/// Share of the room (percent) one tool result may take.
const RESULT_SHARE_PERCENT: usize = 25;
/// Share of the room (percent) all results of one turn may take together.
const TURN_SHARE_PERCENT: usize = 50;
/// Share of the room (percent) past which old tool results are elided.
const COMPACT_AT_PERCENT: usize = 60;
/// Share of the room (percent) compaction brings the conversation down to.
const COMPACT_TO_PERCENT: usize = 45;

/// The tokens a conversation may take: the window less the answer's room and the tools'
/// descriptions (both are part of every request).
pub(super) fn room(context_window: u32, max_output: u32, tool_specs_tokens: usize) -> usize {
    let answer = max_output.min(context_window / 2) as usize;
    (context_window as usize).saturating_sub(answer).saturating_sub(tool_specs_tokens).max(1_000)
}

/// How many characters one tool result may take.
fn result_budget(room: usize) -> usize {
    (room * RESULT_SHARE_PERCENT / 100 * CHARS_PER_TOKEN).max(2_000)
}

/// How many characters of the issue the first message may hold: a quarter of the room,
/// beside the context pack's share of the window.
pub(super) fn issue_budget(room: usize) -> usize {
    result_budget(room)
}

/// How many characters all results of one turn may take together.
pub(super) fn turn_budget(room: usize) -> usize {
    (room * TURN_SHARE_PERCENT / 100 * CHARS_PER_TOKEN).max(4_000)
}

/// Whether a turn whose results have `left_in_turn` characters left has spent its budget:
/// a further reading call's result would be cut to almost nothing.
pub(super) fn turn_spent(left_in_turn: usize) -> bool {
    left_in_turn < TURN_SPENT_BELOW
}

/// Characters left in a turn under which it counts as spent.
const TURN_SPENT_BELOW: usize = 500;

/// How much file text one `read_file` may return, so that its result fits whole (whole
/// lines, and the line to go on from) rather than being cut in the middle: within what one
/// result may take and what the turn's earlier results left (`left_in_turn`), as
/// [`fit_result`] cuts it, less room for the result's own lines.
pub(super) fn read_budget(room: usize, left_in_turn: usize) -> usize {
    let cap = result_budget(room).min(left_in_turn.max(1_000));
    cap.saturating_sub(1_000).max(cap / 2)
}

/// `output` cut (head and tail kept) to what one result may take, and to `left_in_turn`
/// characters (what the turn's earlier results left; never under 1,000).
pub(super) fn fit_result(output: &str, room: usize, left_in_turn: usize) -> String {
    cut_head_tail(output, result_budget(room).min(left_in_turn.max(1_000)))
}

/// The room to compact to after the provider said the conversation did not fit, though its
/// estimate did: a quarter less than the estimate of what was sent (or than `room`, if less),
/// so that [`compact`] takes out about two thirds of it.
pub(super) fn room_after_overflow(messages: &[Message], room: usize) -> usize {
    let sent: usize = messages.iter().map(tokens).sum();
    (sent.min(room) * 3 / 4).max(1)
}

/// What one compaction took out of the conversation.
#[derive(Debug, Default, PartialEq, Eq)]
pub(super) struct Compaction {
    /// How many results, messages and earlier answers were shortened.
    pub elided: usize,
    /// Files whose text, as `read_file` showed it or `write_file` wrote it, is no longer in
    /// the conversation: the model no longer has what it saw of them.
    pub out_of_sight: Vec<String>,
}

/// Elides the oldest tool results, the run's older messages and the large arguments of the
/// model's older calls (a file written whole) until the conversation fits comfortably in
/// `room` tokens.
pub(super) fn compact(messages: &mut [Message], room: usize) -> Compaction {
    let mut done = Compaction::default();
    let mut total: usize = messages.iter().map(tokens).sum();
    if total <= room * COMPACT_AT_PERCENT / 100 {
        return done;
    }
    let target = room * COMPACT_TO_PERCENT / 100;
    // The results of the latest turn are what the model is about to read.
    let latest_turn = messages.iter().rposition(|m| matches!(m, Message::Assistant(_))).unwrap_or(0);
    // The first user message is the issue and the pack; later ones are the run's own.
    let issue = messages.iter().position(|m| matches!(m, Message::User(_)));
    let older: Vec<usize> = messages[..latest_turn]
        .iter()
        .enumerate()
        .filter(|(at, m)| match m {
            Message::ToolResult { .. } | Message::Assistant(_) => true,
            Message::User(_) => Some(*at) != issue,
            Message::System(_) => false,
        })
        .map(|(i, _)| i)
        .collect();
    for at in older {
        if total <= target {
            break;
        }
        let before = tokens(&messages[at]);
        let shortened = match &mut messages[at] {
            Message::Assistant(turn) => shorten_answer(turn, &mut done.out_of_sight),
            Message::ToolResult { call_id, name, content, .. } => {
                let again = format!("{name}, call the tool again if you need it");
                let elided = elide(content, &again);
                if elided && name == "read_file" {
                    let call_id = call_id.clone();
                    done.out_of_sight.extend(path_of_call(&messages[..at], &call_id));
                }
                elided
            }
            Message::User(content) => {
                let shown: Vec<String> = files_in(content).into_iter().map(|(path, _)| workspace_form(path)).collect();
                let elided =
                    elide(content, "an earlier message of the run; run_check shows the build's errors as they are now");
                if elided {
                    done.out_of_sight.extend(shown);
                }
                elided
            }
            Message::System(_) => false,
        };
        if shortened {
            total = total - before + tokens(&messages[at]);
            done.elided += 1;
        }
    }
    done.out_of_sight.sort();
    done.out_of_sight.dedup();
    done
}

/// Replaces `content` by a line saying what it was and how to have it `again`; false when
/// it already is one.
fn elide(content: &mut String, again: &str) -> bool {
    if content.starts_with(ELIDED) {
        return false;
    }
    let before = estimate_tokens(content);
    *content = format!("{ELIDED} ({before} tokens) to keep the conversation within the model's context: {again}]");
    true
}

/// Arguments longer than this (a file's content, a patch's texts) are elided from the
/// model's older calls.
const KEPT_ARGUMENT_CHARS: usize = 800;
/// An older answer's text longer than this keeps its head and tail.
const KEPT_ANSWER_CHARS: usize = 2_000;

/// Shortens an older answer of the model: the long string arguments of its calls, and its
/// text past [`KEPT_ANSWER_CHARS`] (which, through the text protocol, holds its calls).
/// The files it wrote whole go to `out_of_sight`. False when there was nothing to shorten.
fn shorten_answer(turn: &mut crate::llm::AssistantTurn, out_of_sight: &mut Vec<String>) -> bool {
    let mut shortened = false;
    // Once cut, an answer begins with the elision's mark and is not cut again.
    let text_cut = turn.content.as_ref().is_some_and(|text| {
        !text.starts_with(ELIDED) && crate::workspace::text_measure(text) > KEPT_ANSWER_CHARS + ELIDED_ANSWER.len()
    });
    if let Some(text) = turn.content.as_mut().filter(|_| text_cut) {
        *text = format!("{ELIDED_ANSWER}\n{}", cut_head_tail(text, KEPT_ANSWER_CHARS));
        shortened = true;
    }
    for call in &mut turn.tool_calls {
        let Some(arguments) = call.arguments.as_object_mut() else { continue };
        let mut long = false;
        for value in arguments.values_mut() {
            if let serde_json::Value::String(text) = value
                && text.len() > KEPT_ARGUMENT_CHARS
            {
                let lines = text.lines().count();
                *text = format!(
                    "{ELIDED} ({lines} lines) to keep the conversation within the model's context: the call was \
                     carried out as its result says; read_file shows the file as it is now]"
                );
                long = true;
            }
        }
        if (long || text_cut) && call.name == "write_file" {
            out_of_sight.extend(arguments.get("path").and_then(|path| path.as_str()).map(workspace_form));
        }
        shortened |= long;
    }
    shortened
}

/// The `path` argument of the call `call_id` among `earlier` messages, in its workspace form.
fn path_of_call(earlier: &[Message], call_id: &str) -> Option<String> {
    earlier.iter().rev().find_map(|message| match message {
        Message::Assistant(turn) => turn
            .tool_calls
            .iter()
            .find(|call| call.id == call_id)
            .and_then(|call| call.arguments.get("path")?.as_str().map(workspace_form)),
        _ => None,
    })
}

/// A path as the model wrote it (`./src/big.rs`) in the form the tools keep what it saw by
/// (`src/big.rs`); one the tools refuse stays as written.
fn workspace_form(path: &str) -> String {
    crate::workspace::WorkspacePath::parse(path).map_or_else(|_| path.to_owned(), |path| path.as_str().to_owned())
}

/// The tokens `messages` take, as estimated: what one request sends.
pub(super) fn conversation_tokens(messages: &[Message]) -> usize {
    messages.iter().map(tokens).sum()
}

/// The tokens of the model's answer `turn`, as estimated.
pub(super) fn answer_tokens(turn: &crate::llm::AssistantTurn) -> usize {
    let calls: usize = turn.tool_calls.iter().map(|call| estimate_tokens(&call.arguments.to_string()) + 10).sum();
    turn.content.as_deref().map_or(0, estimate_tokens) + calls
}

/// How an older answer cut to its head and tail begins.
const ELIDED_ANSWER: &str = "[earlier output elided in part, to keep the conversation within the model's context]";

/// The lines of `path` that the `read_file` results and the run's messages still whole in
/// `messages` show, and whether a `write_file` of it with its content is still there: what
/// the model has of the file now.
pub(super) fn still_shown<'a>(messages: &'a [Message], path: &str) -> (Vec<&'a str>, bool) {
    let mut lines = Vec::new();
    let mut written_whole = false;
    for (at, message) in messages.iter().enumerate() {
        match message {
            Message::ToolResult { call_id, name, content, is_error: false }
                if name == "read_file"
                    && !content.starts_with(ELIDED)
                    && path_of_call(&messages[..at], call_id).as_deref() == Some(path) =>
            {
                // Past its first line, which says what it is.
                lines.extend(content.lines().skip(1))
            }
            Message::User(content) if !content.starts_with(ELIDED) => lines.extend(
                files_in(content).into_iter().filter(|(shown, _)| workspace_form(shown) == path).flat_map(|(_, l)| l),
            ),
            Message::Assistant(turn) => {
                // The text a call of `tool` on the file gave as `argument`, if still whole.
                let whole = |tool: &'static str, argument: &'static str| {
                    turn.tool_calls
                        .iter()
                        .filter(move |call| {
                            call.name == tool
                                && call.arguments.get("path").and_then(|p| p.as_str()).map(workspace_form).as_deref()
                                    == Some(path)
                        })
                        .filter_map(move |call| call.arguments.get(argument)?.as_str())
                        .filter(|text| !text.starts_with(ELIDED))
                };
                // The lines its patches wrote are the model's own.
                lines.extend(whole("patch_file", "new_text").flat_map(str::lines));
                written_whole |= whole("write_file", "content").next().is_some();
            }
            _ => {}
        }
    }
    (lines, written_whole)
}

/// How an elided result begins.
const ELIDED: &str = "[earlier output elided";

fn tokens(message: &Message) -> usize {
    match message {
        Message::System(text) | Message::User(text) => estimate_tokens(text),
        Message::Assistant(turn) => answer_tokens(turn),
        Message::ToolResult { content, .. } => estimate_tokens(content) + 10,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn result(n: usize, size: usize) -> Message {
        Message::ToolResult {
            call_id: format!("c{n}"),
            name: "read_file".into(),
            content: format!("result {n}: {}", "x".repeat(size)),
            is_error: false,
        }
    }

    #[test]
    fn old_results_give_way_and_the_issue_and_latest_results_stay() {
        let issue = "Implement this issue: make parse() accept tabs".to_owned();
        let mut messages = vec![Message::System("rules".into()), Message::User(issue.clone())];
        for n in 0..20 {
            messages.push(Message::Assistant(crate::llm::AssistantTurn::default()));
            messages.push(result(n, 4_000));
        }
        // 20 results of about 1,000 tokens each in an 8,192-token window.
        let elided = compact(&mut messages, 8_192).elided;
        assert!(elided > 0);
        let total: usize = messages.iter().map(tokens).sum();
        assert!(total <= 8_192 * COMPACT_TO_PERCENT / 100, "{total}");
        assert!(matches!(&messages[1], Message::User(text) if *text == issue));
        let contents: Vec<&str> = messages
            .iter()
            .filter_map(|m| match m {
                Message::ToolResult { content, .. } => Some(content.as_str()),
                _ => None,
            })
            .collect();
        assert!(contents[0].starts_with(ELIDED) && contents[0].contains("read_file"));
        assert!(contents[19].starts_with("result 19"), "the latest turn's result is whole");
        assert!(contents.iter().filter(|c| c.starts_with("result")).count() >= 2, "recent ones stay while they fit");

        let again = compact(&mut messages, 8_192).elided;
        assert_eq!(again, 0, "nothing more to do while it fits");
    }

    #[test]
    fn the_runs_older_messages_give_way_too_and_the_issue_stays() {
        let issue = "Implement this issue: make parse() accept tabs".to_owned();
        let mut messages = vec![Message::System("rules".into()), Message::User(issue.clone())];
        for round in 0..6 {
            messages.push(Message::Assistant(crate::llm::AssistantTurn::default()));
            messages.push(result(round, 400));
            messages.push(Message::User(format!("The check failed in round {round}: {}", "error text ".repeat(900))));
        }
        let elided = compact(&mut messages, 8_192).elided;
        assert!(elided > 0);
        let total: usize = messages.iter().map(tokens).sum();
        assert!(total <= 8_192 * COMPACT_TO_PERCENT / 100, "{total}");
        let users: Vec<&str> = messages
            .iter()
            .filter_map(|m| match m {
                Message::User(text) => Some(text.as_str()),
                _ => None,
            })
            .collect();
        assert_eq!(users[0], issue, "the issue is never elided");
        assert!(users[1].starts_with(ELIDED) && users[1].contains("run_check"), "{}", users[1]);
        assert!(users[6].starts_with("The check failed in round 5"), "after the latest turn: not yet read");
    }

    #[test]
    fn files_the_model_wrote_whole_earlier_give_way_and_leave_its_sight() {
        let write = |n: usize| {
            let content: String = (0..400).map(|k| format!("line {k} of version {n}\n")).collect();
            let call = crate::llm::ToolCall {
                id: format!("w{n}"),
                name: "write_file".into(),
                arguments: serde_json::json!({"path": "src/big.rs", "content": content}),
                malformed: None,
            };
            Message::Assistant(crate::llm::AssistantTurn { tool_calls: vec![call], ..Default::default() })
        };
        let read = crate::llm::ToolCall {
            id: "c0".into(),
            name: "read_file".into(),
            arguments: serde_json::json!({"path": "src/small.rs"}),
            malformed: None,
        };
        let mut messages = vec![
            Message::System("rules".into()),
            Message::User("issue".into()),
            Message::Assistant(crate::llm::AssistantTurn { tool_calls: vec![read], ..Default::default() }),
            result(0, 3_000),
        ];
        for n in 0..4 {
            messages.push(write(n));
            messages.push(Message::ToolResult {
                call_id: format!("w{n}"),
                name: "write_file".into(),
                content: "replaced src/big.rs (400 lines).".into(),
                is_error: false,
            });
        }
        // Four whole files of about 1,700 tokens each, in a room of 8,192.
        let done = compact(&mut messages, 8_192);
        let total: usize = messages.iter().map(tokens).sum();
        assert!(total <= 8_192 * COMPACT_TO_PERCENT / 100, "{total}");
        assert_eq!(done.out_of_sight, ["src/big.rs", "src/small.rs"]);
        let contents: Vec<String> = messages
            .iter()
            .filter_map(|m| match m {
                Message::Assistant(turn) if turn.tool_calls[0].name == "write_file" => {
                    Some(turn.tool_calls[0].arguments["content"].as_str().unwrap().to_owned())
                }
                _ => None,
            })
            .collect();
        assert!(contents[0].starts_with(ELIDED) && contents[0].contains("read_file shows the file"), "{}", contents[0]);
        assert!(contents[3].starts_with("line 0 of version 3"), "the latest turn is whole");
        let Message::Assistant(first) = &messages[4] else { unreachable!() };
        assert_eq!(first.tool_calls[0].arguments["path"], "src/big.rs", "short arguments stay");
    }

    #[test]
    fn files_an_earlier_message_of_the_run_showed_leave_its_sight_with_it() {
        let shown = |round: usize, path: &str| {
            let text: String = (0..120).map(|k| format!("let v{k} = {round};\n")).collect();
            let file = super::super::files_shown::shown_file(path, &text, &[3]);
            Message::User(format!(
                "Round {round}. {}; fix the first error from it.\n{file}",
                super::super::files_shown::FILES_INTRO
            ))
        };
        let mut messages = vec![Message::System("rules".into()), Message::User("issue".into())];
        for (round, path) in ["./src/old.rs", "src/kept.rs", "src/kept.rs", "src/kept.rs"].into_iter().enumerate() {
            messages.push(Message::Assistant(crate::llm::AssistantTurn::default()));
            messages.push(shown(round, path));
        }
        let done = compact(&mut messages, 4_096);
        assert!(done.elided >= 2, "{done:?}");
        assert_eq!(done.out_of_sight, ["src/kept.rs", "src/old.rs"], "in the form the tools keep them by");
        // What the messages still whole show stays the model's: the last one's lines among them.
        let (lines, written_whole) = still_shown(&messages, "src/kept.rs");
        assert!(!written_whole);
        assert!(lines.len() < 360 && lines.contains(&"let v119 = 3;"), "{} lines", lines.len());
        assert!(still_shown(&messages, "src/old.rs").0.is_empty(), "its message is elided");

        // What the model's own patches still whole wrote stays its own.
        let patch = crate::llm::ToolCall {
            id: "p1".into(),
            name: "patch_file".into(),
            arguments: serde_json::json!({"path": "./src/old.rs", "old_text": "let v1 = 0;", "new_text": "let fixed = 1;\nlet more = 2;"}),
            malformed: None,
        };
        messages.push(Message::Assistant(crate::llm::AssistantTurn { tool_calls: vec![patch], ..Default::default() }));
        assert_eq!(still_shown(&messages, "src/old.rs").0, ["let fixed = 1;", "let more = 2;"]);
    }

    #[test]
    fn an_answer_cut_once_is_not_cut_again_so_a_window_too_small_is_told() {
        let long = crate::llm::AssistantTurn { content: Some("é".repeat(9_000)), ..Default::default() };
        let mut messages = vec![
            Message::System("rules".into()),
            Message::User(format!("issue {}", "words ".repeat(4_000))),
            Message::Assistant(long),
            Message::Assistant(crate::llm::AssistantTurn::default()),
        ];
        assert_eq!(compact(&mut messages, 8_192).elided, 1);
        let Message::Assistant(cut) = &messages[2] else { unreachable!() };
        assert!(cut.content.as_deref().unwrap().starts_with(ELIDED), "{:?}", cut.content);
        // The issue alone is over the window: nothing more can give way, and compaction says so.
        assert_eq!(compact(&mut messages, 8_192), Compaction::default());
    }

    #[test]
    fn a_roomy_window_changes_nothing_and_one_result_takes_at_most_a_quarter() {
        let mut messages = vec![Message::User("issue".into()), result(0, 40_000)];
        assert_eq!(compact(&mut messages, 200_000), Compaction::default());
        let fitted = fit_result(&"y".repeat(100_000), 8_192, usize::MAX);
        assert!(fitted.len() < 8_192 + 200, "{}", fitted.len());
        assert!(fitted.contains("characters cut"));
        let late_in_turn = fit_result(&"y".repeat(100_000), 8_192, 3_000);
        assert!(late_in_turn.len() < 3_000 + 200, "a turn's results share their budget");
        // gemma: 8,192 tokens, 4,096 of them for the answer, 1,500 for the tools.
        assert_eq!(room(8_192, 4_096, 1_500), 2_596);
    }

    #[test]
    fn a_read_fits_what_is_left_of_the_turn_with_room_for_its_own_lines() {
        // What read_file adds to the text it returns: its first line and where to go on.
        let own_lines = 300;
        for (room, left) in [(2_596, usize::MAX), (2_596, 1_500), (8_192, 3_000), (8_192, 500), (100_000, 12_000)] {
            let text = "x".repeat(read_budget(room, left) + own_lines);
            assert_eq!(fit_result(&text, room, left), text, "room {room}, {left} left in the turn");
            assert!(read_budget(room, left) >= 500, "a read always brings something");
        }
        assert_eq!(read_budget(100_000, usize::MAX), 99_000, "a roomy turn reads as before");
    }
}
