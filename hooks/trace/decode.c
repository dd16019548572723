/* SPDX-License-Identifier: MIT */
/*
 * The printers the decoders share: values, flag sets, strings, structs
 * read from the program, timespecs, signal sets, in strace's text.
 */
#include <fcntl.h>
#include <sys/stat.h>
#include "trace.h"
#include "../lib/slots.h"

#define BUF_MAX 8192

int trace_xflag, trace_fdpaths, trace_verbose, trace_xstyle;
long trace_nr_readlinkat;

/* The path of descriptor fd (AT_FDCWD: the working directory) from
 * /proc/PID (PID: the traced process, whether this runs in it or in a
 * tracer): its length, or <= 0. */
void p_proc_dir(struct fmt *f, const struct sysgate_sys *s)
{
	fmt_str(f, "/proc/");
	/* (in the process itself: /proc may be another pid namespace's) */
	if (s->pid == (int)sysgate_syscall(sysgate_syscall_number("getpid"),
					   0, 0, 0, 0, 0, 0))
		fmt_str(f, "self");
	else
		fmt_dec(f, s->pid);
}

int pidfd_pid(const struct sysgate_sys *s, int fd)
{
	char path[64], buf[512];
	struct fmt t;
	long n, i;
	int pid = 0, neg = 0;

	fmt_init(&t, path, sizeof(path) - 1);
	p_proc_dir(&t, s);
	fmt_str(&t, "/fdinfo/");
	fmt_dec(&t, fd);
	path[t.len] = 0;
	n = trace_read_file(path, buf, sizeof(buf) - 1);
	if (n <= 0)
		return 0;
	buf[n] = 0;
	for (i = 0; i < n; i++) {
		if ((i && buf[i - 1] != '\n') || hk_strncmp(buf + i, "Pid:", 4))
			continue;
		for (i += 4; buf[i] == ' ' || buf[i] == '\t'; i++)
			;
		if (buf[i] == '-')
			neg = 1, i++;
		for (; buf[i] >= '0' && buf[i] <= '9'; i++)
			pid = pid * 10 + (buf[i] - '0');
		return neg ? -pid : pid;
	}
	return 0;
}

long fd_path(const struct sysgate_sys *s, int fd, char *path, size_t size)
{
	char link[64];
	struct fmt l;

	if (fd < 0 && fd != -100)
		return -1;
	fmt_init(&l, link, sizeof(link) - 1);
	p_proc_dir(&l, s);
	if (fd == -100) {
		fmt_str(&l, "/cwd");
	} else {
		fmt_str(&l, "/fd/");
		fmt_dec(&l, fd);
	}
	link[l.len] = 0;
	return sysgate_syscall(trace_nr_readlinkat, -100, (long)link,
			       (long)path, size, 0, 0);
}

/* -yy: what the call's descriptor arguments were at its entry (a bind or
 * connect changes its socket's endpoints), as strace shows them. */
#define ENTRY_TEXT 200
#define ENTRY_FDS 3	/* (no call takes more descriptors) */
static struct {
	const struct sysgate_sys *call;
	int fd[ENTRY_FDS];
	unsigned int len[ENTRY_FDS];
	char text[ENTRY_FDS][ENTRY_TEXT];
} at_entry[TID_SLOTS];	/* by thread (hooks/lib/slots.h) */

void fdpaths_at_entry(const struct sysgate_sys *s, const char *kinds, int n)
{
	int k = trace_thread_slot(s->tid), i, j = 0;

	if (k < 0)
		return;
	at_entry[k].call = 0;	/* (a record's address is reused) */
	if (!kinds)
		return;
	for (i = 0; i < n && i < 6 && j < ENTRY_FDS; i++) {
		struct fmt f;

		if (kinds[i] != 'f' || (int)s->args[i] < 0)
			continue;
		fmt_init(&f, at_entry[k].text[j], ENTRY_TEXT);
		p_fdpath_now(&f, s, (int)s->args[i]);
		at_entry[k].fd[j] = (int)s->args[i];
		at_entry[k].len[j++] = f.full ? 0 : f.len;
	}
	for (; j < ENTRY_FDS; j++)
		at_entry[k].len[j] = 0;
	at_entry[k].call = s;
}

/* "<path>" after a descriptor under -y. */
void p_fdpath(struct fmt *f, const struct sysgate_sys *s, int fd)
{
	int k = trace_fdpaths & FDS_SOCKET ? trace_thread_slot(s->tid) : -1, i;

	if (k >= 0 && at_entry[k].call == s)
		for (i = 0; i < ENTRY_FDS; i++)
			if (at_entry[k].fd[i] == fd && at_entry[k].len[i]) {
				fmt_mem(f, at_entry[k].text[i], at_entry[k].len[i]);
				return;
			}
	p_fdpath_now(f, s, fd);
}

