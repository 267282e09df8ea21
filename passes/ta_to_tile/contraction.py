"""ta-to-tile for the GEMM family: recognise contraction + epilogue, then build the tile program."""

from dataclasses import dataclass

from torch_mlir import ir
from torch_mlir.dialects import arith, func, scf

from tilec.dialects import STAGES_ATTR
from tilec.dialects.layout import smem_tile_layout
from tilec.dialects.schedule import Schedule
from tilec.dialects.dims import binary, const
from tilec.dialects.ta import tensor_dims
from tilec.dialects.tile import layout_attr, schedule_attr

from .._loops import positions
from . import layouts
from .common import (constant_tile, copy_rows, mark_prologue, SHARED, NoTileLowering, ceildiv, check_schedule,
                     const_index, element_bytes, op_with_ints)
from .epilogue import emit_epilogue, over_output
from .operands import merged, through_prologue
from .views import merge_view
from .prologue import emit_prologue
from ..ta_to_loops import new_signature

@dataclass
class Gemm:
    contract: object
    lhs: int               # argument numbers of the operands
    rhs: int
    batch: list            # domain dims of the batch, in output order
    i: int                 # domain dims of rows, columns and the reduction
    j: int
    k: int
    a_trans: bool          # lhs stored as [k, i]
    b_trans: bool          # rhs stored as [j, k]
    epilogue: list         # ta.map ops after the contraction, in order
    result: object         # the returned value
    a_batch: list = None   # the batch dims each operand has (a broadcast operand lacks some)
    b_batch: list = None
    others: list = None    # further contractions of the same A (SwiGLU's x·Wg and x·Wu), as Gemm
    a_prologue: object = None  # the ta.map each operand is computed by from its input (or None)
    b_prologue: object = None
    a_map: list = None     # the domain dim of each dim of the contraction's operands (prologue reads)
    b_map: list = None
    k_group: list = None   # the reduced domain dims k stands for (several: a merged, row-major view)


def match(fn) -> Gemm:
    """The contraction(s) and epilogue of ``fn``; NoTileLowering says what does not fit the form.
    Several contractions lower together when they share A (same tensor, same indexing) and
    their result's shape: one pass over K feeds an accumulator each."""
    ops = list(fn.entry_block.operations)
    contracts = [op for op in ops if op.operation.name == "ta.contract"]
    if not contracts:
        raise NoTileLowering(f"'{ir.StringAttr(fn.attributes['sym_name']).value}' has no contraction")
    first, *others = [_contraction(fn, c) for c in contracts]
    for g in others:
        if (g.lhs, g.a_trans, g.a_batch, g.a_prologue) != (first.lhs, first.a_trans, first.a_batch, first.a_prologue) or \
                tensor_dims(g.contract.result.type) != tensor_dims(first.contract.result.type):
            raise NoTileLowering(f"{len(contracts)} contractions lower into one kernel only when they share "
                                 f"their first operand and their result's shape")
    prologues = {x.operation for g in [first, *others] for x in (g.a_prologue, g.b_prologue) if x is not None}
    args = list(fn.arguments)
    if others and prologues and all(not isinstance(ir.RankedTensorType(args[x].type).element_type, ir.F32Type)
                                    for g in [first, *others] for x in (g.lhs, g.rhs)):
        # their kernel (mma.sync) multiplies a mapped 16-bit operand on the CUDA cores: the map
        # (a norm's gain before SwiGLU) is cheaper as a kernel of its own, or in its producer's
        raise NoTileLowering(f"{len(contracts)} contractions sharing A read 16-bit operands as stored "
                             f"(no prologue map)")
    epilogue = [op for op in ops if op.operation.name == "ta.map" and op.operation not in prologues]
    others_ops = [op for op in ops if op.operation.name not in ("ta.contract", "ta.map", "arith.constant",
                                                                "func.return")]
    if others_ops:
        raise NoTileLowering(f"'{others_ops[0].operation.name}' cannot be part of a GEMM epilogue")
    returned = list(ops[-1].operation.operands)
    if len(returned) != 1:
        raise NoTileLowering("a GEMM kernel has one output")
    if not all(over_output(op, first.contract) for op in epilogue):  # a transposing copy: a kernel of its own
        raise NoTileLowering("epilogue maps must range over the contraction's output")
    first.epilogue, first.result, first.others = epilogue, returned[0], others
    return first


