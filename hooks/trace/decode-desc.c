/* SPDX-License-Identifier: MIT */
/*
 * Descriptors: pipe2/dup3 flags, fcntl commands with their arguments and
 * results (ioctl: decode-ioctl.c).
 */
#include <fcntl.h>
#include <linux/fs.h>
#include <linux/limits.h>
#include <linux/memfd.h>
#include "trace.h"

static void d_pipe(struct call *c)
{
	p_fdpair(c, c->s->args[0]);
}

static void d_pipe2(struct call *c)
{
	p_fdpair(c, c->s->args[0]);
	a_int_flags(c, c->s->args[1], &xl_open_flags, "O_???");
}

static void d_fadvise64(struct call *c)
{
	a_fd(c, 0);
	a_dec(c, c->s->args[1]);
	/* (the length: strace's %llu) */
	a_udec(c, c->s->args[2]);
	a_xlat(c, (unsigned int)c->s->args[3], &xl_fadvise, "POSIX_FADV_???");
}

/* (the offset is an off_t: all of its 64 bits, where the table's kind
 * prints an int) */
static void d_lseek(struct call *c)
{
	a_fd(c, 0);
	a_dec(c, c->s->args[1]);
	a_xlat(c, (unsigned int)c->s->args[2], &xl_whence, "SEEK_???");
}

/* close(3</path>), dup2(4</a>, 10</b>): under -y the path of a
 * descriptor the call closes is read at entry, while it is open. */
static void keep_path(struct call *c, int i)
{
	struct trace_scratch *k = trace_scratch(c->s);
	struct fmt f;

	k->closing_len = 0;
	if (!trace_fdpaths)
		return;
	fmt_init(&f, k->closing, sizeof(k->closing));
	p_fdpath(&f, c->s, (int)c->s->args[i]);
	k->closing_len = f.full ? 0 : f.len;
}

static void e_close(struct call *c)
{
	keep_path(c, 0);
}

static void e_dup2(struct call *c)
{
	keep_path(c, 1);
}

/* the path keep_path kept at entry */
static void put_closing(struct call *c)
{
	const struct trace_scratch *k = trace_scratch(c->s);

	fmt_mem(c->f, k->closing, k->closing_len);
}

static void d_close(struct call *c)
{
	a_int(c, 0);
	put_closing(c);
}

static void d_dup2(struct call *c)
{
	a_fd(c, 0);
	a_int(c, 1);
	put_closing(c);
}

static void d_flock(struct call *c)
{
	a_fd(c, 0);
	a_flags(c, (unsigned int)c->s->args[1], &xl_flock_ops, 0);
}

/* The name up to the kernel's limit (NAME_MAX less "memfd:", and its
 * NUL); flags with the huge page size as strace's "30<<MFD_HUGE_SHIFT". */
static void d_memfd_create(struct call *c)
{
	unsigned int fl = (unsigned int)c->s->args[1];
	unsigned int huge = fl & (MFD_HUGE_MASK << MFD_HUGE_SHIFT);

	a_sep(c);
	p_str_max(c->f, c->s, c->s->args[0], NAME_MAX - 6 + 1);
	a_sep(c);
	/* (-X verbose: the names as printed abbreviated, in a comment, an
	 * unknown bit's comment and all) */
	if (!fl || trace_xstyle != XS_ABBREV)
		p_hex(c->f, fl);
	if (!fl || trace_xstyle == XS_RAW)
		return;
	if (trace_xstyle == XS_VERBOSE)
		fmt_str(c->f, " /* ");
	x_hold(c->f);
	if (fl & ~huge || !huge)
		p_flags_unknown(c->f, fl & ~huge, &xl_memfd_flags, "MFD_???");
	x_release(c->f);
	if (huge) {
		if (fl & ~huge)
			fmt_chr(c->f, '|');
		fmt_udec(c->f, huge >> MFD_HUGE_SHIFT);
		fmt_str(c->f, "<<MFD_HUGE_SHIFT");
	}
	if (trace_xstyle == XS_VERBOSE)
		fmt_str(c->f, " */");
}

static void d_signalfd4(struct call *c)
{
	a_int(c, 0);
	a_sigset(c, c->s->args[1], c->s->args[2]);
	a_udec(c, c->s->args[2]);
	a_flags(c, (unsigned int)c->s->args[3], &xl_sfd_flags, 0);
}

static void d_inotify_init1(struct call *c)
{
	a_int_flags(c, c->s->args[0], &xl_inotify_init_flags, "IN_???");
}

static void d_inotify_add_watch(struct call *c)
{
	a_fd(c, 0);
	a_path(c, 1);
	a_flags(c, (unsigned int)c->s->args[2], &xl_inotify_mask, 0);
}

