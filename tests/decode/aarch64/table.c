/* SPDX-License-Identifier: MIT */
/*
 * The aarch64 word classifier (arch/aarch64/decode.c), built for the host:
 *
 *   decode-aarch64             a table of encodings with their kinds,
 *                              immediates and destination registers;
 *   decode-aarch64 -           every instruction of `objdump -d` on stdin:
 *                              svc, brk, branches (kind and target) and
 *                              mov x8/w8 (value) must agree with objdump,
 *                              and a word naming x8/w8 in any operand must
 *                              count as one that may write x8.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "decode.h"

static const struct row {
	uint32_t w;
	int kind, rd;
	long imm;
	const char *what;
} rows[] = {
	{ 0xd4000001, A64_SVC, -1, 0, "svc #0" },
	{ 0xd4000021, A64_SVC, -1, 1, "svc #1" },
	{ 0xd42a68e0, A64_BRK, -1, 0x5347, "brk #0x5347" },
	{ 0x00000000, A64_UDF, -1, 0, "udf #0" },
	{ 0x14000000, A64_B, -1, 0, "b ." },
	{ 0x17ffffff, A64_B, -1, -4, "b .-4" },
	{ 0x15ffffff, A64_B, -1, (1L << 27) - 4, "b .+128MiB-4" },
	{ 0x16000000, A64_B, -1, -(1L << 27), "b .-128MiB" },
	{ 0x94000010, A64_BL, -1, 64, "bl .+64" },
	{ 0x54000040, A64_BCOND, -1, 8, "b.eq .+8" },
	{ 0x54ffffe1, A64_BCOND, -1, -4, "b.ne .-4" },
	{ 0xb4000060, A64_CB, -1, 12, "cbz x0, .+12" },
	{ 0x35ffffc1, A64_CB, -1, -8, "cbnz w1, .-8" },
	{ 0x36180080, A64_TB, -1, 16, "tbz w0, #3, .+16" },
	{ 0xb7f7ffe2, A64_TB, -1, -4, "tbnz x2, #62, .-4" },
	{ 0xd61f0200, A64_BR, -1, 0, "br x16" },
	{ 0xd65f03c0, A64_BR, -1, 0, "ret" },
	{ 0xd63f0100, A64_BLR, -1, 0, "blr x8" },
	{ 0xd73f081f, A64_BLR, -1, 0, "blraa x0, sp" },
	{ 0xd71f081f, A64_BR, -1, 0, "braa x0, sp" },
	{ 0xd2801b88, A64_MOVW, 8, 220, "mov x8, #220" },
	{ 0x52801b88, A64_MOVW, 8, 220, "mov w8, #220" },
	{ 0x928000a8, A64_MOVW, 8, -6, "mov x8, #-6" },
	{ 0x128000a8, A64_MOVW, 8, 0xfffffffa, "mov w8, #-6" },
	{ 0xd2a00028, A64_MOVW, 8, 0x10000, "movz x8, #1, lsl #16" },
	{ 0xf2a00028, A64_MOVK, 8, 0x10000, "movk x8, #1, lsl #16" },
	{ 0x10000000, A64_ADR, 0, 0, "adr x0, ." },
	{ 0x90000bd0, A64_ADR, 16, 0x178000, "adrp x16, .+0x178000" },
	{ 0xd503245f, A64_BTI, -1, 0, "bti c" },
	{ 0xd50324df, A64_BTI, -1, 0, "bti jc" },
	{ 0xd503201f, A64_OTHER, -1, 0, "nop" },
	{ 0xaa0103e8, A64_OTHER, -1, 0, "mov x8, x1 (orr)" },
};

static int table(void)
{
	unsigned int i;
	int bad = 0;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const struct row *r = &rows[i];
		unsigned char b[4] = { r->w, r->w >> 8, r->w >> 16, r->w >> 24 };
		struct a64_insn in;

		a64_decode(b, &in);
		if (in.kind != r->kind || in.rd != r->rd ||
		    (r->kind != A64_OTHER && r->kind != A64_BR &&
		     r->kind != A64_BLR && r->kind != A64_BTI &&
		     in.imm != r->imm)) {
			printf("%08x %s: kind %d rd %d imm %ld, want %d %d %ld\n",
			       r->w, r->what, in.kind, in.rd, (long)in.imm,
			       r->kind, r->rd, r->imm);
			bad = 1;
		}
	}
	/* Encoders give back what the classifier reads. */
	{
		long offs[] = { 0, 4, -4, (1L << 27) - 4, -(1L << 27) };
		unsigned int k;

		for (k = 0; k < sizeof(offs) / sizeof(offs[0]); k++) {
			uint32_t w = a64_enc_b(offs[k]);
			unsigned char b[4] = { w, w >> 8, w >> 16, w >> 24 };
			struct a64_insn in;

			a64_decode(b, &in);
			if (in.kind != A64_B || in.imm != offs[k]) {
				printf("a64_enc_b(%ld) = %08x\n", offs[k], w);
				bad = 1;
			}
		}
		if (a64_enc_b(1L << 27) || a64_enc_b(2)) {
			printf("a64_enc_b accepts an offset out of reach\n");
			bad = 1;
		}
	}
	printf("%zu rows: %s\n", sizeof(rows) / sizeof(rows[0]),
	       bad ? "FAIL" : "ok");
	return bad;
}

