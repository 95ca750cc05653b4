"""The on-disk cache on hostile folders: it deletes only its own files, never blocks or reads
without bound, and stays usable when it cannot be written."""

from __future__ import annotations

import errno
import json
import os
import threading
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from workbench import _files, _io
from workbench._cache_clear import NotACacheError, clear_cache
from workbench.cli import main as cli_main

TIMEOUT = 30


def _within(fn: Callable[[], Any], seconds: float = TIMEOUT) -> tuple[Any, list[str]]:
    """Run ``fn`` in a daemon thread; fail if it blocks. Returns its result and the messages
    of the CacheWarnings it emitted."""
    box: dict[str, Any] = {}

    def target() -> None:
        try:
            box["result"] = fn()
        except BaseException as exc:  # noqa: BLE001 - re-raised in the test's thread
            box["error"] = exc

    with warnings.catch_warnings(record=True) as rec:
        warnings.simplefilter("always")
        t = threading.Thread(target=target, daemon=True)
        t.start()
        t.join(seconds)
    assert not t.is_alive(), f"{fn} blocked for more than {seconds} s"
    if "error" in box:
        raise box["error"]
    return box.get("result"), [str(w.message) for w in rec if w.category is _io.CacheWarning]


def _build(value: float = 1.0) -> Callable[[], tuple[dict[str, np.ndarray], dict[str, float]]]:
    return lambda: ({"m": np.full(3, value)}, {"v": value})


def _entry(cache: _io.Cache, inputs: dict[str, int]) -> tuple[Path, Path]:
    cache.store(inputs, {"m": np.ones(3)}, {"v": 1})
    manifest = cache.folder / f"{cache.key(inputs)}.json"
    (data,) = cache.folder.glob(f"{cache.key(inputs)}-*.npz")
    return manifest, data


def _marked_cache(root: Path) -> _io.Cache:
    cache = _io.Cache("views", root=root)
    assert (cache.folder.parent / _io.CACHE_MARKER).is_file()
    return cache


# ------------------------------------------------------------------ clear


def test_clear_refuses_a_folder_without_the_marker(tmp_path, monkeypatch, capsys) -> None:
    home = tmp_path / "home"
    (home / "Documents").mkdir(parents=True)
    (home / "Documents" / "thesis.tex").write_text("chapter 1")
    (home / ".bashrc").write_text("alias ll='ls -l'")
    monkeypatch.setenv("WORKBENCH_CACHE", str(home))
    assert cli_main(["cache", "clear", "--yes"]) == 2
    err = capsys.readouterr().err
    assert str(home) in err and "not a workbench cache" in err and _io.CACHE_MARKER in err
    assert (home / "Documents" / "thesis.tex").read_text() == "chapter 1"
    assert (home / ".bashrc").exists() and not (home / _io.CACHE_MARKER).exists()


def test_a_root_without_the_marker_is_used_but_not_cleared(tmp_path, monkeypatch) -> None:
    (tmp_path / "notes.txt").write_text("mine")
    cache = _io.Cache("views", root=tmp_path)
    entry = cache.get_or_build({"e": 1}, _build())
    assert cache.load({"e": 1}) is not None and entry.meta == {"v": 1.0}
    assert not (tmp_path / _io.CACHE_MARKER).exists()
    with pytest.raises(NotACacheError, match="not a workbench cache"):
        clear_cache(tmp_path)
    assert (tmp_path / "notes.txt").read_text() == "mine"


