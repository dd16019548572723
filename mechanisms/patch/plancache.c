/* SPDX-License-Identifier: MIT */
/*
 * Per-file plan cache.  Planning an object (decoding the functions around
 * every candidate, checking every branch in the file) costs far more than
 * writing the patches, and gives the same answer every time for the same
 * file and the same sysgate.  So the plan is stored under
 *
 *     $SYSGATE_CACHE/<object build-id>-<libsysgate build-id>.plan
 *
 * (default ~/.cache/sysgate; SYSGATE_CACHE=off disables it) and reused.
 * A plan is only ever trusted as far as it can be checked: every site must
 * lie in the object's text, and the bytes it replaces must be the bytes in
 * memory now (write_sites compares them again before writing).  Anything
 * else and the object is planned from scratch.
 */
#include "patch.h"

#define PLAN_MAGIC 0x324e414c50475353UL	/* "SSGPLAN2" */
#define O_RDONLY_ 0
#define O_WRONLY_CREAT_TRUNC 01101
#define O_CLOEXEC_ 02000000

struct plan_header {
	unsigned long magic;
	unsigned long site_size;	/* sizeof(struct sg_site) */
	unsigned long nsites;
	int n_data, n_unverified;
	unsigned long sum;		/* FNV-1a of the counts and the sites */
};

/* The fields above sum, as summed. */
#define COUNTED offsetof(struct plan_header, sum)

static unsigned long fnv1a(unsigned long h, const void *p, unsigned long n)
{
	const unsigned char *c = p;

	while (n--)
		h = (h ^ *c++) * 0x100000001b3UL;
	return h;
}

#define FNV_START 0xcbf29ce484222325UL

static int key_hex(char *dst, const unsigned char *id, int len)
{
	int i;

	for (i = 0; i < len; i++) {
		dst[2 * i] = "0123456789abcdef"[id[i] >> 4];
		dst[2 * i + 1] = "0123456789abcdef"[id[i] & 15];
	}
	return 2 * len;
}

/* The cache file's name for o, or 0 if o cannot be cached. */
static const char *plan_path(const struct sg_obj *o, char *buf,
			     unsigned long size)
{
	unsigned long n;

	if (!sg.cache_dir[0] || !o->build_id_len || !sg.self_build_id_len ||
	    o->is_vdso)
		return 0;
	n = sg_strlcpy(buf, sg.cache_dir, size);
	if (n + 2 + 4 * 32 + 8 >= size)
		return 0;
	buf[n++] = '/';
	n += key_hex(buf + n, o->build_id, o->build_id_len);
	buf[n++] = '-';
	n += key_hex(buf + n, sg.self_build_id, sg.self_build_id_len);
	sg_strlcpy(buf + n, ".plan", size - n);
	return buf;
}

static int in_text(const struct sg_obj *o, unsigned long lo, unsigned long hi)
{
	int i;

	for (i = 0; i < o->ntext; i++)
		if (lo >= o->text[i].lo && hi <= o->text[i].hi)
			return 1;
	return 0;
}

/* A stored site, made absolute, that still matches this mapping. */
static int site_ok(const struct sg_obj *o, struct sg_site *s)
{
	unsigned long len;

	s->addr += o->bias;
	s->lo += o->bias;
	s->hi += o->bias;
	if (s->pad)
		s->pad += o->bias;
	s->stub = 0;
	len = s->hi - s->lo;
	if (s->kind >= SG_PATCH_KINDS || s->lo > s->addr || s->addr >= s->hi ||
	    len > SG_SITE_MAX_REGION || !in_text(o, s->lo, s->hi) ||
	    (s->pad && !in_text(o, s->pad, s->pad + 8)))
		return 0;
	return !memcmp((const void *)s->lo, s->orig, len);
}

int sg_plan_load(struct sg_obj *o, struct sg_site *(*alloc)(struct sg_obj *,
							      unsigned long))
{
	char path[512];
	struct plan_header h;
	long fd, want;
	unsigned long i;

	if (!plan_path(o, path, sizeof(path)))
		return -1;
	fd = sg_sc4(SG_NR_openat, AT_FDCWD_, (long)path, O_RDONLY_ | O_CLOEXEC_,
		    0);
	if (fd < 0)
		return -1;
	if (sg_sc3(SG_NR_read, fd, (long)&h, sizeof(h)) != sizeof(h) ||
	    h.magic != PLAN_MAGIC || h.site_size != sizeof(struct sg_site) ||
	    h.nsites > (1UL << 20) || !alloc(o, h.nsites))
		goto bad;
	want = h.nsites * sizeof(struct sg_site);
	if (sg_sc3(SG_NR_read, fd, (long)o->sites, want) != want ||
	    fnv1a(fnv1a(FNV_START, &h, COUNTED), o->sites, want) != h.sum)
		goto bad;
	for (i = 0; i < h.nsites; i++)
		if (!site_ok(o, &o->sites[i]))
			goto bad;
	o->nsites = h.nsites;
	o->n_data = h.n_data;
	o->n_unverified = h.n_unverified;
	sg_sc1(SG_NR_close, fd);
	return 0;
bad:
	o->nsites = 0;
	sg_sc1(SG_NR_close, fd);
	return -1;
}

void sg_plan_store(const struct sg_obj *o)
{
	char path[512], tmp[540];
	struct plan_header h = { PLAN_MAGIC, sizeof(struct sg_site),
				 o->nsites, o->n_data, o->n_unverified, 0 };
	struct sg_site s;
	long fd;
	int i, ok;
	char num[24];

	if (!plan_path(o, path, sizeof(path)))
		return;
	/* Write aside and rename: readers never see half a plan. */
	i = sg_strlcpy(tmp, path, sizeof(tmp));
	sg_strlcpy(tmp + i, ".", sizeof(tmp) - i);
	sg_strlcpy(tmp + i + 1, sg_utoa(num + sizeof(num), sg.pid),
		   sizeof(tmp) - i - 1);
	fd = sg_sc4(SG_NR_openat, AT_FDCWD_, (long)tmp,
		    O_WRONLY_CREAT_TRUNC | O_CLOEXEC_, 0644);
	if (fd < 0)
		return;
	/* The sum covers the sites, so they are written after the header
	 * at their place, the header last. */
	ok = 1;
	h.sum = fnv1a(FNV_START, &h, COUNTED);
	for (i = 0; ok && i < o->nsites; i++) {
		s = o->sites[i];
		s.addr -= o->bias;
		s.lo -= o->bias;
		s.hi -= o->bias;
		if (s.pad)
			s.pad -= o->bias;
		s.stub = 0;
		h.sum = fnv1a(h.sum, &s, sizeof(s));
		ok = sg_sc4(SG_NR_pwrite64, fd, (long)&s, sizeof(s),
			    sizeof(h) + i * sizeof(s)) == sizeof(s);
	}
	ok = ok && sg_sc4(SG_NR_pwrite64, fd, (long)&h, sizeof(h), 0) ==
			   sizeof(h);
	sg_sc1(SG_NR_close, fd);
	if (!ok || sg_sc5(SG_NR_renameat2, AT_FDCWD_, (long)tmp, AT_FDCWD_,
			  (long)path, 0) < 0)
		sg_sc3(SG_NR_unlinkat, AT_FDCWD_, (long)tmp, 0);
}
