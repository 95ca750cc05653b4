"""Command line: ``python -m workbench run|list`` (also installed as ``workbench``).

Exit codes: 0 success, 1 a notebook failed, 2 bad usage (nothing was run), 130 interrupted.
"""

from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import Sequence
from pathlib import Path

from workbench import runner

__all__ = ["build_parser", "main"]


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {value}")
    return value


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of ``python -m workbench``."""
    parser = argparse.ArgumentParser(
        prog="python -m workbench",
        description="Run the workbench notebooks with papermill and collect their results.",
    )
    sub = parser.add_subparsers(dest="command", required=True)

    run = sub.add_parser(
        "run",
        help="execute notebooks",
        description=(
            "Execute notebooks (all of them, in order, when none is named). Each writes "
            "<out>/<notebook>/ with the executed notebook, records.json, tables/, figures/ "
            "and manifest.json."
        ),
    )
    run.add_argument(
        "notebooks",
        nargs="*",
        metavar="NOTEBOOK",
        help="name (00_tour), short name (tour), number (00) or path of a notebook",
    )
    run.add_argument(
        "-p",
        "--param",
        action="append",
        default=[],
        metavar="[NOTEBOOK:]NAME=VALUE",
        help="override a parameter (Python literal, else a string); repeatable",
    )
    run.add_argument(
        "--size", choices=runner.SIZES, default="full", help="data size (default: full)"
    )
    run.add_argument("--out", default="results", help="results folder (default: results/)")
    run.add_argument("--force", action="store_true", help="re-run notebooks that are up to date")
    run.add_argument("--notebooks-dir", default=None, help="folder with the notebooks")
    run.add_argument("--no-progress", action="store_true", help="hide progress bars")
    run.add_argument(
        "-j",
        "--jobs",
        type=_positive_int,
        default=1,
        help="notebooks executed at the same time, each in its own process (default: 1)",
    )

    lst = sub.add_parser("list", help="list notebooks, their parameters and result status")
    lst.add_argument("--out", default="results", help="results folder (default: results/)")
    lst.add_argument("--notebooks-dir", default=None, help="folder with the notebooks")
    return parser


def _list(args: argparse.Namespace) -> int:
    notebooks = runner.list_notebooks(args.notebooks_dir)
    if not notebooks:
        print("no notebooks found", file=sys.stderr)
        return 2
    out = Path(args.out)
    for path in notebooks:
        try:
            params = runner.notebook_parameters(path)
            shown = ", ".join(f"{k}={v!r}" for k, v in params.items())
        except runner.RunnerUsageError as exc:
            shown = f"INVALID: {exc}"
        if (out / path.stem / runner.MANIFEST).exists():
            status = "complete"
        elif (out / f"{path.stem}.failed").exists():
            status = "failed"
        else:
            status = "not run"
        print(f"{path.stem:<24} [{status}]  {shown}")
    return 0


def _run(args: argparse.Namespace) -> int:
    params: dict[str, object] = {}
    for text in args.param:
        notebook, name, value = runner.parse_parameter(text)
        params[f"{notebook}:{name}" if notebook else name] = value
    report = runner.run_notebooks(
        args.notebooks or None,
        parameters=params,
        size=args.size,
        out=args.out,
        force=args.force,
        notebooks_dir=args.notebooks_dir,
        progress=False if args.no_progress else None,
        jobs=args.jobs,
    )
    print(report.summary_table())
    for r in report.failed:
        assert r.failure is not None
        print(f"\nFAILED {r.name} — {r.failure.describe()}", file=sys.stderr)
        print(f"  executed copy kept in {r.output_dir}", file=sys.stderr)
    return report.exit_code


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point; returns the exit code."""
    args = build_parser().parse_args(argv)
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    try:
        if args.command == "list":
            return _list(args)
        return _run(args)
    except runner.RunnerUsageError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
