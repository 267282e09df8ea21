"""ta-to-tile for pointwise programs: ta.map and ta.remap ops only, every output over one
domain of rank >= 2, each output element a function of input elements read at any affine
index (views, transposes, slices, broadcasts, RoPE's rotate_half with its ``mod``).

No reduction and no reuse between elements, so the kernel is one expression per output
element, the maps inlined into it and each input read where the composition of the index
maps between it and the output says (``tile.gather``). A CTA owns bm rows of the domain's
next-to-last dim at one position of its leading dims (grid y, in row-major order), and
walks the last dim in blocks of bn:

    lead = unflatten(program_id 1)           r0 = program_id 0 * bm
    for each block of bn columns (j0):
        for each output:  tile.map over [bm, bn]: the expression at (lead, r0 + r, j0 + c),
                          every input element a tile.gather at its composed map
                          tile.store at (lead, r0, j0)

The layouts pass gives the tiles a blocked layout with 16-byte vectors, a warp spanning
several rows where a row block is narrower than 32 vectors (``pointwise_blocked``); the
emitter reads a gather that is contiguous along those vectors 16 bytes at once. Where a row
program takes the function (rank 2, reads in index order), it is tried first.
"""

from dataclasses import dataclass

from torch_mlir import ir
from torch_mlir.dialects import arith, func, scf

from tilec.dialects.dims import binary, const, parse_dim
from tilec.dialects.layout import pointwise_blocked
from tilec.dialects.schedule import Schedule
from tilec.dialects.ta import tensor_dims
from tilec.dialects.tile import schedule_attr

from .bodies import translate
from .common import NoTileLowering, ceildiv, check_schedule, const_index
from .epilogue import _clone_constants
from .rows import DEFAULT, _tile_index
from ..ta_to_loops import new_signature

POINTWISE_ATTR = "tile.pointwise"  # marks the tile function of a pointwise program (its checks)


@dataclass
class PointwiseProgram:
    domain: list      # dim expressions of every output
    returned: list    # the returned ta values, in order


def match(fn) -> PointwiseProgram:
    """The pointwise program of ``fn``; NoTileLowering says what does not fit."""
    ops = [op for op in fn.entry_block.operations if op.operation.name not in ("arith.constant", "func.return")]
    for op in ops:
        if op.operation.name not in ("ta.map", "ta.remap"):
            raise NoTileLowering(f"'{op.operation.name}' is not pointwise (maps and remaps only)")
    returned = list(list(fn.entry_block.operations)[-1].operation.operands)
    made = {op.result for op in ops}
    if not returned or any(v not in made for v in returned) or len(set(returned)) != len(returned):
        raise NoTileLowering("each output of a pointwise program is its own computed value")
    domains = {tuple(str(d) for d in tensor_dims(v.type)) for v in returned}
    if len(domains) != 1:
        raise NoTileLowering(f"a pointwise program's outputs share one domain; these have {len(domains)}")
    domain = list(next(iter(domains)))
    if len(domain) < 2:
        raise NoTileLowering("a pointwise program ranges over at least two dims")
    return PointwiseProgram(domain, returned)


