// A fixture for tilec.runtime.tensor_map, not an emitted kernel: each CTA copies one 64 x
// box_cols bf16 box of the tensor with cp.async.bulk.tensor (completing on an mbarrier) and
// writes it to out at the box's position, reading shared memory as the map's swizzle mode is
// stated to store it: element offset x = r * box_cols + c at x ^ ((x >> 3) & (((1 << bits) - 1) << 3)),
// i.e. dialects/layout.py's Swizzle(bits, 3, 3): the 16-byte chunk index XORed with the row's
// place in the span (bits 1, 2, 3: the 32-, 64- and 128-byte modes; 0: none).
#include "hopper_fixture.cuh"

extern "C" __global__ void __launch_bounds__(128)
tma_copy(const __grid_constant__ TensorMap map, __nv_bfloat16* __restrict__ out, int out_cols, int box_cols,
         int bits) {
    __shared__ alignas(1024) __nv_bfloat16 tile[64 * 64];
    __shared__ alignas(8) unsigned long long barrier;
    const int r0 = blockIdx.y * 64, c0 = blockIdx.x * box_cols;
    const unsigned bar = barrier_init(&barrier);
    if (threadIdx.x == 0) {
        expect_bytes(bar, 64 * box_cols * 2);
        tma_load(tile, &map, c0, r0, bar);
    }
    wait_phase0(bar);
    for (int i = threadIdx.x; i < 64 * box_cols; i += blockDim.x) {
        const int r = i / box_cols, c = i % box_cols;
        const int at = i ^ ((i >> 3) & (((1 << bits) - 1) << 3));
        out[(long long)(r0 + r) * out_cols + c0 + c] = tile[at];
    }
}
