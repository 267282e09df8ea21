"""CUDA for register tiles in the blocked layout (row programs: a warp per row, or warps sharing one).

A [bm, bn] tile of ``#tile.blocked<warps, vec, 32, 1>`` is ``T name[bm/warps][bn/(32 vec)][vec]``
per thread: element [i][c][e] sits at row i*warps + warp, column (c*32 + lane)*vec + e
(``BlockedLayout.position``; with ``split`` warps a row, each holds every split-th group of 32
vectors and a row reduction adds a combine through shared memory; with fewer lanes a row, a pointwise tile's warp spans several
rows, and its gathers may be read as vectors: cuda_gather.py). A row vector
(``#tile.slice<"blocked", ..., 1>``) is ``float name[bm/warps]``, the same in every lane of the warp. Global loads are ``vec``
wide (16 bytes) where the aligned variant may assume whole 16-byte rows; a row reduction
folds the thread's elements, then the 32 lanes by xor shuffles. A vector along the columns
(a norm's gain[c]) read by a map is loaded 16 bytes at once per column group in the aligned
variant (the runtime picks it only for 16-byte aligned base pointers), element by element at
the tensor's edge; row vectors loaded from memory are read element by element where used.
"""

from __future__ import annotations

from dataclasses import dataclass

from torch_mlir import ir

from tilec.dialects.layout import BlockedLayout, SliceLayout
from tilec.dialects.reduce_kinds import KINDS
from tilec.dialects.tile import register_layout

from ..diagnostics import TilecError
from .cexpr import CExpr
from .cuda_address import _base, _global_element, _strides
from .cuda_gather import gather_vectors
from .cuda_ranges import narrow_compares
from .cuda_regs import Frag, Rows, ctype_of, map_body
from .cuda_text import ELEMENT_BYTES as _BYTES, VECTOR_TYPES as _VECTOR, ctype, float_literal



@dataclass
class Blocked:
    name: str
    layout: BlockedLayout
    counts: tuple          # (rows per warp, column groups, vec)
    element: str


@dataclass
class BRows:
    name: str
    count: int             # rows per warp


def is_blocked(t) -> bool:
    """Whether a tile type is in the blocked layout or is a row vector of it."""
    layout = register_layout(t)
    return isinstance(layout, BlockedLayout) or \
        isinstance(layout, SliceLayout) and isinstance(layout.parent, BlockedLayout) and layout.dim == 1


def _loops(self, counts, names=("i", "c", "e")):
    for var, count in zip(names, counts):
        self.line("#pragma unroll")
        self.line(f"for (int {var} = 0; {var} < {count}; ++{var})")


def _position(layout: BlockedLayout):
    row, col = layout.position(CExpr("warp"), CExpr("lane"), CExpr("i"), CExpr("c"), CExpr("e"))
    return row.text, col.text


def load(self, op) -> None:
    """tile.load of a blocked [bm, bn] tile: vector loads inside the tensor, masked element loads at its edge."""
    t = ir.RankedTensorType(op.result.type)
    layout = register_layout(t)
    counts = layout.per_thread(*t.shape)
    element = ctype(t.element_type)
    src, *offs = op.operation.operands
    _, gname, dims, _ = self.value(src)
    dims_c = self.dims_c(dims)
    offsets = [self.value(o) for o in offs]
    name = self.fresh("b")
    self.line(f"alignas(16) {element} {name}[{counts[0]}][{counts[1]}][{counts[2]}];")
    _loops(self, counts[:2])
    self.line("{")
    self.indent += 1
    row, col = (x.text for x in layout.position(CExpr("warp"), CExpr("lane"), CExpr("i"), CExpr("c"), 0))
    self.line(f"const long long gr = {offsets[-2]} + {row}, gc = {offsets[-1]} + {col};")
    width = counts[2] * (2 if element != "float" else 4)
    fast = self.aligned and width in _VECTOR
    if fast:  # a whole vector inside the tensor: one wide load (rows are whole 16-byte chunks)
        vector = _VECTOR[width]
        base = f"{gname} + {_base(dims_c, offsets[:-2])}"
        self.line(f"if (gr < {dims_c[-2]} && gc + {counts[2]} <= {dims_c[-1]}) {{")
        self.line(f"    *reinterpret_cast<{vector}*>({name}[i][c]) = "
                  f"*reinterpret_cast<const {vector}*>({base} + gr * {dims_c[-1]} + gc);")
        self.line("} else {")
        self.indent += 1
    self.line("#pragma unroll")  # the tensor's edge, or any row length: element by element, padded
    self.line(f"for (int e = 0; e < {counts[2]}; ++e) {{")
    self.indent += 1
    value = _global_element(self, op, [row, f"({col} + e)"])
    self.line(f"{name}[i][c][e] = {value};")
    self.indent -= 1
    self.line("}")
    if fast:
        self.indent -= 1
        self.line("}")
    self.indent -= 1
    self.line("}")
    self.names[op.result] = Blocked(name, layout, counts, element)