def test_clear_removes_only_cache_files_and_lists_the_rest(tmp_path, monkeypatch, capsys) -> None:
    monkeypatch.setenv("WORKBENCH_CACHE", str(tmp_path))
    cache = _io.Cache("mvlsa/baselines")
    cache.get_or_build({"e": 1}, _build())
    (tmp_path / "notes.txt").write_text("mine")
    (cache.folder / "keep.txt").write_text("mine too")
    (tmp_path / "project").mkdir()
    (tmp_path / "project" / "data.csv").write_text("1,2")
    assert cli_main(["cache", "clear", "--yes"]) == 0
    out = capsys.readouterr().out
    assert not list(cache.folder.glob("*.json")) and not list(cache.folder.glob("*.lock"))
    assert (tmp_path / "notes.txt").read_text() == "mine"
    assert (cache.folder / "keep.txt").read_text() == "mine too"
    assert (tmp_path / "project" / "data.csv").exists()
    assert f"left {tmp_path / 'notes.txt'}" in out and f"left {cache.folder / 'keep.txt'}" in out
    assert "removed 3 cache item(s)" in out  # manifest, data file, lock file
    assert (tmp_path / _io.CACHE_MARKER).exists()


def test_clear_never_follows_a_symlink_out_of_the_cache(tmp_path, monkeypatch, capsys) -> None:
    root, user = tmp_path / "cache", tmp_path / "user"
    user.mkdir()
    (user / "paper.pdf").write_text("pdf")
    cache = _marked_cache(root)
    manifest, data = _entry(cache, {"e": 1})
    key = cache.key({"e": 1})
    (root / "docs").symlink_to(user)  # a symlinked folder in the root
    os.symlink(user / "paper.pdf", cache.folder / f"{key[:-1]}0-{'0' * 16}.npz")
    # a namespace folder that is a symlink to a user folder with a manifest naming it
    (user / manifest.name).write_text(manifest.read_text().replace('"views"', '"other"'))
    (root / "other").symlink_to(user)
    monkeypatch.setenv("WORKBENCH_CACHE", str(root))
    assert cli_main(["cache", "clear", "--yes"]) == 0
    out = capsys.readouterr().out
    assert (user / "paper.pdf").read_text() == "pdf" and (user / manifest.name).exists()
    assert (root / "docs").is_symlink() and f"left {root / 'docs'}" in out
    assert not os.path.lexists(cache.folder / f"{key[:-1]}0-{'0' * 16}.npz")  # the link only
    assert not manifest.exists() and not data.exists()


def test_clear_reports_what_it_cannot_remove(tmp_path, monkeypatch, capsys) -> None:
    cache = _marked_cache(tmp_path)
    manifest, data = _entry(cache, {"e": 1})
    monkeypatch.setenv("WORKBENCH_CACHE", str(tmp_path))

    def read_only(path: Any, *args: Any, **kwargs: Any) -> None:
        raise PermissionError(errno.EROFS, "Read-only file system", path)

    monkeypatch.setattr(os, "unlink", read_only)
    assert cli_main(["cache", "clear", "--yes"]) == 1
    captured = capsys.readouterr()
    assert f"cannot remove {manifest}: Read-only file system" in captured.err
    assert "removed 0 cache item(s)" in captured.out and "2 could not be removed" in captured.out
    assert manifest.exists() and data.exists()


@pytest.mark.parametrize("namespace", ["../x", "/etc", ".hidden", "a//b"])
def test_clear_refuses_a_namespace_out_of_the_root(tmp_path, monkeypatch, capsys, namespace):
    (tmp_path / "x").mkdir()
    (tmp_path / "x" / "f").write_text("mine")
    root = tmp_path / "cache"
    _entry(_marked_cache(root), {"e": 1})
    monkeypatch.setenv("WORKBENCH_CACHE", str(root))
    assert cli_main(["cache", "clear", "--namespace", namespace, "--yes"]) == 2
    err = capsys.readouterr().err
    assert "namespace" in err and repr(namespace) in err
    assert (tmp_path / "x" / "f").exists()


