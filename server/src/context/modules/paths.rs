//! Workspace-relative path arithmetic: joining, `.` and `..` resolved, folders and what lies
//! below them.

/// What follows the workspace folder `folder` (`""` for the root) in `path`: `""` when it is
/// `path` itself, none when it is not a folder above it.
pub(super) fn below_folder<'a>(path: &'a str, folder: &str) -> Option<&'a str> {
    if folder.is_empty() {
        return Some(path);
    }
    let rest = path.strip_prefix(folder)?;
    if rest.is_empty() { Some(rest) } else { rest.strip_prefix('/') }
}

/// Whether the workspace folder `dir` (`""` for the root) holds `path`.
pub(super) fn contains(dir: &str, path: &str) -> bool {
    below_folder(path, dir).is_some_and(|rest| !rest.is_empty())
}

/// `dir` joined with a relative `path`, `.` and `..` resolved (never above the workspace).
pub(in crate::context) fn join(dir: &str, path: &str) -> String {
    resolve_dots(dir, path).0
}

/// `dir` joined with a relative `path`, `.` and `..` resolved; none when `..` climbs above the
/// workspace, where no indexed file can be.
pub(super) fn join_inside(dir: &str, path: &str) -> Option<String> {
    let (joined, climbed_out) = resolve_dots(dir, path);
    (!climbed_out).then_some(joined)
}

/// `dir` joined with `path`, `.` and `..` resolved, and whether a `..` climbed above the
/// workspace (and was dropped).
fn resolve_dots(dir: &str, path: &str) -> (String, bool) {
    let mut parts: Vec<&str> = if dir.is_empty() { Vec::new() } else { dir.split('/').collect() };
    let mut climbed_out = false;
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." => climbed_out |= parts.pop().is_none(),
            part => parts.push(part),
        }
    }
    (parts.join("/"), climbed_out)
}

/// The targets a map of patterns (`tsconfig.json`'s `paths`, a `package.json`'s `imports`)
/// gives `specifier`, in the order the resolvers try them: an exact pattern's alone, else every matching `*` pattern's, the longest part before the `*`
/// first, the part the `*` stands for put in place of each `*` of the target; `part_allowed`
/// judges that part.
pub(super) fn pattern_targets<'m>(
    map: impl IntoIterator<Item = (&'m str, &'m [String])>,
    specifier: &str,
    part_allowed: impl Fn(&str) -> bool,
) -> Vec<String> {
    let mut matching: Vec<(usize, &str, &[String])> = Vec::new();
    for (pattern, targets) in map {
        if pattern == specifier {
            return targets.to_vec();
        }
        // What the `*` stands for (`core/x` of `@app/core/x` for `@app/*`).
        let Some((before, after)) = pattern.split_once('*') else { continue };
        if let Some(part) = specifier.strip_prefix(before).and_then(|rest| rest.strip_suffix(after))
            && part_allowed(part)
        {
            matching.push((before.len(), part, targets));
        }
    }
    matching.sort_by_key(|(before, _, _)| std::cmp::Reverse(*before));
    matching.into_iter().flat_map(|(_, part, targets)| targets.iter().map(move |t| t.replace('*', part))).collect()
}
