"""The kernel package format: a zip with manifest.json and, per target, a kernel: its CUDA
source and its cubin.

manifest.json holds the source the package was built from (``spec``), ``files`` (name ->
sha256) and ``kernels``: per target, the launch manifest of the kernel built for it by that
target's own pipeline and schedule (an sm_80 kernel and a warp-specialised sm_90a one, say),
naming its ``source`` and ``cubin``. Reading a package checks every hash before anything is
loaded, so a cubin that does not belong to its manifest is refused; the runtime launches the
kernel of the target the GPU runs (runtime/targets.py ``cubin_target``):

    package = read_package("gemm.tkp")
    package.targets                      # ("sm_80", "sm_90a")
    package.kernel("sm_90a")["schedule"] # "bm=128,bn=256,...,consumers=2"
"""

from __future__ import annotations

import hashlib
import json
import re
import zipfile
from dataclasses import dataclass

from .manifest import REPORT, check_launch, check_seal, seal, sealed_report

# /2: the manifest is sealed (runtime/manifest.py); /3: one kernel per target, each its own launch manifest
FORMAT = "tilec.package/3"
TARGET_NAME = re.compile(r"sm_(\d+)(\d)(a?)")  # sm_80, sm_90a: (major, minor, arch-specific)
MAX_KERNELS = 8  # targets one package holds at most


class PackageError(ValueError):
    """A package that is malformed, tampered with, or of another format version."""


@dataclass(frozen=True)
class Package:
    manifest: dict
    files: dict  # name -> bytes

    @property
    def targets(self) -> tuple:
        """The targets the package holds a kernel for, in the order they were built."""
        return tuple(self.manifest["kernels"])

    def kernel(self, target: str) -> dict:
        """The launch manifest of the kernel built for ``target`` (PackageError when there is none)."""
        entry = self.manifest["kernels"].get(target)
        if entry is None:
            raise PackageError(f"no kernel for {target} in this package (it has: {', '.join(self.targets)})")
        return entry

    def cubin(self, target: str) -> bytes:
        return self.files[self.kernel(target)["cubin"]]


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def read_package(path: str) -> Package:
    """Read and check a .tkp file: its manifest's fields (runtime/manifest.py), every file's hash,
    and the seal that binds them to the report that proved them."""
    manifest, files = read_checked(path, "manifest.json", _check_manifest)
    for target, entry in manifest["kernels"].items():
        check_launch(entry, files, f"{path} ({target})", PackageError, dim_ok)
    check_seal(manifest, files, path, PackageError)
    return Package(manifest, files)


def read_checked(path, index: str, check) -> tuple[dict, dict]:
    """(index, files) of a zip whose JSON ``index`` (checked by ``check(index, path)``) lists its
    files by sha256 under "files"; every hash is checked, the size unpacked bounded."""
    try:
        with zipfile.ZipFile(path) as archive:
            unpacked = sum(info.file_size for info in archive.infolist())
            if unpacked > MAX_UNPACKED:  # a zip bomb, or not a kernel package
                raise PackageError(f"{path}: {unpacked} bytes unpacked; a package holds at most {MAX_UNPACKED}")
            manifest = json.loads(archive.read(index))
            check(manifest, path)
            files = {name: archive.read(name) for name in manifest["files"]}
    except (OSError, KeyError, zipfile.BadZipFile, json.JSONDecodeError, UnicodeDecodeError, RecursionError) as err:
        raise PackageError(f"{path}: not a readable tilec package ({err})") from None
    for name, digest in manifest["files"].items():
        if sha256(files[name]) != digest:
            raise PackageError(f"{path}: {name} does not match its hash in {index}")
    return manifest, files


MAX_UNPACKED = 64 * 1024 * 1024
# manifest fields read before anything is trusted: name -> type (a manifest is data, checked as such)
_SCHEDULE = re.compile(r"([a-z][a-z0-9-]*=[A-Za-z0-9_]+(,[a-z][a-z0-9-]*=[A-Za-z0-9_]+)*)?")
_MANIFEST = {"format": str, "files": dict, "spec": dict, "kernels": dict}
_KERNEL = {"kernel": str, "schedule": str, "source": str, "cubin": str}


