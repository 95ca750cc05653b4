"""workbench.notebook_log: a kernel's log records and warnings go to workbench.log; the warnings
that matter are summarised once. (The kernel path is exercised by tests/test_runner.py.)"""

from __future__ import annotations

import importlib.util
import json
import logging
import os
import shutil
import subprocess
import sys
import warnings
from pathlib import Path

import pandas as pd
import pytest

from workbench import notebook_log


@pytest.fixture
def logged(tmp_path):
    before = warnings.showwarning
    path = notebook_log.setup_notebook_logging(tmp_path)
    yield path
    notebook_log.teardown_notebook_logging()
    assert warnings.showwarning is before
    assert logging.getLogger("workbench").level == logging.NOTSET


def test_not_set_up_outside_a_kernel():
    assert not notebook_log.in_kernel()
    notebook_log.auto_setup()
    assert not notebook_log._STATE


def test_a_kernel_of_another_project_is_left_alone(tmp_path, monkeypatch):
    from workbench.records import OUTPUT_DIR_ENV

    monkeypatch.setattr(notebook_log, "in_kernel", lambda: True)
    monkeypatch.delenv(OUTPUT_DIR_ENV, raising=False)
    monkeypatch.chdir(tmp_path)  # a user's own project, not a workbench checkout
    notebook_log.auto_setup()
    assert not notebook_log._STATE and not (tmp_path / "results").exists()
    monkeypatch.setenv(OUTPUT_DIR_ENV, str(tmp_path / "run"))  # a runner run
    assert notebook_log._in_workbench_run()


def test_log_file_and_summary(logged, tmp_path, capsys):
    assert logged == tmp_path / "workbench.log"
    assert notebook_log.setup_notebook_logging(tmp_path) == logged  # idempotent
    with warnings.catch_warnings():
        warnings.simplefilter("always")
        logging.getLogger("workbench.demo").info("fitted 3 views")
        logging.getLogger("otherlib").info("chatter")  # other libraries: WARNING and above only
        warnings.warn("values were clipped", RuntimeWarning, stacklevel=1)
        warnings.warn("values were clipped", RuntimeWarning, stacklevel=1)
        warnings.warn("old API", DeprecationWarning, stacklevel=1)
        logging.getLogger("workbench.demo").warning("3 rows dropped")
    summary = notebook_log._STATE["summary"]
    assert summary.take() == ["RuntimeWarning: values were clipped", "3 rows dropped"]
    assert summary.counts["RuntimeWarning: values were clipped"] == 2
    assert summary.take() == []  # shown once
    logging.getLogger("workbench.demo").warning("3 rows dropped")
    logging.getLogger("workbench.demo").error("no vectors")
    notebook_log._report()
    err = capsys.readouterr().err
    assert err.splitlines()[0] == "\u26a0 error: no vectors" and "3 rows" not in err
    for h in logging.getLogger().handlers:
        h.flush()
    text = logged.read_text()
    assert "INFO workbench.demo: fitted 3 views" in text and "chatter" not in text
    assert text.count("RuntimeWarning: values were clipped (test_notebook_log.py:") == 2
    assert "DeprecationWarning: old API" in text and "ERROR workbench.demo: no vectors" in text


@pytest.fixture
def checkout(tmp_path, monkeypatch):
    """A workbench checkout as the working directory, no runner run, no notebook name."""
    (tmp_path / "notebooks").mkdir()
    (tmp_path / "workbench").mkdir()
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv(notebook_log.OUTPUT_DIR_ENV, raising=False)
    monkeypatch.delenv(notebook_log.SESSION_NAME_ENV, raising=False)
    monkeypatch.setattr(notebook_log, "_UNNAMED", {})
    return tmp_path


def test_output_dir_separates_hand_run_notebooks(checkout, monkeypatch):
    interactive = checkout / "results" / "interactive"
    monkeypatch.setenv(notebook_log.SESSION_NAME_ENV, str(checkout / "notebooks" / "03_mvlsa.ipynb"))
    assert notebook_log.output_dir() == interactive / "03_mvlsa"
    monkeypatch.setenv(notebook_log.SESSION_NAME_ENV, "notebooks/04_ablation.ipynb")
    assert notebook_log.output_dir() == interactive / "04_ablation"
    monkeypatch.setenv(notebook_log.SESSION_NAME_ENV, "notebooks/my copy (2).ipynb")
    assert notebook_log.output_dir() == interactive / "my_copy__2_"
    monkeypatch.setenv(notebook_log.OUTPUT_DIR_ENV, str(checkout / "run" / "03_mvlsa"))
    assert notebook_log.output_dir() == checkout / "run" / "03_mvlsa"  # a runner run


