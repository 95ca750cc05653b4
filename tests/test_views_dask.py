"""The Dask backend of the view builders.

Counts on a real two-process ``LocalCluster`` equal the local counts exactly: positional
offsets, windows and dependency relations, from a corpus directory (one shard per file or
group of files), from document ranges of one file and from CoNLL-U shards; the vocabulary of
the first pass is the local one. Also: the vocabulary index is scattered once, and a missing
``distributed`` or a missing client give errors saying what to do.
"""

from __future__ import annotations

import gzip
import subprocess
import sys
import textwrap
import warnings
from pathlib import Path

import numpy as np
import pytest

from workbench.datasets import load_conllu, load_corpus
from workbench.datasets._common import data_dir
from workbench.views import (
    EncodedCorpus,
    Vocabulary,
    dependency_views,
    encode_corpus,
    positional_views,
    shard_corpus,
    vocabulary_and_encoding,
    window_view,
)
from workbench.views import _dask as wd

try:
    import distributed
except ImportError:  # pragma: no cover - the scale extra is installed in the dev venv
    distributed = None

NO_DASK = 'dask.distributed is not installed (pip install "workbench[scale]")'
WORDS = [
    "the", "of", "and", "a", "to", "in", "he", "was", "that", "it", "his", "with", "for",
    "as", "had", "you", "not", "be", "her", "on", "at", "by", "which", "have", "or",
    "from", "this", "him", "but", "all", "she", "they", "were", "my", "are", "me", "one",
    "their", "so", "an", "said", "them", "we", "who", "would", "been", "will", "no",
    "Mr", "don't", "well-known",
]  # fmt: skip


@pytest.fixture(scope="module")
def client():
    if distributed is None:
        pytest.skip(NO_DASK)
    with warnings.catch_warnings():  # the scheduler's HTTP port may be taken by another cluster
        warnings.filterwarnings("ignore", "Port .* is already in use", UserWarning)
        cluster = distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address="127.0.0.1:0"
        )
    with cluster, distributed.Client(cluster) as c:
        yield c


def _text(rng: np.random.Generator, n_tokens: int) -> str:
    """Zipf-distributed words with capitals and punctuation, a few per line."""
    ids = rng.zipf(1.3, size=n_tokens) % len(WORDS)
    lines, line = [], []
    for i in ids:
        w = WORDS[int(i)]
        line.append(w.capitalize() if rng.random() < 0.1 else w)
        if rng.random() < 0.08:
            line[-1] += rng.choice([",", ".", ";", " --"])
        if len(line) >= 12:
            lines.append(" ".join(line))
            line = []
    lines.append(" ".join(line))
    return "\n".join(lines) + "\n"


def _docs(rng: np.random.Generator, sizes: list[int], preamble: int = 0) -> str:
    out = _text(rng, preamble) if preamble else ""
    for j, n in enumerate(sizes):
        out += f"@@DOC\t{j}\tdoc {j}\n" + (_text(rng, n) if n else "")
    return out


@pytest.fixture(scope="module")
def corpus_dir(tmp_path_factory) -> Path:
    """Six corpus files (one .gz, several with many documents, an empty document) + a README."""
    rng = np.random.default_rng(19)
    d = tmp_path_factory.mktemp("corpus_dir")
    (d / "part-00.txt").write_text(_text(rng, 700), encoding="utf-8")  # one unmarked document
    (d / "part-01.txt").write_text(_docs(rng, [300, 5, 450], preamble=40), encoding="utf-8")
    with gzip.open(d / "part-02.txt.gz", "wt", encoding="utf-8") as fh:
        fh.write(_docs(rng, [600, 250]))
    (d / "part-03.txt").write_text(_docs(rng, [2, 0, 800, 1]), encoding="utf-8")
    (d / "part-04.txt").write_text(_docs(rng, [120] * 6), encoding="utf-8")
    (d / "part-05.txt").write_text(_text(rng, 3), encoding="utf-8")  # shorter than an offset
    (d / "README.md").write_text("not part of the corpus\n", encoding="utf-8")
    return d


