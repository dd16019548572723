/* SPDX-License-Identifier: MIT */
/*
 * sysgate -p PID[,PID...]: hook a running process in-process, then leave
 * it as it was (doc/attach.md).
 *
 * Attaching: every thread is seized and interrupted (PTRACE_SEIZE,
 * PTRACE_INTERRUPT), so none runs while code changes.  In one of them the
 * CLI makes system calls (its registers set to a `syscall` instruction
 * and single-stepped): it maps build/sysgate-attach, the runtime linked
 * without libc, segment by segment from the file, relocates it, maps a
 * scratch block (a request, struct sg_attach_args, and a stack) and makes
 * the thread call the image's entry, which starts the runtime as init.c
 * would and patches the code (core/attach.c).  The request lists the
 * addresses no rewritten range may contain: each thread's pc, the call
 * a thread is stopped in (the kernel restarts an interrupted call from
 * its instruction), and code addresses on the threads' stacks.  Then
 * every register is put back and ptrace lets go: the program runs at
 * in-process hooking speed.  Its trace comes through a pipe the runtime
 * made, which the CLI reads (through /proc/PID/fd) and copies to its
 * stderr or -o file; the -c counts are in a memfd the CLI maps the same way.
 *
 * Detaching (SIGINT, SIGTERM, SIGHUP, --detach-after=SECONDS): the threads
 * are stopped again, the runtime puts back every byte it wrote (verified),
 * stops hooking and gives back the signal actions; the CLI turns syscall
 * user dispatch off and clears GS in each thread, unmaps the image when no
 * thread is inside it, prints the -c table and lets go.
 *
 * Nothing here runs in the program: a refusal (no permission, another
 * tracer, a set-ID process, sysgate already there) comes before anything
 * is written, and a failure after that undoes what was mapped before the
 * threads go.
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <dirent.h>
#include <sys/mman.h>
#include <sys/ptrace.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <unistd.h>
#include "sg.h"
#include "options.h"
#include "attach.h"
#include "cli.h"
#include "attach_elf.h"
#include "attach_hook.h"

#define MAX_THREADS 1024
#define MAX_TARGETS 16
#define MAX_PROCS 64		/* with the children -f follows */
#define SCRATCH_STACK (256UL << 10)
#define STACK_SCAN (16UL << 10)
#define PAGE 4096UL
#define UP(x) (((x) + PAGE - 1) & ~(PAGE - 1))
#define DOWN(x) ((x) & ~(PAGE - 1))

struct range {
	unsigned long lo, hi;
};

struct thr {
	pid_t tid;
	int seized;		/* by us, or by the kernel at a clone */
	int stopped;
	int sig;			/* signal to deliver when let go */
	struct user_regs_struct regs;	/* as stopped */
};

struct target {
	pid_t pid;
	int nthr;
	struct thr thr[MAX_THREADS];
	int pidfd, out_fd, state_fd;
	int file_fd;		/* -ff: its own FILE.<pid>, else -1 */
	int gone;
	int exited;		/* (-f: its children may still hold the pipe) */
	unsigned long pipe_ino;	/* its output pipe, also held by -f's children */
	unsigned long gadget;	/* a syscall instruction to borrow */
	unsigned long base, span, entry;
	unsigned long vdso, hwcap2;
	int sud_used;
	struct range old[16];	/* images left by earlier detaches */
	int nold;
	struct range hook[SG_ATTACH_HOOKS_MAX];	/* --hook libraries */
	struct range relro[SG_ATTACH_HOOKS_MAX];	/* (read-only once started) */
	int nhook;
};

/* (~15 MiB: allocated by sg_cli_attach, not in every run's address
 * space, which a tight RLIMIT_AS must hold) */
static struct target *targets;
static int ntargets;
static char image_path[PATH_MAX];
static struct sg_elf image;
static const char *const *hook_specs;	/* --hook=PATH[:ARGS] */
static int nhook_specs;

static void say(const struct target *t, const char *what, const char *why)
{
	fprintf(stderr, "sysgate: attach %d: %s%s%s\n", t->pid, what,
		why ? ": " : "", why ? why : "");
}

/* ---- reading the process -------------------------------------------- */

static int read_file(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n, got = 0;

	if (fd < 0)
		return -1;
	while ((size_t)got < size - 1 &&
	       (n = read(fd, buf + got, size - 1 - got)) > 0)
		got += n;
	close(fd);
	buf[got] = 0;
	return (int)got;
}

static long status_field(pid_t pid, const char *key, long which)
{
	static char buf[8192];
	char path[64], *p;
	long v = -1, i;

	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	if (read_file(path, buf, sizeof(buf)) < 0)
		return -1;
	p = strstr(buf, key);
	if (!p)
		return -1;
	p += strlen(key);
	for (i = 0; i <= which; i++)
		v = strtol(p, &p, 10);
	return v;
}

static int peek(pid_t pid, unsigned long addr, void *buf, size_t len)
{
	struct iovec l = { buf, len }, r = { (void *)addr, len };

	return process_vm_readv(pid, &l, 1, &r, 1, 0) == (ssize_t)len ? 0 : -1;
}

static int poke(pid_t pid, unsigned long addr, const void *buf, size_t len)
{
	struct iovec l = { (void *)buf, len }, r = { (void *)addr, len };

	if (process_vm_writev(pid, &l, 1, &r, 1, 0) == (ssize_t)len)
		return 0;
	/* (read-only pages: through /proc/PID/mem, as a debugger does) */
	{
		char path[64];
		int fd;
		ssize_t n;

		snprintf(path, sizeof(path), "/proc/%d/mem", pid);
		fd = open(path, O_RDWR | O_CLOEXEC);
		if (fd < 0)
			return -1;
		n = pwrite(fd, buf, len, (off_t)addr);
		close(fd);
		return n == (ssize_t)len ? 0 : -1;
	}
}

/* The process's executable mappings (and where its vdso is); with anon,
 * only those of no file (sysgate's stubs among them). */
