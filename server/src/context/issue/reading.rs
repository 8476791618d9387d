//! What an issue was read as, for a person to see: the names, paths, lines, folders, other
//! files and messages it gives, its strongest words and what it is about. When the ranking
//! leads the wrong way, this says whether the issue was misread or the code misjudged.

use serde::Serialize;

use super::IssueQuery;

/// How many of the issue's words [`Reading::words`] holds, the weightiest first.
const SHOWN_WORDS: usize = 20;

/// What an [`IssueQuery`] holds, as `issuewright context --reading` and the editor's preview
/// show it.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Reading {
    /// The names the issue gives, in the order it gives them (its title first), each with
    /// what qualifies it, written with `::` (`JoinSet::try_join_next`).
    pub names: Vec<NameRead>,
    /// The paths and file names it gives (`src/walk.rs`, `JsonParser.java`).
    pub paths: Vec<Weighted>,
    /// The lines it gives with a path (`src/walk.rs:12`, a Java frame's `Foo.java:12`).
    pub lines: Vec<String>,
    /// The folders it gives by their path.
    pub folders: Vec<String>,
    /// The files it gives in no language the index parses (`README.md`).
    pub other_files: Vec<String>,
    /// The messages it quotes, looked for in the code's strings.
    pub messages: Vec<String>,
    /// Its weightiest words (twenty at most), the weightiest first.
    pub words: Vec<Weighted>,
    /// What it is about beyond the code: `tests`, `examples`, `documentation`.
    pub about: Vec<&'static str>,
    /// The title read on its own, when the body holds a code block.
    pub title_alone: Option<Box<Reading>>,
}

/// A name the issue gives, and how sure the reading is that it is code.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct NameRead {
    /// The name with its qualifiers (`Feature::WRAP`), a macro's with its `!` (`select!`).
    pub name: String,
    /// Its weight, rounded to hundredths: 1 for a name in backticks, in prose or in a frame
    /// of the workspace's, less in a code block.
    pub weight: f64,
}

/// A path or a word, and its weight.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Weighted {
    /// The path or the word.
    pub text: String,
    /// Its weight, rounded to hundredths.
    pub weight: f64,
}

impl Reading {
    /// What `query` holds.
    pub fn of(query: &IssueQuery) -> Self {
        let names = query
            .symbols
            .iter()
            .map(|mention| {
                let mut name: Vec<&str> = mention.qualifiers.iter().map(String::as_str).collect();
                name.push(&mention.name);
                let bang = if mention.macro_use { "!" } else { "" };
                NameRead { name: format!("{}{bang}", name.join("::")), weight: rounded(mention.weight) }
            })
            .collect();
        let mut words: Vec<&(String, f64)> = query.terms.iter().collect();
        words.sort_by(|a, b| b.1.total_cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        let about = [
            (query.about_tests, "tests"),
            (query.about_examples, "examples"),
            (query.about_documentation, "documentation"),
        ]
        .into_iter()
        .filter_map(|(is, topic)| is.then_some(topic))
        .collect();
        Reading {
            names,
            paths: query
                .paths
                .iter()
                .map(|(path, weight)| Weighted { text: path.clone(), weight: rounded(*weight) })
                .collect(),
            lines: query.locations.iter().map(|(path, line)| format!("{path}:{line}")).collect(),
            folders: query.folders.clone(),
            other_files: query.other_files.clone(),
            messages: query.messages.clone(),
            words: words
                .into_iter()
                .take(SHOWN_WORDS)
                .map(|(word, weight)| Weighted { text: word.clone(), weight: rounded(*weight) })
                .collect(),
            about,
            title_alone: query.title_alone.as_deref().map(|title| Box::new(Reading::of(title))),
        }
    }

    /// The reading as lines of text, each of a kind (`names: ..`), the kinds it holds nothing
    /// of left out; a list longer than `most` ends with how many more it holds.
    pub fn lines(&self, most: usize) -> Vec<String> {
        let mut lines = Vec::new();
        let mut add = |kind: &str, items: Vec<String>| {
            if items.is_empty() {
                return;
            }
            let more = items.len().saturating_sub(most);
            let mut shown = items.into_iter().take(most).collect::<Vec<_>>().join(", ");
            if more > 0 {
                shown.push_str(&format!(" and {more} more"));
            }
            lines.push(format!("{kind}: {shown}"));
        };
        add("names", self.names.iter().map(|name| format!("`{}` {:.2}", name.name, name.weight)).collect());
        add("paths", self.paths.iter().map(|path| format!("{} {:.2}", path.text, path.weight)).collect());
        add("lines", self.lines.clone());
        add("folders", self.folders.iter().map(|folder| format!("{folder}/")).collect());
        add("other files", self.other_files.clone());
        add("messages", self.messages.iter().map(|message| format!("\"{message}\"")).collect());
        add("words", self.words.iter().map(|word| format!("{} {:.2}", word.text, word.weight)).collect());
        add("about", self.about.iter().map(|topic| (*topic).to_owned()).collect());
        if let Some(title) = &self.title_alone {
            for line in title.lines(most) {
                lines.push(format!("title alone, {line}"));
            }
        }
        lines
    }
}

/// `value` to hundredths, as a reading shows weights.
fn rounded(value: f64) -> f64 {
    (value * 100.0).round() / 100.0
}

#[cfg(test)]
mod tests {
    use super::Reading;
    use crate::context::issue::analyze;

    #[test]
    fn a_reading_shows_what_the_issue_gives() {
        let text = "`JoinSet::try_join_next` is missing\n\
                    Like `select!`, see src/task/join_set.rs:12 and docs/guide.md; it panics:\n\
                    ```rust\nlet set = JoinSet::new();\n```\n\
                    ```\nError: the join set holds no finished task\n```\n";
        let reading = Reading::of(&analyze(text));
        let names: Vec<&str> = reading.names.iter().map(|name| name.name.as_str()).collect();
        assert!(names.contains(&"JoinSet::try_join_next"), "{names:?}");
        assert!(names.contains(&"select!"), "{names:?}");
        assert!(reading.paths.iter().any(|path| path.text == "src/task/join_set.rs"), "{reading:?}");
        assert_eq!(reading.lines, ["src/task/join_set.rs:12"]);
        assert_eq!(reading.other_files, ["docs/guide.md"]);
        assert!(reading.messages.iter().any(|message| message == "the join set holds no finished task"), "{reading:?}");
        assert!(reading.words.len() <= super::SHOWN_WORDS);
        assert!(reading.words.windows(2).all(|pair| pair[0].weight >= pair[1].weight), "{reading:?}");
        let title = reading.title_alone.as_deref().expect("a body with a code block reads its title alone");
        assert!(title.names.iter().any(|name| name.name == "JoinSet::try_join_next"), "{title:?}");

        let lines = reading.lines(2);
        assert_eq!(lines[0], "names: `JoinSet` 0.70, `JoinSet::try_join_next` 1.00 and 6 more", "{lines:?}");
        assert!(lines.contains(&"messages: \"the join set holds no finished task\"".to_owned()), "{lines:?}");
        assert!(lines.iter().any(|line| line == "lines: src/task/join_set.rs:12"), "{lines:?}");
        assert!(lines.iter().any(|line| line.starts_with("title alone, names: ")), "{lines:?}");
    }

    #[test]
    fn a_reading_of_nothing_has_no_lines() {
        let reading = Reading::of(&analyze("?!"));
        assert!(reading.names.is_empty() && reading.words.is_empty(), "{reading:?}");
        assert!(reading.lines(10).is_empty());
    }
}
