//! Which names a Rust file takes from outside the workspace: those its `use` declarations
//! bind to `std`, `core`, `alloc` or a crate the workspace depends on (`anyhow::Result`,
//! `syn::Error`), and the standard prelude's that it binds nowhere else. Those uses are not
//! uses of whatever the workspace defines under the same names (a crate's own
//! `type Result<T>`, tokio's `mod io`). A path through a module of the workspace that takes
//! the item from outside (`io::Result` after `use crate::io`, where `tokio::io` holds
//! `pub use std::io::Result`) means the item from outside too, and so does a name written
//! right after a path that leads outside (`Error` of `io::Error::new` beside `use std::io`, of
//! `std::io::Error`, `Ready` of `Poll::Ready`). A Java file's names of `java.lang` types
//! (`Object`, `String`) are Java's, and a TypeScript or JavaScript file's globals (`Error`,
//! `Partial`) the language's, unless the file brings in the workspace's.

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};

use crate::context::index::{Index, IndexedFile};
use crate::context::modules::{ModuleTable, rust_use_bindings};
use crate::context::namesakes::ImportedModules;
use crate::context::{Language, java_lang, script_globals};

/// The names of the Rust 2021 prelude, sorted.
const RUST_PRELUDE: [&str; 39] = [
    "AsMut",
    "AsRef",
    "Box",
    "Clone",
    "Copy",
    "Default",
    "DoubleEndedIterator",
    "Drop",
    "Eq",
    "Err",
    "ExactSizeIterator",
    "Extend",
    "Fn",
    "FnMut",
    "FnOnce",
    "From",
    "FromIterator",
    "Into",
    "IntoIterator",
    "Iterator",
    "None",
    "Ok",
    "Option",
    "Ord",
    "PartialEq",
    "PartialOrd",
    "Result",
    "Send",
    "Sized",
    "Some",
    "String",
    "Sync",
    "ToOwned",
    "ToString",
    "TryFrom",
    "TryInto",
    "Unpin",
    "Vec",
    "drop",
];

/// Whether `name` is one Rust's prelude gives every module (`Err`, `Option`, `Vec`).
pub(crate) fn in_rust_prelude(name: &str) -> bool {
    RUST_PRELUDE.binary_search(&name).is_ok()
}

/// Whether a `language` file's uses of `name` are the prelude's rather than the workspace's,
/// where `all_members` says every workspace definition of it is a member (an associated item, a
/// field or a method, not an enum variant): `Err(e)` beside `use Weekday::*` is the prelude's
/// where the workspace's `Err` are all `type Err` of `impl FromStr` blocks, which no glob
/// brings in and which are reached through their type.
pub(crate) fn prelude_over_members(language: Language, name: &str, all_members: bool) -> bool {
    language == Language::Rust && in_rust_prelude(name) && all_members
}

/// What lies outside the workspace, as far as a Rust file's names can reach it.
pub(crate) trait Outside {
    /// Whether `name` is a crate outside the workspace that it depends on (`anyhow`).
    fn is_external_crate(&self, name: &str) -> bool;

    /// Whether the item `name` of `module`, as `file` writes the module's path (`crate::io`,
    /// `tokio::io`), is one that module of the workspace takes from outside with a `use` and
    /// does not define (`Result` of `pub use std::io::{Error, Result};` in `tokio::io`).
    fn passes_on_from_outside(&self, file: &IndexedFile, module: &str, name: &str) -> bool;

    /// [`Outside::passes_on_from_outside`] for the item a whole path names (`crate::io::Result`).
    fn passes_on_item_from_outside(&self, file: &IndexedFile, path: &str) -> bool {
        path.rsplit_once("::").is_some_and(|(module, name)| self.passes_on_from_outside(file, module, name))
    }

    /// The workspace's top-level Java types in `package` that are named like a type of
    /// `java.lang` (a `com.acme.Error`): the package's files name them without an import.
    fn java_lang_namesakes_in(&self, _package: &str) -> &[String] {
        &[]
    }

    /// Where the workspace's imports lead (a script's modules, a Rust file's `use` paths), where
    /// that is known.
    fn imported_modules(&self) -> Option<&dyn ImportedModules> {
        None
    }
}

/// Only the crates `self` names lie outside; no module of the workspace is known to take
/// anything from outside.
impl<F: Fn(&str) -> bool> Outside for F {
    fn is_external_crate(&self, name: &str) -> bool {
        self(name)
    }

