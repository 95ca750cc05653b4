r"""What it takes for MVLSA to learn at this scale: a one-factor-at-a-time path tuned on dev data.

Starting from the paper's configuration, each step varies one factor -- which view families
take part, how the corpus is cut into positional views, the preprocessing :math:`n_j`, eq. (12)
row weights, the regularization relative to each view's spectrum, the per-view rank ``m`` and
the embedding size ``k`` -- with the others held at the best values so far. A candidate is
chosen by its mean Spearman correlation over the *dev* parts of the rating sets
(:func:`workbench.datasets.wordsim_split`: MEN's own split, a seeded half elsewhere) and tested
against the previous step's choice on every dev set (two-sided Williams' t, Holm-corrected over
the sets). The test parts are touched once, by :func:`~workbench.studies.mvlsa.test_comparison`
(:mod:`._comparison`), for the final choice and the baselines.
"""

from __future__ import annotations

import dataclasses
import logging
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
import scipy.sparse as sp
from tqdm.auto import tqdm

from workbench._validation import check_bool, check_float, check_int
from workbench.datasets import load_wordsim, wordsim_split
from workbench.embeddings import WordVectors
from workbench.evaluation import SystemEvaluation, evaluate_system
from workbench.significance import adjust_finite, compare_wordsim
from workbench.studies.mvlsa._evalcache import DevEvaluations
from workbench.studies.mvlsa._factors import FactorStore
from workbench.studies.mvlsa._fusion import FusionResult, fusion_study
from workbench.studies.mvlsa._grids import AblationResult, ablation_study
from workbench.studies.mvlsa._settings import (
    PAPER_WORDSIM,
    MVLSAConfig,
    StudySettings,
    check_instance,
    check_sequence,
    paper_config,
    rank_floors,
)
from workbench.studies.mvlsa._viewsets import (
    TUNING_CACHE,
    ViewSet,
    _check_view_set,
    study_cache,
)
from workbench.views import View

logger = logging.getLogger(__name__)

__all__ = [
    "POSITIONAL_SCHEMES",
    "MVLSAChoice",
    "TuningStep",
    "TuningResult",
    "split_wordsim",
    "scored_wordsim",
    "check_coverage",
    "whole_wordsim",
    "positional_scheme",
    "choice_vectors",
    "tuning_path",
    "default_tuning_steps",
    "study_tuning",
    "study_start",
    "tuned_choice",
    "study_store",
    "choice_ablation",
    "choice_fusion",
]

#: How the corpus enters as views: the paper's left offsets 1..15, fewer offsets, both sides,
#: or symmetric windows (sums of offsets).
POSITIONAL_SCHEMES = ("offsets", "offsets 1-5", "offsets ±1-5", "windows 2,5,10", "window 5")
#: The offsets 1..n each scheme needs.
_SCHEME_OFFSETS = {"offsets": 1, "offsets 1-5": 5, "offsets ±1-5": 5, "windows 2,5,10": 10,
                   "window 5": 5}  # fmt: skip


@dataclass(frozen=True)
class MVLSAChoice:
    """One MVLSA system of the tuning path: configuration, view families and positional scheme.

    ``families`` None means every family of the view set; ``positional`` is one of
    :data:`POSITIONAL_SCHEMES`.
    """

    config: MVLSAConfig
    families: tuple[str, ...] | None = None
    positional: str = "offsets"

    def __post_init__(self) -> None:
        check_instance(self.config, "MVLSAChoice.config", MVLSAConfig, "an MVLSAConfig")
        if self.families is not None:  # a tuple, so that the choice stays hashable
            fams = check_sequence(self.families, "MVLSAChoice.families")
            bad = [f for f in fams if not isinstance(f, str)]
            if bad:
                raise TypeError(f"MVLSAChoice.families must hold family names, got {bad[0]!r}")
            object.__setattr__(self, "families", fams)
        if self.positional not in POSITIONAL_SCHEMES:
            raise ValueError(
                f"positional must be one of {POSITIONAL_SCHEMES}, got {self.positional!r}"
            )

    def with_seed(self, seed: int) -> MVLSAChoice:
        """The same system with the randomized SVDs seeded by ``seed``."""
        return dataclasses.replace(
            self, config=dataclasses.replace(self.config, random_state=int(seed))
        )

    def describe(self) -> dict[str, str | int]:
        """Flat description (for tables and records)."""
        c = self.config
        return {
            "n_j": c.label("n_j"),
            "t": c.label("t"),
            "v": c.min_view_support,
            "r": c.label("r"),
            "m": c.view_rank,
            "k": c.n_components,
            "W_j": c.row_weighting or "none",
            "views": "all" if self.families is None else "+".join(self.families),
            "positional": self.positional,
        }


