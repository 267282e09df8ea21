"""ta-canonicalize: the normal form the fusion and lowering patterns expect.

One pattern per function, each named by its rewrite:

    fold_reindex_into_at      at(map{at(x, m1)}, m2)        --> at(x, m1 ∘ m2)
                              (a map that only transposes or broadcasts disappears)
    compose_remaps            remap(remap(x, m1), m2)       --> remap(x, m1 ∘ m2)
                              (and remap(map{at(x, m1)}, m2) alike)
    drop_identity_remap       remap(x, identity)            --> x
    drop_bounded_mods         remap(x, (e mod n))           --> remap(x, (e)) where e < n
    hoist_scale_out_of_contract
                              contract(map{at(x) * c}, y)   --> map{contract(x, y) * c}
                              (c constant along the domain: the mma sees x unscaled;
                              at(x) may be widened, as torch's SDPA scales bf16 Q and K)
    fold_reindex_into_contract
                              contract(map{at(x, m)}, y)    --> contract(x, y), maps composed
                              (m a permutation: a transposing copy is read through)
    fold_constant_map         map{yield constant}           --> fill(constant)
    permute_into_reshape      remap(contract(x, y; out), m) --> remap(contract(x, y; π out), π m)
                              (π m a row-major reshape: the contraction stores in the order
                              its one reader views it; _ta_reshape.py)
    fold_reshape_into_contract
                              remap(contract(remap(x), remap(y)), m) --> contract(x, y)
                              (torch's bmm of merged batch dims, split again: the contraction
                              over the split dims, where the extents make every index plain;
                              _ta_reshape.py)
    contract_in_row_order     contract(x, w; out)           --> remap(contract(x, w; π out), π⁻¹)
                              (a Linear whose output lists x's rows in another order: stored
                              in x's order, read through a transpose; _ta_reshape.py)
    fold_narrow_of_widen, widen_after_remap, fold_widen_into_at:
                              casts around reindexing (_ta_casts.py)

Upstream canonicalize (constant folding in bodies, dead ops) and cse complete it;
this pass also runs them.
"""

from dataclasses import dataclass

from torch_mlir import ir, passmanager, rewrite
from torch_mlir.dialects import arith

from tilec.dialects import ta_builders as tb
from tilec.dialects.ta import AtOp, ContractOp, MapOp, RemapOp

from . import PassInfo
from ._ta_casts import cast_of_read, fold_narrow_of_widen, fold_widen_into_at, widen_after_remap
from ._affine_ranges import simplified
from ._ta_reshape import contract_in_row_order, fold_reshape_into_contract, permute_into_reshape


@dataclass(frozen=True)
class Options:
    pass


def _body(op) -> list:
    return list(op.regions[0].blocks[0].operations)


def _reindexing(map_op):
    """(x, m) when a ta.map body is just `yield at(x, m)` with no type change, else None."""
    ops = _body(map_op)
    if len(ops) != 2 or ops[0].operation.name != "ta.at" or ops[1].operation.operands[0] != ops[0].result:
        return None
    return ops[0].operation.operands[0], ir.AffineMapAttr(ops[0].attributes["map"]).value


def fold_reindex_into_at(op, rewriter):
    """at(map{at(x, m1)}, m2) --> at(x, m1 ∘ m2)"""
    src = op.operation.operands[0]
    if isinstance(src.owner, ir.Block) or src.owner.name != "ta.map":
        return True
    found = _reindexing(src.owner)
    if found is None:
        return True
    x, inner = found
    outer = ir.AffineMapAttr(op.attributes["map"]).value
    with rewriter.ip, op.location:
        rewriter.replace_op(op, [tb.at(x, tb.compose(outer, inner))])


