/* SPDX-License-Identifier: MIT */
/*
 * The register frame entry.S builds when a patched aarch64 site enters
 * sysgate.  Every route in is a call from the site's stub, which the
 * site's `svc #0` became a plain `b` to (no register written):
 *
 *     stp x30, xzr, [sp, #-16]!; adrp x30, hdr; ldr x30, [x30, ..]; blr x30
 *     .8byte site, raw             the descriptor; x30 points at it
 *
 * so the program's x30 is at 0(sp+frame), its sp is 16 above that, and
 * the descriptor follows the call.  x[n] holds register xn but x[30],
 * which holds the descriptor pointer (the stub's link).  The kernel
 * changes only x0, so a hooked call must too: every other register and
 * the NZCV flags come back as they were.
 */
#ifndef SG_CONTEXT_H
#define SG_CONTEXT_H

#define SGF_X(n)	((n) * 8)
#define SGF_SP		248	/* the program's sp */
#define SGF_NZCV	256
#define SGF_INFO	264	/* RAW: info word */
#define SGF_CHILD_SP	272	/* RAW: new stack of a clone child, or 0 */
#define SGF_TARGET	280	/* RAW: where entry.S jumps */
#define SGF_SIZE	288
#define SG_PUSH		16	/* the stub's push: program x30, spare */
/* A RAW call leaves its info word this far below the stack pointer the
 * system call runs with, just below where the after-raw frame goes. */
#define SG_RAWINFO_OFF	(SG_PUSH + SGF_SIZE + 8)

#ifndef __ASSEMBLER__
struct sg_frame {
	unsigned long x[31];
	unsigned long sp;
	unsigned long nzcv;
	unsigned long info;
	unsigned long child_sp;
	unsigned long target;
};

/* What follows a stub's call: the site's descriptor. */
struct sg_site_desc {
	unsigned long site;	/* the svc (or the trapped site) */
	unsigned long raw;	/* the stub's raw-syscall entry */
};

_Static_assert(sizeof(struct sg_frame) == SGF_SIZE, "frame layout");

static inline long sg_frame_nr(const struct sg_frame *f) { return f->x[8]; }
static inline void sg_frame_set_nr(struct sg_frame *f, long nr) { f->x[8] = nr; }
static inline long sg_frame_result(const struct sg_frame *f) { return f->x[0]; }
static inline void sg_frame_set_result(struct sg_frame *f, long r) { f->x[0] = r; }
static inline long sg_frame_result2(const struct sg_frame *f) { return f->x[1]; }

static inline void sg_frame_args(const struct sg_frame *f, long a[6])
{
	int i;

	for (i = 0; i < 6; i++)
		a[i] = f->x[i];
}

static inline void sg_frame_set_args(struct sg_frame *f, const long a[6])
{
	int i;

	for (i = 0; i < 6; i++)
		f->x[i] = a[i];
}

static inline unsigned long sg_frame_app_sp(const struct sg_frame *f)
{
	return f->sp;
}

/* The descriptor after the stub's call; return past it. */
static inline const struct sg_site_desc *sg_frame_site(struct sg_frame *f)
{
	const struct sg_site_desc *d = (const struct sg_site_desc *)f->x[30];

	f->x[30] += sizeof(*d);
	return d;
}

static inline const void *sg_site_pc(const struct sg_site_desc *d)
{
	return (const void *)d->site;
}

static inline void sg_frame_set_raw(struct sg_frame *f, unsigned long target,
				    unsigned long info, unsigned long child_sp)
{
	f->target = target;
	f->info = info;
	f->child_sp = child_sp;
}
#endif
#endif
