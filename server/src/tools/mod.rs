//! The agent's toolset: the only way a model touches code.
//!
//! Every call is checked against its tool's JSON Schema before anything runs; a call that
//! does not validate comes back to the model as an error naming the field. Valid calls act
//! on the run's [`Overlay`], never on the user's files.

mod args;
mod redacted;
mod search;
mod seen;

use std::sync::LazyLock;

use serde::de::DeserializeOwned;
use serde_json::Value;

pub use crate::workspace::{cut_head_tail, strip_ansi};
pub use args::RunTestsArgs;
pub use seen::{Seen, UnseenDrop};

use crate::context::Index;
use crate::context::doc_comments::dropped_doc_tail;
use crate::llm::{ToolCall, ToolSpec};
use crate::workspace::{BaseError, Overlay, OverlayError, WorkspacePath, generated_marker, licence_header};
use args::{
    FindSymbolArgs, GrepArgs, ListFilesArgs, PatchFileArgs, PathArgs, ReadFileArgs, RunCheckArgs, WriteFileArgs,
};

/// Longest tool output a model receives, in characters; longer output keeps head and tail.
pub const MAX_OUTPUT_CHARS: usize = 60_000;
/// Most lines one `read_file` returns.
pub const MAX_READ_LINES: usize = 2_000;
/// Most file text one `read_file` returns, in characters as
/// [`text_measure`](crate::workspace::text_measure) counts them (whole lines; the rest on
/// request).
pub const MAX_READ_CHARS: usize = 50_000;
/// Most entries one `list_files` returns.
pub const MAX_LISTED: usize = 1_000;

/// The result of one tool call, as the model will read it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolOutcome {
    /// False when the call was refused or failed; nothing changed then.
    pub ok: bool,
    /// Text for the model.
    pub output: String,
    /// True when the call staged a change in the overlay.
    pub changed: bool,
    /// True when the arguments did not match the tool's schema (or were not JSON).
    pub invalid_arguments: bool,
}

impl ToolOutcome {
    fn ok(output: String, changed: bool) -> Self {
        Self { ok: true, output, changed, invalid_arguments: false }
    }

    fn error(output: String) -> Self {
        Self { ok: false, output, changed: false, invalid_arguments: false }
    }

    fn invalid(output: String) -> Self {
        Self { invalid_arguments: true, ..Self::error(output) }
    }
}

struct Tool {
    spec: ToolSpec,
    validator: jsonschema::Validator,
}

/// The tools with their compiled schemas.
pub struct Toolset {
    tools: Vec<Tool>,
}

/// The tools that run the project's configured check and tests. The driver carries them
/// out (they need the validator and the run's cancel); [`Toolset::execute`] refuses them.
pub const VALIDATION_TOOLS: [&str; 2] = ["run_check", "run_tests"];

/// The tools that only read: once a turn's results have taken what a turn may, the driver
/// answers further ones without running them.
pub const READING_TOOLS: [&str; 4] = ["read_file", "list_files", "grep", "find_symbol"];

static STANDARD: LazyLock<Toolset> = LazyLock::new(|| Toolset::build(false));
static WITH_VALIDATION: LazyLock<Toolset> = LazyLock::new(|| Toolset::build(true));

fn parameters<T: schemars::JsonSchema>() -> Value {
    let mut schema = schemars::schema_for!(T).to_value();
    if let Some(object) = schema.as_object_mut() {
        object.remove("$schema");
        object.remove("title");
        object.remove("description");
    }
    schema
}

