/* SPDX-License-Identifier: MIT */
/*
 * clobber.c with enter() alone: the lean path calls such a hook's enter()
 * straight from its stack switch (core/dispatch.c), a hook with exit()
 * through a wrapper; both keep the program's FPU state around it.
 */
#define CLOBBER_ENTER_ONLY
#include "clobber.c"
