"""The facts of notebook 07's Discussion: each qualitative word as a pure function of the records.

Every function here reads the records of one run (:class:`~._result.TranslingualRecords`,
plain JSON values) and states its rule in its docstring; :func:`facts_07` gathers them for the
template ``templates/discussion_07.md.j2``. The shared rules are those of
:mod:`workbench.studies.facts`: *significant* is a p-value after the stated correction below 5 %,
a difference that is not significant is *no detectable difference*, *in every seed / in k of n
seeds* is a :class:`~workbench.studies.facts.SeedCount`.

The correction families, named wherever a test is quoted:

* the paper's four pre-stated claims (:data:`~._verses.PAPER_CLAIMS`): exact McNemar on Top-1
  hits, **Holm over the claims** -- on chapters once, on verses within each seed (the same kind
  of family at both levels);
* all pairs of methods on the verse test: McNemar, Holm over the pairs of each seed;
* the smallest significantly superior set: t-tests Bonferroni-corrected over all pairs of methods
  (the paper's procedure; the superior sets quoted are *ours* -- the paper's boldface is not
  recoverable from its text, see :func:`workbench.reported.reported`);
* the three classification pairs: McNemar, Holm over the three.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from workbench.reported import reported
from workbench.studies.facts import (
    Direction,
    SeedCount,
    direction,
    finite,
    seed_count,
    significant,
)

from ._verses import PAPER_CLAIMS

__all__ = [
    "LEARNED",
    "Ceiling",
    "ChapterClaim",
    "ClassificationFacts",
    "DimsAhead",
    "Facts07",
    "PairFact",
    "Paper07",
    "PlsaFacts",
    "SuperiorSets",
    "VerseClaim",
    "VerseFacts",
    "VocabularyFacts",
    "between",
    "chapter_ceiling",
    "chapter_claims",
    "claim_verdict",
    "classification_facts",
    "comparable_claims",
    "dims_ahead",
    "facts_07",
    "learned_methods",
    "paper_07",
    "plsa_facts",
    "replication",
    "superior_sets",
    "unranked",
    "verse_claims",
    "verse_facts",
    "vocabulary_facts",
]

#: The learned methods (every method but *Untranslated*), in the order of the paper's tables.
LEARNED = ("OPCA", "CPLSA", "Word-by-word", "Word-by-word+LSA", "JPLSA", "CCA", "CL-LSI")

Verdict = Literal["holds", "reversed", "no detectable difference"]
Replication = Literal["replicated", "reversed", "not replicated"]
Where = Literal["every", "none", "some"]


def learned_methods(rec: Mapping[str, Any]) -> list[str]:
    """Rule: the methods of :data:`LEARNED` that have a chapter test result, in that order."""
    return [m for m in LEARNED if m in rec["test_top1"]]


# ----------------------------------------------------------------------------- chapters


@dataclass(frozen=True)
class Ceiling:
    """Chapter retrieval of the learned methods (see :func:`chapter_ceiling`)."""

    at_ceiling: bool
    worst_errors: int
    queries: int
    lowest: str
    lowest_top1: float
    highest_top1: float


def chapter_ceiling(rec: Mapping[str, Any]) -> Ceiling:
    """Rule: chapter retrieval is *at its ceiling* when the learned method with the most test
    errors (queries whose translation is not ranked first: ``round((1 - Top-1) x queries)``)
    has at most ``max(2, 1 % of the queries)`` errors."""
    top1 = rec["test_top1"]
    learned = learned_methods(rec)
    q = int(rec["n_test_queries"])
    lowest = min(learned, key=lambda m: top1[m])
    worst = max(round((1 - top1[m]) * q) for m in learned)
    return Ceiling(worst <= max(2, 0.01 * q), int(worst), q, lowest, float(top1[lowest]),
                   float(max(top1[m] for m in learned)))  # fmt: skip


def unranked(members: Sequence[str], learned: Sequence[str]) -> bool:
    """Rule: a test *cannot rank* the learned methods when every one of them is in its smallest
    significantly superior set (t-tests, Bonferroni over all pairs of methods): no learned
    method is significantly behind the set."""
    return set(members) >= set(learned)


def claim_verdict(difference: Any, corrected_p: Any) -> Verdict:
    """Rule: a claim "winner > loser" *holds* when the winner is ahead and the difference is
    significant after the stated correction (Holm over the claims); it is *reversed* when the
    loser is ahead, significantly; otherwise there is *no detectable difference*."""
    d = direction(difference, is_significant=significant(corrected_p))
    return "holds" if d == "higher" else "reversed" if d == "lower" else d


@dataclass(frozen=True)
class ChapterClaim:
    """One pre-stated claim on the chapter test (McNemar, Holm over the claims)."""

    claim: str
    difference: float
    mcnemar_p: float
    holm_p: float
    verdict: Verdict


def chapter_claims(rec: Mapping[str, Any]) -> list[ChapterClaim]:
    """Rule: each row of ``retrieval_pairs`` is the claim "method > baseline", judged by
    :func:`claim_verdict` on its Holm p-value (Holm over the claims)."""
    return [ChapterClaim(f"{r['method']} > {r['baseline']}", float(r["difference"]),
                         float(r["mcnemar p"]), float(r["holm p"]),
                         claim_verdict(r["difference"], r["holm p"]))
            for r in rec["retrieval_pairs"]]  # fmt: skip


@dataclass(frozen=True)
class DimsAhead:
    """Where one dev curve is above another (see :func:`dims_ahead`)."""

    ahead: list[str]
    dims: list[str]
    where: Where


def dims_ahead(a: Mapping[str, float], b: Mapping[str, float]) -> DimsAhead:
    """Rule: the dimensions (or topic numbers) both dev curves have, and those at which ``a``'s
    dev MRR is strictly higher than ``b``'s; ``where`` is "every" / "none" / "some". Each curve
    is one deterministic run with no test, so "higher" describes the values only."""
    dims = sorted(set(a) & set(b), key=int)
    ahead = [d for d in dims if a[d] > b[d]]
    where: Where = "every" if dims and len(ahead) == len(dims) else "none" if not ahead else "some"
    return DimsAhead(ahead, dims, where)


@dataclass(frozen=True)
class PlsaFacts:
    """CPLSA vs JPLSA on dev chapters (see :func:`plsa_facts`)."""

    topics: list[str]
    ahead: DimsAhead
    iterations: dict[str, list[int]]
    capped: dict[str, list[str]]
    fewer: Literal["fewer", "more", "as many"]
    factor: float
    per_iteration: float | None
    largest: str
    grid: dict[str, list[int]]
    grid_end: dict[str, str]
    chosen: dict[str, dict[str, Any]]
    fits: dict[str, int]
    at_iteration_cap: dict[str, int]


def plsa_facts(rec: Mapping[str, Any]) -> PlsaFacts | None:
    """Rules: CPLSA is compared with JPLSA at the topic numbers both were fitted with
    (:func:`dims_ahead` on dev MRR). A model is *capped* at a topic number when its dev-best
    iteration is the last one allowed (later iterations were not tried). CPLSA needs *fewer*
    iterations when the mean dev-best iteration of JPLSA over the topic numbers divided by
    CPLSA's (at least one) is above 1, *more* below 1; ``factor`` is that ratio or its inverse.
    ``per_iteration``: seconds per CPLSA iteration over seconds per JPLSA iteration at the
    largest topic number (None when one is missing). None without both models."""
    dev, peak = rec["dev_mrr_by_dim"], rec["plsa_peak_iteration"]
    if not {"JPLSA", "CPLSA"} <= set(dev) or not {"JPLSA", "CPLSA"} <= set(peak):
        return None
    ahead = dims_ahead(dev["CPLSA"], dev["JPLSA"])
    topics = ahead.dims
    its = {m: [int(peak[m][t]) for t in topics] for m in ("CPLSA", "JPLSA")}
    cap = rec["plsa_max_iterations"]
    capped = {m: [t for t in topics if peak[m][t] >= cap[m]] for m in ("CPLSA", "JPLSA")}
    ratio = (sum(its["JPLSA"]) / len(topics)) / max(sum(its["CPLSA"]) / len(topics), 1.0)
    fewer: Literal["fewer", "more", "as many"] = (
        "fewer" if ratio > 1 else "more" if ratio < 1 else "as many")  # fmt: skip
    sec = rec["plsa_seconds_per_iteration"]
    big = topics[-1]
    c, j = finite(sec.get(f"CPLSA {big}")), finite(sec.get(f"JPLSA {big}"))
    per_it = c / j if c is not None and j else None
    fits = rec.get("plsa_fits", [])
    n_fits = {m: sum(f["method"] == m for f in fits) for m in ("JPLSA", "CPLSA")}
    at_cap = {m: sum(f["method"] == m and f["stop"] == "cap" for f in fits)
              for m in ("JPLSA", "CPLSA")}  # fmt: skip
    return PlsaFacts(topics, ahead, its, capped, fewer, ratio if ratio >= 1 else 1 / ratio,
                     per_it, big, dict(rec.get("plsa_topic_grid", {})),
                     dict(rec.get("plsa_grid_end", {})), dict(rec.get("plsa_chosen", {})),
                     n_fits, at_cap)  # fmt: skip


def between(rec: Mapping[str, Any], a: str, b: str) -> str:
    """Rule: on the verse test, ``a`` is *ahead* of ``b`` when the pair is significant in every
    seed with ``a`` better (McNemar, Holm over all pairs of methods of each seed:
    ``verse_replicated_differences``), *behind* when ``b`` is, and otherwise there is *no
    difference significant in every seed*."""
    pairs = {(str(x), str(y)) for x, y in rec["verse_replicated_differences"]}
    return "ahead" if (a, b) in pairs else "behind" if (b, a) in pairs else "no difference"


def comparable_claims(rec: Mapping[str, Any]) -> list[ChapterClaim] | None:
    """Rule: each claim of the comparable condition judged by :func:`claim_verdict` on its Holm
    p-value (exact McNemar on test Top-1 hits, Holm over the claims of that condition). None when
    the condition was not run."""
    comp = rec.get("comparable")
    if not comp:
        return None
    return [ChapterClaim(str(c["claim"]), float(c["difference"]), float(c["mcnemar p"]),
                         float(c["holm p"]), claim_verdict(c["difference"], c["holm p"]))
            for c in comp["claims"]]  # fmt: skip


@dataclass(frozen=True)
class VocabularyFacts:
    """The vocabulary sweep (see :func:`vocabulary_facts`)."""

    sizes: list[int]
    methods: list[str]
    mean_top1: dict[str, dict[int, float]]
    spread: dict[str, float]
    same_order: bool


def vocabulary_facts(rec: Mapping[str, Any]) -> VocabularyFacts | None:
    """Rules: per method and vocabulary size, the mean verse Top-1 over the seeds; ``spread``:
    its largest minus its smallest value over the sizes; ``same_order``: the methods' order by
    mean Top-1 is the same at every size. Each size draws its own verse pools, so these are
    values, not tests. None without a sweep."""
    rows = rec.get("term_sweep") or []
    if not rows:
        return None
    sizes = sorted({int(r["n_terms"]) for r in rows})
    methods = list(dict.fromkeys(str(r["method"]) for r in rows))
    mean: dict[str, dict[int, float]] = {m: {} for m in methods}
    for r in rows:
        v = [float(x) for x in r["verse top1"]]
        mean[str(r["method"])][int(r["n_terms"])] = sum(v) / len(v)
    spread = {m: max(d.values()) - min(d.values()) for m, d in mean.items()}
    orders = {tuple(sorted((m for m in methods if k in mean[m]), key=lambda m: -mean[m][k]))
              for k in sizes}  # fmt: skip
    return VocabularyFacts(sizes, methods, mean, spread, len(orders) == 1)


# ----------------------------------------------------------------------------- verses


def replication(per_seed: Sequence[Verdict]) -> Replication:
    """Rule: a claim is *replicated* when it holds (significant after Holm over the claims, the
    winner ahead) in every seed, *reversed* when it is significantly reversed in every seed,
    and *not replicated* otherwise. With one seed, replication across seeds is not tested:
    "replicated" then only means that it holds in that seed."""
    if per_seed and all(v == "holds" for v in per_seed):
        return "replicated"
    if per_seed and all(v == "reversed" for v in per_seed):
        return "reversed"
    return "not replicated"


@dataclass(frozen=True)
class VerseClaim:
    """One pre-stated claim on the verse test, over the seeds (see :func:`verse_claims`)."""

    claim: str
    differences: list[float]
    holm_p: list[float]
    verdicts: list[Verdict]
    ahead: SeedCount
    holds: SeedCount
    reversed: SeedCount
    replication: Replication


def verse_claims(rec: Mapping[str, Any]) -> list[VerseClaim]:
    """Rule: per seed, :func:`claim_verdict` of the claim's Top-1 difference and its Holm
    p-value (Holm over the claims of that seed); ``ahead`` counts the seeds with a positive
    raw difference (no test), ``holds`` / ``reversed`` the seeds with that verdict, and
    :func:`replication` sums them up. Claims in the order of :data:`PAPER_CLAIMS`, then any
    other recorded claim."""
    claims = rec["verse_claims"]
    order = [f"{a} > {b}" for a, b in PAPER_CLAIMS]
    names = [c for c in order if c in claims] + [c for c in claims if c not in order]
    out = []
    for name in names:
        c = claims[name]
        diffs = [float(d) for d in c["difference"]]
        verdicts = [claim_verdict(d, p) for d, p in zip(diffs, c["holm p"])]
        out.append(VerseClaim(
            name, diffs, [float(p) for p in c["holm p"]], verdicts,
            seed_count([d > 0 for d in diffs]), seed_count([v == "holds" for v in verdicts]),
            seed_count([v == "reversed" for v in verdicts]), replication(verdicts)))  # fmt: skip
    return out


@dataclass(frozen=True)
class SuperiorSets:
    """The most frequent smallest significantly superior set over the seeds (ours)."""

    members: list[str]
    seeds: SeedCount


def superior_sets(rec: Mapping[str, Any]) -> SuperiorSets:
    """Rule: *our* smallest significantly superior set (t-tests, Bonferroni over all pairs of
    methods) of each seed; the set reported is the one found in most seeds (the first in seed
    order on ties), with the number of seeds it was found in."""
    sets = [tuple(v) for v in rec["verse_superior_sets"].values()]
    common = max(dict.fromkeys(sets), key=sets.count)
    return SuperiorSets(list(common), SeedCount(sets.count(common), len(sets)))


@dataclass(frozen=True)
class VerseFacts:
    """The verse test's separation of the methods (see :func:`verse_facts`)."""

    best: str
    best_highest: SeedCount
    best_below_ceiling: float
    best_ahead_of_all: bool
    n_pairs: int
    significant_low: int
    significant_high: int
    n_replicated: int
    groups: list[tuple[str, list[str]]]
    tiers: list[list[str]] | None
    chosen: list[tuple[str, list[tuple[str, int]]]]


