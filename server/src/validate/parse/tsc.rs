//! tsc's output: `file(line,col): error TS2322: message` (`--pretty false`, what
//! issuewright runs), `file:line:col - error TS2322: message` (the pretty form a project's own
//! script prints when its tsconfig sets `pretty`), continuation lines indented below either,
//! and file-less errors such as `error TS5058: ...`.

use std::sync::LazyLock;

use regex::Regex;

use super::at_located;
use super::paths::{Located, PathMap};
use crate::validate::problem::{ColumnUnit, Problem, Severity, Spot};

static PLACED: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"^(?P<file>[^\s].*?)\((?P<line>\d+),(?P<col>\d+)\): (?P<severity>error|warning|message) (?P<code>TS\d+): (?P<message>.*)$",
    )
    .expect("valid regex")
});
static PRETTY: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"^(?P<file>[^\s].*?):(?P<line>\d+):(?P<col>\d+) - (?P<severity>error|warning|message) (?P<code>TS\d+): (?P<message>.*)$",
    )
    .expect("valid regex")
});
static GLOBAL: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^(?P<severity>error|warning) (?P<code>TS\d+): (?P<message>.*)$").expect("valid regex")
});

/// A task runner's prefix before a package's line: turbo's `web:typecheck: `, pnpm's
/// `packages/web typecheck: `.
static TASK_PREFIX: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^(?P<task>[^\s:]+)(?::\S+| \S+): (?P<path>\S.*)$").expect("valid regex"));

/// Where the file a tsc line names is. Run through a monorepo's task runner (`npm run
/// typecheck` calling turbo or `pnpm -r`), the line carries the package's prefix and a path
/// from the package's folder: that folder (pnpm names it), else the one workspace file the path
/// ends with below a folder of the package's name, else the one it ends with at all.
fn locate(map: &PathMap, printed: &str) -> Located {
    let located = map.locate(printed);
    let (Located::Elsewhere(_), Some(prefixed)) = (&located, TASK_PREFIX.captures(printed)) else { return located };
    let (task, path) = (&prefixed["task"], &prefixed["path"]);
    if let found @ Located::Workspace(_) = map.locate(&format!("{task}/{path}")) {
        return found;
    }
    let package = task.rsplit('/').next().unwrap_or(task);
    match map.by_suffix(&format!("{package}/{path}")).or_else(|| map.by_suffix(path)) {
        Some(found) => Located::Workspace(found),
        None => Located::Elsewhere(path.to_owned()),
    }
}

fn severity(word: &str) -> Severity {
    match word {
        "error" => Severity::Error,
        "warning" => Severity::Warning,
        _ => Severity::Info,
    }
}

/// The problems in tsc's output.
pub fn parse(text: &str, map: &PathMap) -> Vec<Problem> {
    let mut problems: Vec<Problem> = Vec::new();
    // Indented lines continue the last message until a blank line: in the pretty form the
    // code frame and its squiggles follow one, and are not part of the message.
    let mut continues = false;
    for line in text.lines() {
        if let Some(captures) = PLACED.captures(line).or_else(|| PRETTY.captures(line)) {
            continues = true;
            let start = Spot::one_based(captures["line"].parse().unwrap_or(1), captures["col"].parse().unwrap_or(1));
            let mut problem = at_located(
                locate(map, &captures["file"]),
                start,
                start,
                ColumnUnit::Utf16,
                severity(&captures["severity"]),
                "tsc",
                captures["message"].to_owned(),
            );
            problem.code = Some(captures["code"].to_owned());
            problems.push(problem);
        } else if let Some(captures) = GLOBAL.captures(line) {
            continues = true;
            let mut problem = Problem::unplaced(severity(&captures["severity"]), "tsc", captures["message"].to_owned());
            problem.code = Some(captures["code"].to_owned());
            problems.push(problem);
        } else if line.trim().is_empty() {
            continues = false;
        } else if continues
            && line.starts_with("  ")
            && let Some(last) = problems.last_mut()
        {
            last.message.push('\n');
            last.message.push_str(line.trim());
        } else {
            continues = false;
        }
    }
    problems
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    #[test]
    fn continuation_lines_and_global_errors() {
        let map = PathMap::new(Path::new("/t"), Path::new("/u"), ["src/a.ts".to_owned()].into());
        let text = "src/a.ts(4,5): error TS2345: Argument of type '{ a: string; }' is not assignable.\n  Property 'b' is missing.\nerror TS5058: The specified path does not exist: 'x'.\n";
        let problems = parse(text, &map);
        assert_eq!(problems.len(), 2);
        assert_eq!(
            problems[0].message,
            "Argument of type '{ a: string; }' is not assignable.\nProperty 'b' is missing."
        );
        assert_eq!(problems[0].code.as_deref(), Some("TS2345"));
        assert!(problems[1].place.is_none());
    }

    #[test]
    fn lines_a_task_runner_prefixed_name_the_package_file() {
        let files = ["apps/web/src/index.ts", "apps/docs/src/index.ts", "packages/ui/src/button.tsx", "src/index.ts"];
        let map = PathMap::new(Path::new("/t"), Path::new("/u"), files.iter().map(|f| f.to_string()).collect());
        let text = "web:typecheck: src/index.ts(3,7): error TS2322: Type 'string' is not assignable to type 'number'.\n\
                    @acme/ui:typecheck: src/button.tsx(1,1): error TS2304: Cannot find name 'React'.\n\
                    apps/docs typecheck: src/index.ts(2,1): error TS1005: ';' expected.\n\
                    src/index.ts(9,9): error TS2339: Property 'x' does not exist.\n\
                    web:typecheck: src/gone.ts(1,1): error TS1005: ';' expected.\n";
        let problems = parse(text, &map);
        let placed: Vec<Option<&str>> =
            problems.iter().map(|p| p.place.as_ref().map(|place| place.path.as_str())).collect();
        assert_eq!(
            placed,
            [
                Some("apps/web/src/index.ts"),
                Some("packages/ui/src/button.tsx"),
                Some("apps/docs/src/index.ts"),
                Some("src/index.ts"),
                None
            ]
        );
        assert_eq!(problems[4].elsewhere.as_deref(), Some("src/gone.ts:1:1"));
    }

    #[test]
    fn malformed_output_does_not_panic() {
        let map = PathMap::new(Path::new("/t"), Path::new("/u"), Default::default());
        for text in [
            "a.ts(,): error TS1: x",
            "a.ts(1,99999999999999): error TS1: x",
            "  orphan continuation",
            "(1,1): error TS1: x",
            "web:typecheck: (1,1): error TS1: x",
            ":: a.ts(1,1): error TS1: x",
            "web:: (1,1): error TS1: x",
        ] {
            let _ = parse(text, &map);
        }
    }
}
