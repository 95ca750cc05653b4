"""MathJax for the offline results site: a copy of MathJax 2 from the ``jupyter-server-mathjax``
package (the copy Jupyter itself serves), reduced to what its combined configuration
``TeX-AMS-MML_HTMLorMML-full`` loads: TeX input, HTML-CSS output with the STIX-Web fonts.
"""

from __future__ import annotations

from pathlib import Path

import jupyter_server_mathjax

__all__ = ["MATHJAX_DIR", "mathjax_files", "mathjax_head"]

#: The folder of the site that holds the MathJax copy.
MATHJAX_DIR = "_mathjax"

#: What the combined configuration loads, relative to MathJax's folder: the loader, the
#: configuration (which holds TeX input and HTML-CSS output), the extensions it names
#: (tex2jax, AMSmath, ...), the element jax, the STIX-Web font tables and their web fonts.
_PARTS = ("MathJax.js", "LICENSE", "config/TeX-AMS-MML_HTMLorMML-full.js", "extensions/**/*.js",
          "jax/input/TeX/**/*.js", "jax/element/**/*.js", "jax/output/HTML-CSS/**/*.js",
          "fonts/HTML-CSS/STIX-Web/woff/*.woff")  # fmt: skip

#: The combined configuration the page loads.
_CONFIGURATION = "TeX-AMS-MML_HTMLorMML-full"

#: The configuration: ``$...$``/``\\(...\\)`` inline and ``$$...$$``/``\\[...\\]`` displayed,
#: as in Jupyter; the STIX-Web web fonts of the copy (no TeX fonts, no image fonts); its
#: placeholder font ``MathJax_Blank`` without the ``url('about:blank')`` that a page opened
#: through ``file://`` reports as a failed cross-origin load; no menu, no loading messages.
_CONFIG = r"""<script type="text/x-mathjax-config">
MathJax.Hub.Config({
  tex2jax: { inlineMath: [["$", "$"], ["\\(", "\\)"]], displayMath: [["$$", "$$"], ["\\[", "\\]"]],
             processEscapes: true, processEnvironments: true },
  "HTML-CSS": { availableFonts: [], preferredFont: null, webFont: "STIX-Web", imageFont: null,
                linebreaks: { automatic: true },
                styles: { "@font-face": { src: "local('MathJax_Blank')" } } },
  showMathMenu: false, messageStyle: "none"
});
</script>"""


def _root() -> Path:
    return Path(jupyter_server_mathjax.__file__).parent / "static"


def mathjax_files() -> dict[str, bytes]:
    """The MathJax files the site needs, ``{path relative to the site: content}``, under
    :data:`MATHJAX_DIR`."""
    root = _root()
    files: dict[str, bytes] = {}
    for pattern in _PARTS:
        for path in sorted(root.glob(pattern)):
            if path.is_file():
                files[f"{MATHJAX_DIR}/{path.relative_to(root).as_posix()}"] = path.read_bytes()
    if f"{MATHJAX_DIR}/MathJax.js" not in files:
        raise FileNotFoundError(f"MathJax.js is missing from {root}; reinstall "
                                "jupyter-server-mathjax")  # fmt: skip
    return files


def mathjax_head(prefix: str = "") -> str:
    """The ``<head>`` lines that typeset a page's math with the site's MathJax copy;
    ``prefix``: the path from the page to the site's root (``""`` for a page at the root)."""
    return (f'{_CONFIG}\n<script src="{prefix}{MATHJAX_DIR}/MathJax.js?config={_CONFIGURATION}">'
            "</script>")