def dim_ok(tree, depth: int = 0) -> bool:
    """Whether ``tree`` is a dimension expression as manifests hold it: a size >= 0, a parameter
    name, or [op, a, b] with op one of + - * / (nested at most 32 deep)."""
    if isinstance(tree, bool):
        return False
    if isinstance(tree, int):
        return tree >= 0
    if isinstance(tree, str):
        return tree.isidentifier()
    return isinstance(tree, list) and len(tree) == 3 and tree[0] in ("+", "-", "*", "/") and depth < 32 \
        and dim_ok(tree[1], depth + 1) and dim_ok(tree[2], depth + 1)


def _check_manifest(manifest, path: str) -> None:
    if not isinstance(manifest, dict):
        raise PackageError(f"{path}: manifest.json is not a JSON object")
    if manifest.get("format") != FORMAT:
        raise PackageError(f"{path}: format {manifest.get('format')!r}, expected {FORMAT!r}")
    for key, kind in _MANIFEST.items():
        if not isinstance(manifest.get(key), kind):
            raise PackageError(f"{path}: manifest.json needs '{key}' ({kind.__name__})")
    if not all(isinstance(k, str) and isinstance(v, str) for k, v in manifest["files"].items()):
        raise PackageError(f"{path}: manifest.json 'files' must map names to sha256 digests")
    if not all(isinstance(manifest["spec"].get(k), str) for k in ("file", "text")):
        raise PackageError(f"{path}: manifest.json 'spec' needs 'file' and 'text'")
    kernels = manifest["kernels"]
    if not 1 <= len(kernels) <= MAX_KERNELS or not all(TARGET_NAME.fullmatch(t) for t in kernels):
        raise PackageError(f"{path}: manifest.json 'kernels' must map 1 to {MAX_KERNELS} targets (sm_80, sm_90a, "
                           f"...) to their kernels")
    for target, entry in kernels.items():
        _check_kernel(entry, manifest["files"], f"{path}: manifest.json 'kernels' {target}")


def _check_kernel(entry, files: dict, where: str) -> None:
    """The fields of one target's kernel read before the launch fields (manifest.check_launch)."""
    if not isinstance(entry, dict):
        raise PackageError(f"{where} is not a JSON object")
    for key, kind in _KERNEL.items():
        if not isinstance(entry.get(key), kind):
            raise PackageError(f"{where} needs '{key}' ({kind.__name__})")
    for key in ("source", "cubin"):
        if entry[key] not in files:
            raise PackageError(f"{where}: its {key} {entry[key]!r} is not among the package's files")
    if not _SCHEDULE.fullmatch(entry["schedule"]):  # it is spliced into a pass pipeline: KEY=VALUE items only
        raise PackageError(f"{where}: 'schedule' is not KEY=VALUE,...")
    fixed = entry.get("fixed", {})
    if not isinstance(fixed, dict) or not all(isinstance(v, int) and 1 <= v < 2**31 for v in fixed.values()):
        raise PackageError(f"{where}: 'fixed' must map names to sizes")
    ranges = entry.get("ranges", {})
    if not isinstance(ranges, dict) or not all(
            isinstance(r, list) and len(r) == 2 and all(isinstance(v, int) and not isinstance(v, bool) for v in r)
            and 1 <= r[0] <= r[1] < 2**31 for r in ranges.values()):
        raise PackageError(f"{where}: 'ranges' must map names to [low, high] sizes")


def write_package(path: str, manifest: dict, files: dict) -> None:
    """Write a package (used by the compiler; the hashes and the seal are filled in here, and a
    verification report among ``files`` is given the seal of the package it ships in)."""
    files = dict(files)
    manifest = dict(manifest, format=FORMAT, files={name: sha256(data) for name, data in files.items()})
    manifest.pop("seal", None)
    manifest["seal"] = seal(manifest)
    if REPORT in files:
        files[REPORT] = sealed_report(files[REPORT], manifest["seal"])
        manifest["files"][REPORT] = sha256(files[REPORT])
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("manifest.json", json.dumps(manifest, indent=2, sort_keys=True))
        for name, data in files.items():
            archive.writestr(name, data)
