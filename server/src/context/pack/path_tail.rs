//! The ranked files the map lists by their paths alone, after those whose signatures fill its
//! room: grouped under the folders that make the listing shortest, so that deep paths
//! (`crates/cairo-lang-language-server/src/ide/...`, Java's `src/main/java/com/...`) are
//! written out once rather than on every file.

use std::collections::HashMap;

use crate::workspace::text_measure as measure;

/// Heads the files listed by their paths alone, so that the model reads the indented paths
/// below a folder as files under it, not as signatures.
pub(super) const PATH_TAIL_HEADING: &str = "Ranked next, by path (each folder, then the files under it):\n";

/// The files listed by their paths alone, best-ranked first, and the room their listing takes.
/// The folders come in the order of their best-ranked file, each folder's files in rank order.
pub(super) struct PathTail<'r> {
    /// Each file's path and what its line says after the path (its notes and length).
    pub(super) files: Vec<(&'r str, String)>,
    /// The [`measure`] of the text.
    pub(super) len: usize,
}

impl<'r> PathTail<'r> {
    /// The longest run of `files` from the first (paths with their suffixes, best-ranked
    /// first) whose listing's [`measure`] stays within `room`. A listing grows with each file it
    /// takes, so the run is found in a few listings rather than one a file.
    pub(super) fn fitting(mut files: Vec<(&'r str, String)>, room: usize) -> Self {
        // The most files that fit lie in `fit..=most`.
        let (mut fit, mut most) = (0, files.len());
        while fit < most {
            let middle = (fit + most).div_ceil(2);
            if listing_len(&files[..middle]) <= room {
                fit = middle;
            } else {
                most = middle - 1;
            }
        }
        files.truncate(fit);
        let len = listing_len(&files);
        Self { files, len }
    }

    /// For each of `files` (a path and its suffix, none for a file the index no longer
    /// holds) and past the last, the length of the text that lists every file from it on.
    pub(super) fn lengths_from(files: &[(&str, Option<String>)]) -> Vec<usize> {
        let listed: Vec<(&str, &str)> =
            files.iter().filter_map(|(path, suffix)| Some((*path, suffix.as_deref()?))).collect();
        let mut lengths = vec![0; files.len() + 1];
        // Where in `listed` the files from each of `files` on begin.
        let mut from = listed.len();
        for start in (0..files.len()).rev() {
            if files[start].1.is_some() {
                from -= 1;
            }
            lengths[start] = listing_len(&listed[from..]);
        }
        lengths
    }

    /// The text: each folder on a line of its own, the paths of its files below it, indented
    /// and relative to it.
    pub(super) fn text(&self) -> String {
        listing(&self.files)
    }
}

/// The [`measure`] of the text [`listing`] writes for `files`, in the units of the pack's
/// budget (a character outside ASCII counts four).
fn listing_len(files: &[(&str, impl AsRef<str>)]) -> usize {
    if files.is_empty() {
        return 0;
    }
    let tree = FolderTree::new(files.iter().map(|(path, _)| *path));
    PATH_TAIL_HEADING.len() + Costs::new(&tree, files).best(0, None).expect("the top folder can always head a group")
}

/// The shortest listing of `files` (paths with their suffixes, best-ranked first) under
/// folders of their paths; empty for no files.
fn listing(files: &[(&str, impl AsRef<str>)]) -> String {
    if files.is_empty() {
        return String::new();
    }
    let tree = FolderTree::new(files.iter().map(|(path, _)| *path));
    let mut costs = Costs::new(&tree, files);
    let root_cost = costs.best(0, None).expect("the top folder can always head a group");
    // Each file's group: the nearest folder the cheapest listing writes out.
    let mut group_of = vec![0; files.len()];
    costs.assign(0, None, &mut group_of);
    let mut groups: Vec<(usize, Vec<usize>)> = Vec::new();
    for (file, group) in group_of.iter().enumerate() {
        match groups.iter_mut().find(|(folder, _)| folder == group) {
            Some((_, members)) => members.push(file),
            None => groups.push((*group, vec![file])),
        }
    }
    let mut text = String::with_capacity(PATH_TAIL_HEADING.len() + root_cost);
    text.push_str(PATH_TAIL_HEADING);
    for (folder, members) in groups {
        let folder = tree.folders[folder].path;
        text.push_str(if folder.is_empty() { "./" } else { folder });
        text.push('\n');
        for file in members {
            let (path, suffix) = &files[file];
            text.push_str("  ");
            text.push_str(&path[folder.len()..]);
            text.push_str(suffix.as_ref());
            text.push('\n');
        }
    }
    text
}

/// The folders that may head a group: the workspace's top, each file's own folder, and each
/// folder where the paths below it part ways: a folder between these heads no shorter a
/// listing than the next one down, its line shorter by what each path under it grows.
struct FolderTree<'p> {
    /// The folders, the top first, each before those below it.
    folders: Vec<Folder<'p>>,
}