impl Toolset {
    /// The standard toolset, built once.
    pub fn standard() -> &'static Toolset {
        &STANDARD
    }

    /// The standard toolset plus `run_check` and `run_tests`, for projects with a check.
    pub fn with_validation() -> &'static Toolset {
        &WITH_VALIDATION
    }

    fn build(validation: bool) -> Self {
        let mut specs = vec![
            ToolSpec {
                name: "read_file",
                description: "Read a file (or lines start_line..end_line of it) as it stands with your staged changes.",
                parameters: parameters::<ReadFileArgs>(),
            },
            ToolSpec {
                name: "list_files",
                description: "List the files below a directory, recursively, as they stand with your staged changes (.gitignore respected).",
                parameters: parameters::<ListFilesArgs>(),
            },
            ToolSpec {
                name: "grep",
                description: "Search files for lines matching a regular expression, as they stand with your staged changes; answers `path:line: text`.",
                parameters: parameters::<GrepArgs>(),
            },
            ToolSpec {
                name: "find_symbol",
                description: "Find where a function, type, trait, constant or module is defined (with its signature) and where it is used (files and lines). Qualify a common name to narrow it: `Type::method`, `Class.method`, `module::Name`.",
                parameters: parameters::<FindSymbolArgs>(),
            },
            ToolSpec {
                name: "patch_file",
                description: "Replace old_text, which must occur exactly once in the file, by new_text. Copy old_text exactly from the file, with enough surrounding lines to be unique. Zero or several matches change nothing and report where.",
                parameters: parameters::<PatchFileArgs>(),
            },
            ToolSpec {
                name: "write_file",
                description: "Create a file or replace its whole content; parent directories are created. Prefer patch_file for changes to existing files: a whole content that leaves out lines of the file you have not been shown is refused.",
                parameters: parameters::<WriteFileArgs>(),
            },
            ToolSpec {
                name: "mkdir",
                description: "Create a directory (and its parents).",
                parameters: parameters::<PathArgs>(),
            },
            ToolSpec { name: "delete_file", description: "Delete a file.", parameters: parameters::<PathArgs>() },
        ];
        if validation {
            specs.push(ToolSpec {
                name: "run_check",
                description: "Run the project's check command (its compiler or type checker) on the code as it stands with your staged changes; answers with the errors, their places and the lines around them. It also runs by itself after every turn that changed files.",
                parameters: parameters::<RunCheckArgs>(),
            });
            specs.push(ToolSpec {
                name: "run_tests",
                description: "Run the project's test command on the code as it stands with your staged changes; answers with each failing test placed at its failing line.",
                parameters: parameters::<RunTestsArgs>(),
            });
        }
        let tools = specs
            .into_iter()
            .map(|spec| {
                let validator =
                    jsonschema::validator_for(&spec.parameters).expect("tool schemas are valid JSON Schema");
                Tool { spec, validator }
            })
            .collect();
        Self { tools }
    }

    /// The descriptors the model is given.
    pub fn specs(&self) -> Vec<ToolSpec> {
        self.tools.iter().map(|tool| tool.spec.clone()).collect()
    }

    /// Checks `arguments` against the schema of tool `name`; the error names each field.
    pub fn validate(&self, name: &str, arguments: &Value) -> Result<(), String> {
        let Some(tool) = self.tools.iter().find(|tool| tool.spec.name == name) else {
            let names: Vec<&str> = self.tools.iter().map(|tool| tool.spec.name).collect();
            return Err(format!("unknown tool `{name}`; the tools are: {}", names.join(", ")));
        };
        let problems: Vec<String> = tool
            .validator
            .iter_errors(arguments)
            .map(|error| {
                let at = error.instance_path().to_string();
                if at.is_empty() { error.to_string() } else { format!("{at}: {error}") }
            })
            .collect();
        if problems.is_empty() {
            Ok(())
        } else {
            Err(format!("invalid arguments for `{name}`: {}", problems.join("; ")))
        }
    }

    /// Validates and runs one call against the overlay; `index` answers `find_symbol`, and
    /// `seen` keeps what the model has been shown of each file.
    pub fn execute(
        &self,
        overlay: &mut Overlay,
        index: Option<&Index>,
        seen: &mut Seen,
        call: &ToolCall,
    ) -> ToolOutcome {
        self.execute_within(overlay, index, seen, call, MAX_READ_CHARS)
    }

    /// [`execute`](Self::execute), with `read_file` returning at most `max_read_chars` of
    /// text (whole lines): a model with a small context window reads in smaller pieces.
    pub fn execute_within(
        &self,
        overlay: &mut Overlay,
        index: Option<&Index>,
        seen: &mut Seen,
        call: &ToolCall,
        max_read_chars: usize,
    ) -> ToolOutcome {
        if let Some(problem) = &call.malformed {
            return ToolOutcome::invalid(format!(
                "the arguments of `{}` are not valid JSON ({problem}); nothing was run. If your answer was cut off, make smaller changes per call",
                call.name
            ));
        }
        if let Err(message) = self.validate(&call.name, &call.arguments) {
            return ToolOutcome::invalid(message);
        }
        let result = match call.name.as_str() {
            "read_file" => with_args(&call.arguments, |a: ReadFileArgs| {
                read_file(overlay, seen, a, max_read_chars.min(MAX_READ_CHARS))
            }),
            "list_files" => with_args(&call.arguments, |a: ListFilesArgs| list_files(overlay, a)),
            "grep" => search_args(&call.arguments, |a: GrepArgs| search::grep(overlay, a)),
            "find_symbol" => search_args(&call.arguments, |a: FindSymbolArgs| search::find_symbol(overlay, index, a)),
            "patch_file" => with_args(&call.arguments, |a: PatchFileArgs| patch_file(overlay, seen, a)),
            "write_file" => with_args(&call.arguments, |a: WriteFileArgs| write_file(overlay, seen, a)),
            "mkdir" => with_args(&call.arguments, |a: PathArgs| mkdir(overlay, a)),
            "delete_file" => with_args(&call.arguments, |a: PathArgs| delete_file(overlay, a)),
            name if VALIDATION_TOOLS.contains(&name) => {
                Err(format!("`{name}` is carried out by the run itself and cannot run here"))
            }
            other => unreachable!("validate() accepted unknown tool {other}"),
        };
        match result {
            Ok(outcome) => ToolOutcome { output: cut_head_tail(&outcome.output, MAX_OUTPUT_CHARS), ..outcome },
            Err(error) => ToolOutcome::error(cut_head_tail(&error, MAX_OUTPUT_CHARS)),
        }
    }
}

