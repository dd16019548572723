/* SPDX-License-Identifier: MIT */
/*
 * far.c LIB near|far: load LIB (a getppid site of its own) with dlopen,
 * after reserving 16 GiB of address space first when asked for "far", so
 * that the library lands beyond any pc-relative reach of libc and
 * libsysgate.so.  Prints where it landed relative to libc and what its
 * getppid returned (4242 under `-e inject=getppid:retval=4242`).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define RESERVE (16UL << 30)
#define REACH (2UL << 30)

int main(int argc, char **argv)
{
	long (*fn)(void);
	void *h;
	unsigned long lib, libc, dist;

	if (argc != 3 || (strcmp(argv[2], "near") && strcmp(argv[2], "far"))) {
		fprintf(stderr, "usage: far LIB near|far\n");
		return 2;
	}
	if (!strcmp(argv[2], "far") &&
	    mmap(0, RESERVE, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS |
		 MAP_NORESERVE, -1, 0) == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	h = dlopen(argv[1], RTLD_NOW);
	fn = h ? (long (*)(void))dlsym(h, "far_getppid") : 0;
	if (!fn) {
		fprintf(stderr, "%s\n", dlerror());
		return 1;
	}
	lib = (unsigned long)fn;
	libc = (unsigned long)dlsym(RTLD_DEFAULT, "getppid");
	dist = lib > libc ? lib - libc : libc - lib;
	printf("%s from libc\n", dist > REACH ? "far" : "near");
	printf("far_getppid %ld\n", fn());
	return 0;
}
