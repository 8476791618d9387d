//! Bytes from the editor: framed with `Content-Length` headers, bodies decoded as JSON-RPC.
#![no_main]

use std::sync::LazyLock;

use issuewright::lsp::framing::{Frame, decode, read_frame};
use libfuzzer_sys::fuzz_target;

static RUNTIME: LazyLock<tokio::runtime::Runtime> =
    LazyLock::new(|| tokio::runtime::Builder::new_current_thread().build().expect("a runtime"));

fuzz_target!(|data: &[u8]| {
    RUNTIME.block_on(async {
        let mut reader = tokio::io::BufReader::new(data);
        while let Ok(Some(frame)) = read_frame(&mut reader).await {
            if let Frame::Body(body) = frame {
                let _ = decode(&body);
            }
        }
    });
    let _ = decode(data);
});
