//! What the code the context pack shows uses: the functions it calls and the types it names,
//! and where they are defined, so that the pack can show their signatures and the model need
//! not guess them.

use std::collections::{HashMap, HashSet};

use super::extract::{Definition, DefinitionKind};
use super::index::{Index, IndexedFile};
use super::modules::ModuleTable;
use super::outside_names::{FileOutside, IndexOutside};

/// A name the shown code reaches more definitions of than this says too little of which one
/// is meant (the `write` of five `io::Write` implementations): the pack does not list it for
/// being used.
const MAX_DEFINITIONS: usize = 3;
/// A name defined more often than this in the whole workspace is too common to tell even
/// where the shown code reaches only a few definitions of it (`new`, `poll`, `len`, `get`).
const MAX_WORKSPACE_DEFINITIONS: usize = 30;

/// A definition the shown code uses.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UsedDefinition {
    /// The workspace path of the file defining it.
    pub path: String,
    /// Its 1-based line.
    pub line: u32,
    /// Its signature.
    pub signature: String,
    /// How often the shown code uses its name (a file in part counts all of its own uses of
    /// a name its shown lines use).
    pub uses: u32,
}

/// The functions, methods and types the shown code uses, as far as their names tell: the
/// definitions of a name that the shown code reaches (in a file it imports or writes a path
/// into, or in its own package or module), outside test code, when they are few and the name
/// is not common in the workspace.
pub struct ShownUses {
    definitions: Vec<UsedDefinition>,
    /// Each file's lines of the definitions in `definitions`, with their uses.
    lines: HashMap<String, HashMap<u32, u32>>,
}