static int code_ranges(pid_t pid, struct range *r, int max, struct range *vdso,
		       int anon)
{
	static char buf[1 << 20];
	char path[64], *line, *save;
	int n = 0;

	snprintf(path, sizeof(path), "/proc/%d/maps", pid);
	if (read_file(path, buf, sizeof(buf)) < 0)
		return -1;
	vdso->lo = vdso->hi = 0;
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(0, "\n", &save)) {
		unsigned long lo, hi;
		char prot[8];

		if (sscanf(line, "%lx-%lx %7s", &lo, &hi, prot) != 3)
			continue;
		if (strstr(line, "[vdso]")) {
			vdso->lo = lo;
			vdso->hi = hi;
		}
		if (prot[2] == 'x' && n < max &&
		    (!anon || (!strchr(line, '/') && !strchr(line, '[')))) {
			r[n].lo = lo;
			r[n].hi = hi;
			n++;
		}
	}
	return n;
}

static int in_ranges(unsigned long a, const struct range *r, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (a >= r[i].lo && a < r[i].hi)
			return 1;
	return 0;
}

/*
 * sysgate there already (preloaded, started by its loader, attached)?
 * An image left behind by a detach (a thread was in a call made through
 * it) has its first page made inaccessible: that one is inert.  Its
 * ranges go to old[] (a thread may still be in there).
 */
static int has_sysgate(pid_t pid, struct range *old, int *nold)
{
	static char buf[1 << 20];
	char path[64], *line, *save;
	int live = 0;

	*nold = 0;
	snprintf(path, sizeof(path), "/proc/%d/maps", pid);
	if (read_file(path, buf, sizeof(buf)) < 0)
		return 0;
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(0, "\n", &save)) {
		unsigned long lo, hi, off;
		char prot[8];

		if (strstr(line, "/libsysgate.so") ||
		    strstr(line, "/sysgate-loader"))
			live = 1;
		if (!strstr(line, "/sysgate-attach") ||
		    sscanf(line, "%lx-%lx %7s %lx", &lo, &hi, prot, &off) != 4)
			continue;
		if (!off && prot[0] == 'r')
			live = 1;
		else if (*nold < 16) {
			old[*nold].lo = lo;
			old[*nold].hi = hi;
			(*nold)++;
		}
	}
	return live;
}

static void read_auxv(struct target *t)
{
	unsigned long v[512];
	char path[64];
	int fd, i;
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/%d/auxv", t->pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	n = fd < 0 ? -1 : read(fd, v, sizeof(v));
	if (fd >= 0)
		close(fd);
	for (i = 0; i + 1 < n / 8; i += 2) {
		if (v[i] == AT_SYSINFO_EHDR)
			t->vdso = v[i + 1];
		if (v[i] == AT_HWCAP2)
			t->hwcap2 = v[i + 1];
	}
}

/* ---- stopping and starting threads ---------------------------------- */

static struct thr *thr_of(struct target *t, pid_t tid)
{
	int i;

	for (i = 0; i < t->nthr; i++)
		if (t->thr[i].tid == tid)
			return &t->thr[i];
	return 0;
}

static struct thr *add_thr(struct target *t, pid_t tid)
{
	struct thr *h = thr_of(t, tid);

	if (h || t->nthr == MAX_THREADS)
		return h;
	h = &t->thr[t->nthr++];
	memset(h, 0, sizeof(*h));
	h->tid = tid;
	return h;
}

static void drop_thr(struct target *t, struct thr *h)
{
	*h = t->thr[--t->nthr];
}

/*
 * Wait for one thread's next stop: 1 stopped, 0 gone.  A clone it
 * reports brings a thread of its own (attached by the kernel); a signal
 * that stops it is kept, to be delivered when it is let go.
 */
static int wait_stop(struct target *t, struct thr *h, int *trap)
{
	int st;

	*trap = 0;
	for (;;) {
		pid_t w = waitpid(h->tid, &st, __WALL);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0 || WIFEXITED(st) || WIFSIGNALED(st))
			return 0;
		if (!WIFSTOPPED(st))
			continue;
		if (st >> 16 == PTRACE_EVENT_CLONE) {
			unsigned long child;

			struct thr *c;

			if (!ptrace(PTRACE_GETEVENTMSG, h->tid, 0, &child) &&
			    (c = add_thr(t, (pid_t)child)))
				c->seized = 1;
		} else if (!(st >> 16) && WSTOPSIG(st) == SIGTRAP) {
			*trap = 1;
		} else if (!(st >> 16) && WSTOPSIG(st) != SIGTRAP) {
			h->sig = WSTOPSIG(st);	/* signal-delivery stop */
		}
		return 1;
	}
}

static int list_threads(struct target *t)
{
	char path[64];
	struct dirent *d;
	DIR *dir;
	int added = 0;

	snprintf(path, sizeof(path), "/proc/%d/task", t->pid);
	dir = opendir(path);
	if (!dir)
		return -1;
	while ((d = readdir(dir))) {
		pid_t tid = atoi(d->d_name);

		if (tid > 0 && !thr_of(t, tid) && add_thr(t, tid))
			added++;
	}
	closedir(dir);
	return added;
}

/* Seize and stop every thread; -errno of the first seize if none could
 * be (the process as a whole cannot be traced).  All are interrupted
 * before any is waited for: each stops when next scheduled, together. */
static int stop_all(struct target *t)
{
	int i, trap, seized = 0, again = 1;

	t->nthr = 0;
	while (again) {
		again = 0;
		if (list_threads(t) < 0)
			return -ESRCH;
		for (i = 0; i < t->nthr; i++) {
			struct thr *h = &t->thr[i];

			if (h->seized)
				continue;
			if (ptrace(PTRACE_SEIZE, h->tid, 0,
				   PTRACE_O_TRACECLONE) < 0) {
				if (errno == EPERM && !seized)
					return -EPERM;
				drop_thr(t, h);	/* exited meanwhile */
				i--;
				continue;
			}
			h->seized = 1;
			seized++;
			ptrace(PTRACE_INTERRUPT, h->tid, 0, 0);
		}
		/* (threads the kernel attached at a clone stop by
		 * themselves) */
		for (i = 0; i < t->nthr; i++) {
			struct thr *h = &t->thr[i];

			if (h->stopped || !h->seized)
				continue;
			if (!wait_stop(t, h, &trap)) {
				drop_thr(t, h);
				i--;
				continue;
			}
			h->stopped = 1;
			if (ptrace(PTRACE_GETREGS, h->tid, 0, &h->regs) < 0)
				return -errno;
			again = 1;	/* new threads may have come */
		}
	}
	return t->nthr ? 0 : -ESRCH;
}

