//! What code the workspace holds: its Java packages, Rust crates, npm packages and script
//! files, which tell the names an issue writes of its code (a frame of a pasted stack trace, a
//! Java name with its package) from those of a library's or of the reporter's own program.

use std::collections::{HashMap, HashSet};

use super::keywords::Reserving;
use crate::context::Language;
use crate::context::walk::OUTPUT_DIRS;

/// What code the workspace holds, which tells the frames of its own code in a pasted stack
/// trace from a library's or the reporter's own program's: the Java packages its files are in
/// (`at org.junit.runners.ParentRunner.run(..)` and `at JacksonBug.main(..)` are of none), the
/// Rust crates it builds (`  7: reedline::engine::Reedline::read_line` and `  9: clap_bug::main`
/// are of none), the npm packages it holds (`at render (/app/node_modules/react-dom/..)` is
/// of none) and its script files (`at main (/home/me/app/index.js:3:9)` is of none where no
/// path of the workspace's is `index.*` or `app/index.*`). Such a frame's names (`run`,
/// `main`, `read_line`, `render`) name nothing of the workspace, however many of its
/// namesakes they would lift. What is not known leaves every
/// frame but the language's own library's (the JDK, Rust's `std`, `core` and `alloc`, Node's
/// `node:internal`) to be the workspace's.
#[derive(Debug, Clone, Default)]
pub struct OwnCode {
    java_packages: Option<HashSet<String>>,
    rust_crates: Option<HashSet<String>>,
    /// The folder of each of the workspace's npm packages (`""` for its root), by the
    /// package's name.
    npm_packages: Option<HashMap<String, String>>,
    script_files: Option<HashSet<String>>,
    /// The families of the languages the workspace's source is in, for the words they
    /// reserve; `None` where not known.
    reserving: Option<Vec<Reserving>>,
}

impl OwnCode {
    /// No workspace at hand: every frame but the standard libraries' may be the workspace's.
    pub fn unknown() -> Self {
        Self::default()
    }

    /// The workspace's Java packages (`com.acme.text`; the unnamed package as `""`), every one
    /// of them: a workspace of no Java file holds no Java frame's code.
    pub fn java_packages(self, packages: impl IntoIterator<Item = String>) -> Self {
        Self { java_packages: Some(packages.into_iter().collect()), ..self }
    }

    /// The names of the workspace's Rust crates and their targets (`clap_builder`); none
    /// (no manifest found) leaves them unknown.
    pub fn rust_crates(self, crates: impl IntoIterator<Item = String>) -> Self {
        Self { rust_crates: known(crates), ..self }
    }

    /// The workspace's npm packages, each its `package.json`'s folder (`""` for the root) and
    /// its name (`packages/zod`, `zod`; `@acme/ui`): whose installed copies are its code, and
    /// where their files lie. None (no `package.json` found) leaves them unknown.
    pub fn npm_packages(self, packages: impl IntoIterator<Item = (String, String)>) -> Self {
        let folders: HashMap<String, String> = packages.into_iter().map(|(folder, name)| (name, folder)).collect();
        Self { npm_packages: (!folders.is_empty()).then_some(folders), ..self }
    }

    /// Where in the workspace a path into an installed copy of one of its npm packages lies
    /// (`/app/node_modules/zod/lib/types.js` is `packages/zod/lib/types.js` where the workspace
    /// holds `zod` in `packages/zod`, `lib/types.js` where at its root): the package's files as
    /// published, its build output among them, which the ranking follows to their source.
    /// `None` for any other path.
    pub(super) fn in_own_package(&self, path: &str) -> Option<String> {
        let (_, installed) = path.rsplit_once("node_modules/")?;
        let (package, Some(rest)) = installed_package(installed) else { return None };
        let folder = self.npm_packages.as_ref()?.get(&package)?;
        Some(if folder.is_empty() { rest.to_owned() } else { format!("{folder}/{rest}") })
    }

