//! Run records on disk: `.issuewright/runs/<id>/` holds `ledger.jsonl`, `proposal.json` and
//! `diff.patch`. `.issuewright/` carries a `.gitignore` of `*`, so records are never committed.

mod id;
mod ledger;

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

pub use id::{BadRunId, RunId};
pub use ledger::{LedgerEvent, LedgerLine};

use crate::llm::Usage;
use crate::workspace::FileChange;

/// The folder below the workspace root that holds run records.
pub const RECORDS_DIR: &str = ".issuewright";

/// Why a run record could not be written or read.
#[derive(Debug, thiserror::Error)]
pub enum SessionError {
    /// File system trouble.
    #[error("run record `{path}`: {source}")]
    Io {
        /// The file or folder.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A record file is not what issuewright wrote.
    #[error("run record `{path}` is damaged: {message}")]
    Damaged {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        message: String,
    },
    /// No record for the id.
    #[error("no run `{0}` in this workspace")]
    UnknownRun(RunId),
}

impl SessionError {
    /// True when a record of that id is there already.
    pub fn is_already_there(&self) -> bool {
        matches!(self, SessionError::Io { source, .. } if source.kind() == std::io::ErrorKind::AlreadyExists)
    }
}

fn io_error(path: &Path) -> impl FnOnce(std::io::Error) -> SessionError + '_ {
    move |source| SessionError::Io { path: path.to_owned(), source }
}

/// One ledger line for `event`, stamped now, newline included.
fn ledger_line(event: LedgerEvent) -> String {
    let line = LedgerLine { ts: jiff::Timestamp::now().to_string(), event };
    let mut json = serde_json::to_string(&line).expect("ledger events serialise");
    json.push('\n');
    json
}

/// The outcome of a run as stored in `proposal.json`: enough to review and apply it after
/// a restart.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct StoredProposal {
    /// The run.
    pub run_id: RunId,
    /// The title.
    pub title: String,
    /// `ready`, `failed` or `cancelled`.
    pub state: String,
    /// Rounds used.
    pub rounds: u32,
    /// Tool calls made.
    pub tool_calls: u32,
    /// Of those, how many failed.
    #[serde(default)]
    pub failed_tool_calls: u32,
    /// Tokens used by the whole run.
    #[serde(default)]
    pub usage: Usage,
    /// The model's summary, or why the run stopped.
    pub summary: String,
    /// The error that ended the run, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// The proposed changes.
    pub changes: Vec<FileChange>,
    /// The final validation of the proposal (the check's and the tests' reports), as the
    /// agent recorded it; absent when nothing validated it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub validation: Option<serde_json::Value>,
    /// The run status's verdicts (`{build, tests, errors, preexisting, warnings, runs}`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub verdicts: Option<serde_json::Value>,
    /// Tool calls whose arguments broke their schema.
    #[serde(default)]
    pub schema_violations: u32,
    /// Answers the text protocol had to repair.
    #[serde(default)]
    pub parse_repairs: u32,
    /// Set when the user discarded the proposal; it may not be applied then.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub discarded: bool,
}

/// The record of one run, open for appending.
pub struct RunRecord {
    dir: PathBuf,
    ledger: Mutex<File>,
    trace: Mutex<Option<File>>,
}

impl RunRecord {
    /// Creates `.issuewright/runs/<id>/` under `root` (and `.issuewright/.gitignore`); a
    /// folder of that id already there is an error (two runs never share a record).
    pub fn create(root: &Path, id: &RunId) -> Result<Self, SessionError> {
        let records = root.join(RECORDS_DIR);
        let runs = records.join("runs");
        // A link committed in a repository must not carry the records, which hold your code,
        // out of the workspace.
        for (path, name) in [(&records, "`.issuewright`"), (&runs, "`.issuewright/runs`")] {
            if path.symlink_metadata().is_ok_and(|m| m.file_type().is_symlink()) {
                let source =
                    std::io::Error::other(format!("{name} is a link; run records are kept in the workspace only"));
                return Err(SessionError::Io { path: path.clone(), source });
            }
        }
        std::fs::create_dir_all(&runs).map_err(io_error(&runs))?;
        let dir = runs.join(id.as_str());
        std::fs::create_dir(&dir).map_err(io_error(&dir))?;
        let gitignore = records.join(".gitignore");
        // Written only where nothing is, not even a link to elsewhere (`create_new` follows none).
        match OpenOptions::new().write(true).create_new(true).open(&gitignore) {
            Ok(mut file) => file.write_all(b"*\n").map_err(io_error(&gitignore))?,
            Err(error) if error.kind() == std::io::ErrorKind::AlreadyExists => {}
            Err(error) => return Err(io_error(&gitignore)(error)),
        }
        let ledger_path = dir.join("ledger.jsonl");
        let ledger = OpenOptions::new().create(true).append(true).open(&ledger_path).map_err(io_error(&ledger_path))?;
        Ok(Self { dir, ledger: Mutex::new(ledger), trace: Mutex::new(None) })
    }

