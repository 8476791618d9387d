//! Searching the code as the run sees it: `grep` over the overlay, `find_symbol` from the index.

use std::collections::{HashMap, HashSet};
use std::fmt::Write;

use regex::{Regex, RegexBuilder};

use super::ToolOutcome;
use super::args::{FindSymbolArgs, GrepArgs};
use crate::context::extract::use_lines;
use crate::context::namesakes::{FileScope, ImportedModules, NameHomes};
use crate::context::walk::{hidden_away, skipped_folder};
use crate::context::{
    Definition, DefinitionKind, FileOutside, ImportHint, Index, IndexOutside, IndexedFile, Language, Outside,
    OutsideNames, prelude_over_members,
};
use crate::workspace::{Listed, Overlay, OverlayError, WorkspacePath, visible_controls};

/// Most matching lines one `grep` returns.
pub const MAX_MATCHES: usize = 200;
/// Most files one `grep` reads: past them it stops and says so.
const MAX_SEARCHED_FILES: usize = 20_000;
/// Most bytes of text one `grep` reads (a tree of large data files not ignored): past them it
/// stops and says so.
const MAX_SEARCHED_BYTES: usize = 256 * 1024 * 1024;
/// Longest line shown, in characters.
const MAX_LINE_CHARS: usize = 200;
/// Characters shown before a match in a line too long to show whole.
const CHARS_BEFORE_MATCH: usize = 60;
/// Most definitions and referencing files `find_symbol` lists.
const MAX_SYMBOL_RESULTS: usize = 40;
/// Most lines of uses `find_symbol` shows, over all the files it lists.
const MAX_USE_LINES: usize = 60;
/// Most lines of uses `find_symbol` shows of one file.
const MAX_USE_LINES_PER_FILE: usize = 8;

/// Runs `grep`: matching lines as `path:line: text`, through the overlay.
pub fn grep(overlay: &Overlay, args: GrepArgs) -> Result<ToolOutcome, String> {
    grep_within(overlay, args, MAX_SEARCHED_BYTES)
}