/* Whether the kernel marked fd's path (n bytes) " (deleted)": unless a
 * file of that very name is the one fd is open on (strace's test) */
static int fd_deleted(const struct sysgate_sys *s, int fd, char *path, long n)
{
	struct stat link, named;
	char proc[64];
	struct fmt t;
	long nr = sysgate_syscall_number("newfstatat");

	if (n <= 10 || (unsigned long)n >= BUF_MAX ||
	    hk_strncmp(path + n - 10, " (deleted)", 10))
		return 0;
	fmt_init(&t, proc, sizeof(proc) - 1);
	p_proc_dir(&t, s);
	f_dec(&t, "/fd/", fd);
	proc[t.len] = 0;
	path[n] = 0;
	if (sysgate_syscall(nr, AT_FDCWD, (long)proc, (long)&link, 0, 0, 0))
		return 1;
	return sysgate_syscall(nr, AT_FDCWD, (long)path, (long)&named,
			       AT_SYMLINK_NOFOLLOW, 0, 0) ||
	       link.st_ino != named.st_ino || link.st_dev != named.st_dev;
}

void p_fdpath_now(struct fmt *f, const struct sysgate_sys *s, int fd)
{
	char path[BUF_MAX];
	long n;

	if (!trace_fdpaths || (n = fd_path(s, fd, path, sizeof(path))) <= 0)
		return;
	/* strace's order: a socket's endpoints, a device's numbers, a
	 * pidfd's process, else (-y) the path */
	if ((trace_fdpaths & FDS_SOCKET) && n > 8 &&
	    !hk_strncmp(path, "socket:[", 8)) {
		unsigned long ino = 0;
		long i;
		size_t start = f->len;

		for (i = 8; i < n && path[i] >= '0' && path[i] <= '9'; i++)
			ino = ino * 10 + (path[i] - '0');
		fmt_chr(f, '<');
		if (!p_socket_endpoints(f, s, fd, ino)) {
			fmt_chr(f, '>');
			return;
		}
		f->len = start;
	}
	if ((trace_fdpaths & FDS_DEV) && path[0] == '/' && n < BUF_MAX) {
		size_t start = f->len;

		fmt_chr(f, '<');
		fmt_mem(f, path, n);
		if (!p_device(f, s, fd)) {
			fmt_chr(f, '>');
			return;
		}
		f->len = start;
	}
	if ((trace_fdpaths & FDS_PIDFD) && n == 18 &&
	    !hk_strncmp(path, "anon_inode:[pidfd]", 18)) {
		int pid = pidfd_pid(s, fd);

		if (pid > 0) {
			fmt_str(f, "<pid:");
			fmt_dec(f, pid);
			fmt_chr(f, '>');
			return;
		}
		fmt_chr(f, '<');
		fmt_mem(f, path, n);
		fmt_chr(f, '>');
		return;
	}
	if (!(trace_fdpaths & FDS_PATH))
		return;
	/* strace: <memfd:x>(deleted) for the link's "memfd:x (deleted)",
	 * the path quoted (its < and > too) */
	if (fd_deleted(s, fd, path, n)) {
		fmt_chr(f, '<');
		fmt_quoted_esc(f, (const unsigned char *)path, (size_t)n - 10,
			       "<>");
		fmt_str(f, ">(deleted)");
		return;
	}
	fmt_chr(f, '<');
	fmt_quoted_esc(f, (const unsigned char *)path, (size_t)n, "<>");
	fmt_chr(f, '>');
}

void f_dec(struct fmt *f, const char *name, long v)
{
	fmt_str(f, name);
	fmt_dec(f, v);
}

void f_udec(struct fmt *f, const char *name, unsigned long v)
{
	fmt_str(f, name);
	fmt_udec(f, v);
}

void f_ints(struct fmt *f, const char *names, const void *w, int n,
	    char base)
{
	const int *v = w;
	int i;

	for (i = 0; i < n; i++) {
		const char *end = names;

		while (*end && *end != ' ')
			end++;
		if (i)
			fmt_str(f, ", ");
		fmt_mem(f, names, (size_t)(end - names));
		fmt_chr(f, '=');
		if (base == 'd')
			fmt_dec(f, v[i]);
		else
			fmt_udec(f, (unsigned int)v[i]);
		names = *end ? end + 1 : end;
	}
}

void f_hex(struct fmt *f, const char *name, unsigned long v)
{
	fmt_str(f, name);
	p_hex(f, v);
}

void f_hex_set(struct fmt *f, const char *name, unsigned long v)
{
	if (v)
		f_hex(f, name, v);
}

