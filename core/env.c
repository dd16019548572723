/* SPDX-License-Identifier: MIT */
/*
 * The environment a followed program inherits: libsysgate in LD_PRELOAD,
 * SYSGATE_OPTIONS, SYSGATE_OUT and SYSGATE_STATE (the descriptors it
 * inherits, core/output.c), and SYSGATE_CARRY_<hook> variables that
 * hand hook state (sysgate_exec_carry) to the same hook in the new program.
 */
#include "sg.h"
#include "env.h"
#include "options.h"

#define SG_MAX_CARRY (32 * 1024)

#define SELF_MAX 512
#define OPTS_MAX 4096
#define START_VAL_MAX 4096

/* The variables that start one sysgate's tree, as this process got them:
 * a program that sets others is starting a sysgate of its own. */
static const char *const start_vars[] = {
	"SYSGATE_OPTIONS=", "SYSGATE_STATE=", "SYSGATE_ROOT=",
};

/* This library's path, the options children get and the start values,
 * one after another: a few dozen bytes in all, on one page, not a page
 * written for each. */
static char store[SELF_MAX + OPTS_MAX +
		  ARRAY_SIZE(start_vars) * START_VAL_MAX];
static const char *self_path = "", *options = "";
static const char *start_vals[ARRAY_SIZE(start_vars)];
static int start_set[ARRAY_SIZE(start_vars)];

/* s (at most max - 1 bytes of it) at store + *used */
static const char *keep(size_t *used, const char *s, size_t max)
{
	char *d = store + *used;
	size_t n = sg_strlcpy(d, s ? s : "", max);

	*used += (n < max ? n : max - 1) + 1;
	return d;
}

void sg_env_init(const char *path, const char *opts,
		 const char *const start[3])
{
	size_t used = 0;
	unsigned int i;

	self_path = keep(&used, path, SELF_MAX);
	options = keep(&used, opts, OPTS_MAX);
	for (i = 0; i < ARRAY_SIZE(start_vars); i++) {
		start_set[i] = start && start[i];
		start_vals[i] = keep(&used, start ? start[i] : 0,
				     START_VAL_MAX);
	}
}

static const char *base_name(const char *s, size_t len, size_t *blen)
{
	size_t i = len;

	while (i && s[i - 1] != '/')
		i--;
	*blen = len - i;
	return s + i;
}

int sg_env_is_self(const char *s, size_t len)
{
	size_t a, b;
	const char *x = base_name(s, len, &a);
	const char *y = base_name(self_path, sg_strlen(self_path), &b);

	if (len == sg_strlen(self_path) && !sg_strncmp(s, self_path, len))
		return 1;
	/* -m preload's wrappers need libsysgate.so before them. */
	if (a == 21 && !sg_strncmp(x, "libsysgate-preload.so", a))
		return 1;
	/* Same file name: another build of sysgate must not stack on us. */
	return a == b && b && !sg_strncmp(x, y, a);
}

static char *append(char **cur, const char *a, size_t alen)
{
	char *s = *cur;

	memcpy(s, a, alen);
	*cur = s + alen;
	return s;
}

char *sg_env_preload(char **cur, const char *old, size_t oldlen)
{
	char *s = *cur;

	append(cur, "LD_PRELOAD=", 11);
	append(cur, self_path, sg_strlen(self_path));
	if (sg.opts && sg.opts->mechanism &&
	    !sg_strcmp(sg.opts->mechanism, "preload")) {
		size_t dir;

		base_name(self_path, sg_strlen(self_path), &dir);
		dir = sg_strlen(self_path) - dir;
		append(cur, ":", 1);
		append(cur, self_path, dir);
		append(cur, "libsysgate-preload.so", 21);
	}
	if (oldlen) {
		append(cur, ":", 1);
		append(cur, old, oldlen);
	}
	append(cur, "", 1);
	return s;
}

static char *put(char **cur, const char *name, const char *val)
{
	char *s = *cur;

	append(cur, name, sg_strlen(name));
	append(cur, "=", 1);
	append(cur, val, sg_strlen(val) + 1);
	return s;
}

/* NAME=fd:N, for a descriptor the new program inherits */
char *sg_env_put_fd(char **cur, const char *name, int fd)
{
	char num[24], val[32];

	val[0] = 'f';
	val[1] = 'd';
	val[2] = ':';
	sg_strlcpy(val + 3, sg_utoa(num + sizeof(num), fd), sizeof(val) - 3);
	return put(cur, name, val);
}

unsigned long sg_env_extra_size(void)
{
	unsigned long n = SELF_MAX + OPTS_MAX + 64 + 64 + 64;
	int i;

	for (i = 0; i < sg.nhooks; i++)
		n += 64 + 2 * sg.hooks[i]->carry_len;
	return n + 256;
}

