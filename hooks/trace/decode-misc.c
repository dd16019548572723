/* SPDX-License-Identifier: MIT */
/* Directory listings, system information, random bytes, umask, kernel
 * modules, kexec. */
#include <linux/ioprio.h>
#include <linux/kexec.h>
#include <linux/reboot.h>
#include <stddef.h>	/* (linux/sysctl.h needs size_t) */
#include <linux/sysctl.h>
#include <sys/random.h>
#include <sys/sysinfo.h>
#include <sys/utsname.h>
#include "trace.h"

/* -v: [{d_ino=.., d_off=.., d_reclen=24, d_type=DT_REG, d_name="a"}];
 * getdents' older records (old) keep the type in their last byte, after
 * the name, and strace prints it last.  Names are not cut at -s. */
static void p_dirents(struct call *c, unsigned long p, int old)
{
	unsigned char rec[304];	/* (a 255-byte name, padding, the type) */
	unsigned long off = 0, ino, head = old ? 18 : 19;
	unsigned short reclen;
	long doff;
	int n = 0;

	fmt_chr(c->f, '[');
	while (off < (unsigned long)c->s->ret && n < 1024) {
		unsigned long len = (unsigned long)c->s->ret - off, name;

		if (len > sizeof(rec))
			len = sizeof(rec);
		if (len <= head || trace_read(c->s, rec, (void *)(p + off),
						len) != (long)len)
			break;
		hk_memcpy(&ino, rec, 8);
		hk_memcpy(&doff, rec + 8, 8);
		hk_memcpy(&reclen, rec + 16, 2);
		if (reclen <= head)
			break;
		name = (reclen < len ? reclen : len) - head;
		if (n++)
			fmt_str(c->f, ", ");
		f_udec(c->f, "{d_ino=", ino);
		f_dec(c->f, ", d_off=", doff);
		f_udec(c->f, ", d_reclen=", reclen);
		if (!old) {
			fmt_str(c->f, ", d_type=");
			p_xlat(c->f, rec[18], &xl_dirent_types, 0);
		}
		fmt_str(c->f, ", d_name=");
		p_cstring(c->f, (const char *)rec + head, name);
		if (old && reclen <= len) {
			fmt_str(c->f, ", d_type=");
			p_xlat(c->f, rec[reclen - 1], &xl_dirent_types, 0);
		}
		fmt_chr(c->f, '}');
		off += reclen;
	}
	fmt_chr(c->f, ']');
}

/* 0x... / * N entries * / : strace counts what the call returned. */
static void d_getdents(struct call *c)
{
	unsigned long p = c->s->args[1], off = 0, n = 0;
	struct {
		unsigned long ino, off;
		unsigned short reclen;
	} d;

	a_fd(c, 0);
	if (trace_whole(c->s)) {
		if (a_out(c, p))
			p_dirents(c, p, c->s->nr !=
				  sysgate_syscall_number("getdents64"));
		a_udec(c, (unsigned int)c->s->args[2]);
		return;
	}
	a_sep(c);
	p_ptr(c->f, p);
	if (c_ok(c) && trace_structs(c->s)) {
		while (off < (unsigned long)c->s->ret &&
		       trace_read(c->s, &d, (void *)(p + off), sizeof(d)) ==
			       sizeof(d) && d.reclen) {
			off += d.reclen;
			n++;
		}
		f_udec(c->f, " /* ", n);
		fmt_str(c->f, n == 1 ? " entry */" : " entries */");
	}
	a_udec(c, (unsigned int)c->s->args[2]);
}

static void field_str(struct fmt *f, const char *name, const char *v)
{
	fmt_str(f, name);
	p_data_local(f, (const unsigned char *)v, hk_strlen(v));
}

