"""The PTX ISA's register fragment layouts, written down as the ISA states them.

Which element of a matrix each lane of a warp holds, for

- ``mma.sync.aligned.m16n8k16.row.col.f32.{bf16,f16}.{bf16,f16}.f32``: PTX ISA 9.x, section
  "Warp Level Matrix Multiply-Accumulate Instructions" > "Matrix Fragments for mma.m16n8k16 with
  floating point type" (anchor ``#warp-level-matrix-fragment-mma-16816-float``);
- ``ldmatrix.sync.aligned.m8n8.x4{.trans}.shared.b16``: section "Warp-level matrix load
  instruction: ldmatrix" (anchor ``#warp-level-matrix-instructions-ldmatrix``).

These are the reference the warp tiling of dialects/layout.py is checked against
(tilec/verify/fragments.py), so they are transcribed from the ISA text on purpose and
derived from nothing in tilec. Register indices (``i``) are Python ints; lanes may be ints,
numpy arrays or Z3 bit-vector terms (only ``>> % * +`` touch them).

    >>> mma_a(5, 3)          # lane 5 = group 1, thread 1 in group; a3 is row group+8
    (9, 3)
    >>> ldmatrix_element(5, 1, trans=False), ldmatrix_element(5, 1, trans=True)
    ((1, 3), (3, 1))
"""

from __future__ import annotations

# -- mma.m16n8k16, .f16/.bf16 multiplicands, .f32 accumulators -------------------------------
# Every table of that section starts from the same two names:
#     groupID           = %laneid >> 2
#     threadID_in_group = %laneid % 4


def group_id(lane):
    """``groupID = %laneid >> 2``: the four lanes 4g..4g+3 form group g."""
    return lane >> 2


def thread_id_in_group(lane):
    """``threadID_in_group = %laneid % 4``."""
    return lane % 4


A_ELEMENTS = 8  # a0..a7: "four .f16x2 registers, with each register containing two elements"
B_ELEMENTS = 4  # b0..b3: "two .f16x2 registers"
C_ELEMENTS = 4  # c0..c3: "four .f32 registers"


def mma_a(lane, i: int):
    """(row, col) of element a_i (0..7) of the 16x16 A (m x k) fragment held by ``lane``.

    ISA text:  row = groupID      for ai where 0 <= i < 2 || 4 <= i < 6
                     groupID + 8  otherwise
               col = (threadID_in_group * 2) + (i & 0x1)      for ai where i <  4
                     (threadID_in_group * 2) + (i & 0x1) + 8  for ai where i >= 4
    """
    _check(i, A_ELEMENTS, "a")
    row = group_id(lane) + (0 if (0 <= i < 2 or 4 <= i < 6) else 8)
    col = thread_id_in_group(lane) * 2 + (i & 0x1) + (0 if i < 4 else 8)
    return row, col


def mma_b(lane, i: int):
    """(row, col) of element b_i (0..3) of the 16x8 B (k x n) fragment held by ``lane``.

    ISA text:  row = (threadID_in_group * 2) + (i & 0x1)      for bi where i <  2
                     (threadID_in_group * 2) + (i & 0x1) + 8  for bi where i >= 2
               col = groupID
    """
    _check(i, B_ELEMENTS, "b")
    row = thread_id_in_group(lane) * 2 + (i & 0x1) + (0 if i < 2 else 8)
    return row, group_id(lane)


def mma_c(lane, i: int):
    """(row, col) of element c_i (0..3) of the 16x8 C/D (m x n) accumulator held by ``lane``.

    ISA text:  row = groupID      for ci where i <  2
                     groupID + 8  for ci where i >= 2
               col = (threadID_in_group * 2) + (i & 0x1)  for ci where i = {0,..,3}
    """
    _check(i, C_ELEMENTS, "c")
    row = group_id(lane) + (0 if i < 2 else 8)
    return row, thread_id_in_group(lane) * 2 + (i & 0x1)


def a_register(reg: int) -> tuple[int, int]:
    """The A elements (low half, high half) of 32-bit register ``reg`` (0..3): the table lists
    a0..a7 "low to high" over four .f16x2 registers, two elements each."""
    _check(reg, A_ELEMENTS // 2, "A register ")
    return 2 * reg, 2 * reg + 1


def b_register(reg: int) -> tuple[int, int]:
    """The B elements (low, high) of 32-bit register ``reg`` (0..1): b0..b3 low to high."""
    _check(reg, B_ELEMENTS // 2, "B register ")
    return 2 * reg, 2 * reg + 1


# -- ldmatrix.m8n8.x4{.trans}.b16 ------------------------------------------------------------
# "The eight addresses required for each matrix are provided by eight threads ... Addresses
# addr0-addr7 correspond to the rows of the first matrix, addresses addr8-addr15 correspond to
# the rows of the second matrix, and so on"; for .x4, threads 0-7 give addr0-addr7, threads
# 8-15 addr8-addr15, 16-23 addr16-addr23, 24-31 addr24-addr31.
LDMATRIX_X4_MATRICES = 4
LDMATRIX_ROWS = 8  # an 8x8 matrix of 16-bit elements: each row is 16 bytes


def ldmatrix_row_lane(matrix, row):
    """The lane whose address is the start of row ``row`` (0..7) of matrix ``matrix`` (0..3)."""
    return LDMATRIX_ROWS * matrix + row


def ldmatrix_element(lane, half: int, trans: bool):
    """(row, col) in the 8x8 matrix, rows as addressed, of the 16-bit element that ``lane``
    receives in the ``half`` (0 low, 1 high) of its destination register for that matrix.

    Without .trans: "Each thread in a warp loads fragments of a row, with thread 0 receiving
    the first fragment in its register r, and so on. A group of four threads loads an entire
    row of the matrix" (figure "ldmatrix fragment layout for one 8x8 Matrix with 16-bit
    elements"): thread t gets row t / 4, columns 2 * (t % 4) and 2 * (t % 4) + 1.
    With .trans "the matrix is loaded in column-major format": the same fragment layout over
    the transpose, i.e. thread t gets column t / 4, rows 2 * (t % 4) and 2 * (t % 4) + 1.
    Register i of an .x4 load holds matrix i's fragment ("Each component of the vector
    expression holds a fragment from the corresponding matrix").
    """
    _check(half, 2, "register half ")
    along, across = lane >> 2, (lane % 4) * 2 + half
    return (across, along) if trans else (along, across)


def _check(i: int, n: int, what: str) -> None:
    if not isinstance(i, int) or not 0 <= i < n:
        raise ValueError(f"{what}{i}: expected an int in 0..{n - 1}")