def compose_remaps(op, rewriter):
    """remap(remap(x, m1), m2) --> remap(x, m1 ∘ m2); likewise remap(map{at(x, m1)}, m2), a
    reindexing map (the broadcast of repeat_interleave's grouped K and V heads)"""
    src = op.operation.operands[0]
    if isinstance(src.owner, ir.Block) or src.owner.name not in ("ta.remap", "ta.map"):
        return True
    if src.owner.name == "ta.map":
        found = _reindexing(src.owner)
        if found is None:
            return True
        outer = ir.AffineMapAttr(op.attributes["map"]).value
        with rewriter.ip, op.location:
            rewriter.replace_op(op, [tb.remap(found[0], tb.compose(outer, found[1]), op.result.type)])
        return None
    inner = ir.AffineMapAttr(src.owner.attributes["map"]).value
    outer = ir.AffineMapAttr(op.attributes["map"]).value
    with rewriter.ip, op.location:
        rewriter.replace_op(op, [tb.remap(src.owner.operands[0], tb.compose(outer, inner), op.result.type)])


def drop_bounded_mods(op, rewriter):
    """remap(x, (.., e mod n, ..)) --> remap(x, (.., e, ..)) where 0 <= e < n at every index of
    the result (its static extents bound it), and e floordiv n --> 0 likewise: a reshape's index
    arithmetic that the extents make the identity ((b + t floordiv T) mod B is b for t < T and
    b < B), which a grouped-head read would otherwise carry (the attention kernel reads K and V
    through plain dims)"""
    amap = ir.AffineMapAttr(op.attributes["map"]).value
    shape = ir.RankedTensorType(op.result.type).shape
    if any(ir.ShapedType.is_dynamic_size(n) for n in shape):
        return True
    results = [simplified(e, shape)[0] for e in amap.results]
    if all(str(a) == str(b) for a, b in zip(results, amap.results)):
        return True
    with rewriter.ip, op.location:
        new_map = ir.AffineMap.get(amap.n_dims, amap.n_symbols, results)
        rewriter.replace_op(op, [tb.remap(op.operation.operands[0], new_map, op.result.type)])
    return None


def drop_identity_remap(op, rewriter):
    """remap(x, identity) --> x"""
    amap = ir.AffineMapAttr(op.attributes["map"]).value
    src = op.operation.operands[0]
    if not tb.is_identity(amap) or src.type != op.result.type:
        return True
    rewriter.replace_op(op, [src])


def _invariant(value, body_block) -> bool:
    """Whether a body value is the same at every index (built from constants and parameters)."""
    owner = value.owner
    if isinstance(owner, ir.Block) or owner.operation.parent is None or owner.operation.block != body_block:
        return True  # defined outside the body
    if owner.operation.name in ("ta.at", "ta.index"):
        return False
    return all(_invariant(v, body_block) for v in owner.operation.operands)


def _scaled_operand(value):
    """(x, c, map) when ``value`` is map{yield at(x, m) * c} with c invariant and m a projected
    permutation (a transpose, or a broadcast: one K head shared by every query head); at(x) may be
    widened first (a bf16 x: the contraction reads it as it is stored, exactly)."""
    if isinstance(value.owner, ir.Block) or value.owner.name != "ta.map":
        return None
    ops = _body(value.owner)
    block = value.owner.regions[0].blocks[0]
    product = ops[-1].operation.operands[0].owner
    if isinstance(product, ir.Block) or product.operation.name != "arith.mulf":
        return None
    for a, c in (product.operation.operands, reversed(list(product.operation.operands))):
        widened = a.owner
        if not isinstance(widened, ir.Block) and widened.operation.name == "arith.extf":
            a = widened.operation.operands[0]
        at = a.owner
        if isinstance(at, ir.Block) or at.operation.name != "ta.at" or not _invariant(c, block):
            continue
        amap = ir.AffineMapAttr(at.attributes["map"]).value
        if amap.is_projected_permutation and ir.RankedTensorType(at.operation.operands[0].type).element_type == a.type:
            return at.operation.operands[0], c, amap
    return None


