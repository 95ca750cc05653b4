"""Benchmark: generalized CCA speed and memory.

Three parts, each configuration in its own subprocess (so peak memory is its own):

1. ``dense``  -- mvlearn's ``GCCA`` vs ``MVLSA`` on the largest dense problem mvlearn handles
   here (N = 50,000, 15 views x 1,000 columns, k = 50).
   Every view shares a k-dimensional latent signal and has ``rank - k`` directions of its own
   (0.7 x the scale) plus noise: a per-view signal of rank ``rank``, drawn for each run
   (``--dense-seeds``, one run per seed: ``rank`` uniform in [k + 10, 4 k], from the seed) so
   that no block width can be tuned to it. Both libraries get mvlearn's preprocessing
   (row-standardised, column-centred views) and no regularization, so they solve the same
   problem. MVLSA runs once per entry of ``--dense-runs`` (``run:dtype`` of the centred views):
   ``defaults`` is MVLSA at the package defaults (``svd_solver="auto"``: the exact d x d
   scatter route here, since m = 50 > d / 28), ``randomized`` the adaptive randomized block
   Krylov route (what ``auto`` takes for m <= d / 28), ``gram`` the exact d x d scatter route
   (``gram:float64`` is the exact GCCA every space is compared with), ``fixed`` a block
   tuned to rank 100 (randomized, ``--dense-n-iter 1 --dense-n-oversamples 78``: blocks of 128
   columns, which only suit a signal of rank ~100). Reported per run: the rank drawn, times,
   the speedup over mvlearn, the largest principal angle of each shared space (mvlearn's
   included) to the exact one, and memory as peak RSS and as the increase over the data
   already in memory (``extra_gb``). Targets: MVLSA at its defaults >= 20x faster than mvlearn
   with an unchanged angle to the exact space, <= 1/4 of the memory.
2. ``corpus`` -- the real thing: 15 offset views of the 25M-token corpus (100K-word vocabulary,
   count^(1/4), t = 12,500 columns, m = k = 300). Targets: < 150 s, peak < 8 GB, and within 2x
   of this machine's bound for the work, ``passes x nnz x l / throughput``, where ``l`` is the
   block width (m + oversampling) and the sparse x dense throughput is measured in the same
   run on the largest view (mean of the ``X B`` and ``X^T Q`` rates; the faster of one plain
   scipy call and MVLSA's kernel, column panels over ``--n-jobs`` threads, which is ~2.5x
   faster here; the bound with scipy's plain rate is reported too).
3. ``scaling`` -- fit time as N (vocabulary size), J (number of views) and nnz (corpus prefix)
   grow, three sizes each.

mvlearn is not a dependency (it pins old numpy/scikit-learn). It is imported from
``--mvlearn-path`` (default ``/tmp/mvlearn_pkg``), installed there with
``pip install --target /tmp/mvlearn_pkg mvlearn --no-deps``; its package ``__init__`` (which
imports seaborn) is bypassed. Without it, part 1 reports MVLSA only.

Full run (heavy; one heavy job at a time on the shared machine)::

    flock /tmp/heavy.lock .venv/bin/python bench/bench_gcca.py --json results/bench_gcca.json

Quick validation (1M bundled corpus, small sizes; ~1-2 minutes)::

    .venv/bin/python bench/bench_gcca.py --quick

Parts 2 and 3 run MVLSA's fixed-oversampling route, the package default until the adaptive
randomized SVD replaced it (blocks of 2m columns, ``--n-oversamples`` = m, and 5 power
iterations = 11 passes per view), the configuration their results in ``bench/README.md`` were
measured with; ``--n-iter`` and ``--n-oversamples`` show the trade-off. On 10 offset views of
the 5M corpus (20K words, t = 4,000, m = k = 200) that route ends a median 6.9 / 3.7 / 2.0 /
1.1 deg from the exact space (every view SVD exact) with 3 / 4 / 5 / 6 power iterations; the
adaptive default (not yet measured on the 25M corpus here) ends 0.07 deg away on three such
views in about the time of 5 iterations (see ``workbench.gcca.truncated_svd``).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from _common import machine

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent

FULL = {
    "dense": {"n": 50_000, "views": 15, "cols": 1000, "k": 50},
    "corpus": {"corpus": "25M", "vocab": 100_000, "offsets": 15, "t": 12_500, "m": 300, "k": 300},
    "scale_n": [25_000, 50_000, 100_000],
    "scale_j": [5, 10, 15],
    "scale_tokens": [6_250_000, 12_500_000, None],
}
QUICK = {
    "dense": {"n": 3000, "views": 5, "cols": 100, "k": 10},
    "corpus": {"corpus": "1M", "vocab": 5000, "offsets": 6, "t": 1000, "m": 50, "k": 50},
    "scale_n": [1000, 2500, 5000],
    "scale_j": [2, 4, 6],
    "scale_tokens": [250_000, 500_000, None],
}


# ------------------------------------------------------------------------------ memory
class PeakRSS:
    """Sample this process' resident set size in a thread; ``peak_gb`` after the block."""

    def __init__(self, interval: float = 0.02) -> None:
        import psutil

        self._proc = psutil.Process()
        self.interval = interval
        self.start_gb = self._rss()
        self.peak_gb = self.start_gb
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _rss(self) -> float:
        return self._proc.memory_info().rss / 2**30

    def _run(self) -> None:
        while not self._stop.is_set():
            self.peak_gb = max(self.peak_gb, self._rss())
            time.sleep(self.interval)

    def __enter__(self) -> PeakRSS:
        self._thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self._stop.set()
        self._thread.join()
        self.peak_gb = max(self.peak_gb, self._rss())


