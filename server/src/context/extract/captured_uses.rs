//! What the captures of a language's combined query say of uses: one reading of them, for
//! the uses the index counts (`reading`) and for the lines `find_symbol` shows (`use_lines`),
//! so that the two cannot disagree on what a use is.

use tree_sitter::Node;

use super::token_calls::{TokenUse, passes_through};
use super::values::read_otherwise;
use super::{Language, text};

/// What one capture says of a use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum CapturedUse {
    /// A use wherever it stands: a call, a type or a macro named; `method` for a method
    /// call (`value.name()`) or a field read (`arg.requires`), which reach a member of the
    /// name, no free function.
    Direct {
        /// Whether it is reached through a value.
        method: bool,
    },
    /// A use that counts by where it stands (see [`Places`](super::values::Places)): a path's
    /// last name (`Mode::Sync`), or a name standing as a value (`.map(parse_line)`,
    /// `n > MAX`), which is none where a function around it binds the name (`bindable`).
    Placed {
        /// Whether a binding of the name around it makes it a variable, not a use.
        bindable: bool,
    },
    /// Where the names are no uses: an attribute's arguments (`all` of
    /// `#[cfg(all(unix, test))]`), the names an import or an export clause lists. (A `use`
    /// declaration's or an import's whole text is captured as `import`, which each reader
    /// keeps in its own way.)
    NotUses,
    /// A capture of a use pattern that names nothing here: a module a path passes through
    /// (`sync` of `tokio::sync::Semaphore`), or a name in a macro's tokens or a JSX closing
    /// tag, which other patterns read.
    Nothing,
}

/// What the capture `capture_name` of `node` says of a use; `None` for a capture of no use
/// pattern (a definition, an import, a call's parts), which the reader reads in its own way.
pub(super) fn captured_use(
    language: Language,
    capture_name: &str,
    node: Node<'_>,
    source: &[u8],
) -> Option<CapturedUse> {
    Some(match capture_name {
        "token.attribute" | "import.names" => CapturedUse::NotUses,
        "reference.path" if passes_through(node, source) => CapturedUse::Nothing,
        "reference.path" => CapturedUse::Placed { bindable: false },
        "reference.value" if read_otherwise(language, node) => CapturedUse::Nothing,
        "reference.value" | "reference.argument" => CapturedUse::Placed { bindable: true },
        "reference.method" | "reference.field" => CapturedUse::Direct { method: true },
        reference if reference.starts_with("reference.") => CapturedUse::Direct { method: false },
        _ => return None,
    })
}

/// A use kept with where it stands, until the stretch's macro bodies, attributes, imports and
/// bindings are known: one read from a macro's tokens (see
/// [`TokenMatch`](super::token_calls::TokenMatch)), or a [`CapturedUse::Placed`].
pub(super) struct PlacedUse<'s> {
    /// Where it stands in the source.
    pub at: usize,
    /// Its node, for telling a definition's own name from a use.
    pub node: usize,
    /// Its 1-based line.
    pub line: u32,
    pub name: &'s str,
    /// Whether it is a method call.
    pub method: bool,
    /// The function called through it, when it is a type (`Meter::new(2)`).
    pub called: Option<&'s str>,
    /// A name standing as a value, which is no use where a function around it binds the name.
    pub bindable: bool,
    /// The path written right before it (`Poll` of `Poll::Ready`, `io` of `io::Error`).
    pub owner: Option<&'s str>,
}

impl<'s> PlacedUse<'s> {
    /// The use `node` names, neither a method call nor a call through a type.
    pub(super) fn named(node: Node<'_>, source: &'s [u8], bindable: bool) -> Self {
        PlacedUse {
            at: node.start_byte(),
            node: node.id(),
            line: node.start_position().row as u32 + 1,
            name: text(node, source),
            method: false,
            called: None,
            bindable,
            owner: path_before(node, source),
        }
    }

    /// The use read from a macro's tokens.
    pub(super) fn of_tokens(used: &TokenUse<'_>, source: &'s [u8]) -> Self {
        PlacedUse {
            method: used.method,
            called: used.called.map(|called| text(called, source)),
            ..PlacedUse::named(used.node, source, false)
        }
    }
}

