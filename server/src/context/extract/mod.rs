//! What one file defines, uses and imports, read from its syntax tree with the queries.

use std::cell::RefCell;
use std::collections::{HashMap, HashSet};

use tree_sitter::{Node, Parser, QueryCursor, Range, StreamingIterator, Tree};

use super::language::Language;

use bindings::{constructed_type_name, declared_type_name, names_a_type};
use containers::{container_of, definition_name, is_member};
use declarations::{may_name_a_module, module_declaration, module_declaration_in_macro, proc_macro_name};
pub(super) use leads::is_lead_kind;
use leads::{Lead, Leads};
use macros::{MacroBody, read_macro_bodies};
use signatures::{head_end, script_constant_signature, signature};
pub(super) use test_code::LineSpans;
use test_code::{mark_nested_test_code, mark_test_held_code};

mod bindings;
mod containers;
mod declarations;
mod leads;
mod macros;
mod signatures;
mod test_code;

/// What a definition is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum DefinitionKind {
    /// A free function.
    Function,
    /// A function inside an `impl`, trait, class or interface.
    Method,
    /// A class or record.
    Class,
    /// A struct or union.
    Struct,
    /// An enum.
    Enum,
    /// An interface or annotation type.
    Interface,
    /// A trait.
    Trait,
    /// A type alias.
    Type,
    /// A module or namespace.
    Module,
    /// A constant or static.
    Constant,
    /// A macro.
    Macro,
    /// An enum variant or constant.
    Variant,
    /// A field.
    Field,
}

impl DefinitionKind {
    fn from_capture(name: &str) -> Option<Self> {
        Some(match name.strip_prefix("definition.")? {
            "function" => Self::Function,
            "method" => Self::Method,
            "class" => Self::Class,
            "struct" => Self::Struct,
            "enum" => Self::Enum,
            "interface" => Self::Interface,
            "trait" => Self::Trait,
            "type" => Self::Type,
            "module" => Self::Module,
            "constant" => Self::Constant,
            "macro" => Self::Macro,
            "variant" => Self::Variant,
            "field" => Self::Field,
            _ => return None,
        })
    }

    /// True for types, traits and interfaces: the things a design is made of.
    pub fn is_type(self) -> bool {
        matches!(self, Self::Class | Self::Struct | Self::Enum | Self::Interface | Self::Trait | Self::Type)
    }

    /// True for what does something (functions, methods, macros, modules) rather than declares
    /// something (types, constants, fields, variants).
    pub fn is_callable(self) -> bool {
        matches!(self, Self::Function | Self::Method | Self::Macro | Self::Module)
    }
}

/// One definition.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Definition {
    /// Its name.
    pub name: String,
    /// What it is.
    pub kind: DefinitionKind,
    /// The 1-based line it starts on.
    pub line: u32,
    /// The 1-based line it ends on (its body's last line).
    pub end_line: u32,
    /// The 1-based line its declaration ends on: the line its body opens on (`{`), past any
    /// annotations, generics and `implements` lists; its last line when it has no body.
    pub body_line: u32,
    /// The 1-based line of the first of the comments, attributes and decorators just above
    /// it (`///` docs, a Javadoc, `#[cfg_attr(...)]` over several lines, `@HostListener`),
    /// or `line` when there are none.
    pub lead_line: u32,
    /// Its signature: the definition's text up to its body, whitespace collapsed.
    pub signature: String,
    /// The type, trait, class or module it belongs to.
    pub container: Option<String>,
    /// Whether it is test code in a source file: a Rust item marked `#[test]`,
    /// `#[tokio::test]` or `#[cfg(test)]`, or one inside such an item.
    pub test: bool,
}

/// A Rust `mod name;` declaration: a submodule whose source is another file.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ModuleDeclaration {
    /// The module's name (`r#` taken off a raw identifier).
    pub name: String,
    /// The file a `#[path = "..."]` attribute names for it, as written.
    pub path: Option<String>,
    /// The inline modules (`mod a { ... }`) it is declared in, outermost first.
    pub within: Vec<String>,
}