def test_output_dir_reads_the_ipykernel_session(checkout, monkeypatch):
    shell = type("Shell", (), {"user_ns": {"__session__": "/x/notebooks/08_sense_pairs.ipynb"}})()
    monkeypatch.setattr(notebook_log, "_shell", lambda: shell)
    assert notebook_log.output_dir() == checkout / "results" / "interactive" / "08_sense_pairs"


def test_an_unknown_notebook_writes_to_unnamed_with_one_log_line(checkout):
    from workbench.records import save_table

    folder = checkout / "results" / "interactive" / notebook_log.UNNAMED
    assert notebook_log.output_dir() == folder
    log = notebook_log.setup_notebook_logging()
    try:
        assert log == folder / notebook_log.LOG_FILE
        save_table("t", pd.DataFrame({"a": [1]}))
        notebook_log.output_dir()
        for h in logging.getLogger().handlers:
            h.flush()
        text = log.read_text()
    finally:
        notebook_log.teardown_notebook_logging()
    assert (folder / "tables" / "t.csv").is_file()
    assert text.count("the notebook's name is not known") == 1
    assert "results/interactive/unnamed/" in text


# ------------------------------------------------------------------ the output-stripping git filter
ROOT = Path(__file__).resolve().parents[1]
FILTER = ROOT / "tools" / "strip_notebook_outputs.py"
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))


def _filter_module():
    spec = importlib.util.spec_from_file_location("strip_notebook_outputs", FILTER)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _with_outputs(text: str) -> str:
    """``text`` as JupyterLab saves it after a run: outputs, counts and timings, nbformat's
    layout (sources as lists of lines, UTF-8)."""
    nb = json.loads(text)
    for i, cell in enumerate(nb["cells"]):
        if cell["cell_type"] == "code":
            cell["execution_count"] = i + 1
            cell["outputs"] = [{"name": "stdout", "output_type": "stream", "text": ["42\n"]}]
            cell["metadata"]["execution"] = {"iopub.status.busy": "2024-01-01T00:00:00Z"}
        if isinstance(cell["source"], str):
            cell["source"] = cell["source"].splitlines(keepends=True)
    return json.dumps(nb, sort_keys=True, indent=1, ensure_ascii=False) + "\n"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_filter_gives_the_committed_form_of_every_notebook(path):
    strip = _filter_module()
    committed = path.read_text(encoding="utf-8")
    assert strip.clean(committed, committed) == committed  # the committed form is stable
    assert strip.clean(_with_outputs(committed), committed) == committed  # after a Lab run
    alone = json.loads(strip.clean(_with_outputs(committed)))  # a new notebook: no index copy
    code = [c for c in alone["cells"] if c["cell_type"] == "code"]
    assert code and all(c["outputs"] == [] and c["execution_count"] is None for c in code)
    assert not any("execution" in c["metadata"] for c in alone["cells"])


def test_filter_passes_other_content_through():
    strip = _filter_module()
    assert strip.clean("not json {") == "not json {"
    assert strip.clean('{"a": 1}') == '{"a": 1}'


