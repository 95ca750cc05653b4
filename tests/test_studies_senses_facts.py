"""The facts of notebooks 08 and 09 on constructed records, with the records of the defects
they fix (seed counts of two things at once, and the Table 4 gain ratio)."""

from __future__ import annotations

import pytest

from workbench.studies.facts import SeedCount
from workbench.studies.senses import discussion_08, discussion_09
from workbench.studies.senses._discussion import paper_08, paper_09
from workbench.studies.senses._facts import (
    MethodGains,
    facts_08,
    facts_09,
    joint_count,
    table4_verdict,
)

EX = "Ex-RPCA r=3"
TESTS_08 = [f"pseudo share of listed pairs vs base rate: {m}" for m in ("PCA", EX)] + [
    f"sense size sign test: {EX} component {c}" for c in (1, 2, 3)
]


def _t(stat, p):
    return {"statistic": stat, "pvalue": p, "pvalue_holm": p}


def _records_08(**over):
    two = [0, 1]
    rec = {
        "data_size": "full", "seeds": two, "n_multisense_words": [300, 300],
        "n_columns": [1600, 1650], "dim": 25, "n_components": 3,
        "evr_components": {m: {str(c): [0.1, 0.1] for c in (1, 2, 3)} for m in ("PCA", EX)},
        "evr_first": {"PCA": [0.3, 0.3], EX: [0.32, 0.31]},
        "evr_seed": {"PCA": [0.1, 0.1, 0.1], EX: [0.1, 0.1, 0.1]},
        "converged": {"PCA": [True, True], EX: [True, True]},
        "iterations": {"PCA": [1, 1], EX: [5, 6]},
        "sparse_fraction": {"PCA": [0.0, 0.0], EX: [0.03, 0.03]},
        "avg_cos": {"PCA": [0.9, 0.9], EX: [0.9, 0.9], "random directions": [0.3, 0.3]},
        "pseudo_fraction": {"PCA": [0.2, 0.2], EX: [0.2, 0.2], "random directions": [0.1, 0.1],
                            "all sense pairs (base rate)": [0.1, 0.1]},
        "n_listed_pairs": 15, "base_pseudo_rate": [0.1, 0.1],
        "tests": {name: _t([0.6, 0.6], [0.01, 0.01]) for name in TESTS_08},
        "n_tests": len(TESTS_08), "outside_3sigma": [0.02, 0.02],
        "subspace_angle_deg": {EX: [5.0, 5.0]}, "listed_jaccard": {EX: [0.9, 0.9]},
        "planted": {name: {"precision": [0.9, 0.9], "recall": [0.9, 0.9],
                           "max_angle_deg": [5.0, 5.0]}
                    for name in ("PCA", "Ex-RPCA iterative", "Ex-RPCA ALM")},
        "top_words": {EX: [f"w{i}" for i in range(15)]}, "top_words_seed": 0,
        "seconds": [1.0, 1.0],
    }  # fmt: skip
    rec.update(over)
    return rec


def _text(md) -> str:
    return md.data.replace("\n  ", " ")


def test_joint_count_is_a_per_seed_and():
    assert joint_count([True, False], [False, True]) == SeedCount(0, 2)
    assert joint_count([True, True], [True, False]) == SeedCount(1, 2)
    with pytest.raises(ValueError, match="different lengths"):
        joint_count([True], [True, False])


def test_planted_check_counts_seeds_where_both_solvers_beat_pca_the_defect_records():
    """The records that printed "in 1 of 2 seeds" (the smaller of the two solvers' counts): the
    iterative solver beats PCA only in seed 0, the ALM solver only in seed 1 -- in no seed do
    both."""
    planted = {"PCA": {"precision": [0.9, 0.9], "recall": [0.8, 0.8], "max_angle_deg": [10.0, 10.0]},
               "Ex-RPCA iterative": {"precision": [0.9, 0.9], "recall": [0.95, 0.7],
                                     "max_angle_deg": [5.0, 12.0]},
               "Ex-RPCA ALM": {"precision": [0.9, 0.9], "recall": [0.7, 0.95],
                               "max_angle_deg": [12.0, 5.0]}}  # fmt: skip
    rec = _records_08(planted=planted)
    facts = facts_08(rec, paper=paper_08())
    assert facts.planted_both == SeedCount(0, 2)
    text = _text(discussion_08(rec))
    assert ("Both Ex-RPCA solvers beat PCA on angle and on recall, all in the same seed, "
            "in no seed (0 of 2).") in text  # fmt: skip
    assert "in 1 of 2 seeds." not in text
    # both in seed 0 only
    planted["Ex-RPCA ALM"] = {"precision": [0.9, 0.9], "recall": [0.95, 0.95],
                              "max_angle_deg": [5.0, 12.0]}  # fmt: skip
    assert facts_08(_records_08(planted=planted), paper=paper_08()).planted_both == SeedCount(1, 2)


