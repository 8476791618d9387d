//! The shadow workspace's cost.
//!
//!     cargo bench --bench shadow -- [CRATE]
//!
//! 1. Warm `cargo check` after a one-line change: through the shadow (the change staged as
//!    an overlay text, the mirror synced, the check run there) versus the same `cargo check`
//!    run directly in a copy of the crate with the same change written to it. Both are
//!    built cold once first; then five one-line changes each, medians printed. CRATE
//!    defaults to this repository (a workspace of about 25,000 lines with 60 dependencies,
//!    which must be in cargo's cache: the benchmark runs offline).
//! 2. Syncing a generated repository of 10,000 files: cold, warm with nothing changed, and
//!    warm with one overlay text.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use issuewright::config::ValidateSettings;
use issuewright::validate::{Kind, Shadow, Validator};
use issuewright::workspace::WorkspacePath;
use tokio_util::sync::CancellationToken;

const CHANGES: usize = 5;
const SYNTHETIC_FILES: usize = 10_000;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).filter(|a| !a.starts_with("--")).collect();
    let repo = args.first().map(PathBuf::from).unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join(".."));
    let work = Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/bench-shadow");
    let _ = std::fs::remove_dir_all(&work);
    std::fs::create_dir_all(&work).expect("bench folder");
    let runtime = tokio::runtime::Runtime::new().expect("runtime");
    runtime.block_on(warm_check(&repo.canonicalize().expect("crate folder"), &work));
    sync_10k(&work);
}

/// Copies the files of `from` that git would track (ignore rules honoured) to `to`.
fn copy_tree(from: &Path, to: &Path) -> usize {
    let mut copied = 0;
    for entry in ignore::WalkBuilder::new(from).hidden(false).require_git(false).build().flatten() {
        let relative = entry.path().strip_prefix(from).expect("below");
        if relative.starts_with(".git") || relative.as_os_str().is_empty() {
            continue;
        }
        let target = to.join(relative);
        if entry.file_type().is_some_and(|t| t.is_dir()) {
            std::fs::create_dir_all(&target).expect("mkdir");
        } else if entry.file_type().is_some_and(|t| t.is_file()) {
            std::fs::copy(entry.path(), &target).expect("copy");
            copied += 1;
        }
    }
    copied
}

/// The largest `.rs` file of the crate's library sources: the file the one-line change goes to.
fn file_to_change(root: &Path) -> WorkspacePath {
    let mut best: Option<(u64, PathBuf)> = None;
    for entry in ignore::WalkBuilder::new(root).build().flatten() {
        let path = entry.path();
        let in_src = path.components().any(|c| c.as_os_str() == "src");
        if path.extension().is_some_and(|e| e == "rs") && in_src {
            let size = entry.metadata().map(|m| m.len()).unwrap_or(0);
            if best.as_ref().is_none_or(|(s, _)| size > *s) {
                best = Some((size, path.to_owned()));
            }
        }
    }
    let path = best.expect("a .rs file under src/").1;
    let relative = path.strip_prefix(root).expect("below").to_string_lossy().replace('\\', "/");
    WorkspacePath::parse(&relative).expect("a workspace path")
}

fn cargo_check(dir: &Path, target: &Path) -> Duration {
    let started = Instant::now();
    let status = Command::new("cargo")
        .args(["check", "--workspace", "--all-targets", "--message-format=json", "--offline", "--quiet"])
        .current_dir(dir)
        .env("CARGO_TARGET_DIR", target)
        .stdout(std::process::Stdio::null())
        .status()
        .expect("cargo runs");
    assert!(status.success(), "cargo check failed in {}", dir.display());
    started.elapsed()
}

fn median(mut values: Vec<Duration>) -> Duration {
    values.sort();
    values[values.len() / 2]
}

fn ms(duration: Duration) -> String {
    format!("{:.0}", duration.as_secs_f64() * 1000.0)
}