void a_sep(struct call *c)
{
	if (c->nput++)
		fmt_str(c->f, ", ");
}

void a_dec(struct call *c, long v)
{
	a_sep(c);
	fmt_dec(c->f, v);
}

void a_int(struct call *c, int i)
{
	a_dec(c, (int)c->s->args[i]);
}

void a_udec(struct call *c, unsigned long v)
{
	a_sep(c);
	fmt_udec(c->f, v);
}

/* Hex, with a word for zero: strace's %#lx prints 0 as "0". */
static void p_hex_or(struct fmt *f, unsigned long v, const char *zero)
{
	if (v)
		fmt_hex(f, v);
	else
		fmt_str(f, zero);
}

void p_hex(struct fmt *f, unsigned long v)
{
	p_hex_or(f, v, "0");
}

void a_hex(struct call *c, unsigned long v)
{
	a_sep(c);
	p_hex(c->f, v);
}

void p_ptr(struct fmt *f, unsigned long v)
{
	p_hex_or(f, v, "NULL");
}

void a_ptr(struct call *c, unsigned long v)
{
	a_sep(c);
	p_ptr(c->f, v);
}

void a_str(struct call *c, const char *s)
{
	a_sep(c);
	fmt_str(c->f, s);
}

void a_path(struct call *c, int i)
{
	a_sep(c);
	p_string(c->f, c->s, c->s->args[i]);
}

void a_string(struct call *c, unsigned long p)
{
	a_sep(c);
	p_str_max(c->f, c->s, p, -1UL);
}

void a_fd(struct call *c, int i)
{
	a_int(c, i);
	/* (-100 is AT_FDCWD only where a directory is meant: a_dirfd) */
	if ((int)c->s->args[i] != -100)
		p_fdpath(c->f, c->s, (int)c->s->args[i]);
}

void a_dirfd(struct call *c, int i)
{
	if ((int)c->s->args[i] == -100) {
		a_sep(c);
		p_named(c->f, "AT_FDCWD", -100, 'd');
		p_fdpath(c->f, c->s, -100);
	} else {
		a_fd(c, i);
	}
}

size_t x_begin(struct fmt *f)
{
	f->depth++;
	return f->len;
}

static void x_number(struct fmt *f, unsigned long v, char base)
{
	if (base == 'd')
		fmt_dec(f, (int)v);
	else if (base == 'u')
		fmt_udec(f, v);
	else if (!v)
		fmt_chr(f, '0');
	else if (base == 'o')
		fmt_oct(f, v);
	else
		fmt_hex(f, v);
}

void x_end(struct fmt *f, size_t start, unsigned long v, char base)
{
	char names[2048];	/* (32 capabilities' names: 600 bytes) */
	size_t n = f->len - start, num;

	if (--f->depth || trace_xstyle == XS_ABBREV || f->full ||
	    n >= sizeof(names))
		return;
	hk_memcpy(names, f->buf + start, n);
	f->len = start;
	x_number(f, v, base);
	num = f->len - start;
	if (trace_xstyle == XS_RAW || (n == num &&
				       !hk_strncmp(names, f->buf + start, n)))
		return;
	/* a number already (an unknown value and its comment) */
	if (n > num && !hk_strncmp(names, f->buf + start, num) &&
	    names[num] == ' ') {
		f->len = start;
		fmt_mem(f, names, n);
		return;
	}
	fmt_str(f, " /* ");
	fmt_mem(f, names, n);
	fmt_str(f, " */");
}

void p_named(struct fmt *f, const char *name, unsigned long v, char base)
{
	size_t start = x_begin(f);

	fmt_str(f, name);
	x_end(f, start, v, base);
}

void p_neg_err(struct fmt *f, int err)
{
	const char *nm = err < 0 ? sysgate_errno_name(-err) : 0;

	if (!nm)
		fmt_dec(f, err);
	else
		p_named_pre(f, "-", nm, (unsigned long)(long)err, 'd');
}

void p_named_pre(struct fmt *f, const char *prefix, const char *name,
		 unsigned long v, char base)
{
	size_t start = x_begin(f);

	fmt_str(f, prefix);
	fmt_str(f, name);
	x_end(f, start, v, base);
}

const char *xlat_name(const struct xlat *t, unsigned long v)
{
	int i;

	for (i = 0; i < t->n; i++)
		if (t->e[i].value == v)
			return xlat_str(t, i);
	return 0;
}

int p_flag_names(struct fmt *f, unsigned long v, const struct xlat *t)
{
	unsigned long left = v;
	int i, any = 0;

	for (i = 0; i < t->n; i++) {
		unsigned long b = t->e[i].value;

		if ((!v && !b) || (b && (left & b) == b)) {
			if (any++)
				fmt_chr(f, '|');
			fmt_str(f, xlat_str(t, i));
			left &= ~b;
			if (!v)
				break;
		}
	}
	if (any && left) {
		fmt_chr(f, '|');
		fmt_hex(f, left);
	}
	return any;
}

