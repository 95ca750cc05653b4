"""Scheduling a validated plan: skip what is complete and current, run the rest one at a time or
in worker processes (each notebook after the ones whose caches it reads), write the summary."""

from __future__ import annotations

import dataclasses
import logging
import multiprocessing
import os
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from pathlib import Path
from typing import Any

from workbench._io import file_sha256
from workbench.runner._estimate import TimeEstimate, estimate_left, previous_times
from workbench.runner._execution import run_one, stale_reason
from workbench.runner._notebooks import DEPENDS_ON
from workbench.runner._provenance import data_checksums, git_commit, package_versions
from workbench.runner._publish import remove_stale_partials, write_summary
from workbench.runner._results import NotebookFailure, NotebookResult, RunReport

logger = logging.getLogger(__name__)

__all__ = ["run_plan"]


def run_plan(
    plan: Sequence[tuple[Path, dict[str, Any]]],
    out_dir: Path,
    *,
    size: str,
    force: bool,
    progress: bool | None,
    kernel_name: str,
    jobs: int,
    on_result: Callable[[NotebookResult, int, int], None] | None = None,
    on_estimate: Callable[[TimeEstimate], None] | None = None,
) -> RunReport:
    """Run a validated plan into ``out_dir`` (the caller holds the folder's lock).

    ``on_estimate`` gets the expected time left (:mod:`workbench.runner._estimate`) before
    the first notebook starts and after each one finishes, while notebooks remain."""
    t0 = time.perf_counter()
    remove_stale_partials(out_dir)
    provenance: dict[str, Any] | None = None
    show = progress if progress is not None else sys.stderr.isatty()
    by_name: dict[str, NotebookResult] = {}
    todo: list[tuple[Path, dict[str, Any]]] = []
    for path, params in plan:
        final = out_dir / path.stem
        reason = None if force else stale_reason(final, params, file_sha256(path))
        if reason is None and not force:
            logger.info("%s: up to date, skipped (use --force to re-run)", path.stem)
            by_name[path.stem] = NotebookResult(path.stem, "skipped", final, params)
            continue
        if reason is not None and reason.startswith("damaged"):
            logger.warning("%s: the result in %s is %s; running it again", path.stem, final,
                           reason)  # fmt: skip
        elif reason is not None:
            logger.info("%s: %s, running it", path.stem, reason)
        todo.append((path, params))
    cap = min(len(todo), os.cpu_count() or 1)
    if todo and jobs > cap:
        logger.info("--jobs %d capped at %d (notebooks to run: %d, cores: %s)", jobs, cap,
                    len(todo), os.cpu_count())  # fmt: skip
        jobs = max(cap, 1)
    if todo:
        provenance = {
            "git_commit": git_commit(),
            "packages": package_versions(),
            "data_checksums": data_checksums(),
            "kernel": kernel_name,
            "python_executable": sys.executable,
        }
    kwargs: dict[str, Any] = {
        "size": size,
        "out": out_dir,
        "kernel_name": kernel_name,
        "provenance": provenance,
    }
    finished = 0
    names = [p.stem for p, _ in todo]
    times = previous_times(out_dir, names, size) if on_estimate is not None else {}
    started: dict[str, float] = {}  # notebooks running now -> when they started
    waiting = list(names)  # not started yet, in plan order

    def estimate() -> None:
        if on_estimate is None or not (waiting or started):
            return
        now = time.perf_counter()
        running = {n: now - t for n, t in started.items()}
        on_estimate(estimate_left(waiting, times, jobs=jobs, depends_on=DEPENDS_ON,
                                  running=running))  # fmt: skip

    def start(name: str) -> None:
        waiting.remove(name)
        started[name] = time.perf_counter()

    def done(result: NotebookResult) -> NotebookResult:
        nonlocal finished
        finished += 1
        if on_result is not None:
            on_result(result, finished, len(plan))
        if started.pop(result.name, None) is not None:
            estimate()
        return result

    for result in list(by_name.values()):  # the skipped ones
        done(result)
    estimate()
    if jobs == 1 or len(todo) <= 1:
        for path, params in todo:
            start(path.stem)
            by_name[path.stem] = done(_finish(run_one(path, params, progress=bool(show), **kwargs)))
    else:
        by_name.update(_run_parallel(todo, jobs, done, kwargs, start))
    results = [by_name[p.stem] for p, _ in plan]
    report = RunReport(tuple(results), out_dir, time.perf_counter() - t0)
    problems = write_summary(report)
    for problem in problems:
        logger.error("%s", problem)
    return dataclasses.replace(report, problems=tuple(problems)) if problems else report


def _finish(result: NotebookResult) -> NotebookResult:
    if result.failure is not None:
        logger.error("%s failed at %s", result.name, result.failure.describe())
    return result


def _run_parallel(
    todo: Sequence[tuple[Path, dict[str, Any]]],
    jobs: int,
    done_callback: Callable[[NotebookResult], NotebookResult],
    kwargs: dict[str, Any],
    start_callback: Callable[[str], None],
) -> dict[str, NotebookResult]:
    """Run ``todo`` in ``jobs`` worker processes, each notebook after its dependencies;
    ``start_callback`` sees each notebook's name as it is submitted, ``done_callback`` each
    result as it finishes."""
    pending = list(todo)
    selected = {p.stem for p, _ in todo}
    done: dict[str, NotebookResult] = {}
    running: dict[Future[NotebookResult], str] = {}
    # fork: the workers inherit this process's state (the environment is set per worker)
    with ProcessPoolExecutor(
        max_workers=jobs, mp_context=multiprocessing.get_context("fork")
    ) as pool:
        while pending or running:
            for item in list(pending):
                if len(running) >= jobs:
                    break
                path, params = item
                deps = [d for d in DEPENDS_ON.get(path.stem, ()) if d in selected]
                if all(d in done for d in deps):
                    pending.remove(item)
                    start_callback(path.stem)
                    fut = pool.submit(run_one, path, params, progress=False, **kwargs)
                    running[fut] = path.stem
            finished, _ = wait(list(running), return_when=FIRST_COMPLETED)
            for fut in finished:
                name = running.pop(fut)
                try:
                    result = fut.result()
                except Exception as exc:  # noqa: BLE001 - e.g. a worker that died: report it
                    failure = NotebookFailure(None, None, type(exc).__name__, str(exc))
                    result = NotebookResult(name, "failed", kwargs["out"] / name, {}, 0.0,
                                            failure)  # fmt: skip
                done[name] = done_callback(_finish(result))
    return done
