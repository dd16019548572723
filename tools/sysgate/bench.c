/* SPDX-License-Identifier: MIT */
/*
 * sysgate bench [--json] [--quick] [--plot FILE.png] [--suite=mechanisms]
 * sysgate bench --suite=bypass [--json] [--quick]
 *
 * Everything is measured in one run, as ratios against native in the same
 * run, because the machines are shared and noisy:
 *   - getppid in a tight loop: native; hooked and answered by a hook
 *     (emulate: -e inject=getppid:retval=N); hooked and passed to the
 *     kernel (pass: the null example hook).  Configurations are
 *     interleaved over several rounds; each figure is the median of the
 *     per-process medians.  A mechanism whose probe fails here (zeropage
 *     without vm.mmap_min_addr=0: bench never changes sysctls) is
 *     skipped, and the output says why;
 *   - start-up of /bin/true, python3 -c pass, java -version, node -e 0
 *     and clang --version (those installed), natively and as users run
 *     it, `sysgate -f -e trace=none` and `sysgate -f -c` (which patches
 *     every site), interleaved.  No plan is kept between runs: every run is a first
 *     run (cold), so there is no warm figure to show apart;
 *   - what planning cost in those -c runs (--stats): per MiB of text read
 *     and per syscall site;
 *   - extra resident memory of a glibc-only program under the patch
 *     mechanism.
 * No figure here is a pass/fail threshold: targets are read off the JSON.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "sg.h"
#include "cli.h"
#include "registry.h"
#include "fpu_arch.h"

struct cfg {
	const char *name;
	const char *options;	/* SYSGATE_OPTIONS, NULL for native */
	const char *hook;	/* appended --hook=... if set */
	int slow;		/* signal-based: 1/100 of the calls; ptrace
				   (2): 1/1000 */
};

/* Mechanisms measured side by side: emulate and pass configurations. */
static const char *const mech_names[] = { "patch", "preload", "sud",
					  "seccomp", "int3", "ptrace",
					  "zeropage" };
#define NMECH 7

static char dir[PATH_MAX];	/* directory of this executable */
static int quick;
static int quiet;		/* the programs' stderr to /dev/null */
static int via_cli;		/* start through the sysgate command */

static unsigned long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static int cmpd(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
	qsort(v, n, sizeof(*v), cmpd);
	return n ? v[n / 2] : 0;
}

/* Run argv with (or without) sysgate; capture the first line of stdout. */
static int run(char *const argv[], const char *options, char *out, size_t n)
{
	int pfd[2], st;
	pid_t pid;
	ssize_t r;

	if (pipe(pfd) < 0)
		return -1;
	pid = fork();
	if (pid == 0) {
		char lib[2 * PATH_MAX + 64], opt[4096];

		dup2(pfd[1], 1);
		close(pfd[0]);
		close(pfd[1]);
		if (quiet && freopen("/dev/null", "w", stderr) == 0)
			_exit(127);
		if (options && (strstr(options, "-m ptrace") ||
				strstr(options, "-m seccomp") || via_cli)) {
			/* the tracer is the CLI, and -m seccomp needs it to
			 * start the loader; start-up is measured as users
			 * run it: sysgate OPTIONS -- PROG... */
			char cli[PATH_MAX + 16], *cargv[64], *save, *w;
			int k = 0, a;

			snprintf(cli, sizeof(cli), "%s/sysgate", dir);
			snprintf(opt, sizeof(opt), "%s", options);
			cargv[k++] = cli;
			for (w = strtok_r(opt, " ", &save); w && k < 48;
			     w = strtok_r(0, " ", &save))
				cargv[k++] = w;
			cargv[k++] = "--";
			for (a = 0; argv[a] && k < 63; a++)
				cargv[k++] = argv[a];
			cargv[k] = 0;
			execv(cli, cargv);
			_exit(127);
		}
		if (options) {
			/* as the CLI does: -m preload adds its wrappers */
			snprintf(lib, sizeof(lib), "%s/libsysgate.so%s%s%s", dir,
				 strstr(options, "-m preload") ? ":" : "",
				 strstr(options, "-m preload") ? dir : "",
				 strstr(options, "-m preload") ?
					 "/libsysgate-preload.so" : "");
			setenv("LD_PRELOAD", lib, 1);
			snprintf(opt, sizeof(opt), "%s", options);
			setenv("SYSGATE_OPTIONS", opt, 1);
		}
		execvp(argv[0], argv);
		_exit(127);
	}
	close(pfd[1]);
	r = read(pfd[0], out, n - 1);
	close(pfd[0]);
	out[r > 0 ? r : 0] = 0;
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -1;
}

/* what: getppid, or jit-getppid (the same call from run-time code) */
static double loop_once(const struct cfg *c, const char *what, long n)
{
	char loop[PATH_MAX + 64], ns[32], out[256], opts[PATH_MAX + 1200];
	char *argv[] = { loop, (char *)what, ns, "5", 0 };
	double med;

	snprintf(loop, sizeof(loop), "%s/sysgate-bench-loop", dir);
	snprintf(ns, sizeof(ns), "%ld", n);
	if (c->options)
		snprintf(opts, sizeof(opts), "%s%s%s/hooks/%s", c->options,
			 c->hook ? " --hook=" : "", c->hook ? dir : "",
			 c->hook ? c->hook : "");
	long result;

	if (run(argv, c->options ? (c->hook ? opts : c->options) : 0, out,
		sizeof(out)) < 0 ||
	    sscanf(out, "%lf %*f %ld", &med, &result) != 2)
		return -1;
	/* An emulating hook answers 4242: anything else means the calls
	 * did not reach it and the figure would be native's. */
	if (((c->options && strstr(c->options, "retval=4242")) ||
	     (c->hook && strstr(c->hook, "=4242"))) && result != 4242) {
		fprintf(stderr, "sysgate bench: %s: the hook did not see the "
				"calls\n", c->name);
		return -1;
	}
	return med;
}