void r_flags_comment(struct fmt *f, unsigned long v, const struct xlat *t)
{
	size_t start = f->len;

	if (trace_xstyle == XS_RAW)
		return;
	fmt_str(f, " (");
	if (!p_flag_names(f, v, t)) {
		f->len = start;
		return;
	}
	fmt_chr(f, ')');
}

/* An enumeration: its name, or hex with strace's "unknown" comment. */
void p_xlat(struct fmt *f, unsigned long v, const struct xlat *t,
	    const char *unknown)
{
	p_xlat_as(f, v, t, unknown, 'x');
}

void p_xlat_as(struct fmt *f, unsigned long v, const struct xlat *t,
	       const char *unknown, char base)
{
	size_t start = x_begin(f);
	const char *nm = xlat_name(t, v);

	if (nm) {
		fmt_str(f, nm);
	} else {
		x_number(f, v, base);
		if (unknown) {
			fmt_str(f, " /* ");
			fmt_str(f, unknown);
			fmt_str(f, " */");
		}
	}
	x_end(f, start, v, base);
}

void a_xlat(struct call *c, unsigned long v, const struct xlat *t,
	    const char *unknown)
{
	a_sep(c);
	p_xlat(c->f, v, t, unknown);
}

/* Flags in the table's order, the bits left over in hex; zero is `zero`
 * (a name, or "0" when NULL). */
void p_flags(struct fmt *f, unsigned long v, const struct xlat *t,
	     const char *zero)
{
	size_t start = x_begin(f);
	unsigned long all = v;
	int i, any = 0;

	if (!v) {
		fmt_str(f, zero ? zero : "0");
		x_end(f, start, 0, 'x');
		return;
	}
	for (i = 0; i < t->n; i++) {
		unsigned long b = t->e[i].value;

		if (b && (v & b) == b) {
			if (any)
				fmt_chr(f, '|');
			fmt_str(f, xlat_str(t, i));
			v &= ~b;
			any = 1;
		}
	}
	if (v) {
		if (any)
			fmt_chr(f, '|');
		fmt_hex(f, v);
	}
	x_end(f, start, all, 'x');
}

void p_bit_flags(struct fmt *f, unsigned long long v, const struct xlat *bits,
		 const char *unknown)
{
	size_t start = x_begin(f);
	unsigned long long left = v;
	int i, any = 0;

	for (i = 0; i < 64 && v; i++) {
		const char *nm = v >> i & 1 ? xlat_name(bits, i) : 0;

		if (!nm)
			continue;
		fmt_str(f, any++ ? "|1<<" : "1<<");
		fmt_str(f, nm);
		left &= ~(1ULL << i);
	}
	if (any && left)
		fmt_chr(f, '|');
	if (left || !v)
		p_hex(f, left);
	if (!any && left) {
		fmt_str(f, " /* ");
		fmt_str(f, unknown);
		fmt_str(f, " */");
	}
	x_end(f, start, v, 'x');
}

void p_flags_unknown(struct fmt *f, unsigned long v, const struct xlat *t,
		     const char *unknown)
{
	size_t start;
	int i;

	for (i = 0; i < t->n; i++)
		if (v & t->e[i].value)
			break;
	if (!v || i < t->n) {
		p_flags(f, v, t, 0);
		return;
	}
	start = x_begin(f);
	fmt_hex(f, v);
	fmt_str(f, " /* ");
	fmt_str(f, unknown);
	fmt_str(f, " */");
	x_end(f, start, v, 'x');
}

void a_int_flags(struct call *c, unsigned int v, const struct xlat *t,
		 const char *unknown)
{
	a_sep(c);
	p_flags_unknown(c->f, v, t, unknown);
}

void a_flags(struct call *c, unsigned long v, const struct xlat *t,
	     const char *zero)
{
	a_sep(c);
	p_flags(c->f, v, t, zero);
}

static const char hexd[] = "0123456789abcdef";

/* strace's quoting (fmt_quoted's C escapes and octal), or \x.. for
 * every byte when hex. */
static void quote(struct fmt *f, const unsigned char *p, unsigned long n,
		  int hex)
{
	unsigned long i;

	/* -xx: every string in hex; -x: those with a byte that is neither
	 * printable ASCII nor a C escape's space; 3
	 * (--strings-in-hex=non-ascii-chars): only such bytes, as \x.. */
	if (trace_xflag == 2)
		hex = 1;
	for (i = 0; trace_xflag == 1 && !hex && i < n; i++)
		if (p[i] > 0x7e || (p[i] < 0x20 && (p[i] < '\t' || p[i] > '\r')))
			hex = 1;
	if (!hex && trace_xflag == 3) {
		fmt_quoted_hex(f, p, n);
		return;
	}
	if (!hex) {
		fmt_quoted(f, p, n, 0);
		return;
	}
	p_hex_bytes(f, p, n);
}

