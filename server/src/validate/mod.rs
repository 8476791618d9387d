//! Validation: the project's real check and test commands run on the proposed code in the
//! shadow workspace, their output parsed into problems placed in workspace files.
//!
//! A [`Validator`] belongs to one workspace. Each call syncs the shadow (the user's files,
//! their unsaved buffers and the run's overlay), runs one command there with a time limit,
//! and reads its output with the parsers of that tool.

mod cargo_root;
pub mod command;
pub mod detect;
mod ignored_inputs;
mod maven_root;
mod missing_tool;
mod nested;
mod node_root;
pub mod parse;
pub mod problem;
mod repository;
pub mod shadow;
mod summary;

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::SystemTime;

use tokio_util::sync::CancellationToken;

pub use command::{CommandOutput, CommandSpec};
pub use detect::{BadFilter, BuildFilesStamp, Plan, Step, Toolchain, check_filter};
pub use parse::{Format, MatcherError, PathMap, ProblemMatcher};
pub use problem::{ColumnUnit, Place, Problem, Related, Replacement, Severity, Spot, TextsOnce};
pub use shadow::{Shadow, ShadowError, SyncStats};

use crate::config::ValidateSettings;
use crate::workspace::{WorkspacePath, strip_ansi};

/// Which command a validation runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// The check (compile, type-check).
    Check,
    /// The tests.
    Test,
}

impl Kind {
    /// `check` or `test`.
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Check => "check",
            Kind::Test => "test",
        }
    }
}

/// Why a validation could not run at all.
#[derive(Debug, thiserror::Error)]
pub enum ValidateError {
    /// The shadow workspace could not be prepared.
    #[error(transparent)]
    Shadow(#[from] ShadowError),
    /// The configured problem matcher is unusable.
    #[error(transparent)]
    Matcher(#[from] MatcherError),
    /// The blocking work was lost (the runtime is shutting down).
    #[error("validation was interrupted: {0}")]
    Interrupted(String),
}

/// What one validation found.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Report {
    /// Check or test.
    pub kind: Kind,
    /// The command as a person would type it; `None` when there is none to run.
    pub command: Option<String>,
    /// The exit code.
    pub status: Option<i32>,
    /// Killed at the time limit.
    pub timed_out: bool,
    /// Stopped by a cancel.
    pub cancelled: bool,
    /// It ran and exited with 0.
    pub passed: bool,
    /// The problems found, in the tools' coordinates.
    pub problems: Vec<Problem>,
    /// The output, kept whole (ANSI removed) when it failed and no error in it could be read.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unparsed: Option<String>,
    /// Why nothing ran (no command, or the program could not be started).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub not_run: Option<String>,
    /// The output, ANSI removed, for the record.
    #[serde(skip)]
    pub output: String,
    /// A compact account for the model: counts by file, the first errors with a few lines.
    pub summary: String,
    /// Wall time of the command, in milliseconds.
    pub duration_ms: u64,
    /// What the shadow sync did.
    pub sync: SyncStats,
    /// The folders of the nested projects whose builds ran too (see [`Validator::run`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub covered: Vec<String>,
}

impl Report {
    /// Problems of severity error.
    pub fn errors(&self) -> usize {
        self.problems.iter().filter(|p| p.severity == Severity::Error).count()
    }

    /// Problems of severity warning.
    pub fn warnings(&self) -> usize {
        self.problems.iter().filter(|p| p.severity == Severity::Warning).count()
    }

    /// Errors, counting a failure with no readable error as one.
    pub fn error_count(&self) -> usize {
        if self.passed { self.errors() } else { self.errors().max(1) }
    }

    /// True when the command did not run to its end (not run, timed out or cancelled): its
    /// problems say nothing about the proposal as a whole.
    pub fn inconclusive(&self) -> bool {
        self.not_run.is_some() || self.timed_out || self.cancelled
    }

