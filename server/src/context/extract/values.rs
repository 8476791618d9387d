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
        Bindings {
            capitalised_bind: matches!(language, Language::TypeScript | Language::Tsx | Language::JavaScript),
            ..Bindings::default()
        }
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

    /// What the stretch binds: for each outermost function, every name its patterns bind,
    /// those of the closures and functions inside it too.
    fn bound(self) -> BoundNames<'s> {
        let mut scopes = self.scopes;
        scopes.sort_unstable_by_key(|scope| (scope.start, std::cmp::Reverse(scope.end)));
        let mut outermost: Vec<Range<usize>> = Vec::new();
        for scope in scopes {
            if outermost.last().is_none_or(|last| scope.start >= last.end) {
                outermost.push(scope);
            }
        }
        let mut names: Vec<HashSet<&'s str>> = vec![HashSet::new(); outermost.len()];
        for (at, pattern) in self.patterns {
            if let Some(scope) = outermost_at(&outermost, at) {
                names[scope].extend(identifiers(pattern, self.capitalised_bind));
            }
        }
        BoundNames { outermost, names }
    }
}

/// The names each outermost function of a stretch binds (see [`Bindings::bound`]).
struct BoundNames<'s> {
    /// Sorted and apart.
    outermost: Vec<Range<usize>>,
    /// Those of each function of `outermost`, in its order.
    names: Vec<HashSet<&'s str>>,
}

impl BoundNames<'_> {
    /// Whether a function around the byte `at` binds `name`, so that the name standing there
    /// is a variable: the outermost one, as a closure sees its function's variables. A name
    /// outside every function (a constant's value) binds nothing.
    fn binds(&self, at: usize, name: &str) -> bool {
        outermost_at(&self.outermost, at).is_some_and(|scope| self.names[scope].contains(name))
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

/// The index of the range of `outermost` (sorted and apart) that holds `at`.
fn outermost_at(outermost: &[Range<usize>], at: usize) -> Option<usize> {
    let after = outermost.partition_point(|scope| scope.start <= at);
    after.checked_sub(1).filter(|&index| outermost[index].contains(&at))
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
    fn the_outermost_function_around_a_byte_is_found() {
        let outermost = [0..10, 20..30, 30..40];
        let found: Vec<Option<usize>> =
            [0, 9, 10, 25, 30, 39, 40].iter().map(|at| outermost_at(&outermost, *at)).collect();
        assert_eq!(found, [Some(0), Some(0), None, Some(1), Some(2), Some(2), None]);
    }
}
