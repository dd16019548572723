/* SPDX-License-Identifier: MIT */
/*
 * Files: open flags, the stat family (abbreviated as strace does),
 * statfs, access modes, AT_* flags, getcwd.
 */
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <linux/openat2.h>
#include <sys/swap.h>
#include "trace.h"

void p_open_flags(struct fmt *f, unsigned long v)
{
	size_t start = x_begin(f);
	unsigned long all = v;

	p_xlat(f, v & O_ACCMODE, &xl_open_access, 0);
	v &= ~(unsigned long)O_ACCMODE;
	if (v) {
		fmt_chr(f, '|');
		p_flags(f, v, &xl_open_flags, 0);
	}
	x_end(f, start, all, 'x');
}

void p_dev(struct fmt *f, unsigned long dev)
{
	/* glibc's major()/minor() split (32 bits each) */
	unsigned int major = ((dev >> 8) & 0xfff) | ((dev >> 32) & ~0xfffU);
	unsigned int minor = (dev & 0xff) | ((dev >> 12) & ~0xffU);
	size_t start = x_begin(f);

	fmt_str(f, "makedev(");
	if (major)
		fmt_hex(f, major);
	else
		fmt_chr(f, '0');
	fmt_str(f, ", ");
	if (minor)
		fmt_hex(f, minor);
	else
		fmt_chr(f, '0');
	fmt_chr(f, ')');
	x_end(f, start, dev, 'x');
}

static int is_dev(unsigned long mode)
{
	return S_ISCHR(mode) || S_ISBLK(mode);
}

/* st_atime=1577836800 / * date * /, st_atime_nsec=0 */
static void p_stat_time(struct fmt *f, const char *name, long sec, long nsec)
{
	fmt_str(f, ", ");
	fmt_str(f, name);
	fmt_chr(f, '=');
	fmt_dec(f, sec);
	p_date(f, sec, nsec);
	fmt_str(f, ", ");
	fmt_str(f, name);
	f_udec(f, "_nsec=", nsec);
}

/* {st_mode=S_IFREG|0644, st_size=12, ...}; all of it under -v */
static void a_stat(struct call *c, unsigned long p)
{
	struct stat st;
	struct fmt *f = c->f;

	if (fetch_out(c, &st, p, sizeof(st)))
		return;
	fmt_chr(f, '{');
	if (trace_whole(c->s)) {
		fmt_str(f, "st_dev=");
		p_dev(f, st.st_dev);
		f_udec(f, ", st_ino=", st.st_ino);
		fmt_str(f, ", ");
	}
	fmt_str(f, "st_mode=");
	p_file_mode(f, st.st_mode);
	if (trace_whole(c->s)) {
		f_udec(f, ", st_nlink=", st.st_nlink);
		f_udec(f, ", st_uid=", st.st_uid);
		f_udec(f, ", st_gid=", st.st_gid);
		f_udec(f, ", st_blksize=", st.st_blksize);
		f_udec(f, ", st_blocks=", st.st_blocks);
	}
	if (is_dev(st.st_mode)) {
		fmt_str(f, ", st_rdev=");
		p_dev(f, st.st_rdev);
	} else {
		f_dec(f, ", st_size=", st.st_size);
	}
	if (!trace_whole(c->s)) {
		fmt_str(f, ", ...}");
		return;
	}
	p_stat_time(f, "st_atime", st.st_atim.tv_sec, st.st_atim.tv_nsec);
	p_stat_time(f, "st_mtime", st.st_mtim.tv_sec, st.st_mtim.tv_nsec);
	p_stat_time(f, "st_ctime", st.st_ctim.tv_sec, st.st_ctim.tv_nsec);
	fmt_chr(f, '}');
}

static void p_statx_time(struct fmt *f, const char *name,
			 const struct statx_timestamp *t)
{
	fmt_str(f, name);
	p_timespec(f, t->tv_sec, t->tv_nsec);
	p_date(f, t->tv_sec, t->tv_nsec);
}

