//! What code the workspace holds: its Java packages, Rust crates and npm packages, which tell
//! the names an issue writes of its code (a frame of a pasted stack trace, a Java name with
//! its package) from those of a library's or of the reporter's own program.

use std::collections::HashSet;

/// What code the workspace holds, which tells the frames of its own code in a pasted stack
/// trace from a library's or the reporter's own program's: the Java packages its files are in
/// (`at org.junit.runners.ParentRunner.run(..)` and `at JacksonBug.main(..)` are of none), the
/// Rust crates it builds (`  7: reedline::engine::Reedline::read_line` and `  9: clap_bug::main`
/// are of none) and the npm packages it holds (`at render (/app/node_modules/react-dom/..)` is
/// of none). Such a frame's names (`run`, `main`, `read_line`, `render`) name nothing of the
/// workspace, however many of its namesakes they would lift. What is not known leaves every
/// frame but the language's own library's (the JDK, Rust's `std`, `core` and `alloc`, Node's
/// `node:internal`) to be the workspace's.
#[derive(Debug, Clone, Default)]
pub struct OwnCode {
    java_packages: Option<HashSet<String>>,
    rust_crates: Option<HashSet<String>>,
    npm_packages: Option<HashSet<String>>,
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

    /// The names of the workspace's npm packages (`vite`, `@acme/ui`); none (no `package.json`
    /// found) leaves them unknown.
    pub fn npm_packages(self, packages: impl IntoIterator<Item = String>) -> Self {
        Self { npm_packages: known(packages), ..self }
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

    /// Whether a JavaScript frame of code at `location` (`/app/node_modules/vite/dist/x.js:3:9`,
    /// `node:internal/modules/cjs/loader:1105:14`) may be the workspace's: not Node's own, and,
    /// in `node_modules`, of a package the workspace holds.
    pub(super) fn may_hold_script(&self, location: &str) -> bool {
        if location.starts_with("node:") {
            return false;
        }
        let Some((_, installed)) = location.rsplit_once("node_modules/") else { return true };
        let mut parts = installed.split('/');
        let package = match (parts.next(), parts.next()) {
            (Some(scope), Some(name)) if scope.starts_with('@') => format!("{scope}/{name}"),
            (Some(name), _) => name.to_owned(),
            _ => return true,
        };
        self.npm_packages.as_ref().is_none_or(|packages| packages.contains(&package))
    }

    /// Whether a path the issue writes may name the workspace's code: none into the language's
    /// standard library (`std::io::Error`, `::core::fmt::Display`, `java.util.Map`), and a
    /// Java name written with its package (`org.springframework.stereotype.Component`,
    /// `com.acme.text.Pipeline.drain`) only where its package, the lower-case names before the
    /// first capitalised one, is one of the workspace's. That package rule holds only where
    /// the workspace holds Java files, and not for a value's fields (`this.config.Port`).
    pub(super) fn may_hold_qualified(&self, chain: &str) -> bool {
        if leads_into_standard_library(chain) {
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
}
