"""The facts of notebooks 08 and 09: pure functions of their records (and of the paper's reported
numbers) that decide every qualitative word of the Discussions, each with its rule.

Every seed trains its own model and repeats everything, so a per-seed fact is counted over the
seeds (:class:`~workbench.studies.facts.SeedCount`: "in every seed", "in k of n seeds"); a fact
that needs two things at once (both methods, both criteria) holds in a seed only when both hold
*in that seed* (a per-seed AND), never by the smaller of two separate counts.

Correction families: notebook 08's tests are Holm-corrected over the ``n_tests`` tests of a
seed; notebook 09's WordNet correlations over the five signals of a seed, its Table 4 tests over
the tests of Table 4 of a seed (each elimination against the original on two data sets, and
Ex-RPCA against V~_WordNet on SCWS when that row ran).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np
from scipy import stats

from .._values import seed_values
from ..facts import ALPHA, SeedCount, seed_count

__all__ = [
    "Facts08",
    "Facts09",
    "Paper08",
    "Paper09",
    "facts_08",
    "facts_09",
    "joint_count",
    "table4_verdict",
    "wordnet_claim",
    "RobustFinding",
    "robustness_findings",
    "pos_contrast",
]

#: Share of a Gaussian beyond three standard deviations (both tails).
GAUSS_3SIGMA = float(2 * stats.norm.sf(3.0))

Verdict = Literal["every", "none", "some"]


def _verdict(c: SeedCount) -> Verdict:
    """Rule: ``"every"`` when the fact holds in every seed, ``"none"`` in none, else ``"some"``."""
    return "every" if c.every else "none" if c.none else "some"


def joint_count(*flags: Any) -> SeedCount:
    """Rule: the seeds where *all* of the per-seed ``flags`` hold at once (a per-seed AND; each
    a sequence with one boolean per seed, in seed order)."""
    arrays = [np.asarray(f, dtype=bool) for f in flags]
    if not arrays:
        raise ValueError("joint_count needs at least one sequence of per-seed flags")
    n = arrays[0].size
    if any(a.size != n for a in arrays):
        raise ValueError(f"per-seed flags of different lengths: {[a.size for a in arrays]}")
    return seed_count(np.logical_and.reduce(arrays))


def _sig(p: Any) -> np.ndarray:
    """Per seed: the corrected p-value below 5 % (None/NaN: not significant)."""
    a = seed_values(p)
    return np.where(np.isfinite(a), a, 1.0) < ALPHA


# ================================================================================ notebook 08


@dataclass(frozen=True)
class Paper08:
    """The paper's numbers notebook 08 compares with (Table 2 and §3.2 of Shi, Sun & Hu)."""

    rho_pca: list[float] = field(default_factory=list)  # per component, %
    rho_ex: list[float] = field(default_factory=list)
    sum_pca: float = math.nan
    sum_ex: float = math.nan
    cos_pca: list[float] = field(default_factory=list)
    cos_ex: list[float] = field(default_factory=list)
    outside_observed: float = math.nan  # %
    outside_expected: float = math.nan  # %

    @property
    def ratio(self) -> float:
        return self.outside_observed / self.outside_expected


@dataclass(frozen=True)
class Facts08:
    ex: str  # the Ex-RPCA model of the records ("Ex-RPCA r=3")
    alm: str | None
    small: bool
    gauss: float
    tail_ratio: list[float]  # per seed: share beyond 3 sd / the Gaussian share
    heavier: SeedCount  # the residual heavier-tailed than Gaussian noise
    as_heavy: SeedCount  # ... by at least half the paper's factor
    not_as_heavy: SeedCount
    tails: Literal["replicates", "direction", "not heavier", "some seeds"]
    ex_more: SeedCount  # Ex-RPCA explains at least as much as PCA (untested)
    steeper: SeedCount  # our PCA sum above the paper's (untested)
    same_answer: SeedCount  # angle below 10 degrees and listed-pair overlap at least 80 %
    same: Verdict
    aligned: SeedCount  # PCA's listed pairs' |cos| above random directions' by more than 0.2
    alignment: Verdict
    listing: list[list[str]]  # per component, the words listed for Ex-RPCA
    fisher_pca: SeedCount  # Fisher's test against the base rate significant (Holm)
    fisher_ex: SeedCount
    all_pseudo: SeedCount
    pseudo: Verdict
    size_shares: list[list[float]]  # per component, per seed: share on the majority side
    size_sig_all: SeedCount  # sign test significant (Holm) for every component
    size: Verdict
    planted_both: SeedCount  # both Ex-RPCA solvers beat PCA on angle and recall, per seed
    has_pos: bool = False
    pos_pca: SeedCount = field(default_factory=lambda: SeedCount(0, 0))  # >= 1 PCA comp. POS
    pos_ex: SeedCount = field(default_factory=lambda: SeedCount(0, 0))
    pos_more_ex: SeedCount = field(default_factory=lambda: SeedCount(0, 0))
    pos_claim: Verdict = "none"
    pos_sig: dict[str, list[int]] = field(default_factory=dict)  # per method: count per seed
    robustness: list[RobustFinding] = field(default_factory=list)