    /// How many of this report's errors (as [`Report::error_count`] counts them) `before`,
    /// a report of the same command on the workspace without the proposal, already had.
    /// Errors match by file, tool, code and message, not by line: edits move lines.
    pub fn errors_already_in(&self, before: &Report) -> usize {
        // A time-out or a cancel is never an old failure; an old one that ended so tells nothing.
        if before.passed || before.inconclusive() || self.inconclusive() {
            return 0;
        }
        let mut earlier: HashMap<problem::ProblemIdentity<'_>, usize> = HashMap::new();
        for problem in before.problems.iter().filter(|p| p.severity == Severity::Error) {
            *earlier.entry(problem.identity()).or_default() += 1;
        }
        let mut matched = 0;
        for problem in self.problems.iter().filter(|p| p.severity == Severity::Error) {
            if let Some(left) = earlier.get_mut(&problem.identity())
                && *left > 0
            {
                *left -= 1;
                matched += 1;
            }
        }
        // A failure neither run could read counts as the same failure.
        if self.errors() == 0 && !self.passed && before.errors() == 0 { 1 } else { matched }
    }

    fn nothing(kind: Kind, reason: String) -> Self {
        Self {
            kind,
            command: None,
            status: None,
            timed_out: false,
            cancelled: false,
            passed: false,
            problems: vec![],
            unparsed: None,
            summary: reason.clone(),
            not_run: Some(reason),
            output: String::new(),
            duration_ms: 0,
            sync: SyncStats::default(),
            covered: Vec::new(),
        }
    }
}

/// Editor buffers (absolute path and text) as validation overrides: each buffer inside
/// `root` stands in for its file.
pub fn buffer_overrides(
    root: &crate::workspace::Root,
    buffers: impl IntoIterator<Item = (PathBuf, String)>,
) -> BTreeMap<WorkspacePath, Option<String>> {
    buffers
        .into_iter()
        .filter_map(|(absolute, text)| Some((root.relative(&absolute).filter(|p| !p.is_root())?, Some(text))))
        .collect()
}

/// Runs a workspace's check and test commands in its shadow.
pub struct Validator {
    root: PathBuf,
    settings: ValidateSettings,
    plan: Plan,
    matcher: Option<ProblemMatcher>,
    cache_dir: Option<PathBuf>,
    shadow: tokio::sync::Mutex<Option<Shadow>>,
    /// The validators of the projects nested in the workspace that its build does not
    /// cover, by folder, with the stamp of the build files they were detected under.
    nested: NestedValidators,
    /// The folders that may hold nested projects, and when they were looked for.
    candidates: Arc<std::sync::Mutex<Option<FoundCandidates>>>,
}

/// Folders that may hold nested projects, and when they were looked for.
type FoundCandidates = (std::time::Instant, Arc<Vec<String>>);
/// Validators of nested projects by folder, each with the build files' stamp it was made under.
type NestedValidators = Arc<std::sync::Mutex<HashMap<String, (detect::BuildFilesStamp, Arc<Validator>)>>>;

impl std::fmt::Debug for Validator {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Validator").field("root", &self.root).field("plan", &self.plan).finish()
    }
}

/// Most nested projects validated at once, beside the workspace itself.
const MAX_NESTED_PROJECTS: usize = 4;
/// How long the folders found to hold nested projects are taken as they are: a project
/// created since (`cargo new tools/gen`) is found after that.
const CANDIDATES_FRESH: std::time::Duration = std::time::Duration::from_secs(30);
/// Longest output kept as `unparsed`, in characters (head and tail).
const MAX_UNPARSED_CHARS: usize = 200_000;
/// How often a validation looks again whether another process still builds in the shadow.
const LOCK_POLL: std::time::Duration = std::time::Duration::from_millis(100);

impl Validator {
    /// A validator for the workspace at `root` (canonical), with its commands detected now.
    /// `cache_dir` overrides the user's cache directory (where the shadow lives).
    pub fn new(root: &Path, settings: ValidateSettings, cache_dir: Option<PathBuf>) -> Result<Self, ValidateError> {
        let matcher = settings.problem_matcher.as_deref().map(ProblemMatcher::new).transpose()?;
        let plan = detect::detect(root, &settings);
        Ok(Self {
            root: root.to_owned(),
            settings,
            plan,
            matcher,
            cache_dir,
            shadow: tokio::sync::Mutex::new(None),
            nested: Default::default(),
            candidates: Default::default(),
        })
    }

