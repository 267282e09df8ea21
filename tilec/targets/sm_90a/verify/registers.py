"""The register split of a warp-specialised kernel, read from its tile.warp_specialize:

    128 * producer_registers + 32 * warps * consumer_registers
        <= launch_registers * threads      (setmaxnreg.inc is granted from what the CTA was
                                            launched with, or waits for ever)
    occupancy * that                       <= the SM's register file (the module's target's)

with each count a multiple of 8 in 24..256 (setmaxnreg). All are numbers of the module and
its schedule, so the check is decided by reading them (no solver call); it holds per schedule.

    rows = check_registers(fn)   # [] for a kernel without warp roles
"""

from __future__ import annotations

from torch_mlir import ir

from tilec.dialects.target import target_of
from tilec.dialects.tile import schedule_of

from tilec.verify.solver import Outcome, structural


def split_op(fn):
    """The tile.warp_specialize of tile function ``fn``, or None (a kernel without warp roles)."""
    found = []

    def visit(op):
        if op.name == "tile.warp_specialize":
            found.append(op)
        return ir.WalkResult.ADVANCE

    fn.operation.walk(visit)
    return found[0] if found else None


def check_registers(fn) -> list[tuple[str, str, Outcome, str]]:
    """(property, check, outcome, domain) of the warp roles' register split of tile function ``fn``."""
    op = split_op(fn)
    if op is None:
        return []
    s = schedule_of(fn)
    producer = ir.IntegerAttr(op.attributes["producer_registers"]).value
    consumer = ir.IntegerAttr(op.attributes["consumer_registers"]).value
    asked = 128 * producer + 32 * s.warps * consumer
    launched = s.launch_registers * s.threads
    sm_file = target_of(fn).sm_registers
    counts_ok = all(n % 8 == 0 and 24 <= n <= 256 for n in (producer, consumer))
    ok = counts_ok and asked <= launched and asked * s.occupancy <= sm_file
    model = {"producer registers": producer, "consumer registers": consumer, "asked": asked,
             "launched": launched, "CTAs an SM": s.occupancy, "SM register file": sm_file}
    detail = (f"128 x {producer} + {32 * s.warps} x {consumer} = {asked} registers for {s.occupancy} CTA(s) an "
              f"SM, launched with {s.launch_registers} x {s.threads} = {launched}, an SM holding {sm_file}")
    check = (f"the warp roles' register split ({producer} a producer thread, {consumer} a consumer thread) fits "
             f"what the CTA is launched with and the SM's register file")
    return [("registers", check, structural(ok, detail, model), f"schedule {s.as_text()}")]