/// [`grep`], reading at most about `max_bytes` of text before it stops and says so.
pub(super) fn grep_within(overlay: &Overlay, args: GrepArgs, max_bytes: usize) -> Result<ToolOutcome, String> {
    let regex = RegexBuilder::new(&args.pattern)
        .case_insensitive(args.ignore_case.unwrap_or(false))
        .size_limit(1 << 22)
        .build()
        .map_err(|error| match error {
            regex::Error::CompiledTooBig(_) => format!(
                "the pattern `{}` is too large to search with (a long repeat of a class such as `\\w{{200}}`); use a shorter repeat, a literal, or `(?-u)` before the class",
                args.pattern
            ),
            error => format!("invalid pattern `{}`: {error}", args.pattern),
        })?;
    let scope = WorkspacePath::parse_dir(args.path.as_deref().unwrap_or("")).map_err(|e| e.to_string())?;
    if super::names_secrets(overlay, &scope) {
        return Err(format!("`{scope}` holds secrets (credentials or keys), which are never searched"));
    }
    // A file (on disk, staged, or a buffer the editor has not saved) is searched alone, as
    // read here, and one that cannot be read says why.
    let mut single = match overlay.peek_checked(&scope) {
        _ if scope.is_root() => None,
        Ok(found) => found,
        Err(OverlayError::IsDirectory(_)) => None,
        Err(error) => return Err(error.to_string()),
    };
    let (files, left_out) = match single {
        Some(_) => (vec![scope.clone()], Vec::new()),
        None => {
            let listed = overlay.list_files(&scope).map_err(|error| error.to_string())?;
            let (listed, left_out) = apart_from_left_out(overlay.root().path(), &scope, listed);
            (listed.into_iter().filter(|entry| !entry.is_dir).map(|entry| entry.path).collect(), left_out)
        }
    };
    let mut output = String::new();
    let mut matches = 0;
    let mut unreadable: Vec<&WorkspacePath> = Vec::new();
    let searchable: Vec<&WorkspacePath> = files.iter().filter(|path| !super::names_secrets(overlay, path)).collect();
    let mut cut_short = None;
    let mut bytes_read = 0;
    'files: for (searched, path) in searchable.iter().enumerate() {
        if searched == MAX_SEARCHED_FILES || bytes_read >= max_bytes {
            cut_short = Some(searched);
            break;
        }
        let Some(text) = single.take().or_else(|| overlay.peek(path)) else {
            unreadable.push(path);
            continue;
        };
        bytes_read += text.len();
        for (number, line) in text.lines().enumerate() {
            if regex.is_match(line) {
                if matches == MAX_MATCHES {
                    let _ = writeln!(output, "[more than {MAX_MATCHES} matches; narrow the pattern or the path]");
                    break 'files;
                }
                matches += 1;
                let _ = writeln!(output, "{path}:{}: {}", number + 1, excerpt(line, &regex));
            }
        }
    }
    if matches == 0 {
        output = format!("no line matches `{}` in {scope}.\n", args.pattern);
        // Nothing searched in a folder named whose every file an ignore file leaves out.
        if searchable.is_empty() && left_out.is_empty() && !scope.is_root() {
            let ignored = overlay.ignored_files(&scope, &files, 1_000).unwrap_or_default();
            if !ignored.is_empty() {
                let count = if ignored.len() == 1_000 { "1000 or more".to_owned() } else { ignored.len().to_string() };
                let _ = writeln!(
                    output,
                    "[{scope} holds only files its ignore files leave out ({count}, such as {}); give one as the path to search it]",
                    ignored[0]
                );
            }
        }
    }
    if let Some(searched) = cut_short {
        let _ = writeln!(
            output,
            "[searched the first {searched} of {} files ({}), in path order; narrow the path]",
            searchable.len(),
            if bytes_read < 1024 * 1024 {
                format!("{} KB", bytes_read.div_ceil(1024))
            } else {
                format!("{} MB", bytes_read.div_ceil(1024 * 1024))
            }
        );
    }
    if !left_out.is_empty() {
        let folders: Vec<String> = left_out.iter().take(5).map(|(folder, _)| format!("{folder}/")).collect();
        let more = if left_out.len() > 5 { format!(" and {} more", left_out.len() - 5) } else { String::new() };
        let _ = writeln!(
            output,
            "[not searched: {}{more} (dependencies, build output or hidden); give one as the path to search it]",
            folders.join(", ")
        );
    }
    if let Some(first) = unreadable.first() {
        let others = match unreadable.len() {
            1 => String::new(),
            2 => " and 1 other".to_owned(),
            n => format!(" and {} others", n - 1),
        };
        let _ = writeln!(
            output,
            "[not searched, as not readable as text (binary, another encoding than UTF-8, or too large): {first}{others}]"
        );
    }
    Ok(ToolOutcome::ok(output, false))
}

/// `listed`, the entries below `scope`, apart from those in folders listings and searches
/// leave out ([`left_out_folder_of`]); those folders, each with its count of files, in the
/// order first met.
pub(super) fn apart_from_left_out(
    root: &std::path::Path,
    scope: &WorkspacePath,
    listed: Vec<Listed>,
) -> (Vec<Listed>, Vec<(String, usize)>) {
    let mut kept = Vec::new();
    let mut left_out: Vec<(String, usize)> = Vec::new();
    // Each folder is judged once, however many files it holds: judging a folder named like
    // build output reads its manifests.
    let mut judged: HashMap<String, bool> = HashMap::new();
    for entry in listed {
        match left_out_folder_of(root, scope, &entry.path, &mut judged) {
            // A folder the run made counts no file.
            Some(_) if entry.is_dir => {}
            Some(folder) => match left_out.iter_mut().find(|(known, _)| *known == folder) {
                Some((_, count)) => *count += 1,
                None => left_out.push((folder, 1)),
            },
            None => kept.push(entry),
        }
    }
    (kept, left_out)
}

