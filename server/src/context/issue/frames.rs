//! Stack-trace frames an issue pastes: Java's `at com.x.Foo.bar(Foo.java:12)`.

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
}
