r"""The Multiview LSA study: baselines, a dev-tuned path, view ablations and embedding fusion.

The logic behind notebooks ``03_mvlsa`` (the baselines and the dev-tuned path over the
hyper-parameters of Rastogi, Van Durme & Arora 2015, Tables 3--7), ``04_ablation`` (Table 8)
and ``05_fusion`` (Table 9), as pure functions returning frozen results and DataFrames:

* :func:`settings` -- the ``"small"`` / ``"full"`` / ``"large"`` data sizes (corpus,
  vocabulary, views, the paper's MVLSA configuration, the values the path tries, baselines);
  every notebook of the study starts with ``settings = mvlsa.settings(DATA_SIZE)``;
* :func:`build_view_set` -- corpus, vocabulary and every view family for those settings, in
  the verified cache (namespace ``mvlsa/viewsets``, so the three notebooks share one build);
* :func:`corpus_baselines` -- PPMI-SVD, skip-gram and GloVe trained on the same corpus with the
  settings their users train them with (cached; GloVe's chosen on the dev halves by
  :func:`tune_glove` and run until its loss flattens); :func:`lexicon_graph`,
  :func:`retrofitted` -- the baselines retrofitted to the lexicons of the lexicon views;
* :class:`FactorStore`, :func:`combine_factors` -- MVLSA by parts: each view's truncated SVD
  computed once, combined for many configurations (equal to :class:`workbench.gcca.MVLSA`);
* :func:`tuning_path`, :func:`study_tuning`, :func:`tuned_choice` -- one factor at a time
  (``n_j``, ``W_j``, relative ``r``, view families, positional scheme, ``m``, ``k``), chosen on
  the dev halves of the rating sets with Holm-corrected tests against the previous step;
  :func:`test_comparison` / :func:`seed_comparison` read the test halves once (unweighted and
  :func:`pair_weighted_mean` means);
  :func:`path_claims` tests the paper's claims on the dev halves (Williams' t per set, Holm over
  the claims' tests);
* :func:`paper_config` -- the paper's best configuration (Count^1/4, t = 12.5K, m = 500,
  k = 300, v = 16) scaled to the data, with a table of paper value, used value and why;
  :func:`paper_grids` scores its grids (Tables 3--7, r_j from 1e-10 to 1) on the dev halves in
  every seed and :func:`grid_claims` tests the paper's claims on them (Williams' t per set, Holm
  over each grid's tests, a status per seed);
* :class:`MVLSAConfig`, :func:`fit_mvlsa`, :func:`evaluate_system` -- one MVLSA system and its
  scores (word-similarity Spearman per rating set; AN-SYN / AN-SEM analogy accuracy);
* :func:`run_grid`, :func:`run_study` -- a grid over one of ``n_j, t, m, k, v, r``;
* :func:`ablation_study`, :func:`choice_ablation` -- remove views / view families, drops and
  their significance (Williams' test per rating set, McNemar for analogies, Holm over the table);
* :func:`fusion_study`, :func:`choice_fusion` -- Table 9 with the gain columns (``†``
  significant after Holm) and the ``r_s`` columns;
* :func:`run_mvlsa`, :func:`run_ablation`, :func:`run_fusion` -- notebooks 03, 04 and 05 as one
  call each, returning frozen results (:class:`MVLSARun`, :class:`AblationRun`,
  :class:`FusionRun`) whose ``records()`` define every record key of the notebook;
* :func:`discussion_03`, :func:`discussion_04`, :func:`discussion_05` -- the notebooks'
  Discussion rendered from a run's records by the templates in ``templates/``, every
  qualitative word decided by a fact of ``_facts`` (with the findings that move between data
  sizes).

Notes
-----
The systems compared are MVLSA embeddings

.. math:: G = \arg\max_{G^\top G = I} \operatorname{tr}\Big(G^\top K^{-1/2}
          \sum_j \tilde P_j K^{-1/2} G\Big), \qquad
          \tilde P_j = X_j (X_j^\top X_j + r_j I)^{-1} X_j^\top,

with :math:`X_j` the centred :math:`f_j(Z_j) = n_j(t_j(Z_j))` restricted to its rank-``m``
SVD (:class:`workbench.gcca.MVLSA`). Word-similarity scores are Spearman's :math:`\rho` between
cosines and gold ratings over the pairs the system covers; MRDS is
:math:`\sigma^{0.9}_{0.05}` (:func:`workbench.significance.mrds_correlation` at the number of
pairs scored) and :func:`workbench.significance.mrds_accuracy` for analogies.

References
----------
P. Rastogi, B. Van Durme, R. Arora (2015). Multiview LSA: Representation Learning via
Generalized CCA. NAACL-HLT (Sections 4--5, Tables 2--9).
"""

from __future__ import annotations