/// The folder below `scope` holding `path` that listings and searches leave out as the index
/// does (dependencies, tool state, build output) or as hidden (`.cache`; not a project's own,
/// such as `.github`), if any: naming such a folder as the scope lists and searches it.
/// `judged` remembers the folders already judged.
fn left_out_folder_of(
    root: &std::path::Path,
    scope: &WorkspacePath,
    path: &WorkspacePath,
    judged: &mut HashMap<String, bool>,
) -> Option<String> {
    let folders: Vec<&str> = path.as_str().split('/').collect();
    let depth = scope.as_str().split('/').filter(|part| !part.is_empty()).count();
    (depth..folders.len().saturating_sub(1)).find_map(|end| {
        let folder = folders[..=end].join("/");
        let left_out = match judged.get(&folder) {
            Some(left_out) => *left_out,
            None => {
                let left_out = hidden_away(folders[end]) || skipped_folder(root, &folder);
                judged.insert(folder.clone(), left_out);
                left_out
            }
        };
        left_out.then_some(folder)
    })
}

/// A matching line as `grep` shows it: whole when short, else about [`MAX_LINE_CHARS`]
/// characters from a little before the first match, cut marks where text was left out.
/// Control characters (a log's colour codes) are written out, not passed on.
fn excerpt(line: &str, regex: &Regex) -> String {
    let whole = line;
    let line = line.trim_end();
    if line.chars().count() <= MAX_LINE_CHARS {
        return visible_controls(line).into_owned();
    }
    // Found in the line as it was matched: a match of its trailing blanks shows its end.
    let at = regex.find(whole).map_or(0, |found| found.start()).min(line.len());
    let from = line[..at].char_indices().rev().nth(CHARS_BEFORE_MATCH - 1).map_or(0, |(index, _)| index);
    let shown: String = line[from..].chars().take(MAX_LINE_CHARS).collect();
    let before = if from > 0 { "[...] " } else { "" };
    let after = if from + shown.len() < line.len() { " [...]" } else { "" };
    format!("{before}{}{after}", visible_controls(&shown))
}

