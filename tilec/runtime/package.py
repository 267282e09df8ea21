"""The kernel package format: a zip with manifest.json, the CUDA source, a cubin per target.

manifest.json holds, among others, ``files``: name -> sha256. Reading a package
checks every hash before anything is loaded, so a cubin that does not belong to
its manifest is refused.
"""

from __future__ import annotations

import hashlib
import json
import zipfile
from dataclasses import dataclass

FORMAT = "tilec.package/1"


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
    """Read and check a .tkp file."""
    try:
        with zipfile.ZipFile(path) as archive:
            manifest = json.loads(archive.read("manifest.json"))
            files = {name: archive.read(name) for name in manifest.get("files", {})}
    except (OSError, KeyError, zipfile.BadZipFile, json.JSONDecodeError) as err:
        raise PackageError(f"{path}: not a readable tilec package ({err})") from None
    if manifest.get("format") != FORMAT:
        raise PackageError(f"{path}: format {manifest.get('format')!r}, expected {FORMAT!r}")
    for name, digest in manifest["files"].items():
        if sha256(files[name]) != digest:
            raise PackageError(f"{path}: {name} does not match its hash in the manifest")
    return Package(manifest, files)


def write_package(path: str, manifest: dict, files: dict) -> None:
    """Write a package (used by the compiler; the hashes are filled in here)."""
    manifest = dict(manifest, format=FORMAT, files={name: sha256(data) for name, data in files.items()})
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("manifest.json", json.dumps(manifest, indent=2, sort_keys=True))
        for name, data in files.items():
            archive.writestr(name, data)