fn with_args<T: DeserializeOwned>(
    arguments: &Value,
    run: impl FnOnce(T) -> Result<ToolOutcome, OverlayError>,
) -> Result<ToolOutcome, String> {
    run(parse_args(arguments)?).map_err(|error| match what_to_do(&error) {
        Some(advice) => format!("{error}; {advice}"),
        None => error.to_string(),
    })
}

fn search_args<T: DeserializeOwned>(
    arguments: &Value,
    run: impl FnOnce(T) -> Result<ToolOutcome, String>,
) -> Result<ToolOutcome, String> {
    run(parse_args(arguments)?)
}

/// The arguments as the tool takes them. A whole number written with a fraction (`10.0`), which
/// the schema counts as an integer, is taken as that integer.
fn parse_args<T: DeserializeOwned>(arguments: &Value) -> Result<T, String> {
    let mut arguments = arguments.clone();
    if let Some(fields) = arguments.as_object_mut() {
        for value in fields.values_mut() {
            if let Some(whole) = value.as_f64().filter(|n| n.fract() == 0.0 && *n >= 0.0 && *n <= u32::MAX as f64)
                && !value.is_u64()
            {
                *value = Value::from(whole as u64);
            }
        }
    }
    serde_json::from_value(arguments).map_err(|error| format!("invalid arguments: {error}"))
}

/// What the model can do about a refusal whose message does not say it already.
fn what_to_do(error: &OverlayError) -> Option<&'static str> {
    match error {
        OverlayError::NotFound(_) => Some("list_files shows the files there are, and write_file creates a new one"),
        OverlayError::IsDirectory(_) => Some("list_files lists what it holds"),
        OverlayError::Base(_, BaseError::NotText | BaseError::TooLarge(_) | BaseError::NotAFile) => {
            Some("it can be neither read nor changed here: if it must change, say in your summary how")
        }
        _ => None,
    }
}

fn file_path(raw: &str) -> Result<WorkspacePath, OverlayError> {
    Ok(WorkspacePath::parse(raw)?)
}

