"""Benchmark: blocked 3CosAdd / 3CosMul over the Google analogy set.

Target: the 19,544 questions over a 100K x 300 vocabulary in seconds, with bounded memory.
Vectors are random (the cost does not depend on their values), with the question words placed
among the rows so that every question is scorable. Also times the MVLSA Table 2 recomputation
(target < 2 s).

Full run (measured: 3.3 s 3CosAdd, 6.2 s 3CosMul, 0.55 GB peak RSS on the shared 2-core machine;
light enough to run without the heavy-job lock)::

    .venv/bin/python bench/bench_analogies.py

Quick validation (20K x 100)::

    .venv/bin/python bench/bench_analogies.py --quick
"""

from __future__ import annotations

import time

from _common import Timer, add_json_argument, add_quick_argument, make_parser, peak_rss_gb, report


def main(argv: list[str] | None = None) -> dict:
    ap = make_parser(__doc__)
    ap.add_argument("--vocab", type=int, default=None, help="rows (default 100000)")
    ap.add_argument("--dim", type=int, default=None, help="dimension (default 300)")
    add_quick_argument(ap, "20K x 100")
    add_json_argument(ap)
    args = ap.parse_args(argv)

    import numpy as np
    import pandas as pd

    from workbench.datasets import load_analogies
    from workbench.embeddings import WordVectors
    from workbench.evaluation import evaluate_analogies
    from workbench.significance import mvlsa_table2

    n = args.vocab or (20_000 if args.quick else 100_000)
    d = args.dim or (100 if args.quick else 300)
    qs = load_analogies()
    qwords = list(dict.fromkeys(pd.concat([qs[c] for c in "abcd"]).str.lower()))
    if n < len(qwords):
        raise SystemExit(f"--vocab must be >= {len(qwords)} (distinct question words)")
    words = qwords + [f"filler{i}" for i in range(n - len(qwords))]
    vecs = np.random.default_rng(0).normal(size=(n, d)).astype(np.float32)
    wv = WordVectors(words, vecs)
    out: dict = {"vocab": n, "dim": d, "questions": len(qs)}
    for method in ("3cosadd", "3cosmul"):
        with Timer() as t:
            res = evaluate_analogies(wv, qs, method=method)
        out[f"{method}_seconds"] = round(t.seconds, 3)
        out[f"{method}_scored"] = res.n_scored
    with Timer(time.process_time) as t:
        mvlsa_table2()
    out["table2_cpu_seconds"] = round(t.seconds, 3)
    out["peak_rss_gb"] = round(peak_rss_gb(), 3)
    report(out, args.json)
    return out


if __name__ == "__main__":
    main()
