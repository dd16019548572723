/* SPDX-License-Identifier: MIT */
/*
 * sysgate hot: the report of the hot hook's table (hooks/hot), printed by
 * the CLI once the hooked tree has ended.  Sites are named here, not in the
 * program: the hook leaves each site's file and file offset, and this file
 * turns them into symbol+offset from the ELF symbol tables (.symtab when
 * the file has one, else .dynsym).  Each site gets a verdict on what
 * sysgate --bypass can do for it.
 */
#include <elf.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "sg.h"
#include "options.h"
#include "shared.h"
#include "hot.h"
#include "cli.h"

/* Median gap of a site, from its histogram: the middle of the bucket that
 * holds the middle call. */
static unsigned long median_gap(const struct hot_site *e)
{
	unsigned long total = 0, seen = 0, lo, width;
	int b;

	for (b = 0; b < HOT_BUCKETS; b++)
		total += e->gaps[b];
	if (!total)
		return 0;
	for (b = 0; b < HOT_BUCKETS; b++) {
		seen += e->gaps[b];
		if (seen * 2 >= total)
			break;
	}
	hot_bucket_range(b, &lo, &width);
	return lo + width / 2;
}

/* The function holding file offset off in ELF file path. */
static void symbolize(const char *path, unsigned long off, char *out,
		      size_t size)
{
	const Elf64_Ehdr *eh;
	const Elf64_Phdr *ph;
	const Elf64_Shdr *sh;
	unsigned long vaddr = 0, best = 0;
	const char *name = 0;
	struct stat st;
	int fd, i, found = 0, pass;
	void *m;

	snprintf(out, size, "?");
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	if (fstat(fd, &st) < 0 || st.st_size < (off_t)sizeof(*eh)) {
		close(fd);
		return;
	}
	m = mmap(0, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (m == MAP_FAILED)
		return;
	eh = m;
	if (memcmp(eh->e_ident, ELFMAG, SELFMAG) ||
	    eh->e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh->e_phoff + eh->e_phnum * sizeof(*ph) > (unsigned long)st.st_size ||
	    eh->e_shoff + eh->e_shnum * sizeof(*sh) > (unsigned long)st.st_size)
		goto out;
	ph = (const Elf64_Phdr *)((const char *)m + eh->e_phoff);
	for (i = 0; i < eh->e_phnum; i++)
		if (ph[i].p_type == PT_LOAD && off >= ph[i].p_offset &&
		    off < ph[i].p_offset + ph[i].p_filesz) {
			vaddr = off - ph[i].p_offset + ph[i].p_vaddr;
			found = 1;
		}
	if (!found)
		goto out;
	sh = (const Elf64_Shdr *)((const char *)m + eh->e_shoff);
	/* .symtab first; .dynsym if it names nothing */
	for (pass = 0; pass < 2 && !name; pass++)
		for (i = 0; i < eh->e_shnum; i++) {
			const Elf64_Sym *sym;
			const char *str;
			unsigned long n, k;

			if (sh[i].sh_type != (pass ? SHT_DYNSYM : SHT_SYMTAB) ||
			    sh[i].sh_link >= eh->e_shnum ||
			    sh[i].sh_offset + sh[i].sh_size >
				    (unsigned long)st.st_size)
				continue;
			sym = (const Elf64_Sym *)((const char *)m +
						  sh[i].sh_offset);
			str = (const char *)m + sh[sh[i].sh_link].sh_offset;
			n = sh[i].sh_size / sizeof(*sym);
			for (k = 0; k < n; k++) {
				const Elf64_Sym *y = &sym[k];

				/* the nearest function at or below vaddr
				 * that does not end before it */
				if (ELF64_ST_TYPE(y->st_info) != STT_FUNC ||
				    !y->st_value || y->st_value > vaddr ||
				    (y->st_size &&
				     vaddr >= y->st_value + y->st_size) ||
				    y->st_name >= sh[sh[i].sh_link].sh_size ||
				    (name && y->st_value <= best))
					continue;
				best = y->st_value;
				name = str + y->st_name;
			}
		}
	if (name)
		snprintf(out, size, "%s+0x%lx", name, vaddr - best);
	else
		snprintf(out, size, "+0x%lx", vaddr);
out:
	munmap(m, st.st_size);
}

/* The kind of file most sampled calls of a site named. */
static int fd_kind(const struct hot_site *e)
{
	int k, best = HOT_FD_OTHER;

	for (k = 0; k < HOT_FD_KINDS; k++)
		if (e->fdkinds[k] > e->fdkinds[best])
			best = k;
	return best;
}

/* What --bypass does for a site: "yes" (with how) or "no" (with why). */
static const char *advice(const struct hot_site *e, const char **how)
{
	const char *n = sysgate_syscall_name(e->nr);
	int kind = fd_kind(e);

	*how = "";
	if (!n)
		return "no";
	if (!strcmp(n, "pread64") || !strcmp(n, "read")) {
		if (kind == HOT_FD_MAPPABLE) {
			*how = n[0] == 'p' ? "--bypass=pread: copied from a "
					     "mapping of the file" :
					     "--bypass=read: copied from a "
					     "mapping, offset kept in user "
					     "space";
			return "yes";
		}
		*how = kind == HOT_FD_FILE ?
			       "file system is not mapped (only tmpfs, ext4, "
			       "xfs, btrfs)" :
			       kind == HOT_FD_SOCKET ? "a socket: the kernel must "
						       "answer" :
			       "not a regular file: the kernel must answer";
		return "no";
	}
	if (!strcmp(n, "getpid") || !strcmp(n, "gettid") ||
	    !strcmp(n, "getppid")) {
		*how = "--bypass=ids: answered from the thread's own record";
		return "yes";
	}
	if (!strcmp(n, "uname")) {
		*how = "--bypass=uname: cached until something changes it";
		return "yes";
	}
	if ((!strcmp(n, "write") || !strcmp(n, "pwrite64")) &&
	    (kind == HOT_FD_MAPPABLE || kind == HOT_FD_FILE)) {
		*how = "--bypass=wlog (opt-in, relaxed): batched, errors "
		       "reported at the next call";
		return "relaxed";
	}
	if (!strcmp(n, "clock_gettime") || !strcmp(n, "gettimeofday") ||
	    !strcmp(n, "time")) {
		*how = "the vDSO should answer it: a static or old libc?";
		return "no";
	}
	*how = "the kernel must answer it";
	return "no";
}

static int by_short(const void *a, const void *b)
{
	const struct hot_site *x = *(const struct hot_site *const *)a;
	const struct hot_site *y = *(const struct hot_site *const *)b;

	if (x->hot_windows != y->hot_windows)
		return x->hot_windows < y->hot_windows ? 1 : -1;
	if (x->shorts != y->shorts)
		return x->shorts < y->shorts ? 1 : -1;
	return x->calls < y->calls ? 1 : x->calls > y->calls ? -1 : 0;
}

static void json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fprintf(f, "\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			fprintf(f, "\\u%04x", *s);
		else
			fputc(*s, f);
	}
	fputc('"', f);
}

