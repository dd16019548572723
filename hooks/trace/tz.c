/* SPDX-License-Identifier: MIT */
/*
 * Local time's offset from UTC, as libc's localtime() gives it, without
 * libc: localtime_r in the program's libc allocates its time-zone data
 * on the program's heap, which would then exist before the program's
 * first instruction (tests/behave/heap-at-start).  The zone is TZ (from
 * /proc/self/environ) or /etc/localtime, read as glibc's tzset does: a
 * TZif file (RFC 8536: its transitions, then its footer's POSIX rule),
 * else a POSIX TZ string ("EST5EDT,M3.2.0,M11.1.0", "<+0545>-5:45").
 * Read once, at the first use, into static tables.
 */
#include <fcntl.h>
#include "trace.h"

#define MAX_TRANS 2048
#define MAX_TYPES 256

static long long trans[MAX_TRANS];	/* transition times, ascending */
static unsigned char trans_type[MAX_TRANS];
static long type_off[MAX_TYPES];
static int ntrans, ntypes;

/* A POSIX rule: std offset, and when DST (dst offset) starts and ends. */
struct rule_date {
	char kind;	/* 'J' (1..365, no Feb 29), 'D' (0..365), 'M' */
	int m, w, d, n;
	long secs;	/* local time of day of the change */
};
static struct {
	int valid, has_dst;
	long std, dst;	/* seconds east of UTC */
	struct rule_date start, end;
} rule;

static long nr(const char *name)
{
	return sysgate_syscall_number(name);
}

/* The whole file at path into buf: its length, or -1. */
long trace_read_file(const char *path, char *buf, long size)
{
	long fd = sysgate_syscall(nr("openat"), -100, (long)path, O_CLOEXEC,
				  0, 0, 0),
	     n, got = 0;

	if (fd < 0)
		return -1;
	while (got < size &&
	       (n = sysgate_syscall(nr("read"), fd, (long)(buf + got),
				    size - got, 0, 0, 0)) > 0)
		got += n;
	sysgate_syscall(nr("close"), fd, 0, 0, 0, 0, 0);
	return got;
}

long trace_read_stat(const char *path, char *buf, long size)
{
	long n = trace_read_file(path, buf, size - 1), i;

	if (n <= 0)
		return -1;
	buf[n] = 0;
	/* (a name may hold ") ": the last one ends it) */
	for (i = n - 1; i > 0 && buf[i] != ')'; i--)
		;
	return buf[i] == ')' && i + 2 < n ? i + 2 : -1;
}

/* --- POSIX TZ strings --------------------------------------------------- */

