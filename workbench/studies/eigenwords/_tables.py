r"""The tables of notebook 06 from the scores of :func:`run_prior_study`.

:func:`comparison_table` and :func:`holm_marks` test every embedding against eigenwords
without prior knowledge, with Holm's correction over a family of tests;
:func:`table1_display` summarises the per-seed tables as ``mean ± sd`` with marks that count
only findings that hold for every seed; :func:`graph_only_tests` tests the Table 2 graph-only
embeddings against Eigen on the pairs both score; :func:`prior_records` gives the numbers the
notebook records (through :class:`~workbench.studies.eigenwords.PriorResult`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
import pandas as pd

from workbench.significance import (
    adjust_finite,
    compare_accuracy,
    compare_wordsim,
    seed_agreement,
    seed_summary,
)

from .._values import as_float, reported_fraction
from ._matched import common_mask, restrict
from ._run import EIGEN, LEXICON_NAMES, EmbeddingScores, Label, PriorStudy, label_key

__all__ = [
    "comparison_table",
    "holm_marks",
    "table1_display",
    "prior_gains",
    "study_tables",
    "baseline_rf_gains",
    "graph_only_tests",
    "table2_matched",
    "per_set_display",
]

_BLOCKS = {"CCAPrior": "CCAPrior", "CCAPrior + RF": "CCAPrior + RF"}


def _lexicon_order(present: Any) -> list[str]:
    """The lexicon columns present: ``NPK``, the bundled keys (WN, PD, FN) and then the user's
    lexicons in their order of appearance -- a user's lexicon is a column like the others."""
    seen = [str(k) for k in dict.fromkeys(present)]
    bundled = [k for k in ["NPK", *LEXICON_NAMES] if k in seen]
    return bundled + [k for k in seen if k not in bundled]


def _block(method: str) -> str:
    return _BLOCKS.get(method, "Retrofitting")


def comparison_table(
    scores: Mapping[Label, EmbeddingScores],
    names: Sequence[str],
    *,
    min_pairs: int = 10,
    reference: Label = EIGEN,
) -> pd.DataFrame:
    """One row per embedding: averages, per-set Spearman and uncorrected tests against
    ``reference``.

    Columns: ``block, row, method, lexicon, alpha, avg, geo, sets`` (sets in the average),
    the Spearman of every set, ``d <set>`` (difference to the reference), ``p <set>``
    (two-sided Williams test of :func:`workbench.significance.compare_wordsim` on the pairs
    both score; NaN for the reference and for sets with fewer than ``min_pairs`` such pairs)
    and ``geo p`` (exact McNemar test of :func:`workbench.significance.compare_accuracy` on
    the questions both can answer; NaN when there are none).
    """
    if reference not in scores:
        raise KeyError(f"the reference {reference} is not among the scores")
    ref = scores[reference]
    ref_res = ref.wordsim.attrs["results"]
    rows = []
    for label, sc in scores.items():
        method, lexicon, alpha = label
        ws = sc.wordsim.set_index("dataset")
        res = sc.wordsim.attrs["results"]
        row: dict[str, str | float | None] = {
            "block": _block(method),
            "row": method if alpha is None else f"alpha = {alpha:g}",
            "method": method, "lexicon": lexicon, "alpha": alpha,
            "avg": sc.average(min_pairs), "geo": float(sc.geo.geographic),
            "sets": int((ws["n_scored"] >= min_pairs).sum()),
        }  # fmt: skip
        for name in names:
            row[name] = float(ws.at[name, "spearman"])  # type: ignore[arg-type]
        for name in names:
            d = p = np.nan
            if label != reference:
                a, b = ref_res[name], res[name]
                both = int((a.scored & b.scored).sum())
                if both >= min_pairs:
                    c = compare_wordsim(a, b)
                    d, p = float(c.difference), float(c.pvalue)
            row[f"d {name}"] = d
            row[f"p {name}"] = p
        geo_p = np.nan
        if label != reference and (ref.geo.scorable & sc.geo.scorable).any():
            geo_p = float(compare_accuracy(ref.geo, sc.geo).mcnemar_pvalue)
        row["geo p"] = geo_p
        rows.append(row)
    return pd.DataFrame(rows)


