//! Identifier chains in an issue's text (`a::b::C`, `Foo.bar`), read past the generic
//! arguments and trait casts of a backtrace's frames, and whether a chain is shaped like code
//! or used as a macro.

use std::borrow::Cow;

use super::markdown::Region;

/// True when a token is shaped like code rather than an English word.
pub(super) fn looks_like_code(token: &str) -> bool {
    let inner_capital = token.chars().skip(1).any(|c| c.is_ascii_uppercase());
    let has_lower = token.chars().any(|c| c.is_ascii_lowercase());
    token.contains('_') || (inner_capital && has_lower) || token.contains("::")
}

/// A Rust trait cast a backtrace names its frames by: `<tokio::io::Foo as Future>::poll`.
static TRAIT_CAST: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
    regex::Regex::new(r"<\s*([A-Za-z_][\w:]*)(?:<[^<>]*>)?\s+as\s+[^<>]*(?:<[^<>]*>[^<>]*)*>::")
        .expect("the trait cast pattern compiles")
});

/// Generic arguments between the names of a Rust path, and the name after them:
/// `Sender<T>::send`, `Vec<Option<u8>>::new`.
static GENERIC_ARGUMENTS: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
    regex::Regex::new(r"(\w)<([\w:,\s&'\[\];]*(?:<[\w:,\s&'\[\];]*>[\w:,\s&'\[\];]*)*)>::([A-Za-z_]\w*)")
        .expect("the generic arguments pattern compiles")
});

/// Rounds of moving generic arguments at most (`A<T>::B<U>::c` takes two).
const MAX_GENERIC_ROUNDS: usize = 4;

/// `text` with the generic arguments inside Rust paths moved after the name that follows
/// them and trait casts taken out: a backtrace's `tokio::sync::broadcast::Sender<T>::send`
/// reads as the chain `tokio::sync::broadcast::Sender::send` (its argument still read, after
/// it: `Pool<SessionHandle>::get` as `Pool::get<SessionHandle>`), and `<Foo as Future>::poll`
/// as `Foo::poll`.
pub(super) fn without_generic_qualifiers(text: &str) -> Cow<'_, str> {
    if !text.contains(">::") {
        return Cow::Borrowed(text);
    }
    let mut rewritten = TRAIT_CAST.replace_all(text, "${1}::").into_owned();
    for _ in 0..MAX_GENERIC_ROUNDS {
        match GENERIC_ARGUMENTS.replace_all(&rewritten, "${1}::${3}<${2}>") {
            Cow::Owned(moved) => rewritten = moved,
            Cow::Borrowed(_) => break,
        }
    }
    Cow::Owned(rewritten)
}

/// Whether a letter past ASCII goes on a name (`berechneGröße`, `naïve`, `Привет`): one of
/// the Latin, Greek and Cyrillic alphabets, whose words stand apart; not one of a script
/// written without spaces (`修复Pool的问题` names `Pool`), nor a curly quote (`Pool`’s).
fn continues_a_name(c: char) -> bool {
    !c.is_ascii() && c.is_alphanumeric() && (c as u32) < 0x0530
}

/// Qualified identifier chains: `a::b::C`, `Foo.bar`, `Foo#bar`, `x`.
pub(super) fn chains(text: &str) -> Vec<(usize, &str)> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    // A name may start with `$` (`$ZodType`, `$store`), where no word goes before it: in
    // `Outer$Inner` it parts two names, as a Java trace writes an inner class.
    let starts_name = |at: usize| {
        let c = bytes[at];
        c.is_ascii_alphabetic()
            || c == b'_'
            || (c == b'$' && bytes.get(at + 1).is_some_and(|n| n.is_ascii_alphabetic() || *n == b'_'))
    };
    while i < bytes.len() {
        let word_before = i > 0 && (bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'_');
        if starts_name(i) && !(bytes[i] == b'$' && word_before) {
            let start = i;
            loop {
                if bytes[i] == b'$' {
                    i += 1;
                }
                while i < bytes.len() {
                    if bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_' {
                        i += 1;
                    } else if let Some(letter) = text[i..].chars().next().filter(|&c| continues_a_name(c)) {
                        i += letter.len_utf8();
                    } else {
                        break;
                    }
                }
                // A documentation reference to a member (`TokenFilter#includeProperty`, as
                // javadoc and JSDoc write it) parts a type from its member as `.` does.
                let member_reference = text[i..].starts_with('#') && names_a_type(&text[start..i]);
                let separator = if text[i..].starts_with("::") {
                    2
                } else if text[i..].starts_with('.') || member_reference {
                    1
                } else {
                    0
                };
                if separator > 0 && i + separator < bytes.len() && starts_name(i + separator) {
                    i += separator;
                    continue;
                }
                break;
            }
            out.push((start, &text[start..i]));
        } else {
            i += 1;
        }
    }
    out
}

