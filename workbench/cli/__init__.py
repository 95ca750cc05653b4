"""Command line: ``python -m workbench run|list|cache|report|embed|evaluate`` (also installed as
``workbench``).

``run`` executes notebooks (:mod:`workbench.runner`; ``--corpus``, ``--wordsim``, ... are
shortcuts for the data parameters, :mod:`workbench.cli._shortcuts`); ``embed`` trains word vectors
on a corpus (:mod:`workbench.cli._embed`); ``evaluate`` scores vectors files on rating sets with
confidence intervals, MRDS and pairwise tests (:mod:`workbench.cli._evaluate`); ``report`` writes
an offline HTML site of a results folder (:mod:`workbench.report`).

Exit codes: 0 success, 1 a notebook failed, 2 bad usage (nothing was run), 130 interrupted.
"""

from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from workbench import _io, runner
from workbench._cache_clear import clear_cache
from workbench.cli._embed import EmbedOptions, embed
from workbench.cli._evaluate import evaluate, write_outputs
from workbench.cli._names import METHODS, TESTS
from workbench.cli._shortcuts import add_data_options, data_parameters
from workbench.datasets import CORPUS_FORMATS
from workbench.report import ReportError, write_site
from workbench.studies.data import LANGUAGES

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
        help="override a parameter (a Python literal: str, int, float, bool, None, or a "
        "list / dict of them; anything else is taken as a string); repeatable",
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
        help="notebooks executed at the same time, each in its own process (default: 1; at "
        "most the number of notebooks to run and of cores)",
    )
    add_data_options(run)

    lst = sub.add_parser("list", help="list notebooks, their parameters and result status")
    lst.add_argument("--out", default="results", help="results folder (default: results/)")
    lst.add_argument("--notebooks-dir", default=None, help="folder with the notebooks")

    cache = sub.add_parser(
        "cache",
        help="list, verify or clear the on-disk cache",
        description=(
            "The verified cache under WORKBENCH_CACHE (default ~/.cache/workbench): built views, "
            "trained baselines, tuned settings, multi-sense models and the extracted WordNet."
        ),
    )
    cache.add_argument("action", choices=("list", "verify", "clear"))
    cache.add_argument("--namespace", default=None, help="only this namespace (e.g. views)")
    cache.add_argument("--yes", action="store_true", help="clear without asking")

    rep = sub.add_parser(
        "report",
        help="write a static, offline HTML site of a results folder",
        description=(
            "Write <results>/site/: an index of every notebook with a complete result (its "
            "question, key findings, claims and figures) and each executed notebook as HTML."
        ),
    )
    rep.add_argument("results", nargs="?", default="results",
                     help="results folder (default: results/)")  # fmt: skip
    _embed_parser(sub)
    _evaluate_parser(sub)
    return parser


def _embed_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    emb = sub.add_parser(
        "embed",
        help="train word vectors on a corpus",
        description="Train word vectors on a corpus with the workbench's own code and write them "
        "as word2vec binary (.bin) or text (.txt, .vec), readable by gensim's "
        "KeyedVectors.load_word2vec_format.",
    )
    emb.add_argument("--corpus", required=True, metavar="PATH",
                     help="a text file, a .gz file or a folder of .txt files")  # fmt: skip
    emb.add_argument("--corpus-format", choices=CORPUS_FORMATS, default="marked",
                     help="how the corpus is cut into documents (default: marked)")  # fmt: skip
    emb.add_argument("--language", choices=LANGUAGES, default="en",
                     help="the corpus language (default: en)")  # fmt: skip
    emb.add_argument("--method", required=True, metavar="|".join(METHODS),
                     help="mvlsa (positional views + GCCA), ppmi-svd, sgns (skip-gram) or glove")  # fmt: skip
    emb.add_argument("--dim", type=_positive_int, default=300, help="dimensions (default: 300)")
    emb.add_argument("--vocab-size", type=_positive_int, default=50_000,
                     help="keep the most frequent words (default: 50000)")  # fmt: skip
    emb.add_argument("--min-count", type=_positive_int, default=1,
                     help="least corpus count of a word (default: 1)")  # fmt: skip
    emb.add_argument("--window", type=_positive_int, default=5,
                     help="context window half-width / offsets 1..window (default: 5)")  # fmt: skip
    emb.add_argument("--epochs", type=_positive_int, default=None,
                     help="sgns and glove: passes over the data (default: 5 / 25)")  # fmt: skip
    emb.add_argument("--seed", type=int, default=0, help="random seed (default: 0)")
    emb.add_argument("--out", required=True, metavar="vectors.bin|vectors.txt",
                     help="output file (.bin: word2vec binary; .txt/.vec: word2vec text)")  # fmt: skip
    emb.add_argument("--no-progress", action="store_true", help="hide the progress bar")


