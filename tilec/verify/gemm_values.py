"""Value facts of a GEMM-family tile program, against the ta reference it was built from.

The reference is the ta function the tile program was lowered from: its contraction's
index maps say which A and B elements meet in C[i, j]; its ta.map bodies say what the
epilogue computes. Inputs are uninterpreted (one Z3 real per element read, named by
tensor and index), transcendental functions and dtype casts are uninterpreted functions:
an equality proved holds for every input and every implementation of them.
"""

from __future__ import annotations

import z3
from torch_mlir import ir

from tilec.dialects.tile import is_mma, mma_accumulator, schedule_of

from .gemm_prologue import check_prologue, staged
from .solver import Outcome, prove
from .split_k import k_begin
from .symbolic import Program, dim, staged_copy
from .tile_values import ta_input_names


class Reference:
    """The ta contraction and epilogue, with the index of each domain dim as a Z3 term."""

    def __init__(self, ta_fn, params: dict, contract=None):
        ops = list(ta_fn.entry_block.operations)
        self.contract = contract or next(op for op in ops if op.operation.name == "ta.contract")
        self.number = next(n for n, op in enumerate(ops) if op.operation == self.contract.operation)
        # every contraction's result, by its position (provenance): the epilogue may read several
        self.accumulators = {op.result: n for n, op in enumerate(ops) if op.operation.name == "ta.contract"}
        self.maps = [[ir.AffineDimExpr(e).position for e in ir.AffineMapAttr(m).value.results]
                     for m in ir.ArrayAttr(self.contract.attributes["maps"])]
        maps_in_order = [list(m) for m in self.maps[:2]]  # the contract's own operand order and indexing
        names = ta_input_names(ta_fn)
        self.names = names
        # an operand a ta.map computes from one input (a prologue) is read through that input
        self.prologues = [None, None]  # (the ta.map, the domain dim of each of its dims) per operand
        operands = []
        for n, v in enumerate(self.contract.operation.operands):
            if v in names:
                operands.append(names[v])
                continue
            main = prologue_input(v.owner, names)
            self.prologues[n] = (v.owner, self.maps[n])
            self.maps[n] = [self.maps[n][r] for r in main[1]]
            operands.append(names[main[0]])
        self.lhs, self.rhs = operands
        rows = self.maps[2][-2]
        if rows not in self.maps[0] and rows in self.maps[1]:  # a * b = b * a: A is the factor with the rows
            self.lhs, self.rhs = self.rhs, self.lhs
            self.maps = [self.maps[1], self.maps[0], self.maps[2]]
            self.prologues.reverse()
        self.epilogue = [op for op in ops if op.operation.name == "ta.map"]
        self.result = list(ops[-1].operation.operands)[0]
        out = self.maps[2]
        extents = {}
        for value, positions in zip([*self.contract.operation.operands, self.contract.result],
                                    [*maps_in_order, out]):
            for d, pos in zip(ir.RankedTensorType(value.type).encoding, positions):
                extents[pos] = ir.StringAttr(d).value
        self.extents = {d: dim(e, params) for d, e in extents.items()}
        # several reduced indices are one over their product, the operands row-major views
        # (gemm_views.py proves that reindexing); the first stands for the run
        self.group = [d for d in self.maps[0] if d not in out]
        if len(self.group) > 1:
            self.group_extents = [self.extents[d] for d in self.group]
            self.maps[:2] = [merged_run(m, self.group) for m in self.maps[:2]]
            self.extents[self.group[0]] = z3.Product(*self.group_extents)
        self.reduced = self.group[0]
        self.size_k = self.extents[self.reduced]


def merged_run(positions: list, group: list) -> list:
    """``positions`` with the run of ``group`` dims replaced by its first."""
    at = positions.index(group[0])
    if positions[at:at + len(group)] != group:
        raise ValueError("the reduced indices do not stand side by side, in one order, in an operand")
    return positions[:at + 1] + positions[at + len(group):]


def prologue_input(map_op, names: dict):
    """(the input a prologue ta.map reads at the operand's rank, the map dims of its indices)."""
    rank = ir.RankedTensorType(map_op.result.type).rank
    for inner in map_op.regions[0].blocks[0].operations:
        if inner.operation.name == "ta.at" and inner.operation.operands[0] in names and \
                ir.RankedTensorType(inner.operation.operands[0].type).rank == rank:
            amap = ir.AffineMapAttr(inner.attributes["map"]).value
            return inner.operation.operands[0], [ir.AffineDimExpr(e).position for e in amap.results]
    raise ValueError("a contraction operand is neither an input nor a ta.map of one")


def references(ta_fn, params: dict) -> dict:
    """A Reference per contraction of ``ta_fn``, keyed by its position in the function."""
    refs = [Reference(ta_fn, params, op) for op in ta_fn.entry_block.operations if op.operation.name == "ta.contract"]
    return {ref.number: ref for ref in refs}


def computes(op, default: int) -> int:
    """The ta op a tile op computes (its ``tile.computes`` provenance), else ``default``."""
    attrs = op.operation.attributes
    return ir.IntegerAttr(attrs["tile.computes"]).value if "tile.computes" in attrs else default


