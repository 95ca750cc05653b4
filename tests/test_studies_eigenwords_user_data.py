"""Notebook 06's study on a user's data: the data fields of ``eigenwords.settings`` and a user
lexicon reaching Table 1 and the records (planted scores, no training)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from test_studies_eigenwords import SETS, _World

from workbench.records import roundtrip
from workbench.studies import eigenwords
from workbench.studies.eigenwords import (
    EIGEN,
    PriorResult,
    PriorStudy,
    baseline_rf_gains,
    graph_only_tests,
    study_tables,
)

FIXTURES = Path(__file__).parent / "fixtures" / "user_data"
SYNONYMS = str(FIXTURES / "synonyms.txt")


def test_settings_default_is_the_bundled_data():
    s = eigenwords.settings("small")
    assert s.corpus == "1M" and s.wordsim == eigenwords.PAPER_WORDSIM
    assert dict(s.lexicons) == eigenwords.LEXICONS and s.user_lexicons == {}
    assert s.data == eigenwords.settings("small", corpus="", lexicons={}, wordsim=[]).data


def test_settings_take_the_data_fields_and_other_overrides():
    s = eigenwords.settings("small", corpus=str(FIXTURES / "books_docs.txt"),
                            corpus_format="line-docs", wordsim=["MEN", str(FIXTURES / "ratings.csv")],
                            lexicons={"mine": SYNONYMS}, dim=7)  # fmt: skip
    assert s.corpus.endswith("books_docs.txt") and s.dim == 7
    assert s.wordsim == ("MEN", str(FIXTURES / "ratings.csv"))
    # the user's lexicon after the bundled ones (English corpus)
    assert list(s.lexicons) == ["WN", "PD", "FN", "mine"]
    assert s.user_lexicons == {"mine": SYNONYMS}
    assert "mine" in s.data_note() and "books_docs.txt" in s.data_note()


def test_settings_leave_out_the_bundled_lexicons_for_another_language():
    s = eigenwords.settings("small", corpus=str(FIXTURES / "spanish_sentences.txt"),
                            corpus_format="line-sentences", language="es",
                            lexicons={"mine": SYNONYMS})  # fmt: skip
    assert list(s.lexicons) == ["mine"]
    assert "left out" in s.data_note()


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"lexicons": {"WN": SYNONYMS}}, ValueError, "bundled lexicons' keys"),
        ({"colour": 1}, TypeError, r"unknown settings \['colour'\]"),
        ({"corpus_format": "xml", "corpus": SYNONYMS}, ValueError, "CORPUS_FORMAT"),
    ],
)
def test_settings_reject_bad_overrides(kwargs, error, match):
    with pytest.raises(error, match=match):
        eigenwords.settings("small", **kwargs)


def test_lexicon_graphs_read_a_user_lexicon_under_its_name():
    words = ["happy", "glad", "cheerful", "big", "large", "house", "zebra"]
    graphs = eigenwords.lexicon_graphs({"mine": SYNONYMS}, words)
    assert list(graphs) == ["mine"]
    g = graphs["mine"]
    assert g.name == "mine" and list(g.words) == words and g.n_edges > 0


def test_a_user_lexicon_reaches_table1_and_the_records():
    world = _World()
    spectral = {
        EIGEN: world.scores("eigen"),
        ("Eigen", "WN", None): world.scores("same"),
        ("Eigen", "mine", None): world.scores("good"),
        ("CCAPrior", "WN", 0.5): world.scores("same"),
        ("CCAPrior", "mine", 0.5): world.scores("good"),
        ("CCAPrior + RF", "mine", 0.5): world.scores("good"),
    }
    baselines = {s: {("Skip-Gram", "NPK", None): world.scores("same"),
                     ("Skip-Gram", "mine", None): world.scores("good"),
                     ("GloVe", "NPK", None): world.scores("same"),
                     ("GloVe", "mine", None): world.scores("same")}
                 for s in (0, 1)}  # fmt: skip
    graph_only = pd.DataFrame({"words": [10, 10], "avg": [0.2, 0.3], "avg + RF": [0.25, 0.3],
                               "mean coverage": [0.5, 0.5], "sets": [3, 3]},
                              index=["WN", "mine"])  # fmt: skip
    study = PriorStudy(spectral, baselines, graph_only, {0: 0.3, 1: 0.3},
                       {0: np.array([2.0, 1.0]), 1: np.array([2.0, 1.5])},
                       graph_scores={"WN": world.scores("same").wordsim,
                                     "mine": world.scores("bad").wordsim})  # fmt: skip
    tables = study_tables(study, SETS, min_pairs=10)
    result = PriorResult(
        data_size="small", seeds=study.seeds, n_tokens=1000, n_words=50, dim=4, alphas=(0.5,),
        graph_edges={"WN": 12, "mine": 5}, n_questions=506, study=study, tables=tables,
        table2_tests=graph_only_tests(study, SETS, min_pairs=10), names=tuple(SETS),
        data={**eigenwords.settings("small", lexicons={"mine": SYNONYMS}).data.describe(),
              "wordsim_sets": SETS, "lexicons_used": ["WN", "mine"]},
    )  # fmt: skip
    table1 = result.table1()
    # the user's lexicon is a column of Table 1, after the bundled ones
    assert list(table1.columns.get_level_values(1).unique()) == ["NPK", "WN", "mine"]
    cell = table1.loc[("CCAPrior", "alpha = 0.5"), ("avg", "mine")]
    assert cell != "-" and cell.endswith("↑3/↓0")
    assert table1.loc[("Retrofitting", "Skip-Gram"), ("avg", "mine")] != "-"
    rec = result.records()
    assert roundtrip(rec) == rec
    assert rec["ccaprior_avg_spearman"].keys() == {"WN 0.5", "mine 0.5"}
    assert rec["eigen_rf_avg_spearman"].keys() == {"WN", "mine"}
    assert {"Skip-Gram mine", "GloVe mine"} <= set(rec["baseline_avg_spearman"])
    assert rec["table2_sets_tested"].keys() == {"WN", "mine"}
    assert rec["data"]["lexicons"] == ["mine"] and rec["data"]["lexicons_used"] == ["WN", "mine"]
    assert list(baseline_rf_gains(tables)[0].columns) == ["mine"]
    text = eigenwords.discussion_06(rec).data
    assert "lexicons WN and mine" in text and "the bundled corpus" in text
