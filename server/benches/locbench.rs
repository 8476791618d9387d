//! The ranking on the locbench file-localisation set, in process, and the same ranking under
//! other weights: how each weight moves Acc@5 and MRR per language.
//!
//!     cargo bench --bench locbench -- DATA.jsonl [CHECKOUTS] [--with name=v ...] [--vary name=v1,v2 ...] [--features FILE]
//!     cargo bench --bench locbench -- DATA.jsonl [CHECKOUTS] --pack [WINDOW] [--detail]
//!
//! `--with` sets a weight for the base row and every variation (a second weight varied
//! together with a first). `--features FILE` also writes every instance's signals per file,
//! for `benches/learned_ranking.py`. With `--pack`, the context pack a run would start from with a
//! model of a `WINDOW`-token context window (default 32768, that of the default model)
//! instead: where the files the fix changed stand in it (in the map, with their signatures or
//! by their paths alone), and how many of the definitions the files shown in full use
//! (functions, methods and types whose names at most three files define, where the shown file
//! reaches them, outside it and test code) have their signature in the map. `--detail` lists
//! each instance's ranks of its gold files, and with `--pack`
//! each gold file the pack leaves out, with its rank.
//!
//! `CHECKOUTS` holds `<owner>+<name>/<base commit>/` trees as locbench's runner leaves them
//! (default `~/.cache/locbench/checkouts`); run the runner once first. Instances whose
//! checkout is missing are skipped and counted. Indexing uses an on-disk cache in the
//! system's temporary folder, so only the first pass parses. Figures to publish come from
//! the runner itself (process per issue, cold index); this bench is for comparing weights.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use issuewright::agent::{PackPlace, first_context};
use issuewright::context::issue_reading::analyze_in;
use issuewright::context::rank::{SUNK_SHARE, Signals, WEIGHTS, Weights, combine, signals};
use issuewright::context::uses::ShownUses;
use issuewright::context::{Index, IndexCache, MAX_INDEXED_FILES};
use serde_json::Value;

struct Instance {
    id: String,
    language: String,
    gold: Vec<String>,
    signals: Signals,
}

fn main() {
    let mut args = std::env::args().skip(1).filter(|a| a != "--bench");
    let mut positional = Vec::new();
    let mut variations: Vec<(String, Vec<f64>)> = Vec::new();
    let detail = std::env::args().any(|a| a == "--detail");
    let mut pack_window = None;
    let mut features = None;
    let mut base = WEIGHTS;
    while let Some(arg) = args.next() {
        if arg == "--pack" {
            pack_window = Some(32_768);
        } else if let Some(window) = pack_window.is_some().then(|| arg.parse::<u32>().ok()).flatten() {
            pack_window = Some(window);
        } else if arg == "--vary" {
            let spec = args.next().expect("--vary name=v1,v2");
            let (name, values) = spec.split_once('=').expect("--vary name=v1,v2");
            variations.push((name.into(), values.split(',').map(|v| v.parse().expect("a number")).collect()));
        } else if arg == "--features" {
            features = Some(from_shell(&args.next().expect("--features FILE")));
        } else if arg == "--with" {
            let spec = args.next().expect("--with name=v");
            let (name, value) = spec.split_once('=').expect("--with name=v");
            *field(&mut base, name) = value.parse().expect("a number");
        } else if arg != "--detail" {
            positional.push(arg);
        }
    }
    let Some(data) = positional.first().map(|path| from_shell(path)) else {
        eprintln!("usage: cargo bench --bench locbench -- DATA.jsonl [CHECKOUTS] [--vary name=v1,v2 ...]");
        return;
    };
    let checkouts = positional.get(1).map(|path| from_shell(path)).unwrap_or_else(|| {
        PathBuf::from(std::env::var_os("HOME").unwrap_or_default()).join(".cache/locbench/checkouts")
    });
    if let Some(window) = pack_window {
        pack_report(&data, &checkouts, window, detail);
        return;
    }
    let (instances, missing) = load(&data, &checkouts);
    println!("{} instances ({missing} skipped: no checkout)\n", instances.len());
    let columns: String = LANGUAGES.iter().map(|language| format!(" {language} Acc@5 | {language} MRR |")).collect();
    println!("| weights |{columns}");
    println!("|---|{}", "---|---|".repeat(LANGUAGES.len()));
    report(if base == WEIGHTS { "default" } else { "base" }, &instances, &base);
    if let Some(file) = &features {
        write_features(file, &instances, &base);
    }
    if detail {
        for instance in &instances {
            let ranks = gold_ranks(instance, &base);
            println!("{} {:?}", instance.id, ranks);
        }
    }
    for (name, values) in &variations {
        for value in values {
            let mut weights = base;
            *field(&mut weights, name) = *value;
            report(&format!("{name}={value}"), &instances, &weights);
        }
    }
}

