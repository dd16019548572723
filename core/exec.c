/* SPDX-License-Identifier: MIT */
/*
 * execve/execveat: sysgate either follows the process into its new program
 * (the root process, and every process under -f) or lets it go.
 *
 * Following means the new environment keeps libsysgate in LD_PRELOAD and
 * the SYSGATE_* variables, even if the program cleared or rewrote them, and
 * carries hook state set with sysgate_exec_carry().  Letting go means our
 * entry is removed from LD_PRELOAD and the SYSGATE_* variables are dropped,
 * so the program runs natively.  The new envp array points at the
 * program's own strings; only the few strings sysgate adds are copied.
 */
#include "sg.h"
#include "process.h"
#include "env.h"
#include "options.h"

#define ENV_PEEK 24		/* enough to recognise a variable's name */

static int is_var(const char *peek, const char *name)
{
	size_t n = sg_strlen(name);

	return !sg_strncmp(peek, name, n) && peek[n] == '=';
}

static int is_ours(const char *peek)
{
	return sg_env_is_internal(peek);
}

/* Grow the thread's scratch buffer; it is reused by later execs. */
static char *exec_buf(struct sg_thread *t, unsigned long need)
{
	if (t->exec_buf_len < need) {
		unsigned long len = (need + 65535) & ~65535UL;
		char *b = sg_mmap(len);

		if (!b)
			return 0;
		if (t->exec_buf)
			sg_munmap(t->exec_buf, t->exec_buf_len);
		t->exec_buf = b;
		t->exec_buf_len = len;
	}
	return t->exec_buf;
}

/* Append "NAME=" value to the buffer, return the string. */
static char *put_var(char **cur, const char *name, const char *val,
		     size_t vlen)
{
	char *s = *cur;
	size_t n = sg_strlen(name);

	memcpy(s, name, n);
	s[n] = '=';
	memcpy(s + n + 1, val, vlen);
	s[n + 1 + vlen] = 0;
	*cur = s + n + 2 + vlen;
	return s;
}

/*
 * Remove libsysgate from an LD_PRELOAD value (entries are separated by
 * ':' or ' ').  Returns the new length.
 */
static size_t strip_self(char *dst, const char *val, size_t len)
{
	size_t i = 0, out = 0;

	while (i < len) {
		size_t j = i;

		while (j < len && val[j] != ':' && val[j] != ' ')
			j++;
		if (j > i && !sg_env_is_self(val + i, j - i)) {
			if (out)
				dst[out++] = ':';
			memcpy(dst + out, val + i, j - i);
			out += j - i;
		}
		i = j + 1;
	}
	dst[out] = 0;
	return out;
}

#define O_RDONLY_CLOEXEC 02000000
#define PT_INTERP_ 3

/* Whether two paths name the same file (the interpreter a program asks
 * for may be reached through another directory or a link). */
static int same_file(const char *a, const char *b)
{
	unsigned long sa[32], sb[32];	/* struct stat: st_dev, st_ino first */

	if (!sg_strcmp(a, b))
		return 1;
	if (sg_sc4(SG_NR_newfstatat, -100, (long)a, (long)sa, 0) < 0 ||
	    sg_sc4(SG_NR_newfstatat, -100, (long)b, (long)sb, 0) < 0)
		return 0;
	return sa[0] == sb[0] && sa[1] == sb[1];
}

/*
 * 1: LD_PRELOAD cannot bring libsysgate.so into this program, so it must
 * start through the loader: it is statically linked, or its interpreter
 * is not the C library's that libsysgate.so is built for (musl's
 * ld-musl-*.so.1 would fail to relocate it); 0: a dynamically linked
 * program of that C library; 2: an ELF of another ABI (32-bit, or
 * another machine's under qemu-user), which no in-process mechanism can
 * serve; -1: no ELF (a script, or nothing readable).
 */