def holm_marks(
    table: pd.DataFrame,
    names: Sequence[str],
    rows: npt.ArrayLike | None = None,
    *,
    p0: float = 0.05,
) -> pd.DataFrame:
    """Holm-corrected significance of the tests of :func:`comparison_table` over one family.

    Parameters
    ----------
    table : DataFrame
        From :func:`comparison_table`.
    names : sequence of str
        Rating sets.
    rows : boolean mask, optional
        The rows of the family (default: all). The word-similarity tests of these rows (every
        row x set with a p-value) form one family, their geographic McNemar tests another.
    p0 : float, default 0.05

    Returns
    -------
    DataFrame
        A copy of ``table`` with ``q <set>`` (Holm-adjusted p-values), ``better``/``worse``
        (sets where the row is significantly above/below the reference after correction),
        ``tested`` (sets tested), ``geo q`` and ``geo significant`` filled for the family's
        rows (other rows keep NaN / missing marks).
    """
    out = table.copy()
    mask = np.ones(len(out), bool) if rows is None else np.asarray(rows, bool)
    pcols = [f"p {n}" for n in names]
    P = out.loc[mask, pcols].to_numpy(float)
    Q = adjust_finite(P)
    ok = np.isfinite(P)
    for j, n in enumerate(names):
        if f"q {n}" not in out:
            out[f"q {n}"] = np.nan
        out.loc[mask, f"q {n}"] = Q[:, j]
    D = out.loc[mask, [f"d {n}" for n in names]].to_numpy(float)
    sig = np.isfinite(Q) & (Q < p0)
    for col in ("better", "worse", "tested"):
        if col not in out:
            out[col] = pd.array([pd.NA] * len(out), dtype="Int64")
    out.loc[mask, "better"] = (sig & (D > 0)).sum(axis=1)
    out.loc[mask, "worse"] = (sig & (D < 0)).sum(axis=1)
    out.loc[mask, "tested"] = ok.sum(axis=1)
    gq = adjust_finite(out.loc[mask, "geo p"].to_numpy(float))
    if "geo q" not in out:
        out["geo q"] = np.nan
        out["geo significant"] = pd.array([pd.NA] * len(out), dtype="boolean")
    out.loc[mask, "geo q"] = gq
    out.loc[mask, "geo significant"] = np.isfinite(gq) & (gq < p0)
    return out


def _significant_sets(table: pd.DataFrame, names: Sequence[str], sign: int,
                      p0: float) -> pd.DataFrame:  # fmt: skip
    idx = pd.MultiIndex.from_frame(table[["block", "row", "lexicon"]])
    Q = table[[f"q {n}" for n in names]].to_numpy(float)
    D = table[[f"d {n}" for n in names]].to_numpy(float)
    flags = np.isfinite(Q) & (Q < p0) & (np.sign(D) == sign)
    return pd.DataFrame(flags, index=idx, columns=list(names))


def _mean_sd_cell(mean: float, sd: float, n_seeds: int) -> str:
    """``"mean ± sd"`` x 100 to one decimal (the mean alone for one seed or no spread; ``"n/a"``
    for a missing mean)."""
    if not np.isfinite(mean):
        return "n/a"
    text = f"{100 * mean:.1f}"
    if n_seeds > 1 and np.isfinite(sd) and sd > 0:
        text += f" ± {100 * sd:.1f}"
    return text


