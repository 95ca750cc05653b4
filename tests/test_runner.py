"""Tests of workbench.runner / workbench.cli on tiny synthetic notebooks in tmp_path."""

from __future__ import annotations

import json
import os
import re
import stat
from pathlib import Path

import nbformat
import pytest

from workbench import cli, runner
from workbench.records import read_records
from workbench.runner import _execution

PARAMS = 'DATA_SIZE = "full"\nINTERACTIVE = False\nSEED = 0\nSCALE = 1.5\nLABEL = "x"\nN = 3\n'

BODY = """\
import logging
import warnings
import pandas as pd
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
from workbench.records import record, save_table, save_figure
value = N * SCALE + SEED
save_table("numbers", pd.DataFrame({"n": list(range(N))}))
fig, ax = plt.subplots()
ax.plot(range(N))
save_figure("line", fig)
logging.getLogger("workbench.demo").info("an info line for the log only")
warnings.warn("values were clipped", RuntimeWarning)
warnings.warn("values were clipped", RuntimeWarning)  # again (another line): counted, not shown
warnings.warn("old API", DeprecationWarning)  # for developers: in the log only
"""


def make_notebook(folder: Path, name: str, *, fail: bool = False, params: str = PARAMS) -> Path:
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {
        "name": "python3",
        "display_name": "Python 3",
        "language": "python",
    }
    cell = nbformat.v4.new_code_cell(params)
    cell.metadata["tags"] = ["parameters"]
    nb.cells = [nbformat.v4.new_markdown_cell(f"# {name}"), cell, nbformat.v4.new_code_cell(BODY)]
    if fail:
        nb.cells.append(nbformat.v4.new_code_cell('raise ValueError("planted failure " + LABEL)'))
    nb.cells.append(
        nbformat.v4.new_code_cell(
            'record("value", value)\nrecord("size", DATA_SIZE)\nrecord("label", LABEL)'
        )
    )
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.ipynb"
    nbformat.write(nb, path)
    return path


@pytest.fixture
def nbdir(tmp_path):
    folder = tmp_path / "notebooks"
    make_notebook(folder, "00_alpha")
    make_notebook(folder, "01_beta", fail=True)
    make_notebook(folder, "02_gamma")
    return folder


def run(nbdir, names, **kw):
    kw.setdefault("out", nbdir.parent / "results")
    return runner.run_notebooks(names, notebooks_dir=nbdir, progress=False, **kw)


# ---------------------------------------------------------------- discovery and parameters


def test_resolve_names(nbdir):
    assert [p.stem for p in runner.list_notebooks(nbdir)] == ["00_alpha", "01_beta", "02_gamma"]
    got = runner.resolve_notebooks(
        ["alpha", "01", "02_gamma", str(nbdir / "00_alpha.ipynb")], nbdir
    )
    assert [p.stem for p in got] == ["00_alpha", "01_beta", "02_gamma"]
    assert [p.stem for p in runner.resolve_notebooks(None, nbdir)][0] == "00_alpha"


def test_notebook_parameters(nbdir):
    params = runner.notebook_parameters(nbdir / "00_alpha.ipynb")
    assert params == {
        "DATA_SIZE": "full",
        "INTERACTIVE": False,
        "SEED": 0,
        "SCALE": 1.5,
        "LABEL": "x",
        "N": 3,
    }


def test_parameters_cell_must_be_literals(tmp_path):
    path = make_notebook(tmp_path, "00_bad", params='DATA_SIZE = "full"\nSEED = len("ab")\n')
    with pytest.raises(runner.NotebookFormatError, match=r"line 2.*SEED.*not a literal"):
        runner.notebook_parameters(path)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("SEED=3", (None, "SEED", 3)),
        ("SCALE=2.5", (None, "SCALE", 2.5)),
        ("LABEL=hello world", (None, "LABEL", "hello world")),
        ("LABEL='7'", (None, "LABEL", "7")),
        ("03_mvlsa:K=[1, 2]", ("03_mvlsa", "K", [1, 2])),
        ("INTERACTIVE=True", (None, "INTERACTIVE", True)),
    ],
)
def test_parse_parameter(text, expected):
    assert runner.parse_parameter(text) == expected


