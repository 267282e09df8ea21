"""Shared-memory layouts: swizzles permute a tile and spread ldmatrix rows over banks."""

import numpy as np
import pytest

from tilec.dialects.layout import Layout, Swizzle


def test_row_major_offsets():
    layout = Layout.row_major((4, 8))
    assert layout.stride == (8, 1)
    assert layout.offset(2, 3) == 19 and layout.size == 32 and layout.cosize == 32


@pytest.mark.parametrize("rows,cols", [(128, 64), (64, 64), (32, 64)])
def test_swizzle_333_is_a_bijection_on_a_bf16_tile(rows, cols):
    layout = Layout.row_major((rows, cols), Swizzle(3, 3, 3))
    r, c = np.meshgrid(np.arange(rows), np.arange(cols), indexing="ij")
    offsets = layout.offset(r, c)
    assert sorted(offsets.ravel().tolist()) == list(range(rows * cols))


def _ldmatrix_banks(layout, chunk):
    """Banks (4-byte words mod 32) hit by 8 lanes reading 16-byte chunk ``chunk`` of rows 0..7 (bf16)."""
    banks = set()
    for row in range(8):
        start = layout.offset(row, chunk * 8)  # first of 8 bf16 elements = 16 bytes
        banks.update(((start * 2) // 4 + w) % 32 for w in range(4))
    return banks


def test_swizzle_makes_ldmatrix_conflict_free():
    swizzled = Layout.row_major((64, 64), Swizzle(3, 3, 3))
    plain = Layout.row_major((64, 64))
    for chunk in range(8):
        assert len(_ldmatrix_banks(swizzled, chunk)) == 32  # 8 rows x 4 words, all distinct
    assert len(_ldmatrix_banks(plain, 0)) == 4  # every row in the same 4 banks: 8-way conflict


def test_layout_rejects_rank_mismatch():
    with pytest.raises(ValueError):
        Layout((4, 4), (1,))


from tilec.dialects.layout import WarpTiling  # noqa: E402


@pytest.mark.parametrize("bm,bn,warps", [(128, 128, 4), (128, 128, 8), (64, 128, 4), (256, 128, 8), (32, 32, 1)])
def test_accumulator_fragments_cover_the_tile_once(bm, bn, warps):
    t = WarpTiling(bm, bn, warps)
    owners = {}
    for w in range(warps):
        for lane in range(32):
            for mi in range(t.mi):
                for ni in range(t.ni):
                    for reg in range(4):
                        cell = t.accumulator(w % t.wm, w // t.wm, lane, mi, ni, reg)
                        assert cell not in owners, f"{cell} held twice"
                        owners[cell] = (w, lane, mi, ni, reg)
    assert set(owners) == {(r, c) for r in range(bm) for c in range(bn)}


@pytest.mark.parametrize("transposed", [False, True])
def test_ldmatrix_lanes_address_the_fragment_rows(transposed):
    """The 32 lanes of one x4 ldmatrix give 32 distinct 8-element rows of one 16x16 block."""
    t = WarpTiling(128, 128, 4)
    for load in (t.ldmatrix_a, t.ldmatrix_b):
        rows = {load(1, lane, 1, 1, transposed) for lane in range(32)}
        assert len(rows) == 32
        r0 = min(r for r, _ in rows)
        c0 = min(c for _, c in rows)
        # a 16x16 block read as 32 runs of 8: rows span 16 and columns two starts 8 apart, or the reverse
        spans = {(r - r0, c - c0) for r, c in rows}
        assert spans in ({(r, c) for r in range(16) for c in (0, 8)}, {(r, c) for r in range(16) for c in (0, 8)})


def _ldmatrix_phase_bank_groups(layout, row0: int, chunk: int) -> set[int]:
    """Bank groups (16-byte units mod 8) of the 8 rows one ldmatrix phase reads at one chunk."""
    return {(layout.offset(row0 + r, chunk * 8) * 2 // 16) % 8 for r in range(8)}


def _cp_async_phase_bank_groups(layout, phase: int) -> set[int]:
    """Bank groups of the 8 chunks one cp.async phase writes: chunks 8 phase.. in row-major order."""
    per_row = layout.shape[1] // 8
    return {(layout.offset(k // per_row, k % per_row * 8) * 2 // 16) % 8 for k in range(8 * phase, 8 * phase + 8)}


@pytest.mark.parametrize("cols", range(16, 257, 8))
def test_every_16bit_row_length_is_laid_out_free_of_bank_conflicts(cols):
    """Rows of any whole number of 16-byte chunks, a power of two or not (a head dim of 48, 96,
    160): a bijection onto the tile, the 8 rows of each ldmatrix phase and the 8 chunks of each
    cp.async phase in 8 bank groups, counted by brute force."""
    from tilec.dialects.layout import smem_tile_layout

    layout = smem_tile_layout(64, cols, 16)
    r, c = np.meshgrid(np.arange(64), np.arange(cols), indexing="ij")
    assert sorted(layout.offset(r, c).ravel().tolist()) == list(range(64 * cols))
    assert all(len(_ldmatrix_phase_bank_groups(layout, r0, q)) == 8 for r0 in range(0, 64, 8) for q in range(cols // 8))
    assert all(len(_cp_async_phase_bank_groups(layout, p)) == 8 for p in range(64 * cols // 64))


@pytest.mark.parametrize("cols", [48, 64, 96, 128, 160, 192])
def test_ldmatrix_bank_verdict_agrees_with_brute_force(cols):
    """The verifier proves what the count above shows, for the layout the kernels use; head dim 96
    XORs the low 2 bits of a chunk with its 128-byte line's (Swizzle(2, 3, 3))."""
    from tilec.dialects.layout import smem_tile_layout
    from tilec.verify import layouts

    layout = smem_tile_layout(64, cols, 16)
    if cols == 96:
        assert layout.swizzle == Swizzle(2, 3, 3)
    outcome = layouts.ldmatrix_conflict_free(layout, WarpTiling(64, cols, 4, rows_only=True), "a", False, cols, 2)
    assert outcome.verdict == "proved", outcome
    assert layouts.cp_async_conflict_free(layout, 128, 2).verdict == "proved"
    assert layouts.bijection(layout).verdict == "proved"


def test_rows_of_96_left_row_major_conflict_and_the_verifier_says_so():
    """Unswizzled, 12 chunks a row put the 8 rows of a phase in 2 bank groups (a 4-way conflict):
    the check that proves the swizzled layout refutes this one."""
    from tilec.verify import layouts

    layout = Layout.row_major((64, 96))
    assert min(len(_ldmatrix_phase_bank_groups(layout, r0, q)) for r0 in range(0, 64, 8) for q in range(12)) == 2
    outcome = layouts.ldmatrix_conflict_free(layout, WarpTiling(64, 96, 4, rows_only=True), "a", False, 96, 2)
    assert outcome.verdict == "counterexample", outcome


def test_the_odd_last_n_tile_of_b_is_checked_for_bank_conflicts():
    """P·V with a value head dim of 8: one n tile, loaded alone (ldmatrix.x2, lanes 0-15). Its rows
    are checked, not skipped: 16-byte rows are conflict-free, rows 32 bytes apart are not."""
    from tilec.verify import layouts

    tiling = WarpTiling(64, 8, 4, rows_only=True)
    dense, spread = Layout.row_major((64, 8)), Layout((64, 8), (16, 1))
    assert layouts.ldmatrix_conflict_free(dense, tiling, "b", False, 64, 2).verdict == "proved"
    assert layouts.ldmatrix_conflict_free(spread, tiling, "b", False, 64, 2).verdict == "counterexample"


from tilec.dialects.layout import smem_tile_layout, tma_mode_of, tma_swizzle  # noqa: E402


@pytest.mark.parametrize("element_bytes,cols,mode", [(2, 16, 32), (2, 32, 64), (2, 64, 128),
                                                     (4, 8, 32), (4, 16, 64), (4, 32, 128)])
def test_the_ldmatrix_layouts_are_the_copy_engines_swizzle_modes(element_bytes, cols, mode):
    """Shared tiles of rows up to 128 bytes are laid out as a tensor map's swizzle mode writes
    them, so the Hopper copy engine can fill the tiles the sm_80 path reads: byte a of a box
    lands at a ^ (((a >> 7) & (2^bits - 1)) << 4) (the mode's span rows into its 16-byte chunks)."""
    layout = smem_tile_layout(64, cols, 8 * element_bytes)
    assert tma_mode_of(layout, element_bytes) == mode and layout.swizzle == tma_swizzle(mode, element_bytes)
    bits = {32: 1, 64: 2, 128: 3}[mode]
    r, c = np.meshgrid(np.arange(64), np.arange(cols), indexing="ij")
    a = (r * cols + c) * element_bytes
    hardware = a ^ (((a >> 7) & ((1 << bits) - 1)) << 4)
    assert np.array_equal(layout.offset(r, c) * element_bytes, hardware)


def test_layouts_no_swizzle_mode_writes_have_none():
    assert tma_mode_of(smem_tile_layout(64, 128, 16), 2) is None          # 256-byte rows: two boxes a row
    assert tma_mode_of(Layout.row_major((64, 64), Swizzle(3, 3, 4)), 2) is None
    assert tma_mode_of(Layout.row_major((64, 64)), 2) == 0
    with pytest.raises(ValueError, match="no 16-byte swizzle mode"):
        tma_swizzle(16, 2)


def test_a_wgmma_descriptor_has_its_fields_where_the_ptx_isa_puts_them():
    from tilec.dialects.layout import wgmma_descriptor

    desc = wgmma_descriptor(128, 16, 1024)
    assert desc & 0x3FFF == 0                                   # the start address: the kernel's
    assert (desc >> 16) & 0x3FFF == 1 and (desc >> 32) & 0x3FFF == 64
    assert desc >> 62 == 1                                      # 1: 128-byte, 2: 64-byte, 3: 32-byte
    assert [wgmma_descriptor(m, 16, 256) >> 62 for m in (0, 32, 64)] == [0, 3, 2]
    with pytest.raises(ValueError, match="14-bit multiples of 16"):
        wgmma_descriptor(128, 8, 1024)


def test_split_strides_place_copy_boxes_side_by_side():
    from tilec.dialects.layout import tma_boxes, tma_layout

    layout = tma_layout(64, 256, 2)  # four 64-column boxes of 128-byte rows
    assert layout.stride == (64, (64, 1, 4096)) and layout.cosize == layout.size == 64 * 256
    assert tma_boxes(layout, 2) == (128, 64)
    assert layout.offset(0, 64) == 4096 and layout.offset(1, 65) == 4096 + layout.offset(1, 1)
    offsets = {layout.offset(r, c) for r in range(64) for c in range(256)}
    assert offsets == set(range(64 * 256))
    assert tma_boxes(tma_layout(128, 64, 2), 2) == (128, 64)
    with pytest.raises(ValueError, match="power-of-two block"):
        Layout((64, 256), (64, (48, 1, 4096)))


from tilec.dialects.layout import BlockedLayout, blocked_for  # noqa: E402


@pytest.mark.parametrize("rows,cols,layout", [(1, 4096, BlockedLayout(8, 8, 32, 8)), (2, 1024, BlockedLayout(8, 8, 32, 4)),
                                              (4, 256, BlockedLayout(8, 4, 32, 2)), (8, 256, BlockedLayout(4, 8)),
                                              (1, 3072, blocked_for(3072, 2, 4, 1))])
def test_a_blocked_tile_is_held_once_across_its_threads(rows, cols, layout):
    """Every element of a [rows, cols] blocked tile is one thread's (warps sharing a row
    included), and each warp's 32 lanes read 32 consecutive vectors of a row."""
    counts = layout.per_thread(rows, cols)
    owners = {}
    for warp in range(layout.warps):
        for lane in range(32):
            for i in range(counts[0]):
                for c in range(counts[1]):
                    for e in range(counts[2]):
                        cell = layout.position(warp, lane, i, c, e)
                        assert cell not in owners, f"{cell} held twice"
                        owners[cell] = (warp, lane, i, c, e)
            row, col = layout.position(warp, lane, 0, 0, 0)
            assert col == layout.position(warp, 0, 0, 0, 0)[1] + lane * layout.vec
    assert set(owners) == {(r, c) for r in range(rows) for c in range(cols)}


def test_a_row_shared_by_warps_that_do_not_divide_is_refused():
    with pytest.raises(ValueError, match="cannot share a row among 3"):
        BlockedLayout(4, 8, 32, 3)
    with pytest.raises(ValueError, match="32 lanes"):
        BlockedLayout(4, 8, 16, 2)
    assert blocked_for(3072, 2, 8, 1).vec == 4  # 3072 = 3 x 1024: 8-byte vectors tile the block


def test_the_split_travels_in_the_layout_attribute():
    """``#tile.blocked<warps, vec, lanes, split>`` and its row vectors read back as the layout
    they were written from; an encoding whose split cannot be is one Invalid error."""
    from torch_mlir import ir

    from tilec import dialects
    from tilec.dialects._verify import Invalid
    from tilec.dialects.layout import SliceLayout
    from tilec.dialects.tile import register_layout, register_layout_attr

    with dialects.context(), ir.Location.unknown():
        shared = BlockedLayout(8, 8, 32, 4)
        attr = register_layout_attr(shared)
        assert str(attr) == "#tile.blocked<8 : i64, 8 : i64, 32 : i64, 4 : i64>"
        assert register_layout(ir.RankedTensorType.get([2, 1024], ir.BF16Type.get(), attr)) == shared
        rows = register_layout_attr(SliceLayout(shared, 1))
        assert register_layout(ir.RankedTensorType.get([2], ir.F32Type.get(), rows)) == SliceLayout(shared, 1)
        bad = ir.Attribute.parse("#tile.blocked<8 : i64, 8 : i64, 32 : i64, 3 : i64>")
        with pytest.raises(Invalid, match="cannot share a row among 3"):
            register_layout(ir.RankedTensorType.get([2, 1024], ir.BF16Type.get(), bad))
        with pytest.raises(ir.MLIRError, match="expected 4"):  # the dialect's own check: four parameters
            ir.Attribute.parse("#tile.blocked<8 : i64, 8 : i64, 32 : i64>")
