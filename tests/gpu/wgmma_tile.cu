// A fixture for the Hopper path's data, not an emitted kernel: one warpgroup multiplies a
// 64x64 bf16 tile A (M x K, K contiguous) by a 64x64 bf16 tile B stored N x K (K contiguous),
// both brought in by the copy engine in its 128-byte swizzle mode, with four
// wgmma.m64n64k16 steps reading shared memory through descriptors built from
// dialects/layout.py's wgmma_descriptor (``desc``: its constant fields; the start address
// >> 4 is added here, and 2 (32 bytes) per k16 step). D (f32, 64 x 64) is written from the
// accumulator fragments: warp w holds rows 16w..16w+15, as mma.sync's C fragment per warp.
#include "hopper_fixture.cuh"

__device__ __forceinline__ void wgmma_step(float* d, unsigned long long a, unsigned long long b, int accumulate) {
    asm volatile("{\n .reg .pred p;\n setp.ne.b32 p, %34, 0;\n"
                 " wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31}, %32, %33, p, 1, 1, 0, 0;\n}"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]) : "l"(a), "l"(b), "r"(accumulate));
}

extern "C" __global__ void __launch_bounds__(128)
wgmma_tile(const __grid_constant__ TensorMap map_a, const __grid_constant__ TensorMap map_b, float* __restrict__ out,
           unsigned long long desc) {
    __shared__ alignas(1024) __nv_bfloat16 a[64 * 64];
    __shared__ alignas(1024) __nv_bfloat16 b[64 * 64];
    __shared__ alignas(8) unsigned long long barrier;
    const unsigned sa = static_cast<unsigned>(__cvta_generic_to_shared(a));
    const unsigned sb = static_cast<unsigned>(__cvta_generic_to_shared(b));
    const unsigned bar = barrier_init(&barrier);
    if (threadIdx.x == 0) {
        expect_bytes(bar, 2 * 64 * 64 * 2);
        tma_load(a, &map_a, 0, 0, bar);
        tma_load(b, &map_b, 0, 0, bar);
    }
    wait_phase0(bar);
    float d[32];
    #pragma unroll
    for (int i = 0; i < 32; ++i) d[i] = 0.0f;
    const unsigned long long da = desc | ((sa & 0x3FFFF) >> 4), db = desc | ((sb & 0x3FFFF) >> 4);
    asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
    #pragma unroll
    for (int k = 0; k < 4; ++k) wgmma_step(d, da + 2 * k, db + 2 * k, k);
    asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
    asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    #pragma unroll
    for (int j = 0; j < 8; ++j) {
        const int row = 16 * warp + lane / 4, col = 8 * j + 2 * (lane % 4);
        out[row * 64 + col] = d[4 * j];
        out[row * 64 + col + 1] = d[4 * j + 1];
        out[(row + 8) * 64 + col] = d[4 * j + 2];
        out[(row + 8) * 64 + col + 1] = d[4 * j + 3];
    }
}