void p_hex_bytes(struct fmt *f, const unsigned char *p, unsigned long n)
{
	unsigned long i;

	fmt_chr(f, '"');
	for (i = 0; i < n; i++) {
		fmt_str(f, "\\x");
		fmt_chr(f, hexd[p[i] >> 4]);
		fmt_chr(f, hexd[p[i] & 15]);
	}
	fmt_chr(f, '"');
}

void p_quoted(struct fmt *f, const unsigned char *p, unsigned long n)
{
	quote(f, p, n, 0);
}

void p_data_local(struct fmt *f, const unsigned char *p, unsigned long n)
{
	unsigned long want = n > (unsigned long)trace_strsize ?
				     (unsigned long)trace_strsize : n;

	quote(f, p, want, 0);
	if (want < n)
		fmt_str(f, "...");
}

void p_cstring(struct fmt *f, const char *s, unsigned long size)
{
	unsigned long i;

	for (i = 0; i < size && s[i]; i++)
		;
	if (i < size || !size) {
		quote(f, (const unsigned char *)s, i, 0);
		return;
	}
	quote(f, (const unsigned char *)s, size - 1, 0);
	fmt_str(f, "...");
}

void p_data_nul(struct fmt *f, const struct sysgate_sys *s, unsigned long p,
		unsigned long n)
{
	unsigned char last = 1;

	if (p && n && trace_read(s, &last, (void *)(p + n - 1), 1) == 1 &&
	    !last)
		n--;
	p_data(f, s, p, n, 0);
}

void p_data(struct fmt *f, const struct sysgate_sys *s, unsigned long p,
	    unsigned long n, int hex)
{
	unsigned char buf[BUF_MAX];
	unsigned long want = n > (unsigned long)trace_strsize ?
				     (unsigned long)trace_strsize : n;
	/* strace reads one byte past -s when there is one: bytes that
	 * cannot all be read are an address */
	unsigned long got = n > want ? want + 1 : want;

	if (got > sizeof(buf))
		got = sizeof(buf);
	if (want > got)
		want = got;
	if (!p) {
		fmt_str(f, "NULL");
		return;
	}
	if (got && sysgate_read_mem(s, buf, (void *)p, got) != (long)got) {
		fmt_hex(f, p);
		return;
	}
	quote(f, buf, want, hex);
	if (want < n)
		fmt_str(f, "...");
}

void p_string_n(struct fmt *f, const struct sysgate_sys *s, unsigned long p,
		size_t max)
{
	char buf[BUF_MAX];
	int trunc = 0;
	long n;

	if (!p) {
		fmt_str(f, "NULL");
		return;
	}
	n = sysgate_read_str(s, buf, (void *)p,
			     max < sizeof(buf) ? max : sizeof(buf), &trunc);
	if (n < 0) {
		fmt_hex(f, p);
		return;
	}
	quote(f, (unsigned char *)buf, n, 0);
	if (trunc)
		fmt_str(f, "...");
}

void p_string(struct fmt *f, const struct sysgate_sys *s, unsigned long p)
{
	/* strace's paths: at most PATH_MAX - 1 bytes, "..." when no NUL
	 * comes within PATH_MAX (nothing past them is read) */
	p_string_n(f, s, p, 4096);
}

void p_str_max(struct fmt *f, const struct sysgate_sys *s, unsigned long p,
	       unsigned long len)
{
	char buf[BUF_MAX];
	unsigned long size = (unsigned long)trace_strsize + 1, shown;
	long n;

	if (!p) {
		fmt_str(f, "NULL");
		return;
	}
	if (size > len)
		size = len;
	if (size > sizeof(buf) - 1)
		size = sizeof(buf) - 1;
	/* (read_str stops at the NUL; a fault before it is an address) */
	n = sysgate_read_str(s, buf, (void *)p, size + 1, 0);
	if (n < 0) {
		fmt_hex(f, p);
		return;
	}
	/* one byte past -s is read to tell whether the string goes on */
	shown = size > (unsigned long)trace_strsize ?
			(unsigned long)trace_strsize : size;
	quote(f, (unsigned char *)buf,
	      (unsigned long)n < shown ? (unsigned long)n : shown, 0);
	if ((unsigned long)n >= size && len)
		fmt_str(f, "...");
}

