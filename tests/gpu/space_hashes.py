"""The sha256 of the CUDA every schedule of a target's space emits, for comparing two trees.

    python tests/gpu/space_hashes.py new.json                      # this tree
    cd OLD && PYTHONPATH=OLD python NEW/tests/gpu/space_hashes.py old.json   # a checkout of another commit
    python tests/gpu/space_hashes.py --compare old.json new.json   # exit status 1 when any differs

For each example spec of the forms asked (the contraction and attention by default; also
``rows``, ``pointwise``) at its default sizes and at a second size set that divides no tile,
every point of ``Schedule.space(form, target)`` with consumer warpgroups (``--all``: every point) is built
with ``build_tiles`` and emitted; the file maps "spec|sizes|schedule" to the sha256 of the CUDA,
or to the error that refused the point. A change meant to keep behaviour keeps every entry.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SPECS = sorted(p.stem for p in (ROOT / "examples").glob("*.ta"))
ODD = {"contraction": {"M": 300, "N": 520, "K": 200}, "online": {"S": 200}}


def odd_sizes(spec: str, form: str) -> dict:
    """A second size set that divides no tile: the form's, else each shape parameter of the
    spec (its ``param`` line) at an odd size."""
    if form in ODD:
        return ODD[form]
    line = next((x for x in (ROOT / "examples" / f"{spec}.ta").read_text().splitlines() if x.startswith("param ")), "")
    names = [part.split("=")[0].strip() for part in line.removeprefix("param ").split(",") if "=" in part]
    return dict(zip(names, (70, 333, 5, 7, 3)))


def hashes(forms: list, target: str, every: bool) -> dict:
    from torch_mlir import ir

    from tilec import dialects
    from tilec.codegen.cuda import emit_cuda
    from tilec.diagnostics import TilecError
    from tilec.dialects.schedule import Schedule
    from tilec.frontend import load_spec
    from tilec.lowering.driver import build_tiles, kernel_form

    out = {}
    with dialects.context(), ir.Location.unknown():
        for spec in SPECS:
            module = load_spec(str(ROOT / "examples" / f"{spec}.ta"))
            try:
                form = kernel_form(module)
            except TilecError:
                continue
            if form not in forms:
                continue
            points = [p.as_text() for p in Schedule.space(form, target) if every or p.consumers]
            for sizes in ({}, odd_sizes(spec, form)):
                try:
                    built = list(build_tiles(module, sizes, points, target))
                except TilecError as err:
                    out[f"{spec}|{sizes}"] = "error: " + err.message
                    continue
                for text, build in built:
                    key = f"{spec}|{sizes}|{text}"
                    if isinstance(build, TilecError):
                        out[key] = "error: " + build.message
                        continue
                    try:
                        source = emit_cuda(build.tile).source
                    except TilecError as err:
                        source = "error: " + err.message
                    out[key] = hashlib.sha256(source.encode()).hexdigest()
    return out


def compare(old: dict, new: dict) -> int:
    differ = sorted(k for k in old.keys() | new.keys() if old.get(k) != new.get(k))
    built = sum(not str(v).startswith("error") for v in new.values())
    print(f"{len(new) - len(differ)} the same ({built} built, the rest refused alike), {len(differ)} differ")
    for key in differ[:20]:
        print(f"  {key}")
    return 1 if differ else 0


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+", help="the file to write; with --compare, the two to compare")
    parser.add_argument("--compare", action="store_true")
    parser.add_argument("--forms", default="contraction,online")
    parser.add_argument("--target", default="sm_90a")
    parser.add_argument("--all", action="store_true", help="every point, not only the warp-specialised ones")
    args = parser.parse_args(argv)
    if args.compare:
        old, new = (json.loads(Path(f).read_text()) for f in args.files[:2])
        return compare(old, new)
    result = hashes(args.forms.split(","), args.target, args.all)
    Path(args.files[0]).write_text(json.dumps(result, indent=1, sort_keys=True))
    print(f"{len(result)} entries -> {args.files[0]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