def _contraction(fn, c) -> Gemm:
    """One ta.contract as a GEMM: its operands, batch, rows, columns and reduced index."""
    maps = [positions(ir.AffineMapAttr(m).value) for m in ir.ArrayAttr(c.attributes["maps"])]
    lhs_map, rhs_map, out = maps
    reduced = [d for d in lhs_map if d not in out]
    if not reduced or len(out) < 2:
        raise NoTileLowering("the contraction must reduce an index into an output of rank >= 2")
    k, (i, j), batch = reduced[0], out[-2:], out[:-2]
    args = list(fn.arguments)
    operands = list(c.operation.operands)
    if i in rhs_map and i not in lhs_map:  # any operand order: A is the one holding the rows
        lhs_map, rhs_map, operands = rhs_map, lhs_map, operands[::-1]
    op_maps = [lhs_map, rhs_map]
    # an operand computed by a ta.map from one input (a prologue: an activation, a scale, a cast)
    # is that input, copied as it is and mapped in registers before the mma
    (x_a, lhs_map, pro_a), (x_b, rhs_map, pro_b) = (through_prologue(v, m, args)
                                                    for v, m in ((operands[0], lhs_map), (operands[1], rhs_map)))
    operands = [x_a, x_b]
    # several reduced indices side by side in both operands, in one order, are one index over
    # their product: the operands are read as row-major views with those dims merged
    if len(reduced) > 1 and (pro_a is not None or pro_b is not None):
        raise NoTileLowering("a contraction over several indices takes its operands as inputs (no prologue map)")
    lhs_map, rhs_map = (merged(m, reduced) for m in (lhs_map, rhs_map))
    # an operand may lack batch dims (broadcast, as a weight shared by every batch element)
    a_batch, b_batch = ([d for d in m if d in batch] for m in (lhs_map, rhs_map))
    if set(batch) - set(a_batch) - set(b_batch):
        raise NoTileLowering("every batch index of the output must index an operand")
    a_trans = lhs_map == a_batch + [k, i]
    b_trans = rhs_map == b_batch + [j, k]
    if lhs_map not in (a_batch + [i, k], a_batch + [k, i]) or rhs_map not in (b_batch + [k, j], b_batch + [j, k]):
        raise NoTileLowering("operands must be [batch..., rows, k] / [batch..., k, cols] (or transposed), "
                             "batch dims in the output's order")
    types = [ir.RankedTensorType(v.type).element_type for v in operands]
    if not all(isinstance(t, (ir.BF16Type, ir.F16Type, ir.F32Type)) for t in types):
        raise NoTileLowering(f"the contraction's inputs are {types[0]} and {types[1]}: tile kernels read "
                             f"bf16, f16 or f32")
    return Gemm(c, args.index(operands[0]), args.index(operands[1]), batch, i, j, k, a_trans, b_trans,
                [], None, a_batch, b_batch, None, pro_a, pro_b, op_maps[0], op_maps[1], reduced)


def check_specialisable(g: Gemm) -> None:
    """What the warp-specialised kernel (sm_90a's tile-warp-specialize, which a schedule with
    consumer warpgroups asks for) does not take (yet); the mma.sync kernel takes all of it."""
    if g.a_prologue is not None or g.b_prologue is not None:
        raise NoTileLowering("a warp-specialised kernel reads its operands as they are stored; "
                             "a prologue map needs consumers=0")
    if len(g.k_group) > 1:
        raise NoTileLowering("a warp-specialised kernel reduces one index; merged reduced indices need consumers=0")


