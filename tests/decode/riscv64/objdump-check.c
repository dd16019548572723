/* SPDX-License-Identifier: MIT */
/*
 * The rv64gc decoder against objdump, over a real riscv64 ELF.
 *
 * usage: riscv64-linux-gnu-objdump -d -z -M no-aliases ELF |
 *            objdump-check ELF
 *
 * Every executable section of ELF is walked linearly with rv_decode from
 * its start (an invalid encoding is stepped over by its announced length,
 * as objdump does with c.unimp padding).  Each instruction objdump prints
 * must start where the walk put an instruction, with the same length, and
 * agree on: kind (ecall, ebreak, auipc, jal, jalr, branch, system,
 * invalid), the integer registers named, the destination, the immediate
 * or branch target, the fp and mem flags.  Also counts the ecalls whose
 * a7 is set by an li in the same straight-line block (scanning back,
 * stopping at any branch target, jump or branch), and checks rv_find_a7
 * never knows more than that scan or disagrees with it.
 *
 * Prints the counts; exits 1 on any disagreement.  Host program.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <elf.h>
#include "decode.h"

struct rec {
	unsigned long addr;
	struct rv_insn in;
	unsigned int sec;
};

struct sec {
	unsigned long addr, size;
	const unsigned char *code;
};

static unsigned char *file;
static struct sec secs[64];
static unsigned int nsecs;
static struct rec *recs;
static unsigned long nrecs;
static unsigned long lo_addr, hi_addr;
static unsigned char *is_target;	/* per 2-byte slot of [lo, hi) */
static unsigned long *func_starts;	/* from objdump's "<sym>:" lines */
static unsigned long nfuncs;
static unsigned long bad;
static const char *what;

static const char *const regnames[32] = {
	"zero", "ra", "sp", "gp", "tp", "t0", "t1", "t2", "s0", "s1",
	"a0", "a1", "a2", "a3", "a4", "a5", "a6", "a7", "s2", "s3", "s4",
	"s5", "s6", "s7", "s8", "s9", "s10", "s11", "t3", "t4", "t5", "t6",
};

static int regnum(const char *t)
{
	int i;

	for (i = 0; i < 32; i++)
		if (!strcmp(t, regnames[i]))
			return i;
	return -1;
}

static void load_elf(const char *path)
{
	FILE *f = fopen(path, "rb");
	long n;
	Elf64_Ehdr *eh;
	Elf64_Shdr *sh;
	unsigned int i;

	if (!f || fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0) {
		perror(path);
		exit(2);
	}
	rewind(f);
	file = malloc((size_t)n);
	if (!file || fread(file, 1, (size_t)n, f) != (size_t)n) {
		perror(path);
		exit(2);
	}
	fclose(f);
	eh = (Elf64_Ehdr *)file;
	if (memcmp(eh->e_ident, ELFMAG, SELFMAG) ||
	    eh->e_ident[EI_CLASS] != ELFCLASS64 || eh->e_machine != EM_RISCV) {
		fprintf(stderr, "%s: not a riscv64 ELF\n", path);
		exit(2);
	}
	sh = (Elf64_Shdr *)(file + eh->e_shoff);
	lo_addr = ~0UL;
	for (i = 0; i < eh->e_shnum && nsecs < 64; i++) {
		if (sh[i].sh_type != SHT_PROGBITS ||
		    !(sh[i].sh_flags & SHF_EXECINSTR))
			continue;
		secs[nsecs].addr = sh[i].sh_addr;
		secs[nsecs].size = sh[i].sh_size;
		secs[nsecs].code = file + sh[i].sh_offset;
		if (sh[i].sh_addr < lo_addr)
			lo_addr = sh[i].sh_addr;
		if (sh[i].sh_addr + sh[i].sh_size > hi_addr)
			hi_addr = sh[i].sh_addr + sh[i].sh_size;
		nsecs++;
	}
}

static void mark_target(unsigned long t)
{
	if (t >= lo_addr && t < hi_addr)
		is_target[(t - lo_addr) / 2] = 1;
}

/* The linear walk, in address order (objdump prints sections in the
 * order of the section table; sort the sections to match either way). */