int sg_elf_needs_loader(const char *path)
{
	struct {
		unsigned char ident[16];
		unsigned short type, machine;
		unsigned int version;
		unsigned long entry, phoff, shoff;
		unsigned int flags;
		unsigned short ehsize, phentsize, phnum;
	} eh;
	struct {
		unsigned int type, flags;
		unsigned long offset, vaddr, paddr, filesz, memsz, align;
	} ph;
	char interp[256];
	long fd = sg_sc4(SG_NR_openat, -100, (long)path, O_RDONLY_CLOEXEC, 0);
	int i, kind = 1, ok;

	if (fd < 0)
		return -1;
	ok = sg_sc4(SG_NR_pread64, fd, (long)&eh, sizeof(eh), 0) == sizeof(eh) &&
	     !sg_strncmp((const char *)eh.ident, "\177ELF", 4);
	if (ok && (eh.ident[4] != 2 || eh.phnum >= 128 ||
		   eh.machine != (SG_AUDIT_ARCH & 0xffff))) {
		sg_sc1(SG_NR_close, fd);
		return 2;
	}
	for (i = 0; ok && i < eh.phnum && kind == 1; i++) {
		if (sg_sc4(SG_NR_pread64, fd, (long)&ph, sizeof(ph),
			   eh.phoff + (unsigned long)i * eh.phentsize) !=
			    sizeof(ph) || ph.type != PT_INTERP_)
			continue;
		kind = 0;
		if (ph.filesz >= sizeof(interp) ||
		    sg_sc4(SG_NR_pread64, fd, (long)interp, ph.filesz,
			   ph.offset) != (long)ph.filesz) {
			kind = 1;	/* unreadable: the loader reports it */
			break;
		}
		interp[ph.filesz] = 0;
		kind = !same_file(interp, SG_LIBC_INTERP);
		break;
	}
	sg_sc1(SG_NR_close, fd);
	return ok ? kind : -1;
}

#define S_IFMT_ 0170000
#define S_IFREG_ 0100000
#define S_ISUID_ 04000
#define S_ISGID_ 02000
#define X_OK_ 1
#define EACCES_ 13
#define ENOEXEC_ 8
#define EFAULT_ 14
#define ENOMEM_ 12
#define ENFILE_ 23
#define EMFILE_ 24
#define AT_EMPTY_PATH_ 0x1000

/*
 * Under -m seccomp every program starts through the loader, which once
 * running can only exit: what the kernel's execve would refuse must fail
 * here, with the kernel's error (execvp tries each PATH entry, and runs
 * /bin/sh on ENOEXEC).  1: an ELF, 2: a script, for the loader; 0: a
 * 32-bit ELF, which the filter lets through (another audit arch) and
 * the kernel runs itself, unhooked; or -errno.
 */
static long loader_can_start(const char *path)
{
	struct sg_fd_stat st;
	unsigned char head[5];
	long fd = sg_sc4(SG_NR_openat, -100, (long)path, O_RDONLY_CLOEXEC, 0), r;

	/* execve needs no descriptor: with none free, the checks that need
	 * none, and the loader (or the kernel) finds what else is wrong. */
	if (fd == -EMFILE_ || fd == -ENFILE_)
		return sg_sc4(SG_NR_faccessat, -100, (long)path, X_OK_, 0) ?: 1;
	if (fd < 0)
		return fd;
	r = sg_fd_stat(fd, &st);
	if (r == 0 && (st.mode & S_IFMT_) != S_IFREG_)
		r = -EACCES_;
	if (r == 0)
		r = sg_sc4(SG_NR_faccessat, -100, (long)path, X_OK_, 0);
	if (r == 0 && sg_sc4(SG_NR_pread64, fd, (long)head, sizeof(head), 0) < 2)
		r = -ENOEXEC_;
	sg_sc1(SG_NR_close, fd);
	if (r < 0)
		return r;
	if (head[0] == '#' && head[1] == '!')
		return 2;
	/* 1: ELFCLASS64; 0: ELFCLASS32 (run directly, not hooked); any
	 * other class the kernel refuses too */
	if (sg_strncmp((const char *)head, "\177ELF", 4) ||
	    (head[4] != 1 && head[4] != 2))
		return -ENOEXEC_;
	return head[4] == 2;
}

/* The path execveat(dirfd, path, .., flags) runs, as the loader can open
 * it: /dev/fd/N[/path] for a descriptor, the name the kernel gives it (a
 * script's interpreter sees it). */
static long execveat_path(const struct sysgate_sys *s, char *buf,
			  unsigned long size)
{
	char rel[512], num[24];
	const char *fd;
	int dirfd = (int)s->args[0];
	size_t n;

	if (sg_read_str_safe(rel, (const char *)s->args[1], sizeof(rel)) < 0)
		return -EFAULT_;
	if (rel[0] == '/' || dirfd == -100) {
		sg_strlcpy(buf, rel, size);
		return 0;
	}
	if (!rel[0] && !(s->args[4] & AT_EMPTY_PATH_))
		return -2;	/* ENOENT */
	fd = sg_utoa(num + sizeof(num), dirfd);
	n = sg_strlcpy(buf, "/dev/fd/", size);
	n += sg_strlcpy(buf + n, fd, size - n);
	if (rel[0]) {
		n += sg_strlcpy(buf + n, "/", size - n);
		n += sg_strlcpy(buf + n, rel, size - n);
	}
	return n < size ? 0 : -36;	/* ENAMETOOLONG */
}

