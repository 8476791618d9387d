//! The repository map: the files ranked after those shown, each with the signatures of its
//! most relevant definitions while they fit, then by their paths alone; and the definitions
//! the shown files use from elsewhere.

use std::cmp::Reverse;
use std::collections::{HashMap, HashSet};
use std::fmt::Write;

use super::blocks::generated_note;
use super::path_tail::PathTail;
use super::shown::Shown;
use crate::context::Language;
use crate::context::extract::{Definition, DefinitionKind, LineSpans};
use crate::context::index::{ImportHint, Index, IndexedFile};
use crate::context::mentioned::Mentioned;
use crate::context::rank::RankedFile;
use crate::context::uses::{ShownUses, UsedDefinition};
use crate::workspace::text_measure as measure;

/// Files of the map with their signatures at most.
const MAP_FILES: usize = 60;
/// Ranked files of the map at most, those by their paths alone included.
const MAP_FILES_BY_PATH: usize = 150;
/// Signatures per file in the map, unless the issue names or the shown code uses more of them.
const SIGNATURES_PER_FILE: usize = 12;
/// Signatures per file in the map at most: those the issue names or the shown code uses.
const MAX_SIGNATURES_PER_FILE: usize = 40;
/// Overloads of one name of one type in a file's map entry at most (jackson's `ObjectMapper`
/// has 26 `readValue`s). No overload past them is kept for the shown code's uses: of a name it
/// reaches more than three definitions of, those say nothing (`context::uses`).
const OVERLOADS_PER_NAME: usize = 3;

/// Said of a top file whose text cannot be shown: not UTF-8 (binary or another encoding), or
/// gone since the index read it (deleted while the run started).
const UNREADABLE_NOTE: &str = " [its text cannot be read here: not UTF-8, or no longer there]";

/// The map's budget divided by this is the most kept for the ranked files listed by their
/// paths alone (what they need to reach the map's last file, up to that).
const PATHS_ONLY_SHARE_DIVISOR: usize = 4;
/// The map's budget divided by this is the least the ranked files' signatures leave to the
/// files by their paths and, what these do not take, to what the files shown use.
const AFTER_SIGNATURES_SHARE_DIVISOR: usize = 10;

/// Heads the files the map lists only for what the files shown use from them.
const USED_HEADING: &str = "Used by the files shown, from files not listed above:\n";
/// The map's budget divided by this is the most kept for what the files shown use from files
/// the map does not list for their rank (half of it: what they need, up to that).
const USED_SHARE_DIVISOR: usize = 2;

/// The repository map within `budget` characters, and the files it lists: the named files not
/// `shown`, the `ranked` files after those shown in full, and the definitions the shown code
/// `uses` in files these leave out, for which up to half of the room is kept. The ranked
/// files whose signatures no longer fit (or past the 60th) close the map by their paths
/// alone, under their folders, up to the 150th, in the room they need (up to a quarter of
/// it, kept while the signatures fill the rest, which leave at least a tenth): the model
/// still learns where to look.
pub(super) fn repository_map(
    index: &Index,
    ranked: &[RankedFile],
    shown: &Shown<'_>,
    mentioned: &Mentioned<'_>,
    uses: &ShownUses,
    budget: usize,
) -> (String, Vec<String>) {
    let mut map = String::new();
    let mut mapped_files = Vec::new();
    for (path, line) in &shown.named_lines {
        if measure(&map) + measure(line) <= budget {
            map.push_str(line);
            mapped_files.push(path.clone());
        }
    }
    let candidates: Vec<&RankedFile> =
        ranked.iter().filter(|f| !shown.full_files.contains(&f.path)).take(MAP_FILES_BY_PATH).collect();
    let suffixes: Vec<(&str, Option<String>)> = candidates
        .iter()
        .map(|file| (file.path.as_str(), index.file(&file.path).map(|entry| path_suffix(entry, &notes(entry, shown)))))
        .collect();
    // The room the files from each candidate on would take by their paths, within their share.
    let most_for_paths = budget / PATHS_ONLY_SHARE_DIVISOR;
    let paths_room: Vec<usize> =
        PathTail::lengths_from(&suffixes).into_iter().map(|len| len.min(most_for_paths)).collect();
    let most_for_used = (budget - budget / AFTER_SIGNATURES_SHARE_DIVISOR) / USED_SHARE_DIVISOR;
    // The first of the candidates whose signatures do not fit, if one does not.
    let mut paths_from = candidates.len().min(MAP_FILES);
    for (i, file) in candidates.iter().enumerate().take(MAP_FILES) {
        let Some(entry) = index.file(&file.path) else { continue };
        let shown_lines = shown.in_part.get(file.path.as_str()).map_or(&[][..], |part| part.lines.as_slice());
        let mut block = map_entry(entry, map_label(index, entry).as_deref(), mentioned, uses, shown_lines);
        block.insert_str(block.find('\n').unwrap_or(block.len()), &notes(entry, shown));
        // Room for the signatures of what the shown code uses from the files the map would
        // not list, were this one listed: its own come first in its entry; and for the files
        // after it by their paths.
        let listed = |path: &str| shown.holds(path) || path == file.path || mapped_files.iter().any(|f| f == path);
        let after = paths_room[i + 1].max(budget / AFTER_SIGNATURES_SHARE_DIVISOR);
        let reserved = measure(&used_entries(index, uses, listed, most_for_used).0) + after;
        if measure(&map) + measure(&block) + reserved > budget {
            paths_from = i;
            break;
        }
        map.push_str(&block);
        mapped_files.push(file.path.clone());
    }
    // The file that did not fit and those after it, by their paths, in their share of the room.
    let tail_room = paths_room[paths_from].min(budget.saturating_sub(measure(&map)));
    let after: Vec<(&str, String)> =
        suffixes.into_iter().skip(paths_from).filter_map(|(path, suffix)| Some((path, suffix?))).collect();
    let mut tail = PathTail::fitting(after, tail_room);
    let room = budget.saturating_sub(measure(&map) + tail.len);
    let (used, used_files) =
        used_entries(index, uses, |path| shown.holds(path) || mapped_files.iter().any(|f| f == path), room);
    // A file the shown code uses is listed with the signatures it uses instead.
    tail.files.retain(|(path, _)| !used_files.iter().any(|used| used == path));
    map.push_str(&used);
    mapped_files.extend(used_files);
    map.push_str(&tail.text());
    mapped_files.extend(tail.files.into_iter().map(|(path, _)| path.to_owned()));
    (map, mapped_files)
}

