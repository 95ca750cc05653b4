"""Tests of workbench.coverage (pure functions behind the tour notebook)."""

from __future__ import annotations

import gzip

import numpy as np
import pandas as pd
import pytest

from workbench import coverage as cov


def test_vocabulary_counts_ranked_with_alphabetical_ties():
    counts = cov.vocabulary_counts("b a c a b a d".split())
    assert list(counts.index) == ["a", "b", "c", "d"]
    assert counts.tolist() == [3, 2, 1, 1]
    assert len(cov.vocabulary_counts([])) == 0


def test_type_token_curve_matches_brute_force():
    rng = np.random.default_rng(0)
    tokens = [f"w{i}" for i in rng.zipf(1.5, size=5000) % 800]
    curve = cov.type_token_curve(tokens, n_points=30)
    assert curve["tokens"].iloc[-1] == len(tokens)
    assert curve["tokens"].is_monotonic_increasing and curve["types"].is_monotonic_increasing
    for n, v in curve.itertuples(index=False):
        assert v == len(set(tokens[:n]))
    with pytest.raises(ValueError, match="no tokens"):
        cov.type_token_curve([])


def test_power_law_fits_recover_planted_exponents():
    ranks = np.arange(1, 20_001)
    counts = np.round(1e6 * ranks**-1.1)
    fit = cov.fit_zipf(counts, ranks=(10, 1000))
    assert fit.exponent == pytest.approx(-1.1, abs=0.01) and fit.r2 > 0.999
    n = np.unique(np.geomspace(1, 1e6, 40).astype(int))
    curve = pd.DataFrame({"tokens": n, "types": np.round(30 * n**0.55)})
    heaps = cov.fit_heaps(curve)
    assert heaps.exponent == pytest.approx(0.55, abs=0.01)
    assert heaps.scale == pytest.approx(30, rel=0.1)
    with pytest.raises(ValueError, match="ranks must satisfy"):
        cov.fit_zipf(counts, ranks=(0, 10))


def test_coverage_table_exact_values_and_monotone():
    vocab = ["the", "cat", "dog", "car", "tiger", "zebra"]  # ranks 0..5
    ratings = pd.DataFrame(
        {
            "word1": ["Cat", "car", "tiger", "unicorn"],
            "word2": ["dog", "the", "zebra", "cat"],
            "score": [1.0, 2.0, 3.0, 4.0],
        }
    )
    analogies = pd.DataFrame(
        {
            "a": ["cat"],
            "b": ["dog"],
            "c": ["car"],
            "d": ["tiger"],
            "section": ["x"],
            "kind": ["semantic"],
        }
    )
    table = cov.coverage_table(
        vocab, {"r": ratings, "a": analogies, "t": [("the", "cat")]}, [2, 3, 4, None]
    )
    assert list(table.columns) == ["items", "2", "3", "4", "all"]
    # worst ranks: (cat,dog)=2, (car,the)=3, (tiger,zebra)=5, unicorn=inf
    assert table.loc["r"].tolist() == [4, 0.0, 0.25, 0.5, 0.75]
    assert table.loc["a"].tolist() == [1, 0.0, 0.0, 0.0, 1.0]
    assert table.loc["t"].tolist() == [1, 1.0, 1.0, 1.0, 1.0]
    values = table.drop(columns="items").to_numpy()
    assert (np.diff(values, axis=1) >= 0).all()
    # case-sensitive look-up misses "Cat"
    strict = cov.coverage_table(vocab, {"r": ratings}, [None], lowercase=False)
    assert strict.loc["r", "all"] == 0.5


def test_coverage_table_bad_input():
    with pytest.raises(ValueError, match="cut-offs must be positive"):
        cov.coverage_table(["a"], {"x": [("a",)]}, [0])
    with pytest.raises(ValueError, match="needs columns"):
        cov.coverage_table(["a"], {"x": pd.DataFrame({"foo": ["a"]})})
    with pytest.raises(ValueError, match="'x' has no items"):
        cov.coverage_table(["a"], {"x": []})


def test_cutoff_labels():
    assert [cov.cutoff_label(k) for k in (10_000, 25_000, 1_500_000, 123, None)] == [
        "10K",
        "25K",
        "1.5M",
        "123",
        "all",
    ]


def test_missing_words():
    table = cov.missing_words(
        ["a", "b", "c"], {"x": [("a", "z"), ("y", "z"), ("b", "c")]}, cutoff=2
    )
    row = table.loc["x"]
    assert row["words"] == 5 and row["missing"] == 3
    assert row["examples"] == "z, c, y"  # z used twice comes first


def test_data_inventory(tmp_path):
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "a.txt").write_text("1\n2\n3\n")
    with gzip.open(tmp_path / "b.txt.gz", "wt") as fh:
        fh.write("x\n" * 10)
    (tmp_path / ".hidden").write_text("secret\n")
    table = cov.data_inventory(tmp_path)
    assert table["file"].tolist() == ["b.txt.gz", "sub/a.txt"]
    assert table["lines"].tolist() == [10, 3]
    assert table["folder"].tolist() == [".", "sub"]
    with pytest.raises(FileNotFoundError, match="data folder not found"):
        cov.data_inventory(tmp_path / "missing")