from workbench.studies.mvlsa._baselines import (
    BASELINE_NAMES,
    GLOVE_CANDIDATES,
    LEXICON_FAMILIES,
    RETROFIT_SETTINGS,
    CorpusBaselines,
    GloveTuning,
    corpus_baselines,
    corpus_baselines_seeds,
    lexicon_families,
    lexicon_graph,
    retrofitted,
    tune_glove,
)
from workbench.studies.mvlsa._certificate import certificate_note, choice_certificate
from workbench.studies.mvlsa._claims import (
    CLAIM_STATUSES,
    GRID_CLAIMS_TEST,
    PAPER_TABLES,
    GridClaims,
    PaperGrids,
    PathClaims,
    grid_claims,
    paper_grids,
    path_claims,
)
from workbench.studies.mvlsa._comparison import (
    COMPARISON_TEST,
    SeedComparison,
    TestComparison,
    pair_weighted_mean,
    seed_comparison,
    test_comparison,
)
from workbench.studies.mvlsa._discussion import (
    compare_sizes,
    discussion_03,
    discussion_04,
    discussion_05,
    findings,
)
from workbench.studies.mvlsa._factors import FactorStore, ViewFactor, combine_factors
from workbench.studies.mvlsa._facts import facts_03, facts_04, facts_05
from workbench.studies.mvlsa._fusion import (
    GAIN_COLUMNS,
    FusionResult,
    FusionSeeds,
    fusion_seeds,
    fusion_study,
)
from workbench.studies.mvlsa._grids import (
    AblationResult,
    AblationSeeds,
    GridResult,
    ablation_seeds,
    ablation_study,
    default_removals,
    run_grid,
    run_study,
)
from workbench.studies.mvlsa._run_mvlsa import MVLSARecords, MVLSARun, run_mvlsa
from workbench.studies.mvlsa._run_tables import (
    AblationRecords,
    AblationRun,
    FusionRecords,
    FusionRun,
    run_ablation,
    run_fusion,
    system_inputs,
)
from workbench.studies.mvlsa._settings import (
    ANALOGY_SETS,
    PAPER_CONFIG,
    PAPER_GRIDS,
    PAPER_N_VIEWS,
    PAPER_VOCAB,
    PAPER_WORDSIM,
    PARAM_ALIASES,
    STUDY_SIZES,
    MVLSAConfig,
    PaperConfig,
    StudySettings,
    grid_values,
    paper_config,
    rank_floors,
    scaled_value,
    settings,
)
from workbench.studies.mvlsa._systems import (
    FittedSystem,
    SystemEvaluation,
    evaluate_system,
    fit_mvlsa,
)
from workbench.studies.mvlsa._tables import marked_table, mrds_column, pairwise_tests, scores_frame
from workbench.studies.mvlsa._tuning import (
    POSITIONAL_SCHEMES,
    MVLSAChoice,
    TuningResult,
    TuningStep,
    choice_ablation,
    choice_fusion,
    choice_vectors,
    default_tuning_steps,
    positional_scheme,
    split_wordsim,
    study_store,
    study_tuning,
    tuned_choice,
    tuning_path,
)
from workbench.studies.mvlsa._viewsets import ViewSet, build_view_set, usable_views

__all__ = [
    "PARAM_ALIASES",
    "PAPER_WORDSIM",
    "ANALOGY_SETS",
    "MVLSAConfig",
    "StudySettings",
    "settings",
    "ViewSet",
    "build_view_set",
    "usable_views",
    "FittedSystem",
    "fit_mvlsa",
    "SystemEvaluation",
    "evaluate_system",
    "scores_frame",
    "mrds_column",
    "marked_table",
    "pairwise_tests",
    "GridResult",
    "run_grid",
    "run_study",
    "AblationResult",
    "default_removals",
    "ablation_study",
    "FusionResult",
    "fusion_study",
    "FactorStore",
    "ViewFactor",
    "combine_factors",
    "POSITIONAL_SCHEMES",
    "MVLSAChoice",
    "TuningStep",
    "TuningResult",
    "TestComparison",
    "choice_vectors",
    "default_tuning_steps",
    "positional_scheme",
    "split_wordsim",
    "test_comparison",
    "GAIN_COLUMNS",
    "FusionSeeds",
    "fusion_seeds",
    "AblationSeeds",
    "ablation_seeds",
    "seed_comparison",
    "SeedComparison",
    "tuning_path",
    "study_tuning",
    "study_store",
    "tuned_choice",
    "path_claims",
    "PathClaims",
    "GRID_CLAIMS_TEST",
    "PAPER_TABLES",
    "GridClaims",
    "PaperGrids",
    "grid_claims",
    "paper_grids",
    "PAPER_CONFIG",
    "PAPER_GRIDS",
    "PAPER_N_VIEWS",
    "PAPER_VOCAB",
    "PaperConfig",
    "grid_values",
    "rank_floors",
    "paper_config",
    "scaled_value",
    "CLAIM_STATUSES",
    "run_mvlsa",
    "certificate_note",
    "choice_certificate",
    "MVLSARun",
    "MVLSARecords",
    "run_ablation",
    "AblationRun",
    "AblationRecords",
    "run_fusion",
    "FusionRun",
    "FusionRecords",
    "system_inputs",
    "facts_03",
    "facts_04",
    "facts_05",
    "choice_ablation",
    "choice_fusion",
    "BASELINE_NAMES",
    "CorpusBaselines",
    "corpus_baselines",
    "corpus_baselines_seeds",
    "GLOVE_CANDIDATES",
    "LEXICON_FAMILIES",
    "RETROFIT_SETTINGS",
    "GloveTuning",
    "lexicon_families",
    "lexicon_graph",
    "retrofitted",
    "tune_glove",
    "COMPARISON_TEST",
    "pair_weighted_mean",
    "STUDY_SIZES",
    "discussion_03",
    "discussion_04",
    "discussion_05",
    "findings",
    "compare_sizes",
]