/* Start-up: the programs, each native, -e trace=none and -c (started by
 * sysgate-loader, the default), and the last two with --preload
 * (LD_PRELOAD, blind to ld.so's start-up) instead. */
#define NSTART 5
#define NSTART_OPTS 6
static const char *const start_opts[NSTART_OPTS] = {
	0, "-f -e trace=none -o /dev/null", "-f -c -o /dev/null",
	"--preload -f -e trace=none -o /dev/null",
	"--preload -f -c -o /dev/null",
	/* every object planned at start, as before first-trap planning */
	"--eager -f -c -o /dev/null"
};

/* Memory: the library preloaded into one glibc-only program. */
static const char *const mem_opts[3] = {
	0, "-e trace=none -o /dev/null", "-c -o /dev/null"
};
static const char *const loader_mem_opts[3] = {
	0, "-c -o /dev/null", "--eager -c -o /dev/null"
};

struct start_row {
	const char *key;	/* JSON key */
	char *argv[4];
	int missing;
	double t[NSTART_OPTS][64];
	double med[NSTART_OPTS];
	/* planning, from one --stats run */
	long sites, text_kib, plan_us, lazy;
	long first_sites, first_us;	/* planned at a trap */
	long tree_sites;		/* taken from the tree's plans */
	long traps;			/* calls caught by SIGSYS */
	long whole_us;			/* planned whole: first thread, or
					   calls kept coming */
	long mapped, maps_reads;	/* code mapped after start-up, and
					   the reads of the maps it cost */
};

static double run_ms(char *const argv[], const char *options)
{
	char out[64];
	unsigned long long t0 = now_ns();

	if (run(argv, options, out, sizeof(out)) < 0)
		return -1;
	return (now_ns() - t0) / 1e6;
}

/* Rounds interleave programs and options: load that comes and goes on a
 * shared machine lands on all of them alike. */
static void startup_all(struct start_row *rows, int runs)
{
	int i, k, r;

	for (i = 0; i < NSTART; i++)	/* warm the page cache; installed? */
		rows[i].missing = run_ms(rows[i].argv, 0) < 0;
	for (r = 0; r < runs; r++)
		for (i = 0; i < NSTART; i++)
			for (k = 0; k < NSTART_OPTS && !rows[i].missing; k++)
				rows[i].t[k][r] = run_ms(rows[i].argv,
							 start_opts[k]);
	for (i = 0; i < NSTART; i++)
		for (k = 0; k < NSTART_OPTS && !rows[i].missing; k++)
			rows[i].med[k] = median(rows[i].t[k], runs);
}

/* Planning in one -c run: the --stats lines of every process summed. */
static void planning(struct start_row *w)
{
	char path[] = "/tmp/sysgate-bench-stats-XXXXXX", opts[200], line[512];
	char out[64];
	long sites, objs, lazy, shared, kib, us, reads;
	FILE *f;
	int fd = mkstemp(path);

	if (fd < 0)
		return;
	close(fd);
	snprintf(opts, sizeof(opts), "-f -c --stats -o %s", path);
	if (run(w->argv, opts, out, sizeof(out)) == 0 && (f = fopen(path, "r"))) {
		while (fgets(line, sizeof(line), f))
			if (sscanf(line, "sysgate: planned at their third "
					 "trap: %ld sites, %ld us", &sites,
				   &us) == 2) {
				w->first_sites += sites;
				w->first_us += us;
			} else if (sscanf(line, "sysgate: patched before they "
						"ran, as the tree's earlier "
						"processes planned them: %ld",
					  &sites) == 1) {
				w->tree_sites += sites;
			} else if (sscanf(line, "sysgate: calls caught by "
						"SIGSYS: %ld", &sites) == 1) {
				w->traps += sites;
			} else if (sscanf(line, "sysgate: patch: planned at the "
						"first thread (%ld us", &us) == 1 ||
				   sscanf(line, "sysgate: patch: planned whole, "
						"calls kept coming (%ld us",
					  &us) == 1) {
				w->whole_us += us;
			} else if (sscanf(line, "sysgate: code mapped after "
						"start-up: %ld mappings, looked "
						"at with %ld reads", &sites,
					  &reads) == 2) {
				w->mapped += sites;
				w->maps_reads += reads;
			} else if (sscanf(line, "sysgate: mechanism patch: %ld syscall "
					 "sites in %ld objects (%ld left to "
					 "traps, %ld planned by another "
					 "process), %ld KiB of text read, %ld us",
				   &sites, &objs, &lazy, &shared, &kib,
				   &us) == 6) {
				w->sites += sites;
				w->lazy += lazy;
				w->text_kib += kib;
				w->plan_us += us;
			}
		fclose(f);
	}
	unlink(path);
}

/* VmRSS and private dirty KiB (what it wrote: anonymous and copied on
 * write) of a glibc-only program. */
static long rss(const char *options, long *private_kib)
{
	char loop[PATH_MAX + 64], out[64];
	char *argv[] = { loop, "rss", 0 };
	long all;

	snprintf(loop, sizeof(loop), "%s/sysgate-bench-loop", dir);
	if (run(argv, options, out, sizeof(out)) < 0 ||
	    sscanf(out, "%ld %ld", &all, private_kib) != 2)
		return -1;
	return all;
}

