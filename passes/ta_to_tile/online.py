"""ta-to-tile for fused attention: a ta.online group over keys -> a FlashAttention-style CTA.

The input is what ta-fuse-reductions makes of softmax(Q·Kᵀ ...)·V: a contraction S over the
head dim, and ta.online ops over the key index j whose stabiliser x is pointwise in S (scale,
bias, masks), one summing 1 (the normaliser L) and one summing V[..., j, d] (the numerator
O), then pointwise maps (O / L, the cast). Each CTA owns bm query rows of one batch/head:

    Q tile -> shared memory once; K and V blocks of bn keys stream through a cp.async pipeline
    for each key block:  s = Q·Kᵀ (mma);  x = the stabiliser on s (masked beyond the keys)
                         m' = max(m, rowmax x);  c = exp(m - m');  p = exp(x - m')
                         l = l·c + rowsum p;  acc = acc·c + p·V (mma)
    epilogue: the maps, with O = acc and L = l; masked store

This is the online-softmax recurrence ta.online defines (see dialects/ta_online.py); it
comes from the fused IR, not from recognising "attention" by name.
"""

from torch_mlir import ir
from torch_mlir.dialects import arith, func, scf

from tilec.dialects.dims import binary, const
from tilec.dialects.raster import ATTR as RASTER_ATTR, HeavyFirst
from tilec.dialects.ta_online import is_one, moment, same_value, yielded
from tilec.dialects.schedule import Schedule
from tilec.dialects.target import target_of
from tilec.dialects.tile import schedule_attr

from . import layouts
from .common import (mark_prologue, NoTileLowering, ceildiv, check_schedule, const_index, element_bytes,
                     op_with_ints, refuse_schedule)
from .online_body import AttentionBody
from ..ta_to_loops import new_signature


def match(fn):
    """(normaliser, numerator, epilogue maps, running max or None) of the online group of
    ``fn``; NoTileLowering if none. A max of the group (read by the epilogue: SDPA's guard of
    fully masked rows) must maximise the sums' stabiliser: it is the kernel's running max."""
    ops = list(fn.entry_block.operations)
    everything = [op for op in ops if op.operation.name == "ta.online"]
    groups = {ir.StringAttr(op.attributes["group"]).value for op in everything}
    online = [op for op in everything if ir.StringAttr(op.attributes["kind"]).value == "sum"]
    maxes = [op for op in everything if op not in online]
    if any(moment(op) for op in everything):
        raise NoTileLowering("an attention kernel's online sums are stabilised by a running max, none centred")
    if len(groups) != 1 or len(online) != 2 or len(maxes) > 1:
        raise NoTileLowering("ta-to-tile lowers one online group of two sums (normaliser and numerator) "
                             "and at most one max")
    terms = [list(list(op.regions[0].blocks[0].operations)[-1].operation.operands) for op in online]
    if any(len(t) != 2 for t in terms):
        raise NoTileLowering("the online sums must be stabilised by a running max")
    by_t = {}
    for op, (_, t) in zip(online, terms):
        by_t["ones" if is_one(t) else "values"] = op
    if set(by_t) != {"ones", "values"}:
        raise NoTileLowering("one online sum must add 1 (the normaliser) and one a value tensor (the numerator)")
    returned = list(ops[-1].operation.operands)
    if len(returned) != 1:  # the kernel stores the attention output only: others would stay unwritten
        raise NoTileLowering(f"an attention tile kernel writes one output; "
                             f"'{ir.StringAttr(fn.attributes['sym_name']).value}' has {len(returned)}")
    others = [op.operation.name for op in ops if op.operation.name in ("ta.contract", "ta.reduce")]
    if others.count("ta.contract") != 1 or "ta.reduce" in others:
        # the kernel computes the scores, the group and the maps after it; another contraction
        # (a projection around the attention) or reduction is another kernel's (tilec.graph.split)
        raise NoTileLowering("an attention kernel computes one contraction (the scores), its online group and "
                             f"the maps after it; this function has {others.count('ta.contract')} contractions"
                             f"{' and a reduction' if 'ta.reduce' in others else ''}")
    running_max = maxes[0] if maxes else None
    if running_max is not None and (ir.StringAttr(running_max.attributes["kind"]).value != "max" or
                                    not same_value(yielded(running_max)[0], yielded(by_t["ones"])[0])):
        raise NoTileLowering("the online group's max must maximise the sums' stabiliser (the running max)")
    return by_t["ones"], by_t["values"], _epilogue(ops, everything), running_max


def _epilogue(ops, online) -> list:
    """The maps after the group: each reads its results or maps after it. A map that computes
    what the group reads (a bias on Q, K or V: a projection's epilogue) is another kernel's."""
    after, maps = {op.result for op in online}, []
    for op in ops:
        if op.operation.name != "ta.map":
            continue
        reads = {inner.operation.operands[0] for inner in op.regions[0].blocks[0].operations
                 if inner.operation.name == "ta.at"}
        if reads and not reads <= after:
            raise NoTileLowering("an attention kernel reads Q, K and V as they are stored; a map that computes "
                                 "them is another kernel's")
        if reads:
            after.add(op.result)
            maps.append(op)
    return maps


