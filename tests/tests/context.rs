//! Context gathering end to end: `issuewright context` and `index`, and the index a language
//! server keeps while the editor types.

use std::ffi::OsStr;
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::Command;

use issuewright_tests::lsp::{ClientOptions, LspClient};
use issuewright_tests::{
    Scratch, done, first_prompt, issuewright, issuewright_in, issuewright_on, issuewright_piped, ledger, replay,
    run_cli, run_report, tool_outputs, turn,
};
use serde_json::{Value, json};

/// A small crate: a few modules with a clear owner of `RateLimiter`, and filler modules.
fn crate_with_modules() -> Scratch {
    let mut files: Vec<(String, String)> = vec![
        ("Cargo.toml".into(), "[package]\nname = \"limits\"\nversion = \"0.1.0\"\n".into()),
        ("src/lib.rs".into(), "pub mod limiter;\npub mod clock;\n".into()),
        (
            "src/limiter.rs".into(),
            "use crate::clock::Clock;\n\n/// Limits requests per second.\npub struct RateLimiter { clock: Clock, per_second: u32 }\n\nimpl RateLimiter {\n    pub fn try_acquire(&mut self) -> bool { self.clock.now() > 0 }\n}\n".into(),
        ),
        ("src/clock.rs".into(), "pub struct Clock;\nimpl Clock { pub fn now(&self) -> u64 { 1 } }\n".into()),
        ("tests/limiter.rs".into(), "use limits::limiter::RateLimiter;\n#[test]\nfn acquire() {}\n".into()),
    ];
    for n in 0..22 {
        files.push((format!("src/filler{n}.rs"), format!("pub fn filler_{n}() -> u32 {{ {n} }}\n")));
    }
    let refs: Vec<(&str, &str)> = files.iter().map(|(p, t)| (p.as_str(), t.as_str())).collect();
    Scratch::new(&refs)
}

/// A large file about `RateLimiter`: 900 one-line functions that call `try_acquire`, after its
/// `use` line and a blank line (902 lines).
fn pool_of_900() -> String {
    let mut pool = String::from("use crate::limiter::RateLimiter;\n\n");
    for n in 0..900 {
        pool.push_str(&format!("pub fn acquire_{n}(limiter: &mut RateLimiter) -> bool {{ limiter.try_acquire() }}\n"));
    }
    pool
}

/// Writes the issue about `RateLimiter::try_acquire` to `ISSUE.md`, and gives its path.
fn limiter_issue(scratch: &Scratch) -> String {
    scratch.write("ISSUE.md", "RateLimiter::try_acquire should wait\nWhen the `RateLimiter` is exhausted, try_acquire returns false at once.\n");
    scratch.workspace().join("ISSUE.md").to_str().unwrap().to_owned()
}

fn cli(scratch: &Scratch, args: &[&str]) -> Value {
    let output = issuewright_on(scratch, &scratch.workspace(), args, &[]);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    serde_json::from_slice(&output.stdout).unwrap()
}

#[test]
fn a_file_listed_for_the_words_it_shares_opens_where_they_gather() {
    let walk = "//! The walk.\n\npub fn start() -> u8 {\n    0\n}\n\npub fn enter(depth: u8) -> u8 {\n    depth + 1\n}\n\n\
                /// Whether the walk stops: once the number of results reaches the limit.\n\
                pub fn stops(found: usize, limit: usize) -> bool {\n    found >= limit\n}\n";
    let scratch = Scratch::new(&[
        ("Cargo.toml", "[package]\nname = \"finder\"\nversion = \"0.1.0\"\n"),
        ("src/lib.rs", "pub mod walk;\n"),
        ("src/walk.rs", walk),
    ]);
    let ranked = cli(
        &scratch,
        &["context", "--json", "--issue", "Limit the number of results\n\nA limit on the results, please."],
    );
    let file = ranked["files"].as_array().unwrap().iter().find(|f| f["path"] == "src/walk.rs").expect("ranked").clone();
    assert!(file["reasons"][0].as_str().unwrap().starts_with("shares words with the issue"), "{file:#}");
    assert_eq!(file["line"], 11, "the comment of the function the words gather in: {file:#}");
}

#[test]
fn context_explains_why_a_file_ranks_where_it_does() {
    let scratch = crate_with_modules();
    let issue = limiter_issue(&scratch);
    let ranked = cli(
        &scratch,
        &["context", "--json", "--issue-file", &issue, "--explain", "./src/clock.rs", "--explain", "tests/limiter.rs"],
    );
    let files = ranked["files"].as_array().unwrap();
    let explained = ranked["explained"].as_array().unwrap();
    assert_eq!(explained.len(), 2, "{ranked:#}");
    for explanation in explained {
        let path = explanation["path"].as_str().unwrap();
        let place = files.iter().position(|f| f["path"] == path).expect("listed") + 1;
        assert_eq!(explanation["place"], place, "{explanation:#}");
        assert_eq!(explanation["score"], files[place - 1]["score"], "{explanation:#}");
        let parts = explanation["whole"]["parts"].as_array().unwrap();
        let signals: Vec<&str> = parts.iter().map(|p| p["signal"].as_str().unwrap()).collect();
        assert_eq!(signals, ["lexical", "symbols", "uses", "paths", "relations", "package", "parent", "prior"]);
    }
    assert_eq!(explained[0]["path"], "src/clock.rs");
    assert!(explained[0]["whole"]["sinks"].is_null(), "{:#}", explained[0]);
    assert_eq!(explained[1]["whole"]["sinks"], "test code (ranked down)", "{:#}", explained[1]);
    assert!(explained[1]["title"].is_null(), "no code block, so no title read alone");
    // In text, each part with its value and weight.
    let output = issuewright_on(
        &scratch,
        &scratch.workspace(),
        &["context", "--issue-file", &issue, "--explain", "src/clock.rs"],
        &[],
    );
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(text.contains("why src/clock.rs ranks "), "{text}");
    assert!(text.contains("  the whole issue: "), "{text}");
    // A path that is not ranked is an error that says why.
    for (given, why) in [("src/nope.rs", "no such file in"), ("Cargo.toml", "not indexed, so not ranked")] {
        let output = issuewright_on(
            &scratch,
            &scratch.workspace(),
            &["context", "--issue-file", &issue, "--explain", given],
            &[],
        );
        assert_eq!(output.status.code(), Some(1));
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains(&format!("--explain {given}: {why}")), "{stderr}");
    }
}

#[test]
fn context_ranks_every_file_with_reasons() {
    let scratch = crate_with_modules();
    let issue = limiter_issue(&scratch);
    let ranked = cli(&scratch, &["context", "--json", "--issue-file", &issue]);
    let files = ranked["files"].as_array().unwrap();
    assert!(files.len() >= 20, "at least 20 files where the repo has them: {}", files.len());
    assert_eq!(files[0]["path"], "src/limiter.rs", "{ranked:#}");
    assert_eq!(files[0]["line"], 7, "where `RateLimiter::try_acquire` is defined: {ranked:#}");
    let reasons: Vec<&str> = files[0]["reasons"].as_array().unwrap().iter().map(|r| r.as_str().unwrap()).collect();
    assert!(reasons.iter().any(|r| r.contains("defines `RateLimiter::try_acquire`")), "{reasons:?}");
    let test_rank = files.iter().position(|f| f["path"] == "tests/limiter.rs").unwrap();
    assert!(test_rank > 2, "tests sink: {test_rank}");
    assert!(files[0]["score"].as_f64().unwrap() > files[1]["score"].as_f64().unwrap());
    assert!(ranked["elapsed_ms"].as_u64().is_some());
    assert!(files.iter().all(|f| !f["path"].as_str().unwrap().contains('\\')), "POSIX paths");
}

#[test]
fn context_takes_the_issue_as_run_does() {
    let scratch = crate_with_modules();
    let sentence = "RateLimiter::try_acquire should wait";
    let typed = cli(&scratch, &["context", "--json", "--top", "3", "--issue", sentence]);
    assert_eq!(typed["files"][0]["path"], "src/limiter.rs", "{typed:#}");
    scratch.write("docs/ISSUE.md", &format!("{sentence}\nWhen it is exhausted, it returns false at once.\n"));
    let from_file = cli(&scratch, &["context", "--json", "--top", "3", "--issue", "@docs/ISSUE.md"]);
    assert_eq!(from_file["files"][0]["path"], "src/limiter.rs", "{from_file:#}");

    let context = |args: &[&str]| issuewright_on(&scratch, &scratch.workspace(), &[&["context"], args].concat(), &[]);
    let both = context(&["--issue", sentence, "--issue-file", "docs/ISSUE.md"]);
    assert!(!both.status.success());
    assert!(String::from_utf8_lossy(&both.stderr).contains("cannot be used with"), "{both:?}");
    let neither = context(&["--json"]);
    assert!(!neither.status.success());
    assert!(String::from_utf8_lossy(&neither.stderr).contains("--issue"), "{neither:?}");
    let missing = context(&["--issue", "@docs/NOPE.md"]);
    assert!(!missing.status.success());
    assert!(String::from_utf8_lossy(&missing.stderr).contains("cannot read issue file"), "{missing:?}");
    let wordless = context(&["--issue", "?!"]);
    assert!(wordless.status.success());
    assert!(String::from_utf8_lossy(&wordless.stderr).contains("the issue holds no words to rank by"), "{wordless:?}");

    // Without --repo, the folder it is started in is the repository, as for cargo.
    let here =
        issuewright_in(&scratch, &scratch.workspace().join("src"), ["context", "--json", "--issue", sentence], &[]);
    let here: Value = serde_json::from_slice(&here.stdout).unwrap_or_else(|e| panic!("{e}: {here:?}"));
    assert_eq!(here["files"][0]["path"], "limiter.rs", "ranked below src/: {here:#}");
}

