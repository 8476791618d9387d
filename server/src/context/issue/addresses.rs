//! Web addresses in an issue, cut to what may speak of the code. A forge's page of issues,
//! pull requests or discussions (`github.com/o/r/issues/12`, what an issue template links to)
//! names only the repository and the forge, and what a user attaches to an issue (a
//! screenshot or a recording, on a forge's hosts or anywhere) names nothing; a forge's page of
//! a file (`github.com/o/r/blob/main/src/walk.rs`) names the file, which `paths` reads as a
//! path too: their hosts and the repository's names are no words of the issue. Another site's
//! host may name what the issue is about (a language's homepage) and stays with its path. An
//! address's scheme, its query (`?q=is%3Aissue`) and an anchor that gives a line or a comment
//! (`L12`, `issuecomment-1234`) are left out; an anchor that names something stays, as its
//! item (`requires` of `#method.requires`). A documentation page is its item (rustdoc's
//! `struct.Arg.html` is `Arg`, javadoc's `ObjectMapper.html` `ObjectMapper`), so that its
//! kind and `html` are no names the issue gives. An e-mail address (a commit's
//! `Co-authored-by: Jane <jane@example.com>`) names nothing.

use std::borrow::Cow;

/// A web address: its host, its path and its anchor, as the text writes them; what stops it is
/// what Markdown and prose put around one (space, brackets, quotes). An underscore before it
/// (Markdown's escaped `\_` glued to it) is taken with it, as it is no word's.
static ADDRESS: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
    regex::Regex::new(
        r#"(?i)(?:\b|_)(?:https?|ftp)://(?P<host>[^\s/?#()<>\[\]"'`]*)(?P<path>/[^\s?#()<>\[\]"'`]*)?(?:\?[^\s#()<>\[\]"'`]*)?(?:#(?P<anchor>[^\s()<>\[\]"'`]*))?"#,
    )
    .expect("the address pattern compiles")
});

/// An e-mail address (`Jane Doe <jane@example.com>` of a commit's `Co-authored-by:`, a
/// maintainer's contact): someone's, naming nothing of the code. Its host ends in letters, so
/// that a package and its version (`vite@5.0.1`) are none.
static MAIL_ADDRESS: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
    regex::Regex::new(r"\b[\w.+-]+@[\w-]+(?:\.[\w-]+)*\.[A-Za-z]{2,}\b").expect("the mail pattern compiles")
});

/// Hosts that are a forge's own, whatever page of it an address gives.
const FORGE_HOSTS: [&str; 5] = ["codeberg.org", "gist.github.com", "github.com", "gitlab.com", "www.github.com"];

/// The kinds of a forge's pages (after `owner/repo/`, or GitLab's `owner/repo/-/`) that hold
/// no file of the repository.
const PAGES_OF_NO_FILE: [&str; 15] = [
    "actions",
    "assets",
    "commit",
    "commits",
    "compare",
    "discussions",
    "issues",
    "labels",
    "milestone",
    "milestones",
    "pull",
    "pulls",
    "releases",
    "security",
    "wiki",
];

/// The kinds of a forge's pages whose path goes on with a branch, tag or commit and a file's
/// path (`blob/main/src/walk.rs`).
const PAGES_OF_A_FILE: [&str; 4] = ["blame", "blob", "raw", "tree"];

/// `text` with each web address replaced by the words of it that may speak of the code (see
/// the module's documentation), spaced apart from what stood around it.
pub(super) fn without_addresses(text: &str) -> Cow<'_, str> {
    let text = if text.contains('@') { MAIL_ADDRESS.replace_all(text, " ") } else { Cow::Borrowed(text) };
    if !text.contains("://") {
        return text;
    }
    let kept = |found: &regex::Captures<'_>| {
        let host = found.name("host").map_or("", |host| host.as_str());
        let path = found.name("path").map_or("", |path| path.as_str());
        let kept = match forge_page(path) {
            Some(file) => file,
            None if is_attachment(host, path) => Cow::Borrowed(""),
            None if FORGE_HOSTS.contains(&host.to_ascii_lowercase().as_str()) => Cow::Borrowed(path),
            None => Cow::Owned(format!("{host}{}", page_path(path))),
        };
        let anchor = found.name("anchor").map_or("", |anchor| anchor.as_str());
        // `L12`, `issuecomment-1234`, `r987`: a line or a comment, not a name.
        let anchor = if anchor.contains(|c: char| c.is_ascii_digit()) { "" } else { anchor_item(anchor) };
        format!(" {kept} {anchor} ")
    };
    match text {
        Cow::Borrowed(text) => ADDRESS.replace_all(text, kept),
        Cow::Owned(text) => Cow::Owned(ADDRESS.replace_all(&text, kept).into_owned()),
    }
}