    fn passes_on_from_outside(&self, _: &IndexedFile, _: &str, _: &str) -> bool {
        false
    }
}

/// The files a script's imports lead to, by the module as written.
type ImportsLeadTo = HashMap<String, Arc<[String]>>;

/// What lies outside an indexed workspace: the crates its manifests depend on, and what each of
/// its Rust modules takes from outside with a `use` and does not define, worked out once for
/// the files that ask.
pub(crate) struct IndexOutside<'i> {
    index: &'i Index,
    table: ModuleTable,
    /// Each Rust file with the names its `use` declarations take from outside and it does
    /// not define, when there are any.
    passed_on: HashMap<&'i str, HashSet<String>>,
    /// Those names by the last name of the module that takes them (`Result` under `io` for
    /// `tokio::io`, under `crate` too for a crate's root), to pass over the paths that end in
    /// none of them without resolving them.
    reachable: HashMap<String, HashSet<String>>,
    /// All those names, to pass over the paths through `self` and `super` that end in none.
    reachable_anywhere: HashSet<String>,
    /// The top-level Java types named like a type of `java.lang`, by package.
    java_lang_namesakes: HashMap<String, Vec<String>>,
    /// The files each script import leads to, by the importing file's path and the module as
    /// written, as they are asked for.
    script_imports: Mutex<HashMap<String, ImportsLeadTo>>,
}

impl<'i> IndexOutside<'i> {
    /// What lies outside `index`'s workspace. A module that takes a name from another module
    /// of the workspace is not followed further.
    pub(crate) fn new(index: &'i Index) -> Self {
        let mut passed_on = HashMap::new();
        let mut reachable: HashMap<String, HashSet<String>> = HashMap::new();
        let external = |name: &str| index.is_external_crate(name);
        for file in index.files().filter(|file| file.language == Language::Rust) {
            let symbols = &file.symbols;
            let own = |name: &str| {
                name == "_"
                    || symbols.definitions.iter().any(|definition| definition.name == name)
                    || symbols.module_declarations.iter().any(|module| module.name == name)
            };
            let taken: HashSet<String> = symbols
                .imports
                .iter()
                .filter(|import| is_outside_root(first_segment(import), file, &external))
                .flat_map(|import| rust_use_bindings(import))
                .map(|(name, _)| name)
                .filter(|name| !own(name))
                .collect();
            if taken.is_empty() {
                continue;
            }
            let module = index.module_for(file);
            let mut last_names = vec![module.rsplit("::").next().unwrap_or_default().to_owned()];
            if !module.contains("::") {
                last_names.push("crate".to_owned());
            }
            for last in last_names {
                reachable.entry(last).or_default().extend(taken.iter().cloned());
            }
            passed_on.insert(file.path.as_str(), taken);
        }
        let reachable_anywhere = reachable.values().flatten().cloned().collect();
        let java_lang_namesakes = java_lang::package_types(index.files().map(|file| file.as_ref()));
        Self {
            index,
            table: index.module_table(),
            passed_on,
            reachable,
            reachable_anywhere,
            java_lang_namesakes,
            script_imports: Mutex::default(),
        }
    }
}

impl IndexOutside<'_> {
    /// The workspace's Rust modules and Java packages with their files, as
    /// [`Index::module_table`] gives them, for resolving imports without building it again.
    pub(crate) fn table(&self) -> &ModuleTable {
        &self.table
    }
}

impl Outside for IndexOutside<'_> {
    fn is_external_crate(&self, name: &str) -> bool {
        self.index.is_external_crate(name)
    }

    fn passes_on_from_outside(&self, file: &IndexedFile, module: &str, name: &str) -> bool {
        let name = name.trim();
        let last = module.rsplit("::").next().unwrap_or_default().trim();
        let reachable = match last {
            "self" | "super" => self.reachable_anywhere.contains(name),
            _ => self.reachable.get(last).is_some_and(|names| names.contains(name)),
        };
        reachable
            && self.index.rust_module_named(file, module, &self.table).is_some_and(|files| {
                files.iter().any(|path| self.passed_on.get(path.as_str()).is_some_and(|names| names.contains(name)))
            })
    }

    fn java_lang_namesakes_in(&self, package: &str) -> &[String] {
        self.java_lang_namesakes.get(package).map_or(&[], Vec::as_slice)
    }

    fn imported_modules(&self) -> Option<&dyn ImportedModules> {
        Some(self)
    }
}

