"""Notebook 03 as one function: baselines, the paper's grids and claims, the dev-tuned path and
the test halves.

:func:`run_mvlsa` returns a frozen :class:`MVLSARun`; its :meth:`MVLSARun.records` is the one
definition of every record key of notebook ``03_mvlsa``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, TypedDict, cast

import pandas as pd

from workbench._validation import check_bool, check_int
from workbench.evaluation import evaluate_system
from workbench.gcca import AccuracyCertificate
from workbench.records import to_jsonable
from workbench.studies.mvlsa._baselines import (
    BASELINE_NAMES,
    RETROFIT_SETTINGS,
    CorpusBaselines,
    corpus_baselines_seeds,
    lexicon_families,
    lexicon_graph,
    retrofitted,
)
from workbench.studies.mvlsa._certificate import choice_certificate
from workbench.studies.mvlsa._claims import (
    CLAIM_STATUSES,
    GRID_CLAIMS_TEST,
    PAPER_TABLES,
    GridClaims,
    PaperGrids,
    grid_claims,
    paper_grids,
)
from workbench.studies.mvlsa._comparison import SeedComparison, seed_comparison
from workbench.studies.mvlsa._factors import FactorStore
from workbench.studies.mvlsa._settings import StudySettings, check_instance, check_sequence
from workbench.studies.mvlsa._tables import mrds_column
from workbench.studies.mvlsa._tuning import (
    TuningResult,
    check_coverage,
    choice_vectors,
    scored_wordsim,
    split_wordsim,
    study_store,
    study_tuning,
)
from workbench.studies.mvlsa._viewsets import ViewSet, _check_view_set

__all__ = ["CORPUS_VIEWS", "LEXICON_VIEWS", "MVLSARecords", "MVLSARun", "run_mvlsa"]

#: The tuned configuration on the corpus views alone (the baselines' data).
CORPUS_VIEWS = "MVLSA (tuned, corpus views)"
#: The tuned configuration on the corpus and lexicon views (the retrofitted baselines' data).
LEXICON_VIEWS = "MVLSA (tuned, corpus + lexicon views)"
#: The suffix of a baseline retrofitted to the lexicons of the lexicon views.
RETROFIT_SUFFIX = " + RF"


class MVLSARecords(TypedDict):
    """The records of notebook ``03_mvlsa`` (JSON values; seeds as string keys)."""

    n_views: int
    views_per_family: dict[str, int]
    vocab_size: int
    n_tokens: int
    seeds: list[int]
    baseline_settings: dict[str, dict[str, Any]]
    baseline_seconds: dict[str, dict[str, float]]
    glove_loss: list[float]
    glove_loss_per_seed: dict[str, list[float]]
    glove_stop: dict[str, Any]
    glove_stop_per_seed: dict[str, str | None]
    glove_tuning: dict[str, Any]
    tuning_path: dict[str, dict[str, Any]]
    tuning_order: list[str]
    tuning_scores: dict[str, dict[str, dict[str, float | None]]]
    tuning_means: dict[str, dict[str, float]]
    tuned: dict[str, str | int]
    start: dict[str, str | int]
    mrds_dev_men: float | None
    mrds_dev: float | None
    mrds_dev_set: str
    data: dict[str, Any]
    side_views_note: str
    wordsim_pairs: dict[str, dict[str, int]]
    test_scores: dict[str, dict[str, float | None]]
    test_scores_sd: dict[str, dict[str, float | None]]
    test_mean: dict[str, float | None]
    test_mean_per_seed: dict[str, dict[str, float | None]]
    test_tests: list[dict[str, Any]]
    test_wins: dict[str, dict[str, int]]
    test_mean_pair_weighted: dict[str, float | None]
    corpus_comparison: dict[str, Any]
    lexicon_comparison: dict[str, Any]
    claims: dict[str, dict[str, Any]]
    claims_per_seed: list[dict[str, Any]]
    claims_test: str
    claims_family_size: dict[str, int]
    claims_not_tested: str
    paper_config: dict[str, dict[str, str]]
    grids: dict[str, dict[str, Any]]
    n_factorizations: int
    certificate_angle_bound: float | None


@dataclass(frozen=True, eq=False)
class MVLSARun:
    """Everything notebook 03 shows and records.

    Attributes
    ----------
    view_set : ViewSet
    seeds : tuple of int
    baselines : dict
        ``{seed: CorpusBaselines}``.
    tuning : TuningResult
        The dev-tuned path (walked with the first seed).
    mrds_dev_men : float
        MRDS of the first tuning set's dev half (MEN's on the bundled data) at the pairs the tuned
        MVLSA scores; without a path (``WORDSIM_SPLIT="all"`` on a non-English corpus), of the
        first scored set, every pair.
    mrds_set : str
        The set (and part) that MRDS is of, e.g. ``"MEN dev"``.
    settings : StudySettings
        The settings of the run (its data: ``settings.data``).
    grids : PaperGrids or None
        The paper's grids (Tables 3--7, r_j) around its configuration, on the dev halves per
        seed (None without a rating set to tune on).
    comparison : SeedComparison
        The test halves: the tuned MVLSA (all views) against every other system, per seed (a
        system with views the baselines never see; :attr:`corpus_comparison` is the like-for-like
        one).
    corpus_comparison : SeedComparison
        The headline: the tuned configuration on the corpus views alone against PPMI-SVD, SGNS and
        GloVe (same corpus, same vocabulary), Holm over that table per seed.
    lexicon_comparison : SeedComparison or None
        The tuned configuration on the corpus and lexicon views against PPMI-SVD, SGNS and GloVe
        retrofitted (Faruqui et al. 2015) to the same lexicons, Holm over that table per seed;
        None when the view set has no lexicon view.
    claims : GridClaims
        The paper's claims tested on its grids, on the dev halves, in every seed (no rows when
        the run has no grids).
    n_factorizations : int
        View factorizations computed (the store's count at the end of the run).
    certificate : AccuracyCertificate or None
        ``MVLSA.accuracy_`` of an MVLSA fit of the tuned configuration (first seed; see
        :func:`workbench.studies.mvlsa.choice_certificate`); None when not computed.
    claims_not_tested : str
        Why the run has no grids and tests none of the paper's claims (``""``: it has them).
    """

    view_set: ViewSet
    seeds: tuple[int, ...]
    baselines: dict[int, CorpusBaselines]
    tuning: TuningResult
    mrds_dev_men: float
    comparison: SeedComparison
    corpus_comparison: SeedComparison
    lexicon_comparison: SeedComparison | None
    claims: GridClaims
    n_factorizations: int
    mrds_set: str = "MEN dev"
    settings: StudySettings | None = None
    grids: PaperGrids | None = None
    certificate: AccuracyCertificate | None = None
    claims_not_tested: str = ""

    @property
    def view_counts(self) -> pd.Series:
        """Views per family."""
        return pd.Series({f: len(v) for f, v in self.view_set.families().items()}, name="views")

    @property
    def path(self) -> pd.DataFrame:
        """One row per step of the path (:meth:`TuningResult.summary`)."""
        return self.tuning.summary()

    @property
    def wins(self) -> pd.DataFrame:
        """Per system: sets on which the tuned MVLSA is significantly better / worse."""
        return self.comparison.wins()

    def _grid_records(self) -> dict[str, dict[str, Any]]:
        """Per grid parameter: its paper table, the values (paper label -> used value), the mean
        dev Spearman per seed and value, and the first seed's dev scores."""
        g = self.grids
        if g is None:
            return {}
        return {
            p: {"table": PAPER_TABLES[p],
                "used": {str(k): v for k, v in vals["used"].items()},
                "dev_means": {seed: row.to_dict() for seed, row in g.means(p).iterrows()},
                "dev_scores": g.scores[g.seeds[0]][p].to_dict()}
            for p, vals in g.values.items()
        }  # fmt: skip

    def records(self) -> MVLSARecords:
        """The records of notebook 03 (the one definition of its keys)."""
        vs, tuning, cmp = self.view_set, self.tuning, self.comparison
        first = self.baselines[self.seeds[0]]
        path = self.path
        claims = self.claims.table
        ref_eval = cmp.per_seed[self.seeds[0]].evaluations[cmp.reference]
        values = {
            "n_views": len(vs.views),
            "views_per_family": self.view_counts.to_dict(),
            "vocab_size": len(vs.vocab),
            "n_tokens": vs.info["n_tokens"],
            "seeds": list(self.seeds),
            "baseline_settings": first.settings,
            "baseline_seconds": {seed: b.seconds for seed, b in self.baselines.items()},
            "glove_loss": first.glove_loss,
            "glove_loss_per_seed": {seed: b.glove_loss for seed, b in self.baselines.items()},
            "glove_stop": first.glove_stop(),
            "glove_stop_per_seed": {s: b.glove_stopped_by for s, b in self.baselines.items()},
            "glove_tuning": first.glove_tuning.records() if first.glove_tuning else {},
            "tuning_path": path.to_dict(orient="index"),
            "tuning_order": list(path.index),
            "tuning_scores": {s.factor: s.scores.to_dict() for s in tuning.steps},
            "tuning_means": {s.factor: s.mean.to_dict() for s in tuning.steps},
            "tuned": tuning.best.describe(),
            "start": tuning.start.describe(),
            "mrds_dev_men": self.mrds_dev_men if self.mrds_set == "MEN dev" else None,
            "mrds_dev": self.mrds_dev_men,
            "mrds_dev_set": self.mrds_set,
            "data": self.settings.data.describe() if self.settings is not None else {},
            "side_views_note": self.settings.side_views_note() if self.settings else "",
            "wordsim_pairs": {
                name: {"pairs": int(r.n_pairs), "scored": int(r.n_scored)}
                for name, r in ref_eval.wordsim.items()
            },
            "test_scores": cmp.scores.mean.to_dict(),
            "test_scores_sd": cmp.scores.sd.to_dict(),
            "test_mean": cmp.scores.mean.loc["mean"].to_dict(),
            "test_mean_per_seed": {
                seed: c.scores.loc["mean"].to_dict() for seed, c in cmp.per_seed.items()
            },  # fmt: skip
            "test_tests": cmp.tests.to_dict(orient="records"),
            "test_wins": self.wins.to_dict(orient="index"),
            "test_mean_pair_weighted": cmp.pair_weighted.mean.iloc[0].to_dict()
            if cmp.pair_weighted is not None
            else {},
            "corpus_comparison": self.corpus_comparison.records(),
            "lexicon_comparison": (
                {
                    **self.lexicon_comparison.records(),
                    "lexicon_families": lexicon_families(vs),
                    "retrofit": dict(RETROFIT_SETTINGS),
                }
                if self.lexicon_comparison is not None
                else {}
            ),  # fmt: skip
            "claims": claims.to_dict(orient="index"),
            "claims_per_seed": self.claims.per_seed.to_dict(orient="records"),
            "claims_test": GRID_CLAIMS_TEST,
            "claims_family_size": self.claims.family_sizes,
            "claims_not_tested": self.claims_not_tested,
            "paper_config": (
                self.grids.paper.to_dict(orient="index") if self.grids is not None else {}
            ),
            "grids": self._grid_records(),
            "n_factorizations": self.n_factorizations,
            # degrees, 3 significant digits (90: not certified; None: not computed)
            "certificate_angle_bound": None
            if self.certificate is None
            else float(f"{self.certificate.angle_bound:.3g}"),
        }
        return cast(MVLSARecords, to_jsonable(values))


def run_mvlsa(
    view_set: ViewSet,
    settings: StudySettings,
    *,
    seeds: Sequence[int],
    store: FactorStore | None = None,
    progress: bool | None = None,
    with_grids: bool = True,
) -> MVLSARun:
    """Notebook 03: train the baselines for every seed, score the paper's grids around its
    configuration on the dev halves and test its claims on them in every seed, walk the
    dev-tuned path (from the paper's configuration) with the first seed, and score every system
    on the test halves once per seed.

    Parameters
    ----------
    view_set : ViewSet
        From :func:`build_view_set`.
    settings : StudySettings
        From :func:`settings`.
    seeds : sequence of int
        The seeds (:func:`workbench.significance.seed_list`); the path uses the first.
    store : FactorStore, optional
        Where the view factors are computed (e.g. ``FactorStore(backend="dask")``).
    progress : bool or None
        Show progress bars (None: tqdm decides; it hides them when the output is not a
        terminal).
    with_grids : bool
        Score the paper's grids and test its claims (the default). False leaves them out (at
        the full size they are most of the run's time): the run then records why
        (``claims_not_tested``) and everything else is what it would have been, because the
        store's rank floors still cover the grids (:func:`study_store`).
    """
    _check_view_set(view_set)
    with_grids = check_bool(with_grids, "with_grids")
    check_instance(settings, "settings", StudySettings,
                    "a StudySettings (from workbench.studies.mvlsa.settings)")  # fmt: skip
    seeds = tuple(check_int(s, "seeds entries", low=0) for s in check_sequence(seeds, "seeds"))
    store = study_store(view_set, settings, store)
    baselines = corpus_baselines_seeds(view_set, settings, n_components=settings.config.n_components,
                                       seeds=seeds)  # fmt: skip
    if not settings.dev_wordsim:
        not_tested = ("no rating set has a dev half to tune on (WORDSIM_SPLIT=\"all\" scores every "
                      "pair)")  # fmt: skip
    elif not with_grids:
        not_tested = "the paper's grids were left out of this run (PAPER_GRIDS = False)"
    else:
        not_tested = ""
    grids = (None if not_tested else
             paper_grids(view_set, settings, seeds=seeds, store=store, progress=progress))  # fmt: skip
    tuning = study_tuning(view_set, settings, seed=seeds[0], store=store, progress=progress)
    scored = scored_wordsim(settings)
    if settings.dev_wordsim:  # the band of the path: the first tuning set's dev half
        band_set = split_wordsim(settings.dev_wordsim[:1], "dev")[0]
        band_label = f"{band_set.attrs.get('name', settings.dev_wordsim[0])} dev"
    else:  # no path: the first scored set
        band_set = split_wordsim(scored[:1], "test")[0]
        band_label = f"{band_set.attrs.get('name', settings.wordsim[0])} " + (
            "all" if settings.score_all_pairs else "test"
        )
    best = choice_vectors(view_set, tuning.best, store)
    mrds = mrds_column([evaluate_system(best, name="best", wordsim=[band_set], analogies=False)])
    systems = {
        seed: {
            "MVLSA (paper config)": choice_vectors(view_set, tuning.start.with_seed(seed), store),
            "MVLSA (tuned)": choice_vectors(view_set, tuning.best.with_seed(seed), store),
            CORPUS_VIEWS: choice_vectors(
                view_set,
                dataclasses.replace(tuning.best, families=("positional",)).with_seed(seed),
                store,
            ),
            **baselines[seed].vectors,
        }
        for seed in seeds
    }
    check_coverage(scored, view_set.words)
    comparison = seed_comparison(systems, reference="MVLSA (tuned)", names=scored,
                                 restrict_to=view_set.words)  # fmt: skip
    corpus_only = {seed: {n: sysm[n] for n in (CORPUS_VIEWS, *BASELINE_NAMES)}
                   for seed, sysm in systems.items()}  # fmt: skip
    corpus_comparison = seed_comparison(corpus_only, reference=CORPUS_VIEWS, names=scored,
                                        restrict_to=view_set.words)  # fmt: skip
    lexicon_comparison = None
    lex = lexicon_families(view_set)
    if lex:
        graph = lexicon_graph(view_set, lex)
        choice = dataclasses.replace(tuning.best, families=("positional", *lex))
        with_lexicons = {
            seed: {
                LEXICON_VIEWS: choice_vectors(view_set, choice.with_seed(seed), store),
                **{n + RETROFIT_SUFFIX: retrofitted(baselines[seed].vectors[n], graph,
                                                    view_set.words)
                   for n in BASELINE_NAMES},
            }
            for seed in seeds
        }  # fmt: skip
        lexicon_comparison = seed_comparison(with_lexicons, reference=LEXICON_VIEWS, names=scored,
                                             restrict_to=view_set.words)  # fmt: skip
    claims = grid_claims(grids) if grids is not None else _no_claims()
    return MVLSARun(view_set, seeds, baselines, tuning, float(mrds.iloc[0]), comparison,
                    corpus_comparison, lexicon_comparison, claims, store.n_computed, band_label,
                    settings, grids, choice_certificate(view_set, tuning.best),
                    not_tested)  # fmt: skip


def _no_claims() -> GridClaims:
    """The claims of a run without grids (no rating set to tune on, or the grids left out): none
    tested; the tables have the columns of :func:`grid_claims`' tables, without rows."""
    columns = ["table", "kind", "a", "b", "dev mean a", "dev mean b",
               *(f"seeds {st}" for st in CLAIM_STATUSES), "n seeds", "status", "reason"]  # fmt: skip
    table = pd.DataFrame(columns=columns, index=pd.Index([], name="claim"))
    per_seed = pd.DataFrame(columns=["claim", "seed", "a", "b", "sets better", "sets worse",
                                     "n sets", "status"])  # fmt: skip
    return GridClaims(table, per_seed, pd.DataFrame(), {})
