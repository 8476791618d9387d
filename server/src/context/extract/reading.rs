//! One walk of a file's tree with its language's queries, read into the stretches of the file
//! each match belongs to.

use std::collections::{HashMap, HashSet};

use tree_sitter::{Node, QueryCursor, StreamingIterator, Tree};

use super::bindings::{constructed_type_name, declared_type_name, names_a_type};
use super::captured_uses::{CapturedUse, PlacedUse, captured_use, path_before};
use super::commonjs::{assigned_container, is_assigned, required_bindings, required_by, required_module};
use super::containers::{container_of, definition_name, implemented_trait, is_member};
use super::declarations::{
    at_file_level, may_name_a_module, module_declaration, module_declaration_in_macro, proc_macro_name,
};
use super::item_types::ItemTypes;
use super::leads::{Lead, Leads};
use super::macros::MacroBody;
use super::signatures::{head_end, script_constant_signature, signature};
use super::stretches::{Found, Run};
use super::token_calls::TokenMatch;
use super::values::Bindings;
use super::{Definition, DefinitionKind, FileSymbols, Language, collapsed, count_errors, push_unique, text, unquoted};

/// The names a TypeScript import clause binds in the file (`Button` of `{ Button }`, `b` of
/// `{ a as b }`, `ns` of `* as ns`, a default import's name).
fn import_clause_bindings<'s>(clause: Node<'_>, source: &'s [u8]) -> Vec<&'s str> {
    let mut names = Vec::new();
    let mut cursor = clause.walk();
    let mut stack = vec![clause];
    while let Some(node) = stack.pop() {
        match node.kind() {
            "identifier" => names.push(text(node, source)),
            "import_specifier" => {
                names.extend(
                    node.child_by_field_name("alias").or(node.child_by_field_name("name")).map(|n| text(n, source)),
                );
            }
            _ => {
                let children: Vec<Node<'_>> = node.named_children(&mut cursor).collect();
                stack.extend(children.into_iter().rev());
            }
        }
    }
    names
}

/// The module a TypeScript import clause's statement imports from, as written (`./x` of
/// `import { A } from './x'`); empty where the statement names none.
fn import_source<'s>(clause: Node<'_>, source: &'s [u8]) -> &'s str {
    let from = clause.parent().and_then(|statement| statement.child_by_field_name("source"));
    from.map_or("", |from| unquoted(from, source))
}

/// What one stretch holds while its matches are read: names borrowed from the source.
#[derive(Default)]
struct Reading<'s> {
    symbols: FileSymbols,
    /// Uses, with their nodes: a definition's own name (`struct Foo`) is not a use of it,
    /// and the definition's match may come before or after the reference's.
    uses: Vec<Use<'s>>,
    defined_names: HashSet<usize>,
    typed_calls: HashMap<(&'s str, &'s str), u32>,
    /// Each variable's, parameter's and field's declared type (`None` when a name is declared
    /// with two), and the calls made through one, to be read as calls through its type.
    declared: HashMap<&'s str, Option<&'s str>>,
    receiver_calls: Vec<(&'s str, &'s str)>,
    macros: Vec<MacroBody>,
    /// Uses read from macros' tokens and from paths, kept apart until the stretch's item-level
    /// macro bodies, attributes and imports are known: a body is read again as items, and its
    /// uses count there.
    placed_uses: Vec<PlacedUse<'s>>,
    /// Where the names are no uses: an attribute's arguments (`all` of
    /// `#[cfg(all(unix, test))]`), a `use` declaration's paths, the names an import or an
    /// export clause lists.
    not_uses: Vec<std::ops::Range<usize>>,
    /// The functions and binding patterns, for telling a function passed by its name from a
    /// variable (see [`PlacedUse::bindable`]).
    bindings: Bindings<'s>,
}

/// One use a stretch holds until all its matches are read.
struct Use<'s> {
    /// Its node.
    node: usize,
    /// Where it stands in the source.
    at: usize,
    name: &'s str,
    /// Whether it is reached through a value: a method call (`value.name()`) or a field read
    /// (`arg.requires`).
    method: bool,
    /// The path written right before it (`Poll` of `Poll::Ready`, `std::io` of `std::io::Error`).
    owner: Option<&'s str>,
    /// Whether it stands where only a type can (`Map` of `Map<String, Object> m`).
    as_type: bool,
}