#[test]
fn context_shows_what_the_issue_was_read_as() {
    let scratch = crate_with_modules();
    scratch.write(
        "ISSUE.md",
        "RateLimiter::try_acquire should wait\nSee src/limiter.rs:7; it fails with:\n\
         ```\nError: the limiter gave up waiting for permits\n\tat org.lib.Pool.take(Pool.java:3)\n```\n",
    );
    let read = cli(&scratch, &["context", "--json", "--top", "1", "--reading", "--issue", "@ISSUE.md"]);
    let reading = &read["reading"];
    let names: Vec<&str> = reading["names"].as_array().unwrap().iter().map(|n| n["name"].as_str().unwrap()).collect();
    assert!(names.contains(&"RateLimiter::try_acquire"), "{reading:#}");
    assert!(!names.iter().any(|name| name.contains("Pool") || name.contains("take")), "a library's frame: {reading:#}");
    assert_eq!(reading["paths"], json!([{"text": "src/limiter.rs", "weight": 0.8}]), "{reading:#}");
    assert_eq!(reading["lines"], json!(["src/limiter.rs:7"]), "{reading:#}");
    assert_eq!(reading["messages"], json!(["the limiter gave up waiting for permits"]), "{reading:#}");
    assert!(reading["words"].as_array().unwrap().len() <= 20, "{reading:#}");
    assert!(reading["titleAlone"]["names"].as_array().is_some_and(|names| !names.is_empty()), "{reading:#}");
    assert!(cli(&scratch, &["context", "--json", "--issue", "@ISSUE.md"]).get("reading").is_none(), "asked for only");

    let output = issuewright_on(&scratch, &scratch.workspace(), &["context", "--reading", "--issue", "@ISSUE.md"], &[]);
    assert!(output.status.success(), "{output:?}");
    let text = String::from_utf8_lossy(&output.stdout);
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some("read from the issue:"), "{text}");
    assert!(lines.next().is_some_and(|line| line.starts_with("  names: `")), "{text}");
    assert!(text.contains("\n  lines: src/limiter.rs:7\n"), "{text}");
    assert!(text.contains("\n  1. src/limiter.rs:7 "), "the ranking follows: {text}");
}

#[test]
fn context_shows_the_pack_a_run_starts_from_within_the_models_budget() {
    let scratch = crate_with_modules();
    // A large file about the issue: it fits a large model's budget in full, not a small one's.
    let pool = pool_of_900();
    scratch.write("src/pool.rs", &pool);
    let issue = &limiter_issue(&scratch);

    // The service is the user's choice, made in their own configuration.
    let user_config = scratch.home().join(".config/issuewright/config.toml");
    std::fs::create_dir_all(user_config.parent().unwrap()).unwrap();
    std::fs::write(&user_config, "[provider]\nkind = \"openai\"\n").unwrap();
    let large =
        cli(&scratch, &["context", "--json", "--top", "1", "--issue-file", issue, "--pack", "--model", "gpt-4o"]);
    assert_eq!(large["files"].as_array().unwrap().len(), 1, "--top limits the listing, not the pack");
    let pack = &large["pack"];
    assert_eq!(pack["model"], "gpt-4o");
    assert_eq!(pack["budgetTokens"], 32_000, "40% of what a 128k window leaves, at most 32k");
    assert!(pack["tokens"].as_u64().unwrap() <= 32_000, "{pack:#}");
    let full: Vec<&str> = pack["fullFiles"].as_array().unwrap().iter().map(|f| f.as_str().unwrap()).collect();
    assert_eq!(full[0], large["files"][0]["path"], "the best file comes first, in full");
    assert!(full.contains(&"src/limiter.rs") && full.contains(&"src/pool.rs"), "{full:?}");
    let text = pack["text"].as_str().unwrap();
    assert!(text.contains("### src/limiter.rs\n```\nuse crate::clock::Clock;\n"), "{text}");

    // A small window with a long answer leaves a small room: the pack takes two fifths of it, so
    // the first request fits beside the answer and the tools.
    let tiny = cli(&scratch, &["context", "--json", "--issue-file", issue, "--pack", "--model", "gemma-2-9b"]);
    let budget = tiny["pack"]["budgetTokens"].as_u64().unwrap();
    assert!(
        (800..=(8_192 - 4_096) * 40 / 100).contains(&budget),
        "{budget} of gemma's 8k window, 4k of it the answer's"
    );
    assert!(tiny["pack"]["tokens"].as_u64().unwrap() <= budget, "{:#}", tiny["pack"]);

    // A model the registry does not know gets a 32k window and 4k answers: the large file
    // moves to the map.
    // (A repository's model is for the default, local service.)
    std::fs::remove_file(&user_config).unwrap();
    scratch.write(".issuewright.toml", "[provider]\nmodel = \"some-local-model\"\n");
    let small = cli(&scratch, &["context", "--json", "--issue-file", issue, "--pack"]);
    let pack = &small["pack"];
    assert_eq!(pack["model"], "some-local-model", "the configured model");
    let budget = pack["budgetTokens"].as_u64().unwrap();
    assert!(
        (10_000..(32_768 - 4_096) * 40 / 100).contains(&budget),
        "{budget}: two fifths of the room beside the tools"
    );
    assert!(pack["tokens"].as_u64().unwrap() <= budget, "{pack:#}");

    // Ollama is asked to hold 32k whatever the model's own window: the pack is planned for
    // that, as the run plans it.
    std::fs::write(&user_config, "[provider]\nkind = \"ollama\"\n").unwrap();
    let local = cli(&scratch, &["context", "--json", "--issue-file", issue, "--pack", "--model", "llama3.1:8b"]);
    let local_budget = local["pack"]["budgetTokens"].as_u64().unwrap();
    assert!(local_budget < 32_768 * 40 / 100, "{local_budget}: not 32k of the model's 128k window");
    let full = pack["fullFiles"].as_array().unwrap();
    assert!(full.contains(&json!("src/limiter.rs")) && !full.contains(&json!("src/pool.rs")), "{pack:#}");
    assert!(pack["mappedFiles"].as_array().unwrap().contains(&json!("src/pool.rs")), "{pack:#}");
    assert!(pack["text"].as_str().unwrap().contains("src/pool.rs"), "the map names it");
    // It defines nothing the issue names but uses `try_acquire`: its first use is shown.
    assert_eq!(pack["partFiles"], json!(["src/pool.rs"]), "{pack:#}");
    let part = "### src/pool.rs [in part: 1 of its 902 lines, the parts the issue points at; read_file shows the rest]\n\
                lines 3-3:\n```\npub fn acquire_0(limiter: &mut RateLimiter) -> bool { limiter.try_acquire() }\n```\n";
    assert!(pack["text"].as_str().unwrap().contains(part), "{pack:#}");

    // When the issue names a function of the large file, that function is shown, with the
    // signatures of the rest in the map.
    scratch.write(
        "ISSUE.md",
        "acquire_450 should wait\n`acquire_450` returns false at once when the `RateLimiter` is exhausted.\n",
    );
    let named = cli(&scratch, &["context", "--json", "--issue-file", issue, "--pack"]);
    let pack = &named["pack"];
    assert_eq!(pack["partFiles"], json!(["src/pool.rs"]), "{pack:#}");
    assert!(pack["mappedFiles"].as_array().unwrap().contains(&json!("src/pool.rs")), "{pack:#}");
    let text = pack["text"].as_str().unwrap();
    let part = "### src/pool.rs [in part: 1 of its 902 lines, the parts the issue points at; read_file shows the rest]\n\
                lines 453-453:\n```\npub fn acquire_450(limiter: &mut RateLimiter) -> bool { limiter.try_acquire() }\n```\n";
    assert!(text.contains(part), "{text}");
    assert!(pack["tokens"].as_u64().unwrap() <= 9_830, "{pack:#}");
}

#[test]
fn the_packs_map_shows_the_signatures_the_shown_code_uses_first() {
    let scratch = crate_with_modules();
    // A clock too large for the pack in full, whose `now` the limiter calls, far down.
    let mut clock = String::from("pub struct Clock;\nimpl Clock {\n");
    for n in 0..900 {
        clock.push_str(&format!("    pub fn tick_{n}(&self) -> u64 {{ {n} }}\n"));
    }
    clock.push_str("    pub fn now(&self) -> u64 { 1 }\n}\n");
    scratch.write("src/clock.rs", &clock);
    let issue = limiter_issue(&scratch);
    let listed = cli(&scratch, &["context", "--json", "--issue-file", &issue, "--pack"]);
    let pack = &listed["pack"];
    assert_eq!(pack["fullFiles"][0], "src/limiter.rs", "{pack:#}");
    assert!(pack["mappedFiles"].as_array().unwrap().contains(&json!("src/clock.rs")), "{pack:#}");
    let text = pack["text"].as_str().unwrap();
    let entry = "src/clock.rs (`limits::clock`)\n      1: pub struct Clock\n    903: pub fn now(&self) -> u64\n      3: pub fn tick_0(&self) -> u64\n";
    assert!(text.contains(entry), "what `limiter.rs` uses comes first: {text}");
}

