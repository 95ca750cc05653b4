"""Reader / writer of the MSSG / NP-MSSG release text format.

Part of :mod:`workbench.senses` (import the public names from there).
"""

from __future__ import annotations

import gzip
import os
from pathlib import Path
from typing import IO, Literal

import numpy as np

from workbench._io import atomic_path
from workbench.datasets import DataFormatError
from workbench.embeddings import MultiSenseVectors


def _open_text(path: Path, mode: Literal["rt", "wt"], gz: bool | None = None) -> IO[str]:
    if path.suffix == ".gz" if gz is None else gz:
        return gzip.open(path, mode, encoding="utf-8", newline="\n")  # type: ignore[return-value]
    return open(path, mode, encoding="utf-8", newline="\n")


def save_mssg(msv: MultiSenseVectors, path: str | os.PathLike[str]) -> Path:
    """Write multi-sense vectors in the MSSG / NP-MSSG release text format.

    Layout (gzip-compressed when the name ends in ``.gz``)::

        V D S 0
        word k
        <global vector: D numbers>
        <sense 0 vector>
        <sense 0 cluster centre>
        ...                      (k sense / centre line pairs)

    ``S`` is the largest number of senses and the last header field is MSSG's ``maxout``
    flag (0: centres present). Numbers are written with ``repr`` precision.

    Raises
    ------
    ValueError
        Context centres whose dimension differs from the vectors' (the format has a single D),
        or words containing whitespace.
    """
    path = Path(path)
    words = msv.words
    d = msv.dim
    smax = max((msv.n_senses(w) for w in words), default=1)
    with atomic_path(path) as tmp, _open_text(tmp, "wt", gz=path.suffix == ".gz") as fh:
        fh.write(f"{len(words)} {d} {smax} 0\n")
        for w in words:
            if not w or any(ch.isspace() for ch in w):
                raise ValueError(f"word {w!r} contains whitespace: not representable in MSSG")
            s = np.asarray(msv.sense_vectors(w))
            c = np.asarray(msv.context_centers(w))
            if c.shape[1] != d:
                raise ValueError(
                    f"context centres of {w!r} have dimension {c.shape[1]} but vectors have {d}: "
                    "the MSSG format needs one dimension"
                )
            fh.write(f"{w} {s.shape[0]}\n")
            fh.write(" ".join(repr(float(x)) for x in msv.global_vector(w)) + "\n")
            for sv, cv in zip(s, c):
                fh.write(" ".join(repr(float(x)) for x in sv) + "\n")
                fh.write(" ".join(repr(float(x)) for x in cv) + "\n")
    return path


def load_mssg(path: str | os.PathLike[str], *, limit: int | None = None) -> MultiSenseVectors:
    """Read multi-sense vectors in the MSSG / NP-MSSG release text format (see :func:`save_mssg`).

    The header is ``V D`` optionally followed by ``S`` and the ``maxout`` flag; with
    ``maxout = 1`` (MSSG-MaxOut) there are no centre lines and the sense vectors double as
    centres. Values may be separated by any whitespace (trailing spaces are fine).

    Parameters
    ----------
    path : path
        Text or ``.gz`` file.
    limit : int, optional
        Read only the first ``limit`` words.

    Raises
    ------
    FileNotFoundError
        The file does not exist.
    workbench.datasets.DataFormatError
        Malformed content; the message names the file and the line (bad header, word line
        without a positive sense count, wrong number of values, non-numeric or NaN values,
        truncated file, duplicate word).
    """
    path = Path(path)
    if not path.exists():
        raise FileNotFoundError(f"MSSG file not found: {path}")

    def err(lineno: int, msg: str) -> DataFormatError:
        return DataFormatError(f"{path.name} line {lineno}: {msg} [{path}]")

    words: list[str] = []
    glob: list[np.ndarray] = []
    senses: list[np.ndarray] = []
    centers: list[np.ndarray] = []
    try:
        with _open_text(path, "rt") as fh:
            lines = enumerate(fh, 1)

            def next_line(what: str) -> tuple[int, str]:
                try:
                    return next(lines)
                except StopIteration:
                    raise err(
                        lineno_ref[0] + 1, f"unexpected end of file, expected {what}"
                    ) from None

            lineno_ref = [0]

            def vector(what: str, d: int) -> np.ndarray:
                ln, text = next_line(what)
                lineno_ref[0] = ln
                parts = text.split()
                if len(parts) != d:
                    raise err(ln, f"{what} has {len(parts)} values, expected {d}")
                try:
                    v = np.array([float(p) for p in parts])
                except ValueError:
                    raise err(ln, f"{what} contains a non-numeric value") from None
                if not np.all(np.isfinite(v)):
                    raise err(ln, f"{what} contains NaN or infinite values")
                return v

            ln, header = next_line("the header 'V D [S [maxout]]'")
            lineno_ref[0] = ln
            fields = header.split()
            try:
                nums = [int(x) for x in fields]
            except ValueError:
                raise err(
                    ln, f"header must be integers 'V D [S [maxout]]', got {header.strip()!r}"
                ) from None
            if not 2 <= len(nums) <= 4 or nums[0] < 0 or nums[1] < 1:
                raise err(
                    ln,
                    f"header must be 'V D [S [maxout]]' with V >= 0, D >= 1, got {header.strip()!r}",
                )
            n_words, d = nums[0], nums[1]
            maxout = nums[3] if len(nums) == 4 else 0
            if maxout not in (0, 1):
                raise err(ln, f"maxout flag must be 0 or 1, got {maxout}")
            n_read = n_words if limit is None else min(n_words, int(limit))
            seen: set[str] = set()
            for _ in range(n_read):
                ln, text = next_line("a word line 'word k'")
                lineno_ref[0] = ln
                parts = text.split()
                if len(parts) != 2:
                    raise err(ln, f"expected a word line 'word k', got {text.strip()[:60]!r}")
                w, ks = parts
                try:
                    k = int(ks)
                except ValueError:
                    raise err(ln, f"sense count of {w!r} is not an integer: {ks!r}") from None
                if k < 1:
                    raise err(ln, f"word {w!r} has sense count {k}; expected >= 1")
                if w in seen:
                    raise err(ln, f"duplicate word {w!r}")
                seen.add(w)
                g = vector(f"global vector of {w!r}", d)
                sv, cv = [], []
                for s in range(k):
                    sv.append(vector(f"sense {s} vector of {w!r}", d))
                    if not maxout:
                        cv.append(vector(f"sense {s} centre of {w!r}", d))
                words.append(w)
                glob.append(g)
                senses.append(np.stack(sv))
                centers.append(np.stack(cv) if cv else np.stack(sv))
    except (EOFError, OSError, UnicodeDecodeError, gzip.BadGzipFile) as exc:
        if isinstance(exc, FileNotFoundError):
            raise
        raise DataFormatError(
            f"{path.name}: unreadable or truncated file ({exc}) [{path}]"
        ) from exc
    if not words:
        raise DataFormatError(f"{path.name} line 1: the file holds no words [{path}]")
    return MultiSenseVectors(words, np.stack(glob), senses, centers)
