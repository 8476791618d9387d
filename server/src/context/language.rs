//! The languages the index understands: their file extensions, tree-sitter grammars, and
//! the queries from `grammars/`, compiled once and embedded in the binary.

use std::sync::LazyLock;

use tree_sitter::Query;

/// A source language.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Language {
    /// `.rs`
    Rust,
    /// `.java`
    Java,
    /// `.ts`, `.mts`, `.cts`
    TypeScript,
    /// `.tsx`
    Tsx,
    /// `.js`, `.jsx`, `.mjs`, `.cjs`, parsed with the TSX grammar.
    JavaScript,
}

impl Language {
    /// Every language, in a fixed order.
    pub const ALL: [Language; 5] = [Self::Rust, Self::Java, Self::TypeScript, Self::Tsx, Self::JavaScript];

    /// The languages the index reads, as a sentence names them.
    pub const INDEXED_NAMES: &'static str = "Rust, Java, TypeScript and JavaScript";

    /// The language of a file, by extension.
    pub fn of_path(path: &str) -> Option<Self> {
        let extension = path.rsplit_once('.')?.1;
        Some(match extension {
            "rs" => Self::Rust,
            "java" => Self::Java,
            "ts" | "mts" | "cts" => Self::TypeScript,
            "tsx" => Self::Tsx,
            "js" | "jsx" | "mjs" | "cjs" => Self::JavaScript,
            _ => return None,
        })
    }

    /// Its lowercase name.
    pub fn name(self) -> &'static str {
        match self {
            Self::Rust => "rust",
            Self::Java => "java",
            Self::TypeScript => "typescript",
            Self::Tsx => "tsx",
            Self::JavaScript => "javascript",
        }
    }

    /// Whether it is TypeScript, TSX or JavaScript, whose modules name what others define by
    /// importing it.
    pub fn is_script(self) -> bool {
        matches!(self, Self::TypeScript | Self::Tsx | Self::JavaScript)
    }

    /// The tree-sitter grammar.
    pub fn grammar(self) -> tree_sitter::Language {
        match self {
            Self::Rust => tree_sitter_rust::LANGUAGE.into(),
            Self::Java => tree_sitter_java::LANGUAGE.into(),
            Self::TypeScript => tree_sitter_typescript::LANGUAGE_TYPESCRIPT.into(),
            Self::Tsx | Self::JavaScript => tree_sitter_typescript::LANGUAGE_TSX.into(),
        }
    }

    /// The compiled queries.
    pub fn queries(self) -> &'static Queries {
        match self {
            Self::Rust => &RUST,
            Self::Java => &JAVA,
            Self::TypeScript => &TYPESCRIPT,
            Self::Tsx | Self::JavaScript => &TSX,
        }
    }
}

/// The queries of a language, compiled into one so a file's tree is walked once.
pub struct Queries {
    /// Definitions (`@name`, `@definition.<kind>`), references (`@reference.call`,
    /// `@reference.type`, and Rust's `@reference.method` for `value.name()`) and imports (`@import`, `@package`, `@module.declaration`).
    pub combined: Query,
}

/// Compiles the query `files` (each a name and its text) of the folder `folder` into one.
fn compile(language: Language, folder: &str, files: &[(&str, &str)]) -> Queries {
    let grammar = language.grammar();
    let combined: Vec<&str> = files.iter().map(|(_, text)| *text).collect();
    match Query::new(&grammar, &combined.join("\n")) {
        Ok(combined) => Queries { combined },
        // Compiling is costly, so the files are compiled one by one only to name the broken one.
        Err(error) => {
            for (what, source) in files {
                if let Err(error) = Query::new(&grammar, source) {
                    panic!("grammars/{folder}/{what}.scm: {error}");
                }
            }
            panic!("grammars/{folder}: the files do not compile together: {error}");
        }
    }
}

macro_rules! grammar_file {
    ($language:literal, $file:literal) => {
        include_str!(concat!("../../../grammars/", $language, "/", $file, ".scm"))
    };
}

/// The text of every query file, for telling whether a cached extraction is still valid.
pub const QUERY_TEXTS: [&str; 10] = [
    grammar_file!("rust", "definitions"),
    grammar_file!("rust", "references"),
    grammar_file!("rust", "imports"),
    grammar_file!("java", "definitions"),
    grammar_file!("java", "references"),
    grammar_file!("java", "imports"),
    grammar_file!("typescript", "definitions"),
    grammar_file!("typescript", "references"),
    grammar_file!("typescript", "imports"),
    grammar_file!("typescript", "jsx"),
];

/// A language's definitions, references and imports, by name, from `folder`.
macro_rules! grammar_files {
    ($folder:literal) => {
        [
            ("definitions", grammar_file!($folder, "definitions")),
            ("references", grammar_file!($folder, "references")),
            ("imports", grammar_file!($folder, "imports")),
        ]
    };
}

static RUST: LazyLock<Queries> = LazyLock::new(|| compile(Language::Rust, "rust", &grammar_files!("rust")));

static JAVA: LazyLock<Queries> = LazyLock::new(|| compile(Language::Java, "java", &grammar_files!("java")));

static TYPESCRIPT: LazyLock<Queries> =
    LazyLock::new(|| compile(Language::TypeScript, "typescript", &grammar_files!("typescript")));

/// TSX and JavaScript: TypeScript's queries and those of JSX.
static TSX: LazyLock<Queries> = LazyLock::new(|| {
    let [definitions, references, imports] = grammar_files!("typescript");
    compile(
        Language::Tsx,
        "typescript",
        &[definitions, references, imports, ("jsx", grammar_file!("typescript", "jsx"))],
    )
});

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extensions_map_to_languages() {
        assert_eq!(Language::of_path("src/lib.rs"), Some(Language::Rust));
        assert_eq!(Language::of_path("A.java"), Some(Language::Java));
        assert_eq!(Language::of_path("types.d.ts"), Some(Language::TypeScript));
        assert_eq!(Language::of_path("App.tsx"), Some(Language::Tsx));
        assert_eq!(Language::of_path("index.mjs"), Some(Language::JavaScript));
        assert_eq!(Language::of_path("README.md"), None);
        assert_eq!(Language::of_path("Makefile"), None);
    }

    #[test]
    fn every_query_compiles_for_its_grammar() {
        for language in Language::ALL {
            let names = language.queries().combined.capture_names();
            for expected in ["name", "reference.call", "reference.type", "import"] {
                assert!(names.contains(&expected), "{language:?} lacks @{expected}");
            }
        }
        assert!(Language::Rust.queries().combined.capture_names().contains(&"reference.method"));
    }
}