/// Runs `find_symbol`: where a name is defined, and which files use it on which lines. A
/// qualified name (`Store::dispatch`, `ObjectMapper.readValue`, `net::TcpStream`, `Mapper#read`)
/// keeps the definitions its qualifiers fit: their container, or their module or path. Files
/// the run has changed are read as changed.
pub fn find_symbol(overlay: &Overlay, index: Option<&Index>, args: FindSymbolArgs) -> Result<ToolOutcome, String> {
    let index = index.ok_or("the symbol index is not available yet; use grep to search instead")?;
    let staged: HashMap<String, Option<IndexedFile>> = overlay
        .changes()
        .into_iter()
        .map(|change| {
            let path = change.path.to_string();
            let indexed = change.new_text.as_deref().and_then(|text| {
                Language::of_path(&path).map(|language| IndexedFile::from_source(&path, language, text.as_bytes()))
            });
            (path, indexed)
        })
        .collect();
    // In path order, as the homes of a name are read.
    let mut current: Vec<&IndexedFile> = index
        .files()
        .filter(|file| !staged.contains_key(&file.path))
        .map(|file| file.as_ref())
        .chain(staged.values().flatten())
        .collect();
    current.sort_by(|a, b| a.path.cmp(&b.path));

    let asked = args.name.trim();
    let wanted = SymbolName::parse(asked).ok_or_else(|| format!("`{asked}` holds no name to look up"))?;
    let mut definitions: Vec<(&IndexedFile, &Definition)> = Vec::new();
    let mut only_other_case = false;
    for exact in [true, false] {
        only_other_case = !exact;
        for file in &current {
            for definition in &file.symbols.definitions {
                let matches = if exact {
                    definition.name == wanted.name
                } else {
                    definition.name.eq_ignore_ascii_case(&wanted.name)
                };
                if matches {
                    definitions.push((file, definition));
                }
            }
        }
        if !definitions.is_empty() {
            break;
        }
    }
    // Qualifiers narrow the definitions; when none fits, every one is shown and the answer says so.
    let mut unfit = false;
    if !wanted.qualifiers.is_empty() && !definitions.is_empty() {
        let fitting: Vec<_> = definitions
            .iter()
            .copied()
            .filter(|(file, definition)| wanted.fits(definition, &file.path, || index.module_for(file)))
            .collect();
        unfit = fitting.is_empty();
        if !unfit {
            definitions = fitting;
        }
    }
    definitions.sort_by(|(a, x), (b, y)| (&a.path, x.line, &x.signature).cmp(&(&b.path, y.line, &y.signature)));

    // Uses are counted by the names found (a case-insensitive match is used under its own).
    let mut names: Vec<&str> = definitions.iter().map(|(_, definition)| definition.name.as_str()).collect();
    if names.is_empty() {
        names.push(&wanted.name);
    }
    names.sort_unstable();
    names.dedup();
    // The traits the workspace declares that a method found is reached through.
    let scoping: HashSet<&str> =
        definitions.iter().filter_map(|(file, definition)| file.scoping_trait(definition)).collect();
    let workspace_traits: HashSet<&str> = current
        .iter()
        .flat_map(|file| &file.symbols.definitions)
        .filter(|d| d.kind == DefinitionKind::Trait && scoping.contains(d.name.as_str()))
        .map(|d| d.name.as_str())
        .collect();
    // Every home of the names: which of them a file means, its imports (and a Java file's
    // package) say.
    let homes: HashMap<&str, NameHomes> =
        names.iter().map(|&name| (name, NameHomes::of_name(&current, name))).collect();
    let position: HashMap<&str, usize> =
        current.iter().enumerate().map(|(at, file)| (file.path.as_str(), at)).collect();
    let outside = IndexOutside::new(index);
    let namesakes = Namesakes { files: &current, homes: &homes, position: &position, modules: &outside };
    let mut users: Vec<User> = (0..current.len())
        .filter_map(|at| {
            let user = User::of(at, &names, &definitions, &namesakes, &workspace_traits, &outside);
            (user.count > 0).then_some(user)
        })
        .collect();
    users.sort_by(|a, b| b.count.cmp(&a.count).then(a.file.path.cmp(&b.file.path)));

    let mut output = String::new();
    if definitions.is_empty() {
        // The index reads only its languages' code: a name may be defined elsewhere.
        // The name as a pattern, whole where it begins and ends with a word's characters.
        let word = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
        let pattern = format!(
            "{}{}{}",
            if word(wanted.name.chars().next()) { "\\b" } else { "" },
            regex::escape(&wanted.name),
            if word(wanted.name.chars().last()) { "\\b" } else { "" }
        );
        let _ = writeln!(
            output,
            "no definition of `{asked}` in the index (it holds {} code only); grep {} searches every file.",
            crate::context::Language::INDEXED_NAMES,
            serde_json::json!({ "pattern": pattern })
        );
    } else {
        let _ = match (unfit, only_other_case) {
            (true, _) => {
                writeln!(output, "no definition of `{}` fits `{asked}`; every `{}`:", wanted.name, wanted.name)
            }
            (false, true) => writeln!(output, "no `{asked}` is defined; names that differ only in case:"),
            (false, false) => writeln!(output, "`{asked}` is defined at:"),
        };
        for (file, definition) in definitions.iter().take(MAX_SYMBOL_RESULTS) {
            let (path, line, signature) = (&file.path, definition.line, &definition.signature);
            // The type it belongs to tells namesakes in one file apart (`new` of `Pool`, of `Cache`).
            let mut about: Vec<String> = definition.container.iter().map(|owner| format!("of `{owner}`")).collect();
            if definition.test || index.is_test_file(file) {
                about.push("test code".to_owned());
            }
            // Only for the lines shown: working out a module is not free.
            match index.import_hint(file) {
                Some(ImportHint::Module(module)) => about.push(format!("in `{module}`")),
                Some(ImportHint::Package(package)) => about.push(format!("package `{package}`")),
                None => {}
            }
            let about = if about.is_empty() { String::new() } else { format!(" ({})", about.join(", ")) };
            let _ = writeln!(output, "{path}:{line}: {signature}{about}");
        }
        if definitions.len() > MAX_SYMBOL_RESULTS {
            let _ = writeln!(
                output,
                "[{} more definitions; qualify the name, e.g. `Type::{}`, or use grep]",
                definitions.len() - MAX_SYMBOL_RESULTS,
                wanted.name
            );
        }
    }
    if !users.is_empty() {
        // Uses are known by name only, but for those of a name's homes (a Java type's file, a
        // script's, a Rust item's), which the users' imports (and Java packages) tell apart.
        let told_by_imports = !unfit
            && definitions.iter().all(|(file, definition)| {
                let at = position.get(file.path.as_str());
                homes.get(definition.name.as_str()).zip(at).is_some_and(|(homes, &at)| homes.holds(at))
            });
        match (wanted.qualifiers.is_empty(), told_by_imports) {
            (true, _) => writeln!(output, "used in:"),
            (false, true) => writeln!(output, "used in (as far as the users' imports and packages tell):"),
            (false, false) => writeln!(output, "used in (uses of any `{}`, by name):", wanted.name),
        }
        .expect("writing to a String cannot fail");
        // The lines of the uses, from the code as the run sees it, while there is room for them.
        let mut lines_left = MAX_USE_LINES;
        for user in users.iter().take(MAX_SYMBOL_RESULTS) {
            let (path, count) = (&user.file.path, user.count);
            let _ = writeln!(output, "{path} ({count} use{})", if count == 1 { "" } else { "s" });
            if lines_left > 0 {
                lines_left -= write_use_lines(&mut output, overlay, user, &outside, lines_left);
            }
        }
        if users.len() > MAX_SYMBOL_RESULTS {
            let _ = writeln!(output, "[{} more files]", users.len() - MAX_SYMBOL_RESULTS);
        }
    }
    Ok(ToolOutcome::ok(output, false))
}

