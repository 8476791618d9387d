//! Items written inside a macro's braces (`cfg_rt! { .. }`), parsed again as items.

use tree_sitter::{Node, Point, Range, Tree};

use super::containers::container_name;
use super::reading::read_stretches;
use super::stretches::merged;
use super::test_code::mark_test_held_code;
use super::{Definition, DefinitionKind, FileSymbols, Language, parse_ranges};

/// How deep macros holding items are read inside each other (`cfg_rt! { cfg_net! { .. } }`).
pub(super) const MAX_MACRO_DEPTH: usize = 4;

/// Each macro body on its own, so that one that does not parse as items (`html! { <div/> }`)
/// hides nothing of the next; a body inside another belongs to what holds the outer one.
/// Bodies are read in the order they are written, each followed by those inside it.
pub(super) fn read_macro_bodies(language: Language, source: &[u8], macros: Vec<MacroBody>) -> Vec<FileSymbols> {
    let mut bodies: Vec<(MacroBody, usize)> = macros.into_iter().rev().map(|body| (body, 1)).collect();
    let mut found_inside = Vec::new();
    while let Some((body, depth)) = bodies.pop() {
        let Some(inner) = body.parse(language, source) else { continue };
        let Some((found, nested)) = read_stretches(language, &inner, source, None, &|_| Some(0), 1).pop() else {
            continue;
        };
        if depth < MAX_MACRO_DEPTH {
            bodies.extend(nested.into_iter().rev().map(|inside| (inside.within(&body), depth + 1)));
        }
        let mut symbols = merged(vec![found]);
        // What holds an item inside the body (a `#[cfg(test)] impl`) is read from the body's tree.
        mark_test_held_code(inner.root_node(), source, &mut symbols);
        body.adopt(&mut symbols.definitions);
        found_inside.push(symbols);
    }
    found_inside
}

/// The inside of a macro's braces at item level, and what holds it: an inline module, or a
/// type's `impl` or trait.
pub(super) struct MacroBody {
    range: Range,
    owner: Option<String>,
    /// Whether `owner` is a type, whose functions are methods.
    of_type: bool,
}

impl MacroBody {
    /// The body of a macro invocation's token tree, when it is braced (`name! { .. }`).
    pub(super) fn of(tokens: Node<'_>, source: &[u8]) -> Option<Self> {
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

    /// Whether the byte at `at` lies inside this body.
    pub(super) fn holds(&self, at: usize) -> bool {
        (self.range.start_byte..self.range.end_byte).contains(&at)
    }

    /// This body parsed on its own, as items, its positions those of `source`.
    pub(super) fn parse(&self, language: Language, source: &[u8]) -> Option<Tree> {
        parse_ranges(language, source, &[self.range])
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