#[test]
fn files_the_issue_names_in_no_parsed_language_are_shown_as_text() {
    let scratch = crate_with_modules();
    scratch.write("README.md", "# limits\n\n    let mut limiter = RateLimiter::new(10);\n");
    scratch.write("editors/nvim/lua/limits/init.lua", "return { per_second = 10 }\n");
    scratch.write("docs/a/notes.md", "a\n");
    scratch.write("docs/b/notes.md", "b\n");
    scratch.write(".env", "LIMITS_TOKEN=secret\n");
    let issue = "The README.md example of RateLimiter does not compile\n\
                 Its `init.lua` says per_second, see notes.md; my .env is set.";

    let ranked = cli(&scratch, &["context", "--json", "--issue", issue]);
    let named: Vec<&str> = ranked["named"].as_array().unwrap().iter().map(|f| f["path"].as_str().unwrap()).collect();
    assert_eq!(named, ["README.md", "editors/nvim/lua/limits/init.lua"], "{ranked:#}");
    assert!(ranked["named"][1]["reasons"][0].as_str().unwrap().contains("the one file so named"), "{ranked:#}");
    assert_eq!(ranked["files"][0]["path"], "src/limiter.rs", "the code is ranked as before: {ranked:#}");

    let packed = cli(&scratch, &["context", "--json", "--issue", issue, "--pack", "--model", "gpt-4o"]);
    let full: Vec<&str> = packed["pack"]["fullFiles"].as_array().unwrap().iter().map(|f| f.as_str().unwrap()).collect();
    assert_eq!(full[..3], ["README.md", "editors/nvim/lua/limits/init.lua", "src/limiter.rs"], "{packed:#}");
    let text = packed["pack"]["text"].as_str().unwrap();
    assert!(text.contains("### README.md [named in the issue]\n```\n# limits\n"), "{text}");
    assert!(!text.contains("secret"), "a file that may hold secrets is never shown: {text}");

    let output = issuewright_on(&scratch, &scratch.workspace(), &["context", "--top", "1", "--issue", issue], &[]);
    let listing = String::from_utf8_lossy(&output.stdout);
    assert!(listing.starts_with("  named: README.md\n"), "{listing}");
    assert_eq!(packed["pack"]["modelKnown"], true, "{packed:#}");

    // A model the registry does not list is said to be guessed at.
    let args = ["context", "--top", "1", "--issue", issue, "--pack", "--model", "my-finetune"];
    let output = issuewright_on(&scratch, &scratch.workspace(), &args, &[]);
    let said = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{said}");
    assert!(
        said.contains("`my-finetune` is not a model issuewright knows: its context window is taken as 32768 tokens"),
        "{said}"
    );

    // A line given with the name is kept where the file has it.
    let issue = "README.md:3 does not compile";
    let ranked = cli(&scratch, &["context", "--json", "--issue", issue]);
    assert_eq!(ranked["named"][0]["line"], 3, "{ranked:#}");
    let output = issuewright_on(&scratch, &scratch.workspace(), &["context", "--top", "1", "--issue", issue], &[]);
    let listing = String::from_utf8_lossy(&output.stdout);
    assert!(listing.starts_with("  named: README.md:3\n"), "{listing}");
}

#[test]
fn context_says_when_there_is_nothing_to_rank_or_list() {
    let scratch = Scratch::new(&[("docs/guide.md", "# Guide\n"), ("ISSUE.md", "Crash\nIt crashes.\n")]);
    // `context --json` for the issue saved under `name` with `bytes`: its report and what it said.
    let rank_for = |name: &str, bytes: &[u8]| {
        let issue = scratch.workspace().join(name);
        std::fs::write(&issue, bytes).unwrap();
        let output = issuewright_on(
            &scratch,
            &scratch.workspace(),
            &["context", "--json", "--issue-file", issue.to_str().unwrap()],
            &[],
        );
        assert!(output.status.success());
        let report: Value = serde_json::from_slice(&output.stdout).unwrap();
        (report, String::from_utf8_lossy(&output.stderr).into_owned())
    };
    let (report, stderr) = rank_for("ISSUE.md", b"Crash\nIt crashes.\n");
    assert_eq!(report["files"], json!([]));
    assert!(stderr.contains("holds no source file to rank"), "{stderr}");

    // An issue saved in another encoding is read for its ASCII words, and said to be so.
    scratch.write("src/parser.rs", "pub fn parse_header() {}\n");
    let (report, stderr) = rank_for("LATIN1.md", b"Caf\xe9 menu: parse_header fails\n");
    assert_eq!(report["files"][0]["path"], "src/parser.rs", "{report}");
    assert!(stderr.contains("LATIN1.md is not UTF-8 text") && stderr.contains("save it as UTF-8"), "{stderr}");
    let (_, stderr) = rank_for("BOM.md", b"\xEF\xBB\xBFparse_header fails\n");
    assert!(!stderr.contains("not UTF-8"), "a byte-order mark is UTF-8");
    // As Windows tools save it: UTF-16 with its mark, read as `@FILE` reads it.
    let utf16: Vec<u8> = b"\xFF\xFE"
        .iter()
        .copied()
        .chain("Größe: parse_header fails\n".encode_utf16().flat_map(u16::to_le_bytes))
        .collect();
    let (report, stderr) = rank_for("UTF16.md", &utf16);
    assert_eq!(report["files"][0]["path"], "src/parser.rs", "{report}");
    assert!(!stderr.contains("not UTF-8"), "{stderr}");

    let issue = scratch.workspace().join("ISSUE.md");
    let issue = issue.to_str().unwrap();
    let zero = issuewright_on(&scratch, &scratch.workspace(), &["context", "--top", "0", "--issue-file", issue], &[]);
    assert!(!zero.status.success());
    let stderr = String::from_utf8_lossy(&zero.stderr);
    assert!(stderr.contains("0 lists nothing; give how many files to list, 1 or more"), "{stderr}");
}

#[test]
fn index_reports_counts_per_language() {
    let scratch = crate_with_modules();
    scratch.write("web/app.ts", "export function start(): void {}\nexport class App {}\n");
    scratch.write("web/broken.ts", "export function (((\n");
    scratch.write("web/package.json", "{ \"name\": \"@limits/web\" }\n");
    let report = cli(&scratch, &["index", "--json", "--no-cache"]);
    assert_eq!(report["files"], 28);
    assert_eq!(report["languages"]["rust"]["files"], 26);
    assert_eq!(report["languages"]["typescript"]["definitions"], 2);
    assert!(report["languages"]["typescript"]["parse_errors"].as_u64().unwrap() > 0);
    let broken = report["parseErrors"].as_array().unwrap();
    assert_eq!(broken.len(), 1, "{broken:?}");
    assert_eq!(broken[0]["path"], "web/broken.ts");
    assert!(broken[0]["errors"].as_u64().unwrap() > 0);
    assert_eq!(report["crates"][0]["name"], "limits");
    assert_eq!(
        report["crates"][0]["roots"],
        json!([{"name": "limits", "path": "src/lib.rs"}]),
        "not the `src/main.rs` the manifest implies but the tree lacks"
    );
    assert_eq!(report["packages"], json!([{"dir": "web", "name": "@limits/web"}]));
    assert_eq!(report["cacheHits"], 0);
    assert_eq!(report["cacheReadMs"], Value::Null, "no cache is read with --no-cache");
}

#[test]
fn a_project_in_a_folder_whose_name_is_not_utf8_is_indexed_and_ranked() {
    use std::os::unix::ffi::OsStrExt;
    let scratch = Scratch::new(&[]);
    // A folder named in Latin-1 (`café`), as an old archive unpacks.
    let project = scratch.workspace().join(OsStr::from_bytes(b"caf\xe9"));
    std::fs::create_dir_all(project.join("src")).unwrap();
    std::fs::write(project.join("src/lib.rs"), "pub fn brew_coffee() -> u32 {\n    1\n}\n").unwrap();
    std::fs::write(project.join("ISSUE.md"), "# brew_coffee returns 1\n").unwrap();
    let index = issuewright_on(&scratch, &project, &["index", "--json", "--no-cache"], &[]);
    assert!(index.status.success(), "{}", String::from_utf8_lossy(&index.stderr));
    let report: Value = serde_json::from_slice(&index.stdout).unwrap();
    assert_eq!(report["files"], 1);
    assert!(report["root"].as_str().unwrap().ends_with("caf\u{fffd}"), "{}", report["root"]);
    // Both given as paths in that folder, and the folder taken as the current one.
    let issue = project.join("ISSUE.md");
    let args = [OsStr::new("context"), OsStr::new("--json"), OsStr::new("--issue-file"), issue.as_os_str()];
    for (cwd, repo) in [(scratch.workspace(), Some(project.as_os_str())), (project.clone(), None)] {
        let args = args.iter().copied().chain(repo.map(|repo| [OsStr::new("--repo"), repo]).into_iter().flatten());
        let context = issuewright_in(&scratch, &cwd, args, &[]);
        assert!(context.status.success(), "{}", String::from_utf8_lossy(&context.stderr));
        let ranked: Value = serde_json::from_slice(&context.stdout).unwrap();
        assert_eq!(ranked["files"][0]["path"], "src/lib.rs", "{ranked}");
    }
}

#[test]
fn index_names_ten_skipped_files_and_counts_the_rest() {
    let scratch = crate_with_modules();
    let highlighted = "\x1b[38;5;203mfn\x1b[0m \x1b[38;5;149mmain\x1b[0m() {}\n".repeat(8);
    for n in 0..12 {
        scratch.write(&format!("tests/highlighted/output{n:02}.rs"), &highlighted);
    }
    let output = issuewright_on(&scratch, &scratch.workspace(), &["index", "--no-cache"], &[]);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let report = String::from_utf8_lossy(&output.stdout);
    let named: Vec<&str> = report.lines().filter(|line| line.starts_with("  skipped ")).collect();
    assert_eq!(named.len(), 10, "{report}");
    assert_eq!(named[0], "  skipped tests/highlighted/output00.rs: terminal output (32 control characters in 8 lines)");
    assert!(report.contains("\n  and 2 more skipped (--json lists them all)\n"), "{report}");
    let json = cli(&scratch, &["index", "--json", "--no-cache"]);
    assert_eq!(json["skipped"].as_array().map(Vec::len), Some(12), "{json}");
}

/// A restart reads unchanged files from the on-disk cache, and writes the cache again only
/// when what it should hold changed: a large workspace's cache takes a while to write.
#[test]
fn the_index_cache_is_written_again_only_when_it_changes() {
    use std::os::unix::fs::MetadataExt;
    let scratch = crate_with_modules();
    // Not written in the seconds before: the files' times can be trusted from the start.
    sources_modified_an_hour_ago(&scratch);
    let first = cli(&scratch, &["index", "--json"]);
    assert_eq!(first["cacheHits"], 0);
    let folder = scratch.home().join(".cache/issuewright/index");
    let cache: Vec<_> = std::fs::read_dir(&folder).unwrap().flatten().map(|entry| entry.path()).collect();
    assert_eq!(cache.len(), 1, "{cache:?}");
    // A cache is written to a new file and renamed into place, so a write gives a new inode.
    let written = || std::fs::metadata(&cache[0]).unwrap().ino();
    let before = written();

    let unchanged = cli(&scratch, &["index", "--json"]);
    assert_eq!(unchanged["cacheHits"], unchanged["files"], "every file comes from the cache");
    assert!(unchanged["cacheReadMs"].is_u64(), "the time the cache took to read is told: {unchanged}");
    assert_eq!(written(), before, "nothing changed, so the cache is left as it was");

    scratch.write("src/clock.rs", "pub struct Clock;\nimpl Clock { pub fn now(&self) -> u64 { 2 } }\n");
    sources_modified_an_hour_ago(&scratch);
    let edited = cli(&scratch, &["index", "--json"]);
    assert_eq!(edited["cacheHits"].as_u64().unwrap() + 1, edited["files"].as_u64().unwrap());
    assert_ne!(written(), before, "the edited file's new reading is kept");
    let after_edit = written();
    assert_eq!(cli(&scratch, &["index", "--json"])["cacheHits"], edited["files"]);
    assert_eq!(written(), after_edit);

    std::fs::remove_file(scratch.workspace().join("src/filler3.rs")).unwrap();
    let removed = cli(&scratch, &["index", "--json"]);
    assert_eq!(removed["cacheHits"], removed["files"]);
    assert_ne!(written(), after_edit, "the removed file's reading is dropped from the cache");
}

