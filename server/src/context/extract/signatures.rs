//! A definition's signature: its head up to the body, on one line, without comments, cut to
//! a bounded length.

use tree_sitter::Node;

use super::{last_row, text};

/// The fields of a definition whose start ends its signature (`right`: an assigned function).
const BODY_FIELDS: [&str; 3] = ["body", "value", "right"];

/// Where the definition's declaration ends and its body starts, as a byte and a 0-based row:
/// the start of its body, or its end when it has none.
pub(super) fn head_end(node: Node<'_>) -> (usize, usize) {
    // A macro's rules are its body: its head is `macro_rules! name`.
    if node.kind() == "macro_definition"
        && let Some(name) = node.child_by_field_name("name")
    {
        return (name.end_byte(), name.end_position().row);
    }
    BODY_FIELDS
        .iter()
        .filter_map(|field| node.child_by_field_name(field))
        // A function held by a name (`const f = (a: A) => ...`, a class field `onClick = () => ...`)
        // ends where its own body starts, so its parameters are kept.
        .map(|body| match body.kind() {
            "arrow_function" | "function_expression" | "function" | "class" => match body.child_by_field_name("body") {
                Some(inner) => (inner.start_byte(), inner.start_position().row),
                None => (body.end_byte(), last_row(body)),
            },
            _ => (body.start_byte(), body.start_position().row),
        })
        .min()
        .unwrap_or((node.end_byte(), last_row(node)))
}

/// The most characters of a signature kept (an ellipsis follows when it is cut).
pub(super) const MAX_SIGNATURE_CHARS: usize = 200;

/// The definition's text up to `head_end` (see [`head_end`]), without its comments, the
/// annotations only the compiler reads (see [`COMPILER_ONLY_ANNOTATIONS`]) and a Java
/// parameter's `final`, on one line, at most [`MAX_SIGNATURE_CHARS`] characters and an
/// ellipsis.
pub(super) fn signature(node: Node<'_>, source: &[u8], head_end: usize) -> String {
    let end = head_end.max(node.start_byte());
    let raw = without_asides(node, source, end);
    // Parameters written one per line read as one list: `(a: A, b: B)`, not `( a: A, b: B, )`.
    let mut one_line = on_one_line(&raw).replace("( ", "(").replace(", )", ")").replace(" )", ")").replace(" ,", ",");
    for suffix in [" =", " {", "{", ";"] {
        if let Some(stripped) = one_line.strip_suffix(suffix) {
            one_line = stripped.to_owned();
        }
    }
    cut_to(one_line, MAX_SIGNATURE_CHARS)
}

/// Java annotations that tell the compiler how to check a definition's body, and nothing a
/// caller or an implementer writes against: left out of signatures, where on every overriding
/// method (`@Override public int getMask()`) they would take the map's room for nothing.
const COMPILER_ONLY_ANNOTATIONS: [&str; 2] = ["Override", "SuppressWarnings"];

/// The text of `node` up to byte `end`, its comments, compiler-only annotations and
/// parameters' `final` left out: on one line, the `// since 2.15` of
/// `@Deprecated // since 2.15` would read as if it hid the rest.
fn without_asides(node: Node<'_>, source: &[u8], end: usize) -> String {
    let head = &source[node.start_byte()..end];
    let mut asides = Vec::new();
    let may_hold_aside = head.windows(2).any(|pair| matches!(pair, b"//" | b"/*"))
        || head.contains(&b'@')
        || head.windows(6).any(|word| word == b"final ");
    if may_hold_aside {
        asides_before(node, source, end, false, &mut asides);
    }
    let mut text = Vec::with_capacity(head.len());
    let mut at = node.start_byte();
    for aside in asides {
        text.extend_from_slice(&source[at..aside.start.max(at)]);
        text.push(b' ');
        at = aside.end.min(end).max(at);
    }
    text.extend_from_slice(&source[at..end]);
    String::from_utf8_lossy(&text).into_owned()
}

/// The byte ranges of the comments and compiler-only annotations below `node` that start
/// before `end`, in order, and, `in_parameter` (below a Java parameter), its `final`, which
/// binds the method's own variable and says nothing to a caller (`read(final int ptr)`).
fn asides_before(
    node: Node<'_>,
    source: &[u8],
    end: usize,
    in_parameter: bool,
    asides: &mut Vec<std::ops::Range<usize>>,
) {
    let mut cursor = node.walk();
    for child in node.children(&mut cursor) {
        if child.start_byte() >= end {
            break;
        }
        let parameter_final = in_parameter && child.kind() == "final";
        if child.kind().ends_with("comment") || is_compiler_only_annotation(child, source) || parameter_final {
            asides.push(child.byte_range());
        } else if child.child_count() > 0 {
            let in_parameter = in_parameter || matches!(child.kind(), "formal_parameter" | "spread_parameter");
            asides_before(child, source, end, in_parameter, asides);
        }
    }
}

/// Whether `node` is a Java annotation of [`COMPILER_ONLY_ANNOTATIONS`], by its last name
/// (`@java.lang.Override` too).
fn is_compiler_only_annotation(node: Node<'_>, source: &[u8]) -> bool {
    matches!(node.kind(), "marker_annotation" | "annotation")
        && node.child_by_field_name("name").is_some_and(|name| {
            let name = text(name, source);
            COMPILER_ONLY_ANNOTATIONS.contains(&name.rsplit('.').next().unwrap_or(name))
        })
}

/// `text` on one line: each run of whitespace, line breaks included, as one space.
pub(super) fn on_one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// `text` cut to at most `max` characters, an ellipsis marking the cut.
pub(super) fn cut_to(text: String, max: usize) -> String {
    let Some((at, _)) = text.char_indices().nth(max) else { return text };
    let in_word = |c: char| c.is_alphanumeric() || c == '_';
    // Not in the middle of a name (`boolean bufferRe…`): before it, unless it is all there is.
    let word_start = text[..at].char_indices().rev().find(|(_, c)| !in_word(*c)).map(|(i, c)| i + c.len_utf8());
    let cut = match word_start {
        Some(start) if text[at..].starts_with(in_word) && at - start < MAX_CUT_WORD => start,
        _ => at,
    };
    format!("{}…", text[..cut].trim_end())
}

/// A name longer than this is cut where the room ends rather than left out whole.
const MAX_CUT_WORD: usize = 32;

/// Most characters of a script constant's value kept in its signature.
pub(super) const MAX_VALUE_CHARS: usize = 60;

/// A script constant as declared, keyword and value on one line (`const TIMEOUT_MS = 30 * 1000`,
/// `const ROUTES = ["a"] as const`, `let debug: boolean`): its name alone says little. A value
/// longer than [`MAX_VALUE_CHARS`] is cut with an ellipsis, and the whole as any signature.
pub(super) fn script_constant_signature(declarator: Node<'_>, source: &[u8]) -> String {
    let keyword = declarator
        .parent()
        .and_then(|declaration| declaration.child(0))
        .map(|first| text(first, source))
        .filter(|first| matches!(*first, "const" | "let" | "var"));
    let value = declarator.child_by_field_name("value");
    let head_end = value.map_or(declarator.end_byte(), |value| value.start_byte());
    let mut signature = on_one_line(&String::from_utf8_lossy(&source[declarator.start_byte()..head_end]));
    if let Some(keyword) = keyword {
        signature.insert_str(0, &format!("{keyword} "));
    }
    if let Some(value) = value {
        signature.push(' ');
        signature.push_str(&cut_to(on_one_line(text(value, source)), MAX_VALUE_CHARS));
    }
    cut_to(signature, MAX_SIGNATURE_CHARS)
}