/// The path written right before `name` and `::` in a Rust path, as the source has it: `Poll`
/// of `Poll::Ready`, `std::io` of `std::io::Error`, `io::Error` of `io::Error::new`, `Self` of
/// `Self::new`. Read from the source's bytes, so it serves a macro's tokens too. None after a
/// generic argument (`Vec::<u8>::new`, `<T as Trait>::Output`) or nothing.
pub(super) fn path_before<'s>(name: Node<'_>, source: &'s [u8]) -> Option<&'s str> {
    let is_name_byte = |c: &u8| c.is_ascii_alphanumeric() || *c == b'_' || *c == b'$';
    let (mut start, mut end) = (name.start_byte(), None);
    while let Some(before) = source.get(..start).map(<[u8]>::trim_ascii_end).and_then(|b| b.strip_suffix(b"::")) {
        let before = before.trim_ascii_end();
        let segment = before.iter().rposition(|c| !is_name_byte(c)).map_or(0, |at| at + 1);
        if segment == before.len() {
            break;
        }
        end.get_or_insert(before.len());
        start = segment;
    }
    std::str::from_utf8(source.get(start..end?)?).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::context::extract::parse;

    /// What each capture of `source`'s matches says of a use, as `(capture, text, what)`.
    fn captured(language: Language, source: &str) -> Vec<(String, String, CapturedUse)> {
        use tree_sitter::{QueryCursor, StreamingIterator};
        let tree = parse(language, source.as_bytes(), None).expect("parses");
        let query = &language.queries().combined;
        let mut cursor = QueryCursor::new();
        let mut matches = cursor.matches(query, tree.root_node(), source.as_bytes());
        let mut found = Vec::new();
        while let Some(each) = matches.next() {
            for capture in each.captures() {
                let name = query.capture_names()[capture.index as usize];
                if let Some(what) = captured_use(language, name, capture.node, source.as_bytes()) {
                    found.push((name.to_owned(), text(capture.node, source.as_bytes()).to_owned(), what));
                }
            }
        }
        found
    }

    fn says(found: &[(String, String, CapturedUse)], text: &str) -> Vec<CapturedUse> {
        found.iter().filter(|(_, t, _)| t == text).map(|(.., what)| *what).collect()
    }

    #[test]
    fn calls_types_paths_and_values_are_told_apart() {
        let found = captured(
            Language::Rust,
            "#[cfg(all(unix, feature))]\nfn run(items: Vec<Item>) {\n    let n = count(&items);\n    \
             items.iter().map(parse_line);\n    value.flush();\n    let m = Mode::Sync;\n    \
             tokio::sync::Notify::new();\n    if n > MAX {}\n}\n",
        );
        assert!(says(&found, "count").contains(&CapturedUse::Direct { method: false }), "{found:?}");
        assert!(says(&found, "Item").contains(&CapturedUse::Direct { method: false }), "{found:?}");
        assert!(says(&found, "flush").contains(&CapturedUse::Direct { method: true }), "{found:?}");
        assert!(says(&found, "parse_line").contains(&CapturedUse::Placed { bindable: true }), "{found:?}");
        assert!(says(&found, "MAX").contains(&CapturedUse::Placed { bindable: true }), "{found:?}");
        assert!(says(&found, "Sync").contains(&CapturedUse::Placed { bindable: false }), "{found:?}");
        let sync = says(&found, "sync");
        assert!(!sync.is_empty() && sync.iter().all(|what| *what == CapturedUse::Nothing), "{found:?}");
        assert!(found.iter().any(|(capture, _, what)| capture == "token.attribute" && *what == CapturedUse::NotUses));
        assert!(says(&found, "run").is_empty(), "a definition's name is no use capture: {found:?}");
    }

    #[test]
    fn an_import_clauses_names_and_a_jsx_closing_tag_are_no_uses() {
        let found = captured(Language::Tsx, "import { Button } from './button';\nconst b = <Button>go</Button>;\n");
        assert!(found.iter().any(|(capture, _, what)| capture == "import.names" && *what == CapturedUse::NotUses));
        let button = says(&found, "Button");
        assert!(button.contains(&CapturedUse::Nothing), "the closing tag names it again: {found:?}");
        assert!(button.iter().any(|what| *what != CapturedUse::Nothing), "the opening tag uses it: {found:?}");
    }
}
