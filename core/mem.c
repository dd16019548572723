/* SPDX-License-Identifier: MIT */
/*
 * Reading and writing program memory without trusting the pointer: a bad
 * address gives -EFAULT, never a crash in sysgate.  process_vm_readv on
 * our own process does the checking in the kernel.
 */
#include "sg.h"
#include "maps.h"
#include "signal_arch.h"

struct sg_iovec {
	const void *base;
	unsigned long len;
};

/*
 * The task whose memory process_vm_readv/writev reach: this thread, by
 * its tid, not the process's id, which names the main thread: once that
 * thread has called exit (the others live on), its pid has no memory and
 * every read failed.
 */
static int self_task(void)
{
	struct sg_thread *t = sg_self();

	return t ? t->tid : (int)sg_sc0(SG_NR_gettid);
}

/* The thread a call came from: this one, or under -m ptrace the traced
 * thread whose call the tracer is handling. */
static int task_of(const struct sysgate_sys *s)
{
	return sg.tracer && s ? s->tid : self_task();
}

/*
 * Copies without a system call (arch nofault.S): a fault inside them is
 * turned into -EFAULT by moving the interrupted pc to the fixup, so a bad
 * program pointer or a file mapping cut short by truncation never becomes
 * a signal the program sees.
 */
extern char sg_nofault_begin[], sg_nofault_end[], sg_nofault_fixup[];
long sg_nofault_copy(void *dst, const void *src, size_t len) SG_HIDDEN;
long sg_nofault_probe(const void *addr) SG_HIDDEN;

/*
 * SIGSEGV and SIGBUS claimed since start-up (sg_mem_claim_faults): no
 * thread's mask blocks them in the kernel since (a claimed signal is
 * taken out of every mask the program sets), so this process's own
 * memory is copied without a system call, a fault being the copy's
 * EFAULT, where process_vm_readv is a system call and a page walk under
 * the memory map's lock, which other threads' mmap and faults hold.
 * Not while the patch lock blocks every signal.
 */
static int faults_from_start;

static int nofault_ok(int pid)
{
	struct sg_thread *t;

	if (!__atomic_load_n(&faults_from_start, __ATOMIC_RELAXED))
		return 0;
	t = sg_self();
	return t && t->tid == pid && !t->patch_locks;
}

/*
 * The tracer of -m ptrace where process_vm_readv/writev fail (ENOSYS: a
 * seccomp filter or a fault injector in front of it, as strace's legacy
 * tests set up; EPERM): the tracee's /proc/PID/mem, which its tracer may
 * read and write, as strace falls back to PTRACE_PEEKDATA.
 */
static long mem_file_rw(long nr, int pid, void *local, const void *remote,
			size_t len)
{
	char path[40], num[24];
	long fd, ret;

	sg_strjoin(path, sizeof(path), "/proc/", sg_utoa(num + sizeof(num), pid),
		   "/mem");
	fd = sg_sc4(SG_NR_openat, -100, (long)path,
		    (nr == SG_NR_process_vm_readv ? 0 /* O_RDONLY */ :
						    2 /* O_RDWR */) |
			    02000000 /* O_CLOEXEC */, 0);
	if (fd < 0)
		return -14;	/* EFAULT */
	ret = nr == SG_NR_process_vm_readv ?
		      sg_sc4(SG_NR_pread64, fd, (long)local, len, (long)remote) :
		      sg_sc4(SG_NR_pwrite64, fd, (long)local, len, (long)remote);
	sg_sc1(SG_NR_close, fd);
	/* (an unmapped first page is EIO there) */
	return ret < 0 ? -14 : ret;
}

static long vm_rw_pid(long nr, int pid, void *local, const void *remote,
		      size_t len)
{
	struct sg_iovec l = { local, len }, r = { remote, len };
	long ret;

	if (!len)
		return 0;
	if (nofault_ok(pid))
		return (nr == SG_NR_process_vm_readv ?
				sg_nofault_copy(local, remote, len) :
				sg_nofault_copy((void *)remote, local, len)) ?
			       -14 : (long)len;
	ret = sg_sc6(nr, pid, (long)&l, 1, (long)&r, 1, 0);
	if ((ret == -38 || ret == -1) && sg.tracer && pid != self_task())
		return mem_file_rw(nr, pid, local, remote, len);
	/* qemu-user has no process_vm_readv/writev: within our own process
	 * copy directly (a bad pointer then faults, as it would natively in
	 * the program; said in README). */
	if (ret == -38 && pid == self_task()) {
		char *d = nr == SG_NR_process_vm_readv ? local : (void *)remote;
		const char *s = nr == SG_NR_process_vm_readv ? remote : local;
		size_t i;

		for (i = 0; i < len; i++)
			d[i] = s[i];
		ret = len;
	}
	return ret;
}