static void d_uname(struct call *c)
{
	struct utsname u;

	if (fetch_out(c, &u, c->s->args[0], sizeof(u)))
		return;
	field_str(c->f, "{sysname=", u.sysname);
	field_str(c->f, ", nodename=", u.nodename);
	if (!trace_whole(c->s)) {
		fmt_str(c->f, ", ...}");
		return;
	}
	field_str(c->f, ", release=", u.release);
	field_str(c->f, ", version=", u.version);
	field_str(c->f, ", machine=", u.machine);
	field_str(c->f, ", domainname=", u.domainname);
	fmt_chr(c->f, '}');
}

static void d_sysinfo(struct call *c)
{
	struct sysinfo si;
	struct fmt *f = c->f;

	if (fetch_out(c, &si, c->s->args[0], sizeof(si)))
		return;
	f_udec(f, "{uptime=", si.uptime);
	f_udec(f, ", loads=[", si.loads[0]);
	f_udec(f, ", ", si.loads[1]);
	f_udec(f, ", ", si.loads[2]);
	f_udec(f, "], totalram=", si.totalram);
	f_udec(f, ", freeram=", si.freeram);
	f_udec(f, ", sharedram=", si.sharedram);
	f_udec(f, ", bufferram=", si.bufferram);
	f_udec(f, ", totalswap=", si.totalswap);
	f_udec(f, ", freeswap=", si.freeswap);
	f_udec(f, ", procs=", si.procs);
	f_udec(f, ", totalhigh=", si.totalhigh);
	f_udec(f, ", freehigh=", si.freehigh);
	f_udec(f, ", mem_unit=", si.mem_unit);
	fmt_chr(f, '}');
}

static void d_getrandom(struct call *c)
{
	if (a_out(c, c->s->args[0]))
		p_data(c->f, c->s, c->s->args[0], c->s->ret, 1);
	a_udec(c, c->s->args[1]);
	a_flags(c, (unsigned int)c->s->args[2], &xl_grnd_flags, 0);
}

static void d_umask(struct call *c)
{
	a_sep(c);
	/* (the kernel's umode_t: 16 bits, as strace prints them) */
	p_mode(c->f, (unsigned short)c->s->args[0]);
}

static void r_umask(struct call *c)
{
	p_mode(c->f, c->s->ret);
}

/* IOPRIO_PRIO_VALUE(IOPRIO_CLASS_BE, 4) */
void p_ioprio_value(struct fmt *f, unsigned int v)
{
	fmt_str(f, "IOPRIO_PRIO_VALUE(");
	p_xlat(f, v >> IOPRIO_CLASS_SHIFT, &xl_ioprio_class,
	       "IOPRIO_CLASS_???");
	f_udec(f, ", ", v & IOPRIO_PRIO_MASK);
	fmt_chr(f, ')');
}

/* The macro, the number (-X raw) or both (-X verbose: the class's own
 * number and name inside). */
static void a_ioprio(struct call *c, int v)
{
	a_sep(c);
	if (trace_xstyle != XS_ABBREV)
		fmt_dec(c->f, v);
	if (trace_xstyle == XS_RAW)
		return;
	if (trace_xstyle == XS_VERBOSE)
		fmt_str(c->f, " /* ");
	p_ioprio_value(c->f, (unsigned int)v);
	if (trace_xstyle == XS_VERBOSE)
		fmt_str(c->f, " */");
}

static void d_ioprio_get(struct call *c)
{
	a_xlat(c, (unsigned int)c->s->args[0], &xl_ioprio_who,
	       "IOPRIO_WHO_???");
	a_pid(c, 1, c->s->args[0] == IOPRIO_WHO_PROCESS ? PT_TGID :
		    c->s->args[0] == IOPRIO_WHO_PGRP ? PT_PGID : PT_NONE);
}

static void r_ioprio_get(struct call *c)
{
	fmt_dec(c->f, c->s->ret);
	if (trace_xstyle == XS_RAW)
		return;
	fmt_str(c->f, " (");
	p_ioprio_value(c->f, (unsigned int)c->s->ret);
	fmt_chr(c->f, ')');
}

