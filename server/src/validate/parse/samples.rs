//! The parsers on output recorded from the real tools (cargo 1.95, javac 17, Maven 3.8 with
//! the compiler plugin 3.10 and Surefire 2.22, tsc 5.9 plain and pretty, node 20's test runner), and the
//! same outputs mangled at random: truncated, with bytes replaced and lines dropped.

use std::collections::BTreeSet;
use std::path::Path;

use proptest::prelude::*;

use super::{Format, PathMap, parse, parse_junit};
use crate::validate::problem::{Problem, Severity, Spot};

const CARGO_CHECK: &str = include_str!("samples/cargo-check.jsonl");
const CARGO_TEST: &str = include_str!("samples/cargo-test.txt");
const JAVAC: &str = include_str!("samples/javac.txt");
const TSC: &str = include_str!("samples/tsc.txt");
const TSC_PRETTY: &str = include_str!("samples/tsc-pretty.txt");
const MAVEN_COMPILE: &str = include_str!("samples/maven-compile.txt");
const MAVEN_TEST: &str = include_str!("samples/maven-test.txt");
const SUREFIRE_REPORT: &str = include_str!("samples/surefire-report.xml");
const NODE_TEST: &str = include_str!("samples/node-test.txt");

fn map(tree: &str, files: &[&str]) -> PathMap {
    let files: BTreeSet<String> = files.iter().map(|f| (*f).to_owned()).collect();
    PathMap::new(Path::new(tree), Path::new("/home/user/project"), files)
}

fn at(problem: &Problem) -> (&str, u32, u32) {
    let place = problem.place.as_ref().expect("placed");
    (place.path.as_str(), place.start.line, place.start.column)
}

fn errors(problems: &[Problem]) -> Vec<&Problem> {
    problems.iter().filter(|p| p.severity == Severity::Error).collect()
}

#[test]
fn cargo_check_json() {
    let problems = parse(CARGO_CHECK, &[Format::RustcJson], None, &map("/tmp/samples/rust proj", &["src/lib.rs"]));
    let error = errors(&problems)[0];
    assert_eq!(at(error), ("src/lib.rs", 2, 21), "--> src/lib.rs:3:22");
    assert_eq!(error.code.as_deref(), Some("E0308"));
    assert_eq!(
        error.message,
        "mismatched types\nexpected `u32`, found `usize`\nhelp: you can convert a `usize` to a `u32` and panic if the converted value doesn't fit"
    );
    assert_eq!(error.related[0].message, "expected due to this");
    assert_eq!(error.related[0].place.start, Spot { line: 2, column: 15 });
    assert_eq!(error.replacements[0].text, ".try_into().unwrap()");
    assert_eq!(error.replacements[0].place.start, Spot { line: 2, column: 32 });
    assert_eq!(problems.len(), 2, "the `For more information` note is dropped: {problems:#?}");
    assert_eq!(at(&problems[1]), ("src/lib.rs", 3, 4));
    assert_eq!(problems[1].related[0].message, "expected `usize` because of return type");
}

#[test]
fn cargo_test_panic() {
    let problems = parse(CARGO_TEST, &[Format::CargoTest], None, &map("/t", &["src/lib.rs"]));
    assert_eq!(problems.len(), 1);
    assert_eq!(at(&problems[0]), ("src/lib.rs", 10, 8));
    assert_eq!(
        problems[0].message,
        "test `tests::counts` failed: assertion `left == right` failed: wrong count\n  left: 2\n right: 3"
    );
}

#[test]
fn javac_with_carets_tabs_and_details() {
    let problems = parse(JAVAC, &[Format::Javac], None, &map("/t", &["src/com/acme/Greeter.java"]));
    let places: Vec<_> = problems.iter().map(at).collect();
    assert_eq!(
        places,
        [
            ("src/com/acme/Greeter.java", 4, 21),
            ("src/com/acme/Greeter.java", 5, 27),
            ("src/com/acme/Greeter.java", 7, 24)
        ]
    );
    assert_eq!(problems[1].message, "cannot find symbol\nsymbol:   variable nme\nlocation: class Greeter");
}

#[test]
fn tsc_with_a_space_in_the_path() {
    let problems = parse(TSC, &[Format::Tsc], None, &map("/t", &["src dir/main.ts"]));
    let codes: Vec<_> = problems.iter().map(|p| (at(p), p.code.as_deref().unwrap())).collect();
    assert_eq!(codes, [(("src dir/main.ts", 0, 6), "TS2322"), (("src dir/main.ts", 2, 11), "TS2551")]);
}

#[test]
fn tsc_pretty_output_of_a_project_script() {
    // As a project's own `tsc` prints it when its tsconfig sets `pretty`: colours (removed
    // before parsing, as for every command), a code frame under each error, related lines.
    let text = crate::workspace::strip_ansi(TSC_PRETTY);
    let problems = parse(&text, &[Format::Tsc], None, &map("/t", &["src dir/main.ts"]));
    let found: Vec<_> = problems.iter().map(|p| (at(p), p.code.as_deref().unwrap())).collect();
    assert_eq!(
        found,
        [
            (("src dir/main.ts", 1, 2), "TS2322"),
            (("src dir/main.ts", 3, 6), "TS2741"),
            (("src dir/main.ts", 4, 21), "TS2307"),
            (("src dir/main.ts", 6, 9), "TS2322"),
            (("src dir/main.ts", 7, 33), "TS2322"),
            (("src dir/main.ts", 9, 6), "TS2322"),
        ]
    );
    assert_eq!(problems[0].message, "Type 'number' is not assignable to type 'string'.", "no code frame");
    assert_eq!(
        problems[5].message,
        "Type '{ a: { b: string; }; }' is not assignable to type '{ a: { b: number; }; }'.\n\
         The types of 'a.b' are incompatible between these types.\n\
         Type 'string' is not assignable to type 'number'."
    );
    assert!(problems.iter().all(|p| !p.message.contains('~') && !p.message.contains("declared here")));
}