def verse_facts(rec: Mapping[str, Any]) -> VerseFacts:
    """Rules: ``best`` is the first method of ``verse_ranking`` (highest mean Top-1);
    ``best_highest`` counts the seeds in which its Top-1 is the highest (raw, no test);
    ``best_ahead_of_all``: it is significantly ahead of every other method in every seed (each
    pair in ``verse_replicated_differences``: McNemar, Holm over the pairs of each seed).
    ``significant_low`` / ``_high``: the fewest / most pairs significant in one seed;
    ``n_replicated``: pairs significant in every seed in the same direction. ``groups``: the
    methods per letter of the compact letter display (methods sharing a letter have no
    difference significant in every seed); ``tiers``: the same groups when every method has one
    letter, else None. ``chosen``: each method's dev-chosen settings with the number of seeds
    each was chosen in (methods without a setting left out)."""
    top1, ranking, letters = rec["verse_top1"], rec["verse_ranking"], rec["verse_letters"]
    best = ranking[0]
    n = len(rec["seeds"])
    highest = seed_count([max(top1, key=lambda m: top1[m][i]) == best for i in range(n)])
    beaten = {b for a, b in rec["verse_replicated_differences"] if a == best}
    groups: dict[str, list[str]] = {}
    for m in ranking:
        for ch in letters[m]:
            groups.setdefault(ch, []).append(m)
    tiers = list(groups.values()) if all(len(v) == 1 for v in letters.values()) else None
    chosen = []
    for m in ranking:
        per_seed = rec["verse_chosen"][m]
        if set(per_seed) == {"no setting"}:
            continue
        counts: dict[str, int] = {}
        for c in per_seed:
            counts[c] = counts.get(c, 0) + 1
        chosen.append((m, list(counts.items())))
    sig = sorted(int(v) for v in rec["verse_significant_pairs"].values())
    mean_best = sum(top1[best]) / len(top1[best])
    return VerseFacts(best, highest, 1 - mean_best, beaten >= set(ranking) - {best},
                      int(rec["verse_n_pairs"]), sig[0], sig[-1],
                      len(rec["verse_replicated_differences"]), list(groups.items()), tiers,
                      chosen)  # fmt: skip


