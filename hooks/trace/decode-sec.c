/* SPDX-License-Identifier: MIT */
/* Security interfaces: Landlock rulesets and rules, kernel keys. */
#include <linux/landlock.h>
#include "trace.h"

/* A key or keyring by its serial number: KEY_SPEC_* by name */
static void a_key_serial(struct call *c, int i)
{
	int id = (int)c->s->args[i];
	const char *name = xlat_name(&xl_key_spec, (unsigned long)(long)id);

	a_sep(c);
	if (name)
		p_named(c->f, name, (unsigned long)(long)id, 'd');
	else
		fmt_dec(c->f, id);
}

static void d_add_key(struct call *c)
{
	a_string(c, c->s->args[0]);
	a_string(c, c->s->args[1]);
	a_sep(c);
	p_data(c->f, c->s, c->s->args[2], c->s->args[3], 0);
	a_udec(c, c->s->args[3]);
	a_key_serial(c, 4);
}

static void d_request_key(struct call *c)
{
	a_string(c, c->s->args[0]);
	a_string(c, c->s->args[1]);
	a_string(c, c->s->args[2]);
	a_key_serial(c, 3);
}

/* {handled_access_fs=...} when size covers it, ", ..." after it when
 * the caller's structure is larger than the one strace knows. */
static void d_landlock_create_ruleset(struct call *c)
{
	unsigned long p = c->s->args[0], size = c->s->args[1];
	unsigned long long access;

	a_sep(c);
	if (size < sizeof(access))
		p_ptr(c->f, p);
	else if (!fetch(c->f, c->s, &access, p, sizeof(access))) {
		fmt_str(c->f, "{handled_access_fs=");
		p_flags_unknown(c->f, access, &xl_landlock_access_fs,
				"LANDLOCK_ACCESS_FS_???");
		if (size > sizeof(access))
			fmt_str(c->f, ", ...");
		fmt_chr(c->f, '}');
	}
	a_udec(c, size);
	a_int_flags(c, (unsigned int)c->s->args[2],
		    &xl_landlock_ruleset_flags,
		    "LANDLOCK_CREATE_RULESET_???");
}

/* A ruleset's descriptor, or (asked with the VERSION flag) the ABI
 * version, a plain number. */
static void r_landlock_create_ruleset(struct call *c)
{
	fmt_dec(c->f, c->s->ret);
	if (!(c->s->args[2] & LANDLOCK_CREATE_RULESET_VERSION))
		p_fdpath_now(c->f, c->s, (int)c->s->ret);
}

static void d_landlock_add_rule(struct call *c)
{
	unsigned int type = (unsigned int)c->s->args[1];
	unsigned long p = c->s->args[2];
	/* (packed in the uapi: 12 bytes) */
	struct landlock_path_beneath_attr a;

	a_fd(c, 0);
	a_xlat(c, type, &xl_landlock_rule_types, "LANDLOCK_RULE_???");
	a_sep(c);
	if (type != LANDLOCK_RULE_PATH_BENEATH)
		p_ptr(c->f, p);
	else if (!fetch(c->f, c->s, &a, p, sizeof(a))) {
		fmt_str(c->f, "{allowed_access=");
		p_flags_unknown(c->f, a.allowed_access,
				&xl_landlock_access_fs,
				"LANDLOCK_ACCESS_FS_???");
		f_dec(c->f, ", parent_fd=", a.parent_fd);
		p_fdpath(c->f, c->s, a.parent_fd);
		fmt_chr(c->f, '}');
	}
	a_hex(c, (unsigned int)c->s->args[3]);
}

const struct decoder dec_sec[] = {
	{ "add_key", d_add_key, 0, 0 },
	{ "request_key", d_request_key, 0, 0 },
	{ "landlock_create_ruleset", d_landlock_create_ruleset,
	  r_landlock_create_ruleset, 0 },
	{ "landlock_add_rule", d_landlock_add_rule, 0, 0 },
	{ 0, 0, 0, 0 },
};
