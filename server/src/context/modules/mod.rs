//! Which unit of meaning each file belongs to (the Java package, the Rust module path, the
//! TypeScript folder and the `tsconfig.json` path alias naming it), and which of the
//! workspace's files an import names.

use std::collections::{BTreeMap, HashMap, HashSet, VecDeque};
use std::sync::{Arc, OnceLock};

use super::extract::{FileSymbols, ModuleDeclaration};
use super::index::{Crate, CrateRoot};
use super::language::Language;
pub use package_imports::PackageImports;
pub(super) use paths::join;
use paths::{below_folder, contains, join_inside, pattern_targets};
use rust_uses::expand_use;
pub use rust_uses::rust_use_bindings;
use scripts::{SPECIFIER_EXTENSIONS, script_file};
pub use tsconfig::{TsConfig, TsConfigError};

mod package_imports;
mod paths;
mod rust_uses;
mod scripts;
mod tsconfig;

/// The workspace's Rust crates and TypeScript configurations, for naming modules and
/// resolving imports.
#[derive(Debug, Clone, Default)]
pub struct Modules {
    crates: Vec<Crate>,
    /// The crates the workspace's crates depend on that it does not hold (`serde_json`).
    external_crates: HashSet<String>,
    tsconfigs: Vec<TsConfig>,
    /// npm packages of the workspace: each `package.json`'s folder and the name it gives, the
    /// deepest folder first.
    packages: Vec<(String, String)>,
    /// Each `package.json`'s own import map (`#utils/*`), the deepest folder first.
    package_imports: Vec<PackageImports>,
    /// Rust files reached by following `mod` declarations from a crate root, with the
    /// module path that gives them; worked out when first asked for after a change, and
    /// shared by the copies a snapshot makes.
    declared: OnceLock<Arc<Declared>>,
}

/// A Rust file reached by following `mod` declarations, waiting to have its own followed.
struct Reached {
    file: String,
    /// The module path it is reached by.
    module: String,
    /// Whether its submodules live in its own folder (a crate root, `mod.rs`, a `#[path]`).
    owns_folder: bool,
    /// Whether it is test code, by its declaration or one above it.
    test: bool,
}

/// The Rust files reached by following `mod` declarations from the crates' roots.
#[derive(Debug, Default)]
struct Declared {
    /// Each file's module path.
    modules: HashMap<String, String>,
    /// The files of modules kept to tests (`#[cfg(test)] mod mocks;`), and of those below them.
    tests: HashSet<String>,
}

impl Modules {
    /// Module knowledge from the crates and `tsconfig.json` files found.
    pub fn new(crates: Vec<Crate>, mut tsconfigs: Vec<TsConfig>) -> Self {
        // The deepest folder first: a folder's aliases come before those of the folders above.
        tsconfigs.sort_by_key(|c| std::cmp::Reverse(c.dir.len()));
        let workspace: HashSet<&str> = crates
            .iter()
            .flat_map(|krate| std::iter::once(&krate.name).chain(krate.roots.iter().map(|root| &root.name)))
            .map(String::as_str)
            .collect();
        let external_crates = crates
            .iter()
            .flat_map(|krate| &krate.dependencies)
            .filter(|name| !workspace.contains(name.as_str()))
            .cloned()
            .collect();
        Self {
            crates,
            external_crates,
            tsconfigs,
            packages: Vec::new(),
            package_imports: Vec::new(),
            declared: OnceLock::new(),
        }
    }

    /// The same, knowing the workspace's npm packages (each `package.json`'s folder and name).
    pub fn with_packages(mut self, mut packages: Vec<(String, String)>) -> Self {
        packages.sort_by_key(|(dir, _)| std::cmp::Reverse(dir.len()));
        self.packages = packages;
        self
    }

    /// The same, knowing each `package.json`'s own import map.
    pub fn with_package_imports(mut self, mut maps: Vec<PackageImports>) -> Self {
        maps.sort_by_key(|map| std::cmp::Reverse(map.dir.len()));
        self.package_imports = maps;
        self
    }

    /// Where an import of a workspace package (`@demo/core`, `zod/v4`) may lead: below the
    /// package's `src/`, then its folder, as monorepos lay their sources out
    /// (`packages/zod/src/v4/index.ts`). The package's `exports` are not read: they name
    /// built output.
    fn package_candidates<'a>(&'a self, import: &'a str) -> impl Iterator<Item = Option<String>> + 'a {
        self.packages.iter().flat_map(move |(dir, name)| {
            let rest = match import.strip_prefix(name.as_str()) {
                Some("") => Some(""),
                Some(rest) => rest.strip_prefix('/'),
                None => None,
            };
            rest.into_iter().flat_map(move |rest| {
                let in_src = join_inside(dir, &format!("src/{rest}"));
                [in_src, join_inside(dir, rest).filter(|_| !rest.is_empty())]
            })
        })
    }