# ------------------------------------------------------------------------------ workers
def _import_mvlearn_gcca(path: str) -> Any:
    import types

    pkg_dir = Path(path) / "mvlearn"
    if not pkg_dir.is_dir():
        raise ImportError(f"mvlearn not found under {path}")
    if path not in sys.path:
        sys.path.insert(0, path)
    pkg = types.ModuleType("mvlearn")
    pkg.__path__ = [str(pkg_dir)]  # skip mvlearn/__init__ (imports seaborn via plotting)
    sys.modules.setdefault("mvlearn", pkg)
    from mvlearn.embed.gcca import GCCA, center

    return GCCA, center


def _dense_rank(seed: int, k: int) -> int:
    """The per-view signal rank of the run with this seed: uniform in [k + 10, 4 k]."""
    import numpy as np

    return int(np.random.default_rng([seed, 19]).integers(k + 10, 4 * k + 1))


def _dense_data(n: int, n_views: int, cols: int, k: int, seed: int, rank: int) -> list[Any]:
    """Views sharing a k-dim latent signal, each with ``rank - k`` directions of its own and
    noise (float64): a per-view signal of rank ``rank``."""
    import numpy as np

    rng = np.random.default_rng(seed)
    z = rng.standard_normal((n, k))
    views = []
    for _ in range(n_views):
        own = rng.standard_normal((n, rank - k))
        x = z @ rng.standard_normal((k, cols)) + 0.7 * (own @ rng.standard_normal((rank - k, cols)))
        x += 2.0 * rng.standard_normal((n, cols))
        views.append(x)
    return views


def _dense_mvlsa(p: dict[str, Any]) -> Any:
    """MVLSA as part 1 runs it: views already centred, no regularization, m = k; the SVD
    settings of run ``p["solver"]`` (``defaults``: none given)."""
    from workbench.gcca import MVLSA

    kw: dict[str, Any] = {}
    solver = p["solver"]
    if solver == "defaults":
        solver = "auto"
    elif solver == "fixed":
        solver = "randomized"
        kw = {"n_iter": p["dense_n_iter"], "n_oversamples": p["dense_n_oversamples"]}
    return MVLSA(p["k"], view_rank=p.get("view_rank", p["k"]), regularization=0.0, center=False, svd_solver=solver,
                 random_state=0, n_jobs=p["n_jobs"], **kw)


