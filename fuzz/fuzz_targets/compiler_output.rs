//! What a build printed (cargo, rustc, javac, Maven, tsc, node tests, JUnit reports), read
//! into problems placed only in the workspace.
#![no_main]

use std::collections::BTreeSet;
use std::path::Path;

use issuewright::validate::parse::{parse, parse_junit};
use issuewright::validate::{Format, PathMap, Problem};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let files: BTreeSet<String> =
        ["src/lib.rs", "src/main/java/a/App.java", "web/src/app.ts"].into_iter().map(String::from).collect();
    let map = PathMap::new(Path::new("/shadow/tree"), Path::new("/home/me/project"), files.clone());
    let text = String::from_utf8_lossy(data);
    let mut problems: Vec<Problem> = parse(&text, &Format::ALL, None, &map);
    problems.extend(parse_junit(&text, &map, "maven").unwrap_or_default());
    let places =
        problems.iter().flat_map(|problem| problem.place.iter().chain(problem.related.iter().map(|r| &r.place)));
    for place in places {
        let path = place.path.as_str();
        assert!(files.contains(path), "{path} is not a file of the workspace");
    }
});
