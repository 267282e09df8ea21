"""Edited copies of a good kernel package: one per field or file the runtime reads.

    copies = tampered(Path("gemm.tkp").read_bytes())   # {name: package bytes}

Each edit is made three ways, as a damaged disk, a careless hand or a deliberate one would:
``unsealed`` (the edited files' hashes rewritten, the seal left), ``resealed`` (the seal
rewritten too, the shipped report's left) and ``forged`` (the report's seal rewritten as well:
a package consistent in itself, which only a rebuild can tell from the real one).
"""

from __future__ import annotations

import copy
import io
import json
import zipfile

from tilec.runtime.manifest import REPORT, seal, sealed_report
from tilec.runtime.package import sha256

WAYS = ("unsealed", "resealed", "forged")


def _cubin(m: dict) -> str:
    return m["cubin"]


def _top(edit):
    """An edit of the manifest's own fields (the source, the compiler, the targets), not of a kernel's."""
    edit.top = True
    return edit


def _flip(data: bytes) -> bytes:
    middle = len(data) // 2
    return data[:middle] + bytes([data[middle] ^ 0x01]) + data[middle + 1:]


def _arg(m: dict, name: str) -> dict:
    return next(a for a in m["args"] if a["name"] == name)


def _swap_args(m, f):
    a, b = _arg(m, "A"), _arg(m, "B")
    a["name"], b["name"] = "B", "A"


def _set(field, value):
    def edit(m, f):
        m[field] = value
    return edit


def _dtype(m, f):
    _arg(m, "C")["dtype"] = "f32"


def _dims(m, f):
    _arg(m, "A")["dims"] = list(reversed(_arg(m, "A")["dims"]))


def _drop_param(m, f):
    m["args"] = [a for a in m["args"] if a["role"] != "param" or a["name"] != "K"]


def _halve_grid(m, f):
    m["grid"][0] = ["/", m["grid"][0], 2]


def _swap_variants(m, f):
    v = m["variants"]
    m["variants"] = {"aligned": v.get("unaligned", v["aligned"]), "unaligned": v["aligned"]}


@_top
def _retarget(m, f):
    (target, entry), = m["kernels"].items()
    m["kernels"] = {("sm_90a" if target == "sm_80" else "sm_80"): entry}


def _file(transform, which):
    def edit(m, f):
        name = which(m)
        f[name] = transform(f[name])
    return edit


EDITS = {
    "cubin-zeroed": _file(lambda d: bytes(len(d)), _cubin),
    "cubin-flipped": _file(_flip, _cubin),
    "cubin-empty": _file(lambda d: b"", _cubin),
    "cubin-truncated": _file(lambda d: d[:len(d) // 2], _cubin),
    "source-edited": _file(lambda d: d.replace(b"__syncthreads();", b";", 1), lambda m: m["source"]),
    "args-swapped": _swap_args,
    "args-output-dtype": _dtype,
    "args-dims-transposed": _dims,
    "args-param-dropped": _drop_param,
    "grid-halved": _halve_grid,
    "grid-one-cta": _set("grid", [1, 1]),
    "threads-32": _set("threads", 32),
    "threads-doubled": lambda m, f: m.__setitem__("threads", m["threads"] * 2),
    "smem-halved": lambda m, f: m.__setitem__("smem_bytes", m["smem_bytes"] // 2),
    "variants-swapped": _swap_variants,
    "tensor-map-added": _set("tensor_maps", [{"arg": "A", "box": [64, 64], "swizzle": 128}]),
    "persistent": _set("persistent", True),
    "no-grid-dependency": lambda m, f: m.pop("grid_dependency"),
    "fixed-unknown": _set("fixed", {"Q": 5}),
    "ranges-widened": _set("ranges", {"M": [1, 2 ** 31 - 1]}),
    "schedule-changed": lambda m, f: m.__setitem__("schedule", m["schedule"].replace("bk=32", "bk=64", 1)
                                                   if "bk=32" in m["schedule"] else m["schedule"] + ",bk=32"),
    "spec-changed": _top(lambda m, f: m["spec"].__setitem__("text", m["spec"]["text"].replace("A[i, k] *",
                                                                                              "2 * A[i, k] *"))),
    "compiler-changed": _top(_set("compiler", "nvcc")),
    "target-renamed": _retarget,
    "ptxas-facts": lambda m, f: m["ptxas"].__setitem__("registers", 1),
}


def read(data: bytes) -> tuple[dict, dict]:
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        files = {name: archive.read(name) for name in archive.namelist()}
    return json.loads(files.pop("manifest.json")), files


def write(manifest: dict, files: dict) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("manifest.json", json.dumps(manifest, indent=2, sort_keys=True))
        for name, data in files.items():
            archive.writestr(name, data)
    return buffer.getvalue()


def edited(data: bytes, edit, way: str) -> bytes:
    """The package ``data`` with ``edit(fields, files)`` applied (``fields``: its first kernel's,
    or the manifest's own for an edit marked ``_top``), then sealed ``way``."""
    manifest, files = read(data)
    manifest, files = copy.deepcopy(manifest), dict(files)
    edit(manifest if getattr(edit, "top", False) else next(iter(manifest["kernels"].values())), files)
    manifest["files"] = {name: sha256(body) for name, body in files.items()}
    if way != "unsealed":
        manifest["seal"] = seal(manifest)
    if way == "forged" and REPORT in files:
        files[REPORT] = sealed_report(files[REPORT], manifest["seal"])
        manifest["files"][REPORT] = sha256(files[REPORT])
    return write(manifest, files)


def tampered(data: bytes, ways: tuple = WAYS) -> dict[str, bytes]:
    """Every edit of EDITS made every way of ``ways``: {"<edit>/<way>": package bytes}."""
    return {f"{name}/{way}": edited(data, edit, way) for name, edit in EDITS.items() for way in ways}
