"""tile.split_sum in CUDA: the parts of an output tile's sum over K written by their CTAs (split-K).

    each thread:      its accumulator elements, as float pairs, into part `part` of workspace
                      slot `slot` (S parts of a bm x bn f32 tile, row-major): 8-byte stores
    the CTA:          a barrier; thread 0 fences (release: the CTA's part, ordered before it by
                      the barrier, visible before the count), adds 1 to the slot's count (the
                      CTA that finds S - 1 there is the last) and fences again (acquire); a
                      barrier, and every other CTA returns
    the last CTA:     each thread sums its elements' S parts in part
                      order, each read from L2 (__ldcg: L1 holds no stale copy; its own part
                      too, so the sum is the same whichever CTA is last), the loads of a pair's
                      parts unrolled and independent; thread 0 sets the count back to 0

Atomic adds of each element into one tile, tried first, made a 2048³ GEMM split 2 ways take
3.1x as long as unsplit on an H100; written parts, 8-byte stores and one thread's fences took
that to 1.7x (docs/benchmarks.md, "Split-K": the ways measured, and what is left). The workspace is two kernel
parameters after the arguments (``WORKSPACE``): S parts per slot, one slot per output tile
(the grid's CTAs / S), and a count per slot, zero when a launch starts; the runtime allocates
them (manifest ``workspace``: runtime/workspace.py). In a warp-specialised kernel the barrier
is a named one over the consumer warps (the producer does not take part).
"""

from __future__ import annotations

from torch_mlir import ir

from tilec.dialects.tile import walk_ops

from ..diagnostics import TilecError
from .cexpr import CExpr
from .cuda_regs import Frag

WORKSPACE = ("float* __restrict__ split_ws", "unsigned* __restrict__ split_count")
SPLIT_BARRIER = 5  # named barrier id of the consumer warps (1-3: ping-pong turns, 4: staged stores)


def workspace(fn) -> dict | None:
    """The manifest's ``workspace`` of tile function ``fn``: the f32 elements of a part and the
    splits (a launch has its CTAs / splits slots of splits parts: runtime/workspace.py); None
    without a split."""
    op = next((op for op in walk_ops(fn.regions[0].blocks[0]) if op.operation.name == "tile.split_sum"), None)
    if op is None:
        return None
    splits = ir.IntegerAttr(op.attributes["splits"]).value
    bm, bn = ir.RankedTensorType(op.operands[0].type).shape
    return {"floats": bm * bn, "splits": splits}


def op_tile_split_sum(self, op) -> None:
    acc, slot, part, _ = op.operation.operands
    frag = self.value(acc)
    if not isinstance(frag, Frag) or frag.scale is not None:
        raise TilecError("tile.split_sum writes an mma accumulator (the K loop's) held in registers")
    splits = ir.IntegerAttr(op.attributes["splits"]).value
    bm, bn = ir.RankedTensorType(acc.type).shape
    flag = self.smem_bytes
    self.smem_bytes += 16
    barrier = self.target.barrier if self.role != "consumer" else \
        f'asm volatile("bar.sync {SPLIT_BARRIER}, {32 * self.warps};" ::: "memory");'
    self.line(f"{{  // split-K: this CTA's part of the tile, part {self.value(part)} of workspace slot "
              f"{self.value(slot)}; the last of {splits} to arrive sums them")
    self.indent += 1
    self.line(f"float* const ws = split_ws + (long long)({self.value(slot)}) * {splits * bm * bn};")
    self.line(f"const long long own = {self.value(part)};")
    self.line(f"unsigned* const count = split_count + {self.value(slot)};")
    self.line(f"int* const last = reinterpret_cast<int*>(smem + {flag});")
    a = f"{frag.name}[mi][ni][2 * h]"
    b = f"{frag.name}[mi][ni][2 * h + 1]"
    # __stcg: one 8-byte store, cached in L2 alone (a float2 assigned through a pointer was
    # split into two 4-byte stores, twice the sectors)
    _each_pair(self, frag, [f"float2 v; v.x = {a}; v.y = {b};",
                            f"__stcg(reinterpret_cast<float2*>(ws + own * {bm * bn} + row * {bn} + col), v);"])
    self.line(barrier)
    # one thread's fences order the CTA's part, which the barrier put before them, against the
    # count: a release before it, an acquire after it in the last CTA (the barrier then orders
    # the other threads' reads after that)
    self.line(f"if (tid == 0) {{ __threadfence(); *last = atomicAdd(count, 1u) == {splits - 1}u; __threadfence(); }}")
    self.line(barrier)
    self.line("if (!*last) return;  // another CTA of the slot arrives last and finishes the tile")
    at = f"reinterpret_cast<const float2*>(ws + {{}} * {bm * bn} + row * {bn} + col)"
    _each_pair(self, frag, [f"float2 sum = __ldcg({at.format(0)});",
                            "// in part order, each read from L2: one sum whoever is last",
                            "#pragma unroll",
                            f"for (int p = 1; p < {splits}; ++p) {{",
                            f"    const float2 v = __ldcg({at.format('p')});",
                            "    sum.x += v.x; sum.y += v.y;",
                            "}",
                            f"{a} = sum.x; {b} = sum.y;"])
    self.line("if (tid == 0) *count = 0u;  // the slot's count as the launch found it")
    self.indent -= 1
    self.line("}")
    self.names[op.result] = frag


def _each_pair(self, frag: Frag, statements: list[str]) -> None:
    """``statements`` for each pair h of accumulator registers (2h, 2h + 1: columns col and col
    + 1 of a row) of each mma tile (mi, ni) of the thread, with the pair's (row, col) in the
    tile (the warp tiling's accumulator layout)."""
    t = frag.tiling
    row, col = t.accumulator(*map(CExpr, ("warp_m", "warp_n", "lane", "mi", "ni", "(2 * h)")))
    self.line("#pragma unroll")
    self.line(f"for (int mi = 0; mi < {t.mi}; ++mi)")
    self.line("#pragma unroll")
    self.line(f"for (int ni = 0; ni < {t.ni}; ++ni)")
    self.line("#pragma unroll")
    self.line("for (int h = 0; h < 2; ++h) {")
    self.line(f"    const int row = {row.text}, col = {col.text};")
    for text in statements:
        self.line(f"    {text}")
    self.line("}")