#define TEXT_ROWS 25

void sg_cli_hot_report(const struct sg_options *o, const char *state, int fd)
{
	const struct hot_table *t;
	const struct hot_site **v;
	unsigned int i, n = 0, nhot = 0;
	size_t len;
	void *map = sg_cli_map_state(state, &len);
	FILE *f;

	if (!map)
		return;
	t = sg_shared_find(map, HOT_TABLE_NAME);
	f = fdopen(dup(fd), "w");
	if (!t || !f)
		goto out;
	v = calloc(HOT_SITES, sizeof(*v));
	for (i = 0; i < HOT_SITES; i++)
		if (t->sites[i].key && t->sites[i].calls)
			v[n++] = &t->sites[i];
	qsort(v, n, sizeof(*v), by_short);
	for (i = 0; i < n; i++)
		nhot += v[i]->hot_windows > 0;
	if (o->json)
		fprintf(f, "{\"type\":\"hot\",\"short_ns\":%lu,\"calls\":%lu,"
			   "\"window\":%lu,\"hot_sites\":%u,\"sites\":[",
			t->short_ns, t->hot_calls, t->window, nhot);
	else
		fprintf(f, "sysgate hot: %u sites, %u hot (a call is short "
			   "after < %lu ns in user space; hot: > %lu short "
			   "calls in a window of %lu, within 1 s)\n"
			   "%-18s %-7s %-10s %9s %6s %8s %4s %-30s %s\n",
			n, nhot, t->short_ns, t->hot_calls, t->window, "address",
			"pid", "syscall", "calls", "short", "median", "hot",
			"symbol (library)", "bypass");
	for (i = 0; i < n; i++) {
		const struct hot_site *e = v[i];
		const char *lib = e->mod && e->mod <= HOT_MODS ?
					  t->mods[e->mod - 1] : "?";
		const char *base = strrchr(lib, '/'), *how, *verdict;
		const char *name = sysgate_syscall_name(e->nr);
		char sym[256];

		if (!o->json && i >= TEXT_ROWS) {
			fprintf(f, "... %u more sites (--json lists all)\n",
				n - i);
			break;
		}
		if (e->mod && lib[0] == '/')
			symbolize(lib, e->file_off, sym, sizeof(sym));
		else
			snprintf(sym, sizeof(sym), "?");
		verdict = advice(e, &how);
		if (o->json) {
			fprintf(f, "%s{\"pc\":\"0x%lx\",\"pid\":%d,\"syscall\":",
				i ? "," : "", e->pc, e->pid);
			json_str(f, name ? name : "?");
			fprintf(f, ",\"nr\":%d,\"calls\":%lu,\"short\":%lu,"
				   "\"median_gap_ns\":%lu,\"hot_windows\":%u,"
				   "\"hot\":%s,\"symbol\":",
				e->nr, e->calls, e->shorts, median_gap(e),
				e->hot_windows, e->hot_windows ? "true" : "false");
			json_str(f, sym);
			fputs(",\"library\":", f);
			json_str(f, lib);
			fprintf(f, ",\"file_offset\":\"0x%lx\",\"bypass\":",
				e->file_off);
			json_str(f, verdict);
			fputs(",\"how\":", f);
			json_str(f, how);
			fputc('}', f);
		} else {
			char pct[16], med[24];

			snprintf(pct, sizeof(pct), "%lu%%",
				 e->shorts * 100 / e->calls);
			if (median_gap(e))
				snprintf(med, sizeof(med), "%luns", median_gap(e));
			else
				snprintf(med, sizeof(med), "-");
			fprintf(f, "0x%-16lx %-7d %-10s %9lu %6s %8s %4s "
				   "%s (%s) %s%s%s\n",
				e->pc, e->pid, name ? name : "?", e->calls, pct,
				med, e->hot_windows ? "HOT" : "-", sym,
				base ? base + 1 : lib, verdict, *how ? ": " : "",
				how);
		}
	}
	if (o->json)
		fprintf(f, "],\"sites_lost\":%u}\n", t->full);
	else if (t->full)
		fprintf(f, "(%u calls found the site table full)\n", t->full);
	free(v);
out:
	if (f)
		fclose(f);
	munmap(map, len);
}