/// A path given on the command line: `cargo bench` runs the bench in the package's folder,
/// so a relative path is taken from the folder the command was typed in (`PWD`).
fn from_shell(path: &str) -> PathBuf {
    let shell = std::env::var_os("PWD").map(PathBuf::from);
    match shell {
        Some(folder) if Path::new(path).is_relative() => folder.join(path),
        _ => PathBuf::from(path),
    }
}

fn field<'a>(weights: &'a mut Weights, name: &str) -> &'a mut f64 {
    match name {
        "lexical" => &mut weights.lexical,
        "symbols" => &mut weights.symbols,
        "uses" => &mut weights.uses,
        "paths" => &mut weights.paths,
        "relations" => &mut weights.relations,
        "package" => &mut weights.package,
        "parent" => &mut weights.parent,
        "prior" => &mut weights.prior,
        "title" => &mut weights.title,
        other => panic!("no weight named {other}"),
    }
}

/// Each instance of `data` whose checkout `checkouts` holds, with its index, and the number
/// of those without one.
fn for_each_instance(data: &Path, checkouts: &Path, mut each: impl FnMut(&Value, &Path, &Index)) -> usize {
    let text = std::fs::read_to_string(data).expect("read the instances");
    let cache_dir = std::env::temp_dir().join("issuewright-locbench-cache");
    let mut missing = 0;
    let mut indexes: HashMap<PathBuf, Index> = HashMap::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let row: Value = serde_json::from_str(line).expect("an instance per line");
        let tree = checkouts
            .join(row["repo"].as_str().unwrap_or_default().replace('/', "+"))
            .join(row["base_commit"].as_str().unwrap_or_default());
        if !tree.is_dir() {
            missing += 1;
            continue;
        }
        let index = indexes.entry(tree.clone()).or_insert_with(|| {
            let file = issuewright::context::cache::cache_file(&cache_dir, &tree);
            let (index, _) = Index::build_reading_cache(&tree, Some(&file), MAX_INDEXED_FILES, &Default::default());
            let _ = IndexCache::save(&file, &index);
            index
        });
        each(&row, &tree, index);
        indexes.retain(|path, _| *path == tree);
    }
    missing
}

fn gold_of(row: &Value) -> Vec<String> {
    row["gold_src_files"].as_array().into_iter().flatten().filter_map(|g| g.as_str()).map(String::from).collect()
}

fn load(data: &Path, checkouts: &Path) -> (Vec<Instance>, usize) {
    let mut instances = Vec::new();
    let missing = for_each_instance(data, checkouts, |row, _, index| {
        instances.push(Instance {
            id: row["instance_id"].as_str().unwrap_or_default().into(),
            language: row["language"].as_str().unwrap_or_default().into(),
            gold: gold_of(row),
            signals: signals(index, row["problem_statement"].as_str().unwrap_or_default()),
        });
    });
    (instances, missing)
}

/// Counts of one language's instances in the pack report.
#[derive(Default)]
struct PackCounts {
    instances: usize,
    /// Gold files in full, in part, in the map only, absent.
    places: [usize; 4],
    /// Of the gold files in the map only, those it lists by their paths alone.
    by_path: usize,
    /// Definitions the full files use that have their signature in the map, and all of them.
    uses_shown: usize,
    uses: usize,
    tokens: usize,
    most_tokens: usize,
    mapped: usize,
}