def test_validate_parameters_types(nbdir):
    path = nbdir / "00_alpha.ipynb"
    eff = runner.validate_parameters(path, {"SCALE": 2, "N": 5}, size="small")
    assert eff["SCALE"] == 2.0 and isinstance(eff["SCALE"], float)  # int accepted for float
    assert eff["N"] == 5 and eff["DATA_SIZE"] == "small" and eff["LABEL"] == "x"
    with pytest.raises(runner.RunnerUsageError, match=r"N expects int.*got float"):
        runner.validate_parameters(path, {"N": 2.5})
    with pytest.raises(runner.RunnerUsageError, match=r"INTERACTIVE expects bool"):
        runner.validate_parameters(path, {"INTERACTIVE": 1})
    with pytest.raises(runner.RunnerUsageError, match=r"SEED expects int.*got bool"):
        runner.validate_parameters(path, {"SEED": True})
    lists = make_notebook(
        path.parent, "05_lists", params=PARAMS + "SIZES = [1.0, 2.5]\nNAMES = ('a', 'b')\n"
    )
    # a tuple default is overridden with a list (a tuple cannot be passed to a notebook)
    eff = runner.validate_parameters(lists, {"SIZES": [1, 2], "NAMES": ["c"]})
    assert eff["SIZES"] == [1.0, 2.0] and eff["NAMES"] == ["c"]
    with pytest.raises(runner.RunnerUsageError, match=r"parameter NAMES: a value of type tuple"):
        runner.validate_parameters(lists, {"NAMES": ("c",)})
    with pytest.raises(runner.RunnerUsageError, match=r"SIZES\[1\] expects float.*got str"):
        runner.validate_parameters(lists, {"SIZES": [1, "x"]})
    with pytest.raises(runner.RunnerUsageError, match=r"SIZES expects list.*got int"):
        runner.validate_parameters(lists, {"SIZES": 3})
    with pytest.raises(runner.RunnerUsageError, match=r"size must be one of"):
        runner.validate_parameters(path, {}, size="huge")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["run", "nope"], "unknown notebook 'nope'"),
        (["run", "alpha", "-p", "BOGUS=1"], "parameter 'BOGUS' is not declared"),
        (["run", "alpha", "-p", "N=abc"], "N expects int"),
        (["run", "alpha", "-p", "oops"], "expected name=value"),
        (["run", "alpha", "-p", "beta:N=2"], "not selected"),
    ],
)
def test_cli_usage_errors_exit_2_before_running(nbdir, capsys, argv, message):
    out = nbdir.parent / "results"
    code = cli.main([*argv, "--notebooks-dir", str(nbdir), "--out", str(out), "--no-progress"])
    assert code == 2
    assert message in capsys.readouterr().err
    assert not out.exists()  # nothing ran


def test_undeclared_parameter_rejected_for_any_selected_notebook(nbdir, tmp_path):
    make_notebook(
        nbdir,
        "03_delta",
        params='DATA_SIZE = "full"\nINTERACTIVE = False\nSEED = 0\n'
        'N = 3\nSCALE = 1.0\nLABEL = "d"\n',
    )
    (nbdir / "03_delta.ipynb").write_text(
        (nbdir / "03_delta.ipynb").read_text().replace("SCALE = 1.0", "OTHER = 1.0")
    )
    with pytest.raises(runner.RunnerUsageError, match="03_delta: parameter 'SCALE'"):
        run(nbdir, ["alpha", "delta"], parameters={"SCALE": 2.0})


# ---------------------------------------------------------------- execution


