"""Building the view sets of the MVLSA study, caching them on disk, and usable_views."""

from __future__ import annotations

import dataclasses
import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import scipy.sparse as sp
from tqdm.auto import tqdm

from workbench import datasets as ds
from workbench import views as wv
from workbench._io import Cache
from workbench._typing import Matrix
from workbench._validation import check_bool, check_int
from workbench.datasets import Corpus
from workbench.lexicons import graph_view, lexicon_view
from workbench.studies.mvlsa._settings import StudySettings, check_instance, check_sequence
from workbench.views import View, Vocabulary

logger = logging.getLogger(__name__)

__all__ = ["USER_LEXICON_FAMILY", "ViewSet", "build_view_set", "usable_views", "user_lexicon_views"]


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

    vocab: Vocabulary
    views: tuple[View, ...]
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
        exclude = check_sequence(exclude, "exclude", allow_empty=True)
        if families is not None:
            families = check_sequence(families, "families")
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


def usable_views(views: Sequence[View], *, min_rows: int = 2) -> tuple[list[View], list[str]]:
    """Keep views with at least ``min_rows`` observed rows that are not constant on them.

    A view whose observed rows are all equal is zero after centring (rank 0) and cannot take
    part in GCCA. Returns ``(kept, dropped_names)``.

    Raises
    ------
    TypeError
        ``views`` is not a sequence of views, ``min_rows`` not an integer.
    ValueError
        ``min_rows < 0``, or a view has NaN / infinite entries on its observed rows (such a
        view is not "constant": it is broken, and is not dropped silently).
    """
    min_rows = check_int(min_rows, "min_rows", low=0)
    views = check_sequence(views, "views", allow_empty=True)
    bad = [v for v in views if not (hasattr(v, "matrix") and hasattr(v, "observed"))]
    if bad:
        raise TypeError(f"views must be View objects, got {type(bad[0]).__name__}")
    kept: list[View] = []
    dropped: list[View] = []
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
            if not (np.isfinite(sq).all() and np.isfinite(tot).all()):
                raise ValueError(f"view {v.name!r} has NaN or infinite entries")
            var = sq - tot**2 / obs.size  # n * column variance over the observed rows
            ok = bool(var.max() > 1e-10 * max(float(sq.max()), 1e-300))
        (kept if ok else dropped).append(v)
    return kept, [v.name for v in dropped]


#: The verified caches of the study (see :mod:`workbench._io`); the versions are raised when the
#: code that builds an entry changes what it builds.
VIEWSET_CACHE = ("mvlsa/viewsets", 2)
BASELINE_CACHE = ("mvlsa/baselines", 4)
TUNING_CACHE = ("mvlsa/tuning", 2)


def _check_view_set(view_set: object, name: str = "view_set") -> ViewSet:
    """``view_set`` if it is a :class:`ViewSet` with at least one view."""
    checked = check_instance(view_set, name, ViewSet, "a ViewSet (from build_view_set)")
    if not checked.views:
        raise ValueError(f"{name} has no views")
    return checked


def study_cache(spec: tuple[str, int]) -> Cache:
    """The :class:`~workbench._io.Cache` of one of the study's namespaces."""
    return Cache(spec[0], version=spec[1])


def _view_set_arrays(vs: ViewSet) -> tuple[dict[str, Matrix], dict[str, Any]]:
    """A view set as cache arrays + JSON metadata (no pickle)."""
    arrays: dict[str, Matrix] = {
        "vocab_words": np.asarray(vs.vocab.words, dtype=str),
        "vocab_counts": np.asarray(vs.vocab.counts, dtype=np.int64),
    }
    views = []
    for i, v in enumerate(vs.views):
        arrays[f"v{i}_matrix"] = v.matrix
        arrays[f"v{i}_observed"] = np.asarray(v.observed, dtype=bool)
        arrays[f"v{i}_contexts"] = np.asarray(v.contexts, dtype=str)
        views.append({"name": v.name, "family": v.family, "meta": v.meta,
                      "shared_vocab": v.vocab is not None})  # fmt: skip
    return arrays, {"views": views, "info": vs.info}


