"""``tilec layout``: where each element of a shared-memory tile lands, and in which bank.

Text: one line per tile row, one column per 16-byte chunk, each cell the bank of
the chunk's first 4-byte word (32 banks of 4 bytes). With the XOR swizzle the
8 rows an ldmatrix reads at one chunk show 8 different bank groups; without it,
one column of equal numbers is an 8-way bank conflict. --png draws every element
coloured by its bank.
"""

from __future__ import annotations

import struct
import zlib

from tilec.dialects.layout import Layout

BANKS = 32


def bank(layout: Layout, row: int, col: int, element_bytes: int) -> int:
    return (layout.offset(row, col) * element_bytes // 4) % BANKS


def text(layout: Layout, element_bytes: int, rows: int = 16) -> str:
    per_chunk = 16 // element_bytes
    n_rows, n_cols = layout.shape
    chunks = n_cols // per_chunk
    lines = [f"{n_rows}x{n_cols} tile, {element_bytes}-byte elements, swizzle {layout.swizzle}: "
             f"bank of each 16-byte chunk (rows 0..{min(rows, n_rows) - 1})",
             "row  " + " ".join(f"c{c:<2}" for c in range(chunks))]
    for r in range(min(rows, n_rows)):
        lines.append(f"{r:3}  " + " ".join(f"{bank(layout, r, c * per_chunk, element_bytes):3}" for c in range(chunks)))
    conflicts = max(_ldmatrix_ways(layout, c * per_chunk, element_bytes) for c in range(chunks))
    lines.append(f"ldmatrix (8 rows x 16 bytes at one chunk): worst case {conflicts}-way bank conflict")
    return "\n".join(lines)


def _ldmatrix_ways(layout: Layout, col: int, element_bytes: int) -> int:
    worst = 1
    for r0 in range(0, layout.shape[0] - 7, 8):
        groups = {bank(layout, r0 + r, col, element_bytes) // 4 for r in range(8)}
        worst = max(worst, 8 // len(groups))
    return worst


def png(layout: Layout, element_bytes: int, path: str, scale: int = 6) -> None:
    """Every element as a scale x scale square, its hue the bank it lives in."""
    rows, cols = layout.shape
    palette = [_hsv(b / BANKS) for b in range(BANKS)]
    raw = bytearray()
    for r in range(rows * scale):
        raw.append(0)
        for c in range(cols * scale):
            raw.extend(palette[bank(layout, r // scale, c // scale, element_bytes)])
    header = struct.pack(">IIBBBBB", cols * scale, rows * scale, 8, 2, 0, 0, 0)
    chunk = lambda kind, data: (struct.pack(">I", len(data)) + kind + data +
                                struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))
    with open(path, "wb") as handle:
        handle.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(bytes(raw)))
                     + chunk(b"IEND", b""))


def _hsv(h: float) -> tuple[int, int, int]:
    i, f = int(h * 6) % 6, h * 6 - int(h * 6)
    q, t = int(255 * (1 - f)), int(255 * f)
    return [(255, t, 0), (q, 255, 0), (0, 255, t), (0, q, 255), (t, 0, 255), (255, 0, q)][i]
