"""Fixtures of the browser tier: a JupyterLab server and headless Chromium driven by Playwright.

The tier needs Chromium (Debian's ``chromium`` package, or the binary named by
``WORKBENCH_CHROMIUM``) and the ``playwright`` Python package (``dev`` extra). Playwright's own
browser downloads are never used: Chromium is launched through ``executable_path``. When either
is missing every test of the tier is skipped with a reason that ``pytest -ra`` prints.

The server runs on 127.0.0.1 with a random token on a free port, on a temporary copy of
``notebooks/`` (the repository's notebooks are never modified). Its kernels import the editable
``workbench`` package, so the bundled data is found as in any other run; ``WORKBENCH_CACHE`` is
passed through (default ``~/.cache/workbench``, shared with the notebook tests); tables and
figures the notebooks save go below the temporary folder.
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = ROOT / "notebooks"
#: Screenshots of each notebook's widgets (results/ is git-ignored; the README's one is in docs/).
SCREENSHOTS = ROOT / "results" / "screenshots"
SERVER_START_TIMEOUT = 120.0


def find_chromium() -> str | None:
    """``$WORKBENCH_CHROMIUM`` if set, else the first of chromium / chromium-browser on PATH."""
    env = os.environ.get("WORKBENCH_CHROMIUM")
    if env:
        return shutil.which(env) or (env if Path(env).is_file() else None)
    for name in ("chromium", "chromium-browser"):
        path = shutil.which(name)
        if path:
            return path
    return None


def unavailable_reason() -> str | None:
    """Why the browser tier cannot run here, or None when it can."""
    if find_chromium() is None:
        if os.environ.get("WORKBENCH_CHROMIUM"):
            return (
                f"browser tier skipped: WORKBENCH_CHROMIUM={os.environ['WORKBENCH_CHROMIUM']!r} "
                "is not an executable"
            )
        return "browser tier skipped: no chromium on PATH (apt-get install chromium)"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "browser tier skipped: playwright is not installed (pip install -e '.[dev]')"
    return None


@pytest.fixture(scope="session")
def chromium_path() -> str:
    reason = unavailable_reason()
    if reason is not None:
        pytest.skip(reason)
    path = find_chromium()
    assert path is not None
    return path


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class LabServer:
    """A running JupyterLab: ``base`` URL, ``token``, ``root`` folder it serves, its log."""

    base: str
    token: str
    root: Path
    log: Path

    def url(self, path: str) -> str:
        sep = "&" if "?" in path else "?"
        return f"{self.base}{path}{sep}token={self.token}"

    def api(self, method: str, path: str) -> Any:
        req = urllib.request.Request(
            f"{self.base}{path}", method=method, headers={"Authorization": f"token {self.token}"}
        )
        with urllib.request.urlopen(req, timeout=30) as resp:
            body = resp.read()
        return json.loads(body) if body else None

    def shutdown_kernels(self) -> None:
        """Shut down every session's kernel (one notebook's kernel must not outlive its test)."""
        try:
            for session in self.api("GET", "/api/sessions"):
                self.api("DELETE", f"/api/sessions/{session['id']}")
        except (urllib.error.URLError, OSError):
            pass

    def log_tail(self, n: int = 40) -> str:
        try:
            return "\n".join(self.log.read_text(errors="replace").splitlines()[-n:])
        except OSError:
            return ""


def _lab_settings(folder: Path) -> None:
    """User settings of the test server: no cell windowing (every cell and widget stays in the
    DOM), no news or update notifications over the page, no autosave into the copy."""
    settings = {
        "@jupyterlab/notebook-extension/tracker": {"windowingMode": "none"},
        "@jupyterlab/apputils-extension/notification": {
            "fetchNews": "false",
            "checkForUpdates": False,
        },
        "@jupyterlab/docmanager-extension/plugin": {"autosave": False},
    }
    for plugin, values in settings.items():
        path = folder / f"{plugin}.jupyterlab-settings"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(values), encoding="utf-8")


@pytest.fixture(scope="session")
def lab_server(chromium_path: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[LabServer]:
    """JupyterLab on a temporary copy of notebooks/, stopped at the end of the session."""
    base = tmp_path_factory.mktemp("lab")
    root = base / "notebooks"
    root.mkdir()
    for nb in sorted(NOTEBOOKS.glob("*.ipynb")):
        shutil.copy2(nb, root / nb.name)
    for sub in ("settings", "workspaces", "config", "runtime", "ipython", "out"):
        (base / sub).mkdir()
    _lab_settings(base / "settings")

    token = secrets.token_hex(24)
    port = _free_port()
    env = dict(os.environ)
    # figures must be displayed inline: ipykernel only picks the inline backend when
    # MPLBACKEND is unset (the Makefile and tests/conftest.py export Agg)
    env.pop("MPLBACKEND", None)
    env.update(
        JUPYTER_CONFIG_DIR=str(base / "config"),
        JUPYTER_RUNTIME_DIR=str(base / "runtime"),
        IPYTHONDIR=str(base / "ipython"),
        WORKBENCH_OUTPUT_DIR=str(base / "out"),
        PYTHONUNBUFFERED="1",
    )
    args = [
        sys.executable, "-m", "jupyterlab",
        "--no-browser",
        "--ServerApp.ip=127.0.0.1",
        f"--ServerApp.port={port}",
        "--ServerApp.port_retries=0",
        f"--ServerApp.token={token}",
        f"--ServerApp.root_dir={root}",
        "--LabApp.expose_app_in_browser=True",
        f"--LabApp.user_settings_dir={base / 'settings'}",
        f"--LabApp.workspaces_dir={base / 'workspaces'}",
        "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
    ]  # fmt: skip
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        args.append("--allow-root")
    log = base / "jupyterlab.log"
    with open(log, "wb") as fh:
        proc = subprocess.Popen(args, cwd=root, env=env, stdout=fh, stderr=subprocess.STDOUT)
    server = LabServer(base=f"http://127.0.0.1:{port}", token=token, root=root, log=log)
    try:
        deadline = time.monotonic() + SERVER_START_TIMEOUT
        while True:
            if proc.poll() is not None:
                pytest.fail(
                    f"jupyter lab exited with code {proc.returncode}:\n{server.log_tail()}",
                    pytrace=False,
                )
            try:
                server.api("GET", "/api/status")
                break
            except (urllib.error.URLError, OSError):
                if time.monotonic() > deadline:
                    pytest.fail(
                        f"jupyter lab did not answer within {SERVER_START_TIMEOUT:.0f} s:\n"
                        f"{server.log_tail()}",
                        pytrace=False,
                    )
                time.sleep(0.5)
        yield server
    finally:
        server.shutdown_kernels()
        proc.terminate()
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)


@pytest.fixture(scope="session")
def screenshots() -> Path:
    """``results/screenshots/``, created on demand."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS


@pytest.fixture(scope="session")
def browser(chromium_path: str) -> Iterator[Any]:
    """Headless Chromium (Debian's, through ``executable_path``; no Playwright download)."""
    from playwright.sync_api import sync_playwright

    pw = sync_playwright().start()
    try:
        args = ["--disable-dev-shm-usage"]
        if hasattr(os, "geteuid") and os.geteuid() == 0:
            args.append("--no-sandbox")  # Chromium refuses to run sandboxed as root
        chromium = pw.chromium.launch(executable_path=chromium_path, headless=True, args=args)
        try:
            yield chromium
        finally:
            chromium.close()
    finally:
        pw.stop()


@pytest.fixture
def page(browser: Any, lab_server: LabServer) -> Iterator[Any]:
    """A fresh page (own browser context); the notebook's kernel is shut down afterwards."""
    context = browser.new_context(viewport={"width": 1400, "height": 1600})
    context.set_default_timeout(30_000)
    try:
        yield context.new_page()
    finally:
        context.close()
        lab_server.shutdown_kernels()


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """One line saying that the browser tier was skipped and why (besides ``-ra``'s list)."""
    reasons = set()
    for report in terminalreporter.stats.get("skipped", []):
        longrepr = getattr(report, "longrepr", None)
        if isinstance(longrepr, tuple) and "browser tier skipped" in str(longrepr[-1]):
            reasons.add(str(longrepr[-1]).removeprefix("Skipped: "))
    for reason in sorted(reasons):
        terminalreporter.write_sep("-", reason, yellow=True)