impl Reading<'_> {
    /// What was read, owned, and the macro bodies at the stretch's item level; `item_types`
    /// says how the type names written in the stretch's items read.
    fn done(self, item_types: &ItemTypes<'_>) -> (Found, Vec<MacroBody>) {
        let Reading {
            mut symbols,
            mut uses,
            defined_names,
            mut typed_calls,
            declared,
            receiver_calls,
            macros,
            placed_uses,
            not_uses,
            bindings,
        } = self;
        let places = bindings.places(&macros, &not_uses);
        for token in placed_uses.into_iter().filter(|placed| places.count(placed.at, placed.name, placed.bindable)) {
            uses.push(Use {
                node: token.node,
                at: token.at,
                name: token.name,
                method: token.method,
                owner: token.owner,
                as_type: false,
            });
            if let Some(called) = token.called.filter(|_| names_a_type(token.name)) {
                *typed_calls.entry((token.name, called)).or_default() += 1;
            }
        }
        // A node two patterns capture (a call through a path is a path too) is one use: a
        // plain one where a pattern reads it so (Java's `Feature.WRAP`, a capitalised name
        // after a dot, is a constant or a nested class, not only a member), whatever order the
        // nodes' addresses sort in; and one that stands as a type only where every pattern reads
        // it so.
        uses.sort_unstable_by_key(|used| (used.node, used.method, used.owner));
        uses.dedup_by(|later, kept| {
            let same = later.node == kept.node;
            kept.as_type &= !same || later.as_type;
            same
        });
        let mut counts: HashMap<&str, u32> = HashMap::new();
        let mut method_counts: HashMap<&str, u32> = HashMap::new();
        let mut type_counts: HashMap<&str, u32> = HashMap::new();
        let mut owned_counts: HashMap<(&str, &str), u32> = HashMap::new();
        // A type parameter written alone is no use; a name after one, an associated type named
        // in a trait's arguments and a type after `Self` count as written after the trait (see
        // `ItemTypes::read`).
        let counted = uses.into_iter().filter(|used| !defined_names.contains(&used.node)).filter_map(|used| {
            let owner = item_types.read(used.node, used.at, used.name, used.owner)?;
            Some(Use { owner, ..used })
        });
        for Use { name, method: method_call, owner, as_type, .. } in counted {
            *counts.entry(name).or_default() += 1;
            if method_call {
                *method_counts.entry(name).or_default() += 1;
            }
            if as_type {
                *type_counts.entry(name).or_default() += 1;
            }
            if let Some(owner) = owner.filter(|_| !method_call) {
                *owned_counts.entry((name, owner)).or_default() += 1;
            }
        }
        symbols.references = counts.into_iter().map(|(name, count)| (name.to_owned(), count)).collect();
        symbols.references.sort();
        symbols.method_calls = method_counts.into_iter().map(|(name, count)| (name.to_owned(), count)).collect();
        symbols.method_calls.sort();
        symbols.type_uses = type_counts.into_iter().map(|(name, count)| (name.to_owned(), count)).collect();
        symbols.type_uses.sort();
        symbols.owned_uses =
            owned_counts.into_iter().map(|((name, owner), count)| (name.to_owned(), owner.to_owned(), count)).collect();
        symbols.owned_uses.sort();
        symbols.typed_calls = typed_calls
            .into_iter()
            .map(|((owner, called), count)| (owner.to_owned(), called.to_owned(), count))
            .collect();
        symbols.typed_calls.sort();
        symbols.import_bindings.sort_unstable();
        symbols.import_bindings.dedup();
        let mut declared: Vec<(String, Option<String>)> =
            declared.into_iter().map(|(name, type_name)| (name.to_owned(), type_name.map(str::to_owned))).collect();
        declared.sort();
        let receiver_calls =
            receiver_calls.into_iter().map(|(receiver, called)| (receiver.to_owned(), called.to_owned())).collect();
        (Found { symbols, declared, receiver_calls, inside_macros: Vec::new() }, macros)
    }
}

