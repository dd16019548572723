/* SPDX-License-Identifier: MIT */
/*
 * The patch engine's --stats text: what planning found and chose, per
 * kind and reason, per object, and at exit what traps caught and what
 * was patched late.  Written into a 4096-byte buffer, then out at once.
 */
#include "engine.h"
#include "zeropage.h"

_Static_assert(SG_TRAPS_BEFORE_PLAN == 3, "the lines below say \"third\"");

static const char *const kind_names[SG_PATCH_KINDS] = {
	"jump", "padding-jump", "trap", "left (unselected)", "unpatched",
	"gateway", "middle", "small", "branch", "zero-page call",
	"live jump",
};

static const char *const zwhy_names[SG_ZWHY_COUNT] = {
	"not checked", "", "stack pointer copied or changed in the function",
	"red zone in use", "function not decodable",
	"no function bounds in unwind info",
};

static const char *const why_names[SG_WHY_COUNT] = {
	"", "branch into neighbours", "neighbours not relocatable",
	"indirect jumps in function", "no padding in reach",
	"32-bit ABI (sysenter, int $0x80)", "no gateway in jal reach",
	"no stub region in branch reach",
	"a thread was inside it when sysgate attached",
};

void sg_patch_put(char *buf, size_t *n, const char *s)
{
	*n += sg_strlcpy(buf + *n, s, 4096 - *n);
	if (*n > 4095)
		*n = 4095;
}

void sg_patch_put_num(char *buf, size_t *n, unsigned long v)
{
	char num[24];

	sg_patch_put(buf, n, sg_utoa(num + sizeof(num), v));
}

static void put_hex(char *buf, size_t *n, unsigned long v)
{
	char num[24];
	int i = sizeof(num) - 1;

	num[i] = 0;
	do {
		num[--i] = "0123456789abcdef"[v & 15];
		v >>= 4;
	} while (v);
	sg_patch_put(buf, n, "0x");
	sg_patch_put(buf, n, num + i);
}

/* " kind=count" for each kind counted. */
static void put_kinds(char *buf, size_t *n, const int count[SG_PATCH_KINDS])
{
	int k;

	for (k = 0; k < SG_PATCH_KINDS; k++) {
		if (!count[k])
			continue;
		sg_patch_put(buf, n, " ");
		sg_patch_put(buf, n, kind_names[k]);
		sg_patch_put(buf, n, "=");
		sg_patch_put_num(buf, n, count[k]);
	}
}

/* With -d: an object's sites left unpatched or trapping, and under
 * -m zeropage those that kept a stub, each with why. */
static void site_lines(char *buf, size_t *n, const struct sg_obj *o,
		       const struct sg_patch_report *r)
{
	int k;

	for (k = 0; r->debug && o->sites && k < o->nsites && *n < 3900; k++) {
		struct sg_site *s = &o->sites[k];
		/* -m zeropage: a site that kept its jump, and why */
		int kept = r->zero && sg_site_has_stub(s) &&
			   s->kind != SG_PATCH_ZERO && s->kind != SG_PATCH_TRAP;

		if (!kept && s->kind != SG_PATCH_NONE && s->kind != SG_PATCH_TRAP)
			continue;
		sg_patch_put(buf, n, "sysgate:     +");
		put_hex(buf, n, s->addr - o->bias);
		sg_patch_put(buf, n, kept ? " kept a stub: " :
			    s->kind == SG_PATCH_TRAP ? " trap: " : " unpatched: ");
		sg_patch_put(buf, n, kept ? zwhy_names[s->zwhy] : why_names[s->why]);
		sg_patch_put(buf, n, "\n");
	}
}

void sg_patch_object_line(char *buf, size_t *n, const struct sg_obj *o,
			  const struct sg_patch_report *r)
{
	unsigned long bytes = 0;
	int k;

	if (o->lazy) {
		for (k = 0; k < o->ntext; k++)
			bytes += o->text[k].hi - o->text[k].lo;
		sg_patch_put(buf, n, "sysgate:   ");
		sg_patch_put(buf, n, o->path);
		sg_patch_put(buf, n, ": not read, its sites patched at their "
				     "third trap (");
		sg_patch_put_num(buf, n, bytes >> 20);
		sg_patch_put(buf, n, " MiB of text)\n");
		return;
	}
	if (!o->nsites && !o->n_unverified)
		return;
	sg_patch_put(buf, n, "sysgate:   ");
	sg_patch_put(buf, n, o->path);
	sg_patch_put(buf, n, ":");
	put_kinds(buf, n, o->n_kind);
	if (o->n_unverified) {
		sg_patch_put(buf, n, " unverified=");
		sg_patch_put_num(buf, n, o->n_unverified);
	}
	sg_patch_put(buf, n, "\n");
	site_lines(buf, n, o, r);
}