def operand_indices(p: Program, ref: Reference, mma=None) -> list[tuple[str, Outcome]]:
    """acc[i][j] += A[...] * B[...] at the reference's indices, for the copy that filled the stage
    (``mma``: the mma event of this contraction; the first one by default)."""
    kt, first, nk, _ = p.loops["main"]
    sched = schedule_of(p.fn).items()
    store = next(e for e in p.events if e.kind == "store")
    offsets = store.data["offsets"]
    i, j, kk = z3.Ints("i j kk")
    mma = mma or next(e for e in p.events if e.kind == "mma")
    out_pos = ref.maps[2]
    domain = {d: off for d, off in zip(out_pos[:-2], offsets[:-2])}
    domain[out_pos[-2]], domain[out_pos[-1]] = offsets[-2] + i, offsets[-1] + j
    # iteration kt multiplies k tile kt - first (k_coverage), from the split's first (split_k.py)
    k0 = (k_begin(p) + kt - first) * sched["bk"]
    domain[ref.reduced] = k0 + kk
    ranges = [i >= 0, i < sched["bm"], j >= 0, j < sched["bn"], kk >= 0, kk < sched["bk"], kt >= first, kt < nk]
    results = []
    for n, (which, operand, name, positions, local) in enumerate((("A", mma.data["a"], ref.lhs, ref.maps[0], (i, kk)),
                                                                  ("B", mma.data["b"], ref.rhs, ref.maps[1], (kk, j)))):
        prologue = operand[1] if isinstance(operand, tuple) and operand[0] == "op" else None
        if prologue is not None or ref.prologues[n] is not None:
            results.append((f"operand {which}: the prologue map equals the reference's at every element",
                            check_prologue(p, ref, n, prologue, domain, local, k0 + kk, ranges)))
            operand = staged(p, prologue) if prologue is not None else operand
        if not (isinstance(operand, tuple) and operand[0] == "smem"):
            results.append((f"mma operand {which} comes from shared memory",  # a form this check does not read
                            Outcome("error", 0.0, {}, "the mma operand is not a tile.smem_load")))
            continue
        _, buf, _, transposed = operand
        r, c = (local[1], local[0]) if transposed else local
        filled = staged_copy(p, buf)
        if filled is None:
            results.append((f"operand {which} reads {name}",
                            Outcome("counterexample", 0.0, {},
                                    f"the shared buffer of operand {which} is not filled from {name}")))
            continue
        src, kernel = filled
        lead = len(kernel) - 2
        kernel = kernel[:lead] + [kernel[lead] + r, kernel[lead + 1] + c]
        reference = [domain[d] for d in positions]
        claim = z3.And(z3.BoolVal(src == name), *[a == b for a, b in zip(kernel, reference)])
        watch = {"kt": kt, "i": i, "j": j, "kk": kk, **p.params,
                 **{f"kernel index {n}": x for n, x in enumerate(kernel)},
                 **{f"reference index {n}": x for n, x in enumerate(reference)}}
        outcome = prove(claim, p.assumptions + ranges, watch=watch)
        if src != name:
            outcome.detail = f"operand {which} is read from {src}, the reference multiplies {name}"
        results.append((f"operand {which}: acc(i, j) accumulates {name} at the reference's indices", outcome))
    return results


def accumulator_starts_at_zero(p: Program, slot: int = 0) -> tuple[str, Outcome]:
    _, _, _, loop = p.loops["main"]
    init = list(loop.operation.operands)[3 + slot]
    value = _constant_tile(init)
    outcome = prove(z3.BoolVal(value == 0.0), [], watch={})
    if value != 0.0:
        outcome.model = {"initial accumulator": value}
    return f"accumulator {slot} starts at 0" if slot else "the accumulator starts at 0", outcome


def accumulates_across_k(p: Program) -> tuple[str, Outcome]:
    """Each mma of the K loop adds to the loop-carried accumulator and its result is carried on
    (an mma onto a fresh tile would keep only the last K tile)."""
    _, _, _, loop = p.loops["main"]
    body = loop.regions[0].blocks[0]
    args = list(body.arguments)[1:]
    yielded = list(list(body.operations)[-1].operation.operands)
    wrong = []
    for op in body.operations:
        if not is_mma(op):
            continue
        acc = mma_accumulator(op)
        slot = next((k for k, a in enumerate(args) if a == acc), None)
        if slot is None or yielded[slot] != op.result:
            wrong.append(slot)
    outcome = Outcome("proved" if not wrong else "counterexample", 0.0,
                      {} if not wrong else {"accumulator slot": wrong[0]},
                      "" if not wrong else "an mma does not add to the accumulator the loop carries")
    return "each K step adds A·B to the accumulator the loop carries", outcome


def _constant_tile(value):
    op = value.owner
    if isinstance(op, ir.Block) or op.operation.name != "tile.map":
        return None
    yielded = list(op.regions[0].blocks[0].operations)[-1].operation.operands[0]
    const = yielded.owner
    if isinstance(const, ir.Block) or const.operation.name != "arith.constant":
        return None
    return ir.FloatAttr(const.attributes["value"]).value


def offsets_not_negative(p: Program) -> tuple[str, Outcome]:
    claims, (kt, first, nk, _) = [], p.loops["main"]
    other = "producer" if "producer" in p.loops else "prologue"  # the loop that copies ahead
    s_iv, s_first, P, _ = p.loops[other]
    bounds = list(p.assumptions) + [kt >= first, kt < nk, s_iv >= s_first, s_iv < P]
    for e in p.events:
        if e.kind in ("copy", "store"):
            claims += [o >= 0 for o in e.data["offsets"]]
    return "every tile offset is >= 0 (the extent masks bound it above)", \
        prove(z3.And(*claims), bounds, watch={"kt": kt, "s": s_iv, **p.params, **{f"pid{n}": x for n, x in enumerate(p.pids)}})
