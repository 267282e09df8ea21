"""The CUDA rules for the sm_90a tile ops (tilec/targets/sm_90a/dialects/tile_hopper.py): mbarriers, copy-engine
copies, wgmma and the warp roles. Methods of CudaEmitter (imported into its class body).

Every number a rule prints about shared memory comes from the buffer's layout
(dialects/layout.py): the copy boxes (``tma_boxes``), the wgmma descriptor's fields and k16
step (``wgmma_operand``) and the start of each warpgroup's rows (``warpgroup_rows``). The
verifier proves those same descriptors read what the layout placed (tilec/targets/sm_90a/verify/hopper.py).
"""

from dataclasses import dataclass

from torch_mlir import ir

from tilec.dialects import layout
from tilec.dialects.layout import tma_boxes
from tilec.codegen.cuda_regs import Frag
from tilec.dialects.tile import register_layout
from tilec.targets.sm_90a.dialects.tile_hopper import consumer_roles, wgmma_depth, wgmma_stage

from tilec.diagnostics import TilecError
from tilec.dialects.op_rules import register
from tilec.targets.sm_90a.codegen.cuda_store import STORE_PRELUDE

# the mbarrier, copy-engine and wgmma wrappers every sm_90a kernel uses
HOPPER_PRELUDE = r"""
struct alignas(64) TensorMap { unsigned long long words[16]; };
__device__ __forceinline__ void mbar_init(uint32_t bar, int arrivals) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" :: "r"(bar), "r"(arrivals));
}
__device__ __forceinline__ void mbar_expect(uint32_t bar, uint32_t bytes) {
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" :: "r"(bar), "r"(bytes) : "memory");
}
__device__ __forceinline__ void mbar_arrive(uint32_t bar) {
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" :: "r"(bar) : "memory");
}
__device__ __forceinline__ void mbar_wait(uint32_t bar, int parity) {
    asm volatile("{\n .reg .pred done;\n WAIT_%=:\n mbarrier.try_wait.parity.shared::cta.b64 done, [%0], %1;\n"
                 " @!done bra WAIT_%=;\n}" :: "r"(bar), "r"(parity) : "memory");
}
// one box of a tensor map into shared memory; its bytes complete on mbarrier bar
__device__ __forceinline__ void tma_load_2d(void* dst, const TensorMap* map, int c0, int c1, uint32_t bar) {
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];"
                 :: "r"(smem_u32(dst)), "l"(map), "r"(c0), "r"(c1), "r"(bar) : "memory");
}
__device__ __forceinline__ void tma_load_3d(void* dst, const TensorMap* map, int c0, int c1, int c2, uint32_t bar) {
    asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4}], [%5];"
                 :: "r"(smem_u32(dst)), "l"(map), "r"(c0), "r"(c1), "r"(c2), "r"(bar) : "memory");
}
__device__ __forceinline__ void tma_load_4d(void* dst, const TensorMap* map, int c0, int c1, int c2, int c3,
                                            uint32_t bar) {
    asm volatile("cp.async.bulk.tensor.4d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4, %5}], [%6];"
                 :: "r"(smem_u32(dst)), "l"(map), "r"(c0), "r"(c1), "r"(c2), "r"(c3), "r"(bar) : "memory");
}
// a wgmma descriptor: the constant fields | the start address >> 4
__device__ __forceinline__ unsigned long long smem_desc(const void* p, unsigned long long fields) {
    return fields | ((smem_u32(p) & 0x3FFFF) >> 4);
}
"""

_MAX_RANK = 4  # tma_load_2d .. _4d


@dataclass
class Barrier:
    name: str        # the shared address (uint32_t) of stage 0 (the rest: the op's attributes)


