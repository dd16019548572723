/* SPDX-License-Identifier: MIT */
/*
 * Descriptors: pipe2/dup3 flags, fcntl commands with their arguments and
 * results, ioctl request names with the terminal structs.
 */
#include <fcntl.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <termios.h>
#include "trace.h"

static void d_pipe(struct call *c)
{
	p_fdpair(c, c->s->args[0]);
}

static void d_pipe2(struct call *c)
{
	p_fdpair(c, c->s->args[0]);
	a_flags(c, c->s->args[1], &xl_open_flags, 0);
}

static void d_fadvise64(struct call *c)
{
	a_fd(c, 0);
	a_dec(c, c->s->args[1]);
	a_dec(c, c->s->args[2]);
	a_xlat(c, (unsigned int)c->s->args[3], &xl_fadvise, "POSIX_FADV_???");
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

static void d_memfd_create(struct call *c)
{
	a_path(c, 0);
	a_flags(c, (unsigned int)c->s->args[1], &xl_memfd_flags, 0);
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
	a_flags(c, (unsigned int)c->s->args[0], &xl_inotify_init_flags, 0);
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
		fmt_chr(c->f, '[');
		fmt_dec(c->f, trace_saved(c)[1]);
		fmt_chr(c->f, ']');
		if (c_ok(c) && trace_read(c->s, &off,
						(void *)c->s->args[2],
						sizeof(off)) == sizeof(off) &&
		    off != (long)trace_saved(c)[1]) {
			f_dec(c->f, " => [", off);
			fmt_chr(c->f, ']');
		}
	}
	a_udec(c, c->s->args[3]);
}

static void d_dup3(struct call *c)
{
	d_dup2(c);
	a_flags(c, c->s->args[2], &xl_open_flags, 0);
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
		f_dec(f, ", l_pid=", fl.l_pid);
	}
	fmt_chr(f, '}');
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
	case F_DUPFD: case F_DUPFD_CLOEXEC: case F_SETOWN: case F_SETSIG:
	case F_SETPIPE_SZ:
		a_dec(c, (int)arg);
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
	}
	fmt_dec(c->f, v);
}

/* The kernel's struct termios (TCGETS), not libc's. */
struct kernel_termios {
	unsigned int c_iflag, c_oflag, c_cflag, c_lflag;
	unsigned char c_line, c_cc[19];
};

/* Multi-bit fields (NLDLY, CBAUD...) print as the field's value. */
struct field {
	unsigned long mask;
	const struct xlat *names;
};

static void p_fields(struct fmt *f, unsigned long *v, const struct field *fl,
		     int n)
{
	int i, j;

	for (i = 0; i < n; i++) {
		const struct xlat *t = fl[i].names;

		for (j = 0; j < t->n; j++) {
			if (t->e[j].value == (*v & fl[i].mask)) {
				p_named(f, t->e[j].name, t->e[j].value, 'x');
				fmt_chr(f, '|');
				*v &= ~fl[i].mask;
				break;
			}
		}
	}
}

/* The fields, then the flags left (none: drop the last '|'). */
static void p_field_flags(struct fmt *f, unsigned long v,
			  const struct field *fl, int n, const struct xlat *t)
{
	size_t len = f->len;

	p_fields(f, &v, fl, n);
	if (!v && f->len > len)
		f->len--;
	else
		p_flags(f, v, t, 0);
}

static void p_termios(struct fmt *f, const struct kernel_termios *t, int whole)
{
	static const struct field ofields[] = {
		{ NLDLY, &xl_termios_nl }, { CRDLY, &xl_termios_cr },
		{ TABDLY, &xl_termios_tab }, { BSDLY, &xl_termios_bs },
		{ VTDLY, &xl_termios_vt }, { FFDLY, &xl_termios_ff },
	};
	static const struct field cfields[] = {
		{ CBAUD, &xl_termios_baud }, { CSIZE, &xl_termios_csize },
	};
	unsigned int i;

	fmt_str(f, "{c_iflag=");
	p_flags(f, t->c_iflag, &xl_termios_iflag, 0);
	fmt_str(f, ", c_oflag=");
	p_field_flags(f, t->c_oflag, ofields, 6, &xl_termios_oflag);
	fmt_str(f, ", c_cflag=");
	p_field_flags(f, t->c_cflag, cfields, 2, &xl_termios_cflag);
	fmt_str(f, ", c_lflag=");
	p_flags(f, t->c_lflag, &xl_termios_lflag, 0);
	if (!whole) {
		fmt_str(f, ", ...}");
		return;
	}
	fmt_str(f, ", c_line=");
	p_xlat(f, t->c_line, &xl_line_disc, 0);
	fmt_str(f, ", c_cc=[");
	for (i = 0; i < sizeof(t->c_cc); i++) {
		if (i)
			fmt_str(f, ", ");
		fmt_chr(f, '[');
		/* (an index: a name under -X too, as strace prints it) */
		x_hold(f);
		if (i <= VEOL2)
			p_xlat(f, i, &xl_termios_cc, 0);
		else
			fmt_udec(f, i);
		x_release(f);
		fmt_str(f, "]=");
		p_hex(f, t->c_cc[i]);
	}
	fmt_str(f, "]}");
}