def materialize(self, op) -> None:
    """tile.map into a blocked tile (a loop over the thread's elements) or a row vector (over its rows)."""
    t = ir.RankedTensorType(op.result.type)
    layout = register_layout(t)
    element = ctype(t.element_type)
    name = self.fresh("b")
    vectors, known = {}, {}
    narrow = narrow_compares(self, op, list(t.shape))  # the per-element tests, in 32 bits
    if t.rank == 2:
        counts = layout.per_thread(*t.shape)
        self.line(f"alignas(16) {element} {name}[{counts[0]}][{counts[1]}][{counts[2]}];")
        _loops(self, counts[:2])
        self.line("{")
        self.indent += 1
        vectors = _column_vectors(self, op, layout, counts)  # a gamma[c]: the thread's vec columns at once
        row0, col0 = (x.text for x in layout.position(CExpr("warp"), CExpr("lane"), CExpr("i"), CExpr("c"), 0))
        known = gather_vectors(self, op, counts[2], row0, col0)  # a pointwise read: the thread's vec elements at once
        _loops(self, counts[2:], ("e",))
        result, target, parent = Blocked(name, layout, counts, element), f"{name}[i][c][e]", layout
    else:
        parent = layout.parent
        count = t.shape[0] // parent.row_warps
        self.line(f"{element} {name}[{count}];")
        _loops(self, [count], ("i",))
        result, target = BRows(name, count), f"{name}[i]"
    self.line("{")
    self.indent += 1
    row, col = _position(parent)
    value = map_body(self, op, row, col, lambda src, dims: f"{vectors[src]}[e]" if dims == [1] and src in vectors
                     else _read(self, src, dims, row, col), known=known, narrow=narrow)
    self.line(f"{target} = {value};")
    self.indent -= 1
    self.line("}")
    if t.rank == 2:
        self.indent -= 1
        self.line("}")
    self.names[op.result] = result