impl ImportedModules for IndexOutside<'_> {
    fn imported_files(&self, file: &IndexedFile, specifier: &str) -> Arc<[String]> {
        let mut known = self.script_imports.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if let Some(files) = known.get(file.path.as_str()).and_then(|of_file| of_file.get(specifier)) {
            return Arc::clone(files);
        }
        let files: Arc<[String]> = self.index.resolve_import(file, specifier, &self.table).into();
        known.entry(file.path.clone()).or_default().insert(specifier.to_owned(), Arc::clone(&files));
        files
    }

    fn indexed(&self, path: &str) -> Option<&IndexedFile> {
        self.index.file(path).map(|file| file.as_ref())
    }

    fn holds_package(&self, name: &str) -> bool {
        self.index.packages().iter().any(|(_, package)| package == name)
    }
}

/// A file's uses of names written right after a path that leads outside the workspace, by
/// name (see [`OutsideNames::uses_through_outside_paths`]).
pub(crate) struct UsesThroughOutsidePaths<'a>(HashMap<&'a str, u32>);

impl UsesThroughOutsidePaths<'_> {
    /// Of the file's `count` uses of `name`, those that are not written after a path that
    /// leads outside: the uses that may reach the workspace's definitions of the name.
    fn left_of(&self, name: &str, count: u32) -> u32 {
        count - self.0.get(name).map_or(0, |typed| (*typed).min(count))
    }
}

/// What a file binds to outside the workspace and which of its uses are written after a path
/// that leads there: read once per file for every reader of its uses in one ranking.
pub(crate) struct FileOutside<'a> {
    pub(crate) names: OutsideNames<'a>,
    pub(crate) through_outside: UsesThroughOutsidePaths<'a>,
}

impl<'a> FileOutside<'a> {
    /// What `file` binds to outside and writes after paths that lead there; `outside` says
    /// what lies outside.
    pub(crate) fn of(file: &'a IndexedFile, outside: &dyn Outside) -> Self {
        let names = OutsideNames::of(file, outside);
        let through_outside = names.uses_through_outside_paths(outside);
        Self { names, through_outside }
    }

    /// Of the file's `written` uses of `name`, those that may reach a definition of the
    /// workspace: not those written after a path that leads outside (`io::Error`), nor, where
    /// the name is one its language gives the file (`java.lang`'s `Object`, a script's
    /// `Error`), those written alone (see [`OutsideNames::workspace_uses`]).
    pub(crate) fn workspace_uses(&self, name: &str, written: u32) -> u32 {
        self.names.workspace_uses(name, self.through_outside.left_of(name, written))
    }
}

/// What a Rust file binds names to, as far as what lies outside the workspace is concerned,
/// and which of its language's own names (`java.lang`'s, a script's globals) a Java,
/// TypeScript or JavaScript file means.
pub(crate) struct OutsideNames<'a> {
    file: &'a IndexedFile,
    /// Names a `use` binds to the items of the standard crates or of a crate the workspace
    /// depends on (`Error` of `use std::error::Error`, `Result` of `use anyhow::Result`), or a
    /// written path takes from them (`Result` of `io::Result` after `use std::io`, of
    /// `syn::Result`).
    from_outside: HashSet<String>,
    /// Of those, the names a `use` binds: no item of the file's own can share such a name in
    /// its namespace, so a definition of that name here is an associated item (`fn fmt` of an
    /// `impl fmt::Display` beside `use std::fmt`), not what the file's uses mean.
    bound_outside: HashSet<String>,
    /// Names a `use` binds, or a written path takes, from anywhere else.
    from_elsewhere: HashSet<String>,
    /// The paths of the workspace that the names a `use` binds from elsewhere stand for
    /// (`crate::io` for `io` of `use crate::io`).
    bound_elsewhere: HashMap<String, String>,
    /// Whether a glob `use` of the workspace's may bring any name in.
    glob_elsewhere: bool,
    /// Whether a glob `use` from outside may bring names in (`use std::io::prelude::*`).
    glob_outside: bool,
    /// The names the file's language gives it without an import, where there are any that
    /// a workspace namesake does not share (Java's and the scripts').
    standard: Option<StandardNames>,
}

/// The names a file's language gives it without an import, and those of them that the file
/// brings in from the workspace instead (an import, a definition, Java's package).
struct StandardNames {
    is_standard: fn(&str) -> bool,
    brought_in: HashSet<String>,
}

