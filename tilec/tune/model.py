"""An analytic cost model of a tile kernel, read from its tile IR: no GPU, no compile.

The tile program says what one CTA does (symbolic execution, tilec/verify/symbolic.py):
its grid, its main loop's trip count (per CTA: a causal kernel's stops at the diagonal),
and per iteration the flops of its mma / wgmma ops, the bytes its copies bring, and the
elementwise work between the multiplies (an online step's softmax). With a GPU's rates
(gpus.py) one iteration takes

    tensor  = flops / (the SM's peak for the instruction: wgmma, or mma.sync at a fraction)
    memory  = bytes / (the SM's share of L2 bandwidth)
    simt    = elementwise instructions / (4 schedulers x 32 lanes)
    iter    = max(tensor + simt, memory)   (the softmax does not overlap the multiplies: the
                                           H200 profile of the attention kernels says so;
                                           with the key loop rotated, softmax_overlap, it runs
                                           under the block before's P·V: a measured quarter of
                                           that is hidden, and copies run a stage less ahead)

at least the copy latency over stages - 1 (what the pipeline hides), and a CTA
``trips * iter`` plus a fixed start (the pipeline's fill) and its epilogue (the
stored bytes), that part divided by the CTAs an SM holds at once (threads, shared memory,
registers; a warp-specialised kernel's occupancy), which overlap it. A persistent kernel's CTAs (as many as the SMs hold) take
the tiles in turn, pid, pid + C, ...: one start each, then per tile its iterations, its
epilogue and half a start (the producer fills the next tile's stages while the consumers
drain and store: PERSISTENT_START); a ping-pong kernel's tile pays only the longer of its
iterations and its store, which the other warpgroup's iterations cover; a tile the copy engine
stores (tma_store) costs its writes into shared memory. The CTAs are placed on the SMs longest first, each on the SM
that frees first: the makespan is the predicted time, so wave quantisation and a causal
grid's imbalance are in it. It ranks
candidates; docs/tuning.md says how well, measured.
"""

from __future__ import annotations

import heapq
import math
from dataclasses import dataclass

import z3
from torch_mlir import ir

from tilec.dialects.schedule import Schedule
from tilec.dialects.tile import schedule_of, walk_ops

from .gpus import GPU
from tilec.verify.symbolic import execute

# elementwise instructions per element of a tile.map / tile.reduce in the main loop (an FFMA
# and ex2 for exp(x - m), a compare and select for a mask, a max, an add...), a round figure
SIMT_PER_ELEMENT = {"tile.map": 2.0, "tile.reduce": 1.0}
SAMPLED_CTAS = 64  # CTAs whose trip count is evaluated when it depends on the program id
# what a persistent CTA's later tiles still pay of a start (the consumers drain their last
# wgmma group and run the epilogue while the producer refills): an A/B on the H200
# (2026-12-01) gained 1% at 64 k tiles per output tile and 5-7% at 16, about half a start
PERSISTENT_START = 0.5
# what the rotated attention loop (softmax_overlap) hides of min(softmax, P·V): all of it would
# make the D = 128, S = 4k kernel 1.38x faster in this model; the H200 measured 1.06-1.09x
# (docs/benchmarks.md, 2026-12-02), about a quarter of that
SOFTMAX_UNDER_PV = 0.25
# what a split-K CTA pays for its part, in units of writing it once at the store rate (and the
# last CTA reading the others): fitted to an H100 (2026-12-07, docs/benchmarks.md "Split-K"):
# a 1024³ GEMM's 128 x 128 CTAs split 2 ways were active 20,400 cycles on average where each
# held half the K tiles of an unsplit CTA active 16,100 (7,800 over 64 of 132 SMs), about four
# times the part's bytes at 32 a cycle; at 4 the model picks split-K where it measured faster
# (512 x 512 x 8192, 1024 x 1024 x 8192) and not where it measured slower
SPLIT_FIXUP = 4.0


@dataclass(frozen=True)
class Estimate:
    seconds: float
    flops: float
    ctas: int
    ctas_per_sm: int
    bound: str            # what one iteration waits for: tensor, memory or simt
    bytes: float = 0.0    # what DRAM moves, where the model counts it (row programs)

    @property
    def tflops(self) -> float:
        return self.flops / self.seconds / 1e12 if self.seconds else 0.0

    def rate(self) -> str:
        """TFLOP/s, or GB/s for a kernel of no multiplies."""
        if self.flops or not self.bytes:
            return f"{self.tflops:6.0f} TFLOP/s"
        return f"{self.bytes / self.seconds / 1e9:6.0f} GB/s"


