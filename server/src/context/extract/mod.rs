//! What one file defines, uses and imports, read from its syntax tree with the queries.

use std::cell::RefCell;
use std::collections::HashMap;

use tree_sitter::{Node, Parser, Range, Tree};

use super::language::Language;

pub(super) use leads::is_lead_kind;
pub(super) use stretches::{Found, Run, collect, finish};
pub(super) use test_code::LineSpans;
pub use use_lines::use_lines;

mod bindings;
mod captured_uses;
mod commonjs;
mod containers;
mod declarations;
mod item_types;
mod leads;
mod macros;
mod reading;
mod signatures;
mod stretches;
mod test_code;
mod token_calls;
mod use_lines;
mod values;

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
    /// The trait a Rust method's or associated type's `impl` block implements (`Iterator` of
    /// `impl Iterator for Lines`, by its last name): a method call reaches it only where that
    /// trait is in scope, and no type implements such an associated type (`type Item = u8`).
    #[serde(default)]
    pub implements: Option<String>,
    /// Whether it is test code in a source file: a Rust item marked `#[test]`,
    /// `#[tokio::test]` or `#[cfg(test)]`, or one inside such an item.
    pub test: bool,
}

impl Definition {
    /// Whether it belongs to a type, trait or class (an associated item, a field, a method),
    /// not an enum variant, which a glob brings in with its enum's other variants.
    pub fn is_member(&self) -> bool {
        self.container.is_some() && self.kind != DefinitionKind::Variant
    }

    /// Whether a method call or a field read through a value (`value.name()`, `arg.requires`,
    /// Java's `Feature.WRAP`) can reach it, written in a file of `language`: a method (not a
    /// Rust associated function without a `self` receiver, `fn new() -> Self`), a field, which
    /// may hold a function in Java and TypeScript, or a Java enum constant, read through its
    /// enum (no Rust variant is read so); not a free function, a module or a type.
    pub fn callable_as_method(&self, language: Language) -> bool {
        match self.kind {
            DefinitionKind::Method => rust_receiver(&self.signature).unwrap_or(true),
            DefinitionKind::Field => true,
            DefinitionKind::Variant => language == Language::Java,
            _ => false,
        }
    }
}

/// Whether the Rust function whose signature this is takes `self` first (`&self`, `&'a mut
/// self`, `self: Pin<&mut Self>`); `None` for a signature that is no Rust function's or is
/// cut before its parameters.
fn rust_receiver(signature: &str) -> Option<bool> {
    let at = if signature.starts_with("fn ") { 0 } else { signature.find(" fn ")? + 1 };
    let rest = &signature[at + 3..];
    let mut depth = 0usize;
    let mut previous = ' ';
    for (i, c) in rest.char_indices() {
        match c {
            '<' => depth += 1,
            '>' if previous != '-' => depth = depth.saturating_sub(1),
            '(' if depth == 0 => {
                let first = rest[i + 1..].trim_start().trim_start_matches('&').trim_start();
                let first = match first.strip_prefix('\'') {
                    Some(lifetime) => {
                        lifetime.trim_start_matches(|c: char| c.is_alphanumeric() || c == '_').trim_start()
                    }
                    None => first,
                };
                let first = first.strip_prefix("mut ").unwrap_or(first).trim_start();
                let takes_self = first
                    .strip_prefix("self")
                    .is_some_and(|after| !after.starts_with(|c: char| c.is_alphanumeric() || c == '_'));
                return Some(takes_self);
            }
            _ => {}
        }
        previous = c;
    }
    None
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
    /// Whether the module is test code: an attribute keeps it to tests (`#[cfg(test)] mod
    /// tests;`), or what holds the declaration is test code.
    pub test: bool,
    /// The 1-based line of its `mod`.
    pub line: u32,
}

impl ModuleDeclaration {
    /// Whether `other` declares the same module the same way, wherever it stands.
    pub fn same_as(&self, other: &ModuleDeclaration) -> bool {
        (&self.name, &self.path, &self.within, self.test) == (&other.name, &other.path, &other.within, other.test)
    }
}

