//! JUnit XML reports (Surefire's `target/surefire-reports`, Gradle's `build/test-results`):
//! each failed or erroring test case, placed at the deepest stack frame of its own class.

use std::sync::LazyLock;

use quick_xml::Reader;
use quick_xml::events::{BytesStart, Event};
use regex::Regex;

use super::located_by_suffix;
use super::paths::PathMap;
use crate::validate::problem::{Problem, Severity};

/// `at com.acme.GreeterTest.greetsWarmly(GreeterTest.java:9)`, after the class loader and
/// module a JVM 9 or later may put first (`app//`, as Gradle's reports hold, `java.base/`,
/// `com.acme@1.0/`).
static FRAME: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"at (?:[\w$.@-]*/){0,2}(?P<class>[\w$.]+)\.(?P<method>[\w$<>]+)\((?P<file>[\w$]+\.\w+):(?P<line>\d+)\)")
        .expect("valid regex")
});

#[derive(Default)]
struct Case {
    name: String,
    class: String,
    file: Option<String>,
    line: Option<u32>,
}

struct Failure {
    message: Option<String>,
    kind: Option<String>,
    text: String,
}

fn attribute(element: &BytesStart<'_>, name: &[u8]) -> Option<String> {
    element
        .attributes()
        .flatten()
        .find(|attribute| attribute.key.as_ref() == name)
        .and_then(|attribute| attribute.unescape_value().ok().map(|value| value.into_owned()))
}

fn case_of(element: &BytesStart<'_>) -> Case {
    Case {
        name: attribute(element, b"name").unwrap_or_default(),
        class: attribute(element, b"classname").unwrap_or_default(),
        file: attribute(element, b"file"),
        line: attribute(element, b"line").and_then(|line| line.parse().ok()),
    }
}

/// The workspace file of a frame's class: `com.acme.GreeterTest` in `GreeterTest.java`
/// lives at `.../com/acme/GreeterTest.java`.
fn frame_path(class: &str, file: &str) -> String {
    let parts: Vec<&str> = class.split('.').collect();
    let package = parts[..parts.len().saturating_sub(1)].join("/");
    if package.is_empty() { file.to_owned() } else { format!("{package}/{file}") }
}

fn problem_of(case: &Case, failure: &Failure, map: &PathMap, source: &str) -> Problem {
    let short_class = case.class.rsplit('.').next().unwrap_or(&case.class);
    let said = failure
        .message
        .clone()
        .filter(|m| !m.trim().is_empty())
        .or_else(|| failure.text.lines().next().map(str::to_owned))
        .unwrap_or_default();
    let kind = failure.kind.as_deref().map(|k| format!(" ({k})")).unwrap_or_default();
    let message = format!("test `{short_class}.{}` failed: {}{kind}", case.name, said.trim());
    let frames: Vec<(String, String, u32)> = FRAME
        .captures_iter(&failure.text)
        .map(|c| (c["class"].to_owned(), c["file"].to_owned(), c["line"].parse().unwrap_or(1)))
        .collect();
    let own = |class: &str| class == case.class || class.starts_with(&format!("{}$", case.class));
    let ordered = frames.iter().filter(|(class, ..)| own(class)).chain(frames.iter().filter(|(class, ..)| !own(class)));
    for (class, file, line) in ordered {
        let located = located_by_suffix(map, &frame_path(class, file), *line, source, message.clone());
        if located.place.is_some() {
            return located;
        }
    }
    if let (Some(file), Some(line)) = (&case.file, case.line) {
        return located_by_suffix(map, file, line, source, message);
    }
    let mut problem = Problem::unplaced(Severity::Error, source, message);
    if !failure.text.trim().is_empty() {
        problem.message.push('\n');
        problem.message.push_str(&crate::workspace::cut_head_tail(failure.text.trim(), 2_000));
    }
    problem
}

