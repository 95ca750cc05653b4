"""The verified cache and atomic writes of workbench._io."""

from __future__ import annotations

import json
import multiprocessing as mp
import os
import shutil
import warnings
from pathlib import Path

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from workbench import _io
from workbench.cli import main as cli_main


def _values(seed: int) -> dict[str, object]:
    rng = np.random.default_rng(seed)
    return {
        "dense": rng.normal(size=(4, 3)),
        "sparse": sp.random_array((5, 6), density=0.4, random_state=seed, format="csr"),
        "words": np.array([f"w{seed}_{i}" for i in range(3)]),
    }


def _same(a: dict[str, object], b: dict[str, object]) -> bool:
    if set(a) != set(b):
        return False
    for k in a:
        x, y = a[k], b[k]
        if sp.issparse(x) or sp.issparse(y):
            if not (sp.issparse(x) and sp.issparse(y)) or x.shape != y.shape:
                return False
            if abs(sp.csr_array(x) - sp.csr_array(y)).sum() != 0:
                return False
        elif not np.array_equal(np.asarray(x), np.asarray(y)):
            return False
    return True


@pytest.fixture
def cache(tmp_path: Path) -> _io.Cache:
    return _io.Cache("unit", root=tmp_path)


def test_round_trip_dense_sparse_strings_and_meta(cache: _io.Cache) -> None:
    vals = _values(0)
    cache.store({"a": 1}, vals, {"names": ["x", "y"], "t": (1, 2)})
    hit = cache.load({"a": 1})
    assert hit is not None and _same(hit.arrays, vals)
    assert sp.issparse(hit.arrays["sparse"]) and hit.arrays["words"].dtype.kind == "U"
    assert hit.meta == {"names": ["x", "y"], "t": [1, 2]}


def test_miss_is_silent_and_meta_only_entries_work(cache: _io.Cache) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert cache.load({"a": 2}) is None
    cache.store({"a": 2}, None, {"best": 3})
    hit = cache.load({"a": 2})
    assert hit is not None and hit.arrays == {} and hit.meta == {"best": 3}


def test_key_covers_inputs_and_namespace(tmp_path: Path) -> None:
    a, b = _io.Cache("one", root=tmp_path), _io.Cache("two", root=tmp_path)
    assert a.key({"x": 1}) != _io.Cache("one", version=2, root=tmp_path).key({"x": 1})
    assert a.key({"x": 1}) != a.key({"x": 2})
    assert a.key({"x": 1}) != b.key({"x": 1})
    assert a.key({"x": 1, "y": 2}) == a.key({"y": 2, "x": 1})


def test_object_arrays_are_refused(cache: _io.Cache) -> None:
    with pytest.raises(TypeError, match="dtype object"):
        cache.store({"a": 1}, {"bad": np.array([{"x": 1}], dtype=object)})


def _swap(p: Path, q: Path) -> None:
    tmp = p.with_name("swap.tmp")
    os.replace(p, tmp)
    os.replace(q, p)
    os.replace(tmp, q)


def test_two_valid_entries_swapped_are_rebuilt_not_used(cache: _io.Cache) -> None:
    ka, kb = cache.key({"e": "a"}), cache.key({"e": "b"})
    cache.store({"e": "a"}, _values(1))
    cache.store({"e": "b"}, _values(2))
    folder = cache.folder
    _swap(folder / f"{ka}.json", folder / f"{kb}.json")
    (da,), (db,) = folder.glob(f"{ka}-*.npz"), folder.glob(f"{kb}-*.npz")
    with pytest.warns(_io.CacheWarning, match=ka):
        assert cache.load({"e": "a"}) is None
    with pytest.warns(_io.CacheWarning, match=kb):
        assert cache.load({"e": "b"}) is None
    assert not da.exists() and not db.exists()


def test_data_files_swapped_under_their_names_are_detected(cache: _io.Cache) -> None:
    cache.store({"e": "a"}, _values(1))
    cache.store({"e": "b"}, _values(2))
    folder = cache.folder
    (da,), (db,) = (
        folder.glob(f"{cache.key({'e': 'a'})}-*.npz"),
        folder.glob(f"{cache.key({'e': 'b'})}-*.npz"),
    )
    _swap(da, db)
    with pytest.warns(_io.CacheWarning, match="SHA-256|bytes"):
        assert cache.load({"e": "a"}) is None