#[test]
fn maven_compile_errors_listed_twice_are_kept_once() {
    let map = map("/tmp/samples/mvn", &["src/main/java/com/acme/Greeter.java"]);
    let problems = parse(MAVEN_COMPILE, &[Format::Maven], None, &map);
    let places: Vec<_> = problems.iter().map(|p| at(p).1).collect();
    assert_eq!(places, [4, 5, 7]);
    assert_eq!(at(&problems[2]).2, 31, "[8,32]: tab stops of 8");
    assert_eq!(problems[1].message, "cannot find symbol\nsymbol:   variable nme\nlocation: class com.acme.Greeter");
}

#[test]
fn surefire_console_and_xml_report() {
    let map =
        map("/tmp/samples/mvn", &["src/test/java/com/acme/GreeterTest.java", "src/main/java/com/acme/Greeter.java"]);
    let console = parse(MAVEN_TEST, &[Format::MavenTests], None, &map);
    assert_eq!(console.len(), 1);
    assert_eq!(at(&console[0]), ("src/test/java/com/acme/GreeterTest.java", 8, 0));
    let report = parse_junit(SUREFIRE_REPORT, &map, "maven").unwrap();
    assert_eq!(report.len(), 1);
    assert_eq!(at(&report[0]), ("src/test/java/com/acme/GreeterTest.java", 8, 0));
    assert_eq!(
        report[0].message,
        "test `GreeterTest.greetsWarmly` failed: expected:<H[i], Ann> but was:<H[ello], Ann> (org.junit.ComparisonFailure)"
    );
}

#[test]
fn node_tap_report_with_source_maps() {
    let problems = parse(
        NODE_TEST,
        &[Format::Tsc, Format::JsTests],
        None,
        &map("/tmp/jsprobe", &["src/sum.test.ts", "src/sum.ts"]),
    );
    let places: Vec<_> = problems.iter().map(at).collect();
    assert_eq!(places, [("src/sum.test.ts", 5, 9), ("src/sum.test.ts", 10, 8)]);
    assert_eq!(
        problems[0].message,
        "test `adds two numbers` failed: Expected values to be strictly equal:\n\n-1 !== 5"
    );
    assert_eq!(problems[1].message, "test `throws inside` failed: boom é😀");
}

/// Every recorded output, each with its map.
fn samples() -> Vec<(&'static str, PathMap)> {
    vec![
        (CARGO_CHECK, map("/tmp/samples/rust proj", &["src/lib.rs"])),
        (CARGO_TEST, map("/t", &["src/lib.rs"])),
        (JAVAC, map("/t", &["src/com/acme/Greeter.java"])),
        (TSC, map("/t", &["src dir/main.ts"])),
        (TSC_PRETTY, map("/t", &["src dir/main.ts"])),
        (MAVEN_COMPILE, map("/tmp/samples/mvn", &["src/main/java/com/acme/Greeter.java"])),
        (MAVEN_TEST, map("/tmp/samples/mvn", &["src/test/java/com/acme/GreeterTest.java"])),
        (SUREFIRE_REPORT, map("/tmp/samples/mvn", &["src/test/java/com/acme/GreeterTest.java"])),
        (NODE_TEST, map("/tmp/jsprobe", &["src/sum.test.ts"])),
    ]
}

/// A recorded output cut at `cut`, with `flips` bytes replaced and every `drop`-th line gone.
fn mangle(text: &str, cut: usize, flips: &[(usize, u8)], drop: usize) -> String {
    let mut bytes = text.as_bytes()[..cut.min(text.len())].to_vec();
    for (at, byte) in flips {
        if !bytes.is_empty() {
            let index = at % bytes.len();
            bytes[index] = *byte;
        }
    }
    let text = String::from_utf8_lossy(&bytes);
    text.lines()
        .enumerate()
        .filter(|(n, _)| drop == 0 || n % drop != drop - 1)
        .map(|(_, l)| l)
        .collect::<Vec<_>>()
        .join("\n")
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn mangled_outputs_never_panic_and_place_only_workspace_files(
        which in 0usize..8,
        cut in 0usize..7000,
        flips in proptest::collection::vec((0usize..7000, any::<u8>()), 0..12),
        drop in 0usize..5,
    ) {
        let (text, map) = &samples()[which];
        let mangled = mangle(text, cut, &flips, drop);
        let mut problems = parse(&mangled, &Format::ALL, None, map);
        if let Ok(report) = parse_junit(&mangled, map, "maven") {
            problems.extend(report);
        }
        for problem in problems {
            if let Some(place) = problem.place {
                prop_assert!(matches!(map.locate(place.path.as_str()), super::Located::Workspace(_)));
            }
        }
    }

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..2000)) {
        let text = String::from_utf8_lossy(&bytes);
        let map = map("/t", &["src/lib.rs", "a.ts"]);
        let _ = parse(&text, &Format::ALL, None, &map);
        let _ = parse_junit(&text, &map, "gradle");
    }
}