/*
 * execve(path, argv, env) of a static program (or one of another C
 * library), followed: run sysgate-loader path argv... instead.  Under --loader a dynamic program
 * is started that way too, so its ld.so is hooked from its first
 * instruction like the first program's, and under -m seccomp every
 * program (loader_can_start has checked it).  newargv has room for
 * argc + 4 (a NULL argv becomes one empty argument).
 */
/* A followed program of another ABI (32-bit) runs as it is (the kernel
 * serves it; no in-process mechanism can): said, not lost silently. */
static void not_hooked_32(const char *path)
{
	char msg[600];
	size_t n = sg_strlcpy(msg, path, sizeof(msg));

	sg_strlcpy(msg + (n < sizeof(msg) ? n : sizeof(msg) - 1),
		   ": a 32-bit program (or another machine's): its system "
		   "calls are not hooked (-m ptrace traces them)",
		   sizeof(msg) - n);
	sg_warn(msg);
}

/* The signals the kernel ignores at an execve, which stay so in the new
 * program: known where /proc/self/status was read for a tracer. */
struct exec_status {
	int known;
	unsigned long ign;
};

/*
 * Whether a tracer (gdb, strace) is attached: at the exec it reads the
 * file the kernel ran, which would be sysgate-loader (its symbols, not
 * the program's), so a dynamic program starts with LD_PRELOAD instead.
 * The same read's ignored signals are handed to the loader the execve
 * starts (SYSGATE_SIG: no tracer then), which would read them again.
 */
static int traced(struct exec_status *st)
{
	char buf[4096];
	const char *v = sg_proc_status(0, "TracerPid", buf, sizeof(buf));
	const char *ign = v ? sg_status_field(buf, "SigIgn") : 0;

	st->known = ign && sg_xparse(ign, &st->ign) == ign + 16;
	return v && *v != '0';
}

static int is_loader(const char *path)
{
	size_t n = sg_strlen(path);

	return n >= 14 && !sg_strcmp(path + n - 14, "sysgate-loader") &&
	       (n == 14 || path[n - 15] == '/');
}

/*
 * A "#!" script the loader can start as the kernel would: its
 * interpreter an executable ELF of this machine, or a script itself
 * whose own interpreter is, and so on up to the kernel's depth
 * (SG_SCRIPT_LEVELS).  Anything else is left to the kernel, which runs
 * it or fails with its own error.
 */
static int loader_script(const char *path)
{
	char line[256], interp[256], *p, *q;
	int level;
	long fd, n;

	if (loader_can_start(path) != 2)
		return 0;
	for (level = 0; level < SG_SCRIPT_LEVELS; level++) {
		fd = sg_sc4(SG_NR_openat, -100, (long)path, O_RDONLY_CLOEXEC, 0);
		if (fd < 0)
			return 0;
		n = sg_sc4(SG_NR_pread64, fd, (long)line, sizeof(line) - 1, 0);
		sg_sc1(SG_NR_close, fd);
		if (n < 3)
			return 0;
		line[n] = 0;
		for (p = line + 2; *p == ' ' || *p == '\t'; p++)
			;
		for (q = p; *q && *q != ' ' && *q != '\t' && *q != '\n'; q++)
			;
		if (q == p || !*q)	/* no interpreter, or the line goes on */
			return 0;
		*q = 0;
		if (loader_can_start(p) != 2) {
			n = sg_elf_needs_loader(p);
			return (n == 0 || n == 1) &&
			       sg_sc4(SG_NR_faccessat, -100, (long)p, X_OK_, 0) == 0;
		}
		sg_strlcpy(interp, p, sizeof(interp));
		path = interp;
	}
	return 0;
}

/* 1: through the loader; 2: a script, through the loader; 0: not. */
static int via_loader(struct exec_status *st, const char *path,
		      char *const *argv, unsigned long argc, char **newargv,
		      char *loader, unsigned long loader_size)
{
	unsigned long skip;
	int kind, script = 0;

	if (!sg_env_loader(loader, loader_size))
		return 0;
	kind = sg.seccomp_on ? 1 : sg_elf_needs_loader(path);
	if (kind == 2)
		not_hooked_32(path);
	/* A script or a dynamic program, unless LD_PRELOAD is asked for or
	 * a tracer watches (see traced()). */
	if (kind < 0 && sg.opts && sg_options_loader(sg.opts) &&
	    loader_script(path))
		kind = 0, script = 1;
	if (kind < 0 || kind == 2 ||
	    (kind == 0 && (!(sg.opts && sg_options_loader(sg.opts)) ||
			   traced(st))))
		return 0;
	newargv[0] = loader;
	newargv[1] = (char *)path;
	if (!argv) {
		/* The kernel gives such a program one empty argument. */
		newargv[2] = (char *)"";
		newargv[3] = 0;
		return 1 + script;
	}
	/* Another sysgate's loader (a nested sysgate under -m seccomp)
	 * cannot be mapped at the fixed address ours has: ours does its
	 * work, with its arguments (PATH ARGV0 ARGS...). */
	skip = is_loader(path) ? 1 : 0;
	if (argc < skip || sg_read_safe(&newargv[2 - skip], &argv[skip],
					(argc + 1 - skip) * sizeof(char *)) < 0)
		return 0;
	return argc > skip || !skip ? 1 + script : 0;
}

