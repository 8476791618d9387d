//! An open file cut into its items, each kept with what the queries found in it, so that an
//! edit reads again only the items it touched: typing in a 3,000-line file reads one item,
//! not the whole file. The items are the file's top-level ones, and the members of the
//! types, traits and modules among them (a Java file is one class).

use std::collections::HashMap;
use std::sync::Arc;

use tree_sitter::{Node, Tree};

use super::extract::{self, FileSymbols, Found};
use super::language::Language;

/// What an item's reading depends on besides its own syntax tree, which its text gives
/// (an item holding a syntax error is never reused): the column it starts at, whether it
/// starts on the row the code before it ends on (a comment there belongs to that code), the
/// kinds of its nodes and of the node it stands in (a pattern may start there; in a broken
/// file the same text may be read as another kind, and the root may be an error), the head
/// of the type, trait or module it is a member of (its name and kind), and for a head, how
/// many rows its type, trait or module spans (its definition's last line).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
struct ItemKey {
    text: u64,
    column: usize,
    after_code_on_its_row: bool,
    kinds: u64,
    member_of: Option<u64>,
    rows: usize,
}

/// How many extractions an item's reading is kept for after the last one that had the item:
/// an unclosed brace hides the items below it until it is closed, often several keystrokes
/// later.
const KEPT_FOR: u64 = 64;

/// The readings of an open file's items, from its last extractions.
#[derive(Debug, Default)]
pub(super) struct ItemReadings {
    /// Each item's reading: the row it started on when read, what was found, and the last
    /// extraction that had the item.
    by_key: HashMap<ItemKey, (usize, Arc<Found>, u64)>,
    /// How many extractions there were.
    extractions: u64,
    /// How many items the last extraction read (the others it took from earlier ones).
    read_last: usize,
}

/// An item with the comments, attributes and decorators above it, or the head of a type,
/// trait or module whose members are items of their own.
struct Item {
    start_byte: usize,
    end_byte: usize,
    start_row: usize,
    /// `None` when it holds a syntax error.
    key: Option<ItemKey>,
    /// For a member, the bytes of its type's, trait's or module's head, which declares the
    /// type parameters the member may use.
    container_head: Option<std::ops::Range<usize>>,
}

impl ItemReadings {
    /// What `tree` (of `source`) defines, uses and imports, as [`extract::extract`] gives it,
    /// reading only the items that were not read before (moved ones are moved).
    pub(super) fn extract(&mut self, language: Language, tree: &Tree, source: &[u8]) -> FileSymbols {
        let items = items(tree.root_node(), source);
        let mut readings: Vec<Option<Arc<Found>>> = items
            .iter()
            .map(|item| {
                let (row, found, _) = self.by_key.get(&item.key?)?;
                if *row == item.start_row {
                    return Some(Arc::clone(found));
                }
                let mut moved = Found::clone(found);
                moved.shift(item.start_row as i64 - *row as i64);
                Some(Arc::new(moved))
            })
            .collect();
        self.read_last = 0;
        let mut next = 0;
        while let Some(first) = readings[next..].iter().position(Option::is_none).map(|at| next + at) {
            // One walk over each run of unread items (an edit touches one place).
            let last = readings[first..].iter().position(Option::is_some).map_or(readings.len(), |at| first + at) - 1;
            let starts: Vec<usize> = items[first..=last].iter().map(|item| item.start_byte).collect();
            let within = items[first].start_byte..items[last].end_byte;
            let run = extract::Run { bytes: within.clone(), container_head: items[first].container_head.clone() };
            // A pattern that starts at the file's root matches around the range as well.
            let stretch_of = |byte: usize| {
                let inside = within.contains(&byte);
                starts.partition_point(|start| *start <= byte).checked_sub(1).filter(|_| inside)
            };
            let read = extract::collect(language, tree, source, Some(run), &stretch_of, starts.len());
            self.read_last += read.len();
            for (slot, found) in readings[first..=last].iter_mut().zip(read) {
                *slot = Some(Arc::new(found));
            }
            next = last + 1;
        }
        self.extractions += 1;
        for (item, found) in items.iter().zip(&readings) {
            if let (Some(key), Some(found)) = (item.key, found) {
                self.by_key.insert(key, (item.start_row, Arc::clone(found), self.extractions));
            }
        }
        let now = self.extractions;
        self.by_key.retain(|_, (_, _, last)| *last + KEPT_FOR > now);
        let mut symbols =
            extract::finish(language, tree, source, readings.into_iter().flatten().map(Arc::unwrap_or_clone).collect());
        symbols.parse_errors = extract::count_errors(tree.root_node());
        symbols
    }
}

