//! Where raw provider traffic is recorded for people to read (a run's `trace.jsonl`).

use serde_json::Value;

/// Receives one JSON entry per request, response or failure.
pub trait TraceSink: Send + Sync {
    /// Records an entry.
    fn record(&self, entry: Value);
}

/// A sink that keeps nothing.
#[derive(Debug, Default, Clone, Copy)]
pub struct NoTrace;

impl TraceSink for NoTrace {
    fn record(&self, _entry: Value) {}
}
