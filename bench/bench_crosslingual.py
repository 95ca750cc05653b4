"""Benchmark: translingual projections on the English-Spanish Bible.

Targets: OPCA with a 5,000-term vocabulary per language fits in under a minute; an EM iteration
of JPLSA / CPLSA over the training chapters takes seconds; IBM Model 1 over the 31K verses takes
seconds per iteration.

Full run (5,000 terms per language, 200 dimensions / topics; one heavy job at a time)::

    flock /tmp/heavy.lock .venv/bin/python bench/bench_crosslingual.py

Quick validation (1,000 terms, 50 dimensions / topics)::

    .venv/bin/python bench/bench_crosslingual.py --quick
"""

from __future__ import annotations

import argparse
import json
import resource
import time


def _rss_peak_gb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20


def main(argv: list[str] | None = None) -> dict:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--terms", type=int, default=None, help="terms per language (5000)")
    ap.add_argument("--dim", type=int, default=None, help="dimensions / topics (200)")
    ap.add_argument("--quick", action="store_true", help="1000 terms, 50 dimensions")
    ap.add_argument("--json", default=None, help="write the results here")
    args = ap.parse_args(argv)

    from workbench.alignment import train_ibm1
    from workbench.crosslingual import CLLSI, CPLSA, JPLSA, OPCA, CrossLingualCCA
    from workbench.studies.translingual import prepare_bible

    terms = args.terms or (1000 if args.quick else 5000)
    dim = args.dim or (50 if args.quick else 200)
    t0 = time.perf_counter()
    data = prepare_bible(n_terms=terms)
    out: dict = {
        "terms_per_language": terms,
        "joint_terms": len(data.space),
        "dim": dim,
        "prepare_seconds": round(time.perf_counter() - t0, 2),
    }
    train = data.parts["train"]
    en, es = data.languages
    views = [data.weighted[en][train], data.weighted[es][train]]
    counts = [data.counts[en][train], data.counts[es][train]]
    for name, est in (
        ("opca", OPCA(dim, 0.1)),
        ("cca", CrossLingualCCA(dim, 3.0)),
        ("cllsi", CLLSI(dim)),
    ):
        t0 = time.perf_counter()
        est.fit(views)
        out[f"{name}_fit_seconds"] = round(time.perf_counter() - t0, 3)
    n_iter = 3 if args.quick else 10
    for name, cls in (("jplsa", JPLSA), ("cplsa", CPLSA)):
        t0 = time.perf_counter()
        cls(dim, n_iter=n_iter).fit(counts)
        out[f"{name}_seconds_per_iteration"] = round((time.perf_counter() - t0) / n_iter, 3)
    verses = data.verse_tokens
    ibm_iter = 2 if args.quick else 5
    t0 = time.perf_counter()
    train_ibm1(verses[es], verses[en], n_iter=ibm_iter)
    out["ibm1_verses"] = len(verses[en])
    out["ibm1_seconds_total"] = round(time.perf_counter() - t0, 3)
    out["ibm1_iterations"] = ibm_iter
    out["peak_rss_gb"] = round(_rss_peak_gb(), 2)
    print(json.dumps(out, indent=2))
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(out, fh, indent=2)
    return out


if __name__ == "__main__":
    main()
