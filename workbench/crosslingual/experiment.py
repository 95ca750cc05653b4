"""The English-Spanish Bible experiment of notebook ``07_translingual`` (Platt et al., 2010, sec. 3).

Documents are the 1,189 aligned chapters of the KJV and the Reina-Valera 1909; sentences for the
word-by-word baseline are the verses of the *training* books. Books are split by
:func:`~workbench.crosslingual.documents.split_books`; the vocabulary and idf come from the
training chapters. Every method's dimension (and gamma / number of topics) is chosen by dev MRR;
PLSA models are early-stopped on dev MRR (as in the paper); the chosen settings are reported on
test, with per-query hits and reciprocal ranks kept for significance tests.
"""

from __future__ import annotations

import copy
import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd
import scipy.sparse as sp
from tqdm.auto import tqdm

from ..alignment import IBM1Model, train_ibm1
from .baselines import WordByWordTranslation
from .documents import (
    BookSplit,
    TermSpace,
    build_term_space,
    count_matrix,
    joint_log_tf_idf,
    log_tf_idf,
    split_books,
)
from .plsa import CPLSA, JPLSA
from .projections import CLLSI, OPCA, CrossLingualCCA

__all__ = [
    "ExperimentConfig",
    "BibleData",
    "TranslingualResult",
    "prepare_bible",
    "run_translingual",
    "METHODS",
    "compare_pairs",
    "top_matches",
]

logger = logging.getLogger(__name__)

#: Method names in the order of the paper's tables.
METHODS: tuple[str, ...] = (
    "OPCA",
    "CPLSA",
    "Word-by-word",
    "Word-by-word+LSA",
    "JPLSA",
    "CCA",
    "CL-LSI",
    "Untranslated",
)


@dataclass(frozen=True)
class ExperimentConfig:
    """Settings of the translingual experiment (defaults: the full run, ~5 minutes on one core).

    ``n_drop`` / ``n_terms``: vocabulary selection per language (the paper: 50 / 20,000);
    ``dims``: projection dimensions swept on dev; ``opca_gammas`` / ``cca_gammas``: ridge values
    tried on dev; ``topics``: PLSA topic numbers; ``jplsa_iter`` / ``cplsa_iter``: maximal EM
    iterations, early-stopped on dev MRR evaluated every ``eval_every`` iterations.
    """

    n_drop: int = 50
    n_terms: int = 5000
    dims: tuple[int, ...] = (10, 25, 50, 100, 200, 300, 400)
    opca_gammas: tuple[float, ...] = (0.01, 0.1, 1.0)
    cca_gammas: tuple[float, ...] = (1.0, 3.0, 10.0)
    topics: tuple[int, ...] = (50, 100, 200)
    jplsa_iter: int = 150
    cplsa_iter: int = 30
    projection_steps: int = 5
    eval_every: int = 5
    ibm1_iter: int = 5
    methods: tuple[str, ...] = METHODS

    @classmethod
    def small(cls) -> ExperimentConfig:
        """Reduced settings for tests (well under a minute)."""
        return cls(
            n_terms=1000,
            dims=(10, 25, 50, 100),
            opca_gammas=(0.1,),
            cca_gammas=(3.0,),
            topics=(25,),
            jplsa_iter=30,
            cplsa_iter=8,
            projection_steps=3,
            eval_every=4,
            ibm1_iter=3,
        )


@dataclass(frozen=True, eq=False)
class BibleData:
    """Chapters of two aligned Bible translations as documents, with a book split.

    Attributes
    ----------
    ids : list of (book, chapter)
    books, divisions : ndarray of str (per chapter)
    languages : tuple of str
        ``("en", "es")``.
    tokens : dict language -> list of token lists (chapters)
    verse_tokens : dict language -> list of token lists (verses of the training books)
    split : BookSplit
    parts : dict "train"/"dev"/"test" -> ndarray of chapter indices
    space : TermSpace
        Built from the training chapters.
    counts, weighted : dict language -> csr (all chapters x joint terms)
        Raw counts and log(tf)-idf (eq. 8).
    """

    ids: list[tuple[str, int]]
    books: np.ndarray
    divisions: np.ndarray
    languages: tuple[str, ...]
    tokens: dict[str, list[list[str]]]
    verse_tokens: dict[str, list[list[str]]]
    split: BookSplit
    parts: dict[str, np.ndarray]
    space: TermSpace
    counts: dict[str, sp.csr_matrix]
    weighted: dict[str, sp.csr_matrix] = field(repr=False)

    def summary(self) -> pd.DataFrame:
        """Chapters, books and divisions per part."""
        rows = []
        for name, idx in self.parts.items():
            rows.append(
                {
                    "part": name,
                    "books": len(getattr(self.split, name)),
                    "chapters": len(idx),
                    "divisions": len(set(self.divisions[idx])),
                    "train verses": len(self.verse_tokens[self.languages[0]])
                    if name == "train"
                    else 0,
                }
            )
        return pd.DataFrame(rows)


