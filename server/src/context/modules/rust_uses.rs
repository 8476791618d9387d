//! Rust `use` declarations expanded into the names they bind and the paths they bind them to.

/// The paths a `use` argument names, braces expanded:
/// `crate::a::{b, c::D as E}` gives `crate::a::b` and `crate::a::c::D`.
pub(super) fn expand_use(import: &str) -> Vec<String> {
    use_items(import).iter().map(|item| use_path(item)).collect()
}

/// The names a Rust `use` argument brings into scope, each with the path it stands for:
/// `crate::a::{b, c::D as E, d::{self}}` gives `b` for `crate::a::b`, `E` for `crate::a::c::D`
/// and `d` for `crate::a::d`. A glob brings no name.
pub fn rust_use_bindings(import: &str) -> Vec<(String, String)> {
    let mut bindings = Vec::new();
    for item in use_items(import) {
        let mut path = use_path(&item);
        if let Some(module) = path.strip_suffix("::self") {
            path = module.to_owned();
        }
        let alias = item.split_once(" as ").map(|(_, alias)| alias.trim().to_owned());
        let name = alias.unwrap_or_else(|| path.rsplit("::").next().unwrap_or_default().to_owned());
        let is_name = name.chars().next().is_some_and(|c| c.is_alphabetic() || c == '_')
            && name.chars().all(|c| c.is_alphanumeric() || c == '_');
        if is_name && !matches!(name.as_str(), "self" | "super" | "crate") {
            bindings.push((name, path));
        }
    }
    bindings
}

/// How deep braces inside a `use` are expanded.
const MAX_USE_DEPTH: usize = 8;

/// The items of a `use` argument, braces expanded, each whole with its prefix and alias:
/// `a::{b, c as d, e::{f}}` gives `a::b`, `a::c as d` and `a::e::f`.
fn use_items(import: &str) -> Vec<String> {
    use_items_within(import, MAX_USE_DEPTH)
}

/// [`use_items`], expanding braces at most `levels` deep; deeper ones stay as written.
fn use_items_within(import: &str, levels: usize) -> Vec<String> {
    let Some((prefix, rest)) = import.split_once('{').filter(|_| levels > 0) else {
        return vec![import.trim().to_owned()];
    };
    let inner = rest.strip_suffix('}').unwrap_or(rest);
    let mut items = Vec::new();
    let mut depth = 0_i32;
    let mut start = 0;
    for (at, c) in inner.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                items.push(&inner[start..at]);
                start = at + 1;
            }
            _ => {}
        }
    }
    items.push(&inner[start..]);
    items
        .into_iter()
        .flat_map(|item| use_items_within(&format!("{}{}", prefix.trim(), item.trim()), levels - 1))
        .collect()
}

/// One path of a `use`, without its alias or nested braces (`a::b::{c, d}` names at least `a::b`).
fn use_path(path: &str) -> String {
    let path = path.split(" as ").next().unwrap_or(path);
    let path = path.split('{').next().unwrap_or(path);
    path.chars().filter(|c| !c.is_whitespace()).collect::<String>().trim_end_matches("::").to_owned()
}