    /// The npm packages found: each `package.json`'s folder and the name it gives, the deepest
    /// folder first.
    pub fn packages(&self) -> &[(String, String)] {
        &self.packages
    }

    /// The npm package a script at `path` belongs to, in a workspace of several (a monorepo):
    /// the name the nearest `package.json` above it gives (`@vitejs/plugin-legacy`). None in a
    /// workspace of one package, where it says nothing.
    pub fn script_package(&self, path: &str) -> Option<&str> {
        if self.packages.len() < 2 {
            return None;
        }
        self.packages.iter().find(|(dir, _)| contains(dir, path)).map(|(_, name)| name.as_str())
    }

    /// The module path of every Rust file reached by following `mod` declarations (with
    /// their `#[path]` attributes and inline modules) from the crates' roots: the library,
    /// `src/main.rs`, the manifest's binaries and `src/bin/`. `rust_files` holds every
    /// indexed Rust file with its declarations. A file reached twice keeps the first path,
    /// taking roots in crate order and modules breadth first. A module declared as test code
    /// makes its file, and the files of the modules it declares, test code.
    fn declared_modules(&self, rust_files: &BTreeMap<&str, &[ModuleDeclaration]>) -> Declared {
        let mut declared = Declared::default();
        let mut queue: VecDeque<Reached> = self
            .crates
            .iter()
            .flat_map(|krate| crate_roots(krate, rust_files))
            .map(|root| Reached { file: root.path, module: root.name, owns_folder: true, test: false })
            .collect();
        while let Some(Reached { file, module, owns_folder, test }) = queue.pop_front() {
            if declared.modules.contains_key(&file) {
                continue;
            }
            let Some(declarations) = rust_files.get(file.as_str()) else { continue };
            let (folder, name) = file.rsplit_once('/').unwrap_or(("", &file));
            // `a.rs` keeps its submodules in `a/`; a crate root, `mod.rs` and a file a
            // `#[path]` named keep them beside themselves.
            let own_folder = if owns_folder { folder.to_owned() } else { join(folder, name.trim_end_matches(".rs")) };
            for declaration in declarations.iter() {
                let inline = join(&own_folder, &declaration.within.join("/"));
                let candidates = match &declaration.path {
                    // Outside inline modules a `#[path]` is relative to the declaring file's folder.
                    Some(path) if declaration.within.is_empty() => vec![(join(folder, path), true)],
                    Some(path) => vec![(join(&inline, path), true)],
                    None => vec![
                        (join(&inline, &format!("{}.rs", declaration.name)), false),
                        (join(&inline, &format!("{}/mod.rs", declaration.name)), true),
                    ],
                };
                if let Some((child, owns)) =
                    candidates.into_iter().find(|(path, _)| rust_files.contains_key(path.as_str()))
                {
                    let segments = declaration.within.iter().chain(std::iter::once(&declaration.name));
                    let child_module = segments.fold(module.clone(), |path, segment| format!("{path}::{segment}"));
                    let test = test || declaration.test;
                    queue.push_back(Reached { file: child, module: child_module, owns_folder: owns, test });
                }
            }
            if test {
                declared.tests.insert(file.clone());
            }
            declared.modules.insert(file, module);
        }
        declared
    }

    /// Whether the Rust file at `path` is a module declared as test code (`#[cfg(test)] mod
    /// mocks;`), or one below such a module, as its crate's `mod` declarations were last
    /// followed.
    pub fn is_declared_test(&self, path: &str) -> bool {
        self.declared.get().is_some_and(|declared| declared.tests.contains(path))
    }