def split_wordsim(names: Sequence[str | pd.DataFrame], split: str) -> list[pd.DataFrame]:
    """The ``split`` (``"dev"`` or ``"test"``) part of each rating set (a name of
    :data:`workbench.datasets.WORDSIM_NAMES`, a path, or a loaded DataFrame with
    ``attrs["name"]``). A DataFrame marked ``attrs["split"] == "all"`` (:func:`whole_wordsim`:
    ``WORDSIM_SPLIT="all"``) is scored on every pair, so it is returned whole."""
    if split not in ("dev", "test"):
        raise ValueError(f"split must be 'dev' or 'test', got {split!r}")
    names = check_sequence(names, "names", allow_empty=True)
    if not names:
        raise ValueError("names is empty: give at least one rating set (a name or a DataFrame)")
    out = []
    for n in names:
        if isinstance(n, pd.DataFrame) and n.attrs.get("split") == "all":
            out.append(n)
        elif isinstance(n, pd.DataFrame):
            missing = [c for c in ("word1", "word2", "score") if c not in n.columns]
            if missing:
                raise ValueError(
                    f"rating set {n.attrs.get('name', '(unnamed)')!r} lacks the columns {missing}"
                )
            mask = wordsim_split(n)
            part = n[mask if split == "dev" else ~mask].reset_index(drop=True)
            part.attrs.update(n.attrs)
            part.attrs["split"] = split
            out.append(part)
        else:
            out.append(load_wordsim(n, split=split))
    return out


def whole_wordsim(names: Sequence[str]) -> list[pd.DataFrame]:
    """Every pair of each rating set, marked ``attrs["split"] = "all"`` so that
    :func:`split_wordsim` keeps it whole (``WORDSIM_SPLIT="all"``: no tuning on these sets)."""
    out = []
    for n in check_sequence(names, "names"):
        df = load_wordsim(n)
        df.attrs["split"] = "all"
        out.append(df)
    return out


def check_coverage(sets: Sequence[str | pd.DataFrame], words: Sequence[str]) -> None:
    """Raise ValueError naming a rating set none of whose pairs has both words in ``words`` (the
    vocabulary): such a set cannot be scored (another language, another casing, a wrong file)."""
    vocab = set(words)
    for n in sets:
        df = n if isinstance(n, pd.DataFrame) else load_wordsim(n)
        inside = df["word1"].isin(vocab) & df["word2"].isin(vocab)
        if not inside.any():
            where = df.attrs.get("path") or df.attrs.get("name", n if isinstance(n, str) else "?")
            raise ValueError(
                f"WORDSIM {where}: none of its {len(df)} pairs has both words in the corpus "
                f"vocabulary ({len(vocab):,} words, e.g. {sorted(vocab)[:5]}); check that the "
                "rating set is in the corpus language, or use a larger corpus"
            )


def scored_wordsim(settings: StudySettings) -> list[str | pd.DataFrame]:
    """The rating sets the systems are compared on: the names of ``settings.wordsim`` (their
    test halves are read) or, with ``WORDSIM_SPLIT="all"``, the whole sets."""
    if settings.score_all_pairs:
        return list(whole_wordsim(settings.wordsim))
    return list(settings.wordsim)


# ------------------------------------------------------------------------------ views
def _offset_views(view_set: ViewSet) -> dict[int, View]:
    out = {}
    for v in view_set.views:
        if v.family == "positional":
            out[int(v.meta.get("offset", v.name.rsplit("_", 1)[-1]))] = v
    return out


