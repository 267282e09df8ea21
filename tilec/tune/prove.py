"""Only proved candidates win: the measured candidates of a kernel are verified fastest first
until one is proved, each tile module once (the verdicts are kept in the tuning database by
the module's hash, so re-tuning does not re-prove). The hash is the one tilec computes from a
candidate's schedule, never the one a results file gives: a row naming another candidate's
proved module is refused.

    prove_winner(db, {"spec_text": ..., "shapes": {...}, "target": "sm_90a", "spec_name": "gemm.ta"},
                 {("NVIDIA H200", "bm=128,bn=256,..."): "3f2a..."})
"""

from __future__ import annotations

import sys

from torch_mlir import ir

from tilec import dialects

from .db import TuningDB
from .jobs import tile_hash
from tilec.build.package import verify_build
from tilec.diagnostics import TilecError
from tilec.frontend import source_to_ta
from tilec.lowering.driver import build_tile


def prove_winner(db: TuningDB, key: dict, claimed: dict) -> None:
    """Verify the measured candidates, fastest first, until one is proved (each tile module once:
    verdicts are cached in the database by its hash, the spec, the shapes and the target). A
    candidate's hash is the one this tilec computes: a candidate measured now (``claimed``:
    {(gpu, schedule): the hash the results give}) has its tile module built from its schedule,
    and is recorded only if that is the module measured; else it is refused, said on stderr.
    One measured earlier and never built here has no hash, and is passed over."""
    from datetime import date

    spec_text, shapes, target = key["spec_text"], key["shapes"], key["target"]
    with dialects.context(), ir.Location.unknown():
        name = key.get("spec_name", "tuned.ta")  # the kernel is named after its spec file
        module = source_to_ta(spec_text, name)
        for row in db.rows(spec_text, shapes, target):
            schedule, digest, build = row["schedule"], row["tile_sha256"], None
            if digest is None:
                claim = claimed.get((row["gpu"], schedule))
                if claim is None:
                    continue
                build, digest = _built(module, shapes, schedule, claim, target)
                if build is None:
                    continue
                db.record_built(spec_text, shapes, target, row["gpu"], schedule, digest)
            cached = db.proof(spec_text, shapes, target, digest)
            if cached is None:
                build = build or build_tile(module, shapes, schedule, target)
                report = verify_build(module, {target: build}, name, spec_text, schedule)
                cached = {"passed": not report.status(), "summary": report.summary()}
                # kept by the hash of the module verified, which is the one recorded (builds are deterministic)
                db.add_proof(spec_text, shapes, target, tile_hash(build), cached["passed"], cached["summary"],
                             date.today().isoformat())
                print(f"  verified {schedule}: {cached['summary']}")
            if cached["passed"]:
                return
            print(f"  {schedule} is not proved ({cached['summary']}); the next fastest is tried")


def _built(module, shapes: dict, schedule: str, claim: str, target: str) -> tuple:
    """(the tile build of ``schedule`` for ``target``, its hash) when that hash is ``claim``, the module
    measured; else (None, None), and stderr says why the candidate is not recorded."""
    try:
        build = build_tile(module, shapes, schedule, target)
    except TilecError as err:
        print(f"  {schedule}: not recorded: it does not build here: {err.message}", file=sys.stderr)
        return None, None
    digest = tile_hash(build)
    if digest != claim:
        print(f"  {schedule}: not recorded: the results give its tile module the sha256 {claim[:16]}..., "
              f"and the one tilec builds from the schedule is {digest[:16]}...", file=sys.stderr)
        return None, None
    return build, digest


def prove_and_report(db: TuningDB, key: dict, claimed: dict) -> None:
    """prove_winner, then say which candidate the database now returns as the best."""
    prove_winner(db, key, claimed)
    best = db.best(key["spec_text"], key["shapes"], key["target"])
    if best:
        print(f"fastest proved: {best['schedule']} ({best['median_ms']:.4f} ms on {best['gpu']}, spread "
              f"{best['spread']:.1%})")
