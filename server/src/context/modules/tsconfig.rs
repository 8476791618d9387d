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

/// `compilerOptions.paths` as written: patterns and their targets.
type WrittenPaths = Vec<(String, Vec<String>)>;

/// One configuration file as written: its `baseUrl` and `paths` not yet resolved, since
/// TypeScript resolves `paths` against the `baseUrl` in force after `extends` is merged.
struct Written {
    dir: String,
    /// `baseUrl` as written, with the folder of the file that sets it.
    base: Option<(String, String)>,
    /// `paths`, targets as written, with the folder of the file that sets them.
    paths: Option<(String, WrittenPaths)>,
    extends: Vec<String>,
    /// The projects it `references` (`tsconfig.app.json` of a Vite solution), relative to
    /// the workspace.
    references: Vec<String>,
}

impl Written {
    fn parse(relative: &str, text: &mut str) -> Result<Self, TsConfigError> {
        let parse_error = |source| TsConfigError::Parse { path: relative.to_owned(), source };
        json_strip_comments::strip(text).map_err(|error| parse_error(serde_json::Error::io(error)))?;
        let value: serde_json::Value = serde_json::from_str(text).map_err(parse_error)?;
        let dir = relative.rsplit_once('/').map_or("", |(dir, _)| dir).to_owned();
        let options = &value["compilerOptions"];
        let base = options["baseUrl"].as_str().map(|base| (dir.clone(), base.to_owned()));
        let paths: WrittenPaths = options["paths"]
            .as_object()
            .into_iter()
            .flatten()
            .map(|(pattern, targets)| {
                let targets = targets.as_array().into_iter().flatten().filter_map(|t| t.as_str());
                (pattern.clone(), targets.map(str::to_owned).collect())
            })
            .collect();
        let paths = (!paths.is_empty()).then(|| (dir.clone(), paths));
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
        // A reference names a configuration file, or a folder holding a `tsconfig.json`.
        let references = value["references"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|reference| {
                let path = join_inside(&dir, reference["path"].as_str()?)?;
                Some(match path.as_str() {
                    "" => "tsconfig.json".to_owned(),
                    _ if path.ends_with(".json") => path,
                    _ => format!("{path}/tsconfig.json"),
                })
            })
            .collect();
        Ok(Self { dir, base, paths, extends, references })
    }

    fn read(root: &Path, relative: &str) -> Result<Self, TsConfigError> {
        let read_error = |source| TsConfigError::Read { path: relative.to_owned(), source };
        let path = root.join(relative);
        if std::fs::metadata(&path).map_err(read_error)?.len() > MAX_TSCONFIG_BYTES {
            return Err(TsConfigError::TooLarge { path: relative.to_owned() });
        }
        let mut text = std::fs::read_to_string(&path).map_err(read_error)?;
        Self::parse(relative, &mut text)
    }

    /// The configuration as TypeScript resolves it: `paths` against the `baseUrl` in force, or
    /// the folder of the file that sets them when none is; places outside the workspace, which
    /// hold no file the index has, left out.
    fn resolved(self, extends: Vec<String>) -> TsConfig {
        let base_url = self.base.as_ref().and_then(|(dir, base)| join_inside(dir, base));
        let paths = self.paths.map_or_else(Vec::new, |(paths_dir, paths)| {
            let from_base = |target: &String| match &self.base {
                Some((dir, base)) => join_inside(dir, &format!("{base}/{target}")),
                None => join_inside(&paths_dir, target),
            };
            paths
                .into_iter()
                .map(|(pattern, targets)| (pattern, targets.iter().filter_map(from_base).collect()))
                .collect()
        });
        TsConfig { dir: self.dir, base_url, paths, extends }
    }
}

impl TsConfig {
    /// Reads the `tsconfig.json` at `relative` below `root` (JSON with comments, as TypeScript
    /// reads it), taking `baseUrl` and `paths` it leaves out from the configurations it
    /// `extends` (a monorepo's shared base), when those are in the workspace; a solution-style
    /// configuration with neither (Vite's, which only lists `references`) takes those of the
    /// first project it references that sets them.
    pub fn read(root: &Path, relative: &str) -> Result<Self, TsConfigError> {
        let mut seen = vec![relative.to_owned()];
        let mut config = Self::read_extending(root, relative, &mut seen)?;
        if config.base.is_none() && config.paths.is_none() {
            for reference in std::mem::take(&mut config.references) {
                if seen.contains(&reference) {
                    continue;
                }
                seen.push(reference.clone());
                let Ok(project) = Self::read_extending(root, &reference, &mut seen) else { continue };
                if project.base.is_some() || project.paths.is_some() {
                    config.base = project.base;
                    config.paths = project.paths;
                    break;
                }
            }
        }
        // Missing ones too: one written later changes what this file says.
        Ok(config.resolved(seen.split_off(1)))
    }

    /// The file at `relative` with what it leaves out taken from what it `extends`, every file
    /// followed added to `seen`.
    fn read_extending(root: &Path, relative: &str, seen: &mut Vec<String>) -> Result<Written, TsConfigError> {
        let mut config = Written::read(root, relative)?;
        let mut pending = std::mem::take(&mut config.extends);
        let depth_at_start = seen.len();
        while let Some(base) = pending.pop() {
            if seen.len() - depth_at_start >= MAX_EXTENDS_DEPTH || seen.contains(&base) {
                continue;
            }
            seen.push(base.clone());
            // A base that is missing or broken leaves what the file itself says.
            let Ok(mut inherited) = Written::read(root, &base) else { continue };
            if config.base.is_none() {
                config.base = inherited.base.take();
            }
            if config.paths.is_none() {
                config.paths = inherited.paths.take();
            }
            pending.extend(inherited.extends);
        }
        Ok(config)
    }

    /// Parses the text of the `tsconfig.json` at `relative` (stripped of comments in place).
    pub fn parse(relative: &str, text: &mut str) -> Result<Self, TsConfigError> {
        let written = Written::parse(relative, text)?;
        let extends = written.extends.clone();
        Ok(written.resolved(extends))
    }
}
