"""Benchmark: MVLSA at the paper's shape on a dask ``LocalCluster``.

The problem has the shape of Rastogi et al. (2015)'s best system: N = 500,000 words, 46 views
of t = 12,500 context columns, m = 500, k = 300. The views are synthetic, sparse float32
(count^(1/4) of geometric counts) with the paper's families: 15 positional views (24 nonzeros per row
on average), 21 dependency views (6), 8 bitext views (12), one FrameNet view (0.03 % dense) and
one morphology view (0.0003 % dense). A row's nonzeros fall off with its frequency rank as
``(rank + 1)^-0.7`` (scaled to the family's mean, at most half the columns); columns are drawn
from a Zipf law over the contexts, 30 % of them from a block of 40 columns tied to one of 300
latent word classes shared by every view, so that the views share structure. The densities of
the positional views are those of the 25M-token corpus views (15 offsets, 100K words,
t = 12,500: 55 nonzeros per row) thinned for 400K rarer words; a corpus of the paper's 1.7B
tokens would be denser.

The fit is ``MVLSA(300, view_rank=500, stack_rank=R, stack_iter=I, backend="dask")`` at the
package's other defaults (adaptive randomized view SVDs), with the incremental stacked step
(``R = 2 k`` and ``I = 2`` by default): the exact step would hold M~ (500K x 23,000 = 46 GB in
float32) and the ``N (sum m_j)^2`` Gram product. Each ``--workers`` value is its own cluster of
that many single-threaded worker processes; reported: wall time of the fit, its phases, peak
resident memory during the fit of every worker process (``VmHWM``, reset when the fit starts)
and of the client process (which also runs the scheduler, holds the views it sends and receives
the embedding), the sum of these peaks (an upper bound of the total at any one moment) and the
largest total resident memory of all these processes sampled every half second.

``--accuracy`` measures what the incremental step costs in accuracy, on a reduced shape where
the exact step fits (``--accuracy-rows`` rows, the same 46 views and densities, m and k scaled
down): the largest principal angle of the top 10, the top k/3 and all k directions to the
exact step's space, and the eigenvalues' relative error, for several ``stack_rank`` and
``stack_iter``.

Full run (one heavy job at a time; two hours or more on 2 cores)::

    flock /tmp/heavy.lock .venv/bin/python bench/bench_scale.py --accuracy --workers 2 1 --json out.json

The 25M corpus through the pipeline (load, vocabulary, 15 offset views, MVLSA at the defaults)::

    .venv/bin/python bench/bench_scale.py --corpus-fit 25M --workers 0

The accuracy on real views (the 5M corpus' 15 offset views; no fit on the cluster)::

    .venv/bin/python bench/bench_scale.py --accuracy-corpus 5M --workers 0

Quick validation (seconds)::

    .venv/bin/python bench/bench_scale.py --quick
"""

from __future__ import annotations

import resource
import sys
import threading
import time
from dataclasses import dataclass
from typing import Any

import numpy as np
import scipy.sparse as sp
from _common import add_json_argument, add_quick_argument, ensure_repo_on_path, make_parser, report

ensure_repo_on_path()

from scipy.linalg import subspace_angles  # noqa: E402

from workbench.gcca import MVLSA  # noqa: E402


@dataclass(frozen=True)
class Family:
    name: str
    n_views: int
    mean_nnz: float  # nonzeros per row, on average


FAMILIES = (
    Family("positional", 15, 24.0),
    Family("dependency", 21, 6.0),
    Family("bitext", 8, 12.0),
    Family("framenet", 1, 12_500 * 3e-4),
    Family("morphology", 1, 12_500 * 3e-6),
)
N_CLASSES = 300
CLASS_COLUMNS = 40
SHARED = 0.3


