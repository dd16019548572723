/* SPDX-License-Identifier: MIT */
/*
 * Plans shared by the processes of one tree.  Every program a tree execs
 * maps the same libc and ld.so, and a shell script or a build runs dozens
 * of them: the first process that plans an object leaves the plan in the
 * tree's shared state (core/shared.c, memory only: nothing on disk), the
 * next ones take it.
 *
 * A plan is keyed by the file (device, inode, size) and the layout of
 * its text mappings, and stores sites relative to the object's start.
 * It is a claim, never an instruction: before use, every site must lie
 * in the object's text, and the bytes it replaces must be the bytes in
 * memory now (write.c compares them again before writing).  Anything
 * else and the object is planned from scratch.
 *
 * An object left to traps (patch.c) has no plan of its own: each site
 * its first traps planned is an entry of one site (plan_key.single),
 * which the next processes patch when they map that object, before it
 * runs: a shell script's children then trap only where they alone go.
 *
 * Entries are appended under the region's lock and published by the
 * count (release): readers take no lock and see only whole entries.
 */
#include "patch.h"
#include "shared.h"

#define PLANS_NAME "patch/plans"
#define PLANS_SIZE (1UL << 20)

struct plan_key {
	unsigned long dev, ino, size;
	unsigned long text[SG_MAX_TEXT][3];	/* lo, hi (from o->lo), off */
	int ntext, zwhy;
	int all;		/* planned whole at a first thread: every
				   site planned, selected or not */
	int single;		/* 1: one site of an object left to traps,
				   2: its waited count, 3: its branch targets
				   near syscall pairs (any selection: all
				   and sel are 0) */
	unsigned long sel[SG_SEL_WORDS];	/* unselected sites are left
						   unplanned */
};

/*
 * A site as a plan keeps it: offsets from the object's start, the bytes
 * it replaces and nothing that is only known once placed (the stub).  A
 * third of a struct sg_site: the state pages a tree writes for libc's
 * 570 plans are what the hot path issue counts against sysgate.
 */
struct plan_site {
	unsigned int addr, pad;	/* from o->lo; pad 0 if none */
	int nr;
	unsigned char before;	/* addr - lo */
	unsigned char len;	/* hi - lo: the bytes of orig that follow */
	unsigned char kind, insn_len, interior, why, planned, hoist;
	unsigned char relay_ok, kreg, tail, zwhy;
	unsigned char orig[];
};

/* Every field of struct sg_site is either stored above or is the stub
 * (placed later): a new field must be added to both. */
_Static_assert(__builtin_offsetof(struct sg_site, orig) ==
		       5 * sizeof(unsigned long) + sizeof(int) + 10 &&
	       sizeof(struct sg_site) ==
		       ((__builtin_offsetof(struct sg_site, orig) +
			 SG_SITE_MAX_REGION + 7) & ~7UL),
	       "struct sg_site changed: store the new field in plan_site");

#define PLAN_SITE_LEN(len) ((sizeof(struct plan_site) + (len) + 3) & ~3UL)

struct plan_ent {
	unsigned long len;	/* of the whole entry */
	struct plan_key key;
	unsigned long nsites;
	int n_data, n_unverified;
	unsigned long waited;	/* single 2: traps the tree's processes
				   waited for a whole read (patch.c);
				   single 3: how many targets follow, as
				   offsets from the object's start (~0UL:
				   too many to keep) */
	unsigned char sites[];	/* nsites struct plan_site, 4-aligned */
};

struct plans {
	unsigned int lock;
	unsigned int count;	/* entries published */
	unsigned long used;	/* bytes of entries, after this header */
	unsigned char ents[];
};

/* Only in a state the tree already has (the sysgate command's, or one a
 * hook asked for): a process alone gains nothing from sharing plans, so
 * none is made for them. */
static struct plans *region(void)
{
	static struct plans *p;

	if (!p && sg.shared_base)
		p = sg_shared_alloc(PLANS_NAME, PLANS_SIZE);
	return p;
}

static void make_key(const struct sg_obj *o, struct plan_key *k, int single)
{
	int i;

	memset(k, 0, sizeof(*k));
	k->dev = o->dev_ino[0];
	k->ino = o->dev_ino[1];
	k->ntext = o->ntext;
	k->zwhy = o->want_zwhy;
	k->single = single;
	/* (an object left to traps is seldom opened: its size is not
	 * known, the file is the one mapped, dev and inode say) */
	if (!single) {
		k->size = o->file_size;
		k->all = sg_patch_wants_all();
		sg_patch_selection(k->sel);
	}
	for (i = 0; i < o->ntext; i++) {
		k->text[i][0] = o->text[i].lo - o->lo;
		k->text[i][1] = o->text[i].hi - o->lo;
		k->text[i][2] = o->text[i].off;
	}
}