/// A file that uses the names `find_symbol` looks up, as far as its uses can reach the
/// workspace's definitions of them (the rules the ranking's reference graph follows).
struct User<'a> {
    file: &'a IndexedFile,
    /// Its uses of the names that reach a definition.
    count: u32,
    /// The names whose uses count: not those that mean an item from outside the workspace here.
    names: Vec<&'a str>,
    /// Whether its method calls (`value.name()`) of the names reach a definition.
    with_method_calls: bool,
    /// What the file takes from outside the workspace, when its uses are judged against the
    /// workspace's definitions: a name written after a path that leads outside (`Poll::Ready`,
    /// `io::Error`) is an item from there, in its count and in its lines.
    outside: Option<OutsideNames<'a>>,
}

impl<'a> User<'a> {
    /// How the file at `at` uses `names`, whose workspace definitions are `definitions` (none when the
    /// workspace defines no such name, and then every use counts). A name the file takes from
    /// the standard library or a crate the workspace depends on (the prelude's `Result`, `Error`
    /// of `use std::error::Error`, `Result` of `use anyhow::Result`) is no use of the
    /// workspace's namesake; a method call reaches neither a free function nor an associated
    /// function without `self`, and a trait's method only where the trait is in scope; a name
    /// written only where a type stands reaches only types (no enum constant); and a
    /// file's uses of a name reach only the definition of it that its imports (or a Java file's
    /// package) bring in (`namesakes`). `at` is the file's place among `namesakes`' files.
    fn of(
        at: usize,
        names: &[&'a str],
        definitions: &[(&IndexedFile, &Definition)],
        namesakes: &Namesakes<'a, '_>,
        workspace_traits: &HashSet<&str>,
        outside: &dyn Outside,
    ) -> Self {
        let file = namesakes.files[at];
        let mut user =
            Self { file, count: 0, names: Vec::new(), with_method_calls: definitions.is_empty(), outside: None };
        // Most files use none of the names: their bindings are not worth reading.
        if names.iter().all(|name| file.symbols.uses_of(name) == 0) {
            return user;
        }
        // What the file binds to outside, where its uses are judged against the definitions.
        let bound = (!definitions.is_empty()).then(|| FileOutside::of(file, outside));
        for &name in names {
            let written = file.symbols.uses_of(name);
            let uses = match &bound {
                _ if written == 0 => continue,
                Some(bound) if bound.names.means_outside(name) => continue,
                Some(_) if !namesakes.may_mean_one_of(at, name, definitions) => continue,
                // `Err(e)` is the prelude's where the workspace has `Err` only as `type Err`.
                Some(_) if prelude_over_members(file.language, name, all_members_named(definitions, name)) => continue,
                Some(bound) => bound.workspace_uses(name, written),
                None => written,
            };
            // A name written only where a type stands uses no enum constant, field or function.
            let types_reach =
                definitions.iter().any(|(_, definition)| definition.name == name && definition.kind.is_type());
            if bound.is_some() && !types_reach && file.symbols.uses_only_as_type(name) {
                continue;
            }
            let method_calls_reach = bound.as_ref().is_none_or(|bound| {
                definitions.iter().any(|(defining, definition)| {
                    definition.name == name
                        && definition.callable_as_method(defining.language)
                        && defining
                            .scoping_trait(definition)
                            .is_none_or(|name| bound.names.has_in_scope(name, workspace_traits.contains(name)))
                })
            });
            let count = match method_calls_reach {
                true => uses,
                false => uses.saturating_sub(file.symbols.method_calls_of(name)),
            };
            if count > 0 {
                user.count += count;
                user.names.push(name);
                user.with_method_calls |= method_calls_reach;
            }
        }
        user.outside = bound.map(|bound| bound.names);
        user
    }
}

/// Whether every one of `definitions` named `name` is a member (see [`Definition::is_member`]).
fn all_members_named(definitions: &[(&IndexedFile, &Definition)], name: &str) -> bool {
    definitions.iter().filter(|(_, definition)| definition.name == name).all(|(_, definition)| definition.is_member())
}

/// What tells a file's namesakes apart in `find_symbol`: the files as the run sees them, in
/// path order, with each one's place, the homes of each name looked up, and where imports lead.
struct Namesakes<'a, 'h> {
    files: &'h [&'a IndexedFile],
    homes: &'h HashMap<&'h str, NameHomes<'a>>,
    position: &'h HashMap<&'a str, usize>,
    modules: &'h dyn ImportedModules,
}