def _mvlsa_stats(model: Any, n_views: int) -> dict[str, Any]:
    """Passes, phase times and the fit's accuracy certificate (``accuracy_``: a bound on the angle
    to the exact solution, from the fit alone; compare ``max_angle_to_exact_deg``)."""
    st = model.fit_stats_
    acc = model.accuracy_
    return {"view_rank": model.view_rank, "passes_per_view": st["n_passes"] / n_views,
            "svd_seconds": st["svd_seconds"],
            "gram_seconds": st["gram_seconds"], "angle_bound_deg": acc.angle_bound,
            "eigenvalue_bound": acc.eigenvalue_bound,
            "max_view_residual": max(acc.view_residuals, default=0.0), "certificate": str(acc)}


def _mvlearn_center(x: Any) -> Any:
    """mvlearn's ``center`` (``mvlearn.embed.gcca.center``): rows z-scored (``ddof=1``), then
    columns centred; the same arithmetic, so that runs without mvlearn see the same views."""
    from scipy import stats

    out = stats.zscore(x, axis=1, ddof=1)
    out -= out.mean(axis=0)
    return out


def worker_dense_ccazoo(p: dict[str, Any]) -> dict[str, Any]:
    """cca-zoo's ``GCCA`` on the views MVLSA gets (mvlearn's preprocessing, float64), no
    shrinkage, ``center=False`` (already centred). It solves MAX-VAR on the full views (each
    view whitened with all its columns: MVLSA with ``view_rank`` = the view's width and no
    regularization), not on their rank-k truncations as mvlearn and MVLSA here. Its shared
    variable T is not kept, but the views' scores sum to T times the eigenvalues, so their span
    is its space."""
    import numpy as np
    from cca_zoo.linear import GCCA

    views = _dense_data(p["n"], p["views"], p["cols"], p["k"], p["seed"], p["rank"])
    views = [_mvlearn_center(v) for v in views]
    data_gb = sum(v.nbytes for v in views) / 2**30
    with PeakRSS() as mem:
        t0 = time.perf_counter()
        model = GCCA(n_components=p["k"], center=False).fit(views)
        seconds = time.perf_counter() - t0
    z = sum(np.asarray(v @ w) for v, w in zip(views, model.weights_))
    np.save(p["emb_path"], np.linalg.qr(z)[0])
    return {"part": "dense", "method": "cca-zoo GCCA", "version": _version("cca-zoo"),
            **{k: p[k] for k in ("n", "views", "cols", "k", "seed", "rank")},
            "seconds": seconds, "peak_gb": mem.peak_gb, "start_gb": mem.start_gb,
            "extra_gb": mem.peak_gb - mem.start_gb, "data_gb": data_gb}


def _version(dist: str) -> str | None:
    from importlib import metadata

    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return None


def worker_dense(p: dict[str, Any]) -> dict[str, Any]:
    import numpy as np

    views = _dense_data(p["n"], p["views"], p["cols"], p["k"], p["seed"], p["rank"])
    data_gb = sum(v.nbytes for v in views) / 2**30
    out: dict[str, Any] = {"part": "dense", "method": p["method"],
                           **{k: p[k] for k in ("n", "views", "cols", "k", "seed", "rank")}}
    GCCA, center = _import_mvlearn_gcca(p["mvlearn_path"])  # noqa: N806
    import workbench.gcca  # noqa: F401 - both libraries are imported before the clock starts

    if p["method"] != "mvlearn":  # mvlearn row-standardises/centres inside fit; MVLSA gets the same
        views = [center(v).astype(p.get("dtype", "float64")) for v in views]
        out["dtype"] = p.get("dtype", "float64")
        out["solver"] = p["solver"]
        data_gb = sum(v.nbytes for v in views) / 2**30
    with PeakRSS() as mem:
        t0 = time.perf_counter()
        if p["method"] == "mvlearn":
            model = GCCA(n_components=p["k"]).fit(views)
            emb = None
        else:
            model = _dense_mvlsa(p).fit(views)
            emb = model.embedding_
        seconds = time.perf_counter() - t0
    if p["method"] != "mvlearn":
        out.update(_mvlsa_stats(model, len(views)))
    if emb is None:  # mvlearn (outside the timing): its shared space G two ways
        # (a) G proper: top-k left singular vectors of its stacked per-view bases [U_1 ... U_J]
        #     (what its svds step factorises; read from the private attribute _Uall);
        uall = np.concatenate(model._Uall, axis=1)
        emb = np.linalg.svd(uall, full_matrices=False)[0][:, : p["k"]]
        # (b) the span of its public per-view projections summed (columns normalised per view)
        z = sum(np.asarray(center(v) @ a) for v, a in zip(views, model.projection_mats_))
        np.save(p["emb_path"].replace(".npy", "_transform.npy"), np.linalg.qr(z)[0])
    np.save(p["emb_path"], emb)
    out.update(seconds=seconds, peak_gb=mem.peak_gb, start_gb=mem.start_gb,
               extra_gb=mem.peak_gb - mem.start_gb, data_gb=data_gb)
    return out


