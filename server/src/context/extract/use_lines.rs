//! Where a file uses a name, line by line, for showing the uses the index counts.

use std::collections::HashSet;

use tree_sitter::{QueryCursor, StreamingIterator, Tree};

use super::captured_uses::{CapturedUse, PlacedUse, captured_use};
use super::item_types::ItemTypes;
use super::macros::{self, MacroBody};
use super::token_calls::TokenMatch;
use super::values::Bindings;
use super::{DefinitionKind, Language, parse, text};

/// The 1-based lines of `source` that use any of `names` (call them or name them as types), each
/// once and in order, as [`extract`](super::extract) counts uses: a definition's own name is not a use, and the
/// items inside a macro's braces (`cfg_rt! { .. }`) are read as items. For showing where a name
/// is used; the index keeps only how often. Method calls (`value.name()`) count only
/// `with_method_calls`: they reach no free function of the name. Nor does a name written right
/// after a path that `leads_outside` says makes it an item from outside the workspace (`Poll`
/// of `Poll::Ready`, `io` of `io::Error`), asked with the path and the name; a name after a type
/// parameter, or an associated type named in a trait's arguments, is asked with the trait's
/// path (`Future` of `F::Output` where `F: Future`, `Iterator` of `Iterator<Item = u8>`), a
/// name written alone with an empty path (a Java file's `Object`, a script's `Error`, either
/// of which may be the language's own),
/// and a type parameter written alone inside its item is no use.
pub fn use_lines(
    language: Language,
    source: &[u8],
    names: &[&str],
    with_method_calls: bool,
    leads_outside: &dyn Fn(&str, &str) -> bool,
) -> Vec<u32> {
    let Some(tree) = parse(language, source, None) else { return Vec::new() };
    let mut lines = Vec::new();
    // Each tree with how deep in macro bodies it lies, as `read_macro_bodies` reads them.
    let mut trees = vec![(tree, 0)];
    while let Some((tree, depth)) = trees.pop() {
        let wanted = Wanted { names, with_method_calls, leads_outside };
        for body in use_lines_of_tree(language, &tree, source, &wanted, &mut lines) {
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

/// The uses [`use_lines`] looks for.
struct Wanted<'w> {
    names: &'w [&'w str],
    with_method_calls: bool,
    leads_outside: &'w dyn Fn(&str, &str) -> bool,
}

impl Wanted<'_> {
    /// Whether a use of `name`, a method call or not, written after the path `owner`, is
    /// wanted.
    fn wants(&self, name: &str, method: bool, owner: Option<&str>) -> bool {
        (self.with_method_calls || !method)
            && self.names.contains(&name)
            && (method || !(self.leads_outside)(owner.unwrap_or_default(), name))
    }
}

/// Adds to `lines` those of one tree that use any of the wanted names, and gives the macro
/// bodies at its item level.
fn use_lines_of_tree(
    language: Language,
    tree: &Tree,
    source: &[u8],
    wanted: &Wanted<'_>,
    lines: &mut Vec<u32>,
) -> Vec<MacroBody> {
    let query = &language.queries().combined;
    let capture_names = query.capture_names();
    // Uses of a wanted name wherever they stand, judged with the path written before them once
    // the items' type parameters and trait arguments are known.
    let mut uses: Vec<PlacedUse<'_>> = Vec::new();
    // Uses in macros' tokens, paths' last names and names standing as values, by where they
    // stand: those inside a body read again as items count there, those in an attribute's
    // arguments or an import are none, and a name passed as a value is none where a function
    // around it binds the name.
    let mut placed_uses: Vec<PlacedUse<'_>> = Vec::new();
    let mut bindings = Bindings::of(language);
    let mut item_types = ItemTypes::default();
    let mut defined_names: HashSet<usize> = HashSet::new();
    let mut bodies: Vec<MacroBody> = Vec::new();
    let mut not_uses: Vec<std::ops::Range<usize>> = Vec::new();
    let mut cursor = QueryCursor::new();
    let mut matches = cursor.matches(query, tree.root_node(), source);
    while let Some(found) = matches.next() {
        let mut name = None;
        let mut is_definition = false;
        let mut tokens = TokenMatch::default();
        for capture in found.captures() {
            let node = capture.node;
            let capture_name = capture_names[capture.index as usize];
            if tokens.take(capture_name, node)
                || bindings.take(capture_name, node, source)
                || item_types.take(capture_name, node, source)
            {
                continue;
            }
            if let Some(captured) = captured_use(language, capture_name, node, source) {
                let name = text(node, source);
                match captured {
                    CapturedUse::Direct { method } if wanted.wants(name, method, None) => {
                        let used = PlacedUse { method, ..PlacedUse::named(node, source, false) };
                        item_types.note_use(node, used.owner);
                        uses.push(used);
                    }
                    CapturedUse::Placed { bindable } if wanted.wants(name, false, None) => {
                        placed_uses.push(PlacedUse::named(node, source, bindable));
                    }
                    CapturedUse::NotUses => not_uses.push(node.byte_range()),
                    _ => {}
                }
                continue;
            }
            match capture_name {
                "name" => name = Some(node.id()),
                "macro.items" => bodies.extend(MacroBody::of(node, source)),
                "import" => not_uses.push(node.byte_range()),
                other => is_definition |= DefinitionKind::from_capture(other).is_some(),
            }
        }
        if let (Some(name), true) = (name, is_definition) {
            defined_names.insert(name);
        }
        if let Some(used) = tokens.used(source)
            && wanted.wants(text(used.node, source), used.method, None)
        {
            placed_uses.push(PlacedUse::of_tokens(&used, source));
        }
    }
    let places = bindings.places(&bodies, &not_uses);
    // A type parameter written alone is no use; a name after one, an associated type named in
    // a trait's arguments and a type after `Self` count as written after the trait (see
    // `ItemTypes::read`); the path before a wanted name is judged only now.
    let counts = |used: &PlacedUse<'_>| {
        !defined_names.contains(&used.node)
            && item_types
                .read(used.node, used.at, used.name, used.owner)
                .is_some_and(|owner| wanted.wants(used.name, used.method, owner))
    };
    lines.extend(uses.iter().filter(|used| counts(used)).map(|used| used.line));
    lines.extend(
        placed_uses
            .iter()
            .filter(|placed| places.count(placed.at, placed.name, placed.bindable) && counts(placed))
            .map(|placed| placed.line),
    );
    bodies
}
