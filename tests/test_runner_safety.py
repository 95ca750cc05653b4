"""Hostile inputs to the notebook runner on a shared machine: no parameter becomes code,
nothing the user owns is moved or deleted, "complete" means complete, failures are reported
(one line naming the path) and the other notebooks still run."""

from __future__ import annotations

import errno
import json
import os
from pathlib import Path

import nbformat
import pytest

from workbench import cli, runner
from workbench.runner import _execution, _publish, _schedule

PARAMS = 'DATA_SIZE = "full"\nINTERACTIVE = False\nSEED = 0\nN = 3\nLABEL = "x"\n'


def make_notebook(folder: Path, name: str, *, params: str = PARAMS, body: str = "") -> Path:
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                 "language": "python"}  # fmt: skip
    cell = nbformat.v4.new_code_cell(params)
    cell.metadata["tags"] = ["parameters"]
    nb.cells = [cell, nbformat.v4.new_code_cell(body or "pass")]
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.ipynb"
    nbformat.write(nb, path)
    return path


def fake_execute(path, output_notebook, parameters, **kw):
    """Stands in for papermill: the executed copy and the records, no kernel."""
    output_notebook.write_text("{}")
    (output_notebook.parent / "records.json").write_text(json.dumps({"n": parameters["N"]}))


@pytest.fixture
def nbdir(tmp_path, monkeypatch):
    folder = tmp_path / "notebooks"
    make_notebook(folder, "00_alpha")
    make_notebook(folder, "01_gamma")
    monkeypatch.setattr(_execution, "_execute", fake_execute)
    return folder


def run(nbdir, names, **kw):
    kw.setdefault("out", nbdir.parent / "results")
    return runner.run_notebooks(names, notebooks_dir=nbdir, progress=False, **kw)


def snapshot(folder: Path) -> dict[str, bytes | str]:
    """Every entry under ``folder`` (hidden ones too): file contents, ``dir`` or link target."""
    out: dict[str, bytes | str] = {}
    for p in sorted(folder.rglob("*")):
        key = str(p.relative_to(folder))
        out[key] = (f"-> {os.readlink(p)}" if p.is_symlink() else "dir" if p.is_dir()
                    else p.read_bytes() if p.is_file() else "special")  # fmt: skip
    return out


# ---------------------------------------------------------------- 1. parameters never become code

PAYLOADS = [
    'a"b',
    "a'b",
    "'''",
    '"""',
    "back\\slash\\",
    'end\\"',
    "new\nline\r\t",
    '"}); import os; os.system("touch PWNED"); x = ({"',
    "'); import os; os.system('touch PWNED'); ('",
    "{braces} {0} {{x}}",
    "nul\x00byte",
    "\u00e9\u4e2d\U0001f600",
]