def _derived(template: View, name: str, matrix: sp.csr_array) -> View:
    m = sp.csr_array(matrix)
    m.sort_indices()
    return dataclasses.replace(
        template.with_matrix(m, template.contexts, derived=name),
        name=name,
        observed=np.diff(m.indptr) > 0,
    )


def positional_scheme(view_set: ViewSet, scheme: str) -> list[View]:
    """The positional views of ``scheme`` (:data:`POSITIONAL_SCHEMES`) from the raw offset views.

    ``"offsets ±1-5"`` adds the right-context views :math:`Z_k^\top`; windows are
    :math:`\\sum_{k \\le w} (Z_k + Z_k^\top)`. Raises ValueError if the view set lacks the offsets.
    """
    if scheme not in POSITIONAL_SCHEMES:
        raise ValueError(f"scheme must be one of {POSITIONAL_SCHEMES}, got {scheme!r}")
    _check_view_set(view_set)
    offs = _offset_views(view_set)
    if not offs:
        raise ValueError(
            f"the view set has no positional views (families: {list(view_set.families())})"
        )
    if scheme == "offsets":
        return [offs[k] for k in sorted(offs)]
    need = _SCHEME_OFFSETS[scheme]
    missing = [k for k in range(1, need + 1) if k not in offs]
    if missing:
        raise ValueError(f"scheme {scheme!r} needs offsets 1..{need}; missing {missing}")
    if scheme == "offsets 1-5":
        return [offs[k] for k in range(1, 6)]
    if scheme == "offsets ±1-5":
        out = [offs[k] for k in range(1, 6)]
        out += [_derived(offs[k], f"offset_-{k}", offs[k].matrix.T) for k in range(1, 6)]
        return out
    widths = (5,) if scheme == "window 5" else (2, 5, 10)
    out = []
    for w in widths:
        total = sum(sp.csr_array(offs[k].matrix) for k in range(1, w + 1))
        out.append(_derived(offs[1], f"window_{w}", total + total.T))
    return out


def _choice_views(view_set: ViewSet, choice: MVLSAChoice) -> list[View]:
    fams = view_set.families()
    wanted = list(fams) if choice.families is None else list(choice.families)
    unknown = [f for f in wanted if f not in fams]
    if unknown:
        raise ValueError(f"unknown view families {unknown}; known: {sorted(fams)}")
    views: list[View] = []
    if "positional" in wanted:
        views += positional_scheme(view_set, choice.positional)
    views += [v for v in view_set.views if v.family in wanted and v.family != "positional"]
    return views


def choice_vectors(view_set: ViewSet, choice: MVLSAChoice, store: FactorStore) -> WordVectors:
    """``WordVectors`` of one choice, from the store's factors (computed on demand).

    The minimum view support ``v`` of ``choice.config`` counts views of the whole view set; a
    choice over another number of views (fewer families, windows instead of offsets) keeps the
    same fraction, ``max(1, round(v * views taken / views of the set))``, so that dropping view
    families does not make the support rule stricter. A word observed in fewer views gets no
    vector.
    """
    _check_view_set(view_set)
    check_instance(choice, "choice", MVLSAChoice, "an MVLSAChoice")
    check_instance(store, "store", FactorStore, "a FactorStore")
    cfg = choice.config
    views = _choice_views(view_set, choice)
    if cfg.min_view_support and len(views) != len(view_set.views):
        v = max(1, round(cfg.min_view_support * len(views) / len(view_set.views)))
        cfg = dataclasses.replace(cfg, min_view_support=v)
    factors = store.get_many(views, cfg)
    h = store.combine(
        factors,
        len(view_set.vocab),
        cfg.n_components,
        regularization=cfg.regularization,
        relative_regularization=cfg.relative_regularization,
    )
    keep = np.flatnonzero(np.any(h != 0, axis=1))
    words = view_set.words
    return WordVectors([words[i] for i in keep], np.ascontiguousarray(h[keep]))


