"""Verification reports kept on disk by what they prove, so that a rebuild does not prove again.

A report is stored under a key computed from everything its verdicts depend on: tilec's
build id (its version and a hash of its own source), the source that was verified (a spec,
or a graph's ta IR) with its name, the sizes fixed, the tile module as printed (so one
schedule text or another that lowers to the same module shares its proof), and the targets
the CUDA was compiled for. Entries live in the ``proofs/`` cache (tilec/cache.py), sealed
with their key and digest; one that fails its seal (truncated, edited, or written for another
key) or does not read as a report is discarded with a warning, and the kernel is verified again.

    key = proof_key(text, "gemm.ta", fixed, tile, ("sm_90a",))
    report = load_report(key) or verify()   # then store_report(key, report)
"""

from __future__ import annotations

import hashlib
import json

from .. import cache
from ..build_id import build_id
from ..verify.report import Report

AGAIN = "verifying again"


def proof_key(text: str, name: str, fixed: dict, tile: str, targets: tuple) -> str:
    """The key of a report on the tile module printed as ``tile``, built from source ``text``
    (``name``) at the ``fixed`` sizes, its CUDA compiled for ``targets``."""
    parts = [build_id(), name, text, json.dumps(fixed, sort_keys=True), tile, ",".join(targets)]
    return hashlib.sha256("\0".join(parts).encode()).hexdigest()


def load_report(key: str) -> Report | None:
    """The stored report of ``key``, or None (none stored, or an entry that fails its checks)."""
    name = f"{key}.json"
    data = cache.read("proofs", name, key, AGAIN)
    if data is None:
        return None
    try:
        return Report.from_json(data.decode())
    except (ValueError, KeyError, TypeError, AttributeError) as err:  # UnicodeDecodeError: a ValueError
        return cache.discard("proofs", name, f"is not a report ({err.__class__.__name__})", AGAIN)


def store_report(key: str, report: Report) -> None:
    """Keep ``report`` under ``key`` (atomically; a cache that cannot be written is skipped)."""
    cache.write("proofs", f"{key}.json", key, report.as_json().encode())