/*
 * The effective ids the kernel gives a process with *euid and *egid that
 * runs path (st: its stat): the file's owner and group where its set-ID
 * bits apply.  Not where they are ignored (no_new_privs, a nosuid mount),
 * nor a set-group-ID bit without group execute (a mandatory-locking
 * mark).
 */
void sg_set_id_of(const char *path, const struct sg_fd_stat *st,
		  unsigned int *euid, unsigned int *egid)
{
	unsigned long fs[16];	/* struct statfs: f_flags is word 10 */

	if ((st->mode & (S_ISUID_ | S_ISGID_)) &&
	    sg_sc5(SG_NR_prctl, 39 /* PR_GET_NO_NEW_PRIVS */, 0, 0, 0, 0) == 0 &&
	    sg_sc2(SG_NR_statfs, (long)path, (long)fs) == 0 &&
	    !(fs[10] & 2 /* ST_NOSUID */)) {
		if (st->mode & S_ISUID_)
			*euid = st->uid;
		if ((st->mode & S_ISGID_) && (st->mode & 010 /* group x */))
			*egid = st->gid;
	}
}

/*
 * Whether the program at path starts set-ID: the kernel would run it with
 * other credentials than the real ones (a set-user- or set-group-ID file,
 * or a process already running so), and in secure mode, where ld.so
 * ignores LD_PRELOAD and the loader, not set-ID itself, would run it
 * without them.
 */
int sg_starts_set_id(const char *path, const struct sg_fd_stat *known)
{
	struct sg_fd_stat st;
	unsigned int ruid, euid, suid, rgid, egid, sgid;

	if (known)
		st = *known;
	else if (sg_path_stat(path, &st) < 0)
		return 0;
	if (sg_sc3(SG_NR_getresuid, (long)&ruid, (long)&euid, (long)&suid) ||
	    sg_sc3(SG_NR_getresgid, (long)&rgid, (long)&egid, (long)&sgid))
		return 0;
	sg_set_id_of(path, &st, &euid, &egid);
	return euid != ruid || egid != rgid;
}

/* Said, not lost silently. */
static void not_traced_set_id(const char *path, const char *why)
{
	char msg[600];
	size_t n = sg_strlcpy(msg, path, sizeof(msg));

	n += sg_strlcpy(msg + (n < sizeof(msg) ? n : sizeof(msg) - 1),
			" is set-ID", sizeof(msg) - n);
	sg_strlcpy(msg + (n < sizeof(msg) ? n : sizeof(msg) - 1), why,
		   sizeof(msg) - n);
	sg_warn(msg);
}

/*
 * Under the loader /proc/self/exe names sysgate-loader: the program it
 * started is meant (ld.so's $ORIGIN, a program running itself again).
 */
static int is_self_exe(const char *path, int pid)
{
	char num[24];
	const char *p = path, *id = sg_utoa(num + sizeof(num), pid);
	size_t n = sg_strlen(id);

	if (!sg.exe_path || sg_strncmp(p, "/proc/", 6))
		return 0;
	p += 6;
	if (!sg_strncmp(p, "self/", 5))
		p += 5;
	else if (!sg_strncmp(p, "thread-self/", 12))
		p += 12;
	else if (!sg_strncmp(p, id, n) && p[n] == '/')
		p += n + 1;
	else
		return 0;
	return !sg_strcmp(p, "exe");
}

/* 1 if path was /proc/self/exe, now the program's path. */
static int self_exe(struct sg_thread *t, char *path, unsigned long size)
{
	if (!is_self_exe(path, t->pid))
		return 0;
	sg_strlcpy(path, sg.exe_path, size);
	return 1;
}

/* readlink/readlinkat of /proc/self/exe under the loader: the program. */
int sg_readlink_self_exe(struct sg_thread *t, struct sysgate_sys *s)
{
	int at = s->nr != SG_NR_readlink;
	char path[32];
	unsigned long len = sg_strlen(sg.exe_path), max = s->args[at ? 3 : 2];

	if (sg_read_str_safe(path, (const char *)s->args[at ? 1 : 0],
			     sizeof(path)) < 0 ||
	    (at && path[0] != '/') || !is_self_exe(path, t->pid))
		return 0;
	if ((long)max <= 0) {
		s->ret = -22;	/* EINVAL */
		return 1;
	}
	if (len > max)
		len = max;	/* truncated, as readlink does */
	s->ret = sg_write_safe((void *)s->args[at ? 2 : 1], sg.exe_path,
			       len) < 0 ? -14 : (long)len;
	return 1;
}

