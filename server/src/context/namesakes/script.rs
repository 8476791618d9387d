//! Which of the workspace's definitions of one name a TypeScript or JavaScript module means by
//! it. A module names what another module defines only by importing it: `Button` of
//! `import { Button } from './ui'` is the `Button` that `./ui` gives (itself, or a module it
//! re-exports from, as a folder's `index.ts` does), not every `Button` of the workspace; one
//! imported from a package (`import { Node } from 'typescript'`) is none of the workspace's;
//! and a name the module defines and does not import is its own.

use std::collections::HashSet;

use super::{ImportedModules, Meant, ReExports};
use crate::context::IndexedFile;

/// How many modules deep a chain of re-exports is followed (`index.ts` of a package, then of
/// a folder, then the module that defines the name).
const MAX_RE_EXPORTS: usize = 3;

/// Which of `homes`, the paths of the script files that define `name` (sorted), the module
/// `user` means by the name:
/// - where it imports the name, the homes its import leads to, directly or through modules
///   that re-export from others (as far as [`MAX_RE_EXPORTS`] deep); none where every import of
///   the name is of a package the workspace does not hold (`react`, `@mui/material`); any where
///   an import leads into the workspace but to none of them, or to a module the index does not
///   hold (a relative import of a `.vue` file, an alias it does not know: `@/ui`);
/// - else, where it defines the name itself at its top level, its own;
/// - else any (a global, a method, or a name the module neither imports nor defines).
///
/// Of a single home, only whether the name comes from a package is worked out: the module means
/// that home or something the workspace does not define. `re_exports` holds what modules give
/// of the name through re-exports, for all the modules asked about.
pub(crate) fn meant(
    user: &IndexedFile,
    name: &str,
    homes: &[&str],
    modules: &dyn ImportedModules,
    re_exports: &ReExports,
) -> Meant {
    let bindings = &user.symbols.import_bindings;
    let start = bindings.partition_point(|(bound, _)| bound.as_str() < name);
    let specifiers: Vec<&str> =
        bindings[start..].iter().take_while(|(bound, _)| bound == name).map(|(_, from)| from.as_str()).collect();
    if specifiers.is_empty() {
        // A method of its own class is no binding of the name in the module's scope.
        let defines = user.symbols.definitions.iter().any(|d| d.name == name && d.container.is_none());
        return if defines { Meant::Own } else { Meant::Any };
    }
    let mut meant: Vec<usize> = Vec::new();
    let mut into_workspace = false;
    for specifier in specifiers {
        let files = modules.imported_files(user, specifier);
        if files.is_empty() {
            // A relative import the index does not hold (a stylesheet, a `.vue` file), or one
            // through an alias it does not know (`@/ui`), tells nothing; a package's is none of
            // the workspace's.
            match package_name(specifier) {
                Some(package) if !modules.holds_package(package) => {}
                _ => return Meant::Any,
            }
            continue;
        }
        into_workspace = true;
        if homes.len() > 1 {
            meant.extend(reached(&files, homes, modules, re_exports));
        }
    }
    match (into_workspace, homes.len() > 1 && !meant.is_empty()) {
        (false, _) => Meant::Homes(Vec::new()),
        (true, false) => Meant::Any,
        (true, true) => {
            meant.sort_unstable();
            meant.dedup();
            Meant::Homes(meant)
        }
    }
}

/// The positions among `homes` (the sorted paths of the modules that define a name) of those
/// reached from `files`: those among them, else through re-exports, as a module that does not
/// define the name is followed to the modules it imports from.
pub(crate) fn reached(
    files: &[String],
    homes: &[&str],
    modules: &dyn ImportedModules,
    re_exports: &ReExports,
) -> Vec<usize> {
    let mut found = Vec::new();
    for path in files {
        match homes.binary_search(&path.as_str()) {
            Ok(home) => found.push(home),
            Err(_) => found.extend(re_exports.of(path, || followed(path, homes, modules)).iter().copied()),
        }
    }
    found
}

/// The positions among `homes` of the modules the module at `path` imports from, directly or
/// through other modules that do not define the name, as far as [`MAX_RE_EXPORTS`] deep.
fn followed(path: &str, homes: &[&str], modules: &dyn ImportedModules) -> Vec<usize> {
    let mut found = Vec::new();
    let mut seen: HashSet<String> = HashSet::from([path.to_owned()]);
    let mut frontier = vec![path.to_owned()];
    for _ in 0..MAX_RE_EXPORTS {
        let mut next = Vec::new();
        for path in &frontier {
            let Some(file) = modules.indexed(path) else { continue };
            for specifier in &file.symbols.imports {
                for imported in modules.imported_files(file, specifier).iter() {
                    if !seen.insert(imported.clone()) {
                        continue;
                    }
                    match homes.binary_search(&imported.as_str()) {
                        Ok(home) => found.push(home),
                        Err(_) => next.push(imported.clone()),
                    }
                }
            }
        }
        if next.is_empty() {
            break;
        }
        frontier = next;
    }
    found
}

