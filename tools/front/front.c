/* SPDX-License-Identifier: MIT */
/*
 * sysgate [OPTIONS] [--] PROG [ARGS...]: the command as users start it.
 *
 * A plain run (trace, -c, -f, -e, -o FILE, the mechanisms that run in
 * the program) is all done here, by run.c, with no libc: a static libc's
 * start (its CPUID probes, its relocation, its pages) cost this command
 * more than everything else it does (doc/benchmarks.md).  Everything
 * else -- help and lists, sysgate bench/hot/bypass, -p, --hook, -m
 * ptrace, -o |CMD, -u (a user's ids and groups are libc's NSS to look
 * up), sysgate under sysgate, and any command line the options parser
 * refuses -- goes whole to sysgate-dl, the CLI with libc
 * (tools/sysgate/main.c), which says the same things for the same input.
 */
#include "sg.h"
#include "options.h"
#include "run.h"

extern const char __ehdr_start[];

static void __attribute__((noreturn)) whole_cli(char **argv)
{
	const char *cli = sg_cli_installed("sysgate-dl");
	long r = sg_sc3(SG_NR_execve, (long)cli, (long)argv,
			(long)sg_cli_envp);
	char e[256];

	sg_strjoin(e, sizeof(e), ": ", sysgate_strerror(-r), "");
	sg_cli_die("cannot run sysgate-dl", e);
}

/* What this command leaves to sysgate-dl. */
static int for_whole_cli(const struct sg_options *o, int argc, int prog_i)
{
	return o->help || o->version || o->list_syscalls ||
	       o->list_mechanisms || o->attach || o->nhooks || o->hot ||
	       o->user ||
	       prog_i >= argc || !sg_strcmp(o->mechanism, "ptrace") ||
	       (o->outfile && (o->outfile[0] == '|' || o->outfile[0] == '!'));
}

void __attribute__((noreturn)) sg_front_main(long *sp)
{
	static struct sg_options o;
	struct sg_run st = { 0 };
	int argc = (int)sp[0], child, status = 0, stopped;
	char **argv = (char **)(sp + 1);

	unsigned long hwcap2 = 0, *aux;

	sg_cli_envp = argv + argc + 1;
	for (aux = (unsigned long *)sg_cli_envp; *aux; aux++)
		;
	for (aux++; aux[0]; aux += 2)
		if (aux[0] == 26 /* AT_HWCAP2 */)
			hwcap2 = aux[1];
		else if (aux[0] == 31 /* AT_EXECFN */)
			sg_cli_execfn = (const char *)aux[1];
	sg_tls_start_static(__ehdr_start);
	if (argc > 1 && (!sg_strcmp(argv[1], "bench") ||
			 !sg_strcmp(argv[1], "hot") ||
			 !sg_strcmp(argv[1], "bypass")))
		whole_cli(argv);
	if (sg_options_parse(&o, argc - 1, argv + 1))
		whole_cli(argv);
	st.prog_i = 1 + o.nwords;
	if (for_whole_cli(&o, argc, st.prog_i) || sg_cli_under_sysgate(hwcap2))
		whole_cli(argv);
	sg_cli_check_summary_options(&o);
	sg_cli_check_start(&o, &st, argv, 0);
	sg_cli_prepare(&o, &st, argv);
	child = sg_cli_start_program(&st, argc, argv);
	stopped = sg_cli_wait_tree(&o, child, &status);
	if (o.count && st.state)
		sg_cli_print_summary(&o, st.state, -1);
	if (st.state)
		sg_cli_output_error(&o, st.state);
	sg_sc1(SG_NR_exit_group,
	       stopped ? sg_cli_die_by(stopped) :
			 sg_cli_exit_as_program(&o, child, status));
	__builtin_unreachable();
}
