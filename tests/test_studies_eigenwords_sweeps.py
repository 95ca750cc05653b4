"""Notebook 06's set-up fixes: the prior in 13-token chunks, matched pairs, the sweeps."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp
from scipy import stats

from workbench.evaluation.wordsim import WordSimResult
from workbench.records import roundtrip
from workbench.significance import holm
from workbench.studies import eigenwords
from workbench.studies.eigenwords import (
    EIGEN,
    EmbeddingScores,
    PriorStudy,
    Sweeps,
    common_mask,
    corpus_prefix,
    graph_only_tests,
    matched_table,
    prior_counts,
    restrict,
    sweep_tests,
    table2_matched,
)
from workbench.studies.eigenwords._facts import (
    curve_shape,
    data_claim,
    dimension_claim,
    facts_06,
)
from workbench.views import EncodedCorpus

# ------------------------------------------------------------------ the prior in chunks


def _brute_prior(ids, starts, adj, k, N):
    """Figure 3's prior counts by the definition: ordered token pairs 0 < |i - j| <= N of one
    document (chunk) whose words are adjacent; row w_i, the contexts of j inside the chunk."""
    n, V = ids.size, adj.shape[0]
    doc = np.searchsorted(starts, np.arange(n), side="right") - 1
    slots = [s for s in range(-k, k + 1) if s != 0]
    P = np.zeros((V, 2 * k * V))
    for i in range(n):
        for j in range(n):
            if i == j or abs(i - j) > N or doc[i] != doc[j] or ids[i] < 0 or ids[j] < 0:
                continue
            if not adj[ids[i], ids[j]] or ids[i] == ids[j]:
                continue
            for slot, s in enumerate(slots):
                c = j + s
                if 0 <= c < n and doc[c] == doc[j] and ids[c] >= 0:
                    P[ids[i], slot * V + ids[c]] += 1
    return P


def _toy():
    """26 tokens of one document over a(0), b(1), c(2), the graph a ~ b: a at 10 and b at 14
    sit in different 13-token chunks, b at 14, a at 15 and b at 20 in the second one."""
    ids = np.full(26, 2, dtype=np.int32)
    ids[[10, 15]] = 0
    ids[[14, 20]] = 1
    adj = np.zeros((3, 3), dtype=bool)
    adj[0, 1] = adj[1, 0] = True
    enc = EncodedCorpus(ids, np.array([0]), 3)
    return enc, adj


def _graph(adj):
    from workbench.lexicons import LexiconGraph

    return LexiconGraph("toy", ["a", "b", "c"], sp.csr_matrix(adj.astype(float)))


def test_prior_counts_in_chunks_count_only_pairs_inside_a_chunk():
    enc, adj = _toy()
    base = eigenwords.settings("small", lexicons={})
    chunked = replace(base, lexicons={"T": "toy"}, chunk_length=13)
    whole = replace(chunked, chunk_length=None)
    graphs = {"T": _graph(adj)}
    P13 = prior_counts(chunked, enc, graphs)["T"].toarray()
    P = prior_counts(whole, enc, graphs)["T"].toarray()
    np.testing.assert_array_equal(P13, _brute_prior(enc.ids, np.array([0, 13]), adj, 2, 12))
    np.testing.assert_array_equal(P, _brute_prior(enc.ids, np.array([0]), adj, 2, 12))
    # in chunks: the pairs (14, 15) and (15, 20) only; the contexts of b@14 seen from a@15
    # lose position 12 (the first chunk): 4 + 3 + 4 + 4
    assert P13.sum() == 15
    # over the document, also (10, 14) and (10, 20), and b@14's four contexts: 4 pairs x 8
    assert P.sum() == 32
    # the row of a: a@15 sees 3 contexts of b@14 and 4 of b@20; a@10 nothing across the chunks
    assert P13[0].sum() == 3 + 4 and P[0].sum() == 16


def test_chunk_length_is_a_documented_setting():
    s = eigenwords.settings("small")
    assert s.chunk_length == 13 and eigenwords.settings("full").chunk_length == 13
    assert eigenwords.settings("small", chunk_length=None).chunk_length is None
    with pytest.raises(ValueError, match="chunk_length"):
        eigenwords.settings("small", chunk_length=1)
    with pytest.raises(TypeError, match="settings must be a PriorSettings"):
        prior_counts({"chunk_length": 13}, _toy()[0], {})  # type: ignore[arg-type]


# ------------------------------------------------------------------------ matched pairs


def _res(name, gold, pred):
    ok = ~np.isnan(pred)
    rho = float(stats.spearmanr(pred[ok], gold[ok])[0])
    return WordSimResult(name, rho, rho, gold.size, int(ok.sum()), (), pred, gold)


def _planted(n=200, seed=0):
    rng = np.random.default_rng(seed)
    gold = rng.standard_normal(n)
    a = gold + rng.standard_normal(n)
    b = gold + 2 * rng.standard_normal(n)
    c = gold + 0.5 * rng.standard_normal(n)
    a[:20] = np.nan  # a misses the first 20 pairs
    b[150:] = np.nan  # b the last 50
    return gold, {"A": _res("S", gold, a), "B": _res("S", gold, b), "C": _res("S", gold, c)}


def test_matched_table_scores_every_method_on_identical_pairs():
    gold, res = _planted()
    mask = common_mask(list(res.values()))
    assert mask.sum() == 130 and not mask[:20].any() and not mask[150:].any()
    t = matched_table({m: {"S": r} for m, r in res.items()}, ["S", "missing"], min_pairs=10)
    assert list(t["dataset"]) == ["S"] and int(t["n"].iloc[0]) == 130
    for m, r in res.items():
        expected = stats.spearmanr(r.pred[mask], gold[mask])[0]
        assert t[m].iloc[0] == pytest.approx(expected)
        assert t[m].iloc[0] != pytest.approx(r.spearman)  # not the method's own pairs
        rr = restrict(r, mask)
        assert rr.n_scored == 130 and np.array_equal(rr.scored, mask)
    assert matched_table({m: {"S": r} for m, r in res.items()}, ["S"], min_pairs=131).empty
    with pytest.raises(ValueError, match="different rating sets"):
        common_mask([res["A"], _res("T", gold[::-1].copy(), gold[::-1].copy())])


def _suite(results):
    rows = [{"dataset": r.name, "n_pairs": r.n_pairs, "n_scored": r.n_scored,
             "coverage": r.coverage, "spearman": r.spearman, "pearson": r.pearson}
            for r in results]  # fmt: skip
    df = pd.DataFrame(rows)
    df.attrs["results"] = {r.name: r for r in results}
    return df


def test_table2_tests_and_averages_use_the_pairs_all_three_score():
    gold, res = _planted()
    eig, graph, rf = res["C"], res["A"], res["B"]  # the "retrofit" scores fewer pairs here
    study = PriorStudy({EIGEN: EmbeddingScores(_suite([eig]), None)}, {0: {}},  # type: ignore[arg-type]
                       pd.DataFrame({"avg": [0.1]}, index=["WN"]), {}, {},
                       graph_scores={"WN": _suite([graph])},
                       graph_rf_scores={"WN": _suite([rf])})  # fmt: skip
    t = graph_only_tests(study, ["S"], min_pairs=10)
    mask = common_mask([eig, graph, rf])
    assert int(t["n"].iloc[0]) == mask.sum() == 130
    for col, r in (("eigen", eig), ("graph", graph), ("graph + RF", rf)):
        assert t[col].iloc[0] == pytest.approx(stats.spearmanr(r.pred[mask], gold[mask])[0])
    np.testing.assert_allclose(t["q"], holm(t["p"].to_numpy()))
    m = table2_matched(t, ["WN", "PD"])
    assert m.loc["WN", "pairs"] == 130 and m.loc["WN", "sets"] == 1
    assert m.loc["WN", "graph"] == pytest.approx(t["graph"].iloc[0])
    assert m.loc["PD", "sets"] == 0 and np.isnan(m.loc["PD", "eigen"])


# ----------------------------------------------------------------------------- sweeps


def _sweeps(p0=0.05):
    """2 data sizes x 3 dimensions: the planted quality rises with the dimension and with the
    data; the small data size at m = 10 misses 30 pairs of set S."""
    rng = np.random.default_rng(1)
    n = 400
    gold = {s: rng.standard_normal(n) for s in ("S", "T")}
    noise = {s: rng.standard_normal(n) for s in ("S", "T")}
    grid = []
    for i, data_noise in enumerate((2.0, 1.0)):
        row = []
        for j, dim_noise in enumerate((3.0, 1.5, 0.5)):
            cell = {}
            for s in ("S", "T"):
                pred = gold[s] + (data_noise + dim_noise) * noise[s] + 0.3 * rng.standard_normal(n)
                if i == 0 and j == 0 and s == "S":
                    pred[:30] = np.nan
                cell[s] = _res(s, gold[s], pred)
            row.append(cell)
        grid.append(row)
    return Sweeps((0.5, 1.0), (100, 200), (10, 20, 40), grid, ("S", "T", "U"), 10, p0)


def test_sweep_records_have_the_grid_shape_and_matched_pairs():
    sw = _sweeps()
    rec = sweep_tests(sw)
    assert roundtrip(dict(rec)) == dict(rec)
    assert rec["sizes"] == ["50%", "100%"] and rec["tokens"] == [100, 200]
    assert rec["dims"] == [10, 20, 40] and rec["data_dim"] == 40
    assert rec["sets"] == ["S", "T"] and rec["pairs"] == 370 + 400  # U is in no cell
    assert np.asarray(rec["avg"]).shape == (2, 3)
    assert np.asarray(rec["dim_better"]).shape == np.asarray(rec["dim_worse"]).shape == (2, 2)
    assert len(rec["data_better"]) == len(rec["data_worse"]) == 1
    assert rec["dim_n_tests"] == 2 * 2 * 2 and rec["data_n_tests"] == 2
    # every cell is averaged on the same pairs: the m = 10 cell of the small size decides them
    mask = sw.grid[0][0]["S"].scored
    top = sw.grid[1][2]
    expected = np.mean([stats.spearmanr(top["S"].pred[mask], top["S"].gold[mask])[0],
                        top["T"].spearman])  # fmt: skip
    assert rec["avg"][1][2] == pytest.approx(expected)
    # the planted quality: every step up is significantly above on both sets
    assert rec["dim_better"] == [[2, 2], [2, 2]] and rec["dim_worse"] == [[0, 0], [0, 0]]
    assert rec["data_better"] == [2] and rec["data_worse"] == [0]
    assert sw.table().shape == (2, 3)
    assert dimension_claim({"sweep": rec}).verdict == "replicated"
    assert data_claim({"sweep": rec}).verdict == "replicated"


def test_corpus_prefix_cuts_tokens_and_documents():
    enc = EncodedCorpus(np.arange(10, dtype=np.int32), np.array([0, 4, 8]), 10, "x")
    half = corpus_prefix(enc, 0.5)
    assert half.ids.tolist() == [0, 1, 2, 3, 4] and half.doc_starts.tolist() == [0, 4]
    assert half.source == "x[:5]"
    with pytest.raises(ValueError, match="fraction"):
        corpus_prefix(enc, 1.5)


def test_sweep_settings_follow_the_paper_and_refuse_bad_values():
    full = eigenwords.settings("full")
    assert full.sweep_dims == (50, 100, 200, 300) and full.sweep_corpora == ("1M", "5M", "25M")
    assert eigenwords.settings("full", corpus="my.txt").sweep_corpora == (0.04, 0.2, 1.0)
    assert eigenwords.settings("small").sweep_corpora == (0.25, 0.5, 1.0)
    with pytest.raises(ValueError, match="sweep_dims must be increasing"):
        eigenwords.settings("small", sweep_dims=(20, 10))
    with pytest.raises(ValueError, match="sweep_corpora: '2M' is not a bundled corpus"):
        eigenwords.settings("small", sweep_corpora=("1M", "2M"))
    with pytest.raises(ValueError, match="fraction"):
        eigenwords.settings("small", sweep_corpora=(0.5, 2.0))


# ------------------------------------------------------------------------------ facts


def _sweep_rec(dim_better, dim_worse, data_better, data_worse):
    return {"sweep": {"sizes": ["1M", "5M"], "tokens": [1, 5], "dims": [50, 100, 200],
                      "data_dim": 200, "sets": ["WS"], "pairs": 300,
                      "avg": [[0.3, 0.32, 0.31], [0.33, 0.35, 0.37]],
                      "dim_better": dim_better, "dim_worse": dim_worse, "dim_n_tests": 4,
                      "data_better": data_better, "data_worse": data_worse,
                      "data_n_tests": 1}}  # fmt: skip


def test_sweep_claims_follow_the_tests_not_the_averages():
    rec = _sweep_rec([[1, 0], [1, 1]], [[0, 0], [0, 0]], [0], [0])
    dc = dimension_claim(rec)
    assert dc.verdict == "partly" and dc.n_above == 3 and dc.n_below == 0 and dc.n_tests == 4
    assert dc.steps[1] == ("1M: m = 100", "m = 200", "no detectable difference")
    # the averages rise from 1M to 5M, but no test says so
    assert data_claim(rec).verdict == "no detectable difference"
    worse = _sweep_rec([[1, 0], [1, 1]], [[0, 1], [0, 0]], [1], [1])
    assert dimension_claim(worse).verdict == "not replicated"
    assert data_claim(worse).verdict == "not replicated"  # mixed step
    assert (
        dimension_claim(_sweep_rec([[1, 1], [1, 1]], [[0, 0], [0, 0]], [1], [0])).verdict
        == "replicated"
    )
    assert dimension_claim({}) is None and data_claim({"sweep": None}) is None


def test_curve_shape_describes_the_averages():
    assert curve_shape([0.1, 0.2, 0.2]) == "rises"
    assert curve_shape([0.3, 0.2]) == "falls"
    assert curve_shape([0.1, 0.3, 0.2]) == "peaks"
    assert curve_shape([0.3, 0.1, 0.2]) == "dips"
    assert curve_shape([0.3, float("nan")]) == "n/a"


def test_facts_06_carries_the_sweeps_and_table2_retrofit_change():
    from test_studies_eigenwords_discussion import _records

    rec = _records(**_sweep_rec([[1, 0], [1, 1]], [[0, 0], [0, 0]], [1], [0]))
    f = facts_06(rec)
    assert f.dimension is not None and f.dimension.verdict == "partly"
    assert f.data is not None and f.data.verdict == "replicated"
    assert f.dim_shapes == [("1M", "peaks"), ("5M", "rises")]
    assert f.data_shape == "rises"
    assert [lab for lab, _ in f.dim_gains] == ["1M", "5M"]
    assert f.dim_gains[1][1] == pytest.approx(0.04)
    assert f.table2_rf_change["FrameNet"] == pytest.approx(0.02)