def test_injection_payloads_arrive_unchanged_and_nothing_runs(tmp_path):
    """Every payload, as a str, inside a list, as a dict value and as a dict key (next to the
    other accepted types) reaches a real kernel unchanged; none of them runs."""
    body = ("import json, os\n"
            "json.dump({'S': S, 'L': L, 'D': D, 'K': K, 'O': O},\n"
            "          open(os.path.join(os.environ['WORKBENCH_OUTPUT_DIR'], 'got.json'), 'w'))\n"
            "from workbench.records import record\nrecord('ok', True)\n")  # fmt: skip
    params = PARAMS + 'S = ""\nL = []\nD = {}\nK = {}\nO = None\n'
    folder = tmp_path / "nb"
    make_notebook(folder, "00_echo", params=params, body=body)
    given = {
        "S": PAYLOADS[7],
        "L": [*PAYLOADS, 1, -2.5, True, None, [PAYLOADS[0]], {"k": PAYLOADS[1]}],
        "D": {f"v{i}": p for i, p in enumerate(PAYLOADS)} | {"n": None, "f": 0.1, "b": False},
        "K": {p: i for i, p in enumerate(PAYLOADS)},
        "O": {"nested": [{"deep": [PAYLOADS[8], 10**30]}]},
    }
    report = runner.run_notebooks(["00_echo"], parameters=given, size="small",
                                  out=tmp_path / "out", notebooks_dir=folder, progress=False)  # fmt: skip
    assert report.ok, report.results[0].failure
    got = json.loads((tmp_path / "out" / "00_echo" / "got.json").read_text())
    assert got == given
    assert not list(tmp_path.rglob("PWNED")) and not (folder / "PWNED").exists()


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        ((1, 2), "type tuple"),
        ({"k": (1, 2)}, "type tuple"),
        ([1, {2}], "type set"),
        (b"bytes", "type bytes"),
        (1 + 2j, "type complex"),
        ({1: "a"}, "dict key 1 is of type int"),
        ({1: "a", "b": 2}, "dict key 1 is of type int"),
        (float("nan"), "NaN and infinity"),
        ([float("inf")], "NaN and infinity"),
        ("bad \udcff byte", "not valid Unicode"),
        ({"\udc80": 1}, "not valid Unicode"),
        (Path("x"), "type PosixPath"),
    ],
)
def test_unpassable_value_is_refused_before_anything_runs(nbdir, value, shown):
    with pytest.raises(runner.RunnerUsageError) as info:
        run(nbdir, ["alpha"], parameters={"LABEL": value})
    assert "parameter LABEL" in str(info.value) and shown in str(info.value)
    assert "allowed" in str(info.value) or "Unicode" in str(info.value)
    assert not (nbdir.parent / "results").exists()  # nothing ran


def test_self_referencing_and_deep_values_are_refused(nbdir):
    loop: list = []
    loop.append(loop)
    deep: list = []
    for _ in range(30):
        deep = [deep]
    for value in (loop, deep):
        with pytest.raises(runner.RunnerUsageError, match="parameter LABEL .*nested deeper"):
            run(nbdir, ["alpha"], parameters={"LABEL": value})


@pytest.mark.parametrize(
    ("param", "message"),
    [
        ("LABEL=(1, 2)", "parameter LABEL: a value of type tuple"),
        ("LABEL={1: 'a'}", "dict key 1 is of type int"),
        ("LABEL=b'x'", "type bytes"),
        ("LABEL=\udcff\udcfe", "not valid Unicode"),  # non-UTF-8 bytes of argv
    ],
)
def test_cli_unpassable_value_exits_2(nbdir, capsys, param, message):
    out = nbdir.parent / "results"
    code = cli.main(["run", "alpha", "-p", param, "--notebooks-dir", str(nbdir), "--out", str(out)])
    assert code == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1
    assert not out.exists()


def test_an_injected_cell_that_differs_is_never_executed(tmp_path, monkeypatch):
    """Should papermill's cell ever differ from the values given, the notebook is not run."""
    path = make_notebook(tmp_path, "00_alpha")
    real = _execution.parameterize_notebook

    def tampered(nb, parameters, *a, **kw):
        nb = real(nb, parameters, *a, **kw)
        for cell in nb.cells:
            if "injected-parameters" in cell.metadata.get("tags", []):
                cell.source += '\nimport os; os.system("touch PWNED")'
        return nb

    executed = []
    monkeypatch.setattr(_execution, "parameterize_notebook", tampered)
    monkeypatch.setattr(_execution.pm, "execute_notebook", lambda *a, **k: executed.append(a))
    with pytest.raises(runner.RunnerUsageError, match="00_alpha: injected parameters cell, "
                                                      r"line \d+: not a `NAME = literal`"):  # fmt: skip
        _execution._execute(path, tmp_path / "o.ipynb", {"N": 1, "LABEL": "y"}, cwd=tmp_path,
                        kernel_name="python3", progress=False)  # fmt: skip
    assert not executed


