"""The caches are checked data (tilec/cache.py): one root, folders that are the user's alone,
entries sealed with their key and digest, and a bad entry deleted with a warning and built
again, never shipped. The graph, picks and proofs caches have their poisoned-entry tests
beside their other tests (pytorch/test_graph_cache.py, tune/test_pick.py)."""

from __future__ import annotations

import hashlib
import os
import zipfile

import pytest

from conftest import EXAMPLES
from tilec import cache


@pytest.fixture(autouse=True)
def _root(tmp_path, monkeypatch):
    monkeypatch.setenv("TILEC_CACHE_DIR", str(tmp_path / "root"))


def _sealed(key: str, payload: bytes) -> bytes:
    return b"tilec-cache/1 " + key.encode() + b" " + hashlib.sha256(payload).hexdigest().encode() + b"\n" + payload


def test_every_cache_lives_under_one_root(tmp_path, monkeypatch):
    shared = tmp_path / "compiler"  # the C++ compiler's cache, where one is named apart
    monkeypatch.setenv("TILEC_CPU_CACHE_DIR", str(shared))
    assert cache.where("cpu") == shared and cache.where("picks") == tmp_path / "root" / "picks"
    monkeypatch.delenv("TILEC_CPU_CACHE_DIR")
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


def test_a_group_writable_cache_dir_is_refused(tmp_path, capsys):
    """A root others may write to could hold a planted entry: it is not read nor written,
    with a warning; the pick is still made."""
    from tilec.frontend import read_spec
    from tilec.tune.pick import pick_schedule

    root = tmp_path / "root"
    root.mkdir()
    os.chmod(root, 0o775)
    spec = str(EXAMPLES / "gemm.ta")
    assert pick_schedule(spec, read_spec(spec), {}, ("sm_80",)) is not None
    assert not any(root.iterdir())
    assert f"tilec: warning: cache directory {root} is writable by group or others (mode 775)" in \
        capsys.readouterr().err
    os.chmod(root, 0o755)  # made the user's alone: used again
    pick_schedule(spec, read_spec(spec), {}, ("sm_80",))
    assert len(list((root / "picks").iterdir())) == 1


def test_a_cache_dir_of_another_user_is_refused(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(os, "geteuid", lambda: os.stat(tmp_path).st_uid + 1)
    cache.write("proofs", "k.json", "k", b"{}")
    assert cache.read("proofs", "k.json", "k", "again") is None
    assert not (tmp_path / "root" / "proofs" / "k.json").exists()
    err = capsys.readouterr().err
    assert f"cache directory {tmp_path / 'root'} is owned by another user" in err and "not caching" in err


# -- the kernel cache ------------------------------------------------------------------------

GEMM = ("compile", EXAMPLES / "gemm.ta", "--target", "sm_80", "--schedule", "bm=64,bn=64,bk=32", "--no-verify")


def _manifest(path) -> dict:
    import json

    return json.loads(zipfile.ZipFile(path).read("manifest.json"))


def _entry(tmp_path):
    (entry,) = (tmp_path / "root" / "kernels").glob("*.tkp")
    return entry


@pytest.fixture
def gemm_entry(tilec, tmp_path):
    """A gemm package built through the kernel cache, and its entry there."""
    pytest.importorskip("cuda.bindings.nvrtc", reason="NVRTC comes with the 'cuda' extra")
    status, out, err = tilec(*GEMM, "-o", tmp_path / "first.tkp")
    assert status == 0, err
    return _entry(tmp_path)


def test_a_planted_package_of_another_spec_is_not_shipped(tilec, tmp_path, gemm_entry):
    """The package of softmax.ta put in place of gemm's entry (as it is, or sealed with gemm's
    key) is discarded with a warning; the output is gemm's package, built again."""
    status, _, err = tilec("compile", EXAMPLES / "softmax.ta", "--target", "sm_80", "--no-verify",
                           "-o", tmp_path / "softmax.tkp", "--no-cache")
    assert status == 0, err
    planted = (tmp_path / "softmax.tkp").read_bytes()
    gemm_text = (EXAMPLES / "gemm.ta").read_text()
    for data, why in ((planted, "has no seal"), (_sealed(gemm_entry.stem, planted), "is the package of another spec")):
        gemm_entry.write_bytes(data)
        status, out, err = tilec(*GEMM, "-o", tmp_path / "out.tkp")
        assert status == 0 and "from the cache" not in out, out + err
        assert f"tilec: warning: cache entry kernels/{gemm_entry.name} {why}" in err
        assert _manifest(tmp_path / "out.tkp")["spec"]["text"] == gemm_text
    status, out, err = tilec(*GEMM, "-o", tmp_path / "again.tkp")  # the entry written again is used
    assert status == 0 and "from the cache" in out and not err
    assert _manifest(tmp_path / "again.tkp")["spec"]["text"] == gemm_text


def test_a_truncated_kernel_entry_is_rebuilt(tilec, tmp_path, gemm_entry):
    from tilec.runtime import read_package

    gemm_entry.write_bytes(gemm_entry.read_bytes()[:2000])
    status, out, err = tilec(*GEMM, "-o", tmp_path / "out.tkp")
    assert status == 0 and "from the cache" not in out, out + err
    assert f"cache entry kernels/{gemm_entry.name} does not match its seal" in err and "discarded" in err
    package = read_package(str(tmp_path / "out.tkp"))
    assert [package.kernel(t)["kernel"] for t in package.targets] == ["gemm"] * len(package.targets)


def test_a_bad_graph_kernel_entry_is_rebuilt(tmp_path, gemm_entry, capfd):
    """A PyTorch graph's package (``graph-<key>.tkp``): one that fails its seal, or is sealed but
    does not load, is discarded and built again."""
    from tilec.pytorch.api import _cached_package

    key, name = "ef" * 32, f"graph-{'ef' * 32}.tkp"
    package, built = (tmp_path / "first.tkp").read_bytes(), []

    def build(path):
        built.append(path)
        open(path, "wb").write(package)

    for data, why in ((package[:1000], "has no seal"), (_sealed(key, package[:1000]), "is not a readable package")):
        (tmp_path / "root" / "kernels" / name).write_bytes(data)
        built.clear()
        capfd.readouterr()
        assert _cached_package(name, key, build).name == "gemm" and built
        assert f"cache entry kernels/{name} {why}" in capfd.readouterr().err
    built.clear()
    assert _cached_package(name, key, build).name == "gemm" and not built  # read back, not built
