//! The real build tools, asked directly for the diagnostics the validation tests expect:
//! `cargo --message-format=short`, `javac -XDrawDiagnostics`, and the TypeScript compiler
//! API. Also the shared set-up they need: a primed offline Maven repository and the
//! fixture's `node_modules` with TypeScript.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use regex::Regex;

use crate::{Scratch, profile_dir, repo_root};

/// A diagnostic as the tool itself reports it: 0-based line, 0-based UTF-16 column.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Expected {
    /// Path relative to the project.
    pub path: String,
    /// 0-based line.
    pub line: u64,
    /// 0-based column in UTF-16 code units.
    pub character: u64,
    /// `error` or `warning`.
    pub severity: String,
    /// The tool's code, when it gives one.
    pub code: Option<String>,
}

fn run(command: &mut Command) -> Output {
    command.output().unwrap_or_else(|e| panic!("cannot run {command:?}: {e}"))
}

fn text(output: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr))
}

/// The UTF-16 column of char column `chars` (0-based) on `line` of `file`.
fn utf16_of_chars(file: &Path, line: u64, chars: u64) -> u64 {
    let content = std::fs::read_to_string(file).unwrap_or_default();
    let line = content.lines().nth(line as usize).unwrap_or_default();
    line.chars().take(chars as usize).map(|c| c.len_utf16() as u64).sum()
}

/// What `cargo check --all-targets --message-format=short` reports for the crate in
/// `project` (built in a target folder of its own, outside the project).
pub fn cargo_short(project: &Path, scratch_target: &Path) -> Vec<Expected> {
    let output = run(Command::new("cargo")
        .args(["check", "--all-targets", "--message-format=short", "--quiet"])
        .current_dir(project)
        .env("CARGO_TARGET_DIR", scratch_target)
        .env("CARGO_TERM_COLOR", "never"));
    let pattern =
        Regex::new(r"^(?P<file>[^:]+):(?P<line>\d+):(?P<col>\d+): (?P<sev>error|warning)(?:\[(?P<code>\w+)\])?: ")
            .unwrap();
    let mut found: Vec<Expected> = text(&output)
        .lines()
        .filter_map(|line| pattern.captures(line))
        .map(|c| {
            let path = c["file"].to_owned();
            let line: u64 = c["line"].parse::<u64>().unwrap() - 1;
            let chars = c["col"].parse::<u64>().unwrap() - 1;
            Expected {
                character: utf16_of_chars(&project.join(&path), line, chars),
                path,
                line,
                severity: c["sev"].to_owned(),
                code: c.name("code").map(|m| m.as_str().to_owned()),
            }
        })
        .collect();
    found.sort();
    found.dedup();
    found
}

/// What javac reports for `sources` (relative to `project`) with raw diagnostics, which
/// carry columns (UTF-16 units with tabs expanded to stops of 8, as javac counts them) and name files
/// by their file name only.
pub fn javac_raw(project: &Path, sources: &[&str], out: &Path) -> Vec<Expected> {
    let output =
        run(Command::new("javac").arg("-XDrawDiagnostics").arg("-d").arg(out).args(sources).current_dir(project));
    let pattern =
        Regex::new(r"^(?P<file>.+?\.java):(?P<line>\d+):(?P<col>\d+): compiler\.(?P<sev>err|warn)\.").unwrap();
    let mut found: Vec<Expected> = text(&output)
        .lines()
        .filter_map(|line| pattern.captures(line))
        .map(|c| {
            let named: Vec<&&str> =
                sources.iter().filter(|s| Path::new(s).file_name().unwrap() == &c["file"]).collect();
            assert_eq!(named.len(), 1, "give javac_raw sources with distinct file names");
            let path = (*named[0]).to_owned();
            let line: u64 = c["line"].parse::<u64>().unwrap() - 1;
            let tab_column = c["col"].parse::<u64>().unwrap() - 1;
            let content = std::fs::read_to_string(project.join(&path)).unwrap();
            let text = content.lines().nth(line as usize).unwrap_or_default();
            // Walk the line expanding tabs until the tool's column is reached.
            let (mut counted, mut utf16) = (0u64, 0u64);
            for c in text.chars() {
                if counted >= tab_column {
                    break;
                }
                counted = if c == '\t' { (counted / 8 + 1) * 8 } else { counted + c.len_utf16() as u64 };
                utf16 += c.len_utf16() as u64;
            }
            Expected {
                path,
                line,
                character: utf16,
                severity: if &c["sev"] == "err" { "error".into() } else { "warning".into() },
                code: None,
            }
        })
        .collect();
    found.sort();
    found
}