/* "<prefix><what>: <count>" if count is not 0. */
static void put_count(char *buf, size_t *n, const char *prefix,
		      const char *what, int count)
{
	if (!count)
		return;
	sg_patch_put(buf, n, prefix);
	sg_patch_put(buf, n, what);
	sg_patch_put(buf, n, ": ");
	sg_patch_put_num(buf, n, count);
	sg_patch_put(buf, n, "\n");
}

/* "sysgate: mechanism M: N syscall sites in ..." */
static void headline(char *buf, size_t *n, const struct sg_patch_report *r)
{
	const struct sg_patch_total *t = r->total;

	sg_patch_put(buf, n, "sysgate: mechanism ");
	sg_patch_put(buf, n, r->mode);
	sg_patch_put(buf, n, ": ");
	sg_patch_put_num(buf, n, t->sites);
	sg_patch_put(buf, n, " syscall sites in ");
	sg_patch_put_num(buf, n, t->objects);
	sg_patch_put(buf, n, " objects (");
	sg_patch_put_num(buf, n, t->lazy);
	sg_patch_put(buf, n, " left to traps, ");
	sg_patch_put_num(buf, n, t->shared);
	sg_patch_put(buf, n, " planned by another process), ");
	sg_patch_put_num(buf, n, t->read_bytes >> 10);
	sg_patch_put(buf, n, " KiB of text read, ");
	sg_patch_put_num(buf, n, t->ns / 1000);
	sg_patch_put(buf, n, " us (");
	sg_patch_put_num(buf, n, t->cpu_ns / 1000);
	sg_patch_put(buf, n, " of CPU), stubs ");
	sg_patch_put_num(buf, n, t->stub_bytes);
	sg_patch_put(buf, n, " bytes\n");
}

/* Sites by kind and by reason; under -m zeropage why sites kept their
 * stubs, and what page 0 does for reads. */
static void counts(char *buf, size_t *n, const struct sg_patch_report *r)
{
	const struct sg_patch_total *t = r->total;
	int k;

	for (k = 0; k < SG_PATCH_KINDS; k++)
		put_count(buf, n, "sysgate:   ", kind_names[k], t->kind[k]);
	for (k = 1; k < SG_WHY_COUNT; k++)
		put_count(buf, n, "sysgate:   reason: ", why_names[k], t->why[k]);
	for (k = 0; r->zero && k < SG_ZWHY_COUNT; k++)
		if (k != SG_ZWHY_OK)
			put_count(buf, n, "sysgate:   kept a stub, not zero-page: ",
				  zwhy_names[k], t->zwhy[k]);
	if (r->zero && r->objs && sg_zeropage_readable())
		sg_patch_put(buf, n, "sysgate:   page 0 is READABLE "
			     "(--zeropage-readable-null): reads through NULL "
			     "return sled bytes instead of faulting\n");
	else if (r->zero && r->objs)
		sg_patch_put(buf, n, "sysgate:   page 0 is execute-only: reads through "
			     "NULL fault\n");
	sg_patch_put(buf, n, "sysgate:   byte pairs rejected as data: ");
	sg_patch_put_num(buf, n, t->data);
	sg_patch_put(buf, n, ", without unwind info (left): ");
	sg_patch_put_num(buf, n, t->unverified);
	sg_patch_put(buf, n, "\n");
}

/* What catches the calls no site enters sysgate for. */
static void catching(char *buf, size_t *n, const struct sg_patch_report *r)
{
	if (sg.seccomp_on)
		sg_patch_put(buf, n, "sysgate:   every other call is caught by a "
			     "seccomp filter (SIGSYS)\n");
	else if (sg.sud_on)
		sg_patch_put(buf, n, "sysgate:   unpatched code is caught by syscall "
			     "user dispatch (SIGSYS)\n");
	else if (r->total->unverified || r->total->kind[SG_PATCH_NONE])
		sg_patch_put(buf, n, "sysgate:   unpatched sites are NOT caught: no "
			     "syscall user dispatch here\n");
}