def table1_display(
    tables: Mapping[int, pd.DataFrame], names: Sequence[str], *, p0: float = 0.05
) -> pd.DataFrame:
    """The Table 1 analogue: ``mean ± sd`` over seeds (Spearman / accuracy x 100) with marks.

    Parameters
    ----------
    tables : dict
        ``{seed: holm_marks(comparison_table(...))}`` with the same rows.
    names : sequence of str
    p0 : float

    Returns
    -------
    DataFrame
        Index ``(block, row)``; columns ``(measure, lexicon)`` for the measures ``avg`` (with
        ``↑b/↓w``: the rating sets where the row is significantly above / below Eigen after
        Holm's correction *for every seed*) and ``geo`` (``*``: McNemar significant after Holm
        for every seed). A value without ``±`` does not depend on the seed.
    """
    n = len(tables)
    idx_cols = ["block", "row", "lexicon"]
    summ = seed_summary({s: t.set_index(idx_cols)[["avg", "geo"]] for s, t in tables.items()})
    better = seed_agreement({s: _significant_sets(t, names, 1, p0) for s, t in tables.items()})
    worse = seed_agreement({s: _significant_sets(t, names, -1, p0) for s, t in tables.items()})
    geo_sig = seed_agreement({
        s: t.set_index(idx_cols)["geo significant"].fillna(False).astype(bool)
        for s, t in tables.items()
    })  # fmt: skip
    tested = next(iter(tables.values())).set_index(idx_cols)["tested"]

    rows = []
    for key in summ.mean.index:
        m, sd = summ.mean.loc[key], summ.sd.loc[key]
        avg = _mean_sd_cell(m["avg"], sd["avg"], n)
        if not pd.isna(tested.loc[key]):
            avg += f" ↑{int((better.loc[key] == n).sum())}/↓{int((worse.loc[key] == n).sum())}"
        geo = _mean_sd_cell(m["geo"], sd["geo"], n) + ("*" if int(geo_sig.loc[key]) == n else "")
        rows.append({"block": key[0], "row": key[1], "lexicon": key[2], "avg": avg, "geo": geo})
    flat = pd.DataFrame(rows)
    out = flat.pivot(index=["block", "row"], columns="lexicon", values=["avg", "geo"])
    lex = _lexicon_order(flat["lexicon"])
    out = out.reindex(columns=pd.MultiIndex.from_product([["avg", "geo"], lex]))
    order = list(dict.fromkeys(zip(flat["block"], flat["row"])))
    blocks = ["Retrofitting", "CCAPrior", "CCAPrior + RF"]
    order.sort(key=lambda br: blocks.index(br[0]) if br[0] in blocks else len(blocks))
    return out.reindex(pd.MultiIndex.from_tuples(order, names=["block", "row"])).fillna("-")


def prior_gains(table: pd.DataFrame, paper: pd.DataFrame | None = None) -> pd.DataFrame:
    """Gains over Eigen of CCAPrior, CCAPrior + RF and Eigen + RF (average Spearman).

    Parameters
    ----------
    table : DataFrame
        :func:`holm_marks` output (one seed; these rows do not depend on the seed).
    paper : DataFrame, optional
        The paper's Table 1 (:func:`workbench.reported.reported`), for its gains over its
        Eigen (points / 100, like ours).

    Returns
    -------
    DataFrame
        Columns ``method, lexicon, alpha, avg, gain, better, worse`` and, with ``paper``,
        ``paper avg, paper gain``.
    """
    eig = table[(table["method"] == "Eigen") & (table["lexicon"] == "NPK")]
    if eig.empty:
        raise ValueError("the table has no Eigen (NPK) row")
    e = float(eig["avg"].iloc[0])
    sel = table[(table["method"].isin(["CCAPrior", "CCAPrior + RF"]))
                | ((table["method"] == "Eigen") & (table["lexicon"] != "NPK"))]  # fmt: skip
    out = sel[["method", "lexicon", "alpha", "avg", "better", "worse"]].copy()
    out["method"] = out["method"].replace({"Eigen": "Eigen + RF"})
    out["gain"] = out["avg"] - e
    if paper is not None:
        p_eigen = as_float(paper.at["Eigen (CCA)", "WordSim NPK"]) / 100

        def paper_avg(method: str, lexicon: str, alpha: float) -> float:
            if method == "Eigen + RF":
                key = "Eigen (CCA)"
            else:
                name = "CCAPrior" if method == "CCAPrior" else "CCAPrior+RF"
                key = f"{name} alpha={alpha:g}"
            return reported_fraction(paper, key, f"WordSim {lexicon}")

        out["paper avg"] = [
            paper_avg(m, lex, a) for m, lex, a in zip(out["method"], out["lexicon"], out["alpha"])
        ]
        out["paper gain"] = out["paper avg"] - p_eigen
    return out.reset_index(drop=True)


