/* SPDX-License-Identifier: MIT */
/*
 * Where tracers write: the -o file (FILE.<pid> with -ff) or a duplicate of
 * the stderr sysgate started with, kept at a high descriptor number and
 * protected from the program: close() of it fails with EBADF as if it were
 * not open, close_range() skips it, and dup2()/dup3() onto it first move it
 * out of the way.  Each record is one write(2) to an O_APPEND file.
 */
#include "sg.h"
#include "options.h"

#define O_WRONLY_ 01
#define O_CREAT_ 0100
#define O_APPEND_ 02000
#define O_TRUNC_ 01000
#define O_CLOEXEC_ 02000000
#define F_DUPFD_CLOEXEC_ 1030
#define RLIMIT_NOFILE_ 7
#define AT_FDCWD_ -100

static const struct sg_options *opts;

struct sg_rlimit {
	unsigned long cur, max;
};

static int high_fd_base(void)
{
	struct sg_rlimit r;

	if (sg_sc4(SG_NR_prlimit64, 0, RLIMIT_NOFILE_, 0, (long)&r) < 0 ||
	    r.cur < 128)
		return 10;
	if (r.cur > 1024)
		r.cur = 1024;
	return r.cur - 64;
}

/* Move fd to a high number, close-on-exec. */
static int park(int fd)
{
	int h = sg_sc3(SG_NR_fcntl, fd, F_DUPFD_CLOEXEC_, high_fd_base());

	if (h >= 0) {
		sg_sc1(SG_NR_close, fd);
		return h;
	}
	return fd;
}

static int open_output(int truncate)
{
	char path[600], num[24];
	const char *p = opts->outfile;
	long fd;

	if (opts->follow == 2) {
		size_t n = sg_strlcpy(path, p, sizeof(path) - 24);

		path[n] = '.';
		sg_strlcpy(path + n + 1, sg_utoa(num + sizeof(num), sg.pid),
			   sizeof(path) - n - 1);
		p = path;
		truncate = 1;
	}
	fd = sg_sc4(SG_NR_openat, AT_FDCWD_, (long)p,
		    O_WRONLY_ | O_CREAT_ | O_APPEND_ | O_CLOEXEC_ |
			    (truncate ? O_TRUNC_ : 0), 0644);
	if (fd < 0)
		return fd;
	return park(fd);
}

int sg_output_init(const struct sg_options *o)
{
	long fd;

	opts = o;
	if (o->outfile) {
		/* The CLI creates or truncates the file; a preload-only root
		 * process does it itself. */
		fd = open_output(sg.is_root && !o->append &&
				 !sg.cli);
		if (fd < 0)
			return fd;
	} else {
		fd = sg_sc3(SG_NR_fcntl, 2, F_DUPFD_CLOEXEC_, high_fd_base());
		if (fd < 0)
			fd = 2;
	}
	sg.out_fd = fd;
	return 0;
}

void sg_output_fork_child(void)
{
	long fd;

	if (!opts || opts->follow != 2)
		return;
	fd = open_output(1);
	if (fd >= 0) {
		sg_sc1(SG_NR_close, sg.out_fd);
		sg.out_fd = fd;
	}
}

void sysgate_output(struct sysgate_ctx *ctx, const char *buf, size_t len)
{
	(void)ctx;
	sg_write_all(sg.out_fd, buf, len);
}

static int guard_close_range(struct sysgate_sys *s)
{
	unsigned long first = s->args[0], last = s->args[1];
	unsigned long p = sg.out_fd;
	long r = 0;

	if (p < first || p > last)
		return 0;
	if (p > first)
		r = sg_sc3(SG_NR_close_range, first, p - 1, s->args[2]);
	if (r >= 0 && p < last)
		r = sg_sc3(SG_NR_close_range, p + 1, last, s->args[2]);
	s->ret = r;
	return 1;
}

int sg_fd_guard(struct sysgate_sys *s)
{
	long fd = sg.out_fd;

	if (fd <= 2)
		return 0;
	if (s->nr == SG_NR_close && s->args[0] == fd) {
		s->ret = -9;	/* EBADF: the program never had it */
		return 1;
	}
	if (s->nr == SG_NR_close_range)
		return guard_close_range(s);
	if (s->nr == SG_NR_dup2 || s->nr == SG_NR_dup3) {
		if (s->args[0] == fd) {
			s->ret = -9;
			return 1;
		}
		if (s->args[1] == fd) {
			/* Move out of the way: high numbers first, where the
			 * program is least likely to notice us. */
			long h = sg_sc3(SG_NR_fcntl, fd, F_DUPFD_CLOEXEC_,
					high_fd_base() + 32);

			if (h < 0)
				h = sg_sc3(SG_NR_fcntl, fd, F_DUPFD_CLOEXEC_, 10);
			if (h >= 0)
				sg.out_fd = h;
		}
	}
	return 0;
}