/* The first python3 that has matplotlib (a virtualenv's may not). */
static const char *plot_python(void)
{
	static const char *const cands[] = { "python3", "/usr/bin/python3" };
	char cmd[128];
	unsigned int i;

	for (i = 0; i < sizeof(cands) / sizeof(cands[0]); i++) {
		snprintf(cmd, sizeof(cmd), "%s -c 'import matplotlib' 2>/dev/null",
			 cands[i]);
		if (system(cmd) == 0)
			return cands[i];
	}
	return 0;
}

/* --plot FILE.png: the per-call table as bars on a log axis, with the
 * machine in the title (python3 + matplotlib). */
static int draw(const char *png, double nat, const double *emu,
		const double *pass, const struct utsname *u)
{
	static const char script[] =
		"import sys, matplotlib\n"
		"matplotlib.use('Agg')\n"
		"import matplotlib.pyplot as plt\n"
		"out, title = sys.argv[1], sys.argv[2]\n"
		"rows = [l.split() for l in sys.stdin if l.strip()]\n"
		"names = [r[0] for r in rows]\n"
		"vals = [float(r[1]) for r in rows]\n"
		"fig, ax = plt.subplots(figsize=(8, 4))\n"
		"bars = ax.barh(names, vals, color='steelblue')\n"
		"ax.set_xscale('log')\n"
		"ax.set_xlabel('ns per getppid (log scale)')\n"
		"ax.set_title(title, fontsize=9)\n"
		"for b, v in zip(bars, vals):\n"
		"    ax.text(v, b.get_y() + b.get_height() / 2, ' %.1f' % v,"
		" va='center', fontsize=8)\n"
		"ax.invert_yaxis()\n"
		"fig.tight_layout()\n"
		"fig.savefig(out, dpi=120)\n";
	char cmd[PATH_MAX + 600], title[300], tmp[] = "/tmp/sysgate-plot-XXXXXX";
	FILE *f, *p;
	int fd, m, rc;

	fd = mkstemp(tmp);
	if (fd < 0 || !(f = fdopen(fd, "w")))
		return -1;
	fputs(script, f);
	fclose(f);
	snprintf(title, sizeof(title), "sysgate bench: %s %s, %ld cpus",
		 u->machine, u->release, sysconf(_SC_NPROCESSORS_ONLN));
	snprintf(cmd, sizeof(cmd), "%s %s '%s' '%s'", plot_python(), tmp, png,
		 title);
	p = popen(cmd, "w");
	if (!p) {
		unlink(tmp);
		return -1;
	}
	fprintf(p, "native %f\n", nat);
	for (m = 0; m < NMECH; m++)
		if (emu[m] > 0)
			fprintf(p, "%s-emulate %f\n%s-pass %f\n", mech_names[m], emu[m],
			mech_names[m], pass[m]);
	rc = pclose(p);
	unlink(tmp);
	if (rc != 0) {
		fprintf(stderr, "sysgate bench: could not draw %s\n", png);
		return -1;
	}
	return 0;
}

/* --suite=bypass: Userspace Bypass's I/O micro-benchmark (pread of 1, 4
 * and 64 KiB walking a file in /dev/shm and one on the disk this program
 * lives on, page-cached), native against --bypass=pread in the same run,
 * rounds interleaved; 100-byte appends to a log against --bypass=wlog;
 * getpid against --bypass=ids.  Every bypassed round must read the same
 * bytes (checksums), or leave the same log size, as the native one. */
struct bypass_row {
	const char *key;	/* JSON key */
	int disk;
	long bs;
	int write;		/* appends to a log under --bypass=wlog */
	double nat[16], byp[16];
};

static int make_bench_file(char *path, size_t n, const char *where, long size)
{
	char *buf = malloc(1 << 20);
	long done, i;
	int fd;

	snprintf(path, n, "%s/sysgate-bench-XXXXXX", where);
	fd = mkstemp(path);
	if (fd < 0 || !buf)
		return -1;
	for (done = 0; done < size; done += 1 << 20) {
		for (i = 0; i < 1 << 20; i++)
			buf[i] = (char)((done + i) * 2654435761u >> 13);
		if (write(fd, buf, 1 << 20) != 1 << 20) {
			close(fd);
			return -1;
		}
	}
	free(buf);
	close(fd);
	return 0;
}

/* One run of the loop; ns per call in *ns, the checksum in *sum. */
static int loop_run(char *const argv[], const char *options, double *ns,
		    unsigned long *sum)
{
	char out[256];

	if (run(argv, options, out, sizeof(out)) < 0 ||
	    sscanf(out, "%lf %*f %lu", ns, sum) != 2)
		return -1;
	return 0;
}