# ----------------------------------------------------------------------------- classification


@dataclass(frozen=True)
class PairFact:
    """One pair of the classification pairs table (McNemar, Holm over its rows)."""

    method: str
    baseline: str
    difference: float
    holm_p: float
    direction: Direction


@dataclass(frozen=True)
class ClassificationFacts:
    """Cross-language classification (see :func:`classification_facts`)."""

    order: list[str]
    unranked: bool
    pairs: list[PairFact]
    opca_vs: dict[str, Direction]
    opca_ahead_of_both: bool
    dev_low: float
    dev_high: float
    test_low: float
    test_high: float


def classification_facts(rec: Mapping[str, Any]) -> ClassificationFacts | None:
    """None when the run has no classification (a user's texts carry no division labels).
    Rules: ``order`` by test accuracy; ``unranked`` by :func:`unranked` on the
    classification superior set; each pair's direction by
    :func:`workbench.studies.facts.direction` on its Holm p-value (Holm over the pairs of the
    table); OPCA is *ahead of both* CCA and CL-LSI only when both its pairs are significantly
    "higher" (raw accuracies alone decide nothing). ``dev_*`` / ``test_*``: the range of the
    learned methods' dev and test accuracies."""
    acc, dev = rec["classification_accuracy"], rec["classification_dev_accuracy"]
    learned = [m for m in LEARNED if m in acc]
    if not learned:
        return None
    pairs = [PairFact(str(r["method"]), str(r["baseline"]), float(r["difference"]),
                      float(r["holm p"]),
                      direction(r["difference"], is_significant=significant(r["holm p"])))
             for r in rec["classification_pairs"]]  # fmt: skip
    opca_vs = {p.baseline: p.direction for p in pairs if p.method == "OPCA"}
    both = all(opca_vs.get(m) == "higher" for m in ("CCA", "CL-LSI"))
    return ClassificationFacts(
        sorted(acc, key=lambda m: -acc[m]), unranked(rec["superior_set_classification"], learned),
        pairs, opca_vs, both, min(dev[m] for m in learned), max(dev[m] for m in learned),
        min(acc[m] for m in learned), max(acc[m] for m in learned))  # fmt: skip


