//! Which check and test commands a project has: detected from its build files, or as
//! configured in `[validate]`.

use std::path::{Path, PathBuf};
use std::sync::LazyLock;
use std::time::Duration;

use regex::Regex;

use super::command::CommandSpec;
use super::parse::Format;
use super::{maven_root, node_root};
use crate::config::ValidateSettings;

/// Folders never searched for Java sources.
const NOT_SOURCES: [&str; 4] = ["node_modules", ".git", ".issuewright", ".gradle"];
/// Folders of build output, not searched for Java sources at the top of the project (deeper
/// down the names are packages: `com/acme/build`).
const OUTPUT_AT_THE_TOP: [&str; 3] = ["target", "build", "out"];

/// The walk over a project's folders that may hold Java sources. Ignore files above the
/// project (a home folder kept in git) have no say in it.
/// With `ignore_files` false the project's own ignore files have no say either: the shadow
/// holds just what the build reads, jars a `*.jar` rule keeps out of git among them.
fn java_source_walk(root: &Path, max_depth: Option<usize>, ignore_files: bool) -> ignore::Walk {
    ignore::WalkBuilder::new(root)
        .parents(false)
        .git_ignore(ignore_files)
        .git_exclude(ignore_files)
        .git_global(ignore_files)
        .ignore(ignore_files)
        .max_depth(max_depth)
        .filter_entry(|entry| {
            let name = entry.file_name().to_string_lossy();
            let output = entry.depth() == 1 && OUTPUT_AT_THE_TOP.contains(&name.as_ref());
            !(output || NOT_SOURCES.contains(&name.as_ref()))
        })
        .build()
}

/// The build tool a project uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Toolchain {
    /// `Cargo.toml`.
    Cargo,
    /// `pom.xml`.
    Maven,
    /// `build.gradle(.kts)` or `settings.gradle(.kts)`.
    Gradle,
    /// `tsconfig.json` or `package.json`.
    TypeScript,
    /// Java sources without a build file.
    Javac,
}

/// One command a validation runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Step {
    /// `cargo check` (or `cargo test`) with JSON messages.
    Cargo {
        /// Run the tests instead of checking.
        test: bool,
        /// Every member of the Cargo workspace the project is (`--workspace`), where the
        /// project is the workspace's root; else the project's own package, as a crate of a
        /// workspace further up is built.
        workspace: bool,
    },
    /// The project's `node_modules/.bin/tsc --noEmit`, its own or a monorepo's above it.
    Tsc {
        /// The folder that installed it, relative to the project (empty for its own).
        installed: PathBuf,
        /// How it is pointed at the project.
        mode: TscMode,
    },
    /// An npm script.
    Npm {
        /// The script's name.
        script: String,
    },
    /// Maven, offline.
    Maven {
        /// `compile` or `test`.
        goal: &'static str,
        /// The project's Maven wrapper, as a path from its folder (`./mvnw`, or `../mvnw`
        /// of the multi-module project above it), when it has one.
        wrapper: Option<String>,
    },
    /// Gradle, offline.
    Gradle {
        /// `compileJava` or `test`.
        task: &'static str,
        /// The project's Gradle wrapper, as a path from its folder (`./gradlew`, or
        /// `../gradlew` of the build whose settings include it), when it has one.
        wrapper: Option<String>,
    },
    /// javac over every Java source.
    Javac,
    /// A command line from `[validate]`, run by `sh -c`.
    Configured(String),
}

/// How `tsc` checks a project.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TscMode {
    /// `-p .`: the project its `tsconfig.json` describes.
    Project,
    /// `-b .`, for a `tsconfig.json` that only lists project references: each of them.
    Build {
        /// Pass `--noEmit`, which build mode takes from TypeScript 5.6 on (before, the
        /// references' own `noEmit` holds, and what they emit stays in the shadow).
        no_emit: bool,
    },
}

/// Why a test filter was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "the filter `{0}` is not a test name; use letters, digits and `_ : . $ # / * -` (not first), at most 200 characters"
)]
pub struct BadFilter(pub String);

/// Checks a test filter the model gave: a name or pattern, never an option or shell text.
pub fn check_filter(filter: &str) -> Result<(), BadFilter> {
    let fine = !filter.is_empty()
        && filter.len() <= 200
        && !filter.starts_with('-')
        && filter.chars().all(|c| c.is_ascii_alphanumeric() || "_:.$#/*-".contains(c));
    if fine { Ok(()) } else { Err(BadFilter(filter.to_owned())) }
}