static int bench_bypass(int json)
{
	static struct bypass_row rows[] = {
		{ .key = "pread_1k", .bs = 1024 },
		{ .key = "pread_4k", .bs = 4096 },
		{ .key = "pread_64k", .bs = 65536 },
		{ .key = "pread_1k_disk", .disk = 1, .bs = 1024 },
		{ .key = "pread_4k_disk", .disk = 1, .bs = 4096 },
		{ .key = "pread_64k_disk", .disk = 1, .bs = 65536 },
		{ .key = "write_log_100b", .bs = 100, .write = 1 },
		{ .key = "write_log_100b_disk", .disk = 1, .bs = 100,
		  .write = 1 },
	};
	enum { NROWS = sizeof(rows) / sizeof(rows[0]) };
	char shm[PATH_MAX], disk[PATH_MAX], loop[PATH_MAX + 64];
	char slog[PATH_MAX + 64], dlog[PATH_MAX + 64];
	long size = (quick ? 32L : 256L) << 20;
	int rounds = quick ? 3 : 7, r, i, rc = 1;
	double gp_nat[16], gp_byp[16];
	struct utsname u;

	snprintf(loop, sizeof(loop), "%s/sysgate-bench-loop", dir);
	snprintf(slog, sizeof(slog), "/dev/shm/sysgate-bench-%d.log", getpid());
	snprintf(dlog, sizeof(dlog), "%s/sysgate-bench-%d.log", dir, getpid());
	if (make_bench_file(shm, sizeof(shm), "/dev/shm", size) < 0 ||
	    make_bench_file(disk, sizeof(disk), dir, size) < 0) {
		fprintf(stderr, "sysgate bench: cannot make the files\n");
		return 1;
	}
	for (r = 0; r < rounds; r++) {
		char n1[32];
		char *gp[] = { loop, "getpid", n1, "5", 0 };
		unsigned long s1, s2;

		for (i = 0; i < NROWS; i++) {
			struct bypass_row *w = &rows[i];
			char bs[32], n[32];
			char *argv[] = { loop, w->write ? "write" : "pread",
					 w->write ? (w->disk ? dlog : slog) :
					 w->disk ? disk : shm, bs, n, "3", 0 };
			long calls = (quick ? 20L : 100L) << 20;

			snprintf(bs, sizeof(bs), "%ld", w->bs);
			/* about the same bytes per run for each size */
			snprintf(n, sizeof(n), "%ld",
				 calls / (w->bs < 4096 ? 4096 : w->bs));
			if (loop_run(argv, 0, &w->nat[r], &s1) < 0 ||
			    loop_run(argv, w->write ? "--bypass=wlog" :
						      "--bypass=pread",
				     &w->byp[r], &s2) < 0) {
				fprintf(stderr, "sysgate bench: %s run failed\n",
					w->key);
				goto out;
			}
			if (s1 != s2) {
				fprintf(stderr, "sysgate bench: %s: the bypass "
						"read other bytes than the "
						"kernel\n", w->key);
				goto out;
			}
		}
		snprintf(n1, sizeof(n1), "%ld", quick ? 200000L : 2000000L);
		if (loop_run(gp, 0, &gp_nat[r], &s1) < 0 ||
		    loop_run(gp, "--bypass=ids", &gp_byp[r], &s2) < 0) {
			fprintf(stderr, "sysgate bench: getpid run failed\n");
			goto out;
		}
	}
	uname(&u);
	if (json)
		printf("{\"machine\":{\"kernel\":\"%s\",\"arch\":\"%s\","
		       "\"cpus\":%ld},\n \"suite\":\"bypass\",\"file_mib\":%ld,"
		       "\"rounds\":%d,\n", u.release, u.machine,
		       sysconf(_SC_NPROCESSORS_ONLN), size >> 20, rounds);
	else
		printf("machine: %s %s, %ld cpus; files of %ld MiB in /dev/shm "
		       "and %s; median of %d rounds\n"
		       "%-20s %14s %14s %8s\n", u.machine, u.release,
		       sysconf(_SC_NPROCESSORS_ONLN), size >> 20, dir, rounds,
		       "call", "native IOPS", "bypass IOPS", "ratio");
	for (i = 0; i < NROWS; i++) {
		double nat = 1e9 / median(rows[i].nat, rounds);
		double byp = 1e9 / median(rows[i].byp, rounds);

		if (json)
			printf(" \"%s\":{\"native_iops\":%.0f,\"bypass_iops\":"
			       "%.0f,\"ratio\":%.3f},\n", rows[i].key, nat, byp,
			       byp / nat);
		else
			printf("%-20s %14.0f %14.0f %7.2fx\n", rows[i].key, nat,
			       byp, byp / nat);
	}
	{
		double nat = median(gp_nat, rounds), byp = median(gp_byp, rounds);

		if (json)
			printf(" \"getpid\":{\"native_ns\":%.2f,\"bypass_ns\":"
			       "%.2f,\"ratio\":%.3f}}\n", nat, byp, byp / nat);
		else
			printf("getpid ns/call: native %.2f, --bypass=ids %.2f "
			       "(%.3f x)\n", nat, byp, byp / nat);
	}
	rc = 0;
out:
	unlink(shm);
	unlink(disk);
	unlink(slog);
	unlink(dlog);
	return rc;
}

/* What one run of the mechanisms suite measured. */
struct results {
	int rounds;
	long n;			/* calls per round */
	const char *skipped[NMECH];	/* why a mechanism was not run */
	double nat, emu[NMECH], pass[NMECH];	/* medians, ns per call */
	double jmed[3];		/* a JIT site: native, patch, sud */
	double fmed[4];		/* a hook without NOFPU: emulate, pass;
				   then one whose FPU state is saved */
	unsigned long long fpu_mask;
	struct start_row *srows;
	long mem[3], priv[3];	/* KiB: resident, private dirty */
	struct sg_attach_bench attach;	/* sysgate -p (attach_bench.c) */
	long lpriv[3];		/* private dirty, started by the loader:
				   native, -c, --eager -c */
	double emed[2];		/* --eager: patch emulate, pass */
	double tmed[3];		/* the null hook answering, -c, tracing */
	struct utsname u;
};

enum { NCFG = 1 + 2 * NMECH, NJIT = 3, NFPU = 4, NEAGER = 2, NTOOL = 3 };

/* (-qq -e signal=none: not even the trace hook's process events, so
 * the rows measure the mechanism and the one hook alone) */