static void d_ioprio_set(struct call *c)
{
	d_ioprio_get(c);
	a_ioprio(c, (int)c->s->args[2]);
}

/* [unsigned int] the call wrote, or its address */
static void a_uint_out(struct call *c, unsigned long p)
{
	unsigned int v;

	if (fetch_out(c, &v, p, sizeof(v)))
		return;
	fmt_chr(c->f, '[');
	fmt_udec(c->f, v);
	fmt_chr(c->f, ']');
}

static void d_getcpu(struct call *c)
{
	a_uint_out(c, c->s->args[0]);
	a_uint_out(c, c->s->args[1]);
	a_ptr(c, c->s->args[2]);
}

static void d_init_module(struct call *c)
{
	a_ptr(c, c->s->args[0]);
	a_udec(c, c->s->args[1]);
	a_string(c, c->s->args[2]);
}

static void d_finit_module(struct call *c)
{
	a_fd(c, 0);
	a_string(c, c->s->args[1]);
	a_int_flags(c, (unsigned int)c->s->args[2], &xl_module_init_flags,
		    "MODULE_INIT_???");
}

static void d_delete_module(struct call *c)
{
	a_string(c, c->s->args[0]);
	a_int_flags(c, (unsigned int)c->s->args[1], &xl_delete_module_flags,
		    "O_???");
}

/* "9 / * NAME * /" whatever -X says (strace's verbose style for syslog's
 * numbers) */
static void a_num_named(struct call *c, int v, const char *name,
			const char *unknown)
{
	a_dec(c, v);
	fmt_str(c->f, " /* ");
	fmt_str(c->f, name ? name : unknown);
	fmt_str(c->f, " */");
}

/* The buffer's address in full, NULL for none */
static void a_addr64(struct call *c, unsigned long p)
{
	a_sep(c);
	p_ptr(c->f, p);
}

static void d_syslog(struct call *c)
{
	int type = (int)c->s->args[0], len = (int)c->s->args[2];

	a_num_named(c, type, xlat_name(&xl_syslog_actions, (unsigned int)type),
		    "SYSLOG_ACTION_???");
	switch (type) {
	case 0: case 1: case 5: case 6: case 7: case 9: case 10:
		/* (no buffer, no length) */
		return;
	case 2: case 3: case 4:		/* the reads: the bytes read */
		a_exit_next(c);
		if (a_out(c, c->s->args[1]))
			p_data(c->f, c->s, c->s->args[1], c->s->ret, 0);
		a_dec(c, len);
		return;
	case 8:				/* the console's level */
		a_addr64(c, c->s->args[1]);
		a_num_named(c, len, len == 8 ? "LOGLEVEL_DEBUG+1" :
			    xlat_name(&xl_loglevels, (unsigned int)len),
			    "LOGLEVEL_???");
		return;
	}
	a_addr64(c, c->s->args[1]);
	a_dec(c, len);
}

/* The name, when its length fits a host name (64 bytes) */
static void d_sethostname(struct call *c)
{
	unsigned int len = (unsigned int)c->s->args[1];

	a_sep(c);
	if (len > 64)
		p_ptr(c->f, c->s->args[0]);
	else
		p_data(c->f, c->s, c->s->args[0], len, 0);
	a_udec(c, len);
}

static void d_reboot(struct call *c)
{
	unsigned int cmd = (unsigned int)c->s->args[2];

	a_xlat(c, (unsigned int)c->s->args[0], &xl_reboot_magic1,
	       "LINUX_REBOOT_MAGIC_???");
	a_xlat(c, (unsigned int)c->s->args[1], &xl_reboot_magic2,
	       "LINUX_REBOOT_MAGIC_???");
	a_xlat(c, cmd, &xl_reboot_cmds, "LINUX_REBOOT_CMD_???");
	/* (the kernel copies at most 255 bytes of it) */
	if (cmd == LINUX_REBOOT_CMD_RESTART2) {
		a_sep(c);
		p_str_max(c->f, c->s, c->s->args[3], 255);
	}
}