def test_clear_of_an_extracted_folder_removes_only_the_listed_files(tmp_path, monkeypatch, capsys):
    root = tmp_path / "cache"
    _marked_cache(root)
    tree = root / "wordnet-0123456789abcdef"
    (tree / "dict").mkdir(parents=True)
    (tree / "dict" / "index.noun").write_text("n")
    _io.write_tree_manifest(tree, source="x")
    (tree / "dict" / "mine.txt").write_text("added by the user")
    (root / ".wordnet-0123456789abcdef.lock").touch()
    monkeypatch.setenv("WORKBENCH_CACHE", str(root))
    assert cli_main(["cache", "clear", "--yes"]) == 0
    assert (tree / "dict" / "mine.txt").exists() and not (tree / "dict" / "index.noun").exists()
    assert not (tree / _io.TREE_MANIFEST).exists()
    assert not (root / ".wordnet-0123456789abcdef.lock").exists()
    assert f"left {tree / 'dict' / 'mine.txt'}" in capsys.readouterr().out


# ------------------------------------------------------------------ special files


@pytest.mark.parametrize("which", ["manifest", "data"])
def test_a_fifo_entry_never_blocks(tmp_path, which) -> None:
    cache = _io.Cache("views", root=tmp_path)
    manifest, data = _entry(cache, {"e": 1})
    fifo = manifest if which == "manifest" else data
    fifo.unlink()
    os.mkfifo(fifo)
    entry, messages = _within(lambda: cache.get_or_build({"e": 1}, _build(2.0)))
    assert np.array_equal(entry.arrays["m"], np.full(3, 2.0))
    assert any(str(fifo.name) in m and "FIFO" in m for m in messages), messages


def test_cache_list_and_verify_finish_on_special_files(tmp_path, monkeypatch, capsys) -> None:
    cache = _io.Cache("views", root=tmp_path)
    m1, _ = _entry(cache, {"e": 1})
    m2, d2 = _entry(cache, {"e": 2})
    m3, _ = _entry(cache, {"e": 3})
    m1.unlink()
    os.mkfifo(m1)
    d2.unlink()
    os.symlink("/dev/zero", d2)
    m3.unlink()
    m3.mkdir()
    monkeypatch.setenv("WORKBENCH_CACHE", str(tmp_path))
    code, _ = _within(lambda: cli_main(["cache", "list"]))
    out = capsys.readouterr().out
    assert code == 1 and f"INVALID: {m1} is a FIFO" in out and f"{m3} is a folder" in out
    code, _ = _within(lambda: cli_main(["cache", "verify"]))
    out = capsys.readouterr().out
    assert code == 1 and "3 invalid entries" in out
    assert "/dev/zero" in out and "outside the cache root" in out
    assert m1.exists() and m3.is_dir()  # special files are reported, never removed


def test_a_symlink_to_dev_zero_is_not_read(tmp_path) -> None:
    cache = _io.Cache("views", root=tmp_path)
    manifest, data = _entry(cache, {"e": 1})
    data.unlink()
    os.symlink("/dev/zero", data)
    hit, messages = _within(lambda: cache.load({"e": 1}))
    assert hit is None
    assert any(str(data) in m and "outside the cache root" in m for m in messages), messages
    assert not os.path.lexists(data)  # the link is removed, /dev/zero is untouched
    manifest, data = _entry(cache, {"e": 1})
    manifest.unlink()
    os.symlink("/dev/zero", manifest)
    entry, messages = _within(lambda: cache.get_or_build({"e": 1}, _build(3.0)))
    assert entry.meta == {"v": 3.0} and any("/dev/zero" in m for m in messages)


def test_a_huge_or_deeply_nested_manifest_is_invalid(tmp_path) -> None:
    cache = _io.Cache("views", root=tmp_path)
    manifest, _ = _entry(cache, {"e": 1})
    with open(manifest, "r+b") as fh:
        fh.truncate(_files.MANIFEST_LIMIT + 1)  # sparse: nothing is written
    hit, messages = _within(lambda: cache.load({"e": 1}))
    assert hit is None and any(f"{_files.MANIFEST_LIMIT} allowed" in m for m in messages)
    manifest, _ = _entry(cache, {"e": 1})
    manifest.write_text("[" * 200_000)
    hit, messages = _within(lambda: cache.load({"e": 1}))
    assert hit is None and any("RecursionError" in m for m in messages), messages