# ------------------------------------------------------------------------------ the path
Candidates = Mapping[str, Callable[[MVLSAChoice], MVLSAChoice]]


def _cfg(**kw: Any) -> Callable[[MVLSAChoice], MVLSAChoice]:
    def apply(c: MVLSAChoice) -> MVLSAChoice:
        return dataclasses.replace(c, config=dataclasses.replace(c.config, **kw))

    return apply


def _sel(**kw: Any) -> Callable[[MVLSAChoice], MVLSAChoice]:
    def apply(c: MVLSAChoice) -> MVLSAChoice:
        return dataclasses.replace(c, **kw)

    return apply


def default_tuning_steps(
    view_set: ViewSet,
    *,
    view_ranks: Sequence[int] = (100, 200),
    rhos: Sequence[float] = (1e-4, 1e-3, 1e-2, 1e-1, 1.0, 10.0),
    ks: Sequence[int] = (50, 100, 200),
    nj: Sequence[str] | None = None,
    top_ts: Sequence[int | None] = (),
    supports: Sequence[int] = (),
) -> list[tuple[str, Candidates]]:
    """The steps of the path, in order: ``(factor, {label: change of the current choice})``.

    First which data enter (the view families, then how the corpus is cut into positional
    views), then how each view is transformed, weighted and regularized, then the sizes ``m``
    and ``k``. Deciding the data first also keeps the path affordable: the later steps
    factorize only the views that stayed.

    ``top_ts`` and ``supports`` (when given) add steps over the column truncation ``t`` (None:
    all columns) and the minimum view support ``v`` first (they decide which columns and words
    enter), so that the path can keep or undo the paper's values (:func:`study_tuning` passes the paper's scaled
    value and none).

    Each step's candidates include the current value (the label ``"current"`` is never
    used: every candidate names its value, and the choice so far is among them).
    """
    _check_view_set(view_set)
    view_ranks = tuple(
        check_int(m, "view_ranks entries", low=1) for m in check_sequence(view_ranks, "view_ranks")
    )
    rhos = tuple(check_float(r, "rhos entries", low=0) for r in check_sequence(rhos, "rhos"))
    ks = tuple(check_int(k, "ks entries", low=1) for k in check_sequence(ks, "ks"))
    if nj is not None:
        nj = check_sequence(nj, "nj")
    top_ts = tuple(check_int(t, "top_ts entries", low=1, allow_none=True)
                   for t in check_sequence(top_ts, "top_ts", allow_empty=True))  # fmt: skip
    supports = tuple(check_int(v, "supports entries", low=0)
                     for v in check_sequence(supports, "supports", allow_empty=True))  # fmt: skip
    fams = list(view_set.families())
    others = [f for f in fams if f != "positional"]
    fam_options: dict[str, Callable[[MVLSAChoice], MVLSAChoice]] = {"all": _sel(families=None)}
    if "positional" in fams:
        fam_options["corpus only"] = _sel(families=("positional",))
        lex = [f for f in others if f in ("morphology", "synonyms", "ppdb", "framenet", "lexicon")]
        if lex:
            fam_options["corpus + lexicons"] = _sel(families=("positional", *lex))
        if "dependency" in fams:
            fam_options["all but dependency"] = _sel(
                families=tuple(f for f in fams if f != "dependency")
            )
    offs = _offset_views(view_set)
    schemes = [s for s in POSITIONAL_SCHEMES if _scheme_ok(offs, s)]
    nj_options = {
        "Count^0.25": _cfg(transform="pow", power=0.25),
        "Log": _cfg(transform="log"),
        "PPMI cds=0.75": _cfg(transform="ppmi", cds=0.75, shift=1.0),
        "SPPMI k=5 cds=0.75": _cfg(transform="ppmi", cds=0.75, shift=5.0),
    }
    if nj is not None:
        unknown = [n for n in nj if n not in nj_options]
        if unknown:
            raise ValueError(f"unknown n_j options {unknown}; known: {list(nj_options)}")
        nj_options = {n: nj_options[n] for n in nj}
    return [
        *([("t", {("all" if t is None else str(t)): _cfg(top_t=t) for t in top_ts})]
          if top_ts else []),
        *([("v", {str(v): _cfg(min_view_support=v) for v in supports})] if supports else []),
        ("views", fam_options),
        ("positional", {s: _sel(positional=s) for s in schemes}),
        ("n_j", nj_options),
        ("W_j", {"none": _cfg(row_weighting=None), "eq. 12": _cfg(row_weighting="glove")}),
        ("r", {
            "1e-8": _cfg(regularization=1e-8, relative_regularization=False),
            **{f"rho={r:g}": _cfg(regularization=float(r), relative_regularization=True)
               for r in rhos},
        }),
        ("m", {str(m): _cfg(view_rank=int(m)) for m in view_ranks}),
        ("k", {str(k): _cfg(n_components=int(k)) for k in ks}),
    ]  # fmt: skip


