"""ta-to-tile for recomputed sums: plain online sums over t that read contractions at (r, t).

The input is what ta-fuse-reductions makes of a function marked ``ta.recompute`` (attention's
backward, passes/_fusion_recompute.py): one group of ``ta.online`` sums over a loop index t,
each keeping a row index r and a head dim d, whose summand is ``W[r, t] * X[t, d]`` with X a
kernel input and W pointwise in contractions read at (r, t) (each ``Σ_e R[r, e]·T[t, e]``),
in vectors and in indices, then maps of the sums (a scale, a cast). Each CTA owns bm rows of r
of one batch element:

    the operands indexed by r (R) -> shared memory once; those indexed by t stream through a
    cp.async pipeline in blocks of bn
    for each block of t:  C = R·Tᵀ (an mma per contraction);  W = the summand's factor on the
                          C tiles (masked to 0 beyond t's extent)
                          acc_k += W_k·X_k (an mma per sum, W in X's type)
    epilogue: the maps; one masked store per output

For attention's backward the dK/dV kernel has r = the key index, t = the query index
(Sᵀ = K·Qᵀ, dPᵀ = V·dOᵀ, dV += Pᵀ·dO, dK += dSᵀ·Q) and the dQ kernel r = the query index,
t = the key index (S = Q·Kᵀ, dP = dO·Vᵀ, dQ += dS·K): one form, read from the sums.
"""

from torch_mlir import ir
from torch_mlir.dialects import arith, func, scf

from tilec.dialects.dims import binary, const
from tilec.dialects.schedule import Schedule
from tilec.dialects.target import target_of
from tilec.dialects.tile import schedule_attr

from . import layouts
from .common import NoTileLowering, check_schedule, const_index, mark_prologue, op_with_ints
from .recompute_body import RecomputeBody
from .recompute_match import analyse
from ..ta_to_loops import new_signature


def match(fn):
    """The analysis of ``fn``'s group of recomputed sums (recompute_body.analyse); NoTileLowering if
    it has none."""
    if "ta.recompute" not in fn.attributes:
        raise NoTileLowering("recomputed sums come from a function marked ta.recompute (a saved backward)")
    return analyse(fn)


def lower(fn, found, options):
    """Replace ``fn`` by the tile program of its recomputed sums under the schedule ``options``."""
    body = RecomputeBody(fn, found, options)
    sizes = body.sizes()
    if options == Schedule():  # none given: the default, its pipeline as deep as the target's shared memory holds
        options = options.fitted("recompute", sizes, target_of(fn).name)
        body.s = options
    check_schedule(options, "recompute", sizes, fn)
    s = options
    new, b, args = new_signature(fn)
    body.bind_arguments(new, args, b)
    with ir.InsertionPoint(new.entry_block), fn.location:
        body.clone_constants()
        body.program_ids()
        _pipelined(body, *body.block_range())
    new.attributes["tile.schedule"] = schedule_attr(options)
    grid_x = binary("/", binary("+", body.row_dim, const(s.bm - 1)), const(s.bm))
    new.attributes["tile.grid"] = ir.ArrayAttr.get([ir.StringAttr.get(str(grid_x)),
                                                    ir.StringAttr.get(str(body.batch_count))])
    new.attributes["tile.threads"] = ir.IntegerAttr.get(ir.IntegerType.get_signless(64), s.threads)
    fn.operation.erase()
    return new, layouts.mma_parent(new, s.warps)


def _pipelined(body, start, n_blocks) -> None:
    """The cp.async + mma.sync kernel (sm_80 and later), at the insertion point; the loop runs
    blocks ``start`` .. ``n_blocks`` - 1 of t, block b in stage b % stages."""
    s = body.s
    resident = body.copy_resident()
    prologue = scf.ForOp(const_index(0), const_index(s.stages - 1), const_index(1))
    with ir.InsertionPoint(prologue.body):
        block = arith.AddIOp(start, prologue.induction_variable).result
        body.copy_streamed(block, arith.RemSIOp(block, const_index(s.stages)).result)
        scf.YieldOp([])
    mark_prologue(prologue)  # the pipeline's structure, read by the verifier
    loop = body.loop(start, n_blocks)
    with ir.InsertionPoint(loop.body):
        t = loop.induction_variable
        stage = arith.RemSIOp(t, const_index(s.stages)).result
        # the resident group and block t have landed once at most stages - 2 younger groups are pending
        op_with_ints("tile.wait_group", pending=s.stages - 2)
        ir.Operation.create("tile.barrier")
        tiles = body.load_tiles(resident, stage)
        ahead = arith.AddIOp(t, const_index(s.stages - 1)).result
        body.copy_streamed(ahead, arith.RemSIOp(ahead, const_index(s.stages)).result)
        scores = body.contractions(tiles)
        accs = body.step(t, tiles, scores, list(loop.inner_iter_args))
        scf.YieldOp(accs)
    op_with_ints("tile.wait_group", pending=0)
    body.epilogue(list(loop.results))
    func.ReturnOp([])
