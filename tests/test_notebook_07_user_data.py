"""Notebook 07 on a user's aligned texts (``PARALLEL``): Genesis 1-4 of the KJV and the
Reina-Valera 1909 as two line files (tests/fixtures/user_data/bible.en, bible.es; 106 lines).

load_parallel makes documents of 20 lines (6 documents) and splits them in file order, 80 % /
10 % / 10 %: 4 train, 1 dev, 1 test. There are no division labels, so Table 3 is not run.
"""

from __future__ import annotations

from pathlib import Path

import pytest

FIXTURES = Path(__file__).parent / "fixtures" / "user_data"
NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"


@pytest.fixture(scope="module")
def rec(tmp_path_factory):
    from workbench.runner import run_notebooks

    out = tmp_path_factory.mktemp("run_07_user")
    report = run_notebooks(
        ["07_translingual"],
        parameters={"PARALLEL": [str(FIXTURES / "bible.en"), str(FIXTURES / "bible.es")]},
        size="small",
        out=out,
        force=True,
        notebooks_dir=NOTEBOOKS,
        progress=False,
    )
    (result,) = report.results
    if result.failure is not None:
        pytest.fail(f"notebook 07 failed at {result.failure.describe()}\n"
                    f"{result.failure.traceback[-3000:]}", pytrace=False)  # fmt: skip
    return result.records


@pytest.mark.notebooks
def test_user_parallel_split_and_data(rec):
    # 106 aligned lines -> 6 documents of <= 20 lines, split in file order
    assert rec["n_chapters"] == {"train": 4, "dev": 1, "test": 1}
    assert rec["n_books"] == {"train": 4, "dev": 1, "test": 1}
    assert rec["verse_total"] == {"dev": 20, "test": 6}
    assert rec["data"]["parallel"] == ["bible.en", "bible.es"]
    assert rec["data_name"] == "bible"
    assert "file order" in rec["split_rule"] and "80 %" in rec["split_rule"]
    assert set(rec["n_terms_language"]) == {"en", "es"}
    # not the bundled Bible (1,189 chapters)
    assert sum(rec["n_chapters"].values()) == 6


@pytest.mark.notebooks
def test_user_parallel_results(rec):
    top1, mrr = rec["test_top1"], rec["test_mrr"]
    assert top1 and all(0.0 <= top1[m] <= mrr[m] + 1e-12 <= 1.0 + 1e-12 for m in top1)
    # every learned dimension is below the number of training documents
    for m, d in rec["chosen_dim"].items():
        assert d == "N/A" or int(d) < rec["n_chapters"]["train"], (m, d)
    # no division labels: no classification, and the records say so
    assert rec["classification_accuracy"] == {}
    assert rec["classification_pairs"] == []
    assert rec["majority_share"] is None
    assert rec["verse_top1"] and all(len(v) == 1 for v in rec["verse_top1"].values())


@pytest.mark.notebooks
def test_user_parallel_discussion_names_the_data(rec):
    from workbench.studies import translingual

    text = translingual.discussion_07(rec).data
    assert "bible.en and bible.es" in text
    assert "file order" in text
    assert "was not run" in text
