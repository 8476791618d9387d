//! The symbol signal: files that define an identifier the issue names, rarer names and
//! matching qualifiers counting more, or that are named after one.

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};

use rustc_hash::FxHashMap;

use super::{Signal, squash, stem};
use crate::context::index::IndexedFile;
use crate::context::issue::IssueQuery;
use crate::context::namesakes::{FileScope, ImportedModules, NameHomes, Narrowed};
use crate::context::outside_names::{FileOutside, prelude_over_members};
use crate::context::{DefinitionKind, Language, java_lang};

/// How much a definition of this kind says about its file: types most, members least.
fn kind_weight(kind: DefinitionKind) -> f64 {
    match kind {
        DefinitionKind::Class
        | DefinitionKind::Struct
        | DefinitionKind::Enum
        | DefinitionKind::Interface
        | DefinitionKind::Trait => 1.0,
        DefinitionKind::Type | DefinitionKind::Module | DefinitionKind::Macro | DefinitionKind::Constant => 0.8,
        DefinitionKind::Function | DefinitionKind::Method => 0.7,
        DefinitionKind::Variant | DefinitionKind::Field => 0.4,
    }
}

/// One definition of a name, as the ranking looks it up.
pub(super) struct Defined<'a> {
    /// The defining file's position in the files ranked.
    pub(super) file: usize,
    pub(super) kind: DefinitionKind,
    /// Whether a method call can reach it (see [`Definition::callable_as_method`](crate::context::extract::Definition::callable_as_method)).
    pub(super) callable_as_method: bool,
    /// The trait a Rust method is declared in, when its file defines that trait, or the one
    /// its `impl` block implements: a method call reaches it only where the trait is in scope.
    pub(super) trait_of: Option<&'a str>,
    /// The type, trait, class or module it belongs to.
    container: Option<&'a str>,
    /// Whether it is a member (see [`Definition::is_member`](crate::context::extract::Definition::is_member)).
    pub(super) member: bool,
    /// The line it starts on.
    pub(super) line: u32,
    /// Whether it is test code in a source file (see [`Definition::test`](crate::context::extract::Definition::test)).
    pub(super) test: bool,
}

/// How a file writes its uses of a name, which says what kinds of definition they can reach.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub(super) enum Written {
    /// Anywhere: any definition.
    Anyhow,
    /// Only called as a method or read as a field through a value (`value.name()`,
    /// `arg.requires`): a member, no free function or type.
    AsMethod,
    /// Only where a type stands (`Map<K, V> m`): a type, no enum constant, variant, field or
    /// function of its name.
    AsType,
}

impl Written {
    /// How `file` writes its `count` uses of `name` that may reach the workspace.
    pub(super) fn of(file: &IndexedFile, name: &str, count: u32) -> Self {
        if file.symbols.calls_only_as_method(name, count) {
            Self::AsMethod
        } else if file.symbols.uses_only_as_type(name) {
            Self::AsType
        } else {
            Self::Anyhow
        }
    }

    /// Whether uses written so can reach `defined` by its kind (a method's trait is judged
    /// apart).
    pub(super) fn reaches(self, defined: &Defined<'_>) -> bool {
        match self {
            Self::Anyhow => true,
            Self::AsMethod => defined.callable_as_method,
            Self::AsType => defined.kind.is_type(),
        }
    }
}

/// Where each name is defined.
pub(super) type DefinitionTable<'a> = FxHashMap<&'a str, Vec<Defined<'a>>>;

/// The definitions of `files` by name, each with its file's position in `files`.
pub(super) fn definition_table<'a>(files: &[&'a IndexedFile]) -> DefinitionTable<'a> {
    let mut table: DefinitionTable<'a> = FxHashMap::default();
    for (i, file) in files.iter().enumerate() {
        // Only a file that defines a trait declares methods in one (a cheap test first: the
        // table is built for every ranking).
        let defines_traits = file.symbols.definitions.iter().any(|d| d.kind == DefinitionKind::Trait);
        for definition in &file.symbols.definitions {
            table.entry(definition.name.as_str()).or_default().push(Defined {
                file: i,
                kind: definition.kind,
                callable_as_method: definition.callable_as_method(file.language),
                trait_of: match defines_traits {
                    true => file.scoping_trait(definition),
                    false => definition.implements.as_deref(),
                },
                container: definition.container.as_deref(),
                member: definition.is_member(),
                line: definition.line,
                test: definition.test,
            });
        }
    }
    table
}

