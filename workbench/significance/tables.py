"""Results tables rendered like the papers' (bold best, dagger for significant gains, MRDS)."""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import numpy as np
import pandas as pd

from workbench._validation import check_bool, check_choice, check_float, check_int

logger = logging.getLogger(__name__)

# ============================================================================================
# results tables
# ============================================================================================


@dataclass(frozen=True)
class ResultsTable:
    """A data sets x systems table with bold / dagger marks (see :func:`results_table`)."""

    values: pd.DataFrame
    bold: pd.DataFrame
    dagger: pd.DataFrame
    mrds: pd.Series | None
    decimals: int
    scale: float

    def _fmt(self, v: float) -> str:
        return "–" if not np.isfinite(v) else f"{v * self.scale:.{self.decimals}f}"

    def _cells(self, bold: Callable[[str], str], dag: str) -> pd.DataFrame:
        out = pd.DataFrame(index=self.values.index, columns=self.values.columns, dtype=object)
        for r in self.values.index:
            for c in self.values.columns:
                s = self._fmt(float(self.values.loc[r, c]))
                if self.dagger.loc[r, c]:
                    s += dag
                out.loc[r, c] = bold(s) if self.bold.loc[r, c] else s
        if self.mrds is not None:
            out["MRDS"] = [self._fmt(float(v)) for v in self.mrds.reindex(self.values.index)]
        return out

    def to_frame(self) -> pd.DataFrame:
        """Formatted strings with plain-text marks (``*x*`` none; bold as ``**x**``, † as is)."""
        return self._cells(lambda s: f"**{s}**", "†")

    def to_markdown(self) -> str:
        """GitHub-flavoured Markdown (bold as ``**x**``, significance as †)."""
        cells = self.to_frame()
        header = [str(self.values.index.name or "")] + [str(c) for c in cells.columns]
        lines = [
            "| " + " | ".join(header) + " |",
            "|" + "|".join(["---"] + ["---:"] * cells.shape[1]) + "|",
        ]
        for idx, row in cells.iterrows():
            lines.append("| " + " | ".join([str(idx)] + [str(v) for v in row]) + " |")
        return "\n".join(lines) + "\n"

    def to_latex(self, caption: str | None = None) -> str:
        """A LaTeX ``tabular`` (bold as ``\\textbf``, significance as ``$^\\dagger$``)."""

        def esc(s: str) -> str:
            for a, b in (
                ("\\", r"\textbackslash{}"),
                ("&", r"\&"),
                ("%", r"\%"),
                ("_", r"\_"),
                ("#", r"\#"),
            ):
                s = s.replace(a, b)
            return s

        cells = self._cells(lambda s: f"\\textbf{{{s}}}", "$^\\dagger$")
        cols = "l" + "r" * cells.shape[1]
        lines = [f"\\begin{{tabular}}{{{cols}}}", "\\hline"]
        header = [esc(str(self.values.index.name or ""))] + [esc(str(c)) for c in cells.columns]
        lines.append(" & ".join(header) + " \\\\")
        lines.append("\\hline")
        for idx, row in cells.iterrows():
            vals = [esc(str(idx))] + [str(v).replace("–", "--") for v in row]
            lines.append(" & ".join(vals) + " \\\\")
        lines += ["\\hline", "\\end{tabular}"]
        body = "\n".join(lines)
        if caption:
            body = f"\\begin{{table}}\n\\centering\n{body}\n\\caption{{{esc(caption)}}}\n\\end{{table}}"
        return body + "\n"

    def to_csv(self, path: str | Path | None = None) -> str:
        """Raw (unscaled) values plus ``bold`` / ``dagger`` flags and MRDS as CSV text; written to
        ``path`` if given."""
        df = self.values.copy()
        for c in self.values.columns:
            df[f"{c}__bold"] = self.bold[c]
            df[f"{c}__dagger"] = self.dagger[c]
        if self.mrds is not None:
            df["MRDS"] = self.mrds.reindex(self.values.index)
        text = df.to_csv()
        if path is not None:
            Path(path).write_text(text)
        return text


def results_table(
    scores: pd.DataFrame,
    *,
    baseline: str | None = None,
    mrds: Mapping[str, float] | pd.Series | None = None,
    significant: pd.DataFrame | None = None,
    bold: Literal["best", "mrds"] = "best",
    higher_is_better: bool = True,
    decimals: int = 1,
    scale: float = 100.0,
) -> ResultsTable:
    """Mark a data sets x systems table like the papers' tables.

    Parameters
    ----------
    scores : DataFrame
        Rows are data sets, columns systems (raw values, e.g. Spearman 0.734).
    baseline : str, optional
        Column the others are compared with for the † mark.
    mrds : mapping data set -> MRDS, optional
        Added as a column; without ``significant``, a gain over ``baseline`` larger than the
        row's MRDS earns a †.
    significant : bool DataFrame, optional
        Explicit † marks (e.g. from :func:`compare_wordsim`); overrides the MRDS rule.
    bold : {"best", "mrds"}
        ``"best"``: the best value of each row; ``"mrds"``: every value within the row's MRDS of
        the best (as the MVLSA paper highlights with :math:`\\sigma^{0.9}_{0.05}`).
    decimals, scale :
        Display format (values are multiplied by ``scale``; raw values are kept for CSV).
    """
    if not isinstance(scores, pd.DataFrame) or scores.empty:
        raise ValueError("scores must be a non-empty DataFrame (data sets x systems)")
    check_choice(bold, "bold", ("best", "mrds"))
    higher_is_better = check_bool(higher_is_better, "higher_is_better")
    decimals = check_int(decimals, "decimals", low=0)
    scale = check_float(scale, "scale", low=0, low_open=True)
    vals = scores.astype(float)
    mr = None if mrds is None else pd.Series(mrds, dtype=float).reindex(vals.index)
    if baseline is not None and baseline not in vals.columns:
        raise ValueError(f"baseline {baseline!r} is not a column of scores")
    signed = vals if higher_is_better else -vals
    best = signed.max(axis=1)
    if bold == "mrds":
        if mr is None:
            raise ValueError("bold='mrds' needs mrds values")
        bold_df = signed.ge(best - mr.fillna(0.0), axis=0)
    elif bold == "best":
        bold_df = signed.eq(best, axis=0)
    else:
        raise ValueError(f"bold must be 'best' or 'mrds', got {bold!r}")
    bold_df &= vals.notna()
    if significant is not None:
        dag = significant.reindex(index=vals.index, columns=vals.columns).fillna(False).astype(bool)
    elif baseline is not None and mr is not None:
        gain = signed.sub(signed[baseline], axis=0)
        dag = gain.gt(mr, axis=0)
        dag[baseline] = False
    else:
        dag = pd.DataFrame(False, index=vals.index, columns=vals.columns)
    return ResultsTable(vals, bold_df, dag, mr, decimals, scale)
