"""bench/same_code.py tells two builds of a kernel apart by what runs: the same source, the same
machine code under a different source (a comment, a cubin's symbol table), or different code or
launch; and repackages the old code in the new package for a timed A/B."""

import io
import json
import struct
import subprocess
import sys
import zipfile

import pytest

from conftest import ROOT

sys.path.insert(0, str(ROOT))

from bench import same_code  # noqa: E402
from tilec.runtime.package import read_package  # noqa: E402


@pytest.fixture(scope="module")
def package(tmp_path_factory):
    spec = tmp_path_factory.mktemp("same") / "scale.ta"
    spec.write_text("param M = 7, N = 37\ninput X[M, N] : f32\noutput Y[M, N] : f32\nY[i, j] = X[i, j] * 3.5\n")
    path = spec.with_suffix(".tkp")
    done = subprocess.run([sys.executable, "-m", "tilec", "compile", str(spec), "-o", str(path), "--target", "sm_90a"],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return path


def _edited(path, tmp_path, name, edit):
    """A copy of package ``path`` with each member whose name ends with ``name`` edited."""
    out = tmp_path / f"edited-{len(list(tmp_path.iterdir()))}.tkp"
    with zipfile.ZipFile(path) as src, zipfile.ZipFile(out, "w") as dst:
        for member in src.namelist():
            data = src.read(member)
            dst.writestr(member, edit(data) if member.endswith(name) else data)
    return out


def _kind(a, b):
    return same_code.compare(same_code.members(zipfile.ZipFile(a)), same_code.members(zipfile.ZipFile(b)))


def _flip_text(cubin: bytes) -> bytes:
    """The cubin with one byte of its first .text section changed."""
    shoff, = struct.unpack_from("<Q", cubin, 0x28)
    entsize, count, names_at = struct.unpack_from("<HHH", cubin, 0x3A)
    heads = [struct.unpack_from("<IIQQQQIIQQ", cubin, shoff + i * entsize) for i in range(count)]
    names = heads[names_at][4]
    for name_off, _, _, _, offset, size, *_ in heads:
        if cubin[names + name_off:].startswith(b".text.") and size:
            return cubin[:offset] + bytes([cubin[offset] ^ 1]) + cubin[offset + 1:]
    raise AssertionError("no .text section")


def test_same_source_same_code_and_different(package, tmp_path):
    assert _kind(package, package) == "same source"
    commented = _edited(package, tmp_path, ".cu", lambda data: data + b"\n// a comment\n")
    assert _kind(package, commented) == "same machine code"
    assert _kind(package, _edited(package, tmp_path, ".cubin", _flip_text)) == "differ"

    def other_grid(data):
        manifest = json.loads(data)
        manifest["kernels"]["sm_90a"]["threads"] *= 2
        return json.dumps(manifest).encode()
    assert _kind(package, _edited(package, tmp_path, "manifest.json", other_grid)) == "differ"


def test_the_old_code_repackaged_in_the_new_package_reads_back(package, tmp_path):
    old = _edited(package, tmp_path, ".cu", lambda data: data + b"\n// the old source\n")
    out = tmp_path / "a.tkp"
    same_code.repackage(old, package, out)
    read = read_package(str(out))  # hashes and seal checked
    source = next(data for name, data in read.files.items() if name.endswith(".cu"))
    assert source.endswith(b"// the old source\n") and "verify.json" not in read.files
    assert io.BytesIO(out.read_bytes()).getbuffer().nbytes > 0
