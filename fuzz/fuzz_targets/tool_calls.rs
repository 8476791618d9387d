//! A model's tool calls, arguments as the model sent them (any text), run against the
//! overlay of a small workspace: whatever they ask, changes stay staged inside the workspace
//! and no file on disk changes. Calls are separated by NUL bytes; each one's first byte
//! picks the tool.
#![no_main]

use std::path::PathBuf;
use std::sync::{Arc, LazyLock};

use issuewright::context::Index;
use issuewright::llm::{ToolCall, parse_arguments};
use issuewright::tools::{Seen, Toolset};
use issuewright::workspace::{DiskBase, Overlay, Root};
use libfuzzer_sys::fuzz_target;

const TOOLS: [&str; 9] =
    ["read_file", "list_files", "grep", "find_symbol", "patch_file", "write_file", "mkdir", "delete_file", "nope"];

/// What the credential file holds.
const SECRET: &str = "API_KEY=secret";

/// The files on disk, with their texts, checked after every input.
const FILES: [(&str, &str); 4] = [
    ("outside.txt", "not part of the workspace\n"),
    ("work/src/lib.rs", "pub mod clock;\npub fn start() -> u32 { 1 }\n"),
    ("work/src/clock.rs", "pub struct Clock;\nimpl Clock { pub fn now(&self) -> u64 { 0 } }\n"),
    ("work/.env", "API_KEY=secret\n"),
];

struct Workspace {
    dir: PathBuf,
    root: Root,
    index: Index,
}

static WORKSPACE: LazyLock<Workspace> = LazyLock::new(|| {
    let dir = std::env::temp_dir().join(format!("issuewright-fuzz-tools-{}", std::process::id()));
    for (path, text) in FILES {
        let path = dir.join(path);
        std::fs::create_dir_all(path.parent().expect("files have folders")).expect("a scratch folder");
        std::fs::write(path, text).expect("a scratch file");
    }
    let root = Root::new(&dir.join("work")).expect("the workspace root");
    let index = Index::build(&dir.join("work"), None);
    Workspace { dir, root, index }
});

fuzz_target!(|data: &[u8]| {
    let workspace = &*WORKSPACE;
    let mut overlay = Overlay::new(workspace.root.clone(), Arc::new(DiskBase));
    let mut seen = Seen::default();
    for (n, call) in data.split(|byte| *byte == 0).take(16).enumerate() {
        let Some((&choice, raw)) = call.split_first() else { continue };
        let (arguments, malformed) = parse_arguments(&String::from_utf8_lossy(raw));
        let call =
            ToolCall { id: n.to_string(), name: TOOLS[usize::from(choice) % TOOLS.len()].into(), arguments, malformed };
        let before = overlay.changes();
        let outcome = Toolset::standard().execute(&mut overlay, Some(&workspace.index), &mut seen, &call);
        if !outcome.ok {
            assert_eq!(overlay.changes(), before, "a refused call changes nothing");
        }
        let written = |change: &issuewright::workspace::FileChange| {
            change.new_text.as_deref().is_some_and(|text| text.contains(SECRET))
        };
        // Unless the calls wrote it themselves (a file's text, or a path echoed in an error).
        if outcome.output.contains(SECRET) && !String::from_utf8_lossy(data).contains(SECRET) {
            assert!(overlay.changes().iter().any(written), "credential files are never shown");
        }
    }
    for change in overlay.changes() {
        let path = change.path.as_str();
        assert!(!path.is_empty() && !path.starts_with('/') && !path.split('/').any(|p| p == ".."), "{path}");
    }
    for (path, text) in FILES {
        let now = std::fs::read_to_string(workspace.dir.join(path)).expect("the file is still there");
        assert_eq!(now, text, "{path} changed on disk");
    }
});