static void walk(void)
{
	unsigned long cap = 0, off;
	unsigned int s, t;

	for (s = 0; s < nsecs; s++)
		for (t = s + 1; t < nsecs; t++)
			if (secs[t].addr < secs[s].addr) {
				struct sec x = secs[s];

				secs[s] = secs[t];
				secs[t] = x;
			}
	is_target = calloc((hi_addr - lo_addr) / 2 + 1, 1);
	for (s = 0; s < nsecs; s++) {
		for (off = 0; off < secs[s].size;) {
			struct rec *r;
			int len;

			if (nrecs == cap) {
				cap = cap ? cap * 2 : 65536;
				recs = realloc(recs, cap * sizeof(*recs));
			}
			r = &recs[nrecs++];
			r->addr = secs[s].addr + off;
			r->sec = s;
			len = rv_decode(secs[s].code + off, secs[s].size - off,
					&r->in);
			if (!len)
				len = rv_insn_length(secs[s].code + off,
						     secs[s].size - off);
			if (!len) {
				fprintf(stderr, "%s: walk stuck at %lx\n",
					what, r->addr);
				bad++;
				break;
			}
			if (r->in.kind == RV_JAL || r->in.kind == RV_BRANCH)
				mark_target(r->addr + (unsigned long)r->in.imm);
			off += (unsigned long)len;
		}
	}
}

static int one_of(const char *m, const char *const *list)
{
	for (; *list; list++)
		if (!strcmp(m, *list))
			return 1;
	return 0;
}

static const char *const loads[] = {
	"lb", "lh", "lw", "ld", "lbu", "lhu", "lwu", "flw", "fld", "c.lw",
	"c.ld", "c.lwsp", "c.ldsp", "c.fld", "c.fldsp", 0,
};
static const char *const stores[] = {
	"sb", "sh", "sw", "sd", "fsw", "fsd", "c.sw", "c.sd", "c.swsp",
	"c.sdsp", "c.fsd", "c.fsdsp", 0,
};
static const char *const invalids[] = {
	"c.unimp", ".2byte", ".4byte", ".insn", ".byte", "(bad)", 0,
};
static const char *const systems[] = {
	"fence.i", "wfi", "mret", "sret", "sfence.vma", 0,
};

static int expected_kind(const char *m, char toks[][32], int ntok)
{
	int i;

	for (i = 0; i < ntok; i++)	/* reserved rounding mode 5 or 6 */
		if (!strcmp(toks[i], "unknown"))
			return RV_INVALID;
	if (!strcmp(m, "ecall"))
		return RV_ECALL;
	if (!strcmp(m, "ebreak") || !strcmp(m, "c.ebreak"))
		return RV_EBREAK;
	if (!strcmp(m, "auipc"))
		return RV_AUIPC;
	if (!strcmp(m, "jal") || !strcmp(m, "c.j") || !strcmp(m, "c.jal"))
		return RV_JAL;
	if (!strcmp(m, "jalr") || !strcmp(m, "c.jr") || !strcmp(m, "c.jalr"))
		return RV_JALR;
	if ((m[0] == 'b' && m[1] != 0) || !strcmp(m, "c.beqz") ||
	    !strcmp(m, "c.bnez"))
		return RV_BRANCH;
	if (one_of(m, invalids))
		return RV_INVALID;
	if (one_of(m, systems))
		return RV_SYSTEM;
	if (!strncmp(m, "csrr", 4) && ntok == 3) {
		const char *c = toks[1];
		int imm = m[5] == 'i';
		int ro = (m[4] == 's' || m[4] == 'c') &&
			 (imm ? !strcmp(toks[2], "0") : !strcmp(toks[2], "zero"));

		if (!strcmp(c, "fflags") || !strcmp(c, "frm") ||
		    !strcmp(c, "fcsr"))
			return RV_PLAIN;
		if (ro && (!strcmp(c, "cycle") || !strcmp(c, "time") ||
			   !strcmp(c, "instret")))
			return RV_PLAIN;
		return RV_SYSTEM;
	}
	return RV_PLAIN;
}

static int parse_num(const char *t, long *v)
{
	char *end;

	if (!*t)
		return 0;
	*v = strtol(t, &end, 0);
	return *end == 0;
}