/// The names of a chain, outermost first: `tokio`, `sync` and `Semaphore` of
/// `tokio::sync::Semaphore`, `Schema` and `post` of `Schema#post`. A script's `prototype`
/// between two names is left out, as `Model.prototype.save` is `Model`'s `save`.
pub(super) fn chain_parts(chain: &str) -> Vec<&str> {
    let parts: Vec<&str> =
        chain.split("::").flat_map(|part| part.split(['.', '#'])).filter(|p| !p.is_empty()).collect();
    let last = parts.len().saturating_sub(1);
    parts
        .into_iter()
        .enumerate()
        .filter(|(at, part)| *at == last || *at == 0 || *part != "prototype")
        .map(|(_, part)| part)
        .collect()
}

/// Whether the last name of `chain` so far is capitalised, as a type's is (`Schema` of
/// `mongoose.Schema`).
fn names_a_type(chain: &str) -> bool {
    let last = chain.rsplit([':', '.', '#']).next().unwrap_or(chain);
    last.trim_start_matches('$').starts_with(|c: char| c.is_ascii_uppercase())
}

/// Attributes the Rust language defines itself: `#[test]` names no macro of the workspace.
const BUILT_IN_ATTRIBUTES: [&str; 30] = [
    "allow",
    "automatically_derived",
    "cfg",
    "cfg_attr",
    "cold",
    "default",
    "deny",
    "deprecated",
    "derive",
    "doc",
    "expect",
    "export_name",
    "feature",
    "forbid",
    "ignore",
    "inline",
    "link",
    "macro_export",
    "macro_use",
    "must_use",
    "no_mangle",
    "no_std",
    "non_exhaustive",
    "path",
    "repr",
    "should_panic",
    "test",
    "track_caller",
    "unsafe",
    "warn",
];

/// Whether `chain`, between `before` and `after` in the text, is used as a macro: invoked
/// (`select!`, `vec![]`, but not `a != b`, nor an exclamation: "it hangs!") or as
/// an attribute (`#[tokio::test]`, `#[instrument]`, but not the built-in `#[test]`).
pub(super) fn is_macro_use(before: &str, chain: &str, after: &str, region: Region) -> bool {
    // Arguments follow an invocation; in inline code the name alone is one (`select!`), but
    // elsewhere a bare `!` is not (`user!.name`, "it hangs!").
    let invoked = after.strip_prefix('!').is_some_and(|rest| {
        rest.trim_start().starts_with(['(', '[', '{']) || (region == Region::InlineCode && rest.is_empty())
    });
    // Tools' attributes (`#[rustfmt::skip]`, `#[clippy::msrv]`) are not macros either.
    let attribute = is_attribute(before)
        && !chain.starts_with("rustfmt::")
        && !chain.starts_with("clippy::")
        && !BUILT_IN_ATTRIBUTES.contains(&chain);
    invoked || attribute
}

/// Whether `chain`, after `before` in the text, is an attribute the Rust language defines
/// itself (`derive` of `#[derive(Parser, Debug)]`, `cfg`, `test`): it names nothing of the
/// workspace, not even a file named after it (clap's `derive.rs`).
pub(super) fn is_built_in_attribute(before: &str, chain: &str) -> bool {
    is_attribute(before) && BUILT_IN_ATTRIBUTES.contains(&chain)
}

