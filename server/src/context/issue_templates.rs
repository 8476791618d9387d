//! The repository's own issue templates. A reporter often leaves the template's instructions
//! in the issue ("Please include the following information:", "If the affected version of
//! Logstash is 7.9 (or earlier) .."): their words are the template's, not the reporter's, and
//! the template stands in the workspace (`.github/ISSUE_TEMPLATE/bug_report.md`). A line of the
//! issue that a template holds as well is left out before the issue is read.

use std::borrow::Cow;
use std::collections::HashSet;
use std::path::Path;

/// The folders forges keep a repository's issue templates in.
const TEMPLATE_FOLDERS: [&str; 4] =
    [".github/ISSUE_TEMPLATE", ".gitea/ISSUE_TEMPLATE", ".forgejo/ISSUE_TEMPLATE", ".gitlab/issue_templates"];

/// The single template files forges read.
const TEMPLATE_FILES: [&str; 3] = [".github/ISSUE_TEMPLATE.md", ".github/issue_template.md", "ISSUE_TEMPLATE.md"];

/// Templates read from one folder at most, and the bytes read of each.
const MAX_TEMPLATES: usize = 32;
const MAX_TEMPLATE_BYTES: u64 = 64 * 1024;

/// A line counts as the template's only with this many words: a short one (`Steps to
/// reproduce`) says little either way, and the reporter may write it too.
const MIN_TEMPLATE_LINE_WORDS: usize = 4;

/// The lines of a repository's issue templates, as an issue would hold them.
#[derive(Debug, Default)]
pub struct IssueTemplates {
    lines: HashSet<String>,
}

impl IssueTemplates {
    /// The templates under `root` (Markdown templates and YAML issue forms); none where the
    /// repository has none or they cannot be read.
    pub fn of(root: &Path) -> Self {
        let mut paths: Vec<std::path::PathBuf> = TEMPLATE_FILES.iter().map(|file| root.join(file)).collect();
        for folder in TEMPLATE_FOLDERS {
            let Ok(entries) = std::fs::read_dir(root.join(folder)) else { continue };
            let mut found: Vec<_> = entries.filter_map(Result::ok).map(|entry| entry.path()).collect();
            found.sort();
            paths.extend(found.into_iter().take(MAX_TEMPLATES));
        }
        let mut templates = Self::default();
        for path in paths {
            let small = std::fs::metadata(&path).is_ok_and(|meta| meta.is_file() && meta.len() <= MAX_TEMPLATE_BYTES);
            if let Some(text) = small.then(|| std::fs::read_to_string(&path).ok()).flatten() {
                templates.add(&text);
            }
        }
        templates
    }

    /// Adds a template's lines: each as written, and a YAML form's value after its key
    /// (`description: Please include ..`).
    fn add(&mut self, template: &str) {
        for line in template.lines() {
            let value = line.split_once(": ").map(|(_, value)| value.trim().trim_matches(['"', '\'']));
            for text in std::iter::once(line).chain(value) {
                let key = normalized(text);
                if key.split(' ').count() >= MIN_TEMPLATE_LINE_WORDS {
                    self.lines.insert(key);
                }
            }
        }
    }

    /// `text` without the lines a template holds too.
    pub fn without<'t>(&self, text: &'t str) -> Cow<'t, str> {
        if self.lines.is_empty() {
            return Cow::Borrowed(text);
        }
        let kept: Vec<&str> = text.lines().filter(|line| !self.lines.contains(&normalized(line))).collect();
        match kept.len() == text.lines().count() {
            true => Cow::Borrowed(text),
            false => Cow::Owned(kept.join("\n")),
        }
    }
}

/// A line as templates and issues are compared: without a list's or a quote's marker, with
/// its spaces collapsed, lower-cased.
fn normalized(line: &str) -> String {
    let trimmed = line.trim().trim_start_matches(['-', '*', '>', '#']).trim_start();
    let unnumbered = trimmed.trim_start_matches(|c: char| c.is_ascii_digit());
    let unnumbered = match unnumbered.strip_prefix(['.', ')']) {
        Some(rest) if unnumbered.len() < trimmed.len() => rest,
        _ => trimmed,
    };
    unnumbered.split_whitespace().collect::<Vec<_>>().join(" ").to_lowercase()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_lines_a_template_holds_are_left_out_of_the_issue() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let templates = dir.path().join(".github/ISSUE_TEMPLATE");
        std::fs::create_dir_all(&templates).expect("the folder");
        std::fs::write(
            templates.join("bug.md"),
            "**Logstash information**:\n\nPlease include the following information:\n\n\
             1. Logstash version (e.g. `bin/logstash --version`)\n2. JVM installation source (e.g. from the package manager)\n",
        )
        .expect("a template");
        std::fs::write(
            templates.join("form.yml"),
            "body:\n  - type: textarea\n    attributes:\n      description: \"Describe what you expected the parser to do\"\n",
        )
        .expect("a form");
        let issue = "Tokenizer loses data\n**Logstash information**:\nPlease include the following information:\n\
                     1. Logstash version (e.g. `bin/logstash --version`) 8.15\n\
                     2.  JVM installation source (e.g. from the package manager)\n\
                     - Describe what you expected the parser to do\n\
                     The BufferedTokenizer drops the payload after a buffer full error.\n";
        let kept = IssueTemplates::of(dir.path()).without(issue).into_owned();
        assert_eq!(
            kept,
            "Tokenizer loses data\n**Logstash information**:\n\
             1. Logstash version (e.g. `bin/logstash --version`) 8.15\n\
             The BufferedTokenizer drops the payload after a buffer full error."
        );
    }

    #[test]
    fn a_repository_without_templates_leaves_the_issue_whole() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let issue = "Please include the following information: none";
        assert!(matches!(IssueTemplates::of(dir.path()).without(issue), Cow::Borrowed(_)));
        assert!(matches!(IssueTemplates::of(Path::new("/no/such/folder")).without(issue), Cow::Borrowed(_)));
    }
}
