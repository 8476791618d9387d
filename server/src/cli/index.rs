//! `issuewright index`: build the workspace index and report what it holds.

use super::out::{errln, outln};
use std::path::Path;
use std::process::ExitCode;

use serde_json::json;

use super::IndexArgs;
use issuewright::context::{BuildProgress, Index, IndexCache, MAX_INDEXED_FILES, cache};

/// How many of the skipped files the report names before it counts the rest: a tree of
/// committed bundles or fixtures can skip hundreds.
const SKIPPED_SHOWN: usize = 10;

/// Builds the index of `--repo` and prints counts per language (or JSON).
pub fn run(args: &IndexArgs) -> ExitCode {
    let root = match args.repo.canonicalize() {
        Ok(root) => root,
        Err(error) => {
            errln!("issuewright: --repo {}: {error}", args.repo.display());
            return ExitCode::FAILURE;
        }
    };
    let mut index = build(&root, !args.no_cache);
    index.count_imports();
    let stats = &index.stats;
    // Files tree-sitter could not parse whole: their definitions may be missing.
    let mut broken: Vec<(&str, u32)> = index
        .files()
        .filter(|file| file.symbols.parse_errors > 0)
        .map(|file| (file.path.as_str(), file.symbols.parse_errors))
        .collect();
    broken.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    let mut packages: Vec<&(String, String)> = index.packages().iter().collect();
    packages.sort();
    if args.json {
        let value = json!({
            "root": root.to_string_lossy(),
            "files": stats.files,
            "bytes": stats.bytes,
            "cacheHits": stats.cache_hits,
            // Of those, the files unchanged on disk by their size and stamp, taken without
            // reading them.
            "cacheUnread": stats.unread,
            "elapsedMs": stats.elapsed_ms,
            "cacheReadMs": stats.cache_read_ms,
            "languages": stats.languages,
            "skipped": stats.skipped.iter().map(|(path, why)| json!({"path": path, "reason": why})).collect::<Vec<_>>(),
            "fileLimit": stats.file_limit,
            // A manifest implies `src/lib.rs` and `src/main.rs`: only the roots the tree holds.
            "crates": index.crates().iter().map(|krate| json!({
                "dir": krate.dir,
                "name": krate.name,
                "roots": krate.roots.iter().filter(|root| index.file(&root.path).is_some()).collect::<Vec<_>>(),
            })).collect::<Vec<_>>(),
            "packages": packages.iter().map(|(dir, name)| json!({"dir": dir, "name": name})).collect::<Vec<_>>(),
            "parseErrors": broken.iter().map(|(path, errors)| json!({"path": path, "errors": errors})).collect::<Vec<_>>(),
        });
        outln!("{value:#}");
    } else {
        let cache_read = stats.cache_read_ms.map(|ms| format!(", read in {ms} ms")).unwrap_or_default();
        let unread = match stats.unread {
            0 => String::new(),
            unread => format!(", {unread} of them unchanged on disk and not read"),
        };
        outln!(
            "{} files, {} bytes in {} ms ({} from cache{unread}{cache_read})",
            stats.files,
            stats.bytes,
            stats.elapsed_ms,
            stats.cache_hits
        );
        for (language, counts) in &stats.languages {
            outln!(
                "  {language:<11} {:>6} files {:>10} bytes {:>7} definitions {:>7} references {:>6} imports ({} in the workspace) {:>4} parse errors {:>6} ms cpu",
                counts.files,
                counts.bytes,
                counts.definitions,
                counts.references,
                counts.imports,
                counts.resolved_imports,
                counts.parse_errors,
                counts.cpu_ms
            );
        }
        if !broken.is_empty() {
            let shown: Vec<String> = broken.iter().take(5).map(|(path, errors)| format!("{path} ({errors})")).collect();
            let more = match broken.len().saturating_sub(5) {
                0 => String::new(),
                more => format!(" and {more} more (--json lists them all)"),
            };
            outln!("  parse errors in {} files: {}{more}", broken.len(), shown.join(", "));
        }
        for (path, why) in stats.skipped.iter().take(SKIPPED_SHOWN) {
            outln!("  skipped {path}: {why}");
        }
        if let more @ 1.. = stats.skipped.len().saturating_sub(SKIPPED_SHOWN) {
            outln!("  and {more} more skipped (--json lists them all)");
        }
    }
    leave_to_exit(index);
    ExitCode::SUCCESS
}

/// Leaves `index` to the end of the process rather than freeing it. A command ends right
/// after it is done with the index, and freeing a large workspace's many small allocations
/// one by one took a tenth of `context`'s time on 10,600 files.
pub(super) fn leave_to_exit(index: Index) {
    std::mem::forget(index);
}

/// Builds the index of `root`, through the on-disk cache when `use_cache` (and saving it when
/// it changed), and warns on standard error when the tree held more source files than are
/// indexed.
/// `ISSUEWRIGHT_INDEX_CACHE=off` in the environment turns the cache off too;
/// `ISSUEWRIGHT_MAX_INDEXED_FILES` sets the source file limit.
pub fn build(root: &Path, use_cache: bool) -> Index {
    let use_cache = use_cache && std::env::var("ISSUEWRIGHT_INDEX_CACHE").map_or(true, |v| v != "off");
    let file = use_cache.then(cache::user_cache_dir).flatten().map(|dir| cache::cache_file(&dir, root));
    let limit = issuewright::config::index_file_limit().unwrap_or(MAX_INDEXED_FILES);
    let (index, loaded) = Index::build_reading_cache(root, file.as_deref(), limit, &BuildProgress::default());
    if let Some(warning) = index.stats.limit_warning(root) {
        errln!("issuewright: {warning}");
    }
    let current = loaded.as_ref().is_some_and(|cache| cache.holds_just(&index));
    if let Some(file) = file.as_ref().filter(|_| !current)
        && let Err(error) = IndexCache::save(file, &index)
    {
        tracing::warn!("cannot write the index cache {}: {error}", file.display());
    }
    index
}
