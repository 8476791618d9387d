//! A source file of any content, indexed as Rust, Java, TypeScript, TSX or JavaScript (the
//! first byte picks the language).
#![no_main]

use issuewright::context::{IndexedFile, Language};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&choice, source)) = data.split_first() else { return };
    let (path, language) = match choice % 5 {
        0 => ("src/lib.rs", Language::Rust),
        1 => ("src/main/java/a/App.java", Language::Java),
        2 => ("web/app.ts", Language::TypeScript),
        3 => ("web/view.tsx", Language::Tsx),
        _ => ("lib/runner.js", Language::JavaScript),
    };
    let file = IndexedFile::from_source(path, language, source);
    let lines = source.split(|byte| *byte == b'\n').count();
    for definition in &file.symbols.definitions {
        assert!(definition.line as usize <= lines, "{definition:?} is past the last of {lines} lines");
    }
});