@pytest.mark.parametrize(
    ("source", "given", "message"),
    [
        ('LABEL = "(1, 2)"\n', [1, 2], "parameter LABEL would arrive as '(1, 2)'"),
        ("LABEL = (1, 2)\n", [1, 2], "parameter LABEL would arrive as (1, 2)"),
        ('LABEL = {"1": "a"}\n', {"1": 1}, "parameter LABEL would arrive as {'1': 'a'}"),
        ("LABEL = 1\n", 1.0, "parameter LABEL would arrive as 1,"),
        ('LABEL = "x"; import os\n', "x", "not a `NAME = literal` assignment"),
        ('LABEL = __import__("os")\n', "x", "parameter LABEL is not given as a literal"),
        ('LABEL = "x"\nOTHER = 1\n', "x", "unexpected assignment to OTHER"),
        ('LABEL = "x\n', "x", "does not parse"),
    ],
)
def test_check_injected_cell(source, given, message):
    with pytest.raises(runner.RunnerUsageError, match="nb: injected parameters cell") as info:
        runner.check_injected_cell(source, {"LABEL": given}, "nb")
    assert message in str(info.value) and "refused to execute" in str(info.value)


def test_braces_in_paths_reach_papermill_unchanged(tmp_path):
    from papermill.parameterize import parameterize_path

    path = tmp_path / "res{LABEL}" / "{0}" / "00_alpha.ipynb"
    assert parameterize_path(runner._brace_escaped(path), {"LABEL": "x"}) == str(path)


# ---------------------------------------------------------------- 2. notebook references


def test_missing_path_is_not_resolved_by_name(nbdir, capsys):
    missing = "/missing/path/00_alpha.ipynb"
    with pytest.raises(runner.RunnerUsageError, match=f"notebook '{missing}' does not exist"):
        run(nbdir, [missing])
    out = nbdir.parent / "results"
    assert cli.main(["run", missing, "--notebooks-dir", str(nbdir), "--out", str(out)]) == 2
    assert missing in capsys.readouterr().err and not out.exists()


@pytest.mark.parametrize("name", ["..ipynb", "...ipynb", ".ipynb", "x.ipynb", "00_dir.ipynb"])
def test_badly_named_notebook_is_refused_and_results_untouched(tmp_path, capsys, name):
    """``..ipynb`` once made ``--out res/sub`` itself the target: now refused, res/sub intact."""
    make_notebook(tmp_path / "nb", "00_alpha")
    src = tmp_path / "nb" / name
    if name == "00_dir.ipynb":
        src.mkdir()
    else:
        src.write_bytes((tmp_path / "nb" / "00_alpha.ipynb").read_bytes())
    out = tmp_path / "res" / "sub"
    (out / "00_earlier").mkdir(parents=True)
    (out / "00_earlier" / "records.json").write_text('{"mine": 1}')
    before = snapshot(tmp_path / "res")
    code = cli.main(["run", str(src), "--out", str(out), "--no-progress"])
    err = capsys.readouterr().err
    assert code == 2 and str(src) in err
    assert ("NN_name.ipynb" in err) if name != "00_dir.ipynb" else ("not a regular file" in err)
    assert snapshot(tmp_path / "res") == before


def test_symlinked_notebook_is_named_after_the_link(nbdir, tmp_path):
    target = tmp_path / "elsewhere" / "..ipynb"
    target.parent.mkdir()
    target.write_bytes((nbdir / "00_alpha.ipynb").read_bytes())
    link = tmp_path / "links" / "05_link.ipynb"
    link.parent.mkdir()
    link.symlink_to(target)
    assert [p.name for p in runner.resolve_notebooks([str(link)])] == ["05_link.ipynb"]
    report = run(nbdir, [str(link)])
    assert report.ok and (tmp_path / "results" / "05_link" / "manifest.json").exists()


def test_two_notebooks_of_the_same_name_are_refused(nbdir, tmp_path):
    other = make_notebook(tmp_path / "copy", "00_alpha")
    with pytest.raises(runner.RunnerUsageError, match="two notebooks named 00_alpha"):
        run(nbdir, ["alpha", str(other)])


