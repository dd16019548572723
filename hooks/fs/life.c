/* SPDX-License-Identifier: MIT */
/*
 * fs: process life and start-up.  fork copies the descriptor table (and
 * takes references), threads share it, a vfork child gets its own copy so
 * it cannot change its parent's, and execve carries it to the next
 * program.  fs_init parses --fs and makes or attaches the arena.
 */
#include <asm/unistd.h>
#include <asm/stat.h>
#include <asm/statfs.h>
#include <linux/errno.h>
#include <linux/fcntl.h>
#include <linux/mman.h>
#include <linux/stat.h>
#include "front.h"
#include "../lib/args.h"
#include "../lib/fmt.h"

#define PR_SET_NAME_ 15

/* What execve hands to the next program. */
struct carry {
	int arena_fd;
	int ep_fd;
	int ph_fd;
	unsigned int cwd;
	int exec_fd;			/* a program of ours, copied (exec.c) */
	char comm[16];			/* its name */
	char scwd[FS_PATH_MAX];		/* a text store's working directory */
	int n;
	struct { int fd; unsigned short ofd, cloexec; } e[2048];
};

__thread int fs_vforking;

extern struct sysgate_hook sg_builtin_fs;

void fs_note_clone(struct sysgate_sys *s)
{
	unsigned long fl = s->args[0];

	if (s->nr == __NR_vfork) {
		fs_vforking = 1;
		return;
	}
	if (s->nr == __NR_clone3 &&
	    fs_read_mem(s, &fl, (void *)s->args[0], sizeof(fl)) < 0)
		fl = 0;
	fs_vforking = (fl & CLONE_VM_) && !(fl & CLONE_THREAD_);
}

static void take_refs(struct proc *p)
{
	int fd;

	for (fd = 0; fd < p->maxfd; fd++)
		if (p->ofd[fd])
			fs_ofd_ref(p->pid, p->ofd[fd]);
}

void fs_fork_child(void *data)
{
	int pid = fs_sc(__NR_getpid, 0, 0, 0, 0, 0, 0);

	(void)data;
	if (!fs_ready)
		return;
	fs_lock(pid);
	fs_born(pid);
	if (fs_vforking) {
		/* The parent's memory: work on a copy of its table. */
		struct proc *src = &fs_procs[0];

		hk_memcpy(&fs_procs[1], src, sizeof(*src) - sizeof(src->ofd) +
			  src->maxfd * sizeof(src->ofd[0]));
		hk_memset(fs_procs[1].ofd + src->maxfd, 0,
			  (MAXFD - src->maxfd) * sizeof(src->ofd[0]));
		fs_procs[1].pid = pid;
		take_refs(&fs_procs[1]);
		fs_vforking = 0;
	} else {
		fs_procs[0].pid = pid;
		fs_procs[1].pid = 0;
		take_refs(&fs_procs[0]);
	}
	fs_unlock();
}

void fs_exec(const char *path, void *data)
{
	static struct carry c;
	int pid = fs_sc(__NR_getpid, 0, 0, 0, 0, 0, 0), fd;
	struct proc *p = fs_proc_of(pid);

	(void)path;
	if (!fs_ready)
		return;
	/* The next program makes a client of its own: end this one's
	 * session now, not when the cluster times it out. */
	if (fs_store == &fs_ceph_store)
		fs_ceph_end();
	c.arena_fd = fs_ar.fd;
	c.ep_fd = fs_ep_fd;
	c.ph_fd = fs_ph_fd;
	c.cwd = p->cwd;
	hk_memcpy(c.scwd, p->scwd, sizeof(c.scwd));
	c.exec_fd = fs_exec_fd - 1;
	hk_memcpy(c.comm, fs_exec_comm, sizeof(c.comm));
	c.n = 0;
	for (fd = 0; fd < p->maxfd && c.n < (int)(sizeof(c.e) / sizeof(c.e[0]));
	     fd++) {
		if (!p->ofd[fd])
			continue;
		c.e[c.n].fd = fd;
		c.e[c.n].ofd = p->ofd[fd];
		c.e[c.n].cloexec = fs_sc(__NR_fcntl, fd, F_GETFD, 0, 0, 0, 0) != 0;
		c.n++;
	}
	sysgate_exec_carry(data, &c, (char *)&c.e[c.n] - (char *)&c);
}

void fs_fini(void *data)
{
	struct proc *p = &fs_procs[0];
	int fd;

	(void)data;
	if (!fs_ready)
		return;
	fs_lock(p->pid);
	for (fd = 0; fd < p->maxfd; fd++)
		fs_drop(p, fd);
	fs_unlock();
	if (fs_store == &fs_ceph_store)
		fs_ceph_end();
}

