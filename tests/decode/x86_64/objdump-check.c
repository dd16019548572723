/* SPDX-License-Identifier: MIT */
/*
 * Cross-check of the decoder against objdump: reads `objdump -d -w`
 * output on stdin and decodes every instruction objdump printed, from the
 * bytes objdump printed.  Lengths must agree; syscalls must be
 * X86_SYSCALL; direct branches and rip-relative operands must point where
 * objdump says.  Prints counts; exits 1 on any disagreement.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "decode.h"

struct line {
	unsigned long addr;
	unsigned int off, len;	/* into the byte buffer */
	char *text;		/* mnemonic and operands */
};

static unsigned char *bytes;
static unsigned long nbytes, cap_bytes;
static struct line *lines;
static unsigned long nlines, cap_lines;

static const char *const prefixes[] = {
	"bnd", "notrack", "rep", "repz", "repnz", "repe", "repne", "lock",
	"data16", "addr32", "cs", "ds", "ss", "es", "fs", "gs", "xacquire",
	"xrelease", 0,
};

static int is_prefix(const char *w, size_t n)
{
	int i;

	if (n >= 3 && !strncmp(w, "rex", 3))
		return 1;
	for (i = 0; prefixes[i]; i++)
		if (strlen(prefixes[i]) == n && !strncmp(w, prefixes[i], n))
			return 1;
	return 0;
}

/* The mnemonic (after prefixes) and a pointer to its operands. */
static const char *mnemonic(const char *t, size_t *n, const char **ops)
{
	for (;;) {
		while (*t == ' ')
			t++;
		*n = strcspn(t, " ");
		if (!is_prefix(t, *n))
			break;
		t += *n;
	}
	*ops = t + *n;
	while (**ops == ' ')
		(*ops)++;
	return t;
}

static int is_direct_branch(const char *m, size_t n, const char *ops)
{
	if (*ops == '*' || !isxdigit((unsigned char)*ops))
		return 0;
	return (m[0] == 'j') || (n >= 4 && !strncmp(m, "call", 4)) ||
	       (n >= 4 && !strncmp(m, "loop", 4)) || (n == 6 && !strncmp(m, "xbegin", 6));
}

