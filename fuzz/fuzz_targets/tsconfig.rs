//! A `tsconfig.json` (JSON with comments), read for its base URL, aliases and bases.
#![no_main]

use issuewright::context::modules::TsConfig;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut text = String::from_utf8_lossy(data).into_owned();
    let _ = TsConfig::parse("web/tsconfig.json", &mut text);
});
