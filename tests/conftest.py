"""Shared fixtures. ``run_notebook`` executes a notebook on small data and returns its records."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from notebook_outputs import unclean_outputs

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"

os.environ.setdefault("MPLBACKEND", "Agg")


@pytest.fixture(scope="session")
def notebook_runs(tmp_path_factory):
    """Cache of notebook runs keyed by (name, params) so several tests share one run."""
    return {}


@pytest.fixture
def run_notebook(notebook_runs, tmp_path_factory):
    """Execute ``notebooks/<name>.ipynb`` through :func:`workbench.runner.run_notebooks`.

    Runs at ``DATA_SIZE="small"`` (pass ``DATA_SIZE="full"`` to override) with the given
    parameters, validated against the notebook's parameters cell. Returns the dict of values
    its final cell recorded with ``workbench.records.record``. A failing notebook fails the
    test with the failing cell, its source and the error; so does an executed notebook whose
    output cells show an echoed value, a repr or a leftover progress bar
    (:func:`notebook_outputs.unclean_outputs`).
    """
    from workbench.runner import RunnerUsageError, run_notebooks

    def _run(name: str, **params):
        key = (name, repr(sorted(params.items())))
        if key in notebook_runs:
            return notebook_runs[key]
        size = params.pop("DATA_SIZE", "small")
        out = tmp_path_factory.mktemp(f"run_{name}")
        try:
            report = run_notebooks(
                [name],
                parameters=params,
                size=size,
                out=out,
                force=True,
                notebooks_dir=NOTEBOOKS,
                progress=False,
            )
        except RunnerUsageError as exc:
            usage_error = str(exc)
        else:
            usage_error = ""
        if usage_error:
            pytest.fail(f"cannot run notebook {name}: {usage_error}", pytrace=False)
        (result,) = report.results
        if result.failure is not None:
            tb = "\n".join(result.failure.traceback.splitlines()[-40:])
            pytest.fail(
                f"notebook {name} failed at {result.failure.describe()}\n\n{tb}\n\n"
                f"executed copy: {result.output_dir / (name + '.ipynb')}",
                pytrace=False,
            )
        executed = result.output_dir / (name + ".ipynb")
        unclean = unclean_outputs(executed)
        if unclean:
            pytest.fail(
                f"notebook {name} shows unclean output ({executed}):\n" + "\n".join(unclean),
                pytrace=False,
            )
        records = result.records
        notebook_runs[key] = records
        return records

    return _run