fn read_file(
    overlay: &mut Overlay,
    seen: &mut Seen,
    args: ReadFileArgs,
    max_chars: usize,
) -> Result<ToolOutcome, OverlayError> {
    let path = file_path(&args.path)?;
    if names_secrets(overlay, &path) {
        return Err(OverlayError::Secret(path));
    }
    let start = args.start_line.map(|line| line as usize);
    let end = args.end_line.map(|line| line as usize);
    let view = overlay.read_file(&path, start, end)?;
    if view.total_lines == 0 {
        return Ok(ToolOutcome::ok(format!("{path} is empty.\n"), false));
    }
    // Whole lines only, within both the line and the character budget: the model is told
    // exactly where to go on, and never gets a text with its middle cut out.
    let mut last = view.last_line.min(view.first_line + MAX_READ_LINES - 1);
    // Measured as the cut on the way to the model measures (a line of Chinese is as long as
    // its tokens), so what fits here is not cut there.
    let mut text = String::new();
    let mut measured = 0;
    for (number, line) in (view.first_line..=last).zip(view.text.split_inclusive('\n')) {
        let line_measure = crate::workspace::text_measure(line);
        if !text.is_empty() && measured + line_measure > max_chars {
            last = number - 1;
            break;
        }
        text.push_str(line);
        measured += line_measure;
    }
    // A first line longer than the budget is still returned, and cut on its way to the model.
    if measured <= max_chars {
        // Lines read through a link are seen as the real file's, the path changes go by.
        seen.saw_lines(overlay.file_behind(&path).as_str(), text.lines());
    }
    let mut output = format!("{path} (lines {}-{last} of {}):\n{text}", view.first_line, view.total_lines);
    if last == view.total_lines && !text.is_empty() && !text.ends_with('\n') {
        output.push_str("\n[no newline at end of file]\n");
    }
    if last < view.total_lines {
        if !output.ends_with('\n') {
            output.push('\n');
        }
        output.push_str(&format!(
            "[{} more lines; call read_file with start_line={}]\n",
            view.total_lines - last,
            last + 1
        ));
    }
    Ok(ToolOutcome::ok(output, false))
}

fn list_files(overlay: &mut Overlay, args: ListFilesArgs) -> Result<ToolOutcome, OverlayError> {
    let dir = WorkspacePath::parse_dir(args.path.as_deref().unwrap_or(""))?;
    // Dependencies, build output and hidden folders are named once, not listed file by file.
    let (listed, left_out) = search::apart_from_left_out(overlay.root().path(), &dir, overlay.list_files(&dir)?);
    if listed.is_empty() && left_out.is_empty() {
        // A folder named whose every file an ignore file leaves out (`logs/` of `*.log`): its
        // files are there to read, and said to be ignored.
        let ignored = overlay.ignored_files(&dir, &[], MAX_LISTED + 1)?;
        if ignored.is_empty() {
            return Ok(ToolOutcome::ok(format!("{dir} holds no files.\n"), false));
        }
        let mut output = format!("{dir} holds only files its ignore files (.gitignore and the like) leave out:\n");
        for path in ignored.iter().take(MAX_LISTED) {
            output.push_str(path.as_str());
            output.push('\n');
        }
        if ignored.len() > MAX_LISTED {
            output.push_str("[and more; list a subdirectory]\n");
        }
        output.push_str("[ignored files are left out of listings and searches; read_file reads one, grep searches one given as its path]\n");
        return Ok(ToolOutcome::ok(output, false));
    }
    let mut output = String::new();
    for entry in listed.iter().take(MAX_LISTED) {
        output.push_str(entry.path.as_str());
        output.push_str(if entry.is_dir { "/\n" } else { "\n" });
    }
    if listed.len() > MAX_LISTED {
        output.push_str(&format!("[{} more; list a subdirectory]\n", listed.len() - MAX_LISTED));
    }
    if !left_out.is_empty() {
        let folders: Vec<String> = left_out
            .iter()
            .map(|(folder, files)| format!("{folder}/ ({files} file{})", if *files == 1 { "" } else { "s" }))
            .collect();
        output.push_str(&format!(
            "[not listed: {} (dependencies, build output or hidden); give one as the path to list it]\n",
            folders.join(", ")
        ));
    }
    Ok(ToolOutcome::ok(output, false))
}

/// Whether `path` is a credentials file by its name, or by the name of the file a link at it
/// leads to (`config/app.conf -> ../.env`).
pub(crate) fn names_secrets(overlay: &Overlay, path: &WorkspacePath) -> bool {
    overlay.root().names_secrets(path)
}