    /// What it runs.
    pub fn plan(&self) -> &Plan {
        &self.plan
    }

    /// The settings it was made with.
    pub fn settings(&self) -> &ValidateSettings {
        &self.settings
    }

    /// Whether a test command exists.
    pub fn has_tests(&self) -> bool {
        self.plan.test.is_some()
    }

    /// Runs the check or the tests on the workspace with `overrides` on top (unsaved
    /// buffers and staged changes: a text, or `None` for a deleted file). One validation
    /// runs at a time per workspace; a cancel kills the command.
    ///
    /// A project nested in the workspace with another build tool than the workspace's (the
    /// `src-tauri/` crate of a TypeScript app) whose files a change touches (the overrides,
    /// or the repository's uncommitted changes) has its own build run too, after the
    /// workspace's, with every override; `filter` narrows only the workspace's own tests,
    /// and a configured command is taken to cover the whole workspace.
    pub async fn run(
        &self,
        kind: Kind,
        overrides: BTreeMap<WorkspacePath, Option<String>>,
        filter: Option<String>,
        cancel: &CancellationToken,
    ) -> Result<Report, ValidateError> {
        self.run_covering(kind, overrides, filter, cancel, &[]).await
    }

    /// [`run`](Self::run), with the nested projects in `covering` (folders, as
    /// [`Report::covered`] names them) checked whether or not a change touches them: the
    /// workspace without a proposal is checked over the projects the proposal's check covered.
    pub async fn run_covering(
        &self,
        kind: Kind,
        overrides: BTreeMap<WorkspacePath, Option<String>>,
        filter: Option<String>,
        cancel: &CancellationToken,
        covering: &[String],
    ) -> Result<Report, ValidateError> {
        let (nested, left_out) = self.nested_validators(kind, &overrides, covering).await?;
        if nested.is_empty() {
            return self.run_here(kind, self.own_overrides(overrides), filter, cancel, "").await;
        }
        let mut parts = Vec::new();
        if self.step(kind).is_some() {
            parts.push(self.run_here(kind, self.own_overrides(overrides.clone()), filter, cancel, "").await?);
        }
        let mut covered = Vec::new();
        let mut cut_short = false;
        for (folder, validator) in nested {
            if cancel.is_cancelled() && !parts.is_empty() {
                // What was not built says nothing: the report is a cancelled one.
                cut_short = true;
                break;
            }
            let theirs = nested::for_build_root(&overrides, &self.root, &validator.build_root());
            parts.push(validator.run_here(kind, theirs, None, cancel, &folder).await?);
            covered.push(folder);
        }
        let mut report = nested::merged(parts);
        if cut_short {
            report.cancelled = true;
            report.passed = false;
        }
        if !left_out.is_empty() {
            let _ = write!(
                report.summary,
                "\n\nNot checked: the changes to {}, past the {MAX_NESTED_PROJECTS} projects checked at a time.",
                left_out.iter().map(|folder| format!("`{folder}/`")).collect::<Vec<_>>().join(", ")
            );
        }
        report.covered = covered;
        Ok(report)
    }

    fn step(&self, kind: Kind) -> Option<&Step> {
        match kind {
            Kind::Check => self.plan.check.as_ref(),
            Kind::Test => self.plan.test.as_ref(),
        }
    }

    /// The folder the build runs from, which the shadow copies.
    fn build_root(&self) -> PathBuf {
        self.plan.build_root.clone().unwrap_or_else(|| self.root.clone())
    }

    /// `overrides` (workspace paths) as paths of the build root.
    fn own_overrides(
        &self,
        overrides: BTreeMap<WorkspacePath, Option<String>>,
    ) -> BTreeMap<WorkspacePath, Option<String>> {
        let build_root = self.build_root();
        within_build_root(overrides, self.root.strip_prefix(&build_root).unwrap_or(Path::new("")))
    }

