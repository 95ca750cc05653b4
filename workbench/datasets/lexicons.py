"""Prior-knowledge lexicons (PPDB, FrameNet) and the WordNet 3.0 reader."""

from __future__ import annotations

import fcntl
import gzip
import io
import logging
import os
import shutil
import tarfile
import tempfile
import threading
import warnings
import zlib
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

import nltk.data
from nltk.corpus.reader import WordNetCorpusReader

from workbench._io import CacheWarning, dir_mode, replace_dir, verify_tree, write_tree_manifest

from ._common import (
    bundled,
    cache_dir,
    check_name_or_path,
    fail,
    file_sha256,
    iter_lines,
    resolve_file,
    resolve_name_or_path,
)

logger = logging.getLogger(__name__)

__all__ = [
    "LEXICON_NAMES",
    "load_lexicon",
    "load_lexicons",
    "symmetrize",
    "load_framenet_frames",
    "load_wordnet",
]

LEXICON_NAMES: dict[str, str] = {
    "ppdb": "lexicons/retrofitting/ppdb-xl.txt",
    "framenet": "lexicons/retrofitting/framenet.txt",
}
WORDNET_FILE = "lexicons/wordnet-3.0.tar.gz"


def _lexicon_path(name_or_path: str | os.PathLike[str], names: dict[str, str]) -> Path:
    name, user = resolve_name_or_path(name_or_path, "name_or_path", tuple(names), what="lexicon")
    if name is not None:
        return bundled(names[name])
    assert user is not None
    return resolve_file(user, name="name_or_path")


def load_lexicon(name_or_path: str | os.PathLike[str] = "ppdb") -> dict[str, set[str]]:
    """Load a lexicon graph as an adjacency dict ``word -> set of neighbours``.

    Parameters
    ----------
    name_or_path : {"ppdb", "framenet"} or path
        Bundled retrofitting lexicons of Faruqui et al. (2015): PPDB-XL (102,902 lines) and
        FrameNet (10,822 lines), or a user file of whitespace-separated lines
        ``word nbr1 nbr2 ...`` (plain or ``.gz``). A string with a ``/`` or a dot, or a
        ``pathlib.Path``, is a path; a bare name that is also a file in the current folder is
        refused (write ``./ppdb`` for the file).

    Returns
    -------
    dict
        As in the file (case kept, NOT symmetrised: see :func:`symmetrize`). A word appearing on
        several lines gets the union of its neighbours; a line with a single word gives an empty
        set; a word is never its own neighbour.

    Raises
    ------
    DataFormatError
        Empty file, undecodable bytes, truncated gzip, or a file whose first line is a word
        followed by numbers only (a word-vector file, not a lexicon).

    Examples
    --------
    The bundled PPDB-XL and FrameNet graphs by name, or a file of the same layout:

    >>> import tempfile
    >>> from pathlib import Path
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     path = Path(tmp) / "lexicon.txt"
    ...     _ = path.write_text("car auto automobile\\nauto car\\n")
    ...     lexicon = load_lexicon(path)
    >>> {word: sorted(nbrs) for word, nbrs in lexicon.items()}
    {'car': ['auto', 'automobile'], 'auto': ['car']}
    """
    path = _lexicon_path(name_or_path, LEXICON_NAMES)
    adj: dict[str, set[str]] = {}
    first = True
    for lineno, line in iter_lines(path):
        words = line.split()
        if not words:
            continue
        if first:
            first = False
            if _looks_like_vectors(words):
                raise fail(
                    path,
                    lineno,
                    f"a word followed by {len(words) - 1} numbers: this looks like a word-vector "
                    "file, not a lexicon ('word neighbour1 neighbour2 ...')",
                )
        head = words[0]
        nbrs = adj.setdefault(head, set())
        nbrs.update(words[1:])
        nbrs.discard(head)
    if not adj:
        raise fail(path, None, "no lexicon entries found")
    return adj


