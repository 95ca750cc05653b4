"""Progress bars of iterative fits that may stop early on purpose.

A notebook (``tqdm.auto``) bar closed before its total is drawn red, which reads as a failure;
so is a bar iterated by a ``for`` loop left with ``break``. An EM or SGD loop that converges
before its iteration budget has succeeded: update the bar by hand and end it with
:func:`finish_bar`. A loop that raises never reaches it, and its bar still turns red::

    bar = tqdm(total=n_iter, desc="EM", disable=None, leave=False)
    for it in range(n_iter):
        bar.update()
        ...
        if converged:
            break
    finish_bar(bar)
"""

from __future__ import annotations

from typing import Protocol

__all__ = ["finish_bar"]


class _Bar(Protocol):
    """What :func:`finish_bar` uses of a ``tqdm`` bar."""

    total: float | None
    n: float

    def refresh(self) -> None: ...

    def close(self) -> None: ...


def finish_bar(bar: _Bar) -> None:
    """Close ``bar`` as complete at its current count (the loop may have stopped early)."""
    if bar.total is not None and bar.n < bar.total:
        bar.total = bar.n
        bar.refresh()
    bar.close()
