"""Results over seeds: mean ± sd tables, agreement counts and narration of per-seed values."""

import numpy as np
import pandas as pd
import pytest

from workbench import templating
from workbench.significance import format_mean_sd, seed_agreement, seed_list, seed_summary


def test_seed_list():
    assert seed_list(0, 3) == [0, 1, 2]
    assert seed_list(7, 1) == [7]
    with pytest.raises(ValueError, match="SEEDS"):
        seed_list(0, 0)
    with pytest.raises(TypeError, match="n_seeds"):
        seed_list(0, "2")
    with pytest.raises(ValueError, match="n_seeds"):
        seed_list(0, 2.5)


def test_seed_summary_matches_numpy():
    rng = np.random.default_rng(0)
    tabs = {
        s: pd.DataFrame(rng.random((3, 2)), index=["MEN", "WS", "RG"], columns=["a", "b"])
        for s in range(4)
    }
    summ = seed_summary(tabs)
    stack = np.stack([t.to_numpy() for t in tabs.values()])
    np.testing.assert_allclose(summ.mean.to_numpy(), stack.mean(0))
    np.testing.assert_allclose(summ.sd.to_numpy(), stack.std(0, ddof=1))
    assert list(summ.mean.index) == ["MEN", "WS", "RG"] and summ.n_seeds == 4
    text = summ.formatted()
    assert (
        text.loc["MEN", "a"]
        == f"{100 * stack[:, 0, 0].mean():.1f} ± {100 * stack[:, 0, 0].std(ddof=1):.1f}"
    )


def test_seed_summary_missing_cell_and_one_seed():
    a = pd.Series({"MEN": 0.5, "WS": 0.4}, name="x")
    b = pd.Series({"MEN": 0.7}, name="x")
    summ = seed_summary({0: a, 1: b})
    assert summ.mean.loc["MEN", "x"] == pytest.approx(0.6)
    assert summ.mean.loc["WS", "x"] == pytest.approx(0.4) and np.isnan(summ.sd.loc["WS", "x"])
    one = seed_summary({0: a})
    assert one.formatted().loc["MEN", "x"] == "50.0"  # no "± nan" with one seed
    with pytest.raises(ValueError, match="non-empty"):
        seed_summary({})


def test_seed_agreement_counts():
    flags = {
        0: pd.Series([True, False, True]),
        1: pd.Series([True, True, False]),
        2: pd.Series([True, False, False]),
    }
    assert seed_agreement(flags).tolist() == [3, 1, 1]


def test_format_mean_sd_nan():
    out = format_mean_sd(pd.Series([np.nan, 0.25]), pd.Series([0.1, 0.01]))
    assert out.tolist() == ["n/a", "25.0 ± 1.0"]


def test_per_seed_values_as_mean_sd():
    assert templating.mpts([0.42, 0.44]) == "43.0 ± 1.4"
    assert templating.mdpts({"0": 0.01, "1": 0.03}) == "+2.0 ± 1.4"
    assert templating.mpts([0.5]) == "50.0"
    assert templating.mpts([None, float("nan")]) == "n/a"
