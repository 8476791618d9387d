//! What a type's name written inside an item means beyond its text: a type parameter the item
//! declares (`impl<S, Request> Service<Request> for Timeout<S>`, `class Repository<Entity>`,
//! `<T> T first(List<T> items)`), which written alone is the parameter, not a type of the
//! workspace named alike; a name written after such a parameter (`F::Output` of `F: Future`),
//! which is its bound trait's; and an associated type named in a Rust trait's arguments
//! (`Item` of `impl Iterator<Item = u8>`), which is that trait's, as is an associated type
//! written after `Self` in an `impl` of a trait (`Self::Output` in `impl Future for Sleep`). A
//! trait's path then says whether the name lies outside the workspace.

use std::collections::{HashMap, HashSet};
use std::ops::Range;

use tree_sitter::Node;

use super::text;

/// The type parameters, the associated types named in trait arguments and the traits `impl`s
/// implement, as one walk of a file's tree meets them, for reading the uses it meets.
#[derive(Default)]
pub(super) struct ItemTypes<'s> {
    parameters: TypeParameters<'s>,
    associated: AssociatedTypes<'s>,
    /// The `impl`s of a trait: each one's bytes and the trait's path.
    trait_impls: Vec<(Range<usize>, &'s str)>,
    /// The types written after `Self` (`Output` of `Poll<Self::Output>`), by their nodes.
    after_self: HashSet<usize>,
}

impl<'s> ItemTypes<'s> {
    /// Keeps `node` when `capture` is one of a type parameter (`type.parameter`,
    /// `type.bounded`, `type.bound`) or of an associated type named in a trait's arguments
    /// (`associated.trait`, `associated.name`) or the trait an `impl` implements
    /// (`impl.trait`); whether it was one.
    pub(super) fn take(&mut self, capture: &str, node: Node<'_>, source: &'s [u8]) -> bool {
        match capture {
            "impl.trait" => {
                if let (Some(item), Some(path)) = (node.parent(), trait_path(node, source)) {
                    self.trait_impls.push((item.byte_range(), path));
                }
            }
            _ => return self.parameters.take(capture, node, source) || self.associated.take(capture, node, source),
        }
        true
    }

    /// Notes the use `node` written after the path `owner`, when it is a type written after
    /// `Self` (`Self::Output` in a type, not `Self::new()` nor a variant `Self::Idle`).
    pub(super) fn note_use(&mut self, node: Node<'_>, owner: Option<&str>) {
        if owner == Some("Self") && node.kind() == "type_identifier" {
            self.after_self.insert(node.id());
        }
    }

    /// How the use of `name` at byte `at` (its node `node`), written after the path `owner`,
    /// reads once the stretch is read: `None` where it is a type parameter written alone, else
    /// the path it counts as written after (a type parameter's trait, an associated type's
    /// trait, the trait of the `impl` around a type written after `Self`, or `owner` as
    /// written).
    pub(super) fn read(&self, node: usize, at: usize, name: &str, owner: Option<&'s str>) -> Option<Option<&'s str>> {
        let owner = match owner {
            Some("Self") if self.after_self.contains(&node) => Some(self.trait_implemented_at(at).unwrap_or("Self")),
            owner => owner.map(|owner| self.parameters.owner_through(at, owner)),
        };
        let owner = owner.or_else(|| self.associated.trait_of(node));
        (owner.is_some() || !self.parameters.declare(at, name)).then_some(owner)
    }

    /// The path of the trait the innermost `impl` of a trait around byte `at` implements.
    fn trait_implemented_at(&self, at: usize) -> Option<&'s str> {
        self.trait_impls
            .iter()
            .filter(|(item, _)| item.contains(&at))
            .max_by_key(|(item, _)| item.start)
            .map(|(_, path)| *path)
    }
}

/// The type parameters of one stretch, each with the bytes of the item that declares it, and
/// the traits that bound them.
#[derive(Default)]
struct TypeParameters<'s> {
    /// Each parameter's name and the items that declare a parameter of that name.
    declared: HashMap<&'s str, Vec<Range<usize>>>,
    /// Each bounded name, with the item whose parameter list or `where` clause bounds it and the
    /// path of the trait (`Future` of `F: Future + Send`, `Stream` of `where S: Stream<Item = u8>`).
    bounds: HashMap<&'s str, Vec<(Range<usize>, &'s str)>>,
    /// The name and item of the bound being read, until its trait comes in the same match.
    bounded: Option<(&'s str, Range<usize>)>,
}

/// Traits that give a type parameter no associated item a path could name after it.
const MARKER_TRAITS: &[&str] = &[
    "Send",
    "Sync",
    "Unpin",
    "Sized",
    "Copy",
    "Clone",
    "Debug",
    "Display",
    "Default",
    "Eq",
    "PartialEq",
    "Ord",
    "PartialOrd",
    "Hash",
];

impl<'s> TypeParameters<'s> {
    /// Keeps `node` when `capture` is a type parameter's name (`type.parameter`), a bounded
    /// name (`type.bounded`) or the bound after it (`type.bound`); whether it was one.
    fn take(&mut self, capture: &str, node: Node<'_>, source: &'s [u8]) -> bool {
        match capture {
            "type.parameter" => {
                if let Some(item) = item_of(node) {
                    self.declared.entry(text(node, source)).or_default().push(item);
                }
            }
            "type.bounded" => self.bounded = item_of(node).map(|item| (text(node, source), item)),
            "type.bound" => {
                if let (Some((name, item)), Some(bound)) = (self.bounded.take(), trait_path(node, source)) {
                    self.bounds.entry(name).or_default().push((item, bound));
                }
            }
            _ => return false,
        }
        true
    }

