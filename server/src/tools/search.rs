//! Searching the code as the run sees it: `grep` over the overlay, `find_symbol` from the index.

use std::collections::HashMap;
use std::fmt::Write;

use regex::RegexBuilder;

use super::ToolOutcome;
use super::args::{FindSymbolArgs, GrepArgs};
use crate::context::{Definition, Index, IndexedFile, Language};
use crate::workspace::{Overlay, WorkspacePath};

/// Most matching lines one `grep` returns.
pub const MAX_MATCHES: usize = 200;
/// Longest line shown, in characters.
const MAX_LINE_CHARS: usize = 200;
/// Most definitions and referencing files `find_symbol` lists.
const MAX_SYMBOL_RESULTS: usize = 40;

/// Runs `grep`: matching lines as `path:line: text`, through the overlay.
pub fn grep(overlay: &Overlay, args: GrepArgs) -> Result<ToolOutcome, String> {
    let regex = RegexBuilder::new(&args.pattern)
        .case_insensitive(args.ignore_case.unwrap_or(false))
        .size_limit(1 << 22)
        .build()
        .map_err(|error| format!("invalid pattern `{}`: {error}", args.pattern))?;
    let scope = WorkspacePath::parse_dir(args.path.as_deref().unwrap_or("")).map_err(|e| e.to_string())?;
    let files: Vec<WorkspacePath> = match overlay.peek(&scope) {
        Some(_) if !scope.is_root() => vec![scope.clone()],
        _ => overlay
            .list_files(&scope)
            .map_err(|error| error.to_string())?
            .into_iter()
            .filter(|entry| !entry.is_dir)
            .map(|entry| entry.path)
            .collect(),
    };
    let mut output = String::new();
    let mut matches = 0;
    'files: for path in files.iter().filter(|path| !crate::workspace::holds_secrets(path.as_str())) {
        let Some(text) = overlay.peek(path) else { continue };
        for (number, line) in text.lines().enumerate() {
            if regex.is_match(line) {
                if matches == MAX_MATCHES {
                    let _ = writeln!(output, "[more than {MAX_MATCHES} matches; narrow the pattern or the path]");
                    break 'files;
                }
                matches += 1;
                let shown: String = line.chars().take(MAX_LINE_CHARS).collect();
                let cut = if shown.len() < line.len() { " [...]" } else { "" };
                let _ = writeln!(output, "{path}:{}: {}{cut}", number + 1, shown.trim_end());
            }
        }
    }
    if matches == 0 {
        output = format!("no line matches `{}` in {scope}.\n", args.pattern);
    }
    Ok(ToolOutcome::ok(output, false))
}

/// Runs `find_symbol`: where a name is defined, and which files use it. Files the run has
/// changed are read as changed.
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
    let current: Vec<&IndexedFile> = index
        .files()
        .filter(|file| !staged.contains_key(&file.path))
        .map(|file| file.as_ref())
        .chain(staged.values().flatten())
        .collect();

    let name = args.name.trim();
    let mut definitions: Vec<(&IndexedFile, &Definition)> = Vec::new();
    for exact in [true, false] {
        for file in &current {
            for definition in &file.symbols.definitions {
                let matches = if exact { definition.name == name } else { definition.name.eq_ignore_ascii_case(name) };
                if matches {
                    definitions.push((file, definition));
                }
            }
        }
        if !definitions.is_empty() {
            break;
        }
    }
    definitions.sort_by(|(a, x), (b, y)| (&a.path, x.line, &x.signature).cmp(&(&b.path, y.line, &y.signature)));
    let mut users: Vec<(&str, u32)> = current
        .iter()
        .filter_map(|file| {
            let at = file.symbols.references.binary_search_by(|(n, _)| n.as_str().cmp(name)).ok()?;
            Some((file.path.as_str(), file.symbols.references[at].1))
        })
        .collect();
    users.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));

    let mut output = String::new();
    if definitions.is_empty() {
        let _ = writeln!(output, "no definition of `{name}` in the index.");
    } else {
        let _ = writeln!(output, "`{name}` is defined at:");
        for (file, definition) in definitions.iter().take(MAX_SYMBOL_RESULTS) {
            let (path, line, signature) = (&file.path, definition.line, &definition.signature);
            // Only for the lines shown: working out a module is not free.
            match index.import_module(file) {
                Some(module) => writeln!(output, "{path}:{line}: {signature} (in `{module}`)"),
                None => writeln!(output, "{path}:{line}: {signature}"),
            }
            .expect("writing to a String cannot fail");
        }
    }
    if !users.is_empty() {
        let _ = writeln!(output, "used in:");
        for (path, count) in users.iter().take(MAX_SYMBOL_RESULTS) {
            let _ = writeln!(output, "{path} ({count} use{})", if *count == 1 { "" } else { "s" });
        }
        if users.len() > MAX_SYMBOL_RESULTS {
            let _ = writeln!(output, "[{} more files]", users.len() - MAX_SYMBOL_RESULTS);
        }
    }
    Ok(ToolOutcome::ok(output, false))
}