_TRAINED = ("Skip-Gram", "GloVe")


def study_tables(
    study: PriorStudy, names: Sequence[str], *, min_pairs: int = 10, p0: float = 0.05
) -> dict[int, pd.DataFrame]:
    """``{seed: table}``: :func:`comparison_table` of the seed's embeddings with Holm's
    correction over two families -- the tests of the seed-independent rows (Eigen + RF,
    CCAPrior, CCAPrior + RF), and the tests of the seed's skip-gram and GloVe rows.
    """
    out = {}
    for s in study.seeds:
        t = comparison_table(study.scores(s), names, min_pairs=min_pairs)
        trained = t["method"].isin(_TRAINED).to_numpy()
        t = holm_marks(t, names, ~trained, p0=p0)
        out[s] = holm_marks(t, names, trained, p0=p0)
    return out


def baseline_rf_gains(tables: Mapping[int, pd.DataFrame]) -> dict[int, pd.DataFrame]:
    """``{seed: gains}``: average Spearman of each retrofitted baseline minus the same
    baseline without retrofitting (rows: method, columns: lexicon)."""
    out = {}
    for s, t in tables.items():
        base = t[t["method"].isin(_TRAINED)].pivot(index="method", columns="lexicon", values="avg")
        lex = [c for c in base.columns if c != "NPK"]
        lex = [k for k in LEXICON_NAMES if k in lex] + [k for k in lex if k not in LEXICON_NAMES]
        out[s] = base[lex].sub(base["NPK"], axis=0)
    return out


def graph_only_tests(
    study: PriorStudy, names: Sequence[str], *, min_pairs: int = 10, p0: float = 0.05
) -> pd.DataFrame:
    """The Table 2 tests: every graph-only embedding against Eigen on each rating set, on the
    pairs Eigen, the graph-only embedding and the retrofitted graph-only embedding all score
    (matched pairs: :func:`~._matched.common_mask`), with Holm's correction over all of them
    (the Table 2 family: lexicons x rating sets).

    Returns
    -------
    DataFrame
        One row per (lexicon, rating set) with at least ``min_pairs`` matched pairs:
        ``lexicon, dataset, n`` (the matched pairs), ``eigen`` (Eigen's Spearman on them),
        ``graph`` (the graph-only embedding's), ``graph + RF`` (the retrofitted graph-only
        embedding's; NaN when it was not scored), ``difference`` (graph - Eigen), ``p``
        (two-sided Williams test of :func:`workbench.significance.compare_wordsim`; NaN when the
        test is undefined), ``q`` (Holm over the family) and ``significant`` (``q < p0``).
    """
    columns = ["lexicon", "dataset", "n", "eigen", "graph", "graph + RF", "difference", "p", "q",
               "significant"]  # fmt: skip
    ref = study.spectral[EIGEN].wordsim.attrs["results"]
    rows: list[dict[str, Any]] = []
    for lex, suite in study.graph_scores.items():
        res = suite.attrs["results"]
        rf_suite = study.graph_rf_scores.get(lex)
        rf = rf_suite.attrs["results"] if rf_suite is not None else {}
        for name in names:
            if name not in res or name not in ref:
                continue
            mask = common_mask([ref[name], res[name], *([rf[name]] if name in rf else [])])
            both = int(mask.sum())
            if both < min_pairs:
                continue
            a, b = restrict(ref[name], mask), restrict(res[name], mask)
            g_rf = restrict(rf[name], mask).spearman if name in rf else np.nan
            try:
                c = compare_wordsim(a, b)
                e, g, d, p = float(c.r_a), float(c.r_b), float(c.difference), float(c.pvalue)
            except ValueError:  # an undefined or perfect correlation: no test
                e = g = d = p = np.nan
            rows.append({"lexicon": str(lex), "dataset": name, "n": both, "eigen": e,
                         "graph": g, "graph + RF": float(g_rf), "difference": d, "p": p})  # fmt: skip
    out = pd.DataFrame(rows, columns=columns[:-2])
    out["q"] = adjust_finite(out["p"].to_numpy(float)) if len(out) else np.zeros(0)
    out["significant"] = np.isfinite(out["q"].to_numpy(float)) & (out["q"].to_numpy(float) < p0)
    return out[columns]