@pytest.fixture(scope="module")
def corpus_file(tmp_path_factory) -> Path:
    """One gzip file of 40 documents of very different sizes."""
    rng = np.random.default_rng(7)
    p = tmp_path_factory.mktemp("corpus_file") / "books.txt.gz"
    sizes = [int(x) for x in rng.integers(0, 300, size=40)]
    with gzip.open(p, "wt", encoding="utf-8") as fh:
        fh.write(_docs(rng, sizes, preamble=25))
    return p


def assert_same_matrix(a, b):
    assert a.shape == b.shape and a.dtype == b.dtype
    assert (a != b).nnz == 0
    assert b.has_canonical_format


def assert_same_views(local, remote):
    assert [v.name for v in local] == [v.name for v in remote]
    for lv, rv in zip(local, remote):
        assert_same_matrix(lv.matrix, rv.matrix)
        assert np.array_equal(lv.observed, rv.observed)
        assert lv.meta == rv.meta and lv.family == rv.family and rv.vocab is lv.vocab


# ============================================================================ corpus directory


def test_directory_corpus_reads_its_files_in_name_order(corpus_dir):
    corpus = load_corpus(corpus_dir)
    assert corpus.name == corpus_dir.name and corpus.is_directory
    assert [f.name for f in corpus.files] == [f"part-0{i}.txt" for i in (0, 1)] + [
        "part-02.txt.gz",
        *[f"part-0{i}.txt" for i in (3, 4, 5)],
    ]
    docs = list(corpus.iter_documents())
    titles = [d.title for d in docs]
    assert titles[:5] == ["part-00.txt", "part-01.txt", "doc 0", "doc 1", "doc 2"]
    assert titles[-1] == "part-05.txt" and len(docs) == 1 + 4 + 2 + 4 + 6 + 1
    assert sum(len(d.tokens) for d in docs) == corpus.n_tokens > 3000
    assert len(corpus.sha256) == 64 and corpus.sha256 == load_corpus(corpus_dir).sha256


def test_directory_corpus_errors(tmp_path):
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(IsADirectoryError, match=r"empty' is a directory without corpus text"):
        load_corpus(empty)
    (empty / "notes.md").write_text("x\n")
    (empty / "sub.txt").mkdir()  # a folder named like a file is not a corpus file
    with pytest.raises(IsADirectoryError, match=r"\*\.txt, \*\.txt\.gz"):
        load_corpus(empty)
    (empty / "a.txt").write_text("")
    with pytest.raises(ValueError, match=r"a.txt: the file is empty"):
        load_corpus(empty)


# ============================================================================ equal counts


def test_directory_counts_equal_local(client, corpus_dir):
    corpus = load_corpus(corpus_dir)
    local_vocab = Vocabulary.from_corpus(corpus, max_size=30, min_count=2)
    vocab = Vocabulary.from_corpus(corpus, max_size=30, min_count=2, backend="dask")
    one_pass, _ = vocabulary_and_encoding(corpus, max_size=30, min_count=2)
    assert vocab.words == local_vocab.words == one_pass.words  # words, order, tie-breaking
    assert np.array_equal(vocab.counts, local_vocab.counts)
    ties = np.flatnonzero(np.diff(vocab.counts) == 0)
    assert len(vocab) == 30 and ties.size  # ties, broken alphabetically
    assert all(vocab.words[i] < vocab.words[i + 1] for i in ties)

    offsets = [1, 2, 3, -2]
    for respect in (True, False):
        local = positional_views(corpus, vocab, offsets, respect_documents=respect)
        remote = positional_views(corpus, vocab, offsets, respect_documents=respect, backend="dask")
        assert_same_views(local, remote)
    # files grouped into fewer shards: still the same counts, across group boundaries too
    grouped = shard_corpus(corpus_dir, n_shards=4)
    assert len(grouped) == 4 and max(len(s.files) for s in grouped.shards) > 1
    for respect in (True, False):
        assert_same_views(
            positional_views(corpus, vocab, [3], respect_documents=respect),
            positional_views(grouped, vocab, [3], respect_documents=respect, backend="dask"),
        )
    for kw in ({"weighting": "harmonic"}, {"symmetric": False, "weighting": "dynamic"}):
        lw = window_view(corpus, vocab, 3, **kw)
        rw = window_view(corpus, vocab, 3, backend="dask", **kw)
        assert_same_views([lw], [rw])


