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
