/* SPDX-License-Identifier: MIT */
/*
 * execve of a program stored here.  The kernel cannot read our files, so
 * the program is copied into a memfd and the call becomes an execve of
 * /proc/self/fd/M (a path, so that sysgate's loader can start it too).
 * M is not close-on-exec, since the loader opens it in the new program;
 * the next instance of this hook closes it (fs_exec carries its number)
 * and names the process after the program, not after M.
 *
 * A script (#!) is done as the kernel does it, here: the call becomes an
 * execve of its interpreter with INTERP [ARG] PATH ARGS..., and the
 * interpreter, hooked in turn, opens PATH from us.  An interpreter of
 * ours goes round again (four scripts deep at most, as the kernel).
 * Call with the arena lock held.
 */
#include <asm/unistd.h>
#include <linux/errno.h>
#include <linux/fcntl.h>
#include <linux/memfd.h>
#include <linux/mman.h>
#include "fs.h"
#include "../lib/fmt.h"

#define MFD_EXEC_ 0x10U		/* Linux 6.3: may be run under memfd_noexec */
#define HEAD 256		/* the kernel's BINPRM_BUF_SIZE */
#define MAXBUF 5

__thread int fs_exec_fd;
__thread char fs_exec_comm[16];
static __thread char exec_path[32];
/* argv arrays built for scripts: live until the execve is over */
static __thread struct { void *p; unsigned long len; } bufs[MAXBUF];

static long sc(long nr, long a, long b, long c, long d, long e, long f)
{
	return sysgate_syscall(nr, a, b, c, d, e, f);
}

void fs_exec_failed(void)
{
	int i;

	if (fs_exec_fd)
		sc(__NR_close, fs_exec_fd - 1, 0, 0, 0, 0, 0);
	fs_exec_fd = 0;
	hk_memset(fs_exec_comm, 0, sizeof(fs_exec_comm));
	for (i = 0; i < MAXBUF; i++)
		if (bufs[i].p) {
			sc(__NR_munmap, (long)bufs[i].p, bufs[i].len, 0, 0, 0,
			   0);
			bufs[i].p = 0;
		}
}

static const char *base_name(const char *path)
{
	const char *b = path;

	for (; *path; path++)
		if (*path == '/' && path[1])
			b = path + 1;
	return b;
}

/* The file's bytes in a new memfd; its descriptor or -errno. */
static long copy_out(const struct fs_exec_src *src)
{
	unsigned long size = src->size;
	long fd, map, r = 0;

	fd = sc(__NR_memfd_create, (long)fs_exec_comm, MFD_EXEC_, 0, 0, 0, 0);
	if (fd == -EINVAL)
		fd = sc(__NR_memfd_create, (long)fs_exec_comm, 0, 0, 0, 0, 0);
	if (fd < 0)
		return fd;
	fd = fs_high_fd(fd);
	if (size) {
		r = sc(__NR_ftruncate, fd, size, 0, 0, 0, 0);
		map = r < 0 ? r : sc(__NR_mmap, 0, size, PROT_READ | PROT_WRITE,
				     MAP_SHARED, fd, 0);
		if (!r && sysgate_is_error(map))
			r = map;
		if (!r) {
			r = src->read(src->ctx, (void *)map, size, 0);
			sc(__NR_munmap, map, size, 0, 0, 0, 0);
		}
	}
	if (r < 0) {
		sc(__NR_close, fd, 0, 0, 0, 0, 0);
		return r;
	}
	return fd;
}

