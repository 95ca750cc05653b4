"""Project-level checks: dependency lists agree, set-up files exist, notebooks follow the conventions."""

from __future__ import annotations

import ast
import os
import re
import tomllib
from pathlib import Path

import nbformat
import papermill
import pytest
import yaml
from packaging.requirements import Requirement

from workbench.runner import REQUIRED_PARAMETERS, list_notebooks, notebook_parameters

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = list_notebooks(ROOT / "notebooks")


def _norm(req: str) -> tuple[str, str, str]:
    r = Requirement(req)
    name = re.sub(r"[-_.]+", "-", r.name).lower()
    return name, ",".join(sorted(str(s) for s in r.specifier)), ",".join(sorted(r.extras))


def test_environment_yml_matches_pyproject():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    expected = {_norm(r) for r in project["dependencies"]}
    for reqs in project["optional-dependencies"].values():
        expected |= {_norm(r) for r in reqs}
    assert "dev" in project["optional-dependencies"]

    env = yaml.safe_load((ROOT / "environment.yml").read_text())
    conda, pip = [], []
    for dep in env["dependencies"]:
        if isinstance(dep, dict):
            pip += [d for d in dep["pip"] if not d.startswith("-")]  # skip "-e ."
        else:
            conda.append(dep)
    assert "python=3.11" in conda and "pip" in conda
    listed = [_norm(d) for d in pip] + [
        _norm(re.sub(r"^([A-Za-z0-9_.\-\[\]]+)=", r"\1==", d))
        for d in conda
        if not d.startswith(("python", "pip"))
    ]
    assert len(listed) == len(set(listed)), "environment.yml lists a package twice"
    assert set(listed) == expected, (
        f"only in pyproject: {sorted(expected - set(listed))}; "
        f"only in environment.yml: {sorted(set(listed) - expected)}"
    )
    assert project["requires-python"] == ">=3.11"


def test_two_command_setup_files():
    makefile = (ROOT / "Makefile").read_text()
    for target in ("run", "test", "lab", "bench", "clean"):
        assert re.search(rf"^{target}:", makefile, re.M), f"Makefile lacks target {target}"
    assert "python -m workbench run --size full --out results/" in makefile.replace(
        "$(SIZE)", "full"
    ).replace("$(OUT)", "results/").replace("$(BIN)/", "")
    ci = ROOT / ".ci" / "run"
    assert os.access(ci, os.X_OK)
    lines = [
        ln.strip() for ln in ci.read_text().splitlines() if ln.strip() and not ln.startswith("#")
    ]
    assert lines[0] == "set -euo pipefail" and lines[-1] == "make test"
    readme = (ROOT / "README.md").read_text()
    quick = readme.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    block = re.search(r"```(?:bash|sh)?\n(.*?)```", quick, re.S)
    assert block is not None, "README quick start needs a code block"
    commands = [ln for ln in block.group(1).splitlines() if ln.strip() and not ln.startswith("#")]
    assert commands == ["make run", "make test"]


def test_readme_says_where_hand_run_outputs_land():
    """A notebook run by hand writes to results/interactive/ of the checkout (workbench.records
    .output_dir), not under notebooks/."""
    readme = (ROOT / "README.md").read_text()
    para = readme[readme.index("To work interactively"):].split("\n\n", 1)[0]
    assert "`results/interactive/`" in para and "workbench.log" in para
    assert "below the notebook's working" not in readme


@pytest.mark.parametrize(("uid", "allowed"), [("0", True), ("1000", False)])
def test_make_lab_allows_root_only_for_root(tmp_path, uid, allowed):
    """Jupyter refuses to run as root without --allow-root; other users must not get it."""
    import shutil
    import subprocess

    if shutil.which("make") is None:
        pytest.skip("make is not installed")
    fake = tmp_path / "bin"
    fake.mkdir()
    (fake / "id").write_text(f"#!/bin/sh\necho {uid}\n")
    (fake / "id").chmod(0o755)
    env = {**os.environ, "PATH": f"{fake}{os.pathsep}{os.environ['PATH']}"}
    res = subprocess.run(["make", "-n", "-o", ".venv/.workbench-installed", "lab"], cwd=ROOT, env=env,
                         capture_output=True, text=True, check=True)  # fmt: skip
    (line,) = [ln for ln in res.stdout.splitlines() if "jupyter lab notebooks/" in ln]
    assert line.rstrip().endswith("--allow-root") == allowed