def test_facts_08_other_verdicts():
    facts = facts_08(_records_08(), paper=paper_08())
    assert facts.same == "every" and facts.alignment == "every"
    assert facts.size == "every" and facts.pseudo == "none"
    assert facts.tails == "replicates"  # 0.02 / 0.0027 is more than half the paper's 9
    text = _text(discussion_08(_records_08()))
    assert (
        "sign test is significant after Holm over the 5 tests of a seed for all 3 components"
        in text
    )
    assert "is a hypothesis the run does not test" in text  # no causal claim about training
    weak = _records_08(outside_3sigma=[0.004, 0.004])
    assert facts_08(weak, paper=paper_08()).tails == "direction"
    with pytest.raises(KeyError, match="planted"):
        discussion_08({k: v for k, v in _records_08().items() if k != "planted"})


# ------------------------------------------------------------------------------ notebook 09

SIGNALS = ["mean ||S_p|| (Ex-RPCA)", "mean ||M_p|| (raw difference)", "frequency (minus rank)",
           "||S_p|| given frequency (partial)", "any sparse entry"]  # fmt: skip


def _row(scws, gain, p_scws, ws_gain=(0.0, 0.0), p_ws=(1.0, 1.0)):
    return {"removed": [3, 3], "SCWS test maxSimC": list(scws), "SCWS gain": list(gain),
            "WS-353 avgSim": [0.5, 0.5], "WS-353 gain": list(ws_gain),
            "p (SCWS)": list(p_scws), "p_holm (SCWS)": list(p_scws),
            "p (WS-353)": list(p_ws), "p_holm (WS-353)": list(p_ws)}  # fmt: skip


def _records_09(**over):
    rec = {
        "data_size": "full", "seeds": [0, 1], "dim": 25, "rank": 3,
        "sparse_nonzero_fraction": [0.03, 0.03],
        "wordnet": {s: {"spearman": [0.2, 0.2], "pvalue": [0.01, 0.01],
                        "pvalue_holm": [0.04, 0.04]} for s in SIGNALS},
        "wordnet_n_words": [200, 200], "table3_words": ["a", "b", "c", "d"], "table3_seed": 0,
        "dev_curve": {}, "chosen_removed": {"PCA": [3, 4], "Ex-RPCA": [2, 3]},
        "table4": {
            "V (original)": _row([0.40, 0.40], [0.0, 0.0], [None, None]),
            "V~ PCA": _row([0.45, 0.41], [0.05, 0.01], [0.01, 0.30]),
            "V~ Ex-RPCA": _row([0.41, 0.45], [0.01, 0.05], [0.30, 0.01]),
        },
        "keep_original_removed": [10, 20], "keep_tolerance": 0.01,
        "n_scws_dev": 300, "n_scws_test": 300, "n_ws_scored": 300, "seconds": [1.0, 1.0],
    }  # fmt: skip
    rec.update(over)
    return rec


def test_table4_counts_seeds_where_both_methods_gain_the_defect_records():
    """The records that printed "significant in 1 of 2 seeds for both methods" (the smaller of
    the two methods' counts): PCA gains significantly only in seed 0, Ex-RPCA only in seed 1."""
    rec = _records_09()
    facts = facts_09(rec, paper=paper_09())
    assert [m.scws_sig_up for m in facts.methods] == [SeedCount(1, 2), SeedCount(1, 2)]
    assert facts.sig_both == SeedCount(0, 2) and facts.up_both == SeedCount(2, 2)
    assert facts.table4 == "partly"
    text = _text(discussion_09(rec))
    assert (
        "Both methods gain on SCWS in the same seed in every seed (2 of 2), significantly for both in no seed (0 of 2)."
        in text
    )
    assert "The SCWS gain replicates only partly" in text


def test_table4_gain_ratio_is_per_method_the_defect_records():
    """The gain ratio was PCA's alone while the sentence covered both methods: each method's
    mean gain is now divided by the paper's gain of the same method."""
    paper = paper_09()
    t4 = _records_09()["table4"]
    t4["V~ PCA"]["SCWS gain"] = [0.055, 0.055]  # +5.5 points: the paper's PCA gain
    t4["V~ Ex-RPCA"]["SCWS gain"] = [0.0112, 0.0112]  # a fifth of the paper's Ex-RPCA gain
    facts = facts_09(_records_09(table4=t4), paper=paper)
    ratios = {m.key: m.ratio for m in facts.methods}
    assert ratios["PCA"] == pytest.approx(5.5 / paper.gain_pca)
    assert ratios["Ex-RPCA"] == pytest.approx(1.12 / paper.gain_ex)
    text = _text(discussion_09(_records_09(table4=t4)))
    assert (f"our mean gain is about {ratios['PCA']:.1f} (PCA) and {ratios['Ex-RPCA']:.1f} "
            "(Ex-RPCA) times the paper's gain of the same method") in text  # fmt: skip