#define F_GETFD_ 1
#define F_SETFD_ 2
#define FD_CLOEXEC_ 1

/*
 * fexecve through the loader: the program is /proc/self/fd/N (or
 * /dev/fd/N, or /dev/fd/N/PATH for execveat relative to a directory),
 * which the loader opens after the execve, so a close-on-exec N must
 * survive it; the loader's runtime closes it (SYSGATE_EXEC_FD) as
 * the kernel would have.  N, or -1 when nothing is needed; -ENOENT for a
 * script, which the kernel cannot run from a descriptor it closes.
 */
static long exec_fd(const char *path, long kind)
{
	char num[16];
	const char *p;
	long n, fl;
	size_t i;

	if (!sg_strncmp(path, "/proc/self/fd/", 14))
		p = path + 14;
	else if (!sg_strncmp(path, "/dev/fd/", 8))
		p = path + 8;
	else
		return -1;
	/* N, or the directory N of N/PATH (execveat relative to it) */
	for (i = 0; i + 1 < sizeof(num) && p[i] && p[i] != '/'; i++)
		num[i] = p[i];
	num[i] = 0;
	n = p[i] && p[i] != '/' ? -1 : sg_env_fd_number(num);
	if (n < 0)
		return -1;
	fl = sg_sc2(SG_NR_fcntl, n, F_GETFD_);
	if (fl < 0 || !(fl & FD_CLOEXEC_))
		return -1;
	return kind == 2 ? -2 : n;
}

/*
 * Whether the new environment starts another sysgate (sysgate under
 * sysgate: the inner CLI hands its program its own options, state and
 * root): then that sysgate's LD_PRELOAD and variables are not ours to
 * strip or replace.  buf holds one variable.
 */
static int starts_other_sysgate(char *const *envp, unsigned long n,
				const char *peeks, char *buf,
				unsigned long size)
{
	unsigned long i;

	for (i = 0; i < n; i++)
		if (sg_env_is_start_var(peeks + i * (ENV_PEEK + 1)) &&
		    sg_read_str_safe(buf, envp[i], size) >= 0 &&
		    sg_env_is_foreign(buf))
			return 1;
	return 0;
}

/* One execve or execveat as sysgate rewrites it, step by step. */
struct exec_plan {
	int at;			/* execveat: path, argv, envp one further */
	const char *path;	/* what the kernel is given (execve) */
	char *const *envp, *const *argv;
	unsigned long nenv, argc;
	char **env;		/* envp's pointers, read once */
	char *peeks;		/* the start of each, ENV_PEEK + 1 apart */
	char **newenv, **newargv;
	char *loader;		/* the loader's path, when static_prog */
	char *strs;		/* room for the strings sysgate adds */
	int follow, nested, renamed;
	int static_prog;	/* started by the loader (2: a script) */
	long kind;		/* what the loader is given the program as */
	long keep;		/* the program's descriptor, for the loader */
	long state;		/* shared state reopened for the new program */
	long path_len;		/* execve's path read into pathbuf, or -errno */
	struct exec_status status;	/* (where the loader's choice read it) */
	struct sg_fd_stat st;	/* pathbuf's, where stat_ok (exec_missing) */
	int stat_ok;
	char *preload_old;	/* the program's LD_PRELOAD without ours */
	size_t preload_len;
	char pathbuf[512];
};

/* Length of a NULL-terminated vector; -1 where it cannot be read.  Read
 * a page's worth at a time, not a call per pointer. */
static long count_vector(char *const *v)
{
	char *chunk[64];
	long n = 0;

	if (!v)
		return 0;
	for (;;) {
		unsigned long a = (unsigned long)&v[n];
		size_t len = 4096 - (a & 4095), i;

		if (len > sizeof(chunk))
			len = sizeof(chunk);
		len -= len % sizeof(char *);
		if (!len)	/* a pointer across a page's end */
			len = sizeof(char *);
		if (sg_read_safe(chunk, (const void *)a, len) < 0)
			return -1;
		for (i = 0; i < len / sizeof(char *); i++, n++)
			if (!chunk[i])
				return n;
	}
}

/* Room for the new environment, argv and the strings sysgate adds:
 * 0, -1 for an unreadable vector, -2 when no memory. */