static void let_go(struct target *t)
{
	int i;

	for (i = 0; i < t->nthr; i++) {
		struct thr *h = &t->thr[i];

		ptrace(PTRACE_SETREGS, h->tid, 0, &h->regs);
		ptrace(PTRACE_DETACH, h->tid, 0, h->sig);
	}
	t->nthr = 0;
}

/* Is thread h in sysgate's code (an image, one of the n ranges img, or a
 * stub: any code of no file, to be safe), or about to return into an
 * image? */
static int inside_image(const struct target *t, const struct thr *h,
			const struct range *img, int n,
			const struct range *anon, int nanon)
{
	static unsigned long stack[STACK_SCAN / 8];
	unsigned long k, got = 0;

	if (in_ranges(h->regs.rip, img, n) ||
	    in_ranges(h->regs.rip, anon, nanon))
		return 1;
	k = PAGE - (h->regs.rsp & (PAGE - 1));
	if (peek(t->pid, h->regs.rsp & ~7UL, stack, k) == 0)
		got = k / 8;
	for (k = 0; k < got; k++)
		if (in_ranges(stack[k], img, n))
			return 1;
	return 0;
}

/*
 * A SIGSYS of the runtime's for thread h, about to be delivered (si):
 * the trap of syscall user dispatch (the call it was making, caught at
 * its entry) or the runtime's request to arm it.  Delivered after
 * detaching, it would meet the program's own action (by default, death):
 * the request is dropped, and the call is made again, natively, from its
 * instruction.  1 if it was one of those.
 */
static int drop_sigsys(const struct target *t, struct thr *h,
		       const siginfo_t *si)
{
	if (si->si_code == 2 /* SYS_USER_DISPATCH */) {
		h->regs.rax = si->si_syscall;
		h->regs.orig_rax = -1;
		h->regs.rip -= 2;	/* (syscall) */
		return 1;
	}
	return si->si_code == SI_TKILL && si->si_pid == t->pid;
}

/* Thread h stopped to take a signal: a SIGSYS of the runtime's is not
 * delivered (its siginfo is read before any call is made in the thread). */
static void untrap(const struct target *t, struct thr *h)
{
	siginfo_t si;

	if (h->sig == SIGSYS && !ptrace(PTRACE_GETSIGINFO, h->tid, 0, &si) &&
	    drop_sigsys(t, h, &si))
		h->sig = 0;
}

/* Run regs in thread h until it traps (int3 or the single step): 0, or
 * -1 if it died or stopped with something else. */
static int run_until_trap(struct target *t, struct thr *h,
			  struct user_regs_struct *r, int step)
{
	int trap;

	if (ptrace(PTRACE_SETREGS, h->tid, 0, r) < 0)
		return -1;
	for (;;) {
		if (ptrace(step ? PTRACE_SINGLESTEP : PTRACE_CONT, h->tid, 0,
			   0) < 0)
			return -1;
		if (!wait_stop(t, h, &trap))
			return -1;
		if (trap)
			break;
		/* A SIGSYS of the runtime's queued before the thread
		 * stopped comes now: it never goes to the program. */
		untrap(t, h);
		/* Our code faulted: never the program's to see. */
		if (h->sig == SIGSEGV || h->sig == SIGBUS || h->sig == SIGILL ||
		    h->sig == SIGFPE) {
			h->sig = 0;
			return -1;
		}
	}
	return ptrace(PTRACE_GETREGS, h->tid, 0, r) < 0 ? -1 : 0;
}

/* A system call made by thread h at the borrowed instruction. */
static long remote_call(struct target *t, struct thr *h, long nr, long a0,
			long a1, long a2, long a3, long a4, long a5)
{
	struct user_regs_struct r = h->regs;

	r.rax = nr;
	r.orig_rax = -1;	/* no restart of the call it was stopped in */
	r.rdi = a0; r.rsi = a1; r.rdx = a2;
	r.r10 = a3; r.r8 = a4; r.r9 = a5;
	r.rip = t->gadget;
	if (run_until_trap(t, h, &r, 1) < 0)
		return -EIO;
	return (long)r.rax;
}

/* A `syscall` in the vdso (or other code) to borrow, before any patch. */
static int find_gadget(struct target *t)
{
	static struct range code[4096];
	struct range vdso;
	static unsigned char buf[1 << 16];
	int n = code_ranges(t->pid, code, 4096, &vdso, 0), i;

	for (i = -1; i < n; i++) {
		struct range r = i < 0 ? vdso : code[i];
		unsigned long a, len;

		for (a = r.lo; a < r.hi; a += len) {
			unsigned long k;

			len = r.hi - a < sizeof(buf) ? r.hi - a : sizeof(buf);
			if (peek(t->pid, a, buf, len) < 0)
				break;
			for (k = 0; k + 1 < len; k++)
				if (buf[k] == 0x0f && buf[k + 1] == 0x05) {
					t->gadget = a + k;
					return 0;
				}
		}
	}
	return -1;
}

/* ---- mapping ELF objects: the image, hook libraries -------------------- */

static int prot_of(unsigned int f)
{
	return (f & PF_R ? PROT_READ : 0) | (f & PF_W ? PROT_WRITE : 0) |
	       (f & PF_X ? PROT_EXEC : 0);
}

/* The writable segment rw, relocated in a copy here, then written there. */
static int relocate(struct target *t, const struct sg_elf *f,
		    unsigned long base, const Elf64_Phdr *rw,
		    struct sg_elf_resolver *res)
{
	unsigned char *seg = malloc(rw->p_filesz + 1);
	int ok = seg && sg_elf_read(f, rw->p_offset, seg, rw->p_filesz) == 0 &&
		 sg_elf_relocate(f, base, rw, seg, res) == 0 &&
		 poke(t->pid, base + rw->p_vaddr, seg, rw->p_filesz) == 0;

	free(seg);
	return ok ? 0 : -1;
}

/* One PT_LOAD of f at base, from the file the process opened as fd. */
static int map_segment(struct target *t, struct thr *h, const struct sg_elf *f,
		       const Elf64_Phdr *p, unsigned long base, long fd,
		       struct sg_elf_resolver *res)
{
	static const unsigned char zero[PAGE];
	unsigned long start = base + DOWN(p->p_vaddr);
	unsigned long fend = base + p->p_vaddr + p->p_filesz;
	unsigned long mend = base + p->p_vaddr + p->p_memsz;