def worker_dense_mvlsa_only(p: dict[str, Any]) -> dict[str, Any]:
    """Part 1 without mvlearn: MVLSA on the same data with a local copy of mvlearn's centring."""
    import numpy as np

    views = _dense_data(p["n"], p["views"], p["cols"], p["k"], p["seed"], p["rank"])
    views = [(v - v.mean(1, keepdims=True)) / v.std(1, keepdims=True) for v in views]
    views = [(v - v.mean(0)).astype(p.get("dtype", "float64")) for v in views]
    import workbench.gcca  # noqa: F401 - imported before the clock starts

    with PeakRSS() as mem:
        t0 = time.perf_counter()
        model = _dense_mvlsa(p).fit(views)
        seconds = time.perf_counter() - t0
    np.save(p["emb_path"], model.embedding_)
    return {"part": "dense", "method": "mvlsa", "solver": p["solver"], "dtype": p.get("dtype", "float64"),
            **{k: p[k] for k in ("n", "views", "cols", "k", "seed", "rank")},
            "seconds": seconds, "peak_gb": mem.peak_gb, "start_gb": mem.start_gb,
            "extra_gb": mem.peak_gb - mem.start_gb, **_mvlsa_stats(model, len(views))}


def _throughput(x: Any, width: int, n_jobs: int, repeats: int = 3) -> dict[str, float]:
    """Measured sparse x dense rates (nnz * columns per second) for X B and X^T Q: one plain
    scipy call each; MVLSA's panel kernel with ``n_jobs`` threads on one matrix; and the same
    kernel on one thread in each of ``n_jobs`` concurrent streams (how MVLSA runs views in
    parallel). The bound uses the best of them."""
    from concurrent.futures import ThreadPoolExecutor

    import numpy as np
    from threadpoolctl import threadpool_limits

    from workbench.gcca._linalg import _SparseProducts

    rng = np.random.default_rng(0)
    b = rng.standard_normal((x.shape[1], width)).astype(x.dtype)
    q = rng.standard_normal((x.shape[0], width)).astype(x.dtype)
    ops = _SparseProducts(x, n_jobs)
    single = _SparseProducts(x, 1)
    work = x.nnz * width
    streams = max(int(n_jobs), 1)

    def concurrent(fn: Any) -> Any:
        def run() -> None:
            with threadpool_limits(limits=1), ThreadPoolExecutor(streams) as ex:
                list(ex.map(lambda _: fn(), range(streams)))
        return run

    out: dict[str, float] = {}
    for name, fxb, fxtq, n_work in (
        ("plain", lambda: x @ b, lambda: x.T @ q, 1),
        ("panels", lambda: ops.matmat(b), lambda: ops.rmatmat(q), 1),
        ("streams", concurrent(lambda: single.matmat(b)), concurrent(lambda: single.rmatmat(q)), streams),
    ):
        best_xb, best_xtq = np.inf, np.inf
        for _ in range(repeats):
            t0 = time.perf_counter()
            fxb()
            t1 = time.perf_counter()
            fxtq()
            t2 = time.perf_counter()
            best_xb, best_xtq = min(best_xb, t1 - t0), min(best_xtq, t2 - t1)
        out |= {f"{name}_xb_rate": n_work * work / best_xb, f"{name}_xtq_rate": n_work * work / best_xtq,
                f"{name}_rate": 2 * n_work * work / (best_xb + best_xtq)}
    out["rate"] = max(out["plain_rate"], out["panels_rate"], out["streams_rate"])  # the best reached
    return out