    /// The run's folder.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Appends one event as a line of `ledger.jsonl`.
    pub fn append(&self, event: LedgerEvent) -> Result<(), SessionError> {
        let json = ledger_line(event);
        let path = self.dir.join("ledger.jsonl");
        let mut file = self.ledger.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        file.write_all(json.as_bytes()).map_err(io_error(&path))
    }

    /// Appends one entry of raw provider traffic to `trace.jsonl` (for people; the model
    /// never reads it). The file is created on the first entry.
    pub fn trace(&self, entry: serde_json::Value) -> Result<(), SessionError> {
        let path = self.dir.join("trace.jsonl");
        let mut file = self.trace.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if file.is_none() {
            *file = Some(OpenOptions::new().create(true).append(true).open(&path).map_err(io_error(&path))?);
        }
        let mut line = serde_json::json!({"ts": jiff::Timestamp::now().to_string()});
        if let (Some(stamp), serde_json::Value::Object(fields)) = (line.as_object_mut(), entry) {
            stamp.extend(fields);
        }
        let mut text = line.to_string();
        text.push('\n');
        file.as_mut().expect("opened above").write_all(text.as_bytes()).map_err(io_error(&path))
    }

    /// Writes `proposal.json` and `diff.patch`.
    pub fn write_proposal(&self, proposal: &StoredProposal, diff: &str) -> Result<(), SessionError> {
        let path = self.dir.join("proposal.json");
        let json = serde_json::to_string_pretty(proposal).expect("proposals serialise");
        write_whole(&path, json.as_bytes())?;
        let path = self.dir.join(DIFF_FILE);
        write_whole(&path, diff.as_bytes())
    }
}

/// Appends an event to the ledger of an existing run (e.g. after a restart).
pub fn append_to(root: &Path, id: &RunId, event: LedgerEvent) -> Result<(), SessionError> {
    let path = run_dir(root, id).join("ledger.jsonl");
    if !path.exists() {
        return Err(SessionError::UnknownRun(id.clone()));
    }
    let json = ledger_line(event);
    let mut file = OpenOptions::new().append(true).open(&path).map_err(io_error(&path))?;
    file.write_all(json.as_bytes()).map_err(io_error(&path))
}

/// The name of a run's `git apply`-able patch in its folder.
pub const DIFF_FILE: &str = "diff.patch";

/// Where run `id`'s patch lies, relative to the workspace root (`.issuewright/runs/<id>/diff.patch`),
/// for telling a user what to `git apply`.
pub fn diff_in_workspace(id: &RunId) -> String {
    format!("{RECORDS_DIR}/runs/{}/{DIFF_FILE}", id.as_str())
}

/// The folder of run `id` under `root`.
pub fn run_dir(root: &Path, id: &RunId) -> PathBuf {
    root.join(RECORDS_DIR).join("runs").join(id.as_str())
}

/// Reads the stored proposal of a finished run.
pub fn load_proposal(root: &Path, id: &RunId) -> Result<StoredProposal, SessionError> {
    let path = run_dir(root, id).join("proposal.json");
    let text = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
            return Err(SessionError::UnknownRun(id.clone()));
        }
        Err(source) => return Err(SessionError::Io { path, source }),
    };
    serde_json::from_str(&text).map_err(|error| SessionError::Damaged { path, message: error.to_string() })
}

/// Marks a run's stored proposal as discarded and notes it in the ledger; one already marked
/// is left as it is.
pub fn mark_discarded(root: &Path, id: &RunId) -> Result<(), SessionError> {
    let mut proposal = load_proposal(root, id)?;
    if proposal.discarded {
        return Ok(());
    }
    proposal.discarded = true;
    let path = run_dir(root, id).join("proposal.json");
    let json = serde_json::to_string_pretty(&proposal).expect("proposals serialise");
    write_whole(&path, json.as_bytes())?;
    append_to(root, id, LedgerEvent::ProposalDiscarded)
}

/// Replaces a record file whole or not at all: a crash or a full disk never leaves half a
/// proposal.
fn write_whole(path: &Path, bytes: &[u8]) -> Result<(), SessionError> {
    crate::workspace::write_atomically(path, bytes).map_err(io_error(path))
}

