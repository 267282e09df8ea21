// Models of sm_90a's instructions (tcpu_ptx.h's conventions): mbarriers with their phases and
// transaction bytes, the copy engine's boxes through a tensor map (zeros outside the tensor, the
// swizzle applied to shared addresses) and wgmma reading its operands through descriptors by
// PTX's canonical layouts. Copies complete at once; a phase completes when its arrivals and bytes
// have; a wgmma's accumulator when a wgmma.wait_group retires its group.
#pragma once

namespace tcpu {

inline Mbarrier& mbarrier(uint32_t bar, const char* what) {
    if (bar % 8) fail("%s: mbarrier at shared address %u, not 8-byte aligned", what, bar);
    shared_at(bar, 8, what);
    int i = 0;
    while (i < cta.mbarrier_count && cta.mbarrier_at[i] != bar) ++i;
    if (i == cta.mbarrier_count) {
        if (i == 64) unmodelled("%s: more than 64 mbarriers", what);
        cta.mbarrier_at[i] = bar, cta.mbarriers[i] = Mbarrier(), ++cta.mbarrier_count;
    }
    Mbarrier& m = cta.mbarriers[i];
    if (!m.initialised && strcmp(what, "mbarrier.init") != 0)
        fail("%s on the mbarrier at shared address %u before mbarrier.init", what, bar);
    return m;
}
inline void mbar_settle(Mbarrier& m) {
    if (m.pending == 0 && m.tx == 0) {
        ++m.phase;
        m.pending = m.expected;
    }
}
inline void mbar_init(uint32_t bar, int arrivals) {
    Mbarrier& m = mbarrier(bar, "mbarrier.init");
    if (arrivals < 1) fail("mbarrier.init with %d arrivals", arrivals);
    m = Mbarrier{true, arrivals, arrivals, 0, 0};
}
inline void mbar_arrive(uint32_t bar) {
    Mbarrier& m = mbarrier(bar, "mbarrier.arrive");
    if (--m.pending < 0) fail("mbarrier at shared address %u: more arrivals than its %d", bar, m.expected);
    mbar_settle(m);
}
inline void mbar_expect(uint32_t bar, uint32_t bytes) {
    mbarrier(bar, "mbarrier.arrive.expect_tx").tx += bytes;
    mbar_arrive(bar);
}
inline void mbar_complete(uint32_t bar, long long bytes) {
    Mbarrier& m = mbarrier(bar, "a copy's complete_tx");
    m.tx -= bytes;
    if (m.pending == 0) mbar_settle(m);
}
inline void mbar_wait(uint32_t bar, int parity) {
    Mbarrier& m = mbarrier(bar, "mbarrier.try_wait.parity");
    wait_until("an mbarrier phase", [&] { return int(m.phase & 1) != (parity & 1); });
}

// A tensor map as the runtime's CPU launch encodes it (tilec/runtime/cpu/launch.py): words
// 0 address, 1 rank, 2 element bytes, 3 swizzle bytes, 4.. dims, 9.. byte strides, 14 the box (9 bits a dim)
struct Map {
    unsigned char* address;
    int rank, element, swizzle;
    long long dims[5], strides[5], box[5];
};
inline Map map_of(const void* map) {
    const unsigned long long* w = static_cast<const unsigned long long*>(map);
    Map m;
    m.address = reinterpret_cast<unsigned char*>(w[0]);
    m.rank = int(w[1]), m.element = int(w[2]), m.swizzle = int(w[3]);
    if (m.rank < 1 || m.rank > 5) fail("a tensor map of rank %d", m.rank);
    for (int i = 0; i < 5; ++i) {
        m.dims[i] = (long long)w[4 + i];
        m.strides[i] = (long long)w[9 + i];
        m.box[i] = (long long)((w[14] >> (9 * i)) & 511);
    }
    return m;
}
// the swizzle the copy engine and wgmma apply to a shared address: 16-byte chunk ^= row in 8
inline uint32_t swizzled(uint32_t address, int mode) {
    return mode ? address ^ (((address >> 7) & uint32_t(mode / 16 - 1)) << 4) : address;
}
// each element of the box at coords c: f(shared address, global address or null outside the tensor)
template <class F> inline void each_box_element(const Map& m, uint32_t start, const int* c, int rank, F f) {
    if (rank != m.rank) fail("a %d-d copy through a tensor map of rank %d", rank, m.rank);
    long long count = 1;
    for (int i = 0; i < rank; ++i) count *= m.box[i];
    for (long long n = 0; n < count; ++n) {
        long long rest = n, offset = 0;
        bool inside = true;
        for (int i = 0; i < rank; ++i) {
            const long long at = c[i] + rest % m.box[i];
            rest /= m.box[i];
            inside = inside && at >= 0 && at < m.dims[i];
            offset += at * m.strides[i];
        }
        f(swizzled(uint32_t(start + n * m.element), m.swizzle), inside ? m.address + offset : nullptr);
    }
}
// The shared bytes the wgmmas in flight read: each warpgroup's (kept by its first thread, whose
// waits are the warpgroup's) from the issue until the wgmma.wait_group that retires its group.
// A copy-engine load into them before then is the race an mbarrier ring's releases prevent: a
// stage handed back while a multiply still reads it.
struct InFlightRead { uint32_t lo, hi; int group; };
constexpr int kInFlightReads = 64;
inline InFlightRead* in_flight_reads(int thread) {
    static InFlightRead table[1024][kInFlightReads];
    return table[thread];
}
inline void check_not_in_flight(uint32_t lo, uint32_t hi, const char* what) {
    for (int t = 0; t < cta.threads; t += 128)
        for (int i = 0; i < cta.fibers[t].wgmma_reads; ++i) {
            const InFlightRead& r = in_flight_reads(t)[i];
            if (lo < r.hi && r.lo < hi)
                fail("%s writes shared bytes %u..%u, which a wgmma of warpgroup %d still reads (in flight until the "
                     "wgmma.wait_group that retires it)", what, lo, hi - 1, t / 128);
        }
}

inline void tma_load(void* dst, const void* map, const int* c, int rank, uint32_t bar) {
    const Map m = map_of(map);
    long long bytes = m.element;
    for (int i = 0; i < rank; ++i) bytes *= m.box[i];
    const uint32_t start = shared_of(dst, int(bytes), "a copy-engine load's destination");
    if (start % 128) fail("a copy-engine load into shared address %u, not 128-byte aligned", start);
    uint32_t lo = UINT32_MAX, hi = 0;
    each_box_element(m, start, c, rank, [&](uint32_t at, const unsigned char*) {
        lo = at < lo ? at : lo, hi = at + uint32_t(m.element) > hi ? at + uint32_t(m.element) : hi;
    });
    check_not_in_flight(lo, hi, "a copy-engine load");
    each_box_element(m, start, c, rank, [&](uint32_t at, const unsigned char* from) {
        unsigned char* to = shared_at(at, m.element, "a copy-engine load");
        if (from) memcpy(to, from, size_t(m.element));
        else memset(to, 0, size_t(m.element));
    });
    mbar_complete(bar, bytes);
}
inline void tma_store(const void* map, const void* src, const int* c, int rank) {
    const Map m = map_of(map);
    long long bytes = m.element;
    for (int i = 0; i < rank; ++i) bytes *= m.box[i];
    const uint32_t start = shared_of(src, int(bytes), "a copy-engine store's source");
    if (start % 128) fail("a copy-engine store from shared address %u, not 128-byte aligned", start);
    each_box_element(m, start, c, rank, [&](uint32_t at, unsigned char* to) {
        if (to) memcpy(to, shared_at(at, m.element, "a copy-engine store"), size_t(m.element));
    });
}
inline void tma_load_2d(void* dst, const void* map, int c0, int c1, uint32_t bar) {
    const int c[] = {c0, c1}; tma_load(dst, map, c, 2, bar);
}
inline void tma_load_3d(void* dst, const void* map, int c0, int c1, int c2, uint32_t bar) {
    const int c[] = {c0, c1, c2}; tma_load(dst, map, c, 3, bar);
}
inline void tma_load_4d(void* dst, const void* map, int c0, int c1, int c2, int c3, uint32_t bar) {
    const int c[] = {c0, c1, c2, c3}; tma_load(dst, map, c, 4, bar);
}
inline void tma_store_2d(const void* map, const void* src, int c0, int c1) {
    const int c[] = {c0, c1}; tma_store(map, src, c, 2);
}
inline void tma_store_3d(const void* map, const void* src, int c0, int c1, int c2) {
    const int c[] = {c0, c1, c2}; tma_store(map, src, c, 3);
}
inline void tma_store_4d(const void* map, const void* src, int c0, int c1, int c2, int c3) {
    const int c[] = {c0, c1, c2, c3}; tma_store(map, src, c, 4);
}
inline void bulk_commit() {}
template <int N> inline void bulk_wait_read() {}
inline void fence_async_shared() {}

// An operand of wgmma in shared memory, from its descriptor: start address, leading and stride
// byte offsets, swizzle mode; element (mn, k) by PTX's canonical K-major and MN-major layouts
struct Operand {
    uint32_t start, leading, stride;
    int mode;
    bool k_major;
};
inline Operand operand_of(unsigned long long desc, bool k_major, const char* which) {
    static const int modes[4] = {0, 128, 64, 32};
    if ((desc >> 49) & 7) unmodelled("wgmma's %s descriptor has a base offset (%llu); modelled: 0", which, (desc >> 49) & 7);
    Operand o{uint32_t(desc & 0x3fff) << 4, uint32_t((desc >> 16) & 0x3fff) << 4, uint32_t((desc >> 32) & 0x3fff) << 4,
              modes[desc >> 62], k_major};
    if (!o.mode) unmodelled("wgmma's %s descriptor has no swizzle (modelled: 32-, 64- and 128-byte modes)", which);
    return o;
}
inline uint32_t operand_address(const Operand& o, int mn, int k) {
    const int per_row = o.mode / 2, shift = __builtin_ctz(unsigned(per_row));
    const uint32_t offset = o.k_major
        ? uint32_t((mn >> 3) * o.stride + (mn & 7) * o.mode + k * 2)
        : uint32_t((mn >> shift) * o.leading + (k >> 3) * o.stride + (k & 7) * o.mode + (mn & (per_row - 1)) * 2);
    return swizzled(o.start + offset, o.mode);
}
inline uint16_t operand_element(const Operand& o, int mn, int k) {
    uint16_t v;
    memcpy(&v, shared_at(operand_address(o, mn, k), 2, "a wgmma operand"), 2);
    return v;
}

// wgmma is asynchronous: a thread's accumulator registers belong to the instruction until a
// wgmma.wait_group retires its group (PTX ISA, wgmma.mma_async). The model multiplies at the
// issue (its operands read then) into a result kept aside, writes NaN into the registers, and
// the wait that retires the group writes the result back: code that reads an accumulator
// before its wait reads NaN, and the output shows it. A wgmma onto an accumulator still in
// flight (the k steps of one group, or a later group onto the same registers) continues from
// the result kept aside.
struct PendingWgmma { float* d; int count, group; float v[128]; };
constexpr int kPendingWgmma = 8;
inline PendingWgmma* pending_wgmma() {
    static PendingWgmma table[1024][kPendingWgmma];
    return table[cta.current];
}
inline float* wgmma_issue(float* d, int count) {
    Fiber& self = cta.fibers[cta.current];
    PendingWgmma* mine = pending_wgmma();
    for (int i = 0; i < self.wgmma_pending; ++i)
        if (mine[i].d == d) {
            mine[i].group = self.wgmma_committed;
            return mine[i].v;
        }
    if (self.wgmma_pending == kPendingWgmma) unmodelled("more than %d wgmma accumulators in flight", kPendingWgmma);
    PendingWgmma& p = mine[self.wgmma_pending++];
    p.d = d, p.count = count, p.group = self.wgmma_committed;
    memcpy(p.v, d, sizeof(float) * size_t(count));
    return p.v;
}
inline void wgmma_commit() { ++cta.fibers[cta.current].wgmma_committed; }
// what a warpgroup's wgmma reads of an operand in shared memory (rows x k16), kept in flight
inline void reads_in_flight(const Operand& o, int rows) {
    Fiber& self = cta.fibers[cta.current];
    uint32_t lo = UINT32_MAX, hi = 0;
    for (int mn = 0; mn < rows; ++mn)
        for (int k = 0; k < 16; ++k) {
            const uint32_t at = operand_address(o, mn, k);
            lo = at < lo ? at : lo, hi = at + 2 > hi ? at + 2 : hi;
        }
    if (self.wgmma_reads == kInFlightReads) unmodelled("more than %d wgmma operands in flight", kInFlightReads);
    in_flight_reads(cta.current)[self.wgmma_reads++] = InFlightRead{lo, hi, self.wgmma_committed};
}
inline void wgmma_wait(long long n) {  // every group but the newest n retires
    Fiber& self = cta.fibers[cta.current];
    InFlightRead* reads = in_flight_reads(cta.current);
    for (int i = 0; i < self.wgmma_reads;)
        if (reads[i].group < self.wgmma_committed - n) reads[i] = reads[--self.wgmma_reads];
        else ++i;
    PendingWgmma* mine = pending_wgmma();
    for (int i = 0; i < self.wgmma_pending;)
        if (mine[i].group < self.wgmma_committed - n) {
            memcpy(mine[i].d, mine[i].v, sizeof(float) * size_t(mine[i].count));
            mine[i] = mine[--self.wgmma_pending];
        } else {
            ++i;
        }
}

// wgmma.mma_async m64nNk16, f32 += bf16/f16: the 128 threads of a warpgroup; thread t (warp
// w = t/32, lane l) holds rows 16w + l/4 (+8) and columns 8j + 2(l%4) (+1) in d[4j..4j+3].
// A from shared memory (descriptor) or, A_REGS, from registers as mma.sync's A fragment.
template <int N, bool BF16, bool A_REGS>
inline void wgmma(float* d, const uint32_t* a_regs, unsigned long long a_desc, unsigned long long b_desc,
                  bool scale_d, bool a_trans, bool b_trans) {
    struct In { const uint32_t* a; unsigned long long a_desc, b_desc; };
    In in{a_regs, a_desc, b_desc};
    float* result = wgmma_issue(d, N / 2);
    for (int i = 0; i < N / 2; ++i) d[i] = NAN;
    if (int(threadIdx.x) % 128 == 0) {  // its shared operands, read until the group retires
        reads_in_flight(operand_of(b_desc, !b_trans, "B"), N);
        if (!A_REGS) reads_in_flight(operand_of(a_desc, !a_trans, "A"), 64);
    }
    collective(128, BF16 ? "wgmma.m64k16.bf16" : "wgmma.m64k16.f16", &in, result, [=](const void* const* ins, void* const* outs) {
        const In* first = static_cast<const In*>(ins[0]);
        for (int t = 1; t < 128; ++t) {
            const In* x = static_cast<const In*>(ins[t]);
            if (x->b_desc != first->b_desc || (!A_REGS && x->a_desc != first->a_desc))
                fail("wgmma: thread %d of the warpgroup gives other descriptors than thread 0", t);
        }
        static float A[64][16], B[16][N];
        const Operand b = operand_of(first->b_desc, !b_trans, "B");
        for (int k = 0; k < 16; ++k)
            for (int n = 0; n < N; ++n) B[k][n] = element(operand_element(b, n, k), BF16);
        if (A_REGS) {
            for (int t = 0; t < 128; ++t) {
                const uint32_t* r = static_cast<const In*>(ins[t])->a;
                const int row = 16 * (t / 32) + (t % 32) / 4, c = 2 * (t % 4);
                for (int h = 0; h < 2; ++h) {
                    A[row][c + h] = element(half_word(r[0], h), BF16);
                    A[row + 8][c + h] = element(half_word(r[1], h), BF16);
                    A[row][c + 8 + h] = element(half_word(r[2], h), BF16);
                    A[row + 8][c + 8 + h] = element(half_word(r[3], h), BF16);
                }
            }
        } else {
            const Operand a = operand_of(first->a_desc, !a_trans, "A");
            for (int m = 0; m < 64; ++m)
                for (int k = 0; k < 16; ++k) A[m][k] = element(operand_element(a, m, k), BF16);
        }
        for (int t = 0; t < 128; ++t) {
            float* D = static_cast<float*>(outs[t]);
            const int row = 16 * (t / 32) + (t % 32) / 4, c = 2 * (t % 4);
            for (int j = 0; j < N / 8; ++j)
                for (int e = 0; e < 4; ++e) {
                    const int m = row + 8 * (e / 2), n = 8 * j + c + e % 2;
                    float s = scale_d ? D[4 * j + e] : 0.0f;
                    for (int k = 0; k < 16; ++k) s += A[m][k] * B[k][n];
                    D[4 * j + e] = s;
                }
        }
    });
}

}  // namespace tcpu
