"""discussion_06: the template renders every record it reads; the words follow the facts."""

from __future__ import annotations

import pytest

from workbench.studies.eigenwords import discussion_06

ALPHAS = [0.1, 0.5, 0.9]
LEX = ["WN", "PD", "FN"]
BASELINES = [f"{m} {lex}" for m in ("Skip-Gram", "GloVe") for lex in ["NPK", *LEX]]


def _records(**over):
    cc = {f"{lex} {a:g}": 0.35 + 0.01 * i for i, (lex, a) in
          enumerate((lex, a) for lex in LEX for a in ALPHAS)}  # fmt: skip
    rec = {
        "data_size": "full",
        "seeds": [0, 1, 2],
        "n_tokens": 5_000_000,
        "n_words": 20_000,
        "dim": 100,
        "n_sets_in_average": 11,
        "eigen_avg_spearman": 0.34,
        "eigen_avg_by_start": {"0": 0.34, "1": 0.34, "2": 0.34},
        "eigen_geo_accuracy": 0.2,
        "geo_questions": {"total": 506, "answerable": 72},
        "ccaprior_avg_spearman": cc,
        "ccaprior_sets_better": {k: 1 for k in cc},
        "ccaprior_sets_worse": {k: 0 for k in cc},
        "ccaprior_rf_avg_spearman": {k: v + 0.05 for k, v in cc.items()},
        "ccaprior_rf_sets_better": {k: 4 for k in cc},
        "eigen_rf_avg_spearman": {"WN": 0.40, "PD": 0.42, "FN": 0.37},
        "eigen_rf_sets_better": {"WN": 3, "PD": 1, "FN": 0},
        "spectral_geo": {
            **{f"CCAPrior {k}": {"accuracy": 0.2, "p": 1.0, "q": 1.0, "significant": False}
               for k in cc},
            **{f"CCAPrior + RF {k}": {"accuracy": 0.25, "p": 0.5, "q": 1.0, "significant": False}
               for k in cc},
            "Eigen WN": {"accuracy": 0.15, "p": 0.3, "q": 1.0, "significant": False},
            "Eigen PD": {"accuracy": 0.3, "p": 0.01, "q": 0.03, "significant": True},
            "Eigen FN": {"accuracy": 0.2, "p": 1.0, "q": 1.0, "significant": False},
        },
        "best_ccaprior": {"lexicon": "FN", "alpha": 0.9, "avg": 0.43},
        "n_tests": {"spectral": 363, "baselines per seed": 88},
        "baseline_avg_spearman": {
            "Skip-Gram NPK": [0.41, 0.42, 0.33], "Skip-Gram WN": [0.45, 0.46, 0.44],
            "Skip-Gram PD": [0.50, 0.49, 0.51], "Skip-Gram FN": [0.40, 0.41, 0.30],
            "GloVe NPK": [0.36, 0.37, 0.36], "GloVe WN": [0.40, 0.41, 0.40],
            "GloVe PD": [0.42, 0.43, 0.42], "GloVe FN": [0.35, 0.38, 0.37],
        },
        "glove_loss": {"0": [0.06, 0.03, 0.0294], "1": [0.06, 0.03, 0.0291],
                       "2": [0.06, 0.03, 0.0297]},
        "table2_avg_spearman": {"WN": 0.36, "PD": 0.38, "FN": 0.29},
        "table2_rf_avg_spearman": {"WN": 0.40, "PD": 0.41, "FN": 0.33},
        "table2_coverage": {"WN": 0.8, "PD": 0.7, "FN": 0.4},
        "table2_sets": {"WN": 11, "PD": 11, "FN": 10},
        "table2_eigen_matched_avg_spearman": {"WN": 0.42, "PD": 0.44, "FN": 0.39},
        "table2_sets_better": {"WN": 0, "PD": 0, "FN": 0},
        "table2_sets_worse": {"WN": 2, "PD": 1, "FN": 3},
        "table2_sets_tested": {"WN": 11, "PD": 11, "FN": 10},
        "table2_n_tests": 32,
        "table2_matched": {
            "WN": {"sets": 11, "pairs": 2500, "eigen": 0.42, "graph": 0.36, "graph_rf": 0.37},
            "PD": {"sets": 11, "pairs": 2100, "eigen": 0.44, "graph": 0.38, "graph_rf": 0.38},
            "FN": {"sets": 10, "pairs": 900, "eigen": 0.39, "graph": 0.29, "graph_rf": 0.31},
        },
        "prior_chunk_length": 13,
        "sweep": {
            "sizes": ["1M", "5M", "25M"], "tokens": [1_000_000, 5_000_000, 25_000_000],
            "dims": [50, 100, 200, 300], "data_dim": 300, "sets": ["WS", "MEN"], "pairs": 3200,
            "avg": [[0.30, 0.33, 0.35, 0.36], [0.32, 0.35, 0.38, 0.40], [0.33, 0.37, 0.41, 0.44]],
            "dim_better": [[1, 1, 0], [1, 1, 1], [2, 1, 1]],
            "dim_worse": [[0, 0, 0], [0, 0, 0], [0, 0, 0]], "dim_n_tests": 18,
            "data_better": [2, 1], "data_worse": [0, 0], "data_n_tests": 4,
        },
        "baseline_sets_better": {k: [1, 1, 0] for k in BASELINES},
        "baseline_sets_worse": {k: [0, 0, 1] for k in BASELINES},
    }  # fmt: skip
    for k, v in over.items():
        rec[k] = v
    return rec