/// The kinds of item rustdoc names its pages and anchors after (`struct.Arg.html`,
/// `#method.requires`).
const RUSTDOC_KINDS: [&str; 22] = [
    "associatedconstant",
    "associatedtype",
    "attr",
    "constant",
    "derive",
    "enum",
    "field",
    "fn",
    "keyword",
    "macro",
    "method",
    "mod",
    "primitive",
    "static",
    "struct",
    "structfield",
    "trait",
    "traitalias",
    "tymethod",
    "type",
    "union",
    "variant",
];

/// A documentation page's path as its items read: a page is named by its item
/// (`struct.Arg.html` is `Arg`, javadoc's `ObjectMapper.html` is `ObjectMapper`), a source
/// page by its file (`stream_map.rs.html` is `stream_map.rs`), and an index page by its folder.
fn page_path(path: &str) -> String {
    path.split('/')
        .filter_map(|segment| {
            let page = segment.strip_suffix(".html").or_else(|| segment.strip_suffix(".htm"));
            match page {
                Some("index") => None,
                Some(page) => Some(anchor_item(page)),
                None => Some(segment),
            }
        })
        .collect::<Vec<_>>()
        .join("/")
}

/// A rustdoc page's or anchor's item without its kind (`method.requires` is `requires`); any
/// other anchor as it is.
fn anchor_item(anchor: &str) -> &str {
    match anchor.split_once('.') {
        Some((kind, item)) if RUSTDOC_KINDS.contains(&kind) => item,
        _ => anchor,
    }
}

/// Hosts that serve what a forge's users attach to an issue (screenshots, recordings).
const ATTACHMENT_HOSTS: [&str; 3] =
    ["user-images.githubusercontent.com", "private-user-images.githubusercontent.com", "camo.githubusercontent.com"];

/// What a picture's, a recording's or a document's address ends in.
const MEDIA_EXTENSIONS: [&str; 11] = ["png", "jpg", "jpeg", "gif", "webp", "bmp", "mp4", "mov", "webm", "pdf", "zip"];

/// Whether the address of `host` and `path` is of something a user attached (a screenshot on
/// GitHub's attachment hosts or under `user-attachments/`, a picture or a recording anywhere),
/// whose address names nothing of the code.
fn is_attachment(host: &str, path: &str) -> bool {
    let host = host.to_ascii_lowercase();
    let media = path
        .rsplit_once('.')
        .is_some_and(|(_, extension)| MEDIA_EXTENSIONS.contains(&extension.to_ascii_lowercase().as_str()));
    ATTACHMENT_HOSTS.contains(&host.as_str()) || path.starts_with("/user-attachments/") || media
}