/* The previous program's table: descriptors that survived execve. */
static void take_carried(const struct carry *c, long len)
{
	int i;

	/* The program's copy (exec.c) is open no more; the process is
	 * named after the program, not after that descriptor or the
	 * script's interpreter. */
	if (c->exec_fd >= 0)
		fs_sc(__NR_close, c->exec_fd, 0, 0, 0, 0, 0);
	if (c->comm[0])
		fs_sc(__NR_prctl, PR_SET_NAME_, (long)c->comm, 0, 0, 0, 0);
	fs_lock(fs_procs[0].pid);
	fs_procs[0].cwd = c->cwd;
	hk_memcpy(fs_procs[0].scwd, c->scwd, sizeof(c->scwd));
	for (i = 0; i < c->n && (char *)&c->e[i + 1] - (char *)c <= len; i++) {
		int fd = c->e[i].fd;

		if (c->e[i].cloexec || fd < 0 || fd >= MAXFD ||
		    fs_sc(__NR_fcntl, fd, F_GETFD, 0, 0, 0, 0) < 0) {
			fs_ofd_unref(fs_procs[0].pid, c->e[i].ofd);
			continue;
		}
		fs_install(&fs_procs[0], fd, c->e[i].ofd);
	}
	fs_unlock();
}

static int parse_size(const char *v, size_t n, unsigned long *out)
{
	unsigned long x = 0, mul = 1;
	size_t i;

	if (n && (v[n - 1] == 'K' || v[n - 1] == 'k'))
		mul = 1UL << 10, n--;
	else if (n && (v[n - 1] == 'M' || v[n - 1] == 'm'))
		mul = 1UL << 20, n--;
	else if (n && (v[n - 1] == 'G' || v[n - 1] == 'g'))
		mul = 1UL << 30, n--;
	if (!n)
		return -1;
	for (i = 0; i < n; i++) {
		if (v[i] < '0' || v[i] > '9' || x > (1UL << 40))
			return -1;
		x = x * 10 + (v[i] - '0');
	}
	*out = x * mul;
	return *out ? 0 : -1;
}

/* The prefix, made canonical: absolute, no "." or "..", no trailing '/'. */
static int set_prefix(const char *v, size_t n)
{
	size_t i = 0, o = 0;

	if (!n || v[0] != '/' || n >= FS_PATH_MAX)
		return -1;
	while (i < n) {
		size_t j;

		while (i < n && v[i] == '/')
			i++;
		if (i == n)
			break;
		for (j = i; j < n && v[j] != '/'; j++)
			;
		if ((j - i == 1 && v[i] == '.') ||
		    (j - i == 2 && v[i] == '.' && v[i + 1] == '.'))
			return -1;
		fs_prefix[o++] = '/';
		hk_memcpy(fs_prefix + o, v + i, j - i);
		o += j - i;
		i = j;
	}
	if (!o)
		return -1;	/* "/" itself */
	fs_prefix[o] = 0;
	fs_prefix_len = o;
	return 0;
}

/* One line for why the file system could not be set up. */
static int image_error(struct sysgate_ctx *ctx, long r)
{
	static char msg[200];
	struct fmt f;

	if (r != -EINVAL && r != -EPERM && r != -EUCLEAN)
		return sysgate_error(ctx, "--fs: cannot create the file system");
	fmt_init(&f, msg, sizeof(msg));
	fmt_str(&f, "--fs: BACKING/sysgate-fs.img ");
	fmt_str(&f, r == -EINVAL ? "is not a sysgate file system" :
		r == -EPERM ? fs_image_why : "is corrupt: ");
	if (r == -EUCLEAN)
		fmt_str(&f, fs_image_why);
	fmt_str(&f, "; refused");
	msg[f.len < sizeof(msg) ? f.len : sizeof(msg) - 1] = 0;
	return sysgate_error(ctx, msg);
}

