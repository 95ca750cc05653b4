"""The Discussion of notebook 06, rendered from a run's records.

:func:`discussion_06` checks the records, computes the facts (:mod:`._facts`) -- with the
paper's numbers from its reported tables (:func:`workbench.reported.reported`) -- and fills the
template ``templates/discussion_06.md.j2``; every sentence lives in the template.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from IPython.display import Markdown

from workbench import templating
from workbench.reported import reported
from workbench.studies.facts import check_records

from .._values import as_float, reported_fraction
from ._facts import PaperNumbers, _split, facts_06
from ._run import LEXICON_NAMES

__all__ = ["discussion_06", "paper_numbers"]

_TEMPLATES = Path(__file__).parent / "templates"

#: the records the Discussion reads (a clear error names the missing ones)
_NEEDED = (
    "seeds", "n_tokens", "n_words", "dim", "n_sets_in_average", "eigen_avg_spearman",
    "eigen_geo_accuracy", "geo_questions", "ccaprior_avg_spearman", "ccaprior_sets_better",
    "ccaprior_sets_worse", "ccaprior_rf_avg_spearman", "eigen_rf_avg_spearman",
    "eigen_rf_sets_better", "spectral_geo", "best_ccaprior", "n_tests", "baseline_avg_spearman",
    "baseline_sets_better", "baseline_sets_worse", "table2_avg_spearman", "table2_coverage",
    "table2_sets", "table2_eigen_matched_avg_spearman", "table2_sets_better",
    "table2_sets_worse", "table2_n_tests", "table2_matched",
)  # fmt: skip


def paper_numbers(keys: list[str] | None = None) -> PaperNumbers:
    """The paper's numbers the Discussion compares with (``keys``: our CCAPrior keys
    ``"<lexicon> <alpha>"``); empty when the reported tables cannot be read."""
    try:
        t1 = reported("eigenwords", "table1").table
        t2 = reported("eigenwords", "table2").table
    except (FileNotFoundError, KeyError, ValueError):
        return PaperNumbers()
    eig = reported_fraction(t1, "Eigen (CCA)", "WordSim NPK")
    gains = {}
    for k in keys or []:
        lex, a = _split(k)
        gains[k] = reported_fraction(t1, f"CCAPrior alpha={a:g}", f"WordSim {lex}") - eig
    alphas = sorted({_split(k)[1] for k in keys or []})
    twice = {}
    for lex in LEXICON_NAMES:
        pv = [reported_fraction(t1, f"CCAPrior+RF alpha={a:g}", f"WordSim {lex}") for a in alphas]
        pv = [v for v in pv if math.isfinite(v)]
        pe = reported_fraction(t1, "Eigen (CCA)", f"WordSim {lex}")
        if pv and math.isfinite(pe):
            twice[lex] = (max(pv), pe)
    lows = [name for name in ("Glove", "Skip-Gram")
            if reported_fraction(t1, name, "WordSim FN") < reported_fraction(t1, name, "WordSim NPK")]  # fmt: skip
    pg = reported_fraction(t1, "Eigen (CCA)", "Geo NPK")
    geo = {name: reported_fraction(t1, "Eigen (CCA)", f"Geo {lex}") - pg
           for lex, name in LEXICON_NAMES.items()}  # fmt: skip
    table2 = {str(name): as_float(t2.loc[name, "WordSim"]) / 100 for name in t2.index}
    try:
        tokens: float | None = as_float(reported("eigenwords", "setup").table.at["WIKI5", "tokens"])
    except (FileNotFoundError, KeyError, ValueError, TypeError):
        tokens = None
    dims: dict[str, dict[int, float]] = {}
    data: dict[str, float] = {}
    try:
        pre = reported("eigenwords", "preliminary").table
    except (FileNotFoundError, KeyError, ValueError):
        pre = None
    if pre is not None:
        for name in pre.index:
            row = {int(c.split("=")[1]): as_float(pre.at[name, c]) / 100
                   for c in pre.columns if c.startswith("m=")}  # fmt: skip
            row = {m: v for m, v in row.items() if math.isfinite(v)}
            if len(row) > 1:
                dims[str(name)] = row
            if math.isfinite(row.get(300, math.nan)):
                data[str(name)] = row[300]
    return PaperNumbers(eig, gains, twice, lows, geo, table2, tokens, dims, data)


def discussion_06(
    rec: Mapping[str, Any], other: Mapping[str, Any] | None = None, other_size: str | None = None
) -> Markdown:
    """The Discussion of notebook 06 from its records (``PriorResult.records()``; the notebook
    has no other-size comparison, so ``other`` and ``other_size`` are not used)."""
    check_records(rec, _NEEDED, notebook="06")
    paper = paper_numbers(list(rec["ccaprior_avg_spearman"]))
    facts = facts_06(rec, other, paper=paper)
    return templating.render(_TEMPLATES, "discussion_06.md.j2", r=rec, facts=facts,
                             paper=paper, lexicons=LEXICON_NAMES)  # fmt: skip