def load_lexicons(
    lexicons: Mapping[str, str | os.PathLike[str]],
) -> dict[str, dict[str, set[str]]]:
    """Load several lexicons under the user's names: ``{name: path or bundled name}``.

    Each value is read by :func:`load_lexicon`; the keys are kept as given (in order), so
    ``load_lexicons({"mine": "syn.txt", "ppdb": "ppdb"})`` gives ``{"mine": ..., "ppdb": ...}``.

    Raises
    ------
    TypeError
        ``lexicons`` is not a mapping, or a key is not a non-empty str.
    ValueError
        An empty mapping. Errors of :func:`load_lexicon` carry a note naming the lexicon's key.

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     path = Path(tmp) / "syn.txt"
    ...     _ = path.write_text("car auto\\n")
    ...     graphs = load_lexicons({"mine": path})
    >>> {name: sorted(graph) for name, graph in graphs.items()}
    {'mine': ['car']}
    """
    if not isinstance(lexicons, Mapping):
        raise TypeError(
            "lexicons must be a mapping {name: path or bundled name}, e.g. {'mine': 'syn.txt'}; "
            f"got {type(lexicons).__name__}"
        )
    if not lexicons:
        raise ValueError("lexicons is empty: give at least one {name: path}")
    out: dict[str, dict[str, set[str]]] = {}
    for key, source in lexicons.items():
        if not isinstance(key, str) or not key.strip():
            raise TypeError(f"lexicon names must be non-empty str; got {key!r}")
        try:
            out[key] = load_lexicon(source)
        except (OSError, ValueError, TypeError) as exc:
            exc.add_note(f"(while loading the lexicon {key!r} of lexicons)")
            raise
    return out


def _looks_like_vectors(words: list[str]) -> bool:
    """``word`` then >= 2 values that all parse as numbers and contain a ``.`` or an exponent."""
    if len(words) < 3:
        return False
    for w in words[1:]:
        if not any(c in w for c in ".eE"):
            return False
        try:
            float(w)
        except ValueError:
            return False
    return True


def symmetrize(adj: dict[str, set[str]]) -> dict[str, set[str]]:
    """Return a new adjacency dict with every edge in both directions (input not modified).

    Examples
    --------
    >>> adj = symmetrize({"car": {"auto", "automobile"}, "auto": {"car"}})
    >>> {word: sorted(nbrs) for word, nbrs in adj.items()}
    {'car': ['auto', 'automobile'], 'auto': ['car'], 'automobile': ['car']}
    """
    out: dict[str, set[str]] = {w: set(n) for w, n in adj.items()}
    for w, nbrs in adj.items():
        for n in nbrs:
            if n != w:
                out.setdefault(n, set()).add(w)
    return out


def load_framenet_frames(path: str | os.PathLike[str] | None = None) -> dict[str, set[str]]:
    """Frame -> set of lemmas, inverted from FrameNet lexical units.

    File format (``framenet-lu.txt`` of Faruqui & Dyer 2015): one lexical unit a line,
    ``lemma.pos FN_frame:Name [FN_frame:Other ...] FN_role:... ``. The ``.pos`` suffix is removed
    and underscores kept (``sit_down``); lemmas are lowercased.

    Examples
    --------
    >>> frames = load_framenet_frames()
    >>> len(frames)
    860
    >>> sorted(frames["Posture"])[:5]
    ['crouched', 'huddled', 'hunched', 'position', 'posture']
    """
    p = (
        bundled("lexicons/non-distributional/framenet-lu.txt")
        if path is None
        else resolve_file(path)
    )
    frames: dict[str, set[str]] = {}
    for lineno, line in iter_lines(p):
        fields = line.split()
        if not fields:
            continue
        lu = fields[0]
        lemma = lu.rsplit(".", 1)[0] if "." in lu else lu
        if not lemma:
            raise fail(p, lineno, f"lexical unit {lu!r} has an empty lemma")
        names = [f.split(":", 1)[1] for f in fields[1:] if f.startswith("FN_frame:")]
        if not names:
            raise fail(p, lineno, f"lexical unit {lu!r} has no FN_frame: field")
        for name in names:
            frames.setdefault(name, set()).add(lemma.lower())
    if not frames:
        raise fail(p, None, "no frames found")
    return frames


_wn_lock = threading.Lock()
_wn_readers: dict[str, WordNetCorpusReader] = {}


def _extract_once(archive: Path) -> Path:
    """Extract ``archive`` into the cache and return the WordNet folder.

    The archive goes to a temporary folder, gets a manifest of the size and SHA-256 of every
    file (:func:`workbench._io.write_tree_manifest`) and is then renamed into place, so an
    interrupted extraction is never used. A folder whose files no longer match its manifest
    (edited, truncated, deleted) is re-extracted with one :class:`~workbench._io.CacheWarning`.
    """
    digest = file_sha256(archive)
    target = cache_dir() / f"wordnet-{digest[:16]}"
    with _wn_extract_lock(target):
        if target.is_dir():
            problem = verify_tree(target, source=digest)
            if not problem:
                return _wordnet_folder(target, archive)
            msg = f"extracted WordNet {target} is invalid ({problem}); it is extracted again"
            warnings.warn(msg, CacheWarning, stacklevel=3)
            logger.warning(msg)
            shutil.rmtree(target, ignore_errors=True)
        tmp = Path(tempfile.mkdtemp(prefix=".wordnet-", dir=cache_dir()))
        try:
            with tarfile.open(archive, "r:gz") as tar:
                try:
                    tar.extractall(tmp, filter="data")
                except TypeError:  # pragma: no cover - Python without extraction filters
                    tar.extractall(tmp)  # noqa: S202
            write_tree_manifest(tmp, source=digest)
            os.chmod(tmp, dir_mode())
            replace_dir(tmp, target)
        except (tarfile.TarError, EOFError, zlib.error, gzip.BadGzipFile) as exc:
            raise fail(archive, 1, f"truncated or corrupt archive ({exc})") from exc
        finally:
            if tmp.exists():
                shutil.rmtree(tmp, ignore_errors=True)
    return _wordnet_folder(target, archive)