/// Sets the modification time of every source file of `scratch` an hour back (see
/// [`Scratch::modified_an_hour_ago`]).
fn sources_modified_an_hour_ago(scratch: &Scratch) {
    for folder in ["src", "tests"] {
        for entry in std::fs::read_dir(scratch.workspace().join(folder)).unwrap().flatten() {
            scratch.modified_an_hour_ago(&format!("{folder}/{}", entry.file_name().to_string_lossy()));
        }
    }
}

/// As git does for its work tree, a restart takes a file whose size and modification time
/// are as cached without reading it; a file changed since is read again.
#[test]
fn a_restart_reads_no_file_unchanged_on_disk() {
    let scratch = crate_with_modules();
    sources_modified_an_hour_ago(&scratch);
    let first = cli(&scratch, &["index", "--json"]);
    assert_eq!((first["cacheHits"].as_u64(), first["cacheUnread"].as_u64()), (Some(0), Some(0)));
    let second = cli(&scratch, &["index", "--json"]);
    assert_eq!(second["cacheUnread"], second["files"], "no file read: {second}");

    scratch.write("src/clock.rs", "pub struct Clock;\nimpl Clock { pub fn now(&self) -> u64 { 2 } }\n");
    let third = cli(&scratch, &["index", "--json"]);
    assert_eq!(third["cacheUnread"].as_u64().unwrap() + 1, third["files"].as_u64().unwrap(), "{third}");
    assert_eq!(third["cacheHits"], third["cacheUnread"], "the changed file is parsed again");
}

/// `issuewright context ... | head -1`: when the reader leaves after one line, the command
/// ends quietly and with success, not with a panic's backtrace.
#[test]
fn a_reader_that_stops_early_ends_the_listing_quietly() {
    let mut files = vec![("Cargo.toml".to_owned(), "[package]\nname = \"limits\"\nversion = \"0.1.0\"\n".to_owned())];
    for n in 0..1500 {
        files.push((format!("src/limiter_{n}.rs"), format!("pub fn limiter_{n}() -> u32 {{ {n} }}\n")));
    }
    let refs: Vec<(&str, &str)> = files.iter().map(|(p, t)| (p.as_str(), t.as_str())).collect();
    let scratch = Scratch::new(&refs);
    // 1,500 listed files are far more than a pipe holds, so the command is still writing when
    // the reader goes.
    let whole = issuewright(&scratch, ["context", "--issue", "the limiter is slow", "--top", "1500"], &[]);
    assert!(whole.stdout.len() > 65_536, "the listing outgrows a pipe: {} bytes", whole.stdout.len());
    let mut child = issuewright_piped(&scratch, ["context", "--issue", "the limiter is slow", "--top", "1500"]);
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut first).unwrap();
    let output = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(first.starts_with("  1. src/limiter_"), "{first}");
    assert!(output.status.success(), "{:?}: {stderr}", output.status);
    assert!(!stderr.contains("panicked"), "{stderr}");

    // Nor does a closed standard error stop it (`2>&1 | head` closes both).
    let mut child = issuewright_piped(&scratch, ["context", "--issue", "the limiter is slow", "--top", "3"]);
    drop(child.stderr.take());
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success(), "{:?}", output.status);
    assert_eq!(String::from_utf8_lossy(&output.stdout).lines().count(), 3 * 2, "each file and its reason");
}

#[test]
fn a_tree_past_the_file_limit_is_indexed_in_part_and_says_so() {
    let scratch = crate_with_modules();
    let output = issuewright_on(
        &scratch,
        &scratch.workspace(),
        &["index", "--json", "--no-cache"],
        &[("ISSUEWRIGHT_MAX_INDEXED_FILES", "5")],
    );
    assert!(output.status.success());
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!((report["files"].as_u64(), report["fileLimit"].as_u64()), (Some(5), Some(5)), "{report}");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("holds more than 5 source files; the index stopped there"), "{stderr}");
    assert_eq!(cli(&scratch, &["index", "--json", "--no-cache"])["fileLimit"], Value::Null, "within the limit");
    let unlimited = issuewright_on(
        &scratch,
        &scratch.workspace(),
        &["index", "--json", "--no-cache"],
        &[("ISSUEWRIGHT_MAX_INDEXED_FILES", "0")],
    );
    let unlimited: Value = serde_json::from_slice(&unlimited.stdout).unwrap();
    assert_eq!((unlimited["files"].as_u64(), &unlimited["fileLimit"]), (Some(26), &Value::Null), "0 lifts the limit");
    let misspelt = issuewright_on(
        &scratch,
        &scratch.workspace(),
        &["index", "--json", "--no-cache"],
        &[("ISSUEWRIGHT_MAX_INDEXED_FILES", "5k")],
    );
    let stderr = String::from_utf8_lossy(&misspelt.stderr);
    assert!(stderr.contains("ISSUEWRIGHT_MAX_INDEXED_FILES is `5k`, not a number of files"), "{stderr}");

    // The editor hears it once the index is built.
    let options =
        ClientOptions { env: vec![("ISSUEWRIGHT_MAX_INDEXED_FILES".into(), "5".into())], ..Default::default() };
    let mut client = LspClient::start(&scratch, options);
    let warning = client.wait_for_notification(|n| n["method"] == "window/showMessage");
    let message = warning["params"]["message"].as_str().unwrap();
    assert_eq!(warning["params"]["type"], 2, "{warning}");
    assert!(message.contains("the index stopped there and is incomplete. Open the project's own folder"), "{message}");
}

#[test]
fn a_run_sees_what_the_editor_just_typed() {
    let scratch = crate_with_modules();
    scratch.write(
        "replay.jsonl",
        &replay(&[
            turn(&[
                ("find_symbol", json!({"name": "refill"})),
                ("grep", json!({"pattern": "fn refill", "path": "src"})),
                ("grep", json!({"pattern": "slowly", "path": "src/refill_policy.rs"})),
            ]),
            done("looked"),
        ]),
    );
    let mut client = LspClient::start(&scratch, ClientOptions::default());
    let text = scratch.read("src/clock.rs").unwrap();
    client.open("src/clock.rs", &text);
    let end = text.len();
    client.edit("src/clock.rs", end, end, "pub fn refill(limiter: &mut u32) {}\n");
    // A new file the editor holds and has never saved is searched too.
    client.open(
        "src/refill_policy.rs",
        "pub fn refill_slowly() {}\npub fn top_up(n: &mut u32) { crate::clock::refill(n) }\n",
    );
    // So is a file the issue names that the index does not parse.
    client.open("docs/refill.md", "# Refill\n\nTop up one token a second.\n");
    let (run_id, status) = client.run_issue("Add refill to `RateLimiter` as docs/refill.md says", "replay.jsonl");
    assert_eq!(status["state"], "ready", "{status}");

    let events = ledger(&scratch.workspace(), &run_id);
    let results = tool_outputs(&events);
    assert!(
        results[0].starts_with("`refill` is defined at:\nsrc/clock.rs:3: pub fn refill(limiter: &mut u32)"),
        "{}",
        results[0]
    );
    assert!(
        results[0].ends_with(
            "used in:\nsrc/refill_policy.rs (1 use)\n      2: pub fn top_up(n: &mut u32) { crate::clock::refill(n) }  [in `top_up`]\n"
        ),
        "the lines of its uses, in a buffer never saved: {}",
        results[0]
    );
    assert_eq!(
        results[1],
        "src/clock.rs:3: pub fn refill(limiter: &mut u32) {}\nsrc/refill_policy.rs:1: pub fn refill_slowly() {}\n",
        "grep reads the buffers too, a new one never saved among them"
    );
    assert!(!scratch.workspace().join("src/refill_policy.rs").exists());
    assert_eq!(results[2], "src/refill_policy.rs:1: pub fn refill_slowly() {}\n", "or named alone");

    let pack = events.iter().find(|e| e["event"] == "context_pack").expect("the pack is recorded");
    assert_eq!(pack["full_files"][0], "docs/refill.md", "{pack}");
    assert_eq!(pack["full_files"][1], "src/limiter.rs", "{pack}");
    let prompt = first_prompt(&events);
    assert!(prompt.contains("### src/limiter.rs\n```\nuse crate::clock::Clock;"), "{prompt}");
    assert!(
        prompt.contains("### docs/refill.md [named in the issue]\n```\n# Refill\n\nTop up one token a second.\n```"),
        "{prompt}"
    );
    assert!(!scratch.workspace().join("docs").exists(), "the buffer is never written");
}

