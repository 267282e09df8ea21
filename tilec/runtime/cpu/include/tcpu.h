// tilec's CPU model of the GPU (tilec/runtime/cpu): what the CUDA tilec emits needs of CUDA's
// language, headers and instructions, for running that CUDA text on the CPU.
//
// Every thread of a CTA is a fiber of one OS thread (tcpu_sched.h); CTAs run one after another.
// A device function of the emitted prelude that holds inline PTX is replaced by a call of the
// model of that instruction (tcpu_ptx.h); everything else of the kernel's text is compiled as it
// is, so what runs here is the index, address and mask arithmetic that ships.
#pragma once
// C's headers only: the build links no C++ library (-nostdlib++), so it needs no libc++.
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tcpu_sandbox.h"

#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define __launch_bounds__(...)
#define __restrict__ __restrict
#define __grid_constant__
#define __shared__
#define __align__(n) __attribute__((aligned(n)))

struct tcpu_dim3 { unsigned x, y, z; };
extern "C" {
extern tcpu_dim3 threadIdx, blockIdx, blockDim, gridDim;
}

namespace tcpu {
[[noreturn]] void fail(const char* fmt, ...);        // the kernel is wrong: a fault, a deadlock, a misuse
[[noreturn]] void unmodelled(const char* fmt, ...);  // the model has no rule for what the kernel does
unsigned char* shared_base();
inline float bf16_to_float(uint16_t b) { uint32_t u = uint32_t(b) << 16; float f; memcpy(&f, &u, 4); return f; }
inline uint16_t float_to_bf16(float f) {  // round to nearest, ties to even; NaN stays NaN
    uint32_t u; memcpy(&u, &f, 4);
    if ((u & 0x7fffffffu) > 0x7f800000u) return 0x7fc0;
    return uint16_t((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
}
inline float half_to_float(uint16_t h) { _Float16 v; memcpy(&v, &h, 2); return float(v); }
inline uint16_t float_to_half(float f) { _Float16 v = (_Float16)f; uint16_t h; memcpy(&h, &v, 2); return h; }
}  // namespace tcpu

struct __nv_bfloat16 {
    uint16_t __x;
    __nv_bfloat16() = default;
    __nv_bfloat16(float f) : __x(tcpu::float_to_bf16(f)) {}
    operator float() const { return tcpu::bf16_to_float(__x); }
};
struct __half {
    uint16_t __x;
    __half() = default;
    __half(float f) : __x(tcpu::float_to_half(f)) {}
    operator float() const { return tcpu::half_to_float(__x); }
};
struct __nv_bfloat162 { __nv_bfloat16 x, y; };
struct __half2 { __half x, y; };
struct alignas(16) uint4 { unsigned x, y, z, w; };
struct alignas(8) uint2 { unsigned x, y; };
struct alignas(8) float2 { float x, y; };
struct alignas(16) float4 { float x, y, z, w; };

inline __nv_bfloat16 __float2bfloat16_rn(float f) { return __nv_bfloat16(f); }
inline float __bfloat162float(__nv_bfloat16 b) { return float(b); }
inline __half __float2half_rn(float f) { return __half(f); }
inline float __half2float(__half h) { return float(h); }
inline float __int_as_float(int i) { float f; memcpy(&f, &i, 4); return f; }
inline int __float_as_int(float f) { int i; memcpy(&i, &f, 4); return i; }
inline float __expf(float x) { return expf(x); }
inline float __logf(float x) { return logf(x); }
inline float __fdividef(float a, float b) { return a / b; }
inline float rsqrtf(float x) { return 1.0f / sqrtf(x); }
// CUDA's min and max of two numbers, in their usual arithmetic type
template <class A, class B> inline auto min(A a, B b) -> decltype(a + b) {
    typedef decltype(a + b) T;
    return T(a) < T(b) ? T(a) : T(b);
}
template <class A, class B> inline auto max(A a, B b) -> decltype(a + b) {
    typedef decltype(a + b) T;
    return T(a) < T(b) ? T(b) : T(a);
}

// global atomics, fences and L2 accesses: the threads of a CTA are fibers of one OS thread that
// switch only at barriers and waits, and CTAs run one after another, so a read-modify-write is
// whole and every write is seen by the next read (the memory order they keep on a GPU is theirs)
inline float atomicAdd(float* at, float v) { const float old = *at; *at = old + v; return old; }
inline unsigned atomicAdd(unsigned* at, unsigned v) { const unsigned old = *at; *at = old + v; return old; }
inline void __threadfence() {}
inline float __ldcg(const float* at) { return *at; }
inline float2 __ldcg(const float2* at) { return *at; }
inline void __stcg(float2* at, float2 v) { *at = v; }

inline size_t __cvta_generic_to_shared(const void* p) {
    const unsigned char* at = static_cast<const unsigned char*>(p);
    return size_t(at - tcpu::shared_base());
}

#include "tcpu_sched.h"
#include "tcpu_ptx.h"
#include "tcpu_hopper.h"