def _scheme_ok(offs: Mapping[int, View], scheme: str) -> bool:
    need = _SCHEME_OFFSETS[scheme]
    return all(k in offs for k in range(1, need + 1))


@dataclass(frozen=True, eq=False)
class TuningStep:
    """One step: dev scores of every candidate, the choice and its test against the previous.

    Attributes
    ----------
    factor : str
    scores : DataFrame
        Dev rating sets x candidates (Spearman).
    mean : Series
        Mean dev Spearman per candidate (the selection criterion).
    previous, chosen : str
        Label of the previous step's choice among the candidates, and of this step's choice.
    tests : DataFrame
        Per dev set: ``difference`` (chosen - previous), ``pvalue`` (two-sided Williams' t),
        ``pvalue_holm`` (Holm over the sets) and ``significant`` (``pvalue_holm < alpha``).
    seconds : float
    evaluations : dict
        Label -> the candidate's dev evaluation (what the paper's claims are tested on,
        :func:`~workbench.studies.mvlsa.path_claims`).
    """

    factor: str
    scores: pd.DataFrame
    mean: pd.Series
    previous: str
    chosen: str
    tests: pd.DataFrame
    seconds: float
    evaluations: dict[str, SystemEvaluation] = dataclasses.field(default_factory=dict)


@dataclass(frozen=True, eq=False)
class TuningResult:
    """The whole path: steps, the start and the final choice, and a summary table."""

    steps: tuple[TuningStep, ...]
    start: MVLSAChoice
    best: MVLSAChoice
    choices: tuple[MVLSAChoice, ...]
    dev_names: tuple[str, ...]

    def summary(self) -> pd.DataFrame:
        """One row per step: chosen value, its dev mean, the gain over the previous choice and
        how many dev sets improve / improve significantly (Holm) / get significantly worse."""
        rows = []
        if not self.steps:
            return pd.DataFrame(columns=["previous", "chosen", "dev mean", "gain", "sets up",
                                         "significantly up", "significantly down", "n sets"],
                                index=pd.Index([], name="factor"))  # fmt: skip
        for st in self.steps:
            t = st.tests
            rows.append({
                "factor": st.factor,
                "previous": st.previous,
                "chosen": st.chosen,
                "dev mean": float(st.mean[st.chosen]),
                "gain": float(st.mean[st.chosen] - st.mean[st.previous]),
                "sets up": int((t["difference"] > 0).sum()),
                "significantly up": int((t["significant"] & (t["difference"] > 0)).sum()),
                "significantly down": int((t["significant"] & (t["difference"] < 0)).sum()),
                "n sets": int(len(t)),
            })  # fmt: skip
        return pd.DataFrame(rows).set_index("factor")


def _compare_sets(a: SystemEvaluation, b: SystemEvaluation, alpha: float) -> pd.DataFrame:
    """``b - a`` per rating set with Williams' t (two-sided) and Holm over the sets."""
    rows = []
    for name in a.wordsim:
        try:
            c = compare_wordsim(a.wordsim[name], b.wordsim[name], alternative="two-sided")
            diff, p = float(c.difference), float(c.pvalue)
        except ValueError as exc:
            logger.info("no comparison on %s: %s", name, exc)
            diff, p = float(b.wordsim[name].spearman - a.wordsim[name].spearman), float("nan")
        rows.append({"test_set": name, "difference": diff, "pvalue": p})
    df = pd.DataFrame(rows).set_index("test_set")
    df["pvalue_holm"] = adjust_finite(df["pvalue"].to_numpy(dtype=float))
    df["significant"] = (df["pvalue_holm"] < alpha).fillna(False).astype(bool)
    return df


