//! A build that could not start one of its programs: told from its output, so the check counts
//! as not run (the machine lacks a tool), not as failed (the code is wrong).
//!
//! The build's own program is found when it starts; what it starts in turn is not: a
//! `node_modules/.bin/tsc` whose `#!/usr/bin/env node` finds no `node` on the editor's PATH,
//! an npm script whose `tsc` is not installed.

use regex::Regex;
use std::sync::LazyLock;

/// Why the build could not run, as the user should read it; `None` where its output shows
/// no missing program. `text` is the build's output, `status` its exit code.
pub fn missing_tool(status: Option<i32>, text: &str) -> Option<String> {
    // `env: 'node': No such file or directory` (GNU, quotes as the locale has them; BSD
    // without), `sh: 1: tsc: not found` (dash), `bash: tsc: command not found`, `zsh: command
    // not found: tsc`.
    static MISSING: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(
            r"(?m)^(?:\S*/)?(?:env: [‘'`]?(?P<env>[^\s‘’'`:]+)[’'`]?: No such file or directory|(?:sh|dash|bash|zsh)(?:: line \d+| \d+)?:(?: \d+:)? (?P<shell>[^\s:]+): (?:command )?not found|zsh: command not found: (?P<zsh>\S+))\s*$",
        )
        .expect("the pattern compiles")
    });
    if !matches!(status, Some(126 | 127)) {
        return None;
    }
    let found = MISSING.captures(text)?;
    let program = ["env", "shell", "zsh"].iter().find_map(|name| found.name(name)).map(|m| m.as_str())?;
    // A path (`./scripts/check.sh`) names a file of the project, which a change may have
    // moved: that is a failure of the change, not a tool the machine lacks.
    if program.contains('/') {
        return None;
    }
    Some(format!(
        "the build could not start `{program}` ({}): install it, or start the editor with a PATH that holds it",
        found.get(0).map_or("", |line| line.as_str().trim())
    ))
}

#[cfg(test)]
mod tests {
    use super::missing_tool;

    #[test]
    fn a_program_the_build_could_not_start_is_named() {
        for (text, program) in [
            ("/usr/bin/env: ‘node’: No such file or directory\n", "node"),
            ("env: 'node': No such file or directory\n", "node"),
            ("env: node: No such file or directory\n", "node"),
            ("\n> build\n> tsc -p .\n\nsh: 1: tsc: not found\n", "tsc"),
            ("bash: mvn: command not found\n", "mvn"),
            ("/bin/sh: line 1: gradle: command not found\n", "gradle"),
            ("zsh: command not found: javac\n", "javac"),
        ] {
            let why = missing_tool(Some(127), text).unwrap_or_else(|| panic!("{text:?} names a missing program"));
            assert!(why.starts_with(&format!("the build could not start `{program}` (")), "{why}");
            assert!(why.ends_with("install it, or start the editor with a PATH that holds it"), "{why}");
        }
    }

    #[test]
    fn failures_of_the_code_are_not_a_missing_program() {
        // A test that prints such a line and fails with its own code, or a compiler error.
        assert_eq!(missing_tool(Some(1), "sh: 1: tsc: not found\n"), None);
        assert_eq!(missing_tool(Some(101), "error[E0425]: cannot find value `x` in this scope\n"), None);
        for malformed in [
            "",
            "env:",
            "sh: 1: : not found",
            "env: ‘’: No such file or directory",
            "\u{0}\u{fffd}",
            "sh: 1: tsc: not found in the docs",
        ] {
            assert_eq!(missing_tool(Some(127), malformed), None, "{malformed:?}");
        }
        assert_eq!(missing_tool(None, "bash: mvn: command not found\n"), None, "killed, not missing");
    }

    #[test]
    fn a_script_of_the_project_that_is_gone_is_a_failure_not_a_missing_tool() {
        // The check calls `./scripts/check.sh`, which the change moved.
        assert_eq!(missing_tool(Some(127), "sh: 1: ./scripts/check.sh: not found\n"), None);
        assert_eq!(missing_tool(Some(127), "/usr/bin/env: ‘./tools/gen’: No such file or directory\n"), None);
    }
}
