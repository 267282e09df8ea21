"""Run loop IR on the CPU: lower to LLVM and call it through MLIR's ExecutionEngine.

The function ta-to-loops produces takes the input buffers, the output buffers
(``ta.output``) and one index per shape parameter (``ta.param``). bf16 buffers
cross the boundary as int16 arrays with the same bits (numpy has no bf16).

The JIT-ed code may call nothing beyond libc and libm: bf16 conversions are
expanded to integer arithmetic first, because LLVM otherwise lowers them to
libgcc helpers (``__truncsfbf2``) that GCC 12's libgcc (Debian 12, Ubuntu
22.04) lacks on CPUs without native bf16 instructions.
"""

from __future__ import annotations

import ctypes

import numpy as np
import torch
from torch_mlir import execution_engine, ir, passmanager
from torch_mlir.dialects import func
from torch_mlir.runtime import get_ranked_memref_descriptor

from ..signature import Signature

# loop IR -> LLVM dialect, each step a standard upstream conversion
JIT_PIPELINE = ",".join([
    "lower-affine",               # affine.apply of ta.remap indices -> arith
    "convert-scf-to-cf",          # structured loops -> branches
    "math-expand-ops",            # rsqrt and friends -> ops LLVM has
    "convert-math-to-llvm",       # exp, log, sqrt -> LLVM intrinsics
    "convert-math-to-libm",       # tanh, erf -> libm calls
    "expand-strided-metadata",
    "finalize-memref-to-llvm",    # buffers -> LLVM structs and malloc/free
    # bf16 arithmetic and compares -> f32 between an extf and a truncf: LLVM's own bf16 lowering
    # calls libgcc helpers on CPUs without bf16 instructions (an AMD EPYC without AVX-512, say)
    "arith-emulate-unsupported-floats{source-types=bf16 target-type=f32}",
    "arith-expand{include-bf16=true}",  # bf16 truncf/extf -> integer ops (no libgcc helper)
    "convert-arith-to-llvm",
    "convert-func-to-llvm",       # plus the C interface wrappers for invoke()
    "convert-cf-to-llvm",
    "reconcile-unrealized-casts",
])


def _array(t: torch.Tensor) -> np.ndarray:
    t = t.detach().contiguous()
    return t.view(torch.int16).numpy() if t.dtype == torch.bfloat16 else t.numpy()


def _tensor(a: np.ndarray, dtype: torch.dtype) -> torch.Tensor:
    t = torch.from_numpy(a)
    return t.view(torch.bfloat16) if dtype == torch.bfloat16 else t


def _argument_roles(fn) -> list[tuple[str, str]]:
    """(role, name) per argument: role is input, output or param."""
    roles = []
    for attrs in ir.ArrayAttr(fn.attributes["arg_attrs"]):
        d = ir.DictAttr(attrs)
        if "ta.param" in d:
            roles.append(("param", ir.StringAttr(d["ta.param"]).value))
        else:
            roles.append(("output" if "ta.output" in d else "input", ir.StringAttr(d["ta.name"]).value))
    return roles


# LLVM's optimisations cost about 7 ms per loop nest here; past this many nests a function is
# compiled without them (about 1.5 ms per nest), so that a spec of 2,500 lets compiles in
# seconds, not a minute (the results are the same: no fast-math either way)
OPTIMISED_NESTS = 256


def outline_nests(module: ir.Module) -> int:
    """Move each loop nest at the top of a function into a function of its own (private, never
    inlined), called where the nest was; returns how many nests the largest function had. A
    loop whose results are read after it (a reduction's carried value) stays where it is.

    LLVM's passes and its code generation take time superlinear in the size of a function:
    one function of 2,500 nests (a chain of 2,500 lets) took two minutes, 2,500 functions of
    one nest take seconds. Constants are cloned into the nest's function, so loop bounds and
    steps stay known to LLVM; every other value it reads from outside is an argument."""
    functions = [op.operation for op in module.body.operations
                 if op.operation.name == "func.func" and len(op.operation.regions[0].blocks)]
    most = 0
    for fn in functions:
        nests = [op.operation for op in fn.regions[0].blocks[0].operations  # a loop with results stays
                 if op.operation.name == "scf.for" and not op.operation.results]
        name = ir.StringAttr(fn.attributes["sym_name"]).value
        for number, nest in enumerate(nests):
            _outline(module, fn, nest, f"{name}__nest{number}")
        most = max(most, len(nests))
    return most