/// What a file's line in the path tail says after its path: its `notes` and length.
fn path_suffix(file: &IndexedFile, notes: &str) -> String {
    match file.lines {
        1 => format!("{notes} [1 line]"),
        lines => format!("{notes} [{lines} lines]"),
    }
}

/// What the map says of a file after its path: that it is generated, or cannot be read.
fn notes(file: &IndexedFile, shown: &Shown<'_>) -> String {
    let mut notes = file.generated.as_deref().map(generated_note).unwrap_or_default();
    if shown.unreadable.contains(file.path.as_str()) {
        // The model would otherwise ask for it in vain.
        notes.push_str(UNREADABLE_NOTE);
    }
    notes
}

/// One file of the map: its path (and `label`: the module to import it from, or in a monorepo
/// its package), then its definitions' signatures with line numbers, twelve of them, or up to
/// forty when the issue names or the shown code uses more (of one name's overloads, three),
/// the ones the issue names first, then those named after a distinctive name it gives, then
/// those the code shown in the pack `uses`, the most used first, then
/// types, then functions, methods, macros and modules, then constants, fields and variants,
/// then what is local to a function, each group in source order. Definitions on the lines
/// the pack shows `in_part` are left out: their text is there.
pub(super) fn map_entry(
    file: &IndexedFile,
    label: Option<&str>,
    mentioned: &Mentioned<'_>,
    uses: &ShownUses,
    in_part: &[(u32, u32)],
) -> String {
    let local = local_lines(&file.symbols.definitions);
    let in_a_part = |line: u32| in_part.iter().any(|(start, end)| (*start..=*end).contains(&line));
    let mut definitions: Vec<_> =
        file.symbols.definitions.iter().filter(|d| !d.signature.is_empty() && !in_a_part(d.line)).collect();
    definitions.sort_by_cached_key(|d| {
        let group = if local.holds(d.line) { LOCAL_GROUP } else { map_group(d, file.language) };
        (mentioned.closeness(&d.name), Reverse(uses.uses_of(&file.path, d)), group, d.line)
    });
    // Past a few, the overloads of one name say little more: the others go to the count of
    // those not listed.
    let mut overloads: HashMap<(Option<&str>, &str), usize> = HashMap::new();
    let before = definitions.len();
    definitions.retain(|d| {
        let seen = overloads.entry((d.container.as_deref(), d.name.as_str())).or_default();
        *seen += 1;
        *seen <= OVERLOADS_PER_NAME
    });
    let left_overloads = before - definitions.len();
    let mut block = match label {
        Some(label) => format!("{} ({label})\n", file.path),
        None => format!("{}\n", file.path),
    };
    // Past the usual twelve, what the issue names or the shown code uses still has room.
    let wanted =
        definitions.iter().take_while(|d| mentioned.closeness(&d.name) < 2 || uses.uses_of(&file.path, d) > 0).count();
    let shown = wanted.clamp(SIGNATURES_PER_FILE, MAX_SIGNATURES_PER_FILE).min(definitions.len());
    // Namesakes of different types (the `new` of `Pool` and of `Cache`) say whose they are.
    let owners_of = |name: &str| {
        let owners: HashSet<Option<&str>> =
            file.symbols.definitions.iter().filter(|d| d.name == name).map(|d| d.container.as_deref()).collect();
        owners.len()
    };
    for definition in &definitions[..shown] {
        match definition.container.as_deref() {
            // A constructor is its type's by its name.
            Some(owner) if owner != definition.name && owners_of(&definition.name) > 1 => {
                let signature = format!("{} (of `{owner}`)", definition.signature);
                block.push_str(&signature_line(definition.line, &signature));
            }
            _ => block.push_str(&signature_line(definition.line, &definition.signature)),
        }
    }
    if definitions.len() + left_overloads > shown {
        let _ = writeln!(block, "        ... {} more", definitions.len() + left_overloads - shown);
    }
    block
}