def prepare_bible(
    *,
    n_drop: int = 50,
    n_terms: int = 5000,
    translations: tuple[str, str] = ("KJV", "RV1909"),
) -> BibleData:
    """Load, tokenize and split the parallel Bible; build the term space and matrices."""
    from ..datasets import BIBLE_DIVISIONS, load_parallel_bible

    corpus = load_parallel_bible("verse", translations)
    langs = tuple(corpus.languages[t] for t in translations)
    if len(set(langs)) != len(langs):
        langs = tuple(translations)
    verse_tok = {lang: corpus.tokens(t) for lang, t in zip(langs, translations)}
    chap_ids: list[tuple[str, int]] = []
    chap_of_verse = np.empty(len(corpus.ids), dtype=np.int64)
    index: dict[tuple[str, int], int] = {}
    for i, vid in enumerate(corpus.ids):
        key = (str(vid[0]), int(vid[1]))
        if key not in index:
            index[key] = len(chap_ids)
            chap_ids.append(key)
        chap_of_verse[i] = index[key]
    tokens: dict[str, list[list[str]]] = {lang: [[] for _ in chap_ids] for lang in langs}
    for lang in langs:
        for c, toks in zip(chap_of_verse.tolist(), verse_tok[lang]):
            tokens[lang][c].extend(toks)
    books = np.array([b for b, _ in chap_ids], dtype=object)
    divisions = np.array([BIBLE_DIVISIONS[b] for b in books], dtype=object)
    split = split_books(list(books), BIBLE_DIVISIONS)
    masks = split.masks(list(books))
    parts = {k: np.flatnonzero(v) for k, v in masks.items()}
    train = parts["train"]
    space = build_term_space(
        {lang: [tokens[lang][i] for i in train] for lang in langs},
        n_drop=n_drop,
        n_terms=n_terms,
    )
    counts = {lang: count_matrix(space, tokens[lang], lang) for lang in langs}
    weighted = {lang: log_tf_idf(space, counts[lang]) for lang in langs}
    train_books = set(split.train)
    verse_train = np.array([str(v[0]) in train_books for v in corpus.ids])
    verse_tokens = {
        lang: [t for t, keep in zip(verse_tok[lang], verse_train) if keep] for lang in langs
    }
    logger.info(
        "Bible: %d chapters (%s), %d joint terms",
        len(chap_ids),
        {k: len(v) for k, v in parts.items()},
        len(space),
    )
    return BibleData(
        ids=chap_ids,
        books=books,
        divisions=divisions,
        languages=langs,
        tokens=tokens,
        verse_tokens=verse_tokens,
        split=split,
        parts=parts,
        space=space,
        counts=counts,
        weighted=weighted,
    )


# An "embedder" maps (language, chapter indices) to document vectors for a fitted method.
Embedder = Callable[[str, np.ndarray], Any]


@dataclass
class _Candidate:
    method: str
    dim: int | None
    params: dict[str, Any]
    embed: Embedder
    metric: str
    fit_seconds: float