# ---------------------------------------------------------------- 2. what is in the way


def _block(path: Path, kind: str, tmp_path: Path) -> None:
    if kind == "file":
        path.write_text("my notes")
    elif kind == "folder":
        path.mkdir()
        (path / "mine.txt").write_text("my data")
    elif kind == "symlink":
        (tmp_path / "target").mkdir(exist_ok=True)
        (tmp_path / "target" / "keep.txt").write_text("keep")
        path.symlink_to(tmp_path / "target")
    else:
        os.mkfifo(path)


@pytest.mark.parametrize("where", ["00_alpha", "00_alpha.failed"])
@pytest.mark.parametrize("kind", ["file", "folder", "symlink", "fifo"])
def test_something_in_the_way_is_never_moved(nbdir, tmp_path, capsys, where, kind):
    out = tmp_path / "results"
    out.mkdir()
    _block(out / where, kind, tmp_path)
    before = snapshot(tmp_path)
    code = cli.main(["run", "--notebooks-dir", str(nbdir), "--out", str(out), "--no-progress"])
    captured = capsys.readouterr()
    assert code == 1
    line = next(x for x in captured.err.splitlines() if x.startswith("FAILED 00_alpha"))
    assert "a file is in the way" in line and str(out / where) in line
    assert "01_gamma" in captured.out and (out / "01_gamma" / "manifest.json").exists()
    after = snapshot(tmp_path)
    assert {k: v for k, v in after.items() if k in before} == before  # nothing moved or changed
    assert not [k for k in after if ".partial-" in k]


def test_a_users_partial_looking_folder_is_left_alone(nbdir, tmp_path):
    out = tmp_path / "results"
    mine = out / ".00_alpha.partial-999999999-old-mine"  # no such pid, but not the runner's
    mine.mkdir(parents=True)
    (mine / "data.txt").write_text("mine")
    assert run(nbdir, ["alpha"]).ok
    assert (mine / "data.txt").read_text() == "mine"


@pytest.mark.parametrize("name", ["summary.json", "summary.md"])
@pytest.mark.parametrize("kind", ["file", "folder"])
def test_summary_in_the_way_is_reported_and_kept(nbdir, tmp_path, capsys, name, kind):
    out = tmp_path / "results"
    out.mkdir()
    _block(out / name, kind, tmp_path)
    before = snapshot(out)
    code = cli.main(["run", "alpha", "--notebooks-dir", str(nbdir), "--out", str(out)])
    err = capsys.readouterr().err
    assert code == 1 and f"error: a file is in the way: {out / name}" in err
    assert (out / "00_alpha" / "manifest.json").exists()
    assert {k: v for k, v in snapshot(out).items() if k in before} == before


def test_disk_full_while_publishing_keeps_earlier_results(nbdir, tmp_path, capsys, monkeypatch):
    out = tmp_path / "results"
    assert run(nbdir, None).ok
    before = snapshot(out / "00_alpha")
    real = _execution.atomic_write_text

    def full(path, text):
        if Path(path).name == "manifest.json" and ".00_alpha." in str(path):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(path))
        return real(path, text)

    monkeypatch.setattr(_execution, "atomic_write_text", full)
    code = cli.main(["run", "--force", "--notebooks-dir", str(nbdir), "--out", str(out)])
    captured = capsys.readouterr()
    assert code == 1
    (line,) = [x for x in captured.err.splitlines() if x.startswith("FAILED 00_alpha")]
    assert "No space left on device" in line and "manifest.json" in line
    assert snapshot(out / "00_alpha") == before  # the earlier result is where it was
    assert "[2/2] 01_gamma" in captured.out and "complete" in captured.out  # others still ran
    assert json.loads((out / "summary.json").read_text())["notebooks"][0]["status"] == "failed"
    assert not list(out.glob(".*partial*"))