/* Room for an argv array and its strings, freed by fs_exec_failed. */
static char *room(unsigned long len)
{
	long p;
	int i;

	for (i = 0; i < MAXBUF && bufs[i].p; i++)
		;
	if (i == MAXBUF)
		return 0;
	len = (len + 4095) & ~4095UL;
	p = sc(__NR_mmap, 0, len, PROT_READ | PROT_WRITE,
	       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (sysgate_is_error(p))
		return 0;
	bufs[i].p = (void *)p;
	bufs[i].len = len;
	return (char *)p;
}

static char *put(char **at, const char *s, unsigned long n)
{
	char *r = *at;

	hk_memcpy(r, s, n);
	r[n] = 0;
	*at += n + 1;
	return r;
}

/*
 * "#!INTERP [ARG]" in head[0..len): the call becomes execve(INTERP,
 * {INTERP, [ARG,] name, argv[1]...}, envp).
 */
static long script(struct sysgate_sys *s, char *head, long len,
		   const char *name, long uargv, long envp)
{
	char *p = head + 2, *end, *interp, *arg, **argv, *strs;
	unsigned long argc = 0, ilen, alen, nlen = hk_strlen(name), i;

	head[len] = 0;
	for (end = head; *end && *end != '\n'; end++)
		;
	if (!*end && len == HEAD - 1)
		return -ENOEXEC;	/* the interpreter may be cut short */
	*end = 0;
	while (*p == ' ' || *p == '\t')
		p++;
	interp = p;
	while (*p && *p != ' ' && *p != '\t')
		p++;
	ilen = p - interp;
	if (!ilen)
		return -ENOEXEC;
	while (*p == ' ' || *p == '\t')
		p++;
	arg = p;
	for (alen = hk_strlen(arg);
	     alen && (arg[alen - 1] == ' ' || arg[alen - 1] == '\t'); alen--)
		;
	for (;; argc++) {
		long q;

		if (!uargv)
			break;
		if (fs_read_mem(s, &q, (long *)uargv + argc, sizeof(q)) < 0)
			return -EFAULT;
		if (!q)
			break;
	}
	argv = (char **)room((argc + 4) * sizeof(char *) + ilen + alen +
			     nlen + 3);
	if (!argv)
		return -ENOMEM;
	strs = (char *)(argv + argc + 4);
	i = 0;
	argv[i++] = put(&strs, interp, ilen);
	if (alen)
		argv[i++] = put(&strs, arg, alen);
	argv[i++] = put(&strs, name, nlen);
	if (argc && fs_read_mem(s, argv + i, (long *)uargv + 1,
				     (argc - 1) * sizeof(char *)) < 0)
		return -EFAULT;
	argv[i + (argc ? argc - 1 : 0)] = 0;
	s->nr = __NR_execve;
	s->args[0] = (long)argv[0];
	s->args[1] = (long)argv;
	s->args[2] = envp;
	return 1;
}

static long arena_read(void *ctx, void *buf, unsigned long len,
		       unsigned long off)
{
	return fs_read(0, (unsigned int)(unsigned long)ctx, buf, len, off);
}

long fs_exec_prepare(struct sysgate_sys *s, unsigned int ino,
		     const char *name)
{
	struct fs_inode *n = fs_ino(ino);
	struct fs_exec_src src = { arena_read, (void *)(unsigned long)ino,
				   n->size };
	long r;

	if ((n->mode & 0170000) != 0100000)
		return -EACCES;
	r = fs_access(ino, 1);	/* X_OK */
	if (r < 0)
		return r;
	return fs_exec_prepare_src(s, &src, name);
}

long fs_exec_prepare_src(struct sysgate_sys *s, const struct fs_exec_src *src,
			 const char *name)
{
	int at = s->nr == __NR_execveat;
	long argv = s->args[at ? 2 : 1], envp = s->args[at ? 3 : 2], r, fd;
	char head[HEAD];
	struct fmt f;

	if (!fs_exec_comm[0]) {
		/* The process is named after the first file, a script's
		 * too, as the kernel names it. */
		const char *b = base_name(name);

		hk_memcpy(fs_exec_comm, b, fs_min(hk_strlen(b),
						  sizeof(fs_exec_comm) - 1));
	}
	r = src->read(src->ctx, head, fs_min(sizeof(head) - 1, src->size), 0);
	if (r >= 2 && head[0] == '#' && head[1] == '!')
		return script(s, head, r, name, argv, envp);
	fd = copy_out(src);
	if (fd < 0)
		return fd;
	if (fs_exec_fd)
		sc(__NR_close, fs_exec_fd - 1, 0, 0, 0, 0, 0);
	fs_exec_fd = fd + 1;
	fmt_init(&f, exec_path, sizeof(exec_path));
	fmt_str(&f, "/proc/self/fd/");
	fmt_dec(&f, fd);
	fmt_chr(&f, 0);
	s->nr = __NR_execve;
	s->args[0] = (long)exec_path;
	s->args[1] = argv;
	s->args[2] = envp;
	return 0;
}