static const struct cfg cfgs[NCFG] = {
	{ "native", 0, 0, 0 },
	{ "patch emulate", "-e trace=none -qq -e signal=none -e inject=getppid:retval=4242", 0, 0 },
	{ "patch pass", "-e trace=none -qq -e signal=none", "null.so:getppid", 0 },
	{ "preload emulate",
	  "-m preload -e trace=none -qq -e signal=none -e inject=getppid:retval=4242", 0, 0 },
	{ "preload pass", "-m preload -e trace=none -qq -e signal=none", "null.so:getppid", 0 },
	{ "sud emulate", "-m sud -e trace=none -qq -e signal=none -e inject=getppid:retval=4242",
	  0, 1 },
	{ "sud pass", "-m sud -e trace=none -qq -e signal=none", "null.so:getppid", 1 },
	/* --hook needs LD_PRELOAD: seccomp passes with the count
	 * hook, as ptrace does */
	{ "seccomp emulate", "-m seccomp -o /dev/null -e trace=none -qq -e signal=none "
	  "-e inject=getppid:retval=4242", 0, 1 },
	{ "seccomp pass", "-m seccomp -o /dev/null -c -e trace=getppid",
	  0, 1 },
	{ "int3 emulate", "-m int3 -e trace=none -qq -e signal=none -e inject=getppid:retval=4242",
	  0, 1 },
	{ "int3 pass", "-m int3 -e trace=none -qq -e signal=none", "null.so:getppid", 1 },
	/* --hook libraries run in-process, so ptrace passes with the
	 * count hook, which only adds a counter */
	{ "ptrace emulate", "-m ptrace -o /dev/null -e trace=none -qq -e signal=none "
	  "-e inject=getppid:retval=4242", 0, 2 },
	{ "ptrace pass", "-m ptrace -o /dev/null -c -e trace=getppid", 0, 2 },
	/* (the loop reads no NULL: where page 0 cannot be made
	 * execute-only, readable is no different for it) */
	{ "zeropage emulate",
	  "-m zeropage --zeropage-readable-null -e trace=none -qq -e signal=none -e inject=getppid:retval=4242", 0, 0 },
	{ "zeropage pass", "-m zeropage --zeropage-readable-null -e trace=none -qq -e signal=none", "null.so:getppid", 0 },
};
static const struct cfg fpu_cfgs[NFPU] = {
	{ "patch emulate, hook without NOFPU", "-e trace=none -qq -e signal=none",
	  "null-fpu.so:getppid=4242", 0 },
	{ "patch pass, hook without NOFPU", "-e trace=none -qq -e signal=none",
	  "null-fpu.so:getppid", 0 },
	/* null-fpu.so is shown FPU-free and runs as NOFPU: null-save.so's
	 * enter() is behind a pointer, so the program's FPU state is saved */
	{ "patch emulate, FPU saved", "-e trace=none -qq -e signal=none",
	  "null-save.so:getppid=4242", 0 },
	{ "patch pass, FPU saved", "-e trace=none -qq -e signal=none",
	  "null-save.so:getppid", 0 },
};
/* Planned at start: syscall user dispatch stays off once every site of
 * the program is patched (first-trap planning keeps it on for what has
 * not run yet). */
static const struct cfg eager_cfgs[NEAGER] = {
	{ "patch --eager emulate",
	  "--eager -e trace=none -qq -e signal=none -e inject=getppid:retval=4242", 0, 0 },
	{ "patch --eager pass", "--eager -e trace=none -qq -e signal=none",
	  "null.so:getppid", 0 },
};
/* The patch mechanism as users meet it: a hook of their own answering
 * (the null hook, SYSGATE_HOOK_NOFPU; "patch emulate" above is the
 * inject hook), and the CLI counting and tracing every call (started by
 * sysgate-loader, output to /dev/null). */
static const struct cfg tool_cfgs[NTOOL] = {
	{ "patch emulate, null hook", "-e trace=none -qq -e signal=none",
	  "null.so:getppid=4242", 0 },
	{ "-c", "-c -o /dev/null", 0, 0 },
	{ "trace to /dev/null", "-o /dev/null", 0, 0 },
};
static struct start_row srows[NSTART] = {
	{ .key = "true", .argv = { "/bin/true" } },
	{ .key = "python3", .argv = { "python3", "-c", "pass" } },
	{ .key = "java", .argv = { "java", "-version" } },
	{ .key = "node", .argv = { "node", "-e", "0" } },
	{ .key = "clang", .argv = { "clang", "--version" } },
};

/* Run one configuration's loop (0: skipped); -1 if it failed. */
static int measure(const struct cfg *c, const char *what, long n, int skip,
		   double *ns)
{
	*ns = skip ? 0 : loop_once(c, what, n);
	if (*ns < 0) {
		fprintf(stderr, "sysgate bench: %s run failed\n", c->name);
		return -1;
	}
	return 0;
}

/* The getppid loops, interleaved round by round so that a noisy moment
 * hits every configuration alike; medians into r. */