def test_permission_denied_while_publishing(nbdir, tmp_path, monkeypatch):
    out = tmp_path / "results"
    assert run(nbdir, ["alpha"]).ok
    before = snapshot(out)

    def denied(src, dst):
        raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), str(dst))

    monkeypatch.setattr(_execution, "_replace_dir", denied)
    report = run(nbdir, ["alpha", "gamma"], force=True)
    failure = report["00_alpha"].failure
    assert report.exit_code == 1 and failure is not None and failure.stage == "publishing"
    assert f"could not publish {out / '00_alpha'} ({out / '00_alpha'}): Permission denied" in (
        failure.describe()
    )
    assert report["01_gamma"].status == "failed"  # same denial, reported, not raised
    assert {k: v for k, v in snapshot(out).items() if k in before and "summary" not in k} == {
        k: v for k, v in before.items() if "summary" not in k
    }


def test_disk_full_writing_the_summary_exits_non_zero(nbdir, tmp_path, capsys, monkeypatch):
    def full(path, text):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(path))

    monkeypatch.setattr(_publish, "atomic_write_text", full)
    out = tmp_path / "results"
    code = cli.main(["run", "alpha", "--notebooks-dir", str(nbdir), "--out", str(out)])
    err = capsys.readouterr().err
    assert code == 1
    assert f"error: could not write {out / 'summary.json'}" in err and "No space left" in err
    assert (out / "00_alpha" / "manifest.json").exists()


# ---------------------------------------------------------------- 3. complete means complete


@pytest.mark.parametrize(
    ("damage", "problem"),
    [
        (lambda f: (f / "records.json").unlink(), "records.json is missing"),
        (lambda f: (f / "records.json").write_text("{oops"), "records.json has"),
        (lambda f: (f / "00_alpha.ipynb").write_text("{}\n"), "00_alpha.ipynb has 3 bytes"),
        (lambda f: (f / "00_alpha.ipynb").write_text("[]"), "00_alpha.ipynb was modified"),
        (lambda f: _drop_hashes(f), "manifest.json records no file hashes"),
    ],
)
def test_damaged_result_is_listed_and_rerun(nbdir, tmp_path, capsys, caplog, damage, problem):
    out = tmp_path / "results"
    assert run(nbdir, ["alpha"]).ok
    damage(out / "00_alpha")
    assert cli.main(["list", "--notebooks-dir", str(nbdir), "--out", str(out)]) == 0
    line = next(x for x in capsys.readouterr().out.splitlines() if x.startswith("00_alpha"))
    assert f"[damaged: {problem}" in line
    with caplog.at_level("WARNING", logger="workbench.runner"):
        report = run(nbdir, ["alpha"])
    assert report["00_alpha"].status == "complete"  # re-run, not skipped
    assert "00_alpha: the result in" in caplog.text and problem in caplog.text
    assert runner.result_status(out, "00_alpha") == "complete"


def _drop_hashes(folder: Path) -> None:
    manifest = json.loads((folder / "manifest.json").read_text())
    manifest["outputs"] = sorted(manifest["outputs"])
    (folder / "manifest.json").write_text(json.dumps(manifest))


def test_manifest_records_size_and_hash_of_every_output(nbdir, tmp_path):
    run(nbdir, ["alpha"])
    folder = tmp_path / "results" / "00_alpha"
    outputs = json.loads((folder / "manifest.json").read_text())["outputs"]
    assert set(outputs) == {"00_alpha.ipynb", "records.json"}
    assert outputs["records.json"]["size"] == (folder / "records.json").stat().st_size
    assert len(outputs["records.json"]["sha256"]) == 64


# ---------------------------------------------------------------- 4.-6. environment and folders