    /// The validators of the nested projects (see [`run`](Self::run)) that a change touches
    /// (`overrides`, or the repository's uncommitted changes) or that are in `covering`,
    /// whose build is another than the workspace's and has a command of `kind`: at most
    /// [`MAX_NESTED_PROJECTS`], and the folders of the others.
    async fn nested_validators(
        &self,
        kind: Kind,
        overrides: &BTreeMap<WorkspacePath, Option<String>>,
        covering: &[String],
    ) -> Result<(Vec<(String, Arc<Validator>)>, Vec<String>), ValidateError> {
        let configured = match kind {
            Kind::Check => self.settings.check.is_some(),
            Kind::Test => self.settings.test.is_some(),
        };
        if configured {
            return Ok((Vec::new(), Vec::new()));
        }
        let (root, overrides, cache) = (self.root.clone(), overrides.clone(), self.nested.clone());
        let candidates = self.candidates.clone();
        let covering = covering.to_vec();
        let settings = ValidateSettings { check: None, test: None, ..self.settings.clone() };
        let (cache_dir, toolchain) = (self.cache_dir.clone(), self.plan.toolchain);
        blocking(move || {
            let mut found = Vec::new();
            let candidates = {
                let mut known = candidates.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
                match &*known {
                    Some((found_at, folders)) if found_at.elapsed() < CANDIDATES_FRESH => folders.clone(),
                    _ => {
                        let folders = Arc::new(nested::candidates(&root, toolchain));
                        *known = Some((std::time::Instant::now(), folders.clone()));
                        folders
                    }
                }
            };
            // The folders a comparison must cover (found so by an earlier validation) come
            // first and are never left out. Each is told from its build files alone, before
            // any detection runs a tool.
            let mut folders = covering.clone();
            let changed = nested::changed_projects(&root, toolchain, &overrides, &candidates);
            folders.extend(changed.into_iter().filter(|folder| !covering.contains(folder)));
            for folder in folders {
                let project = root.join(&folder);
                let stamp = detect::build_files_stamp(&project);
                let known = cache.lock().ok().and_then(|cache| cache.get(&folder).cloned());
                let validator = match known {
                    Some((known_stamp, validator)) if known_stamp == stamp => validator,
                    _ => {
                        let validator = Arc::new(Validator::new(&project, settings.clone(), cache_dir.clone())?);
                        if let Ok(mut cache) = cache.lock() {
                            cache.insert(folder.clone(), (stamp, validator.clone()));
                        }
                        validator
                    }
                };
                if validator.step(kind).is_some() {
                    found.push((folder, validator));
                }
            }
            let kept = found.len().min(MAX_NESTED_PROJECTS.max(covering.len()));
            let left_out: Vec<String> = found.split_off(kept).into_iter().map(|(folder, _)| folder).collect();
            if !left_out.is_empty() {
                tracing::warn!("not validated: the changes to the projects in {}", left_out.join(", "));
            }
            Ok((found, left_out))
        })
        .await?
    }