/// Where a definition local to a function stands in a file's map: after everything else.
const LOCAL_GROUP: u8 = 4;

/// The lines inside the bodies of a file's functions and methods: what is defined there (a
/// helper inside a function, the methods of an anonymous class, a React component's handlers)
/// is local to them and cannot be used from elsewhere.
fn local_lines(definitions: &[Definition]) -> LineSpans {
    LineSpans::new(
        definitions
            .iter()
            .filter(|d| matches!(d.kind, DefinitionKind::Function | DefinitionKind::Method) && d.end_line > d.body_line)
            .map(|d| (d.body_line + 1, d.end_line)),
    )
}

/// How the map labels a file: the module to import it from, or in a monorepo its package.
fn map_label(index: &Index, file: &IndexedFile) -> Option<String> {
    index.import_hint(file).map(|hint| match hint {
        ImportHint::Module(module) => format!("`{module}`"),
        ImportHint::Package(package) => format!("package `{package}`"),
    })
}

/// A line of the map: a definition's line and signature.
fn signature_line(line: u32, signature: &str) -> String {
    format!("  {line:>5}: {signature}\n")
}

/// The map's entries for what the files shown use from files that are not `skip`ped, under
/// their heading: each file's path and the signatures of the used definitions in it, in
/// source order, at most [`MAX_SIGNATURES_PER_FILE`]; the most used first while they fit in
/// `room` characters. Returns the entries and their files.
fn used_entries(index: &Index, uses: &ShownUses, skip: impl Fn(&str) -> bool, room: usize) -> (String, Vec<String>) {
    // Each file's path, its heading, and its definitions.
    let mut files: Vec<(&str, String, Vec<&UsedDefinition>)> = Vec::new();
    let mut size = 0;
    for definition in uses.definitions().iter().filter(|d| !skip(&d.path)) {
        let position = files.iter().position(|(path, ..)| *path == definition.path);
        if position.is_some_and(|i| files[i].2.len() >= MAX_SIGNATURES_PER_FILE) {
            continue;
        }
        let heading = match position {
            Some(_) => None,
            None => {
                let label = index.file(&definition.path).and_then(|file| map_label(index, file));
                let label = label.map(|label| format!(" ({label})")).unwrap_or_default();
                Some(format!("{}{label}\n", definition.path))
            }
        };
        let section = if files.is_empty() { USED_HEADING.len() } else { 0 };
        let cost = section
            + heading.as_deref().map_or(0, measure)
            + measure(&signature_line(definition.line, &definition.signature));
        if size + cost > room {
            continue;
        }
        size += cost;
        match (position, heading) {
            (Some(i), _) => files[i].2.push(definition),
            (None, heading) => files.push((&definition.path, heading.unwrap_or_default(), vec![definition])),
        }
    }
    let mut text = String::new();
    if !files.is_empty() {
        text.push_str(USED_HEADING);
    }
    for (_, heading, definitions) in &mut files {
        definitions.sort_by_key(|d| d.line);
        text.push_str(heading);
        for definition in definitions.iter() {
            text.push_str(&signature_line(definition.line, &definition.signature));
        }
    }
    (text, files.into_iter().map(|(path, ..)| path.to_owned()).collect())
}

/// Where a definition stands in a file's map: types say what the code is made of, callables
/// what it does; Rust's associated types and a module's constants (often regular expressions
/// and markers at the top of a script) come after both, and test code (`mod tests`, a
/// `#[test]` function) last.
fn map_group(definition: &Definition, language: Language) -> u8 {
    match definition.kind {
        _ if definition.test => 3,
        DefinitionKind::Module if matches!(definition.name.as_str(), "tests" | "test") => 3,
        // An associated type (`type Error = io::Error` of an `impl TryFrom`) says less than
        // the type it is written for.
        DefinitionKind::Type if language == Language::Rust && definition.container.is_some() => 2,
        kind if kind.is_type() => 0,
        kind if kind.is_callable() => 1,
        _ => 2,
    }
}
