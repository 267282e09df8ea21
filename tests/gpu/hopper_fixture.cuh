// What the Hopper fixtures (tma_copy.cu, wgmma_tile.cu) share: a tensor map passed by value,
// an mbarrier the copy engine completes, bulk tensor copies onto it, and the wait for phase 0.
// tests/gpu/build.py puts this text in place of the fixture's #include.
#include <cuda_bf16.h>

struct alignas(64) TensorMap { unsigned long long words[16]; };

// one thread inits the barrier for one arrival; every thread of the block passes the sync
__device__ __forceinline__ unsigned barrier_init(unsigned long long* barrier) {
    const unsigned bar = static_cast<unsigned>(__cvta_generic_to_shared(barrier));
    if (threadIdx.x == 0) {
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" :: "r"(bar));
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    }
    __syncthreads();
    return bar;
}

__device__ __forceinline__ void expect_bytes(unsigned bar, unsigned bytes) {
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" :: "r"(bar), "r"(bytes) : "memory");
}

__device__ __forceinline__ void tma_load(void* dst, const TensorMap* map, int c0, int r0, unsigned bar) {
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];"
                 :: "r"(static_cast<unsigned>(__cvta_generic_to_shared(dst))),
                    "l"(reinterpret_cast<unsigned long long>(map)), "r"(c0), "r"(r0), "r"(bar) : "memory");
}

__device__ __forceinline__ void wait_phase0(unsigned bar) {
    asm volatile("{\n .reg .pred done;\n WAIT_%=:\n mbarrier.try_wait.parity.shared::cta.b64 done, [%0], 0;\n"
                 " @!done bra WAIT_%=;\n}" :: "r"(bar) : "memory");
}
