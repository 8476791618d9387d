//! Rust module declarations (`mod x;`, also among a macro's tokens), their `#[path]` and
//! enclosing inline modules, procedural macro names, and paths that may start at a module, as
//! the file's own module reads them.

use tree_sitter::Node;

use super::test_code::is_test_attribute;
use super::{ModuleDeclaration, first_of_kind, text, unraw};

/// The declaration whose name is `name`, with its `#[path]` and the inline modules around it.
pub(super) fn module_declaration(name: Node<'_>, source: &[u8]) -> ModuleDeclaration {
    let item = name.parent();
    let path = item.and_then(|item| path_attribute(item, source));
    let within = item.map(|item| enclosing_modules(item, source)).unwrap_or_default();
    let line = name.start_position().row as u32 + 1;
    // Its attributes, and what holds it, are read for the whole file once its items are put
    // together (`test_code::mark_test_held_code`).
    ModuleDeclaration { name: unraw(text(name, source)).to_owned(), path, within, test: false, line }
}

/// A `mod name;` among a macro's tokens (`cfg_rt! { pub mod runtime; }`, `cfg_if!`), the way
/// crates put declarations behind conditions; `keyword` is its `mod` token.
pub(super) fn module_declaration_in_macro(keyword: Node<'_>, source: &[u8]) -> Option<ModuleDeclaration> {
    let name = keyword.next_sibling().filter(|name| name.kind() == "identifier")?;
    name.next_sibling().filter(|end| end.kind() == ";")?;
    // Attributes come before visibility: `#[path = "x.rs"] pub(crate) mod x;`.
    let mut path = None;
    // A test attribute among the tokens, which no tree shows as one (what holds the macro is
    // read for the whole file).
    let mut test = false;
    let mut sibling = keyword.prev_sibling();
    while let Some(node) = sibling {
        match node.kind() {
            "pub" | "#" | "line_comment" | "block_comment" => {}
            "token_tree" if text(node, source).starts_with('(') => {}
            "token_tree" if text(node, source).starts_with('[') => {
                test |= is_test_attribute(&format!("#{}", text(node, source)));
                let key = node.named_child(0).filter(|key| key.kind() == "identifier");
                let value = node.named_child(1).filter(|value| value.kind() == "string_literal");
                if let (Some(key), Some(value)) = (key, value)
                    && text(key, source) == "path"
                {
                    path = first_of_kind(value, "string_content").map(|content| text(content, source).to_owned());
                }
            }
            _ => break,
        }
        sibling = node.prev_sibling();
    }
    Some(ModuleDeclaration {
        name: unraw(text(name, source)).to_owned(),
        path,
        within: enclosing_modules(keyword, source),
        test,
        line: keyword.start_position().row as u32 + 1,
    })
}

/// The names of the inline modules around `node`, outermost first: `mod a { ... }` items,
/// and `mod a { ... }` written among a macro's tokens.
fn enclosing_modules(node: Node<'_>, source: &[u8]) -> Vec<String> {
    let mut within = Vec::new();
    let mut ancestor = node.parent();
    while let Some(node) = ancestor {
        let name = match node.kind() {
            "mod_item" => node.child_by_field_name("name"),
            "token_tree" => node
                .prev_sibling()
                .filter(|name| name.kind() == "identifier")
                .filter(|name| name.prev_sibling().is_some_and(|keyword| keyword.kind() == "mod")),
            _ => None,
        };
        if let Some(name) = name {
            within.push(unraw(text(name, source)).to_owned());
        }
        ancestor = node.parent();
    }
    within.reverse();
    within
}

/// The value of a `#[path = "..."]` among the attributes just before `item`.
fn path_attribute(item: Node<'_>, source: &[u8]) -> Option<String> {
    attributes_before(item).into_iter().find_map(|attribute| {
        let value = Some(attribute)
            .filter(|a| a.named_child(0).is_some_and(|key| text(key, source) == "path"))
            .and_then(|a| a.child_by_field_name("value"));
        value.and_then(|v| first_of_kind(v, "string_content")).map(|content| text(content, source).to_owned())
    })
}

/// The name a Rust procedural macro is used by, when `item` is one: the function's own name
/// under `#[proc_macro]` and `#[proc_macro_attribute]` (`#[tokio::test]` is `fn test`), the
/// derived name under `#[proc_macro_derive(Serialize, ...)]`.
pub(super) fn proc_macro_name(item: Node<'_>, source: &[u8]) -> Option<String> {
    attributes_before(item).into_iter().find_map(|attribute| {
        let key = attribute.named_child(0)?;
        match text(key, source) {
            "proc_macro" | "proc_macro_attribute" => {
                item.child_by_field_name("name").map(|name| unraw(text(name, source)).to_owned())
            }
            "proc_macro_derive" => {
                let arguments = attribute.child_by_field_name("arguments")?;
                first_of_kind(arguments, "identifier").map(|name| text(name, source).to_owned())
            }
            _ => None,
        }
    })
}

/// The `attribute` nodes of the `#[...]` items just before `item`, nearest first.
fn attributes_before(item: Node<'_>) -> Vec<Node<'_>> {
    let mut attributes = Vec::new();
    let mut sibling = item.prev_sibling();
    while let Some(node) = sibling {
        match node.kind() {
            "attribute_item" => attributes.extend(node.named_child(0).filter(|a| a.kind() == "attribute")),
            "line_comment" | "block_comment" => {}
            _ => break,
        }
        sibling = node.prev_sibling();
    }
    attributes
}

/// Whether a path written out in Rust code may start at a module of the workspace: at
/// `crate`, `super` or `self`, or at a lower-case name (a module the file declares or imports,
/// or a crate), but not at the standard library's crates or at a type (`Vec::new`).
pub(super) fn may_name_a_module(path: &str) -> bool {
    let first = path.split("::").next().unwrap_or_default().trim();
    path.contains("::")
        && first.starts_with(|c: char| c.is_ascii_lowercase() || c == '_')
        && !matches!(first, "std" | "core" | "alloc")
}

/// A Rust path written at `node` (a `use` argument, a path in the code) as the file's own module
/// reads it: each inline module around it (`mod tests { .. }`) takes one `super::` off its
/// front, so that `super::*` in a test module is the file's own `self::*` and `super::helper`
/// is `self::helper`, not a name of the module above the file's.
pub(super) fn at_file_level(node: Node<'_>, path: String) -> String {
    if !path.starts_with("super") {
        return path;
    }
    let mut supers = 0;
    let mut rest = path.as_str();
    while let Some(after) = rest.strip_prefix("super").and_then(|after| after.trim_start().strip_prefix("::")) {
        supers += 1;
        rest = after.trim_start();
    }
    if supers == 0 {
        return path;
    }
    let mut inline = 0;
    let mut ancestor = node.parent();
    while let Some(node) = ancestor.filter(|_| inline < supers) {
        inline += usize::from(node.kind() == "mod_item");
        ancestor = node.parent();
    }
    match supers - inline {
        0 => format!("self::{rest}"),
        _ if inline == 0 => path,
        left => format!("{}{rest}", "super::".repeat(left)),
    }
}