    /// The paths of the workspace's JavaScript and TypeScript files (`src/main.ts`), relative
    /// to its root; none leaves them unknown.
    pub fn script_files(self, paths: impl IntoIterator<Item = String>) -> Self {
        let stems = paths.into_iter().map(|path| without_script_extension(&path).to_owned());
        Self { script_files: known(stems), ..self }
    }

    /// The languages of the workspace's source files; none leaves them unknown.
    pub fn languages(self, languages: impl IntoIterator<Item = Language>) -> Self {
        let mut reserving: Vec<Reserving> = Vec::new();
        for family in languages.into_iter().map(Reserving::of) {
            if !reserving.contains(&family) {
                reserving.push(family);
            }
        }
        Self { reserving: (!reserving.is_empty()).then_some(reserving), ..self }
    }

    /// Whether `word` is reserved by every language the workspace holds (by Rust, Java and the
    /// scripts' alike where they are not known), so that it names none of its code: `let` in a
    /// Rust workspace, but not `long`, which may be a Rust method's name.
    pub(super) fn reserves(&self, word: &str) -> bool {
        let families = self.reserving.as_deref().unwrap_or(&Reserving::ALL);
        families.iter().all(|family| family.reserves(word))
    }

    /// Whether a frame of `class_path` (`com.acme.Foo$Inner.run`) may be the workspace's code.
    pub(super) fn may_hold_class(&self, class_path: &str) -> bool {
        if is_jdk_class(class_path) {
            return false;
        }
        let Some(packages) = &self.java_packages else { return true };
        // The package is what stands before the class and the method.
        let mut parts = class_path.rsplitn(3, '.');
        let (_method, _class) = (parts.next(), parts.next());
        packages.contains(parts.next().unwrap_or_default())
    }

    /// Whether a JavaScript frame of code at `location` (`/app/node_modules/vite/dist/x.js`,
    /// `node:internal/modules/cjs/loader`; `/` its only separator) may be the
    /// workspace's: not Node's own; in `node_modules`, of a package the workspace holds;
    /// elsewhere, a file of the workspace's.
    pub(super) fn may_hold_script(&self, location: &str) -> bool {
        if location.starts_with("node:") {
            return false;
        }
        let Some((_, installed)) = location.rsplit_once("node_modules/") else {
            return self.may_hold_script_file(location);
        };
        let (package, _) = installed_package(installed);
        self.npm_packages.as_ref().is_none_or(|packages| packages.contains_key(&package))
    }

    /// Whether a script file at `location` outside `node_modules` may be one of the
    /// workspace's: a relative path (`src/main.ts:4:5`, as the workspace's own tools print
    /// it) may be, and an absolute one (`/home/me/app/index.js:3:9`, `C:/app/main.ts:1:2`)
    /// where the workspace holds a file its path ends with, by any extension of a script (a
    /// build's `/repo/build/src/index.js` is the workspace's `src/index.ts`), or where it runs
    /// through a folder named like build output (`/home/me/lib/dist/index.js`), which may be
    /// the workspace's own build.
    fn may_hold_script_file(&self, location: &str) -> bool {
        let Some(files) = &self.script_files else { return true };
        let is_absolute = location.starts_with('/') || location.get(1..3) == Some(":/");
        if !is_absolute {
            return true;
        }
        let file = location.trim_end_matches(|c: char| c.is_ascii_digit() || c == ':');
        if file.rsplit('/').skip(1).any(|folder| OUTPUT_DIRS.contains(&folder)) {
            return true;
        }
        let mut tail = without_script_extension(file);
        loop {
            if files.contains(tail) {
                return true;
            }
            match tail.split_once('/') {
                Some((_, rest)) => tail = rest,
                None => return false,
            }
        }
    }

