"""Only proved candidates win: the measured candidates of a kernel are verified fastest first
until one is proved, each tile module once (the verdicts are kept in the tuning database by
the module's hash, so re-tuning does not re-prove).

    prove_winner(db, {"spec_text": ..., "shapes": {...}, "target": "sm_90a", "spec_name": "gemm.ta"})
"""

from __future__ import annotations

from torch_mlir import ir

from tilec import dialects

from .db import TuningDB
from .jobs import tile_hash


def prove_winner(db: TuningDB, key: dict) -> None:
    """Verify the measured candidates, fastest first, until one is proved (each tile module once:
    verdicts are cached in the database by its hash). A candidate whose tile module is not the
    one measured (another tilec built it) is skipped."""
    from datetime import date

    from tilec.driver import build_tile
    from tilec.frontend import source_to_ta
    from tilec.package import verify_build

    with dialects.context(), ir.Location.unknown():
        name = key.get("spec_name", "tuned.ta")  # the kernel is named after its spec file
        module = source_to_ta(key["spec_text"], name)
        for row in db.rows(key["spec_text"], key["shapes"], key["target"]):
            digest = row["tile_sha256"]
            if digest is None:
                continue
            cached = db.proof(digest)
            if cached is None:
                build = build_tile(module, key["shapes"], row["schedule"])
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


def prove_and_report(db: TuningDB, key: dict) -> None:
    """prove_winner, then say which candidate the database now returns as the best."""
    prove_winner(db, key)
    best = db.best(key["spec_text"], key["shapes"], key["target"])
    if best:
        print(f"fastest proved: {best['schedule']} ({best['median_ms']:.4f} ms on {best['gpu']}, spread "
              f"{best['spread']:.1%})")
