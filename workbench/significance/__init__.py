"""Significance testing for comparisons of representations.

* :func:`dependent_corr` -- ten tests for two *dependent overlapping* correlations
  :math:`r_{jk}` vs :math:`r_{jh}` (two systems' scores vs the same gold ratings ``j``), implemented
  from their original definitions as documented by the R package ``cocor``
  (Diedenhofen & Musch 2015, ``cocor.dep.groups.overlap``), whose conventions they follow.
* :func:`mrds_correlation`, :func:`mrds_accuracy` -- the Minimum Required Difference for
  Significance of Rastogi, Van Durme & Arora (2015), reproducing their Table 2
  (:data:`MVLSA_TABLE2`).
* :func:`compare_wordsim`, :func:`compare_accuracy` -- two systems on one data set.
* :func:`bootstrap_ci`, :func:`bonferroni`, :func:`holm`, :func:`smallest_superior_set` -- many
  systems, many data sets (Platt, Toutanova & Yih 2010).
* :func:`seed_summary`, :func:`seed_agreement` -- mean ± sd over random seeds and how many
  seeds a finding holds for.
* :func:`results_table` -- systems x data sets tables rendered like the papers' (bold best, †
  significant gain, MRDS column) to Markdown, LaTeX and CSV.
"""

from .compare import (
    AccuracyComparisonResult,
    BootstrapResult,
    ComparisonResult,
    SuperiorSetResult,
    adjust_finite,
    bonferroni,
    bootstrap_ci,
    compare_accuracy,
    compare_wordsim,
    compare_wordsim_suite,
    holm,
    smallest_superior_set,
)
from .correlations import (
    DEPENDENT_CORR_METHODS,
    DependentCorrResult,
    dependent_corr,
    dependent_corr_table,
)
from .mrds import (
    MVLSA_FOOTNOTE4_TOEFL,
    MVLSA_TABLE2,
    mrds_accuracy,
    mrds_correlation,
    mvlsa_table2,
    mvlsa_table2_comparison,
    posterior_prob_better,
)
from .seeds import SeedSummary, format_mean_sd, seed_agreement, seed_list, seed_summary
from .tables import ResultsTable, results_table

__all__ = [
    "SeedSummary",
    "seed_list",
    "seed_summary",
    "seed_agreement",
    "format_mean_sd",
    "DEPENDENT_CORR_METHODS",
    "MVLSA_TABLE2",
    "MVLSA_FOOTNOTE4_TOEFL",
    "DependentCorrResult",
    "ComparisonResult",
    "AccuracyComparisonResult",
    "BootstrapResult",
    "SuperiorSetResult",
    "ResultsTable",
    "dependent_corr",
    "dependent_corr_table",
    "mrds_correlation",
    "mrds_accuracy",
    "mvlsa_table2",
    "mvlsa_table2_comparison",
    "posterior_prob_better",
    "compare_wordsim",
    "compare_wordsim_suite",
    "compare_accuracy",
    "bootstrap_ci",
    "bonferroni",
    "holm",
    "adjust_finite",
    "smallest_superior_set",
    "results_table",
]