    /// Follows the `mod` declarations of `rust_files` (every indexed Rust file, with its
    /// declarations, from [`ensure_declared`](Self::ensure_declared)'s caller) unless they were
    /// followed since the last change; until then Rust files get the module paths their places imply.
    pub fn ensure_declared<'a>(&self, rust_files: impl FnOnce() -> BTreeMap<&'a str, &'a [ModuleDeclaration]>) {
        self.declared.get_or_init(|| Arc::new(self.declared_modules(&rust_files())));
    }

    /// Forgets the declared module paths: a file's declarations changed, or a file came or went.
    pub fn forget_declared(&mut self) {
        self.declared = OnceLock::new();
    }

    /// The Rust crates, as found.
    pub fn crates(&self) -> &[Crate] {
        &self.crates
    }

    /// Whether `name` is a crate outside the workspace that a crate of it depends on
    /// (`anyhow`, `syn`): what a path starting with it names is not the workspace's.
    pub fn is_external_crate(&self, name: &str) -> bool {
        self.external_crates.contains(name)
    }

    /// Whether a `tsconfig.json` of the workspace extends the file at `relative`, so a
    /// change to it changes the aliases (a base of any name: `config/base.json`).
    pub fn is_tsconfig_base(&self, relative: &str) -> bool {
        self.tsconfigs.iter().any(|config| config.extends.iter().any(|base| base == relative))
    }

    /// Whether a base a `tsconfig.json` extends lies below the folder `below` (ending in
    /// `/`), so the folder's coming or going changes the aliases.
    pub fn has_tsconfig_base_below(&self, below: &str) -> bool {
        self.tsconfigs.iter().any(|config| config.extends.iter().any(|base| base.starts_with(below)))
    }

    /// The unit `path` belongs to: the Java package, the Rust module path
    /// (`tokio::sync::mpsc` for `tokio/src/sync/mpsc/mod.rs`), for TypeScript the alias a
    /// `tsconfig.json` gives its folder (`@app/utils`), else its folder.
    pub fn module_of(&self, path: &str, language: Language, symbols: &FileSymbols) -> String {
        let folder = || path.rsplit_once('/').map_or(String::new(), |(dir, _)| dir.to_owned());
        match language {
            Language::Java => symbols.package.clone().unwrap_or_else(folder),
            Language::Rust => self.rust_module(path).unwrap_or_else(folder),
            _ => self.script_alias(&folder()).unwrap_or_else(folder),
        }
    }

    /// The Rust module path of a file (`crate_name::a::b`): the one its crate's `mod`
    /// declarations give it, else (a module a macro names, `mod $name;`, or a file no root
    /// reaches) the one its place below the crate's `src/` implies.
    pub fn rust_module(&self, path: &str) -> Option<String> {
        if let Some(module) = self.declared.get().and_then(|declared| declared.modules.get(path)) {
            return Some(module.clone());
        }
        // A file belongs to its nearest crate.
        let krate = self.crates.iter().filter(|c| contains(&c.dir, path)).max_by_key(|c| c.dir.len())?;
        let inside = if krate.dir.is_empty() { path } else { &path[krate.dir.len() + 1..] };
        let mut parts: Vec<&str> = inside.strip_prefix("src/")?.strip_suffix(".rs")?.split('/').collect();
        if matches!(parts.last(), Some(&("lib" | "main" | "mod"))) {
            parts.pop();
        }
        Some(std::iter::once(krate.name.as_str()).chain(parts).collect::<Vec<_>>().join("::"))
    }

    /// The specifier another file imports the script at `path` by through a `tsconfig.json`
    /// alias (`@ui/button` for `web/src/ui/button.ts` under `"@ui/*": ["web/src/ui/*"]`; a
    /// folder's `index` is the folder), if an alias covers it.
    pub fn script_specifier(&self, path: &str) -> Option<String> {
        // The longest extension that ends it (`.d.ts` rather than `.ts`), and what an import
        // writes in its place: nothing, or for an ES or CommonJS module the emitted file's.
        let (stem, written) = SPECIFIER_EXTENSIONS
            .iter()
            .filter_map(|(extension, written)| Some((path.strip_suffix(extension)?.strip_suffix('.')?, *written)))
            .min_by_key(|(stem, _)| stem.len())?;
        let folder_stem = stem.strip_suffix("/index").filter(|_| written.is_empty());
        let named = |rest: &str| (!rest.is_empty()).then(|| rest.to_owned());
        // Of the aliases that cover it, the shortest specifier: the most specific alias.
        self.alias_targets()
            .filter_map(|(pattern, target)| match (pattern.strip_suffix('*'), target.strip_suffix('*')) {
                (Some(prefix), Some(target)) => {
                    let target = target.trim_end_matches('/');
                    // `@app/*` matches `@app/core` (a folder's index) but not `@app` itself.
                    let rest = folder_stem.and_then(|folder| below_folder(folder, target)).and_then(named);
                    let rest = match rest {
                        Some(folder) => folder,
                        None => format!("{}{written}", below_folder(stem, target).and_then(named)?),
                    };
                    Some(format!("{prefix}{rest}"))
                }
                (None, None) => {
                    let target = target.trim_end_matches('/');
                    (path == target || stem == target || folder_stem == Some(target)).then(|| pattern.clone())
                }
                _ => None,
            })
            .min_by_key(String::len)
    }

    /// Every `tsconfig.json` path pattern with each place it points to.
    fn alias_targets(&self) -> impl Iterator<Item = (&String, &String)> {
        let aliases = self.tsconfigs.iter().flat_map(|config| &config.paths);
        aliases.flat_map(|(pattern, targets)| targets.iter().map(move |target| (pattern, target)))
    }

    /// The alias a `tsconfig.json` path pattern gives `folder`, if one covers it.
    fn script_alias(&self, folder: &str) -> Option<String> {
        // Of the aliases that cover it, the shortest: the most specific.
        self.alias_targets()
            .filter_map(|(pattern, target)| {
                let prefix = pattern.strip_suffix('*')?;
                let target = target.strip_suffix('*')?.trim_end_matches('/');
                let rest = below_folder(folder, target)?;
                Some(format!("{prefix}{rest}").trim_end_matches('/').to_owned())
            })
            .min_by_key(String::len)
    }

    /// The workspace files `import` (as written in the file at `from`) names; `modules` maps
    /// each Rust module path and Java package to its files, `exists` says whether a path is
    /// an indexed file.
    pub fn resolve(
        &self,
        from: &str,
        language: Language,
        import: &str,
        modules: &ModuleTable,
        exists: impl Fn(&str) -> bool,
    ) -> Vec<String> {
        match language {
            Language::Rust => self.resolve_rust(from, import, modules),
            Language::Java => resolve_java(import, modules),
            _ => self.resolve_script(from, import, exists).into_iter().collect(),
        }
    }

    fn resolve_rust(&self, from: &str, import: &str, modules: &ModuleTable) -> Vec<String> {
        // A file below no crate's `src/` (an integration test, an example) reaches crates by
        // their names.
        let current = self.rust_module(from).unwrap_or_default();
        let mut resolved = Vec::new();
        for path in expand_use(import) {
            let (segments, relative) = rust_path_segments(&current, &path);
            // A path may start at a module the current one declares (`mod config;` then
            // `use config::Config` or `config::load()`), as Rust 2018 reads it before a crate's name.
            let child = relative
                .then(|| {
                    let within: Vec<String> = current.split("::").map(str::to_owned).chain(segments.clone()).collect();
                    longest_module(&within, modules, current.split("::").count() + 1)
                })
                .flatten();
            // Else the longest prefix that is a module of the workspace.
            if let Some(files) = child.or_else(|| longest_module(&segments, modules, 1)) {
                resolved.extend(files.iter().cloned());
            }
        }
        resolved.sort();
        resolved.dedup();
        resolved
    }

    /// The files of the workspace's Rust module that `path` (as written in the file at `from`,
    /// `crate::io` or `io` after `mod io;`) names as a whole, not by a prefix of it: none when
    /// it names none, or an item.
    pub fn rust_module_named<'t>(&self, from: &str, path: &str, modules: &'t ModuleTable) -> Option<&'t Vec<String>> {
        // As in `resolve_rust`, a file below no crate's `src/` reaches crates by their names.
        let current = self.rust_module(from).unwrap_or_default();
        let (segments, relative) = rust_path_segments(&current, path);
        let named = |segments: Vec<String>| modules.get(&segments.join("::"));
        let child = relative.then(|| named(current.split("::").map(str::to_owned).chain(segments.clone()).collect()));
        child.flatten().or_else(|| (!segments.is_empty()).then(|| named(segments)).flatten())
    }

    fn resolve_script(&self, from: &str, import: &str, exists: impl Fn(&str) -> bool) -> Option<String> {
        let dir = from.rsplit_once('/').map_or("", |(dir, _)| dir);
        // `.` and `..` alone are relative too: the folder's or its parent's `index`.
        let relative = import.starts_with("./") || import.starts_with("../") || import == "." || import == "..";
        let candidates: Vec<Option<String>> = if relative {
            vec![join_inside(dir, import)]
        } else {
            let mut found = Vec::new();
            let config = self.tsconfigs.iter().find(|c| contains(&c.dir, from));
            let aliases = config.iter().flat_map(|config| &config.paths);
            let aliased = pattern_targets(
                aliases.map(|(pattern, targets)| (pattern.as_str(), targets.as_slice())),
                import,
                |_| true,
            );
            found.extend(aliased.iter().map(|target| join_inside("", target)));
            // A subpath import (`#utils/log`), after the aliases as TypeScript tries them, by
            // the map of the package the file is in (the nearest `package.json` above it).
            if import.starts_with('#') {
                let package = self.package_imports.iter().find(|map| contains(&map.dir, from));
                let candidates = package.map(|map| map.candidates(import)).unwrap_or_default();
                found.extend(candidates.iter().map(|candidate| join_inside("", candidate)));
            }
            if let Some(base) = config.and_then(|config| config.base_url.as_ref()) {
                found.push(join_inside(base, import));
            }
            found.extend(self.package_candidates(import));
            found
        };
        // A candidate that climbs out of the workspace names no file the index could hold.
        candidates.iter().flatten().find_map(|candidate| script_file(candidate, &exists))
    }
}