def test_notebook_names_and_tests_exist():
    assert NOTEBOOKS and NOTEBOOKS[0].stem == "00_tour"
    numbers = [p.stem[:2] for p in NOTEBOOKS]
    assert len(numbers) == len(set(numbers)), f"duplicate notebook numbers: {numbers}"
    stray = [
        p.name
        for p in (ROOT / "notebooks").glob("*.ipynb")
        if p not in NOTEBOOKS and not p.name.startswith(".")
    ]
    assert not stray, f"notebooks not named NN_name.ipynb (the runner ignores them): {stray}"


def _code_cells(nb):
    return [c for c in nb.cells if c.cell_type == "code"]


def _parse(source: str, where: str) -> ast.Module:
    # IPython magics / shell escapes are not Python
    lines = ["" if ln.lstrip().startswith(("%", "!")) else ln for ln in source.splitlines()]
    try:
        return ast.parse("\n".join(lines))
    except SyntaxError as exc:  # pragma: no cover - reported as a failure
        pytest.fail(f"{where}: syntax error line {exc.lineno}: {exc.msg}")


ABSOLUTE = re.compile(r"^(?:/|~/|[A-Za-z]:[\\/])[A-Za-z0-9_.]")


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_notebook_conventions(path):
    nb = nbformat.read(path, as_version=nbformat.NO_CONVERT)
    nbformat.validate(nb)
    assert nb.nbformat == 4
    assert nb.metadata.get("kernelspec", {}).get("name") == "python3", "kernel must be python3"
    assert nb.cells[0].cell_type == "markdown", "first cell: markdown stating the purpose"

    tagged = [c for c in nb.cells if "parameters" in c.get("metadata", {}).get("tags", [])]
    assert len(tagged) == 1 and tagged[0].cell_type == "code", "exactly one parameters code cell"
    params = notebook_parameters(path)  # raises unless every statement is NAME = literal
    for name in REQUIRED_PARAMETERS:
        assert name in params, f"parameters cell must declare {name}"
    # defaults for exploring in Lab; the runner passes the batch values (BATCH_VALUES)
    assert params["DATA_SIZE"] == "small" and params["INTERACTIVE"] is True
    assert isinstance(params["SEED"], int)
    # papermill itself reads every parameter (its parser gives up on some comments, e.g. one
    # holding `NAME="value"`, and then warns of an "unknown parameter" on every run)
    assert set(papermill.inspect_notebook(str(path))) == set(params)

    code = _code_cells(nb)
    for i, cell in enumerate(code):
        where = f"{path.name}, code cell {i}"
        assert not cell.get("outputs") and cell.get("execution_count") is None, (
            f"{where}: outputs must not be committed"
        )
        tree = _parse(cell.source, where)
        for node in ast.walk(tree):
            assert not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)), (
                f"{where}: no def/class in notebooks; put code in the workbench package"
            )
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                assert not ABSOLUTE.match(node.value), f"{where}: absolute path {node.value!r}"
        # widgets only under `if INTERACTIVE:`
        guarded: set[int] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.If) and "INTERACTIVE" in ast.unparse(node.test):
                guarded |= {id(n) for n in ast.walk(node)}
        for node in ast.walk(tree):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                mods = [a.name for a in node.names] + [getattr(node, "module", None) or ""]
                if any(m.startswith(("ipywidgets", "workbench.explore")) for m in mods):
                    assert id(node) in guarded, f"{where}: widgets only under `if INTERACTIVE:`"

    # one recording convention: the last cell records the study's result and renders its
    # Discussion from the template; nothing else records or formats prose
    for i, cell in enumerate(code):
        for node in ast.walk(_parse(cell.source, f"{path.name}, code cell {i}")):
            if isinstance(node, ast.Call):
                name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
                assert name not in ("record", "narrate", "recorded"), (
                    f"{path.name}, code cell {i}: {name}() — record with record_all(result) and "
                    "render prose from the study's Discussion template"
                )
    last = _parse(code[-1].source, f"{path.name}, last code cell")
    statements = last.body
    assert len(statements) == 2, (
        f"{path.name}: the final code cell must be `record_all(result)` then the Discussion"
    )
    first, second = (ast.unparse(s) for s in statements)
    assert first.startswith("record_all("), f"{path.name}: the final cell starts with {first!r}"
    assert re.match(r"^\w+\.discussion_\d\d\(", second), (
        f"{path.name}: the final cell ends with {second!r}, not study.discussion_NN(...)"
    )


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_every_notebook_has_a_test_that_runs_it(path):
    test = ROOT / "tests" / f"test_notebook_{path.stem}.py"
    assert test.exists(), f"{path.name} needs {test.relative_to(ROOT)}"
    text = test.read_text()
    assert path.stem in text, f"{test.name} does not run {path.stem}"
    assert "mark.notebooks" in text, f"{test.name} must be marked @pytest.mark.notebooks"