static void disagree(const struct rec *r, const char *line, const char *why)
{
	if (bad < 40)
		fprintf(stderr, "%s: %lx: %s: objdump '%s' (kind %d rd %d rs1 %d"
			" rs2 %d imm %lld fp %d mem %d)\n", what, r->addr, why,
			line, r->in.kind, r->in.rd, r->in.rs1, r->in.rs2,
			(long long)r->in.imm, r->in.fp, r->in.mem);
	bad++;
}

/* Encodings where binutils 2.40 and the ISA manual part, and the decoder
 * follows the manual.  Returns 1 if this objdump verdict is one of them. */
static unsigned long spec_over_objdump;

static int known_difference(const struct rec *r, const char *m,
			    char toks[][32], int ntok)
{
	unsigned long w;
	unsigned int f3, f7;

	/* c.addi16sp with 0 is reserved; objdump prints "sp,0" */
	if (!strcmp(m, "c.addi16sp") && ntok == 2 && !strcmp(toks[1], "0") &&
	    r->in.kind == RV_INVALID)
		return 1;
	if (strcmp(m, ".4byte") || !ntok)
		return 0;
	w = strtoul(toks[0], 0, 16);
	f3 = (w >> 12) & 7;
	f7 = (w >> 25) & 0x7f;
	/* FENCE and FENCE.I: "implementations shall ignore" rd, rs1 (and
	 * fence.i's imm); objdump wants them zero */
	if ((w & 0x7f) == 0x0f && f3 == 0 && r->in.kind == RV_PLAIN)
		return 1;
	if ((w & 0x7f) == 0x0f && f3 == 1 && r->in.kind == RV_SYSTEM)
		return 1;
	/* exact conversions (fcvt.d.w, fcvt.d.wu, fcvt.d.s) have an rm
	 * field all the same; objdump decodes only rm 0 */
	if ((w & 0x7f) == 0x53 && f3 != 5 && f3 != 6 && r->in.kind == RV_PLAIN &&
	    ((f7 == 0x69 && ((w >> 20) & 31) <= 1) ||
	     (f7 == 0x21 && ((w >> 20) & 31) == 0)))
		return 1;
	return 0;
}

static const char *const kinds[] = {
	"invalid", "plain", "ecall", "ebreak", "auipc", "jal", "jalr",
	"branch", "system",
};

