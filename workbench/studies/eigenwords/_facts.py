"""The facts of notebook 06's Discussion: pure functions of its records (and of the paper's
reported numbers) that decide every qualitative word, each with its rule.

Correction families (stated by every sentence that uses them):

* **seed-independent family** -- every rating-set test of the Eigen + RF, CCAPrior and
  CCAPrior + RF rows against Eigen, Holm over ``n_tests["spectral"]`` tests (their geographic
  McNemar tests are a family of their own). These rows are converged SVDs that do not depend on
  the seed, so one test per set stands for every seed;
* **baseline family of a seed** -- every rating-set test of that seed's skip-gram and GloVe rows
  against Eigen, Holm over ``n_tests["baselines per seed"]`` tests;
* **Table 2 family** -- every rating-set test of a graph-only embedding against Eigen on the
  pairs both score, Holm over ``table2_n_tests`` tests;
* **dimension family** -- every rating-set test of Eigen at the next dimension of the sweep
  against the dimension before, at every data size, on the pairs every cell of the sweeps
  scores, Holm over ``sweep["dim_n_tests"]`` tests;
* **data-size family** -- the same for the next data size at the largest dimension, Holm over
  ``sweep["data_n_tests"]`` tests.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np

from .._values import seed_values
from ..facts import SeedCount, finite, seed_count
from ._run import LEXICON_NAMES

__all__ = [
    "AlphaTrend",
    "Facts06",
    "PaperNumbers",
    "PriorHelps",
    "Table2Verdict",
    "SweepClaim",
    "alpha_trends",
    "curve_shape",
    "data_claim",
    "dimension_claim",
    "facts_06",
    "prior_helps",
    "set_direction",
    "table2_verdict",
]

SetDirection = Literal["above", "below", "mixed", "no detectable difference"]


def set_direction(better: Any, worse: Any) -> SetDirection:
    """Rule: from the number of rating sets where a row is significantly above (``better``) and
    below (``worse``) its reference after the stated Holm correction: ``"above"`` when some set
    is above and none below, ``"below"`` when some set is below and none above, ``"mixed"`` when
    both, otherwise ``"no detectable difference"``."""
    b, w = int(better or 0), int(worse or 0)
    if b > 0 and w > 0:
        return "mixed"
    if b > 0:
        return "above"
    if w > 0:
        return "below"
    return "no detectable difference"


def _split(key: str) -> tuple[str, float]:
    lex, alpha = key.rsplit(" ", 1)
    return lex, float(alpha)


@dataclass(frozen=True)
class PriorHelps:
    """Does the prior help? (:func:`prior_helps`)."""

    verdict: Literal["yes", "lower", "mixed", "no detectable difference"]
    n_configs: int
    n_above: int  # configurations significantly above Eigen on some set and below on none
    n_below: int  # ... below on some set and above on none
    n_mixed: int  # ... above on some sets and below on others
    n_avg_above: int  # configurations whose (untested) average is above Eigen's


def prior_helps(rec: Mapping[str, Any]) -> PriorHelps:
    """Rule: each CCAPrior configuration gets :func:`set_direction` of its rating sets
    significantly above / below Eigen after Holm over the seed-independent family
    (``ccaprior_sets_better`` / ``ccaprior_sets_worse``; the rows do not depend on the seed, so
    the test holds for every seed). The verdict is ``"yes"`` when at least one configuration is
    above and none is below or mixed, ``"lower"`` when at least one is below and none above or
    mixed, ``"no detectable difference"`` when no configuration has a significant set, and
    ``"mixed"`` otherwise. The sign of the average over the sets decides nothing (it is reported
    as ``n_avg_above``, untested)."""
    cc = rec["ccaprior_avg_spearman"]
    dirs = [set_direction(rec["ccaprior_sets_better"].get(k, 0),
                          rec["ccaprior_sets_worse"].get(k, 0)) for k in cc]  # fmt: skip
    above, below, mixed = (sum(d == x for d in dirs) for x in ("above", "below", "mixed"))
    eig = float(rec["eigen_avg_spearman"])
    n_avg = sum(float(v) > eig for v in cc.values())
    verdict: Literal["yes", "lower", "mixed", "no detectable difference"]
    if above == below == mixed == 0:
        verdict = "no detectable difference"
    elif mixed == 0 and below == 0:
        verdict = "yes"
    elif mixed == 0 and above == 0:
        verdict = "lower"
    else:
        verdict = "mixed"
    return PriorHelps(verdict, len(cc), above, below, mixed, n_avg)


@dataclass(frozen=True)
class AlphaTrend:
    """How a lexicon's CCAPrior average moves with α (:func:`alpha_trends`)."""

    lexicon: str  # its name (WordNet, ...)
    shape: Literal["rises", "falls", "peaks"]
    peak_alpha: float