@dataclass(eq=False)
class TranslingualResult:
    """Everything notebook 07 shows.

    Attributes
    ----------
    dev_curves : DataFrame
        ``method, dim, setting, top1, mrr`` on dev for every candidate.
    test_table : DataFrame
        Table 1/2 analogue: per method its dev-chosen setting and test Top-1 / MRR (both
        directions averaged and per direction) and fit time.
    test_hits, test_rr : dict method -> ndarray
        Per-query Top-1 hits and reciprocal ranks on test (en->es queries then es->en).
    classification : DataFrame
        Table 3 analogue: 1-NN division accuracy (English train-book chapters label Spanish
        test-book chapters), dimension chosen on dev books.
    class_hits : dict method -> ndarray of bool
    fit_seconds : dict method -> float
        Fit time of the chosen model (including the sweep's shared work for nested methods).
    embeddings : dict method -> (en_test, es_test, metric)
        Test-chapter vectors for the explorer widget.
    ibm1 : IBM1Model or None
    """

    data: BibleData
    config: ExperimentConfig
    dev_curves: pd.DataFrame
    test_table: pd.DataFrame
    test_hits: dict[str, np.ndarray]
    test_rr: dict[str, np.ndarray]
    classification: pd.DataFrame
    class_hits: dict[str, np.ndarray]
    fit_seconds: dict[str, float]
    embeddings: dict[str, tuple[Any, Any, str]]
    ibm1: IBM1Model | None = None
    candidates: list[Any] = field(default_factory=list, repr=False)

    def retrieval_at_dimension(self, dim: int) -> tuple[pd.DataFrame, dict[str, np.ndarray]]:
        """Test retrieval of every method that has dimension (or topic number) ``dim``.

        Uses each method's dev-chosen gamma; PLSA models at ``dim`` topics (early-stopped on
        dev). A supplementary view below the ceiling reached at the dev-chosen dimensions.

        Returns
        -------
        table : DataFrame (method, dim, setting, top1, mrr)
        hits : dict method -> per-query Top-1 hits
        """
        langs = self.data.languages
        test = self.data.parts["test"]
        chosen = dict(zip(self.test_table["method"], self.test_table["setting"]))
        rows, hits = [], {}
        for c in self.candidates:
            if c.dim != dim:
                continue
            if c.method not in ("JPLSA", "CPLSA") and _setting(c) != chosen.get(c.method):
                continue
            r = _retrieval(c.embed, c.metric, langs, test)
            hits[c.method] = np.asarray(r.hits)
            rows.append(
                {
                    "method": c.method,
                    "dim": dim,
                    "setting": _setting(c),
                    "top1": r.top1,
                    "mrr": r.mrr,
                }
            )
        table = pd.DataFrame(rows)
        if len(table):
            table = table.sort_values("mrr", ascending=False, kind="stable").reset_index(drop=True)
        return table, hits

    def dev_mrr_by_dim(self) -> pd.DataFrame:
        """Dev MRR per dimension (rows) and method (columns) at each method's chosen setting.

        For JPLSA / CPLSA the "dimension" is the number of topics (each early-stopped on dev).
        Methods without a dimension (Untranslated, Word-by-word) are left out: see
        :meth:`dev_mrr_flat`.
        """
        chosen = dict(zip(self.test_table["method"], self.test_table["setting"]))
        c = self.dev_curves
        keep = c["dim"].notna() & (
            c["method"].isin(["JPLSA", "CPLSA"]) | (c["setting"] == c["method"].map(chosen))
        )
        table = c[keep].pivot_table(index="dim", columns="method", values="mrr")
        table.index = table.index.astype(int)
        return table

    def dev_mrr_flat(self) -> dict[str, float]:
        """Dev MRR of the methods without a dimension."""
        c = self.dev_curves
        flat = c[c["dim"].isna()]
        return {str(m): float(v) for m, v in zip(flat["method"], flat["mrr"])}


def _retrieval(embed: Embedder, metric: str, langs: Sequence[str], idx: np.ndarray) -> Any:
    from ..evaluation import crosslingual_retrieval

    return crosslingual_retrieval(embed(langs[0], idx), embed(langs[1], idx), metric=metric)  # type: ignore[arg-type]


def _slice_embed(base: Embedder, k: int) -> Embedder:
    return lambda lang, idx: base(lang, idx)[:, :k]


