"""Notebook 01's settings per data size and its per-seed comparison summary."""


from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

import pandas as pd

from workbench import datasets as ds
from workbench._validation import check_choice, check_int
from workbench.studies.data import DataChoice, rating_set_labels
from workbench.studies.tour import data_choice

__all__ = ["SIZES", "SignificanceSettings", "settings", "comparison_over_seeds", "records_frame"]

#: The data sizes of notebook 01.
SIZES = ("small", "full")


@dataclass(frozen=True)
class SignificanceSettings:
    """What notebook 01 computes at one data size.

    Attributes
    ----------
    size : str
    corpus, max_tokens : str, int or None
        :func:`workbench.datasets.load_corpus` arguments for the LSA systems of section 3.
    vocab_size, min_count : int
        Their vocabulary (:meth:`workbench.views.Vocabulary.from_corpus`).
    n_components : int
        Dimension of the LSA systems.
    mrds_ns : tuple of int or None
        Rating-set sizes of the MRDS curves (None: the ten sets of the paper's Table 2).
    data : DataChoice
        The data chosen (empty: the bundled data): a user's corpus replaces ``corpus``, the
        user's rating sets (``wordsim``) are those the systems are compared on, and the
        (English) analogies are scored only for an English corpus.
    """

    size: str
    corpus: str
    max_tokens: int | None
    vocab_size: int
    min_count: int
    n_components: int
    mrds_ns: tuple[int, ...] | None
    data: DataChoice = DataChoice()

    def load_corpus(self) -> ds.Corpus:
        """The corpus of these settings (a user's corpus read in its format and language)."""
        if self.data.bundled_corpus:
            return ds.load_corpus(self.corpus, max_tokens=self.max_tokens)
        return ds.load_corpus(self.corpus, format=self.data.corpus_format,
                              language=self.data.language, max_tokens=self.max_tokens)  # fmt: skip

    def rating_sets(self) -> dict[str, str]:
        """The rating sets the systems are compared on, label -> bundled name or path: the
        user's (``WORDSIM``), else every bundled set
        (:func:`~workbench.studies.data.rating_set_labels`)."""
        return rating_set_labels(self.data.wordsim_or(ds.WORDSIM_NAMES))

    @property
    def analogies(self) -> bool:
        """The Google analogies (English) are scored only for an English corpus."""
        return self.data.side_views()


def settings(size: str, *, n_components: int = 100, **data: Any) -> SignificanceSettings:
    """The settings of notebook 01 at ``size``: ``"small"`` (200K tokens of the 1M corpus, 5,000
    words, 50-d LSA, MRDS curves at n = 30, 300, 3000) or ``"full"`` (the whole 1M-token corpus,
    20,000 words, ``n_components``-d LSA -- the notebook's ``N_COMPONENTS`` -- and the MRDS
    curves of the paper's rating sets). The data fields of
    :class:`workbench.studies.data.DataChoice` (``corpus=``, ``corpus_format=``, ``language=``,
    ``wordsim=``; empty: the bundled data) choose a user's corpus (capped like the bundled one)
    and the rating sets of the comparisons."""
    check_choice(size, "size", SIZES)
    n_components = check_int(n_components, "n_components", low=1)
    choice = data_choice(data)
    if size == "full":
        base = SignificanceSettings(size, corpus="1M", max_tokens=None, vocab_size=20_000,
                                    min_count=3, n_components=n_components,
                                    mrds_ns=None)  # fmt: skip
    else:
        base = SignificanceSettings(size, corpus="1M", max_tokens=200_000, vocab_size=5_000,
                                    min_count=3, n_components=50,
                                    mrds_ns=(30, 300, 3000))  # fmt: skip
    if choice == DataChoice():
        return base
    return replace(base, data=choice, corpus=choice.corpus_or(base.corpus))


def records_frame(obj: object) -> pd.DataFrame:
    """A DataFrame from its recorded JSON form (``{"__type__": "DataFrame", ...}``, see
    :func:`workbench.records.to_jsonable`); a DataFrame is returned as is."""
    if isinstance(obj, pd.DataFrame):
        return obj
    if not isinstance(obj, Mapping) or obj.get("__type__") != "DataFrame":
        raise TypeError(f"expected a recorded DataFrame, got {type(obj).__name__}")
    return pd.DataFrame(obj["data"], index=obj["index"], columns=obj["columns"])


def comparison_over_seeds(
    comparisons: Mapping[int, pd.DataFrame] | Mapping[str, pd.DataFrame],
) -> pd.DataFrame:
    """One row per rating set summarising per-seed comparisons of the same two systems.

    Parameters
    ----------
    comparisons : mapping
        ``{seed: table}`` of :func:`workbench.significance.compare_wordsim_suite` outputs
        (``dataset`` as a column or as the index).

    Returns
    -------
    DataFrame
        Indexed by data set, in the order of the first table: ``n`` (scored pairs), ``r_ab``
        (mean inter-system Spearman), ``gain`` and ``gain_sd`` (mean and sample standard
        deviation over seeds of B's minus A's Spearman; sd NaN for one seed), ``mrds`` (mean
        MRDS at the observed ``r_ab``), ``pvalue_max`` and ``pvalue_adjusted_max`` (largest
        uncorrected and corrected p over seeds), ``seeds_significant`` and
        ``seeds_exceeding_mrds`` (for how many seeds the gain is significant after the
        correction / larger than the MRDS) and ``n_seeds``.
    """
    if not isinstance(comparisons, Mapping) or not comparisons:
        raise ValueError("comparisons must be a non-empty mapping {seed: comparison table}")
    tables = {}
    for seed, table in comparisons.items():
        t = records_frame(table)
        if "dataset" in t.columns:
            t = t.set_index("dataset")
        missing = {"n", "r_ab", "difference", "pvalue", "pvalue_adjusted", "mrds",
                   "exceeds_mrds", "significant"} - set(t.columns)  # fmt: skip
        if missing:
            raise ValueError(f"comparison of seed {seed!r} lacks columns {sorted(missing)}")
        tables[seed] = t
    stacked = pd.concat(tables, names=["seed", "dataset"])
    g = stacked.groupby(level="dataset", sort=False)
    out = pd.DataFrame(
        {
            "n": g["n"].max().astype(int),
            "r_ab": g["r_ab"].mean(),
            "gain": g["difference"].mean(),
            "gain_sd": g["difference"].std(ddof=1),
            "mrds": g["mrds"].mean(),
            "pvalue_max": g["pvalue"].max(),
            "pvalue_adjusted_max": g["pvalue_adjusted"].max(),
            "seeds_significant": g["significant"].apply(lambda s: int(s.astype(bool).sum())),
            "seeds_exceeding_mrds": g["exceeds_mrds"].apply(lambda s: int(s.astype(bool).sum())),
            "n_seeds": g["difference"].size().astype(int),
        }
    )
    first = next(iter(tables.values())).index
    out = out.loc[[d for d in first if d in out.index] + [d for d in out.index if d not in first]]
    out.index.name = "dataset"
    return out
