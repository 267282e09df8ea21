"""The kernel package format: a zip with manifest.json, the CUDA source, a cubin per target.

manifest.json holds, among others, ``files``: name -> sha256. Reading a package
checks every hash before anything is loaded, so a cubin that does not belong to
its manifest is refused.
"""

from __future__ import annotations

import hashlib
import json
import re
import zipfile
from dataclasses import dataclass

from .manifest import REPORT, check_launch, check_seal, seal, sealed_report

FORMAT = "tilec.package/2"  # /2: the manifest is sealed (runtime/manifest.py)


class PackageError(ValueError):
    """A package that is malformed, tampered with, or of another format version."""


@dataclass(frozen=True)
class Package:
    manifest: dict
    files: dict  # name -> bytes

    def cubin(self, target: str) -> bytes:
        name = self.manifest["targets"].get(target)
        if name is None:
            raise PackageError(f"no cubin for {target} in this package (it has: "
                               f"{', '.join(self.manifest['targets'])})")
        return self.files[name]


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def read_package(path: str) -> Package:
    """Read and check a .tkp file: its manifest's fields (runtime/manifest.py), every file's hash,
    and the seal that binds them to the report that proved them."""
    manifest, files = read_checked(path, "manifest.json", _check_manifest)
    check_launch(manifest, files, path, PackageError, dim_ok)
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
_MANIFEST = {"format": str, "files": dict, "kernel": str, "spec": dict, "schedule": str, "targets": dict}


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
    if f"{manifest['kernel']}.cu" not in manifest["files"]:
        raise PackageError(f"{path}: manifest.json lists no CUDA source for kernel '{manifest['kernel']}'")
    if not _SCHEDULE.fullmatch(manifest["schedule"]):  # it is spliced into a pass pipeline: KEY=VALUE items only
        raise PackageError(f"{path}: manifest.json 'schedule' is not KEY=VALUE,...")
    for role in ("inputs", "outputs"):
        specs = manifest.get(role, [])
        if not isinstance(specs, list) or not all(isinstance(x, dict) and isinstance(x.get("dims"), list) and
                                                  all(dim_ok(d) for d in x["dims"]) for x in specs):
            raise PackageError(f"{path}: manifest.json '{role}' must give each tensor's dims as sizes, names "
                               f"or [op, a, b]")
    fixed = manifest.get("fixed", {})
    if not isinstance(fixed, dict) or not all(isinstance(v, int) and 1 <= v < 2**31 for v in fixed.values()):
        raise PackageError(f"{path}: manifest.json 'fixed' must map names to sizes")
    ranges = manifest.get("ranges", {})
    if not isinstance(ranges, dict) or not all(
            isinstance(r, list) and len(r) == 2 and all(isinstance(v, int) and not isinstance(v, bool) for v in r)
            and 1 <= r[0] <= r[1] < 2**31 for r in ranges.values()):
        raise PackageError(f"{path}: manifest.json 'ranges' must map names to [low, high] sizes")


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