static int exec_layout(struct sg_thread *t, struct exec_plan *p)
{
	long n = count_vector(p->envp), argc = count_vector(p->argv);
	unsigned long need;

	if (n < 0 || argc < 0)
		return -1;
	p->nenv = n;
	p->argc = argc;
	need = (2 * n + 16 + sg.nhooks + argc + 4) * sizeof(char *) +
	       (n + argc) * (ENV_PEEK + 1) + sg_env_extra_size() + 8192 +
	       512;
	p->newenv = (char **)exec_buf(t, need);
	if (!p->newenv)
		return -2;
	p->newargv = p->newenv + n + 16 + sg.nhooks;
	p->env = p->newargv + argc + 4;
	p->peeks = (char *)(p->env + n);
	p->loader = p->peeks + (n + argc) * (ENV_PEEK + 1);
	p->strs = p->loader + 512;
	/* A copy of the pointers: another thread changing the program's
	 * array meanwhile cannot make sysgate read through a bad one. */
	if (sg_read_safe(p->env, p->envp, n * sizeof(char *)) < 0 ||
	    sg_peek_strs(p->env, n, p->peeks, ENV_PEEK + 1) < 0)
		return -1;
	return 0;
}

/* The program's path into pathbuf (through /dev/fd for execveat). */
static long exec_read_path(struct sg_thread *t, const struct sysgate_sys *s,
			   struct exec_plan *p)
{
	long r = p->at ? execveat_path(s, p->pathbuf, sizeof(p->pathbuf))
		       : p->path_len;

	if (r >= 0)
		p->renamed = self_exe(t, p->pathbuf, sizeof(p->pathbuf));
	if (p->renamed)
		p->stat_ok = 0;	/* (exec_missing's was of the old name) */
	return r;
}

/*
 * Under -m seccomp every program, followed or not, starts through the
 * loader: nothing else can run under the filter.  0 to go on, else the
 * call's result.
 */
static long route_seccomp(struct sg_thread *t, const struct sysgate_sys *s,
			  struct exec_plan *p)
{
	long r = exec_read_path(t, s, p);

	if (r >= 0)
		r = loader_can_start(p->pathbuf);
	if (r > 0 && sg_starts_set_id(p->pathbuf, p->stat_ok ? &p->st : 0)) {
		/* The loader would run it with the caller's credentials:
		 * refused, as an LSM would. */
		not_traced_set_id(p->pathbuf, ": -m seccomp cannot run it");
		return -1;	/* EPERM */
	}
	if (r < 0)
		return r;
	p->kind = r;
	if (!r && p->follow)
		not_hooked_32(p->pathbuf);
	p->static_prog = r && via_loader(&p->status, p->pathbuf, p->argv,
					 p->argc, p->newargv, p->loader, 512);
	if (r && !p->static_prog)
		return -ENOMEM_;
	return 0;
}

/* Otherwise a static program (any, under --loader) goes to the loader;
 * a set-ID program is let go. */
static void route(struct sg_thread *t, const struct sysgate_sys *s,
		  struct exec_plan *p)
{
	if (exec_read_path(t, s, p) < 0)
		return;
	if (p->follow &&
	    sg_starts_set_id(p->pathbuf, p->stat_ok ? &p->st : 0)) {
		not_traced_set_id(p->pathbuf, ": not traced");
		p->follow = 0;
	}
	p->static_prog = p->follow ? via_loader(&p->status, p->pathbuf,
						p->argv, p->argc, p->newargv,
						p->loader, 512)
				   : 0;
	p->kind = p->static_prog;
	if (!p->at && sg.exe_path && !p->static_prog && !sg.exe_set)
		p->path = p->pathbuf;
}

/*
 * The loader opens the program's path itself (or the descriptor kept
 * for it); AT_EXECFN is the name the program gave ("execfn=NAME" as the
 * loader's argv[0], which no one else sees).  0, -2 for ENOENT, or 1
 * when the name cannot be read.
 */
static long loader_names_program(const struct sysgate_sys *s,
				 struct exec_plan *p)
{
	p->keep = exec_fd(p->pathbuf, p->kind);
	if (p->keep == -2)
		return -2;
	if (p->renamed) {
		p->newargv[0] = p->strs;
		memcpy(p->strs, "execfn=", 7);
		p->strs += 7;
		if (sg_read_str_safe(p->strs, p->at ? (const char *)s->args[1]
						    : p->path, 512) < 0)
			return 1;
		p->strs += sg_strlen(p->strs) + 1;
	}
	return 0;
}

/*
 * The program's variables without ours, then what the new program
 * needs: ours again when followed, its own LD_PRELOAD, and what the
 * loader must be told.  -1 when a variable cannot be read.
 */