static int starts(const char *s, const char *p)
{
	return !strncmp(s, p, strlen(p));
}

static int has_reg8(const char *ops)
{
	const char *p = ops;

	while ((p = strpbrk(p, "xw"))) {
		if ((p == ops || strchr(" ,[{", p[-1])) && p[1] == '8' &&
		    (!p[2] || strchr(" ,]}!", p[2])))
			return 1;
		p++;
	}
	return 0;
}

static int objdump(void)
{
	char line[512];
	long n = 0, svc = 0, br = 0, mov8 = 0, bad = 0;

	while (fgets(line, sizeof(line), stdin)) {
		unsigned long addr, target;
		unsigned int w;
		char mn[32], ops[256] = "";
		unsigned char b[4];
		struct a64_insn in;
		int kind_b;
		char *t;

		if (sscanf(line, " %lx:\t%8x \t%31s %255[^\n]", &addr, &w, mn,
			   ops) < 3 || strchr(line, '\t') == 0)
			continue;
		if (starts(mn, ".inst") || starts(mn, "."))
			continue;
		n++;
		b[0] = w;
		b[1] = w >> 8;
		b[2] = w >> 16;
		b[3] = w >> 24;
		a64_decode(b, &in);
		kind_b = !strcmp(mn, "b") ? A64_B : !strcmp(mn, "bl") ? A64_BL :
			 starts(mn, "b.") || starts(mn, "bc.") ? A64_BCOND :
			 starts(mn, "cbz") || starts(mn, "cbnz") ? A64_CB :
			 starts(mn, "tbz") || starts(mn, "tbnz") ? A64_TB :
			 !strcmp(mn, "svc") ? A64_SVC :
			 !strcmp(mn, "brk") ? A64_BRK : -1;
		if (kind_b >= 0 || in.kind == A64_B || in.kind == A64_BL ||
		    in.kind == A64_BCOND || in.kind == A64_CB ||
		    in.kind == A64_TB || in.kind == A64_SVC ||
		    in.kind == A64_BRK) {
			if (in.kind != kind_b) {
				printf("%lx %08x %s %s: kind %d, objdump %d\n",
				       addr, w, mn, ops, in.kind, kind_b);
				bad++;
				continue;
			}
		}
		if (in.kind == A64_SVC)
			svc++;
		if (kind_b >= A64_B && kind_b <= A64_TB) {
			/* the target is the last operand before " <sym>" */
			t = strrchr(ops, '<');
			if (t)
				*t = 0;
			t = strrchr(ops, ',');
			target = strtoul(t ? t + 1 : ops, 0, 16);
			if (addr + in.imm != target) {
				printf("%lx %08x %s %s: target %lx\n", addr, w,
				       mn, ops, addr + (long)in.imm);
				bad++;
			}
			br++;
		}
		if (in.kind == A64_MOVW && in.rd == 8) {
			unsigned long v;

			t = strchr(ops, '#');
			v = t ? strtoul(t + 1, 0, 0) : ~0UL;
			if (t && strstr(t, "lsl")) {
				char *l = strstr(t, "lsl #");

				v <<= strtoul(l + 5, 0, 0);
			}
			if ((strcmp(mn, "mov") && strcmp(mn, "movz") &&
			     strcmp(mn, "movn")) || !has_reg8(ops) ||
			    (!strcmp(mn, "mov") && v != (unsigned long)in.imm)) {
				printf("%lx %08x %s %s: mov x8 = %ld\n", addr,
				       w, mn, ops, (long)in.imm);
				bad++;
			}
			mov8++;
		}
		if (has_reg8(ops) && !a64_may_write(w, &in, 8) &&
		    in.kind == A64_OTHER) {
			printf("%lx %08x %s %s: names x8, not counted as a "
			       "writer\n", addr, w, mn, ops);
			bad++;
		}
		if (bad > 20)
			break;
	}
	printf("%ld instructions, %ld svc, %ld direct branches, %ld mov x8: "
	       "%ld disagree\n", n, svc, br, mov8, bad);
	return n == 0 || bad != 0;
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "-"))
		return objdump();
	return table();
}
