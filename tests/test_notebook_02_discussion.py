"""Unit tests of notebook 02's Discussion (workbench.studies.views.discussion_02) on synthetic records
(the facts behind its words: tests/test_studies_intro_facts.py)."""

from __future__ import annotations

import pytest

from workbench.reported import reported
from workbench.studies import views
from workbench.studies.views import PAPER_VOCABULARY, discussion_02


def _records(**over) -> dict:
    rec = {
        "density_per_family": {
            "positional": 2.2e-3,
            "window": 1.1e-2,
            "dependency": 3.0e-6,
            "bitext": 8.9e-5,
            "morphology": 1.2e-4,
            "synonyms": 1.3e-4,
            "ppdb": 1.2e-4,
            "framenet": 2.6e-4,
            "embedding": 0.89,
        },  # fmt: skip
        "observed_fraction_per_family": {
            "positional": 0.9999,
            "window": 1.0,
            "dependency": 0.029,
            "bitext": 0.229,
            "morphology": 0.568,
            "synonyms": 0.686,
            "ppdb": 0.63,
            "framenet": 0.184,
            "embedding": 0.89,
        },  # fmt: skip
        "positional_density": {str(k): 1e-3 + 1e-4 * k for k in range(1, 16)},
        "dependency_nnz": {"nsubj": 9000, "prep_between": 3, "agent": 12, "dobj": 7000},
        "treebank_tokens": 204_607,
        "bitext_top_god": "dios",
        "glove_coverage": 0.891,
        "vocab_size": 27_983,
    }
    rec.update(over)
    return rec


def test_discussion_02_states_the_recorded_numbers():
    text = discussion_02(_records()).data
    assert "observe essentially the whole vocabulary" in text
    assert "among the count families only window is denser" in text
    assert "density *grows* with the offset (offset 1: 0.11 %, offset 15: 0.25 %" in text
    assert "One reading, not tested here" in text  # the explanation is a hypothesis
    assert "the densest count family (mean density 1.1 %)" in text
    assert "treebank of 204,607 tokens" in text and "the sparsest family of all" in text
    assert "`prep_between`: 3, `agent`: 12" in text
    assert "observes only 22.9 % of the vocabulary" in text and "*god* is *dios*" in text
    assert "sharp" not in text  # one link does not show that the alignments are sharp
    assert "mean densities 0.012 % to 0.026 %" in text and "each a different subset" in text
    # the paper's densities come from workbench.reported, scaled by the vocabulary sizes
    paper = reported("mvlsa", "view_density").table["density %"]
    assert f"morphology {paper['morphology']:.3g} % and framenet {paper['framenet']:.3g} %" in text
    scaled = 100 * 1.2e-4 * 27_983 / PAPER_VOCABULARY
    assert f"ours would be {scaled:.2g} %" in text
    assert "close to the paper's for morphology and below the paper's for framenet" in text
    assert "ours are morphology 0.012 % and framenet 0.026 %" in text
    assert "the 10.9 % of the words GloVe lacks" in text and "Nothing here is random" in text


def test_discussion_02_wording_follows_the_numbers():
    rec = _records(positional_density={"1": 3e-3, "2": 1e-3, "3": 2e-3, "4": 0.5e-3})
    rec["density_per_family"]["positional"] = 5e-2  # denser than the window view
    rec["observed_fraction_per_family"]["positional"] = 0.8
    text = discussion_02(rec).data
    assert "does not grow steadily with the offset" in text and "One reading" not in text
    assert "they are the densest count family" in text and "80.0 % of the vocabulary" in text
    assert "is not denser than the positional views" in text
    rec = _records()
    rec["density_per_family"].update(morphology=1e-9, framenet=1e-1)
    assert "below the paper's for morphology and above the paper's for framenet" in discussion_02(
        rec
    ).data


def test_discussion_02_refuses_records_of_another_notebook():
    with pytest.raises(KeyError, match="lacks the records"):
        discussion_02({"vocab_size": 3})
    with pytest.raises(TypeError, match="records of a run of notebook 02"):
        discussion_02("records")


def test_settings_per_size():
    small, full = views.settings("small"), views.settings("full")
    assert (small.corpus, small.max_tokens, small.offsets) == ("1M", 200_000, (1, 2, 3, 4))
    assert (full.corpus, full.max_tokens, full.offsets) == ("5M", None, tuple(range(1, 16)))
    assert full.vocab_size > small.vocab_size
    with pytest.raises(ValueError, match="size"):
        views.settings("large")
