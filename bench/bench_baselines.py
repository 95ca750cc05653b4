"""Benchmark: the corpus-trained baselines of the MVLSA study on the 5M-token corpus.

Trains PPMI-SVD (hyperwords recipe), skip-gram (gensim) and GloVe (glove.c updates, numba) with
the settings of ``workbench.studies.mvlsa.settings("full")`` over its 28K-word
vocabulary, 100 dimensions, and reports the wall time of each and its Spearman x 100 on the
full rating sets (pairs inside the vocabulary). Targets: PPMI-SVD in under a minute and within
two points of MEN 60 / WS 41 / WS-REL 32 / SimLex 20; each other baseline >= 0.9 x PPMI-SVD
on MEN.

Full run (5M corpus, a few minutes; run it on an otherwise idle machine)::

    .venv/bin/python bench/bench_baselines.py --json bench/measurements/baselines.json

Quick validation (the 1M corpus capped at 200K tokens, 4K words)::

    .venv/bin/python bench/bench_baselines.py --quick
"""

from __future__ import annotations

from _common import Timer, add_json_argument, add_quick_argument, make_parser, peak_rss_gb, report

SETS = ("MEN", "WS", "WS-REL", "SIMLEX", "RG", "RW", "MTURK-287", "SCWS")


def main(argv: list[str] | None = None) -> dict:
    ap = make_parser(__doc__)
    ap.add_argument("--seed", type=int, default=0)
    add_quick_argument(ap, "1M corpus capped at 200K tokens, 4K words")
    add_json_argument(ap)
    args = ap.parse_args(argv)

    from workbench.datasets import load_wordsim
    from workbench.evaluation import evaluate_wordsim
    from workbench.studies import mvlsa as mx

    settings = mx.settings("small" if args.quick else "full")
    with Timer() as t_views:
        view_set = mx.build_view_set(settings)
    with Timer() as t_all:
        base = mx.corpus_baselines(view_set, settings, n_components=100, seed=args.seed,
                                   cache=False)  # fmt: skip
    out: dict = {
        "corpus": settings.corpus,
        "vocab": len(view_set.vocab),
        "views_seconds": round(t_views.seconds, 1),
        "total_seconds": round(t_all.seconds, 1),
        "settings": base.settings,
        "glove_loss": [round(float(x), 6) for x in base.glove_loss],
    }
    for name, vec in base.vectors.items():
        out[name] = {
            "seconds": round(base.seconds[name], 1),
            **{s: round(100 * evaluate_wordsim(vec, load_wordsim(s)).spearman, 1) for s in SETS},
        }
    out["peak_rss_gb"] = round(peak_rss_gb(), 2)
    report(out, args.json)
    return out


if __name__ == "__main__":
    main()
