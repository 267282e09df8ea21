"""What the runtime reads from a package's manifest, checked before it is used, and its seal.

A manifest is data. Every field a launch reads (the argument list, the grid, the block, shared
memory, the variants, the tensor maps, the cubins) is checked for its type and range here, so a
damaged package is one PackageError, never a KeyError in the middle of a launch.

The seal binds those fields to the bytes: ``seal(manifest)`` is the sha256 of the manifest as
written (every field but the seal itself and the hash of the verification report), and so of
every file it lists by hash. ``write_package`` stores it in the manifest and in the shipped
report (``verify.json``'s ``package_seal``); ``read_package`` recomputes it and compares both.
An edited field, or a cubin replaced together with its hash, no longer matches the seal or
the report that proved the package:

    seal({"kernel": "gemm", "files": {...}, ...})   # -> "9f2c..." (64 hex digits)

It is a check against damage and careless edits, not a signature: one who rewrites the
manifest, the seal and the report together is caught by ``tilec verify PKG.tkp``, which
rebuilds every field and cubin and compares them (docs/reliability.md).
"""

from __future__ import annotations

import hashlib
import json

REPORT = "verify.json"  # the verification report, when the package was verified
ELF = b"\x7fELF"
MAX_THREADS = 1024
MAX_SMEM = 227 * 1024  # the most dynamic shared memory any target takes per CTA
DTYPES = ("f32", "f16", "bf16")
SWIZZLES = (0, 32, 64, 128)


def seal(manifest: dict) -> str:
    """The sha256 of ``manifest`` without its seal and without the report's hash (which holds the seal)."""
    sealed = {k: v for k, v in manifest.items() if k != "seal"}
    if isinstance(sealed.get("files"), dict):
        sealed["files"] = {k: v for k, v in sealed["files"].items() if k != REPORT}
    return hashlib.sha256(json.dumps(sealed, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def sealed_report(report: bytes, digest: str) -> bytes:
    """The verification report ``report`` (JSON) with the seal of the package it ships in."""
    data = json.loads(report)
    data["package_seal"] = digest
    return json.dumps(data, indent=2).encode()


def check_seal(manifest: dict, files: dict, path, error) -> None:
    """Raise ``error`` unless the manifest's seal is the one its fields give, and a shipped
    report names the same seal (what was proved is what is here)."""
    digest = seal(manifest)
    if manifest.get("seal") != digest:
        raise error(f"{path}: manifest.json does not match its seal (a field or a file was changed after the "
                    f"package was built, or it was built by a tilec without seals); rebuild it with tilec compile")
    if REPORT not in files:
        return
    try:
        shipped = json.loads(files[REPORT]).get("package_seal")
    except (ValueError, AttributeError, RecursionError):
        shipped = None
    if shipped != digest:
        raise error(f"{path}: {REPORT} proves another package (its seal is not this manifest's); rebuild it with "
                    f"tilec compile, or check it with tilec verify")


def _dims(x, dim_ok) -> bool:
    return isinstance(x, list) and len(x) <= 8 and all(dim_ok(d) for d in x)


def _count(x, low: int, high: int) -> bool:
    return isinstance(x, int) and not isinstance(x, bool) and low <= x <= high


def _arg(a, dim_ok) -> bool:
    """One entry of ``args``: an input or output tensor (name, dtype, dims) or a size parameter."""
    if not isinstance(a, dict) or not isinstance(a.get("name"), str) or not a["name"].isidentifier():
        return False
    if a.get("role") == "param":
        return a.get("dtype") == "index"
    return a.get("role") in ("input", "output") and a.get("dtype") in DTYPES and _dims(a.get("dims"), dim_ok)


def check_launch(manifest: dict, files: dict, path, error, dim_ok) -> None:
    """Raise ``error`` naming the first launch field of ``manifest`` (one target's kernel in a
    package's ``kernels``) that is missing or not of its kind; ``files``: name -> bytes (its
    cubin must be an ELF image)."""
    m = manifest

    def need(ok: bool, field: str, what: str) -> None:
        if not ok:
            raise error(f"{path}: manifest.json '{field}' must be {what}")

    need(m["kernel"].isidentifier(), "kernel", "the kernel's name")
    need(isinstance(m.get("variants"), dict) and 0 < len(m["variants"]) <= 4 and all(
        k in ("aligned", "unaligned") and isinstance(v, str) and v.isidentifier() for k, v in m["variants"].items())
        and "aligned" in m["variants"], "variants", "the kernel's functions by variant (aligned, unaligned)")
    need(_count(m.get("threads"), 1, MAX_THREADS) and m["threads"] % 32 == 0, "threads",
         f"a whole number of warps, at most {MAX_THREADS} threads")
    need(_count(m.get("smem_bytes"), 0, MAX_SMEM), "smem_bytes", f"a size of at most {MAX_SMEM} bytes")
    need(isinstance(m.get("grid"), list) and 1 <= len(m["grid"]) <= 3 and _dims(m["grid"], dim_ok), "grid",
         "1 to 3 dims (sizes, names or [op, a, b])")
    need(isinstance(m.get("params"), list) and all(isinstance(p, str) and p.isidentifier() for p in m["params"]),
         "params", "a list of size names")
    args = m.get("args")
    need(isinstance(args, list) and all(_arg(a, dim_ok) for a in args), "args",
         "the launch's arguments (role, name, dtype, dims)")
    need(len({(a["role"], a["name"]) for a in args}) == len(args), "args", "free of repeated names")
    need(all(a["name"] in m["params"] for a in args if a["role"] == "param"), "args", "sizes named in 'params'")
    need(all(dim_ok(d) and _names_in(d) <= set(m["params"]) for a in args if a["role"] != "param" for d in a["dims"])
         and all(_names_in(d) <= set(m["params"]) for d in m["grid"]), "args", "of dims named in 'params'")
    tensors = {a["name"] for a in args if a["role"] != "param"}
    maps = m.get("tensor_maps", [])
    need(isinstance(maps, list) and all(
        isinstance(e, dict) and e.get("arg") in tensors and e.get("swizzle") in SWIZZLES
        and isinstance(e.get("box"), list) and 1 <= len(e["box"]) <= 5 and all(_count(b, 1, 256) for b in e["box"])
        and ("view" not in e or _dims(e["view"], dim_ok)) for e in maps), "tensor_maps",
        "a list of {arg, box (1 to 5 dims of 1 to 256), swizzle (0, 32, 64 or 128 bytes)}")
    need(files[m["cubin"]][:4] == ELF, "cubin", "a cubin (an ELF image) the package holds")
    need(isinstance(m.get("persistent", False), bool), "persistent", "true or false")
    ws = m.get("workspace")
    need(ws is None or isinstance(ws, dict) and set(ws) == {"floats", "splits"} and _count(ws["floats"], 1, 1 << 20)
         and _count(ws["splits"], 2, 64), "workspace", "{floats: the f32 elements of a slot, splits: 2 to 64}")
    need(isinstance(m.get("grid_dependency", ""), str), "grid_dependency", "a string")


def _names_in(tree) -> set:
    """The size names a dimension expression reads."""
    if isinstance(tree, str):
        return {tree}
    if isinstance(tree, list):
        return _names_in(tree[1]) | _names_in(tree[2])
    return set()