def table2_matched(tests: pd.DataFrame, lexicons: Sequence[str]) -> pd.DataFrame:
    """Table 2 on matched pairs: per lexicon, the average Spearman of Eigen, the graph-only
    embedding and the retrofitted graph-only embedding over the same rating sets, each set on
    the same pairs (the rows of :func:`graph_only_tests` where all three are defined), with the
    number of sets and of pairs.

    Returns
    -------
    DataFrame
        Index ``resource`` (the lexicon keys); columns ``sets``, ``pairs``, ``eigen``, ``graph``,
        ``graph + RF`` (NaN where no set qualifies).
    """
    rows = {}
    for lex in lexicons:
        t = tests[tests["lexicon"] == lex]
        vals = t[["eigen", "graph", "graph + RF"]].to_numpy(float)
        ok = np.isfinite(vals).all(axis=1) if len(t) else np.zeros(0, bool)
        mean = vals[ok].mean(axis=0) if ok.any() else np.full(3, np.nan)
        rows[str(lex)] = {"sets": int(ok.sum()), "pairs": int(t["n"].to_numpy()[ok].sum()),
                          "eigen": mean[0], "graph": mean[1], "graph + RF": mean[2]}  # fmt: skip
    out = pd.DataFrame.from_dict(rows, orient="index",
                                 columns=["sets", "pairs", "eigen", "graph", "graph + RF"])  # fmt: skip
    out.index.name = "resource"
    return out


def _table2_records(tests: pd.DataFrame, lexicons: Sequence[str]) -> dict[str, Any]:
    """The records of :func:`graph_only_tests`: per lexicon, Eigen's average Spearman on the
    matched pairs (over the tested sets; None when none), the sets where the graph-only
    embedding is significantly above / below Eigen after Holm over the Table 2 family, the sets
    tested; the size of the family; and :func:`table2_matched` (``table2_matched``: sets,
    pairs and the three averages on the same pairs, None where undefined)."""
    avg: dict[str, float | None] = {}
    better: dict[str, int] = {}
    worse: dict[str, int] = {}
    tested: dict[str, int] = {}
    for lex in lexicons:
        t = tests[tests["lexicon"] == lex]
        e = t["eigen"].to_numpy(float)
        e = e[np.isfinite(e)]
        avg[str(lex)] = float(e.mean()) if e.size else None
        sig = t["significant"].to_numpy(bool)
        d = t["difference"].to_numpy(float)
        better[str(lex)] = int((sig & (d > 0)).sum())
        worse[str(lex)] = int((sig & (d < 0)).sum())
        tested[str(lex)] = int(np.isfinite(t["p"].to_numpy(float)).sum())
    matched = table2_matched(tests, lexicons)

    def num(v: Any) -> float | None:
        return float(v) if np.isfinite(v) else None

    return {
        "table2_eigen_matched_avg_spearman": avg,
        "table2_sets_better": better,
        "table2_sets_worse": worse,
        "table2_sets_tested": tested,
        "table2_n_tests": int(np.isfinite(tests["p"].to_numpy(float)).sum()),
        "table2_matched": {
            str(k): {"sets": int(r["sets"]), "pairs": int(r["pairs"]), "eigen": num(r["eigen"]),
                     "graph": num(r["graph"]), "graph_rf": num(r["graph + RF"])}
            for k, r in matched.iterrows()
        },
    }  # fmt: skip