def worker_corpus(p: dict[str, Any]) -> dict[str, Any]:
    import numpy as np

    from workbench.datasets import load_corpus
    from workbench.gcca import MVLSA
    from workbench.views import Vocabulary, encode_corpus, positional_views, preprocess

    t0 = time.perf_counter()
    corpus = load_corpus(p["corpus"], max_tokens=p.get("max_tokens"))
    vocab = Vocabulary.from_corpus(corpus, max_size=p["vocab"])
    enc = encode_corpus(corpus, vocab)
    views = positional_views(enc, vocab, offsets=range(1, p["offsets"] + 1), dtype=np.float32, cache=True)
    views = [preprocess(v, "pow", 0.25, top_t=p["t"]) for v in views]
    views = views[: p.get("n_views", len(views))]
    build_s = time.perf_counter() - t0
    mats = [v.matrix for v in views]
    nnz = [int(m.nnz) for m in mats]
    width = p["m"] + (max(p["m"], 20) if p["n_oversamples"] is None else p["n_oversamples"])
    thr = _throughput(sp_csr(mats[int(np.argmax(nnz))]), width, p["n_jobs"])
    model = MVLSA(p["k"], view_rank=p["m"], regularization=1e-8, n_iter=p["n_iter"],
                  n_oversamples=p["n_oversamples"], svd_solver="randomized", random_state=0,
                  n_jobs=p["n_jobs"])
    with PeakRSS() as mem:
        t1 = time.perf_counter()
        model.fit(views)
        seconds = time.perf_counter() - t1
    passes_per_view = model.fit_stats_["n_passes"] / len(views)
    work = passes_per_view * sum(nnz) * width
    bound = work / thr["rate"]  # the best of scipy's plain product and MVLSA's kernel (both modes)
    return {
        "part": p.get("part", "corpus"), "corpus": p["corpus"], "max_tokens": p.get("max_tokens"),
        "n_rows": len(vocab), "n_views": len(views), "t": p["t"], "m": p["m"], "k": p["k"],
        "nnz_total": sum(nnz), "build_seconds": build_s, "seconds": seconds,
        "svd_seconds": model.fit_stats_["svd_seconds"], "gram_seconds": model.fit_stats_["gram_seconds"],
        "passes_per_view": passes_per_view, "block_width": width, **thr,
        "bound_seconds": bound, "ratio_to_bound": seconds / bound,
        "plain_bound_seconds": work / thr["plain_rate"], "view_ranks": list(model.view_ranks_),
        "svd_ratio_to_bound": model.fit_stats_["svd_seconds"] / bound,
        "peak_gb": mem.peak_gb, "start_gb": mem.start_gb,
    }


def sp_csr(m: Any) -> Any:
    import scipy.sparse as sp

    return sp.csr_array(m)


WORKERS = {"dense": worker_dense, "dense_mvlsa_only": worker_dense_mvlsa_only, "dense_ccazoo": worker_dense_ccazoo,
           "corpus": worker_corpus}


# ------------------------------------------------------------------------------ driver
def run_worker(name: str, params: dict[str, Any], timeout: float | None = None) -> dict[str, Any]:
    """Run one configuration in a fresh interpreter; returns its JSON result (or an error)."""
    cmd = [sys.executable, str(Path(__file__).resolve()), "--worker", name, "--params", json.dumps(params)]
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=env)
    except subprocess.TimeoutExpired:
        return {"worker": name, "error": f"timed out after {timeout} s", **params}
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("{")]
    if proc.returncode != 0 or not lines:
        tail = (proc.stderr or proc.stdout).strip().splitlines()[-5:]
        return {"worker": name, "error": " | ".join(tail), **params}
    return json.loads(lines[-1])


def _angle_deg(a_path: str, b_path: str) -> float:
    import numpy as np
    import scipy.linalg as sla

    a, b = np.load(a_path), np.load(b_path)
    return float(np.rad2deg(np.max(sla.subspace_angles(a.astype(float), b.astype(float)))))


