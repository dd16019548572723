/* SPDX-License-Identifier: MIT */
/*
 * Table-driven test of the option parser shared by the CLI and the
 * library (core/options.c): each row is a SYSGATE_OPTIONS string and what
 * it must give, or the error it must be refused with.  Every accepted row
 * also round-trips through sg_options_join.
 */
#include <stdio.h>
#include <string.h>
#include "options.h"

struct row {
	const char *in;
	const char *error;	/* substring of the one-line error, or 0 */
	int follow, count, json, strsize, ninject, nhooks;
	const char *trace, *outfile, *sortby, *hook_args_trace;
	const char *bypass, *hot;	/* "" for the bare option */
	const char *mechanism;	/* 0: the default, "patch" */
	int zeropage_readable_null;
};

/* strsize 0 in a row means "the default, 32" */
static const struct row rows[] = {
	{ "", 0 },
	{ "-c", 0, .count = 1 },
	{ "-C", 0, .count = 1 },
	{ "-f", 0, .follow = 1 },
	{ "-ff -o x", 0, .follow = 2, .outfile = "x" },
	{ "-f -f -o x", 0, .follow = 2, .outfile = "x" },
	{ "-o /tmp/a\\ b", 0, .outfile = "/tmp/a b" },
	{ "-o '/tmp/a b'", 0, .outfile = "/tmp/a b" },
	{ "-o/tmp/glued", 0, .outfile = "/tmp/glued" },
	{ "--output=/tmp/long", 0, .outfile = "/tmp/long" },
	{ "-s 100", 0, .strsize = 100 },
	{ "-s100", 0, .strsize = 100 },
	{ "-e trace=open,close", 0, .trace = "open,close" },
	{ "-e trace=%file -e trace=write", 0, .trace = "write" },
	{ "-etrace=read", 0, .trace = "read" },
	{ "-e read", 0, .trace = "read" },
	{ "--trace=!write", 0, .trace = "!write" },
	{ "-e inject=read:error=EIO -e fault=write", 0, .ninject = 2 },
	{ "--inject=read:retval=1", 0, .ninject = 1 },
	{ "--json", 0, .json = 1 },
	{ "-j", 0, .json = 1 },
	{ "-S calls -c", 0, .count = 1, .sortby = "calls" },
	{ "--hook=/x.so:a,b --hook=/y.so", 0, .nhooks = 2 },
	{ "-tt -T -f", 0, .follow = 1, .hook_args_trace = "t=2" },
	{ "-ttt", 0, .hook_args_trace = "t=3" },
	{ "-xx -X abbrev", 0, .hook_args_trace = "x=2" },
	{ "-y -r", 0, .hook_args_trace = "y\x1fr" },
	{ "-e decode-fds=path -r", 0, .hook_args_trace = "y\x1fr" },
	{ "-Y", 0, .hook_args_trace = "pids=1" },
	{ "--decode-pids=pidns,comm", 0, .hook_args_trace = "pids=3" },
	{ "--pidns-translation", 0, .hook_args_trace = "pids=2" },
	{ "--decode-pids=nosuch", "not supported" },
	{ "-m ptrace --decode-pids=pidns", "not with -m ptrace" },
	{ "-P /a -P/b", 0, .hook_args_trace = "P=/a\x1fP=/b" },
	{ "-v", 0, .hook_args_trace = "v" },
	{ "-qq", 0, .hook_args_trace = "noexit" },
	{ "-e quiet=attach,exit", 0, .hook_args_trace = "noexit" },
	{ "-e signal=!usr1", 0, .hook_args_trace = "signal=!usr1" },
	{ "-e read=3 -e write=all", 0,
	  .hook_args_trace = "read=3\x1fwrite=all" },
	/* runs of descriptors as ranges: strace's lists of every one fit */
	{ "-e read=!!0,1,2,5,6,9,all -e write=007,8", 0,
	  .hook_args_trace = "read=!!0-2,5-6,9,all\x1fwrite=7-8" },
	{ "-e read=1-3", "invalid descriptor set '1-3'" },
	{ "-n -a 0", 0, .hook_args_trace = "n\x1f" "a=0" },
	{ "-Z", 0, .hook_args_trace = "status=failed" },
	{ "-e status=successful,unfinished", 0,
	  .hook_args_trace = "status=successful,unfinished" },
	{ "--bypass", 0, .bypass = "" },
	{ "--bypass=pread,ids -f", 0, .follow = 1, .bypass = "pread,ids" },
	{ "--hot", 0, .hot = "" },
	{ "--hot=short-ns=500,calls=10 --json", 0, .json = 1,
	  .hot = "short-ns=500,calls=10" },
	{ "--hot --bypass=wlog", 0, .hot = "", .bypass = "wlog" },
	{ "-m zeropage", 0, .mechanism = "zeropage" },
	{ "--mechanism=zeropage --zeropage-readable-null -c", 0, .count = 1,
	  .mechanism = "zeropage", .zeropage_readable_null = 1 },
	/* refused */
	{ "--bogus", "unknown option" },
	{ "-W", "unknown option" },
	{ "-yy", 0 },
	{ "-X raw", 0, .hook_args_trace = "X=raw" },
	{ "-Xverbose -v", 0, .hook_args_trace = "v\x1fX=verbose" },
	{ "-X hex", "invalid -X style" },
	{ "-e abbrev=none -e verbose=!%file -e raw=read", 0,
	  .hook_args_trace = "abbrev=none\x1fverbose=!%file\x1fraw=read" },
	{ "-e quiet=bogus", "invalid quiet" },
	{ "--json -y", "not with --json" },
	{ "--json -X raw", "not with --json" },
	{ "-k -f", 0, .follow = 1, .hook_args_trace = "k" },
	{ "-k -m ptrace", "not with -m ptrace" },
	{ "-k --json", "not with --json" },
	{ "--json -v", 0, .json = 1, .hook_args_trace = "json\x1fleader\x1fv" },
	/* without -f only each process's first thread, as strace */
	{ "-e trace=read", 0, .trace = "read", .hook_args_trace = "leader" },
	{ "-a x", "invalid -a" },
	{ "-e decode-fds=socket", 0, .hook_args_trace = "fds=2" },
	{ "-e decode-fds=path,dev -yy", 0, .hook_args_trace = "yy" },
	{ "-e decode-fds=pidfd,path", 0, .hook_args_trace = "fds=9" },
	{ "-e decode-fds=all", 0, .hook_args_trace = "yy" },
	{ "-e decode-fds=none -y", 0, .hook_args_trace = "y" },
	{ "-e decode-fds=pid", "not supported" },
	{ "-s", "needs a value" },
	{ "-s -1", "invalid -s" },
	{ "-s 12x", "invalid -s" },
	{ "-e bogus=1", "invalid -e expression" },
	{ "-o", "needs a value" },
	{ "-o 'unterminated", "quote" },
	{ "--stats=1", "takes no value" },
	{ "--zeropage-readable-null=1", "takes no value" },
	{ 0 },
};

