"""What a run reports: per notebook its status, time and failure; for the run, the counts, the
summary table and the progress lines."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from workbench.records import read_records
from workbench.runner._publish import RECORDS

__all__ = ["NotebookFailure", "NotebookResult", "RunReport", "progress_line"]


@dataclass(frozen=True)
class NotebookFailure:
    """Where and how a notebook failed.

    ``cell_index`` counts the cells of the source notebook from 0 (``None`` when the
    failure happened outside a cell, e.g. the kernel died); ``execution_count`` is the
    ``In [n]`` number in the executed copy. ``stage`` is ``"publishing"`` when the notebook
    could not be put in place (or was not run because something is in the way); ``evalue``
    then names the path.
    """

    cell_index: int | None
    execution_count: int | None
    ename: str
    evalue: str
    source: str = ""
    traceback: str = ""
    stage: str = "execution"

    def describe(self) -> str:
        if self.stage == "publishing":
            return f"not published: {self.evalue}"
        where = (
            f"cell {self.cell_index} (In [{self.execution_count}])"
            if self.cell_index is not None
            else "outside any cell"
        )
        text = f"{where}: {self.ename}: {self.evalue}"
        if self.source:
            snippet = "\n".join("    " + line for line in self.source.strip().splitlines()[:8])
            text += f"\n  failing cell source:\n{snippet}"
        return text


@dataclass(frozen=True)
class NotebookResult:
    """Outcome for one notebook: ``status`` is "complete", "skipped" or "failed"."""

    name: str
    status: str
    output_dir: Path
    parameters: dict[str, Any] = field(default_factory=dict)
    wall_time: float = 0.0
    failure: NotebookFailure | None = None

    @property
    def records(self) -> dict[str, Any]:
        """Values the notebook recorded (empty for a failed run)."""
        path = self.output_dir / RECORDS
        return read_records(path) if self.status != "failed" and path.exists() else {}


@dataclass(frozen=True)
class RunReport:
    """Outcome of :func:`run_notebooks`."""

    results: tuple[NotebookResult, ...]
    out: Path
    #: Wall-clock seconds of the whole run (notebooks may have run in parallel).
    elapsed: float = 0.0
    #: Problems outside the notebooks (e.g. the summary could not be written), one line each.
    problems: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        """No notebook failed and nothing else went wrong."""
        return all(r.status != "failed" for r in self.results) and not self.problems

    @property
    def failed(self) -> list[NotebookResult]:
        return [r for r in self.results if r.status == "failed"]

    @property
    def exit_code(self) -> int:
        """0 when every notebook completed or was skipped (and the summary was written), else 1."""
        return 0 if self.ok else 1

    def __getitem__(self, name: str) -> NotebookResult:
        for r in self.results:
            if r.name == name:
                return r
        raise KeyError(name)

    def counts(self) -> dict[str, int]:
        """Number of notebooks per status (in the order complete, skipped, failed)."""
        out = {s: 0 for s in ("complete", "skipped", "failed")}
        for r in self.results:
            out[r.status] = out.get(r.status, 0) + 1
        return {s: n for s, n in out.items() if n}

    def summary_table(self) -> str:
        """A Markdown table: notebook, status, wall time, output folder / error; a last row with
        the counts per status and the run's elapsed time."""
        lines = ["| notebook | status | wall time (s) | output / error |", "|---|---|---:|---|"]
        for r in self.results:
            if r.failure is not None:
                detail = r.failure.describe().splitlines()[0].replace("|", "\\|")
            else:
                detail = str(r.output_dir)
            lines.append(f"| {r.name} | {r.status} | {r.wall_time:.1f} | {detail} |")
        counts = ", ".join(f"{n} {s}" for s, n in self.counts().items())
        n = len(self.results)
        lines.append(f"| **{n} notebook{'' if n == 1 else 's'}** | {counts} | {self.elapsed:.1f} | "
                     "elapsed time of the run |")  # fmt: skip
        return "\n".join(lines)


def _duration(seconds: float) -> str:
    """``"4.2 s"``, ``"3 min 07 s"``, ``"1 h 02 min"``."""
    if seconds < 60:
        return f"{seconds:.1f} s"
    minutes, sec = divmod(int(round(seconds)), 60)
    if minutes < 60:
        return f"{minutes} min {sec:02d} s"
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes:02d} min"


def progress_line(result: NotebookResult, index: int, total: int) -> str:
    """One line per finished notebook: ``[index/total] name  elapsed  status`` (and, for a
    failure, where it failed)."""
    width = len(str(total))
    line = (f"[{index:>{width}}/{total}] {result.name:<22} {_duration(result.wall_time):>12}  "
            f"{result.status}")  # fmt: skip
    if result.failure is not None:
        line += f" -- {result.failure.describe().splitlines()[0]}"
    return line
