/* SPDX-License-Identifier: MIT */
/*
 * count: strace -c.  Every process of the tree adds its calls, errors and
 * wall-clock time per syscall into one shared table; the CLI prints the
 * summary when the whole tree has ended (or, without the CLI, the root
 * process prints it when it exits).  Written only against sysgate.h.
 */
#include "sysgate.h"
#include "count.h"
#include "../lib/args.h"
#include "../lib/fmt.h"
#include "../lib/sets.h"

static struct count_table *table;
static struct count_table local;	/* if no shared memory */
static char sortby[16];
static int json;
static struct sysgate_ctx *self;
static long nr_execve, nr_execveat, nr_rt_sigreturn;

static int count_init(struct sysgate_ctx *ctx, const char *args)
{
	struct sc_set set;
	char err[160];
	struct arg a;
	int have_set = 0;

	self = ctx;
	while (args_next(&args, &a)) {
		if (arg_is(&a, "trace") && a.val) {
			if (set_parse(&set, a.val, a.vlen, err, sizeof(err)))
				return sysgate_error(ctx, err);
			have_set = 1;
		} else if (arg_is(&a, "S") && a.val) {
			static const char *const keys[] = { COUNT_SORT_KEYS };
			unsigned int i;

			for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
				if (hk_strlen(keys[i]) == a.vlen &&
				    !hk_strncmp(keys[i], a.val, a.vlen))
					break;
			if (i == sizeof(keys) / sizeof(keys[0]))
				return sysgate_error(ctx, "invalid -S sort key "
							  "(time, calls, errors, "
							  "name, nothing)");
			hk_memcpy(sortby, keys[i], hk_strlen(keys[i]) + 1);
		} else if (arg_is(&a, "json")) {
			json = 1;
		} else {
			return sysgate_error(ctx, "count: unknown argument");
		}
	}
	if (have_set)
		set_select(ctx, &set);
	else
		sysgate_select_all(ctx);
	nr_execve = sysgate_syscall_number("execve");
	nr_execveat = sysgate_syscall_number("execveat");
	nr_rt_sigreturn = sysgate_syscall_number("rt_sigreturn");
	table = sysgate_shared(ctx, "table", sizeof(*table));
	if (!table)
		table = &local;
	return 0;
}

static enum sysgate_verdict count_enter(struct sysgate_sys *s, void *data)
{
	(void)data;
	/* Calls that come back elsewhere are counted on the way in; exit and
	 * exit_group never come back and, as in strace -c, are not counted. */
	if (s->nr == nr_rt_sigreturn || s->nr == nr_execve ||
	    s->nr == nr_execveat)
		__atomic_add_fetch(&table->calls[s->nr], 1, __ATOMIC_RELAXED);
	return SYSGATE_RUN;
}

static void count_exit(struct sysgate_sys *s, void *data)
{
	unsigned long long now;

	(void)data;
	if ((s->flags & SYSGATE_SYS_CHILD) || s->nr < 0 ||
	    s->nr >= SYSGATE_NR_MAX)
		return;
	now = sysgate_now_ns();
	if (s->nr != nr_execve && s->nr != nr_execveat)
		__atomic_add_fetch(&table->calls[s->nr], 1, __ATOMIC_RELAXED);
	if (sysgate_is_error(s->ret))
		__atomic_add_fetch(&table->errors[s->nr], 1, __ATOMIC_RELAXED);
	if (s->enter_ns && now > s->enter_ns)
		__atomic_add_fetch(&table->ns[s->nr], now - s->enter_ns,
				   __ATOMIC_RELAXED);
}

static void count_fini(void *data)
{
	static char buf[SYSGATE_NR_MAX * 80 + 512];

	(void)data;
	if (!sysgate_report_here())
		return;
	sysgate_output(self, buf,
		       count_summary(table, sortby[0] ? sortby : 0, json, buf,
				     sizeof(buf)));
}

const struct sysgate_hook sg_builtin_count = {
	.abi = SYSGATE_HOOK_ABI,
	.flags = SYSGATE_HOOK_NOFPU | SYSGATE_HOOK_TIMED,
	.name = "count",
	.init = count_init,
	.enter = count_enter,
	.exit = count_exit,
	.fini = count_fini,
};