def alpha_trends(rec: Mapping[str, Any]) -> list[AlphaTrend]:
    """Rule: per lexicon with at least two α values, the averages over the rating sets in
    increasing α: ``"rises"`` when never decreasing, ``"falls"`` when never increasing, else
    ``"peaks"`` at the α with the largest average. A description of the averages, not a test."""
    cc = {k: float(v) for k, v in rec["ccaprior_avg_spearman"].items()}
    out = []
    for lex, name in LEXICON_NAMES.items():
        ks = sorted((k for k in cc if _split(k)[0] == lex), key=lambda k: _split(k)[1])
        if len(ks) < 2:
            continue
        vals = [cc[k] for k in ks]
        best = _split(max(ks, key=lambda k: cc[k]))[1]
        if all(b >= a for a, b in zip(vals, vals[1:])):
            out.append(AlphaTrend(name, "rises", best))
        elif all(b <= a for a, b in zip(vals, vals[1:])):
            out.append(AlphaTrend(name, "falls", best))
        else:
            out.append(AlphaTrend(name, "peaks", best))
    return out


@dataclass(frozen=True)
class Table2Verdict:
    """Table 2 (graph-only embeddings below Eigen) against this run (:func:`table2_verdict`)."""

    verdict: Literal["replicated", "not replicated", "no detectable difference"]
    #: per lexicon name: the graph-only embedding against Eigen (:func:`set_direction`)
    directions: dict[str, SetDirection]


def table2_verdict(rec: Mapping[str, Any]) -> Table2Verdict:
    """Rule: each graph-only embedding is compared with Eigen **on the same pairs** (the pairs
    both score), per rating set, by the recorded Williams tests after Holm over the Table 2
    family (``table2_sets_better`` / ``table2_sets_worse``; the graph-only and Eigen embeddings
    do not depend on the seed, so the test holds for every seed); its direction is
    :func:`set_direction`. The paper's finding (every graph-only embedding below Eigen) is
    ``"replicated"`` when every lexicon's graph-only embedding is ``"below"``, ``"not
    replicated"`` when some graph-only embedding is significantly above Eigen on some set, and
    otherwise ``"no detectable difference"``. Averages over different pair sets decide nothing.
    """
    lexicons = list(rec["table2_avg_spearman"])
    better, worse = rec["table2_sets_better"], rec["table2_sets_worse"]
    dirs = {LEXICON_NAMES.get(k, k): set_direction(better.get(k, 0), worse.get(k, 0))
            for k in lexicons}  # fmt: skip
    verdict: Literal["replicated", "not replicated", "no detectable difference"]
    if lexicons and all(d == "below" for d in dirs.values()):
        verdict = "replicated"
    elif any(int(better.get(k, 0)) > 0 for k in lexicons):
        verdict = "not replicated"
    else:
        verdict = "no detectable difference"
    return Table2Verdict(verdict, dirs)


SweepVerdict = Literal["replicated", "partly", "not replicated", "no detectable difference"]


def curve_shape(values: Sequence[float]) -> Literal["rises", "falls", "peaks", "dips", "n/a"]:
    """Rule (descriptive, untested): over the values in sweep order, ``"rises"`` when never
    decreasing, ``"falls"`` when never increasing, ``"peaks"`` when the largest value is
    strictly inside, ``"dips"`` otherwise; ``"n/a"`` with fewer than two finite values."""
    v = [float(x) for x in values if finite(x) is not None]
    if len(v) < 2 or len(v) != len(values):
        return "n/a"
    if all(b >= a for a, b in zip(v, v[1:])):
        return "rises"
    if all(b <= a for a, b in zip(v, v[1:])):
        return "falls"
    top = int(np.argmax(v))
    return "peaks" if 0 < top < len(v) - 1 else "dips"