def test_a_manifest_that_is_a_folder_is_left_and_the_value_built(tmp_path) -> None:
    cache = _io.Cache("views", root=tmp_path)
    manifest = cache.folder / f"{cache.key({'e': 1})}.json"
    manifest.mkdir()
    (manifest / "mine.txt").write_text("mine")
    entry, messages = _within(lambda: cache.get_or_build({"e": 1}, _build(4.0)))
    assert entry.meta == {"v": 4.0} and (manifest / "mine.txt").exists()
    assert any(f"{manifest} is a folder" in m for m in messages)
    assert any("cannot be stored" in m and "folder is in the way" in m for m in messages)
    assert not list(cache.folder.glob("*.npz"))  # no half-stored entry


def test_a_data_file_path_with_dotdot_is_malformed(tmp_path) -> None:
    cache = _io.Cache("views", root=tmp_path)
    manifest, data = _entry(cache, {"e": 1})
    (tmp_path / "secret.npz").write_bytes(data.read_bytes())
    m = json.loads(manifest.read_text())
    m["data"]["file"] = f"{m['key']}-../../secret.npz"
    m["checksum"] = _io._manifest_checksum(m)
    manifest.write_text(json.dumps(m))
    with pytest.warns(_io.CacheWarning, match="data record malformed"):
        assert cache.load({"e": 1}) is None
    assert (tmp_path / "secret.npz").exists()


@pytest.mark.parametrize("kind", ["fifo", "folder", "symlink"])
def test_a_lock_file_that_is_not_a_file(tmp_path, kind) -> None:
    cache = _io.Cache("views", root=tmp_path)
    lock = cache.folder / f"{cache.key({'e': 1})}.lock"
    if kind == "fifo":
        os.mkfifo(lock)
    elif kind == "folder":
        lock.mkdir()
    else:
        os.symlink("/dev/zero", lock)
    entry, messages = _within(lambda: cache.get_or_build({"e": 1}, _build(5.0)))
    assert entry.meta == {"v": 5.0} and cache.load({"e": 1}) is not None
    assert any(f"lock file {lock} is not usable" in m for m in messages), messages
    assert os.path.lexists(lock)


def test_a_namespace_folder_linked_out_of_the_root_is_not_used(tmp_path) -> None:
    root, user = tmp_path / "cache", tmp_path / "user"
    user.mkdir()
    _marked_cache(root)
    (root / "views").rmdir()
    (root / "views").symlink_to(user)
    cache = _io.Cache("views", root=root)
    with pytest.warns(_io.CacheWarning) as rec:
        entry = cache.get_or_build({"e": 1}, _build(6.0))
    assert entry.meta == {"v": 6.0} and list(user.iterdir()) == []
    (msg,) = [str(w.message) for w in rec]
    assert f"resolves to {user}, outside the cache root" in msg and str(root / "views") in msg
    with pytest.raises(OSError, match="outside the cache root"):
        cache.store({"e": 1}, {"m": np.ones(2)})
    assert list(user.iterdir()) == []


def test_verify_tree_never_reads_special_files(tmp_path) -> None:
    tree = tmp_path / "tree"
    tree.mkdir()
    (tree / "a.txt").write_text("alpha")
    _io.write_tree_manifest(tree)
    os.mkfifo(tree / "b")
    problem, _ = _within(lambda: _io.verify_tree(tree))
    assert "b" in problem and "FIFO" in problem
    with pytest.raises(ValueError, match="FIFO"):
        _io.write_tree_manifest(tree)
    (tree / "b").unlink()
    (tree / _io.TREE_MANIFEST).unlink()
    os.mkfifo(tree / _io.TREE_MANIFEST)
    problem, _ = _within(lambda: _io.verify_tree(tree))
    assert "manifest" in problem and "FIFO" in problem