	if ((unsigned long)remote_call(t, h, SYS_mmap, start, UP(fend) - start,
				       PROT_READ | PROT_WRITE,
				       MAP_PRIVATE | MAP_FIXED, fd,
				       DOWN(p->p_offset)) != start)
		return -1;
	if ((p->p_flags & PF_W) && UP(fend) > fend &&
	    poke(t->pid, fend, zero, UP(fend) - fend) < 0)
		return -1;
	if (UP(mend) > UP(fend) &&
	    (unsigned long)remote_call(t, h, SYS_mmap, UP(fend),
				       UP(mend) - UP(fend),
				       PROT_READ | PROT_WRITE,
				       MAP_PRIVATE | MAP_FIXED | MAP_ANONYMOUS,
				       -1, 0) != UP(fend))
		return -1;
	return (p->p_flags & PF_W) ? relocate(t, f, base, p, res) : 0;
}

/* Map f into the process segment by segment from its file (its path at
 * path there), relocated, each segment with its own protection: its
 * base, or 0 with nothing left mapped. */
static unsigned long map_object(struct target *t, struct thr *h,
				const struct sg_elf *f, unsigned long path,
				struct sg_elf_resolver *res)
{
	long r = remote_call(t, h, SYS_mmap, 0, f->span, PROT_NONE,
			     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	unsigned long base = (unsigned long)r;
	long fd;
	int i, ok;

	if (r < 0 && r > -4096)
		return 0;
	fd = remote_call(t, h, SYS_openat, AT_FDCWD, path, O_RDONLY | O_CLOEXEC,
			 0, 0, 0);
	for (i = 0; fd >= 0 && i < f->eh.e_phnum; i++)
		if (f->ph[i].p_type == PT_LOAD &&
		    map_segment(t, h, f, &f->ph[i], base, fd, res) < 0)
			break;
	ok = fd >= 0 && i == f->eh.e_phnum;
	if (fd >= 0)
		remote_call(t, h, SYS_close, fd, 0, 0, 0, 0, 0);
	for (i = 0; ok && i < f->eh.e_phnum; i++)
		if (f->ph[i].p_type == PT_LOAD &&
		    remote_call(t, h, SYS_mprotect, base + DOWN(f->ph[i].p_vaddr),
				UP(f->ph[i].p_vaddr + f->ph[i].p_memsz) -
					DOWN(f->ph[i].p_vaddr),
				prot_of(f->ph[i].p_flags), 0, 0, 0) < 0)
			ok = 0;
	if (ok)
		return base;
	remote_call(t, h, SYS_munmap, base, f->span, 0, 0, 0, 0);
	return 0;
}

/* What to make read-only once its relocations are final (PT_GNU_RELRO). */
static struct range relro_of(const struct sg_elf *f, unsigned long base)
{
	struct range r = { 0, 0 };
	int i;

	for (i = 0; i < f->eh.e_phnum; i++)
		if (f->ph[i].p_type == PT_GNU_RELRO) {
			r.lo = base + DOWN(f->ph[i].p_vaddr);
			r.hi = base + DOWN(f->ph[i].p_vaddr + f->ph[i].p_memsz);
		}
	return r;
}

static int map_image(struct target *t, struct thr *h, unsigned long path)
{
	char why[256];
	struct sg_elf_resolver relative_only = { 0, why, sizeof(why) };

	t->base = map_object(t, h, &image, path, &relative_only);
	t->span = image.span;
	t->entry = t->base + image.eh.e_entry;
	return t->base ? 0 : -1;
}

static void unmap_hooks(struct target *t, struct thr *h)
{
	int i;

	for (i = 0; i < t->nhook; i++)
		remote_call(t, h, SYS_munmap, t->hook[i].lo,
			    t->hook[i].hi - t->hook[i].lo, 0, 0, 0, 0);
	t->nhook = 0;
}

/* The --hook libraries, mapped and linked for the request a: 0, or -1
 * with why (and none left mapped). */
static int map_hooks(struct target *t, struct thr *h, unsigned long scratch,
		     struct sg_attach_args *a, char *why, size_t whylen)
{
	int i;

	for (i = 0; i < nhook_specs; i++) {
		struct sg_hook_link *l = sg_hook_link_new(t->pid,
							   hook_specs[i],
							   &image, t->base,
							   &a->hooks[i], why,
							   whylen);
		const struct sg_elf *f = l ? sg_hook_link_elf(l) : 0;
		unsigned long base = 0;

		if (l && poke(t->pid, scratch, f->path,
			      strlen(f->path) + 1) == 0)
			base = map_object(t, h, f, scratch,
					  sg_hook_link_resolver(l));
		if (l && !base && !why[0])
			snprintf(why, whylen, "cannot map %s into the process",
				 f->path);
		if (base) {
			sg_hook_link_done(l, base);
			t->hook[i].lo = base;
			t->hook[i].hi = base + f->span;
			t->relro[i] = relro_of(f, base);
			t->nhook = a->nhooks = i + 1;
		}
		sg_hook_link_free(l);
		if (!base)
			break;
	}
	if (i == nhook_specs)
		return 0;
	unmap_hooks(t, h);
	return -1;
}

/* ---- the request ----------------------------------------------------- */

static void add_busy(struct sg_attach_args *a, unsigned long v)
{
	int i;

	for (i = 0; i < a->nbusy; i++)
		if (a->busy[i] == v)
			return;
	if (a->nbusy < SG_ATTACH_BUSY_MAX)
		a->busy[a->nbusy++] = v;
}

static void busy_addresses(struct target *t, struct sg_attach_args *a)
{
	static struct range code[4096];
	static unsigned long stack[STACK_SCAN / 8];
	struct range vdso;
	int n = code_ranges(t->pid, code, 4096, &vdso, 0), i;

	for (i = 0; i < t->nthr; i++) {
		struct user_regs_struct *r = &t->thr[i].regs;
		unsigned long sp = r->rsp, k, got;

		add_busy(a, r->rip);
		if ((long)r->orig_rax >= 0)
			add_busy(a, r->rip - 2);	/* restarted there */
		for (got = 0; got < STACK_SCAN; got += PAGE) {
			unsigned long at = got ? DOWN(sp) + got : sp;
			unsigned long len = PAGE - (got ? 0 : sp & (PAGE - 1));

			if (peek(t->pid, at, (char *)stack + (at - sp),
				 len) < 0)
				break;
		}
		for (k = 0; k < (got ? got - (sp & (PAGE - 1)) : 0) / 8; k++)
			if (in_ranges(stack[k], code, n))
				add_busy(a, stack[k]);
	}
}

static long utc_offset(void)
{
	time_t now = time(0);
	struct tm tm;

	return localtime_r(&now, &tm) ? tm.tm_gmtoff : 0;
}

/* Call the image's entry in thread h with request a (at scratch):
 * 0, or -1 if the thread did not come back. */
static int call_image(struct target *t, struct thr *h, unsigned long scratch,
		      struct sg_attach_args *a)
{
	struct user_regs_struct r = h->regs;
	unsigned long args_len = UP(sizeof(*a));
	/* A hook library's code (its constructors, init, destructors) may
	 * use vector registers, which are the thread's: kept around it. */
	static unsigned char xstate[16384] __attribute__((aligned(64)));
	struct iovec xv = { xstate, sizeof(xstate) };
	int fpu = ptrace(PTRACE_GETREGSET, h->tid, NT_X86_XSTATE, &xv) == 0;

