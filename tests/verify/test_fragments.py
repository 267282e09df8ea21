"""Register fragments against the PTX ISA's tables: tilec's warp tilings are proved, and
tilings with a wrong lane order come back with a counterexample (a checker that cannot fail
proves nothing)."""

from dataclasses import dataclass

import pytest

from tilec.dialects import ptx_fragments as ptx
from tilec.dialects.layout import WarpTiling, smem_tile_layout
from tilec.verify import fragments, layouts

GEMM = [WarpTiling(bm, bn, warps) for bm, bn, warps in
        [(32, 32, 1), (64, 32, 1), (64, 64, 2), (128, 64, 2), (64, 64, 4), (128, 128, 4), (64, 128, 4),
         (128, 128, 8), (256, 128, 8)]]
ATTENTION = [WarpTiling(bm, n, warps, rows_only=True) for bm, n, warps in
             [(64, 64, 4), (64, 128, 4), (128, 64, 8), (128, 128, 8)]]


# -- the ISA's tables, as transcribed: each spreads its matrix over the warp exactly once ------

@pytest.mark.parametrize("table,elements,shape", [(ptx.mma_a, ptx.A_ELEMENTS, (16, 16)),
                                                  (ptx.mma_b, ptx.B_ELEMENTS, (16, 8)),
                                                  (ptx.mma_c, ptx.C_ELEMENTS, (16, 8))])
def test_each_mma_table_holds_every_element_once(table, elements, shape):
    held = [table(lane, i) for lane in range(32) for i in range(elements)]
    assert sorted(held) == [(r, c) for r in range(shape[0]) for c in range(shape[1])]


@pytest.mark.parametrize("trans", [False, True])
def test_ldmatrix_deals_each_8x8_matrix_once(trans):
    held = [ptx.ldmatrix_element(lane, half, trans) for lane in range(32) for half in range(2)]
    assert sorted(held) == [(r, c) for r in range(8) for c in range(8)]
    assert ptx.ldmatrix_element(0, 0, trans) == (0, 0)  # "thread 0 receiving the first fragment"


def test_a_table_quotes_the_isa_examples():
    # lane 0: a0, a1 at row 0, cols 0-1; a2, a3 at row 8; a4..a7 eight columns on
    assert [ptx.mma_a(0, i) for i in range(8)] == [(0, 0), (0, 1), (8, 0), (8, 1), (0, 8), (0, 9), (8, 8), (8, 9)]
    assert ptx.mma_b(31, 3) == (15, 7) and ptx.mma_c(31, 3) == (15, 7)
    with pytest.raises(ValueError):
        ptx.mma_c(0, 4)


# -- tilec's tilings: proved ----------------------------------------------------------------

@pytest.mark.parametrize("tiling", GEMM + ATTENTION, ids=str)
@pytest.mark.parametrize("a_t,b_t", [(False, False), (False, True), (True, False), (True, True)])
def test_warp_tilings_match_the_isa(tiling, a_t, b_t):
    rows = fragments.check_fragments(tiling, 64, a_t, b_t)
    assert len(rows) == 3
    assert [(check, o.verdict, o.detail) for check, o, _ in rows if o.verdict != "proved"] == []


@pytest.mark.parametrize("bm,keys,d,warps", [(64, 64, 64, 4), (64, 128, 128, 4), (128, 64, 128, 8)])
def test_attention_p_from_registers_matches_the_isa(bm, keys, d, warps):
    p = WarpTiling(bm, keys, warps, rows_only=True)     # S = Q K^T, its accumulator is P
    pv = WarpTiling(bm, d, warps, rows_only=True)       # O = P V, A packed from P's registers
    rows = fragments.check_fragments(pv, keys, b_transposed=False, a_registers=p)
    assert [o.verdict for _, o, _ in rows] == ["proved"] * 3