impl Namesakes<'_, '_> {
    /// Whether the file at `at` may mean one of `definitions` by `name`: not where its imports
    /// (or package, or own definitions) say which of the name's homes it means, that one is in
    /// none of the files of `definitions`, and none of those defines the name otherwise (a Java
    /// file's method).
    fn may_mean_one_of(&self, at: usize, name: &str, definitions: &[(&IndexedFile, &Definition)]) -> bool {
        let scope = FileScope::of(self.files[at]);
        let narrowed =
            self.homes.get(name).and_then(|homes| homes.narrowed(self.files, at, &scope, Some(self.modules), name));
        let Some(narrowed) = narrowed else { return true };
        definitions.iter().any(|(defining, definition)| {
            definition.name == name
                && self.position.get(defining.path.as_str()).is_none_or(|&file| narrowed.admits(file))
        })
    }
}

/// Writes the lines of `user`'s file that use its names, as `  line: text [in `caller`]`, at
/// most `room` of them and [`MAX_USE_LINES_PER_FILE`]; returns how many it wrote. Method calls
/// count only where the user's do, and a name written after a path that leads outside does not. A
/// file that cannot be read now, or no longer uses the names, adds nothing.
fn write_use_lines(
    output: &mut String,
    overlay: &Overlay,
    user: &User<'_>,
    outside: &dyn Outside,
    room: usize,
) -> usize {
    let file = user.file;
    let path = file.path.as_str();
    let Some(language) = Language::of_path(path) else { return 0 };
    let Some(text) = WorkspacePath::parse(path).ok().and_then(|path| overlay.peek(&path)) else { return 0 };
    let leads_outside =
        |owner: &str, name: &str| user.outside.as_ref().is_some_and(|names| names.leads_outside(owner, name, outside));
    let lines = use_lines(language, text.as_bytes(), &user.names, user.with_method_calls, &leads_outside);
    let code: Vec<&str> = text.lines().collect();
    let shown = lines.len().min(room).min(MAX_USE_LINES_PER_FILE);
    for &line in &lines[..shown] {
        let code = code.get(line as usize - 1).copied().unwrap_or_default().trim();
        let code = match code.char_indices().nth(MAX_LINE_CHARS) {
            Some((cut, _)) => format!("{} [...]", &code[..cut]),
            None => code.to_owned(),
        };
        match caller(file, language, line) {
            Some(caller) => writeln!(output, "  {line:>5}: {code}  [in `{caller}`]"),
            None => writeln!(output, "  {line:>5}: {code}"),
        }
        .expect("writing to a String cannot fail");
    }
    if lines.len() > shown {
        let more = lines.len() - shown;
        let _ = writeln!(output, "        [{more} more line{}; grep shows them]", if more == 1 { "" } else { "s" });
    }
    shown
}