/* strace's %#03o: 000, 005, 022, 0644 */
void p_mode(struct fmt *f, unsigned long mode)
{
	if (!mode)
		fmt_str(f, "000");
	else if (mode < 8)
		fmt_chr(f, '0');
	if (mode)
		fmt_oct(f, mode);
}

void p_file_mode(struct fmt *f, unsigned long mode)
{
	unsigned long type = mode & 0170000;
	size_t start;

	/* a type without a name: the whole mode in octal, as strace */
	if (type && !xlat_name(&xl_file_type, type)) {
		p_mode(f, mode);
		return;
	}
	start = x_begin(f);
	if (type) {
		p_xlat(f, type, &xl_file_type, 0);
		fmt_chr(f, '|');
	}
	if (mode & 07000) {
		p_flags(f, mode & 07000, &xl_file_setid, 0);
		fmt_chr(f, '|');
	}
	p_mode(f, mode & 0777);
	x_end(f, start, mode, 'o');
}

long trace_read(const struct sysgate_sys *s, void *dst, const void *src,
		size_t len)
{
	return trace_structs(s) ? sysgate_read_mem(s, dst, src, len) : -1;
}

void p_array_ctx(struct fmt *f, const struct sysgate_sys *s, unsigned long p,
		 unsigned long n, unsigned int size, int unread,
		 void (*elem)(struct fmt *f, const void *e, void *ctx),
		 void *ctx)
{
	unsigned long i, max = trace_whole(s) ? n :
				(unsigned long)trace_strsize;
	unsigned char e[64];

	if (!p) {
		fmt_str(f, "NULL");
		return;
	}
	if (!n) {
		fmt_str(f, "[]");
		return;
	}
	if (size > sizeof(e) || n > ~0UL / size || p + n * size <= p) {
		p_ptr(f, p);
		return;
	}
	for (i = 0; i < n; i++) {
		unsigned long at = p + i * size;

		if (i)
			fmt_str(f, ", ");
		if (unread || sysgate_read_mem(s, e, (void *)at, size) !=
				      (long)size) {
			if (!i) {
				p_ptr(f, at);
				return;
			}
			fmt_str(f, "... /* ");
			fmt_hex(f, at);
			fmt_str(f, " */");
			break;
		}
		if (!i)
			fmt_chr(f, '[');
		if (i >= max) {
			fmt_str(f, "...");
			break;
		}
		elem(f, e, ctx);
	}
	fmt_chr(f, ']');
}

struct plain_elem {
	void (*fn)(struct fmt *f, const void *e);
};

static void elem_plain(struct fmt *f, const void *e, void *ctx)
{
	((struct plain_elem *)ctx)->fn(f, e);
}

void p_array(struct call *c, unsigned long p, unsigned long n,
	     unsigned int size, int out,
	     void (*elem)(struct fmt *f, const void *e))
{
	struct plain_elem pe = { elem };

	/* (-e verbose= leaves the structures of some calls unread) */
	p_array_ctx(c->f, c->s, p, n, size, (out && !c_ok(c)) ||
		    !trace_structs(c->s), elem_plain, &pe);
}

int fetch(struct fmt *f, const struct sysgate_sys *s, void *dst,
	  unsigned long p, unsigned long len)
{
	if (p && trace_read(s, dst, (void *)p, len) == (long)len)
		return 0;
	p_ptr(f, p);
	return -1;
}

void a_exit_next(struct call *c)
{
	if (c->cut && !c->cut_at)
		c->cut_at = c->f->len + (c->nput ? 2 : 0);	/* (", ") */
}

void a_exit_here(struct call *c)
{
	if (c->cut && !c->cut_at)
		c->cut_at = c->f->len;
}

int a_out(struct call *c, unsigned long p)
{
	a_sep(c);
	a_exit_here(c);
	if (c_ok(c))
		return 1;
	p_ptr(c->f, p);
	return 0;
}

int fetch_out(struct call *c, void *dst, unsigned long p, unsigned long len)
{
	if (!a_out(c, p))
		return -1;
	return fetch(c->f, c->s, dst, p, len);
}

int fetch_arg(struct call *c, void *dst, unsigned long p, unsigned long len,
	      int out)
{
	if (out)
		return fetch_out(c, dst, p, len);
	a_sep(c);
	return fetch(c->f, c->s, dst, p, len);
}

void p_fdpair(struct call *c, unsigned long p)
{
	int fds[2];

	if (!a_out(c, p) || fetch(c->f, c->s, fds, p, sizeof(fds)))
		return;
	fmt_chr(c->f, '[');
	fmt_dec(c->f, fds[0]);
	p_fdpath(c->f, c->s, fds[0]);
	fmt_str(c->f, ", ");
	fmt_dec(c->f, fds[1]);
	p_fdpath(c->f, c->s, fds[1]);
	fmt_chr(c->f, ']');
}

