"""``workbench run --corpus … --wordsim …``: shortcuts for the data parameters of the notebooks.

Each option sets one parameter of :mod:`workbench.studies.data` in every selected notebook that
declares it; an option that no selected notebook declares is a usage error naming it. Paths are
made absolute (the kernels run in the notebooks folder).
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from workbench import runner
from workbench.datasets import CORPUS_FORMATS, WORDSIM_NAMES
from workbench.studies.data import LANGUAGES, WORDSIM_SPLITS

__all__ = ["SHORTCUTS", "add_data_options", "data_parameters", "expand_wordsim"]

#: option dest -> notebook parameter
SHORTCUTS: dict[str, str] = {
    "corpus": "CORPUS",
    "corpus_format": "CORPUS_FORMAT",
    "language": "LANGUAGE",
    "wordsim": "WORDSIM",
    "wordsim_split": "WORDSIM_SPLIT",
    "pretrained": "PRETRAINED",
    "lexicon": "LEXICONS",
    "parallel": "PARALLEL",
}


def add_data_options(parser: argparse.ArgumentParser) -> None:
    """The data options of ``workbench run`` (shortcuts for the data parameters)."""
    g = parser.add_argument_group(
        "your own data",
        "shortcuts for the data parameters, applied to every selected notebook that declares "
        "them (see README, 'Your own data')",
    )
    g.add_argument("--corpus", metavar="PATH", help="CORPUS: a text file, .gz file or folder")
    g.add_argument("--corpus-format", choices=CORPUS_FORMATS, help="CORPUS_FORMAT")
    g.add_argument("--language", choices=LANGUAGES, help="LANGUAGE of the corpus")
    g.add_argument("--wordsim", action="append", metavar="NAME|PATH",
                   help="WORDSIM: a bundled rating set (MEN, SIMLEX, ...; 'all' for every "
                        "one) or a rating file; repeatable")  # fmt: skip
    g.add_argument("--wordsim-split", choices=WORDSIM_SPLITS, help="WORDSIM_SPLIT")
    g.add_argument("--pretrained", action="append", metavar="PATH",
                   help="PRETRAINED: word vectors (word2vec text/binary, GloVe text); "
                        "repeatable")  # fmt: skip
    g.add_argument("--lexicon", action="append", metavar="NAME=PATH",
                   help="LEXICONS: a lexicon file under a name; repeatable")  # fmt: skip
    g.add_argument("--parallel", action="append", metavar="PATH",
                   help="PARALLEL: the source then the target file, or one folder of pairs; "
                        "repeatable")  # fmt: skip


def _absolute(path: str) -> str:
    return str(Path(path).expanduser().resolve())


def expand_wordsim(values: Sequence[str]) -> list[str]:
    """Rating sets: ``"all"`` expands to every bundled set, bundled names are spelled as
    bundled (``men`` -> ``MEN``), anything else is a path made absolute; no duplicates."""
    canonical = {n.upper(): n for n in WORDSIM_NAMES}
    out: list[str] = []
    for v in values:
        if v.lower() == "all":
            items = list(WORDSIM_NAMES)
        elif v.upper() in canonical:
            items = [canonical[v.upper()]]
        else:
            items = [_absolute(v)]
        out += [i for i in items if i not in out]
    return out


def _lexicons(values: Sequence[str]) -> dict[str, str]:
    out: dict[str, str] = {}
    for text in values:
        name, sep, path = text.partition("=")
        if not sep or not name.strip() or not path.strip():
            raise runner.RunnerUsageError(
                f"--lexicon {text!r}: expected NAME=PATH (e.g. --lexicon SYN=synonyms.txt)"
            )
        if name.strip() in out:
            raise runner.RunnerUsageError(f"--lexicon: the name {name.strip()!r} is given twice")
        out[name.strip()] = _absolute(path.strip())
    return out


def _values(args: argparse.Namespace) -> dict[str, Any]:
    """Parameter -> value of the shortcuts given."""
    out: dict[str, Any] = {}
    if args.corpus is not None:
        out["CORPUS"] = _absolute(args.corpus) if args.corpus else ""
    for dest in ("corpus_format", "language", "wordsim_split"):
        if getattr(args, dest) is not None:
            out[SHORTCUTS[dest]] = getattr(args, dest)
    if args.wordsim:
        out["WORDSIM"] = expand_wordsim(args.wordsim)
    if args.pretrained:
        out["PRETRAINED"] = [_absolute(p) for p in args.pretrained]
    if args.lexicon:
        out["LEXICONS"] = _lexicons(args.lexicon)
    if args.parallel:
        out["PARALLEL"] = [_absolute(p) for p in args.parallel]
    return out


def _option(parameter: str) -> str:
    dest = next(d for d, p in SHORTCUTS.items() if p == parameter)
    return "--" + dest.replace("_", "-")


def data_parameters(
    args: argparse.Namespace,
    given: dict[str, Any],
    notebooks: Sequence[str | os.PathLike[str]] | None,
    notebooks_dir: str | os.PathLike[str] | None,
) -> dict[str, Any]:
    """The ``notebook:PARAMETER`` overrides of the shortcuts in ``args`` for the selected
    notebooks that declare each parameter.

    Raises
    ------
    RunnerUsageError
        A shortcut that no selected notebook declares, or one also given as ``-p``.
    """
    values = _values(args)
    if not values:
        return {}
    paths = runner.resolve_notebooks(notebooks, notebooks_dir)
    declared = {p: runner.notebook_parameters(p) for p in paths}
    out: dict[str, Any] = {}
    for name, value in values.items():
        clash = [k for k in given if k == name or k.endswith(f":{name}")]
        if clash:
            raise runner.RunnerUsageError(
                f"{_option(name)} and -p {clash[0]}=… both set {name}; give one of them"
            )
        targets = [p for p in paths if name in declared[p]]
        if not targets:
            raise runner.RunnerUsageError(
                f"{_option(name)}: no selected notebook declares the parameter {name} "
                f"(selected: {', '.join(p.stem for p in paths)})"
            )
        for p in targets:  # the notebook's path: it names the notebook wherever it is
            out[f"{p}:{name}"] = value
    return out