#[test]
fn the_editor_is_shown_the_context_a_run_would_start_from() {
    let scratch = crate_with_modules();
    scratch.write("replay.jsonl", &replay(&[done("looked")]));
    let mut client = LspClient::start(&scratch, ClientOptions::default());
    // Typed, not saved: the preview reads the editor's buffers, as a run does.
    let text = scratch.read("src/clock.rs").unwrap();
    client.open("src/clock.rs", &text);
    client.edit("src/clock.rs", text.len(), text.len(), "pub fn refill_tokens(limiter: &mut u32) {}\n");
    let issue = "RateLimiter::try_acquire should wait\nCall `refill_tokens` before giving up in try_acquire.";

    let shown = client.command("issuewright.context", json!({"issue": issue, "top": 3})).unwrap();
    let files = shown["files"].as_array().unwrap();
    assert_eq!(files.len(), 3, "{shown:#}");
    assert_eq!(files[0]["path"], "src/limiter.rs", "{shown:#}");
    assert_eq!(files[0]["inPack"], "full");
    let uri = files[0]["uri"].as_str().unwrap();
    assert!(uri.starts_with("file://") && uri.ends_with("/src/limiter.rs"), "{uri}");
    assert_eq!(files[0]["line"], 7, "where its best reason points: {shown:#}");
    let clock = files.iter().find(|f| f["path"] == "src/clock.rs").unwrap_or_else(|| panic!("{shown:#}"));
    let reasons: Vec<&str> = clock["reasons"].as_array().unwrap().iter().map(|r| r.as_str().unwrap()).collect();
    assert!(reasons.iter().any(|r| r.contains("`refill_tokens`")), "the unsaved definition counts: {reasons:?}");
    assert_eq!(shown["indexedFiles"], 26);
    let budget = shown["budgetTokens"].as_u64().unwrap();
    assert!(budget > 0 && shown["packTokens"].as_u64().unwrap() <= budget, "{shown:#}");
    assert!(shown["model"].as_str().is_some_and(|m| !m.is_empty()), "{shown:#}");
    assert_eq!(shown["notes"], json!([]));
    assert_eq!(shown["named"], json!([]), "the issue names no other file");
    let names: Vec<&str> =
        shown["reading"]["names"].as_array().unwrap().iter().map(|n| n["name"].as_str().unwrap()).collect();
    assert!(names.contains(&"RateLimiter::try_acquire") && names.contains(&"refill_tokens"), "{shown:#}");

    // Why a file ranks where it does, by a workspace path or a URI; the unsaved buffer counts.
    let clock_uri = uri.replace("/src/limiter.rs", "/src/clock.rs");
    let why = client
        .command("issuewright.context", json!({"issue": issue, "top": 1, "explain": ["src/clock.rs", clock_uri]}))
        .unwrap();
    let explained = why["explained"].as_array().unwrap();
    assert_eq!(explained.len(), 2, "{why:#}");
    assert_eq!(explained[0], explained[1], "a path and its URI are one file");
    let listed = files.iter().position(|f| f["path"] == "src/clock.rs").map(|at| at + 1);
    assert_eq!(explained[0]["place"].as_u64().map(|place| place as usize), listed, "{why:#}");
    let symbols = &explained[0]["whole"]["parts"][1];
    assert_eq!(symbols["signal"], "symbols");
    assert!(symbols["value"].as_f64().unwrap() > 0.0, "it defines the unsaved `refill_tokens`: {why:#}");
    assert!(explained[0]["lines"][0].as_str().unwrap().starts_with("why src/clock.rs ranks "), "{why:#}");
    for (path, said) in [("src/nope.rs", "src/nope.rs: no such file in"), ("../outside.rs", "outside.rs")] {
        let error = client.command("issuewright.context", json!({"issue": issue, "explain": [path]})).unwrap_err();
        assert!(error["message"].as_str().unwrap().contains(said), "{error}");
    }

    // A run for the same issue starts from exactly the files shown in full.
    let every = client.command("issuewright.context", json!({"issue": issue, "top": 100})).unwrap();
    let shown_full: Vec<&Value> =
        every["files"].as_array().unwrap().iter().filter(|f| f["inPack"] == "full").map(|f| &f["path"]).collect();
    let (run_id, status) = client.run_issue(issue, "replay.jsonl");
    assert_eq!(status["state"], "ready", "{status}");
    let events = ledger(&scratch.workspace(), &run_id);
    let pack = events.iter().find(|e| e["event"] == "context_pack").expect("the pack is recorded");
    let run_full: Vec<&Value> = pack["full_files"].as_array().unwrap().iter().collect();
    assert_eq!(shown_full, run_full);
    // The pack shown is the one the run's first prompt holds, word for word.
    let prompt = first_prompt(&events);
    let pack_text = every["packText"].as_str().unwrap();
    assert!(pack_text.contains("### src/limiter.rs\n```\n") && prompt.ends_with(pack_text), "{prompt}");
    let shown_mapped = every["files"].as_array().unwrap().iter().filter(|f| f["inPack"] == "map").count();
    assert_eq!(shown_mapped, pack["mapped_files"].as_array().unwrap().len());
    assert_eq!(every["filesInMap"], shown_mapped);

    // What cannot be shown says why, and the server goes on.
    let zero = client.command("issuewright.context", json!({"issue": issue, "top": 0})).unwrap_err();
    assert!(zero["message"].as_str().unwrap().contains("`top` 0 lists nothing"), "{zero}");
    let empty = client.command("issuewright.context", json!({"issue": "  "})).unwrap_err();
    assert!(empty["message"].as_str().unwrap().contains("the issue is empty"), "{empty}");
    let wordless = client.command("issuewright.context", json!({"issue": "?!"})).unwrap();
    assert!(wordless["notes"][0].as_str().unwrap().contains("no words to rank by"), "{wordless:#}");

    // A file the issue names that the index does not parse is listed apart, and shown first.
    scratch.write("README.md", "# limits\nCall try_acquire.\n");
    let readme_issue = format!("{issue}\nREADME.md says so.");
    let readme = client.command("issuewright.context", json!({"issue": readme_issue})).unwrap();
    let named = &readme["named"][0];
    assert_eq!(named["path"], "README.md", "{readme:#}");
    assert_eq!(named["inPack"], "full");
    assert!(named["uri"].as_str().unwrap().ends_with("/README.md"), "{named}");
    assert!(named["reasons"][0].as_str().unwrap().contains("not code the index parses"), "{named}");
    let (run_id, status) = client.run_issue(&readme_issue, "replay.jsonl");
    assert_eq!(status["state"], "ready", "{status}");
    let events = ledger(&scratch.workspace(), &run_id);
    let pack = events.iter().find(|e| e["event"] == "context_pack").expect("the pack is recorded");
    assert_eq!(pack["full_files"][0], "README.md", "the run's first prompt shows it first: {pack}");
}

/// Writes `first.jsonl` and `second.jsonl`, replays of a run that looks `RateLimiter` up.
fn write_lookups(scratch: &Scratch) {
    let looking = replay(&[turn(&[("find_symbol", json!({"name": "RateLimiter"}))]), done("looked")]);
    scratch.write("first.jsonl", &looking);
    scratch.write("second.jsonl", &looking);
}

/// What `find_symbol` answered in the run `run_id`.
fn symbol_result(scratch: &Scratch, run_id: &str) -> String {
    let events = ledger(&scratch.workspace(), run_id);
    let result = events.iter().find(|e| e["event"] == "tool_result").expect("find_symbol answered");
    result["output"].as_str().unwrap().to_owned()
}

/// A client that watches files, started on `scratch`, and what `find_symbol` answered in its
/// first run (`first.jsonl`).
/// A client started with `options` that watches files for the server, once the server has
/// registered its watchers.
fn watching_files(scratch: &Scratch, mut options: ClientOptions) -> LspClient {
    options.capabilities["workspace"]["didChangeWatchedFiles"] = json!({"dynamicRegistration": true});
    let mut client = LspClient::start(scratch, options);
    client.wait_for_server_request("client/registerCapability");
    client
}

fn look_up_while_watching(scratch: &Scratch) -> (LspClient, String) {
    let mut client = watching_files(scratch, ClientOptions::default());
    let (first, _) = client.run_issue("Where is `RateLimiter`?", "first.jsonl");
    (client, symbol_result(scratch, &first))
}

/// What `find_symbol` answers in a second run (`second.jsonl`), after the client reported
/// `changes` (workspace paths with their LSP change types: 1 created, 2 changed, 3 deleted).
fn look_up_after_changes(scratch: &Scratch, client: &mut LspClient, changes: &[(&str, u8)]) -> String {
    let changes: Vec<Value> = changes
        .iter()
        .map(|(path, kind)| json!({"uri": issuewright_tests::uri_of(&scratch.workspace().join(path)), "type": kind}))
        .collect();
    client.notify("workspace/didChangeWatchedFiles", json!({"changes": changes}));
    look_up_again(scratch, client)
}

/// What `find_symbol` answers in a second run (`second.jsonl`).
fn look_up_again(scratch: &Scratch, client: &mut LspClient) -> String {
    let (second, _) = client.run_issue("Where is `RateLimiter`?", "second.jsonl");
    symbol_result(scratch, &second)
}

#[test]
fn a_saved_manifest_renames_the_crate_for_the_next_run() {
    let scratch = crate_with_modules();
    write_lookups(&scratch);
    let mut client = LspClient::start(&scratch, ClientOptions::default());
    let (first, _) = client.run_issue("Where is `RateLimiter`?", "first.jsonl");
    let before = symbol_result(&scratch, &first);
    assert!(before.contains("src/limiter.rs:4: pub struct RateLimiter (in `limits::limiter`)"), "{before}");

    // Saved in the editor, as a client that watches no files reports it.
    scratch.write("Cargo.toml", "[package]\nname = \"limits\"\nversion = \"0.1.0\"\n[lib]\nname = \"throttle\"\n");
    client.save("Cargo.toml");
    let after = look_up_again(&scratch, &mut client);
    assert!(after.contains("src/limiter.rs:4: pub struct RateLimiter (in `throttle::limiter`)"), "{after}");
}

#[test]
fn a_document_grown_past_the_size_limit_and_saved_leaves_the_index_without_a_watcher() {
    let scratch = crate_with_modules();
    write_lookups(&scratch);
    let mut client = LspClient::start(&scratch, ClientOptions::default());
    let text = scratch.read("src/limiter.rs").unwrap();
    client.open("src/limiter.rs", &text);
    // Pasted data makes it larger than the index takes; the disk's text stands in meanwhile.
    let padding = "// 0123456789 0123456789 0123456789 0123456789 0123456789 0123456789\n".repeat(16_000);
    client.edit("src/limiter.rs", 0, 0, &padding);
    let (first, _) = client.run_issue("Where is `RateLimiter`?", "first.jsonl");
    let before = symbol_result(&scratch, &first);
    assert!(before.contains("src/limiter.rs:4: pub struct RateLimiter"), "unsaved, the disk's text: {before}");

    // Saved, as a client that watches no files reports it, and closed.
    client.save("src/limiter.rs");
    client.close("src/limiter.rs");
    let after = look_up_again(&scratch, &mut client);
    assert!(!after.contains("src/limiter.rs:4:"), "what the disk held before is gone: {after}");
}

