/* SPDX-License-Identifier: MIT */
/*
 * Golden test of the rewriter: the arch planner and emitters
 * (mechanisms/patch/patch-<arch>.c) run as pure functions over the
 * hand-written cases of tests/rewrite/<arch>/cases.S, which are linked
 * into this program.  For every site in a case it prints the plan (kind,
 * reason, bytes replaced), the bytes written over the site and the stub,
 * each stub placed at a fixed distance from its site so that every
 * displacement is the same from run to run.  tests/rewrite/run.sh turns
 * the stubs into disassembly and compares with tests/rewrite/<arch>/
 * cases.out.  Nothing is written into the program's code.
 */
#include <fcntl.h>
#include <link.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "patch.h"
#include "options.h"

/* One entry per case, from the CASE macro of cases.S. */
struct rw_case {
	const char *name;
	unsigned long lo, hi;
};
extern const struct rw_case __start_rewrite_cases[], __stop_rewrite_cases[];

#define STUB_GAP (1UL << 20)	/* the stub of a site at A is at A + this */

static const char *const kinds[SG_PATCH_KINDS] = {
	"jump", "pad", "trap", "left", "none", "gateway", "middle", "small",
	"branch", "zero", "live",
};
static const char *const whys[SG_WHY_COUNT] = {
	"-", "branch-in", "no-room", "jump-table", "no-pad", "sysenter",
	"no-gateway", "no-region",
};

/* The executable's own object, as patch.c's collect_objects makes it,
 * with the cases' segment as its only text. */
static int self_object(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct sg_obj *o = arg;
	int i;

	(void)size;
	if (o->ntext)
		return 1;
	o->lo = ~0UL;
	for (i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		unsigned long lo = (info->dlpi_addr + ph->p_vaddr) & ~(PAGE - 1);
		unsigned long hi = info->dlpi_addr + ph->p_vaddr + ph->p_memsz;

		if (ph->p_type != PT_LOAD)
			continue;
		if (lo < o->lo)
			o->lo = lo;
		if (hi > o->hi)
			o->hi = hi;
		o->rd[o->nrd].lo = lo;
		o->rd[o->nrd++].hi = hi;
		/* Only the cases' own code is planned (and searched for
		 * branches into their sites): the rest of this program is
		 * not part of what the golden file pins down. */
		if ((ph->p_flags & PF_X) && o->ntext < SG_MAX_TEXT &&
		    __start_rewrite_cases[0].lo >= lo &&
		    __start_rewrite_cases[0].lo < hi) {
			o->text[o->ntext].lo = lo;
			o->text[o->ntext].hi = (hi + PAGE - 1) & ~(PAGE - 1);
			o->text[o->ntext].off = ph->p_offset & ~(PAGE - 1);
			o->text[o->ntext++].readable = 1;
		}
	}
	return 1;
}

static void hex(const char *what, const unsigned char *p, unsigned long n)
{
	unsigned long i;

	printf("  %s:", what);
	for (i = 0; i < n; i++)
		printf(" %02x", p[i]);
	printf("\n");
}

/* An offset from the case's start: regions may begin in the padding
 * before it. */
static const char *off(const struct rw_case *c, unsigned long a, char *buf)
{
	long d = (long)(a - c->lo);

	sprintf(buf, "%s%#lx", d < 0 ? "-" : "+", d < 0 ? -d : d);
	return buf;
}

static void show_site(const struct rw_case *c, const struct sg_site *s)
{
	char b1[24], b2[24], b3[24];
	unsigned char buf[4096];
	unsigned long stub = s->lo + STUB_GAP, n;
	struct sg_site t = *s;
	int k;

	printf("%s%s: %s why=%s nr=%d replaces %s..%s%s\n", c->name,
	       off(c, s->addr, b1), kinds[s->kind], whys[s->why], s->nr,
	       off(c, s->lo, b2), off(c, s->hi, b3),
	       s->interior ? " interior" : "");
	if (s->kind == SG_PATCH_LEFT || s->kind == SG_PATCH_NONE)
		return;
	t.stub = stub;
	if (s->kind == SG_PATCH_TRAP) {
		k = sg_patch_arch.trap_bytes(&t, buf);
		hex("site", buf, k);
	} else {
		sg_patch_arch.site_bytes(&t, buf);
		hex("site", buf, s->hi - s->lo);
	}
	if (s->kind == SG_PATCH_PAD) {
		k = sg_patch_arch.pad_bytes(&t, buf);
		hex("pad", buf, k);
	}
	n = sg_patch_arch.stub_size(&t);
	if (n > sizeof(buf))
		n = sizeof(buf);
	memset(buf, 0, n);
	sg_patch_arch.emit(&t, buf, stub, stub - 64, stub - 56);
	hex("stub", buf, n);
}

int main(void)
{
	static struct sg_obj o;
	static struct sg_options opts;
	const struct rw_case *c;
	struct stat st;
	int i;

	dl_iterate_phdr(self_object, &o);
	o.fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
	if (!o.ntext || o.fd < 0 || fstat(o.fd, &st) < 0 ||
	    sg_obj_parse(&o, o.lo) < 0) {
		fprintf(stderr, "rewrite: cannot read my own ELF object\n");
		return 1;
	}
	o.file_size = st.st_size;
	if (!o.ehf)
		sg_obj_index_eh_frame(&o);
	/* every site planned, whatever a hook would select */
	if (sg_options_parse_string(&opts, "--patch-all")) {
		fprintf(stderr, "rewrite: %s\n", opts.error);
		return 1;
	}
	sg_patch_plan(&o, &opts);
	sg_patch_arch.finish(&o);
	for (c = __start_rewrite_cases; c < __stop_rewrite_cases; c++)
		for (i = 0; i < o.nsites; i++)
			if (o.sites[i].addr >= c->lo && o.sites[i].addr < c->hi)
				show_site(c, &o.sites[i]);
	return 0;
}
