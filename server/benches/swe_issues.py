#!/usr/bin/env python3
"""Localisation instances from real issues of repositories outside the dev set.

Two benchmarks publish the text of the issues their pull requests resolved, keyed
`owner__repo-<PR number>`:

- Rust: Rust-SWE-Bench (github:GhabiX/Rust-SWE-Bench), in `RustForger/data/rb_all_bug_report.json`.
- Java: Multi-SWE-bench, whose instance records stay off GitHub; the issue texts stand at the
  head of its agents' published trajectories: the 91 Java instances of its results
  (github:multi-swe-bench/experiments, `evaluation/java/verified/*/trajs/<id>.traj`) and
  a 47-instance Java sample that adds logstash, mockito and fastjson2
  (github:Vladislav0Art/thesis-metamorphic-eval, `artifacts/results/eval/s0-original/.../<id>.traj`).

This script rebuilds each instance the way locbench's dev set was built: the base commit is
where the pull request's branch left the default branch, and the gold files are the source
files `git diff --name-only base refs/pull/<N>/head` lists. Instances whose fix touched 1 to 5
source files are kept; instances already in the dev set are left out.

    python3 server/benches/swe_issues.py --mirror ../.mirror --dev ../shared/locbench/dev.jsonl \\
        --out swe-held-out.jsonl sharkdp/bat tokio-rs/axum chronotope/chrono clap-rs/clap
    python3 server/benches/swe_issues.py --language java --mirror ../.mirror \\
        --dev ../shared/locbench/dev.jsonl --out java-swe-held-out.jsonl \\
        FasterXML/jackson-databind mockito/mockito elastic/logstash
    python3 ../shared/locbench/run.py --data swe-held-out.jsonl --mirror ../.mirror \\
        --rankers issuewright,bm25 --bin target/release/issuewright

Each repository needs a bare mirror with its pull-request refs (`refs/pull/<N>/head`, which
`git clone --mirror` fetches), and the repositories holding the issue texts beside them.
"""

import argparse
import json
import re
import subprocess
import sys
from pathlib import Path

from commit_issues import git, is_source, mirror_of

RUST_REPORTS = "RustForger/data/rb_all_bug_report.json"

# Where Multi-SWE-bench's Java issue texts stand: (repository, folder of trajectories).
JAVA_TRAJECTORIES = [
    ("multi-swe-bench/experiments", "evaluation/java/verified"),
    ("Vladislav0Art/thesis-metamorphic-eval", "artifacts/results/eval/s0-original"),
]

DEMONSTRATION_ISSUE = "TimeDelta serialization precision"


def rust_reports(mirrors: Path) -> dict[str, str]:
    """The issue text of every Rust-SWE-Bench instance, by instance id."""
    bench = mirror_of(mirrors, "GhabiX/Rust-SWE-Bench")
    return json.loads(git(bench, "show", f"HEAD:{RUST_REPORTS}"))


