#!/usr/bin/env python3
"""locbench's runner with TypeScript and JavaScript as third and fourth languages: `.ts` and
`.tsx` files, or `.js`, `.jsx`, `.mjs` and `.cjs` files, are the source files a ranking is
scored on. Everything else is the runner's own (arguments, BM25
baseline, metrics, table), so TypeScript figures compare with the Rust and Java ones:

    python3 server/benches/commit_issues.py --mirror ../.mirror --out ts-held-out.jsonl \\
        vitejs/vite=typescript colinhacks/zod=typescript typeorm/typeorm=typescript \\
        excalidraw/excalidraw=typescript
    ISSUEWRIGHT_INDEX_CACHE=off python3 server/benches/locbench_typescript.py \\
        --data ts-held-out.jsonl --mirror ../.mirror --rankers issuewright,bm25 \\
        --bin target/release/issuewright

The runner is found at `../shared/locbench/run.py` beside the checkout, or at `LOCBENCH_DIR`.
"""

import os
import sys
from pathlib import Path

LOCBENCH = Path(os.environ.get("LOCBENCH_DIR", Path(__file__).resolve().parents[3] / "shared" / "locbench"))
if not (LOCBENCH / "run.py").is_file():
    sys.exit(f"no locbench runner at {LOCBENCH}/run.py: set LOCBENCH_DIR to the folder holding it")
sys.path.insert(0, str(LOCBENCH))

import run  # noqa: E402  (found through the path set above)

run.SOURCE_EXTENSIONS["typescript"] = (".ts", ".tsx")
run.SOURCE_EXTENSIONS["javascript"] = (".js", ".jsx", ".mjs", ".cjs")
_bm25_ranker = run.bm25_ranker


def bm25_or_unranked(task):
    """The runner's BM25, except when no word of the issue occurs in any file (a terse commit
    message such as "improve changelog"): `bm25s` then fails on the runner's empty query, and
    BM25, knowing nothing, gives the files in path order."""
    try:
        return _bm25_ranker(task)
    except ValueError:
        return run.source_files(task.repo_dir, task.language)


run.bm25_ranker = bm25_or_unranked

if __name__ == "__main__":
    sys.exit(run.main())
