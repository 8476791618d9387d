//! Which file a TypeScript or JavaScript import names: the extensions it may leave out or
//! write as the emitted file's.

use super::paths::join;
use crate::context::language::Language;

/// TypeScript and JavaScript extensions an import may leave out, in the order resolution tries them.
const SCRIPT_EXTENSIONS: [&str; 7] = ["ts", "tsx", "d.ts", "js", "jsx", "mjs", "cjs"];

/// Each script extension with what an import of such a file writes in its place: nothing
/// (`./util` for `util.ts`), or for ES and CommonJS modules, which are never found without
/// one, the emitted file's (`./util.mjs` for `util.mts`).
pub(super) const SPECIFIER_EXTENSIONS: [(&str, &str); 11] = [
    ("ts", ""),
    ("tsx", ""),
    ("d.ts", ""),
    ("js", ""),
    ("jsx", ""),
    ("mts", ".mjs"),
    ("d.mts", ".mjs"),
    ("mjs", ".mjs"),
    ("cts", ".cjs"),
    ("d.cts", ".cjs"),
    ("cjs", ".cjs"),
];

/// The sources TypeScript compiles to a file with each emitted extension, in the order it
/// looks for them: an import may name the output (`./util.js`) of a source (`util.ts`).
const EMITTED_FROM: [(&str, &[&str]); 4] = [
    ("js", &["ts", "tsx", "d.ts"]),
    ("jsx", &["tsx", "ts", "d.ts"]),
    ("mjs", &["mts", "d.mts"]),
    ("cjs", &["cts", "d.cts"]),
];

/// The file an extensionless script import names: itself, with an extension, or its folder's index.
pub(super) fn script_file(candidate: &str, exists: impl Fn(&str) -> bool) -> Option<String> {
    // A source before its output, as the compiler looks: `./util.js` is `util.ts` when there is one.
    let (stem, extension) = candidate.rsplit_once('.').unwrap_or((candidate, ""));
    let sources = EMITTED_FROM.iter().find(|(emitted, _)| *emitted == extension).map_or(&[][..], |(_, from)| from);
    if let Some(source) = sources.iter().map(|source| format!("{stem}.{source}")).find(|path| exists(path)) {
        return Some(source);
    }
    if Language::of_path(candidate).is_some() && exists(candidate) {
        return Some(candidate.to_owned());
    }
    let with_extension = SCRIPT_EXTENSIONS.iter().map(|ext| format!("{candidate}.{ext}"));
    let index = SCRIPT_EXTENSIONS.iter().map(|ext| join(candidate, &format!("index.{ext}")));
    with_extension.chain(index).find(|path| exists(path))
}