static int failures;

#define CHECK(cond, what)                                                   \
	do {                                                                 \
		if (!(cond)) {                                               \
			printf("row \"%s\": %s\n", r->in, what);             \
			failures++;                                          \
		}                                                            \
	} while (0)

static int same(const char *a, const char *b)
{
	return (!a && !b) || (a && b && !strcmp(a, b));
}

static void check_fields(const struct row *r, const struct sg_options *o)
{
	char args[1024];

	CHECK(o->follow == r->follow, "follow");
	CHECK(o->count == r->count, "count");
	CHECK(o->json == r->json, "json");
	CHECK(o->strsize == (r->strsize ? r->strsize : 32), "strsize");
	CHECK(o->ninject == r->ninject, "ninject");
	CHECK(o->nhooks == r->nhooks, "nhooks");
	CHECK(same(o->trace, r->trace), "trace");
	CHECK(same(o->outfile, r->outfile), "outfile");
	CHECK(same(o->sortby, r->sortby), "sortby");
	CHECK(same(o->bypass, r->bypass), "bypass");
	CHECK(same(o->hot, r->hot), "hot");
	CHECK(same(o->mechanism, r->mechanism ? r->mechanism : "patch"),
	      "mechanism");
	CHECK(o->zeropage_readable_null == r->zeropage_readable_null,
	      "zeropage_readable_null");
	if (r->hook_args_trace) {
		int n = sg_options_hook_args(o, "trace", args, sizeof(args));

		CHECK(n > 0 && strstr(args, r->hook_args_trace),
		      "trace hook arguments");
	}
}

int main(void)
{
	const struct row *r;
	int n = 0;

	for (r = rows; r->in; r++, n++) {
		static struct sg_options o, again;
		char joined[SG_OPT_BUF];
		char *argv[64];
		int rc, i;

		memset(&o, 0, sizeof(o));	/* the parser fills a zeroed struct */
		memset(&again, 0, sizeof(again));
		rc = sg_options_parse_string(&o, r->in);

		if (r->error) {
			CHECK(rc < 0, "accepted");
			CHECK(rc >= 0 || strstr(o.error, r->error), o.error);
			CHECK(!strchr(o.error, '\n'), "error has a newline");
			continue;
		}
		CHECK(rc == 0, o.error);
		if (rc)
			continue;
		check_fields(r, &o);
		/* The CLI passes argv to the library through join: the
		 * library must see the same options. */
		{
			static char copy[1024];
			char *p = copy, *save;

			snprintf(copy, sizeof(copy), "%s", r->in);
			/* rows without quotes split on spaces */
			if (strpbrk(r->in, "'\\"))
				continue;
			for (i = 0; (p = strtok_r(i ? 0 : copy, " ", &save)); i++)
				argv[i] = p;
			argv[i] = 0;
			CHECK(sg_options_join(joined, sizeof(joined), i, argv) >= 0,
			      "join");
			CHECK(sg_options_parse_string(&again, joined) == 0,
			      "reparse of join");
			check_fields(r, &again);
		}
	}
	printf("%d rows, %d failures\n", n, failures);
	return failures != 0;
}
