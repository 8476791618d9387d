//! Validation with the real tools: `issuewright validate` on fixture projects per language,
//! compared with what each compiler reports when asked directly; commands that hang, flood
//! or garble their output; and the project's files never written.

use std::path::{Path, PathBuf};
use std::process::Output;
use std::time::{Duration, Instant};

use issuewright_tests::toolchains::{
    CARGO_TOML, Expected, MAVEN_POM, cargo_short, javac_raw, link_typescript, offline_maven, placed, tsc_api,
    validate_cli, validate_cli_with_env,
};
use issuewright_tests::{Scratch, done, ledger, replay, run_cli, run_report, turn};
use serde_json::{Value, json};

/// A type error after an emoji on the same line (so UTF-16 columns differ from chars), and
/// two unused variables.
const BROKEN_LIB: &str = "pub fn total(words: &[&str]) -> u32 {\n    let unused = 5;\n    let label = \"naïve 😀\"; let total: u32 = words.len();\n    total\n}\n";

fn write_all(root: &Path, files: &[(&str, &str)]) {
    for (path, text) in files {
        let file = root.join(path);
        std::fs::create_dir_all(file.parent().unwrap()).unwrap();
        std::fs::write(file, text).unwrap();
    }
}

/// A copy of `from` at `to` (files only, as the tools see them).
fn copy_dir(from: &Path, to: &Path) {
    for entry in std::fs::read_dir(from).unwrap().flatten() {
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            std::fs::create_dir_all(&target).unwrap();
            copy_dir(&entry.path(), &target);
        } else if entry.file_type().unwrap().is_symlink() {
            std::os::unix::fs::symlink(std::fs::read_link(entry.path()).unwrap(), &target).unwrap();
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

/// A folder of the scratch area outside the workspace, for direct tool runs.
fn beside(scratch: &Scratch, name: &str) -> PathBuf {
    let dir = scratch.home().join("tmp").join(name);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn stderr(output: &std::process::Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// The 0-based line holding `marker`, and the UTF-16 column of `at` on it.
fn marked(text: &str, marker: &str, at: &str) -> (u64, u64) {
    let (line, content) = text.lines().enumerate().find(|(_, l)| l.contains(marker)).expect("marker present");
    let byte = content.find(at).expect("anchor on the marked line");
    (line as u64, content[..byte].encode_utf16().count() as u64)
}

#[test]
fn cargo_diagnostics_match_the_compiler_and_the_project_is_never_written() {
    let scratch = Scratch::new(&[]);
    let project = scratch.workspace().join("my crate");
    write_all(&project, &[("Cargo.toml", CARGO_TOML), ("src/lib.rs", BROKEN_LIB)]);

    let output = validate_cli(&scratch, &project, &["--json"]);
    assert_eq!(output.status.code(), Some(1), "errors mean exit 1: {}", stderr(&output));
    let diagnostics = run_report(&output);
    let ours = placed(&diagnostics);

    let copy = beside(&scratch, "direct");
    copy_dir(&project, &copy);
    let theirs = cargo_short(&copy, &beside(&scratch, "direct-target"));
    assert!(theirs.iter().any(|e| e.code.as_deref() == Some("E0308")), "{theirs:?}");
    assert_eq!(ours, theirs, "the same places as cargo prints them");

    let error = diagnostics.as_array().unwrap().iter().find(|d| d["code"] == "E0308").unwrap();
    assert_eq!(error["source"], "cargo");
    assert!(error["message"].as_str().unwrap().starts_with("mismatched types"), "{error}");
    assert_eq!(
        Scratch::files_below(&project),
        ["Cargo.toml", "src/lib.rs"],
        "no target/ or Cargo.lock in the user's tree"
    );
}

#[test]
fn a_crate_of_a_cargo_workspace_is_built_as_a_member_of_it() {
    // The user opened one crate of a workspace: it inherits its version and edition from the
    // workspace's manifest and depends on a sibling crate by path.
    let scratch = Scratch::new(&[]);
    let root = scratch.workspace();
    let lib = "pub fn area(side: units::Metres) -> units::Metres {\n    let doubled: u32 = side; // mismatched\n    units::Metres(doubled)\n}\n";
    write_all(
        &root,
        &[
            (".git/HEAD", "ref: refs/heads/main\n"),
            (
                "Cargo.toml",
                "[workspace]\nmembers = [\"crates/*\"]\nresolver = \"2\"\n\n[workspace.package]\nversion = \"0.1.0\"\nedition = \"2021\"\n",
            ),
            (
                "crates/units/Cargo.toml",
                "[package]\nname = \"units\"\nversion.workspace = true\nedition.workspace = true\n",
            ),
            ("crates/units/src/lib.rs", "pub struct Metres(pub u32);\n"),
            (
                "crates/shapes/Cargo.toml",
                "[package]\nname = \"shapes\"\nversion.workspace = true\nedition.workspace = true\n\n[dependencies]\nunits = { path = \"../units\" }\n",
            ),
            ("crates/shapes/src/lib.rs", lib),
        ],
    );
    let before = Scratch::files_below(&root);
    let crate_folder = root.join("crates/shapes");

    let output = validate_cli(&scratch, &crate_folder, &["--json"]);
    assert_eq!(output.status.code(), Some(1), "the type error fails the check: {}", stderr(&output));
    let diagnostics = run_report(&output);
    let (line, character) = marked(lib, "// mismatched", "side");
    let ours = placed(&diagnostics);
    let mismatch = ours.iter().find(|e| e.code.as_deref() == Some("E0308"));
    assert_eq!(
        mismatch.map(|e| (e.path.as_str(), e.line, e.character)),
        Some(("src/lib.rs", line, character)),
        "placed in the opened crate's own path: {diagnostics:#}\n{}",
        stderr(&output)
    );
    assert!(!stderr(&output).contains("workspace root"), "the workspace's manifest was found: {}", stderr(&output));
    assert_eq!(Scratch::files_below(&root), before, "nothing written into the user's tree");
}

#[test]
fn a_crate_opened_on_its_own_is_built_with_the_crates_its_path_dependencies_name() {
    // The user opened `apps/cli`, a crate that is its own workspace (its empty `[workspace]`
    // also keeps it out of any workspace the test's folder lies in), which depends on
    // `libs/core_units` by path.
    let scratch = Scratch::new(&[]);
    let root = scratch.workspace();
    let main = "fn main() {\n    let side: u32 = core_units::Metres(2); // mismatched\n    println!(\"{side}\");\n}\n";
    write_all(
        &root,
        &[
            (".git/HEAD", "ref: refs/heads/main\n"),
            (
                "apps/cli/Cargo.toml",
                "[package]\nname = \"cli\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[dependencies]\ncore_units = { path = \"../../libs/core_units\" }\n\n[workspace]\n",
            ),
            ("apps/cli/src/main.rs", main),
            (
                "libs/core_units/Cargo.toml",
                "[package]\nname = \"core_units\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
            ),
            ("libs/core_units/src/lib.rs", "pub struct Metres(pub u32);\n"),
        ],
    );
    fails_with_the_mismatch_placed(&scratch, "apps/cli", (main, "core_units"), "src/main.rs");
}

#[test]
fn a_cargo_workspace_is_built_with_the_crates_its_shared_dependencies_name_outside_it() {
    // The user opened `rust/`, a Cargo workspace inside a larger repository, whose
    // `[workspace.dependencies]` name `proto/` beside it by path.
    let scratch = Scratch::new(&[]);
    let root = scratch.workspace();
    let main = "fn main() {\n    let id: u32 = proto::Id(2); // mismatched\n    println!(\"{id}\");\n}\n";
    write_all(
        &root,
        &[
            (".git/HEAD", "ref: refs/heads/main\n"),
            (
                "rust/Cargo.toml",
                "[workspace]\nmembers = [\"crates/*\"]\nresolver = \"2\"\n\n[workspace.dependencies]\nproto = { path = \"../proto\" }\n",
            ),
            (
                "rust/crates/app/Cargo.toml",
                "[package]\nname = \"app\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[dependencies]\nproto.workspace = true\n",
            ),
            ("rust/crates/app/src/main.rs", main),
            ("proto/Cargo.toml", "[package]\nname = \"proto\"\nversion = \"0.1.0\"\nedition = \"2021\"\n"),
            ("proto/src/lib.rs", "pub struct Id(pub u32);\n"),
        ],
    );
    fails_with_the_mismatch_placed(&scratch, "rust", (main, "proto"), "crates/app/src/main.rs");
}

/// Validates the folder `opened` of the scratch's workspace, and checks that the check fails
/// with rustc's E0308 placed at `path` (as the opened folder names it), on the `name` of the
/// line of `main` marked `// mismatched`, and that nothing was written into the user's tree.
fn fails_with_the_mismatch_placed(scratch: &Scratch, opened: &str, (main, name): (&str, &str), path: &str) {
    let root = scratch.workspace();
    let before = Scratch::files_below(&root);
    let output = validate_cli(scratch, &root.join(opened), &["--json"]);
    assert_eq!(output.status.code(), Some(1), "the type error fails the check: {}", stderr(&output));
    let diagnostics = run_report(&output);
    let (line, character) = marked(main, "// mismatched", name);
    let mismatch = placed(&diagnostics).into_iter().find(|e| e.code.as_deref() == Some("E0308"));
    assert_eq!(
        mismatch.map(|e| (e.path, e.line, e.character)),
        Some((path.to_owned(), line, character)),
        "{diagnostics:#}\n{}",
        stderr(&output)
    );
    assert_eq!(Scratch::files_below(&root), before, "nothing written into the user's tree");
}

#[test]
fn an_error_in_the_root_package_of_a_cargo_workspace_is_not_placed_in_the_opened_members_file() {
    // The workspace's root is a package too, and the opened member depends on it: cargo
    // prints the root's broken file as `src/lib.rs`, the very path of the member's own.
    let scratch = Scratch::new(&[]);
    let root = scratch.workspace();
    let member_lib = "pub fn shout(word: &str) -> String {\n    core_words::upper(word)\n}\n";
    write_all(
        &root,
        &[
            (".git/HEAD", "ref: refs/heads/main\n"),
            (
                "Cargo.toml",
                "[package]\nname = \"core_words\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[workspace]\nmembers = [\"cli\"]\n",
            ),
            (
                "src/lib.rs",
                "pub fn upper(word: &str) -> String {\n    let n: u32 = word; // mismatched\n    word.to_uppercase()\n}\n",
            ),
            (
                "cli/Cargo.toml",
                "[package]\nname = \"cli\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[dependencies]\ncore_words = { path = \"..\" }\n",
            ),
            ("cli/src/lib.rs", member_lib),
        ],
    );

    let output = validate_cli(&scratch, &root.join("cli"), &["--json"]);
    assert_eq!(output.status.code(), Some(1), "the root package's error fails the build: {}", stderr(&output));
    let diagnostics = run_report(&output);
    assert_eq!(placed(&diagnostics), [], "nothing placed in the member's src/lib.rs: {diagnostics:#}");
    let shown = diagnostics.to_string();
    assert!(
        shown.contains("E0308") && shown.contains("src/lib.rs"),
        "the error is still reported, where cargo printed it: {diagnostics:#}"
    );
}

#[test]
fn cargo_test_failures_are_placed_at_the_failing_assertion() {
    let lib = "pub fn total(words: &[&str]) -> u32 {\n    words.len() as u32 + 1\n}\n\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn counts() {\n        let n = super::total(&[\"a\"]);\n        assert_eq!(n, 1, \"wrong count\"); // fails here\n    }\n}\n";
    let scratch = Scratch::new(&[("Cargo.toml", CARGO_TOML), ("src/lib.rs", lib)]);
    let output = validate_cli(&scratch, &scratch.workspace(), &["--json", "--tests"]);
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    let diagnostics = run_report(&output);
    let (line, character) = marked(lib, "// fails here", "assert_eq!");
    let failure = failure(&diagnostics, "tests::counts", &output);
    assert_eq!(failure["path"], "src/lib.rs");
    assert_eq!(failure["range"]["start"], json!({"line": line, "character": character}));
    assert!(failure["message"].as_str().unwrap().contains("wrong count"), "{failure}");
    assert!(stderr(&output).contains("The tests `cargo test"), "{}", stderr(&output));
}

const GREETER: &str = "package com.acme;\n\npublic class Greeter {\n    public String greet(String name) {\n        int length = name;\n        return \"Héllo 😀, \" + nme;\n    }\n\tpublic void tabbed() { undefinedCall(); }\n}\n";

#[test]
fn javac_positions_match_its_raw_diagnostics() {
    let scratch = Scratch::new(&[
        ("src/com/acme/Greeter.java", GREETER),
        ("with space/Other.java", "class Other {\n    void f() { String s = 1; }\n}\n"),
    ]);
    let output = validate_cli(&scratch, &scratch.workspace(), &["--json"]);
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    let diagnostics = run_report(&output);
    let ours = placed(&diagnostics);
    let theirs = javac_raw(
        &scratch.workspace(),
        &["src/com/acme/Greeter.java", "with space/Other.java"],
        &beside(&scratch, "javac-out"),
    );
    assert_eq!(theirs.len(), 4, "{theirs:?}");
    assert_eq!(ours, theirs);
    let symbol = diagnostics.as_array().unwrap().iter().find(|d| d["range"]["start"]["line"] == 5).unwrap();
    assert_eq!(symbol["source"], "javac");
    assert_eq!(symbol["message"], "cannot find symbol\nsymbol:   variable nme\nlocation: class Greeter");
    assert!(!scratch.workspace().join("src/com/acme/Greeter.class").exists());
}

#[test]
fn javac_speaking_another_language_is_read_all_the_same() {
    // A JVM set to Japanese writes `エラー:` and `1 個のエラー`.
    let scratch = Scratch::new(&[("src/com/acme/Greeter.java", GREETER)]);
    let env = [("JAVA_TOOL_OPTIONS", "-Duser.language=ja -Duser.country=JP")];
    let output = validate_cli_with_env(&scratch, &scratch.workspace(), &["--json"], &env);
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    let diagnostics = run_report(&output);
    let symbol = diagnostics.as_array().unwrap().iter().find(|d| d["range"]["start"]["line"] == 5);
    assert_eq!(
        symbol.unwrap()["message"],
        "cannot find symbol\nsymbol:   variable nme\nlocation: class Greeter",
        "{diagnostics:#}"
    );
}

#[test]
fn a_jar_dropped_into_lib_is_on_the_class_path_though_git_ignores_it() {
    // The library's jar was built elsewhere and copied into `lib/`, which a `*.jar` rule
    // keeps out of git; the user's `javac -cp lib/words.jar` finds it, and so must the check.
    let scratch = Scratch::new(&[]);
    let root = scratch.workspace();
    let app = "package app;\n\nimport com.lib.Words;\n\npublic class App {\n    String greet() { return Words.hello(); }\n}\n";
    write_all(&root, &[(".git/HEAD", "ref: refs/heads/main\n"), (".gitignore", "*.jar\n"), ("src/app/App.java", app)]);
    let library = beside(&scratch, "words");
    write_all(
        &library,
        &[(
            "com/lib/Words.java",
            "package com.lib;\n\npublic class Words {\n    public static String hello() { return \"hi\"; }\n}\n",
        )],
    );
    let built = |program: &str, args: &[&str]| {
        let output = std::process::Command::new(program).args(args).current_dir(&library).output().unwrap();
        assert!(output.status.success(), "{program}: {}", stderr(&output));
    };
    built("javac", &["-d", "classes", "com/lib/Words.java"]);
    std::fs::create_dir_all(root.join("lib")).unwrap();
    built("jar", &["cf", &root.join("lib/words.jar").to_string_lossy(), "-C", "classes", "."]);
    let before = Scratch::files_below(&root);

    let output = validate_cli(&scratch, &root, &["--json"]);
    assert_eq!(run_report(&output), json!([]), "{}", stderr(&output));
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(Scratch::files_below(&root), before, "nothing written into the user's tree");
}

#[test]
fn maven_offline_compile_errors_then_surefire_failures() {
    let test = "package com.acme;\n\nimport static org.junit.Assert.assertEquals;\nimport org.junit.Test;\n\npublic class GreeterTest {\n    @Test\n    public void greetsWarmly() {\n        assertEquals(\"Hi, Ann\", new Greeter().greet(\"Ann\")); // fails here\n    }\n}\n";
    let scratch = Scratch::new(&[
        ("pom.xml", MAVEN_POM),
        ("src/main/java/com/acme/Greeter.java", GREETER),
        ("src/test/java/com/acme/GreeterTest.java", test),
    ]);
    offline_maven(&scratch);

    let output = validate_cli(&scratch, &scratch.workspace(), &["--json"]);
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    let diagnostics = run_report(&output);
    let ours = placed(&diagnostics);
    let theirs = javac_raw(
        &scratch.workspace().join("src/main/java"),
        &["com/acme/Greeter.java"],
        &beside(&scratch, "javac-out"),
    )
    .into_iter()
    .map(|e| Expected { path: format!("src/main/java/{}", e.path), ..e })
    .collect::<Vec<_>>();
    assert_eq!(ours, theirs, "Maven's compiler plugin reports what javac does");
    assert!(diagnostics.as_array().unwrap().iter().all(|d| d["source"] == "maven"));

    let fixed = "package com.acme;\n\npublic class Greeter {\n    public String greet(String name) {\n        return \"Hello, \" + name;\n    }\n}\n";
    scratch.write("src/main/java/com/acme/Greeter.java", fixed);
    let output = validate_cli(&scratch, &scratch.workspace(), &["--json", "--tests"]);
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    let diagnostics = run_report(&output);
    let (line, _) = marked(test, "// fails here", "assertEquals");
    let failure = failure(&diagnostics, "GreeterTest.greetsWarmly", &output);
    assert_eq!(failure["path"], "src/test/java/com/acme/GreeterTest.java");
    assert_eq!(failure["range"]["start"]["line"], line);
    let at_line = diagnostics.as_array().unwrap().iter().filter(|d| d["range"]["start"]["line"] == line).count();
    assert_eq!(at_line, 1, "the console and the XML report say the same failure once: {diagnostics:#}");
    assert!(failure["message"].as_str().unwrap().contains("expected:<H[i], Ann> but was:<H[ello], Ann>"), "{failure}");
    assert!(!scratch.workspace().join("target").exists(), "Maven built in the shadow, not here");
}

#[test]
fn a_module_of_a_maven_project_is_built_with_the_parent_it_inherits_from() {
    // The user opened one module: its Java level, encoding and version come from the parent
    // POM at the repository's root, which Maven reads from disk (`../pom.xml`).
    let parent = MAVEN_POM
        .replace("<artifactId>greeter</artifactId>", "<artifactId>acme</artifactId>\n  <packaging>pom</packaging>\n  <modules><module>greeter</module></modules>")
        .replace("  <dependencies>\n    <dependency><groupId>junit</groupId><artifactId>junit</artifactId><version>4.13.2</version><scope>test</scope></dependency>\n  </dependencies>\n", "");
    assert!(parent.contains("<packaging>pom</packaging>") && !parent.contains("junit"), "{parent}");
    let module = "<project xmlns=\"http://maven.apache.org/POM/4.0.0\">\n  <modelVersion>4.0.0</modelVersion>\n  <parent><groupId>com.acme</groupId><artifactId>acme</artifactId><version>1.0</version></parent>\n  <artifactId>greeter</artifactId>\n</project>\n";
    let scratch = Scratch::new(&[]);
    let root = scratch.workspace();
    write_all(
        &root,
        &[
            (".git/HEAD", "ref: refs/heads/main\n"),
            ("pom.xml", &parent),
            ("greeter/pom.xml", module),
            ("greeter/src/main/java/com/acme/Greeter.java", GREETER),
        ],
    );
    offline_maven(&scratch);
    let before = Scratch::files_below(&root);
    let greeter = root.join("greeter");

    let output = validate_cli(&scratch, &greeter, &["--json"]);
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    let diagnostics = run_report(&output);
    let theirs = javac_raw(&greeter.join("src/main/java"), &["com/acme/Greeter.java"], &beside(&scratch, "javac-out"))
        .into_iter()
        .map(|e| Expected { path: format!("src/main/java/{}", e.path), ..e })
        .collect::<Vec<_>>();
    assert_eq!(placed(&diagnostics), theirs, "the module's own errors: {}", stderr(&output));
    assert!(!stderr(&output).contains("Non-resolvable parent POM"), "{}", stderr(&output));
    assert_eq!(Scratch::files_below(&root), before, "nothing written into the user's tree");
}

#[test]
fn tsc_positions_match_the_compiler_api() {
    let scratch = Scratch::new(&[]);
    let project = scratch.workspace().join("ts app");
    write_all(
        &project,
        &[
            (
                "tsconfig.json",
                r#"{ "compilerOptions": { "strict": true, "noEmit": true, "target": "es2020", "types": [] }, "include": ["src dir"] }"#,
            ),
            ("package.json", r#"{ "name": "ts-app", "private": true }"#),
            (
                "src dir/main.ts",
                "const label = \"😀\"; const count: number = \"three\";\nexport function size(word: string): number {\n  return word.lenght;\n}\n",
            ),
        ],
    );
    link_typescript(&project);
    let output = validate_cli(&scratch, &project, &["--json"]);
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    let diagnostics = run_report(&output);
    let theirs = tsc_api(&project);
    assert_eq!(theirs.len(), 2, "{theirs:?}");
    assert_eq!(placed(&diagnostics), theirs);
    let typo = diagnostics.as_array().unwrap().iter().find(|d| d["code"] == "TS2551").unwrap();
    assert_eq!(typo["source"], "tsc");
    assert_eq!(typo["message"], "Property 'lenght' does not exist on type 'string'. Did you mean 'length'?");
}

#[test]
fn a_package_of_a_typescript_monorepo_is_checked_with_the_install_and_configuration_it_shares() {
    // The user opened one package: `tsc` is installed once at the repository's root, and the
    // package's configuration extends a shared base that turns on `strict`.
    let scratch = Scratch::new(&[]);
    let root = scratch.workspace();
    let source = "export function label(name) {\n  return name.trim();\n}\nexport const count: number = \"three\";\n";
    write_all(
        &root,
        &[
            (".git/HEAD", "ref: refs/heads/main\n"),
            ("package.json", r#"{ "name": "acme", "private": true, "workspaces": ["packages/*"] }"#),
            (
                "tsconfig.base.json",
                "{\n  // every package\n  \"compilerOptions\": { \"strict\": true, \"noEmit\": true, \"target\": \"es2020\", \"types\": [] },\n}\n",
            ),
            ("packages/app/package.json", r#"{ "name": "@acme/app", "private": true }"#),
            ("packages/app/tsconfig.json", r#"{ "extends": "../../tsconfig.base.json", "include": ["src"] }"#),
            ("packages/app/src/index.ts", source),
        ],
    );
    link_typescript(&root);
    let before = Scratch::files_below(&root);
    let package = root.join("packages/app");

    let output = validate_cli(&scratch, &package, &["--json"]);
    assert_eq!(output.status.code(), Some(1), "the errors fail the check: {}", stderr(&output));
    let diagnostics = run_report(&output);
    let theirs = tsc_api(&package);
    assert!(theirs.iter().any(|e| e.code.as_deref() == Some("TS7006")), "strict, from the base: {theirs:?}");
    assert_eq!(placed(&diagnostics), theirs, "{diagnostics:#}\n{}", stderr(&output));
    assert!(!stderr(&output).contains("TS5083"), "the shared base was found: {}", stderr(&output));
    assert_eq!(Scratch::files_below(&root), before, "nothing written into the user's tree");
}

#[test]
fn a_package_of_a_monorepo_reads_the_built_declarations_of_the_package_it_imports() {
    // `@acme/lib` is built into its ignored `dist/`, and the app imports it through the
    // workspace's link in `node_modules`, as npm, yarn and pnpm workspaces install it.
    let scratch = Scratch::new(&[]);
    let root = scratch.workspace();
    let options = r#"{ "compilerOptions": { "strict": true, "noEmit": true, "module": "commonjs", "target": "es2020", "types": [] }, "include": ["src"] }"#;
    write_all(
        &root,
        &[
            (".git/HEAD", "ref: refs/heads/main\n"),
            (".gitignore", "dist/\n"),
            ("package.json", r#"{ "name": "acme", "private": true, "workspaces": ["packages/*"] }"#),
            (
                "packages/lib/package.json",
                r#"{ "name": "@acme/lib", "main": "dist/index.js", "types": "dist/index.d.ts" }"#,
            ),
            (
                "packages/lib/src/index.ts",
                "export function shout(text: string): string {\n  return text.toUpperCase();\n}\n",
            ),
            ("packages/lib/dist/index.d.ts", "export declare function shout(text: string): string;\n"),
            ("packages/lib/dist/index.js", "exports.shout = (text) => text.toUpperCase();\n"),
            (
                "packages/app/package.json",
                r#"{ "name": "@acme/app", "private": true, "dependencies": { "@acme/lib": "*" } }"#,
            ),
            ("packages/app/tsconfig.json", options),
            (
                "packages/app/src/index.ts",
                "import { shout } from \"@acme/lib\";\n\nexport const loud: number = shout(\"hi\");\n",
            ),
        ],
    );
    let modules = root.join("node_modules");
    std::fs::create_dir_all(modules.join("@acme")).unwrap();
    let installed = issuewright_tests::toolchains::typescript_modules();
    std::os::unix::fs::symlink(installed.join(".bin"), modules.join(".bin")).unwrap();
    std::os::unix::fs::symlink(installed.join("typescript"), modules.join("typescript")).unwrap();
    std::os::unix::fs::symlink("../../packages/lib", modules.join("@acme/lib")).unwrap();
    let before = Scratch::files_below(&root);
    let package = root.join("packages/app");

    let output = validate_cli(&scratch, &package, &["--json"]);
    let diagnostics = run_report(&output);
    let theirs = tsc_api(&package);
    assert!(theirs.iter().any(|e| e.code.as_deref() == Some("TS2322")), "the declared type, read: {theirs:?}");
    assert_eq!(placed(&diagnostics), theirs, "{diagnostics:#}\n{}", stderr(&output));
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    assert_eq!(Scratch::files_below(&root), before, "nothing written into the user's tree");
}

#[test]
fn a_configuration_of_project_references_is_checked_reference_by_reference() {
    // As Vite's templates write it: the root configuration lists the app's and the tooling's,
    // and names no file itself, so `tsc -p .` would check nothing and pass.
    let scratch = Scratch::new(&[]);
    let project = scratch.workspace();
    let app = "const label = \"😀\"; const count: number = \"three\";\nexport { label, count };\n";
    write_all(
        &project,
        &[
            ("package.json", r#"{ "name": "vite-app", "private": true, "scripts": { "build": "tsc -b" } }"#),
            (
                "tsconfig.json",
                "{\n  \"files\": [],\n  \"references\": [{ \"path\": \"./tsconfig.app.json\" }, { \"path\": \"./tsconfig.node.json\" }]\n}\n",
            ),
            (
                "tsconfig.app.json",
                r#"{ "compilerOptions": { "tsBuildInfoFile": "./node_modules/.tmp/tsconfig.app.tsbuildinfo", "strict": true, "noEmit": true, "target": "es2020", "types": [] }, "include": ["src"] }"#,
            ),
            (
                "tsconfig.node.json",
                r#"{ "compilerOptions": { "tsBuildInfoFile": "./node_modules/.tmp/tsconfig.node.tsbuildinfo", "strict": true, "noEmit": true, "types": [] }, "include": ["vite.config.ts"] }"#,
            ),
            ("src/main.ts", app),
            ("vite.config.ts", "export default { port: \"5173\" as unknown as number, root: 1 as string };\n"),
            // The user's own build left its build info here.
            ("node_modules/.tmp/tsconfig.app.tsbuildinfo", "{\"version\":\"the user's\"}"),
        ],
    );
    let modules = issuewright_tests::toolchains::typescript_modules();
    for name in ["typescript", "@types", ".bin"] {
        std::os::unix::fs::symlink(modules.join(name), project.join("node_modules").join(name)).unwrap();
    }
    let before = Scratch::files_below(&project);
    let built_before = std::fs::read_dir(&modules).unwrap().count();

    let output = validate_cli(&scratch, &project, &["--json"]);
    assert_eq!(output.status.code(), Some(1), "the errors of both references fail it: {}", stderr(&output));
    let diagnostics = run_report(&output);
    let found: Vec<(String, u64, Option<String>)> =
        placed(&diagnostics).into_iter().map(|e| (e.path, e.line, e.code)).collect();
    let ts2322 = Some("TS2322".to_owned());
    assert_eq!(
        found,
        [("src/main.ts".to_owned(), 0, ts2322), ("vite.config.ts".to_owned(), 0, Some("TS2352".into()))],
        "{diagnostics:#}\n{}",
        stderr(&output)
    );
    assert_eq!(Scratch::files_below(&project), before, "nothing written into the user's tree");
    assert_eq!(
        std::fs::read_to_string(project.join("node_modules/.tmp/tsconfig.app.tsbuildinfo")).unwrap(),
        "{\"version\":\"the user's\"}",
        "the build info is the shadow's own"
    );
    assert_eq!(std::fs::read_dir(&modules).unwrap().count(), built_before);
}

#[test]
fn node_test_failures_are_placed_in_the_typescript_source() {
    let test = "import test from \"node:test\";\nimport assert from \"node:assert/strict\";\nimport { sum } from \"./sum\";\n\ntest(\"adds two numbers\", () => {\n  const label = \"😀\"; assert.equal(sum(2, 3), 5); // fails here\n});\n";
    let scratch = Scratch::new(&[
        (
            "package.json",
            r#"{ "name": "sums", "private": true, "scripts": { "test": "tsc -p . && node --enable-source-maps --test dist/" } }"#,
        ),
        (
            "tsconfig.json",
            r#"{ "compilerOptions": { "strict": true, "target": "es2020", "module": "commonjs", "esModuleInterop": true, "outDir": "dist", "sourceMap": true, "types": ["node"] }, "include": ["src"] }"#,
        ),
        ("src/sum.ts", "export function sum(a: number, b: number): number {\n  return a - b;\n}\n"),
        ("src/sum.test.ts", test),
    ]);
    link_typescript(&scratch.workspace());
    let output = validate_cli(&scratch, &scratch.workspace(), &["--json", "--tests"]);
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    let diagnostics = run_report(&output);
    // V8 places a call at the called property.
    let (line, character) = marked(test, "// fails here", "equal(sum");
    let failure = failure(&diagnostics, "adds two numbers", &output);
    assert_eq!(failure["path"], "src/sum.test.ts");
    assert_eq!(failure["range"]["start"], json!({"line": line, "character": character}));
    assert!(failure["message"].as_str().unwrap().contains("-1 !== 5"), "{failure}");
    assert!(!scratch.workspace().join("dist").exists(), "compiled in the shadow");
}

/// The diagnostic of the failed test `name`.
fn failure<'a>(diagnostics: &'a Value, name: &str, output: &Output) -> &'a Value {
    let title = format!("test `{name}` failed");
    diagnostics
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["message"].as_str().unwrap().starts_with(&title))
        .unwrap_or_else(|| panic!("{diagnostics:#}\n{}", stderr(output)))
}

fn configured(check: &str, extra: &str) -> Scratch {
    let toml = format!(
        "[validate]\ncheck = {check:?}\nproblem_matcher = '^(?P<file>[^:\\s]+):(?P<line>\\d+):(?P<column>\\d+): (?P<severity>error|warning) (?P<code>\\w+) (?P<message>.*)$'\n{extra}"
    );
    Scratch::new(&[(".issuewright.toml", &toml), ("lib/a.py", "import os\nx = 1\ny = 2\n")])
}

#[test]
fn a_check_that_hangs_is_killed_at_the_time_limit_with_everything_it_started() {
    let scratch = configured("sleep 300 & echo $! > \"$HOME/sleeper.pid\"; wait", "timeout_s = 1\n");
    let started = Instant::now();
    let output = validate_cli(&scratch, &scratch.workspace(), &[]);
    assert_eq!(output.status.code(), Some(2), "a check that did not finish says nothing either way");
    assert!(started.elapsed() < Duration::from_secs(60), "stopped at the limit");
    assert!(stderr(&output).contains("did not finish within 1 s and was stopped"), "{}", stderr(&output));
    let pid: i32 = std::fs::read_to_string(scratch.home().join("sleeper.pid")).unwrap().trim().parse().unwrap();
    let deadline = Instant::now() + Duration::from_secs(10);
    let alive = || {
        std::fs::read_to_string(format!("/proc/{pid}/stat"))
            .is_ok_and(|stat| !stat.rsplit_once(')').is_some_and(|(_, rest)| rest.trim_start().starts_with('Z')))
    };
    while alive() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(!alive(), "the background sleep of the check is gone too");
}

/// `issuewright validate | true`: the reader left before the problems were printed, and the
/// command still says by its exit code that the check failed; `> /dev/full` fails it too.
#[test]
fn the_exit_code_survives_a_reader_that_left_and_a_full_disk_fails_the_command() {
    let scratch = configured("sleep 0.5; printf 'lib/a.py:3:1: error E101 bad\\n'; exit 1", "");
    let workspace = scratch.workspace();
    let args = [std::ffi::OsStr::new("validate"), std::ffi::OsStr::new("--repo"), workspace.as_os_str()];
    let mut child = issuewright_tests::issuewright_piped(&scratch, args);
    drop(child.stdout.take());
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    assert!(!stderr(&output).contains("panicked"), "{}", stderr(&output));

    let full = std::fs::OpenOptions::new().write(true).open("/dev/full").unwrap();
    let args = ["context", "--issue", "lib/a.py is wrong"];
    let output = issuewright_tests::issuewright_command(&scratch, &scratch.workspace(), args, &[])
        .stdout(full)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    assert_eq!(stderr(&output).matches("cannot write to standard output").count(), 1, "said once: {}", stderr(&output));
}

#[test]
fn colours_and_invalid_utf8_do_not_hide_problems() {
    let check = "printf '\\033[1;31mlib/a.py:3:1: error E101 bad \\377\\376 bytes\\033[0m\\n\\033[33mlib/a.py:2:5: warning W7 unused\\033[0m\\n'; exit 1";
    let scratch = configured(check, "");
    let output = validate_cli(&scratch, &scratch.workspace(), &["--json"]);
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    let diagnostics = run_report(&output);
    assert_eq!(
        placed(&diagnostics),
        [
            Expected {
                path: "lib/a.py".into(),
                line: 1,
                character: 4,
                severity: "warning".into(),
                code: Some("W7".into())
            },
            Expected {
                path: "lib/a.py".into(),
                line: 2,
                character: 0,
                severity: "error".into(),
                code: Some("E101".into())
            },
        ]
    );
    let error = diagnostics.as_array().unwrap().iter().find(|d| d["code"] == "E101").unwrap();
    assert_eq!(error["message"], "bad \u{fffd}\u{fffd} bytes", "no escape codes, invalid bytes replaced");
}

#[test]
fn fifty_megabytes_of_output_keep_the_error_at_the_end() {
    let check = "head -c 52428800 /dev/zero | tr '\\000' 'x'; echo; echo 'lib/a.py:2:1: error E2 found at the very end'; exit 1";
    let scratch = configured(check, "");
    let output = validate_cli(&scratch, &scratch.workspace(), &["--json"]);
    assert_eq!(output.status.code(), Some(1), "{}", &stderr(&output)[..stderr(&output).len().min(2000)]);
    let diagnostics = run_report(&output);
    assert_eq!(diagnostics.as_array().unwrap().len(), 1);
    assert_eq!(diagnostics[0]["message"], "found at the very end");
}

#[test]
fn unreadable_output_is_shown_whole_and_a_missing_tool_is_named() {
    let scratch =
        configured("echo 'something odd happened'; echo \"failed to parse manifest at $PWD/lib/a.py\"; exit 3", "");
    let output = validate_cli(&scratch, &scratch.workspace(), &["--json"]);
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(run_report(&output), json!([]));
    assert!(stderr(&output).contains("something odd happened"), "{}", stderr(&output));
    // The build ran in the shadow copy; what it printed names the workspace's file.
    let workspace = std::fs::canonicalize(scratch.workspace()).unwrap();
    let named = format!("failed to parse manifest at {}/lib/a.py", workspace.display());
    assert!(stderr(&output).contains(&named), "{named} in {}", stderr(&output));

    let scratch = Scratch::new(&[(".issuewright.toml", "[validate]\nproblem_matcher = '(unclosed'\n")]);
    let output = validate_cli(&scratch, &scratch.workspace(), &[]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("problem_matcher` is not a valid regex"), "{}", stderr(&output));

    let scratch = Scratch::new(&[("README.md", "nothing to build\n")]);
    let output = validate_cli(&scratch, &scratch.workspace(), &[]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("no check command"), "{}", stderr(&output));
}

#[test]
fn tests_asked_for_where_there_are_none_leave_the_check_standing() {
    let scratch = configured("echo 'lib/a.py:2:1: warning W1 unused'", "");
    let output = validate_cli(&scratch, &scratch.workspace(), &["--json", "--tests"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(run_report(&output)[0]["code"], "W1", "the check's findings are printed");
    assert!(stderr(&output).contains("no test command for this project"), "{}", stderr(&output));
}

#[test]
fn a_file_deleted_in_the_proposal_is_gone_from_the_build() {
    let scratch = Scratch::new(&[
        ("Cargo.toml", CARGO_TOML),
        ("src/lib.rs", "mod extra;\n\npub fn one() -> u32 {\n    extra::ONE\n}\n"),
        ("src/extra.rs", "pub const ONE: u32 = 1;\n"),
    ]);
    scratch.write(
        "replay.jsonl",
        &replay(&[
            turn(&[("delete_file", json!({"path": "src/extra.rs"}))]),
            done("Removed the extra module."),
            done("The crate still declares the module; that is for the issue's author to decide."),
        ]),
    );
    let output = run_cli(&scratch, &["--issue", "remove extra", "--replay", "replay.jsonl", "--json"], &[]);
    let report = run_report(&output);
    assert_eq!(report["state"], "ready", "{report:#}");
    assert_eq!(report["validation"]["build"], "failed", "{report:#}");
    assert_eq!(report["rounds"], 3, "sent back once at its final answer");
    let events = ledger(&scratch.workspace(), report["runId"].as_str().unwrap());
    let check = events.iter().find(|e| e["event"] == "validation").unwrap();
    assert_eq!(check["passed"], false);
    let summary = check["summary"].as_str().unwrap();
    assert!(summary.contains("error[E0583] at src/lib.rs:1:1: file not found for module `extra`"), "{summary}");
    assert_eq!(scratch.read("src/extra.rs").as_deref(), Some("pub const ONE: u32 = 1;\n"), "untouched");
}

/// The arguments of a `patch_file` that adds `two()` after `one()` in the file at `path`.
fn adding_two(path: &str) -> Value {
    json!({"path": path, "old_text": "pub fn one() -> u32 {\n    1\n}\n", "new_text": "pub fn one() -> u32 {\n    1\n}\n\npub fn two() -> u32 {\n    one() + 1\n}\n"})
}

/// A crate with an error before any run: `label` returns a string.
const BROKEN_BEFORE: &str = "pub fn one() -> u32 {\n    1\n}\n\npub fn label() -> u32 {\n    \"one\"\n}\n";

/// A Tauri app: a TypeScript project at the top, with TypeScript linked in, and its Rust
/// side, a crate whose `src/lib.rs` is `lib`, in `src-tauri/`.
fn tauri_app(lib: &str) -> Scratch {
    let scratch = Scratch::new(&[
        ("package.json", r#"{ "name": "app", "private": true }"#),
        (
            "tsconfig.json",
            r#"{ "compilerOptions": { "strict": true, "noEmit": true, "types": [] }, "include": ["src"] }"#,
        ),
        ("src/main.ts", "export const title: string = \"app\";\n"),
        ("src-tauri/Cargo.toml", CARGO_TOML),
        ("src-tauri/src/lib.rs", lib),
    ]);
    link_typescript(&scratch.workspace());
    scratch
}

#[test]
fn a_change_to_a_crate_nested_in_a_typescript_app_is_checked_by_cargo_too() {
    // A Tauri app: the TypeScript project at the top, its Rust side in `src-tauri/`.
    let lib = "pub fn count(words: &[&str]) -> u32 {\n    words.len() as u32\n}\n";
    let scratch = tauri_app(lib);
    scratch.write(
        "replay.jsonl",
        &replay(&[
            turn(&[(
                "patch_file",
                json!({"path": "src-tauri/src/lib.rs", "old_text": "    words.len() as u32\n", "new_text": "    let n: u32 = words.len();\n    n\n"}),
            )]),
            done("Named the count."),
            done("The conversion is left to the issue's author."),
        ]),
    );
    let output = run_cli(&scratch, &["--issue", "name the count", "--replay", "replay.jsonl", "--json"], &[]);
    let report = run_report(&output);
    assert_eq!(report["validation"]["build"], "failed", "{report:#}");
    let events = ledger(&scratch.workspace(), report["runId"].as_str().unwrap());
    let check = events.iter().find(|e| e["event"] == "validation").unwrap();
    let summary = check["summary"].as_str().unwrap();
    assert!(summary.contains("The check `node_modules/.bin/tsc") || summary.contains("tsc --noEmit"), "{summary}");
    assert!(summary.contains("`cd src-tauri && cargo check"), "{summary}");
    assert!(summary.contains("error[E0308] at src-tauri/src/lib.rs:2:18: mismatched types"), "{summary}");
    assert!(summary.contains("let n: u32 = words.len();"), "the proposed line is shown: {summary}");
    assert_eq!(scratch.read("src-tauri/src/lib.rs").as_deref(), Some(lib), "untouched");
}

#[test]
fn a_build_broken_before_the_run_is_not_blamed_on_it() {
    let scratch = Scratch::new(&[
        ("Cargo.toml", CARGO_TOML),
        ("src/lib.rs", "mod legacy;\n\npub fn one() -> u32 {\n    1\n}\n"),
        // Broken before the run, and not what the issue is about.
        ("src/legacy.rs", "pub fn label() -> u32 {\n    \"one\"\n}\n"),
    ]);
    scratch.write("replay.jsonl", &replay(&[turn(&[("patch_file", adding_two("src/lib.rs"))]), done("Added two().")]));
    let output = run_cli(&scratch, &["--issue", "add two()", "--replay", "replay.jsonl"], &[]);
    let stdout = String::from_utf8_lossy(&output.stdout);
    let progress = String::from_utf8_lossy(&output.stderr);
    assert!(
        progress.contains("round 1: check: the build fails with 1 error(s) (1 there before the run)"),
        "{progress}"
    );
    assert!(stdout.contains("ready after 2 round(s)"), "not sent back for an error it did not cause: {stdout}");
    assert!(
        stdout.contains("build: fails, tests: not run (1 validation run(s), every error there before the run)"),
        "{stdout}"
    );

    let run_id = stdout.split("issuewright: run ").nth(1).and_then(|rest| rest.split_whitespace().next()).unwrap();
    let events = ledger(&scratch.workspace(), run_id);
    let baseline = events.iter().find(|e| e["event"] == "baseline").expect("the build was checked without the change");
    assert_eq!((baseline["passed"].as_bool(), baseline["errors"].as_u64()), (Some(false), Some(1)));
    let check = events.iter().find(|e| e["event"] == "validation").unwrap();
    assert_eq!(check["preexisting"], 1);
    assert!(check["summary"].as_str().unwrap().contains("All of these errors were there before your changes"));
}

#[test]
fn a_nested_crate_broken_before_the_run_is_not_blamed_on_it() {
    // The Tauri app's crate was broken before; the run adds a function beside the error.
    let scratch = tauri_app(BROKEN_BEFORE);
    scratch.write(
        "replay.jsonl",
        &replay(&[turn(&[("patch_file", adding_two("src-tauri/src/lib.rs"))]), done("Added two().")]),
    );
    let output = run_cli(&scratch, &["--issue", "add two()", "--replay", "replay.jsonl"], &[]);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.contains("ready after 2 round(s)"), "not sent back for an error it did not cause: {stdout}");
    let run_id = stdout.split("issuewright: run ").nth(1).and_then(|rest| rest.split_whitespace().next()).unwrap();
    let events = ledger(&scratch.workspace(), run_id);
    let baseline = events.iter().find(|e| e["event"] == "baseline").expect("the build was checked without the change");
    assert!(baseline["command"].as_str().unwrap().contains("cd src-tauri && cargo check"), "{baseline}");
    assert_eq!((baseline["passed"].as_bool(), baseline["errors"].as_u64()), (Some(false), Some(1)));
    let check = events.iter().find(|e| e["event"] == "validation").unwrap();
    assert_eq!(check["preexisting"], 1, "{check}");
}

#[test]
fn a_nested_crate_the_proposal_reaches_later_is_compared_with_its_state_before_the_run() {
    // Round 1 breaks the TypeScript side only, so the comparison without the proposal covers
    // no nested crate; round 2 fixes it and reaches the crate, broken before the run.
    let scratch = tauri_app(BROKEN_BEFORE);
    scratch.write(
        "replay.jsonl",
        &replay(&[
            turn(&[("patch_file", json!({"path": "src/main.ts", "old_text": "\"app\"", "new_text": "1"}))]),
            turn(&[
                ("patch_file", json!({"path": "src/main.ts", "old_text": "= 1", "new_text": "= \"app\""})),
                ("patch_file", adding_two("src-tauri/src/lib.rs")),
            ]),
            done("Added two()."),
        ]),
    );
    let output = run_cli(&scratch, &["--issue", "add two()", "--replay", "replay.jsonl"], &[]);
    let stdout = String::from_utf8_lossy(&output.stdout);
    let run_id = stdout.split("issuewright: run ").nth(1).and_then(|rest| rest.split_whitespace().next()).unwrap();
    let events = ledger(&scratch.workspace(), run_id);
    let checks: Vec<&Value> = events.iter().filter(|e| e["event"] == "validation").collect();
    assert!(checks.len() >= 2, "{events:#?}");
    let reached = checks.iter().find(|e| e["command"].as_str().unwrap_or("").contains("cd src-tauri")).unwrap();
    assert_eq!((reached["errors"].as_u64(), reached["preexisting"].as_u64()), (Some(1), Some(1)), "{reached}");
    let baselines: Vec<&Value> = events.iter().filter(|e| e["event"] == "baseline").collect();
    assert!(baselines.iter().any(|b| b["command"].as_str().unwrap().contains("cd src-tauri")), "{baselines:#?}");
    assert!(stdout.contains("every error there before the run"), "{stdout}");
}

#[test]
fn a_check_a_repository_names_runs_without_the_users_model_keys() {
    // A cloned repository's check tries to print the keys where issuewright would show them;
    // the user's own gateway key lives in a variable of their choosing.
    let scratch = configured(
        "echo \"lib/a.py:1:1: error E1 key=${OPENAI_API_KEY:-gone} gateway=${TEAM_GATEWAY_CREDENTIAL:-gone} npm=${NPM_TOKEN:-gone}\"; exit 1",
        "",
    );
    let user_config = scratch.home().join(".config/issuewright/config.toml");
    std::fs::create_dir_all(user_config.parent().unwrap()).unwrap();
    std::fs::write(&user_config, "[provider]\nkind = \"openai\"\napi_key_env = \"TEAM_GATEWAY_CREDENTIAL\"\n").unwrap();
    let output = validate_cli_with_env(
        &scratch,
        &scratch.workspace(),
        &["--json"],
        &[
            ("OPENAI_API_KEY", "sk-test-not-for-checks"),
            ("TEAM_GATEWAY_CREDENTIAL", "gw-test-not-for-checks"),
            ("NPM_TOKEN", "registry-token"),
        ],
    );
    let diagnostics = run_report(&output);
    let message = diagnostics[0]["message"].as_str().unwrap();
    assert_eq!(message, "key=gone gateway=gone npm=registry-token", "model keys are withheld, build tokens are not");
}
