//! What JavaScript written for CommonJS says in its own forms: the module a `require` names,
//! the names it binds, and the owner an assignment gives the function it assigns
//! (`Runner.prototype.run = function () {}`).

use tree_sitter::Node;

use super::{text, unquoted};

/// The module `value` requires, as written (`./runner` of `require('./runner')`, also of
/// `require('./runner').Runner`); none for any other value.
pub(super) fn required_module<'s>(value: Node<'_>, source: &'s [u8]) -> Option<&'s str> {
    let call = match value.kind() {
        "member_expression" => value.child_by_field_name("object")?,
        _ => value,
    };
    if call.kind() != "call_expression"
        || call.child_by_field_name("function").map(|function| text(function, source)) != Some("require")
    {
        return None;
    }
    let arguments = call.child_by_field_name("arguments")?;
    let specifier = arguments.named_child(0).filter(|argument| argument.kind() == "string")?;
    Some(unquoted(specifier, source))
}

/// The module a `require` binds `pattern`'s names from, where `pattern` is the name side of a
/// declarator whose value requires one (`const { Hook } = require('./hook')`), or the name
/// TypeScript's `import fs = require('fs')` binds.
pub(super) fn required_by<'s>(pattern: Node<'_>, source: &'s [u8]) -> Option<&'s str> {
    let parent = pattern.parent()?;
    match parent.kind() {
        "variable_declarator" => required_module(parent.child_by_field_name("value")?, source),
        "import_require_clause" => Some(unquoted(parent.child_by_field_name("source")?, source)),
        _ => None,
    }
}

/// The names a `require`'s pattern binds: `Runner` of `const Runner = ..`, `Hook` and `S` of
/// `const { Hook, Suite: S } = ..`, `a` of `{ a = 1 }`.
pub(super) fn required_bindings<'s>(pattern: Node<'_>, source: &'s [u8]) -> Vec<&'s str> {
    let mut names = Vec::new();
    let mut cursor = pattern.walk();
    let mut stack = vec![pattern];
    while let Some(node) = stack.pop() {
        match node.kind() {
            "identifier" | "shorthand_property_identifier_pattern" => names.push(text(node, source)),
            "pair_pattern" => stack.extend(node.child_by_field_name("value")),
            "object_assignment_pattern" => stack.extend(node.child_by_field_name("left")),
            "object_pattern" | "rest_pattern" => {
                let children: Vec<Node<'_>> = node.named_children(&mut cursor).collect();
                stack.extend(children.into_iter().rev());
            }
            _ => {}
        }
    }
    names
}

/// Whether `node`, a definition, is a function assigned rather than declared: the assignment
/// itself (`Runner.prototype.run = function () {}`) or a property of an object assigned
/// (`module.exports = { run: function () {} }`).
pub(super) fn is_assigned(node: Node<'_>) -> bool {
    match node.kind() {
        "assignment_expression" => true,
        "pair" => assignment_of_object(node).is_some(),
        _ => false,
    }
}

/// What an assigned function is a member of: `Runner` of `Runner.prototype.run = ..` and of
/// `Runner.prototype = { run: .. }`, `Model` of `Model.init = ..`; none for `exports.run`,
/// `module.exports.run` and `module.exports = { run: .. }`, which make a module's functions.
pub(super) fn assigned_container(node: Node<'_>, source: &[u8]) -> Option<String> {
    let holder = match node.kind() {
        "assignment_expression" => node.child_by_field_name("left")?.child_by_field_name("object")?,
        "pair" => assignment_of_object(node)?.child_by_field_name("left")?,
        _ => return None,
    };
    owner(holder, source).map(str::to_owned)
}

/// The assignment whose right side is the object holding `pair`.
fn assignment_of_object(pair: Node<'_>) -> Option<Node<'_>> {
    let object = pair.parent().filter(|parent| parent.kind() == "object")?;
    object.parent().filter(|parent| parent.kind() == "assignment_expression")
}

/// The owner `holder` names: `Runner` of `Runner` and of `Runner.prototype`, `utils` of
/// `lib.utils`; none for `exports` and `module.exports`.
fn owner<'s>(holder: Node<'_>, source: &'s [u8]) -> Option<&'s str> {
    match holder.kind() {
        "identifier" => Some(text(holder, source)).filter(|name| !matches!(*name, "exports" | "module")),
        "member_expression" => {
            let property = text(holder.child_by_field_name("property")?, source);
            let object = holder.child_by_field_name("object")?;
            match property {
                "prototype" => owner(object, source),
                "exports" if object.kind() == "identifier" && text(object, source) == "module" => None,
                _ => Some(property),
            }
        }
        _ => None,
    }
}
