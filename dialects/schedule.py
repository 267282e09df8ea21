"""Schedules as data: one typed ``Schedule``, and ``legal()`` per kernel form and target.

A schedule is the frozen dataclass the ``ta-to-tile`` pass takes as its options
(``ta-to-tile{bm=128 bn=64 warps=8}``); the tile function carries it as the
``#tile.schedule<{bm = 128 : i64, ...}>`` attribute (dialects/tile.py), which the
emitter, the interpreter and the verifier read back with ``Schedule.of``. Nothing
parses a schedule string after the pass.

``legal(form, sizes, target)`` lists why a point is illegal for a kernel form on a
target (empty when legal), so ``ta-to-tile`` refuses a bad schedule before it builds
anything and a schedule search prunes its space with the reasons kept.

    >>> Schedule(bm=64, bn=64, warps=8).legal("online", {"head_dim": 128})
    ['bm=64 gives each of the 8 warps 8 query rows; the mma needs whole 16-row slices (bm % (16 * warps) == 0)']
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
import importlib
from typing import ClassVar

from .target import DEFAULT, get as get_target, names as target_names

# the kernel forms ta-to-tile builds (one matcher each): a contraction with its maps, an
# online group feeding a contraction (attention), a row program (softmax, norms), a pointwise
# program (maps read at any index; laid out as a row program)
FORMS = ("contraction", "online", "recompute", "rows", "pointwise")


# the grids each form's schedules are drawn from, for every target: "check" (tilec verify
# --schedules all proves each point) and "search" (tilec tune ranks each point; wider: its
# points are only modelled, the best few compiled). A target adds its own points (the
# registry's ``space``: sm_90a's warp-specialised ones, tilec/targets/sm_90a/space.py); the
# other options keep their defaults
GRIDS = {
    "check": {
        "contraction": {"bm": (64, 128), "bn": (64, 128), "bk": (32, 64), "warps": (4, 8), "stages": (2, 3, 4)},
        "online": {"bm": (64, 128), "bn": (32, 64, 128), "warps": (4, 8), "stages": (2, 3)},
        "recompute": {"bm": (64, 128), "bn": (32, 64, 128), "warps": (4, 8), "stages": (2, 3)},
        "rows": {"bm": (4, 8, 16), "bn": (64, 128, 256, 512, 1024, 2048), "warps": (4, 8)},
        "pointwise": {"bm": (4, 8, 16), "bn": (64, 128, 256), "warps": (4, 8)},
    },
    "search": {
        "contraction": {"bm": (64, 128, 256), "bn": (64, 128, 256), "bk": (32, 64), "warps": (4, 8),
                        "stages": (2, 3, 4), "split_k": (1, 2, 4)},
        "online": {"bm": (64, 128), "bn": (32, 64, 128), "warps": (4, 8), "stages": (2, 3)},
        # a row program: rows per CTA, the column block, warps
        "rows": {"bm": (2, 4, 8, 16, 32), "bn": (32, 64, 128, 256), "warps": (2, 4, 8)},
    },
}


@dataclass(frozen=True)
class Schedule:
    """Tile sizes, warps, pipeline depth, swizzle and raster of one kernel.

    bm, bn, bk: the CTA tile (rows, columns, reduction step; for attention bn is the key
    block, for a row program bn is the column block); warps per CTA; stages of the async
    copy pipeline; swizzle of shared memory; group-m rows of tiles per raster group;
    consumers: 0 for the cp.async + mma.sync pipeline (sm_80 and later), else the consumer
    warpgroups of a warp-specialised kernel (sm_90a: a producer warpgroup issues copy-engine
    copies onto mbarriers, ``warps`` = 4 x consumers warps run wgmma, each on 64 rows);
    pingpong: the consumer warpgroups take turns: in attention at the tensor cores (one's
    softmax while another multiplies; FlashAttention-3's ping-pong), consumers >= 2; in a
    persistent contraction each warpgroup owns a whole bm x bn tile (bm = 64, or 128: two wgmma
    slabs of 64 rows, twice the accumulators) and the CTA's
    tiles go to the warpgroups in turn, so one stores its tile while another multiplies
    (CUTLASS's ping-pong);
    persistent: a warp-specialised contraction launches at most one CTA per SM, each looping
    over output tiles (program id, + CTAs, ...): its producer fills the next tile's stages
    while the consumers store the last one, and the mbarrier ring runs on across tiles;
    tma_store: a warp-specialised contraction or attention stores its tile through shared memory: the
    consumers write 128-byte-wide column chunks into two staging buffers (two per warpgroup in
    ping-pong) and the copy engine writes each out while they go on; the output's rows must
    then be whole 16-byte chunks, as the operands' are;
    softmax_overlap: warp-specialised attention with its key loop rotated (FlashAttention-3's
    intra-warpgroup overlap): iteration t issues block t's Q·Kᵀ and block t - 1's P·V together,
    and runs block t's softmax while that P·V is in flight; P is carried to the next iteration
    and a stage is released one iteration later, so it wants stages >= 3;
    occupancy: CTAs of the kernel resident on one SM (1 or 2); two take a warp-specialised kernel
    with one consumer warpgroup (256 threads, half the registers and shared memory each), so one
    CTA's prologue, epilogue and waits overlap the other's multiplies;
    heavy_first: a causal attention is launched through the heavy-first raster (dialects/raster.py):
    the last, longest query blocks of a group of batch elements start first;
    split_k: a contraction's K tiles are shared among this many CTAs per output tile (split-K,
    for a GEMM of too few output tiles to fill the GPU): each adds its part of the sum into a
    float workspace tile of the launch, and the CTA that adds last finishes the tile (epilogue
    and store) and leaves the workspace at zero (``tile.split_sum``).
    """

    bm: int = 128
    bn: int = 128
    bk: int = 32
    warps: int = 4
    stages: int = 3
    swizzle: bool = True
    group_m: int = 8
    consumers: int = 0
    pingpong: bool = False
    persistent: bool = False
    tma_store: bool = False
    softmax_overlap: bool = False
    occupancy: int = 1
    heavy_first: bool = False
    split_k: int = 1

    STORE_BUFFERS: ClassVar[int] = 2    # staging buffers of a tma_store: one filled while one is written out
    STORE_CHUNK_BYTES: ClassVar[int] = 128  # a staging buffer's row: one 128-byte swizzle row of the tile

    # bounds on any option, whatever the form or target: they keep bad input cheap
    MAX_TILE: ClassVar[int] = 256
    # a row program's column block: a whole row of up to 8192 columns stays in the registers of
    # the warps sharing it (at most 64 elements a lane), so its reductions and element maps read
    # the row once
    MAX_ROW_BLOCK: ClassVar[int] = 8192
    MAX_STAGES: ClassVar[int] = 8
    WARPS: ClassVar[tuple] = (1, 2, 4, 8, 12, 16)  # 12: three consumer warpgroups
    MAX_GROUP_M: ClassVar[int] = 64
    MAX_SPLIT_K: ClassVar[int] = 16

    def __post_init__(self):
        for name in ("bm", "bn", "bk", "warps", "stages", "group_m"):
            if getattr(self, name) < 1:
                raise ValueError(f"schedule option {name} must be at least 1")
        if self.occupancy not in (1, 2):
            raise ValueError(f"occupancy={self.occupancy}: one or two CTAs per SM")
        if not 0 <= self.consumers <= 3:
            raise ValueError(f"consumers={self.consumers}: a CTA has 0 to 3 consumer warpgroups")
        for name in ("bm", "bk"):
            if getattr(self, name) > self.MAX_TILE:
                raise ValueError(f"schedule option {name}={getattr(self, name)} is larger than {self.MAX_TILE}")
        if self.bn > self.MAX_ROW_BLOCK:
            raise ValueError(f"schedule option bn={self.bn} is larger than {self.MAX_ROW_BLOCK}")
        if self.stages > self.MAX_STAGES:
            raise ValueError(f"stages={self.stages} is more than {self.MAX_STAGES} (the pipeline depth a CTA can hold)")
        if self.warps not in self.WARPS:
            raise ValueError(f"warps={self.warps} is not one of {', '.join(map(str, self.WARPS))}")
        if not 1 <= self.split_k <= self.MAX_SPLIT_K:
            raise ValueError(f"split-k={self.split_k}: a contraction's K is split 1 to {self.MAX_SPLIT_K} ways")
        if self.group_m > self.MAX_GROUP_M:
            raise ValueError(f"group-m={self.group_m} is larger than {self.MAX_GROUP_M}")

    # -- text and IR -------------------------------------------------------------------------
    def as_text(self) -> str:
        """``bm=128,bn=128,...`` (the form --schedule and the pass options take)."""
        return ",".join(f"{f.name.replace('_', '-')}={str(getattr(self, f.name)).lower()}" for f in fields(self))

    def items(self) -> dict:
        return {f.name: getattr(self, f.name) for f in fields(self)}

    @property
    def launch_registers(self) -> int:
        """Registers a thread of a warp-specialised CTA is launched with: the register file over
        the threads of the CTAs an SM holds (the launch bound), in 8s. setmaxnreg moves registers
        between the roles within that many times the threads."""
        return min(255, 65536 // (self.threads * self.occupancy) // 8 * 8)

    @property
    def threads(self) -> int:
        """Threads per CTA: the warps, and the producer warpgroup of a warp-specialised kernel."""
        return 32 * self.warps + (128 if self.consumers else 0)

    # -- legality ----------------------------------------------------------------------------
    def smem_bytes(self, form: str, element_bytes: int = 2, head_dim: int = 0, b_operands: int = 1,
                   qk_dim: int = 0, resident: int = 0, streamed: int = 0) -> int:
        """Shared memory the form's staged tiles take (a contraction: one A tile and a B tile per
        contraction sharing it; recomputed sums: ``resident`` and ``streamed`` columns a row)."""
        if form == "contraction":
            return (self.bm * self.bk + b_operands * self.bk * self.bn) * element_bytes * self.stages + \
                self.staging_bytes(form)
        if form == "online":  # one Q tile, `stages` K and V blocks (Q, K qk_dim wide; V head_dim)
            qk_dim = qk_dim or head_dim
            return (self.bm * qk_dim + self.stages * self.bn * (qk_dim + head_dim)) * element_bytes + \
                self.staging_bytes(form)
        if form == "recompute":  # the operands read at r once, `stages` blocks of those read at t
            return (self.bm * resident + self.stages * self.bn * streamed) * element_bytes
        return 0  # a row program keeps its tiles in registers

    def fitted(self, form: str, sizes: dict, target: str) -> "Schedule":
        """This schedule with its pipeline as deep as ``target``'s shared memory holds (stages
        lowered one at a time, to 2 at least): the form default on a target with less of it."""
        limit, s = get_target(target).smem, self
        while s.stages > 2 and s.smem_bytes(form, sizes.get("element_bytes", 2), sizes.get("head_dim", 0),
                                            sizes.get("b_operands", 1), sizes.get("qk_dim", 0),
                                            sizes.get("resident", 0), sizes.get("streamed", 0)) > limit:
            s = replace(s, stages=s.stages - 1)
        return s

    def features(self) -> tuple:
        """The target features (dialects/target.py) this schedule's kernels use beyond the ones every
        target has (cp.async, ldmatrix, mma.sync): a warp-specialised kernel's copy engine, wgmma and
        register split."""
        return ("tma", "wgmma", "setmaxnreg") if self.consumers else ()

    def targets(self) -> list[str]:
        """The registered targets that can run this schedule's kernels."""
        return self.runs_on(target_names())

    def runs_on(self, targets) -> list[str]:
        """Those of ``targets`` (names) that have the features this schedule's kernels use."""
        return [name for name in targets if get_target(name).has(*self.features())]

    def staging_bytes(self, form: str = "contraction") -> int:
        """Shared memory of a tma_store's staging buffers: two 128-byte-wide column chunks of
        the stored rows, per warpgroup storing on its own (a ping-pong contraction) or for the
        CTA's tile."""
        if not self.tma_store:
            return 0
        rows = self.bm * (self.consumers if self.pingpong and form == "contraction" else 1)
        return self.STORE_BUFFERS * rows * self.STORE_CHUNK_BYTES

    def legal(self, form: str, sizes: dict | None = None, target: str = DEFAULT) -> list[str]:
        """Why this schedule cannot build ``form`` on ``target`` (empty: it can).

        ``sizes`` holds what the IR fixes: ``element_bytes`` of the staged operands,
        ``head_dim`` of an online group, ``b_operands`` of contractions sharing A, ``out_bytes``
        of the stored output's elements."""
        if form not in FORMS:
            raise ValueError(f"unknown kernel form '{form}' (forms: {', '.join(FORMS)})")
        sizes = sizes or {}
        limits = get_target(target)
        if self.consumers and form == "recompute":
            reasons = self._recompute_reasons(sizes)
        elif self.consumers:
            reasons = self._hopper_reasons(form, sizes, target)
        else:
            reasons = getattr(self, f"_{form}_reasons")(sizes)
        if self.pingpong and (form not in ("online", "contraction") or self.consumers < 2):
            reasons.append("pingpong takes turns between consumer warpgroups: it needs the online or contraction "
                           "form and consumers >= 2")
        if self.pingpong and form == "contraction" and not self.persistent:
            reasons.append("a ping-pong contraction hands a CTA's tiles to its warpgroups in turn: it needs "
                           "persistent=true")
        if self.persistent and (form != "contraction" or not self.consumers):
            reasons.append("persistent loops a warp-specialised contraction over its output tiles: it needs the "
                           "contraction form and consumers >= 1")
        if self.tma_store and (form not in ("contraction", "online") or not self.consumers):
            reasons.append("tma_store stores a warp-specialised kernel's tile with the copy engine: it needs the "
                           "contraction or online form and consumers >= 1")
        if self.tma_store and sizes.get("out_bytes", 2) != 2:
            # f32 element pairs of rows 2i and 2i + 1 land in the same banks under every swizzle mode
            reasons.append("tma_store stages 16-bit outputs (bf16, f16); store an f32 output with tma_store=false")
        if self.softmax_overlap and (form != "online" or self.consumers not in (1, 2)):
            # three warpgroups have 152 registers a thread: no room for P carried beside S and acc
            reasons.append("softmax_overlap rotates a warp-specialised attention's key loop: it needs the online "
                           "form and consumers 1 or 2")
        if self.heavy_first and form != "online":
            reasons.append("heavy_first orders an attention's query blocks by the keys they read: it needs the "
                           "online form")
        if self.split_k > 1:
            reasons += self._split_reasons(form, sizes)
        if self.occupancy > 1 and self.consumers != 1:
            # 64K registers over two CTAs of 384 threads leave 85 a thread at launch: no wgmma fits
            reasons.append(f"occupancy={self.occupancy} puts two warp-specialised CTAs on an SM: it needs "
                           f"consumers=1 (256 threads; 216 registers a consumer thread)")
        if self.threads > limits.threads:
            reasons.append(f"{self.threads} threads per CTA; {target} allows {limits.threads}")
        smem = self.smem_bytes(form, sizes.get("element_bytes", 2), sizes.get("head_dim", 0),
                               sizes.get("b_operands", 1), sizes.get("qk_dim", 0),
                               sizes.get("resident", 0), sizes.get("streamed", 0))
        if smem > limits.smem:
            reasons.append(f"the staged tiles need {smem} bytes of shared memory; {target} allows {limits.smem}: "
                           f"lower stages, bk, bm or bn")
        elif self.occupancy > 1 and \
                self.occupancy * (smem + 8 * (1 + 2 * self.stages) + limits.smem_reserved) > limits.sm_smem:
            reasons.append(f"occupancy={self.occupancy}: {self.occupancy} CTAs of {smem} bytes of staged tiles (and "
                           f"their barriers) do not fit the {limits.sm_smem} bytes of an SM: lower stages or bn")
        return reasons

    def _split_reasons(self, form: str, sizes: dict) -> list[str]:
        """What split-K (``split_k`` > 1) takes: one contraction, its tiles stored by their CTAs."""
        if form != "contraction":
            return [f"split_k={self.split_k} shares a contraction's K among CTAs: it needs the contraction form"]
        reasons = []
        if sizes.get("b_operands", 1) > 1:
            reasons.append(f"split_k={self.split_k}: contractions sharing A finish in one epilogue; split-K "
                           f"takes one contraction")
        if self.persistent or self.tma_store:
            reasons.append(f"split_k={self.split_k}: the CTA that adds last stores the tile itself; split-K "
                           f"takes persistent=false and tma_store=false")
        return reasons

    def _contraction_reasons(self, sizes: dict) -> list[str]:
        reasons = self._tile_bound()
        if self.bm % 16 or self.bn % 16 or self.bk % 16:
            reasons.append("bm, bn and bk must be multiples of 16 (the mma.sync m16n8k16 shape)")
        if self.stages < 2:
            reasons.append("stages must be at least 2 (one tile in flight while one is used)")
        wm = 2 if self.warps >= 2 else 1
        tm, tn = self.bm // wm, self.bn // (self.warps // wm)
        if tm % 16 or tn % 16:
            reasons.append(f"each of the {wm}x{self.warps // wm} warps would own {tm}x{tn} of the tile; "
                           f"both must be multiples of 16")
        held = self.bm * self.bn * sizes.get("b_operands", 1) // self.threads
        if held > 128:  # beside the A/B fragments and addresses, more accumulators spill
            reasons.append(f"each thread would hold {held} accumulator values (bm * bn * contractions / threads); "
                           f"at most 128 stay in registers: lower bm or bn, or raise warps")
        return reasons

    def _hopper_reasons(self, form: str, sizes: dict, target: str) -> list[str]:
        """A warp-specialised TMA + wgmma kernel: the instruction and copy-engine shapes."""
        if form in ("rows", "pointwise"):
            return [f"consumers={self.consumers} (warp-specialised wgmma) builds contractions and attention, "
                    f"not {'row' if form == 'rows' else form} programs"]
        reasons = []
        lacking = get_target(target).lacks(*self.features())
        if lacking:
            reasons.append(f"consumers={self.consumers} (a warp-specialised kernel) needs {', '.join(lacking)}, "
                           f"which {target} does not have (targets with them: {', '.join(self.targets())})")
        if self.warps != 4 * self.consumers:
            reasons.append(f"warps={self.warps}: {self.consumers} consumer warpgroups are {4 * self.consumers} warps")
        own_tiles = self.pingpong and form == "contraction"
        if own_tiles and self.bm not in (64, 128):
            reasons.append(f"bm={self.bm}: each of the {self.consumers} consumer warpgroups owns a tile of its own "
                           f"of one or two 64-row wgmma slabs (bm = 64 or 128)")
        elif not own_tiles and self.bm != 64 * self.consumers:
            reasons.append(f"bm={self.bm}: each of the {self.consumers} consumer warpgroups owns 64 rows "
                           f"(bm = {64 * self.consumers})")
        element_bytes = sizes.get("element_bytes", 2)
        if element_bytes != 2:
            reasons.append("wgmma here reads 16-bit operands (bf16, f16)")
        reasons += self.copy_engine_reasons(sizes.get("copy_rows", {}), target)
        if self.stages < 2:
            reasons.append("stages must be at least 2 (one tile in flight while one is used)")
        if form == "online":
            reasons += self._hopper_online_reasons(sizes)
            return reasons + self._wgmma_registers([(self.bn, 0), (sizes.get("head_dim", 64), 4)])
        # contractions sharing A (SwiGLU's two) keep an accumulator each: as much as one wgmma of n = b * bn;
        # a ping-pong warpgroup of 128 rows keeps one per 64-row slab
        slabs = self.bm // 64 if own_tiles and self.bm in (64, 128) else 1
        reasons += self._wgmma_registers([(self.bn * sizes.get("b_operands", 1) * slabs, 0)])
        if element_bytes == 2 and self.bk != 64:
            reasons.append(f"bk={self.bk}: a k tile is one 128-byte swizzle row of 16-bit elements (bk = 64)")
        if self.bn % 64 or self.bn > 256:
            reasons.append(f"bn={self.bn} must be 64, 128, 192 or 256 (wgmma's n, 64-column copy boxes)")
        return reasons

    def copy_engine_reasons(self, rows: dict, target: str = DEFAULT) -> list[str]:
        """Why the copy engine cannot move the rows of ``rows`` ({tensor: (bytes per row, "read" or
        "write")}, the sizes known): a tensor map's row stride must be a multiple of the
        target's ``copy_stride_bytes``. Example: ``{"A": (1998, "read")}`` (K = 999 bf16) gives
        one reason, ``{"A": (2048, "read")}`` none."""
        step = get_target(target).copy_stride_bytes
        reasons = []
        for how, fix in (("read", "consumers=0 (cp.async reads rows of any length)"),
                         ("write", "tma-store=false (a plain store writes rows of any length)")):
            bad = [(name, n) for name, (n, h) in sorted(rows.items()) if h == how and step and n % step]
            if bad:
                reasons.append(f"the copy engine {how}s " + ", ".join(f"{name} in rows of {n} bytes" for name, n in bad)
                               + f"; a tensor map's rows must be a multiple of {step} bytes apart: use {fix}")
        return reasons

    # registers ptxas needs beside a wgmma's accumulators (descriptors, addresses, the loop):
    # it asked for 154 to compile an m64n256 wgmma (128 accumulators) and 158 for attention's
    # P·V at a head dim of 256 (its A fragments too), H200 build, 2026-12-01
    WGMMA_HEADROOM: ClassVar[int] = 26

    def _wgmma_registers(self, wgmmas: list[tuple[int, int]]) -> list[str]:
        """Each (n, registers of A) wgmma must compile within the registers a thread has at
        launch (64K over the CTA's threads, in 8s): n/2 accumulators and the headroom."""
        cap = self.launch_registers
        for n, a_registers in wgmmas:
            need = n // 2 + a_registers + self.WGMMA_HEADROOM
            if need > cap:
                return [f"a wgmma with n={n} keeps {n // 2} accumulators per thread and needs about {need} "
                        f"registers; {self.threads} threads have {cap} each at launch: lower bn (or the head dim) "
                        f"or use fewer consumer warpgroups"]
        return []

    def _hopper_online_reasons(self, sizes: dict) -> list[str]:
        """Attention on wgmma: S = Q·Kᵀ has n = bn, P·V has k = bn and n = the head dim; Q, K and V
        tiles are 64-column boxes of the 128-byte swizzle (head dims in 64s)."""
        reasons = []
        if self.bn % 16 or not 16 <= self.bn <= 256:
            reasons.append(f"bn={self.bn} (the key block) must be a multiple of 16 up to 256 "
                           f"(wgmma's n for Q·Kᵀ, its k for P·V)")
        for name in ("qk_dim", "head_dim"):
            width = sizes.get(name) or sizes.get("head_dim", 64)
            if width % 64 or width > 256:
                what = "query/key" if name == "qk_dim" else "value"
                reasons.append(f"the {what} head dim {width} must be 64, 128, 192 or 256 on the warp-specialised "
                               f"path (whole 128-byte swizzle rows; wgmma's n <= 256)")
        return reasons

    def _online_reasons(self, sizes: dict) -> list[str]:
        reasons = self._blocked_loop_reasons("query rows", "the key block", "P·V")
        head_dim = sizes.get("head_dim", 16)  # the value head dim: P·V's n, in mma n tiles of 8
        if head_dim % 8 or head_dim > self.MAX_TILE:
            reasons.append(f"value head dim {head_dim} must be a multiple of 8 and at most {self.MAX_TILE}")
        return reasons

    def _recompute_reasons(self, sizes: dict) -> list[str]:
        """Recomputed sums: C = R·Tᵀ is [bm, bn] (the mma's m and n), acc += W·X takes bn as k."""
        reasons = self._blocked_loop_reasons("rows", "the block of the summed index", "W·X")
        if self.consumers or self.split_k > 1:
            reasons.append("recomputed sums are built for the cp.async + mma.sync pipeline: consumers=0, split_k=1")
        return reasons

    def _blocked_loop_reasons(self, rows: str, block: str, product: str) -> list[str]:
        """The rules of a loop over blocks of bn whose [bm, bn] tile is an mma's A (attention's P,
        a recomputed sum's W): whole 16-row slices a warp, bn the mma's k step, two stages."""
        reasons = self._tile_bound()
        if self.bm % (16 * self.warps):
            reasons.append(f"bm={self.bm} gives each of the {self.warps} warps {self.bm // self.warps} {rows}; "
                           f"the mma needs whole 16-row slices (bm % (16 * warps) == 0)")
        if self.bn % 16:
            reasons.append(f"bn={self.bn} ({block}) must be a multiple of 16 (the mma's k step for {product})")
        if self.stages < 2:
            reasons.append(f"stages must be at least 2 (one {'key ' if product == 'P·V' else ''}block in flight "
                           f"while one is used)")
        return reasons

    def _tile_bound(self) -> list[str]:
        """A tensor-core tile's bn is bounded like bm and bk (only a row block goes wider)."""
        return [f"bn={self.bn} is larger than {self.MAX_TILE} (wider blocks are for row programs)"] \
            if self.bn > self.MAX_TILE else []

    def _pointwise_reasons(self, sizes: dict) -> list[str]:
        if self.bm % self.warps:
            return [f"bm={self.bm} rows cannot be shared by {self.warps} warps (each warp owns whole rows)"]
        return self._rows_reasons(sizes)

    def _rows_reasons(self, sizes: dict) -> list[str]:
        reasons = []
        if self.bm % self.warps and self.warps % self.bm:
            reasons.append(f"bm={self.bm} rows cannot be shared by {self.warps} warps (each warp owns whole rows, "
                           f"or a row is shared by warps / bm warps)")
        split = max(self.warps // self.bm, 1)  # warps sharing a row
        if self.bn % (32 * split):
            reasons.append(f"bn={self.bn} (the column block) must be a multiple of {32 * split} "
                           f"({'one warp spans' if split == 1 else f'{split} warps span'} a row block)")
        per_thread = max(self.bm // self.warps, 1) * max(self.bn // (32 * split), 1)
        if per_thread > 64:
            reasons.append(f"each thread would hold {per_thread} elements of a row block; at most 64 fit in "
                           f"registers: lower bm or bn, or raise warps")
        return reasons

    @classmethod
    def space(cls, form: str, target: str | None = None, use: str = "check") -> list["Schedule"]:
        """The candidate schedules of ``form`` in the ``use`` grid ("check" or "search"; legal()
        prunes them), in order: the points every target runs, then, for ``target``, its own
        (the registry's ``space`` module: sm_90a's warp-specialised points), each one the
        target has the features of. Without ``target``: the shared points alone."""
        points = [cls(**p) for p in grid(GRIDS[use].get(form, {}))] if form in GRIDS[use] else []
        if target is None:
            return points
        own = get_target(target).space
        if own:  # a target's own points: its folder's module, found through the registry
            points += importlib.import_module(own).points(form, use)
        return [p for p in points if get_target(target).has(*p.features())]

    @classmethod
    def any_size(cls, form: str, target: str) -> list["Schedule"]:
        """The schedules a ``form`` kernel for ``target`` is built with when its spec is compiled
        with a size left free (it then runs at every value of it), best first: the target's own "any-size" list
        (sm_90a: its warp-specialised kernels; tilec/targets/sm_90a/space.py). Empty where the
        target gives none: the cost model then ranks the form's space at the spec's default sizes."""
        own = get_target(target).space
        points = importlib.import_module(own).points(form, "any-size") if own else []
        return [p for p in points if get_target(target).has(*p.features())]

    def check(self, form: str, sizes: dict | None = None, target: str = DEFAULT) -> None:
        """Raise ValueError with every reason when the schedule is illegal."""
        reasons = self.legal(form, sizes, target)
        if reasons:
            raise ValueError(f"schedule {self.as_text()} cannot build this {form} kernel: " + "; ".join(reasons))


def grid(axes: dict) -> list[dict]:
    """Every combination of the axes' values, the first axis slowest."""
    points = [{}]
    for name, values in axes.items():
        points = [{**p, name: v} for p in points for v in values]
    return points