impl Step {
    /// The command to run in the shadow `tree`, with build output in `out`; `filter` narrows
    /// the tests where the tool supports it (checked with [`check_filter`] first).
    pub fn command(&self, tree: &Path, out: &Path, filter: Option<&str>) -> std::io::Result<CommandSpec> {
        let mut spec = match self {
            Step::Cargo { test, workspace } => {
                let mut args = vec![if *test { "test" } else { "check" }];
                args.extend(workspace.then_some("--workspace"));
                args.extend(if *test {
                    ["--no-fail-fast", "--message-format=json"]
                } else {
                    ["--all-targets", "--message-format=json"]
                });
                let mut spec = CommandSpec::new("cargo", &args);
                if *test {
                    spec.args.extend(filter.map(str::to_owned));
                }
                spec
            }
            Step::Tsc { installed, mode } => {
                let tsc = tree.join(installed).join(node_root::TSC_BELOW);
                // Build mode must come first.
                let args: &[&str] = match mode {
                    TscMode::Project => &["--noEmit", "--pretty", "false", "-p", "."],
                    TscMode::Build { no_emit: true } => &["-b", ".", "--noEmit", "--pretty", "false"],
                    TscMode::Build { no_emit: false } => &["-b", ".", "--pretty", "false"],
                };
                CommandSpec::new(&tsc.to_string_lossy(), args)
            }
            Step::Npm { script } => {
                let mut spec = CommandSpec::new("npm", &["run", "--silent", script]);
                if let Some(filter) = filter {
                    spec.args.extend(["--".to_owned(), filter.to_owned()]);
                }
                spec
            }
            Step::Maven { goal, wrapper } => {
                let program = wrapper.as_deref().unwrap_or("mvn");
                let mut spec = CommandSpec::new(program, &["-q", "-B", "-o", "-Dstyle.color=never", goal]);
                if let Some(filter) = filter {
                    spec.args.push(format!("-Dtest={filter}"));
                    spec.args.push("-Dsurefire.failIfNoSpecifiedTests=false".into());
                }
                spec
            }
            Step::Gradle { task, wrapper } => {
                let program = wrapper.as_deref().unwrap_or("gradle");
                let mut spec = CommandSpec::new(program, &["--offline", "--console=plain", task]);
                if let Some(filter) = filter {
                    spec.args.extend(["--tests".to_owned(), filter.to_owned()]);
                }
                spec
            }
            Step::Javac => javac_command(tree, out)?,
            Step::Configured(line) => CommandSpec::shell(line),
        };
        spec.env.extend([
            ("CARGO_TARGET_DIR".to_owned(), out.join("cargo").to_string_lossy().into_owned()),
            ("CARGO_TERM_COLOR".to_owned(), "never".to_owned()),
            ("RUST_BACKTRACE".to_owned(), "0".to_owned()),
            ("NO_COLOR".to_owned(), "1".to_owned()),
            ("FORCE_COLOR".to_owned(), "0".to_owned()),
            ("TERM".to_owned(), "dumb".to_owned()),
        ]);
        Ok(spec)
    }

    /// Whether a filter narrows this step's tests.
    pub fn takes_filter(&self) -> bool {
        matches!(self, Step::Cargo { test: true, .. } | Step::Npm { .. } | Step::Maven { .. } | Step::Gradle { .. })
    }

    /// The output formats to read.
    pub fn formats(&self) -> &'static [Format] {
        match self {
            Step::Cargo { test: false, .. } => &[Format::RustcJson],
            Step::Cargo { test: true, .. } => &[Format::RustcJson, Format::CargoTest],
            Step::Tsc { .. } => &[Format::Tsc],
            Step::Npm { .. } => &[Format::Tsc, Format::JsTests],
            Step::Maven { goal: "compile", .. } => &[Format::Maven],
            Step::Maven { .. } => &[Format::Maven, Format::MavenTests],
            Step::Gradle { .. } => &[Format::Gradle],
            Step::Javac => &[Format::Javac],
            Step::Configured(_) => &Format::ALL,
        }
    }

    /// The build tool's name, the `source` of its problems.
    pub fn source(&self) -> &'static str {
        match self {
            Step::Cargo { .. } => "cargo",
            Step::Tsc { .. } => "tsc",
            Step::Npm { .. } => "npm",
            Step::Maven { .. } => "maven",
            Step::Gradle { .. } => "gradle",
            Step::Javac => "javac",
            Step::Configured(_) => "validate",
        }
    }

    /// Whether the tool writes JUnit XML reports to read after it ran.
    pub fn writes_junit(&self) -> bool {
        matches!(self, Step::Maven { goal: "test", .. } | Step::Gradle { task: "test", .. } | Step::Configured(_))
    }
}