/// The function or method of `file` whose text holds `line`, the innermost, by its name and the
/// type it belongs to (`Pool::acquire`, in Java and TypeScript `Pool.acquire`).
fn caller(file: &IndexedFile, language: Language, line: u32) -> Option<String> {
    let holder = file
        .symbols
        .definitions
        .iter()
        .filter(|d| matches!(d.kind, DefinitionKind::Function | DefinitionKind::Method))
        .filter(|d| (d.line..=d.end_line).contains(&line))
        .max_by_key(|d| d.line)?;
    let separator = if language == Language::Rust { "::" } else { "." };
    Some(match &holder.container {
        Some(owner) => format!("{owner}{separator}{}", holder.name),
        None => holder.name.clone(),
    })
}

/// A name as the model asks for it: the name itself and the qualifiers before it.
struct SymbolName {
    name: String,
    qualifiers: Vec<String>,
}

impl SymbolName {
    /// Splits `a::b::Name`, `a.b.Name` or `Type#name`, dropping a call's arguments
    /// (`read(x)`), type arguments (`Vec<T>::push`, `collect::<Vec<_>>`), a macro's `!` and
    /// path words that qualify nothing (`crate`, `self`, `super`); none when no name is left.
    fn parse(asked: &str) -> Option<Self> {
        let asked = asked.split('(').next().unwrap_or(asked);
        let mut plain = String::with_capacity(asked.len());
        let mut depth = 0_usize;
        for c in asked.chars() {
            match c {
                '<' => depth += 1,
                '>' if depth > 0 => depth -= 1,
                _ if depth == 0 => plain.push(c),
                _ => {}
            }
        }
        let mut parts: Vec<String> = plain
            .trim_end_matches('!')
            .split("::")
            .flat_map(|part| part.split(['.', '#']))
            .map(str::trim)
            .filter(|part| !part.is_empty())
            .map(str::to_owned)
            .collect();
        let name = parts.pop()?;
        parts.retain(|part| !matches!(part.as_str(), "crate" | "self" | "super"));
        // A crate's `-` reads as `_` (`tokio-util` is `tokio_util`), as in modules and paths.
        let qualifiers = parts.iter().map(|part| part.replace('-', "_")).collect();
        Some(Self { name, qualifiers })
    }

    /// Whether `definition`, in the file at `path`, fits the qualifiers: the nearest one is
    /// its container, or each one is a part of its module or its path (`tokio::net` fits
    /// `tokio/src/net/tcp/stream.rs`).
    fn fits(&self, definition: &Definition, path: &str, module: impl FnOnce() -> String) -> bool {
        let Some(nearest) = self.qualifiers.last() else { return true };
        if definition.container.as_deref() == Some(nearest.as_str()) {
            return true;
        }
        let module = module();
        let parts: Vec<String> = module
            .split(['/', '.', ':'])
            .chain(path.split('/').map(|part| part.split('.').next().unwrap_or(part)))
            .map(|part| part.replace('-', "_"))
            .collect();
        self.qualifiers.iter().all(|qualifier| parts.contains(qualifier))
    }
}
