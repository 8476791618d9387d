//! Indexing speed next to Universal Ctags, on the same trees in the same run.
//!
//!     cargo bench --bench index -- REPO... [--edits] [--file=PATH]
//!
//! For each repository: `ctags -R`, `issuewright index --no-cache` (a cold index) and
//! `issuewright index` with a filled cache (a restart) run as processes, five times each; the median wall time, files/s, MB/s and peak memory (from
//! `/usr/bin/time`, when installed) are printed, and the time tree-sitter alone takes to
//! parse the same files on all cores (the floor of a cold index). Then the live index (the
//! one the language server keeps) takes a one-line edit in a 3,000-line file, 50 times: the
//! median time to bring the index up to date is printed. Last, the whole tree is read again
//! as after an edit to the root `.gitignore`: the time the read takes (others may use the
//! index meanwhile) and the time the index is locked to make it current; and the time to
//! judge one file the editor or the file watcher reports later, the cost per event.
//! Then a checkout: in a clone of the repository (when it is a git repository with history),
//! the commit 200 before its head is checked out and back, and the files it changed are read
//! into the live index as the file watcher reports them, one event at a time and all in one
//! notification. With `--checkout`, only that runs.
//! With `--edits`, only the edits run: the one-line edit, and a character typed and taken
//! back at places spread over the file. `--file=PATH` edits that file rather than the
//! largest one.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use issuewright::context::{Index, Language, LiveIndex, extract};
use issuewright::workspace::{Document, PositionEncoding};
use rayon::prelude::*;
use tower_lsp::lsp_types::{Position, Range, TextDocumentContentChangeEvent};

const RUNS: usize = 5;

fn main() {
    let repos: Vec<PathBuf> = std::env::args().skip(1).filter(|a| !a.starts_with("--")).map(PathBuf::from).collect();
    if repos.is_empty() {
        eprintln!("usage: cargo bench --bench index -- REPO...");
        return;
    }
    if std::env::args().any(|a| a == "--checkout") {
        repos.iter().for_each(|repo| checkout(repo));
        return;
    }
    if std::env::args().any(|a| a == "--edits") {
        for repo in &repos {
            incremental(repo);
        }
        return;
    }
    println!("| tree | tool | files | MB | median s | files/s | MB/s | peak RSS MB |");
    println!("|---|---|---|---|---|---|---|---|");
    for repo in &repos {
        let (files, bytes) = sources(repo);
        let name = repo.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let tags = std::env::temp_dir().join(format!("issuewright-bench-{}.tags", std::process::id()));
        let ctags = measure(Command::new("ctags").arg("-R").arg("-f").arg(&tags).arg(repo));
        row(&name, "ctags -R", files, bytes, ctags);
        let _ = std::fs::remove_file(&tags);
        let mut index = Command::new(env!("CARGO_BIN_EXE_issuewright"));
        index.args(["index", "--no-cache", "--json", "--repo"]).arg(repo);
        row(&name, "issuewright index (cold)", files, bytes, measure(&mut index));
        row(&name, "issuewright index (restart, cached)", files, bytes, restarted(repo));
        row(&name, "tree-sitter parsing alone", files, bytes, Some((parsing_alone(repo), None)));
    }
    println!();
    for repo in &repos {
        incremental(repo);
    }
    for repo in &repos {
        whole_tree_read_again(repo);
    }
    for repo in &repos {
        later_files_judged(repo);
    }
    for repo in &repos {
        checkout(repo);
    }
}

/// Source files of the languages issuewright indexes, and their bytes.
fn sources(repo: &Path) -> (usize, u64) {
    let index = Index::build(repo, None);
    (index.stats.files, index.stats.bytes)
}