static int build_env(struct exec_plan *p)
{
	unsigned long i, k = 0;
	long slot = -1;		/* where the program's LD_PRELOAD was */
	char **e = p->newenv, *pre = 0;

	for (i = 0; i < p->nenv; i++) {
		char *v = p->env[i];
		const char *peek = p->peeks + i * (ENV_PEEK + 1);

		if (is_var(peek, "LD_PRELOAD")) {
			/* Keep the program's other preloads. */
			long len = sg_read_str_safe(p->strs, v + 11, 4096);

			if (len < 0)
				return -1;
			p->preload_old = p->strs;
			p->preload_len = strip_self(p->strs, p->strs, len);
			p->strs += p->preload_len + 1;
			if (slot < 0)
				slot = k++;
			continue;
		}
		if (is_ours(peek) && !p->nested)
			continue;
		e[k++] = v;
	}
	/* (The loader's runtime owns a followed program it starts: no
	 * second copy through LD_PRELOAD.)  The program's own stays where
	 * it was among its variables. */
	if (p->follow && !p->static_prog)
		pre = sg_env_preload(&p->strs, p->preload_old, p->preload_len);
	else if (p->preload_len)
		pre = put_var(&p->strs, "LD_PRELOAD", p->preload_old,
			      p->preload_len);
	if (slot >= 0 && pre) {
		e[slot] = pre;
	} else if (slot >= 0) {
		for (k--; (unsigned long)slot < k; slot++)
			e[slot] = e[slot + 1];
	} else if (pre) {
		e[k++] = pre;
	}
	if (p->follow)
		k = sg_env_add_ours(e, k, &p->strs,
				    p->state >= 0 ? p->state : sg.state_fd);
	/* -b execve: the loader lets the program go once its execve's line
	 * is out (tools/loader/loader.c) */
	if (p->follow && p->static_prog && sg.opts && sg.opts->detach_execve)
		e[k++] = put_var(&p->strs, "SYSGATE_DETACH", "1", 1);
	if (sg.seccomp_on && p->static_prog) {
		/* The loader must know the filter is already there, and an
		 * unfollowed program that it only passes on. */
		int passive = !p->follow && !p->nested;

		if (passive)
			e[k++] = put_var(&p->strs, "SYSGATE_OPTIONS",
					 "-m seccomp", 10);
		e[k++] = put_var(&p->strs, "SYSGATE_SECCOMP", "1", 1);
		if (passive)
			e[k++] = put_var(&p->strs, "SYSGATE_PASSIVE", "1", 1);
	}
	if (p->keep >= 0)
		e[k++] = sg_env_put_fd(&p->strs, "SYSGATE_EXEC_FD", p->keep);
	if (p->follow && p->static_prog && p->status.known) {
		char x[24], *v = sg_xtoa(x + sizeof(x), p->status.ign);

		e[k++] = put_var(&p->strs, "SYSGATE_SIG", v, sg_strlen(v));
	}
	e[k] = 0;
	return 0;
}

/* The exec itself; the descriptors handed down are inheritable only
 * for its duration. */
static long exec_run(const struct sysgate_sys *s, struct exec_plan *p)
{
	long a[6], r;
	int i;

	for (i = 0; i < 6; i++)
		a[i] = s->args[i];
	a[p->at ? 3 : 2] = (long)p->newenv;
	if (!p->at)
		a[0] = (long)p->path;
	if (p->follow)
		sg_fd_exec(1);
	if (p->keep >= 0)
		sg_sc3(SG_NR_fcntl, p->keep, F_SETFD_, 0);
	if (p->state >= 0)
		sg_sc3(SG_NR_fcntl, p->state, F_SETFD_, 0);
	if (p->static_prog)
		r = sg_sc3(SG_NR_execve, (long)p->loader, (long)p->newargv,
			   (long)p->newenv);
	else
		r = sg_sc6(s->nr, a[0], a[1], a[2], a[3], a[4], a[5]);
	if (p->follow)
		sg_fd_exec(0);
	if (p->keep >= 0)
		sg_sc3(SG_NR_fcntl, p->keep, F_SETFD_, FD_CLOEXEC_);
	if (p->state >= 0)
		sg_sc1(SG_NR_close, p->state);
	return r;
}

/*
 * Does this kernel open the program before it reads argv and envp?
 * Linux 6.8 and later do (fs/exec.c, alloc_bprm): a missing program is
 * ENOENT whatever the vectors hold.  Older ones (6.1 among them) count
 * and copy the strings first, and a bad one is EFAULT even then.  Asked
 * of the kernel once per process: a missing path with a bad argv.
 */
static int kernel_opens_first(void)
{
	static int known;	/* 0 unknown, 1 yes, 2 no */

	if (!known)
		known = sg_sc3(SG_NR_execve, (long)"/proc/self/sysgate-none",
			       1 /* a bad argv */, 0) == -2 ? 1 : 2;
	return known == 1;
}

/*
 * A program that is not there: -ENOENT or -ENOTDIR as the kernel would
 * answer, without the new environment, state descriptor and loader
 * checks made for it (execvp's PATH search tries one directory after
 * another: each miss paid some twenty calls, then the reads of every
 * variable); else 0.
 */
