/* SPDX-License-Identifier: MIT */
/* The running mechanism: the core calls it through here, and only it. */
#include "sg.h"
#include "options.h"
#include "mech.h"

static const struct sg_mechanism *const *known;
static const struct sg_mechanism *running;

int sg_mech_always(const char **why)
{
	*why = 0;
	return 0;
}

const struct sg_mechanism *sg_mech_lookup(const struct sg_mechanism *const *list,
					  const char *name)
{
	int i;

	for (i = 0; list && list[i]; i++)
		if (!sg_strcmp(list[i]->name, name))
			return list[i];
	return 0;
}

void sg_mech_use(const struct sg_mechanism *const *list)
{
	known = list;
}

int sg_mech_check(const struct sg_mechanism *m, const struct sg_options *opts,
		  const char **why)
{
	*why = 0;
	if (m->probe(why) < 0 || (m->check && m->check(opts, why) < 0)) {
		if (!*why)
			*why = "mechanism not available on this machine";
		return -1;
	}
	return 0;
}

int sg_mech_start(const struct sg_options *opts)
{
	const struct sg_mechanism *m = sg_mech_lookup(known, opts->mechanism);
	const char *why = 0;

	if (!m)
		sg_die("unknown mechanism (see sysgate --list-mechanisms)");
	if (sg_mech_check(m, opts, &why) < 0)
		sg_die(why);
	running = m;
	return m->start(opts);
}

void sg_mech_stats(void)
{
	if (running && running->stats)
		running->stats();
}

void sg_mech_release(void)
{
	if (running && running->release)
		running->release();
}

void sg_mech_new_code(unsigned long lo, unsigned long hi, int file)
{
	if (running && running->new_code)
		running->new_code(lo, hi, file);
}

void sg_mech_trapped(unsigned long site)
{
	if (running && running->trapped)
		running->trapped(site);
}

int sg_mech_code_begin(const struct sysgate_sys *call, unsigned long lo,
		       unsigned long hi)
{
	return running && running->code_begin ?
		       running->code_begin(call, lo, hi) : 0;
}

void sg_mech_code_end(int token, const struct sysgate_sys *call,
		      unsigned long lo, unsigned long hi)
{
	if (running && running->code_end)
		running->code_end(token, call, lo, hi);
}

void sg_mech_forked(void)
{
	if (running && running->forked)
		running->forked();
}

void sg_mech_threads(unsigned long site)
{
	if (running && running->threads)
		running->threads(site);
}

void sg_mech_psud(void)
{
	if (running && running->psud)
		running->psud();
}

void sg_mech_exit_stats(void)
{
	if (running && running->exit_stats)
		running->exit_stats();
}
