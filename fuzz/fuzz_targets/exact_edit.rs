//! A model's exact edit (old text, new text) against a file: applied only where it matches.
//! The input is the file, the old text and the new text, separated by NUL bytes.
#![no_main]

use issuewright::workspace::apply_patch;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let mut parts = text.splitn(3, '\0');
    let (Some(file), Some(old), Some(new)) = (parts.next(), parts.next(), parts.next()) else { return };
    let _ = apply_patch("src/lib.rs", file, old, new);
});
