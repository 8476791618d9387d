//! Names that stand alone as values: a constant or a unit struct (`n > MAX_PERMITS`,
//! `let m = Meter;`), a function passed by its name (`.map(parse_line)`, `onClick={save}`).
//! A variable stands the same way, so a name passed as a value is a use only where no function
//! around it binds that name.

use std::collections::HashSet;
use std::ops::Range;

use tree_sitter::Node;

use super::macros::MacroBody;
use super::token_calls::counts_at;
use super::{Language, text};

/// The functions of a stretch and the patterns that bind names in them (parameters, `let`s,
/// closures' parameters, `match` and `for` patterns), for telling a function passed by its
/// name from a variable of that name.
#[derive(Default)]
pub(super) struct Bindings<'s> {
    /// Whether a capitalised name in a pattern binds it (TypeScript's `const { Provider } = x`),
    /// or is a variant or a type matched (Rust's `Some(x)`).
    capitalised_bind: bool,
    /// The byte ranges of the functions, closures and arrow functions.
    scopes: Vec<Range<usize>>,
    /// Each binding pattern's first byte and text.
    patterns: Vec<(usize, &'s str)>,
}

impl<'s> Bindings<'s> {
    /// None yet, for a file of `language`.
    pub(super) fn of(language: Language) -> Self {
        Bindings { capitalised_bind: language.is_script(), ..Bindings::default() }
    }

    /// Keeps `node` when `capture` is a function (`value.scope`) or a binding pattern
    /// (`value.binding`); whether it was one of them.
    pub(super) fn take(&mut self, capture: &str, node: Node<'_>, source: &'s [u8]) -> bool {
        match capture {
            "value.scope" => self.scopes.push(node.byte_range()),
            "value.binding" => self.patterns.push((node.start_byte(), text(node, source))),
            _ => return false,
        }
        true
    }

    /// Where the uses found by their place count in a stretch whose item-level macro bodies
    /// are `bodies` and whose names are no uses within `not_uses` (see [`Places::count`]).
    pub(super) fn places<'a>(self, bodies: &'a [MacroBody], not_uses: &'a [Range<usize>]) -> Places<'a, 's> {
        Places { bodies, not_uses, bound: self.bound() }
    }

    /// What the stretch binds: for each function, closure or arrow function, the names its
    /// own patterns bind (those of a closure inside it are the closure's).
    fn bound(self) -> BoundNames<'s> {
        let mut scopes = self.scopes;
        scopes.sort_unstable_by_key(|scope| (scope.start, std::cmp::Reverse(scope.end)));
        scopes.dedup();
        // Each scope's nearest enclosing one: ranges of a tree nest or stand apart.
        let mut parents = Vec::with_capacity(scopes.len());
        let mut open: Vec<usize> = Vec::new();
        for (index, scope) in scopes.iter().enumerate() {
            while open.last().is_some_and(|&last| scopes[last].end <= scope.start) {
                open.pop();
            }
            parents.push(open.last().copied());
            open.push(index);
        }
        let names = vec![HashSet::new(); scopes.len()];
        let mut bound = BoundNames { scopes, parents, names };
        for (at, pattern) in self.patterns {
            if let Some(scope) = bound.innermost_at(at) {
                bound.names[scope].extend(identifiers(pattern, self.capitalised_bind));
            }
        }
        bound
    }
}

/// The names each function, closure or arrow function of a stretch binds (see
/// [`Bindings::bound`]).
struct BoundNames<'s> {
    /// Sorted by start, the outer of two that start together first.
    scopes: Vec<Range<usize>>,
    /// Each scope's nearest enclosing one.
    parents: Vec<Option<usize>>,
    /// The names each scope's own patterns bind, in the order of `scopes`.
    names: Vec<HashSet<&'s str>>,
}