/// The failures in one JUnit XML report; a report that is not well-formed XML is an error.
pub fn parse(xml: &str, map: &PathMap, source: &str) -> Result<Vec<Problem>, String> {
    let mut reader = Reader::from_str(xml);
    let mut problems = Vec::new();
    let mut case: Option<Case> = None;
    let mut failure: Option<Failure> = None;
    loop {
        match reader.read_event() {
            Err(error) => return Err(format!("at byte {}: {error}", reader.buffer_position())),
            Ok(Event::Eof) => break,
            Ok(Event::Start(element)) => match element.name().as_ref() {
                b"testcase" => case = Some(case_of(&element)),
                b"failure" | b"error" if case.is_some() => {
                    failure = Some(Failure {
                        message: attribute(&element, b"message"),
                        kind: attribute(&element, b"type"),
                        text: String::new(),
                    });
                }
                _ => {}
            },
            Ok(Event::Empty(element)) => match element.name().as_ref() {
                b"failure" | b"error" => {
                    if let Some(case) = &case {
                        let empty = Failure {
                            message: attribute(&element, b"message"),
                            kind: attribute(&element, b"type"),
                            text: String::new(),
                        };
                        problems.push(problem_of(case, &empty, map, source));
                    }
                }
                b"testcase" => case = None,
                _ => {}
            },
            Ok(Event::Text(text)) => {
                if let Some(failure) = failure.as_mut() {
                    failure.text.push_str(&text.decode().map_err(|e| e.to_string())?);
                }
            }
            Ok(Event::GeneralRef(reference)) => {
                if let Some(failure) = failure.as_mut() {
                    let name = reference.decode().map_err(|e| e.to_string())?;
                    let resolved = quick_xml::escape::resolve_predefined_entity(&name)
                        .map(str::to_owned)
                        .or_else(|| reference.resolve_char_ref().ok().flatten().map(String::from))
                        .unwrap_or_default();
                    failure.text.push_str(&resolved);
                }
            }
            Ok(Event::CData(data)) => {
                if let Some(failure) = failure.as_mut() {
                    failure.text.push_str(&String::from_utf8_lossy(&data));
                }
            }
            Ok(Event::End(element)) => match element.name().as_ref() {
                b"failure" | b"error" => {
                    if let (Some(case), Some(failure)) = (&case, failure.take()) {
                        problems.push(problem_of(case, &failure, map, source));
                    }
                }
                b"testcase" => case = None,
                _ => {}
            },
            Ok(_) => {}
        }
    }
    Ok(problems)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn map() -> PathMap {
        let files = ["src/test/java/com/acme/GreeterTest.java", "src/main/java/com/acme/Greeter.java"];
        PathMap::new(Path::new("/t"), Path::new("/u"), files.iter().map(|f| (*f).to_owned()).collect())
    }

    #[test]
    fn own_class_frames_win_and_entities_are_decoded() {
        let xml = r#"<testsuite><testcase name="nested" classname="com.acme.GreeterTest"><error message="boom &amp; bust" type="java.lang.IllegalStateException">java.lang.IllegalStateException: boom &amp; bust
	at com.acme.Greeter.fail(Greeter.java:20)
	at com.acme.GreeterTest$Inner.run(GreeterTest.java:31)
</error></testcase><testcase name="ok" classname="com.acme.GreeterTest"/></testsuite>"#;
        let problems = parse(xml, &map(), "maven").unwrap();
        assert_eq!(problems.len(), 1);
        let place = problems[0].place.as_ref().unwrap();
        assert_eq!((place.path.as_str(), place.start.line), ("src/test/java/com/acme/GreeterTest.java", 30));
        assert_eq!(
            problems[0].message,
            "test `GreeterTest.nested` failed: boom & bust (java.lang.IllegalStateException)"
        );
    }

    #[test]
    fn frames_with_a_class_loader_or_module_first_are_read() {
        // What Gradle's reports hold: frames rebuilt in the daemon name the application loader.
        let xml = r#"<testsuite><testcase name="greetsWarmly()" classname="com.acme.GreeterTest"><failure message="expected: &lt;Hello&gt; but was: &lt;Hi&gt;" type="org.opentest4j.AssertionFailedError">org.opentest4j.AssertionFailedError: expected: &lt;Hello&gt; but was: &lt;Hi&gt;
	at app//org.junit.jupiter.api.AssertionUtils.fail(AssertionUtils.java:55)
	at app//com.acme.GreeterTest.greetsWarmly(GreeterTest.java:9)
	at java.base/java.lang.reflect.Method.invoke(Method.java:568)
</failure></testcase></testsuite>"#;
        let problems = parse(xml, &map(), "gradle").unwrap();
        let place = problems[0].place.as_ref().expect("placed");
        assert_eq!((place.path.as_str(), place.start.line), ("src/test/java/com/acme/GreeterTest.java", 8));
    }

    #[test]
    fn a_failure_without_frames_keeps_its_text() {
        let xml =
            r#"<testsuite><testcase name="t" classname="Other"><failure>timed out</failure></testcase></testsuite>"#;
        let problems = parse(xml, &map(), "gradle").unwrap();
        assert!(problems[0].place.is_none());
        assert!(problems[0].message.ends_with("timed out"));
    }

    #[test]
    fn malformed_xml_is_an_error_not_a_panic() {
        assert!(parse("<testsuite><testcase name='a'><failure>x</testcase>", &map(), "maven").is_err());
        for xml in ["", "<", "<testsuite", "<failure message='x'/>", "<testcase><failure>&bogus;</failure></testcase>"]
        {
            let _ = parse(xml, &map(), "maven");
        }
    }
}
