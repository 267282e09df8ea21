"""Verification reports kept on disk by what they prove, so that a rebuild does not prove again.

A report is stored under a key computed from everything its verdicts depend on: tilec's
build id (its version and a hash of its own source), the source that was verified (a spec,
or a graph's ta IR) with its name, the sizes fixed, the tile module as printed (so one
schedule text or another that lowers to the same module shares its proof), and the targets
the CUDA was compiled for. An entry holds its key and the sha256 of its report; one that does
not match on read (truncated, edited, or written for another key) is discarded with a
warning, and the kernel is verified again.

    key = proof_key(text, "gemm.ta", fixed, tile, ("sm_90a",))
    report = load_report(key) or verify()   # then store_report(key, report)
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

from .build_id import build_id
from .fileio import replace_atomically
from .verify.report import Report


def proofs_folder() -> Path:
    """``$TILEC_CACHE_DIR/../proofs`` (beside the kernel cache)."""
    from .package import cache_dir

    return cache_dir().parent / "proofs"


def proof_key(text: str, name: str, fixed: dict, tile: str, targets: tuple) -> str:
    """The key of a report on the tile module printed as ``tile``, built from source ``text``
    (``name``) at the ``fixed`` sizes, its CUDA compiled for ``targets``."""
    parts = [build_id(), name, text, json.dumps(fixed, sort_keys=True), tile, ",".join(targets)]
    return hashlib.sha256("\0".join(parts).encode()).hexdigest()


def load_report(key: str) -> Report | None:
    """The stored report of ``key``, or None (none stored, or an entry that fails its checks)."""
    path = proofs_folder() / f"{key}.json"
    try:
        entry = json.loads(path.read_text())
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as err:
        return _discard(path, f"unreadable ({err.__class__.__name__})")
    if not isinstance(entry, dict) or entry.get("key") != key or not isinstance(entry.get("report"), str):
        return _discard(path, "written for another key")
    if hashlib.sha256(entry["report"].encode()).hexdigest() != entry.get("sha256"):
        return _discard(path, "its report does not match its hash")
    try:
        return Report.from_json(entry["report"])
    except (ValueError, KeyError, TypeError) as err:
        return _discard(path, f"not a report ({err})")


def store_report(key: str, report: Report) -> None:
    """Keep ``report`` under ``key`` (atomically; a cache that cannot be written is skipped)."""
    text = report.as_json()
    entry = json.dumps({"key": key, "sha256": hashlib.sha256(text.encode()).hexdigest(), "report": text})
    try:
        replace_atomically(proofs_folder() / f"{key}.json", lambda tmp: Path(tmp).write_text(entry))
    except OSError:
        pass


def _discard(path: Path, why: str) -> None:
    print(f"warning: discarding the cached verification report {path.name}: {why}; verifying again",
          file=sys.stderr)
    path.unlink(missing_ok=True)
    return None