    /// Whether `name`, written at byte `at` with no path before it, is a type parameter of an
    /// item around it.
    fn declare(&self, at: usize, name: &str) -> bool {
        self.declared.get(name).is_some_and(|items| items.iter().any(|item| item.contains(&at)))
    }

    /// The path written before a name at byte `at`, read through a type parameter: the trait
    /// that bounds it (`Future` for the `F` of `F::Output` where `F: Future + Send`) when the
    /// items around `at` bound it by one trait beside marker traits; else `owner` as written.
    fn owner_through(&self, at: usize, owner: &'s str) -> &'s str {
        if owner.contains(':') || !self.declare(at, owner) {
            return owner;
        }
        let mut traits = self.bounds.get(owner).into_iter().flatten().filter(|(item, bound)| {
            item.contains(&at) && !MARKER_TRAITS.contains(&bound.rsplit("::").next().unwrap_or(bound))
        });
        match (traits.next(), traits.next()) {
            (Some((_, only)), None) => only,
            _ => owner,
        }
    }
}

/// The bytes of the item whose parameter list or `where` clause holds the name `node`: the
/// name stands in its parameter (or predicate), in the list (or clause), in the item. None
/// where the list stands in a syntax error, which declares nothing.
fn item_of(node: Node<'_>) -> Option<Range<usize>> {
    let item = node.parent()?.parent()?.parent()?;
    (!item.is_error()).then(|| item.byte_range())
}

/// The path of the trait a bound names (`Future`, `futures::Stream` of
/// `futures::Stream<Item = u8>`, `Fn` of `Fn(u8) -> u8`, through `for<'a>`); none for a
/// lifetime or `?Sized`.
fn trait_path<'s>(bound: Node<'_>, source: &'s [u8]) -> Option<&'s str> {
    match bound.kind() {
        "type_identifier" | "scoped_type_identifier" => Some(text(bound, source)),
        "generic_type" => trait_path(bound.child_by_field_name("type")?, source),
        "function_type" => Some(text(bound.child_by_field_name("trait")?, source)),
        "higher_ranked_trait_bound" => trait_path(bound.child_by_field_name("type")?, source),
        _ => None,
    }
}

/// The associated types named in one stretch's trait arguments, each with its trait's path.
#[derive(Default)]
struct AssociatedTypes<'s> {
    /// The trait of the match being read, until its associated type's name comes.
    trait_path: Option<&'s str>,
    /// Each associated type's name node and the path of its trait.
    traits: HashMap<usize, &'s str>,
}

impl<'s> AssociatedTypes<'s> {
    /// Keeps `node` when `capture` is a trait with arguments (`associated.trait`) or the name of
    /// an associated type among them (`associated.name`, after its trait in the same match);
    /// whether it was one.
    fn take(&mut self, capture: &str, node: Node<'_>, source: &'s [u8]) -> bool {
        match capture {
            "associated.trait" => self.trait_path = Some(text(node, source)),
            "associated.name" => {
                if let Some(trait_path) = self.trait_path.take() {
                    self.traits.insert(node.id(), trait_path);
                }
            }
            _ => return false,
        }
        true
    }

    /// The path of the trait whose associated type the name `node` is, if it is one.
    fn trait_of(&self, node: usize) -> Option<&'s str> {
        self.traits.get(&node).copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_type_parameter_is_declared_only_inside_its_item() {
        let mut parameters = TypeParameters::default();
        parameters.declared.insert("Error", vec![10..50, 80..90]);
        assert!(parameters.declare(10, "Error") && parameters.declare(49, "Error") && parameters.declare(85, "Error"));
        assert!(!parameters.declare(50, "Error") && !parameters.declare(60, "Error"), "between the items");
        assert!(!parameters.declare(20, "Item"), "a name no item declares");
    }

    #[test]
    fn a_path_through_a_type_parameter_is_read_through_its_one_trait() {
        // impl<F: Future + Send, L: Link + Linked, W> .. { fn f<G>() where G: Clone + Future {} }
        let mut parameters = TypeParameters::default();
        let (outer, inner) = (0..100, 40..60);
        parameters.declared.extend([
            ("F", vec![outer.clone()]),
            ("L", vec![outer.clone()]),
            ("W", vec![outer]),
            ("G", vec![inner]),
        ]);
        parameters.bounds.extend([
            ("F", vec![(0..100, "Future"), (0..100, "Send")]),
            ("L", vec![(0..100, "Link"), (0..100, "Linked")]),
            ("G", vec![(40..60, "std::clone::Clone"), (40..60, "std::future::Future")]),
        ]);
        assert_eq!(parameters.owner_through(10, "F"), "Future", "`Send` names no associated item");
        assert_eq!(parameters.owner_through(10, "L"), "L", "two traits: either may hold the item");
        assert_eq!(parameters.owner_through(10, "W"), "W", "no bound");
        assert_eq!(parameters.owner_through(50, "G"), "std::future::Future");
        assert_eq!(parameters.owner_through(70, "G"), "G", "outside the item that declares it");
        assert_eq!(parameters.owner_through(10, "io"), "io", "no type parameter");
        assert_eq!(parameters.owner_through(10, "F::Inner"), "F::Inner", "a longer path");
    }
}
