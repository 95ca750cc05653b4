"""How long a run will take, from the times of the last run in the same results folder.

Each notebook's last complete result at the same size (its manifest's ``wall_time_s``) is
its expected time; the schedule is then simulated the way the runner executes it (``jobs``
workers, each notebook after the selected notebooks it depends on, in plan order), crediting
the notebooks already running with the time they have run. A notebook without an earlier
time is counted apart (``unknown``), never guessed.
"""

from __future__ import annotations

import heapq
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from workbench.runner._publish import read_manifest

__all__ = ["TimeEstimate", "estimate_left", "previous_times"]


@dataclass(frozen=True)
class TimeEstimate:
    """The expected wall time left of a run.

    Attributes
    ----------
    seconds : float
        Expected wall time until every notebook with an earlier time has finished.
    unknown : tuple of str
        Notebooks still to run without an earlier time (not counted in ``seconds``).
    """

    seconds: float
    unknown: tuple[str, ...] = ()

    def describe(self) -> str:
        """``"about 12 min left (from the last run's times)"``, naming notebooks without one;
        ``"time left unknown: ... not timed before"`` when none has a time."""
        if self.unknown and self.seconds == 0:
            return f"time left unknown: {', '.join(self.unknown)} not timed before in this folder"
        minutes = self.seconds / 60
        text = f"about {minutes:.0f} min" if minutes >= 1 else f"about {self.seconds:.0f} s"
        text += " left (from the last run's times"
        if self.unknown:
            text += f"; {', '.join(self.unknown)} not timed before"
        return text + ")"


def previous_times(out_dir: Path, names: Sequence[str], size: str) -> dict[str, float]:
    """Wall time of each of ``names`` in its last complete result in ``out_dir`` at ``size``
    (notebooks without such a result are left out)."""
    times = {}
    for name in names:
        manifest = read_manifest(out_dir / name)
        if manifest is None or manifest.get("status") != "complete" or manifest.get("size") != size:
            continue
        wall = manifest.get("wall_time_s")
        if isinstance(wall, (int, float)) and not isinstance(wall, bool) and wall >= 0:
            times[name] = float(wall)
    return times


def estimate_left(
    pending: Sequence[str],
    times: Mapping[str, float],
    *,
    jobs: int,
    depends_on: Mapping[str, Sequence[str]],
    running: Mapping[str, float] | None = None,
) -> TimeEstimate:
    """Simulated wall time until ``pending`` (in plan order) and ``running`` have finished.

    Parameters
    ----------
    pending : sequence of str
        Notebooks not started yet, in the order the runner starts them.
    times : mapping
        Expected wall time of each notebook (:func:`previous_times`).
    jobs : int
        Notebooks run at the same time.
    depends_on : mapping
        Notebook -> notebooks it starts after (only those still pending or running count).
    running : mapping, optional
        Notebook -> seconds it has run so far; it occupies a worker until its expected time.

    Examples
    --------
    >>> estimate_left(["a", "b", "c"], {"a": 60, "b": 30, "c": 30}, jobs=2, depends_on={}).seconds
    60.0
    >>> estimate_left(["c"], {"a": 60, "c": 30}, jobs=2, depends_on={"c": ["a"]},
    ...               running={"a": 50}).seconds
    40.0
    """
    running = dict(running or {})
    unknown = tuple(n for n in [*running, *pending] if n not in times)
    workers = max(int(jobs), 1)
    # finish time of each notebook in the simulation; running ones end when their time is up
    finish: dict[str, float] = {
        n: max(float(times.get(n, 0.0)) - t, 0.0) for n, t in running.items()
    }
    busy = sorted(finish.values())[:workers]
    free = [0.0] * max(workers - len(busy), 0) + busy
    heapq.heapify(free)
    left = list(pending)
    active = set(running) | set(pending)
    while left:
        start = heapq.heappop(free)
        # the first notebook (plan order) whose dependencies are done by `start`, else the one
        # whose dependencies finish first
        best, best_ready = None, float("inf")
        for name in left:
            deps = [d for d in depends_on.get(name, ()) if d in active]
            if any(d not in finish for d in deps):
                continue
            ready = max([start, *(finish[d] for d in deps)])
            if ready <= start:
                best, best_ready = name, start
                break
            if ready < best_ready:
                best, best_ready = name, ready
        if best is None:  # a dependency outside the simulation: run in plan order
            best, best_ready = left[0], start
        left.remove(best)
        finish[best] = best_ready + float(times.get(best, 0.0))
        heapq.heappush(free, finish[best])
    return TimeEstimate(float(max(finish.values(), default=0.0)), unknown)
