"""A results file of ``python -m tilec.runtime.measure``, read as data from elsewhere: a file
that is not one (not JSON, another shape, a value of the wrong type) is one error naming the
file and the place in it, before anything is recorded.

    data = read_results("DIR/results.json")
    data["key"]["target"], [r["median_ms"] for r in data["results"]]     # checked

The file's shape: {"gpu": str, "date": str, "key": {"spec_text": str, "shapes": {NAME: int},
"target": "sm_80" | "sm_90a", "spec_name": str}, "results": [{"schedule": str, "median_ms":
ms | null, "spread": ratio, "predicted_ms": ms, "tile_sha256": hex, ...}, ...]}.
"""

from __future__ import annotations

import json
import math
import re

from tilec.dialects.target import names as target_names
from tilec.diagnostics import MAX_SPEC_BYTES, SourceLoc, TilecError, read_input_bytes
from tilec import dialects
from tilec.frontend import source_to_ta

MAX_RESULTS_BYTES = 16 * 1024 * 1024  # 30 candidates take about 20 KiB
MAX_SIZE = 2**31 - 1  # as --shape takes them
_SHA256 = re.compile(r"[0-9a-f]{64}")


def read_results(path: str) -> dict:
    """The checked contents of the results file ``path``, else a TilecError that names it.

    Example: a file holding ``[]`` -> error: 'r.json': it is a list, not a results file (an object)
    """
    data = read_input_bytes(path, MAX_RESULTS_BYTES)
    try:
        value = json.loads(data)
    except RecursionError:  # the C decoder counts its depth: this is quick, whatever the depth
        raise TilecError(f"'{path}': its JSON is nested too deeply to be a results file") from None
    except json.JSONDecodeError as err:
        text = data.decode("utf-8", errors="replace")
        raise TilecError(f"not JSON: {err.msg}", SourceLoc(path, err.lineno, err.colno), text) from None
    except ValueError as err:  # not UTF-8, or a number of more digits than Python converts
        raise TilecError(f"'{path}' is not JSON: {err}") from None
    check_results(value, path)
    check_source(value["key"], path)
    return value


def check_results(data, path: str) -> dict:
    """``data`` if it has the shape of a results file (above), else a TilecError naming the
    first place in it that does not."""
    _require(data, dict, path, "a results file", "")
    for name, kind, what in (("gpu", str, "the GPU's name"), ("date", str, "the day measured"),
                             ("key", dict, "what was measured"), ("results", list, "the measured candidates")):
        _require(data.get(name), kind, path, what, name)
    for name in ("gpu", "date"):
        if not data[name] or len(data[name]) > 200:
            raise TilecError(f"'{path}': {name} is empty or longer than 200 characters")
    _check_key(data["key"], path)
    for n, row in enumerate(data["results"]):
        _check_row(row, path, f"results[{n}]")
    return data


def check_source(key: dict, path: str) -> None:
    """The key's source is one tilec reads (a spec, or ta IR when spec_name ends in .mlir), else
    a TilecError naming the results file: it is parsed before any of its rows is recorded."""
    from torch_mlir import ir

    try:
        with dialects.context(), ir.Location.unknown():
            source_to_ta(key["spec_text"], key.get("spec_name", "tuned.ta"))
    except TilecError as err:
        where = f" (line {err.loc.line}, column {err.loc.col})" if err.loc else ""
        raise TilecError(f"'{path}': key.spec_text{where} is not a source tilec reads: {err.message}") from None


def _check_key(key: dict, path: str) -> None:
    """The key that says what was measured: the source, the sizes and the target."""
    _require(key.get("spec_text"), str, path, "the source text", "key.spec_text")
    if len(key["spec_text"].encode("utf-8", errors="replace")) > MAX_SPEC_BYTES:
        raise TilecError(f"'{path}': key.spec_text is longer than a spec may be ({MAX_SPEC_BYTES >> 10} KiB)")
    name = key.get("spec_name", "tuned.ta")
    _require(name, str, path, "a file name", "key.spec_name")
    if not name or "/" in name or "\0" in name or len(name) > 255:
        raise TilecError(f"'{path}': key.spec_name {name[:60]!r} is not a file name")
    _require(key.get("shapes"), dict, path, "the sizes measured ({NAME: size})", "key.shapes")
    for size_name, size in key["shapes"].items():
        if not size_name.isidentifier() or type(size) is not int or not 1 <= size <= MAX_SIZE:
            raise TilecError(f"'{path}': key.shapes: {size_name[:60]!r}: {_shown(size)} is not a size "
                             f"from 1 to 2^31 - 1 of a parameter")
    if key.get("target") not in target_names():
        raise TilecError(f"'{path}': key.target is {_shown(key.get('target'))}, not one of {', '.join(target_names())}")


def _check_row(row, path: str, where: str) -> None:
    """One measured candidate: its schedule, its times (finite, not negative; median_ms null
    when it was not measured) and the hash of the tile module measured."""
    _require(row, dict, path, "a measured candidate", where)
    _require(row.get("schedule"), str, path, "a schedule (bm=...,bn=...)", f"{where}.schedule")
    if not row["schedule"] or len(row["schedule"]) > 1000:
        raise TilecError(f"'{path}': {where}.schedule is not a schedule: {row['schedule'][:60]!r}")
    for name, optional in (("median_ms", True), ("spread", True), ("predicted_ms", True)):
        value = row.get(name)
        if value is None and optional:
            continue
        if type(value) not in (int, float) or not math.isfinite(value) or value < 0:
            raise TilecError(f"'{path}': {where}.{name} is {_shown(value)}, not a number of at least 0")
    digest = row.get("tile_sha256")
    if digest is not None and not (isinstance(digest, str) and _SHA256.fullmatch(digest)):
        raise TilecError(f"'{path}': {where}.tile_sha256 is {_shown(digest)}, not a sha256 (64 hex digits)")


_NOUNS = {str: "a string", dict: "an object", list: "a list"}


def _require(value, kind: type, path: str, what: str, where: str) -> None:
    """A TilecError unless ``value`` is a ``kind``: '{path}': {where} is {value}, not {what}."""
    if isinstance(value, kind):
        return
    place = f"{where} is" if where else "it is"
    if value is None and where:
        raise TilecError(f"'{path}': {where} is missing: it should be {what} ({_NOUNS[kind]})")
    raise TilecError(f"'{path}': {place} {_shown(value)}, not {what} ({_NOUNS[kind]})")


def _shown(value) -> str:
    """A value as a message shows it: its type, and a short form of it."""
    kind = {bool: "true/false", int: "a number", float: "a number", str: "a string", list: "a list",
            dict: "an object", type(None): "null"}.get(type(value), type(value).__name__)
    if isinstance(value, (list, dict)) or value is None:
        return kind
    text = json.dumps(value) if not isinstance(value, float) or math.isfinite(value) else str(value)
    return f"{kind} {text[:40]}{'...' if len(text) > 40 else ''}"
