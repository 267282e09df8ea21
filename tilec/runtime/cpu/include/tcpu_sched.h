// The threads of a CTA as fibers of one OS thread (ucontext), run in thread order, each until it
// waits: at a barrier, an mbarrier phase, or a warp's or warpgroup's collective instruction. A
// round of the CTA's threads in which none moves on is a deadlock, reported with what each waits for.
#pragma once
#include <ucontext.h>

namespace tcpu {

struct Copy {  // a cp.async in flight: the bytes it read, where they land, its commit group
    unsigned char* to;
    unsigned char data[16];
    int group;
};

struct Fiber {
    ucontext_t context;
    bool done = false;
    const char* waiting = nullptr;  // what the thread waits for, while it does
    bool (*ready)(const void*) = nullptr;  // and whether that has come: ready(until), the
    const void* until = nullptr;            // condition living on the thread's stack
    int copies = 0, committed = 0;          // its cp.asyncs in flight (Cta::copies), groups committed
    int wgmma_committed = 0, wgmma_pending = 0;  // its wgmma groups committed, accumulators in flight
    int wgmma_reads = 0;                         // shared ranges its warpgroup's wgmmas in flight read
};

struct NamedBarrier {  // bar.sync / bar.arrive id, count (__syncthreads: id 0, every thread)
    int arrived = 0, count = 0;
    unsigned generation = 0;
};

struct Collective {  // the lanes of a warp (or the threads of a warpgroup) meeting in one instruction
    int arrived = 0;
    unsigned generation = 0;
    const char* op = nullptr;
    const void* in[128];
    void* out[128];
};

struct Mbarrier {
    bool initialised = false;
    int expected = 0, pending = 0;
    long long tx = 0;
    unsigned phase = 0;
};

struct Cta {
    int threads = 0, current = 0;
    Fiber* fibers = nullptr;
    ucontext_t scheduler;
    unsigned char* shared = nullptr;
    long long shared_bytes = 0;
    NamedBarrier barriers[16];
    Collective warps[32], warpgroups[8];
    uint32_t mbarrier_at[64];  // the shared addresses of the kernel's mbarriers, and their state
    Mbarrier mbarriers[64];
    int mbarrier_count = 0;
    Copy (*copies)[256] = nullptr;  // each thread's cp.asyncs in flight, in issue order
    void (*entry)(void**) = nullptr;
    void** args = nullptr;
};

extern Cta cta;

inline void yield() { swapcontext(&cta.fibers[cta.current].context, &cta.scheduler); }

// wait (letting the other threads run) until pred() holds; the scheduler resumes a waiting
// thread only once it does
template <class P> inline void wait_until(const char* what, P pred) {
    if (pred()) return;
    Fiber& self = cta.fibers[cta.current];
    self.waiting = what, self.until = &pred;
    self.ready = [](const void* p) { return (*static_cast<const P*>(p))(); };
    yield();
    self.waiting = nullptr, self.ready = nullptr, self.until = nullptr;
}

inline void bar_sync(int id, int count, bool wait = true) {
    if (id < 0 || id >= 16) fail("bar.sync/bar.arrive names barrier %d (0..15)", id);
    if (count <= 0 || count > cta.threads || count % 32)
        fail("barrier %d is given %d threads (a multiple of 32, at most the CTA's %d)", id, count, cta.threads);
    NamedBarrier& b = cta.barriers[id];
    if (b.arrived == 0) b.count = count;
    else if (b.count != count) fail("barrier %d: one thread counts %d threads, another %d", id, count, b.count);
    if (++b.arrived == count) {
        b.arrived = 0;
        ++b.generation;
        return;
    }
    if (!wait) return;
    const unsigned generation = b.generation;
    wait_until("a named barrier (bar.sync / __syncthreads)", [&] { return b.generation != generation; });
}

// Every thread of the group calls this with its own in/out; the last to arrive runs
// compute(in, out) for all of them (the others' in/out live on their waiting stacks).
template <class F>
inline void collective(int size, const char* op, const void* in, void* out, F compute) {
    const int tid = int(threadIdx.x);
    Collective& g = (size == 32 ? cta.warps : cta.warpgroups)[tid / size];
    if (g.arrived == 0) g.op = op;
    else if (strcmp(g.op, op) != 0)
        fail("thread %d runs %s while others of its %s run %s", tid, op, size == 32 ? "warp" : "warpgroup", g.op);
    g.in[tid % size] = in;
    g.out[tid % size] = out;
    if (++g.arrived == size) {
        compute(g.in, g.out);
        g.arrived = 0;
        ++g.generation;
        return;
    }
    const unsigned generation = g.generation;
    wait_until(op, [&] { return g.generation != generation; });
}

unsigned char* shared_base();
}  // namespace tcpu

inline void __syncthreads() { tcpu::bar_sync(0, int(blockDim.x)); }
inline void __syncwarp(unsigned mask = 0xffffffffu) {
    if (mask != 0xffffffffu) tcpu::unmodelled("__syncwarp with mask %#x (modelled: all 32 lanes)", mask);
    tcpu::collective(32, "__syncwarp", nullptr, nullptr, [](const void* const*, void* const*) {});
}

template <class T> inline T __shfl_sync(unsigned mask, T v, int src, int width = 32) {
    if (mask != 0xffffffffu || width != 32) tcpu::unmodelled("__shfl_sync with mask %#x, width %d (modelled: all 32 lanes)", mask, width);
    T r;
    tcpu::collective(32, "__shfl_sync", &v, &r, [src](const void* const* in, void* const* out) {
        for (int l = 0; l < 32; ++l) *static_cast<T*>(out[l]) = *static_cast<const T*>(in[src & 31]);
    });
    return r;
}

template <class T> inline T __shfl_xor_sync(unsigned mask, T v, int lanes, int width = 32) {
    if (mask != 0xffffffffu || width != 32) tcpu::unmodelled("__shfl_xor_sync with mask %#x, width %d (modelled: all 32 lanes)", mask, width);
    T r;
    tcpu::collective(32, "__shfl_xor_sync", &v, &r, [lanes](const void* const* in, void* const* out) {
        for (int l = 0; l < 32; ++l) *static_cast<T*>(out[l]) = *static_cast<const T*>(in[(l ^ lanes) & 31]);
    });
    return r;
}
