"""``workbench evaluate A B … --wordsim X``: word vectors scored on rating sets, with confidence
intervals, the MRDS of each set and the pairwise dependent-correlation tests between systems.

For each rating set and each vectors file: Spearman's :math:`\\rho` between cosine similarities
and the ratings over the pairs whose two words have vectors, with a seeded paired bootstrap
95 % interval (:func:`workbench.significance.bootstrap_ci`, 2,000 resamples, percentile). The
MRDS of a set is :func:`workbench.significance.mrds_correlation` at :math:`r_{AB} = 0.9` and
:math:`p_0 = 0.05` (Rastogi et al. 2015, Table 2) for the pairs every system scores. Each pair of
systems is compared on each set by a dependent-correlation test
(:func:`workbench.significance.compare_wordsim`: Williams' t by default, or Steiger's Z), on the
pairs both score, two-sided; the p-values are Holm-adjusted over the family of every pairwise
comparison on every rating set of the invocation.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import math
import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from workbench.cli._names import TESTS
from workbench.datasets import WORDSIM_NAMES, load_wordsim
from workbench.embeddings import WordVectors, load_word_vectors
from workbench.evaluation import WordSimResult, evaluate_wordsim
from workbench.significance import adjust_finite, bootstrap_ci, compare_wordsim, mrds_correlation

__all__ = ["TESTS", "Evaluation", "EvaluateUsageError", "evaluate", "write_outputs"]

MRDS_R = 0.9
P0 = 0.05


class EvaluateUsageError(ValueError):
    """Bad input of ``workbench evaluate`` (exit code 2)."""


@dataclasses.dataclass(frozen=True)
class Evaluation:
    """Scores (one row per rating set and system) and tests (one row per set and pair)."""

    systems: dict[str, str]
    scores: pd.DataFrame
    tests: pd.DataFrame
    family: str
    skipped: tuple[str, ...] = ()

    def table(self) -> str:
        """Both tables as aligned text, with their legends."""
        fmt = self.scores.copy()
        for c in ("spearman", "ci_low", "ci_high", "mrds"):
            fmt[c] = fmt[c].map(lambda v: "n/a" if not math.isfinite(v) else f"{v:.3f}")
        lines = ["Spearman's rho (95% paired bootstrap CI); MRDS at r_AB=0.9, p0=0.05:",
                 fmt.to_string(index=False)]  # fmt: skip
        if len(self.tests):
            t = self.tests.copy()
            for c in ("r_a", "r_b", "difference", "statistic"):
                t[c] = t[c].map(lambda v: "n/a" if not math.isfinite(v) else f"{v:.3f}")
            for c in ("p", "p_holm"):
                t[c] = t[c].map(lambda v: "n/a" if not math.isfinite(v) else f"{v:.3g}")
            lines += ["", f"Pairwise tests ({self.family}):", t.to_string(index=False)]
        if self.skipped:
            lines += ["", "not scored (no pair in any vocabulary): " + ", ".join(self.skipped)]
        return "\n".join(lines)

    def to_json(self) -> dict[str, Any]:
        def rows(df: pd.DataFrame) -> list[dict[str, Any]]:
            return [{str(k): (None if isinstance(v, float) and not math.isfinite(v) else v)
                     for k, v in r.items()} for r in df.to_dict(orient="records")]  # fmt: skip

        return {"systems": self.systems, "scores": rows(self.scores), "tests": rows(self.tests),
                "family": self.family, "mrds": {"r_ab": MRDS_R, "p0": P0},
                "skipped": list(self.skipped)}  # fmt: skip


def _labels(paths: Sequence[str]) -> dict[str, str]:
    """label -> path: the file name, or the whole path when two files share a name."""
    names = [Path(p).name for p in paths]
    return {(n if names.count(n) == 1 else str(p)): str(p) for n, p in zip(names, paths)}


def _rating_sets(values: Sequence[str]) -> list[tuple[str, str, bool]]:
    """(label, name or path, explicit): ``all`` expands to every bundled set (not explicit)."""
    canonical = {n.upper(): n for n in WORDSIM_NAMES}
    out: list[tuple[str, str, bool]] = []
    for v in values:
        if v.lower() == "all":
            items = [(n, n, False) for n in WORDSIM_NAMES]
        elif v.upper() in canonical:
            items = [(canonical[v.upper()], canonical[v.upper()], True)]
        else:
            p = Path(v).expanduser()
            if not p.is_file():
                raise EvaluateUsageError(f"--wordsim {v!r}: no such file (nor a bundled set: "
                                         f"{', '.join(WORDSIM_NAMES)}, or 'all')")  # fmt: skip
            if p.stat().st_size == 0:
                raise EvaluateUsageError(f"--wordsim {v!r}: the file is empty")
            items = [(p.name, str(p), True)]
        for item in items:
            known = [o for o in out if o[1] == item[1]]
            if known:
                if item[2] and not known[0][2]:
                    out[out.index(known[0])] = item
            else:
                out.append(item)
    return out


def _load_vectors(paths: dict[str, str]) -> dict[str, WordVectors]:
    out = {}
    for label, path in paths.items():
        p = Path(path).expanduser()
        if not p.is_file():
            raise EvaluateUsageError(f"vectors {path!r}: no such file")
        if p.stat().st_size == 0:
            raise EvaluateUsageError(f"vectors {path!r}: the file is empty")
        out[label] = load_word_vectors(p)
    return out


def _ci(result: WordSimResult) -> tuple[float, float]:
    if result.n_scored < 4 or not math.isfinite(result.spearman):
        return math.nan, math.nan
    with warnings.catch_warnings():  # few pairs: scipy warns of a degenerate resample
        warnings.simplefilter("ignore")
        ci = bootstrap_ci(result, random_state=0)
    return float(ci.low), float(ci.high)


def evaluate(
    vector_files: Sequence[str], wordsim: Sequence[str] = ("all",), *, test: str = "williams1959"
) -> Evaluation:
    """Score every vectors file on every rating set and test every pair of systems.

    Raises
    ------
    EvaluateUsageError
        No vectors file, a missing or empty file, an unknown test, a rating file (named
        explicitly) of which no pair has both words in any of the vectors.
    """
    if not vector_files:
        raise EvaluateUsageError("give at least one vectors file")
    if test not in TESTS:
        raise EvaluateUsageError(f"--test {test!r}: expected one of {', '.join(TESTS)}")
    systems = _labels(vector_files)
    sets = _rating_sets(wordsim)
    vectors = _load_vectors(systems)
    score_rows: list[dict[str, Any]] = []
    test_rows: list[dict[str, Any]] = []
    skipped: list[str] = []
    for label, source, explicit in sets:
        df = load_wordsim(Path(source) if source not in WORDSIM_NAMES else source)
        df.attrs["name"] = label
        results = {s: evaluate_wordsim(v, df) for s, v in vectors.items()}
        if all(r.n_scored == 0 for r in results.values()):
            if explicit:
                raise EvaluateUsageError(
                    f"--wordsim {source}: no pair of its {len(df)} pairs has both words in "
                    f"{' or '.join(systems.values())} (every word is out of vocabulary); check "
                    "the columns (word1, word2, score), the language and the case of the words"
                )
            skipped.append(label)
            continue
        common = np.logical_and.reduce([r.scored for r in results.values()])
        n_common = int(common.sum())
        mrds = mrds_correlation(n_common, MRDS_R, P0) if n_common >= 4 else math.nan
        for s, r in results.items():
            lo, hi = _ci(r)
            score_rows.append({"wordsim": label, "system": s, "n_pairs": r.n_pairs,
                               "n_scored": r.n_scored, "spearman": float(r.spearman),
                               "ci_low": lo, "ci_high": hi, "mrds": float(mrds)})  # fmt: skip
        for a, b in itertools.combinations(results, 2):
            row: dict[str, Any] = {"wordsim": label, "system_a": a, "system_b": b}
            try:
                c = compare_wordsim(results[a], results[b], method=test, p0=P0)
            except ValueError as exc:  # fewer than 4 common pairs, |r| = 1, ...
                row.update(n=int((results[a].scored & results[b].scored).sum()), r_a=math.nan,
                           r_b=math.nan, difference=math.nan, statistic=math.nan, p=math.nan,
                           note=str(exc))  # fmt: skip
            else:
                row.update(n=c.n, r_a=c.r_a, r_b=c.r_b, difference=c.difference,
                           statistic=c.statistic, p=c.pvalue, note="")  # fmt: skip
            test_rows.append(row)
    scores = pd.DataFrame(score_rows, columns=["wordsim", "system", "n_pairs", "n_scored",
                                               "spearman", "ci_low", "ci_high", "mrds"])  # fmt: skip
    tests = pd.DataFrame(test_rows, columns=["wordsim", "system_a", "system_b", "n", "r_a", "r_b",
                                             "difference", "statistic", "p", "note"])  # fmt: skip
    tests.insert(len(tests.columns) - 1, "p_holm", adjust_finite(tests["p"].to_numpy(float)))
    tests.insert(len(tests.columns) - 1, "significant", tests["p_holm"] < P0)
    n_family = int(np.isfinite(tests["p"].to_numpy(float)).sum())
    name = {"williams1959": "Williams' t", "steiger1980": "Steiger's Z"}[test]
    family = (f"{name}, two-sided, on the pairs both systems score; Holm over the {n_family} "
              "pairwise comparisons on every rating set; significant: Holm-adjusted p < 0.05")  # fmt: skip
    return Evaluation(systems, scores, tests, family, tuple(skipped))


def write_outputs(ev: Evaluation, csv: str | None, json_path: str | None) -> list[Path]:
    """The scores as CSV (``csv``; the tests next to it as ``<stem>.tests.csv``) and everything
    as JSON (``json_path``)."""
    written = []
    if csv:
        p = Path(csv).expanduser()
        ev.scores.to_csv(p, index=False)
        tp = p.with_name(p.stem + ".tests.csv")
        ev.tests.to_csv(tp, index=False)
        written += [p, tp]
    if json_path:
        p = Path(json_path).expanduser()
        p.write_text(json.dumps(ev.to_json(), indent=2) + "\n", encoding="utf-8")
        written.append(p)
    return written