def _column_vectors(self, op, layout: BlockedLayout, counts) -> dict:
    """{tile.load value: C array} for each vector along the columns (a norm's gain) that the
    body of ``op`` reads at the column: its ``vec`` consecutive columns of the thread loaded as
    one 16-byte vector inside the tensor (the aligned variant: 16-byte aligned base pointers),
    element by element at its edge, instead of a 2-byte load an element."""
    found = {}
    for inner in op.regions[0].blocks[0].operations:
        if inner.operation.name != "tile.elem" or inner.operation.operands[0] in found:
            continue
        src_value = inner.operation.operands[0]
        dims = [ir.AffineDimExpr(e).position for e in ir.AffineMapAttr(inner.attributes["map"]).value.results]
        src = self.value(src_value)
        if dims != [1] or not hasattr(src, "op") or src.op.operation.name != "tile.load":
            continue
        mem, *offs = src.op.operation.operands
        _, gname, mem_dims, element = self.value(mem)
        vector = _VECTOR.get(counts[2] * _BYTES.get(element, 0))
        if not self.aligned or vector is None or counts[2] == 1:
            continue
        dims_c, offsets = self.dims_c(mem_dims), [self.value(o) for o in offs]
        col0 = layout.position(CExpr("warp"), CExpr("lane"), CExpr("i"), CExpr("c"), 0)[1].text
        gc = self.fresh("x")
        self.line(f"const long long {gc} = {offsets[-1]} + {col0};")
        flat = " + ".join(f"{o} * {st}" for o, st in zip(offsets[:-1] + [gc], _strides(dims_c)))
        name = found[src_value] = self.fresh("v")
        self.line(f"alignas(16) {element} {name}[{counts[2]}];")
        self.line(f"if ({gc} + {counts[2]} <= {dims_c[-1]}) {{")
        self.line(f"    *reinterpret_cast<{vector}*>({name}) = *reinterpret_cast<const {vector}*>({gname} + {flat});")
        self.line("} else {")
        self.indent += 1
        _loops(self, counts[2:], ("e",))
        self.line("{")
        self.indent += 1
        self.line(f"{name}[e] = {_global_element(self, src.op, [f'({col0} + e)'])};")
        self.indent -= 1
        self.line("}")
        self.indent -= 1
        self.line("}")
    return found


def _read(self, src_value, dims, row: str, col: str) -> str:
    """The C expression of a tile.elem of ``src_value`` at the thread's element [i][c][e]."""
    src = self.value(src_value)
    if isinstance(src, Blocked):
        return f"{src.name}[i][c][e]"
    if isinstance(src, BRows):
        return f"{src.name}[i]"
    if hasattr(src, "op") and src.op.operation.name == "tile.load":
        return _global_element(self, src.op, [row if d == 0 else col for d in dims])
    raise TilecError(f"a blocked tile.map cannot read a register tile of kind {type(src).__name__}")


def reduce(self, op) -> None:
    """tile.reduce of a blocked tile along its rows: the thread's elements, then xor shuffles over the warp."""
    src = self.value(op.operation.operands[0])
    kind = ir.StringAttr(op.attributes["kind"]).value
    if not isinstance(src, Blocked) or ir.IntegerAttr(op.attributes["dim"]).value != 1:
        raise TilecError("tile.reduce: rows of a blocked register tile only")
    if src.layout.lanes != 32:
        raise TilecError(f"tile.reduce: a blocked row spans {src.layout.lanes} lanes; a row reduction needs 32")
    combine = KINDS[kind].c
    name = self.fresh("r")
    rows, groups, vec = src.counts
    self.line(f"float {name}[{rows}];")
    _loops(self, [rows], ("i",))
    self.line("{")
    self.indent += 1
    self.line(f"float v = {src.name}[i][0][0];")
    self.line("#pragma unroll")
    self.line(f"for (int k = 1; k < {groups * vec}; ++k) v = {combine.format('v', f'{src.name}[i][k / {vec}][k % {vec}]')};")
    self.line("// the 32 lanes of the warp hold the rest of the row")
    for shift in (16, 8, 4, 2, 1):
        self.line(f"v = {combine.format('v', self.target.shuffle_xor.format(value='v', mask=shift))};")
    self.line(f"{name}[i] = v;")
    self.indent -= 1
    self.line("}")
    if src.layout.split > 1:
        _combine_warps(self, name, rows, src.layout, combine, _in_loop(op))
    self.names[op.result] = BRows(name, rows)


def _in_loop(op) -> bool:
    parent = op.operation.parent
    while parent is not None and parent.name != "func.func":
        if parent.name == "scf.for":
            return True
        parent = parent.parent
    return False