    /// Whether a path the issue writes may name the workspace's code: none into the language's
    /// standard library (`std::io::Error`, `::core::fmt::Display`, `java.util.Map`), and a
    /// Java name written with its package (`org.springframework.stereotype.Component`,
    /// `com.acme.text.Pipeline.drain`) only where its package, the lower-case names before the
    /// first capitalised one, is one of the workspace's. That package rule holds only where
    /// the workspace holds Java files, and not for a value's fields (`this.config.Port`).
    pub(super) fn may_hold_qualified(&self, chain: &str) -> bool {
        if leads_into_standard_library(chain) || self.leads_into_script_runtime(chain) {
            return false;
        }
        let Some(packages) = self.java_packages.as_ref().filter(|packages| !packages.is_empty()) else {
            return true;
        };
        if chain.contains("::") {
            return true;
        }
        let parts: Vec<&str> = chain.split('.').collect();
        let Some(class) = parts.iter().position(|part| part.starts_with(|c: char| c.is_ascii_uppercase())) else {
            return true;
        };
        let lower_case = |part: &&str| {
            !part.is_empty() && part.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
        };
        // A value's fields (`this.config.Port`) are no package.
        if class < 2 || matches!(parts[0], "this" | "self" | "super") || !parts[..class].iter().all(lower_case) {
            return true;
        }
        packages.contains(&parts[..class].join("."))
    }

    /// Whether `chain` is a member of an object a script's runtime gives every module
    /// (`process.nextTick`, `JSON.parse`, `console.log`), in a workspace of scripts.
    fn leads_into_script_runtime(&self, chain: &str) -> bool {
        self.script_files.as_ref().is_some_and(|files| !files.is_empty())
            && chain.split_once('.').is_some_and(|(first, _)| SCRIPT_RUNTIME_OBJECTS.contains(&first))
    }

    /// Whether a file `path` the issue writes may be of the workspace's code: not Cargo's copy
    /// of a crate the workspace does not build
    /// (`/home/me/.cargo/registry/src/index.crates.io-6f17d22bba15001f/hyper-0.14.2/src/lib.rs`,
    /// which would name every `src/lib.rs`); Cargo's copy of one of its own crates (`clap-4.0.26/..`,
    /// a panic in the released version) may be.
    pub(super) fn may_hold_file(&self, path: &str) -> bool {
        let Some(crates) = &self.rust_crates else { return true };
        let Some((_, copied)) = path.split_once(".cargo/registry/src/") else { return true };
        let Some(versioned) = copied.split('/').nth(1) else { return true };
        // `tokio-util-0.7.1` and `clap-3.0.0-rc.7` are `tokio-util` and `clap`.
        let name = versioned
            .match_indices('-')
            .find(|(at, _)| versioned[at + 1..].starts_with(|c: char| c.is_ascii_digit()))
            .map_or(versioned, |(at, _)| &versioned[..at]);
        // A library's target is named with `_` for the package's `-`.
        crates.contains(name) || crates.contains(&name.replace('-', "_"))
    }

    /// Whether a Rust frame of the crate `name` may be the workspace's code.
    pub(super) fn may_hold_crate(&self, name: &str) -> bool {
        !RUST_STANDARD_CRATES.contains(&name) && self.rust_crates.as_ref().is_none_or(|crates| crates.contains(name))
    }
}

/// The names given, or `None` (not known) where none are.
fn known(names: impl IntoIterator<Item = String>) -> Option<HashSet<String>> {
    let names: HashSet<String> = names.into_iter().collect();
    (!names.is_empty()).then_some(names)
}

/// The npm package a path inside `node_modules/` (`installed`, what follows it) is in, and the
/// path within the package where one follows: `@acme/ui` and `dist/button.js` of
/// `@acme/ui/dist/button.js`, `vite` of `vite`.
fn installed_package(installed: &str) -> (String, Option<&str>) {
    match installed.split_once('/') {
        Some((scope, scoped)) if scope.starts_with('@') => match scoped.split_once('/') {
            Some((name, rest)) => (format!("{scope}/{name}"), Some(rest)),
            None => (installed.to_owned(), None),
        },
        Some((name, rest)) => (name.to_owned(), Some(rest)),
        None => (installed.to_owned(), None),
    }
}