/// Everything extracted from one file.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct FileSymbols {
    /// Definitions, in source order.
    pub definitions: Vec<Definition>,
    /// Names used (called or named as types), with their counts, sorted by name.
    pub references: Vec<(String, u32)>,
    /// Calls through a type in Rust and TypeScript (`Semaphore::new`, `Pool.create`), as the
    /// type's and the function's names, with their counts, sorted: the type says which of many
    /// namesakes is meant. (A Java constructor is named after its class already.)
    pub typed_calls: Vec<(String, String, u32)>,
    /// Imported paths as written (`std::io::Read`, `java.util.List`, `./util`).
    pub imports: Vec<String>,
    /// Paths the code writes out instead of importing them, each once, that may lead into
    /// the workspace: `crate::runtime::context::with`, `super::Inner`, `entry::test` (Rust
    /// paths that start at a lower-case name other than `std`, `core` or `alloc`).
    pub written_paths: Vec<String>,
    /// Rust `mod name;` declarations (submodules in other files).
    pub module_declarations: Vec<ModuleDeclaration>,
    /// Types this file's types extend or implement (traits its `impl` blocks implement).
    pub supertypes: Vec<String>,
    /// Types this file's Rust `impl` blocks are for.
    pub impl_targets: Vec<String>,
    /// The Java package, if declared.
    pub package: Option<String>,
    /// Syntax errors the parser recovered from.
    pub parse_errors: u32,
}

thread_local! {
    static PARSERS: RefCell<HashMap<Language, Parser>> = RefCell::new(HashMap::new());
}

/// Runs `work` with this thread's parser for `language`.
fn with_parser<T>(language: Language, work: impl FnOnce(&mut Parser) -> T) -> T {
    PARSERS.with(|parsers| {
        let mut parsers = parsers.borrow_mut();
        let parser = parsers.entry(language).or_insert_with(|| {
            let mut parser = Parser::new();
            parser.set_language(&language.grammar()).expect("grammars match the tree-sitter version");
            parser
        });
        work(parser)
    })
}

/// Parses `source`, reusing `old` (already edited) for an incremental parse.
pub fn parse(language: Language, source: &[u8], old: Option<&Tree>) -> Option<Tree> {
    with_parser(language, |parser| parser.parse(source, old))
}

/// Parses only the `ranges` of `source`, as one text, their positions those of `source`.
fn parse_ranges(language: Language, source: &[u8], ranges: &[Range]) -> Option<Tree> {
    with_parser(language, |parser| {
        parser.set_included_ranges(ranges).ok()?;
        let tree = parser.parse(source, None);
        // The parser is shared: the next parse reads the whole text again.
        parser.set_included_ranges(&[]).expect("the whole text is a valid range");
        tree
    })
}

/// Reads a parsed file with its language's queries, in one walk of the tree. Rust items
/// written inside a macro's braces at item level (`cfg_rt! { pub struct Runtime { .. } }`, as
/// tokio writes most of its API) are parsed again as items and read as well.
pub fn extract(language: Language, tree: &Tree, source: &[u8]) -> FileSymbols {
    finish(language, tree, source, collect(language, tree, source, None, &|_| Some(0), 1))
}

/// What the queries found in one stretch of a file: all of it, or some of its top-level
/// items. [`finish`] puts the stretches of a file together; what it gives does not depend on
/// how the file was cut into stretches, as long as each top-level item lies in one.
#[derive(Debug, Clone, Default)]
pub(super) struct Found {
    /// What the stretch defines, uses and imports, but for the calls made through variables.
    symbols: FileSymbols,
    /// Each variable's, parameter's and field's declared type (`None` when a name is declared
    /// with two), sorted by name.
    declared: Vec<(String, Option<String>)>,
    /// The method calls made through a variable (`sem.acquire()`): its name and the method's.
    receiver_calls: Vec<(String, String)>,
    /// What the items inside the stretch's macro bodies hold, each body read on its own.
    inside_macros: Vec<FileSymbols>,
}

