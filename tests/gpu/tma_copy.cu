// A fixture for tilec.runtime.tensor_map, not an emitted kernel: each CTA copies one 64x64
// bf16 box of the tensor with cp.async.bulk.tensor (completing on an mbarrier) and writes it
// to out at the box's position, reading shared memory as the map's swizzle mode stores it.
// swizzle128: the 128-byte mode, where 16-byte chunk k of row r lands at chunk k ^ (r % 8).
#include <cuda_bf16.h>

struct alignas(64) TensorMap { unsigned long long words[16]; };

extern "C" __global__ void __launch_bounds__(128)
tma_copy(const __grid_constant__ TensorMap map, __nv_bfloat16* __restrict__ out, int out_cols, int swizzle128) {
    __shared__ alignas(1024) __nv_bfloat16 tile[64 * 64];
    __shared__ alignas(8) unsigned long long barrier;
    const int r0 = blockIdx.y * 64, c0 = blockIdx.x * 64;
    const unsigned bar = static_cast<unsigned>(__cvta_generic_to_shared(&barrier));
    const unsigned dst = static_cast<unsigned>(__cvta_generic_to_shared(tile));
    if (threadIdx.x == 0) {
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" :: "r"(bar));
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" :: "r"(bar), "r"(64 * 64 * 2) : "memory");
        asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];"
                     :: "r"(dst), "l"(reinterpret_cast<unsigned long long>(&map)), "r"(c0), "r"(r0), "r"(bar)
                     : "memory");
    }
    asm volatile("{\n .reg .pred done;\n WAIT_%=:\n mbarrier.try_wait.parity.shared::cta.b64 done, [%0], 0;\n"
                 " @!done bra WAIT_%=;\n}" :: "r"(bar) : "memory");
    for (int i = threadIdx.x; i < 64 * 64; i += blockDim.x) {
        const int r = i / 64, c = i % 64;
        const int at = swizzle128 ? r * 64 + (((c / 8) ^ (r % 8)) * 8) + c % 8 : r * 64 + c;
        out[(long long)(r0 + r) * out_cols + c0 + c] = tile[at];
    }
}