impl ShownUses {
    /// The uses in `shown`: workspace paths, each with the text shown of it when it is shown
    /// in part, `None` when it is shown whole. A file the index does not hold adds nothing.
    pub fn new(index: &Index, shown: &[(&str, Option<&str>)]) -> Self {
        let shown: Vec<(&IndexedFile, Option<&str>)> =
            shown.iter().filter_map(|(path, excerpt)| Some((index.file(path)?.as_ref(), *excerpt))).collect();
        let mut used: HashMap<&str, u32> = HashMap::new();
        // How many of those uses are method calls (`value.name()`), which reach no free function.
        let mut called_as_methods: HashMap<&str, u32> = HashMap::new();
        // Calls through a type (`Semaphore::new`), by the type's and the function's names.
        let mut typed: HashMap<(&str, &str), u32> = HashMap::new();
        // What each shown file binds: names from outside the workspace, and the traits in scope.
        let outside = IndexOutside::new(index);
        let scopes: Vec<FileOutside> = shown.iter().map(|(file, _)| FileOutside::of(file, &outside)).collect();
        for ((file, excerpt), bound) in shown.iter().zip(&scopes) {
            // `Result` without a `use` of the crate's own is the standard library's, and
            // `Result` of `use anyhow::Result` anyhow's.
            let words: Option<HashSet<&str>> =
                excerpt.map(|text| text.split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$')).collect());
            let shown = |word: &str| {
                words.as_ref().is_none_or(|words| words.contains(word)) && !bound.names.means_outside(word)
            };
            // Not the uses written after a path that leads outside (`Poll::Ready`, `io::Error`).
            for (name, count) in file.symbols.references.iter().filter(|(name, _)| shown(name)) {
                let count = bound.workspace_uses(name, *count);
                if count > 0 {
                    *used.entry(name).or_default() += count;
                }
            }
            for (name, count) in file.symbols.method_calls.iter().filter(|(name, _)| shown(name)) {
                *called_as_methods.entry(name).or_default() += count;
            }
            for (owner, called, count) in file.symbols.typed_calls.iter().filter(|(o, c, _)| shown(o) && shown(c)) {
                *typed.entry((owner, called)).or_default() += count;
            }
        }
        // Each used name's definitions in the workspace, and those of each type's function
        // called through the type, in one pass.
        let mut defining: HashMap<&str, Vec<(&IndexedFile, &Definition)>> = HashMap::new();
        // The traits the workspace declares: one from outside is in scope by other rules.
        let mut workspace_traits: HashSet<&str> = HashSet::new();
        let mut of_type: HashMap<(&str, &str), Vec<(&IndexedFile, &Definition)>> = HashMap::new();
        for file in index.files() {
            for definition in &file.symbols.definitions {
                if used.contains_key(definition.name.as_str()) {
                    defining.entry(&definition.name).or_default().push((file, definition));
                }
                if definition.kind == DefinitionKind::Trait {
                    workspace_traits.insert(definition.name.as_str());
                }
                let Some(owner) = definition.container.as_deref() else { continue };
                if let Some((key, _)) = typed.get_key_value(&(owner, definition.name.as_str())) {
                    of_type.entry(*key).or_default().push((file, definition));
                }
            }
        }
        // Of those, the ones the shown code reaches: few enough to say which is meant. A file
        // is judged once, however many of the names it defines. A name common in the workspace
        // counts only where a path the shown code writes out leads (`entry::test(...)`).
        let reach = Reach::of(index, outside.table(), &shown);
        let mut reached: HashMap<&str, bool> = HashMap::new();
        let mut definitions = Vec::new();
        for (name, mut found) in defining {
            if called_as_methods.get(name).is_some_and(|methods| *methods >= used[name]) {
                // A trait's method only where a shown file has the trait in scope.
                found.retain(|(file, definition)| {
                    definition.callable_as_method(file.language)
                        && file.scoping_trait(definition).is_none_or(|name| {
                            let declared = workspace_traits.contains(name);
                            scopes.iter().any(|scope| scope.names.has_in_scope(name, declared))
                        })
                });
            }
            let common = found.len() > MAX_WORKSPACE_DEFINITIONS;
            found.retain(|(file, _)| {
                !index.is_test_file(file)
                    && (reach.writes_out(name, &file.path)
                        || (!common && *reached.entry(&file.path).or_insert_with(|| reach.reaches(index, file))))
            });
            if found.len() > MAX_DEFINITIONS {
                continue;
            }
            let uses = used[name];
            definitions.extend(found.into_iter().filter(|(_, d)| is_listed(d)).map(|(file, d)| UsedDefinition {
                path: file.path.clone(),
                line: d.line,
                signature: d.signature.clone(),
                uses,
            }));
        }
        definitions.extend(typed_definitions(index, of_type, &typed, &definitions));
        // The most used first; the order of the index's files is not to be relied on.
        definitions.sort_by(|a, b| b.uses.cmp(&a.uses).then_with(|| (&a.path, a.line).cmp(&(&b.path, b.line))));
        let mut lines: HashMap<String, HashMap<u32, u32>> = HashMap::new();
        for definition in &definitions {
            lines.entry(definition.path.clone()).or_default().insert(definition.line, definition.uses);
        }
        Self { definitions, lines }
    }

    /// How often the shown code uses `definition`, defined in the file at `path`: 0 when it
    /// is not one of [`ShownUses::definitions`].
    pub fn uses_of(&self, path: &str, definition: &Definition) -> u32 {
        self.lines.get(path).and_then(|lines| lines.get(&definition.line)).copied().unwrap_or(0)
    }

    /// The definitions the shown code uses, the most used first (then by path and line).
    pub fn definitions(&self) -> &[UsedDefinition] {
        &self.definitions
    }
}

/// The definitions the shown code calls through their type that `listed` leaves out: those
/// `of_type` finds in the workspace for each call's type and function names, with the count
/// `typed` gives it. A name as common as `new` says which one is meant with its type,
/// `Semaphore::new`, when the workspace holds a few of them at most. Outside test code, and
/// only what [`is_listed`] lists.
fn typed_definitions(
    index: &Index,
    of_type: HashMap<(&str, &str), Vec<(&IndexedFile, &Definition)>>,
    typed: &HashMap<(&str, &str), u32>,
    listed: &[UsedDefinition],
) -> Vec<UsedDefinition> {
    let found = of_type
        .into_iter()
        .map(|(key, found)| (key, found.into_iter().filter(|(file, _)| !index.is_test_file(file)).collect::<Vec<_>>()));
    let already: HashSet<(&str, u32)> = listed.iter().map(|d| (d.path.as_str(), d.line)).collect();
    let mut definitions = Vec::new();
    for (key, found) in found.filter(|(_, found)| found.len() <= MAX_DEFINITIONS) {
        let uses = typed[&key];
        definitions.extend(
            found.into_iter().filter(|(file, d)| is_listed(d) && !already.contains(&(file.path.as_str(), d.line))).map(
                |(file, d)| UsedDefinition {
                    path: file.path.clone(),
                    line: d.line,
                    signature: d.signature.clone(),
                    uses,
                },
            ),
        );
    }
    definitions
}

/// Whether a used definition is worth its signature: functions, methods and types outside
/// test code, not a Rust associated type (`type Future = ...` says nothing of the `Future` the
/// code names), nor modules, variants, fields or macros (whose first rule is no signature).
fn is_listed(definition: &Definition) -> bool {
    !definition.signature.is_empty()
        && !definition.test
        && match definition.kind {
            DefinitionKind::Function | DefinitionKind::Method => true,
            DefinitionKind::Type => definition.container.is_none(),
            kind => kind.is_type(),
        }
}

/// Where the shown code reaches: the files its imports name, its own packages or modules, and
/// through the paths it writes out (`crate::runtime::context::with(...)`) the names they end in.
struct Reach {
    imported: HashSet<String>,
    units: HashSet<String>,
    /// The names the written paths end in, each with the files the paths lead to.
    written: HashMap<String, HashSet<String>>,
}

impl Reach {
    /// Where `shown` reaches, its imports resolved through the workspace's module `table`.
    fn of(index: &Index, table: &ModuleTable, shown: &[(&IndexedFile, Option<&str>)]) -> Self {
        let mut imported = HashSet::new();
        let mut units = HashSet::new();
        let mut written: HashMap<String, HashSet<String>> = HashMap::new();
        for (file, _) in shown {
            for import in &file.symbols.imports {
                imported.extend(index.resolve_import(file, import, table));
            }
            for (path, leads_to) in index.resolve_written_paths(file, table) {
                let name = path.rsplit("::").next().unwrap_or(path);
                written.entry(name.to_owned()).or_default().extend(leads_to);
            }
            units.insert(index.module_for(file));
        }
        Self { imported, units, written }
    }

