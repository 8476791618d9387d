//! Which of a name's namesakes a file means. Where two files define a name, a file's use of
//! it means the one its imports lead to (and, in Java, its package holds), as each language
//! resolves a name: [`java`] for Java's types, [`script`] for TypeScript's and JavaScript's
//! modules, [`rust`] for Rust's `use` declarations. The ranking's use graph, its count of the
//! files that use a name the issue gives and `find_symbol` ask [`NameHomes::narrowed`].

pub(crate) mod java;
pub(crate) mod rust;
pub(crate) mod script;

use std::cell::{OnceCell, RefCell};
use std::collections::HashMap;
use std::sync::Arc;

use crate::context::{DefinitionKind, IndexedFile, Language};
use java::{JavaScope, TypeHome};
use rust::RustScope;

/// Which of a name's homes a file means by the name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Meant {
    /// Any of them may be meant.
    Any,
    /// The file's own definition of the name.
    Own,
    /// Those at these positions among the homes asked about, in order; none where the name
    /// comes from a library or a package.
    Homes(Vec<usize>),
}

/// Where a file's imports lead, as the workspace resolves them (a script's modules, a Rust
/// file's `use` paths).
pub(crate) trait ImportedModules {
    /// The workspace files `specifier` (a script's module, a Rust `use` path), as written in
    /// `file`, names: none for a package from outside or a module the index does not hold.
    fn imported_files(&self, file: &IndexedFile, specifier: &str) -> Arc<[String]>;

    /// The indexed file at `path`.
    fn indexed(&self, path: &str) -> Option<&IndexedFile>;

    /// Whether the workspace holds the npm package `name` (one of a monorepo's).
    fn holds_package(&self, name: &str) -> bool;
}

/// The homes of one name that modules give through re-exports, worked out once per module
/// for every module that imports the name from it.
#[derive(Default)]
pub(crate) struct ReExports(RefCell<HashMap<String, Arc<[usize]>>>);

impl ReExports {
    /// The homes the module at `path` gives, worked out by `follow` the first time.
    pub(crate) fn of(&self, path: &str, follow: impl FnOnce() -> Vec<usize>) -> Arc<[usize]> {
        if let Some(given) = self.0.borrow().get(path) {
            return Arc::clone(given);
        }
        let given: Arc<[usize]> = follow().into();
        self.0.borrow_mut().insert(path.to_owned(), Arc::clone(&given));
        given
    }
}

/// The files that define one name, of which a file's imports (and a Java file's package) say
/// which it means: the Java files that define a type of the name, the TypeScript and
/// JavaScript files that define it, and the Rust files that define an item of it outside any
/// type or trait.
#[derive(Default)]
pub(crate) struct NameHomes<'a> {
    /// The Java files' positions in the files ranked, sorted.
    java: Vec<usize>,
    java_homes: Vec<TypeHome<'a>>,
    /// The script files' positions, sorted, and their paths.
    scripts: Vec<usize>,
    script_paths: Vec<&'a str>,
    /// The Rust files that define an item of the name outside any type or trait: positions,
    /// sorted, and their paths.
    rust: Vec<usize>,
    rust_paths: Vec<&'a str>,
    /// What modules give of the name through re-exports, as it is asked for.
    re_exports: ReExports,
}