def test_checkout_stays_clean_after_a_lab_session(tmp_path):
    """A notebook saved with outputs leaves git status clean once the filter is configured
    as make venv does (local config only)."""
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    repo = tmp_path / "repo"
    (repo / "notebooks").mkdir(parents=True)
    (repo / "tools").mkdir()
    shutil.copy(FILTER, repo / "tools" / FILTER.name)
    shutil.copy(ROOT / ".gitattributes", repo / ".gitattributes")
    nb = repo / "notebooks" / NOTEBOOKS[3].name
    shutil.copy(NOTEBOOKS[3], nb)

    def git(*args: str) -> str:
        env = {"GIT_CONFIG_GLOBAL": "/dev/null", "GIT_CONFIG_NOSYSTEM": "1", "HOME": str(tmp_path),
               "PATH": os.environ["PATH"]}  # fmt: skip
        return subprocess.run(["git", *args], cwd=repo, env=env, check=True, capture_output=True,
                              text=True).stdout  # fmt: skip

    git("init", "-q")
    git("config", "--local", "filter.nbstrip.clean", f"{sys.executable} tools/{FILTER.name} %f")
    git("config", "--local", "filter.nbstrip.smudge", "cat")
    git("add", "-A")
    git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "init")
    committed = git("ls-files", "-s")
    nb.write_text(_with_outputs(nb.read_text(encoding="utf-8")), encoding="utf-8")
    assert git("diff") == ""  # the filter strips the outputs
    (repo / "workbench").mkdir()  # a checkout: the save hook of make lab refreshes the index
    os.environ.update(GIT_CONFIG_GLOBAL="/dev/null", GIT_CONFIG_NOSYSTEM="1")
    try:
        notebook_log.refresh_git_index(model={}, os_path=str(nb), contents_manager=None)
    finally:
        for key in ("GIT_CONFIG_GLOBAL", "GIT_CONFIG_NOSYSTEM"):
            os.environ.pop(key, None)
    assert git("status", "--porcelain") == ""
    assert git("ls-files", "-s") == committed and "outputs" in nb.read_text()  # nothing lost
    nb.write_text(nb.read_text().replace('"cells": [', '"cells": [\n{"cell_type": "markdown", '
                                         '"id": "x", "metadata": {}, "source": "new"},', 1))
    notebook_log.refresh_git_index(model={}, os_path=str(nb), contents_manager=None)
    assert git("status", "--porcelain") == f" M notebooks/{nb.name}\n"  # a real edit: unstaged


def test_make_venv_installs_the_filter_in_the_local_config():
    if shutil.which("make") is None:
        pytest.skip("make is not installed")
    res = subprocess.run(["make", "-n", "-o", ".venv/.workbench-installed", "venv"], cwd=ROOT,
                         capture_output=True, text=True, check=True)  # fmt: skip
    assert "git config --local filter.nbstrip.clean" in res.stdout
    assert "tools/strip_notebook_outputs.py %f" in res.stdout and "--global" not in res.stdout
    assert "notebooks/*.ipynb filter=nbstrip" in (ROOT / ".gitattributes").read_text()


def test_a_solver_that_did_not_converge_is_shown_once_with_its_meaning(logged, capsys, monkeypatch):
    """The adaptive SVD logs its non-convergence (at INFO or WARNING): the reader sees one line
    under the cell, with what it means, however often it happens in the cell."""
    shell = type("Shell", (), {})()  # a fake kernel: _report is the post_run_cell display hook
    monkeypatch.setattr(notebook_log, "_shell", lambda: shell)
    gcca = logging.getLogger("workbench.gcca._randomized")
    msg = "adaptive truncated SVD stopped after %d iterations (basis %d) at relative residual %.2e"
    gcca.info(msg, 100, 40, 3.31e9)
    gcca.warning(msg, 100, 41, 2.0e3)
    logging.getLogger("workbench.demo").info("fitted 3 views")  # other INFO: log only
    notebook_log._report()
    err = capsys.readouterr().err.splitlines()
    assert err[0] == ("\u26a0 adaptive truncated SVD stopped after 100 iterations (basis 40) at "
                      "relative residual 3.31e+09 \u2014 the SVD of a view did not reach its "
                      "tolerance: its factor is less accurate than requested")  # fmt: skip
    assert len([ln for ln in err if ln.startswith("\u26a0")]) == 1 and "fitted" not in "".join(err)
    gcca.info(msg, 100, 40, 1.0e2)  # the next cell: counted, not shown again
    notebook_log._report()
    assert capsys.readouterr().err == ""
    summary = notebook_log._STATE["summary"]
    assert summary.counts[notebook_log.meaning("adaptive truncated SVD stopped after")] == 3


@pytest.mark.parametrize("text, words", [
    ("views ['ppdb'] dropped: no rows observed", "fewer views"),
    ("MEN: only 12 pairs scored", "tiny set"),
    ("GloVe stopped after epoch 3", "solver stopped"),
])  # fmt: skip
def test_messages_that_matter_get_their_meaning(logged, text, words):
    logging.getLogger("workbench.demo").warning(text)
    (line,) = notebook_log._STATE["summary"].take()
    assert line.startswith(text) and words in line
