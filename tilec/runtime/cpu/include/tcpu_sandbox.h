// A package's CUDA text is data: run on the CPU it is native code, so the program confines itself
// before any of it can run. The first function of .preinit_array (this header is the first thing
// in the program's only translation unit, source.py puts it there; glibc runs .preinit_array
// before every constructor and initialiser) opens the launch file and the output file named on
// the command line, then installs a seccomp filter: from then on the process may read and write
// the descriptors it has, map, protect and free memory, handle its own signals and exit; any other
// system call (open, exec, socket, ...) kills it (SIGSYS), which the runtime reports as such.
#pragma once
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#if defined(__x86_64__)
#define TCPU_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define TCPU_ARCH AUDIT_ARCH_AARCH64
#else
#error "the CPU run's sandbox knows x86_64 and aarch64"
#endif

namespace tcpu {
extern int launch_fd, out_fd, sandboxed;
}

#define TCPU_ALLOW(nr) BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (nr), 0, 1), BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW)

static void tcpu_confine(int argc, char** argv, char**) {
    if (argc != 4) return;  // main says how it is called, and runs nothing
    tcpu::launch_fd = open(argv[1], O_RDONLY | O_CLOEXEC);
    tcpu::out_fd = open(argv[2], O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    struct sock_filter filter[] = {
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, TCPU_ARCH, 1, 0),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
        TCPU_ALLOW(SYS_read), TCPU_ALLOW(SYS_write), TCPU_ALLOW(SYS_close), TCPU_ALLOW(SYS_lseek),
        TCPU_ALLOW(SYS_mmap), TCPU_ALLOW(SYS_munmap), TCPU_ALLOW(SYS_mprotect), TCPU_ALLOW(SYS_brk),
        TCPU_ALLOW(SYS_madvise), TCPU_ALLOW(SYS_rt_sigprocmask), TCPU_ALLOW(SYS_rt_sigaction),
        TCPU_ALLOW(SYS_rt_sigreturn), TCPU_ALLOW(SYS_sigaltstack), TCPU_ALLOW(SYS_exit),
        TCPU_ALLOW(SYS_exit_group), TCPU_ALLOW(SYS_getrandom),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
    };
    struct sock_fprog program = {(unsigned short)(sizeof filter / sizeof filter[0]), filter};
    if (tcpu::launch_fd >= 0 && tcpu::out_fd >= 0 && prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0 &&
        prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &program) == 0)
        tcpu::sandboxed = 1;
}

__attribute__((section(".preinit_array"), used)) static void (*const tcpu_first)(int, char**, char**) = tcpu_confine;
