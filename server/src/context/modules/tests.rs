use super::tsconfig::MAX_TSCONFIG_BYTES;
use super::*;

fn krate(dir: &str, name: &str) -> Crate {
    Crate { dir: dir.to_owned(), name: name.to_owned(), roots: Vec::new(), dependencies: Vec::new() }
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
    assert_eq!(resolve("tokio/src/sync/mpsc/bounded.rs", "super::super::semaphore"), ["tokio/src/sync/semaphore.rs"]);
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
    assert_eq!(
        resolve("tokio/tests/sync.rs", "tokio::sync::{mpsc::Sender, semaphore::Semaphore}"),
        ["tokio/src/sync/mpsc/mod.rs", "tokio/src/sync/semaphore.rs"],
        "but reaches crates by their names"
    );
}

#[test]
fn a_rust_path_names_a_module_only_as_a_whole() {
    let (modules, table) = rust_modules();
    let named = |from: &str, path: &str| modules.rust_module_named(from, path, &table).cloned().unwrap_or_default();
    let semaphore = ["tokio/src/sync/semaphore.rs"];
    assert_eq!(named("tokio/src/sync/mpsc/bounded.rs", "crate::sync::semaphore"), semaphore);
    assert_eq!(named("tokio/src/sync/mpsc/bounded.rs", "super::super::semaphore"), semaphore);
    assert_eq!(named("tokio/src/sync/mod.rs", "semaphore"), semaphore, "a module the file declares");
    assert_eq!(named("tokio-util/src/sync/poll_semaphore.rs", "tokio::sync::semaphore"), semaphore);
    assert_eq!(named("tokio/tests/sync.rs", "tokio::sync::semaphore"), semaphore, "a crate by its name from a test");
    assert_eq!(named("tokio/src/lib.rs", "crate"), ["tokio/src/lib.rs"]);
    for item_or_nothing in
        ["crate::sync::semaphore::Semaphore", "std::sync", "net", "", "::", "super::super::super::super::super"]
    {
        assert!(named("tokio/src/sync/mpsc/bounded.rs", item_or_nothing).is_empty(), "{item_or_nothing}");
    }
    assert!(named("tokio/tests/sync.rs", "crate::sync").is_empty(), "a file outside src/ has no module");
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
    let files =
        ["web/src/app/core/thing.ts", "web/src/util.ts", "web/x/index.tsx", "web/lib/index.ts", "web/src/app/main.ts"];
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
        packages.resolve("apps/web/main.ts", Language::TypeScript, import, &ModuleTable::new(), |p| files.contains(&p))
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
fn the_folder_itself_and_its_parent_are_relative_imports_of_their_index() {
    let modules = Modules::default();
    let files = ["src/index.ts", "src/components/index.ts", "src/components/Button.test.ts", "lib/index.js"];
    let resolve = |modules: &Modules, from: &str, import: &str| {
        modules.resolve(from, Language::TypeScript, import, &ModuleTable::new(), |p| files.contains(&p))
    };
    assert_eq!(resolve(&modules, "src/components/Button.test.ts", "."), ["src/components/index.ts"]);
    assert_eq!(resolve(&modules, "src/components/Button.test.ts", ".."), ["src/index.ts"]);
    assert_eq!(resolve(&modules, "lib/test/index.test.js", ".."), ["lib/index.js"], "require('..')");
    // With a `baseUrl`, `.` is still the importing file's folder, not the base's.
    let mut text = r#"{ "compilerOptions": { "baseUrl": "src" } }"#.to_owned();
    let modules = Modules::new(vec![], vec![TsConfig::parse("tsconfig.json", &mut text).unwrap()]);
    assert_eq!(resolve(&modules, "src/components/Button.test.ts", "."), ["src/components/index.ts"]);
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
fn the_alias_with_the_longest_prefix_wins_and_a_star_may_stand_inside() {
    let mut text = r#"{ "compilerOptions": { "paths": {
        "@app/*": ["src/app/*"], "@app/core/*": ["packages/core/src/*"], "~feature/*/entry": ["features/*/main"]
    } } }"#
        .to_owned();
    let config = TsConfig::parse("tsconfig.json", &mut text).unwrap();
    let modules = Modules::new(vec![], vec![config]);
    let files = ["src/app/core/log.ts", "packages/core/src/log.ts", "features/cart/main.tsx"];
    let resolve = |import: &str| {
        modules.resolve("src/main.ts", Language::TypeScript, import, &ModuleTable::new(), |p| files.contains(&p))
    };
    assert_eq!(resolve("@app/core/log"), ["packages/core/src/log.ts"], "as TypeScript picks, whatever the key order");
    assert_eq!(resolve("~feature/cart/entry"), ["features/cart/main.tsx"]);
    assert_eq!(resolve("~feature/cart/other"), Vec::<String>::new());
}

