"""Discussion text of notebook 06, rendered from a run's records.

:func:`discussion_06` returns a :func:`workbench.records.narrate` template: numbers of the run
are fields over the records (``{eigen_avg_spearman:pts}``) or are computed here from them,
numbers of the paper come from its reported tables (:func:`workbench.reported.reported`), and
every qualitative word ("above", "in 2 of 3 seeds") is chosen by comparing those numbers, so a
re-run with other data, parameters or seeds cannot contradict its own text. A finding about the
trained baselines counts as replicated only when it holds for every seed.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from workbench.reported import reported

from .._text import as_float, dpts, mean_sd, pts, reported_fraction, seed_values

__all__ = ["discussion_06"]

_LEX = {"WN": "WordNet", "PD": "PPDB", "FN": "FrameNet"}


def _seeds(k: int, n: int) -> str:
    if n == 1:
        return "in the one seed" if k == 1 else "in no seed"
    if k == n:
        return f"in all {n} seeds"
    if k == 0:
        return "in no seed"
    return f"in {k} of {n} seeds"


def _range(values: Sequence[float]) -> str:
    a = np.asarray([v for v in values if v is not None and math.isfinite(v)], dtype=float)
    if a.size == 0:
        return "n/a"
    lo, hi = dpts(a.min()), dpts(a.max())
    return lo if lo == hi else f"{lo} to {hi}"


def _split(key: str) -> tuple[str, float]:
    lex, alpha = key.rsplit(" ", 1)
    return lex, float(alpha)


def _method(m: str) -> str:
    """A method's name inside a sentence."""
    return {"Skip-Gram": "skip-gram"}.get(m, m)


def _n_sets(k: int) -> str:
    return f"{k} set" if k == 1 else f"{k} sets"


def _paper_tokens() -> float | None:
    """Tokens of the paper's training corpus (its reported setup)."""
    try:
        return as_float(reported("eigenwords", "setup").table.at["WIKI5", "tokens"])
    except (FileNotFoundError, KeyError, ValueError, TypeError):
        return None


def _paper() -> tuple[pd.DataFrame, pd.DataFrame] | None:
    try:
        return reported("eigenwords", "table1").table, reported("eigenwords", "table2").table
    except (FileNotFoundError, KeyError, ValueError):
        return None


def _prior_bullet(rec: Mapping[str, Any], paper: pd.DataFrame | None) -> str:
    eig = float(rec["eigen_avg_spearman"])
    cc = {k: float(v) for k, v in rec["ccaprior_avg_spearman"].items()}
    better = rec["ccaprior_sets_better"]
    worse = rec["ccaprior_sets_worse"]
    n = len(cc)
    gains = {k: v - eig for k, v in cc.items()}
    above = sum(g > 0 for g in gains.values())
    n_better = sum(int(better[k]) > 0 for k in cc)
    n_worse = sum(int(worse[k]) > 0 for k in cc)
    if above == n:
        verdict = "Yes, a little: every CCAPrior configuration"
    elif above == 0:
        verdict = "No: no CCAPrior configuration"
    elif above > n / 2:
        verdict = f"Mostly: {above} of {n} CCAPrior configurations"
    else:
        verdict = f"Rarely: {above} of {n} CCAPrior configurations"
    text = (
        f"* **Does the prior help on our corpus? {verdict}** "
        + ("has" if above in (0, n) else "have")
        + " a higher average Spearman than Eigen ({eigen_avg_spearman:pts}); the differences "
        f"range from {_range(list(gains.values()))} points (best: "
        + "{best_ccaprior[lexicon]}, α = {best_ccaprior[alpha]}, {best_ccaprior[avg]:pts}). "
        f"After Holm's correction over the {{n_tests[spectral]}} seed-independent tests, "
        f"{n_better} of {n} configurations are significantly above Eigen on at least one rating "
        f"set and {n_worse} significantly below it on at least one."
    )
    trends: list[str] = []
    for lex in _LEX:
        ks = sorted((k for k in cc if _split(k)[0] == lex), key=lambda k: _split(k)[1])
        if len(ks) < 2:
            continue
        best = max(ks, key=lambda k: cc[k])
        vals = [cc[k] for k in ks]
        if all(b >= a for a, b in zip(vals, vals[1:])):
            shape = "rises with α"
        elif all(b <= a for a, b in zip(vals, vals[1:])):
            shape = "falls with α"
        else:
            shape = f"peaks at α = {_split(best)[1]:g}"
        trends.append(f"with {_LEX[lex]} " + ("the average " if not trends else "it ") + shape)
    if trends:
        text += " " + "; ".join(trends)[0].upper() + "; ".join(trends)[1:] + "."
    if paper is not None:
        t1 = paper
        p_eig = reported_fraction(t1, "Eigen (CCA)", "WordSim NPK")
        pg = {}
        for k in cc:
            lex, a = _split(k)
            pg[k] = reported_fraction(t1, f"CCAPrior alpha={a:g}", f"WordSim {lex}") - p_eig
        known = [k for k in cc if math.isfinite(pg[k])]
        if known:
            p_above = sum(pg[k] > 0 for k in known)
            agree = sum((pg[k] > 0) == (gains[k] > 0) for k in known)
            text += (
                f" In the paper (Table 1, block D–F against its Eigen, {pts(p_eig)}) "
                f"{p_above} of these {len(known)} configurations are above Eigen, by "
                f"{_range([pg[k] for k in known])} points; the direction agrees with ours for "
                f"{agree} of {len(known)}."
            )
    return text


