//! A source file of any content, indexed as Rust, Java, TypeScript, TSX or JavaScript (the
//! first byte picks the language).
#![no_main]

use issuewright::context::{IndexedFile, Language, extract};
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
    // The reading itself, not the index's guard around it, which turns a panic into a file
    // indexed without its symbols: the panic is what a fuzzer is to find.
    let text = String::from_utf8_lossy(source);
    let Some(tree) = extract::parse(language, text.as_bytes(), None) else { return };
    let symbols = extract::extract(language, &tree, text.as_bytes());
    let file = IndexedFile::with_symbols(path, language, source, &text, symbols);
    let lines = source.split(|byte| *byte == b'\n').count();
    for definition in &file.symbols.definitions {
        assert!(definition.line as usize <= lines, "{definition:?} is past the last of {lines} lines");
    }
});