/// The homes of a name among its definitions `defined` (positions in `files`).
pub(super) fn name_homes<'a, 'd>(
    files: &[&'a IndexedFile],
    defined: impl Iterator<Item = &'d Defined<'d>>,
) -> NameHomes<'a> {
    NameHomes::of(files, defined.map(|d| (d.file, d.kind, d.container.is_none())))
}

/// The strongest definition of a name the issue gives, in one file.
#[derive(Clone, Copy)]
struct DefinitionHit {
    /// How much it counts: its kind's weight, doubled when a qualifier names it.
    value: f64,
    /// Which qualifier of the issue's name names its type, its folder or its file, if one does.
    qualifier: Option<usize>,
    kind: DefinitionKind,
    line: u32,
    /// How near the qualifier naming its own type stands, 1 for the outermost; 0 for none.
    nearness: usize,
    /// Whether it is a Rust associated type (see [`is_associated_type`]).
    associated: bool,
}

/// A type the issue names, as a file defines it: for the files related to it.
pub(super) struct HitType<'a> {
    /// Its name, as the issue gives it.
    pub(super) name: &'a str,
    /// The name's weight in the issue, its specificity applied.
    pub(super) weight: f64,
    /// The defining file's position in the files ranked.
    pub(super) file: usize,
    /// What it is.
    pub(super) kind: DefinitionKind,
    /// The line its definition starts on.
    pub(super) line: u32,
}