def _linear_candidates(
    data: BibleData, cfg: ExperimentConfig, ibm1: IBM1Model | None
) -> list[_Candidate]:
    langs = data.languages
    train = data.parts["train"]
    w = data.weighted
    views = [w[lang][train] for lang in langs]
    max_dim = max(cfg.dims)
    out: list[_Candidate] = []
    methods = set(cfg.methods)

    def dims_upto(limit: int) -> list[int]:
        return [d for d in cfg.dims if d <= limit]

    if "Untranslated" in methods:
        out.append(
            _Candidate("Untranslated", None, {}, lambda lang, idx: w[lang][idx], "cosine", 0.0)
        )
    if "CL-LSI" in methods:
        t0 = time.perf_counter()
        joint = joint_log_tf_idf(data.space, [data.counts[lang][train] for lang in langs])
        k = min(max_dim, len(train) - 1)
        lsi = CLLSI(k).fit([joint])
        sec = time.perf_counter() - t0
        full = _proj_embed(w, lsi.components_)
        for d in dims_upto(k):
            out.append(_Candidate("CL-LSI", d, {}, _slice_embed(full, d), "cosine", sec))
    if "OPCA" in methods:
        for g in cfg.opca_gammas:
            t0 = time.perf_counter()
            op = OPCA(max_dim, g).fit(views)
            sec = time.perf_counter() - t0
            full = _proj_embed(w, op.components_)
            for d in cfg.dims:
                out.append(
                    _Candidate("OPCA", d, {"gamma": g}, _slice_embed(full, d), "cosine", sec)
                )
    if "CCA" in methods:
        for g in cfg.cca_gammas:
            t0 = time.perf_counter()
            cca = CrossLingualCCA(max_dim, g).fit(views)
            sec = time.perf_counter() - t0
            per = dict(zip(langs, cca.view_components_))
            full = _per_language_embed(w, per)
            for d in cfg.dims:
                out.append(_Candidate("CCA", d, {"gamma": g}, _slice_embed(full, d), "cosine", sec))
    if ibm1 is not None and ({"Word-by-word", "Word-by-word+LSA"} & methods):
        t0 = time.perf_counter()
        wbw = WordByWordTranslation(ibm1, data.space, langs[1], langs[0])
        translated = {
            langs[0]: w[langs[0]],
            langs[1]: wbw.transform(w[langs[1]]),
        }
        sec = time.perf_counter() - t0
        if "Word-by-word" in methods:
            out.append(
                _Candidate(
                    "Word-by-word", None, {}, lambda lang, idx: translated[lang][idx], "cosine", sec
                )
            )
        if "Word-by-word+LSA" in methods:
            t1 = time.perf_counter()
            k = min(max_dim, len(train) - 1)
            mono = CLLSI(k).fit([w[langs[0]][train]])
            sec2 = sec + time.perf_counter() - t1
            full = _proj_embed(translated, mono.components_)
            for d in dims_upto(k):
                out.append(
                    _Candidate("Word-by-word+LSA", d, {}, _slice_embed(full, d), "cosine", sec2)
                )
    return out


def _proj_embed(mats: dict[str, Any], comps: np.ndarray) -> Embedder:
    cache: dict[str, np.ndarray] = {}

    def embed(lang: str, idx: np.ndarray) -> np.ndarray:
        if lang not in cache:
            cache[lang] = np.asarray(mats[lang] @ comps)
        return cache[lang][idx]

    return embed


def _per_language_embed(mats: dict[str, Any], comps: dict[str, np.ndarray]) -> Embedder:
    cache: dict[str, np.ndarray] = {}

    def embed(lang: str, idx: np.ndarray) -> np.ndarray:
        if lang not in cache:
            cache[lang] = np.asarray(mats[lang] @ comps[lang])
        return cache[lang][idx]

    return embed


def _plsa_candidates(data: BibleData, cfg: ExperimentConfig) -> list[_Candidate]:
    langs = data.languages
    train, dev = data.parts["train"], data.parts["dev"]
    counts = data.counts
    views = [counts[lang][train] for lang in langs]
    out: list[_Candidate] = []
    for name, cls in (("JPLSA", JPLSA), ("CPLSA", CPLSA)):
        if name not in cfg.methods:
            continue
        for n_topics in cfg.topics:
            if cls is JPLSA:
                model: Any = JPLSA(n_topics, n_iter=cfg.jplsa_iter)
            else:
                model = CPLSA(
                    n_topics, n_iter=cfg.cplsa_iter, n_projection_steps=cfg.projection_steps
                )
            best: dict[str, Any] = {"mrr": -1.0, "phi": None, "iter": 0}

            def callback(it: int, m: Any, best: dict[str, Any] = best) -> bool:
                last = it == m.n_iter
                if it % cfg.eval_every and not last:
                    return False
                emb = _fold_embed(m, m.topic_word_, counts)
                mrr = _retrieval(emb, "l1", langs, dev).mrr
                if mrr > best["mrr"]:
                    best.update(mrr=mrr, phi=m.topic_word_.copy(), iter=it)
                return False

            t0 = time.perf_counter()
            model.fit(views, callback=callback)
            sec = time.perf_counter() - t0
            if best["phi"] is not None:
                model.topic_word_ = best["phi"]
            emb = _fold_embed(model, model.topic_word_, counts)
            out.append(
                _Candidate(
                    name,
                    n_topics,
                    {"iterations": best["iter"]},
                    emb,
                    "l1",
                    sec,
                )
            )
    return out