@dataclass(frozen=True)
class SweepClaim:
    """A preliminary claim of the paper (§5.4) against the sweep (:func:`dimension_claim`,
    :func:`data_claim`)."""

    verdict: SweepVerdict
    #: (from, to, direction of "to" against "from"): every step of the sweep
    steps: list[tuple[str, str, SetDirection]]
    n_above: int
    n_below: int  # steps below or mixed
    n_tests: int


def _sweep_claim(steps: list[tuple[str, str, SetDirection]], n_tests: int) -> SweepClaim:
    """Rule: every step of a sweep gets :func:`set_direction` of its rating sets significantly
    above / below the step before, after Holm over the sweep's family. The paper's claim (the
    average improves consistently along the sweep) is ``"replicated"`` when every step is
    ``"above"``; ``"not replicated"`` when some step is ``"below"`` or ``"mixed"`` (the larger
    setting significantly worse on some set); ``"partly"`` when some steps are above and the
    others show no detectable difference; ``"no detectable difference"`` when no step has a
    significant set. Averages decide nothing."""
    dirs = [d for _, _, d in steps]
    above = sum(d == "above" for d in dirs)
    below = sum(d in ("below", "mixed") for d in dirs)
    verdict: SweepVerdict
    if dirs and above == len(dirs):
        verdict = "replicated"
    elif below:
        verdict = "not replicated"
    elif above:
        verdict = "partly"
    else:
        verdict = "no detectable difference"
    return SweepClaim(verdict, steps, above, below, int(n_tests))


def dimension_claim(rec: Mapping[str, Any]) -> SweepClaim | None:
    """Rule: the paper's "the results consistently improve when the dimension increases" (§5.4)
    decided by :func:`_sweep_claim` over every dimension step at every data size of
    ``rec["sweep"]`` (``dim_better`` / ``dim_worse``, the dimension family); None without a
    sweep or with a single dimension."""
    sw = rec.get("sweep")
    if not sw or len(sw["dims"]) < 2:
        return None
    dims = [int(d) for d in sw["dims"]]
    steps = [(f"{size}: m = {dims[j]}", f"m = {dims[j + 1]}",
              set_direction(sw["dim_better"][i][j], sw["dim_worse"][i][j]))
             for i, size in enumerate(sw["sizes"]) for j in range(len(dims) - 1)]  # fmt: skip
    return _sweep_claim(steps, sw["dim_n_tests"])


def data_claim(rec: Mapping[str, Any]) -> SweepClaim | None:
    """Rule: the paper's "a consistent improvement [...] when using more data" (§5.4, at its
    largest dimension) decided by :func:`_sweep_claim` over every data-size step of
    ``rec["sweep"]`` at its largest dimension (``data_better`` / ``data_worse``, the data-size
    family); None without a sweep."""
    sw = rec.get("sweep")
    if not sw or len(sw["sizes"]) < 2:
        return None
    sizes = list(sw["sizes"])
    steps = [(sizes[i], sizes[i + 1], set_direction(sw["data_better"][i], sw["data_worse"][i]))
             for i in range(len(sizes) - 1)]  # fmt: skip
    return _sweep_claim(steps, sw["data_n_tests"])


@dataclass(frozen=True)
class PaperNumbers:
    """The paper's reported numbers the Discussion compares with (fractions; NaN/None where the
    reported tables lack them). Built by the Discussion from :func:`workbench.reported.reported`.
    """

    eigen: float = math.nan  # Table 1, Eigen (CCA), WordSim NPK
    ccaprior_gain: dict[str, float] = field(default_factory=dict)  # "<lex> <alpha>" -> gain
    #: lexicon -> (best CCAPrior + RF over the alphas, Eigen + RF)
    prior_twice: dict[str, tuple[float, float]] = field(default_factory=dict)
    fn_lowers: list[str] = field(default_factory=list)  # trained baselines FrameNet lowers
    geo_rf_change: dict[str, float] = field(default_factory=dict)  # lexicon name -> change
    table2: dict[str, float] = field(default_factory=dict)  # resource name -> WordSim avg
    tokens: float | None = None
    #: §5.4: Eigen's average by dimension ({"WIKI1": {50: 0.464, ...}, ...}) and by data
    #: ({"WIKI1": 0.542, ...} at m = 300)
    prelim_dims: dict[str, dict[int, float]] = field(default_factory=dict)
    prelim_data: dict[str, float] = field(default_factory=dict)


