//! Which names a Rust file takes from the standard library: those its `use` declarations
//! bind to `std`, `core` or `alloc`, and the prelude's that it binds nowhere else. Those
//! uses are not uses of whatever the workspace defines under the same names (a crate's own
//! `type Result<T>`, tokio's `mod io`).

use std::collections::HashSet;

use crate::context::Language;
use crate::context::index::IndexedFile;
use crate::context::modules::rust_use_bindings;

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

/// What a Rust file binds names to, as far as the standard library is concerned.
pub(crate) struct StandardNames<'a> {
    file: &'a IndexedFile,
    /// Names a `use` binds to the standard crates' items (`Error` of `use std::error::Error`),
    /// or a written path takes from them (`Result` of `io::Result` after `use std::io`).
    from_std: HashSet<String>,
    /// Names a `use` binds, or a written path takes, from anywhere else.
    from_elsewhere: HashSet<String>,
    /// Whether a glob `use` outside the standard crates may bring any name in.
    glob_elsewhere: bool,
}

impl<'a> StandardNames<'a> {
    /// The bindings of `file` (none for a file in another language).
    pub(crate) fn of(file: &'a IndexedFile) -> Self {
        let mut names = Self { file, from_std: HashSet::new(), from_elsewhere: HashSet::new(), glob_elsewhere: false };
        if file.language != Language::Rust {
            return names;
        }
        for import in &file.symbols.imports {
            if import.contains('*') && !is_std_path(import) {
                names.glob_elsewhere = true;
            }
            for (name, path) in rust_use_bindings(import) {
                // `use tokio_stream::StreamExt as _;` brings a trait's methods in by its name.
                let name = match name.as_str() {
                    "_" => path.rsplit("::").next().unwrap_or_default().to_owned(),
                    _ => name,
                };
                match is_std_path(&path) {
                    true => names.from_std.insert(name),
                    false => names.from_elsewhere.insert(name),
                };
            }
        }
        for path in &file.symbols.written_paths {
            let (first, last) =
                (path.split("::").next().unwrap_or_default(), path.rsplit("::").next().unwrap_or_default());
            let std = names.from_std.contains(first) && !names.from_elsewhere.contains(first);
            match std {
                true => names.from_std.insert(last.to_owned()),
                false => names.from_elsewhere.insert(last.to_owned()),
            };
        }
        names
    }

    /// Whether the trait `name` is in scope in the file for its methods to be called: the file
    /// defines it, binds it with a `use` (`as _` too), or may glob it in (any file outside Rust).
    pub(crate) fn has_in_scope(&self, name: &str) -> bool {
        self.file.language != Language::Rust
            || self.glob_elsewhere
            || self.from_elsewhere.contains(name)
            || self.file.symbols.definitions.iter().any(|definition| definition.name == name)
    }

    /// Whether the file's uses of `name` mean the standard library's item: a Rust file that
    /// binds `name` to it, or uses a prelude name that it neither defines, nor binds or writes a
    /// path to from elsewhere, nor may glob in.
    pub(crate) fn means_std(&self, name: &str) -> bool {
        self.file.language == Language::Rust
            && !self.from_elsewhere.contains(name)
            && (self.from_std.contains(name) || (RUST_PRELUDE.binary_search(&name).is_ok() && !self.glob_elsewhere))
            && !self.file.symbols.definitions.iter().any(|definition| definition.name == name)
    }
}

/// Whether a Rust path starts at a standard crate (`std::io`, `::core::fmt`).
fn is_std_path(path: &str) -> bool {
    let first = path.trim().trim_start_matches("::").split("::").next().unwrap_or_default().trim();
    matches!(first, "std" | "core" | "alloc")
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
        let names = StandardNames::of(&plain);
        for name in ["Result", "Error", "io", "Debug", "Box", "Ok"] {
            assert!(names.means_std(name), "{name}");
        }
        assert!(!names.means_std("Runtime"));

        let own = file("use crate::error::{Error, Result};\nuse super::io;\nfn f() -> Result<()> { Ok(()) }\n");
        let names = StandardNames::of(&own);
        for name in ["Result", "Error", "io"] {
            assert!(!names.means_std(name), "{name}");
        }
        assert!(names.means_std("Ok"));

        // A path written through a module of the workspace, a glob and a definition of its own.
        let written = file("fn f() -> task::Result<()> { todo!() }\n");
        assert!(!StandardNames::of(&written).means_std("Result"));
        let globbed = file("use super::*;\nfn f() -> Result<()> { todo!() }\n");
        assert!(!StandardNames::of(&globbed).means_std("Result"));
        let defined = file("pub type Result<T> = std::result::Result<T, Error>;\n");
        assert!(!StandardNames::of(&defined).means_std("Result"));
        let java = IndexedFile::from_source("A.java", Language::Java, b"class A { Result r; }");
        assert!(!StandardNames::of(&java).means_std("Result"));
    }

    #[test]
    fn a_trait_is_in_scope_where_it_is_defined_bound_or_globbed() {
        let file = |source: &str| IndexedFile::from_source("src/a.rs", Language::Rust, source.as_bytes());
        let bound = file("use tokio_stream::StreamExt as _;\nuse crate::ext::{Gather, Pick as Choose};\n");
        let names = StandardNames::of(&bound);
        for name in ["StreamExt", "Gather", "Choose"] {
            assert!(names.has_in_scope(name), "{name}");
        }
        assert!(!names.has_in_scope("Pick") && !names.has_in_scope("Other"));
        assert!(StandardNames::of(&file("use crate::ext::*;\n")).has_in_scope("Other"));
        assert!(!StandardNames::of(&file("use std::io::*;\n")).has_in_scope("Other"));
        assert!(StandardNames::of(&file("pub trait Other {}\n")).has_in_scope("Other"));
    }
}