def _render(rec):
    return discussion_06(rec).data


def test_every_number_renders_from_the_records():
    rec = _records()
    text = _render(rec)
    assert "{" not in text and "}" not in text
    assert "5,000,000 tokens" in text
    assert "Eigen's (34.0)" in text  # eigen_avg_spearman in points
    assert "Yes, in 9 of 9 configurations" in text
    assert "after Holm over the 363 tests of the seed-independent family" in text
    assert "Skip-gram's average is above Eigen's in 2 of 3 seeds" in text
    assert "GloVe's average is above Eigen's in every seed" in text
    assert "significantly above Eigen on at least one rating set in 2 of 3 seeds" in text
    assert "Only 72 of 506" in text
    assert "the same to the reported precision" in text
    # the paper's numbers come from workbench/reported/eigenwords.json
    assert "59.5" in text and "WordNet 35.9" in text
    assert "about 1,000 times smaller" in text
    assert "a hypothesis this run does not test" in text
    # Table 2 on matched pairs, its family named
    assert (
        "the SVD of the lexicon graph alone reaches WordNet 36.0 against Eigen's 42.0 (2,500 pairs in 11 sets"
        in text
    )
    assert "+1.0 (WordNet), +0.0 (PPDB), +2.0 (FrameNet) points (not tested)" in text
    assert "in chunks of 13 tokens" in text
    assert "after Holm over the 32 tests of the Table 2 family" in text
    assert "**Table 2 (graph-only embeddings): replicated.**" in text


def test_untested_comparisons_say_so():
    text = _render(_records())
    assert "the larger median change is retrofitting's, which is not tested" in text
    assert "(averages, not tested)" in text
    weak_rf = _records(eigen_rf_avg_spearman={"WN": 0.341, "PD": 0.342, "FN": 0.34})
    assert "the larger median change is the prior's" in _render(weak_rf)


def test_seed_dependent_and_small_runs():
    one = _records(seeds=[0], eigen_avg_by_start={"0": 0.34},
                   baseline_avg_spearman={k: v[:1] for k, v in
                                          _records()["baseline_avg_spearman"].items()},
                   baseline_sets_better={k: [1] for k in BASELINES},
                   baseline_sets_worse={k: [0] for k in BASELINES})  # fmt: skip
    text = _render(one)
    assert "one seed" in text and "±" not in text.split("Baselines")[1].split("* **")[0]
    assert "significantly above Eigen on at least one rating set in the one seed" in text
    spread = _records(eigen_avg_by_start={"0": 0.34, "1": 0.345})
    assert "within 0.5 points" in _render(spread)
    small = _records(data_size="small", geo_questions={"total": 506, "answerable": 0})
    text = _render(small)
    assert "only show that the pipeline runs" in text
    assert "not evaluated at this size" in text


