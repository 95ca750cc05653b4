"""The scan of executed notebooks for unclean output (tests/notebook_outputs.py) finds what a
reader should not see and passes what a notebook should show."""

from __future__ import annotations

import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_notebook, new_output
from notebook_outputs import unclean_outputs


def _nb(*outputs):
    return new_notebook(cells=[new_code_cell("x", outputs=[o]) for o in outputs])


def _result(text, **rich):
    return new_output("execute_result", data={"text/plain": text, **rich}, execution_count=1)


@pytest.mark.parametrize(
    ("output", "what"),
    [
        (_result("[PosixPath('/r/figures/a.png'), PosixPath('/r/figures/a.pdf')]"), "echoed"),
        (_result("ExperimentConfig(n_drop=50, n_terms=1000)"), "echoed"),
        (_result("WN    0.174\nName: prior, dtype: float64"), "echoed"),
        (new_output("stream", name="stdout", text="{'corpus': '1M', 'tokens': 5}\n"), "dict repr"),
        (new_output("stream", name="stdout", text="saved to PosixPath('/x')\n"), "path repr"),
        (new_output("stream", name="stdout", text="Settings(size='small')\n"), "dataclass repr"),
        (
            new_output("stream", name="stderr", text="fit: 100%|#####| 5/5 [00:01<00:00]\n"),
            "progress",
        ),
        (new_output("display_data", data={"text/plain": "{'a': 1}"}), "dict repr"),
    ],
)
def test_unclean_outputs_are_named_with_their_cell(output, what):
    (line,) = unclean_outputs(_nb(output))
    assert line.startswith("cell 1: ") and what in line


def test_rich_and_plain_messages_pass():
    nb = _nb(
        _result("   a\n0  1", **{"text/html": "<table></table>"}),  # a DataFrame
        _result("<IPython.core.display.Markdown object>", **{"text/markdown": "**x**"}),
        new_output("display_data", data={"text/plain": "Figure(640x480)", "image/png": "iVBOR"}),
        new_output("stream", name="stdout", text="3 views dropped: too few rows (meaning: ...)\n"),
    )
    assert unclean_outputs(nb) == []


def test_a_saved_notebook_is_read_from_its_path(tmp_path):
    path = tmp_path / "n.ipynb"
    nbformat.write(_nb(_result("{'a': 1}")), path)
    assert unclean_outputs(path) == ["cell 1: an echoed return value: {'a': 1}"]