impl Found {
    /// The same stretch moved by `rows` lines (an edit above it added or removed lines).
    pub(super) fn shift(&mut self, rows: i64) {
        let by = |line: &mut u32| *line = (i64::from(*line) + rows).max(1) as u32;
        let symbols = std::iter::once(&mut self.symbols).chain(self.inside_macros.iter_mut());
        for definition in symbols.flat_map(|symbols| symbols.definitions.iter_mut()) {
            by(&mut definition.line);
            by(&mut definition.end_line);
            by(&mut definition.body_line);
            by(&mut definition.lead_line);
        }
    }
}

/// Reads the stretches of a parsed file: the matches within `within` (all of the file when
/// `None`), each given to the stretch `stretch_of` names for the byte its first capture
/// starts at (none: left out), and the macro bodies each stretch holds.
pub(super) fn collect(
    language: Language,
    tree: &Tree,
    source: &[u8],
    within: Option<std::ops::Range<usize>>,
    stretch_of: &dyn Fn(usize) -> Option<usize>,
    stretches: usize,
) -> Vec<Found> {
    read_stretches(language, tree, source, within, stretch_of, stretches)
        .into_iter()
        .map(|(mut found, macros)| {
            found.inside_macros = read_macro_bodies(language, source, macros);
            found
        })
        .collect()
}

/// Puts the stretches of a file (`tree` of `source`), in the order they are written, together.
pub(super) fn finish(language: Language, tree: &Tree, source: &[u8], stretches: Vec<Found>) -> FileSymbols {
    let mut inside_macros = Vec::new();
    let stretches: Vec<Found> = stretches
        .into_iter()
        .map(|mut stretch| {
            inside_macros.append(&mut stretch.inside_macros);
            stretch
        })
        .collect();
    let mut symbols = merged(stretches);
    if !inside_macros.is_empty() {
        symbols.take_from_macros(inside_macros);
    }
    if language == Language::Rust {
        mark_test_held_code(tree.root_node(), source, &mut symbols.definitions);
    }
    symbols
}

/// The stretches' own symbols together, the calls through variables read as calls through
/// their types, definitions in source order.
fn merged(stretches: Vec<Found>) -> FileSymbols {
    let mut stretches = stretches.into_iter();
    let Some(Found { mut symbols, mut declared, mut receiver_calls, .. }) = stretches.next() else {
        return FileSymbols::default();
    };
    let mut rest = stretches.peekable();
    if rest.peek().is_some() || !receiver_calls.is_empty() {
        let mut counts = Counts::taken_from(&mut symbols);
        for Found { symbols: mut found, declared: more_declared, receiver_calls: more_calls, .. } in rest {
            symbols.package = found.package.take().or(symbols.package);
            symbols.parse_errors += found.parse_errors;
            symbols.module_declarations.append(&mut found.module_declarations);
            symbols.append(found, &mut counts);
            declared.extend(more_declared);
            receiver_calls.extend(more_calls);
        }
        declared.sort_by(|a, b| a.0.cmp(&b.0));
        // A name declared with two types in two stretches is known by neither.
        declared.dedup_by(|later, kept| {
            let same = later.0 == kept.0;
            if same && later.1 != kept.1 {
                kept.1 = None;
            }
            same
        });
        for (receiver, called) in receiver_calls {
            let at = declared.binary_search_by(|(name, _)| name.as_str().cmp(&receiver));
            if let Some(type_name) = at.ok().and_then(|at| declared[at].1.clone()) {
                *counts.typed_calls.entry((type_name, called)).or_default() += 1;
            }
        }
        counts.give_to(&mut symbols);
    }
    symbols.definitions.sort_by_key(|definition| definition.line);
    mark_nested_test_code(&mut symbols.definitions);
    symbols
}

/// Counts of uses and of typed calls, summed over several readings of one file.
struct Counts {
    references: HashMap<String, u32>,
    typed_calls: HashMap<(String, String), u32>,
}

