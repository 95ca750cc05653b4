"""``bench/bench_grid_point.py``: one point of notebook 03's paper grids timed by parts, end to
end on the bundled data."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import numpy as np

from workbench.studies import mvlsa

BENCH = Path(__file__).resolve().parents[1] / "bench"


def test_quick_grid_point_reports_its_parts(tmp_path, monkeypatch):
    monkeypatch.setenv("WORKBENCH_CACHE", str(tmp_path / "cache"))
    spec = importlib.util.spec_from_file_location("bench_grid_point", BENCH / "bench_grid_point.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    out = mod.main(["--quick", "--json", str(tmp_path / "point.json")])
    assert json.loads((tmp_path / "point.json").read_text()) == out
    assert set(out["seconds"]) == {"view_set", "factors", "gram", "eigh", "embedding"}
    assert all(v >= 0 for v in out["seconds"].values())
    settings = mvlsa.settings("small")
    vs = mvlsa.build_view_set(settings)
    paper = mvlsa.paper_config(settings, n_words=len(vs.vocab), n_views=len(vs.views), seed=0)
    assert out["config"]["m"] == paper.config.view_rank and out["config"]["k"] == paper.config.n_components
    assert out["embedding_shape"] == [len(vs.vocab), paper.config.n_components] and out["finite"]
    # the order of the eigenproblem is the stacked factors' width: at most J * m
    assert out["order"] <= out["views"] * out["config"]["m"]
    # the eigenvalues of the MAX-VAR matrix lie in [0, 1]
    assert 0.0 <= out["lambda_k"] <= 1.0 + 1e-9
    vec = mvlsa.choice_vectors(vs, mvlsa.MVLSAChoice(paper.config), mvlsa.study_store(vs, settings))
    assert vec.vectors.shape[1] == out["embedding_shape"][1]
    assert np.isfinite(vec.vectors).all()