int fs_init(struct sysgate_ctx *ctx, const char *args)
{
	/* Beyond the file, descriptor and stat classes: vfork-like clones
	 * (see fs_fork_child), mmap of our files, waiting on descriptors. */
	static const char *const extra[] = {
		"clone", "clone3", "vfork", "mmap", "poll", "ppoll", "select",
		"pselect6", "epoll_ctl", "epoll_wait", "epoll_pwait",
		"epoll_pwait2", "getcwd", "chdir", "fchdir",
	};
	static char backing[FS_PATH_MAX];
	unsigned int i;
	static struct carry c;
	unsigned long limit = 0;
	int check = sysgate_init_only_checks(ctx), have_backing = 0;
	struct arg a;
	long r;

	while (args_next(&args, &a)) {
		if (arg_is(&a, "prefix") && a.val) {
			if (set_prefix(a.val, a.vlen))
				return sysgate_error(ctx, "--fs: PREFIX must be an "
						     "absolute path below / "
						     "without . or ..");
		} else if (arg_is(&a, "backing") && a.val) {
			if (!a.vlen || a.vlen >= sizeof(backing))
				return sysgate_error(ctx, "--fs: bad BACKING "
							  "directory");
			hk_memcpy(backing, a.val, a.vlen);
			backing[a.vlen] = 0;
			have_backing = 1;
		} else if (arg_is(&a, "size") && a.val) {
			if (parse_size(a.val, a.vlen, &limit))
				return sysgate_error(ctx, "--fs-size: expected a "
							  "size such as 64M");
		} else {
			return sysgate_error(ctx, "fs: unknown argument");
		}
	}
	if (!fs_prefix_len)
		return sysgate_error(ctx, "--fs: PREFIX missing");
	if (have_backing && !hk_strncmp(backing, "ceph:", 5)) {
		/* CephFS (ceph.c): its client's code uses the vector
		 * registers, which the program's must survive. */
		const char *why = fs_ceph_setup(backing + 5,
						hk_strlen(backing + 5), 1, 0);

		if (why)
			return sysgate_error(ctx, why);
		sg_builtin_fs.flags &= ~SYSGATE_HOOK_NOFPU;
		fs_store = &fs_ceph_store;
		have_backing = 0;
	}
	if (have_backing) {
		struct stat st;

		r = fs_sc(__NR_newfstatat, AT_FDCWD, (long)backing, (long)&st, 0,
		       0, 0);
		if (r < 0 || !S_ISDIR(st.st_mode))
			return sysgate_error(ctx, r == -ENOENT || r >= 0 ?
					     "--fs: BACKING is not an existing "
					     "directory" :
					     "--fs: cannot reach BACKING");
	}
	if (check)
		return 0;
	r = fs_sc(__NR_mmap, 0, 2 * sizeof(struct proc), PROT_READ | PROT_WRITE,
	       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (sysgate_is_error(r))
		return sysgate_error(ctx, "fs: out of memory");
	fs_procs = (struct proc *)r;
	fs_procs[0].pid = fs_sc(__NR_getpid, 0, 0, 0, 0, 0, 0);
	fs_refresh_kcwd(&fs_procs[0]);
	r = sysgate_exec_carried(ctx, &c, sizeof(c));
	if (fs_store == &fs_ceph_store) {
		const char *why = fs_ceph_setup(backing + 5,
						hk_strlen(backing + 5), 0,
						r >= (long)sizeof(int) * 4);

		if (why)
			return sysgate_error(ctx, why);
	}
	if (r < (long)sizeof(int) * 4 || fs_arena_attach(c.arena_fd) < 0) {
		c.ph_fd = -1;
		r = fs_arena_create(have_backing ? backing : 0, limit);
		if (r < 0)
			return image_error(ctx, r);
		fs_lock(fs_procs[0].pid);
		fs_born(fs_procs[0].pid);	/* another run's, on BACKING */
		fs_unlock();
	} else {
		if (fs_sc(__NR_fcntl, c.ep_fd, F_GETFD, 0, 0, 0, 0) >= 0)
			fs_ep_fd = c.ep_fd;
		take_carried(&c, r);
	}
	if (fs_ep_fd < 0 && fs_epoll_sentinel() < 0)
		return sysgate_error(ctx, "--fs: cannot create an eventfd");
	if (fs_placeholder_init(c.ph_fd) < 0)
		return sysgate_error(ctx, "--fs: cannot create a memfd");
	sysgate_set_data(ctx, ctx);
	sysgate_select_class(ctx, SYSGATE_CLASS_FILE | SYSGATE_CLASS_DESC |
				  SYSGATE_CLASS_STAT);
	for (i = 0; i < sizeof(extra) / sizeof(extra[0]); i++)
		sysgate_select_name(ctx, extra[i]);
	sysgate_select(ctx, __NR_fchmodat2);
	/* (what may unmap, sync or move a shared mapping of CephFS's) */
	if (fs_store == &fs_ceph_store) {
		sysgate_select_name(ctx, "munmap");
		sysgate_select_name(ctx, "msync");
		sysgate_select_name(ctx, "mremap");
	}
	fs_calls_index();
	fs_ready = 1;
	return 0;
}

struct sysgate_hook sg_builtin_fs = {
	.abi = SYSGATE_HOOK_ABI,
	.flags = SYSGATE_HOOK_NOFPU,
	.name = "fs",
	.init = fs_init,
	.enter = fs_enter,
	.exit = fs_exit,
	.fork_child = fs_fork_child,
	.exec = fs_exec,
	.fini = fs_fini,
};