/// Files defining named identifiers; also returns the types hit (for relations).
/// `lacking` gives, for each of the issue's names, the member it lacks that raised its weight
/// (see [`with_owners_of_missing_members`]), which its files' reasons say.
pub(super) fn symbol_signal<'a>(
    files: &[&IndexedFile],
    query: &'a IssueQuery,
    lacking: &[Option<&str>],
    table: &DefinitionTable<'_>,
) -> (Signal, Vec<HitType<'a>>) {
    let n = files.len();
    let mut signal = Signal::new(n);
    let mut hit_types = Vec::new();
    let stems: Vec<String> = files.iter().map(|f| squash(stem(&f.path))).collect();
    let mut stem_counts: HashMap<&str, usize> = HashMap::new();
    for stem in &stems {
        *stem_counts.entry(stem.as_str()).or_default() += 1;
    }
    for (at, mention) in query.symbols.iter().enumerate() {
        let lacks = lacking.get(at).copied().flatten();
        let mut defining: Vec<&Defined<'_>> = table
            .get(mention.name.as_str())
            .map(|d| d.iter().filter(|defined| query.about_tests || !defined.test).collect())
            .unwrap_or_default();
        // A macro use names a macro (procedural ones too, which the index marks as macros):
        // the functions, modules and types that share its name are not it (`format!` is no
        // `mod format`), wherever the macro comes from.
        if mention.macro_use {
            defining.retain(|defined| defined.kind == DefinitionKind::Macro);
        }
        // `String` written alone names Java's, or a type of the workspace; not an enum
        // constant, a field or a method of that name, which are read through what holds them.
        if mention.qualifiers.is_empty() {
            defining.retain(|defined| !names_no_member(files, defined, &mention.name));
        }
        let distinct: HashSet<usize> = defining.iter().map(|defined| defined.file).collect();
        if !distinct.is_empty() {
            let specificity = 1.0 / (1.0 + (distinct.len() as f64).ln());
            let mut best: HashMap<usize, DefinitionHit> = HashMap::new();
            for &&Defined { file, kind, container, line, trait_of, .. } in &defining {
                let path = &files[file].path;
                // How near the qualifier naming its own type stands (`Cache` of `pool::Cache::get`
                // is nearer than `pool`): 0 when none does.
                let nearness = mention
                    .qualifiers
                    .iter()
                    .rposition(|q| container.is_some_and(|c| squash(c) == squash(q)))
                    .map_or(0, |at| at + 1);
                // The qualifier that names it: its own type, else its folder or file.
                let qualifier = nearness.checked_sub(1).or_else(|| {
                    mention.qualifiers.iter().rposition(|q| {
                        let q = squash(q);
                        path.split('/').any(|part| {
                            let part = squash(stem(part));
                            part == q || (kind == DefinitionKind::Macro && is_macro_crate_of(&part, &q))
                        })
                    })
                });
                let qualified = qualifier.is_some();
                let value = kind_weight(kind) * if qualified { 2.0 } else { 1.0 };
                let associated = kind == DefinitionKind::Type && is_associated_type(files[file], container, trait_of);
                let hit = DefinitionHit { value, qualifier, kind, line, nearness, associated };
                let entry = best.entry(file).or_insert(hit);
                // Of equal values, the definition whose own type the nearest qualifier names
                // (`pool::Cache::get` in `pool.rs`: `Cache`'s `get`, not `Pool`'s) gives the line.
                if value > entry.value || (value == entry.value && nearness > entry.nearness) {
                    *entry = hit;
                }
            }
            for (file, DefinitionHit { value, qualifier, kind, line, associated, .. }) in best {
                let score = mention.weight * specificity * value;
                // Named by the qualifier that holds it (`json::_parseNumber2` for a namesake in
                // the `json` folder, not `UTF8StreamJsonParser::_parseNumber2`).
                let name = match qualifier.and_then(|at| mention.qualifiers.get(at)) {
                    Some(q) => format!("{q}::{}", mention.name),
                    None => mention.name.clone(),
                };
                signal.add_at(file, score, line, || match lacks.filter(|_| qualifier.is_none()) {
                    Some(member) => {
                        format!("defines `{name}` ({}), which lacks `{member}`, named in the issue", kind_name(kind))
                    }
                    None => format!("defines `{name}` ({}), named in the issue", kind_name(kind)),
                });
                // No type extends or implements an associated type (tokio's `type Future =
                // ..` in `impl ToSocketAddrs`): the `Future` files implement is the language's.
                if kind.is_type() && !associated {
                    let weight = mention.weight * specificity;
                    hit_types.push(HitType { name: mention.name.as_str(), weight, file, kind, line });
                }
            }
        }
        // A file named like the identifier (`JoinSet` -> join_set.rs, `JsonParser` -> JsonParser.java).
        let squashed = squash(&mention.name);
        if let Some(count) = stem_counts.get(squashed.as_str()) {
            let specificity = 1.0 / (1.0 + (*count as f64).ln());
            for (i, stem) in stems.iter().enumerate() {
                if *stem == squashed {
                    signal.add(i, mention.weight * specificity, || {
                        format!("named after `{}`, named in the issue", mention.name)
                    });
                }
            }
        }
    }
    (signal, hit_types)
}

/// The issue as the ranking weighs its names (see [`with_owners_of_missing_members`]).
pub(super) struct Weighed<'q> {
    /// The issue, each owner of a member the workspace lacks at the member's weight.
    pub(super) query: Cow<'q, IssueQuery>,
    /// For each name, the member it lacks that raised its weight, if one did.
    pub(super) lacking: Vec<Option<&'q str>>,
}

/// `query` with the owner of each member the workspace does not define (`defines` says whether
/// it defines a name anywhere) at the member's weight: `Ready` of "adding `Ready::ERROR`"
/// names the type the fix adds `ERROR` to as surely as the issue names `ERROR`, where a
/// qualifier otherwise counts for less than the name it qualifies. Borrowed where no owner
/// gains; the title read alone is left as it is.
pub(super) fn with_owners_of_missing_members<'q>(query: &'q IssueQuery, defines: &dyn Fn(&str) -> bool) -> Weighed<'q> {
    let mut lacking: Vec<Option<(&'q str, f64)>> = vec![None; query.symbols.len()];
    // Each name by what it is and what qualifies it, for a long issue's many names.
    let mut place: HashMap<(&str, &[String]), usize> = HashMap::new();
    for (at, mention) in query.symbols.iter().enumerate() {
        place.entry((mention.name.as_str(), mention.qualifiers.as_slice())).or_insert(at);
    }
    for mention in &query.symbols {
        let Some((owner, outer)) = mention.qualifiers.split_last() else { continue };
        if mention.macro_use || defines(mention.name.as_str()) {
            continue;
        }
        let Some(&at) = place.get(&(owner.as_str(), outer)) else { continue };
        let raised = lacking[at].map_or(query.symbols[at].weight, |(_, weight)| weight);
        if mention.weight > raised {
            lacking[at] = Some((mention.name.as_str(), mention.weight));
        }
    }
    if lacking.iter().all(Option::is_none) {
        return Weighed { query: Cow::Borrowed(query), lacking: Vec::new() };
    }
    let mut symbols = query.symbols.clone();
    for (symbol, lacks) in symbols.iter_mut().zip(&lacking) {
        if let Some((_, weight)) = lacks {
            symbol.weight = *weight;
        }
    }
    Weighed {
        query: Cow::Owned(IssueQuery { symbols, ..query.clone() }),
        lacking: lacking.into_iter().map(|l| l.map(|(member, _)| member)).collect(),
    }
}

