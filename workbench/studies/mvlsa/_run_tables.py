"""Notebooks 04 (Table 8, view ablations) and 05 (Table 9, fusion) as one function each.

:func:`run_ablation` and :func:`run_fusion` return frozen results whose ``records()`` are the one
definition of every record key of notebooks ``04_ablation`` and ``05_fusion``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypedDict, cast

import pandas as pd

from workbench._validation import check_int
from workbench.embeddings import WordVectors, load_pretrained_glove, load_word_vectors
from workbench.records import to_jsonable
from workbench.studies.mvlsa._baselines import CorpusBaselines, corpus_baselines_seeds
from workbench.studies.mvlsa._fusion import (
    GAIN_COLUMNS,
    PRETRAINED_GLOVE,
    FusionResult,
    FusionSeeds,
    fusion_seeds,
)
from workbench.studies.mvlsa._grids import (
    AblationResult,
    AblationSeeds,
    ablation_seeds,
    default_removals,
)
from workbench.studies.mvlsa._settings import (
    ANALOGY_SETS,
    StudySettings,
    check_instance,
    check_sequence,
)
from workbench.studies.mvlsa._tuning import (
    MVLSAChoice,
    check_coverage,
    choice_ablation,
    choice_fusion,
    scored_wordsim,
    split_wordsim,
    study_store,
    tuned_choice,
)
from workbench.studies.mvlsa._viewsets import ViewSet, _check_view_set

__all__ = [
    "AblationRecords",
    "AblationRun",
    "FusionRecords",
    "FusionRun",
    "run_ablation",
    "run_fusion",
    "system_inputs",
]


def _seeds(seeds: Sequence[int]) -> tuple[int, ...]:
    return tuple(check_int(s, "seeds entries", low=0) for s in check_sequence(seeds, "seeds"))


def _check(view_set: ViewSet, settings: StudySettings) -> None:
    _check_view_set(view_set)
    check_instance(settings, "settings", StudySettings,
                    "a StudySettings (from workbench.studies.mvlsa.settings)")  # fmt: skip


# ============================================================================================
# 04 · ablations
# ============================================================================================
class AblationRecords(TypedDict):
    """The records of notebook ``04_ablation`` (JSON values; seeds as string keys)."""

    n_views: int
    tuned: dict[str, str | int]
    removals: dict[str, list[str]]
    n_removal_rows: int
    test_sets: list[str]
    seeds: list[int]
    scores: dict[str, dict[str, float | None]]
    drops: dict[str, dict[str, float | None]]
    drops_sd: dict[str, dict[str, float | None]]
    pvalues: dict[str, dict[str, float | None]]
    pvalues_holm: dict[str, dict[str, float | None]]
    helped_seeds: dict[str, dict[str, int]]
    hurt_seeds: dict[str, dict[str, int]]
    mean_wordsim_drop_per_seed: dict[str, dict[str, float | None]]
    n_significant: dict[str, int]
    n_significantly_helped: dict[str, int]
    n_significantly_hurt: dict[str, int]
    mean_wordsim_drop: dict[str, float | None]
    men_all_views: dict[str, float | None]
    data: dict[str, Any]
    side_views_note: str


@dataclass(frozen=True, eq=False)
class AblationRun:
    """Everything notebook 04 shows and records: the tuned choice, the removals, each seed's
    ablation (:class:`AblationResult`) and their summary over the seeds."""

    view_set: ViewSet
    choice: MVLSAChoice
    removals: dict[str, tuple[str, ...]]
    seeds: tuple[int, ...]
    ablations: dict[int, AblationResult]
    ablation: AblationSeeds
    settings: StudySettings | None = None

    @property
    def first(self) -> AblationResult:
        """The first seed's ablation (its Table 8)."""
        return self.ablations[self.seeds[0]]

    @property
    def wordsim_columns(self) -> list[str]:
        """The rating sets among the test sets (not the analogies)."""
        return [c for c in self.ablation.drops.mean.columns if c not in ANALOGY_SETS]

    @property
    def mean_drop(self) -> pd.Series:
        """Mean drop over the rating sets per removal (mean over the seeds), largest first."""
        drops = self.ablation.drops.mean[self.wordsim_columns]
        return drops.mean(axis=1).sort_values(ascending=False)

    def significant_counts(self) -> pd.DataFrame:
        """Per removal: cells (test sets) significantly helped / hurt in every seed and cells
        significant in some seed (Holm over every cell of each seed's table)."""
        a, every = self.ablation, self.ablation.n_seeds
        helped = (a.helped == every).sum(axis=1)
        hurt = (a.hurt == every).sum(axis=1)
        return pd.DataFrame({"helped": helped, "hurt": hurt, "significant": helped + hurt,
                             "some seed": ((a.helped + a.hurt) > 0).sum(axis=1)})  # fmt: skip

    def summary(self) -> pd.DataFrame:
        """The summary table the notebook shows."""
        c = self.significant_counts()
        return pd.DataFrame({"mean word-sim drop": self.mean_drop,
                             "significant cells (every seed)": c["significant"],
                             "significantly helped (every seed)": c["helped"],
                             "significantly hurt (every seed)": c["hurt"],
                             "significant cells (some seed)": c["some seed"]})  # fmt: skip

    def records(self) -> AblationRecords:
        """The records of notebook 04 (the one definition of its keys)."""
        a, first, counts = self.ablation, self.first, self.significant_counts()
        cols = self.wordsim_columns
        values = {
            "n_views": len(self.view_set.views),
            "tuned": self.choice.describe(),
            "removals": {k: list(v) for k, v in self.removals.items()},
            "n_removal_rows": int(a.drops.mean.shape[0]),
            "test_sets": list(a.drops.mean.columns),
            "seeds": list(self.seeds),
            "scores": first.scores.to_dict(),
            "drops": a.drops.mean.to_dict(orient="index"),
            "drops_sd": a.drops.sd.to_dict(orient="index"),
            "pvalues": first.pvalues.to_dict(orient="index"),
            "pvalues_holm": first.pvalues_corrected.to_dict(orient="index"),
            "helped_seeds": a.helped.astype(int).to_dict(orient="index"),
            "hurt_seeds": a.hurt.astype(int).to_dict(orient="index"),
            "mean_wordsim_drop_per_seed": {
                seed: res.drops[cols].mean(axis=1).to_dict() for seed, res in self.ablations.items()
            },  # fmt: skip
            "n_significant": counts["significant"].to_dict(),
            "n_significantly_helped": counts["helped"].to_dict(),
            "n_significantly_hurt": counts["hurt"].to_dict(),
            "mean_wordsim_drop": self.mean_drop.to_dict(),
            "men_all_views": {
                seed: float(res.scores.at["MEN", "All views"])  # type: ignore[arg-type]
                if "MEN" in res.scores.index
                else None
                for seed, res in self.ablations.items()
            },  # fmt: skip
            **_data_records(self.settings),
        }
        return cast(AblationRecords, to_jsonable(values))


