//! What a definition is a member of: the name of the `impl`, trait, class, interface or module
//! around it.

use tree_sitter::Node;

use super::signatures::on_one_line;
use super::text;

/// Node kinds that contain members, and how to read their names.
pub(super) fn container_name(node: Node<'_>, source: &[u8]) -> Option<String> {
    match node.kind() {
        "impl_item" => {
            let target = node.child_by_field_name("type")?;
            Some(impl_target_name(target, source).unwrap_or_else(|| text(target, source).to_owned()))
        }
        "trait_item"
        | "class_declaration"
        | "interface_declaration"
        | "enum_declaration"
        | "record_declaration"
        | "abstract_class_declaration"
        | "internal_module"
        | "module"
        | "mod_item"
        | "annotation_type_declaration" => definition_name(node.child_by_field_name("name")?, source),
        // A class expression: by its own name, or as an anonymous default export.
        "class" => match node.child_by_field_name("name") {
            Some(name) => definition_name(name, source),
            None => node.parent().filter(|parent| parent.kind() == "export_statement").map(|_| "default".to_owned()),
        },
        _ => None,
    }
}

/// The type an `impl` block is for, by its own name: `Pool` of `pool::Pool`, `Foo<T>` and
/// `&'a Foo`.
fn impl_target_name(target: Node<'_>, source: &[u8]) -> Option<String> {
    let mut target = target;
    // A loop, not recursion: `&&&&...Foo` may nest as deep as the source likes.
    loop {
        target = match target.kind() {
            "generic_type" | "reference_type" | "pointer_type" => target.child_by_field_name("type")?,
            // `impl dyn error::Failure`, `impl dyn Any + Send`
            "dynamic_type" => target.child_by_field_name("trait")?,
            "bounded_type" => target.named_child(0)?,
            _ => break,
        };
    }
    match target.kind() {
        "scoped_type_identifier" => target.child_by_field_name("name").map(|name| text(name, source).to_owned()),
        // A type made of others is named as written, not by the first name in it.
        "tuple_type" | "array_type" | "function_type" => Some(without_paths(text(target, source))),
        _ => first_named_identifier(target, source),
    }
}

/// A type as written, on one line and each path cut to its last name: `(Semaphore, usize)` of
/// `(crate::sync::batch_semaphore::Semaphore, usize)`.
fn without_paths(written: &str) -> String {
    let written = on_one_line(written);
    let mut segments: Vec<&str> = written.split("::").collect();
    let last = segments.pop().unwrap_or_default();
    let mut shortened: String = segments
        .into_iter()
        .map(|segment| segment.trim_end_matches(|c: char| c.is_alphanumeric() || c == '_'))
        .collect();
    shortened.push_str(last);
    shortened
}

/// The name a definition's name node gives: its text, or for an ambient module named by a
/// string (`declare module "virtual:config"`) what the quotes hold, or what follows the opening
/// quote of a string left open; none when that is empty.
pub(super) fn definition_name(name: Node<'_>, source: &[u8]) -> Option<String> {
    let written = text(name, source);
    let name = match name.kind() {
        "string" => {
            let quote = |c: char| c == '"' || c == '\'';
            let opened = written.strip_prefix(quote).unwrap_or(written);
            opened.strip_suffix(quote).unwrap_or(opened)
        }
        _ => written,
    };
    (!name.is_empty()).then(|| name.to_owned())
}

/// How deep a type is searched for its name: `&&&&...X` or deeply nested generics in
/// generated code must not exhaust the stack, and real names sit near the top.
const MAX_NAME_DEPTH: usize = 64;

/// The first type or plain identifier in `node`, depth first, skipping lifetimes
/// (`impl<'a> Iterator for &'a Foo` is about `Foo`, not `a`).
fn first_named_identifier(node: Node<'_>, source: &[u8]) -> Option<String> {
    let mut stack = vec![(node, 0)];
    while let Some((node, depth)) = stack.pop() {
        match node.kind() {
            "type_identifier" | "identifier" => return Some(text(node, source).to_owned()),
            "lifetime" => continue,
            _ if depth >= MAX_NAME_DEPTH => continue,
            _ => {}
        }
        let mut cursor = node.walk();
        let children: Vec<Node<'_>> = node.named_children(&mut cursor).collect();
        stack.extend(children.into_iter().rev().map(|child| (child, depth + 1)));
    }
    None
}

/// The nearest enclosing container of a definition (a few levels up at most).
pub(super) fn container_of(node: Node<'_>, source: &[u8]) -> Option<String> {
    let mut current = node.parent();
    for _ in 0..4 {
        let ancestor = current?;
        if let Some(name) = container_name(ancestor, source) {
            return Some(name);
        }
        current = ancestor.parent();
    }
    None
}

/// The trait of the `impl` block a Rust function sits directly in, by its last name
/// (`Iterator` of `impl Iterator for Lines`, `Display` of `impl fmt::Display for Error`,
/// `From` of `impl From<u8> for Port`); none in an inherent `impl`.
pub(super) fn implemented_trait(node: Node<'_>, source: &[u8]) -> Option<String> {
    let body = node.parent().filter(|parent| parent.kind() == "declaration_list")?;
    let item = body.parent().filter(|parent| parent.kind() == "impl_item")?;
    let mut named = item.child_by_field_name("trait")?;
    loop {
        named = match named.kind() {
            "generic_type" => named.child_by_field_name("type")?,
            "scoped_type_identifier" => named.child_by_field_name("name")?,
            _ => break,
        };
    }
    Some(named.utf8_text(source).ok()?.to_owned())
}

/// True when a function sits directly in an impl, trait, class or interface body.
pub(super) fn is_member(node: Node<'_>) -> bool {
    node.parent().is_some_and(|body| matches!(body.kind(), "declaration_list" | "class_body" | "interface_body"))
        && node.parent().and_then(|body| body.parent()).is_some_and(|owner| owner.kind() != "mod_item")
}
