//! A `tsconfig.json` read for its path aliases and base URL, following `extends`.

use std::path::Path;

use super::paths::join_inside;

/// A `tsconfig.json`'s module resolution: where non-relative imports start, and its aliases.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TsConfig {
    /// The folder holding it, relative to the workspace (`""` for the root).
    pub dir: String,
    /// `compilerOptions.baseUrl`, relative to the workspace, if set.
    pub base_url: Option<String>,
    /// `compilerOptions.paths`: a pattern (`@app/*`) and where it points, relative to the workspace.
    pub paths: Vec<(String, Vec<String>)>,
    /// The configurations it `extends` inside the workspace, relative to it: as written
    /// ([`TsConfig::parse`]), or every one followed, bases of bases too ([`TsConfig::read`]).
    pub extends: Vec<String>,
}

/// The largest `tsconfig.json` read.
pub(super) const MAX_TSCONFIG_BYTES: u64 = 1 << 20;

/// How many `extends` deep a configuration is followed.
const MAX_EXTENDS_DEPTH: usize = 8;

/// Why a `tsconfig.json` could not be read.
#[derive(Debug, thiserror::Error)]
pub enum TsConfigError {
    /// Not readable.
    #[error("cannot read {path}: {source}")]
    Read {
        /// The file.
        path: String,
        /// What went wrong.
        source: std::io::Error,
    },
    /// Larger than any real configuration.
    #[error("{path} is larger than {MAX_TSCONFIG_BYTES} bytes")]
    TooLarge {
        /// The file.
        path: String,
    },
    /// Not JSON, even with comments and trailing commas allowed.
    #[error("{path} is not valid JSON: {source}")]
    Parse {
        /// The file.
        path: String,
        /// What went wrong.
        source: serde_json::Error,
    },
}

impl TsConfig {
    /// Reads the `tsconfig.json` at `relative` below `root` (JSON with comments, as TypeScript
    /// reads it), taking `baseUrl` and `paths` it leaves out from the configurations it
    /// `extends` (a monorepo's shared base), when those are in the workspace.
    pub fn read(root: &Path, relative: &str) -> Result<Self, TsConfigError> {
        let mut config = Self::read_one(root, relative)?;
        let mut pending = std::mem::take(&mut config.extends);
        let mut seen = vec![relative.to_owned()];
        while let Some(base) = pending.pop() {
            if seen.len() > MAX_EXTENDS_DEPTH || seen.contains(&base) {
                continue;
            }
            seen.push(base.clone());
            // A base that is missing or broken leaves what the file itself says.
            let Ok(mut inherited) = Self::read_one(root, &base) else { continue };
            if config.base_url.is_none() {
                config.base_url = inherited.base_url.take();
            }
            if config.paths.is_empty() {
                config.paths = std::mem::take(&mut inherited.paths);
            }
            pending.extend(inherited.extends);
        }
        // Missing ones too: one written later changes what this file says.
        config.extends = seen.split_off(1);
        Ok(config)
    }

    fn read_one(root: &Path, relative: &str) -> Result<Self, TsConfigError> {
        let read_error = |source| TsConfigError::Read { path: relative.to_owned(), source };
        let path = root.join(relative);
        if std::fs::metadata(&path).map_err(read_error)?.len() > MAX_TSCONFIG_BYTES {
            return Err(TsConfigError::TooLarge { path: relative.to_owned() });
        }
        let mut text = std::fs::read_to_string(&path).map_err(read_error)?;
        Self::parse(relative, &mut text)
    }

    /// Parses the text of the `tsconfig.json` at `relative` (stripped of comments in place).
    pub fn parse(relative: &str, text: &mut str) -> Result<Self, TsConfigError> {
        let parse_error = |source| TsConfigError::Parse { path: relative.to_owned(), source };
        json_strip_comments::strip(text).map_err(|error| parse_error(serde_json::Error::io(error)))?;
        let value: serde_json::Value = serde_json::from_str(text).map_err(parse_error)?;
        let dir = relative.rsplit_once('/').map_or("", |(dir, _)| dir).to_owned();
        let options = &value["compilerOptions"];
        // Places outside the workspace hold no file the index has: they are left out, not
        // taken as the workspace's own folders.
        let base = options["baseUrl"].as_str();
        let base_url = base.and_then(|base| join_inside(&dir, base));
        let paths = options["paths"]
            .as_object()
            .into_iter()
            .flatten()
            .map(|(pattern, targets)| {
                let targets = targets.as_array().into_iter().flatten().filter_map(|t| t.as_str());
                let from_base = |target: &str| join_inside(&dir, &format!("{}/{target}", base.unwrap_or(".")));
                (pattern.clone(), targets.filter_map(from_base).collect())
            })
            .collect();
        let extends = match &value["extends"] {
            serde_json::Value::String(one) => vec![one.as_str()],
            serde_json::Value::Array(many) => many.iter().filter_map(|v| v.as_str()).collect(),
            _ => Vec::new(),
        };
        // Only files in the workspace (`./base.json`, `../tsconfig.base`), not packages.
        let extends = extends
            .into_iter()
            .filter(|base| base.starts_with("./") || base.starts_with("../"))
            .filter_map(|base| {
                let path = join_inside(&dir, base)?;
                Some(if path.ends_with(".json") { path } else { format!("{path}.json") })
            })
            .collect();
        Ok(Self { dir, base_url, paths, extends })
    }
}
