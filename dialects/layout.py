"""Layouts as data: where a tile's element (r, c, ...) lives in shared memory.

A layout is a CuTe-style shape/stride pair composed with an XOR swizzle:

    offset(coord) = swizzle(sum(coord[i] * stride[i]))
    Swizzle(bits=B, base=M, shift=S)(x) = x ^ ((x >> S) & (((1 << B) - 1) << M))

With bf16 rows of 64 elements (128 bytes), Swizzle(3, 3, 3) XORs the 16-byte
chunk index (offset bits 3..5) with the row index mod 8 (bits 6..8), so the
eight rows an ldmatrix reads at one logical chunk land in eight different bank
groups. The same functions are used by the CUDA emitter, the tile interpreter
and the verifier; only operators + * ^ & >> are used, so they also evaluate on
numpy arrays and Z3 bit-vectors.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import prod


@dataclass(frozen=True)
class Swizzle:
    """CuTe's Swizzle<B, M, S>: XOR ``bits`` bits at ``base`` with those ``shift`` above."""

    bits: int = 0
    base: int = 0
    shift: int = 0

    def __call__(self, offset):
        if self.bits == 0:
            return offset
        mask = ((1 << self.bits) - 1) << self.base
        return offset ^ ((offset >> self.shift) & mask)


@dataclass(frozen=True)
class Layout:
    """shape/stride plus swizzle; ``Layout.row_major((128, 64), Swizzle(3, 3, 3))``.

    A stride may be a *split* ``(block, inner, outer)``: the coordinate c steps ``inner``
    inside blocks of ``block`` (a power of two) and ``outer`` from block to block, CuTe's
    mode (block, n / block) : (inner, outer). A tile the copy engine brings in as several
    boxes side by side is one: a [64, 256] bf16 tile of four 64-column boxes of 128-byte rows
    is ``Layout((64, 256), (64, (64, 1, 4096)), Swizzle(3, 3, 3))``."""

    shape: tuple[int, ...]
    stride: tuple
    swizzle: Swizzle = Swizzle()

    def __post_init__(self):
        if len(self.shape) != len(self.stride):
            raise ValueError(f"layout shape {self.shape} and stride {self.stride} differ in rank")
        if any(s <= 0 for s in self.shape):
            raise ValueError(f"layout shape {self.shape} must be positive")
        for n, s in zip(self.shape, self.stride):
            if isinstance(s, tuple) and (len(s) != 3 or s[0] < 1 or s[0] & (s[0] - 1) or n % s[0]):
                raise ValueError(f"a split stride is (block, inner, outer) with a power-of-two block "
                                 f"dividing the extent {n}; got {s}")

    @staticmethod
    def row_major(shape, swizzle: Swizzle = Swizzle()) -> "Layout":
        strides, acc = [], 1
        for extent in reversed(shape):
            strides.append(acc)
            acc *= extent
        return Layout(tuple(shape), tuple(reversed(strides)), swizzle)

    @property
    def size(self) -> int:
        """Number of elements of the tile."""
        return prod(self.shape)

    @property
    def cosize(self) -> int:
        """One past the largest offset before swizzling (swizzles permute within 2^k blocks)."""
        def reach(n, s):
            if isinstance(s, tuple):
                block, inner, outer = s
                return (block - 1) * inner + (n // block - 1) * outer
            return (n - 1) * s
        return sum(reach(n, s) for n, s in zip(self.shape, self.stride)) + 1

    def offset(self, *coord):
        """Element offset of ``coord`` in the buffer (ints, arrays, C expressions, bit-vectors:
        a split mode uses & and >> only)."""
        def term(c, s):
            if isinstance(s, tuple):
                block, inner, outer = s
                return (c & (block - 1)) * inner + (c >> (block.bit_length() - 1)) * outer
            return c * s
        linear = sum(term(c, s) for c, s in zip(coord, self.stride))
        return self.swizzle(linear)


def smem_tile_layout(rows: int, cols: int, element_bits: int, swizzle: bool = True) -> Layout:
    """The row-major shared-memory layout of a rows x cols tile, XOR-swizzled at 16-byte
    chunks so that the 8 rows an ldmatrix (or a cp.async wave) touches at one logical
    chunk hit 8 different bank groups.

    For 16-bit elements, a chunk is 8 elements (base 3); the row index is XORed into
    the chunk index: Swizzle(3, 3, log2(cols) - 3) for rows of >= 64 elements (e.g.
    CuTe's Swizzle<3,3,3> at 64), Swizzle(2, 3, 3) at 32 and Swizzle(1, 3, 3) at 16,
    where a row is shorter than the 128 bytes the banks span.

    A row of n = 2^t * o chunks, o odd and > 1 (a head dim of 96: 12 chunks), has no row
    index in bits of its own: row r starts at chunk r n, so 8 rows at one chunk fall in
    8 / 2^t bank groups. XORing the low t bits of the chunk with the low t bits of its
    128-byte line (chunk // 8) spreads them over all 8, and only moves a chunk within its
    aligned run of 2^t, so each 8 consecutive chunks (a cp.async phase) keep 8 groups:
    ``smem_tile_layout(128, 96, 16)`` is row-major with Swizzle(2, 3, 3).
    """
    if not swizzle:
        return Layout.row_major((rows, cols))
    per_chunk = 128 // element_bits  # elements in 16 bytes
    base = per_chunk.bit_length() - 1
    chunks = cols // per_chunk
    if chunks < 2 or cols % per_chunk:
        return Layout.row_major((rows, cols))
    if cols & (cols - 1):
        t = min((chunks & -chunks).bit_length() - 1, 3)  # the power of two in the chunk count
        return Layout.row_major((rows, cols), Swizzle(t, base, 3) if t else Swizzle())
    col_bits = cols.bit_length() - 1
    if chunks >= 8:
        return Layout.row_major((rows, cols), Swizzle(3, base, col_bits - base))
    bits = chunks.bit_length() - 1
    return Layout.row_major((rows, cols), Swizzle(bits, base, 3))


TMA_MODES = {32: 1, 64: 2, 128: 3}  # the copy engine's swizzle modes (bytes) -> XORed chunk bits


def tma_swizzle(mode: int, element_bytes: int) -> Swizzle:
    """The layout the copy engine (cp.async.bulk.tensor) writes a box in, in its ``mode``-byte
    swizzle mode, over element offsets: the 16-byte chunk index XORed with the row's place in
    the 2^bits rows of a ``mode``-byte span, CuTe's Swizzle<bits, 4, 3> on bytes. Confirmed on
    an H200 for bf16 boxes in every mode (tests/gpu/test_gpu_tensor_map.py, 2026-12-01). Mode 0:
    no swizzle."""
    if mode == 0:
        return Swizzle()
    if mode not in TMA_MODES:
        raise ValueError(f"the copy engine has no {mode}-byte swizzle mode (32, 64, 128)")
    return Swizzle(TMA_MODES[mode], (16 // element_bytes).bit_length() - 1, 3)


def tma_mode_of(layout: Layout, element_bytes: int) -> int | None:
    """The swizzle mode (bytes; 0: none) of a tensor map whose boxes land in shared memory as
    ``layout`` (a [rows, cols] tile) lays them out; None when no mode does (rows over 128
    bytes, a swizzle no mode has)."""
    boxes = tma_boxes(layout, element_bytes)
    return None if boxes is None else boxes[0]


def tma_boxes(layout: Layout, element_bytes: int) -> tuple[int, int] | None:
    """(swizzle mode in bytes, columns per box) of a [rows, cols] tile the copy engine fills
    with boxes of [rows, box columns] side by side (one box when the rows are the box's), as
    ``tma_layout`` places them; None when no tensor map lays a tile out as ``layout`` does."""
    if len(layout.shape) != 2:
        return None
    rows, cols = layout.shape
    row, col = layout.stride
    block = cols if col == 1 else col[0] if isinstance(col, tuple) and col[1] == 1 else 0
    if row != block or block != cols and col != (block, 1, rows * block):
        return None
    row_bytes = block * element_bytes
    if layout.swizzle == Swizzle():  # a box row: at most 256 elements, whole 16-byte chunks
        return (0, block) if block <= 256 and row_bytes % 16 == 0 else None
    mode = next((m for m in TMA_MODES if m == row_bytes), None)
    ok = mode is not None and layout.swizzle == tma_swizzle(mode, element_bytes)
    return (mode, block) if ok else None


def tma_layout(rows: int, cols: int, element_bytes: int, mode: int = 128) -> Layout:
    """The layout of a [rows, cols] tile the copy engine brings in as boxes of ``mode`` bytes
    per row in its ``mode``-byte swizzle: one box when a row is ``mode`` bytes or less,
    else cols / box boxes of [rows, box] one after another."""
    block = mode // element_bytes
    if cols <= block:
        return Layout.row_major((rows, cols), tma_swizzle(mode, element_bytes) if cols == block else Swizzle())
    if cols % block:
        raise ValueError(f"a {cols}-column tile is not a whole number of {block}-column boxes")
    return Layout((rows, cols), (block, (block, 1, rows * block)), tma_swizzle(mode, element_bytes))


WGMMA_MODES = {0: 0, 128: 1, 64: 2, 32: 3}  # swizzle mode (bytes) -> a wgmma descriptor's bits 62-63


def wgmma_descriptor(mode: int, leading_bytes: int, stride_bytes: int) -> int:
    """The constant fields of a wgmma shared-memory matrix descriptor (PTX ISA, "matrix
    descriptor"): the leading-dimension byte offset >> 4 at bit 16, the stride-dimension byte
    offset >> 4 at bit 32 (for a K-major tile in a swizzle mode: between groups of 8 rows,
    8 x the mode's bytes), the swizzle mode at bits 62-63. A kernel adds its tile's shared
    address >> 4 at bit 0, and 32 bytes >> 4 per k16 step of 16-bit elements inside a row.
    Checked on an H200 (tests/gpu/test_gpu_wgmma.py, 2026-12-01) for the 128-byte mode."""
    if mode not in WGMMA_MODES:
        raise ValueError(f"wgmma has no {mode}-byte swizzle mode (0, 32, 64, 128)")
    if leading_bytes % 16 or stride_bytes % 16 or not 0 <= leading_bytes >> 4 < 1 << 14 or \
            not 0 <= stride_bytes >> 4 < 1 << 14:
        raise ValueError("descriptor offsets are 14-bit multiples of 16 bytes")
    return (leading_bytes >> 4) << 16 | (stride_bytes >> 4) << 32 | WGMMA_MODES[mode] << 62


def wgmma_address(mode: int, leading_bytes: int, stride_bytes: int, k_major: bool, mn, k, element_bytes: int):
    """The byte offset (from the descriptor's start address, before the ``mode``-byte swizzle
    the hardware applies to the address) at which wgmma reads element (mn, k) of an operand
    in shared memory: PTX's canonical layouts, in 16-byte units CuTe's
    K-major   ((8, m), (T, 2k)) : ((mode/16, SBO), (1, -)) -- rows of ``mode`` bytes, 8-row groups SBO apart;
    MN-major  ((T, mode/16, m), (8, k)) : ((1, T, LBO), (mode/16, SBO)) -- ``mode``-byte rows of
              MN, one per k, 8-k groups SBO apart, ``mode``-byte MN blocks LBO apart.
    Only + * & >> on (mn, k), so it evaluates on ints and bit-vectors."""
    per_row = mode // element_bytes  # elements in one swizzle row
    shift = per_row.bit_length() - 1
    if k_major:
        return (mn >> 3) * stride_bytes + (mn & 7) * mode + k * element_bytes
    return (mn >> shift) * leading_bytes + (k >> 3) * stride_bytes + (k & 7) * mode + (mn & (per_row - 1)) * element_bytes


def byte_swizzle(mode: int):
    """The swizzle a ``mode``-byte mode applies to shared-memory byte addresses (CuTe's
    Swizzle<log2(mode/16), 4, 3>): the 16-byte chunk XORed with the row in 8 rows."""
    return Swizzle(TMA_MODES[mode], 4, 3) if mode else Swizzle()


def wgmma_operand(layout: Layout, k_major: bool, element_bytes: int):
    """(descriptor fields, bytes per k16 step) of a wgmma operand placed by ``layout``."""
    mode, box_cols = tma_boxes(layout, element_bytes)
    if k_major:  # [mn, k]: 8-row groups of mode-byte rows
        return wgmma_descriptor(mode, 16, 8 * mode), (layout.offset(0, 16) - layout.offset(0, 0)) * element_bytes
    leading = (layout.offset(0, box_cols) - layout.offset(0, 0)) * element_bytes if layout.shape[1] > box_cols else 16
    return wgmma_descriptor(mode, leading, 8 * mode), (layout.offset(16, 0) - layout.offset(0, 0)) * element_bytes


def wgmma_k_offset(layout: Layout, k_major: bool, kk):
    """Elements from the tile's start to where k16 step ``kk`` starts (its element (0, 16 kk)
    of a [mn, k] tile, (16 kk, 0) of a [k, mn] one): within a swizzle row a k step moves by
    16 elements, and a K-major tile wider than one box continues in the next box. ``kk`` may
    be an int or a bit-vector."""
    return layout.offset(0, 16 * kk) - layout.offset(0, 0) if k_major else layout.offset(16 * kk, 0) - layout.offset(0, 0)


def warpgroup_rows(layout: Layout, transposed: bool) -> int:
    """Elements from A's tile start to the 64 rows of consumer warpgroup 1 (warpgroup g: g times
    this), A stored [m, k] or, ``transposed``, [k, m]."""
    return (layout.offset(0, 64) if transposed else layout.offset(64, 0)) - layout.offset(0, 0)


@dataclass(frozen=True)
class WarpTiling:
    """How a CTA's bm x bn accumulator is spread over warps and lanes for mma.sync m16n8k16.

    The warps form wm x wn (wm = 2 when there are at least 2); warp (warp_m, warp_n) owns
    rows warp_m*tm.. and columns warp_n*tn.., as (tm/16) x (tn/8) mma tiles. The lane
    mapping is PTX's for m16n8k16 (accumulator and ldmatrix fragments). Like Layout, the
    functions use only + * // %, so they evaluate on ints, arrays, C expressions and Z3
    terms alike: the emitter prints them, tests and the verifier check them.
    """

    bm: int
    bn: int
    warps: int
    rows_only: bool = False  # every warp owns whole rows (row reductions stay inside a warp)
    # the rows fall in ``slabs`` slabs of bm / slabs; a warp's rows are tm / slabs of each slab
    # (a warpgroup issuing one wgmma m64 per 64-row slab: warp w holds rows 16 w.. of each)
    slabs: int = 1

    @property
    def wm(self) -> int:
        return self.warps if self.rows_only else 2 if self.warps >= 2 else 1

    @property
    def wn(self) -> int:
        return self.warps // self.wm

    @property
    def tm(self) -> int:
        return self.bm // self.wm

    @property
    def tn(self) -> int:
        return self.bn // self.wn

    @property
    def mi(self) -> int:
        return self.tm // 16

    @property
    def ni(self) -> int:
        return self.tn // 8

    def row0(self, warp_m, mi):
        """The first row of warp_m's mma tile mi: warp_m * tm + 16 mi, or with slabs, mma tile
        mi sits in slab mi // (mi / slabs), at the warp's rows of that slab."""
        if self.slabs == 1:
            return warp_m * self.tm + mi * 16
        per = self.mi // self.slabs  # the warp's mma tiles in one slab
        return (mi // per) * (self.bm // self.slabs) + warp_m * (self.tm // self.slabs) + (mi % per) * 16

    def accumulator(self, warp_m, warp_n, lane, mi, ni, reg):
        """(row, col) in the CTA tile of accumulator register ``reg`` (0..3) of mma tile (mi, ni)."""
        row = self.row0(warp_m, mi) + lane // 4 + (reg // 2) * 8
        col = warp_n * self.tn + ni * 8 + (lane % 4) * 2 + reg % 2
        return row, col

    def ldmatrix_a(self, warp_m, lane, mi, kk, transposed: bool):
        """(row, col) in the stored A tile ([m, k], or [k, m] if transposed) whose address
        ``lane`` gives ldmatrix(.trans) for fragment mi at k step kk."""
        m = self.row0(warp_m, mi)
        if transposed:
            return kk * 16 + lane % 8 + (lane // 16) * 8, m + ((lane // 8) % 2) * 8
        return m + lane % 16, kk * 16 + (lane // 16) * 8

    def ldmatrix_b(self, warp_n, lane, p, kk, transposed: bool):
        """(row, col) in the stored B tile ([k, n], or [n, k] if transposed) for the pair of
        n8 fragments 2p, 2p+1 at k step kk."""
        n = warp_n * self.tn + p * 16
        if transposed:
            return n + lane % 8 + (lane // 16) * 8, kk * 16 + ((lane // 8) % 2) * 8
        return kk * 16 + lane % 16, n + (lane // 16) * 8


# -- register layouts: how a register tile is spread over the warps and lanes of a CTA --------
# Each is the encoding of a tile value's tensor type (dialects/tile.py), so the emitter, the
# interpreter and the verifier read a value's distribution from its type.


@dataclass(frozen=True)
class MmaLayout:
    """mma.sync m16n8k16 accumulator fragments over a wm x wn grid of warps (``WarpTiling``);
    ``slabs`` > 1: the rows in that many slabs, each spread over the warps as one slab would be
    (a ping-pong warpgroup owning 128 rows: two wgmma m64 slabs, warp w at rows 16 w and 64 + 16 w)."""

    wm: int
    wn: int
    slabs: int = 1

    def tiling(self, rows: int, cols: int) -> WarpTiling:
        return WarpTiling(rows, cols, self.wm * self.wn, rows_only=self.wn == 1 and self.wm > 1, slabs=self.slabs)


@dataclass(frozen=True)
class OperandLayout:
    """The A (``index`` 0) or B (1) operand fragments of an mma whose accumulator is ``parent``."""

    parent: MmaLayout
    index: int


@dataclass(frozen=True)
class BlockedLayout:
    """Row-program tiles: warp w owns rows w, w + warps, ...; in a row, lane l holds ``vec``
    consecutive elements at column (c * 32 + l) * vec for each c (vectorised, coalesced loads).

    With ``lanes`` < 32 (pointwise programs over narrow rows, RoPE's head dim of 64) a row
    takes ``lanes`` lanes and a warp 32 / lanes consecutive rows: warp w owns the row groups
    w, w + warps, ...; lane l sits in row l // lanes of its group, at column
    (c * lanes + l % lanes) * vec + e. Rows then no longer stay inside one warp's 32 lanes,
    so row reductions need lanes = 32.

    With ``split`` > 1 (wide rows: a norm over 4096 columns read once) ``split`` warps share a
    row: of the ``warps / split`` row warps r = w % (warps / split) owns rows r, r + warps /
    split, ..., and w // (warps / split) is its part of the row: lane l of it holds column
    ((c * split + w // (warps / split)) * 32 + l) * vec + e, so each warp still reads 32
    consecutive vectors. A row reduction then combines the warps' partial values through
    shared memory (lanes = 32 only).
    """

    warps: int
    vec: int
    lanes: int = 32
    split: int = 1

    def __post_init__(self):
        if self.split < 1 or self.warps % self.split:
            raise ValueError(f"a blocked layout of {self.warps} warps cannot share a row among {self.split}")
        if self.split > 1 and self.lanes != 32:
            raise ValueError("warps share a row only where each spans 32 lanes of it")

    @property
    def row_warps(self) -> int:
        """The warps that own rows of their own (each with ``split`` warps sharing it)."""
        return self.warps // self.split

    def position(self, warp, lane, i, c, e):
        """(row, col) in the tile of the thread's element [i][c][e]."""
        if self.split > 1:
            part, owner = (warp, 0) if self.row_warps == 1 else (warp // self.row_warps, warp % self.row_warps)
            return i * self.row_warps + owner, ((c * self.split + part) * 32 + lane) * self.vec + e
        if self.lanes == 32:  # a warp a row: the same values, without a lane // 32 that is always 0
            return i * self.warps + warp, (c * 32 + lane) * self.vec + e
        group = 32 // self.lanes
        return (i * self.warps + warp) * group + lane // self.lanes, (c * self.lanes + lane % self.lanes) * self.vec + e

    def per_thread(self, rows: int, cols: int) -> tuple[int, int, int]:
        """The thread's register array: [rows / (row warps * 32 / lanes)][cols / (split * lanes * vec)][vec]."""
        return rows // (self.row_warps * (32 // self.lanes)), cols // (self.split * self.lanes * self.vec), self.vec


@dataclass(frozen=True)
class SliceLayout:
    """A vector taken from a 2-d ``parent`` layout by dropping ``dim`` (dim 1: one value per row)."""

    parent: MmaLayout | BlockedLayout
    dim: int


def blocked_for(cols: int, element_bytes: int, warps: int, rows: int | None = None) -> BlockedLayout:
    """The blocked layout of a row block of ``cols`` columns: 16-byte vectors where a warp's
    32 lanes still cover the block, narrower ones otherwise; where the block has fewer ``rows``
    than ``warps``, warps / rows warps share each row."""
    if rows is None or rows >= warps:
        return BlockedLayout(warps, max(1, min(16 // element_bytes, cols // 32)))
    split = warps // rows
    vec = 16 // element_bytes  # the widest vector whose groups of split * 32 lanes tile the block
    while vec > 1 and cols % (split * 32 * vec):
        vec //= 2
    return BlockedLayout(warps, vec, 32, split)


def pointwise_blocked(rows: int, cols: int, element_bytes: int, warps: int) -> BlockedLayout:
    """The blocked layout of a [rows, cols] pointwise tile: 16-byte vectors even where a row is
    narrower than 32 of them (a warp then spans several rows), as long as the warps still
    cover the rows; narrower vectors otherwise."""
    vec = 16 // element_bytes
    while vec > 1:
        lanes = min(32, max(1, cols // vec))
        if cols % (lanes * vec) == 0 and rows % (warps * (32 // lanes)) == 0:
            return BlockedLayout(warps, vec, lanes)
        vec //= 2
    return blocked_for(cols, element_bytes, warps)