void sg_patch_report_start(const struct sg_patch_report *r)
{
	static char buf[4096];
	size_t n = 0;
	int i;

	headline(buf, &n, r);
	counts(buf, &n, r);
	catching(buf, &n, r);
	for (i = 0; i < r->nobjs; i++)
		sg_patch_object_line(buf, &n, &r->objs[i], r);
	sg_write_all(sg.out_fd, buf, n);
}

/* What objects left to traps had planned, site by site, at their first
 * trap (the start-up line says what was planned eagerly). */
static void first_trap_lines(char *buf, size_t *n,
			     const struct sg_patch_report *r)
{
	int i, k, sum = 0;

	if (r->total->from_tree) {
		sg_patch_put(buf, n, "sysgate: patched before they ran, as "
				     "the tree's earlier processes planned "
				     "them: ");
		sg_patch_put_num(buf, n, r->total->from_tree);
		sg_patch_put(buf, n, " sites\n");
	}
	for (i = 0; i < r->nobjs; i++)
		for (k = 0; k < SG_PATCH_KINDS; k++)
			sum += r->objs[i].n_first[k];
	if (!sum)
		return;
	sg_patch_put(buf, n, "sysgate: planned at their third trap: ");
	sg_patch_put_num(buf, n, sum);
	sg_patch_put(buf, n, " sites, ");
	sg_patch_put_num(buf, n, r->first_trap_ns / 1000);
	sg_patch_put(buf, n, " us of CPU\n");
	put_count(buf, n, "sysgate:   ", "jump windows taken without their "
				      "object's read, a breakpoint on their "
				      "syscall", r->total->caught);
	for (i = 0; i < r->nobjs; i++) {
		const struct sg_obj *o = &r->objs[i];

		for (k = 0; k < SG_PATCH_KINDS && !o->n_first[k]; k++)
			;
		if (k == SG_PATCH_KINDS)
			continue;
		sg_patch_put(buf, n, "sysgate:   ");
		sg_patch_put(buf, n, o->path);
		sg_patch_put(buf, n, ":");
		put_kinds(buf, n, o->n_first);
		sg_patch_put(buf, n, "\n");
	}
}

/* At exit: the calls signals caught, code without objects, SUD's turns,
 * the sites planned at a trap. */
void sg_patch_report_exit(const struct sg_patch_report *r)
{
	static char buf[4096];
	size_t n = 0;
	unsigned long caught = __atomic_load_n(&sg.sigsys_calls,
					       __ATOMIC_RELAXED);

	if (caught || sg.sud_on || sg.seccomp_on) {
		sg_patch_put(buf, &n, "sysgate: calls caught by SIGSYS: ");
		sg_patch_put_num(buf, &n, caught);
		sg_patch_put(buf, &n, "\n");
	}
	if (r->total->anon_clean) {
		sg_patch_put(buf, &n, "sysgate: executable memory without an "
				      "ELF object and without a system call "
				      "instruction: ");
		sg_patch_put_num(buf, &n, r->total->anon_clean);
		sg_patch_put(buf, &n, " mappings, nothing to catch\n");
	}
	if (r->total->anon_exec) {
		sg_patch_put(buf, &n, "sysgate: executable memory without an ELF "
				      "object (JIT): ");
		sg_patch_put_num(buf, &n, r->total->anon_exec);
		sg_patch_put(buf, &n, " mappings, caught by syscall user dispatch\n");
	}
	if (r->total->mapped_later) {
		sg_patch_put(buf, &n, "sysgate: code mapped after start-up: ");
		sg_patch_put_num(buf, &n, r->total->mapped_later);
		sg_patch_put(buf, &n, " mappings, looked at with ");
		sg_patch_put_num(buf, &n, r->total->maps_reads);
		sg_patch_put(buf, &n, " reads of /proc/self/maps\n");
	}
	if (sg.sud_offs) {
		sg_patch_put(buf, &n, "sysgate: syscall user dispatch: turned on ");
		sg_patch_put_num(buf, &n, sg.sud_ons);
		sg_patch_put(buf, &n, " times, off ");
		sg_patch_put_num(buf, &n, sg.sud_offs);
		sg_patch_put(buf, &n, " times (nothing left for it to catch)\n");
	}
	first_trap_lines(buf, &n, r);
	sg_write_all(sg.out_fd, buf, n);
}