def test_run_writes_outputs_failure_reported_others_continue(nbdir, capsys, monkeypatch):
    out = nbdir.parent / "results"
    # a relative --out (as in the README's `make run`) while the kernel runs in notebooks/
    monkeypatch.chdir(nbdir.parent)
    code = cli.main(
        [
            "run",
            "--notebooks-dir",
            str(nbdir),
            "--out",
            "results",
            "--size",
            "small",
            "-p",
            "SEED=2",
            "-p",
            "alpha:N=4",
            "--no-progress",
        ]
    )
    assert code == 1
    captured = capsys.readouterr()
    # overall progress: one line per notebook as it finishes (each followed by the time left
    # while notebooks remain), then the summary table
    every = captured.out.splitlines()
    assert every[0] == (
        "    time left unknown: 00_alpha, 01_beta, 02_gamma not timed before in this folder")
    assert sum("time left unknown" in line for line in every) == 1  # said once
    lines = [line for line in every if not line.startswith("    ")]
    assert re.fullmatch(r"\[1/3\] 00_alpha +\d+\.\d s  complete", lines[0])
    assert re.fullmatch(r"\[2/3\] 01_beta +\d+\.\d s  failed -- cell 3 \(In \[4\]\): "
                        r"ValueError: planted failure x", lines[1])  # fmt: skip
    assert re.fullmatch(r"\[3/3\] 02_gamma +\d+\.\d s  complete", lines[2])
    assert "| **3 notebooks** | 2 complete, 1 failed |" in captured.out
    assert "FAILED 01_beta" in captured.err
    assert "cell 3 (In [4]): ValueError: planted failure x" in captured.err
    assert 'raise ValueError("planted failure " + LABEL)' in captured.err  # the failing source

    alpha = out / "00_alpha"
    assert read_records(alpha / "records.json") == {"value": 8.0, "size": "small", "label": "x"}
    assert (alpha / "00_alpha.ipynb").exists()
    assert (alpha / "tables" / "numbers.csv").read_text().count("\n") == 5  # header + 4 rows
    assert (alpha / "figures" / "line.png").stat().st_size > 0
    assert (alpha / "figures" / "line.pdf").exists()
    manifest = json.loads((alpha / "manifest.json").read_text())
    assert manifest["status"] == "complete"
    assert manifest["parameters"]["N"] == 4 and manifest["parameters"]["DATA_SIZE"] == "small"
    assert manifest["defaults"]["N"] == 3 and manifest["seeds"] == {"SEED": 2}
    assert manifest["git_commit"] and "numpy" in manifest["packages"]
    assert manifest["wall_time_s"] > 0 and "data_checksums" in manifest

    # the failing notebook: kept for inspection, not complete-looking, reported with its cell
    assert not (out / "01_beta").exists()
    failed = out / "01_beta.failed"
    assert (failed / "01_beta.ipynb").exists()
    fm = json.loads((failed / "manifest.json").read_text())
    assert fm["status"] == "failed" and fm["error"]["cell_index"] == 3
    assert fm["error"]["ename"] == "ValueError"

    # gamma ran after the failure, with the global SEED but the default N
    assert read_records(out / "02_gamma" / "records.json")["value"] == 3 * 1.5 + 2
    summary = json.loads((out / "summary.json").read_text())
    assert [n["status"] for n in summary["notebooks"]] == ["complete", "failed", "complete"]
    assert "01_beta" in (out / "summary.md").read_text()
    # output cells show results, not logs: the log and the warnings are in workbench.log and
    # the warning that matters is summarised once
    log = (alpha / "workbench.log").read_text()
    assert "INFO workbench.demo: an info line for the log only" in log
    assert (
        log.count("RuntimeWarning: values were clipped") == 2
        and "DeprecationWarning: old API" in log
    )
    cells = json.loads((alpha / "00_alpha.ipynb").read_text())["cells"]
    stderr = "".join("".join(o["text"]) for c in cells for o in c.get("outputs", [])
                     if o.get("name") == "stderr")  # fmt: skip
    assert stderr.splitlines()[0] == "\u26a0 RuntimeWarning: values were clipped"
    assert stderr.count("values were clipped") == 1 and "workbench.log" in stderr
    assert "old API" not in stderr and "info line" not in stderr
    # written under the umask 022 set below: readable by the other users of a shared machine
    for folder in (out, alpha, alpha / "tables", alpha / "figures", failed):
        assert stat.S_IMODE(folder.stat().st_mode) == 0o755, folder
    for f in (alpha / "records.json", alpha / "manifest.json", alpha / "00_alpha.ipynb",
              alpha / "workbench.log",
              alpha / "tables" / "numbers.csv", alpha / "figures" / "line.png",
              out / "summary.json", out / "summary.md"):  # fmt: skip
        assert stat.S_IMODE(f.stat().st_mode) == 0o644, f