/// The matches of one tree (within `within`), read into the stretches `stretch_of` gives
/// them to, with the macro bodies at each stretch's item level.
pub(super) fn read_stretches(
    language: Language,
    tree: &Tree,
    source: &[u8],
    within: Option<Run>,
    stretch_of: &dyn Fn(usize) -> Option<usize>,
    stretches: usize,
) -> Vec<(Found, Vec<MacroBody>)> {
    let query = &language.queries().combined;
    let names = query.capture_names();
    let root = tree.root_node();
    let mut reading: Vec<Reading<'_>> =
        (0..stretches).map(|_| Reading { bindings: Bindings::of(language), ..Reading::default() }).collect();
    // The errors of a file read in stretches are counted for the whole file by its reader.
    if let (None, Some(whole)) = (&within, reading.first_mut()) {
        whole.symbols.parse_errors = count_errors(root);
    }
    // Only code that names `proc_macro` can define one (a cheap test before the attribute walk);
    // the attributes of a stretch's items are in the stretch.
    const PROC_MACRO: &[u8] = b"proc_macro";
    let read = within.as_ref().and_then(|within| source.get(within.bytes.clone())).unwrap_or(source);
    let may_define_proc_macros =
        language == Language::Rust && read.windows(PROC_MACRO.len()).any(|window| window == PROC_MACRO);
    let mut leads = Leads::default();
    // What the type names of every stretch's items mean, shared by the stretches: a member
    // read on its own takes its container's type parameters and trait from the head.
    let mut item_types = ItemTypes::default();
    if let Some(head) = within.as_ref().and_then(|within| within.container_head.clone()) {
        read_type_names(language, root, source, head, &mut item_types);
    }
    let mut cursor = QueryCursor::new();
    if let Some(within) = within {
        cursor.set_byte_range(within.bytes);
    }
    let mut matches = cursor.matches(query, root, source);
    while let Some(found) = matches.next() {
        let Some(first) = found.captures().first() else { continue };
        let Some(stretch) = stretch_of(first.node.start_byte()).and_then(|at| reading.get_mut(at)) else {
            continue;
        };
        let Reading {
            symbols,
            uses,
            defined_names,
            typed_calls,
            declared,
            receiver_calls,
            macros,
            placed_uses,
            not_uses,
            bindings,
        } = stretch;
        let mut tokens = TokenMatch::default();
        let mut name = None;
        let mut definition = None;
        let (mut call_owner, mut call_name, mut call_receiver) = (None, None, None);
        let (mut variable_type, mut variable_name) = (None, None);
        for capture in found.captures() {
            let capture_name = names[capture.index as usize];
            let node = capture.node;
            if tokens.take(capture_name, node)
                || bindings.take(capture_name, node, source)
                || item_types.take(capture_name, node, source)
            {
                continue;
            }
            if let Some(captured) = captured_use(language, capture_name, node, source) {
                match captured {
                    CapturedUse::Direct { method } => {
                        let owner =
                            (!method && language == Language::Rust).then(|| path_before(node, source)).flatten();
                        let (at, name) = (node.start_byte(), text(node, source));
                        item_types.note_use(node, owner);
                        let as_type = node.kind() == "type_identifier";
                        uses.push(Use { node: node.id(), at, name, method, owner, as_type });
                    }
                    CapturedUse::Placed { bindable } => placed_uses.push(PlacedUse::named(node, source, bindable)),
                    CapturedUse::NotUses => {
                        not_uses.push(node.byte_range());
                        // The names an import clause or a `require` binds, and where from.
                        let bound = match node.kind() {
                            "import_clause" => {
                                Some((import_source(node, source), import_clause_bindings(node, source)))
                            }
                            _ => required_by(node, source).map(|from| (from, required_bindings(node, source))),
                        };
                        if let Some((from, names)) = bound {
                            symbols
                                .import_bindings
                                .extend(names.into_iter().map(|name| (name.to_owned(), from.to_owned())));
                        }
                    }
                    CapturedUse::Nothing => {}
                }
                continue;
            }
            match capture_name {
                "name" => name = Some(node),
                "import" => {
                    symbols.imports.push(at_file_level(node, collapsed(node, source)));
                    not_uses.push(node.byte_range());
                }
                "call.owner" => call_owner = Some(text(node, source)),
                "call.name" => call_name = Some(text(node, source)),
                "call.receiver" => call_receiver = Some(text(node, source)),
                "variable.type" => variable_type = declared_type_name(node, source),
                "variable.value" => variable_type = constructed_type_name(node, source),
                "variable.name" => variable_name = Some(text(node, source)),
                "path.written" => {
                    if may_name_a_module(text(node, source)) {
                        push_unique(&mut symbols.written_paths, &at_file_level(node, collapsed(node, source)));
                    }
                }
                "package" => symbols.package = Some(collapsed(node, source)),
                "module.declaration" => symbols.module_declarations.push(module_declaration(node, source)),
                "module.in_macro" => symbols.module_declarations.extend(module_declaration_in_macro(node, source)),
                "relation.super" => push_unique(&mut symbols.supertypes, text(node, source)),
                "relation.impl" => push_unique(&mut symbols.impl_targets, text(node, source)),
                "macro.items" => macros.extend(MacroBody::of(node, source)),
                other => {
                    if let Some(kind) = DefinitionKind::from_capture(other) {
                        definition = Some((kind, node));
                    }
                }
            }
        }
        if let Some(used) = tokens.used(source) {
            placed_uses.push(PlacedUse::of_tokens(&used, source));
        }
        if let (Some(owner), Some(called)) = (call_owner, call_name)
            && names_a_type(owner)
            && !called.is_empty()
        {
            *typed_calls.entry((owner, called)).or_default() += 1;
        }
        if let (Some(variable), Some(type_name)) = (variable_name, variable_type) {
            declared
                .entry(variable)
                .and_modify(|known| *known = known.filter(|k| *k == type_name))
                .or_insert(Some(type_name));
        }
        if let (Some(receiver), Some(called)) = (call_receiver, call_name) {
            receiver_calls.push((receiver, called));
        }
        // A name tree-sitter inserted to recover from an error (Java's `void () {}`) is empty.
        if let (Some(name), Some((kind, node))) = (name.filter(|name| !name.is_missing()), definition) {
            // A module-level `const` a `require` gives is an imported name, not a constant.
            if kind == DefinitionKind::Constant
                && node.kind() == "variable_declarator"
                && node.child_by_field_name("value").and_then(|value| required_module(value, source)).is_some()
            {
                continue;
            }
            defined_names.insert(name.id());
            let assigned = is_assigned(node);
            let container = match assigned {
                true => assigned_container(node, source),
                false => container_of(node, source),
            };
            let kind = match kind {
                DefinitionKind::Function if container.is_some() && (assigned || is_member(node)) => {
                    DefinitionKind::Method
                }
                other => other,
            };
            let Some(name) = definition_name(name, source) else { continue };
            let line = node.start_position().row as u32 + 1;
            let end_line = node.end_position().row as u32 + 1;
            let Lead { line: lead_line, test } = leads.lead_of(node, source);
            let (head_end_byte, head_end_row) = head_end(node);
            let body_line = head_end_row as u32 + 1;
            let signature = match (kind, node.kind()) {
                (DefinitionKind::Constant, "variable_declarator") => script_constant_signature(node, source),
                _ => signature(node, source, head_end_byte),
            };
            // A procedural macro is used by its macro name; a derive's function keeps its own too.
            let used_as =
                (may_define_proc_macros && kind == DefinitionKind::Function && node.kind() == "function_item")
                    .then(|| proc_macro_name(node, source))
                    .flatten();
            let kind = if used_as.as_ref() == Some(&name) { DefinitionKind::Macro } else { kind };
            // A method or an associated type (`type Future = ..`) of a trait's `impl` block.
            let implements = (language == Language::Rust
                && (kind == DefinitionKind::Method || kind == DefinitionKind::Type))
                .then(|| implemented_trait(node, source))
                .flatten();
            if let Some(derived) = used_as.filter(|used_as| *used_as != name) {
                let signature = signature.clone();
                symbols.definitions.push(Definition {
                    name: derived,
                    kind: DefinitionKind::Macro,
                    line,
                    end_line,
                    body_line,
                    lead_line,
                    signature,
                    container: None,
                    implements: None,
                    test,
                });
            }
            symbols.definitions.push(Definition {
                name,
                kind,
                line,
                end_line,
                body_line,
                lead_line,
                signature,
                container,
                implements,
                test,
            });
        }
    }
    reading.into_iter().map(|stretch| stretch.done(&item_types)).collect()
}

/// Reads into `item_types` what the captures in `bytes` say of type names: the type
/// parameters and the trait written in the head of a container whose members are read on
/// their own (`impl<F: Future> Sink for Pool<F> where ..`).
fn read_type_names<'s>(
    language: Language,
    root: Node<'_>,
    source: &'s [u8],
    bytes: std::ops::Range<usize>,
    item_types: &mut ItemTypes<'s>,
) {
    let query = &language.queries().combined;
    let names = query.capture_names();
    let mut cursor = QueryCursor::new();
    cursor.set_byte_range(bytes);
    let mut matches = cursor.matches(query, root, source);
    while let Some(found) = matches.next() {
        for capture in found.captures() {
            item_types.take(names[capture.index as usize], capture.node, source);
        }
    }
}
