//! Run identifiers: sortable by start time, safe as directory names.

use std::fmt;

/// Identifies one run, e.g. `20261121-170312-4fa9`: UTC start time and a random suffix.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
#[serde(transparent)]
pub struct RunId(String);

/// A string that is not a run id.
#[derive(Debug, thiserror::Error)]
#[error("`{0}` is not a run id (expected something like `20261121-170312-4fa9`)")]
pub struct BadRunId(pub String);

impl RunId {
    /// A fresh id for a run starting now.
    pub fn generate() -> Self {
        let now = jiff::Timestamp::now().strftime("%Y%m%d-%H%M%S");
        Self(format!("{now}-{:04x}", fastrand::u16(..)))
    }

    /// Parses an id given by a client; only `[0-9a-z-]` is accepted, so it is a safe file name.
    pub fn parse(raw: &str) -> Result<Self, BadRunId> {
        let valid = !raw.is_empty()
            && raw.len() <= 64
            && raw.bytes().all(|b| b.is_ascii_digit() || b.is_ascii_lowercase() || b == b'-');
        if valid { Ok(Self(raw.to_owned())) } else { Err(BadRunId(raw.to_owned())) }
    }

    /// The id as text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for RunId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generated_ids_parse_and_differ() {
        let a = RunId::generate();
        assert!(RunId::parse(a.as_str()).is_ok());
        assert_eq!(a.as_str().len(), "20261121-170312-4fa9".len());
        let many: std::collections::HashSet<_> = (0..50).map(|_| RunId::generate()).collect();
        assert!(many.len() > 1);
    }

    #[test]
    fn ids_that_could_escape_a_directory_are_refused() {
        for bad in ["", "../x", "a/b", "A", "x y", &"1".repeat(65)] {
            assert!(RunId::parse(bad).is_err(), "{bad}");
        }
    }
}