static int in_text(const struct sg_obj *o, unsigned long lo, unsigned long hi)
{
	int i;

	for (i = 0; i < o->ntext; i++)
		if (lo >= o->text[i].lo && hi <= o->text[i].hi)
			return 1;
	return 0;
}

/* A stored site, made absolute into s, that still matches this mapping
 * (an object left to traps: what its file holds there, with what its
 * first traps patched put back). */
static int site_ok(struct sg_obj *o, const struct plan_site *p,
		   struct sg_site *s)
{
	unsigned long len = p->len;
	unsigned char now[SG_SITE_MAX_REGION];

	memset(s, 0, sizeof(*s));
	s->addr = o->lo + p->addr;
	s->lo = s->addr - p->before;
	s->hi = s->lo + len;
	s->pad = p->pad ? o->lo + p->pad : 0;
	s->nr = p->nr;
	s->kind = p->kind;
	s->insn_len = p->insn_len;
	s->interior = p->interior;
	s->why = p->why;
	s->planned = p->planned;
	s->hoist = p->hoist;
	s->relay_ok = p->relay_ok;
	s->kreg = p->kreg;
	s->tail = p->tail;
	s->zwhy = p->zwhy;
	if (s->kind >= SG_PATCH_KINDS || s->why >= SG_WHY_COUNT ||
	    s->lo > s->addr || s->addr >= s->hi || !s->insn_len ||
	    s->addr + s->insn_len > s->hi || len > SG_SITE_MAX_REGION ||
	    !in_text(o, s->lo, s->hi) ||
	    (s->pad && !in_text(o, s->pad, s->pad + 8)) ||
	    (o->lazy ? sg_obj_read(o, s->lo, now, len) != (long)len :
		       sg_obj_view(o, s->lo, len) != len))
		return 0;
	memcpy(s->orig, p->orig, len);
	return !memcmp(o->lazy ? now : (const unsigned char *)s->lo, s->orig,
		       len);
}

/* The entry at *off, which is then moved past it; 0 where the region
 * is not as written (any process of the tree can write it: a claim,
 * checked like the rest). */
static const struct plan_ent *next_ent(const struct plans *p,
				       unsigned long *off)
{
	const unsigned long room = PLANS_SIZE - sizeof(*p);
	const struct plan_ent *ent = (const void *)(p->ents + *off);

	if (*off + sizeof(*ent) > room || ent->len < sizeof(*ent) ||
	    ent->len > room - *off ||
	    ent->nsites > (ent->len - sizeof(*ent)) / PLAN_SITE_LEN(0))
		return 0;
	*off += (ent->len + 7) & ~7UL;
	return ent;
}

/* The site at *at of ent, which is then moved past it; 0 where it would
 * leave the entry. */
static const struct plan_site *next_site(const struct plan_ent *ent,
					 unsigned long *at)
{
	const unsigned long room = ent->len - sizeof(*ent);
	const struct plan_site *ps = (const void *)(ent->sites + *at);

	if (*at + PLAN_SITE_LEN(0) > room || *at + PLAN_SITE_LEN(ps->len) > room)
		return 0;
	*at += PLAN_SITE_LEN(ps->len);
	return ps;
}

/* Objects with a file of their own (not the vDSO), in a tree that has
 * a state. */
static struct plans *region_for(const struct sg_obj *o)
{
	return o->is_vdso || !o->dev_ino[1] ? 0 : region();
}

int sg_plans_find(struct sg_obj *o,
		  struct sg_site *(*alloc)(struct sg_obj *o, unsigned long n))
{
	struct plans *p = o->fd < 0 ? 0 : region_for(o);
	const struct plan_ent *ent;
	const struct plan_site *ps;
	struct plan_key k;
	unsigned long off = 0, i, at;
	unsigned int n, e;