void p_timespec(struct fmt *f, long sec, long nsec)
{
	fmt_str(f, "{tv_sec=");
	fmt_dec(f, sec);
	/* (strace's %llu: a negative one is a large number) */
	fmt_str(f, ", tv_nsec=");
	fmt_udec(f, nsec);
	fmt_chr(f, '}');
}

void a_timespec(struct call *c, unsigned long p)
{
	long ts[2];

	a_sep(c);
	if (!fetch(c->f, c->s, ts, p, sizeof(ts)))
		p_timespec(c->f, ts[0], ts[1]);
}

void trace_civil(long days, long *y, int *m, int *d)
{
	long era, doe, yoe, doy, mp;

	days += 719468;
	era = (days >= 0 ? days : days - 146096) / 146097;
	doe = days - era * 146097;
	yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	mp = (5 * doy + 2) / 153;
	*d = (int)(doy - (153 * mp + 2) / 5 + 1);
	*m = (int)(mp < 10 ? mp + 3 : mp - 9);
	*y = yoe + era * 400 + (*m <= 2);
}

/* " / * 2020-01-01T00:00:00[.500000000]+0000 * /" in local time */
/* frac: a fraction of a second of digits digits (9: nanoseconds) */
static int date_text(struct fmt *f, long sec, long frac, int digits)
{
	unsigned long top = digits == 9 ? 999999999UL : 999999UL;
	long off, t, days, y;
	int m, d;

	/* strace's: none for 0, for a nanosecond count out of range, or
	 * for a year libc's struct tm cannot hold */
	if ((!sec && !frac) || (unsigned long)frac > top ||
	    sec > 67768036191676799L || sec < -67768040609740800L)
		return 0;
	off = tz_offset(sec);
	t = sec + off;
	days = (t >= 0 ? t : t - 86399) / 86400;
	t -= days * 86400;
	trace_civil(days, &y, &m, &d);
	fmt_dec(f, y);
	fmt_chr(f, '-');
	fmt_pad(f, m, 2);
	fmt_chr(f, '-');
	fmt_pad(f, d, 2);
	fmt_chr(f, 'T');
	fmt_pad(f, t / 3600, 2);
	fmt_chr(f, ':');
	fmt_pad(f, t / 60 % 60, 2);
	fmt_chr(f, ':');
	fmt_pad(f, t % 60, 2);
	if (frac) {
		fmt_chr(f, '.');
		fmt_pad(f, frac, digits);
	}
	fmt_chr(f, off < 0 ? '-' : '+');
	if (off < 0)
		off = -off;
	fmt_pad(f, off / 3600, 2);
	fmt_pad(f, off / 60 % 60, 2);
	return 1;
}

int p_date_text(struct fmt *f, long sec, long nsec)
{
	return date_text(f, sec, nsec, 9);
}

static void date_comment(struct fmt *f, long sec, long frac, int digits)
{
	size_t start = f->len;

	fmt_str(f, " /* ");
	if (date_text(f, sec, frac, digits))
		fmt_str(f, " */");
	else
		f->len = start;
}

void p_date(struct fmt *f, long sec, long nsec)
{
	date_comment(f, sec, nsec, 9);
}

void p_date_us(struct fmt *f, long sec, long usec)
{
	date_comment(f, sec, usec, 6);
}

void p_signame(struct fmt *f, int sig)
{
	const char *nm = sysgate_signal_name(sig);

	if (nm)
		p_named(f, nm, sig, 'd');
	else
		fmt_dec(f, sig);
}

/* [USR1 CHLD], or ~[...] of the signals not in it when most are. */
void p_sigset(struct fmt *f, const unsigned long *set, unsigned long bytes)
{
	int nsig = bytes * 8 > 64 ? 64 : (int)bytes * 8, sig, count = 0,
	    inv, first = 1;

	for (sig = 1; sig <= nsig; sig++)
		count += (set[(sig - 1) / 64] >> ((sig - 1) % 64)) & 1;
	inv = count > nsig / 2;
	if (inv)
		fmt_chr(f, '~');
	fmt_chr(f, '[');
	for (sig = 1; sig <= nsig; sig++) {
		const char *nm;

		if ((int)((set[(sig - 1) / 64] >> ((sig - 1) % 64)) & 1) == inv)
			continue;
		if (!first)
			fmt_chr(f, ' ');
		first = 0;
		nm = sysgate_signal_name(sig);
		if (nm && nm[0] == 'S' && nm[1] == 'I' && nm[2] == 'G')
			p_named(f, nm + 3, sig, 'd');
		else
			fmt_dec(f, sig);
	}
	fmt_chr(f, ']');
}

