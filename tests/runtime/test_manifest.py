"""A package's proof holds for the bytes that run: every edit of a field or file the runtime
reads (tests/tamper.py) is refused by tilec.runtime.load with one PackageError when the seal or
the shipped report gives it away, and is never reported as proved by tilec verify PKG.tkp."""

import io
import json
import zipfile

import pytest

from conftest import ROOT, EXAMPLES
from tamper import EDITS, edited, read, write
from tilec.diagnostics import TilecError
from tilec.runtime import PackageError, load, read_package
from tilec.runtime.manifest import seal
from tilec.runtime.package import sha256
from tilec.codegen.compile import forget_compiled
from tilec.build.verification_package import verify_package

GEMM = "param M = 64, N = 48, K = 32\n" + "".join((EXAMPLES / "gemm.ta").read_text().partition("input")[1:])


@pytest.fixture(scope="module")
def good(tmp_path_factory) -> bytes:
    """A verified GEMM package for sm_80 (sizes fixed small: a fast rebuild)."""
    from tilec.build.package import build

    where = tmp_path_factory.mktemp("good")
    (where / "gemm.ta").write_text(GEMM)
    build(str(where / "gemm.ta"), str(where / "gemm.tkp"), targets=("sm_80",), use_cache=False)
    return (where / "gemm.tkp").read_bytes()


def _write(tmp_path, data: bytes, name: str = "x.tkp") -> str:
    path = tmp_path / name
    path.write_bytes(data)
    return str(path)


def _proved(path: str) -> list:
    try:
        return [r for r in verify_package(path).results if r.verdict == "proved"]
    except TilecError:
        return []


def test_the_good_package_loads_and_is_proved_with_its_bytes(good, tmp_path):
    path = _write(tmp_path, good)
    kernel = load(path, register_op=False)
    report = json.loads(kernel.package.files["verify.json"])
    assert report["package_seal"] == kernel.package.manifest["seal"] == seal(kernel.package.manifest)
    rows = verify_package(path).results
    assert rows[0].stage == "package" and rows[0].verdict == "proved"
    assert not [r for r in rows if r.verdict not in ("proved", "tested")]


def test_a_package_is_proved_from_another_directory_than_it_was_built_in(good, tmp_path, monkeypatch):
    """The cubins are a function of the source and the options alone (no build directory in
    them), so the rebuild of `tilec verify PKG.tkp` gives the very bytes wherever it runs."""
    path = _write(tmp_path, good)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    forget_compiled()  # compiled again, here
    rows = verify_package(path).results
    assert rows[0].stage == "package" and rows[0].verdict == "proved", rows[0].detail


@pytest.mark.parametrize("edit", sorted(EDITS))
@pytest.mark.parametrize("way", ["unsealed", "resealed"])
def test_an_edit_the_seal_or_report_gives_away_is_one_package_error(good, tmp_path, edit, way):
    with pytest.raises(PackageError, match="seal|proves another package|must be"):
        load(_write(tmp_path, edited(good, EDITS[edit], way)), register_op=False)


@pytest.mark.parametrize("edit", sorted(EDITS))
def test_a_forged_package_is_never_proved(good, tmp_path, edit):
    """Consistent in itself (seal and report rewritten): only the rebuild tells, and it does."""
    path = _write(tmp_path, edited(good, EDITS[edit], "forged"))
    assert _proved(path) == []


def test_a_forged_package_names_the_field_that_differs(good, tmp_path):
    path = _write(tmp_path, edited(good, EDITS["grid-halved"], "forged"))
    (row,) = verify_package(path).results
    assert row.verdict == "error" and "'grid' is" in row.detail and "not run" in row.detail


def test_the_unverified_package_is_sealed_too(tmp_path):
    from tilec.build.package import build

    (tmp_path / "gemm.ta").write_text(GEMM)
    build(str(tmp_path / "gemm.ta"), str(tmp_path / "u.tkp"), targets=("sm_80",), use_cache=False, verify=False)
    data = (tmp_path / "u.tkp").read_bytes()
    assert "verify.json" not in read_package(str(tmp_path / "u.tkp")).files
    with pytest.raises(PackageError, match="seal"):
        read_package(_write(tmp_path, edited(data, EDITS["threads-32"], "unsealed"), "v.tkp"))


@pytest.mark.parametrize("field, value, message", [
    ("threads", "128", "'threads'"), ("threads", 2000, "'threads'"), ("threads", 100, "'threads'"),
    ("smem_bytes", -1, "'smem_bytes'"), ("grid", [], "'grid'"), ("grid", [["%", "M", 2]], "'grid'"),
    ("args", {"A": 1}, "'args'"), ("args", [{"role": "input"}], "'args'"), ("params", "M", "'params'"),
    ("variants", {}, "'variants'"), ("variants", {"fast": "gemm"}, "'variants'"),
    ("tensor_maps", [{"arg": "Z", "box": [64], "swizzle": 128}], "'tensor_maps'"),
    ("tensor_maps", [{"arg": "A", "box": [64, 0], "swizzle": 128}], "'tensor_maps'"),
    ("tensor_maps", [{"arg": "A", "box": [64], "swizzle": 100}], "'tensor_maps'"),
    ("persistent", "yes", "'persistent'"), ("kernel", "not a name", "'kernel'"),
    ("cubin", "missing.cubin", "missing.cubin"), ("source", 3, "'source'"),
])
def test_a_malformed_launch_field_is_one_package_error(good, tmp_path, field, value, message):
    """Sealed and all (a package written so): the field's kind is checked before a launch reads it."""
    def edit(m, f):
        m[field] = value
    with pytest.raises(PackageError, match=message):
        read_package(_write(tmp_path, edited(good, edit, "forged")))


def test_a_cubin_that_is_no_elf_image_is_refused(good, tmp_path):
    with pytest.raises(PackageError, match="ELF"):
        read_package(_write(tmp_path, edited(good, EDITS["cubin-zeroed"], "forged")))


def test_a_package_of_the_previous_format_says_to_rebuild(good, tmp_path):
    manifest, files = read(good)
    manifest["format"] = "tilec.package/2"
    with pytest.raises(PackageError, match="tilec.package/3"):
        read_package(_write(tmp_path, write(manifest, files)))


def test_the_report_shipped_binds_the_seal(good, tmp_path):
    """A report from another build of the same kernel (its seal another package's) is refused."""
    manifest, files = read(good)
    report = json.loads(files["verify.json"])
    report["package_seal"] = "0" * 64
    files["verify.json"] = json.dumps(report).encode()
    manifest["files"]["verify.json"] = sha256(files["verify.json"])
    with pytest.raises(PackageError, match="proves another package"):
        read_package(_write(tmp_path, write(manifest, files)))
    with zipfile.ZipFile(io.BytesIO(good)) as archive:
        assert json.loads(archive.read("verify.json"))["package_seal"] == manifest["seal"]


MALFORMED = sorted((ROOT / "tests" / "malformed" / "pkg").glob("*.tkp"))


@pytest.mark.parametrize("path", MALFORMED, ids=[p.stem for p in MALFORMED])
def test_the_runtime_reads_a_malformed_package_as_data(path):
    """Every package of the malformed corpus: tilec.runtime.load gives a PackageError or a kernel,
    never another exception (a manifest the corpus breaks is always a PackageError)."""
    try:
        load(str(path), register_op=False)
    except PackageError:
        return
    assert not path.stem.startswith("manifest-"), f"{path.name} loaded"
