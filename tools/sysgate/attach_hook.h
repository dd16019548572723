/* SPDX-License-Identifier: MIT */
/* Linking a --hook library into an attached process (attach_hook.c). */
#ifndef SG_ATTACH_HOOK_H
#define SG_ATTACH_HOOK_H

#include <sys/types.h>

struct sg_elf;
struct sg_elf_resolver;
struct sg_attach_hook;
struct sg_hook_link;

/* Open the library of spec (PATH[:ARGS]) for process pid, whose runtime
 * image is mapped at image_base: NULL with why if it cannot be linked
 * there.  out is filled as linking goes. */
struct sg_hook_link *sg_hook_link_new(pid_t pid, const char *spec,
				      const struct sg_elf *image,
				      unsigned long image_base,
				      struct sg_attach_hook *out, char *why,
				      size_t whylen);
/* The library, to map, and the resolver its relocations need. */
struct sg_elf *sg_hook_link_elf(struct sg_hook_link *l);
struct sg_elf_resolver *sg_hook_link_resolver(struct sg_hook_link *l);
/* Mapped at base: the addresses the runtime needs, into out. */
void sg_hook_link_done(struct sg_hook_link *l, unsigned long base);
void sg_hook_link_free(struct sg_hook_link *l);

#endif
