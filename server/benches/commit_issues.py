#!/usr/bin/env python3
"""Localisation instances from a repository's history, for repositories without an issue set.

Each instance is a commit that says it fixes or closes an issue (`Fixes #12`, `Closes #12`,
`fix #12`): its message stands in for the issue, its parent is the base commit, and the source
files it modified are the gold files. The output has locbench's format, so its runner scores
it like the dev set:

    python3 server/benches/commit_issues.py --mirror ../.mirror --out held-out.jsonl \\
        clap-rs/clap=rust burntsushi/ripgrep=rust fasterxml/jackson-databind=java mockito/mockito=java
    python3 ../shared/locbench/run.py --data held-out.jsonl --mirror ../.mirror \\
        --rankers issuewright,bm25 --bin target/release/issuewright

A commit message is terser than an issue and often names what changed, so these figures are a
check that a ranking carries over to other repositories, not a substitute for real issues.
"""

import argparse
import json
import random
import re
import subprocess
import sys
from pathlib import Path

FIXES = re.compile(r"\b(fix(e[sd])?|close[sd]?|resolve[sd]?)\s*:?\s*#\d+", re.IGNORECASE)
TRAILERS = re.compile(r"\n*(Signed-off-by|Co-authored-by):.*", re.DOTALL)


SCRIPT_NOT_SOURCE_FOLDERS = r"tests?|__tests__|__mocks__|e2e|fixtures?|examples?|playground|benchmarks?|docs|scripts"
TS_NOT_SOURCE = re.compile(
    rf"(^|/)({SCRIPT_NOT_SOURCE_FOLDERS})/"
    r"|\.(test|spec|bench|d)\.(ts|tsx|mts|cts)$"
)
JS_NOT_SOURCE = re.compile(
    rf"(^|/)({SCRIPT_NOT_SOURCE_FOLDERS}|dist|build|node_modules|vendor)/"
    r"|\.(test|spec|bench|min)\.(js|jsx|mjs|cjs)$"
)


def is_source(path: str, language: str) -> bool:
    """locbench's source files: `.rs` outside tests/benches/examples, `.java` outside /test/;
    for TypeScript, `.ts`/`.tsx` outside test, fixture, example, docs and script folders,
    declaration files and `*.test.ts` / `*.spec.ts` left out; for JavaScript, `.js`, `.jsx`,
    `.mjs` and `.cjs` outside those folders and build output, tests and minified files left out."""
    if language == "rust":
        return path.endswith(".rs") and not re.search(r"(^|/)(tests|benches|examples)/", path)
    if language == "typescript":
        return path.endswith((".ts", ".tsx")) and not TS_NOT_SOURCE.search(path)
    if language == "javascript":
        return path.endswith((".js", ".jsx", ".mjs", ".cjs")) and not JS_NOT_SOURCE.search(path)
    return path.endswith(".java") and "/test/" not in f"/{path}"


def mirror_of(mirrors: Path, repo: str) -> Path:
    wanted = repo.replace("/", "+").lower()
    for candidate in mirrors.iterdir():
        if candidate.name.lower().removesuffix(".git") == wanted:
            return candidate / "repo" if (candidate / "repo").is_dir() else candidate
    sys.exit(f"no mirror of {repo} in {mirrors}: clone it bare to {mirrors}/{repo.replace('/', '+')}/repo")


def git(git_dir: Path, *args: str) -> str:
    return subprocess.run(["git", "--git-dir", str(git_dir), *args], capture_output=True, text=True, check=True).stdout


def instances(git_dir: Path, repo: str, language: str, depth: int):
    log = git(git_dir, "log", "--first-parent", "--no-merges", f"-n{depth}", "--format=%H%x00%P%x00%B%x01", "HEAD")
    for record in log.split("\x01"):
        record = record.strip("\n")
        if not record:
            continue
        commit, parents, message = record.split("\x00", 2)
        parents = parents.split()
        if len(parents) != 1 or not FIXES.search(message) or len(message.strip().splitlines()[0]) < 15:
            continue
        changes = [line.split("\t") for line in git(git_dir, "diff", "--name-status", parents[0], commit).splitlines()]
        gold = [c[-1] for c in changes if c[0] == "M" and is_source(c[-1], language)]
        added = [c[-1] for c in changes if c[0] == "A" and is_source(c[-1], language)]
        if not 1 <= len(gold) <= 5:
            continue
        yield {
            "instance_id": f"{repo.replace('/', '__')}-{commit[:8]}",
            "language": language,
            "repo": repo,
            "base_commit": parents[0],
            "gold_src_files": gold,
            "gold_added_files": added,
            "problem_statement": TRAILERS.sub("", message.strip()),
        }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("repos", nargs="+", help="owner/name=LANGUAGE: rust, java, typescript or javascript")
    parser.add_argument("--mirror", type=Path, required=True, help="folder of bare mirrors, as locbench's runner")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--per-repo", type=int, default=25)
    parser.add_argument("--depth", type=int, default=4000, help="how many commits of history to read")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    random.seed(args.seed)
    chosen = []
    for spec in args.repos:
        repo, _, language = spec.partition("=")
        if language not in ("rust", "java", "typescript", "javascript"):
            sys.exit(f"{spec}: say the language, as owner/name=rust, =java, =typescript or =javascript")
        found = list(instances(mirror_of(args.mirror, repo), repo.lower(), language, args.depth))
        random.shuffle(found)
        chosen += found[: args.per_repo]
        print(f"{repo}: {len(found)} commits qualify, {min(len(found), args.per_repo)} taken", file=sys.stderr)
    args.out.write_text("".join(json.dumps(row) + "\n" for row in chosen))


if __name__ == "__main__":
    main()
