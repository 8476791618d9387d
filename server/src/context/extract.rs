//! What one file defines, uses and imports, read from its syntax tree with the queries.

use std::cell::RefCell;
use std::collections::{HashMap, HashSet};

use tree_sitter::{Node, Parser, Point, QueryCursor, Range, StreamingIterator, Tree};

use super::language::Language;

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

/// How deep macros holding items are read inside each other (`cfg_rt! { cfg_net! { .. } }`).
const MAX_MACRO_DEPTH: usize = 4;

/// Reads a parsed file with its language's queries, in one walk of the tree. Rust items
/// written inside a macro's braces at item level (`cfg_rt! { pub struct Runtime { .. } }`, as
/// tokio writes most of its API) are parsed again as items and read as well.
pub fn extract(language: Language, tree: &Tree, source: &[u8]) -> FileSymbols {
    finish(collect(language, tree, source, None, &|_| Some(0), 1))
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

/// Each macro body on its own, so that one that does not parse as items (`html! { <div/> }`)
/// hides nothing of the next; a body inside another belongs to what holds the outer one.
/// Bodies are read in the order they are written, each followed by those inside it.
fn read_macro_bodies(language: Language, source: &[u8], macros: Vec<MacroBody>) -> Vec<FileSymbols> {
    let mut bodies: Vec<(MacroBody, usize)> = macros.into_iter().rev().map(|body| (body, 1)).collect();
    let mut found_inside = Vec::new();
    while let Some((body, depth)) = bodies.pop() {
        let Some(inner) = parse_ranges(language, source, &[body.range]) else { continue };
        let Some((found, nested)) = read_stretches(language, &inner, source, None, &|_| Some(0), 1).pop() else {
            continue;
        };
        if depth < MAX_MACRO_DEPTH {
            bodies.extend(nested.into_iter().rev().map(|inside| (inside.within(&body), depth + 1)));
        }
        let mut symbols = merged(vec![found]);
        body.adopt(&mut symbols.definitions);
        found_inside.push(symbols);
    }
    found_inside
}

/// Puts the stretches of a file, in the order they are written, together.
pub(super) fn finish(stretches: Vec<Found>) -> FileSymbols {
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

/// The inside of a macro's braces at item level, and what holds it: an inline module, or a
/// type's `impl` or trait.
struct MacroBody {
    range: Range,
    owner: Option<String>,
    /// Whether `owner` is a type, whose functions are methods.
    of_type: bool,
}

impl MacroBody {
    /// The body of a macro invocation's token tree, when it is braced (`name! { .. }`).
    fn of(tokens: Node<'_>, source: &[u8]) -> Option<Self> {
        let (start, end) = (tokens.start_byte(), tokens.end_byte());
        if end < start + 2 || source.get(start) != Some(&b'{') || source.get(end - 1) != Some(&b'}') {
            return None;
        }
        let (from, to) = (tokens.start_position(), tokens.end_position());
        let range = Range {
            start_byte: start + 1,
            end_byte: end - 1,
            start_point: Point { row: from.row, column: from.column + 1 },
            end_point: Point { row: to.row, column: to.column.saturating_sub(1) },
        };
        let holder = tokens.parent().and_then(|invocation| invocation.parent()).and_then(|list| list.parent());
        let owner = holder.and_then(|holder| container_name(holder, source));
        let of_type = holder.is_some_and(|holder| matches!(holder.kind(), "impl_item" | "trait_item"));
        Some(Self { range, owner, of_type })
    }

    /// Gives the definitions read from this body to what holds it: a function written in a
    /// body inside an `impl` is a method of its type.
    fn adopt(&self, definitions: &mut [Definition]) {
        let Some(owner) = &self.owner else { return };
        for definition in definitions.iter_mut().filter(|definition| definition.container.is_none()) {
            definition.container = Some(owner.clone());
            if self.of_type && definition.kind == DefinitionKind::Function {
                definition.kind = DefinitionKind::Method;
            }
        }
    }

    /// This body, found inside `outer`: held by what holds `outer` when nothing inside holds it.
    fn within(self, outer: &MacroBody) -> Self {
        match self.owner {
            Some(_) => self,
            None => Self { owner: outer.owner.clone(), of_type: outer.of_type, ..self },
        }
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

/// The name of a declared type, without its type arguments or qualifier (`Map` of
/// `Map<String, Long>`, `Entry` of `Map.Entry`, `Client` of `api.Client`, `Semaphore` of
/// `&Arc<sync::Semaphore>`); none for primitives, arrays, tuples, unions, `var` and the like.
fn declared_type_name<'a>(node: Node<'_>, source: &'a [u8]) -> Option<&'a str> {
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
fn constructed_type_name<'a>(value: Node<'_>, source: &'a [u8]) -> Option<&'a str> {
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
fn names_a_type(name: &str) -> bool {
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

/// Marks the definitions inside test code (the helpers of a `#[cfg(test)] mod tests`) as test
/// code too; `definitions` are in source order.
fn mark_nested_test_code(definitions: &mut [Definition]) {
    let tests = LineSpans::new(definitions.iter().filter(|d| d.test).map(|d| (d.line, d.end_line)));
    if tests.is_empty() {
        return;
    }
    for definition in definitions.iter_mut().filter(|d| !d.test) {
        definition.test = tests.holds(definition.line);
    }
}

/// Line ranges that may nest or overlap (the bodies of a file's functions, its test items),
/// asked whether a line lies in any of them.
pub(super) struct LineSpans {
    /// The ranges (first and last line, inclusive), by start, each with the furthest end of
    /// those up to it.
    ranges: Vec<(u32, u32)>,
}

impl LineSpans {
    /// The spans of `ranges`, each a first and a last line.
    pub(super) fn new(ranges: impl Iterator<Item = (u32, u32)>) -> Self {
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
    pub(super) fn is_empty(&self) -> bool {
        self.ranges.is_empty()
    }

    /// Whether `line` lies in one of the spans.
    pub(super) fn holds(&self, line: u32) -> bool {
        let before = self.ranges.partition_point(|(start, _)| *start <= line);
        before > 0 && self.ranges[before - 1].1 >= line
    }
}

/// Whether a Rust attribute (`#[...]` as written) marks test code: `#[test]`, `#[tokio::test]`,
/// `#[tokio::test(flavor = "multi_thread")]`, `#[cfg(test)]`, `#[cfg(all(test, unix))]`; not
/// `#[cfg(not(test))]` nor `#[cfg(any(test, feature = "x"))]`, which hold code built outside tests.
fn is_test_attribute(written: &str) -> bool {
    let Some(inner) = written.strip_prefix("#[").and_then(|rest| rest.strip_suffix(']')) else { return false };
    let (path, arguments) = inner.split_once('(').unwrap_or((inner, ""));
    let path: String = path.split_whitespace().collect();
    if path == "test" || path.ends_with("::test") {
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

/// The 1-based lines of `source` that use any of `names` (call them or name them as types), each
/// once and in order, as [`extract`] counts uses: a definition's own name is not a use. For
/// showing where a name is used; the index keeps only how often.
pub fn use_lines(language: Language, source: &[u8], names: &[&str]) -> Vec<u32> {
    let Some(tree) = parse(language, source, None) else { return Vec::new() };
    let query = &language.queries().combined;
    let capture_names = query.capture_names();
    let mut uses: Vec<(usize, u32)> = Vec::new();
    let mut defined_names: HashSet<usize> = HashSet::new();
    let mut cursor = QueryCursor::new();
    let mut matches = cursor.matches(query, tree.root_node(), source);
    while let Some(found) = matches.next() {
        let mut name = None;
        let mut is_definition = false;
        for capture in found.captures() {
            let node = capture.node;
            match capture_names[capture.index as usize] {
                "name" => name = Some(node.id()),
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
    let mut lines: Vec<u32> =
        uses.into_iter().filter(|(node, _)| !defined_names.contains(node)).map(|(_, line)| line).collect();
    lines.sort_unstable();
    lines.dedup();
    lines
}

/// The declaration whose name is `name`, with its `#[path]` and the inline modules around it.
fn module_declaration(name: Node<'_>, source: &[u8]) -> ModuleDeclaration {
    let item = name.parent();
    let path = item.and_then(|item| path_attribute(item, source));
    let within = item.map(|item| enclosing_modules(item, source)).unwrap_or_default();
    ModuleDeclaration { name: unraw(text(name, source)).to_owned(), path, within }
}

/// A `mod name;` among a macro's tokens (`cfg_rt! { pub mod runtime; }`, `cfg_if!`), the way
/// crates put declarations behind conditions; `keyword` is its `mod` token.
fn module_declaration_in_macro(keyword: Node<'_>, source: &[u8]) -> Option<ModuleDeclaration> {
    let name = keyword.next_sibling().filter(|name| name.kind() == "identifier")?;
    name.next_sibling().filter(|end| end.kind() == ";")?;
    // Attributes come before visibility: `#[path = "x.rs"] pub(crate) mod x;`.
    let mut path = None;
    let mut sibling = keyword.prev_sibling();
    while let Some(node) = sibling {
        match node.kind() {
            "pub" | "#" | "line_comment" | "block_comment" => {}
            "token_tree" if text(node, source).starts_with('(') => {}
            "token_tree" if text(node, source).starts_with('[') => {
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
fn proc_macro_name(item: Node<'_>, source: &[u8]) -> Option<String> {
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

fn first_of_kind<'t>(node: Node<'t>, kind: &str) -> Option<Node<'t>> {
    let mut cursor = node.walk();
    node.named_children(&mut cursor).find(|child| child.kind() == kind)
}

/// A Rust identifier without the `r#` of a raw identifier.
fn unraw(name: &str) -> &str {
    name.strip_prefix("r#").unwrap_or(name)
}

fn push_unique(list: &mut Vec<String>, name: &str) {
    if !list.iter().any(|known| known == name) {
        list.push(name.to_owned());
    }
}

fn collapsed(node: Node<'_>, source: &[u8]) -> String {
    text(node, source).split_whitespace().collect::<Vec<_>>().join(" ")
}

fn text<'a>(node: Node<'_>, source: &'a [u8]) -> &'a str {
    node.utf8_text(source).unwrap_or_default()
}

/// Nodes whose body ends a signature.
const BODY_FIELDS: [&str; 2] = ["body", "value"];

/// Where the definition's declaration ends and its body starts, as a byte and a 0-based row:
/// the start of its body, or its end when it has none.
fn head_end(node: Node<'_>) -> (usize, usize) {
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
const MAX_SIGNATURE_CHARS: usize = 200;

/// The definition's text up to `head_end` (see [`head_end`]), without its comments, on one
/// line, at most [`MAX_SIGNATURE_CHARS`] characters and an ellipsis.
fn signature(node: Node<'_>, source: &[u8], head_end: usize) -> String {
    let end = head_end.max(node.start_byte());
    let raw = without_comments(node, source, end);
    // Parameters written one per line read as one list: `(a: A, b: B)`, not `( a: A, b: B, )`.
    let mut one_line = on_one_line(&raw).replace("( ", "(").replace(", )", ")").replace(" )", ")").replace(" ,", ",");
    for suffix in [" =", " {", "{", ";"] {
        if let Some(stripped) = one_line.strip_suffix(suffix) {
            one_line = stripped.to_owned();
        }
    }
    cut_to(one_line, MAX_SIGNATURE_CHARS)
}

/// The text of `node` up to byte `end`, the comments in it left out: on one line, the
/// `// since 2.15` of `@Deprecated // since 2.15` would read as if it hid the rest.
fn without_comments(node: Node<'_>, source: &[u8], end: usize) -> String {
    let head = &source[node.start_byte()..end];
    let has_comment = head.windows(2).any(|pair| matches!(pair, b"//" | b"/*"));
    let mut comments = Vec::new();
    if has_comment {
        comments_before(node, end, &mut comments);
    }
    let mut text = Vec::with_capacity(head.len());
    let mut at = node.start_byte();
    for comment in comments {
        text.extend_from_slice(&source[at..comment.start.max(at)]);
        text.push(b' ');
        at = comment.end.min(end).max(at);
    }
    text.extend_from_slice(&source[at..end]);
    String::from_utf8_lossy(&text).into_owned()
}

/// The byte ranges of the comments below `node` that start before `end`, in order.
fn comments_before(node: Node<'_>, end: usize, comments: &mut Vec<std::ops::Range<usize>>) {
    let mut cursor = node.walk();
    for child in node.children(&mut cursor) {
        if child.start_byte() >= end {
            break;
        }
        if child.kind().ends_with("comment") {
            comments.push(child.byte_range());
        } else if child.child_count() > 0 {
            comments_before(child, end, comments);
        }
    }
}

/// `text` on one line: each run of whitespace, line breaks included, as one space.
fn on_one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// `text` cut to at most `max` characters, an ellipsis marking the cut.
fn cut_to(text: String, max: usize) -> String {
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
const MAX_VALUE_CHARS: usize = 60;

/// A script constant as declared, keyword and value on one line (`const TIMEOUT_MS = 30 * 1000`,
/// `const ROUTES = ["a"] as const`, `let debug: boolean`): its name alone says little. A value
/// longer than [`MAX_VALUE_CHARS`] is cut with an ellipsis, and the whole as any signature.
fn script_constant_signature(declarator: Node<'_>, source: &[u8]) -> String {
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

/// Node kinds that contain members, and how to read their names.
fn container_name(node: Node<'_>, source: &[u8]) -> Option<String> {
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

/// Whether a path written out in Rust code may start at a module of the workspace: at
/// `crate`, `super` or `self`, or at a lower-case name (a module the file declares or imports,
/// or a crate), but not at the standard library's crates or at a type (`Vec::new`).
fn may_name_a_module(path: &str) -> bool {
    let first = path.split("::").next().unwrap_or_default().trim();
    path.contains("::")
        && first.starts_with(|c: char| c.is_ascii_lowercase() || c == '_')
        && !matches!(first, "std" | "core" | "alloc")
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
/// string (`declare module "virtual:config"`) what the quotes hold; none when that is empty.
fn definition_name(name: Node<'_>, source: &[u8]) -> Option<String> {
    let written = text(name, source);
    let name = match name.kind() {
        "string" if written.len() >= 2 => &written[1..written.len() - 1],
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
fn container_of(node: Node<'_>, source: &[u8]) -> Option<String> {
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

/// Nodes that belong to the item below them: comments, attributes and decorators.
const LEAD_KINDS: [&str; 5] = ["line_comment", "block_comment", "comment", "attribute_item", "decorator"];
/// Whether a node of `kind` belongs to the item below it (a comment, attribute or decorator).
pub(super) fn is_lead_kind(kind: &str) -> bool {
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
struct Leads {
    /// Bodies already read, by node id.
    read: HashSet<usize>,
    /// The 0-based row each item's lead starts on, by node id, for items with a lead.
    rows: HashMap<usize, usize>,
    /// The items whose lead marks them as test code (`#[test]`, `#[cfg(test)]`), by node id.
    tests: HashSet<usize>,
}

/// What the comments, attributes and decorators just above a definition say of it.
struct Lead {
    /// The 1-based line they start on, or the definition's own line when there are none.
    line: u32,
    /// Whether an attribute marks it as test code.
    test: bool,
}

impl Leads {
    /// The comments, attributes and decorators just above `node`: those with no blank line
    /// between them and it, other than a comment that ends the line of the code before it
    /// (`x(); // note`).
    fn lead_of(&mut self, node: Node<'_>, source: &[u8]) -> Lead {
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

/// The row of `node`'s last character: a line comment takes its line break with it, and ends
/// at the start of the next row.
pub(super) fn last_row(node: Node<'_>) -> usize {
    let end = node.end_position();
    if end.column == 0 && end.row > node.start_position().row { end.row - 1 } else { end.row }
}

/// True when a function sits directly in an impl, trait, class or interface body.
fn is_member(node: Node<'_>) -> bool {
    node.parent().is_some_and(|body| matches!(body.kind(), "declaration_list" | "class_body" | "interface_body"))
        && node.parent().and_then(|body| body.parent()).is_some_and(|owner| owner.kind() != "mod_item")
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
mod tests {
    use super::*;

    fn symbols(language: Language, source: &str) -> FileSymbols {
        let tree = parse(language, source.as_bytes(), None).unwrap();
        extract(language, &tree, source.as_bytes())
    }

    fn fixture(path: &str) -> String {
        std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../grammars").join(path))
            .unwrap()
    }

    fn definitions(symbols: &FileSymbols) -> Vec<(String, DefinitionKind, Option<String>)> {
        symbols.definitions.iter().map(|d| (d.name.clone(), d.kind, d.container.clone())).collect()
    }

    fn references(symbols: &FileSymbols) -> Vec<&str> {
        symbols.references.iter().map(|(name, _)| name.as_str()).collect()
    }

    fn def(name: &str, kind: DefinitionKind, container: Option<&str>) -> (String, DefinitionKind, Option<String>) {
        (name.to_owned(), kind, container.map(str::to_owned))
    }

    #[test]
    fn items_inside_a_macros_braces_are_read_as_items() {
        use DefinitionKind::*;
        let source = "macro_rules! cfg_rt { ($($item:item)*) => { $($item)* } }\n\
                      cfg_rt! {\n\
                      \x20   /// The runtime.\n\
                      \x20   pub struct Runtime { inner: Inner }\n\
                      \x20   mod driver;\n\
                      \x20   cfg_net! {\n\
                      \x20       pub fn bind() -> Listener { Listener::new() }\n\
                      \x20   }\n\
                      }\n\
                      impl Runtime {\n\
                      \x20   cfg_metrics! {\n\
                      \x20       pub fn metrics(&self) -> Metrics { Metrics::new(self) }\n\
                      \x20   }\n\
                      }\n\
                      #[cfg(test)]\nmod tests {\n    cfg_rt! { fn helper() {} }\n}\n\
                      fn main() {\n    select! { value = recv() => { let hidden = 1; } }\n}\n";
        let found = symbols(Language::Rust, source);
        assert_eq!(
            definitions(&found),
            [
                def("cfg_rt", Macro, None),
                def("Runtime", Struct, None),
                def("driver", Module, None),
                def("bind", Function, None),
                def("metrics", Method, Some("Runtime")),
                def("tests", Module, None),
                def("helper", Function, Some("tests")),
                def("main", Function, None),
            ],
            "not what a macro inside a function holds"
        );
        assert_eq!(found.definitions[0].signature, "macro_rules! cfg_rt", "not its rules");
        let runtime = &found.definitions[1];
        assert_eq!((runtime.line, runtime.lead_line, runtime.end_line), (4, 3, 4), "lines are the file's");
        assert_eq!(runtime.signature, "pub struct Runtime");
        let helper = found.definitions.iter().find(|d| d.name == "helper").unwrap();
        assert!(helper.test, "a body inside a test module is test code");
        assert!(references(&found).contains(&"Listener") && references(&found).contains(&"Metrics"));
        assert!(found.typed_calls.contains(&("Metrics".to_owned(), "new".to_owned(), 1)));
        let declared: Vec<&str> = found.module_declarations.iter().map(|d| d.name.as_str()).collect();
        assert_eq!(declared, ["driver"], "declared once");
        // A body that is no items hides nothing of the next; a body in a body in an `impl` is
        // of its type, and two `impl`s on one line keep their own.
        let more = symbols(
            Language::Rust,
            "html! { <div></div> }\ncfg_rt! { pub fn after_markup() {} }\n\
             impl Runtime { cfg_a! { cfg_b! { pub fn two_levels(&self) {} } } }\n\
             impl Alpha { m! { pub fn from_alpha(&self) {} } } impl Beta { m! { pub fn from_beta(&self) {} } }\n",
        );
        let found: Vec<(String, DefinitionKind, Option<String>)> =
            definitions(&more).into_iter().filter(|(_, kind, _)| *kind != Struct).collect();
        for expected in [
            def("after_markup", Function, None),
            def("two_levels", Method, Some("Runtime")),
            def("from_alpha", Method, Some("Alpha")),
            def("from_beta", Method, Some("Beta")),
        ] {
            assert!(found.contains(&expected), "{expected:?} in {found:?}");
        }
        // Malformed bodies read as far as they parse, and a lone brace is no body.
        for malformed in [
            "m! {",
            "m! { pub fn }",
            "m! {}",
            "m! { { { }",
            "impl X { m! { fn } }",
            "m!{ cfg! { cfg! { cfg! { cfg! { cfg! { fn deep() {} } } } } } }",
        ] {
            let _ = symbols(Language::Rust, malformed);
        }
    }

    #[test]
    fn test_code_in_a_source_file_is_marked() {
        let source = "pub fn settle() {}\n\
                      #[test]\nfn bounds() {}\n\
                      /// Runs it.\n#[tokio::test(flavor = \"multi_thread\")]\nasync fn drains() {}\n\
                      #[cfg(all(test, unix))]\nmod tests {\n    struct Fake;\n    impl Fake {\n        fn spin(&self) {}\n    }\n}\n\
                      #[cfg(not(test))]\nfn real() {}\n\
                      #[cfg(any(test, feature = \"mock\"))]\nfn shared() {}\n\
                      #[cfg(all(feature = \"parking_lot\", not(all(loom, test))))]\nfn const_new() {}\n\
                      #[test_case(1)]\nfn case() {}\n\
                      fn after() {}\n";
        let found = symbols(Language::Rust, source);
        let tests: Vec<(&str, bool)> = found.definitions.iter().map(|d| (d.name.as_str(), d.test)).collect();
        assert_eq!(
            tests,
            [
                ("settle", false),
                ("bounds", true),
                ("drains", true),
                ("tests", true),
                ("Fake", true),
                ("spin", true),
                ("real", false),
                ("shared", false),
                ("const_new", false),
                ("case", false),
                ("after", false),
            ]
        );
        let drains = found.definitions.iter().find(|d| d.name == "drains").unwrap();
        assert_eq!((drains.lead_line, drains.line), (4, 6), "the attribute is still part of its lead");
    }

    #[test]
    fn calls_through_a_type_are_kept_with_the_type() {
        let typed = |language, source: &str| -> Vec<(String, String, u32)> { symbols(language, source).typed_calls };
        let owned = |owner: &str, called: &str, count| (owner.to_owned(), called.to_owned(), count);
        let rust = "fn f() {\n    let s = Semaphore::new(1);\n    Semaphore::new(2);\n    crate::sync::Pool::with_capacity(3);\n    Self::new();\n    io::stdout();\n    s.acquire();\n}\n";
        assert_eq!(
            typed(Language::Rust, rust),
            [owned("Pool", "with_capacity", 1), owned("Semaphore", "acquire", 1), owned("Semaphore", "new", 2)]
        );
        let fields = "struct Batch {\n    ll_sem: Arc<sync::Semaphore>,\n    waiters: Vec<Waiter>,\n}\n\
                      impl Batch {\n    fn close(&self, notify: &Notify, pair: (u8, u8)) {\n        self.ll_sem.acquire(1);\n        \
                      self.waiters.clear();\n        notify.notify_waiters();\n        let timer: Box<Timer> = make();\n        \
                      timer.reset();\n        pair.clone();\n    }\n}\n";
        assert_eq!(
            typed(Language::Rust, fields),
            [
                owned("Notify", "notify_waiters", 1),
                owned("Semaphore", "acquire", 1),
                owned("Timer", "reset", 1),
                owned("Vec", "clear", 1)
            ],
            "through an `Arc`, a `Box` or a reference, its target's; a tuple says nothing"
        );
        let script = "Pool.create(4);\npool.take();\nconsole.log(1);\n";
        assert_eq!(typed(Language::TypeScript, script), [owned("Pool", "create", 1)]);
        let class = "class Step {\n  private cache: Map<string, Blob>;\n  constructor(private readonly client: api.RegistryClient) {}\n  \
                     run(tag?: Tag, ids: string[]) {\n    this.client.pull(tag);\n    this.cache.get(tag);\n    \
                     const reader: Reader | null = null;\n    reader.read();\n    tag.parse();\n    ids.map(String);\n  }\n}\n";
        assert_eq!(
            typed(Language::TypeScript, class),
            [owned("Map", "get", 1), owned("RegistryClient", "pull", 1), owned("Tag", "parse", 1)],
            "a union and an array say nothing"
        );
        // Java: calls through a variable are calls through its declared type.
        let java = "class A {\n  private final RegistryClient client;\n  private Map<String, Blob> blobs;\n  \
                    void f(Request request, int n) {\n    client.pull();\n    this.client.pull();\n    request.send();\n    \
                    blobs.get(\"x\");\n    Map.Entry<String, Blob> entry = null;\n    entry.getKey();\n    \
                    Builder builder = Request.builder();\n    builder.build();\n    var v = make();\n    v.run();\n    \
                    int[] xs = null;\n    xs.clone();\n  }\n  void g(Response request) { request.send(); }\n}\n";
        assert_eq!(
            typed(Language::Java, java),
            [
                owned("Builder", "build", 1),
                owned("Entry", "getKey", 1),
                owned("Map", "get", 1),
                owned("RegistryClient", "pull", 2)
            ],
            "`request` is declared with two types, `v` with none, and `xs` is an array"
        );
    }

    #[test]
    fn a_binding_built_by_a_constructor_holds_its_type() {
        let typed = |language, source: &str| -> Vec<(String, String, u32)> {
            symbols(language, source).typed_calls.into_iter().filter(|(_, called, _)| called != "new").collect()
        };
        let owned = |owner: &str, called: &str| (owner.to_owned(), called.to_owned(), 1);
        let rust = "async fn f() -> io::Result<()> {\n    let mut sem = sync::Semaphore::new(1);\n    sem.acquire();\n    \
                    let listener = TcpListener::bind(addr).await?;\n    listener.accept();\n    \
                    let config = Config::load(path).unwrap();\n    config.validate();\n    \
                    let pool = Arc::new(Pool::default());\n    pool.get();\n    \
                    let point = geometry::Point { x: 1, y: 2 };\n    point.norm();\n    \
                    let moved = crate::Message::Move { x: 1 };\n    moved.process();\n    \
                    let shared = Arc::new(/* one for all */ Cache::default());\n    shared.clear();\n    \
                    let made = make();\n    made.run();\n    let this = Self::new();\n    this.reset();\n    \
                    let boxed = Box::new(helper());\n    boxed.call();\n    let text: String = Name::new();\n    text.len();\n}\n";
        assert_eq!(
            typed(Language::Rust, rust),
            [
                owned("Cache", "clear"),
                owned("Cache", "default"),
                owned("Config", "load"),
                owned("Config", "validate"),
                owned("Message", "process"),
                owned("Point", "norm"),
                owned("Pool", "default"),
                owned("Pool", "get"),
                owned("Semaphore", "acquire"),
                owned("String", "len"),
                owned("TcpListener", "accept"),
                owned("TcpListener", "bind"),
            ],
            "a function's result, `Self` and a boxed call say nothing; a written type wins"
        );
        let java = "class A {\n  void f() {\n    var client = new api.RegistryClient(url);\n    client.pull();\n    \
                    var cache = new HashMap<String, Blob>();\n    cache.get(key);\n    var made = make();\n    made.run();\n    \
                    List<Blob> blobs = new ArrayList<>();\n    blobs.add(blob);\n  }\n}\n";
        assert_eq!(
            typed(Language::Java, java),
            [owned("HashMap", "get"), owned("List", "add"), owned("RegistryClient", "pull")],
            "a written type wins over the class built"
        );
        let script = "class Step {\n  private cache = new Map<string, Blob>();\n  run() {\n    \
                      const client = new api.RegistryClient(url);\n    client.pull();\n    this.cache.get(tag);\n    \
                      let reader = open();\n    reader.read();\n    const list: Items = new Array();\n    list.push(1);\n  }\n}\n";
        assert_eq!(
            typed(Language::TypeScript, script),
            [owned("Items", "push"), owned("Map", "get"), owned("RegistryClient", "pull")],
            "a written type wins over the class built"
        );
    }

    #[test]
    fn methods_of_a_tuple_or_slice_belong_to_the_type_as_written() {
        use DefinitionKind::Method;
        let source = "impl Semaphore for (crate::sync::batch_semaphore::Semaphore, usize) {\n    fn add_permit(&self) {}\n}\n\
                      impl<T> Sorted for [T] {\n    fn is_sorted(&self) -> bool { true }\n}\n\
                      impl Flag for [u8; 4] { fn set(&self) {} }\n\
                      impl Callback for fn(std::io::Error) -> u8 { fn call(&self) {} }\n\
                      impl Pool for crate::pool::Pool { fn get(&self) {} }\n";
        let found = symbols(Language::Rust, source);
        assert_eq!(
            definitions(&found),
            [
                def("add_permit", Method, Some("(Semaphore, usize)")),
                def("is_sorted", Method, Some("[T]")),
                def("set", Method, Some("[u8; 4]")),
                def("call", Method, Some("fn(Error) -> u8")),
                def("get", Method, Some("Pool")),
            ]
        );
    }

    #[test]
    fn impl_targets_skip_lifetimes_and_deep_types_do_not_exhaust_the_stack() {
        let found = symbols(Language::Rust, "impl<'a> Iterator for &'a Foo { fn next(&mut self) {} }\n");
        assert_eq!(definitions(&found), [def("next", DefinitionKind::Method, Some("Foo"))]);
        // Generated code can nest far deeper than any name search should go.
        let deep = format!("impl T for {}X {{ fn f() {{}} }}\n", "&".repeat(20_000));
        let parsed = std::thread::Builder::new()
            .stack_size(2 << 20)
            .spawn(move || symbols(Language::Rust, &deep).definitions.len())
            .unwrap()
            .join();
        assert!(parsed.is_ok(), "a 2 MB stack, as on the indexing threads, suffices");
    }

    #[test]
    fn rust_fixture() {
        use DefinitionKind::*;
        let found = symbols(Language::Rust, &fixture("rust/fixture.rs"));
        assert_eq!(
            definitions(&found),
            [
                def("inline", Module, None),
                def("nested", Function, Some("inline")),
                def("declared", Module, None),
                def("LIMIT", Constant, None),
                def("COUNTER", Constant, None),
                def("Sender", Struct, None),
                def("Bits", Struct, None),
                def("Event", Enum, None),
                def("Open", Variant, None),
                def("Close", Variant, None),
                def("Map", Type, None),
                def("Channel", Trait, None),
                def("Item", Type, Some("Channel")),
                def("send", Method, Some("Channel")),
                def("close", Method, Some("Channel")),
                def("new", Method, Some("Sender")),
                def("try_send", Method, Some("Sender")),
                def("shout", Macro, None),
                def("helper", Function, None),
                def("written", Function, None),
            ]
        );
        assert_eq!(
            found.written_paths,
            ["mpsc::channel", "crate::sync::Limit", "super::helper", "self::inline::nested", "crate::sync::Limit::new"],
            "paths that may lead into the workspace, not through `std` or a type (`Vec::new`)"
        );
        let try_send = found.definitions.iter().find(|d| d.name == "try_send").unwrap();
        assert_eq!(try_send.signature, "pub fn try_send(&self, value: T) -> Result<(), Event>");
        assert_eq!((try_send.line, try_send.end_line), (41, 48), "a definition spans its body");
        let sender = found.definitions.iter().find(|d| d.name == "Sender").unwrap();
        assert_eq!(sender.signature, "pub struct Sender<T>");
        let names = references(&found);
        for expected in
            ["HashMap", "Sender", "Event", "Map", "helper", "len", "channel", "mpsc", "println", "new", "Ok", "Vec"]
        {
            assert!(names.contains(&expected), "{expected} missing from {names:?}");
        }
        assert_eq!(found.imports, ["std::collections::HashMap", "crate::sync::{mpsc, Mutex as Lock}", "alloc"]);
        let declared: Vec<&str> = found.module_declarations.iter().map(|d| d.name.as_str()).collect();
        assert_eq!(declared, ["declared"]);
        assert_eq!(found.impl_targets, ["Sender"]);
        assert!(found.supertypes.is_empty());
        assert_eq!(found.parse_errors, 0);
        let implementing = symbols(Language::Rust, "impl<T> fmt::Debug for Sender<T> {}\nimpl Channel for Pipe {}\n");
        assert_eq!(implementing.supertypes, ["Debug", "Channel"]);
        assert_eq!(implementing.impl_targets, ["Sender", "Pipe"]);
    }

    #[test]
    fn procedural_macros_are_macros_by_the_name_they_are_used_by() {
        use DefinitionKind::*;
        let source = r#"
/// `#[tokio::test]`
#[proc_macro_attribute]
pub fn test(args: TokenStream, item: TokenStream) -> TokenStream { entry::test(args, item) }
#[proc_macro]
// a function-like macro
pub fn select_priv_declare_output_enum(input: TokenStream) -> TokenStream { input }
#[proc_macro_derive(Serialize, attributes(serde))]
pub fn derive_serialize(input: TokenStream) -> TokenStream { input }
#[inline]
pub fn helper() {}
#[proc_macro_derive()]
pub fn nameless(input: TokenStream) -> TokenStream { input }
"#;
        let found = symbols(Language::Rust, source);
        assert_eq!(
            definitions(&found),
            [
                def("test", Macro, None),
                def("select_priv_declare_output_enum", Macro, None),
                def("Serialize", Macro, None),
                def("derive_serialize", Function, None),
                def("helper", Function, None),
                def("nameless", Function, None),
            ]
        );
        let derive = found.definitions.iter().find(|d| d.name == "Serialize").unwrap();
        assert_eq!(
            (derive.line, derive.signature.as_str()),
            (9, "pub fn derive_serialize(input: TokenStream) -> TokenStream")
        );
    }

    #[test]
    fn module_declarations_carry_their_path_attribute_and_inline_modules() {
        let source = r##"
#[cfg(unix)]
#[path = "unix/mod.rs"]
// the platform's half
mod imp;
#[path = r"raw/dir.rs"] mod raw;
#[doc = "not a path"]
pub(crate) mod r#try;
mod outer {
    pub mod inner {
        #[path = "deep.rs"]
        mod leaf;
    }
    mod plain;
}
mod inline { fn body() {} }
cfg_rt! {
    #[cfg_attr(docsrs, doc(cfg(feature = "rt")))]
    #[path = "rt/mod.rs"]
    pub(crate) mod runtime;
    pub use self::runtime::Runtime;
}
cfg_if::cfg_if! {
    if #[cfg(unix)] { mod unix; } else { mod other { mod nested; fn f() {} } }
}
macro_rules! declare { ($name:ident) => { mod $name; }; }
"##;
        let found = symbols(Language::Rust, source);
        let declared: Vec<(&str, Option<&str>, Vec<&str>)> = found
            .module_declarations
            .iter()
            .map(|d| (d.name.as_str(), d.path.as_deref(), d.within.iter().map(String::as_str).collect()))
            .collect();
        assert_eq!(
            declared,
            [
                ("imp", Some("unix/mod.rs"), vec![]),
                ("raw", Some("raw/dir.rs"), vec![]),
                ("try", None, vec![]),
                ("leaf", Some("deep.rs"), vec!["outer", "inner"]),
                ("plain", None, vec!["outer"]),
                ("runtime", Some("rt/mod.rs"), vec![]),
                ("unix", None, vec![]),
                ("nested", None, vec!["other"]),
            ]
        );
    }

    #[test]
    fn java_fixture() {
        use DefinitionKind::*;
        let found = symbols(Language::Java, &fixture("java/fixture.java"));
        assert_eq!(
            definitions(&found),
            [
                def("EventBus", Class, None),
                def("LIMIT", Field, Some("EventBus")),
                def("listeners", Field, Some("EventBus")),
                def("EventBus", Method, Some("EventBus")),
                def("publish", Method, Some("EventBus")),
                def("Listener", Interface, Some("EventBus")),
                def("PRIORITY", Field, Some("Listener")),
                def("onEvent", Method, Some("Listener")),
                def("Mode", Enum, Some("EventBus")),
                def("SYNC", Variant, Some("Mode")),
                def("ASYNC", Variant, Some("Mode")),
                def("Pair", Class, Some("EventBus")),
                def("Marker", Interface, Some("EventBus")),
                def("value", Method, Some("Marker")),
            ]
        );
        assert_eq!(found.package.as_deref(), Some("com.example.events"));
        assert_eq!(found.supertypes, ["Base", "Closeable"]);
        assert_eq!(found.imports, ["java.util.List", "java.util.concurrent", "java.util.Objects.requireNonNull"]);
        assert_eq!(found.typed_calls, [("Listener".to_owned(), "onEvent".to_owned(), 1)], "`l` is a `Listener`");
        let publish = found.definitions.iter().find(|d| d.name == "publish").unwrap();
        assert_eq!(publish.signature, "public void publish(T event)");
        assert_eq!((publish.line, publish.end_line), (16, 22));
        let names = references(&found);
        for expected in
            ["List", "Listener", "ArrayList", "requireNonNull", "onEvent", "Helpers", "log", "Base", "Closeable"]
        {
            assert!(names.contains(&expected), "{expected} missing from {names:?}");
        }
    }

    #[test]
    fn typescript_fixture() {
        use DefinitionKind::*;
        let found = symbols(Language::Tsx, &fixture("typescript/fixture.tsx"));
        assert_eq!(
            definitions(&found),
            [
                def("Props", Interface, None),
                def("Id", Type, None),
                def("Color", Enum, None),
                def("Shape", Class, None),
                def("area", Method, Some("Shape")),
                def("Circle", Class, None),
                def("constructor", Method, Some("Circle")),
                def("area", Method, Some("Circle")),
                def("onResize", Method, Some("Circle")),
                def("greet", Function, None),
                def("ids", Function, None),
                def("render", Function, None),
                def("LIMIT", Constant, None),
                def("legacy", Function, None),
                def("Geometry", Module, None),
                def("virtual:config", Module, None),
                def("setting", Function, Some("virtual:config")),
                def("lazy", Constant, None),
                def("default", Function, None),
            ]
        );
        assert_eq!(found.imports, ["react", "./util/path", "./helpers", "./lazy"]);
        assert_eq!(found.supertypes, ["Shape"]);
        let greet = found.definitions.iter().find(|d| d.name == "greet").unwrap();
        assert_eq!(greet.signature, "function greet(props: Props): string");
        let signature_of = |name: &str| found.definitions.iter().find(|d| d.name == name).unwrap().signature.as_str();
        assert_eq!(signature_of("render"), "render = (p: Props) =>");
        assert_eq!(signature_of("onResize"), "onResize = (scale: number): void =>");
        assert_eq!(signature_of("legacy"), "legacy = function (done: () => void)");
        let wrapped = symbols(
            Language::TypeScript,
            "export function preload(\n  base: string,\n  deps?: string[],\n): void {}\n",
        );
        assert_eq!(wrapped.definitions[0].signature, "function preload(base: string, deps?: string[]): void");
        // An anonymous default export is known by the name its module exports it under.
        assert_eq!(signature_of("default"), "export default function (props: Props)");
        let names = references(&found);
        for expected in ["greet", "join", "Props", "Circle", "Math", "path"] {
            assert!(names.contains(&expected), "{expected} missing from {names:?}");
        }
        let typescript = symbols(Language::TypeScript, "export function f(a: number): A { return g(a); }\n");
        assert_eq!(definitions(&typescript), [def("f", Function, None)]);
        let class = symbols(Language::TypeScript, "export default class extends Base {\n  run() {}\n}\n");
        assert_eq!(definitions(&class), [def("default", Class, None), def("run", Method, Some("default"))]);
        assert_eq!(class.supertypes, ["Base"]);
        // Module-level values of every form are constants, and a class expression is a class.
        let values = symbols(
            Language::TypeScript,
            "export const TIMEOUT_MS = 30 * 1000;\nconst OFFSET = -1;\nexport const ROUTES = [\"a\"] as const;\n\
             export const config = { port: 1 } satisfies Config;\nexport declare const VERSION: string;\n\
             declare let debug: boolean;\ndeclare const BUILD = \"1.0\";\nconst Base = class {};\nexport const createStore = configure;\n\
             const theme = settings.theme;\nconst mode = dark ? 1 : 2;\nconst none = null;\nconst words = /w+/;\n\
             const data = await load();\nconst sum = (1 + 2);\nconst el = document.body!;\nconst { a, b } = pair;\n",
        );
        assert_eq!(
            definitions(&values),
            [
                def("TIMEOUT_MS", Constant, None),
                def("OFFSET", Constant, None),
                def("ROUTES", Constant, None),
                def("config", Constant, None),
                def("VERSION", Constant, None),
                def("debug", Constant, None),
                def("BUILD", Constant, None),
                def("Base", Class, None),
                def("createStore", Constant, None),
                def("theme", Constant, None),
                def("mode", Constant, None),
                def("none", Constant, None),
                def("words", Constant, None),
                def("data", Constant, None),
                def("sum", Constant, None),
                def("el", Constant, None),
            ]
        );
        // A constant's signature holds its keyword and value, a long value cut.
        let constant = |name: &str| values.definitions.iter().find(|d| d.name == name).unwrap().signature.clone();
        assert_eq!(constant("TIMEOUT_MS"), "const TIMEOUT_MS = 30 * 1000");
        assert_eq!(constant("ROUTES"), "const ROUTES = [\"a\"] as const");
        assert_eq!(constant("VERSION"), "const VERSION: string");
        assert_eq!(constant("debug"), "let debug: boolean");
        assert_eq!(constant("words"), "const words = /w+/");
        let long = symbols(Language::TypeScript, &format!("const TABLE = [\n  {}\n];\n", "\"entry\", ".repeat(30)));
        let table = &long.definitions[0].signature;
        assert!(table.starts_with("const TABLE = [ \"entry\", ") && table.ends_with('…'), "{table}");
        assert!(table.chars().count() <= "const TABLE = ".len() + MAX_VALUE_CHARS + 1, "{table}");
        assert_eq!(cut_to("boolean bufferRecyclable".to_owned(), 17), "boolean…", "not in the middle of a name");
        assert_eq!(cut_to("x".repeat(50), 10), format!("{}…", "x".repeat(10)), "a name longer than the room is cut");
        assert_eq!(cut_to("a, bé".to_owned(), 4), "a,…");
        assert_eq!(cut_to("short".to_owned(), 10), "short");
        let named = symbols(Language::TypeScript, "export default function main() {}\nexport default (() => 1);\n");
        assert_eq!(definitions(&named), [def("main", Function, None)], "named, or not a bare function");
    }

    use proptest::strategy::Strategy as _;

    proptest::proptest! {
        /// Any source, however broken, is read without panicking into definitions that are
        /// in it: a name it holds, a line it has, a one-line signature of bounded length.
        #[test]
        fn any_source_yields_definitions_drawn_from_it(
            language in proptest::sample::select(vec![Language::Rust, Language::Java, Language::TypeScript, Language::Tsx]),
            pieces in proptest::collection::vec(proptest::prop_oneof![
                proptest::sample::select(vec![
                    "fn ", "pub ", "struct ", "impl ", "trait ", "enum ", "mod ", "use ", "class ", "interface ",
                    "function ", "export ", "import ", "package ", "const ", "type ", "void ", "<", ">", "'a ", "&",
                    "{", "}", "(", ")", ";", ":", "::", ".", "=", "=>", ",", "\n", "\r", "\"", "//", "/*", "*/",
                    "Name", "x", "é", "😀", "\u{0}", "#[test]\n", "#[cfg(all(test, not(x)))]\n", "#[", "]", "all(",
                    // Whole definitions, some spread over lines.
                    "fn spread(\n    a: i32,\n) -> u8 {}\n", "pub struct Point {\n    x: i32,\n}\n", "impl Point { fn x(&self) {} }",
                    "class A {\n  void m(\n    int a) {}\n}\n", "interface I { int f(); }", "package a.b;\n",
                    "export function g(\n  a: number,\n): void {}\n", "type T = {\n a: number };\n", "const K = 1;",
                    "Client c = make();\n", "Map<String, Client> m;", "c.pull();", "this.c.pull();", "Pool::new(1);",
                ]).prop_map(str::to_owned),
                proptest::prelude::any::<String>(),
            ], 0..60),
        ) {
            let source = pieces.concat();
            let found = symbols(language, &source);
            let lines = source.split('\n').count() as u32;
            for definition in &found.definitions {
                proptest::prop_assert!(!definition.name.is_empty() && source.contains(&definition.name), "{definition:?}");
                proptest::prop_assert!((1..=lines).contains(&definition.line), "{definition:?} in {lines} lines");
                proptest::prop_assert!(!definition.signature.contains('\n'), "{definition:?}");
                proptest::prop_assert!(definition.signature.chars().count() <= MAX_SIGNATURE_CHARS + 1, "{definition:?}");
            }
            for (owner, called, count) in &found.typed_calls {
                proptest::prop_assert!(*count > 0 && source.contains(owner.as_str()) && source.contains(called.as_str()));
                proptest::prop_assert!(!owner.is_empty() && !called.is_empty(), "({owner:?}, {called:?})");
            }
            for (name, count) in &found.references {
                proptest::prop_assert!(*count > 0 && source.contains(name.as_str()), "{name}");
                // Where the uses are agrees with how many there are: a line may hold several.
                let at = use_lines(language, source.as_bytes(), &[name.as_str()]);
                proptest::prop_assert!(!at.is_empty() && at.len() <= *count as usize, "{name}: {at:?}, {count} uses");
                proptest::prop_assert!(at.windows(2).all(|pair| pair[0] < pair[1]), "{at:?}");
                proptest::prop_assert!(at.iter().all(|line| (1..=lines).contains(line)), "{at:?} in {lines} lines");
            }
        }
    }

    #[test]
    fn the_lines_that_use_a_name_are_its_calls_and_type_uses_not_its_definition() {
        let lines = |language, source: &str, names: &[&str]| use_lines(language, source.as_bytes(), names);
        let rust = "struct Pool;\nimpl Pool {\n    fn acquire(&self) {}\n}\n// acquire\nfn f(p: Pool) {\n    p.acquire(); p.acquire();\n    let _ = \"acquire\";\n}\n";
        assert_eq!(lines(Language::Rust, rust, &["acquire"]), [7], "one line for two calls; no comment or string");
        assert_eq!(lines(Language::Rust, rust, &["Pool"]), [2, 6], "the impl and the parameter, not the struct");
        assert_eq!(lines(Language::Rust, rust, &["acquire", "Pool"]), [2, 6, 7]);
        let java = "class Mapper {\n  Object read() { return null; }\n  void use(Mapper m) {\n    m.read();\n  }\n}\n";
        assert_eq!(lines(Language::Java, java, &["read"]), [4]);
        assert_eq!(lines(Language::Java, java, &["Mapper"]), [3]);
        let script = "export function render() {}\nrender();\nconst x: Store = make();\n";
        assert_eq!(lines(Language::TypeScript, script, &["render"]), [2]);
        assert_eq!(lines(Language::TypeScript, script, &["Store", "make"]), [3]);
        assert!(lines(Language::Rust, rust, &["missing"]).is_empty());
    }

    #[test]
    fn a_definition_knows_where_its_comments_and_attributes_start() {
        let lead = |language, source: &str, name: &str| {
            let found = symbols(language, source);
            let definition = found.definitions.iter().find(|d| d.name == name).unwrap_or_else(|| panic!("{name}"));
            (definition.lead_line, definition.line)
        };
        let rust = "fn before() {} // not about `next`\n\
                    /* A block comment\n   over two lines. */\n\
                    /// Docs.\n\
                    #[cfg_attr(\n    feature = \"serde\",\n    derive(Serialize)\n)]\n\
                    pub struct Next;\n\
                    \n\
                    // Apart: a blank line below.\n\
                    \n\
                    fn alone() {}\n";
        assert_eq!(lead(Language::Rust, rust, "Next"), (2, 9), "the block comment, the docs and the attribute");
        assert_eq!(lead(Language::Rust, rust, "alone"), (13, 13), "a comment a blank line away is not its own");
        assert_eq!(lead(Language::Rust, rust, "before"), (1, 1));

        let java = "class Pool {\n    int size;\n    /**\n     * Takes a worker.\n     */\n    @Override\n    public int acquire() { return 1; }\n}\n";
        assert_eq!(lead(Language::Java, java, "acquire"), (3, 6), "the Javadoc; the annotation is the method's own");

        let typescript = "class Panel {\n  /** Closes on a click outside. */\n  @HostListener('click', [\n    '$event',\n  ])\n  onClick(event: Event) {}\n}\n\
                          // The default size.\nexport const SIZE = 10;\n";
        assert_eq!(lead(Language::TypeScript, typescript, "onClick"), (2, 6), "the JSDoc and the decorator");
        assert_eq!(lead(Language::TypeScript, typescript, "SIZE"), (8, 9), "a comment above `export const`");

        let crate_docs = "//! Crate docs.\n/*! More. */\npub fn first() {}\n";
        assert_eq!(lead(Language::Rust, crate_docs, "first"), (3, 3), "`//!` documents the module");
        let namespace = "/** Geometry helpers. */\nnamespace GeometryTools {\n  export const PI = 3;\n}\n";
        assert_eq!(lead(Language::TypeScript, namespace, "GeometryTools"), (1, 2));
    }

    #[test]
    fn methods_of_an_impl_belong_to_the_type_by_its_own_name() {
        let found = symbols(
            Language::Rust,
            "impl pool::Pool { fn get(&self) {} }\nimpl<'a> Wrapper<'a, u8> { fn wrap() {} }\n\
             impl dyn error::Failure { fn cause(&self) {} }\nimpl dyn std::any::Any + Send { fn peek(&self) {} }\n",
        );
        let container =
            |name: &str| found.definitions.iter().find(|d| d.name == name).and_then(|d| d.container.clone());
        assert_eq!(container("get").as_deref(), Some("Pool"), "not the module `pool`");
        assert_eq!(container("wrap").as_deref(), Some("Wrapper"));
        assert_eq!(container("cause").as_deref(), Some("Failure"));
        assert_eq!(container("peek").as_deref(), Some("Any"));
    }

    #[test]
    fn a_definition_knows_the_line_its_body_opens_on() {
        let body = |language, source: &str, name: &str| {
            let found = symbols(language, source);
            let definition = found.definitions.iter().find(|d| d.name == name).unwrap_or_else(|| panic!("{name}"));
            (definition.line, definition.body_line, definition.end_line)
        };
        let java = "/** The pool. */\n@SuppressWarnings({\"unchecked\"})\npublic class Pool\n    extends Base\n    implements Closeable,\n        Runnable {\n    void run() {}\n}\n";
        assert_eq!(body(Language::Java, java, "Pool"), (2, 6, 8), "past the annotation and the `implements` list");
        let rust = "pub struct Unit;\npub fn spread<T>(\n    a: T,\n) -> T\nwhere\n    T: Copy,\n{\n    a\n}\n";
        assert_eq!(body(Language::Rust, rust, "Unit"), (1, 1, 1), "no body: its last line");
        assert_eq!(body(Language::Rust, rust, "spread"), (2, 7, 9));
        let typescript = "@Component({\n  selector: 'app',\n})\nclass Panel\n  extends Base {\n}\n";
        assert_eq!(body(Language::TypeScript, typescript, "Panel"), (1, 5, 6));
    }

    #[test]
    fn a_signature_leaves_out_the_comments_in_it() {
        let signature_of = |language, source: &str, name: &str| {
            let found = symbols(language, source);
            found.definitions.iter().find(|d| d.name == name).unwrap_or_else(|| panic!("{name}")).signature.clone()
        };
        let java = "public class IOContext {\n    @Deprecated // since 2.15\n    public IOContext(Object br /* may be null */, boolean managed) {}\n    public enum Feature implements JacksonFeature // since 2.12\n    {\n        ON;\n    }\n    String url = \"http://example.com\";\n}\n";
        assert_eq!(
            signature_of(Language::Java, java, "IOContext"),
            "public class IOContext",
            "the class's own head holds no comment"
        );
        let constructor = symbols(Language::Java, java);
        let constructor =
            constructor.definitions.iter().find(|d| d.name == "IOContext" && d.line == 2).expect("constructor");
        assert_eq!(constructor.signature, "@Deprecated public IOContext(Object br, boolean managed)");
        assert_eq!(signature_of(Language::Java, java, "Feature"), "public enum Feature implements JacksonFeature");
        let rust = "pub fn spread(\n    a: i32, // the first\n    /* then */ b: u8,\n) -> u8 {\n    a as u8 + b\n}\n";
        assert_eq!(signature_of(Language::Rust, rust, "spread"), "pub fn spread(a: i32, b: u8) -> u8");
        let typescript = "export function load(\n  path: string, // relative\n): string {\n  return 'http://x';\n}\n";
        assert_eq!(signature_of(Language::TypeScript, typescript, "load"), "function load(path: string): string");
    }

    #[test]
    fn broken_source_still_yields_what_parses() {
        let found = symbols(Language::Rust, "fn good() {}\nfn broken( {\nstruct Fine;\n");
        assert!(found.parse_errors > 0);
        assert!(found.definitions.iter().any(|d| d.name == "good"), "{:?}", found.definitions);
        let empty = symbols(Language::Java, "");
        assert_eq!(empty, FileSymbols::default());
        // tree-sitter repairs `void ()` with a missing, empty method name.
        let repaired = symbols(Language::Java, "class A { void () {} }\n");
        assert_eq!(definitions(&repaired), [def("A", DefinitionKind::Class, None)]);
        let binaryish = symbols(Language::TypeScript, "\u{0}\u{1}\u{fffd}garbage {{{{");
        assert!(binaryish.parse_errors > 0);
    }
}