def _evaluate_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    ev = sub.add_parser(
        "evaluate",
        help="score word vectors on rating sets, with CIs, MRDS and pairwise tests",
        description="Score vectors files (word2vec text/binary, GloVe text) on word-similarity "
        "rating sets: Spearman with a 95%% bootstrap CI, the MRDS of each set and the "
        "dependent-correlation test between every two systems (Holm over all of them).",
    )
    ev.add_argument("vectors", nargs="+", metavar="VECTORS", help="vectors files")
    ev.add_argument("--wordsim", action="append", metavar="NAME|PATH",
                    help="a bundled rating set (MEN, SIMLEX, ...), 'all' (every bundled set) or "
                         "a rating file; repeatable (default: all)")  # fmt: skip
    ev.add_argument("--test", choices=TESTS, default="williams1959",
                    help="dependent-correlation test (default: williams1959)")  # fmt: skip
    ev.add_argument("--csv", metavar="FILE",
                    help="write the scores as CSV (the tests to <FILE stem>.tests.csv)")  # fmt: skip
    ev.add_argument("--json", metavar="FILE", help="write scores and tests as JSON")


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
        # "complete" only when every file matches the manifest's sizes and hashes
        status = runner.result_status(out.resolve(), path.stem)
        print(f"{path.stem:<24} [{status}]  {shown}")
    return 0