def _by_key(
    rows: pd.DataFrame,
    column: str,
    cast: Callable[[float], float],
    *,
    lexicon_only: bool = False,
) -> dict[str, float]:
    """``{key: cast(value)}`` of ``column``; keys ``"<lexicon> <alpha>"`` (CCAPrior rows, see
    :func:`label_key`) or the lexicon alone."""
    out: dict[str, float] = {}
    for r in rows.to_dict("records"):
        key = (
            str(r["lexicon"]) if lexicon_only else label_key(("CCAPrior", r["lexicon"], r["alpha"]))
        )
        out[key] = cast(r[column])
    return out


def _geo_key(method: str, lexicon: str, alpha: float | None) -> str:
    """``"CCAPrior + RF WN 0.5"``, ``"Eigen PD"``."""
    if alpha is None or pd.isna(alpha):
        return f"{method} {lexicon}"
    return f"{method} {lexicon} {float(alpha):g}"


def prior_records(
    study: PriorStudy,
    tables: Mapping[int, pd.DataFrame],
    *,
    n_questions: int,
    table2_tests: pd.DataFrame | None = None,
) -> dict[str, Any]:
    """The key numbers of notebook 06 (what it records and its Discussion reads).

    Seed-independent values are numbers; values of the trained baselines are lists with one
    entry per seed (in ``study.seeds`` order). Keys of CCAPrior rows are ``"<lexicon>
    <alpha>"``, of the others ``"<method> <lexicon>"`` (:func:`label_key`); the keys of
    ``spectral_geo`` name the method too (``"CCAPrior + RF WN 0.5"``, ``"Eigen PD"``).
    """
    seeds = study.seeds
    first = tables[seeds[0]]

    def rows(method: str) -> pd.DataFrame:
        return first[first["method"] == method]

    def geo_entry(r: pd.Series) -> dict[str, float | bool | None]:
        q = r["geo q"]
        return {"accuracy": float(r["geo"]),
                "p": None if pd.isna(r["geo p"]) else float(r["geo p"]),
                "q": None if pd.isna(q) else float(q),
                "significant": bool(r["geo significant"]) if not pd.isna(r["geo significant"])
                else False}  # fmt: skip

    eig = first[(first["method"] == "Eigen") & (first["lexicon"] == "NPK")].iloc[0]
    ccap, ccap_rf = rows("CCAPrior"), rows("CCAPrior + RF")
    eig_rf = first[(first["method"] == "Eigen") & (first["lexicon"] != "NPK")]
    best = ccap.sort_values("avg", ascending=False).iloc[0]
    spectral = first[~first["method"].isin(_TRAINED)]
    rec: dict[str, Any] = {
        "eigen_avg_spearman": float(eig["avg"]),
        "eigen_avg_by_start": {str(s): float(v) for s, v in study.eigen_by_start.items()},
        "eigen_geo_accuracy": float(eig["geo"]),
        "geo_questions": {"total": int(n_questions),
                          "answerable": int(study.spectral[EIGEN].geo.n_scored)},
        "n_sets_in_average": int(eig["sets"]),
        "ccaprior_avg_spearman": _by_key(ccap, "avg", float),
        "ccaprior_sets_better": _by_key(ccap, "better", int),
        "ccaprior_sets_worse": _by_key(ccap, "worse", int),
        "ccaprior_rf_avg_spearman": _by_key(ccap_rf, "avg", float),
        "ccaprior_rf_sets_better": _by_key(ccap_rf, "better", int),
        "eigen_rf_avg_spearman": _by_key(eig_rf, "avg", float, lexicon_only=True),
        "eigen_rf_sets_better": _by_key(eig_rf, "better", int, lexicon_only=True),
        "spectral_geo": {_geo_key(r["method"], r["lexicon"], r["alpha"]): geo_entry(r)
                         for _, r in spectral.iterrows() if r["method"] != "Eigen"
                         or r["lexicon"] != "NPK"},
        "best_ccaprior": {"lexicon": str(best["lexicon"]), "alpha": float(best["alpha"]),
                          "avg": float(best["avg"])},
        "n_tests": {"spectral": int(spectral["tested"].fillna(0).sum()),
                    "baselines per seed": int(first.loc[first["method"].isin(_TRAINED),
                                                        "tested"].fillna(0).sum())},
    }  # fmt: skip
    per_seed: dict[str, dict[str, list[float]]] = {
        "baseline_avg_spearman": {}, "baseline_geo_accuracy": {},
        "baseline_sets_better": {}, "baseline_sets_worse": {}, "baseline_geo_significant": {},
    }  # fmt: skip
    for method in _TRAINED:
        have = set(first.loc[first["method"] == method, "lexicon"])
        for lex in _lexicon_order(have):
            key = label_key((method, lex, None))
            sel = [t[(t["method"] == method) & (t["lexicon"] == lex)].iloc[0]
                   for t in (tables[s] for s in seeds)]  # fmt: skip
            per_seed["baseline_avg_spearman"][key] = [float(r["avg"]) for r in sel]
            per_seed["baseline_geo_accuracy"][key] = [float(r["geo"]) for r in sel]
            per_seed["baseline_sets_better"][key] = [int(r["better"]) for r in sel]
            per_seed["baseline_sets_worse"][key] = [int(r["worse"]) for r in sel]
            per_seed["baseline_geo_significant"][key] = [
                bool(r["geo significant"]) if not pd.isna(r["geo significant"]) else False
                for r in sel
            ]
    rec.update(per_seed)
    rec["glove_loss"] = {str(s): [float(x) for x in v] for s, v in study.glove_loss.items()}
    g = study.graph_only
    rec["table2_avg_spearman"] = {str(k): float(v) for k, v in g["avg"].items()}
    rec["table2_rf_avg_spearman"] = {str(k): float(v) for k, v in g["avg + RF"].items()}
    rec["table2_coverage"] = {str(k): float(v) for k, v in g["mean coverage"].items()}
    rec["table2_sets"] = {str(k): int(v) for k, v in g["sets"].items()}
    if table2_tests is not None:
        rec.update(_table2_records(table2_tests, [str(k) for k in g.index]))
    return rec