/// The floor of any index that parses every file: the median time to parse the indexed
/// files on all cores, in process, with their text already in memory (no walk, no reads, no
/// queries, no process start).
fn parsing_alone(repo: &Path) -> Duration {
    let index = Index::build(repo, None);
    let sources: Vec<(Language, Vec<u8>)> =
        index.files().filter_map(|f| Some((f.language, std::fs::read(index.root().join(&f.path)).ok()?))).collect();
    let mut times: Vec<Duration> = (0..RUNS)
        .map(|_| {
            let started = Instant::now();
            sources.par_iter().for_each(|(language, source)| {
                std::hint::black_box(extract::parse(*language, source, None));
            });
            started.elapsed()
        })
        .collect();
    times.sort();
    times[times.len() / 2]
}

/// Median wall time and the largest peak RSS (kB) over the runs; `None` when it cannot run.
/// A restart: `issuewright index` with the on-disk cache one earlier run filled (kept in a
/// cache folder of its own, so the user's cache is neither read nor changed).
fn restarted(repo: &Path) -> Option<(Duration, Option<u64>)> {
    let cache = std::env::temp_dir().join(format!("issuewright-bench-cache-{}", std::process::id()));
    let mut index = Command::new(env!("CARGO_BIN_EXE_issuewright"));
    index
        .args(["index", "--json", "--repo"])
        .arg(repo)
        .env("XDG_CACHE_HOME", &cache)
        .env_remove("ISSUEWRIGHT_INDEX_CACHE");
    let filled = run(&mut index);
    let result = filled.and_then(|_| measure(&mut index));
    let _ = std::fs::remove_dir_all(&cache);
    result
}

fn measure(command: &mut Command) -> Option<(Duration, Option<u64>)> {
    let mut times = Vec::new();
    let mut peak = None;
    for _ in 0..RUNS {
        let (elapsed, rss) = run(command)?;
        times.push(elapsed);
        peak = peak.max(rss);
    }
    times.sort();
    Some((times[times.len() / 2], peak))
}

fn run(command: &mut Command) -> Option<(Duration, Option<u64>)> {
    let timed = Path::new("/usr/bin/time").exists();
    let mut process = if timed {
        let mut wrapped = Command::new("/usr/bin/time");
        wrapped.arg("-f").arg("%M").arg(command.get_program()).args(command.get_args());
        wrapped
    } else {
        let mut plain = Command::new(command.get_program());
        plain.args(command.get_args());
        plain
    };
    for (key, value) in command.get_envs() {
        match value {
            Some(value) => process.env(key, value),
            None => process.env_remove(key),
        };
    }
    let started = Instant::now();
    let output = process.output().ok()?;
    let elapsed = started.elapsed();
    if !output.status.success() {
        eprintln!("{:?} failed: {}", command.get_program(), String::from_utf8_lossy(&output.stderr));
        return None;
    }
    let rss = timed.then(|| String::from_utf8_lossy(&output.stderr).lines().last()?.trim().parse().ok()).flatten();
    Some((elapsed, rss))
}

fn row(tree: &str, tool: &str, files: usize, bytes: u64, result: Option<(Duration, Option<u64>)>) {
    let mb = bytes as f64 / 1e6;
    match result {
        Some((time, rss)) => {
            let seconds = time.as_secs_f64();
            let rss = rss.map_or("n/a".to_owned(), |kb| format!("{:.0}", kb as f64 / 1024.0));
            println!(
                "| {tree} | {tool} | {files} | {mb:.1} | {seconds:.3} | {:.0} | {:.1} | {rss} |",
                files as f64 / seconds,
                mb / seconds
            );
        }
        None => println!("| {tree} | {tool} | {files} | {mb:.1} | not run | | | |"),
    }
}

/// One-line edits in a 3,000-line file of the repository's main language, applied the way
/// the language server applies them: document change, byte edits, incremental reparse,
/// extraction, index update.
fn incremental(repo: &Path) {
    let index = Index::build(repo, None);
    let Some((path, text)) = three_thousand_lines(&index) else {
        println!("{}: no source file to grow to 3,000 lines", repo.display());
        return;
    };
    let live = LiveIndex::default();
    live.install(index);
    live.open(&path, &text);
    let mut document = Document::new(&text, 1, "source");
    let middle = (text.lines().count() / 2) as u32;
    let mut times = Vec::new();
    for version in 0..50 {
        times.push(timed_change(
            &live,
            &path,
            &mut document,
            version + 2,
            (middle, 0, 0),
            &format!("// edit {version}\n"),
        ));
    }
    times.sort();
    let lines = document.text().lines().count();
    println!(
        "{}: one-line edit in `{path}` ({lines} lines): median {:.2} ms, slowest {:.2} ms over {} edits",
        repo.display(),
        times[times.len() / 2].as_secs_f64() * 1000.0,
        times[times.len() - 1].as_secs_f64() * 1000.0,
        times.len()
    );
    typing(&live, &path, document);
}

