/* SPDX-License-Identifier: MIT */
/* The installed loader's program headers (tools/loader/stubify.c). */
#ifndef SG_LOADER_STUB_H
#define SG_LOADER_STUB_H

/* The loader's own segments, which the kernel leaves to stub.c (an
 * OS-specific program header type: the kernel skips it). */
#define PT_SG_LOAD 0x6f534701

#endif