	if (poke(t->pid, scratch, a, sizeof(*a)) < 0)
		return -1;
	r.rip = t->entry;
	r.rdi = scratch;
	r.rsp = (scratch + args_len + SCRATCH_STACK) & ~15UL;
	r.orig_rax = -1;
	r.rax = 0;
	if (run_until_trap(t, h, &r, 0) < 0 || r.rip != t->entry + 6)
		return -1;
	if (fpu)
		ptrace(PTRACE_SETREGSET, h->tid, NT_X86_XSTATE, &xv);
	/* The runtime gave the thread its state (GS): it keeps it. */
	h->regs.gs_base = r.gs_base;
	return peek(t->pid, scratch, a, sizeof(*a));
}

static unsigned long map_scratch(struct target *t, struct thr *h)
{
	long r = remote_call(t, h, SYS_mmap, 0,
			     UP(sizeof(struct sg_attach_args)) + SCRATCH_STACK,
			     PROT_READ | PROT_WRITE,
			     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	return r < 0 && r > -4096 ? 0 : (unsigned long)r;
}

static void unmap_scratch(struct target *t, struct thr *h, unsigned long s)
{
	remote_call(t, h, SYS_munmap, s,
		    UP(sizeof(struct sg_attach_args)) + SCRATCH_STACK, 0, 0, 0,
		    0);
}

/* Open the process's descriptor fd here. */
static int take_fd(struct target *t, int fd, int flags)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/%d/fd/%d", t->pid, fd);
	return open(path, flags | O_CLOEXEC);
}

static const char *refusal(struct target *t)
{
	static char why[160];
	long tracer = status_field(t->pid, "TracerPid:", 0);
	long uid[4], gid[4];
	int i;

	if (kill(t->pid, 0) < 0 && errno == ESRCH)
		return "No such process";
	if (t->pid == getpid())
		return "cannot attach to sysgate itself";
	for (i = 0; i < 4; i++) {
		uid[i] = status_field(t->pid, "Uid:", i);
		gid[i] = status_field(t->pid, "Gid:", i);
	}
	if (uid[0] != uid[1] || uid[0] != uid[2] || gid[0] != gid[1] ||
	    gid[0] != gid[2])
		return "a set-user-ID or set-group-ID process: refused";
	if (tracer > 0) {
		snprintf(why, sizeof(why), "already traced by process %ld",
			 tracer);
		return why;
	}
	if (has_sysgate(t->pid, t->old, &t->nold))
		return "sysgate is already in this process";
	return 0;
}

static const char *not_permitted(void)
{
	char scope[16];

	if (read_file("/proc/sys/kernel/yama/ptrace_scope", scope,
		      sizeof(scope)) > 0 && atoi(scope) > 0)
		return "Operation not permitted (kernel.yama.ptrace_scope is "
		       "set: run as root or with CAP_SYS_PTRACE)";
	return "Operation not permitted";
}

static int attach_one(struct target *t, const char *options)
{
	static struct sg_attach_args a;
	static struct range anon[4096];
	const char *why = refusal(t);
	char why2[512] = "";
	struct range vdso;
	struct thr *h;
	unsigned long scratch = 0;
	int r, i, nanon;

	if (why) {
		say(t, why, 0);
		return -1;
	}
	t->pidfd = syscall(SYS_pidfd_open, t->pid, 0);
r = stop_all(t);
	if (r < 0) {
		let_go(t);
		say(t, r == -EPERM ? not_permitted() : strerror(-r), 0);
		return -1;
	}
	read_auxv(t);
	/* GS is sysgate's: after an earlier detach, only a thread still in
	 * a call through the image left behind keeps it, and that one does
	 * not make our calls.  Any other thread with GS set runs a sysgate
	 * the maps do not name (the loader's segments are anonymous once
	 * /proc/PID/exe names the program) or uses GS itself: a second
	 * runtime would take it from under it. */
	h = 0;
	nanon = t->nold ? code_ranges(t->pid, anon, 4096, &vdso, 1) : 0;
	for (i = 0; i < t->nthr; i++) {
		struct thr *o = &t->thr[i];

		if (in_ranges(o->regs.rip, t->old, t->nold))
			continue;
		/* A thread that was inside an earlier sysgate's runtime when
		 * it detached kept its GS, which is stale once it is out. */
		if (o->regs.gs_base && t->nold &&
		    !inside_image(t, o, t->old, t->nold, anon, nanon))
			o->regs.gs_base = 0;
		if (o->regs.gs_base) {
			let_go(t);
			say(t, "sysgate is already in this process (GS is in "
			    "use)", 0);
			return -1;
		}
		if (!h || o->tid == t->pid)
			h = o;
	}
	if (!h) {
		let_go(t);
		say(t, "every thread is still in a call made through an "
		    "earlier sysgate's runtime: try again once one "
		    "returns", 0);
		return -1;
	}
	if (find_gadget(t) < 0) {
		let_go(t);
		say(t, "no system call instruction to borrow", 0);
		return -1;
	}
	memset(&a, 0, sizeof(a));
	scratch = map_scratch(t, h);
	if (!scratch || poke(t->pid, scratch, image_path,
			     strlen(image_path) + 1) < 0 ||
	    map_image(t, h, scratch) < 0 ||
	    map_hooks(t, h, scratch, &a, why2, sizeof(why2)) < 0) {
		if (t->base)
			remote_call(t, h, SYS_munmap, t->base, t->span, 0, 0,
				    0, 0);
		if (scratch)
			unmap_scratch(t, h, scratch);
		let_go(t);
		say(t, why2[0] ? why2 : "cannot map the runtime into the "
		    "process", 0);
		return -1;
	}
	a.magic = SG_ATTACH_MAGIC;
	a.op = SG_ATTACH_START;
	a.vdso = t->vdso;
	a.hwcap2 = t->hwcap2;
	a.tz_offset = utc_offset();
	for (i = 0; i < image.eh.e_phnum; i++)
		if (image.ph[i].p_type == PT_TLS) {
			a.tls_init = t->base + image.ph[i].p_vaddr;
			a.tls_filesz = image.ph[i].p_filesz;
			a.tls_memsz = image.ph[i].p_memsz;
			a.tls_align = image.ph[i].p_align;
		}
	snprintf(a.options, sizeof(a.options), "%s", options);
	busy_addresses(t, &a);
	/* From here the borrowed instruction is the image's own. */
	r = call_image(t, h, scratch, &a);
	if (r < 0 || a.result < 0) {
		char err[300];

		snprintf(err, sizeof(err), "%s", r == 0 && a.error[0] ?
			 a.error : "the runtime did not start");
		t->gadget = t->entry + 8;
		if (r < 0) {
			/* It stopped half-way: put back what it wrote. */
			memset(&a, 0, sizeof(a));
			a.magic = SG_ATTACH_MAGIC;
			a.op = SG_ATTACH_DETACH;
			if (call_image(t, h, scratch, &a) < 0 || a.result < 0)
				snprintf(err, sizeof(err), "the runtime did "
					 "not start, and what it patched "
					 "could not be put back");
		} else {
			/* It refused before writing any code. */
			unmap_scratch(t, h, scratch);
			unmap_hooks(t, h);
			remote_call(t, h, SYS_munmap, t->base, t->span, 0, 0,
				    0, 0);
		}
		let_go(t);
		say(t, err, 0);
		return -1;
	}
	t->gadget = t->entry + 8;
	for (i = 0; i < t->nhook; i++)
		if (t->relro[i].hi > t->relro[i].lo)
			remote_call(t, h, SYS_mprotect, t->relro[i].lo,
				    t->relro[i].hi - t->relro[i].lo,
				    PROT_READ, 0, 0, 0);
	t->sud_used = a.sud_used;
	t->out_fd = take_fd(t, a.out_read_fd, O_RDONLY);
	{
		struct stat st;

		if (t->out_fd >= 0 && !fstat(t->out_fd, &st))
			t->pipe_ino = st.st_ino;
	}
	t->state_fd = a.state_fd >= 0 ? take_fd(t, a.state_fd, O_RDWR) : -1;
	remote_call(t, h, SYS_close, a.out_read_fd, 0, 0, 0, 0, 0);
	unmap_scratch(t, h, scratch);
	let_go(t);
	return 0;
}

/* ---- detaching ------------------------------------------------------- */

static int detach_one(struct target *t, int stats)
{
	static struct sg_attach_args a;
	struct thr *h;
	unsigned long scratch;
	static struct range anon[4096];
	struct range vdso;
	int i, quiet = 1, inside[MAX_THREADS], nanon, nown = 1;
	struct range own[1 + SG_ATTACH_HOOKS_MAX] = {
		{ t->base, t->base + t->span } };

	if (stop_all(t) < 0) {
		let_go(t);
		return -1;
	}
	h = thr_of(t, t->pid) ? thr_of(t, t->pid) : &t->thr[0];
	nanon = code_ranges(t->pid, anon, 4096, &vdso, 1);
	for (i = 0; i < t->nhook; i++)
		own[nown++] = t->hook[i];
	for (i = 0; i < t->nthr; i++) {
		untrap(t, &t->thr[i]);	/* (before any call of ours in it) */
		inside[i] = inside_image(t, &t->thr[i], own, nown, anon,
					 nanon);
		quiet &= !inside[i];
	}
	scratch = map_scratch(t, h);
	memset(&a, 0, sizeof(a));
	a.magic = SG_ATTACH_MAGIC;
	a.op = SG_ATTACH_DETACH;
	a.quiet = quiet;
	if (!scratch || call_image(t, h, scratch, &a) < 0 || a.result < 0) {
		let_go(t);
		say(t, "cannot detach", a.error[0] ? a.error : 0);
		return -1;
	}
	for (i = 0; i < t->nthr; i++) {
		struct thr *o = &t->thr[i];

		/* Syscall user dispatch is per thread: each turns it off. */
		if (a.sud_used)
			remote_call(t, o, SYS_prctl, 59, 0, 0, 0, 0, 0);
		if (!inside[i])
			o->regs.gs_base = 0;
	}
	unmap_scratch(t, h, scratch);
	/* Their destructors ran (DETACH) only if no thread was inside. */
	if (quiet)
		unmap_hooks(t, h);
	/* Left mapped, it is marked inert (see has_sysgate). */
	remote_call(t, h, quiet ? SYS_munmap : SYS_mprotect, t->base,
		    quiet ? t->span : PAGE, PROT_NONE, 0, 0, 0);
	if (stats)
		fprintf(stderr, "sysgate: detached from %d: %lu places put "
			"back, %lu changed since (left; first at %#lx), "
			"runtime %s\n", t->pid, a.restored, a.changed,
			a.first_changed, quiet ? "unmapped" :
			"left mapped (a thread was inside)");
	let_go(t);
	return 0;
}

/* ---- the relay ------------------------------------------------------- */

/* Where a target's lines go: its own file under -ff, else ofd. */
static int out_of(const struct target *t, int ofd)
{
	return t->file_fd >= 0 ? t->file_fd : ofd;
}

static int relay(struct target *t, int ofd)
{
	char buf[65536];
	ssize_t n = read(t->out_fd, buf, sizeof(buf));

	if (n > 0 && sg_write_all(out_of(t, ofd), buf, n) < 0)
		return -1;
	return (int)n;
}

/* What is left in the pipe: a child the program forked may still hold
 * its write end, so no waiting for the end. */
static void drain(struct target *t, int ofd)
{
	if (t->out_fd < 0)
		return;
	fcntl(t->out_fd, F_SETFL, O_NONBLOCK);
	while (relay(t, ofd) > 0)
		;
	close(t->out_fd);
	t->out_fd = -1;
}

/* The runtime still in the process (not exited, no execve since)? */
static int runtime_there(const struct target *t)
{
	struct range old[16];
	int nold;

	return kill(t->pid, 0) == 0 && has_sysgate(t->pid, old, &nold);
}

static int is_target(pid_t pid)
{
	int i;

	for (i = 0; i < ntargets; i++)
		if (targets[i].pid == pid)
			return 1;
	return 0;
}

/* Does process pid hold the pipe named want ("pipe:[INODE]")? */
static int holds(pid_t pid, const char *want)
{
	char path[300], link[64];
	struct dirent *f;
	DIR *fds;
	int found = 0;

	snprintf(path, sizeof(path), "/proc/%d/fd", pid);
	fds = opendir(path);
	while (fds && !found && (f = readdir(fds))) {
		ssize_t n;

		snprintf(path, sizeof(path), "/proc/%d/fd/%s", pid, f->d_name);
		n = readlink(path, link, sizeof(link) - 1);
		if (n > 0) {
			link[n] = 0;
			found = !strcmp(link, want);
		}
	}
	if (fds)
		closedir(fds);
	return found;
}

/*
 * -f: a process holding t's output pipe that is not a target yet is a
 * child forked while attached (or its child): a copy of t, runtime and
 * patched code included, hooked.  It becomes a target, to be detached as
 * t is.  (A child that ran execve closed the pipe: its new program runs
 * natively, nothing to undo.)  How many were added.
 */
static int find_followed(const struct target *t)
{
	char want[48];
	struct dirent *d;
	DIR *proc;
	int added = 0;

	if (!t->pipe_ino)
		return 0;
	snprintf(want, sizeof(want), "pipe:[%lu]", t->pipe_ino);
	proc = opendir("/proc");
	while (proc && (d = readdir(proc))) {
		pid_t pid = atoi(d->d_name);
		struct target *c;

		if (pid <= 0 || pid == getpid() || is_target(pid) ||
		    ntargets == MAX_PROCS || !holds(pid, want))
			continue;
		c = &targets[ntargets++];
		*c = *t;
		c->pid = pid;
		c->nthr = 0;
		c->pidfd = c->out_fd = c->state_fd = -1;
		c->gone = c->exited = 0;
		added++;
	}
	if (proc)
		closedir(proc);
	return added;
}

/*
 * Detach every process still attached: the nroots given with -p, then,
 * under -f, the children found holding their pipes, again until none is
 * left (a child may have forked before it was stopped), then what is
 * left of the output.
 */
static void detach_all(const struct sg_options *o, int nroots, int ofd)
{
	int i, more = 1;

	while (more) {
		more = 0;
		for (i = 0; i < ntargets; i++) {
			struct target *t = &targets[i];

			if (t->gone || (i < nroots && t->exited))
				continue;
			if (runtime_there(t) && detach_one(t, o->stats) == 0 &&
			    i < nroots && !o->quiet && !o->quiet_attach)
				fprintf(stderr, "sysgate: Process %d detached\n",
					t->pid);
			if (i >= nroots)
				t->gone = 1;
		}
		for (i = 0; o->follow && i < nroots; i++)
			if (!targets[i].gone && find_followed(&targets[i]))
				more = 1;
	}
	for (i = 0; i < nroots; i++)
		if (!targets[i].gone) {
			drain(&targets[i], ofd);
			targets[i].gone = 1;
		}
}

static int parse_pids(const char *list)
{
	const char *p = list;

	while (*p) {
		char *end;
		long v = strtol(p, &end, 10);

		if (end == p || v <= 0 || v > INT_MAX ||
		    (*end && *end != ',')) {
			fprintf(stderr,
				"sysgate: -p: invalid process id '%s'\n", list);
			return -1;
		}
		if (ntargets >= MAX_TARGETS) {
			fprintf(stderr, "sysgate: -p: at most %d processes\n",
				MAX_TARGETS);
			return -1;
		}
		memset(&targets[ntargets], 0, sizeof(targets[0]));
		targets[ntargets].pid = (pid_t)v;
		targets[ntargets].out_fd = targets[ntargets].state_fd = -1;
		targets[ntargets].pidfd = -1;
		targets[ntargets].file_fd = -1;
		ntargets++;
		p = *end ? end + 1 : end;
	}
	return 0;
}

static volatile sig_atomic_t stop_flag, stop_sig;

static void on_stop(int sig)
{
	stop_flag = 1;
	if (sig != SIGALRM)	/* (--detach-after's time) */
		stop_sig = sig;
}

/* -m ptrace -p: the CLI traces the threads until a signal or the time. */
static int attach_ptrace(const struct sg_options *o)
{
	static const int stops[] = {
		SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGALRM
	};
	pid_t pids[MAX_TARGETS];
	struct sigaction sa;
	char state[32] = "";
	long fd = o->count ? sg_shared_create() : -1;
	int i;

	for (i = 0; i < ntargets; i++) {
		const char *why = refusal(&targets[i]);

		if (why) {
			say(&targets[i], why, 0);
			return 1;
		}
		pids[i] = targets[i].pid;
	}
	if (o->count && fd < 0) {
		fprintf(stderr, "sysgate: cannot create the shared state\n");
		return 1;
	}
	if (fd >= 0)
		snprintf(state, sizeof(state), "fd:%ld", fd);
	if (o->json) {
		/* (before the tracer opens the file, appending) */
		int ofd = o->outfile ? open(o->outfile, O_WRONLY | O_CREAT |
					    O_CLOEXEC | (o->append ? O_APPEND :
					    O_TRUNC), 0644) : 2;

		sg_cli_json_start(o, ofd);
		if (ofd > 2)
			close(ofd);
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop;	/* (no SA_RESTART: ends the wait) */
	for (i = 0; i < (int)ARRAY_SIZE(stops); i++)
		sigaction(stops[i], &sa, 0);
	if (o->detach_after)
		alarm(o->detach_after - 1 ? o->detach_after - 1 : 1);
	if (sg_cli_ptrace_attach(o, pids, ntargets, fd >= 0 ? state : 0,
				 &stop_flag) < 0)
		return 1;
	if (o->count)
		sg_cli_print_summary(o, state, -1);
	return stop_sig ? sg_cli_die_by(stop_sig) : 0;
}

int sg_cli_attach(const struct sg_options *o, const char *options,
		  const char *image_file)
{
	static const int stops[] = { SIGTERM, SIGINT, SIGHUP, SIGQUIT };
	struct pollfd pfd[2 * MAX_TARGETS + 1];
	sigset_t set;
	char why[256];
	int ofd = 2, sfd, i, live = 0, timeout = -1, nroots, died_by = 0;
	struct timespec t0;

	targets = calloc(MAX_PROCS, sizeof(*targets));
	if (!targets) {
		fprintf(stderr, "sysgate: attach: out of memory\n");
		return 1;
	}
	if (parse_pids(o->attach) < 0)
		return 1;
	if (!strcmp(o->mechanism, "ptrace"))
		return attach_ptrace(o);
	snprintf(image_path, sizeof(image_path), "%s", image_file);
	if (sg_elf_open(&image, image_path, 0, 0, why, sizeof(why)) < 0 ||
	    (o->nhooks && sg_elf_symbols(&image, 0) < 0)) {
		fprintf(stderr, "sysgate: %s: not a runtime image\n",
			image_file);
		return 1;
	}
	hook_specs = o->hooks;
	nhook_specs = o->nhooks;
	if (o->outfile && o->follow == 2) {
		/* -ff: FILE.<pid> for each process attached to (the children
		 * -f follows open their own, as those of a started program) */
		for (i = 0; i < ntargets; i++) {
			char name[PATH_MAX + 16];

			snprintf(name, sizeof(name), "%s.%d", o->outfile,
				 targets[i].pid);
			targets[i].file_fd = open(name, O_WRONLY | O_CREAT |
						  O_CLOEXEC | O_TRUNC, 0644);
			if (targets[i].file_fd < 0) {
				fprintf(stderr, "sysgate: %s: %s\n", name,
					strerror(errno));
				return 1;
			}
		}
	} else if (o->outfile) {
		ofd = open(o->outfile, O_WRONLY | O_CREAT | O_CLOEXEC |
			   (o->append ? O_APPEND : O_TRUNC), 0644);
		if (ofd < 0) {
			fprintf(stderr, "sysgate: %s: %s\n", o->outfile,
				strerror(errno));
			return 1;
		}
	}
	for (i = 0; o->json && i < (o->follow == 2 ? ntargets : 1); i++)
		sg_cli_json_start(o, out_of(&targets[i], ofd));
	/* Held from now on and read in the loop: a signal during attaching
	 * waits until the process is running again, then detaches it. */
	sigemptyset(&set);
	for (i = 0; i < (int)ARRAY_SIZE(stops); i++)
		sigaddset(&set, stops[i]);
	sigprocmask(SIG_BLOCK, &set, 0);
	sfd = signalfd(-1, &set, SFD_CLOEXEC);
	for (i = 0; i < ntargets; i++)
		if (attach_one(&targets[i], options) < 0) {
			targets[i].gone = 1;
		} else {
			live++;
			/* strace's line, which scripts wait for */
			if (!o->quiet && !o->quiet_attach)
				fprintf(stderr, "sysgate: Process %d attached\n",
					targets[i].pid);
		}
	if (!live)
		return 1;
	nroots = ntargets;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (live) {
		int n = 0, stop = 0;

		for (i = 0; i < ntargets; i++) {
			struct target *t = &targets[i];

			pfd[2 * i].fd = t->gone ? -1 : t->out_fd;
			pfd[2 * i].events = POLLIN;
			pfd[2 * i + 1].fd = t->gone || t->exited ? -1 : t->pidfd;
			pfd[2 * i + 1].events = POLLIN;
		}
		pfd[2 * ntargets].fd = sfd;
		pfd[2 * ntargets].events = POLLIN;
		if (o->detach_after) {
			struct timespec now;
			long ms;

			clock_gettime(CLOCK_MONOTONIC, &now);
			ms = (o->detach_after - 1) * 1000L -
			     ((now.tv_sec - t0.tv_sec) * 1000L +
			      (now.tv_nsec - t0.tv_nsec) / 1000000);
			timeout = ms > 0 ? (int)ms : 0;
		}
		n = poll(pfd, 2 * ntargets + 1, timeout);
		if (n < 0 && errno == EINTR)
			continue;
		if (n == 0)
			stop = 1;
		if (pfd[2 * ntargets].revents & POLLIN) {
			struct signalfd_siginfo si;

			/* detached, then the same death, as strace */
			if (read(sfd, &si, sizeof(si)) == sizeof(si))
				died_by = (int)si.ssi_signo;
			stop = 1;
		}
		for (i = 0; i < ntargets; i++) {
			struct target *t = &targets[i];

			if (t->gone)
				continue;
			if ((pfd[2 * i].revents & (POLLIN | POLLHUP)) &&
			    relay(t, ofd) <= 0) {
				close(t->out_fd);
				t->out_fd = -1;
				/* No writer left: it exited (the pidfd may
				 * not have said so yet), or ran execve (its
				 * new program is not followed: nothing to
				 * detach), and so did -f's children. */
				if (t->pidfd < 0 || t->exited ||
				    !runtime_there(t)) {
					t->gone = 1;
					live--;
				}
			}
			if (!t->gone && (pfd[2 * i + 1].revents & POLLIN)) {
				/* It exited: its last lines, then its table,
				 * once the children -f follows are done with
				 * the pipe too. */
				t->exited = 1;
				if (o->follow && t->out_fd >= 0)
					continue;
				drain(t, ofd);
				t->gone = 1;
				live--;
			}
		}
		if (!stop)
			continue;
		detach_all(o, nroots, ofd);
		live = 0;
	}
	for (i = 0; i < nroots; i++) {
		char state[32];

		if (o->count && targets[i].state_fd >= 0) {
			snprintf(state, sizeof(state), "fd:%d",
				 targets[i].state_fd);
			int sum = out_of(&targets[i], ofd);

			sg_cli_print_summary(o, state,
					     sum > 2 ? dup(sum) : sum);
		}
	}
	return died_by ? sg_cli_die_by(died_by) : 0;
}