static int measure_loops(struct results *r)
{
	/* a JIT site: native, patch (which patches it after its first
	 * trap) and sud (which traps every call), each passing it on with
	 * the null hook */
	static const int cfg_of[NJIT] = { 0, 2, 6 };
	static const int mech_of[NJIT] = { -1, 0, 2 };
	double res[NCFG][16], jit[NJIT][16], fpu[NFPU][16], eag[NEAGER][16];
	double tool[NTOOL][16];
	int k, i, m;

	for (k = 0; k < r->rounds; k++) {
		for (i = 0; i < NJIT; i++) {
			const struct cfg *c = &cfgs[cfg_of[i]];

			if (measure(c, "jit-getppid", c->slow ? r->n / 100 : r->n,
				    mech_of[i] >= 0 && r->skipped[mech_of[i]],
				    &jit[i][k]) < 0)
				return -1;
		}
		for (i = 0; i < NFPU; i++)
			if (measure(&fpu_cfgs[i], "getppid", r->n,
				    r->skipped[0] != 0, &fpu[i][k]) < 0)
				return -1;
		for (i = 0; i < NEAGER; i++)
			if (measure(&eager_cfgs[i], "getppid", r->n,
				    r->skipped[0] != 0, &eag[i][k]) < 0)
				return -1;
		for (i = 0; i < NTOOL; i++) {
			int rc;

			via_cli = i > 0;	/* -c and tracing: the CLI */
			rc = measure(&tool_cfgs[i], "getppid", r->n,
				     r->skipped[0] != 0, &tool[i][k]);
			via_cli = 0;
			if (rc < 0)
				return -1;
		}
		for (i = 0; i < NCFG; i++)
			if (measure(&cfgs[i], "getppid",
				    cfgs[i].slow == 2 ? r->n / 1000 :
				    cfgs[i].slow ? r->n / 100 : r->n,
				    i && r->skipped[(i - 1) / 2], &res[i][k]) < 0)
				return -1;
	}
	r->nat = median(res[0], r->rounds);
	for (m = 0; m < NMECH; m++) {
		r->emu[m] = median(res[1 + 2 * m], r->rounds);
		r->pass[m] = median(res[2 + 2 * m], r->rounds);
	}
	for (m = 0; m < NJIT; m++)
		r->jmed[m] = median(jit[m], r->rounds);
	for (m = 0; m < NFPU; m++)
		r->fmed[m] = median(fpu[m], r->rounds);
	for (m = 0; m < NEAGER; m++)
		r->emed[m] = median(eag[m], r->rounds);
	for (m = 0; m < NTOOL; m++)
		r->tmed[m] = median(tool[m], r->rounds);
	return 0;
}

/* Start-up of real programs, planning costs and memory. */
static void measure_startup(struct results *r)
{
	int i;

	quiet = via_cli = 1;	/* java -version writes to stderr */
	startup_all(r->srows, quick ? 3 : 15);
	for (i = 0; i < NSTART; i++)
		if (!r->srows[i].missing)
			planning(&r->srows[i]);
	/* the loader (the default start) copies the pages of the sites it
	 * patches: its own figures */
	quiet = 0;
	for (i = 0; i < 3; i++)
		rss(i ? loader_mem_opts[i] : 0, &r->lpriv[i]);
	via_cli = 0;
	for (i = 0; i < 3; i++)
		r->mem[i] = rss(mem_opts[i], &r->priv[i]);
	{
		char cli[PATH_MAX + 16], loop[PATH_MAX + 32];

		snprintf(cli, sizeof(cli), "%s/sysgate", dir);
		snprintf(loop, sizeof(loop), "%s/sysgate-bench-loop", dir);
		sg_bench_attach(&r->attach, cli, loop, quick);
	}
}

static const char *const attach_keys[SG_ATTACH_BENCH_N] = {
	"sysgate_c", "sysgate_ptrace_c", "strace_c"
};

