// The program a kernel's CPU build is: it reads a launch (tilec/runtime/cpu/launch.py writes
// it), places each tensor against a guard page (an access past its end faults), runs every CTA
// of the grid and writes the tensors back. A fault, a deadlock or an instruction the model
// refuses ends it with one line on stderr naming the CTA and thread.
#pragma once
#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>

extern "C" {
tcpu_dim3 threadIdx, blockIdx, blockDim, gridDim;
}

namespace tcpu {

Cta cta;
int launch_fd = -1, out_fd = -1, sandboxed = 0;  // tcpu_sandbox.h opens them before anything runs
static const size_t kStack = 256 * 1024;
static const size_t kPage = 4096;

struct Buffer { unsigned char* data; long long bytes; };
static Buffer buffers[64];
static int buffer_count = 0;
static unsigned char* shared_region = nullptr;

// the run's end with a message: exit status 3, the kernel failed (4: it faulted); 5, the model
// cannot run it
[[noreturn]] static void stop(int status, const char* fmt, va_list args) {
    char text[1024];
    vsnprintf(text, sizeof text, fmt, args);
    fprintf(stderr, "tilec-cpu: CTA (%u, %u, %u), thread %u: %s\n", blockIdx.x, blockIdx.y, blockIdx.z,
                 threadIdx.x, text);
    fflush(stderr);
    _exit(status);
}
void fail(const char* fmt, ...) {
    va_list args;
    va_start(args, fmt);
    stop(3, fmt, args);
}
void unmodelled(const char* fmt, ...) {
    va_list args;
    va_start(args, fmt);
    stop(5, fmt, args);
}

unsigned char* shared_base() { return cta.shared; }

// the bytes of a tensor end where a page no one may touch begins (16-byte aligned start)
static unsigned char* guarded(long long bytes) {
    const size_t span = (size_t(bytes) + 15) / 16 * 16;
    const size_t pages = (span + kPage - 1) / kPage;
    unsigned char* region = static_cast<unsigned char*>(
        mmap(nullptr, (pages + 2) * kPage, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
    if (region == MAP_FAILED) fail("cannot map %lld bytes", bytes);
    mprotect(region, kPage, PROT_NONE);
    mprotect(region + (pages + 1) * kPage, kPage, PROT_NONE);
    return region + (pages + 1) * kPage - span;
}

static void on_fault(int, siginfo_t* info, void*) {
    const unsigned char* at = static_cast<const unsigned char*>(info->si_addr);
    char where[256] = "outside every tensor and the shared memory";
    for (int i = 0; i < buffer_count; ++i) {
        const Buffer& b = buffers[i];
        if (at >= b.data + b.bytes && at < b.data + b.bytes + kPage + 16)
            snprintf(where, sizeof where, "%lld bytes past the end of argument buffer %d", (long long)(at - b.data - b.bytes), i);
        else if (at < b.data && at + 2 * kPage >= b.data)
            snprintf(where, sizeof where, "%lld bytes before argument buffer %d", (long long)(b.data - at), i);
    }
    if (cta.shared && at >= cta.shared && at < cta.shared + cta.shared_bytes + 2 * kPage)
        snprintf(where, sizeof where, "past the kernel's %lld bytes of shared memory", cta.shared_bytes);
    char text[512];
    const int n = snprintf(text, sizeof text, "tilec-cpu: CTA (%u, %u, %u), thread %u: a memory access %s\n",
                                blockIdx.x, blockIdx.y, blockIdx.z, threadIdx.x, where);
    if (write(2, text, size_t(n)) < 0) {}
    _exit(4);
}

static void fiber_main() {
    cta.entry(cta.args);
    cta.fibers[cta.current].done = true;
    swapcontext(&cta.fibers[cta.current].context, &cta.scheduler);
}

static bool highest_first = false;  // the order the scheduler tries the threads in (run's argument)

static void run_cta(int threads) {
    cta.threads = threads;
    memset(cta.warps, 0, sizeof cta.warps);
    memset(cta.warpgroups, 0, sizeof cta.warpgroups);
    for (NamedBarrier& b : cta.barriers) b = NamedBarrier();
    cta.mbarrier_count = 0;
    memset(cta.shared, 0xA5, size_t(cta.shared_bytes));  // shared memory starts as garbage, not zeros
    static Fiber fibers[1024];
    static char* stacks = nullptr;
    if (!stacks) stacks = static_cast<char*>(malloc(1024 * kStack));
    static Copy (*copies)[256] = nullptr;
    if (!copies) copies = static_cast<Copy (*)[256]>(malloc(sizeof(Copy[256]) * size_t(threads)));
    cta.fibers = fibers, cta.copies = copies;
    for (int t = 0; t < threads; ++t) {
        Fiber& f = fibers[t];
        f = Fiber();
        getcontext(&f.context);
        f.context.uc_stack.ss_sp = stacks + size_t(t) * kStack;
        f.context.uc_stack.ss_size = kStack;
        f.context.uc_link = &cta.scheduler;
        makecontext(&f.context, fiber_main, 0);
    }
    // always the lowest-numbered thread that can go on (or, highest_first, the highest): a warp
    // released at a barrier runs on before the threads behind it catch up, as a GPU may run it
    // (a barrier too narrow shows); the other order runs the producer warps ahead instead
    for (int live = threads; live;) {
        int t = threads;
        for (int i = 0; i < threads; ++i) {
            const int u = highest_first ? threads - 1 - i : i;
            if (!fibers[u].done && (!fibers[u].ready || fibers[u].ready(fibers[u].until))) {
                t = u;
                break;
            }
        }
        if (t == threads) {
            char waits[700] = "";
            size_t at = 0;
            for (int u = 0; u < threads && at < 600; ++u)
                if (!fibers[u].done) at += size_t(snprintf(waits + at, sizeof waits - at, " %d: %s;", u, fibers[u].waiting));
            threadIdx = tcpu_dim3{0, 0, 0};
            fail("the CTA deadlocks, %d threads waiting:%s", live, waits);
        }
        cta.current = t;
        threadIdx = tcpu_dim3{unsigned(t), 0, 0};
        swapcontext(&cta.scheduler, &fibers[t].context);
        if (fibers[t].done) --live;
    }
}

typedef void (*Entry)(void**);
struct Named { const char* name; Entry entry; };

static void read_exact(void* to, size_t bytes) {
    unsigned char* at = static_cast<unsigned char*>(to);
    while (bytes) {
        const ssize_t n = read(launch_fd, at, bytes);
        if (n <= 0) fail("the launch file ends early");
        at += n, bytes -= size_t(n);
    }
}

static long long read_word() {
    long long v;
    read_exact(&v, 8);
    return v;
}

static void write_exact(const unsigned char* from, size_t bytes) {
    while (bytes) {
        const ssize_t n = write(out_fd, from, bytes);
        if (n <= 0) fail("cannot write the outputs");
        from += n, bytes -= size_t(n);
    }
}

// launch file: "TCPU0001", kernel name, grid x y z, threads, shared bytes, buffers (bytes, data),
// parameters: kind 0 a buffer's address, 1 a value, 2 a tensor map (buffer, 15 words)
static int run(const Named* entries, int count, int argc, char** argv) {
    if (argc != 4 || (strcmp(argv[3], "lowest-first") && strcmp(argv[3], "highest-first"))) {
        fprintf(stderr, "usage: %s LAUNCH OUT lowest-first|highest-first\n", argv[0]);
        return 2;
    }
    highest_first = !strcmp(argv[3], "highest-first");
    if (launch_fd < 0 || out_fd < 0) { fprintf(stderr, "tilec-cpu: cannot open %s or %s\n", argv[1], argv[2]); return 2; }
    if (!sandboxed) { fprintf(stderr, "tilec-cpu: the run could not confine itself (seccomp); nothing ran\n"); return 2; }
    char magic[8];
    read_exact(magic, 8);
    if (memcmp(magic, "TCPU0001", 8)) fail("not a launch file");
    char name[256] = "";
    const long long length = read_word();
    if (length < 1 || length > 255) fail("a kernel name of %lld bytes", length);
    read_exact(name, size_t(length));
    const long long grid[3] = {read_word(), read_word(), read_word()};
    const long long threads = read_word(), shared = read_word();
    if (threads < 1 || threads > 1024 || shared < 0 || shared > (1 << 20)) fail("a launch of %lld threads, %lld bytes", threads, shared);
    const long long count_ = read_word();
    if (count_ < 0 || count_ > 64) fail("a launch of %lld tensors (at most 64)", count_);
    for (long long n = 0; n < count_; ++n) {
        const long long bytes = read_word();
        if (bytes < 0) fail("a tensor of %lld bytes", bytes);
        Buffer b{guarded(bytes), bytes};
        read_exact(b.data, size_t(bytes));
        buffers[buffer_count++] = b;
    }
    const long long params = read_word();
    if (params < 0 || params > 64) fail("a launch of %lld parameters (at most 64)", params);
    struct alignas(64) Slot { unsigned long long words[16]; };  // a tensor map's alignment
    static Slot storage[64];
    static void* args[64];
    for (long long i = 0; i < params; ++i) {
        unsigned long long* slot = storage[i].words;
        const long long kind = read_word();
        if (kind == 0 || kind == 2) {
            const long long k = read_word();
            if (k < 0 || k >= buffer_count) fail("parameter %lld names buffer %lld", i, k);
            slot[0] = (unsigned long long)buffers[k].data;
            if (kind == 2)
                for (int w = 1; w < 15; ++w) slot[w] = (unsigned long long)read_word();
        } else {
            slot[0] = (unsigned long long)read_word();
        }
        args[i] = slot;
    }
    Entry entry = nullptr;
    for (int i = 0; i < count; ++i)
        if (!strcmp(name, entries[i].name)) entry = entries[i].entry;
    if (!entry) fail("no kernel %s in this build", name);
    const size_t span = (size_t(shared) + 1023) / 1024 * 1024;
    shared_region = guarded((long long)span);
    cta.shared = shared_region, cta.shared_bytes = shared;
    static char alternate[1 << 16];
    stack_t alt{alternate, 0, sizeof alternate};
    sigaltstack(&alt, nullptr);
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_sigaction = on_fault;
    action.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigaction(SIGSEGV, &action, nullptr);
    sigaction(SIGBUS, &action, nullptr);
    cta.entry = entry, cta.args = args;
    blockDim = tcpu_dim3{unsigned(threads), 1, 1};
    gridDim = tcpu_dim3{unsigned(grid[0]), unsigned(grid[1]), unsigned(grid[2])};
    for (long long z = 0; z < grid[2]; ++z)
        for (long long y = 0; y < grid[1]; ++y)
            for (long long x = 0; x < grid[0]; ++x) {
                blockIdx = tcpu_dim3{unsigned(x), unsigned(y), unsigned(z)};
                run_cta(int(threads));
            }
    for (int i = 0; i < buffer_count; ++i) write_exact(buffers[i].data, size_t(buffers[i].bytes));
    return 0;
}

}  // namespace tcpu