/// What validation runs for a project.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Plan {
    /// The build tool found, if any.
    pub toolchain: Option<Toolchain>,
    /// The check.
    pub check: Option<Step>,
    /// The tests.
    pub test: Option<Step>,
    /// Where the build runs from, where that is a folder above the project: the root of the
    /// Cargo workspace its crate belongs to, the folder holding the parent POMs a Maven
    /// module inherits from, or the monorepo whose `node_modules` and shared `tsconfig` a
    /// TypeScript package's build reads. The shadow copies it whole, as the
    /// project's build reads its manifest, its installs and its other members.
    pub build_root: Option<PathBuf>,
}

fn has(root: &Path, name: &str) -> bool {
    root.join(name).is_file()
}

/// The files whose coming, going or change changes what [`detect`] finds.
const BUILD_FILES: [&str; 11] = [
    "Cargo.toml",
    "pom.xml",
    "mvnw",
    "build.gradle",
    "build.gradle.kts",
    "settings.gradle",
    "settings.gradle.kts",
    "gradlew",
    "tsconfig.json",
    "package.json",
    "node_modules/.bin/tsc",
];

/// When each of a project's build files was last changed, as [`build_files_stamp`] reads it.
pub type BuildFilesStamp = Vec<Option<std::time::SystemTime>>;

/// When each of the project's build files was last changed (`None`: not there): a plan
/// detected under another stamp may be out of date (`npm install` has put `tsc` in place
/// since, or a `pom.xml` came).
pub fn build_files_stamp(root: &Path) -> BuildFilesStamp {
    BUILD_FILES.iter().map(|name| std::fs::metadata(root.join(name)).and_then(|m| m.modified()).ok()).collect()
}

fn npm_scripts(root: &Path) -> Vec<(String, String)> {
    let Ok(text) = std::fs::read_to_string(root.join("package.json")) else { return vec![] };
    let Ok(json) = serde_json::from_str::<serde_json::Value>(&text) else { return vec![] };
    json.get("scripts")
        .and_then(|s| s.as_object())
        .map(|scripts| {
            scripts.iter().filter_map(|(name, line)| Some((name.clone(), line.as_str()?.to_owned()))).collect()
        })
        .unwrap_or_default()
}

fn has_java_sources(root: &Path) -> bool {
    java_source_walk(root, Some(12), true).flatten().any(|entry| entry.path().extension().is_some_and(|e| e == "java"))
}

/// The root of the Cargo workspace that the crate at `root` (holding a `Cargo.toml` without
/// a `[workspace]` of its own) belongs to, where that is a folder above it. A manifest with a
/// `[workspace]` further up (the one the crate's `package.workspace` names, else the nearest,
/// no higher than the repository's root, a folder holding `.git`) makes Cargo the judge:
/// `cargo locate-project --workspace` says whether the crate is a member of it (not one it
/// excludes, nor one it does not list, for which Cargo's own build fails).
fn cargo_workspace_above(root: &Path) -> Option<PathBuf> {
    let manifest = cargo_manifest(root)?;
    if manifest.contains_key("workspace") {
        return None;
    }
    let named = manifest.get("package").and_then(|package| package.get("workspace")).and_then(|named| named.as_str());
    let candidate = match named {
        Some(named) => {
            let named = crate::workspace::lexical_normal(&root.join(named));
            let above = named != root && root.starts_with(&named);
            (above && cargo_manifest(&named).is_some_and(|m| m.contains_key("workspace"))).then_some(named)
        }
        None if root.join(".git").exists() => None,
        None => nearest_workspace_above(root),
    }?;
    // Cargo names the folder with its links resolved (its working folder is the real one),
    // where the project may be open through a link (`~/code -> /mnt/data/code`): the build
    // root keeps the form the project was named in.
    let located = cargo_workspace_root(root)?;
    let same = located == candidate
        || located.canonicalize().ok().is_some_and(|real| candidate.canonicalize().is_ok_and(|named| named == real));
    same.then_some(candidate)
}

/// The nearest folder above `root`, up to the repository's root, whose `Cargo.toml` has a
/// `[workspace]`; a manifest on the way that does not parse ends the search.
pub(super) fn nearest_workspace_above(root: &Path) -> Option<PathBuf> {
    for folder in root.ancestors().skip(1) {
        if folder.join("Cargo.toml").is_file() && cargo_manifest(folder)?.contains_key("workspace") {
            return Some(folder.to_owned());
        }
        if folder.join(".git").exists() {
            break;
        }
    }
    None
}

/// How long `cargo locate-project` may take: it reads manifests, nothing more.
const LOCATE_PROJECT_LIMIT: Duration = Duration::from_secs(5);

