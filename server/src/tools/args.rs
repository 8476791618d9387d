//! The argument objects of each tool; their JSON Schemas are derived from these types.

use schemars::JsonSchema;
use serde::Deserialize;

/// Arguments of `write_file`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct WriteFileArgs {
    /// File path relative to the workspace root, e.g. `src/parser.rs`.
    pub path: String,
    /// The complete new content of the file.
    pub content: String,
}

/// Arguments of `patch_file`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PatchFileArgs {
    /// File path relative to the workspace root.
    pub path: String,
    /// Text that occurs exactly once in the file, copied exactly (whitespace and indentation included).
    pub old_text: String,
    /// The text that replaces it.
    pub new_text: String,
}

/// Arguments of `mkdir` and `delete_file`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PathArgs {
    /// Path relative to the workspace root.
    pub path: String,
}

/// Arguments of `read_file`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ReadFileArgs {
    /// File path relative to the workspace root.
    pub path: String,
    /// First line to read, counting from 1 (default: 1).
    #[schemars(range(min = 1))]
    pub start_line: Option<u32>,
    /// Last line to read, inclusive (default: the end of the file).
    #[schemars(range(min = 1))]
    pub end_line: Option<u32>,
}

/// Arguments of `list_files`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ListFilesArgs {
    /// Directory relative to the workspace root (default: the root).
    pub path: Option<String>,
}

/// Arguments of `grep`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GrepArgs {
    /// A regular expression (Rust regex syntax), matched line by line.
    pub pattern: String,
    /// A directory or file to search, relative to the workspace root (default: everything).
    pub path: Option<String>,
    /// Match without regard to case.
    pub ignore_case: Option<bool>,
}

/// Arguments of `find_symbol`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FindSymbolArgs {
    /// The name of a function, method, type, trait, constant or module, e.g. `JoinSet` or `try_join_next`,
    /// qualified if need be: `JoinSet::spawn`, `ObjectMapper.readValue`, `tokio::net::TcpStream`.
    pub name: String,
}

/// Arguments of `run_check`: none.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RunCheckArgs {}

/// Arguments of `run_tests`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RunTestsArgs {
    /// Run only tests whose name matches, e.g. `parser::tests` or `GreeterTest` (default: all).
    #[schemars(length(max = 200))]
    pub filter: Option<String>,
}