def tuning_path(
    view_set: ViewSet,
    start: MVLSAChoice,
    steps: Sequence[tuple[str, Candidates]],
    *,
    dev_names: Sequence[str | pd.DataFrame] = PAPER_WORDSIM,
    store: FactorStore | None = None,
    alpha: float = 0.05,
    min_gain: float = 0.005,
    progress: bool | None = None,
) -> TuningResult:
    """Walk ``steps`` from ``start``, choosing each factor by its mean dev Spearman.

    A candidate replaces the current choice only if its dev mean is higher by more than
    ``min_gain`` (half a point of Spearman by default), and the best such candidate is chosen;
    so differences within the noise of the randomized SVDs do not steer the later steps. Only
    the dev parts of the rating sets are read. Each dev evaluation is kept in the disk cache
    by the content of the views, the choice, the dev halves and the store's settings
    (:class:`~workbench.studies.mvlsa._evalcache.DevEvaluations`), so a walk over the same
    views refits nothing it evaluated before.
    """
    if not (isinstance(min_gain, (int, float)) and min_gain >= 0):
        raise ValueError(f"min_gain must be a number >= 0, got {min_gain!r}")
    _check_view_set(view_set)
    check_instance(start, "start", MVLSAChoice, "an MVLSAChoice")
    alpha = check_float(alpha, "alpha", low=0, high=1, low_open=True, high_open=True)
    if store is not None:
        check_instance(store, "store", FactorStore, "a FactorStore")
    if progress is not None:
        progress = check_bool(progress, "progress")
    steps = check_sequence(steps, "steps", allow_empty=True)
    for i, step in enumerate(steps):
        if not (isinstance(step, (tuple, list)) and len(step) == 2):
            raise TypeError(f"steps[{i}] must be a (factor, {{label: change}}) pair, got {step!r}")
        factor, candidates = step
        if not isinstance(candidates, Mapping) or not candidates:
            raise ValueError(
                f"step {factor!r} must map candidate labels to changes of the choice "
                f"(a non-empty mapping), got {candidates!r}"
            )
        bad = [lab for lab, ch in candidates.items() if not callable(ch)]
        if bad:
            raise TypeError(f"step {factor!r}: the change of candidate {bad[0]!r} is not callable")
    store = store if store is not None else FactorStore()
    dev = split_wordsim(dev_names, "dev")
    cache: dict[MVLSAChoice, SystemEvaluation] = {}
    stored = DevEvaluations(view_set, dev, store)

    def evaluate(choice: MVLSAChoice, label: str) -> SystemEvaluation:
        if choice not in cache:
            hit = stored.load(_choice_to_json(choice), label)  # evaluated by an earlier run
            if hit is None:
                vec = choice_vectors(view_set, choice, store)
                hit = evaluate_system(vec, name=label, wordsim=dev, analogies=False)
                stored.store(_choice_to_json(choice), label, hit)
            cache[choice] = hit
        return cache[choice]

    current = start
    out: list[TuningStep] = []
    choices = [start]
    bar = tqdm(total=sum(len(c) for _, c in steps), desc="tuning path", disable=progress is False,
               leave=False)  # fmt: skip
    for factor, candidates in steps:
        t0 = time.perf_counter()
        options = {label: change(current) for label, change in candidates.items()}
        prev_label = next((lab for lab, ch in options.items() if ch == current), None)
        if prev_label is None:  # the current value is not among the candidates: add it
            prev_label = "previous"
            options = {"previous": current, **options}
        evals = {}
        for label, choice in options.items():
            evals[label] = evaluate(choice, label)
            bar.update()
        scores = pd.DataFrame({lab: e.scores() for lab, e in evals.items()})
        mean = scores.mean(axis=0)
        best = prev_label
        for lab in options:
            if mean[lab] > mean[prev_label] + min_gain and mean[lab] > mean[best]:
                best = lab
        tests = _compare_sets(evals[prev_label], evals[best], alpha)
        out.append(TuningStep(factor, scores, mean, prev_label, best, tests,
                              time.perf_counter() - t0, dict(evals)))  # fmt: skip
        current = options[best]
        choices.append(current)
        store.prune(current.config, start.config)
        cache = {c: e for c, e in cache.items() if c == current}
        logger.info("step %s: %s (dev mean %.4f)", factor, best, mean[best])
    bar.close()
    labels = tuple(str(d.attrs.get("name", i)) for i, d in enumerate(dev))
    return TuningResult(tuple(out), start, current, tuple(choices), labels)