def _outline(module: ir.Module, fn, nest, name: str) -> None:
    """``nest`` (a loop at the top of ``fn``) moved into a new function ``name``, called in its place."""
    ops = [nest, *_walk(nest)]
    outside, constants, seen = [], [], set()
    for op in ops:
        for value in op.operands:
            owner = value.owner
            inner = owner != fn.regions[0].blocks[0] if isinstance(owner, ir.Block) else owner.parent != fn
            if inner or value in seen:  # defined in the nest, or already an argument
                continue
            seen.add(value)
            constant = not isinstance(owner, ir.Block) and owner.name == "arith.constant"
            (constants if constant else outside).append(value)
    with ir.InsertionPoint(module.body), fn.location:
        new = func.FuncOp(name, ([v.type for v in outside], []), visibility="private")
        new.attributes["llvm.no_inline"] = ir.UnitAttr.get()  # else LLVM inlines them all back
        block = new.add_entry_block()
    inside = dict(zip(outside, block.arguments))
    with ir.InsertionPoint(block), fn.location:
        inside.update((c, c.owner.clone().results[0]) for c in constants)
        end = func.ReturnOp([])
    with ir.InsertionPoint(nest), nest.location:
        func.CallOp([], ir.FlatSymbolRefAttr.get(name), outside)
    nest.move_before(end)
    for op in ops:
        for k, value in enumerate(op.operands):
            if value in inside:
                op.operands[k] = inside[value]


def lower_to_llvm(module: ir.Module) -> int:
    """``module`` (loop IR) lowered in place to the LLVM dialect the JIT compiles (JIT_PIPELINE),
    each loop nest a function of its own (outline_nests, whose count it returns), its bf16
    loads and stores made 16-bit integer ones.

    After the pipeline a bf16 value is only loaded, stored and bitcast to or from i16 (the
    rounding is integer arithmetic). LLVM's optimiser recognises that rounding ahead of a bf16
    store as an fptrunc and, on a CPU without bf16 instructions, calls libgcc's __truncsfbf2,
    which GCC 12's libgcc lacks; with no bf16 value left in memory operations it cannot."""
    from torch_mlir.dialects import llvm

    nests = outline_nests(module)
    passmanager.PassManager.parse(f"builtin.module({JIT_PIPELINE})").run(module.operation)
    bf16, i16 = ir.BF16Type.get(), ir.IntegerType.get_signless(16)
    for op in _walk(module.operation):
        if op.name == "llvm.store" and op.operands[0].type == bf16 and _bitcast_from(op.operands[0], i16):
            cast = op.operands[0].owner
            with ir.InsertionPoint(op), op.location:
                llvm.StoreOp(cast.operands[0], op.operands[1])
            op.erase()
            if not list(cast.results[0].uses):
                cast.erase()
        elif op.name == "llvm.load" and op.results[0].type == bf16 and op.results[0].uses and \
                all(u.owner.name == "llvm.bitcast" and u.owner.results[0].type == i16 for u in op.results[0].uses):
            with ir.InsertionPoint(op), op.location:
                wide = llvm.LoadOp(i16, op.operands[0]).result
            for cast in [u.owner for u in op.results[0].uses]:
                cast.results[0].replace_all_uses_with(wide)
                cast.erase()
            op.erase()
    return nests


def _bitcast_from(value, source_type) -> bool:
    owner = value.owner
    return not isinstance(owner, ir.Block) and owner.name == "llvm.bitcast" and owner.operands[0].type == source_type


def _walk(op) -> list:
    """Every op nested in ``op`` (a list, so the caller may rewrite as it goes)."""
    found = []
    for region in op.regions:
        for block in region.blocks:
            for inner in block.operations:
                found.append(inner.operation)
                found += _walk(inner.operation)
    return found


class LoopProgram:
    """Loop IR lowered to machine code once, callable many times (one ExecutionEngine)."""

    def __init__(self, module: ir.Module, sig: Signature):
        fn = module.body.operations[0]
        self.sig = sig
        self.roles = _argument_roles(fn)
        self.name = ir.StringAttr(fn.attributes["sym_name"]).value
        nests = lower_to_llvm(module)
        self.module = module  # the engine refers to it
        self.engine = execution_engine.ExecutionEngine(module, opt_level=2 if nests <= OPTIMISED_NESTS else 0)

    def __call__(self, inputs: dict[str, torch.Tensor], env: dict[str, int]) -> dict[str, torch.Tensor]:
        outputs = {s.name: np.zeros(s.shape(env), dtype=_array(torch.zeros(0, dtype=s.dtype)).dtype)
                   for s in self.sig.outputs}
        keep, args = [], []
        for role, arg_name in self.roles:
            if role == "param":
                value = ctypes.c_int64(env[arg_name])
                keep.append(value)
                args.append(ctypes.pointer(value))
                continue
            array = _array(inputs[arg_name]) if role == "input" else outputs[arg_name]
            keep.append(array)
            args.append(ctypes.pointer(ctypes.pointer(get_ranked_memref_descriptor(array))))
        self.engine.invoke(self.name, *args)
        return {s.name: _tensor(outputs[s.name], s.dtype) for s in self.sig.outputs}


def run_loops(module: ir.Module, sig: Signature, inputs: dict[str, torch.Tensor],
              env: dict[str, int]) -> dict[str, torch.Tensor]:
    """Execute the loop-IR function of ``module`` once (consumed: it is lowered to LLVM)."""
    return LoopProgram(module, sig)(inputs, env)