def _retrofit_bullet(rec: Mapping[str, Any], paper: pd.DataFrame | None) -> str:
    eig = float(rec["eigen_avg_spearman"])
    cc = {k: float(v) for k, v in rec["ccaprior_avg_spearman"].items()}
    ccrf = {k: float(v) for k, v in rec["ccaprior_rf_avg_spearman"].items()}
    erf = {k: float(v) for k, v in rec["eigen_rf_avg_spearman"].items()}
    rf_gain = {k: v - eig for k, v in erf.items()}
    twice = {k: ccrf[k] - cc[k] for k in cc if k in ccrf}
    prior_gain = [v - eig for v in cc.values()]
    med_rf = float(np.median(list(rf_gain.values()))) if rf_gain else float("nan")
    med_prior = float(np.median(prior_gain)) if prior_gain else float("nan")
    if math.isfinite(med_rf) and math.isfinite(med_prior):
        if med_rf > med_prior:
            head = "Retrofitting helps more than the prior."
        elif med_rf < med_prior:
            head = "The prior helps more than retrofitting."
        else:
            head = "Retrofitting and the prior help about as much."
    else:
        head = "Retrofitting against the prior."
    sig = rec.get("eigen_rf_sets_better", {})
    text = (
        f"* **{head}** Eigen + RF gains "
        + ", ".join(
            f"{dpts(rf_gain[k])} ({_LEX.get(k, k)}, significantly above Eigen on "
            f"{_n_sets(int(sig.get(k, 0)))})"
            for k in rf_gain
        )  # fmt: skip
        + f" points over Eigen (median {dpts(med_rf)}, against a median CCAPrior gain of "
        f"{dpts(med_prior)}); retrofitting on top of CCAPrior changes its average by "
        f"{_range(list(twice.values()))} points."
    )
    comps = []
    paper_comps = []
    for lex in _LEX:
        ks = [k for k in ccrf if _split(k)[0] == lex]
        if not ks or lex not in erf:
            continue
        best = max(ks, key=lambda k: ccrf[k])
        rel = "above" if ccrf[best] > erf[lex] else "below" if ccrf[best] < erf[lex] else "equal to"
        comps.append(
            f"{_LEX[lex]}: {pts(ccrf[best])} (α = {_split(best)[1]:g}) {rel} {pts(erf[lex])}"
        )
        if paper is not None:
            pv = [reported_fraction(paper, f"CCAPrior+RF alpha={_split(k)[1]:g}", f"WordSim {lex}")
                  for k in ks]  # fmt: skip
            pv = [v for v in pv if math.isfinite(v)]
            pe = reported_fraction(paper, "Eigen (CCA)", f"WordSim {lex}")
            if pv and math.isfinite(pe):
                prel = "above" if max(pv) > pe else "below" if max(pv) < pe else "equal to"
                paper_comps.append(f"{_LEX[lex]} {pts(max(pv))} {prel} {pts(pe)}")
    if comps:
        text += (
            ' "Prior twice" — the best CCAPrior + RF against Eigen + RF with the same '
            "lexicon — " + "; ".join(comps) + "."
        )
        if paper_comps:
            text += " The paper (blocks G–I against A–C): " + "; ".join(paper_comps) + "."
    return text