def test_entry_rewritten_with_other_values_of_the_same_shape(cache: _io.Cache) -> None:
    good = {"m": np.arange(12.0).reshape(3, 4)}
    cache.store({"e": 1}, good)
    (data,) = cache.folder.glob("*.npz")
    np.savez(data.with_suffix(""), m=np.arange(12.0).reshape(3, 4)[::-1].copy())
    with pytest.warns(_io.CacheWarning, match=r"SHA-256|bytes"):
        assert cache.load({"e": 1}) is None


@pytest.mark.parametrize(
    "damage, problem",
    [
        (lambda m, d: m.write_text("{not json"), "manifest unreadable"),
        (lambda m, d: m.write_bytes(b"\xff\xfe\x00"), "manifest unreadable"),
        (lambda m, d: m.write_text("[1, 2]"), "not a JSON object"),
        (lambda m, d: m.write_text(json.dumps({"format": 99})), "checksum"),
        (lambda m, d: d.write_bytes(d.read_bytes()[:50]), "bytes"),
        (lambda m, d: d.unlink(), "unreadable"),
        (
            lambda m, d: m.write_text(
                json.dumps({**json.loads(m.read_text()), "inputs": {"e": 2}})
            ),
            "checksum",
        ),
    ],
)
def test_damaged_entries_warn_once_and_are_removed(cache: _io.Cache, damage, problem) -> None:
    cache.store({"e": 1}, _values(3))
    manifest = cache.folder / f"{cache.key({'e': 1})}.json"
    (data,) = cache.folder.glob("*.npz")
    damage(manifest, data)
    with pytest.warns(_io.CacheWarning, match=problem) as record:
        assert cache.load({"e": 1}) is None
    assert len([w for w in record if issubclass(w.category, _io.CacheWarning)]) == 1
    assert not manifest.exists()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert cache.load({"e": 1}) is None  # removed: a plain miss now


def test_edited_metadata_is_detected(cache: _io.Cache) -> None:
    cache.store({"e": 1}, None, {"best": 3})
    manifest = cache.folder / f"{cache.key({'e': 1})}.json"
    m = json.loads(manifest.read_text())
    m["meta"]["best"] = 4
    manifest.write_text(json.dumps(m))
    with pytest.warns(_io.CacheWarning, match="checksum"):
        assert cache.load({"e": 1}) is None


def test_planted_pickle_is_never_loaded(cache: _io.Cache) -> None:
    cache.store({"e": 1}, {"m": np.ones(3)})
    (data,) = cache.folder.glob("*.npz")
    np.savez(data.with_suffix(""), m=np.array([{"evil": 1}], dtype=object))
    manifest = cache.folder / f"{cache.key({'e': 1})}.json"
    m = json.loads(manifest.read_text())
    m["data"].update(size=data.stat().st_size, sha256=_io.file_sha256(data))  # forged manifest
    m["checksum"] = _io._manifest_checksum(m)
    manifest.write_text(json.dumps(m))
    with pytest.warns(_io.CacheWarning, match="does not decode"):
        assert cache.load({"e": 1}) is None


def test_get_or_build_builds_once(cache: _io.Cache) -> None:
    calls = []

    def build():
        calls.append(1)
        return _values(4), {"n": 1}

    first = cache.get_or_build({"e": 1}, build)
    second = cache.get_or_build({"e": 1}, build)
    assert len(calls) == 1 and _same(first.arrays, second.arrays) and first.meta == second.meta


def _worker(root: str, counter: str) -> None:
    def build():
        with open(counter, "a") as fh:
            fh.write("x")
        return {"m": np.arange(1000.0)}, None

    _io.Cache("shared", root=root).get_or_build({"e": 1}, build)