def _cache(args: argparse.Namespace) -> int:
    try:
        root = _io.cache_root()
        if args.namespace is not None:
            _io.Cache(args.namespace)  # refuses '../x', '/etc', '.hidden' with a clear message
    except (OSError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.action == "clear":
        return _clear(root, args)
    caches = [c for c in _io.iter_entries(root) if args.namespace in (None, c.namespace)]
    trees = list(_io.iter_trees(root))
    if args.namespace is not None and not caches:
        print(f"error: no cache namespace {args.namespace!r} under {root}", file=sys.stderr)
        return 2
    bad = 0
    print(f"cache root: {root}")
    for c in caches:
        statuses = c.check() if args.action == "verify" else _listed(c)
        for st in statuses:
            mark = "ok" if st.ok else f"INVALID: {st.problem}"
            bad += not st.ok
            print(f"{c.namespace:<28} {st.key}  {st.size / 1e6:9.1f} MB  {st.created:<24} {mark}")
        if args.action == "verify":
            for orphan in c.orphans():
                print(f"{c.namespace:<28} {orphan.name}  (no manifest names it)")
    for folder in trees if args.namespace is None else []:
        problem = _io.verify_tree(folder) if args.action == "verify" else ""
        bad += bool(problem)
        print(f"{folder.relative_to(root).as_posix():<28} (extracted folder)  "
              f"{'INVALID: ' + problem if problem else 'ok'}")  # fmt: skip
    if args.action == "verify":
        print(f"{bad} invalid entr{'y' if bad == 1 else 'ies'}" + (
            " (rebuilt automatically on next use)" if bad else ""))  # fmt: skip
    return 1 if bad else 0


def _clear(root: Path, args: argparse.Namespace) -> int:
    """``cache clear``: only what the cache wrote (see :mod:`workbench._cache_clear`)."""
    try:
        plan = clear_cache(root, namespace=args.namespace, dry_run=True)
    except ValueError as exc:  # NotACacheError, unknown namespace
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if not plan.removed:
        for path in plan.left:
            print(f"left {path} (not written by the cache)")
        print(f"nothing to clear under {root}")
        return 0
    if not args.yes:
        if not sys.stdin.isatty():
            print("error: clear removes cached data; pass --yes to confirm", file=sys.stderr)
            return 2
        answer = input(f"remove {len(plan.removed)} cache file(s) under {root}? [y/N] ")
        if answer.strip().lower() not in ("y", "yes"):
            print("nothing removed")
            return 0
    report = clear_cache(root, namespace=args.namespace)
    for path in report.left:
        print(f"left {path} (not written by the cache)")
    for path, error in report.failed:
        print(f"error: cannot remove {path}: {error}", file=sys.stderr)
    print(f"removed {len(report.removed)} cache item(s) under {root}"
          + (f"; {len(report.failed)} could not be removed" if report.failed else ""))  # fmt: skip
    return 1 if report.failed else 0


def _listed(cache: _io.Cache) -> list[_io.EntryStatus]:
    """Entries of ``cache`` from their manifests only (no hashing; special files not read)."""
    return cache.entries()


def _estimate_printer() -> Callable[[runner.TimeEstimate], None]:
    """Print each estimate of the time left; "time left unknown" only once (a folder without
    earlier times stays unknown until the run ends)."""
    told_unknown = False

    def show(estimate: runner.TimeEstimate) -> None:
        nonlocal told_unknown
        if estimate.seconds == 0 and estimate.unknown:
            if told_unknown:
                return
            told_unknown = True
        print(f"    {estimate.describe()}", flush=True)

    return show


def _run(args: argparse.Namespace) -> int:
    params: dict[str, object] = {}
    for text in args.param:
        notebook, name, value = runner.parse_parameter(text)
        params[f"{notebook}:{name}" if notebook else name] = value
    params.update(data_parameters(args, params, args.notebooks or None, args.notebooks_dir))
    report = runner.run_notebooks(
        args.notebooks or None,
        parameters=params,
        size=args.size,
        out=args.out,
        force=args.force,
        notebooks_dir=args.notebooks_dir,
        progress=False if args.no_progress else None,
        jobs=args.jobs,
        # one line per notebook as it finishes (overall progress), then the summary table
        on_result=lambda result, i, n: print(runner.progress_line(result, i, n), flush=True),
        # the time left, from the last run's times in the same folder
        on_estimate=_estimate_printer(),
    )
    print()
    print(report.summary_table())
    for r in report.failed:
        assert r.failure is not None
        print(f"\nFAILED {r.name} — {r.failure.describe()}", file=sys.stderr)
        if r.failure.stage != "publishing":
            print(f"  executed copy kept in {r.output_dir}", file=sys.stderr)
    for problem in report.problems:
        print(f"error: {problem}", file=sys.stderr)
    return report.exit_code


def _report(args: argparse.Namespace) -> int:
    try:
        site = write_site(args.results)
    except ReportError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    for name, status in site.left_out.items():
        print(f"not shown: {name} ({status})", file=sys.stderr)
    print(site.index)
    return 0


def _embed_command(args: argparse.Namespace) -> int:
    opts = EmbedOptions(
        corpus=args.corpus, out=args.out, method=args.method, dim=args.dim,
        corpus_format=args.corpus_format, language=args.language, vocab_size=args.vocab_size,
        min_count=args.min_count, window=args.window, epochs=args.epochs, seed=args.seed,
    )  # fmt: skip
    path, vectors = embed(opts, progress=False if args.no_progress else None)
    n, d = vectors.vectors.shape
    print(f"wrote {n} x {d} {args.method} vectors to {path}")
    return 0


def _evaluate_command(args: argparse.Namespace) -> int:
    ev = evaluate(args.vectors, args.wordsim or ["all"], test=args.test)
    print(ev.table())
    for path in write_outputs(ev, args.csv, args.json):
        print(f"wrote {path}")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point; returns the exit code."""
    args = build_parser().parse_args(argv)
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    try:
        if args.command == "list":
            return _list(args)
        if args.command == "cache":
            return _cache(args)
        if args.command == "report":
            return _report(args)
        if args.command == "embed":
            return _embed_command(args)
        if args.command == "evaluate":
            return _evaluate_command(args)
        return _run(args)
    except runner.RunnerUsageError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except (OSError, ValueError) as exc:
        if args.command not in ("embed", "evaluate"):
            raise
        # bad input (EmbedUsageError, EvaluateUsageError are ValueErrors) or found while
        # reading (a folder without text, a malformed file, ...)
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