/// Reads a run's ledger, line by line; a damaged line is reported with its number.
pub fn read_ledger(root: &Path, id: &RunId) -> Result<Vec<LedgerLine>, SessionError> {
    let path = run_dir(root, id).join("ledger.jsonl");
    let text = std::fs::read_to_string(&path).map_err(io_error(&path))?;
    text.lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty())
        .map(|(number, line)| {
            serde_json::from_str(line).map_err(|error| SessionError::Damaged {
                path: path.clone(),
                message: format!("line {}: {error}", number + 1),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workspace::{BaseText, WorkspacePath};

    #[test]
    fn two_runs_never_share_a_record_and_a_linked_folder_is_refused() {
        let dir = crate::testing::tempdir();
        let id = RunId::generate();
        RunRecord::create(dir.path(), &id).unwrap();
        let again = RunRecord::create(dir.path(), &id).err().expect("the id is taken");
        assert!(again.is_already_there(), "{again}");

        let linked = crate::testing::tempdir();
        std::fs::create_dir_all(dir.path().join("elsewhere")).unwrap();
        std::os::unix::fs::symlink(dir.path().join("elsewhere"), linked.path().join(RECORDS_DIR)).unwrap();
        let refused = RunRecord::create(linked.path(), &id).err().expect("refused");
        assert!(refused.to_string().contains("is a link"), "{refused}");
        assert_eq!(std::fs::read_dir(dir.path().join("elsewhere")).unwrap().count(), 0, "nothing written there");

        // Nor a link further in: the runs folder, or a `.gitignore` pointing out of the workspace.
        let inner = crate::testing::tempdir();
        std::fs::create_dir(inner.path().join(RECORDS_DIR)).unwrap();
        std::os::unix::fs::symlink(dir.path().join("elsewhere"), inner.path().join(RECORDS_DIR).join("runs")).unwrap();
        let refused = RunRecord::create(inner.path(), &id).err().expect("refused");
        assert!(refused.to_string().contains("`.issuewright/runs` is a link"), "{refused}");
        assert_eq!(std::fs::read_dir(dir.path().join("elsewhere")).unwrap().count(), 0, "nothing written there");
        std::fs::remove_file(inner.path().join(RECORDS_DIR).join("runs")).unwrap();
        let target = dir.path().join("elsewhere").join("planted");
        std::os::unix::fs::symlink(&target, inner.path().join(RECORDS_DIR).join(".gitignore")).unwrap();
        RunRecord::create(inner.path(), &id).unwrap();
        assert!(!target.exists(), "the dangling link's target is not created");
    }

    #[test]
    fn records_round_trip_and_ignore_themselves() {
        let dir = crate::testing::tempdir();
        let id = RunId::generate();
        let record = RunRecord::create(dir.path(), &id).unwrap();
        record.append(LedgerEvent::Error { message: "first".into() }).unwrap();
        record.append(LedgerEvent::Error { message: "second".into() }).unwrap();
        let proposal = StoredProposal {
            run_id: id.clone(),
            title: "t".into(),
            state: "ready".into(),
            rounds: 2,
            tool_calls: 3,
            failed_tool_calls: 1,
            usage: Usage { input_tokens: 10, output_tokens: 2 },
            summary: "done".into(),
            error: None,
            changes: vec![FileChange {
                path: WorkspacePath::parse("a.txt").unwrap(),
                base: Some(BaseText { text: "a".into(), version: Some(4) }),
                new_text: Some("b".into()),
            }],
            validation: Some(serde_json::json!({"check": {"passed": true}})),
            verdicts: None,
            schema_violations: 0,
            parse_repairs: 0,
            discarded: false,
        };
        record.write_proposal(&proposal, "diff").unwrap();

        assert_eq!(std::fs::read_to_string(dir.path().join(".issuewright/.gitignore")).unwrap(), "*\n");
        assert_eq!(load_proposal(dir.path(), &id).unwrap(), proposal);
        let ledger = read_ledger(dir.path(), &id).unwrap();
        assert_eq!(ledger.len(), 2);
        assert_eq!(ledger[1].event, LedgerEvent::Error { message: "second".into() });

        mark_discarded(dir.path(), &id).unwrap();
        assert!(load_proposal(dir.path(), &id).unwrap().discarded);
        let ledger = read_ledger(dir.path(), &id).unwrap();
        assert_eq!(ledger.last().unwrap().event, LedgerEvent::ProposalDiscarded);
    }

    #[test]
    fn missing_and_damaged_records_are_named() {
        let dir = crate::testing::tempdir();
        let id = RunId::generate();
        assert!(matches!(load_proposal(dir.path(), &id), Err(SessionError::UnknownRun(_))));
        let record = RunRecord::create(dir.path(), &id).unwrap();
        std::fs::write(record.dir().join("proposal.json"), "{not json").unwrap();
        let damaged = load_proposal(dir.path(), &id).unwrap_err();
        assert!(damaged.to_string().contains("is damaged"), "{damaged}");
        std::fs::write(
            record.dir().join("ledger.jsonl"),
            "{\"ts\":\"x\",\"event\":\"error\",\"message\":\"m\"}\nnope\n",
        )
        .unwrap();
        let damaged = read_ledger(dir.path(), &id).unwrap_err();
        assert!(damaged.to_string().contains("line 2"), "{damaged}");
    }
}
