//! Stack-trace frames an issue pastes: Java's `at com.x.Foo.bar(Foo.java:12)`, and which
//! lines of a code block are a trace's.

use std::borrow::Cow;

/// Java stack frames `at com.x.Foo.bar(Foo.java:12)`: the file path suffix, the method and
/// the line; the JDK's own frames left out (see [`is_jdk_frame`]).
pub(super) fn java_frames(text: &str) -> Vec<(String, String, Option<u32>)> {
    let mut frames = Vec::new();
    for line in text.lines() {
        let Some((class_path, location)) = frame_parts(line) else { continue };
        if !location.contains(".java") || is_jdk_class(class_path) {
            continue;
        }
        let mut parts: Vec<&str> = class_path.split('.').collect();
        let Some(method) = parts.pop() else { continue };
        let Some(class) = parts.pop() else { continue };
        let outer = class.split('$').next().unwrap_or(class);
        parts.push(outer);
        let line = location.split_once(':').and_then(|(_, line)| line.trim_end_matches(')').parse().ok());
        frames.push((format!("{}.java", parts.join("/")), method.to_owned(), line));
    }
    frames
}

/// An `at` line's qualified method (`com.x.Foo.bar`, without the module or class loader that
/// Java 9 and later write first: `java.base/`, `app//`) and what its parentheses hold.
fn frame_parts(line: &str) -> Option<(&str, &str)> {
    let rest = line.trim_start().strip_prefix("at ")?;
    let (qualified, location) = rest.split_once('(')?;
    let qualified = qualified.trim();
    Some((qualified.rsplit_once('/').map_or(qualified, |(_, path)| path), location))
}

/// Whether a frame's class is the JDK's own (`java.util.ArrayList`, `javax.`, `jdk.`).
fn is_jdk_class(class_path: &str) -> bool {
    ["java.", "javax.", "jdk."].iter().any(|package| class_path.starts_with(package))
}

/// Whether `line` is a frame of the JDK's own code (`at java.util.ArrayList.forEach(..)`,
/// `at jdk.internal.reflect.NativeMethodAccessorImpl.invoke0(Native Method)`): its code is
/// no workspace's, and its names (`accept`, `run`, `ArrayList`) are namesakes of the
/// workspace's at best.
fn is_jdk_frame(line: &str) -> bool {
    frame_parts(line).is_some_and(|(class_path, _)| is_jdk_class(class_path))
}

/// `text` with the JDK's own frames (see [`is_jdk_frame`]) left as empty lines.
pub(super) fn without_jdk_frames(text: &str) -> Cow<'_, str> {
    if !text.lines().any(is_jdk_frame) {
        return Cow::Borrowed(text);
    }
    Cow::Owned(
        text.split_inclusive('\n')
            .map(|line| match is_jdk_frame(line) {
                true => &line[line.trim_end_matches(['\r', '\n']).len()..],
                false => line,
            })
            .collect(),
    )
}

/// Whether `line` is a stack trace's: a numbered frame (`  12: tokio::runtime::park::run`,
/// as Rust's backtraces number them) or an `at` line (a Java or JavaScript frame, a Rust
/// frame's `at src/main.rs:4:5`).
pub(super) fn is_trace_line(line: &str) -> bool {
    let line = line.trim_start();
    let digits = line.bytes().take_while(u8::is_ascii_digit).count();
    (digits > 0 && line[digits..].starts_with(": ")) || line.starts_with("at ")
}

#[cfg(test)]
mod tests {
    use crate::context::issue::analyze;
    use crate::context::issue::tests::symbol;

    #[test]
    fn java_calls_and_stack_frames() {
        let text = "Add `JsonParser.getNumberTypeFP()`\n\nException in thread \"main\" java.lang.NullPointerException\n\
                    \tat com.google.cloud.tools.jib.registry.credentials.DockerConfigCredentialRetriever.retrieve(DockerConfigCredentialRetriever.java:120)\n";
        let query = analyze(text);
        assert_eq!(symbol(&query, "getNumberTypeFP").unwrap().qualifiers, ["JsonParser"]);
        assert!(
            query
                .paths
                .iter()
                .any(|(p, _)| p
                    == "com/google/cloud/tools/jib/registry/credentials/DockerConfigCredentialRetriever.java")
        );
        assert!(symbol(&query, "retrieve").is_some());
    }

    #[test]
    fn the_jdks_own_frames_name_nothing_and_a_module_prefix_is_no_package() {
        let text = "Crash\n```\njava.lang.IllegalStateException: closed\n\
                    \tat java.base/java.util.ArrayList.forEach(ArrayList.java:1541)\n\
                    \tat java.util.stream.ReferencePipeline$3$1.accept(ReferencePipeline.java:195)\n\
                    \tat jdk.internal.reflect.NativeMethodAccessorImpl.invoke0(Native Method)\n\
                    \tat javax.swing.SwingWorker.run(SwingWorker.java:334)\n\
                    \tat app//com.acme.Pipeline.drain(Pipeline.java:42)\n```\n";
        let frames = super::java_frames(text);
        assert_eq!(frames, [("com/acme/Pipeline.java".to_owned(), "drain".to_owned(), Some(42))]);
        let query = analyze(text);
        for name in ["forEach", "accept", "invoke0", "run"] {
            assert!(symbol(&query, name).is_none(), "`{name}` is the JDK's: {:?}", query.symbols);
        }
        assert!(symbol(&query, "drain").is_some());
    }

    #[test]
    fn the_lines_of_a_stack_trace_are_told_from_code() {
        for line in [
            "  12: tokio::runtime::park::CachedParkThread::block_on",
            "             at ./src/runtime/park.rs:281:63",
            "\tat com.fasterxml.jackson.databind.ObjectMapper.readValue(ObjectMapper.java:3548)",
            "    at Object.<anonymous> (src/index.ts:4:11)",
            "0: std::panicking::begin_panic",
        ] {
            assert!(super::is_trace_line(line), "{line:?}");
        }
        for line in [
            "let mapper = ObjectMapper::new();",
            "Command::new(\"app\").arg(Arg::new(\"x\"))",
            "12 │ def get_file_name []: table<name: string>",
            "1:2 error: expected `;`",
            "attempt to subtract with overflow",
            "",
        ] {
            assert!(!super::is_trace_line(line), "{line:?}");
        }
    }
}
