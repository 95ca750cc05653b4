"""Records and Discussion of notebook 07, rendered from the run.

:func:`translingual_records` gathers the numbers a run of notebook 07 records (the notebook
passes each to :func:`workbench.records.record`); :func:`discussion_07` turns those records into
the notebook's Discussion. Every number in the text is read from the records or from the
paper's reported tables (:func:`workbench.reported.reported`), and every qualitative word
("ahead", "significantly", "replicated") is chosen by comparing them, so a re-run with other
data, parameters or seeds cannot contradict its own text.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from workbench.crosslingual import compare_pairs
from workbench.reported import reported
from workbench.significance import smallest_superior_set

from .._text import as_float, dpts, escape, pts
from ._experiment import TranslingualResult
from ._verses import PAPER_CLAIMS, VerseRetrievalResult

__all__ = ["translingual_records", "discussion_07"]

LEARNED = ("OPCA", "CPLSA", "Word-by-word", "Word-by-word+LSA", "JPLSA", "CCA", "CL-LSI")


# ----------------------------------------------------------------------------- records


def translingual_records(
    result: TranslingualResult, verse: VerseRetrievalResult, *, alpha: float = 0.05
) -> dict[str, Any]:
    """The values notebook 07 records, as JSON-ready Python objects.

    Parameters
    ----------
    result : TranslingualResult
        The paper's setup (chapters), from
        :func:`~workbench.studies.translingual.run_translingual`.
    verse : VerseRetrievalResult
        The verse-level evaluation, from
        :func:`~workbench.studies.translingual.run_verse_retrieval`.
    alpha : float
        Level of every test (after Holm or Bonferroni).

    Returns
    -------
    dict
        Record name -> value (see the keys; numbers are fractions, not points).
    """
    data, cfg = result.data, result.config
    tt = result.test_table.set_index("method")
    rec: dict[str, Any] = {}
    rec["n_terms_joint"] = len(data.space)
    rec["n_terms_language"] = {k: int(len(v)) for k, v in data.space.language_columns.items()}
    rec["n_chapters"] = {k: int(len(v)) for k, v in data.parts.items()}
    rec["n_books"] = {p: len(getattr(data.split, p)) for p in ("train", "dev", "test")}
    rec["n_test_queries"] = int(2 * len(data.parts["test"]))
    rec["test_top1"] = tt["top1"].astype(float).to_dict()
    rec["test_mrr"] = tt["mrr"].astype(float).to_dict()
    rec["chosen_dim"] = tt["dim"].astype(str).to_dict()
    rec["chosen_setting"] = tt["setting"].astype(str).to_dict()
    sup_top1 = smallest_superior_set(result.test_hits, alpha=alpha)
    sup_mrr = smallest_superior_set(result.test_rr, alpha=alpha)
    rec["superior_set_top1"] = list(sup_top1.members)
    rec["superior_separated_top1"] = bool(sup_top1.separated)
    rec["superior_set_mrr"] = list(sup_mrr.members)
    pairs = compare_pairs(result.test_hits, [(b, a) for a, b in PAPER_CLAIMS], alpha=alpha)
    rec["retrieval_pairs"] = _pair_records(pairs)
    curves = result.dev_mrr_by_dim()
    rec["dev_mrr_by_dim"] = _by_dim(curves)
    rec["dev_mrr_flat"] = result.dev_mrr_flat()
    hist = result.plsa_history
    peak: dict[str, dict[str, int]] = {}
    for m in result.models:
        if m.method in ("JPLSA", "CPLSA"):
            peak.setdefault(m.method, {})[str(m.params["topics"])] = int(m.params["iterations"])
    rec["plsa_peak_iteration"] = peak
    rec["plsa_max_iterations"] = {"JPLSA": cfg.jplsa_iter, "CPLSA": cfg.cplsa_iter}
    rec["plsa_eval_every"] = cfg.eval_every
    rec["plsa_seconds_per_iteration"] = {
        f"{m.method} {m.params['topics']}": m.fit_seconds / rec["plsa_max_iterations"][m.method]
        for m in result.models
        if m.method in ("JPLSA", "CPLSA")
    }
    rec["plsa_history_points"] = int(len(hist))
    cl = result.classification.set_index("method")
    rec["classification_accuracy"] = cl["test accuracy"].astype(float).to_dict()
    rec["classification_dev_accuracy"] = cl["dev accuracy"].astype(float).to_dict()
    rec["classification_dim"] = cl["dim"].astype(str).to_dict()
    rec["superior_set_classification"] = list(
        smallest_superior_set(result.class_hits, alpha=alpha).members
    )
    class_pairs = [("CL-LSI", "OPCA"), ("CCA", "OPCA"), ("JPLSA", "CPLSA")]
    rec["classification_pairs"] = _pair_records(compare_pairs(result.class_hits, class_pairs,
                                                              alpha=alpha))  # fmt: skip
    test_labels = pd.Series(data.divisions[data.parts["test"]])
    rec["majority_share"] = float(test_labels.value_counts(normalize=True).iloc[0])
    dev_books = pd.Series(data.books[data.parts["dev"]]).value_counts()
    rec["dev_largest_book"] = {"book": str(dev_books.index[0]), "chapters": int(dev_books.iloc[0])}
    rec["fit_seconds"] = {k: float(v) for k, v in result.fit_seconds.items()}
    # ---- verses
    rec["seeds"] = list(verse.seeds)
    rec["verse_pool"] = int(verse.pool_size)
    rec["verse_min_terms"] = int(verse.min_terms)
    rec["verse_eligible"] = dict(verse.n_eligible)
    rec["verse_total"] = {p: int(np.sum(data.verse_part == p)) for p in ("dev", "test")}
    top1 = verse.per_seed("top1")
    mrr = verse.per_seed("mrr")
    rec["verse_top1"] = {m: [float(v) for v in top1[m]] for m in top1.columns}
    rec["verse_mrr"] = {m: [float(v) for v in mrr[m]] for m in mrr.columns}
    rec["verse_chosen"] = {
        m: [_chosen_text(verse.tests[s], m) for s in verse.seeds] for m in top1.columns
    }
    rec["verse_ranking"] = verse.methods
    rec["verse_letters"] = verse.letters(alpha)
    claims = verse.claims(PAPER_CLAIMS, alpha)
    rec["verse_claims"] = {
        c: {"difference": [float(v) for v in g["difference"]],
            "holm p": [float(v) for v in g["holm p"]],
            "holds": [bool(v) for v in g["holds"]]}
        for c, g in claims.groupby("claim", sort=False)
    }  # fmt: skip
    sup = verse.superior_sets(alpha)
    rec["verse_superior_sets"] = {str(s): list(r.members) for s, r in sup.items()}
    pw = verse.pairwise(alpha)
    rec["verse_n_pairs"] = int((pw["seed"] == verse.seeds[0]).sum())
    rec["verse_significant_pairs"] = {str(s): int(g["significant"].sum())
                                      for s, g in pw.groupby("seed")}  # fmt: skip
    rec["verse_replicated_differences"] = [list(p) for p in verse.replicated_differences(alpha)]
    dev_mean, _ = verse.dev_mrr()
    rec["verse_dev_mrr"] = _by_dim(dev_mean)
    return rec


def _pair_records(table: pd.DataFrame) -> list[dict[str, Any]]:
    cols = ["baseline", "method", "accuracy baseline", "accuracy method", "difference",
            "n baseline only", "n method only", "mcnemar p", "holm p", "significant"]  # fmt: skip
    out = []
    for row in table[cols].to_dict(orient="records"):
        out.append({str(k): (v.item() if hasattr(v, "item") else v) for k, v in row.items()})
    return out


def _by_dim(table: pd.DataFrame) -> dict[str, dict[str, float]]:
    """``{method: {dimension: value}}`` of a dimensions x methods table (NaN left out)."""
    out = {}
    for m in table.columns:
        col = table[m].dropna()
        out[str(m)] = {str(int(d)): float(v) for d, v in zip(col.index, col)}
    return out


def _chosen_text(table: pd.DataFrame, method: str) -> str:
    """The dev-chosen dimension and setting of ``method`` in a test table."""
    dim, setting = table.at[method, "dim"], table.at[method, "setting"]
    parts = []
    if str(dim) != "N/A" and "topics=" not in str(setting):
        parts.append(f"d={dim!s}")
    if setting:
        parts.append(str(setting))
    return ", ".join(parts) if parts else "no setting"


# ----------------------------------------------------------------------------- text helpers


def _p(v: float) -> str:
    v = float(v)
    return "< 0.001" if v < 0.001 else f"{v:.3f}"


def _peq(v: float) -> str:
    """``"= 0.012"`` or ``"< 0.001"``."""
    text = _p(v)
    return text if text.startswith("<") else f"= {text}"


def _mpts(vals: Sequence[float], signed: bool = False) -> str:
    a = np.asarray([v for v in vals if v is not None], dtype=float)
    if a.size == 0:
        return "n/a"
    text = f"{100 * a.mean():{'+' if signed else ''}.1f}"
    return text + (f" ± {100 * a.std(ddof=1):.1f}" if a.size > 1 else "")


def _names(items: Sequence[str]) -> str:
    items = list(items)
    if not items:
        return "none"
    if len(items) == 1:
        return items[0]
    return ", ".join(items[:-1]) + " and " + items[-1]


def _seeds_phrase(k: int, n: int) -> str:
    if n == 1:
        return "with the one seed of this run"
    if k == n:
        return f"in all {n} seeds"
    if k == 0:
        return f"in none of the {n} seeds"
    return f"in {k} of {n} seeds"


def _paper_value(table: str, method: str, column: str) -> float | None:
    t = reported("translingual", table).table
    if method not in t.index:
        return None
    return as_float(t.at[method, column])


# ----------------------------------------------------------------------------- discussion


def discussion_07(rec: Mapping[str, Any]) -> str:
    """The Discussion of notebook 07 from its records (see the notebook's last cell)."""
    lines = [_setup_line(rec), _chapter_line(rec), _linear_line(rec), _plsa_line(rec),
             _verse_line(rec), _verse_claims_line(rec), _classification_line(rec),
             _speed_line(rec)]  # fmt: skip
    bottom = _bottom_line(rec)
    text = "\n".join(f"* {x}" for x in lines if x) + "\n\n" + bottom
    return escape(text)


def _setup_line(rec: Mapping[str, Any]) -> str:
    n = rec["n_chapters"]
    seeds = rec["seeds"]
    per_lang = rec["n_terms_language"]
    return (
        f'**This run** (`DATA_SIZE = "{rec["data_size"]}"`): '
        + " and ".join(f"{v} {k} terms" for k, v in per_lang.items())
        + f" in {rec['n_terms_joint']} joint columns; {n['train']} / {n['dev']} / {n['test']} "
        f"train / dev / test chapters. The paper-setup models have no random stream (exact "
        f"eigen-solvers, the paper's frequency-sorted PLSA initialisation) and are fitted once; "
        + (
            f"seed {seeds[0]} draws"
            if len(seeds) == 1
            else f"the {len(seeds)} seeds {', '.join(map(str, seeds))} each draw"
        )
        + " the verse pools of the harder evaluation."
    )


def _chapter_line(rec: Mapping[str, Any]) -> str:
    top1, mrr = rec["test_top1"], rec["test_mrr"]
    learned = [m for m in LEARNED if m in top1]
    q = rec["n_test_queries"]
    lo = min(learned, key=lambda m: top1[m])
    errors = {m: round((1 - top1[m]) * q) for m in learned}
    worst = max(errors.values())
    sup = rec["superior_set_top1"]
    if set(sup) >= set(learned):
        sup_text = (f"The smallest significantly superior set (Bonferroni-corrected t-tests, "
                    f"p < 0.05) contains **all {len(learned)} learned methods**: it only "
                    "separates them from *Untranslated*.")  # fmt: skip
    else:
        sup_text = (f"The smallest significantly superior set (Bonferroni-corrected t-tests, "
                    f"p < 0.05) is {_names(sup)}.")  # fmt: skip
    sig = [r for r in rec["retrieval_pairs"] if r["significant"]]
    pair_text = (
        "None of the paper's four pairwise claims is significant here (McNemar, Holm over the "
        "four)."
        if not sig
        else "Significant after Holm (McNemar): "
        + "; ".join(
            f"{r['method']} vs {r['baseline']} ({dpts(r['difference'])} points, "
            f"p {_peq(r['holm p'])})"
            for r in sig
        )
        + "."  # fmt: skip
    )
    t1 = _paper_value("table1", "OPCA", "Accuracy")
    t2 = _paper_value("table2", "OPCA", "Accuracy")
    ceiling = worst <= max(2, 0.01 * q)
    head = ("**Chapter retrieval (the paper's setup) is at its ceiling.**" if ceiling
            else "**Chapter retrieval (the paper's setup).**")  # fmt: skip
    err = (f" — at most {worst} error{'s' if worst != 1 else ''} in {q} queries —" if ceiling
           else ",")  # fmt: skip
    return (
        f"{head} At their dev-chosen settings the learned methods reach test Top-1 between "
        f"{pts(top1[lo])} ({lo}) and {pts(max(top1[m] for m in learned))}{err} against "
        f"{pts(top1.get('Untranslated'))} for *Untranslated* "
        f"(MRR {pts(mrr.get('Untranslated'))}; the languages share names). {sup_text} "
        f"{pair_text} The paper's best Top-1 was {pts(t1)} on Europarl and {pts(t2)} on "
        "Wikipedia (OPCA); whole parallel chapters are easier than either"
        + (", so this test cannot rank the methods." if ceiling else ".")
    )


def _dims_where(rec: Mapping[str, Any], a: str, b: str) -> tuple[list[int], list[int]]:
    dev = rec["dev_mrr_by_dim"]
    if a not in dev or b not in dev:
        return [], []
    dims = sorted(set(dev[a]) & set(dev[b]), key=int)
    ahead = [int(d) for d in dims if dev[a][d] > dev[b][d]]
    return ahead, [int(d) for d in dims]


def _linear_line(rec: Mapping[str, Any]) -> str:
    dev = rec["dev_mrr_by_dim"]
    if not {"OPCA", "CL-LSI", "CCA"} <= set(dev):
        return ""
    parts = []
    for other in ("CL-LSI", "CCA"):
        ahead, dims = _dims_where(rec, "OPCA", other)
        d0, d1 = str(dims[0]), str(dims[-1])
        if len(ahead) == len(dims):
            where = "at every dimension"
        elif not ahead:
            where = "at no dimension"
        else:
            where = "at d = " + ", ".join(map(str, ahead)) + f" of {len(dims)} dimensions"
        parts.append(
            f"OPCA is ahead of {other} {where} (MRR {pts(dev['OPCA'][d0])} vs "
            f"{pts(dev[other][d0])} at d = {d0}, {pts(dev['OPCA'][d1])} vs "
            f"{pts(dev[other][d1])} at d = {d1})"
        )
    g = rec["chosen_setting"]
    return (
        "**OPCA vs CL-LSI vs CCA on dev chapters** (Figure 3 analogue): "
        + "; ".join(parts)
        + f". Dev chose OPCA's {g.get('OPCA', 'n/a')} (the paper used gamma = "
        f"{_paper_value('settings', 'OPCA gamma', 'value'):g}) and CCA's {g.get('CCA', 'n/a')} "
        f"(the paper: {_paper_value('settings', 'CCA gamma (Europarl)', 'value'):g} on Europarl, "
        f"{_paper_value('settings', 'CCA gamma (Wikipedia)', 'value'):g} on Wikipedia)."
    )


def _plsa_line(rec: Mapping[str, Any]) -> str:
    dev = rec["dev_mrr_by_dim"]
    peak = rec["plsa_peak_iteration"]
    if not {"JPLSA", "CPLSA"} <= set(dev):
        return ""
    topics = sorted(set(dev["JPLSA"]) & set(dev["CPLSA"]), key=int)
    ahead = [t for t in topics if dev["CPLSA"][t] > dev["JPLSA"][t]]
    vals = "; ".join(f"{pts(dev['CPLSA'][t])} vs {pts(dev['JPLSA'][t])} with {t} topics"
                     for t in topics)  # fmt: skip
    where = ("at every number of topics" if len(ahead) == len(topics)
             else "at no number of topics" if not ahead
             else f"with {', '.join(ahead)} of the {len(topics)} topic numbers")  # fmt: skip
    it_j = [peak["JPLSA"][t] for t in topics]
    it_c = [peak["CPLSA"][t] for t in topics]
    mx = rec["plsa_max_iterations"]
    capped = {m: [t for t in topics if peak[m][t] >= mx[m]] for m in ("JPLSA", "CPLSA")}
    cap_text = "; ".join(
        f"{m} peaks at its cap with {', '.join(ts)} topics, so it may not have converged"
        for m, ts in capped.items()
        if ts
    )
    ratio_paper = _paper_value("em_iterations", "CPLSA", "times fewer iterations than JPLSA")
    ratio = float(np.mean(it_j)) / max(float(np.mean(it_c)), 1.0)
    sec = rec["plsa_seconds_per_iteration"]
    big = topics[-1]
    per_it = ""
    if f"JPLSA {big}" in sec and f"CPLSA {big}" in sec:
        paper_c = _paper_value("em_iterations", "CPLSA", "minutes per iteration")
        paper_j = _paper_value("em_iterations", "JPLSA", "minutes per iteration")
        per_it = (f" A CPLSA iteration with {big} topics (KL projection included) takes about "
                  f"{sec[f'CPLSA {big}'] / sec[f'JPLSA {big}']:.0f} times as long as a JPLSA one "
                  f"(the paper: {paper_c:.0f} vs {paper_j:.0f} minutes on Wikipedia).")  # fmt: skip
    return (
        f"**CPLSA vs JPLSA on dev chapters.** CPLSA is ahead {where} (MRR {vals}). Early stopping "
        f"on dev (every {rec['plsa_eval_every']} iterations) picks iteration "
        f"{', '.join(map(str, it_c))} for CPLSA and {', '.join(map(str, it_j))} for JPLSA "
        f"(caps {mx['CPLSA']} and {mx['JPLSA']}"
        + (f"; {cap_text}" if cap_text else "")
        + f"): on average {ratio:.1f} times fewer iterations for CPLSA (the paper: "
        f"{ratio_paper:.0f} times fewer)." + per_it
    )


def _verse_line(rec: Mapping[str, Any]) -> str:
    top1 = rec["verse_top1"]
    mrr = rec["verse_mrr"]
    ranking = rec["verse_ranking"]
    letters = rec["verse_letters"]
    n = len(rec["seeds"])
    groups: dict[str, list[str]] = {}
    for m in ranking:
        for ch in letters[m]:
            groups.setdefault(ch, []).append(m)
    group_text = "; ".join(f"{ch}: {_names(ms)}" for ch, ms in groups.items())
    sig = rec["verse_significant_pairs"]
    n_sig = sorted(sig.values())
    best = ranking[0]
    chosen = rec["verse_chosen"]
    chosen_text = "; ".join(_chosen_summary(m, chosen[m]) for m in ranking
                            if set(chosen[m]) != {"no setting"})  # fmt: skip

    seeds_text = f"mean ± sd over {n} seeds" if n > 1 else "one seed"
    return (
        f"**The harder test: verse retrieval.** Each of {rec['verse_pool']} English verses drawn "
        f"from the test books must find its Spanish translation among {rec['verse_pool']} Spanish "
        f"verses, and vice versa ({rec['verse_eligible']['test']} of the "
        f"{rec['verse_total']['test']} test verses have at least {rec['verse_min_terms']} counted "
        f"terms on both sides and qualify). Each setting was chosen on a pool of dev verses. "
        f"Test Top-1 ({seeds_text}): "
        + ", ".join(f"{m} {_mpts(top1[m])}" for m in ranking)
        + f" (MRR of {best}: {_mpts(mrr[best])}). The best method stays "
        f"{pts(1 - float(np.mean(top1[best])))} points below the ceiling. Of the "
        f"{rec['verse_n_pairs']} pairs of methods, "
        + (f"{n_sig[0]} to {n_sig[-1]}" if n_sig[0] != n_sig[-1] else f"{n_sig[0]}")
        + " differ significantly per seed (exact McNemar on Top-1 hits, Holm over all pairs); "
        f"the letter groups of differences significant in every seed are {group_text}. "
        f"Dev-chosen settings: {chosen_text}."
    )


def _chosen_summary(method: str, per_seed: Sequence[str]) -> str:
    counts: dict[str, int] = {}
    for c in per_seed:
        counts[c] = counts.get(c, 0) + 1
    if len(counts) == 1:
        return f"{method} {per_seed[0]}"
    return f"{method} " + " or ".join(f"{c} ({k} seed{'s' if k > 1 else ''})"
                                      for c, k in counts.items())  # fmt: skip


def _claim_text(claim: str, c: Mapping[str, Any], n: int) -> str:
    diffs, pvals, holds = c["difference"], c["holm p"], c["holds"]
    k = sum(holds)
    ahead = sum(d > 0 for d in diffs)
    rev = sum(d < 0 and p < 0.05 for d, p in zip(diffs, pvals))
    if n == 1:
        if holds[0]:
            verdict = f"significant (Holm p {_peq(pvals[0])})"
        elif rev:
            verdict = f"**reversed**, significantly (Holm p {_peq(pvals[0])})"
        else:
            verdict = f"not significant (Holm p {_peq(pvals[0])})"
        return f"{claim}: {_mpts(diffs, signed=True)} points, {verdict}"
    if k == n:
        verdict = "**replicated**"
    elif rev == n:
        verdict = "**reversed** in every seed"
    else:
        verdict = "not replicated"
    return (f"{claim}: {_mpts(diffs, signed=True)} points; ahead in {ahead} of {n} seeds, "
            f"significantly (Holm) in {k}, significantly reversed in {rev} — {verdict}")  # fmt: skip


def _verse_claims_line(rec: Mapping[str, Any]) -> str:
    claims = rec["verse_claims"]
    n = len(rec["seeds"])
    order = [f"{a} > {b}" for a, b in PAPER_CLAIMS]
    names = [c for c in order if c in claims] + [c for c in claims if c not in order]
    parts = [_claim_text(claim, claims[claim], n) for claim in names]
    sup = rec["verse_superior_sets"]
    sets = [tuple(v) for v in sup.values()]
    common = max(set(sets), key=sets.count)
    rule = ("a claim is replicated only if the winner is ahead and significant after Holm in "
            "every seed" if n > 1 else "one seed: replication across seeds is not tested")  # fmt: skip
    return (
        f"**The paper's claims on the verse test** ({rule}): "
        + "; ".join(parts)
        + f". The paper's smallest significantly superior set is {_names(list(common))} "
        f"{_seeds_phrase(sets.count(common), n)}."
    )


def _classification_line(rec: Mapping[str, Any]) -> str:
    acc = rec["classification_accuracy"]
    dev = rec["classification_dev_accuracy"]
    order = sorted(acc, key=lambda m: -acc[m])
    sup = rec["superior_set_classification"]
    learned = [m for m in LEARNED if m in acc]
    sup_text = ("contains every learned method: none is significantly better than the others"
                if set(sup) >= set(learned) else f"is {_names(sup)}")  # fmt: skip
    pairs = rec["classification_pairs"]
    pair_text = "; ".join(
        f"{r['method']} vs {r['baseline']} {dpts(r['difference'])} (Holm p {_peq(r['holm p'])})"
        for r in pairs
    )
    p_opca = _paper_value("table3", "OPCA", "Spanish Accuracy")
    p_cca = _paper_value("table3", "CCA", "Spanish Accuracy")
    p_lsi = _paper_value("table3", "CL-LSI", "Spanish Accuracy")
    opca_best_proj = all(acc.get("OPCA", -1) > acc.get(m, 2) for m in ("CCA", "CL-LSI"))
    dev_vals = [dev[m] for m in learned]
    big = rec["dev_largest_book"]
    return (
        "**Classification (Table 3 analogue).** English chapters of the training books label "
        "Spanish chapters of the test books with their division: "
        + ", ".join(f"{m} {pts(acc[m])}" for m in order)
        + f" (the majority division is {pts(rec['majority_share'])} of the test chapters). "
        f"The smallest significantly superior set {sup_text}. Pairs (McNemar, Holm over the "
        f"three): {pair_text}. In the paper OPCA was the best projection on Reuters (Spanish "
        f"accuracy {pts(p_opca)} vs {pts(p_cca)} for CCA and {pts(p_lsi)} for CL-LSI); here "
        f"OPCA is {'ahead of' if opca_best_proj else 'not ahead of both'} CCA and CL-LSI. Dev "
        f"accuracies of the learned methods ({pts(min(dev_vals))} to {pts(max(dev_vals))}) "
        "differ from the test ones: the division mix of the dev books is another one "
        f"({big['book']} alone is {big['chapters']} of the {rec['n_chapters']['dev']} dev "
        "chapters)."
    )


def _speed_line(rec: Mapping[str, Any]) -> str:
    fs = rec["fit_seconds"]
    secs = rec.get("seconds", {})
    parts = ", ".join(f"{m} {fs[m]:.1f} s" for m in ("OPCA", "CCA", "CL-LSI", "JPLSA", "CPLSA",
                                                      "Word-by-word") if m in fs)  # fmt: skip
    wall = ""
    if secs:
        wall = (" Wall time of this run: "
                + ", ".join(f"{k} {v:.0f} s" for k, v in secs.items()) + ".")  # fmt: skip
    return (
        f"**Speed.** Fit time of each method's chosen model: {parts} (PLSA: the whole EM run "
        "with its dev evaluations, fitted in parallel worker processes; word-by-word: IBM "
        "Model 1 on the training verses)." + wall
    )


def _bottom_line(rec: Mapping[str, Any]) -> str:
    n = len(rec["seeds"])
    order = [f"{a} > {b}" for a, b in PAPER_CLAIMS]
    claims = {c: rec["verse_claims"][c] for c in order if c in rec["verse_claims"]}
    held = [c for c, v in claims.items() if all(v["holds"])]
    failed = [c for c, v in claims.items() if not all(v["holds"])]
    reversed_ = [c for c, v in claims.items()
                 if all(d < 0 and p < 0.05 for d, p in zip(v["difference"], v["holm p"]))]  # fmt: skip
    best = rec["verse_ranking"][0]
    seeds = f" in all {n} seeds" if n > 1 else " (one seed)"
    learned = {m for m in LEARNED if m in rec["test_top1"]}
    text = "**Bottom line.** "
    if set(rec["superior_set_top1"]) >= learned:
        text += ("On whole chapters every learned method is at the ceiling and the paper's test "
                 "cannot rank them. ")  # fmt: skip
    text += (
        f"On single verses the methods separate, and {best} is best{seeds}. "
        if all(
            max(rec["verse_top1"], key=lambda m: rec["verse_top1"][m][i]) == best for i in range(n)
        )
        else f"On single verses the methods separate; {best} is best on average. "
    )
    letters = rec["verse_letters"]
    if all(len(v) == 1 for v in letters.values()):
        tiers: dict[str, list[str]] = {}
        for m in rec["verse_ranking"]:
            tiers.setdefault(letters[m], []).append(m)
        text += (f"Differences significant in every seed order them in {len(tiers)} tiers, "
                 + " > ".join("(" + ", ".join(ms) + ")" for ms in tiers.values())
                 + "; within a tier no difference is significant in every seed. ")  # fmt: skip
    verb = {True: "holds", False: "hold"}
    if held:
        text += f"Of the paper's claims, {_names(held)} {verb[len(held) == 1]}{seeds}. "
    if failed:
        text += (f"{_names(failed)} {'does' if len(failed) == 1 else 'do'} not "
                 + ("replicate" if n > 1 else "hold"))  # fmt: skip
        if reversed_:
            text += (f"; {_names(reversed_)} {'is' if len(reversed_) == 1 else 'are'} "
                     f"significantly reversed{seeds}")  # fmt: skip
        text += "."
    return text