/// Prints where the gold files stand in each instance's pack, and how many of the
/// definitions the files in full use have their signature in the map; with `detail`, each
/// gold file the pack leaves out, with its rank.
fn pack_report(data: &Path, checkouts: &Path, window: u32, detail: bool) {
    let mut counts: HashMap<String, PackCounts> = HashMap::new();
    let missing = for_each_instance(data, checkouts, |row, tree, index| {
        let issue = row["problem_statement"].as_str().unwrap_or_default();
        let query = analyze_in(index, issue);
        // Answers of up to a quarter of the window, as a local model gets by default.
        let info = issuewright::llm::ModelInfo { context_window: window, max_output: window / 4, tools: true };
        let first = first_context(index, &query, issue, info, |path| std::fs::read_to_string(tree.join(path)).ok());
        let language = counts.entry(row["language"].as_str().unwrap_or_default().to_owned()).or_default();
        language.instances += 1;
        language.tokens += first.pack.tokens;
        language.most_tokens = language.most_tokens.max(first.pack.tokens);
        language.mapped += first.pack.mapped_files.len();
        for gold in gold_of(row) {
            let place = match first.place_of(&gold) {
                PackPlace::Full => 0,
                PackPlace::Part => 1,
                PackPlace::Map => 2,
                PackPlace::Absent => 3,
            };
            if detail && place == 3 {
                let rank = first.ranked.iter().position(|file| file.path == gold).map_or(0, |at| at + 1);
                let id = row["instance_id"].as_str().unwrap_or_default();
                println!("{id}: {gold} absent, ranked {rank}, {} files in the map", first.pack.mapped_files.len());
            }
            language.places[place] += 1;
            // A file the map gives signatures for heads its entry on a line of its own.
            let entry = |after: &str| first.pack.text.contains(&format!("\n{gold}{after}"));
            if place == 2 && !entry("\n") && !entry(" (") {
                language.by_path += 1;
            }
        }
        let (shown, used) = signatures_of_uses(index, &first.pack.full_files, &first.pack.text);
        language.uses_shown += shown;
        language.uses += used;
    });
    println!("{missing} instances skipped (no checkout); budget of a {window}-token window\n");
    println!(
        "| language | instances | gold in full | in part | in the map only (by path alone) | absent | signatures of uses in the map | mean tokens | most tokens | mean files in the map |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|");
    let mut languages: Vec<_> = counts.into_iter().collect();
    languages.sort_by(|a, b| a.0.cmp(&b.0));
    for (language, c) in languages {
        let [full, part, map, absent] = c.places;
        println!(
            "| {language} | {} | {full} | {part} | {map} ({}) | {absent} | {} of {} | {} | {} | {:.1} |",
            c.instances,
            c.by_path,
            c.uses_shown,
            c.uses,
            c.tokens / c.instances.max(1),
            c.most_tokens,
            c.mapped as f64 / c.instances.max(1) as f64
        );
    }
}

/// Of the definitions the `full` files use outside them (as [`ShownUses`] finds them): how
/// many `pack_text` shows, by their signature in the map or in a part of their file, and how
/// many there are.
fn signatures_of_uses(index: &Index, full: &[String], pack_text: &str) -> (usize, usize) {
    let shown: Vec<(&str, Option<&str>)> = full.iter().map(|path| (path.as_str(), None)).collect();
    let uses = ShownUses::new(index, &shown);
    // The map: each file's path, and the lines of the signatures it lists.
    let map = pack_text.split("\n## ").find(|section| section.starts_with("## Repository map")).unwrap_or_default();
    let mut listed: HashMap<&str, HashSet<u32>> = HashMap::new();
    let mut current = None;
    for line in map.lines().skip(1) {
        if line.starts_with(' ') {
            let number = line.trim_start().split(':').next().and_then(|n| n.parse().ok());
            if let (Some(path), Some(number)) = (current, number) {
                listed.entry(path).or_default().insert(number);
            }
        } else if !line.is_empty() {
            current = line.split(' ').next();
            listed.entry(current.unwrap_or_default()).or_default();
        }
    }
    // The parts: each file's line ranges shown in part.
    let mut parts: HashMap<&str, Vec<(u32, u32)>> = HashMap::new();
    let mut in_part = None;
    for line in pack_text.lines() {
        if let Some(heading) = line.strip_prefix("### ") {
            in_part = heading.contains("[in part:").then(|| heading.split(' ').next().unwrap_or_default());
        } else if let (Some(path), Some(range)) = (in_part, line.strip_prefix("lines ")) {
            let range = range.trim_end_matches(':').split_once('-');
            if let Some((Ok(start), Ok(end))) = range.map(|(a, b)| (a.parse(), b.parse())) {
                parts.entry(path).or_default().push((start, end));
            }
        }
    }
    let shown = |d: &&issuewright::context::uses::UsedDefinition| {
        listed.get(d.path.as_str()).is_some_and(|lines| lines.contains(&d.line))
            || parts.get(d.path.as_str()).is_some_and(|ranges| ranges.iter().any(|(a, b)| (*a..=*b).contains(&d.line)))
    };
    let outside = uses.definitions().iter().filter(|d| !full.contains(&d.path));
    let (in_map, missing): (Vec<_>, Vec<_>) = outside.partition(shown);
    (in_map.len(), in_map.len() + missing.len())
}