def op_tile_mbarrier_alloc(self, op):
    stages = ir.MemRefType(op.result.type).shape[0]
    arrivals = ir.IntegerAttr(op.attributes["arrivals"]).value
    self.smem_bytes = -(-self.smem_bytes // 8) * 8
    name = self.fresh("bar")
    self.line(f"const uint32_t {name} = smem_u32(smem + {self.smem_bytes});")
    self.line(f"if (tid == 0) for (int s = 0; s < {stages}; ++s) mbar_init({name} + 8 * s, {arrivals});")
    self.smem_bytes += 8 * stages
    self.names[op.result] = Barrier(name)


def _bar(self, bar_value, stage_value) -> str:
    return f"{self.value(bar_value).name} + 8 * (uint32_t)({self.value(stage_value)})"


def op_tile_mbarrier_expect(self, op):
    bar, stage = op.operation.operands
    self.line(f"mbar_expect({_bar(self, bar, stage)}, {ir.IntegerAttr(op.attributes['bytes']).value}u);")


def op_tile_mbarrier_wait(self, op):
    bar, stage, parity = op.operation.operands
    self.line(f"mbar_wait({_bar(self, bar, stage)}, (int)({self.value(parity)}));")


def op_tile_mbarrier_arrive(self, op):
    bar, stage = op.operation.operands
    at = _bar(self, bar, stage)
    # the consumers arrive once per warp, after the warp's reads of the stage
    self.line(f"if (lane == 0) mbar_arrive({at});" if self.role == "consumer" else f"mbar_arrive({at});")


def op_tile_tma_copy(self, op):
    src, *offs, dst, stage, _ = op.operation.operands
    _, gname, dims, element = self.value(src)
    shared = self.value(dst)
    rows, cols = shared.layout.shape
    boxes = tma_boxes(shared.layout, 2 if element != "float" else 4)
    if boxes is None or len(dims) > _MAX_RANK:
        raise TilecError(f"tile.tma_copy: no tensor map copies {gname} into this layout")
    mode, box_cols = boxes
    tmap = self.tensor_map(gname.removeprefix("g_"), [1] * (len(dims) - 2) + [rows, box_cols], mode)
    offsets = [self.value(o) for o in offs]
    bar = _bar(self, op.operation.operands[-1], stage)
    for box in range(cols // box_cols):
        at = shared.layout.offset(0, box * box_cols)  # where the box starts in the tile
        coords = [f"(int)({offsets[-1]} + {box * box_cols})", f"(int)({offsets[-2]})"] + \
                 [f"(int)({o})" for o in reversed(offsets[:-2])]
        self.line(f"tma_load_{len(dims)}d({shared.name} + {self.value(stage)} * {shared.stage_elems} + {at}, "
                  f"&{tmap}, {', '.join(coords)}, {bar});")


def op_tile_wgmma(self, op):
    a_v, b_v, stage_v, acc_v = op.operation.operands
    a, b, acc = self.value(a_v), self.value(b_v), self.value(acc_v)
    acc = _into_carried(self, op, acc)
    self.names[op.result] = acc
    ta, tb = "transpose_a" in op.attributes, "transpose_b" in op.attributes
    registers = isinstance(a_v.type, ir.RankedTensorType)  # A in registers: the accumulator's layout
    eb = 2
    m, n = ir.RankedTensorType(op.result.type).shape
    k = wgmma_depth(op)
    slabs = _slabs(op, m, registers)
    if not registers and a.element != b.element:  # wgmma's operands are of one kind
        raise TilecError(f"tile.wgmma: A of {a.element} and B of {b.element}: wgmma multiplies operands of one type")
    b_fields, _ = layout.wgmma_operand(b.layout, tb, eb)
    fn = _wgmma_function(self, n, b.element, None if registers else not ta, tb)
    self.line("{  // wgmma over the stage: descriptors from the tiles' layouts")
    self.indent += 1
    if not registers:
        a_fields, _ = layout.wgmma_operand(a.layout, not ta, eb)
        # the warpgroups of one tile read their own 64 rows of A; one on its own reads all of them
        wg_rows = "" if self.consumer_roles > 1 else f" + (warp / 4) * {layout.warpgroup_rows(a.layout, ta)}"
        self.line(f"const unsigned long long da = smem_desc({_stage_base(self, a, a_v, stage_v)}{wg_rows}, "
                  f"{a_fields:#x}ull);")
    self.line(f"const unsigned long long db = smem_desc({_stage_base(self, b, b_v, stage_v)}, {b_fields:#x}ull);")
    if registers:  # the A fragment of k step kk is the accumulator fragment of columns 16kk..;
        # all packed before the fence, so that no register A is written between the wgmmas
        p = a.name
        self.line(f"uint32_t pa[{k // 16}][4];")
        self.line("#pragma unroll")
        self.line(f"for (int kk = 0; kk < {k // 16}; ++kk)")
        self.line("#pragma unroll")
        self.line("for (int h = 0; h < 2; ++h) {")
        self.line(f"    pa[kk][2 * h] = pack2({p}[0][2 * kk + h][0], {p}[0][2 * kk + h][1]);")
        self.line(f"    pa[kk][2 * h + 1] = pack2({p}[0][2 * kk + h][2], {p}[0][2 * kk + h][3]);")
        self.line("}")
    self.line('asm volatile("wgmma.fence.sync.aligned;" ::: "memory");')
    for kk in range(k // 16):  # each k16 step's start, from the layouts (a box boundary included)
        b_at = layout.wgmma_k_offset(b.layout, tb, kk) * eb >> 4
        if registers:
            frags = ", ".join(f"pa[{kk}][{r}]" for r in range(4))
            self.line(f"{fn}(&{acc.name}[0][0][0], {frags}, db + {b_at});")
            continue
        for i in range(slabs):  # slab i: A's rows 64 i.., the accumulator's mma tile i of each warp
            a_at = (layout.wgmma_k_offset(a.layout, not ta, kk) + i * layout.warpgroup_rows(a.layout, ta)) * eb >> 4
            self.line(f"{fn}(&{acc.name}[{i}][0][0], da + {a_at}, db + {b_at});")
    self.line('asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");')
    if "async" not in op.attributes:
        self.line('asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");')
    self.indent -= 1
    self.line("}")


def _into_carried(self, op, acc):
    """The tile an asynchronous wgmma accumulates into: the one its loop carries when the loop
    yields its result. Until a ``wgmma.wait_group`` retires it, the accumulator's registers are
    the wgmma's (PTX ISA, wgmma.mma_async), so the yield must not copy them into the carried tile
    (the wait comes in the next iteration or after the loop). The carried tile is dead by then
    (every read of it comes before), so ``acc`` is copied into it before the wgmma instead. A
    chain of wgmmas, each onto the one before's result (f32 output's two P·V products), is one
    accumulator: the first copies, and each continues on the carried tile."""
    if "async" not in op.attributes:
        return acc
    loop = op.operation.parent
    last = op
    while True:  # the end of the chain this wgmma starts
        uses = list(last.result.uses)
        if len(uses) != 1:
            return acc
        user = uses[0].owner
        if user.operation.name != "tile.wgmma" or "async" not in user.attributes or uses[0].operand_number != 3 \
                or user.operation.parent != loop:
            break
        last = user
    if loop.name != "scf.for" or user.operation.name != "scf.yield":
        return acc
    block = loop.regions[0].blocks[0]
    carried_v = block.arguments[1 + uses[0].operand_number]
    carried = self.value(carried_v)
    if not isinstance(carried, Frag) or carried.name == acc.name:
        return acc
    if (carried.tiling, carried.element, carried.scale) != (acc.tiling, acc.element, acc.scale):
        raise TilecError("tile.wgmma: the loop carries its accumulator in another register layout")
    order = {o: i for i, o in enumerate(block.operations)}
    here = order[op.operation]
    for use in carried_v.uses:
        user = use.owner.operation
        while user.parent != loop:
            user = user.parent
        if order[user] > here:
            raise TilecError("tile.wgmma: the loop's carried accumulator is read after the wgmma that replaces it")
    count = carried.tiling.mi * carried.tiling.ni * 4
    self.line(f"for (int e = 0; e < {count}; ++e) ((float*){carried.name})[e] = ((float*){acc.name})[e];")
    return carried


def _slabs(op, m: int, registers: bool) -> int:
    """The 64-row slabs one warpgroup multiplies (wgmma m64 each), from the result's layout:
    one, or with ``MmaLayout.slabs``, each of the warp's mma tiles in a slab of its own."""
    parent = register_layout(op.result.type)
    slabs = getattr(parent, "slabs", 1)
    if slabs == 1:
        return 1
    if registers or m != 64 * slabs or parent.tiling(m, 8).mi != slabs:
        raise TilecError(f"tile.wgmma: {slabs} slabs of a {m}-row accumulator are not one wgmma m64 each "
                         f"over A in shared memory")
    return slabs


def op_tile_wgmma_wait(self, op):
    pending = ir.IntegerAttr(op.attributes["pending"]).value
    self.line(f'asm volatile("wgmma.wait_group.sync.aligned {pending};" ::: "memory");')


def _stage_base(self, tile, value, stage_value) -> str:
    """The shared address of the stage of ``tile`` a wgmma reads (a one-stage tile: stage 0)."""
    stage = wgmma_stage(value.type, self.value(stage_value))
    return tile.name if stage == 0 else f"{tile.name} + {stage} * {tile.stage_elems}"


def _wgmma_function(self, n: int, element: str, a_k_major: bool | None, b_k_major: bool) -> str:
    """The name of a device function running one wgmma.m64n{n}k16 (defined once per kernel);
    ``a_k_major`` None: A is four registers of bf16/f16 pairs, not a descriptor."""
    kind = {"__nv_bfloat16": "bf16", "__half": "f16"}.get(element)
    if kind is None:
        raise TilecError(f"wgmma here multiplies bf16 or f16 tiles, not {element}")
    a_form = "r" if a_k_major is None else str(int(not a_k_major))
    name = f"wgmma_m64n{n}k16_{kind}_{a_form}{int(not b_k_major)}"
    if name in self.helpers:
        return name
    regs = n // 2
    d = ", ".join(f"%{i}" for i in range(regs))
    outs = ", ".join(f'"+f"(d[{i}])' for i in range(regs))
    if a_k_major is None:
        params, a_operand = "uint32_t a0, uint32_t a1, uint32_t a2, uint32_t a3", \
            f"{{%{regs}, %{regs + 1}, %{regs + 2}, %{regs + 3}}}"
        ins, b_at, flags = '"r"(a0), "r"(a1), "r"(a2), "r"(a3), "l"(b)', regs + 4, f"1, 1, 1, {int(not b_k_major)}"
    else:
        params, a_operand = "unsigned long long a", f"%{regs}"
        ins, b_at = '"l"(a), "l"(b)', regs + 1
        flags = f"1, 1, 1, {int(not a_k_major)}, {int(not b_k_major)}"
    self.helpers[name] = (
        f"__device__ __forceinline__ void {name}(float* d, {params}, unsigned long long b) {{\n"
        f'    asm volatile("wgmma.mma_async.sync.aligned.m64n{n}k16.f32.{kind}.{kind} {{{d}}}, {a_operand}, '
        f'%{b_at}, {flags};"\n'
        f'                 : {outs} : {ins});\n}}\n')
    return name


def op_tile_warp_specialize(self, op):
    producer, consumer = (region.blocks[0] for region in op.operation.regions)
    p_regs = ir.IntegerAttr(op.attributes["producer_registers"]).value
    c_regs = ir.IntegerAttr(op.attributes["consumer_registers"]).value
    _check_register_split(self, p_regs, c_regs)
    self.line('if (tid == 0) asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");')
    self.line("__syncthreads();  // the mbarriers are initialised")
    self.line(f"if (warp >= {self.warps}) {{  // the producer warpgroup: one thread issues the copies")
    self.indent += 1
    self.line(f'asm volatile("setmaxnreg.dec.sync.aligned.u32 {p_regs};");')
    self.line(f"if (tid == {32 * self.warps}) {{")
    self.indent += 1
    self.role = "producer"
    self.block(producer)
    self.indent -= 1
    self.line("}")
    self.indent -= 1
    self.line("} else {  // the consumer warpgroups")
    self.indent += 1
    self.line(f'asm volatile("setmaxnreg.inc.sync.aligned.u32 {c_regs};");')
    self.role = "consumer"
    roles = self.consumer_roles = consumer_roles(op)
    if roles > 1:  # each warpgroup on its own: its warps and threads numbered within it
        self.line("const int wg_id = warp / 4, wg_warp = warp % 4, wg_tid = tid % 128;")
        self.line("{")
        self.indent += 1
        self.line(f"const int warp = wg_warp, tid = wg_tid, warp_m = wg_warp % {self.wm}, "
                  f"warp_n = wg_warp / {self.wm};")
        self.line("(void)warp; (void)warp_m; (void)warp_n; (void)tid;")
    self.block(consumer)
    if self.staged_stores:  # the CTA's shared memory must outlive the copies reading it
        self.line("if (tid == 0) bulk_wait_read<0>();")
    if roles > 1:
        self.indent -= 1
        self.line("}")
    self.role, self.consumer_roles = None, 1
    self.indent -= 1
    self.line("}")


def _check_register_split(self, p_regs: int, c_regs: int) -> None:
    """setmaxnreg moves registers between the roles within what the CTA was launched with (the
    __launch_bounds__ cap, which ptxas gives a kernel that sets them, times its threads); asking
    for more makes setmaxnreg.inc wait for registers that never come: the kernel hangs."""
    launched = self.schedule.launch_registers
    asked = 128 * p_regs + 32 * self.warps * c_regs
    if asked > launched * self.threads or p_regs % 8 or c_regs % 8 or not 24 <= min(p_regs, c_regs) <= max(
            p_regs, c_regs) <= 256:
        raise TilecError(f"tile.warp_specialize: {p_regs} registers a producer thread and {c_regs} a consumer "
                         f"thread ({asked} in all) do not fit the {launched} x {self.threads} a CTA of "
                         f"{self.threads} threads at {self.schedule.occupancy} an SM is launched with "
                         f"(setmaxnreg takes multiples of 8 in 24..256): setmaxnreg.inc would wait forever")


def op_tile_warpgroup_id(self, op):
    self.names[op.result] = "(long long)wg_id"



def op_tile_turn_wait(self, op):
    # named barrier 1 + g: warpgroup g waits, the warpgroup before it passes (2 x 128 threads)
    who = ir.StringAttr(op.attributes["who"]).value
    line = 'asm volatile("bar.sync %0, 256;" :: "r"(1 + warp / 4) : "memory");'
    self.line(line if who == "all" else f"if (warp / 4 == 0) {line}")


def op_tile_turn_pass(self, op):
    who = ir.StringAttr(op.attributes["who"]).value
    consumers = self.schedule.consumers
    line = f'asm volatile("bar.arrive %0, 256;" :: "r"(1 + (warp / 4 + 1) % {consumers}) : "memory");'
    self.line(line if who == "all" else f"if (warp / 4 == {consumers - 1}) {line}")


# the emitter finds these through the ops (dialects/op_rules.py); the C helpers they call go
# before any kernel that uses them (with the staged store's, tilec/targets/sm_90a/codegen/cuda_store.py)
register("cuda", {"tile.mbarrier_alloc": op_tile_mbarrier_alloc, "tile.mbarrier_expect": op_tile_mbarrier_expect,
                  "tile.mbarrier_wait": op_tile_mbarrier_wait, "tile.mbarrier_arrive": op_tile_mbarrier_arrive,
                  "tile.tma_copy": op_tile_tma_copy, "tile.wgmma": op_tile_wgmma, "tile.wgmma_wait": op_tile_wgmma_wait,
                  "tile.warp_specialize": op_tile_warp_specialize, "tile.warpgroup_id": op_tile_warpgroup_id,
                  "tile.turn_wait": op_tile_turn_wait, "tile.turn_pass": op_tile_turn_pass})
register("cuda-prelude", {"sm_90a": HOPPER_PRELUDE + STORE_PRELUDE})
