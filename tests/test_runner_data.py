"""The data parameters in the runner and on the command line: ``workbench run --corpus …``
shortcuts, validation before anything runs, absolute paths, and the ``user_data`` provenance of
the manifest (tiny synthetic notebooks; papermill replaced by ``fake_execute``)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
from test_runner import PARAMS, fake_execute, make_notebook

from workbench import cli, runner
from workbench.datasets import WORDSIM_NAMES
from workbench.runner import _execution

FIXTURES = Path(__file__).parent / "fixtures" / "user_data"
DATA = ('CORPUS = ""\nCORPUS_FORMAT = "marked"\nLANGUAGE = "en"\nWORDSIM = []\n'
        'WORDSIM_SPLIT = "halves"\nLEXICONS = {}\n')  # fmt: skip


@pytest.fixture
def datadir(tmp_path):
    """00_alpha declares the data parameters (no PRETRAINED / PARALLEL); 01_beta none."""
    folder = tmp_path / "notebooks"
    make_notebook(folder, "00_alpha", params=PARAMS + DATA)
    make_notebook(folder, "01_beta")
    return folder


@pytest.fixture
def captured(monkeypatch):
    """The parameters each notebook was executed with (no kernel)."""
    seen: dict[str, dict] = {}

    def execute(path, output_notebook, parameters, **kw):
        seen[path.stem] = dict(parameters)
        fake_execute(path, output_notebook, parameters, **kw)

    monkeypatch.setattr(_execution, "_execute", execute)
    return seen


def _main(datadir, *args):
    out = datadir.parent / "results"
    return cli.main(["run", *args, "--size", "small", "--out", str(out), "--no-progress",
                     "--notebooks-dir", str(datadir)])  # fmt: skip


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_shortcuts_set_the_parameters_of_the_notebooks_declaring_them(
    datadir, captured, monkeypatch, tmp_path
):
    monkeypatch.chdir(FIXTURES)  # relative paths, as a user types them
    code = _main(datadir, "--corpus", "books_docs.txt", "--corpus-format", "line-docs",
                 "--wordsim", "ratings.csv", "--wordsim", "men", "--wordsim-split", "all",
                 "--lexicon", "SYN=synonyms.txt")  # fmt: skip
    assert code == 0
    alpha = captured["00_alpha"]
    assert alpha["CORPUS"] == str(FIXTURES / "books_docs.txt")  # absolute: kernels run elsewhere
    assert alpha["CORPUS_FORMAT"] == "line-docs"
    assert alpha["WORDSIM"] == [str(FIXTURES / "ratings.csv"), "MEN"]
    assert alpha["WORDSIM_SPLIT"] == "all"
    assert alpha["LEXICONS"] == {"SYN": str(FIXTURES / "synonyms.txt")}
    assert "CORPUS" not in captured["01_beta"]  # it does not declare it: left alone


def test_wordsim_all_expands_to_every_bundled_set(datadir, captured):
    assert _main(datadir, "alpha", "--wordsim", "all", "--wordsim", "MEN") == 0
    assert captured["00_alpha"]["WORDSIM"] == list(WORDSIM_NAMES)


def test_a_shortcut_no_selected_notebook_declares_is_a_usage_error(datadir, captured, capsys):
    code = _main(datadir, "--pretrained", str(FIXTURES / "ratings.csv"))
    assert code == 2
    err = capsys.readouterr().err
    assert "--pretrained" in err and "PRETRAINED" in err and "00_alpha" in err
    assert captured == {}  # nothing ran


def test_shortcut_and_param_for_the_same_parameter_clash(datadir, captured, capsys):
    code = _main(datadir, "alpha", "--corpus", str(FIXTURES / "books_docs.txt"),
                 "-p", "CORPUS=other.txt")  # fmt: skip
    assert code == 2
    assert "--corpus" in capsys.readouterr().err
    assert captured == {}


def test_bad_lexicon_option(datadir, captured, capsys):
    assert _main(datadir, "alpha", "--lexicon", "synonyms.txt") == 2
    assert "NAME=PATH" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("parameters", "message"),
    [
        ({"CORPUS": "/no/such/corpus.txt"}, r"00_alpha: CORPUS='/no/such/corpus.txt': no such"),
        ({"WORDSIM": ["MEN", "/no/such.csv"]}, r"00_alpha: WORDSIM='/no/such.csv': no such"),
        ({"CORPUS": str(FIXTURES / "books_docs.txt"), "CORPUS_FORMAT": "xml"},
         r"00_alpha: .*CORPUS_FORMAT"),
        ({"CORPUS": str(FIXTURES / "books_docs.txt"), "LANGUAGE": "klingon"},
         r"00_alpha: .*LANGUAGE"),
    ],
)  # fmt: skip
def test_data_parameters_are_checked_before_anything_runs(datadir, captured, parameters,
                                                           message):  # fmt: skip
    with pytest.raises(runner.RunnerUsageError, match=message):
        runner.run_notebooks(["beta", "alpha"], parameters={f"alpha:{k}": v for k, v in
                             parameters.items()}, notebooks_dir=datadir,
                             out=datadir.parent / "results", size="small", progress=False)  # fmt: skip
    assert captured == {}  # not even 01_beta, selected first, ran


def test_empty_corpus_file_is_a_usage_error_from_the_command_line(datadir, captured, capsys):
    empty = datadir.parent / "empty.txt"
    empty.write_text("")
    assert _main(datadir, "--corpus", str(empty)) == 2
    err = capsys.readouterr().err
    assert "00_alpha" in err and "CORPUS" in err and "empty" in err
    assert captured == {}


def test_manifest_records_every_user_file_with_its_sha256(datadir, captured, tmp_path):
    books = tmp_path / "books"  # a copy: the test changes a file
    books.mkdir()
    for f in sorted((FIXTURES / "books").iterdir()):
        (books / f.name).write_bytes(f.read_bytes())
    ratings = FIXTURES / "ratings.csv"
    args = ("alpha", "--corpus", str(books), "--corpus-format", "folder", "--wordsim", str(ratings),
            "--wordsim", "MEN")  # fmt: skip
    assert _main(datadir, *args) == 0
    manifest = json.loads((tmp_path / "results" / "00_alpha" / "manifest.json").read_text())
    files = sorted(books.iterdir())
    expected = [{"path": str(p), "size": p.stat().st_size, "sha256": _sha(p)}
                for p in [*files, ratings]]  # fmt: skip
    assert manifest["user_data"] == expected  # each file of the folder; bundled MEN not listed
    assert len(files) == 2

    # the same parameters and files: up to date, skipped
    captured.clear()
    assert _main(datadir, *args) == 0
    assert captured == {}
    # a file of the corpus changed: run again (the parameters alone did not change)
    (books / files[0].name).write_text(files[0].read_text() + "\nmore words here\n")
    assert _main(datadir, *args) == 0
    assert "00_alpha" in captured
    manifest = json.loads((tmp_path / "results" / "00_alpha" / "manifest.json").read_text())
    assert manifest["user_data"][0]["sha256"] == _sha(books / files[0].name)


def test_bundled_data_has_no_user_files(datadir, captured, tmp_path):
    assert _main(datadir, "alpha") == 0
    manifest = json.loads((tmp_path / "results" / "00_alpha" / "manifest.json").read_text())
    assert manifest["user_data"] == []