def test_relative_path_variables_reach_the_kernel_absolute(nbdir, tmp_path, monkeypatch):
    seen = {}

    def recording(path, output_notebook, parameters, **kw):
        seen.update({v: os.environ.get(v) for v in runner.PATH_ENV_VARS})
        return fake_execute(path, output_notebook, parameters, **kw)

    monkeypatch.setattr(_execution, "_execute", recording)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("WORKBENCH_CACHE", "cache")
    monkeypatch.setenv("WORKBENCH_DATA", "data/here")
    monkeypatch.setenv("WORKBENCH_SHARED_DATA", str(tmp_path / "abs"))
    run(nbdir, ["alpha"])
    assert seen["WORKBENCH_CACHE"] == str(tmp_path / "cache")
    assert seen["WORKBENCH_DATA"] == str(tmp_path / "data" / "here")
    assert seen["WORKBENCH_SHARED_DATA"] == str(tmp_path / "abs")
    assert os.environ["WORKBENCH_CACHE"] == "cache"  # the caller's environment is restored


def test_jobs_capped_at_notebooks_and_cores(nbdir, monkeypatch, caplog):
    sizes = []
    real = _schedule.ProcessPoolExecutor

    def pool(max_workers, **kw):
        sizes.append(max_workers)
        return real(max_workers=max_workers, **kw)

    monkeypatch.setattr(_schedule, "ProcessPoolExecutor", pool)
    monkeypatch.setattr(runner.os, "cpu_count", lambda: 8)
    with caplog.at_level("INFO", logger="workbench.runner"):
        report = run(nbdir, None, jobs=100)
    assert report.ok and sizes == [2]
    assert "--jobs 100 capped at 2" in caplog.text


@pytest.mark.parametrize("where", ["notebooks", "root", "home"])
def test_out_that_is_a_users_folder_is_refused(nbdir, tmp_path, monkeypatch, where):
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    (tmp_path / "home").mkdir()
    out = {"notebooks": nbdir, "root": Path("/"), "home": tmp_path / "home"}[where]
    before = snapshot(nbdir)
    with pytest.raises(runner.RunnerUsageError, match=f"results folder '{out}'.* is "):
        run(nbdir, ["alpha"], out=out)
    assert snapshot(nbdir) == before


def test_lock_file_that_is_a_fifo_or_symlink(nbdir, tmp_path, capsys):
    out = tmp_path / "results"
    out.mkdir()
    os.mkfifo(out / runner.LOCK_FILE)
    code = cli.main(["run", "alpha", "--notebooks-dir", str(nbdir), "--out", str(out)])
    assert code == 2 and f"lock file {out / runner.LOCK_FILE}" in capsys.readouterr().err
    (out / runner.LOCK_FILE).unlink()
    (out / runner.LOCK_FILE).symlink_to(tmp_path / "elsewhere")
    with pytest.raises(runner.RunnerUsageError, match="lock file .* symlink"):
        run(nbdir, ["alpha"])
    assert not (tmp_path / "elsewhere").exists()


# ---------------------------------------------------------------- 5. the Dask dashboard


def test_local_cluster_listens_on_localhost_only():
    distributed = pytest.importorskip("distributed")
    import inspect
    from urllib.parse import urlparse

    from workbench.cluster import dask_client

    default = inspect.signature(dask_client).parameters["dashboard_address"].default
    assert urlparse(f"//{default}").hostname == "127.0.0.1"  # the default: this machine only
    # the default's host on a free port (a fixed port may be taken by a parallel test)
    client = dask_client("dask", n_workers=1, dashboard_address="127.0.0.1:0")
    try:
        assert isinstance(client, distributed.Client)
        assert urlparse(client.dashboard_link).hostname == "127.0.0.1"
        assert urlparse(client.scheduler.address).hostname == "127.0.0.1"
        server = client.cluster.scheduler.http_server
        hosts = {s.getsockname()[0] for s in server._sockets.values()}
        assert hosts == {"127.0.0.1"}
    finally:
        cluster = client.cluster
        client.close()
        cluster.close()
    with pytest.raises(TypeError, match="dashboard_address must be an address string"):
        dask_client("dask", dashboard_address="")