/// What the TypeScript compiler API reports for the project in `project` (its
/// `tsconfig.json`), through its own `node_modules/typescript`.
pub fn tsc_api(project: &Path) -> Vec<Expected> {
    let script = r#"
const ts = require(require.resolve("typescript", { paths: [process.cwd()] }));
const path = require("path");
const config = ts.getParsedCommandLineOfConfigFile("tsconfig.json", {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: d => { throw new Error(String(d.messageText)); } });
const program = ts.createProgram({ rootNames: config.fileNames, options: { ...config.options, noEmit: true } });
for (const d of ts.getPreEmitDiagnostics(program)) {
  if (!d.file) continue;
  const { line, character } = d.file.getLineAndCharacterOfPosition(d.start);
  const severity = d.category === ts.DiagnosticCategory.Error ? "error" : "warning";
  console.log(JSON.stringify({ path: path.relative(process.cwd(), d.file.fileName), line, character, severity, code: "TS" + d.code }));
}
"#;
    let output = run(Command::new("node").arg("-e").arg(script).current_dir(project));
    assert!(output.status.success(), "the TypeScript API script failed: {}", text(&output));
    let mut found: Vec<Expected> = String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(|line| {
            let v: serde_json::Value = serde_json::from_str(line).unwrap();
            Expected {
                path: v["path"].as_str().unwrap().to_owned(),
                line: v["line"].as_u64().unwrap(),
                character: v["character"].as_u64().unwrap(),
                severity: v["severity"].as_str().unwrap().to_owned(),
                code: v["code"].as_str().map(str::to_owned),
            }
        })
        .collect();
    found.sort();
    found
}

/// The diagnostics of `issuewright validate --json` as [`Expected`]s (placed ones only).
pub fn placed(diagnostics: &serde_json::Value) -> Vec<Expected> {
    let mut found: Vec<Expected> = diagnostics
        .as_array()
        .expect("an array")
        .iter()
        .filter(|d| d["path"].is_string() && (d["severity"] == "error" || d["severity"] == "warning"))
        .map(|d| Expected {
            path: d["path"].as_str().unwrap().to_owned(),
            line: d["range"]["start"]["line"].as_u64().unwrap(),
            character: d["range"]["start"]["character"].as_u64().unwrap(),
            severity: d["severity"].as_str().unwrap().to_owned(),
            code: d["code"].as_str().map(str::to_owned),
        })
        .collect();
    found.sort();
    found.dedup();
    found
}

/// Runs `issuewright validate --repo DIR ARGS` with the scratch environment.
pub fn validate_cli(scratch: &Scratch, dir: &Path, args: &[&str]) -> Output {
    validate_cli_with_env(scratch, dir, args, &[])
}

/// [`validate_cli`] with `env` added to the environment.
pub fn validate_cli_with_env(scratch: &Scratch, dir: &Path, args: &[&str], env: &[(&str, &str)]) -> Output {
    crate::issuewright_on(scratch, dir, &[&["validate"], args].concat(), env)
}