/* Compare one objdump line (mnemonic m, operand text ops) with r. */
static void compare(const struct rec *r, const char *m, char *ops,
		    const char *line)
{
	char toks[8][32], *p, *cut;
	int ntok = 0, kind, i, want[32] = { 0 }, have[32] = { 0 }, first;
	long v;

	/* operands end where objdump's comment (<sym>, # addr) starts */
	if ((cut = strstr(ops, " <")))
		*cut = 0;
	if ((cut = strstr(ops, " #")))
		*cut = 0;
	/* split on , ( ) */
	for (p = ops; *p && ntok < 8;) {
		size_t n = strcspn(p, ",()");

		if (n >= 32)
			n = 31;
		memcpy(toks[ntok], p, n);
		toks[ntok][n] = 0;
		if (n)
			ntok++;
		p += strcspn(p, ",()");
		if (*p)
			p++;
	}

	kind = expected_kind(m, toks, ntok);
	if (kind != r->in.kind && known_difference(r, m, toks, ntok)) {
		spec_over_objdump++;
		return;
	}
	if (kind != r->in.kind) {
		char why[80];

		snprintf(why, sizeof(why), "kind %s, objdump says %s",
			 kinds[r->in.kind], kinds[kind]);
		disagree(r, line, why);
		return;
	}
	if (kind == RV_INVALID)
		return;

	/* integer registers named vs read/written */
	for (i = 0; i < ntok; i++) {
		int n = regnum(toks[i]);

		if (n > 0)
			want[n] = 1;
	}
	if (!strcmp(m, "c.jalr"))
		want[1] = 1;		/* implicit ra */
	if (r->in.rd > 0)
		have[(int)r->in.rd] = 1;
	if (r->in.rs1 > 0)
		have[(int)r->in.rs1] = 1;
	if (r->in.rs2 > 0)
		have[(int)r->in.rs2] = 1;
	if (memcmp(want, have, sizeof(want)))
		disagree(r, line, "registers");

	/* the destination is the first operand, except for these */
	if (!one_of(m, stores) && kind != RV_BRANCH && strcmp(m, "c.jr") &&
	    strcmp(m, "c.jalr") && strcmp(m, "sfence.vma") && ntok) {
		first = regnum(toks[0]);
		if ((first > 0 ? first : -1) != r->in.rd)
			disagree(r, line, "destination");
	}

	/* immediates and targets */
	if (kind == RV_JAL || kind == RV_BRANCH) {
		char *end;
		unsigned long t = strtoul(toks[ntok - 1], &end, 16);

		if (*end || t != r->addr + (unsigned long)r->in.imm)
			disagree(r, line, "target");
	} else if (one_of(m, loads) || one_of(m, stores) ||
		   kind == RV_JALR) {
		/* "off(reg)": the number is the token before the register */
		if (ntok >= 2 && strcmp(m, "c.jr") && strcmp(m, "c.jalr") &&
		    (!parse_num(toks[ntok - 2], &v) || v != r->in.imm))
			disagree(r, line, "offset");
	} else if (strncmp(m, "csrr", 4) && strncmp(m, "fence", 5) && ntok &&
		   parse_num(toks[ntok - 1], &v)) {
		long want_v = r->in.imm;

		if (!strcmp(m, "lui") || !strcmp(m, "auipc") ||
		    !strcmp(m, "c.lui"))
			want_v = (r->in.imm >> 12) & 0xfffff;
		if (v != want_v)
			disagree(r, line, "immediate");
	}

	/* flags */
	if (r->in.mem != (one_of(m, loads) || one_of(m, stores) ||
			  !strncmp(m, "amo", 3) || !strncmp(m, "lr.", 3) ||
			  !strncmp(m, "sc.", 3)))
		disagree(r, line, "mem flag");
	if (r->in.fp != ((m[0] == 'f' && strncmp(m, "fence", 5)) ||
			 !strncmp(m, "c.f", 3) ||
			 (!strncmp(m, "csrr", 4) && ntok >= 2 &&
			  (!strcmp(toks[1], "fflags") || !strcmp(toks[1], "frm") ||
			   !strcmp(toks[1], "fcsr")))))
		disagree(r, line, "fp flag");
}

/* The straight-line scan back from the ecall at recs[i]. */
static int a7_by_scan(unsigned long i, long *nr)
{
	unsigned long cur = i;
	int reg;

	while (cur > 0) {
		const struct rec *p = &recs[cur - 1];

		if (is_target[(recs[cur].addr - lo_addr) / 2] ||
		    p->sec != recs[i].sec || !p->in.len ||
		    p->in.kind == RV_JAL || p->in.kind == RV_JALR ||
		    p->in.kind == RV_BRANCH)
			return 0;
		if (p->in.rd == 17)
			return rv_is_li(&p->in, &reg, nr);
		cur--;
	}
	return 0;
}