/// What a forge's page that `path` gives may say of the code: nothing for a page of no file,
/// the file's path for a page of a file; `None` for a path of no forge's page.
fn forge_page(path: &str) -> Option<Cow<'_, str>> {
    let segments: Vec<&str> = path.trim_matches('/').split('/').collect();
    // `owner/repo/kind/..`, or GitLab's `owner/repo/-/kind/..`.
    let kind_at = if segments.get(2) == Some(&"-") { 3 } else { 2 };
    let kind = *segments.get(kind_at)?;
    if PAGES_OF_NO_FILE.contains(&kind) {
        return Some(Cow::Borrowed(""));
    }
    // Gitea's and Forgejo's pages of a file are `src/branch/REF/..`, `src/commit/REF/..` and
    // `src/tag/REF/..` (a documentation site's `src/` is a path like any other).
    let gitea = kind == "src" && matches!(segments.get(kind_at + 1), Some(&("branch" | "commit" | "tag")));
    if !gitea && !PAGES_OF_A_FILE.contains(&kind) {
        return None;
    }
    let path_at = kind_at + if gitea { 3 } else { 2 };
    Some(Cow::Owned(segments.get(path_at..).map(|rest| rest.join("/")).unwrap_or_default()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_keep_only_what_may_speak_of_the_code() {
        let cut = |text: &str| without_addresses(text).split_whitespace().collect::<Vec<_>>().join(" ");
        for (text, kept, what) in [
            (
                "Co-authored-by: Jane Doe <jane.doe+ci@mail.example.co.uk>, see https://github.com/o/r/issues/1",
                "Co-authored-by: Jane Doe < >, see",
                "an e-mail address names nothing, beside a web address",
            ),
            ("Signed-off-by: J <j@example.com>", "Signed-off-by: J < >", "alone too"),
            ("bump vite@5.0.1 and @babel/core; git@github", "bump vite@5.0.1 and @babel/core; git@github", "no mail"),
            (
                "- [X] I have searched the [discussions](https://github.com/clap-rs/clap/discussions)",
                "- [X] I have searched the [discussions]( )",
                "a forge's page of no file names only the repository",
            ),
            (
                "the [open](https://github.com/clap-rs/clap/issues?q=is%3Aissue+label%3AS-wont-fix) issues",
                "the [open]( ) issues",
                "nor does a page of issues with a query",
            ),
            (
                "see https://play.rust-lang.org/?version=stable&gist=63c32cc6b8",
                "see play.rust-lang.org/",
                "another site's host stays, its query goes",
            ),
            ("See: https://www.red-lang.org/", "See: www.red-lang.org/", "a homepage's host stays"),
            ("https://github.com/tokio-rs/tokio#readme", "/tokio-rs/tokio readme", "the forge's host goes"),
            (
                "at https://github.com/o/r/blob/main/src/walk.rs#L10-L20, and",
                "at src/walk.rs and",
                "a linked file's path, without its lines",
            ),
            ("https://gitlab.com/g/p/-/blob/v2/lib/x.ts?plain=1#L3", "lib/x.ts", "GitLab's page of a file"),
            ("https://codeberg.org/o/r/src/branch/main/src/y.rs", "src/y.rs", "Gitea's page of a file"),
            ("https://github.com/o/r/tree/main", "", "a tree's top holds no file"),
            (
                "(https://docs.rs/clap/latest/clap/struct.Arg.html#method.requires)",
                "( docs.rs/clap/latest/clap/Arg requires )",
                "a documentation page's path to its item and the item its anchor gives",
            ),
            (
                "[docs](https://docs.rs/tokio/latest/tokio/fn.spawn.html), \
                 https://docs.rs/tokio/latest/tokio/sync/index.html#structs and \
                 https://javadoc.io/doc/com.fasterxml/jackson-databind/2.15/com/fasterxml/ObjectMapper.html",
                "[docs]( docs.rs/tokio/latest/tokio/spawn ), docs.rs/tokio/latest/tokio/sync structs and \
                 javadoc.io/doc/com.fasterxml/jackson-databind/2.15/com/fasterxml/ObjectMapper",
                "rustdoc's and javadoc's pages are their items; an index page is its folder",
            ),
            ("https://github.com/o/r/issues/12#issuecomment-1234567", "", "a comment's anchor names nothing"),
            (
                "https://docs.rs/tokio-stream/latest/src/tokio_stream/stream_map.rs.html#520",
                "docs.rs/tokio-stream/latest/src/tokio_stream/stream_map.rs",
                "a documentation site's source page is its file",
            ),
            (
                "no address here, only a::path and x.rs",
                "no address here, only a::path and x.rs",
                "text without an address",
            ),
            ("http:// and https://", "and", "schemes alone"),
            (
                "A\\_https://github.com/o/r/blob/main/src/a.rs#L1-L2",
                "A\\ src/a.rs",
                "an escaped underscore glued before it",
            ),
            (
                "![image](https://user-images.githubusercontent.com/9798724/165199526-ceb7.png) fails",
                "![image]( ) fails",
                "a screenshot's address names nothing",
            ),
            (
                "<img src=\"https://github.com/user-attachments/assets/5d1f-42\">",
                "<img src=\" \">",
                "nor an attachment's",
            ),
            ("https://github.com/o/r/assets/123/5d1f-42", "", "nor an asset of a repository's page"),
            ("https://example.org/shots/walk_order.gif", "", "a picture's anywhere"),
        ] {
            assert_eq!(cut(text), kept, "{what}");
        }
    }
}