impl<'a> NameHomes<'a> {
    /// The homes among `files`, sorted by path, of a name's definitions `defined`: each
    /// definition's file (its position in `files`), kind, and whether it stands outside any type
    /// or trait.
    pub(crate) fn of(files: &[&'a IndexedFile], defined: impl Iterator<Item = (usize, DefinitionKind, bool)>) -> Self {
        debug_assert!(files.windows(2).all(|pair| pair[0].path <= pair[1].path), "homes are read in path order");
        let (mut java, mut scripts, mut rust) = (Vec::new(), Vec::new(), Vec::new());
        for (file, kind, top_level) in defined {
            match files[file].language {
                Language::Java if kind.is_type() => java.push(file),
                Language::Rust if top_level => rust.push(file),
                language if language.is_script() => scripts.push(file),
                _ => {}
            }
        }
        for found in [&mut java, &mut scripts, &mut rust] {
            found.sort_unstable();
            found.dedup();
        }
        let java_homes = java.iter().map(|&file| TypeHome::of(files[file])).collect();
        let paths = |found: &[usize]| found.iter().map(|&file| files[file].path.as_str()).collect();
        let (script_paths, rust_paths) = (paths(&scripts), paths(&rust));
        Self { java, java_homes, scripts, script_paths, rust, rust_paths, re_exports: ReExports::default() }
    }

    /// The homes of every definition named `name` among `files` (sorted by path).
    pub(crate) fn of_name(files: &[&'a IndexedFile], name: &str) -> Self {
        let defined = files.iter().enumerate().flat_map(|(at, file)| {
            file.symbols
                .definitions
                .iter()
                .filter(move |d| d.name == name)
                .map(move |d| (at, d.kind, d.container.is_none()))
        });
        Self::of(files, defined)
    }

    /// Whether the file at `file` (its position) is one of the homes.
    pub(crate) fn holds(&self, file: usize) -> bool {
        [&self.java, &self.scripts, &self.rust].iter().any(|homes| homes.binary_search(&file).is_ok())
    }

    /// Which of the homes a use of `name` in `files[user]` means (`scope` its scope): `None`
    /// where it may mean any. A Java file means the type its imports or its package bring in
    /// (see [`JavaScope::types_meant`]), a script the definition its import leads to (see
    /// [`script::meant`]), a Rust file the item its `use` leads to (see [`RustScope::meant`]);
    /// `modules` says where imports lead.
    pub(crate) fn narrowed(
        &self,
        files: &[&IndexedFile],
        user: usize,
        scope: &FileScope<'_>,
        modules: Option<&dyn ImportedModules>,
        name: &str,
    ) -> Option<Narrowed<'_>> {
        let file = files[user];
        let (judged, meant) = match file.language {
            Language::Java if !self.java.is_empty() => (&self.java, scope.java()?.types_meant(name, &self.java_homes)),
            Language::Rust if self.rust.len() > 1 => {
                (&self.rust, scope.rust()?.meant(name, &self.rust_paths, modules?, &self.re_exports))
            }
            language if language.is_script() && !self.scripts.is_empty() => {
                (&self.scripts, script::meant(file, name, &self.script_paths, modules?, &self.re_exports))
            }
            _ => return None,
        };
        let meant = match meant {
            Meant::Any => return None,
            Meant::Own => judged.binary_search(&user).map_or_else(|_| Vec::new(), |_| vec![user]),
            Meant::Homes(at) => at.into_iter().map(|at| judged[at]).collect(),
        };
        Some(Narrowed { judged, meant })
    }
}

/// What a Java or Rust file's names may mean, read once for all the names it uses and only
/// once one of them has namesakes to tell apart (a script's imports are read name by name).
pub(crate) struct FileScope<'a> {
    file: &'a IndexedFile,
    java: OnceCell<Option<JavaScope<'a>>>,
    rust: OnceCell<Option<RustScope<'a>>>,
}

impl<'a> FileScope<'a> {
    /// The scope of `file`, read when first asked for.
    pub(crate) fn of(file: &'a IndexedFile) -> Self {
        Self { file, java: OnceCell::new(), rust: OnceCell::new() }
    }

    fn java(&self) -> Option<&JavaScope<'a>> {
        self.java.get_or_init(|| JavaScope::of(self.file)).as_ref()
    }

    fn rust(&self) -> Option<&RustScope<'a>> {
        self.rust.get_or_init(|| RustScope::of(self.file)).as_ref()
    }
}

/// Which of a name's homes a use means (see [`NameHomes::narrowed`]).
pub(crate) struct Narrowed<'h> {
    /// The homes judged, sorted.
    judged: &'h [usize],
    /// Those meant, sorted.
    meant: Vec<usize>,
}

impl Narrowed<'_> {
    /// Whether the use may reach a definition in the file at `file`: one the rule does not
    /// judge, or one meant.
    pub(crate) fn admits(&self, file: usize) -> bool {
        self.meant.binary_search(&file).is_ok() || self.judged.binary_search(&file).is_err()
    }

    /// Those of `files` (sorted) the rule does not judge.
    pub(crate) fn others<'f>(&'f self, files: &'f [usize]) -> impl Iterator<Item = usize> + 'f {
        files.iter().copied().filter(|file| self.judged.binary_search(file).is_err())
    }

    /// Those meant, sorted.
    pub(crate) fn meant(&self) -> &[usize] {
        &self.meant
    }
}
