//! Uses read from the text around a name: calls in a macro's tokens (`assert_eq!(compute(1),
//! 1)`, `format!("{}", x.len())`), which tree-sitter leaves unparsed, and the modules a path
//! passes through, and where such uses count.

use std::ops::Range;

use tree_sitter::Node;

use super::macros::MacroBody;

/// The captures of one match of the token patterns (`@reference.token`,
/// `@reference.token_owner`, `@token.owned`, `@token.arguments`), gathered while the match is
/// read.
#[derive(Default)]
pub(super) struct TokenMatch<'t> {
    /// A capitalised name among the tokens (`Point` of `assert_eq!(p, Point { x: 1 })`).
    capitalised: Option<Node<'t>>,
    name: Option<Node<'t>>,
    owner: Option<Node<'t>>,
    owned: Option<Node<'t>>,
    group: Option<Node<'t>>,
}

/// A use found in a macro's tokens.
pub(super) struct TokenUse<'t> {
    /// The name used.
    pub node: Node<'t>,
    /// Whether it is a method call (`x.len()`).
    pub method: bool,
    /// For a type a function is called through (`Meter::new(2)`), that function.
    pub called: Option<Node<'t>>,
}

impl<'t> TokenMatch<'t> {
    /// Takes `node` when `capture` is one of the token patterns'; false for any other capture.
    pub(super) fn take(&mut self, capture: &str, node: Node<'t>) -> bool {
        let slot = match capture {
            "reference.token_capitalised" => &mut self.capitalised,
            "reference.token" => &mut self.name,
            "reference.token_owner" => &mut self.owner,
            "token.owned" => &mut self.owned,
            "token.arguments" => &mut self.group,
            _ => return false,
        };
        *slot = Some(node);
        true
    }

    /// What the match uses, if anything: a function, method or macro called by name, the
    /// type a function is called through, or a capitalised name (a type, a variant, a
    /// constant: `vec![Meter]`, `Point { x: 1 }`, `MAX`). Not a definition written in the
    /// tokens (`fn g()`, `struct Point {`), nor a name an operator parts from a group
    /// (`a * (b)`).
    pub(super) fn used(self, source: &[u8]) -> Option<TokenUse<'t>> {
        if let Some(name) = self.capitalised {
            let defined = defined_here(source.get(..name.start_byte())?);
            return (!defined).then_some(TokenUse { node: name, method: false, called: None });
        }
        let group = self.group?;
        if let (Some(owner), Some(owned)) = (self.owner, self.owned) {
            let through_path = source.get(owner.end_byte()..owned.start_byte())?.trim_ascii() == b"::";
            let called = matches!(call_of(owned, group, source), Some(Call::Function));
            return (through_path && called).then_some(TokenUse { node: owner, method: false, called: Some(owned) });
        }
        let name = self.name?;
        let method = match call_of(name, group, source)? {
            Call::Method => true,
            Call::Function | Call::Macro => false,
        };
        Some(TokenUse { node: name, method, called: None })
    }
}

/// The keywords before a name that the tokens define rather than use.
const DEFINING_KEYWORDS: [&[u8]; 9] =
    [b"struct", b"enum", b"union", b"trait", b"type", b"fn", b"mod", b"const", b"static"];

/// How a name before a group in a macro's tokens is called.
enum Call {
    Function,
    Method,
    Macro,
}

/// How `name`, followed by `group`, is called; None when it is no call.
fn call_of(name: Node<'_>, group: Node<'_>, source: &[u8]) -> Option<Call> {
    let between = source.get(name.end_byte()..group.start_byte())?.trim_ascii();
    if between == b"!" {
        return Some(Call::Macro);
    }
    if !between.is_empty() || source.get(group.start_byte()) != Some(&b'(') {
        return None;
    }
    let before = source.get(..name.start_byte())?.trim_ascii_end();
    // `0..len(x)` is a range up to a call.
    if before.ends_with(b".") && !before.ends_with(b"..") {
        return Some(Call::Method);
    }
    (!defined_here(before)).then_some(Call::Function)
}

/// Whether the path name `name` is a module a longer path passes through (`sync` of
/// `tokio::sync::Semaphore`): followed by `::` and not capitalised, as a type is
/// (`Semaphore` of `sync::Semaphore::new`).
pub(super) fn passes_through(name: Node<'_>, source: &[u8]) -> bool {
    let continues = source.get(name.end_byte()..).is_some_and(|rest| rest.trim_ascii_start().starts_with(b"::"));
    continues && !source.get(name.start_byte()).is_some_and(u8::is_ascii_uppercase)
}

/// Whether the tokens `before` a name end with a keyword that defines it (`fn g`, `struct Point`).
fn defined_here(before: &[u8]) -> bool {
    let before = before.trim_ascii_end();
    DEFINING_KEYWORDS.iter().any(|keyword| ends_with_word(before, keyword))
}

/// Whether a use read from tokens or a path at byte `at` counts: not inside a macro body that
/// is read again as items (its uses count there), nor `not_uses`, where names are no uses (an
/// attribute's arguments, an import).
pub(super) fn counts_at(at: usize, bodies: &[MacroBody], not_uses: &[Range<usize>]) -> bool {
    !bodies.iter().any(|body| body.holds(at)) && !not_uses.iter().any(|stretch| stretch.contains(&at))
}

/// Whether `text` ends with the keyword `word`, not with a longer name ending alike (`xfn`).
fn ends_with_word(text: &[u8], word: &[u8]) -> bool {
    text.strip_suffix(word).is_some_and(|rest| rest.last().is_none_or(|c| !(c.is_ascii_alphanumeric() || *c == b'_')))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_keyword_ends_text_only_as_a_whole_word() {
        assert!(ends_with_word(b"pub fn", b"fn"));
        assert!(ends_with_word(b"fn", b"fn"));
        assert!(!ends_with_word(b"let xfn", b"fn"));
        assert!(!ends_with_word(b"my_fn", b"fn"));
    }
}
