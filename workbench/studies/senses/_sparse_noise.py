r"""Notebook 09 (Tables 3-4 and Figure 2 of Shi, Sun & Hu 2018): sparse noise and pseudo senses.

:func:`sparse_noise_run` checks one seed's Ex-RPCA sparse term against WordNet and eliminates
the top components with their number chosen on the SCWS dev split and scored once on test;
:func:`sparse_noise_study` runs it for every seed and summarises the tables over the seeds.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, TypedDict

import numpy as np
import pandas as pd
from scipy import stats

from workbench import rpca
from workbench._validation import check_bool, check_float, check_int
from workbench.datasets import SCWSItem, load_scws, load_wordnet
from workbench.embeddings import MultiSenseVectors
from workbench.senses import (
    SenseNeighbours,
    avg_sim_task,
    partial_spearman,
    scws_split,
    scws_task,
    sparse_pair_table,
    synset_counts,
    word_sparse_norms,
    wordnet_directions,
    wordnet_pseudo_pairs,
)
from workbench.significance import SeedSummary, adjust_finite, compare_wordsim, seed_summary

from .._values import as_float, optional_float
from ._runs import (
    ALPHA,
    _agreement_table,
    _check_settings,
    _mean_sd_columns,
    _model,
    _pmark,
    _SeedStudy,
    _tests_table,
    run_seeds,
)
from ._settings import SenseSettings, data_record, train_preset

__all__ = [
    "SparseNoiseRun",
    "SparseNoiseStudy",
    "sparse_noise_run",
    "sparse_noise_study",
    "removal_grid",
    "with_wordnet",
    "with_wordnet_elimination",
]


def removal_grid(dim: int, *, dense_until: int = 10, n_coarse: int = 12) -> list[int]:
    """Numbers of removed dimensions tried for Figure 2 and the choice of Table 4: every number
    up to ``dense_until`` and ``n_coarse`` evenly spaced ones up to ``dim - 2`` (0 = none; at
    least two dimensions are kept, so that cosines still vary)."""
    dim = check_int(dim, "dim", low=3)
    dense_until = check_int(dense_until, "dense_until", low=0)
    n_coarse = check_int(n_coarse, "n_coarse", low=2)
    dense = range(0, min(dense_until, dim - 2) + 1)
    coarse = np.linspace(0, dim - 2, n_coarse).round().astype(int).tolist()
    return sorted({*dense, *coarse})


@dataclass(frozen=True, eq=False)
class SparseNoiseRun:
    """One seed of notebook 09 (Table 3, Table 4 and Figure 2 of Shi, Sun & Hu 2018).

    Attributes
    ----------
    seed, dim, rank : int
    sparse_fraction : float
        Non-zero entries of Ex-RPCA's :math:`S` (rank ``rank``).
    table3 : DataFrame
        Words with the largest and smallest sparse-noise norm (:func:`sparse_pair_table`).
    signals : DataFrame
        Per multi-sense word: mean ``sparse_norm`` :math:`\\|S_p\\|_2` and ``raw_norm``
        :math:`\\|M_p\\|_2` over its sense pairs, and its ``frequency_rank`` (0 = most frequent).
    wordnet : DataFrame or None
        Per signal: Spearman correlation with the number of WordNet synsets over the words that
        have any, its ``pvalue`` and ``pvalue_holm`` (Holm over the signals) and ``n_words``.
    curve : DataFrame
        SCWS maxSimC on the **dev** split against the number of removed dimensions (``removed``
        0 = the original vectors), for PCA and Ex-RPCA.
    chosen : dict
        Per method, the number of removed dimensions with the best dev score.
    table4 : DataFrame
        Per vectors (original, PCA, Ex-RPCA at its chosen number): ``removed``, Spearman on the
        SCWS **test** split (maxSimC) and on WS-353 (avgSim), and for the eliminated vectors the
        gain, the two-sided Williams test against the original (``p``) and its Holm correction
        over the tests of the table (``p_holm``); with the WordNet check also the supervised
        row ``"V~ WordNet"`` (:func:`with_wordnet_elimination`).
    keep_original : int
        Largest number of removed dimensions whose dev score is within ``tolerance`` of the
        original's (Figure 2's "how much can be removed").
    tolerance : float
        That tolerance (Spearman).
    n_dev, n_test : int
        SCWS items in each split.
    seconds : float
    n_wordnet_pseudo : int
        Sense pairs WordNet calls pseudo (the supervision of the row ``"V~ WordNet"`` of
        ``table4``, added by :func:`with_wordnet_elimination`; 0 without it).
    """

    seed: int
    dim: int
    rank: int
    sparse_fraction: float
    table3: pd.DataFrame
    signals: pd.DataFrame
    wordnet: pd.DataFrame | None
    curve: pd.DataFrame
    chosen: dict[str, int]
    table4: pd.DataFrame
    keep_original: int
    tolerance: float
    n_dev: int
    n_test: int
    n_ws_scored: int
    seconds: float
    n_wordnet_pseudo: int = 0


def sparse_noise_run(
    settings: SenseSettings | None = None,
    seed: int = 0,
    *,
    rank: int = 3,
    n_high: int = 4,
    n_low: int = 4,
    tolerance: float = 0.005,
    msv: MultiSenseVectors | None = None,
    items: Sequence[SCWSItem] | None = None,
    wordsim: str | pd.DataFrame | None = None,
    wordnet: bool = True,
) -> SparseNoiseRun:
    """Notebook 09 for one seed: the sparse noise against WordNet, and the elimination of the
    top components with its number chosen on the SCWS dev split and scored once on test.

    Parameters
    ----------
    settings, seed
        As in :func:`~workbench.studies.senses.sense_pair_run` (the same cached model).
    rank : int
        Rank of the Ex-RPCA decomposition whose sparse term is studied (3 in the paper).
    n_high, n_low : int
        Words with the largest / smallest sparse norms listed in Table 3.
    tolerance : float
        Dev-score tolerance (Spearman) for "keeps the original performance".
    items : sequence of SCWSItem, optional
        SCWS items (default :func:`workbench.datasets.load_scws`), split by
        :func:`workbench.senses.scws_split`.
    wordsim : str or DataFrame, optional
        The rating set scored with avgSim (default: the settings' ``wordsim``, WS-353 unless the
        user gave ``WORDSIM``); never used to choose anything. Its columns are labelled
        ``settings.wordsim_label`` (also when a set is passed here).
    wordnet : bool
        Add the WordNet check (:func:`with_wordnet`); :func:`sparse_noise_study` adds it for all
        seeds at once instead, reading WordNet in one process only.
    """
    settings = _check_settings(settings)
    seed = check_int(seed, "seed", low=0)
    rank = check_int(rank, "rank", low=1)
    n_high = check_int(n_high, "n_high", low=0)
    n_low = check_int(n_low, "n_low", low=0)
    tolerance = check_float(tolerance, "tolerance", low=0)
    wordnet = check_bool(wordnet, "wordnet") and settings.wordnet
    label = settings.wordsim_label
    if wordsim is None:
        wordsim = settings.wordsim[0]
    t0 = time.perf_counter()
    msv = _model(settings, seed, msv)
    M, labels = rpca.difference_matrix(msv)
    d = M.shape[0]
    ex = rpca.ex_rpca(M, rank, random_state=seed, warn=False)
    index = SenseNeighbours(msv)
    table3 = sparse_pair_table(labels, ex.sparse, index, n_high=n_high, n_low=n_low, synsets=False)
    sparse_norm = word_sparse_norms(ex.sparse, labels)
    signals = pd.DataFrame(
        {
            "sparse_norm": sparse_norm,
            "raw_norm": word_sparse_norms(M, labels),
            "frequency_rank": [msv.index[w] for w in sparse_norm.index],
        }
    )
    signals.index.name = "word"

    # Table 4 and Figure 2: choose on the dev half of SCWS, score the test half once
    items = load_scws() if items is None else items
    dev = scws_split(items)
    scws = scws_task(msv, items)
    scws_dev, scws_test = scws.subset(dev, "SCWS-dev"), scws.subset(~dev, "SCWS-test")
    ws = avg_sim_task(msv, wordsim)
    grid = removal_grid(d)
    pca_full = rpca.pca(M, d - 1 if d > 1 else 1, random_state=seed)
    comps: dict[tuple[str, int], np.ndarray] = {}
    curve_rows = []
    base_dev = scws_dev.evaluate().spearman
    for removed in grid:
        if removed == 0:
            curve_rows.append({"removed": 0, "PCA": base_dev, "Ex-RPCA": base_dev})
            continue
        comps[("PCA", removed)] = pca_full.components[:, :removed]
        comps[("Ex-RPCA", removed)] = rpca.ex_rpca(
            M, removed, random_state=seed, warn=False
        ).components
        curve_rows.append({"removed": removed,
                           "PCA": scws_dev.evaluate(comps[("PCA", removed)]).spearman,
                           "Ex-RPCA": scws_dev.evaluate(comps[("Ex-RPCA", removed)]).spearman})  # fmt: skip
    curve = pd.DataFrame(curve_rows)
    positive = curve[curve["removed"] > 0].set_index("removed")
    if positive[["PCA", "Ex-RPCA"]].isna().all().any():
        raise ValueError(
            f"SCWS (bundled, English): the dev half has no score at any number of removed "
            f"dimensions ({int(scws_dev.scored.sum())} of its items in the vocabulary of the model "
            f"of seed {seed}, corpus {settings.data.describe()['corpus']!r}); notebook 09 chooses "
            "the number on SCWS, so it needs an English corpus large enough to cover its words "
            "(notebook 08 runs on a corpus in any language)"
        )
    chosen = {m: int(as_float(positive[m].idxmax())) for m in ("PCA", "Ex-RPCA")}
    keeps = positive.index[(positive["PCA"] >= base_dev - tolerance).to_numpy()]
    keep_original = int(keeps.max()) if len(keeps) else 0

    if not ws.scored.any():
        raise ValueError(
            f"WORDSIM {label!r}: none of its pairs has both words in the model's vocabulary "
            f"(seed {seed}); give a rating set in the corpus' language and vocabulary"
        )
    test0, ws0 = scws_test.evaluate(), ws.evaluate()
    t4 = [{"vectors": "V (original)", "removed": 0, "SCWS test maxSimC": test0.spearman,
           f"{label} avgSim": ws0.spearman}]  # fmt: skip
    for m, r in chosen.items():
        C = comps[(m, r)]
        tr, wr = scws_test.evaluate(C), ws.evaluate(C)
        t4.append({"vectors": f"V~ {m}", "removed": r, "SCWS test maxSimC": tr.spearman,
                   f"{label} avgSim": wr.spearman,
                   "SCWS gain": tr.spearman - test0.spearman, f"{label} gain": wr.spearman - ws0.spearman,
                   "p (SCWS)": _compare(test0, tr), f"p ({label})": _compare(ws0, wr)})  # fmt: skip
    table4 = _holm_table4(pd.DataFrame(t4).set_index("vectors"))
    run = SparseNoiseRun(
        seed=int(seed),
        dim=int(d),
        rank=int(rank),
        sparse_fraction=float((ex.sparse != 0).mean()),
        table3=table3,
        signals=signals,
        wordnet=None,
        curve=curve,
        chosen=chosen,
        table4=table4,
        keep_original=keep_original,
        tolerance=float(tolerance),
        n_dev=int(scws_dev.scored.sum()),
        n_test=int(scws_test.scored.sum()),
        n_ws_scored=int(ws.scored.sum()),
        seconds=time.perf_counter() - t0,
    )
    if not wordnet:
        return run
    words = sorted({*run.signals.index, *run.table3["word"]})
    counts = dict(zip(words, synset_counts(words).tolist()))
    run = with_wordnet(run, counts)
    return with_wordnet_elimination(run, msv, counts, items=items, wordsim=wordsim, label=label)


def _holm_table4(table4: pd.DataFrame) -> pd.DataFrame:
    """``table4`` with ``p_holm (…)`` columns: Holm over every test of the table (every
    finite ``p (…)`` entry of the rows below the original)."""
    t = table4.drop(columns=[c for c in table4.columns if c.startswith("p_holm (")])
    pcols = [c for c in t.columns if c.startswith("p (")]
    adj = adjust_finite(pd.Series(t[pcols].iloc[1:].stack()))
    for (row, col), v in zip(adj.index, adj):
        t.loc[row, col.replace("p (", "p_holm (")] = v
    return t


def with_wordnet_elimination(
    run: SparseNoiseRun,
    msv: MultiSenseVectors,
    counts: Mapping[str, int],
    *,
    items: Sequence[SCWSItem] | None = None,
    wordsim: str | pd.DataFrame | None = None,
    label: str = "WS-353",
) -> SparseNoiseRun:
    """``run`` with the row :math:`\\tilde V_{\\rm WordNet}` of Table 4: the supervised
    elimination whose directions are the principal components of the sense pairs WordNet calls
    pseudo (:func:`workbench.senses.wordnet_directions`: pairs of words with one synset), their
    number chosen on the SCWS dev half over the grid of the run (column ``"WordNet"`` of
    ``curve``, ``chosen["WordNet"]``) and scored once on test and on the avgSim set.

    Its gains are tested against the original vectors (Williams), and its SCWS test score
    against Ex-RPCA's (``p (SCWS, against Ex-RPCA)``: the paper's "even better than the
    semi-supervised method"); ``p_holm`` is Holm over every test of Table 4. Without a single
    WordNet-pseudo pair the row is left out (``n_wordnet_pseudo`` 0).

    ``msv`` is the run's model, ``counts`` word -> number of synsets (every multi-sense word),
    ``items`` / ``wordsim`` as in :func:`sparse_noise_run` (default: the bundled SCWS, WS-353).
    """
    M, labels = rpca.difference_matrix(msv)
    d = M.shape[0]
    pseudo = wordnet_pseudo_pairs(labels, counts)
    n = int(sum(p and a < b for p, (_, a, b) in zip(pseudo, labels)))  # unordered pairs
    if n == 0:
        return replace(run, n_wordnet_pseudo=0)
    items = load_scws() if items is None else items
    dev = scws_split(items)
    scws = scws_task(msv, items)
    scws_dev, scws_test = scws.subset(dev, "SCWS-dev"), scws.subset(~dev, "SCWS-test")
    ws = avg_sim_task(msv, "WS" if wordsim is None else wordsim)
    full = wordnet_directions(M, labels, counts, min(int(pseudo.sum()), d))
    curve = run.curve.copy()
    base_dev = float(curve.loc[curve["removed"] == 0, "PCA"].iloc[0])
    curve["WordNet"] = [base_dev if r == 0 else scws_dev.evaluate(full[:, : int(r)]).spearman
                        if r <= full.shape[1] else np.nan for r in curve["removed"]]  # fmt: skip
    positive = curve[curve["removed"] > 0].set_index("removed")["WordNet"]
    if positive.isna().all():
        return replace(run, curve=curve, n_wordnet_pseudo=n)
    r_wn = int(as_float(positive.idxmax()))
    C = full[:, :r_wn]
    test0, ws0 = scws_test.evaluate(), ws.evaluate()
    tr, wr = scws_test.evaluate(C), ws.evaluate(C)
    r_ex = run.chosen["Ex-RPCA"]
    tex = scws_test.evaluate(rpca.ex_rpca(M, r_ex, random_state=run.seed, warn=False).components)
    row = {"removed": r_wn, "SCWS test maxSimC": tr.spearman, f"{label} avgSim": wr.spearman,
           "SCWS gain": tr.spearman - test0.spearman, f"{label} gain": wr.spearman - ws0.spearman,
           "p (SCWS)": _compare(test0, tr), f"p ({label})": _compare(ws0, wr),
           "p (SCWS, against Ex-RPCA)": _compare(tex, tr)}  # fmt: skip
    table4 = pd.concat([run.table4, pd.DataFrame([row], index=pd.Index(["V~ WordNet"],
                                                                        name="vectors"))])  # fmt: skip
    return replace(run, curve=curve, chosen={**run.chosen, "WordNet": r_wn},
                   table4=_holm_table4(table4), n_wordnet_pseudo=n)  # fmt: skip


def _compare(a: Any, b: Any) -> float:
    """Williams' p of two dependent correlations (:func:`compare_wordsim`); NaN when one is
    undefined (too few scored pairs, as on a small corpus of one's own), so Holm skips it."""
    if not (np.isfinite(a.spearman) and np.isfinite(b.spearman)):
        return float("nan")
    return float(compare_wordsim(a, b).pvalue)


def _synsets(words: Sequence[str], counts: Mapping[str, int] | None) -> np.ndarray:
    if counts is None:
        return synset_counts(words)
    return np.array([int(counts[w]) for w in words], dtype=np.int64)


def with_wordnet(run: SparseNoiseRun, counts: Mapping[str, int] | None = None) -> SparseNoiseRun:
    """``run`` with its WordNet check: the Spearman correlation of every per-word signal with
    the number of WordNet 3.0 synsets, over the words that have any.

    Signals: the mean sparse-noise norm :math:`\\|S_p\\|_2` over the word's sense pairs, the
    mean raw difference norm :math:`\\|M_p\\|_2`, frequency (minus the frequency rank), whether
    any entry of :math:`S` is non-zero, and the sparse norm's partial correlation given
    frequency. ``pvalue_holm`` is Holm's correction over the five. ``counts`` maps words to
    synset counts (default: looked up in the bundled WordNet); Table 3 gets them too.
    """
    sig = run.signals
    n_syn = _synsets(list(sig.index), counts)
    inw = n_syn > 0
    freq = -sig["frequency_rank"].to_numpy(dtype=float)
    sparse = sig["sparse_norm"].to_numpy(dtype=float)
    series = {
        "mean ||S_p|| (Ex-RPCA)": sparse,
        "mean ||M_p|| (raw difference)": sig["raw_norm"].to_numpy(dtype=float),
        "frequency (minus rank)": freq,
        "any non-zero S": (sparse > 0).astype(float),
    }
    rows = {}
    for name, vals in series.items():
        x = vals[inw]
        if inw.sum() >= 3 and np.ptp(x) > 0 and np.ptp(n_syn[inw]) > 0:
            res = stats.spearmanr(x, n_syn[inw])
            rows[name] = {"spearman": float(res.statistic), "pvalue": float(res.pvalue)}
        else:
            rows[name] = {"spearman": np.nan, "pvalue": np.nan}
    if inw.sum() >= 4:
        part = partial_spearman(sparse[inw], n_syn[inw], freq[inw])
        rows["||S_p|| given frequency (partial)"] = {
            "spearman": part.statistic,
            "pvalue": part.pvalue,
        }
    else:
        rows["||S_p|| given frequency (partial)"] = {"spearman": np.nan, "pvalue": np.nan}
    wn = pd.DataFrame(rows).T
    wn.index.name = "signal"
    wn["pvalue_holm"] = adjust_finite(wn["pvalue"])
    wn["n_words"] = int(inw.sum())
    table3 = run.table3.copy()
    table3["n_synsets"] = _synsets(table3["word"].tolist(), counts)
    return replace(run, wordnet=wn, table3=table3)


def _wordnet(run: SparseNoiseRun) -> pd.DataFrame:
    """The WordNet check of ``run`` (:func:`with_wordnet`)."""
    if run.wordnet is None:
        raise ValueError(f"the run of seed {run.seed} has no WordNet check (see with_wordnet)")
    return run.wordnet


class SparseNoiseRecords(TypedDict):
    """The records of notebook 09 (per-seed values are lists in seed order)."""

    data_size: str
    seeds: list[int]
    dim: int
    rank: int
    sparse_nonzero_fraction: list[float]
    #: per signal: Spearman, p-value, p-value after Holm over the five signals of a seed
    wordnet: dict[str, dict[str, list[float | None]]]
    wordnet_n_words: list[int]
    table3_words: list[str]
    table3_seed: int
    dev_curve: dict[str, dict[str, list[float | None]]]
    chosen_removed: dict[str, list[int]]
    #: per row and column; ``p_holm`` after Holm over the ``n_table4_tests`` tests of a seed
    table4: dict[str, dict[str, list[float | None]]]
    keep_original_removed: list[int]
    keep_tolerance: float
    n_scws_dev: int
    n_scws_test: int
    n_ws_scored: int
    seconds: list[float]


class SparseNoiseDataRecords(SparseNoiseRecords, total=False):
    """The records of notebook 09 with the data of the run (absent from older records);
    ``wordnet`` is empty for a corpus not in English (no WordNet check), and the Table 4 keys of
    the avgSim set carry ``data["wordsim_label"]`` (``"WS-353"`` by default)."""

    #: :func:`~workbench.studies.senses._settings.data_record` of the settings
    data: dict[str, Any]
    #: the tests of Table 4 of a seed (Holm's family) and the sense pairs WordNet calls pseudo
    n_table4_tests: int
    n_wordnet_pseudo: list[int]


@dataclass(frozen=True, eq=False)
class SparseNoiseStudy(_SeedStudy[SparseNoiseRun]):
    """Notebook 09 over several seeds.

    Attributes
    ----------
    runs : dict
        ``{seed: SparseNoiseRun}``; their tables (``"table3"``, ``"wordnet"``, ``"curve"``,
        ``"table4"``, ``"signals"``) stacked over the seeds by :meth:`long_table`.
    wordnet, curve, table4 : SeedSummary
        Mean and sd over the seeds (``wordnet`` empty without the WordNet check, see
        :attr:`has_wordnet`).
    significant : DataFrame
        Per WordNet signal: in how many seeds its correlation is significant (Holm / uncorrected).
    data_size : str
        The data size of the settings (recorded).
    data : dict
        The data of the run (:func:`~workbench.studies.senses._settings.data_record`).
    """

    wordnet: SeedSummary
    curve: SeedSummary
    table4: SeedSummary
    significant: pd.DataFrame = field(repr=False)
    data_size: str = "small"
    data: dict[str, Any] = field(default_factory=dict)

    @property
    def wordsim_label(self) -> str:
        """The label of the avgSim rating set (``"WS-353"`` unless the user gave ``WORDSIM``)."""
        return str(self.data.get("wordsim_label", "WS-353"))

    @property
    def has_wordnet(self) -> bool:
        """Whether the WordNet check ran (English corpora only)."""
        return all(r.wordnet is not None for r in self.runs.values())

    def wordnet_table(self) -> pd.DataFrame:
        """Per signal: Spearman with the number of synsets (mean ± sd), the Holm-corrected p of
        each seed (``†`` below :data:`ALPHA`) and in how many seeds it is significant."""
        return _tests_table(self.runs, "wordnet", ("spearman", 1.0, 3))

    def curve_table(self) -> pd.DataFrame:
        """Figure 2's dev scores (Spearman x 100), mean ± sd over the seeds."""
        return self.curve.formatted()

    def table4_table(self) -> pd.DataFrame:
        """Table 4 on test, mean ± sd over the seeds (Spearman and gains x 100; removed
        dimensions as numbers), the Holm-corrected p of each seed (``†`` below :data:`ALPHA`)
        and in how many seeds each gain is significant."""
        runs = list(self.runs.values())
        columns = {
            col: (col, 1.0 if col == "removed" else 100.0, 1) for col in self.table4.mean.columns
        }
        out = _mean_sd_columns(self.table4, columns)
        m = self.table4.mean
        names = ["SCWS", self.wordsim_label]
        if "p_holm (SCWS, against Ex-RPCA)" in runs[0].table4.columns:
            names.append("SCWS, against Ex-RPCA")
        for name in names:
            col = f"p_holm ({name})"
            cells, counts = [], []
            for row in m.index:
                ps = [r.table4.loc[row, col] for r in runs]
                if all(pd.isna(p) for p in ps):
                    cells.append("")
                    counts.append("")
                    continue
                cells.append(", ".join(_pmark(float(p)) for p in ps))
                k = sum(float(p) < ALPHA for p in ps)
                counts.append(f"{k} of {len(ps)}")
            out[f"p Holm ({name}), per seed"] = cells
            out[f"significant ({name})"] = counts
        return out

    def records(self) -> SparseNoiseDataRecords:
        """The records of notebook 09 (``record_all(study)``): the one definition of every key
        (:class:`SparseNoiseRecords`; per-seed lists in seed order)."""
        first = next(iter(self.runs.values()))
        runs = list(self.runs.values())
        wn = self.has_wordnet
        out: SparseNoiseDataRecords = {
            "data_size": str(self.data_size),
            "seeds": self.seeds,
            "dim": first.dim,
            "rank": first.rank,
            "sparse_nonzero_fraction": [r.sparse_fraction for r in runs],
            "wordnet": {
                sig: {
                    col: [optional_float(_wordnet(r).loc[sig, col]) for r in runs]
                    for col in ("spearman", "pvalue", "pvalue_holm")
                }
                for sig in (_wordnet(first).index if wn else [])
            },  # fmt: skip
            "wordnet_n_words": [int(_wordnet(r)["n_words"].iloc[0]) for r in runs] if wn else [],
            "table3_words": first.table3["word"].tolist(),
            "table3_seed": first.seed,
            "dev_curve": {
                m: {
                    str(int(k)): [
                        optional_float(r.curve.set_index("removed").loc[k, m]) for r in runs
                    ]
                    for k in first.curve["removed"]
                }
                for m in first.curve.columns
                if m != "removed"
            },  # fmt: skip
            "chosen_removed": {m: [r.chosen[m] for r in runs] for m in first.chosen},
            "table4": {
                row: {
                    col: [optional_float(r.table4.loc[row, col]) for r in runs]
                    for col in first.table4.columns
                }
                for row in first.table4.index
            },  # fmt: skip
            "keep_original_removed": [r.keep_original for r in runs],
            "keep_tolerance": first.tolerance,
            "n_scws_dev": first.n_dev,
            "n_scws_test": first.n_test,
            "n_ws_scored": first.n_ws_scored,
            "seconds": [r.seconds for r in runs],
        }
        if self.data:
            out["data"] = dict(self.data)
        out["n_table4_tests"] = int(
            first.table4[[c for c in first.table4.columns if c.startswith("p (")]]
            .notna()
            .sum()
            .sum()
        )
        out["n_wordnet_pseudo"] = [r.n_wordnet_pseudo for r in runs]
        return out


def sparse_noise_study(
    settings: SenseSettings | None = None,
    seeds: Sequence[int] = (0,),
    *,
    n_jobs: int | None = None,
    **kwargs: Any,
) -> SparseNoiseStudy:
    """:func:`sparse_noise_run` for every seed (in parallel, see :func:`run_seeds`) and the mean
    and sd of its tables over the seeds; ``kwargs`` go to :func:`sparse_noise_run`."""
    settings = _check_settings(settings)
    runs = run_seeds(
        sparse_noise_run,
        seeds,
        n_jobs=n_jobs,
        settings=settings,
        wordnet=False,
        **kwargs,
    )
    columns = ["spearman", "pvalue", "pvalue_holm"]
    # no WordNet check (a corpus not in English): an empty summary, and has_wordnet is False
    wn = seed_summary({s: pd.DataFrame(columns=columns, dtype=float) for s in runs})
    if settings.wordnet:  # the bundled WordNet is English: no check for another language
        words = sorted({w for r in runs.values() for w in [*r.signals.index, *r.table3["word"]]})
        counts = dict(zip(words, synset_counts(words, load_wordnet()).tolist()))
        runs = {s: with_wordnet(r, counts) for s, r in runs.items()}
        # the supervised row of Table 4, here: WordNet is read once, in this process
        given, ws_set = kwargs.get("msv"), kwargs.get("wordsim")
        runs = {s: with_wordnet_elimination(
                    r, train_preset(settings, seed=s, progress=False) if given is None else given,
                    counts, items=kwargs.get("items"),
                    wordsim=settings.wordsim[0] if ws_set is None else ws_set,
                    label=settings.wordsim_label)
                for s, r in runs.items()}  # fmt: skip
        wn = seed_summary({s: _wordnet(r)[columns] for s, r in runs.items()})
    curve = seed_summary({s: r.curve.set_index("removed") for s, r in runs.items()})
    t4 = seed_summary({s: r.table4.drop(columns=[c for c in r.table4.columns if c.startswith("p")])
                       for s, r in runs.items()})  # fmt: skip
    return SparseNoiseStudy(
        runs,
        wn,
        curve,
        t4,
        _agreement_table(runs, "wordnet") if settings.wordnet else pd.DataFrame(),
        data_size=settings.size,
        data=data_record(settings),
    )