/* strace's statx: the fields stx_mask says were filled, the rest of
 * them only in full (-v) */
static void p_statx(struct fmt *f, const struct statx *sx, int whole)
{
	unsigned int m = sx->stx_mask;

	fmt_str(f, "{stx_mask=");
	p_flags_unknown(f, m, &xl_statx_mask, "STATX_???");
	if (whole)
		f_udec(f, ", stx_blksize=", sx->stx_blksize);
	fmt_str(f, ", stx_attributes=");
	p_flags_unknown(f, sx->stx_attributes, &xl_statx_attr,
			"STATX_ATTR_???");
	if (whole && (m & STATX_NLINK))
		f_udec(f, ", stx_nlink=", sx->stx_nlink);
	if (whole && (m & STATX_UID))
		f_udec(f, ", stx_uid=", sx->stx_uid);
	if (whole && (m & STATX_GID))
		f_udec(f, ", stx_gid=", sx->stx_gid);
	if (m & (STATX_TYPE | STATX_MODE)) {
		fmt_str(f, ", stx_mode=");
		p_file_mode(f, sx->stx_mode);
	}
	if (whole && (m & STATX_INO))
		f_udec(f, ", stx_ino=", sx->stx_ino);
	if (m & STATX_SIZE)
		f_udec(f, ", stx_size=", sx->stx_size);
	if (!whole) {
		fmt_str(f, ", ...}");
		return;
	}
	if (m & STATX_BLOCKS)
		f_udec(f, ", stx_blocks=", sx->stx_blocks);
	fmt_str(f, ", stx_attributes_mask=");
	p_flags_unknown(f, sx->stx_attributes_mask, &xl_statx_attr,
			"STATX_ATTR_???");
	if (m & STATX_ATIME)
		p_statx_time(f, ", stx_atime=", &sx->stx_atime);
	if (m & STATX_BTIME)
		p_statx_time(f, ", stx_btime=", &sx->stx_btime);
	if (m & STATX_CTIME)
		p_statx_time(f, ", stx_ctime=", &sx->stx_ctime);
	if (m & STATX_MTIME)
		p_statx_time(f, ", stx_mtime=", &sx->stx_mtime);
	f_udec(f, ", stx_rdev_major=", sx->stx_rdev_major);
	f_udec(f, ", stx_rdev_minor=", sx->stx_rdev_minor);
	f_udec(f, ", stx_dev_major=", sx->stx_dev_major);
	f_udec(f, ", stx_dev_minor=", sx->stx_dev_minor);
	if (m & STATX_MNT_ID) {
		fmt_str(f, ", stx_mnt_id=");
		p_hex(f, sx->stx_mnt_id);
	}
	if (m & STATX_DIOALIGN) {
		f_udec(f, ", stx_dio_mem_align=", sx->stx_dio_mem_align);
		f_udec(f, ", stx_dio_offset_align=",
		       sx->stx_dio_offset_align);
	}
	fmt_chr(f, '}');
}

static void d_stat(struct call *c)
{
	a_path(c, 0);
	a_stat(c, c->s->args[1]);
}

static void d_fstat(struct call *c)
{
	a_fd(c, 0);
	a_stat(c, c->s->args[1]);
}

static void d_newfstatat(struct call *c)
{
	a_dirfd(c, 0);
	a_path(c, 1);
	a_stat(c, c->s->args[2]);
	a_flags(c, c->s->args[3], &xl_at_flags, 0);
}

