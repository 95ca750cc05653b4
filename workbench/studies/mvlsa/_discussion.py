"""The Discussions of notebooks 03--05: Markdown templates filled from a run's records.

The prose is in ``templates/discussion_NN.md.j2`` (editing a sentence needs no Python); every
qualitative word is decided by a fact of :mod:`._facts`, every number is read from the records
the notebook wrote in the same run (:meth:`MVLSARun.records` and its siblings).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from IPython.display import Markdown

from workbench import templating
from workbench.studies.facts import FindingsComparison, check_records
from workbench.studies.mvlsa._facts import facts_03, facts_04, facts_05, findings, size_comparison

__all__ = ["discussion_03", "discussion_04", "discussion_05", "findings", "compare_sizes"]

TEMPLATES = Path(__file__).with_name("templates")


def _check_records(
    rec: object,
    notebook: str,
    keys: tuple[str, ...],
    other: object = None,
    other_size: object = None,
) -> None:
    """The records of a run of ``notebook`` (a mapping holding ``keys``) and, when given, the
    records of the run at ``other_size``; errors name what is missing."""
    check_records(rec, keys, notebook=notebook)
    if other is not None and not isinstance(other, Mapping):
        raise TypeError(f"other must be a mapping of records or None, got {type(other).__name__}")
    if other_size is not None and not isinstance(other_size, str):
        raise TypeError(f"other_size must be a data size (str) or None, got {other_size!r}")
    if other is not None and other_size is None:
        raise ValueError("other is given without other_size: name the data size of that run")


def _render(name: str, rec: Mapping[str, Any], facts: Any, other_size: str | None) -> Markdown:
    return templating.render(TEMPLATES, name, r=rec, facts=facts, other_size=other_size)


def discussion_03(
    rec: Mapping[str, Any],
    other: Mapping[str, Any] | None = None,
    other_size: str | None = None,
) -> Markdown:
    """The Discussion of notebook 03 from its records; with ``other`` (the records of a run at
    ``other_size``) the findings that move between the two data sizes are listed."""
    _check_records(rec, "03", ("test_mean", "test_wins", "tuning_path", "tuned", "claims"),
                   other, other_size)  # fmt: skip
    return _render("discussion_03.md.j2", rec, facts_03(rec, other), other_size)


def discussion_04(
    rec: Mapping[str, Any],
    other: Mapping[str, Any] | None = None,
    other_size: str | None = None,
) -> Markdown:
    """The Discussion of notebook 04 from its records (and the run at ``other_size``)."""
    _check_records(rec, "04", ("drops", "n_significantly_helped", "n_significantly_hurt",
                               "mean_wordsim_drop", "test_sets"), other, other_size)  # fmt: skip
    return _render("discussion_04.md.j2", rec, facts_04(rec, other), other_size)


def discussion_05(
    rec: Mapping[str, Any],
    other: Mapping[str, Any] | None = None,
    other_size: str | None = None,
) -> Markdown:
    """The Discussion of notebook 05 from its records (and the run at ``other_size``)."""
    _check_records(rec, "05", ("wordsim_mean", "gain_counts", "r_s_mean", "men", "scores",
                               "system_inputs"), other, other_size)  # fmt: skip
    return _render("discussion_05.md.j2", rec, facts_05(rec, other), other_size)


def compare_sizes(
    notebook: str, here: Mapping[str, Any], other: Mapping[str, Any] | None
) -> FindingsComparison | None:
    """The findings of this run against those of a run at another size
    (:func:`._facts.size_comparison`): moved, unchanged and not comparable (made by one run
    only); None without another run."""
    if notebook not in ("03", "04", "05"):
        raise ValueError(f"notebook must be '03', '04' or '05', got {notebook!r}")
    _check_records(here, notebook, (), other, "other" if other is not None else None)
    return size_comparison(notebook, here, other)