static void report_json(const struct results *r)
{
	int i, m;

	printf("{\"machine\":{\"kernel\":\"%s\",\"arch\":\"%s\","
	       "\"cpus\":%ld},\n", r->u.release, r->u.machine,
	       sysconf(_SC_NPROCESSORS_ONLN));
	printf(" \"native_ns\":%.2f,\n \"mechanisms\":{", r->nat);
	for (m = 0; m < NMECH; m++)
		if (r->skipped[m])
			printf("%s\"%s\":{\"skipped\":\"%s\"}",
			       m ? "," : "", mech_names[m],
			       r->skipped[m]);
		else
			printf("%s\"%s\":{\"emulate_ns\":%.2f,"
			       "\"pass_ns\":%.2f,\"emulate_ratio\":"
			       "%.3f,\"pass_ratio\":%.3f}",
			       m ? "," : "", mech_names[m], r->emu[m],
			       r->pass[m], r->emu[m] / r->nat, r->pass[m] / r->nat);
	printf("},\n");
	printf(" \"jit_site\":{\"native_ns\":%.2f,\"patch_pass_ns\":"
	       "%.2f,\"sud_pass_ns\":%.2f,\"patch_pass_ratio\":%.3f,"
	       "\"sud_pass_ratio\":%.3f},\n", r->jmed[0], r->jmed[1],
	       r->jmed[2], r->jmed[1] / r->jmed[0], r->jmed[2] / r->jmed[0]);
	printf(" \"fpu_hook\":{\"save\":\"%s\",\"emulate_ns\":%.2f,"
	       "\"pass_ns\":%.2f,\"emulate_ratio\":%.3f,"
	       "\"pass_ratio\":%.3f},\n", sg_fpu_method(r->fpu_mask),
	       r->fmed[0], r->fmed[1], r->fmed[0] / r->nat, r->fmed[1] / r->nat);
	printf(" \"fpu_save\":{\"emulate_ns\":%.2f,\"pass_ns\":%.2f,"
	       "\"emulate_ratio\":%.3f,\"pass_ratio\":%.3f},\n",
	       r->fmed[2], r->fmed[3], r->fmed[2] / r->nat, r->fmed[3] / r->nat);
	printf(" \"eager_patch\":{\"emulate_ns\":%.2f,\"pass_ns\":%.2f,"
	       "\"emulate_ratio\":%.3f,\"pass_ratio\":%.3f},\n",
	       r->emed[0], r->emed[1], r->emed[0] / r->nat,
	       r->emed[1] / r->nat);
	printf(" \"tools\":{\"null_emulate_ns\":%.2f,\"count_ns\":%.2f,"
	       "\"trace_ns\":%.2f,\"null_emulate_ratio\":%.3f,"
	       "\"count_ratio\":%.3f,\"trace_ratio\":%.3f},\n",
	       r->tmed[0], r->tmed[1], r->tmed[2], r->tmed[0] / r->nat,
	       r->tmed[1] / r->nat, r->tmed[2] / r->nat);
	printf(" \"startup_ms\":{");
	for (i = 0; i < NSTART; i++) {
		const struct start_row *w = &r->srows[i];

		printf("%s\n  \"%s\":", i ? "," : "", w->key);
		if (w->missing) {
			printf("{\"skipped\":\"not installed\"}");
			continue;
		}
		printf("{\"native\":%.3f,\"trace_none\":%.3f,"
		       "\"count_all\":%.3f,\"trace_none_ratio\":"
		       "%.3f,\"count_all_ratio\":%.3f,"
		       "\"preload_trace_none\":%.3f,"
		       "\"preload_count_all\":%.3f,"
		       "\"preload_trace_none_ratio\":%.3f,"
		       "\"preload_count_all_ratio\":%.3f,"
		       "\"eager_count_all\":%.3f,"
		       "\"eager_count_all_ratio\":%.3f}",
		       w->med[0], w->med[1], w->med[2],
		       w->med[1] / w->med[0],
		       w->med[2] / w->med[0], w->med[3],
		       w->med[4], w->med[3] / w->med[0],
		       w->med[4] / w->med[0], w->med[5],
		       w->med[5] / w->med[0]);
	}
	printf("},\n \"planning\":{");
	for (i = 0; i < NSTART; i++) {
		const struct start_row *w = &r->srows[i];

		if (w->missing)
			continue;
		printf("%s\n  \"%s\":{\"sites\":%ld,\"objects_left_"
		       "to_traps\":%ld,\"text_kib_read\":%ld,"
		       "\"us\":%ld,\"us_per_mib\":%.1f,"
		       "\"us_per_site\":%.2f,\"first_trap_sites\":%ld,"
		       "\"first_trap_us\":%ld,\"tree_sites\":%ld,"
		       "\"sigsys_traps\":%ld,"
		       "\"whole_us\":%ld,\"mapped_later\":%ld,"
		       "\"maps_reads\":%ld}",
		       i ? "," : "",
		       w->key, w->sites, w->lazy, w->text_kib,
		       w->plan_us, w->text_kib ?
		       w->plan_us * 1024.0 / w->text_kib : 0,
		       w->sites ? (double)w->plan_us / w->sites : 0,
		       w->first_sites, w->first_us, w->tree_sites, w->traps,
		       w->whole_us, w->mapped, w->maps_reads);
	}
	printf("},\n");
	printf(" \"memory_kib\":{\"native\":%ld,\"trace_none\":%ld,"
	       "\"count_all\":%ld,\"extra_count_all\":%ld},\n",
	       r->mem[0], r->mem[1], r->mem[2], r->mem[2] - r->mem[0]);
	printf(" \"private_dirty_kib\":{\"native\":%ld,\"trace_none\":%ld,"
	       "\"count_all\":%ld,\"extra_trace_none\":%ld,"
	       "\"extra_count_all\":%ld},\n", r->priv[0], r->priv[1],
	       r->priv[2], r->priv[1] - r->priv[0], r->priv[2] - r->priv[0]);
	printf(" \"attach\":{\"native_calls_per_s\":%.0f", r->attach.native);
	for (i = 0; i < SG_ATTACH_BENCH_N; i++)
		if (r->attach.ratio[i] < 0)
			printf(",\"%s_ratio\":null", attach_keys[i]);
		else
			printf(",\"%s_ratio\":%.3f", attach_keys[i],
			       r->attach.ratio[i]);
	printf("},\n");
	printf(" \"private_dirty_kib_loader\":{\"native\":%ld,"
	       "\"count_all\":%ld,\"eager_count_all\":%ld,"
	       "\"extra_count_all\":%ld,\"extra_eager_count_all\":%ld},\n",
	       r->lpriv[0], r->lpriv[1], r->lpriv[2], r->lpriv[1] - r->lpriv[0],
	       r->lpriv[2] - r->lpriv[0]);
	printf(" \"rounds\":%d,\"calls_per_round\":%ld}\n", r->rounds,
	       r->n);
}