@pytest.fixture(autouse=True)
def _umask_022():
    """Every runner test runs under umask 022 (restored afterwards)."""
    old = os.umask(0o022)
    yield
    os.umask(old)


@pytest.mark.parametrize(("umask", "dir_mode", "file_mode"),
                         [(0o022, 0o755, 0o644), (0o027, 0o750, 0o640), (0o077, 0o700, 0o600)])  # fmt: skip
def test_result_modes_follow_the_umask(nbdir, monkeypatch, umask, dir_mode, file_mode):
    """Result folders and files get ``0o777 & ~umask`` / ``0o666 & ~umask`` (not the 0700 of
    mkdtemp or the 0600 of mkstemp)."""
    monkeypatch.setattr(_execution, "_execute", fake_execute)
    os.umask(umask)
    out = nbdir.parent / "results"
    run(nbdir, ["alpha"], size="small")
    assert stat.S_IMODE((out / "00_alpha").stat().st_mode) == dir_mode
    for f in (out / "00_alpha" / "manifest.json", out / "summary.json", out / "summary.md"):
        assert stat.S_IMODE(f.stat().st_mode) == file_mode, f


def test_progress_lines_in_completion_order_with_parallel_jobs(nbdir, monkeypatch):
    import time as _time

    def slow_alpha(path, output_notebook, parameters, **kw):
        if path.stem == "00_alpha":
            _time.sleep(1.0)
        return fake_execute(path, output_notebook, parameters, **kw)

    monkeypatch.setattr(_execution, "_execute", slow_alpha)
    seen = []
    report = run(nbdir, ["alpha", "gamma"], size="small", jobs=2,
                 on_result=lambda r, i, n: seen.append(runner.progress_line(r, i, n)))  # fmt: skip
    assert [r.name for r in report.results] == ["00_alpha", "02_gamma"]  # plan order
    assert [line.split()[:2] for line in seen] == [["[1/2]", "02_gamma"], ["[2/2]", "00_alpha"]]
    assert report.elapsed >= 1.0


def test_progress_line_format():
    ok = runner.NotebookResult("03_mvlsa", "complete", Path("x"), wall_time=187.4)
    assert (
        runner.progress_line(ok, 3, 10) == "[ 3/10] 03_mvlsa                 3 min 07 s  complete"
    )
    fail = runner.NotebookFailure(4, 5, "ValueError", "boom")
    bad = runner.NotebookResult("01_beta", "failed", Path("x"), wall_time=2.25, failure=fail)
    assert runner.progress_line(bad, 1, 2).endswith(
        "2.2 s  failed -- cell 4 (In [5]): ValueError: boom"
    )
    assert runner._duration(3725) == "1 h 02 min"


def fake_execute(path, output_notebook, parameters, **kw):
    """Stands in for papermill: writes the executed copy and the records, no kernel."""
    output_notebook.write_text("{}")
    value = parameters["N"] * parameters["SCALE"] + parameters["SEED"]
    (output_notebook.parent / "records.json").write_text(json.dumps({"value": value}))


