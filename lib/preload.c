/* SPDX-License-Identifier: MIT */
/* libsysgate.so starts sysgate from its constructor, before main(), with
 * the mechanisms and built-in hooks this library was composed of; what
 * sg_init needs from the process comes from the program's libc
 * (core/start.h). */
#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/auxv.h>
#include "sg.h"
#include "start.h"
#include "registry.h"

const char *sg_start_getenv(const char *name)
{
	return getenv(name);
}

void sg_start_setenv(const char *name, const char *value)
{
	setenv(name, value, 1);
}

void sg_start_unsetenv(const char *name)
{
	unsetenv(name);
}

unsigned long sg_start_auxv(unsigned long type)
{
	return getauxval(type);
}

/* This library, as the dynamic loader found it. */
const char *sg_start_library(void)
{
	Dl_info info;

	if (dladdr((void *)sg_start_library, &info) && info.dli_fname)
		return info.dli_fname;
	return "libsysgate.so";
}

/*
 * A fork sysgate did not see (libc's fork under -m preload, a raw fork
 * from unpatched code) leaves the child with its parent's pid in the
 * thread state, and memory reads would go to the parent: libc's fork at
 * least tells us.
 */
static void forked_unseen(void)
{
	struct sg_thread *t = sg_self();
	int pid = sg_sc0(SG_NR_getpid);

	sg.pid = pid;
	if (t && t->pid != pid) {
		t->pid = pid;
		t->tid = pid;
	}
}


void sg_start_thread(struct sg_thread *t)
{
	(void)t;
	pthread_atfork(0, 0, forked_unseen);
}

const struct sysgate_hook *sg_start_user_hook(const char *path,
					      const char **why)
{
	static char msg[400];
	const struct sysgate_hook **sym;
	void *dl = dlopen(path, RTLD_NOW | RTLD_LOCAL);

	if (!dl) {
		*why = sg_strjoin(msg, sizeof(msg), "cannot load hook: ",
				  dlerror(), "");
		return 0;
	}
	sym = dlsym(dl, "sysgate_hook_v1");
	if (!sym || !*sym) {
		*why = sg_strjoin(msg, sizeof(msg), "hook ", path,
				  " does not export sysgate_hook_v1 "
				  "(SYSGATE_HOOK_DEFINE)");
		return 0;
	}
	return *sym;
}

__attribute__((constructor(101))) static void sysgate_preload(void)
{
	sg_init(&sg_registry);
}