def test_table4_verdicts():
    up = MethodGains("PCA", "V~ PCA", SeedCount(2, 2), SeedCount(2, 2), SeedCount(0, 2),
                     SeedCount(0, 2), SeedCount(0, 2), 1.0)  # fmt: skip
    none = MethodGains("PCA", "V~ PCA", SeedCount(2, 2), SeedCount(0, 2), SeedCount(0, 2),
                       SeedCount(0, 2), SeedCount(0, 2), 1.0)  # fmt: skip
    down = MethodGains("PCA", "V~ PCA", SeedCount(0, 2), SeedCount(0, 2), SeedCount(1, 2),
                       SeedCount(0, 2), SeedCount(0, 2), 1.0)  # fmt: skip
    assert table4_verdict([up, up], SeedCount(2, 2)) == "replicated"
    assert table4_verdict([none, none], SeedCount(0, 2)) == "no detectable difference"
    assert table4_verdict([down, none], SeedCount(0, 2)) == "lower"
    assert table4_verdict([up, down], SeedCount(0, 2)) == "partly"
    rec = _records_09()
    for row in ("V~ PCA", "V~ Ex-RPCA"):
        rec["table4"][row]["p_holm (SCWS)"] = [0.5, 0.5]
    assert "no detectable difference from the original vectors in any seed" in _text(
        discussion_09(rec)
    )


def test_wordnet_accurate_indicator_is_a_per_seed_and():
    wn = _records_09()["wordnet"]
    wn["mean ||S_p|| (Ex-RPCA)"]["spearman"] = [0.3, 0.1]  # beats the raw norm in seed 0 only
    wn["||S_p|| given frequency (partial)"]["pvalue_holm"] = [0.5, 0.01]  # significant in seed 1
    facts = facts_09(_records_09(wordnet=wn), paper=paper_09())
    assert facts.beats_raw == SeedCount(1, 2) and facts.partial_pos == SeedCount(1, 2)
    assert facts.accurate == SeedCount(0, 2) and facts.wordnet == "none"
    assert "is **not supported**" in _text(discussion_09(_records_09(wordnet=wn)))


# ------------------------------------------------------- part of speech, robustness, V~_WordNet


def _pos(p_pca, p_ex, tag="ADV"):
    """POS test records: per method, three components with the given Holm p-values (per seed)."""
    out = {}
    for m, ps in (("PCA", p_pca), (EX, p_ex)):
        for c, p in enumerate(ps, 1):
            out[f"{m} component {c}"] = {"tag": [tag] * len(p), "share": [0.5] * len(p),
                                         "base_rate": [0.1] * len(p), "statistic": [0.4] * len(p),
                                         "pvalue": list(p), "pvalue_holm": list(p)}  # fmt: skip
    return out


def test_pos_contrast_counts_significant_components_per_seed():
    ns = [0.5, 0.5]
    # seed 0: Ex-RPCA has two POS components, PCA none; seed 1: one each
    pos = _pos([ns, ns, [0.5, 0.01]], [[0.01, 0.01], [0.01, 0.5], ns])
    rec = _records_08(pos_tests=pos, n_pos_tests=6, n_pos_words=30)
    facts = facts_08(rec, paper=paper_08())
    assert facts.pos_sig == {"PCA": [0, 1], EX: [2, 1]}
    assert facts.pos_more_ex == SeedCount(1, 2) and facts.pos_claim == "some"
    assert facts.pos_pca == SeedCount(1, 2) and facts.pos_ex == SeedCount(2, 2)
    text = _text(discussion_08(rec))
    assert "Holm over the 6 POS tests of a seed" in text
    assert "Components with a significant tag per seed: PCA 0, 1, Ex-RPCA r=3 2, 1 of 3." in text
    # every seed: supported; no seed: not supported
    pos = _pos([ns, ns, ns], [[0.01, 0.01], ns, ns])
    f = facts_08(_records_08(pos_tests=pos, n_pos_tests=6, n_pos_words=30), paper=paper_08())
    assert f.pos_claim == "every"
    pos = _pos([[0.01, 0.01], ns, ns], [[0.01, 0.01], ns, ns])
    f = facts_08(_records_08(pos_tests=pos, n_pos_tests=6, n_pos_words=30), paper=paper_08())
    assert f.pos_claim == "none"
    # a corpus not in English: no POS test, the bullet says why
    rec = _records_08(
        pos_tests={},
        n_pos_tests=0,
        n_pos_words=0,
        data={"corpus": "x.txt", "language": "de", "corpus_format": "marked"},
    )
    assert not facts_08(rec, paper=paper_08()).has_pos
    assert "Left out: the bundled treebank is English and the corpus is `de`" in _text(
        discussion_08(rec)
    )


