//! The path signal: files whose path, name or stem the issue gives.

use std::collections::HashMap;

use super::{SHORT_FORM_SHARE, Signal, stem};
use crate::context::index::IndexedFile;
use crate::context::issue::IssueQuery;
use crate::context::language::Language;
use crate::context::terms;

/// Files whose path or name the issue gives, those in a folder it names, and those whose
/// stem it uses as a word (a Rust file's also where the stem is a short form of one, at
/// [`SHORT_FORM_SHARE`] of its value).
pub(super) fn path_signal(files: &[&IndexedFile], query: &IssueQuery) -> Signal {
    let n = files.len();
    let mut signal = Signal::new(n);
    for (spelt, weight) in &query.paths {
        let mentioned = spelt.trim_start_matches('/');
        // A path from the machine's root may be the reporter's program built into its own
        // `dist/`; a relative one is the workspace's, or an installed copy of its package.
        let relative = mentioned.len() == spelt.len();
        let built = BuiltScript::of(mentioned);
        let mut matching: Vec<PathMatch> = Vec::new();
        for (i, file) in files.iter().enumerate() {
            let path = file.path.as_str();
            if mentioned.contains('/') {
                // `tokio-1.2.3/src/x.rs` names `tokio/src/x.rs`: match on the longest shared tail.
                let shared = common_suffix_components(path, mentioned);
                let total = mentioned.split('/').count().min(path.split('/').count());
                if shared >= 2 || (shared == 1 && total == 1) {
                    let value = weight * shared as f64 / total.max(1) as f64;
                    matching.push(PathMatch::of_source(i, value, format!("the issue names its path `{mentioned}`")));
                } else if let Some(shared) =
                    built.and_then(|built| built.shared_with(path, relative)).filter(|n| *n >= 2)
                {
                    let value = BUILT_SHARE * weight * shared as f64 / total.max(1) as f64;
                    matching.push(PathMatch::of_build(
                        i,
                        value,
                        format!("the issue names its built path `{mentioned}`"),
                    ));
                }
            } else if path.rsplit('/').next() == Some(mentioned) {
                let reason = format!("the issue names the file `{mentioned}`");
                matching.push(PathMatch::of_source(i, weight * 0.8, reason));
            } else if built.and_then(|built| built.shared_with(path, false)) == Some(1) {
                let value = BUILT_SHARE * weight * 0.8;
                matching.push(PathMatch::of_build(i, value, format!("the issue names its built file `{mentioned}`")));
            }
        }
        // A path names the files that end in most of it: `crates/globset/src/lib.rs` names
        // that file, not every other crate's `src/lib.rs`. A path that several files end in
        // alike (`src/lib.rs` in a workspace of crates, often the reporter's own) says less of
        // each of them.
        let best = matching.iter().map(|found| found.value).fold(0.0, f64::max);
        matching.retain(|found| found.value >= best);
        let specificity = 1.0 / (1.0 + (matching.len().max(1) as f64).ln());
        // The line the issue gives with the path (`src/walk.rs:12:5`) is where a reason points,
        // when the path names one file, not its build output, and the line is in it (a trace
        // of an older version may point past its end).
        let only = (matching.len() == 1 && !matching[0].built).then(|| matching[0].file);
        for PathMatch { file: i, value, reason, .. } in matching {
            let value = value * specificity;
            // The lines given with the path that lie in the file (a trace of an older version
            // may point past its end), when the path names this one file.
            let mut lines = query
                .locations
                .iter()
                .filter(|(path, line)| path == spelt && only == Some(i) && *line <= files[i].lines)
                .map(|(_, line)| *line);
            match lines.next() {
                Some(line) => {
                    signal.add_at(i, value, line, || reason);
                    // The trace's other frames into the file, each a little weaker.
                    for (at, further) in lines.enumerate() {
                        signal.point_at(i, value * 0.9f64.powi(at as i32 + 1), further);
                    }
                }
                None => signal.add(i, value, || reason),
            }
        }
    }
    for folder in &query.folders {
        let inner = format!("/{folder}/");
        let holds = |path: &str| {
            path.strip_prefix(folder.as_str()).is_some_and(|rest| rest.starts_with('/')) || path.contains(&inner)
        };
        let below: Vec<usize> =
            files.iter().enumerate().filter(|(_, file)| holds(&file.path)).map(|(i, _)| i).collect();
        // A folder that holds much says less of each of its files.
        let value = 0.6 / (1.0 + (below.len() as f64).ln());
        for i in below {
            signal.add(i, value, || format!("in the folder `{folder}/` the issue names"));
        }
    }
    let mut stem_counts: HashMap<&str, usize> = HashMap::new();
    for file in files {
        *stem_counts.entry(stem(&file.path)).or_default() += 1;
    }
    // The issue's words by the short forms Rust code writes for them (`attrs` of `attributes`).
    let mut short_forms: HashMap<&str, &str> = HashMap::new();
    for word in &query.words {
        for form in terms::short_forms(word) {
            short_forms.entry(form).or_insert(word);
        }
    }
    for (i, file) in files.iter().enumerate() {
        let file_stem = stem(&file.path);
        let lower = file_stem.to_ascii_lowercase();
        if matches!(lower.as_str(), "mod" | "lib" | "index") {
            continue;
        }
        let value = 0.3 / (1.0 + (stem_counts.get(file_stem).copied().unwrap_or(1) as f64).ln());
        if lower.len() > 2 && query.words.binary_search(&lower).is_ok() {
            signal.add(i, value, || format!("its name `{lower}` is a word of the issue"));
        } else if let Some(word) = short_forms.get(lower.as_str()).filter(|_| file.language == Language::Rust) {
            signal.add(i, SHORT_FORM_SHARE * value, || {
                format!("its name `{lower}` is a short form of `{word}`, a word of the issue")
            });
        }
    }
    signal
}