/// The roots of `krate`'s targets among the indexed files: those its manifest names or
/// implies, then each binary in `src/bin/` (`src/bin/x.rs`, `src/bin/x/main.rs`).
fn crate_roots(krate: &Crate, rust_files: &BTreeMap<&str, &[ModuleDeclaration]>) -> Vec<CrateRoot> {
    let mut roots = krate.roots.clone();
    let bin_folder = format!("{}/", join(&krate.dir, "src/bin"));
    // Paths below a folder sort together: a range, not a scan.
    let below = rust_files.range(bin_folder.as_str()..).take_while(|(path, _)| path.starts_with(&bin_folder));
    for (path, _) in below {
        let Some(inside) = path.strip_prefix(&bin_folder) else { continue };
        let name = match inside.split('/').collect::<Vec<_>>()[..] {
            [file] => file.strip_suffix(".rs"),
            [folder, "main.rs"] => Some(folder),
            _ => None,
        };
        if let Some(name) = name {
            roots.push(CrateRoot { name: name.replace('-', "_"), path: (*path).to_owned() });
        }
    }
    roots.retain(|root| rust_files.contains_key(root.path.as_str()));
    roots
}

/// Rust module paths and Java packages, each with the files that make it up.
pub type ModuleTable = HashMap<String, Vec<String>>;

