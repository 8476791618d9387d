#!/usr/bin/env python3
"""What "files that change together" would add to the ranking, measured before building it.

A fix often spans files that the issue never names but that the project's history shows
changing alongside the file it does name (fd's `app.rs`, `main.rs` and `walk.rs`). This
script asks whether that signal would help: it runs `issuewright context` on each instance's
checkout (the one locbench's runner leaves in its cache), reads the history before the base
commit from the bare mirror, and re-ranks. Each of the best `k` files lends its co-changing
files a share of its score:

    boost(f) = sum over seeds s: score(s) / best score * commits(s and f) / commits(s)

counted over the last `N` commits before the base (merges, and commits touching more than
`--max-files` files, left out), and `score(f) + w * best score * boost(f)` orders the files.
It prints Acc@5 and MRR per language for a grid of `w` and `k`, next to the ranking as it is:

    python3 server/benches/co_change.py --data ../shared/locbench/dev.jsonl \\
        --mirror ../.mirror --bin target/release/issuewright

The runner gives checkouts without `.git`, so the signal cannot take part in its figures;
this is how it was judged instead. The base commit precedes the fix, so the history read
holds nothing of the fix itself.
"""

import argparse
import collections
import json
import os
import subprocess
import tempfile
from pathlib import Path


def mirror_of(mirrors: Path, repo: str) -> Path:
    """The bare mirror of `owner/name`, matched without regard to case."""
    wanted = repo.replace("/", "+").lower()
    for entry in mirrors.iterdir():
        if entry.name.lower() == wanted:
            return entry / "repo" if (entry / "repo").is_dir() else entry
    raise SystemExit(f"no mirror of {repo} in {mirrors}: fetch it first (see locbench's README)")


def checkout_of(cache: Path, instance: dict) -> Path:
    """The checkout locbench's runner left for this instance."""
    path = cache / "checkouts" / instance["repo"].replace("/", "+") / instance["base_commit"]
    if not path.is_dir():
        raise SystemExit(f"no checkout at {path}: run locbench's run.py on this data first")
    return path


def ranked_files(binary: str, checkout: Path, issue: str, top: int = 100) -> list:
    """issuewright's best `top` files for the issue, with their scores and reasons, cold index."""
    with tempfile.NamedTemporaryFile("w", suffix=".md", delete=False) as handle:
        handle.write(issue)
    try:
        out = subprocess.run(
            [binary, "context", "--repo", str(checkout), "--issue-file", handle.name, "--json", "--top", str(top)],
            capture_output=True, text=True, check=True,
            env=dict(os.environ, ISSUEWRIGHT_INDEX_CACHE="off"),
        ).stdout
    finally:
        os.unlink(handle.name)
    return json.loads(out)["files"]


def ranking(binary: str, checkout: Path, issue: str) -> dict:
    """issuewright's scores for the issue, best 100 files, cold index."""
    return {f["path"]: f["score"] for f in ranked_files(binary, checkout, issue)}


def history(mirror: Path, base: str, commits: int, max_files: int) -> list:
    """The files of each of the last `commits` non-merge commits up to `base`."""
    out = subprocess.run(
        ["git", "-C", str(mirror), "log", "--no-merges", "--name-only", "--format=format:@@", "-n", str(commits), base],
        capture_output=True, text=True, check=True,
    ).stdout
    changes = [[line for line in chunk.split("\n") if line.strip()] for chunk in out.split("@@")]
    return [files for files in changes if files and len(files) <= max_files]


def reranked(scores: dict, changes: list, weight: float, seeds: int, present) -> list:
    """The files ordered by score plus the co-change boost from the best `seeds` files;
    `present(path)` says whether a file the history names is still in the checkout."""
    order = sorted(scores, key=lambda path: -scores[path])
    if weight == 0 or not order:
        return order
    best = scores[order[0]] or 1.0
    commits_of = collections.defaultdict(set)
    for number, files in enumerate(changes):
        for path in files:
            commits_of[path].add(number)
    boost = collections.Counter()
    for seed in order[:seeds]:
        together = collections.Counter()
        for number in commits_of.get(seed, ()):
            together.update(path for path in changes[number] if path != seed)
        for path, count in together.items():
            if path in scores or present(path):
                boost[path] += scores[seed] / best * count / len(commits_of[seed])
    combined = {path: scores.get(path, 0.0) + weight * best * boost.get(path, 0.0) for path in set(scores) | set(boost)}
    return sorted(combined, key=lambda path: -combined[path])


def scored(instance: dict, order: list) -> tuple:
    """Acc@5 and reciprocal rank, files of other languages dropped as locbench drops them."""
    suffix = {"rust": (".rs",), "java": (".java",)}.get(instance["language"], (".ts", ".tsx"))
    order = [path for path in order if path.endswith(suffix)]
    ranks = [order.index(g) + 1 if g in order else 10**9 for g in instance["gold_src_files"]]
    return (1.0 if max(ranks) <= 5 else 0.0), 1.0 / min(ranks)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", required=True, help="instances in locbench's format")
    parser.add_argument("--mirror", required=True, type=Path, help="folder of bare git mirrors")
    parser.add_argument("--bin", required=True, help="the issuewright binary")
    parser.add_argument("--cache", type=Path, default=Path.home() / ".cache" / "locbench")
    parser.add_argument("--commits", type=int, default=3000, help="history read before the base")
    parser.add_argument("--max-files", type=int, default=10, help="larger commits are left out")
    args = parser.parse_args()

    instances = [json.loads(line) for line in open(args.data, encoding="utf-8") if line.strip()]
    prepared = []
    for instance in instances:
        scores = ranking(args.bin, checkout_of(args.cache, instance), instance["problem_statement"])
        changes = history(mirror_of(args.mirror, instance["repo"]), instance["base_commit"], args.commits, args.max_files)
        checkout = checkout_of(args.cache, instance)
        prepared.append((instance, scores, changes, lambda path, root=checkout: (root / path).is_file()))

    print("| language | w | k | Acc@5 | MRR |\n|---|---|---|---|---|")
    for language in sorted({instance["language"] for instance in instances}):
        chosen = [p for p in prepared if p[0]["language"] == language]
        for weight, seeds in [(0.0, 0)] + [(w, k) for w in (0.05, 0.1, 0.2) for k in (1, 2, 3)]:
            results = [scored(i, reranked(s, c, weight, seeds, present)) for i, s, c, present in chosen]
            acc = sum(r[0] for r in results) / len(results)
            mrr = sum(r[1] for r in results) / len(results)
            label = "as it is" if weight == 0 else f"{weight}"
            print(f"| {language} | {label} | {seeds or ''} | {acc:.3f} | {mrr:.3f} |")


if __name__ == "__main__":
    main()
