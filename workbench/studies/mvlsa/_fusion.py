"""Embedding fusion (Table 9): corpus baselines, MV-G-WSG, gains and the r_s columns."""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import stats
from tqdm.auto import tqdm

from workbench._validation import check_bool, check_float
from workbench.embeddings import WordVectors
from workbench.gcca import MVLSA
from workbench.significance import (
    ResultsTable,
    SeedSummary,
    adjust_finite,
    seed_agreement,
    seed_summary,
)
from workbench.studies.mvlsa._settings import (
    PAPER_WORDSIM,
    MVLSAConfig,
    _check_seed_results,
    check_instance,
    check_sequence,
)
from workbench.studies.mvlsa._systems import (
    SystemEvaluation,
    _check_vectors,
    evaluate_system,
    fit_mvlsa,
)
from workbench.studies.mvlsa._tables import marked_table, pairwise_tests, scores_frame
from workbench.studies.mvlsa._viewsets import ViewSet, _check_view_set
from workbench.views import embedding_view

logger = logging.getLogger(__name__)

__all__ = [
    "FusionResult",
    "fusion_study",
    "GAIN_COLUMNS",
    "FusionSeeds",
    "fusion_seeds",
    "PRETRAINED_GLOVE",
]


# ============================================================================================
# fusion (Table 9)
# ============================================================================================
@dataclass(frozen=True, eq=False)
class FusionResult:
    """Table 9: systems, gains and r_s.

    Attributes
    ----------
    scores : DataFrame
        Test sets x the systems (six, plus "MVLSA Combined" when requested).
    gains : DataFrame
        The paper's gain columns: ``MV Gain`` = MVLSA (all views) - MVLSA (corpus views) (the
        paper's *Wiki* column); ``G-WSG Gain`` = MVLSA Combined - MVLSA (all views) (what adding
        the GloVe and WSG embedding views to the GCCA gains; only with ``combined``). Each over the
        items both systems score, with ``*_pvalue`` (two-sided, uncorrected), ``*_pvalue_holm``
        (Holm over every gain cell of the table) and ``*_significant`` (``*_pvalue_holm <
        alpha``) columns.
    r_s : DataFrame
        Spearman correlation of the pair similarities (cosines) of MVLSA (all views) and of
        MV-G-WSG with those of GloVe and of skip-gram (the paper's four r_s columns) and, with
        ``combined``, of MVLSA Combined with them (rating sets only; pairs scored by both).
    table : DataFrame
        Formatted table: marked systems (bold within MRDS), gains with ``†``, r_s (points).
    marked : ResultsTable
    """

    scores: pd.DataFrame
    gains: pd.DataFrame
    r_s: pd.DataFrame
    table: pd.DataFrame
    marked: ResultsTable
    evaluations: dict[str, SystemEvaluation]
    systems: dict[str, WordVectors]


def _rs(a: SystemEvaluation, b: SystemEvaluation, row: str) -> float:
    pa = np.asarray(a.wordsim[row].pred, float)
    pb = np.asarray(b.wordsim[row].pred, float)
    ok = ~np.isnan(pa) & ~np.isnan(pb)
    if ok.sum() < 3 or np.ptp(pa[ok]) == 0 or np.ptp(pb[ok]) == 0:
        return float("nan")
    return float(stats.spearmanr(pa[ok], pb[ok])[0])


#: The label of the bundled pretrained vectors (GloVe 6B, 50 dimensions) in Table 9.
PRETRAINED_GLOVE = "GloVe 6B-50d"


