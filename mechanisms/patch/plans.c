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

static void make_key(const struct sg_obj *o, struct plan_key *k)
{
	int i;

	memset(k, 0, sizeof(*k));
	k->dev = o->dev_ino[0];
	k->ino = o->dev_ino[1];
	k->size = o->file_size;
	k->ntext = o->ntext;
	k->zwhy = o->want_zwhy;
	k->all = sg_patch_wants_all();
	sg_patch_selection(k->sel);
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

int sg_plans_find(struct sg_obj *o,
		  struct sg_site *(*alloc)(struct sg_obj *o, unsigned long n))
{
	struct plans *p = o->is_vdso || o->fd < 0 ? 0 : region();
	struct plan_key k;
	unsigned long off = 0, i, at;
	unsigned int n, e;

	if (!p)
		return -1;
	make_key(o, &k);
	n = __atomic_load_n(&p->count, __ATOMIC_ACQUIRE);
	for (e = 0; e < n; e++) {
		const struct plan_ent *ent = (const void *)(p->ents + off);

		if (ent->len < sizeof(*ent) || off + ent->len > PLANS_SIZE)
			return -1;
		off += (ent->len + 7) & ~7UL;
		if (memcmp(&ent->key, &k, sizeof(k)) ||
		    ent->nsites > (ent->len - sizeof(*ent)) /
					  PLAN_SITE_LEN(0) ||
		    !alloc(o, ent->nsites))
			continue;
		for (i = 0, at = 0; i < ent->nsites; i++) {
			const struct plan_site *ps =
				(const void *)(ent->sites + at);

			if (at + PLAN_SITE_LEN(0) > ent->len - sizeof(*ent) ||
			    at + PLAN_SITE_LEN(ps->len) >
				    ent->len - sizeof(*ent) ||
			    !site_ok(o, ps, &o->sites[i]))
				return -1;
			at += PLAN_SITE_LEN(ps->len);
		}
		o->nsites = ent->nsites;
		o->n_data = ent->n_data;
		o->n_unverified = ent->n_unverified;
		return 0;
	}
	return -1;
}

/* o's sites as a plan, or 0 if one cannot hold them. */
static unsigned long plan_len(const struct sg_obj *o)
{
	unsigned long len = sizeof(struct plan_ent);
	int i;

	for (i = 0; i < o->nsites; i++) {
		const struct sg_site *s = &o->sites[i];

		if (s->hi - o->lo > 0xffffffffUL || s->addr - s->lo > 255 ||
		    s->hi - s->lo > SG_SITE_MAX_REGION)
			return 0;
		len += PLAN_SITE_LEN(s->hi - s->lo);
	}
	return len;
}

void sg_plans_add(const struct sg_obj *o)
{
	struct plans *p = o->is_vdso || o->fd < 0 ? 0 : region();
	unsigned long len = plan_len(o), at = 0;
	struct plan_ent *ent;
	int i, tries = 0;

	if (!p || !len)
		return;
	/* (a process killed while it held the lock: share nothing more) */
	while (__atomic_exchange_n(&p->lock, 1, __ATOMIC_ACQUIRE))
		if (tries++ == 1000)
			return;
		else
			sg_sc0(SG_NR_sched_yield);
	if (sizeof(*p) + p->used + len > PLANS_SIZE)
		goto out;
	ent = (struct plan_ent *)(p->ents + p->used);
	ent->len = len;
	make_key(o, &ent->key);
	ent->nsites = o->nsites;
	ent->n_data = o->n_data;
	ent->n_unverified = o->n_unverified;
	for (i = 0; i < o->nsites; i++) {
		const struct sg_site *s = &o->sites[i];
		struct plan_site *ps = (struct plan_site *)(ent->sites + at);

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
		at += PLAN_SITE_LEN(ps->len);
	}
	p->used += (len + 7) & ~7UL;
	__atomic_add_fetch(&p->count, 1, __ATOMIC_RELEASE);
out:
	__atomic_store_n(&p->lock, 0, __ATOMIC_RELEASE);
}
