//! Which definitions are test code: test attributes, and the helpers inside test modules.

use tree_sitter::Node;

use super::{Definition, FileSymbols, last_row, text};

/// Marks the definitions inside test code (the helpers of a `#[cfg(test)] mod tests`) as test
/// code too; `definitions` are in source order.
pub(super) fn mark_nested_test_code(definitions: &mut [Definition]) {
    let tests = LineSpans::new(definitions.iter().filter(|d| d.test).map(|d| (d.line, d.end_line)));
    if tests.is_empty() {
        return;
    }
    for definition in definitions.iter_mut().filter(|d| !d.test) {
        definition.test = tests.holds(definition.line);
    }
}

/// Marks the definitions inside Rust code that what holds it keeps to tests as test code: the
/// items an attribute marks (the methods of a `#[cfg(test)] impl Clock`), and the files and
/// modules that start `#![cfg(test)]`, the module itself included, and the modules declared
/// there. Read from the whole tree,
/// as the items of a file read one by one do not see what holds them; only the items of the
/// file and of its modules, impls and traits are visited.
pub(super) fn mark_test_held_code(root: Node<'_>, source: &[u8], symbols: &mut FileSymbols) {
    let mut spans = Vec::new();
    add_test_held_spans(root, source, &mut spans);
    if spans.is_empty() {
        return;
    }
    let spans = LineSpans::new(spans.into_iter());
    for definition in symbols.definitions.iter_mut().filter(|d| !d.test) {
        definition.test = spans.holds(definition.line);
    }
    // The modules declared there, whose files are test code then (`mod helpers;` inside a
    // `#[cfg(test)] mod tests { .. }`).
    for declaration in symbols.module_declarations.iter_mut().filter(|d| !d.test) {
        declaration.test = spans.holds(declaration.line);
    }
}

/// Adds the lines (1-based, first and last) of what `body` (a file, or the braces of a module,
/// impl or trait) keeps to tests: all of it when it starts `#![cfg(test)]`, else each item an
/// attribute marks, and what the items holding items of their own keep.
fn add_test_held_spans(body: Node<'_>, source: &[u8], spans: &mut Vec<(u32, u32)>) {
    let rows = |node: Node<'_>| (node.start_position().row as u32 + 1, last_row(node) as u32 + 1);
    // An attribute stands for the next item, with other attributes and comments between them.
    let mut marked = false;
    let mut cursor = body.walk();
    for child in body.children(&mut cursor) {
        match child.kind() {
            "inner_attribute_item" if is_test_attribute(text(child, source)) => {
                // From the module's own line, which may stand above its braces.
                let holder = body.parent().filter(|_| body.kind() != "source_file").unwrap_or(body);
                spans.push((rows(holder).0, rows(body).1));
                return;
            }
            "attribute_item" => marked |= is_test_attribute(text(child, source)),
            "line_comment" | "block_comment" | "inner_attribute_item" => {}
            _ if marked => {
                spans.push(rows(child));
                marked = false;
            }
            _ => {
                if let Some(items) = child.child_by_field_name("body").filter(|body| body.kind() == "declaration_list")
                {
                    add_test_held_spans(items, source, spans);
                }
            }
        }
    }
}

/// Line ranges that may nest or overlap (the bodies of a file's functions, its test items),
/// asked whether a line lies in any of them.
pub(in crate::context) struct LineSpans {
    /// The ranges (first and last line, inclusive), by start, each with the furthest end of
    /// those up to it.
    ranges: Vec<(u32, u32)>,
}

impl LineSpans {
    /// The spans of `ranges`, each a first and a last line.
    pub(in crate::context) fn new(ranges: impl Iterator<Item = (u32, u32)>) -> Self {
        let mut ranges: Vec<(u32, u32)> = ranges.collect();
        ranges.sort_unstable();
        let mut furthest = 0;
        for range in &mut ranges {
            furthest = furthest.max(range.1);
            range.1 = furthest;
        }
        Self { ranges }
    }

    /// Whether there are no spans.
    pub(in crate::context) fn is_empty(&self) -> bool {
        self.ranges.is_empty()
    }

    /// Whether `line` lies in one of the spans.
    pub(in crate::context) fn holds(&self, line: u32) -> bool {
        let before = self.ranges.partition_point(|(start, _)| *start <= line);
        before > 0 && self.ranges[before - 1].1 >= line
    }
}

/// The attributes that make a function a test, by the last name of their path: the built-in
/// `#[test]` and `#[bench]`, the runtimes' `#[tokio::test]`, and the test crates' own
/// (`#[rstest]`, `#[test_case(1, 2)]`, `#[quickcheck]`, `#[proptest]` of `test-strategy`,
/// `#[wasm_bindgen_test]`).
const TEST_ATTRIBUTES: [&str; 7] =
    ["test", "bench", "rstest", "test_case", "quickcheck", "proptest", "wasm_bindgen_test"];

/// Whether a Rust attribute (`#[...]` as written) marks test code: `#[test]`, `#[tokio::test]`,
/// `#[tokio::test(flavor = "multi_thread")]`, `#[rstest]`, `#[test_case(1)]` (see
/// [`TEST_ATTRIBUTES`]), `#[cfg(test)]`, `#[cfg(all(test, unix))]`; not `#[cfg(not(test))]`
/// nor `#[cfg(any(test, feature = "x"))]`, which hold code built outside tests. An inner
/// attribute (`#![cfg(test)]`) is read the same way.
pub(super) fn is_test_attribute(written: &str) -> bool {
    let opened = written.strip_prefix("#[").or_else(|| written.strip_prefix("#!["));
    let Some(inner) = opened.and_then(|rest| rest.strip_suffix(']')) else { return false };
    let (path, arguments) = inner.split_once('(').unwrap_or((inner, ""));
    let path: String = path.split_whitespace().collect();
    let last = path.rsplit("::").next().unwrap_or(&path);
    if TEST_ATTRIBUTES.contains(&last) {
        return true;
    }
    // `cfg(test)`, or `test` among the conditions of an `all(...)` (not inside a `not(...)`).
    let condition: String = arguments.split_whitespace().collect();
    let Some(condition) = condition.strip_suffix(')').filter(|_| path == "cfg") else { return false };
    match condition.strip_prefix("all(").and_then(|all| all.strip_suffix(')')) {
        Some(conditions) => top_level_items(conditions).any(|condition| condition == "test"),
        None => condition == "test",
    }
}

/// The items of a comma-separated list whose items may hold lists of their own: `a`,
/// `not(b, c)` and `d` of `a, not(b, c), d`.
fn top_level_items(list: &str) -> impl Iterator<Item = &str> {
    let mut depth = 0_usize;
    list.split(move |c: char| {
        match c {
            '(' => depth += 1,
            ')' => depth = depth.saturating_sub(1),
            _ => {}
        }
        c == ',' && depth == 0
    })
}
