"""The views study (notebook ``02_views``): settings, the run's result, its facts, Discussion.

:func:`settings` gives what the notebook builds at a data size (corpus, vocabulary, offsets,
window, treebank split, bitext verses, pretrained GloVe rows); :func:`build_views` builds every
view of the notebook into a frozen :class:`ViewsResult`, whose :meth:`~ViewsResult.records`
defines every record key; the facts below decide each qualitative word of the Discussion
("densest", "grows", "close to the paper's"; each with its rule) and :func:`discussion_02`
renders ``templates/discussion_02.md.j2`` from the records and the MVLSA paper's reported
densities (:mod:`workbench.reported`).

Nothing in this notebook is random and nothing is tested for significance: every fact is a
stated threshold on exact counts.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Literal, TypedDict

import numpy as np
import pandas as pd
from IPython.display import Markdown
from scipy import stats

from workbench import datasets as ds
from workbench import templating
from workbench import views as wv
from workbench._validation import check_choice
from workbench.embeddings import load_pretrained_glove
from workbench.lexicons import LEXICON_KINDS, lexicon_view
from workbench.records import to_jsonable
from workbench.reported import reported
from workbench.studies.data import DataChoice
from workbench.studies.facts import DataFact, check_records, data_fact
from workbench.studies.tour import data_choice

from ._values import as_float

__all__ = [
    "SIZES",
    "ViewsSettings",
    "settings",
    "ViewsResult",
    "ViewsRecords",
    "build_views",
    "PAPER_VOCABULARY",
    "Facts02",
    "facts_02",
    "discussion_02",
]
TEMPLATES = Path(__file__).resolve().parent / "templates"

#: The data sizes of notebook 02.
SIZES = ("small", "full")


@dataclass(frozen=True)
class ViewsSettings:
    """What notebook 02 builds at one data size.

    Attributes
    ----------
    size : str
    corpus, max_tokens : str, int or None
        :func:`workbench.datasets.load_corpus` arguments.
    vocab_size, min_count : int
        The vocabulary (:func:`workbench.views.vocabulary_and_encoding`).
    offsets : tuple of int
        Offsets of the positional views; ``window`` the half-width of the window view.
    conllu : str or None
        UD English-EWT split of the dependency views (None: no dependency view).
    bitext_verses, glove_limit : int or None
        Verses aligned for the bitext view (0: no bitext view); rows of pretrained GloVe read
        (None: all).
    data : DataChoice
        The data chosen (empty: the bundled data). A user's corpus replaces ``corpus``; the
        side views (treebank, bitext, lexicons, GloVe) are built only when
        :meth:`DataChoice.side_views` (the bundled side data is English).
    """

    size: str
    corpus: str
    max_tokens: int | None
    vocab_size: int
    min_count: int
    offsets: tuple[int, ...]
    window: int
    conllu: str | None
    bitext_verses: int | None
    glove_limit: int | None
    data: DataChoice = DataChoice()

    @property
    def side_views(self) -> bool:
        """True when the side views (treebank, bitext, lexicons, GloVe) are built."""
        return self.data.side_views()

    @property
    def corpus_label(self) -> str:
        """The corpus as the notebook names it (a bundled name or the user's file name)."""
        return self.corpus if self.data.bundled_corpus else (Path(self.corpus).name or self.corpus)

    def load_corpus(self) -> ds.Corpus:
        """The corpus of these settings (a user's corpus read in its format and language)."""
        if self.data.bundled_corpus:
            return ds.load_corpus(self.corpus, max_tokens=self.max_tokens)
        return ds.load_corpus(self.corpus, format=self.data.corpus_format,
                              language=self.data.language, max_tokens=self.max_tokens)  # fmt: skip

    def side_views_note(self) -> str:
        """One line naming the side views this run builds (and why the bundled ones are left
        out for a corpus that is not English)."""
        if self.side_views:
            return (f"Side views: the UD English treebank ({self.conllu}), the KJV–Reina-Valera "
                    f"bitext, the {', '.join(LEXICON_KINDS)} lexicons and pretrained GloVe "
                    "6B-50d.")  # fmt: skip
        return ("Side views: none (corpus views only); the bundled treebank, bitext, lexicons "
                f"and GloVe vectors are English and the corpus is LANGUAGE={self.data.language!r}, "
                "so they are not used.")  # fmt: skip


def settings(size: str, **data: Any) -> ViewsSettings:
    """The settings of notebook 02 at ``size`` (``"small"``: 200K tokens, 5K words, offsets 1-4;
    ``"full"``: the 5M-token corpus, 30K words, offsets 1-15). The data fields of
    :class:`workbench.studies.data.DataChoice` (``corpus=``, ``corpus_format=``,
    ``language=``; empty: the bundled data) choose a user's corpus (capped like the bundled one);
    for a corpus that is not English the side views are left out."""
    check_choice(size, "size", SIZES)
    choice = data_choice(data)
    if size == "small":
        base = ViewsSettings(size, corpus="1M", max_tokens=200_000, vocab_size=5_000, min_count=2,
                             offsets=(1, 2, 3, 4), window=2, conllu="dev", bitext_verses=3_000,
                             glove_limit=50_000)  # fmt: skip
    else:
        base = ViewsSettings(size, corpus="5M", max_tokens=None, vocab_size=30_000, min_count=5,
                             offsets=tuple(range(1, 16)), window=5, conllu="train",
                             bitext_verses=None, glove_limit=None)  # fmt: skip
    if choice == DataChoice():
        return base
    changes: dict[str, Any] = {"data": choice, "corpus": choice.corpus_or(base.corpus)}
    if not choice.side_views():
        changes.update(conllu=None, bitext_verses=0)
    return replace(base, **changes)



# --------------------------------------------------------------------------- the result


class ViewsRecords(TypedDict):
    """The records of notebook 02 (JSON values; the one definition of every key)."""

    n_views: int
    n_views_per_family: dict[str, int]
    nnz_per_family: dict[str, int]
    #: mean density of the family's views
    density_per_family: dict[str, float]
    #: mean share of the vocabulary with a nonzero row, over the family's views
    observed_fraction_per_family: dict[str, float]
    vocab_size: int
    n_tokens: int
    oov_rate: float
    n_offsets: int
    n_dependency_views: int
    #: every counted (word, context) pair of the positional views
    positional_pairs: float
    #: the top IBM Model 1 link of *god* (None when *god* is not in the vocabulary)
    bitext_top_god: str | None
    #: None without the GloVe view (a corpus that is not English)
    glove_coverage: float | None
    preprocessed_nnz: int
    preprocessed_is_sparse: bool
    #: ``{offset: density}`` (offsets as strings)
    positional_density: dict[str, float]
    #: ``{relation: nnz}``
    dependency_nnz: dict[str, int]
    treebank_tokens: int
    #: the data the run used (:meth:`workbench.studies.data.DataChoice.describe`)
    data: dict[str, Any]
    #: which side views were built (:meth:`ViewsSettings.side_views_note`)
    side_views_note: str


@dataclass(frozen=True, eq=False)
class ViewsResult:
    """Every view of notebook 02 and its statistics (:func:`build_views`)."""

    settings: ViewsSettings
    vocab: wv.Vocabulary
    encoded: wv.EncodedCorpus = field(repr=False)
    positional: list[wv.View] = field(repr=False)
    window: wv.View = field(repr=False)
    n_sentences: int
    treebank_tokens: int
    dependency: list[wv.View] = field(repr=False)
    #: None without side views (a corpus that is not English)
    bitext: wv.View | None = field(repr=False)
    lexicon: list[wv.View] = field(repr=False)
    glove: wv.View | None = field(repr=False)
    #: observed-row masks of every view (:func:`workbench.views.check_views`)
    masks: list[np.ndarray] = field(repr=False)
    #: one row per view (:func:`workbench.views.view_statistics`)
    stats: pd.DataFrame
    #: the first offset view after the paper's best preprocessing (``x^{1/4}`` and top-t)
    preprocessed: wv.View = field(repr=False)

    @property
    def all_views(self) -> list[wv.View]:
        """Every view, in the order of the notebook's sections."""
        views = [*self.positional, self.window, *self.dependency, self.bitext, *self.lexicon,
                 self.glove]  # fmt: skip
        return [v for v in views if v is not None]

    @property
    def oov_rate(self) -> float:
        """Share of the corpus tokens outside the vocabulary."""
        return float(np.mean(self.encoded.ids < 0))

    @property
    def family_stats(self) -> pd.DataFrame:
        """Per family: ``views``, ``nnz`` (all their nonzeros), ``mean_density`` and
        ``mean_observed_fraction``."""
        return self.stats.groupby("family", sort=False).agg(
            views=("nnz", "size"),
            nnz=("nnz", "sum"),
            mean_density=("density", "mean"),
            mean_observed_fraction=("observed_fraction", "mean"),
        )

    def records(self) -> ViewsRecords:
        """The records of the run (see :class:`ViewsRecords`)."""
        family = self.family_stats
        god = (self.bitext.top_contexts("god", 1)[0][0]
               if self.bitext is not None and "god" in self.vocab else None)  # fmt: skip
        return ViewsRecords(
            n_views=len(self.all_views),
            n_views_per_family=to_jsonable(self.stats["family"].value_counts().to_dict()),
            nnz_per_family={str(k): int(v) for k, v in family["nnz"].items()},
            density_per_family={str(k): float(v) for k, v in family["mean_density"].items()},
            observed_fraction_per_family={
                str(k): float(v) for k, v in family["mean_observed_fraction"].items()
            },
            vocab_size=len(self.vocab),
            n_tokens=int(self.encoded.n_tokens),
            oov_rate=self.oov_rate,
            n_offsets=len(self.positional),
            n_dependency_views=len(self.dependency),
            positional_pairs=float(sum(v.matrix.sum() for v in self.positional)),
            bitext_top_god=None if god is None else str(god),
            glove_coverage=None if self.glove is None else float(self.glove.observed.mean()),
            preprocessed_nnz=int(self.preprocessed.nnz),
            preprocessed_is_sparse=bool(hasattr(self.preprocessed.matrix, "tocsr")),
            positional_density=to_jsonable({v.meta["offset"]: v.density for v in self.positional}),
            dependency_nnz=to_jsonable({v.meta["relation"]: v.nnz for v in self.dependency}),
            treebank_tokens=int(self.treebank_tokens),
            data=self.settings.data.describe(),
            side_views_note=self.settings.side_views_note(),
        )


def build_views(settings: ViewsSettings, *, n_jobs: int = 2, cache: bool = True) -> ViewsResult:
    """Build every view of notebook 02 at ``settings``: the positional and window views of the
    corpus, the dependency views of the treebank, the bitext view of the Bible, the lexicon views
    and the GloVe view, all validated by :func:`workbench.views.check_views`; their statistics;
    and the paper's best preprocessing of the first offset view. ``cache``: reuse the on-disk
    cache of the counted views."""
    if not isinstance(settings, ViewsSettings):
        raise TypeError(f"settings must be a ViewsSettings, got {type(settings).__name__}")
    corpus = settings.load_corpus()
    vocab, encoded = wv.vocabulary_and_encoding(
        corpus, max_size=settings.vocab_size, min_count=settings.min_count
    )
    positional = wv.positional_views(encoded, vocab, settings.offsets, n_jobs=n_jobs, cache=cache)
    window = wv.window_view(encoded, vocab, settings.window, cache=cache)
    side = settings.side_views
    sentences = ds.load_conllu(settings.conllu) if side and settings.conllu else []
    dependency = wv.dependency_views(sentences, vocab) if sentences else []
    bitext = (wv.bitext_view(vocab, n_iter=5, max_sentences=settings.bitext_verses, cache=cache)
              if side and settings.bitext_verses != 0 else None)  # fmt: skip
    lexicon = [lexicon_view(kind, vocab) for kind in LEXICON_KINDS] if side else []
    glove = wv.embedding_view(
        load_pretrained_glove(limit=settings.glove_limit), vocab, name="glove_6b_50d"
    ) if side else None
    all_views = [v for v in [*positional, window, *dependency, bitext, *lexicon, glove]
                 if v is not None]  # fmt: skip
    _, masks = wv.check_views(all_views)
    return ViewsResult(
        settings=settings,
        vocab=vocab,
        encoded=encoded,
        positional=list(positional),
        window=window,
        n_sentences=len(sentences),
        treebank_tokens=sum(len(s) for s in sentences),
        dependency=list(dependency),
        bitext=bitext,
        lexicon=lexicon,
        glove=glove,
        masks=[np.asarray(m) for m in masks],
        stats=wv.view_statistics(all_views),
        preprocessed=wv.preprocess(
            positional[0], "pow", power=0.25, top_t=min(2_000, len(vocab))
        ),
    )


# --------------------------------------------------------------------------- facts

#: The MVLSA paper's vocabulary: "We selected the top 500K words by occurrence" (§3, Data).
PAPER_VOCABULARY = 500_000
#: View families built from counts of a corpus (the others are lexicons or an embedding).
COUNT_FAMILIES = ("positional", "window", "dependency", "bitext")
LEXICON_FAMILIES = ("morphology", "synonyms", "ppdb", "framenet")
#: Observed share from which a family observes "essentially the whole" vocabulary.
ESSENTIALLY_ALL = 0.99
#: Spearman rho over the offsets above which positional density "grows" with the offset.
GROWS_RHO = 0.8
#: Edges up to which the two rarest dependency relations have "a handful".
HANDFUL = 20
#: Spread of the lexicons' observed shares above which they cover clearly different subsets.
SUBSET_SPREAD = 0.1
#: Factor within which a scaled density is "close to" the paper's.
CLOSE_FACTOR = 3.0

WindowPlace = Literal[
    "the densest count family", "denser than the positional views",
    "not denser than the positional views",
]  # fmt: skip
DependencyPlace = Literal["the sparsest family of all", "the sparsest count family",
                          "a sparse family"]  # fmt: skip
Verdict = Literal["close to", "below", "above"]


def _dens(rec: Mapping[str, Any]) -> dict[str, float]:
    return {str(k): float(v) for k, v in rec["density_per_family"].items()}


def _obs(rec: Mapping[str, Any]) -> dict[str, float]:
    return {str(k): float(v) for k, v in rec["observed_fraction_per_family"].items()}


def count_families_by_density(rec: Mapping[str, Any]) -> list[str]:
    """Rule: the count families present (:data:`COUNT_FAMILIES`), densest (mean density) first."""
    dens = _dens(rec)
    return sorted((f for f in COUNT_FAMILIES if f in dens), key=lambda f: -dens[f])


@dataclass(frozen=True)
class OffsetTrend:
    """Positional density against the offset (:func:`offset_trend`)."""

    rho: float
    first_offset: int
    first: float
    last_offset: int
    last: float
    grows: bool


def offset_trend(rec: Mapping[str, Any]) -> OffsetTrend | None:
    """Rule: the density of the offset views "grows with the offset" when the Spearman
    correlation between offset and density exceeds :data:`GROWS_RHO` (a description of exact
    counts; no test); None with fewer than three offsets."""
    pos = {int(k): float(v) for k, v in (rec.get("positional_density") or {}).items()}
    if len(pos) < 3:
        return None
    offsets = sorted(pos)
    rho = float(stats.spearmanr(offsets, [pos[k] for k in offsets])[0])
    return OffsetTrend(rho, offsets[0], pos[offsets[0]], offsets[-1], pos[offsets[-1]],
                       rho > GROWS_RHO)  # fmt: skip


def window_place(rec: Mapping[str, Any]) -> WindowPlace | None:
    """Rule: the window view is "the densest count family" when its density is the highest of
    the count families, else "denser than the positional views" when above their mean density,
    else "not denser than the positional views"; None without both families."""
    dens = _dens(rec)
    if "window" not in dens or "positional" not in dens:
        return None
    if count_families_by_density(rec)[0] == "window":
        return "the densest count family"
    if dens["window"] > dens["positional"]:
        return "denser than the positional views"
    return "not denser than the positional views"


def dependency_place(rec: Mapping[str, Any]) -> DependencyPlace | None:
    """Rule: the dependency views are "the sparsest family of all" when their mean density is
    the lowest of every family, "the sparsest count family" when the lowest of the count
    families, else "a sparse family"; None without dependency views."""
    dens = _dens(rec)
    if "dependency" not in dens:
        return None
    if min(dens, key=lambda f: dens[f]) == "dependency":
        return "the sparsest family of all"
    if count_families_by_density(rec)[-1] == "dependency":
        return "the sparsest count family"
    return "a sparse family"


@dataclass(frozen=True)
class RareRelations:
    """The two rarest dependency relations (:func:`rarest_relations`)."""

    nnz: dict[str, int]
    handful: bool


def rarest_relations(rec: Mapping[str, Any]) -> RareRelations | None:
    """Rule: the two relations with the fewest edges (nonzeros), rarest first; they have "a
    handful of edges" when the second rarest has at most :data:`HANDFUL`. None without
    relations."""
    dep = {str(k): int(v) for k, v in (rec.get("dependency_nnz") or {}).items()}
    if not dep:
        return None
    rare = sorted(dep, key=lambda k: dep[k])[:2]
    return RareRelations({r: dep[r] for r in rare}, dep[rare[-1]] <= HANDFUL)


@dataclass(frozen=True)
class Lexicons:
    """The lexicon views' densities and observed shares (:func:`lexicons`)."""

    density_low: float
    density_high: float
    observed_low: float
    observed_high: float
    different_subsets: bool


def lexicons(rec: Mapping[str, Any]) -> Lexicons | None:
    """Rule: the lexicon families present (:data:`LEXICON_FAMILIES`) observe clearly
    different subsets of the vocabulary when their observed shares differ by more than
    :data:`SUBSET_SPREAD` (sets of different sizes are different sets). None without one."""
    dens, obs = _dens(rec), _obs(rec)
    lex = [f for f in LEXICON_FAMILIES if f in dens]
    if not lex:
        return None
    shares = [obs[f] for f in lex]
    return Lexicons(min(dens[f] for f in lex), max(dens[f] for f in lex), min(shares),
                    max(shares), max(shares) - min(shares) > SUBSET_SPREAD)  # fmt: skip


@dataclass(frozen=True)
class PaperDensity:
    """One family's density against the paper's (:func:`paper_densities`), all in %."""

    family: str
    paper: float
    ours: float
    scaled: float
    verdict: Verdict


def paper_density_table() -> dict[str, float]:
    """The MVLSA paper's view densities in % (:mod:`workbench.reported`)."""
    density = reported("mvlsa", "view_density").table["density %"]
    return {str(k): as_float(v) for k, v in density.items()}


def paper_densities(rec: Mapping[str, Any], paper: Mapping[str, float]) -> list[PaperDensity]:
    """Rule: for morphology and FrameNet, our density scaled by our vocabulary over the
    paper's (:data:`PAPER_VOCABULARY`; density falls like 1/N if the links per word are fixed)
    is "close to" the paper's within a factor :data:`CLOSE_FACTOR`, else "below" / "above"."""
    dens = _dens(rec)
    scale = int(rec["vocab_size"]) / PAPER_VOCABULARY
    out = []
    for f in ("morphology", "framenet"):
        if f in paper and f in dens:
            ours, scaled = 100 * dens[f], 100 * dens[f] * scale
            ratio = scaled / float(paper[f])
            verdict: Verdict = ("close to" if 1 / CLOSE_FACTOR <= ratio <= CLOSE_FACTOR
                                else "below" if ratio < 1 else "above")  # fmt: skip
            out.append(PaperDensity(f, float(paper[f]), ours, scaled, verdict))
    return out


@dataclass(frozen=True)
class Facts02:
    """The facts of notebook 02's Discussion (:func:`facts_02`)."""

    density: dict[str, float]
    observed: dict[str, float]
    positional_observes_all: bool
    denser_than_positional: list[str]
    offsets: OffsetTrend | None
    window: WindowPlace | None
    dependency: DependencyPlace | None
    rare_relations: RareRelations | None
    lexicons: Lexicons | None
    paper: list[PaperDensity]
    paper_vocabulary: int
    glove_missing: float | None
    data: DataFact | None = None


def facts_02(rec: Mapping[str, Any], paper: Mapping[str, float] | None = None) -> Facts02:
    """Every fact of notebook 02's Discussion from its records (``paper``: the paper's densities
    in %, default :func:`paper_density_table`)."""
    dens, obs = _dens(rec), _obs(rec)
    ranked = count_families_by_density(rec)
    place = ranked.index("positional") if "positional" in ranked else 0
    glove = rec.get("glove_coverage")
    return Facts02(
        density=dens,
        observed=obs,
        positional_observes_all=obs.get("positional", 0.0) >= ESSENTIALLY_ALL,
        denser_than_positional=ranked[:place],
        offsets=offset_trend(rec),
        window=window_place(rec),
        dependency=dependency_place(rec),
        rare_relations=rarest_relations(rec),
        lexicons=lexicons(rec),
        paper=paper_densities(rec, paper_density_table() if paper is None else paper),
        paper_vocabulary=PAPER_VOCABULARY,
        glove_missing=None if glove is None else 1 - float(glove),
        data=data_fact(rec),
    )


_NEEDED = ("density_per_family", "observed_fraction_per_family", "vocab_size")


def discussion_02(rec: Mapping[str, Any]) -> Markdown:
    """The Discussion of notebook 02, rendered from its records by
    ``templates/discussion_02.md.j2``.

    Parameters
    ----------
    rec : mapping
        The run's records (:meth:`ViewsResult.records`): ``density_per_family``,
        ``observed_fraction_per_family``, ``vocab_size`` and, for their sentences,
        ``positional_density``, ``dependency_nnz``, ``treebank_tokens``, ``bitext_top_god``,
        ``glove_coverage``.

    Returns
    -------
    IPython.display.Markdown
    """
    check_records(rec, _NEEDED, notebook="02")
    return templating.render(TEMPLATES, "discussion_02.md.j2", r=rec, facts=facts_02(rec))