static void report_text(const struct results *r)
{
	int i, m;

	printf("machine: %s %s, %ld cpus\n", r->u.machine, r->u.release,
	       sysconf(_SC_NPROCESSORS_ONLN));
	printf("getppid ns/call (median of %d rounds):\n", r->rounds);
	printf("  native            %10.2f\n", r->nat);
	for (m = 0; m < NMECH; m++) {
		if (r->skipped[m]) {
			printf("  %-8s skipped: %s\n",
			       mech_names[m], r->skipped[m]);
			continue;
		}
		printf("  %-8s emulate  %10.2f  (%.3f x native)\n"
		       "  %-8s pass     %10.2f  (%.3f x native)\n",
		       mech_names[m], r->emu[m], r->emu[m] / r->nat,
		       mech_names[m], r->pass[m], r->pass[m] / r->nat);
	}
	printf("hook without SYSGATE_HOOK_NOFPU (patch; %s): emulate "
	       "%.2f (%.3f x), pass %.2f (%.3f x)\n",
	       sg_fpu_method(r->fpu_mask), r->fmed[0], r->fmed[0] / r->nat,
	       r->fmed[1], r->fmed[1] / r->nat);
	printf("hook whose FPU state is saved (null-save.so): emulate %.2f "
	       "(%.3f x), pass %.2f (%.3f x)\n", r->fmed[2],
	       r->fmed[2] / r->nat, r->fmed[3], r->fmed[3] / r->nat);
	printf("patch, as users run it: null hook (NOFPU) emulate %.2f "
	       "(%.3f x), -c %.2f (%.3f x), traced to /dev/null %.2f "
	       "(%.3f x)\n", r->tmed[0], r->tmed[0] / r->nat, r->tmed[1],
	       r->tmed[1] / r->nat, r->tmed[2], r->tmed[2] / r->nat);
	printf("getppid from run-time code (JIT), ns/call: native "
	       "%.2f, patch pass %.2f (%.3f x; patched after its "
	       "third trap), sud pass %.2f (%.3f x)\n", r->jmed[0],
	       r->jmed[1], r->jmed[1] / r->jmed[0], r->jmed[2],
	       r->jmed[2] / r->jmed[0]);
	printf("start-up ms (median, no plan kept between runs): "
	       "native / -e trace=none / -c; the same with "
	       "--preload\n");
	for (i = 0; i < NSTART; i++) {
		const struct start_row *w = &r->srows[i];

		if (w->missing) {
			printf("  %-8s not installed\n", w->key);
			continue;
		}
		printf("  %-8s %8.3f / %8.3f / %8.3f  "
		       "(%.2fx, %.2fx); %8.3f / %8.3f  "
		       "(%.2fx, %.2fx); --eager -c %8.3f (%.2fx)\n",
		       w->key, w->med[0], w->med[1], w->med[2],
		       w->med[1] / w->med[0],
		       w->med[2] / w->med[0], w->med[3],
		       w->med[4], w->med[3] / w->med[0],
		       w->med[4] / w->med[0], w->med[5],
		       w->med[5] / w->med[0]);
	}
	printf("planning in the -c run: sites, KiB of text read, us "
	       "(us per MiB, per site), objects left to traps\n");
	for (i = 0; i < NSTART; i++) {
		const struct start_row *w = &r->srows[i];

		if (!w->missing)
			printf("  %-8s %5ld %7ld %7ld (%.1f, %.2f) %ld; "
			       "at their third trap: %ld sites, %ld us; "
			       "from the tree: %ld sites; SIGSYS %ld\n",
			       w->key, w->sites, w->text_kib,
			       w->plan_us, w->text_kib ?
			       w->plan_us * 1024.0 / w->text_kib : 0,
			       w->sites ? (double)w->plan_us /
					  w->sites : 0, w->lazy,
			       w->first_sites, w->first_us, w->tree_sites,
			       w->traps);
	}
	printf("resident KiB: native %ld, -e trace=none %ld, -c %ld "
	       "(extra %ld)\n", r->mem[0], r->mem[1], r->mem[2],
	       r->mem[2] - r->mem[0]);
	printf("private dirty KiB: native %ld, -e trace=none %ld, -c %ld "
	       "(extra %ld / %ld)\n", r->priv[0], r->priv[1], r->priv[2],
	       r->priv[1] - r->priv[0], r->priv[2] - r->priv[0]);
	printf("attached (-p) to a getppid loop of %.0f calls/s, rate kept:",
	       r->attach.native);
	for (i = 0; i < SG_ATTACH_BENCH_N; i++)
		if (r->attach.ratio[i] < 0)
			printf(" %s -", attach_keys[i]);
		else
			printf(" %s %.3f", attach_keys[i], r->attach.ratio[i]);
	printf("\n");
	printf("private dirty KiB, started by the loader: native %ld, -c %ld, "
	       "--eager -c %ld (extra %ld / %ld)\n", r->lpriv[0], r->lpriv[1],
	       r->lpriv[2], r->lpriv[1] - r->lpriv[0], r->lpriv[2] - r->lpriv[0]);
	printf("--eager (SUD off once all is patched): emulate %.2f (%.3f x), "
	       "pass %.2f (%.3f x)\n", r->emed[0], r->emed[0] / r->nat,
	       r->emed[1], r->emed[1] / r->nat);
}

int sg_bench_main(int argc, char **argv)
{
	static struct results r = { .srows = srows };
	int i, json = 0;
	const char *plot = 0;
	char self[PATH_MAX];
	ssize_t len;
	const char *suite = "mechanisms";
	unsigned long fpu_size;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--json"))
			json = 1;
		else if (!strncmp(argv[i], "--suite=", 8))
			suite = argv[i] + 8;
		else if (!strcmp(argv[i], "--suite") && i + 1 < argc)
			suite = argv[++i];
		else if (!strcmp(argv[i], "--quick"))
			quick = 1;
		else if (!strcmp(argv[i], "--plot") && i + 1 < argc)
			plot = argv[++i];
		else {
			fprintf(stderr, "sysgate bench: unknown argument '%s'\n",
				argv[i]);
			return 1;
		}
	}
	len = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (len < 0)
		return 1;
	self[len] = 0;
	snprintf(dir, sizeof(dir), "%s", self);
	*strrchr(dir, '/') = 0;
	if (!strcmp(suite, "bypass"))
		return bench_bypass(json);
	if (strcmp(suite, "mechanisms")) {
		fprintf(stderr, "sysgate bench: suites are mechanisms (the "
				"default) and bypass\n");
		return 1;
	}
	if (plot && !plot_python()) {
		fprintf(stderr, "sysgate bench: --plot needs python3 with "
				"matplotlib\n");
		return 1;
	}
	r.rounds = quick ? 3 : 9;
	r.n = quick ? 200000 : 2000000;
	for (i = 0; i < NMECH; i++) {
		const char *why = 0;

		r.skipped[i] = sg_mech_find(mech_names[i])->probe(&why) < 0 ?
				       (why ? why : "not available here") : 0;
	}
	if (measure_loops(&r) < 0)
		return 1;
	measure_startup(&r);
	sg_fpu_probe(&fpu_size, &r.fpu_mask);
	uname(&r.u);
	if (json)
		report_json(&r);
	else
		report_text(&r);
	if (plot && draw(plot, r.nat, r.emu, r.pass, &r.u) < 0)
		return 1;
	return 0;
}