def fusion_study(
    view_set: ViewSet,
    config: MVLSAConfig,
    *,
    glove: WordVectors,
    wsg: WordVectors,
    pretrained: WordVectors | Mapping[str, WordVectors] | None = None,
    corpus_families: Sequence[str] = ("positional",),
    fuse: Sequence[str] = ("GloVe", "WSG"),
    combined: bool = True,
    wordsim: Sequence[str | pd.DataFrame] = PAPER_WORDSIM,
    analogies: bool = True,
    alpha: float = 0.05,
    vectors_of: Callable[[ViewSet], WordVectors] | None = None,
    extra: Mapping[str, WordVectors] | None = None,
) -> FusionResult:
    """Table 9: MVLSA (corpus views), MVLSA (all views), GloVe, WSG, pretrained GloVe and MV-G-WSG.

    The columns as the paper defines them (Rastogi et al. 2015, Table 9 and Section 5):
    MV-G-WSG is the GCCA (:class:`workbench.gcca.MVLSA`, ``m`` = each embedding's dimension,
    ``k = config.n_components``) of the systems named in ``fuse`` -- by default GloVe and WSG
    alone -- each as a dense embedding view over the vocabulary (words a system lacks are
    missing rows). With ``combined``, "MVLSA Combined" = MVLSA over all the views *plus* the
    GloVe and WSG embedding views, and ``G-WSG Gain`` = Combined - MVLSA (all views);
    ``MV Gain`` = MVLSA (all views) - MVLSA (corpus views). All systems are evaluated on the view
    set's
    vocabulary (``restrict_to``), so pretrained GloVe is scored on the same pairs and answer
    vocabulary as the others. ``pretrained`` is one set of vectors (labelled
    :data:`PRETRAINED_GLOVE`) or a mapping ``{label: vectors}`` (e.g. a user's files by name); a
    label in ``fuse`` is fused too. ``vectors_of`` maps a view set to MVLSA word vectors (default:
    :func:`fit_mvlsa` with ``config``; e.g. stored view factors combined by
    :func:`choice_vectors`); ``extra`` adds reference systems (e.g. PPMI-SVD) to the table.
    """
    _check_view_set(view_set)
    check_instance(config, "config", MVLSAConfig, "an MVLSAConfig")
    _check_vectors(glove, "glove")
    _check_vectors(wsg, "wsg")
    if isinstance(pretrained, Mapping):  # {label: vectors}, e.g. a user's files by name
        pretrained_by_name = dict(pretrained)
    else:
        pretrained_by_name = {} if pretrained is None else {PRETRAINED_GLOVE: pretrained}
    for label, vec in pretrained_by_name.items():
        _check_vectors(vec, f"pretrained[{label!r}]")
    corpus_families = check_sequence(corpus_families, "corpus_families")
    fuse = check_sequence(fuse, "fuse", allow_empty=True)
    if len(set(fuse)) != len(fuse):
        raise ValueError(f"fuse names a system twice: {list(fuse)}")
    combined = check_bool(combined, "combined")
    analogies = check_bool(analogies, "analogies")
    alpha = check_float(alpha, "alpha", low=0, high=1, low_open=True, high_open=True)
    if vectors_of is not None and not callable(vectors_of):
        raise TypeError(f"vectors_of must be callable or None, got {type(vectors_of).__name__}")
    if extra is not None:
        if not isinstance(extra, Mapping):
            raise TypeError(
                f"extra must be a mapping {{name: vectors}}, got {type(extra).__name__}"
            )
        table9 = ("MVLSA (corpus views)", "MVLSA (all views)", "GloVe", "WSG", "MV-G-WSG",
                  "MVLSA Combined", "GloVe 6B-50d")  # fmt: skip
        for name, vec in extra.items():
            _check_vectors(vec, f"extra[{name!r}]")
            if name in table9:
                raise ValueError(f"extra system {name!r} clashes with a Table 9 system")
    fit = (lambda vs: fit_mvlsa(vs, config).vectors()) if vectors_of is None else vectors_of
    words = view_set.words
    names = ["MVLSA (corpus views)", "MVLSA (all views)", "GloVe", "WSG"]
    names += list(pretrained_by_name)
    unknown = [f for f in fuse if f not in names]
    if unknown or not fuse:
        raise ValueError(
            f"cannot fuse unknown systems {unknown or '(none given)'}; available: {names}"
        )
    present = [f for f in corpus_families if f in view_set.families()]
    if len(present) < len(corpus_families):
        raise ValueError(
            f"no corpus view family {[f for f in corpus_families if f not in present]} in the "
            "view set "
            f"(families: {list(view_set.families())})"
        )
    corpus_vs = view_set.select(families=present)
    systems: dict[str, WordVectors] = {}
    systems["MVLSA (corpus views)"] = fit(corpus_vs)
    systems["MVLSA (all views)"] = fit(view_set)
    systems["GloVe"] = glove
    systems["WSG"] = wsg
    for name, vec in (extra or {}).items():
        if name in systems or name in ("MV-G-WSG", "MVLSA Combined", "GloVe 6B-50d"):
            raise ValueError(f"extra system {name!r} clashes with a Table 9 system")
        systems[name] = vec
    for label, vec in pretrained_by_name.items():
        if label in systems or label in ("MV-G-WSG", "MVLSA Combined"):
            raise ValueError(f"pretrained vectors {label!r} clash with a Table 9 system")
        systems[label] = vec.subset(words)
    emb_views = [embedding_view(systems[f], view_set.vocab, name=f) for f in fuse]
    k = min(config.n_components, sum(v.shape[1] for v in emb_views))
    fused = MVLSA(
        k,
        view_rank=[v.shape[1] for v in emb_views],
        regularization=config.regularization,
        random_state=config.random_state,
    ).fit(emb_views)
    systems["MV-G-WSG"] = fused.to_word_vectors(words)
    if combined:
        emb = tuple(embedding_view(systems[f], view_set.vocab, name=f) for f in ("GloVe", "WSG"))
        comb_vs = dataclasses.replace(view_set, views=view_set.views + emb)
        systems["MVLSA Combined"] = fit(comb_vs)
    evals = {
        n: evaluate_system(v, name=n, wordsim=wordsim, analogies=analogies, restrict_to=words)
        for n, v in tqdm(systems.items(), desc="evaluate", disable=None, leave=False)
    }
    order = list(evals.values())
    scores = scores_frame(order)
    mv = pairwise_tests(evals["MVLSA (corpus views)"], evals["MVLSA (all views)"], alpha)
    gains = pd.DataFrame(
        {
            "MV Gain": mv["difference"],
            "MV Gain_pvalue": mv["pvalue"],
            "MV Gain_significant": mv["significant"],
        }
    )
    gain_cols = ["MV Gain"]
    if combined:
        cb = pairwise_tests(evals["MVLSA (all views)"], evals["MVLSA Combined"], alpha)
        gains["G-WSG Gain"] = cb["difference"]
        gains["G-WSG Gain_pvalue"] = cb["pvalue"]
        gains["G-WSG Gain_significant"] = cb["significant"]
        gain_cols.append("G-WSG Gain")
    # Holm over every gain cell of the table; the uncorrected p-values stay in *_pvalue
    adj = adjust_finite(
        np.concatenate([gains[f"{g}_pvalue"].to_numpy(dtype=float) for g in gain_cols])
    )
    n = len(gains)
    for i, g in enumerate(gain_cols):
        gains[f"{g}_pvalue_holm"] = adj[i * n : (i + 1) * n]
        gains[f"{g}_significant"] = np.nan_to_num(adj[i * n : (i + 1) * n], nan=1.0) < alpha
    rs_rows = {}
    for row in evals["MVLSA (all views)"].wordsim:
        rs_rows[row] = {
            "r_s GloVe (MVLSA)": _rs(evals["MVLSA (all views)"], evals["GloVe"], row),
            "r_s WSG (MVLSA)": _rs(evals["MVLSA (all views)"], evals["WSG"], row),
            "r_s GloVe (MV-G-WSG)": _rs(evals["MV-G-WSG"], evals["GloVe"], row),
            "r_s WSG (MV-G-WSG)": _rs(evals["MV-G-WSG"], evals["WSG"], row),
        }
        if combined:
            rs_rows[row]["r_s GloVe (Combined)"] = _rs(evals["MVLSA Combined"], evals["GloVe"], row)
            rs_rows[row]["r_s WSG (Combined)"] = _rs(evals["MVLSA Combined"], evals["WSG"], row)
    r_s = pd.DataFrame(rs_rows).T.reindex(scores.index)
    marked = marked_table(order)
    table = marked.to_frame()
    for g in gain_cols:
        table[g] = [
            "–" if not np.isfinite(d) else f"{100 * d:+.1f}" + ("†" if s else "")
            for d, s in zip(
                gains[g].reindex(scores.index),
                gains[f"{g}_significant"].reindex(scores.index, fill_value=False),
            )
        ]
    for c in r_s.columns:
        table[c] = ["–" if not np.isfinite(v) else f"{100 * v:.1f}" for v in r_s[c]]
    return FusionResult(scores, gains, r_s, table, marked, evals, systems)