#[test]
fn a_change_reported_for_the_workspace_itself_reads_it_again() {
    let scratch = crate_with_modules();
    write_lookups(&scratch);
    let (mut client, before) = look_up_while_watching(&scratch);
    assert!(before.contains("src/limiter.rs:4: pub struct RateLimiter"), "{before}");
    // A branch switched outside the editor, reported as a change of the workspace folder.
    std::fs::remove_file(scratch.workspace().join("src/limiter.rs")).unwrap();
    let after = look_up_after_changes(&scratch, &mut client, &[("", 2)]);
    assert!(!after.contains("src/limiter.rs"), "the deleted file is forgotten: {after}");
}

#[test]
fn files_the_users_global_git_excludes_name_stay_out_when_they_appear_later() {
    let scratch = crate_with_modules();
    write_lookups(&scratch);
    // `core.excludesFile` unset: git reads `$XDG_CONFIG_HOME/git/ignore`.
    let excludes = scratch.home().join(".config/git/ignore");
    std::fs::create_dir_all(excludes.parent().unwrap()).unwrap();
    std::fs::write(&excludes, "*_generated.rs\n").unwrap();
    scratch.write("src/table_generated.rs", "pub struct RateLimiter;\n");
    let (mut client, before) = look_up_while_watching(&scratch);
    assert!(before.contains("src/limiter.rs:4: pub struct RateLimiter"), "{before}");
    assert!(!before.contains("table_generated.rs"), "the walk leaves it out: {before}");

    // A code generator writes another such file, and someone a file of their own.
    scratch.write("src/codes_generated.rs", "pub struct RateLimiter;\n");
    scratch.write("src/spare.rs", "pub struct RateLimiter;\n");
    let after = look_up_after_changes(&scratch, &mut client, &[("src/codes_generated.rs", 1), ("src/spare.rs", 1)]);
    assert!(after.contains("src/spare.rs:1: pub struct RateLimiter"), "{after}");
    assert!(!after.contains("_generated.rs"), "{after}");
}

#[test]
fn an_edit_to_the_repositorys_own_excludes_takes_files_out() {
    let scratch = crate_with_modules();
    write_lookups(&scratch);
    let (mut client, before) = look_up_while_watching(&scratch);
    assert!(before.contains("src/limiter.rs:4: pub struct RateLimiter"), "{before}");

    scratch.write(".git/info/exclude", "/src/limiter.rs\n");
    scratch.write("src/spare.rs", "pub struct RateLimiter;\n");
    let after = look_up_after_changes(&scratch, &mut client, &[(".git/info/exclude", 2), ("src/spare.rs", 1)]);
    assert!(after.contains("src/spare.rs:1: pub struct RateLimiter"), "{after}");
    assert!(!after.contains("src/limiter.rs"), "{after}");
}

#[test]
fn a_saved_exclude_file_takes_files_out_when_the_watcher_does_not_report_it() {
    let scratch = crate_with_modules();
    write_lookups(&scratch);
    let (mut client, before) = look_up_while_watching(&scratch);
    assert!(before.contains("src/limiter.rs:4: pub struct RateLimiter"), "{before}");

    // Saved in the editor; the client's watcher leaves the root's `.git` out, as Neovim's
    // inotify watcher does, so the save is all the server hears of it.
    scratch.write(".git/info/exclude", "/src/limiter.rs\n");
    client.save(".git/info/exclude");
    let after = look_up_again(&scratch, &mut client);
    assert!(!after.contains("src/limiter.rs"), "{after}");
}

#[test]
fn a_file_an_applied_proposal_deletes_leaves_the_index_without_a_watcher() {
    let scratch = crate_with_modules();
    write_lookups(&scratch);
    let deleting = replay(&[turn(&[("delete_file", json!({"path": "src/limiter.rs"}))]), done("deleted")]);
    scratch.write("delete.jsonl", &deleting);
    // A client that watches no files, and the file never opened in it.
    let mut client = LspClient::start(&scratch, ClientOptions::default());
    let (first, _) = client.run_issue("Where is `RateLimiter`?", "first.jsonl");
    assert!(symbol_result(&scratch, &first).contains("src/limiter.rs:4: pub struct RateLimiter"));

    let (run_id, _) = client.run_issue("Drop the limiter", "delete.jsonl");
    let answer = client.command("issuewright.applyProposal", json!({"runId": run_id})).unwrap();
    assert_eq!(answer["verified"], true, "{answer}");
    assert_eq!(scratch.read("src/limiter.rs"), None);
    let after = look_up_again(&scratch, &mut client);
    assert!(!after.contains("src/limiter.rs"), "the deleted file is forgotten: {after}");
}

#[test]
fn a_folder_moved_outside_the_editor_is_found_at_its_new_place() {
    let scratch = crate_with_modules();
    write_lookups(&scratch);
    let (mut client, before) = look_up_while_watching(&scratch);
    assert!(before.contains("src/limiter.rs:4: pub struct RateLimiter"), "{before}");

    // `mv src throttle` in a terminal: the client reports the two folders, not the files in them.
    std::fs::rename(scratch.workspace().join("src"), scratch.workspace().join("throttle")).unwrap();
    let after = look_up_after_changes(&scratch, &mut client, &[("src", 3), ("throttle", 1)]);
    assert!(after.contains("throttle/limiter.rs:4: pub struct RateLimiter"), "{after}");
    assert!(!after.contains("src/limiter.rs"), "{after}");
}