def _fold_embed(model: Any, phi: np.ndarray, counts: dict[str, Any]) -> Embedder:
    """Fold-in embedder bound to a snapshot of ``phi`` (the model may keep training)."""
    snapshot = copy.copy(model)
    snapshot.topic_word_ = phi
    cache: dict[tuple[str, bytes], np.ndarray] = {}

    def embed(lang: str, idx: np.ndarray) -> np.ndarray:
        key = (lang, np.asarray(idx).tobytes())
        if key not in cache:
            cache[key] = snapshot.transform(counts[lang][idx])
        return cache[key]

    return embed


def _setting(c: _Candidate) -> str:
    return ", ".join(f"{k}={v}" for k, v in c.params.items())


def run_translingual(data: BibleData, config: ExperimentConfig | None = None) -> TranslingualResult:
    """Run every method: dev sweep, test retrieval (Table 1/2), classification (Table 3)."""
    from ..evaluation import knn_classify

    cfg = config or ExperimentConfig()
    unknown = set(cfg.methods) - set(METHODS)
    if unknown:
        raise ValueError(f"unknown methods {sorted(unknown)}; choose from {list(METHODS)}")
    langs = data.languages
    dev, test, train = data.parts["dev"], data.parts["test"], data.parts["train"]

    ibm1 = None
    ibm1_sec = 0.0
    if {"Word-by-word", "Word-by-word+LSA"} & set(cfg.methods):
        t0 = time.perf_counter()
        # source = the second language (Spanish): t(English word | Spanish word)
        ibm1 = train_ibm1(
            data.verse_tokens[langs[1]], data.verse_tokens[langs[0]], n_iter=cfg.ibm1_iter
        )
        ibm1_sec = time.perf_counter() - t0

    candidates = _linear_candidates(data, cfg, ibm1) + _plsa_candidates(data, cfg)
    rows = []
    for c in tqdm(candidates, desc="dev sweep", disable=None, leave=False):
        r = _retrieval(c.embed, c.metric, langs, dev)
        rows.append(
            {
                "method": c.method,
                "dim": c.dim,
                "setting": _setting(c),
                "top1": r.top1,
                "mrr": r.mrr,
            }
        )
    curves = pd.DataFrame(rows)
    curves["dim"] = curves["dim"].astype("Float64")

    # choose per method: best dev MRR (ties: first = smaller dimension / earlier setting)
    chosen: dict[str, _Candidate] = {}
    for i, c in enumerate(candidates):
        cur = chosen.get(c.method)
        if cur is None or rows[i]["mrr"] > rows[candidates.index(cur)]["mrr"]:
            chosen[c.method] = c

    test_rows = []
    hits: dict[str, np.ndarray] = {}
    rr: dict[str, np.ndarray] = {}
    fit_seconds: dict[str, float] = {}
    embeddings: dict[str, tuple[Any, Any, str]] = {}
    for method in METHODS:
        if method not in chosen:
            continue
        c = chosen[method]
        r = _retrieval(c.embed, c.metric, langs, test)
        hits[method] = np.asarray(r.hits)
        rr[method] = np.asarray(r.reciprocal_ranks)
        sec = c.fit_seconds + (ibm1_sec if method.startswith("Word-by-word") else 0.0)
        fit_seconds[method] = sec
        embeddings[method] = (c.embed(langs[0], test), c.embed(langs[1], test), c.metric)
        test_rows.append(
            {
                "method": method,
                "dim": "N/A" if c.dim is None else str(c.dim),
                "setting": _setting(c),
                "top1": r.top1,
                "mrr": r.mrr,
                f"top1 {langs[0]}->{langs[1]}": r.forward.top1,
                f"top1 {langs[1]}->{langs[0]}": r.backward.top1,
                "fit seconds": sec,
            }
        )
    test_table = pd.DataFrame(test_rows).sort_values("mrr", ascending=False, kind="stable")
    test_table = test_table.reset_index(drop=True)

    # Table 3: English chapters of training books label Spanish chapters of other books
    labels = data.divisions
    class_rows = []
    class_hits: dict[str, np.ndarray] = {}
    by_method: dict[str, list[_Candidate]] = {}
    for c in candidates:
        if c.method in chosen and c.params == chosen[c.method].params:
            by_method.setdefault(c.method, []).append(c)
        elif c.method in ("JPLSA", "CPLSA"):
            by_method.setdefault(c.method, []).append(c)
    for method in METHODS:
        if method not in by_method:
            continue
        best_c, best_acc = None, -1.0
        for c in by_method[method]:
            acc = knn_classify(
                c.embed(langs[0], train),
                labels[train],
                c.embed(langs[1], dev),
                labels[dev],
                metric=c.metric,  # type: ignore[arg-type]
            ).accuracy
            if acc > best_acc:
                best_c, best_acc = c, acc
        assert best_c is not None
        res = knn_classify(
            best_c.embed(langs[0], train),
            labels[train],
            best_c.embed(langs[1], test),
            labels[test],
            metric=best_c.metric,  # type: ignore[arg-type]
        )
        class_hits[method] = np.asarray(res.hits)
        class_rows.append(
            {
                "method": method,
                "dim": "N/A" if best_c.dim is None else str(best_c.dim),
                "setting": _setting(best_c),
                "dev accuracy": best_acc,
                "test accuracy": res.accuracy,
            }
        )
    classification = (
        pd.DataFrame(class_rows)
        .sort_values("test accuracy", ascending=False, kind="stable")
        .reset_index(drop=True)
    )
    return TranslingualResult(
        data=data,
        config=cfg,
        dev_curves=curves,
        test_table=test_table,
        test_hits=hits,
        test_rr=rr,
        classification=classification,
        class_hits=class_hits,
        fit_seconds=fit_seconds,
        embeddings=embeddings,
        ibm1=ibm1,
        candidates=candidates,
    )