def test_failure_details_in_report(nbdir, monkeypatch):
    from papermill.exceptions import PapermillExecutionError

    def failing(path, output_notebook, parameters, **kw):
        output_notebook.write_text("{}")
        # papermill counts the injected-parameters cell (after source cell 1): 4 -> source cell 3
        raise PapermillExecutionError(
            cell_index=4,
            exec_count=3,
            source="raise ValueError('boom')",
            ename="ValueError",
            evalue="boom",
            traceback=["\x1b[0;31mValueError\x1b[0m Traceback", "ValueError: boom"],
        )

    monkeypatch.setattr(_execution, "_execute", failing)
    report = run(nbdir, ["beta", "gamma"], size="small")
    assert report.exit_code == 1 and not report.ok
    assert [r.name for r in report.failed] == ["01_beta", "02_gamma"]  # every one is attempted
    res = report["01_beta"]
    assert res.failure is not None
    assert res.failure.cell_index == 3 and res.failure.execution_count == 3
    assert res.failure.ename == "ValueError" and res.failure.evalue == "boom"
    assert "\x1b" not in res.failure.traceback  # colour codes stripped
    assert "cell 3 (In [3]): ValueError: boom" in res.failure.describe()
    assert "raise ValueError('boom')" in res.failure.describe()
    assert "cell 3" in report.summary_table()


def test_skip_unless_force_or_parameters_change(nbdir, monkeypatch):
    calls = []

    def counting(path, *args, **kw):
        calls.append(path.stem)
        return fake_execute(path, *args, **kw)

    monkeypatch.setattr(_execution, "_execute", counting)
    first = run(nbdir, ["alpha"], size="small")
    assert first["00_alpha"].status == "complete" and calls == ["00_alpha"]
    second = run(nbdir, ["alpha"], size="small")
    assert second["00_alpha"].status == "skipped" and len(calls) == 1
    assert second.exit_code == 0
    assert second["00_alpha"].records["value"] == 4.5
    run(nbdir, ["alpha"], size="small", force=True)
    assert len(calls) == 2
    run(nbdir, ["alpha"], size="small", parameters={"N": 1})  # different parameters
    assert len(calls) == 3
    assert run(nbdir, ["alpha"], size="small", parameters={"N": 1})["00_alpha"].status == "skipped"
    run(nbdir, ["alpha"], size="full", parameters={"N": 1})  # different size
    assert len(calls) == 4
    # an edited notebook is stale too
    path = nbdir / "00_alpha.ipynb"
    path.write_text(path.read_text().replace("# 00_alpha", "# 00_alpha, edited"))
    run(nbdir, ["alpha"], size="full", parameters={"N": 1})
    assert len(calls) == 5


def test_interrupted_run_leaves_nothing_complete(nbdir, monkeypatch):
    out = nbdir.parent / "results"
    monkeypatch.setattr(_execution, "_execute", fake_execute)
    assert run(nbdir, ["gamma"], size="small").ok
    before = (out / "02_gamma" / "manifest.json").read_text()

    def interrupted(path, output_notebook, parameters, **kw):
        # half-written outputs, then the user hits Ctrl-C
        output_notebook.write_text("{partial")
        (output_notebook.parent / "records.json").write_text('{"value": 1}')
        raise KeyboardInterrupt

    monkeypatch.setattr(_execution, "_execute", interrupted)
    with pytest.raises(KeyboardInterrupt):
        run(nbdir, ["alpha", "gamma"], size="small", force=True)
    assert not (out / "00_alpha").exists()
    assert not list(out.glob(".*partial*"))
    # the earlier complete result is untouched
    assert (out / "02_gamma" / "manifest.json").read_text() == before
    assert read_records(out / "02_gamma" / "records.json")["value"] == 4.5


def test_cli_list(nbdir, capsys):
    out = nbdir.parent / "results"
    assert cli.main(["list", "--notebooks-dir", str(nbdir), "--out", str(out)]) == 0
    text = capsys.readouterr().out
    assert "00_alpha" in text and "SCALE=1.5" in text and "not run" in text