def run_ablation(
    view_set: ViewSet, settings: StudySettings, *, seeds: Sequence[int]
) -> AblationRun:
    """Notebook 04: the configuration notebook 03 chose on dev (over every view family), each
    removal of :func:`default_removals` scored on the test halves and the analogies, per seed."""
    _check(view_set, settings)
    seeds = _seeds(seeds)
    store = study_store(view_set, settings)
    choice = tuned_choice(view_set, settings, seed=seeds[0], store=store)
    removals = default_removals(view_set,
                                single_views=None if choice.positional == "offsets" else [])  # fmt: skip
    test_sets = split_wordsim(scored_wordsim(settings), "test")
    check_coverage(test_sets, view_set.words)
    ablations = {seed: choice_ablation(view_set, choice.with_seed(seed), store=store,
                                       removals=removals, wordsim=test_sets,
                                       analogies=settings.data.side_views())
                 for seed in seeds}  # fmt: skip
    return AblationRun(view_set, choice, removals, seeds, ablations, ablation_seeds(ablations),
                       settings)  # fmt: skip


# ============================================================================================
# 05 · fusion
# ============================================================================================
def system_inputs(
    view_set: ViewSet, systems: Sequence[str], pretrained: Sequence[str] = ()
) -> dict[str, list[str]]:
    """What each Table 9 system is trained on: ``["corpus"]`` for the corpus alone, the corpus
    plus the other view families (lexicons, bitext, treebank) of the view set for the MVLSA
    systems over all views (and MVLSA Combined), the corpus for MV-G-WSG (GloVe and WSG fused;
    plus the user's pretrained vectors when fused), ``["pretrained (external corpus)"]`` for
    pretrained GloVe."""
    _check_view_set(view_set)
    side = [f for f in view_set.families() if f != "positional"]
    every = ["corpus", *side]
    fused = (
        ["pretrained (external corpus)"] if [p for p in pretrained if p != PRETRAINED_GLOVE] else []
    )
    known = {"MVLSA (corpus views)": ["corpus"], "MVLSA (all views)": every, "GloVe": ["corpus"],
             "WSG": ["corpus"], "PPMI-SVD": ["corpus"], "MV-G-WSG": ["corpus", *fused],
             "MVLSA Combined": every, PRETRAINED_GLOVE: ["pretrained (external corpus)"],
             **{p: ["pretrained (external corpus)"] for p in pretrained}}  # fmt: skip
    unknown = [s for s in systems if s not in known]
    if unknown:
        raise ValueError(f"no inputs known for the systems {unknown}; known: {list(known)}")
    return {s: list(known[s]) for s in systems}