impl Counts {
    /// The counts `symbols` holds, taken out of it to be added to.
    fn taken_from(symbols: &mut FileSymbols) -> Self {
        Self {
            references: symbols.references.drain(..).collect(),
            typed_calls: symbols.typed_calls.drain(..).map(|(owner, called, count)| ((owner, called), count)).collect(),
        }
    }

    /// Gives the summed counts back to `symbols`, sorted.
    fn give_to(self, symbols: &mut FileSymbols) {
        symbols.references = self.references.into_iter().collect();
        symbols.references.sort();
        symbols.typed_calls =
            self.typed_calls.into_iter().map(|((owner, called), count)| (owner, called, count)).collect();
        symbols.typed_calls.sort();
    }
}

impl FileSymbols {
    /// Adds `other`'s definitions, imports and relations to this file's, and its uses and
    /// typed calls to `counts`; its module declarations, package and errors are left to the
    /// caller.
    fn append(&mut self, other: FileSymbols, counts: &mut Counts) {
        let FileSymbols {
            definitions, references, typed_calls, imports, written_paths, supertypes, impl_targets, ..
        } = other;
        self.definitions.extend(definitions);
        for (name, count) in references {
            *counts.references.entry(name).or_default() += count;
        }
        for (owner, called, count) in typed_calls {
            *counts.typed_calls.entry((owner, called)).or_default() += count;
        }
        self.imports.extend(imports);
        for (list, more) in [
            (&mut self.written_paths, written_paths),
            (&mut self.supertypes, supertypes),
            (&mut self.impl_targets, impl_targets),
        ] {
            for item in more {
                push_unique(list, &item);
            }
        }
    }

    /// Adds what the items inside macro bodies hold, each body read from its own parse, the
    /// counts of uses and typed calls summed once for all of them.
    fn take_from_macros(&mut self, found_inside: Vec<FileSymbols>) {
        let mut counts = Counts::taken_from(self);
        for mut found in found_inside {
            // A `mod` inside braces is read from the tokens already (`cfg_if!` holds no items).
            for declaration in std::mem::take(&mut found.module_declarations) {
                if !self.module_declarations.iter().any(|known| known.name == declaration.name) {
                    self.module_declarations.push(declaration);
                }
            }
            self.append(found, &mut counts);
        }
        counts.give_to(self);
        self.definitions.sort_by_key(|definition| definition.line);
        // A body inside a test module is test code too.
        mark_nested_test_code(&mut self.definitions);
    }
}

/// What one stretch holds while its matches are read: names borrowed from the source.
#[derive(Default)]
struct Reading<'s> {
    symbols: FileSymbols,
    /// Uses, with their nodes: a definition's own name (`struct Foo`) is not a use of it,
    /// and the definition's match may come before or after the reference's.
    uses: Vec<(usize, &'s str)>,
    defined_names: HashSet<usize>,
    typed_calls: HashMap<(&'s str, &'s str), u32>,
    /// Each variable's, parameter's and field's declared type (`None` when a name is declared
    /// with two), and the calls made through one, to be read as calls through its type.
    declared: HashMap<&'s str, Option<&'s str>>,
    receiver_calls: Vec<(&'s str, &'s str)>,
    macros: Vec<MacroBody>,
}

