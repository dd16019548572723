/* SPDX-License-Identifier: MIT */
/*
 * The zero-page mechanism (-m zeropage, the zpoline technique): a member
 * of the patch family (mechanisms/patch/patch.c plans, places stubs and
 * writes sites) in which a site proven not to use its red zone has its
 * 2-byte `syscall` replaced by `call *%rax`.  The call lands in page 0
 * (rax is the system call number), runs down a sled to an entry that finds
 * the site's stub from the return address.
 *
 * This header is the arch part's interface: zeropage-<arch>.c where the
 * technique exists, zeropage-none.c (refuses) elsewhere.
 */
#ifndef SG_ZEROPAGE_H
#define SG_ZEROPAGE_H

#include "sg.h"

/* 0 if page 0 can be mapped here, else -1 and one line saying why. */
int sg_zeropage_probe(const char **why) SG_HIDDEN;
/* Would page 0 be readable (no execute-only memory here)?  Then -1 and
 * why, unless readable_ok.  Maps page 0 for a moment. */
int sg_zeropage_check(int readable_ok, const char **why) SG_HIDDEN;
/* Map page 0 (sled, entry) and the stub table.  Refuses (-1, why) when
 * page 0 would stay readable, unless readable_ok. */
int sg_zeropage_setup(int readable_ok, const char **why) SG_HIDDEN;
/* Page 0 could not be made execute-only (reads through NULL succeed). */
int sg_zeropage_readable(void) SG_HIDDEN;
/* A stub at `stub` serves calls that return to `ret`: returns where the
 * stub goes when the return address is another one (the stub that was
 * there before, or the bad-call path).  Pending until sg_zeropage_commit. */
unsigned long sg_zeropage_add(unsigned long ret, unsigned long stub) SG_HIDDEN;
/* The stubs added are executable: make page 0 find them (before any
 * site is written). */
void sg_zeropage_commit(void) SG_HIDDEN;

#endif
