/* SPDX-License-Identifier: MIT */
/*
 * The register frame entry.S builds when a patched rv64 site enters
 * sysgate.  Every route in is a call from the site's stub:
 *
 *     addi sp,sp,-16; sd ra,0(sp); <load entry>; jalr ra   (ra -> descriptor)
 *
 * so the program's ra is at 0(sp+frame), its sp is 16 above that, and the
 * descriptor follows the call.  x[n] holds register xn; x[0] holds the
 * target of a RAW call.  The kernel changes only a0, so a hooked call
 * must too: every other register comes back as it was.
 */
#ifndef SG_CONTEXT_H
#define SG_CONTEXT_H

#define SGF_X(n)	((n) * 8)
#define SGF_INFO	256	/* RAW: info word */
#define SGF_CHILD_SP	264	/* RAW: new stack of a clone child, or 0 */
#define SGF_SIZE	272
#define SG_PUSH		16	/* the stub's push: program ra, spare */
/* A RAW call leaves its info word this far below the stack pointer the
 * system call runs with, just below where the after-raw frame goes. */
#define SG_RAWINFO_OFF	(SG_PUSH + SGF_SIZE + 8)
/* Relay table: 2^bits slots of {link, stub} (patch-riscv64.c). */
#define SG_RV_RELAY_BITS 11

#ifndef __ASSEMBLER__
struct sg_frame {
	unsigned long x[32];
	unsigned long info;
	unsigned long child_sp;
};

/* What follows a stub's call: the site's descriptor. */
struct sg_site_desc {
	unsigned long site;	/* the ecall (or the patched site) */
	unsigned long raw;	/* the stub's raw-syscall entry */
};

_Static_assert(sizeof(struct sg_frame) == SGF_SIZE, "frame layout");

static inline long sg_frame_nr(const struct sg_frame *f) { return f->x[17]; }
static inline void sg_frame_set_nr(struct sg_frame *f, long nr) { f->x[17] = nr; }
static inline long sg_frame_result(const struct sg_frame *f) { return f->x[10]; }
static inline void sg_frame_set_result(struct sg_frame *f, long r) { f->x[10] = r; }
static inline long sg_frame_result2(const struct sg_frame *f) { return f->x[11]; }

static inline void sg_frame_args(const struct sg_frame *f, long a[6])
{
	int i;

	for (i = 0; i < 6; i++)
		a[i] = f->x[10 + i];
}

static inline void sg_frame_set_args(struct sg_frame *f, const long a[6])
{
	int i;

	for (i = 0; i < 6; i++)
		f->x[10 + i] = a[i];
}

static inline unsigned long sg_frame_app_sp(const struct sg_frame *f)
{
	return f->x[2];
}

/* The descriptor after the stub's call; return past it. */
static inline const struct sg_site_desc *sg_frame_site(struct sg_frame *f)
{
	const struct sg_site_desc *d = (const struct sg_site_desc *)f->x[1];

	f->x[1] += sizeof(*d);
	return d;
}

static inline const void *sg_site_pc(const struct sg_site_desc *d)
{
	return (const void *)d->site;
}

static inline void sg_frame_set_raw(struct sg_frame *f, unsigned long target,
				    unsigned long info, unsigned long child_sp)
{
	f->x[0] = target;
	f->info = info;
	f->child_sp = child_sp;
}
#endif
#endif