def test_single_file_document_ranges_equal_local(client, corpus_file):
    corpus = load_corpus(corpus_file)
    sharded = shard_corpus(corpus, n_shards=5)
    assert len(sharded) == 5 and all(len(s.files) == 1 for s in sharded.shards)
    assert [s.first for s in sharded.shards][0] == 0 and sharded.shards[-1].stop == 41
    assert [(d.title, d.tokens) for d in sharded.iter_documents()] == [
        (d.title, d.tokens) for d in corpus.iter_documents()
    ]
    vocab = Vocabulary.from_corpus(sharded, min_count=3, backend="dask")
    assert vocab.words == Vocabulary.from_corpus(corpus, min_count=3).words
    for respect in (True, False):
        assert_same_views(
            positional_views(corpus, vocab, [1, 2, 3], respect_documents=respect),
            positional_views(sharded, vocab, [1, 2, 3], respect_documents=respect, backend="dask"),
        )
    assert_same_views(
        [window_view(corpus, vocab, 2)], [window_view(corpus_file, vocab, 2, backend="dask")]
    )


def _split_conllu(src: Path, folder: Path, n_files: int) -> list[Path]:
    """Cut a CoNLL-U file into ``n_files`` files at sentence boundaries (the last one gzipped)."""
    with gzip.open(src, "rt", encoding="utf-8") as fh:
        blocks = [b for b in fh.read().split("\n\n") if b.strip()]
    cut = np.linspace(0, len(blocks), n_files + 1).astype(int)
    paths = []
    for i in range(n_files):
        text = "\n\n".join(blocks[cut[i] : cut[i + 1]]) + "\n\n"
        p = folder / f"part-{i}.conllu"
        if i == n_files - 1:
            p = p.with_suffix(".conllu.gz")
            p.write_bytes(gzip.compress(text.encode("utf-8")))
        else:
            p.write_text(text, encoding="utf-8")
        paths.append(p)
    return paths


def test_dependency_counts_equal_local(client, tmp_path):
    sents = load_conllu("dev")
    vocab = Vocabulary.from_corpus(
        [[t.form.lower() for t in s.tokens] for s in sents], max_size=1500
    )
    local = dependency_views(sents, vocab)
    assert len(local) > 10
    assert_same_views(local, dependency_views(sents, vocab, backend="dask"))
    files = _split_conllu(data_dir() / "treebank" / "en_ewt-ud-dev.conllu.gz", tmp_path, 3)
    assert sum(len(load_conllu(f)) for f in files) == len(sents)
    for relations in (["nsubj", "prep_of", "conj_and", "compound"], "all"):
        expected = dependency_views(sents, vocab, relations, use_lemma=True)
        assert_same_views(
            expected,
            dependency_views(tmp_path, vocab, relations, use_lemma=True, backend="dask"),
        )
    assert_same_views(dependency_views(tmp_path, vocab), local)  # a folder, locally


# ============================================================================ data movement


def test_vocabulary_index_is_scattered_once(client, corpus_dir, monkeypatch):
    corpus = load_corpus(corpus_dir)
    vocab = Vocabulary.from_corpus(corpus, max_size=25)
    scattered: list = []
    submitted: list = []
    scatter, submit = client.scatter, client.submit

    def spy_scatter(data, *args, **kwargs):
        out = scatter(data, *args, **kwargs)
        # where the data sits right after the scatter, before any task (the scheduler's active
        # memory manager may drop a replica of a finished broadcast later)
        holders = {f.key: len(client.who_has([f])[f.key]) for f in out}
        scattered.append((data, out, kwargs, holders))
        return out

    def spy_submit(func, *args, **kwargs):
        submitted.append((func, args))
        return submit(func, *args, **kwargs)

    monkeypatch.setattr(client, "scatter", spy_scatter)
    monkeypatch.setattr(client, "submit", spy_submit)
    views = positional_views(corpus, vocab, [1, 2], respect_documents=False, backend="dask")
    assert views[0].nnz > 0
    assert len(scattered) == 1
    data, futures, kwargs, holders = scattered[0]
    assert data == [vocab.index] and kwargs.get("broadcast") is True
    (index,) = futures
    assert holders[index.key] == 2  # on both workers, before the tasks
    counts = [args for func, args in submitted if func is wd._shard_offset_counts]
    assert len(counts) == len(corpus.files)  # one task per shard (file) ...
    assert all(args[1] is index for args in counts)  # ... each given the scattered future
    for _, args in submitted:  # and no task carries the vocabulary itself
        assert not any(isinstance(a, (dict, Vocabulary)) for a in args)
    merges = [args for func, args in submitted if func is wd._merge_offset_partials]
    # a tree: 6 partials -> groups of 4 and 2 -> 1 (the final sum is the only result gathered)
    assert [len(a) for a in merges] == [4, 2, 2] and wd.DEFAULT_SPLIT_EVERY == 4


