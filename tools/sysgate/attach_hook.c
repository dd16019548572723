/* SPDX-License-Identifier: MIT */
/*
 * sysgate -p with --hook: linking a hook library into a running process
 * without the process's dynamic loader (its dlopen takes locks that a
 * stopped thread may hold, and a static program has none).  The CLI maps
 * the library like the runtime image (attach.c) and binds its imports
 * here: sysgate_* to the image's functions, everything else to the
 * libraries the process has loaded, found by their file in
 * /proc/PID/maps and read from disk.  What needs code run in the process
 * (GNU indirect functions, constructors, the hook's init) is listed in
 * struct sg_attach_hook for the runtime to do (core/attach.c).
 *
 * Refused, in one line: a library the hook needs that the process has
 * not loaded, a symbol none of them defines, thread-local storage (the
 * process's threads have no block for it), text relocations.
 */
#include <elf.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "attach.h"
#include "attach_elf.h"
#include "attach_hook.h"

#define MAX_LIBS 512

struct lib {
	char path[4096];
	unsigned long lo;	/* its mapping at file offset 0 */
	int state;		/* 0 unread, 1 symbols loaded, -1 unusable */
	unsigned long bias;
	struct sg_elf elf;
};

struct sg_hook_link {
	struct sg_elf_resolver r;
	pid_t pid;
	struct sg_elf hook;
	const struct sg_elf *image;
	unsigned long image_base;
	struct sg_attach_hook *out;
	char args[1024];
	int nlibs;
	struct lib libs[MAX_LIBS];
};

static const char *base_name(const char *p)
{
	const char *s = strrchr(p, '/');

	return s ? s + 1 : p;
}

/* The files the process has mapped, the program first. */
static void list_libs(struct sg_hook_link *l)
{
	char path[64], exe[4096], line[4352];
	ssize_t n;
	FILE *f;
	int i;

	snprintf(path, sizeof(path), "/proc/%d/exe", l->pid);
	n = readlink(path, exe, sizeof(exe) - 1);
	exe[n > 0 ? n : 0] = 0;
	snprintf(path, sizeof(path), "/proc/%d/maps", l->pid);
	f = fopen(path, "re");
	while (f && fgets(line, sizeof(line), f) && l->nlibs < MAX_LIBS) {
		unsigned long lo, off;
		int at = 0;
		char *file;

		if (sscanf(line, "%lx-%*x %*s %lx %*s %*s %n", &lo, &off,
			   &at) < 2 || !at || line[at] != '/' || off)
			continue;
		file = line + at;
		file[strcspn(file, "\n")] = 0;
		if (strstr(file, " (deleted)") || strstr(file, "/sysgate-"))
			continue;
		for (i = 0; i < l->nlibs; i++)
			if (!strcmp(l->libs[i].path, file))
				break;
		if (i < l->nlibs)
			continue;
		i = l->nlibs++;
		if (!strcmp(file, exe) && i) {
			l->libs[i] = l->libs[0];
			i = 0;
		}
		memset(&l->libs[i], 0, sizeof(l->libs[i]));
		snprintf(l->libs[i].path, sizeof(l->libs[i].path), "%s", file);
		l->libs[i].lo = lo;
	}
	if (f)
		fclose(f);
}

static int open_lib(struct lib *b)
{
	char why[64];
	unsigned long low = ~0UL;
	int i;

	if (b->state)
		return b->state;
	b->state = -1;
	/* (the program itself may be ET_EXEC: its bias is then 0) */
	if (sg_elf_open(&b->elf, b->path, 0, 1, why, sizeof(why)) < 0)
		return -1;
	for (i = 0; i < b->elf.eh.e_phnum; i++)
		if (b->elf.ph[i].p_type == PT_LOAD && b->elf.ph[i].p_vaddr < low)
			low = b->elf.ph[i].p_vaddr;
	b->bias = b->lo - (low & ~4095UL);
	if (sg_elf_symbols(&b->elf, 1) < 0) {
		sg_elf_close(&b->elf);
		return -1;
	}
	b->state = 1;
	return 1;
}

static int add_ifunc(struct sg_hook_link *l, unsigned long slot,
		     unsigned long resolver, long addend)
{
	struct sg_attach_hook *o = l->out;

	if (o->nifunc == SG_ATTACH_IFUNC_MAX) {
		snprintf(l->r.why, l->r.whylen, "%s: too many indirect "
			 "functions", l->hook.path);
		return -1;
	}
	o->ifunc[o->nifunc].slot = slot;
	o->ifunc[o->nifunc].resolver = resolver;
	o->ifunc[o->nifunc].addend = addend;
	o->nifunc++;
	return 0;
}

/* value, or an indirect function to call in the process (then 0). */
static int bind(struct sg_hook_link *l, const Elf64_Sym *s,
		unsigned long addr, unsigned long slot, long addend,
		unsigned long *value)
{
	*value = 0;
	if (ELF64_ST_TYPE(s->st_info) == STT_GNU_IFUNC)
		return add_ifunc(l, slot, addr, addend);
	*value = addr;
	return 0;
}