def lower(fn, prog: PointwiseProgram, s):
    """Replace ``fn`` by the pointwise tile function under the schedule ``s`` (a row program's)."""
    if s == Schedule():
        s = default_schedule(prog.domain[-1])
    check_schedule(s, "pointwise", {}, fn)
    new, b, args = new_signature(fn)
    inputs = list(fn.arguments)
    mem = dict(zip(inputs, args))
    outs = args[len(inputs):len(inputs) + len(prog.returned)]
    number = {op.result: n for n, op in enumerate(fn.entry_block.operations) if len(op.operation.results) == 1}
    with ir.InsertionPoint(new.entry_block), fn.location:
        _Lowering(fn, prog, s, b, mem, number).build(outs)
        func.ReturnOp([])
    dims = [parse_dim(d) for d in prog.domain]
    rows = binary("/", binary("+", dims[-2], const(s.bm - 1)), const(s.bm))
    lead = const(1)
    for d in dims[:-2]:
        lead = binary("*", lead, d) if str(lead) != "1" else d
    new.attributes["tile.schedule"] = schedule_attr(s)
    new.attributes["tile.grid"] = ir.ArrayAttr.get([ir.StringAttr.get(str(rows)), ir.StringAttr.get(str(lead))])
    new.attributes["tile.threads"] = ir.IntegerAttr.get(ir.IntegerType.get_signless(64), s.threads)
    new.attributes[POINTWISE_ATTR] = ir.UnitAttr.get()
    element_bytes = min(ir.RankedTensorType(v.type).element_type.width // 8 for v in prog.returned)
    fn.operation.erase()
    return new, pointwise_blocked(s.bm, s.bn, element_bytes, s.warps)


def default_schedule(cols: str) -> Schedule:
    """Without a schedule: a column block that fits the last dim where it is static (RoPE's head
    dim of 64 would fill a quarter of 256 columns), and rows for about 1024 elements a CTA (one
    16-byte vector of bf16 a thread). On the H200, Llama's RoPE on q (8 x 1024 x 32 x 64) ran
    fastest so among bm = 8 to 128 and 1 to 8 warps at bn = 64: bm=16 with 4 warps 3% ahead of
    bm=32, 6-9% ahead of bm=8 with 1 or 2 warps, 32% ahead of bm=128
    (bench/results/steps/pytorch-h200-2026-12-03-rope-schedules-vectors-ab.json)."""
    bn = DEFAULT.bn
    if cols.isdigit():
        bn = max(32, min(DEFAULT.bn, 1 << (int(cols) - 1).bit_length()))
    return Schedule(bm=max(DEFAULT.warps, 1024 // bn), bn=bn, warps=DEFAULT.warps)


class _Lowering:
    def __init__(self, fn, prog, s, b, mem, number):
        self.fn, self.prog, self.s, self.b, self.mem, self.number = fn, prog, s, b, mem, number

    def build(self, outs) -> None:
        s, dims = self.s, [self.b.dim(parse_dim(d)) for d in self.prog.domain]
        self.scalars = _clone_constants(self.fn.entry_block)
        pid = [ir.Operation.create("tile.program_id", results=[ir.IndexType.get()], attributes={
            "axis": ir.IntegerAttr.get(ir.IntegerType.get_signless(64), axis)}).result for axis in (0, 1)]
        self.r0 = arith.MulIOp(pid[0], const_index(s.bm)).result
        self.lead, rest = [], pid[1]  # grid y in row-major order over the leading dims
        for extent in reversed(dims[:-2]):
            self.lead.insert(0, arith.RemSIOp(rest, extent).result)
            rest = arith.DivSIOp(rest, extent).result
        loop = scf.ForOp(const_index(0), ceildiv(dims[-1], const_index(s.bn)), const_index(1))
        with ir.InsertionPoint(loop.body):
            self.j0 = arith.MulIOp(loop.induction_variable, const_index(s.bn)).result
            for value, out in zip(self.prog.returned, outs):
                tile = self.output(value)
                ir.Operation.create("tile.store", operands=[tile, out, *self.lead, self.r0, self.j0])
            scf.YieldOp([])

    def output(self, value):
        """The [bm, bn] tile.map of output ``value`` (its provenance: the ta op it computes)."""
        element = ir.RankedTensorType(value.type).element_type
        op = ir.Operation.create("tile.map", results=[ir.RankedTensorType.get([self.s.bm, self.s.bn], element)],
                                 regions=1)
        i64 = ir.IntegerType.get_signless(64)
        op.attributes["tile.computes"] = ir.IntegerAttr.get(i64, self.number[value])
        rank = len(self.prog.domain)
        with ir.InsertionPoint(op.regions[0].blocks.append()):
            self.at = self.lead + [arith.AddIOp(self.r0, _tile_index(0)).result,
                                   arith.AddIOp(self.j0, _tile_index(1)).result]
            self.memo = {}
            identity = [ir.AffineDimExpr.get(k) for k in range(rank)]
            ir.Operation.create("tile.yield", operands=[self.value(value, identity)])
        return op.result

    def value(self, v, exprs: list):
        """The scalar of ta value ``v`` at ``exprs`` (affine in the domain's dims), built in the body."""
        key = (v, tuple(str(e) for e in exprs))
        if key in self.memo:
            return self.memo[key]
        if v in self.scalars:
            return self.scalars[v]
        if v in self.mem:
            amap = ir.AffineMap.get(len(self.at), 0, exprs)
            element = ir.MemRefType(self.mem[v].type).element_type
            result = ir.Operation.create("tile.gather", results=[element], operands=[self.mem[v], *self.at],
                                         attributes={"map": ir.AffineMapAttr.get(amap),
                                                     "padding": ir.FloatAttr.get(element, 0.0)}).result
        elif v.owner.operation.name == "ta.remap":
            remap = v.owner.operation
            at = _compose(ir.AffineMapAttr(remap.attributes["map"]).value, exprs, len(self.at))
            result = self.value(remap.operands[0], at)
        else:
            result = self.translate(v.owner.operation, exprs)
        self.memo[key] = result
        return result

    def translate(self, op, exprs):
        """The yielded scalar of ta.map ``op`` at ``exprs``: its body rebuilt, each ta.at read inline."""
        def read(inner):
            at = _compose(ir.AffineMapAttr(inner.attributes["map"]).value, exprs, len(self.at))
            return self.value(inner.operation.operands[0], at)

        return translate(op.regions[0].blocks[0].operations, self.b.params, self.scalars.__getitem__, read,
                         lambda d: self.index(exprs[d]))[0]

    def index(self, expr):
        """The index value of ``expr``: a domain dim, or a dim plus a constant."""
        if isinstance(expr, ir.AffineDimExpr):
            return self.at[expr.position]
        if isinstance(expr, ir.AffineAddExpr):
            add = expr
            if isinstance(add.lhs, ir.AffineDimExpr) and isinstance(add.rhs, ir.AffineConstantExpr):
                return arith.AddIOp(self.at[add.lhs.position],
                                    const_index(add.rhs.value)).result
        raise NoTileLowering(f"an index read at {expr} (a pointwise program reads ta.index at a dim plus a constant)")


def _compose(amap: ir.AffineMap, exprs: list, rank: int) -> list:
    """``amap``'s results with its dims replaced by ``exprs`` (affine in ``rank`` dims)."""
    inner = ir.AffineMap.get(rank, 0, exprs)
    return list(ir.AffineMap.get(rank, 0, [e.compose(inner) for e in amap.results]).results)  # typed exprs