def issue_of_trajectory(trajectory: dict) -> str | None:
    """The issue a SWE-agent trajectory was given: the text between `ISSUE:` and
    `INSTRUCTIONS:` of its first user message that is not SWE-agent's demonstration (whose
    issue is marshmallow's "TimeDelta serialization precision"), as the issue's title on its
    first line and its body after. Some runs write it `TITLE: .. CONTENT: ..`."""
    for message in trajectory.get("history", []):
        content = message.get("content")
        if message.get("role") != "user" or not isinstance(content, str):
            continue
        start = content.find("ISSUE:\n")
        end = content.find("\n\nINSTRUCTIONS:", start)
        if start < 0 or end < 0:
            continue
        text = content[start + len("ISSUE:\n") : end].strip("\n")
        if DEMONSTRATION_ISSUE in text:
            continue
        titled = re.match(r"TITLE:\n(.*?)\n CONTENT:\n", text, re.S)
        if titled:
            text = titled.group(1).strip() + "\n" + text[titled.end() :]
        once = text[: len(text) // 2]
        # An instance resolving the same issue twice gives its text twice.
        return once if text == f"{once}\n{once}" else text
    return None


def java_reports(mirrors: Path) -> dict[str, str]:
    """The issue text of every Multi-SWE-bench Java instance whose trajectory is published,
    by instance id (the first trajectory of each instance is read)."""
    reports: dict[str, str] = {}
    for repo, folder in JAVA_TRAJECTORIES:
        bench = mirror_of(mirrors, repo)
        for path in git(bench, "ls-tree", "-r", "--name-only", "HEAD", folder).splitlines():
            instance_id = path.rsplit("/", 1)[-1].removesuffix(".traj")
            if not path.endswith(".traj") or instance_id in reports:
                continue
            text = issue_of_trajectory(json.loads(git(bench, "show", f"HEAD:{path}")))
            if text:
                reports[instance_id] = text
    return reports


def branch_point(git_dir: Path, head: str):
    """Where the pull request's branch left the default branch. A branch merged with a merge
    commit is in the default branch's history: it left where that merge's first parent meets
    it. A branch rebased onto the default branch cannot be told apart from it: None."""
    base = git(git_dir, "merge-base", head, "HEAD").strip()
    if base != git(git_dir, "rev-parse", head).strip():
        return base
    merges = git(git_dir, "rev-list", "--first-parent", "--ancestry-path", f"{head}..HEAD").split()
    if not merges:
        return None
    merge = merges[-1]
    parents = git(git_dir, "rev-list", "--parents", "-n1", merge).split()[1:]
    if len(parents) < 2:
        return None
    return git(git_dir, "merge-base", parents[0], head).strip()


def instance(git_dir: Path, repo: str, language: str, instance_id: str, text: str):
    """One locbench instance, or None where the pull request's refs are missing or its fix
    touches no source file or more than five."""
    number = instance_id.rsplit("-", 1)[1]
    head = f"refs/pull/{number}/head"
    try:
        base = branch_point(git_dir, head)
        if base is None:
            return None
        changed = git(git_dir, "diff", "--name-status", "--no-renames", base, head).splitlines()
    except subprocess.CalledProcessError:
        return None
    gold, added = [], []
    for line in changed:
        status, path = line.split("\t", 1)
        if not is_source(path, language):
            continue
        if status == "A":
            added.append(path)
        else:
            gold.append(path)
    if not 1 <= len(gold) + len(added) <= 5 or not gold:
        return None
    return {
        "instance_id": instance_id,
        "language": language,
        "repo": repo.lower(),
        "base_commit": base,
        "gold_src_files": sorted(gold),
        "gold_added_files": sorted(added),
        "problem_statement": text.replace("\r\n", "\n"),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--language", choices=["rust", "java"], default="rust")
    parser.add_argument("--mirror", type=Path, required=True, help="folder of bare mirrors")
    parser.add_argument("--dev", type=Path, help="dev set whose instances are left out")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("repos", nargs="+", help="owner/name of each repository to take")
    args = parser.parse_args()

    reports = rust_reports(args.mirror) if args.language == "rust" else java_reports(args.mirror)
    dev = set()
    if args.dev:
        dev = {json.loads(line)["instance_id"].lower() for line in args.dev.open()}
    with args.out.open("w") as out:
        for repo in args.repos:
            git_dir = mirror_of(args.mirror, repo)
            prefix = repo.replace("/", "__").lower() + "-"
            kept = 0
            for instance_id, text in sorted(reports.items()):
                if not instance_id.lower().startswith(prefix) or instance_id.lower() in dev:
                    continue
                found = instance(git_dir, repo, args.language, instance_id, text)
                if found:
                    out.write(json.dumps(found) + "\n")
                    kept += 1
            print(f"{repo}: {kept} instances", file=sys.stderr)


if __name__ == "__main__":
    main()
