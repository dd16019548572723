/* SPDX-License-Identifier: MIT */
/* libsysgate.so starts sysgate from its constructor, before main(). */
#include "sg.h"

__attribute__((constructor(101))) static void sysgate_preload(void)
{
	sg_init();
}
