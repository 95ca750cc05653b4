"""The Discussions of notebooks 08 and 09, rendered from a run's records.

:func:`discussion_08` / :func:`discussion_09` check the records, compute the facts
(:mod:`._facts`, with the paper's numbers from :func:`workbench.reported.reported`) and fill the
templates ``templates/discussion_08.md.j2`` / ``discussion_09.md.j2``; every sentence lives in a
template.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from IPython.display import Markdown

from workbench import templating
from workbench.reported import reported
from workbench.studies.facts import check_records

from .._values import as_float
from ._facts import Paper08, Paper09, facts_08, facts_09

__all__ = ["discussion_08", "discussion_09", "paper_08", "paper_09"]

_TEMPLATES = Path(__file__).parent / "templates"

_NEEDED_08 = (
    "seeds", "data_size", "n_components", "evr_first", "evr_components", "n_multisense_words",
    "n_columns", "dim", "outside_3sigma", "sparse_fraction", "subspace_angle_deg",
    "listed_jaccard", "avg_cos", "top_words", "top_words_seed", "pseudo_fraction", "tests",
    "base_pseudo_rate", "n_listed_pairs", "n_tests", "planted",
)  # fmt: skip
_NEEDED_09 = (
    "seeds", "data_size", "dim", "rank", "table4", "table3_words", "table3_seed",
    "sparse_nonzero_fraction", "wordnet", "wordnet_n_words", "chosen_removed", "n_scws_dev",
    "keep_original_removed", "keep_tolerance",
)  # fmt: skip


def paper_08(k: int = 3) -> Paper08:
    """The paper's Table 2 and §3.2 numbers (the first ``k`` components)."""
    t2 = reported("ex_rpca", "table2").table
    s32 = reported("ex_rpca", "section3_2").table
    return Paper08(
        rho_pca=[as_float(t2.loc[f"PCA#{c}", "rho_var"]) for c in range(1, k + 1)],
        rho_ex=[as_float(t2.loc[f"Ex-RPCA#{c}", "rho_var"]) for c in range(1, k + 1)],
        sum_pca=as_float(t2.loc["sumPCA", "rho_var"]),
        sum_ex=as_float(t2.loc["sumEx-RPCA", "rho_var"]),
        cos_pca=[as_float(t2.loc[f"PCA#{c}", "Avg. cos"]) for c in range(1, 4)],
        cos_ex=[as_float(t2.loc[f"Ex-RPCA#{c}", "Avg. cos"]) for c in range(1, 4)],
        outside_observed=as_float(s32.loc["outside 3 sigma", "observed"]),
        outside_expected=as_float(s32.loc["outside 3 sigma", "expected (Gaussian)"]),
    )


def paper_09() -> Paper09:
    """The paper's Table 4."""
    t4 = reported("ex_rpca", "table4").table
    return Paper09(
        scws=as_float(t4.loc["V", "SCWS"]), ws=as_float(t4.loc["V", "WS353"]),
        scws_pca=as_float(t4.loc["V~_PCA", "SCWS"]), scws_ex=as_float(t4.loc["V~_Ex-RPCA", "SCWS"]),
        ws_pca=as_float(t4.loc["V~_PCA", "WS353"]),
        rank_pca=as_float(t4.loc["V~_PCA", "Rank(L)"]),
        rank_ex=as_float(t4.loc["V~_Ex-RPCA", "Rank(L)"]),
        scws_wn=as_float(t4.loc["V~_WordNet", "SCWS"]), ws_wn=as_float(t4.loc["V~_WordNet", "WS353"]),
    )  # fmt: skip


def discussion_08(
    rec: Mapping[str, Any], other: Mapping[str, Any] | None = None, other_size: str | None = None
) -> Markdown:
    """The Discussion of notebook 08 (Tables 1-2 of Shi, Sun & Hu 2018) from its records
    (``SensePairStudy.records()``; no other-size comparison)."""
    check_records(rec, _NEEDED_08, notebook="08")
    paper = paper_08(int(rec["n_components"]))
    facts = facts_08(rec, other, paper=paper)
    return templating.render(_TEMPLATES, "discussion_08.md.j2", r=rec, facts=facts, paper=paper,
                             msd=templating.mean_sd)  # fmt: skip


def discussion_09(
    rec: Mapping[str, Any], other: Mapping[str, Any] | None = None, other_size: str | None = None
) -> Markdown:
    """The Discussion of notebook 09 (Table 3, Table 4 and Figure 2 of Shi, Sun & Hu 2018) from
    its records (``SparseNoiseStudy.records()``; no other-size comparison)."""
    check_records(rec, _NEEDED_09, notebook="09")
    paper = paper_09()
    facts = facts_09(rec, other, paper=paper)
    return templating.render(_TEMPLATES, "discussion_09.md.j2", r=rec, facts=facts, paper=paper,
                             msd=templating.mean_sd)  # fmt: skip
