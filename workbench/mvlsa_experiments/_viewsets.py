"""Building the view sets of the MVLSA study, caching them on disk, and usable_views."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import logging
import os
import pickle
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import scipy.sparse as sp
from tqdm.auto import tqdm

from workbench.mvlsa_experiments._settings import StudySettings

logger = logging.getLogger(__name__)

__all__ = ["ViewSet", "build_view_set", "usable_views"]

#: Bump to invalidate the on-disk caches (part of every cache key).
_CACHE_VERSION = 1


# ============================================================================================
# views
# ============================================================================================
@dataclass(frozen=True, eq=False)
class ViewSet:
    """Views over one vocabulary.

    Attributes
    ----------
    vocab : Vocabulary
    views : tuple of View
        Raw (unpreprocessed) count / lexicon views.
    info : dict
        Corpus name, token count, dropped views, build seconds.
    """

    vocab: Any
    views: tuple[Any, ...]
    info: dict[str, Any] = field(default_factory=dict)

    @property
    def words(self) -> list[str]:
        return list(self.vocab.words)

    @property
    def names(self) -> list[str]:
        return [v.name for v in self.views]

    def families(self) -> dict[str, list[str]]:
        """Family -> view names (in view order)."""
        out: dict[str, list[str]] = {}
        for v in self.views:
            out.setdefault(v.family, []).append(v.name)
        return out

    def select(
        self,
        *,
        exclude: Sequence[str] = (),
        families: Sequence[str] | None = None,
    ) -> ViewSet:
        """A view set without the views (or families) named in ``exclude``, or with only ``families``.

        Raises ValueError naming an unknown view / family, or when nothing is left.
        """
        fams = self.families()
        known = set(self.names) | set(fams)
        unknown = [e for e in list(exclude) + list(families or ()) if e not in known]
        if unknown:
            raise ValueError(f"unknown views or families {unknown}; known: {sorted(known)}")
        drop = set(exclude)
        keep = [
            v
            for v in self.views
            if v.name not in drop
            and v.family not in drop
            and (families is None or v.family in families)
        ]
        if not keep:
            raise ValueError(f"no view left after exclude={list(exclude)}, families={families}")
        return dataclasses.replace(self, views=tuple(keep))


def usable_views(views: Sequence[Any], *, min_rows: int = 2) -> tuple[list[Any], list[str]]:
    """Keep views with at least ``min_rows`` observed rows that are not constant on them.

    A view whose observed rows are all equal is zero after centring (rank 0) and cannot take
    part in GCCA. Returns ``(kept, dropped_names)``.
    """
    kept: list[Any] = []
    dropped: list[Any] = []
    for v in views:
        obs = np.flatnonzero(v.observed)
        ok = obs.size >= max(min_rows, 2)
        if ok:
            x = v.matrix[obs]
            if sp.issparse(x):
                x = sp.csr_array(x, dtype=np.float64)
                sq = np.asarray(x.multiply(x).sum(axis=0)).ravel()
                tot = np.asarray(x.sum(axis=0)).ravel()
            else:
                x = np.asarray(x, dtype=np.float64)
                sq, tot = (x * x).sum(axis=0), x.sum(axis=0)
            var = sq - tot**2 / obs.size  # n * column variance over the observed rows
            ok = bool(var.max() > 1e-10 * max(float(sq.max()), 1e-300))
        (kept if ok else dropped).append(v)
    return kept, [v.name for v in dropped]


def _key(*parts: Any) -> str:
    return hashlib.sha256(json.dumps(parts, sort_keys=True, default=str).encode()).hexdigest()[:24]


def _cache_root() -> Path:
    from workbench.datasets import cache_dir

    return Path(cache_dir()) / "mvlsa_experiments"


def _load_pickle(path: Path) -> Any:
    try:
        with open(path, "rb") as fh:
            return pickle.load(fh)
    except (OSError, pickle.UnpicklingError, EOFError, AttributeError) as exc:
        logger.warning("cache entry %s unreadable (%s); rebuilding", path, exc)
        return None


def _save_pickle(path: Path, obj: Any) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.stem}.", suffix=".pkl")
    try:
        with os.fdopen(fd, "wb") as fh:
            pickle.dump(obj, fh, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def build_view_set(
    settings: StudySettings, *, cache: bool = True, progress: bool | None = None
) -> ViewSet:
    """Corpus, vocabulary and all views of ``settings`` (cached on disk when ``cache``).

    Builds the positional views (``settings.offsets``), the dependency views of the UD
    treebank, the KJV--RV1909 bitext view, the lexicon views and the GloVe co-occurrence
    counts; views with fewer than ``settings.min_view_rows`` observed rows (or constant ones)
    are dropped and listed in ``info["dropped"]``. The cache key covers the corpus checksum and
    every view-building setting.
    """
    from workbench import datasets as ds
    from workbench import views as wv

    t0 = time.perf_counter()
    corpus = ds.load_corpus(settings.corpus, max_tokens=settings.max_tokens)
    key = _key(_CACHE_VERSION, corpus.sha256, settings.view_key())
    path = _cache_root() / f"viewset-{settings.size}-{key}.pkl"
    if cache and path.exists():
        obj = _load_pickle(path)
        if isinstance(obj, ViewSet):
            logger.info("loaded view set %s (%d views)", path.name, len(obj.views))
            return obj
    steps = ["vocabulary", "positional", "dependency", "bitext", "lexicons"]
    bar = tqdm(total=len(steps), desc="views", disable=None if progress is None else not progress)
    vocab, enc = wv.vocabulary_and_encoding(
        corpus, max_size=settings.vocab_size, min_count=settings.min_count
    )
    bar.update()
    views: list[Any] = list(
        wv.positional_views(enc, vocab, settings.offsets, cache=cache, progress=False)
    )
    bar.update()
    if settings.conllu:
        views += wv.dependency_views(ds.load_conllu(settings.conllu), vocab)
    bar.update()
    if settings.bitext_verses != 0:
        views.append(
            wv.bitext_view(vocab, n_iter=5, max_sentences=settings.bitext_verses, cache=cache)
        )
    bar.update()
    for kind in settings.lexicons:
        views.append(wv.lexicon_view(kind, vocab))
    bar.update()
    bar.close()
    kept, dropped = usable_views(views, min_rows=settings.min_view_rows)
    if dropped:
        logger.info("dropped %d views observing < %d rows: %s", len(dropped),
                    settings.min_view_rows, dropped)  # fmt: skip
    info = {
        "corpus": settings.corpus,
        "n_tokens": int(enc.n_tokens),
        "vocab_size": len(vocab),
        "dropped": dropped,
        "build_seconds": time.perf_counter() - t0,
    }
    out = ViewSet(vocab, tuple(kept), info)
    if cache:
        _save_pickle(path, out)
    return out
