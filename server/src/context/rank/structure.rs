//! Signals from the code's structure: types extending a named type, the reference graph and
//! its rank, the package of a hit, and the module file declaring a hit.

use std::borrow::Cow;
use std::collections::HashMap;

use rustc_hash::FxHashMap;

use super::symbols::{Defined, DefinitionTable, HitType, Written, name_homes};
use super::{Signal, package_of};
use crate::context::graph::FileGraph;
use crate::context::index::IndexedFile;
use crate::context::namesakes::{FileScope, NameHomes, Narrowed};
use crate::context::outside_names::{FileOutside, Outside, prelude_over_members};
use crate::context::{DefinitionKind, Language};

/// Names defined in more files than this are too common to link files in the graph.
const MAX_FANOUT: usize = 8;

/// Files whose types extend or implement a named type, as far as `bound` (what each file
/// that uses a named name binds to outside) tells: not a namesake from outside.
pub(super) fn relation_signal(
    files: &[&IndexedFile],
    hit_types: &[HitType<'_>],
    bound: &[Option<FileOutside<'_>>],
) -> Signal {
    let mut signal = Signal::new(files.len());
    for HitType { name, weight, .. } in hit_types {
        for (i, file) in files.iter().enumerate() {
            // `impl Future for Task` beside `use std::future::Future` implements the language's.
            if bound[i].as_ref().is_some_and(|bound| bound.names.means_outside(name)) {
                continue;
            }
            if file.symbols.supertypes.iter().any(|s| s == name) {
                signal.add(i, *weight, || format!("extends or implements `{name}`"));
            } else if file.symbols.impl_targets.iter().any(|s| s == name) {
                signal.add(i, 0.7 * weight, || format!("implements methods of `{name}`"));
            }
        }
    }
    signal
}

/// Names defined in more files than this say too little of which type a field holds.
const MAX_HELD_HOMES: usize = 2;

/// Adds to `signal` the files that define the types a named Rust struct holds in its fields
/// (`IdleNotifiedSet` of `struct JoinSet { inner: IdleNotifiedSet<JoinHandle<T>> }`): what
/// the struct is built from, where a change to it often goes too. The struct's lines are read
/// as `read` gives them; a type defined in more than two files, or only in the struct's own
/// file, lifts nothing.
pub(super) fn add_held_types(
    signal: &mut Signal,
    files: &[&IndexedFile],
    hit_types: &[HitType<'_>],
    table: &DefinitionTable<'_>,
    read: &dyn Fn(&str) -> Option<String>,
) {
    // A struct named several ways (`JoinSet`, `task::JoinSet`) is one hit for each: its
    // fields are read once.
    let mut fields: HashMap<(usize, u32), Vec<String>> = HashMap::new();
    for hit in hit_types {
        let file = files[hit.file];
        if file.language != Language::Rust || hit.kind != DefinitionKind::Struct {
            continue;
        }
        let held = fields.entry((hit.file, hit.line)).or_insert_with(|| rust_field_types(file, hit, read));
        for name in held.iter() {
            let Some(defined) = table.get(name.as_str()) else { continue };
            // Each file defining it once, at its first definition there.
            let mut homes: Vec<(usize, u32)> =
                defined.iter().filter(|d| d.kind.is_type() && !d.test).map(|d| (d.file, d.line)).collect();
            homes.sort_unstable();
            homes.dedup_by_key(|(file, _)| *file);
            if homes.is_empty() || homes.len() > MAX_HELD_HOMES {
                continue;
            }
            // The only lines the relations signal points at: `RankedFile::held` takes them.
            for (home, line) in homes.into_iter().filter(|(home, _)| *home != hit.file) {
                signal.add_at(home, 0.5 * hit.weight, line, || format!("defines `{name}`, which `{}` holds", hit.name));
            }
        }
    }
}

/// The capitalised names a line of code writes (`Arc`, `IdleNotifiedSet` of `inner:
/// Arc<IdleNotifiedSet<T>>`), each once, but `own`: the types it may hold.
fn capitalised_names<'t>(lines: impl Iterator<Item = &'t str>, own: &str) -> Vec<&'t str> {
    let mut names: Vec<&str> = Vec::new();
    for line in lines {
        for word in line.split(|c: char| !(c.is_alphanumeric() || c == '_')) {
            if word.len() > 1
                && word.starts_with(|c: char| c.is_ascii_uppercase())
                && word != own
                && !names.contains(&word)
            {
                names.push(word);
            }
        }
    }
    names
}

/// The names the fields of the named Rust struct `hit` write, read from its body as `read`
/// gives it (comments and attributes left out).
fn rust_field_types(file: &IndexedFile, hit: &HitType<'_>, read: &dyn Fn(&str) -> Option<String>) -> Vec<String> {
    let Some(definition) =
        file.symbols.definitions.iter().find(|d| d.line == hit.line && d.name == hit.name && d.kind == hit.kind)
    else {
        return Vec::new();
    };
    let Some(text) = read(&file.path) else { return Vec::new() };
    let mut lines = text
        .lines()
        .skip(definition.body_line.saturating_sub(1) as usize)
        .take(definition.end_line.saturating_sub(definition.body_line) as usize + 1);
    // The line the body opens on holds fields after its `{` (`struct Set { inner: Inner }`),
    // or a tuple struct's after its `(`.
    let opening = lines.next().unwrap_or_default();
    let first = opening.split_once('{').or_else(|| opening.split_once('(')).map_or("", |(_, rest)| rest);
    let body = std::iter::once(first)
        .chain(lines)
        .map(str::trim_start)
        .filter(|line| !line.starts_with("//") && !line.starts_with('#'));
    capitalised_names(body, hit.name).into_iter().map(str::to_owned).collect()
}

/// A name's definitions, as the graph links a use of it.
struct Link<'a> {
    /// Each definition's file, with the trait a method call must have in scope to reach it
    /// and whether the workspace declares that trait.
    defining: Vec<(usize, Option<(&'a str, bool)>)>,
    /// The files, each once, sorted.
    distinct: Vec<usize>,
    /// How many of the definitions each of `distinct` holds.
    held: Vec<usize>,
    /// Whether any definition is a trait's method, which a method call may not reach.
    in_traits: bool,
    /// Whether every definition is a member (see [`Defined::member`]).
    members_only: bool,
    /// The files that define the name, of which a file's imports say which it means.
    homes: NameHomes<'a>,
}

impl<'a> Link<'a> {
    fn new(defining: Vec<(usize, Option<(&'a str, bool)>)>, members_only: bool, homes: NameHomes<'a>) -> Self {
        let mut files: Vec<usize> = defining.iter().map(|(file, _)| *file).collect();
        files.sort_unstable();
        let (mut distinct, mut held): (Vec<usize>, Vec<usize>) = (Vec::new(), Vec::new());
        for file in files {
            match distinct.last() == Some(&file) {
                true => *held.last_mut().expect("a count per file") += 1,
                false => {
                    distinct.push(file);
                    held.push(1);
                }
            }
        }
        let in_traits = defining.iter().any(|(_, declared_in)| declared_in.is_some());
        Self { defining, distinct, held, in_traits, members_only, homes }
    }

    /// The files a use links to, and the number of definitions among them: those a method
    /// call reaches from a file with `in_scope` traits (by name, and whether the workspace
    /// declares it) when `method_call`, else all; of the homes the file's imports judge, only
    /// those `narrowed` admits, where it says (see [`NameHomes::narrowed`]).
    fn targets(
        &self,
        method_call: bool,
        in_scope: impl Fn(&str, bool) -> bool,
        narrowed: Option<&Narrowed<'_>>,
    ) -> (Cow<'_, [usize]>, usize) {
        let scoped = method_call && self.in_traits;
        match (scoped, narrowed) {
            (false, None) => return (Cow::Borrowed(&self.distinct), self.defining.len()),
            // The files of other definitions, and those meant: a name many test classes define
            // for themselves is cheap to link.
            (false, Some(narrowed)) => {
                let mut kept: Vec<usize> = narrowed.others(&self.distinct).collect();
                kept.extend(narrowed.meant().iter().filter(|file| self.distinct.binary_search(file).is_ok()));
                kept.sort_unstable();
                let held = |file: &usize| self.distinct.binary_search(file).map_or(0, |at| self.held[at]);
                let definitions = kept.iter().map(held).sum();
                return (Cow::Owned(kept), definitions);
            }
            (true, _) => {}
        }
        let reached: Vec<usize> = self
            .defining
            .iter()
            .filter(|(file, scoping)| {
                narrowed.is_none_or(|n| n.admits(*file))
                    && scoping.is_none_or(|(name, declared)| in_scope(name, declared))
            })
            .map(|(file, _)| *file)
            .collect();
        let definitions = reached.len();
        let mut distinct = reached;
        distinct.sort_unstable();
        distinct.dedup();
        (Cow::Owned(distinct), definitions)
    }
}

/// The use-definition graph: an edge from each file to the files defining what it uses
/// (each edge also weighed back at half; a name a file only calls as a method links only to
/// what a method call can reach, a trait's methods only where the trait is in scope); and,
/// for each file, how many other files use a name that it alone defines (a namesake
/// elsewhere leaves it unclear whose a use is). What each file binds to outside is read on
/// the way, and kept for the files `keep` marks.
pub(super) fn reference_graph<'a>(
    files: &[&'a IndexedFile],
    table: &DefinitionTable<'_>,
    outside: &dyn Outside,
    keep: &[bool],
) -> (FileGraph, Vec<usize>, Vec<Option<FileOutside<'a>>>) {
    // Each name's files and its number of definitions, worked out once per name and for how
    // a file writes it (called only as a method, free functions of the name are not it;
    // written only as a type, its enum constants are not).
    let mut linked: FxHashMap<(&str, Written), Option<Link>> = FxHashMap::default();
    // Whether the workspace declares a trait of a name: one from outside is in scope by other rules.
    let declares_trait =
        |name: &str| table.get(name).is_some_and(|defined| defined.iter().any(|d| d.kind == DefinitionKind::Trait));
    let mut graph = FileGraph::new(files.len());
    let mut users = vec![0; files.len()];
    // Each target's weight, and whether a name only it defines links to it.
    let mut targets: FxHashMap<usize, (f64, bool)> = FxHashMap::default();
    let mut edges: Vec<(usize, (f64, bool))> = Vec::new();
    let mut kept: Vec<Option<FileOutside<'a>>> = Vec::with_capacity(files.len());
    for (i, file) in files.iter().enumerate() {
        targets.clear();
        // Uses written after a path that leads outside (`Poll::Ready`, `io::Error`) are items
        // from outside.
        let bound = FileOutside::of(file, outside);
        let names = &bound.names;
        let scope = FileScope::of(file);
        let used = file.symbols.references.iter().filter_map(|(name, count)| {
            let count = bound.workspace_uses(name, *count);
            (count > 0).then(|| (name.as_str(), f64::from(count).sqrt(), Written::of(file, name, count)))
        });
        let extended = file
            .symbols
            .supertypes
            .iter()
            .chain(&file.symbols.impl_targets)
            .map(|name| (name.as_str(), 3.0, Written::Anyhow));
        for (name, weight, written) in used.chain(extended) {
            // `Result` without a `use` of the crate's own is the standard library's, and
            // `Result` of `use anyhow::Result` anyhow's.
            if names.means_outside(name) {
                continue;
            }
            let link = linked.entry((name, written)).or_insert_with(|| {
                let defined: Vec<&Defined> =
                    table.get(name)?.iter().filter(|defined| written.reaches(defined)).collect();
                let defining =
                    defined.iter().map(|d| (d.file, d.trait_of.map(|name| (name, declares_trait(name))))).collect();
                let members_only = defined.iter().all(|d| d.member);
                Some(Link::new(defining, members_only, name_homes(files, defined.iter().copied())))
            });
            let Some(link) = link else { continue };
            if prelude_over_members(file.language, name, link.members_only) {
                continue;
            }
            // Of two packages' `Node`, the one the file's imports or package bring in; of two
            // modules' `Button`, the one a script imports.
            let narrowed = link.homes.narrowed(files, i, &scope, outside.imported_modules(), name);
            // `.map()` reaches `StreamExt::map` only where `StreamExt` is imported.
            let (distinct, definitions) = link.targets(
                written == Written::AsMethod,
                |name, declared| names.has_in_scope(name, declared),
                narrowed.as_ref(),
            );
            if distinct.is_empty() || distinct.len() > MAX_FANOUT {
                continue;
            }
            let sole = distinct.len() == 1;
            let definitions = definitions as f64;
            for &target in distinct.iter() {
                let (total, solely) = targets.entry(target).or_default();
                *total += weight / definitions;
                *solely |= sole;
            }
        }
        // In file order, so the graph and its rank come out the same from run to run.
        edges.clear();
        edges.extend(targets.iter().map(|(target, weight)| (*target, *weight)));
        edges.sort_unstable_by_key(|(target, _)| *target);
        for &(target, (weight, solely)) in &edges {
            if target != i && solely {
                users[target] += 1;
            }
            graph.add(i, target, weight);
            graph.add(target, i, 0.5 * weight);
        }
        kept.push(keep.get(i).copied().unwrap_or(false).then_some(bound));
    }
    (graph, users, kept)
}

/// Package siblings share a fraction of their strongest member's direct score: each file's
/// share, and the name of the member it comes from (of equals, the first by path).
pub(super) fn package_signal(files: &[&IndexedFile], direct: &[f64]) -> (Vec<f64>, Vec<String>) {
    let mut best: HashMap<String, (f64, &str)> = HashMap::new();
    let packages: Vec<String> = files.iter().map(|f| package_of(f)).collect();
    for ((package, score), file) in packages.iter().zip(direct).zip(files) {
        let entry = best.entry(package.clone()).or_insert((0.0, ""));
        if *score > entry.0 || (*score == entry.0 && *score > 0.0 && file.path.as_str() < entry.1) {
            *entry = (*score, &file.path);
        }
    }
    packages
        .iter()
        .zip(direct)
        .map(|(package, own)| {
            let (score, lead) = best[package];
            if *own > 0.0 || score <= 0.0 {
                return (0.0, String::new());
            }
            (score, lead.rsplit('/').next().unwrap_or(lead).to_owned())
        })
        .unzip()
}

/// The file that declares `path`'s module: `dir/mod.rs` (or `dir.rs`, `dir/lib.rs`,
/// `dir/main.rs`, `dir/index.ts`) for a file in `dir`; one level up for those files themselves.
pub(super) fn declaring_module(path: &str, paths: &HashMap<&str, usize>) -> Option<usize> {
    let (dir, name) = path.rsplit_once('/').unwrap_or(("", path));
    let declares_own_dir = matches!(name, "mod.rs" | "lib.rs" | "main.rs" | "index.ts" | "index.js");
    let dir = if declares_own_dir { dir.rsplit_once('/').map_or("", |(up, _)| up) } else { dir };
    if dir.is_empty() && declares_own_dir {
        return None;
    }
    let join = |name: &str| if dir.is_empty() { name.to_owned() } else { format!("{dir}/{name}") };
    let candidates =
        [join("mod.rs"), format!("{dir}.rs"), join("lib.rs"), join("main.rs"), join("index.ts"), join("index.js")];
    candidates
        .iter()
        .filter(|candidate| candidate.as_str() != path)
        .find_map(|candidate| paths.get(candidate.as_str()).copied())
}

/// Module files get a share of the direct scores of the files they declare.
pub(super) fn parent_signal(files: &[&IndexedFile], direct: &[f64]) -> Vec<f64> {
    let paths: HashMap<&str, usize> = files.iter().enumerate().map(|(i, f)| (f.path.as_str(), i)).collect();
    let mut values = vec![0.0; files.len()];
    for (i, file) in files.iter().enumerate() {
        if direct[i] > 0.0
            && let Some(parent) = declaring_module(&file.path, &paths)
        {
            values[parent] = f64::max(values[parent], direct[i]);
        }
    }
    values
}
