// Models of the PTX instructions tilec's prelude wraps, by the PTX ISA: what each reads and
// writes, and for the warp-wide ones which lane holds which element. Copies complete at once
// (cp.async, the copy engine), so a kernel's waits are kept by its barriers, not by timing.
#pragma once

namespace tcpu {

inline unsigned char* shared_at(uint32_t address, int bytes, const char* what) {
    if ((long long)address + bytes > cta.shared_bytes)
        fail("%s at shared address %u (+%d bytes), past the kernel's %lld bytes of shared memory", what, address,
             bytes, cta.shared_bytes);
    return cta.shared + address;
}

inline uint32_t shared_of(const void* p, int bytes, const char* what) {
    const unsigned char* at = static_cast<const unsigned char*>(p);
    if (at < cta.shared || at + bytes > cta.shared + cta.shared_bytes)
        fail("%s: %p is not in the kernel's %lld bytes of shared memory", what, p, cta.shared_bytes);
    return uint32_t(at - cta.shared);
}

inline uint16_t half_word(uint32_t r, int hi) { return uint16_t(hi ? r >> 16 : r & 0xffff); }
inline uint32_t pair(uint16_t lo, uint16_t hi) { return uint32_t(lo) | (uint32_t(hi) << 16); }
inline float element(uint16_t bits, bool bf16) { return bf16 ? bf16_to_float(bits) : half_to_float(bits); }

// --- sm_80: cp.async, ldmatrix, mma.sync (sm_90a's copy engine, mbarriers and wgmma: tcpu_hopper.h)
// cp.async reads its source when issued and lands in shared memory only when a wait retires its
// group (cp.async.wait_group N: all but the newest N committed groups), so a read of a stage
// the kernel has not waited for sees what was there before
inline void cp_async16(void* dst, const void* src, int bytes) {
    if (bytes < 0 || bytes > 16) fail("cp.async of %d bytes (0..16)", bytes);
    if (shared_of(dst, 16, "cp.async's destination") % 16) fail("cp.async into a shared address not 16-byte aligned");
    Fiber& self = cta.fibers[cta.current];
    if (self.copies == 256) unmodelled("more than 256 cp.asyncs in flight in one thread");
    Copy& c = cta.copies[cta.current][self.copies++];
    c.to = static_cast<unsigned char*>(dst), c.group = self.committed;
    memcpy(c.data, src, size_t(bytes));
    memset(c.data + bytes, 0, size_t(16 - bytes));
}
inline void cp_async_commit() { ++cta.fibers[cta.current].committed; }
template <int N> inline void cp_async_wait() {
    Fiber& self = cta.fibers[cta.current];
    Copy* mine = cta.copies[cta.current];
    int kept = 0;
    for (int i = 0; i < self.copies; ++i) {
        if (mine[i].group < self.committed - N) memcpy(mine[i].to, mine[i].data, 16);
        else mine[kept++] = mine[i];
    }
    self.copies = kept;
}

// lanes 8i..8i+7 give the rows of matrix i; lane l receives of matrix i the pair at row l/4,
// columns 2(l%4).. (transposed: rows 2(l%4), 2(l%4)+1 of column l/4)
template <int MATRICES, bool TRANS> inline void ldmatrix(uint32_t* r, const void* p) {
    struct In { const void* row; };  // lanes past 8 * MATRICES give addresses ldmatrix ignores
    In in{p};
    collective(32, TRANS ? "ldmatrix.trans" : "ldmatrix", &in, r, [](const void* const* ins, void* const* outs) {
        for (int i = 0; i < MATRICES; ++i) {
            uint16_t m[8][8];
            for (int row = 0; row < 8; ++row) {
                const uint32_t at = shared_of(static_cast<const In*>(ins[8 * i + row])->row, 16, "ldmatrix's row address");
                if (at % 16) fail("ldmatrix's row address %u is not 16-byte aligned", at);
                memcpy(m[row], shared_at(at, 16, "ldmatrix"), 16);
            }
            for (int l = 0; l < 32; ++l) {
                uint32_t* out = static_cast<uint32_t*>(outs[l]);
                out[i] = TRANS ? pair(m[2 * (l % 4)][l / 4], m[2 * (l % 4) + 1][l / 4])
                               : pair(m[l / 4][2 * (l % 4)], m[l / 4][2 * (l % 4) + 1]);
            }
        }
    });
}
inline void ldmatrix_x4(uint32_t* r, const void* p) { ldmatrix<4, false>(r, p); }
inline void ldmatrix_x4_trans(uint32_t* r, const void* p) { ldmatrix<4, true>(r, p); }
inline void ldmatrix_x2(uint32_t* r, const void* p) { ldmatrix<2, false>(r, p); }
inline void ldmatrix_x2_trans(uint32_t* r, const void* p) { ldmatrix<2, true>(r, p); }

// d (16x8, f32) += a (16x16, row) * b (16x8, col): lane l holds rows l/4 (+8), columns 2(l%4) (+1, +8)
template <bool BF16> inline void mma_m16n8k16(float* d, const uint32_t* a, const uint32_t* b) {
    struct In { const uint32_t* a; const uint32_t* b; };
    In in{a, b};
    collective(32, BF16 ? "mma.sync.m16n8k16.bf16" : "mma.sync.m16n8k16.f16", &in, d,
               [](const void* const* ins, void* const* outs) {
        float A[16][16], B[16][8];
        for (int l = 0; l < 32; ++l) {
            const In* x = static_cast<const In*>(ins[l]);
            const int r = l / 4, c = 2 * (l % 4);
            for (int h = 0; h < 2; ++h) {
                A[r][c + h] = element(half_word(x->a[0], h), BF16);
                A[r + 8][c + h] = element(half_word(x->a[1], h), BF16);
                A[r][c + 8 + h] = element(half_word(x->a[2], h), BF16);
                A[r + 8][c + 8 + h] = element(half_word(x->a[3], h), BF16);
                B[c + h][r] = element(half_word(x->b[0], h), BF16);
                B[c + 8 + h][r] = element(half_word(x->b[1], h), BF16);
            }
        }
        for (int l = 0; l < 32; ++l) {
            float* D = static_cast<float*>(outs[l]);
            const int r = l / 4, c = 2 * (l % 4);
            for (int e = 0; e < 4; ++e) {
                const int row = r + 8 * (e / 2), col = c + e % 2;
                float s = D[e];
                for (int k = 0; k < 16; ++k) s += A[row][k] * B[k][col];
                D[e] = s;
            }
        }
    });
}
inline void mma_bf16(float* d, const uint32_t* a, const uint32_t* b) { mma_m16n8k16<true>(d, a, b); }
inline void mma_f16(float* d, const uint32_t* a, const uint32_t* b) { mma_m16n8k16<false>(d, a, b); }

// ex2.approx.ftz.f32 of fma(y, k, -b log2(e)): denormal inputs and results flushed to zero
inline float ftz(float x) { return fabsf(x) < 1.17549435e-38f ? 0.0f : x; }
inline float exp_diff_scaled(float y, float b, float k) {
    return ftz(exp2f(ftz(fmaf(y, k, -(b * 1.4426950408889634f)))));
}

inline void wgmma_commit();  // tcpu_hopper.h
inline void wgmma_wait(long long n);

// inline PTX written in a kernel's own body: its text with the operands' values
inline void ptx(const char* text, long long a0 = 0, long long a1 = 0) {
    char op[64] = {0};
    sscanf(text, " %63[a-z_.:0-9]", op);
    auto operand = [&](const char* s, long long* v) {  // "%0", "%1" or a number
        if (s[0] == '%') { *v = s[1] == '0' ? a0 : a1; return true; }
        return sscanf(s, "%lld", v) == 1;
    };
    if (!strcmp(op, "bar.sync") || !strcmp(op, "bar.arrive")) {
        char x[16] = {0}, y[16] = {0};
        long long id, count;
        if (sscanf(text + strlen(op), " %15[^,], %15[^;];", x, y) != 2 || !operand(x, &id) || !operand(y, &count))
            unmodelled("no model of `%s`", text);
        bar_sync(int(id), int(count), op[4] == 's');
        return;
    }
    if (!strcmp(op, "wgmma.commit_group.sync.aligned")) {
        wgmma_commit();
        return;
    }
    if (!strcmp(op, "wgmma.wait_group.sync.aligned")) {
        long long n;
        if (sscanf(text + strlen(op), " %lld;", &n) != 1 || n < 0) unmodelled("no model of `%s`", text);
        wgmma_wait(n);
        return;
    }
    static const char* const quiet[] = {"wgmma.fence.sync.aligned", "setmaxnreg.inc.sync.aligned.u32",
                                        "setmaxnreg.dec.sync.aligned.u32", "fence.mbarrier_init.release.cluster",
                                        "fence.proxy.async.shared::cta"};
    for (const char* q : quiet)  // ordering and register hints
        if (!strcmp(op, q)) return;
    unmodelled("no model of the PTX `%s`", text);
}

}  // namespace tcpu