def per_set_display(tables: Mapping[int, pd.DataFrame], names: Sequence[str]) -> pd.DataFrame:
    """Spearman x 100 of every embedding on every rating set, ``mean ± sd`` over the seeds
    (the value alone where it does not depend on the seed); index ``(method, lexicon, alpha)``
    with ``"-"`` for rows without an alpha."""

    def frame(t: pd.DataFrame) -> pd.DataFrame:
        alpha = [f"{a:g}" if a is not None and not pd.isna(a) else "-" for a in t["alpha"]]
        idx = pd.MultiIndex.from_arrays([t["method"], t["lexicon"], alpha],
                                        names=["method", "lexicon", "alpha"])  # fmt: skip
        return pd.DataFrame(t[list(names)].to_numpy(float), index=idx, columns=list(names))

    summ = seed_summary({s: frame(t) for s, t in tables.items()})
    mean, sd = summ.mean.to_numpy(float), summ.sd.to_numpy(float)
    cells = np.empty(mean.shape, dtype=object)
    for i in range(mean.shape[0]):
        for j in range(mean.shape[1]):
            cells[i, j] = _mean_sd_cell(mean[i, j], sd[i, j], summ.n_seeds)
    return pd.DataFrame(cells, index=summ.mean.index, columns=summ.mean.columns)