/// The items of a file: its top-level ones, and the members of the types, traits and
/// modules among them.
fn items(root: Node<'_>, source: &[u8]) -> Vec<Item> {
    let mut items = Vec::new();
    add_items(root, None, source, &mut items);
    items
}

/// The type, trait or module whose body holds a file's items: a hash of its head's kind and
/// text, and the head's bytes.
type Container = (u64, std::ops::Range<usize>);

/// Adds the items among `body`'s children (the file's root, or the body of the type, trait
/// or module `member_of` is), each with the comments and attributes above it.
fn add_items(body: Node<'_>, member_of: Option<Container>, source: &[u8], items: &mut Vec<Item>) {
    let mut first: Option<Node<'_>> = None;
    let mut has_error = false;
    // The kinds of the body and of the item's nodes so far.
    let mut kinds = xxhash_rust::xxh3::Xxh3::new();
    let mut code_end_row = None;
    let mut cursor = body.walk();
    let mut children = body.children(&mut cursor).peekable();
    while let Some(child) = children.next() {
        let lead = *first.get_or_insert_with(|| {
            kinds.reset();
            kinds.update(&body.kind_id().to_le_bytes());
            child
        });
        let leads_have_errors = has_error;
        has_error |= child.has_error();
        kinds.update(&child.kind_id().to_le_bytes());
        // Comments and attributes go with the item below them; those at the end go together.
        if extract::is_lead_kind(child.kind()) && children.peek().is_some() {
            continue;
        }
        let start = lead.start_position();
        let key = |end_byte: usize, rows: usize| ItemKey {
            text: xxhash_rust::xxh3::xxh3_64(&source[lead.start_byte()..end_byte]),
            column: start.column,
            after_code_on_its_row: code_end_row == Some(start.row),
            kinds: kinds.digest(),
            member_of: member_of.as_ref().map(|(head, _)| *head),
            rows,
        };
        match members(child).filter(|_| member_of.is_none()) {
            Some((container, members)) => {
                let head_end = members.start_byte();
                let whole = !leads_have_errors && !has_errors_before(child, head_end);
                let rows = child.end_position().row - start.row;
                items.push(Item {
                    start_byte: lead.start_byte(),
                    end_byte: head_end,
                    start_row: start.row,
                    key: whole.then(|| key(head_end, rows)),
                    container_head: None,
                });
                let mut head_text = xxhash_rust::xxh3::Xxh3::new();
                head_text.update(container.kind().as_bytes());
                head_text.update(&source[container.start_byte()..head_end]);
                add_items(members, Some((head_text.digest(), child.start_byte()..head_end)), source, items);
                // What follows the members inside the item goes with the last of them.
                if let Some(last) = items.last_mut().filter(|last| last.end_byte < child.end_byte()) {
                    last.end_byte = child.end_byte();
                    if let Some(key) = &mut last.key {
                        key.text = xxhash_rust::xxh3::xxh3_64(&source[last.start_byte..last.end_byte]);
                    }
                }
            }
            None => items.push(Item {
                start_byte: lead.start_byte(),
                end_byte: child.end_byte(),
                start_row: start.row,
                key: (!has_error).then(|| key(child.end_byte(), 0)),
                container_head: member_of.as_ref().map(|(_, head)| head.clone()),
            }),
        }
        first = None;
        has_error = false;
        code_end_row = Some(extract::last_row(child));
    }
}

/// Whether `node` holds a syntax error before `end` (the start of a body whose members are
/// items of their own).
fn has_errors_before(node: Node<'_>, end: usize) -> bool {
    if node.is_error() || node.is_missing() {
        return true;
    }
    let mut cursor = node.walk();
    let children: Vec<Node<'_>> = node.children(&mut cursor).take_while(|child| child.start_byte() < end).collect();
    children.into_iter().any(|child| match child.end_byte() <= end {
        true => child.has_error(),
        false => has_errors_before(child, end),
    })
}

