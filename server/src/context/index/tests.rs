use super::*;
use crate::context::walk::Found;

fn workspace(files: &[(&str, &[u8])]) -> tempfile::TempDir {
    crate::testing::tree(files)
}

/// The paths `index` holds, in order.
fn indexed_paths(index: &Index) -> Vec<&str> {
    index.files().map(|f| f.path.as_str()).collect()
}

#[test]
fn a_module_its_crate_keeps_to_tests_is_test_code_with_the_modules_below_it() {
    let dir = workspace(&[
        ("Cargo.toml", b"[package]\nname = \"kit\"\n"),
        ("src/lib.rs", b"mod fs;\n#[cfg(test)]\nmod mocks;\n"),
        ("src/fs.rs", b"pub fn open() {}\n"),
        ("src/mocks.rs", b"mod file;\npub fn open() {}\n"),
        ("src/mocks/file.rs", b"pub struct MockFile;\n"),
        ("src/orphan.rs", b""),
    ]);
    let index = Index::build(dir.path(), None);
    let test_code = |path: &str| index.is_test_file(index.file(path).unwrap());
    assert!(!test_code("src/lib.rs") && !test_code("src/fs.rs") && !test_code("src/orphan.rs"));
    assert!(test_code("src/mocks.rs") && test_code("src/mocks/file.rs"));
}

#[test]
fn rust_modules_follow_mod_declarations_path_attributes_and_targets() {
    let dir = workspace(&[
        ("Cargo.toml", b"[package]\nname = \"kit\"\n"),
        (
            "src/lib.rs",
            b"mod net;\n#[cfg(unix)]\n#[path = \"platform/unix.rs\"]\nmod sys;\nmod outer { pub mod inner; }\nmod r#try;\n",
        ),
        ("src/net.rs", b"mod tcp;\n#[path = \"wire.rs\"] mod wire;\nmod proto { mod frame; }\nuse crate::sys::helpers;\n"),
        ("src/net/tcp.rs", b"use super::wire::Frame;\n"),
        ("src/wire.rs", b""),
        ("src/net/proto/frame.rs", b""),
        ("src/platform/unix.rs", b"mod helpers;\n"),
        ("src/platform/helpers.rs", b""),
        ("src/outer/inner.rs", b""),
        ("src/try.rs", b""),
        ("src/orphan/x.rs", b""),
        ("src/bin/tool.rs", b"mod common;\nuse kit::outer;\n"),
        ("src/bin/common/mod.rs", b"use crate::common::Shared;\n"),
        ("src/bin/multi-word/main.rs", b""),
        ("flat/Cargo.toml", b"[package]\nname = \"flat\"\n[lib]\nname = \"flat-core\"\npath = \"lib.rs\"\n[[bin]]\nname = \"flat-cli\"\npath = \"cli/main.rs\"\n"),
        ("flat/lib.rs", b"pub mod util;\n"),
        ("flat/util.rs", b""),
        ("flat/cli/main.rs", b"mod args;\n"),
        ("flat/cli/args.rs", b""),
        ("tool/Cargo.toml", b"[package]\nname = \"tool-find\"\n[[bin]]\nname = \"tl\"\npath = \"src/main.rs\"\n"),
        ("tool/src/main.rs", b"mod walk;\n"),
        ("tool/src/walk.rs", b""),
    ]);
    let mut index = Index::build(dir.path(), None);
    let module = |index: &Index, path: &str| index.module_of(path).unwrap();
    for (path, expected) in [
        ("src/lib.rs", "kit"),
        ("src/net.rs", "kit::net"),
        ("src/net/tcp.rs", "kit::net::tcp"),
        ("src/wire.rs", "kit::net::wire"),
        ("src/net/proto/frame.rs", "kit::net::proto::frame"),
        ("src/platform/unix.rs", "kit::sys"),
        ("src/platform/helpers.rs", "kit::sys::helpers"),
        ("src/outer/inner.rs", "kit::outer::inner"),
        ("src/try.rs", "kit::try"),
        ("src/orphan/x.rs", "kit::orphan::x"),
        ("src/bin/tool.rs", "tool"),
        ("src/bin/common/mod.rs", "tool::common"),
        ("src/bin/multi-word/main.rs", "multi_word"),
        ("flat/lib.rs", "flat_core"),
        ("flat/util.rs", "flat_core::util"),
        ("flat/cli/main.rs", "flat_cli"),
        ("flat/cli/args.rs", "flat_cli::args"),
        ("tool/src/main.rs", "tl"),
        ("tool/src/walk.rs", "tl::walk"),
    ] {
        assert_eq!(module(&index, path), expected, "{path}");
    }
    let tool = index.crates().iter().find(|krate| krate.dir == "tool").unwrap();
    let roots: Vec<(&str, &str)> = tool.roots.iter().map(|r| (r.name.as_str(), r.path.as_str())).collect();
    assert_eq!(roots, [("tool_find", "tool/src/lib.rs"), ("tl", "tool/src/main.rs")], "a binary named once");
    let table = index.module_table();
    let resolved = |index: &Index, path: &str| -> Vec<String> {
        let file = index.file(path).unwrap();
        file.symbols.imports.iter().flat_map(|import| index.resolve_import(file, import, &table)).collect()
    };
    assert_eq!(resolved(&index, "src/net.rs"), ["src/platform/helpers.rs"]);
    assert_eq!(resolved(&index, "src/net/tcp.rs"), ["src/wire.rs"], "`super` of a `#[path]` module");
    assert_eq!(resolved(&index, "src/bin/tool.rs"), ["src/lib.rs"], "the library, from a binary");
    assert_eq!(resolved(&index, "src/bin/common/mod.rs"), Vec::<String>::new(), "`crate` is the binary");

    // An edit that drops a declaration takes the file back to the path it lives at.
    index.update("src/lib.rs", b"mod net;\nmod outer { pub mod inner; }\nmod r#try;\n");
    assert_eq!(module(&index, "src/platform/unix.rs"), "kit::platform::unix");
    index.update("src/lib.rs", b"#[path = \"platform/unix.rs\"]\nmod sys;\n");
    assert_eq!(module(&index, "src/platform/unix.rs"), "kit::sys");
    index.remove("src/lib.rs");
    assert_eq!(module(&index, "src/platform/helpers.rs"), "kit::platform::helpers", "no root, no declarations");
}