/// The folder of the workspace root Cargo finds for the crate at `root`, if it finds one
/// within [`LOCATE_PROJECT_LIMIT`]. A toolchain the project pins and the machine lacks is
/// not installed for it (`RUSTUP_AUTO_INSTALL=0`).
fn cargo_workspace_root(root: &Path) -> Option<PathBuf> {
    let mut command = std::process::Command::new("cargo");
    command
        .args(["locate-project", "--workspace", "--message-format", "plain", "--offline"])
        .current_dir(root)
        .env("RUSTUP_AUTO_INSTALL", "0");
    let stdout = output_within(command, LOCATE_PROJECT_LIMIT)?;
    let manifest = PathBuf::from(String::from_utf8(stdout).ok()?.trim_end());
    Some(manifest.parent()?.to_owned())
}

/// What `command` prints when it succeeds within `limit`; `None` when it fails, cannot
/// start or takes longer (then it is killed). The output is read while it runs, so a long
/// one never blocks it, and past the limit the reader is left to end on its own (a process
/// the command started may hold the output open for longer). For short questions asked
/// from blocking work; the shadow's builds have [`command::run`](super::command::run).
pub(super) fn output_within(mut command: std::process::Command, limit: Duration) -> Option<Vec<u8>> {
    use std::io::Read;
    let mut child = command
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .ok()?;
    let mut stdout = child.stdout.take()?;
    let reader = std::thread::spawn(move || {
        let mut bytes = Vec::new();
        stdout.read_to_end(&mut bytes).map(|_| bytes)
    });
    let started = std::time::Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break Some(status),
            Ok(None) if started.elapsed() < limit => std::thread::sleep(Duration::from_millis(5)),
            _ => {
                let _ = child.kill();
                let _ = child.wait();
                break None;
            }
        }
    };
    status.filter(std::process::ExitStatus::success)?;
    reader.join().ok()?.ok()
}

/// The `Cargo.toml` in `folder`, parsed.
fn cargo_manifest(folder: &Path) -> Option<toml::Table> {
    std::fs::read_to_string(folder.join("Cargo.toml")).ok()?.parse::<toml::Table>().ok()
}

/// The plan for the project at `root`: configured commands first, then what its build files say.
pub fn detect(root: &Path, settings: &ValidateSettings) -> Plan {
    let mut plan = detect_build(root);
    if let Some(check) = &settings.check {
        plan.check = Some(Step::Configured(check.clone()));
    }
    if let Some(test) = &settings.test {
        plan.test = Some(Step::Configured(test.clone()));
    }
    plan
}

/// The build tool the build files in `folder` name, in the order [`detect`] reads them (a
/// `Cargo.toml` before a `package.json`); `None` for a folder of none, Java sources alone
/// among them.
pub(super) fn toolchain_of(folder: &Path) -> Option<Toolchain> {
    let has = |name: &str| has(folder, name);
    if has("Cargo.toml") {
        Some(Toolchain::Cargo)
    } else if has("pom.xml") {
        Some(Toolchain::Maven)
    } else if ["build.gradle", "build.gradle.kts", "settings.gradle", "settings.gradle.kts"].into_iter().any(has) {
        Some(Toolchain::Gradle)
    } else if has("tsconfig.json") || has("package.json") {
        Some(Toolchain::TypeScript)
    } else {
        None
    }
}