def test_a_missing_record_is_an_error():
    rec = _records()
    del rec["n_tests"]
    with pytest.raises(KeyError, match="n_tests"):
        _render(rec)
    rec = _records()
    del rec["table2_sets_better"]
    with pytest.raises(KeyError, match="table2_sets_better"):
        discussion_06(rec)
    with pytest.raises(TypeError, match="records"):
        discussion_06([1, 2])  # type: ignore[arg-type]


def test_seed_counts_read_naturally():
    rec = _records()
    rec["baseline_avg_spearman"]["GloVe FN"] = [0.40, 0.41, 0.40]  # above GloVe in every seed
    assert "GloVe by +4.0 ± 0.0 (lower in no seed; not tested)" in _render(rec)


def test_sweeps_render_their_verdicts_and_families():
    text = _render(_records())
    assert "**Dimension (§5.4" in text and "partly replicated.**" in text
    assert "8 of 9 steps to the next dimension are significantly above the step before" in text
    assert "after Holm over the 18 tests of the dimension family" in text
    assert "1M 30.0 / 33.0 / 35.0 / 36.0" in text
    assert (
        "The paper (m = 50 / 100 / 200 / 300): WIKI1 46.4 / 50.1 / 53.4 / 54.2; WIKI5 49.4" in text
    )
    assert "+6.0 (1M), +8.0 (5M), +11.0 (25M) points (not tested" in text
    assert "**Data size (§5.4" in text and "replicated.**" in text.split("**Data size")[1]
    assert "5M against 1M: significantly above; 25M against 5M: significantly above" in text
    assert "after Holm over the 4 tests of the data-size family" in text
    worse = _render(_records(sweep={**_records()["sweep"], "data_worse": [0, 1]}))
    assert "not replicated.**" in worse.split("**Data size")[1].split("\n")[0]
    old = _records()
    del old["sweep"]
    assert "**Dimension" not in _render(old)  # records without a sweep still render


def test_glove_stopping_rule_is_stated_from_the_records():
    """With a tolerance the Discussion says what stopped GloVe in every seed; without one
    (records of a fixed number of epochs) it reports the last epoch's fall."""
    losses = {"0": [0.06, 0.03, 0.0299], "1": [0.06, 0.03, 0.02995], "2": [0.06, 0.0299]}
    stopped = {"tol": 0.005, "epochs": 50,
               "stopped_by": {"0": "tolerance", "1": "tolerance", "2": "tolerance"}}  # fmt: skip
    text = _render(_records(glove_loss=losses, glove_stop=stopped))
    assert "GloVe trains until an epoch lowers its loss by less than 0.5 % (at most 50 epochs)" in text
    assert "the tolerance stopped it after 2 to 3 epochs in every seed" in text
    capped = {"tol": 0.005, "epochs": 3,
              "stopped_by": {"0": "epochs", "1": "tolerance", "2": "tolerance"}}  # fmt: skip
    losses = {"0": [0.06, 0.03, 0.029], "1": [0.06, 0.03, 0.02995], "2": [0.06, 0.0299]}
    text = _render(_records(glove_loss=losses, glove_stop=capped))
    assert "it reached the cap in 1 of 3 seeds, its loss still falling by 3.3 % in the last epoch" in text
    text = _render(_records())  # no glove_stop: a fixed number of epochs
    assert "GloVe's loss fell in its last epoch (of 3) by" in text
    assert "GloVe trains until" not in text


def test_glove_stop_record_names_what_stopped_each_seed():
    from workbench.studies.eigenwords._result import glove_stop_record

    rec = glove_stop_record({0: [1.0, 0.5, 0.499], 1: [1.0, 0.5, 0.45]},
                            {"epochs": 3, "tol": 0.005})  # fmt: skip
    assert rec == {"tol": 0.005, "epochs": 3, "stopped_by": {"0": "tolerance", "1": "epochs"}}
    assert glove_stop_record({0: [1.0, 0.5]}, {"epochs": 2})["stopped_by"] == {"0": "epochs"}
    with pytest.raises(ValueError, match="not a history of fit_glove"):
        glove_stop_record({0: [1.0, 0.5]}, {"epochs": 5, "tol": 0.005})