/// `path` without the extension of a JavaScript or TypeScript file (`src/main` of
/// `src/main.ts`, `src/main.js` and `src/main.d.ts`); other paths as they are.
fn without_script_extension(path: &str) -> &str {
    // The longer first: `.d.ts` before `.ts`, `.mts` before `.ts`.
    const EXTENSIONS: [&str; 9] = [".d.ts", ".mts", ".cts", ".mjs", ".cjs", ".tsx", ".jsx", ".ts", ".js"];
    EXTENSIONS.iter().find_map(|extension| path.strip_suffix(extension)).unwrap_or(path)
}

/// Objects the runtime of JavaScript gives every module, in Node and in the browser, which
/// a workspace hardly defines again (not `Object`, `Promise` or `Buffer`, which libraries
/// do).
const SCRIPT_RUNTIME_OBJECTS: [&str; 10] =
    ["process", "console", "JSON", "Math", "Reflect", "Intl", "globalThis", "window", "document", "navigator"];

/// The crates of Rust's standard library.
const RUST_STANDARD_CRATES: [&str; 3] = ["std", "core", "alloc"];

/// The first names of the JDK's packages (`java.util.Map`); its frames show its internal
/// `sun.` classes as well.
const JDK_PACKAGES: [&str; 3] = ["java", "javax", "jdk"];

/// Whether the path `chain` starts in the language's standard library: Rust's `std`, `core`
/// or `alloc` (`std::io::Error`, `::core::fmt::Display`), the JDK's packages (`java.util.Map`).
fn leads_into_standard_library(chain: &str) -> bool {
    let chain = chain.trim_start_matches("::");
    match chain.split_once("::") {
        Some((first, _)) => RUST_STANDARD_CRATES.contains(&first),
        None => chain.split_once('.').is_some_and(|(first, _)| JDK_PACKAGES.contains(&first)),
    }
}

/// Whether a frame's class is the JDK's own (`java.util.ArrayList`, `javax.`, `jdk.`, `sun.`).
pub(super) fn is_jdk_class(class_path: &str) -> bool {
    class_path.split_once('.').is_some_and(|(first, _)| JDK_PACKAGES.contains(&first) || first == "sun")
}

#[cfg(test)]
mod tests {
    use super::OwnCode;

    #[test]
    fn a_java_name_is_the_workspaces_by_its_package() {
        let own = OwnCode::unknown().java_packages(["com.acme".to_owned()]);
        assert!(own.may_hold_qualified("com.acme.Foo.bar") && own.may_hold_qualified("com.acme.Foo$Inner"));
        assert!(!own.may_hold_qualified("org.lib.Foo") && !own.may_hold_qualified("com.acme.sub.Foo"));
        for any in ["Foo.bar", "this.config.Port", "self.config.Port", "tokio::sync::Semaphore", "org.lib.foo", "a.B"] {
            assert!(own.may_hold_qualified(any), "{any} names no package");
        }
        assert!(OwnCode::unknown().java_packages([]).may_hold_qualified("org.lib.Foo"), "no Java file to tell by");
        assert!(OwnCode::unknown().may_hold_qualified("org.lib.Foo"), "no workspace to tell by");
    }

    #[test]
    fn a_member_of_a_scripts_runtime_object_is_none_of_the_workspaces() {
        let scripts = OwnCode::unknown().script_files(["lib/query.js".to_owned()]);
        for runtime in ["process.nextTick", "JSON.parse", "console.log", "document.querySelector"] {
            assert!(!scripts.may_hold_qualified(runtime), "{runtime}");
        }
        for own in ["Query.prototype.exec", "async.whilst", "processor.run", "Promise.all", "process"] {
            assert!(scripts.may_hold_qualified(own), "{own}");
        }
        assert!(OwnCode::unknown().may_hold_qualified("process.nextTick"), "no scripts to tell by");
    }