class FusionRecords(TypedDict):
    """The records of notebook ``05_fusion`` (JSON values; seeds as string keys)."""

    tuned: dict[str, str | int]
    seeds: list[int]
    systems: list[str]
    system_inputs: dict[str, list[str]]
    n_systems: int
    scores: dict[str, dict[str, float | None]]
    scores_sd: dict[str, dict[str, float | None]]
    men: dict[str, float | None]
    pretrained: list[str]
    data: dict[str, Any]
    side_views_note: str
    wordsim_mean: dict[str, float | None]
    wordsim_mean_per_seed: dict[str, dict[str, float | None]]
    gains: dict[str, dict[str, float | None]]
    gains_sd: dict[str, dict[str, float | None]]
    gains_seed0: dict[str, dict[str, Any]]
    gain_up_seeds: dict[str, dict[str, int]]
    gain_down_seeds: dict[str, dict[str, int]]
    gain_counts: dict[str, int]
    r_s: dict[str, dict[str, float | None]]
    r_s_mean: dict[str, dict[str, float | None]]
    vocab_size: int
    n_views: int


@dataclass(frozen=True, eq=False)
class FusionRun:
    """Everything notebook 05 shows and records: the tuned choice, the baselines, each seed's
    Table 9 (:class:`FusionResult`) and their summary over the seeds."""

    view_set: ViewSet
    choice: MVLSAChoice
    seeds: tuple[int, ...]
    baselines: dict[int, CorpusBaselines]
    pretrained: dict[str, WordVectors]
    test_sets: tuple[pd.DataFrame, ...]
    fusions: dict[int, FusionResult]
    fusion: FusionSeeds
    settings: StudySettings | None = None

    @property
    def first(self) -> FusionResult:
        return self.fusions[self.seeds[0]]

    @property
    def gain_columns(self) -> list[str]:
        return [c for c in GAIN_COLUMNS if c in self.fusion.gains.mean]

    def rs_summary(self) -> pd.DataFrame:
        """Mean r_s over the rating sets with GloVe and WSG, before and after fusion."""
        m = self.fusion.r_s.mean.mean()
        return pd.DataFrame({
            "GloVe": [m["r_s GloVe (MVLSA)"], m["r_s GloVe (MV-G-WSG)"], m["r_s GloVe (Combined)"]],
            "WSG": [m["r_s WSG (MVLSA)"], m["r_s WSG (MV-G-WSG)"], m["r_s WSG (Combined)"]],
        }, index=["MVLSA (all views)", "MV-G-WSG", "MVLSA Combined"])  # fmt: skip

    def gain_counts(self) -> dict[str, int]:
        """Per gain column: test sets with a positive mean gain, and with a gain significantly
        up / down in every seed and in some seed (Holm over every gain cell of a seed's table)."""
        f, every, out = self.fusion, self.fusion.n_seeds, {}
        for g in self.gain_columns:
            out[f"{g} > 0"] = int((f.gains.mean[g] > 0).sum())
            out[f"{g} significant up"] = int((f.up[g] == every).sum())
            out[f"{g} significant down"] = int((f.down[g] == every).sum())
            out[f"{g} significant up, some seed"] = int((f.up[g] > 0).sum())
            out[f"{g} significant down, some seed"] = int((f.down[g] > 0).sum())
        return out

    def _wordsim_mean(self, scores: pd.DataFrame) -> pd.Series:
        return scores.drop(index=list(ANALOGY_SETS), errors="ignore").mean()

    def records(self) -> FusionRecords:
        """The records of notebook 05 (the one definition of its keys)."""
        f = self.fusion
        systems = list(f.scores.mean.columns)
        values = {
            "tuned": self.choice.describe(),
            "seeds": list(self.seeds),
            "systems": systems,
            "system_inputs": system_inputs(self.view_set, systems, list(self.pretrained)),
            "n_systems": int(f.scores.mean.shape[1]),
            "scores": f.scores.mean.to_dict(),
            "scores_sd": f.scores.sd.to_dict(),
            "men": f.scores.mean.loc["MEN"].to_dict() if "MEN" in f.scores.mean.index else {},
            "pretrained": list(self.pretrained),
            **_data_records(self.settings),
            "wordsim_mean": self._wordsim_mean(f.scores.mean).to_dict(),
            "wordsim_mean_per_seed": {
                seed: self._wordsim_mean(res.scores).to_dict() for seed, res in self.fusions.items()
            },  # fmt: skip
            "gains": f.gains.mean.to_dict(),
            "gains_sd": f.gains.sd.to_dict(),
            "gains_seed0": self.first.gains.to_dict(),
            "gain_up_seeds": f.up.to_dict(),
            "gain_down_seeds": f.down.to_dict(),
            "gain_counts": self.gain_counts(),
            "r_s": f.r_s.mean.to_dict(),
            "r_s_mean": self.rs_summary().to_dict(),
            "vocab_size": len(self.view_set.vocab),
            "n_views": len(self.view_set.views),
        }
        return cast(FusionRecords, to_jsonable(values))