#: The gain columns of Table 9 (the paper's: all views - corpus views; Combined - all views).
GAIN_COLUMNS = ("MV Gain", "G-WSG Gain")


@dataclass(frozen=True, eq=False)
class FusionSeeds:
    """:class:`FusionResult` of several seeds, summarized.

    Attributes
    ----------
    scores, gains, r_s : SeedSummary
        Mean and sd over the seeds of the systems' scores, of the gain columns and of r_s.
    up, down : DataFrame
        Test sets x gain columns: in how many seeds the gain is significantly positive /
        negative (Holm over each seed's table).
    n_seeds : int
    per_seed : dict
    """

    scores: SeedSummary
    gains: SeedSummary
    r_s: SeedSummary
    up: pd.DataFrame
    down: pd.DataFrame
    n_seeds: int
    per_seed: dict[int, FusionResult]

    def gain_table(self) -> pd.DataFrame:
        """Gains (points) as ``mean ± sd``, ``†k`` when significantly positive in ``k`` seeds and
        ``‡k`` when significantly negative in ``k``."""
        text = self.gains.formatted()
        up = self.up.reindex_like(text).fillna(0).astype(int)
        down = self.down.reindex_like(text).fillna(0).astype(int)
        text = text.where(up == 0, text + "†" + up.astype(str))
        return text.where(down == 0, text + "‡" + down.astype(str))


def fusion_seeds(results: Mapping[int, FusionResult]) -> FusionSeeds:
    """Summarize per-seed Table 9 results (:func:`fusion_study` or ``choice_fusion``)."""
    results = _check_seed_results(results, FusionResult, "a FusionResult")
    first = next(iter(results.values()))
    cols = [g for g in GAIN_COLUMNS if g in first.gains]
    gains = seed_summary({s: r.gains[cols].astype(float) for s, r in results.items()})
    up = seed_agreement({s: pd.DataFrame({g: r.gains[f"{g}_significant"] & (r.gains[g] > 0)
                                          for g in cols}) for s, r in results.items()})  # fmt: skip
    down = seed_agreement({s: pd.DataFrame({g: r.gains[f"{g}_significant"] & (r.gains[g] < 0)
                                            for g in cols}) for s, r in results.items()})  # fmt: skip
    return FusionSeeds(
        seed_summary({s: r.scores for s, r in results.items()}),
        gains,
        seed_summary({s: r.r_s for s, r in results.items()}),
        up,
        down,
        len(results),
        results,
    )