@dataclass(frozen=True)
class RobustFinding:
    """One finding of notebook 08 across the base models of the robustness table."""

    name: str
    holds: list[str]  # the base models under which it holds
    fails: list[str]
    untested: list[str]  # no value (e.g. no POS test)
    verdict: Literal["all", "none", "some", "untested"]


def pos_contrast(pos_tests: Mapping[str, Mapping[str, Any]], ex: str) -> dict[str, list[int]]:
    """Rule: per method (``"PCA"`` and ``ex``), the number of its components whose POS test is
    significant after Holm over the seed's POS tests, per seed."""
    out: dict[str, list[int]] = {}
    for m in ("PCA", ex):
        rows = [v for t, v in pos_tests.items() if t.startswith(f"{m} component ")]
        flags = [_sig(v["pvalue_holm"]) for v in rows]
        out[m] = [int(x) for x in np.sum(flags, axis=0)] if flags else []
    return out


def robustness_findings(rob: Mapping[str, Mapping[str, Any]]) -> list[RobustFinding]:
    """The findings of notebook 08 under every base model of the robustness table (one seed).

    Rules, per base model: *heavy tails* -- the PCA residual's share beyond three sd above the
    Gaussian share; *systematic* -- the PCA-listed pairs' mean |cos| above random directions'
    by more than 0.2; *one answer* -- Ex-RPCA's largest angle to PCA below 10° and listed-pair
    overlap at least 80 %; *pseudo* -- the PCA-listed pairs' pseudo share above the base rate
    and Fisher's test significant after Holm; *sense size* -- the sign test significant after
    Holm for every component of Ex-RPCA; *POS* -- more Ex-RPCA than PCA components with a
    significant POS test (Holm over the seed's POS tests; untested without the POS test).
    A finding's verdict is ``"all"`` when it holds under every base model where it was
    tested, ``"none"`` under none, ``"untested"`` when it was tested under none.
    """
    checks: dict[str, Any] = {
        "Heavy tails": lambda r: r["outside_3sigma"] > GAUSS_3SIGMA,
        "Systematic directions": lambda r: (r["avg_cos_pca"] or 0) > (r["avg_cos_random"] or 0) + 0.2,
        "One answer from PCA and Ex-RPCA": lambda r: (r["angle_deg"] is not None and r["angle_deg"] < 10
                                                      and (r["jaccard"] or 0) >= 0.8),
        "Listed pairs pseudo beyond the base rate": lambda r: (
            (r["pseudo_pca"] or 0) > (r["base_pseudo_rate"] or 0)
            and (r["fisher_pca_holm"] if r["fisher_pca_holm"] is not None else 1) < ALPHA),
        "Sense-size directions": lambda r: r["size_sig_ex"] == r["n_components"],
        "Ex-RPCA more part-of-speech than PCA": lambda r: (
            None if r["pos_sig_ex"] is None or r["pos_sig_pca"] is None
            else r["pos_sig_ex"] > r["pos_sig_pca"]),
    }  # fmt: skip
    out = []
    for name, check in checks.items():
        holds: list[str] = []
        fails: list[str] = []
        untested: list[str] = []
        for model, r in rob.items():
            v = check(r)
            (untested if v is None else holds if v else fails).append(model)
        verdict: Literal["all", "none", "some", "untested"] = (
            "untested" if not holds and not fails else "all" if not fails
            else "none" if not holds else "some")  # fmt: skip
        out.append(RobustFinding(name, holds, fails, untested, verdict))
    return out


