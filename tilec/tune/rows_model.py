"""The cost model of a row program (softmax, norms), read from its tile IR.

A row program's CTA owns ``bm`` rows and walks their columns ``bn`` at a time, in one loop
per pass (a norm: a pass that reduces, a pass that writes); each iteration loads its blocks
with plain loads and waits for them. So an iteration costs the SM

    max(latency / resident, bytes / L2 share, elementwise / SIMT rate)

where ``resident`` CTAs share the SM (threads, registers) and hide each other's load
latency; a CTA adds a fixed start. The CTAs are placed on the SMs longest first (model.py's
makespan), and the whole kernel takes at least its unique bytes (each tensor once: a second
pass over a row block finds it in L2) over the DRAM bandwidth, the two bounds joined by a
smooth maximum. The trip counts come from the
loop bounds in the IR, evaluated at the sizes given.

    seconds = estimate_rows(build.tile, {"N": 16384, "C": 4096}, gpu_named("h200")).seconds
"""

from __future__ import annotations

import math

from torch_mlir import ir

from tilec.dialects.dims import parse_dim, substitute
from tilec.dialects.index_ops import INDEX
from tilec.dialects.tile import schedule_of

from .gpus import GPU
from .model import SIMT_PER_ELEMENT, Estimate, ctas_per_sm, element_bytes, makespan, tensor_bytes

SOFT = 4  # the exponent of the smooth maximum of the DRAM and latency bounds


def estimate_rows(tile: ir.Module, env: dict, gpu: GPU) -> Estimate:
    """The predicted time of the row program in ``tile`` on ``gpu`` at sizes ``env``."""
    fn = tile.body.operations[0]
    sched = schedule_of(fn)
    values = _params(fn, env)
    grid = [max(_size(str(ir.StringAttr(g).value), env), 1) for g in ir.ArrayAttr(fn.attributes["tile.grid"])]
    ctas = math.prod(grid)
    resident = ctas_per_sm(sched, fn, gpu)
    cycles, moved = 0.0, 0.0
    for trips, block_ops in _loops(fn.entry_block, values):
        loads = sum(tensor_bytes(op.result.type) for op in block_ops if op.operation.name == "tile.load")
        stores = sum(tensor_bytes(op.operation.operands[0].type) for op in block_ops
                     if op.operation.name == "tile.store")
        simt = sum(SIMT_PER_ELEMENT[op.operation.name] * _elements(op) for op in block_ops
                   if op.operation.name in SIMT_PER_ELEMENT and op.operation.results)
        latency = gpu.copy_latency_cycles if loads else 0.0
        per_iter = max(latency / resident, (loads + stores) / gpu.l2_bytes_per_cycle, simt / gpu.simt_per_cycle)
        cycles += trips * per_iter
        moved += trips * (loads + stores)
    unique = _unique_bytes(fn, env)
    latency_bound = makespan([(cycles + gpu.start_cycles / resident, ctas)], gpu.sms)
    dram = unique / gpu.dram_bytes_per_cycle
    # neither bound is a wall: near DRAM's rate the latency still shows (a smooth maximum)
    seconds = (dram ** SOFT + latency_bound ** SOFT) ** (1 / SOFT) / gpu.clock_hz
    return Estimate(seconds, 0.0, ctas, resident, "memory" if dram >= latency_bound else "latency", unique)


def _params(fn, env: dict) -> dict:
    """The function's size arguments bound to ``env`` (SSA value -> int)."""
    out = {}
    for n, arg in enumerate(fn.arguments):
        attrs = ir.DictAttr(fn.attributes["arg_attrs"][n]) if "arg_attrs" in fn.attributes else None
        if attrs is not None and "ta.param" in attrs:
            name = ir.StringAttr(attrs["ta.param"]).value
            if name not in env:
                raise ValueError(f"the size {name} of the kernel is not given")
            out[arg] = env[name]
    return out


def _value(v, values: dict) -> int:
    """An index value of the program at the sizes given (constants and integer arithmetic)."""
    if v in values:
        return values[v]
    op = v.owner
    name = op.name if isinstance(op, ir.Operation) else op.operation.name
    if name == "arith.constant":
        return ir.IntegerAttr(op.attributes["value"]).value
    if name in INDEX:
        a, b = (_value(x, values) for x in op.operands)
        return INDEX[name](a, b)
    raise ValueError(f"a loop bound the model cannot evaluate ({name})")


def _loops(block, values: dict, trips: int = 1):
    """(trip count, the ops run that many times) for the block and each loop nested in it."""
    here = []
    for op in block.operations:
        if op.operation.name == "scf.for":
            lb, ub, step = (_value(x, values) for x in list(op.operation.operands)[:3])
            count = max(-(-(ub - lb) // max(step, 1)), 0)
            yield from _loops(op.operation.regions[0].blocks[0], values, trips * count)
        else:
            here.append(op)
            for region in op.operation.regions:
                for inner in region.blocks:
                    here += list(inner.operations)
    yield trips, here


def _elements(op) -> int:
    t = op.operation.operands[0].type if op.operation.name == "tile.reduce" else op.result.type
    return math.prod(ir.RankedTensorType(t).shape)


def _unique_bytes(fn, env: dict) -> float:
    """Every tensor argument once (its sizes by name, ta.dims): what DRAM must move."""
    total = 0.0
    for n, arg in enumerate(fn.arguments):
        if not isinstance(arg.type, ir.MemRefType) or "arg_attrs" not in fn.attributes:
            continue
        attrs = ir.DictAttr(fn.attributes["arg_attrs"][n])
        dims = [ir.StringAttr(d).value for d in ir.ArrayAttr(attrs["ta.dims"])] if "ta.dims" in attrs else []
        total += math.prod(_size(d, env) for d in dims) * element_bytes(ir.MemRefType(arg.type).element_type)
    return total


def _size(text: str, env: dict) -> int:
    """A dimension expression of the IR (``"(N+7)/8"``) at the sizes ``env``."""
    value = substitute(parse_dim(text), env)
    if value.op != "const":
        raise ValueError(f"the size {text} of the kernel is not given")
    return value.value