/// A character typed and taken back at 60 places spread over the file: a space before a
/// line's code (the item stays well formed) and an `x` after it (the item breaks until the
/// `x` is taken back). Each keystroke is timed alone.
fn typing(live: &LiveIndex, path: &str, mut document: Document) {
    let text = document.text();
    let lines: Vec<&str> = text.lines().collect();
    let places: Vec<(u32, u32, u32)> = (0..60)
        .map(|i| i * lines.len() / 60)
        .filter_map(|row| {
            let line = lines[row..].iter().position(|l| !l.trim().is_empty())? + row;
            let code = lines[line];
            let indent = (code.len() - code.trim_start().len()) as u32;
            Some((line as u32, indent, code.encode_utf16().count() as u32))
        })
        .collect();
    let mut version = 1000;
    let mut keystroke = |document: &mut Document, line: u32, from: u32, to: u32, typed: &str| {
        version += 1;
        timed_change(live, path, document, version, (line, from, to), typed)
    };
    let mut times = Vec::new();
    for &(line, indent, end) in &places {
        times.push((keystroke(&mut document, line, indent, indent, " "), line));
        times.push((keystroke(&mut document, line, indent, indent + 1, ""), line));
        times.push((keystroke(&mut document, line, end, end, "x"), line));
        times.push((keystroke(&mut document, line, end, end + 1, ""), line));
    }
    times.sort();
    let (slowest, at) = times[times.len() - 1];
    println!(
        "  typing at {} places: median {:.2} ms, 90th percentile {:.2} ms, slowest {:.2} ms (line {})",
        places.len(),
        times[times.len() / 2].0.as_secs_f64() * 1000.0,
        times[times.len() * 9 / 10].0.as_secs_f64() * 1000.0,
        slowest.as_secs_f64() * 1000.0,
        at + 1
    );
}

/// Replaces the columns `from..to` of the 0-based `line` of `document` with `text`, the way
/// the language server applies a change (document change, byte edits, incremental reparse,
/// extraction, index update), and gives the time it took.
fn timed_change(
    live: &LiveIndex,
    path: &str,
    document: &mut Document,
    version: i32,
    (line, from, to): (u32, u32, u32),
    text: &str,
) -> Duration {
    let change = TextDocumentContentChangeEvent {
        range: Some(Range::new(Position::new(line, from), Position::new(line, to))),
        range_length: None,
        text: text.to_owned(),
    };
    let started = Instant::now();
    let edits = document.apply_changes(version, &[change], PositionEncoding::Utf16);
    live.change(path, edits.as_deref(), &document.text());
    started.elapsed()
}

/// The largest non-test source file (or the one `--file=PATH` names), repeated up to 3,000
/// lines when shorter.
fn three_thousand_lines(index: &Index) -> Option<(String, String)> {
    let chosen = std::env::args().find_map(|a| a.strip_prefix("--file=").map(str::to_string));
    let file = index
        .files()
        .filter(|f| !f.is_test() && matches!(f.language, Language::Rust | Language::Java | Language::TypeScript))
        .filter(|f| chosen.as_ref().is_none_or(|chosen| &f.path == chosen))
        .max_by_key(|f| f.lines)?;
    let text = std::fs::read_to_string(index.root().join(&file.path)).ok()?;
    let mut grown = String::new();
    while grown.lines().count() < 3000 {
        grown.push_str(&text);
        if !grown.ends_with('\n') {
            grown.push('\n');
        }
    }
    let grown: String = grown.lines().take(3000).map(|l| format!("{l}\n")).collect();
    Some((file.path.clone(), grown))
}

