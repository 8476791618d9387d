//! Which unit of meaning each file belongs to (the Java package, the Rust module path, the
//! TypeScript folder and the `tsconfig.json` path alias naming it), and which of the
//! workspace's files an import names.

use std::collections::{BTreeMap, HashMap, VecDeque};
use std::path::Path;
use std::sync::{Arc, OnceLock};

use super::extract::{FileSymbols, ModuleDeclaration};
use super::index::{Crate, CrateRoot};
use super::language::Language;

/// TypeScript and JavaScript extensions an import may leave out, in the order resolution tries them.
const SCRIPT_EXTENSIONS: [&str; 7] = ["ts", "tsx", "d.ts", "js", "jsx", "mjs", "cjs"];

/// Each script extension with what an import of such a file writes in its place: nothing
/// (`./util` for `util.ts`), or for ES and CommonJS modules, which are never found without
/// one, the emitted file's (`./util.mjs` for `util.mts`).
const SPECIFIER_EXTENSIONS: [(&str, &str); 11] = [
    ("ts", ""),
    ("tsx", ""),
    ("d.ts", ""),
    ("js", ""),
    ("jsx", ""),
    ("mts", ".mjs"),
    ("d.mts", ".mjs"),
    ("mjs", ".mjs"),
    ("cts", ".cjs"),
    ("d.cts", ".cjs"),
    ("cjs", ".cjs"),
];

/// The sources TypeScript compiles to a file with each emitted extension, in the order it
/// looks for them: an import may name the output (`./util.js`) of a source (`util.ts`).
const EMITTED_FROM: [(&str, &[&str]); 4] = [
    ("js", &["ts", "tsx", "d.ts"]),
    ("jsx", &["tsx", "ts", "d.ts"]),
    ("mjs", &["mts", "d.mts"]),
    ("cjs", &["cts", "d.cts"]),
];

/// A `tsconfig.json`'s module resolution: where non-relative imports start, and its aliases.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TsConfig {
    /// The folder holding it, relative to the workspace (`""` for the root).
    pub dir: String,
    /// `compilerOptions.baseUrl`, relative to the workspace, if set.
    pub base_url: Option<String>,
    /// `compilerOptions.paths`: a pattern (`@app/*`) and where it points, relative to the workspace.
    pub paths: Vec<(String, Vec<String>)>,
    /// The configurations it `extends` inside the workspace, relative to it: as written
    /// ([`TsConfig::parse`]), or every one followed, bases of bases too ([`TsConfig::read`]).
    pub extends: Vec<String>,
}

/// The largest `tsconfig.json` read.
const MAX_TSCONFIG_BYTES: u64 = 1 << 20;

/// How many `extends` deep a configuration is followed.
const MAX_EXTENDS_DEPTH: usize = 8;

/// Why a `tsconfig.json` could not be read.
#[derive(Debug, thiserror::Error)]
pub enum TsConfigError {
    /// Not readable.
    #[error("cannot read {path}: {source}")]
    Read {
        /// The file.
        path: String,
        /// What went wrong.
        source: std::io::Error,
    },
    /// Larger than any real configuration.
    #[error("{path} is larger than {MAX_TSCONFIG_BYTES} bytes")]
    TooLarge {
        /// The file.
        path: String,
    },
    /// Not JSON, even with comments and trailing commas allowed.
    #[error("{path} is not valid JSON: {source}")]
    Parse {
        /// The file.
        path: String,
        /// What went wrong.
        source: serde_json::Error,
    },
}

impl TsConfig {
    /// Reads the `tsconfig.json` at `relative` below `root` (JSON with comments, as TypeScript
    /// reads it), taking `baseUrl` and `paths` it leaves out from the configurations it
    /// `extends` (a monorepo's shared base), when those are in the workspace.
    pub fn read(root: &Path, relative: &str) -> Result<Self, TsConfigError> {
        let mut config = Self::read_one(root, relative)?;
        let mut pending = std::mem::take(&mut config.extends);
        let mut seen = vec![relative.to_owned()];
        while let Some(base) = pending.pop() {
            if seen.len() > MAX_EXTENDS_DEPTH || seen.contains(&base) {
                continue;
            }
            seen.push(base.clone());
            // A base that is missing or broken leaves what the file itself says.
            let Ok(mut inherited) = Self::read_one(root, &base) else { continue };
            if config.base_url.is_none() {
                config.base_url = inherited.base_url.take();
            }
            if config.paths.is_empty() {
                config.paths = std::mem::take(&mut inherited.paths);
            }
            pending.extend(inherited.extends);
        }
        // Missing ones too: one written later changes what this file says.
        config.extends = seen.split_off(1);
        Ok(config)
    }