static long exec_missing(struct exec_plan *p)
{
	long r;

	if (p->at || p->path_len < 0)
		return 0;
	r = sg_path_stat(p->pathbuf, &p->st);
	p->stat_ok = r == 0;
	return r == -2 || r == -20 ? r : 0;
}

/* Where the kernel copies the strings before it opens the program, a
 * missing one is answered only once every string is seen to be
 * readable (the first bytes of each; exec_layout read the
 * environment's): a bad one is EFAULT there. */
static int argv_readable(struct exec_plan *p)
{
	char *argv_peeks = p->peeks + p->nenv * (ENV_PEEK + 1);

	return sg_read_safe(p->newargv, p->argv, p->argc * sizeof(char *)) >=
		       0 &&
	       sg_peek_strs(p->newargv, p->argc, argv_peeks, ENV_PEEK + 1) >=
		       0;
}

/* Bad pointers: the kernel gives its own answer, in its own order (a
 * missing file may come first), and the exec fails there. */
static long exec_unchanged(const struct sysgate_sys *s, long state)
{
	long r;

	if (state >= 0)
		sg_sc1(SG_NR_close, state);
	r = sg_sc6(s->nr, s->args[0], s->args[1], s->args[2], s->args[3],
		   s->args[4], s->args[5]);
	sg_env_exec_failed();
	return r;
}

static long exec_call(struct sg_thread *t, struct sysgate_sys *s)
{
	struct exec_plan p;
	long r, missing;

	memset(&p, 0, sizeof(p));
	p.at = s->nr == SG_NR_execveat;
	p.path = (const char *)s->args[p.at ? 1 : 0];
	p.argv = (char *const *)s->args[p.at ? 2 : 1];
	p.envp = (char *const *)s->args[p.at ? 3 : 2];
	p.follow = !t->hooks_off && !sg_attach_active();
	p.keep = p.state = -1;

	p.path_len = sg_read_str_safe(p.pathbuf, p.path, sizeof(p.pathbuf));
	if (!t->hooks_off && p.path_len >= 0)
		sg_hooks_exec(t, p.pathbuf);
	missing = exec_missing(&p);
	if (missing && kernel_opens_first())
		return missing;
	r = exec_layout(t, &p);
	if (r == -2 && sg.seccomp_on)
		return -ENOMEM_;
	if (r < 0)
		return exec_unchanged(s, -1);
	if (missing && argv_readable(&p))
		return missing;

	p.nested = starts_other_sysgate(p.env, p.nenv, p.peeks, p.strs,
					sg_env_extra_size());
	if (p.nested) {
		if (p.follow)
			sg_warn("a nested sysgate starts a program: it is "
				"that sysgate's, not followed");
		p.follow = 0;
		/* Under -m seccomp it must still start through the loader,
		 * whose runtime then serves that sysgate. */
		if (!sg.seccomp_on)
			return exec_unchanged(s, -1);
	}
	if (sg.seccomp_on) {
		r = route_seccomp(t, s, &p);
		if (r)
			return r;
	} else {
		route(t, s, &p);
	}
	if (p.static_prog) {
		r = loader_names_program(s, &p);
		if (r == -2)
			return -2;	/* ENOENT */
		if (r)
			return exec_unchanged(s, -1);
	}
	/* The shared state for the new program, opened anew where this
	 * process holds none (core/init.c); a local descriptor, as a vfork
	 * child shares sg with its parent. */
	if (p.follow && sg.state_fd < 0 && sg.shared_base) {
		p.state = sg_shared_reopen();
		p.state = p.state < 0 ? -1 : sg_fd_hide(p.state);
	}
	if (build_env(&p) < 0)
		return exec_unchanged(s, p.state);
	r = exec_run(s, &p);
	sg_env_exec_failed();
	return r;
}

/*
 * The signals sysgate claims that the program blocks (kept deliverable,
 * blocked in its view: sg_signal_rt_sigprocmask) are blocked for the
 * exec, so that the new program starts with the mask it has natively
 * (sg_signal_unblock_claimed then does the same for it); and unblocked
 * again where the exec fails.
 */
long sg_execve(struct sg_thread *t, struct sysgate_sys *s)
{
	unsigned long kept = t->claimed_blocked;
	long r;

	if (kept)
		sg_sc4(SG_NR_rt_sigprocmask, 0 /* SIG_BLOCK */, (long)&kept, 0,
		       8);
	r = exec_call(t, s);
	if (kept)
		sg_sc4(SG_NR_rt_sigprocmask, 1 /* SIG_UNBLOCK */, (long)&kept,
		       0, 8);
	return r;
}