def _grouped_raster(pid, grid_m, grid_n, group_m: int):
    """CTA pid -> (pid_m, pid_n), walking group_m rows of tiles at a time (Triton's order)."""
    group = const_index(group_m)
    width = arith.MulIOp(group, grid_n).result
    first_m = arith.MulIOp(arith.DivSIOp(pid, width).result, group).result
    size = arith.MinSIOp(arith.SubIOp(grid_m, first_m).result, group).result
    in_group = arith.RemSIOp(pid, width).result
    pid_m = arith.AddIOp(first_m, arith.RemSIOp(in_group, size).result).result
    pid_n = arith.DivSIOp(in_group, size).result
    return pid_m, pid_n


def lower(fn, g: Gemm, options) -> None:
    """Replace ``fn`` by the tile program of its contraction ``g`` under the schedule ``options``."""
    new, b, args = new_signature(fn, suffix="")
    inputs = list(fn.arguments)
    mem = {v: a for v, a in zip(inputs, args)}
    out_arg = args[len(inputs)]
    gs = [g, *g.others]
    if options.consumers:  # sm_90a's tile-warp-specialize takes the staged program this builds
        check_specialisable(g)
    if options == Schedule() and len(gs) > 1:  # no schedule given: narrower tiles for several accumulators
        options = Schedule(bn=max(32, 128 // len(gs) // 32 * 32))
    a = mem[inputs[g.lhs]]
    a_type = ir.RankedTensorType(inputs[g.lhs].type)
    element = a_type.element_type
    merged_k = None
    if len(g.k_group) > 1:  # A and B read as row-major views whose k dims are one
        for x in gs:
            merged_k = merge_view(new, mem[inputs[x.rhs]], x.b_map, g.k_group)
        merged_k = merge_view(new, a, g.a_map, g.k_group)
    bits = 16 if not isinstance(element, ir.F32Type) else 32
    b_elements = [ir.RankedTensorType(inputs[x.rhs].type).element_type for x in gs]
    b_bits = [16 if not isinstance(e, ir.F32Type) else 32 for e in b_elements]
    copied = [("A", a, "read")] + [(f"B{n}" if len(gs) > 1 else "B", mem[inputs[x.rhs]], "read")
                                   for n, x in enumerate(gs)] + [("the output", out_arg, "write")]
    check_schedule(options, "contraction", {"element_bytes": max([bits] + b_bits) // 8, "b_operands": len(gs),
                                            "out_bytes": element_bytes(ir.MemRefType(out_arg.type)),
                                            "copy_rows": copy_rows(copied, options)}, fn)
    number = {op.operation: n for n, op in enumerate(fn.entry_block.operations)}  # provenance of each mma
    out_dims = tensor_dims(g.contract.result.type)
    dims = {g.i: out_dims[-2], g.j: out_dims[-1]}
    lhs_dims = tensor_dims(a_type)
    dims[g.k] = merged_k or (lhs_dims[-2] if g.a_trans else lhs_dims[-1])
    s = options
    f32 = ir.F32Type.get()
    with ir.InsertionPoint(new.entry_block), fn.location:
        size_m, size_n, size_k = (b.dim(dims[d]) for d in (g.i, g.j, g.k))
        grid_m, grid_n = ceildiv(size_m, const_index(s.bm)), ceildiv(size_n, const_index(s.bn))
        pid = ir.Operation.create("tile.program_id", results=[ir.IndexType.get()],
                                  attributes={"axis": ir.IntegerAttr.get(ir.IntegerType.get_signless(64), 0)}).result
        # grid y: the batch elements, each split s.split_k ways along K (split = its remainder)
        flat = split = None
        if g.batch or s.split_k > 1:
            flat = ir.Operation.create("tile.program_id", results=[ir.IndexType.get()], attributes={
                "axis": ir.IntegerAttr.get(ir.IntegerType.get_signless(64), 1)}).result
        if s.split_k > 1:
            split = arith.RemSIOp(flat, const_index(s.split_k)).result
            flat = arith.DivSIOp(flat, const_index(s.split_k)).result
        batch_ids = _batch_ids(g, b, flat) if g.batch else []
        pid_m, pid_n = _grouped_raster(pid, grid_m, grid_n, s.group_m)
        m0 = arith.MulIOp(pid_m, const_index(s.bm)).result
        n0 = arith.MulIOp(pid_n, const_index(s.bn)).result
        a_tile = (s.bk, s.bm) if g.a_trans else (s.bm, s.bk)
        sa = _alloc(a_tile, element, bits, s)
        sbs = [_alloc((s.bn, s.bk) if x.b_trans else (s.bk, s.bn), e, eb, s) for x, e, eb in zip(gs, b_elements, b_bits)]
        nk = ceildiv(size_k, const_index(s.bk))
        k_begin = const_index(0)
        if split is not None:  # split `split` multiplies K tiles [k_begin, k_begin + its count)
            chunk = ceildiv(nk, const_index(s.split_k))
            k_begin = arith.MulIOp(split, chunk).result
            nk = arith.MaxSIOp(const_index(0), arith.MinSIOp(chunk, arith.SubIOp(nk, k_begin).result).result).result

        def k_origin(kt):
            """The first k of the K tile iteration kt multiplies."""
            return arith.MulIOp(kt if split is None else arith.AddIOp(kt, k_begin).result, const_index(s.bk)).result

        def copy(kt, stage):
            k0 = k_origin(kt)
            a_off = [batch_ids[g.batch.index(d)] for d in g.a_batch] + ([k0, m0] if g.a_trans else [m0, k0])
            ir.Operation.create("tile.async_copy", operands=[a, *a_off, sa, stage])
            for x, sb in zip(gs, sbs):
                b_off = [batch_ids[g.batch.index(d)] for d in x.b_batch] + ([n0, k0] if x.b_trans else [k0, n0])
                ir.Operation.create("tile.async_copy", operands=[mem[inputs[x.rhs]], *b_off, sb, stage])
            ir.Operation.create("tile.commit_group")

        # prologue: the first stages - 1 K tiles in flight
        prologue = scf.ForOp(const_index(0), const_index(s.stages - 1), const_index(1))
        with ir.InsertionPoint(prologue.body):
            copy(prologue.induction_variable, prologue.induction_variable)
            scf.YieldOp([])
        mark_prologue(prologue)  # the pipeline's structure, read by the verifier
        acc_type = ir.RankedTensorType.get([s.bm, s.bn], f32)
        zeros = [constant_tile(acc_type, 0.0) for _ in gs]
        loop = scf.ForOp(const_index(0), nk, const_index(1), zeros)
        loop.attributes[STAGES_ATTR] = ir.IntegerAttr.get(ir.IntegerType.get_signless(64), s.stages)
        with ir.InsertionPoint(loop.body):
            kt = loop.induction_variable
            stage = arith.RemSIOp(kt, const_index(s.stages)).result
            # tile kt has landed once at most stages - 2 younger groups are pending
            op_with_ints("tile.wait_group", pending=s.stages - 2)
            ir.Operation.create("tile.barrier")
            at = _smem_load(sa, stage, (s.bm, s.bk), element, g.a_trans)
            bts = [_smem_load(sb, stage, (s.bk, s.bn), e, x.b_trans) for x, sb, e in zip(gs, sbs, b_elements)]
            ahead = arith.AddIOp(kt, const_index(s.stages - 1)).result
            copy(ahead, arith.RemSIOp(ahead, const_index(s.stages)).result)
            k0 = k_origin(kt)
            where = {g.k: (k0, s.bk), g.i: (m0, s.bm), g.j: (n0, s.bn),
                     **{d: (batch_ids[g.batch.index(d)], None) for d in g.batch}}
            if g.a_prologue is not None:  # the operand the mma reads is the map of the copied tile
                at = emit_prologue(g.a_prologue, at, inputs[g.lhs], g.a_map, (g.i, g.k), where, mem, b, (1, size_k))
            bts = [bt if x.b_prologue is None else
                   emit_prologue(x.b_prologue, bt, inputs[x.rhs], x.b_map, (g.k, g.j), where, mem, b, (0, size_k))
                   for x, bt in zip(gs, bts)]
            accs = []
            for x, bt, carried in zip(gs, bts, loop.inner_iter_args):
                mma = ir.Operation.create("tile.mma", results=[acc_type], operands=[at, bt, carried])
                mma.attributes["tile.computes"] = ir.IntegerAttr.get(ir.IntegerType.get_signless(64),
                                                                     number[x.contract.operation])
                accs.append(mma.result)
            scf.YieldOp(accs)
        op_with_ints("tile.wait_group", pending=0)
        # keyed by output dim: batch dims first, then rows and columns
        rank = len(g.batch) + 2
        offsets = {rank - 2: m0, rank - 1: n0, **dict(enumerate(batch_ids))}
        tile_of = {rank - 2: s.bm, rank - 1: s.bn}
        totals = list(loop.results)
        if split is not None:  # the CTA that writes its part last sums the parts and finishes the tile
            tiles = arith.MulIOp(grid_m, grid_n).result
            slot = arith.AddIOp(arith.MulIOp(flat, tiles).result, pid).result
            totals = [ir.Operation.create("tile.split_sum", results=[acc_type], operands=[totals[0], slot, split, k_begin],
                                          attributes={"splits": ir.IntegerAttr.get(ir.IntegerType.get_signless(64),
                                                                                   s.split_k)}).result]
        accs = {x.contract.result: r for x, r in zip(gs, totals)}
        result = emit_epilogue(g, accs, mem, b, offsets, tile_of, (s.bm, s.bn))
        ir.Operation.create("tile.store", operands=[result, out_arg, *batch_ids, m0, n0])
        func.ReturnOp([])
        parent = layouts.mma_parent(new, s.warps)
    new.attributes["tile.schedule"] = schedule_attr(options)
    tiles = lambda d, t: binary("/", binary("+", d, const(t - 1)), const(t))  # ceil(d / t)
    grid_x = binary("*", tiles(dims[g.i], s.bm), tiles(dims[g.j], s.bn))
    grid_y = const(s.split_k)
    for d in g.batch:
        grid_y = binary("*", grid_y, _batch_extent(g, d))
    new.attributes["tile.grid"] = ir.ArrayAttr.get([ir.StringAttr.get(str(grid_x)), ir.StringAttr.get(str(grid_y))])
    new.attributes["tile.threads"] = ir.IntegerAttr.get(ir.IntegerType.get_signless(64), s.threads)
    new.attributes["tile.operands"] = ir.StringAttr.get(("t" if g.a_trans else "n") + ("t" if g.b_trans else "n"))
    fn.operation.erase()
    return new, parent


def _batch_ids(g, b, flat) -> list:
    """``flat``, one index over all batch dims, split into an index per dim (the last fastest)."""
    ids = []
    for d in reversed(g.batch[1:]):
        extent = b.dim(_batch_extent(g, d))
        ids.insert(0, arith.RemSIOp(flat, extent).result)
        flat = arith.DivSIOp(flat, extent).result
    return [flat] + ids


def _batch_extent(g, d):
    out = positions(ir.AffineMapAttr(ir.ArrayAttr(g.contract.attributes["maps"])[2]).value)
    return tensor_dims(g.contract.result.type)[out.index(d)]


def _alloc(tile, element, bits, s) -> ir.Value:
    layout = smem_tile_layout(tile[0], tile[1], bits, s.swizzle)
    t = ir.MemRefType.get([s.stages, *tile], element, memory_space=ir.IntegerAttr.get(
        ir.IntegerType.get_signless(64), SHARED))
    return ir.Operation.create("tile.alloc", results=[t], attributes={"layout": layout_attr(layout)}).result


def _smem_load(buf, stage, shape, element, transpose: bool) -> ir.Value:
    attrs = {"transpose": ir.UnitAttr.get()} if transpose else {}
    return ir.Operation.create("tile.smem_load", results=[ir.RankedTensorType.get(list(shape), element)],
                               operands=[buf, stage], attributes=attrs).result