def main(argv: list[str] | None = None) -> dict[str, Any]:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="small sizes on the bundled 1M corpus")
    ap.add_argument("--parts", default="dense,corpus,scaling", help="comma-separated subset")
    ap.add_argument("--n-iter", type=int, default=5, help="MVLSA power iterations (default 5, as MVLSA)")
    ap.add_argument("--n-oversamples", type=int, default=None,
                    help="MVLSA oversampling of parts 2-3 (default: m; blocks of 2m); "
                         "20 with --n-iter 3 is ~3x faster, less exact")
    ap.add_argument("--n-jobs", type=int, default=2, help="threads for X @ B (default 2)")
    ap.add_argument("--corpus", default=None, help='override the corpus of parts 2-3 ("1M", "5M", "25M")')
    ap.add_argument("--vocab", type=int, default=None, help="override the vocabulary size of part 2")
    ap.add_argument("--dense-n", type=int, default=None, help="override N of part 1")
    ap.add_argument("--dense-shape", default=None,
                    help="override the shape of part 1: N,views,columns,k (e.g. 20000,8,400,20)")
    ap.add_argument("--peers", default="mvlearn,cca-zoo",
                    help="libraries part 1 compares with: mvlearn, cca-zoo (its GCCA, full-rank MAX-VAR; "
                         "adds an exact MVLSA reference with view_rank = columns), or none")
    ap.add_argument("--dense-runs", default="defaults:float32,randomized:float32,gram:float64,fixed:float32",
                    help="MVLSA runs of part 1, run:dtype of the (centred) views, run one of defaults "
                         "(package defaults), gram, dense, randomized (adaptive), fixed (--dense-n-iter / "
                         "--dense-n-oversamples); gram:float64 (the exact reference) is always added; "
                         "mvlearn always float64")
    ap.add_argument("--dense-seeds", default="0,1,2",
                    help="one run of part 1 per seed (data and the planted per-view rank drawn from it)")
    ap.add_argument("--dense-n-iter", type=int, default=1, help="power iterations of the fixed runs in part 1")
    ap.add_argument("--dense-n-oversamples", type=int, default=78,
                    help="oversampling of the fixed runs in part 1 (block l = k + this)")
    ap.add_argument("--dense-full-shape", action="store_true",
                    help="with --quick: part 1 uses the full 15 views x 1,000 columns, k = 50")
    ap.add_argument("--mvlearn-path", default="/tmp/mvlearn_pkg")
    ap.add_argument("--timeout", type=float, default=1800.0, help="per configuration, seconds")
    ap.add_argument("--json", default=None, help="write all results here")
    ap.add_argument("--worker", default=None, help=argparse.SUPPRESS)
    ap.add_argument("--params", default=None, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)

    if args.worker:  # inside a subprocess
        res = WORKERS[args.worker](json.loads(args.params))
        print(json.dumps(res))
        return res

    cfg = QUICK if args.quick else FULL
    parts = set(args.parts.split(","))
    common = {"n_iter": args.n_iter, "n_jobs": args.n_jobs, "n_oversamples": args.n_oversamples}
    try:
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                                text=True, check=False).stdout.strip() or None
    except OSError:
        commit = None
    results: dict[str, Any] = {"quick": args.quick, "commit": commit, "machine": machine(),
                               "settings": vars(args) | {"cfg": cfg}}
    tmp = Path(tempfile.mkdtemp(prefix="bench_gcca_"))

    if "dense" in parts:
        base = {**cfg["dense"], "mvlearn_path": args.mvlearn_path, "dense_n_iter": args.dense_n_iter,
                "dense_n_oversamples": args.dense_n_oversamples, **common}
        if args.dense_full_shape:
            base.update({k: v for k, v in FULL["dense"].items() if k != "n"})
        if args.dense_shape:
            try:
                n_, j_, d_, k_ = (int(x) for x in args.dense_shape.split(","))
            except ValueError:
                ap.error(f"--dense-shape: expected N,views,columns,k (four integers), got {args.dense_shape!r}")
            if not (k_ + 10 <= d_ and 4 * k_ <= d_ and k_ < n_ and j_ >= 2):
                ap.error(f"--dense-shape: need views >= 2, k < N and 4 k <= columns (the signal rank is drawn "
                         f"in [k + 10, 4 k]), got {args.dense_shape!r}")
            base.update({"n": n_, "views": j_, "cols": d_, "k": k_})
        if args.dense_n:
            base["n"] = args.dense_n
        peers = {x for x in args.peers.split(",") if x and x != "none"}
        if peers - {"mvlearn", "cca-zoo"}:
            ap.error(f"--peers: expected mvlearn, cca-zoo or none, got {sorted(peers - {'mvlearn', 'cca-zoo'})}")
        have_mvlearn = "mvlearn" in peers and (Path(args.mvlearn_path) / "mvlearn").is_dir()
        have_ccazoo = "cca-zoo" in peers and _version("cca-zoo") is not None
        runs = [tuple(r.split(":")) for r in args.dense_runs.split(",")]
        bad = [r for r in runs if len(r) != 2 or r[0] not in ("defaults", "fixed", "auto", "randomized", "gram", "dense")
               or r[1] not in ("float32", "float64")]
        if bad:
            ap.error(f"--dense-runs: expected run:dtype entries such as defaults:float32, got {bad}")
        if ("gram", "float64") not in runs:
            runs.append(("gram", "float64"))
        dense_runs = []
        for seed in (int(s) for s in args.dense_seeds.split(",")):
            d = {**base, "seed": seed, "rank": _dense_rank(seed, base["k"])}
            dense: dict[str, Any] = {"seed": seed, "rank": d["rank"]}
            for solver, dt in runs:
                emb = str(tmp / f"mvlsa_{seed}_{solver}_{dt}.npy")
                cfg_run = {**d, "solver": solver, "dtype": dt, "emb_path": emb}
                dense[f"mvlsa_{solver}_{dt}"] = (
                    run_worker("dense", {**cfg_run, "method": "mvlsa"}, args.timeout)
                    if have_mvlearn
                    else run_worker("dense_mvlsa_only", cfg_run, args.timeout)
                )
            exact = str(tmp / f"mvlsa_{seed}_gram_float64.npy")
            if have_mvlearn:
                ml_emb = str(tmp / f"mvlearn_{seed}.npy")
                ml = run_worker("dense", {**d, "method": "mvlearn", "emb_path": ml_emb}, args.timeout)
                dense["mvlearn"] = ml
                if "error" not in ml and "error" not in dense["mvlsa_gram_float64"]:
                    ml["max_angle_to_exact_deg"] = _angle_deg(ml_emb, exact)
            else:
                why = "not asked for (--peers)" if "mvlearn" not in peers else f"not found under {args.mvlearn_path}"
                dense["mvlearn"] = ml = {"error": f"mvlearn {why}"}
            if have_ccazoo:
                # cca-zoo solves MAX-VAR on the full views: its exact reference is MVLSA's exact route
                # with view_rank = columns (no truncation), besides the rank-k one every row is held to
                # and MVLSA at its defaults on that problem is the like-for-like time
                full = str(tmp / f"mvlsa_{seed}_fullrank_gram_float64.npy")
                for solver, dt in (("gram", "float64"), ("defaults", "float32")):
                    fr = {**d, "solver": solver, "dtype": dt, "view_rank": d["cols"], "method": "mvlsa",
                          "emb_path": str(tmp / f"mvlsa_{seed}_fullrank_{solver}_{dt}.npy")}
                    dense[f"mvlsa_fullrank_{solver}_{dt}"] = run_worker(
                        "dense" if have_mvlearn else "dense_mvlsa_only", fr, args.timeout)
                cz_emb = str(tmp / f"ccazoo_{seed}.npy")
                cz = run_worker("dense_ccazoo", {**d, "emb_path": cz_emb}, args.timeout)
                dense["ccazoo_gcca"] = cz
                if "error" not in cz and "error" not in dense["mvlsa_gram_float64"]:
                    cz["max_angle_to_exact_deg"] = _angle_deg(cz_emb, exact)
                if "error" not in dense["mvlsa_fullrank_gram_float64"]:
                    for dt_run in ("gram_float64", "defaults_float32"):
                        fr_row = dense[f"mvlsa_fullrank_{dt_run}"]
                        if "error" in fr_row:
                            continue
                        fr_emb = str(tmp / f"mvlsa_{seed}_fullrank_{dt_run}.npy")
                        fr_row["max_angle_to_exact_deg"] = _angle_deg(fr_emb, exact)
                        fr_row["max_angle_to_exact_fullrank_deg"] = _angle_deg(fr_emb, full)
                        if "error" not in cz:
                            fr_row["speedup_ccazoo"] = cz["seconds"] / fr_row["seconds"]
                    if "error" not in cz:
                        cz["max_angle_to_exact_fullrank_deg"] = _angle_deg(cz_emb, full)
            else:
                why = "not asked for (--peers)" if "cca-zoo" not in peers else "not installed"
                cz = {"error": f"cca-zoo {why}"}
            for solver, dt in runs:
                mv = dense[f"mvlsa_{solver}_{dt}"]
                if "error" in mv or "error" in dense["mvlsa_gram_float64"]:
                    continue
                emb = str(tmp / f"mvlsa_{seed}_{solver}_{dt}.npy")
                mv["max_angle_to_exact_deg"] = _angle_deg(emb, exact)
                if "error" not in cz:
                    mv["speedup_ccazoo"] = cz["seconds"] / mv["seconds"]
                    mv["memory_ratio_extra_ccazoo"] = mv["extra_gb"] / max(cz["extra_gb"], 1e-9)
                if "error" in ml:
                    continue
                mv["speedup"] = ml["seconds"] / mv["seconds"]
                mv["memory_ratio_extra"] = mv["extra_gb"] / max(ml["extra_gb"], 1e-9)
                mv["memory_ratio_peak"] = mv["peak_gb"] / ml["peak_gb"]
                mv["max_subspace_angle_deg"] = _angle_deg(emb, ml_emb)
                mv["max_angle_to_mvlearn_transform_span_deg"] = _angle_deg(
                    emb, ml_emb.replace(".npy", "_transform.npy"))
            dense_runs.append(dense)
            keys: tuple[str, ...] = ("seconds", "speedup", "speedup_ccazoo", "max_angle_to_exact_deg", "max_angle_to_exact_fullrank_deg",
                    "angle_bound_deg", "passes_per_view", "extra_gb", "error")
            print(json.dumps({"seed": seed, "rank": d["rank"],
                              **{name: {k: r[k] for k in keys if k in r} for name, r in dense.items()
                                 if isinstance(r, dict)}}), flush=True)
            if args.json:  # after each seed, so that a run stopped early keeps what it measured
                results["dense"] = dense_runs
                Path(args.json).parent.mkdir(parents=True, exist_ok=True)
                Path(args.json).write_text(json.dumps(results, indent=1, default=str))
        results["dense"] = dense_runs

    c = {**cfg["corpus"], **common}
    if c["n_oversamples"] is None:  # the fixed route the corpus results were measured with
        c["n_oversamples"] = max(c["m"], 20)
    if args.corpus:
        c["corpus"] = args.corpus
    if args.vocab:
        c["vocab"] = args.vocab
    if "corpus" in parts:
        results["corpus"] = run_worker("corpus", c, args.timeout)
        print(json.dumps({"corpus": results["corpus"]}, indent=1), flush=True)

    if "scaling" in parts:
        rows = []
        full_run = results.get("corpus") if "error" not in results.get("corpus", {"error": 1}) else None

        def scale(vary: str, **over: Any) -> dict[str, Any]:
            # the largest size of each series is part 2's configuration: reuse its run
            if full_run is not None and all(v in (None, c.get(k), c["offsets"] if k == "n_views" else None)
                                            for k, v in over.items()):
                return {"vary": vary, **full_run, "reused_from": "corpus"}
            return {"vary": vary, **run_worker("corpus", {**c, **over, "part": "scale"}, args.timeout)}

        rows += [scale("N", vocab=n) for n in cfg["scale_n"]]
        rows += [scale("J", n_views=j) for j in cfg["scale_j"]]
        rows += [scale("nnz", max_tokens=mt) for mt in cfg["scale_tokens"]]
        results["scaling"] = rows
        keys = ("vary", "n_rows", "n_views", "nnz_total", "seconds", "svd_seconds", "gram_seconds",
                "ratio_to_bound", "peak_gb", "error")
        for r in rows:
            print(json.dumps({k: r.get(k) for k in keys if k in r}), flush=True)

    if args.json:
        out = Path(args.json)
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps(results, indent=1, default=str))
    return results


if __name__ == "__main__":
    main()
