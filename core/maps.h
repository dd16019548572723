/* SPDX-License-Identifier: MIT */
/*
 * /proc/self/maps, read with raw system calls: what is mapped where
 * (sysgate_locate, the patch engine's objects, SUD's watch of new code).
 */
#ifndef SG_MAPS_H
#define SG_MAPS_H

#include "sg.h"

/* Protection bits, as maps and mmap/mprotect spell them. */
#define PROT_R 1
#define PROT_W 2
#define PROT_X 4

/* One line of maps. */
struct sg_mapping {
	unsigned long lo, hi, off, dev_ino[2];
	int prot;		/* PROT_R/W/X */
	int shared;		/* MAP_SHARED: another view may write it */
	const char *path;	/* the rest of the line ("" if anonymous) */
};

/* The whole of /proc/self/maps, NUL-terminated, in a mapping of *size
 * bytes (sg_munmap it); 0 if it cannot be read. */
char *sg_maps_read(unsigned long *size) SG_HIDDEN;
/* The same into buf: its length (cap - 1: maybe cut short), or -errno. */
long sg_maps_read_into(char *buf, unsigned long cap) SG_HIDDEN;
/* One line of a maps file, NUL-terminated, into m (m->path into it): 0,
 * or -1 where it is not one. */
int sg_maps_parse_line(const char *line, struct sg_mapping *m) SG_HIDDEN;
/* Call fn on each line of maps (from sg_maps_read), its path
 * NUL-terminated meanwhile, until fn returns non-zero: that value, or 0.
 * The line fn stopped at stays terminated (its path may still be used);
 * the others are left as they were. */
int sg_maps_each(char *maps, int (*fn)(const struct sg_mapping *m, void *arg),
		 void *arg) SG_HIDDEN;

/* The mapping that holds addr, or the first above it, asked of the
 * kernel (PROCMAP_QUERY on a descriptor of /proc/self/maps, Linux 6.11):
 * no line of text for each of the others.  m->path points into name
 * (cap bytes).  0, or -errno (-ENOTTY: no such query; -ENOENT: none). */
long sg_maps_query(long fd, unsigned long addr, struct sg_mapping *m,
		   char *name, unsigned int cap) SG_HIDDEN;
/* A descriptor of /proc/self/maps for it, or -errno. */
long sg_maps_open(void) SG_HIDDEN;
/* /proc/self/NAME, or /proc/thread-self/NAME once the main thread has
 * exited (maps.c) */
long sg_proc_self_open(const char *name, long flags) SG_HIDDEN;

/* What /proc/self/maps says of the mapping that holds an address. */
struct sg_mapping_info {
	unsigned long lo, hi;
	int prot;		/* PROT_R/W/X */
	int shared;		/* MAP_SHARED */
	int special;		/* [vdso], [stack]...: not ordinary memory */
	int anon;		/* no file, no name */
};
/* 0, or -1 if nothing is mapped at addr or maps cannot be read. */
int sg_maps_info(unsigned long addr, struct sg_mapping_info *info) SG_HIDDEN;

#endif