    /// Whether the file is one the shown code imports or whose package or module it is in.
    fn reaches(&self, index: &Index, file: &IndexedFile) -> bool {
        self.imported.contains(&file.path) || self.units.contains(&index.module_for(file))
    }

    /// Whether a path the shown code writes out names `name` in the file at `path`.
    fn writes_out(&self, name: &str, path: &str) -> bool {
        self.written.get(name).is_some_and(|files| files.contains(path))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn listed(files: &[(&str, &str)], shown: &[(&str, Option<&str>)]) -> Vec<String> {
        let (_dir, index) = crate::testing::indexed(files);
        let uses = ShownUses::new(&index, shown);
        uses.definitions().iter().map(|d| format!("{}:{} {}", d.path, d.line, d.signature)).collect()
    }

    /// What `src/shown.rs`, shown whole, is listed as using in a crate of two modules: `module`
    /// (`gather` for `src/gather.rs`) with `source`, and `shown`.
    fn listed_beside(module: &str, source: &str, shown: &str) -> Vec<String> {
        let lib = format!("pub mod {module};\npub mod shown;\n");
        let path = format!("src/{module}.rs");
        let files = [
            ("Cargo.toml", "[package]\nname = \"demo\"\n"),
            ("src/lib.rs", lib.as_str()),
            (path.as_str(), source),
            ("src/shown.rs", shown),
        ];
        listed(&files, &[("src/shown.rs", None)])
    }

    #[test]
    fn functions_and_types_are_listed_not_variants_associated_types_modules_or_macros() {
        let files = [
            ("Cargo.toml", "[package]\nname = \"demo\"\n"),
            ("src/lib.rs", "pub mod addr;\npub mod shown;\npub mod state;\n"),
            (
                "src/state.rs",
                "pub enum Outcome { Ok, Failed }\npub fn settle() -> Outcome { Outcome::Failed }\nmacro_rules! spin { () => {} }\n",
            ),
            (
                "src/addr.rs",
                "pub struct Addr;\nimpl Iterator for Addr {\n    type Item = u8;\n    fn next(&mut self) -> Option<u8> { None }\n}\n",
            ),
            (
                "src/shown.rs",
                "use crate::addr;\nuse crate::state;\n\nfn run(from: addr::Addr) -> impl Iterator<Item = u8> {\n    let _ = Ok::<(), ()>(());\n    state::settle();\n    state::settle();\n    spin!();\n    from\n}\n",
            ),
        ];
        assert_eq!(
            listed(&files, &[("src/shown.rs", None)]),
            ["src/state.rs:2 pub fn settle() -> Outcome", "src/addr.rs:1 pub struct Addr"],
            "the most used first"
        );
    }

    #[test]
    fn a_method_call_lists_no_free_function_of_its_name() {
        let gather = "pub fn collect(parts: &[u8]) -> Vec<u8> { parts.to_vec() }\npub struct Bag;\nimpl Bag {\n    \
                      pub fn empty() -> Self { Bag }\n    pub fn weigh(&self) -> u32 { 0 }\n}\n";
        let shown = "use crate::gather::*;\n\nfn run(v: Vec<u8>, bag: Bag) -> u32 {\n    \
                     let _: Vec<u8> = v.into_iter().collect();\n    let _ = Some(1).empty();\n    bag.weigh()\n}\n";
        assert_eq!(
            listed_beside("gather", gather, shown),
            ["src/gather.rs:2 pub struct Bag", "src/gather.rs:5 pub fn weigh(&self) -> u32"]
        );
    }

    #[test]
    fn the_standard_librarys_names_list_nothing_the_workspace_defines_alike() {
        let error = "pub struct Failure;\npub type Result<T> = std::result::Result<T, Failure>;\n";
        let prelude = "use crate::error::Failure;\n\nfn run() -> Result<(), Failure> {\n    Ok(())\n}\n";
        assert_eq!(listed_beside("error", error, prelude), ["src/error.rs:1 pub struct Failure"]);
        let own = "use crate::error::Result;\n\nfn run() -> Result<()> {\n    Ok(())\n}\n";
        assert_eq!(
            listed_beside("error", error, own),
            ["src/error.rs:2 pub type Result<T> = std::result::Result<T, Failure>"]
        );
    }

    #[test]
    fn a_traits_method_is_listed_only_where_the_trait_is_in_scope() {
        let ext = "pub trait Gather {\n    fn gather(&self) -> u8 {\n        0\n    }\n}\n";
        let unbound = "use crate::ext;\n\nfn run(v: &Bag) -> u8 {\n    v.gather()\n}\n";
        assert_eq!(listed_beside("ext", ext, unbound), Vec::<String>::new());
        let bound = "use crate::ext::Gather;\n\nfn run(v: &u8) -> u8 {\n    v.gather()\n}\n";
        assert_eq!(listed_beside("ext", ext, bound), ["src/ext.rs:2 fn gather(&self) -> u8"]);
    }

    #[test]
    fn test_code_in_a_source_file_is_not_listed() {
        let files = [
            ("Cargo.toml", "[package]\nname = \"demo\"\n"),
            ("src/lib.rs", "pub mod state;\npub mod shown;\n"),
            (
                "src/state.rs",
                "pub fn settle() {}\n#[tokio::test]\nasync fn drains() {}\n#[cfg(test)]\nmod tests {\n    pub fn spin() {}\n}\n",
            ),
            ("src/shown.rs", "use crate::state;\n\nfn run() {\n    state::settle();\n    drains();\n    spin();\n}\n"),
        ];
        assert_eq!(listed(&files, &[("src/shown.rs", None)]), ["src/state.rs:1 pub fn settle()"]);
    }

    #[test]
    fn a_call_through_a_type_says_which_of_many_namesakes_is_meant() {
        let mut files: Vec<(String, String)> = vec![
            ("Cargo.toml".into(), "[package]\nname = \"demo\"\n".into()),
            (
                "src/sem.rs".into(),
                "pub struct Semaphore;\nimpl Semaphore {\n    pub fn new(permits: usize) -> Self { Semaphore }\n}\n"
                    .into(),
            ),
            (
                "src/shown.rs".into(),
                "fn run() {\n    let s = Semaphore::new(3);\n}\n\nfn rest() {\n    let _ = Other::new();\n}\n".into(),
            ),
        ];
        // `new` alone says nothing: forty types have one.
        files.extend((0..40).map(|n| {
            (
                format!("src/t{n}.rs"),
                format!("pub struct T{n};\nimpl T{n} {{\n    pub fn new() -> Self {{ T{n} }}\n}}\n"),
            )
        }));
        let files: Vec<(&str, &str)> = files.iter().map(|(p, t)| (p.as_str(), t.as_str())).collect();
        assert_eq!(
            listed(&files, &[("src/shown.rs", None)]),
            ["src/sem.rs:3 pub fn new(permits: usize) -> Self"],
            "wherever it is: the type says which"
        );
        // Of a file shown in part, the type and the function must both be on the lines shown.
        let part = "lines 5-7:\n```\nfn rest() {\n    let _ = Other::new();\n}\n```\n";
        assert!(listed(&files, &[("src/shown.rs", Some(part))]).is_empty());
    }

    #[test]
    fn a_java_call_through_a_variable_says_whose_method_it_is() {
        let mut files: Vec<(String, String)> = vec![
            (
                "src/main/java/demo/registry/RegistryClient.java".into(),
                "package demo.registry;\n\npublic class RegistryClient {\n  public Manifest pull(String tag) { return null; }\n}\n".into(),
            ),
            (
                "src/main/java/demo/steps/PullStep.java".into(),
                "package demo.steps;\n\nimport demo.registry.RegistryClient;\n\nclass PullStep {\n  \
                 private final RegistryClient client;\n\n  void run() {\n    client.pull(\"latest\");\n  }\n}\n"
                    .into(),
            ),
        ];
        // `pull` alone says nothing: forty classes have one.
        files.extend((0..40).map(|n| {
            (
                format!("src/main/java/demo/other/Puller{n}.java"),
                format!("package demo.other;\n\npublic class Puller{n} {{\n  public void pull() {{}}\n}}\n"),
            )
        }));
        let files: Vec<(&str, &str)> = files.iter().map(|(p, t)| (p.as_str(), t.as_str())).collect();
        assert_eq!(
            listed(&files, &[("src/main/java/demo/steps/PullStep.java", None)]),
            [
                "src/main/java/demo/registry/RegistryClient.java:3 public class RegistryClient",
                "src/main/java/demo/registry/RegistryClient.java:4 public Manifest pull(String tag)"
            ],
            "the field's declared type says which of the `pull`s it is"
        );
    }

    #[test]
    fn what_is_used_is_listed_where_the_shown_code_reaches_it() {
        let files = [
            ("Cargo.toml", "[package]\nname = \"demo\"\n"),
            ("src/lib.rs", "pub mod near;\npub mod far;\npub mod shown;\n"),
            ("src/near.rs", "pub fn settle(n: u32) {}\n"),
            ("src/far.rs", "pub fn settle(n: u64) {}\npub fn spin() {}\n"),
            (
                "src/shown.rs",
                "use crate::near::settle;\n\nfn run() {\n    settle(1);\n}\n\nfn rest() {\n    spin();\n}\n",
            ),
        ];
        assert_eq!(listed(&files, &[("src/shown.rs", None)]), ["src/near.rs:1 pub fn settle(n: u32)"]);
        // Four more definitions elsewhere leave the one it reaches its meaning; thirty do not.
        let mut more: Vec<(String, String)> =
            (0..4).map(|n| (format!("src/far{n}.rs"), "pub fn settle() {}\n".to_owned())).collect();
        let with = |more: &[(String, String)]| {
            let mut all: Vec<(&str, &str)> = files.to_vec();
            all.extend(more.iter().map(|(path, text)| (path.as_str(), text.as_str())));
            listed(&all, &[("src/shown.rs", None)])
        };
        assert_eq!(with(&more), ["src/near.rs:1 pub fn settle(n: u32)"]);
        more.extend((4..30).map(|n| (format!("src/far{n}.rs"), "pub fn settle() {}\n".to_owned())));
        assert!(with(&more).is_empty(), "{:?}", with(&more));
        // Of a file shown in part, only the text shown counts.
        let part = "lines 7-9:\n```\nfn rest() {\n    spin();\n}\n```\n";
        assert!(listed(&files, &[("src/shown.rs", Some(part))]).is_empty());
    }

    #[test]
    fn a_path_the_shown_code_writes_out_reaches_the_definition_it_names() {
        let files = [
            ("Cargo.toml", "[package]\nname = \"demo\"\n"),
            ("src/lib.rs", "pub mod runtime;\npub mod shown;\n"),
            ("src/runtime/mod.rs", "pub mod context;\npub mod handle;\n"),
            ("src/runtime/context.rs", "pub fn with_current() {}\npub fn spin() {}\n"),
            ("src/runtime/handle.rs", "pub struct Handle;\n"),
            (
                "src/shown.rs",
                "fn run(h: crate::runtime::handle::Handle) {\n    crate::runtime::context::with_current();\n    spin();\n}\n",
            ),
        ];
        assert_eq!(
            listed(&files, &[("src/shown.rs", None)]),
            ["src/runtime/context.rs:1 pub fn with_current()", "src/runtime/handle.rs:1 pub struct Handle"],
            "not `spin`, which it names without a path"
        );
    }

    #[test]
    fn an_integration_test_reaches_its_crate_by_name() {
        let files = [
            ("Cargo.toml", "[package]\nname = \"demo\"\n"),
            ("src/lib.rs", "pub mod sem;\n"),
            ("src/sem.rs", "pub struct Semaphore;\npub fn spin(times: u32) {}\n"),
            (
                "tests/acquire.rs",
                "use demo::sem::{spin, Semaphore};\n#[test]\nfn acquires() {\n    let s = Semaphore;\n    spin(2);\n}\n",
            ),
        ];
        assert_eq!(
            listed(&files, &[("tests/acquire.rs", None)]),
            ["src/sem.rs:1 pub struct Semaphore", "src/sem.rs:2 pub fn spin(times: u32)"]
        );
    }

    #[test]
    fn a_path_through_a_module_the_file_declares_or_imports_names_even_a_common_name() {
        let mut files: Vec<(String, String)> = vec![
            ("Cargo.toml".into(), "[package]\nname = \"demo\"\n".into()),
            (
                "src/lib.rs".into(),
                "mod entry;\nmod sync;\nuse crate::sync as locks;\n\n\
                 pub fn test() {\n    entry::test(1);\n    locks::acquire();\n    spin();\n}\n"
                    .into(),
            ),
            ("src/entry.rs".into(), "pub(crate) fn test(args: u8) {}\n".into()),
            ("src/sync.rs".into(), "pub fn acquire() {}\n".into()),
        ];
        // Names defined in more files than a name says anything in.
        for n in 0..31 {
            files.push((
                format!("src/common{n}.rs"),
                "pub fn test() {}\npub fn acquire() {}\npub fn spin() {}\n".into(),
            ));
        }
        let files: Vec<(&str, &str)> = files.iter().map(|(path, text)| (path.as_str(), text.as_str())).collect();
        assert_eq!(
            listed(&files, &[("src/lib.rs", None)]),
            ["src/entry.rs:1 pub(crate) fn test(args: u8)", "src/sync.rs:1 pub fn acquire()"],
            "`entry::test` after `mod entry;`, `locks::acquire` through `use crate::sync as locks`; not `spin`"
        );
    }
}