/* A kexec segment: {buf, bufsz, mem, memsz} */
static void e_kexec_seg(struct fmt *f, const void *e)
{
	const unsigned long *seg = e;

	fmt_str(f, "{buf=");
	p_ptr(f, seg[0]);
	f_udec(f, ", bufsz=", seg[1]);
	fmt_str(f, ", mem=");
	p_ptr(f, seg[2]);
	f_udec(f, ", memsz=", seg[3]);
	fmt_chr(f, '}');
}

static void d_kexec_load(struct call *c)
{
	unsigned long n = c->s->args[1], flags = c->s->args[3];

	a_ptr(c, c->s->args[0]);
	a_udec(c, n);
	a_sep(c);
	/* (the kernel takes no more segments: an address for more) */
	if (n > KEXEC_SEGMENT_MAX)
		p_ptr(c->f, c->s->args[2]);
	else
		p_array(c, c->s->args[2], n, 4 * sizeof(long), 0, e_kexec_seg);
	/* the architecture in the high half, flags in the low one */
	a_xlat(c, flags & KEXEC_ARCH_MASK, &xl_kexec_arch, "KEXEC_ARCH_???");
	if (flags & ~(unsigned long)KEXEC_ARCH_MASK) {
		fmt_chr(c->f, '|');
		p_flags_unknown(c->f, flags & ~(unsigned long)KEXEC_ARCH_MASK,
				&xl_kexec_flags, "KEXEC_???");
	}
}

static void d_kexec_file_load(struct call *c)
{
	a_fd(c, 0);
	a_fd(c, 1);
	a_udec(c, c->s->args[2]);
	a_sep(c);
	p_data(c->f, c->s, c->s->args[3], c->s->args[2], 0);
	a_sep(c);
	p_flags_unknown(c->f, c->s->args[4], &xl_kexec_file_flags,
			"KEXEC_FILE_???");
}

/* _sysctl's arguments: their fields as numbers and addresses */
static void d_sysctl(struct call *c)
{
	struct __sysctl_args a;
	struct fmt *f = c->f;

	if (fetch_arg(c, &a, c->s->args[0], sizeof(a), 0))
		return;
	fmt_str(f, "{name=");
	p_ptr(f, (unsigned long)a.name);
	f_dec(f, ", nlen=", a.nlen);
	fmt_str(f, ", oldval=");
	p_ptr(f, (unsigned long)a.oldval);
	fmt_str(f, ", oldlenp=");
	p_ptr(f, (unsigned long)a.oldlenp);
	fmt_str(f, ", newval=");
	p_ptr(f, (unsigned long)a.newval);
	f_udec(f, ", newlen=", a.newlen);
	fmt_chr(f, '}');
}

const struct decoder dec_misc[] = {
	{ "_sysctl", d_sysctl, 0, 0 },
	{ "sethostname", d_sethostname, 0, 0 },
	{ "reboot", d_reboot, 0, 0 },
	{ "kexec_load", d_kexec_load, 0, 0 },
	{ "kexec_file_load", d_kexec_file_load, 0, 0 },
	{ "syslog", d_syslog, 0, 0 },
	{ "init_module", d_init_module, 0, 0 },
	{ "finit_module", d_finit_module, 0, 0 },
	{ "delete_module", d_delete_module, 0, 0 },
	{ "getcpu", d_getcpu, 0, 0 },
	{ "ioprio_get", d_ioprio_get, r_ioprio_get, 0 },
	{ "ioprio_set", d_ioprio_set, 0, 0 },
	{ "getdents64", d_getdents, 0, 0 },
	{ "getdents", d_getdents, 0, 0 },
	{ "uname", d_uname, 0, 0 },
	{ "sysinfo", d_sysinfo, 0, 0 },
	{ "getrandom", d_getrandom, 0, 0 },
	{ "umask", d_umask, r_umask, 0 },
	{ 0, 0, 0, 0 },
};