/// Everything extracted from one file.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct FileSymbols {
    /// Definitions, in source order.
    pub definitions: Vec<Definition>,
    /// Names used (called or named as types), with their counts, sorted by name.
    pub references: Vec<(String, u32)>,
    /// Of those names, how often each is reached through a value: called as a method
    /// (`value.name()`; Rust only) or read as a field (`arg.requires`; Rust and Java), sorted by
    /// name: a name the file only reaches so uses no free function of that name.
    pub method_calls: Vec<(String, u32)>,
    /// Of those names, how often each stands where only a type can (`Map` of `Map<K, V> m`,
    /// `impl Display for Id`), sorted by name: a name the file writes only so uses no enum
    /// constant, variant, field or function of that name (jackson's `LogicalType.Map`).
    pub type_uses: Vec<(String, u32)>,
    /// Calls through a type in Rust and TypeScript (`Semaphore::new`, `Pool.create`), as the
    /// type's and the function's names, with their counts, sorted: the type says which of many
    /// namesakes is meant. (A Java constructor is named after its class already.)
    pub typed_calls: Vec<(String, String, u32)>,
    /// Uses of a name written right after a path and `::` (`Poll::Ready`, `io::Error`,
    /// `std::io::Error`, `Semaphore::new`; a Java method reference, `String::valueOf`), as the
    /// name and the path as written, with their counts, sorted: where a Rust file's path leads
    /// outside the workspace (`std::task::Poll`, `std::io`), so does the name, whatever the
    /// workspace defines under it.
    pub owned_uses: Vec<(String, String, u32)>,
    /// Imported paths as written (`std::io::Read`, `java.util.List`, `./util`).
    pub imports: Vec<String>,
    /// The names a TypeScript or JavaScript file's imports bind, each with the module it
    /// imports from as written, sorted, each once: `Button` of `import { Button } from
    /// './button'`, `b` of `{ a as b }`, a namespace's and a default import's name. A global the
    /// file names without binding it is the language's (see `context::script_globals`), and a
    /// name it binds means what that module gives.
    #[serde(default)]
    pub import_bindings: Vec<(String, String)>,
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

impl FileSymbols {
    /// How often the file uses `name` (see [`FileSymbols::references`]).
    pub fn uses_of(&self, name: &str) -> u32 {
        count_of(&self.references, name)
    }

    /// How often the file calls `name` as a method (see [`FileSymbols::method_calls`]).
    pub fn method_calls_of(&self, name: &str) -> u32 {
        count_of(&self.method_calls, name)
    }

    /// Whether the file writes `name` only where a type stands (see
    /// [`FileSymbols::type_uses`]): then what it uses of that name is a type.
    pub fn uses_only_as_type(&self, name: &str) -> bool {
        let types = count_of(&self.type_uses, name);
        types > 0 && types >= self.uses_of(name)
    }

    /// Whether the file calls `name` only as a method (`value.name()`), every one of its
    /// `uses`: then no free function of that name is what it uses (`.collect()` is no use of
    /// a `fn collect`).
    pub fn calls_only_as_method(&self, name: &str, uses: u32) -> bool {
        let calls = self.method_calls_of(name);
        calls > 0 && calls >= uses
    }
}

/// The count of `name` in a list of counts sorted by name; 0 when it is not there.
fn count_of(counts: &[(String, u32)], name: &str) -> u32 {
    counts.binary_search_by(|(counted, _)| counted.as_str().cmp(name)).map_or(0, |at| counts[at].1)
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

/// What `read`, a reading of one file's symbols, gives, or the message of its panic: a fault of
/// the reading that some text brings out costs that file's symbols, not the whole index (the
/// build that reads every file, or the editor's session).
pub fn read_guarded(read: impl FnOnce() -> FileSymbols) -> Result<FileSymbols, String> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(read)).map_err(|fault| panic_message(fault.as_ref()))
}

/// The message a panic's `fault` carries, or "a panic" when it carries none.
pub(crate) fn panic_message(fault: &(dyn std::any::Any + Send)) -> String {
    let message = fault.downcast_ref::<&str>().map(|text| (*text).to_owned());
    message.or_else(|| fault.downcast_ref::<String>().cloned()).unwrap_or_else(|| "a panic".to_owned())
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

/// What a string literal `node` holds, its quotes left out (`./x` of `'./x'`).
fn unquoted<'a>(node: Node<'_>, source: &'a [u8]) -> &'a str {
    text(node, source).trim_matches(|c| c == '"' || c == '\'' || c == '`')
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