/// A folder of a [`FolderTree`].
struct Folder<'p> {
    /// Its path with its closing `/`; empty for the workspace's top.
    path: &'p str,
    /// The folders of the tree directly below it.
    children: Vec<usize>,
    /// The files that lie in it directly.
    files: Vec<usize>,
}

impl<'p> FolderTree<'p> {
    /// The tree of the folders that may head a group of `paths`.
    fn new(paths: impl Iterator<Item = &'p str>) -> Self {
        let paths: Vec<&str> = paths.collect();
        let mut folders: Vec<&str> = paths.iter().map(|path| folder_of(path)).collect();
        folders.sort_unstable();
        folders.dedup();
        // Where neighbours in sorted order part ways, at a folder's boundary.
        let mut parting: Vec<&str> = folders.windows(2).map(|pair| common_folder(pair[0], pair[1])).collect();
        parting.push("");
        folders.extend(parting);
        folders.sort_unstable();
        folders.dedup();
        // Sorted, a folder comes after every folder above it; its parent is the nearest of
        // those still open.
        let mut tree: Vec<Folder<'p>> = Vec::with_capacity(folders.len());
        let mut open: Vec<usize> = Vec::new();
        let mut at: HashMap<&str, usize> = HashMap::new();
        for path in folders {
            while open.last().is_some_and(|&parent| !path.starts_with(tree[parent].path)) {
                open.pop();
            }
            let id = tree.len();
            if let Some(&parent) = open.last() {
                tree[parent].children.push(id);
            }
            tree.push(Folder { path, children: Vec::new(), files: Vec::new() });
            at.insert(path, id);
            open.push(id);
        }
        for (file, path) in paths.iter().enumerate() {
            tree[at[folder_of(path)]].files.push(file);
        }
        Self { folders: tree }
    }
}

/// The cost of listing each folder's files, given where the nearest folder above it that
/// heads a group ends (none: no folder above heads one).
struct Costs<'t, 'p> {
    /// The folders.
    tree: &'t FolderTree<'p>,
    /// Each file's line written under the workspace's top, its whole path on it: under a
    /// folder, shorter by the folder's length.
    whole_lines: Vec<usize>,
    /// What [`Costs::best`] found for a folder and the length above it.
    memo: HashMap<(usize, Option<usize>), Option<usize>>,
}

impl<'t, 'p> Costs<'t, 'p> {
    /// The costs of listing `files` under the folders of `tree`.
    fn new(tree: &'t FolderTree<'p>, files: &[(&str, impl AsRef<str>)]) -> Self {
        let whole_lines = files.iter().map(|(path, suffix)| file_line_len(path, suffix.as_ref(), 0)).collect();
        Self { tree, whole_lines, memo: HashMap::new() }
    }

    /// The least [`measure`] of a listing of the files at and below `folder` when the nearest
    /// group above it is headed by a folder whose measure is `above`; none if they cannot be
    /// listed (a file with no folder above it that heads a group).
    fn best(&mut self, folder: usize, above: Option<usize>) -> Option<usize> {
        if let Some(cost) = self.memo.get(&(folder, above)) {
            return *cost;
        }
        let cost = match (self.heading(folder), self.rest(folder, above)) {
            (Some(heading), Some(under)) => Some(heading.min(under)),
            (heading, under) => heading.or(under),
        };
        self.memo.insert((folder, above), cost);
        cost
    }

    /// The cost when `folder` heads a group of its own.
    fn heading(&mut self, folder: usize) -> Option<usize> {
        let path = self.tree.folders[folder].path;
        let line = if path.is_empty() { "./\n".len() } else { measure(path) + 1 };
        Some(line + self.rest(folder, Some(measure(path)))?)
    }

    /// The cost of `folder`'s own files and of the folders below it, under a group headed by
    /// a folder whose measure is `group` (none: its own files cannot be listed); with the
    /// group above it, the cost when `folder` heads none.
    fn rest(&mut self, folder: usize, group: Option<usize>) -> Option<usize> {
        let node = &self.tree.folders[folder];
        let mut cost = 0;
        for &file in &node.files {
            cost += self.whole_lines[file] - group?;
        }
        for &child in &node.children {
            cost += self.best(child, group)?;
        }
        Some(cost)
    }