def _combine_warps(self, name: str, rows: int, layout: BlockedLayout, combine: str, again: bool) -> None:
    """The partial values of the ``split`` warps sharing each row, combined through shared
    memory: lane 0 of each warp writes its part at [row][part], and after a barrier every thread
    folds its rows' parts in part order (the same order in every warp, so all hold one value).
    Each reduction has slots of its own; one run ``again`` (in a loop) waits at a barrier before
    writing, for every warp to have read its slots of the iteration before."""
    split, row_warps = layout.split, layout.row_warps
    offset = self.smem_bytes
    self.smem_bytes += 4 * rows * row_warps * split
    parts = self.fresh("p")
    self.line(f"float* {parts} = reinterpret_cast<float*>(smem + {offset});  // [row][part]: {split} warps a row")
    if again:
        self.line(self.target.barrier)
    _loops(self, [rows], ("i",))
    row = layout.position(CExpr("warp"), 0, CExpr("i"), 0, 0)[0].text  # the thread's row i in the tile
    part = "warp" if row_warps == 1 else f"warp / {row_warps}"  # its warp's part of the row
    self.line(f"if (lane == 0) {parts}[{row} * {split} + {part}] = {name}[i];")
    self.line(self.target.barrier)
    _loops(self, [rows], ("i",))
    self.line("{")
    self.indent += 1
    self.line(f"const float* part = {parts} + {row} * {split};")
    self.line("float v = part[0];")
    self.line("#pragma unroll")
    self.line(f"for (int k = 1; k < {split}; ++k) v = {combine.format('v', 'part[k]')};")
    self.line(f"{name}[i] = v;")
    self.indent -= 1
    self.line("}")


def store(self, op) -> None:
    """tile.store of a blocked tile (every element inside the tensor) or a row vector (lane 0 of
    the warp, or of the first of the warps sharing the row)."""
    value, dst, *offs = op.operation.operands
    tile = self.value(value)
    _, gname, dims, element = self.value(dst)
    dims_c = self.dims_c(dims)
    offsets = [self.value(o) for o in offs]
    out = f"{gname} + {_base(dims_c, offsets[:-ir.RankedTensorType(value.type).rank])}"
    if isinstance(tile, BRows):
        parent = register_layout(value.type).parent
        if parent.lanes != 32:
            raise TilecError(f"tile.store of a row vector: its rows span {parent.lanes} lanes, not a warp's 32")
        _loops(self, [tile.count], ("i",))
        self.line("{")
        self.line(f"    const long long gr = {offsets[-1]} + {parent.position(CExpr('warp'), 0, CExpr('i'), 0, 0)[0].text};")
        first = "lane == 0" if parent.split == 1 else f"lane == 0 && warp < {parent.row_warps}"  # one warp of those sharing the row
        self.line(f"    if ({first} && gr < {dims_c[-1]}) ({out})[gr] = {_cast(tile_ctype(value), element, f'{tile.name}[i]')};")
        self.line("}")
        return
    rows, cols = dims_c[-2], dims_c[-1]
    vec = tile.counts[2]
    width = vec * _BYTES[element] if vec > 1 else 0  # one element: no vector to store
    _loops(self, tile.counts[:2])
    self.line("{")
    self.indent += 1
    row, col = (x.text for x in tile.layout.position(CExpr("warp"), CExpr("lane"), CExpr("i"), CExpr("c"), 0))
    self.line(f"const long long gr = {offsets[-2]} + {row}, gc = {offsets[-1]} + {col};")
    if width in _VECTOR:  # a whole vector inside rows of whole 16-byte chunks: one wide store
        vector = _VECTOR[width]
        self.line(f"if (gr < {rows} && gc + {vec} <= {cols} && ({cols} * {_BYTES[element]}) % 16 == 0) {{")
        self.line(f"    alignas(16) {element} packed[{vec}];")
        self.line("    #pragma unroll")
        self.line(f"    for (int e = 0; e < {vec}; ++e) packed[e] = {_cast(tile.element, element, f'{tile.name}[i][c][e]')};")
        self.line(f"    *reinterpret_cast<{vector}*>(({out}) + gr * {cols} + gc) = *reinterpret_cast<const {vector}*>(packed);")
        self.line("} else {")
        self.indent += 1
    self.line("#pragma unroll")  # the tensor's edge, or any row length: element by element
    self.line(f"for (int e = 0; e < {vec}; ++e)")
    self.line(f"    if (gr < {rows} && gc + e < {cols}) ({out})[gr * {cols} + gc + e] = "
              f"{_cast(tile.element, element, f'{tile.name}[i][c][e]')};")
    if width in _VECTOR:
        self.indent -= 1
        self.line("}")
    self.indent -= 1
    self.line("}")