def facts_08(
    rec: Mapping[str, Any], other: Mapping[str, Any] | None = None, *, paper: Paper08
) -> Facts08:
    """The facts of notebook 08 (``other`` is not used: the notebook has no other-size
    comparison).

    Rules (all per seed, counted over the seeds):

    * heavy tails: the share of PCA residual entries beyond three standard deviations over the
      Gaussian share; ``"replicates"`` when it is at least half the paper's factor in every seed,
      ``"direction"`` when above 1 in every seed but not that large in every seed, ``"not
      heavier"`` when above 1 in no seed, else ``"some seeds"`` (a description, not a test);
    * one answer: largest principal angle below 10° *and* Jaccard overlap of the listed pairs
      at least 80 % in the same seed;
    * alignment: the listed pairs' mean |cos| with PCA's components above the random-direction
      control by more than 0.2 (a stated threshold, not a test);
    * pseudo: Fisher's exact test significant after Holm over the seed's ``n_tests`` tests; all
      listed pairs pseudo (share 1);
    * sense size: the sign test significant after Holm over the seed's tests for *every* one of
      the ``n_components`` components of Ex-RPCA;
    * planted check: both Ex-RPCA solvers have a smaller largest angle *and* a larger recall
      than PCA, all four in the same seed (:func:`joint_count`);
    * part of speech (:func:`pos_contrast`): a method "finds a part of speech" in a seed when at
      least one of its components' POS tests is significant after Holm over the seed's POS
      tests; the paper's contrast holds in a seed when Ex-RPCA has more such components than
      PCA, and ``pos_claim`` is the verdict of that count;
    * robustness: :func:`robustness_findings` of the ``robustness`` record (absent: none).
    """
    models = list(rec["evr_first"])
    ex = next(m for m in models if m.startswith("Ex-RPCA r="))
    alm = next((m for m in models if m.startswith("Ex-RPCA (ALM)")), None)
    k = int(rec["n_components"])
    ratio = seed_values(rec["outside_3sigma"]) / GAUSS_3SIGMA
    heavier = seed_count(ratio > 1)
    as_heavy = seed_count(ratio >= paper.ratio / 2)
    tails: Literal["replicates", "direction", "not heavier", "some seeds"]
    tails = ("replicates" if as_heavy.every else "direction" if heavier.every
             else "not heavier" if heavier.none else "some seeds")  # fmt: skip
    evr = rec["evr_first"]
    same = joint_count(seed_values(rec["subspace_angle_deg"][ex]) < 10,
                       seed_values(rec["listed_jaccard"][ex]) >= 0.8)  # fmt: skip
    cos = rec["avg_cos"]
    aligned = seed_count(seed_values(cos["PCA"]) > seed_values(cos["random directions"]) + 0.2)
    words = rec["top_words"][ex]
    listing = [list(words[c * len(words) // k : (c + 1) * len(words) // k]) for c in range(k)]
    tests = rec["tests"]
    fisher = {m: seed_count(_sig(tests[f"pseudo share of listed pairs vs base rate: {m}"]
                                 ["pvalue_holm"])) for m in ("PCA", ex)}  # fmt: skip
    all_pseudo = seed_count(seed_values(rec["pseudo_fraction"][ex]) >= 1.0)
    size = [tests[f"sense size sign test: {ex} component {c}"] for c in range(1, k + 1)]
    size_all = joint_count(*[_sig(t["pvalue_holm"]) for t in size])
    pl = rec["planted"]
    flags = []
    for name in ("Ex-RPCA iterative", "Ex-RPCA ALM"):
        if name in pl:
            flags.append(
                seed_values(pl[name]["max_angle_deg"]) < seed_values(pl["PCA"]["max_angle_deg"])
            )
            flags.append(seed_values(pl[name]["recall"]) > seed_values(pl["PCA"]["recall"]))
    n = len(rec["seeds"])
    planted = joint_count(*flags) if flags else SeedCount(0, n)
    pos_tests = rec.get("pos_tests") or {}
    pos_sig = pos_contrast(pos_tests, ex) if pos_tests else {}
    pos_counts = {m: np.asarray(v, dtype=int) for m, v in pos_sig.items()}
    if pos_counts:
        pos_pca, pos_ex = seed_count(pos_counts["PCA"] > 0), seed_count(pos_counts[ex] > 0)
        pos_more = seed_count(pos_counts[ex] > pos_counts["PCA"])
    else:
        pos_pca = pos_ex = pos_more = SeedCount(0, n)
    return Facts08(
        ex=ex, alm=alm, small=rec.get("data_size") == "small", gauss=GAUSS_3SIGMA,
        tail_ratio=[float(x) for x in ratio], heavier=heavier, as_heavy=as_heavy,
        not_as_heavy=SeedCount(n - as_heavy.k, n), tails=tails,
        ex_more=seed_count(seed_values(evr[ex]) >= seed_values(evr["PCA"])),
        steeper=seed_count(seed_values(evr["PCA"]) * 100 > paper.sum_pca),
        same_answer=same, same=_verdict(same), aligned=aligned, alignment=_verdict(aligned),
        listing=listing, fisher_pca=fisher["PCA"], fisher_ex=fisher[ex],
        all_pseudo=all_pseudo, pseudo=_verdict(all_pseudo),
        size_shares=[[float(x) for x in seed_values(t["statistic"])] for t in size],
        size_sig_all=size_all, size=_verdict(size_all), planted_both=planted,
        has_pos=bool(pos_tests), pos_pca=pos_pca, pos_ex=pos_ex, pos_more_ex=pos_more,
        pos_claim=_verdict(pos_more), pos_sig=pos_sig,
        robustness=robustness_findings(rec.get("robustness") or {}),
    )  # fmt: skip


# ================================================================================ notebook 09


@dataclass(frozen=True)
class Paper09:
    """The paper's Table 4 (Spearman x 100)."""

    scws: float = math.nan
    ws: float = math.nan
    scws_pca: float = math.nan
    scws_ex: float = math.nan
    ws_pca: float = math.nan
    rank_pca: float = math.nan
    rank_ex: float = math.nan
    scws_wn: float = math.nan  # the V~_WordNet row (Shi et al. 2016)
    ws_wn: float = math.nan

    @property
    def gain_wn(self) -> float:
        return self.scws_wn - self.scws

    @property
    def gain_pca(self) -> float:
        return self.scws_pca - self.scws

    @property
    def gain_ex(self) -> float:
        return self.scws_ex - self.scws


@dataclass(frozen=True)
class MethodGains:
    """One elimination's Table 4 gains over the seeds."""

    key: str  # "PCA" / "Ex-RPCA"
    row: str  # its Table 4 row
    scws_up: SeedCount
    scws_sig_up: SeedCount  # positive and significant after Holm over the Table 4 tests
    scws_sig_down: SeedCount
    ws_up: SeedCount
    ws_sig_up: SeedCount
    ratio: float | None  # mean SCWS gain over the paper's gain for this method


@dataclass(frozen=True)
class Facts09:
    small: bool
    sig: dict[str, SeedCount]  # WordNet signal -> significant after Holm over the five
    beats_raw: SeedCount
    beats_freq: SeedCount
    positive: SeedCount
    partial_pos: SeedCount
    accurate: SeedCount
    wordnet: Verdict
    methods: list[MethodGains]
    up_both: SeedCount  # SCWS gain positive for both methods in the same seed
    sig_both: SeedCount  # ... and significant for both in the same seed
    table4: Literal["replicated", "partly", "lower", "no detectable difference"]
    diff: list[float]  # per seed: Ex-RPCA minus PCA on SCWS test
    close: SeedCount  # within one point (a stated rule, untested)
    closeness: Verdict
    keep_share: list[float]  # per seed: removable dimensions / dimension
    two_thirds: SeedCount
    removable: Verdict
    wordnet_row: MethodGains | None = None  # the supervised V~_WordNet row, when it ran
    ex_above_wn: SeedCount | None = None  # Ex-RPCA's SCWS test score above V~_WordNet's
    ex_sig_above_wn: SeedCount | None = None  # ... and the Williams test significant (Holm)
    wn_sig_above_ex: SeedCount | None = None
    wn_claim: Literal["replicated", "reversed", "no detectable difference", "mixed"] | None = None


def wordnet_claim(
    above: SeedCount, sig_above: SeedCount, sig_below: SeedCount
) -> Literal["replicated", "reversed", "no detectable difference", "mixed"]:
    """Rule: the paper's "even better than the semi-supervised method" (Ex-RPCA above
    V~_WordNet on SCWS) is ``"replicated"`` when Ex-RPCA is significantly higher (Williams,
    Holm over the tests of Table 4) in every seed, ``"reversed"`` when V~_WordNet is
    significantly higher in every seed, ``"no detectable difference"`` when neither is
    significantly higher in any seed, else ``"mixed"``. ``above`` (unsigned) is reported
    alongside."""
    if sig_above.every:
        return "replicated"
    if sig_below.every:
        return "reversed"
    if sig_above.none and sig_below.none:
        return "no detectable difference"
    return "mixed"


def table4_verdict(
    methods: list[MethodGains], sig_both: SeedCount
) -> Literal["replicated", "partly", "lower", "no detectable difference"]:
    """Rule: the paper's SCWS gain is ``"replicated"`` when both eliminations gain
    significantly (after Holm over the tests of Table 4 of a seed) in the same seed, in every seed;
    ``"no detectable difference"`` when no gain of either is significant in any seed;
    ``"lower"`` when some significant change is a loss and none a gain; ``"partly"``
    otherwise."""
    if sig_both.every:
        return "replicated"
    up = any(m.scws_sig_up.some for m in methods)
    down = any(m.scws_sig_down.some for m in methods)
    if not up and not down:
        return "no detectable difference"
    if down and not up:
        return "lower"
    return "partly"


#: The WordNet signals of notebook 09 (the rows of its WordNet table).
_WORDNET_SIGNALS = ("mean ||S_p|| (Ex-RPCA)", "mean ||M_p|| (raw difference)",
                    "frequency (minus rank)", "||S_p|| given frequency (partial)")  # fmt: skip


def facts_09(
    rec: Mapping[str, Any], other: Mapping[str, Any] | None = None, *, paper: Paper09
) -> Facts09:
    """The facts of notebook 09 (``other`` is not used).

    Rules (per seed, counted over the seeds): a WordNet signal is significant when its
    correlation's p-value after Holm over the five signals is below 5 %; "beats" compares two
    correlations (untested); the paper's "accurate indicator" holds in a seed when the sparse
    norm correlates more than the raw difference norm *and* its partial correlation given
    frequency is positive and significant, in that seed. Table 4: :func:`table4_verdict`; the
    gain ratio of each method is its own mean SCWS gain over the paper's gain for the same
    method. PCA and Ex-RPCA are "within one point" when their SCWS test scores differ by less
    than 0.01 (untested). Two thirds of the dimensions are removable when the dev score stays
    within the tolerance up to that many removed dimensions. The supervised row V~_WordNet
    (when recorded) gets the gains of a method (against the paper's V~_WordNet gain) and
    :func:`wordnet_claim` for Ex-RPCA against it. Every Table 4 test is Holm-corrected over
    the ``n_table4_tests`` tests of a seed.
    """
    wn = rec["wordnet"]
    label = str(rec.get("data", {}).get("wordsim_label", "WS-353"))
    if not wn:  # no WordNet check (a corpus not in English): every WordNet count is of NaNs
        nan = [None] * len(rec["seeds"])
        wn = {k: {"spearman": nan, "pvalue_holm": nan} for k in _WORDNET_SIGNALS}
    s_name, m_name, f_name = ("mean ||S_p|| (Ex-RPCA)", "mean ||M_p|| (raw difference)",
                              "frequency (minus rank)")  # fmt: skip
    p_name = "||S_p|| given frequency (partial)"
    rho = {k: seed_values(v["spearman"]) for k, v in wn.items()}
    sig = {k: seed_count(_sig(v["pvalue_holm"])) for k, v in wn.items()}
    beats_raw = rho[s_name] > rho[m_name]
    partial = _sig(wn[p_name]["pvalue_holm"]) & (rho[p_name] > 0)
    accurate = joint_count(beats_raw, partial)
    t4 = rec["table4"]

    def gains(key: str, row: str, pg: float) -> MethodGains:
        r = t4[row]
        g = seed_values(r["SCWS gain"])
        w = seed_values(r[f"{label} gain"])
        s_sig, w_sig = _sig(r["p_holm (SCWS)"]), _sig(r[f"p_holm ({label})"])
        mean = float(np.nanmean(g)) if np.isfinite(g).any() else None
        ratio = 100 * mean / pg if mean is not None and math.isfinite(pg) and pg else None
        return MethodGains(key, row, seed_count(g > 0), seed_count((g > 0) & s_sig),
                           seed_count((g < 0) & s_sig), seed_count(w > 0),
                           seed_count((w > 0) & w_sig), ratio)  # fmt: skip

    wn_row = ex_above = ex_sig = wn_sig = wn_claim = None
    if "V~ WordNet" in t4:
        wn_row = gains("WordNet", "V~ WordNet", paper.gain_wn)
        d_wn = seed_values(t4["V~ Ex-RPCA"]["SCWS test maxSimC"]) - seed_values(
            t4["V~ WordNet"]["SCWS test maxSimC"])  # fmt: skip
        p_vs = _sig(t4["V~ WordNet"]["p_holm (SCWS, against Ex-RPCA)"])
        ex_above = seed_count(d_wn > 0)
        ex_sig, wn_sig = seed_count((d_wn > 0) & p_vs), seed_count((d_wn < 0) & p_vs)
        wn_claim = wordnet_claim(ex_above, ex_sig, wn_sig)
    methods = []
    for key, row, pg in (
        ("PCA", "V~ PCA", paper.gain_pca),
        ("Ex-RPCA", "V~ Ex-RPCA", paper.gain_ex),
    ):
        r = t4[row]
        g = seed_values(r["SCWS gain"])
        w = seed_values(r[f"{label} gain"])
        s_sig, w_sig = _sig(r["p_holm (SCWS)"]), _sig(r[f"p_holm ({label})"])
        mean = float(np.nanmean(g)) if np.isfinite(g).any() else None
        ratio = 100 * mean / pg if mean is not None and math.isfinite(pg) and pg else None
        methods.append(MethodGains(key, row, seed_count(g > 0), seed_count((g > 0) & s_sig),
                                   seed_count((g < 0) & s_sig), seed_count(w > 0),
                                   seed_count((w > 0) & w_sig), ratio))  # fmt: skip
    up_both = joint_count(*[seed_values(t4[m.row]["SCWS gain"]) > 0 for m in methods])
    sig_both = joint_count(*[(seed_values(t4[m.row]["SCWS gain"]) > 0)
                             & _sig(t4[m.row]["p_holm (SCWS)"]) for m in methods])  # fmt: skip
    diff = seed_values(t4["V~ Ex-RPCA"]["SCWS test maxSimC"]) - seed_values(
        t4["V~ PCA"]["SCWS test maxSimC"])  # fmt: skip
    close = seed_count(np.abs(diff) < 0.01)
    dim = int(rec["dim"])
    keep = seed_values(rec["keep_original_removed"])
    two_thirds = seed_count(keep >= 2 * dim / 3)
    acc = accurate
    return Facts09(
        small=rec.get("data_size") == "small", sig=sig,
        beats_raw=seed_count(beats_raw), beats_freq=seed_count(rho[s_name] > rho[f_name]),
        positive=seed_count((rho[s_name] > 0) & _sig(wn[s_name]["pvalue_holm"])),
        partial_pos=seed_count(partial), accurate=acc, wordnet=_verdict(acc),
        methods=methods, up_both=up_both, sig_both=sig_both,
        table4=table4_verdict(methods, sig_both),
        diff=[float(x) for x in diff], close=close, closeness=_verdict(close),
        keep_share=[float(x) for x in keep / dim], two_thirds=two_thirds,
        removable=_verdict(two_thirds), wordnet_row=wn_row, ex_above_wn=ex_above,
        ex_sig_above_wn=ex_sig, wn_sig_above_ex=wn_sig, wn_claim=wn_claim,
    )  # fmt: skip
