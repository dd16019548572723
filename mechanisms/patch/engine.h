/* SPDX-License-Identifier: MIT */
/*
 * The rewriting engine's parts, for one another only (the mechanisms
 * that start the engine see patch.h):
 *   patch.c   objects, planning, first traps, the mechanism's operations;
 *   sweep.c   linear sweeps of text, branches from outside into sites;
 *   region.c  stub regions within branch reach of the code;
 *   write.c   stubs and sites written, the trap table's SIGTRAP;
 *   stats.c   the --stats text.
 */
#ifndef SG_PATCH_ENGINE_H
#define SG_PATCH_ENGINE_H

#include "patch.h"

/* Anything but a site left as it is gets a stub. */
static inline int sg_site_has_stub(const struct sg_site *s)
{
	return s->kind != SG_PATCH_LEFT && s->kind != SG_PATCH_NONE;
}

/* Bitmaps of bytes: bit i of m. */
static inline int sg_bitmap_get(const unsigned char *m, unsigned long i)
{
	return (m[i >> 3] >> (i & 7)) & 1;
}

static inline void sg_bitmap_set(unsigned char *m, unsigned long i)
{
	m[i >> 3] |= 1 << (i & 7);
}

/* Branch-target filters (struct sg_target_filter) mark 64-byte blocks. */
#define SG_BLOCK_SHIFT 6

/* patch.c: call fn on all of o's text, read in place or in chunks that
 * overlap by `overlap` bytes; fn gets the bytes, their count and their
 * address. */
void sg_patch_each_text(struct sg_obj *o, unsigned long overlap,
			void (*fn)(struct sg_obj *o, const unsigned char *p,
				   unsigned long n, unsigned long addr,
				   void *arg),
			void *arg) SG_HIDDEN;

/* sweep.c: every direct branch the object's bytes could encode, checked
 * against the interiors of its planned sites; a hit sends that site to
 * the arch's fallback. */
void sg_patch_check_branches(struct sg_obj *o) SG_HIDDEN;

/* region.c: stub regions, each starting with the arch's entry, after
 * and relay words (64 bytes), stubs after them. */
struct sg_region {
	unsigned long base, size, used;
};
/* How far a site's jump reaches, in MiB: the ISA's if negative, or less
 * (--stub-reach, for testing what happens when no memory is free in
 * reach). */
void sg_region_reach(long mib) SG_HIDDEN;
/* a and b are within reach, with margin to spare. */
int sg_region_in_reach(unsigned long a, unsigned long b,
		       unsigned long margin) SG_HIDDEN;
/* A region in reach of all of o with need bytes free, or 0. */
struct sg_region *sg_region_for(const struct sg_obj *o,
				unsigned long need) SG_HIDDEN;
/* A region of need bytes anywhere (for stubs only traps lead to), or 0. */
struct sg_region *sg_region_anywhere(unsigned long need) SG_HIDDEN;
/* Whether pc lies in a stub region (a stub's code). */
int sg_region_has(unsigned long pc) SG_HIDDEN;

/* write.c */
/* Rewrite only the system call instruction itself, as `kind`. */
void sg_site_in_place(struct sg_site *s, int kind) SG_HIDDEN;
/* The index of o's text mapping holding a, or -1. */
int sg_obj_text_of(const struct sg_obj *o, unsigned long a) SG_HIDDEN;
/* Write code through /proc/self/mem (works on read+exec pages); one
 * descriptor serves a run of writes until sg_patch_poke_done. */
int sg_patch_poke(unsigned long addr, const void *buf,
		  unsigned long len) SG_HIDDEN;
void sg_patch_poke_done(void) SG_HIDDEN;
/* Every thread of the process made to drop the instructions it may have
 * fetched before code changed; -1 where the kernel cannot. */
int sg_patch_sync(void) SG_HIDDEN;
/* Emit the stubs of o's sites into a region in reach (a site that
 * cannot have one traps, or stays unpatched); the bytes used. */
unsigned long sg_patch_place_stubs(struct sg_obj *o) SG_HIDDEN;
/* Write o's sites whose bytes are still what was planned on. */
void sg_patch_write_sites(struct sg_obj *o) SG_HIDDEN;
/* SIGTRAP, once the first breakpoint is written (now: before any is,
 * so that the masks set from then on leave it deliverable, and this
 * thread's too). */
void sg_patch_claim_traps(int now) SG_HIDDEN;
/* Before s is written: the breakpoint of a CAUGHT window's syscall
 * (patch.h), which resumes at the stub's call.  0, or -1 (no room: s is
 * not to be written). */
int sg_patch_catch_tail(const struct sg_site *s) SG_HIDDEN;

/* What planning and patching did, for --stats. */
struct sg_patch_total {
	int objects, candidates, sites;
	int kind[SG_PATCH_KINDS];
	int why[SG_WHY_COUNT];
	int data, unverified;
	int anon_exec;		/* executable memory with no ELF object */
	int anon_clean;		/* ... holding no system call instruction */
	int lazy;		/* objects left to traps (leave_to_traps) */
	unsigned long lazy_bytes;	/* their text */
	unsigned long read_bytes;	/* text read to find sites */
	int shared;		/* objects planned by another process */
	int from_tree;		/* sites of objects left to traps patched
				   as another process planned them */
	int caught;		/* of the sites planned at a third trap,
				   jump windows whose syscall keeps a
				   registered breakpoint (patch.h) */
	int mapped_later;	/* executable mappings after start-up */
	int maps_reads;		/* /proc/self/maps reads to look at them */
	int zwhy[SG_ZWHY_COUNT];	/* -m zeropage: why sites kept stubs */
	unsigned long stub_bytes;
	unsigned long long ns;
	unsigned long long cpu_ns;	/* planning and patching, this thread's
					   CPU time: what a loaded machine
					   does not inflate */
};

/* stats.c: what --stats reports, from patch.c's state. */
struct sg_patch_report {
	const char *mode;	/* the mechanism's name */
	int zero;		/* -m zeropage */
	int debug;		/* -d: each site left unpatched or trapping */
	const struct sg_obj *objs;
	int nobjs;
	const struct sg_patch_total *total;
	unsigned long long first_trap_ns;
};
/* One object's line, and with -d its unpatched sites. */
void sg_patch_object_line(char *buf, size_t *n, const struct sg_obj *o,
			  const struct sg_patch_report *r) SG_HIDDEN;
/* The lines after start-up, and those at exit. */
void sg_patch_report_start(const struct sg_patch_report *r) SG_HIDDEN;
void sg_patch_report_exit(const struct sg_patch_report *r) SG_HIDDEN;

#endif