static void d_statx(struct call *c)
{
	unsigned long fl = c->s->args[2];
	struct statx sx;
	struct fmt *f = c->f;
	size_t start;

	a_dirfd(c, 0);
	a_path(c, 1);
	a_sep(c);
	start = f->len;
	/* (flags: both sync bits set print as both, as strace's) */
	p_flags(f, fl & AT_STATX_SYNC_TYPE, &xl_statx_sync,
		"AT_STATX_SYNC_AS_STAT");
	/* (strace 6.1 -X raw prints nothing for AT_STATX_SYNC_AS_STAT) */
	if (trace_xstyle == XS_RAW && !(fl & AT_STATX_SYNC_TYPE))
		f->len = start;
	if (fl & ~(unsigned long)AT_STATX_SYNC_TYPE) {
		fmt_chr(f, '|');
		p_flags(f, fl & ~(unsigned long)AT_STATX_SYNC_TYPE,
			&xl_at_flags, 0);
	}
	a_int_flags(c, (unsigned int)c->s->args[3], &xl_statx_mask,
		    "STATX_???");
	if (!fetch_out(c, &sx, c->s->args[4], sizeof(sx)))
		p_statx(f, &sx, trace_whole(c->s));
}

static void a_statfs(struct call *c, unsigned long p)
{
	struct statfs sf;
	struct fmt *f = c->f;
	const int *fsid;

	if (fetch_out(c, &sf, p, sizeof(sf)))
		return;
	fsid = (const int *)&sf.f_fsid;
	fmt_str(f, "{f_type=");
	p_xlat(f, (unsigned long)sf.f_type, &xl_fs_magic, 0);
	f_dec(f, ", f_bsize=", sf.f_bsize);
	f_udec(f, ", f_blocks=", sf.f_blocks);
	f_udec(f, ", f_bfree=", sf.f_bfree);
	f_udec(f, ", f_bavail=", sf.f_bavail);
	f_udec(f, ", f_files=", sf.f_files);
	f_udec(f, ", f_ffree=", sf.f_ffree);
	fmt_str(f, ", f_fsid={val=[");
	p_hex(f, (unsigned int)fsid[0]);	/* (strace's %#x: 0 is "0") */
	fmt_str(f, ", ");
	p_hex(f, (unsigned int)fsid[1]);
	f_dec(f, "]}, f_namelen=", sf.f_namelen);
	f_dec(f, ", f_frsize=", sf.f_frsize);
	fmt_str(f, ", f_flags=");
	p_flags(f, sf.f_flags, &xl_statfs_flags, 0);
	fmt_chr(f, '}');
}

static void d_statfs(struct call *c)
{
	a_path(c, 0);
	a_statfs(c, c->s->args[1]);
}

static void d_fstatfs(struct call *c)
{
	a_fd(c, 0);
	a_statfs(c, c->s->args[1]);
}

/* access's mode: 0 is F_OK */
static void a_access_mode(struct call *c, unsigned int mode)
{
	if (mode)
		a_int_flags(c, mode, &xl_access_modes, "?_OK");
	else
		a_flags(c, 0, &xl_access_modes, "F_OK");
}

static void d_access(struct call *c)
{
	a_path(c, 0);
	a_access_mode(c, c->s->args[1]);
}

static void d_faccessat(struct call *c)
{
	a_dirfd(c, 0);
	a_path(c, 1);
	a_access_mode(c, c->s->args[2]);
}

static void d_faccessat2(struct call *c)
{
	d_faccessat(c);
	a_int_flags(c, c->s->args[3], &xl_faccessat_flags, "AT_???");
}

static void d_unlinkat(struct call *c)
{
	a_dirfd(c, 0);
	a_path(c, 1);
	a_int_flags(c, c->s->args[2], &xl_at_flags, "AT_???");
}

/* dirfd, path, (mode|owner...), flags: the AT_* flags last. */
static void d_at_last(struct call *c)
{
	int n = sysgate_syscall_nargs(c->s->nr), i;

	a_dirfd(c, 0);
	for (i = 1; i < n - 1; i++)
		a_default(c, i);
	a_int_flags(c, c->s->args[n - 1], &xl_at_flags, "AT_???");
}

static void d_renameat2(struct call *c)
{
	a_dirfd(c, 0);
	a_path(c, 1);
	a_dirfd(c, 2);
	a_path(c, 3);
	a_int_flags(c, c->s->args[4], &xl_rename_flags, "RENAME_??");
}

static void d_umount2(struct call *c)
{
	a_path(c, 0);
	a_int_flags(c, c->s->args[1], &xl_umount_flags, "MNT_???");
}

