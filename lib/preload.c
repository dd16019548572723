/* SPDX-License-Identifier: MIT */
/* libsysgate.so starts sysgate from its constructor, before main(), with
 * the mechanisms and built-in hooks this library was composed of. */
#include "sg.h"
#include "registry.h"

__attribute__((constructor(101))) static void sysgate_preload(void)
{
	sg_init(&sg_registry);
}
