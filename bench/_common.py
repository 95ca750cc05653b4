"""Boilerplate shared by the ``bench/`` scripts: argument parsing, timing, peak memory, output.

The scripts are run as ``.venv/bin/python bench/bench_<name>.py`` (``bench/`` is then first on
``sys.path``), so they import this module as ``_common``::

    from _common import Timer, add_json_argument, add_quick_argument, make_parser, report

Typical use::

    ap = make_parser(__doc__)
    add_quick_argument(ap, "reduced size (seconds)")
    add_json_argument(ap)
    args = ap.parse_args(argv)
    with Timer() as t:
        work()
    out = {"work_seconds": round(t.seconds, 2), "peak_rss_gb": round(peak_rss_gb(), 3)}
    report(out, args.json)
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

__all__ = [
    "REPO_ROOT",
    "Timer",
    "add_json_argument",
    "add_quick_argument",
    "ensure_repo_on_path",
    "machine",
    "make_parser",
    "peak_rss_gb",
    "peak_rss_mb",
    "print_json",
    "report",
    "write_json",
]

#: The repository root (parent of ``bench/``).
REPO_ROOT = Path(__file__).resolve().parents[1]


def ensure_repo_on_path() -> None:
    """Make ``import workbench`` work from a checkout without an installed package."""
    root = str(REPO_ROOT)
    if root not in sys.path:
        sys.path.insert(0, root)


# ----------------------------------------------------------------------------- arguments


def make_parser(doc: str | None) -> argparse.ArgumentParser:
    """An argument parser whose ``--help`` shows the script's docstring verbatim."""
    return argparse.ArgumentParser(
        description=doc, formatter_class=argparse.RawDescriptionHelpFormatter
    )


def add_quick_argument(ap: argparse.ArgumentParser, help_text: str) -> None:
    """``--quick``: the reduced size every bench script must support (validation runs)."""
    ap.add_argument("--quick", action="store_true", help=help_text)


def add_json_argument(ap: argparse.ArgumentParser) -> None:
    """``--json PATH``: also write the results there (``args.json`` is a Path or None)."""
    ap.add_argument("--json", type=Path, default=None, help="write the results here")


# ----------------------------------------------------------------------------- measurement


class Timer:
    """Context manager measuring elapsed seconds (``clock``: wall time by default).

    >>> with Timer() as t:
    ...     pass
    >>> t.seconds >= 0
    True
    """

    def __init__(self, clock: Callable[[], float] = time.perf_counter) -> None:
        self.clock = clock
        self.start = 0.0
        self.seconds = float("nan")

    def __enter__(self) -> Timer:
        self.start = self.clock()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.seconds = self.clock() - self.start


def _ru_maxrss_kib() -> float | None:
    try:
        import resource
    except ImportError:  # pragma: no cover - non-POSIX
        return None
    # ru_maxrss is in KiB on Linux
    return float(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)


def peak_rss_gb() -> float:
    """Peak resident set size of this process so far, in GiB (NaN where unavailable)."""
    kib = _ru_maxrss_kib()
    return float("nan") if kib is None else kib / 2**20


def peak_rss_mb() -> float | None:
    """Peak resident set size of this process so far, in MiB (None where unavailable)."""
    kib = _ru_maxrss_kib()
    return None if kib is None else kib / 1024.0


# ----------------------------------------------------------------------------- output


def _cpu() -> dict[str, Any]:
    """CPU model and its widest vector extension (a virtual machine's model name may not say)."""
    model, flags = platform.processor() or platform.machine(), set()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
            elif line.startswith("flags"):
                flags = set(line.split(":", 1)[1].split())
    except OSError:
        pass
    simd = next((f for f in ("avx512f", "avx2", "avx", "sse4_2") if f in flags), None)
    return {"cpu": model, "simd": simd}


def machine() -> dict[str, Any]:
    """What the numbers were measured on: CPU model, cores, memory, and the BLAS libraries
    loaded with the kernel each runs (threadpoolctl), so that rows measured on machines of the
    same size but another processor can be told apart."""
    info: dict[str, Any] = {**_cpu(), "cores": os.cpu_count()}
    try:
        pages, page = os.sysconf("SC_PHYS_PAGES"), os.sysconf("SC_PAGE_SIZE")
        info["memory_gb"] = round(pages * page / 2**30, 1)
    except (ValueError, OSError, AttributeError):  # pragma: no cover - non-POSIX
        pass
    try:
        import numpy  # noqa: F401 - loads numpy's BLAS so that threadpoolctl sees it
        from threadpoolctl import threadpool_info

        info["blas"] = [
            {k: lib.get(k) for k in ("internal_api", "version", "architecture", "num_threads")}
            for lib in threadpool_info()
        ]
    except ImportError:  # pragma: no cover - threadpoolctl comes with scikit-learn
        pass
    return info


def print_json(out: dict[str, Any]) -> None:
    """Print the results as indented JSON on stdout."""
    print(json.dumps(out, indent=2))


def write_json(out: dict[str, Any], path: str | os.PathLike[str] | None) -> None:
    """Write the results as indented JSON to ``path`` (nothing if ``path`` is None)."""
    if path:
        Path(path).write_text(json.dumps(out, indent=2))


def report(out: dict[str, Any], path: str | os.PathLike[str] | None) -> None:
    """:func:`print_json` then :func:`write_json`, with :func:`machine` under ``"machine"``."""
    out.setdefault("machine", machine())
    print_json(out)
    write_json(out, path)
