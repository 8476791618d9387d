//! Which of the workspace's Java types of one name a Java file means by it. Java resolves a
//! simple type name by the file's own types, then a single-type import of the name, then the
//! file's package, then its on-demand imports: where two packages each define a `Builder`
//! or a `Node`, a file's uses of the name mean the one its imports and package bring in, not
//! every namesake; and a name a file imports from a library (`import org.w3c.dom.Node;`)
//! means none of the workspace's.

use super::Meant;
use crate::context::{IndexedFile, Language};

/// What a Java file's names of types may mean: the types it defines, and its imports and
/// package, read once for all the names it uses.
pub(crate) struct JavaScope<'a> {
    file: &'a IndexedFile,
    /// The names of the types it defines, at any depth, sorted.
    own_types: Vec<&'a str>,
    /// The last names of its imports (a type's, a static member's, a package's), sorted.
    imported_names: Vec<&'a str>,
    /// Its imports, sorted.
    imports: Vec<&'a str>,
    /// Whether it imports a package whole (`import java.util.*;`, kept as `java.util`: a path
    /// whose last name is lower-case).
    imports_a_package_whole: bool,
}

impl<'a> JavaScope<'a> {
    /// The scope of `file`; `None` for a file in another language.
    pub(crate) fn of(file: &'a IndexedFile) -> Option<Self> {
        if file.language != Language::Java {
            return None;
        }
        let mut own_types: Vec<&str> =
            file.symbols.definitions.iter().filter(|d| d.kind.is_type()).map(|d| d.name.as_str()).collect();
        own_types.sort_unstable();
        let mut imported_names: Vec<&str> =
            file.symbols.imports.iter().filter_map(|import| import.rsplit('.').next()).collect();
        imported_names.sort_unstable();
        let mut imports: Vec<&str> = file.symbols.imports.iter().map(String::as_str).collect();
        imports.sort_unstable();
        let imports_a_package_whole =
            imported_names.iter().any(|last| last.starts_with(|c: char| c.is_ascii_lowercase()));
        Some(Self { file, own_types, imported_names, imports, imports_a_package_whole })
    }

    /// The file's imports that start with `prefix`.
    fn imports_within(&self, prefix: &'a str) -> impl Iterator<Item = &'a str> + '_ {
        let start = self.imports.partition_point(|import| *import < prefix);
        self.imports[start..].iter().copied().take_while(move |import| import.starts_with(prefix))
    }

    /// Which of `homes`, the Java files that define a type named `name`, the file means by
    /// the name:
    /// - where the file imports a type of the name (`import com.acme.Node;`, a nested one or a
    ///   static import too), the homes holding that type, none of them when it comes from a
    ///   library;
    /// - else, where the file defines a type of the name itself, that one;
    /// - else the homes in its package, those whose package it imports whole
    ///   (`import com.acme.*;`) and those whose top-level type it imports
    ///   (`import com.acme.Tree;`, for `Tree.Node`, or a `Node` it inherits from `Tree`);
    /// - else, where the file imports a package whole (`import java.util.*;`), none: the name
    ///   comes from there (`Map`, where the workspace's only `Map` is nested in a class of
    ///   another package);
    /// - else, where its imports and package tell nothing, any (a fully qualified name, a type
    ///   nested in a supertype's supertype).
    pub(crate) fn types_meant(&self, name: &str, homes: &[TypeHome<'_>]) -> Meant {
        let positions = |meant: &dyn Fn(&TypeHome<'_>) -> bool| -> Vec<usize> {
            homes.iter().enumerate().filter(|(_, home)| meant(home)).map(|(at, _)| at).collect()
        };
        if self.imported_names.binary_search(&name).is_ok() {
            let binds = |import: &&&str| import.strip_suffix(name).is_some_and(|rest| rest.ends_with('.'));
            let binding: Vec<&&str> = self.imports.iter().filter(binds).collect();
            return Meant::Homes(positions(&|home| binding.iter().any(|import| home.holds(import))));
        }
        if self.own_types.binary_search(&name).is_ok() {
            return Meant::Own;
        }
        let package = package_of(self.file);
        let meant = positions(&|home| {
            home.package == package
                || self.imports_within(home.package).any(|import| import == home.package || home.holds(import))
        });
        match meant.is_empty() {
            true if self.imports_a_package_whole => Meant::Homes(Vec::new()),
            true => Meant::Any,
            false => Meant::Homes(meant),
        }
    }
}

/// A Java file that defines a type of some name, as the imports of other files may name it.
pub(crate) struct TypeHome<'a> {
    package: &'a str,
    /// The names of its top-level types.
    top_level: Vec<&'a str>,
}