def test_concurrent_processes_build_one_entry_once(tmp_path: Path) -> None:
    counter = tmp_path / "count"
    ctx = mp.get_context("fork")
    procs = [ctx.Process(target=_worker, args=(str(tmp_path), str(counter))) for _ in range(4)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(30)
    assert all(p.exitcode == 0 for p in procs)
    assert counter.read_text() == "x"


# ------------------------------------------------------------------ property: random corruption

_OPS = ("flip", "truncate", "append", "swap_data", "swap_manifest", "delete_data",
        "delete_manifest", "garbage_manifest", "edit_manifest", "none")  # fmt: skip


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    ops=st.lists(
        st.tuples(
            st.sampled_from(_OPS), st.integers(0, 2), st.integers(0, 2), st.integers(0, 10**6)
        ),
        min_size=1,
        max_size=4,
    )
)
def test_random_corruption_never_yields_a_wrong_entry(tmp_path: Path, ops) -> None:
    root = tmp_path / f"c{abs(hash(tuple(ops)))}"
    cache = _io.Cache("prop", root=root)
    truth = {i: _values(10 + i) for i in range(3)}
    for i, vals in truth.items():
        cache.store({"i": i}, vals, {"i": i})
    folder = cache.folder

    def data_of(i: int) -> Path | None:
        found = sorted(folder.glob(f"{cache.key({'i': i})}-*.npz"))
        return found[0] if found else None

    for op, i, j, pos in ops:
        man_i, man_j = (
            folder / f"{cache.key({'i': i})}.json",
            folder / f"{cache.key({'i': j})}.json",
        )
        d_i, d_j = data_of(i), data_of(j)
        if d_i is not None and d_i.stat().st_size == 0:
            d_i.unlink()  # nothing left to damage further
            d_i = None
        if op == "flip" and d_i is not None:
            raw = bytearray(d_i.read_bytes())
            raw[pos % len(raw)] ^= 0xFF
            d_i.write_bytes(bytes(raw))
        elif op == "truncate" and d_i is not None:
            raw = d_i.read_bytes()
            d_i.write_bytes(raw[: pos % len(raw)])
        elif op == "append" and d_i is not None:
            with open(d_i, "ab") as fh:
                fh.write(b"\x00" * (1 + pos % 7))
        elif op == "swap_data" and d_i is not None and d_j is not None and i != j:
            _swap(d_i, d_j)
        elif op == "swap_manifest" and man_i.exists() and man_j.exists() and i != j:
            _swap(man_i, man_j)
        elif op == "delete_data" and d_i is not None:
            d_i.unlink()
        elif op == "delete_manifest" and man_i.exists():
            man_i.unlink()
        elif op == "garbage_manifest" and man_i.exists():
            man_i.write_bytes(np.random.default_rng(pos).bytes(1 + pos % 300))
        elif op == "edit_manifest" and man_i.exists():
            text = man_i.read_text(errors="replace")
            k = pos % max(len(text), 1)
            man_i.write_text(text[:k] + "7" + text[k + 1 :])

    for i, vals in truth.items():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", _io.CacheWarning)
            entry = cache.get_or_build({"i": i}, lambda v=vals, i=i: (v, {"i": i}))
        assert _same(entry.arrays, vals), f"entry {i} returned wrong arrays after {ops}"
        assert entry.meta == {"i": i}
    assert all(s.ok for s in cache.check())
    shutil.rmtree(root)


# ------------------------------------------------------------------ folders and writes


def test_verify_tree_detects_changed_missing_and_added_files(tmp_path: Path) -> None:
    root = tmp_path / "tree"
    (root / "sub").mkdir(parents=True)
    (root / "a.txt").write_text("alpha")
    (root / "sub" / "b.txt").write_text("beta")
    _io.write_tree_manifest(root, source="archive-1")
    assert _io.verify_tree(root, source="archive-1") == ""
    assert "archive-2" in _io.verify_tree(root, source="archive-2")
    (root / "a.txt").write_text("alphA")
    assert "a.txt" in _io.verify_tree(root)
    (root / "a.txt").write_text("alpha")
    (root / "c.txt").write_text("new")
    assert "extra ['c.txt']" in _io.verify_tree(root)
    (root / "c.txt").unlink()
    (root / "sub" / "b.txt").unlink()
    assert "missing ['sub/b.txt']" in _io.verify_tree(root)
    (root / _io.TREE_MANIFEST).write_text("{")
    assert "manifest" in _io.verify_tree(root)


def test_atomic_writes_respect_the_umask(tmp_path: Path) -> None:
    old = os.umask(0o022)
    try:
        p = _io.atomic_write_text(tmp_path / "f.txt", "x")
        assert p.stat().st_mode & 0o777 == 0o644
        os.umask(0o077)
        q = _io.atomic_write_bytes(tmp_path / "g.bin", b"x")
        assert q.stat().st_mode & 0o777 == 0o600
    finally:
        os.umask(old)