    #[test]
    fn cargos_copy_of_a_crate_is_the_workspaces_only_for_its_own_crates() {
        let own = OwnCode::unknown().rust_crates(["tokio".to_owned(), "tokio_util".to_owned()]);
        let registry = "/home/me/.cargo/registry/src/index.crates.io-6f17d22bba15001f";
        for path in [
            format!("{registry}/tokio-1.2.0/src/io/ready.rs"),
            format!("{registry}/tokio-util-0.7.1/src/codec/mod.rs"),
            "tokio/src/io/ready.rs".to_owned(),
            "/home/me/app/src/main.rs".to_owned(),
        ] {
            assert!(own.may_hold_file(&path), "{path}");
        }
        for path in
            [format!("{registry}/hyper-0.14.2/src/lib.rs"), format!("{registry}/tokio-macros-2.0.0-rc.1/src/lib.rs")]
        {
            assert!(!own.may_hold_file(&path), "{path}");
        }
        assert!(
            OwnCode::unknown().may_hold_file(&format!("{registry}/hyper-0.14.2/src/lib.rs")),
            "no crates to tell by"
        );
    }

    #[test]
    fn an_installed_copy_of_a_workspace_package_is_its_folder() {
        let own = OwnCode::unknown()
            .npm_packages([(String::new(), "typeorm".to_owned()), ("packages/ui".to_owned(), "@acme/ui".to_owned())]);
        let place = |path: &str| own.in_own_package(path);
        assert_eq!(
            place("/app/node_modules/typeorm/query-builder/Alias.js").as_deref(),
            Some("query-builder/Alias.js")
        );
        assert_eq!(place("node_modules/@acme/ui/dist/button.js").as_deref(), Some("packages/ui/dist/button.js"));
        assert_eq!(place("/app/node_modules/x/node_modules/typeorm/index.js").as_deref(), Some("index.js"));
        for elsewhere in [
            "/app/node_modules/react/index.js",
            "/app/node_modules/@acme/other/a.js",
            "src/index.ts",
            "/a/node_modules/typeorm",
        ] {
            assert_eq!(place(elsewhere), None, "{elsewhere}");
        }
        assert!(
            own.may_hold_script("/app/node_modules/@acme/ui/dist/button.js:1:1")
                && !own.may_hold_script("/app/node_modules/react/index.js")
        );
    }

    #[test]
    fn a_script_file_is_the_workspaces_where_its_path_ends_with_one_of_the_workspaces() {
        let own = OwnCode::unknown().script_files(["src/main.ts".to_owned(), "lib/util.d.ts".to_owned()]);
        for location in [
            "/repo/src/main.ts:4:5",
            "/repo/build/src/main.js:4:5",
            "/repo/src/main.mjs",
            "C:/repo/lib/util.js:1:1",
            "/repo/lib/util.cjs:1:1",
            "src/other.ts:1:1",
            "/home/me/lib/dist/index.js:3:9",
            "C:/lib/build/cli.mjs:3:9",
        ] {
            assert!(own.may_hold_script_file(location), "{location}");
        }
        for location in
            ["/home/me/app/index.js:3:9", "/repo/main.ts:1:1", "C:/repo/src/main.rs.js:1:1", "/src/mainly.ts"]
        {
            assert!(!own.may_hold_script_file(location), "{location}");
        }
        assert!(own.may_hold_script("/app/node_modules/react-dom/index.js:1:1"), "the npm packages not known");
        assert!(OwnCode::unknown().may_hold_script_file("/home/me/app/index.js:3:9"), "no script file to tell by");
        assert_eq!(super::without_script_extension("a/b.mts"), "a/b");
        assert_eq!(super::without_script_extension("a/b.d.ts"), "a/b");
        assert_eq!(super::without_script_extension("a/b.rs"), "a/b.rs");
    }
}
