"""Do two builds of the benchmark kernels run the same machine code? (build machine; no GPU)

    # each tree builds its packages with its own scripts, e.g. for a checkout of the old commit:
    cd OLD_TREE && PYTHONPATH=. python bench/build_gemm.py --out OLD/gemm      # and build_attention,
                                                                               # build_rows, build_pytorch
    python bench/same_code.py OLD NEW --old-commit 5133e13 --new-commit HEAD --out bench/results/X.json

For each package both folders hold (a .tkp; a graph package's kernels one by one), in each
subfolder (gemm, attention, rows, pytorch): the CUDA source, the machine code of each cubin
(its ``.text``, ``.nv.shared`` and ``.nv.constant0`` sections, and its ``.nv.info`` attributes
but the parameter bank's symbol index, which the symbol table's order sets: a cubin built with
``-lineinfo`` has more symbols) and the launch fields both manifests give (grid, threads,
shared memory, tensor maps, grid dependency, registers).
A package whose machine code and launch are the same runs the same on any GPU, so its
benchmark figures carry over without a run; one that differs needs a timed A/B in one run
(bench/compare.py; ``--ab DIR`` writes each such pair, the old code repackaged in the new
build's format). ``python bench/tables.py`` renders the result file as the docs' table.
"""

from __future__ import annotations

import argparse
import datetime
import io
import json
import struct
import sys
import zipfile
from pathlib import Path

KINDS = ("same source", "same machine code", "differ", "only old", "only new")
LAUNCH = ("grid", "smem_bytes", "threads", "tensor_maps", "grid_dependency")
_PARAM_CBANK = 0x0A  # EIATTR_PARAM_CBANK: (symbol index, offset, size)


def sections(cubin: bytes) -> dict:
    """{name: contents} of a cubin's (ELF64) sections that say what runs: .text.*, .nv.info.*,
    .nv.shared.* (its size: no contents), .nv.constant0.*."""
    shoff, = struct.unpack_from("<Q", cubin, 0x28)
    entsize, count, names_at = struct.unpack_from("<HHH", cubin, 0x3A)
    heads = [struct.unpack_from("<IIQQQQIIQQ", cubin, shoff + i * entsize) for i in range(count)]
    names = heads[names_at][4]
    out = {}
    for name_off, kind, _, _, offset, size, *_ in heads:
        name = cubin[names + name_off:cubin.index(b"\0", names + name_off)].decode()
        if name.startswith((".text.", ".nv.info.", ".nv.shared.", ".nv.constant0.")):
            out[name] = size if kind == 8 else cubin[offset:offset + size]  # 8: NOBITS
    return out


def _attributes(info: bytes) -> list:
    """The attributes of a .nv.info section but the parameter bank's symbol index."""
    i, out = 0, []
    while i < len(info):
        form, attr = info[i], info[i + 1]
        if form == 4:  # a sized value
            size, = struct.unpack_from("<H", info, i + 2)
            value, i = info[i + 4:i + 4 + size], i + 4 + size
        else:
            value, i = info[i + 2:i + 4], i + 4
        if attr != _PARAM_CBANK:
            out.append((attr, value))
    return out


def machine_code(cubin: bytes) -> dict:
    return {k: _attributes(v) if k.startswith(".nv.info.") else v for k, v in sections(cubin).items()}


def members(z: zipfile.ZipFile, prefix: str = "") -> dict:
    """{name: contents} of a package's sources, cubins and manifests (a graph package's kernels
    by their package's name), the target's name dropped from file names."""
    out = {}
    for name in z.namelist():
        key = (prefix + name).replace(".sm_90a", "").replace(".sm_80", "")
        if name.endswith((".cu", ".cubin")):
            out[key] = z.read(name)
        elif name.endswith(".tkp"):
            out.update(members(zipfile.ZipFile(io.BytesIO(z.read(name))), name + "/"))
        elif name.endswith("manifest.json"):
            out[key] = json.loads(z.read(name))
    return out


def launch(package: dict) -> dict:
    """{manifest: {field: value}}: the launch fields of each kernel (a format-3 manifest's
    kernel per target, an older one's top level), with its registers."""
    out = {}
    for key, manifest in package.items():
        if not key.endswith("manifest.json"):
            continue
        kernels = manifest.get("kernels") or ({"": manifest} if "args" in manifest else {})
        for target, kernel in kernels.items():
            ptxas = kernel.get("ptxas", {})
            if "registers" not in ptxas and len(ptxas) == 1:  # an older manifest: per target
                ptxas = next(iter(ptxas.values()))
            name = key if len(kernels) == 1 else f"{key}:{target}"
            out[name] = {**{f: kernel[f] for f in LAUNCH if f in kernel}, "registers": ptxas.get("registers")}
    return out