def test_stale_partial_of_killed_run_is_removed(nbdir, monkeypatch):
    out = nbdir.parent / "results"
    out.mkdir()
    dead = out / ".00_alpha.partial-999999999-abcd"  # no such pid: a killed run
    dead.mkdir()
    (dead / "records.json").write_text("{}")
    alive = out / f".00_alpha.partial-{os.getpid()}-efgh"  # a live run: left alone
    alive.mkdir()
    for folder in (dead, alive):  # both made by the runner: they carry its owner marker
        runner.mark_owned(folder)
    monkeypatch.setattr(_execution, "_execute", fake_execute)
    run(nbdir, ["alpha"], size="small")
    assert not dead.exists() and alive.exists()
    # the summary also lists earlier results in the folder
    run(nbdir, ["gamma"], size="small")
    summary = json.loads((out / "summary.json").read_text())
    assert [e["notebook"] for e in summary["earlier_results"]] == ["00_alpha"]


def test_record_helpers_reexported():
    from workbench import records

    assert runner.record is records.record and runner.read_records is records.read_records


def test_repo_root_and_default_notebooks_dir(monkeypatch):
    """The defaults point at this repository (the package layout may move files around)."""
    monkeypatch.delenv("WORKBENCH_NOTEBOOKS", raising=False)
    root = runner.repo_root()
    assert (root / "workbench" / "__init__.py").is_file()
    assert runner.default_notebooks_dir() == root / "notebooks"
    assert [p.stem for p in runner.list_notebooks()][:2] == ["00_tour", "01_significance"]


def test_large_size_only_for_the_mvlsa_notebooks_and_with_the_shared_corpus(tmp_path, monkeypatch):
    from workbench.runner import RunnerUsageError, validate_parameters

    nb = Path(__file__).resolve().parents[1] / "notebooks"
    with pytest.raises(RunnerUsageError, match="00_tour has no 'large' size"):
        validate_parameters(nb / "00_tour.ipynb", size="large")
    monkeypatch.setenv("WORKBENCH_SHARED_DATA", str(tmp_path))
    with pytest.raises(RunnerUsageError, match="WORKBENCH_SHARED_DATA"):
        validate_parameters(nb / "03_mvlsa.ipynb", size="large")
    corpus = tmp_path / "corpus" / "gutenberg_en_25M.txt.gz"
    corpus.parent.mkdir()
    corpus.write_bytes(b"")
    large = validate_parameters(nb / "03_mvlsa.ipynb", size="large")
    assert (large["DATA_SIZE"], large["SEEDS"]) == ("large", 2)  # at least two seeds


def test_batch_values_per_size(tmp_path):
    """A batch run passes INTERACTIVE=False and the size's number of seeds; -p values win; a
    notebook that does not declare SEEDS is not given it."""
    path = make_notebook(
        tmp_path,
        "00_seeded",
        params='DATA_SIZE = "small"\nINTERACTIVE = True\nSEED = 0\nSEEDS = 1\n',
    )
    full = runner.validate_parameters(path, size="full")
    assert (full["INTERACTIVE"], full["SEEDS"]) == (False, 3)
    assert runner.validate_parameters(path, size="small")["SEEDS"] == 1
    assert runner.validate_parameters(path, {"SEEDS": 5}, size="full")["SEEDS"] == 5
    assert runner.validate_parameters(path, {"INTERACTIVE": True}, size="full")["INTERACTIVE"]
    plain = make_notebook(
        tmp_path, "01_plain", params='DATA_SIZE = "full"\nINTERACTIVE = True\nSEED = 0\n'
    )
    assert "SEEDS" not in runner.validate_parameters(plain, size="full")


