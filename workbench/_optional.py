"""Imports of optional dependencies, with an error that names the extra to install.

Every module of the package imports its required dependencies at the top. A dependency that
only an extra brings (``scale``: Dask; ``pretrained``: the GloVe package and pyarrow;
``bench``: psutil) is imported where it is needed, through :func:`import_optional`, so that
``import workbench`` works without the extras and a missing one gives one clear message.
"""

from __future__ import annotations

import importlib
from types import ModuleType

__all__ = ["EXTRAS", "import_optional", "install_hint"]

#: Extra -> the command that installs it.
EXTRAS: dict[str, str] = {
    "scale": 'pip install "workbench[scale]"',
    "pretrained": 'pip install "workbench[pretrained]"',
    "bench": 'pip install "workbench[bench]"',
    "dev": 'pip install "workbench[dev]"',
}


def install_hint(extra: str) -> str:
    """The command that installs ``extra`` (one of :data:`EXTRAS`)."""
    try:
        return EXTRAS[extra]
    except KeyError:
        raise ValueError(f"extra must be one of {', '.join(EXTRAS)}; got {extra!r}") from None


def import_optional(module: str, extra: str, *, purpose: str = "") -> ModuleType:
    """Import ``module``, which the ``extra`` of the package provides.

    Parameters
    ----------
    module : str
        Dotted module name, e.g. ``"distributed"``.
    extra : str
        The extra that installs it (a key of :data:`EXTRAS`).
    purpose : str
        What needs it, for the message (e.g. ``"backend='dask'"``).

    Returns
    -------
    module

    Raises
    ------
    ImportError
        ``module`` is not installed; the message names the module, what needs it and the
        command that installs the extra.

    Examples
    --------
    >>> import_optional("json", "scale").__name__
    'json'
    >>> import_optional("no_such_module_xyz", "scale", purpose="backend='dask'")
    Traceback (most recent call last):
    ...
    ImportError: backend='dask' needs no_such_module_xyz, which is not installed; install the 'scale' extra: pip install "workbench[scale]"
    """
    hint = install_hint(extra)
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        who = purpose or "this feature"
        raise ImportError(
            f"{who} needs {module}, which is not installed; install the {extra!r} extra: {hint}"
        ) from exc
