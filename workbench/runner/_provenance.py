"""Provenance of a run: git commit, package versions, data checksums, seeds, time."""

from __future__ import annotations

import datetime as _dt
import logging
import os
import platform
import subprocess
from collections.abc import Mapping, Sequence
from importlib import metadata
from pathlib import Path
from typing import Any

from workbench._io import file_sha256
from workbench.datasets import dataset_checksums
from workbench.runner._notebooks import repo_root

logger = logging.getLogger(__name__)

#: Distributions whose versions go into every manifest.
KEY_PACKAGES = (
    "workbench",
    "numpy",
    "scipy",
    "pandas",
    "scikit-learn",
    "gensim",
    "nltk",
    "matplotlib",
    "papermill",
    "ipykernel",
)


# --------------------------------------------------------------------------- provenance


def git_commit(root: Path | None = None) -> str:
    """The current git commit of the repository, or ``"unknown"``."""
    try:
        out = subprocess.run(
            ["git", "rev-parse", "HEAD"],
            cwd=root or repo_root(),
            capture_output=True,
            text=True,
            timeout=10,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    commit = out.stdout.strip()
    return commit if out.returncode == 0 and commit else "unknown"


def package_versions(names: Sequence[str] = KEY_PACKAGES) -> dict[str, str]:
    """Installed versions of ``names`` (``"not installed"`` when missing)."""
    versions = {"python": platform.python_version()}
    for name in names:
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            versions[name] = "not installed"
    return versions


def data_checksums() -> dict[str, str]:
    """sha256 of the bundled data files.

    The checksum file's (:func:`workbench.datasets.dataset_checksums`); when it cannot be
    read, the hashes of every file under ``<repo>/data`` (or ``$WORKBENCH_DATA``).
    """
    try:
        return dataset_checksums()
    except Exception as exc:  # noqa: BLE001 - provenance must never break a run
        logger.debug("dataset_checksums() unavailable (%s); hashing data/ directly", exc)
    env = os.environ.get("WORKBENCH_DATA")
    folder = Path(env) if env else repo_root() / "data"
    if not folder.is_dir():
        return {}
    return {
        str(p.relative_to(folder)): file_sha256(p)
        for p in sorted(folder.rglob("*"))
        if p.is_file() and not p.name.startswith(".")
    }


def _seeds(parameters: Mapping[str, Any]) -> dict[str, Any]:
    return {
        k: v for k, v in parameters.items() if "SEED" in k.upper() or "RANDOM_STATE" in k.upper()
    }


def _now() -> str:
    return _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds")