def test_an_empty_domain_is_an_error_not_a_proof():
    assert fragments.ldmatrix_a_matches_ptx(WarpTiling(64, 64, 4), False, bk=8).verdict == "error"
    assert fragments.ldmatrix_b_matches_ptx(WarpTiling(64, 16, 4), False, bk=8).verdict == "error"


@pytest.mark.parametrize("n", [8, 24, 40])
@pytest.mark.parametrize("b_t", [False, True])
def test_an_odd_last_n_tile_matches_the_isa(n, b_t):
    """P·V of a value head dim of 8, 24, 40: an odd number of n tiles, the last loaded alone by
    ldmatrix.x2 at its pair's addresses (lanes 0-15); checked for that tile, not skipped."""
    rows = fragments.check_fragments(WarpTiling(64, n, 4, rows_only=True), 64, b_transposed=b_t,
                                     a_registers=WarpTiling(64, 64, 4, rows_only=True))
    assert [(check, o.verdict, o.detail) for check, o, _ in rows if o.verdict != "proved"] == []


# -- mutants: each a plausible slip in dialects/layout.py, each refuted ------------------------

@dataclass(frozen=True)
class LaneOrderSwapped(WarpTiling):
    def accumulator(self, warp_m, warp_n, lane, mi, ni, reg):
        row = warp_m * self.tm + mi * 16 + lane % 4 + (reg // 2) * 8
        return row, warp_n * self.tn + ni * 8 + (lane // 4) * 2 + reg % 2


@dataclass(frozen=True)
class HalvesByLowBit(WarpTiling):
    def accumulator(self, warp_m, warp_n, lane, mi, ni, reg):
        row = warp_m * self.tm + mi * 16 + lane // 4 + (reg % 2) * 8
        return row, warp_n * self.tn + ni * 8 + (lane % 4) * 2 + reg // 2


@dataclass(frozen=True)
class PairReversed(WarpTiling):
    """Still a bijection onto the tile: only the ISA table can tell."""

    def accumulator(self, warp_m, warp_n, lane, mi, ni, reg):
        row = warp_m * self.tm + mi * 16 + lane // 4 + (reg // 2) * 8
        return row, warp_n * self.tn + ni * 8 + (lane % 4) * 2 + 1 - reg % 2


@dataclass(frozen=True)
class ALaneMod8(WarpTiling):
    def ldmatrix_a(self, warp_m, lane, mi, kk, transposed):
        if transposed:
            return super().ldmatrix_a(warp_m, lane, mi, kk, transposed)
        return warp_m * self.tm + mi * 16 + lane % 8, kk * 16 + (lane // 16) * 8


@dataclass(frozen=True)
class ATransMatricesSwapped(WarpTiling):
    """Matrices 1 and 2 of the .trans load exchanged: the same rows, so the same banks."""

    def ldmatrix_a(self, warp_m, lane, mi, kk, transposed):
        m = warp_m * self.tm + mi * 16
        return kk * 16 + lane % 8 + ((lane // 8) % 2) * 8, m + (lane // 16) * 8


@dataclass(frozen=True)
class BHalvesSwapped(WarpTiling):
    def ldmatrix_b(self, warp_n, lane, p, kk, transposed):
        n = warp_n * self.tn + p * 16
        if transposed:
            return n + lane % 8 + ((lane // 8) % 2) * 8, kk * 16 + (lane // 16) * 8
        return kk * 16 + lane % 16, n + (lane // 16) * 8


@dataclass(frozen=True)
class BPairHalvesExchanged(WarpTiling):
    """Lanes 0-15 name the rows of a pair's second n tile: an x4 load swaps the pair's tiles, an x2
    load (the odd last tile) reads the 8 columns past it."""

    def ldmatrix_b(self, warp_n, lane, p, kk, transposed):
        n = warp_n * self.tn + p * 16
        if transposed:
            return n + lane % 8 + ((lane // 16 + 1) % 2) * 8, kk * 16 + ((lane // 8) % 2) * 8
        return kk * 16 + lane % 16, n + ((lane // 16 + 1) % 2) * 8


@pytest.mark.parametrize("n", [8, 24])
@pytest.mark.parametrize("b_t", [False, True])
def test_an_odd_last_n_tile_read_from_the_wrong_columns_is_refuted(n, b_t):
    outcome = fragments.ldmatrix_b_matches_ptx(BPairHalvesExchanged(64, n, 4, rows_only=True), b_t, 64)
    assert outcome.verdict == "counterexample", outcome
    assert "n tile 2p+0" in outcome.model["register"]


@pytest.mark.parametrize("mutant", [LaneOrderSwapped, HalvesByLowBit, PairReversed])
def test_accumulator_mutants_are_refuted_with_a_replayable_counterexample(mutant):
    tiling = mutant(128, 128, 4)
    outcome = fragments.accumulator_matches_ptx(tiling)
    assert outcome.verdict == "counterexample"
    m = outcome.model
    reg = int(m["register"][1:])
    expected = (m["expected row"], m["expected col"])
    # the model replays on plain ints: the mutant's cell, and the ISA's cell, differ
    assert tiling.accumulator(m["warp_m"], m["warp_n"], m["lane"], m["mi"], m["ni"], reg) == (m["row"], m["col"])
    lane_row, lane_col = ptx.mma_c(m["lane"], reg)
    origin = (m["warp_m"] * tiling.tm + 16 * m["mi"], m["warp_n"] * tiling.tn + 8 * m["ni"])
    assert expected == (origin[0] + lane_row, origin[1] + lane_col) != (m["row"], m["col"])
    assert f"lane {m['lane']}, register c{reg}" in outcome.detail


def test_a_reversed_pair_passes_coverage_but_not_the_isa():
    tiling = PairReversed(128, 128, 4)
    assert layouts.fragments_cover_tile(tiling).verdict == "proved"
    assert fragments.accumulator_matches_ptx(tiling).verdict == "counterexample"


@pytest.mark.parametrize("mutant,operand,transposed", [(ALaneMod8, "a", False), (ATransMatricesSwapped, "a", True),
                                                       (BHalvesSwapped, "b", True)])
def test_ldmatrix_mutants_are_refuted(mutant, operand, transposed):
    tiling = mutant(128, 128, 4)
    check = fragments.ldmatrix_a_matches_ptx if operand == "a" else fragments.ldmatrix_b_matches_ptx
    outcome = check(tiling, transposed, 64)
    assert outcome.verdict == "counterexample", outcome
    m = outcome.model
    assert {"lane", "register", "expected row", "expected col", "row", "col"} <= set(m)
    assert (m["expected row"], m["expected col"]) != (m["row"], m["col"])
    # the other operand, and the other storage order, are untouched by the slip
    other = fragments.ldmatrix_b_matches_ptx if operand == "a" else fragments.ldmatrix_a_matches_ptx
    assert other(tiling, transposed, 64).verdict == "proved"


def test_swapped_trans_matrices_are_conflict_free_yet_wrong():
    tiling = ATransMatricesSwapped(128, 128, 4)
    layout = smem_tile_layout(64, 128, 16)  # A stored [k, m]: bk x bm
    assert layouts.ldmatrix_conflict_free(layout, tiling, "a", True, 64, 2).verdict == "proved"
    assert fragments.ldmatrix_a_matches_ptx(tiling, True, 64).verdict == "counterexample"


def test_p_from_a_wrong_accumulator_or_split_columns_is_refuted():
    pv = WarpTiling(64, 64, 4, rows_only=True)
    wrong = fragments.accumulator_as_a_matches_ptx(pv, PairReversed(64, 64, 4, rows_only=True), 64)
    assert wrong.verdict == "counterexample" and "a" == wrong.model["register"][0]
    # P spread over two warp columns: a warp does not hold the key columns its A needs
    split = fragments.accumulator_as_a_matches_ptx(pv, WarpTiling(64, 64, 4), 64)
    assert split.verdict == "counterexample"
