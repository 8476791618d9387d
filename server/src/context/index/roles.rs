//! Which files are test code or examples, by their paths, so the ranking can sink them.

/// True for paths of test code, benchmarks among it (`benches/`, `bench/`, `benchmarks/`,
/// Java's `src/jmh/`), and fuzzing harnesses (cargo-fuzz's `fuzz/fuzz_targets/`).
pub fn is_test_path(path: &str) -> bool {
    let lower = path.to_ascii_lowercase();
    let name = path.rsplit('/').next().unwrap_or(path);
    let java_test = name.ends_with("Test.java")
        || name.ends_with("Tests.java")
        || name.ends_with("IT.java")
        || (name.starts_with("Test") && name[4..].starts_with(|c: char| c.is_ascii_uppercase()));
    let folders: Vec<&str> = lower.split('/').collect();
    let folders = above_package(&folders[..folders.len() - 1]);
    let in_test_folder = folders.iter().enumerate().any(|(at, part)| match *part {
        "test" | "tests" | "__tests__" | "__mocks__" | "__fixtures__" | "testing" | "testdata" | "fixtures" | "e2e"
        | "cypress" | "benches" | "benchmarks" => true,
        // A module of a benchmarking tool (`src/benchmark/`, `cli/tools/bench/`) is its source:
        // the singular names count at the top, or as a package of a monorepo.
        "bench" | "benchmark" => at == 0 || folders[at - 1] == "packages",
        // cargo-fuzz's crate beside a crate's `src` (`tokio/fuzz/`), not a fuzzer's own module.
        "fuzz_targets" => true,
        "fuzz" | "fuzzing" => !folders[..at].contains(&"src"),
        // Gradle's JMH source set, not the `org/openjdk/jmh` package.
        "jmh" => at > 0 && folders[at - 1] == "src",
        // Gradle's and Maven's other test source sets: `src/integration-test/`,
        // `src/integrationTest/`, `src/functional_test/`, `src/testFixtures/`.
        set if at > 0 && folders[at - 1] == "src" => is_test_source_set(set),
        _ => false,
    });
    in_test_folder
        || matches!(name, "tests.rs" | "test.rs")
        || name.ends_with("_test.rs")
        || name.ends_with("_tests.rs")
        || java_test
        || name.contains(".test.")
        || name.contains(".spec.")
        || script_test_support(name)
}

/// Whether a folder right below `src` is a source set of tests by its name, lower-cased:
/// `integration-test`, `integrationtest`, `functional_tests`, `e2eTest`, `androidTest`,
/// `testfixtures`; not `latest` nor `contest`.
fn is_test_source_set(name: &str) -> bool {
    const KINDS: [&str; 12] = [
        "acceptance",
        // Android's instrumented tests, `src/androidTest/`.
        "android",
        "component",
        "contract",
        "e2e",
        "end2end",
        "functional",
        "int",
        "integration",
        "perf",
        "smoke",
        "system",
    ];
    let squashed: String = name.chars().filter(|c| *c != '-' && *c != '_').collect();
    let kind = squashed.strip_suffix('s').unwrap_or(&squashed).strip_suffix("test");
    squashed == "testfixtures" || kind.is_some_and(|kind| KINDS.contains(&kind))
}

/// A JavaScript or TypeScript file that sets tests up or configures their runner, by the
/// names the test runners give them (`setupTests.ts`, `test-utils.tsx`, `jest.config.js`,
/// `vitest.setup.ts`).
fn script_test_support(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    let Some((stem, extension)) = lower.split_once('.') else {
        return false;
    };
    let script =
        ["ts", "tsx", "js", "jsx", "mts", "cts", "mjs", "cjs"].iter().any(|e| lower.ends_with(&format!(".{e}")));
    let squashed: String = stem.chars().filter(|c| *c != '-' && *c != '_').collect();
    script
        && (matches!(squashed.as_str(), "setuptests" | "testsetup" | "testutils" | "testhelpers")
            || (matches!(stem, "jest" | "vitest" | "playwright" | "karma" | "cypress")
                && ["config.", "setup.", "workspace."].iter().any(|kind| extension.starts_with(kind))))
}

/// True for example and demonstration programs (`examples/`, `example/`, `demo/`,
/// `playground/`, `samples/`, `sample/`, a `rayon-demo` crate).
pub fn is_example_path(path: &str) -> bool {
    let folders: Vec<&str> = path.split('/').collect();
    let mut folders = above_package(&folders[..folders.len() - 1]).iter();
    folders.any(|part| is_example_word(part) || part.ends_with("-demo") || part.ends_with("_demo"))
}

/// The folders of a path that say what role its file plays: all of them but the package
/// folders of a JVM source set (`com/example/demo` of `src/main/java/com/example/demo/`), which
/// spell the code's package, named by its authors, not a test or example folder.
fn above_package<'a, 'b>(folders: &'a [&'b str]) -> &'a [&'b str] {
    let source_root = folders.windows(3).position(|w| {
        w[0].eq_ignore_ascii_case("src")
            && ["java", "kotlin", "scala", "groovy"].iter().any(|language| w[2].eq_ignore_ascii_case(language))
    });
    match source_root {
        Some(at) => &folders[..at + 3],
        None => folders,
    }
}

/// `example`, `examples`, `demo`, `demos`, `playground`, `playgrounds`, `sample` or
/// `samples`: a folder or word meaning example code.
pub fn is_example_word(word: &str) -> bool {
    matches!(word, "example" | "examples" | "demo" | "demos" | "playground" | "playgrounds" | "sample" | "samples")
}