def test_atomic_path_leaves_nothing_when_the_block_fails(tmp_path: Path) -> None:
    target = tmp_path / "out.txt"
    target.write_text("old")
    with pytest.raises(RuntimeError), _io.atomic_path(target) as tmp:
        tmp.write_text("partial")
        raise RuntimeError("boom")
    assert target.read_text() == "old" and sorted(tmp_path.iterdir()) == [target]


# ------------------------------------------------------------------ command line


def test_cache_cli_list_verify_clear(tmp_path: Path, monkeypatch, capsys) -> None:
    monkeypatch.setenv("WORKBENCH_CACHE", str(tmp_path))
    c = _io.Cache("views")
    c.store({"e": 1}, _values(5))
    c.store({"e": 2}, _values(6))
    assert cli_main(["cache", "list"]) == 0
    out = capsys.readouterr().out
    assert out.count("views") >= 2 and c.key({"e": 1}) in out
    assert cli_main(["cache", "verify"]) == 0
    assert "0 invalid entries" in capsys.readouterr().out
    (data,) = c.folder.glob(f"{c.key({'e': 1})}-*.npz")
    data.write_bytes(b"garbage")
    assert cli_main(["cache", "verify"]) == 1
    out = capsys.readouterr().out
    assert "INVALID" in out and "1 invalid entry" in out
    monkeypatch.setattr("sys.stdin.isatty", lambda: False)
    assert cli_main(["cache", "clear"]) == 2
    assert "--yes" in capsys.readouterr().err and c.folder.exists()
    assert cli_main(["cache", "clear", "--namespace", "nope", "--yes"]) == 2
    assert cli_main(["cache", "clear", "--yes"]) == 0
    assert not (tmp_path / "views").exists()


def test_damaged_wordnet_extraction_is_extracted_again(tmp_path: Path, monkeypatch) -> None:
    from workbench.datasets import data_dir
    from workbench.datasets.lexicons import WORDNET_FILE, _extract_once

    monkeypatch.setenv("WORKBENCH_CACHE", str(tmp_path))
    archive = data_dir() / WORDNET_FILE
    folder = _extract_once(archive)
    index = folder / "index.noun"
    good = index.read_bytes()
    index.write_bytes(good[: len(good) // 2])  # a damaged cache used to raise KeyError: 'n'
    with pytest.warns(_io.CacheWarning, match="index.noun"):
        again = _extract_once(archive)
    assert again == folder and index.read_bytes() == good
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert _extract_once(archive) == folder


def test_check_verifies_entries_of_any_builder_version(tmp_path: Path) -> None:
    _io.Cache("ns", version=3, root=tmp_path).store({"e": 1}, {"m": np.ones(2)})
    (cache,) = list(_io.iter_entries(tmp_path))
    assert cache.namespace == "ns" and [s.ok for s in cache.check()] == [True]
    assert _io.Cache("ns", version=4, root=tmp_path).load({"e": 1}) is None  # other key


def test_content_hash_of_sparse_matrices_is_their_values():
    """A sparse matrix hashes its values: CSR, CSC, COO with duplicates and unsorted indices
    agree; another value or shape does not; the matrix itself is left as it was."""
    import scipy.sparse as sp

    from workbench._io import content_hash

    dense = np.array([[0.0, 2.0, 0.0], [1.0, 0.0, 3.0]])
    coo = sp.coo_matrix((np.array([1.0, 1.0, 2.0, 3.0]), (np.array([1, 0, 0, 1]),
                                                          np.array([0, 1, 1, 2]))), shape=(2, 3))  # fmt: skip
    coo.data[1:3] = 1.0  # entry (0, 1) stored twice, summing to 2
    unsorted = sp.csr_matrix((np.array([3.0, 1.0, 2.0]), np.array([2, 0, 1]),
                              np.array([0, 0, 2, 3])), shape=(3, 3))[[1, 2]]  # fmt: skip
    before = (unsorted.indices.copy(), unsorted.data.copy())
    key = content_hash(sp.csr_matrix(dense))
    assert content_hash(sp.csc_array(dense)) == key
    assert content_hash(coo) == key
    assert content_hash(unsorted) == content_hash(sp.csr_matrix(unsorted.toarray()))
    np.testing.assert_array_equal(unsorted.indices, before[0])
    np.testing.assert_array_equal(unsorted.data, before[1])
    assert content_hash(sp.csr_matrix(dense * 2)) != key
    assert content_hash(sp.csr_matrix(np.vstack([dense, np.zeros(3)]))) != key
    assert content_hash(sp.csr_matrix(dense)) != content_hash(dense)