def _view_set_from_arrays(arrays: dict[str, Matrix], meta: dict[str, Any]) -> ViewSet:
    vocab = Vocabulary.from_words([str(w) for w in arrays["vocab_words"]], arrays["vocab_counts"])
    views = []
    for i, rec in enumerate(meta["views"]):
        m = arrays[f"v{i}_matrix"]
        views.append(View(
            rec["name"], sp.csr_array(m) if sp.issparse(m) else np.asarray(m),
            tuple(str(c) for c in arrays[f"v{i}_contexts"]),
            np.asarray(arrays[f"v{i}_observed"], dtype=bool), rec["family"],
            vocab if rec["shared_vocab"] else None, dict(rec["meta"]),
        ))  # fmt: skip
    return ViewSet(vocab, tuple(views), dict(meta["info"]))


def build_view_set(
    settings: StudySettings, *, cache: bool = True, progress: bool | None = None
) -> ViewSet:
    """Corpus, vocabulary and all views of ``settings`` (cached on disk when ``cache``).

    Builds the positional views (``settings.offsets``), the dependency views of the UD
    treebank, the KJV--RV1909 bitext view and the lexicon views; views with fewer than ``settings.min_view_rows`` observed rows (or constant ones)
    are dropped and listed in ``info["dropped"]``. The cache key covers the corpus checksum and
    every view-building setting; entries live in the verified cache (:mod:`workbench._io`).
    """
    if isinstance(settings, str):
        raise TypeError(
            f"settings must be a StudySettings, got the string {settings!r}; "
            f"pass workbench.studies.mvlsa.settings({settings!r})"
        )
    check_instance(settings, "settings", StudySettings,
                    "a StudySettings (from workbench.studies.mvlsa.settings)")  # fmt: skip
    cache = check_bool(cache, "cache")
    if progress is not None:
        progress = check_bool(progress, "progress")
    corpus = settings.load_corpus()
    inputs = {"corpus": corpus.sha256, "settings": settings.view_key(), "size": settings.size}
    if not cache:
        return _build_view_set(settings, corpus, cache=False, progress=progress)
    entry = study_cache(VIEWSET_CACHE).get_or_build(
        inputs,
        lambda: _view_set_arrays(_build_view_set(settings, corpus, cache=True, progress=progress)),
    )
    out = _view_set_from_arrays(entry.arrays, entry.meta)
    logger.info("view set %s (%d views)", entry.key, len(out.views))
    return out


#: The family of the views of a user's lexicons (``LEXICONS``), each named by its key.
USER_LEXICON_FAMILY = "lexicon"


def user_lexicon_views(
    settings: StudySettings, vocab: Vocabulary, *, taken: Sequence[str] = ()
) -> list[View]:
    """A word x word view of each of the user's lexicons (``settings.data.lexicons``), named by
    the user's key, in the family :data:`USER_LEXICON_FAMILY`; a lexicon relating no two words
    of the vocabulary, or named like another view, is an error naming it and its file."""
    if not settings.data.lexicons:
        return []
    paths = dict(settings.data.lexicons)
    out = []
    for name, graph in ds.load_lexicons(paths).items():
        if name in taken:
            raise ValueError(
                f"LEXICONS[{name!r}]: a view of that name exists already ({list(taken)}); "
                "give your lexicon another name"
            )
        try:
            out.append(graph_view(graph, vocab, name=name, family=USER_LEXICON_FAMILY))
        except ValueError:
            raise ValueError(
                f"LEXICONS[{name!r}] ({paths[name]}): no entry relates two words of the corpus "
                f"vocabulary ({len(vocab):,} words); check that the lexicon is in the corpus "
                "language and lower-cased like the corpus"
            ) from None
    return out


def _build_view_set(
    settings: StudySettings, corpus: Corpus, *, cache: bool, progress: bool | None
) -> ViewSet:
    """Build the view set of :func:`build_view_set` (``cache``: reuse cached count views)."""
    t0 = time.perf_counter()
    steps = ["vocabulary", "positional", "dependency", "bitext", "lexicons"]
    bar = tqdm(total=len(steps), desc="views", disable=None if progress is None else not progress,
               leave=False)  # fmt: skip
    vocab, enc = wv.vocabulary_and_encoding(
        corpus, max_size=settings.vocab_size, min_count=settings.min_count
    )
    bar.update()
    views: list[View] = list(
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
        views.append(lexicon_view(kind, vocab))
    views += user_lexicon_views(settings, vocab, taken=[v.name for v in views])
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
    return ViewSet(vocab, tuple(kept), info)
