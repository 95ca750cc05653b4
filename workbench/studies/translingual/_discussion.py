"""The Discussion of notebook 07, rendered from the run's records.

:func:`discussion_07` checks the records, computes their facts (:func:`._facts.facts_07`) and
fills the template ``templates/discussion_07.md.j2``; every sentence is in the template, every
qualitative word is decided by a fact, every number comes from the records or from the paper's
reported tables (:mod:`workbench.reported`).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from IPython.display import Markdown

from workbench import templating
from workbench.studies.facts import check_records

from ._facts import facts_07
from ._result import TranslingualRecords

__all__ = ["TEMPLATES", "discussion_07"]

#: The folder of the study's Discussion templates.
TEMPLATES = Path(__file__).parent / "templates"


def discussion_07(rec: Mapping[str, Any]) -> Markdown:
    """The Discussion of notebook 07 from its records (see the notebook's last cell).

    Parameters
    ----------
    rec : mapping
        The run's records (:meth:`TranslingualStudyResult.records`, or a ``records.json``).

    Returns
    -------
    IPython.display.Markdown

    Raises
    ------
    TypeError
        ``rec`` is not a mapping.
    KeyError
        A record the Discussion needs is missing (the message lists them).
    ValueError
        The records hold no seed or no verse ranking.
    """
    check_records(rec, sorted(TranslingualRecords.__required_keys__), notebook="07")
    if not rec["seeds"] or not rec["verse_ranking"]:
        raise ValueError("discussion_07(): the records hold no seed or no verse ranking")
    return templating.render(TEMPLATES, "discussion_07.md.j2", r=rec, facts=facts_07(rec))