static long vm_rw(long nr, void *local, const void *remote, size_t len)
{
	return vm_rw_pid(nr, self_task(), local, remote, len);
}

/*
 * The main thread's stack as it was mapped, readable and writable, when
 * the loader started sysgate: where a program's sigaction and signal-set
 * arguments nearly always are.  Copies inside it skip the kernel
 * (process_vm_readv costs about a microsecond; a shell makes dozens of
 * such calls in every child).  Any call of the program that unmaps,
 * moves, re-protects or maps over part of it ends that: in loader mode
 * sysgate sees each of them before the kernel runs it
 * (sg_stack_changed).  (Another thread unmapping the main stack while a
 * call reads it would fault here where the kernel says EFAULT.)
 */
static unsigned long stack_lo, stack_hi;
static int stack_known;

void sg_stack_init(long maps_fd)
{
	unsigned long sp = (unsigned long)__builtin_frame_address(0);
	struct sg_mapping m;
	char name[16];

	if (!sg.loader || maps_fd < 0 ||
	    sg_maps_query(maps_fd, sp, &m, name, sizeof(name)) < 0 ||
	    m.lo > sp || sg_strcmp(name, "[stack]") ||
	    (m.prot & (PROT_R | PROT_W)) != (PROT_R | PROT_W))
		return;
	stack_lo = m.lo;
	stack_hi = m.hi;
	__atomic_store_n(&stack_known, 1, __ATOMIC_RELEASE);
}

void sg_stack_changed(unsigned long lo, unsigned long hi)
{
	if (lo < stack_hi && hi > stack_lo)
		__atomic_store_n(&stack_known, 0, __ATOMIC_RELEASE);
}

static int on_stack(const void *p, size_t len)
{
	unsigned long a = (unsigned long)p;

	return __atomic_load_n(&stack_known, __ATOMIC_ACQUIRE) &&
	       a >= stack_lo && a < stack_hi && len <= stack_hi - a;
}

long sg_read_safe(void *dst, const void *src, size_t len)
{
	long r;

	if (on_stack(src, len)) {
		memcpy(dst, src, len);
		return len;
	}
	r = vm_rw(SG_NR_process_vm_readv, dst, src, len);

	return r == (long)len ? r : (r < 0 ? r : -14);
}

long sg_write_safe(void *dst, const void *src, size_t len)
{
	long r;

	if (on_stack(dst, len)) {
		memcpy(dst, src, len);
		return len;
	}
	r = vm_rw(SG_NR_process_vm_writev, (void *)src, dst, len);

	return r == (long)len ? r : (r < 0 ? r : -14);
}

/* Copy a string of at most max-1 bytes; returns its length (max-1 when
 * truncated, with *trunc set) or -EFAULT. */
__attribute__((hot))
static long read_str(int pid, char *dst, const char *src, size_t max,
		     int *trunc)
{
	size_t done = 0;

	if (trunc)
		*trunc = 0;
	if (!max)
		return 0;
	while (done < max - 1) {
		/* Read up to the end of src's page so a string that ends
		 * before an unmapped page is still read. */
		unsigned long addr = (unsigned long)src + done;
		size_t chunk = 4096 - (addr & 4095), i;
		long r;

		if (chunk > max - 1 - done)
			chunk = max - 1 - done;
		r = vm_rw_pid(SG_NR_process_vm_readv, pid, dst + done,
			      (const void *)addr, chunk);
		if (r <= 0) {
			dst[done] = 0;
			return -14;
		}
		for (i = 0; i < (size_t)r; i++) {
			if (!dst[done + i]) {
				return done + i;
			}
		}
		done += r;
	}
	dst[done] = 0;
	if (trunc) {
		char c;

		/* (a string that runs into unmapped memory before its NUL
		 * cannot be read: strace prints its address) */
		if (vm_rw_pid(SG_NR_process_vm_readv, pid, &c, src + done,
			      1) != 1)
			return -14;
		*trunc = c != 0;
	}
	return done;
}

/*
 * The start of each of n strings, at most width-1 bytes, NUL-terminated at
 * peeks + i * width: one process_vm_readv for up to PEEK_BATCH strings.
 * An exec's environment read one string at a time cost a call per
 * variable (a shell's PATH search paid it for every directory it tried:
 * a sixth of a pyenv shim's time under sysgate).  No remote piece crosses
 * a page, so only a bad pointer fails the batch; a string cut at its
 * page's end, or a failed batch, is read alone.  0 or -EFAULT.
 */