	if (!p)
		return -1;
	make_key(o, &k, 0);
	n = __atomic_load_n(&p->count, __ATOMIC_ACQUIRE);
	for (e = 0; e < n && (ent = next_ent(p, &off)); e++) {
		if (memcmp(&ent->key, &k, sizeof(k)) || !alloc(o, ent->nsites))
			continue;
		for (i = 0, at = 0; i < ent->nsites; i++)
			if (!(ps = next_site(ent, &at)) ||
			    !site_ok(o, ps, &o->sites[i]))
				return -1;
		o->nsites = ent->nsites;
		o->n_data = ent->n_data;
		o->n_unverified = ent->n_unverified;
		return 0;
	}
	return -1;
}

int sg_plans_take_sites(struct sg_obj *o, unsigned long addr,
			int (*use)(struct sg_obj *o, struct sg_site *s))
{
	struct plans *p = region_for(o);
	const struct plan_ent *ent;
	const struct plan_site *ps;
	struct plan_key k;
	struct sg_site s;
	unsigned long off = 0, at;
	unsigned int n, e;
	int used = 0;

	if (!p)
		return 0;
	make_key(o, &k, 1);
	n = __atomic_load_n(&p->count, __ATOMIC_ACQUIRE);
	for (e = 0; e < n && (ent = next_ent(p, &off)); e++) {
		at = 0;
		if (!memcmp(&ent->key, &k, sizeof(k)) && ent->nsites == 1 &&
		    (ps = next_site(ent, &at)) &&
		    (!addr || ps->addr == addr - o->lo) && site_ok(o, ps, &s))
			used += use(o, &s);
	}
	return used;
}

/* The length of s as a plan keeps it, or 0 if one cannot. */
static unsigned long site_len(const struct sg_obj *o, const struct sg_site *s)
{
	if (s->hi - o->lo > 0xffffffffUL || s->addr - s->lo > 255 ||
	    s->hi - s->lo > SG_SITE_MAX_REGION)
		return 0;
	return PLAN_SITE_LEN(s->hi - s->lo);
}

/* o's sites as a plan, or 0 if one cannot hold them. */
static unsigned long plan_len(const struct sg_obj *o)
{
	unsigned long len = sizeof(struct plan_ent);
	int i;

	for (i = 0; i < o->nsites; i++) {
		unsigned long n = site_len(o, &o->sites[i]);

		if (!n)
			return 0;
		len += n;
	}
	return len;
}

static void put_site(const struct sg_obj *o, const struct sg_site *s,
		     struct plan_site *ps)
{
	ps->addr = s->addr - o->lo;
	ps->pad = s->pad ? s->pad - o->lo : 0;
	ps->nr = s->nr;
	ps->before = s->addr - s->lo;
	ps->len = s->hi - s->lo;
	ps->kind = s->kind;
	ps->insn_len = s->insn_len;
	ps->interior = s->interior;
	ps->why = s->why;
	ps->planned = s->planned;
	ps->hoist = s->hoist;
	ps->relay_ok = s->relay_ok;
	ps->kreg = s->kreg;
	ps->tail = s->tail;
	ps->zwhy = s->zwhy;
	memcpy(ps->orig, s->orig, ps->len);
}

/* The region's lock, or 0 (a process killed while it held the lock:
 * share nothing more). */
static int take(struct plans *p)
{
	int tries = 0;

	while (__atomic_exchange_n(&p->lock, 1, __ATOMIC_ACQUIRE))
		if (tries++ == 1000)
			return 0;
		else
			sg_sc0(SG_NR_sched_yield);
	return 1;
}

/* An entry of len bytes at the region's end (under the lock), or 0. */
static struct plan_ent *append(struct plans *p, const struct sg_obj *o,
			       unsigned long len, int single)
{
	struct plan_ent *ent = (struct plan_ent *)(p->ents + p->used);

	if (sizeof(*p) + p->used + len > PLANS_SIZE)
		return 0;
	memset(ent, 0, sizeof(*ent));
	ent->len = len;
	make_key(o, &ent->key, single);
	return ent;
}

/* Publish the entry append() made. */
static void publish(struct plans *p, const struct plan_ent *ent)
{
	p->used += (ent->len + 7) & ~7UL;
	__atomic_add_fetch(&p->count, 1, __ATOMIC_RELEASE);
}

void sg_plans_add(const struct sg_obj *o)
{
	struct plans *p = o->fd < 0 ? 0 : region_for(o);
	unsigned long len = plan_len(o), at = 0;
	struct plan_ent *ent;
	int i;

	if (!p || !len || !take(p))
		return;
	ent = append(p, o, len, 0);
	if (ent) {
		ent->nsites = o->nsites;
		ent->n_data = o->n_data;
		ent->n_unverified = o->n_unverified;
		for (i = 0; i < o->nsites; i++) {
			put_site(o, &o->sites[i],
				 (struct plan_site *)(ent->sites + at));
			at += PLAN_SITE_LEN(o->sites[i].hi - o->sites[i].lo);
		}
		publish(p, ent);
	}
	__atomic_store_n(&p->lock, 0, __ATOMIC_RELEASE);
}

