//! Issue text of any shape (Markdown, stack traces, links), read into the names it holds, alone
//! and knowing a workspace's code (which leaves the frames of other code out).
#![no_main]

use issuewright::context::Language;
use issuewright::context::issue::{OwnCode, analyze, analyze_knowing};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let _ = analyze(&text);
    let own = OwnCode::unknown()
        .languages([Language::Rust, Language::Java])
        .java_packages(["com.acme".to_owned(), String::new()])
        .rust_crates(["tokio".to_owned()])
        .npm_packages([("packages/vite".to_owned(), "vite".to_owned())])
        .script_files(["src/main.ts".to_owned()]);
    let _ = analyze_knowing(&text, &own);
});