    fn read_one(root: &Path, relative: &str) -> Result<Self, TsConfigError> {
        let read_error = |source| TsConfigError::Read { path: relative.to_owned(), source };
        let path = root.join(relative);
        if std::fs::metadata(&path).map_err(read_error)?.len() > MAX_TSCONFIG_BYTES {
            return Err(TsConfigError::TooLarge { path: relative.to_owned() });
        }
        let mut text = std::fs::read_to_string(&path).map_err(read_error)?;
        Self::parse(relative, &mut text)
    }

    /// Parses the text of the `tsconfig.json` at `relative` (stripped of comments in place).
    pub fn parse(relative: &str, text: &mut str) -> Result<Self, TsConfigError> {
        let parse_error = |source| TsConfigError::Parse { path: relative.to_owned(), source };
        json_strip_comments::strip(text).map_err(|error| parse_error(serde_json::Error::io(error)))?;
        let value: serde_json::Value = serde_json::from_str(text).map_err(parse_error)?;
        let dir = relative.rsplit_once('/').map_or("", |(dir, _)| dir).to_owned();
        let options = &value["compilerOptions"];
        // Places outside the workspace hold no file the index has: they are left out, not
        // taken as the workspace's own folders.
        let base = options["baseUrl"].as_str();
        let base_url = base.and_then(|base| join_inside(&dir, base));
        let paths = options["paths"]
            .as_object()
            .into_iter()
            .flatten()
            .map(|(pattern, targets)| {
                let targets = targets.as_array().into_iter().flatten().filter_map(|t| t.as_str());
                let from_base = |target: &str| join_inside(&dir, &format!("{}/{target}", base.unwrap_or(".")));
                (pattern.clone(), targets.filter_map(from_base).collect())
            })
            .collect();
        let extends = match &value["extends"] {
            serde_json::Value::String(one) => vec![one.as_str()],
            serde_json::Value::Array(many) => many.iter().filter_map(|v| v.as_str()).collect(),
            _ => Vec::new(),
        };
        // Only files in the workspace (`./base.json`, `../tsconfig.base`), not packages.
        let extends = extends
            .into_iter()
            .filter(|base| base.starts_with("./") || base.starts_with("../"))
            .filter_map(|base| {
                let path = join_inside(&dir, base)?;
                Some(if path.ends_with(".json") { path } else { format!("{path}.json") })
            })
            .collect();
        Ok(Self { dir, base_url, paths, extends })
    }
}

/// The workspace's Rust crates and TypeScript configurations, for naming modules and
/// resolving imports.
#[derive(Debug, Clone, Default)]
pub struct Modules {
    crates: Vec<Crate>,
    tsconfigs: Vec<TsConfig>,
    /// npm packages of the workspace: each `package.json`'s folder and the name it gives, the
    /// deepest folder first.
    packages: Vec<(String, String)>,
    /// Rust files reached by following `mod` declarations from a crate root, with the
    /// module path that gives them; worked out when first asked for after a change, and
    /// shared by the copies a snapshot makes.
    declared: OnceLock<Arc<HashMap<String, String>>>,
}

impl Modules {
    /// Module knowledge from the crates and `tsconfig.json` files found.
    pub fn new(crates: Vec<Crate>, mut tsconfigs: Vec<TsConfig>) -> Self {
        // The deepest folder first: a folder's aliases come before those of the folders above.
        tsconfigs.sort_by_key(|c| std::cmp::Reverse(c.dir.len()));
        Self { crates, tsconfigs, packages: Vec::new(), declared: OnceLock::new() }
    }