/* SYSGATE_CPU=SIZE:MASK in hex: the FPU probe's answer (core/init.c) */
static char *put_fpu(char **cur)
{
	char a[24], b[24], val[48];

	sg_strjoin(val, sizeof(val), sg_xtoa(a + sizeof(a), sg.fpu_size), ":",
		   sg_xtoa(b + sizeof(b), sg.fpu_mask));
	return put(cur, "SYSGATE_CPU", val);
}

unsigned long sg_env_add_ours(char **env, unsigned long k, char **cur,
			      long state_fd)
{
	static const char hex[] = "0123456789abcdef";
	int i;

	env[k++] = put(cur, "SYSGATE_OPTIONS", options);
	if (sg_output_fd() > 2)
		env[k++] = sg_env_put_fd(cur, "SYSGATE_OUT", sg_output_fd());
	if (state_fd > 2)
		env[k++] = sg_env_put_fd(cur, "SYSGATE_STATE", state_fd);
	if (sg.fpu_size)
		env[k++] = put_fpu(cur);
	for (i = 0; i < sg.nhooks; i++) {
		struct sysgate_ctx *h = sg.hooks[i];
		const unsigned char *d = (const unsigned char *)h->carry;
		char *s = *cur;
		unsigned long j;

		if (!h->carry_len)
			continue;
		append(cur, "SYSGATE_CARRY_", 14);
		append(cur, h->env_name, sg_strlen(h->env_name));
		append(cur, "=", 1);
		for (j = 0; j < h->carry_len; j++) {
			char two[2] = { hex[d[j] >> 4], hex[d[j] & 15] };

			append(cur, two, 2);
		}
		append(cur, "", 1);
		env[k++] = s;
	}
	return k;
}

void sg_env_exec_failed(void)
{
	int i;

	for (i = 0; i < sg.nhooks; i++)
		sg.hooks[i]->carry_len = 0;
}

int sysgate_exec_carry(struct sysgate_ctx *ctx, const void *data, size_t len)
{
	if (len > SG_MAX_CARRY)
		return -7;	/* E2BIG */
	if (!ctx->carry) {
		ctx->carry = sg_mmap(SG_MAX_CARRY);
		if (!ctx->carry)
			return -12;
	}
	memcpy(ctx->carry, data, len);
	ctx->carry_len = len;
	return 0;
}

long sysgate_exec_carried(struct sysgate_ctx *ctx, void *buf, size_t len)
{
	if (!ctx->carried)
		return -2;	/* ENOENT */
	if (len > ctx->carried_len)
		len = ctx->carried_len;
	memcpy(buf, ctx->carried, len);
	return ctx->carried_len;
}

int sg_env_is_start_var(const char *var)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(start_vars); i++)
		if (!sg_strncmp(var, start_vars[i], sg_strlen(start_vars[i])))
			return 1;
	return 0;
}

int sg_env_is_foreign(const char *var)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(start_vars); i++) {
		size_t n = sg_strlen(start_vars[i]);

		if (!sg_strncmp(var, start_vars[i], n))
			return !start_set[i] || sg_strcmp(var + n, start_vals[i]);
	}
	return 0;
}

int sg_env_is_internal(const char *var)
{
	static const char *const ours[] = {
		"OPTIONS=", "STATE=", "ROOT=", "CLI=", "OUT=", "EXEC_FD=",
		"SECCOMP=", "PASSIVE=", "CARRY_", "DETACH=", "CPU=", "SIG=",
	};
	unsigned int i;

	if (sg_strncmp(var, "SYSGATE_", 8))
		return 0;
	for (i = 0; i < ARRAY_SIZE(ours); i++)
		if (!sg_strncmp(var + 8, ours[i], sg_strlen(ours[i])))
			return 1;
	return 0;
}

/* A descriptor number written out in full ("12"), or -1 */
long sg_env_fd_number(const char *p)
{
	long n = 0;

	if (!*p)
		return -1;
	for (; *p; p++) {
		if (*p < '0' || *p > '9' || n > 1 << 20)
			return -1;
		n = n * 10 + (*p - '0');
	}
	return n;
}

/* A descriptor handed down in a variable: "fd:N" -> N, or -1 */
long sg_env_fd(const char *v)
{
	if (!v || sg_strncmp(v, "fd:", 3))
		return -1;
	return sg_env_fd_number(v + 3);
}

/* sysgate-loader, installed beside libsysgate.so. */
const char *sg_env_loader(char *buf, unsigned long size)
{
	size_t n;

	base_name(self_path, sg_strlen(self_path), &n);
	n = sg_strlen(self_path) - n;
	if (n + 16 > size)
		return 0;
	memcpy(buf, self_path, n);
	sg_strlcpy(buf + n, "sysgate-loader", size - n);
	return buf;
}