# ------------------------------------------------------------------------------ study level
def _choice_to_json(choice: MVLSAChoice) -> dict[str, Any]:
    return {
        "config": dataclasses.asdict(choice.config),
        "families": None if choice.families is None else list(choice.families),
        "positional": choice.positional,
    }


def _choice_from_json(obj: Mapping[str, Any]) -> MVLSAChoice:
    fams = obj.get("families")
    return MVLSAChoice(
        MVLSAConfig(**obj["config"]),
        None if fams is None else tuple(fams),
        str(obj.get("positional", "offsets")),
    )


def study_start(view_set: ViewSet, settings: StudySettings, seed: int = 0) -> MVLSAChoice:
    """The start of the path: the paper's configuration scaled to the view set
    (:func:`~workbench.studies.mvlsa.paper_config`), every view family, the offset views."""
    _check_view_set(view_set)
    cfg = paper_config(settings, n_words=len(view_set.vocab), n_views=len(view_set.views),
                       seed=seed).config  # fmt: skip
    return MVLSAChoice(cfg)


def _tuning_inputs(view_set: ViewSet, settings: StudySettings, seed: int) -> dict[str, Any]:
    start = study_start(view_set, settings, seed).config
    return {"views": settings.view_key(), "config": dataclasses.asdict(start),
            "tuning": list(settings.tuning), "wordsim": list(map(str, settings.wordsim)),
            "names": list(view_set.names), "seed": seed, "size": settings.size,
            **({"dev_wordsim": list(settings.dev_wordsim)}
               if settings.tuning_wordsim is not None else {})}  # fmt: skip


def study_tuning(
    view_set: ViewSet,
    settings: StudySettings,
    *,
    seed: int = 0,
    store: FactorStore | None = None,
    progress: bool | None = None,
) -> TuningResult:
    """The dev-tuned path of the MVLSA study for ``settings`` (start: the paper's configuration
    scaled to the view set, :func:`study_start`; steps: :func:`default_tuning_steps` with ``settings.tuning``). The
    final choice is written to the verified cache so that the ablation and fusion notebooks
    build on the same configuration (:func:`tuned_choice`)."""
    check_instance(settings, "settings", StudySettings,
                    "a StudySettings (from workbench.studies.mvlsa.settings)")  # fmt: skip
    seed = check_int(seed, "seed", low=0)
    store = study_store(view_set, settings, store)
    start = study_start(view_set, settings, seed)
    if settings.dev_wordsim:
        cfg = start.config
        steps = default_tuning_steps(
            view_set,
            **dict(settings.tuning),
            top_ts=(cfg.top_t, None) if cfg.top_t is not None else (),
            supports=(cfg.min_view_support, 0) if cfg.min_view_support else (),
        )
        result = tuning_path(view_set, start, steps, dev_names=settings.dev_wordsim, store=store,
                             progress=progress)  # fmt: skip
    else:  # no rating set to tune on (WORDSIM_SPLIT="all", no bundled set in the language)
        result = TuningResult((), start, start, (start,), ())
    study_cache(TUNING_CACHE).store(
        _tuning_inputs(view_set, settings, seed), None, {"best": _choice_to_json(result.best)}
    )
    return result