#define PEEK_BATCH 64
long sg_peek_strs(char *const *strs, unsigned long n, char *peeks,
		  size_t width)
{
	struct sg_iovec l[PEEK_BATCH], r[PEEK_BATCH];
	int pid = self_task();
	unsigned long at, k, i;

	for (at = 0; at < n; at += k) {
		long want = 0, got;

		for (k = 0; k < PEEK_BATCH && at + k < n; k++) {
			unsigned long a = (unsigned long)strs[at + k];
			size_t len = 4096 - (a & 4095);

			if (len > width - 1)
				len = width - 1;
			l[k] = (struct sg_iovec){ peeks + (at + k) * width,
						  len };
			r[k] = (struct sg_iovec){ (const void *)a, len };
			want += len;
		}
		if (nofault_ok(pid)) {
			/* (a piece that faults fails the batch, as below) */
			for (i = 0, got = 0; i < k && got >= 0; i++)
				got = sg_nofault_copy((void *)l[i].base,
						      r[i].base, l[i].len) ?
					      -14 : got + (long)l[i].len;
		} else {
			got = sg_sc6(SG_NR_process_vm_readv, pid, (long)l, k,
				     (long)r, k, 0);
		}
		for (i = 0; i < k; i++) {
			char *d = peeks + (at + i) * width;
			size_t len = l[i].len, j = 0;

			while (got == want && j < len && d[j])
				j++;
			if (got == want && (j < len || len == width - 1))
				d[len] = 0;
			else if (read_str(pid, d, strs[at + i], width, 0) < 0)
				return -14;
		}
	}
	return 0;
}

long sg_read_str_safe2(char *dst, const char *src, size_t max, int *trunc)
{
	return read_str(self_task(), dst, src, max, trunc);
}

long sg_read_str_safe(char *dst, const char *src, size_t max)
{
	return sg_read_str_safe2(dst, src, max, 0);
}

__attribute__((hot))
long sysgate_read_mem(const struct sysgate_sys *s, void *dst, const void *src,
		      size_t len)
{
	return vm_rw_pid(SG_NR_process_vm_readv, task_of(s), dst, src, len);
}

long sysgate_read_str(const struct sysgate_sys *s, char *dst, const void *src,
		      size_t max, int *truncated)
{
	return read_str(task_of(s), dst, src, max, truncated);
}

long sysgate_write_mem(const struct sysgate_sys *s, void *dst, const void *src,
		       size_t len)
{
	return vm_rw_pid(SG_NR_process_vm_writev, task_of(s), (void *)src, dst,
			 len);
}

static int on_fault(int sig, struct sg_siginfo *info, void *uc)
{
	unsigned long *pc = sg_arch_uc_pc(uc);

	(void)sig;
	if (info->si_code <= 0 || *pc < (unsigned long)sg_nofault_begin ||
	    *pc >= (unsigned long)sg_nofault_end)
		return 0;
	*pc = (unsigned long)sg_nofault_fixup;
	return 1;
}

static void claim_faults(void)
{
	static int claimed;

	if (__atomic_load_n(&claimed, __ATOMIC_ACQUIRE))
		return;
	sg_signal_claim(11 /* SIGSEGV */, on_fault);
	sg_signal_claim(7 /* SIGBUS */, on_fault);
	__atomic_store_n(&claimed, 1, __ATOMIC_RELEASE);
}

void sg_mem_claim_faults(void)
{
	claim_faults();
	__atomic_store_n(&faults_from_start, 1, __ATOMIC_RELAXED);
}

long sysgate_copy_nofault(void *dst, const void *src, size_t len)
{
	claim_faults();
	return sg_nofault_copy(dst, src, len);
}

long sysgate_probe_nofault(const void *addr)
{
	claim_faults();
	return sg_nofault_probe(addr);
}

long sg_mem_open(int *own)
{
	long fd = sg_fd_mem();

	*own = fd < 0;
	if (*own)
		fd = sg_proc_self_open("mem",
				       02 | 02000000 /* O_RDWR | O_CLOEXEC */);
	return fd;
}

int sg_poke_code(unsigned long addr, const void *buf, unsigned long len)
{
	int own;
	long fd = sg_mem_open(&own);
	int r;

	if (fd < 0)
		return -1;
	r = sg_attach_note(addr, buf, len) < 0 ||
	    sg_sc4(SG_NR_pwrite64, fd, (long)buf, len, addr) != (long)len ?
		    -1 : 0;
	if (own)
		sg_sc1(SG_NR_close, fd);
	sg_arch_flush_code(addr, addr + len);
	return r;
}