@contextmanager
def _wn_extract_lock(target: Path) -> Iterator[None]:
    with open(target.with_name(f".{target.name}.lock"), "a+b") as fh:
        fcntl.flock(fh.fileno(), fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fh.fileno(), fcntl.LOCK_UN)


def _wordnet_folder(target: Path, archive: Path) -> Path:
    for cand in [target, *sorted(p for p in target.iterdir() if p.is_dir())]:
        if (cand / "index.noun").is_file() and (cand / "data.noun").is_file():
            return cand
    raise fail(archive, 1, "archive contains no WordNet database (index.noun, data.noun)")


class _BundledWordNetReader(WordNetCorpusReader):
    """WordNet reader that does not look for nltk's downloaded ``wordnet`` corpus.

    ``WordNetCorpusReader.__init__`` builds a sense map to the downloaded WordNet (used only by
    the multilingual OMW functions, unavailable here) and fails without it.
    """

    def map_wn(self, version: str = "wordnet") -> None:  # type: ignore[override]
        return None

    def open(self, file: str):  # type: ignore[no-untyped-def]
        # nltk's SeekableUnicodeStreamReader makes reading the sequentially read files (index.*,
        # *.exc, lexnames) much slower than a plain text file. data.* files are accessed by
        # seek/tell (all_synsets), which nltk's stream does faster: leave them to nltk.
        root = getattr(self._root, "path", None)
        if (
            root
            and isinstance(self._encoding, str)
            and not file.startswith("data.")
            and not os.path.isabs(file)
            and ".." not in file
        ):
            return io.open(os.path.join(root, file), encoding=self._encoding)  # noqa: UP020
        return super().open(file)


def _allow_nltk_root(root: Path) -> None:
    """Recent nltk refuses corpus folders outside ``nltk.data.path``; register this one."""
    resolved = str(root.resolve())
    if resolved not in [str(p) for p in nltk.data.path]:
        nltk.data.path.append(resolved)


def load_wordnet(path: str | os.PathLike[str] | None = None) -> WordNetCorpusReader:
    """WordNet reader on the bundled WordNet 3.0 database (or a user ``.tar.gz`` / folder).

    The archive is extracted once into ``cache_dir()/wordnet-<sha256 prefix>/`` (to a temporary
    folder first, then renamed, so an interrupted extraction is never used). Readers are cached
    per process.

    Returns
    -------
    nltk.corpus.reader.WordNetCorpusReader
        e.g. ``wn.synsets("dog")``; the bundled database has 117,659 synsets.

    Examples
    --------
    >>> wn = load_wordnet()
    >>> wn.synsets("dog")[:3]
    [Synset('dog.n.01'), Synset('frump.n.01'), Synset('dog.n.03')]
    >>> [lemma.name() for lemma in wn.synset("dog.n.01").lemmas()]
    ['dog', 'domestic_dog', 'Canis_familiaris']
    >>> wn.morphy("dogs")
    'dog'
    """
    if path is None:
        src = bundled(WORDNET_FILE)
    else:
        check_name_or_path(path, "path")
        src = Path(path).expanduser()
        if not src.exists():
            raise FileNotFoundError(f"path {str(src)!r} does not exist")
        if not src.is_dir():
            src = resolve_file(src)  # an empty file is named as such, not as a corrupt archive
    key = str(src.resolve())
    with _wn_lock:
        if key in _wn_readers:
            return _wn_readers[key]
        if src.is_dir():
            root = src
            if not (root / "index.noun").is_file():
                raise FileNotFoundError(f"{root} is not a WordNet database folder (no index.noun)")
        else:
            root = _extract_once(src)
        _allow_nltk_root(root)
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", message="The multilingual functions")
            reader = _BundledWordNetReader(str(root), None)
        _wn_readers[key] = reader
        return reader