/// Whether what stands before a name opens a Rust attribute (`#[`, `#![`).
fn is_attribute(before: &str) -> bool {
    before.ends_with("#[") || before.ends_with("#![")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::context::issue::analyze;
    use crate::context::issue::tests::symbol;

    #[test]
    fn names_go_on_past_ascii_letters_of_alphabets_written_with_spaces() {
        fn names(text: &str) -> Vec<&str> {
            chains(text).into_iter().map(|(_, chain)| chain).collect()
        }
        assert_eq!(names("berechneGröße() fails"), ["berechneGröße", "fails"]);
        assert_eq!(names("Größe::neu"), ["Größe::neu"]);
        assert!(names("修复Pool的问题").contains(&"Pool"), "{:?}", names("修复Pool的问题"));
        assert_eq!(names("Pool’s size"), ["Pool", "s", "size"]);
    }

    #[test]
    fn backtrace_frames_name_their_functions_past_generics_and_trait_casts() {
        let query = analyze(
            "Panic in broadcast\n```\n   5: tokio::sync::broadcast::Sender<T>::send2\n\
             \x20  6: <tokio::runtime::Blocking<F> as core::future::Future>::poll\n\
             \x20  7: tokio::util::Slab<Option<u8>>::new_in\n\
             \x20  8: alloc::vec::Vec<T>::push_within_capacity\n```\nSee `a < b` and x<y> too.",
        );
        // The most qualified mention of `name`.
        let qualifiers = |name: &str| {
            let mentions = query.symbols.iter().filter(|s| s.name == name);
            mentions.map(|s| s.qualifiers.clone()).max_by_key(Vec::len).unwrap_or_default()
        };
        assert_eq!(qualifiers("send2").last().map(String::as_str), Some("Sender"), "{:?}", query.symbols);
        assert_eq!(qualifiers("poll").last().map(String::as_str), Some("Blocking"), "{:?}", query.symbols);
        assert_eq!(qualifiers("new_in").last().map(String::as_str), Some("Slab"), "{:?}", query.symbols);
        assert!(symbol(&query, "push_within_capacity").is_none(), "a frame of `alloc` is no workspace code");
        assert!(symbol(&query, "Future").is_none(), "the trait of a cast is not the frame's type");
        let query = analyze("`Pool<SessionHandle>::get` hangs forever");
        assert!(symbol(&query, "SessionHandle").is_some(), "a name inside the arguments: {:?}", query.symbols);
        let gets: Vec<&Vec<String>> = query.symbols.iter().filter(|s| s.name == "get").map(|s| &s.qualifiers).collect();
        assert_eq!(gets, [&vec!["Pool".to_owned()]], "`get` only as `Pool`'s: {:?}", query.symbols);
    }

    #[test]
    fn macro_uses_are_told_from_other_mentions() {
        let query = analyze(
            "`select!` hangs!\n```rust\n#[tokio::test]\n#[test]\n#[instrument(skip(x))]\nfn f() { vec![1]; if a != b {} }\n```\nIt hangs!",
        );
        let macro_use = |name: &str| symbol(&query, name).map(|s| s.macro_use);
        assert_eq!(macro_use("select"), Some(true));
        assert_eq!(
            query.symbols.iter().find(|s| s.name == "test" && s.qualifiers == ["tokio"]).map(|s| s.macro_use),
            Some(true)
        );
        assert_eq!(macro_use("tokio"), Some(false), "a qualifier is not the macro");
        assert!(
            query.symbols.iter().all(|s| !(s.name == "test" && s.qualifiers.is_empty() && s.macro_use)),
            "built in"
        );
        assert_eq!(macro_use("instrument"), Some(true));
        assert_eq!(macro_use("vec"), Some(true));
        assert_eq!(macro_use("hangs"), None, "an exclamation in prose is not code");
        assert!(!is_macro_use("", "a", "!= b", Region::CodeBlock), "a comparison");
        assert!(!is_macro_use("", "user", "!.name", Region::CodeBlock), "a non-null assertion");
        assert!(is_macro_use("", "format", "!(\"x\")", Region::Prose), "an invocation in prose");
        assert!(is_macro_use("", "select", "! {", Region::Prose));
    }

    #[test]
    fn an_attribute_of_the_language_names_nothing() {
        let query = analyze(
            "Conflicts are not checked\n```rust\n#[derive(Parser, Debug)]\n#[cfg(test)]\n#![allow(dead_code)]\n\
             struct Cli { #[clap(long)] destroy: bool }\n```\nThe output of `#[derive(Parser)]`.",
        );
        for built_in in ["derive", "cfg", "allow"] {
            assert!(symbol(&query, built_in).is_none(), "`{built_in}`: {:?}", query.symbols);
        }
        assert!(symbol(&analyze("Crash in `derive(input)`"), "derive").is_some(), "a call of a function");
        for named in ["Parser", "clap", "dead_code"] {
            assert!(symbol(&query, named).is_some(), "`{named}`: {:?}", query.symbols);
        }
        assert!(is_built_in_attribute("#[", "derive") && is_built_in_attribute("  #![", "allow"));
        assert!(!is_built_in_attribute("#[", "tokio::test") && !is_built_in_attribute("", "derive"));
    }
}