#[test]
fn a_javascript_project_takes_its_aliases_from_jsconfig() {
    let dir = workspace(&[
        ("web/jsconfig.json", br#"{ "compilerOptions": { "baseUrl": ".", "paths": { "@/*": ["src/*"] } } }"#),
        ("web/src/app.js", b"import { Button } from '@/components/button';\n"),
        ("web/src/components/button.js", b"export function Button() {}\n"),
        // Of a folder with both, TypeScript's configuration is the project's.
        ("both/jsconfig.json", br#"{ "compilerOptions": { "paths": { "@js/*": ["./*"] } } }"#),
        ("both/tsconfig.json", br#"{ "compilerOptions": { "paths": { "@ts/*": ["./*"] } } }"#),
        ("both/ui/menu.ts", b"export const menu = 1;\n"),
    ]);
    let mut index = Index::build(dir.path(), None);
    let app = index.file("web/src/app.js").expect("indexed").clone();
    assert_eq!(
        index.resolve_import(&app, "@/components/button", &index.module_table()),
        ["web/src/components/button.js"]
    );
    assert_eq!(index.module_of("web/src/components/button.js").as_deref(), Some("@/components"));
    assert_eq!(index.module_of("both/ui/menu.ts").as_deref(), Some("@ts/ui"));

    // Saved later, it is read again as a tsconfig.json is.
    std::fs::write(
        dir.path().join("web/jsconfig.json"),
        r#"{ "compilerOptions": { "paths": { "~/*": ["./src/*"] } } }"#,
    )
    .unwrap();
    assert!(shapes_the_index("web/jsconfig.json") && index.concerns("web/jsconfig.json"));
    index.refresh_from_disk("web/jsconfig.json");
    assert_eq!(index.module_of("web/src/components/button.js").as_deref(), Some("~/components"));
    std::fs::remove_file(dir.path().join("both/tsconfig.json")).unwrap();
    index.refresh_from_disk("both/tsconfig.json");
    assert_eq!(index.module_of("both/ui/menu.ts").as_deref(), Some("@js/ui"), "the jsconfig.json left");
}

#[test]
fn a_crate_of_the_workspace_depended_on_under_another_name_is_not_outside() {
    let dir = workspace(&[
        ("shop/Cargo.toml", b"[package]\nname = \"shop\"\n"),
        ("shop/src/lib.rs", b"pub struct Cart;\n"),
        ("app/Cargo.toml", b"[package]\nname = \"app\"\n[dependencies]\nstore = { package = \"shop\", path = \"../shop\" }\nserde = \"1\"\n"),
        ("app/src/main.rs", b"use store::Cart;\nfn main() { let _c = Cart; }\n"),
        // A member that takes the same name from the workspace's table of dependencies.
        ("Cargo.toml", b"[workspace]\nmembers = [\"app\", \"shop\", \"web\"]\n[workspace.dependencies]\nstore = { package = \"shop\", path = \"shop\" }\n"),
        ("web/Cargo.toml", b"[package]\nname = \"web\"\n[dependencies]\nstore = { workspace = true }\n"),
        ("web/src/main.rs", b"use store::Cart;\nfn main() { let _c = Cart; }\n"),
    ]);
    let index = Index::build(dir.path(), None);
    assert!(!index.is_external_crate("store"), "a path dependency is the workspace's, however it is declared");
    assert!(index.is_external_crate("serde"));
    // So the code that takes `Cart` through the other name uses the workspace's `Cart`.
    let ranked = crate::context::rank(&index, "`Cart` loses items");
    for user in ["app/src/main.rs", "web/src/main.rs"] {
        let file = ranked.iter().find(|file| file.path == user).expect("ranked");
        assert!(file.reasons.iter().any(|reason| reason.contains("uses `Cart`")), "{user}: {:?}", file.reasons);
    }
}

#[test]
fn a_packages_own_import_map_leads_its_scripts_to_its_files() {
    let dir = workspace(&[
        // A private root (no name) with its own map, and a package of the monorepo with another.
        ("package.json", br##"{ "private": true, "imports": { "#tools/*": "./tools/*.js" } }"##),
        ("tools/release.js", b"export function release() {}\n"),
        ("packages/core/package.json", br##"{ "name": "core", "imports": { "#utils/*": { "types": "./src/utils/*.d.ts", "default": "./src/utils/*.js" } } }"##),
        ("packages/core/src/utils/log.ts", b"export function log() {}\n"),
        ("packages/core/src/index.ts", b"import { log } from '#utils/log';\nimport { release } from '#tools/release';\n"),
        ("scripts/ship.js", b"import { release } from '#tools/release';\n"),
    ]);
    let mut index = Index::build(dir.path(), None);
    let table = index.module_table();
    let resolve = |index: &Index, from: &str, import: &str| {
        index.resolve_import(index.file(from).expect("indexed"), import, &table)
    };
    assert_eq!(
        resolve(&index, "packages/core/src/index.ts", "#utils/log"),
        ["packages/core/src/utils/log.ts"],
        "the source of the built name"
    );
    assert!(resolve(&index, "packages/core/src/index.ts", "#tools/release").is_empty(), "another package's map");
    assert_eq!(resolve(&index, "scripts/ship.js", "#tools/release"), ["tools/release.js"]);
    assert!(resolve(&index, "scripts/ship.js", "#tools/../../../etc/passwd").is_empty(), "no step aside");

    // A package whose manifest is broken takes no other package's map.
    std::fs::create_dir_all(dir.path().join("scripts")).unwrap();
    std::fs::write(dir.path().join("scripts/package.json"), "{ not json").unwrap();
    index.refresh_from_disk("scripts/package.json");
    assert!(resolve(&index, "scripts/ship.js", "#tools/release").is_empty(), "its own map is broken");
    std::fs::remove_file(dir.path().join("scripts/package.json")).unwrap();
    index.refresh_from_disk("scripts/package.json");
    assert_eq!(resolve(&index, "scripts/ship.js", "#tools/release"), ["tools/release.js"]);

    // A map changed on disk is read again with its manifest.
    std::fs::write(dir.path().join("package.json"), br##"{ "imports": { "#release": "./tools/release.js" } }"##)
        .unwrap();
    index.refresh_from_disk("package.json");
    assert!(resolve(&index, "scripts/ship.js", "#tools/release").is_empty());
    assert_eq!(resolve(&index, "scripts/ship.js", "#release"), ["tools/release.js"]);
}

#[test]
fn manifests_that_change_come_or_go_are_read_again() {
    let dir = workspace(&[
        ("Cargo.toml", b"[package]\nname = \"kit\"\n"),
        ("src/lib.rs", b"pub mod net;\n"),
        ("src/net.rs", b""),
        ("web/src/ui/button.ts", b"export class Button {}\n"),
        ("tools/gen/src/lib.rs", b""),
    ]);
    let mut index = Index::build(dir.path(), None);
    assert_eq!(index.module_of("src/net.rs").as_deref(), Some("kit::net"));
    assert_eq!(index.module_of("web/src/ui/button.ts").as_deref(), Some("web/src/ui"));
    assert_eq!(index.module_of("tools/gen/src/lib.rs").as_deref(), Some("tools/gen/src"));

    let write = |relative: &str, text: &str| std::fs::write(dir.path().join(relative), text).unwrap();
    write("Cargo.toml", "[package]\nname = \"kit\"\n[lib]\nname = \"toolkit\"\n");
    index.refresh_from_disk("Cargo.toml");
    assert_eq!(index.module_of("src/net.rs").as_deref(), Some("toolkit::net"), "a changed manifest");
    write("tools/gen/Cargo.toml", "[package]\nname = \"gen\"\n");
    index.refresh_from_disk("tools/gen/Cargo.toml");
    assert_eq!(index.module_of("tools/gen/src/lib.rs").as_deref(), Some("gen"), "a new crate");
    write("web/tsconfig.json", r#"{ "compilerOptions": { "baseUrl": "src", "paths": { "@ui/*": ["ui/*"] } } }"#);
    index.refresh_from_disk("web/tsconfig.json");
    assert_eq!(index.module_of("web/src/ui/button.ts").as_deref(), Some("@ui"), "a new tsconfig.json");

    write("web/tsconfig.base.json", r#"{ "compilerOptions": { "paths": { "@kit/*": ["src/ui/*"] } } }"#);
    write("web/tsconfig.json", r#"{ "extends": "./tsconfig.base.json" }"#);
    index.refresh_from_disk("web/tsconfig.json");
    assert_eq!(index.module_of("web/src/ui/button.ts").as_deref(), Some("@kit"), "from the base it extends");
    write("web/tsconfig.base.json", r#"{ "compilerOptions": { "paths": { "@shared/*": ["src/ui/*"] } } }"#);
    index.refresh_from_disk("web/tsconfig.base.json");
    assert_eq!(index.module_of("web/src/ui/button.ts").as_deref(), Some("@shared"), "a changed base");
    std::fs::create_dir_all(dir.path().join("web/.config")).unwrap();
    write("web/tsconfig.json", r#"{ "extends": "./.config/paths" }"#);
    index.refresh_from_disk("web/tsconfig.json");
    assert_eq!(index.module_of("web/src/ui/button.ts").as_deref(), Some("web/src/ui"), "its base is not there yet");
    assert!(index.shapes("web/.config/paths.json") && !shapes_the_index("web/.config/paths.json"));
    write("web/.config/paths.json", r#"{ "compilerOptions": { "paths": { "@base/*": ["../src/ui/*"] } } }"#);
    index.refresh_from_disk("web/.config/paths.json");
    assert_eq!(index.module_of("web/src/ui/button.ts").as_deref(), Some("@base"), "a base of any name, anywhere");
    // The folder holding the base goes, and comes back.
    std::fs::rename(dir.path().join("web/.config"), dir.path().join("config-away")).unwrap();
    assert!(index.concerns("web/.config"));
    index.refresh_from_disk("web/.config");
    assert_eq!(index.module_of("web/src/ui/button.ts").as_deref(), Some("web/src/ui"), "its base's folder gone");
    std::fs::rename(dir.path().join("config-away"), dir.path().join("web/.config")).unwrap();
    index.refresh_from_disk("web/.config");
    assert_eq!(index.module_of("web/src/ui/button.ts").as_deref(), Some("@base"), "and back");
    // What the index has no use for changes nothing.
    assert!(!index.concerns("web/package-lock.json") && !index.concerns("web/.config/other.json"));
    assert!(index.concerns("web/src/ui/new.ts") && index.concerns("web/src") && index.concerns("tools/gen"));
    assert!(index.concerns("web/src/ui/button.ts") && !index.concerns("node_modules/pkg/index.js"));

    std::fs::remove_dir_all(dir.path().join("tools")).unwrap();
    index.refresh_from_disk("tools");
    assert!(index.crates().iter().all(|krate| krate.name != "gen"), "a deleted folder takes its crate along");
    std::fs::remove_file(dir.path().join("web/tsconfig.json")).unwrap();
    index.refresh_from_disk("web/tsconfig.json");
    assert_eq!(index.module_of("web/src/ui/button.ts").as_deref(), Some("web/src/ui"), "a deleted tsconfig.json");
    std::fs::create_dir_all(dir.path().join("target/debug")).unwrap();
    write("target/debug/Cargo.toml", "[package]\nname = \"built\"\n");
    index.refresh_from_disk("target/debug/Cargo.toml");
    assert_eq!(index.crates().len(), 1, "build output is not walked, nor watched");
}

#[test]
fn files_know_their_modules_and_imports_resolve_to_files() {
    let dir = workspace(&[
        ("Cargo.toml", b"[package]\nname = \"net-kit\"\n"),
        ("src/lib.rs", b"pub mod net;\nuse crate::net::tcp::TcpStream;\nuse std::io;\n"),
        ("src/net/mod.rs", b"pub mod tcp;\n"),
        ("src/net/tcp.rs", b"use super::super::Config;\npub struct TcpStream;\n"),
        ("app/tsconfig.json", b"{ // aliases\n \"compilerOptions\": { \"baseUrl\": \"src\", \"paths\": { \"@ui/*\": [\"ui/*\"], }, }, }\n"),
        ("app/src/ui/button.ts", b"import { theme } from '../theme';\nexport class Button {}\n"),
        ("app/src/theme.ts", b"export const theme = 1;\n"),
        ("app/src/main.ts", b"import { Button } from '@ui/button';\nimport React from 'react';\n"),
        ("broken/tsconfig.json", b"{ \"compilerOptions\": "),
        ("broken/x.ts", b"import { y } from './y';\n"),
    ]);
    let index = Index::build(dir.path(), None);
    assert_eq!(index.module_of("src/net/tcp.rs").as_deref(), Some("net_kit::net::tcp"));
    assert_eq!(index.module_of("src/net/mod.rs").as_deref(), Some("net_kit::net"));
    assert_eq!(index.module_of("app/src/ui/button.ts").as_deref(), Some("@ui"));
    assert_eq!(index.module_of("app/src/main.ts").as_deref(), Some("app/src"));
    assert_eq!(index.module_of("nope.rs"), None);
    let table = index.module_table();
    let resolved = |path: &str| -> Vec<Vec<String>> {
        let file = index.file(path).unwrap();
        file.symbols.imports.iter().map(|import| index.resolve_import(file, import, &table)).collect()
    };
    assert_eq!(resolved("src/lib.rs"), [vec!["src/net/tcp.rs".to_owned()], vec![]]);
    assert_eq!(resolved("src/net/tcp.rs"), [vec!["src/lib.rs".to_owned()]], "`super::super` from a leaf module");
    assert_eq!(resolved("app/src/main.ts"), [vec!["app/src/ui/button.ts".to_owned()], vec![]]);
    assert_eq!(resolved("app/src/ui/button.ts"), [vec!["app/src/theme.ts".to_owned()]]);
    let mut counted = index.clone();
    counted.count_imports();
    let rust = &counted.stats.languages["rust"];
    assert_eq!((rust.imports, rust.resolved_imports), (3, 2));
    // A tsconfig.json that is not JSON is named among the skipped files; its folder still indexes.
    let (path, why) = index.stats.skipped.iter().find(|(p, _)| p.ends_with("tsconfig.json")).unwrap();
    assert_eq!(path, "broken/tsconfig.json");
    assert!(why.contains("not valid JSON"), "{why}");
    assert!(index.file("broken/x.ts").is_some());
}

#[test]
fn builds_from_sources_and_skips_what_is_not_source() {
    let big = vec![b'/'; (MAX_SOURCE_BYTES + 1) as usize];
    let dir = workspace(&[
        (
            "Cargo.toml",
            b"[package]\nname = \"my-crate\"\n[dependencies]\nserde-json = \"1\"\n[dev-dependencies]\ntempfile = \"3\"\n[target.'cfg(unix)'.dependencies]\nlibc = \"0.2\"\n",
        ),
        ("src/lib.rs", b"pub fn alpha() {}\n"),
        ("src/net/tcp.rs", b"pub struct TcpStream;\n"),
        ("target/debug/build/gen.rs", b"fn generated() {}\n"),
        ("node_modules/x/index.js", b"function y() {}\n"),
        ("ignored/skip.rs", b"fn ignored() {}\n"),
        (".gitignore", b"ignored/\n"),
        ("huge.rs", &big),
        ("blob.rs", b"\x00\x01\x02"),
        ("latin1.java", b"class Caf\xe9 { void m\xe9thode() {} }\n"),
        ("web/app.ts", b"export function start(): void {}\n"),
        ("README.md", b"# docs\n"),
    ]);
    let index = Index::build(dir.path(), None);
    let paths = indexed_paths(&index);
    assert_eq!(paths, ["latin1.java", "src/lib.rs", "src/net/tcp.rs", "web/app.ts"]);
    let skipped: Vec<&str> = index.stats.skipped.iter().map(|(path, _)| path.as_str()).collect();
    assert_eq!(skipped.len(), 2, "{skipped:?}");
    assert!(skipped.contains(&"huge.rs") && skipped.contains(&"blob.rs"));
    assert_eq!(
        index.crates(),
        [Crate {
            dir: String::new(),
            name: "my_crate".into(),
            roots: vec![
                CrateRoot { name: "my_crate".into(), path: "src/lib.rs".into() },
                CrateRoot { name: "my_crate".into(), path: "src/main.rs".into() },
            ],
            dependencies: vec!["libc".into(), "serde_json".into(), "tempfile".into()],
        }]
    );
    assert!(index.is_external_crate("serde_json") && index.is_external_crate("libc"));
    assert!(!index.is_external_crate("my_crate") && !index.is_external_crate("std"));
    let latin = index.file("latin1.java").unwrap();
    assert_eq!(latin.symbols.definitions.len(), 2, "non-UTF-8 source is read lossily: {:?}", latin.symbols);
    assert_eq!(index.stats.languages["rust"].files, 2);
    assert_eq!(index.stats.languages["rust"].definitions, 2);
}

#[test]
fn terminal_output_is_left_out_but_source_with_escapes_in_its_strings_is_read() {
    // A highlighter's fixture: Rust as a terminal shows it, every token in its colour.
    let highlighted = "\x1b[38;5;203mfn\x1b[0m \x1b[38;5;149mmain\x1b[0m() {\n    \x1b[38;5;149mprintln!\x1b[0m(\x1b[38;5;186m\"hi\"\x1b[0m);\n}\n"
        .repeat(3);
    let colours = "pub const RED: &str = \"\x1b[31m\";\npub const RESET: &str = \"\x1b[0m\";\n".to_owned()
        + &"pub fn plain() {}\n".repeat(40);
    let dir = workspace(&[
        ("tests/highlighted/output.rs", highlighted.as_bytes()),
        ("src/colours.rs", colours.as_bytes()),
        ("src/bell.rs", b"pub const BELL: char = '\x07';\n"),
    ]);
    let index = Index::build(dir.path(), None);
    assert_eq!(indexed_paths(&index), ["src/bell.rs", "src/colours.rs"]);
    let [(path, why)] = &index.stats.skipped[..] else { panic!("{:?}", index.stats.skipped) };
    assert_eq!(path, "tests/highlighted/output.rs");
    assert_eq!(why, "terminal output (24 control characters in 9 lines)");
    let colours = index.file("src/colours.rs").unwrap();
    assert_eq!(colours.symbols.definitions.len(), 42, "{:?}", colours.symbols.definitions);
}

#[test]
fn qt_translation_catalogues_are_not_typescript() {
    let catalogue = "\u{feff}<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<!DOCTYPE TS>\n<TS version=\"2.1\" language=\"de_DE\">\n<context>\n    <name>MainWindow</name>\n    <message>\n        <source>Open file</source>\n        <translation>Datei \u{f6}ffnen</translation>\n    </message>\n</context>\n</TS>\n";
    let dir = workspace(&[
        ("i18n/app_de.ts", catalogue.as_bytes()),
        ("i18n/bare.ts", b"<TS version=\"2.0\">\n</TS>\n"),
        ("src/cast.ts", b"\n<any>window;\nexport function open(): void {}\n"),
    ]);
    let index = Index::build(dir.path(), None);
    assert_eq!(indexed_paths(&index), ["src/cast.ts"]);
    let skipped: Vec<(&str, &str)> =
        index.stats.skipped.iter().map(|(path, why)| (path.as_str(), why.as_str())).collect();
    let why = "XML (a Qt translation catalogue), not TypeScript";
    assert_eq!(skipped, [("i18n/app_de.ts", why), ("i18n/bare.ts", why)]);
}

#[test]
fn single_files_update_and_disappear() {
    let dir = workspace(&[("src/a.rs", b"fn one() {}\n")]);
    let mut index = Index::build(dir.path(), None);
    index.update("src/a.rs", b"fn one() {}\nfn two() {}\n");
    assert_eq!(index.file("src/a.rs").unwrap().symbols.definitions.len(), 2);
    index.update("notes.txt", b"fn not_code() {}");
    assert!(index.file("notes.txt").is_none());
    std::fs::remove_file(dir.path().join("src/a.rs")).unwrap();
    index.refresh_from_disk("src/a.rs");
    assert!(index.is_empty());
}

#[test]
fn a_folder_that_appears_is_indexed_whole_and_one_moved_away_is_forgotten() {
    let dir = workspace(&[
        ("Cargo.toml", b"[package]\nname = \"kit\"\n"),
        ("src/lib.rs", b"mod old;\n"),
        ("src/old/mod.rs", b"mod deep;\npub fn moved() {}\n"),
        ("src/old/deep.rs", b"pub fn deeper() {}\n"),
    ]);
    let mut index = Index::build(dir.path(), None);
    // `mv src/old src/new`: the watcher reports the two folders, nothing for the files in them.
    std::fs::rename(dir.path().join("src/old"), dir.path().join("src/new")).unwrap();
    std::fs::write(dir.path().join("src/new/notes.txt"), "not source").unwrap();
    std::fs::create_dir_all(dir.path().join("src/new/target")).unwrap();
    std::fs::write(dir.path().join("src/new/target/kept.rs"), "pub fn kept() {}\n").unwrap();
    index.refresh_from_disk("src/old");
    index.refresh_from_disk("src/new");
    let paths = indexed_paths(&index);
    assert_eq!(paths, ["src/lib.rs", "src/new/deep.rs", "src/new/mod.rs", "src/new/target/kept.rs"]);
    assert_eq!(index.module_of("src/new/deep.rs").as_deref(), Some("kit::new::deep"));

    // A generated folder, with a crate of its own, then regenerated with fewer files.
    let generated = dir.path().join("gen");
    std::fs::create_dir_all(generated.join("src")).unwrap();
    std::fs::write(generated.join("Cargo.toml"), "[package]\nname = \"generated\"\n").unwrap();
    std::fs::write(generated.join("src/lib.rs"), "pub fn made() {}\n").unwrap();
    std::fs::write(generated.join("src/extra.rs"), "pub fn extra() {}\n").unwrap();
    std::fs::create_dir_all(generated.join("target/debug")).unwrap();
    std::fs::write(generated.join("target/debug/build.rs"), "fn output() {}\n").unwrap();
    index.refresh_from_disk("gen");
    assert_eq!(index.module_of("gen/src/lib.rs").as_deref(), Some("generated"), "its manifest is read");
    assert!(index.file("gen/src/extra.rs").is_some());
    assert!(index.file("gen/target/debug/build.rs").is_none(), "build output stays out");
    std::fs::remove_file(generated.join("src/extra.rs")).unwrap();
    index.refresh_from_disk("gen");
    assert!(index.file("gen/src/extra.rs").is_none(), "a file gone from a folder seen again is forgotten");

    // Folders the walk never enters are not entered for an event either.
    std::fs::create_dir_all(dir.path().join("node_modules/pkg")).unwrap();
    std::fs::write(dir.path().join("node_modules/pkg/index.ts"), "export const x = 1;\n").unwrap();
    index.refresh_from_disk("node_modules");
    index.refresh_from_disk("node_modules/pkg");
    assert!(index.file("node_modules/pkg/index.ts").is_none());
}

#[test]
fn a_folder_read_is_made_current_apart_from_the_documents_opened_meanwhile() {
    let dir = workspace(&[("src/lib.rs", b"pub fn a() {}\n"), ("src/old.rs", b"pub fn old() {}\n")]);
    let mut index = Index::build(dir.path(), None);
    std::fs::create_dir_all(dir.path().join("src/net")).unwrap();
    std::fs::write(dir.path().join("src/net/tcp.rs"), "pub fn on_disk() {}\n").unwrap();
    std::fs::remove_file(dir.path().join("src/old.rs")).unwrap();
    assert_eq!(index.folder_read_for("src/net").as_deref(), Some("src/net"));
    assert_eq!(index.folder_read_for("src/.gitignore").as_deref(), Some("src"));
    assert_eq!(index.folder_read_for(".ignore").as_deref(), Some(""));
    assert_eq!(index.folder_read_for("src/lib.rs"), None);
    assert_eq!(index.folder_read_for("Cargo.toml"), None);
    assert_eq!(index.folder_read_for("packages/build/package.json").as_deref(), Some("packages/build"));
    assert_eq!(index.folder_read_for("tools/out/Cargo.toml"), None, "read again with the manifests");
    assert_eq!(index.folder_read_for("src/build/package.json"), None, "entered anyway");

    let read = index.read_folder("src").unwrap();
    assert!(index.file("src/net/tcp.rs").is_none() && index.file("src/old.rs").is_some(), "reading changes nothing");
    // Opened and typed into while the read ran: the buffer stays the truth.
    index.update("src/net/tcp.rs", b"pub fn typed() {}\n");
    index.apply_folder(read, &|file| file == "src/net/tcp.rs");
    let names = |path: &str| -> Vec<String> {
        index.file(path).map(|f| f.symbols.definitions.iter().map(|d| d.name.clone()).collect()).unwrap_or_default()
    };
    assert_eq!(names("src/net/tcp.rs"), ["typed"]);
    assert!(index.file("src/old.rs").is_none(), "a file gone from the folder is forgotten");

    // A read of another workspace (the editor switched folders meanwhile) changes nothing.
    let other = workspace(&[("src/other.rs", b"pub fn other() {}\n")]);
    let foreign = Index::build(other.path(), None).read_folder("src").unwrap();
    index.apply_folder(foreign, &|_| false);
    assert!(index.file("src/other.rs").is_none() && index.file("src/lib.rs").is_some());
}

#[test]
fn files_reported_later_are_judged_by_the_rules_the_walk_follows() {
    let dir = workspace(&[
        // Rules above the workspace (it is a folder of a larger repository).
        ("repo/.gitignore", b"generated/\n*.gen.ts\n"),
        ("repo/web/src/app.ts", b"export const app = 1;\n"),
        ("repo/web/src/generated/api.ts", b"export const api = 1;\n"),
        ("repo/web/src/types.gen.ts", b"export type T = 1;\n"),
        // A deeper rule wins over a shallower one.
        ("repo/web/src/keep/.gitignore", b"!keep.gen.ts\n"),
        ("repo/web/src/keep/keep.gen.ts", b"export const kept = 1;\n"),
        ("repo/web/.ignore", b"scratch.ts\n"),
        ("repo/web/scratch.ts", b"export const s = 1;\n"),
        ("repo/.git/info/exclude", b"local/\n"),
        ("repo/web/local/mine.ts", b"export const m = 1;\n"),
        // Nor can a file be taken back from a folder that is ignored.
        ("repo/web/vendor/.gitignore", b"!lib.ts\n"),
        ("repo/web/.gitignore", b"vendor/\n"),
        ("repo/web/vendor/lib.ts", b"export const v = 1;\n"),
        // Any `.ignore` rule outweighs any `.gitignore` rule, however deep.
        ("repo/web/src/mocks/.gitignore", b"!data.mock.ts\n"),
        ("repo/web/src/mocks/data.mock.ts", b"export const d = 1;\n"),
        ("repo/web/src/.ignore", b"*.mock.ts\n"),
    ]);
    let root = dir.path().join("repo/web");
    let index = Index::build(&root, None);
    let indexed = indexed_paths(&index);
    assert_eq!(indexed, ["src/app.ts", "src/keep/keep.gen.ts"]);
    for file in ["src/app.ts", "src/generated/api.ts", "src/types.gen.ts", "src/keep/keep.gen.ts", "scratch.ts"]
        .into_iter()
        .chain(["local/mine.ts", "vendor/lib.ts", "src/new.ts", "src/generated/new.ts", "src/mocks/data.mock.ts"])
    {
        let walked = indexed.contains(&file) || file == "src/new.ts";
        assert_eq!(indexable(&root, file), walked, "{file}: the walk and a later event disagree");
    }
}

#[cfg(unix)]
#[test]
fn a_workspace_opened_through_a_link_is_judged_from_its_real_place() {
    // `~/work` links to a disk elsewhere; the home folder is a dotfiles repository that ignores all.
    let dir = workspace(&[
        ("home/.gitignore", b"*\n"),
        ("home/.git/HEAD", b"ref: refs/heads/main\n"),
        ("disk/work/.gitignore", b"gen/\n"),
        ("disk/work/app.ts", b"export const app = 1;\n"),
        ("disk/work/gen/api.ts", b"export const api = 1;\n"),
    ]);
    let work = dir.path().join("home/work");
    std::os::unix::fs::symlink(dir.path().join("disk/work"), &work).unwrap();
    let index = Index::build(&work, None);
    let indexed = indexed_paths(&index);
    assert_eq!(indexed, ["app.ts"]);
    assert!(indexable(&work, "new.ts") && !indexable(&work, "gen/new.ts"), "later files judged alike");
}

#[test]
fn a_repository_reads_no_ignore_rules_from_above_its_top() {
    // A dotfiles repository in the home folder ignores everything it does not list.
    let dir = workspace(&[
        ("home/.gitignore", b"*\n!.bashrc\n"),
        ("home/.git/HEAD", b"ref: refs/heads/main\n"),
        ("home/code/app/.git/HEAD", b"ref: refs/heads/main\n"),
        ("home/code/app/.gitignore", b"dist/\n"),
        ("home/code/app/src/main.ts", b"export const app = 1;\n"),
        ("home/code/app/lib/dist/out.ts", b"export const out = 1;\n"),
        // Without a repository of its own, a project inside the dotfiles one is its to judge.
        ("home/notes/todo.ts", b"export const todo = 1;\n"),
    ]);
    let app = dir.path().join("home/code/app");
    let paths = |root: &Path| Index::build(root, None).files().map(|f| f.path.clone()).collect::<Vec<_>>();
    assert_eq!(paths(&app), ["src/main.ts"]);
    assert!(indexable(&app, "src/new.ts") && !indexable(&app, "lib/dist/new.ts"));
    let notes = dir.path().join("home/notes");
    assert_eq!(paths(&notes), Vec::<String>::new());
    assert!(!indexable(&notes, "todo.ts"));
}

#[test]
fn an_edited_ignore_file_takes_files_out_of_the_index_and_lets_them_back() {
    let dir = workspace(&[
        ("src/app.ts", b"export const app = 1;\n"),
        ("src/api.gen.ts", b"export const api = 1;\n"),
        ("src/nested/deep.gen.ts", b"export const deep = 1;\n"),
        ("web/page.ts", b"export const page = 1;\n"),
    ]);
    let mut index = Index::build(dir.path(), None);
    assert_eq!(indexed_paths(&index).len(), 4);
    let before = Arc::clone(index.file("web/page.ts").unwrap());

    std::fs::write(dir.path().join("src/.gitignore"), "*.gen.ts\n").unwrap();
    index.refresh_from_disk("src/.gitignore");
    assert_eq!(indexed_paths(&index), ["src/app.ts", "web/page.ts"]);

    std::fs::write(dir.path().join(".gitignore"), "web/\n").unwrap();
    index.refresh_from_disk(".gitignore");
    assert_eq!(indexed_paths(&index), ["src/app.ts"], "the workspace's own rules");

    std::fs::remove_file(dir.path().join(".gitignore")).unwrap();
    std::fs::write(dir.path().join("src/.gitignore"), "nested/\n").unwrap();
    index.refresh_from_disk(".gitignore");
    index.refresh_from_disk("src/.gitignore");
    assert_eq!(indexed_paths(&index), ["src/api.gen.ts", "src/app.ts", "web/page.ts"], "let back in");
    assert_eq!(*index.file("web/page.ts").unwrap(), before, "an unchanged file comes back as it was");
    assert!(shapes_the_index("src/.gitignore") && shapes_the_index(".ignore") && !shapes_the_index("src/app.ts"));

    // The repository's own excludes, which git keeps out of the tree.
    std::fs::create_dir_all(dir.path().join(".git/info")).unwrap();
    std::fs::write(dir.path().join(".git/info/exclude"), "web/\n").unwrap();
    assert!(shapes_the_index(".git/info/exclude"));
    index.refresh_from_disk(".git/info/exclude");
    assert_eq!(indexed_paths(&index), ["src/api.gen.ts", "src/app.ts"]);
    std::fs::write(dir.path().join(".git/info/exclude"), "").unwrap();
    index.refresh_from_disk(".git/info/exclude");
    assert_eq!(indexed_paths(&index), ["src/api.gen.ts", "src/app.ts", "web/page.ts"]);
}

#[test]
fn output_folder_names_inside_src_are_packages() {
    let dir = workspace(&[
        ("src/main/java/com/acme/build/Plan.java", b"package com.acme.build;\npublic class Plan {}\n"),
        ("src/out/mod.rs", b"pub fn out() {}\n"),
        ("build/classes/Plan.java", b"public class Plan {}\n"),
        ("web/dist/app.js", b"export const app = 1;\n"),
        ("target/debug/x.rs", b"fn x() {}\n"),
    ]);
    let index = Index::build(dir.path(), None);
    let paths = indexed_paths(&index);
    assert_eq!(paths, ["src/main/java/com/acme/build/Plan.java", "src/out/mod.rs"]);
    assert!(indexable(dir.path(), "src/main/java/com/acme/build/Plan.java"));
    assert!(!indexable(dir.path(), "build/classes/Plan.java"));
    assert!(!indexable(dir.path(), "src/node_modules/x.ts"), "dependencies are never source");
}

#[test]
fn scripts_know_their_package_in_a_monorepo() {
    let dir = workspace(&[
        ("package.json", b"{ \"private\": true, \"workspaces\": [\"packages/*\"] }\n"),
        ("packages/core/package.json", b"{ \"name\": \"@demo/core\" }\n"),
        ("packages/core/src/store.ts", b"export class Store {}\n"),
        ("packages/core/src/esm/package.json", b"{ \"type\": \"module\" }\n"),
        ("packages/core/src/esm/util.ts", b"export const util = 1;\n"),
        ("packages/cli/package.json", b"{ \"name\": \"demo-cli\" }\n"),
        ("packages/cli/main.ts", b"export function main() {}\n"),
        ("packages/broken/package.json", b"{ not json\n"),
        ("packages/broken/x.ts", b"export const x = 1;\n"),
        ("scripts/release.ts", b"export function release() {}\n"),
    ]);
    let mut index = Index::build(dir.path(), None);
    let package = |index: &Index, path: &str| index.script_package(index.file(path).unwrap());
    assert_eq!(package(&index, "packages/core/src/store.ts").as_deref(), Some("@demo/core"));
    assert_eq!(package(&index, "packages/core/src/esm/util.ts").as_deref(), Some("@demo/core"), "a nameless one");
    assert_eq!(package(&index, "packages/cli/main.ts").as_deref(), Some("demo-cli"));
    assert_eq!(package(&index, "packages/broken/x.ts"), None, "unreadable");
    assert_eq!(package(&index, "scripts/release.ts"), None, "the private root names none");

    // A package renamed, or gone, while the server runs.
    std::fs::write(dir.path().join("packages/cli/package.json"), "{ \"name\": \"@demo/cli\" }\n").unwrap();
    index.refresh_from_disk("packages/cli/package.json");
    assert_eq!(package(&index, "packages/cli/main.ts").as_deref(), Some("@demo/cli"));
    std::fs::remove_file(dir.path().join("packages/cli/package.json")).unwrap();
    index.refresh_from_disk("packages/cli/package.json");
    assert_eq!(package(&index, "packages/core/src/store.ts"), None, "one package left: nothing to tell apart");

    let single = workspace(&[("package.json", b"{ \"name\": \"app\" }\n"), ("src/a.ts", b"export const a = 1;\n")]);
    let single = Index::build(single.path(), None);
    assert_eq!(package(&single, "src/a.ts"), None, "a workspace of one package");
}

#[test]
fn output_folder_names_holding_a_project_are_source() {
    let dir = workspace(&[
        ("packages/build/package.json", b"{ \"name\": \"@acme/build\" }\n"),
        ("packages/build/lib/bundle.ts", b"export function bundle() {}\n"),
        ("build/tsconfig.json", b"{}\n"),
        ("build/lib/gulp.ts", b"export const tasks = [];\n"),
        ("tools/out/Cargo.toml", b"[package]\nname = \"out\"\n"),
        ("tools/out/src/lib.rs", b"pub fn out() {}\n"),
        // Output, though a manifest lies deeper in it.
        ("dist/my-lib/package.json", b"{}\n"),
        ("dist/my-lib/index.js", b"export const lib = 1;\n"),
        ("target/debug/x.rs", b"fn x() {}\n"),
    ]);
    let index = Index::build(dir.path(), None);
    assert_eq!(indexed_paths(&index), ["build/lib/gulp.ts", "packages/build/lib/bundle.ts", "tools/out/src/lib.rs"]);
    assert!(indexable(dir.path(), "packages/build/lib/bundle.ts"), "files reported later are judged alike");
    assert!(!indexable(dir.path(), "dist/my-lib/index.js"));
    assert!(!indexable(dir.path(), "target/debug/x.rs"));
}

#[test]
fn a_manifest_that_comes_or_goes_opens_or_closes_a_folder_named_like_output() {
    let dir = workspace(&[("src/lib.rs", b"pub fn lib() {}\n"), ("build/lib/gulp.ts", b"export const tasks = [];\n")]);
    let mut index = Index::build(dir.path(), None);
    assert_eq!(indexed_paths(&index), ["src/lib.rs"]);
    std::fs::write(dir.path().join("build/package.json"), "{}\n").unwrap();
    assert!(index.concerns("build/package.json"));
    index.refresh_from_disk("build/package.json");
    assert_eq!(indexed_paths(&index), ["build/lib/gulp.ts", "src/lib.rs"]);
    std::fs::remove_file(dir.path().join("build/package.json")).unwrap();
    index.refresh_from_disk("build/package.json");
    assert_eq!(indexed_paths(&index), ["src/lib.rs"]);
    assert!(index.concerns("web/package.json"), "another package.json names a package");
    assert!(!index.concerns("node_modules/left-pad/package.json"), "one a dependency brings changes nothing");

    // A crate's manifest there opens the folder, and its edits rename the crate.
    let module = |index: &Index| index.module_of("out/src/lib.rs");
    std::fs::create_dir_all(dir.path().join("out/src")).unwrap();
    std::fs::write(dir.path().join("out/src/lib.rs"), "pub fn out() {}\n").unwrap();
    std::fs::write(dir.path().join("out/Cargo.toml"), "[package]\nname = \"first\"\n").unwrap();
    index.refresh_from_disk("out/Cargo.toml");
    assert_eq!(module(&index).as_deref(), Some("first"));
    std::fs::write(dir.path().join("out/Cargo.toml"), "[package]\nname = \"second\"\n").unwrap();
    index.refresh_from_disk("out/Cargo.toml");
    assert_eq!(module(&index).as_deref(), Some("second"));
    std::fs::remove_file(dir.path().join("out/Cargo.toml")).unwrap();
    index.refresh_from_disk("out/Cargo.toml");
    assert_eq!(module(&index), None, "build output again");
}

#[test]
fn the_walk_stops_at_the_file_limit_and_says_so() {
    let dir = workspace(&[
        ("web/lib/a.ts", b"export const a = 1;\n"),
        ("web/lib/b.ts", b"export const b = 1;\n"),
        ("web/lib/c.ts", b"export const c = 1;\n"),
        ("web/notes.md", b"# notes\n"),
        // Walked after the files it covers.
        ("web/tsconfig.json", b"{ \"compilerOptions\": { \"baseUrl\": \".\", \"paths\": { \"@w/*\": [\"lib/*\"] } } }"),
        // A folder past the limit holds none of the files taken: not entered.
        ("zz/Cargo.toml", b"[package]\nname = \"zz\"\n"),
        ("zz/src/lib.rs", b"pub fn zz() {}\n"),
    ]);
    let cut = Index::build_limited(dir.path(), None, 2);
    let paths = indexed_paths(&cut);
    assert_eq!(
        (paths, cut.stats.file_limit),
        (vec!["web/lib/a.ts", "web/lib/b.ts"], Some(2)),
        "the first in path order"
    );
    assert_eq!(cut.module_of("web/lib/a.ts").as_deref(), Some("@w"), "manifests past the limit are still read");
    assert!(cut.manifests.crates.is_empty(), "{:?}", cut.manifests.crates);
    let warning = cut.stats.limit_warning(dir.path()).unwrap();
    assert!(warning.contains("holds more than 2 source files; the index stopped there"), "{warning}");
    // A folder that arrives later fills no more than the room the limit leaves.
    let mut grown = Index::build_limited(dir.path(), None, 3);
    for name in ["x", "y"] {
        std::fs::create_dir_all(dir.path().join(format!("web/lib/{name}"))).unwrap();
        std::fs::write(dir.path().join(format!("web/lib/{name}/one.ts")), "export const one = 1;\n").unwrap();
    }
    grown.refresh_from_disk("web/lib/x");
    grown.refresh_from_disk("web/lib/y");
    grown.refresh_from_disk("web/lib");
    assert_eq!(grown.len(), 3, "{:?}", grown.files().map(|f| &f.path).collect::<Vec<_>>());
    grown.refresh_from_disk("web/lib/x/one.ts");
    assert!(grown.file("web/lib/x/one.ts").is_none(), "nor a new file reported alone");
    grown.update("web/lib/x/one.ts", b"export const typed = 1;\n");
    assert!(grown.file("web/lib/x/one.ts").is_some(), "a document opened in the editor still comes in");
    // A document opened past the limit does not make room for more when the tree is read again.
    std::fs::write(dir.path().join(".gitignore"), "# nothing\n").unwrap();
    grown.refresh_from_disk_keeping(".gitignore", &|file| file == "web/lib/x/one.ts");
    assert_eq!(grown.len(), 4, "{:?}", grown.files().map(|f| &f.path).collect::<Vec<_>>());
    grown.refresh_from_disk("web/lib/c.ts");
    assert!(grown.file("web/lib/c.ts").is_some(), "a file it held is still read again");
    let whole = Index::build_limited(dir.path(), None, 6);
    assert_eq!((whole.len(), whole.stats.file_limit), (6, None), "exactly the limit is all of it");
    assert_eq!(whole.module_of("zz/src/lib.rs").as_deref(), Some("zz"));
    assert_eq!(whole.stats.limit_warning(dir.path()), None);
}

/// The Rust file at `relative` of `root` as the walk found it, `bytes` long then.
fn found_at(root: &std::path::Path, relative: &str, bytes: u64) -> Found {
    Found { relative: relative.into(), absolute: root.join(relative), language: Language::Rust, bytes, stamp: None }
}

#[test]
fn a_file_deleted_while_indexing_is_skipped() {
    let dir = workspace(&[("a.rs", b"fn a() {}\n")]);
    let found = found_at(dir.path(), "gone.rs", 10);
    let (path, why) = index_found(&found, &|_| None, &|_, _| None).unwrap_err();
    assert_eq!(path, "gone.rs");
    assert!(why.starts_with("unreadable"), "{why}");
}

#[test]
fn a_file_grown_past_the_limit_after_the_walk_saw_its_size_is_skipped() {
    // The walk saw 10 bytes; by the read, a tool had written past the limit into it.
    let big = vec![b'/'; (MAX_SOURCE_BYTES + 1) as usize];
    let dir = workspace(&[("grown.rs", big.as_slice())]);
    let found = found_at(dir.path(), "grown.rs", 10);
    let (path, why) = index_found(&found, &|_| None, &|_, _| None).unwrap_err();
    assert_eq!((path.as_str(), why), ("grown.rs", format!("larger than {MAX_SOURCE_BYTES} bytes")));
    let at_limit = vec![b'/'; MAX_SOURCE_BYTES as usize];
    std::fs::write(dir.path().join("grown.rs"), &at_limit).unwrap();
    assert!(index_found(&found, &|_| None, &|_, _| None).is_ok(), "exactly the limit is indexed");
}

#[test]
fn test_paths_are_recognised() {
    for path in [
        "tests/it.rs",
        "src/foo/tests.rs",
        "tokio/tests/io.rs",
        "x/BTest.java",
        "x/TestParser.java",
        "a/b.test.ts",
        "benches/x.rs",
        "packages/bench/discriminated-union.ts",
        "bench/run.js",
        "packages/zod/src/v3/benchmarks/discriminatedUnion.ts",
        "core/src/jmh/java/a/ParserBench.java",
        "src/setupTests.ts",
        "src/test-utils.tsx",
        "packages/app/jest.config.js",
        "vitest.setup.ts",
        "vitest.workspace.mts",
        "src/__mocks__/fs.ts",
        "e2e/login.ts",
        "jib-core/src/integration-test/java/com/google/cloud/tools/jib/registry/LocalRegistry.java",
        "app/src/integrationTest/java/a/Database.java",
        "app/src/intTest/java/a/Db.java",
        "lib/src/functional_tests/java/a/Cli.java",
        "lib/src/testFixtures/java/a/FakeClock.java",
        "fuzz/fuzz_targets/parse.rs",
        "tokio/fuzz/fuzz_targets/fuzz_linked_list.rs",
        "crates/nu-path/fuzz/src/lib.rs",
        "fuzzing/harness.rs",
        "src/test/java/com/example/demo/Fixtures.java",
        "app/src/androidTest/java/com/acme/MainActivityCheck.kt",
    ] {
        assert!(is_test_path(path), "{path}");
    }
    for path in [
        "src/lib.rs",
        "src/main/java/a/Contest.java",
        "src/latest/api.ts",
        "src/contest/rules.rs",
        "src/main/java/com/x/integrationtest/Helper.java",
        "src/attestation.rs",
        "x/Testament.java",
        "src/bench.rs",
        "src/benchmark/executor.rs",
        "cli/tools/bench/mod.rs",
        "jmh-core/src/main/java/org/openjdk/jmh/runner/Runner.java",
        "src/setup.ts",
        "src/utils.ts",
        "packages/vite/src/node/config.ts",
        "src/jest.ts",
        "src/testUtils.rs",
        "src/fuzz/mutator.rs",
        "crates/afl/src/fuzz/mod.rs",
        "src/fuzzy.rs",
        "spring-test/src/main/java/org/springframework/test/web/MockMvc.java",
        "src/main/kotlin/com/acme/testing/Clock.kt",
    ] {
        assert!(!is_test_path(path), "{path}");
    }
}

#[test]
fn example_code_is_told_by_its_folders_not_by_the_package_its_authors_named() {
    for path in [
        "examples/hello.rs",
        "rayon-demo/src/main.rs",
        "samples/web/src/main/java/com/acme/Web.java",
        "docs/playground/app.ts",
    ] {
        assert!(is_example_path(path), "{path}");
    }
    for path in [
        "src/main/java/com/example/demo/DemoApplication.java",
        "app/src/main/kotlin/com/example/sample/Main.kt",
        "src/lib.rs",
        "example.rs",
    ] {
        assert!(!is_example_path(path), "{path}");
    }
}

#[test]
fn a_folder_read_again_reads_no_file_unchanged_since_the_build() {
    let dir = workspace(&[
        ("src/a.rs", b"pub fn a() {}\n"),
        ("src/b.rs", b"pub fn b() {}\n"),
        ("src/c.rs", b"pub fn c() {}\n"),
    ]);
    let hour = std::time::Duration::from_secs(3600);
    for path in ["src/a.rs", "src/b.rs", "src/c.rs"] {
        crate::testing::modified_ago(&dir.path().join(path), hour);
    }
    let mut index = Index::build(dir.path(), None);
    let names = |index: &Index, path: &str| -> Vec<String> {
        index.file(path).unwrap().symbols.definitions.iter().map(|d| d.name.clone()).collect()
    };

    // Both changed, with the same size; `a` with the time it had put back.
    let a = dir.path().join("src/a.rs");
    let time_of_a = std::fs::metadata(&a).unwrap().modified().unwrap();
    std::fs::write(&a, "pub fn d() {}\n").unwrap();
    crate::testing::set_modified(&a, time_of_a);
    std::fs::write(dir.path().join("src/b.rs"), "pub fn e() {}\n").unwrap();
    let read = index.read_folder("src").unwrap();
    assert_eq!(read.unread(), 1, "only c is as the build read it");
    index.apply_folder(read, &|_| false);
    assert_eq!((names(&index, "src/a.rs"), names(&index, "src/b.rs")), (vec!["d".into()], vec!["e".into()]));

    // Files the build read within seconds of their writing are read again.
    let fresh = workspace(&[("src/f.rs", b"pub fn f() {}\n")]);
    let index = Index::build(fresh.path(), None);
    assert_eq!(index.read_folder("src").unwrap().unread(), 0);
}

#[test]
fn the_same_tree_gives_the_same_index_and_ranking_on_every_build() {
    let grammar = |path: &str| {
        let path = format!("{}/../grammars/{path}", env!("CARGO_MANIFEST_DIR"));
        std::fs::read(&path).unwrap_or_else(|error| panic!("{path}: {error}"))
    };
    let (rust, java, tsx) =
        (grammar("rust/fixture.rs"), grammar("java/fixture.java"), grammar("typescript/fixture.tsx"));
    // A constant read through its enum and a nested type through its class: two of the
    // queries' patterns capture each such name.
    let reads = b"package com.acme;\nimport com.acme.cfg.Feature;\nclass Reads {\n  boolean on(Mapper m) {\n    \
                  return m.isEnabled(Feature.WRAP) && Mode.Kind.LOW == m.kind();\n  }\n}\n";
    let dir = workspace(&[
        ("Cargo.toml", b"[package]\nname = \"kit\"\n"),
        ("src/lib.rs", &rust),
        ("src/main/java/com/acme/Fixture.java", &java),
        ("src/main/java/com/acme/Reads.java", reads),
        ("src/main/java/com/acme/cfg/Feature.java", b"package com.acme.cfg;\npublic enum Feature { WRAP, FAIL }\n"),
        ("web/fixture.tsx", &tsx),
    ]);
    let first = Index::build(dir.path(), None);
    let issue = "`Feature.WRAP` is ignored by `Reads::on` and the parser";
    let ranked = crate::context::rank(&first, issue);
    for build in 0..5 {
        let again = Index::build(dir.path(), None);
        assert_eq!(indexed_paths(&again), indexed_paths(&first));
        for (a, b) in first.files().zip(again.files()) {
            assert_eq!(a, b, "build {build} read {} otherwise", a.path);
        }
        let ranked_again = crate::context::rank(&again, issue);
        let scores = |ranked: &[crate::context::RankedFile]| -> Vec<(String, u64, Vec<String>)> {
            ranked.iter().map(|r| (r.path.clone(), r.score.to_bits(), r.reasons.clone())).collect()
        };
        assert_eq!(scores(&ranked_again), scores(&ranked), "build {build} ranks otherwise");
    }
}

#[test]
fn a_folder_spells_a_java_package_by_whole_names() {
    assert!(folder_spells("src/main/java/com/acme", "com.acme"));
    assert!(folder_spells("com/acme", "com.acme"));
    assert!(!folder_spells("src/main/java/com/notacme", "com.acme"), "`notacme` is no `acme`");
    assert!(!folder_spells("src/main/java/com/acme/json", "com.acme"));
    assert!(!folder_spells("", "com.acme"));
}

#[test]
fn a_file_read_again_from_disk_is_not_parsed_while_its_text_is_unchanged() {
    let dir = workspace(&[("src/a.rs", b"pub fn a() {}\n")]);
    let mut index = Index::build(dir.path(), None);
    std::fs::write(dir.path().join("src/a.rs"), "pub fn changed() {}\n").unwrap();
    let Some(read @ FileRead::Index(_)) = index.read_file("src/a.rs") else { panic!("changed, so read") };
    index.apply_file(read);
    // A document that stops being followed (closed, or its buffer no longer source) has its
    // disk text read again at each change of the buffer: parsed once, not each time.
    assert!(matches!(index.read_file("src/a.rs"), Some(FileRead::Unchanged(_))));
}

#[test]
fn a_path_that_changes_kind_leaves_what_a_fresh_build_would_index() {
    let dir = workspace(&[
        ("src/lib.rs", b"pub fn lib() {}\n"),
        ("src/gen/a.rs", b"pub fn generated() {}\n"),
        ("src/one.rs", b"pub fn one() {}\n"),
        ("vendor/lib/a.rs", b"pub fn vendored() {}\n"),
    ]);
    let mut index = Index::build(dir.path(), None);
    let fresh = |index: &Index| {
        let built = Index::build(dir.path(), None);
        assert_eq!(indexed_paths(index), indexed_paths(&built));
    };
    // A folder replaced by a file: what was below it is gone.
    std::fs::remove_dir_all(dir.path().join("src/gen")).unwrap();
    std::fs::write(dir.path().join("src/gen"), "not a folder now\n").unwrap();
    assert!(!index.changes_one_entry("src/gen"), "a watcher's batch reads it one by one");
    index.refresh_from_disk("src/gen");
    assert!(index.file("src/gen/a.rs").is_none());
    fresh(&index);
    // A file replaced by a folder: the file's entry is gone, what the folder holds comes in.
    std::fs::remove_file(dir.path().join("src/one.rs")).unwrap();
    std::fs::create_dir_all(dir.path().join("src/one.rs")).unwrap();
    std::fs::write(dir.path().join("src/one.rs/inner.rs"), "pub fn inner() {}\n").unwrap();
    index.refresh_from_disk("src/one.rs");
    assert!(index.file("src/one.rs").is_none() && index.file("src/one.rs/inner.rs").is_some());
    fresh(&index);
    // A folder replaced by a link (a checkout of a branch where it is one): the walk never
    // follows links, so nothing below it stays.
    #[cfg(unix)]
    {
        std::fs::remove_dir_all(dir.path().join("vendor/lib")).unwrap();
        std::os::unix::fs::symlink(dir.path().join("src"), dir.path().join("vendor/lib")).unwrap();
        index.refresh_from_disk("vendor/lib");
        assert!(index.file("vendor/lib/a.rs").is_none());
        fresh(&index);
    }
}

#[cfg(unix)]
#[test]
fn names_no_workspace_path_can_give_are_not_indexed() {
    // Neither the editor nor the file watcher could report a change to them again.
    let dir = workspace(&[("src/lib.rs", b"pub fn lib() {}\n"), ("src/tab\there.rs", b"pub fn tabbed() {}\n")]);
    std::fs::create_dir_all(dir.path().join("odd\u{85}folder")).unwrap();
    std::fs::write(dir.path().join("odd\u{85}folder/a.rs"), "pub fn odd() {}\n").unwrap();
    std::fs::write(dir.path().join("src/back\\slash.rs"), "pub fn back() {}\n").unwrap();
    std::fs::create_dir_all(dir.path().join("~backup/src")).unwrap();
    std::fs::write(dir.path().join("~backup/src/lib.rs"), "pub fn saved() {}\n").unwrap();
    std::fs::write(dir.path().join("c:x.rs"), "pub fn drive() {}\n").unwrap();
    let index = Index::build(dir.path(), None);
    assert_eq!(indexed_paths(&index), ["src/lib.rs"]);
}

#[cfg(unix)]
#[test]
fn a_source_file_whose_name_is_not_utf8_is_said_to_be_left_out() {
    use std::os::unix::ffi::OsStrExt;
    let dir = workspace(&[("src/lib.rs", b"pub fn lib() {}\n")]);
    // `café.rs` as Latin-1 wrote it, and a file of no source language named so too.
    std::fs::write(dir.path().join(std::ffi::OsStr::from_bytes(b"src/caf\xe9.rs")), "pub fn cafe() {}\n").unwrap();
    std::fs::write(dir.path().join(std::ffi::OsStr::from_bytes(b"src/caf\xe9.txt")), "notes\n").unwrap();
    let index = Index::build(dir.path(), None);
    assert_eq!(indexed_paths(&index), ["src/lib.rs"]);
    let [(path, why)] = &index.stats.skipped[..] else { panic!("{:?}", index.stats.skipped) };
    assert_eq!(path, "src/caf\u{fffd}.rs");
    assert!(why.contains("not valid UTF-8") && why.contains("rename it"), "{why}");
    // A folder of them is told by its first ones.
    for n in 0..30u8 {
        let name = [b"src/x".as_slice(), &[0xe9, b'0' + n / 10, b'0' + n % 10], b".rs"].concat();
        std::fs::write(dir.path().join(std::ffi::OsStr::from_bytes(&name)), "fn x() {}\n").unwrap();
    }
    assert_eq!(Index::build(dir.path(), None).stats.skipped.len(), 20);
}