int main(int argc, char **argv)
{
	char buf[4096];
	unsigned long i, bad = 0, skipped = 0, syscalls = 0, branches = 0,
			  riprel = 0, refused = 0, prev_end = ~0UL, chunk_start = 0;
	const char *what = argc > 1 ? argv[1] : "stdin";

	while (fgets(buf, sizeof(buf), stdin)) {
		char *p = buf, *tab1, *tab2;
		unsigned long addr;

		while (*p == ' ')
			p++;
		addr = strtoul(p, &tab1, 16);
		if (tab1 == p || tab1[0] != ':' || tab1[1] != '\t')
			continue;
		tab2 = strchr(tab1 + 2, '\t');
		if (nlines == cap_lines) {
			cap_lines = cap_lines ? 2 * cap_lines : 65536;
			lines = realloc(lines, cap_lines * sizeof(*lines));
		}
		if (addr != prev_end)
			chunk_start = nlines;
		(void)chunk_start;
		lines[nlines].addr = addr;
		lines[nlines].off = nbytes;
		lines[nlines].len = 0;
		for (p = tab1 + 2; *p && *p != '\t' && *p != '\n';) {
			if (*p == ' ') {
				p++;
				continue;
			}
			if (nbytes == cap_bytes) {
				cap_bytes = cap_bytes ? 2 * cap_bytes : 1 << 20;
				bytes = realloc(bytes, cap_bytes);
			}
			bytes[nbytes++] = strtoul(p, &p, 16);
			lines[nlines].len++;
		}
		if (tab2) {
			tab2[strcspn(tab2, "\n")] = 0;
			lines[nlines].text = strdup(tab2 + 1);
		} else {
			lines[nlines].text = strdup("");
		}
		prev_end = addr + lines[nlines].len;
		nlines++;
	}
	for (i = 0; i < nlines; i++) {
		struct line *l = &lines[i];
		struct x86_insn in;
		unsigned long avail = l->len;
		const char *m, *ops, *hash;
		size_t mn;
		int n;

		/* The bytes that follow in memory, when contiguous. */
		if (i + 1 < nlines && lines[i + 1].addr == l->addr + l->len)
			avail += lines[i + 1].len;
		if (strstr(l->text, "(bad)") || !*l->text ||
		    !strncmp(l->text, ".byte", 5)) {
			skipped++;
			continue;
		}
		m = mnemonic(l->text, &mn, &ops);
		if (!mn) {
			/* objdump shows a prefix the CPU ignores (a REX before
			 * another prefix) as an instruction of its own. */
			skipped++;
			continue;
		}
		if (bytes[l->off] == 0x9b && l->len > 1) {
			/* objdump joins fwait with the x87 instruction after
			 * it (fstsw = fwait; fnstsw); the CPU runs two. */
			n = x86_decode(bytes + l->off, avail, &in);
			if (n != 1 || x86_decode(bytes + l->off + 1, avail - 1,
						 &in) != (int)l->len - 1) {
				if (bad++ < 20)
					printf("%s %lx: fwait pair: %s\n", what,
					       l->addr, l->text);
			}
			continue;
		}
		n = x86_decode(bytes + l->off, avail, &in);
		/* Encodings the decoder refuses on purpose: a REX before VEX
		 * (#UD), 66 on a near branch (rel16 on AMD, rel32 on Intel). */
		if (n == 0 && ((!strncmp(l->text, "rex", 3) && m[0] == 'v') ||
			       (bytes[l->off] == 0x66 && mn > 1 && m[mn - 1] == 'w' &&
				(m[0] == 'j' || !strncmp(m, "call", 4))))) {
			refused++;
			continue;
		}
		if (n != (int)l->len) {
			if (bad++ < 20)
				printf("%s %lx: length %d, objdump %u: %s\n", what,
				       l->addr, n, l->len, l->text);
			continue;
		}
		if (mn == 7 && !strncmp(m, "syscall", 7)) {
			syscalls++;
			if (in.kind != X86_SYSCALL && bad++ < 20)
				printf("%s %lx: syscall not recognised\n", what,
				       l->addr);
		}
		if (is_direct_branch(m, mn, ops)) {
			unsigned long want = strtoul(ops, 0, 16);

			branches++;
			if ((in.kind != X86_JMP && in.kind != X86_JCC &&
			     in.kind != X86_CALL && !(mn == 6 && !strncmp(m, "xbegin", 6))) ||
			    l->addr + in.target != want) {
				if (bad++ < 20)
					printf("%s %lx: branch kind %d target %lx, "
					       "objdump %s\n", what, l->addr,
					       in.kind, l->addr + (unsigned long)in.target,
					       l->text);
			}
		} else if (in.kind == X86_JMP || in.kind == X86_JCC ||
			   in.kind == X86_CALL) {
			if (bad++ < 20)
				printf("%s %lx: decoded as a branch: %s\n", what,
				       l->addr, l->text);
		}
		hash = strstr(l->text, "%rip");
		if (hash && (hash = strstr(l->text, "# "))) {
			unsigned long want = strtoul(hash + 2, 0, 16);

			riprel++;
			if (!in.rip_rel || l->addr + in.target != want) {
				if (bad++ < 20)
					printf("%s %lx: rip-relative %lx, objdump %s\n",
					       what, l->addr,
					       l->addr + (unsigned long)in.target,
					       l->text);
			}
		}
	}
	printf("%s: %lu instructions compared, %lu syscalls, %lu branches, "
	       "%lu rip-relative, %lu (bad) skipped, %lu refused, "
	       "%lu disagreements\n",
	       what, nlines - skipped, syscalls, branches, riprel, skipped,
	       refused, bad);
	return bad != 0 || nlines - skipped < 1000;
}