impl Reading<'_> {
    /// What was read, owned, and the macro bodies at the stretch's item level.
    fn done(self) -> (Found, Vec<MacroBody>) {
        let Reading { mut symbols, uses, defined_names, typed_calls, declared, receiver_calls, macros } = self;
        let mut counts: HashMap<&str, u32> = HashMap::new();
        for (_, name) in uses.into_iter().filter(|(node, _)| !defined_names.contains(node)) {
            *counts.entry(name).or_default() += 1;
        }
        symbols.references = counts.into_iter().map(|(name, count)| (name.to_owned(), count)).collect();
        symbols.references.sort();
        symbols.typed_calls = typed_calls
            .into_iter()
            .map(|((owner, called), count)| (owner.to_owned(), called.to_owned(), count))
            .collect();
        symbols.typed_calls.sort();
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
fn read_stretches(
    language: Language,
    tree: &Tree,
    source: &[u8],
    within: Option<std::ops::Range<usize>>,
    stretch_of: &dyn Fn(usize) -> Option<usize>,
    stretches: usize,
) -> Vec<(Found, Vec<MacroBody>)> {
    let query = &language.queries().combined;
    let names = query.capture_names();
    let root = tree.root_node();
    let mut reading: Vec<Reading<'_>> = (0..stretches).map(|_| Reading::default()).collect();
    // The errors of a file read in stretches are counted for the whole file by its reader.
    if let (None, Some(whole)) = (&within, reading.first_mut()) {
        whole.symbols.parse_errors = count_errors(root);
    }
    // Only code that names `proc_macro` can define one (a cheap test before the attribute walk);
    // the attributes of a stretch's items are in the stretch.
    const PROC_MACRO: &[u8] = b"proc_macro";
    let read = within.clone().and_then(|within| source.get(within)).unwrap_or(source);
    let may_define_proc_macros =
        language == Language::Rust && read.windows(PROC_MACRO.len()).any(|window| window == PROC_MACRO);
    let mut leads = Leads::default();
    let mut cursor = QueryCursor::new();
    if let Some(within) = within {
        cursor.set_byte_range(within);
    }
    let mut matches = cursor.matches(query, root, source);
    while let Some(found) = matches.next() {
        let Some(first) = found.captures().first() else { continue };
        let Some(stretch) = stretch_of(first.node.start_byte()).and_then(|at| reading.get_mut(at)) else {
            continue;
        };
        let Reading { symbols, uses, defined_names, typed_calls, declared, receiver_calls, macros } = stretch;
        let mut name = None;
        let mut definition = None;
        let (mut call_owner, mut call_name, mut call_receiver) = (None, None, None);
        let (mut variable_type, mut variable_name) = (None, None);
        for capture in found.captures() {
            let capture_name = names[capture.index as usize];
            let node = capture.node;
            match capture_name {
                "name" => name = Some(node),
                "import" => symbols.imports.push(collapsed(node, source)),
                "call.owner" => call_owner = Some(text(node, source)),
                "call.name" => call_name = Some(text(node, source)),
                "call.receiver" => call_receiver = Some(text(node, source)),
                "variable.type" => variable_type = declared_type_name(node, source),
                "variable.value" => variable_type = constructed_type_name(node, source),
                "variable.name" => variable_name = Some(text(node, source)),
                "path.written" => {
                    if may_name_a_module(text(node, source)) {
                        push_unique(&mut symbols.written_paths, &collapsed(node, source));
                    }
                }
                "package" => symbols.package = Some(collapsed(node, source)),
                "module.declaration" => symbols.module_declarations.push(module_declaration(node, source)),
                "module.in_macro" => symbols.module_declarations.extend(module_declaration_in_macro(node, source)),
                "relation.super" => push_unique(&mut symbols.supertypes, text(node, source)),
                "relation.impl" => push_unique(&mut symbols.impl_targets, text(node, source)),
                "macro.items" => macros.extend(MacroBody::of(node, source)),
                reference if reference.starts_with("reference.") => uses.push((node.id(), text(node, source))),
                other => {
                    if let Some(kind) = DefinitionKind::from_capture(other) {
                        definition = Some((kind, node));
                    }
                }
            }
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
            defined_names.insert(name.id());
            let container = container_of(node, source);
            let kind = match kind {
                DefinitionKind::Function if container.is_some() && is_member(node) => DefinitionKind::Method,
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
                test,
            });
        }
    }
    reading.into_iter().map(Reading::done).collect()
}

/// The 1-based lines of `source` that use any of `names` (call them or name them as types), each
/// once and in order, as [`extract`] counts uses: a definition's own name is not a use, and the
/// items inside a macro's braces (`cfg_rt! { .. }`) are read as items. For showing where a name
/// is used; the index keeps only how often.
pub fn use_lines(language: Language, source: &[u8], names: &[&str]) -> Vec<u32> {
    let Some(tree) = parse(language, source, None) else { return Vec::new() };
    let mut lines = Vec::new();
    // Each tree with how deep in macro bodies it lies, as `read_macro_bodies` reads them.
    let mut trees = vec![(tree, 0)];
    while let Some((tree, depth)) = trees.pop() {
        for body in use_lines_of_tree(language, &tree, source, names, &mut lines) {
            if depth < macros::MAX_MACRO_DEPTH
                && let Some(inner) = body.parse(language, source)
            {
                trees.push((inner, depth + 1));
            }
        }
    }
    lines.sort_unstable();
    lines.dedup();
    lines
}