def compare_pairs(hits: dict[str, np.ndarray], pairs: Sequence[tuple[str, str]]) -> pd.DataFrame:
    """Paired comparisons of per-item hits (exact McNemar test), one row per ``(a, b)`` pair.

    Columns: ``baseline, method, accuracy baseline, accuracy method, difference,
    n baseline only, n method only, mcnemar p, p(method better)``. Pairs whose methods were not
    run are skipped.
    """
    from ..significance import compare_accuracy

    rows = []
    for a, b in pairs:
        if a not in hits or b not in hits:
            continue
        r = compare_accuracy(hits[a], hits[b])
        rows.append(
            {
                "baseline": a,
                "method": b,
                "accuracy baseline": r.accuracy_a,
                "accuracy method": r.accuracy_b,
                "difference": r.difference,
                "n baseline only": r.n_a_only,
                "n method only": r.n_b_only,
                "mcnemar p": r.mcnemar_pvalue,
                "p(method better)": r.prob_b_better,
            }
        )
    return pd.DataFrame(rows)


def _scores(query: Any, targets: Any, metric: str) -> np.ndarray:
    """Similarity of one query row to every target row (cosine, or negative L1 distance)."""
    q = query.toarray() if sp.issparse(query) else np.asarray(query, dtype=float)
    t = targets.toarray() if sp.issparse(targets) else np.asarray(targets, dtype=float)
    q = q.reshape(1, -1)
    if metric == "l1":
        return -np.abs(t - q).sum(axis=1)
    qn = np.linalg.norm(q)
    tn = np.linalg.norm(t, axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        s = (t @ q.ravel()) / (tn * qn)
    return np.nan_to_num(s, nan=-np.inf)


def top_matches(result: Any, chapter: tuple[str, int], *, topn: int = 5) -> pd.DataFrame:
    """Top Spanish test chapters for an English test chapter under every method.

    Parameters
    ----------
    result : TranslingualResult
        From :func:`workbench.crosslingual.run_translingual`.
    chapter : (book, chapter)
        An English chapter of the *test* books.
    topn : int

    Returns
    -------
    DataFrame
        Rows ``rank 1..topn``, one column per method with ``"Book ch (score)"`` strings; a ``*``
        marks the true translation. Scores are cosine similarities, or minus the L1 distance for
        the PLSA models.
    """
    data = result.data
    test = data.parts["test"]
    ids = [data.ids[i] for i in test]
    key = (str(chapter[0]), int(chapter[1]))
    if key not in ids:
        raise KeyError(f"chapter {chapter!r} is not a test chapter (test books: {data.split.test})")
    pos = ids.index(key)
    cols: dict[str, list[str]] = {}
    for method, (en, es, metric) in result.embeddings.items():
        s = _scores(en[pos], es, metric)
        order = np.argsort(-s, kind="stable")[:topn]
        cols[method] = [
            f"{'*' if j == pos else ''}{ids[j][0]} {ids[j][1]} ({s[j]:.3f})" for j in order
        ]
    return pd.DataFrame(cols, index=pd.RangeIndex(1, topn + 1, name="rank"))