@dataclass(frozen=True)
class Method:
    """A trained baseline against Eigen over the seeds."""

    name: str
    avg_above: SeedCount  # its average above Eigen's (untested)
    sig_above: SeedCount  # significantly above Eigen on some set (baseline family of the seed)
    sig_below: SeedCount  # significantly below on some set
    fn_change: list[float] | None  # per seed: FrameNet-retrofitted minus plain average
    fn_lower: SeedCount | None  # the FrameNet change negative (untested)


@dataclass(frozen=True)
class Facts06:
    """Everything notebook 06's template decides by."""

    n_seeds: int
    small: bool
    prior: PriorHelps
    gain_range: tuple[float, float] | None
    trends: list[AlphaTrend]
    paper_prior: tuple[int, int, int] | None  # (paper above, its direction matched by a test, n)
    #: lexicon name -> (Eigen + RF minus Eigen (untested average), sets significantly above
    #: Eigen in the seed-independent family)
    rf_gains: dict[str, tuple[float, int]]
    median_rf: float | None
    median_prior: float | None
    larger_median: Literal["retrofitting", "the prior", "neither", "n/a"]
    twice_range: tuple[float, float] | None
    #: lexicon name -> (alpha, best CCAPrior + RF, Eigen + RF, "above"/"below"/"equal to")
    twice: dict[str, tuple[float, float, float, str]]
    paper_twice: dict[str, tuple[float, float, str]]
    methods: list[Method]
    best_baseline: str
    best_baseline_values: list[float]
    loss_fall: tuple[float, float] | None  # GloVe's last-epoch fall, min and max over seeds
    n_epochs: int
    #: GloVe's epochs run, min and max over the seeds (None without loss histories)
    epochs_run: tuple[int, int] | None
    #: GloVe's stopping tolerance (None: it ran a fixed number of epochs) and cap
    glove_tol: float | None
    glove_cap: int
    #: seeds whose GloVe fit reached the cap before the tolerance (of ``n_glove_seeds``)
    glove_capped: int
    n_glove_seeds: int
    #: the last-epoch fall of the loss of the seeds that reached the cap, min and max
    capped_fall: tuple[float, float] | None
    geo_evaluated: bool
    geo_groups: dict[str, tuple[tuple[float, float], int, int]]  # range, n significant, n
    geo_rf: dict[str, tuple[float, bool]]  # lexicon name -> change, significant
    geo_rf_lower_sig: int  # lexicons lowering Eigen's accuracy significantly
    table2: Table2Verdict
    paper_table2_all_below: bool | None
    corpus_ratio: float | None
    start_spread: float | None  # max - min of Eigen's average over the start vectors
    same_start: bool  # spread below 0.05 points (the printed precision of the averages)
    baseline_sd_range: tuple[float, float] | None
    dimension: SweepClaim | None = None
    data: SweepClaim | None = None
    #: per data size of the sweep, the shape of the average over the dimensions (untested)
    dim_shapes: list[tuple[str, str]] = field(default_factory=list)
    #: the shape of the average over the data sizes at the largest dimension (untested)
    data_shape: str = "n/a"
    #: per data size, the average at the largest minus at the smallest dimension (untested)
    dim_gains: list[tuple[str, float]] = field(default_factory=list)
    #: per lexicon name, graph-only + RF minus graph-only on the matched pairs (untested)
    table2_rf_change: dict[str, float] = field(default_factory=dict)


def _range(values: Sequence[float]) -> tuple[float, float] | None:
    a = np.asarray([v for v in values if finite(v) is not None], dtype=float)
    return (float(a.min()), float(a.max())) if a.size else None


def _relation(a: float, b: float) -> str:
    """Rule (descriptive, untested): ``"above"`` / ``"below"`` / ``"equal to"`` by the sign of
    ``a - b``."""
    return "above" if a > b else "below" if a < b else "equal to"


