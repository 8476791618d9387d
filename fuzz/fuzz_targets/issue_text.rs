//! Issue text of any shape (Markdown, stack traces, links), read into the names it holds.
#![no_main]

use issuewright::context::issue::analyze;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = analyze(&String::from_utf8_lossy(data));
});