static void d_getcwd(struct call *c)
{
	/* (the path as long as the call says: ret counts its NUL) */
	if (a_out(c, c->s->args[0]))
		p_string_n(c->f, c->s, c->s->args[0],
			   c->s->ret > 0 && c->s->ret < 4096 ?
			   (size_t)c->s->ret : 4096);
	a_udec(c, c->s->args[1]);
}

/* {flags=O_RDONLY, mode=0644, resolve=RESOLVE_NO_XDEV}: the mode when a
 * file may be created or it is not 0; an extension's bytes when they are
 * not all 0 ("???" when unreadable). */
static void d_openat2(struct call *c)
{
	unsigned long p = c->s->args[2], size = c->s->args[3], i, n;
	struct open_how how;
	unsigned char ext[256];
	struct fmt *f = c->f;

	a_dirfd(c, 0);
	a_path(c, 1);
	a_sep(c);
	if (size < sizeof(how) || fetch(f, c->s, &how, p, sizeof(how))) {
		if (size < sizeof(how))
			p_ptr(f, p);
		a_udec(c, size);
		return;
	}
	fmt_str(f, "{flags=");
	p_open_flags(f, how.flags);
	if (how.mode || (how.flags & O_CREAT) ||
	    (how.flags & O_TMPFILE) == O_TMPFILE) {
		fmt_str(f, ", mode=");
		p_mode(f, how.mode);
	}
	fmt_str(f, ", resolve=");
	p_flags_unknown(f, how.resolve, &xl_resolve_flags, "RESOLVE_???");
	n = size - sizeof(how) < sizeof(ext) ? size - sizeof(how) : sizeof(ext);
	if (n && trace_read(c->s, ext, (void *)(p + sizeof(how)), n) !=
			 (long)n) {
		fmt_str(f, ", ???");
	} else if (n) {
		for (i = 0; i < n && !ext[i]; i++)
			;
		if (i < n) {
			f_udec(f, ", /* bytes ", sizeof(how));
			f_udec(f, "..", sizeof(how) + n - 1);
			fmt_str(f, " */ ");
			p_hex_bytes(f, ext, n);
		}
	}
	fmt_chr(f, '}');
	a_udec(c, size);
}

/* mknod's mode is the kernel's umode_t (16 bits); the device follows
 * only for a character or block node. */
static void mknod_args(struct call *c, int at)
{
	unsigned short mode = c->s->args[at + 1];

	a_path(c, at);
	a_sep(c);
	p_file_mode(c->f, mode);
	if (is_dev(mode)) {
		a_sep(c);
		p_dev(c->f, (unsigned int)c->s->args[at + 2]);
	}
}

static void d_mknod(struct call *c)
{
	mknod_args(c, 0);
}

static void d_mknodat(struct call *c)
{
	a_dirfd(c, 0);
	mknod_args(c, 1);
}

/* ustat(makedev(...), addr): a 32-bit device; the struct stays an
 * address, as strace built against a libc without <ustat.h> prints it */
static void d_ustat(struct call *c)
{
	a_sep(c);
	p_dev(c->f, (unsigned int)c->s->args[0]);
	a_ptr(c, c->s->args[1]);
}

/* swapon's flags and, in their low bits, the priority */
static void d_swapon(struct call *c)
{
	unsigned int fl = (unsigned int)c->s->args[1];

	a_path(c, 0);
	a_sep(c);
	if (fl & ~SWAP_FLAG_PRIO_MASK) {
		p_flags_unknown(c->f, fl & ~SWAP_FLAG_PRIO_MASK,
				&xl_swap_flags, "SWAP_FLAG_???");
		fmt_chr(c->f, '|');
	}
	fmt_udec(c->f, fl & SWAP_FLAG_PRIO_MASK);
}

/* Extended attributes' calls: the file (path or fd: argument 0) and,
 * but for the list calls, the attribute's name */
