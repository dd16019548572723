/* SPDX-License-Identifier: MIT */
/*
 * -m zeropage: a member of the patch family in which sites proven not to
 * use their red zone become `call *%rax` into page 0 (the arch part is
 * zeropage-<arch>.c, or zeropage-none.c where the technique does not
 * exist).
 */
#include "sg.h"
#include "options.h"
#include "mech.h"
#include "patch.h"
#include "zeropage.h"

/* Page 0 would be readable: refused unless --zeropage-readable-null. */
static int zero_check(const struct sg_options *o, const char **why)
{
	return sg_zeropage_check(o->zeropage_readable_null, why);
}

static int zero_start(const struct sg_options *o)
{
	static const struct sg_patch_mode mode = {
		.name = "zeropage", .zero = 1,
	};

	return sg_patch_start(o, &mode);
}

const struct sg_mechanism sg_mech_zeropage = {
	.name = "zeropage",
	.summary = "syscall -> call *%rax into an execute-only page 0 (zpoline)",
	.probe = sg_zeropage_probe,
	.check = zero_check,
	.start = zero_start,
	SG_PATCH_FAMILY_OPS,
};