/// Refuses to change a credentials file the workspace has: what a patch matches, or what a
/// write leaves out, would tell what it holds, and a lost key is worse than a missing edit.
/// One the run created is its own.
fn refuse_changing_secrets(overlay: &mut Overlay, path: &WorkspacePath) -> Result<(), OverlayError> {
    if !names_secrets(overlay, path) {
        return Ok(());
    }
    let the_users = match overlay.touched_texts(path) {
        Some((base, _)) => base.is_some(),
        None => overlay.current_text(path)?.is_some(),
    };
    if the_users { Err(OverlayError::SecretChange(path.clone())) } else { Ok(()) }
}

/// Refuses a change to a credentials file or through a link (see both).
fn refuse_changing(overlay: &mut Overlay, path: &WorkspacePath) -> Result<(), OverlayError> {
    refuse_changing_secrets(overlay, path)?;
    refuse_changing_through_links(overlay, path)
}

/// Refuses to change a file by a name that reaches it through a link (`CHANGELOG.md ->
/// docs/CHANGELOG.md`, or a file below a linked folder), naming the real path: a change by the
/// link's name would stand apart from one by the real name, each over the same text, and
/// written back it would replace the link with a file of its own.
fn refuse_changing_through_links(overlay: &Overlay, path: &WorkspacePath) -> Result<(), OverlayError> {
    match overlay.root().real_relative(path) {
        Ok(real) if real != path.as_str() => Err(OverlayError::ThroughLink { path: path.clone(), real }),
        // A path a link leads out by is refused where it is resolved.
        _ => Ok(()),
    }
}

fn patch_file(overlay: &mut Overlay, seen: &mut Seen, args: PatchFileArgs) -> Result<ToolOutcome, OverlayError> {
    let path = file_path(&args.path)?;
    refuse_changing(overlay, &path)?;
    let before = overlay.current_text(&path).ok().flatten();
    // Lines copied with a secret's marker are the file's lines, secret and all.
    let current = before.as_deref().unwrap_or_default();
    let (old_text, new_text) = match redacted::restore_patch(&args.old_text, &args.new_text, current) {
        Ok(texts) => texts,
        Err(refusal) => return Ok(ToolOutcome::error(format!("nothing changed in {path}: {refusal}\n"))),
    };
    let args = PatchFileArgs { old_text: old_text.into_owned(), new_text: new_text.into_owned(), ..args };
    let outcome = overlay.patch_file(&path, &args.old_text, &args.new_text)?;
    let changed = overlay.current_text(&path).ok().flatten() != before;
    // The model knows the lines it changed, also those it changed only a part of; a patch
    // that only takes text out leaves none (the line after it is not one it saw).
    if !args.new_text.trim().is_empty()
        && let Some((_, Some(text))) = overlay.touched_texts(&path)
    {
        let lines: Vec<&str> = text.lines().collect();
        let (first, last) = (outcome.first_line.max(1), outcome.last_line.max(outcome.first_line).min(lines.len()));
        seen.saw_lines(path.as_str(), lines.get(first - 1..last).unwrap_or_default().iter().copied());
    }
    let lines = if outcome.first_line >= outcome.last_line {
        format!("line {}", outcome.first_line)
    } else {
        format!("lines {}-{}", outcome.first_line, outcome.last_line)
    };
    if !changed {
        return Ok(ToolOutcome::ok(format!("{path} is unchanged: the new text is the old text, at {lines}.\n"), false));
    }
    let note = generated_note(overlay, &path);
    Ok(ToolOutcome::ok(format!("patched {path}: the new text is at {lines}.\n{note}"), true))
}