fn detect_build(root: &Path) -> Plan {
    let toolchain = toolchain_of(root);
    if toolchain == Some(Toolchain::Cargo) {
        let above = cargo_workspace_above(root);
        let workspace = above.is_none();
        // A crate of its own still reads the crates its path dependencies name.
        let build_root = above.or_else(|| super::cargo_root::build_root_above(root));
        return Plan {
            toolchain: Some(Toolchain::Cargo),
            check: Some(Step::Cargo { test: false, workspace }),
            test: Some(Step::Cargo { test: true, workspace }),
            build_root,
        };
    }
    if toolchain == Some(Toolchain::Maven) {
        let build_root = maven_root::build_root_above(root);
        // A multi-module project keeps its wrapper at its root.
        let top = build_root.as_deref().unwrap_or(root);
        let wrapper = wrapper_up_to(root, top, "mvnw");
        return Plan {
            toolchain: Some(Toolchain::Maven),
            check: Some(Step::Maven { goal: "compile", wrapper: wrapper.clone() }),
            test: Some(Step::Maven { goal: "test", wrapper }),
            build_root,
        };
    }
    if toolchain == Some(Toolchain::Gradle) {
        // A subproject is built by the build whose settings include it, with its wrapper.
        let build_root = gradle_build_above(root);
        let top = build_root.as_deref().unwrap_or(root);
        let wrapper = wrapper_up_to(root, top, "gradlew");
        return Plan {
            toolchain: Some(Toolchain::Gradle),
            check: Some(Step::Gradle { task: "compileJava", wrapper: wrapper.clone() }),
            test: Some(Step::Gradle { task: "test", wrapper }),
            build_root,
        };
    }
    if toolchain == Some(Toolchain::TypeScript) {
        let scripts = npm_scripts(root);
        let script = |names: &[&str]| {
            names.iter().find(|name| scripts.iter().any(|(s, _)| s == *name)).map(|name| (*name).to_owned())
        };
        let folder = node_root::tsc_folder(root).filter(|_| has(root, "tsconfig.json"));
        let installed = folder.as_deref().and_then(|folder| Some((folder, relative_up(root, folder)?)));
        let check = if let Some((folder, installed)) = installed {
            let mode = if node_root::is_solution(root) {
                let no_emit = node_root::typescript_version(folder).is_none_or(|version| version >= (5, 6));
                TscMode::Build { no_emit }
            } else {
                TscMode::Project
            };
            Some(Step::Tsc { installed, mode })
        } else {
            script(&["typecheck", "type-check", "check", "tsc", "build"]).map(|script| Step::Npm { script })
        };
        let placeholder = |line: &str| line.contains("no test specified");
        let test = scripts
            .iter()
            .find(|(name, line)| name == "test" && !placeholder(line))
            .map(|_| Step::Npm { script: "test".into() });
        let build_root = node_root::build_root_above(root);
        return Plan { toolchain: Some(Toolchain::TypeScript), check, test, build_root };
    }
    if has_java_sources(root) {
        return Plan { toolchain: Some(Toolchain::Javac), check: Some(Step::Javac), test: None, build_root: None };
    }
    Plan { toolchain: None, check: None, test: None, build_root: None }
}

/// The way from `root` up to `folder`, one of its ancestors (itself too), as `..` steps.
/// The folder above the Gradle project at `root` (one without settings of its own) whose
/// `settings.gradle(.kts)` includes it (`include("app")`, `include ':libs:core'`), as Gradle
/// finds the build it belongs to; no higher than the repository's root.
fn gradle_build_above(root: &Path) -> Option<PathBuf> {
    const SETTINGS: [&str; 2] = ["settings.gradle", "settings.gradle.kts"];
    if SETTINGS.iter().any(|file| has(root, file)) {
        return None;
    }
    let repository = super::repository::repository_above(root)?;
    let folder = root
        .ancestors()
        .skip(1)
        .take_while(|folder| folder.starts_with(repository))
        .find(|folder| SETTINGS.iter().any(|file| has(folder, file)))?;
    let project = root.strip_prefix(folder).ok()?.to_str()?.replace('/', ":");
    let includes = SETTINGS
        .iter()
        .filter_map(|file| super::repository::read_small(&folder.join(file), 1 << 20))
        .any(|settings| gradle_includes(&settings).iter().any(|included| included.trim_start_matches(':') == project));
    includes.then(|| folder.to_owned())
}

/// The build tool's wrapper script `name` nearest to `root`, in its folder or one above it
/// up to `top`, as a path from `root` (`./mvnw`, `../gradlew`).
fn wrapper_up_to(root: &Path, top: &Path, name: &str) -> Option<String> {
    let folder = root.ancestors().take_while(|folder| folder.starts_with(top)).find(|folder| has(folder, name))?;
    let up = relative_up(root, folder)?;
    Some(if up.as_os_str().is_empty() { format!("./{name}") } else { format!("{}/{name}", up.display()) })
}

/// The project paths a Gradle settings script includes (`include("app", ":libs:core")`,
/// `include 'app'`), its comments left out; not `includeBuild`, nor any other string.
fn gradle_includes(settings: &str) -> Vec<String> {
    static COMMENT: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"(?s)/\*.*?\*/|//[^\n]*").expect("the pattern compiles"));
    static INCLUDE: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"\binclude\b\s*\(?([^)\n]*)").expect("the pattern compiles"));
    static QUOTED: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r#""([^"]*)"|'([^']*)'"#).expect("the pattern compiles"));
    let code = COMMENT.replace_all(settings, "");
    INCLUDE
        .captures_iter(&code)
        .flat_map(|include| {
            let arguments = include.get(1).map_or("", |m| m.as_str()).to_owned();
            QUOTED
                .captures_iter(&arguments)
                .filter_map(|quoted| quoted.get(1).or_else(|| quoted.get(2)).map(|m| m.as_str().to_owned()))
                .collect::<Vec<_>>()
        })
        .collect()
}

fn relative_up(root: &Path, folder: &Path) -> Option<PathBuf> {
    let depth = root.strip_prefix(folder).ok()?.components().count();
    Some(std::iter::repeat_n("..", depth).collect())
}

