//! Which of the workspace's Rust items of one name a Rust file means by it. A file names an
//! item of another module by a `use` of it or by a path; where two modules define a `Handle`,
//! a file's `Handle` after `use crate::runtime::Handle;` is the one that module holds or
//! re-exports (`pub use self::handle::Handle;`), not every `Handle` of the workspace, and a
//! file that defines a `Handle` and does not import one means its own.

use super::{ImportedModules, Meant, ReExports};
use crate::context::IndexedFile;
use crate::context::modules::rust_use_bindings;

/// What a Rust file's names may mean: the names its `use` declarations bind, with the paths
/// they stand for, and the items it defines, read once for all the names it uses.
pub(crate) struct RustScope<'a> {
    file: &'a IndexedFile,
    /// The bound names and their paths, sorted by name.
    bindings: Vec<(String, String)>,
    /// The names of the items it defines outside any type or trait, sorted.
    own_items: Vec<&'a str>,
}

impl<'a> RustScope<'a> {
    /// The scope of `file`; `None` for a file in another language.
    pub(crate) fn of(file: &'a IndexedFile) -> Option<Self> {
        if file.language != crate::context::Language::Rust {
            return None;
        }
        let mut bindings: Vec<(String, String)> =
            file.symbols.imports.iter().flat_map(|i| rust_use_bindings(i)).collect();
        bindings.sort_unstable();
        let mut own_items: Vec<&str> =
            file.symbols.definitions.iter().filter(|d| d.container.is_none()).map(|d| d.name.as_str()).collect();
        own_items.sort_unstable();
        Some(Self { file, bindings, own_items })
    }

    /// Which of `homes`, the sorted paths of the Rust files that define an item named `name`,
    /// the file means by the name:
    /// - where a `use` binds the name, the homes its path leads to, directly or through modules
    ///   that re-export it (`pub use self::handle::Handle;`, or a glob), as far as
    ///   [`MAX_RE_EXPORTS`] modules deep; any where it leads to none of them or to no module
    ///   the index holds;
    /// - else, where the file defines an item of the name, its own;
    /// - else any (a glob's name, a macro's); and any where the file writes the name after a
    ///   path anywhere (`scheduler::Handle`).
    ///
    /// Of a single home, nothing is worked out: the file means it or something the workspace
    /// does not define, which [`crate::context::OutsideNames`] tells. `re_exports` holds what
    /// modules give of the name through re-exports, for all the files asked about.
    pub(crate) fn meant(
        &self,
        name: &str,
        homes: &[&str],
        modules: &dyn ImportedModules,
        re_exports: &ReExports,
    ) -> Meant {
        // A name written after a path (`scheduler::Handle`) is that path's, which this does not follow.
        let owned = &self.file.symbols.owned_uses;
        let written_after_a_path = owned.get(owned.partition_point(|(used, _, _)| used.as_str() < name));
        if written_after_a_path.is_some_and(|(used, _, _)| used == name) {
            return Meant::Any;
        }
        let start = self.bindings.partition_point(|(bound, _)| bound.as_str() < name);
        let paths: Vec<&str> = self.bindings[start..]
            .iter()
            .take_while(|(bound, _)| bound == name)
            .map(|(_, path)| path.as_str())
            .collect();
        if paths.is_empty() {
            return match self.own_items.binary_search(&name) {
                Ok(_) => Meant::Own,
                Err(_) => Meant::Any,
            };
        }
        if homes.len() < 2 {
            return Meant::Any;
        }
        let mut meant = Vec::new();
        for path in paths {
            let files = modules.imported_files(self.file, path);
            if files.is_empty() {
                return Meant::Any;
            }
            for path in files.iter() {
                match homes.binary_search(&path.as_str()) {
                    Ok(home) => meant.push(home),
                    Err(_) => {
                        let given = re_exports.of(path, || re_exported(path, name, homes, modules, MAX_RE_EXPORTS));
                        meant.extend(given.iter().copied());
                    }
                }
            }
        }
        meant.sort_unstable();
        meant.dedup();
        match meant.is_empty() {
            true => Meant::Any,
            false => Meant::Homes(meant),
        }
    }
}

/// How many modules deep a chain of re-exports is followed.
const MAX_RE_EXPORTS: usize = 3;

/// The positions among `homes` of the items named `name` that the module file at `path`
/// re-exports: where a `use` of it binds the name (or a glob may), the homes that path leads
/// to, followed `depth` modules deep.
fn re_exported(path: &str, name: &str, homes: &[&str], modules: &dyn ImportedModules, depth: usize) -> Vec<usize> {
    let Some(file) = modules.indexed(path).filter(|_| depth > 0) else { return Vec::new() };
    let mut found = Vec::new();
    for import in &file.symbols.imports {
        let binds = import.contains('*') || rust_use_bindings(import).iter().any(|(bound, _)| bound == name);
        if !binds {
            continue;
        }
        for next in modules.imported_files(file, import).iter().filter(|next| next.as_str() != path) {
            match homes.binary_search(&next.as_str()) {
                Ok(home) => found.push(home),
                Err(_) => found.extend(re_exported(next, name, homes, modules, depth - 1)),
            }
        }
    }
    found
}
