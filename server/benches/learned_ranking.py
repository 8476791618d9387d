#!/usr/bin/env python3
"""Whether the ranking's signals would rank better weighed another way than `combine` weighs them.

The ranking adds eight signals per file with hand-chosen weights (`context::rank::WEIGHTS`).
This script asks whether the weights or the signals limit it. From the signals the locbench
bench writes per file (`--features`), it scores each set three ways:

- `default`: the weights as they are (the same figures the bench prints with `--with title=0`,
  as a check: the features are of the whole issue's reading, not of its title's own);
- `linear`: the eight weights found by coordinate ascent on Acc@5 + MRR over the `--train`
  sets, then applied to every set;
- `learned`: a LambdaMART ranker (LightGBM, when installed) over the signals, `users` and
  whether the file sinks as test code, trained leave-repositories-out: the repositories are
  cut into four folds, and each fold is ranked by a model that saw none of them.

If `learned` beats `default` where it never trained, the signals hold more than the weights
draw from them; if not, better ranking needs other signals. Usage, from the repository root:

    cd server
    for set in dev=../../shared/locbench/dev.jsonl rust=../swe-held-out.jsonl; do
        cargo bench --bench locbench -- "${set#*=}" --features "/tmp/${set%%=*}.features.jsonl"
    done
    python3 benches/learned_ranking.py --set dev=/tmp/dev.features.jsonl \\
        --set rust=/tmp/rust.features.jsonl --train rust

Needs numpy (and lightgbm for the learned row: `pip install numpy lightgbm`).
"""

import argparse
import json
from pathlib import Path

import numpy as np

SIGNALS = ["lexical", "symbols", "uses", "paths", "relations", "package", "parent", "prior"]
EXTENSIONS = {"rust": (".rs",), "java": (".java",), "typescript": (".ts", ".tsx")}


class Instance:
    """One issue: its source files' signals, and which of them the fix changed."""

    def __init__(self, row: dict):
        self.id = row["instance_id"]
        self.language = row["language"]
        self.repo = self.id.rsplit("-", 1)[0]
        files = [f for f in row["files"] if f["path"].endswith(EXTENSIONS[self.language])]
        self.paths = [f["path"] for f in files]
        self.signals = np.array([[f[s] for s in SIGNALS] for f in files]).reshape(len(files), len(SIGNALS))
        self.sinks = np.array([f["sinks"] for f in files], dtype=bool)
        self.users = np.log1p(np.array([f["users"] for f in files], dtype=float))
        self.gold = [self.paths.index(g) if g in self.paths else -1 for g in row["gold"]]
        # Ties fall to the path, as `combine` breaks them.
        self.path_order = np.argsort(np.argsort(np.array(self.paths, dtype=object))) if files else None

    def features(self) -> np.ndarray:
        return np.column_stack([self.signals, self.sinks, self.users])


def load(path: Path) -> tuple[dict, list[Instance]]:
    with path.open() as lines:
        header = json.loads(next(lines))
        return header, [Instance(json.loads(line)) for line in lines if line.strip()]


def metrics(instances: list[Instance], score) -> tuple[float, float]:
    """Acc@5 (every gold file in the top 5) and MRR (of the best gold file), over `instances`."""
    hits = mrr = 0.0
    for instance in instances:
        if not instance.paths:
            continue
        scores = score(instance)
        order = np.lexsort((instance.path_order, -scores))
        rank = np.empty(len(scores), int)
        rank[order] = np.arange(1, len(scores) + 1)
        ranks = [rank[g] if g >= 0 else 10**9 for g in instance.gold]
        hits += all(r <= 5 for r in ranks)
        mrr += 1 / min(ranks)
    return hits / max(len(instances), 1), mrr / max(len(instances), 1)


def weighed(weights: dict, sunk_share: float):
    vector = np.array([weights[s] for s in SIGNALS])

    def score(instance: Instance) -> np.ndarray:
        total = instance.signals @ vector
        return np.where(instance.sinks, total * sunk_share, total)

    return score


def coordinate_ascent(instances: list[Instance], start: dict, sunk_share: float, rounds: int = 3) -> dict:
    """The weights (lexical fixed at its own) that most raise Acc@5 + MRR over `instances`."""
    weights = dict(start)
    best = sum(metrics(instances, weighed(weights, sunk_share)))
    for _ in range(rounds):
        for name in SIGNALS[1:]:
            for factor in [0, 0.25, 0.5, 0.7, 0.85, 1.2, 1.4, 2, 3]:
                trial = dict(weights)
                trial[name] = weights[name] * factor if weights[name] > 0 else factor * 0.1
                value = sum(metrics(instances, weighed(trial, sunk_share)))
                if value > best + 1e-9:
                    best, weights = value, trial
    return weights


def learned_scores(instances: list[Instance], folds: int = 4) -> dict:
    """Each instance's scores from a LambdaMART ranker trained on the other folds' repositories."""
    import lightgbm

    repos = sorted({i.repo for i in instances})
    order = np.random.default_rng(0).permutation(len(repos))
    fold_of = {repos[j]: k % folds for k, j in enumerate(order)}
    scores = {}
    for fold in range(folds):
        training = [i for i in instances if fold_of[i.repo] != fold and i.paths and max(i.gold) >= 0]
        labels = []
        for instance in training:
            label = np.zeros(len(instance.paths))
            label[[g for g in instance.gold if g >= 0]] = 1
            labels.append(label)
        model = lightgbm.LGBMRanker(
            objective="lambdarank", n_estimators=200, num_leaves=8, learning_rate=0.05,
            min_child_samples=50, lambdarank_truncation_level=10, verbose=-1,
        )
        model.fit(
            np.vstack([i.features() for i in training]), np.concatenate(labels),
            group=[len(i.paths) for i in training],
        )
        for instance in instances:
            if fold_of[instance.repo] == fold and instance.paths:
                scores[instance.id] = model.predict(instance.features())
    return scores


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--set", action="append", required=True, help="NAME=FILE, a features file the bench wrote")
    parser.add_argument("--train", default="", help="comma-separated NAMEs the linear weights are fitted on")
    args = parser.parse_args()
    sets, header = {}, None
    for spec in args.set:
        name, _, file = spec.partition("=")
        header, sets[name] = load(Path(file))
    sunk_share, default = header["sunk_share"], header["weights"]
    slices = [(name, language) for name, instances in sets.items()
              for language in sorted({i.language for i in instances})]
    rows = [("default", weighed(default, sunk_share))]
    training = [i for name in filter(None, args.train.split(",")) for i in sets[name]]
    if training:
        fitted = coordinate_ascent(training, default, sunk_share)
        print("linear weights fitted on", args.train + ":", {k: round(v, 3) for k, v in fitted.items()})
        rows.append((f"linear ({args.train})", weighed(fitted, sunk_share)))
    try:
        learned = learned_scores([i for instances in sets.values() for i in instances])
        rows.append(("learned (other repos)", lambda instance: learned[instance.id]))
    except ImportError:
        print("lightgbm is not installed: no learned row")
    print("| ranking | " + " | ".join(f"{n} {l} Acc@5 / MRR" for n, l in slices) + " |")
    print("|---" * (len(slices) + 1) + "|")
    for label, score in rows:
        cells = []
        for name, language in slices:
            acc5, mrr = metrics([i for i in sets[name] if i.language == language], score)
            cells.append(f"{acc5:.3f} / {mrr:.3f}")
        print(f"| {label} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
