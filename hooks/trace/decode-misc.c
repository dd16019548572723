/* SPDX-License-Identifier: MIT */
/* Directory listings, system information, random bytes, umask. */
#include <sys/random.h>
#include <sys/sysinfo.h>
#include <sys/utsname.h>
#include "trace.h"

/* 0x... / * N entries * / : strace counts what the call returned. */
static void d_getdents(struct call *c)
{
	unsigned long p = c->s->args[1], off = 0, n = 0;
	struct {
		unsigned long ino, off;
		unsigned short reclen;
	} d;

	a_fd(c, 0);
	a_sep(c);
	p_ptr(c->f, p);
	if (c_ok(c)) {
		while (off < (unsigned long)c->s->ret &&
		       sysgate_read_mem(c->s, &d, (void *)(p + off), sizeof(d)) ==
			       sizeof(d) && d.reclen) {
			off += d.reclen;
			n++;
		}
		fmt_str(c->f, " /* ");
		fmt_udec(c->f, n);
		fmt_str(c->f, n == 1 ? " entry */" : " entries */");
	}
	a_udec(c, (unsigned int)c->s->args[2]);
}

static void d_uname(struct call *c)
{
	struct utsname u;

	if (fetch_out(c, &u, c->s->args[0], sizeof(u)))
		return;
	fmt_str(c->f, "{sysname=");
	p_data_local(c->f, (unsigned char *)u.sysname, hk_strlen(u.sysname));
	fmt_str(c->f, ", nodename=");
	p_data_local(c->f, (unsigned char *)u.nodename, hk_strlen(u.nodename));
	fmt_str(c->f, ", ...}");
}

static void field(struct fmt *f, const char *name, unsigned long v)
{
	fmt_str(f, name);
	fmt_udec(f, v);
}

static void d_sysinfo(struct call *c)
{
	struct sysinfo si;
	struct fmt *f = c->f;

	if (fetch_out(c, &si, c->s->args[0], sizeof(si)))
		return;
	field(f, "{uptime=", si.uptime);
	field(f, ", loads=[", si.loads[0]);
	field(f, ", ", si.loads[1]);
	field(f, ", ", si.loads[2]);
	field(f, "], totalram=", si.totalram);
	field(f, ", freeram=", si.freeram);
	field(f, ", sharedram=", si.sharedram);
	field(f, ", bufferram=", si.bufferram);
	field(f, ", totalswap=", si.totalswap);
	field(f, ", freeswap=", si.freeswap);
	field(f, ", procs=", si.procs);
	field(f, ", totalhigh=", si.totalhigh);
	field(f, ", freehigh=", si.freehigh);
	field(f, ", mem_unit=", si.mem_unit);
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
	p_mode(c->f, (unsigned int)c->s->args[0] & 0777);
}

static void r_umask(struct call *c)
{
	p_mode(c->f, c->s->ret);
}

const struct decoder dec_misc[] = {
	{ "getdents64", d_getdents, 0, 0 },
	{ "getdents", d_getdents, 0, 0 },
	{ "uname", d_uname, 0, 0 },
	{ "sysinfo", d_sysinfo, 0, 0 },
	{ "getrandom", d_getrandom, 0, 0 },
	{ "umask", d_umask, r_umask, 0 },
	{ 0, 0, 0, 0 },
};