def tile_ctype(value) -> str:
    return ctype(ir.RankedTensorType(value.type).element_type)


def _cast(src: str, dst: str, text: str) -> str:
    if src == dst:
        return text
    if dst == "float":
        return f"(float)({text})"
    return {"__nv_bfloat16": "__float2bfloat16_rn({})", "__half": "__float2half_rn({})"}[dst].format(f"(float)({text})")


def copy_count(tile) -> int:
    """Elements per thread of a blocked register value (for loop-carried copies)."""
    return tile.count if isinstance(tile, BRows) else tile.counts[0] * tile.counts[1] * tile.counts[2]


# the register-tile ops whose operand is either kind of tile: the blocked tiles here, the mma
# fragments of cuda_regs
def op_tile_reduce(self, op) -> None:
    src = self.value(op.operation.operands[0])
    if isinstance(src, Blocked):
        reduce(self, op)
        return
    kind = ir.StringAttr(op.attributes["kind"]).value
    if not isinstance(src, Frag) or ir.IntegerAttr(op.attributes["dim"]).value != 1:
        raise TilecError("tile.reduce: rows of a register tile only")
    combine = KINDS[kind].c
    name = self.fresh("r")
    t = src.tiling
    self.line(f"float {name}[{t.mi}][2];")
    self.line("#pragma unroll")
    self.line(f"for (int mi = 0; mi < {t.mi}; ++mi)")
    self.line("#pragma unroll")
    self.line("for (int h = 0; h < 2; ++h) {")
    self.indent += 1
    self.line(f"float v = {src.name}[mi][0][h * 2];")
    self.line(f"v = {combine.format('v', f'{src.name}[mi][0][h * 2 + 1]')};")
    self.line("#pragma unroll")
    self.line(f"for (int ni = 1; ni < {t.ni}; ++ni) {{")
    self.line(f"    v = {combine.format('v', f'{src.name}[mi][ni][h * 2]')};")
    self.line(f"    v = {combine.format('v', f'{src.name}[mi][ni][h * 2 + 1]')};")
    self.line("}")
    self.line("// the 4 lanes of a quad hold the same row")
    for mask in (1, 2):
        self.line(f"v = {combine.format('v', self.target.shuffle_xor.format(value='v', mask=mask))};")
    scale = f" * {float_literal(src.scale)}" if src.scale is not None else ""  # the max of c * y is c * max y
    self.line(f"{name}[mi][h] = v{scale};")
    self.indent -= 1
    self.line("}")
    self.names[op.result] = Rows(name, t)


def copy_carried(self, yield_op) -> None:
    """scf.yield in a loop carrying register tiles: copy each new tile into the carried one."""
    loop = yield_op.operation.parent
    args = list(loop.regions[0].blocks[0].arguments)[1:]
    for arg, value in zip(args, yield_op.operation.operands):
        carried, new = self.value(arg), self.value(value)
        if isinstance(carried, (Blocked, BRows)) and carried.name != new.name:
            count = copy_count(carried)
            self.line(f"for (int e = 0; e < {count}; ++e) (&{carried.name}[0])[e] = (&{new.name}[0])[e];"
                      if isinstance(carried, BRows) else
                      f"for (int e = 0; e < {count}; ++e) (&{carried.name}[0][0][0])[e] = (&{new.name}[0][0][0])[e];")
            continue
        if not isinstance(carried, (Frag, Rows)) or carried.name == new.name:
            continue
        count = carried.tiling.mi * (carried.tiling.ni * 4 if isinstance(carried, Frag) else 2)
        cast = f"({ctype_of(carried)}*)"
        self.line(f"for (int e = 0; e < {count}; ++e) ({cast}{carried.name})[e] = ({cast}{new.name})[e];")
