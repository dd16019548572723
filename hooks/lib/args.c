/* SPDX-License-Identifier: MIT */
#include "args.h"
#include "fmt.h"

int args_next(const char **cursor, struct arg *a)
{
	const char *p = *cursor, *end, *eq;

	while (*p == '\x1f')
		p++;
	if (!*p)
		return 0;
	end = p;
	while (*end && *end != '\x1f')
		end++;
	for (eq = p; eq < end && *eq != '='; eq++)
		;
	a->key = p;
	a->klen = eq - p;
	a->val = eq < end ? eq + 1 : 0;
	a->vlen = eq < end ? (size_t)(end - eq - 1) : 0;
	*cursor = end;
	return 1;
}

int arg_is(const struct arg *a, const char *key)
{
	return a->klen == hk_strlen(key) && !hk_strncmp(a->key, key, a->klen);
}