/* sendfile's offset: [in => out], the value read at entry */
static void e_sendfile(struct call *c)
{
	long off;

	trace_saved(c)[0] = 0;
	if (c->s->args[2] && trace_read(c->s, &off, (void *)c->s->args[2],
					      sizeof(off)) == sizeof(off)) {
		trace_saved(c)[0] = 1;
		trace_saved(c)[1] = off;
	}
}

static void d_sendfile(struct call *c)
{
	long off;

	a_fd(c, 0);
	a_fd(c, 1);
	a_sep(c);
	if (!trace_saved(c)[0]) {
		p_ptr(c->f, c->s->args[2]);
	} else {
		/* (strace's: unsigned) */
		fmt_chr(c->f, '[');
		fmt_udec(c->f, trace_saved(c)[1]);
		fmt_chr(c->f, ']');
		if (c_ok(c) && trace_read(c->s, &off,
						(void *)c->s->args[2],
						sizeof(off)) == sizeof(off) &&
		    off != (long)trace_saved(c)[1]) {
			f_udec(c->f, " => [", off);
			fmt_chr(c->f, ']');
		}
	}
	a_udec(c, c->s->args[3]);
}

static void d_dup3(struct call *c)
{
	d_dup2(c);
	a_int_flags(c, c->s->args[2], &xl_open_flags, "O_???");
}

/* {l_type=F_WRLCK, l_whence=SEEK_SET, l_start=0, l_len=0[, l_pid=0]} */
static void a_flock(struct call *c, unsigned long p, int out)
{
	struct flock fl;
	struct fmt *f = c->f;

	if (fetch_arg(c, &fl, p, sizeof(fl), out))
		return;
	fmt_str(f, "{l_type=");
	p_xlat(f, fl.l_type, &xl_lock_types, 0);
	fmt_str(f, ", l_whence=");
	p_xlat(f, fl.l_whence, &xl_whence, 0);
	f_dec(f, ", l_start=", fl.l_start);
	f_dec(f, ", l_len=", fl.l_len);
	if (out) {
		fmt_str(f, ", l_pid=");
		p_pid(f, fl.l_pid, PT_TGID);
	}
	fmt_chr(f, '}');
}

/* {type=F_OWNER_PID, pid=1234} */
static void a_owner_ex(struct call *c, unsigned long p, int out)
{
	struct f_owner_ex o;

	if (fetch_arg(c, &o, p, sizeof(o), out))
		return;
	fmt_str(c->f, "{type=");
	p_xlat(c->f, (unsigned int)o.type, &xl_f_owner_types, "F_OWNER_???");
	fmt_str(c->f, ", pid=");
	p_pid(c->f, o.pid, o.type == F_OWNER_TID ? PT_TID :
			   o.type == F_OWNER_PID ? PT_TGID :
			   o.type == F_OWNER_PGRP ? PT_PGID : PT_NONE);
	fmt_chr(c->f, '}');
}

static void d_fcntl(struct call *c)
{
	unsigned long cmd = (unsigned int)c->s->args[1], arg = c->s->args[2];

	a_fd(c, 0);
	a_xlat(c, cmd, &xl_fcntl_cmds, "F_???");
	switch (cmd) {
	case F_GETFD: case F_GETFL: case F_GETOWN: case F_GETSIG:
	case F_GETLEASE: case F_GETPIPE_SZ: case F_GET_SEALS:
		return;
	case F_SETFD:
		a_flags(c, arg, &xl_fd_flags, 0);
		return;
	case F_SETFL:
		a_sep(c);
		p_open_flags(c->f, arg);
		return;
	case F_SETLEASE:
		a_xlat(c, arg, &xl_lock_types, 0);
		return;
	case F_ADD_SEALS:
		a_flags(c, arg, &xl_seals, 0);
		return;
	case F_DUPFD: case F_DUPFD_CLOEXEC: case F_SETPIPE_SZ:
		a_dec(c, (int)arg);
		return;
	case F_SETSIG:
		a_sep(c);
		p_signame(c->f, (int)arg);
		return;
	case F_NOTIFY:
		a_sep(c);
		p_flags_unknown(c->f, arg, &xl_notify_flags, "DN_???");
		return;
	case F_SETOWN:
		a_sep(c);
		p_pid_or_pgid(c->f, (int)arg);
		return;
	case F_SETOWN_EX: case F_GETOWN_EX:
		a_owner_ex(c, arg, cmd == F_GETOWN_EX);
		return;
	case F_GETLK: case F_OFD_GETLK:
		a_flock(c, arg, 1);
		return;
	case F_SETLK: case F_SETLKW: case F_OFD_SETLK: case F_OFD_SETLKW:
		a_flock(c, arg, 0);
		return;
	}
	a_hex(c, arg);
}

