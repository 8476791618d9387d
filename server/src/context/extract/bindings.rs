//! The types bindings hold: a declared type's name, or the type a constructor builds, so a
//! method call through a field, parameter or local says whose method it is.

use tree_sitter::Node;

use super::text;

/// The name of a declared type, without its type arguments or qualifier (`Map` of
/// `Map<String, Long>`, `Entry` of `Map.Entry`, `Client` of `api.Client`, `Semaphore` of
/// `&Arc<sync::Semaphore>`); none for primitives, arrays, tuples, unions, `var` and the like.
pub(super) fn declared_type_name<'a>(node: Node<'_>, source: &'a [u8]) -> Option<&'a str> {
    match node.kind() {
        "type_identifier" => Some(text(node, source)).filter(|name| *name != "var"),
        "scoped_type_identifier" | "nested_type_identifier" => {
            let mut cursor = node.walk();
            let last = node.named_children(&mut cursor).last()?;
            declared_type_name(last, source)
        }
        // Rust: a method called through a smart pointer or a reference is its target's.
        "generic_type" => {
            let base = declared_type_name(node.named_child(0)?, source)?;
            match base {
                "Arc" | "Rc" | "Box" | "Pin" => {
                    let arguments = node.child_by_field_name("type_arguments")?;
                    declared_type_name(arguments.named_child(0)?, source)
                }
                _ => Some(base),
            }
        }
        "reference_type" => declared_type_name(node.child_by_field_name("type")?, source),
        _ => None,
    }
}

/// How many wrappers (`?`, `.await`, `.unwrap()`, `Arc::new(...)`) a value may have around the
/// constructor that says its type; generated code can nest them without end.
const MAX_VALUE_WRAPPERS: usize = 8;

/// The type a binding with no written type holds, where its value is built by a constructor of
/// a named type: `Semaphore::new(1)`, `Client::connect(addr).await?`, `Config::load().unwrap()`,
/// `Arc::new(Pool::default())` (its target's, as with a written `Arc<Pool>`), `Point { x, y }`,
/// `Message::Move { x, y }` (a `Message`), `new RegistryClient(url)`. A call through a type,
/// `T::f(...)`, is taken to build a `T` whatever `f` returns (`Request::builder()` gives a
/// `Request`, among whose methods the calls through the binding are then looked for). None for
/// any other value (a free function's or a method's result, a literal) and for `Self`: nothing
/// says what those hold without inferring types.
pub(super) fn constructed_type_name<'a>(value: Node<'_>, source: &'a [u8]) -> Option<&'a str> {
    let mut node = value;
    for _ in 0..=MAX_VALUE_WRAPPERS {
        let type_name = match node.kind() {
            "try_expression" | "await_expression" | "parenthesized_expression" => {
                node = first_named_child(node)?;
                continue;
            }
            // An enum's variant builds the enum: `Message::Move { x, y }` is a `Message`.
            "struct_expression" => {
                let name = node.child_by_field_name("name")?;
                let owner = (name.kind() == "scoped_type_identifier")
                    .then(|| name.child_by_field_name("path"))
                    .flatten()
                    .and_then(|path| last_path_segment(path, source))
                    .filter(|owner| names_a_type(owner));
                owner.or_else(|| declared_type_name(name, source))
            }
            "object_creation_expression" => declared_type_name(node.child_by_field_name("type")?, source),
            "new_expression" => {
                let constructor = node.child_by_field_name("constructor")?;
                match constructor.kind() {
                    "identifier" => Some(text(constructor, source)),
                    "member_expression" => Some(text(constructor.child_by_field_name("property")?, source)),
                    _ => None,
                }
            }
            "call_expression" => {
                let function = node.child_by_field_name("function")?;
                match function.kind() {
                    // `Config::load().unwrap()` holds what `load` builds, as does `...expect("...")`.
                    "field_expression"
                        if matches!(text(function.child_by_field_name("field")?, source), "unwrap" | "expect") =>
                    {
                        node = function.child_by_field_name("value")?;
                        continue;
                    }
                    "scoped_identifier" => {
                        let owner = last_path_segment(function.child_by_field_name("path")?, source)?;
                        let called = text(function.child_by_field_name("name")?, source);
                        if matches!((owner, called), ("Arc" | "Rc" | "Box", "new") | ("Box", "pin")) {
                            node = first_named_child(node.child_by_field_name("arguments")?)?;
                            continue;
                        }
                        Some(owner)
                    }
                    _ => None,
                }
            }
            _ => None,
        };
        return type_name.filter(|name| names_a_type(name));
    }
    None
}

/// Whether `name` names a type of its own: a type's name starts with a capital, and `Self`,
/// like `this`, names none.
pub(super) fn names_a_type(name: &str) -> bool {
    name.starts_with(|c: char| c.is_uppercase()) && name != "Self"
}

/// The first named child of `node` that is not a comment.
fn first_named_child(node: Node<'_>) -> Option<Node<'_>> {
    let mut cursor = node.walk();
    node.named_children(&mut cursor).find(|child| !child.is_extra())
}

/// The last segment of a Rust path as written (`Semaphore` of `sync::Semaphore`); none for a
/// generic path (`Vec::<u8>`) or anything else.
fn last_path_segment<'a>(path: Node<'_>, source: &'a [u8]) -> Option<&'a str> {
    match path.kind() {
        "identifier" => Some(text(path, source)),
        "scoped_identifier" => Some(text(path.child_by_field_name("name")?, source)),
        _ => None,
    }
}