    /// Sets each file's group below `folder` as the cheapest listing has it.
    fn assign(&mut self, folder: usize, above: Option<(usize, usize)>, group_of: &mut [usize]) {
        let heading = self.heading(folder);
        let under = self.rest(folder, above.map(|(_, len)| len));
        // A folder heads its own group unless listing under the one above is shorter.
        let heads = match (heading, under) {
            (Some(heading), Some(under)) => heading <= under,
            (heading, _) => heading.is_some(),
        };
        let group = if heads { Some((folder, measure(self.tree.folders[folder].path))) } else { above };
        if let Some((group, _)) = group {
            for &file in &self.tree.folders[folder].files {
                group_of[file] = group;
            }
        }
        for &child in &self.tree.folders[folder].children {
            self.assign(child, group, group_of);
        }
    }
}

/// The [`measure`] of a file's line under a group headed by a folder whose measure is `group`.
fn file_line_len(path: &str, suffix: &str, group: usize) -> usize {
    "  ".len() + (measure(path) - group) + measure(suffix) + 1
}

/// The folder `path` lies in, with its closing `/`; empty at the workspace's top.
fn folder_of(path: &str) -> &str {
    path.rfind('/').map_or("", |at| &path[..=at])
}

/// The deepest folder two folders (each empty or ending in `/`) both lie in.
fn common_folder<'a>(a: &'a str, b: &str) -> &'a str {
    // Bytes, not characters, may agree (`ä` and `ö` share their first): the cut is at a `/`.
    let common = a.bytes().zip(b.bytes()).take_while(|(x, y)| x == y).count();
    a.as_bytes()[..common].iter().rposition(|&byte| byte == b'/').map_or("", |at| &a[..=at])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folders_whose_names_begin_with_bytes_alike_are_listed_apart() {
        let text =
            listed(&["src/ä/a.rs", "src/ö/b.rs", "src/工具/c.rs", "src/布局/d.rs", "модели/e.rs", "маршруты/f.rs"]);
        let mut paths = paths_of(&text);
        paths.sort();
        assert_eq!(
            paths,
            ["src/ä/a.rs", "src/ö/b.rs", "src/工具/c.rs", "src/布局/d.rs", "маршруты/f.rs", "модели/e.rs"]
        );
    }

    fn listed(paths: &[&str]) -> String {
        let files: Vec<(&str, String)> = paths.iter().map(|path| (*path, " [10 lines]".to_owned())).collect();
        let text = listing(&files);
        assert_eq!(listing_len(&files), measure(&text));
        text[PATH_TAIL_HEADING.len()..].to_owned()
    }

    /// The paths a listing gives, each folder joined to the paths under it.
    fn paths_of(text: &str) -> Vec<String> {
        let mut folder = String::new();
        let mut paths = Vec::new();
        for line in text.lines() {
            match line.strip_prefix("  ") {
                Some(file) => paths.push(format!("{folder}{}", file.split(' ').next().unwrap_or_default())),
                None => folder = if line == "./" { String::new() } else { line.to_owned() },
            }
        }
        paths
    }

    #[test]
    fn files_of_one_folder_are_listed_under_it() {
        assert_eq!(
            listed(&["src/main/java/com/acme/Parser.java", "src/main/java/com/acme/Lexer.java"]),
            "src/main/java/com/acme/\n  Parser.java [10 lines]\n  Lexer.java [10 lines]\n"
        );
    }

    #[test]
    fn a_deep_folder_shared_by_several_is_written_out_once() {
        let paths = [
            "crates/language-server/src/ide/hover/render/legacy.rs",
            "crates/language-server/src/lang/inspect/defs.rs",
            "crates/language-server/src/toolchain/scarb.rs",
            "crates/language-server/src/server/routing/traits.rs",
        ];
        let text = listed(&paths);
        assert_eq!(
            text,
            "crates/language-server/src/\n  ide/hover/render/legacy.rs [10 lines]\n  lang/inspect/defs.rs [10 lines]\n  \
             toolchain/scarb.rs [10 lines]\n  server/routing/traits.rs [10 lines]\n"
        );
        assert_eq!(paths_of(&text), paths);
    }

    #[test]
    fn folders_keep_the_order_of_their_best_ranked_file_and_files_their_rank() {
        let paths =
            ["core/widgets/a.rs", "extra/gadgets/b.rs", "core/widgets/c.rs", "extra/gadgets/d.rs", "core/widgets/e.rs"];
        let text = listed(&paths);
        assert_eq!(
            text,
            "core/widgets/\n  a.rs [10 lines]\n  c.rs [10 lines]\n  e.rs [10 lines]\nextra/gadgets/\n  b.rs [10 lines]\n  \
             d.rs [10 lines]\n"
        );
        let mut listed = paths_of(&text);
        let mut given = paths.map(str::to_owned).to_vec();
        listed.sort();
        given.sort();
        assert_eq!(listed, given);
    }

    #[test]
    fn files_at_the_top_are_listed_under_dot_slash() {
        assert_eq!(listed(&["build.rs", "lib.rs"]), "./\n  build.rs [10 lines]\n  lib.rs [10 lines]\n");
    }

    #[test]
    fn a_listing_is_never_longer_than_one_folder_a_file_nor_than_full_paths() {
        let paths = [
            "a/b/c/x.rs",
            "a/b/y.rs",
            "a/d/z.rs",
            "q.rs",
            "a/b/c/w.rs",
            "e/f/g/h/i.rs",
            "e/f/g/j/k.rs",
            "a/b/c/d/e/f/deep.rs",
        ];
        let text = listed(&paths);
        let one_folder_a_file: usize = {
            let mut folders: Vec<&str> = paths.iter().map(|path| folder_of(path)).collect();
            folders.sort_unstable();
            folders.dedup();
            folders.iter().map(|f| if f.is_empty() { 3 } else { measure(f) + 1 }).sum::<usize>()
                + paths.iter().map(|path| file_line_len(path, " [10 lines]", measure(folder_of(path)))).sum::<usize>()
        };
        let full_paths = 3 + paths.iter().map(|path| file_line_len(path, " [10 lines]", 0)).sum::<usize>();
        assert!(measure(&text) <= one_folder_a_file && measure(&text) <= full_paths, "{text}");
        let mut listed = paths_of(&text);
        let mut given = paths.map(str::to_owned).to_vec();
        listed.sort();
        given.sort();
        assert_eq!(listed, given, "{text}");
    }

    #[test]
    fn the_room_from_each_file_on_is_what_listing_them_takes() {
        let files: Vec<(&str, Option<String>)> = vec![
            ("src/io/read.rs", Some(" [10 lines]".to_owned())),
            ("src/io/gone.rs", None),
            ("src/io/write.rs", Some(" [20 lines]".to_owned())),
        ];
        let lengths = PathTail::lengths_from(&files);
        assert_eq!(lengths.len(), 4);
        assert_eq!(lengths[3], 0);
        let last = PATH_TAIL_HEADING.len() + "src/io/\n".len() + "  write.rs [20 lines]\n".len();
        assert_eq!((lengths[2], lengths[1]), (last, last));
        assert_eq!(lengths[0], last + "  read.rs [10 lines]\n".len());
    }

    #[test]
    fn a_tail_takes_no_file_past_its_room() {
        let first_len = PATH_TAIL_HEADING.len() + "src/\n".len() + "  a.rs [1 line]\n".len();
        let files = vec![("src/a.rs", " [1 line]".to_owned()), ("src/b.rs", " [1 line]".to_owned())];
        let tail = PathTail::fitting(files, first_len);
        assert_eq!(tail.files.iter().map(|(path, _)| *path).collect::<Vec<_>>(), ["src/a.rs"]);
        assert_eq!(tail.len, first_len);
        assert_eq!(measure(&tail.text()), tail.len);
    }

    proptest::proptest! {
        #[test]
        fn every_file_is_listed_once_under_a_folder_it_lies_in(
            paths in proptest::collection::hash_set("([a-cäöé工布]{1,2}/){0,4}[a-dü]{1,3}\\.rs", 1..40)
        ) {
            let paths: Vec<&str> = paths.iter().map(String::as_str).collect();
            let text = listed(&paths);
            let mut listed = paths_of(&text);
            let mut given: Vec<String> = paths.iter().map(|p| (*p).to_owned()).collect();
            listed.sort();
            given.sort();
            proptest::prop_assert_eq!(listed, given);
            let full_paths = 3 + paths.iter().map(|path| file_line_len(path, " [10 lines]", 0)).sum::<usize>();
            proptest::prop_assert!(measure(&text) <= full_paths);
        }
    }
}