impl<'a> OutsideNames<'a> {
    /// The bindings of `file` (none for a file in another language); `outside` says which
    /// names are crates outside the workspace that it depends on, and what its modules take
    /// from outside.
    pub(crate) fn of(file: &'a IndexedFile, outside: &dyn Outside) -> Self {
        let mut names = Self {
            file,
            from_outside: HashSet::new(),
            bound_outside: HashSet::new(),
            from_elsewhere: HashSet::new(),
            bound_elsewhere: HashMap::new(),
            glob_elsewhere: false,
            glob_outside: false,
            standard: None,
        };
        names.standard = match file.language {
            Language::Java => {
                let package = file.symbols.package.as_deref().unwrap_or_default();
                let brought_in = java_lang::brought_in(file, outside.java_lang_namesakes_in(package));
                Some(StandardNames { is_standard: java_lang::is_java_lang, brought_in })
            }
            Language::TypeScript | Language::Tsx | Language::JavaScript => Some(StandardNames {
                is_standard: script_globals::is_script_global,
                brought_in: script_globals::brought_in(file),
            }),
            Language::Rust => None,
        };
        if file.language != Language::Rust {
            return names;
        }
        let outside_root = |first: &str| is_outside_root(first, file, outside);
        let is_outside_path = |path: &str| outside_root(first_segment(path));
        for import in &file.symbols.imports {
            // A glob of the file's own module (`use super::*;` in its test module) brings in
            // only what the file already has.
            if import.contains('*') && import != "self::*" {
                match is_outside_path(import) {
                    true => names.glob_outside = true,
                    false => names.glob_elsewhere = true,
                }
            }
            for (name, path) in rust_use_bindings(import) {
                // `use tokio_stream::StreamExt as _;` brings a trait's methods in by its name.
                let name = match name.as_str() {
                    "_" => path.rsplit("::").next().unwrap_or_default().to_owned(),
                    _ => name,
                };
                if is_outside_path(&path) || outside.passes_on_item_from_outside(file, &path) {
                    names.bound_outside.insert(name.clone());
                    names.from_outside.insert(name);
                } else {
                    names.from_elsewhere.insert(name.clone());
                    names.bound_elsewhere.insert(name, path);
                }
            }
        }
        for path in &file.symbols.written_paths {
            let (first, last) = (first_segment(path), path.rsplit("::").next().unwrap_or_default());
            let outside = match names.bound_elsewhere.get(first) {
                // `io::Result` after `use crate::io`, when `crate::io` takes `Result` from outside.
                Some(bound) => {
                    let rest = path.trim().trim_start_matches("::").split_once("::").map_or("", |(_, rest)| rest);
                    outside.passes_on_item_from_outside(file, &format!("{bound}::{rest}"))
                }
                None if names.from_elsewhere.contains(first) => false,
                None => {
                    names.from_outside.contains(first)
                        || outside_root(first)
                        || outside.passes_on_item_from_outside(file, path)
                }
            };
            match outside {
                true => names.from_outside.insert(last.to_owned()),
                false => names.from_elsewhere.insert(last.to_owned()),
            };
        }
        names
    }

    /// Whether the trait `name` is in scope in the file for its methods to be called (any file
    /// outside Rust). A trait the workspace declares (`in_workspace`) is where the file
    /// defines it, binds it with a `use` (`as _` too) or may glob it in from the workspace; one
    /// from outside (`Iterator`, `fmt::Display`, `futures::Stream`) is where it is in the
    /// standard prelude, or the file binds it, writes a path to it or may glob it in.
    pub(crate) fn has_in_scope(&self, name: &str, in_workspace: bool) -> bool {
        if self.file.language != Language::Rust || self.glob_elsewhere || self.from_elsewhere.contains(name) {
            return true;
        }
        match in_workspace {
            true => self.defines(name),
            false => self.glob_outside || self.from_outside.contains(name) || in_rust_prelude(name),
        }
    }

    /// Whether the file's uses of `name` mean an item from outside the workspace: a Rust file
    /// that binds `name` to one with a `use` and makes no method call of it (`.fmt(f)` calls a
    /// method, whatever module `fmt` names), or writes a path to one or uses a prelude name,
    /// where it neither defines the name, nor binds or writes a path to it from elsewhere, nor
    /// may glob it in.
    pub(crate) fn means_outside(&self, name: &str) -> bool {
        self.file.language == Language::Rust
            && !self.from_elsewhere.contains(name)
            && ((self.bound_outside.contains(name) && self.file.symbols.method_calls_of(name) == 0)
                || ((self.from_outside.contains(name) || (in_rust_prelude(name) && !self.glob_elsewhere))
                    && !self.defines(name)))
    }