def _rob(**over):
    row = {"n_multisense_words": 300, "senses_per_word": 3.0, "outside_3sigma": 0.02,
           "angle_deg": 5.0, "jaccard": 0.9, "avg_cos_pca": 0.9, "avg_cos_random": 0.3,
           "pseudo_pca": 0.2, "base_pseudo_rate": 0.05, "fisher_pca_holm": 0.01,
           "fisher_ex_holm": 0.01, "size_sig_ex": 3, "n_components": 3, "pos_sig_pca": 0,
           "pos_sig_ex": 1}  # fmt: skip
    row.update(over)
    return row


def test_robustness_findings_per_base_model():
    from workbench.studies.senses._facts import robustness_findings

    rob = {"K=3": _rob(), "NP-MSSG": _rob(angle_deg=20.0, threshold=0.2, max_senses=5),
           "K=2": _rob(outside_3sigma=0.001, pos_sig_ex=None, pos_sig_pca=None)}  # fmt: skip
    f = {x.name: x for x in robustness_findings(rob)}
    assert f["Heavy tails"].holds == ["K=3", "NP-MSSG"] and f["Heavy tails"].fails == ["K=2"]
    assert f["Heavy tails"].verdict == "some"
    assert f["One answer from PCA and Ex-RPCA"].fails == ["NP-MSSG"]
    assert f["Systematic directions"].verdict == "all"
    pos = f["Ex-RPCA more part-of-speech than PCA"]
    assert pos.untested == ["K=2"] and pos.verdict == "all"
    # a pseudo share above the base rate without a significant test is not the finding
    g = robustness_findings({"K=3": _rob(fisher_pca_holm=0.2)})
    assert g[3].name == "Listed pairs pseudo beyond the base rate" and g[3].verdict == "none"
    rec = _records_08(robustness=rob, robustness_seed=0)
    text = _text(discussion_08(rec))
    assert "Seed 0 is re-run on K=3, NP-MSSG and K=2" in text
    assert "below 0.2, at most 5 senses per word" in text
    assert "*Heavy tails*: holds under K=3 and NP-MSSG, not under K=2;" in text
    assert "(untested under K=2)" in text


def test_wordnet_row_facts_and_claim():
    from workbench.studies.senses._facts import wordnet_claim

    assert wordnet_claim(SeedCount(2, 2), SeedCount(2, 2), SeedCount(0, 2)) == "replicated"
    assert wordnet_claim(SeedCount(0, 2), SeedCount(0, 2), SeedCount(2, 2)) == "reversed"
    assert wordnet_claim(SeedCount(1, 2), SeedCount(0, 2), SeedCount(0, 2)) == (
        "no detectable difference"
    )
    assert wordnet_claim(SeedCount(1, 2), SeedCount(1, 2), SeedCount(0, 2)) == "mixed"
    t4 = _records_09()["table4"]
    wn = _row([0.42, 0.40], [0.02, 0.0], [0.5, 0.5])
    wn["p (SCWS, against Ex-RPCA)"] = [0.5, 0.01]
    wn["p_holm (SCWS, against Ex-RPCA)"] = [0.5, 0.01]
    rec = _records_09(
        table4={**t4, "V~ WordNet": wn},
        n_table4_tests=7,
        n_wordnet_pseudo=[40, 42],
        chosen_removed={"PCA": [3, 4], "Ex-RPCA": [2, 3], "WordNet": [3, 3]},
    )
    facts = facts_09(rec, paper=paper_09())
    # Ex-RPCA minus WordNet on SCWS test: -0.01 (seed 0), +0.05 and significant (seed 1)
    assert facts.ex_above_wn == SeedCount(1, 2) and facts.ex_sig_above_wn == SeedCount(1, 2)
    assert facts.wn_sig_above_ex == SeedCount(0, 2) and facts.wn_claim == "mixed"
    assert facts.wordnet_row is not None and facts.wordnet_row.scws_up == SeedCount(1, 2)
    paper = paper_09()
    assert paper.gain_wn == pytest.approx(62.3 - 59.8)
    assert facts.wordnet_row.ratio == pytest.approx(100 * 0.01 / paper.gain_wn)
    text = _text(discussion_09(rec))
    assert "Holm over the 7 tests of Table 4 of a seed" in text
    assert "the paper: 62.3 (+2.5) and 69.1" in text
    assert "holds only in some seeds" in text
    # records without the row: no bullet
    assert "supervised row" not in _text(discussion_09(_records_09()))