def make_view(n: int, d: int, mean_nnz: float, seed: int, classes: np.ndarray) -> sp.csr_array:
    """One synthetic view (see the module docstring), float32 CSR with sorted, unique columns."""
    rng = np.random.default_rng(seed)
    weight = (np.arange(n) + 1.0) ** -0.7
    per_row = rng.poisson(np.minimum(weight * (mean_nnz * n / weight.sum()), d / 2))
    rows = np.repeat(np.arange(n, dtype=np.int64), per_row)
    total = rows.size
    zipf = 1.0 / np.arange(1, d + 1)
    cols = rng.choice(d, size=total, p=zipf / zipf.sum())
    tied = rng.random(total) < SHARED
    start = (classes[rows[tied]] * (d // N_CLASSES)) % max(d - CLASS_COLUMNS, 1)
    cols[tied] = start + rng.integers(0, CLASS_COLUMNS, size=int(tied.sum()))
    counts = rng.geometric(0.3, size=total).astype(np.float32)
    x = sp.csr_array((counts, (rows, cols.astype(np.int64))), shape=(n, d), dtype=np.float32)
    x.sum_duplicates()  # counts of repeated (row, column) pairs add up
    x.data **= 0.25
    x.indices = x.indices.astype(np.int32)
    x.indptr = x.indptr.astype(np.int64 if x.nnz > 2**31 - 1 else np.int32)
    return x


def make_views(n: int, d: int, seed: int = 0, scale: float = 1.0) -> list[sp.csr_array]:
    classes = np.random.default_rng(seed).integers(0, N_CLASSES, size=n)
    views = []
    j = 0
    for fam in FAMILIES:
        for _ in range(fam.n_views):
            views.append(make_view(n, d, fam.mean_nnz * scale, seed * 1000 + j, classes))
            j += 1
    return views


def _vm_hwm_gb() -> float:
    """Peak resident set size of this process (``VmHWM``), GB."""
    with open("/proc/self/status") as fh:
        for line in fh:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 2**20
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20  # pragma: no cover


def _reset_peak() -> None:
    """Start this process' ``VmHWM`` afresh (Linux: ``5`` to ``/proc/self/clear_refs``)."""
    with open("/proc/self/clear_refs", "w") as fh:
        fh.write("5")


class _TotalMemory:
    """Peak of the summed resident memory of this process and its children (a
    ``LocalCluster``'s nannies and workers), sampled every ``interval`` seconds in a thread: the
    total at one moment, which the per-process peaks only bound from above. (RSS counts pages
    two processes share twice, so this too is an upper bound, a tight one.)"""

    def __init__(self, interval: float = 0.5) -> None:
        import psutil

        self.me = psutil.Process()
        self.interval = interval
        self.peak = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _sample(self) -> int:
        total = 0
        for proc in [self.me, *self.me.children(recursive=True)]:
            try:
                total += proc.memory_info().rss
            except Exception:  # a process that just ended  # noqa: BLE001
                pass
        return total

    def _run(self) -> None:
        while not self._stop.is_set():
            self.peak = max(self.peak, self._sample())
            self._stop.wait(self.interval)

    def __enter__(self) -> _TotalMemory:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()
        self.peak = max(self.peak, self._sample())

    @property
    def peak_gb(self) -> float:
        return self.peak / 2**30


def fit_on_cluster(
    views: list[sp.csr_array], n_workers: int, params: dict[str, Any]
) -> dict[str, Any]:
    from distributed import Client, LocalCluster

    with (
        LocalCluster(
            n_workers=n_workers, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster,
        Client(cluster) as client,
    ):
        client.run(__import__, "workbench.gcca._dask")
        client.run(_reset_peak)  # peaks of the fit alone (not the cluster start)
        _reset_peak()  # (the client's: the views it holds, the scheduler, what comes back)
        t0 = time.perf_counter()
        with _TotalMemory() as total:
            model = MVLSA(**params, backend="dask").fit(views)
        seconds = time.perf_counter() - t0
        workers = client.run(_vm_hwm_gb)
    peaks = sorted(workers.values(), reverse=True)
    client_gb = _vm_hwm_gb()
    return {
        "workers": n_workers,
        "seconds": round(seconds, 1),
        "svd_and_merge_seconds": round(model.fit_stats_["svd_seconds"], 1),
        "sweeps_and_finish_seconds": round(model.fit_stats_["gram_seconds"], 1),
        "peak_worker_gb": [round(p, 2) for p in peaks],
        "peak_client_gb": round(client_gb, 2),
        "peak_total_gb": round(client_gb + sum(peaks), 2),
        "sampled_total_gb": round(total.peak_gb, 2),
        "n_passes": model.fit_stats_["n_passes"],
        "nnz": model.fit_stats_["nnz"],
        "stack_columns": model.fit_stats_["stack_columns"],
        "top_eigenvalues": [round(float(v), 4) for v in model.eigenvalues_[:5]],
        "embedding_shape": list(model.embedding_.shape),
    }


def accuracy(
    views: list[Any],
    params: dict[str, Any],
    ranks: list[int],
    iters: list[int],
    n_jobs: int = 2,
) -> dict[str, Any]:
    """The incremental step at each ``stack_rank`` in ``ranks`` and ``stack_iter`` in ``iters``
    against the exact step: largest principal angles and eigenvalue errors."""
    k = params["n_components"]
    t0 = time.perf_counter()
    exact = MVLSA(**params, n_jobs=n_jobs).fit(views)
    out: dict[str, Any] = {"exact_seconds": round(time.perf_counter() - t0, 1), "runs": []}
    ref = exact.embedding_.astype(np.float64)
    for r in ranks:
        for n_it in iters:
            t0 = time.perf_counter()
            inc = MVLSA(**params, n_jobs=n_jobs, stack_rank=r, stack_iter=n_it).fit(views)
            emb = inc.embedding_.astype(np.float64)
            row = {
                "stack_rank": r,
                "stack_iter": n_it,
                "seconds": round(time.perf_counter() - t0, 1),
                "sweep_seconds": round(inc.fit_stats_["gram_seconds"], 1),
            }
            for top in sorted({min(10, k), max(k // 3, 1), k}):
                row[f"max_degrees_top{top}"] = round(
                    float(np.degrees(subspace_angles(ref[:, :top], emb[:, :top]).max())), 3
                )
            rel = inc.eigenvalues_ / exact.eigenvalues_
            row["eig_rel_error_max"] = float(np.abs(rel - 1).max())
            row["eig_sum_ratio"] = float(inc.eigenvalues_.sum() / exact.eigenvalues_.sum())
            print(row, flush=True)
            out["runs"].append(row)
    return out


def corpus_views(name: str, vocab_size: int, t: int) -> list[Any]:
    """The 15 positional views (offsets 1-15, count^(1/4), top ``t`` columns) of a corpus of
    ``../shared/data/`` (``"1M"``, ``"5M"`` or ``"25M"``)."""
    from workbench.datasets import load_corpus
    from workbench.views import Vocabulary, encode_corpus, positional_views, preprocess

    corpus = load_corpus(name)
    vocab = Vocabulary.from_corpus(corpus, max_size=vocab_size)
    enc = encode_corpus(corpus, vocab)
    views = positional_views(enc, vocab, offsets=range(1, 16), dtype=np.float32, cache=True)
    return [preprocess(v, "pow", 0.25, top_t=t) for v in views]


def main(argv: list[str] | None = None) -> dict[str, Any]:
    ap = make_parser(__doc__)
    add_quick_argument(ap, "5,000 rows, t = 500, m = 40, k = 20 (seconds)")
    add_json_argument(ap)
    ap.add_argument("--rows", type=int, default=500_000)
    ap.add_argument("--columns", type=int, default=12_500)
    ap.add_argument("--m", type=int, default=500)
    ap.add_argument("--k", type=int, default=300)
    ap.add_argument("--stack-rank", type=int, default=None, help="default: 2 k")
    ap.add_argument("--stack-iter", type=int, default=2, help="sweeps of the fits (default: 2)")
    ap.add_argument(
        "--accuracy-iters", type=int, nargs="+", default=[0, 1, 2, 4], help="stack_iter values"
    )
    ap.add_argument("--workers", type=int, nargs="+", default=[2, 1])
    ap.add_argument("--accuracy", action="store_true", help="the reduced-shape accuracy check")
    ap.add_argument("--accuracy-rows", type=int, default=50_000)
    ap.add_argument(
        "--accuracy-corpus",
        default=None,
        help="also check the accuracy on this corpus' 15 offset views (1M / 5M / 25M; "
        "30K words, t = 12,500, m = 200, k = 100)",
    )
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument(
        "--corpus-fit",
        default=None,
        help="also fit MVLSA at the package defaults (m = k = 300, n_jobs=2) on this corpus' 15 "
        "offset views (100K words, t = 12,500; views from the cache when built before)",
    )
    ap.add_argument("--accuracy-jobs", type=int, default=2, help="n_jobs of the accuracy fits")
    args = ap.parse_args(argv)
    if args.quick:
        args.rows, args.columns, args.m, args.k = 5000, 500, 40, 20
        args.accuracy_rows = 5000
    stack_rank = args.stack_rank or 2 * args.k
    params = {
        "n_components": args.k,
        "view_rank": args.m,
        "stack_rank": stack_rank,
        "stack_iter": args.stack_iter,
        "random_state": args.seed,
    }
    out: dict[str, Any] = {"command": " ".join(["bench/bench_scale.py", *sys.argv[1:]])}
    if args.accuracy:
        m, k = max(args.m // 5, 2), max(args.k // 5, 2)
        views = make_views(args.accuracy_rows, args.columns, seed=args.seed)
        p = {"n_components": k, "view_rank": m, "random_state": args.seed}
        out["accuracy"] = {
            "rows": args.accuracy_rows,
            "m": m,
            "k": k,
            "nnz": int(sum(v.nnz for v in views)),
            **accuracy(views, p, [2 * k, 3 * k], args.accuracy_iters, args.accuracy_jobs),
        }
        print(out["accuracy"], flush=True)
        del views
    if args.accuracy_corpus:
        views = corpus_views(args.accuracy_corpus, 30_000, 12_500)
        p = {"n_components": 100, "view_rank": 200, "random_state": args.seed}
        out["accuracy_corpus"] = {
            "corpus": args.accuracy_corpus,
            "rows": int(views[0].matrix.shape[0]),
            "m": 200,
            "k": 100,
            **accuracy(views, p, [200, 300], args.accuracy_iters, args.accuracy_jobs),
        }
        print(out["accuracy_corpus"], flush=True)
        del views
    if args.corpus_fit:
        t0 = time.perf_counter()
        views = corpus_views(args.corpus_fit, 100_000, 12_500)
        t1 = time.perf_counter()
        model = MVLSA(300, view_rank=300, random_state=args.seed, n_jobs=2).fit(views)
        out["corpus_fit"] = {
            "corpus": args.corpus_fit,
            "rows": int(views[0].matrix.shape[0]),
            "views_seconds": round(t1 - t0, 1),
            "fit_seconds": round(time.perf_counter() - t1, 1),
            "svd_seconds": round(model.fit_stats_["svd_seconds"], 1),
            "stacked_seconds": round(model.fit_stats_["gram_seconds"], 1),
            "n_passes": model.fit_stats_["n_passes"],
            "nnz": model.fit_stats_["nnz"],
        }
        print(out["corpus_fit"], flush=True)
        del views, model
    if not args.workers or args.workers == [0]:
        report(out, args.json)
        return out
    t0 = time.perf_counter()
    views = make_views(args.rows, args.columns, seed=args.seed)
    out["shape"] = {
        "rows": args.rows,
        "views": len(views),
        "columns": args.columns,
        "m": args.m,
        "k": args.k,
        "stack_rank": stack_rank,
        "stack_iter": args.stack_iter,
        "nnz": int(sum(v.nnz for v in views)),
        "nnz_per_family": {
            f.name: int(sum(v.nnz for v in views[a : a + f.n_views]))
            for f, a in zip(FAMILIES, np.cumsum([0] + [f.n_views for f in FAMILIES]))
        },
        "view_gb": round(
            sum(v.data.nbytes + v.indices.nbytes + v.indptr.nbytes for v in views) / 2**30, 2
        ),
        "make_seconds": round(time.perf_counter() - t0, 1),
    }
    print(out["shape"], flush=True)
    out["fits"] = []
    for w in args.workers:
        res = fit_on_cluster(views, w, params)
        print(res, flush=True)
        out["fits"].append(res)
    report(out, args.json)
    return out


if __name__ == "__main__":
    main()