def test_parallel_jobs_respect_dependencies(tmp_path):
    """With two jobs, 03_mvlsa starts only after 02_views finished and 04_ablation after 03;
    an independent notebook runs next to them; every result is complete and in plan order."""
    import time as _time

    body = (
        "import time\nfrom workbench.records import record\n"
        "record('start', time.time())\ntime.sleep(1.5)\nrecord('end', time.time())\n"
    )
    names = ["02_views", "03_mvlsa", "04_ablation", "06_other"]
    for name in names:
        nb = nbformat.v4.new_notebook()
        nb.metadata["kernelspec"] = {
            "name": "python3",
            "display_name": "Python 3",
            "language": "python",
        }
        cell = nbformat.v4.new_code_cell('DATA_SIZE = "full"\nINTERACTIVE = False\nSEED = 0\n')
        cell.metadata["tags"] = ["parameters"]
        nb.cells = [cell, nbformat.v4.new_code_cell(body)]
        nbformat.write(nb, tmp_path / f"{name}.ipynb")
    t0 = _time.time()
    report = runner.run_notebooks(None, size="full", out=tmp_path / "out", notebooks_dir=tmp_path,
                                  progress=False, jobs=2)  # fmt: skip
    assert [r.name for r in report.results] == names
    assert report.ok, [r.failure for r in report.results]
    rec = {n: read_records(tmp_path / "out" / n / "records.json") for n in names}
    assert rec["03_mvlsa"]["start"] >= rec["02_views"]["end"]
    assert rec["04_ablation"]["start"] >= rec["03_mvlsa"]["end"]
    # the independent notebook overlapped with the chain
    spans = [(rec[n]["start"], rec[n]["end"]) for n in names if n != "06_other"]
    other = rec["06_other"]
    assert any(s < other["end"] and other["start"] < e for s, e in spans)
    assert all(r["start"] >= t0 for r in rec.values())


def test_jobs_must_be_positive(tmp_path):
    make_notebook(tmp_path, "00_alpha")
    with pytest.raises(runner.RunnerUsageError, match="jobs"):
        runner.run_notebooks(None, out=tmp_path / "o", notebooks_dir=tmp_path, jobs=0)
    with pytest.raises(SystemExit):
        cli.main(
            ["run", "--jobs", "0", "--notebooks-dir", str(tmp_path), "--out", str(tmp_path / "o")]
        )


def test_a_second_run_into_the_same_folder_waits(tmp_path, caplog):
    """Two runs never interleave in one results folder: the second waits for the lock (and
    says so)."""
    import threading
    import time as _time

    order = []

    def second():
        with runner._locked(tmp_path):
            order.append("second")

    with caplog.at_level("WARNING", logger="workbench.runner"):
        with runner._locked(tmp_path):
            th = threading.Thread(target=second)
            th.start()
            _time.sleep(0.5)
            order.append("first done")
        th.join(10)
    assert order == ["first done", "second"]
    assert "waiting" in caplog.text


@pytest.mark.parametrize(("exchange", "step"), [(True, 0), (True, 1), (True, 2),
                                                (False, 0), (False, 1), (False, 2), (False, 3)])  # fmt: skip
def test_publish_killed_at_each_step_leaves_a_complete_result(
    tmp_path, monkeypatch, exchange, step
):
    """A run killed at any step of publishing its folder leaves, once the next run has cleaned
    up, exactly one complete result folder (the old or the new one) and no leftover."""
    import shutil

    final = tmp_path / "00_alpha"
    final.mkdir()
    (final / "v").write_text("old")
    src = tmp_path / ".00_alpha.partial-999999999-x"  # the dead run's partial folder
    src.mkdir()
    (src / "v").write_text("new")
    for folder in (final, src):  # both made by the runner: they carry its owner marker
        runner.mark_owned(folder)
    count = {"n": 0}

    def kill_at_step(fn):
        def wrapped(*args, **kwargs):
            if count["n"] == step:
                raise KeyboardInterrupt
            count["n"] += 1
            return fn(*args, **kwargs)

        return wrapped

    real_exchange = _execution._exchange
    monkeypatch.setattr(
        _execution, "_exchange", kill_at_step(real_exchange) if exchange else (lambda a, b: False)
    )
    monkeypatch.setattr(runner.os, "replace", kill_at_step(os.replace))
    monkeypatch.setattr(_execution.shutil, "rmtree", kill_at_step(shutil.rmtree))
    monkeypatch.setattr(runner.os, "getpid", lambda: 999999999)
    killed = True
    try:
        runner._replace_dir(src, final)
        killed = False
    except KeyboardInterrupt:
        pass
    monkeypatch.undo()
    assert killed == (step < (2 if exchange else 3))
    runner._remove_stale_partials(tmp_path)
    assert [p.name for p in tmp_path.iterdir()] == ["00_alpha"]
    assert (final / "v").read_text() in {"old", "new"}
    if not killed:
        assert (final / "v").read_text() == "new"