    /// [`run`](Self::run) for this validator's own project, with `overrides` named by their
    /// paths from its build root, which the workspace holds in its folder `shown_below`
    /// (empty for the workspace itself): problems and the account name files by their paths
    /// from the workspace's top.
    async fn run_here(
        &self,
        kind: Kind,
        overrides: BTreeMap<WorkspacePath, Option<String>>,
        filter: Option<String>,
        cancel: &CancellationToken,
        shown_below: &str,
    ) -> Result<Report, ValidateError> {
        let step = self.step(kind).cloned();
        let Some(step) = step else {
            let reason = match kind {
                Kind::Check => {
                    "no check command: none was detected (Cargo.toml, pom.xml, build.gradle, tsconfig.json, Java sources) and `[validate] check` is not set"
                }
                Kind::Test => "no test command: none was detected and `[validate] test` is not set",
            };
            return Ok(Report::nothing(kind, reason.to_owned()));
        };
        let filter = filter.filter(|f| check_filter(f).is_ok() && step.takes_filter());

        // Another validation may be building in the shadow; a cancel while waiting ends this one.
        let mut guard = tokio::select! {
            guard = self.shadow.lock() => guard,
            () = cancel.cancelled() => {
                let summary = "cancelled before it started".to_owned();
                return Ok(Report { cancelled: true, not_run: None, ..Report::nothing(kind, summary) });
            }
        };
        // The shadow copies the folder the build runs from; the workspace is `within` it.
        let build_root = self.build_root();
        let within = self.root.strip_prefix(&build_root).unwrap_or(Path::new("")).to_owned();
        let shadow = match guard.take() {
            Some(shadow) => shadow,
            None => {
                let (root, cache) = (build_root.clone(), self.cache_dir.clone());
                blocking(move || match cache {
                    Some(cache) => Shadow::open(&root, &cache),
                    None => Shadow::for_workspace(&root),
                })
                .await??
            }
        };
        // Another process (a second editor, `issuewright run`) may be building in it: waited
        // for as long as it takes, and a cancel while waiting ends this one.
        let _lock = loop {
            match shadow.try_lock() {
                Ok(Some(lock)) => break lock,
                Ok(None) => {}
                Err(error) => {
                    *guard = Some(shadow);
                    return Err(error.into());
                }
            }
            tokio::select! {
                () = tokio::time::sleep(LOCK_POLL) => {}
                () = cancel.cancelled() => {
                    *guard = Some(shadow);
                    let summary = "cancelled while another issuewright was building in the same copy of the workspace".to_owned();
                    return Ok(Report { cancelled: true, not_run: None, ..Report::nothing(kind, summary) });
                }
            }
        };
        let (shadow, synced) = blocking(move || {
            let mut shadow = shadow;
            let stats = shadow.sync(&overrides);
            (shadow, stats)
        })
        .await?;
        let (build_tree, out, files) = (shadow.tree().to_owned(), shadow.out().to_owned(), shadow.files());
        *guard = Some(shadow);
        let sync = synced?;
        // The workspace's copy, where the build runs and its files are read, and its files.
        let tree = if within.as_os_str().is_empty() { build_tree.clone() } else { build_tree.join(&within) };
        // Cargo prints every path from the Cargo workspace's root, whose own files (the root
        // package's) are not the member's; a crate that is its own workspace prints them from
        // its folder, however far up the mirror reaches for its path dependencies.
        let build_files = matches!(step, Step::Cargo { workspace: false, .. }).then(|| files.clone());
        let files = files_within(files, &within);

        let started = SystemTime::now();
        // Preparing a command can walk the tree (javac's list of sources): file work too.
        let prepared = {
            let (step, tree, filter) = (step.clone(), tree.clone(), filter.clone());
            blocking(move || step.command(&tree, &out, filter.as_deref())).await?
        };
        let spec = match prepared {
            Ok(spec) => CommandSpec { withheld: self.settings.withheld_variables.clone(), ..spec },
            Err(error) => return Ok(Report::nothing(kind, format!("cannot prepare `{}`: {error}", step.source()))),
        };
        let output = match command::run(&spec, &tree, self.settings.timeout, cancel).await {
            Ok(output) => output,
            Err(error) => {
                let mut report =
                    Report::nothing(kind, format!("{error}; install it or set `[validate] {}`", kind.as_str()));
                report.command = Some(spec.display());
                report.sync = sync;
                return Ok(report);
            }
        };
        drop(guard);

        // Parsing and the report files' walk are file work: off the async threads.
        let command =
            if shown_below.is_empty() { spec.display() } else { nested::run_in(shown_below, &spec.display()) };
        let (root, matcher, timeout, shown_below) =
            (self.root.clone(), self.matcher.clone(), self.settings.timeout, shown_below.to_owned());
        blocking(move || {
            // A Cargo workspace's member prints its paths from the workspace's root.
            let map = match build_files {
                Some(build_files) => PathMap::new(&tree, &root, files).printed_from(&build_tree, build_files),
                None => PathMap::new(&tree, &root, files).relative_to(&build_tree),
            };
            let text = strip_ansi(&output.text());
            let mut problems = parse::parse(&text, step.formats(), matcher.as_ref(), &map);
            if kind == Kind::Test && step.writes_junit() {
                // The XML reports say more than the console's one-line summary of the same failure.
                let reported = junit_problems(&tree, started, &map, step.source());
                let places: std::collections::HashSet<(&str, u32)> =
                    reported.iter().filter_map(|p| p.place.as_ref()).map(|p| (p.path.as_str(), p.start.line)).collect();
                problems.retain(|problem| {
                    problem.severity != Severity::Error
                        || !problem.place.as_ref().is_some_and(|p| places.contains(&(p.path.as_str(), p.start.line)))
                });
                problems.extend(reported.iter().cloned());
            }
            let mut problems = parse::dedupe(problems);
            if !shown_below.is_empty() {
                problems.iter_mut().for_each(|problem| nested::move_under(problem, &shown_below));
            }
            // What is shown as printed names the shadow copy's files by the workspace's paths:
            // those are the ones the user and the model can open.
            let (shadow, workspace) = (tree.to_string_lossy().into_owned(), root.to_string_lossy().into_owned());
            let (build_shadow, build) =
                (build_tree.to_string_lossy().into_owned(), build_root.to_string_lossy().into_owned());
            let in_workspace = |printed: &str| printed.replace(&shadow, &workspace).replace(&build_shadow, &build);
            for problem in &mut problems {
                problem.elsewhere = problem.elsewhere.as_deref().map(in_workspace);
            }
            let text = in_workspace(&text);
            let passed = output.succeeded() && !output.timed_out && !output.cancelled;
            let unparsed = (!passed && !problems.iter().any(|p| p.severity == Severity::Error))
                .then(|| crate::workspace::cut_head_tail(&text, MAX_UNPARSED_CHARS));
            let mut report = Report {
                kind,
                command: Some(command),
                status: output.status,
                timed_out: output.timed_out,
                cancelled: output.cancelled,
                passed,
                problems,
                unparsed,
                not_run: None,
                output: text,
                summary: String::new(),
                duration_ms: output.duration.as_millis() as u64,
                sync,
                covered: Vec::new(),
            };
            report.summary = summary::for_model(&report, &tree, &shown_below, timeout);
            // A program the build starts in turn is missing: the machine lacks it, and the
            // code is not to blame.
            if report.unparsed.is_some()
                && !report.timed_out
                && !report.cancelled
                && let Some(why) = missing_tool::missing_tool(report.status, &report.output)
            {
                report.summary = format!("{} was not run: {why}", kind.as_str());
                report.not_run = Some(why);
            }
            report
        })
        .await
    }
}