/// Adds to `lines` those of one tree that use any of `names`, and gives the macro bodies at
/// its item level.
fn use_lines_of_tree(
    language: Language,
    tree: &Tree,
    source: &[u8],
    names: &[&str],
    lines: &mut Vec<u32>,
) -> Vec<MacroBody> {
    let query = &language.queries().combined;
    let capture_names = query.capture_names();
    let mut uses: Vec<(usize, u32)> = Vec::new();
    let mut defined_names: HashSet<usize> = HashSet::new();
    let mut bodies = Vec::new();
    let mut cursor = QueryCursor::new();
    let mut matches = cursor.matches(query, tree.root_node(), source);
    while let Some(found) = matches.next() {
        let mut name = None;
        let mut is_definition = false;
        for capture in found.captures() {
            let node = capture.node;
            match capture_names[capture.index as usize] {
                "name" => name = Some(node.id()),
                "macro.items" => bodies.extend(MacroBody::of(node, source)),
                reference if reference.starts_with("reference.") => {
                    if names.contains(&text(node, source)) {
                        uses.push((node.id(), node.start_position().row as u32 + 1));
                    }
                }
                other => is_definition |= DefinitionKind::from_capture(other).is_some(),
            }
        }
        if let (Some(name), true) = (name, is_definition) {
            defined_names.insert(name);
        }
    }
    lines.extend(uses.into_iter().filter(|(node, _)| !defined_names.contains(node)).map(|(_, line)| line));
    bodies
}

/// The first named child of `node` of the given kind.
fn first_of_kind<'t>(node: Node<'t>, kind: &str) -> Option<Node<'t>> {
    let mut cursor = node.walk();
    node.named_children(&mut cursor).find(|child| child.kind() == kind)
}

/// A Rust identifier without the `r#` of a raw identifier.
fn unraw(name: &str) -> &str {
    name.strip_prefix("r#").unwrap_or(name)
}

/// Adds `name` to `list` unless it is there already.
fn push_unique(list: &mut Vec<String>, name: &str) {
    if !list.iter().any(|known| known == name) {
        list.push(name.to_owned());
    }
}

/// The text of `node` on one line, each run of whitespace as one space.
fn collapsed(node: Node<'_>, source: &[u8]) -> String {
    text(node, source).split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The text of `node`, or nothing when it is not UTF-8.
fn text<'a>(node: Node<'_>, source: &'a [u8]) -> &'a str {
    node.utf8_text(source).unwrap_or_default()
}

/// The row of `node`'s last character: a line comment takes its line break with it, and ends
/// at the start of the next row.
pub(super) fn last_row(node: Node<'_>) -> usize {
    let end = node.end_position();
    if end.column == 0 && end.row > node.start_position().row { end.row - 1 } else { end.row }
}

/// The syntax errors tree-sitter recovered from under `root`.
pub(super) fn count_errors(root: Node<'_>) -> u32 {
    if !root.has_error() {
        return 0;
    }
    let mut count = 0;
    walk_tree(root, |node| {
        if node.is_error() || node.is_missing() {
            count += 1;
        }
        node.has_error()
    });
    count
}

/// Visits `root` and the nodes below it in document order, each before its children; `visit`
/// says whether to go into the node's children.
pub(super) fn walk_tree(root: Node<'_>, mut visit: impl FnMut(Node<'_>) -> bool) {
    let mut cursor = root.walk();
    loop {
        if visit(cursor.node()) && cursor.goto_first_child() {
            continue;
        }
        while !cursor.goto_next_sibling() {
            if !cursor.goto_parent() {
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests;