def test_unwritable_out_is_a_usage_error(tmp_path, capsys):
    make_notebook(tmp_path, "00_alpha")
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(runner.RunnerUsageError, match="cannot be created or written"):
        runner.run_notebooks(None, out=blocker / "sub", notebooks_dir=tmp_path)
    code = cli.main(["run", "--notebooks-dir", str(tmp_path), "--out", str(blocker)])
    assert code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "cannot be created or written" in err[0]


# ------------------------------------------------------------------ the estimate of the time left


def test_estimate_simulates_the_schedule_with_dependencies():
    from workbench.runner._estimate import estimate_left

    times = {"a": 100.0, "b": 40.0, "c": 50.0, "d": 10.0}
    one = estimate_left(["a", "b", "c", "d"], times, jobs=1, depends_on={})
    assert one.seconds == 200.0 and one.unknown == ()
    # two workers: a | b then c (c waits for b) then d -> max(100, 40 + 50 + 10)
    two = estimate_left(["a", "b", "c", "d"], times, jobs=2, depends_on={"c": ["b"]})
    assert two.seconds == 100.0
    # c depends on a: it cannot start before 100 although a worker is free at 40
    dep = estimate_left(["a", "b", "c"], times, jobs=2, depends_on={"c": ["a"]})
    assert dep.seconds == 150.0
    # a running notebook is credited with the time it has run; unknown ones are named
    run = estimate_left(["x"], times, jobs=1, depends_on={}, running={"a": 70.0})
    assert run.seconds == 30.0 and run.unknown == ("x",)
    assert estimate_left(["x"], times, jobs=1, depends_on={}).describe() == (
        "time left unknown: x not timed before in this folder")
    assert "x not timed before" in run.describe() and run.describe().startswith("about 30 s")
    assert (
        estimate_left(["a", "b"], times, jobs=1, depends_on={})
        .describe()
        .startswith("about 2 min left")
    )


def test_a_run_reports_the_time_left_from_the_last_runs_times(nbdir, monkeypatch):
    monkeypatch.setattr(_execution, "_execute", fake_execute)
    first = []
    run(nbdir, ["alpha", "gamma"], size="small", on_estimate=first.append)
    # never run in this folder: nothing to estimate from, both named
    assert [e.unknown for e in first] == [("00_alpha", "02_gamma"), ("02_gamma",)]
    out = nbdir.parent / "results"
    for name, wall in (("00_alpha", 120.0), ("02_gamma", 30.0)):
        manifest = json.loads((out / name / "manifest.json").read_text())
        manifest["wall_time_s"] = wall
        (out / name / "manifest.json").write_text(json.dumps(manifest))
    seen = []
    run(nbdir, ["alpha", "gamma"], size="small", force=True, on_estimate=seen.append)
    assert seen[0].unknown == () and seen[0].seconds == 150.0
    assert len(seen) == 2 and seen[1].seconds <= 30.0  # after alpha: gamma's time is left
    # times of another size are not used
    other = []
    run(nbdir, ["alpha"], size="full", force=True, on_estimate=other.append)
    assert other[0].unknown == ("00_alpha",)