def estimate(tile: ir.Module, env: dict, gpu: GPU) -> Estimate:
    """The predicted time of the tile kernel in ``tile`` on ``gpu`` at sizes ``env`` (every
    parameter bound). Registers and spills are not in it: ptxas says them only after compiling."""
    fn = tile.body.operations[0]
    sched = schedule_of(fn)
    p = execute(fn)
    missing = sorted(k for k in p.params if k not in env)
    if missing:
        raise ValueError(f"the size{'s' if len(missing) > 1 else ''} {', '.join(missing)} of the kernel "
                         f"{'are' if len(missing) > 1 else 'is'} not given")
    bind = [(v, z3.IntVal(env[k])) for k, v in p.params.items()]
    value = lambda e: _int(z3.simplify(z3.substitute(e, *bind)) if bind else z3.simplify(e))
    grid = [max(value(g), 1) for g in p.grid]
    ctas = math.prod(grid)
    _, lb, ub, loop = p.loops["main"]
    per_iter = _iteration(p, loop)
    tensor = per_iter["flops_wgmma"] / gpu.tensor_flops_per_cycle + \
        per_iter["flops_mma"] / (gpu.tensor_flops_per_cycle * gpu.mma_sync_fraction)
    memory = per_iter["bytes"] / gpu.l2_bytes_per_cycle
    simt = per_iter["simt"] / gpu.simt_per_cycle
    # the softmax between the multiplies does not overlap them: measured (Nsight Compute on the
    # H200, docs/benchmarks.md), two consumer warpgroups run at tensor + simt, not their max
    # the rotated loop runs a block's softmax while the block before's P·V is in flight: a
    # measured share of what it could hide (SOFTMAX_UNDER_PV)
    hidden = SOFTMAX_UNDER_PV * min(simt, per_iter["flops_pv"] / gpu.tensor_flops_per_cycle) \
        if sched.softmax_overlap else 0.0
    cycle = max(tensor + simt - hidden, memory)
    # a copy issued stages - 1 iterations ahead must land in time: the pipeline hides the
    # copy latency only when that many iterations take as long; a rotated loop holds each stage
    # an iteration longer (its P·V reads V in the next one), so with two stages a copy cannot
    # start before the iteration that needs it (a hand edit of the kernel ran slower than without
    # the rotation, docs/benchmarks.md)
    ahead = sched.stages - 1 - (1 if sched.softmax_overlap else 0)
    cycle = cycle + gpu.copy_latency_cycles if ahead < 1 else max(cycle, gpu.copy_latency_cycles / ahead)
    bound = max((("tensor", tensor), ("memory", memory), ("simt", simt)), key=lambda t: t[1])[0]
    stores = [e for e in p.events if e.kind == "store"]
    store_bytes = sum(tensor_bytes(e.op.operation.operands[0].type) for e in stores)
    # a tile the copy engine stores costs the consumers its writes into shared memory
    staged = any(e.op.operation.name == "tile.tma_store" for e in stores)
    store_rate = gpu.smem_bytes_per_cycle if staged else gpu.store_bytes_per_cycle
    fixed = gpu.start_cycles + store_bytes / store_rate
    split = next((e for e in p.events if e.kind == "split_sum"), None)
    if split is not None:  # split-K: each CTA writes its f32 part to L2; the last reads the others
        parts = split.data["splits"]
        fixed += SPLIT_FIXUP * sched.bm * sched.bn * 4 * (1 + (parts - 1) / parts) / gpu.store_bytes_per_cycle
    # a rotated loop's first block runs before it (from block 1): count it with the loop's
    runs = _trips(p, z3.IntVal(0) if sched.softmax_overlap else lb, ub, bind, grid)
    resident = ctas_per_sm(sched, fn, gpu)
    per_cta_flops = per_iter["flops_wgmma"] + per_iter["flops_mma"]
    flops = per_cta_flops * sum(t * n for t, n in runs) / sum(n for _, n in runs) * ctas
    if p.ctas is not None:  # persistent: C CTAs take tiles pid, pid + C, ...; one start each
        busy = _persistent(runs, min(ctas, gpu.sms * resident), cycle, store_bytes / store_rate,
                           p.warpgroups > 1, gpu.start_cycles * PERSISTENT_START)
        return Estimate((gpu.start_cycles + max(busy)) / gpu.clock_hz, flops, ctas, resident, bound)
    # CTAs on one SM share its rates; what they overlap is each other's start and epilogue
    seconds = makespan([(t * cycle + fixed / resident, n) for t, n in runs], gpu.sms) / gpu.clock_hz
    return Estimate(seconds, flops, ctas, resident, bound)