def test_dask_views_go_through_the_cache(client, corpus_dir, tmp_path, monkeypatch):
    corpus = load_corpus(corpus_dir)
    vocab = Vocabulary.from_corpus(corpus, max_size=20)
    first = positional_views(corpus, vocab, [1, -2], backend="dask", cache=tmp_path)
    win = window_view(corpus, vocab, 2, backend="dask", cache=tmp_path)

    def count_again(*args, **kwargs):
        raise AssertionError("counted again instead of reading the cache")

    monkeypatch.setattr(wd, "offset_counts", count_again)
    again = positional_views(corpus, vocab, [1, -2], backend="dask", cache=tmp_path)
    assert_same_views(first, again)
    assert_same_views([win], [window_view(corpus, vocab, 2, backend="dask", cache=tmp_path)])
    assert_same_views(first, positional_views(corpus, vocab, [1, -2]))


# ============================================================================ errors


def test_missing_distributed_names_the_scale_extra(corpus_dir, monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)
    corpus = load_corpus(corpus_dir)
    vocab = Vocabulary.from_words(["the", "of"])
    with pytest.raises(ImportError, match=r'pip install "workbench\[scale\]"'):
        positional_views(corpus, vocab, [1], backend="dask")
    with pytest.raises(ImportError, match=r"'scale' extra"):
        Vocabulary.from_corpus(corpus, backend="dask")


def test_dask_backend_input_errors(corpus_dir, corpus_file):
    vocab = Vocabulary.from_words(["the", "of"])
    enc = encode_corpus([["the", "of"]], vocab)
    assert isinstance(enc, EncodedCorpus)
    with pytest.raises(TypeError, match=r"must be a workbench.datasets.Corpus.*EncodedCorpus"):
        positional_views(enc, vocab, [1], backend="dask")
    with pytest.raises(TypeError, match=r"got list"):
        window_view([["the", "of"]], vocab, 2, backend="dask")
    with pytest.raises(ValueError, match=r"max_tokens"):
        positional_views(load_corpus(corpus_file, max_tokens=10), vocab, [1], backend="dask")
    with pytest.raises(ValueError, match=r"backend must be one of 'local', 'dask'"):
        positional_views(load_corpus(corpus_dir), vocab, [1], backend="ray")


def test_no_client_is_a_clear_error_and_import_stays_light(corpus_file):
    """In a fresh process: importing workbench imports no dask; no client -> RuntimeError."""
    code = textwrap.dedent(
        f"""
        import sys
        import workbench, workbench.views as wv
        from workbench.datasets import load_corpus
        assert "distributed" not in sys.modules and "dask" not in sys.modules
        corpus = load_corpus({str(corpus_file)!r})
        try:
            wv.positional_views(corpus, wv.Vocabulary.from_words(["the"]), [1], backend="dask")
        except (RuntimeError, ImportError) as exc:
            print(exc)
        """
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False
    )
    assert out.returncode == 0, out.stderr
    if distributed is None:  # pragma: no cover
        pytest.skip(NO_DASK)
    assert "active dask.distributed Client" in out.stdout
    assert "Client(LocalCluster())" in out.stdout
