"""The facts of notebooks 03--05: every qualitative word of their Discussions, decided from the
records by a named pure function whose docstring states its rule.

Built on :mod:`workbench.studies.facts`: *significant* is a p-value below 5 % after the Holm
correction each record names (the sets of one path step; every comparison of a seed's test
table, or of one like-for-like comparison table; every cell of a seed's Table 8; every gain cell of a seed's Table 9; every per-set test
of the paper's claims); *in every seed / in k of n seeds* is a :class:`SeedCount`; a difference
that is not significant is *no detectable difference*; a finding present in one run only is
*not comparable* between data sizes (:func:`size_comparison`). Means without a test are only
ever called "highest mean" or printed as numbers.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from workbench.studies.facts import (
    DataFact,
    FindingsComparison,
    SeedCount,
    compare_findings,
    data_fact,
    finite,
)
from workbench.studies.mvlsa._grid_facts import (
    PaperValue,
    SeedClaimFact,
    claim_over_seeds,
    family_sizes,
    paper_values,
    seed_claims,
)

__all__ = [
    "DataFact",
    "data_fact",
    "Counts",
    "Verdict",
    "StepFact",
    "ClaimFact",
    "RemovalFact",
    "PositionalMen",
    "GainFact",
    "RsFact",
    "Facts03",
    "ComparisonFact",
    "comparison_fact",
    "Facts04",
    "Facts05",
    "claim_status",
    "claim_over_seeds",
    "PaperValue",
    "paper_values",
    "SeedClaimFact",
    "seed_claims",
    "verdict",
    "step_fact",
    "path_steps",
    "largest_gains",
    "versus",
    "claims",
    "highest_mean",
    "removal_fact",
    "positional_men",
    "corpus_only_systems",
    "systems_with_side_views",
    "side_families",
    "gain_fact",
    "rs_fact",
    "findings",
    "size_comparison",
    "facts_03",
    "facts_04",
    "facts_05",
]

Verdict = Literal["better", "worse", "mixed", "no detectable difference"]
ClaimStatus = Literal["holds", "does not hold", "no detectable difference", "not testable here"]
Effect = Literal["helped", "hurt", "mixed", "no detectable difference"]


def _or_low(value: Any) -> float:
    """``value`` as a float, very low when undefined (sorts last in a descending order)."""
    v = finite(value)
    return -1e9 if v is None else v


def verdict(n_better: int, n_worse: int) -> Verdict:
    """Rule: ``"better"`` when some sets are significantly better (after the stated Holm
    correction) and none significantly worse; ``"worse"`` the other way round; ``"mixed"`` when
    both occur; otherwise ``"no detectable difference"``."""
    if n_better and n_worse:
        return "mixed"
    if n_better:
        return "better"
    if n_worse:
        return "worse"
    return "no detectable difference"


@dataclass(frozen=True)
class Counts:
    """Sets on which one system is significantly better / worse than another, in every seed
    and in at least one seed, out of ``sets``; ``verdict`` from the every-seed counts."""

    better: int
    worse: int
    better_some: int
    worse_some: int
    sets: int
    verdict: Verdict


def _counts(w: Mapping[str, Any]) -> Counts:
    b, wo = int(w.get("better, every seed", 0)), int(w.get("worse, every seed", 0))
    return Counts(b, wo, int(w.get("better, some seed", b)), int(w.get("worse, some seed", wo)),
                  int(w.get("sets", 0)), verdict(b, wo))  # fmt: skip


# ============================================================================================
# 03
# ============================================================================================
@dataclass(frozen=True)
class StepFact:
    """One step of the dev-tuned path (a row of the ``tuning_path`` record).

    ``moved``: the chosen value differs from the previous one; ``up`` / ``down``: dev sets on
    which the choice is significantly higher / lower than the previous one after Holm over the
    step's dev sets; ``verdict`` from them (:func:`verdict`); ``relative``: the chosen value is
    a regularization relative to each view's spectrum (``rho=``).
    """

    factor: str
    chosen: str
    previous: str
    moved: bool
    dev_mean: float | None
    gain: float | None
    sets_up: int
    up: int
    down: int
    n_sets: int
    verdict: Verdict
    relative: bool


def step_fact(factor: str, row: Mapping[str, Any]) -> StepFact:
    """Rule: a step *moved* when its chosen label differs from the previous one; its verdict
    is :func:`verdict` of the dev sets significantly up / down (Holm over the step's sets)."""
    up, down = int(row["significantly up"]), int(row["significantly down"])
    chosen = str(row["chosen"])
    return StepFact(factor, chosen, str(row["previous"]), chosen != str(row["previous"]),
                    finite(row.get("dev mean")), finite(row.get("gain")), int(row["sets up"]),
                    up, down, int(row["n sets"]), verdict(up, down),
                    chosen.startswith("rho="))  # fmt: skip


def path_steps(rec: Mapping[str, Any]) -> list[StepFact]:
    """Rule: the steps in the recorded order (``tuning_order``; the record's order when
    absent)."""
    path = rec["tuning_path"]
    order = [f for f in rec.get("tuning_order", []) if f in path] or list(path)
    return [step_fact(f, path[f]) for f in order]


def largest_gains(steps: Sequence[StepFact], n: int = 2) -> list[StepFact]:
    """Rule: the ``n`` steps with the largest positive dev-mean gain (a description of means,
    not a test; the step's own verdict says whether it is significant)."""
    pos = [s for s in steps if s.gain is not None and s.gain > 0]
    return sorted(pos, key=lambda s: -(s.gain or 0.0))[:n]


def versus(rec: Mapping[str, Any]) -> dict[str, Counts]:
    """Rule: per system, the sets on which the tuned MVLSA is significantly better / worse
    (``test_wins``: Holm over every comparison of a seed's test table), every seed and some
    seed; verdict by :func:`verdict` of the every-seed counts."""
    return {name: _counts(w) for name, w in rec.get("test_wins", {}).items()}


def highest_mean(means: Mapping[str, Any], names: Sequence[str] | None = None) -> str | None:
    """Rule: the system with the highest recorded mean among ``names`` (all by default); a
    description of means, never called better or significant. None when no mean is finite."""
    keys = [k for k in (names if names is not None else list(means)) if k in means]
    keys = [k for k in keys if finite(means[k]) is not None]
    return max(keys, key=lambda k: finite(means[k]) or 0.0) if keys else None


@dataclass(frozen=True)
class ClaimFact:
    """One of the paper's claims as tested on the dev halves (a row of the ``claims``
    record)."""

    claim: str
    kind: str
    status: ClaimStatus
    a: str
    b: str
    mean_a: float | None
    mean_b: float | None
    better: int
    worse: int
    n_sets: int
    reason: str


def claim_status(kind: str, untestable: bool, better: int, worse: int) -> ClaimStatus:
    """Rule: *not testable here* when the path did not try what the claim compares; for an
    invariance claim, *does not hold* when any dev set differs significantly (Holm over the
    claims' tests), else *no detectable difference*; for a direction claim (``a`` beats ``b``),
    *does not hold* when ``a`` is significantly lower on any set, *holds* when it is
    significantly higher on at least one set and lower on none, else *no detectable
    difference*."""
    if untestable:
        return "not testable here"
    if kind == "invariance":
        return "does not hold" if better or worse else "no detectable difference"
    if worse:
        return "does not hold"
    return "holds" if better else "no detectable difference"


def claims(rec: Mapping[str, Any]) -> list[ClaimFact]:
    """Rule: each recorded claim with its status re-derived by :func:`claim_status` from the
    recorded counts (so the Discussion cannot disagree with the claims table)."""
    out = []
    for name, c in rec.get("claims", {}).items():
        reason = str(c.get("reason") or "")
        better, worse = int(c.get("sets better") or 0), int(c.get("sets worse") or 0)
        kind = str(c.get("kind", "direction"))
        out.append(ClaimFact(name, kind, claim_status(kind, bool(reason), better, worse),
                             str(c.get("a", "")), str(c.get("b", "")),
                             finite(c.get("dev mean a")), finite(c.get("dev mean b")),
                             better, worse, int(c.get("n sets") or 0), reason))  # fmt: skip
    return out


@dataclass(frozen=True)
class ComparisonFact:
    """One comparison table of the test halves, decided.

    Attributes
    ----------
    reference : str
        The system tested against each other one.
    others : list of str
        The other systems, in table order.
    n_sets, total_pairs : int
        Test sets, and their pairs in all.
    family : int
        Tests in the Holm family of one seed's table (the other systems x the test sets).
    means, weighted : dict
        Per system, the unweighted / pair-weighted mean over the sets, one value per seed.
    versus : dict
        Per other system, the sets on which the reference is significantly better / worse
        (:class:`Counts`, every seed and some seed).
    highest, highest_weighted : str or None
        The system with the highest unweighted / pair-weighted mean (over the seeds): a
        description of means, never called better.
    weighting_matters : bool
        The two means put different systems highest.
    """

    reference: str
    others: list[str]
    n_sets: int
    total_pairs: int
    family: int
    means: dict[str, list[float]]
    weighted: dict[str, list[float]]
    versus: dict[str, Counts]
    highest: str | None
    highest_weighted: str | None
    weighting_matters: bool


def _seed_values(per: Mapping[str, Mapping[str, Any]], system: str) -> list[float]:
    vals = [finite(m.get(system)) for m in per.values()]
    return [v for v in vals if v is not None]


def comparison_fact(block: Mapping[str, Any] | None) -> ComparisonFact | None:
    """Rule: per other system, :func:`verdict` of the sets on
    which the reference is significantly better / worse after Holm over the table's family in
    every seed (``wins``); *highest* mean by
    :func:`highest_mean` of the unweighted and of the
    pair-weighted means over the seeds (descriptions); the weighting *matters* when the two put
    different systems highest. None for an empty record (no such comparison in the run)."""
    if not block or not block.get("systems"):
        return None
    systems = list(block["systems"])
    ref = str(block["reference"])
    wins = block.get("wins", {})
    pairs = block.get("pairs", {})
    highest = highest_mean(block.get("mean", {}), systems)
    highest_w = highest_mean(block.get("mean_pair_weighted", {}), systems)
    return ComparisonFact(
        reference=ref,
        others=[s for s in systems if s != ref],
        n_sets=len(pairs),
        total_pairs=int(sum(int(v) for v in pairs.values())),
        family=int(block.get("family_size") or 0),
        means={s: _seed_values(block.get("mean_per_seed", {}), s) for s in systems},
        weighted={
            s: _seed_values(block.get("mean_pair_weighted_per_seed", {}), s) for s in systems
        },
        versus={name: _counts(w) for name, w in wins.items()},
        highest=highest,
        highest_weighted=highest_w,
        weighting_matters=highest is not None and highest_w is not None and highest != highest_w,
    )


@dataclass(frozen=True)
class GloveLoss:
    """GloVe's loss per pair: first and last epoch, and the last epoch's relative decrease in
    percent."""

    first: float
    last: float
    epochs: int
    last_change_percent: float | None


@dataclass(frozen=True)
class Facts03:
    """What the Discussion of notebook 03 says, decided."""

    n_seeds: int
    baselines: list[str]
    highest_baseline: str | None
    per_seed: dict[str, list[float]]
    glove: GloveLoss | None
    steps: list[StepFact]
    total_gain: float
    largest: list[StepFact]
    r: StepFact | None
    versus: dict[str, Counts]
    test_family: int
    gap_ppmi: float | None
    corpus_vs_ppmi: Counts | None
    claims: list[SeedClaimFact]
    claims_family: dict[str, int]
    comparison: FindingsComparison | None
    data: DataFact | None = None
    path_walked: bool = True
    mrds_set: str = "MEN dev"
    paper_config: list[PaperValue] = field(default_factory=list)
    corpus: ComparisonFact | None = None  # the headline: corpus views vs the corpus baselines
    lexicon: ComparisonFact | None = None  # corpus + lexicon views vs the retrofitted baselines
    glove_stop: str | None = None  # what stopped GloVe: "tolerance" or "epoch cap"
    claims_not_tested: str = ""  # why the run tested none of the paper's claims ("": it did)


def _per_seed(rec: Mapping[str, Any], system: str) -> list[float]:
    per = rec.get("test_mean_per_seed")
    if per:
        vals = [finite(m.get(system)) for m in per.values()]
    else:
        vals = [finite(rec["test_mean"].get(system))]
    return [v for v in vals if v is not None]


def _glove(rec: Mapping[str, Any]) -> GloveLoss | None:
    loss = [v for v in (finite(x) for x in rec.get("glove_loss", [])) if v is not None]
    if len(loss) < 2:
        return None
    change = 100 * (loss[-2] - loss[-1]) / loss[-2] if loss[-2] else None
    return GloveLoss(loss[0], loss[-1], len(loss), change)


def facts_03(rec: Mapping[str, Any], other: Mapping[str, Any] | None = None) -> Facts03:
    """Gather the facts of notebook 03 (``other``: the records of the run at the other size)."""
    mean = rec["test_mean"]
    baselines = [n for n in ("PPMI-SVD", "SGNS", "GloVe") if n in mean]
    steps = path_steps(rec)
    systems = ["MVLSA (paper config)", "MVLSA (tuned)", "MVLSA (tuned, corpus views)", *baselines]
    cvp = rec.get("corpus_views_vs_ppmi")
    wins = versus(rec)
    a, b = finite(mean.get("MVLSA (tuned)")), finite(mean.get("PPMI-SVD"))
    gap = a - b if a is not None and b is not None else None
    return Facts03(
        n_seeds=len(rec.get("test_mean_per_seed") or {"0": None}),
        baselines=baselines,
        highest_baseline=highest_mean(mean, baselines),
        per_seed={n: _per_seed(rec, n) for n in systems if n in mean},
        glove=_glove(rec),
        steps=steps,
        total_gain=sum(s.gain or 0.0 for s in steps),
        largest=largest_gains(steps),
        r=next((s for s in steps if s.factor == "r"), None),
        versus=wins,
        test_family=sum(c.sets for c in wins.values()),
        gap_ppmi=gap,
        corpus_vs_ppmi=_counts(cvp) if cvp and cvp.get("sets") else None,
        claims=seed_claims(rec),
        claims_family=family_sizes(rec),
        claims_not_tested=str(rec.get("claims_not_tested") or ""),
        comparison=size_comparison("03", rec, other),
        data=data_fact(rec),
        path_walked=bool(rec.get("tuning_order")),
        mrds_set=str(rec.get("mrds_dev_set") or "MEN dev"),
        paper_config=paper_values(rec),
        corpus=comparison_fact(rec.get("corpus_comparison")),
        lexicon=comparison_fact(rec.get("lexicon_comparison")),
        glove_stop=(rec.get("glove_stop") or {}).get("stopped_by"),
    )


# ============================================================================================
# 04
# ============================================================================================
@dataclass(frozen=True)
class RemovalFact:
    """One removal of Table 8: test sets on which the removed views significantly helped
    (the score falls without them) / hurt (it rises) in every seed and in some seed, after Holm
    over every cell of a seed's table; ``effect`` by :func:`verdict` of the every-seed counts."""

    label: str
    family: str
    helped: int
    hurt: int
    significant_some: int
    mean_drop: float | None
    mean_drop_per_seed: list[float]
    effect: Effect


_EFFECT: dict[Verdict, Effect] = {"better": "helped", "worse": "hurt", "mixed": "mixed",
                                  "no detectable difference": "no detectable difference"}  # fmt: skip


def _family(label: str) -> str:
    """``"!morphology !framenet"`` -> ``"morphology + framenet"``."""
    return " + ".join(part.lstrip("!") for part in label.split())


def removal_fact(rec: Mapping[str, Any], label: str) -> RemovalFact:
    """Rule: *helped* when the removed views' drop is significantly positive (Holm over every
    cell of the table) on some test sets in every seed and significantly negative on none;
    *hurt* the other way round; *mixed* for both; else *no detectable difference*. The mean
    drop is a description, never a verdict."""
    helped = int(rec["n_significantly_helped"].get(label, 0))
    hurt = int(rec["n_significantly_hurt"].get(label, 0))
    hs = rec.get("helped_seeds", {}).get(label, {})
    ks = rec.get("hurt_seeds", {}).get(label, {})
    some = sum(1 for s in {**hs, **ks} if hs.get(s) or ks.get(s))
    per = rec.get("mean_wordsim_drop_per_seed") or {}
    vals = [finite(d.get(label)) for d in per.values()] if per else []
    mean = finite(rec["mean_wordsim_drop"].get(label))
    per_seed = [v for v in vals if v is not None] or ([] if mean is None else [mean])
    return RemovalFact(label, _family(label), helped, hurt, some, mean, per_seed,
                       _EFFECT[verdict(helped, hurt)])  # fmt: skip


@dataclass(frozen=True)
class PositionalMen:
    """Removing the positional (corpus) views, on MEN: the mean drop, and in how many seeds it
    is significantly positive (``lower``: MEN falls without them) / negative (``higher``)."""

    drop: float | None
    change: float | None
    lower: SeedCount
    higher: SeedCount
    verdict: Literal["lower without them", "higher without them", "mixed",
                     "no detectable difference"]  # fmt: skip


def positional_men(rec: Mapping[str, Any]) -> PositionalMen | None:
    """Rule: *lower without them* when the ``!positional`` drop on MEN is significant and
    positive after Holm over every cell of the table in at least one seed (the count is
    printed: in every seed / in k of n) and significantly negative in none; *higher without
    them* the other way round; *mixed* for both; else *no detectable difference*. None when
    the run did not remove the positional views or scored no MEN."""
    drop = rec.get("drops", {}).get("!positional")
    if not drop or "MEN" not in drop:
        return None
    n = len(rec.get("seeds") or [0])
    k_low = int(rec.get("helped_seeds", {}).get("!positional", {}).get("MEN", 0))
    k_high = int(rec.get("hurt_seeds", {}).get("!positional", {}).get("MEN", 0))
    lower, higher = SeedCount(k_low, n), SeedCount(k_high, n)
    v = verdict(k_low, k_high)
    words = {"better": "lower without them", "worse": "higher without them", "mixed": "mixed",
             "no detectable difference": "no detectable difference"}  # fmt: skip
    d = finite(drop["MEN"])
    return PositionalMen(d, None if d is None else -d, lower, higher, words[v])  # type: ignore[arg-type]


@dataclass(frozen=True)
class Facts04:
    n_seeds: int
    n_sets: int
    removals: list[RemovalFact]
    significant: list[RemovalFact]
    helped: list[RemovalFact]
    hurt: list[RemovalFact]
    mixed: list[RemovalFact]
    undetected: list[RemovalFact]
    positional: PositionalMen | None
    comparison: FindingsComparison | None
    data: DataFact | None = None


def facts_04(rec: Mapping[str, Any], other: Mapping[str, Any] | None = None) -> Facts04:
    """Gather the facts of notebook 04: removals ordered by mean drop (largest first)."""
    mean = rec["mean_wordsim_drop"]
    order = sorted(mean, key=lambda k: -_or_low(mean[k]))
    removals = [removal_fact(rec, k) for k in order]
    return Facts04(
        n_seeds=max(len(rec.get("mean_wordsim_drop_per_seed") or {}), 1),
        n_sets=len(rec["test_sets"]),
        removals=removals,
        significant=[r for r in removals if r.helped or r.hurt],
        helped=[r for r in removals if r.effect == "helped"],
        hurt=[r for r in removals if r.effect == "hurt"],
        mixed=[r for r in removals if r.effect == "mixed"],
        undetected=[r for r in removals if r.effect == "no detectable difference"],
        positional=positional_men(rec),
        comparison=size_comparison("04", rec, other),
        data=data_fact(rec),
    )


# ============================================================================================
# 05
# ============================================================================================
def corpus_only_systems(rec: Mapping[str, Any]) -> list[str]:
    """Rule: the systems whose recorded inputs (``system_inputs``) are the corpus alone."""
    return [s for s, inputs in rec.get("system_inputs", {}).items() if list(inputs) == ["corpus"]]


def systems_with_side_views(rec: Mapping[str, Any]) -> list[str]:
    """Rule: the systems trained on the corpus *and* other sources (lexicons, bitext, treebank:
    any recorded input besides ``"corpus"``)."""
    return [s for s, inputs in rec.get("system_inputs", {}).items()
            if "corpus" in inputs and len(inputs) > 1]  # fmt: skip


def side_families(rec: Mapping[str, Any]) -> list[str]:
    """Rule: the recorded inputs besides the corpus of any system, in record order."""
    out: list[str] = []
    for inputs in rec.get("system_inputs", {}).values():
        if "corpus" in inputs:
            out += [i for i in inputs if i != "corpus" and i not in out]
    return out


@dataclass(frozen=True)
class GainFact:
    """One gain column of Table 9 over the test sets: positive mean gains (a description),
    gains significantly up / down after Holm over every gain cell of a seed's table in every
    seed and in some seed; ``verdict`` from the every-seed counts."""

    column: str
    positive: int
    n_sets: int
    up: int
    down: int
    up_some: int
    down_some: int
    verdict: Verdict


def gain_fact(rec: Mapping[str, Any], column: str, n_sets: int) -> GainFact | None:
    """Rule: :func:`verdict` of the test sets on which the gain is significantly positive /
    negative in every seed (``gain_counts``). None when the run has no such column."""
    c = rec["gain_counts"]
    if f"{column} > 0" not in c:
        return None
    up, down = int(c[f"{column} significant up"]), int(c[f"{column} significant down"])
    return GainFact(column, int(c[f"{column} > 0"]), n_sets, up, down,
                    int(c.get(f"{column} significant up, some seed", up)),
                    int(c.get(f"{column} significant down, some seed", down)),
                    verdict(up, down))  # fmt: skip


@dataclass(frozen=True)
class RsFact:
    """Mean r_s of MVLSA (all views) and of MVLSA Combined with one fused system; ``change``
    describes the means (no test of r_s is run)."""

    target: str
    before: float | None
    after: float | None
    change: Literal["rises", "falls", "unchanged", "n/a"]


def rs_fact(rec: Mapping[str, Any], target: str) -> RsFact | None:
    """Rule: ``rises`` / ``falls`` by the sign of Combined's mean r_s minus MVLSA (all views)'s,
    ``unchanged`` when equal, ``n/a`` when either is undefined; a description of two means (the
    run tests no r_s difference). None when the run has no r_s with ``target``."""
    col = rec.get("r_s_mean", {}).get(target)
    if not col:
        return None
    before, after = finite(col.get("MVLSA (all views)")), finite(col.get("MVLSA Combined"))
    if before is None or after is None:
        return RsFact(target, before, after, "n/a")
    change = "rises" if after > before else "falls" if after < before else "unchanged"
    return RsFact(target, before, after, change)  # type: ignore[arg-type]


@dataclass(frozen=True)
class Facts05:
    n_seeds: int
    n_sets: int
    ranked: list[str]
    per_seed: dict[str, list[float]]
    corpus_only: list[str]
    with_side_views: list[str]
    external: list[str]
    side_families: list[str]
    highest_corpus_only: str | None
    gains: list[GainFact]
    r_s: list[RsFact]
    comparison: FindingsComparison | None
    data: DataFact | None = None


def facts_05(rec: Mapping[str, Any], other: Mapping[str, Any] | None = None) -> Facts05:
    """Gather the facts of notebook 05: systems ranked by mean Spearman (a description)."""
    wmean = rec["wordsim_mean"]
    ranked = sorted(wmean, key=lambda k: -_or_low(wmean[k]))
    per = rec.get("wordsim_mean_per_seed") or {}
    per_seed = {k: [v for v in ((finite(d.get(k)) for d in per.values()) if per
                                else [finite(wmean[k])]) if v is not None]
                for k in ranked}  # fmt: skip
    n_sets = len(next(iter(rec["scores"].values()), {}))
    only = corpus_only_systems(rec)
    side = systems_with_side_views(rec)
    return Facts05(
        n_seeds=max(len(per), 1),
        n_sets=n_sets,
        ranked=ranked,
        per_seed=per_seed,
        corpus_only=[k for k in ranked if k in only],
        with_side_views=[k for k in ranked if k in side],
        external=[k for k in ranked if k not in only and k not in side],
        side_families=side_families(rec),
        highest_corpus_only=highest_mean(wmean, only),
        gains=[
            g
            for g in (gain_fact(rec, c, n_sets) for c in ("MV Gain", "G-WSG Gain", "Combined Gain"))
            if g
        ],
        r_s=[r for r in (rs_fact(rec, t) for t in ("WSG", "GloVe")) if r],
        comparison=size_comparison("05", rec, other),
        data=data_fact(rec),
    )


# ============================================================================================
# across data sizes
# ============================================================================================
def _rank_label(means: Mapping[str, Any], chosen: str) -> str:
    """``chosen`` among numeric candidates as ``"largest tried"`` / ``"smallest tried"`` /
    ``"in between"`` (sizes tried differ between data sizes)."""
    try:
        values = sorted(float(k) for k in means)
        v = float(chosen)
    except ValueError:
        return chosen
    return (
        "largest tried" if v == values[-1] else "smallest tried" if v == values[0] else "in between"
    )


def findings(notebook: str, rec: Mapping[str, Any]) -> dict[str, str]:
    """Rule: the qualitative findings of a run of notebook ``"03"``, ``"04"`` or ``"05"`` as
    labels comparable across data sizes. Only findings the run could make are included: a path
    step with one candidate chose nothing (left out); ``m`` and ``k`` are labelled by rank
    among the values tried; a claim not testable here is left out; verdicts are the tested
    ones (:func:`verdict`), never a comparison of means."""
    if notebook not in ("03", "04", "05"):
        raise ValueError(f"notebook must be '03', '04' or '05', got {notebook!r}")
    if not isinstance(rec, Mapping):
        raise TypeError(
            f"rec must be the records of a run of notebook {notebook} (a mapping), got "
            f"{type(rec).__name__}"
        )
    out: dict[str, str] = {}
    if notebook == "03":
        means = rec.get("tuning_means", {})
        for factor, row in rec.get("tuning_path", {}).items():
            cands = means.get(factor, {})
            if len(cands) > 1:
                chosen = str(row["chosen"])
                out[f"chosen {factor}"] = (_rank_label(cands, chosen) if factor in ("m", "k")
                                           else chosen)  # fmt: skip
        for name, c in versus(rec).items():
            out[f"tuned MVLSA vs {name} (test sets)"] = c.verdict
        cvp = rec.get("corpus_views_vs_ppmi")
        if cvp and cvp.get("sets"):
            out["corpus-views MVLSA vs PPMI-SVD (test sets)"] = _counts(cvp).verdict
        for key, label in (("corpus_comparison", "corpus-views MVLSA"),
                           ("lexicon_comparison", "corpus + lexicon views MVLSA")):  # fmt: skip
            for name, w in (rec.get(key) or {}).get("wins", {}).items():
                out[f"{label} vs {name} (test sets)"] = _counts(w).verdict
        best = highest_mean(rec.get("test_mean", {}), ["PPMI-SVD", "SGNS", "GloVe"])
        if best:
            out["highest-mean baseline"] = best
        for claim in seed_claims(rec):
            if claim.status != "not testable here":
                out[claim.claim] = claim.status
    elif notebook == "04":
        for label in rec.get("mean_wordsim_drop", {}):
            if label in rec.get("n_significantly_helped", {}):
                out[f"{label} (significant cells)"] = removal_fact(rec, label).effect
    else:
        n_sets = len(next(iter(rec.get("scores", {}).values()), {}))
        for col in ("MV Gain", "G-WSG Gain", "Combined Gain"):
            g = gain_fact(rec, col, n_sets) if "gain_counts" in rec else None
            if g:
                out[col] = g.verdict
        best = highest_mean(rec.get("wordsim_mean", {}), corpus_only_systems(rec))
        if best:
            out["highest-mean corpus-only system"] = best
    return out


def size_comparison(
    notebook: str, here: Mapping[str, Any], other: Mapping[str, Any] | None
) -> FindingsComparison | None:
    """Rule: :func:`workbench.studies.facts.compare_findings` of the two runs' :func:`findings`
    -- a finding only one run makes is *not comparable*, never *moved*. None without another
    run."""
    if other is None:
        return None
    return compare_findings(findings(notebook, here), findings(notebook, other))
