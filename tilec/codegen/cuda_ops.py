"""The CUDA rules for the tile ops that move data: async copies, mma, the epilogue store.

Methods of CudaEmitter (imported into its class body).
"""

from torch_mlir import ir

from ..diagnostics import TilecError
from tilec.dialects.layout import MmaLayout
from tilec.dialects.tile import register_layout

from . import cuda_blocked, cuda_scaled
from .cexpr import CExpr
from .cuda_address import _base, _global_element
from .cuda_scalar import scalar_statement
from .cuda_regs import Columns, Frag, tiling_for


def op_tile_async_copy(self, op):
    src, *offs, dst, stage = op.operation.operands
    _, gname, dims, element = self.value(src)
    dims_c = self.dims_c(dims)
    shared = self.value(dst)
    offsets = [self.value(o) for o in offs]
    rows, cols = shared.layout.shape
    per_chunk = 8 if element != "float" else 4
    chunks = rows * cols // per_chunk
    iters = -(-chunks // self.threads)
    n_rows, n_cols = dims_c[-2], dims_c[-1]
    row0, col0 = offsets[-2], offsets[-1]
    at = shared.layout.offset(CExpr("r"), CExpr("c"))
    zero = "0.0f" if element == "float" else f"{element}(0.0f)"
    self.line(f"{{  // copy a {rows}x{cols} tile of {gname} into stage {self.value(stage)} of {shared.name}")
    self.indent += 1
    self.line(f"const {element}* src = {gname} + {_base(dims_c, offsets[:-2])};")
    self.line("#pragma unroll")
    self.line(f"for (int it = 0; it < {iters}; ++it) {{")
    self.indent += 1
    self.line(f"const int id = tid + it * {self.threads};")
    if chunks % self.threads:
        self.line(f"if (id >= {chunks}) break;")
    self.line(f"const int r = id / {cols // per_chunk}, c = (id % {cols // per_chunk}) * {per_chunk};")
    self.line(f"const long long gr = {row0} + r, gc = {col0} + c;")
    self.line(f"{element}* d = {shared.name} + {self.value(stage)} * {shared.stage_elems} + {at.text};")
    if self.aligned:  # rows are whole 16-byte chunks: cp.async, zero-filling the tail
        self.line(f"const int bytes = (gr < {n_rows} && gc < {n_cols}) ? "
                  f"(int)min(16LL, ({n_cols} - gc) * {16 // per_chunk}) : 0;")
        self.line(self.target.async_copy.format(dst="d", src=f"bytes ? src + gr * {n_cols} + gc : src", bytes="bytes"))
    else:             # element by element (the unaligned variant)
        self.line("#pragma unroll")
        self.line(f"for (int e = 0; e < {per_chunk}; ++e)")
        self.line(f"    d[e] = (gr < {n_rows} && gc + e < {n_cols}) ? src[gr * {n_cols} + gc + e] : {zero};")
    self.indent -= 1
    self.line("}")
    self.indent -= 1
    self.line("}")


class _Using:
    """Temporarily emit with another warp tiling (the mma's own output shape)."""

    def __init__(self, emitter, tiling, k: int):
        self.e, self.t, self.k = emitter, tiling, k

    def __enter__(self):
        e = self.e
        self.saved = (e.tiling, e.mi, e.ni, e.tm, e.tn, e.bk)
        e.tiling, e.mi, e.ni, e.tm, e.tn, e.bk = self.t, self.t.mi, self.t.ni, self.t.tm, self.t.tn, self.k

    def __exit__(self, *exc):
        e = self.e
        e.tiling, e.mi, e.ni, e.tm, e.tn, e.bk = self.saved


def op_tile_mma(self, op):
    a, b, acc = (self.value(v) for v in op.operation.operands)
    k, n = ir.RankedTensorType(op.operation.operands[0].type).shape[1], ir.RankedTensorType(op.result.type).shape[1]
    self.names[op.result] = acc
    m = ir.RankedTensorType(op.result.type).shape[0]
    tiling = register_layout(op.result.type).tiling(m, n)
    with _Using(self, tiling, k):
        _mma(self, op, a, b, acc)


def _staged(tile) -> bool:
    """Whether an mma operand is a staged shared tile, or a prologue map of one (computed where read)."""
    return hasattr(tile, "shared") or hasattr(tile, "op") and tile.op.operation.name == "tile.map"


def _mma(self, op, a, b, acc):
    if not _staged(b) or not (_staged(a) or isinstance(a, Frag)):
        raise TilecError("tile.mma: b must come from tile.smem_load, a from tile.smem_load or registers")
    kinds = [ir.RankedTensorType(v.type).element_type for v in list(op.operation.operands)[:2]]
    # no mma.sync multiplies f32, or a bf16 operand by an f16 one: those multiply in f32 on the SIMT cores
    simt = any(isinstance(t, ir.F32Type) for t in kinds) or str(kinds[0]) != str(kinds[1]) \
        or not all(hasattr(t, "shared") for t in (a, b) if not isinstance(t, Frag))
    if simt and isinstance(a, Frag):
        # P·V with P in registers needs the mma fragment layout; f32 operands have no mma.sync
        raise TilecError("tile.mma: f32 operands with the first operand in registers (attention's P·V) "
                         "have no CUDA lowering yet; use bf16 or f16 inputs for attention kernels")
    if simt:  # f32 operands, 16-bit ones beside f32 or of two kinds, or operands a prologue map computes
        _simt_f32(self, a, b, acc)
        return
    element = b.shared.element
    mma = self.target.mma[element]
    a_at = _fragment_addresses(self, a, "a") if not isinstance(a, Frag) else None
    b_at = _fragment_addresses(self, b, "b")
    steps = self.bk // 16
    if self.bk % 16:  # each k step is 16 wide
        raise TilecError(f"tile.mma: k = {self.bk} must be a multiple of 16 for mma.sync m16n8k16")
    # fragments of k step kk + 1 are loaded while step kk multiplies (two register buffers)
    self.line("{")
    self.line(f"uint32_t af[2][{self.mi}][4], bf[2][{self.ni}][2];")
    self.line("#pragma unroll")
    self.line(f"for (int kk = 0; kk < {steps + 1}; ++kk) {{")
    self.indent += 1
    self.line(f"if (kk < {steps}) {{")
    self.indent += 1
    self.line("#pragma unroll")
    self.line(f"for (int mi = 0; mi < {self.mi}; ++mi) {{")
    if a_at is not None:
        self.line("    " + self.target.ldmatrix[a.transpose].format(regs="af[kk % 2][mi]", addr=a_at))
    else:  # the A fragment of k step kk is the accumulator fragment of columns 16kk.. (FlashAttention-2)
        p = a.name
        self.line(f"    af[kk % 2][mi][0] = pack2({p}[mi][2 * kk][0], {p}[mi][2 * kk][1]);")
        self.line(f"    af[kk % 2][mi][1] = pack2({p}[mi][2 * kk][2], {p}[mi][2 * kk][3]);")
        self.line(f"    af[kk % 2][mi][2] = pack2({p}[mi][2 * kk + 1][0], {p}[mi][2 * kk + 1][1]);")
        self.line(f"    af[kk % 2][mi][3] = pack2({p}[mi][2 * kk + 1][2], {p}[mi][2 * kk + 1][3]);")
    self.line("}")
    _load_b_fragments(self, b, b_at)
    self.indent -= 1
    self.line("}")
    self.line("if (kk > 0) {")
    self.indent += 1
    self.line("#pragma unroll")
    self.line(f"for (int mi = 0; mi < {self.mi}; ++mi)")
    self.line("    #pragma unroll")
    self.line(f"    for (int ni = 0; ni < {self.ni}; ++ni)")
    self.line("        " + mma.format(d=f"{acc.name}[mi][ni]", a="af[(kk - 1) % 2][mi]", b="bf[(kk - 1) % 2][ni]"))
    self.indent -= 1
    self.line("}")
    self.indent -= 1
    self.line("}")
    self.line("}")


def _load_b_fragments(self, b, b_at: str) -> None:
    """The B fragments of k step kk into bf[kk % 2]: ldmatrix.x4 gives n tiles 2p and 2p + 1 of
    pair p; an odd last n tile (P·V of a value head dim of 8 or 24) takes ldmatrix.x2 at pair
    ni / 2's addresses, whose lanes 0-15 name the rows of that pair's first tile."""
    if self.ni >= 2:
        self.line("#pragma unroll")
        self.line(f"for (int p = 0; p < {self.ni // 2}; ++p) {{")
        self.line("    uint32_t r[4];")
        self.line("    " + self.target.ldmatrix[not b.transpose].format(regs="r", addr=b_at))
        self.line("    uint32_t* b0 = bf[kk % 2][2 * p];")
        self.line("    uint32_t* b1 = bf[kk % 2][2 * p + 1];")
        self.line("    b0[0] = r[0]; b0[1] = r[1]; b1[0] = r[2]; b1[1] = r[3];")
        self.line("}")
    if self.ni % 2:
        load = self.target.ldmatrix_x2[not b.transpose].format(regs=f"bf[kk % 2][{self.ni - 1}]", addr=b_at)
        self.line(f"{{ const int p = {self.ni // 2}; {load} }}")


def _shared_element(tile, row: str, col: str) -> str:
    """Element (row, col) of a staged tile (its logical orientation)."""
    r, c = (col, row) if tile.transpose else (row, col)
    s = tile.shared
    return f"{s.name}[{tile.stage} * {s.stage_elems} + {s.layout.offset(CExpr(r), CExpr(c)).text}]"


def _operand_element(self, tile, row: str, col: str) -> str:
    """Element (row, col) of an mma operand as a float: read from shared memory, or computed by
    its prologue map (statements emitted here) from the staged tile and the inputs it reads."""
    if hasattr(tile, "shared"):
        return f"(float){_shared_element(tile, row, col)}"
    # an operand's element is not an accumulator register: a value per column is read at its index
    return f"(float){_map_element(self, tile.op, [row, col], '0', {}, registers=False)}"


def _simt_f32(self, a, b, acc) -> None:
    """f32 products (f32 operands, or 16-bit ones widened, or prologue maps): plain FMAs into
    the same accumulator fragment positions an mma.sync would hold (so the epilogue is
    shared): thread element [mi][ni][r] is row mi*16 + lane/4 + 8*(r/2), column ni*8 +
    2*(lane%4) + r%2. Per k, the thread's B elements are read (a prologue map computed) once
    into registers; each A element then multiplies them all."""
    place = lambda reg: self.tiling.accumulator(*map(CExpr, ("warp_m", "warp_n", "lane", "mi", "ni", reg)))
    row, col = place("(h * 2)")[0].text, place("e")[1].text  # a row depends on (mi, h), a column on (ni, e)
    self.line("#pragma unroll 4")
    self.line(f"for (int kk = 0; kk < {self.bk}; ++kk) {{")
    self.indent += 1
    self.line(f"float yb[{self.ni}][2];")
    self.line("#pragma unroll")
    self.line(f"for (int ni = 0; ni < {self.ni}; ++ni)")
    self.line("#pragma unroll")
    self.line("for (int e = 0; e < 2; ++e) {")
    self.indent += 1
    self.line(f"yb[ni][e] = {_operand_element(self, b, 'kk', col)};")
    self.indent -= 1
    self.line("}")
    self.line("#pragma unroll")
    self.line(f"for (int mi = 0; mi < {self.mi}; ++mi)")
    self.line("#pragma unroll")
    self.line("for (int h = 0; h < 2; ++h) {")
    self.indent += 1
    self.line(f"const float x = {_operand_element(self, a, row, 'kk')};")
    self.line("#pragma unroll")
    self.line(f"for (int ni = 0; ni < {self.ni}; ++ni)")
    self.line("#pragma unroll")
    self.line("for (int e = 0; e < 2; ++e)")
    self.line(f"    {acc.name}[mi][ni][h * 2 + e] = fmaf(x, yb[ni][e], {acc.name}[mi][ni][h * 2 + e]);")
    self.indent -= 1
    self.line("}")
    self.indent -= 1
    self.line("}")


def _fragment_addresses(self, tile, which: str) -> str:
    """The shared address each lane gives ldmatrix for its fragment of ``tile``.

    One of (fragment index, k step) moves the address by 16 rows, the other along the
    row. When the layout repeats every 16 rows (offset(r + 16, c) = offset(r, c) +
    16 * cols, checked here on the whole tile), the lane's offsets along the row are
    computed once, before the K loop, and the other index adds a multiple of 16 rows.
    """
    s = tile.shared
    rows, cols = s.layout.shape
    row, col, row_index = _lane_coordinates(self, tile, which)
    frag = "mi" if which == "a" else "p"
    stage = f"{s.name} + {tile.stage} * {s.stage_elems}"
    periodic = all(s.layout.offset(r + 16, c) == s.layout.offset(r, c) + 16 * cols
                   for r in range(rows - 16) for c in range(cols))
    if not periodic:
        return f"{stage} + {s.layout.offset(CExpr(row(frag, 'kk')), CExpr(col(frag, 'kk'))).text}"
    count = {"mi": self.mi, "p": (self.ni + 1) // 2, "kk": self.bk // 16}  # an odd n tile: half a pair
    other = "kk" if row_index == frag else frag
    table = []
    for n in range(count[other]):
        f, k = ("0", str(n)) if other == "kk" else (str(n), "0")
        table.append(s.layout.offset(CExpr(row(f, k)), CExpr(col(f, k))).text)
    name = self.fresh(f"{which}off")
    self.prologue.append(f"const int {name}[{len(table)}] = {{{', '.join(table)}}};")
    return f"{stage} + {name}[{other}] + {row_index} * {16 * cols}"


def _lane_coordinates(self, tile, which):
    """(row(frag, kk), col(frag, kk), the index that moves by 16 rows) of a lane's ldmatrix
    address, from the warp tiling's functions (dialects/layout.py)."""
    lane = CExpr("lane")
    if which == "a":
        at = lambda f, k: self.tiling.ldmatrix_a(CExpr("warp_m"), lane, CExpr(f), CExpr(k), tile.transpose)
        moving = "kk" if tile.transpose else "mi"
    else:
        at = lambda f, k: self.tiling.ldmatrix_b(CExpr("warp_n"), lane, CExpr(f), CExpr(k), tile.transpose)
        moving = "p" if tile.transpose else "kk"
    return (lambda f, k: at(f, k)[0].text, lambda f, k: at(f, k)[1].text, moving)


def op_tile_store(self, op):
    tile = self.value(op.operation.operands[0])
    if isinstance(tile, (cuda_blocked.Blocked, cuda_blocked.BRows)):
        cuda_blocked.store(self, op)
        return
    t = ir.RankedTensorType(op.operation.operands[0].type)
    if isinstance(tile, Frag) or t.rank == 2 and isinstance(register_layout(t), MmaLayout):
        # the stored tile's own warp tiling ([bm, head dim] in attention, not the kernel's bn)
        with _Using(self, tile.tiling if isinstance(tile, Frag) else tiling_for(t), self.bk):
            _store(self, op)
    else:
        _store(self, op)


def _store(self, op):
    value, dst, *offs = op.operation.operands
    _, gname, dims, element = self.value(dst)
    dims_c = self.dims_c(dims)
    offsets = [self.value(o) for o in offs]
    n_rows, n_cols = dims_c[-2], dims_c[-1]
    row0, col0 = offsets[-2], offsets[-1]
    pair = {"float": "float2", "__nv_bfloat16": "__nv_bfloat162", "__half": "__half2"}[element]
    self.line(f"{{  // epilogue: every fragment element of the {self.bm}x{self.bn} tile, masked to the output")
    self.indent += 1
    self.line(f"{element}* out = {gname} + {_base(dims_c, offsets[:-2])};")
    self.line("#pragma unroll")
    self.line(f"for (int mi = 0; mi < {self.mi}; ++mi)")
    self.line("#pragma unroll")
    self.line(f"for (int ni = 0; ni < {self.ni}; ++ni)")
    self.line("#pragma unroll")
    self.line("for (int h = 0; h < 2; ++h) {")
    self.indent += 1
    row, col = self.tiling.accumulator(*map(CExpr, ("warp_m", "warp_n", "lane", "mi", "ni", "(h * 2)")))
    self.line(f"const int row = {row.text};")
    self.line(f"const int col = {col.text};")
    self.line(f"const long long gr = {row0} + row, gc = {col0} + col;")
    self.line(f"if (gr < {n_rows}) {{")
    self.indent += 1
    memo = {}
    v0 = _element(self, value, ["row", "col"], "h * 2", memo)
    v1 = _element(self, value, ["row", "(col + 1)"], "h * 2 + 1", memo)
    self.line(f"if (gc + 1 < {n_cols} && ({n_cols} % 2) == 0) {{")
    self.line(f"    {pair} both; both.x = {v0}; both.y = {v1};")
    self.line(f"    *reinterpret_cast<{pair}*>(out + gr * {n_cols} + gc) = both;")
    self.line("} else {")
    self.line(f"    if (gc < {n_cols}) out[gr * {n_cols} + gc] = {v0};")
    self.line(f"    if (gc + 1 < {n_cols}) out[gr * {n_cols} + gc + 1] = {v1};")
    self.line("}")
    self.indent -= 1
    self.line("}")
    self.indent -= 1
    self.line("}")
    self.indent -= 1
    self.line("}")


def _element(self, value, coords: list[str], reg: str, memo: dict, registers: bool = True) -> str:
    """C expression of ``value`` at tile coordinates ``coords`` (reg: the accumulator slot;
    ``registers``: as _map_element's)."""
    key = (value, tuple(coords))
    if key in memo:
        return memo[key]
    tile = self.value(value)
    if hasattr(tile, "shared"):  # a staged tile a prologue map reads
        result = _shared_element(tile, *coords)
    elif hasattr(tile, "name") and not hasattr(tile, "layout"):  # the accumulator, or a register tile
        result = f"{tile.name}[mi][ni][{reg}]"
        if getattr(tile, "scale", None) is not None:  # held unscaled (cuda_scaled.py)
            result = cuda_scaled.element(self, tile.name, reg, tile.scale)
    elif tile.op.operation.name == "tile.load":  # a Columns read at another index, too
        result = _global_element(self, tile.op, coords)
    else:
        result = _map_element(self, tile.op, coords, reg, memo, registers)
    memo[key] = result
    return result


def _map_element(self, op, coords, reg, memo, registers: bool = True) -> str:
    """The C expression of tile.map ``op`` at ``coords`` (its statements emitted here); ``reg``:
    the accumulator register of the element (``registers``: coords are that register's, so a
    value per column held in registers is read as the register's column, ``Columns``)."""
    local = {}
    for inner in op.regions[0].blocks[0].operations:
        name = inner.operation.name
        if name == "tile.yield":
            return local[inner.operation.operands[0]]
        if name == "tile.elem":
            amap = ir.AffineMapAttr(inner.attributes["map"]).value
            positions = [ir.AffineDimExpr(e).position for e in amap.results]
            src = inner.operation.operands[0]
            columns = self.value(src)
            if registers and isinstance(columns, Columns) and positions == [len(coords) - 1]:  # its own column
                local[inner.result] = columns.at(reg)
                continue
            local[inner.result] = _element(self, src, [coords[p] for p in positions], reg, memo, registers)
            continue
        if name == "tile.index":  # the element's position along a tile dim
            local[inner.result] = f"(long long)({coords[ir.IntegerAttr(inner.attributes['dim']).value]})"
            continue
        args = []
        for v in inner.operation.operands:
            if v in local:
                args.append(local[v])
            else:
                outer = self.value(v)
                args.append(scalar_statement(self, outer[1], []) if isinstance(outer, tuple) else outer)
        local[inner.result] = scalar_statement(self, inner, args)
    raise TilecError("tile.map without tile.yield")