def run_fusion(view_set: ViewSet, settings: StudySettings, *, seeds: Sequence[int]) -> FusionRun:
    """Notebook 05: the configuration notebook 03 chose on dev, the baselines of notebook 03
    (cached), pretrained GloVe and Table 9 per seed on the test halves and the analogies."""
    _check(view_set, settings)
    seeds = _seeds(seeds)
    store = study_store(view_set, settings)
    choice = tuned_choice(view_set, settings, seed=seeds[0], store=store)
    baselines = corpus_baselines_seeds(view_set, settings, n_components=choice.config.n_components,
                                       seeds=seeds)  # fmt: skip
    # MV-G-WSG: GloVe and WSG (and the user's vectors, labelled by file name) fused alone
    if settings.data.pretrained:
        pretrained = {Path(p).name: load_word_vectors(p) for p in settings.data.pretrained}
        fuse: tuple[str, ...] = ("GloVe", "WSG", *pretrained)
    else:
        pretrained = {PRETRAINED_GLOVE: load_pretrained_glove(limit=settings.glove_limit)}
        fuse = ("GloVe", "WSG")
    test_sets = split_wordsim(scored_wordsim(settings), "test")
    check_coverage(test_sets, view_set.words)
    fusions = {
        seed: choice_fusion(view_set, choice.with_seed(seed), store=store,
                            glove=baselines[seed].vectors["GloVe"],
                            wsg=baselines[seed].vectors["SGNS"], pretrained=pretrained,
                            extra={"PPMI-SVD": baselines[seed].vectors["PPMI-SVD"]},
                            wordsim=test_sets, fuse=fuse,
                            analogies=settings.data.side_views())
        for seed in seeds
    }  # fmt: skip
    return FusionRun(view_set, choice, seeds, baselines, pretrained, tuple(test_sets), fusions,
                     fusion_seeds(fusions), settings)  # fmt: skip


def _data_records(settings: StudySettings | None) -> dict[str, Any]:
    """The records naming the data of a run: ``data`` and ``side_views_note``."""
    if settings is None:
        return {"data": {}, "side_views_note": ""}
    return {"data": settings.data.describe(), "side_views_note": settings.side_views_note()}