void a_sigset(struct call *c, unsigned long p, unsigned long bytes)
{
	unsigned long set[1] = { 0 };

	a_sep(c);
	if (bytes != sizeof(set)) {
		p_ptr(c->f, p);
		return;
	}
	if (!fetch(c->f, c->s, set, p, sizeof(set)))
		p_sigset(c->f, set, bytes);
}

void p_char(struct fmt *f, unsigned int ch)
{
	p_char_as(f, ch, 1);
}

void p_char_as(struct fmt *f, unsigned int ch, int ws)
{
	static const char esc[] = "\n\t\r\v\f", let[] = "ntrvf";
	unsigned int i;

	for (i = 0; i < sizeof(esc) - 1 && esc[i] != (char)ch; i++)
		;
	fmt_chr(f, '\'');
	if (ws && i < sizeof(esc) - 1) {
		fmt_chr(f, '\\');
		fmt_chr(f, let[i]);
	} else if (ch == '\'' || ch == '\\') {
		fmt_chr(f, '\\');
		fmt_chr(f, (char)ch);
	} else if (ch >= ' ' && ch < 0x7f) {
		fmt_chr(f, (char)ch);
	} else {
		fmt_str(f, "\\x");
		fmt_chr(f, "0123456789abcdef"[(ch >> 4) & 15]);
		fmt_chr(f, "0123456789abcdef"[ch & 15]);
	}
	fmt_chr(f, '\'');
}

/*
 * n elements of size bytes at p (at most cap of them, "..." after cap
 * when n is more): each one is read before -s cuts the array, so an
 * unreadable one after the last shown prints its address.
 */
void p_elems(struct call *c, unsigned long p, unsigned long n,
		    unsigned long cap, unsigned int size,
		    void (*elem)(struct fmt *f, const void *e))
{
	unsigned char e[64];	/* (the largest element: v4l2_clip) */
	unsigned long i, m = n < cap ? n : cap, max = ~0UL;

	if (!trace_whole(c->s))
		max = (unsigned long)trace_strsize;

	if (!p) {
		fmt_str(c->f, "NULL");
		return;
	}
	if (!n) {
		fmt_str(c->f, "[]");
		return;
	}
	if (trace_read(c->s, e, (void *)p, size) != (long)size) {
		fmt_hex(c->f, p);
		return;
	}
	fmt_chr(c->f, '[');
	for (i = 0; i < m; i++) {
		unsigned long at = p + i * size;

		if (i && trace_read(c->s, e, (void *)at, size) != (long)size) {
			fmt_str(c->f, ", ... /* ");
			fmt_hex(c->f, at);
			fmt_str(c->f, " */");
			break;
		}
		if (i >= max) {
			fmt_str(c->f, ", ...");
			break;
		}
		if (i)
			fmt_str(c->f, ", ");
		elem(c->f, e);
	}
	if (i == m && n > cap)
		fmt_str(c->f, ", ...");
	fmt_chr(c->f, ']');
}

int p_nonzero_tail(struct fmt *f, const struct sysgate_sys *s,
		   unsigned long p, unsigned long from, unsigned long to,
		   const char *sep)
{
	unsigned char buf[4096];
	unsigned long i, n = to - from;

	if (from >= to)
		return 0;
	if (n > sizeof(buf))
		n = sizeof(buf);
	if (trace_read(s, buf, (void *)(p + from), n) != (long)n) {
		fmt_str(f, sep);
		fmt_str(f, "???");
		return 1;
	}
	for (i = 0; i < n && !buf[i]; i++)
		;
	if (i == n)
		return 0;
	fmt_str(f, sep);
	f_udec(f, "/* bytes ", from);
	f_udec(f, "..", to - 1);
	fmt_str(f, " */ ");
	p_hex_bytes(f, buf, n < (unsigned long)trace_strsize ? n :
			    (unsigned long)trace_strsize);
	if (n > (unsigned long)trace_strsize)
		fmt_str(f, "...");
	return 1;
}

int trace_readable(const struct sysgate_sys *s, unsigned long p,
		   unsigned long len)
{
	unsigned long a, end = p + len - 1;
	unsigned char b;

	for (a = p; a < end; a = (a | 4095) + 1)
		if (sysgate_read_mem(s, &b, (void *)a, 1) != 1)
			return 0;
	return sysgate_read_mem(s, &b, (void *)end, 1) == 1;
}

void p_clock_t(struct fmt *f, unsigned long long v)
{
	fmt_udec(f, v);
	if (trace_xstyle == XS_RAW || !v)
		return;
	f_udec(f, " /* ", v / 100);
	fmt_chr(f, '.');
	fmt_pad(f, (unsigned long)(v % 100), 2);
	fmt_str(f, " s */");
}
