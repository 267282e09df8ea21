"""The CUDA rule for tile.tma_store (tilec/targets/sm_90a/dialects/tile_hopper.py): a register tile stored through
shared memory by the copy engine. A method of CudaEmitter (imported into its class body).

Per column chunk c of the tile, in order:

    thread 0:      cp.async.bulk.wait_group.read staging_pending(c)   the buffer's last store has read it
    the storers:   bar.sync                                           ... and every storer knows it
    each thread:   its accumulator elements of chunk c -> buffer first + c % buffers (the staging layout)
    each thread:   fence.proxy.async.shared::cta                      its writes visible to the copy engine
    the storers:   bar.sync                                           every element written
    thread 0:      cp.async.bulk.tensor (shared -> global), commit_group

"The storers" are the consumer warps (one tile per CTA) or one consumer warpgroup (ping-pong:
each stores its own tiles with its own barrier and buffers). The copy engine clips the box to
the tensor, so no element needs a mask. Before the kernel ends, each storing thread 0 waits
until its stores have read shared memory (the CTA's shared memory must outlive them).
"""

from torch_mlir import ir

from tilec.dialects.layout import tma_boxes
from tilec.targets.sm_90a.dialects.tile_hopper import staging_of, staging_pending, store_parts

from tilec.diagnostics import TilecError
from tilec.dialects.op_rules import register
from tilec.codegen.cexpr import CExpr
from tilec.codegen.cuda_ops import _element, _Using
from tilec.codegen.cuda_regs import tiling_for

# named barriers 1-3 order attention's ping-pong turns; the stores of the storing warps use
# 4 (all consumer warps) or 4 + g (consumer warpgroup g on its own)
STORE_BARRIER = 4

STORE_PRELUDE = r"""
// one box of a tensor map from shared memory to global (elements outside the tensor are not
// written), in this thread's bulk group
__device__ __forceinline__ void tma_store_2d(const TensorMap* map, const void* src, int c0, int c1) {
    asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%0, {%2, %3}], [%1];"
                 :: "l"(map), "r"(smem_u32(src)), "r"(c0), "r"(c1) : "memory");
}
__device__ __forceinline__ void tma_store_3d(const TensorMap* map, const void* src, int c0, int c1, int c2) {
    asm volatile("cp.async.bulk.tensor.3d.global.shared::cta.bulk_group [%0, {%2, %3, %4}], [%1];"
                 :: "l"(map), "r"(smem_u32(src)), "r"(c0), "r"(c1), "r"(c2) : "memory");
}
__device__ __forceinline__ void tma_store_4d(const TensorMap* map, const void* src, int c0, int c1, int c2, int c3) {
    asm volatile("cp.async.bulk.tensor.4d.global.shared::cta.bulk_group [%0, {%2, %3, %4, %5}], [%1];"
                 :: "l"(map), "r"(smem_u32(src)), "r"(c0), "r"(c1), "r"(c2), "r"(c3) : "memory");
}
__device__ __forceinline__ void bulk_commit() { asm volatile("cp.async.bulk.commit_group;" ::: "memory"); }
// until at most N of this thread's bulk groups are still reading shared memory
template <int N> __device__ __forceinline__ void bulk_wait_read() {
    asm volatile("cp.async.bulk.wait_group.read %0;" :: "n"(N) : "memory");
}
__device__ __forceinline__ void fence_async_shared() { asm volatile("fence.proxy.async.shared::cta;" ::: "memory"); }
"""

_MAX_RANK = 4  # tma_store_2d .. _4d


def storers_sync(self) -> str:
    """The named barrier of the threads storing one tile."""
    if self.consumer_roles > 1:
        return f'asm volatile("bar.sync %0, 128;" :: "r"({STORE_BARRIER} + wg_id) : "memory");'
    return f'asm volatile("bar.sync {STORE_BARRIER}, {32 * self.warps};" ::: "memory");'


def op_tile_tma_store(self, op):
    value, dst, offs = store_parts(op)
    staging, first = op.operation.operands[-2:]
    _, gname, dims, element = self.value(dst)
    shared = self.value(staging)
    buffers, rows, chunk = staging_of(op)
    width = 4 if element == "float" else 2
    boxes = tma_boxes(shared.layout, width)
    t = ir.RankedTensorType(value.type)
    tiling = tiling_for(t)
    if boxes is None or len(dims) > _MAX_RANK or tiling.wn != 1 or chunk % 8:
        raise TilecError("tile.tma_store: no tensor map stores this staging layout from this register tile")
    tmap = self.tensor_map(gname.removeprefix("g_"), [1] * (len(dims) - 2) + [rows, chunk], boxes[0])
    offsets = [self.value(o) for o in offs]
    pair = {"float": "float2", "__nv_bfloat16": "__nv_bfloat162", "__half": "__half2"}[element]
    chunks = t.shape[1] // chunk
    self.staged_stores = True
    self.line(f"{{  // {t.shape[0]}x{t.shape[1]} tile: {chunks} chunks of {chunk} columns through shared memory, "
              f"the copy engine storing them")
    self.indent += 1
    memo = {}
    with _Using(self, tiling, self.bk):
        for c in range(chunks):
            buf = f"{shared.name} + ({self.value(first)} + {c % buffers}) * {shared.stage_elems}"
            self.line(f"if (tid == 0) bulk_wait_read<{staging_pending(c, chunks, buffers)}>();")
            self.line(storers_sync(self))
            self.line("#pragma unroll")
            self.line(f"for (int mi = 0; mi < {self.mi}; ++mi)")
            self.line("#pragma unroll")
            self.line(f"for (int nj = 0; nj < {chunk // 8}; ++nj)")
            self.line("#pragma unroll")
            self.line("for (int h = 0; h < 2; ++h) {")
            self.indent += 1
            self.line(f"const int ni = {c * chunk // 8} + nj;")
            row, col = self.tiling.accumulator(*map(CExpr, ("warp_m", "warp_n", "lane", "mi", "ni", "(h * 2)")))
            self.line(f"const int row = {row.text}, col = {col.text};")
            v0 = _element(self, value, ["row", "col"], "h * 2", memo)
            v1 = _element(self, value, ["row", "(col + 1)"], "h * 2 + 1", memo)
            at = shared.layout.offset(CExpr("row"), CExpr(f"(col - {c * chunk})")).text
            self.line(f"{pair} both; both.x = {v0}; both.y = {v1};")
            self.line(f"*reinterpret_cast<{pair}*>({buf} + {at}) = both;")
            self.indent -= 1
            self.line("}")
            memo.clear()
            self.line("fence_async_shared();")
            self.line(storers_sync(self))
            coords = [f"(int)({offsets[-1]} + {c * chunk})", f"(int)({offsets[-2]})"] + \
                     [f"(int)({o})" for o in reversed(offsets[:-2])]
            self.line(f"if (tid == 0) {{ tma_store_{len(dims)}d(&{tmap}, {buf}, {', '.join(coords)}); bulk_commit(); }}")
    self.indent -= 1
    self.line("}")


register("cuda", {"tile.tma_store": op_tile_tma_store})  # found through the op (dialects/op_rules.py)