/* _IOC(_IOC_READ, 0x12, 0x34, 0x8) for requests without a name. */
static void p_ioc(struct fmt *f, unsigned long req)
{
	unsigned long dir = (req >> _IOC_DIRSHIFT) & _IOC_DIRMASK;

	fmt_str(f, "_IOC(");
	if (!dir)
		fmt_str(f, "_IOC_NONE");
	else
		p_flags(f, dir, &xl_ioc_dirs, 0);
	fmt_str(f, ", ");
	fmt_hex(f, (req >> _IOC_TYPESHIFT) & _IOC_TYPEMASK);
	fmt_str(f, ", ");
	fmt_hex(f, (req >> _IOC_NRSHIFT) & _IOC_NRMASK);
	fmt_str(f, ", ");
	p_hex(f, (req >> _IOC_SIZESHIFT) & _IOC_SIZEMASK);
	fmt_chr(f, ')');
}

static void a_int_at(struct call *c, unsigned long p, int out)
{
	int v;

	if (fetch_arg(c, &v, p, sizeof(v), out))
		return;
	fmt_chr(c->f, '[');
	fmt_dec(c->f, v);
	fmt_chr(c->f, ']');
}

static void d_ioctl(struct call *c)
{
	unsigned long req = (unsigned int)c->s->args[1], arg = c->s->args[2];
	struct kernel_termios t;
	struct winsize ws;
	int i;

	a_fd(c, 0);
	a_sep(c);
	for (i = 0; i < xl_ioctls.n && xl_ioctls.e[i].value != req; i++)
		;
	if (i < xl_ioctls.n) {
		p_named(c->f, xl_ioctls.e[i].name, req, 'x');
	} else {
		size_t start = x_begin(c->f);

		p_ioc(c->f, req);
		x_end(c->f, start, req, 'x');
	}
	switch (req) {
	case FIOCLEX: case FIONCLEX: case TIOCNOTTY: case TIOCEXCL:
	case TIOCNXCL: case TIOCSBRK: case TIOCCBRK: case TIOCCONS:
	case TIOCVHANGUP: case BLKRRPART: case BLKFLSBUF:
		return;
	case TCSBRK: case TCSBRKP: case TIOCSCTTY: case FICLONE:
		a_dec(c, (int)arg);
		return;
	case TCXONC:
		a_xlat(c, arg, &xl_tcxonc, 0);
		return;
	case TCFLSH:
		a_xlat(c, arg, &xl_tcflsh, 0);
		return;
	case TCGETS: case TCSETS: case TCSETSW: case TCSETSF:
		if (!fetch_arg(c, &t, arg, sizeof(t), req == TCGETS))
			p_termios(c->f, &t, trace_whole(c->s));
		return;
	case TIOCGWINSZ: case TIOCSWINSZ:
		if (fetch_arg(c, &ws, arg, sizeof(ws), req == TIOCGWINSZ))
			return;
		f_udec(c->f, "{ws_row=", ws.ws_row);
		f_udec(c->f, ", ws_col=", ws.ws_col);
		f_udec(c->f, ", ws_xpixel=", ws.ws_xpixel);
		f_udec(c->f, ", ws_ypixel=", ws.ws_ypixel);
		fmt_chr(c->f, '}');
		return;
	case FIONREAD: case TIOCGPGRP: case TIOCOUTQ: case TIOCGPTN:
	case TIOCGSID: case TIOCGPTLCK: case TIOCGPKT: case TIOCMGET:
	case TIOCGETD: case BLKSSZGET: case BLKBSZGET: case BLKROGET:
		a_int_at(c, arg, 1);
		return;
	case FIONBIO: case FIOASYNC: case TIOCSPGRP: case TIOCSPTLCK:
	case TIOCMSET: case TIOCMBIS: case TIOCMBIC: case TIOCSETD:
	case TIOCPKT:
		a_int_at(c, arg, 0);
		return;
	}
	/* Requests known by name take pointers; others, who knows. */
	if (i < xl_ioctls.n)
		a_ptr(c, arg);
	else
		a_hex(c, arg);
}

const struct decoder dec_desc[] = {
	{ "pipe", d_pipe, 0, 0 },
	{ "pipe2", d_pipe2, 0, 0 },
	{ "dup2", d_dup2, 0, e_dup2 },
	{ "dup3", d_dup3, 0, e_dup2 },
	{ "close", d_close, 0, e_close },
	{ "fadvise64", d_fadvise64, 0, 0 },
	{ "flock", d_flock, 0, 0 },
	{ "memfd_create", d_memfd_create, 0, 0 },
	{ "signalfd4", d_signalfd4, 0, 0 },
	{ "inotify_init1", d_inotify_init1, 0, 0 },
	{ "inotify_add_watch", d_inotify_add_watch, 0, 0 },
	{ "sendfile", d_sendfile, 0, e_sendfile },
	{ "fcntl", d_fcntl, r_fcntl, 0 },
	{ "ioctl", d_ioctl, 0, 0 },
	{ 0, 0, 0, 0 },
};