/// `overrides` (workspace paths) as paths of the build root, the workspace being the folder
/// `within` it.
fn within_build_root(
    overrides: BTreeMap<WorkspacePath, Option<String>>,
    within: &Path,
) -> BTreeMap<WorkspacePath, Option<String>> {
    if within.as_os_str().is_empty() {
        return overrides;
    }
    overrides
        .into_iter()
        .filter_map(|(path, text)| Some((WorkspacePath::parse(within.join(path.as_str()).to_str()?).ok()?, text)))
        .collect()
}

/// Of the build root's `files`, those of the workspace, the folder `within` it, by their
/// workspace paths.
fn files_within(files: BTreeSet<String>, within: &Path) -> BTreeSet<String> {
    let Some(within) = within.to_str().filter(|within| !within.is_empty()) else { return files };
    files.iter().filter_map(|file| Some(file.strip_prefix(within)?.strip_prefix('/')?.to_owned())).collect()
}

/// Runs blocking file work off the async threads.
async fn blocking<T: Send + 'static>(work: impl FnOnce() -> T + Send + 'static) -> Result<T, ValidateError> {
    tokio::task::spawn_blocking(work).await.map_err(|error| ValidateError::Interrupted(error.to_string()))
}

/// Failures in the JUnit XML reports a test run wrote (Surefire, Gradle) after `since`.
fn junit_problems(tree: &Path, since: SystemTime, map: &PathMap, source: &str) -> Vec<Problem> {
    let mut problems = Vec::new();
    let walker = ignore::WalkBuilder::new(tree)
        .standard_filters(false)
        .filter_entry(|entry| entry.file_name() != "node_modules" && entry.file_name() != ".git")
        .build();
    for entry in walker.flatten() {
        let path = entry.path();
        let name = entry.file_name().to_string_lossy();
        let in_reports = path.parent().is_some_and(|parent| {
            parent.components().any(|c| matches!(c.as_os_str().to_str(), Some("surefire-reports" | "test-results")))
        });
        if !(in_reports && name.starts_with("TEST-") && name.ends_with(".xml")) {
            continue;
        }
        let fresh = entry.metadata().ok().and_then(|m| m.modified().ok()).is_some_and(|modified| modified >= since);
        if !fresh {
            continue;
        }
        let Ok(xml) = std::fs::read_to_string(path) else { continue };
        match parse::parse_junit(&xml, map, source) {
            Ok(found) => problems.extend(found),
            Err(error) => {
                let shown = path.strip_prefix(tree).unwrap_or(path).display().to_string();
                let message = format!("the test report `{shown}` could not be read: {error}");
                problems
                    .push(Problem { elsewhere: Some(shown), ..Problem::unplaced(Severity::Warning, source, message) });
            }
        }
    }
    problems
}

