"""``workbench embed`` and ``workbench evaluate`` on the user-data fixtures: vectors gensim reads,
scores with confidence intervals, MRDS and Holm-adjusted pairwise tests as a table, CSV and
JSON, and each bad input a usage error (exit 2) naming what to fix."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from gensim.models import KeyedVectors

from workbench import cli
from workbench.embeddings import load_word_vectors
from workbench.significance import holm

FIXTURES = Path(__file__).parent / "fixtures" / "user_data"
BOOKS = FIXTURES / "books_docs.txt"
TINY = ["--corpus-format", "line-docs", "--dim", "4", "--vocab-size", "300", "--no-progress"]


def _embed(out: Path, method: str, *extra: str) -> int:
    return cli.main(["embed", "--corpus", str(BOOKS), "--method", method, *TINY, *extra,
                     "--out", str(out)])  # fmt: skip


@pytest.mark.parametrize(("method", "suffix"), [("ppmi-svd", ".bin"), ("sgns", ".txt"),
                                                ("glove", ".bin"), ("mvlsa", ".txt")])  # fmt: skip
def test_embed_writes_vectors_gensim_reads(tmp_path, capsys, method, suffix):
    out = tmp_path / f"vectors{suffix}"
    extra = ["--epochs", "2"] if method in ("sgns", "glove") else []
    assert _embed(out, method, *extra) == 0
    assert f"{method} vectors to {out}" in capsys.readouterr().out
    kv = KeyedVectors.load_word2vec_format(str(out), binary=suffix == ".bin")
    assert kv.vector_size == 4
    assert 100 < len(kv.index_to_key) <= 300  # the vocabulary cap
    assert "the" in kv.key_to_index  # lowercased tokens of the corpus
    ours = load_word_vectors(out)
    assert ours.words == list(kv.index_to_key)
    np.testing.assert_allclose(ours.vectors, kv.vectors, rtol=1e-6)
    assert np.isfinite(kv.vectors).all() and np.abs(kv.vectors).sum(axis=1).min() > 0


def test_embed_is_seeded(tmp_path):
    a, b = tmp_path / "a.txt", tmp_path / "b.txt"
    assert _embed(a, "ppmi-svd") == 0 and _embed(b, "ppmi-svd") == 0
    assert a.read_bytes() == b.read_bytes()


def test_embed_folder_corpus(tmp_path):
    out = tmp_path / "v.bin"
    code = cli.main(["embed", "--corpus", str(FIXTURES / "books"), "--corpus-format", "folder",
                     "--method", "ppmi-svd", "--dim", "4", "--no-progress", "--out", str(out)])  # fmt: skip
    assert code == 0 and KeyedVectors.load_word2vec_format(str(out), binary=True).vector_size == 4


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--corpus", "/no/such/corpus.txt", "--method", "sgns"], "no such file"),
        (["--corpus", "EMPTY", "--method", "sgns"], "the file is empty"),
        (["--corpus", str(BOOKS), "--method", "lsa"], "--method 'lsa': expected one of mvlsa"),
        (["--corpus", str(BOOKS), "--method", "sgns", "--corpus-format", "line-docs",
          "--dim", "5000"], "--dim 5000 must be below the vocabulary size"),
        (["--corpus", "NOTEXT", "--method", "sgns"], "NOTEXT"),
    ],
)  # fmt: skip
def test_embed_bad_input_is_a_usage_error(tmp_path, capsys, args, message):
    (tmp_path / "empty.txt").write_text("")
    (tmp_path / "notext").mkdir()
    (tmp_path / "notext" / "readme.md").write_text("not a corpus file\n")
    args = [a.replace("EMPTY", str(tmp_path / "empty.txt")).replace("NOTEXT", str(tmp_path / "notext"))
            for a in args]  # fmt: skip
    out = tmp_path / "v.bin"
    assert cli.main(["embed", *args, "--no-progress", "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and message.replace("NOTEXT", "notext") in err
    assert not out.exists()


def test_embed_output_suffix_is_checked(tmp_path, capsys):
    assert _embed(tmp_path / "vectors.npy", "ppmi-svd") == 2
    assert ".bin (word2vec binary) or .txt" in capsys.readouterr().err


@pytest.fixture(scope="module")
def two_systems(tmp_path_factory):
    folder = tmp_path_factory.mktemp("vectors")
    a, b = folder / "ppmi.bin", folder / "sgns.txt"
    assert _embed(a, "ppmi-svd", "--dim", "8", "--vocab-size", "5000") == 0
    assert _embed(b, "sgns", "--dim", "8", "--vocab-size", "5000", "--epochs", "3") == 0
    return a, b


def test_evaluate_table_csv_and_json(two_systems, tmp_path, capsys):
    a, b = two_systems
    csv, js = tmp_path / "scores.csv", tmp_path / "scores.json"
    code = cli.main(["evaluate", str(a), str(b), "--wordsim", str(FIXTURES / "ratings.csv"),
                     "--wordsim", "MEN", "--csv", str(csv), "--json", str(js)])  # fmt: skip
    assert code == 0
    out = capsys.readouterr().out
    assert "Spearman's rho (95% paired bootstrap CI)" in out
    assert "Holm over the 2 pairwise comparisons" in out
    scores = pd.read_csv(csv)
    assert scores[["wordsim", "system"]].values.tolist() == [
        ["ratings.csv", "ppmi.bin"], ["ratings.csv", "sgns.txt"], ["MEN", "ppmi.bin"],
        ["MEN", "sgns.txt"]]  # fmt: skip
    assert (scores["n_pairs"] == [40, 40, 3000, 3000]).all()
    men = scores[scores["wordsim"] == "MEN"]
    assert (men["n_scored"] > 20).all()
    assert (men["ci_low"] <= men["spearman"]).all() and (men["spearman"] <= men["ci_high"]).all()
    assert men["mrds"].nunique() == 1 and 0 < men["mrds"].iloc[0] < 1
    tests = pd.read_csv(tmp_path / "scores.tests.csv")
    assert tests[["system_a", "system_b"]].values.tolist() == [["ppmi.bin", "sgns.txt"]] * 2
    np.testing.assert_allclose(tests["p_holm"], holm(tests["p"].to_numpy()))
    assert (tests["r_b"] - tests["r_a"]).round(12).tolist() == tests["difference"].round(12).tolist()
    data = json.loads(js.read_text())
    assert data["systems"] == {"ppmi.bin": str(a), "sgns.txt": str(b)}
    assert len(data["scores"]) == 4 and len(data["tests"]) == 2
    assert data["mrds"] == {"r_ab": 0.9, "p0": 0.05}
    assert data["scores"][2]["spearman"] == pytest.approx(men["spearman"].iloc[0])
    # the figure is the one of the evaluation module
    from workbench.evaluation import evaluate_wordsim

    assert evaluate_wordsim(load_word_vectors(a), "MEN").spearman == pytest.approx(
        men["spearman"].iloc[0])  # fmt: skip


def test_evaluate_steiger_and_all_sets(two_systems, capsys):
    a, b = two_systems
    assert cli.main(["evaluate", str(a), str(b), "--wordsim", "all", "--test", "steiger1980"]) == 0
    out = capsys.readouterr().out
    assert "Steiger's Z" in out and "MEN" in out and "SIMLEX" in out


def test_evaluate_all_oov_rating_file_is_a_usage_error(two_systems, tmp_path, capsys):
    bad = tmp_path / "klingon.csv"
    bad.write_text("word1,word2,score\nqapla,batlh,3.0\nnuqneh,majqa,2.5\n")
    assert cli.main(["evaluate", str(two_systems[0]), "--wordsim", str(bad)]) == 2
    err = capsys.readouterr().err
    assert str(bad) in err and "out of vocabulary" in err


@pytest.mark.parametrize(("what", "message"), [("missing-vectors", "no such file"),
                                               ("empty-vectors", "the file is empty"),
                                               ("missing-set", "no such file (nor a bundled set")])  # fmt: skip
def test_evaluate_bad_files(two_systems, tmp_path, capsys, what, message):
    empty = tmp_path / "empty.bin"
    empty.write_text("")
    vectors = {"missing-vectors": "/no/such.bin", "empty-vectors": str(empty)}.get(
        what, str(two_systems[0]))  # fmt: skip
    wordsim = "/no/such.csv" if what == "missing-set" else "MEN"
    assert cli.main(["evaluate", vectors, "--wordsim", wordsim]) == 2
    assert message in capsys.readouterr().err
