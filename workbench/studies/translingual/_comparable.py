"""A comparable-document condition built from the aligned texts (notebook 07).

The paper's largest gains of the discriminative models were on *comparable* Wikipedia pairs,
documents on the same subject that are not translations of each other. The Bible chapters are
exact translations; :func:`comparable_data` pairs each chapter's English **first half of verses**
(the first ``ceil(n / 2)``) with its Spanish **second half** (the other verses), so no verse is on
both sides: the two documents share their subject (the chapter), not their text. Everything is
trained, tuned on dev and tested on such pairs, with the term space and idf of the main run (built
from the whole training chapters). Word-by-word translation is left out: it is trained on the
aligned verses, i.e. on parallel data.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import pandas as pd

from workbench.crosslingual import compare_pairs, log_tf_idf

from ._data import BibleData
from ._experiment import TranslingualResult, run_translingual
from ._settings import ExperimentConfig

__all__ = ["COMPARABLE_CLAIMS", "COMPARABLE_METHODS", "ComparableResult", "comparable_data",
           "run_comparable"]  # fmt: skip

#: The methods of the comparable condition (every method but the word-by-word ones).
COMPARABLE_METHODS = ("OPCA", "CPLSA", "JPLSA", "CCA", "CL-LSI", "Untranslated")

#: The paper's claims among those methods (winner, loser): Holm over these.
COMPARABLE_CLAIMS: tuple[tuple[str, str], ...] = (
    ("OPCA", "CL-LSI"),
    ("CPLSA", "JPLSA"),
    ("OPCA", "CCA"),
)


def comparable_data(data: BibleData) -> BibleData:
    """``data`` with the first language's chapters replaced by their first half of verses and
    the second language's by their second half (see the module docstring). Chapters with an
    empty side (no counted term) are left out; no division labels (no Table 3).

    Raises ``ValueError`` when ``data`` holds no verse halves or not two languages.
    """
    if len(data.languages) != 2 or set(data.halves) != set(data.languages):
        raise ValueError("comparable_data() needs the verse halves of two languages "
                         "(BibleData.halves, built by prepare_bible / prepare_parallel)")  # fmt: skip
    a, b = data.languages
    counts = {a: data.halves[a][0].tocsr(), b: data.halves[b][1].tocsr()}
    ok = np.ones(len(data.ids), dtype=bool)
    for c in counts.values():
        ok &= np.asarray(c.sum(axis=1)).ravel() > 0
    keep = np.flatnonzero(ok)
    new_index = np.cumsum(ok) - 1  # old chapter index -> index among the kept chapters
    counts = {lang: c[keep] for lang, c in counts.items()}
    return replace(
        data,
        ids=[data.ids[i] for i in keep],
        books=data.books[keep],
        divisions=data.divisions[keep],
        tokens={lang: [t[i] for i in keep] for lang, t in data.tokens.items()},
        counts=counts,
        weighted={lang: log_tf_idf(data.space, counts[lang]) for lang in (a, b)},
        parts={k: new_index[v[ok[v]]] for k, v in data.parts.items()},
        halves={},
        labelled=False,
        name=f"{data.name}, comparable halves",
    )


@dataclass(frozen=True, eq=False)
class ComparableResult:
    """The comparable condition: the run and its claim tests.

    Attributes
    ----------
    chapters : TranslingualResult
        Every method trained, tuned on dev and tested on comparable halves.
    claims : DataFrame
        :data:`COMPARABLE_CLAIMS` on test Top-1 hits (exact McNemar, Holm over the claims run).
    """

    chapters: TranslingualResult
    claims: pd.DataFrame

    def records(self) -> dict[str, Any]:
        """JSON values: chapters per part, test Top-1 / MRR and chosen setting per method, the
        claims (``winner > loser``: difference, McNemar p, Holm p)."""
        ch = self.chapters
        tt = ch.test_table.set_index("method")
        return {
            "n_chapters": {str(k): int(len(v)) for k, v in ch.data.parts.items()},
            "test_top1": {str(k): float(v) for k, v in tt["top1"].items()},
            "test_mrr": {str(k): float(v) for k, v in tt["mrr"].items()},
            "chosen_setting": {str(k): str(v) for k, v in tt["setting"].items()},
            "chosen_dim": {str(k): str(v) for k, v in tt["dim"].items()},
            "claims": [
                {
                    "claim": f"{r['method']} > {r['baseline']}",
                    "difference": float(r["difference"]),
                    "mcnemar p": float(r["mcnemar p"]),
                    "holm p": float(r["holm p"]),
                }
                for _, r in self.claims.iterrows()
            ],  # fmt: skip
        }


def run_comparable(
    data: BibleData, config: ExperimentConfig, *, n_jobs: int = 1, alpha: float = 0.05
) -> ComparableResult | None:
    """The comparable condition of ``data`` with the settings of ``config`` (its own dev choice
    of every setting); None when ``config.comparable`` is off or the data hold no halves."""
    if not config.comparable or not data.halves:
        return None
    methods = tuple(m for m in COMPARABLE_METHODS if m in config.methods)
    cfg = replace(config, methods=methods, term_sweep=(), comparable=False)
    result = run_translingual(comparable_data(data), cfg, n_jobs=n_jobs)
    pairs = [(lo, w) for w, lo in COMPARABLE_CLAIMS if w in methods and lo in methods]
    return ComparableResult(result, compare_pairs(result.test_hits, pairs, alpha=alpha))