def _persistent(runs: list, slots: int, cycle: float, store: float, pingpong: bool, later_start: float) -> list:
    """Each persistent CTA's busy cycles: tile n (of ``runs``, in order) goes to CTA n % slots;
    a CTA's later tiles hide about half a start (PERSISTENT_START), a ping-pong kernel's store
    runs under the next tile's iterations. Counted per run, not per tile (2^31 rows are
    2^24 tiles)."""
    busy, first = [0.0] * slots, 0
    for t, n in runs:
        cost = max(t * cycle, store) if pingpong else t * cycle + store
        whole, rest = divmod(n, slots)
        for j in range(slots):  # tiles first .. first + n - 1 that land on CTA j
            busy[j] += cost * (whole + ((j - first) % slots < rest))
        first += n
    if not pingpong:
        for j in range(slots):  # every tile after a CTA's first (tile j) pays the later start
            busy[j] += later_start * max(first // slots + (j < first % slots) - 1, 0)
    return busy


def _iteration(p, loop) -> dict:
    """flops (by instruction family), copied bytes and elementwise instructions of one main-loop iteration."""
    out = {"flops_wgmma": 0.0, "flops_mma": 0.0, "flops_pv": 0.0, "bytes": 0.0, "simt": 0.0}
    for e in p.events:
        if e.loop not in ("main", "producer"):  # the producer's loop feeds the main loop's iterations
            continue
        if e.kind == "mma":
            m, n = ir.RankedTensorType(e.op.result.type).shape
            a = e.op.operation.operands[0].type
            k = ir.RankedTensorType(a).shape[1] if isinstance(a, ir.RankedTensorType) else \
                ir.MemRefType(a).shape[1 if "transpose_a" in e.op.attributes else 2]
            family = "flops_wgmma" if e.op.operation.name == "tile.wgmma" else "flops_mma"
            out[family] += 2.0 * m * n * k
            if family == "flops_wgmma" and isinstance(a, ir.RankedTensorType):  # A in registers: P·V
                out["flops_pv"] += 2.0 * m * n * k
        elif e.kind == "copy":
            t = ir.MemRefType(e.data["dst"].type)
            out["bytes"] += math.prod(t.shape[1:]) * element_bytes(t.element_type)
    for op in walk_ops(loop.regions[0].blocks[0]):
        name = op.operation.name
        if name in SIMT_PER_ELEMENT and op.operation.results:
            t = ir.RankedTensorType(op.operation.operands[0].type if name == "tile.reduce" else op.result.type)
            out["simt"] += SIMT_PER_ELEMENT[name] * math.prod(t.shape)
    return out


def _occurring(expr, wanted: list) -> list:
    """The variables of ``wanted`` that occur in ``expr``, in ``wanted``'s order: one walk of its
    DAG, each node once by its id (z3util.get_vars prints every node to compare it)."""
    ids = {v.get_id() for v in wanted}
    seen, found, stack = set(), set(), [expr]
    while stack:
        e = stack.pop()
        if e.get_id() in seen:
            continue
        seen.add(e.get_id())
        if e.get_id() in ids:
            found.add(e.get_id())
        stack.extend(e.children())
    return [v for v in wanted if v.get_id() in found]


def _trips(p, lb, ub, bind, grid) -> list[tuple[int, int]]:
    """The main loop's trip counts as runs (trips, CTAs) in program-id order: one run when the
    count is the same for every CTA, else one per sampled CTA (SAMPLED_CTAS), each standing for
    its share of the grid. Runs, not a list per CTA: a grid of 2^31 CTAs is one pair."""
    count = ub - lb
    pids = _occurring(count, p.pids)
    if not pids:
        return [(max(_int(z3.simplify(z3.substitute(count, *bind))), 0), math.prod(grid))]
    out = []
    axis = [int(str(v)[3:]) for v in pids]
    total = math.prod(grid[a] for a in axis)
    step = max(total // SAMPLED_CTAS, 1)
    for flat in range(0, total, step):
        at, rest = [], flat
        for v, a in zip(pids, axis):
            at.append((v, z3.IntVal(rest % grid[a])))
            rest //= grid[a]
        out.append(max(_int(z3.simplify(z3.substitute(count, *bind, *at))), 0))
    others = math.prod(grid) // total
    return [(t, max(others * total // len(out), 1)) for t in out]


def ctas_per_sm(sched: Schedule, fn, gpu: GPU) -> int:
    """CTAs an SM holds at once: by threads and by the shared memory the tile.allocs take."""
    smem = sum(_alloc_bytes(op) for op in walk_ops(fn.entry_block) if op.operation.name == "tile.alloc")
    by_smem = gpu.smem_per_sm // smem if smem else 32
    if sched.consumers:  # a warp-specialised CTA takes the register file (setmaxnreg splits it), or its share
        return sched.occupancy
    # accumulators per thread and about 80 registers of fragments, addresses and loop state
    registers = min(sched.bm * sched.bn // sched.threads + 80, 255)
    by_registers = gpu.registers_per_sm // (registers * sched.threads)
    return max(min(by_smem, by_registers, gpu.threads_per_sm // sched.threads, 32), 1)


def _alloc_bytes(op) -> int:
    t = ir.MemRefType(op.result.type)
    return math.prod(t.shape) * element_bytes(t.element_type)


def makespan(jobs: list[tuple[float, int]], slots: int) -> float:
    """Longest first onto the slot that frees first; ``jobs`` are (time, how many) pairs, so
    that a grid of 2^31 equal CTAs costs what one of 2^8 does.

    Example: ``makespan([(2.0, 3), (1.0, 1)], 2)`` -> 4.0 (2 | 2, then 2 + 2 | 2 + 1)."""
    jobs = sorted(((t, n) for t, n in jobs if n > 0), reverse=True)
    free = [0.0] * min(slots, sum(n for _, n in jobs))
    for t, n in jobs:
        free = _place(free, t, n)
    return max(free, default=0.0)


HEAP_JOBS = 4096  # up to this many equal jobs are placed one by one (exactly as they run)


def _place(free: list[float], t: float, n: int) -> list[float]:
    """The slots' free times after ``n`` jobs of time ``t``, each onto the slot that frees
    first. The j-th job a slot would take starts at ``free + j * t``; taken one by one, the
    jobs take the n earliest of these starts, so past HEAP_JOBS the n-th earliest start is
    found by bisection and each slot takes its starts before it (the same free times, up to
    rounding: equal starts are interchangeable)."""
    if n <= HEAP_JOBS or t <= 0:
        heap = list(free)
        heapq.heapify(heap)
        for _ in range(n if t > 0 else 0):
            heapq.heapreplace(heap, heap[0] + t)
        return heap
    starts = lambda level: [math.floor((level - f) / t) + 1 if f <= level else 0 for f in free]
    lo, hi = min(free) - t, min(free) + (n - 1) * t  # fewer than n starts by lo, n or more by hi
    for _ in range(200):
        mid = (lo + hi) / 2
        if not lo < mid < hi:
            break
        lo, hi = (lo, mid) if sum(starts(mid)) >= n else (mid, hi)
    taken = starts(hi)
    extra = sum(taken) - n  # starts tied at the n-th: give back the latest
    for i in sorted(range(len(free)), key=lambda i: free[i] + (taken[i] - 1) * t, reverse=True):
        if extra <= 0:
            break
        if taken[i]:
            taken[i], extra = taken[i] - 1, extra - 1
    heap = [f + k * t for f, k in zip(free, taken)]
    return _place(heap, t, -extra) if extra < 0 else heap  # rounding took too few: place the rest


def tensor_bytes(t) -> int:
    t = ir.RankedTensorType(t)
    return math.prod(t.shape) * element_bytes(t.element_type)


def element_bytes(element) -> int:
    return 4 if str(element) == "f32" else 2


def _int(e) -> int:
    if not z3.is_int_value(e):
        raise ValueError(f"a size the model needs is not fixed by the shapes given: {e}")
    return e.as_long()