    /// The same, knowing the workspace's npm packages (each `package.json`'s folder and name).
    pub fn with_packages(mut self, mut packages: Vec<(String, String)>) -> Self {
        packages.sort_by_key(|(dir, _)| std::cmp::Reverse(dir.len()));
        self.packages = packages;
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
    /// taking roots in crate order and modules breadth first.
    fn declared_modules(&self, rust_files: &BTreeMap<&str, &[ModuleDeclaration]>) -> HashMap<String, String> {
        let mut declared: HashMap<String, String> = HashMap::new();
        // (file, its module path, whether its submodules live in its own folder)
        let mut queue: VecDeque<(String, String, bool)> = self
            .crates
            .iter()
            .flat_map(|krate| crate_roots(krate, rust_files))
            .map(|root| (root.path, root.name, true))
            .collect();
        while let Some((file, module, owns_folder)) = queue.pop_front() {
            if declared.contains_key(&file) {
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
                    queue.push_back((child, child_module, owns));
                }
            }
            declared.insert(file, module);
        }
        declared
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
        if let Some(module) = self.declared.get().and_then(|declared| declared.get(path)) {
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
        let Some(current) = self.rust_module(from) else { return Vec::new() };
        let own_crate = current.split("::").next().unwrap_or_default().to_owned();
        let mut resolved = Vec::new();
        for path in expand_use(import) {
            let mut segments: Vec<String> = Vec::new();
            for (position, segment) in path.split("::").map(str::trim).enumerate() {
                match (position, segment) {
                    (0, "crate") => segments.push(own_crate.clone()),
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
            let relative = !matches!(path.split("::").next().map(str::trim), Some("crate" | "self" | "super" | ""));
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

    fn resolve_script(&self, from: &str, import: &str, exists: impl Fn(&str) -> bool) -> Option<String> {
        let dir = from.rsplit_once('/').map_or("", |(dir, _)| dir);
        let candidates: Vec<Option<String>> = if import.starts_with("./") || import.starts_with("../") {
            vec![join_inside(dir, import)]
        } else {
            let mut found = Vec::new();
            if let Some(config) = self.tsconfigs.iter().find(|c| contains(&c.dir, from)) {
                for (pattern, targets) in &config.paths {
                    let matched = match pattern.strip_suffix('*') {
                        Some(prefix) => import.strip_prefix(prefix),
                        None => (import == pattern).then_some(""),
                    };
                    if let Some(rest) = matched {
                        found.extend(targets.iter().map(|target| join_inside("", &target.replacen('*', rest, 1))));
                    }
                }
                if let Some(base) = &config.base_url {
                    found.push(join_inside(base, import));
                }
            }
            found.extend(self.package_candidates(import));
            found
        };
        // A candidate that climbs out of the workspace names no file the index could hold.
        candidates.iter().flatten().find_map(|candidate| script_file(candidate, &exists))
    }
}

/// What follows the workspace folder `folder` (`""` for the root) in `path`: `""` when it is
/// `path` itself, none when it is not a folder above it.
fn below_folder<'a>(path: &'a str, folder: &str) -> Option<&'a str> {
    if folder.is_empty() {
        return Some(path);
    }
    let rest = path.strip_prefix(folder)?;
    if rest.is_empty() { Some(rest) } else { rest.strip_prefix('/') }
}

/// Whether the workspace folder `dir` (`""` for the root) holds `path`.
fn contains(dir: &str, path: &str) -> bool {
    below_folder(path, dir).is_some_and(|rest| !rest.is_empty())
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

/// The file an extensionless script import names: itself, with an extension, or its folder's index.
fn script_file(candidate: &str, exists: impl Fn(&str) -> bool) -> Option<String> {
    // A source before its output, as the compiler looks: `./util.js` is `util.ts` when there is one.
    let (stem, extension) = candidate.rsplit_once('.').unwrap_or((candidate, ""));
    let sources = EMITTED_FROM.iter().find(|(emitted, _)| *emitted == extension).map_or(&[][..], |(_, from)| from);
    if let Some(source) = sources.iter().map(|source| format!("{stem}.{source}")).find(|path| exists(path)) {
        return Some(source);
    }
    if Language::of_path(candidate).is_some() && exists(candidate) {
        return Some(candidate.to_owned());
    }
    let with_extension = SCRIPT_EXTENSIONS.iter().map(|ext| format!("{candidate}.{ext}"));
    let index = SCRIPT_EXTENSIONS.iter().map(|ext| join(candidate, &format!("index.{ext}")));
    with_extension.chain(index).find(|path| exists(path))
}

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

/// The files of the longest prefix of `segments`, at least `shortest` long, that is a module
/// of the workspace.
fn longest_module<'a>(segments: &[String], modules: &'a ModuleTable, shortest: usize) -> Option<&'a Vec<String>> {
    (shortest.max(1)..=segments.len()).rev().find_map(|end| modules.get(&segments[..end].join("::")))
}

/// The paths a `use` argument names, braces expanded:
/// `crate::a::{b, c::D as E}` gives `crate::a::b` and `crate::a::c::D`.
fn expand_use(import: &str) -> Vec<String> {
    use_items(import).iter().map(|item| use_path(item)).collect()
}

/// The names a Rust `use` argument brings into scope, each with the path it stands for:
/// `crate::a::{b, c::D as E, d::{self}}` gives `b` for `crate::a::b`, `E` for `crate::a::c::D`
/// and `d` for `crate::a::d`. A glob brings no name.
pub fn rust_use_bindings(import: &str) -> Vec<(String, String)> {
    let mut bindings = Vec::new();
    for item in use_items(import) {
        let mut path = use_path(&item);
        if let Some(module) = path.strip_suffix("::self") {
            path = module.to_owned();
        }
        let alias = item.split_once(" as ").map(|(_, alias)| alias.trim().to_owned());
        let name = alias.unwrap_or_else(|| path.rsplit("::").next().unwrap_or_default().to_owned());
        let is_name = name.chars().next().is_some_and(|c| c.is_alphabetic() || c == '_')
            && name.chars().all(|c| c.is_alphanumeric() || c == '_');
        if is_name && !matches!(name.as_str(), "self" | "super" | "crate") {
            bindings.push((name, path));
        }
    }
    bindings
}

/// How deep braces inside a `use` are expanded.
const MAX_USE_DEPTH: usize = 8;

/// The items of a `use` argument, braces expanded, each whole with its prefix and alias:
/// `a::{b, c as d, e::{f}}` gives `a::b`, `a::c as d` and `a::e::f`.
fn use_items(import: &str) -> Vec<String> {
    use_items_within(import, MAX_USE_DEPTH)
}

fn use_items_within(import: &str, levels: usize) -> Vec<String> {
    let Some((prefix, rest)) = import.split_once('{').filter(|_| levels > 0) else {
        return vec![import.trim().to_owned()];
    };
    let inner = rest.strip_suffix('}').unwrap_or(rest);
    let mut items = Vec::new();
    let mut depth = 0_i32;
    let mut start = 0;
    for (at, c) in inner.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                items.push(&inner[start..at]);
                start = at + 1;
            }
            _ => {}
        }
    }
    items.push(&inner[start..]);
    items
        .into_iter()
        .flat_map(|item| use_items_within(&format!("{}{}", prefix.trim(), item.trim()), levels - 1))
        .collect()
}

