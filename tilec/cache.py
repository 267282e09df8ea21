"""Where tilec keeps what it can compute again, and how an entry is trusted when read back.

One root, ``$TILEC_CACHE_DIR`` (default ``~/.cache/tilec``), holds a folder per cache:

    kernels/  packages built by ``tilec compile -o`` (``<key>.tkp``) and a PyTorch graph's
              kernels (``graph-<key>.tkp``)
    graphs/   PyTorch graphs raised to ta (tilec/pytorch/cache.py)
    picks/    the cost model's schedule choices (tilec/tune/pick.py)
    proofs/   verification reports (tilec/build/proofs.py)
    cpu/      the C++ compiler's own cache for the CPU runs of emitted CUDA (ziglang's: the C
              library it builds once, about 50 MB; tilec/runtime/cpu/).
              Not sealed entry by entry as the others: it is the compiler's, kept in a folder
              that is the user's alone, and what it builds runs confined (seccomp);
              ``$TILEC_CPU_CACHE_DIR`` puts it elsewhere (one compiler cache shared by
              several tilec caches, e.g. a test run's)

A cache is data tilec reads back as its own output, so nothing in it is taken as found:

- a folder is created with mode 0700; an existing one (the root or a cache's folder) that is
  owned by another user or writable by group or others is refused with a warning, and that
  cache is not used (built again each time, nothing written);
- every entry is one file, written atomically: a seal line ``tilec-cache/1 KEY SHA256`` then
  the payload (a package, or JSON). Read back, the key must be the one asked for and the
  payload must hash to the seal's digest; an entry that fails (truncated, edited, planted,
  written for another key) is deleted with a warning and built again. The caller then checks
  the payload as what it is (a package, a report) and discards it the same way if it is not.

    data = read("picks", f"{key}.json", key, "choosing again")   # bytes, or None
    write("picks", f"{key}.json", key, text.encode())
"""

from __future__ import annotations

import hashlib
import os
import re
import stat
import sys
from pathlib import Path

from .fileio import replace_atomically

KINDS = ("kernels", "graphs", "picks", "proofs", "cpu")
SEAL = b"tilec-cache/1"
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")  # a key or an entry's file name: no path in it
_refused: set = set()  # folders already warned about, so a process says it once


def root() -> Path:
    """``$TILEC_CACHE_DIR``, else ``~/.cache/tilec``: the folder every cache lives in."""
    given = os.environ.get("TILEC_CACHE_DIR")
    return Path(given).expanduser() if given else Path.home() / ".cache" / "tilec"


def where(kind: str) -> Path:
    """The folder of cache ``kind`` (one of KINDS), whether it exists or not, e.g. root()/"picks"."""
    if kind not in KINDS:
        raise ValueError(f"no cache named {kind!r} (one of {', '.join(KINDS)})")
    given = os.environ.get("TILEC_CPU_CACHE_DIR") if kind == "cpu" else None
    return Path(given).expanduser() if given else root() / kind


def folder(kind: str) -> Path | None:
    """The folder of cache ``kind``, created (mode 0700) if missing; None, with a warning once,
    when it cannot be created or it or the root is not the user's alone: that cache is off."""
    path = where(kind)
    for made in (path.parent, path):  # the root is checked before anything is made in it
        try:
            made.mkdir(mode=0o700, parents=True, exist_ok=True)
        except OSError as err:
            return _refuse(made, f"cannot be created ({err.strerror or err})")
        why = _unsafe(made)
        if why:
            return _refuse(made, why)
    return path


def read(kind: str, name: str, key: str, then: str) -> bytes | None:
    """The payload of entry ``name`` of cache ``kind`` if its seal holds ``key`` and its digest;
    None when there is none (the cache off, no entry) or it was discarded (``then`` says what
    is done instead, e.g. "building it again")."""
    base = folder(kind)
    if base is None:
        return None
    path = base / _checked(name)
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return None
    except OSError as err:
        return discard(kind, name, f"cannot be read ({err.strerror or err})", then)
    seal, _, payload = data.partition(b"\n")
    parts = seal.split(b" ")
    if len(parts) != 3 or parts[0] != SEAL:
        return discard(kind, name, "has no seal (not written by tilec's cache)", then)
    if parts[1] != key.encode():
        return discard(kind, name, "was written for another key", then)
    if parts[2] != hashlib.sha256(payload).hexdigest().encode():
        return discard(kind, name, "does not match its seal (truncated or edited)", then)
    return payload


def write(kind: str, name: str, key: str, payload: bytes) -> None:
    """Keep ``payload`` as entry ``name`` of cache ``kind``, sealed with ``key`` (atomically: a
    reader sees the whole entry or none). A cache that is off or cannot be written is skipped:
    it costs time, not correctness."""
    base = folder(kind)
    if base is None:
        return
    seal = b" ".join([SEAL, _checked(key).encode(), hashlib.sha256(payload).hexdigest().encode()])
    try:
        replace_atomically(base / _checked(name), lambda tmp: Path(tmp).write_bytes(seal + b"\n" + payload))
    except OSError:
        pass


def discard(kind: str, name: str, why: str, then: str) -> None:
    """Delete entry ``name`` of cache ``kind``, saying ``why`` and what is done ``then``; None.

    tilec: warning: cache entry picks/3f2a...json does not match its seal (truncated or
    edited); discarded, choosing again
    """
    print(f"tilec: warning: cache entry {kind}/{name} {why}; discarded, {then}", file=sys.stderr)
    try:
        (where(kind) / _checked(name)).unlink(missing_ok=True)
    except OSError:
        pass  # left in place: the next read discards it again
    return None


def _unsafe(path: Path) -> str:
    """Why ``path`` may not hold a cache ('' when it may): not a folder, another user's, or
    writable by group or others (who could plant an entry tilec would ship as its own)."""
    try:
        info = path.stat()
    except OSError as err:
        return f"cannot be read ({err.strerror or err})"
    if not stat.S_ISDIR(info.st_mode):
        return "is not a directory"
    if hasattr(os, "geteuid") and info.st_uid != os.geteuid():
        return f"is owned by another user (uid {info.st_uid})"
    if info.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        return f"is writable by group or others (mode {stat.S_IMODE(info.st_mode):o})"
    return ""


def _refuse(path: Path, why: str) -> None:
    if path not in _refused:
        _refused.add(path)
        print(f"tilec: warning: cache directory {path} {why}; not caching there "
              f"(make it yours alone, chmod 700, or set TILEC_CACHE_DIR)", file=sys.stderr)
    return None


def _checked(name: str) -> str:
    if not _NAME.fullmatch(name):
        raise ValueError(f"not a cache entry name: {name!r}")
    return name
