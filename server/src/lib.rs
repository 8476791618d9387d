//! issuewright: a language server that implements issues.
//!
//! The modules follow one dependency order: the faces (`lsp`, and the CLI in `main.rs`)
//! call `agent`, which drives `llm`, `tools`, `issues` and `session`; all of them build on
//! `workspace`, which depends on nothing of ours.

pub mod agent;
pub mod config;
pub mod context;
pub mod issues;
pub mod llm;
pub mod lsp;
pub mod session;
pub mod tools;
pub mod validate;
pub mod workspace;

#[cfg(test)]
pub(crate) mod testing {
    //! Helpers for unit tests.

    /// A temporary directory under the build's `target/tmp`, so tests write nothing outside
    /// the checkout.
    pub fn tempdir() -> tempfile::TempDir {
        let exe = std::env::current_exe().expect("the test binary has a path");
        // target/<profile>/deps/<test binary>
        let target = exe.ancestors().nth(3).expect("tests run from target/<profile>/deps");
        let base = target.join("tmp").join("issuewright-unit");
        std::fs::create_dir_all(&base).expect("create target/tmp");
        tempfile::tempdir_in(base).expect("create a temporary directory")
    }

    /// A temporary directory holding `files` (relative path, contents), folders created.
    pub fn tree<T: AsRef<[u8]>>(files: &[(&str, T)]) -> tempfile::TempDir {
        let dir = tempdir();
        for (path, text) in files {
            let absolute = dir.path().join(path);
            std::fs::create_dir_all(absolute.parent().expect("a file has a folder")).expect("mkdir");
            std::fs::write(absolute, text.as_ref()).expect("write a fixture file");
        }
        dir
    }

    /// Runs `git args` in `dir`, as a user with a name and a `main` branch; panics if it fails.
    pub fn git(dir: &std::path::Path, args: &[&str]) {
        let output = std::process::Command::new("git")
            .args(["-c", "user.name=t", "-c", "user.email=t@t", "-c", "init.defaultBranch=main"])
            .args(args)
            .current_dir(dir)
            .output()
            .expect("git runs");
        assert!(output.status.success(), "git {args:?}: {output:?}");
    }

    /// Sets the modification time of the file at `path` to `ago` before now (as a checkout
    /// made earlier would have it).
    pub fn modified_ago(path: &std::path::Path, ago: std::time::Duration) {
        set_modified(path, std::time::SystemTime::now() - ago);
    }

    /// Sets the modification time of the file at `path`.
    pub fn set_modified(path: &std::path::Path, time: std::time::SystemTime) {
        let file = std::fs::File::options().write(true).open(path).expect("open a fixture file");
        file.set_modified(time).expect("set its modification time");
    }

    /// [`tree`] with `files`, and the index built from it.
    pub fn indexed<T: AsRef<[u8]>>(files: &[(&str, T)]) -> (tempfile::TempDir, crate::context::Index) {
        let dir = tree(files);
        let index = crate::context::Index::build(dir.path(), None);
        (dir, index)
    }

    /// The official wire-format specifications and recorded payloads the provider code is
    /// built and tested against: `$ISSUEWRIGHT_SPECS`, else `shared/specs` beside the checkout.
    pub fn specs_dir() -> std::path::PathBuf {
        let dir = std::env::var_os("ISSUEWRIGHT_SPECS")
            .map(std::path::PathBuf::from)
            .unwrap_or_else(|| std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/specs"));
        assert!(dir.is_dir(), "wire-format specs not found at {}; set ISSUEWRIGHT_SPECS", dir.display());
        dir
    }

    /// A ranged `didChange` change at a random place (positions may lie past a line's or the
    /// text's end, as a client's may) over up to three lines, inserting up to three `pieces`.
    pub fn typed_change(
        pieces: Vec<&'static str>,
    ) -> impl proptest::strategy::Strategy<Value = tower_lsp::lsp_types::TextDocumentContentChangeEvent> {
        use proptest::prelude::*;
        use tower_lsp::lsp_types::{Position, Range, TextDocumentContentChangeEvent};
        let text = proptest::collection::vec(proptest::sample::select(pieces), 0..4).prop_map(|p| p.concat());
        ((0u32..30, 0u32..40), (0u32..3, 0u32..20), text).prop_map(|((line, character), (lines, characters), text)| {
            let end = match lines {
                0 => Position::new(line, character + characters),
                _ => Position::new(line + lines, characters),
            };
            TextDocumentContentChangeEvent {
                range: Some(Range::new(Position::new(line, character), end)),
                range_length: None,
                text,
            }
        })
    }
}