def _baseline_bullet(rec: Mapping[str, Any], paper: pd.DataFrame | None) -> str:
    eig = float(rec["eigen_avg_spearman"])
    avg = rec["baseline_avg_spearman"]
    n = len(rec["seeds"])
    sg, gl = seed_values(avg["Skip-Gram NPK"]), seed_values(avg["GloVe NPK"])
    parts = [f"skip-gram {mean_sd(sg)}", f"GloVe {mean_sd(gl)}"]
    sg_above = int(np.sum(sg > eig))
    gl_above = int(np.sum(gl > eig))
    text = (
        "* **Baselines on the same corpus**"
        + (" (mean ± sd over the seeds): " if n > 1 else ": ")
        + ", ".join(parts)
        + ", against Eigen's {eigen_avg_spearman:pts}. Skip-gram is above Eigen "
        + _seeds(sg_above, n)
        + ", GloVe "
        + _seeds(gl_above, n)
        + "."
    )
    best_key = max(avg, key=lambda k: np.nanmean(seed_values(avg[k])))
    m, lex = best_key.split(" ")
    m = _method(m)
    name = m if lex == "NPK" else f"{m} retrofitted with {_LEX.get(lex, lex)}"
    text += f" The best trained embedding is {name} ({mean_sd(avg[best_key])})."
    fn = []
    for m in ("Skip-Gram", "GloVe"):
        if f"{m} FN" in avg:
            d = seed_values(avg[f"{m} FN"]) - seed_values(avg[f"{m} NPK"])
            fn.append(
                f"{_method(m)} by {mean_sd(d, sign=True)} (lower {_seeds(int(np.sum(d < 0)), n)})"
            )
    if fn:
        text += " Retrofitting with FrameNet changes " + " and ".join(fn)
        if paper is not None:
            lows = [name for name, row in (("Glove", "Glove"), ("Skip-Gram", "Skip-Gram"))
                    if reported_fraction(paper, row, "WordSim FN") < reported_fraction(paper, row, "WordSim NPK")]  # fmt: skip
            if lows:
                text += "; in the paper FrameNet lowers " + " and ".join(lows)
        text += "."
    loss = rec.get("glove_loss", {})
    changes = []
    for v in loss.values():
        a = [x for x in v if x is not None]
        if len(a) >= 2 and a[-2]:
            changes.append((a[-2] - a[-1]) / a[-2])
    if changes:
        k = len(next(iter(loss.values())))
        lo, hi = f"{100 * min(changes):.1f}", f"{100 * max(changes):.1f}"
        text += f" GloVe's loss fell in its last epoch (of {k}) by " + (
            f"{lo} %." if lo == hi else f"{lo} to {hi} % over the seeds."
        )
    return text


def _geo_bullet(rec: Mapping[str, Any], paper: pd.DataFrame | None) -> str:
    q = rec["geo_questions"]
    if int(q["answerable"]) == 0:
        return (
            "* **Geographic analogies** are not evaluated at this size: none of the "
            f"{int(q['total'])} `capital-common-countries` questions has all four words in the "
            "vocabulary."
        )
    eig = float(rec["eigen_geo_accuracy"])
    geo = rec["spectral_geo"]
    groups = {
        "CCAPrior": {k: v for k, v in geo.items() if k.startswith("CCAPrior ")
                     and not k.startswith("CCAPrior + RF ")},
        "CCAPrior + RF": {k: v for k, v in geo.items() if k.startswith("CCAPrior + RF ")},
    }  # fmt: skip
    erf = {k.split(" ", 1)[1]: v for k, v in geo.items() if k.startswith("Eigen ")}
    diffs = []
    for name, g in groups.items():
        if not g:
            continue
        d = [float(v["accuracy"]) - eig for v in g.values()]
        n_sig = sum(bool(v["significant"]) for v in g.values())
        diffs.append(
            f"{name} by {_range(d)} points ({n_sig} of {len(g)} significantly after Holm's "
            "correction)"
        )
    text = (
        f"* **Geographic analogies are weak evidence here.** Only {int(q['answerable'])} of the "
        f"{int(q['total'])} `capital-common-countries` questions have all four words in the "
        "vocabulary; Eigen answers {eigen_geo_accuracy:pts} % of them. The accuracies differ "
        "from Eigen's for " + "; for ".join(diffs) + "."
    )
    if erf:
        parts = []
        for lex, v in erf.items():
            sig = " (significant after Holm)" if v["significant"] else ""
            parts.append(f"{_LEX.get(lex, lex)} {dpts(float(v['accuracy']) - eig)}{sig}")
        text += " Retrofitting Eigen changes its accuracy by " + ", ".join(parts) + " points."
        if paper is not None:
            pe = reported_fraction(paper, "Eigen (CCA)", "Geo NPK")
            pd_ = [f"{_LEX[lex]} {dpts(reported_fraction(paper, 'Eigen (CCA)', f'Geo {lex}') - pe)}"
                   for lex in _LEX]  # fmt: skip
            ours_down = sum(float(v["accuracy"]) < eig for v in erf.values())
            text += (
                " The paper reports that retrofitting lowers Eigen's geographic accuracy ("
                + ", ".join(pd_)
                + f" points) while CCAPrior preserves it; here retrofitting lowers it with "
                f"{ours_down} of {len(erf)} lexicons."
            )
    return text