#[test]
fn global_excludes_apply_from_the_workspace_top_wherever_the_command_starts() {
    let scratch = crate_with_modules();
    git(&scratch, &scratch.workspace(), &["init", "-q"]);
    // Anchored patterns name paths from the repository's top, as git reads them.
    let excludes = scratch.home().join(".config/git/ignore");
    std::fs::create_dir_all(excludes.parent().unwrap()).unwrap();
    std::fs::write(&excludes, "/notes/\n/src/table_generated.rs\n").unwrap();
    scratch.write("notes/plan.md", "private plans\n");
    scratch.write("src/table_generated.rs", "pub struct RateLimiter;\n");
    scratch.write("replay.jsonl", &replay(&[turn(&[("list_files", json!({}))]), done("looked")]));
    scratch.write("ISSUE.md", "RateLimiter::try_acquire should wait\n");

    // Started from the home folder, not the workspace.
    let started_elsewhere = |args: &[&str]| {
        let workspace = scratch.workspace();
        let args = args.iter().map(OsStr::new).chain([OsStr::new("--repo"), workspace.as_os_str()]);
        let output = issuewright_in(&scratch, &scratch.home(), args, &[]);
        assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
        output
    };
    let issue = scratch.workspace().join("ISSUE.md");
    let ranked = started_elsewhere(&["context", "--json", "--top", "50", "--issue-file", issue.to_str().unwrap()]);
    let ranked: Value = serde_json::from_slice(&ranked.stdout).unwrap();
    let paths: Vec<&str> = ranked["files"].as_array().unwrap().iter().map(|f| f["path"].as_str().unwrap()).collect();
    assert!(paths.contains(&"src/limiter.rs") && !paths.contains(&"src/table_generated.rs"), "{paths:?}");

    let replay = scratch.workspace().join("replay.jsonl");
    let issue = format!("@{}", issue.display());
    let report = started_elsewhere(&["run", "--issue", &issue, "--replay", replay.to_str().unwrap(), "--json"]);
    let run_id = run_report(&report)["runId"].as_str().unwrap().to_owned();
    let events = ledger(&scratch.workspace(), &run_id);
    let listed = events.iter().find(|e| e["event"] == "tool_result").expect("list_files answered")["output"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(listed.contains("src/limiter.rs"), "{listed}");
    assert!(!listed.contains("notes/plan.md") && !listed.contains("table_generated"), "{listed}");
}

/// What the first tool call of the run `run_id` in `workspace` answered.
fn first_tool_output(workspace: &std::path::Path, run_id: &str) -> String {
    let events = ledger(workspace, run_id);
    let result = events.iter().find(|e| e["event"] == "tool_result").expect("the tool answered");
    result["output"].as_str().unwrap().to_owned()
}

/// Runs git in `dir` with the scratch home as the user's, and returns what it printed.
fn git(scratch: &Scratch, dir: &std::path::Path, args: &[&str]) -> String {
    let output = Command::new("git").args(args).current_dir(dir).envs(scratch.env()).output().expect("git");
    assert!(output.status.success(), "git {args:?}: {}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8(output.stdout).unwrap()
}

#[test]
fn in_a_folder_of_a_repository_global_excludes_are_anchored_as_git_anchors_them() {
    // A monorepo, opened in the editor at one of its services.
    let scratch = Scratch::new(&[
        ("services/api/Cargo.toml", "[package]\nname = \"api\"\nversion = \"0.1.0\"\n"),
        ("services/api/src/lib.rs", "pub mod limiter;\n"),
        ("services/api/src/limiter.rs", "pub struct RateLimiter;\n"),
        ("services/api/generated/table.rs", "pub struct RateLimiter;\n"),
        ("services/api/vendor/limiter.rs", "pub struct RateLimiter;\n"),
    ]);
    git(&scratch, &scratch.workspace(), &["init", "-q"]);
    let excludes = scratch.home().join(".config/git/ignore");
    std::fs::create_dir_all(excludes.parent().unwrap()).unwrap();
    // From the repository's top: the service's generated code, and a `vendor` folder at the top only.
    std::fs::write(&excludes, "/services/api/generated/\n/vendor/\n").unwrap();
    let api = scratch.workspace().join("services/api");
    let shown_by_git = git(&scratch, &api, &["ls-files", "--others", "--exclude-standard", "*.rs"]);
    assert_eq!(shown_by_git, "src/lib.rs\nsrc/limiter.rs\nvendor/limiter.rs\n");

    let looking = replay(&[turn(&[("find_symbol", json!({"name": "RateLimiter"}))]), done("looked")]);
    scratch.write("services/api/first.jsonl", &looking);
    scratch.write("services/api/second.jsonl", &looking);
    let mut client = watching_files(&scratch, ClientOptions { root: Some(api.clone()), ..ClientOptions::default() });
    let found = |run_id: &str| first_tool_output(&api, run_id);
    let (first, _) = client.run_issue("Where is `RateLimiter`?", "first.jsonl");
    let before = found(&first);
    assert!(before.contains("src/limiter.rs:1:") && before.contains("vendor/limiter.rs:1:"), "{before}");
    assert!(!before.contains("generated/"), "{before}");

    // Files that appear later are judged the same way.
    scratch.write("services/api/generated/codes.rs", "pub struct RateLimiter;\n");
    scratch.write("services/api/vendor/spare.rs", "pub struct RateLimiter;\n");
    let changes: Vec<Value> = ["generated/codes.rs", "vendor/spare.rs"]
        .iter()
        .map(|path| json!({"uri": issuewright_tests::uri_of(&api.join(path)), "type": 1}))
        .collect();
    client.notify("workspace/didChangeWatchedFiles", json!({"changes": changes}));
    let (second, _) = client.run_issue("Where is `RateLimiter`?", "second.jsonl");
    let after = found(&second);
    assert!(after.contains("vendor/spare.rs:1:"), "{after}");
    assert!(!after.contains("generated/"), "{after}");
}

/// A monorepo, opened in the editor at one of its services (`services/api`): the top
/// `.gitignore` is the repository's, outside the workspace folder. Two runs look up
/// `RateLimiter`, which the service defines in `src/limiter.rs` and in `generated/table.rs`.
/// Returns the scratch and the service's folder.
fn monorepo_opened_at_a_service() -> (Scratch, std::path::PathBuf) {
    let scratch = Scratch::new(&[
        ("services/api/Cargo.toml", "[package]\nname = \"api\"\nversion = \"0.1.0\"\n"),
        ("services/api/src/lib.rs", "pub mod limiter;\n"),
        ("services/api/src/limiter.rs", "pub struct RateLimiter;\n"),
        ("services/api/generated/table.rs", "pub struct RateLimiter;\n"),
        (".gitignore", "/target/\n"),
    ]);
    git(&scratch, &scratch.workspace(), &["init", "-q"]);
    let looking = replay(&[turn(&[("find_symbol", json!({"name": "RateLimiter"}))]), done("looked")]);
    scratch.write("services/api/first.jsonl", &looking);
    scratch.write("services/api/second.jsonl", &looking);
    let api = scratch.workspace().join("services/api");
    (scratch, api)
}

/// What a run's `find_symbol` answered.
fn found_by(folder: &Path, run_id: &str) -> String {
    let events = ledger(folder, run_id);
    let result = events.iter().find(|e| e["event"] == "tool_result").expect("find_symbol answered");
    result["output"].as_str().unwrap().to_owned()
}

/// The monorepo's top `.gitignore` comes to leave the generated code out.
fn ignore_generated_at_the_top(scratch: &Scratch) -> std::path::PathBuf {
    let top = scratch.workspace().canonicalize().unwrap();
    std::fs::write(top.join(".gitignore"), "/target/\n/services/api/generated/\n").unwrap();
    top.join(".gitignore")
}

/// A client like VS Code, which watches a folder of its own (`RelativePattern`), opened at `api`.
fn relative_pattern_client(scratch: &Scratch, api: &Path, name: &str) -> LspClient {
    let mut options = ClientOptions { root: Some(api.to_owned()), name: name.into(), ..ClientOptions::default() };
    options.capabilities["workspace"]["didChangeWatchedFiles"] =
        json!({"dynamicRegistration": true, "relativePatternSupport": true});
    LspClient::start(scratch, options)
}

#[test]
fn an_edit_of_the_repositorys_top_gitignore_reaches_an_editor_opened_below_it() {
    let (scratch, api) = monorepo_opened_at_a_service();
    let mut client = relative_pattern_client(&scratch, &api, "issuewright-e2e");
    let registration = client.wait_for_server_request("client/registerCapability");
    let watchers =
        registration["params"]["registrations"][0]["registerOptions"]["watchers"].as_array().unwrap().clone();
    let top_uri = issuewright_tests::uri_of(&scratch.workspace().canonicalize().unwrap());
    let watched_above: Vec<&Value> = watchers.iter().filter(|w| w["globPattern"].is_object()).collect();
    assert!(
        watched_above.iter().any(|w| w["globPattern"]["pattern"] == ".gitignore"
            && w["globPattern"]["baseUri"].as_str().unwrap().trim_end_matches('/') == top_uri.trim_end_matches('/')),
        "the top .gitignore is watched where it is: {watchers:?}"
    );
    let (first, _) = client.run_issue("Where is `RateLimiter`?", "first.jsonl");
    assert!(found_by(&api, &first).contains("generated/table.rs:1:"), "{}", found_by(&api, &first));

    // The editor reports the edit.
    let gitignore = ignore_generated_at_the_top(&scratch);
    let change = json!({"uri": issuewright_tests::uri_of(&gitignore), "type": 2});
    client.notify("workspace/didChangeWatchedFiles", json!({"changes": [change]}));
    let (second, _) = client.run_issue("Where is `RateLimiter`?", "second.jsonl");
    let after = found_by(&api, &second);
    assert!(after.contains("src/limiter.rs:1:") && !after.contains("generated/"), "{after}");
}

#[test]
fn a_saved_top_gitignore_reaches_the_index_whatever_the_watcher_reports_after() {
    // An editor that has the top `.gitignore` open saves it, and its watcher reports the
    // same edit after.
    let (scratch, api) = monorepo_opened_at_a_service();
    let mut client = relative_pattern_client(&scratch, &api, "issuewright-e2e");
    client.wait_for_server_request("client/registerCapability");
    // The first run waits for the index: the edit below comes after the build.
    let (first, _) = client.run_issue("Where is `RateLimiter`?", "first.jsonl");
    assert!(found_by(&api, &first).contains("generated/table.rs:1:"), "{}", found_by(&api, &first));
    let gitignore = issuewright_tests::uri_of(&ignore_generated_at_the_top(&scratch));
    client.notify("textDocument/didSave", json!({"textDocument": {"uri": gitignore}}));
    client.notify("workspace/didChangeWatchedFiles", json!({"changes": [{"uri": gitignore, "type": 2}]}));
    let (second, _) = client.run_issue("Where is `RateLimiter`?", "second.jsonl");
    let after = found_by(&api, &second);
    assert!(after.contains("src/limiter.rs:1:") && !after.contains("generated/"), "{after}");
}

#[test]
fn an_edit_of_the_repositorys_top_gitignore_reaches_a_run_in_neovim_which_has_no_watcher_for_it() {
    // Neovim is given no watcher for the top `.gitignore`, and reports nothing when it is edited.
    let (scratch, api) = monorepo_opened_at_a_service();
    let mut client = relative_pattern_client(&scratch, &api, "Neovim");
    let registration = client.wait_for_server_request("client/registerCapability");
    let watchers = &registration["params"]["registrations"][0]["registerOptions"]["watchers"];
    assert!(
        watchers.as_array().unwrap().iter().all(|w| w["globPattern"].is_string()),
        "no watcher above the workspace: {watchers}"
    );
    let (first, _) = client.run_issue("Where is `RateLimiter`?", "first.jsonl");
    assert!(found_by(&api, &first).contains("generated/table.rs:1:"), "{}", found_by(&api, &first));

    // The generated code comes to be ignored at the top, and no editor says so.
    ignore_generated_at_the_top(&scratch);
    let (second, _) = client.run_issue("Where is `RateLimiter`?", "second.jsonl");
    let after = found_by(&api, &second);
    assert!(after.contains("src/limiter.rs:1:") && !after.contains("generated/"), "{after}");
}

#[test]
fn a_run_sees_files_without_their_licence_header_and_cannot_drop_it() {
    let scratch = crate_with_modules();
    let licence = "// Copyright 2024 The Limits Authors.\n// SPDX-License-Identifier: MIT\n//\n// Licensed under the MIT licence; see LICENSE.\n\n";
    let code = scratch.read("src/limiter.rs").unwrap();
    scratch.write("src/limiter.rs", &format!("{licence}{code}"));
    let rewritten = code.replace("self.clock.now() > 0", "self.clock.now() > 1");
    scratch.write(
        "replay.jsonl",
        &replay(&[
            turn(&[("write_file", json!({"path": "src/limiter.rs", "content": rewritten}))]),
            turn(&[("write_file", json!({"path": "src/limiter.rs", "content": format!("{licence}{rewritten}")}))]),
            done("try_acquire waits for the next tick"),
        ]),
    );
    let issue = "RateLimiter::try_acquire should wait for the next tick";
    let output = run_cli(&scratch, &["--issue", issue, "--replay", "replay.jsonl", "--json"], &[]);
    let report = run_report(&output);
    assert_eq!(report["state"], "ready", "{report:#}");

    let events = ledger(&scratch.workspace(), report["runId"].as_str().unwrap());
    let prompt = first_prompt(&events);
    assert!(
        prompt.contains("### src/limiter.rs [lines 1-5, its licence header, left out]\n```\nuse crate::clock::Clock;"),
        "{prompt}"
    );
    assert!(!prompt.contains("Copyright"), "{prompt}");
    let results = tool_outputs(&events);
    assert!(
        results[0].starts_with(
            "nothing written: src/limiter.rs starts with a licence header (lines 1-5) that this content leaves out."
        ),
        "{}",
        results[0]
    );
    assert!(results[1].starts_with("replaced src/limiter.rs"), "{}", results[1]);
    let diff = report["diff"].as_str().unwrap();
    assert!(diff.contains("+    pub fn try_acquire(&mut self) -> bool { self.clock.now() > 1 }"), "{diff}");
    assert!(!diff.contains("Copyright"), "the header stays as it was: {diff}");
    assert_eq!(scratch.read("src/limiter.rs").unwrap(), format!("{licence}{code}"), "the user's file is untouched");
}

#[test]
fn a_run_cannot_write_a_file_shown_in_part_without_the_rest() {
    let scratch = crate_with_modules();
    let pool = pool_of_900();
    scratch.write("src/pool.rs", &pool);
    let shown = "pub fn acquire_450(limiter: &mut RateLimiter) -> bool { limiter.try_acquire() }";
    let fixed = "pub fn acquire_450(limiter: &mut RateLimiter) -> bool { limiter.try_acquire() || limiter.wait() }";
    scratch.write(
        "replay.jsonl",
        &replay(&[
            // Written whole from the one function the pack shows of it: the rest would be lost.
            turn(&[("write_file", json!({"path": "src/pool.rs", "content": format!("{fixed}\n")}))]),
            turn(&[("patch_file", json!({"path": "src/pool.rs", "old_text": shown, "new_text": fixed}))]),
            done("acquire_450 waits"),
        ]),
    );
    let issue = "acquire_450 should wait\n`acquire_450` returns false at once when the `RateLimiter` is exhausted.\n";
    let output = run_cli(&scratch, &["--issue", issue, "--replay", "replay.jsonl", "--json"], &[]);
    let report = run_report(&output);
    assert_eq!(report["state"], "ready", "{report:#}");

    let events = ledger(&scratch.workspace(), report["runId"].as_str().unwrap());
    let pack = events.iter().find(|e| e["event"] == "context_pack").expect("the pack is recorded");
    assert_eq!(pack["part_files"], json!(["src/pool.rs"]), "{pack}");
    let prompt = first_prompt(&events);
    assert!(prompt.contains(&format!("lines 453-453:\n```\n{shown}\n```")), "{prompt}");
    let results = tool_outputs(&events);
    assert!(
        results[0].starts_with(
            "nothing written: this content leaves out lines 1-452 and 454-902 of src/pool.rs (900 lines of code), \
             which you have not been shown. Change the file with patch_file"
        ),
        "{}",
        results[0]
    );
    assert!(results[1].starts_with("patched src/pool.rs"), "{}", results[1]);
    let diff = report["diff"].as_str().unwrap();
    assert_eq!(diff.lines().filter(|line| line.starts_with('-') && !line.starts_with("---")).count(), 1, "{diff}");
    assert!(diff.contains(&format!("+{fixed}")), "{diff}");
    assert_eq!(scratch.read("src/pool.rs").unwrap(), pool, "the user's file is untouched");
}

#[test]
fn a_relative_cache_home_puts_no_cache_into_the_repository() {
    let scratch = crate_with_modules();
    // `XDG_CACHE_HOME=cache`, as some dotfiles set it: relative, so ignored for `~/.cache`.
    let output = issuewright_on(&scratch, &scratch.workspace(), &["index", "--json"], &[("XDG_CACHE_HOME", "cache")]);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    assert!(!scratch.workspace().join("cache").exists(), "no cache folder in the repository");
    let written = std::fs::read_dir(scratch.home().join(".cache/issuewright/index")).map(|d| d.count()).unwrap_or(0);
    assert_eq!(written, 1, "the index cache is in ~/.cache");
}

#[test]
fn a_tab_the_editor_reloaded_after_a_change_on_disk_still_stands_for_nothing_once_deleted() {
    let scratch = crate_with_modules();
    let mut client = watching_files(&scratch, ClientOptions::default());
    let text = scratch.read("src/clock.rs").unwrap();
    client.open("src/clock.rs", &text);
    let uri = issuewright_tests::uri_of(&scratch.workspace().join("src/clock.rs"));
    let issue = "Clock::now returns 1\nThe `Clock` should read the time.";
    // Answered once the server has read the open document.
    let opened = client.command("issuewright.context", json!({"issue": issue, "top": 3})).unwrap();
    assert_eq!(opened["files"][0]["path"], "src/clock.rs", "{opened:#}");

    // A pull changes the file; the editor, holding nothing unsaved, reloads the tab, in two
    // changes as it may.
    let pulled = format!("// pulled\n{text}");
    scratch.write("src/clock.rs", &pulled);
    client.notify("workspace/didChangeWatchedFiles", json!({"changes": [{"uri": uri, "type": 2}]}));
    client.edit("src/clock.rs", 0, 0, "// pul");
    client.edit("src/clock.rs", 6, 6, "led\n");
    let reloaded = client.command("issuewright.context", json!({"issue": issue, "top": 3})).unwrap();
    assert_eq!(reloaded["files"][0]["path"], "src/clock.rs", "{reloaded:#}");

    // Then a branch switched in a terminal deletes it: the reloaded tab is no unsaved work.
    std::fs::remove_file(scratch.workspace().join("src/clock.rs")).unwrap();
    client.notify("workspace/didChangeWatchedFiles", json!({"changes": [{"uri": uri, "type": 3}]}));
    let after = client.command("issuewright.context", json!({"issue": issue, "top": 30})).unwrap();
    let paths: Vec<&str> = after["files"].as_array().unwrap().iter().map(|f| f["path"].as_str().unwrap()).collect();
    assert!(!paths.contains(&"src/clock.rs"), "{paths:?}");
    assert_eq!(after["indexedFiles"], 25);

    // Typed into after the reload, a tab is the user's work: another file, reloaded, then
    // typed into and deleted on disk, stays.
    let limiter = scratch.read("src/limiter.rs").unwrap();
    client.open("src/limiter.rs", &limiter);
    client.command("issuewright.context", json!({"issue": issue, "top": 1})).unwrap();
    let limiter_uri = issuewright_tests::uri_of(&scratch.workspace().join("src/limiter.rs"));
    scratch.write("src/limiter.rs", &format!("// pulled\n{limiter}"));
    client.notify("workspace/didChangeWatchedFiles", json!({"changes": [{"uri": limiter_uri, "type": 2}]}));
    client.edit("src/limiter.rs", 0, 0, "// pulled\n");
    client.edit("src/limiter.rs", 0, 0, "// mine\n");
    std::fs::remove_file(scratch.workspace().join("src/limiter.rs")).unwrap();
    client.notify("workspace/didChangeWatchedFiles", json!({"changes": [{"uri": limiter_uri, "type": 3}]}));
    let kept = client.command("issuewright.context", json!({"issue": issue, "top": 30})).unwrap();
    let paths: Vec<&str> = kept["files"].as_array().unwrap().iter().map(|f| f["path"].as_str().unwrap()).collect();
    assert!(paths.contains(&"src/limiter.rs"), "{paths:?}");
    assert_eq!(kept["indexedFiles"], 25);
}

#[test]
fn a_tab_left_open_on_a_file_deleted_on_disk_stands_for_nothing_until_typed_into() {
    let scratch = crate_with_modules();
    // A check that fails while its copy of the workspace holds `src/clock.rs` and not
    // `src/fresh.rs`.
    scratch.write(
        ".issuewright.toml",
        "[validate]\ncheck = \"if [ -e src/clock.rs ] && [ ! -e src/fresh.rs ]; then echo 'src/lib.rs:2:1: error E1 clock.rs is there'; exit 1; fi\"\nproblem_matcher = '^(?P<file>[^:]+):(?P<line>\\d+):(?P<column>\\d+): (?P<severity>error) (?P<code>\\w+) (?P<message>.*)$'\n",
    );
    let mut client = watching_files(&scratch, ClientOptions::default());
    let text = scratch.read("src/clock.rs").unwrap();
    client.open("src/clock.rs", &text);
    let issue = "Clock::now returns 1\nThe `Clock` should read the time.";
    let before = client.command("issuewright.context", json!({"issue": issue, "top": 3})).unwrap();
    assert_eq!(before["files"][0]["path"], "src/clock.rs", "{before:#}");
    let seen = client.build_command("issuewright.validate", json!({})).unwrap();
    assert_eq!(seen["passed"], false, "the check sees the file: {seen}");

    // A branch switched in a terminal deletes it; the editor keeps its tab open.
    std::fs::remove_file(scratch.workspace().join("src/clock.rs")).unwrap();
    let uri = issuewright_tests::uri_of(&scratch.workspace().join("src/clock.rs"));
    client.notify("workspace/didChangeWatchedFiles", json!({"changes": [{"uri": uri, "type": 3}]}));
    let after = client.command("issuewright.context", json!({"issue": issue, "top": 30})).unwrap();
    let paths: Vec<&str> = after["files"].as_array().unwrap().iter().map(|f| f["path"].as_str().unwrap()).collect();
    assert!(!paths.contains(&"src/clock.rs"), "{paths:?}");
    assert_eq!(after["indexedFiles"], 25);
    let gone = client.build_command("issuewright.validate", json!({})).unwrap();
    assert_eq!(gone["passed"], true, "the build's copy lacks it too: {gone}");

    // Typed into, it is the user's unsaved work again.
    client.edit("src/clock.rs", 0, 0, "// kept\n");
    let typed = client.command("issuewright.context", json!({"issue": issue, "top": 3})).unwrap();
    assert_eq!(typed["files"][0]["path"], "src/clock.rs", "{typed:#}");
    assert_eq!(typed["indexedFiles"], 26);

    // A new buffer never written, reported saved (Neovim's `:w other.rs` of it), is still
    // the user's unsaved work.
    client.open("src/fresh.rs", "pub fn brand_new_gauge() {}\n");
    let fresh_uri = issuewright_tests::uri_of(&scratch.workspace().join("src/fresh.rs"));
    client.notify("textDocument/didSave", json!({"textDocument": {"uri": fresh_uri}}));
    let fresh = client.command("issuewright.context", json!({"issue": "Call `brand_new_gauge`", "top": 1})).unwrap();
    assert_eq!(fresh["files"][0]["path"], "src/fresh.rs", "{fresh:#}");
    let both = client.build_command("issuewright.validate", json!({})).unwrap();
    assert_eq!(both["passed"], true, "the build's copy holds the new buffer: {both}");
}