static int resolve(struct sg_elf_resolver *r, const struct sg_elf *f,
		   unsigned long base, unsigned long isym, unsigned long slot,
		   long addend, unsigned long *value)
{
	struct sg_hook_link *l = (struct sg_hook_link *)r;
	const Elf64_Sym *s, *d;
	const char *name;
	int i;

	if (isym >= f->nsym || f->sym[isym].st_name >= f->strsz) {
		snprintf(r->why, r->whylen, "%s: bad symbol", f->path);
		return -1;
	}
	s = &f->sym[isym];
	name = f->str + s->st_name;
	if (s->st_shndx != SHN_UNDEF)
		return bind(l, s, base + s->st_value, slot, addend, value);
	if (!strncmp(name, "sysgate_", 8)) {
		d = sg_elf_lookup(l->image, name);
		if (!d) {
			snprintf(r->why, r->whylen, "%s needs %s, which this "
				 "sysgate does not have", f->path, name);
			return -1;
		}
		*value = l->image_base + d->st_value;
		return 0;
	}
	for (i = 0; i < l->nlibs; i++)
		if (open_lib(&l->libs[i]) > 0 &&
		    (d = sg_elf_lookup(&l->libs[i].elf, name)))
			return bind(l, d, l->libs[i].bias + d->st_value, slot,
				    addend, value);
	if (ELF64_ST_BIND(s->st_info) == STB_WEAK) {
		*value = 0;
		return 0;
	}
	snprintf(r->why, r->whylen, "%s needs %s, which process %d has not "
		 "loaded", f->path, name, l->pid);
	return -1;
}

/* Every DT_NEEDED library (but sysgate's own) must be there already. */
static int check_needed(struct sg_hook_link *l)
{
	char name[256];
	int i, k;

	for (i = 0; i < l->hook.ndyn; i++) {
		if (l->hook.dyn[i].d_tag != DT_NEEDED)
			continue;
		if (sg_elf_dynstr(&l->hook, l->hook.dyn[i].d_un.d_val, name,
				  sizeof(name)) < 0) {
			snprintf(l->r.why, l->r.whylen, "%s: bad DT_NEEDED",
				 l->hook.path);
			return -1;
		}
		if (!strncmp(name, "libsysgate.so", 13))
			continue;
		for (k = 0; k < l->nlibs; k++)
			if (!strcmp(base_name(l->libs[k].path), name))
				break;
		if (k == l->nlibs) {
			snprintf(l->r.why, l->r.whylen, "%s needs %s, which "
				 "process %d has not loaded", l->hook.path,
				 name, l->pid);
			return -1;
		}
	}
	return 0;
}

struct sg_hook_link *sg_hook_link_new(pid_t pid, const char *spec,
				      const struct sg_elf *image,
				      unsigned long image_base,
				      struct sg_attach_hook *out, char *why,
				      size_t whylen)
{
	struct sg_hook_link *l = calloc(1, sizeof(*l));
	char path[4096], real[PATH_MAX];
	const char *colon = strchr(spec, ':');
	int i;

	if (!l) {
		snprintf(why, whylen, "out of memory");
		return 0;
	}
	snprintf(path, sizeof(path), "%.*s",
		 (int)(colon ? colon - spec : (long)strlen(spec)), spec);
	/* (opened by the process, from its own working directory) */
	if (!realpath(path, real)) {
		snprintf(why, whylen, "%s: %s", path, strerror(errno));
		free(l);
		return 0;
	}
	l->r.resolve = resolve;
	l->r.why = why;
	l->r.whylen = whylen;
	l->pid = pid;
	l->image = image;
	l->image_base = image_base;
	l->out = out;
	memset(out, 0, sizeof(*out));
	snprintf(out->name, sizeof(out->name), "%.*s",
		 (int)sizeof(out->name) - 1, path);
	snprintf(path, sizeof(path), "%s", real);
	snprintf(out->args, sizeof(out->args), "%s", colon ? colon + 1 : "");
	if (sg_elf_open(&l->hook, path, image->eh.e_machine, 0, why,
			whylen) < 0) {
		free(l);
		return 0;
	}
	for (i = 0; i < l->hook.eh.e_phnum; i++)
		if (l->hook.ph[i].p_type == PT_TLS) {
			snprintf(why, whylen, "%s has thread-local variables, "
				 "which an attached process's threads have no "
				 "room for", path);
			goto fail;
		}
	if (sg_elf_symbols(&l->hook, 1) < 0) {
		snprintf(why, whylen, "%s: no dynamic symbol table", path);
		goto fail;
	}
	if (!sg_elf_lookup(&l->hook, "sysgate_hook_v1")) {
		snprintf(why, whylen, "hook %s does not export sysgate_hook_v1 "
			 "(SYSGATE_HOOK_DEFINE)", path);
		goto fail;
	}
	list_libs(l);
	if (check_needed(l) < 0)
		goto fail;
	return l;
fail:
	sg_hook_link_free(l);
	return 0;
}

struct sg_elf *sg_hook_link_elf(struct sg_hook_link *l)
{
	return &l->hook;
}

struct sg_elf_resolver *sg_hook_link_resolver(struct sg_hook_link *l)
{
	return &l->r;
}

void sg_hook_link_done(struct sg_hook_link *l, unsigned long base)
{
	struct sg_attach_hook *o = l->out;
	const struct sg_elf *h = &l->hook;
	unsigned long v;

	o->table = base + sg_elf_lookup(h, "sysgate_hook_v1")->st_value;
	v = sg_elf_dyn(h, DT_INIT, 0);
	o->init = v ? base + v : 0;
	v = sg_elf_dyn(h, DT_FINI, 0);
	o->fini = v ? base + v : 0;
	o->init_array = base + sg_elf_dyn(h, DT_INIT_ARRAY, 0);
	o->init_count = sg_elf_dyn(h, DT_INIT_ARRAYSZ, 0) / 8;
	o->fini_array = base + sg_elf_dyn(h, DT_FINI_ARRAY, 0);
	o->fini_count = sg_elf_dyn(h, DT_FINI_ARRAYSZ, 0) / 8;
}

void sg_hook_link_free(struct sg_hook_link *l)
{
	int i;

	if (!l)
		return;
	sg_elf_close(&l->hook);
	for (i = 0; i < l->nlibs; i++)
		if (l->libs[i].state > 0)
			sg_elf_close(&l->libs[i].elf);
	free(l);
}
