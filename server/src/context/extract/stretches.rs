//! The readings of a file's stretches put together into what the file defines, uses and
//! imports.

use std::collections::HashMap;

use tree_sitter::Tree;

use super::macros::read_macro_bodies;
use super::reading::read_stretches;
use super::test_code::{mark_nested_test_code, mark_test_held_code};
use super::{FileSymbols, Language, push_unique};

/// What the queries found in one stretch of a file: all of it, or some of its top-level
/// items. [`finish`] puts the stretches of a file together; what it gives does not depend on
/// how the file was cut into stretches, as long as each top-level item lies in one.
#[derive(Debug, Clone, Default)]
pub(in crate::context) struct Found {
    /// What the stretch defines, uses and imports, but for the calls made through variables.
    pub(super) symbols: FileSymbols,
    /// Each variable's, parameter's and field's declared type (`None` when a name is declared
    /// with two), sorted by name.
    pub(super) declared: Vec<(String, Option<String>)>,
    /// The method calls made through a variable (`sem.acquire()`): its name and the method's.
    pub(super) receiver_calls: Vec<(String, String)>,
    /// What the items inside the stretch's macro bodies hold, each body read on its own.
    pub(super) inside_macros: Vec<FileSymbols>,
}

impl Found {
    /// The same stretch moved by `rows` lines (an edit above it added or removed lines).
    pub(in crate::context) fn shift(&mut self, rows: i64) {
        let by = |line: &mut u32| *line = (i64::from(*line) + rows).max(1) as u32;
        let symbols = std::iter::once(&mut self.symbols).chain(self.inside_macros.iter_mut());
        for symbols in symbols {
            for definition in &mut symbols.definitions {
                by(&mut definition.line);
                by(&mut definition.end_line);
                by(&mut definition.body_line);
                by(&mut definition.lead_line);
            }
            for declaration in &mut symbols.module_declarations {
                by(&mut declaration.line);
            }
        }
    }
}

/// A run of a file's items read on its own: its bytes, and the head of the type, trait or
/// module its first item is a member of (`impl<F: Future> Sink for Pool<F>`, `class Box<T>`),
/// whose type parameters the members use.
#[derive(Clone)]
pub(in crate::context) struct Run {
    pub bytes: std::ops::Range<usize>,
    pub container_head: Option<std::ops::Range<usize>>,
}

/// Reads the stretches of a parsed file: the matches within `within` (all of the file when
/// `None`), each given to the stretch `stretch_of` names for the byte its first capture
/// starts at (none: left out), and the macro bodies each stretch holds.
pub(in crate::context) fn collect(
    language: Language,
    tree: &Tree,
    source: &[u8],
    within: Option<Run>,
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
pub(in crate::context) fn finish(language: Language, tree: &Tree, source: &[u8], stretches: Vec<Found>) -> FileSymbols {
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
        mark_test_held_code(tree.root_node(), source, &mut symbols);
    }
    symbols
}

/// The stretches' own symbols together, the calls through variables read as calls through
/// their types, definitions in source order.
pub(super) fn merged(stretches: Vec<Found>) -> FileSymbols {
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
    symbols.import_bindings.sort_unstable();
    symbols.import_bindings.dedup();
    symbols
}

/// Counts of uses and of typed calls, summed over several readings of one file.
struct Counts {
    references: HashMap<String, u32>,
    method_calls: HashMap<String, u32>,
    type_uses: HashMap<String, u32>,
    typed_calls: HashMap<(String, String), u32>,
    owned_uses: HashMap<(String, String), u32>,
}

impl Counts {
    /// The counts `symbols` holds, taken out of it to be added to.
    fn taken_from(symbols: &mut FileSymbols) -> Self {
        Self {
            references: symbols.references.drain(..).collect(),
            method_calls: symbols.method_calls.drain(..).collect(),
            type_uses: symbols.type_uses.drain(..).collect(),
            typed_calls: symbols.typed_calls.drain(..).map(|(owner, called, count)| ((owner, called), count)).collect(),
            owned_uses: symbols.owned_uses.drain(..).map(|(name, owner, count)| ((name, owner), count)).collect(),
        }
    }

    /// Gives the summed counts back to `symbols`, sorted.
    fn give_to(self, symbols: &mut FileSymbols) {
        symbols.references = self.references.into_iter().collect();
        symbols.references.sort();
        symbols.method_calls = self.method_calls.into_iter().collect();
        symbols.method_calls.sort();
        symbols.type_uses = self.type_uses.into_iter().collect();
        symbols.type_uses.sort();
        symbols.typed_calls =
            self.typed_calls.into_iter().map(|((owner, called), count)| (owner, called, count)).collect();
        symbols.typed_calls.sort();
        symbols.owned_uses = self.owned_uses.into_iter().map(|((name, owner), count)| (name, owner, count)).collect();
        symbols.owned_uses.sort();
    }
}

impl FileSymbols {
    /// Adds `other`'s definitions, imports and relations to this file's, and its uses and
    /// typed calls to `counts`; its module declarations, package and errors are left to the
    /// caller.
    fn append(&mut self, other: FileSymbols, counts: &mut Counts) {
        let FileSymbols {
            definitions,
            references,
            method_calls,
            type_uses,
            typed_calls,
            owned_uses,
            imports,
            import_bindings,
            written_paths,
            supertypes,
            impl_targets,
            ..
        } = other;
        self.definitions.extend(definitions);
        for (name, count) in references {
            *counts.references.entry(name).or_default() += count;
        }
        for (name, count) in method_calls {
            *counts.method_calls.entry(name).or_default() += count;
        }
        for (name, count) in type_uses {
            *counts.type_uses.entry(name).or_default() += count;
        }
        for (owner, called, count) in typed_calls {
            *counts.typed_calls.entry((owner, called)).or_default() += count;
        }
        for (name, owner, count) in owned_uses {
            *counts.owned_uses.entry((name, owner)).or_default() += count;
        }
        self.imports.extend(imports);
        self.import_bindings.extend(import_bindings);
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