/// A file a path the issue gives names: what that is worth, why, and whether the path is of
/// the file's build output (`dist/types.js` of `src/types.ts`), whose lines are not the source's.
struct PathMatch {
    /// The file's place in the ranked files.
    file: usize,
    value: f64,
    reason: String,
    built: bool,
}

impl PathMatch {
    /// The file the path is of.
    fn of_source(file: usize, value: f64, reason: String) -> Self {
        Self { file, value, reason, built: false }
    }

    /// The file whose build output the path is of.
    fn of_build(file: usize, value: f64, reason: String) -> Self {
        Self { file, value, reason, built: true }
    }
}

/// What a path names of a file whose build output it is (`dist/types.js` of `src/types.ts`)
/// is worth beside the same path naming the file itself.
const BUILT_SHARE: f64 = 0.9;

/// The extensions of the files a build of scripts writes (`.d.ts` as `ts` after `d`).
const BUILT_EXTENSIONS: [&str; 4] = ["js", "mjs", "cjs", "jsx"];

/// The extensions of script sources a build reads.
const SCRIPT_EXTENSIONS: [&str; 8] = ["ts", "tsx", "mts", "cts", "js", "jsx", "mjs", "cjs"];

/// The folders a build of scripts writes into, in place of the sources' `src`.
const BUILT_FOLDERS: [&str; 6] = ["dist", "build", "out", "lib", "esm", "cjs"];

/// A path of what a build of scripts writes (`dist/types.js`, `index.d.ts`), read once for the
/// sources it may be built from: its folder and its name without the extension.
#[derive(Clone, Copy)]
pub(super) struct BuiltScript<'a> {
    folder: &'a str,
    stem: &'a str,
}

impl<'a> BuiltScript<'a> {
    /// `path` as a built script's; `None` where it is none (`src/types.ts`, `types.js.map`).
    pub(super) fn of(path: &'a str) -> Option<Self> {
        let (folder, name) = path.rsplit_once('/').unwrap_or(("", path));
        let stem = match name.strip_suffix(".d.ts") {
            Some(declared) => declared,
            None => without_extension(name, &BUILT_EXTENSIONS)?,
        };
        Some(Self { folder, stem })
    }

    /// How many trailing components the script source `path` shares with this path
    /// (`../node_modules/typeorm/query-builder/SelectQueryBuilder.js` and
    /// `src/query-builder/SelectQueryBuilder.ts` share 2), reading the last by its name without
    /// the extension and, where `relative`, a build's folder (`dist`, `lib`, `esm`) in place of
    /// `src` (`lib/types.js` and `src/types.ts` share 2); `None` where `path` is no script source.
    pub(super) fn shared_with(self, path: &str, relative: bool) -> Option<usize> {
        let (source_folder, source_name) = path.rsplit_once('/').unwrap_or(("", path));
        if without_extension(source_name, &SCRIPT_EXTENSIONS)? != self.stem {
            return Some(0);
        }
        let shared = folders_from_the_end(source_folder)
            .zip(folders_from_the_end(self.folder))
            .take_while(|(x, y)| {
                x == y || same_package_folder(x, y) || (relative && *x == "src" && BUILT_FOLDERS.contains(y))
            })
            .count();
        Some(1 + shared)
    }
}

/// The folders of `folder` (`a/b/c`), the innermost first.
fn folders_from_the_end(folder: &str) -> impl Iterator<Item = &str> {
    folder.rsplit('/').filter(|part| !part.is_empty())
}

/// `name` without its extension, where that is one of `extensions` (and a declaration's `.d`
/// with it: `types` of `types.d.ts`).
fn without_extension<'n>(name: &'n str, extensions: &[&str]) -> Option<&'n str> {
    let (stem, extension) = name.rsplit_once('.')?;
    extensions.contains(&extension).then(|| stem.strip_suffix(".d").unwrap_or(stem))
}

/// How many trailing components two paths share, a versioned package folder matching its
/// bare name.
fn common_suffix_components(a: &str, b: &str) -> usize {
    a.rsplit('/').zip(b.rsplit('/')).take_while(|(x, y)| x == y || same_package_folder(x, y)).count()
}

/// Whether two path components name the same package, one of them with its version as a
/// registry or a vendored copy spells it: `tokio-1.38.0` is `tokio`, `askama_derive-0.12.5`
/// is `askama_derive`.
pub(super) fn same_package_folder(a: &str, b: &str) -> bool {
    let unversioned = |versioned: &str, bare: &str| {
        versioned.strip_prefix(bare).and_then(|rest| rest.strip_prefix('-')).is_some_and(|version| {
            version.starts_with(|c: char| c.is_ascii_digit())
                && version.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '+'))
        })
    };
    !a.is_empty() && !b.is_empty() && (unversioned(a, b) || unversioned(b, a))
}