/// The whole tree read again, as after an edit to the root `.gitignore`, five times: the
/// median time of the read (the index stays usable) and of making it current (the index
/// locked), with the cache of unchanged files warm as it is in the server.
fn whole_tree_read_again(repo: &Path) {
    let mut index = Index::build(repo, None);
    let (mut reads, mut applies) = (Vec::new(), Vec::new());
    for _ in 0..RUNS {
        let started = Instant::now();
        let Some(read) = index.read_folder("") else { return };
        reads.push(started.elapsed());
        let started = Instant::now();
        index.apply_folder(read, &|_| false);
        applies.push(started.elapsed());
    }
    reads.sort();
    applies.sort();
    let ms = |times: &[Duration]| times[times.len() / 2].as_secs_f64() * 1000.0;
    println!(
        "{}: root .gitignore edited: whole tree read again in {:.1} ms (median of {RUNS}), index locked {:.2} ms",
        repo.display(),
        ms(&reads),
        ms(&applies)
    );
}

/// The time to judge whether a file reported later belongs in the index (every ignore file
/// on its way read and weighed), per file, over every indexed file of the tree.
fn later_files_judged(repo: &Path) {
    let index = Index::build(repo, None);
    let paths: Vec<String> = index.files().map(|f| f.path.clone()).collect();
    let started = Instant::now();
    let taken = paths.iter().filter(|path| issuewright::context::walk::indexable(repo, path)).count();
    let each = started.elapsed().as_secs_f64() * 1e6 / paths.len().max(1) as f64;
    println!(
        "{}: a file reported later judged in {each:.0} µs on average ({taken} of {} taken)",
        repo.display(),
        paths.len()
    );
}

/// The files changed by checking out the commit 200 before the head, and back, read into the
/// live index as a file watcher reports them: one path per event, and all paths in one event
/// (the median of six each way). Done in a clone, so the repository itself is untouched.
fn checkout(repo: &Path) {
    const BACK: &str = "HEAD~200";
    let Ok(clone) = tempfile::tempdir() else { return };
    let git = |args: &[&str]| {
        let out = Command::new("git").arg("-C").arg(clone.path()).args(args).output().ok()?;
        out.status.success().then(|| String::from_utf8_lossy(&out.stdout).into_owned())
    };
    let cloned = Command::new("git").args(["clone", "-q"]).arg(repo).arg(clone.path()).output();
    let (Some(head), Some(changed)) = (
        cloned.ok().filter(|out| out.status.success()).and_then(|_| git(&["rev-parse", "HEAD"])),
        git(&["diff", "--name-only", BACK, "HEAD"]),
    ) else {
        println!("{}: not a git repository with {BACK}; no checkout measured", repo.display());
        return;
    };
    let changed: Vec<String> = changed.lines().map(str::to_owned).collect();
    let live = LiveIndex::default();
    live.install(Index::build(clone.path(), None));
    let files = live.snapshot().map_or(0, |index| index.len());
    let (mut alone, mut together) = (Vec::new(), Vec::new());
    for _ in 0..3 {
        for one_event in [false, true] {
            for target in [BACK, head.trim()] {
                git(&["checkout", "-q", target]);
                let started = Instant::now();
                match one_event {
                    false => changed.iter().for_each(|path| live.disk_changed(path)),
                    true => live.disk_changed_all(&changed),
                }
                match one_event {
                    false => alone.push(started.elapsed()),
                    true => together.push(started.elapsed()),
                }
            }
        }
    }
    let median = |times: &mut Vec<Duration>| {
        times.sort();
        times[times.len() / 2].as_secs_f64() * 1000.0
    };
    println!(
        "{}: a checkout changing {} paths ({files} files indexed): read again one event per path in {:.0} ms, \
         all in one event in {:.0} ms",
        repo.display(),
        changed.len(),
        median(&mut alone),
        median(&mut together)
    );
}
