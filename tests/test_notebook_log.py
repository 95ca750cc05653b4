"""workbench.notebook_log: a kernel's log records and warnings go to workbench.log; the warnings
that matter are summarised once. (The kernel path is exercised by tests/test_runner.py.)"""

from __future__ import annotations

import logging
import warnings

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
