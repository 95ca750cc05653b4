"""Unit tests of notebook 01's helpers: the per-seed comparison summary and the Discussion
rendered from records (workbench.studies.significance), on synthetic records."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from workbench.records import to_jsonable
from workbench.significance import MVLSA_TABLE2
from workbench.studies import significance
from workbench.studies.significance import comparison_over_seeds, discussion_01, records_frame

SETS = ["MEN", "MTURK-287", "RG", "VERB-143"]


def _comparison(seed: int, *, men_sig: bool = True, mturk_exceeds: bool = False) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    diff = {"MEN": 0.09, "MTURK-287": 0.133, "RG": 0.02, "VERB-143": -0.07}
    mrds = {
        "MEN": 0.03,
        "MTURK-287": 0.13 if mturk_exceeds else 0.135,
        "RG": 0.22,
        "VERB-143": 0.13,
    }
    rows = []
    for d in SETS:
        p = 1e-7 if d == "MEN" else 0.09 if d == "MTURK-287" else 0.5
        rows.append(
            {
                "dataset": d,
                "n": {"MEN": 1988, "MTURK-287": 150, "RG": 44, "VERB-143": 139}[d],
                "r_a": 0.3,
                "r_b": 0.3 + diff[d],
                "r_ab": 0.6 + 0.01 * rng.standard_normal(),
                "difference": diff[d] + 0.0005 * seed,
                "statistic": 5.3 if d == "MEN" else 1.0,
                "pvalue": p,
                "pvalue_adjusted": min(1.0, 4 * p) if (d != "MEN" or men_sig) else 0.2,
                "mrds": mrds[d],
                "exceeds_mrds": abs(diff[d] + 0.0005 * seed) > mrds[d],
                "significant": d == "MEN" and men_sig,
            }
        )
    return pd.DataFrame(rows)


def _records(n_seeds: int = 3, **kw) -> dict:
    seeds = list(range(n_seeds))
    comps = {s: _comparison(s, men_sig=kw.get("men_sig", lambda s: True)(s),
                            mturk_exceeds=kw.get("mturk_exceeds", False)) for s in seeds}  # fmt: skip
    tests = pd.DataFrame(
        {"method": ["williams1959", "steiger1980", "zou2007"], "pvalue": [1.0e-7, 1.1e-7, np.nan]}
    )
    errors = {
        "williams1959, one-sided": 0.124,
        "mvlsa2015 (script, df=n-2), one-sided": 0.0996,
        "steiger1980 z, one-sided": kw.get("steiger", 1.03),
        "hotelling1940, one-sided": 0.1238,
        "williams1959, two-sided": 5.37,
    }
    rec = {
        "table2_reproduced": MVLSA_TABLE2,
        "table2_max_abs_diff": 0.124,
        "table2_n_cells": 66,
        "table2_worst_cell": {
            "dataset": "MC",
            "n": 30,
            "column": "p0.01_r0.9",
            "difference": 0.124,
        },
        "table2_variant_max_error": errors,
        "footnote4_toefl_sigma_005": 6.38,
        "accuracy_mrds_forall": {"AN-SYN": 1.14, "AN-SEM": 1.25, "TOEFL": 13.13},
        "mrds_n_slope": -0.506,
        "mrds_r_ratio": 0.45,
        "seeds": seeds,
        "system_a": "LSA-w2",
        "system_b": "LSA-w10",
        "vocab_size": 20000,
        "coverage_pairs": {"RW": {"n_pairs": 2034, "n_scored": 272}},
        "wordsim_comparison_by_seed": comps,
        "wordsim_comparison_seeds": comparison_over_seeds(comps).reset_index(),
        "men_all_tests": tests,
        "men_bootstrap": {
            "LSA-w2": {"low": 0.19, "high": 0.27},
            "LSA-w10": {"low": 0.29, "high": 0.37},
        },
        "analogy_accuracy_by_seed": {s: {"LSA-w2": 0.035, "LSA-w10": 0.030} for s in seeds},
        "analogy_comparison_by_seed": {
            s: {
                "difference": -0.005,
                "mcnemar_pvalue": 0.4 if s else 0.03,
                "prob_b_better": 0.2,
                "mrds": 0.009,
                "exceeds_mrds": False,
            }
            for s in seeds  # fmt: skip
        },
        "superior_set_by_seed": {s: {"members": ["LSA-w2"], "separated": s == 0} for s in seeds},
    }
    return json.loads(json.dumps(to_jsonable(rec)))  # as the notebook records them


def test_records_frame_round_trip_and_errors():
    df = pd.DataFrame({"a": [1.5, 2.0], "b": ["x", "y"]}, index=["r", "s"])
    back = records_frame(to_jsonable(df))
    pd.testing.assert_frame_equal(back, df)
    assert records_frame(df) is df
    with pytest.raises(TypeError, match="recorded DataFrame"):
        records_frame({"a": 1})


def test_comparison_over_seeds_means_sds_and_counts():
    comps = {0: _comparison(0), 1: _comparison(1, men_sig=False), 2: _comparison(2)}
    out = comparison_over_seeds(comps)
    assert list(out.index) == SETS and out.index.name == "dataset"
    gains = [c.set_index("dataset").loc["MEN", "difference"] for c in comps.values()]
    assert out.loc["MEN", "gain"] == pytest.approx(np.mean(gains))
    assert out.loc["MEN", "gain_sd"] == pytest.approx(np.std(gains, ddof=1))
    assert out.loc["MEN", "seeds_significant"] == 2 and out.loc["RG", "seeds_significant"] == 0
    assert (out["n_seeds"] == 3).all() and out.loc["MEN", "n"] == 1988
    assert out.loc["MTURK-287", "pvalue_max"] == pytest.approx(0.09)
    # one seed: sd is undefined; dataset may also be the index
    one = comparison_over_seeds({5: _comparison(5).set_index("dataset")})
    assert np.isnan(one["gain_sd"]).all() and (one["n_seeds"] == 1).all()


def test_comparison_over_seeds_rejects_bad_input():
    with pytest.raises(ValueError, match="non-empty"):
        comparison_over_seeds({})
    with pytest.raises(ValueError, match="lacks columns"):
        comparison_over_seeds({0: _comparison(0).drop(columns="mrds")})


def test_discussion_01_reads_every_number_from_the_records():
    text = discussion_01(_records()).data
    assert "66 published cells" in text and "0.12 points" in text
    assert "does *not* reproduce the table (errors up to 1.03 points)" in text
    assert "one-sided Williams' t**" in text
    assert "6.38" in text and "TOEFL 13.13" in text and "much larger" in text
    assert "like 1/√n" in text and "45.0 % of its value" in text
    assert "over 3 seeds" in text
    assert "Holm's correction over the 4 rating sets of each seed" in text  # the family, named
    assert "9.0 ± 0.1 points higher" in text and "significant after Holm in every seed" in text
    assert "only 272 of RW's 2,034 pairs" in text
    # MTURK-287: 13.4 against an MRDS of 13.5 does *not* exceed it
    assert "exceeds the (one-sided, uncorrected) MRDS" not in text
    assert "MTURK-287's +13.4 points (MRDS 13.5" in text
    assert "none is significant after Holm over the 4 rating sets of each seed" in text
    # analogies: McNemar significant in one seed of three -> no direction word, the seed count
    assert "a difference not consistent across seeds" in text and "worse than" not in text
    assert "one test per seed so no correction: significant at 5 % in 1 of 3 seeds" in text
    assert "Bonferroni over the 1 pair of systems" in text
    assert "separates a significantly superior subset in 1 of 3 seeds" in text
    assert "60.0 % on AN-SYN" in text  # the paper, from data
    assert "{{" not in text


def test_discussion_01_wording_follows_the_numbers():
    text = discussion_01(_records(mturk_exceeds=True, men_sig=lambda s: s != 1, steiger=0.12)).data
    assert (
        "on MTURK-287 a +13.4 ± 0.1-point difference exceeds the (one-sided, uncorrected) MRDS of "
        "13.0 points in every seed, but its uncorrected two-sided p is up to 0.090"
    ) in text
    assert "B − A is +9.0 ± 0.1 points" in text and "higher" not in text.split("MEN:")[1][:60]
    assert "significant after Holm in 2 of 3 seeds, so its direction is not established" in text
    assert "reproduces it about as well" in text and "does *not* reproduce" not in text
    one = discussion_01(_records(n_seeds=1)).data
    assert "`SEEDS = 1`" in one and "significant after Holm." in one
    assert "not significant at 5 %" not in one and "no correction: significant at 5 %;" in one
    # McNemar significant but the difference inside the accuracy MRDS: no detectable difference
    assert "show no detectable difference (B − A = -0.5 points, inside the accuracy MRDS)" in one


def test_discussion_01_refuses_records_of_another_notebook():
    with pytest.raises(KeyError, match="lacks the records"):
        discussion_01({"seeds": [0]})
    with pytest.raises(TypeError, match="records of a run of notebook 01"):
        discussion_01(None)


def test_settings_per_size():
    small, full = significance.settings("small"), significance.settings("full", n_components=80)
    assert (small.max_tokens, small.vocab_size, small.n_components) == (200_000, 5_000, 50)
    assert small.mrds_ns == (30, 300, 3000) and full.mrds_ns is None
    assert (full.max_tokens, full.vocab_size, full.n_components) == (None, 20_000, 80)
    with pytest.raises(ValueError, match="size"):
        significance.settings("large")
