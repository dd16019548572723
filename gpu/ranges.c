/* SPDX-License-Identifier: MIT */
/*
 * ranges.c - memory GPU calls may name: registered host memory, the
 * staging area, what the GPU mmap()ed itself, and device memory (bulk
 * path); and the check of every pointer argument against them.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>

#include "runtime.h"

int add_range(struct sysgate_gpu_server *s, uintptr_t lo, size_t len,
	      unsigned kind)
{
	int ret = 0;

	if (!len || lo + len < lo)
		return -EINVAL;
	pthread_rwlock_wrlock(&s->rlock);
	if (s->nranges == s->rcap) {
		unsigned cap = s->rcap ? 2 * s->rcap : 16;
		struct range *r = realloc(s->ranges, cap * sizeof(*r));

		if (!r) {
			ret = -ENOMEM;
			goto out;
		}
		s->ranges = r;
		s->rcap = cap;
	}
	s->ranges[s->nranges++] = (struct range){ lo, lo + len, kind };
out:
	pthread_rwlock_unlock(&s->rlock);
	return ret;
}

static int del_range(struct sysgate_gpu_server *s, uintptr_t lo,
		     unsigned kinds)
{
	int ret = -ENOENT;

	pthread_rwlock_wrlock(&s->rlock);
	for (unsigned i = 0; i < s->nranges; i++) {
		if (s->ranges[i].lo == lo && (s->ranges[i].kind & kinds)) {
			s->ranges[i] = s->ranges[--s->nranges];
			ret = 0;
			break;
		}
	}
	pthread_rwlock_unlock(&s->rlock);
	return ret;
}

/*
 * [lo, hi) of the GPU's mappings is gone (munmap): trim the one range that
 * holds it, keeping what is left on either side.
 */
void cut_mmap(struct sysgate_gpu_server *s, uintptr_t lo, uintptr_t hi)
{
	pthread_rwlock_wrlock(&s->rlock);
	for (unsigned i = 0; i < s->nranges; i++) {
		struct range *r = &s->ranges[i];

		if (r->kind != RANGE_MMAP || lo < r->lo || hi > r->hi)
			continue;
		if (lo > r->lo && hi < r->hi) {
			struct range up = { hi, r->hi, RANGE_MMAP };

			r->hi = lo;
			if (s->nranges == s->rcap) {
				struct range *n = realloc(s->ranges, 2 * s->rcap *
							  sizeof(*n));

				if (!n)
					break;	/* the upper part stays mapped,
						 * unreachable from the GPU */
				s->ranges = n;
				s->rcap *= 2;
			}
			s->ranges[s->nranges++] = up;
		} else if (lo > r->lo) {
			r->hi = lo;
		} else if (hi < r->hi) {
			r->lo = hi;
		} else {
			*r = s->ranges[--s->nranges];
		}
		break;
	}
	pthread_rwlock_unlock(&s->rlock);
}

int sysgate_gpu_register(struct sysgate_gpu_server *s, const void *p,
			 size_t len)
{
	return add_range(s, (uintptr_t)p, len, RANGE_USER);
}

int sysgate_gpu_register_device(struct sysgate_gpu_server *s, const void *p,
				size_t len)
{
	return add_range(s, (uintptr_t)p, len, RANGE_DEVICE);
}

int sysgate_gpu_unregister(struct sysgate_gpu_server *s, const void *p)
{
	return del_range(s, (uintptr_t)p, RANGE_USER | RANGE_DEVICE);
}

static int copy_memcpy(void *ctx, void *dst, const void *src, size_t len,
		       int to_device)
{
	(void)ctx;
	(void)to_device;
	memcpy(dst, src, len);
	return 0;
}

void sysgate_gpu_set_copier(struct sysgate_gpu_server *s,
			    const struct sysgate_gpu_copier *cp)
{
	pthread_rwlock_wrlock(&s->rlock);
	if (cp)
		s->cp = *cp;
	else
		s->cp = (struct sysgate_gpu_copier){ .copy = copy_memcpy };
	if (!s->cp.chunk)
		s->cp.chunk = 4u << 20;
	pthread_rwlock_unlock(&s->rlock);
}

/* Is [p, p+len) inside one range of the given kinds?  Caller holds rlock. */
static const struct range *find_range(struct sysgate_gpu_server *s,
				      uintptr_t p, size_t len, unsigned kinds)
{
	if (p + len < p)
		return NULL;
	for (unsigned i = 0; i < s->nranges; i++) {
		const struct range *r = &s->ranges[i];

		if ((r->kind & kinds) && p >= r->lo && p + len <= r->hi)
			return r;
	}
	return NULL;
}

/* 0, 1 when the buffer is device memory (bulk path), or -EFAULT. */
int check_ptrs(struct sysgate_gpu_server *s, const struct sg_sysent *e,
	       const uint64_t *a)
{
	int ret = 0;

	pthread_rwlock_rdlock(&s->rlock);
	for (int i = 0; i < 3 && e->ptr[i].kind; i++) {
		const struct sg_ptrspec *ps = &e->ptr[i];
		uintptr_t p = (uintptr_t)a[ps->arg];
		unsigned kinds = RANGE_USER | RANGE_MMAP | RANGE_STAGING;
		size_t len = ps->len_arg >= 0 ? (size_t)a[ps->len_arg] :
			ps->fixed;

		if (!p && (ps->kind & PS_NULLOK))
			continue;
		if (ps->kind & PS_FIXMAP) {
			/* Only MAP_FIXED replaces mappings; then it may
			 * replace only what the GPU mapped itself. */
			if (!(a[3] & MAP_FIXED))
				continue;
			kinds = RANGE_MMAP;
		}
		if (ps->kind & PS_MAPPED)
			kinds = RANGE_MMAP;
		if (ps->kind & PS_ADVISE)
			kinds = RANGE_USER | RANGE_MMAP;
		if (ps->kind & PS_LENPTR) {
			const struct range *lr;
			uintptr_t lp = (uintptr_t)a[ps->len_arg];

			if (!lp)
				continue;
			lr = find_range(s, lp, sizeof(socklen_t), kinds);
			if (!lr) {
				ret = -EFAULT;
				break;
			}
			len = *(const socklen_t *)lp;
		}
		if (ps->kind & PS_STR) {
			const struct range *r = find_range(s, p, 1, kinds);

			if (!r || !memchr((const void *)p, 0, r->hi - p)) {
				ret = -EFAULT;
				break;
			}
			continue;
		}
		if (!len)
			continue;
		if (find_range(s, p, len, kinds))
			continue;
		if ((ps->kind & PS_BULK) &&
		    find_range(s, p, len, RANGE_DEVICE)) {
			ret = 1;
			continue;
		}
		ret = -EFAULT;
		break;
	}
	pthread_rwlock_unlock(&s->rlock);
	return ret;
}
