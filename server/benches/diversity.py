#!/usr/bin/env python3
"""What a diversified top of the ranking would add, measured before building it.

A fix of several files often touches files of different roles (the type a change is about,
its sibling type, the code that uses both), while the ranking can fill its top with files
that match the issue for the same reasons (tokio's seven socket types that all use
`Interest` and define `readable`, above the `ready.rs` a fix of `Interest` also changes).
Maximal marginal relevance re-ranks for that: the best `depth` files are taken one at a
time, each time the one whose score, cut by its likeness to the files already taken, is
highest:

    pick argmax score(f) * (1 - alpha * max over taken t: likeness(f, t))

A file's likeness to another is the weighted Jaccard overlap of what its reasons give: the
issue's words it shares (each weighing `words`), and the names it defines, uses or is named
after (each weighing 1). This script runs `issuewright context` on each instance's checkout
(the one locbench's runner leaves in its cache) and prints Acc@5 and MRR per language for a
grid of `alpha` and `words`, next to the ranking as it is:

    python3 server/benches/diversity.py --data ../shared/locbench/dev.jsonl \\
        --bin target/release/issuewright

Source files are judged as locbench judges them: a Rust file outside `tests/`, `benches/`
and `examples/`, a Java file outside `/test/`.
"""

import argparse
import json
import re
from pathlib import Path

from co_change import checkout_of, ranked_files

REASON_NAMES = (("d", r"defines `([^`]+)`"), ("u", r"uses `([^`]+)`"), ("n", r"named after `([^`]+)`"))


def features(ranked: dict, word_weight: float) -> dict:
    """What a ranked file's reasons give, each with its weight."""
    found = {}
    for reason in ranked["reasons"]:
        shared = re.match(r"shares words with the issue: (.*)", reason)
        if shared:
            found.update({"w:" + word: word_weight for word in shared.group(1).split(", ")})
            continue
        for kind, pattern in REASON_NAMES:
            named = re.match(pattern, reason)
            if named:
                found[kind + ":" + named.group(1)] = 1.0
    return found


def likeness(a: dict, b: dict) -> float:
    """Weighted Jaccard overlap of two files' features."""
    keys = set(a) | set(b)
    union = sum(max(a.get(k, 0.0), b.get(k, 0.0)) for k in keys)
    return sum(min(a.get(k, 0.0), b.get(k, 0.0)) for k in keys) / union if union else 0.0


def diversified(files: list, alpha: float, word_weight: float, depth: int = 30) -> list:
    """The files' paths, the best `depth` re-ranked by maximal marginal relevance."""
    head, tail = files[:depth], files[depth:]
    found = [features(f, word_weight) for f in head]
    taken, left = [], list(range(len(head)))
    while left:
        def value(i: int) -> float:
            return head[i]["score"] * (1 - alpha * max((likeness(found[i], found[j]) for j in taken), default=0.0))
        best = max(left, key=value)
        taken.append(best)
        left.remove(best)
    return [head[i]["path"] for i in taken] + [f["path"] for f in tail]


def is_source(path: str, language: str) -> bool:
    """Whether locbench scores the file."""
    if language == "rust":
        return path.endswith(".rs") and not {"tests", "benches", "examples"} & set(path.split("/")[:-1])
    return path.endswith(".java") and "/test/" not in "/" + path


def scored(instance: dict, order: list) -> tuple:
    """Acc@5 and reciprocal rank of one instance."""
    order = [path for path in order if is_source(path, instance["language"])]
    ranks = [order.index(g) + 1 if g in order else 10**9 for g in instance["gold_src_files"]]
    return (1.0 if max(ranks) <= 5 else 0.0), 1.0 / min(ranks)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", required=True, help="instances in locbench's format")
    parser.add_argument("--bin", required=True, help="the issuewright binary")
    parser.add_argument("--cache", type=Path, default=Path.home() / ".cache" / "locbench")
    args = parser.parse_args()

    instances = [json.loads(line) for line in open(args.data, encoding="utf-8") if line.strip()]
    prepared = [(i, ranked_files(args.bin, checkout_of(args.cache, i), i["problem_statement"], 60)) for i in instances]
    print("| language | alpha | words | Acc@5 | MRR |\n|---|---|---|---|---|")
    for language in sorted({instance["language"] for instance in instances}):
        chosen = [p for p in prepared if p[0]["language"] == language]
        grid = [(0.0, 0.0)] + [(a, w) for a in (0.1, 0.2, 0.3, 0.5) for w in (0.2, 0.5, 1.0)]
        for alpha, words in grid:
            results = [scored(i, diversified(files, alpha, words)) for i, files in chosen]
            acc = sum(r[0] for r in results) / len(results)
            mrr = sum(r[1] for r in results) / len(results)
            label = ("as it is", "") if alpha == 0 else (f"{alpha}", f"{words}")
            print(f"| {language} | {label[0]} | {label[1]} | {acc:.3f} | {mrr:.3f} |")


if __name__ == "__main__":
    main()
