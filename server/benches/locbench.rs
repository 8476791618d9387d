//! The ranking on the locbench file-localisation set, in process, and the same ranking under
//! other weights: how each weight moves Acc@5 and MRR per language.
//!
//!     cargo bench --bench locbench -- DATA.jsonl [CHECKOUTS] [--vary name=v1,v2 ...]
//!
//! `CHECKOUTS` holds `<owner>+<name>/<base commit>/` trees as locbench's runner leaves them
//! (default `~/.cache/locbench/checkouts`); run the runner once first. Instances whose
//! checkout is missing are skipped and counted. Indexing uses an on-disk cache in the
//! system's temporary folder, so only the first pass parses. Figures to publish come from
//! the runner itself (process per issue, cold index); this bench is for comparing weights.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use issuewright::context::rank::{Signals, WEIGHTS, Weights, combine, signals};
use issuewright::context::{Index, IndexCache};
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
    while let Some(arg) = args.next() {
        if arg == "--vary" {
            let spec = args.next().expect("--vary name=v1,v2");
            let (name, values) = spec.split_once('=').expect("--vary name=v1,v2");
            variations.push((name.into(), values.split(',').map(|v| v.parse().expect("a number")).collect()));
        } else if arg != "--detail" {
            positional.push(arg);
        }
    }
    let Some(data) = positional.first().map(PathBuf::from) else {
        eprintln!("usage: cargo bench --bench locbench -- DATA.jsonl [CHECKOUTS] [--vary name=v1,v2 ...]");
        return;
    };
    let checkouts = positional.get(1).map(PathBuf::from).unwrap_or_else(|| {
        PathBuf::from(std::env::var_os("HOME").unwrap_or_default()).join(".cache/locbench/checkouts")
    });
    let (instances, missing) = load(&data, &checkouts);
    println!("{} instances ({missing} skipped: no checkout)\n", instances.len());
    println!("| weights | rust Acc@5 | rust MRR | java Acc@5 | java MRR | typescript Acc@5 | typescript MRR |");
    println!("|---|---|---|---|---|---|---|");
    report("default", &instances, &WEIGHTS);
    if detail {
        for instance in &instances {
            let ranks = gold_ranks(instance, &WEIGHTS);
            println!("{} {:?}", instance.id, ranks);
        }
    }
    for (name, values) in &variations {
        for value in values {
            let mut weights = WEIGHTS;
            *field(&mut weights, name) = *value;
            report(&format!("{name}={value}"), &instances, &weights);
        }
    }
}

fn field<'a>(weights: &'a mut Weights, name: &str) -> &'a mut f64 {
    match name {
        "lexical" => &mut weights.lexical,
        "symbols" => &mut weights.symbols,
        "paths" => &mut weights.paths,
        "relations" => &mut weights.relations,
        "package" => &mut weights.package,
        "parent" => &mut weights.parent,
        "prior" => &mut weights.prior,
        other => panic!("no weight named {other}"),
    }
}

fn load(data: &Path, checkouts: &Path) -> (Vec<Instance>, usize) {
    let text = std::fs::read_to_string(data).expect("read the instances");
    let cache_dir = std::env::temp_dir().join("issuewright-locbench-cache");
    let mut instances = Vec::new();
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
            let index = Index::build(&tree, Some(&IndexCache::load(&file)));
            let _ = IndexCache::save(&file, index.files().map(|f| f.as_ref()));
            index
        });
        let gold = row["gold_src_files"].as_array().into_iter().flatten().filter_map(|g| g.as_str()).map(String::from);
        instances.push(Instance {
            id: row["instance_id"].as_str().unwrap_or_default().into(),
            language: row["language"].as_str().unwrap_or_default().into(),
            gold: gold.collect(),
            signals: signals(index, row["problem_statement"].as_str().unwrap_or_default()),
        });
        indexes.retain(|path, _| *path == tree);
    }
    (instances, missing)
}

/// Where each gold file lands (1-based) among the instance's source files.
fn gold_ranks(instance: &Instance, weights: &Weights) -> Vec<Option<usize>> {
    let extensions: &[&str] = match instance.language.as_str() {
        "rust" => &[".rs"],
        "typescript" => &[".ts", ".tsx"],
        _ => &[".java"],
    };
    let ranked: Vec<String> = combine(&instance.signals, weights)
        .into_iter()
        .map(|r| r.path)
        .filter(|p| extensions.iter().any(|e| p.ends_with(e)))
        .collect();
    instance.gold.iter().map(|g| ranked.iter().position(|p| p == g).map(|r| r + 1)).collect()
}

fn report(label: &str, instances: &[Instance], weights: &Weights) {
    let mut cells = Vec::new();
    for language in ["rust", "java", "typescript"] {
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