# ----------------------------------------------------------------------------- the paper


@dataclass(frozen=True)
class Paper07:
    """The paper's numbers quoted by the Discussion (:func:`workbench.reported.reported`)."""

    top1_europarl: float | None
    top1_wikipedia: float | None
    best_top1: float | None
    opca_gamma: float | None
    cca_gamma_europarl: float | None
    cca_gamma_wikipedia: float | None
    cplsa_fewer_iterations: float | None
    minutes_cplsa: float | None
    minutes_jplsa: float | None
    class_opca: float | None
    class_cca: float | None
    class_cllsi: float | None


def _reported(table: str, row: str, column: str) -> float | None:
    t = reported("translingual", table).table
    return finite(t.at[row, column]) if row in t.index and column in t.columns else None


def paper_07() -> Paper07:
    """The paper's numbers: OPCA's Top-1 in Tables 1 (Europarl) and 2 (Wikipedia), the ridge
    values it used, its EM iteration ratio and minutes per iteration, and Table 3's Spanish
    accuracies of OPCA, CCA and CL-LSI."""
    t1 = _reported("table1", "OPCA", "Accuracy")
    t2 = _reported("table2", "OPCA", "Accuracy")
    best = max((v for v in (t1, t2) if v is not None), default=None)
    return Paper07(
        t1, t2, best, _reported("settings", "OPCA gamma", "value"),
        _reported("settings", "CCA gamma (Europarl)", "value"),
        _reported("settings", "CCA gamma (Wikipedia)", "value"),
        _reported("em_iterations", "CPLSA", "times fewer iterations than JPLSA"),
        _reported("em_iterations", "CPLSA", "minutes per iteration"),
        _reported("em_iterations", "JPLSA", "minutes per iteration"),
        _reported("table3", "OPCA", "Spanish Accuracy"),
        _reported("table3", "CCA", "Spanish Accuracy"),
        _reported("table3", "CL-LSI", "Spanish Accuracy"))  # fmt: skip


