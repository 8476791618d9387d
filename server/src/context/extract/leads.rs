//! The comments, attributes and decorators just above each item: where its lead starts, and
//! whether an attribute marks it as test code.

use std::collections::{HashMap, HashSet};

use tree_sitter::Node;

use super::test_code::is_test_attribute;
use super::{last_row, text};

/// Nodes that belong to the item below them: comments, attributes and decorators.
const LEAD_KINDS: [&str; 5] = ["line_comment", "block_comment", "comment", "attribute_item", "decorator"];
/// Whether a node of `kind` belongs to the item below it (a comment, attribute or decorator).
pub(in crate::context) fn is_lead_kind(kind: &str) -> bool {
    LEAD_KINDS.contains(&kind)
}

/// Nodes that hold a definition without adding to what comes above it (`export const`).
/// (A TypeScript `namespace` stands in an expression statement.)
const HOLDER_KINDS: [&str; 5] =
    ["export_statement", "lexical_declaration", "variable_declaration", "ambient_declaration", "expression_statement"];
/// Where the comments, attributes and decorators above each item start, read once per body
/// that holds definitions (one pass over its children, where asking each item for its
/// previous sibling would walk the body from its start every time).
#[derive(Default)]
pub(super) struct Leads {
    /// Bodies already read, by node id.
    read: HashSet<usize>,
    /// The 0-based row each item's lead starts on, by node id, for items with a lead.
    rows: HashMap<usize, usize>,
    /// The items whose lead marks them as test code (`#[test]`, `#[cfg(test)]`), by node id.
    tests: HashSet<usize>,
}

/// What the comments, attributes and decorators just above a definition say of it.
pub(super) struct Lead {
    /// The 1-based line they start on, or the definition's own line when there are none.
    pub(super) line: u32,
    /// Whether an attribute marks it as test code.
    pub(super) test: bool,
}

impl Leads {
    /// The comments, attributes and decorators just above `node`: those with no blank line
    /// between them and it, other than a comment that ends the line of the code before it
    /// (`x(); // note`).
    pub(super) fn lead_of(&mut self, node: Node<'_>, source: &[u8]) -> Lead {
        let mut item = node;
        let mut parent = item.parent();
        while let Some(holder) = parent.filter(|parent| HOLDER_KINDS.contains(&parent.kind())) {
            item = holder;
            parent = item.parent();
        }
        if let Some(body) = parent
            && self.read.insert(body.id())
        {
            self.read_body(body, source);
        }
        let row = self.rows.get(&item.id()).copied().unwrap_or(item.start_position().row);
        Lead { line: row as u32 + 1, test: self.tests.contains(&item.id()) }
    }

    fn read_body(&mut self, body: Node<'_>, source: &[u8]) {
        // The first and last rows of the run of comments and attributes seen last, and whether
        // one of its attributes marks test code.
        let mut run: Option<(usize, usize, bool)> = None;
        let mut code_end: Option<usize> = None;
        let mut cursor = body.walk();
        if !cursor.goto_first_child() {
            return;
        }
        loop {
            let child = cursor.node();
            let start = child.start_position().row;
            // `//!` and `/*!` document the module they stand in, not the item below them.
            let inner_doc = source
                .get(child.start_byte()..)
                .is_some_and(|rest| rest.starts_with(b"//!") || rest.starts_with(b"/*!"));
            if is_lead_kind(child.kind()) && !inner_doc {
                let test = child.kind() == "attribute_item" && is_test_attribute(text(child, source));
                run = match run {
                    _ if code_end == Some(start) => None,
                    Some((first, last, tested)) if last + 1 >= start => Some((first, last_row(child), tested || test)),
                    _ => Some((start, last_row(child), test)),
                };
                code_end = None;
            } else {
                if let Some((first, _, test)) = run.filter(|(_, last, _)| last + 1 >= start) {
                    self.rows.insert(child.id(), first);
                    if test {
                        self.tests.insert(child.id());
                    }
                }
                run = None;
                code_end = Some(last_row(child));
            }
            if !cursor.goto_next_sibling() {
                break;
            }
        }
    }
}