/// One path of a `use`, without its alias or nested braces (`a::b::{c, d}` names at least `a::b`).
fn use_path(path: &str) -> String {
    let path = path.split(" as ").next().unwrap_or(path);
    let path = path.split('{').next().unwrap_or(path);
    path.chars().filter(|c| !c.is_whitespace()).collect::<String>().trim_end_matches("::").to_owned()
}

/// `dir` joined with a relative `path`, `.` and `..` resolved (never above the workspace).
pub(super) fn join(dir: &str, path: &str) -> String {
    resolve_dots(dir, path).0
}

/// `dir` joined with a relative `path`, `.` and `..` resolved; none when `..` climbs above the
/// workspace, where no indexed file can be.
fn join_inside(dir: &str, path: &str) -> Option<String> {
    let (joined, climbed_out) = resolve_dots(dir, path);
    (!climbed_out).then_some(joined)
}

/// `dir` joined with `path`, `.` and `..` resolved, and whether a `..` climbed above the
/// workspace (and was dropped).
fn resolve_dots(dir: &str, path: &str) -> (String, bool) {
    let mut parts: Vec<&str> = if dir.is_empty() { Vec::new() } else { dir.split('/').collect() };
    let mut climbed_out = false;
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." => climbed_out |= parts.pop().is_none(),
            part => parts.push(part),
        }
    }
    (parts.join("/"), climbed_out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn krate(dir: &str, name: &str) -> Crate {
        Crate { dir: dir.to_owned(), name: name.to_owned(), roots: Vec::new() }
    }

    fn rust_modules() -> (Modules, ModuleTable) {
        let modules =
            Modules::new(vec![krate("", "ws"), krate("tokio", "tokio"), krate("tokio-util", "tokio_util")], vec![]);
        let files = [
            "tokio/src/lib.rs",
            "tokio/src/sync/mod.rs",
            "tokio/src/sync/mpsc/mod.rs",
            "tokio/src/sync/mpsc/bounded.rs",
            "tokio/src/sync/semaphore.rs",
            "tokio-util/src/sync/poll_semaphore.rs",
            "tokio/tests/sync.rs",
        ];
        let mut table = ModuleTable::new();
        for file in files {
            if let Some(module) = modules.rust_module(file) {
                table.entry(module).or_default().push(file.to_owned());
            }
        }
        (modules, table)
    }

    #[test]
    fn rust_files_get_their_module_paths() {
        let (modules, _) = rust_modules();
        let module = |path: &str| modules.module_of(path, Language::Rust, &FileSymbols::default());
        assert_eq!(module("tokio/src/lib.rs"), "tokio");
        assert_eq!(module("tokio/src/sync/mpsc/mod.rs"), "tokio::sync::mpsc");
        assert_eq!(module("tokio/src/sync/mpsc/bounded.rs"), "tokio::sync::mpsc::bounded");
        assert_eq!(module("tokio-util/src/sync/poll_semaphore.rs"), "tokio_util::sync::poll_semaphore");
        assert_eq!(module("tokio/tests/sync.rs"), "tokio/tests", "outside src/: the folder");
    }

    #[test]
    fn rust_imports_resolve_to_module_files() {
        let (modules, table) = rust_modules();
        let resolve = |from: &str, import: &str| modules.resolve(from, Language::Rust, import, &table, |_| false);
        assert_eq!(
            resolve("tokio/src/sync/mpsc/bounded.rs", "crate::sync::semaphore::Semaphore"),
            ["tokio/src/sync/semaphore.rs"]
        );
        assert_eq!(
            resolve("tokio/src/sync/mpsc/bounded.rs", "super::super::semaphore"),
            ["tokio/src/sync/semaphore.rs"]
        );
        assert_eq!(resolve("tokio/src/sync/mpsc/mod.rs", "self::bounded::Sender"), ["tokio/src/sync/mpsc/bounded.rs"]);
        assert_eq!(resolve("tokio/src/sync/mpsc/mod.rs", "super::semaphore"), ["tokio/src/sync/semaphore.rs"]);
        assert_eq!(
            resolve(
                "tokio-util/src/sync/poll_semaphore.rs",
                "tokio::sync::{mpsc::{self, Sender}, semaphore::Semaphore as S}"
            ),
            ["tokio/src/sync/mpsc/mod.rs", "tokio/src/sync/semaphore.rs"]
        );
        assert_eq!(resolve("tokio/src/sync/mod.rs", "std::sync::Arc"), Vec::<String>::new(), "outside the workspace");
        assert_eq!(
            resolve("tokio/src/sync/mod.rs", "mpsc::bounded::Sender"),
            ["tokio/src/sync/mpsc/bounded.rs"],
            "a module the file declares, as Rust 2018 reads a path"
        );
        assert_eq!(resolve("tokio/src/lib.rs", "sync::semaphore::Semaphore"), ["tokio/src/sync/semaphore.rs"]);
        assert_eq!(resolve("tokio/src/sync/mod.rs", "tokio::sync::semaphore"), ["tokio/src/sync/semaphore.rs"]);
        assert_eq!(resolve("tokio/src/lib.rs", "net::TcpStream"), Vec::<String>::new(), "no such module");
        for malformed in ["", "::", "{", "}", "crate::{", "super::super::super::super", "a::{b,,}", "{{{}}}"] {
            let _ = resolve("tokio/src/sync/mpsc/bounded.rs", malformed);
        }
        assert_eq!(
            resolve("tokio/tests/sync.rs", "crate::sync"),
            Vec::<String>::new(),
            "a file outside src/ has no module"
        );
    }

    #[test]
    fn a_use_binds_its_last_names_or_their_aliases() {
        let bound = |import: &str| -> Vec<(String, String)> { rust_use_bindings(import) };
        let pair = |name: &str, path: &str| (name.to_owned(), path.to_owned());
        assert_eq!(bound("crate::sync"), [pair("sync", "crate::sync")]);
        assert_eq!(bound("crate::sync as locks"), [pair("locks", "crate::sync")]);
        assert_eq!(
            bound("crate::a::{b, c::D as E, d::{self}, e::*}"),
            [pair("b", "crate::a::b"), pair("E", "crate::a::c::D"), pair("d", "crate::a::d")]
        );
        assert_eq!(bound("super::{self, x}"), [pair("x", "super::x")], "`self` of `super` binds no name");
        assert_eq!(bound("crate::io::{util::{copy}}"), [pair("copy", "crate::io::util::copy")], "not `util`");
        for malformed in ["", "::", "{", "}", "a::{", "a as", " as b", "a::{b as }", "{{{}}}", "*"] {
            for (name, _) in bound(malformed) {
                assert!(name.chars().all(|c| c.is_alphanumeric() || c == '_') && !name.is_empty(), "{malformed:?}");
            }
        }
    }

    #[test]
    fn java_imports_resolve_to_classes_and_packages() {
        let mut table = ModuleTable::new();
        table.insert("com.y".into(), vec!["src/com/y/Foo.java".into(), "src/com/y/Bar.java".into()]);
        let modules = Modules::default();
        let resolve = |import: &str| modules.resolve("src/com/x/Imp.java", Language::Java, import, &table, |_| false);
        assert_eq!(resolve("com.y.Foo"), ["src/com/y/Foo.java"]);
        assert_eq!(resolve("com.y"), ["src/com/y/Foo.java", "src/com/y/Bar.java"], "a wildcard import");
        assert_eq!(resolve("com.y.Bar.baz"), ["src/com/y/Bar.java"], "a static import");
        assert_eq!(resolve("java.util.List"), Vec::<String>::new());
        assert_eq!(resolve(""), Vec::<String>::new());
    }

    #[test]
    fn script_imports_follow_relative_paths_and_tsconfig_aliases() {
        let mut text = r#"{
            // comments and trailing commas, as tsconfig.json allows
            "compilerOptions": { "baseUrl": ".", "paths": { "@app/*": ["src/app/*"], "~lib": ["lib/index"], }, },
        }"#
        .to_owned();
        let config = TsConfig::parse("web/tsconfig.json", &mut text).unwrap();
        assert_eq!(config.base_url.as_deref(), Some("web"));
        let modules = Modules::new(vec![], vec![config]);
        let files = [
            "web/src/app/core/thing.ts",
            "web/src/util.ts",
            "web/x/index.tsx",
            "web/lib/index.ts",
            "web/src/app/main.ts",
        ];
        let resolve = |from: &str, import: &str| {
            modules.resolve(from, Language::TypeScript, import, &ModuleTable::new(), |p| files.contains(&p))
        };
        assert_eq!(resolve("web/src/app/main.ts", "../util"), ["web/src/util.ts"]);
        assert_eq!(resolve("web/src/app/main.ts", "@app/core/thing"), ["web/src/app/core/thing.ts"]);
        assert_eq!(resolve("web/src/app/main.ts", "../../x"), ["web/x/index.tsx"], "a folder's index");
        assert_eq!(resolve("web/src/app/main.ts", "~lib"), ["web/lib/index.ts"]);
        assert_eq!(resolve("web/src/app/main.ts", "src/util"), ["web/src/util.ts"], "from baseUrl");
        assert_eq!(resolve("web/src/app/main.ts", "react"), Vec::<String>::new());
        assert_eq!(resolve("web/src/app/main.ts", "../../../../../etc/passwd"), Vec::<String>::new());
        assert_eq!(
            resolve("web/src/app/main.ts", "../../../../web/src/util"),
            Vec::<String>::new(),
            "a path that climbs out of the workspace names no workspace file, even one with its name"
        );
        assert_eq!(resolve("web/src/app/main.ts", "@app/../util"), ["web/src/util.ts"], "an alias with `..` after it");

        // A workspace's own packages are imported by name (a monorepo).
        let packages = Modules::new(vec![], vec![])
            .with_packages(vec![("packages/zod".into(), "zod".into()), ("packages/ui".into(), "@demo/ui".into())]);
        let files = ["packages/zod/src/v4/index.ts", "packages/zod/src/index.ts", "packages/ui/button.tsx"];
        let resolve = |import: &str| {
            packages
                .resolve("apps/web/main.ts", Language::TypeScript, import, &ModuleTable::new(), |p| files.contains(&p))
        };
        assert_eq!(resolve("zod"), ["packages/zod/src/index.ts"]);
        assert_eq!(resolve("zod/v4"), ["packages/zod/src/v4/index.ts"]);
        assert_eq!(resolve("@demo/ui/button"), ["packages/ui/button.tsx"], "sources beside the manifest");
        assert_eq!(resolve("zodiac"), Vec::<String>::new(), "a name is not a prefix of another");
        assert_eq!(resolve("@demo/ui/../../../../etc/passwd"), Vec::<String>::new());
        let module = |path: &str| modules.module_of(path, Language::TypeScript, &FileSymbols::default());
        assert_eq!(module("web/src/app/core/thing.ts"), "@app/core");
        assert_eq!(module("web/src/app/main.ts"), "@app");
        assert_eq!(module("web/src/util.ts"), "web/src");
        let specifier = |path: &str| modules.script_specifier(path);
        assert_eq!(specifier("web/src/app/core/thing.ts").as_deref(), Some("@app/core/thing"));
        assert_eq!(specifier("web/src/app/main.tsx").as_deref(), Some("@app/main"));
        assert_eq!(specifier("web/src/app/core/index.ts").as_deref(), Some("@app/core"), "a folder's index");
        assert_eq!(specifier("web/src/app/index.ts").as_deref(), Some("@app/index"), "`@app/*` does not match `@app`");
        assert_eq!(specifier("web/src/app/types.d.ts").as_deref(), Some("@app/types"));
        assert_eq!(specifier("web/lib/index.ts").as_deref(), Some("~lib"), "an alias without a wildcard");
        assert_eq!(specifier("web/lib/other.ts"), None);
        assert_eq!(specifier("web/src/util.ts"), None, "no alias covers it");
        assert_eq!(specifier("web/src/application.ts"), None, "a folder is not a prefix of a name");
        // ES and CommonJS modules are imported by their output's name.
        assert_eq!(specifier("web/src/app/worker.mts").as_deref(), Some("@app/worker.mjs"));
        assert_eq!(specifier("web/src/app/types.d.mts").as_deref(), Some("@app/types.mjs"));
        assert_eq!(specifier("web/src/app/legacy.cts").as_deref(), Some("@app/legacy.cjs"));
        assert_eq!(specifier("web/src/app/plain.mjs").as_deref(), Some("@app/plain.mjs"));
        assert_eq!(specifier("web/src/app/core/index.mts").as_deref(), Some("@app/core/index.mjs"), "not a folder's");
    }

    #[test]
    fn imports_that_name_the_compilers_output_find_its_source() {
        let modules = Modules::default();
        let files = ["src/util.ts", "src/util.js", "src/view.tsx", "src/worker.mts", "src/old.cts", "src/plain.js"];
        let resolve = |import: &str| {
            modules.resolve("src/main.ts", Language::TypeScript, import, &ModuleTable::new(), |p| files.contains(&p))
        };
        assert_eq!(resolve("./util.js"), ["src/util.ts"], "the source, not the output beside it");
        assert_eq!(resolve("./view.js"), ["src/view.tsx"]);
        assert_eq!(resolve("./view.jsx"), ["src/view.tsx"]);
        assert_eq!(resolve("./util.jsx"), ["src/util.ts"], "a `.jsx` name may stand for a `.ts` file too");
        assert_eq!(resolve("./worker.mjs"), ["src/worker.mts"]);
        assert_eq!(resolve("./old.cjs"), ["src/old.cts"]);
        assert_eq!(resolve("./plain.js"), ["src/plain.js"], "a script with no source is itself");
        assert_eq!(resolve("./worker.js"), Vec::<String>::new(), "an ES module is not a `.js` file's source");
    }

    #[test]
    fn an_alias_for_the_whole_project_covers_every_folder() {
        // The alias a Next.js project starts with, and one naming a file with its extension.
        let mut text = r#"{ "compilerOptions": { "paths": { "@/*": ["./*"], "~cfg": ["./config.ts"] } } }"#.to_owned();
        let config = TsConfig::parse("tsconfig.json", &mut text).unwrap();
        let modules = Modules::new(vec![], vec![config]);
        let files = ["components/button.tsx", "config.ts"];
        let resolve = |import: &str| {
            modules.resolve("app/page.tsx", Language::Tsx, import, &ModuleTable::new(), |p| files.contains(&p))
        };
        assert_eq!(resolve("@/components/button"), ["components/button.tsx"]);
        assert_eq!(modules.script_specifier("components/button.tsx").as_deref(), Some("@/components/button"));
        assert_eq!(modules.script_specifier("components/ui/index.ts").as_deref(), Some("@/components/ui"));
        assert_eq!(modules.script_specifier("config.ts").as_deref(), Some("~cfg"));
        let module = |path: &str| modules.module_of(path, Language::Tsx, &FileSymbols::default());
        assert_eq!(module("components/button.tsx"), "@/components");
        assert_eq!(module("page.tsx"), "@");
    }

    #[test]
    fn tsconfig_files_inherit_aliases_from_what_they_extend() {
        let dir = crate::testing::tree(&[
            ("tsconfig.base.json", b"{ \"compilerOptions\": { \"baseUrl\": \".\", \"paths\": { \"@shared/*\": [\"libs/shared/*\"] } } }" as &[u8]),
            ("apps/web/tsconfig.json", b"{ \"extends\": \"../../tsconfig.base.json\", \"compilerOptions\": { \"strict\": true } }"),
            ("apps/own/tsconfig.json", b"{ \"extends\": [\"../../tsconfig.base\"], \"compilerOptions\": { \"paths\": { \"~/*\": [\"./src/*\"] } } }"),
            ("apps/loop/tsconfig.json", b"{ \"extends\": \"./tsconfig.json\" }"),
            ("apps/gone/tsconfig.json", b"{ \"extends\": \"../missing.json\", \"compilerOptions\": { \"baseUrl\": \"src\" } }"),
        ]);
        let web = TsConfig::read(dir.path(), "apps/web/tsconfig.json").unwrap();
        assert_eq!(web.base_url.as_deref(), Some(""));
        assert_eq!(web.paths, [("@shared/*".to_owned(), vec!["libs/shared/*".to_owned()])]);
        let own = TsConfig::read(dir.path(), "apps/own/tsconfig.json").unwrap();
        assert_eq!(own.paths, [("~/*".to_owned(), vec!["apps/own/src/*".to_owned()])], "its own paths win");
        assert_eq!(own.base_url.as_deref(), Some(""), "the base's baseUrl fills the gap");
        assert!(TsConfig::read(dir.path(), "apps/loop/tsconfig.json").unwrap().paths.is_empty(), "a cycle ends");
        let gone = TsConfig::read(dir.path(), "apps/gone/tsconfig.json").unwrap();
        assert_eq!(gone.base_url.as_deref(), Some("apps/gone/src"));
        // What was followed, so that a change to it (or its creation) is read again.
        assert_eq!(web.extends, ["tsconfig.base.json"]);
        assert_eq!(gone.extends, ["apps/missing.json"]);
        // A base from a package is not in the workspace.
        let mut text = r#"{ "extends": "@tsconfig/node20/tsconfig.json" }"#.to_owned();
        assert!(TsConfig::parse("apps/pkg/tsconfig.json", &mut text).unwrap().extends.is_empty());
        // What climbs out of the workspace is left out, not clamped to a workspace folder.
        let mut text = r#"{ "extends": "../../base", "compilerOptions": { "baseUrl": "../..",
            "paths": { "@s/*": ["../../shared/*", "./*"] } } }"#
            .to_owned();
        let outside = TsConfig::parse("web/tsconfig.json", &mut text).unwrap();
        assert_eq!((outside.base_url, outside.extends), (None, vec![]));
        assert_eq!(outside.paths, [("@s/*".to_owned(), vec![])], "both targets start from the base above");
        let mut text = r#"{ "extends": ["./a", "../b.json", 3] }"#.to_owned();
        assert_eq!(
            TsConfig::parse("apps/pkg/tsconfig.json", &mut text).unwrap().extends,
            ["apps/pkg/a.json", "apps/b.json"]
        );
    }

    #[test]
    fn malformed_tsconfig_files_are_named_errors() {
        for text in ["", "{", "{\"compilerOptions\": }", "/* unclosed", "[1, 2", "\u{0}"] {
            let error = TsConfig::parse("tsconfig.json", &mut text.to_owned()).unwrap_err();
            assert!(error.to_string().starts_with("tsconfig.json is not valid JSON"), "{error}");
        }
        let dir = crate::testing::tree(&[("tsconfig.json", &vec![b' '; (MAX_TSCONFIG_BYTES + 1) as usize] as &[u8])]);
        let error = TsConfig::read(dir.path(), "tsconfig.json").unwrap_err();
        assert_eq!(error.to_string(), format!("tsconfig.json is larger than {MAX_TSCONFIG_BYTES} bytes"));
        assert!(
            TsConfig::read(dir.path(), "missing/tsconfig.json").unwrap_err().to_string().starts_with("cannot read")
        );
        // Odd but valid shapes read as far as they make sense.
        let config = TsConfig::parse(
            "tsconfig.json",
            &mut r#"{"compilerOptions": {"paths": {"a/*": "x", "b": [1]}}}"#.to_owned(),
        )
        .unwrap();
        assert_eq!(config.paths, [("a/*".to_owned(), vec![]), ("b".to_owned(), vec![])]);
    }

    use proptest::strategy::Strategy as _;

    fn import_text() -> impl proptest::strategy::Strategy<Value = String> {
        let pieces = proptest::sample::select(vec![
            "crate", "self", "super", "tokio", "sync", "::", "{", "}", ",", " as ", "*", ".", "..", "/", "./", "../",
            "@app", "~lib", "com", "y", "Foo", "index", "", " ", "é",
        ]);
        proptest::collection::vec(pieces.prop_map(str::to_owned), 0..12).prop_map(|pieces| pieces.concat())
    }

    proptest::proptest! {
        /// Any import, against any `paths` table, resolves without panicking, only to files
        /// the workspace has, and never looks for a file above the workspace.
        #[test]
        fn any_import_resolves_only_to_workspace_files(
            patterns in proptest::collection::vec((import_text(), proptest::collection::vec(import_text(), 0..3)), 0..4),
            base_url in proptest::option::of(import_text()),
            imports in proptest::collection::vec(import_text(), 1..8),
        ) {
            let paths: serde_json::Map<String, serde_json::Value> =
                patterns.into_iter().map(|(pattern, targets)| (pattern, serde_json::json!(targets))).collect();
            let mut text = serde_json::json!({ "compilerOptions": { "baseUrl": base_url, "paths": paths } }).to_string();
            let config = TsConfig::parse("web/tsconfig.json", &mut text).unwrap();
            let (rust, table) = rust_modules();
            let modules = Modules::new(rust.crates().to_vec(), vec![config]);
            let mut table = table;
            table.insert("com.y".into(), vec!["src/com/y/Foo.java".into()]);
            let scripts = ["web/src/app/core/thing.ts", "web/index.ts", "web/lib/index.ts"];
            let known: Vec<&String> = table.values().flatten().collect();
            for import in &imports {
                for (from, language) in [
                    ("tokio/src/sync/mpsc/bounded.rs", Language::Rust),
                    ("src/com/x/Imp.java", Language::Java),
                    ("web/src/app/main.ts", Language::TypeScript),
                ] {
                    let asked = std::cell::RefCell::new(Vec::new());
                    let exists = |p: &str| {
                        asked.borrow_mut().push(p.to_owned());
                        scripts.contains(&p)
                    };
                    for file in modules.resolve(from, language, import, &table, exists) {
                        proptest::prop_assert!(
                            known.contains(&&file) || scripts.contains(&file.as_str()),
                            "{import:?} from {from} gave {file}"
                        );
                    }
                    for candidate in asked.into_inner() {
                        proptest::prop_assert!(
                            !candidate.starts_with('/') && !candidate.split('/').any(|part| part == ".."),
                            "{import:?} from {from} looked for {candidate}"
                        );
                    }
                }
            }
        }
    }
}