#[test]
fn a_hash_alias_of_a_tsconfig_comes_before_the_packages_own_import_map() {
    // Some projects alias with `#` in `paths` (`#/*`, `#shared/*`), which TypeScript tries first.
    let mut text = r##"{ "compilerOptions": { "paths": { "#/*": ["./src/*"] } } }"##.to_owned();
    let config = TsConfig::parse("tsconfig.json", &mut text).unwrap();
    let manifest = serde_json::json!({ "imports": { "#/*": "./lib/*.js", "#db": "./lib/db.js" } });
    let modules = Modules::new(vec![], vec![config]).with_package_imports(vec![PackageImports::of("", &manifest)]);
    let files = ["src/utils/log.ts", "lib/utils/log.js", "lib/db.js"];
    let resolve = |import: &str| {
        modules.resolve("src/main.ts", Language::TypeScript, import, &ModuleTable::new(), |p| files.contains(&p))
    };
    assert_eq!(resolve("#/utils/log"), ["src/utils/log.ts"], "the alias first");
    assert_eq!(resolve("#db"), ["lib/db.js"], "then the package's map");
}

#[test]
fn paths_are_resolved_against_the_base_url_in_force_after_extends() {
    let dir = crate::testing::tree(&[
        ("tsconfig.base.json", b"{ \"compilerOptions\": { \"baseUrl\": \".\" } }" as &[u8]),
        ("apps/web/tsconfig.json", b"{ \"extends\": \"../../tsconfig.base.json\", \"compilerOptions\": { \"paths\": { \"@/*\": [\"apps/web/src/*\"] } } }"),
        ("shared.json", b"{ \"compilerOptions\": { \"paths\": { \"@/*\": [\"./src/*\"] } } }"),
        ("apps/admin/tsconfig.json", b"{ \"extends\": \"../../shared.json\", \"compilerOptions\": { \"baseUrl\": \".\" } }"),
        ("apps/plain/tsconfig.json", b"{ \"extends\": \"../../shared.json\" }"),
    ]);
    let paths = |relative: &str| TsConfig::read(dir.path(), relative).unwrap().paths;
    let alias = |target: &str| vec![("@/*".to_owned(), vec![target.to_owned()])];
    assert_eq!(paths("apps/web/tsconfig.json"), alias("apps/web/src/*"), "the base's baseUrl, the root");
    assert_eq!(paths("apps/admin/tsconfig.json"), alias("apps/admin/src/*"), "the app's own baseUrl");
    assert_eq!(paths("apps/plain/tsconfig.json"), alias("src/*"), "no baseUrl: the file that sets them");
}

#[test]
fn a_solution_configuration_takes_the_aliases_of_the_projects_it_references() {
    // Vite's layout: `tsconfig.json` lists the projects; the app's holds the aliases.
    let dir = crate::testing::tree(&[
        ("tsconfig.json", b"{ \"files\": [], \"references\": [{ \"path\": \"./tsconfig.node.json\" }, { \"path\": \"./tsconfig.app.json\" }] }" as &[u8]),
        ("tsconfig.node.json", b"{ \"compilerOptions\": { \"strict\": true }, \"include\": [\"vite.config.ts\"] }"),
        ("tsconfig.app.json", b"{ \"compilerOptions\": { \"baseUrl\": \".\", \"paths\": { \"@/*\": [\"./src/*\"] } }, \"include\": [\"src\"] }"),
        ("src/components/ui/button.tsx", b"export function Button() {}\n"),
    ]);
    let config = TsConfig::read(dir.path(), "tsconfig.json").unwrap();
    assert_eq!(config.paths, [("@/*".to_owned(), vec!["src/*".to_owned()])]);
    assert_eq!(config.extends, ["tsconfig.node.json", "tsconfig.app.json"], "read again when they change");
    let modules = Modules::new(vec![], vec![config]);
    let files = ["src/components/ui/button.tsx"];
    let resolved = modules
        .resolve("src/App.tsx", Language::Tsx, "@/components/ui/button", &ModuleTable::new(), |p| files.contains(&p));
    assert_eq!(resolved, files);
    // A reference cycle ends.
    let looped = crate::testing::tree(&[
        ("tsconfig.json", b"{ \"references\": [{ \"path\": \".\" }, { \"path\": \"web\" }] }" as &[u8]),
        ("web/tsconfig.json", b"{ \"references\": [{ \"path\": \"..\" }] }"),
    ]);
    let config = TsConfig::read(looped.path(), "tsconfig.json").unwrap();
    assert!(config.paths.is_empty());
    assert_eq!(config.extends, ["web/tsconfig.json"], "a folder's configuration, itself not again");
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
    // Resolved against the `baseUrl` in force, the base's, as TypeScript does.
    assert_eq!(own.paths, [("~/*".to_owned(), vec!["src/*".to_owned()])], "its own paths win");
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
    assert!(TsConfig::read(dir.path(), "missing/tsconfig.json").unwrap_err().to_string().starts_with("cannot read"));
    // Odd but valid shapes read as far as they make sense.
    let config =
        TsConfig::parse("tsconfig.json", &mut r#"{"compilerOptions": {"paths": {"a/*": "x", "b": [1]}}}"#.to_owned())
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
