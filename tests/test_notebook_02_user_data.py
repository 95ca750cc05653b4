"""The data parameters of notebooks 01 and 02 reach their settings (no notebook run: fast)."""

from __future__ import annotations

from pathlib import Path

import pytest

from workbench.studies import significance, views

USER_DATA = Path(__file__).parent / "fixtures" / "user_data"


def test_views_settings_bundled_by_default():
    assert views.settings("small") == views.settings("small", corpus="", language="en")
    s = views.settings("small")
    assert s.side_views and s.conllu == "dev" and s.bitext_verses == 3_000
    assert "treebank" in s.side_views_note() and "not used" not in s.side_views_note()


def test_views_settings_leave_out_english_side_views_for_a_spanish_corpus():
    corpus = USER_DATA / "spanish_sentences.txt"
    s = views.settings("small", corpus=str(corpus), corpus_format="line-docs", language="es")
    assert s.corpus == str(corpus) and s.corpus_label == "spanish_sentences.txt"
    assert not s.side_views and s.conllu is None and s.bitext_verses == 0
    assert "not used" in s.side_views_note() and "'es'" in s.side_views_note()
    assert s.max_tokens == 200_000  # capped like the bundled corpus


def test_unknown_data_setting_names_the_known_ones():
    with pytest.raises(TypeError, match="unknown settings \\['corpora'\\].*corpus_format"):
        views.settings("small", corpora="x.txt")
    with pytest.raises(TypeError, match="list of rating-set names or paths"):
        significance.settings("small", wordsim="MEN")


def test_significance_settings_label_user_rating_sets_by_file_stem():
    ratings = USER_DATA / "ratings.csv"
    s = significance.settings("small", wordsim=["MEN", str(ratings)])
    assert s.rating_sets() == {"MEN": "MEN", "ratings": str(ratings)}
    assert s.analogies and s.corpus == "1M"
    es = significance.settings("small", corpus=str(USER_DATA / "spanish_sentences.txt"),
                               corpus_format="line-docs", language="es")  # fmt: skip
    assert not es.analogies and len(es.rating_sets()) > 1