def _methods(rec: Mapping[str, Any]) -> list[Method]:
    eig = float(rec["eigen_avg_spearman"])
    avg = rec["baseline_avg_spearman"]
    out = []
    for m, name in (("Skip-Gram", "skip-gram"), ("GloVe", "GloVe")):
        key = f"{m} NPK"
        if key not in avg:
            continue
        v = seed_values(avg[key])
        fn = None
        fn_lower = None
        if f"{m} FN" in avg:
            d = seed_values(avg[f"{m} FN"]) - v
            fn = [float(x) for x in d]
            fn_lower = seed_count(d < 0)
        out.append(Method(
            name, seed_count(v > eig),
            seed_count(np.asarray(rec["baseline_sets_better"][key]) > 0),
            seed_count(np.asarray(rec["baseline_sets_worse"][key]) > 0), fn, fn_lower))  # fmt: skip
    return out


def facts_06(
    rec: Mapping[str, Any], other: Mapping[str, Any] | None = None, *,
    paper: PaperNumbers | None = None,
) -> Facts06:  # fmt: skip
    """The facts of notebook 06 from its records (``other`` is not used: the notebook has no
    other-size comparison) and the paper's numbers."""
    paper = paper or PaperNumbers()
    eig = float(rec["eigen_avg_spearman"])
    cc = {k: float(v) for k, v in rec["ccaprior_avg_spearman"].items()}
    gains = {k: v - eig for k, v in cc.items()}
    # the paper's CCAPrior directions, matched by a significant difference of ours
    known = [k for k in cc if finite(paper.ccaprior_gain.get(k)) is not None]
    paper_prior = None
    if known:
        p_above = sum(paper.ccaprior_gain[k] > 0 for k in known)
        matched = sum(
            set_direction(rec["ccaprior_sets_better"].get(k, 0), rec["ccaprior_sets_worse"].get(k, 0))
            == ("above" if paper.ccaprior_gain[k] > 0 else "below")
            for k in known
        )  # fmt: skip
        paper_prior = (p_above, matched, len(known))
    erf = {k: float(v) for k, v in rec["eigen_rf_avg_spearman"].items()}
    rf_sets = rec["eigen_rf_sets_better"]
    rf_gains = {LEXICON_NAMES.get(k, k): (v - eig, int(rf_sets.get(k, 0))) for k, v in erf.items()}
    med_rf = float(np.median([g for g, _ in rf_gains.values()])) if rf_gains else None
    med_prior = float(np.median(list(gains.values()))) if gains else None
    larger: Literal["retrofitting", "the prior", "neither", "n/a"] = "n/a"
    if med_rf is not None and med_prior is not None:
        larger = ("retrofitting" if med_rf > med_prior else "the prior" if med_rf < med_prior
                  else "neither")  # fmt: skip
    ccrf = {k: float(v) for k, v in rec["ccaprior_rf_avg_spearman"].items()}
    twice: dict[str, tuple[float, float, float, str]] = {}
    paper_twice: dict[str, tuple[float, float, str]] = {}
    for lex, name in LEXICON_NAMES.items():
        ks = [k for k in ccrf if _split(k)[0] == lex]
        if not ks or lex not in erf:
            continue
        best = max(ks, key=lambda k: ccrf[k])
        twice[name] = (_split(best)[1], ccrf[best], erf[lex], _relation(ccrf[best], erf[lex]))
        if lex in paper.prior_twice:
            pv, pe = paper.prior_twice[lex]
            paper_twice[name] = (pv, pe, _relation(pv, pe))
    avg = rec["baseline_avg_spearman"]
    best_key = max(avg, key=lambda k: float(np.nanmean(seed_values(avg[k]))))
    m, lex = best_key.split(" ")
    m = {"Skip-Gram": "skip-gram"}.get(m, m)
    best_name = m if lex == "NPK" else f"{m} retrofitted with {LEXICON_NAMES.get(lex, lex)}"
    loss = rec.get("glove_loss", {})
    # records written before GloVe had a stopping rule ran a fixed number of epochs
    stop = rec.get("glove_stop") or {"tol": None, "epochs": max(map(len, loss.values()), default=0)}
    changes_by_seed = {}
    for seed, v in loss.items():
        a = [x for x in v if x is not None]
        if len(a) >= 2 and a[-2]:
            changes_by_seed[seed] = (a[-2] - a[-1]) / a[-2]
    changes = list(changes_by_seed.values())
    # geographic analogies
    q = rec["geo_questions"]
    geo = rec["spectral_geo"]
    geo_eig = float(rec["eigen_geo_accuracy"])
    groups: dict[str, tuple[tuple[float, float], int, int]] = {}
    for gname, pred in (("CCAPrior", lambda k: k.startswith("CCAPrior ") and not
                         k.startswith("CCAPrior + RF ")),
                        ("CCAPrior + RF", lambda k: k.startswith("CCAPrior + RF "))):  # fmt: skip
        g = {k: v for k, v in geo.items() if pred(k)}
        rng = _range([float(v["accuracy"]) - geo_eig for v in g.values()])
        if g and rng is not None:
            groups[gname] = (rng, sum(bool(v["significant"]) for v in g.values()), len(g))
    geo_rf = {LEXICON_NAMES.get(k.split(" ", 1)[1], k.split(" ", 1)[1]):
              (float(v["accuracy"]) - geo_eig, bool(v["significant"]))
              for k, v in geo.items() if k.startswith("Eigen ")}  # fmt: skip
    lower_sig = sum(sig and d < 0 for d, sig in geo_rf.values())
    # Table 2 and the paper
    paper_below = None
    if paper.table2 and finite(paper.eigen) is not None:
        paper_below = all(v < paper.eigen for v in paper.table2.values())
    ratio = None
    if paper.tokens and rec.get("n_tokens"):
        ratio = float(paper.tokens) / float(rec["n_tokens"])
    # seeds
    starts = seed_values(rec.get("eigen_avg_by_start", {}))
    spread = float(np.nanmax(starts) - np.nanmin(starts)) if starts.size > 1 else None
    sw = rec.get("sweep") or {}
    dim_shapes: list[tuple[str, str]] = [(str(lab), curve_shape(row)) for lab, row in
                  zip(sw.get("sizes", []), sw.get("avg", []))]  # fmt: skip
    data_shape = curve_shape([row[-1] for row in sw["avg"]]) if sw else "n/a"
    dim_gains = [(str(lab), float(row[-1]) - float(row[0])) for lab, row in
                 zip(sw.get("sizes", []), sw.get("avg", []))
                 if len(row) > 1 and finite(row[-1]) is not None
                 and finite(row[0]) is not None]  # fmt: skip
    rf_change = {LEXICON_NAMES.get(k, k): float(v["graph_rf"]) - float(v["graph"])
                 for k, v in rec.get("table2_matched", {}).items()
                 if v["graph"] is not None and v["graph_rf"] is not None}  # fmt: skip
    n = len(rec["seeds"])
    sds = [float(np.std(seed_values(v), ddof=1)) for v in avg.values()
           if seed_values(v).size > 1]  # fmt: skip
    return Facts06(
        n_seeds=n, small=rec.get("data_size") == "small",
        prior=prior_helps(rec), gain_range=_range(list(gains.values())),
        trends=alpha_trends(rec), paper_prior=paper_prior,
        rf_gains=rf_gains, median_rf=med_rf, median_prior=med_prior, larger_median=larger,
        twice_range=_range([ccrf[k] - cc[k] for k in cc if k in ccrf]),
        twice=twice, paper_twice=paper_twice,
        methods=_methods(rec), best_baseline=best_name,
        best_baseline_values=[float(x) for x in seed_values(avg[best_key])],
        loss_fall=_range(changes),
        n_epochs=len(next(iter(loss.values()))) if loss else 0,
        epochs_run=(min(map(len, loss.values())), max(map(len, loss.values()))) if loss else None,
        glove_tol=stop.get("tol"), glove_cap=int(stop.get("epochs", 0)),
        glove_capped=sum(v == "epochs" for v in stop.get("stopped_by", {}).values()),
        n_glove_seeds=len(loss),
        capped_fall=_range([c for seed, c in changes_by_seed.items()
                            if stop.get("stopped_by", {}).get(seed) == "epochs"]),
        geo_evaluated=int(q["answerable"]) > 0, geo_groups=groups, geo_rf=geo_rf,
        geo_rf_lower_sig=lower_sig,
        table2=table2_verdict(rec), paper_table2_all_below=paper_below, corpus_ratio=ratio,
        start_spread=spread, same_start=spread is not None and 100 * spread < 0.05,
        baseline_sd_range=_range(sds) if n > 1 else None,
        dimension=dimension_claim(rec), data=data_claim(rec), dim_shapes=dim_shapes,
        data_shape=data_shape, dim_gains=dim_gains, table2_rf_change=rf_change,
    )  # fmt: skip
