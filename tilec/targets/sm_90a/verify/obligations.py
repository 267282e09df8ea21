"""The proof obligations sm_90a's ops bring, attached to the op that needs them
(dialects/op_rules.py): a tile.warp_specialize brings its mbarrier ring's protocol, its tiles
as copied and read, its staged stores and its register split (tilec/verify/kernels.py runs
them on the kernel's symbolic execution), and the CUDA text's setmaxnreg counts
(tilec/build/verification_cuda.py).

    for check in obligations(fn, "obligations"): rows += check(program, fn)
"""

from __future__ import annotations

import re

from torch_mlir import ir

from tilec.dialects.op_rules import register
from tilec.verify.report import Result
from .hopper import check_ring, check_tiles
from .registers import check_registers, split_op
from .staged_store import check_staged_stores


def warp_roles(p, fn) -> list:
    """(property, check, outcome, domain) of a warp-specialised kernel's ring, tiles, staged
    stores and register split."""
    return check_ring(p) + check_tiles(p) + check_staged_stores(p) + check_registers(fn)


def register_split_in_cuda(fn, source: str, name: str, digest: str) -> list[Result]:
    """The setmaxnreg counts the CUDA asks for are the tile module's register split (which
    registers.py proves fits), read back from the source: [dec producer, inc consumer]."""
    op = split_op(fn)
    if op is None:
        return []
    wanted = [ir.IntegerAttr(op.attributes[k]).value for k in ("producer_registers", "consumer_registers")]
    emitted = [int(n) for n in re.findall(r"setmaxnreg\.(?:dec|inc)\.sync\.aligned\.u32 (\d+);", source)]
    ok = emitted == wanted
    return [Result(name, "cuda", "registers", "the CUDA's setmaxnreg counts are the tile module's register split",
                   "proved" if ok else "counterexample", 0.0, f"source sha256 {digest[:16]}",
                   counterexample={} if ok else {"tile module": wanted, "CUDA": emitted},
                   detail="" if ok else "the emitted setmaxnreg counts differ from tile.warp_specialize's")]


register("obligations", {"tile.warp_specialize": warp_roles})
register("cuda-obligations", {"tile.warp_specialize": register_split_in_cuda})