static void a_xattr_file(struct call *c, int name)
{
	if (c->s->nr == sysgate_syscall_number("fsetxattr") ||
	    c->s->nr == sysgate_syscall_number("fgetxattr") ||
	    c->s->nr == sysgate_syscall_number("flistxattr") ||
	    c->s->nr == sysgate_syscall_number("fremovexattr"))
		a_fd(c, 0);
	else
		a_path(c, 0);
	if (name)
		a_string(c, c->s->args[1]);
}

/* An attribute's value (n bytes, a final NUL not shown; one larger than
 * the kernel takes, its address) and size */
static void a_xattr_val(struct call *c, unsigned long n, unsigned long size)
{
	a_sep(c);
	if (n > 65536)	/* XATTR_SIZE_MAX */
		p_ptr(c->f, c->s->args[2]);
	else
		p_data_nul(c->f, c->s, c->s->args[2], n);
	a_udec(c, size);
}

static void d_setxattr(struct call *c)
{
	a_xattr_file(c, 1);
	a_xattr_val(c, c->s->args[3], c->s->args[3]);
	a_flags(c, c->s->args[4], &xl_xattr_flags, 0);
}

/* (the value read: ret bytes; of a failed call, -1: its address) */
static void d_getxattr(struct call *c)
{
	a_xattr_file(c, 1);
	a_exit_next(c);
	a_xattr_val(c, (unsigned long)c->s->ret, c->s->args[3]);
}

/* the names read, NUL-separated; of size 0 or a failed call: address */
static void d_listxattr(struct call *c)
{
	a_xattr_file(c, 0);
	a_exit_next(c);
	a_sep(c);
	if (!c->s->args[2] || !c_ok(c))
		p_ptr(c->f, c->s->args[1]);
	else
		p_data(c->f, c->s, c->s->args[1], (unsigned long)c->s->ret, 0);
	a_udec(c, c->s->args[2]);
}

static void d_removexattr(struct call *c)
{
	a_xattr_file(c, 1);
}

const struct decoder dec_file[] = {
	{ "swapon", d_swapon, 0, 0 },
	{ "setxattr", d_setxattr, 0, 0 },
	{ "lsetxattr", d_setxattr, 0, 0 },
	{ "fsetxattr", d_setxattr, 0, 0 },
	{ "getxattr", d_getxattr, 0, 0 },
	{ "lgetxattr", d_getxattr, 0, 0 },
	{ "fgetxattr", d_getxattr, 0, 0 },
	{ "listxattr", d_listxattr, 0, 0 },
	{ "llistxattr", d_listxattr, 0, 0 },
	{ "flistxattr", d_listxattr, 0, 0 },
	{ "removexattr", d_removexattr, 0, 0 },
	{ "lremovexattr", d_removexattr, 0, 0 },
	{ "fremovexattr", d_removexattr, 0, 0 },
	{ "ustat", d_ustat, 0, 0 },
	{ "renameat2", d_renameat2, 0, 0 },
	{ "umount2", d_umount2, 0, 0 },
	{ "mknod", d_mknod, 0, 0 },
	{ "mknodat", d_mknodat, 0, 0 },
	{ "openat2", d_openat2, 0, 0 },
	{ "stat", d_stat, 0, 0 },
	{ "lstat", d_stat, 0, 0 },
	{ "fstat", d_fstat, 0, 0 },
	{ "newfstatat", d_newfstatat, 0, 0 },
	{ "statx", d_statx, 0, 0 },
	{ "statfs", d_statfs, 0, 0 },
	{ "fstatfs", d_fstatfs, 0, 0 },
	{ "access", d_access, 0, 0 },
	{ "faccessat", d_faccessat, 0, 0 },
	{ "faccessat2", d_faccessat2, 0, 0 },
	{ "unlinkat", d_unlinkat, 0, 0 },
	{ "fchownat", d_at_last, 0, 0 },
	{ "linkat", d_at_last, 0, 0 },
	{ "execveat", d_at_last, 0, 0 },
	{ "getcwd", d_getcwd, 0, 0 },
	{ 0, 0, 0, 0 },
};
