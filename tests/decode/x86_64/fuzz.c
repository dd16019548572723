// SPDX-License-Identifier: MIT
/*
 * fuzz - x86_decode on random bytes must never read past avail, never
 * report more than avail, and give the same answer for any avail that
 * covers the instruction (a truncated instruction is refused, not guessed).
 *
 * The bytes sit at the very end of a page followed by an inaccessible one,
 * so a read past avail crashes the test.  Inputs are biased towards
 * prefixes and escape bytes so the deep paths get exercised.
 *
 * usage: fuzz [iterations] [seed]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "decode.h"

static unsigned long long state;

static unsigned rnd(void)
{
	state ^= state << 13;
	state ^= state >> 7;
	state ^= state << 17;
	return (unsigned)(state >> 11);
}

static const unsigned char interesting[] = {
	0x66, 0x67, 0xf2, 0xf3, 0xf0, 0x2e, 0x3e, 0x64, 0x65, 0x40, 0x41,
	0x48, 0x4c, 0x0f, 0x38, 0x3a, 0xc4, 0xc5, 0x62, 0x8f, 0xff, 0xf6,
	0xf7, 0xc6, 0xc7, 0xa0, 0xa1, 0xb8, 0xe8, 0xe9, 0x05, 0x04, 0x25,
	0x44, 0x84, 0x80, 0x9b, 0xcd, 0x78, 0x0f,
};

int main(int argc, char **argv)
{
	unsigned long iters = argc > 1 ? strtoul(argv[1], NULL, 0) : 2000000;
	long pg = sysconf(_SC_PAGESIZE);
	unsigned char *map, *page_end;
	unsigned long failures = 0, decoded = 0;

	state = argc > 2 ? strtoull(argv[2], NULL, 0) : 0x5eed5eed1234ULL;
	map = mmap(NULL, 2 * pg, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (map == MAP_FAILED || mprotect(map + pg, pg, PROT_NONE)) {
		perror("mmap");
		return 1;
	}
	page_end = map + pg;

	for (unsigned long it = 0; it < iters; it++) {
		unsigned char b[15];
		struct x86_insn ref, in;
		int full;

		for (int i = 0; i < 15; i++)
			b[i] = (rnd() & 3) ? (unsigned char)rnd() :
			       interesting[rnd() % sizeof(interesting)];
		full = x86_decode(b, 15, &ref);
		decoded += full > 0;
		for (unsigned long avail = 0; avail <= 15; avail++) {
			unsigned char *p = page_end - avail;
			int r;

			memcpy(p, b, avail);
			r = x86_decode(p, avail, &in);
			if (r < 0 || (unsigned long)r > avail || r != in.len ||
			    in.rel_off + in.rel_size > in.len ||
			    (avail >= (unsigned long)full && full &&
			     memcmp(&in, &ref, sizeof(in))) ||
			    (avail < (unsigned long)full && r) || (!full && r)) {
				if (++failures <= 20) {
					printf("FAIL avail %lu got %d (full %d):",
					       avail, r, full);
					for (int i = 0; i < 15; i++)
						printf(" %02x", b[i]);
					printf("\n");
				}
			}
		}
	}
	printf("%lu random inputs x 16 avail, %lu decodable, %lu failures\n",
	       iters, decoded, failures);
	return failures ? 1 : 0;
}