fn write_file(overlay: &mut Overlay, seen: &mut Seen, args: WriteFileArgs) -> Result<ToolOutcome, OverlayError> {
    let path = file_path(&args.path)?;
    refuse_changing(overlay, &path)?;
    let before = overlay.current_text(&path).ok().flatten();
    // A file the run deleted is judged by the text it had: deleting it first is no way around.
    let current = before.as_deref().or_else(|| overlay.touched_texts(&path).and_then(|(base, _)| base));
    // Lines copied with a secret's marker are the file's lines, secret and all.
    let content = match current.map(|text| redacted::restore(&args.content, text)) {
        Some(Ok(content)) => content.into_owned(),
        Some(Err(refusal)) => return Ok(ToolOutcome::error(format!("nothing written to {path}: {refusal}\n"))),
        None => args.content.clone(),
    };
    let args = WriteFileArgs { content, ..args };
    // The pack shows files without their licence header, so a model writing a file whole from
    // what it saw would drop it.
    if let Some(header) = current.and_then(licence_header).filter(|h| !h.is_kept_in(&args.content)) {
        return Ok(ToolOutcome::error(format!(
            "nothing written: {path} starts with a licence header (lines 1-{}) that this content leaves out. \
             Change the file with patch_file, or start the content with the header as the file has it \
             (read_file with end_line {} shows it).\n",
            header.lines, header.lines
        )));
    }
    // Nor does it show the rest of a long documentation comment, past its first lines.
    if let Some((start, end)) = current.and_then(|text| dropped_doc_tail(path.as_str(), text, &args.content)) {
        return Ok(ToolOutcome::error(format!(
            "nothing written: this content keeps the first lines of the documentation comment above line {start} \
             of {path} but drops its lines {start}-{end}, which the context pack leaves out when it cuts the file. \
             Write it with those lines as the file has them (read_file with start_line {start} and end_line {end} \
             shows them), or change the file with patch_file, which can also take those lines out if that is \
             what you mean.\n"
        )));
    }
    // Nor, in general, any code the run has not shown: the rest of a file shown in part, or a
    // file never read.
    if let Some(drop) = current.and_then(|text| seen.unseen_dropped(path.as_str(), text, &args.content)) {
        let (start, end) = drop.ranges[0];
        return Ok(ToolOutcome::error(format!(
            "nothing written: this content leaves out {} of {path} ({} line{} of code), which you have not been \
             shown. Change the file with patch_file, which replaces only the text you give it; or read them \
             (read_file with start_line {start} and end_line {end} shows the first) and write the file with them, \
             or without them if that is what you mean.\n",
            drop.describe(),
            drop.lines,
            if drop.lines == 1 { "" } else { "s" }
        )));
    }
    let outcome = overlay.write_file(&path, &args.content)?;
    seen.saw_whole(path.as_str());
    if overlay.current_text(&path).ok().flatten() == before {
        return Ok(ToolOutcome::ok(format!("{path} is unchanged: it already holds this content.\n"), false));
    }
    let (verb, note) =
        if outcome.created { ("created", String::new()) } else { ("replaced", generated_note(overlay, &path)) };
    Ok(ToolOutcome::ok(format!("{verb} {path} ({} lines).\n{note}", outcome.lines), true))
}

/// A warning for a change to a file whose header says a tool writes it, as the user has it
/// or as the run left it: the change stands in the proposal, but the model should change the
/// source as well (and a header it removed does not make the file its own).
fn generated_note(overlay: &Overlay, path: &WorkspacePath) -> String {
    let (base, current) = overlay.touched_texts(path).unwrap_or_default();
    match base.and_then(generated_marker).or_else(|| current.and_then(generated_marker)) {
        Some(marker) => format!(
            "note: {path} says it is generated (`{marker}`), so this change is lost when it is generated again; \
             change what it is generated from (a schema, a .proto file, a template) too, or instead.\n"
        ),
        None => String::new(),
    }
}

fn mkdir(overlay: &mut Overlay, args: PathArgs) -> Result<ToolOutcome, OverlayError> {
    let path = file_path(&args.path)?;
    refuse_changing_through_links(overlay, &path)?;
    let created = overlay.mkdir(&path)?;
    let output =
        if created { format!("created directory {path}.\n") } else { format!("directory {path} already exists.\n") };
    Ok(ToolOutcome::ok(output, created))
}

fn delete_file(overlay: &mut Overlay, args: PathArgs) -> Result<ToolOutcome, OverlayError> {
    let path = file_path(&args.path)?;
    refuse_changing(overlay, &path)?;
    overlay.delete_file(&path)?;
    Ok(ToolOutcome::ok(format!("deleted {path}.\n"), true))
}

#[cfg(test)]
mod tests;
