//! The words a language reserves, which no definition of its code can be named: `let`, `mut`
//! and `impl` in a pasted Rust block, `public` and `static` in a Java one, `true` and `return`
//! in any, and "common use(99%)" of prose read as a call of `use`. Such a word is no name of
//! the issue where every language the workspace holds reserves it; a word one of them may
//! define is kept (Rust's `Arg::long` and `Default::default`, Java's `type()`, a script's
//! `Map.delete` and zod's `.catch()`).

use crate::context::Language;

/// Rust's strict and reserved keywords (`union`, `default` and `macro_rules` are only
/// contextual, and name items).
const RUST: &[&str] = &[
    "Self", "abstract", "as", "async", "await", "become", "box", "break", "const", "continue", "crate", "do", "dyn",
    "else", "enum", "extern", "false", "final", "fn", "for", "if", "impl", "in", "let", "loop", "macro", "match",
    "mod", "move", "mut", "override", "priv", "pub", "ref", "return", "self", "static", "struct", "super", "trait",
    "true", "try", "type", "typeof", "unsafe", "unsized", "use", "virtual", "where", "while", "yield",
];

/// Java's keywords and literals (`var`, `record` and `yield` are only contextual, and may
/// name a method or a field).
const JAVA: &[&str] = &[
    "abstract",
    "assert",
    "boolean",
    "break",
    "byte",
    "case",
    "catch",
    "char",
    "class",
    "const",
    "continue",
    "default",
    "do",
    "double",
    "else",
    "enum",
    "extends",
    "false",
    "final",
    "finally",
    "float",
    "for",
    "goto",
    "if",
    "implements",
    "import",
    "instanceof",
    "int",
    "interface",
    "long",
    "native",
    "new",
    "null",
    "package",
    "private",
    "protected",
    "public",
    "return",
    "short",
    "static",
    "strictfp",
    "super",
    "switch",
    "synchronized",
    "this",
    "throw",
    "throws",
    "transient",
    "true",
    "try",
    "void",
    "volatile",
    "while",
];

/// The reserved words of JavaScript and TypeScript that no code names a method or a property
/// by: a class may name a method by any reserved word, and libraries do (`delete`, `catch`,
/// `finally`, `default`, `new`, `with`, `throw`), so those are left out.
const SCRIPT: &[&str] = &[
    "break",
    "case",
    "class",
    "const",
    "continue",
    "debugger",
    "do",
    "else",
    "enum",
    "export",
    "extends",
    "false",
    "for",
    "function",
    "if",
    "import",
    "in",
    "instanceof",
    "let",
    "null",
    "return",
    "super",
    "switch",
    "this",
    "true",
    "try",
    "typeof",
    "undefined",
    "var",
    "void",
    "while",
];

/// A family of languages that reserve the same words.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Reserving {
    /// Rust.
    Rust,
    /// Java.
    Java,
    /// JavaScript and TypeScript, TSX and JSX among them.
    Script,
}

impl Reserving {
    /// Every family, for a workspace whose languages are not known.
    pub(super) const ALL: [Self; 3] = [Self::Rust, Self::Java, Self::Script];

    /// The family of `language`.
    pub(super) fn of(language: Language) -> Self {
        match language {
            Language::Rust => Self::Rust,
            Language::Java => Self::Java,
            Language::TypeScript | Language::Tsx | Language::JavaScript => Self::Script,
        }
    }

    /// Whether the family reserves `word`, so that no definition of its code has that name.
    pub(super) fn reserves(self, word: &str) -> bool {
        let words = match self {
            Self::Rust => RUST,
            Self::Java => JAVA,
            Self::Script => SCRIPT,
        };
        words.binary_search(&word).is_ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_keyword_lists_are_sorted_for_binary_search() {
        for words in [RUST, JAVA, SCRIPT] {
            assert!(words.windows(2).all(|pair| pair[0] < pair[1]), "keep the keywords sorted and unique: {words:?}");
        }
    }

    #[test]
    fn a_word_a_language_may_define_is_not_reserved_by_it() {
        assert!(Reserving::Rust.reserves("let") && Reserving::Rust.reserves("Self"));
        for defined in ["long", "short", "new", "default", "this", "union", "from"] {
            assert!(!Reserving::Rust.reserves(defined), "{defined}");
        }
        assert!(Reserving::Java.reserves("public") && Reserving::Java.reserves("long"));
        for defined in ["let", "type", "var", "record", "match", "use"] {
            assert!(!Reserving::Java.reserves(defined), "{defined}");
        }
        assert!(Reserving::Script.reserves("typeof") && Reserving::Script.reserves("function"));
        for defined in ["delete", "catch", "finally", "default", "new", "with", "type", "from", "parse"] {
            assert!(!Reserving::Script.reserves(defined), "{defined}");
        }
    }
}