/* Is s already an entry of its own? (under the lock) */
static int have_site(const struct plans *p, const struct plan_key *k,
		     unsigned int addr)
{
	const struct plan_ent *ent;
	unsigned long off = 0;
	unsigned int e;

	for (e = 0; e < p->count && (ent = next_ent(p, &off)); e++)
		if (ent->nsites == 1 &&
		    ((const struct plan_site *)ent->sites)->addr == addr &&
		    !memcmp(&ent->key, k, sizeof(*k)))
			return 1;
	return 0;
}

void sg_plans_add_site(const struct sg_obj *o, const struct sg_site *s)
{
	struct plans *p = region_for(o);
	unsigned long len = site_len(o, s);
	struct plan_ent *ent;

	if (!p || !len || !take(p))
		return;
	ent = append(p, o, sizeof(*ent) + len, 1);
	if (ent && !have_site(p, &ent->key, s->addr - o->lo)) {
		ent->nsites = 1;
		put_site(o, s, (struct plan_site *)ent->sites);
		publish(p, ent);
	}
	__atomic_store_n(&p->lock, 0, __ATOMIC_RELEASE);
}

unsigned long *sg_plans_waited(const struct sg_obj *o)
{
	struct plans *p = region_for(o);
	struct plan_ent *ent;
	struct plan_key k;
	unsigned long off = 0;
	unsigned int e;

	if (!p || !take(p))
		return 0;
	make_key(o, &k, 2);
	for (e = 0; e < p->count; e++) {
		ent = (struct plan_ent *)next_ent(p, &off);
		if (!ent)
			break;
		if (!ent->nsites && !memcmp(&ent->key, &k, sizeof(k)))
			goto out;
	}
	ent = e == p->count ? append(p, o, sizeof(*ent), 2) : 0;
	if (ent)
		publish(p, ent);
out:
	__atomic_store_n(&p->lock, 0, __ATOMIC_RELEASE);
	return ent ? &ent->waited : 0;
}

int sg_plans_near_find(const struct sg_obj *o, unsigned long *near, long *n,
		       long max)
{
	struct plans *p = region_for(o);
	const struct plan_ent *ent;
	struct plan_key k;
	unsigned long off = 0, i;
	unsigned int e, c;

	if (!p)
		return -1;
	make_key(o, &k, 3);
	c = __atomic_load_n(&p->count, __ATOMIC_ACQUIRE);
	for (e = 0; e < c && (ent = next_ent(p, &off)); e++) {
		const unsigned int *t = (const void *)ent->sites;

		if (ent->nsites || memcmp(&ent->key, &k, sizeof(k)))
			continue;
		if (ent->waited == ~0UL) {
			*n = max + 1;
			return 0;
		}
		if (ent->waited > (unsigned long)max ||
		    ent->waited > (ent->len - sizeof(*ent)) / sizeof(*t))
			return -1;
		for (i = 0; i < ent->waited; i++) {
			if (t[i] >= o->hi - o->lo)
				return -1;
			near[i] = o->lo + t[i];
		}
		*n = ent->waited;
		return 0;
	}
	return -1;
}

void sg_plans_near_add(const struct sg_obj *o, const unsigned long *near,
		       long n, long max)
{
	struct plans *p = region_for(o);
	unsigned long len, i, k = 0;
	struct plan_ent *ent;
	unsigned int *t;

	if (!p || n < 0 || o->hi - o->lo > 0xffffffffUL)
		return;
	len = sizeof(*ent) + (n > max ? 0 : n) * sizeof(*t);
	if (!take(p))
		return;
	ent = append(p, o, len, 3);
	if (ent) {
		t = (unsigned int *)ent->sites;
		/* (only targets inside the object can be inside a window) */
		for (i = 0; n <= max && i < (unsigned long)n; i++)
			if (near[i] >= o->lo && near[i] < o->hi)
				t[k++] = near[i] - o->lo;
		ent->waited = n > max ? ~0UL : k;
		publish(p, ent);
	}
	__atomic_store_n(&p->lock, 0, __ATOMIC_RELEASE);
}