/// The type, trait or module `item` declares (inside an `export` or not) and the body that
/// holds its members, when it has one.
fn members(item: Node<'_>) -> Option<(Node<'_>, Node<'_>)> {
    let container = match item.kind() {
        "export_statement" => item.child_by_field_name("declaration")?,
        _ => item,
    };
    let holds_members = matches!(
        container.kind(),
        "impl_item"
            | "trait_item"
            | "mod_item"
            | "class_declaration"
            | "abstract_class_declaration"
            | "interface_declaration"
            | "enum_declaration"
            | "record_declaration"
            | "annotation_type_declaration"
    );
    let body = container.child_by_field_name("body").filter(|_| holds_members)?;
    Some((container, body))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::strategy::Strategy as _;

    fn parsed(language: Language, source: &str) -> Tree {
        extract::parse(language, source.as_bytes(), None).unwrap()
    }

    /// Extracts `source` with `readings`, checks it against a fresh extraction, and says how
    /// many items were read.
    fn read(readings: &mut ItemReadings, language: Language, source: &str) -> usize {
        let tree = parsed(language, source);
        let symbols = readings.extract(language, &tree, source.as_bytes());
        assert_eq!(symbols, extract::extract(language, &tree, source.as_bytes()), "{source}");
        readings.read_last
    }

    #[test]
    fn an_edit_reads_only_the_items_it_touched() {
        let language = Language::Rust;
        let first = "/// A point.\n#[derive(Debug)]\npub struct Point { x: i32 }\n\n\
                     impl Point {\n    fn x(&self) -> i32 { self.x }\n}\n\n\
                     fn f(p: Point) -> i32 { p.x() }\n\n\
                     cfg_rt! { pub fn in_macro() {} }\n";
        let mut readings = ItemReadings::default();
        // `Point`, the head of its `impl`, the `{`, `x` and `}` of its body, `f` and `cfg_rt!`.
        assert_eq!(read(&mut readings, language, first), 7, "every item is read the first time");
        let body_changed = first.replace("{ p.x() }", "{ p.x() + 1 }");
        assert_eq!(read(&mut readings, language, &body_changed), 1, "only `f` is read again");
        let moved = format!("use crate::a;\n\n{body_changed}");
        assert_eq!(read(&mut readings, language, &moved), 1, "the new `use` is read; the rest moved down");
        let doc_changed = moved.replace("/// A point.", "/// A point on the plane.");
        assert_eq!(read(&mut readings, language, &doc_changed), 1, "a comment belongs to the item below it");
        let member_changed = doc_changed.replace("{ self.x }", "{ self.x * 2 }");
        assert_eq!(read(&mut readings, language, &member_changed), 1, "a member is an item");
        // The head of a type's body is read again when the body grows: its last line moved.
        let grown = member_changed.replace("{ self.x * 2 }", "{\n        self.x * 2\n    }");
        assert_eq!(read(&mut readings, language, &grown), 2, "`x` and the head of `impl Point`");
        let broken = member_changed.replace("fn x(&self) -> i32 { self.x * 2 }", "fn x(&self) -> i32 { self.x ");
        assert!(read(&mut readings, language, &broken) > 1);
        assert!(read(&mut readings, language, &broken) >= 1, "what holds a syntax error is read every time");
        assert_eq!(read(&mut readings, language, &member_changed), 0, "what the break hid is still known");
        // A comment on the row where the code before it ends belongs to that code.
        let trailing = member_changed.replace("use crate::a;\n\n", "use crate::a; /// Not the point's.\n");
        assert_eq!(read(&mut readings, language, &trailing), 1);
        let renamed = trailing.replace("impl Point {", "impl Shape {");
        assert_eq!(read(&mut readings, language, &renamed), 4, "the members of a renamed type are read again");
    }

    #[test]
    fn a_member_read_on_its_own_knows_the_type_parameters_of_its_container() {
        let rust = "use std::future::Future;\n\n\
                    impl<F: Future, Error> Sink<F> for Pool<Error> {\n    \
                    fn close(f: F) -> Result<F::Output, Self::Error> { Error::new() }\n\n    fn flush(e: Error) {}\n}\n";
        let mut readings = ItemReadings::default();
        read(&mut readings, Language::Rust, rust);
        let typed = rust.replace("Error::new()", "Error::new(1)");
        assert_eq!(
            read(&mut readings, Language::Rust, &typed),
            1,
            "only `close` is read again, as a fresh read reads it"
        );
        let java = "class Pool<Item> {\n    Item first;\n\n    Item take() { return first; }\n}\n";
        read(&mut readings, Language::Java, java);
        assert_eq!(read(&mut readings, Language::Java, &java.replace("return first;", "return null;")), 1);
        let typescript = "export class Pool<Item> {\n  take(): Item { return this.first; }\n}\n";
        read(&mut readings, Language::TypeScript, typescript);
        assert_eq!(read(&mut readings, Language::TypeScript, &typescript.replace("this.first", "this.last")), 1);
    }

    #[test]
    fn the_methods_of_a_java_class_are_items() {
        let language = Language::Java;
        let class = "package a;\n\nimport java.util.List;\n\n/** Pools. */\npublic class Pool {\n\
                     \x20   private List<String> names;\n\n\
                     \x20   /** Takes one. */\n    public String take() { return names.get(0); }\n\n\
                     \x20   @Override\n    public String toString() { return \"pool\"; }\n}\n";
        let mut readings = ItemReadings::default();
        read(&mut readings, language, class);
        let typed = class.replace("names.get(0)", "names.get(1)");
        assert_eq!(read(&mut readings, language, &typed), 1, "only `take` is read again");
        let annotated = typed.replace("@Override", "@Override @Deprecated");
        assert_eq!(read(&mut readings, language, &annotated), 1, "an annotation belongs to its method");
        let grown = annotated.replace("private List<String> names;", "private List<String> names;\n    int size;");
        assert_eq!(read(&mut readings, language, &grown), 2, "the new field, and the head of the grown class");
    }

    /// Lines of each language: whole items, comments and attributes that belong to the line
    /// below them, a body opened on one line and closed on another, and items left unfinished
    /// (where tree-sitter inserts what is missing), so that a file may be broken for a while.
    fn lines(language: Language) -> Vec<&'static str> {
        match language {
            Language::Rust => vec![
                "pub struct Point { x: i32, sem: Semaphore }\n",
                "fn f(a: u8) -> u8 { a }\n",
                "impl Point { fn x(&self) -> i32 { self.sem.acquire(); self.x } }\n",
                "use crate::a::{b, c};\n",
                "/// Documents what follows.\n",
                "#[cfg(test)]\n",
                "#![cfg(test)]\n",
                "mod checks {\n",
                "cfg_rt! { pub fn in_macro(p: Point) { p.sem.release(); } mod inner; }\n",
                "#[proc_macro_derive(Shape)] pub fn derive_shape(i: T) -> T { i }\n",
                "fn g() { let s = Semaphore::new(1); s.acquire(); } // trailing\n",
                "impl Open {\n",
                "impl<F: Future, Error> Sink<Item = Error> for Pool<Error> where F: Send {\n",
                "fn close(f: F) -> Result<F::Output, Self::Error> { Error::new() }\n",
                "trait Shape {\n",
                "}\n",
                "type Alias =\n",
                "fn h() -> \n",
            ],
            Language::Java => vec![
                "class A { int y() { return 1; } }\n",
                "enum E { X, Y }\n",
                "/** Documents what follows. */\n",
                "@Deprecated\n",
                "Pool pool;\n",
                "void go() { pool.take(); }\n",
                "class Open {\n",
                "class Generic<Pool> {\n",
                "Pool take() { return null; }\n",
                "interface I {\n",
                "}\n",
                "int\n",
                "Pool p =\n",
            ],
            _ => vec![
                "function g(a: number) { return a; }\n",
                "const k = \"é 😀\";\n",
                "/** Documents what follows. */\n",
                "export const h = (p: Pool) => p.take();\n",
                "m(): void {}\n",
                "class Open {\n",
                "export class Generic<Pool> {\n",
                "take(): Pool { return this.p; }\n",
                "export class Shown {\n",
                "}\n",
                "let x:\n",
                "type T =\n",
            ],
        }
    }

    proptest::proptest! {
        /// Whatever lines come and go, with the syntax broken on the way or not, a file read
        /// item by item, each reading kept from earlier versions where it can be, reads as the
        /// file read whole.
        #[test]
        fn reading_by_items_reads_as_reading_whole(
            (language, start, steps) in proptest::sample::select(vec![Language::Rust, Language::Java, Language::TypeScript])
                .prop_flat_map(|language| {
                    let line = proptest::sample::select(lines(language));
                    let step = (0usize..40, 0usize..3, proptest::collection::vec(line.clone(), 0..3));
                    (
                        proptest::strategy::Just(language),
                        proptest::collection::vec(line, 0..30),
                        proptest::collection::vec(step, 1..12),
                    )
                })
        ) {
            let mut file: Vec<&str> = start;
            let mut readings = ItemReadings::default();
            for (at, removed, added) in steps {
                let at = at.min(file.len());
                let end = (at + removed).min(file.len());
                file.splice(at..end, added);
                let source = file.concat();
                let tree = parsed(language, &source);
                let by_items = readings.extract(language, &tree, source.as_bytes());
                let whole = extract::extract(language, &tree, source.as_bytes());
                proptest::prop_assert_eq!(by_items, whole, "{}", source);
            }
        }
    }
}
