"""The operand and accumulator layouts of every tile.mma, whatever the kernel form (GEMM,
SwiGLU's two accumulators, attention's Q·Kᵀ and P·V).

swizzle     each shared tile an mma reads (through a prologue map too): the layout is a
            bijection onto shared memory; the cp.async copies that fill it and, where the mma
            runs on tensor cores, the ldmatrix reads are free of bank conflicts
coverage    the accumulator fragments hold every element of the mma's tile exactly once
equivalence every fragment (accumulator, A from shared memory or packed from an accumulator
            in registers, B) sits where the PTX ISA's m16n8k16 tables put it

An mma runs on tensor cores (mma.sync) when both operands are 16-bit and each is a shared
tile as copied or, for A, a tile in accumulator registers (attention's P); f32 operands and
operands a prologue map computes take f32 FMAs, which read elements one by one (no ldmatrix,
no fragments). This is the CUDA emitter's own rule (codegen/cuda_ops.py, _mma), read here
from the tile IR.
"""

from __future__ import annotations

from torch_mlir import ir

from tilec.dialects.layout import MmaLayout
from tilec.dialects.tile import layout_of, register_layout

from . import layouts
from .fragments import check_fragments
from .gemm_prologue import staged
from .symbolic import Program

_LANES = "every warp, lane pair"


def check_operand_layouts(p: Program, threads: int) -> list[tuple[str, str, object, str]]:
    """(property, check, Outcome, domain) rows for the mmas of ``p``."""
    rows, seen, tilings = [], [], []
    for event in (e for e in p.events if e.kind == "mma"):
        m, n = ir.RankedTensorType(event.op.result.type).shape
        k = ir.RankedTensorType(event.op.operation.operands[0].type).shape[1]
        tiling = register_layout(event.op.result.type).tiling(m, n)
        cores = _tensor_cores(event)
        operands = {"a": _unwrap(p, event.data["a"]), "b": _unwrap(p, event.data["b"])}
        for which, operand in operands.items():
            if not _is_smem(operand) or operand[1] in seen:
                continue
            _, buf, _, transposed = operand
            seen.append(buf)
            layout = layout_of(buf.owner.attributes["layout"])
            element = 4 if isinstance(ir.MemRefType(buf.type).element_type, ir.F32Type) else 2
            name = f"{_source(p, buf)} tile {layout.shape[0]}x{layout.shape[1]}"
            rows.append(("swizzle", f"{name}: the layout is a bijection onto shared memory",
                         layouts.bijection(layout), f"every element of the {layout.shape[0]}x{layout.shape[1]} tile"))
            if cores and element == 2:
                rows.append(("swizzle", f"{name}: ldmatrix phases are free of bank conflicts",
                             layouts.ldmatrix_conflict_free(layout, tiling, which, transposed, k, element),
                             f"{_LANES}, fragment and k step"))
            rows.append(("swizzle", f"{name}: cp.async phases are free of bank conflicts",
                         layouts.cp_async_conflict_free(layout, threads, element), f"{_LANES} and copy iteration"))
        if (m, n) not in tilings:
            tilings.append((m, n))
            rows.append(("coverage", f"accumulator fragments hold every element of the {m}x{n} tile exactly once",
                         layouts.fragments_cover_tile(tiling), "every warp, lane, mma tile and register"))
        if not cores:
            continue
        a, b = operands["a"], operands["b"]
        b_t = _is_smem(b) and b[3]
        frags = check_fragments(tiling, k, a[3], b_t) if _is_smem(a) else check_fragments(
            tiling, k, b_transposed=b_t, a_registers=register_layout(event.op.operation.operands[0].type).tiling(m, k))
        rows += [("equivalence", check, outcome, domain) for check, outcome, domain in frags]
    return rows


def _is_smem(operand) -> bool:
    return isinstance(operand, tuple) and operand[0] == "smem"


def _unwrap(p: Program, operand):
    """A prologue map's operand as the staged tile it reads (its layout is the one copied into)."""
    if isinstance(operand, tuple) and operand[0] == "op" and operand[1].operation.name == "tile.map" and \
            not isinstance(register_layout(operand[1].result.type), MmaLayout):
        return staged(p, operand[1]) or operand
    return operand


def _tensor_cores(event) -> bool:
    a, b = event.data["a"], event.data["b"]
    types = [ir.RankedTensorType(v.type) for v in list(event.op.operation.operands)[:2]]
    if any(isinstance(t.element_type, ir.F32Type) for t in types):
        return False
    registers = isinstance(a, tuple) and a[0] == "op" and isinstance(register_layout(types[0]), MmaLayout)
    return _is_smem(b) and (_is_smem(a) or registers)


def _source(p: Program, buf) -> str:
    copy = next((e for e in p.events if e.kind == "copy" and e.data["dst"] == buf), None)
    return copy.data["src"] if copy else "?"