/// `import com.x.Foo;` names Foo's file, `import com.x.*;` (written `com.x`) the package's
/// files, `import static com.x.Foo.bar;` Foo's file.
fn resolve_java(import: &str, modules: &ModuleTable) -> Vec<String> {
    let parts: Vec<&str> = import.split('.').map(str::trim).collect();
    if let Some(files) = modules.get(import) {
        return files.clone();
    }
    for end in (1..parts.len()).rev() {
        let (package, class) = (parts[..end].join("."), parts[end]);
        if let Some(files) = modules.get(&package) {
            let wanted = format!("{class}.java");
            return files.iter().filter(|f| f.rsplit('/').next() == Some(wanted.as_str())).cloned().collect();
        }
    }
    Vec::new()
}

/// The module path a Rust path written in the module `current` spells out, segment by
/// segment (`crate` its crate's name, `self` and `super` read against `current`), and whether
/// it starts at neither, so that it may start at a module `current` declares.
fn rust_path_segments(current: &str, path: &str) -> (Vec<String>, bool) {
    let own_crate = current.split("::").next().unwrap_or_default();
    let mut segments: Vec<String> = Vec::new();
    for (position, segment) in path.split("::").map(str::trim).enumerate() {
        match (position, segment) {
            // A macro's `$crate` is the crate of the file that defines the macro.
            (0, "crate" | "$crate") => segments.push(own_crate.to_owned()),
            (0, "self") => segments.extend(current.split("::").map(str::to_owned)),
            // `mod.rs` is its folder's module, so `super` is always one module up.
            (0, "super") => {
                segments.extend(current.split("::").map(str::to_owned));
                segments.pop();
            }
            (_, "super") => {
                segments.pop();
            }
            (_, "self" | "*") | (_, "") => {}
            (_, segment) => segments.push(segment.to_owned()),
        }
    }
    let relative = !matches!(path.split("::").next().map(str::trim), Some("crate" | "$crate" | "self" | "super" | ""));
    (segments, relative)
}

/// The files of the longest prefix of `segments`, at least `shortest` long, that is a module
/// of the workspace.
fn longest_module<'a>(segments: &[String], modules: &'a ModuleTable, shortest: usize) -> Option<&'a Vec<String>> {
    (shortest.max(1)..=segments.len()).rev().find_map(|end| modules.get(&segments[..end].join("::")))
}

#[cfg(test)]
mod tests;