def compare(old: dict, new: dict) -> str:
    """Which of KINDS the packages ``old`` and ``new`` (members) are."""
    a, b = launch(old), launch(new)
    if a.keys() != b.keys() or any(a[k][f] != b[k][f] for k in a for f in a[k].keys() & b[k].keys()):
        return "differ"
    pick = lambda d, end: {k: v for k, v in d.items() if k.endswith(end)}  # noqa: E731
    code = lambda d: {k: machine_code(v) for k, v in pick(d, ".cubin").items()}  # noqa: E731
    if not code(old) or code(old) != code(new):
        return "differ"
    return "same source" if pick(old, ".cu") == pick(new, ".cu") else "same machine code"


def compare_dirs(old: Path, new: Path) -> dict:
    out = {kind: [] for kind in KINDS}
    for p in sorted(old.rglob("*.tk[pg]")):
        rel = str(p.relative_to(old))
        if not (new / rel).exists():
            out["only old"].append(rel)
            continue
        out[compare(members(zipfile.ZipFile(p)), members(zipfile.ZipFile(new / rel)))].append(rel)
    out["only new"] = [str(q.relative_to(new)) for q in sorted(new.rglob("*.tk[pg]"))
                       if not (old / q.relative_to(new)).exists()]
    return out


def repackage(old: Path, new: Path, out: Path) -> None:
    """``new``'s package with ``old``'s CUDA source and cubins in it (the package format, launch
    fields and runtime of the new build, the machine code of the old, its registers in the
    manifest), for a timed A/B of the two codes in one run (bench/compare.py); no report."""
    from tilec.runtime.package import write_package

    z_old, z_new = zipfile.ZipFile(old), zipfile.ZipFile(new)
    manifest = json.loads(z_new.read("manifest.json"))
    code = {n.replace(".sm_90a", "").replace(".sm_80", ""): z_old.read(n) for n in z_old.namelist()
            if n.endswith((".cu", ".cubin"))}
    files = {}
    for name in z_new.namelist():
        if name.endswith((".cu", ".cubin")):
            files[name] = code[name.replace(".sm_90a", "").replace(".sm_80", "")]
        elif name not in ("manifest.json", "verify.json"):
            files[name] = z_new.read(name)
    before = json.loads(z_old.read("manifest.json"))
    for target, kernel in manifest["kernels"].items():
        ptxas = before["ptxas"].get(target, before["ptxas"]) if "kernels" not in before else \
            before["kernels"][target]["ptxas"]
        kernel["ptxas"] = ptxas
    write_package(str(out), manifest, files)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("old", type=Path)
    parser.add_argument("new", type=Path)
    parser.add_argument("--old-commit", required=True)
    parser.add_argument("--new-commit", required=True)
    parser.add_argument("--out", type=Path, help="the results file to write (JSON)")
    parser.add_argument("--ab", type=Path, help="write each differing package twice under this folder, as a/ "
                        "(the old code in the new package) and b/ (the new), for bench/compare.py")
    args = parser.parse_args(argv)
    groups = {d.name: compare_dirs(d, args.new / d.name) for d in sorted(args.old.iterdir())
              if d.is_dir() and (args.new / d.name).is_dir()}
    for name, kinds in groups.items():
        print(f"{name}: " + ", ".join(f"{len(v)} {k}" for k, v in kinds.items() if v))
    result = {"old": args.old_commit, "new": args.new_commit, "date": datetime.date.today().isoformat(),
              "groups": groups}
    if args.out:
        args.out.write_text(json.dumps(result, indent=1) + "\n")
    for name, kinds in groups.items() if args.ab else ():
        for rel in kinds["differ"]:
            if "manifest.json" not in zipfile.ZipFile(args.new / name / rel).namelist():
                print(f"{name}/{rel}: a graph package, not repackaged (time its differing kernels as kernels)")
                continue
            for side in ("a", "b"):
                (args.ab / side / name).mkdir(parents=True, exist_ok=True)
            repackage(args.old / name / rel, args.new / name / rel, args.ab / "a" / name / rel)
            (args.ab / "b" / name / rel).write_bytes((args.new / name / rel).read_bytes())
    return 1 if any(kinds["differ"] for kinds in groups.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