/// Whether a Rust type definition of `file`, in `container` and in an `impl` of the trait
/// `trait_of`, is an associated type: one a trait declares (`type Future;`) or an `impl` of
/// it gives (`type Future = Ready;`), named after the trait's, not a type of its own.
fn is_associated_type(file: &IndexedFile, container: Option<&str>, trait_of: Option<&str>) -> bool {
    file.language == Language::Rust
        && (trait_of.is_some()
            || container.is_some_and(|container| {
                file.symbols.definitions.iter().any(|d| d.kind == DefinitionKind::Trait && d.name == container)
            }))
}

/// Whether the issue's `name`, written alone, cannot mean `defined`: a member of a Java type
/// (an enum constant, a field, a method) named like a type of `java.lang` (`String` of
/// `enum Shape { Array, Object, String }`), where `String` alone means Java's.
fn names_no_member(files: &[&IndexedFile], defined: &Defined<'_>, name: &str) -> bool {
    !defined.kind.is_type() && files[defined.file].language == Language::Java && java_lang::is_java_lang(name)
}

/// Files that use an identifier the issue names and the workspace defines in other files: the
/// code that reads a setting the issue's reproduction sets (`arg.requires` for `requires`).
/// A name fewer files use counts more, and a file counts more the more often it uses the name
/// (`1 + ln n` for `n` uses), as a word counts in BM25. Only the uses that can reach one of
/// those definitions count, as the use graph links them: none of a name the file takes from
/// outside or writes after a path that leads there (`io::Error`), and a name the file only
/// calls as a method reaches only members, a trait's only where the trait is in scope. Also
/// gives the names each file uses, the one adding most first, for the line a ranked file
/// points at (see [`point_at_uses`](super::point_at_uses)).
pub(super) fn user_signal(
    files: &[&IndexedFile],
    query: &IssueQuery,
    table: &DefinitionTable<'_>,
    bound: &[Option<FileOutside<'_>>],
    modules: Option<&dyn ImportedModules>,
) -> (Signal, Vec<Vec<String>>) {
    let mut signal = Signal::new(files.len());
    let mut used: Vec<Vec<(String, f64)>> = vec![Vec::new(); files.len()];
    // A name given twice (`spawn` and `JoinSet::spawn`) counts once, at its greatest weight. A
    // macro's uses are its invocations, which the symbol signal already follows to its
    // definition.
    let mut names: Vec<(&str, f64, bool)> = Vec::new();
    for mention in query.symbols.iter().filter(|mention| !mention.macro_use) {
        let bare = mention.qualifiers.is_empty();
        match names.iter_mut().find(|(name, _, _)| *name == mention.name) {
            Some((_, weight, all_bare)) => {
                *weight = weight.max(mention.weight);
                *all_bare &= bare;
            }
            None => names.push((mention.name.as_str(), mention.weight, bare)),
        }
    }
    let declares_trait =
        |name: &str| table.get(name).is_some_and(|defined| defined.iter().any(|d| d.kind == DefinitionKind::Trait));
    for (name, weight, all_bare) in names {
        let defined: Vec<&Defined<'_>> = table
            .get(name)
            .map(|d| {
                d.iter()
                    .filter(|defined| query.about_tests || !defined.test)
                    .filter(|defined| !(all_bare && names_no_member(files, defined, name)))
                    .collect()
            })
            .unwrap_or_default();
        if defined.is_empty() {
            continue;
        }
        // Every home of the name, to tell which a file's imports bring in.
        let homes = name_homes(files, table.get(name).into_iter().flatten());
        let reaching = |i: usize| {
            let narrowed = || homes.narrowed(files, i, &FileScope::of(files[i]), modules, name);
            uses_reaching(files[i], bound[i].as_ref(), name, &defined, &narrowed, &declares_trait)
        };
        let users: Vec<(usize, u32)> = (0..files.len())
            .filter(|i| !defined.iter().any(|d| d.file == *i))
            .filter_map(|i| Some((i, reaching(i)?)))
            .collect();
        let specificity = 1.0 / (1.0 + (users.len().max(1) as f64).ln());
        for (file, count) in users {
            let value = weight * specificity * (1.0 + f64::from(count).ln());
            used[file].push((name.to_owned(), value));
            signal.add(file, value, || match count {
                1 => format!("uses `{name}`, named in the issue"),
                n => format!("uses `{name}` {n} times, named in the issue"),
            });
        }
    }
    let used = used
        .into_iter()
        .map(|mut names| {
            names.sort_by(|a, b| b.1.total_cmp(&a.1));
            names.into_iter().map(|(name, _)| name).collect()
        })
        .collect();
    (signal, used)
}

/// How often `file` uses `name` in ways that reach one of its workspace definitions
/// (`defined`, in other files), by the rules the use graph links uses with; `None` for none.
/// `bound` is what the file binds to outside, kept for every file that uses a name the issue
/// gives; `narrowed` says which of the name's homes the file's imports bring in (see
/// [`NameHomes::narrowed`]); `declares_trait` says whether the workspace declares a trait of
/// a name.
fn uses_reaching<'h>(
    file: &IndexedFile,
    bound: Option<&FileOutside<'_>>,
    name: &str,
    defined: &[&Defined<'_>],
    narrowed: &dyn Fn() -> Option<Narrowed<'h>>,
    declares_trait: &dyn Fn(&str) -> bool,
) -> Option<u32> {
    let written = file.symbols.uses_of(name);
    let bound = bound.filter(|_| written > 0)?;
    let names = &bound.names;
    // Not those written after a path that leads outside, nor any of a name taken from there.
    let count = bound.workspace_uses(name, written);
    if count == 0 || names.means_outside(name) {
        return None;
    }
    if prelude_over_members(file.language, name, defined.iter().all(|d| d.member)) {
        return None;
    }
    let written = Written::of(file, name, count);
    let reaches = |d: &Defined<'_>| {
        written.reaches(d)
            && (written != Written::AsMethod
                || d.trait_of.is_none_or(|name| names.has_in_scope(name, declares_trait(name))))
    };
    let narrowed = narrowed();
    defined.iter().any(|d| narrowed.as_ref().is_none_or(|n| n.admits(d.file)) && reaches(d)).then_some(count)
}