def _table2_bullet(
    rec: Mapping[str, Any], paper2: pd.DataFrame | None, paper1: pd.DataFrame | None
) -> str:
    eig = float(rec["eigen_avg_spearman"])
    t2 = rec["table2_avg_spearman"]
    cov = rec.get("table2_coverage", {})
    sets = rec.get("table2_sets", {})
    above = sum(float(v) >= eig for v in t2.values())
    parts = [
        f"{_LEX.get(k, k)} {pts(v)} (mean coverage {pts(cov.get(k))} % of pairs, "
        f"{sets.get(k, 'n/a')} sets in the average)"
        for k, v in t2.items()
    ]
    verdict = "does not replicate" if above > 0 else "replicates"
    text = (
        f"* **Table 2 (graph-only embeddings) {verdict}.** The SVD of the lexicon graph alone "
        "reaches " + ", ".join(parts) + f"; {above} of {len(t2)} are at or above Eigen "
        "({eigen_avg_spearman:pts})."
    )
    if paper2 is not None and paper1 is not None:
        pe = reported_fraction(paper1, "Eigen (CCA)", "WordSim NPK")
        pv = [f"{name} {float(paper2.loc[name, 'WordSim']):.1f}" for name in paper2.index]
        below = sum(float(paper2.loc[name, "WordSim"]) / 100 < pe for name in paper2.index)
        text += (
            " The paper's graph-only averages (" + ", ".join(pv) + f") are all below its Eigen "
            f"({pts(pe)})" if below == len(paper2.index) else
            " The paper's graph-only averages (" + ", ".join(pv) + f"; its Eigen: {pts(pe)})"
        )  # fmt: skip
        text += (
            ". Graph-only vectors exist only for connected words, so they are scored on fewer pairs"
        )
        tokens = _paper_tokens()
        if tokens and rec.get("n_tokens"):
            ratio = tokens / float(rec["n_tokens"])
            text += (
                f", and our distributional signal comes from a corpus about {ratio:,.0f} times "
                "smaller than the paper's: plausibly, on a small corpus a lexicon carries "
                "comparatively more of what the rating sets measure"
            )
        text += "."
    return text


def _seed_bullet(rec: Mapping[str, Any]) -> str:
    starts = seed_values(rec.get("eigen_avg_by_start", {}))
    n = len(rec["seeds"])
    text = "* **Seeds.** "
    if starts.size > 1:
        spread = float(np.nanmax(starts) - np.nanmin(starts))
        same = "the same to the reported precision" if 100 * spread < 0.05 else (
            f"within {100 * spread:.2f} points")  # fmt: skip
        text += (
            f"Eigen recomputed from {starts.size} different start vectors gives average "
            f"Spearmans {same}: the eigenword and CCAPrior rows do not depend on the seed, "
        )
    else:
        text += "The eigenword and CCAPrior rows are converged SVDs (no seed dependence), "
    sds = [float(np.std(seed_values(v), ddof=1)) for v in rec["baseline_avg_spearman"].values()
           if seed_values(v).size > 1]  # fmt: skip
    if n > 1 and sds:
        text += (
            f"while the {n} seeds move the skip-gram and GloVe averages by a standard deviation "
            f"of {100 * min(sds):.1f} to {100 * max(sds):.1f} points."
        )
    else:
        text += "and the trained baselines were run with one seed only (`SEEDS = 1`)."
    return text


def discussion_06(rec: Mapping[str, Any]) -> str:
    """The Discussion of notebook 06 from its records (a :func:`workbench.records.narrate`
    template; see the notebook's last cell)."""
    papers = _paper()
    paper1, paper2 = papers if papers is not None else (None, None)
    n_seeds = len(rec["seeds"])
    head = (
        "Numbers of this run: {n_tokens:,} tokens, {n_words:,} words, m = {dim}; "
        "{n_sets_in_average} of the 11 rating sets enter every average; "
        + (
            f"skip-gram and GloVe over {n_seeds} seeds (mean ± sd)."
            if n_seeds > 1
            else "skip-gram and GloVe with one seed."
        )  # fmt: skip
    )
    if rec.get("data_size") == "small":
        head += " **At this size the numbers only show that the pipeline runs.**"
    bullets = [
        _prior_bullet(rec, paper1),
        _retrofit_bullet(rec, paper1),
        _baseline_bullet(rec, paper1),
        _geo_bullet(rec, paper1),
        _table2_bullet(rec, paper2, paper1),
        "* **NP bracketing** is not evaluated: the data set of Lazaridou et al. (2013) is not "
        "publicly available.",
        _seed_bullet(rec),
        "* **Multiple comparisons.** Significance marks are Holm-corrected over "
        "{n_tests[spectral]} seed-independent tests (every rating set of every Eigen + RF, "
        "CCAPrior and CCAPrior + RF row against Eigen) and, per seed, over "
        "{n_tests[baselines per seed]} tests of the trained baselines; the uncorrected p-values "
        "are in `table1_per_dataset.csv`.",
    ]
    # the bullets hold literal text from the records and the paper as well as fields: escape
    # everything except the fields written above as templates
    return head + "\n\n" + "\n".join(bullets)
