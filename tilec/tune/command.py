"""``tilec tune``: rank a spec's schedules with the cost model, write the top ones as packages
for a GPU host to measure, and import what it measured into the tuning database.

    tilec tune SPEC.ta --shape M=4096,N=4096,K=4096                  # the model's ranking
    tilec tune SPEC.ta --shape ... --emit-candidates DIR [--top 30]  # packages + candidates.json
    python -m tilec.runtime.measure DIR                              # on the GPU host
    tilec tune SPEC.ta --shape ... --import DIR/results.json         # into the database

The import verifies the measured candidates, fastest first, until one is proved (verdicts
cached by the hash of the tile module); ``tilec compile`` then builds the fastest proved
schedule for that spec, those shapes and that target when no --schedule is given.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from torch_mlir import ir

from tilec import dialects
from tilec.diagnostics import TilecError

from .db import TuningDB, import_results
from .gpus import gpu_named
from .space import rank


def tune_command(args) -> int:
    from tilec.commands import _merged
    from tilec.frontend import load_spec, read_spec

    shapes = _merged(args.shape)
    if not args.import_ and not args.spec:
        raise TilecError("tilec tune needs SPEC.ta (or --import RESULTS.json)")
    if args.top < 1:
        raise TilecError(f"--top must be at least 1, got {args.top}")
    db = TuningDB(args.db) if args.db else TuningDB()
    if args.import_:
        added, key = import_results(args.import_, db)
        print(f"{added} measured candidates imported into {db.path}")
        prove_winner(db, key)
        best = db.best(key["spec_text"], key["shapes"], key["target"])
        if best:
            print(f"fastest proved: {best['schedule']} ({best['median_ms']:.4f} ms on {best['gpu']}, spread "
                  f"{best['spread']:.1%})")
        return 0
    text = read_spec(args.spec)
    try:
        gpu = gpu_named(args.gpu)
    except ValueError as err:
        raise TilecError(f"--gpu: {err}") from None
    with dialects.context(), ir.Location.unknown():
        module = load_spec(args.spec)
        legal, illegal = rank(module, shapes, args.target, gpu)
        if not legal:
            raise TilecError(f"no schedule of the search space builds this kernel ({len(illegal)} refused)")
        top = legal[:args.top]
        print(f"{args.spec}: {len(legal)} legal schedules, {len(illegal)} pruned before compiling; the model's "
              f"top {len(top)} on {gpu.name}:")
        for n, c in enumerate(top):
            print(f"  {n + 1:3d}. {c.estimate.seconds * 1e3:8.4f} ms  {c.estimate.tflops:6.0f} TFLOP/s  "
                  f"{c.estimate.bound:6s}  {c.schedule}")
        if args.emit_candidates:
            _emit(args, text, shapes, top)
    measured = db.best(text, shapes, args.target)
    if measured:
        print(f"measured best in {db.path}: {measured['schedule']} ({measured['median_ms']:.4f} ms on "
              f"{measured['gpu']})")
    return 0


def tile_hash(build) -> str:
    """The sha256 of a candidate's tile module as printed: what is measured is what is proved."""
    return hashlib.sha256(str(build.tile).encode()).hexdigest()


def prove_winner(db: TuningDB, key: dict) -> None:
    """Verify the measured candidates, fastest first, until one is proved (each tile module once:
    verdicts are cached in the database by its hash). A candidate whose tile module is not the
    one measured (another tilec built it) is skipped."""
    from datetime import date

    from tilec.driver import build_tile
    from tilec.frontend import spec_to_ta
    from tilec.package import verify_build

    with dialects.context(), ir.Location.unknown():
        name = key.get("spec_name", "tuned.ta")  # the kernel is named after its spec file
        module = spec_to_ta(key["spec_text"], name)
        for row in db.rows(key["spec_text"], key["shapes"], key["target"]):
            digest = row["tile_sha256"]
            if digest is None:
                continue
            cached = db.proof(digest)
            if cached is None:
                build = build_tile(module, key["shapes"], " ".join(row["schedule"].split(",")))
                if tile_hash(build) != digest:
                    print(f"  {row['schedule']}: its tile module is not the one measured; skipped")
                    continue
                report = verify_build(module, build, name, key["spec_text"], row["schedule"], (key["target"],))
                cached = {"passed": not report.status(), "summary": report.summary()}
                db.add_proof(digest, cached["passed"], cached["summary"], date.today().isoformat())
                print(f"  verified {row['schedule']}: {cached['summary']}")
            if cached["passed"]:
                return
            print(f"  {row['schedule']} is not proved ({cached['summary']}); the next fastest is tried")


def _emit(args, text: str, shapes: dict, top: list) -> None:
    """Compile each candidate into DIR/cNNN.tkp and write DIR/candidates.json."""
    from tilec.package import package_build
    from tilec.runtime.package import write_package

    out = Path(args.emit_candidates)
    out.mkdir(parents=True, exist_ok=True)
    entries = []
    for n, c in enumerate(top):
        name = f"c{n:03d}.tkp"
        manifest, files = package_build(c.build, Path(args.spec).name, text, (args.target,))
        write_package(str(out / name), manifest, files)
        facts = manifest["ptxas"][args.target]
        entries.append({"package": name, "schedule": c.schedule, "predicted_ms": c.estimate.seconds * 1e3,
                        "tile_sha256": tile_hash(c.build),
                        "registers": facts["registers"], "spill_bytes": facts["spill_stores"]})
        print(f"  {name}: {c.schedule}: {facts['registers']} registers, {facts['spill_stores']} bytes spilled")
    # what tilec compile looks up (and the spec's file name: the kernel is named after it)
    key = {"spec_text": text, "shapes": shapes, "target": args.target, "spec_name": Path(args.spec).name}
    env = dict(shapes, **top[0].build.fixed)  # every size, for the inputs the GPU host makes
    (out / "candidates.json").write_text(json.dumps({"key": key, "env": env, "candidates": entries}, indent=2))
    print(f"{len(entries)} candidates -> {out}; measure them on the GPU host with "
          f"'python -m tilec.runtime.measure {out}', then 'tilec tune {args.spec} --import {out}/results.json'")
