"""Benchmark: counting a corpus into offset co-occurrence views.

Target: the 25M-token corpus (shared data folder) into 15 offset views over a 100K vocabulary
at >= 30M token-offset increments per second on 2 cores, peak memory < 4 GB; re-running with
the disk cache does not rebuild.

Full run (heavy; one at a time on the shared machine)::

    flock /tmp/heavy.lock .venv/bin/python bench/bench_views.py --n-jobs 2

Quick validation (1M bundled corpus, 20K vocabulary)::

    .venv/bin/python bench/bench_views.py --quick

"Token-offset increments" = tokens x offsets (every position is examined for every offset);
the number of pairs actually counted (in-vocabulary, inside a document) is reported too.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import sys
import tempfile
import time


def _cpu_seconds() -> float:
    ru = resource.getrusage(resource.RUSAGE_SELF)
    return ru.ru_utime + ru.ru_stime


def _rss_peak_gb() -> float:
    # ru_maxrss is in KiB on Linux
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20


def main(argv: list[str] | None = None) -> dict:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--corpus", default=None, help='"1M", "5M", "25M" (default) or a path')
    ap.add_argument("--vocab", type=int, default=None, help="vocabulary size (default 100000)")
    ap.add_argument("--offsets", type=int, default=15, help="offsets 1..K (default 15)")
    ap.add_argument("--n-jobs", type=int, default=2, help="threads over offsets (default 2)")
    ap.add_argument("--max-tokens", type=int, default=None)
    ap.add_argument("--quick", action="store_true", help="1M bundled corpus, 20K vocabulary")
    ap.add_argument("--json", default=None, help="write the results here")
    args = ap.parse_args(argv)

    from workbench.datasets import load_corpus
    from workbench.views import positional_views, vocabulary_and_encoding

    corpus_name = args.corpus or ("1M" if args.quick else "25M")
    vocab_size = args.vocab or (20_000 if args.quick else 100_000)
    offsets = list(range(1, args.offsets + 1))
    corpus = load_corpus(corpus_name, max_tokens=args.max_tokens)

    t0 = time.perf_counter()
    vocab, enc = vocabulary_and_encoding(corpus, max_size=vocab_size)
    t_encode = time.perf_counter() - t0

    with tempfile.TemporaryDirectory(prefix="bench_views_") as cache:
        c0 = _cpu_seconds()
        t0 = time.perf_counter()
        views = positional_views(
            enc, vocab, offsets, n_jobs=args.n_jobs, cache=False, progress=False
        )
        t_count = time.perf_counter() - t0
        cpu_count = _cpu_seconds() - c0
        rss_after_count = _rss_peak_gb()
        counted = int(sum(v.matrix.sum() for v in views))
        nnz = int(sum(v.nnz for v in views))
        del views
        t0 = time.perf_counter()
        positional_views(enc, vocab, offsets, n_jobs=args.n_jobs, cache=cache, progress=False)
        t_build_and_store = time.perf_counter() - t0
        t0 = time.perf_counter()
        positional_views(enc, vocab, offsets, n_jobs=args.n_jobs, cache=cache, progress=False)
        t_cached = time.perf_counter() - t0

    increments = enc.n_tokens * len(offsets)
    result = {
        "corpus": corpus_name,
        "n_tokens": enc.n_tokens,
        "n_documents": enc.n_documents,
        "vocab_size": len(vocab),
        "offsets": len(offsets),
        "n_jobs": args.n_jobs,
        "cpu_count": os.cpu_count(),
        "read_tokenize_vocab_encode_seconds": round(t_encode, 2),
        "count_seconds": round(t_count, 3),
        "token_offset_increments": increments,
        "increments_per_second": increments / t_count,
        "count_cpu_seconds": round(cpu_count, 3),
        "increments_per_cpu_second": increments / cpu_count,
        "load_average_1min": os.getloadavg()[0],
        "pairs_counted": counted,
        "pairs_counted_per_second": counted / t_count,
        "total_nnz": nnz,
        "peak_rss_gb_after_count": round(rss_after_count, 3),
        "build_and_cache_seconds": round(t_build_and_store, 2),
        "cached_reload_seconds": round(t_cached, 2),
        "peak_rss_gb": round(_rss_peak_gb(), 3),
        "target_met": {
            "increments_per_second>=30M": increments / t_count >= 30e6,
            "peak_rss<4GB": _rss_peak_gb() < 4.0,
            "cache_faster_than_build": t_cached < t_count,
        },
    }
    try:
        import psutil

        result["psutil_rss_gb_now"] = round(psutil.Process().memory_info().rss / 2**30, 3)
    except ImportError:  # pragma: no cover
        pass
    text = json.dumps(result, indent=1)
    print(text)
    if args.json:
        with open(args.json, "w") as fh:
            fh.write(text)
    return result


if __name__ == "__main__":
    sys.exit(0 if main() else 1)