static void ret_flags(struct fmt *f, long v, const struct xlat *t)
{
	if (!v) {
		fmt_chr(f, '0');
		return;
	}
	fmt_hex(f, v);
	fmt_str(f, " (flags ");
	/* (styled as -X says, unlike F_GETFL's, as strace does) */
	p_flags(f, v, t, 0);
	fmt_chr(f, ')');
}

static void r_fcntl(struct call *c)
{
	long v = c->s->ret;

	switch ((unsigned int)c->s->args[1]) {
	case F_GETFL:
		p_hex(c->f, v);
		fmt_str(c->f, " (flags ");
		x_hold(c->f);
		p_open_flags(c->f, v);
		x_release(c->f);
		fmt_chr(c->f, ')');
		return;
	case F_GETFD:
		ret_flags(c->f, v, &xl_fd_flags);
		return;
	case F_GET_SEALS:
		ret_flags(c->f, v, &xl_seals);
		return;
	case F_GETLEASE:
		p_hex(c->f, v);
		fmt_str(c->f, " (");
		p_xlat(c->f, v, &xl_lock_types, 0);
		fmt_chr(c->f, ')');
		return;
	case F_DUPFD: case F_DUPFD_CLOEXEC:
		fmt_dec(c->f, v);
		p_fdpath(c->f, c->s, (int)v);
		return;
	case F_GETOWN:
		p_pid(c->f, (int)v, (int)v < 0 ? PT_NONE : PT_TGID);
		return;
	case F_GETSIG:
		fmt_dec(c->f, v);
		if (v && sysgate_signal_name((int)v)) {
			fmt_str(c->f, " (");
			fmt_str(c->f, sysgate_signal_name((int)v));
			fmt_chr(c->f, ')');
		}
		return;
	}
	fmt_dec(c->f, v);
}

static void d_pidfd_open(struct call *c)
{
	a_pid(c, 0, PT_TGID);
	a_sep(c);
	p_flags_unknown(c->f, (unsigned int)c->s->args[1], &xl_pidfd_flags,
			"PIDFD_???");
}

static void d_fallocate(struct call *c)
{
	a_fd(c, 0);
	a_int_flags(c, c->s->args[1], &xl_falloc_flags, "FALLOC_FL_???");
	a_dec(c, c->s->args[2]);
	a_dec(c, c->s->args[3]);
}

/* splice's and copy_file_range's offsets (arguments 1 and 3) as they
 * were at entry: the call moves them */
static void e_offsets(struct call *c)
{
	unsigned long *sv = trace_saved(c);
	int i;

	for (i = 0; i < 2; i++) {
		long long v = 0;
		unsigned long p = c->s->args[1 + 2 * i];

		sv[2 * i] = p && trace_read(c->s, &v, (void *)p, sizeof(v)) ==
					(long)sizeof(v);
		sv[2 * i + 1] = v;
	}
}

/* [offset] as at entry, NULL, or the address */
static void a_offset(struct call *c, int i)
{
	const unsigned long *sv = trace_saved(c);
	unsigned long p = c->s->args[i];

	a_sep(c);
	if (!p || !sv[i - 1]) {
		p_ptr(c->f, p);
		return;
	}
	fmt_chr(c->f, '[');
	fmt_dec(c->f, (long)sv[i]);
	fmt_chr(c->f, ']');
}

/* fd_in, [off_in], fd_out, [off_out], len */
static void offsets_args(struct call *c)
{
	a_fd(c, 0);
	a_offset(c, 1);
	a_fd(c, 2);
	a_offset(c, 3);
	a_udec(c, c->s->args[4]);
}

static void d_splice(struct call *c)
{
	offsets_args(c);
	a_int_flags(c, c->s->args[5], &xl_splice_flags, "SPLICE_F_???");
}

static void d_copy_file_range(struct call *c)
{
	offsets_args(c);
	a_hex(c, (unsigned int)c->s->args[5]);
}

static void d_tee(struct call *c)
{
	a_fd(c, 0);
	a_fd(c, 1);
	a_udec(c, c->s->args[2]);
	a_int_flags(c, c->s->args[3], &xl_splice_flags, "SPLICE_F_???");
}

static void d_vmsplice(struct call *c)
{
	a_default(c, 0);
	a_default(c, 1);
	a_default(c, 2);
	a_int_flags(c, c->s->args[3], &xl_splice_flags, "SPLICE_F_???");
}

/* preadv, pwritev and their *2 forms: on 64-bit the offset is pos_l
 * alone (pos_h, the register after it, is not printed), then the *2
 * forms' RWF_* flags. */