#[cfg(test)]
mod tests {
    use super::*;

    fn error(path: &str, line: u32, code: &str, message: &str) -> Problem {
        let place = Place {
            path: WorkspacePath::parse(path).unwrap(),
            start: Spot { line, column: 0 },
            end: Spot { line, column: 1 },
        };
        let mut problem = Problem::at(place, ColumnUnit::Chars, Severity::Error, "cargo", message.into());
        problem.code = Some(code.into());
        problem
    }

    fn failed(problems: Vec<Problem>) -> Report {
        Report {
            passed: false,
            status: Some(101),
            problems,
            not_run: None,
            ..Report::nothing(Kind::Check, "failed".into())
        }
    }

    #[test]
    fn errors_already_there_match_by_file_code_and_message_not_by_line() {
        let before = failed(vec![
            error("src/old.rs", 4, "E0425", "cannot find value `x` in this scope"),
            error("src/old.rs", 9, "E0308", "mismatched types"),
        ]);
        let after = failed(vec![
            error("src/old.rs", 6, "E0425", "cannot find value `x` in this scope"),
            error("src/old.rs", 11, "E0308", "mismatched types"),
            error("src/old.rs", 30, "E0308", "mismatched types"),
            error("src/new.rs", 2, "E0425", "cannot find value `x` in this scope"),
        ]);
        assert_eq!(after.errors_already_in(&before), 2, "each earlier error matches once");
        let clean = Report { passed: true, status: Some(0), problems: vec![], ..failed(vec![]) };
        assert_eq!(after.errors_already_in(&clean), 0);
        assert_eq!(failed(vec![]).errors_already_in(&failed(vec![])), 1, "the same unreadable failure");
        let not_run = Report { not_run: Some("cargo is not installed".into()), ..failed(vec![]) };
        assert_eq!(after.errors_already_in(&not_run), 0);
        let timed_out = Report { timed_out: true, ..failed(vec![]) };
        assert_eq!(timed_out.errors_already_in(&failed(vec![])), 0, "a time-out is new");
        assert_eq!(failed(vec![]).errors_already_in(&timed_out), 0);
    }

    #[tokio::test]
    async fn a_cancel_ends_the_wait_for_another_process_building_in_the_shadow() {
        let root = crate::testing::tree(&[("a.txt", "a\n")]);
        let cache = crate::testing::tempdir();
        let settings = ValidateSettings { check: Some("echo checked".into()), ..ValidateSettings::default() };
        let validator = Validator::new(root.path(), settings, Some(cache.path().to_owned())).unwrap();
        // Another process holds the shadow's lock, as a build of its own would.
        let other = shadow::Shadow::open(root.path(), cache.path()).unwrap();
        let held = other.lock().unwrap();

        let cancel = CancellationToken::new();
        let trigger = cancel.clone();
        tokio::spawn(async move {
            tokio::time::sleep(std::time::Duration::from_millis(300)).await;
            trigger.cancel();
        });
        let waited = tokio::time::timeout(
            std::time::Duration::from_secs(10),
            validator.run(Kind::Check, BTreeMap::new(), None, &cancel),
        )
        .await
        .expect("a cancel ends the wait")
        .unwrap();
        assert!(waited.cancelled, "{waited:?}");
        assert!(waited.summary.contains("another issuewright"), "{}", waited.summary);

        // Once the other process is done, the next validation runs.
        drop(held);
        let ran = validator.run(Kind::Check, BTreeMap::new(), None, &CancellationToken::new()).await.unwrap();
        assert!(ran.passed && ran.output.contains("checked"), "{ran:?}");
    }
}