def test_a_manifest_in_the_root_or_a_dot_folder_is_no_namespace(tmp_path, monkeypatch, capsys):
    cache = _io.Cache("views", root=tmp_path)
    manifest, _ = _entry(cache, {"e": 1})
    (tmp_path / manifest.name).write_text(manifest.read_text().replace('"views"', '"."'))
    monkeypatch.setenv("WORKBENCH_CACHE", str(tmp_path))
    assert cli_main(["cache", "list"]) == 0
    assert [c.namespace for c in _io.iter_entries(tmp_path)] == ["views"]


# ------------------------------------------------------------------ cannot write


def _refuse_writes(monkeypatch, folder: Path, error: int) -> None:
    real_open = os.open
    writes = os.O_WRONLY | os.O_RDWR | os.O_CREAT

    def fake_open(path: Any, flags: int, *args: Any, **kwargs: Any) -> int:
        if flags & writes and str(path).startswith(str(folder)):
            raise OSError(error, os.strerror(error), str(path))
        return real_open(path, flags, *args, **kwargs)

    monkeypatch.setattr(os, "open", fake_open)


def test_a_read_only_cache_is_read_and_builds_without_storing(tmp_path, monkeypatch) -> None:
    cache = _io.Cache("views", root=tmp_path)
    cache.store({"e": 1}, {"m": np.ones(3)}, {"v": 1})
    before = sorted(cache.folder.iterdir())
    _refuse_writes(monkeypatch, tmp_path, errno.EROFS)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        hit = cache.get_or_build({"e": 1}, _build(9.0))  # read without the lock, no warning
    assert hit.meta == {"v": 1}
    with pytest.warns(_io.CacheWarning) as rec:
        entry = cache.get_or_build({"e": 2}, _build(7.0))
    assert entry.meta == {"v": 7.0} and np.array_equal(entry.arrays["m"], np.full(3, 7.0))
    (msg,) = [str(w.message) for w in rec]
    assert str(cache.folder) in msg and "Read-only file system" in msg
    assert sorted(cache.folder.iterdir()) == before


def test_a_cache_root_that_cannot_be_created(tmp_path, monkeypatch) -> None:
    root = tmp_path / "ro" / "cache"

    def refuse(*args: Any, **kwargs: Any) -> None:
        raise PermissionError(errno.EACCES, "Permission denied", str(root))

    monkeypatch.setattr(os, "mkdir", refuse)
    monkeypatch.setenv("WORKBENCH_CACHE", str(root))
    assert _io.cache_root() == root
    with pytest.warns(_io.CacheWarning, match="cannot be stored"):
        entry = _io.Cache("views").get_or_build({"e": 1}, _build(8.0))
    assert entry.meta == {"v": 8.0}


def test_a_cache_root_that_is_a_file(tmp_path, monkeypatch, capsys) -> None:
    (tmp_path / "file").write_text("mine")
    monkeypatch.setenv("WORKBENCH_CACHE", str(tmp_path / "file"))
    assert cli_main(["cache", "list"]) == 2
    err = capsys.readouterr().err
    assert str(tmp_path / "file") in err and "not a folder" in err
    assert (tmp_path / "file").read_text() == "mine"


def test_a_full_disk_returns_the_built_value(tmp_path, monkeypatch) -> None:
    cache = _io.Cache("views", root=tmp_path)

    def full(fd: int, data: Any) -> int:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "write", full)
    with pytest.warns(_io.CacheWarning) as rec:
        entry = cache.get_or_build({"e": 1}, _build(2.5))
    assert np.array_equal(entry.arrays["m"], np.full(3, 2.5))
    (msg,) = [str(w.message) for w in rec]
    assert "No space left on device" in msg and f"{cache.key({'e': 1})}-" in msg
    left = [p.name for p in cache.folder.iterdir()]
    assert left == [f"{cache.key({'e': 1})}.lock"], left  # no data file, manifest or temporary