impl<'a> TypeHome<'a> {
    /// The home `file` is to its types.
    pub(crate) fn of(file: &'a IndexedFile) -> Self {
        let top_level = file
            .symbols
            .definitions
            .iter()
            .filter(|d| d.container.is_none() && d.kind.is_type())
            .map(|d| d.name.as_str())
            .collect();
        Self { package: package_of(file), top_level }
    }

    /// Whether the Java import `import` names one of its top-level types or something inside
    /// one: `com.acme.Tree` and `com.acme.Tree.Node` for a `Tree.java` of package `com.acme`.
    fn holds(&self, import: &str) -> bool {
        let rest = match self.package {
            "" => Some(import),
            package => import.strip_prefix(package).and_then(|rest| rest.strip_prefix('.')),
        };
        rest.and_then(|rest| rest.split('.').next()).is_some_and(|top| self.top_level.contains(&top))
    }
}

/// The Java package `file` declares, `""` for the unnamed one.
fn package_of(file: &IndexedFile) -> &str {
    file.symbols.package.as_deref().unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn java(path: &str, source: &str) -> IndexedFile {
        IndexedFile::from_source(path, Language::Java, source.as_bytes())
    }

    /// Two packages that each define a `Node`, one at top level and one inside `Tree`.
    fn namesakes() -> [IndexedFile; 2] {
        [
            java("src/com/acme/graph/Node.java", "package com.acme.graph;\npublic class Node {}\n"),
            java(
                "src/com/acme/tree/Tree.java",
                "package com.acme.tree;\npublic class Tree {\n  static class Node {}\n}\n",
            ),
        ]
    }

    /// What `src/com/acme/app/User.java` holding `user` means by `name`, of the types
    /// `definers` define.
    fn meant_among(definers: &[IndexedFile], user: &str, name: &str) -> Meant {
        let user = java("src/com/acme/app/User.java", user);
        JavaScope::of(&user)
            .expect("a Java file")
            .types_meant(name, &definers.iter().map(TypeHome::of).collect::<Vec<_>>())
    }

    fn meant(user: &str, name: &str) -> Meant {
        meant_among(&namesakes(), user, name)
    }

    #[test]
    fn an_import_of_the_name_says_which_namesake_is_meant() {
        assert_eq!(
            meant("package com.acme.app;\nimport com.acme.graph.Node;\nclass User { Node n; }\n", "Node"),
            Meant::Homes(vec![0])
        );
        assert_eq!(
            meant("package com.acme.app;\nimport com.acme.tree.Tree.Node;\nclass User { Node n; }\n", "Node"),
            Meant::Homes(vec![1])
        );
        assert_eq!(
            meant("package com.acme.app;\nimport org.w3c.dom.Node;\nclass User { Node n; }\n", "Node"),
            Meant::Homes(vec![]),
            "a library's type of the name is none of the workspace's"
        );
    }

    #[test]
    fn the_package_and_the_other_imports_say_which_namesakes_may_be_meant() {
        assert_eq!(meant("package com.acme.graph;\nclass User { Node n; }\n", "Node"), Meant::Homes(vec![0]));
        assert_eq!(
            meant("package com.acme.app;\nimport com.acme.graph.*;\nclass User {}\n", "Node"),
            Meant::Homes(vec![0])
        );
        assert_eq!(
            meant("package com.acme.app;\nimport com.acme.tree.Tree;\nclass User { Tree.Node n; }\n", "Node"),
            Meant::Homes(vec![1])
        );
        assert_eq!(
            meant("package com.acme.app;\nimport com.acme.tree.Tree;\nclass User extends Tree { Node n; }\n", "Node"),
            Meant::Homes(vec![1]),
            "a type nested in a supertype"
        );
        assert_eq!(meant("package com.acme.app;\nclass User { static class Node {} Node n; }\n", "Node"), Meant::Own);
        assert_eq!(
            meant("package com.acme.app;\nimport java.util.*;\nclass User { Node n; }\n", "Node"),
            Meant::Homes(vec![]),
            "a package imported whole brings in the name"
        );
        let single = [java("src/com/acme/graph/Node.java", "package com.acme.graph;\npublic class Node {}\n")];
        assert_eq!(
            meant_among(&single, "package com.acme.app;\nimport java.util.*;\nclass User { Node n; }\n", "Node"),
            Meant::Homes(vec![]),
            "a single home too"
        );
        assert_eq!(
            meant("package com.acme.app;\nclass User { com.acme.graph.Node n; }\n", "Node"),
            Meant::Any,
            "nothing tells"
        );
        let script = IndexedFile::from_source("web/user.ts", Language::TypeScript, b"let n: Node;\n");
        assert!(JavaScope::of(&script).is_none());
    }
}