# ----------------------------------------------------------------------------- all facts


@dataclass(frozen=True)
class Facts07:
    """Every fact the Discussion of notebook 07 uses (see :func:`facts_07`)."""

    n_seeds: int
    learned: list[str]
    n_method_pairs: int
    ceiling: Ceiling
    chapter_superior_all: bool
    chapter_unranked: bool
    only_untranslated_out: bool
    above_paper: bool
    chapter_claims: list[ChapterClaim]
    n_chapter_significant: int
    opca_vs: dict[str, DimsAhead] | None
    plsa: PlsaFacts | None
    opca_vs_cplsa: str | None
    cplsa_vs_jplsa: str | None
    vocabulary: VocabularyFacts | None
    comparable: list[ChapterClaim] | None
    verse: VerseFacts
    verse_claims: list[VerseClaim]
    claims_held: list[str]
    claims_failed: list[str]
    claims_reversed: list[str]
    superior: SuperiorSets
    classification: ClassificationFacts | None
    speed_methods: list[str]
    paper: Paper07


def facts_07(rec: Mapping[str, Any]) -> Facts07:
    """The facts of notebook 07's Discussion from one run's records.

    Rules of the composite facts: ``n_method_pairs``: the pairs of methods of the chapter test
    (the Bonferroni family of its superior set); ``chapter_superior_all``: :func:`unranked` on
    the chapter Top-1 superior set; ``chapter_unranked``: the chapter test *cannot rank* the
    learned methods -- every one is in the superior set and none of the pre-stated claims shows
    a significant difference (either way); ``only_untranslated_out``: the chapter superior set
    holds every learned method and not *Untranslated*; ``above_paper``: every learned method's
    chapter Top-1 is above the paper's best Top-1 (OPCA, Tables 1 and 2) -- a comparison of
    values across corpora, no test; ``claims_held`` / ``claims_failed``: the verse claims
    replicated / not replicated (:func:`replication`), ``claims_reversed`` those significantly
    reversed in every seed; ``speed_methods``: the methods whose fit time is quoted, in a fixed
    order (the projections, the topic models, word-by-word); ``opca_vs_cplsa`` /
    ``cplsa_vs_jplsa``: :func:`between` on the verse test (the discriminative projection vs the
    discriminative topic model, and the topic models' pair), None when one was not run.
    """
    learned = learned_methods(rec)
    ceiling = chapter_ceiling(rec)
    sup = rec["superior_set_top1"]
    paper = paper_07()
    dev = rec["dev_mrr_by_dim"]
    opca_vs = ({m: dims_ahead(dev["OPCA"], dev[m]) for m in ("CL-LSI", "CCA")}
               if {"OPCA", "CL-LSI", "CCA"} <= set(dev) else None)  # fmt: skip
    chapter = chapter_claims(rec)
    verse = verse_claims(rec)
    claims_order = [c for c in verse if c.claim in {f"{a} > {b}" for a, b in PAPER_CLAIMS}]
    n_methods = len(rec["test_top1"])
    n_significant = sum(c.verdict != "no detectable difference" for c in chapter)
    speed = ("OPCA", "CCA", "CL-LSI", "JPLSA", "CPLSA", "Word-by-word")
    ranked = set(rec["verse_ranking"])
    return Facts07(
        n_seeds=len(rec["seeds"]),
        learned=learned,
        n_method_pairs=n_methods * (n_methods - 1) // 2,
        ceiling=ceiling,
        chapter_superior_all=unranked(sup, learned),
        chapter_unranked=unranked(sup, learned) and n_significant == 0,
        only_untranslated_out=unranked(sup, learned) and "Untranslated" not in sup,
        above_paper=paper.best_top1 is not None and ceiling.lowest_top1 > paper.best_top1,
        chapter_claims=chapter,
        n_chapter_significant=n_significant,
        opca_vs=opca_vs,
        plsa=plsa_facts(rec),
        opca_vs_cplsa=between(rec, "OPCA", "CPLSA") if {"OPCA", "CPLSA"} <= ranked else None,
        cplsa_vs_jplsa=between(rec, "CPLSA", "JPLSA") if {"CPLSA", "JPLSA"} <= ranked else None,
        vocabulary=vocabulary_facts(rec),
        comparable=comparable_claims(rec),
        verse=verse_facts(rec),
        verse_claims=verse,
        claims_held=[c.claim for c in claims_order if c.replication == "replicated"],
        claims_failed=[c.claim for c in claims_order if c.replication != "replicated"],
        claims_reversed=[c.claim for c in claims_order if c.replication == "reversed"],
        superior=superior_sets(rec),
        classification=classification_facts(rec),
        speed_methods=[m for m in speed if m in rec["fit_seconds"]],
        paper=paper,
    )
