//! The manifests that lay out scripts' modules: a `tsconfig.json` (JSON with comments), read
//! for its base URL, aliases and bases, and a `package.json`'s own import map, asked for an
//! import each of its patterns matches.
#![no_main]

use issuewright::context::modules::{PackageImports, TsConfig};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut text = String::from_utf8_lossy(data).into_owned();
    if let Ok(manifest) = serde_json::from_str::<serde_json::Value>(&text) {
        let imports = PackageImports::of("packages/core", &manifest);
        for (pattern, _) in &imports.map {
            let _ = imports.candidates(&pattern.replacen('*', "a/../b", 1));
        }
    }
    let _ = TsConfig::parse("web/tsconfig.json", &mut text);
});
