"""The data a study runs on: the bundled data, or a user's corpus, rating sets, vectors, lexicons
and parallel texts -- the same fields in every study.

Every notebook declares the data parameters it uses (``CORPUS``, ``CORPUS_FORMAT``, ``LANGUAGE``,
``WORDSIM``, ``WORDSIM_SPLIT``, and where relevant ``PRETRAINED``, ``LEXICONS``, ``PARALLEL``);
empty values mean the bundled data, so a run without them is the run of the bundled data. A
study's ``settings(size, **data)`` takes the same fields as keyword arguments and keeps them as a
:class:`DataChoice` (``settings.data``), which

* validates them before anything is read (the runner calls :func:`check_data_parameters` before
  any notebook runs): a missing or empty file, a folder without text, an unknown format or
  language is an error naming the parameter, the value and what to fix;
* says which side views (treebank, bitext, bundled lexicons) match the corpus language
  (:meth:`DataChoice.side_views`) -- the bundled side data is English, so a Spanish corpus gets
  none of them, and the note the notebook prints says which were used;
* lists the user's files (:meth:`DataChoice.user_files`) for the run's provenance manifest;
* describes itself for the Discussion (:meth:`DataChoice.describe`), so the text names the data
  it ran on, read from the settings, never typed.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from workbench._validation import check_choice
from workbench.datasets import CORPUS_FORMATS, WORDSIM_NAMES

__all__ = [
    "BUNDLED_LANGUAGE",
    "CORPUS_FORMATS",
    "DATA_PARAMETERS",
    "LANGUAGES",
    "WORDSIM_SPLITS",
    "DataChoice",
    "check_data_parameters",
    "data_markdown",
    "rating_set_labels",
    "split_overrides",
]

#: Language of the bundled corpora, treebank, bitext source side and lexicons.
BUNDLED_LANGUAGE = "en"
#: Languages a corpus may be declared in (ISO 639-1); side views exist only for English.
LANGUAGES = ("en", "es", "de", "fr", "it", "pt", "nl", "other")
#: ``"halves"``: tune on the dev half of each rating set and score its test half once;
#: ``"all"``: score every pair (no tuning on the set).
WORDSIM_SPLITS = ("halves", "all")
#: Notebook parameter -> field of :class:`DataChoice`.
DATA_PARAMETERS: dict[str, str] = {
    "CORPUS": "corpus",
    "CORPUS_FORMAT": "corpus_format",
    "LANGUAGE": "language",
    "WORDSIM": "wordsim",
    "WORDSIM_SPLIT": "wordsim_split",
    "PRETRAINED": "pretrained",
    "LEXICONS": "lexicons",
    "PARALLEL": "parallel",
}


def _path(value: Any, name: str) -> Path:
    if not isinstance(value, (str, os.PathLike)) or not str(value):
        raise TypeError(f"{name} must be a path (a non-empty string), got {value!r}")
    path = Path(value).expanduser()
    if not path.exists():
        raise FileNotFoundError(f"{name}={str(value)!r}: no such file or folder ({path.resolve()})")
    if path.is_file() and path.stat().st_size == 0:
        raise ValueError(f"{name}={str(value)!r}: the file is empty")
    return path


def _strings(value: Any, name: str) -> tuple[str, ...]:
    if value is None or value == "":
        return ()
    if isinstance(value, (str, os.PathLike)):
        return (str(value),)
    if not isinstance(value, Sequence) or not all(isinstance(v, (str, os.PathLike)) for v in value):
        raise TypeError(f"{name} must be a list of names or paths, got {value!r}")
    return tuple(str(v) for v in value)


@dataclass(frozen=True)
class DataChoice:
    """The data of one study run (every field empty: the bundled data).

    Parameters
    ----------
    corpus : str
        ``""`` (the bundled corpus of the size), a bundled name (``"1M"``, ``"5M"``) or the
        path of a text file, ``.gz`` file or folder of such files.
    corpus_format : {"marked", "line-docs", "line-sentences", "folder"}
        How the corpus file is read (:func:`workbench.datasets.load_corpus`).
    language : str
        The corpus language (:data:`LANGUAGES`); side views are added only for English.
    wordsim : tuple of str
        Rating sets: bundled names (:data:`workbench.datasets.WORDSIM_NAMES`) and/or paths; ``()``
        is the study's default list.
    wordsim_split : {"halves", "all"}
        :data:`WORDSIM_SPLITS`.
    pretrained : tuple of str
        Paths of word vectors (word2vec text/binary, GloVe text), labelled by file name.
    lexicons : tuple of (name, path)
        A user's lexicons (``word nbr1 nbr2 …`` per line) under the user's names.
    parallel : tuple of str
        Two aligned line files (source, target) or one folder of ``<stem>.<lang>`` pairs;
        ``()``: the bundled Bibles.
    """

    corpus: str = ""
    corpus_format: str = "marked"
    language: str = BUNDLED_LANGUAGE
    wordsim: tuple[str, ...] = ()
    wordsim_split: str = "halves"
    pretrained: tuple[str, ...] = ()
    lexicons: tuple[tuple[str, str], ...] = ()
    parallel: tuple[str, ...] = field(default=())

    def __post_init__(self) -> None:
        if not isinstance(self.corpus, (str, os.PathLike)):
            raise TypeError(
                f"CORPUS must be a path or '' (the bundled corpus), got {self.corpus!r}"
            )
        object.__setattr__(self, "corpus", str(self.corpus))
        check_choice(self.corpus_format, "CORPUS_FORMAT", CORPUS_FORMATS)
        check_choice(self.language, "LANGUAGE", LANGUAGES)
        check_choice(self.wordsim_split, "WORDSIM_SPLIT", WORDSIM_SPLITS)
        object.__setattr__(self, "wordsim", _strings(self.wordsim, "WORDSIM"))
        object.__setattr__(self, "pretrained", _strings(self.pretrained, "PRETRAINED"))
        object.__setattr__(self, "parallel", _strings(self.parallel, "PARALLEL"))
        lex = self.lexicons
        if isinstance(lex, Mapping):
            lex = tuple(lex.items())
        if not isinstance(lex, (tuple, list)) or not all(
            isinstance(p, (tuple, list)) and len(p) == 2 and all(isinstance(x, str) for x in p)
            for p in lex
        ):
            raise TypeError(f"LEXICONS must map names to paths, got {self.lexicons!r}")
        object.__setattr__(self, "lexicons", tuple((str(k), str(v)) for k, v in lex))
        if self.parallel and len(self.parallel) not in (1, 2):
            raise ValueError(
                "PARALLEL must be two aligned files [source, target] or one folder of pairs, "
                f"got {len(self.parallel)} paths"
            )
        if not self.corpus and self.corpus_format != "marked":
            raise ValueError(
                f"CORPUS_FORMAT={self.corpus_format!r} needs a CORPUS path (the bundled corpora "
                "are in the 'marked' format)"
            )
        if not self.corpus and self.language != BUNDLED_LANGUAGE:
            raise ValueError(
                f"LANGUAGE={self.language!r} needs a CORPUS path (the bundled corpora are English)"
            )

    @classmethod
    def from_parameters(cls, **parameters: Any) -> DataChoice:
        """From notebook parameters (``CORPUS=…``, ``WORDSIM=[…]``, …); unknown names raise."""
        unknown = sorted(set(parameters) - set(DATA_PARAMETERS))
        if unknown:
            raise TypeError(
                f"unknown data parameters {unknown}; known: {', '.join(DATA_PARAMETERS)}"
            )
        return cls(**{DATA_PARAMETERS[k]: v for k, v in parameters.items()})

    @property
    def bundled_corpus(self) -> bool:
        """True when the corpus is a bundled one (``""`` or a bundled name)."""
        return self.corpus in ("", "1M", "5M", "25M")

    def corpus_or(self, default: str) -> str:
        """The corpus to load: the user's, or ``default`` (the size's bundled corpus)."""
        return self.corpus or default

    def wordsim_or(self, default: Sequence[str]) -> tuple[str, ...]:
        """The rating sets to score: the user's, or ``default`` (the study's list)."""
        return self.wordsim or tuple(default)

    def side_views(self) -> bool:
        """Rule: the bundled side data (treebank, bitext source side, bundled lexicons) is
        English, so side views are used only when the corpus language is English."""
        return self.language == BUNDLED_LANGUAGE

    def user_files(self) -> list[Path]:
        """Every user file or folder named (not the bundled names), for the provenance manifest."""
        out: list[Path] = []
        if self.corpus and not self.bundled_corpus:
            out.append(Path(self.corpus).expanduser())
        out += [Path(w).expanduser() for w in self.wordsim if w not in WORDSIM_NAMES]
        out += [Path(p).expanduser() for p in self.pretrained]
        out += [Path(p).expanduser() for _, p in self.lexicons]
        out += [Path(p).expanduser() for p in self.parallel]
        return out

    def check_files(self) -> None:
        """Every user path exists and no file is empty (errors name the parameter and path)."""
        if self.corpus and not self.bundled_corpus:
            _path(self.corpus, "CORPUS")
        for w in self.wordsim:
            if w not in WORDSIM_NAMES:
                _path(w, "WORDSIM")
        for p in self.pretrained:
            _path(p, "PRETRAINED")
        for name, p in self.lexicons:
            _path(p, f"LEXICONS[{name!r}]")
        for p in self.parallel:
            _path(p, "PARALLEL")

    def describe(self) -> dict[str, Any]:
        """The data as plain values for records and the Discussion: the corpus (``"bundled"`` or
        the file name) and its format and language, the rating sets (bundled names, the user's by
        file name), the split, the user's vectors, lexicons and parallel files by name -- never a
        full path, so records do not depend on where the files are."""
        return {
            "corpus": "bundled" if not self.corpus else Path(self.corpus).name or self.corpus,
            "corpus_format": self.corpus_format,
            "language": self.language,
            "wordsim": [w if w in WORDSIM_NAMES else Path(w).name for w in self.wordsim]
            or "default",
            "wordsim_split": self.wordsim_split,
            "pretrained": [Path(p).name for p in self.pretrained],
            "lexicons": [name for name, _ in self.lexicons],
            "parallel": [Path(p).name for p in self.parallel],
            "side_views": self.side_views(),
        }


def split_overrides(
    overrides: Mapping[str, Any],
    own: Iterable[str],
    *,
    used: Sequence[str] | None = None,
    study: str = "",
) -> tuple[dict[str, Any], dict[str, Any]]:
    """The data fields (:class:`DataChoice`) and the study's own settings of ``overrides``.

    A name that is neither raises ``TypeError`` naming the allowed ones (``used`` as the data
    fields when given, else every data field). With ``used``, a data field outside it that has
    a value raises ``ValueError`` saying that ``study`` does not use it.
    """
    data_fields = set(DATA_PARAMETERS.values())
    own = set(own)
    unknown = sorted(set(overrides) - data_fields - own)
    if unknown:
        allowed = ", ".join(used) if used is not None else ", ".join(sorted(data_fields))
        raise TypeError(
            f"unknown settings {unknown}; data fields: {allowed}; "
            f"settings: {', '.join(sorted(own))}"
        )
    if used is not None:
        unused = sorted(k for k, v in overrides.items() if k in data_fields and k not in used and v)
        if unused:
            raise ValueError(
                f"{study} do not use the data fields {unused}; they take {', '.join(used)}"
            )
    data = {k: v for k, v in overrides.items() if k in data_fields}
    return data, {k: v for k, v in overrides.items() if k not in data_fields}


def rating_set_labels(sources: Iterable[str]) -> dict[str, str]:
    """Label -> source of rating sets named by bundled name or by path, in order: a bundled set
    keeps its name, a file is labelled by its name up to the first dot (``my_sim.tsv`` ->
    ``my_sim``); a label already taken gets the source in parentheses.

    Examples
    --------
    >>> rating_set_labels(["MEN", "data/MEN.csv", "x/my_sim.tsv"])
    {'MEN': 'MEN', 'MEN (data/MEN.csv)': 'data/MEN.csv', 'my_sim': 'x/my_sim.tsv'}
    """
    sets: dict[str, str] = {}
    for source in sources:
        label = source if source in WORDSIM_NAMES else (Path(source).name.split(".")[0] or source)
        sets[label if label not in sets else f"{label} ({source})"] = source
    return sets


def data_markdown(data: DataChoice) -> str:
    """One Markdown line saying which data a notebook reads (for its output, not its records):
    the corpus with its format and language, the rating sets, and any vectors, lexicons or
    parallel files named -- by file name, as :meth:`DataChoice.describe` gives them."""
    d = data.describe()
    corpus = (
        "the bundled Gutenberg corpus"
        if data.bundled_corpus
        else f"`{d['corpus']}` ({d['corpus_format']}, language {d['language']})"
    )
    parts = [f"**Data:** {corpus}"]
    sets = d["wordsim"]
    parts.append(
        "rating sets: the bundled ones" if sets == "default" else "rating sets: " + ", ".join(sets)
    )
    for key, label in (
        ("pretrained", "vectors"),
        ("lexicons", "lexicons"),
        ("parallel", "parallel"),
    ):
        if d[key]:
            parts.append(f"{label}: " + ", ".join(d[key]))
    if not d["side_views"]:
        parts.append("no side views (the bundled side data is English)")
    return "; ".join(parts) + "."


def check_data_parameters(parameters: Mapping[str, Any]) -> DataChoice | None:
    """The :class:`DataChoice` of a notebook's effective parameters, with every user path checked
    (None when the notebook declares no data parameter). The runner calls it before any notebook
    runs, so a bad path is a usage error, not a failure in the middle of a batch."""
    given = {k: v for k, v in parameters.items() if k in DATA_PARAMETERS}
    if not given:
        return None
    choice = DataChoice.from_parameters(**given)
    choice.check_files()
    return choice