def lower(fn, found, options) -> None:
    """Replace ``fn`` by the attention tile program of its online group under the schedule ``options``."""
    norm, numer, epilogue, running_max = found
    body = AttentionBody(fn, norm, numer, epilogue, options, running_max)
    if options.heavy_first and body.causal_offset() is None:
        refuse_schedule(f"schedule {options.as_text()}: heavy_first starts the query blocks that read the most keys "
                        "first; it needs a causal attention (here every block reads them all)")
    returned = list(fn.entry_block.operations)[-1].operation.operands[0]
    sizes = {"head_dim": body.head_dim, "qk_dim": body.qk_dim, "element_bytes": body.element_bytes,
             "out_bytes": element_bytes(ir.RankedTensorType(returned.type))}
    if options == Schedule():  # none given: the default, its pipeline as deep as the target's shared memory holds
        options = options.fitted("online", sizes, target_of(fn).name)
        body.s = options
    check_schedule(options, "online", sizes, fn)
    if options.softmax_overlap and body.p_residual():  # the rotated loop carries P in V's type alone
        raise NoTileLowering("softmax_overlap carries P in V's type; an output of another type needs P's "
                             "rounding residual too: use softmax_overlap=false")
    new, b, args = new_signature(fn)
    body.bind_arguments(new, args, b)
    s = options
    with ir.InsertionPoint(new.entry_block), fn.location:
        body.clone_constants()
        body.program_ids()
        n_blocks = ceildiv(body.key_extent(), const_index(s.bn))
        offset = body.causal_offset()
        if offset is not None:  # causal: blocks above the diagonal are fully masked; stop before them
            last_row = arith.AddIOp(body.q0, const_index(s.bm + offset)).result
            n_blocks = arith.MinSIOp(n_blocks, ceildiv(last_row, const_index(s.bn))).result
        number = {op.operation: n for n, op in enumerate(fn.entry_block.operations)}
        # the staged program; sm_90a's tile-warp-specialize takes it where consumers > 0
        _pipelined(body, n_blocks, number)
    new.attributes["tile.schedule"] = schedule_attr(options)
    grid_x = binary("/", binary("+", body.query_dim, const(s.bm - 1)), const(s.bm))
    new.attributes["tile.grid"] = ir.ArrayAttr.get([ir.StringAttr.get(str(grid_x)),
                                                    ir.StringAttr.get(str(body.batch_count))])
    new.attributes["tile.threads"] = ir.IntegerAttr.get(ir.IntegerType.get_signless(64), s.threads)
    if s.heavy_first:  # causal: block q reads about q + 1 key blocks; the long ones start first
        new.attributes[RASTER_ATTR] = heavy_first(body).attribute()
    fn.operation.erase()
    return new, layouts.mma_parent(new, s.warps)


# bytes of keys and values the CTAs in flight at once may read between them: a third of an
# H100's or H200's L2 (50 MB), 40% of an A100's (40 MB)
L2_BUDGET = 16 << 20


def heavy_first(body) -> HeavyFirst:
    """The launch raster of a causal kernel (dialects/raster.py): query blocks from the last,
    in groups of as many batch elements as keep their keys and values within L2_BUDGET (a dim
    expression of the key length: the kernel evaluates it at each call's sizes)."""
    per_key = (body.qk_dim + body.head_dim) * body.element_bytes
    return HeavyFirst(str(binary("/", const(L2_BUDGET), binary("*", body.dims[body.j], const(per_key)))))


def _pipelined(body, n_blocks, number) -> None:
    """The cp.async + mma.sync kernel (sm_80 and later), at the insertion point."""
    s = body.s
    sq = body.alloc(s.bm, 1, body.qk_dim)
    sk, sv = body.alloc(s.bn, s.stages, body.qk_dim), body.alloc(s.bn, s.stages, body.head_dim)
    body.copy_q(sq)
    prologue = scf.ForOp(const_index(0), const_index(s.stages - 1), const_index(1))
    with ir.InsertionPoint(prologue.body):
        body.copy_kv(prologue.induction_variable, prologue.induction_variable, sk, sv)
        scf.YieldOp([])
    mark_prologue(prologue)  # the pipeline's structure, read by the verifier
    loop = body.key_loop(n_blocks, number)
    with ir.InsertionPoint(loop.body):
        kt = loop.induction_variable
        m, l, acc = loop.inner_iter_args
        stage = arith.RemSIOp(kt, const_index(s.stages)).result
        # the Q group and K/V block kt have landed once at most stages - 2 younger groups are pending
        op_with_ints("tile.wait_group", pending=s.stages - 2)
        ir.Operation.create("tile.barrier")
        q = body.smem_load(sq, const_index(0), [s.bm, body.qk_dim], False)
        k = body.smem_load(sk, stage, [body.qk_dim, s.bn], True)
        v = body.smem_load(sv, stage, [s.bn, body.head_dim], False)
        ahead = arith.AddIOp(kt, const_index(s.stages - 1)).result
        body.copy_kv(ahead, arith.RemSIOp(ahead, const_index(s.stages)).result, sk, sv)
        scores = body.mma(q, k, body.constant_tile([s.bm, s.bn], 0.0))
        x = body.stabiliser(scores, kt)
        m_new, l_new, acc_new = body.online_step(m, l, acc, x, v)
        scf.YieldOp([m_new, l_new, acc_new])
    op_with_ints("tile.wait_group", pending=0)
    m, l, acc = loop.results
    result = body.epilogue(m, l, acc)
    body.store(result)
    func.ReturnOp([])