DECIMAL = re.compile(r"(?<![\w.])[-+\u2212]?\d+\.\d+")


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_no_decimal_number_typed_into_markdown(path):
    """Results are stated only through code that reads the run's records (the Discussion templates)."""
    name = path.stem
    nb = nbformat.read(path, as_version=nbformat.NO_CONVERT)
    for i, cell in enumerate(nb.cells):
        if cell.cell_type != "markdown":
            continue
        text = re.sub(r"`[^`]*`", "", cell.source)  # code spans name functions, not results
        hits = DECIMAL.findall(text)
        assert not hits, f"{name}.ipynb markdown cell {i} types numbers {hits}; render them from records"


def test_decimal_check_catches_typed_numbers():
    assert DECIMAL.findall("MEN rises from 25.1 to 32.8 (p = 0.006)") == ["25.1", "32.8", "0.006"]
    assert not DECIMAL.findall("Table 3, offsets 1-15, $10^{-8}$, Count$^{1/4}$, v2.16")


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_notebook_gets_its_settings_from_its_study(path):
    """One way for every notebook: ``from workbench.studies import <study>`` and
    ``settings = <study>.settings(DATA_SIZE, ...)``; no notebook branches on DATA_SIZE itself."""
    import importlib

    from workbench.studies import NOTEBOOK_STUDIES

    study = NOTEBOOK_STUDIES[path.stem]
    assert callable(importlib.import_module(f"workbench.studies.{study}").settings)
    nb = nbformat.read(path, as_version=nbformat.NO_CONVERT)
    cells = [c for c in _code_cells(nb) if "parameters" not in c.metadata.get("tags", [])]
    tree = _parse("\n".join(c.source for c in cells), path.name)
    nodes = list(ast.walk(tree))
    imported = [a.name for n in nodes if isinstance(n, ast.ImportFrom)
                and n.module == "workbench.studies" for a in n.names]  # fmt: skip
    assert imported == [study], f"{path.name} must import its study {study}, imports {imported}"
    calls = [n for n in nodes if isinstance(n, ast.Assign)
             and ast.unparse(n).startswith(f"settings = {study}.settings(DATA_SIZE")]  # fmt: skip
    assert len(calls) == 1, f"{path.name}: settings = {study}.settings(DATA_SIZE, ...) once"

    def reads_size(node: ast.AST) -> bool:
        return any(isinstance(m, ast.Name) and m.id == "DATA_SIZE" for m in ast.walk(node))

    branching = (ast.Compare, ast.Subscript, ast.IfExp)
    derived = [ast.unparse(n) for n in nodes if isinstance(n, branching) and reads_size(n)]
    assert not derived, f"{path.name} derives settings from DATA_SIZE itself: {derived}"
    uses = [n for n in nodes if isinstance(n, ast.Name) and n.id == "DATA_SIZE"]
    assert len(uses) <= 2, f"{path.name} uses DATA_SIZE beyond its settings and its record"


def test_study_modules_stay_small():
    """No module of the studies is longer than about 800 lines (split it by notebook or part)."""
    for path in sorted((ROOT / "workbench" / "studies").rglob("*.py")):
        n = len(path.read_text().splitlines())
        assert n <= 800, f"{path.relative_to(ROOT)} has {n} lines"