/// What a crate's procedural macro crate is called after it, squashed (`tokio-macros`,
/// `serde_derive`, `thiserror-impl`, `tracing-attributes`).
const MACRO_CRATE_SUFFIXES: [&str; 7] = ["macros", "macro", "derive", "impl", "attributes", "codegen", "procmacro"];

/// Whether the folder `part` is the macro crate of the crate `qualifier` (both squashed): a
/// crate re-exports its procedural macros under its own name (`tokio::test`).
pub(super) fn is_macro_crate_of(part: &str, qualifier: &str) -> bool {
    !qualifier.is_empty() && part.strip_prefix(qualifier).is_some_and(|suffix| MACRO_CRATE_SUFFIXES.contains(&suffix))
}

/// The word a reason uses for a definition of this kind.
fn kind_name(kind: DefinitionKind) -> &'static str {
    match kind {
        DefinitionKind::Function => "function",
        DefinitionKind::Method => "method",
        DefinitionKind::Class => "class",
        DefinitionKind::Struct => "struct",
        DefinitionKind::Enum => "enum",
        DefinitionKind::Interface => "interface",
        DefinitionKind::Trait => "trait",
        DefinitionKind::Type => "type",
        DefinitionKind::Module => "module",
        DefinitionKind::Constant => "constant",
        DefinitionKind::Macro => "macro",
        DefinitionKind::Variant => "variant",
        DefinitionKind::Field => "field",
    }
}