def hoist_scale_out_of_contract(op, rewriter):
    """contract(map{at(x) * c}, y) --> map{contract(x, y) * c} (and likewise for the rhs)"""
    maps = [ir.AffineMapAttr(m).value for m in ir.ArrayAttr(op.attributes["maps"])]
    for k in (0, 1):
        found = _scaled_operand(op.operation.operands[k])
        if found is None:
            continue
        x, c, amap = found
        new_maps = list(maps)
        new_maps[k] = tb.compose(maps[k], amap)
        operands = list(op.operation.operands)
        operands[k] = x
        with rewriter.ip, op.location:
            product = tb.contract(operands[0], operands[1], new_maps, op.result.type)
            rank = ir.RankedTensorType(op.result.type).rank
            identity = tb.projection(rank, list(range(rank)))
            scale = _clone_invariant(c)

            def body():
                acc, factor = tb.at(product, identity), scale()
                if factor.type != acc.type:  # a bf16 scale multiplies the f32 accumulator
                    factor = arith.ExtFOp(acc.type, factor).result
                return arith.MulFOp(acc, factor).result

            result = tb.build_map(op.result.type, body)
        rewriter.replace_op(op, [result])
        return None
    return True


def fold_reindex_into_contract(op, rewriter):
    """contract(map{at(x, m)}, y) --> contract(x, y) with the operand's map composed with m
    (m a projected permutation: the map only transposes, as a head view before attention does,
    or broadcasts, as a Linear's weight read once per batch of a [B, T, C] matmul); likewise
    contract(map{extf(at(x, m))}, y): the contraction reads a 16-bit x as it is stored"""
    maps = [ir.AffineMapAttr(m).value for m in ir.ArrayAttr(op.attributes["maps"])]
    for k in (0, 1):
        owner = op.operation.operands[k].owner
        found = None if isinstance(owner, ir.Block) or owner.name != "ta.map" else \
            _reindexing(owner) or cast_of_read(owner, "arith.extf")
        if found is None or not found[1].is_projected_permutation:
            continue
        operands, new_maps = list(op.operation.operands), list(maps)
        operands[k], new_maps[k] = found[0], tb.compose(maps[k], found[1])
        with rewriter.ip, op.location:
            rewriter.replace_op(op, [tb.contract(operands[0], operands[1], new_maps, op.result.type)])
        return None
    return True


def _clone_invariant(value):
    """A function that re-emits an invariant body value at the current insertion point."""
    def emit(v):
        owner = v.owner
        if isinstance(owner, ir.Block) or owner.operation.parent.name != "ta.map":
            return v
        operands = [emit(o) for o in owner.operation.operands]
        return ir.Operation.create(owner.operation.name, results=[v.type], operands=operands,
                                   attributes=dict(owner.operation.attributes.items())).result
    return lambda: emit(value)


def fold_constant_map(op, rewriter):
    """map{yield constant} --> fill(constant)"""
    yielded = _body(op)[-1].operation.operands[0]
    constant = yielded.owner
    if isinstance(constant, ir.Block) or constant.operation.name != "arith.constant":
        return True
    with rewriter.ip, op.location:
        fill = ir.Operation.create("ta.fill", results=[op.result.type],
                                   attributes={"value": constant.attributes["value"]})
    rewriter.replace_op(op, [fill.result])


def run(module: ir.Operation, options: Options) -> None:
    patterns = rewrite.RewritePatternSet()
    patterns.add(AtOp, fold_reindex_into_at)
    patterns.add(RemapOp, compose_remaps)
    patterns.add(RemapOp, drop_identity_remap)
    patterns.add(RemapOp, drop_bounded_mods)
    patterns.add(ContractOp, hoist_scale_out_of_contract)
    patterns.add(ContractOp, fold_reindex_into_contract)
    patterns.add(MapOp, fold_constant_map)
    patterns.add(MapOp, fold_narrow_of_widen)
    patterns.add(RemapOp, widen_after_remap)
    patterns.add(RemapOp, permute_into_reshape)
    patterns.add(ContractOp, contract_in_row_order)
    patterns.add(RemapOp, fold_reshape_into_contract)
    patterns.add(AtOp, fold_widen_into_at)
    rewrite.apply_patterns_and_fold_greedily(module, patterns.freeze())
    passmanager.PassManager.parse("builtin.module(canonicalize, cse)").run(module)


PASS = PassInfo("ta-canonicalize", "fold reindexing maps, hoist scales out of contractions, fold constants, CSE",
                Options, run, __doc__)