/// Writes each instance's signals per file to `file` as JSON lines, after a first line with
/// the `weights` and [`SUNK_SHARE`]: for weighing the signals in other ways outside this
/// bench (`benches/learned_ranking.py`). Each instance keeps its 150 best ranked files and
/// its gold files.
fn write_features(file: &Path, instances: &[Instance], weights: &Weights) {
    use std::io::Write;
    let mut out = std::io::BufWriter::new(std::fs::File::create(file).expect("create the features file"));
    let header = serde_json::json!({ "weights": weights, "sunk_share": SUNK_SHARE });
    writeln!(out, "{header}").expect("write the features");
    for instance in instances {
        let best: HashSet<String> = combine(&instance.signals, weights).into_iter().take(150).map(|r| r.path).collect();
        let files: Vec<_> = instance
            .signals
            .per_file()
            .into_iter()
            .filter(|f| best.contains(&f.path) || instance.gold.contains(&f.path))
            .collect();
        let line = serde_json::json!({
            "instance_id": instance.id, "language": instance.language, "gold": instance.gold, "files": files,
        });
        writeln!(out, "{line}").expect("write the features");
    }
    out.flush().expect("write the features");
}

/// Where each gold file lands (1-based) among the instance's source files.
fn gold_ranks(instance: &Instance, weights: &Weights) -> Vec<Option<usize>> {
    let extensions: &[&str] = match instance.language.as_str() {
        "rust" => &[".rs"],
        "typescript" => &[".ts", ".tsx"],
        "javascript" => &[".js", ".jsx", ".mjs", ".cjs"],
        _ => &[".java"],
    };
    let ranked: Vec<String> = combine(&instance.signals, weights)
        .into_iter()
        .map(|r| r.path)
        .filter(|p| extensions.iter().any(|e| p.ends_with(e)))
        .collect();
    instance.gold.iter().map(|g| ranked.iter().position(|p| p == g).map(|r| r + 1)).collect()
}

/// The languages the report has columns for, in their order.
const LANGUAGES: [&str; 4] = ["rust", "java", "typescript", "javascript"];

fn report(label: &str, instances: &[Instance], weights: &Weights) {
    let mut cells = Vec::new();
    for language in LANGUAGES {
        let (mut acc5, mut mrr, mut n) = (0.0, 0.0, 0.0_f64);
        for instance in instances.iter().filter(|i| i.language == language) {
            let ranks = gold_ranks(instance, weights);
            if ranks.iter().all(|r| r.is_some_and(|r| r <= 5)) {
                acc5 += 1.0;
            }
            if let Some(best) = ranks.iter().flatten().min() {
                mrr += 1.0 / *best as f64;
            }
            n += 1.0;
        }
        cells.push(match n {
            0.0 => "- | -".to_owned(),
            _ => format!("{:.3} | {:.3}", acc5 / n, mrr / n),
        });
    }
    println!("| {label} | {} |", cells.join(" | "));
}
