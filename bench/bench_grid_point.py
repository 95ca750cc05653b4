"""Benchmark: one point of notebook 03's paper grids, by parts.

A grid point that changes n_j, t, m or v refactors every view and solves the stacked MAX-VAR
eigenproblem again; one that changes r or asks for a larger k solves the eigenproblem again on the
same Gram matrix. This script times those parts for the paper's configuration (scaled to the run's
vocabulary, :func:`workbench.studies.mvlsa.paper_config`):

1. the view factors (:meth:`FactorStore.get_many`, one randomized SVD per view at rank m);
2. stacking them and the Gram matrix of the stack (:class:`workbench.gcca.StackedFactors`, a
   product of order J·m);
3. the top-k eigenpairs of the scaled Gram matrix (LAPACK ``evr``);
4. the embedding from them,

and reports the order J·m, the words kept and the peak memory.

Full size (the 5M-token corpus from the shared data folder; heavy: about 11 GB, run alone)::

    flock /tmp/heavy.lock .venv/bin/python bench/bench_grid_point.py --size full

Quick validation (bundled data)::

    .venv/bin/python bench/bench_grid_point.py --quick
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import time


def _rss_peak_gb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20  # KiB on Linux


def main(argv: list[str] | None = None) -> dict:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--size", default="full", choices=("small", "full", "large"))
    ap.add_argument("--quick", action="store_true", help="--size small")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json", default=None, help="write the results here")
    args = ap.parse_args(argv)
    size = "small" if args.quick else args.size

    import numpy as np

    from workbench.gcca import StackedFactors
    from workbench.studies import mvlsa

    t0 = time.perf_counter()
    settings = mvlsa.settings(size)
    view_set = mvlsa.build_view_set(settings)
    t_views = time.perf_counter() - t0
    n_words, n_views = len(view_set.vocab), len(view_set.views)
    cfg = mvlsa.paper_config(settings, n_words=n_words, n_views=n_views, seed=args.seed).config
    store = mvlsa.study_store(view_set, settings)

    t0 = time.perf_counter()
    factors = store.get_many(list(view_set.views), cfg)
    t_factors = time.perf_counter() - t0
    t0 = time.perf_counter()
    stacked = StackedFactors.of(factors, n_words)
    gram = stacked.gram()
    t_gram = time.perf_counter() - t0
    shrink = stacked.shrinkage(cfg.regularization, cfg.relative_regularization)
    k_solve = store.eigenpairs_to_solve(cfg.n_components, shrink.size)
    t0 = time.perf_counter()
    eig = stacked.eig(shrink, k_solve, gram)
    t_eig = time.perf_counter() - t0
    t0 = time.perf_counter()
    h = stacked.embedding(shrink, cfg.n_components, gram, eig)
    t_embed = time.perf_counter() - t0
    lam = eig[0]
    k = cfg.n_components
    out = {
        "size": size,
        "words": n_words,
        "views": len(factors),
        "config": {"transform": cfg.transform, "top_t": cfg.top_t, "m": cfg.view_rank, "k": k,
                   "v": cfg.min_view_support, "r": cfg.regularization},  # fmt: skip
        "kept_rows": int(stacked.kept.size),
        "order": int(shrink.size),
        "eigenpairs_solved": int(k_solve),
        "seconds": {"view_set": round(t_views, 1), "factors": round(t_factors, 1),
                    "gram": round(t_gram, 1), "eigh": round(t_eig, 1),
                    "embedding": round(t_embed, 1)},  # fmt: skip
        "lambda_k": float(lam[k - 1]),
        "lambda_k+1": float(lam[k]) if lam.size > k else None,
        "embedding_shape": list(h.shape),
        "finite": bool(np.isfinite(h).all()),
        "peak_rss_gb": round(_rss_peak_gb(), 2),
        "machine": {"cpus": os.cpu_count(), "processor": platform.processor() or platform.machine()},
    }
    print(json.dumps(out, indent=2))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump(out, fh, indent=2)
    return out


if __name__ == "__main__":
    main()
