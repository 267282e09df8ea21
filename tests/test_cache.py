"""The caches are checked data (tilec/cache.py): one root, folders that are the user's alone,
entries sealed with their key and digest, and a bad entry deleted with a warning and built
again, never shipped."""

from __future__ import annotations

import hashlib
import os

import pytest

from tilec import cache


@pytest.fixture(autouse=True)
def _root(tmp_path, monkeypatch):
    monkeypatch.setenv("TILEC_CACHE_DIR", str(tmp_path / "root"))


def _sealed(key: str, payload: bytes) -> bytes:
    return b"tilec-cache/1 " + key.encode() + b" " + hashlib.sha256(payload).hexdigest().encode() + b"\n" + payload


def test_every_cache_lives_under_one_root(tmp_path, monkeypatch):
    for kind in cache.KINDS:
        assert cache.folder(kind) == tmp_path / "root" / kind
        assert (tmp_path / "root" / kind).stat().st_mode & 0o777 == 0o700
    assert (tmp_path / "root").stat().st_mode & 0o777 == 0o700
    assert sorted(p.name for p in (tmp_path / "root").iterdir()) == sorted(cache.KINDS)
    monkeypatch.delenv("TILEC_CACHE_DIR")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert cache.where("picks") == tmp_path / "home" / ".cache" / "tilec" / "picks"


def test_a_sealed_entry_reads_back_and_a_bad_one_is_discarded(capsys):
    key = "ab" * 32
    cache.write("picks", f"{key}.json", key, b'{"schedule": null}')
    assert cache.read("picks", f"{key}.json", key, "again") == b'{"schedule": null}'
    entry = cache.where("picks") / f"{key}.json"
    cases = {"was written for another key": _sealed("cd" * 32, b"{}"),
             "does not match its seal": entry.read_bytes()[:-3],
             "has no seal": b'{"schedule": null}'}
    for why, data in cases.items():
        entry.write_bytes(data)
        assert cache.read("picks", f"{key}.json", key, "again") is None
        assert f"tilec: warning: cache entry picks/{key}.json {why}" in capsys.readouterr().err
        assert not entry.exists()
    with pytest.raises(ValueError):
        cache.read("picks", "../kernels/x.tkp", key, "again")


def test_a_cache_dir_of_another_user_is_refused(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(os, "geteuid", lambda: os.stat(tmp_path).st_uid + 1)
    cache.write("proofs", "k.json", "k", b"{}")
    assert cache.read("proofs", "k.json", "k", "again") is None
    assert not (tmp_path / "root" / "proofs" / "k.json").exists()
    err = capsys.readouterr().err
    assert f"cache directory {tmp_path / 'root'} is owned by another user" in err and "not caching" in err