/// The npm package a module specifier names, as npm spells one (`react` of `react/jsx-runtime`,
/// `@mui/material` of `@mui/material/Button`, `node:fs`): none for a path (`./ui`, `/src/x`) or
/// a bundler's alias (`@/ui`, `~/ui`, `#ui`).
fn package_name(specifier: &str) -> Option<&str> {
    let first = specifier.chars().next()?;
    if !(first.is_ascii_alphanumeric() || first == '@') {
        return None;
    }
    let mut parts = specifier.splitn(3, '/');
    let name = match first {
        '@' => {
            let scope = parts.next().filter(|scope| scope.len() > 1)?;
            let name = parts.next().filter(|name| !name.is_empty())?;
            &specifier[..scope.len() + 1 + name.len()]
        }
        _ => parts.next()?,
    };
    Some(name)
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;
    use std::sync::Arc;

    use super::*;
    use crate::context::Language;
    use crate::context::namesakes::{ImportedModules, ReExports};

    /// A workspace of modules by path, whose relative imports resolve by adding `.ts` or
    /// `/index.ts`.
    struct Modules(HashMap<String, IndexedFile>);

    impl Modules {
        fn of(files: &[(&str, &str)]) -> Self {
            let files = files.iter().map(|(path, source)| {
                (path.to_string(), IndexedFile::from_source(path, Language::TypeScript, source.as_bytes()))
            });
            Self(files.collect())
        }
    }

    impl ImportedModules for Modules {
        fn imported_files(&self, file: &IndexedFile, specifier: &str) -> Arc<[String]> {
            let dir = file.path.rsplit_once('/').map_or("", |(dir, _)| dir);
            let Some(rest) = specifier.strip_prefix("./") else { return Arc::from([]) };
            let base = format!("{dir}/{rest}");
            [format!("{base}.ts"), format!("{base}/index.ts")].into_iter().filter(|p| self.0.contains_key(p)).collect()
        }

        fn indexed(&self, path: &str) -> Option<&IndexedFile> {
            self.0.get(path)
        }

        fn holds_package(&self, name: &str) -> bool {
            name == "@acme/ui"
        }
    }

    fn workspace() -> Modules {
        Modules::of(&[
            ("src/ui/button.ts", "export class Button {}\n"),
            ("src/ui/index.ts", "export { Button } from './button';\n"),
            ("src/forms/button.ts", "export class Button {}\n"),
        ])
    }

    const HOMES: [&str; 2] = ["src/forms/button.ts", "src/ui/button.ts"];

    fn meant_in(source: &str) -> Meant {
        let user = IndexedFile::from_source("src/app.ts", Language::TypeScript, source.as_bytes());
        meant(&user, "Button", &HOMES, &workspace(), &ReExports::default())
    }

    #[test]
    fn an_import_means_what_its_module_gives_through_re_exports() {
        assert_eq!(meant_in("import { Button } from './forms/button';\nnew Button();\n"), Meant::Homes(vec![0]));
        assert_eq!(meant_in("import { Button } from './ui';\nnew Button();\n"), Meant::Homes(vec![1]), "a barrel");
        assert_eq!(
            meant_in("import { Button } from '@/ui';\nnew Button();\n"),
            Meant::Any,
            "an alias the index does not know"
        );
        assert_eq!(
            meant_in("import { Button } from '@mui/material';\nnew Button();\n"),
            Meant::Homes(vec![]),
            "a package's"
        );
    }

    #[test]
    fn a_packages_name_is_none_of_the_workspaces_and_an_own_name_is_the_modules() {
        let user = IndexedFile::from_source(
            "src/app.ts",
            Language::TypeScript,
            b"import { Button } from '@mui/material';\nnew Button();\n",
        );
        assert_eq!(meant(&user, "Button", &HOMES[..1], &workspace(), &ReExports::default()), Meant::Homes(vec![]));
        assert_eq!(meant_in("class Button {}\nnew Button();\n"), Meant::Own);
        assert_eq!(meant_in("new Button();\n"), Meant::Any);
        assert_eq!(meant_in("import { Button } from './ui/styles.css';\nnew Button();\n"), Meant::Any);
        assert_eq!(
            meant_in("import { Button } from '@acme/ui/button';\nnew Button();\n"),
            Meant::Any,
            "the workspace's"
        );
    }

    proptest::proptest! {
        #[test]
        fn any_specifier_names_at_most_a_package_it_starts_with(specifier in "\\PC{0,40}") {
            if let Some(name) = package_name(&specifier) {
                proptest::prop_assert!(specifier.starts_with(name) && !name.is_empty());
            }
        }
    }

    #[test]
    fn a_specifier_names_a_package_as_npm_spells_one() {
        assert_eq!(package_name("react/jsx-runtime"), Some("react"));
        assert_eq!(package_name("@mui/material/Button"), Some("@mui/material"));
        assert_eq!(package_name("node:fs"), Some("node:fs"));
        for not_one in ["./ui", "../ui", "/src/x", "@/ui", "~/ui", "#ui", "@scope", ""] {
            assert_eq!(package_name(not_one), None, "{not_one}");
        }
    }
}
