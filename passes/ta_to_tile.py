"""ta-to-tile: lower a contraction and its pointwise epilogue to one CTA's tile program.

    ta-to-tile{bm=128 bn=128 bk=32 warps=4 stages=3 swizzle=true group-m=8}

The options are the schedule (a frozen, hashable dataclass). The GEMM family is
lowered: one ta.contract over one reduced index — plain (C[i,j]), batched
(C[b,i,j]), either operand stored transposed — followed by ta.map epilogues
(bias, GELU, scaling, dtype cast). Each CTA owns a bm x bn output tile:

    pid -> (pid_m, pid_n) in groups of group-m rows of tiles (L2 reuse)
    prologue: cp.async the first stages-1 K tiles into swizzled shared memory
    for kt:  wait until tile kt has landed; barrier;
             read tile kt (ldmatrix); start the copy of tile kt + stages - 1; mma
    epilogue: the maps, on the accumulator; masked store

Tiles that run past M, N or K are masked (zero-filled when read, skipped when
written), so no extent has to divide the tile sizes. The tile IR is built from
the ta level, where the contraction and its epilogue are explicit; the loop IR
(ta-to-loops) is the CPU execution path of the same ta.
"""

from dataclasses import dataclass
from typing import ClassVar

from torch_mlir import ir

from . import PassInfo
from ._attention_tile import lower_attention
from ._gemm_tile import lower_gemm


@dataclass(frozen=True)
class Options:
    bm: int = 128
    bn: int = 128
    bk: int = 32
    warps: int = 4
    stages: int = 3
    swizzle: bool = True
    group_m: int = 8

    # the targets' limits (sm_80, sm_90a), checked before anything is built
    MAX_TILE: ClassVar[int] = 256          # bm, bn, bk
    MAX_STAGES: ClassVar[int] = 8
    WARPS: ClassVar[tuple] = (1, 2, 4, 8, 16)
    MAX_GROUP_M: ClassVar[int] = 64
    MAX_SMEM: ClassVar[int] = 227 * 1024   # shared memory per CTA on sm_90a, the most of any target

    def __post_init__(self):
        for name in ("bm", "bn", "bk", "warps", "stages", "group_m"):
            if getattr(self, name) < 1:
                raise ValueError(f"schedule option {name} must be at least 1")
        for name in ("bm", "bn", "bk"):
            if getattr(self, name) > self.MAX_TILE:
                raise ValueError(f"schedule option {name}={getattr(self, name)} is larger than {self.MAX_TILE}")
        if self.bm % 16 or self.bn % 16 or self.bk % 16:
            raise ValueError("bm, bn and bk must be multiples of 16 (the mma.sync m16n8k16 shape)")
        if self.stages < 2:
            raise ValueError("stages must be at least 2 (one tile in flight while one is used)")
        if self.stages > self.MAX_STAGES:
            raise ValueError(f"stages={self.stages} is more than {self.MAX_STAGES} (the pipeline depth a CTA can hold)")
        if self.warps not in self.WARPS:
            raise ValueError(f"warps={self.warps} is not one of {', '.join(map(str, self.WARPS))}")
        if self.group_m > self.MAX_GROUP_M:
            raise ValueError(f"group-m={self.group_m} is larger than {self.MAX_GROUP_M}")
        if self.smem_bytes(2) > self.MAX_SMEM:
            raise ValueError(f"the A and B tiles need {self.smem_bytes(2)} bytes of shared memory with 16-bit "
                             f"elements ((bm*bk + bk*bn) * 2 bytes * {self.stages} stages); a CTA has at most "
                             f"{self.MAX_SMEM} (227 KiB): lower stages, bk, bm or bn")

    def smem_bytes(self, element_bytes: int) -> int:
        """Shared memory of the staged A and B tiles: (bm*bk + bk*bn) * element_bytes * stages."""
        return (self.bm * self.bk + self.bk * self.bn) * element_bytes * self.stages

    def as_text(self) -> str:
        return ",".join(f"{k.replace('_', '-')}={str(v).lower()}" for k, v in self.__dict__.items())


def run(module: ir.Operation, options: Options) -> None:
    for op in list(module.regions[0].blocks[0].operations):
        if op.operation.name != "func.func":
            continue
        has_online = any(inner.operation.name == "ta.online" for inner in op.entry_block.operations)
        (lower_attention if has_online else lower_gemm)(op, options)


PASS = PassInfo("ta-to-tile", "lower a contraction with its epilogue to a pipelined, swizzled tile program",
                Options, run, __doc__)
