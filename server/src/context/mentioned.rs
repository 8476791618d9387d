//! The names an issue gives, as the context pack weighs definitions by them: which it names
//! exactly, which only with a qualifier (`T250::new`), and which distinctive names others
//! contain.

use std::collections::{HashMap, HashSet};

use super::extract::{Definition, DefinitionKind};
use super::issue::IssueQuery;

/// The names an issue gives, for ordering the pack's map and for choosing the parts of a
/// large file.
pub(super) struct Mentioned<'a> {
    exact: HashSet<&'a str>,
    /// For names the issue gives only with a qualifier (`T250::new`), the qualifiers nearest
    /// them (`T250`).
    qualified: HashMap<&'a str, HashSet<&'a str>>,
    /// Distinctive ones, lower-cased: spelt like code (`discriminatedUnion`, `join_next`) or
    /// eight letters and more, not common words such as `self` or `data`.
    distinctive: Vec<String>,
    /// Whether the issue is about tests: else the test code that shares a name it gives is
    /// not what it means.
    about_tests: bool,
}

impl<'a> Mentioned<'a> {
    /// The names `issue` gives.
    pub(super) fn new(issue: &'a IssueQuery) -> Self {
        let names = issue.symbols.iter().map(|symbol| symbol.name.as_str());
        let distinctive = names
            .clone()
            .filter(|name| {
                let inner_capital = name.chars().skip(1).any(|c| c.is_ascii_uppercase());
                name.len() >= 6 && (inner_capital || name.contains('_') || name.len() >= 8)
            })
            .map(str::to_lowercase)
            .collect();
        let mut qualified: HashMap<&str, HashSet<&str>> = HashMap::new();
        let bare: HashSet<&str> = issue
            .symbols
            .iter()
            .filter(|symbol| symbol.qualifiers.is_empty())
            .map(|symbol| symbol.name.as_str())
            .collect();
        for symbol in issue.symbols.iter().filter(|symbol| !bare.contains(symbol.name.as_str())) {
            if let Some(nearest) = symbol.qualifiers.last() {
                qualified.entry(symbol.name.as_str()).or_default().insert(nearest.as_str());
            }
        }
        Self { exact: names.collect(), qualified, distinctive, about_tests: issue.about_tests }
    }

    /// Whether the issue means `definition` by its name: it names it, and when it names it
    /// only with qualifiers (`T250::new`), the definition belongs to one of them, or to none
    /// that `others` (the file's definitions) has. A trait or interface as the qualifier
    /// (`Codec::decode`) means its implementations too. Test code is meant only where the
    /// issue is about tests.
    pub(super) fn means(&self, definition: &Definition, others: &[Definition]) -> bool {
        if self.closeness(&definition.name) != 0 || (definition.test && !self.about_tests) {
            return false;
        }
        let Some(qualifiers) = self.qualified.get(definition.name.as_str()) else { return true };
        let abstract_qualifier = others.iter().any(|d| {
            matches!(d.kind, DefinitionKind::Trait | DefinitionKind::Interface) && qualifiers.contains(d.name.as_str())
        });
        if abstract_qualifier {
            return true;
        }
        let of_qualifier = |d: &Definition| d.container.as_deref().is_some_and(|c| qualifiers.contains(c));
        of_qualifier(definition) || !others.iter().any(|d| d.name == definition.name && of_qualifier(d))
    }

    /// 0: the issue names it; 1: its name holds a distinctive name of the issue
    /// (`$ZodDiscriminatedUnion` for `discriminatedUnion`); 2: neither.
    pub(super) fn closeness(&self, name: &str) -> u8 {
        if self.exact.contains(name) {
            return 0;
        }
        let lower = name.to_lowercase();
        if self.distinctive.iter().any(|mention| lower.contains(mention.as_str())) { 1 } else { 2 }
    }
}