/// `javac -d out/javac-classes @out/javac-sources.txt` over every Java source in the tree,
/// with the jars in `lib/` or `libs/` on the class path.
fn javac_command(tree: &Path, out: &Path) -> std::io::Result<CommandSpec> {
    let mut sources: Vec<PathBuf> = Vec::new();
    let mut jars: Vec<PathBuf> = Vec::new();
    for entry in java_source_walk(tree, None, false).flatten() {
        let path = entry.path();
        let relative = path.strip_prefix(tree).unwrap_or(path);
        match path.extension().and_then(|e| e.to_str()) {
            Some("java") => sources.push(relative.to_owned()),
            Some("jar") if relative.starts_with("lib") || relative.starts_with("libs") => {
                jars.push(relative.to_owned())
            }
            _ => {}
        }
    }
    sources.sort();
    let quote = |path: &Path| format!("\"{}\"", path.to_string_lossy().replace('\\', "\\\\").replace('"', "\\\""));
    let argfile = out.join("javac-sources.txt");
    let lines: Vec<String> = sources.iter().map(|source| quote(source)).collect();
    std::fs::write(&argfile, lines.join("\n") + "\n")?;
    let classes = out.join("javac-classes");
    // javac writes its diagnostics in the JVM's language (`エラー:` under a Japanese locale,
    // or `JAVA_TOOL_OPTIONS=-Duser.language=ja`), and they are read in English: the `-J` flags
    // come after the tool options and win.
    let mut spec = CommandSpec::new(
        "javac",
        &[
            "-J-Duser.language=en",
            "-J-Duser.country=US",
            "-d",
            &classes.to_string_lossy(),
            "-encoding",
            "UTF-8",
            "-Xmaxerrs",
            "500",
            "-Xlint:none",
        ],
    );
    if !jars.is_empty() {
        let classpath: Vec<String> = jars.iter().map(|jar| jar.to_string_lossy().into_owned()).collect();
        spec.args.extend(["-cp".to_owned(), classpath.join(":")]);
    }
    spec.args.push(format!("@{}", argfile.to_string_lossy()));
    Ok(spec)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::tree;

    fn project(files: &[&str]) -> tempfile::TempDir {
        let dir = crate::testing::tempdir();
        for file in files {
            let path = dir.path().join(file);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            let text =
                if *file == "package.json" { r#"{"scripts": {"test": "node --test", "build": "tsc"}}"# } else { "" };
            std::fs::write(path, text).unwrap();
        }
        dir
    }

    #[test]
    fn a_command_past_its_time_is_killed_and_one_that_fails_says_nothing() {
        let started = std::time::Instant::now();
        let mut slow = std::process::Command::new("sh");
        slow.args(["-c", "echo early; sleep 30"]);
        assert_eq!(output_within(slow, Duration::from_millis(200)), None);
        assert!(started.elapsed() < Duration::from_secs(10), "{:?}", started.elapsed());
        let mut fails = std::process::Command::new("sh");
        fails.args(["-c", "echo half; exit 3"]);
        assert_eq!(output_within(fails, Duration::from_secs(5)), None);
        let mut quick = std::process::Command::new("sh");
        quick.args(["-c", "echo /w/Cargo.toml"]);
        assert_eq!(output_within(quick, Duration::from_secs(5)).as_deref(), Some(&b"/w/Cargo.toml\n"[..]));
        assert_eq!(output_within(std::process::Command::new("/no/such/tool"), Duration::from_secs(1)), None);
        let mut long = std::process::Command::new("sh");
        long.args(["-c", "head -c 300000 /dev/zero"]);
        assert_eq!(
            output_within(long, Duration::from_secs(5)).map(|bytes| bytes.len()),
            Some(300_000),
            "read as it runs"
        );
    }

    #[test]
    fn build_files_choose_the_toolchain() {
        let cases: [(&[&str], Option<Toolchain>); 6] = [
            (&["Cargo.toml"], Some(Toolchain::Cargo)),
            (&["pom.xml", "package.json"], Some(Toolchain::Maven)),
            (&["settings.gradle.kts"], Some(Toolchain::Gradle)),
            (&["package.json"], Some(Toolchain::TypeScript)),
            (&["src/a/B.java"], Some(Toolchain::Javac)),
            (&["README.md"], None),
        ];
        for (files, toolchain) in cases {
            let dir = project(files);
            assert_eq!(detect(dir.path(), &ValidateSettings::default()).toolchain, toolchain, "{files:?}");
        }
    }

    #[test]
    fn a_solution_is_built_with_no_emit_where_its_typescript_takes_it() {
        let solution = r#"{ "files": [], "references": [{ "path": "./tsconfig.app.json" }] }"#;
        for (version, mode) in
            [("5.9.3", TscMode::Build { no_emit: true }), ("5.4.5", TscMode::Build { no_emit: false })]
        {
            let dir = tree::<&str>(&[
                ("tsconfig.json", solution),
                ("node_modules/.bin/tsc", ""),
                ("node_modules/typescript/package.json", &format!(r#"{{ "version": "{version}" }}"#)),
            ]);
            let plan = detect(dir.path(), &ValidateSettings::default());
            assert_eq!(plan.check, Some(Step::Tsc { installed: PathBuf::new(), mode }), "{version}");
            let command = plan.check.unwrap().command(dir.path(), dir.path(), None).unwrap();
            assert_eq!(command.args[..2], ["-b", "."], "build mode comes first");
            assert_eq!(command.args.contains(&"--noEmit".to_owned()), mode == TscMode::Build { no_emit: true });
        }
    }

    #[test]
    fn npm_scripts_serve_when_there_is_no_local_tsc() {
        let dir = project(&["package.json", "tsconfig.json"]);
        let plan = detect(dir.path(), &ValidateSettings::default());
        assert_eq!(plan.check, Some(Step::Npm { script: "build".into() }));
        assert_eq!(plan.test, Some(Step::Npm { script: "test".into() }));
    }

    #[test]
    fn a_crate_of_a_workspace_further_up_is_built_from_there_as_its_own_package() {
        let crate_manifest = "[package]\nname = \"a\"\nversion.workspace = true\n";
        let workspace = "[workspace]\nmembers = [\"crates/*\", \"tools/own\"]\nexclude = [\"crates/old\"]\n\n[workspace.package]\nversion = \"0.1.0\"\n";
        let dir = tree::<&str>(&[
            (".git/HEAD", ""),
            ("Cargo.toml", workspace),
            ("crates/a/Cargo.toml", crate_manifest),
            ("crates/a/src/lib.rs", ""),
            ("tools/Cargo.toml", "[workspace]\n"),
            ("tools/own/Cargo.toml", "[package]\nname = \"own\"\nversion = \"0.1.0\"\nworkspace = \"../..\"\n"),
            ("tools/own/src/lib.rs", ""),
            ("crates/old/Cargo.toml", "[package]\nname = \"old\"\nversion = \"0.1.0\"\n"),
            ("crates/old/src/lib.rs", ""),
            ("fixtures/lone/Cargo.toml", "[package]\nname = \"lone\"\nversion = \"0.1.0\"\n"),
            ("fixtures/lone/src/lib.rs", ""),
        ]);
        let root = dir.path();
        let plan = detect(&root.join("crates/a"), &ValidateSettings::default());
        assert_eq!(plan.build_root.as_deref(), Some(root));
        assert_eq!(plan.check, Some(Step::Cargo { test: false, workspace: false }));
        let args = plan.check.unwrap().command(root, root, None).unwrap().args;
        assert_eq!(args, ["check", "--all-targets", "--message-format=json"], "the package, not every member");
        // `package.workspace` names the root outright, past a nearer `[workspace]`.
        let named = detect(&root.join("tools/own"), &ValidateSettings::default());
        assert_eq!(named.build_root.as_deref(), Some(root));
        // The workspace's root itself, a crate it excludes and one it does not list (whose
        // own build Cargo refuses) are built where they are.
        for folder in ["", "crates/old", "fixtures/lone"] {
            let plan = detect(&root.join(folder), &ValidateSettings::default());
            assert_eq!(plan.build_root, None, "{folder}");
            assert_eq!(plan.check, Some(Step::Cargo { test: false, workspace: true }), "{folder}");
        }
        // Opened through a link (`~/code -> /mnt/data/code`), the crate is still the
        // workspace's member, built from the workspace's root as the link names it.
        #[cfg(unix)]
        {
            let links = tempfile::tempdir().unwrap();
            let linked = links.path().join("code");
            std::os::unix::fs::symlink(root, &linked).unwrap();
            let plan = detect(&linked.join("crates/a"), &ValidateSettings::default());
            assert_eq!(plan.build_root.as_deref(), Some(linked.as_path()));
        }
    }

    #[test]
    fn a_gradle_subproject_is_built_by_the_build_whose_settings_include_it() {
        let dir = tree::<&str>(&[
            (".git/HEAD", ""),
            (
                "settings.gradle.kts",
                "rootProject.name = \"docs\"\ninclude(\"app\", \"libs:core\")\n// include(\"legacy\")\nincludeBuild(\"tools/lint\")\n",
            ),
            ("gradlew", "#!/bin/sh\n"),
            ("app/build.gradle.kts", "dependencies { implementation(project(\":libs:core\")) }\n"),
            ("libs/core/build.gradle.kts", ""),
            ("tools/lint/build.gradle", ""),
            ("legacy/build.gradle", ""),
            ("docs/build.gradle", ""),
            ("standalone/settings.gradle", "rootProject.name = 'standalone'\n"),
            ("standalone/build.gradle", ""),
        ]);
        let root = dir.path();
        for (folder, wrapper) in [("app", "../gradlew"), ("libs/core", "../../gradlew")] {
            let plan = detect(&root.join(folder), &ValidateSettings::default());
            assert_eq!(plan.build_root.as_deref(), Some(root), "{folder}");
            let args = plan.check.unwrap().command(root, root, None).unwrap();
            assert_eq!(args.program, wrapper, "{folder}");
            assert_eq!(args.args, ["--offline", "--console=plain", "compileJava"]);
        }
        // Not included by the settings above, or with settings of its own: built where it is,
        // with plain `gradle`.
        for folder in ["tools/lint", "standalone", "legacy", "docs"] {
            let plan = detect(&root.join(folder), &ValidateSettings::default());
            assert_eq!(plan.build_root, None, "{folder}");
            assert_eq!(plan.check.unwrap().command(root, root, None).unwrap().program, "gradle", "{folder}");
        }
        let top = detect(root, &ValidateSettings::default());
        assert_eq!(
            (top.build_root, top.check.unwrap().command(root, root, None).unwrap().program),
            (None, "./gradlew".into())
        );
    }

    #[test]
    fn the_search_for_a_workspace_stops_at_the_repository_and_at_a_manifest_that_does_not_parse() {
        let lone = "[package]\nname = \"lone\"\n";
        let dir = tree::<&str>(&[
            ("Cargo.toml", "[workspace]\n"),
            ("repo/.git/HEAD", ""),
            ("repo/Cargo.toml", lone),
            ("other/Cargo.toml", "[workspace\n"),
            ("other/inner/Cargo.toml", lone),
            ("named/Cargo.toml", "[package]\nname = \"x\"\nworkspace = \"../nowhere\"\n"),
        ]);
        for folder in ["repo", "other/inner", "named"] {
            let plan = detect(&dir.path().join(folder), &ValidateSettings::default());
            assert_eq!(plan.build_root, None, "{folder}");
            assert_eq!(plan.check, Some(Step::Cargo { test: false, workspace: true }), "{folder}");
        }
    }

    #[test]
    fn configured_commands_win() {
        let dir = project(&["Cargo.toml"]);
        let settings = ValidateSettings { check: Some("make lint".into()), ..ValidateSettings::default() };
        let plan = detect(dir.path(), &settings);
        assert_eq!(plan.check, Some(Step::Configured("make lint".into())));
        assert_eq!(plan.test, Some(Step::Cargo { test: true, workspace: true }));
    }

    #[test]
    fn filters_are_names_not_options_or_shell() {
        assert!(check_filter("tests::counts").is_ok());
        assert!(check_filter("GreeterTest#greets*").is_ok());
        for bad in ["", "--nocapture", "a; rm -rf /", "$(x)", "a b", &"x".repeat(201)] {
            assert!(check_filter(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn ignore_files_above_the_project_do_not_hide_its_java_sources() {
        // A home folder kept in git that ignores everything it does not list.
        let home = project(&[".git/HEAD", "project/src/A.java"]);
        std::fs::write(home.path().join(".gitignore"), "*\n").unwrap();
        let tree = home.path().join("project");
        assert!(has_java_sources(&tree));
        let out = crate::testing::tempdir();
        Step::Javac.command(&tree, out.path(), None).unwrap();
        assert_eq!(std::fs::read_to_string(out.path().join("javac-sources.txt")).unwrap(), "\"src/A.java\"\n");
    }

    #[test]
    fn javac_gets_every_source_in_an_argument_file() {
        let tree = project(&[
            "src/com/acme/A.java",
            "src/com/acme/build/Builder.java",
            "with space/B.java",
            "lib/dep.jar",
            "target/Gen.java",
            "out/Old.java",
        ]);
        let out = crate::testing::tempdir();
        let spec = Step::Javac.command(tree.path(), out.path(), None).unwrap();
        let argfile = std::fs::read_to_string(out.path().join("javac-sources.txt")).unwrap();
        assert_eq!(
            argfile, "\"src/com/acme/A.java\"\n\"src/com/acme/build/Builder.java\"\n\"with space/B.java\"\n",
            "a package named like build output is a package"
        );
        assert!(spec.args.windows(2).any(|pair| pair == ["-cp", "lib/dep.jar"]));
    }
}