    /// The names the file writes right after a path that leads outside the workspace, each with
    /// how often (`Ready` of `Poll::Ready` beside `use std::task::Poll`, `Error` of
    /// `io::Error::new` beside `use std::io`, of `std::io::Error`): those uses are items from
    /// outside, not any namesake's of the workspace. `outside` says what lies outside.
    pub(crate) fn uses_through_outside_paths(&self, outside: &dyn Outside) -> UsesThroughOutsidePaths<'a> {
        let mut leading: HashMap<&str, Option<bool>> = HashMap::new();
        let mut uses: HashMap<&'a str, u32> = HashMap::new();
        for (name, owner, count) in &self.file.symbols.owned_uses {
            let by_owner = *leading.entry(owner).or_insert_with(|| self.path_leads_outside(owner));
            if by_owner.unwrap_or_else(|| self.item_comes_from_outside(owner, name, outside)) {
                *uses.entry(name).or_default() += count;
            }
        }
        UsesThroughOutsidePaths(uses)
    }

    /// Whether a use of `name` written right after the path `owner` (`Poll` of `Poll::Ready`,
    /// `std::io` of `std::io::Error`, `io` of `io::Error`) is an item from outside the
    /// workspace: one of a path that starts at the standard crates, at a crate the workspace
    /// depends on, at a name the file binds or writes a path to from outside, or at a prelude
    /// type it does not define (`Option::Some`); or one that a module of the workspace takes
    /// from outside (`io::Error` beside `use crate::io`, where `crate::io` holds
    /// `pub use std::io::Error`). `outside` says what lies outside.
    /// A name written alone (`owner` empty) is from outside where it is one of the language's
    /// own in a Java or script file (see [`OutsideNames::workspace_uses`]).
    pub(crate) fn leads_outside(&self, owner: &str, name: &str, outside: &dyn Outside) -> bool {
        if owner.is_empty() {
            return self.means_standard(name);
        }
        self.path_leads_outside(owner).unwrap_or_else(|| self.item_comes_from_outside(owner, name, outside))
    }

    /// Whether the path `owner` leads outside the workspace, as far as its first name tells;
    /// `None` where that depends on the name after it: a path through a module of the
    /// workspace, which may take the name from outside, or through a crate's name.
    fn path_leads_outside(&self, owner: &str) -> Option<bool> {
        if self.file.language != Language::Rust {
            return Some(false);
        }
        let first = first_segment(owner);
        if self.bound_elsewhere.contains_key(first) {
            return None;
        }
        if self.from_elsewhere.contains(first) {
            return Some(false);
        }
        if self.bound_outside.contains(first) {
            return Some(true);
        }
        if self.defines(first) {
            return Some(false);
        }
        let prelude = in_rust_prelude(first) && !self.glob_elsewhere;
        if self.from_outside.contains(first) || matches!(first, "std" | "core" | "alloc") || prelude {
            return Some(true);
        }
        // A type of the workspace's, or a generic parameter (`Self::new`, `T::Output`): no
        // module or crate is named like one.
        first.starts_with(|c: char| c.is_ascii_uppercase()).then_some(false)
    }

    /// Whether the item `name` after the path `owner`, which leads into the workspace or to a
    /// crate, comes from outside: `owner` starts at a crate the workspace depends on, or a
    /// module of the workspace takes from outside the item itself (`Error` of `io::Error`
    /// beside `use crate::io`) or the type it belongs to (`new` of `io::Error::new`, `Ready` of
    /// a macro's `$crate::macros::support::Poll::Ready`).
    fn item_comes_from_outside(&self, owner: &str, name: &str, outside: &dyn Outside) -> bool {
        let first = first_segment(owner);
        let owner: Cow<'_, str> = match self.bound_elsewhere.get(first) {
            Some(bound) => match owner.trim().trim_start_matches("::").split_once("::") {
                Some((_, rest)) => Cow::Owned(format!("{bound}::{rest}")),
                None => Cow::Borrowed(bound.as_str()),
            },
            None if is_outside_root(first, self.file, outside) => return true,
            None => Cow::Borrowed(owner),
        };
        outside.passes_on_from_outside(self.file, &owner, name)
            || owner
                .rsplit_once("::")
                .is_some_and(|(module, item)| outside.passes_on_from_outside(self.file, module, item))
    }

    /// Of the file's `count` uses of `name` that are not written after a path (see
    /// [`UsesThroughOutsidePaths::left_of`]), those that may reach a definition of the
    /// workspace: a Java file's names of `java.lang` types (`Object`, `String`) are Java's,
    /// and a script's globals (`Error`, `Partial`) the language's, unless the file brings in
    /// the workspace's (an import, a definition, Java's package), so only its reads of a member
    /// of the name (`Shape.Object`) may; every use otherwise.
    fn workspace_uses(&self, name: &str, count: u32) -> u32 {
        match self.means_standard(name) {
            true => count.min(self.file.symbols.method_calls_of(name)),
            false => count,
        }
    }

    /// Whether the file's uses of `name`, written alone, mean one of its language's own names.
    fn means_standard(&self, name: &str) -> bool {
        self.standard
            .as_ref()
            .is_some_and(|standard| (standard.is_standard)(name) && !standard.brought_in.contains(name))
    }

    /// Whether the file defines something named `name`.
    fn defines(&self, name: &str) -> bool {
        self.file.symbols.definitions.iter().any(|definition| definition.name == name)
    }
}