async fn warm_check(repo: &Path, work: &Path) {
    let (source, direct) = (work.join("source"), work.join("direct"));
    let files = copy_tree(repo, &source);
    copy_tree(repo, &direct);
    let changed = file_to_change(&source);
    let original = std::fs::read_to_string(source.join(changed.as_str())).expect("readable");
    println!(
        "Warm `cargo check` after a one-line change to {changed} ({files} files copied from {})\n",
        repo.display()
    );

    let settings = ValidateSettings { timeout: Duration::from_secs(3600), ..ValidateSettings::default() };
    let validator = Validator::new(&source, settings, Some(work.join("cache"))).expect("validator");
    let cancel = CancellationToken::new();
    let started = Instant::now();
    let cold = validator.run(Kind::Check, BTreeMap::new(), None, &cancel).await.expect("validation runs");
    assert!(cold.passed, "the crate must build: {}", cold.summary);
    let shadow_cold = started.elapsed();
    let direct_cold = cargo_check(&direct, &work.join("direct-target"));

    let (mut shadow_times, mut sync_times, mut direct_times) = (Vec::new(), Vec::new(), Vec::new());
    for change in 0..CHANGES {
        let text = format!("{original}\n// one-line change {change}\n");
        let overrides = BTreeMap::from([(changed.clone(), Some(text.clone()))]);
        let started = Instant::now();
        let report = validator.run(Kind::Check, overrides, None, &cancel).await.expect("validation runs");
        shadow_times.push(started.elapsed());
        sync_times.push(report.sync.duration);
        assert!(report.passed, "{}", report.summary);

        std::fs::write(direct.join(changed.as_str()), &text).expect("write the copy");
        direct_times.push(cargo_check(&direct, &work.join("direct-target")));
    }
    let (shadow, direct, sync) = (median(shadow_times), median(direct_times), median(sync_times));
    println!("| | cold ms | warm median ms (of {CHANGES}) |");
    println!("|---|---|---|");
    println!("| cargo check in the shadow (sync + check) | {} | {} |", ms(shadow_cold), ms(shadow));
    println!("| of which the shadow sync | | {} |", ms(sync));
    println!("| cargo check directly in a copy | {} | {} |", ms(direct_cold), ms(direct));
    println!("\nwarm ratio shadow / direct: {:.2}x\n", shadow.as_secs_f64() / direct.as_secs_f64());
}

fn sync_10k(work: &Path) {
    let source = work.join("ten-thousand");
    for n in 0..SYNTHETIC_FILES {
        let dir = source.join(format!("pkg{:03}", n / 100));
        std::fs::create_dir_all(&dir).expect("mkdir");
        let text = format!("// file {n}\npub fn f{n}() -> usize {{\n    {n}\n}}\n").repeat(8);
        std::fs::write(dir.join(format!("m{n:05}.rs")), text).expect("write");
    }
    let source = source.canonicalize().expect("canonical");
    let mut shadow = Shadow::open(&source, &work.join("cache-10k")).expect("shadow");
    let cold = shadow.sync(&BTreeMap::new()).expect("sync");
    let mut warm = Vec::new();
    let mut overlay = Vec::new();
    for change in 0..CHANGES {
        warm.push(shadow.sync(&BTreeMap::new()).expect("sync").duration);
        let path = WorkspacePath::parse("pkg042/m04242.rs").expect("path");
        let overrides = BTreeMap::from([(path, Some(format!("pub fn changed_{change}() {{}}\n")))]);
        let stats = shadow.sync(&overrides).expect("sync");
        assert_eq!(stats.written, 1);
        overlay.push(stats.duration);
    }
    println!("Shadow sync of a generated repository of {} files\n", cold.files);
    println!("| sync | files written | ms |");
    println!("|---|---|---|");
    println!("| cold | {} | {} |", cold.written, ms(cold.duration));
    println!("| warm, nothing changed (median of {CHANGES}) | 0 | {} |", ms(median(warm)));
    println!("| warm, one overlay text (median of {CHANGES}) | 1 | {} |", ms(median(overlay)));
}