/// The fixture `node_modules` holding TypeScript and Node's types (installed by tests/run.sh).
pub fn typescript_modules() -> PathBuf {
    let modules = repo_root().join("tests/fixtures/typescript/node_modules");
    assert!(
        modules.join("typescript/package.json").is_file() && modules.join("@types/node/package.json").is_file(),
        "{} is missing; run `npm ci --prefix tests/fixtures/typescript` (tests/run.sh does)",
        modules.display()
    );
    modules
}

/// Links the TypeScript fixture's `node_modules` into `project`.
pub fn link_typescript(project: &Path) {
    std::os::unix::fs::symlink(typescript_modules(), project.join("node_modules")).expect("link node_modules");
}

const MAVEN_SETTINGS: &str = "<settings>\n  <localRepository>{repo}</localRepository>\n  <mirrors>\n    <mirror><id>debian</id><mirrorOf>*</mirrorOf><url>file:///usr/share/maven-repo</url></mirror>\n  </mirrors>\n</settings>\n";

/// A Cargo crate of its own (`[workspace]`: test folders sit inside issuewright's own workspace).
pub const CARGO_TOML: &str = "[package]\nname = \"tally\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[workspace]\n";

/// A pom for a JUnit 4 project built with Debian's packaged Maven plugins.
pub const MAVEN_POM: &str = r#"<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>com.acme</groupId>
  <artifactId>greeter</artifactId>
  <version>1.0</version>
  <properties>
    <maven.compiler.source>17</maven.compiler.source>
    <maven.compiler.target>17</maven.compiler.target>
    <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>
  </properties>
  <dependencies>
    <dependency><groupId>junit</groupId><artifactId>junit</artifactId><version>4.13.2</version><scope>test</scope></dependency>
  </dependencies>
</project>
"#;

/// Gives the scratch home a Maven configuration whose local repository is primed with
/// Debian's packaged plugins, so `mvn -o` works without a network. The repository is
/// shared by all tests and primed once (under a lock).
pub fn offline_maven(scratch: &Scratch) {
    let shared = profile_dir().parent().expect("target/").join("tmp").join("maven");
    std::fs::create_dir_all(&shared).unwrap();
    let repo = shared.join("repository");
    let settings = MAVEN_SETTINGS.replace("{repo}", &repo.to_string_lossy());
    let lock = std::fs::File::create(shared.join("lock")).unwrap();
    lock.lock().unwrap();
    if !shared.join("primed").exists() {
        // A priming that failed before (Debian's plugins not yet installed) leaves Maven's
        // record of what it could not find, which it would trust rather than look again.
        let _ = std::fs::remove_dir_all(&repo);
        let project = shared.join("prime");
        let _ = std::fs::remove_dir_all(&project);
        for (path, text) in [
            ("pom.xml", MAVEN_POM),
            ("src/main/java/com/acme/A.java", "package com.acme;\npublic class A { public int one() { return 1; } }\n"),
            (
                "src/test/java/com/acme/ATest.java",
                "package com.acme;\nimport org.junit.Test;\nimport static org.junit.Assert.assertEquals;\npublic class ATest { @Test public void one() { assertEquals(1, new A().one()); } }\n",
            ),
        ] {
            let file = project.join(path);
            std::fs::create_dir_all(file.parent().unwrap()).unwrap();
            std::fs::write(file, text).unwrap();
        }
        std::fs::write(shared.join("settings.xml"), &settings).unwrap();
        let output = run(Command::new("mvn")
            .args(["-q", "-B", "-s"])
            .arg(shared.join("settings.xml"))
            .arg("test")
            .current_dir(&project));
        assert!(
            output.status.success(),
            "priming the offline Maven repository failed (are Debian's maven, libmaven-compiler-plugin-java, libmaven-resources-plugin-java, libsurefire-java and junit4 installed? tests/run.sh installs them):\n{}",
            text(&output)
        );
        std::fs::write(shared.join("primed"), "").unwrap();
    }
    drop(lock);
    let m2 = scratch.home().join(".m2");
    std::fs::create_dir_all(&m2).unwrap();
    std::fs::write(m2.join("settings.xml"), settings).unwrap();
}