static unsigned long func_start(unsigned long addr, const struct sec *s)
{
	unsigned long lo = 0, hi = nfuncs, best = s->addr;

	/* func_starts is sorted: the last one <= addr */
	while (lo < hi) {
		unsigned long mid = (lo + hi) / 2;

		if (func_starts[mid] <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo && func_starts[lo - 1] >= s->addr)
		best = func_starts[lo - 1];
	return best;
}

static int cmp_ul(const void *a, const void *b)
{
	unsigned long x = *(const unsigned long *)a,
		      y = *(const unsigned long *)b;

	return x < y ? -1 : x > y;
}

/* --gen N: every 16-bit encoding, then N pseudo-random 32-bit ones (all
 * of them 2 or 4 bytes long), as raw bytes on stdout: fuzz.sh wraps them
 * in an rv64gc ELF for objdump to judge. */
static int gen(unsigned long n)
{
	unsigned long long s = 88172645463325252ull;
	unsigned long i;

	for (i = 0; i < 65536; i++)
		if ((i & 3) != 3) {
			putchar((int)(i & 255));
			putchar((int)(i >> 8));
		}
	for (i = 0; i < n;) {
		unsigned int w;
		int k;

		s ^= s << 13;
		s ^= s >> 7;
		s ^= s << 17;
		w = (unsigned int)(s >> 11);
		if ((w & 3) != 3 || (w & 0x1c) == 0x1c)
			continue;
		for (k = 0; k < 4; k++)
			putchar((int)((w >> (8 * k)) & 255));
		i++;
	}
	return 0;
}

int main(int argc, char **argv)
{
	static char line[4096];
	unsigned long ri = 0, checked = 0, ecalls = 0, by_scan = 0,
		      by_find = 0, fcap = 0, i, missed = 0;

	if (argc == 3 && !strcmp(argv[1], "--gen"))
		return gen(strtoul(argv[2], 0, 0));
	if (argc != 2) {
		fprintf(stderr, "usage: objdump -d -z -M no-aliases ELF | %s ELF\n",
			argv[0]);
		return 2;
	}
	what = strrchr(argv[1], '/') ? strrchr(argv[1], '/') + 1 : argv[1];
	load_elf(argv[1]);
	walk();

	while (fgets(line, sizeof(line), stdin)) {
		char *p = line, *end, *m, *ops, *raw;
		unsigned long addr;
		size_t nhex;

		line[strcspn(line, "\n")] = 0;
		addr = strtoul(p, &end, 16);
		if (end != p && end[0] == ' ' && end[1] == '<' &&
		    end[strlen(end) - 1] == ':') {
			if (nfuncs == fcap) {
				fcap = fcap ? fcap * 2 : 4096;
				func_starts = realloc(func_starts,
						      fcap * sizeof(long));
			}
			func_starts[nfuncs++] = addr;
			continue;
		}
		while (*p == ' ')
			p++;
		addr = strtoul(p, &end, 16);
		if (end == p || end[0] != ':' || end[1] != '\t')
			continue;
		raw = end + 2;
		nhex = strspn(raw, "0123456789abcdef");
		m = raw + nhex;
		while (*m == ' ')
			m++;
		if (*m != '\t')
			continue;
		m++;
		ops = m + strcspn(m, "\t");
		if (*ops)
			*ops++ = 0;

		/* walk instructions objdump did not print are boundary
		 * disagreements */
		while (ri < nrecs && recs[ri].addr < addr) {
			disagree(&recs[ri], "(no instruction here)", "boundary");
			ri++;
		}
		if (ri == nrecs || recs[ri].addr != addr) {
			fprintf(stderr, "%s: %lx: objdump has '%s', the walk "
				"does not stop here\n", what, addr, m);
			bad++;
			continue;
		}
		if ((unsigned long)(recs[ri].in.len ? recs[ri].in.len :
				    (nhex == 4 ? 2 : 4)) != nhex / 2) {
			disagree(&recs[ri], m, "length");
		} else {
			char text[256];

			snprintf(text, sizeof(text), "%s %s", m, ops);
			compare(&recs[ri], m, ops, text);
		}
		checked++;
		ri++;
	}
	for (; ri < nrecs; ri++, missed++)
		disagree(&recs[ri], "(past objdump's end)", "boundary");

	/* a7 at each ecall */
	qsort(func_starts, nfuncs, sizeof(long), cmp_ul);
	for (i = 0; i < nrecs; i++) {
		const struct sec *s = &secs[recs[i].sec];
		long nr_scan = 0, nr_find = 0;
		int k_scan, k_find;

		if (recs[i].in.kind != RV_ECALL)
			continue;
		ecalls++;
		k_scan = a7_by_scan(i, &nr_scan);
		k_find = rv_find_a7(s->code, func_start(recs[i].addr, s) - s->addr,
				    recs[i].addr - s->addr, &nr_find);
		by_scan += k_scan;
		by_find += k_find;
		if (k_find && (!k_scan || nr_find != nr_scan)) {
			fprintf(stderr, "%s: %lx: rv_find_a7 says %ld, the "
				"scan %s %ld\n", what, recs[i].addr, nr_find,
				k_scan ? "says" : "does not know", nr_scan);
			bad++;
		}
	}
	printf("%s: %lu instructions checked (%lu walked), %lu ecalls, "
	       "a7 known: %lu by scan, %lu by rv_find_a7; %lu disagreements",
	       what, checked, nrecs, ecalls, by_scan, by_find, bad);
	if (spec_over_objdump)
		printf(" (%lu where binutils 2.40 and the ISA manual differ, "
		       "manual followed)", spec_over_objdump);
	printf("\n");
	return bad || !checked ? 1 : 0;
}