static void d_prwv(struct call *c)
{
	const char *nm = sysgate_syscall_name(c->s->nr);
	int in = nm[1] == 'w';	/* pwritev: the buffers are the call's input */

	a_fd(c, 0);
	a_iov(c, 1, in);
	a_udec(c, c->s->args[2]);
	a_dec(c, (long)c->s->args[3]);
	if (nm[hk_strlen(nm) - 1] == '2') {
		a_sep(c);
		p_flags_unknown(c->f, c->s->args[5], &xl_rwf_flags, "RWF_???");
	}
}

/* fanotify_init(FAN_CLASS_*|FAN_* flags, event_f_flags as open's) */
static void d_fanotify_init(struct call *c)
{
	unsigned int fl = (unsigned int)c->s->args[0];

	a_sep(c);
	p_xlat(c->f, fl & 0xc, &xl_fan_classes, "FAN_CLASS_???");
	if (fl & ~0xcU) {
		fmt_chr(c->f, '|');
		p_flags_unknown(c->f, fl & ~0xcU, &xl_fan_init_flags, "FAN_???");
	}
	a_sep(c);
	p_open_flags(c->f, (unsigned int)c->s->args[1]);
}

/* fanotify_mark(fd, FAN_MARK_*, FAN_* mask, dirfd or FAN_NOFD, path) */
static void d_fanotify_mark(struct call *c)
{
	a_fd(c, 0);
	a_sep(c);
	p_flags_unknown(c->f, (unsigned int)c->s->args[1], &xl_fan_mark_flags,
			"FAN_MARK_???");
	a_sep(c);
	p_flags_unknown(c->f, c->s->args[2], &xl_fan_event_flags, "FAN_???");
	if ((int)c->s->args[3] == -1) {
		a_sep(c);
		p_named(c->f, "FAN_NOFD", (unsigned long)-1L, 'd');
	} else {
		a_dirfd(c, 3);
	}
	a_path(c, 4);
}

static void d_sync_file_range(struct call *c)
{
	a_fd(c, 0);
	a_dec(c, c->s->args[1]);
	a_dec(c, c->s->args[2]);
	a_int_flags(c, c->s->args[3], &xl_sync_file_range_flags,
		    "SYNC_FILE_RANGE_???");
}

/* (descriptors as the unsigned ints the kernel reads) */
static void d_close_range(struct call *c)
{
	a_udec(c, (unsigned int)c->s->args[0]);
	a_udec(c, (unsigned int)c->s->args[1]);
	a_int_flags(c, c->s->args[2], &xl_close_range_flags,
		    "CLOSE_RANGE_???");
}

static void d_memfd_secret(struct call *c)
{
	a_flags(c, (unsigned int)c->s->args[0], &xl_secretmem_flags, 0);
}

static void d_userfaultfd(struct call *c)
{
	a_flags(c, (unsigned int)c->s->args[0], &xl_uffd_flags, 0);
}

const struct decoder dec_desc[] = {
	{ "splice", d_splice, 0, e_offsets },
	{ "copy_file_range", d_copy_file_range, 0, e_offsets },
	{ "tee", d_tee, 0, 0 },
	{ "vmsplice", d_vmsplice, 0, 0 },
	{ "sync_file_range", d_sync_file_range, 0, 0 },
	{ "fanotify_init", d_fanotify_init, 0, 0 },
	{ "fanotify_mark", d_fanotify_mark, 0, 0 },
	{ "preadv", d_prwv, 0, 0 },
	{ "preadv2", d_prwv, 0, 0 },
	{ "pwritev", d_prwv, 0, 0 },
	{ "pwritev2", d_prwv, 0, 0 },
	{ "close_range", d_close_range, 0, 0 },
	{ "memfd_secret", d_memfd_secret, 0, 0 },
	{ "userfaultfd", d_userfaultfd, 0, 0 },
	{ "fallocate", d_fallocate, 0, 0 },
	{ "pidfd_open", d_pidfd_open, 0, 0 },
	{ "pipe", d_pipe, 0, 0 },
	{ "pipe2", d_pipe2, 0, 0 },
	{ "dup2", d_dup2, 0, e_dup2 },
	{ "dup3", d_dup3, 0, e_dup2 },
	{ "close", d_close, 0, e_close },
	{ "fadvise64", d_fadvise64, 0, 0 },
	{ "lseek", d_lseek, 0, 0 },
	{ "flock", d_flock, 0, 0 },
	{ "memfd_create", d_memfd_create, 0, 0 },
	{ "signalfd4", d_signalfd4, 0, 0 },
	{ "inotify_init1", d_inotify_init1, 0, 0 },
	{ "inotify_add_watch", d_inotify_add_watch, 0, 0 },
	{ "sendfile", d_sendfile, 0, e_sendfile },
	{ "fcntl", d_fcntl, r_fcntl, 0 },
	{ 0, 0, 0, 0 },
};