def study_store(
    view_set: ViewSet, settings: StudySettings, store: FactorStore | None = None
) -> FactorStore:
    """``store`` (a new :class:`FactorStore` when None) with its ``min_rank`` and
    ``min_components`` raised to the run's :func:`~workbench.studies.mvlsa.rank_floors`, so
    that every configuration of the run gets the same factors and shared space whatever the
    order in which they are asked for (the dev evaluations are cached by their inputs)."""
    _check_view_set(view_set)
    store = store if store is not None else FactorStore()
    check_instance(store, "store", FactorStore, "a FactorStore")
    m, k = rank_floors(settings, n_words=len(view_set.vocab), n_views=len(view_set.views))
    store.min_rank = max(store.min_rank, m)
    store.min_components = max(store.min_components, k)
    return store


def tuned_choice(
    view_set: ViewSet, settings: StudySettings, *, seed: int = 0, store: FactorStore | None = None
) -> MVLSAChoice:
    """The configuration chosen on dev data by :func:`study_tuning` (read from the cache that
    notebook 03 writes; the path is run when it is missing or invalid)."""
    _check_view_set(view_set)
    check_instance(settings, "settings", StudySettings,
                    "a StudySettings (from workbench.studies.mvlsa.settings)")  # fmt: skip
    seed = check_int(seed, "seed", low=0)
    hit = study_cache(TUNING_CACHE).load(_tuning_inputs(view_set, settings, seed))
    if hit is not None:
        try:
            return _choice_from_json(hit.meta["best"])
        except (KeyError, TypeError, ValueError) as exc:
            logger.warning("tuning cache %s unusable (%s); re-running the path",
                           hit.manifest_path, exc)  # fmt: skip
    return study_tuning(view_set, settings, seed=seed,
                        store=study_store(view_set, settings, store)).best


def choice_ablation(
    view_set: ViewSet,
    choice: MVLSAChoice,
    *,
    store: FactorStore,
    removals: Mapping[str, Sequence[str]] | None = None,
    wordsim: Sequence[str | pd.DataFrame] = PAPER_WORDSIM,
    analogies: bool = True,
    alpha: float = 0.05,
) -> AblationResult:
    """:func:`ablation_study` of ``choice`` over *all* the view set's families: each removal
    combines the stored view factors of the views left (no refit of the others)."""
    vectors_of = _stored_vectors(choice, store)
    return ablation_study(
        view_set,
        choice.config,
        removals,
        wordsim=wordsim,
        analogies=analogies,
        alpha=alpha,
        vectors_of=vectors_of,
    )


def _stored_vectors(choice: MVLSAChoice, store: FactorStore) -> Callable[[ViewSet], WordVectors]:
    """``vectors_of`` a view set: ``choice`` over all its families, from the stored view
    factors of ``store``."""
    check_instance(choice, "choice", MVLSAChoice, "an MVLSAChoice")
    check_instance(store, "store", FactorStore, "a FactorStore")
    everything = dataclasses.replace(choice, families=None)
    return lambda vs: choice_vectors(vs, everything, store)


def choice_fusion(
    view_set: ViewSet,
    choice: MVLSAChoice,
    *,
    store: FactorStore,
    glove: WordVectors,
    wsg: WordVectors,
    pretrained: WordVectors | Mapping[str, WordVectors] | None = None,
    extra: Mapping[str, WordVectors] | None = None,
    wordsim: Sequence[str | pd.DataFrame] = PAPER_WORDSIM,
    analogies: bool = True,
    alpha: float = 0.05,
    fuse: Sequence[str] = ("GloVe", "WSG"),
) -> FusionResult:
    """:func:`fusion_study` (Table 9) with MVLSA systems of ``choice``'s configuration and
    positional scheme, from stored view factors (corpus views; all views; all views plus the
    GloVe and skip-gram embedding views)."""
    vectors_of = _stored_vectors(choice, store)
    return fusion_study(
        view_set,
        choice.config,
        glove=glove,
        wsg=wsg,
        pretrained=pretrained,
        wordsim=wordsim,
        analogies=analogies,
        alpha=alpha,
        vectors_of=vectors_of,
        extra=extra,
        fuse=fuse,
    )