/// Whether a path of `file` that starts at `first` leads outside the workspace: to the standard
/// crates, or to a crate the workspace depends on, unless the file declares a module of that
/// name (`mod log;`), which is its own.
fn is_outside_root(first: &str, file: &IndexedFile, outside: &dyn Outside) -> bool {
    matches!(first, "std" | "core" | "alloc")
        || (outside.is_external_crate(first) && !file.symbols.module_declarations.iter().any(|m| m.name == first))
}

/// The first name of a Rust path (`std` of `std::io`, of `::std::io`).
fn first_segment(path: &str) -> &str {
    path.trim().trim_start_matches("::").split("::").next().unwrap_or_default().trim()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_prelude_is_sorted_for_binary_search() {
        assert!(RUST_PRELUDE.windows(2).all(|pair| pair[0] < pair[1]), "keep RUST_PRELUDE sorted and unique");
    }

    #[test]
    fn a_name_means_the_standard_library_unless_the_file_binds_it_elsewhere() {
        let file = |source: &str| IndexedFile::from_source("src/a.rs", Language::Rust, source.as_bytes());
        let plain = file(
            "use std::error::Error;\nuse std::{io, fmt::Debug};\nfn f() -> Result<(), Box<dyn Error>> { Ok(()) }\nfn g() -> io::Result<()> { Ok(()) }\n",
        );
        let names = OutsideNames::of(&plain, &|_: &str| false);
        for name in ["Result", "Error", "io", "Debug", "Box", "Ok"] {
            assert!(names.means_outside(name), "{name}");
        }
        assert!(!names.means_outside("Runtime"));

        let own = file("use crate::error::{Error, Result};\nuse super::io;\nfn f() -> Result<()> { Ok(()) }\n");
        let names = OutsideNames::of(&own, &|_: &str| false);
        for name in ["Result", "Error", "io"] {
            assert!(!names.means_outside(name), "{name}");
        }
        assert!(names.means_outside("Ok"));

        // A path written through a module of the workspace, a glob and a definition of its own.
        let written = file("fn f() -> task::Result<()> { todo!() }\n");
        assert!(!OutsideNames::of(&written, &|_: &str| false).means_outside("Result"));
        let globbed = file("use super::*;\nfn f() -> Result<()> { todo!() }\n");
        assert!(!OutsideNames::of(&globbed, &|_: &str| false).means_outside("Result"));
        let defined = file("pub type Result<T> = std::result::Result<T, Error>;\n");
        assert!(!OutsideNames::of(&defined, &|_: &str| false).means_outside("Result"));
        let java = IndexedFile::from_source("A.java", Language::Java, b"class A { Result r; }");
        assert!(!OutsideNames::of(&java, &|_: &str| false).means_outside("Result"));
    }

    #[test]
    fn a_name_bound_to_a_crate_the_workspace_depends_on_is_that_crates() {
        let file = |source: &str| IndexedFile::from_source("src/a.rs", Language::Rust, source.as_bytes());
        let external = |name: &str| matches!(name, "anyhow" | "syn" | "futures" | "log");
        let bound = file(
            "use anyhow::{Context, Result};\nuse futures::StreamExt;\nuse crate::stream::Gather;\nfn f() -> Result<()> { let e: syn::Error = todo!(); }\n",
        );
        let names = OutsideNames::of(&bound, &external);
        for name in ["Result", "Context", "StreamExt", "Error"] {
            assert!(names.means_outside(name), "{name}");
        }
        assert!(!names.means_outside("Gather"));
        // A trait of another crate is not the workspace's trait of that name in scope.
        assert!(!names.has_in_scope("StreamExt", true) && names.has_in_scope("Gather", true));
        // Without the manifest's word, a crate is not known to lie outside.
        assert!(!OutsideNames::of(&bound, &|_: &str| false).means_outside("Context"));
        // A module the file declares is its own, and a glob of another crate brings in none of the workspace's names.
        let declared = file("mod log;\nuse log::Logger;\n");
        assert!(!OutsideNames::of(&declared, &external).means_outside("Logger"));
        let globbed = file("use futures::prelude::*;\nfn f() -> Result<()> { todo!() }\n");
        let names = OutsideNames::of(&globbed, &external);
        assert!(names.means_outside("Result") && !names.has_in_scope("Other", true));
        // A path written from the standard crates leaves the prelude's names as they are.
        let written = file("fn f() -> Result<()> { todo!() }\nfn g() -> std::result::Result<(), ()> { todo!() }\n");
        assert!(OutsideNames::of(&written, &|_: &str| false).means_outside("Result"));
    }

    #[test]
    fn a_glob_of_the_files_own_module_in_its_test_module_brings_nothing_from_elsewhere() {
        let file = |source: &str| IndexedFile::from_source("src/a.rs", Language::Rust, source.as_bytes());
        let tested = file(
            "pub fn f() -> Result<(), String> { Ok(()) }\n#[cfg(test)]\nmod tests {\n    use super::*;\n    \
             #[test]\n    fn t() -> Result<(), String> { f() }\n}\n",
        );
        let names = OutsideNames::of(&tested, &|_: &str| false);
        assert!(names.means_outside("Result") && names.means_outside("Ok"), "the prelude's, as the file's own are");
        assert!(!names.has_in_scope("Gather", true), "no trait of the workspace comes in with it");
        // A glob of the module above the file's may bring in anything.
        let above = file("use super::*;\npub fn f() -> Result<(), String> { Ok(()) }\n");
        let names = OutsideNames::of(&above, &|_: &str| false);
        assert!(!names.means_outside("Result") && names.has_in_scope("Gather", true));
    }

    /// The modules of a workspace that take names from outside: `crate::io` takes `Result`.
    struct PassedOn;

    impl Outside for PassedOn {
        fn is_external_crate(&self, _: &str) -> bool {
            false
        }

        fn passes_on_from_outside(&self, _: &IndexedFile, module: &str, name: &str) -> bool {
            matches!((module, name), ("crate::io" | "super::io" | "io", "Result") | ("crate::io", "Error"))
        }
    }

    #[test]
    fn a_name_reached_through_a_module_that_takes_it_from_outside_means_that_item() {
        let file = |source: &str| IndexedFile::from_source("src/a.rs", Language::Rust, source.as_bytes());
        for source in [
            "use crate::io;\nfn f() -> io::Result<()> { todo!() }\n",
            "use super::io;\nfn f() -> io::Result<()> { todo!() }\n",
            "use crate::io::Result;\nfn f() -> Result<()> { todo!() }\n",
            "fn f() -> crate::io::Result<()> { todo!() }\n",
            "mod io;\nfn f() -> io::Result<()> { todo!() }\n",
        ] {
            assert!(OutsideNames::of(&file(source), &PassedOn).means_outside("Result"), "{source}");
            assert!(!OutsideNames::of(&file(source), &|_: &str| false).means_outside("Result"), "{source}");
        }
        // A module that passes nothing on.
        let own = file("use crate::task;\nfn f() -> task::Result<()> { todo!() }\n");
        assert!(!OutsideNames::of(&own, &PassedOn).means_outside("Result"));
        let both = file(
            "use crate::{io, task};\nfn f() -> io::Result<()> { todo!() }\nfn g() -> task::Result<()> { todo!() }\n",
        );
        assert!(!OutsideNames::of(&both, &PassedOn).means_outside("Result"), "`task::Result` is the workspace's");
    }

    #[test]
    fn a_name_written_after_a_path_that_leads_outside_is_an_item_from_there() {
        let file = |source: &str| IndexedFile::from_source("src/a.rs", Language::Rust, source.as_bytes());
        let external = |name: &str| name == "syn";
        // Each file writes `Error` twice after a path; how many of the two may be the workspace's.
        for (source, left) in [
            ("use std::io;\nfn f() { io::Error::new(); io::Error::other(); }\n", 0),
            ("mod imp {\n    use std::{io, mem};\n    fn f() { io::Error::new(); io::Error::other(); }\n}\n", 0),
            ("fn f() { std::io::Error::new(); ::core::fmt::Error::default(); }\n", 0),
            ("fn f() { syn::Error::new(); syn::Error::other(); }\n", 0),
            ("use crate::io;\nfn f() { io::Error::new(); crate::io::Error::new(); }\n", 0),
            // The workspace's own: a module that takes nothing from outside, the file's own type.
            ("use crate::task;\nfn f() { task::Error::new(); task::Error::other(); }\n", 2),
            ("fn f() { error::Error::new(); self::Error::new(); }\n", 2),
            ("mod io {}\nfn f() { io::Error::new(); io::Error::other(); }\n", 2),
            ("use std::io;\npub struct Error;\nfn f() { Error::new(); io::Error::new(); }\n", 1),
        ] {
            let found = file(source);
            let count = found.symbols.uses_of("Error");
            assert_eq!(count, 2, "{source}");
            let names = OutsideNames::of(&found, &PassedOnOrExternal(&external));
            let through = names.uses_through_outside_paths(&PassedOnOrExternal(&external));
            assert_eq!(through.left_of("Error", count), left, "{source}");
        }
    }

    /// [`PassedOn`], with the crates `0` names outside.
    struct PassedOnOrExternal<'f>(&'f dyn Fn(&str) -> bool);

    impl Outside for PassedOnOrExternal<'_> {
        fn is_external_crate(&self, name: &str) -> bool {
            (self.0)(name)
        }

        fn passes_on_from_outside(&self, file: &IndexedFile, module: &str, name: &str) -> bool {
            PassedOn.passes_on_from_outside(file, module, name)
        }
    }

    #[test]
    fn a_name_a_use_binds_from_outside_is_not_the_files_method_of_that_name() {
        let file = |source: &str| IndexedFile::from_source("src/a.rs", Language::Rust, source.as_bytes());
        let display = file(
            "use std::fmt;\npub struct X;\nimpl fmt::Display for X {\n    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result { Ok(()) }\n}\n",
        );
        assert!(OutsideNames::of(&display, &|_: &str| false).means_outside("fmt"));
        // A method call of the name is a method's, whatever module the name binds.
        let delegating = file(
            "use std::fmt::{self, Display};\npub struct X(u8);\nimpl Display for X {\n    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result { self.0.fmt(f) }\n}\n",
        );
        assert!(!OutsideNames::of(&delegating, &|_: &str| false).means_outside("fmt"));
        // A name only a written path takes from outside stays the file's own where it defines one.
        let own = file("use std::io;\npub type Result<T> = io::Result<T>;\nfn f() -> Result<()> { Ok(()) }\n");
        assert!(!OutsideNames::of(&own, &|_: &str| false).means_outside("Result"));
    }

    #[test]
    fn a_trait_is_in_scope_where_it_is_defined_bound_or_globbed() {
        let file = |source: &str| IndexedFile::from_source("src/a.rs", Language::Rust, source.as_bytes());
        let bound = file("use tokio_stream::StreamExt as _;\nuse crate::ext::{Gather, Pick as Choose};\n");
        let names = OutsideNames::of(&bound, &|_: &str| false);
        for name in ["StreamExt", "Gather", "Choose"] {
            assert!(names.has_in_scope(name, true), "{name}");
        }
        assert!(!names.has_in_scope("Pick", true) && !names.has_in_scope("Other", true));
        assert!(OutsideNames::of(&file("use crate::ext::*;\n"), &|_: &str| false).has_in_scope("Other", true));
        assert!(!OutsideNames::of(&file("use std::io::*;\n"), &|_: &str| false).has_in_scope("Other", true));
        assert!(OutsideNames::of(&file("pub trait Other {}\n"), &|_: &str| false).has_in_scope("Other", true));
        // A trait from outside the workspace: in the prelude, bound, written out or globbed.
        let plain = file("fn f() {}\n");
        let names = OutsideNames::of(&plain, &|_: &str| false);
        assert!(names.has_in_scope("Iterator", false) && !names.has_in_scope("Read", false));
        for source in
            ["use std::io::Read;\n", "use std::io::prelude::*;\n", "use std::io;\nfn g(r: &dyn io::Read) {}\n"]
        {
            let bound = file(source);
            assert!(OutsideNames::of(&bound, &|_: &str| false).has_in_scope("Read", false), "{source}");
        }
    }
}