static const char *tz_name(const char *p)
{
	if (*p == '<') {
		while (*p && *p != '>')
			p++;
		return *p ? p + 1 : 0;
	}
	if (!((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z')))
		return 0;
	while ((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z'))
		p++;
	return p;
}

static const char *tz_num(const char *p, int *v)
{
	if (*p < '0' || *p > '9')
		return 0;
	for (*v = 0; *p >= '0' && *p <= '9'; p++)
		*v = *v * 10 + (*p - '0');
	return p;
}

/* [+-]hh[:mm[:ss]] in seconds. */
static const char *tz_time(const char *p, long *secs)
{
	int sign = 1, h, m = 0, s = 0;

	if (*p == '+' || *p == '-')
		sign = *p++ == '-' ? -1 : 1;
	if (!(p = tz_num(p, &h)))
		return 0;
	if (*p == ':' && (!(p = tz_num(p + 1, &m)) ||
			  (*p == ':' && !(p = tz_num(p + 1, &s)))))
		return 0;
	*secs = sign * (h * 3600L + m * 60L + s);
	return p;
}

static const char *tz_date(const char *p, struct rule_date *d)
{
	d->secs = 7200;
	if (*p == 'M') {
		d->kind = 'M';
		if (!(p = tz_num(p + 1, &d->m)) || *p != '.' ||
		    !(p = tz_num(p + 1, &d->w)) || *p != '.' ||
		    !(p = tz_num(p + 1, &d->d)) || d->m < 1 || d->m > 12 ||
		    d->w < 1 || d->w > 5 || d->d > 6)
			return 0;
	} else {
		d->kind = *p == 'J' ? 'J' : 'D';
		if (!(p = tz_num(p + (*p == 'J'), &d->n)) || d->n > 365)
			return 0;
	}
	if (*p == '/' && !(p = tz_time(p + 1, &d->secs)))
		return 0;
	return p;
}

/* "std offset [dst [offset] [,start,end]]": 0, or -1. */
static int parse_rule(const char *p)
{
	long v;

	if (!(p = tz_name(p)) || !(p = tz_time(p, &v)))
		return -1;
	rule.std = -v;
	rule.has_dst = 0;
	if (*p && *p != ',') {
		if (!(p = tz_name(p)))
			return -1;
		rule.dst = rule.std + 3600;
		if (*p && *p != ',') {
			if (!(p = tz_time(p, &v)))
				return -1;
			rule.dst = -v;
		}
		/* glibc's default rule: the United States' */
		tz_date("M3.2.0", &rule.start);
		tz_date("M11.1.0", &rule.end);
		if (*p == ',' && (!(p = tz_date(p + 1, &rule.start)) ||
				  *p != ',' || !(p = tz_date(p + 1, &rule.end))))
			return -1;
		rule.has_dst = 1;
	}
	if (*p)
		return -1;
	rule.valid = 1;
	return 0;
}

static long days_from_civil(long y, int m, int d)
{
	long era, yoe, doy, doe;

	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = y - era * 400;
	doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + doe - 719468;
}

static int leap(long y)
{
	return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

/* The day (since the epoch) a rule date falls on in year y. */
static long rule_day(const struct rule_date *r, long y)
{
	static const int mdays[] = { 31, 28, 31, 30, 31, 30, 31, 31, 30,
				     31, 30, 31 };
	long first;
	int dow, day, len;

	if (r->kind == 'J')
		return days_from_civil(y, 1, 1) + r->n - 1 +
		       (leap(y) && r->n >= 60);
	if (r->kind == 'D')
		return days_from_civil(y, 1, 1) + r->n;
	first = days_from_civil(y, r->m, 1);
	dow = (int)(((first + 4) % 7 + 7) % 7);	/* 1970-01-01: Thursday */
	day = 1 + (r->d - dow + 7) % 7 + (r->w - 1) * 7;
	len = mdays[r->m - 1] + (r->m == 2 && leap(y));
	while (day > len)
		day -= 7;
	return first + day - 1;
}

static long rule_offset(long long t)
{
	long long start, end;
	long y;
	int m, d;

	if (!rule.has_dst)
		return rule.std;
	trace_civil((long)((t + rule.std) / 86400 - ((t + rule.std) % 86400 < 0)),
		    &y, &m, &d);
	start = rule_day(&rule.start, y) * 86400LL + rule.start.secs - rule.std;
	end = rule_day(&rule.end, y) * 86400LL + rule.end.secs - rule.dst;
	if (start < end)
		return t >= start && t < end ? rule.dst : rule.std;
	return t >= end && t < start ? rule.std : rule.dst;
}

/* --- TZif files ---------------------------------------------------------- */

static unsigned long be(const unsigned char *p, int n)
{
	unsigned long v = 0;
	int i;

	for (i = 0; i < n; i++)
		v = v << 8 | p[i];
	return v;
}

/* 0, or -1 when buf is not a TZif file. */
static int parse_tzif(const unsigned char *b, long n)
{
	unsigned long cnt[6], size, i;
	const unsigned char *p = b, *end = b + n;
	int wide = 0;

	for (;;) {
		if (end - p < 44 || p[0] != 'T' || p[1] != 'Z' || p[2] != 'i' ||
		    p[3] != 'f')
			return -1;
		for (i = 0; i < 6; i++)
			cnt[i] = be(p + 20 + 4 * i, 4);
		/* isut, isstd, leap, time, type, char counts */
		size = cnt[3] * (wide ? 9 : 5) + cnt[4] * 6 + cnt[5] +
		       cnt[2] * (wide ? 12 : 8) + cnt[1] + cnt[0];
		if (size > (unsigned long)(end - p - 44) || !cnt[4])
			return -1;
		/* version 2 and later: the same again with 64-bit times */
		if (!wide && p[4] >= '2') {
			p += 44 + size;
			wide = 1;
			continue;
		}
		break;
	}
	p += 44;
	ntrans = cnt[3] < MAX_TRANS ? (int)cnt[3] : MAX_TRANS;
	ntypes = cnt[4] < MAX_TYPES ? (int)cnt[4] : MAX_TYPES;
	for (i = 0; i < (unsigned long)ntrans; i++) {
		unsigned long v = be(p + i * (wide ? 8 : 4), wide ? 8 : 4);

		trans[i] = wide ? (long long)v : (long long)(int)v;
		trans_type[i] = p[cnt[3] * (wide ? 8 : 4) + i];
	}
	p += cnt[3] * (wide ? 9 : 5);
	for (i = 0; i < (unsigned long)ntypes; i++)
		type_off[i] = (int)be(p + 6 * i, 4);
	p += cnt[4] * 6 + cnt[5] + cnt[2] * (wide ? 12 : 8) + cnt[1] + cnt[0];
	/* the footer: "\nRULE\n", for times after the last transition */
	if (wide && end - p > 2 && *p == '\n') {
		char r[128];
		long k;

		for (k = 0; k + 1 < end - p && p[1 + k] != '\n' &&
			    k < (long)sizeof(r) - 1; k++)
			r[k] = (char)p[1 + k];
		r[k] = 0;
		if (k && parse_rule(r))
			rule.valid = 0;
	}
	return 0;
}

static int load_file(const char *name)
{
	static unsigned char buf[1 << 16];
	char path[512];
	struct fmt f;
	long n;

	fmt_init(&f, path, sizeof(path) - 1);
	if (name[0] != '/')
		fmt_str(&f, "/usr/share/zoneinfo/");
	fmt_str(&f, name);
	if (f.full)
		return -1;
	path[f.len] = 0;
	n = trace_read_file(path, (char *)buf, sizeof(buf));
	return n > 0 ? parse_tzif(buf, n) : -1;
}

static void tz_read(void)
{
	static char env[1 << 16];
	long n = trace_read_file("/proc/self/environ", env, sizeof(env) - 1), i;
	const char *tz = 0;

	for (i = 0; n > 0 && i < n; i += hk_strlen(env + i) + 1) {
		env[n] = 0;
		if (!hk_strncmp(env + i, "TZ=", 3)) {
			tz = env + i + 3;
			break;
		}
	}
	if (!tz) {
		load_file("/etc/localtime");
		return;
	}
	if (*tz == ':')
		tz++;
	/* glibc: a file under the zone directory, else a POSIX rule */
	if (*tz && !load_file(tz))
		return;
	parse_rule(tz);
}

/*
 * Read at the first local time a line needs (most traces need none, and
 * every process of a tree would read two files at its start): 0 unread,
 * 1 being read by a thread, which the others wait for, 2 read.
 */
static int tz_state;

static void tz_ready(void)
{
	int st = __atomic_load_n(&tz_state, __ATOMIC_ACQUIRE);

	if (st == 2)
		return;
	if (!st && __atomic_compare_exchange_n(&tz_state, &st, 1, 0,
					       __ATOMIC_ACQ_REL,
					       __ATOMIC_ACQUIRE)) {
		tz_read();
		__atomic_store_n(&tz_state, 2, __ATOMIC_RELEASE);
		return;
	}
	while (__atomic_load_n(&tz_state, __ATOMIC_ACQUIRE) != 2)
		sysgate_syscall(nr("sched_yield"), 0, 0, 0, 0, 0, 0);
}

/* A fork's child has only the forking thread: a read another thread
 * was making is started again. */
void tz_forked(void)
{
	int st = 1;

	__atomic_compare_exchange_n(&tz_state, &st, 0, 0, __ATOMIC_ACQ_REL,
				    __ATOMIC_ACQUIRE);
}

long tz_offset(long long t)
{
	int lo = 0, hi = ntrans;

	tz_ready();

	if (!ntrans || (t >= trans[ntrans - 1] && rule.valid))
		return rule.valid ? rule_offset(t) :
		       ntypes ? type_off[ntrans ? trans_type[ntrans - 1] : 0] : 0;
	if (t < trans[0])
		return type_off[0];
	/* the last transition at or before t */
	while (hi - lo > 1) {
		int mid = (lo + hi) / 2;

		if (trans[mid] <= t)
			lo = mid;
		else
			hi = mid;
	}
	return trans_type[lo] < ntypes ? type_off[trans_type[lo]] : 0;
}
