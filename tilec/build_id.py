"""The compiler's identity in cache keys: its version and a hash of its own source.

A kernel cached under the version alone outlives a change to the compiler that made it (an
editable install, a checkout between releases): the next build would return the old kernel.
Triton keys its cache by a hash of its compiler's source for the same reason.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.util
from pathlib import Path

from . import __version__


@functools.cache
def build_id() -> str:
    """``VERSION+HASH``: the hash over every .py and .lark file of tilec and its installed
    tilec.dialects and tilec.passes, by path. Example: ``0.1.0+3f2a9c1d0b7e4a55``."""
    # found, not imported: the identity of the compiler is read from its files alone
    packages = [Path(__file__).parent] + [Path(importlib.util.find_spec(f"tilec.{name}").origin).parent
                                          for name in ("dialects", "passes")]
    return f"{__version__}+{source_digest(packages)[:16]}"


def source_digest(packages: list[Path]) -> str:
    """sha256 over the .py, .lark and .h files under each of ``packages`` (names and contents, in
    order; the .h files are the CPU model that verification runs the CUDA under), bytecode caches
    left out."""
    digest = hashlib.sha256()
    for package in packages:
        for path in sorted(package.rglob("*")):
            if path.suffix in (".py", ".lark", ".h") and "__pycache__" not in path.parts:
                digest.update(f"{package.name}/{path.relative_to(package)}\0".encode())
                digest.update(path.read_bytes())
    return digest.hexdigest()
