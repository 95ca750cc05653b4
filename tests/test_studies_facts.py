"""The shared facts: the rule behind each qualitative word."""

from __future__ import annotations

import pytest

from workbench.records import record_all, roundtrip
from workbench.studies import facts


def test_significant_reads_the_corrected_p_value():
    assert facts.significant(0.049)
    assert not facts.significant(0.05)
    assert not facts.significant(None)
    assert not facts.significant(float("nan"))


def test_direction_needs_significance_and_the_mrds():
    assert facts.direction(0.02, is_significant=True) == "higher"
    assert facts.direction(-0.02, is_significant=True) == "lower"
    assert facts.direction(0.02, is_significant=False) == "no detectable difference"
    assert facts.direction(0.02, is_significant=True, mrds=0.03) == "no detectable difference"
    assert facts.direction(None, is_significant=True) == "no detectable difference"


def test_seed_count():
    c = facts.seed_count([True, False, True])
    assert (c.k, c.n, c.every, c.some, c.none) == (2, 3, False, True, False)
    assert facts.seed_count({"0": True, "1": True}).every
    assert facts.seed_count([None, False]).none
    with pytest.raises(ValueError, match="0 <= k <= n"):
        facts.SeedCount(3, 2)


def test_a_finding_absent_from_one_run_is_not_comparable_not_moved():
    cmp = facts.compare_findings({"a": "x", "b": "y", "only here": "z"},
                                 {"a": "x", "b": "w", "only there": "v"})  # fmt: skip
    assert cmp is not None
    assert cmp.moved == {"b": ("y", "w")}
    assert cmp.unchanged == ["a"]
    assert cmp.not_comparable == ["only here", "only there"]
    assert cmp.n_compared == 2
    assert facts.compare_findings({"a": "x"}, None) is None


class _Result:
    def records(self):
        return {"n": 3, "per_seed": {"0": 0.5, "1": None}}


def test_record_all_records_every_key_and_round_trips(tmp_path, monkeypatch):
    monkeypatch.setenv("WORKBENCH_RECORD_FILE", str(tmp_path / "records.json"))
    out = record_all(_Result())
    assert out["n"] == 3 and out["per_seed"] == {"0": 0.5, "1": None}
    assert roundtrip(_Result().records()) == _Result().records()
    with pytest.raises(TypeError, match="records\\(\\) method"):
        record_all({"n": 3})  # type: ignore[arg-type]


def test_data_fact_names_the_data_of_a_run_for_every_discussion():
    from workbench.studies.facts import data_fact

    assert data_fact({}) is None
    bundled = data_fact({"data": {"corpus": "bundled", "corpus_format": "marked", "language": "en",
                                  "wordsim": [], "wordsim_split": "halves", "side_views": True}})  # fmt: skip
    assert bundled is not None and bundled.bundled and not bundled.all_pairs and bundled.side_views
    assert bundled.pretrained == [] and bundled.lexicons == []
    mine = data_fact({"data": {"corpus": "/home/u/books", "corpus_format": "folder", "language": "es",
                               "wordsim": ["/home/u/my.csv", "MEN"], "wordsim_split": "all",
                               "side_views": False, "pretrained": ["v.bin"], "lexicons": ["syn"]},
                      "side_views_note": "no side views: the corpus is Spanish"})  # fmt: skip
    assert mine is not None and not mine.bundled and mine.all_pairs and not mine.side_views
    assert mine.wordsim == ["my.csv", "MEN"] and mine.corpus == "/home/u/books"
    assert (mine.pretrained, mine.lexicons) == (["v.bin"], ["syn"])
    assert mine.side_views_note == "no side views: the corpus is Spanish"


_DISCUSSIONS = [
    ("00", "workbench.studies.tour", "discussion_00"),
    ("01", "workbench.studies.significance", "discussion_01"),
    ("02", "workbench.studies.views", "discussion_02"),
    ("03", "workbench.studies.mvlsa", "discussion_03"),
    ("04", "workbench.studies.mvlsa", "discussion_04"),
    ("05", "workbench.studies.mvlsa", "discussion_05"),
    ("06", "workbench.studies.eigenwords", "discussion_06"),
    ("07", "workbench.studies.translingual", "discussion_07"),
    ("08", "workbench.studies.senses", "discussion_08"),
    ("09", "workbench.studies.senses", "discussion_09"),
]


@pytest.mark.parametrize(("notebook", "module", "name"), _DISCUSSIONS)
def test_every_discussion_names_its_notebook_and_the_missing_records(notebook, module, name):
    """Every Discussion refuses what is not a complete run's records in the same words: the
    notebook whose records it needs, and every record missing."""
    import importlib
    import re

    render = getattr(importlib.import_module(module), name)
    with pytest.raises(TypeError, match=f"rec must be the records of a run of notebook {notebook}"):
        render(None)
    with pytest.raises(KeyError, match=f"that notebook {notebook} writes") as err:
        render({"seeds": [0]})
    listed = re.search(r"lacks the records (\[.*?\])", str(err.value))
    assert listed and "'seeds'" not in listed.group(1) and listed.group(1) != "[]"


def test_check_records_lists_every_missing_key_in_order():
    facts.check_records({"a": 1, "b": 2}, ("a", "b"), notebook="05")
    with pytest.raises(KeyError, match=r"\['c', 'a'\] that notebook 05 writes"):
        facts.check_records({"b": 2}, ("c", "b", "a"), notebook="05")
    with pytest.raises(TypeError, match="notebook 05 .* got list"):
        facts.check_records([("a", 1)], ("a",), notebook="05")