impl BoundNames<'_> {
    /// Whether a function around the byte `at` binds `name`, so that the name standing there
    /// is a variable: the innermost one or any around it, as a closure sees its function's
    /// variables, while a closure's parameter is no variable outside the closure. A name
    /// outside every function (a constant's value) binds nothing.
    fn binds(&self, at: usize, name: &str) -> bool {
        self.around(self.innermost_at(at)).any(|scope| self.names[scope].contains(name))
    }

    /// The innermost scope that holds the byte `at`: the last to start at or before it, or
    /// the nearest one around that which reaches it.
    fn innermost_at(&self, at: usize) -> Option<usize> {
        let last_started = self.scopes.partition_point(|scope| scope.start <= at).checked_sub(1);
        self.around(last_started).find(|&scope| self.scopes[scope].contains(&at))
    }

    /// `scope` and the scopes around it, innermost first.
    fn around(&self, scope: Option<usize>) -> impl Iterator<Item = usize> + '_ {
        std::iter::successors(scope, |&scope| self.parents[scope])
    }
}

/// Where, in one stretch, the uses found by their place count, for the index and for
/// `find_symbol`'s lines alike.
pub(super) struct Places<'a, 's> {
    bodies: &'a [MacroBody],
    not_uses: &'a [Range<usize>],
    bound: BoundNames<'s>,
}

impl Places<'_, '_> {
    /// Whether the use of `name` at byte `at` counts: where [`counts_at`] says (not in a
    /// macro body read again as items, an attribute's arguments or an import), and, for a name
    /// standing as a value (`bindable`), not where a function around it binds the name.
    pub(super) fn count(&self, at: usize, name: &str, bindable: bool) -> bool {
        counts_at(at, self.bodies, self.not_uses) && !(bindable && self.bound.binds(at, name))
    }
}

/// The identifiers written in a pattern (`Some((key, value))` binds `key` and `value`), a
/// capitalised one only when `capitalised_bind` (in Rust it is a variant or a type).
fn identifiers(pattern: &str, capitalised_bind: bool) -> impl Iterator<Item = &str> {
    pattern.split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$')).filter(move |word| {
        word.starts_with(|c: char| c.is_lowercase() || c == '_' || c == '$' || (capitalised_bind && c.is_uppercase()))
    })
}

/// Whether a capitalised name captured as a value is read otherwise: in a Rust macro's tokens,
/// where the token reading decides what it is (`struct Point` there defines it), or as a JSX
/// closing tag, which names the element's component again.
pub(super) fn read_otherwise(language: Language, node: Node<'_>) -> bool {
    let parent_is = |kind: &str| node.parent().is_some_and(|parent| parent.kind() == kind);
    match language {
        Language::Rust => parent_is("token_tree"),
        Language::Tsx | Language::JavaScript => parent_is("jsx_closing_element"),
        Language::Java | Language::TypeScript => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pattern_binds_its_lower_case_names() {
        let names: Vec<&str> = identifiers("Some((key, mut value)) | Entry::Vacant(_slot)", false).collect();
        assert_eq!(names, ["key", "mut", "value", "_slot"]);
        assert_eq!(identifiers("Meter", false).count(), 0);
        let names: Vec<&str> = identifiers("{ Provider, value: $v }", true).collect();
        assert_eq!(names, ["Provider", "value", "$v"]);
    }

    #[test]
    fn a_name_is_bound_by_the_function_around_it_or_any_around_that() {
        // fn f(a) { |b| { |c| .. } ; .. } fn g(d) {}
        let mut bindings = Bindings::of(Language::Rust);
        bindings.scopes = vec![0..100, 10..50, 20..40, 200..300];
        bindings.patterns = vec![(1, "a"), (11, "b"), (21, "c"), (201, "d")];
        let bound = bindings.bound();
        assert!(bound.binds(30, "a") && bound.binds(30, "b") && bound.binds(30, "c"), "inside the inner closure");
        assert!(bound.binds(45, "b") && !bound.binds(45, "c"), "past the inner closure");
        assert!(bound.binds(60, "a") && !bound.binds(60, "b"), "past the outer closure, in the function");
        assert!(!bound.binds(150, "a") && !bound.binds(250, "a") && bound.binds(250, "d"), "between and in another");
        assert_eq!(
            [0, 10, 20, 45, 99, 100].map(|at| bound.innermost_at(at)),
            [Some(0), Some(1), Some(2), Some(1), Some(0), None]
        );
    }
}
