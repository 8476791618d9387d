//! Stack-trace frames an issue pastes: Java's `at com.x.Foo.bar(Foo.java:12)`, and which
//! lines of a code block are a trace's.

/// Java stack frames `at com.x.Foo.bar(Foo.java:12)`: the file path suffix, the method and
/// the line.
pub(super) fn java_frames(text: &str) -> Vec<(String, String, Option<u32>)> {
    let mut frames = Vec::new();
    for line in text.lines() {
        let Some(rest) = line.trim_start().strip_prefix("at ") else { continue };
        let Some((qualified, location)) = rest.split_once('(') else { continue };
        if !location.contains(".java") {
            continue;
        }
        let mut parts: Vec<&str> = qualified.trim().split('.').collect();
        let Some(method) = parts.pop() else { continue };
        let Some(class) = parts.pop() else { continue };
        let outer = class.split('$').next().unwrap_or(class);
        parts.push(outer);
        let line = location.split_once(':').and_then(|(_, line)| line.trim_end_matches(')').parse().ok());
        frames.push((format!("{}.java", parts.join("/")), method.to_owned(), line));
    }
    frames
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
